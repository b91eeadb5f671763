//! What a new user trips on (issue 24), each in the user's own words: a Dictionary that
//! comes back from text in another order, errors of `from_variant` without their path,
//! `?` from text parsing into `godot_bin::Result`, error kinds to match on, and untagged
//! enums.

use godot_bin::{Dictionary, Variant, Vector3};
use serde::{Deserialize, Serialize};

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
