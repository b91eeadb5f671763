# Godot 3 side of the random-value differential (tests/engine/random_values.rs): the
# same as gen4.gd in Godot 3.2's API (var2bytes, Pool*Array, no StringName, no typed
# containers): random values from a seeded generator and, for each, the packet, the
# engine's own decode and re-encode of it, and var2str of the decoded value.
extends Reference

var rng = RandomNumberGenerator.new()
var out = File.new()
var full = false

const CHARS = ["a", "b", "Z", "0", "7", " ", "_", "-", ".", "/", ":", "\"", "\\", "\n",
		"\t", "'", "?", "=", "é", "ß", "€", "中", "\u00a0"]
const NAMES = ["a", "b", "Node2D", "..", ".", "é", "x y", "root", "_1"]
const LEAF_TYPES = [TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_REAL, TYPE_STRING, TYPE_VECTOR2,
		TYPE_RECT2, TYPE_VECTOR3, TYPE_TRANSFORM2D, TYPE_PLANE, TYPE_QUAT, TYPE_AABB,
		TYPE_BASIS, TYPE_TRANSFORM, TYPE_COLOR, TYPE_NODE_PATH, TYPE_RID, TYPE_RAW_ARRAY,
		TYPE_INT_ARRAY, TYPE_REAL_ARRAY, TYPE_STRING_ARRAY, TYPE_VECTOR2_ARRAY,
		TYPE_VECTOR3_ARRAY, TYPE_COLOR_ARRAY]
# Key types whose order in var2str does not depend on memory addresses (objects compare
# by address) or on reading past the end of an array (the Pool*Array `<`, below).
const KEY_TYPES = [TYPE_NIL, TYPE_BOOL, TYPE_INT, TYPE_REAL, TYPE_STRING, TYPE_VECTOR2,
		TYPE_RECT2, TYPE_VECTOR3, TYPE_TRANSFORM2D, TYPE_PLANE, TYPE_QUAT, TYPE_AABB,
		TYPE_BASIS, TYPE_COLOR, TYPE_NODE_PATH, TYPE_RID]
# Pool*Array types, as Dictionary keys of their own (never inside an Array key). Their `<`
# reads b[i] for every i below a's size, past the end of a shorter b (an empty b has no
# memory at all: the engine crashes). Keys of one pool type whose first elements differ
# are decided at the first element or by length: pool keys are never empty, and put()
# keeps only such keys (see also pool_key()).
const POOL_KEY_TYPES = [TYPE_RAW_ARRAY, TYPE_INT_ARRAY, TYPE_REAL_ARRAY, TYPE_STRING_ARRAY,
		TYPE_VECTOR2_ARRAY, TYPE_VECTOR3_ARRAY, TYPE_COLOR_ARRAY]

func run(p_seed, count, path):
	rng.seed = p_seed
	out.open(path, File.WRITE)
	for i in range(count):
		one(i)
	out.close()

func one(i):
	full = i % 5 == 4
	var tag = 0
	var packet
	var pick = i % 40
	if pick == 7:
		tag = 1
		packet = repeated_keys()
	elif pick == 17:
		tag = 2
		packet = nul_string()
	elif pick == 27:
		tag = 3
		packet = wide_int(rng.randi_range(-1000, 1000))
	elif pick == 37:
		packet = object_id_packet(0)
	elif pick == 3:
		packet = var2bytes(deep(rng.randi_range(6, 12)), full)
	elif i % 997 == 500:
		packet = var2bytes(deep(rng.randi_range(101, 130)), full)
	elif pick == 13:
		packet = var2bytes(big_dictionary(), full)
	else:
		packet = var2bytes(value(0), full)
	emit(i, tag, packet)

func emit(i, tag, packet):
	var d = bytes2var(packet, full)
	var again = var2bytes(d, full)
	var text = var2str(d).to_utf8()
	record(out, i, tag | (16 if full else 0), packet, again, text)

# ---- numbers ----

func u32():
	return rng.randi()

func i64():
	match rng.randi_range(0, 5):
		0: return rng.randi_range(-10, 10)
		1: return u32() - 2147483648
		2: return [0, -1, 1, 2147483647, -2147483648, 2147483648, -2147483649,
				9223372036854775807, -9223372036854775807 - 1][rng.randi_range(0, 8)]
	return (u32() << 32) | u32()

func double_of(bits):
	var b = StreamPeerBuffer.new()
	b.put_64(bits)
	b.seek(0)
	return b.get_double()

func float_of(bits):
	var b = StreamPeerBuffer.new()
	b.put_32(bits)
	b.seek(0)
	return b.get_float()

func f64():
	match rng.randi_range(0, 7):
		0: return float(rng.randi_range(-1000, 1000)) / 8.0
		1: return rng.randf_range(-1e6, 1e6)
		2: return [0.1, 1e-05, 123456.7, 1e20, 0.3, -2.5e-7, 1e300, 3.0e-300][rng.randi_range(0, 7)]
		3:
			var bits = [0, 1 << 63, 0x7FF0000000000000, (1 << 63) | 0x7FF0000000000000,
					0x7FF8000000000000, (1 << 63) | 0x7FF8000000000000, 1, 0x000FFFFFFFFFFFFF,
					0x0010000000000000, 0x7FEFFFFFFFFFFFFF, (1 << 63) | 0x7FEFFFFFFFFFFFFF,
					(1 << 63) | 1, 0x7FF0000000000001, 0x3FF0000000000000]
			return double_of(bits[rng.randi_range(0, bits.size() - 1)])
		4: return double_of((u32() << 32) | u32())
	return rng.randf_range(-100.0, 100.0)

func f32():
	match rng.randi_range(0, 5):
		0: return float(rng.randi_range(-100, 100)) / 4.0
		1: return rng.randf_range(-1000.0, 1000.0)
		2:
			var bits = [0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 1,
					0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0x80000001, 0x3DCCCCCD]
			return float_of(bits[rng.randi_range(0, bits.size() - 1)])
		3: return float_of(u32())
	return rng.randf_range(-10.0, 10.0)

func i32():
	if rng.randi_range(0, 2) == 0:
		return rng.randi_range(-10, 10)
	return u32() - 2147483648

# ---- text ----

func text():
	var s = ""
	if rng.randi_range(0, 9) == 0:
		s += char(0xFEFF)
	for k in range(rng.randi_range(0, 8)):
		match rng.randi_range(0, 9):
			0: s += char(rng.randi_range(0x20, 0xD7FF))
			1: s += char(rng.randi_range(0x10000, 0x10FFFF))
			_: s += CHARS[rng.randi_range(0, CHARS.size() - 1)]
	return s

func node_path():
	match rng.randi_range(0, 9):
		0: return NodePath("/")
		1: return NodePath("")
	var s = "/" if rng.randi_range(0, 2) == 0 else ""
	for k in range(rng.randi_range(0, 3)):
		if k > 0:
			s += "/"
		s += NAMES[rng.randi_range(0, NAMES.size() - 1)]
	for k in range(rng.randi_range(0, 2)):
		s += ":" + NAMES[rng.randi_range(0, NAMES.size() - 1)]
	return NodePath(s)

# ---- values ----

func v2():
	return Vector2(f32(), f32())

func v3():
	return Vector3(f32(), f32(), f32())

func leaf_of(t):
	match t:
		TYPE_NIL: return null
		TYPE_BOOL: return rng.randi_range(0, 1) == 1
		TYPE_INT: return i64()
		TYPE_REAL: return f64()
		TYPE_STRING: return text()
		TYPE_VECTOR2: return v2()
		TYPE_RECT2: return Rect2(f32(), f32(), f32(), f32())
		TYPE_VECTOR3: return v3()
		TYPE_TRANSFORM2D: return Transform2D(v2(), v2(), v2())
		TYPE_PLANE: return Plane(f32(), f32(), f32(), f32())
		TYPE_QUAT: return Quat(f32(), f32(), f32(), f32())
		TYPE_AABB: return AABB(v3(), v3())
		TYPE_BASIS: return Basis(v3(), v3(), v3())
		TYPE_TRANSFORM: return Transform(Basis(v3(), v3(), v3()), v3())
		TYPE_COLOR: return Color(f32(), f32(), f32(), f32())
		TYPE_NODE_PATH: return node_path()
		TYPE_RID: return RID()
		TYPE_RAW_ARRAY:
			var a = PoolByteArray()
			for k in range(rng.randi_range(0, 9)):
				a.append(rng.randi_range(0, 255))
			return a
		TYPE_INT_ARRAY:
			var a = PoolIntArray()
			for k in range(rng.randi_range(0, 5)):
				a.append(i32())
			return a
		TYPE_REAL_ARRAY:
			var a = PoolRealArray()
			for k in range(rng.randi_range(0, 5)):
				a.append(f32())
			return a
		TYPE_STRING_ARRAY:
			var a = PoolStringArray()
			for k in range(rng.randi_range(0, 4)):
				a.append(text())
			return a
		TYPE_VECTOR2_ARRAY:
			var a = PoolVector2Array()
			for k in range(rng.randi_range(0, 4)):
				a.append(v2())
			return a
		TYPE_VECTOR3_ARRAY:
			var a = PoolVector3Array()
			for k in range(rng.randi_range(0, 4)):
				a.append(v3())
			return a
		TYPE_COLOR_ARRAY:
			var a = PoolColorArray()
			for k in range(rng.randi_range(0, 4)):
				a.append(Color(f32(), f32(), f32(), f32()))
			return a
	return null

func leaf():
	return leaf_of(LEAF_TYPES[rng.randi_range(0, LEAF_TYPES.size() - 1)])

func object(depth):
	if rng.randi_range(0, 5) == 0:
		return null
	var o = Reference.new()
	if full:
		for k in range(rng.randi_range(0, 2)):
			o.set_meta("m%d" % rng.randi_range(0, 9), value(depth + 1))
	return o

func key(depth):
	match rng.randi_range(0, 9):
		0: return text()
		1: return i64()
		2:
			if depth < 4:
				var a = []
				for k in range(rng.randi_range(0, 3)):
					a.append(leaf_of(KEY_TYPES[rng.randi_range(0, KEY_TYPES.size() - 1)]))
				return a
		3: return pool_key()
	return leaf_of(KEY_TYPES[rng.randi_range(0, KEY_TYPES.size() - 1)])

# A pool-array key: never empty, and a PoolRealArray key holds no NaN (the engine cannot
# find such a key in its own Dictionary: d[k] is null).
func pool_key():
	var t = POOL_KEY_TYPES[rng.randi_range(0, POOL_KEY_TYPES.size() - 1)]
	var a = leaf_of(t)
	while a.size() == 0 or (t == TYPE_REAL_ARRAY and has_nan(a)):
		a = leaf_of(t)
	return a

func has_nan(a):
	for x in a:
		if x != x:
			return true
	return false

# Whether the key k is a pool array that a key in keys of its type cannot be told apart
# from at the first element (see POOL_KEY_TYPES). Equal keys are one key. Strings are
# compared as bytes2var gives them back, without a leading BOM.
func clashes(keys, k):
	if not (typeof(k) in POOL_KEY_TYPES):
		return false
	k = decoded(k)
	for other in keys:
		if typeof(other) == typeof(k):
			other = decoded(other)
			if other != k and other[0] == k[0]:
				return true
	return false

func decoded(a):
	if typeof(a) != TYPE_STRING_ARRAY:
		return a
	var out = PoolStringArray()
	for s in a:
		out.append(s.substr(1, s.length() - 1) if s.begins_with(char(0xFEFF)) else s)
	return out

func put(d, k, v):
	if not clashes(d.keys(), k):
		d[k] = v

func value(depth):
	var r = rng.randi_range(0, 15) if depth < 8 else 0
	match r:
		1, 2, 5: return array(depth)
		3, 4, 6: return dictionary(depth)
		7: return object(depth)
	return leaf()

func array(depth):
	var a = []
	for k in range(rng.randi_range(0, 5)):
		a.append(value(depth + 1))
	return a

func dictionary(depth):
	var d = {}
	for k in range(rng.randi_range(0, 5)):
		put(d, key(depth), value(depth + 1))
	return d

func big_dictionary():
	var d = {}
	for k in range(rng.randi_range(17, 60)):
		put(d, key(0), leaf())
	return d

func deep(levels):
	var v = leaf()
	for k in range(levels):
		match rng.randi_range(0, 2):
			0: v = [v]
			1:
				var d = {}
				d[key(8)] = v
				v = d
			_:
				var a = array(8)
				a.insert(rng.randi_range(0, a.size()), v)
				v = a
	return v

# ---- packets built byte by byte ----

func word(x):
	var b = StreamPeerBuffer.new()
	b.put_32(x)
	return b.data_array

# A Dictionary packet whose keys repeat: the same key, or keys the engine takes as one
# (0.0 and -0.0, two NaNs, an int sent as 32 and 64 bits).
func repeated_keys():
	var k = key(0)
	var twin = k
	match rng.randi_range(0, 3):
		0:
			k = double_of(0x7FF8000000000000 | rng.randi_range(0, 9))
			twin = double_of((1 << 63) | 0x7FF8000000000000 | rng.randi_range(0, 9))
		1:
			k = 0.0
			twin = double_of(1 << 63)
	var pairs = []
	var keys = [k, twin]
	for j in range(rng.randi_range(0, 3)):
		var other = key(0)
		if not clashes(keys, other):
			keys.append(other)
			pairs.append([var2bytes(other), var2bytes(leaf())])
	var first = [var2bytes(k), var2bytes(leaf())]
	var second = [var2bytes(twin), var2bytes(leaf())]
	if rng.randi_range(0, 3) == 0 and typeof(k) == TYPE_INT:
		second[0] = wide_int(k)
	pairs.insert(rng.randi_range(0, pairs.size()), first)
	pairs.insert(rng.randi_range(0, pairs.size()), second)
	var b = PoolByteArray([18, 0, 0, 0])
	b.append_array(word(pairs.size()))
	for p in pairs:
		b.append_array(p[0])
		b.append_array(p[1])
	return b

func wide_int(x):
	var b = StreamPeerBuffer.new()
	b.put_32(2 | (1 << 16))
	b.put_64(x)
	return b.data_array

# A String whose bytes hold a NUL: the engine's text ends there.
func nul_string():
	var s = (text() + char(1) + text()).to_utf8()
	for j in range(s.size()):
		if s[j] == 1:
			s[j] = 0
			break
	var b = PoolByteArray([4, 0, 0, 0])
	b.append_array(word(s.size()))
	b.append_array(s)
	while b.size() % 4 != 0:
		b.append(0)
	return b

func object_id_packet(id):
	var b = StreamPeerBuffer.new()
	b.put_32(17 | (1 << 16))
	b.put_64(id)
	return b.data_array
