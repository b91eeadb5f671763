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

/// A typed Array or Dictionary holding elements (keys) not of its type: Godot 4's decoder
/// adds each element and key through the container's type check, which converts an int
/// for a float container and a String for a StringName one (and back), takes null and
/// objects for an object container, and drops the rest; a Dictionary's values are not
/// checked. The crate decodes the same value, so it re-encodes the engine's own bytes
/// (each expected packet below is Godot 4.4.1's `var_to_bytes(bytes_to_var(packet))`;
/// found by the Godot 4 engine differential, `tests/engine/differential.rs`).
#[test]
fn typed_containers_keep_what_their_type_admits_as_in_godot4() {
    let unhex = crate::support::hex::bytes;
    let cfg = Config::new(Dialect::Godot4);
    for (what, packet, engine) in [
        (
            "Array[int] [1, 2, a float]",
            "1c0001000200000003000000020000000100000002000000020000000300000003000000",
            "1c000100020000000200000002000000010000000200000002000000",
        ),
        (
            "Array[int] [null, true, 2] (and trailing bytes)",
            "1c0001000200000003000000000001000100000002000000020000000200000003000000",
            "1c00010002000000010000000200000002000000",
        ),
        (
            "Array[int] [2.0]",
            "1c00010002000000010000000300000000000040",
            "1c0001000200000000000000",
        ),
        (
            "Array[bool] [\"a\", \"b\"]",
            "1c0001000100000002000000040000000100000061000000040000000100000062000000",
            "1c0001000100000000000000",
        ),
        (
            "Array[float] [1]",
            "1c00010003000000010000000200000001000000",
            "1c0001000300000001000000030000000000803f",
        ),
        (
            "Array[StringName] [\"a\"]",
            "1c0001001500000001000000040000000100000061000000",
            "1c0001001500000001000000150000000100000061000000",
        ),
        (
            "Array[String] [&\"a\"]",
            "1c0001000400000001000000150000000100000061000000",
            "1c0001000400000001000000040000000100000061000000",
        ),
        (
            "Dictionary[int, int] {\"hp\": 10}",
            "1b000500020000000200000001000000040000000200000068700000020000000a000000",
            "1b000500020000000200000000000000",
        ),
        (
            "Dictionary[float, Variant] {1: \"x\"}",
            "1b00010003000000010000000200000001000000040000000100000078000000",
            "1b0001000300000001000000030000000000803f040000000100000078000000",
        ),
        (
            "Dictionary[String, int] {\"a\": \"x\"} (values unchecked)",
            "1b000500040000000200000001000000040000000100000061000000040000000100000078000000",
            "1b000500040000000200000001000000040000000100000061000000040000000100000078000000",
        ),
    ] {
        let (v, _) = cfg
            .take_from_slice::<Variant>(&unhex(packet))
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(cfg.to_vec(&v).unwrap(), unhex(engine), "{what}: {v:?}");
        // Decoding the engine's bytes changes nothing.
        let again: Variant = cfg.from_slice(&unhex(engine)).unwrap();
        assert_eq!(again, v, "{what}");
    }
    // The same as a Dictionary key (keys are decoded on another path).
    let key = "1c0001000200000003000000020000000100000002000000020000000300000003000000";
    let engine_key = "1c000100020000000200000002000000010000000200000002000000";
    let packet = format!("1b00000001000000{key}0200000007000000");
    let v: Variant = cfg.from_slice(&unhex(&packet)).unwrap();
    assert_eq!(
        cfg.to_vec(&v).unwrap(),
        unhex(&format!("1b00000001000000{engine_key}0200000007000000")),
        "{v:?}"
    );
    // An object-typed Array keeps null (and objects), not an int.
    let v: Variant = cfg
        .from_slice(&unhex("1c0001001800000002000000000000000200000005000000"))
        .unwrap();
    let a = v.as_array().expect("an Array");
    assert_eq!(a.items, vec![Variant::Nil]);
}
