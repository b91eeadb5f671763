//! Issue 41 #10: a typed array set from a plain Rust list lost its type. Setting
//! `Vec<i64>` on the engine's `metadata/ids = Array[int]([1, 2, 3])` rewrote it as
//! `[1, 2, 3]` (another value to the engine: an untyped Array), even when nothing changed.
//! A typed Array or Dictionary now keeps its types when the new elements fit them, and an
//! equal value keeps its text. Fixture: Godot 4.4.1's `item.tres`.

use crate::resource::fixture;
use godot_bin_files::resource::TextResource;
use serde::Serialize;

#[derive(Serialize)]
struct Ids {
    #[serde(rename = "metadata/ids")]
    ids: Vec<i64>,
    tags: Vec<String>,
}

fn item() -> (String, TextResource) {
    let text = String::from_utf8(fixture("godot4", "item.tres")).unwrap();
    let res = TextResource::parse(&text).unwrap();
    (text, res)
}

#[test]
fn an_unchanged_typed_array_keeps_its_text() {
    let (text, mut res) = item();
    assert!(text.contains("metadata/ids = Array[int]([1, 2, 3])\n"));
    assert!(text.contains("tags = PackedStringArray(\"sharp\", \"heavy\")\n"));
    res.set_resource(&Ids {
        ids: vec![1, 2, 3],
        tags: vec!["sharp".into(), "heavy".into()],
    })
    .unwrap();
    // `tags` is a PackedStringArray: a Vec<String> set on it keeps that kind (it was an
    // untyped Array before).
    assert_eq!(res.to_string(), text);
}

#[test]
fn a_changed_typed_array_keeps_its_type() {
    let (text, mut res) = item();
    res.set_resource(&Ids {
        ids: vec![1, 2, 4],
        tags: vec!["sharp".into(), "heavy".into()],
    })
    .unwrap();
    assert_eq!(
        res.to_string(),
        text.replace(
            "metadata/ids = Array[int]([1, 2, 3])",
            "metadata/ids = Array[int]([1, 2, 4])"
        )
    );
}

#[test]
fn elements_that_do_not_fit_make_a_plain_array() {
    let (text, mut res) = item();
    let main = res.resource_mut().unwrap();
    main.properties_mut().set(
        "metadata/ids",
        godot_bin::Variant::Array(vec![godot_bin::Variant::from("x")].into()),
    );
    assert_eq!(
        res.to_string(),
        text.replace(
            "metadata/ids = Array[int]([1, 2, 3])",
            "metadata/ids = [\"x\"]"
        )
    );
}
