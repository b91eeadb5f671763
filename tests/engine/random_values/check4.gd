# Godot 4 side of the crate -> engine direction (tests/engine/random_values.rs): reads
# packets the crate made and, for each, writes it back with the engine's own decode and
# re-encode of it and var_to_str of the decoded value, in the records gen4.gd writes.
extends RefCounted

func run(inpath: String, outpath: String) -> void:
	var f := FileAccess.open(inpath, FileAccess.READ)
	var out := FileAccess.open(outpath, FileAccess.WRITE)
	var n := f.get_32()
	for i in range(n):
		var flags := f.get_8()
		var packet := f.get_buffer(f.get_32())
		one(out, i, flags, packet)
	out.close()

func one(out: FileAccess, i: int, flags: int, packet: PackedByteArray) -> void:
	var full := flags & 16 != 0
	var d = bytes_to_var_with_objects(packet) if full else bytes_to_var(packet)
	var again := var_to_bytes_with_objects(d) if full else var_to_bytes(d)
	var text := var_to_str(d).to_utf8_buffer()
	record(out, i, flags, packet, again, text)
