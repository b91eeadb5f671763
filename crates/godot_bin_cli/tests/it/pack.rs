//! `godot-bin pack ...`, `dump PACK`, `convert PACK OUT.pck` and `PACK::res://PATH`.

use godot_bin_files::pack::{Pack, PackWriter};
use godot_bin_files::save::Key;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_godot-bin"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn fails(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert_eq!(out.status.code(), Some(1), "{args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("godot_bin_cli_pack_{}_{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const ZERO: &str = "0000000000000000000000000000000000000000000000000000000000000000";

#[test]
fn list_prints_path_size_and_the_md5_of_the_bytes() {
    let dir = temp_dir("list");
    let mut w = PackWriter::for_engine("3.2.3").unwrap();
    w.add("res://abc.txt", b"abc".to_vec());
    w.add("res://empty", Vec::new());
    w.save(dir.join("g.pck")).unwrap();
    assert_eq!(
        ok(&dir, &["pack", "list", "g.pck"]),
        "res://abc.txt\t3\t900150983cd24fb0d6963f7d28e17f72\n\
         res://empty\t0\td41d8cd98f00b204e9800998ecf8427e\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn create_extract_set_rm_convert_on_an_encrypted_pack() {
    let dir = temp_dir("cycle");
    std::fs::create_dir_all(dir.join("src/levels")).unwrap();
    std::fs::write(dir.join("src/levels/a.tscn"), b"[gd_scene format=3]\n").unwrap();
    std::fs::write(dir.join("src/b.bin"), vec![5u8; 5000]).unwrap();
    ok(
        &dir,
        &[
            "pack",
            "create",
            "g.pck",
            "src",
            "--engine",
            "4.5",
            "--alignment",
            "32",
            "--encrypt-files",
            "--encrypt-directory",
            "--key",
            ZERO,
        ],
    );
    let pack = Pack::open_with_key(dir.join("g.pck"), &Key::bytes([0; 32])).unwrap();
    assert_eq!(pack.header().format, 3);
    assert!(pack.header().dir_encrypted());
    assert!(pack
        .entries()
        .iter()
        .all(|e| e.is_encrypted() && e.position() % 32 == 0));
    // Without the key, and with another: each says so.
    let err = fails(&dir, &["pack", "list", "g.pck"]);
    assert!(
        err.contains("a key or password is needed") && err.contains("--key"),
        "{err}"
    );
    let other = "11".repeat(32);
    let err = fails(&dir, &["pack", "list", "g.pck", "--key", &other]);
    assert!(err.contains("wrong key"), "{err}");
    ok(&dir, &["pack", "extract", "g.pck", "out", "--key", ZERO]);
    assert_eq!(
        std::fs::read(dir.join("out/b.bin")).unwrap(),
        vec![5u8; 5000]
    );
    std::fs::write(dir.join("new.txt"), b"new file").unwrap();
    ok(
        &dir,
        &[
            "pack",
            "set",
            "g.pck",
            "res://levels/new.txt",
            "new.txt",
            "--key",
            ZERO,
        ],
    );
    ok(&dir, &["pack", "rm", "g.pck", "res://b.bin", "--key", ZERO]);
    let list = ok(&dir, &["pack", "list", "g.pck", "--key", ZERO]);
    let paths: Vec<&str> = list
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(paths, ["res://levels/a.tscn", "res://levels/new.txt"]);
    let text = ok(&dir, &["dump", "g.pck::res://levels/a.tscn", "--key", ZERO]);
    assert_eq!(text, "[gd_scene format=3]\n");
    ok(&dir, &["convert", "g.pck", "copy.pck", "--key", ZERO]);
    assert_eq!(
        std::fs::read(dir.join("copy.pck")).unwrap(),
        std::fs::read(dir.join("g.pck")).unwrap()
    );
    let dump = ok(&dir, &["dump", "g.pck", "--key", ZERO]);
    assert!(
        dump.starts_with(
            "pack format 3, Godot 4.5.0, flags 0x3 (encrypted directory, relative file base)"
        ),
        "{dump}"
    );
    assert!(dump.contains("levels/new.txt\t"), "{dump}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_pack_inside_an_executable_is_listed_and_patched() {
    let dir = temp_dir("exe");
    std::fs::write(dir.join("stub"), b"\x7fELF stub").unwrap();
    let mut w = PackWriter::for_engine("4.4.1").unwrap();
    w.add("res://project.godot", b"config_version=5\n".to_vec());
    w.save_embedded(dir.join("stub"), dir.join("game.x86_64"))
        .unwrap();
    ok(
        &dir,
        &[
            "set",
            "game.x86_64::res://project.godot",
            "application/config/name",
            "\"Mod\"",
        ],
    );
    assert_eq!(
        ok(
            &dir,
            &[
                "get",
                "game.x86_64::res://project.godot",
                "application/config/name"
            ]
        ),
        "\"Mod\"\n"
    );
    let bytes = std::fs::read(dir.join("game.x86_64")).unwrap();
    assert!(bytes.starts_with(b"\x7fELF stub"));
    assert!(bytes.ends_with(b"GDPC"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn create_refuses_what_the_layout_cannot_hold() {
    let dir = temp_dir("refuse");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("src/a"), b"a").unwrap();
    let err = fails(
        &dir,
        &[
            "pack",
            "create",
            "g.pck",
            "src",
            "--engine",
            "3",
            "--encrypt-files",
            "--key",
            ZERO,
        ],
    );
    assert!(err.contains("no encryption"), "{err}");
    let err = fails(&dir, &["pack", "create", "g.pck", "src", "--engine", "5.1"]);
    assert!(err.contains("engine version"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn project_binary_inside_a_pack_reads_and_sets_as_project_godot() {
    use godot_bin::{Config, Dialect, Variant};
    use godot_bin_files::resource::ProjectBinary;
    let dir = temp_dir("settings");
    for (engine, dialect, color) in [
        ("3.2.3", Dialect::Godot3, "Color( 0.5, 0.25, 1, 1 )\n"),
        ("4.4.1", Dialect::Godot4, "Color(0.5, 0.25, 1, 1)\n"),
    ] {
        let mut settings = ProjectBinary::new(Config::new(dialect));
        settings.set("application/config/name", "Game");
        settings.set("display/window/size/width", 640);
        // A Color: its type id differs between the engines, so the dialect shows.
        settings.set(
            "rendering/environment/default_clear_color",
            godot_bin::Color::new(0.5, 0.25, 1.0, 1.0),
        );
        let mut w = PackWriter::for_engine(engine).unwrap();
        w.add("res://project.binary", settings.to_bytes().unwrap());
        let pck = format!("g{engine}.pck");
        w.save(dir.join(&pck)).unwrap();
        let inside = format!("{pck}::res://project.binary");
        assert_eq!(
            ok(&dir, &["get", &inside, "application/config/name"]),
            "\"Game\"\n"
        );
        assert_eq!(
            ok(
                &dir,
                &["get", &inside, "rendering/environment/default_clear_color"]
            ),
            color,
            "{engine}: the engine's own text"
        );
        ok(&dir, &["set", &inside, "display/window/size/width", "800"]);
        let text = ok(&dir, &["dump", &inside]);
        assert!(
            text.contains("[display]\n\nwindow/size/width=800\n"),
            "{text}"
        );
        let bytes = Pack::open(dir.join(&pck))
            .unwrap()
            .read("res://project.binary")
            .unwrap();
        let back = ProjectBinary::from_bytes(&bytes, &Config::new(dialect)).unwrap();
        assert_eq!(
            back.get("display/window/size/width"),
            Some(&Variant::Int(800))
        );
        assert_eq!(
            back.get("application/config/name"),
            Some(&Variant::from("Game"))
        );
        assert_eq!(back.settings().count(), 3);
    }
    std::fs::remove_dir_all(&dir).ok();
}
