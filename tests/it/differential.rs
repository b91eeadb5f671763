//! What the engine differential (`tests/engine/differential.rs`) found about decoding,
//! checked without the engine.

use godot_bin::{Config, Dialect, Variant};

/// The engine adds the NodePath name and subname counts as `uint32_t` (`src/packet/nodepath.rs`:
/// "The engine adds the counts as wrapping u32s"), so a sum past 2^32 wraps to a small total and
/// the packet decodes (found by the engine differential, `tests/engine/differential.rs`).
#[test]
fn nodepath_counts_wrap_as_in_the_engine() {
    for dialect in [Dialect::Godot3, Dialect::Godot4, Dialect::Pandemonium] {
        let cfg = Config::new(dialect);
        let header = cfg
            .to_vec(&godot_bin::NodePath::from("a"))
            .expect("encode a NodePath")[0];
        // 0x7FFFFFFF names + 0x80000000 subnames + 1 (flag bit 1) = 2^32 → 0 strings.
        let mut packet = vec![header, 0, 0, 0];
        for w in [0xFFFF_FFFFu32, 0x8000_0000, 2] {
            packet.extend_from_slice(&w.to_le_bytes());
        }
        let path: godot_bin::NodePath = cfg.from_slice(&packet).unwrap();
        assert_eq!(path, godot_bin::NodePath::default(), "{dialect}");
        // 0x7FFFFFFF names + 0x80000002 subnames = 2^32 + 1 → one string, a name
        // (index 0 < the name count).
        let mut packet = vec![header, 0, 0, 0];
        for w in [
            0xFFFF_FFFFu32,
            0x8000_0002,
            0,
            1,
            u32::from_le_bytes(*b"a\0\0\0"),
        ] {
            packet.extend_from_slice(&w.to_le_bytes());
        }
        let path: godot_bin::NodePath = cfg.from_slice(&packet).unwrap();
        assert_eq!(path.names, ["a"], "{dialect}");
        assert!(path.subnames.is_empty(), "{dialect}");
    }
}

/// NODE_PATH, no names, no subnames, flags = absolute (`NodePath("/")`): Godot 3 and
/// Pandemonium decode it as the empty relative path, so `var2bytes` writes flags 0 (found by
/// the engine differential, `tests/engine/differential.rs`); Godot 4 keeps the root (found
/// by the random-value differential; `tests/it/random_values.rs` has the engine's packets).
#[test]
fn empty_absolute_nodepath_decodes_per_dialect() {
    for dialect in [Dialect::Godot3, Dialect::Godot4, Dialect::Pandemonium] {
        let cfg = Config::new(dialect);
        let packet = cfg.to_vec(&godot_bin::NodePath::from("/")).unwrap();
        let path: godot_bin::NodePath = cfg.from_slice(&packet).unwrap();
        let keeps = dialect == Dialect::Godot4;
        assert_eq!(path.absolute, keeps, "{dialect}: {path:?}");
        // And so it re-encodes as that engine's own decode and re-encode does.
        let v: Variant = cfg.from_slice(&packet).unwrap();
        assert_eq!(
            cfg.to_vec(&v).unwrap()[12..16],
            [keeps as u8, 0, 0, 0],
            "{dialect}"
        );
    }
    // With a subname, the flag stays.
    let cfg = Config::new(Dialect::Godot3);
    let p: godot_bin::NodePath = cfg
        .from_slice(&cfg.to_vec(&godot_bin::NodePath::from("/:x")).unwrap())
        .unwrap();
    assert!(p.absolute);
}
