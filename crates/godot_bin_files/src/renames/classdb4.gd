# Writes classes4.txt: every Godot 4 class that can be stored in a file (a Node or a
# Resource), one line each: the class, its parent, then the properties the class itself
# has (any usage: a file may set an editor-only property such as rotation_degrees),
# space-separated.
# Run: cd src/renames && $GODOT4_BIN --headless -s classdb4.gd
extends SceneTree

func _initialize():
	var names = Array(ClassDB.get_class_list())
	names.sort()
	var out = ""
	for c in names:
		if not (ClassDB.is_parent_class(c, "Node") or ClassDB.is_parent_class(c, "Resource")):
			continue
		var line = "%s %s" % [c, ClassDB.get_parent_class(c)]
		for p in ClassDB.class_get_property_list(c, true):
			var u = p.usage
			if u & (PROPERTY_USAGE_GROUP | PROPERTY_USAGE_SUBGROUP | PROPERTY_USAGE_CATEGORY):
				continue
			if p.name.find(" ") == -1:
				line += " " + p.name
		out += line + "\n"
	var f = FileAccess.open("res://classes4.txt", FileAccess.WRITE)
	f.store_string(out)
	quit()
