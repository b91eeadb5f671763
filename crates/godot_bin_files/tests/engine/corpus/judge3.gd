# The engine's judgement of corpus files (Godot 3); judge4.gd says what it does.
extends SceneTree

var seen = {}

func val(x, depth = 0):
	if depth > 64:
		return "<deep>"
	match typeof(x):
		TYPE_OBJECT:
			if x == null:
				return "null"
			if x is Resource:
				var p = x.resource_path
				if p != "" and p.find("::") == -1:
					return "Ext(%s %s)" % [x.get_class(), p]
				var id = x.get_instance_id()
				if seen.has(id):
					return "Sub(#%d)" % seen[id]
				seen[id] = seen.size()
				var s = "Sub#%d(%s){" % [seen[id], x.get_class()]
				for prop in x.get_property_list():
					if prop.usage & PROPERTY_USAGE_STORAGE and prop.name != "resource_path":
						s += "%s=%s; " % [prop.name, val(x.get(prop.name), depth + 1)]
				return s + "}"
			return "Object(%s)" % x.get_class()
		TYPE_ARRAY:
			var s = "Array("
			for e in x:
				s += val(e, depth + 1) + ", "
			return s + ")"
		TYPE_DICTIONARY:
			var s = "{"
			for k in x:
				s += "%s: %s, " % [val(k, depth + 1), val(x[k], depth + 1)]
			return s + "}"
		_:
			var t = var2str(x)
			if t.length() > 400:
				return "%d<%d chars, hash %d>" % [typeof(x), t.length(), t.hash()]
			return t

func dump(r):
	seen = {}
	var s = "class %s\n" % r.get_class()
	if r is PackedScene:
		var st = r.get_state()
		for i in st.get_node_count():
			var index = -1
			if st.has_method("get_node_index"):
				index = st.get_node_index(i)
			s += "node %s type=%s name=%s instance=%s placeholder=%s owner=%s index=%d groups=%s\n" % [
				st.get_node_path(i), st.get_node_type(i), st.get_node_name(i),
				val(st.get_node_instance(i)), st.get_node_instance_placeholder(i),
				st.get_node_owner_path(i), index, str(st.get_node_groups(i))]
			for j in st.get_node_property_count(i):
				s += "  %s = %s\n" % [st.get_node_property_name(i, j), val(st.get_node_property_value(i, j))]
		for c in st.get_connection_count():
			s += "connection %s.%s -> %s.%s flags=%d binds=%s\n" % [
				st.get_connection_source(c), st.get_connection_signal(c),
				st.get_connection_target(c), st.get_connection_method(c),
				st.get_connection_flags(c), val(st.get_connection_binds(c))]
	else:
		for prop in r.get_property_list():
			if prop.usage & PROPERTY_USAGE_STORAGE and prop.name != "resource_path":
				s += "%s = %s\n" % [prop.name, val(r.get(prop.name))]
	return s

func write(path, text):
	var f = File.new()
	f.open(path, File.WRITE)
	f.store_string(text)
	f.close()

func _init():
	ResourceLoader.set_abort_on_missing_resources(false)
	var jf = File.new()
	jf.open("res://corpus_jobs.txt", File.READ)
	var jobs = jf.get_as_text().split("\n", false)
	jf.close()
	for line in jobs:
		var f = line.split("\t")
		var idx = f[0]
		printerr("@@FILE %s orig" % idx)
		var r = ResourceLoader.load(f[1], "", true)
		if r == null:
			printerr("@@FAIL %s" % idx)
			continue
		write("res://corpus_out/%s.orig.txt" % idx, dump(r))
		printerr("@@FILE %s engine_save" % idx)
		var e1 = ResourceSaver.save(f[3], r)
		var e2 = ResourceSaver.save(f[4], r)
		printerr("@@SAVED %s %d %d" % [idx, e1, e2])
		printerr("@@FILE %s engine" % idx)
		var other = ResourceLoader.load(f[5], "", true)
		if other != null:
			write("res://corpus_out/%s.engine.txt" % idx, dump(other))
		if f[2] != "":
			printerr("@@FILE %s crate" % idx)
			var c = ResourceLoader.load(f[2], "", true)
			if c != null:
				write("res://corpus_out/%s.crate.txt" % idx, dump(c))
		printerr("@@DONE %s" % idx)
	printerr("@@END")
	quit(0)
