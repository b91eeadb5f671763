//! The serde data model mapping table of the crate docs (src/lib.rs), row by row: what each
//! Rust value encodes to (checked by decoding the bytes into [`Variant`]), and that decoding
//! gives the Rust value back. Then the decoding rules the docs promise (self-describing
//! input, narrowing, StringName keys, zero-copy borrows), the dialect and error cases, and
//! the builtin types through serde_json.

use crate::support::variant::assert_eq_ordered;
use godot_bin::{
    Color, Config, Dialect, Dictionary, ErrorKind, NodePath, Object, ObjectId, PackedByteArray,
    PackedVector3Array, Rect2, StringName, Variant, VariantType, Vector2, Vector2i, Vector3,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

/// Encodes with the defaults (Godot 4) and decodes the bytes into a `Variant`.
fn encode<T: Serialize + ?Sized>(value: &T) -> (Vec<u8>, Variant) {
    let bytes = godot_bin::to_vec(value).unwrap();
    let variant = godot_bin::from_slice(&bytes).unwrap();
    (bytes, variant)
}

/// Encodes, asserts the Variant the bytes hold, and decodes back into `T`.
fn maps_to<T>(value: T, expected: Variant) -> Vec<u8>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let (bytes, variant) = encode(&value);
    assert_eq_ordered!(variant, expected, "{value:?}");
    // The Variant re-encodes to the same bytes.
    assert_eq!(godot_bin::to_vec(&variant).unwrap(), bytes, "{value:?}");
    let back: T = godot_bin::from_slice(&bytes).unwrap();
    assert_eq!(back, value);
    bytes
}

/// Decodes `bytes` into `T` through a round trip of `value`.
fn round_trip<T>(value: &T) -> Vec<u8>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let bytes = godot_bin::to_vec(value).unwrap();
    let back: T = godot_bin::from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{value:?}: {e} (bytes {bytes:02x?})"));
    assert_eq!(&back, value);
    bytes
}

fn s(text: &str) -> Variant {
    Variant::String(text.to_owned())
}

fn array(items: Vec<Variant>) -> Variant {
    Variant::from(items)
}

fn dict(entries: Vec<(Variant, Variant)>) -> Variant {
    Variant::Dictionary(Dictionary::from(entries))
}

/// The Godot 4 type id in a packet's header, and its flags byte (bit 16: 64-bit).
fn header(bytes: &[u8]) -> (u8, u8) {
    (bytes[0], bytes[2])
}

// ---------------------------------------------------------------------------------------
// The table, row by row
// ---------------------------------------------------------------------------------------

#[test]
fn bool_is_bool() {
    let bytes = maps_to(true, Variant::Bool(true));
    assert_eq!(bytes, [1, 0, 0, 0, 1, 0, 0, 0]);
    maps_to(false, Variant::Bool(false));
}

#[test]
fn every_integer_type_is_int() {
    assert_eq!(maps_to(42u8, Variant::Int(42)).len(), 8);
    maps_to(-5i8, Variant::Int(-5));
    maps_to(-300i16, Variant::Int(-300));
    maps_to(60000u16, Variant::Int(60000));
    maps_to(i32::MIN, Variant::Int(i32::MIN.into()));
    maps_to(7i64, Variant::Int(7));
    maps_to(7i128, Variant::Int(7));
    maps_to(7u128, Variant::Int(7));
    maps_to(u64::from(u32::MAX), Variant::Int(u32::MAX.into()));
    // u32::MAX does not fit in i32: 64-bit.
    let bytes = maps_to(u32::MAX, Variant::Int(u32::MAX.into()));
    assert_eq!((header(&bytes), bytes.len()), ((2, 1), 12));
    // 32-bit while the value fits in i32.
    let bytes = maps_to(i32::MAX as i64, Variant::Int(i32::MAX.into()));
    assert_eq!((header(&bytes), bytes.len()), ((2, 0), 8));
    let bytes = maps_to(1u64 << 40, Variant::Int(1 << 40));
    assert_eq!(bytes[2], 1, "64-bit flag");
    assert_eq!(bytes.len(), 12);
    let bytes = maps_to(i64::MIN, Variant::Int(i64::MIN));
    assert_eq!((header(&bytes), bytes.len()), ((2, 1), 12));
    maps_to(i64::MAX as u64, Variant::Int(i64::MAX));
}

#[test]
fn integers_outside_i64_are_errors_not_wraps() {
    for err in [
        godot_bin::to_vec(&u64::MAX).unwrap_err(),
        godot_bin::to_vec(&(i64::MAX as u64 + 1)).unwrap_err(),
        godot_bin::to_vec(&(i64::MIN as i128 - 1)).unwrap_err(),
        godot_bin::to_vec(&u128::MAX).unwrap_err(),
    ] {
        assert!(
            matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }),
            "{err:?}"
        );
    }
    let err = godot_bin::to_vec(&u64::MAX).unwrap_err();
    assert!(err.to_string().contains(&u64::MAX.to_string()), "{err}");
}

#[test]
fn floats_take_4_or_8_bytes_as_the_engine_decides() {
    // 0.5 and INF survive f32: 4 bytes, no flag.
    let bytes = maps_to(0.5f64, Variant::Float(0.5));
    assert_eq!((header(&bytes), bytes.len()), ((3, 0), 8));
    let bytes = maps_to(f64::INFINITY, Variant::Float(f64::INFINITY));
    assert_eq!((header(&bytes), bytes.len()), ((3, 0), 8));
    // 0.1 and NaN do not: 8 bytes with the flag.
    let bytes = maps_to(0.1f64, Variant::Float(0.1));
    assert_eq!((header(&bytes), bytes.len()), ((3, 1), 12));
    let (bytes, v) = encode(&f64::NAN);
    assert_eq!((header(&bytes), bytes.len()), ((3, 1), 12));
    assert!(matches!(v, Variant::Float(f) if f.is_nan()));
    assert!(godot_bin::from_slice::<f64>(&bytes).unwrap().is_nan());
    // An f32 always survives f32.
    let bytes = maps_to(0.1f32, Variant::Float(0.1f32.into()));
    assert_eq!((header(&bytes), bytes.len()), ((3, 0), 8));
    maps_to(-2.5f32, Variant::Float(-2.5));
}

#[test]
fn char_str_and_string_are_string() {
    maps_to('é', s("é"));
    maps_to("héllo".to_owned(), s("héllo"));
    let (bytes, v) = encode("abc");
    assert_eq!(v, s("abc"));
    assert_eq!(bytes, [4, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', b'c', 0]);
}

#[test]
fn serde_bytes_are_packed_byte_array_and_vec_u8_is_an_array() {
    let data = vec![1u8, 2, 255];
    let packed = Variant::PackedByteArray(PackedByteArray::from(data.clone()));
    maps_to(serde_bytes::ByteBuf::from(data.clone()), packed.clone());
    let (bytes, v) = encode(serde_bytes::Bytes::new(&data));
    assert_eq!(v, packed);
    assert_eq!(bytes[0], 29, "PACKED_BYTE_ARRAY");

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Blob<'a> {
        #[serde(with = "serde_bytes")]
        data: &'a [u8],
    }
    let (_, v) = encode(&Blob { data: &data });
    assert_eq!(v, dict(vec![(s("data"), packed)]));

    // A plain Vec<u8> is a sequence in serde: an Array of ints.
    maps_to(
        data,
        array(vec![Variant::Int(1), Variant::Int(2), Variant::Int(255)]),
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Unit;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Meters(f64);

#[test]
fn none_unit_and_unit_struct_are_nil() {
    let bytes = maps_to(None::<i32>, Variant::Nil);
    assert_eq!(bytes, [0, 0, 0, 0]);
    maps_to((), Variant::Nil);
    maps_to(Unit, Variant::Nil);
}

#[test]
fn some_and_newtype_struct_are_their_content() {
    maps_to(Some(5i32), Variant::Int(5));
    maps_to(Some("x".to_owned()), s("x"));
    maps_to(Meters(1.5), Variant::Float(1.5));
    assert_eq!(
        godot_bin::to_vec(&Meters(1.5)).unwrap(),
        godot_bin::to_vec(&1.5f64).unwrap()
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Pair(i32, String);

#[test]
fn seq_tuple_tuple_struct_and_arrays_are_array() {
    maps_to(vec![1i32, 2], array(vec![Variant::Int(1), Variant::Int(2)]));
    maps_to((1i32, "a".to_owned()), array(vec![Variant::Int(1), s("a")]));
    maps_to(Pair(1, "a".into()), array(vec![Variant::Int(1), s("a")]));
    let bytes = maps_to(
        [1.5f32, 2.0, 3.0],
        array(vec![
            Variant::Float(1.5),
            Variant::Float(2.0),
            Variant::Float(3.0),
        ]),
    );
    assert_eq!(bytes[0], 28, "ARRAY");
    maps_to(Vec::<i32>::new(), array(vec![]));
}

#[test]
fn maps_are_dictionary_with_keys_of_any_type() {
    let m = HashMap::from([(7i32, "seven".to_owned())]);
    let bytes = maps_to(m, dict(vec![(Variant::Int(7), s("seven"))]));
    assert_eq!(bytes[0], 27, "DICTIONARY");
    // A BTreeMap writes its entries in key order.
    let m = BTreeMap::from([(3i32, true), (-1, false), (2, true)]);
    maps_to(
        m,
        dict(vec![
            (Variant::Int(-1), Variant::Bool(false)),
            (Variant::Int(2), Variant::Bool(true)),
            (Variant::Int(3), Variant::Bool(true)),
        ]),
    );
    // Vector keys, as the engine allows.
    let m = BTreeMap::from([((1i32, 2i32), 0.5f64)]);
    maps_to(
        m,
        dict(vec![(
            array(vec![Variant::Int(1), Variant::Int(2)]),
            Variant::Float(0.5),
        )]),
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    // Not alphabetical, to check the order.
    zeta: i32,
    alpha: String,
    mid: Vector3,
    path: NodePath,
}

#[test]
fn struct_is_dictionary_with_string_keys_in_declaration_order() {
    let p = Player {
        zeta: 1,
        alpha: "a".into(),
        mid: Vector3::new(1.0, 2.0, 3.0),
        path: NodePath::from("../Enemy:position"),
    };
    let (_, v) = encode(&p);
    let Variant::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    let keys: Vec<_> = d.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, [s("zeta"), s("alpha"), s("mid"), s("path")]);
    // Builtins keep their own packet types.
    assert_eq!(d.get("mid"), Some(&Variant::Vector3(p.mid)));
    assert_eq!(d.get("path"), Some(&Variant::NodePath(p.path.clone())));
    round_trip(&p);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Msg {
    Ping,
    Say(String),
    Move(i32, i32),
    Hit { damage: u16, at: Vector2 },
}

#[test]
fn enums_are_externally_tagged() {
    maps_to(Msg::Ping, s("Ping"));
    maps_to(Msg::Say("hi".into()), dict(vec![(s("Say"), s("hi"))]));
    maps_to(
        Msg::Move(1, -2),
        dict(vec![(
            s("Move"),
            array(vec![Variant::Int(1), Variant::Int(-2)]),
        )]),
    );
    let at = Vector2::new(0.5, 1.0);
    maps_to(
        Msg::Hit { damage: 3, at },
        dict(vec![(
            s("Hit"),
            dict(vec![
                (s("damage"), Variant::Int(3)),
                (s("at"), Variant::Vector2(at)),
            ]),
        )]),
    );
    // The same shapes serde_json writes.
    assert_eq!(serde_json::to_string(&Msg::Ping).unwrap(), r#""Ping""#);
    assert_eq!(
        serde_json::to_string(&Msg::Move(1, -2)).unwrap(),
        r#"{"Move":[1,-2]}"#
    );
    // A unit variant also decodes from a StringName.
    let bytes = godot_bin::to_vec(&StringName::from("Ping")).unwrap();
    assert_eq!(godot_bin::from_slice::<Msg>(&bytes).unwrap(), Msg::Ping);
}

#[test]
fn builtins_are_their_own_packet_types() {
    let v = Vector3::new(1.0, 2.0, 3.0);
    let bytes = maps_to(v, Variant::Vector3(v));
    assert_eq!(bytes[0], 9, "VECTOR3 in Godot 4");
    maps_to(
        Color::from_rgba(1.0, 0.5, 0.25, 1.0),
        Variant::Color(Color::from_rgba(1.0, 0.5, 0.25, 1.0)),
    );
    let p = NodePath::from("../Enemy:position");
    maps_to(p.clone(), Variant::NodePath(p));
    let a = PackedVector3Array::from(vec![v, v]);
    maps_to(a.clone(), Variant::PackedVector3Array(a));
    maps_to(StringName::from("a"), Variant::StringName("a".into()));
    let r = Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0));
    maps_to(r, Variant::Rect2(r));
}

#[test]
fn variant_is_whatever_it_holds_byte_for_byte() {
    let v = dict(vec![
        (Variant::StringName("k".into()), Variant::Int(1)),
        (Variant::Vector2i(Vector2i::new(1, 2)), Variant::Nil),
        (Variant::Float(0.1), array(vec![s("x")])),
    ]);
    let bytes = godot_bin::to_vec(&v).unwrap();
    let back: Variant = godot_bin::from_slice(&bytes).unwrap();
    assert_eq_ordered!(back, v);
    assert_eq!(godot_bin::to_vec(&back).unwrap(), bytes);
}

// ---------------------------------------------------------------------------------------
// Decoding is self-describing
// ---------------------------------------------------------------------------------------

#[derive(Serialize, Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Shape {
    Num(i64),
    Name(String),
    Point(Vector2),
    Circle { r: f64 },
    List(Vec<Shape>),
}

#[test]
fn untagged_enums_round_trip() {
    for shape in [
        Shape::Num(3),
        Shape::Name("n".into()),
        Shape::Point(Vector2::new(1.5, 2.0)),
        Shape::Circle { r: 0.1 },
        Shape::List(vec![Shape::Num(1), Shape::Point(Vector2::new(0.0, 1.0))]),
    ] {
        round_trip(&shape);
    }
    // Point really is a VECTOR2 packet.
    let (_, v) = encode(&Shape::Point(Vector2::new(1.5, 2.0)));
    assert_eq!(v, Variant::Vector2(Vector2::new(1.5, 2.0)));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Stats {
    hp: i32,
    name: String,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Flattened {
    id: u32,
    #[serde(flatten)]
    stats: Stats,
    #[serde(flatten)]
    extra: HashMap<String, i64>,
}

#[test]
fn flatten_round_trips() {
    let f = Flattened {
        id: 1,
        stats: Stats {
            hp: 10,
            name: "a".into(),
        },
        extra: HashMap::from([("gold".to_owned(), 5)]),
    };
    round_trip(&f);
    let (_, v) = encode(&f);
    let d = v.as_dictionary().unwrap();
    assert_eq!(d.len(), 4);
    assert_eq!(d.get("hp"), Some(&Variant::Int(10)));
    assert_eq!(d.get("gold"), Some(&Variant::Int(5)));
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct WithExtra {
    id: u32,
    #[serde(flatten)]
    rest: HashMap<String, Variant>,
}

#[test]
fn flatten_into_variant_values_round_trips() {
    let w = WithExtra {
        id: 1,
        rest: HashMap::from([
            (
                "pos".to_owned(),
                Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
            ),
            ("tags".to_owned(), array(vec![s("a")])),
        ]),
    };
    let bytes = godot_bin::to_vec(&w).unwrap();
    let back: WithExtra = godot_bin::from_slice(&bytes).unwrap();
    assert_eq!(back.id, 1);
    assert_eq!(back.rest["tags"], array(vec![s("a")]));
    // serde buffers flattened fields in its own data model; the builtin crosses it as its
    // one-entry map and keeps its type.
    assert_eq!(
        back.rest["pos"],
        Variant::Vector3(Vector3::new(1.0, 2.0, 3.0))
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Optional {
    a: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    b: Option<i32>,
    c: Option<String>,
    #[serde(default)]
    d: Option<Vector2>,
}

#[test]
fn option_fields_and_skip_serializing_if() {
    let none = Optional {
        a: 1,
        b: None,
        c: None,
        d: None,
    };
    let (_, v) = encode(&none);
    // b is skipped: three entries, and the count word says so.
    assert_eq_ordered!(
        v,
        dict(vec![
            (s("a"), Variant::Int(1)),
            (s("c"), Variant::Nil),
            (s("d"), Variant::Nil),
        ])
    );
    let bytes = round_trip(&none);
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 3);

    let some = Optional {
        a: 1,
        b: Some(2),
        c: Some("c".into()),
        d: Some(Vector2::new(1.0, 2.0)),
    };
    let (bytes, v) = encode(&some);
    assert_eq!(v.as_dictionary().unwrap().len(), 4);
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 4);
    assert_eq!(v.get("d"), Some(&Variant::Vector2(Vector2::new(1.0, 2.0))));
    round_trip(&some);
}

#[test]
fn hashmap_with_string_keys_round_trips() {
    let m: HashMap<String, Vec<Option<f32>>> = HashMap::from([
        ("a".to_owned(), vec![Some(1.5), None]),
        ("b".to_owned(), vec![]),
    ]);
    round_trip(&m);
    let m: HashMap<String, Variant> = HashMap::from([
        ("v".to_owned(), Variant::Vector2i(Vector2i::new(1, 2))),
        ("n".to_owned(), Variant::Nil),
    ]);
    round_trip(&m);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Borrowed<'a> {
    name: &'a str,
    #[serde(with = "serde_bytes")]
    data: &'a [u8],
}

#[test]
fn borrowed_str_and_bytes_do_not_copy() {
    let value = Borrowed {
        name: "zero-copy",
        data: &[9, 8, 7],
    };
    let bytes = godot_bin::to_vec(&value).unwrap();
    let back: Borrowed = godot_bin::from_slice(&bytes).unwrap();
    assert_eq!(back, value);
    let input = bytes.as_ptr_range();
    for part in [back.name.as_bytes(), back.data] {
        assert!(
            input.contains(&part.as_ptr()),
            "not borrowed from the input"
        );
        assert!(part.as_ptr_range().end <= input.end);
    }
}

#[test]
fn struct_decodes_from_stringname_keys() {
    let v = dict(vec![
        (Variant::StringName("hp".into()), Variant::Int(5)),
        (Variant::StringName("name".into()), s("x")),
    ]);
    let bytes = godot_bin::to_vec(&v).unwrap();
    assert_eq!(bytes[8], 21, "the first key is a STRING_NAME packet");
    let stats: Stats = godot_bin::from_slice(&bytes).unwrap();
    assert_eq!(
        stats,
        Stats {
            hp: 5,
            name: "x".into()
        }
    );
}

#[test]
fn narrowing_checks_the_range() {
    let bytes = godot_bin::to_vec(&300i32).unwrap();
    let err = godot_bin::from_slice::<u8>(&bytes).unwrap_err();
    match err.kind() {
        ErrorKind::NumberOutOfRange { value, target } => {
            assert_eq!(value, "300");
            assert_eq!(*target, "u8");
        }
        other => panic!("{other:?}"),
    }
    let msg = err.to_string();
    assert!(msg.contains("u8") && msg.contains("300"), "{msg}");
    assert_eq!(err.offset(), Some(0));
    assert_eq!(godot_bin::from_slice::<u16>(&bytes).unwrap(), 300);
    let neg = godot_bin::to_vec(&-1i32).unwrap();
    assert!(matches!(
        godot_bin::from_slice::<u32>(&neg).unwrap_err().kind(),
        ErrorKind::NumberOutOfRange { target: "u32", .. }
    ));

    // Inside a struct, the message still names the type and the value.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Small {
        small: u8,
    }
    let bytes = godot_bin::to_vec(&dict(vec![(s("small"), Variant::Int(300))])).unwrap();
    let msg = godot_bin::from_slice::<Small>(&bytes)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("u8") && msg.contains("300"), "{msg}");

    // An Int into a float works.
    let bytes = godot_bin::to_vec(&7i64).unwrap();
    assert_eq!(godot_bin::from_slice::<f64>(&bytes).unwrap(), 7.0);
    assert_eq!(godot_bin::from_slice::<f32>(&bytes).unwrap(), 7.0);
    let bytes = godot_bin::to_vec(&(1i64 << 40)).unwrap();
    assert_eq!(
        godot_bin::from_slice::<f64>(&bytes).unwrap(),
        (1u64 << 40) as f64
    );
}

// ---------------------------------------------------------------------------------------
// Dialects and errors
// ---------------------------------------------------------------------------------------

#[test]
fn godot3_refuses_types_it_lacks() {
    let godot3 = Config::new(Dialect::Godot3);
    for (result, ty) in [
        (godot3.to_vec(&Vector2i::new(1, 2)), VariantType::Vector2i),
        (
            godot3.to_vec(&StringName::from("a")),
            VariantType::StringName,
        ),
        (
            godot3.to_vec(&Variant::StringName("a".into())),
            VariantType::StringName,
        ),
    ] {
        let err = result.unwrap_err();
        match err.kind() {
            ErrorKind::TypeNotInDialect { ty: t, dialect } => {
                assert_eq!(*t, ty);
                assert_eq!(*dialect, Dialect::Godot3);
            }
            other => panic!("{other:?}"),
        }
    }
    // Nested too: no partial output is returned.
    let err = godot3
        .to_vec(&vec![
            Variant::Int(1),
            Variant::Vector2i(Vector2i::new(0, 0)),
        ])
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TypeNotInDialect { .. }));
    // What Godot 3 has works, with its own ids.
    let bytes = godot3.to_vec(&Vector2::new(1.0, 2.0)).unwrap();
    assert_eq!(bytes[0], 5, "VECTOR2 in Godot 3");
}

#[test]
fn godot2_numbers_are_32_bit_only() {
    let godot2 = Config::new(Dialect::Godot2);
    // An int that does not fit in i32 is an error, never truncated.
    let err = godot2.to_vec(&(1i64 << 40)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }),
        "{err:?}"
    );
    // A float is rounded to f32 as the engine rounds it: 0.1 takes 4 bytes, not 8.
    let bytes = godot2.to_vec(&0.1f64).unwrap();
    assert_eq!(bytes.len(), 8);
    assert_eq!(godot2.from_slice::<f32>(&bytes).unwrap(), 0.1f32);
    // A Godot 4 packet with the 64-bit flag is refused: Godot 2 headers carry no flags.
    let wide = godot_bin::to_vec(&(1i64 << 40)).unwrap();
    let err = godot2.from_slice::<i64>(&wide).unwrap_err();
    // A flagged header is another dialect's packet: the error names the dialects that
    // read it (issue 41: `from_slice` hints), holding Godot 2's own refusal.
    assert!(
        matches!(err.kind(), ErrorKind::WrongDialect { error, decodes_as, .. }
            if matches!(**error, ErrorKind::UnknownTypeId { .. })
                && decodes_as.contains(&Dialect::Godot4)),
        "{err:?}"
    );
}

#[test]
fn trailing_bytes_are_an_error_and_take_from_slice_returns_them() {
    let mut bytes = godot_bin::to_vec(&1i32).unwrap();
    let second = godot_bin::to_vec("x").unwrap();
    bytes.extend_from_slice(&second);
    let err = godot_bin::from_slice::<i32>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TrailingBytes(n) if *n == second.len()),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(8));
    let (first, rest): (i32, &[u8]) = godot_bin::take_from_slice(&bytes).unwrap();
    assert_eq!(first, 1);
    assert_eq!(rest, second);
    let (text, rest): (&str, &[u8]) = godot_bin::take_from_slice(rest).unwrap();
    assert_eq!(text, "x");
    assert!(rest.is_empty());
}

#[test]
fn truncated_packets_fail_with_an_offset() {
    let p = Player {
        zeta: 1,
        alpha: "abc".into(),
        mid: Vector3::new(1.0, 2.0, 3.0),
        path: NodePath::from("a/b"),
    };
    let bytes = godot_bin::to_vec(&p).unwrap();
    for cut in [0, 3, 4, bytes.len() / 2, bytes.len() - 1] {
        let err = godot_bin::from_slice::<Player>(&bytes[..cut]).unwrap_err();
        let offset = err
            .offset()
            .unwrap_or_else(|| panic!("cut {cut}: no offset in {err:?}"));
        assert!(offset <= cut, "cut {cut}: offset {offset}");
        assert!(err.to_string().contains("offset"), "{err}");
    }
    // A Vector3 missing its last component: end of input at the header's offset or after.
    let v = godot_bin::to_vec(&Vector3::new(1.0, 2.0, 3.0)).unwrap();
    let err = godot_bin::from_slice::<Vector3>(&v[..12]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err:?}");
    assert!(err.offset().is_some());
}

#[test]
fn full_objects_need_allow_objects() {
    let object = Object {
        class_name: "RefCounted".into(),
        properties: vec![
            ("script".into(), Variant::Nil),
            ("hp".into(), Variant::Int(3)),
        ],
    };
    let bytes = godot_bin::to_vec(&object).unwrap();
    let err = godot_bin::from_slice::<Variant>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ObjectsNotAllowed),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(0));
    let err = godot_bin::from_slice::<Object>(&bytes).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::ObjectsNotAllowed));
    // Inside a container too.
    let nested =
        godot_bin::to_vec(&vec![Variant::Int(1), Variant::Object(object.clone())]).unwrap();
    let err = godot_bin::from_slice::<Variant>(&nested).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::ObjectsNotAllowed));

    let allowed = Config::default().allow_objects(true);
    assert_eq!(
        allowed.from_slice::<Variant>(&bytes).unwrap(),
        Variant::Object(object.clone())
    );
    assert_eq!(allowed.from_slice::<Object>(&bytes).unwrap(), object);

    // An object id is not a full object: it always decodes.
    let id = godot_bin::to_vec(&ObjectId(1234)).unwrap();
    assert_eq!(
        godot_bin::from_slice::<Variant>(&id).unwrap(),
        Variant::ObjectId(ObjectId(1234))
    );
}

// ---------------------------------------------------------------------------------------
// Builtins through other formats
// ---------------------------------------------------------------------------------------

fn json_round_trip<T>(value: &T, expected: serde_json::Value)
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let json = serde_json::to_value(value).unwrap();
    assert_eq!(json, expected);
    let back: T = serde_json::from_value(json).unwrap();
    assert_eq!(&back, value);
    let back: T = serde_json::from_str(&serde_json::to_string(value).unwrap()).unwrap();
    assert_eq!(&back, value);
}

#[test]
fn builtins_through_serde_json_are_ordinary_structs_and_sequences() {
    use serde_json::json;
    let v = Vector3::new(1.0, 2.0, 3.0);
    json_round_trip(&v, json!({"x": 1.0, "y": 2.0, "z": 3.0}));
    json_round_trip(&Vector2i::new(-1, 2), json!({"x": -1, "y": 2}));
    json_round_trip(
        &Color::from_rgba(1.0, 0.5, 0.25, 0.75),
        json!({"r": 1.0, "g": 0.5, "b": 0.25, "a": 0.75}),
    );
    json_round_trip(
        &Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0)),
        json!({"position": {"x": 1.0, "y": 2.0}, "size": {"x": 3.0, "y": 4.0}}),
    );
    json_round_trip(
        &NodePath::from("/root/Main:position"),
        json!({"names": ["root", "Main"], "subnames": ["position"], "absolute": true}),
    );
    json_round_trip(&StringName::from("a"), json!("a"));
    json_round_trip(
        &PackedVector3Array::from(vec![v]),
        json!([{"x": 1.0, "y": 2.0, "z": 3.0}]),
    );
    json_round_trip(&PackedByteArray::from(vec![1, 2]), json!([1, 2]));
    json_round_trip(
        &Player {
            zeta: 1,
            alpha: "a".into(),
            mid: v,
            path: NodePath::from("a"),
        },
        json!({
            "zeta": 1,
            "alpha": "a",
            "mid": {"x": 1.0, "y": 2.0, "z": 3.0},
            "path": {"names": ["a"], "subnames": [], "absolute": false}
        }),
    );
}
