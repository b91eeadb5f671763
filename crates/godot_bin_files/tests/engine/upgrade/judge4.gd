# The Godot 4 side of the upgrade judgement (upgrade.rs): as judge3.gd, but every stored
# property is written (not only those differing from a fresh instance), so that a value
# the conversion set to Godot 4's default is found; an AnimationMixer's animations of its
# default library are written as anims/<name>, as Godot 3 named them.
extends SceneTree

var out = []
var fresh = {}

func fresh_of(c):
	if not fresh.has(c):
		fresh[c] = ClassDB.instantiate(c) if ClassDB.can_instantiate(c) else null
	return fresh[c]

func text(v):
	if typeof(v) == TYPE_OBJECT:
		if v == null:
			return "null"
		if v is Resource and v.resource_path != "" and not v.resource_path.contains("::"):
			return "Ext(%s %s)" % [v.get_class(), v.resource_path]
		return "Obj(%s)" % v.get_class()
	if typeof(v) == TYPE_ARRAY:
		var parts = []
		for e in v:
			parts.append(text(e))
		return "[" + ", ".join(PackedStringArray(parts)) + "]"
	var t = var_to_str(v).replace("\n", " ")
	if t.length() > 2000:
		return "<long %d>" % t.hash()
	return t

func dump(o, path, depth, seen):
	if depth > 8:
		return
	out.append("O %s %s" % [path, o.get_class()])
	for p in o.get_property_list():
		if not (p.usage & PROPERTY_USAGE_STORAGE) or p.name == "script" or p.name == "resource_path":
			continue
		if p.name.begins_with("metadata/"):
			continue
		var v = o.get(p.name)
		out.append("P %s\t%s\t%s" % [path, p.name, text(v)])
		if typeof(v) == TYPE_OBJECT and v != null and v is Resource and not seen.has(v.get_instance_id()):
			if v.resource_path == "" or v.resource_path.contains("::"):
				seen[v.get_instance_id()] = true
				dump(v, path + "|" + p.name, depth + 1, seen)
		if typeof(v) == TYPE_ARRAY:
			for i in v.size():
				var e = v[i]
				if typeof(e) == TYPE_OBJECT and e is Resource and not seen.has(e.get_instance_id()):
					if e.resource_path == "" or e.resource_path.find("::") != -1:
						seen[e.get_instance_id()] = true
						dump(e, "%s|%s/%d" % [path, p.name, i], depth + 1, seen)
	for m in o.get_meta_list():
		out.append("P %s\tmetadata/%s\t%s" % [path, m, text(o.get_meta(m))])
	if o is AnimationMixer and o.has_animation_library(""):
		var lib = o.get_animation_library("")
		for a in lib.get_animation_list():
			var anim = lib.get_animation(a)
			out.append("P %s\tanims/%s\t%s" % [path, a, text(anim)])
			if not seen.has(anim.get_instance_id()) and (anim.resource_path == "" or anim.resource_path.contains("::")):
				seen[anim.get_instance_id()] = true
				dump(anim, path + "|anims/" + a, depth + 1, seen)

func _initialize():
	var jf = FileAccess.open("res://judge_jobs.txt", FileAccess.READ)
	var jobs = jf.get_as_text().split("\n", false)
	for res in jobs:
		out.append("FILE " + res)
		var r = ResourceLoader.load(res, "", ResourceLoader.CACHE_MODE_IGNORE)
		if r == null:
			out.append("FAIL")
			continue
		if r is PackedScene:
			var root = r.instantiate()
			if root == null:
				out.append("FAIL")
				continue
			var nodes = [root]
			var i = 0
			while i < nodes.size():
				var n = nodes[i]
				i += 1
				for c in n.get_children():
					nodes.append(c)
				var np = str(root.get_path_to(n))
				dump(n, np, 0, {})
			root.free()
			# Connections as the file holds them (the live ones need the scripts' methods,
			# which Godot 4 cannot compile from GDScript 3).
			var st = r.get_state()
			for k in st.get_node_count():
				var np = str(st.get_node_path(k))
				if np.begins_with("./"):
					np = np.substr(2)
				for g in st.get_node_groups(k):
					out.append("G %s\t%s" % [np, g])
			for c in st.get_connection_count():
				out.append("C %s\t%s\t%s\t%s" % [str(st.get_connection_source(c)), st.get_connection_signal(c), str(st.get_connection_target(c)), st.get_connection_method(c)])
		else:
			dump(r, "", 0, {})
	var f = FileAccess.open("res://judge_out.txt", FileAccess.WRITE)
	f.store_string("\n".join(PackedStringArray(out)) + "\n")
	quit(0)
