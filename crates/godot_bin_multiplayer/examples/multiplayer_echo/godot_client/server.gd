extends SceneTree
# The engine's own echo server, for comparison with the Rust one:
#   godot --headless --path godot_client -s server.gd -- ws 9080   (or: enet 9081)
# A third argument binds to that address only (e.g. 127.0.0.1); the default is every one.

var echo: Node

func _initialize():
	_start.call_deferred()

func _start():
	var args := OS.get_cmdline_user_args()
	var transport: String = args[0] if args.size() > 0 else "ws"
	var port: int = int(args[1]) if args.size() > 1 else 9080
	var bind: String = args[2] if args.size() > 2 else "*"
	echo = Node.new()
	echo.set_script(load("res://echo.gd"))
	echo.name = "Echo"
	root.add_child(echo)
	var peer
	if transport == "ws":
		peer = WebSocketMultiplayerPeer.new()
		peer.create_server(port, bind)
	else:
		peer = ENetMultiplayerPeer.new()
		peer.set_bind_ip(bind)
		peer.create_server(port, 4095)
	root.multiplayer.multiplayer_peer = peer
	root.multiplayer.peer_connected.connect(func(id): print("peer connected ", id))
	root.multiplayer.peer_disconnected.connect(func(id): print("peer disconnected ", id))
	print("listening ", transport, " ", port)
