# The Godot 3 side of the upgrade judgement (upgrade.rs says what is compared): for each
# res:// path of judge_jobs.txt, loads it and writes to judge_out.txt every stored
# property of every node and sub-resource that differs from a fresh instance of its
# class, its groups, metadata and connections.
#   O <path> <class>         an object (a node: its path; a resource: owner path | prop)
#   P <path>\t<prop>\t<value>
#   G <node>\t<group>
#   C <from>\t<signal>\t<to>\t<method>
extends SceneTree

var out = []
var fresh = {}

func fresh_of(c):
	if not fresh.has(c):
		fresh[c] = ClassDB.instance(c) if ClassDB.can_instance(c) else null
	return fresh[c]

func text(v):
	if typeof(v) == TYPE_OBJECT:
		if v == null:
			return "null"
		if v is Resource and v.resource_path != "" and v.resource_path.find("::") == -1:
			return "Ext(%s %s)" % [v.get_class(), v.resource_path]
		return "Obj(%s)" % v.get_class()
	if typeof(v) == TYPE_ARRAY:
		var parts = []
		for e in v:
			parts.append(text(e))
		return "[" + PoolStringArray(parts).join(", ") + "]"
	var t = var2str(v).replace("\n", " ")
	if t.length() > 2000:
		return "<long %d>" % t.hash()
	return t

func same(a, b):
	if typeof(a) != typeof(b):
		return false
	if typeof(a) == TYPE_OBJECT:
		return a == b
	return var2str(a) == var2str(b)

func dump(o, path, depth, seen):
	if depth > 8:
		return
	out.append("O %s %s" % [path, o.get_class()])
	var f = fresh_of(o.get_class())
	for p in o.get_property_list():
		if not (p.usage & PROPERTY_USAGE_STORAGE) or p.name == "script" or p.name == "__meta__" or p.name == "resource_path":
			continue
		var v = o.get(p.name)
		if f != null and same(v, f.get(p.name)):
			continue
		out.append("P %s\t%s\t%s" % [path, p.name, text(v)])
		if typeof(v) == TYPE_OBJECT and v != null and v is Resource and not seen.has(v.get_instance_id()):
			if v.resource_path == "" or v.resource_path.find("::") != -1:
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

func _init():
	ResourceLoader.set_abort_on_missing_resources(false)
	var jf = File.new()
	jf.open("res://judge_jobs.txt", File.READ)
	var jobs = jf.get_as_text().split("\n", false)
	jf.close()
	for res in jobs:
		out.append("FILE " + res)
		var r = ResourceLoader.load(res, "", true)
		if r == null:
			out.append("FAIL")
			continue
		if r is PackedScene:
			var root = r.instance()
			if root == null:
				out.append("FAIL")
				continue
			var nodes = [root]
			var i = 0
			while i < nodes.size():
				var n = nodes[i]
				i += 1
				for c in n.get_children():
					if not String(c.name).begins_with("@"):
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
	var f = File.new()
	f.open("res://judge_out.txt", File.WRITE)
	for line in out:
		f.store_line(line)
	f.close()
	quit(0)
