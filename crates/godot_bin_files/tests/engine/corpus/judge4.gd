# The engine's judgement of corpus files (Godot 4): for each job in corpus_jobs.txt, load
# the original, the crate's conversion and the engine's own conversion, and write what the
# engine loaded from each (every stored property of every resource, every node of a scene's
# state) as text. Markers on stderr (printerr), where the engine's own errors go, tell which
# file and step an error belongs to.
extends SceneTree

var seen := {}

func val(x, depth := 0) -> String:
	if depth > 64:
		return "<deep>"
	match typeof(x):
		TYPE_OBJECT:
			if x == null:
				return "null"
			if x is Resource:
				var p: String = x.resource_path
				if p != "" and not p.contains("::"):
					return "Ext(%s %s)" % [x.get_class(), p]
				var id = x.get_instance_id()
				if seen.has(id):
					return "Sub(#%d)" % seen[id]
				seen[id] = seen.size()
				var s := "Sub#%d(%s){" % [seen[id], x.get_class()]
				for prop in x.get_property_list():
					if prop.usage & PROPERTY_USAGE_STORAGE and prop.name != "resource_path":
						s += "%s=%s; " % [prop.name, val(x.get(prop.name), depth + 1)]
				return s + "}"
			return "Object(%s)" % x.get_class()
		TYPE_ARRAY:
			var s := "Array[%d %s](" % [x.get_typed_builtin(), x.get_typed_class_name()]
			for e in x:
				s += val(e, depth + 1) + ", "
			return s + ")"
		TYPE_DICTIONARY:
			var s := "{"
			for k in x:
				s += "%s: %s, " % [val(k, depth + 1), val(x[k], depth + 1)]
			return s + "}"
		_:
			var t := var_to_str(x)
			if t.length() > 400:
				return "%s<%d chars, hash %d>" % [type_string(typeof(x)), t.length(), t.hash()]
			return t

func dump(r) -> String:
	seen = {}
	var s := "class %s\n" % r.get_class()
	if r is PackedScene:
		var st: SceneState = r.get_state()
		for i in st.get_node_count():
			s += "node %s type=%s name=%s instance=%s placeholder=%s owner=%s index=%d groups=%s\n" % [
				st.get_node_path(i), st.get_node_type(i), st.get_node_name(i),
				val(st.get_node_instance(i)), st.get_node_instance_placeholder(i),
				st.get_node_owner_path(i), st.get_node_index(i), st.get_node_groups(i)]
			for j in st.get_node_property_count(i):
				s += "  %s = %s\n" % [st.get_node_property_name(i, j), val(st.get_node_property_value(i, j))]
		for c in st.get_connection_count():
			s += "connection %s.%s -> %s.%s flags=%d binds=%s unbinds=%d\n" % [
				st.get_connection_source(c), st.get_connection_signal(c),
				st.get_connection_target(c), st.get_connection_method(c),
				st.get_connection_flags(c), val(st.get_connection_binds(c)),
				st.get_connection_unbinds(c)]
	else:
		for prop in r.get_property_list():
			if prop.usage & PROPERTY_USAGE_STORAGE and prop.name != "resource_path":
				s += "%s = %s\n" % [prop.name, val(r.get(prop.name))]
	return s

func write(path: String, text: String) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_string(text)
	f.close()

func load_fresh(path: String):
	return ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)

func _initialize() -> void:
	ResourceLoader.set_abort_on_missing_resources(false)
	var jobs := FileAccess.get_file_as_string("res://corpus_jobs.txt").split("\n", false)
	for line in jobs:
		# index, original, crate conversion (or ""), engine text save, engine binary save,
		# which engine save is the other form (the engine's conversion)
		var f := line.split("\t")
		var idx := f[0]
		printerr("@@FILE %s orig" % idx)
		var r = load_fresh(f[1])
		if r == null:
			printerr("@@FAIL %s" % idx)
			continue
		write("res://corpus_out/%s.orig.txt" % idx, dump(r))
		printerr("@@FILE %s engine_save" % idx)
		var e1 := ResourceSaver.save(r, f[3])
		var e2 := ResourceSaver.save(r, f[4])
		printerr("@@SAVED %s %d %d" % [idx, e1, e2])
		printerr("@@FILE %s engine" % idx)
		var other = load_fresh(f[5])
		if other != null:
			write("res://corpus_out/%s.engine.txt" % idx, dump(other))
		if f[2] != "":
			printerr("@@FILE %s crate" % idx)
			var c = load_fresh(f[2])
			if c != null:
				write("res://corpus_out/%s.crate.txt" % idx, dump(c))
		printerr("@@DONE %s" % idx)
	printerr("@@END")
	quit(0)
