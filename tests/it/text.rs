//! The GDScript text form (`var_to_str` / `str_to_var`): `Display` against the engines'
//! own text in `tests/data/golden/*.tsv`, round trips text → Variant → text and
//! Variant → text → Variant, float printing, escapes, and parse errors.

use crate::support::golden;
use crate::support::variant::{as_text_says, same};

use godot_bin::text::ParseError;
use godot_bin::MAX_DEPTH;
use godot_bin::*;

/// Whether `a` and `b` differ at most by the engine's 6-digit float rounding (or its
/// narrowing through `f32`, which turns Godot 3's `1e300` into `inf`).
fn same_but_rounded(a: &Variant, b: &Variant) -> bool {
    fn close(x: f64, y: f64) -> bool {
        x == y
            || (x as f32) == (y as f32)
            || (x - y).abs() <= 1e-5 * x.abs().max(y.abs())
            || (x.is_nan() && y.is_nan())
    }
    let (da, db) = (format!("{a:?}"), format!("{b:?}"));
    // Walk both Debug texts: numbers may differ by rounding, everything else must match.
    let (ta, tb) = (tokens(&da), tokens(&db));
    ta.len() == tb.len()
        && ta
            .iter()
            .zip(&tb)
            .all(|(x, y)| match (x.parse::<f64>(), y.parse::<f64>()) {
                (Ok(x), Ok(y)) => close(x, y),
                _ => x == y,
            })
}

/// Splits Debug output at its punctuation, leaving numbers (and `inf`, `NaN`) whole.
fn tokens(s: &str) -> Vec<&str> {
    s.split(|c: char| "(){}[],: ".contains(c)).collect()
}

/// Rows whose engine text is not the text of the value in the packet for a reason other
/// than float rounding, with the text we print instead.
fn known_exception(file: &str, name: &str) -> Option<(&'static str, &'static str)> {
    match (file, name) {
        ("godot4.tsv", "array_typed_node_empty") => Some((
            "without full objects the packet names the class EncodedObjectAsID, not Node",
            "Array[EncodedObjectAsID]([])",
        )),
        ("pandemonium.tsv", "pool_vector4i") => Some((
            "Pandemonium writes z into the w slot of PoolVector4iArray",
            "PoolVector4iArray( 1, 2, 3, 3 )",
        )),
        _ => None,
    }
}

#[test]
fn display_matches_the_engines_text_for_every_row_without_rounded_floats() {
    let mut exact = Vec::new();
    let mut rounded = Vec::new();
    let mut failures = Vec::new();
    for &(file, dialect) in golden::FILES {
        for row in golden::rows(file) {
            let value: Variant = golden::config(dialect)
                .from_slice(&row.bytes)
                .unwrap_or_else(|e| panic!("{file} {}: {e}", row.name));
            let engine = golden::unescape(&row.text);
            let ours = value.to_text(dialect);
            let id = format!("{file} {}", row.name);
            if let Some((why, text)) = known_exception(file, &row.name) {
                assert_eq!(ours, text, "{id} ({why})");
                continue;
            }
            // A row is comparable when the engine's text reads back to exactly the value
            // in the packet, i.e. no float in it was rounded. Godot 3 and Pandemonium
            // print nothing for an RID, which reads back as nothing.
            let comparable = engine.is_empty()
                || engine
                    .parse::<Variant>()
                    .is_ok_and(|parsed| same(&parsed, &value));
            if ours == engine {
                // Exactly the engine's text: also where the engine's text is not the
                // packet's value (a Godot 3 FLOAT beyond the f32 range prints `inf`).
                exact.push(id);
            } else if comparable {
                failures.push(format!("{id}:\n  ours   {ours:?}\n  engine {engine:?}"));
            } else {
                // Skipped for rounding: the engine's text must still be our value up to
                // float rounding, so a real difference cannot hide here.
                let parsed = engine
                    .parse::<Variant>()
                    .unwrap_or_else(|e| panic!("{id}: engine text {engine:?} does not parse: {e}"));
                assert!(
                    same_but_rounded(&parsed, &value),
                    "{id}: engine text {engine:?} is {parsed:?}, not {value:?} rounded"
                );
                rounded.push(id);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "text: {} rows equal the engine's text exactly; {} skipped for rounded floats: {}",
        exact.len(),
        rounded.len(),
        rounded.join(", ")
    );
    assert!(exact.len() >= 162, "only {} rows compared", exact.len());
    assert!(rounded.len() <= 5, "{} rows skipped", rounded.len());
}

#[test]
fn engine_text_reads_back_and_prints_the_same() {
    // text → Variant → text, for every row the engine gave a text (rounded floats
    // included: "0.333333" reads back as 0.333333, whose shortest text is itself).
    let mut n = 0;
    for &(file, dialect) in golden::FILES {
        for row in golden::rows(file) {
            let engine = golden::unescape(&row.text);
            if engine.is_empty() {
                continue; // RID in Godot 3 / Pandemonium: no text to read
            }
            let parsed: Variant = engine
                .parse()
                .unwrap_or_else(|e| panic!("{file} {}: {engine:?}: {e}", row.name));
            assert_eq!(parsed.to_text(dialect), engine, "{file} {}", row.name);
            n += 1;
        }
    }
    assert!(n > 160, "{n}");
}

#[test]
fn every_golden_value_survives_text_in_every_dialect() {
    let mut n = 0;
    for &(file, dialect) in golden::FILES {
        for row in golden::rows(file) {
            let value: Variant = golden::config(dialect).from_slice(&row.bytes).unwrap();
            for text_dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
                if text_dialect != Dialect::Godot4 && matches!(value, Variant::Rid(_)) {
                    // Godot 3 and Pandemonium print an RID as nothing at all.
                    assert_eq!(value.to_text(text_dialect), "");
                    continue;
                }
                let text = value.to_text(text_dialect);
                let back: Variant = text.parse().unwrap_or_else(|e| {
                    panic!("{file} {} as {text_dialect}: {text:?}: {e}", row.name)
                });
                let want = as_text_says(&value, text_dialect);
                assert!(
                    same(&back, &want),
                    "{file} {} through {text_dialect} text {text:?}: {back:?} != {want:?}",
                    row.name
                );
                n += 1;
            }
        }
    }
    assert!(n > 480, "{n}");
}

/// A NaN with its sign bit set, as Godot 3.2.3 prints it (`var2str` of `bytes2var` of
/// packets holding one): `-nan` as a component or packed element, `-nan.0` as a FLOAT;
/// a NaN without the sign prints `nan` (and `inf` no `.0`), and `-INF` prints `-inf.0`.
/// Engine output, `godot3-server --no-window -s`, Godot 3.2.3:
///
/// ```text
/// var2str: -nan.0 | nan | Vector2( -nan, 1 ) | Vector3( -nan, -nan, 1 )
///          Color( -nan, 1, 1, 1 ) | [ -nan.0 ] | PoolRealArray( -nan ) | -inf.0
/// ```
#[test]
fn a_negative_nan_prints_as_godot3_prints_it() {
    let neg_nan = f32::from_bits(0xffc0_0000);
    let pos_nan = f32::from_bits(0x7fc0_0000);
    let d = Dialect::Godot3;
    let cases: Vec<(Variant, &str)> = vec![
        (
            Variant::Float(f64::from_bits(0xfff8_0000_0000_0000)),
            "-nan.0",
        ),
        (Variant::Float(f64::from(neg_nan)), "-nan.0"),
        (Variant::Float(f64::from_bits(0x7ff8_0000_0000_0000)), "nan"),
        (
            Variant::from(Vector2::new(neg_nan, 1.0)),
            "Vector2( -nan, 1 )",
        ),
        (
            Variant::from(Vector2::new(pos_nan, 1.0)),
            "Vector2( nan, 1 )",
        ),
        (
            Variant::from(Vector3::new(neg_nan, neg_nan, 1.0)),
            "Vector3( -nan, -nan, 1 )",
        ),
        (
            Variant::from(Color::from_rgba(neg_nan, 1.0, 1.0, 1.0)),
            "Color( -nan, 1, 1, 1 )",
        ),
        (Variant::from(vec![Variant::Float(-f64::NAN)]), "[ -nan.0 ]"),
        (
            Variant::from(PackedFloat32Array::from(vec![neg_nan])),
            "PoolRealArray( -nan )",
        ),
    ];
    for (v, want) in &cases {
        assert_eq!(v.to_text(d), *want, "{v:?}");
        // The text reads back to a NaN with the same sign.
        let back: Variant = want.parse().unwrap_or_else(|e| panic!("{want}: {e}"));
        assert!(same(&back, v), "{want}: {back:?} != {v:?}");
        // Debug prints every NaN as `NaN`: compare the packets, sign bits included.
        let cfg = Config::new(d);
        assert_eq!(
            cfg.to_vec(&back).unwrap(),
            cfg.to_vec(v).unwrap(),
            "{want}: the sign is kept"
        );
    }
    assert_eq!(
        "-inf.0".parse::<Variant>().unwrap(),
        Variant::Float(f64::NEG_INFINITY)
    );
}

/// Godot 4.4.1 prints every NaN as `nan`, whatever its sign bit (`var_to_str` of
/// `bytes_to_var` of packets holding one; `godot4 --headless -s`):
///
/// ```text
/// var_to_str: nan | nan | Vector2(nan, 1) | Color(nan, 1, 1, 1) | [nan]
///             PackedFloat32Array(nan) | PackedFloat64Array(nan)
/// ```
/// Pandemonium, whose writer is Godot 4's in this respect (`inf_neg`), prints the same.
#[test]
fn a_negative_nan_prints_as_godot4_prints_it() {
    let neg_nan = f32::from_bits(0xffc0_0000);
    let neg_nan64 = f64::from_bits(0xfff8_0000_0000_0000);
    let cases: Vec<(Variant, &str)> = vec![
        (Variant::Float(neg_nan64), "nan"),
        (Variant::Float(f64::NAN), "nan"),
        (Variant::from(Vector2::new(neg_nan, 1.0)), "Vector2(nan, 1)"),
        (
            Variant::from(Color::from_rgba(neg_nan, 1.0, 1.0, 1.0)),
            "Color(nan, 1, 1, 1)",
        ),
        (Variant::from(vec![Variant::Float(neg_nan64)]), "[nan]"),
        (
            Variant::from(PackedFloat32Array::from(vec![neg_nan])),
            "PackedFloat32Array(nan)",
        ),
        (
            Variant::from(PackedFloat64Array::from(vec![neg_nan64])),
            "PackedFloat64Array(nan)",
        ),
    ];
    for (v, want) in &cases {
        assert_eq!(v.to_text(Dialect::Godot4), *want, "{v:?}");
        assert_eq!(v.to_string(), *want, "{v:?}");
    }
    assert_eq!(
        Variant::Float(neg_nan64).to_text(Dialect::Pandemonium),
        "nan"
    );
}

#[test]
fn floats_print_shortest_and_read_back_bit_exact() {
    let cases: &[(f64, &str)] = &[
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.0, "1.0"),
        (-2.5, "-2.5"),
        (0.1, "0.1"),
        (0.1 + 0.2, "0.30000000000000004"),
        (1.0 / 3.0, "0.3333333333333333"),
        (1e300, "1e+300"),
        (1e20, "1e+20"),
        (1e-5, "1e-05"),
        (123456789.0, "123456789.0"),
        (f64::INFINITY, "inf"),
        (f64::NEG_INFINITY, "inf_neg"),
        (f64::NAN, "nan"),
    ];
    for &(x, want) in cases {
        let v = Variant::Float(x);
        assert_eq!(v.to_string(), want, "{x:?}");
        assert!(same(&want.parse().unwrap(), &v), "{want}");
    }
    // Godot 3.2.3's var2str(-INF) prints `-inf.0`: its writer appends `.0` to every
    // FLOAT text but `inf` and `nan`.
    assert_eq!(
        Variant::Float(f64::NEG_INFINITY).to_text(Dialect::Godot3),
        "-inf.0"
    );
    assert_eq!(
        Variant::Float(f64::NEG_INFINITY).to_text(Dialect::Pandemonium),
        "inf_neg"
    );
    // Godot 3 (and Godot 2 and Pandemonium, whose writers are its code) print a FLOAT
    // through their 32-bit `real_t`: a double beyond the f32 range is an infinity there.
    // Godot 3.2.3's `var2str` of the FLOATs 1e300, -1e300, 1e39 and -1e39 (from packets
    // holding the doubles) is `inf`, `-inf.0`, `inf`, `-inf.0`
    // (tests/data/random_values/godot3.tsv, rows float_beyond_f32*).
    for (x, godot3, pandemonium, godot4) in [
        (1e300, "inf", "inf", "1e+300"),
        (-1e300, "-inf.0", "inf_neg", "-1e+300"),
        (1e39, "inf", "inf", "1e+39"),
        (-1e39, "-inf.0", "inf_neg", "-1e+39"),
        (f64::MAX, "inf", "inf", "1.7976931348623157e+308"),
    ] {
        let v = Variant::Float(x);
        assert_eq!(v.to_text(Dialect::Godot3), godot3, "{x:e}");
        assert_eq!(v.to_text(Dialect::Godot2), godot3, "{x:e}");
        assert_eq!(v.to_text(Dialect::Pandemonium), pandemonium, "{x:e}");
        assert_eq!(v.to_text(Dialect::Godot4), godot4, "{x:e}");
    }
    // Below the range's edge a double keeps its own digits: f32::MAX, and the doubles that
    // round to it (less than half an f32 step above it; half a step rounds to even, which
    // is up, to the infinity).
    let max = f64::from(f32::MAX);
    let step = max - f64::from(f32::from_bits(f32::MAX.to_bits() - 1));
    for x in [max, max + step / 4.0] {
        assert!(!(x as f32).is_infinite());
        let text = Variant::Float(x).to_text(Dialect::Godot3);
        assert_eq!(
            text.parse::<Variant>().unwrap(),
            Variant::Float(x),
            "{text}"
        );
    }
    assert_eq!(
        Variant::Float(max).to_text(Dialect::Godot3),
        "3.4028234663852886e+38"
    );
    assert_eq!(
        Variant::Float(max + step / 2.0).to_text(Dialect::Godot3),
        "inf"
    );
    assert_eq!(
        Variant::from(Vector2::new(0.1, -0.0)).to_string(),
        "Vector2(0.1, -0)"
    );
    assert_eq!(
        Variant::from(Vector3::new(f32::INFINITY, f32::NEG_INFINITY, f32::NAN))
            .to_text(Dialect::Godot3),
        "Vector3( inf, -inf, nan )"
    );

    // Many bit patterns, as a FLOAT, a PackedFloat64Array and real components.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let bits = next();
        let x = f64::from_bits(bits);
        let y = f32::from_bits((bits >> 32) as u32);
        for v in [
            Variant::Float(x),
            Variant::from(PackedFloat64Array::from(vec![x, -x])),
            Variant::from(Vector2::new(y, -y)),
            Variant::from(PackedFloat32Array::from(vec![y])),
            Variant::from(Color::from_rgba(y, 0.5, y, 1.0)),
        ] {
            for d in [Dialect::Godot4, Dialect::Godot3] {
                let text = v.to_text(d);
                let back: Variant = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                // NaN payloads are not kept (every NaN prints as "nan").
                if !text.contains("nan") {
                    let want = as_text_says(&v, d);
                    assert!(same(&back, &want), "{text}: {back:?} != {want:?}");
                }
            }
        }
    }
}

#[test]
fn strings_escape_as_the_engine_does() {
    let s = "a\"b\\c\nd\t'?é";
    assert_eq!(Variant::from(s).to_string(), "\"a\\\"b\\\\c\nd\t'?é\"");
    assert_eq!(
        Variant::StringName(StringName::from(s)).to_string(),
        "&\"a\\\"b\\\\c\\nd\\t\\'?é\""
    );
    assert_eq!(
        Variant::StringName(StringName::from(s)).to_text(Dialect::Godot3),
        "&\"a\\\"b\\\\c\\nd\\t\\'\\?é\""
    );
    assert_eq!(
        Variant::StringName(StringName::from("x")).to_text(Dialect::Pandemonium),
        "@\"x\""
    );
    let strings = PackedStringArray::from(vec![s.to_owned(), String::new(), "\r\u{c}\u{8}".into()]);
    for d in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        for v in [
            Variant::from(s),
            Variant::StringName(StringName::from(s)),
            Variant::from(strings.clone()),
            Variant::from(NodePath::from("/root/a\"b:c")),
        ] {
            let text = v.to_text(d);
            assert_eq!(text.parse::<Variant>().unwrap(), v, "{text}");
        }
    }
    // BEL and VT are printed `\a` and `\v`, as the engines print them, and read back as the
    // letters, as the engines read their own text (tests/engine/text.rs checks both
    // engines): the engine's text cannot carry them.
    let bell = PackedStringArray::from(vec!["\u{7}\u{b}\r".to_owned()]);
    for d in [Dialect::Godot4, Dialect::Godot3] {
        let text = Variant::from(bell.clone()).to_text(d);
        assert!(text.contains("\\a\\v\\r"), "{text}");
        assert_eq!(
            text.parse::<Variant>().unwrap(),
            Variant::from(PackedStringArray::from(vec!["av\r".to_owned()]))
        );
    }
    // The engine's \u escapes, surrogate pairs included.
    assert_eq!(
        "\"\\u00e9\\ud83d\\ude00\\U01F600\""
            .parse::<Variant>()
            .unwrap(),
        Variant::from("é😀😀")
    );
    assert!("\"\\ud83d\"".parse::<Variant>().is_err());
}

#[test]
fn dictionaries_print_their_keys_sorted_like_the_engine() {
    let d: Dictionary = vec![
        (Variant::from("b"), Variant::from(1)),
        (Variant::from(Vector2::new(2.0, 1.0)), Variant::Nil),
        (Variant::from("a"), Variant::from(2)),
        (Variant::from(3), Variant::from(4)),
        (Variant::from(Vector2::new(1.0, 5.0)), Variant::Nil),
        (Variant::from(1.5), Variant::Nil),
        (Variant::Nil, Variant::from(true)),
    ]
    .into();
    let v = Variant::Dictionary(d);
    assert_eq!(
        v.to_string(),
        "{\nnull: true,\n3: 4,\n1.5: null,\n\"a\": 2,\n\"b\": 1,\nVector2(1, 5): null,\nVector2(2, 1): null\n}"
    );
    // What Godot 3.2.3 itself prints for this dictionary.
    assert_eq!(
        v.to_text(Dialect::Godot3),
        "{\nnull: true,\n3: 4,\n1.5: null,\n\"a\": 2,\n\"b\": 1,\nVector2( 1, 5 ): null,\nVector2( 2, 1 ): null\n}"
    );
    // Parsing keeps the order of the text; the entries are the same.
    let back: Variant = v.to_string().parse().unwrap();
    let (Variant::Dictionary(a), Variant::Dictionary(b)) = (&back, &v) else {
        unreachable!()
    };
    assert_eq!(a.len(), b.len());
    for (k, val) in b.iter() {
        assert_eq!(a.get(k.clone()), Some(val));
    }
    // Godot 4 orders String and StringName keys by their text, together.
    let names: Dictionary = vec![
        (Variant::from("b"), Variant::Nil),
        (Variant::StringName(StringName::from("ab")), Variant::Nil),
        (Variant::from("a"), Variant::Nil),
    ]
    .into();
    assert_eq!(
        Variant::Dictionary(names.clone()).to_string(),
        "{\n\"a\": null,\n&\"ab\": null,\n\"b\": null\n}"
    );
    assert_eq!(
        Variant::Dictionary(names).to_text(Dialect::Pandemonium),
        "{\n\"a\": null,\n\"b\": null,\n@\"ab\": null\n}"
    );
}

#[test]
fn typed_containers_objects_and_the_rest() {
    let typed = Variant::Array(Array::typed(
        ElementType::Builtin(VariantType::Int),
        vec![1.into(), 2.into()],
    ));
    assert_eq!(typed.to_string(), "Array[int]([1, 2])");
    assert_eq!(typed.to_text(Dialect::Godot3), "[ 1, 2 ]");
    let scripted = Variant::Array(Array::typed(
        ElementType::Script("res://enemy.gd".into()),
        vec![],
    ));
    assert_eq!(
        scripted.to_string(),
        "Array[Resource(\"res://enemy.gd\")]([])"
    );
    let d = Dictionary::typed(ElementType::Untyped, ElementType::ClassName("Node".into()));
    let d = Variant::Dictionary(d);
    assert_eq!(d.to_string(), "Dictionary[Variant, Node]({})");
    for v in [typed, scripted, d] {
        assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
    }
    assert_eq!(
        "Array[Resource(\"uid://abc\", \"res://x.gd\")]([])"
            .parse::<Variant>()
            .unwrap(),
        Variant::Array(Array::typed(
            ElementType::Script("res://x.gd".into()),
            vec![]
        ))
    );

    let id = Variant::ObjectId(ObjectId(0x8000_0000_0000_0005));
    assert_eq!(
        id.to_string(),
        "Object(EncodedObjectAsID,\"object_id\":-9223372036854775803,\"script\":null)\n"
    );
    assert_eq!(id.to_string().parse::<Variant>().unwrap(), id);
    assert_eq!(Variant::ObjectId(ObjectId(0)).to_string(), "null");
    let obj = Variant::Object(Object {
        class_name: "Node2D".into(),
        properties: vec![
            ("position".into(), Vector2::new(1.0, 2.0).into()),
            ("script".into(), Variant::Nil),
        ],
    });
    assert_eq!(
        obj.to_string(),
        "Object(Node2D,\"position\":Vector2(1, 2),\"script\":null)\n"
    );
    assert_eq!(obj.to_string().parse::<Variant>().unwrap(), obj);

    assert_eq!(Variant::Rid(Rid(7)).to_string(), "RID(7)");
    assert_eq!("RID(7)".parse::<Variant>().unwrap(), Variant::Rid(Rid(7)));
    assert_eq!(Variant::Rid(Rid(7)).to_text(Dialect::Godot3), "");
    assert_eq!(
        Variant::Signal(Signal {
            name: "hit".into(),
            object: 3
        })
        .to_string(),
        "Signal()"
    );
    let bytes = Variant::from(PackedByteArray::from(vec![1, 2, 3, 4]));
    assert_eq!(
        "PackedByteArray(\"AQIDBA==\")".parse::<Variant>().unwrap(),
        bytes
    );
    assert_eq!(
        bytes.to_text(Dialect::Godot3),
        "PoolByteArray( 1, 2, 3, 4 )"
    );
    assert_eq!(
        Variant::from(PackedByteArray::default()).to_text(Dialect::Godot3),
        "PoolByteArray(  )"
    );
    assert_eq!(
        Variant::from(Vec::<Variant>::new()).to_text(Dialect::Godot3),
        "[  ]"
    );
    assert_eq!(
        Variant::Dictionary(Dictionary::new()).to_text(Dialect::Pandemonium),
        "{\n}"
    );
    assert_eq!(
        Variant::from(Projection::ZERO).to_text(Dialect::Pandemonium),
        "Projection(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"
    );
    assert_eq!(
        Variant::from(Transform2D::default()).to_text(Dialect::Godot2),
        "Matrix32( 1, 0, 0, 1, 0, 0 )"
    );
    // Comments, spaces and old names.
    let v: Variant = "; a comment\n[ Quat( 0, 0, 0, 1 ), IntArray( 1 ) ] ; trailing"
        .parse()
        .unwrap();
    assert_eq!(
        v.to_string(),
        "[Quaternion(0, 0, 0, 1), PackedInt32Array(1)]"
    );
}

#[test]
fn parse_errors_say_where() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "expected a value"),
        ("[1, 2", 0, "unterminated array"),
        ("{\"a\" 1}", 5, "expected ':'"),
        ("Vector2(1, 2, 3)", 0, "Vector2 takes 2 numbers, found 3"),
        ("Vector2i(1.5, 2)", 9, "expected an integer"),
        ("PackedByteArray(256)", 16, "0..=255"),
        ("\"abc", 0, "unterminated string"),
        ("1 2", 2, "unexpected text after the value"),
        ("Node(1)", 0, "unknown identifier 'Node'"),
        ("99999999999999999999", 0, "does not fit in 64 bits"),
        ("[1, #]", 4, "unexpected character '#'"),
        ("Resource(\"res://a.tres\")", 0, "needs the engine"),
        ("PackedVector2Array(1, 2, 3)", 0, "multiple of 2"),
    ];
    for &(text, offset, msg) in cases {
        let err: ParseError = text.parse::<Variant>().unwrap_err();
        assert_eq!(err.offset(), offset, "{text}: {err}");
        assert!(err.message().contains(msg), "{text}: {err}");
    }
    let err = "{\n  \"a\": [1,\n    é]}".parse::<Variant>().unwrap_err();
    assert_eq!((err.line(), err.column()), (3, 5), "{err}");
}

#[test]
fn nesting_is_bounded() {
    let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    let v: Variant = ok.parse().unwrap();
    assert_eq!(v.to_string(), ok);
    let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
    let err = deep.parse::<Variant>().unwrap_err();
    assert!(err.message().contains("nesting"), "{err}");
    // Very deep hostile text fails cleanly too, in every container form.
    for open in ["[", "{1:", "Array[int]([", "Object(A,\"p\":"] {
        let text = open.repeat(100_000);
        assert!(text.parse::<Variant>().is_err());
    }
}

#[test]
fn several_values_in_a_row() {
    let text = "1\n\"two\" ; comment\n{\n\"a\": [ 3 ]\n}\n";
    let mut rest = text;
    let mut values = Vec::new();
    while let Some((v, tail)) = Variant::take_from_text(rest).unwrap() {
        values.push(v);
        rest = tail;
    }
    assert_eq!(values.len(), 3);
    assert_eq!(values[2].get("a").unwrap().to_string(), "[3]");
}

#[test]
fn godot2_and_pandemonium5_types() {
    use godot_bin::{Image, InputEvent};
    let img = Variant::Image(Image {
        format: 4,
        mipmaps: 0,
        width: 1,
        height: 1,
        data: vec![255, 0, 128, 7],
    });
    assert_eq!(
        img.to_text(Dialect::Godot2),
        "Image( 1, 1, 0, RGBA, 255, 0, 128, 7 )"
    );
    assert_eq!(
        Variant::Image(Image::default()).to_text(Dialect::Godot2),
        "Image()"
    );
    let key = Variant::InputEvent(InputEvent {
        event_type: 1,
        device: 0,
        extra: vec![(1 << 25) | (1 << 28), 65],
    });
    assert_eq!(key.to_text(Dialect::Godot2), "InputEvent(KEY,65,SC)");
    let axis = Variant::InputEvent(InputEvent {
        event_type: 4,
        device: 0,
        extra: vec![1, 0.5f32.to_bits()],
    });
    assert_eq!(axis.to_text(Dialect::Godot2), "InputEvent(JAXIS,1,0.5)");
    let typed = Array::typed(ElementType::Builtin(VariantType::Int), vec![1.into()]);
    let p5 = Variant::Array(typed.clone());
    assert_eq!(p5.to_text(Dialect::Pandemonium5), "Array[int]([ 1 ])");
    assert_eq!(p5.to_text(Dialect::Pandemonium), "[ 1 ]");
    let packed = Variant::PackedTypedArray(typed);
    assert_eq!(
        packed.to_text(Dialect::Pandemonium5),
        "PackedTypedArray[int]([ 1 ])"
    );
    for v in [img, key, axis, p5, packed] {
        for d in [Dialect::Godot2, Dialect::Godot4, Dialect::Pandemonium5] {
            let text = v.to_text(d);
            let back: Variant = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            if d == Dialect::Godot2 && matches!(v, Variant::Array(_)) {
                continue; // Godot 2 has no typed arrays
            }
            assert_eq!(back, v, "{text}");
        }
    }
}

/// The text form's seams (`text::ParseHook`, `text::Formatter`), as the resource files use
/// them: a hook's calls, typed containers' class and call types, and the printer's policy.
mod seams {
    use godot_bin::text::{Formatter, ParseHook, MAX_CALL_DEPTH};
    use godot_bin::*;
    use std::fmt;

    /// Takes every call as an object of the call's name holding its arguments.
    struct Calls;
    impl ParseHook for Calls {
        fn call(&mut self, name: &str, args: Vec<Variant>) -> Result<Option<Variant>, String> {
            Ok(Some(Variant::Object(Object {
                class_name: name.into(),
                properties: args
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i.to_string(), v))
                    .collect(),
            })))
        }
        fn type_call(
            &mut self,
            name: &str,
            args: Vec<Variant>,
        ) -> Result<Option<ElementType>, String> {
            Ok(Some(ElementType::Script(format!("{name}:{}", args.len()))))
        }
    }

    #[test]
    fn a_bare_resource_class_in_a_type_list_is_the_class() {
        // The engine writes `Array[Resource]` for an Array typed with the Resource class;
        // the parser took `Resource` for the start of `Resource("res://script.gd")`.
        let v: Variant = "Array[Resource]([])".parse().unwrap();
        let a = v.as_array().unwrap();
        assert_eq!(a.element_type, ElementType::ClassName("Resource".into()));
        assert_eq!(v.to_string(), "Array[Resource]([])");
        let v: Variant = "Dictionary[String, Resource]({})".parse().unwrap();
        assert_eq!(v.to_string(), "Dictionary[String, Resource]({})");
        // A script by path is still a script.
        let v: Variant = "Array[Resource(\"res://a.gd\")]([])".parse().unwrap();
        assert_eq!(
            v.as_array().unwrap().element_type,
            ElementType::Script("res://a.gd".into())
        );
    }

    #[test]
    fn calls_reach_the_hook_with_their_arguments_and_unknown_ones_stay_errors() {
        let v = Variant::from_text_with("[Link(\"a\", 2, [3]), Array[Ref(1)]([])]", &mut Calls)
            .unwrap();
        let items: Vec<&Variant> = v.as_array().unwrap().iter().collect();
        match items[0] {
            Variant::Object(o) => {
                assert_eq!(o.class_name, "Link");
                assert_eq!(o.properties.len(), 3);
                assert_eq!(o.properties[1].1, Variant::Int(2));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            items[1].as_array().unwrap().element_type,
            ElementType::Script("Ref:1".into())
        );
        // The plain parser: the same text is an error that names the call.
        let err = "Link(\"a\")".parse::<Variant>().unwrap_err();
        assert_eq!(err.message(), "unknown identifier 'Link'");
        let err = "ExtResource(\"1\")".parse::<Variant>().unwrap_err();
        assert_eq!(
            err.message(),
            "ExtResource(...) needs the engine to load it"
        );
    }

    #[test]
    fn calls_nested_past_the_limit_fail_without_overflowing_a_2mib_stack() {
        let text = format!("{}1{}", "X(".repeat(100_000), ")".repeat(100_000));
        let err = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || Variant::from_text_with(&text, &mut Calls).unwrap_err())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(
            err.message(),
            format!("calls nested deeper than {MAX_CALL_DEPTH} levels")
        );
        // Within the limit, read whole.
        let depth = MAX_CALL_DEPTH;
        let text = format!("{}1{}", "X(".repeat(depth), ")".repeat(depth));
        assert!(Variant::from_text_with(&text, &mut Calls).is_ok());
    }

    /// Writes objects of class `Ref` as `Ref(id)`, scripts as `S(path)`, bytes as hex, and
    /// floats with a trailing `f`.
    struct Policy;
    impl Formatter for Policy {
        fn f32(&mut self, out: &mut dyn fmt::Write, _x: f32, shortest: &str) -> fmt::Result {
            write!(out, "{shortest}f")
        }
        fn f64(
            &mut self,
            out: &mut dyn fmt::Write,
            _x: f64,
            shortest: &str,
            float: bool,
        ) -> fmt::Result {
            write!(out, "{shortest}{}", if float { "d" } else { "p" })
        }
        fn object(&mut self, out: &mut dyn fmt::Write, o: &Object) -> Result<bool, fmt::Error> {
            if o.class_name != "Ref" {
                return Ok(false);
            }
            write!(out, "Ref({})", o.properties[0].1)?;
            Ok(true)
        }
        fn script_type(
            &mut self,
            out: &mut dyn fmt::Write,
            path: &str,
        ) -> Result<bool, fmt::Error> {
            write!(out, "S({path})")?;
            Ok(true)
        }
        fn packed_bytes(&mut self, out: &mut dyn fmt::Write, b: &[u8]) -> Result<bool, fmt::Error> {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            write!(out, "Bytes({hex})")?;
            Ok(true)
        }
    }

    #[test]
    fn the_formatter_decides_every_place_it_is_asked_and_only_those() {
        let mut typed = Array::from(vec![Variant::Int(1)]);
        typed.element_type = ElementType::Script("res://s.gd".into());
        let reference = Variant::Object(Object {
            class_name: "Ref".into(),
            properties: vec![("id".into(), Variant::Int(7))],
        });
        let other = Variant::Object(Object {
            class_name: "Node".into(),
            properties: vec![],
        });
        let mut keyed = Dictionary::new();
        keyed.insert(
            Variant::Float(0.5),
            Variant::Vector2(Vector2::new(1.5, 2.0)),
        );
        let v = Variant::from(vec![
            Variant::Float(2.0),
            Variant::from(PackedFloat64Array(vec![0.25])),
            Variant::from(PackedByteArray(vec![1, 255])),
            reference,
            other,
            Variant::Array(typed),
            Variant::Dictionary(keyed),
        ]);
        assert_eq!(
            v.to_text_with(Dialect::Godot4, &mut Policy),
            "[2.0d, PackedFloat64Array(0.25p), Bytes(01ff), Ref(7), Object(Node,)\n, \
             Array[S(res://s.gd)]([1]), {\n0.5d: Vector2(1.5f, 2f)\n}]"
        );
        // The plain formatter is to_text's.
        assert_eq!(
            v.to_text_with(Dialect::Godot3, &mut godot_bin::text::Plain),
            v.to_text(Dialect::Godot3)
        );
    }
}
