//! The one map type of the protocol and its links.

/// The maps of the protocol and its links: foldhash, seeded at random (per map), as the
/// Dictionary's key index is in godot_bin (`src/variant/keys.rs`), so that ids and cache ids a peer
/// chooses cannot be picked to collide; SipHash cost about 130 instructions a lookup, three
/// lookups a call (benches/RESULTS.md, issue 26).
pub(crate) type Map<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
