# Godot 3 side of the ConfigFile engine test (tests/engine/resources/config.rs): the same
# as config4.gd in Godot 3.2's API, with names the engine reads back: Godot 3 writes keys
# and section names bare, so no space, '=', ';', '"', '[' or ']' in them, and reads them
# byte by byte (Latin-1), so ASCII only.
extends Reference

var gen
const NAME_CHARS = ["a", "b", "Z", "0", "_", "-", ".", "/", ":", "~", "!", "?"]

func make(p_seed, files):
	gen = load("res://gen.gd").new()
	gen.rng.seed = p_seed
	for i in range(files):
		var c = ConfigFile.new()
		for s in range(gen.rng.randi_range(1, 4)):
			var section = "" if s == 0 and gen.rng.randi_range(0, 2) == 0 else word()
			for k in range(gen.rng.randi_range(1, 6)):
				gen.full = gen.rng.randi_range(0, 3) == 0
				var v = gen.value(0)
				while has_rid(v) or var2str(v).find("inf") >= 0 or var2str(v).find("nan") >= 0:
					v = gen.value(0)
				c.set_value(section, word(), v)
		c.save("res://cfg_%d.cfg" % i)
		c.save_encrypted_pass("res://cfg_%d.enc" % i, "pw%d" % i)

# Godot 3 prints an RID as nothing (`key=`), and infinite and NaN components as `inf`,
# `-inf` and `nan`, which 3.2.3 does not read back in a constructor (nor a -inf FLOAT's
# `-inf.0` as -inf); values holding any are drawn again.
func has_rid(v):
	match typeof(v):
		TYPE_RID:
			return true
		TYPE_ARRAY:
			for x in v:
				if has_rid(x):
					return true
		TYPE_DICTIONARY:
			for k in v:
				if has_rid(k) or has_rid(v[k]):
					return true
		TYPE_OBJECT:
			if v != null:
				for m in v.get_meta_list():
					if has_rid(v.get_meta(m)):
						return true
	return false

func word():
	var s = "k"
	for k in range(gen.rng.randi_range(0, 7)):
		s += NAME_CHARS[gen.rng.randi_range(0, NAME_CHARS.size() - 1)]
	return s + "e"

func put_text(out, s):
	var b = s.to_utf8()
	out.store_32(b.size())
	out.store_buffer(b)

func dump(paths, passwords, out_path):
	var out = File.new()
	out.open(out_path, File.WRITE)
	out.store_32(paths.size())
	for n in range(paths.size()):
		var c = ConfigFile.new()
		var err
		if passwords[n] == "":
			err = c.load(paths[n])
		else:
			err = c.load_encrypted_pass(paths[n], passwords[n])
		out.store_32(err)
		var sections = c.get_sections()
		out.store_32(sections.size())
		for s in sections:
			put_text(out, s)
			var keys = c.get_section_keys(s)
			out.store_32(keys.size())
			for k in keys:
				put_text(out, k)
				var b = var2bytes(c.get_value(s, k), true)
				out.store_32(b.size())
				out.store_buffer(b)
	out.close()
