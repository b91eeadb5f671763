//! How deep values may nest: godot_bin's one depth policy ([`godot_bin::MAX_DEPTH`], the
//! engine's 1024 levels with the `stack-growth` feature, else 128), and its stack growth
//! ([`godot_bin::grow_stack`]), which the binary resources' values follow as packets do.

pub(crate) use godot_bin::grow_stack;
pub(crate) use godot_bin::MAX_DEPTH;
