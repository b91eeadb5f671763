# Godot 3 side of the crate -> engine direction (tests/engine/random_values.rs): reads
# packets the crate made and, for each, writes it back with the engine's own decode and
# re-encode of it and var2str of the decoded value, in the records gen3.gd writes.
extends Reference

func run(inpath, outpath):
	var f = File.new()
	f.open(inpath, File.READ)
	var out = File.new()
	out.open(outpath, File.WRITE)
	var n = f.get_32()
	for i in range(n):
		var flags = f.get_8()
		var size = f.get_32()
		var packet = PoolByteArray()
		if size > 0:
			packet = f.get_buffer(size)
		one(out, i, flags, packet)
	out.close()
	f.close()

func one(out, i, flags, packet):
	var full = flags & 16 != 0
	var d = bytes2var(packet, full)
	var again = var2bytes(d, full)
	var text = var2str(d).to_utf8()
	record(out, i, flags, packet, again, text)
