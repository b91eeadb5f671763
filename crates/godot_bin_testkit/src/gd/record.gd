
# ---- the record (appended to gen3.gd, gen4.gd, check3.gd and check4.gd by
# tests/engine/random_values.rs; compare.rs's parse_records reads it) ----

# One value's record: u32 index, u8 flags (tag in the low four bits, bit 4 = objects in
# full), then the packet, the engine's re-encoding and its text (UTF-8), each after its
# u32 length. The same calls in Godot 3's File and Godot 4's FileAccess.
func record(out, i, flags, packet, again, text):
	out.store_32(i)
	out.store_8(flags)
	out.store_32(packet.size())
	out.store_buffer(packet)
	out.store_32(again.size())
	out.store_buffer(again)
	out.store_32(text.size())
	out.store_buffer(text)
