//! What a new user trips on (issue 24), each in the user's own words: a Dictionary that
//! comes back from text in another order, errors of `from_variant` without their path,
//! `?` from text parsing into `godot_bin::Result`, error kinds to match on, and untagged
//! enums.

use godot_bin::{Dictionary, ErrorKind, Variant, Vector3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector3,
}

fn player() -> Player {
    Player {
        name: "Ada".into(),
        hp: 100,
        pos: Vector3::new(1.0, 2.0, 3.0),
    }
}

#[test]
fn a_derived_struct_survives_text_unchanged() -> Result<(), Box<dyn std::error::Error>> {
    let my_derived_struct = player();
    let v = godot_bin::to_variant(&my_derived_struct)?;
    assert_eq!(v.to_string().parse::<Variant>()?, v);
    // The text lists the fields sorted, as the engine does: the order did change.
    let back = v.to_string().parse::<Variant>()?;
    let keys =
        |v: &Variant| -> Vec<Variant> { v.as_dictionary().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&back),
        [Variant::from("hp"), "name".into(), "pos".into()]
    );
    assert_eq!(keys(&v), [Variant::from("name"), "hp".into(), "pos".into()]);
    assert!(!back.eq_ordered(&v));
    assert_eq!(godot_bin::from_variant::<Player>(back)?, my_derived_struct);
    Ok(())
}

#[test]
fn dictionaries_are_equal_in_any_order_as_in_the_engine() -> Result<(), Box<dyn std::error::Error>>
{
    // `{"a":1,"b":2} == {"b":2,"a":1}` is `true` in Godot 4.
    let ab: Variant = r#"{"a":1,"b":2}"#.parse()?;
    let ba: Variant = r#"{"b":2,"a":1}"#.parse()?;
    assert_eq!(ab, ba);
    assert!(!ab.eq_ordered(&ba));
    let ab: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
    let ba: Dictionary = [("b", 2), ("a", 1)].into_iter().collect();
    assert_eq!(ab, ba);
    assert!(!ab.eq_ordered(&ba));
    Ok(())
}

#[derive(Deserialize, Debug)]
struct Spawn {
    #[allow(dead_code)]
    name: String,
    #[allow(dead_code)]
    pos: Vector3,
}

#[derive(Deserialize, Debug)]
#[allow(dead_code)]
struct Level {
    boss: Spawn,
    spawns: Vec<Spawn>,
    by_name: BTreeMap<String, Spawn>,
}

fn spawn(pos: impl Into<Variant>) -> Variant {
    Dictionary::from_iter([("name", Variant::from("orc")), ("pos", pos.into())]).into()
}

/// A Level whose `field` is `value`, every other field valid.
fn level(field: &str, value: Variant) -> Variant {
    let good = || spawn(Vector3::new(1.0, 2.0, 3.0));
    let mut d = Dictionary::new();
    d.insert("boss", good());
    d.insert("spawns", vec![good()]);
    d.insert("by_name", Dictionary::from_iter([("ada", good())]));
    d.insert(field, value);
    d.into()
}

#[test]
fn from_variant_errors_carry_the_path_from_slice_gives() {
    // The user's case: a String where a Vector3 field is.
    let v = spawn("here");
    let bytes = godot_bin::to_vec(&v).unwrap();
    let from_bytes = godot_bin::from_slice::<Spawn>(&bytes).unwrap_err();
    let from_value = godot_bin::from_variant::<Spawn>(v).unwrap_err();
    assert_eq!(from_bytes.path(), "pos");
    assert_eq!(from_value.path(), from_bytes.path());
    assert_eq!(
        from_value.to_string(),
        "expected Vector3, found String at pos"
    );

    let bad = || spawn("here");
    for (v, path) in [
        // A nested struct's field.
        (level("boss", bad()), "boss.pos"),
        // A sequence's element.
        (
            level("spawns", vec![spawn(Vector3::ZERO), bad()].into()),
            "spawns[1].pos",
        ),
        // A map's entry, by its key.
        (
            level(
                "by_name",
                Dictionary::from_iter([("ada", spawn(Vector3::ZERO)), ("orc", bad())]).into(),
            ),
            "by_name.orc.pos",
        ),
    ] {
        let bytes = godot_bin::to_vec(&v).unwrap();
        let from_bytes = godot_bin::from_slice::<Level>(&bytes).unwrap_err();
        let from_value = godot_bin::from_variant::<Level>(v).unwrap_err();
        assert_eq!(from_bytes.path(), path);
        assert_eq!(from_value.path(), from_bytes.path());
        assert_eq!(
            from_value.path_segments().collect::<Vec<_>>(),
            from_bytes.path_segments().collect::<Vec<_>>()
        );
        assert_eq!(
            from_value.to_string(),
            format!("expected Vector3, found String at {path}")
        );
        assert!(matches!(from_value.kind(), ErrorKind::TypeMismatch { .. }));
    }
}
