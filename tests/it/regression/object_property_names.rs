//! Found by `fuzz/resource_text`: a ConfigFile holding `Object(RefCounted,"S\",script":null)`
//! read, but its reprint did not: the text writer put an Object's property names between
//! quotes raw, as the engine's writer does, so a name holding `"` ended early (and one
//! holding `\` changed on reading). The engine's names are identifiers and print the same
//! either way; other names are now escaped as strings are, and read back.

use godot_bin::{Dialect, Object, Variant};

#[test]
fn object_property_names_with_quotes_and_backslashes_read_back() {
    let obj = Variant::Object(Object {
        class_name: "RefCounted".into(),
        properties: vec![
            ("S\",script".into(), Variant::Nil),
            ("back\\slash".into(), Variant::Int(2)),
            ("plain_name".into(), Variant::Bool(true)),
        ],
    });
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let text = obj.to_text(dialect);
        assert!(text.contains(r#""S\",script":null"#), "{text}");
        assert!(text.contains(r#""plain_name":true"#), "{text}");
        let back = Variant::from_text(&text).unwrap();
        assert_eq!(back, obj, "{dialect:?}: {text}");
    }
}
