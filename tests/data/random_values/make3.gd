# Writes godot3.tsv: run with Godot 3.2.3 as  godot3-server --no-window -s make3.gd
# Each row: a value through the engine's own var2bytes, the engine's decode and
# re-encode of that packet, and var2str of the decoded value.
extends SceneTree

var rows = []

func row(name, v):
	var packet = var2bytes(v)
	var d = bytes2var(packet)
	var text = var2str(d).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
	rows.append("%s\t%s\t%s\t%s" % [name, packet.hex_encode(), var2bytes(d).hex_encode(), text])

func double_of(bits):
	var b = StreamPeerBuffer.new()
	b.put_64(bits)
	b.seek(0)
	return b.get_double()

func nan(negative):
	var b = StreamPeerBuffer.new()
	b.put_64(((1 << 63) if negative else 0) | 0x7FF8000000000000)
	b.seek(0)
	return b.get_double()

func _init():
	row("nodepath_root", NodePath("/"))
	row("nodepath_root_in_array", [NodePath("/"), NodePath(""), NodePath("/a")])
	row("keys_mixed_types", {"b": 1, "a": 2, 3: 3, Vector2(1, 2): 4, "c": 5, "A": 6, 2.5: 7, "": 8, true: 9})
	row("keys_without_less", {Color(1, 0, 0): 1, NodePath("b"): 2, Rect2(1, 2, 3, 4): 4,
			Color(0, 1, 0): 6, NodePath("a"): 7, Rect2(0, 0, 1, 1): 8, AABB(): 10, Quat(): 11})
	row("keys_nan", {1.0: 1, nan(false): 2, 0.5: 3, nan(true): 4, -2.0: 5, INF: 6})
	row("keys_arrays", {[1, 2]: 1, [1]: 2, [0, "a"]: 3, []: 4, ["a"]: 5, [1, 2, 3]: 6, [2]: 7, [1.5]: 8})
	var big = {}
	for i in range(40):
		match i % 6:
			0: big[Color(i, 0, 0)] = i
			1: big[NodePath("n%d" % (i * 7 % 40))] = i
			2: big[i * 37 % 41] = i
			3: big["s%d" % (i * 13 % 40)] = i
			4: big[nan(false)] = i
			5: big[Rect2(i, 0, 0, 0)] = i
	row("keys_forty_mixed", big)
	var same = {}
	for i in range(30):
		same[Color(i, 30 - i, 0)] = i
	row("keys_thirty_colors", same)
	# A FLOAT beyond the f32 range prints as the f32 infinity it becomes (issue 24).
	row("float_beyond_f32", double_of((1 << 63) | 0x7e37e43c8800759c))
	row("floats_beyond_f32_in_array", [1e300, -1e300, 1e39, -1e39, 2.5])
	# Pool*Array keys of one type, in the order of Godot 3's `<` for them (issue 24); every
	# comparison is decided within both arrays (a shorter one, or a first element that
	# differs), never by what lies past the end of one.
	row("keys_pool_vector3_arrays", {PoolVector3Array([Vector3(1, 2, 3)]): 1,
			PoolVector3Array([Vector3(0, 0, 0), Vector3(1, 1, 1)]): 2,
			PoolVector3Array([Vector3(5, 5, 5)]): 3,
			PoolVector3Array([Vector3(2, 2, 2), Vector3(3, 3, 3), Vector3(4, 4, 4)]): 4,
			PoolVector3Array([Vector3(-1, 0, 0)]): 5})
	row("keys_pool_vector2_arrays", {PoolVector2Array([Vector2(5, 5)]): 1,
			PoolVector2Array([Vector2(0, 0)]): 2, PoolVector2Array([Vector2(1, 2), Vector2(3, 4)]): 3,
			PoolVector2Array([Vector2(7, 8), Vector2(9, 10), Vector2(11, 12)]): 4,
			PoolVector2Array([Vector2(0, 1), Vector2(2, 3)]): 5})
	var pools = {}
	for i in range(20):
		pools[PoolVector3Array([Vector3(i, 0, 0)])] = i
	row("keys_twenty_vector3_arrays", pools)
	var f = File.new()
	f.open("godot3.tsv", File.WRITE)
	f.store_string("# Made by Godot 3.2.3-stable (Debian godot3-server) with make3.gd (beside this file), for the regression tests in tests/it/random_values.rs.\n")
	f.store_string("# Columns: name, the packet (var2bytes), the engine's re-encoding of its own decode of it, var2str of the decoded value (backslashes, tabs and newlines escaped).\n")
	for r in rows:
		f.store_string(r + "\n")
	f.close()
	quit()
