# Makes the resource and scene fixtures of tests/it/resource/ with Godot 3.2.3:
#   godot3-server --no-window -s make_resources3.gd
# run in this folder (item3.gd beside it); it writes godot3/: each resource and scene as
# text (.tres, .tscn), binary (.res, .scn) and compressed binary (_c.res, _c.scn).
extends SceneTree

func save_all(res, name, text_ext, bin_ext):
	ResourceSaver.save("res://godot3/%s.%s" % [name, text_ext], res)
	ResourceSaver.save("res://godot3/%s.%s" % [name, bin_ext], res)
	ResourceSaver.save("res://godot3/%s_c.%s" % [name, bin_ext], res, ResourceSaver.FLAG_COMPRESS)

func _init():
	var icon = Gradient.new()
	icon.offsets = PoolRealArray([0.0, 0.5, 1.0])
	icon.colors = PoolColorArray([Color(1, 0, 0), Color(0, 1, 0), Color(0, 0, 1)])
	ResourceSaver.save("res://godot3/icon.tres", icon)
	icon = load("res://godot3/icon.tres")

	var item = Resource.new()
	item.set_script(load("res://item3.gd"))
	item.name = "Sword of \"Truth\""
	item.hp = 150
	item.weight = 2.5
	item.pos = Vector2(1.5, -2)
	item.tags = PoolStringArray(["sharp", "heavy"])
	item.icon = icon
	var curve = Curve.new()
	curve.add_point(Vector2(0, 0.25))
	curve.add_point(Vector2(1, 1))
	item.curve = curve
	var inner = Resource.new()
	inner.resource_name = "gem"
	inner.set_meta("value", 25)
	item.parts = [inner, inner, null]
	item.set_meta("note", "forged in\nthe north")
	item.set_meta("big", 1 << 40)
	item.set_meta("third", 1.0 / 3.0)
	item.set_meta("where", NodePath("../World:position"))
	item.set_meta("blob", PoolByteArray([0, 1, 2, 253, 254, 255]))
	save_all(item, "item", "tres", "res")

	var sub = Node2D.new()
	sub.name = "Enemy"
	var eye = Node.new()
	eye.name = "Eye"
	sub.add_child(eye)
	eye.owner = sub
	var sub_scene = PackedScene.new()
	sub_scene.pack(sub)
	ResourceSaver.save("res://godot3/enemy.tscn", sub_scene)

	var root = Node2D.new()
	root.name = "Level"
	root.position = Vector2(10, 20)
	root.set_meta("difficulty", 3)
	root.add_to_group("levels", true)
	var timer = Timer.new()
	timer.name = "Timer"
	timer.wait_time = 1.5
	timer.one_shot = true
	root.add_child(timer)
	timer.owner = root
	var player = Node2D.new()
	player.name = "Player"
	player.position = Vector2(-3, 4.25)
	player.add_to_group("actors", true)
	player.add_to_group("players", true)
	player.set_meta("hp", 100)
	player.set_meta("gear", item)
	root.add_child(player)
	player.owner = root
	var enemy = load("res://godot3/enemy.tscn").instance()
	enemy.name = "Enemy"
	enemy.position = Vector2(7, 7)
	root.add_child(enemy)
	enemy.owner = root
	var mark = Spatial.new()
	mark.name = "Mark"
	mark.translation = Vector3(0.1, 0.2, 0.3)
	player.add_child(mark)
	mark.owner = root
	timer.connect("timeout", player, "set_meta", ["hp", 0], CONNECT_PERSIST | CONNECT_DEFERRED)
	timer.connect("timeout", root, "queue_free", [], CONNECT_PERSIST)
	var scene = PackedScene.new()
	scene.pack(root)
	save_all(scene, "level", "tscn", "scn")
	quit()
