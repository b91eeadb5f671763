//! Every builtin through every serde path a user reaches for, in Godot 4 and Godot 3: each
//! cell either round-trips to an equal value (a builtin held in a `Variant` keeps its type),
//! or fails to encode with an error that names the builtin's type and why. Never `Ok` with
//! bytes that decode to something else.
//!
//! Rows: each math type, Color, StringName, NodePath, RID, object id, full Object,
//! Callable, Signal, each packed array, a typed Array; each bare and held in a `Variant`.
//! Columns: the serde paths below ([`PATHS`]).

use godot_bin::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Plain<T> {
    id: u32,
    v: T,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Optional<T> {
    v: Option<T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Boxed<T> {
    v: Box<T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Newtype<T>(T);

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct InTuple<T> {
    v: (T, i32),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct InVec<T> {
    v: Vec<T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct InMap<T> {
    v: BTreeMap<String, T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "type")]
enum InternalNewtype<T> {
    Move(T),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "type")]
enum InternalStruct<T> {
    Move { to: T, speed: i32 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(tag = "t", content = "c")]
enum Adjacent<T> {
    Move(T),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(untagged)]
enum Untagged<T> {
    Id { id: i32, name: String },
    Value(T),
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct FlattenMap<T> {
    id: u32,
    #[serde(flatten)]
    rest: HashMap<String, T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct FlattenStruct<T> {
    id: u32,
    #[serde(flatten)]
    inner: Plain2<T>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Plain2<T> {
    w: T,
    n: i32,
}

/// The serde paths, by name.
const PATHS: &[&str] = &[
    "plain field",
    "Option",
    "Box",
    "newtype struct",
    "tuple element",
    "Vec element",
    "map value",
    "internally tagged newtype variant",
    "internally tagged struct variant",
    "adjacently tagged",
    "untagged enum",
    "flatten into HashMap",
    "flatten of a struct",
];

/// How one cell came out.
#[derive(Debug)]
enum Cell {
    RoundTrip,
    /// Refused at encode time, with an error naming the type.
    Refused(String),
    Bad(String),
}

/// Encodes `value` and decodes it back, or checks the encode error names `type_name`.
fn cell<W>(cfg: &Config, value: W, type_name: &str) -> Cell
where
    W: Serialize + DeserializeOwned + PartialEq + Debug,
{
    match cfg.to_vec(&value) {
        Err(e) => {
            let msg = e.to_string();
            if msg.contains(type_name) {
                Cell::Refused(msg)
            } else {
                Cell::Bad(format!(
                    "encode error that does not name {type_name}: {msg}"
                ))
            }
        }
        Ok(bytes) => match cfg.from_slice::<W>(&bytes) {
            Ok(back) if back == value => Cell::RoundTrip,
            Ok(back) => Cell::Bad(format!("came back as {back:?}")),
            Err(e) => Cell::Bad(format!("encoded, then failed to decode: {e}")),
        },
    }
}

/// Every path for one value.
fn row<T>(cfg: &Config, v: T, type_name: &str) -> Vec<(&'static str, Cell)>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug + Clone,
{
    let mut out = Vec::new();
    let c = |p: &'static str, cell: Cell, out: &mut Vec<_>| out.push((p, cell));
    c(
        PATHS[0],
        cell(
            cfg,
            Plain {
                id: 1,
                v: v.clone(),
            },
            type_name,
        ),
        &mut out,
    );
    c(
        PATHS[1],
        cell(cfg, Optional { v: Some(v.clone()) }, type_name),
        &mut out,
    );
    c(
        PATHS[2],
        cell(
            cfg,
            Boxed {
                v: Box::new(v.clone()),
            },
            type_name,
        ),
        &mut out,
    );
    c(PATHS[3], cell(cfg, Newtype(v.clone()), type_name), &mut out);
    c(
        PATHS[4],
        cell(cfg, InTuple { v: (v.clone(), 7) }, type_name),
        &mut out,
    );
    c(
        PATHS[5],
        cell(
            cfg,
            InVec {
                v: vec![v.clone(), v.clone()],
            },
            type_name,
        ),
        &mut out,
    );
    let map = BTreeMap::from([("k".to_owned(), v.clone())]);
    c(PATHS[6], cell(cfg, InMap { v: map }, type_name), &mut out);
    c(
        PATHS[7],
        cell(cfg, InternalNewtype::Move(v.clone()), type_name),
        &mut out,
    );
    let s = InternalStruct::Move {
        to: v.clone(),
        speed: 3,
    };
    c(PATHS[8], cell(cfg, s, type_name), &mut out);
    c(
        PATHS[9],
        cell(cfg, Adjacent::Move(v.clone()), type_name),
        &mut out,
    );
    c(
        PATHS[10],
        cell(cfg, Untagged::Value(v.clone()), type_name),
        &mut out,
    );
    let rest = HashMap::from([("extra".to_owned(), v.clone())]);
    c(
        PATHS[11],
        cell(cfg, FlattenMap { id: 2, rest }, type_name),
        &mut out,
    );
    let inner = Plain2 { w: v, n: 5 };
    c(
        PATHS[12],
        cell(cfg, FlattenStruct { id: 3, inner }, type_name),
        &mut out,
    );
    out
}

/// One value of every builtin (the engine's own names as the errors give them).
fn builtins() -> Vec<(&'static str, Variant)> {
    let v3 = Vector3::new(1.5, -2.0, 3.25);
    vec![
        ("Vector2", Variant::Vector2(Vector2::new(1.0, -2.5))),
        ("Vector2i", Variant::Vector2i(Vector2i::new(3, -4))),
        (
            "Rect2",
            Variant::Rect2(Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0))),
        ),
        (
            "Rect2i",
            Variant::Rect2i(Rect2i::new(Vector2i::new(1, 2), Vector2i::new(3, 4))),
        ),
        ("Vector3", Variant::Vector3(v3)),
        ("Vector3i", Variant::Vector3i(Vector3i::new(1, 2, 3))),
        (
            "Transform2D",
            Variant::Transform2D(Transform2D {
                origin: Vector2::new(5.0, 6.0),
                ..Transform2D::IDENTITY
            }),
        ),
        (
            "Vector4",
            Variant::Vector4(Vector4::new(1.0, 2.0, 3.0, 4.0)),
        ),
        ("Vector4i", Variant::Vector4i(Vector4i::new(1, 2, 3, 4))),
        ("Plane", Variant::Plane(Plane::new(Vector3::UP, 2.0))),
        (
            "Quaternion",
            Variant::Quaternion(Quaternion::new(0.0, 0.5, 0.0, 0.5)),
        ),
        (
            "AABB",
            Variant::Aabb(Aabb {
                position: v3,
                size: Vector3::ONE,
            }),
        ),
        ("Basis", Variant::Basis(Basis::FLIP_X)),
        (
            "Transform3D",
            Variant::Transform3D(Transform3D {
                origin: v3,
                ..Transform3D::IDENTITY
            }),
        ),
        ("Projection", Variant::Projection(Projection::IDENTITY)),
        (
            "Color",
            Variant::Color(Color::from_rgba(0.25, 0.5, 0.75, 1.0)),
        ),
        ("StringName", Variant::StringName(StringName::from("jump"))),
        (
            "NodePath",
            Variant::NodePath(NodePath::from("../Enemy:position:x")),
        ),
        ("RID", Variant::Rid(Rid(12345))),
        ("Object", Variant::ObjectId(ObjectId(1 << 63 | 77))),
        (
            "Object",
            Variant::Object(Object {
                class_name: "RefCounted".into(),
                properties: vec![
                    ("script".into(), Variant::Nil),
                    ("hp".into(), Variant::Vector3(v3)),
                ],
            }),
        ),
        ("Callable", Variant::Callable(Callable)),
        (
            "Signal",
            Variant::Signal(Signal {
                name: "hit".into(),
                object: 1 << 63 | 5,
            }),
        ),
        (
            "PackedByteArray",
            Variant::PackedByteArray(PackedByteArray(vec![0, 1, 255])),
        ),
        (
            "PackedInt32Array",
            Variant::PackedInt32Array(PackedInt32Array(vec![1, -2, 3])),
        ),
        (
            "PackedInt64Array",
            Variant::PackedInt64Array(PackedInt64Array(vec![1 << 40, -2])),
        ),
        (
            "PackedFloat32Array",
            Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5, -1.0])),
        ),
        (
            "PackedFloat64Array",
            Variant::PackedFloat64Array(PackedFloat64Array(vec![0.1, 2.0])),
        ),
        (
            "PackedStringArray",
            Variant::PackedStringArray(PackedStringArray(vec!["a".into(), "".into()])),
        ),
        (
            "PackedVector2Array",
            Variant::PackedVector2Array(PackedVector2Array(vec![Vector2::new(1.0, 2.0)])),
        ),
        (
            "PackedVector3Array",
            Variant::PackedVector3Array(PackedVector3Array(vec![v3, Vector3::ZERO])),
        ),
        (
            "PackedColorArray",
            Variant::PackedColorArray(PackedColorArray(vec![Color::WHITE])),
        ),
        (
            "PackedVector4Array",
            Variant::PackedVector4Array(PackedVector4Array(vec![Vector4::ONE])),
        ),
        (
            "PackedVector2iArray",
            Variant::PackedVector2iArray(PackedVector2iArray(vec![Vector2i::ONE])),
        ),
        (
            "PackedVector3iArray",
            Variant::PackedVector3iArray(PackedVector3iArray(vec![Vector3i::ONE])),
        ),
        (
            "PackedVector4iArray",
            Variant::PackedVector4iArray(PackedVector4iArray(vec![Vector4i::ONE])),
        ),
        (
            "Array",
            Variant::Array(Array::typed(
                ElementType::Builtin(VariantType::Int),
                vec![1.into(), 2.into()],
            )),
        ),
        (
            "Dictionary",
            Variant::Dictionary({
                let mut d = Dictionary::typed(
                    ElementType::Builtin(VariantType::String),
                    ElementType::Builtin(VariantType::Vector3),
                );
                d.insert("at", v3);
                d
            }),
        ),
    ]
}

/// Runs the row of the bare Rust type of `v` (and of `v` held in a `Variant`).
fn rows(cfg: &Config, name: &str, v: &Variant) -> Vec<(String, &'static str, Cell)> {
    let mut out = Vec::new();
    let mut push = |what: String, cells: Vec<(&'static str, Cell)>| {
        out.extend(cells.into_iter().map(|(p, c)| (what.clone(), p, c)));
    };
    macro_rules! bare {
        ($($t:ident),*) => {
            match v {
                $(Variant::$t(x) => push(format!("{name} ({})", stringify!($t)), row(cfg, x.clone(), name)),)*
                Variant::Array(a) => {
                    // Its Rust face: TypedArray<i64>.
                    let items: Vec<i64> = a.iter().map(|x| x.as_int().unwrap()).collect();
                    push(format!("{name} (TypedArray)"), row(cfg, TypedArray(items), name));
                }
                Variant::Dictionary(_) => {}
                other => panic!("no bare row for {other:?}"),
            }
        };
    }
    bare!(
        Vector2,
        Vector2i,
        Rect2,
        Rect2i,
        Vector3,
        Vector3i,
        Transform2D,
        Vector4,
        Vector4i,
        Plane,
        Quaternion,
        Aabb,
        Basis,
        Transform3D,
        Projection,
        Color,
        StringName,
        NodePath,
        Rid,
        ObjectId,
        Object,
        Callable,
        Signal,
        PackedByteArray,
        PackedInt32Array,
        PackedInt64Array,
        PackedFloat32Array,
        PackedFloat64Array,
        PackedStringArray,
        PackedVector2Array,
        PackedVector3Array,
        PackedColorArray,
        PackedVector4Array,
        PackedVector2iArray,
        PackedVector3iArray,
        PackedVector4iArray
    );
    push(format!("{name} in a Variant"), row(cfg, v.clone(), name));
    out
}

fn matrix(dialect: Dialect) {
    let cfg = Config::new(dialect).allow_objects(true);
    let (mut round, mut refused, mut bad) = (0, 0, Vec::new());
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    for (name, v) in builtins() {
        for (what, path, c) in rows(&cfg, name, &v) {
            match c {
                Cell::RoundTrip => round += 1,
                Cell::Refused(msg) => {
                    refused += 1;
                    // Group the reasons.
                    let reason = if msg.contains(" does not exist in ") {
                        "a type the dialect does not have".to_owned()
                    } else if msg.contains("adjacently tagged") {
                        "not a map or a struct: no place for an internal tag".to_owned()
                    } else {
                        msg.chars().take(60).collect()
                    };
                    *refusals.entry(format!("{path}: {reason}")).or_default() += 1;
                }
                Cell::Bad(msg) => bad.push(format!("{what} / {path}: {msg}")),
            }
        }
    }
    eprintln!(
        "{dialect}: {} cells: {round} round-trip, {refused} refused at encode, {} bad",
        round + refused + bad.len(),
        bad.len()
    );
    for (reason, n) in &refusals {
        eprintln!("  {n:>4}  {reason}");
    }
    assert!(
        bad.is_empty(),
        "{dialect}: {} bad cells:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        round > refused,
        "{dialect}: {round} round trips, {refused} refused"
    );
}

#[test]
fn every_builtin_through_every_serde_path_in_godot4() {
    matrix(Dialect::Godot4);
}

#[test]
fn every_builtin_through_every_serde_path_in_godot3() {
    matrix(Dialect::Godot3);
}

/// The first reproduction of the issue: an internally tagged enum of builtins returned
/// `Ok` with a Vector3 packet whose components were the tag's length and text.
#[test]
fn internally_tagged_builtins_round_trip_as_dictionaries() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(tag = "type")]
    enum Msg {
        Move(Vector3),
        Paint(Color),
        Go(NodePath),
    }
    for msg in [
        Msg::Move(Vector3::new(1.0, 2.0, 3.0)),
        Msg::Paint(Color::from_rgba(1.0, 0.0, 0.0, 1.0)),
        Msg::Go(NodePath::from("/root/Main")),
    ] {
        let bytes = to_vec(&msg).unwrap();
        // A Dictionary: the tag, then the builtin under its private name.
        let v: Variant = from_slice(&bytes).unwrap();
        let d = v.as_dictionary().expect("a Dictionary");
        assert_eq!(d.len(), 2, "{v:?}");
        assert!(d.get("type").is_some());
        assert_eq!(from_slice::<Msg>(&bytes).unwrap(), msg);
    }
    // A packed array cannot carry a tag: refused, naming the type and the way out.
    #[derive(Serialize, Debug)]
    #[serde(tag = "type")]
    enum Bad {
        Ids(PackedInt32Array),
    }
    let err = to_vec(&Bad::Ids(PackedInt32Array(vec![1]))).unwrap_err();
    assert!(err.to_string().contains("PackedInt32Array"), "{err}");
    assert!(err.to_string().contains("adjacently tagged"), "{err}");
}

/// The second reproduction: builtins inside `Variant`s buffered by `flatten` and by an
/// untagged enum came back as Arrays and Strings.
#[test]
fn variants_keep_their_types_through_flatten_and_untagged() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Save {
        version: u32,
        #[serde(flatten)]
        extra: HashMap<String, Variant>,
    }
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Field {
        Number(i64),
        Other(Variant),
    }
    let extra = HashMap::from([
        (
            "pos".to_owned(),
            Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)),
        ),
        (
            "path".to_owned(),
            Variant::NodePath(NodePath::from("a/b:c")),
        ),
        (
            "name".to_owned(),
            Variant::StringName(StringName::from("n")),
        ),
        (
            "ids".to_owned(),
            Variant::PackedInt32Array(PackedInt32Array(vec![1, 2])),
        ),
    ]);
    let save = Save { version: 4, extra };
    let bytes = to_vec(&save).unwrap();
    let back: Save = from_slice(&bytes).unwrap();
    assert_eq!(back, save);
    // Re-saving writes every entry with its own type again.
    let resaved: Variant = from_slice(&to_vec(&back).unwrap()).unwrap();
    for (key, value) in &save.extra {
        assert_eq!(resaved.get(key.as_str()), Some(value), "{key}");
    }
    for v in save.extra.values() {
        let f = Field::Other(v.clone());
        assert_eq!(from_slice::<Field>(&to_vec(&f).unwrap()).unwrap(), f);
    }
}
