//! `godot-bin dump` and `convert` on resources, scenes and ConfigFiles.

use crate::support::golden::resource_fixture as fixture;
use godot_bin::Variant;
use godot_bin_files::resource::{BinaryResource, ConfigFile, TextResource};
use godot_bin_files::save::Key;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_godot-bin");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_bin-cli-res-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run godot-bin");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn put(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn dump_shows_each_form_as_text() {
    let dir = scratch("dump");
    for (engine, name, text_twin) in [
        ("godot4", "item.tres", None),
        ("godot4", "level.tscn", None),
        ("godot4", "level.scn", Some("level.tscn")),
        ("godot3", "item_c.res", Some("item.tres")),
        ("godot4", "game.cfg", None),
    ] {
        let bytes = fixture(engine, name);
        let path = put(&dir, name, &bytes);
        let (ok, out, err) = run(&["dump", &path]);
        assert!(ok, "dump {engine}/{name}: {err}");
        match text_twin {
            // A text file prints as itself.
            None => assert_eq!(out, String::from_utf8(bytes).unwrap()),
            // A binary one as the text it converts to: the same nodes and properties.
            Some(twin) => {
                let ours = TextResource::parse(&out).unwrap();
                let theirs = TextResource::from_bytes(&fixture(engine, twin)).unwrap();
                assert_eq!(
                    ours.sections().len(),
                    theirs.sections().len(),
                    "{engine}/{name}"
                );
                assert!(err.contains("shown as text"), "{err}");
            }
        }
    }
    // An encrypted ConfigFile, whatever its extension, with its password.
    let path = put(&dir, "settings.dat", &fixture("godot4", "game_pass.cfg"));
    let (ok, out, err) = run(&["dump", "--password", "s3cret", &path]);
    assert!(ok, "{err}");
    assert_eq!(out.as_bytes(), &fixture("godot4", "game.cfg")[..]);
}

#[test]
fn dump_json_has_every_section() {
    let dir = scratch("json");
    let path = put(&dir, "level.tscn", &fixture("godot4", "level.tscn"));
    let (ok, out, err) = run(&["dump", "--json", &path]);
    assert!(ok, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["form"], "text scene");
    let sections = doc["sections"].as_array().unwrap();
    let player = sections
        .iter()
        .find(|s| s["attributes"]["name"] == "Player")
        .unwrap();
    assert_eq!(player["properties"]["metadata/hp"], 100);
    assert!(
        player["properties"]["metadata/gear"]["$SubResource"].is_string(),
        "{player}"
    );
    let enemy = sections
        .iter()
        .find(|s| s["attributes"]["name"] == "Enemy")
        .unwrap();
    assert_eq!(enemy["attributes"]["instance"]["$ExtResource"], "3");

    let path = put(&dir, "game.cfg", &fixture("godot3", "game.cfg"));
    let (ok, out, _) = run(&["dump", "--json", &path]);
    assert!(ok);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["sections"]["player"]["hp"], 100);
}

#[test]
fn convert_moves_between_forms_by_extension() {
    let dir = scratch("convert");
    // text -> binary -> text, Godot 4.
    let tres = put(&dir, "item.tres", &fixture("godot4", "item.tres"));
    let res = dir.join("item.res").to_string_lossy().into_owned();
    let (ok, out, err) = run(&["convert", &tres, &res]);
    assert!(ok, "{err}{out}");
    let bin = BinaryResource::from_bytes(&std::fs::read(&res).unwrap()).unwrap();
    assert_eq!(
        bin.resource().properties().get("hp"),
        Some(&Variant::Int(150))
    );
    let back = dir.join("back.tres").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", &res, &back]);
    assert!(ok, "{err}");
    let text = TextResource::from_bytes(&std::fs::read(&back).unwrap()).unwrap();
    assert_eq!(
        text.resource().unwrap().properties().get("hp"),
        Some(&Variant::Int(150))
    );

    // A Godot 3 scene stays Godot 3 between its forms, with nothing to report...
    let g3 = put(&dir, "level3.tscn", &fixture("godot3", "level.tscn"));
    let same = dir.join("level3.scn").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", &g3, &same]);
    assert!(ok, "{err}");
    assert!(!err.contains("issue"), "{err}");
    let scn3 = BinaryResource::from_bytes(&std::fs::read(&same).unwrap()).unwrap();
    assert_eq!(scn3.header().version.0, 3);
    // ...and back to text as the engine wrote it.
    let text3 = dir.join("level3_back.tscn").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", &same, &text3]);
    assert!(ok, "{err}");
    assert_eq!(
        TextResource::from_bytes(&std::fs::read(&text3).unwrap())
            .unwrap()
            .dialect(),
        godot_bin::Dialect::Godot3
    );
    // --same-engine, what scripts wrote when upgrading was the default, still reads.
    let (ok, _, err) = run(&["convert", "--same-engine", &g3, &same]);
    assert!(ok, "{err}");

    // --godot4 upgrades; what does not carry over (a Godot 3 script) is reported.
    let g4 = dir.join("level4.scn").to_string_lossy().into_owned();
    let (ok, out, err) = run(&["convert", "--godot4", &g3, &g4]);
    assert!(ok, "{err}");
    // What did not carry over exactly is listed on stderr, one line each.
    assert!(
        err.contains("godot-bin: issue: ") && err.contains("is a Godot 3 script"),
        "{err}"
    );
    assert!(!out.contains("issue"), "{out}");
    let scn = BinaryResource::from_bytes(&std::fs::read(&g4).unwrap()).unwrap();
    assert_eq!(scn.header().version.0, 4);
    // ...and --strict refuses to write it.
    let strict = dir.join("strict.scn").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", "--godot4", "--strict", &g3, &strict]);
    assert!(
        !ok && err.contains("--strict") && err.contains("issue: "),
        "{err}"
    );
    assert!(!PathBuf::from(&strict).exists());
    let (ok, _, err) = run(&["convert", "--godot4", "--same-engine", &g3, &strict]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
}

/// Issue 49 #1: `convert` wrote whatever the input was under an output name of another
/// kind, exit 0 (`convert project.godot out.scn` copied the ConfigFile's text into
/// `out.scn`, which Godot refuses: "Unrecognized binary resource file"). Each such pair is
/// refused, nothing written; the names each kind may take still convert.
#[test]
fn convert_refuses_an_output_name_of_another_kind() {
    let dir = scratch("kinds");
    let cfg = put(&dir, "game.cfg", &fixture("godot4", "game.cfg"));
    let scene = put(&dir, "level.tscn", &fixture("godot4", "level.tscn"));
    let save = put(
        &dir,
        "game.sav",
        &std::fs::read(crate::support::golden::files_dir().join("godot4/g4_save_zstd.bin"))
            .unwrap(),
    );
    for (input, output) in [
        (&cfg, "out.scn"),
        (&cfg, "out.tres"),
        (&save, "out.tscn"),
        (&save, "out.res"),
        (&save, "out.cfg"),
        (&scene, "out.cfg"),
        (&scene, "out.sav"),
        (&scene, "project.godot"),
    ] {
        let out = dir.join(output).to_string_lossy().into_owned();
        let (ok, _, err) = run(&["convert", input, &out]);
        assert!(
            !ok && err.contains("cannot become") && err.contains("nothing written"),
            "{input} -> {output}: {err}"
        );
        assert!(
            !PathBuf::from(&out).exists(),
            "{input} -> {output} wrote a file"
        );
    }
    for (input, output) in [
        (&cfg, "settings.dat"),
        (&cfg, "override.cfg"),
        (&save, "game2.sav"),
        (&scene, "level.scn"),
    ] {
        let out = dir.join(output).to_string_lossy().into_owned();
        let (ok, _, err) = run(&["convert", input, &out]);
        assert!(ok, "{input} -> {output}: {err}");
    }
}

/// Issue 49 #3: `convert` of a text resource whose `[ext_resource]` path is relative
/// (Godot 3-era materials) found no project and wrote the path relative into the binary,
/// where the engine's binary loader reads it from `res://`. The project is found upward
/// from the file, as the editor finds it, and the path written as the engine's own binary
/// file of it (Godot 4.4.1's `rel/tree.res`) has it; with no project above, convert says
/// so while converting.
#[test]
fn convert_resolves_relative_paths_from_the_project_above() {
    let dir = scratch("relative");
    let sub = dir.join("godot4/issue41/rel");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.join("project.godot"), "config_version=5\n").unwrap();
    let tres = put(
        &sub,
        "tree.tres",
        &fixture("godot4/issue41/rel", "tree.tres"),
    );
    let res = sub.join("tree.res").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", &tres, &res]);
    assert!(ok && !err.contains("issue"), "{err}");
    let engine = BinaryResource::from_bytes(&fixture("godot4/issue41/rel", "tree.res")).unwrap();
    let ours = BinaryResource::from_bytes(&std::fs::read(&res).unwrap()).unwrap();
    assert_eq!(ours.ext_resources(), engine.ext_resources());

    // No project.godot above: the path stays relative, and convert says so on stderr.
    std::fs::remove_file(dir.join("project.godot")).unwrap();
    let (ok, _, err) = run(&["convert", &tres, &res]);
    assert!(ok, "{err}");
    assert!(
        err.contains("issue:") && err.contains("no project.godot in a folder above"),
        "{err}"
    );
}

/// Issue 49 #7: `dump` of a Godot 3 `.tscn` with `--dialect godot4` ignored the flag
/// without a word. A resource or scene says its engine in its header: another engine's
/// `--dialect` is refused, its own taken; a ConfigFile prints in the style asked.
#[test]
fn dialect_is_refused_where_the_file_says_another_engine() {
    let dir = scratch("dialect");
    let g3 = put(&dir, "level.tscn", &fixture("godot3", "level.tscn"));
    for cmd in [vec!["dump", &g3], vec!["get", &g3, "Player:position"]] {
        let mut args = cmd.clone();
        args.extend(["--dialect", "godot4"]);
        let (ok, out, err) = run(&args);
        assert!(!ok && out.is_empty(), "{out}");
        assert!(
            err.contains("a Godot 3 file by its own header: --dialect godot4 does not apply"),
            "{err}"
        );
        let mut args = cmd.clone();
        args.extend(["--dialect", "godot3"]);
        let (ok, _, err) = run(&args);
        assert!(ok, "{err}");
    }
    // A ConfigFile's text does not always tell its engine: a value set is printed in the
    // style --dialect asks.
    let cfg = put(&dir, "game.cfg", b"[player]\nhp=3\n");
    let (ok, _, err) = run(&[
        "set",
        &cfg,
        "player/pos",
        "Vector2(1, 2)",
        "--dialect",
        "godot3",
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(&cfg).unwrap(),
        "[player]\nhp=3\npos=Vector2( 1, 2 )\n"
    );
}

#[test]
fn convert_encrypts_and_decrypts_config_files() {
    let dir = scratch("cfg");
    let plain = put(&dir, "game.cfg", &fixture("godot4", "game.cfg"));
    let enc = dir.join("game_enc.cfg").to_string_lossy().into_owned();
    let (ok, out, err) = run(&["convert", "--password", "pw", &plain, &enc]);
    assert!(ok, "{err}{out}");
    let bytes = std::fs::read(&enc).unwrap();
    assert_eq!(&bytes[..4], b"GDEC");
    let (cfg, _) = ConfigFile::from_encrypted(&bytes, &Key::password("pw")).unwrap();
    assert_eq!(
        cfg.to_string().as_bytes(),
        &fixture("godot4", "game.cfg")[..]
    );
    // The engine's own encrypted file, decrypted.
    let theirs = put(&dir, "save.bin", &fixture("godot4", "game_pass.cfg"));
    let out_plain = dir.join("save.cfg").to_string_lossy().into_owned();
    let (ok, _, err) = run(&["convert", "--password", "s3cret", &theirs, &out_plain]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&out_plain).unwrap(),
        fixture("godot4", "game.cfg")
    );
}

/// Issue 41 #8: `--to` compresses a binary resource or scene (`RSCC`) in each mode the
/// engines read (both engines load each, checked with 4.4.1 and 3.2.3), a compressed file
/// stays compressed in its mode, and a `--to` that does not apply is refused.
#[test]
fn convert_to_compresses_resources_and_scenes_in_each_mode() {
    use godot_bin_files::save::Compression;
    let dir = scratch("to");
    let tscn = put(&dir, "level.tscn", &fixture("godot4", "level.tscn"));
    let arg = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let plain_len = {
        let (ok, _, err) = run(&["convert", &tscn, &arg("plain.scn")]);
        assert!(ok, "{err}");
        std::fs::read(arg("plain.scn")).unwrap().len()
    };
    for (to, mode) in [
        ("zstd", Compression::Zstd),
        ("fastlz", Compression::FastLz),
        ("deflate", Compression::Deflate),
        ("gzip", Compression::Gzip),
    ] {
        let out = arg(&format!("level_{to}.scn"));
        let (ok, _, err) = run(&["convert", &tscn, &out, "--to", to]);
        assert!(ok, "{to}: {err}");
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..4], b"RSCC", "{to}");
        assert!(
            bytes.len() < plain_len,
            "{to}: {} >= {plain_len}",
            bytes.len()
        );
        let scn = BinaryResource::from_bytes(&bytes).unwrap();
        assert_eq!(scn.compression(), Some(mode), "{to}");
        // The same scene as the uncompressed one.
        let (_, a, _) = run(&["dump", &out]);
        let (_, b, _) = run(&["dump", &arg("plain.scn")]);
        assert_eq!(a, b, "{to}");
        // Binary to binary keeps the mode; --to plain drops it.
        let again = arg(&format!("again_{to}.scn"));
        let (ok, _, err) = run(&["convert", &out, &again]);
        assert!(ok, "{err}");
        assert_eq!(
            std::fs::read(&again).unwrap(),
            bytes,
            "{to}: written back as read"
        );
        let (ok, _, err) = run(&["convert", &out, &arg("unpacked.scn"), "--to", "plain"]);
        assert!(ok, "{err}");
        assert_eq!(&std::fs::read(arg("unpacked.scn")).unwrap()[..4], b"RSRC");
    }
    // The engine's compressed file, converted binary to binary: byte for byte.
    let theirs = put(&dir, "item_c.res", &fixture("godot4", "item_c.res"));
    let (ok, _, err) = run(&["convert", &theirs, &arg("item_c2.res")]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(arg("item_c2.res")).unwrap(),
        fixture("godot4", "item_c.res")
    );

    // What does not apply is refused, and nothing is written.
    for (input, output, to, says) in [
        (
            &tscn,
            "x.tscn",
            "zstd",
            "--to zstd does not apply to a text",
        ),
        (
            &theirs,
            "x.res",
            "encrypted",
            "--to encrypted does not apply to a resource",
        ),
    ] {
        let (ok, _, err) = run(&["convert", input, &arg(output), "--to", to]);
        assert!(!ok && err.contains(says), "{err}");
        assert!(!dir.join(output).exists());
    }
    let cfg = put(&dir, "game.cfg", &fixture("godot4", "game.cfg"));
    let (ok, _, err) = run(&["convert", &cfg, &arg("x.cfg"), "--to", "gzip"]);
    assert!(
        !ok && err.contains("does not apply to a ConfigFile"),
        "{err}"
    );
    assert!(!dir.join("x.cfg").exists());
}
