//! Issue 41 #2: a text scene's node `index` was lost going to binary. The engines write it
//! quoted (`index="0"`) and their loader converts it to an int; the crate read only an int,
//! so every node under a node of an instanced scene lost its place among the children, and
//! binary → text printed it unquoted. The fixtures are Godot 4.4.1's own `.tscn` and `.scn`
//! of one scene (`tests/data/resource/make_issue41_4.gd`).

use crate::resource::fixture;
use godot_bin_files::resource::{BinaryResource, TextResource};

fn text() -> String {
    String::from_utf8(fixture("godot4/issue41", "index.tscn")).unwrap()
}

#[test]
fn the_engines_binary_scene_reads_to_the_engines_text() {
    let scn = BinaryResource::from_bytes(&fixture("godot4/issue41", "index.scn")).unwrap();
    let converted = scn.to_text().unwrap();
    assert_eq!(converted.file.to_string(), text());
    assert!(converted.issues.is_empty(), "{:?}", converted.issues);
}

#[test]
fn text_to_binary_keeps_each_index() {
    let tscn = TextResource::parse(&text()).unwrap();
    let bin = tscn.to_binary().unwrap().file;
    let again = BinaryResource::from_bytes(&bin.to_bytes().unwrap()).unwrap();
    let back = again.to_text().unwrap().file;
    assert_eq!(back.to_string(), text());
    for (node, index) in [
        ("Body/Head/Hat", "0"),
        ("Body/Tail/Fin", "0"),
        ("Body/Tail/Wing", "1"),
    ] {
        let n = back.node(node).unwrap_or_else(|| panic!("{node}"));
        assert_eq!(
            n.attr("index").and_then(|v| v.as_str()),
            Some(index),
            "{node}"
        );
    }
}
