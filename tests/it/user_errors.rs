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
fn a_derived_struct_survives_text_unchanged() -> godot_bin::Result<()> {
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
fn dictionaries_are_equal_in_any_order_as_in_the_engine() -> godot_bin::Result<()> {
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

fn f(s: &str) -> godot_bin::Result<Variant> {
    Ok(s.parse::<Variant>()?)
}

#[test]
fn text_parse_errors_pass_through_question_mark() {
    assert_eq!(
        f("Vector3(1, 2, 3)").unwrap(),
        Vector3::new(1.0, 2.0, 3.0).into()
    );
    let e = f("{\n\"hp\": Vector3(1, 2\n}").unwrap_err();
    let ErrorKind::Text {
        line,
        column,
        message,
    } = e.kind()
    else {
        panic!("{e:?}");
    };
    // Where the parser itself says.
    let parse = "{\n\"hp\": Vector3(1, 2\n}".parse::<Variant>().unwrap_err();
    assert_eq!(
        (*line, *column, message.as_str()),
        (parse.line(), parse.column(), parse.message())
    );
    assert_eq!(e.offset(), Some(parse.offset()));
    assert_eq!(*line, 3);
    assert_eq!(
        e.to_string(),
        format!(
            "line 3, column {column}: {message} at byte offset {}",
            parse.offset()
        )
    );
}

#[test]
fn serdes_errors_have_kinds_to_match_on() {
    #[derive(Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Player {
        name: String,
        hp: i32,
    }
    let decode = |d: Dictionary| -> (godot_bin::Error, godot_bin::Error) {
        let bytes = godot_bin::to_vec(&d).unwrap();
        (
            godot_bin::from_slice::<Player>(&bytes).unwrap_err(),
            godot_bin::from_variant::<Player>(d.into()).unwrap_err(),
        )
    };
    // A missing field.
    for e in <[_; 2]>::from(decode(Dictionary::from_iter([("name", "Ada")]))) {
        assert!(matches!(e.kind(), ErrorKind::MissingField("hp")), "{e}");
        assert!(e.to_string().starts_with("missing field `hp`"), "{e}");
    }
    // A wrong type.
    let wrong = Dictionary::from_iter([("name", Variant::from("Ada")), ("hp", "lots".into())]);
    for e in <[_; 2]>::from(decode(wrong)) {
        assert!(
            matches!(e.kind(), ErrorKind::InvalidType { unexpected, expected }
                if unexpected == "string \"lots\"" && expected == "i32"),
            "{e}"
        );
        assert_eq!(e.path(), "hp");
        assert!(
            e.to_string()
                .starts_with("invalid type: string \"lots\", expected i32 at hp"),
            "{e}"
        );
    }
    // An unknown field.
    let extra = Dictionary::from_iter([
        ("name", Variant::from("Ada")),
        ("hp", 1.into()),
        ("mp", 2.into()),
    ]);
    for e in <[_; 2]>::from(decode(extra)) {
        assert!(
            matches!(e.kind(), ErrorKind::UnknownField { field, expected: &["name", "hp"] } if field == "mp"),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("unknown field `mp`, expected `name` or `hp`"),
            "{e}"
        );
    }
    // A wrong length, a wrong value.
    let bytes = godot_bin::to_vec(&(1, 2)).unwrap();
    let e = godot_bin::from_slice::<(i32, i32, i32)>(&bytes).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::InvalidLength { len: 2, .. }),
        "{e}"
    );
    let bytes = godot_bin::to_vec("ab").unwrap();
    let e = godot_bin::from_slice::<char>(&bytes).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::InvalidValue { .. }), "{e}");
}
