extends SceneTree
# Connects to the echo server and shows the round trip of each RPC.
#   godot --headless --path godot_client -s client.gd -- ws 127.0.0.1 9080
#   godot --headless --path godot_client -s client.gd -- enet 127.0.0.1 9081

var echo: Node
var pending := {}

func _initialize():
	_start.call_deferred()

func _start():
	var args := OS.get_cmdline_user_args()
	var transport: String = args[0] if args.size() > 0 else "ws"
	var host: String = args[1] if args.size() > 1 else "127.0.0.1"
	var port: int = int(args[2]) if args.size() > 2 else (9080 if transport == "ws" else 9081)
	echo = Node.new()
	echo.set_script(load("res://echo.gd"))
	echo.name = "Echo"
	root.add_child(echo)
	echo.answered.connect(_on_answer)
	var peer
	if transport == "ws":
		peer = WebSocketMultiplayerPeer.new()
		peer.create_client("ws://%s:%d" % [host, port])
	else:
		peer = ENetMultiplayerPeer.new()
		peer.create_client(host, port)
	root.multiplayer.multiplayer_peer = peer
	root.multiplayer.connected_to_server.connect(_on_connected)
	root.multiplayer.connection_failed.connect(func(): print("connection failed"); quit(1))
	create_timer(10.0).timeout.connect(func(): print("timed out waiting for answers: ", pending.keys()); quit(1))

func _on_connected():
	print("connected as ", root.multiplayer.get_unique_id())
	pending = {"echo": [42], "echo_many": [1, "two", Vector3(3, 4, 5)], "echo_unreliable": [0.5]}
	echo.rpc_id(1, "echo", 42)
	echo.rpc_id(1, "echo_many", 1, "two", Vector3(3, 4, 5))
	echo.rpc_id(1, "echo_unreliable", 0.5)

func _on_answer(method: String, args: Array):
	print("round trip ", method, " ", args, " from ", root.multiplayer.get_remote_sender_id())
	if pending.get(method) == args:
		pending.erase(method)
	if pending.is_empty():
		print("all round trips ok")
		quit(0)
