# Writes settings4.txt: every Godot 4.4.1 project setting, one line per top section: the
# section, then its keys, space-separated.
# Run: cd src/renames && $GODOT4_BIN --headless -s settings4.gd (in a folder with a project.godot)
extends SceneTree
func _initialize():
	var by = {}
	for p in ProjectSettings.get_property_list():
		var n = p.name
		if n.find("/") == -1:
			continue
		var top = n.split("/")[0]
		if not by.has(top):
			by[top] = []
		by[top].append(n.substr(top.length() + 1))
	var keys = by.keys()
	keys.sort()
	var out = ""
	for k in keys:
		out += k + " " + " ".join(PackedStringArray(by[k])) + "\n"
	var f = FileAccess.open("res://settings4.txt", FileAccess.WRITE)
	f.store_string(out)
	quit()
