# Makes the fixtures of issue 41's regression tests with Godot 4.4.1:
#   godot4 --headless --path <a project folder> -s make_issue41_4.gd
# in a folder holding this script and a project.godot; it writes godot4/issue41/ there.
# index: a node added under a node of an instanced scene (the engines write `index="0"`);
# bytes4: a PackedByteArray of 65 bytes (text format 4, base64); rid: a RID in a binary
# resource; tiny: a double no text brings back through the engine's reading; rel/: a
# text resource whose [ext_resource] path is relative (as files carried from Godot 3 and
# other tools' files have them: the script writes its text), and the engine's binary of it.
extends SceneTree

func save_both(res: Resource, name: String, text_ext: String, bin_ext: String) -> void:
	ResourceSaver.save(res, "res://godot4/issue41/%s.%s" % [name, text_ext])
	ResourceSaver.save(res, "res://godot4/issue41/%s.%s" % [name, bin_ext])

func _init():
	DirAccess.make_dir_recursive_absolute("res://godot4/issue41")
	var sub := Node2D.new()
	sub.name = "Body"
	for n in ["Head", "Tail"]:
		var c := Node2D.new()
		c.name = n
		sub.add_child(c)
		c.owner = sub
	var sub_scene := PackedScene.new()
	sub_scene.pack(sub)
	ResourceSaver.save(sub_scene, "res://godot4/issue41/body.tscn")

	var root := Node2D.new()
	root.name = "World"
	var body = load("res://godot4/issue41/body.tscn").instantiate()
	body.name = "Body"
	root.add_child(body)
	body.owner = root
	var hat := Node2D.new()
	hat.name = "Hat"
	body.get_node("Head").add_child(hat)
	hat.owner = root
	root.set_editable_instance(body, true)
	var wing := Node2D.new()
	wing.name = "Wing"
	body.get_node("Tail").add_child(wing)
	var fin := Node2D.new()
	fin.name = "Fin"
	body.get_node("Tail").add_child(fin)
	body.get_node("Tail").move_child(fin, 0)
	fin.owner = root
	wing.owner = root
	var scene := PackedScene.new()
	scene.pack(root)
	save_both(scene, "index", "tscn", "scn")

	var blob := PackedByteArray()
	for i in 65:
		blob.append(i * 3)
	var b4 := Resource.new()
	b4.set_meta("blob", blob)
	b4.set_meta("small", PackedByteArray([1, 2, 3]))
	b4.set_meta("low", -INF)
	save_both(b4, "bytes4", "tres", "res")

	var r := Resource.new()
	r.set_meta("rid", rid_from_int64(77))
	r.set_meta("n", 5)
	save_both(r, "rid", "tres", "res")

	var t := Resource.new()
	# From its bits: the script's own parser reads the literal to -0.0.
	var bits := PackedByteArray()
	bits.resize(8)
	bits.encode_s64(0, -9079035352767718977) # 0x8200c9730f1119bf
	t.set_meta("tiny", PackedFloat64Array([bits.decode_double(0), 0.5]))
	save_both(t, "tiny", "tres", "res")

	DirAccess.make_dir_recursive_absolute("res://godot4/issue41/rel")
	var bark := Gradient.new()
	bark.offsets = PackedFloat32Array([0.0, 1.0])
	ResourceSaver.save(bark, "res://godot4/issue41/rel/bark.tres")
	var f := FileAccess.open("res://godot4/issue41/rel/tree.tres", FileAccess.WRITE)
	f.store_string("[gd_resource type=\"GradientTexture1D\" load_steps=2 format=3]\n\n[ext_resource type=\"Gradient\" path=\"bark.tres\" id=\"1\"]\n\n[resource]\ngradient = ExtResource(\"1\")\n")
	f.close()
	var tree = ResourceLoader.load("res://godot4/issue41/rel/tree.tres", "", ResourceLoader.CACHE_MODE_IGNORE)
	ResourceSaver.save(tree, "res://godot4/issue41/rel/tree.res")
	quit()
