# Writes classes3.txt: every Godot 3 class that can be stored in a file (a Node or a
# Resource), one line each: the class, its parent, then the properties the class itself
# stores (PROPERTY_USAGE_STORAGE, not inherited), space-separated.
# Run: cd src/renames && godot3-server --no-window -s classdb3.gd
extends SceneTree

func _init():
	var names = Array(ClassDB.get_class_list())
	names.sort()
	var out = ""
	for c in names:
		if not (ClassDB.is_parent_class(c, "Node") or ClassDB.is_parent_class(c, "Resource")):
			continue
		var line = "%s %s" % [c, ClassDB.get_parent_class(c)]
		for p in ClassDB.class_get_property_list(c, true):
			if p.usage & PROPERTY_USAGE_STORAGE and p.name.find(" ") == -1:
				line += " " + p.name
		out += line + "\n"
	var f = File.new()
	f.open("res://classes3.txt", File.WRITE)
	f.store_string(out)
	f.close()
	quit()
