//! `Dictionary`'s `==` against Godot 4's: the engine decodes each pair of values from our
//! packet and prints `a == b`, which must be what `==` says here (entries in any order,
//! keys by the engine's key rules, values of one type). One difference is ours on
//! purpose and asserted as such: a typed Dictionary is not equal to an untyped one here.

use crate::support::engine::godot4_trial;
use crate::support::godot4::{self, Godot4};
use godot_bin::*;
use libtest_mimic::Trial;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "equality::dictionary_equality_is_the_engines",
            dictionary_equality_is_the_engines,
        ),
        godot4_trial(
            "equality::typed_and_untyped_containers_are_one_key_as_in_the_engine",
            typed_and_untyped_containers_are_one_key_as_in_the_engine,
        ),
    ]
}

/// Issue 41, item 13: Godot 4 hashes and compares a container key by its elements only,
/// so a typed and an untyped container with the same elements are one key: a packet that
/// holds both decodes to one entry, the first key with the last value, in the engine and
/// here alike.
fn typed_and_untyped_containers_are_one_key_as_in_the_engine(engine: &Godot4) {
    let cfg = Config::default();
    let empty_typed = typed(vec![]);
    let empty = dict(vec![]);
    let full_typed = typed(vec![(s("a"), 1.into())]);
    let full = dict(vec![(s("a"), 1.into())]);
    let ints = Variant::Array(Array::typed(
        ElementType::Builtin(VariantType::Int),
        vec![Variant::Int(3)],
    ));
    let plain_ints = Variant::from(vec![Variant::Int(3)]);
    let entries: Vec<(Variant, Variant)> = vec![
        (empty_typed, 1.into()),
        (empty, 2.into()),
        (full, 3.into()),
        (full_typed, 4.into()),
        (ints, 5.into()),
        (plain_ints, 6.into()),
    ];
    // The packet written by hand: the crate's own Dictionary would not hold both keys.
    let mut packet = vec![27, 0, 0, 0];
    packet.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for (k, v) in &entries {
        packet.extend(cfg.to_vec(k).unwrap());
        packet.extend(cfg.to_vec(v).unwrap());
    }
    let res = godot4::run_script(
        engine,
        "write_bytes(\"out.bin\", var_to_bytes(bytes_to_var(read_bytes(\"in.bin\"))))",
        &[("in.bin", &packet)],
    );
    res.assert_ok();
    let theirs = res.read_file("out.bin");
    let ours: Variant = cfg.from_slice(&packet).unwrap();
    assert_eq!(ours.as_dictionary().unwrap().len(), 3, "{ours:?}");
    assert_eq!(cfg.to_vec(&ours).unwrap(), theirs, "{ours:?}");
    // The first key stays, with the last value.
    let (k, v) = ours.as_dictionary().unwrap().get_index(0).unwrap();
    assert!(k.as_dictionary().unwrap().is_typed());
    assert_eq!(v, &Variant::Int(2));
}

fn dict(pairs: Vec<(Variant, Variant)>) -> Variant {
    Variant::Dictionary(Dictionary::from(pairs))
}

fn s(x: &str) -> Variant {
    Variant::from(x)
}

fn name(x: &str) -> Variant {
    Variant::StringName(StringName::from(x))
}

fn typed(pairs: Vec<(Variant, Variant)>) -> Variant {
    let mut d = Dictionary::typed(
        ElementType::Builtin(VariantType::String),
        ElementType::Builtin(VariantType::Int),
    );
    d.extend(pairs);
    Variant::Dictionary(d)
}

/// Pairs of values, each with what Godot 4.4.1's `==` says of them.
fn pairs() -> Vec<(&'static str, Variant, Variant, bool)> {
    let ab = || dict(vec![(s("a"), 1.into()), (s("b"), 2.into())]);
    let ba = || dict(vec![(s("b"), 2.into()), (s("a"), 1.into())]);
    let many = |rev: bool| {
        let mut keys: Vec<i64> = (0..40).collect();
        if rev {
            keys.reverse();
        }
        dict(
            keys.into_iter()
                .map(|i| (s(&format!("k{i}")), i.into()))
                .collect(),
        )
    };
    vec![
        ("reordered", ab(), ba(), true),
        (
            "nested",
            dict(vec![(s("x"), ab()), (s("k"), 0.into())]),
            dict(vec![(s("k"), 0.into()), (s("x"), ba())]),
            true,
        ),
        (
            "in an array",
            Variant::from(vec![ab(), 1.into()]),
            Variant::from(vec![ba(), 1.into()]),
            true,
        ),
        (
            "in an array in a dictionary",
            dict(vec![
                (s("l"), Variant::from(vec![ab()])),
                (s("m"), 1.into()),
            ]),
            dict(vec![
                (s("m"), 1.into()),
                (s("l"), Variant::from(vec![ba()])),
            ]),
            true,
        ),
        (
            "typed, reordered",
            typed(vec![(s("a"), 1.into()), (s("b"), 2.into())]),
            typed(vec![(s("b"), 2.into()), (s("a"), 1.into())]),
            true,
        ),
        ("many entries", many(false), many(true), true),
        (
            "String and StringName keys",
            ab(),
            dict(vec![(name("b"), 2.into()), (name("a"), 1.into())]),
            true,
        ),
        (
            "0.0 and -0.0 keys",
            dict(vec![(0.0.into(), 1.into())]),
            dict(vec![((-0.0).into(), 1.into())]),
            true,
        ),
        (
            "NaN keys",
            dict(vec![(f64::NAN.into(), 1.into()), (s("a"), 2.into())]),
            dict(vec![(s("a"), 2.into()), (f64::NAN.into(), 1.into())]),
            true,
        ),
        (
            "0.0 and -0.0 values",
            dict(vec![(s("a"), 0.0.into())]),
            dict(vec![(s("a"), (-0.0).into())]),
            true,
        ),
        (
            "NaN values",
            dict(vec![(s("a"), f64::NAN.into())]),
            dict(vec![(s("a"), f64::NAN.into())]),
            false,
        ),
        (
            "String and StringName values",
            dict(vec![(s("a"), s("x"))]),
            dict(vec![(s("a"), name("x"))]),
            false,
        ),
        (
            "int and float values",
            dict(vec![(s("a"), 1.into())]),
            dict(vec![(s("a"), 1.0.into())]),
            false,
        ),
        (
            "int and float keys",
            dict(vec![(1.into(), s("a"))]),
            dict(vec![(1.0.into(), s("a"))]),
            false,
        ),
        (
            "dictionary keys reordered",
            dict(vec![(ab(), 1.into())]),
            dict(vec![(ba(), 1.into())]),
            false,
        ),
        (
            "another value",
            ab(),
            dict(vec![(s("b"), 3.into()), (s("a"), 1.into())]),
            false,
        ),
        (
            "another key",
            ab(),
            dict(vec![(s("c"), 2.into()), (s("a"), 1.into())]),
            false,
        ),
        ("fewer entries", ab(), dict(vec![(s("a"), 1.into())]), false),
    ]
}

fn dictionary_equality_is_the_engines(engine: &Godot4) {
    let cfg = Config::default();
    let mut pairs = pairs();
    // Ours on purpose: the engine ignores a Dictionary's key and value types in `==`.
    let untyped = dict(vec![(s("a"), 1.into()), (s("b"), 2.into())]);
    let typed_ab = typed(vec![(s("a"), 1.into()), (s("b"), 2.into())]);
    pairs.push(("typed and untyped", typed_ab.clone(), untyped.clone(), true));
    let mut body = String::new();
    let mut files = Vec::new();
    for (i, (_, a, b, _)) in pairs.iter().enumerate() {
        files.push((
            format!("p{i}.bin"),
            cfg.to_vec(&Variant::from(vec![a.clone(), b.clone()]))
                .unwrap(),
        ));
        body.push_str(&format!(
            "\tvar p{i} = bytes_to_var(read_bytes(\"p{i}.bin\"))\n\
             \tprint(\"EQ{i} \", p{i}[0] == p{i}[1], \" \", p{i}[1] == p{i}[0])\n"
        ));
    }
    let file_refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let res = godot4::run_script(engine, &body, &file_refs);
    res.assert_ok();
    for (i, (what, a, b, engine_says)) in pairs.iter().enumerate() {
        let line = res.line_with_prefix(&format!("EQ{i} "));
        let want = if *engine_says {
            "true true"
        } else {
            "false false"
        };
        assert_eq!(line, want, "Godot 4's == on {what}: {a:?} and {b:?}");
        if *what == "typed and untyped" {
            assert_ne!(a, b, "{what}");
            assert_ne!(b, a, "{what}");
        } else {
            assert_eq!(a == b, *engine_says, "{what}: {a:?} and {b:?}");
            assert_eq!(b == a, *engine_says, "{what}: {b:?} and {a:?}");
        }
    }
}
