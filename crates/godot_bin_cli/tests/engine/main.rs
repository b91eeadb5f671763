//! The CLI's tests that run a real engine: what `godot-bin set` and `convert --to` write,
//! the engine loads, with the value that was set. One binary with its own harness
//! (libtest-mimic): a trial whose engine is absent is reported *ignored* with the reason,
//! never passed, and fails under `GODOT_BIN_REQUIRE_ENGINE=1`. Engines are found through
//! `GODOT4_BIN` and `GODOT3_BIN` (else `godot3-server` on `PATH`).

use godot_bin_testkit as support;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::godot::run_script;
use support::golden::{files_dir, resource_fixture};

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let trials = vec![
        support::engine::godot4_trial("cli::what_set_and_to_write_godot4_loads", |e| {
            let files = prepare("godot4");
            let inputs: Vec<(&str, &[u8])> =
                files.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
            let run = run_script(e, GODOT4_BODY, &inputs);
            run.assert_ok();
            check(&run.lines_with_prefix("CLI:"), GODOT4_EXPECT);
        }),
        support::engine::godot3_trial("cli::what_set_and_to_write_godot3_loads", |e| {
            let files = prepare("godot3");
            let inputs: Vec<(&str, &[u8])> =
                files.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
            let run = run_script(e, GODOT3_BODY, &inputs);
            run.assert_ok();
            check(&run.lines_with_prefix("CLI:"), GODOT3_EXPECT);
        }),
        support::engine::godot4_trial(
            "cli::set_on_a_save_keeps_a_typed_array_godot4",
            typed_array_in_a_save,
        ),
    ];
    if !args.list {
        eprintln!("engine tests: {}", support::engine::summary());
    }
    libtest_mimic::run(&args, trials).exit();
}

fn check(lines: &[String], expect: &[&str]) {
    assert_eq!(lines, expect, "what the engine loaded");
}

/// Runs the CLI, which must succeed.
fn cli(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_godot-bin"))
        .args(args)
        .output()
        .expect("run godot-bin");
    assert!(
        out.status.success(),
        "godot-bin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The engine's own files, changed by the CLI: (name in the run directory, bytes).
fn prepare(engine: &str) -> Vec<(String, Vec<u8>)> {
    let dir = std::env::temp_dir().join(format!(
        "godot_bin-cli-engine-{}-{engine}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join(engine)).unwrap();
    let p = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).unwrap();
    let prefix = if engine == "godot4" { "g4" } else { "g3" };
    let script = if engine == "godot4" {
        "item.gd"
    } else {
        "item3.gd"
    };
    // What the scenes and resources refer to.
    for name in ["icon.tres", "enemy.tscn"] {
        put(&format!("{engine}/{name}"), &resource_fixture(engine, name));
    }
    put(script, &resource_fixture("", script));

    // A text scene, and a binary one rebuilt from its text.
    put("lt.tscn", &resource_fixture(engine, "level.tscn"));
    cli(&["set", &p("lt.tscn"), "Player:position", "Vector2(1, 2)"]);
    cli(&["set", &p("lt.tscn"), "Timer:autostart", "true"]);
    put("lc.scn", &resource_fixture(engine, "level_c.scn"));
    cli(&["set", &p("lc.scn"), "Timer:wait_time", "2.5"]);
    // A compressed binary resource, edited in place.
    put("ic.res", &resource_fixture(engine, "item_c.res"));
    cli(&["set", &p("ic.res"), "hp", "77"]);
    // An encrypted .import file.
    let cfg = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("tests/data/{engine}/icon_pass.svg.import"));
    put("enc.cfg", &std::fs::read(cfg).unwrap());
    cli(&[
        "set",
        "--password",
        "s3cret",
        &p("enc.cfg"),
        "params/compress/lossy_quality",
        "0.25",
    ]);
    // Saves: encrypted and compressed, the engine's three store_var values.
    let saves = files_dir().join(engine);
    put(
        "s.sav",
        &std::fs::read(saves.join(format!("{prefix}_multi_pass.bin"))).unwrap(),
    );
    cli(&[
        "set",
        "--password",
        "s3cret",
        &p("s.sav"),
        "2.1",
        "Vector2(9, 8)",
    ]);
    put(
        "z.sav",
        &std::fs::read(saves.join(format!("{prefix}_multi_zstd.bin"))).unwrap(),
    );
    let dialect = if engine == "godot4" {
        "godot4"
    } else {
        "godot3"
    };
    cli(&["set", "--dialect", dialect, &p("z.sav"), "1", "\"three\""]);
    // RSCC in each mode --to writes.
    for mode in ["fastlz", "deflate", "zstd", "gzip"] {
        cli(&[
            "convert",
            &p("lt.tscn"),
            &p(&format!("l_{mode}.scn")),
            "--to",
            mode,
        ]);
    }

    let mut out = Vec::new();
    collect(&dir, &dir, &mut out);
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(root, &path, out);
        } else {
            let name = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((name, std::fs::read(&path).unwrap()));
        }
    }
}

const GODOT4_BODY: &str = r#"
var lt = ResourceLoader.load("res://lt.tscn", "", ResourceLoader.CACHE_MODE_IGNORE).instantiate()
print("CLI:lt.tscn ", lt.get_node("Player").position, " ", lt.get_node("Timer").autostart)
var lc = ResourceLoader.load("res://lc.scn", "", ResourceLoader.CACHE_MODE_IGNORE).instantiate()
print("CLI:lc.scn ", lc.get_node("Timer").wait_time, " ", lc.get_node("Player").position, " ", lc.get_child_count())
var ic = ResourceLoader.load("res://ic.res", "", ResourceLoader.CACHE_MODE_IGNORE)
print("CLI:ic.res ", ic.get("hp"), " ", ic.get("name"))
var c = ConfigFile.new()
var err = c.load_encrypted_pass("res://enc.cfg", "s3cret")
print("CLI:enc.cfg ", err, " ", c.get_value("params", "compress/lossy_quality"), " ", c.get_value("remap", "type"))
var s = FileAccess.open_encrypted_with_pass("res://s.sav", FileAccess.READ, "s3cret")
print("CLI:s.sav ", s.get_var(), " ", s.get_var(), " ", s.get_var())
var z = FileAccess.open_compressed("res://z.sav", FileAccess.READ, FileAccess.COMPRESSION_ZSTD)
print("CLI:z.sav ", z.get_var(), " ", z.get_var(), " ", z.get_var())
for mode in ["fastlz", "deflate", "zstd", "gzip"]:
	var l = ResourceLoader.load("res://l_%s.scn" % mode, "", ResourceLoader.CACHE_MODE_IGNORE).instantiate()
	print("CLI:l_%s.scn " % mode, l.get_node("Player").position, " ", l.get_child_count())
"#;

const GODOT4_EXPECT: &[&str] = &[
    "lt.tscn (1.0, 2.0) true",
    "lc.scn 2.5 (-3.0, 4.25) 3",
    "ic.res 77 Sword of \"Truth\"",
    "enc.cfg 0 0.25 CompressedTexture2D",
    "s.sav 1 two [3, (9.0, 8.0)]",
    "z.sav 1 three [3, (4.0, 5.0)]",
    "l_fastlz.scn (1.0, 2.0) 3",
    "l_deflate.scn (1.0, 2.0) 3",
    "l_zstd.scn (1.0, 2.0) 3",
    "l_gzip.scn (1.0, 2.0) 3",
];

const GODOT3_BODY: &str = r#"
var lt = ResourceLoader.load("res://lt.tscn", "", true).instance()
print("CLI:lt.tscn ", lt.get_node("Player").position, " ", lt.get_node("Timer").autostart)
var lc = ResourceLoader.load("res://lc.scn", "", true).instance()
print("CLI:lc.scn ", lc.get_node("Timer").wait_time, " ", lc.get_node("Player").position, " ", lc.get_child_count())
var ic = ResourceLoader.load("res://ic.res", "", true)
print("CLI:ic.res ", ic.get("hp"), " ", ic.get("name"))
var c = ConfigFile.new()
var err = c.load_encrypted_pass("res://enc.cfg", "s3cret")
print("CLI:enc.cfg ", err, " ", c.get_value("params", "compress/lossy_quality"), " ", c.get_value("remap", "type"))
var s = File.new()
s.open_encrypted_with_pass("res://s.sav", File.READ, "s3cret")
print("CLI:s.sav ", s.get_var(), " ", s.get_var(), " ", s.get_var())
var z = File.new()
z.open_compressed("res://z.sav", File.READ, File.COMPRESSION_ZSTD)
print("CLI:z.sav ", z.get_var(), " ", z.get_var(), " ", z.get_var())
for mode in ["fastlz", "deflate", "zstd", "gzip"]:
	var l = ResourceLoader.load("res://l_%s.scn" % mode, "", true).instance()
	print("CLI:l_%s.scn " % mode, l.get_node("Player").position, " ", l.get_child_count())
"#;

const GODOT3_EXPECT: &[&str] = &[
    "lt.tscn (1, 2) True",
    "lc.scn 2.5 (-3, 4.25) 3",
    "ic.res 77 Sword of \"Truth\"",
    "enc.cfg 0 0.25 StreamTexture",
    "s.sav 1 two [3, (9, 8)]",
    "z.sav 1 three [3, (4, 5)]",
    "l_fastlz.scn (1, 2) 3",
    "l_deflate.scn (1, 2) 3",
    "l_zstd.scn (1, 2) 3",
    "l_gzip.scn (1, 2) 3",
];

/// Issue 49 #2: `set` on a save replaced a typed Array with an untyped one, which a game
/// that reads it into `var items: Array[StringName]` refuses with a script error. The
/// engine writes the save (zstd, as `open_compressed` does), the CLI sets the typed array
/// from an untyped literal, and the engine assigns what it reads to typed variables.
fn typed_array_in_a_save(e: &support::godot4::Godot4) {
    const WRITE: &str = r#"
var items: Array[StringName] = [&"x", &"y"]
var ids: Array[int] = [1, 2]
var f = FileAccess.open_compressed("res://t.sav", FileAccess.WRITE, FileAccess.COMPRESSION_ZSTD)
f.store_var({"items": items, "ids": ids})
f.close()
"#;
    let made = run_script(e, WRITE, &[]);
    made.assert_ok();
    let dir = std::env::temp_dir().join(format!("godot_bin-cli-typed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("t.sav");
    std::fs::write(&save, made.read_file("t.sav")).unwrap();
    let path = save.to_string_lossy().into_owned();
    cli(&["set", &path, "0.items", "[&\"a\"]"]);
    cli(&["set", &path, "0.ids", "[7, 8, 9]"]);
    let bytes = std::fs::read(&save).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    const READ: &str = r#"
var z = FileAccess.open_compressed("res://t.sav", FileAccess.READ, FileAccess.COMPRESSION_ZSTD)
var d = z.get_var()
var items: Array[StringName] = d.items
var ids: Array[int] = d.ids
print("CLI:items ", items, " ", d.items.is_typed(), " ", d.items.get_typed_builtin() == TYPE_STRING_NAME)
print("CLI:ids ", ids, " ", d.ids.is_typed(), " ", d.ids.get_typed_builtin() == TYPE_INT)
"#;
    let run = run_script(e, READ, &[("t.sav", &bytes)]);
    run.assert_ok();
    assert!(
        run.script_errors().is_empty(),
        "the engine refused what the CLI wrote: {:?}",
        run.script_errors()
    );
    check(
        &run.lines_with_prefix("CLI:"),
        &["items [&\"a\"] true true", "ids [7, 8, 9] true true"],
    );
}
