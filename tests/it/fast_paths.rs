//! The decoder reads STRING, INT, FLOAT and plain DICTIONARY packets for typed targets
//! without its general header path. These tests hold those shortcuts to the general path's
//! answers: the same values, the same errors at the same offsets, the same depth limit, and
//! flagged headers left to the general rules of each dialect.

use crate::support::golden;
use crate::support::variant::assert_eq_ordered;

use godot_bin::{Config, Dialect, ErrorKind, Variant, VariantType};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Inner {
    s: String,
    i: i32,
    f: f64,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Outer {
    inner: Inner,
}

/// A String packet's size: header, length, text padded to 4.
fn string_packet_len(text: &str) -> usize {
    8 + text.len().div_ceil(4) * 4
}

#[test]
fn typed_and_untyped_dictionaries_both_read_as_structs() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Hp {
        hp: i64,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct A {
        a: i32,
    }
    let cfg = Config::new(Dialect::Godot4);
    // Header flags mark the typed one: it takes the general path, the plain one does not.
    let plain_header = Dialect::Godot4
        .type_id(VariantType::Dictionary)
        .unwrap()
        .to_le_bytes();
    let typed = golden::row("godot4.tsv", "dict_typed_string_int").bytes;
    assert_ne!(typed[..4], plain_header);
    assert_eq!(cfg.from_slice::<Hp>(&typed).unwrap(), Hp { hp: 10 });
    let map: HashMap<String, i64> = cfg.from_slice(&typed).unwrap();
    assert_eq!(map, HashMap::from([("hp".to_owned(), 10)]));
    let plain = golden::row("godot4.tsv", "dict_a1").bytes;
    assert_eq!(plain[..4], plain_header);
    assert_eq!(cfg.from_slice::<A>(&plain).unwrap(), A { a: 1 });
}

#[test]
fn an_int_out_of_range_is_reported_at_its_header() {
    #[derive(Serialize)]
    struct Wide {
        first: String,
        n: i64,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Narrow {
        first: String,
        n: i32,
    }
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let cfg = Config::new(dialect);
        let bytes = cfg
            .to_vec(&Wide {
                first: "x".into(),
                n: 1 << 40,
            })
            .unwrap();
        let err = cfg.from_slice::<Narrow>(&bytes).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }),
            "{err}"
        );
        // Dictionary header and count, key "first", "x", key "n": then the INT header.
        let at = 8 + string_packet_len("first") + string_packet_len("x") + string_packet_len("n");
        assert_eq!(err.offset(), Some(at), "{dialect}");
        let int = dialect.type_id(VariantType::Int).unwrap();
        assert_eq!(u32::from(bytes[at]), int, "an INT header is there");
    }
}

#[test]
fn the_depth_limit_holds_for_every_field_kind() {
    let value = Outer {
        inner: Inner {
            s: "x".into(),
            i: 7,
            f: 0.5,
        },
    };
    for dialect in Dialect::ALL {
        let bytes = Config::new(dialect).to_vec(&value).unwrap();
        // Depth 2 is allowed: everything decodes.
        let cfg = Config::new(dialect).max_depth(2);
        assert_eq!(cfg.from_slice::<Outer>(&bytes).unwrap(), value);
        // Depth 1: the inner Dictionary's first key is too deep, for the typed decoder
        // (its shortcuts) exactly as for the general one (Variant).
        let cfg = Config::new(dialect).max_depth(1);
        let typed = cfg.from_slice::<Outer>(&bytes).unwrap_err();
        let general = cfg.from_slice::<Variant>(&bytes).unwrap_err();
        assert!(
            matches!(typed.kind(), ErrorKind::DepthExceeded(1)),
            "{typed}"
        );
        assert!(matches!(general.kind(), ErrorKind::DepthExceeded(1)));
        assert_eq!(typed.offset(), general.offset(), "{dialect}");
        assert_eq!(typed.offset(), Some(8 + string_packet_len("inner") + 8));
    }
}

#[test]
fn the_depth_limit_holds_for_ints_floats_strings_and_structs() {
    // Depth 0 allows only the top-level Array: its first element, at offset 8, is refused,
    // whatever its type, by the typed decoder as by the general one.
    fn refused<T: Serialize + for<'de> Deserialize<'de> + std::fmt::Debug>(element: T) {
        let bytes = godot_bin::to_vec(&vec![element]).unwrap();
        let cfg = Config::new(Dialect::Godot4).max_depth(0);
        for err in [
            cfg.from_slice::<Vec<T>>(&bytes).unwrap_err(),
            cfg.from_slice::<Variant>(&bytes).unwrap_err(),
        ] {
            assert!(matches!(err.kind(), ErrorKind::DepthExceeded(0)), "{err}");
            assert_eq!(err.offset(), Some(8), "{bytes:?}");
        }
        let cfg = Config::new(Dialect::Godot4).max_depth(2);
        assert_eq!(cfg.from_slice::<Vec<T>>(&bytes).unwrap().len(), 1);
    }
    refused(5i32);
    refused(1i64 << 40);
    refused(0.1f64);
    refused(0.5f32);
    refused(String::from("x"));
    refused(Inner {
        s: "x".into(),
        i: 7,
        f: 0.5,
    });
}

#[test]
fn flagged_string_headers_follow_each_dialect() {
    // Godot 3's STRING "hi" with header bit 16 set: Godot 3 reads the type from the low
    // byte and ignores the flag; Godot 2 (STRING is 4 there too) compares the whole word and
    // refuses it.
    let plain = golden::row("godot3.tsv", "str_hi").bytes;
    let mut bytes = plain.clone();
    bytes[2] |= 1;
    let g3 = Config::new(Dialect::Godot3);
    assert_eq!(g3.from_slice::<String>(&bytes).unwrap(), "hi");
    assert_eq!(g3.from_slice::<&str>(&bytes).unwrap(), "hi");
    assert_eq!(
        g3.from_slice::<Variant>(&bytes).unwrap(),
        Variant::from("hi")
    );
    let g2 = Config::new(Dialect::Godot2);
    for err in [
        g2.from_slice::<String>(&bytes).unwrap_err(),
        g2.from_slice::<Variant>(&bytes).unwrap_err(),
    ] {
        // A flagged header is another dialect's packet: the error names the dialects that
        // read it (issue 41: `from_slice` hints), holding Godot 2's own refusal.
        assert!(
            matches!(err.kind(), ErrorKind::WrongDialect { error, .. }
                if matches!(**error, ErrorKind::UnknownTypeId { .. })),
            "{err}"
        );
        assert_eq!(err.offset(), Some(0));
    }
    // The unflagged packet reads in both.
    assert_eq!(g2.from_slice::<String>(&plain).unwrap(), "hi");
    assert_eq!(g3.from_slice::<String>(&plain).unwrap(), "hi");
}

#[test]
fn wide_and_narrow_numbers_read_into_every_width() {
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let cfg = Config::new(dialect);
        for n in [0i64, -1, i32::MAX as i64 + 1, i64::MIN] {
            let bytes = cfg.to_vec(&n).unwrap();
            assert_eq!(cfg.from_slice::<i64>(&bytes).unwrap(), n);
            assert_eq!(cfg.from_slice::<f64>(&bytes).unwrap(), n as f64);
            assert_eq!(cfg.from_slice::<i32>(&bytes).ok(), i32::try_from(n).ok());
        }
        for x in [0.5f64, 0.1, -1e300] {
            let bytes = cfg.to_vec(&x).unwrap();
            assert_eq!(cfg.from_slice::<f64>(&bytes).unwrap(), x);
            assert_eq!(cfg.from_slice::<f32>(&bytes).unwrap(), x as f32);
        }
    }
}

#[test]
fn an_enum_needs_exactly_one_entry_on_either_path() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    enum Shape {
        Dot,
        Circle { r: f32 },
    }
    let two = std::collections::BTreeMap::from([("Circle", 1), ("Dot", 2)]);
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let cfg = Config::new(dialect);
        let mut bytes = cfg.to_vec(&two).unwrap();
        // The plain Dictionary (the shortcut), then with header bit 16 set, which Godot 3
        // ignores (the general path).
        for flagged in [false, true] {
            bytes[2] = flagged as u8;
            let err = cfg.from_slice::<Shape>(&bytes).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::InvalidData(_)), "{err}");
            assert_eq!(err.offset(), Some(4), "{dialect} flagged: {flagged}");
            if dialect == Dialect::Godot4 {
                break; // bit 16 on a Godot 4 Dictionary means typed keys: another test
            }
        }
        let circle = Shape::Circle { r: 0.5 };
        assert_eq!(
            cfg.from_slice::<Shape>(&cfg.to_vec(&circle).unwrap())
                .unwrap(),
            circle
        );
        assert_eq!(
            cfg.from_slice::<Shape>(&cfg.to_vec(&Shape::Dot).unwrap())
                .unwrap(),
            Shape::Dot
        );
    }
}

#[test]
fn broken_packets_fail_alike_on_both_paths() {
    #[derive(Serialize, Deserialize, Debug)]
    struct Texts {
        short: String,
        medium: String,
        long: String,
        n: i64,
        small: i32,
        wide: f64,
        narrow: f32,
    }
    let value = Texts {
        short: "ab".into(),
        medium: "worker-7".into(),
        long: "a message longer than sixteen bytes".into(),
        n: 1 << 40,
        small: -3,
        wide: 0.1,
        narrow: 0.5,
    };
    let bytes = godot_bin::to_vec(&value).unwrap();
    let cfg = Config::default();
    let same = |input: &[u8], what: &str| {
        let typed = cfg.from_slice::<Texts>(input).unwrap_err();
        let general = cfg.from_slice::<Variant>(input).unwrap_err();
        assert_eq!(
            std::mem::discriminant(typed.kind()),
            std::mem::discriminant(general.kind()),
            "{what}: {typed} / {general}"
        );
        assert_eq!(
            typed.offset(),
            general.offset(),
            "{what}: {typed} / {general}"
        );
    };
    // Every truncation: inside a header, a length, a text, a number.
    for end in 0..bytes.len() {
        same(&bytes[..end], &format!("cut at {end}"));
    }
    // Every text byte made invalid UTF-8 (keys and values); the offset is where the
    // string's bytes start.
    let mut checked = 0;
    for at in 0..bytes.len() {
        if !bytes[at].is_ascii_alphabetic() {
            continue;
        }
        let mut broken = bytes.clone();
        broken[at] = 0xFF;
        same(&broken, &format!("0xFF at {at}"));
        assert!(matches!(
            cfg.from_slice::<Texts>(&broken).unwrap_err().kind(),
            ErrorKind::InvalidUtf8
        ));
        checked += 1;
    }
    assert!(checked > 40, "{checked}");
}

/// A `Variant` is decoded in one pass when godot_bin's deserializer is asked for it
/// directly, and piece by piece (each builtin as its one-entry map) when serde buffers it
/// first, as an untagged enum does. Both must give the same value, or both refuse.
#[test]
fn a_variant_decodes_the_same_in_one_pass_and_through_serde_buffering() {
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Buffered {
        V(Variant),
    }
    let (mut same, mut refused) = (0, 0);
    for &(file, dialect) in golden::FILES {
        let cfg = golden::config(dialect);
        for row in golden::rows(file) {
            let direct = cfg.from_slice::<Variant>(&row.bytes);
            let buffered = cfg.from_slice::<Buffered>(&row.bytes);
            match (direct, buffered) {
                (Ok(a), Ok(Buffered::V(b))) => {
                    assert_eq_ordered!(a, b, "{file} {}", row.name);
                    same += 1;
                }
                (Err(_), Err(_)) => refused += 1,
                (a, b) => panic!("{file} {}: one pass {a:?}, buffered {b:?}", row.name),
            }
        }
    }
    // Every engine-made row decodes both ways (167 rows when this was written).
    assert!(same > 150 && refused == 0, "{same} same, {refused} refused");
}

/// A `Variant` decoded in one pass still names where an error lies.
#[test]
fn a_variant_decoded_in_one_pass_names_the_place_of_an_error() {
    let mut inner = godot_bin::Dictionary::new();
    inner.insert(
        "hp",
        Variant::Array(vec![Variant::Int(1), "x".into()].into()),
    );
    let mut outer = godot_bin::Dictionary::new();
    outer.insert("player", inner);
    let mut bytes = godot_bin::to_vec(&outer).unwrap();
    // Cut the last String's text: the packet ends inside `player.hp[1]`.
    bytes.truncate(bytes.len() - 4);
    let err = godot_bin::from_slice::<Variant>(&bytes).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
    assert_eq!(err.path(), "player.hp[1]");
}

/// A fixed builtin asked for by its own type is read whole and given over; through
/// serde's buffering it arrives component by component. Both give what the `Variant`
/// holds, for every engine-made packet of every fixed type, narrow and wide, and a packet
/// of another type is refused alike.
#[test]
fn a_fixed_builtin_decodes_the_same_whole_and_through_serde_buffering() {
    use godot_bin::*;
    macro_rules! each_fixed {
        ($cfg:expr, $row:expr, $v:expr, $seen:expr; $($t:ident),*) => {$(
            #[derive(Deserialize, Debug, PartialEq)]
            #[serde(untagged)]
            #[allow(dead_code)]
            enum $t {
                V(godot_bin::$t),
            }
            let direct = $cfg.from_slice::<godot_bin::$t>(&$row.bytes);
            let buffered = $cfg.from_slice::<$t>(&$row.bytes);
            match &$v {
                Variant::$t(held) => {
                    assert_eq!(direct.as_ref().ok(), Some(held), "{} whole", $row.name);
                    assert_eq!(buffered.ok(), Some($t::V(*held)), "{} buffered", $row.name);
                    $seen += 1;
                }
                // Not this type: refused both ways unless GDScript converts it (never
                // between fixed builtins), and never taken for this type's bytes.
                _ => {
                    assert!(direct.is_err(), "{} read as {}", $row.name, stringify!($t));
                    assert!(buffered.is_err(), "{} buffered as {}", $row.name, stringify!($t));
                }
            }
        )*};
    }
    struct Row {
        name: String,
        bytes: Vec<u8>,
    }
    let mut seen = 0;
    let mut wide = 0;
    for &(file, dialect) in golden::FILES {
        let cfg = golden::config(dialect);
        for row in golden::rows(file) {
            let Ok(v) = cfg.from_slice::<Variant>(&row.bytes) else {
                continue;
            };
            let narrow = Row {
                name: row.name.clone(),
                bytes: row.bytes.clone(),
            };
            each_fixed!(cfg, narrow, v, seen; Vector2, Vector2i, Rect2, Rect2i, Vector3,
                Vector3i, Transform2D, Vector4, Vector4i, Plane, Quaternion, Aabb, Basis,
                Transform3D, Projection, Color);
            // The same value as a double-precision build writes it (8-byte reals, bit 16).
            if dialect == Dialect::Godot4 {
                let bytes = cfg.clone().double_precision(true).to_vec(&v).unwrap();
                let (before, differs) = (seen, bytes != row.bytes);
                let wide_row = Row {
                    name: format!("{} (double)", row.name),
                    bytes,
                };
                each_fixed!(cfg, wide_row, v, seen; Vector2, Vector2i, Rect2, Rect2i, Vector3,
                    Vector3i, Transform2D, Vector4, Vector4i, Plane, Quaternion, Aabb, Basis,
                    Transform3D, Projection, Color);
                if seen > before && differs {
                    wide += 1;
                }
            }
        }
    }
    // Rows of fixed types across the three files and the double forms of Godot 4's (58 when
    // this was written), 11 of them with 8-byte reals.
    assert!(seen >= 50 && wide >= 10, "{seen} fixed rows, {wide} wide");
}
