//! The one map type of the protocol and its links.

/// The maps of the protocol and its links: foldhash, seeded at random (per map), as the
/// Dictionary's key index is in godot_bin (`src/variant/keys.rs`), so that ids and cache ids a peer
/// chooses cannot be picked to collide, and faster than SipHash (the crate's
/// benches/RESULTS.md).
pub(crate) type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
