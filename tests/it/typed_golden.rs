//! Engine-made packets (`tests/data/golden/*.tsv`) decode into their typed Rust values: for
//! every type that occurs in a file, at least one row decodes into the matching Rust type
//! and its field values are asserted against the row's engine text (third column). Where
//! the typed value carries everything the packet holds, encoding it again with the same
//! [`Config`] must give the engine's bytes exactly (NodePath padding aside).
//!
//! Each file has a table of cases; one test per file runs them all, reports every failing
//! case at once, and checks that the table covers every type the file holds.

use crate::support::golden;

use godot_bin::{
    Aabb, Array, Basis, Callable, Color, Config, Dialect, Dictionary, ElementType, ErrorKind,
    NodePath, Object, ObjectId, PackedByteArray, PackedColorArray, PackedFloat32Array,
    PackedFloat64Array, PackedInt32Array, PackedInt64Array, PackedStringArray, PackedVector2Array,
    PackedVector2iArray, PackedVector3Array, PackedVector3iArray, PackedVector4Array,
    PackedVector4iArray, Plane, Projection, Quaternion, Rect2, Rect2i, Rid, Signal, StringName,
    Transform2D, Transform3D, Variant, VariantType, Vector2, Vector2i, Vector3, Vector3i, Vector4,
    Vector4i,
};
use golden::Row;
use serde::de::{DeserializeOwned, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Debug;
use std::panic::{catch_unwind, AssertUnwindSafe};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Decodes the row into `T`, panicking with the row's name on failure.
fn decode<T: DeserializeOwned>(row: &Row, cfg: &Config) -> T {
    cfg.from_slice(&row.bytes).unwrap_or_else(|e| {
        panic!(
            "{} {}: decode as {}: {e}",
            row.file,
            row.name,
            std::any::type_name::<T>()
        )
    })
}

/// Encoding `value` gives the row's bytes exactly.
fn same_bytes<T: Serialize + ?Sized>(value: &T, row: &Row, cfg: &Config) {
    let ours = cfg.to_vec(value).unwrap_or_else(|e| {
        panic!(
            "{} {}: encode {}: {e}",
            row.file,
            row.name,
            std::any::type_name::<T>()
        )
    });
    assert_eq!(
        ours,
        row.bytes,
        "{} {}: {} re-encodes differently",
        row.file,
        row.name,
        std::any::type_name::<T>()
    );
}

/// Encoding `value` gives the row's bytes, NodePath padding aside.
fn same_bytes_padded<T: Serialize + ?Sized>(value: &T, row: &Row, cfg: &Config) {
    let ours = cfg.to_vec(value).unwrap();
    golden::compare(&ours, &row.bytes, cfg)
        .unwrap_or_else(|e| panic!("{} {}: {e}", row.file, row.name));
}

/// Decodes the row into `T`, asserts it equals `expected`, and that it re-encodes exactly.
fn typed<T>(row: &Row, cfg: &Config, expected: T)
where
    T: DeserializeOwned + Serialize + Debug + PartialEq,
{
    let value: T = decode(row, cfg);
    assert_eq!(value, expected, "{} {}", row.file, row.name);
    same_bytes(&value, row, cfg);
}

/// Asserts that decoding the row into `T` fails with NumberOutOfRange naming `target`.
fn out_of_range<T: DeserializeOwned + Debug>(row: &Row, cfg: &Config, target: &str) {
    let err = cfg.from_slice::<T>(&row.bytes).unwrap_err();
    match err.kind() {
        ErrorKind::NumberOutOfRange { target: t, .. } => assert_eq!(*t, target, "{err}"),
        other => panic!(
            "{} {}: expected NumberOutOfRange, got {other:?}",
            row.file, row.name
        ),
    }
}

/// Asserts `s` points into `bytes` (it was borrowed, not copied).
fn borrowed_from(s: &[u8], bytes: &[u8]) {
    let range = bytes.as_ptr_range();
    assert!(
        s.is_empty() || (range.contains(&s.as_ptr()) && s.as_ptr_range().end <= range.end),
        "not borrowed from the input"
    );
}

/// The numbers in the engine's text form, in order (`Vector2(1.5, -2)` → `["1.5", "-2"]`).
/// The golden files escape newlines as `\n`.
fn text_numbers(text: &str) -> Vec<String> {
    text.replace("\\n", "\n")
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '+' | '-' | '_')))
        .filter(|tok| !tok.is_empty() && tok.parse::<f64>().is_ok())
        .map(str::to_owned)
        .collect()
}

/// The content of a quoted engine string (`"héllo"` → `héllo`, `&"a"` → `a`).
fn unquote(text: &str) -> &str {
    let text = text.trim_start_matches(['&', '@']);
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not a quoted string: {text}"))
}

fn v2(x: f32, y: f32) -> Vector2 {
    Vector2::new(x, y)
}

fn v3(x: f32, y: f32, z: f32) -> Vector3 {
    Vector3::new(x, y, z)
}

fn v4(x: f32, y: f32, z: f32, w: f32) -> Vector4 {
    Vector4::new(x, y, z, w)
}

/// A map that keeps the packet's entry order, for Dictionaries with mixed key types.
#[derive(Debug, PartialEq)]
struct Ordered<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Ordered<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Ordered<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<K, V>(std::marker::PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for V2<K, V> {
            type Value = Ordered<K, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    out.push(entry);
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// The keys of `dict_mixed_keys`: an int, a String and a vector.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Key {
    Int(i64),
    Str(String),
    // Vector2i first: its i32 fields refuse the floats of a Vector2, while a Vector2's f32
    // fields would accept a Vector2i's ints.
    Vec2i(Vector2i),
    Vec2(Vector2),
}

/// The values of `dict_mixed_keys`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum Val {
    Str(String),
    Float(f64),
    Bools(Vec<bool>),
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct A {
    a: i64,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct K {
    k: bool,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Hp {
    hp: i64,
}

// ---------------------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------------------

type Check = Box<dyn Fn(&Row, &Config)>;

/// One row, the numbers its engine text must hold, and the typed checks.
struct Case {
    row: &'static str,
    numbers: &'static [&'static str],
    check: Check,
}

fn case(
    row: &'static str,
    numbers: &'static [&'static str],
    check: impl Fn(&Row, &Config) + 'static,
) -> Case {
    Case {
        row,
        numbers,
        check: Box::new(check),
    }
}

/// Runs every case of `file`, then checks that the cases cover every type in the file.
fn run(file: &'static str, dialect: Dialect, cases: Vec<Case>) {
    let cfg = golden::config(dialect);
    let rows = golden::rows(file);
    let mut failures = Vec::new();
    for c in &cases {
        let Some(row) = rows.iter().find(|r| r.name == c.row) else {
            failures.push(format!("{file}: no row {}", c.row));
            continue;
        };
        let result = catch_unwind(AssertUnwindSafe(|| {
            assert_eq!(
                text_numbers(&row.text),
                c.numbers,
                "{file} {}: engine text {:?}",
                row.name,
                row.text
            );
            (c.check)(row, &cfg);
        }));
        if let Err(e) = result {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failures.push(format!("{file} {}: {msg}", c.row));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );

    // Coverage: every type present in the file has a typed case.
    let type_of = |row: &Row| {
        cfg.from_slice::<Variant>(&row.bytes)
            .unwrap_or_else(|e| panic!("{file} {}: {e}", row.name))
            .get_type()
    };
    let covered: BTreeSet<String> = cases
        .iter()
        .filter_map(|c| rows.iter().find(|r| r.name == c.row))
        .map(|r| format!("{:?}", type_of(r)))
        .collect();
    let present: BTreeSet<String> = rows.iter().map(|r| format!("{:?}", type_of(r))).collect();
    let missing: Vec<_> = present.difference(&covered).collect();
    assert!(missing.is_empty(), "{file}: no typed case for {missing:?}");
    eprintln!(
        "{file}: {} typed cases cover all {} types",
        cases.len(),
        present.len()
    );
}

// Checks shared by the files (the rows carry the same values in every engine).

fn nil(row: &Row, cfg: &Config) {
    typed::<Option<i64>>(row, cfg, None);
    typed::<()>(row, cfg, ());
    typed::<Option<Object>>(row, cfg, None);
    typed::<Option<ObjectId>>(row, cfg, None);
    typed::<Variant>(row, cfg, Variant::Nil);
}

fn bool_row(expected: bool) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        assert_eq!(row.text, expected.to_string());
        typed(row, cfg, expected);
        typed(row, cfg, Some(expected));
    }
}

/// An INT row: i64 always, i32 and u64 where the value fits (and a range error where not).
fn int_row(expected: i64) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        assert_eq!(row.text, expected.to_string());
        typed(row, cfg, expected);
        match i32::try_from(expected) {
            Ok(small) => typed(row, cfg, small),
            Err(_) => out_of_range::<i32>(row, cfg, "i32"),
        }
        match u64::try_from(expected) {
            Ok(unsigned) => typed(row, cfg, unsigned),
            Err(_) => out_of_range::<u64>(row, cfg, "u64"),
        }
        // A 32-bit INT is 8 bytes; a 64-bit one carries the flag and 12 bytes.
        let wide = i32::try_from(expected).is_err();
        assert_eq!(row.bytes.len(), if wide { 12 } else { 8 });
    }
}

/// A FLOAT row decoding into `f64` bit for bit.
fn float_row(expected: f64) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        let value: f64 = decode(row, cfg);
        assert_eq!(value.to_bits(), expected.to_bits(), "{value} != {expected}");
        same_bytes(&value, row, cfg);
    }
}

fn float_half(row: &Row, cfg: &Config) {
    float_row(0.5)(row, cfg);
    typed(row, cfg, 0.5f32);
}

fn float_0_1(row: &Row, cfg: &Config) {
    float_row(0.1)(row, cfg);
    // Into f32 the value is rounded; 0.1f32 re-encodes as a 4-byte FLOAT, not the
    // engine's 8-byte one, so no byte check for it.
    let narrow: f32 = decode(row, cfg);
    assert_eq!(narrow, 0.1f32);
}

/// A STRING row into `String` and into a borrowed `&str`.
fn string(row: &Row, cfg: &Config) {
    let expected = unquote(&row.text);
    typed(row, cfg, expected.to_owned());
    let s: &str = cfg.from_slice(&row.bytes).unwrap();
    assert_eq!(s, expected);
    borrowed_from(s.as_bytes(), &row.bytes);
    same_bytes(s, row, cfg);
}

fn str_a(row: &Row, cfg: &Config) {
    string(row, cfg);
    typed(row, cfg, 'a');
}

fn vector2(row: &Row, cfg: &Config) {
    let v: Vector2 = decode(row, cfg);
    assert_eq!((v.x, v.y), (1.5, -2.0));
    typed(row, cfg, v2(1.5, -2.0));
}

fn vector2i(row: &Row, cfg: &Config) {
    let v: Vector2i = decode(row, cfg);
    assert_eq!((v.x, v.y), (-7, 9));
    typed(row, cfg, Vector2i::new(-7, 9));
}

fn rect2(row: &Row, cfg: &Config) {
    let r: Rect2 = decode(row, cfg);
    assert_eq!(r.position, v2(1.0, 2.0));
    assert_eq!(r.size, v2(3.0, 4.0));
    typed(row, cfg, Rect2::new(v2(1.0, 2.0), v2(3.0, 4.0)));
}

fn rect2i(row: &Row, cfg: &Config) {
    let r: Rect2i = decode(row, cfg);
    assert_eq!(r.position, Vector2i::new(1, -2));
    assert_eq!(r.size, Vector2i::new(30, 40));
    same_bytes(&r, row, cfg);
}

fn vector3(row: &Row, cfg: &Config) {
    let v: Vector3 = decode(row, cfg);
    assert_eq!((v.x, v.y, v.z), (1.0, 2.0, 3.0));
    same_bytes(&v, row, cfg);
}

fn vector3i(row: &Row, cfg: &Config) {
    let v: Vector3i = decode(row, cfg);
    assert_eq!((v.x, v.y, v.z), (1, -2, 3));
    same_bytes(&v, row, cfg);
}

fn transform2d(row: &Row, cfg: &Config) {
    let t: Transform2D = decode(row, cfg);
    assert_eq!(t.x, v2(1.0, 2.0));
    assert_eq!(t.y, v2(3.0, 4.0));
    assert_eq!(t.origin, v2(5.0, 6.0));
    same_bytes(&t, row, cfg);
}

fn vector4(row: &Row, cfg: &Config) {
    let v: Vector4 = decode(row, cfg);
    assert_eq!((v.x, v.y, v.z, v.w), (1.0, 2.0, 3.0, 4.5));
    same_bytes(&v, row, cfg);
}

fn vector4i(row: &Row, cfg: &Config) {
    let v: Vector4i = decode(row, cfg);
    assert_eq!((v.x, v.y, v.z, v.w), (1, 2, -3, 4));
    same_bytes(&v, row, cfg);
}

fn plane(row: &Row, cfg: &Config) {
    let p: Plane = decode(row, cfg);
    assert_eq!(p.normal, v3(0.0, 1.0, 0.0));
    assert_eq!(p.d, 5.0);
    same_bytes(&p, row, cfg);
}

fn quaternion(row: &Row, cfg: &Config) {
    let q: Quaternion = decode(row, cfg);
    // The text is rounded; the bytes hold the f32 nearest each decimal.
    assert_eq!((q.x, q.y, q.z, q.w), (0.1f32, 0.2f32, 0.3f32, 0.9f32));
    same_bytes(&q, row, cfg);
}

fn aabb(row: &Row, cfg: &Config) {
    let b: Aabb = decode(row, cfg);
    assert_eq!(b.position, v3(1.0, 2.0, 3.0));
    assert_eq!(b.size, v3(4.0, 5.0, 6.0));
    same_bytes(&b, row, cfg);
}

/// `Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)`: the engine prints the rows in order.
fn expected_basis() -> Basis {
    Basis {
        rows: [v3(1.0, 4.0, 7.0), v3(2.0, 5.0, 8.0), v3(3.0, 6.0, 9.0)],
    }
}

fn basis(row: &Row, cfg: &Config) {
    let b: Basis = decode(row, cfg);
    assert_eq!(b, expected_basis());
    // The x axis is the first column.
    assert_eq!((b.rows[0].x, b.rows[1].x, b.rows[2].x), (1.0, 2.0, 3.0));
    same_bytes(&b, row, cfg);
}

fn transform3d(row: &Row, cfg: &Config) {
    let t: Transform3D = decode(row, cfg);
    assert_eq!(t.basis, expected_basis());
    assert_eq!(t.origin, v3(10.0, 11.0, 12.0));
    same_bytes(&t, row, cfg);
}

fn projection_1_to_16(row: &Row, cfg: &Config) {
    let p: Projection = decode(row, cfg);
    // The text lists the columns in order.
    assert_eq!(
        p.columns,
        [
            v4(1.0, 2.0, 3.0, 4.0),
            v4(5.0, 6.0, 7.0, 8.0),
            v4(9.0, 10.0, 11.0, 12.0),
            v4(13.0, 14.0, 15.0, 16.0)
        ]
    );
    same_bytes(&p, row, cfg);
}

fn color(row: &Row, cfg: &Config) {
    let c: Color = decode(row, cfg);
    assert_eq!((c.r, c.g, c.b, c.a), (1.0, 0.5, 0.25, 0.75));
    typed(row, cfg, Color::from_rgba(1.0, 0.5, 0.25, 0.75));
}

/// A STRING_NAME row into `StringName`, into `String` and into a borrowed `&str`.
fn string_name(row: &Row, cfg: &Config) {
    let text = unquote(&row.text);
    let name: StringName = decode(row, cfg);
    assert_eq!(name.0, text);
    same_bytes(&name, row, cfg);
    let s: String = decode(row, cfg);
    assert_eq!(s, text);
    let s: &str = cfg.from_slice(&row.bytes).unwrap();
    assert_eq!(s, text);
    borrowed_from(s.as_bytes(), &row.bytes);
}

/// A NODE_PATH row: the parts, and the same text as the engine's.
fn node_path(
    names: &'static [&'static str],
    subnames: &'static [&'static str],
    absolute: bool,
) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        let path: NodePath = decode(row, cfg);
        assert_eq!(path.names, names);
        assert_eq!(path.subnames, subnames);
        assert_eq!(path.absolute, absolute);
        let text = row
            .text
            .strip_prefix("NodePath(\"")
            .and_then(|t| t.strip_suffix("\")"))
            .unwrap();
        assert_eq!(path.to_string(), text);
        assert_eq!(path, NodePath::from(text));
        // The engine leaves NodePath padding unwritten: compare all but those bytes.
        same_bytes_padded(&path, row, cfg);
    }
}

fn rid(row: &Row, cfg: &Config) {
    // Godot 4 sends id 0 for RID(); Godot 3 and Pandemonium send no id at all.
    let r: Rid = decode(row, cfg);
    assert_eq!(r.0, 0);
    same_bytes(&r, row, cfg);
}

fn dict_empty(row: &Row, cfg: &Config) {
    typed(row, cfg, HashMap::<String, i64>::new());
    typed(row, cfg, BTreeMap::<String, i64>::new());
    typed(row, cfg, Dictionary::new());
}

fn dict_a1(row: &Row, cfg: &Config) {
    let a: A = decode(row, cfg);
    assert_eq!(a.a, 1);
    same_bytes(&a, row, cfg);
    typed(row, cfg, HashMap::from([("a".to_owned(), 1i64)]));
    typed(row, cfg, BTreeMap::from([("a".to_owned(), 1u8)]));
    let d: Dictionary = decode(row, cfg);
    assert_eq!(d.get("a"), Some(&Variant::Int(1)));
}

fn dict_mixed_keys(vector_key: Key) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        let d: Ordered<Key, Val> = decode(row, cfg);
        assert_eq!(d.0.len(), 3);
        assert_eq!(d.0[0], (Key::Int(1), Val::Str("one".into())));
        assert_eq!(d.0[1], (Key::Str("two".into()), Val::Float(2.5)));
        assert_eq!(d.0[2].0, vector_key);
        assert_eq!(d.0[2].1, Val::Bools(vec![true]));
        same_bytes(&d, row, cfg);
    }
}

fn array_empty(row: &Row, cfg: &Config) {
    typed(row, cfg, Vec::<i64>::new());
    typed(row, cfg, Vec::<Variant>::new());
    typed(row, cfg, Array::new());
}

fn array_mixed(row: &Row, cfg: &Config) {
    // [1, "x", [2, null], {"k": false}]
    type Mixed = (i64, String, (i64, Option<i64>), K);
    typed::<Mixed>(row, cfg, (1, "x".into(), (2, None), K { k: false }));
    let items: Vec<Variant> = decode(row, cfg);
    assert_eq!(items.len(), 4);
    assert_eq!(items[0], Variant::Int(1));
    assert_eq!(items[1], Variant::String("x".into()));
    assert_eq!(items[2], Variant::from(vec![Variant::Int(2), Variant::Nil]));
    assert_eq!(items[3].get("k"), Some(&Variant::Bool(false)));
    same_bytes(&items, row, cfg);
}

fn packed_byte_empty(row: &Row, cfg: &Config) {
    typed(row, cfg, PackedByteArray::default());
    typed(row, cfg, serde_bytes::ByteBuf::new());
}

fn packed_byte_5(row: &Row, cfg: &Config) {
    let expected = [1u8, 2, 3, 254, 255];
    typed(row, cfg, PackedByteArray::from(expected.to_vec()));
    typed(row, cfg, serde_bytes::ByteBuf::from(expected.to_vec()));
    let bytes: &serde_bytes::Bytes = cfg.from_slice(&row.bytes).unwrap();
    assert_eq!(&bytes[..], expected);
    borrowed_from(bytes, &row.bytes);
    same_bytes(bytes, row, cfg);
}

fn packed_int32(row: &Row, cfg: &Config) {
    let expected = vec![1, -2, i32::MAX];
    typed(row, cfg, PackedInt32Array::from(expected.clone()));
    // A Vec<i32> would encode as an Array: values only.
    let v: Vec<i32> = decode(row, cfg);
    assert_eq!(v, expected);
}

fn packed_float32(row: &Row, cfg: &Config) {
    let p: PackedFloat32Array = decode(row, cfg);
    assert_eq!(&p[..], [0.5, -1.25, 3.0]);
    same_bytes(&p, row, cfg);
}

fn packed_string(row: &Row, cfg: &Config) {
    let p: PackedStringArray = decode(row, cfg);
    assert_eq!(&p[..], ["", "a", "héllo"]);
    same_bytes(&p, row, cfg);
    // A Vec<String> would encode as an Array: values only.
    let v: Vec<String> = decode(row, cfg);
    assert_eq!(v, ["", "a", "héllo"]);
}

fn packed_vector2(row: &Row, cfg: &Config) {
    let expected = vec![v2(1.0, 2.0), v2(-3.0, 4.5)];
    typed(row, cfg, PackedVector2Array::from(expected));
}

fn packed_vector3(row: &Row, cfg: &Config) {
    typed(row, cfg, PackedVector3Array::from(vec![v3(1.0, 2.0, 3.0)]));
}

fn packed_vector4(row: &Row, cfg: &Config) {
    typed(
        row,
        cfg,
        PackedVector4Array::from(vec![v4(1.0, 2.0, 3.0, 4.0)]),
    );
}

fn packed_color(row: &Row, cfg: &Config) {
    let p: PackedColorArray = decode(row, cfg);
    assert_eq!(
        &p[..],
        [
            Color::from_rgba(1.0, 0.0, 0.0, 1.0),
            Color::from_rgba(0.0, 0.0, 1.0, 0.5)
        ]
    );
    same_bytes(&p, row, cfg);
}

/// A full object row: `Object(<class>,"script":null)`.
fn object_full(class: &'static str) -> impl Fn(&Row, &Config) {
    move |row, cfg| {
        assert!(row
            .text
            .starts_with(&format!("Object({class},\"script\":null)")));
        let o: Object = decode(row, cfg);
        assert_eq!(o.class_name, class);
        assert_eq!(o.properties, [("script".to_owned(), Variant::Nil)]);
        same_bytes(&o, row, cfg);
        // Without allow_objects, the engine's default, the same packet is refused.
        let strict = Config::new(cfg.dialect());
        let err = strict.from_slice::<Object>(&row.bytes).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::ObjectsNotAllowed), "{err}");
    }
}

// ---------------------------------------------------------------------------------------
// The files
// ---------------------------------------------------------------------------------------

/// Rows that Godot 4 and Godot 3 both have, under the same names and with the same values.
fn common_cases() -> Vec<Case> {
    vec![
        case("nil", &[], nil),
        case("bool_true", &[], bool_row(true)),
        case("bool_false", &[], bool_row(false)),
        case("int_0", &["0"], int_row(0)),
        case("int_1", &["1"], int_row(1)),
        case("int_neg1", &["-1"], int_row(-1)),
        case("int_i32_max", &["2147483647"], int_row(i32::MAX.into())),
        case("int_i32_min", &["-2147483648"], int_row(i32::MIN.into())),
        case("int_i32_max_plus1", &["2147483648"], int_row(2147483648)),
        case("int_i32_min_minus1", &["-2147483649"], int_row(-2147483649)),
        case("int_i64_max", &["9223372036854775807"], int_row(i64::MAX)),
        case("int_2p40", &["1099511627776"], int_row(1 << 40)),
        case("float_0", &["0.0"], float_row(0.0)),
        case("float_half", &["0.5"], float_half),
        case("float_neg_2_5", &["-2.5"], float_row(-2.5)),
        case("float_0_1", &["0.1"], float_0_1),
        // The text is rounded to six digits; the bytes hold the f64 nearest 1/3.
        case("float_third", &["0.333333"], float_row(1.0 / 3.0)),
        case("str_empty", &[], string),
        case("str_a", &[], str_a),
        case("str_hi", &[], string),
        case("str_abc", &[], string),
        case("str_abcd", &[], string),
        case("str_hello_accent", &[], string),
        case("str_cjk", &[], string),
        case("vector2", &["1.5", "-2"], vector2),
        case("rect2", &["1", "2", "3", "4"], rect2),
        case("vector3", &["1", "2", "3"], vector3),
        case("transform2d", &["1", "2", "3", "4", "5", "6"], transform2d),
        case("plane", &["0", "1", "0", "5"], plane),
        case("aabb", &["1", "2", "3", "4", "5", "6"], aabb),
        case(
            "basis",
            &["1", "4", "7", "2", "5", "8", "3", "6", "9"],
            basis,
        ),
        case("color", &["1", "0.5", "0.25", "0.75"], color),
        case("nodepath_rel", &[], node_path(&["a", "b"], &[], false)),
        case(
            "nodepath_abs_sub",
            &[],
            node_path(&["root", "Main"], &["position", "x"], true),
        ),
        case("nodepath_empty", &[], node_path(&[], &[], false)),
        case("dict_empty", &[], dict_empty),
        case("dict_a1", &["1"], dict_a1),
        case("array_empty", &[], array_empty),
        case("array_mixed", &["1", "2"], array_mixed),
    ]
}

const TRANSFORM_NUMBERS: &[&str] = &[
    "1", "4", "7", "2", "5", "8", "3", "6", "9", "10", "11", "12",
];

#[test]
fn godot4_rows_decode_into_typed_values() {
    let mut cases = common_cases();
    cases.extend([
        case("float_1e300", &["1e+300"], float_row(1e300)),
        case("vector2i", &["-7", "9"], vector2i),
        case("rect2i", &["1", "-2", "30", "40"], rect2i),
        case("vector3i", &["1", "-2", "3"], vector3i),
        case("vector4", &["1", "2", "3", "4.5"], vector4),
        case("vector4i", &["1", "2", "-3", "4"], vector4i),
        case("quaternion", &["0.1", "0.2", "0.3", "0.9"], quaternion),
        case("transform3d", TRANSFORM_NUMBERS, transform3d),
        case(
            "projection",
            &[
                "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
                "16",
            ],
            projection_1_to_16,
        ),
        case("string_name", &[], string_name),
        case("string_name_empty", &[], string_name),
        case("rid_empty", &[], rid),
        case("callable_empty", &[], |row, cfg| typed(row, cfg, Callable)),
        case("signal_empty", &[], |row, cfg| {
            let s: Signal = decode(row, cfg);
            assert_eq!(s.name, "");
            assert_eq!(s.object, 0);
            same_bytes(&s, row, cfg);
        }),
        case("dict_stringname_key", &["1"], |row, cfg| {
            // StringName keys work as struct field names...
            let a: A = decode(row, cfg);
            assert_eq!(a, A { a: 1 });
            // ...but a struct's keys encode as Strings, so no byte check for A. As a map
            // keyed by StringName it re-encodes exactly.
            typed(row, cfg, HashMap::from([(StringName::from("a"), 1i64)]));
            let m: HashMap<String, i64> = decode(row, cfg);
            assert_eq!(m["a"], 1);
        }),
        case(
            "dict_mixed_keys",
            &["1", "2.5", "1", "2"],
            dict_mixed_keys(Key::Vec2(v2(1.0, 2.0))),
        ),
        case("array_typed_int", &["1", "2", "3"], |row, cfg| {
            // A Vec<i64> cannot carry the element type (it encodes as an untyped Array), so
            // no byte check for it; godot_bin::Array keeps the type and re-encodes exactly.
            let v: Vec<i64> = decode(row, cfg);
            assert_eq!(v, [1, 2, 3]);
            let a: Array = decode(row, cfg);
            assert_eq!(a.element_type, ElementType::Builtin(VariantType::Int));
            assert_eq!(a.items, [Variant::Int(1), Variant::Int(2), Variant::Int(3)]);
            same_bytes(&a, row, cfg);
        }),
        case("array_typed_string", &[], |row, cfg| {
            // Vec<String> loses the element type: no byte check for it (see above).
            let v: Vec<String> = decode(row, cfg);
            assert_eq!(v, ["a", "b"]);
            let a: Array = decode(row, cfg);
            assert_eq!(a.element_type, ElementType::Builtin(VariantType::String));
            same_bytes(&a, row, cfg);
        }),
        case("array_typed_node_empty", &[], |row, cfg| {
            // Vec<ObjectId> loses the element type: no byte check for it (see above).
            let v: Vec<ObjectId> = decode(row, cfg);
            assert!(v.is_empty());
            // Without full objects the engine names the class EncodedObjectAsID.
            let a: Array = decode(row, cfg);
            assert_eq!(
                a.element_type,
                ElementType::ClassName("EncodedObjectAsID".into())
            );
            assert!(a.items.is_empty());
            same_bytes(&a, row, cfg);
        }),
        case("dict_typed_string_int", &["10"], |row, cfg| {
            // A struct or HashMap loses the key and value types: no byte check for them;
            // godot_bin::Dictionary keeps them and re-encodes exactly.
            let hp: Hp = decode(row, cfg);
            assert_eq!(hp.hp, 10);
            let m: HashMap<String, i64> = decode(row, cfg);
            assert_eq!(m, HashMap::from([("hp".to_owned(), 10)]));
            let d: Dictionary = decode(row, cfg);
            assert_eq!(*d.key_type(), ElementType::Builtin(VariantType::String));
            assert_eq!(*d.value_type(), ElementType::Builtin(VariantType::Int));
            assert_eq!(d.get("hp"), Some(&Variant::Int(10)));
            same_bytes(&d, row, cfg);
        }),
        case("packed_byte_empty", &[], packed_byte_empty),
        case(
            "packed_byte_5",
            &["1", "2", "3", "254", "255"],
            packed_byte_5,
        ),
        case("packed_int32", &["1", "-2", "2147483647"], packed_int32),
        case(
            "packed_int64",
            &["1", "-2", "9223372036854775807"],
            |row, cfg| {
                typed(row, cfg, PackedInt64Array::from(vec![1, -2, i64::MAX]));
            },
        ),
        case("packed_float32", &["0.5", "-1.25", "3"], packed_float32),
        case("packed_float64", &["0.1", "-1.25", "1e+300"], |row, cfg| {
            let p: PackedFloat64Array = decode(row, cfg);
            assert_eq!(&p[..], [0.1, -1.25, 1e300]);
            same_bytes(&p, row, cfg);
        }),
        case("packed_string", &[], packed_string),
        case("packed_vector2", &["1", "2", "-3", "4.5"], packed_vector2),
        case("packed_vector3", &["1", "2", "3"], packed_vector3),
        case(
            "packed_color",
            &["1", "0", "0", "1", "0", "0", "1", "0.5"],
            packed_color,
        ),
        case("packed_vector4", &["1", "2", "3", "4"], packed_vector4),
        case("object_full_refcounted", &[], object_full("RefCounted")),
    ]);
    run("godot4.tsv", Dialect::Godot4, cases);
}

#[test]
fn godot3_rows_decode_into_typed_values() {
    let mut cases = common_cases();
    cases.extend([
        // Godot 3's var2str prints "inf" for this row, but its bytes hold the f64 1e300:
        // the bytes are the truth.
        case("float_1e300", &["inf"], float_row(1e300)),
        case("quat", &["0.1", "0.2", "0.3", "0.9"], quaternion),
        case("transform", TRANSFORM_NUMBERS, transform3d),
        case("rid", &[], rid),
        // A null object is sent as NIL.
        case("object_null", &[], nil),
        case(
            "dict_mixed_keys",
            &["1", "2.5", "1", "2"],
            dict_mixed_keys(Key::Vec2(v2(1.0, 2.0))),
        ),
        case("pool_byte_empty", &[], packed_byte_empty),
        case("pool_byte_5", &["1", "2", "3", "254", "255"], packed_byte_5),
        case("pool_int", &["1", "-2", "2147483647"], packed_int32),
        case("pool_real", &["0.5", "-1.25", "3"], packed_float32),
        case("pool_string", &[], packed_string),
        case("pool_vector2", &["1", "2", "-3", "4.5"], packed_vector2),
        case("pool_vector3", &["1", "2", "3"], packed_vector3),
        case(
            "pool_color",
            &["1", "0", "0", "1", "0", "0", "1", "0.5"],
            packed_color,
        ),
        case("object_full_reference", &[], object_full("Reference")),
    ]);
    run("godot3.tsv", Dialect::Godot3, cases);
}

#[test]
fn pandemonium_rows_decode_into_typed_values() {
    let cases = vec![
        case("nil", &[], nil),
        case("bool_true", &[], bool_row(true)),
        case("int_1", &["1"], int_row(1)),
        case("int_neg1", &["-1"], int_row(-1)),
        case("int_i32_max_plus1", &["2147483648"], int_row(2147483648)),
        case("float_half", &["0.5"], float_half),
        case("float_0_1", &["0.1"], float_0_1),
        case("str_hi", &[], string),
        case("str_hello_accent", &[], string),
        case("rect2", &["1", "2", "3", "4"], rect2),
        case("rect2i", &["1", "-2", "30", "40"], rect2i),
        case("vector2", &["1.5", "-2"], vector2),
        case("vector2i", &["-7", "9"], vector2i),
        case("vector3", &["1", "2", "3"], vector3),
        case("vector3i", &["1", "-2", "3"], vector3i),
        case("vector4", &["1", "2", "3", "4.5"], vector4),
        case("vector4i", &["1", "2", "-3", "4"], vector4i),
        case("plane", &["0", "1", "0", "5"], plane),
        case("quaternion", &["0.1", "0.2", "0.3", "0.9"], quaternion),
        case("aabb", &["1", "2", "3", "4", "5", "6"], aabb),
        case(
            "basis",
            &["1", "4", "7", "2", "5", "8", "3", "6", "9"],
            basis,
        ),
        case("transform", TRANSFORM_NUMBERS, transform3d),
        case("transform2d", &["1", "2", "3", "4", "5", "6"], transform2d),
        case(
            "projection",
            &[
                "0.666667",
                "0",
                "0",
                "0",
                "0",
                "0.285714",
                "0",
                "0",
                "0",
                "0",
                "-0.0201005",
                "0",
                "-0.333333",
                "-0.142857",
                "-1.01005",
                "1",
            ],
            |row, cfg| {
                // A perspective projection; the text is rounded, the bytes hold these f32s.
                let p: Projection = decode(row, cfg);
                assert_eq!(
                    p.columns,
                    [
                        v4(0.6666667, 0.0, 0.0, 0.0),
                        v4(0.0, 0.2857143, 0.0, 0.0),
                        v4(0.0, 0.0, -0.020100502, 0.0),
                        v4(-0.33333334, -0.14285715, -1.0100503, 1.0),
                    ]
                );
                assert_eq!(p.columns[0].x, 2.0f32 / 3.0);
                same_bytes(&p, row, cfg);
            },
        ),
        case("color", &["1", "0.5", "0.25", "0.75"], color),
        case(
            "nodepath_abs_sub",
            &[],
            node_path(&["root", "Main"], &["position", "x"], true),
        ),
        case("rid", &[], rid),
        case("string_name", &[], string_name),
        case("dict_a1", &["1"], dict_a1),
        case(
            "dict_mixed_keys",
            &["1", "2.5", "1", "2"],
            dict_mixed_keys(Key::Vec2i(Vector2i::new(1, 2))),
        ),
        case("array_mixed", &["1", "2"], array_mixed),
        case("pool_byte_5", &["1", "2", "3", "254", "255"], packed_byte_5),
        case("pool_int", &["1", "-2", "2147483647"], packed_int32),
        case("pool_real", &["0.5", "-1.25", "3"], packed_float32),
        case("pool_string", &[], packed_string),
        case("pool_vector2", &["1", "2", "-3", "4.5"], packed_vector2),
        case("pool_vector2i", &["1", "2", "-3", "4"], |row, cfg| {
            let p: PackedVector2iArray = decode(row, cfg);
            assert_eq!(&p[..], [Vector2i::new(1, 2), Vector2i::new(-3, 4)]);
            same_bytes(&p, row, cfg);
        }),
        case("pool_vector3", &["1", "2", "3"], packed_vector3),
        case("pool_vector3i", &["1", "2", "3"], |row, cfg| {
            typed(
                row,
                cfg,
                PackedVector3iArray::from(vec![Vector3i::new(1, 2, 3)]),
            );
        }),
        case("pool_vector4", &["1", "2", "3", "4"], packed_vector4),
        case("pool_vector4i", &["1", "2", "3", "4"], |row, cfg| {
            // The engine writes z where w belongs: the text says (1, 2, 3, 4), the bytes
            // hold (1, 2, 3, 3), and the crate reads the bytes as they are laid out.
            let p: PackedVector4iArray = decode(row, cfg);
            assert_eq!(&p[..], [Vector4i::new(1, 2, 3, 3)]);
            same_bytes(&p, row, cfg);
        }),
        case(
            "pool_color",
            &["1", "0", "0", "1", "0", "0", "1", "0.5"],
            packed_color,
        ),
    ];
    run("pandemonium.tsv", Dialect::Pandemonium, cases);
}

#[test]
fn text_numbers_reads_engine_text() {
    assert_eq!(text_numbers("Vector2( 1.5, -2 )"), ["1.5", "-2"]);
    assert_eq!(text_numbers("float 1e+300 inf"), ["1e+300", "inf"]);
    assert_eq!(text_numbers("{\\n\"a\": 1\\n}"), ["1"]);
    assert_eq!(text_numbers("{\\n1: \"one\"\\n}"), ["1"]);
    assert!(text_numbers("Rect2i Vector2 \"héllo\"").is_empty());
}
