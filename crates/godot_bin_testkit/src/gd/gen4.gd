# Godot 4 side of the random-value differential (tests/engine/random_values.rs):
# makes random values with a seeded generator and, for each, writes the packet
# (var_to_bytes, or var_to_bytes_with_objects when objects go in full), the engine's
# own decode and re-encode of that packet, and var_to_str of the decoded value.
# Some packets are built byte by byte (repeated Dictionary keys, text after a NUL,
# a 64-bit small int, the null object id), since var_to_bytes never writes them.
extends RefCounted

var rng := RandomNumberGenerator.new()
var out: FileAccess
var full := false
var scratch := PackedByteArray()

const CHARS = ["a", "b", "Z", "0", "7", " ", "_", "-", ".", "/", ":", "\"", "\\", "\n",
		"\t", "'", "?", "=", "é", "ß", "€", "中", "\u00a0"]
const NAMES = ["a", "b", "Node2D", "..", ".", "é", "x y", "root", "_1"]
# Types var_to_bytes writes, as leaves (no containers, no objects).
const LEAF_TYPES = [TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_VECTOR2,
		TYPE_VECTOR2I, TYPE_RECT2, TYPE_RECT2I, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_TRANSFORM2D,
		TYPE_VECTOR4, TYPE_VECTOR4I, TYPE_PLANE, TYPE_QUATERNION, TYPE_AABB, TYPE_BASIS,
		TYPE_TRANSFORM3D, TYPE_PROJECTION, TYPE_COLOR, TYPE_STRING_NAME, TYPE_NODE_PATH,
		TYPE_RID, TYPE_CALLABLE, TYPE_SIGNAL, TYPE_PACKED_BYTE_ARRAY, TYPE_PACKED_INT32_ARRAY,
		TYPE_PACKED_INT64_ARRAY, TYPE_PACKED_FLOAT32_ARRAY, TYPE_PACKED_FLOAT64_ARRAY,
		TYPE_PACKED_STRING_ARRAY, TYPE_PACKED_VECTOR2_ARRAY, TYPE_PACKED_VECTOR3_ARRAY,
		TYPE_PACKED_COLOR_ARRAY, TYPE_PACKED_VECTOR4_ARRAY]
# Leaf types whose values may be keys without making the engine's text order depend
# on memory addresses (a StringName inside an Array key compares by address).
const KEY_TYPES = [TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_FLOAT, TYPE_STRING, TYPE_VECTOR2,
		TYPE_VECTOR2I, TYPE_RECT2, TYPE_VECTOR3, TYPE_VECTOR3I, TYPE_VECTOR4, TYPE_VECTOR4I,
		TYPE_PLANE, TYPE_QUATERNION, TYPE_COLOR, TYPE_STRING_NAME, TYPE_NODE_PATH, TYPE_RID,
		TYPE_PACKED_INT32_ARRAY, TYPE_PACKED_STRING_ARRAY, TYPE_CALLABLE, TYPE_AABB]

func run(p_seed: int, count: int, path: String) -> void:
	rng.seed = p_seed
	scratch.resize(8)
	out = FileAccess.open(path, FileAccess.WRITE)
	for i in range(count):
		one(i)
	out.close()

func one(i: int) -> void:
	full = i % 5 == 4
	var tag := 0
	var packet: PackedByteArray
	var pick := i % 40
	if pick == 7:
		tag = 1
		packet = repeated_keys()
	elif pick == 17:
		tag = 2
		packet = nul_string()
	elif pick == 27:
		tag = 3
		packet = wide_small_int()
	elif pick == 37:
		packet = object_id_packet(0)
	elif pick == 3:
		packet = encode(deep(rng.randi_range(6, 12)))
	elif i % 997 == 500:
		packet = encode(deep(rng.randi_range(101, 130)))
	elif pick == 13:
		packet = encode(big_dictionary())
	else:
		packet = encode(value(0))
	emit(i, tag, packet)

func encode(v) -> PackedByteArray:
	return var_to_bytes_with_objects(v) if full else var_to_bytes(v)

func emit(i: int, tag: int, packet: PackedByteArray) -> void:
	var d = bytes_to_var_with_objects(packet) if full else bytes_to_var(packet)
	var again := encode(d)
	var text := var_to_str(d).to_utf8_buffer()
	record(out, i, tag | (16 if full else 0), packet, again, text)

# ---- numbers ----

func u32() -> int:
	return rng.randi()

func i64() -> int:
	match rng.randi_range(0, 5):
		0: return rng.randi_range(-10, 10)
		1: return u32() - 2147483648
		2: return [0, -1, 1, 2147483647, -2147483648, 2147483648, -2147483649,
				9223372036854775807, -9223372036854775807 - 1][rng.randi_range(0, 8)]
		_: return (u32() << 32) | u32()

func f64() -> float:
	match rng.randi_range(0, 7):
		0: return float(rng.randi_range(-1000, 1000)) / 8.0
		1: return rng.randf_range(-1e6, 1e6)
		2: return [0.1, 1e-05, 123456.7, 1e20, 0.3, -2.5e-7, 1e300, 3.0e-300][rng.randi_range(0, 7)]
		3: return edge_f64()
		4:
			scratch.encode_u32(0, u32())
			scratch.encode_u32(4, u32())
			return scratch.decode_double(0)
		_: return rng.randf_range(-100.0, 100.0)

func edge_f64() -> float:
	var bits = [0, 1 << 63, 0x7FF0000000000000, (1 << 63) | 0x7FF0000000000000, 0x7FF8000000000000,
			(1 << 63) | 0x7FF8000000000000, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF,
			(1 << 63) | 0x7FEFFFFFFFFFFFFF, (1 << 63) | 0x0000000000000001, 0x7FF0000000000001, 0x3FF0000000000000]
	scratch.encode_s64(0, bits[rng.randi_range(0, bits.size() - 1)])
	return scratch.decode_double(0)

func f32() -> float:
	match rng.randi_range(0, 5):
		0: return float(rng.randi_range(-100, 100)) / 4.0
		1: return rng.randf_range(-1000.0, 1000.0)
		2:
			var bits = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 1,
					0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x80000001, 0x3DCCCCCD]
			scratch.encode_u32(0, bits[rng.randi_range(0, bits.size() - 1)])
			return scratch.decode_float(0)
		3:
			scratch.encode_u32(0, u32())
			return scratch.decode_float(0)
		_: return rng.randf_range(-10.0, 10.0)

func i32() -> int:
	match rng.randi_range(0, 2):
		0: return rng.randi_range(-10, 10)
		_: return u32() - 2147483648

# ---- text ----

func text() -> String:
	var s := ""
	if rng.randi_range(0, 9) == 0:
		s += char(0xFEFF)
	for k in range(rng.randi_range(0, 8)):
		match rng.randi_range(0, 9):
			0: s += char(rng.randi_range(0x20, 0xD7FF))
			1: s += char(rng.randi_range(0x10000, 0x10FFFF))
			_: s += CHARS[rng.randi_range(0, CHARS.size() - 1)]
	return s

func node_path() -> NodePath:
	match rng.randi_range(0, 9):
		0: return NodePath("/")
		1: return NodePath("")
	var s := "/" if rng.randi_range(0, 2) == 0 else ""
	var n := rng.randi_range(0, 3)
	for k in range(n):
		if k > 0:
			s += "/"
		s += NAMES[rng.randi_range(0, NAMES.size() - 1)]
	for k in range(rng.randi_range(0, 2)):
		s += ":" + NAMES[rng.randi_range(0, NAMES.size() - 1)]
	return NodePath(s)

# ---- values ----

func leaf_of(t: int):
	match t:
		TYPE_NIL: return null
		TYPE_BOOL: return rng.randi_range(0, 1) == 1
		TYPE_INT: return i64()
		TYPE_FLOAT: return f64()
		TYPE_STRING: return text()
		TYPE_VECTOR2: return Vector2(f32(), f32())
		TYPE_VECTOR2I: return Vector2i(i32(), i32())
		TYPE_RECT2: return Rect2(f32(), f32(), f32(), f32())
		TYPE_RECT2I: return Rect2i(i32(), i32(), i32(), i32())
		TYPE_VECTOR3: return Vector3(f32(), f32(), f32())
		TYPE_VECTOR3I: return Vector3i(i32(), i32(), i32())
		TYPE_TRANSFORM2D: return Transform2D(Vector2(f32(), f32()), Vector2(f32(), f32()), Vector2(f32(), f32()))
		TYPE_VECTOR4: return Vector4(f32(), f32(), f32(), f32())
		TYPE_VECTOR4I: return Vector4i(i32(), i32(), i32(), i32())
		TYPE_PLANE: return Plane(f32(), f32(), f32(), f32())
		TYPE_QUATERNION: return Quaternion(f32(), f32(), f32(), f32())
		TYPE_AABB: return AABB(Vector3(f32(), f32(), f32()), Vector3(f32(), f32(), f32()))
		TYPE_BASIS: return Basis(Vector3(f32(), f32(), f32()), Vector3(f32(), f32(), f32()), Vector3(f32(), f32(), f32()))
		TYPE_TRANSFORM3D: return Transform3D(leaf_of(TYPE_BASIS), Vector3(f32(), f32(), f32()))
		TYPE_PROJECTION: return Projection(leaf_of(TYPE_VECTOR4), leaf_of(TYPE_VECTOR4), leaf_of(TYPE_VECTOR4), leaf_of(TYPE_VECTOR4))
		TYPE_COLOR: return Color(f32(), f32(), f32(), f32())
		TYPE_STRING_NAME: return StringName(text())
		TYPE_NODE_PATH: return node_path()
		TYPE_RID: return rid_from_int64(i64())
		TYPE_CALLABLE: return Callable()
		TYPE_SIGNAL:
			if rng.randi_range(0, 1) == 0:
				return Signal()
			return Signal(RefCounted.new(), StringName(text()))
		TYPE_PACKED_BYTE_ARRAY:
			var a := PackedByteArray()
			for k in range(rng.randi_range(0, 9)):
				a.append(rng.randi_range(0, 255))
			return a
		TYPE_PACKED_INT32_ARRAY:
			var a := PackedInt32Array()
			for k in range(rng.randi_range(0, 5)):
				a.append(i32())
			return a
		TYPE_PACKED_INT64_ARRAY:
			var a := PackedInt64Array()
			for k in range(rng.randi_range(0, 5)):
				a.append(i64())
			return a
		TYPE_PACKED_FLOAT32_ARRAY:
			var a := PackedFloat32Array()
			for k in range(rng.randi_range(0, 5)):
				a.append(f32())
			return a
		TYPE_PACKED_FLOAT64_ARRAY:
			var a := PackedFloat64Array()
			for k in range(rng.randi_range(0, 5)):
				a.append(f64())
			return a
		TYPE_PACKED_STRING_ARRAY:
			var a := PackedStringArray()
			for k in range(rng.randi_range(0, 4)):
				a.append(text())
			return a
		TYPE_PACKED_VECTOR2_ARRAY:
			var a := PackedVector2Array()
			for k in range(rng.randi_range(0, 4)):
				a.append(leaf_of(TYPE_VECTOR2))
			return a
		TYPE_PACKED_VECTOR3_ARRAY:
			var a := PackedVector3Array()
			for k in range(rng.randi_range(0, 4)):
				a.append(leaf_of(TYPE_VECTOR3))
			return a
		TYPE_PACKED_COLOR_ARRAY:
			var a := PackedColorArray()
			for k in range(rng.randi_range(0, 4)):
				a.append(leaf_of(TYPE_COLOR))
			return a
		TYPE_PACKED_VECTOR4_ARRAY:
			var a := PackedVector4Array()
			for k in range(rng.randi_range(0, 4)):
				a.append(leaf_of(TYPE_VECTOR4))
			return a
	return null

func leaf():
	return leaf_of(LEAF_TYPES[rng.randi_range(0, LEAF_TYPES.size() - 1)])

func object(depth: int):
	if rng.randi_range(0, 5) == 0:
		return null
	var o := RefCounted.new()
	if full:
		for k in range(rng.randi_range(0, 2)):
			o.set_meta(StringName("m%d" % rng.randi_range(0, 9)), value(depth + 1))
	return o

func key(depth: int):
	match rng.randi_range(0, 9):
		0: return text()
		1: return StringName(text())
		2: return i64()
		3:
			if depth < 4:
				var a := []
				for k in range(rng.randi_range(0, 3)):
					a.append(leaf_of(KEY_TYPES[rng.randi_range(0, 14)]))
				return a
	return leaf_of(KEY_TYPES[rng.randi_range(0, KEY_TYPES.size() - 1)])

func value(depth: int):
	var r := rng.randi_range(0, 15) if depth < 8 else 0
	match r:
		1, 2: return array(depth)
		3, 4: return dictionary(depth)
		5: return typed_array(depth)
		6: return typed_dictionary(depth)
		7: return object(depth)
	return leaf()

func array(depth: int) -> Array:
	var a := []
	for k in range(rng.randi_range(0, 5)):
		a.append(value(depth + 1))
	return a

func dictionary(depth: int) -> Dictionary:
	var d := {}
	for k in range(rng.randi_range(0, 5)):
		d[key(depth)] = value(depth + 1)
	return d

func big_dictionary() -> Dictionary:
	var d := {}
	for k in range(rng.randi_range(17, 60)):
		d[key(0)] = leaf()
	return d

func typed_array(depth: int) -> Array:
	if rng.randi_range(0, 4) == 0:
		var objects := Array([], TYPE_OBJECT, &"RefCounted", null)
		for k in range(rng.randi_range(0, 3)):
			objects.append(object(depth))
		return objects
	var t = LEAF_TYPES[rng.randi_range(1, LEAF_TYPES.size() - 1)]
	var a := Array([], t, &"", null)
	for k in range(rng.randi_range(0, 4)):
		a.append(leaf_of(t))
	return a

func typed_dictionary(depth: int) -> Dictionary:
	var kt = KEY_TYPES[rng.randi_range(1, KEY_TYPES.size() - 1)]
	var vt = LEAF_TYPES[rng.randi_range(1, LEAF_TYPES.size() - 1)]
	var d := Dictionary({}, kt, &"", null, vt, &"", null)
	for k in range(rng.randi_range(0, 4)):
		d[leaf_of(kt)] = leaf_of(vt)
	return d

func deep(levels: int):
	var v = leaf()
	for k in range(levels):
		match rng.randi_range(0, 2):
			0: v = [v]
			1: v = {key(8): v}
			_:
				var a := array(8)
				a.insert(rng.randi_range(0, a.size()), v)
				v = a
	return v

# ---- packets built byte by byte ----

func put_u32(b: PackedByteArray, x: int) -> void:
	var w := PackedByteArray()
	w.resize(4)
	w.encode_u32(0, x)
	b.append_array(w)

# A Dictionary packet whose keys repeat: the same key, or keys the engine takes as one
# (String and StringName of one text, 0.0 and -0.0, two NaNs, an int sent as 32 and 64 bits).
func repeated_keys() -> PackedByteArray:
	var k = key(0)
	var twin = k
	match rng.randi_range(0, 4):
		0:
			k = text()
			twin = StringName(k)
		1:
			scratch.encode_s64(0, 0x7FF8000000000000 | rng.randi_range(0, 9))
			k = scratch.decode_double(0)
			scratch.encode_s64(0, (1 << 63) | 0x7FF8000000000000 | rng.randi_range(0, 9))
			twin = scratch.decode_double(0)
		2:
			k = 0.0
			twin = -0.0
	var pairs := []
	for j in range(rng.randi_range(0, 3)):
		pairs.append([var_to_bytes(key(0)), var_to_bytes(leaf())])
	var first := [var_to_bytes(k), var_to_bytes(leaf())]
	var second := [var_to_bytes(twin), var_to_bytes(leaf())]
	if rng.randi_range(0, 3) == 0 and typeof(k) == TYPE_INT:
		second[0] = wide_int(k)
	pairs.insert(rng.randi_range(0, pairs.size()), first)
	pairs.insert(rng.randi_range(0, pairs.size()), second)
	var b := PackedByteArray([27, 0, 0, 0])
	put_u32(b, pairs.size())
	for p in pairs:
		b.append_array(p[0])
		b.append_array(p[1])
	return b

func wide_int(x: int) -> PackedByteArray:
	var b := PackedByteArray([2, 0, 1, 0])
	var w := PackedByteArray()
	w.resize(8)
	w.encode_s64(0, x)
	b.append_array(w)
	return b

# An int that fits in 32 bits, sent as 64 bits.
func wide_small_int() -> PackedByteArray:
	return wide_int(rng.randi_range(-1000, 1000))

# A String whose bytes hold a NUL: the engine's text ends there.
func nul_string() -> PackedByteArray:
	var s := (text() + "\u0001" + text()).to_utf8_buffer()
	s[s.find(1)] = 0
	var b := PackedByteArray([4, 0, 0, 0])
	put_u32(b, s.size())
	b.append_array(s)
	while b.size() % 4 != 0:
		b.append(0)
	return b

func object_id_packet(id: int) -> PackedByteArray:
	var b := PackedByteArray([24, 0, 1, 0])
	var w := PackedByteArray()
	w.resize(8)
	w.encode_u64(0, id)
	b.append_array(w)
	return b
