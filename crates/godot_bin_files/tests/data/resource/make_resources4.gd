# Makes the resource and scene fixtures of tests/it/resource/ with Godot 4.4.1:
#   godot4 --headless --path <a project folder> -s make_resources4.gd
# in a folder holding this script, item.gd and a project.godot; it writes godot4/ there:
# each resource and scene as text (.tres, .tscn), binary (.res, .scn) and compressed
# binary (_c.res, _c.scn).
extends SceneTree

func save_all(res: Resource, name: String, text_ext: String, bin_ext: String) -> void:
	ResourceSaver.save(res, "res://godot4/%s.%s" % [name, text_ext])
	ResourceSaver.save(res, "res://godot4/%s.%s" % [name, bin_ext])
	ResourceSaver.save(res, "res://godot4/%s_c.%s" % [name, bin_ext], ResourceSaver.FLAG_COMPRESS)

func _init():
	var icon := Gradient.new()
	icon.offsets = PackedFloat32Array([0.0, 0.5, 1.0])
	icon.colors = PackedColorArray([Color(1, 0, 0), Color(0, 1, 0), Color(0, 0, 1)])
	ResourceSaver.save(icon, "res://godot4/icon.tres")
	icon = load("res://godot4/icon.tres")

	var item := Resource.new()
	item.set_script(load("res://item.gd"))
	item.name = "Sword of \"Truth\""
	item.hp = 150
	item.weight = 2.5
	item.pos = Vector2(1.5, -2)
	item.tags = PackedStringArray(["sharp", "heavy"])
	item.icon = icon
	var curve := Curve.new()
	curve.add_point(Vector2(0, 0.25))
	curve.add_point(Vector2(1, 1))
	item.curve = curve
	var inner := Resource.new()
	inner.resource_name = "gem"
	inner.set_meta("value", 25)
	var parts: Array[Resource] = [inner, inner, null]
	item.parts = parts
	item.set_meta("note", "forged in\nthe north")
	item.set_meta("ids", [1, 2, 3] as Array[int])
	item.set_meta("big", 1 << 40)
	item.set_meta("third", 1.0 / 3.0)
	item.set_meta("where", NodePath("../World:position"))
	item.set_meta("blob", PackedByteArray([0, 1, 2, 253, 254, 255]))
	save_all(item, "item", "tres", "res")

	var v4 := Resource.new()
	v4.set_meta("quads", PackedVector4Array([Vector4(1, 2, 3, 4)]))
	v4.set_meta("blob", PackedByteArray([0, 1, 2, 253, 254, 255]))
	save_all(v4, "vec4", "tres", "res")

	var sub := Node2D.new()
	sub.name = "Enemy"
	var eye := Node.new()
	eye.name = "Eye"
	sub.add_child(eye)
	eye.owner = sub
	var sub_scene := PackedScene.new()
	sub_scene.pack(sub)
	ResourceSaver.save(sub_scene, "res://godot4/enemy.tscn")

	var root := Node2D.new()
	root.name = "Level"
	root.position = Vector2(10, 20)
	root.set_meta("difficulty", 3)
	root.add_to_group("levels", true)
	var timer := Timer.new()
	timer.name = "Timer"
	timer.wait_time = 1.5
	timer.one_shot = true
	root.add_child(timer)
	timer.owner = root
	var player := Node2D.new()
	player.name = "Player"
	player.position = Vector2(-3, 4.25)
	player.add_to_group("actors", true)
	player.add_to_group("players", true)
	player.set_meta("hp", 100)
	player.set_meta("gear", item)
	root.add_child(player)
	player.owner = root
	var enemy = load("res://godot4/enemy.tscn").instantiate()
	enemy.name = "Enemy"
	enemy.position = Vector2(7, 7)
	root.add_child(enemy)
	enemy.owner = root
	root.set_editable_instance(enemy, true)
	var mark := Node3D.new()
	mark.name = "Mark"
	mark.position = Vector3(0.1, 0.2, 0.3)
	player.add_child(mark)
	mark.owner = root
	timer.connect("timeout", Callable(player, "set_meta").bind("hp", 0), CONNECT_PERSIST | CONNECT_DEFERRED)
	timer.connect("timeout", Callable(root, "queue_free"), CONNECT_PERSIST)
	var scene := PackedScene.new()
	scene.pack(root)
	save_all(scene, "level", "tscn", "scn")
	quit()
