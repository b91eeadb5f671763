//! One file a bug: each reproduces what went wrong, from the engine's or a real project's
//! file where there is one, and fails with the fix taken out.

mod godot3_packet_hint;
mod godot3_struct_hint;
mod nodepath_root_from_text;
mod object_keys;
mod object_property_names;
