extends SceneTree
# A Godot 4 client for examples/websocket_server (see README.md beside this file):
#
#   godot --headless --path examples/websocket_client -s client4.gd -- ws://127.0.0.1:9080/ ada
#
# (URL, player name). WebSocketPeer.put_var sends var_to_bytes(value) as one binary
# message, without the length prefix StreamPeerTCP would add, and get_packet returns one
# message: one value. The client says Hello, waits for Welcome, sends the rest of its
# script (including a text message and bytes that are no Variant, which the server
# answers with an Error), says Bye, closes after Goodbye and exits 0.
#
# Every value sent is printed as `SENT <var_to_bytes hex>`; every message received as
# `RECV <message hex> <var_to_bytes of the decoded value, hex> <var_to_str, one line>`.
# The engine tests (tests/engine/websocket.rs) read these lines.

const TIME_LIMIT := 15.0

var ws := WebSocketPeer.new()
var url := "ws://127.0.0.1:9080/"
var player := "ada"
var opened := false
var welcomed := false
var said_bye := false
var elapsed := 0.0


func _initialize():
	Engine.max_fps = 120
	var args := OS.get_cmdline_user_args()
	if args.size() > 0:
		url = args[0]
	if args.size() > 1:
		player = args[1]
	var err := ws.connect_to_url(url)
	if err != OK:
		print("FAIL connect_to_url ", url, ": error ", err)
		quit(1)
		return
	print("connecting to ", url)


func _process(delta: float) -> bool:
	elapsed += delta
	if elapsed > TIME_LIMIT:
		print("FAIL no Goodbye after ", TIME_LIMIT, " s (ready state ", ws.get_ready_state(), ")")
		quit(1)
		return true
	ws.poll()
	var state := ws.get_ready_state()
	if state == WebSocketPeer.STATE_OPEN and not opened:
		opened = true
		send({"Hello": {"name": player}})
	while ws.get_available_packet_count() > 0:
		var packet := ws.get_packet()
		var msg = bytes_to_var(packet)
		print("RECV ", packet.hex_encode(), " ", var_to_bytes(msg).hex_encode(), " ",
			var_to_str(msg).replace("\n", "\\n"))
		on_message(msg)
	if state == WebSocketPeer.STATE_CLOSED:
		print("CLOSED ", ws.get_close_code())
		if said_bye:
			print("DONE")
			quit(0)
		else:
			print("FAIL closed before Goodbye: ", ws.get_close_reason())
			quit(1)
		return true
	return false


# Sends one value as one binary message.
func send(value) -> void:
	ws.put_var(value)
	print("SENT ", var_to_bytes(value).hex_encode())


func on_message(msg) -> void:
	if not welcomed:
		if typeof(msg) == TYPE_DICTIONARY and msg.has("Welcome"):
			welcomed = true
			print("welcome: player ", msg["Welcome"]["id"], ", ", msg["Welcome"]["dialect"])
			play()
		else:
			print("FAIL expected Welcome, got ", msg)
			quit(1)
	elif typeof(msg) == TYPE_STRING and msg == "Goodbye":
		ws.close(1000, "bye")


# The rest of the conversation; the server answers each message in order.
func play() -> void:
	send({"Move": {"to": Vector3(4, 0.5, 0)}})
	send({"Paint": {"color": Color(1, 0.5, 0.25, 1)}})
	send({"Say": "héllo ✓ from Godot 4"})
	# Three things the server refuses (it answers Error and carries on): a text message,
	# a binary message that is no Variant packet, and a Variant that is no message.
	ws.send_text("hello?")
	print("SENT_TEXT hello?")
	var junk := PackedByteArray([255, 255, 255, 127])
	ws.put_packet(junk)
	print("SENT_RAW ", junk.hex_encode())
	send({"Fly": {"to": 1}})
	send({"Move": {"to": Vector3(4, 0.5, -2.5)}})
	send("Bye")
	said_bye = true
