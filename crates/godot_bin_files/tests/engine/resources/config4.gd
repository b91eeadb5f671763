# Godot 4 side of the ConfigFile engine test (tests/engine/resources/config.rs): makes
# ConfigFiles of random values with the random-value generator (gen4.gd, here gen.gd),
# saves each with ConfigFile.save and save_encrypted_pass, and dumps what
# ConfigFile.load / load_encrypted_pass read back from any file.
extends RefCounted

var gen
const SECTION_CHARS = ["a", "b", "Z", "0", "_", "-", ".", "/", ":", " ", "]", "é", "中", "=", "\""]
const KEY_CHARS = ["a", "b", "Z", "0", "_", "-", ".", "/", ":", " ", "]", "[", "é", "=", "\"", ";", "\t", "\\"]

func make(p_seed: int, files: int) -> void:
	gen = load("res://gen.gd").new()
	gen.rng.seed = p_seed
	gen.scratch.resize(8)
	for i in range(files):
		var c := ConfigFile.new()
		for s in range(gen.rng.randi_range(1, 4)):
			var section := "" if s == 0 and gen.rng.randi_range(0, 2) == 0 else word(SECTION_CHARS)
			for k in range(gen.rng.randi_range(1, 6)):
				gen.full = gen.rng.randi_range(0, 3) == 0
				c.set_value(section, word(KEY_CHARS), gen.value(0))
		c.save("cfg_%d.cfg" % i)
		c.save_encrypted_pass("cfg_%d.enc" % i, "pw%d" % i)

# A name of 1 to 8 characters that survives the engine's own round trip: no space or
# backslash at either end (section names are trimmed; "\]" escapes).
func word(chars: Array) -> String:
	var s := "k"
	for k in range(gen.rng.randi_range(0, 7)):
		s += chars[gen.rng.randi_range(0, chars.size() - 1)]
	return s + "e"

func put_text(out: FileAccess, s: String) -> void:
	var b := s.to_utf8_buffer()
	out.store_32(b.size())
	out.store_buffer(b)

# For each path (and its password, "" for a plain file): the error code of the load, then
# each section, its keys and each value as var_to_bytes_with_objects.
func dump(paths: Array, passwords: Array, out_path: String) -> void:
	var out := FileAccess.open(out_path, FileAccess.WRITE)
	out.store_32(paths.size())
	for n in range(paths.size()):
		var c := ConfigFile.new()
		var err := c.load(paths[n]) if passwords[n] == "" else c.load_encrypted_pass(paths[n], passwords[n])
		out.store_32(err)
		var sections := c.get_sections()
		out.store_32(sections.size())
		for s in sections:
			put_text(out, s)
			var keys := c.get_section_keys(s)
			out.store_32(keys.size())
			for k in keys:
				put_text(out, k)
				var b := var_to_bytes_with_objects(c.get_value(s, k))
				out.store_32(b.size())
				out.store_buffer(b)
	out.close()
