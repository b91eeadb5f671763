extends SceneTree
## Runs game_client.gd headless for a while: logs in, walks in a circle sending its
## state ten times a second, chats, and prints what the server sends.
##
##   godot --headless --path examples/godot_client -s main.gd -- 127.0.0.1:4242 ada 10
##
## (address, player name, seconds to play; all optional).

const GameClient := preload("res://game_client.gd")

var client: GameClient
var clock := 0.0
var play_for := 10.0
var next_state := 0.0
var chatted := false


func _initialize() -> void:
	Engine.max_fps = 60
	var args := OS.get_cmdline_user_args()
	var address: String = args[0] if args.size() > 0 else "127.0.0.1:4242"
	var player_name: String = args[1] if args.size() > 1 else "godot4"
	if args.size() > 2:
		play_for = args[2].to_float()
	client = GameClient.new()
	root.add_child(client)
	client.welcomed.connect(_on_welcomed)
	client.player_joined.connect(func(id, who): print("joined: %s (%d)" % [who, id]))
	client.player_left.connect(func(id): print("left: %d" % id))
	client.snapshot_received.connect(_on_snapshot)
	client.chat_received.connect(func(_id, who, chat): print("chat from %s: %s" % [who, chat]))
	client.server_error.connect(func(message): print("server error: ", message))
	client.disconnected.connect(_on_disconnected)
	var colon := address.rfind(":")
	var err := client.connect_to_server(
		address.substr(0, colon), address.substr(colon + 1).to_int(), player_name
	)
	if err != OK:
		print("cannot connect to %s: %s" % [address, error_string(err)])
		quit(1)
		return
	print("connecting to ", address)


func _process(delta: float) -> bool:
	clock += delta
	if client.my_id >= 0 and clock >= next_state:
		next_state = clock + 0.1
		var direction := Vector2.from_angle(clock)
		client.send_state(direction * 100.0, direction.orthogonal() * -100.0)
	if client.my_id >= 0 and not chatted and clock > 1.0:
		chatted = true
		client.say("hello from Godot 4")
		client.emote("Wave")
		client.whisper(client.my_id, "note to self")
	if clock > play_for:
		print("done after %.1f s" % play_for)
		client.peer.disconnect_from_host()
		quit(0)
	return false


func _on_welcomed(id: int, players: Array) -> void:
	print("welcome: I am player %d, %d already here" % [id, players.size()])


func _on_snapshot(tick: int, players: Array) -> void:
	if tick % 10 == 0:
		for p in players:
			print("tick %d: %s at %s" % [tick, p["name"], p["position"]])


func _on_disconnected() -> void:
	print("disconnected")
	quit(1)
