//! The GDScript text form against the real engine (the rest of the text form's tests, with
//! the engines' text from the golden files, are in `tests/it/text.rs`).

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::godot::{self, Godot, Kind};
use crate::support::godot3::{self, Godot3};
use crate::support::variant::{as_text_says, same};
use godot_bin::*;
use libtest_mimic::Trial;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot3_trial(
            "text::godot3_engine_prints_and_reads_our_text",
            godot3_engine_prints_and_reads_our_text,
        ),
        // `var2str` of our packets holding NaNs and infinities is our Godot 3 text: `-nan`
        // for a NaN with its sign bit set, `-nan.0` and `-inf.0` for such a FLOAT.
        godot3_trial(
            "text::godot3_prints_signed_nans_and_infinities_as_we_do",
            |engine| engine_prints_special_floats_as_we_do(engine, "var2str(bytes2var", "-nan.0"),
        ),
        // `var_to_str` of our packets holding NaNs and infinities is our Godot 4 text: `nan`
        // whatever the sign, `inf_neg`.
        godot4_trial(
            "text::godot4_prints_signed_nans_and_infinities_as_we_do",
            |engine| {
                engine_prints_special_floats_as_we_do(engine, "var_to_str(bytes_to_var", "nan")
            },
        ),
        // Issue 41: `\a` and `\v` read as the letters, as both engines read them.
        godot3_trial("text::godot3_reads_escapes_as_we_do", |engine| {
            engine_reads_escapes_as_we_do(engine, "var2bytes(str2var")
        }),
        godot4_trial("text::godot4_reads_escapes_as_we_do", |engine| {
            engine_reads_escapes_as_we_do(engine, "var_to_bytes(str_to_var")
        }),
    ]
}

/// Texts with every escape the engines' reader knows (and some it does not), in strings,
/// StringNames and NodePaths: the engine's `str_to_var` of each, as a packet, is the
/// packet of this crate's reading of the same text.
fn engine_reads_escapes_as_we_do<K: Kind>(engine: &Godot<K>, read: &str) {
    let dialect = K::DIALECT;
    let texts = [
        r#""a\vb\ac""#,
        r#""\a\b\f\n\r\t\v\\\"\'\?\x\u00e9""#,
        r#"["\v", "\a", "x\vy"]"#,
        r#"NodePath("a\vb/c\a:d")"#,
    ];
    let texts: Vec<&str> = if dialect == Dialect::Godot4 {
        let mut t = texts.to_vec();
        // Godot 4 only: StringNames, and the six-digit `\U` (Godot 3.2.3 reads `\U01F600` as
        // `U01F600`; its writer never writes one, the crate reads it in every dialect:
        // text module docs).
        t.push(r#"&"n\vm\a""#);
        t.push(r#""\U01F600""#);
        t.push(r#"PackedStringArray("\v\a", "\t")"#);
        t
    } else {
        let mut t = texts.to_vec();
        t.push(r#"PoolStringArray("\v\a", "\t")"#);
        t
    };
    let mut body = String::new();
    let mut files = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        files.push((format!("t{i}.txt"), t.as_bytes().to_vec()));
        body.push_str(&format!(
            "\twrite_bytes(\"t{i}.bin\", {read}(read_bytes(\"t{i}.txt\").get_string_from_utf8())))\n"
        ));
    }
    let file_refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let res = godot::run_script(engine, &body, &file_refs);
    res.assert_ok();
    let cfg = Config::new(dialect);
    for (i, t) in texts.iter().enumerate() {
        let ours: Variant = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
        let theirs = res.read_file(&format!("t{i}.bin"));
        // Compared as values: the engine leaves a NodePath's padding bytes unwritten (what
        // was in its buffer), so its packet's bytes are not always the same.
        let engine: Variant = cfg
            .from_slice(&theirs)
            .unwrap_or_else(|e| panic!("{t}: the engine's packet: {e}"));
        assert_eq!(ours, engine, "{t}");
    }
    // The issue's own example: `str_to_var("\"a\\vb\\ac\"") == "avbac"`.
    assert_eq!(
        "\"a\\vb\\ac\"".parse::<Variant>().unwrap(),
        Variant::from("avbac")
    );
}

/// Values holding NaNs of both signs and infinities, as a FLOAT (64- and 32-bit, and
/// doubles beyond the f32 range), real components, packed elements and inside containers.
fn special_floats() -> Vec<Variant> {
    let neg_nan = f32::from_bits(0xffc0_0000);
    let pos_nan = f32::from_bits(0x7fc0_0000);
    let neg_nan64 = f64::from_bits(0xfff8_0000_0000_0000);
    vec![
        Variant::Float(neg_nan64),
        Variant::Float(f64::from_bits(0x7ff8_0000_0000_0000)),
        Variant::Float(f64::NEG_INFINITY),
        Variant::Float(f64::INFINITY),
        // Doubles beyond the f32 range: an infinity through Godot 3's 32-bit real_t.
        Variant::Float(-1e300),
        Variant::Float(1e39),
        Variant::from(Vector2::new(neg_nan, pos_nan)),
        Variant::from(Vector3::new(neg_nan, f32::NEG_INFINITY, 1.0)),
        Variant::from(Color::from_rgba(neg_nan, 1.0, pos_nan, 1.0)),
        Variant::from(vec![
            Variant::Float(neg_nan64),
            Variant::Float(f64::NEG_INFINITY),
        ]),
        Variant::from(PackedFloat32Array::from(vec![
            neg_nan,
            pos_nan,
            f32::NEG_INFINITY,
        ])),
    ]
}

/// Has the engine print each of [`special_floats`] from our packet with `print` (the
/// engine's text call around its decode call, both opened: `"var2str(bytes2var"`), and
/// compares every text with ours; the first value, a FLOAT NaN with its sign bit set, must
/// print as `first`.
fn engine_prints_special_floats_as_we_do<K: Kind>(engine: &Godot<K>, print: &str, first: &str) {
    let dialect = K::DIALECT;
    let cfg = Config::new(dialect);
    let values = special_floats();
    let mut body = String::new();
    let mut files = Vec::new();
    for (i, v) in values.iter().enumerate() {
        files.push((format!("n{i}.bin"), cfg.to_vec(v).unwrap()));
        body.push_str(&format!(
            "\twrite_text(\"n{i}.txt\", {print}(read_bytes(\"n{i}.bin\"))))\n"
        ));
    }
    let file_refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let res = godot::run_script(engine, &body, &file_refs);
    res.assert_ok();
    for (i, v) in values.iter().enumerate() {
        assert_eq!(
            v.to_text(dialect),
            res.read_string(&format!("n{i}.txt")),
            "{v:?}"
        );
    }
    assert_eq!(res.read_string("n0.txt"), first);
}

/// Our Godot 3 text against the real engine: `var2str` of our packets prints what we print
/// (for values whose floats have 6 or fewer digits), and `str2var` of our text gives back
/// the very bytes we encode, shortest-digit floats included.
fn godot3_engine_prints_and_reads_our_text(engine: &Godot3) {
    let cfg = Config::new(Dialect::Godot3);
    let samples: Vec<Variant> = vec![
        Variant::Dictionary(
            vec![
                (Variant::from("b"), Variant::from(1)),
                (Variant::from(Vector2::new(2.0, 1.0)), Variant::Nil),
                (Variant::from("a"), Variant::from(2)),
                (Variant::from(3), Variant::from(-4)),
                (Variant::from(1.5), Variant::Nil),
                (Variant::Bool(true), Variant::from(0.25)),
            ]
            .into(),
        ),
        Variant::from(vec![
            Variant::from("line\nbreak \"quoted\" back\\slash ? 'q' é"),
            Variant::from(NodePath::from("/root/Main:position:x")),
            Variant::from(PackedStringArray::from(vec![
                "?".to_owned(),
                "a\tb".into(),
                "\\".into(),
            ])),
        ]),
        Variant::from(Transform3D {
            basis: Basis {
                rows: [
                    Vector3::new(1.0, 0.5, -2.0),
                    Vector3::new(0.0, 1e-5, 3.25),
                    Vector3::new(100000.0, 1e6, -0.125),
                ],
            },
            origin: Vector3::new(7.0, 8.0, 9.0),
        }),
        Variant::from(Color::from_rgba(1.0, 0.5, 0.25, 0.0)),
        Variant::from(Quaternion::new(0.0, 0.5, 0.5, 1.0)),
        Variant::from(PackedColorArray::from(vec![Color::from_rgba(
            0.5, 0.5, 1.0, 1.0,
        )])),
        Variant::from(PackedFloat32Array::from(vec![1.5, -0.75, 1e10])),
        Variant::Float(2.0),
        Variant::Float(0.001),
        Variant::Int(-9_000_000_000),
        Variant::Dictionary(Dictionary::new()),
        Variant::from(Vec::<Variant>::new()),
    ];
    let reread: Vec<Variant> = vec![
        Variant::Float(0.1 + 0.2),
        Variant::from(Vector3::new(0.1, 1.0 / 3.0, 123.456_79)),
        Variant::from(PackedFloat32Array::from(vec![std::f32::consts::PI, 1e-7])),
        Variant::from(vec![Variant::Float(1e300), Variant::Float(-1.0 / 7.0)]),
        // A double within the f32 range keeps its own digits in the text.
        Variant::Float(1e38),
    ];
    let mut body = String::new();
    let mut files = Vec::new();
    for (i, v) in samples.iter().enumerate() {
        files.push((format!("p{i}.bin"), cfg.to_vec(v).unwrap()));
        body.push_str(&format!(
            "\twrite_text(\"p{i}.txt\", var2str(bytes2var(read_bytes(\"p{i}.bin\"))))\n"
        ));
    }
    for (i, v) in samples.iter().chain(&reread).enumerate() {
        files.push((format!("t{i}.txt"), v.to_text(Dialect::Godot3).into_bytes()));
        body.push_str(&format!(
            "\tvar f{i} = File.new()\n\tf{i}.open(\"t{i}.txt\", File.READ)\n\
             \twrite_bytes(\"t{i}.bin\", var2bytes(str2var(f{i}.get_as_text())))\n"
        ));
    }
    let file_refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let res = godot3::run_script(engine, &body, &file_refs);
    res.assert_ok();
    for (i, v) in samples.iter().enumerate() {
        assert_eq!(
            v.to_text(Dialect::Godot3),
            res.read_string(&format!("p{i}.txt")),
            "sample {i}: {v:?}"
        );
    }
    for (i, v) in samples.iter().chain(&reread).enumerate() {
        // Compare with our own reading of the text (a Dictionary's text lists its keys
        // sorted, so the text's order is the one both readers keep).
        let text = v.to_text(Dialect::Godot3);
        let ours: Variant = text.parse().unwrap();
        assert_eq!(
            res.read_file(&format!("t{i}.bin")),
            cfg.to_vec(&ours).unwrap(),
            "engine's str2var of {text:?}"
        );
        // (What the text cannot say, it does not: a FLOAT beyond the f32 range is the
        // engine's infinity.)
        assert!(
            same(&as_text_says(v, Dialect::Godot3), &ours) || matches!(v, Variant::Dictionary(_))
        );
    }
}
