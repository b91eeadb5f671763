# Writes godot4.tsv: run with Godot 4.4.1 as
#   godot4 --headless --path <a folder with project.godot> -s make4.gd
# Each row: a value through the engine's own var_to_bytes, the engine's decode and
# re-encode of that packet, and var_to_str of the decoded value.
extends SceneTree

var rows := []

func row(name: String, v) -> void:
	var packet := var_to_bytes(v)
	var d = bytes_to_var(packet)
	var text := var_to_str(d).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
	rows.append("%s\t%s\t%s\t%s" % [name, packet.hex_encode(), var_to_bytes(d).hex_encode(), text])

func nan(negative: bool) -> float:
	var b := PackedByteArray()
	b.resize(8)
	b.encode_u64(0, 0x7FF8000000000000)
	if negative:
		b[7] = 0xFF
	return b.decode_double(0)

func _init() -> void:
	row("nodepath_root", NodePath("/"))
	row("nodepath_root_in_array", [NodePath("/"), NodePath(""), NodePath("/a")])
	row("keys_string_and_stringname", {"b": 1, &"a": 2, 3: 3, Vector2(1, 2): 4, &"c": 5, "A": 6, &"B": 7, "": 8})
	row("keys_without_less", {Color(1, 0, 0): 1, NodePath("b"): 2, Callable(): 3, Rect2(1, 2, 3, 4): 4,
			PackedInt32Array([1]): 5, Color(0, 1, 0): 6, NodePath("a"): 7, Rect2(0, 0, 1, 1): 8,
			PackedInt32Array([0]): 9, AABB(): 10})
	row("keys_nan", {1.0: 1, nan(false): 2, 0.5: 3, nan(true): 4, -2.0: 5, INF: 6})
	row("keys_arrays", {[1, 2]: 1, [1]: 2, [0, "a"]: 3, []: 4, ["a"]: 5, [1, 2, 3]: 6, [&"x"]: 7, [1.5]: 8})
	var big := {}
	for i in range(40):
		match i % 8:
			0: big[Color(i, 0, 0)] = i
			1: big[NodePath("n%d" % (i * 7 % 40))] = i
			2: big[i * 37 % 41] = i
			3: big["s%d" % (i * 13 % 40)] = i
			4: big[StringName("s%d" % (i * 11 % 40))] = i
			5: big[nan(i % 16 == 5)] = i
			6: big[Vector2(i % 3, i % 5)] = i
			7: big[Rect2(i, 0, 0, 0)] = i
	row("keys_forty_mixed", big)
	var same := {}
	for i in range(30):
		same[Color(i, 30 - i, 0)] = i
	row("keys_thirty_colors", same)
	var deep = 1
	for i in range(103):
		deep = [deep] if i % 2 == 0 else {"k": deep}
	row("depth_103", deep)
	var f := FileAccess.open("godot4.tsv", FileAccess.WRITE)
	f.store_string("# Made by Godot 4.4.1-stable with make4.gd (beside this file), for the regression tests in tests/it/random_values.rs.\n")
	f.store_string("# Columns: name, the packet (var_to_bytes), the engine's re-encoding of its own decode of it, var_to_str of the decoded value (backslashes, tabs and newlines escaped).\n")
	for r in rows:
		f.store_string(r + "\n")
	f.close()
	quit()
