extends SceneTree
# Engine side of tests/engine/multiplayer.rs. Args: role transport port scenario.
# Every line the Rust test reads starts with "MP ".

var game: Node
var mp: SceneMultiplayer
var scenario: String
var pending := []
var other := 0

func values() -> Array:
	return [null, true, false, 0, -1, 127, 128, -129, 40000, -70000, 3000000000,
		-9223372036854775807, 0.5, 0.1, "héllo", Vector2(1, 2), Vector2i(3, 4),
		Rect2(1, 2, 3, 4), Rect2i(1, 2, 3, 4), Vector3(1, 2, 3), Vector3i(1, 2, 3),
		Transform2D(0.5, Vector2(1, 2)), Vector4(1, 2, 3, 4), Vector4i(1, 2, 3, 4),
		Plane(1, 2, 3, 4), Quaternion(1, 2, 3, 4), AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)),
		Basis(Vector3(1, 0, 0), 0.5), Transform3D(Basis(), Vector3(1, 2, 3)), Projection(),
		Color(0.25, 0.5, 0.75, 1), &"name", NodePath("a/b:c"), {"a": 1, 2: [3]},
		[1, "x", [2]], [Vector2(1, 2)] as Array[Vector2],
		PackedByteArray([1, 2, 3]), PackedInt32Array([1, -2]), PackedInt64Array([1, 1 << 40]),
		PackedFloat32Array([0.5]), PackedFloat64Array([0.1]), PackedStringArray(["a", "b"]),
		PackedVector2Array([Vector2(1, 2)]), PackedVector3Array([Vector3(1, 2, 3)]),
		PackedColorArray([Color(1, 0, 0)]), PackedVector4Array([Vector4(1, 2, 3, 4)]), RID()]

func _initialize():
	_start.call_deferred()

func _start():
	var a := OS.get_cmdline_user_args()
	var role: String = a[0]
	var transport: String = a[1]
	var port := int(a[2])
	scenario = a[3]
	game = Node.new()
	game.set_script(load("res://rpcnode.gd"))
	game.name = "Game"
	root.add_child(game)
	game.rpc_config("set_process", {"rpc_mode": MultiplayerAPI.RPC_MODE_ANY_PEER})
	game.got.connect(_on_got)
	mp = root.multiplayer
	if scenario == "spawn":
		_make_spawner()
	if scenario.begins_with("auth"):
		mp.auth_callback = _on_auth
		mp.peer_authenticating.connect(func(id): mp.send_auth(id, "secret".to_utf8_buffer()))
		mp.peer_authentication_failed.connect(func(id): print("MP auth_failed ", id); quit(0))
	var peer
	if transport == "ws":
		peer = WebSocketMultiplayerPeer.new()
		if role == "server":
			peer.create_server(port)
		else:
			peer.create_client("ws://127.0.0.1:%d" % port)
	else:
		peer = ENetMultiplayerPeer.new()
		if role == "server":
			peer.create_server(port)
		else:
			peer.create_client("127.0.0.1", port)
	mp.multiplayer_peer = peer
	mp.connected_to_server.connect(_on_connected)
	mp.peer_connected.connect(_on_peer)
	mp.peer_disconnected.connect(func(id): print("MP peer_disconnected ", id); if role == "server": quit(0))
	mp.server_disconnected.connect(func(): print("MP server_disconnected"); quit(0))
	mp.peer_packet.connect(func(id, b): print("MP packet ", id, " ", b))
	if role == "server":
		print("MP listening")
	create_timer(20.0).timeout.connect(func(): print("MP timeout"); quit(1))

func _on_auth(id: int, data: PackedByteArray):
	var text := data.get_string_from_utf8()
	print("MP auth_data ", text)
	if text == "ok":
		mp.complete_auth(id)

func _on_connected():
	print("MP connected ", mp.get_unique_id())
	if scenario == "calls" or scenario.begins_with("auth"):
		_send_calls()

func _send_calls():
	game.rpc_id(1, "noargs")
	pending.append(["noargs", []])
	game.rpc_id(1, "bytes_only", PackedByteArray([1, 2, 3]))
	pending.append(["bytes_only", [PackedByteArray([1, 2, 3])]])
	var vs := values()
	for v in vs:
		mp.send_bytes(var_to_bytes(v), 1)
		game.rpc_id(1, "echo", v)
		pending.append(["echo", [v]])
	game.rpc_id(1, "echo_many", 300, true, "x")
	pending.append(["echo_many", [300, true, "x"]])
	game.rpc_id(1, "set_process", false)
	mp.send_bytes(PackedByteArray([0xAA, 0xBB]), 1)

func _on_peer(id: int):
	print("MP peer_connected ", id)
	if scenario == "relay" and id != 1:
		other = id
		game.rpc_id(id, "relay_hello", mp.get_unique_id())

func _on_got(method: String, args: Array):
	if method == "from_server":
		print("MP from_server ", var_to_str(args).replace("\n", " "))
		return
	if method == "relay_hello":
		print("MP relay_hello ", args[0], " ", args[1])
		# Stay a moment so the other client gets ours too.
		create_timer(1.0).timeout.connect(func(): quit(0))
		return
	if mp.is_server():
		return
	if pending.is_empty():
		print("MP unexpected ", method)
		return
	var want = pending.pop_front()
	# var_to_str, not var_to_bytes: the engine leaves a NodePath packet's padding unwritten.
	var same: bool = want[0] == method and var_to_str(want[1]) == var_to_str(args)
	print("MP echo ", "ok" if same else "bad", " ", method, " ", var_to_str(args).replace("\n", " "))
	if pending.is_empty():
		print("MP done")
		quit(0)

func _make_spawner():
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.spawn_path = NodePath(".")
	spawner.spawn_function = func(arg):
		print("MP spawn_arg ", arg)
		var n := Node2D.new()
		var sync := MultiplayerSynchronizer.new()
		sync.name = "Sync"
		var cfg := SceneReplicationConfig.new()
		cfg.add_property(NodePath(".:position"))
		cfg.property_set_spawn(NodePath(".:position"), true)
		cfg.property_set_replication_mode(NodePath(".:position"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
		cfg.add_property(NodePath(".:rotation"))
		cfg.property_set_spawn(NodePath(".:rotation"), false)
		cfg.property_set_replication_mode(NodePath(".:rotation"), SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
		sync.replication_config = cfg
		sync.synchronized.connect(func(): _synced(n))
		sync.delta_synchronized.connect(func(): print("MP delta ", n.rotation))
		n.add_child(sync)
		return n
	spawner.spawned.connect(func(n): print("MP spawned ", n.name, " ", n.position))
	spawner.despawned.connect(func(n): print("MP despawned ", n.name); quit(0))
	game.add_child(spawner)

var last_pos = null
func _synced(n: Node2D):
	if n.position != last_pos:
		last_pos = n.position
		print("MP synced ", n.position)
