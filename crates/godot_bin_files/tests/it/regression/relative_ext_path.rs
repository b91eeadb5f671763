//! Issue 41 #15: a relative `[ext_resource path="bark.tres"]` (legal, found in files carried
//! from Godot 3 and in other tools' files) went into a binary file as it was; the engine's
//! text loader resolves it against the file's folder and its binary file stores the full
//! `res://` path, while its binary loader reads a relative path from `res://` (another
//! file, or none). Fixture: Godot 4.4.1 loaded `rel/tree.tres` and saved `rel/tree.res`
//! (`tests/data/resource/make_issue41_4.gd`).

use crate::resource::fixture;
use godot_bin_files::resource::{BinaryResource, TextResource};

fn tree() -> TextResource {
    TextResource::from_bytes(&fixture("godot4/issue41/rel", "tree.tres")).unwrap()
}

#[test]
fn a_relative_path_is_stored_as_the_engine_stores_it() {
    let engine = BinaryResource::from_bytes(&fixture("godot4/issue41/rel", "tree.res")).unwrap();
    let mut text = tree();
    text.set_res_path(Some("res://godot4/issue41/rel/tree.tres"));
    let c = text.to_binary().unwrap();
    assert!(c.issues.is_empty(), "{:?}", c.issues);
    assert_eq!(
        c.file.ext_resources()[0].path,
        engine.ext_resources()[0].path
    );
    assert_eq!(
        c.file.ext_resources()[0].path,
        "res://godot4/issue41/rel/bark.tres"
    );
}

#[test]
fn a_relative_path_with_no_known_folder_is_reported() {
    let c = tree().to_binary().unwrap();
    assert_eq!(c.file.ext_resources()[0].path, "bark.tres");
    assert_eq!(c.issues.len(), 1, "{:?}", c.issues);
    assert!(
        c.issues[0].to_string().contains("relative"),
        "{:?}",
        c.issues
    );
}

#[test]
fn load_finds_the_files_res_path_from_the_project_folder() {
    let dir = std::env::temp_dir().join(format!("godot_bin_rel_{}", std::process::id()));
    let sub = dir.join("godot4/issue41/rel");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.join("project.godot"), "config_version=5\n").unwrap();
    std::fs::write(
        sub.join("tree.tres"),
        fixture("godot4/issue41/rel", "tree.tres"),
    )
    .unwrap();
    let text = TextResource::load(sub.join("tree.tres")).unwrap();
    assert_eq!(text.res_path(), Some("res://godot4/issue41/rel/tree.tres"));
    let bin = text.to_binary().unwrap().file;
    assert_eq!(
        bin.ext_resources()[0].path,
        "res://godot4/issue41/rel/bark.tres"
    );
    // save() and load() round-trip through the file system, byte for byte.
    bin.save(sub.join("tree.res")).unwrap();
    let engine = fixture("godot4/issue41/rel", "tree.res");
    let ours = BinaryResource::load(sub.join("tree.res")).unwrap();
    assert_eq!(
        ours.ext_resources(),
        BinaryResource::from_bytes(&engine).unwrap().ext_resources()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
