//! Issue 41 #11: `to_godot4` left `[ext_resource type="DynamicFontData"]` (and `Texture`...)
//! in Godot 3 names, silently. Godot 4 calls the class `FontFile`; the conversion now
//! renames it and says so. Fixture: Godot 3.2.3's `font.tres`
//! (`tests/data/resource/make_issue41_3.gd`).

use crate::resource::fixture;
use godot_bin_files::resource::TextResource;

#[test]
fn external_resource_types_get_their_godot4_names() {
    let g3 = TextResource::from_bytes(&fixture("godot3/issue41", "font.tres")).unwrap();
    assert_eq!(
        g3.ext_resources().next().and_then(|e| e.type_name()),
        Some("DynamicFontData")
    );
    let c = g3.to_godot4().unwrap();
    let ext = c.file.ext_resources().next().unwrap();
    assert_eq!(ext.type_name(), Some("FontFile"));
    assert_eq!(c.file.header().type_name(), Some("FontFile"));
    let said: Vec<String> = c.issues.iter().map(ToString::to_string).collect();
    assert!(
        said.iter()
            .any(|i| i.contains("DynamicFontData is FontFile")),
        "{said:?}"
    );
}
