extends Node
# /root/Game in the multiplayer engine tests. The Rust side declares the same RPC list
# (sorted: bytes_only, echo, echo_many, from_server, noargs, relay_hello) plus the
# node-level rpc_config "set_process".

signal got(method: String, args: Array)

func _answer(method: String, args: Array):
	if multiplayer.is_server():
		callv("rpc_id", [multiplayer.get_remote_sender_id(), method] + args)
	got.emit(method, args)

@rpc("any_peer")
func echo(v):
	_answer("echo", [v])

@rpc("any_peer")
func echo_many(a, b, c):
	_answer("echo_many", [a, b, c])

@rpc("any_peer")
func noargs():
	_answer("noargs", [])

@rpc("any_peer")
func bytes_only(b):
	_answer("bytes_only", [b])

@rpc("any_peer")
func from_server(a, b, c):
	got.emit("from_server", [a, b, c])

@rpc("any_peer", "call_remote", "unreliable_ordered", 1)
func relay_hello(x):
	got.emit("relay_hello", [x, multiplayer.get_remote_sender_id()])
