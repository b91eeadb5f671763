//! Tests against the real Godot 3 engine (`godot3-server`, 3.2.3), run headless through
//! the test kit's `godot3.rs`.
//!
//! * The crate encodes a derived struct; the engine decodes it with `bytes2var`, prints it
//!   with `var2str` (asserted as text) and re-encodes it with `var2bytes` (asserted equal to
//!   our bytes).
//! * The engine builds the same shape as a Dictionary and writes `var2bytes` of it; the
//!   crate decodes it into the derived struct and into `Variant`.
//! * The engine writes one packet per Godot 3 builtin type; the crate decodes each into
//!   `Variant` (asserted against a value built here) and re-encodes it to the engine's bytes.

use crate::support::{godot3, golden, hex};

use crate::support::engine::godot3_trial;
use crate::support::godot3::Godot3;
use godot_bin::{
    Aabb, Array, Basis, Color, Config, Dialect, Dictionary, NodePath, PackedByteArray,
    PackedColorArray, PackedFloat32Array, PackedInt32Array, PackedStringArray, PackedVector2Array,
    PackedVector3Array, Plane, Quaternion, Rect2, Rid, Transform2D, Transform3D, Variant, Vector2,
    Vector3,
};
use libtest_mimic::Trial;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot3_trial(
            "values::engine_reads_what_the_crate_writes",
            engine_reads_what_the_crate_writes,
        ),
        godot3_trial(
            "values::crate_reads_what_the_engine_writes",
            crate_reads_what_the_engine_writes,
        ),
        godot3_trial(
            "values::every_builtin_round_trips_through_the_crate",
            every_builtin_round_trips_through_the_crate,
        ),
    ]
}

fn cfg() -> Config {
    Config::new(Dialect::Godot3)
}

/// Panics with a readable message unless `ours` equals the engine's bytes (NodePath padding,
/// which the engine leaves unwritten, aside).
fn assert_same_bytes(what: &str, ours: &[u8], engine: &[u8]) {
    if let Err(diff) = golden::compare(ours, engine, &cfg()) {
        panic!(
            "{what}: our bytes differ from the engine's: {diff}\n ours:   {}\n engine: {}",
            hex::encode(ours),
            hex::encode(engine)
        );
    }
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Inner {
    label: String,
    level: u8,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Mode {
    Idle,
    Walk(i32),
    Jump { height: f64 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Save {
    name: String,
    hp: i32,
    gold: i64,
    debt: i64,
    half: f64,
    tenth: f64,
    pos: Vector3,
    path: NodePath,
    ids: PackedInt32Array,
    points: PackedVector2Array,
    inner: Inner,
    scores: BTreeMap<String, i32>,
    mode: Mode,
    next_mode: Mode,
    jump: Mode,
    missing: Option<i32>,
    alive: bool,
}

fn sample() -> Save {
    Save {
        name: "Zoë «日本語» 🎮".to_owned(),
        hp: 42,
        gold: 5_000_000_000,
        debt: -3_000_000_000,
        half: 0.5,
        tenth: 0.1,
        pos: Vector3::new(1.5, -2.0, 0.25),
        path: NodePath::from("/root/Main/Player:position:x"),
        ids: PackedInt32Array::from(vec![1, -2, i32::MAX, i32::MIN]),
        points: PackedVector2Array::from(vec![Vector2::new(1.0, 2.0), Vector2::new(-3.0, 4.5)]),
        inner: Inner {
            label: "bé".to_owned(),
            level: 7,
        },
        scores: BTreeMap::from([
            ("alice".to_owned(), 10),
            ("bob".to_owned(), -1),
            ("carol".to_owned(), 300_000),
        ]),
        mode: Mode::Idle,
        next_mode: Mode::Walk(3),
        jump: Mode::Jump { height: 2.5 },
        missing: None,
        alive: true,
    }
}

/// What the engine's `var2str` prints for [`sample`] after `bytes2var` of our bytes, line
/// by line (`var2str` sorts Dictionary keys and rounds floats to 6 significant digits).
const SAMPLE_VAR2STR: &[&str] = &[
    "{",
    "\"alive\": true,",
    "\"debt\": -3000000000,",
    "\"gold\": 5000000000,",
    "\"half\": 0.5,",
    "\"hp\": 42,",
    "\"ids\": PoolIntArray( 1, -2, 2147483647, -2147483648 ),",
    "\"inner\": {",
    "\"label\": \"bé\",",
    "\"level\": 7",
    "},",
    "\"jump\": {",
    "\"Jump\": {",
    "\"height\": 2.5",
    "}",
    "},",
    "\"missing\": null,",
    "\"mode\": \"Idle\",",
    "\"name\": \"Zoë «日本語» 🎮\",",
    "\"next_mode\": {",
    "\"Walk\": 3",
    "},",
    "\"path\": NodePath(\"/root/Main/Player:position:x\"),",
    "\"points\": PoolVector2Array( 1, 2, -3, 4.5 ),",
    "\"pos\": Vector3( 1.5, -2, 0.25 ),",
    "\"scores\": {",
    "\"alice\": 10,",
    "\"bob\": -1,",
    "\"carol\": 300000",
    "},",
    "\"tenth\": 0.1",
    "}",
];

fn engine_reads_what_the_crate_writes(engine: &Godot3) {
    let ours = cfg().to_vec(&sample()).expect("encode");
    let res = godot3::run_script(
        engine,
        r#"
            var v = bytes2var(read_bytes("in.bin"))
            print("TYPE:", typeof(v))
            write_text("out.txt", var2str(v))
            write_bytes("out.bin", var2bytes(v))
        "#,
        &[("in.bin", &ours)],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("TYPE:"), "18", "not a Dictionary");
    // Byte-exact: the engine re-encodes what it decoded to exactly our bytes (this also
    // checks the field order, which var2str hides by sorting keys).
    assert_same_bytes("sample struct", &ours, &res.read_file("out.bin"));
    assert_eq!(res.read_string("out.txt"), SAMPLE_VAR2STR.join("\n"));
}

fn crate_reads_what_the_engine_writes(engine: &Godot3) {
    // The same shape as `sample()`, built by the engine, with the keys in the struct's
    // declaration order (Godot 3 Dictionaries keep insertion order).
    let res = godot3::run_script(
        engine,
        r#"
            var d = {}
            d["name"] = "Zoë «日本語» 🎮"
            d["hp"] = 42
            d["gold"] = 5000000000
            d["debt"] = -3000000000
            d["half"] = 0.5
            d["tenth"] = 0.1
            d["pos"] = Vector3(1.5, -2, 0.25)
            d["path"] = NodePath("/root/Main/Player:position:x")
            d["ids"] = PoolIntArray([1, -2, 2147483647, -2147483648])
            d["points"] = PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])
            d["inner"] = {"label": "bé", "level": 7}
            var scores = {}
            scores["alice"] = 10
            scores["bob"] = -1
            scores["carol"] = 300000
            d["scores"] = scores
            d["mode"] = "Idle"
            d["next_mode"] = {"Walk": 3}
            d["jump"] = {"Jump": {"height": 2.5}}
            d["missing"] = null
            d["alive"] = true
            write_bytes("out.bin", var2bytes(d))
        "#,
        &[],
    );
    res.assert_ok();
    let engine_bytes = res.read_file("out.bin");

    let save: Save = cfg().from_slice(&engine_bytes).expect("decode into Save");
    assert_eq!(save.name, "Zoë «日本語» 🎮");
    assert_eq!(save.hp, 42);
    assert_eq!(save.gold, 5_000_000_000);
    assert_eq!(save.debt, -3_000_000_000);
    assert_eq!(save.half, 0.5);
    assert_eq!(save.tenth, 0.1);
    assert_eq!(save.pos, Vector3::new(1.5, -2.0, 0.25));
    assert!(save.path.absolute);
    assert_eq!(save.path.names, ["root", "Main", "Player"]);
    assert_eq!(save.path.subnames, ["position", "x"]);
    assert_eq!(*save.ids, [1, -2, i32::MAX, i32::MIN]);
    assert_eq!(
        *save.points,
        [Vector2::new(1.0, 2.0), Vector2::new(-3.0, 4.5)]
    );
    assert_eq!(save.inner.label, "bé");
    assert_eq!(save.inner.level, 7);
    assert_eq!(
        save.scores
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
        [("alice", 10), ("bob", -1), ("carol", 300_000)]
    );
    assert_eq!(save.mode, Mode::Idle);
    assert_eq!(save.next_mode, Mode::Walk(3));
    assert_eq!(save.jump, Mode::Jump { height: 2.5 });
    assert_eq!(save.missing, None);
    assert!(save.alive);
    assert_eq!(save, sample());

    // The crate writes the same struct to the engine's bytes...
    assert_same_bytes(
        "sample() encoded by the crate",
        &cfg().to_vec(&sample()).expect("encode"),
        &engine_bytes,
    );
    // ...and a Variant decoded from the engine's bytes re-encodes to them.
    let any: Variant = cfg()
        .from_slice(&engine_bytes)
        .expect("decode into Variant");
    assert_eq!(any.get("gold"), Some(&Variant::Int(5_000_000_000)));
    assert_eq!(any.get("tenth"), Some(&Variant::Float(0.1)));
    assert_eq!(
        any.get("next_mode").and_then(|m| m.get("Walk")),
        Some(&Variant::Int(3))
    );
    assert_eq!(any.get("missing"), Some(&Variant::Nil));
    let keys: Vec<&str> = any
        .as_dictionary()
        .expect("a Dictionary")
        .iter()
        .map(|(k, _)| k.as_str().expect("String key"))
        .collect();
    assert_eq!(
        keys,
        [
            "name",
            "hp",
            "gold",
            "debt",
            "half",
            "tenth",
            "pos",
            "path",
            "ids",
            "points",
            "inner",
            "scores",
            "mode",
            "next_mode",
            "jump",
            "missing",
            "alive"
        ]
    );
    assert_same_bytes(
        "engine Dictionary through Variant",
        &cfg().to_vec(&any).expect("re-encode"),
        &engine_bytes,
    );
}

/// One value per Godot 3 builtin type (and the containers): the GDScript expression the
/// engine encodes, and the Variant the crate must decode from the engine's bytes.
fn builtin_cases() -> Vec<(&'static str, &'static str, Variant)> {
    let v2 = Vector2::new;
    let v3 = Vector3::new;
    let basis = Basis {
        // Godot 3's Basis(x_axis, y_axis, z_axis) takes columns; the wire holds rows.
        rows: [v3(1.0, 4.0, 7.0), v3(2.0, 5.0, 8.0), v3(3.0, 6.0, 9.0)],
    };
    let dict = |entries: Vec<(Variant, Variant)>| Variant::Dictionary(Dictionary::from(entries));
    let arr = |items: Vec<Variant>| Variant::Array(Array::from(items));
    vec![
        ("nil", "null", Variant::Nil),
        ("bool", "true", Variant::Bool(true)),
        ("int_small", "-7", Variant::Int(-7)),
        ("int_big", "-5000000000", Variant::Int(-5_000_000_000)),
        ("float_half", "0.5", Variant::Float(0.5)),
        ("float_tenth", "0.1", Variant::Float(0.1)),
        ("string", "\"Zoë 日本語\"", Variant::from("Zoë 日本語")),
        ("vector2", "Vector2(1.5, -2)", v2(1.5, -2.0).into()),
        (
            "rect2",
            "Rect2(1, 2, 3, 4.5)",
            Rect2::new(v2(1.0, 2.0), v2(3.0, 4.5)).into(),
        ),
        ("vector3", "Vector3(0.5, -2.5, 1024)", v3(0.5, -2.5, 1024.0).into()),
        (
            "transform2d",
            "Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))",
            Transform2D {
                x: v2(1.0, 2.0),
                y: v2(3.0, 4.0),
                origin: v2(5.0, 6.0),
            }
            .into(),
        ),
        (
            "plane",
            "Plane(0, 1, 0, -5.5)",
            Plane::new(v3(0.0, 1.0, 0.0), -5.5).into(),
        ),
        (
            "quat",
            "Quat(0.5, -0.5, 0.25, 0.75)",
            Quaternion::new(0.5, -0.5, 0.25, 0.75).into(),
        ),
        (
            "aabb",
            "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))",
            Aabb {
                position: v3(1.0, 2.0, 3.0),
                size: v3(4.0, 5.0, 6.0),
            }
            .into(),
        ),
        (
            "basis",
            "Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))",
            basis.into(),
        ),
        (
            "transform",
            "Transform(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9), Vector3(10, 11, 12))",
            Transform3D {
                basis,
                origin: v3(10.0, 11.0, 12.0),
            }
            .into(),
        ),
        (
            "color",
            "Color(1, 0.5, 0.25, 0.75)",
            Color::from_rgba(1.0, 0.5, 0.25, 0.75).into(),
        ),
        (
            "nodepath_abs",
            "NodePath(\"/root/Main:position:x\")",
            NodePath::from("/root/Main:position:x").into(),
        ),
        (
            "nodepath_rel",
            "NodePath(\"../Enemy/Gun\")",
            NodePath::from("../Enemy/Gun").into(),
        ),
        ("nodepath_empty", "NodePath(\"\")", NodePath::default().into()),
        ("rid", "RID()", Rid::default().into()),
        (
            "pool_byte",
            "PoolByteArray([1, 2, 3, 254, 255])",
            PackedByteArray::from(vec![1, 2, 3, 254, 255]).into(),
        ),
        ("pool_byte_empty", "PoolByteArray()", PackedByteArray::default().into()),
        (
            "pool_int",
            "PoolIntArray([1, -2, 2147483647, -2147483648])",
            PackedInt32Array::from(vec![1, -2, i32::MAX, i32::MIN]).into(),
        ),
        (
            "pool_real",
            "PoolRealArray([0.5, -1.25, 3])",
            PackedFloat32Array::from(vec![0.5, -1.25, 3.0]).into(),
        ),
        (
            "pool_string",
            "PoolStringArray([\"\", \"a\", \"héllo\", \"日本語\", \"abcd\"])",
            PackedStringArray::from(
                ["", "a", "héllo", "日本語", "abcd"]
                    .map(String::from)
                    .to_vec(),
            )
            .into(),
        ),
        (
            "pool_vector2",
            "PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])",
            PackedVector2Array::from(vec![v2(1.0, 2.0), v2(-3.0, 4.5)]).into(),
        ),
        (
            "pool_vector3",
            "PoolVector3Array([Vector3(1, 2, 3), Vector3(-0.5, 0, 8)])",
            PackedVector3Array::from(vec![v3(1.0, 2.0, 3.0), v3(-0.5, 0.0, 8.0)]).into(),
        ),
        (
            "pool_color",
            "PoolColorArray([Color(1, 0, 0, 1), Color(0, 0.25, 1, 0.5)])",
            PackedColorArray::from(vec![
                Color::from_rgba(1.0, 0.0, 0.0, 1.0),
                Color::from_rgba(0.0, 0.25, 1.0, 0.5),
            ])
            .into(),
        ),
        ("dict_empty", "{}", dict(vec![])),
        (
            "dict_keys",
            "{1: \"one\", 2.5: \"two and a half\", Vector2(1, 2): [3], \"s\": null, -5000000000: true}",
            dict(vec![
                (Variant::Int(1), "one".into()),
                (Variant::Float(2.5), "two and a half".into()),
                (v2(1.0, 2.0).into(), arr(vec![Variant::Int(3)])),
                ("s".into(), Variant::Nil),
                (Variant::Int(-5_000_000_000), Variant::Bool(true)),
            ]),
        ),
        ("array_empty", "[]", arr(vec![])),
        (
            "array_nested",
            "[1, [2.5, [\"deep\", Vector3(1, 2, 3), []]], {\"k\": [true, null]}, 0.1, NodePath(\"a:b\")]",
            arr(vec![
                Variant::Int(1),
                arr(vec![
                    Variant::Float(2.5),
                    arr(vec!["deep".into(), v3(1.0, 2.0, 3.0).into(), arr(vec![])]),
                ]),
                dict(vec![(
                    "k".into(),
                    arr(vec![Variant::Bool(true), Variant::Nil]),
                )]),
                Variant::Float(0.1),
                NodePath::from("a:b").into(),
            ]),
        ),
    ]
}

fn every_builtin_round_trips_through_the_crate(engine: &Godot3) {
    let cases = builtin_cases();
    // One engine run: one packet file per case.
    let mut body = String::from("var cases = []\n");
    for (name, expr, _) in &cases {
        body.push_str(&format!("cases.append([\"{name}\", {expr}])\n"));
    }
    body.push_str(
        "for c in cases:\n\
         \twrite_bytes(\"out/\" + c[0] + \".bin\", var2bytes(c[1]))\n\
         \tprint(\"WROTE:\", c[0])\n",
    );
    // The engine creates no directory for write_bytes: give it one.
    let res = godot3::run_script(engine, &body, &[("out/.keep", b"")]);
    res.assert_ok();
    let wrote = res.lines_with_prefix("WROTE:");
    assert_eq!(
        wrote,
        cases.iter().map(|c| c.0.to_owned()).collect::<Vec<_>>(),
        "the engine did not write every case"
    );

    let mut failures = Vec::new();
    for (name, _, expected) in &cases {
        let engine_bytes = res.read_file(&format!("out/{name}.bin"));
        let decoded: Variant = match cfg().from_slice(&engine_bytes) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!(
                    "{name}: decode failed: {e}\n engine: {}",
                    hex::encode(&engine_bytes)
                ));
                continue;
            }
        };
        if !decoded.eq_ordered(expected) {
            failures.push(format!(
                "{name}: decoded {decoded:?}, expected {expected:?}\n engine: {}",
                hex::encode(&engine_bytes)
            ));
            continue;
        }
        let ours = cfg().to_vec(&decoded).expect("re-encode");
        if let Err(diff) = golden::compare(&ours, &engine_bytes, &cfg()) {
            failures.push(format!(
                "{name}: {diff}\n ours:   {}\n engine: {}",
                hex::encode(&ours),
                hex::encode(&engine_bytes)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
