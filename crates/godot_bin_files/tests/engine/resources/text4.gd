# Godot 4 side of the text resource and scene engine test (tests/engine/resources/text.rs):
# makes resources and scenes of random values with the random-value generator (gen4.gd,
# here gen.gd), saves each with ResourceSaver (.tres / .tscn), and dumps what the engine
# loads from any such file, with references to other resources written as their ids.
extends RefCounted

var gen
const NAMES = ["A", "b", "Node_1", "x y", "é", "Timer", "n.2", "q"]

# Makes `count` files: resources (`res_<i>.tres`, or `.res` unless `text`) and scenes
# (`scn_<i>.tscn` or `.scn`) in turn.
func make(p_seed: int, count: int, text: bool) -> void:
	gen = load("res://gen.gd").new()
	gen.rng.seed = p_seed
	gen.scratch.resize(8)
	var ext_res := Resource.new()
	ext_res.set_meta("shared", 42)
	ResourceSaver.save(ext_res, "res://ext_a.tres")
	var inner := Node2D.new()
	inner.name = "Inner"
	var leaf := Node.new()
	leaf.name = "Leaf"
	inner.add_child(leaf)
	leaf.owner = inner
	var inner_scene := PackedScene.new()
	inner_scene.pack(inner)
	ResourceSaver.save(inner_scene, "res://ext_scene.tscn")
	for i in range(count):
		# Binary files: every other pair compressed.
		var flags := ResourceSaver.FLAG_COMPRESS if not text and i % 4 >= 2 else 0
		if i % 2 == 0:
			ResourceSaver.save(resource(), "res://res_%d.%s" % [i, "tres" if text else "res"], flags)
		else:
			var ps := PackedScene.new()
			ps.pack(scene())
			ResourceSaver.save(ps, "res://scn_%d.%s" % [i, "tscn" if text else "scn"], flags)

func value(depth: int):
	gen.full = true
	return gen.value(depth)

# A resource with metadata of random values, a few sub-resources referring to earlier
# ones, and sometimes a Gradient or Curve and the external resource.
func resource() -> Resource:
	var pool := []
	for k in range(gen.rng.randi_range(0, 4)):
		var r: Resource
		match gen.rng.randi_range(0, 3):
			0:
				var g := Gradient.new()
				g.offsets = PackedFloat32Array([0.0, gen.rng.randf()])
				g.colors = PackedColorArray([Color(gen.rng.randf(), 0.5, 0.25), Color(1, 1, 1, gen.rng.randf())])
				r = g
			1:
				var c := Curve.new()
				c.add_point(Vector2(gen.rng.randf(), gen.rng.randf()))
				r = c
			_:
				r = Resource.new()
		for m in range(gen.rng.randi_range(0, 3)):
			r.set_meta("m%d" % m, value(0))
		if pool.size() > 0 and gen.rng.randi_range(0, 1) == 0:
			r.set_meta("ref", pool[gen.rng.randi_range(0, pool.size() - 1)])
		pool.append(r)
	var root := Resource.new()
	if gen.rng.randi_range(0, 2) == 0:
		root.resource_name = gen.text()
	for m in range(gen.rng.randi_range(1, 5)):
		root.set_meta("v%d" % m, value(0))
	for r in pool:
		match gen.rng.randi_range(0, 2):
			0: root.set_meta("sub%d" % root.get_meta_list().size(), r)
			1: root.set_meta("list%d" % root.get_meta_list().size(), [r, value(0), {"k": r}])
			_:
				var typed: Array[Resource] = [r]
				root.set_meta("typed%d" % root.get_meta_list().size(), typed)
	if gen.rng.randi_range(0, 2) == 0:
		root.set_meta("ext", load("res://ext_a.tres"))
	return root

# A scene: a root and 1 to 6 nodes of a few types with properties, metadata, groups,
# connections with binds, an instance of another scene and its editable children.
func scene() -> Node:
	var root := Node2D.new()
	root.name = "Root"
	root.position = Vector2(gen.f32(), gen.f32())
	var nodes := [root]
	for k in range(gen.rng.randi_range(1, 6)):
		var n: Node
		match gen.rng.randi_range(0, 4):
			0: n = Node.new()
			1:
				n = Node2D.new()
				n.rotation = gen.f32()
			2:
				n = Node3D.new()
				n.position = Vector3(gen.f32(), gen.f32(), gen.f32())
			3:
				n = Timer.new()
				n.wait_time = gen.rng.randf_range(0.01, 100)
			_:
				n = load("res://ext_scene.tscn").instantiate()
				n.position = Vector2(gen.f32(), gen.f32())
		n.name = NAMES[gen.rng.randi_range(0, NAMES.size() - 1)] + str(k)
		var parent = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		parent.add_child(n)
		n.owner = root
		if n.scene_file_path != "" and gen.rng.randi_range(0, 1) == 0:
			root.set_editable_instance(n, true)
		for m in range(gen.rng.randi_range(0, 2)):
			n.set_meta("m%d" % m, value(0))
		for g in range(gen.rng.randi_range(0, 2)):
			n.add_to_group("g%d" % gen.rng.randi_range(0, 5), true)
		if gen.rng.randi_range(0, 3) == 0:
			n.unique_name_in_owner = true
		nodes.append(n)
	for k in range(gen.rng.randi_range(0, 3)):
		var from = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		var to = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		var binds := []
		for b in range(gen.rng.randi_range(0, 2)):
			binds.append(gen.leaf())
		var flags := CONNECT_PERSIST | (CONNECT_DEFERRED if gen.rng.randi_range(0, 1) == 0 else 0)
		var c := Callable(to, "set_meta")
		if binds.size() > 0:
			c = c.bindv(binds)
		if not from.is_connected("tree_entered", c):
			from.connect("tree_entered", c, flags)
	if gen.rng.randi_range(0, 1) == 0:
		root.set_meta("grad", Gradient.new())
	return root

# ---- the dump: what the engine loads ----

func norm(v):
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return null
			if v is Resource:
				var p: String = v.resource_path
				if p.find("::") >= 0:
					return "SubResource:" + p.get_slice("::", 1)
				return "ExtResource:" + p
			var out := ["$object", v.get_class()]
			for prop in v.get_property_list():
				if prop["usage"] & PROPERTY_USAGE_STORAGE:
					out.append(prop["name"])
					out.append(norm(v.get(prop["name"])))
			return out
		TYPE_ARRAY:
			var out := ["$array", v.get_typed_builtin(), str(v.get_typed_class_name())]
			for x in v:
				out.append(norm(x))
			return out
		TYPE_DICTIONARY:
			var d := {}
			for k in v:
				d[norm(k)] = norm(v[k])
			return ["$dict", v.get_typed_key_builtin(), str(v.get_typed_key_class_name()),
					v.get_typed_value_builtin(), str(v.get_typed_value_class_name()), d]
	return v

func put(out: FileAccess, v) -> void:
	var b := var_to_bytes(norm(v))
	out.store_32(b.size())
	out.store_buffer(b)

# For each path: 0 and the main resource's and each sub-resource's stored properties
# (as [id, class, {name: value}]), or 1 and the scene's state: its nodes and connections.
func dump(paths: Array, out_path: String) -> void:
	var out := FileAccess.open(out_path, FileAccess.WRITE)
	for path in paths:
		var res = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
		if res == null:
			out.store_32(2)
			continue
		if res is PackedScene:
			out.store_32(1)
			var st: SceneState = res.get_state()
			var nodes := []
			for i in range(st.get_node_count()):
				var props := {}
				for j in range(st.get_node_property_count(i)):
					props[str(st.get_node_property_name(i, j))] = st.get_node_property_value(i, j)
				var inst = st.get_node_instance(i)
				nodes.append([str(st.get_node_name(i)), str(st.get_node_type(i)), str(st.get_node_path(i, true)),
						str(st.get_node_owner_path(i)), inst.resource_path if inst != null else "",
						st.get_node_groups(i), props])
			var conns := []
			for i in range(st.get_connection_count()):
				conns.append([str(st.get_connection_source(i)), str(st.get_connection_signal(i)),
						str(st.get_connection_target(i)), str(st.get_connection_method(i)),
						st.get_connection_flags(i), st.get_connection_binds(i), st.get_connection_unbinds(i)])
			put(out, [nodes, conns])
		else:
			out.store_32(0)
			var all := []
			var seen := {}
			collect(res, all, seen)
			put(out, all)
	out.close()

func stored(r: Resource) -> Dictionary:
	var props := {}
	for prop in r.get_property_list():
		if prop["usage"] & PROPERTY_USAGE_STORAGE:
			props[prop["name"]] = r.get(prop["name"])
	return props

# The resource and every built-in resource it reaches, each once.
func collect(r: Resource, all: Array, seen: Dictionary) -> void:
	if seen.has(r):
		return
	seen[r] = true
	var p := r.resource_path
	var id := p.get_slice("::", 1) if p.find("::") >= 0 else ""
	var props := stored(r)
	all.append([id, r.get_class(), props])
	for k in props:
		walk(props[k], all, seen)

func walk(v, all: Array, seen: Dictionary) -> void:
	match typeof(v):
		TYPE_OBJECT:
			if v is Resource and v.resource_path.find("::") >= 0:
				collect(v, all, seen)
		TYPE_ARRAY:
			for x in v:
				walk(x, all, seen)
		TYPE_DICTIONARY:
			for k in v:
				walk(k, all, seen)
				walk(v[k], all, seen)
