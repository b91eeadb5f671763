# Godot 3 side of the text resource and scene engine test (tests/engine/resources/text.rs):
# the same as text4.gd in Godot 3.2's API (Spatial, instance(), no typed containers, no
# editable instances outside the editor).
extends Reference

var gen
const NAMES = ["A", "b", "Node_1", "x y", "Timer", "n2", "q"]

func make(p_seed, count, text):
	gen = load("res://gen.gd").new()
	gen.rng.seed = p_seed
	var ext_res = Resource.new()
	ext_res.set_meta("shared", 42)
	ResourceSaver.save("res://ext_a.tres", ext_res)
	var inner = Node2D.new()
	inner.name = "Inner"
	var leaf = Node.new()
	leaf.name = "Leaf"
	inner.add_child(leaf)
	leaf.owner = inner
	var inner_scene = PackedScene.new()
	inner_scene.pack(inner)
	ResourceSaver.save("res://ext_scene.tscn", inner_scene)
	for i in range(count):
		# Binary files: every other pair compressed.
		var flags = ResourceSaver.FLAG_COMPRESS if not text and i % 4 >= 2 else 0
		if i % 2 == 0:
			ResourceSaver.save("res://res_%d.%s" % [i, "tres" if text else "res"], resource(), flags)
		else:
			var ps = PackedScene.new()
			ps.pack(scene())
			ResourceSaver.save("res://scn_%d.%s" % [i, "tscn" if text else "scn"], ps, flags)

# A value Godot 3 reads back from text (see config3.gd): no RID, no infinity or NaN.
func value(depth):
	gen.full = true
	var v = gen.value(depth)
	while has_rid(v) or var2str(v).find("inf") >= 0 or var2str(v).find("nan") >= 0:
		v = gen.value(depth)
	return v

func has_rid(v):
	match typeof(v):
		TYPE_RID:
			return true
		TYPE_ARRAY:
			for x in v:
				if has_rid(x):
					return true
		TYPE_DICTIONARY:
			for k in v:
				if has_rid(k) or has_rid(v[k]):
					return true
		TYPE_OBJECT:
			if v != null:
				for m in v.get_meta_list():
					if has_rid(v.get_meta(m)):
						return true
	return false

func f32():
	return gen.rng.randf_range(-1000.0, 1000.0)

func resource():
	var pool = []
	for k in range(gen.rng.randi_range(0, 4)):
		var r
		match gen.rng.randi_range(0, 3):
			0:
				r = Gradient.new()
				r.offsets = PoolRealArray([0.0, gen.rng.randf()])
				r.colors = PoolColorArray([Color(gen.rng.randf(), 0.5, 0.25), Color(1, 1, 1, gen.rng.randf())])
			1:
				r = Curve.new()
				r.add_point(Vector2(gen.rng.randf(), gen.rng.randf()))
			_:
				r = Resource.new()
		for m in range(gen.rng.randi_range(0, 3)):
			r.set_meta("m%d" % m, value(0))
		if pool.size() > 0 and gen.rng.randi_range(0, 1) == 0:
			r.set_meta("ref", pool[gen.rng.randi_range(0, pool.size() - 1)])
		pool.append(r)
	var root = Resource.new()
	if gen.rng.randi_range(0, 2) == 0:
		root.resource_name = "name " + str(gen.rng.randi())
	for m in range(gen.rng.randi_range(1, 5)):
		root.set_meta("v%d" % m, value(0))
	for r in pool:
		match gen.rng.randi_range(0, 1):
			0: root.set_meta("sub%d" % root.get_meta_list().size(), r)
			_: root.set_meta("list%d" % root.get_meta_list().size(), [r, value(0), {"k": r}])
	if gen.rng.randi_range(0, 2) == 0:
		root.set_meta("ext", load("res://ext_a.tres"))
	return root

func scene():
	var root = Node2D.new()
	root.name = "Root"
	root.position = Vector2(f32(), f32())
	var nodes = [root]
	for k in range(gen.rng.randi_range(1, 6)):
		var n
		match gen.rng.randi_range(0, 4):
			0: n = Node.new()
			1:
				n = Node2D.new()
				n.rotation = f32()
			2:
				n = Spatial.new()
				n.translation = Vector3(f32(), f32(), f32())
			3:
				n = Timer.new()
				n.wait_time = gen.rng.randf_range(0.01, 100)
			_:
				n = load("res://ext_scene.tscn").instance()
				n.position = Vector2(f32(), f32())
		n.name = NAMES[gen.rng.randi_range(0, NAMES.size() - 1)] + str(k)
		var parent = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		parent.add_child(n)
		n.owner = root
		for m in range(gen.rng.randi_range(0, 2)):
			n.set_meta("m%d" % m, value(0))
		for g in range(gen.rng.randi_range(0, 2)):
			n.add_to_group("g%d" % gen.rng.randi_range(0, 5), true)
		nodes.append(n)
	for k in range(gen.rng.randi_range(0, 3)):
		var from = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		var to = nodes[gen.rng.randi_range(0, nodes.size() - 1)]
		var binds = []
		for b in range(gen.rng.randi_range(0, 2)):
			binds.append(gen.rng.randi_range(-100, 100))
		var flags = CONNECT_PERSIST | (CONNECT_DEFERRED if gen.rng.randi_range(0, 1) == 0 else 0)
		if not from.is_connected("tree_entered", to, "set_meta"):
			from.connect("tree_entered", to, "set_meta", binds, flags)
	if gen.rng.randi_range(0, 1) == 0:
		root.set_meta("grad", Gradient.new())
	return root

# ---- the dump: what the engine loads (see text4.gd) ----

func norm(v):
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return null
			if v is Resource:
				var p = v.resource_path
				if p.find("::") >= 0:
					return "SubResource:" + p.split("::")[1]
				return "ExtResource:" + p
			var out = ["$object", v.get_class()]
			for prop in v.get_property_list():
				if prop["usage"] & PROPERTY_USAGE_STORAGE:
					out.append(prop["name"])
					out.append(norm(v.get(prop["name"])))
			return out
		TYPE_ARRAY:
			var out = []
			for x in v:
				out.append(norm(x))
			return out
		TYPE_DICTIONARY:
			var d = {}
			for k in v:
				d[norm(k)] = norm(v[k])
			return d
	return v

func put(out, v):
	var b = var2bytes(norm(v))
	out.store_32(b.size())
	out.store_buffer(b)

func dump(paths, out_path):
	var out = File.new()
	out.open(out_path, File.WRITE)
	for path in paths:
		var res = ResourceLoader.load(path, "", true)
		if res == null:
			out.store_32(2)
			continue
		if res is PackedScene:
			out.store_32(1)
			var st = res.get_state()
			var nodes = []
			for i in range(st.get_node_count()):
				var props = {}
				for j in range(st.get_node_property_count(i)):
					props[str(st.get_node_property_name(i, j))] = st.get_node_property_value(i, j)
				var inst = st.get_node_instance(i)
				nodes.append(["$array", 0, "", str(st.get_node_name(i)), str(st.get_node_type(i)), str(st.get_node_path(i, true)),
						str(st.get_node_owner_path(i)), inst.resource_path if inst != null else "",
						PoolStringArray(st.get_node_groups(i)), ["$dict", 0, "", 0, "", props]])
			var conns = []
			for i in range(st.get_connection_count()):
				conns.append(["$array", 0, "", str(st.get_connection_source(i)), str(st.get_connection_signal(i)),
						str(st.get_connection_target(i)), str(st.get_connection_method(i)),
						st.get_connection_flags(i), st.get_connection_binds(i), 0])
			put(out, ["$array", 0, "", ["$array", 0, ""] + nodes, ["$array", 0, ""] + conns])
		else:
			out.store_32(0)
			var all = ["$array", 0, ""]
			var seen = {}
			collect(res, all, seen)
			put(out, all)
	out.close()

func stored(r):
	var props = {}
	for prop in r.get_property_list():
		if prop["usage"] & PROPERTY_USAGE_STORAGE:
			props[prop["name"]] = r.get(prop["name"])
	return props

func collect(r, all, seen):
	if seen.has(r):
		return
	seen[r] = true
	var p = r.resource_path
	var id = p.split("::")[1] if p.find("::") >= 0 else ""
	var props = stored(r)
	all.append(["$array", 0, "", id, r.get_class(), ["$dict", 0, "", 0, "", props]])
	for k in props:
		walk(props[k], all, seen)

func walk(v, all, seen):
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
