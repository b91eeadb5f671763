# Helpers for tests/engine/godot4_stream.rs (Godot 4): the comparison of a value sent
# with the value that came back, and the values no literal can make.
extends RefCounted

## A signal of this object, for the Signal case.
signal done


## Whether `got` is `sent` after a trip through the crate: same type, `==` and the same
## var_to_bytes (which also sees the element types of typed containers; NodePath aside). An object sent
## as its id comes back as an EncodedObjectAsID holding that id; a full object as a new
## object of the same class and properties.
func same(sent, got, name: String) -> bool:
	if name == "object_as_id":
		return got is EncodedObjectAsID and got.get_object_id() == sent.get_instance_id()
	if name == "object_full":
		return got is Resource and got.get_class() == sent.get_class() \
				and got.resource_name == sent.resource_name
	if typeof(sent) != typeof(got):
		return false
	# The engine leaves NodePath padding unwritten, so its bytes differ call to call.
	if sent is NodePath:
		return sent == got
	return sent == got and var_to_bytes(sent) == var_to_bytes(got)


func make_resource() -> Resource:
	var r := Resource.new()
	r.resource_name = "hero"
	return r


## About 300 kB: arrives at the crate in many reads, and back at the engine likewise.
func big_bytes() -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(300000)
	for i in range(b.size()):
		b[i] = (i * 7) % 251
	return b


## Waits (bounded) until the peer has bytes to read; whether it has.
func wait_for_bytes(peer: StreamPeerTCP) -> bool:
	var waited := 0
	while waited < 10000:
		peer.poll()
		if peer.get_available_bytes() > 0:
			return true
		OS.delay_msec(1)
		waited += 1
	return false


## Connects (bounded wait); whether the peer is connected.
func connect_peer(peer: StreamPeerTCP, port: int) -> bool:
	if peer.connect_to_host("127.0.0.1", port) != OK:
		return false
	var waited := 0
	while waited < 10000:
		peer.poll()
		if peer.get_status() != StreamPeerTCP.STATUS_CONNECTING:
			break
		OS.delay_msec(2)
		waited += 2
	return peer.get_status() == StreamPeerTCP.STATUS_CONNECTED
