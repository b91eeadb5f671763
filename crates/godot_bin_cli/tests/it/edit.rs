//! `godot-bin get` and `set` (issue 39 #3), as a build script uses them: one value of a
//! scene, a resource, a ConfigFile or a save, read or changed, the rest of the file as it
//! was.

use crate::support::golden::{files_dir, resource_fixture as fixture};
use godot_bin::{Config, Dialect, Variant, Vector2};
use godot_bin_files::resource::{BinaryResource, ConfigFile, TextResource};
use godot_bin_files::save::{self, Container, Key, Layout, Reader};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_godot-bin");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("godot_bin-cli-edit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run godot-bin");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `args`, which must succeed; its stdout and stderr.
fn ok(args: &[&str]) -> (String, String) {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(0), "godot-bin {args:?}: {err}");
    (out, err)
}

/// Runs `args`, which must fail with status 1; its stderr.
fn refused(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, Some(1), "godot-bin {args:?} did not fail: {out}{err}");
    assert!(out.is_empty(), "{out}");
    err
}

fn put(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_string_lossy().into_owned()
}

/// The lines of `new` that differ from `old`'s, paired, when both have as many lines.
fn changed_lines(old: &[u8], new: &[u8]) -> Vec<(String, String)> {
    let (old, new) = (
        String::from_utf8_lossy(old).into_owned(),
        String::from_utf8_lossy(new).into_owned(),
    );
    assert_eq!(old.lines().count(), new.lines().count(), "{new}");
    old.lines()
        .zip(new.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (a.to_owned(), b.to_owned()))
        .collect()
}

#[test]
fn get_prints_a_scene_value_as_the_file_writes_it() {
    let dir = scratch("get_scene");
    let scene = put(&dir, "level.tscn", &fixture("godot4", "level.tscn"));
    for (target, text) in [
        ("Player:position", "Vector2(-3, 4.25)"),
        (
            "Player/Mark:transform",
            "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.2, 0.3)",
        ),
        // The root by `.` or by its name, a node below it with the root's name first.
        (".:metadata/difficulty", "3"),
        ("Level:metadata/difficulty", "3"),
        ("Level/Player:metadata/hp", "100"),
        ("Player:metadata/gear", "SubResource(\"Resource_pvdxo\")"),
        ("SubResource(\"Resource_pvdxo\"):hp", "150"),
        (
            "SubResource(\"Resource_pvdxo\"):metadata/note",
            "\"forged in\nthe north\"",
        ),
    ] {
        assert_eq!(
            ok(&["get", &scene, target]).0,
            format!("{text}\n"),
            "{target}"
        );
    }
    let (json, _) = ok(&["get", "--json", &scene, "Player:metadata/gear"]);
    assert_eq!(json, "{\"$SubResource\":\"Resource_pvdxo\"}\n");
    let (json, _) = ok(&["get", "--json", &scene, "Player:position"]);
    assert_eq!(json, "{\"$Vector2\":[-3.0,4.25]}\n");
    // A binary scene reads the same.
    let scn = put(&dir, "level.scn", &fixture("godot4", "level.scn"));
    assert_eq!(
        ok(&["get", &scn, "Player:position"]).0,
        "Vector2(-3, 4.25)\n"
    );
}

#[test]
fn set_changes_one_line_of_a_scene() {
    let dir = scratch("set_scene");
    let before = fixture("godot4", "level.tscn");
    let scene = put(&dir, "level.tscn", &before);
    let (out, err) = ok(&["set", &scene, "Player:position", "Vector2(1, 2)"]);
    assert_eq!(out, "");
    assert!(err.contains("Vector2(-3, 4.25) -> Vector2(1, 2)"), "{err}");
    assert!(err.contains("1 line changed"), "{err}");
    let after = std::fs::read(&scene).unwrap();
    assert_eq!(
        changed_lines(&before, &after),
        [(
            "position = Vector2(-3, 4.25)".to_owned(),
            "position = Vector2(1, 2)".to_owned()
        )]
    );
    let t = TextResource::from_bytes(&after).unwrap();
    assert_eq!(
        t.node("Player").unwrap().properties().get("position"),
        Some(&Variant::Vector2(Vector2::new(1.0, 2.0)))
    );
    // A negative number is a value, not an option, before or after the options.
    ok(&["set", &scene, "Player:metadata/hp", "-5"]);
    assert_eq!(ok(&["get", &scene, "Player:metadata/hp"]).0, "-5\n");
    ok(&["set", &scene, "Player:metadata/hp", "-6", "--json"]);
    assert_eq!(
        ok(&["get", "--json", &scene, "Player:metadata/hp"]).0,
        "-6\n"
    );
    // A value on standard input, for one too long for a command line.
    let mut child = Command::new(BIN)
        .args(["set", &scene, "Player:metadata/hp", "-"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"42\n").unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(ok(&["get", &scene, "Player:metadata/hp"]).0, "42\n");
    // A link to the file: the file changes, the link stays.
    #[cfg(unix)]
    {
        let link = dir.join("link.tscn");
        std::os::unix::fs::symlink(&scene, &link).unwrap();
        ok(&["set", link.to_str().unwrap(), "Player:metadata/hp", "43"]);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(ok(&["get", &scene, "Player:metadata/hp"]).0, "43\n");
    }
    // JSON in, and a reference in the file's own syntax.
    ok(&["set", "--json", &scene, "Player:metadata/hp", "120"]);
    ok(&[
        "set",
        &scene,
        "Player:metadata/gear",
        "SubResource(\"Resource_umpna\")",
    ]);
    let after = std::fs::read(&scene).unwrap();
    assert_eq!(
        changed_lines(&before, &after)[1..],
        [
            (
                "metadata/hp = 100".to_owned(),
                "metadata/hp = 120".to_owned()
            ),
            (
                "metadata/gear = SubResource(\"Resource_pvdxo\")".to_owned(),
                "metadata/gear = SubResource(\"Resource_umpna\")".to_owned()
            )
        ]
    );
}

#[test]
fn set_adds_a_property_at_its_default_and_says_so() {
    let dir = scratch("set_add");
    let before = fixture("godot4", "level.tscn");
    let scene = put(&dir, "level.tscn", &before);
    let (_, err) = ok(&["set", &scene, "Timer:autostart", "true"]);
    assert!(
        err.contains("added node \"Timer\" autostart = true"),
        "{err}"
    );
    let after = String::from_utf8(std::fs::read(&scene).unwrap()).unwrap();
    assert!(
        after.contains("one_shot = true\nautostart = true\n"),
        "{after}"
    );
    assert_eq!(after.lines().count(), before.split(|&b| b == b'\n').count());
    // `get` of a property that is not written says why it may be missing.
    let err = refused(&["get", &scene, "Player:rotation"]);
    assert!(err.contains("default value is not written"), "{err}");
    assert!(err.contains("\"position\", \"metadata/hp\""), "{err}");
}

#[test]
fn missing_and_ambiguous_targets_are_refused_with_what_exists() {
    let dir = scratch("refuse");
    let before = fixture("godot4", "level.tscn");
    let scene = put(&dir, "level.tscn", &before);
    let err = refused(&["set", &scene, "Nobody:position", "Vector2(1, 2)"]);
    assert!(
        err.contains(
            "no node \"Nobody\"; the nodes: \".\", \"Timer\", \"Player\", \"Player/Mark\""
        ),
        "{err}"
    );
    let err = refused(&["get", &scene, "position"]);
    assert!(err.contains("NODE:PROPERTY"), "{err}");
    let err = refused(&["set", &scene, "SubResource(\"nope\"):hp", "1"]);
    assert!(err.contains("the sub-resources: \"Curve_7yiu2\""), "{err}");
    // A reference the file does not hold, and a value that is not the text form.
    let err = refused(&[
        "set",
        &scene,
        "Player:metadata/gear",
        "SubResource(\"nope\")",
    ]);
    assert!(err.contains("nothing changed"), "{err}");
    let err = refused(&["set", &scene, "Player:metadata/hp", "lots"]);
    assert!(err.contains("hint: a String is quoted"), "{err}");
    assert_eq!(
        std::fs::read(&scene).unwrap(),
        before,
        "the file is untouched"
    );

    // A scene that holds one node twice (as some real ones do).
    let twice = put(
        &dir,
        "twice.tscn",
        b"[gd_scene format=3]\n\n[node name=\"Root\" type=\"Node\"]\n\n[node name=\"A\" type=\"Node\" parent=\".\"]\nprocess_priority = 1\n\n[node name=\"A\" type=\"Node\" parent=\".\"]\nprocess_priority = 2\n",
    );
    let err = refused(&["set", &twice, "A:process_priority", "3"]);
    assert!(
        err.contains("2 sections are node \"A\": the 3rd and 4th sections of the file"),
        "{err}"
    );
    // A ConfigFile whose sections `a` and `a/b` both hold what `a/b/c` could name.
    let cfg = put(&dir, "x.cfg", b"[a]\n\nb/c=1\n\n[a/b]\n\nc=2\n");
    let err = refused(&["get", &cfg, "a/b/c"]);
    assert!(
        err.contains("ambiguous: [a] \"b/c\" or [a/b] \"c\""),
        "{err}"
    );
    // A key with '/' before the first section, and one in a section.
    let top = put(&dir, "top.cfg", b"a/b=1\n\n[a]\n\nc=2\n");
    assert_eq!(ok(&["get", &top, "a/b"]).0, "1\n");
    assert_eq!(ok(&["get", &top, "a/c"]).0, "2\n");
    // A new key goes to the section WHERE names; a new key without '/' before the first.
    ok(&["set", &top, "a/d", "3"]);
    ok(&["set", &top, "e", "4"]);
    let text = String::from_utf8(std::fs::read(&top).unwrap()).unwrap();
    assert_eq!(text, "a/b=1\ne=4\n\n[a]\n\nc=2\nd=3\n");
    let err = refused(&["set", &cfg, "nope/c", "1"]);
    assert!(
        err.contains("no section for \"nope/c\"; the sections: \"a\", \"a/b\""),
        "{err}"
    );
    let err = refused(&["get", &cfg, "a/d"]);
    assert!(
        err.contains("[a] has no key \"d\"; its keys: \"b/c\""),
        "{err}"
    );
}

#[test]
fn get_and_set_a_resource_and_its_sub_resources() {
    let dir = scratch("tres");
    let before = fixture("godot4", "item.tres");
    let tres = put(&dir, "item.tres", &before);
    assert_eq!(ok(&["get", &tres, "hp"]).0, "150\n");
    ok(&["set", &tres, "hp", "151"]);
    let after = std::fs::read(&tres).unwrap();
    assert_eq!(
        changed_lines(&before, &after),
        [("hp = 150".to_owned(), "hp = 151".to_owned())]
    );
    let text = TextResource::from_bytes(&after).unwrap();
    let sub = text.sub_resources().next().unwrap().id().unwrap();
    let first = text.sub_resources().next().unwrap();
    let (name, _) = first
        .properties()
        .iter()
        .map(|p| (p.name().to_owned(), p.value().clone()))
        .next()
        .unwrap();
    let target = format!("SubResource(\"{sub}\"):{name}");
    ok(&["set", "--json", &tres, &target, "\"changed\""]);
    assert_eq!(ok(&["get", &tres, &target]).0, "\"changed\"\n");
}

#[test]
fn set_writes_a_binary_resource_again_in_its_form() {
    let dir = scratch("res");
    for name in ["item.res", "item_c.res"] {
        for engine in ["godot4", "godot3"] {
            let before = BinaryResource::from_bytes(&fixture(engine, name)).unwrap();
            let res = put(&dir, name, &fixture(engine, name));
            let (_, err) = ok(&["set", &res, "hp", "7"]);
            assert!(err.contains("150 -> 7"), "{engine}/{name}: {err}");
            let after = BinaryResource::from_bytes(&std::fs::read(&res).unwrap()).unwrap();
            assert_eq!(
                after.resource().properties().get("hp"),
                Some(&Variant::Int(7))
            );
            // Same engine, format and compression; every other property as it was.
            assert_eq!(after.header(), before.header(), "{engine}/{name}");
            assert_eq!(after.compression(), before.compression(), "{engine}/{name}");
            for p in before.resource().properties().iter() {
                if p.name() != "hp" {
                    assert_eq!(
                        after.resource().properties().get(p.name()),
                        Some(p.value()),
                        "{}",
                        p.name()
                    );
                }
            }
            assert_eq!(ok(&["get", &res, "hp"]).0, "7\n");
        }
    }
}

#[test]
fn get_and_set_config_files_plain_and_encrypted() {
    let dir = scratch("cfg");
    let data = crate::configs::data("godot4");
    let before = std::fs::read(data.join("project.godot")).unwrap();
    let project = put(&dir, "project.godot", &before);
    assert_eq!(
        ok(&["get", &project, "application/config/name"]).0,
        "\"Fixture\"\n"
    );
    assert_eq!(ok(&["get", &project, "config_version"]).0, "5\n");
    ok(&["set", &project, "application/config/name", "\"Shipped\""]);
    assert_eq!(
        changed_lines(&before, &std::fs::read(&project).unwrap()),
        [(
            "config/name=\"Fixture\"".to_owned(),
            "config/name=\"Shipped\"".to_owned()
        )]
    );
    // A new key of a section, in a file with keys before its first section.
    let (_, err) = ok(&[
        "set",
        &project,
        "display/window/size/viewport_height",
        "480",
    ]);
    assert!(
        err.contains("added [display] window/size/viewport_height = 480"),
        "{err}"
    );
    // The .import file beside an asset: a key with '/' in its name.
    let import = put(
        &dir,
        "icon.svg.import",
        &std::fs::read(data.join("icon.svg.import")).unwrap(),
    );
    assert_eq!(
        ok(&["get", &import, "params/compress/lossy_quality"]).0,
        "0.7\n"
    );
    ok(&["set", &import, "params/compress/lossy_quality", "0.9"]);
    let cfg = ConfigFile::from_bytes(&std::fs::read(&import).unwrap()).unwrap();
    assert_eq!(
        cfg.get("params", "compress/lossy_quality"),
        Some(&Variant::Float(0.9))
    );

    // An encrypted one keeps its key and layout.
    let enc = put(
        &dir,
        "icon_pass.svg.import",
        &std::fs::read(data.join("icon_pass.svg.import")).unwrap(),
    );
    let err = refused(&["get", &enc, "remap/type"]);
    assert!(err.contains("--password"), "{err}");
    ok(&[
        "set",
        "--password",
        "s3cret",
        &enc,
        "remap/type",
        "\"Texture2D\"",
    ]);
    let (cfg, layout) =
        ConfigFile::from_encrypted(&std::fs::read(&enc).unwrap(), &Key::password("s3cret"))
            .unwrap();
    assert!(matches!(layout, Layout::Godot4 { .. }));
    assert_eq!(cfg.get("remap", "type"), Some(&Variant::from("Texture2D")));
    assert_eq!(
        cfg.get("remap", "importer"),
        Some(&Variant::from("texture"))
    );
    assert_eq!(
        ok(&["get", "--password", "s3cret", &enc, "remap/type"]).0,
        "\"Texture2D\"\n"
    );
}

/// The store_var frames of a save's content.
fn frames(content: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(len) = rest.get(..4) {
        let len = u32::from_le_bytes(len.try_into().unwrap()) as usize;
        out.push(&rest[4..4 + len]);
        rest = &rest[4 + len..];
    }
    out
}

#[test]
fn get_and_set_in_saves_plain_encrypted_and_compressed() {
    let dir = scratch("saves");
    let files = files_dir();
    let key = Key::password("s3cret");
    // The engine's three store_var calls: 1, "two", [3, Vector2(4, 5)].
    for (engine, dialect) in [("godot4", Dialect::Godot4), ("godot3", Dialect::Godot3)] {
        let d = &["--dialect", dialect.id()];
        for form in ["plain", "pass", "zstd", "deflate", "fastlz", "gzip"] {
            let tag = format!("{engine}/{form}");
            let prefix = if engine == "godot4" { "g4" } else { "g3" };
            let source = if form == "plain" {
                files.join(format!("{engine}/{prefix}_multi_pass.plain"))
            } else {
                files.join(format!("{engine}/{prefix}_multi_{form}.bin"))
            };
            let save = put(
                &dir,
                &format!("{prefix}_{form}.sav"),
                &std::fs::read(&source).unwrap(),
            );
            let mut args = vec!["get", &save, "2.1"];
            args.extend(d);
            if form == "pass" {
                args.extend(["--password", "s3cret"]);
            }
            let expect = if engine == "godot4" {
                "Vector2(4, 5)\n"
            } else {
                "Vector2( 4, 5 )\n"
            };
            assert_eq!(ok(&args).0, expect, "{tag}");
            args[0] = "set";
            args.insert(3, "Vector2(9, 8)");
            let (_, err) = ok(&args);
            assert!(err.contains("-> Vector2("), "{tag}: {err}");

            let bytes = std::fs::read(&save).unwrap();
            let cfg = Config::new(dialect);
            let reader = if form == "pass" {
                Reader::with_key(&bytes[..], &key, &cfg).unwrap()
            } else {
                Reader::new(&bytes[..], &cfg).unwrap()
            };
            // The container as it was read.
            match (form, reader.container()) {
                ("plain", Container::Plain) | ("pass", Container::Encrypted { .. }) => {}
                (_, Container::Compressed { compression, .. }) => {
                    assert_eq!(compression.to_string().to_lowercase(), form, "{tag}")
                }
                (_, other) => panic!("{tag}: {other}"),
            }
            let content = match form {
                "plain" => bytes.clone(),
                "pass" => save::decrypt(&bytes, &key).unwrap(),
                _ => save::decompress(&bytes).unwrap(),
            };
            let original = std::fs::read(&source).unwrap();
            let original = match form {
                "plain" => original,
                "pass" => save::decrypt(&original, &key).unwrap(),
                _ => save::decompress(&original).unwrap(),
            };
            // The other frames byte for byte; the changed one decodes to the new value.
            let (old, new) = (frames(&original), frames(&content));
            assert_eq!(old.len(), 3, "{tag}");
            assert_eq!(old[..2], new[..2], "{tag}");
            let v: Variant = cfg.from_slice(new[2]).unwrap();
            assert_eq!(v[1], Variant::Vector2(Vector2::new(9.0, 8.0)), "{tag}");
            assert_eq!(v[0], Variant::Int(3), "{tag}");
        }
    }
}

#[test]
fn set_in_a_save_adds_a_key_to_a_dictionary_and_refuses_what_is_not_there() {
    let dir = scratch("save_dict");
    // store_var({"level": 3}) then store_var(1234.5), Godot 4.
    let mut content = Vec::new();
    for v in [
        Variant::Dictionary(godot_bin::Dictionary::from_iter([("level", 3)])),
        Variant::Float(1234.5),
    ] {
        let packet = godot_bin::to_vec(&v).unwrap();
        content.extend((packet.len() as u32).to_le_bytes());
        content.extend(packet);
    }
    let save = put(&dir, "save.dat", &content);
    assert_eq!(ok(&["get", &save, "0.level"]).0, "3\n");
    ok(&["set", &save, "0.level", "4"]);
    let (_, err) = ok(&["set", &save, "0.\"zone.name\"", "\"cave\""]);
    assert!(
        err.contains("added value 0.\"zone.name\" = \"cave\""),
        "{err}"
    );
    assert_eq!(
        ok(&["get", "--json", &save, "0"]).0,
        "{\"level\":4,\"zone.name\":\"cave\"}\n"
    );
    assert_eq!(ok(&["get", &save, "1"]).0, "1234.5\n");
    let err = refused(&["get", &save, "2"]);
    assert!(err.contains("the file holds 2 value(s), 0 to 1"), "{err}");
    let err = refused(&["set", &save, "0.hp.max", "1"]);
    assert!(
        err.contains("value 0 has no key \"hp\"; its keys: \"level\", \"zone.name\""),
        "{err}"
    );
    let err = refused(&["set", &save, "1.x", "1"]);
    assert!(
        err.contains("value 1 is float, not a Dictionary or an Array"),
        "{err}"
    );
}

#[test]
fn set_rebuilds_a_binary_scene_from_its_text_in_its_own_form() {
    let dir = scratch("scn");
    for engine in ["godot4", "godot3"] {
        for name in ["level.scn", "level_c.scn"] {
            let tag = format!("{engine}/{name}");
            let before = BinaryResource::from_bytes(&fixture(engine, name)).unwrap();
            let scn = put(&dir, name, &fixture(engine, name));
            let (text_before, _) = ok(&["dump", &scn]);
            let (_, err) = ok(&["set", &scn, "Player:position", "Vector2(1, 2)"]);
            assert!(
                err.contains("rebuilt from its text, where 1 line changed"),
                "{tag}: {err}"
            );
            let after = BinaryResource::from_bytes(&std::fs::read(&scn).unwrap()).unwrap();
            // The same engine, format and compression...
            assert_eq!(after.compression(), before.compression(), "{tag}");
            assert_eq!(after.header().version, before.header().version, "{tag}");
            assert_eq!(after.header().format, before.header().format, "{tag}");
            // ...and the same scene but for that one value.
            let (text_after, _) = ok(&["dump", &scn]);
            let changed = changed_lines(text_before.as_bytes(), text_after.as_bytes());
            assert_eq!(changed.len(), 1, "{tag}: {changed:?}");
            // (Godot 3 spaces its parentheses.)
            assert_eq!(
                changed[0].1.replace(' ', ""),
                "position=Vector2(1,2)",
                "{tag}"
            );
        }
    }
}

#[test]
fn help_names_every_form_the_tool_reads() {
    let (help, _) = ok(&["--help"]);
    for form in [
        "var_to_bytes",
        "store_var",
        ".tsv",
        "GDEC",
        "GCPF",
        ".tres",
        ".res",
        ".tscn",
        ".scn",
        "RSCC",
        "project.godot",
        "override.cfg",
        "export_presets.cfg",
        ".import",
        ".remap",
        ".gdextension",
        "save_encrypted_pass",
        "get ",
        "set ",
    ] {
        assert!(help.contains(form), "--help does not name {form}:\n{help}");
    }
}

/// Every text scene and resource of the corpus of public projects at `$GODOT_BIN_CORPUS`
/// (not in the repository): `get` of a property of each node or section prints it, `set`
/// of that same text leaves the file byte for byte, and `set` of an int property to
/// another int changes one line. Run with `--ignored` where the corpus is.
#[test]
#[ignore = "reads the corpus of public projects at $GODOT_BIN_CORPUS"]
fn get_and_set_on_every_text_scene_and_resource_of_the_corpus() {
    let Some(root) = std::env::var_os("GODOT_BIN_CORPUS") else {
        panic!("GODOT_BIN_CORPUS is not set: it names the corpus of public Godot projects");
    };
    let dir = scratch("corpus");
    let mut stack = vec![PathBuf::from(root)];
    let (mut files, mut gets, mut same, mut ints, mut refused) = (0, 0, 0, 0, Vec::new());
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
            if !matches!(ext.as_deref(), Some("tscn" | "tres")) {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let Ok(t) = TextResource::from_bytes(&bytes) else {
                continue;
            };
            files += 1;
            let copy = put(&dir, &format!("f.{}", ext.unwrap()), &bytes);
            let mut targets = Vec::new();
            for s in t.sections() {
                let Some(p) = s.properties().iter().next() else {
                    continue;
                };
                let at = match s.tag() {
                    "node" => format!(
                        "{}:{}",
                        TextResource::node_path(s).unwrap_or_default(),
                        p.name()
                    ),
                    "sub_resource" => format!(
                        "SubResource(\"{}\"):{}",
                        s.id().unwrap_or_default(),
                        p.name()
                    ),
                    "resource" => p.name().to_owned(),
                    _ => continue,
                };
                targets.push((at, p.value().clone()));
                if targets.len() == 4 {
                    break;
                }
            }
            for (at, value) in targets {
                let (code, text, err) = run(&["get", &copy, &at]);
                if code != Some(0) {
                    refused.push(format!("{}: get {at}: {err}", path.display()));
                    continue;
                }
                gets += 1;
                // Through standard input: some values are too long for a command line.
                let out = {
                    use std::io::Write;
                    let mut child = Command::new(BIN)
                        .args(["set", &copy, &at, "-"])
                        .stdin(std::process::Stdio::piped())
                        .stdout(std::process::Stdio::piped())
                        .stderr(std::process::Stdio::piped())
                        .spawn()
                        .unwrap();
                    child
                        .stdin
                        .take()
                        .unwrap()
                        .write_all(text.as_bytes())
                        .unwrap();
                    child.wait_with_output().unwrap()
                };
                let (code, err) = (out.status.code(), String::from_utf8_lossy(&out.stderr));
                assert_eq!(code, Some(0), "{}: set {at}: {err}", path.display());
                assert_eq!(
                    std::fs::read(&copy).unwrap(),
                    bytes,
                    "{}: set {at} to itself",
                    path.display()
                );
                same += 1;
                if let Variant::Int(n) = value {
                    let next = n.wrapping_add(1).to_string();
                    let (code, _, err) = run(&["set", &copy, &at, &next]);
                    assert_eq!(code, Some(0), "{}: {err}", path.display());
                    let changed = changed_lines(&bytes, &std::fs::read(&copy).unwrap());
                    assert_eq!(changed.len(), 1, "{}: {at}: {changed:?}", path.display());
                    std::fs::write(&copy, &bytes).unwrap();
                    ints += 1;
                }
            }
        }
    }
    eprintln!(
        "{files} files: {gets} gets, {same} sets to the same text (file unchanged), {ints} \
         int sets (one line); refused: {refused:#?}"
    );
    assert!(files > 0);
}

#[test]
fn set_of_the_value_already_there_writes_nothing() {
    let dir = scratch("same");
    let before = fixture("godot4", "level.tscn");
    let scene = put(&dir, "level.tscn", &before);
    let (_, err) = ok(&["set", &scene, "Player:position", "Vector2(-3, 4.25)"]);
    assert!(
        err.contains("node \"Player\" position is already Vector2(-3, 4.25); nothing changed"),
        "{err}"
    );
    assert_eq!(std::fs::read(&scene).unwrap(), before);
    // With --output the copy is the file as it was, byte for byte.
    let copy = dir.join("copy.tscn");
    ok(&[
        "set",
        &scene,
        "Player:position",
        "Vector2(-3, 4.25)",
        "-o",
        copy.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&copy).unwrap(), before);
    // A compressed binary resource is not written again either.
    let res = put(&dir, "item_c.res", &fixture("godot4", "item_c.res"));
    let (_, err) = ok(&["set", &res, "hp", "150"]);
    assert!(err.contains("is already 150"), "{err}");
    assert_eq!(
        std::fs::read(&res).unwrap(),
        fixture("godot4", "item_c.res")
    );
}

#[test]
fn get_says_when_the_text_form_does_not_give_the_value_back() {
    let dir = scratch("inexact");
    // store_var({"b": 1, "a": 2}): the text form sorts the keys, as the engine's does.
    let v = Variant::Dictionary(godot_bin::Dictionary::from_iter([("b", 1), ("a", 2)]));
    let packet = godot_bin::to_vec(&v).unwrap();
    let mut content = (packet.len() as u32).to_le_bytes().to_vec();
    content.extend(packet);
    let save = put(&dir, "save.dat", &content);
    let (text, err) = ok(&["get", &save, "0"]);
    assert_eq!(text, "{\n\"a\": 2,\n\"b\": 1\n}\n");
    assert!(
        err.contains("does not give this value back exactly"),
        "{err}"
    );
    let (json, err) = ok(&["get", "--json", &save, "0"]);
    assert_eq!(json, "{\"b\":1,\"a\":2}\n");
    assert_eq!(err, "");
    // JSON back in is the same value, in its order: nothing changes.
    let (_, err) = ok(&["set", "--json", &save, "0", "{\"b\":1,\"a\":2}"]);
    assert!(err.contains("nothing changed"), "{err}");
    assert_eq!(std::fs::read(&save).unwrap(), content);
}

#[test]
fn set_in_bare_packets_keeps_them_bare() {
    let dir = scratch("bare");
    // var_to_bytes(Vector3(1, 2, 3)) then var_to_bytes("x"), back to back.
    let mut bytes = godot_bin::to_vec(&godot_bin::Vector3::new(1.0, 2.0, 3.0)).unwrap();
    let second = godot_bin::to_vec("x").unwrap();
    bytes.extend(&second);
    let file = put(&dir, "p.bin", &bytes);
    let (_, err) = ok(&["set", &file, "0", "Vector3(4, 5, 6)"]);
    assert!(
        err.contains("packet 0 written again, the rest as it was"),
        "{err}"
    );
    let after = std::fs::read(&file).unwrap();
    let mut expect = godot_bin::to_vec(&godot_bin::Vector3::new(4.0, 5.0, 6.0)).unwrap();
    expect.extend(&second);
    assert_eq!(after, expect);
    let err = refused(&["set", &file, "0.x", "1"]);
    assert!(
        err.contains("value 0 is Vector3, not a Dictionary or an Array"),
        "{err}"
    );
}
