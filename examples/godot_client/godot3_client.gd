extends SceneTree
# A Godot 3 client for examples/game_server.rs, runnable headless:
#
#   godot3 --no-window -s godot3_client.gd -- 127.0.0.1:4242 ada 5
#
# (address, player name, seconds to play). It logs in, walks in a circle sending its
# state ten times a second, chats, and prints what the server sends. Start the server
# with `--dialect godot3`. game_client.gd is the Godot 4 version.

const PROTOCOL_VERSION = 1

var peer = StreamPeerTCP.new()
var player_name = "godot3"
var play_for = 5.0
var my_id = -1
var clock = 0.0
var next_state = 0.0
var logged_in = false
var chatted = false


func _init():
	Engine.target_fps = 60
	var args = Array(OS.get_cmdline_args())
	var address = "127.0.0.1:4242"
	var at = args.find("--")
	if at >= 0 and args.size() > at + 1:
		address = args[at + 1]
	if at >= 0 and args.size() > at + 2:
		player_name = args[at + 2]
	if at >= 0 and args.size() > at + 3:
		play_for = float(args[at + 3])
	var colon = address.find_last(":")
	var err = peer.connect_to_host(address.substr(0, colon), int(address.substr(colon + 1)))
	if err != OK:
		print("cannot connect to ", address, ": error ", err)
		quit(1)
	print("connecting to ", address)


func _idle(delta):
	clock += delta
	var status = peer.get_status()
	if status == StreamPeerTCP.STATUS_CONNECTING:
		return false
	if status != StreamPeerTCP.STATUS_CONNECTED:
		print("disconnected")
		quit(1)
		return true
	if not logged_in:
		# An enum variant with fields is a one-entry Dictionary on the wire.
		peer.put_var({"Login": {"name": player_name, "version": PROTOCOL_VERSION}})
		logged_in = true
	# get_var blocks until a whole value has arrived, so only call it when bytes are waiting.
	while peer.get_available_bytes() > 0:
		_on_message(peer.get_var())
	if my_id < 0:
		return false
	if clock >= next_state:
		next_state = clock + 0.1
		var angle = clock
		var position = Vector2(cos(angle), sin(angle)) * 100.0
		var velocity = Vector2(-sin(angle), cos(angle)) * 100.0
		peer.put_var({"State": {"position": position, "velocity": velocity}})
	if not chatted and clock > 1.0:
		chatted = true
		peer.put_var({"Chat": {"Say": "hello from Godot 3"}})
		peer.put_var({"Chat": "Wave"})  # a unit variant is a bare String
		peer.put_var({"Chat": {"Whisper": {"to": my_id, "text": "note to self"}}})
	if clock > play_for:
		print("done after ", play_for, " s")
		peer.disconnect_from_host()
		quit(0)
		return true
	return false


func _on_message(msg):
	if typeof(msg) != TYPE_DICTIONARY or msg.size() != 1:
		print("unexpected: ", msg)
		return
	var kind = msg.keys()[0]
	var body = msg[kind]
	match kind:
		"Welcome":
			my_id = body["id"]
			print("welcome: I am player ", my_id, ", ", body["players"].size(), " already here")
		"Joined":
			print("joined: ", body["name"], " (", body["id"], ")")
		"Left":
			print("left: ", body["id"])
		"Snapshot":
			if int(body["tick"]) % 10 == 0:
				for p in body["players"]:
					print("tick ", body["tick"], ": ", p["name"], " at ", p["position"])
		"Chat":
			print("chat from ", body["name"], ": ", body["chat"])
		"Error":
			print("server error: ", body)
		_:
			print("unknown message: ", msg)
