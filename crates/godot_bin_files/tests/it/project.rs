//! A project as one thing (issue 47 items 3 and 4): uids from every place the engine
//! keeps them, files by path or uid, references followed and the broken ones reported, the
//! same from a folder and from the pack made of it, and through an export's `.remap`.

use godot_bin_files::pack::PackWriter;
use godot_bin_files::project::{Project, Resource, UidCache};
use godot_bin_files::resource::uid_to_text;
use godot_bin_files::{ErrorKind, TextResource};
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_bin_project_{}_{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(dir.join(".godot")).unwrap();
    dir
}

fn write(dir: &Path, rel: &str, text: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const ITEM_UID: &str = "uid://bq1k4yyqy3mxw";
const SCRIPT_UID: &str = "uid://dqb8ejbl5q4ta";
const ICON_UID: &str = "uid://b4jq0r3l8d1kg";

/// A project: a scene referring to a resource by uid (its path stale), a script through
/// its `.uid`, an imported texture through its `.import`, a binary resource known only
/// to the cache, and one reference to nothing.
fn project(dir: &Path) {
    write(dir, "project.godot", b"config_version=5\n");
    write(
        dir,
        "items/item.tres",
        format!("[gd_resource type=\"Resource\" format=3 uid=\"{ITEM_UID}\"]\n\n[resource]\n")
            .as_bytes(),
    );
    write(dir, "player.gd", b"extends Node\n");
    write(dir, "player.gd.uid", format!("{SCRIPT_UID}\n").as_bytes());
    write(dir, "icon.svg", b"<svg/>");
    write(
        dir,
        "icon.svg.import",
        format!("[remap]\n\nimporter=\"texture\"\ntype=\"CompressedTexture2D\"\nuid=\"{ICON_UID}\"\npath=\"res://.godot/imported/icon.svg-218a8f2b3041327d8a5756f3a245f83b.ctex\"\n").as_bytes(),
    );
    write(dir, "data/mesh.res", b"RSRC not read here");
    let mut cache = UidCache::default();
    cache.insert(&uid_to_text(77), "res://data/mesh.res");
    cache.insert(ITEM_UID, "res://stale/where/item/was.tres"); // the header wins
    write(dir, ".godot/uid_cache.bin", &cache.to_bytes());
    write(
        dir,
        "level.tscn",
        format!(
            "[gd_scene load_steps=6 format=3 uid=\"uid://cecaux1sm7mo0\"]\n\n\
             [ext_resource type=\"Resource\" uid=\"{ITEM_UID}\" path=\"res://item.tres\" id=\"1\"]\n\
             [ext_resource type=\"Script\" uid=\"{SCRIPT_UID}\" path=\"res://player.gd\" id=\"2\"]\n\
             [ext_resource type=\"Texture2D\" uid=\"{ICON_UID}\" path=\"res://icon.svg\" id=\"3\"]\n\
             [ext_resource type=\"Mesh\" uid=\"{}\" path=\"res://old/mesh.res\" id=\"4\"]\n\
             [ext_resource type=\"Texture2D\" uid=\"uid://d0gone0000000\" path=\"res://gone.png\" id=\"5\"]\n\n\
             [node name=\"Level\" type=\"Node\"]\nscript = ExtResource(\"2\")\n",
            uid_to_text(77)
        )
        .as_bytes(),
    );
}

fn check(project: &mut Project, what: &str) {
    assert_eq!(
        project.resolve(ITEM_UID),
        Some("res://items/item.tres"),
        "{what}"
    );
    assert_eq!(
        project.resolve(SCRIPT_UID),
        Some("res://player.gd"),
        "{what}"
    );
    assert_eq!(project.resolve(ICON_UID), Some("res://icon.svg"), "{what}");
    assert_eq!(
        project.resolve(&uid_to_text(77)),
        Some("res://data/mesh.res"),
        "{what}"
    );
    assert_eq!(
        project.resolve("uid://cecaux1sm7mo0"),
        Some("res://level.tscn"),
        "{what}"
    );
    assert_eq!(
        project.uid_of("res://player.gd"),
        Some(SCRIPT_UID),
        "{what}"
    );
    assert_eq!(
        project.read(SCRIPT_UID).unwrap(),
        b"extends Node\n",
        "{what}"
    );
    let err = project.read("uid://aaaaaaaaaaaa").unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::NotFound(_)),
        "{what}: {err}"
    );
    assert_eq!(
        project.resources(),
        [
            "res://data/mesh.res",
            "res://items/item.tres",
            "res://level.tscn"
        ],
        "{what}"
    );
    let links = project.links("uid://cecaux1sm7mo0").unwrap();
    let targets: Vec<Option<&str>> = links.iter().map(|l| l.target.as_deref()).collect();
    assert_eq!(
        targets,
        [
            Some("res://items/item.tres"),
            Some("res://player.gd"),
            Some("res://icon.svg"),
            Some("res://data/mesh.res"),
            None
        ],
        "{what}"
    );
    match project.load("res://level.tscn").unwrap() {
        Resource::Text(t) => assert_eq!(t.nodes().count(), 1, "{what}"),
        Resource::Binary(_) => panic!("{what}: a text scene"),
    }
}

#[test]
fn a_folder_and_its_pack_resolve_the_same() {
    let dir = folder("same");
    project(&dir);
    let mut p = Project::open(&dir).unwrap();
    check(&mut p, "folder");
    // mesh.res is no real binary resource: `broken` reads every resource, and says so.
    let err = p.broken().unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Corrupt(_) | ErrorKind::UnexpectedEof | ErrorKind::Unsupported(_)
        ),
        "{err}"
    );
    std::fs::remove_file(dir.join("data/mesh.res")).unwrap();
    std::fs::write(dir.join("data/mesh.res.import"), b"[remap]\n").unwrap();
    let mut p = Project::open(&dir).unwrap();
    let broken = p.broken().unwrap();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].from, "res://level.tscn");
    assert_eq!(broken[0].link.path, "res://gone.png");

    // The same project as a pack.
    write(&dir, "data/mesh.res", b"RSRC not read here");
    std::fs::remove_file(dir.join("data/mesh.res.import")).unwrap();
    let mut w = PackWriter::for_engine("4.4.1").unwrap();
    w.add_dir(&dir).unwrap();
    let pck = dir.with_extension("pck");
    w.save(&pck).unwrap();
    let mut p = Project::open(&pck).unwrap();
    check(&mut p, "pack");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&pck).ok();
}

#[test]
fn an_exported_resource_is_read_through_its_remap() {
    let dir = folder("export");
    write(&dir, "project.godot", b"config_version=5\n");
    write(
        &dir,
        "items/item.tres",
        format!("[gd_resource type=\"Resource\" format=3 uid=\"{ITEM_UID}\"]\n\n[resource]\n")
            .as_bytes(),
    );
    let scene: TextResource = format!(
        "[gd_scene format=3 uid=\"uid://cecaux1sm7mo0\"]\n\n\
         [ext_resource type=\"Resource\" uid=\"{ITEM_UID}\" path=\"res://item.tres\" id=\"1\"]\n\
         [ext_resource type=\"Texture2D\" path=\"res://gone.png\" id=\"2\"]\n\n\
         [node name=\"Level\" type=\"Node\"]\nmetadata/item = ExtResource(\"1\")\n"
    )
    .parse()
    .unwrap();
    let binary = scene.to_binary().unwrap().file.to_bytes().unwrap();
    write(
        &dir,
        ".godot/exported/133200997/export-0123-level.scn",
        &binary,
    );
    write(
        &dir,
        "level.tscn.remap",
        b"[remap]\n\npath=\"res://.godot/exported/133200997/export-0123-level.scn\"\n",
    );
    let mut cache = UidCache::default();
    cache.insert("uid://cecaux1sm7mo0", "res://level.tscn");
    write(&dir, ".godot/uid_cache.bin", &cache.to_bytes());
    let mut w = PackWriter::for_engine("4.4.1").unwrap();
    w.add_dir(&dir).unwrap();
    let pck = dir.with_extension("pck");
    w.save(&pck).unwrap();
    let mut p = Project::open(&pck).unwrap();
    assert!(p.exists("res://level.tscn"));
    assert_eq!(p.read("uid://cecaux1sm7mo0").unwrap(), binary);
    assert!(matches!(
        p.load("res://level.tscn").unwrap(),
        Resource::Binary(_)
    ));
    assert_eq!(p.resources(), ["res://items/item.tres", "res://level.tscn"]);
    let broken = p.broken().unwrap();
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].link.path, "res://gone.png");
    assert_eq!(broken[0].link.uid, None);
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&pck).ok();
}
