//! Found by `fuzz/resource_binary`: a Godot 3 binary resource with a property named
//! `resour;e_name` converted to text that did not read back. Godot 3's
//! `property_name_encode` quotes a name only for `=`, `"` and characters outside `!`..`~`,
//! so it writes `resour;e_name = ...` raw, and a `;` there starts a comment for every
//! reader (the engine's too). No engine-made file has such a name (properties are
//! identifiers); the crate now quotes a Godot 3 name that holds `;`, `[` or `]` as Godot 4
//! does, which Godot 3 reads back as the same name.

use godot_bin::{Dialect, Variant};
use godot_bin_files::resource::TextResource;

const NAMES: &[&str] = &[
    "resour;e_name",
    "a[0]",
    "b]",
    "c=d",
    "plain_name",
    "tracks/0/path",
];

#[test]
fn godot3_property_names_with_structure_characters_read_back() {
    let mut res = TextResource::new_resource("Resource", Dialect::Godot3);
    for (i, name) in NAMES.iter().enumerate() {
        res.resource_mut()
            .unwrap()
            .properties_mut()
            .set(name, Variant::Int(i as i64));
    }
    let text = res.to_string();
    let back: TextResource = text.parse().expect("the text reads back");
    let section = back.resource().unwrap();
    for (i, name) in NAMES.iter().enumerate() {
        assert_eq!(
            section.properties().get(name),
            Some(&Variant::Int(i as i64)),
            "{name} in\n{text}"
        );
    }
    assert_eq!(back.to_string(), text);
    // Names the engine writes raw stay raw (engine files rewrite byte for byte).
    assert!(
        text.contains("\nplain_name = 4\n") && text.contains("\ntracks/0/path = 5\n"),
        "{text}"
    );
    assert!(text.contains("\n\"resour;e_name\" = 0\n"), "{text}");
}
