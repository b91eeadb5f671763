extends SceneTree
# A Godot 3 client for examples/websocket_server (see README.md beside this file), run from
# the repository's root:
#
#   godot3 --no-window -s examples/websocket_client/client3.gd -- ws://127.0.0.1:9080/godot3 ada
#
# (URL, player name; the /godot3 path tells the server to speak Godot 3's encoding).
# WebSocketClient's peer is a PacketPeer: in binary write mode, put_var sends
# var2bytes(value) as one binary message, without the length prefix StreamPeerTCP would
# add, and get_packet returns one message: one value. The conversation is the one
# client4.gd has.
#
# Every value sent is printed as `SENT <var2bytes hex>`; every message received as
# `RECV <message hex> <var2bytes of the decoded value, hex> <var2str, one line>`.
# The engine tests (tests/engine/websocket.rs) read these lines.

const TIME_LIMIT = 15.0

var client = WebSocketClient.new()
var peer = null
var url = "ws://127.0.0.1:9080/godot3"
var player = "ada"
var welcomed = false
var said_bye = false
var elapsed = 0.0


func _init():
	Engine.target_fps = 120
	var args = Array(OS.get_cmdline_args())
	var at = args.find("--")
	if at >= 0 and args.size() > at + 1:
		url = args[at + 1]
	if at >= 0 and args.size() > at + 2:
		player = args[at + 2]
	var err = client.connect_to_url(url)
	if err != OK:
		print("FAIL connect_to_url ", url, ": error ", err)
		quit(1)
		return
	print("connecting to ", url)


func _idle(delta):
	elapsed += delta
	if elapsed > TIME_LIMIT:
		print("FAIL no Goodbye after ", TIME_LIMIT, " s (status ", client.get_connection_status(), ")")
		quit(1)
		return true
	client.poll()
	var status = client.get_connection_status()
	if status == NetworkedMultiplayerPeer.CONNECTION_CONNECTED and peer == null:
		peer = client.get_peer(1)
		# Binary messages; text mode would send the same bytes as a text message.
		peer.set_write_mode(WebSocketPeer.WRITE_MODE_BINARY)
		send({"Hello": {"name": player}})
	if peer != null:
		while peer.get_available_packet_count() > 0:
			var packet = peer.get_packet()
			var msg = bytes2var(packet)
			print("RECV ", packet.hex_encode(), " ", var2bytes(msg).hex_encode(), " ",
				var2str(msg).replace("\n", "\\n"))
			on_message(msg)
	if status == NetworkedMultiplayerPeer.CONNECTION_DISCONNECTED:
		if said_bye and peer != null:
			print("CLOSED")
			print("DONE")
			quit(0)
		else:
			print("FAIL disconnected before Goodbye")
			quit(1)
		return true
	return false


# Sends one value as one binary message.
func send(value):
	peer.put_var(value)
	print("SENT ", var2bytes(value).hex_encode())


func on_message(msg):
	if not welcomed:
		if typeof(msg) == TYPE_DICTIONARY and msg.has("Welcome"):
			welcomed = true
			print("welcome: player ", msg["Welcome"]["id"], ", ", msg["Welcome"]["dialect"])
			play()
		else:
			print("FAIL expected Welcome, got ", msg)
			quit(1)
	elif typeof(msg) == TYPE_STRING and msg == "Goodbye":
		client.disconnect_from_host(1000, "bye")


# The rest of the conversation; the server answers each message in order.
func play():
	send({"Move": {"to": Vector3(4, 0.5, 0)}})
	send({"Paint": {"color": Color(1, 0.5, 0.25, 1)}})
	send({"Say": "héllo ✓ from Godot 3"})
	# Three things the server refuses (it answers Error and carries on): a text message,
	# a binary message that is no Variant packet, and a Variant that is no message.
	peer.set_write_mode(WebSocketPeer.WRITE_MODE_TEXT)
	peer.put_packet("hello?".to_utf8())
	peer.set_write_mode(WebSocketPeer.WRITE_MODE_BINARY)
	print("SENT_TEXT hello?")
	var junk = PoolByteArray([255, 255, 255, 127])
	peer.put_packet(junk)
	print("SENT_RAW ", junk.hex_encode())
	send({"Fly": {"to": 1}})
	send({"Move": {"to": Vector3(4, 0.5, -2.5)}})
	send("Bye")
	said_bye = true
