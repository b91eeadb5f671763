//! ConfigFiles by every name the engines write (issue 41 #12): `.import` beside every
//! asset, `.remap`, `export_presets.cfg`, `plugin.cfg`, `.gdextension` / `.gdnlib`,
//! `override.cfg`, `project.godot`, plain or encrypted; the fixtures are the engines'
//! (`tests/data/README.md`).

use godot_bin_files::resource::ConfigFile;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_godot-bin");

/// The CLI's own engine-made fixtures: `tests/data/<engine>/`.
pub fn data(engine: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(engine)
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

/// Every plain fixture of `engine`.
fn plain_fixtures(engine: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data(engine))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().contains("_pass"))
        .collect();
    files.sort();
    files
}

#[test]
fn dump_reads_a_config_file_by_every_name_the_engines_write() {
    for (engine, count) in [("godot4", 7), ("godot3", 6)] {
        let files = plain_fixtures(engine);
        assert_eq!(files.len(), count, "{engine}: {files:?}");
        for path in files {
            let arg = path.to_str().unwrap();
            let (ok, out, err) = run(&["dump", arg]);
            assert!(ok, "{arg}: {err}");
            // The file's text, as the engine wrote it, and nothing said about it.
            assert_eq!(out.as_bytes(), std::fs::read(&path).unwrap(), "{arg}");
            assert_eq!(err, "", "{arg}");
            let (ok, out, err) = run(&["dump", "--json", arg]);
            assert!(ok, "{arg}: {err}");
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(doc["form"], "ConfigFile", "{arg}");
        }
    }
}

#[test]
fn dump_reads_an_import_file_as_the_user_had_it() {
    let path = data("godot4").join("icon.svg.import");
    let (ok, out, err) = run(&["dump", "--json", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["sections"]["remap"]["type"], "CompressedTexture2D");
    assert_eq!(doc["sections"]["params"]["compress/lossy_quality"], 0.7);
    assert_eq!(doc["sections"]["params"]["mipmaps/limit"], -1);
}

#[test]
fn dump_reads_an_encrypted_import_file_with_its_password() {
    for engine in ["godot4", "godot3"] {
        let path = data(engine).join("icon_pass.svg.import");
        let arg = path.to_str().unwrap();
        let (ok, out, err) = run(&["dump", "--password", "s3cret", arg]);
        assert!(ok, "{engine}: {err}");
        assert_eq!(
            out.as_bytes(),
            std::fs::read(data(engine).join("icon.svg.import")).unwrap(),
            "{engine}"
        );
        let (ok, _, err) = run(&["dump", "--password", "wrong", arg]);
        assert!(
            !ok && err.contains("wrong key or password"),
            "{engine}: {err}"
        );
    }
}

#[test]
fn dump_reads_a_config_file_by_its_content_whatever_its_name() {
    let dir = std::env::temp_dir().join(format!("godot_bin-cli-cfgname-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = std::fs::read(data("godot4").join("export_presets.cfg")).unwrap();
    let path = dir.join("presets.txt");
    std::fs::write(&path, &bytes).unwrap();
    let (ok, out, err) = run(&["dump", path.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert_eq!(out.as_bytes(), &bytes[..]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every `.import`, `.cfg`, `.remap` and `project.godot` of the corpus of public projects
/// at `$GODOT_BIN_CORPUS` (not in the repository) that is a ConfigFile dumps as its own
/// text, and `set` of each section's first key to its own text leaves it byte for byte.
/// Run with `--ignored` where the corpus is.
#[test]
#[ignore = "reads the corpus of public projects at $GODOT_BIN_CORPUS"]
fn dump_reads_every_config_file_of_the_corpus() {
    let Some(root) = std::env::var_os("GODOT_BIN_CORPUS") else {
        panic!("GODOT_BIN_CORPUS is not set: it names the corpus of public Godot projects");
    };
    let mut stack = vec![PathBuf::from(root)];
    let (mut read, mut refused, mut sets, mut ambiguous) = (0, Vec::new(), 0, Vec::new());
    let scratch = std::env::temp_dir().join(format!("godot_bin-cli-cfgs-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let ext = path.extension().map(|e| e.to_string_lossy().into_owned());
            if !matches!(ext.as_deref(), Some("import" | "cfg" | "remap" | "godot")) {
                continue;
            }
            let (ok, out, err) = run(&["dump", path.to_str().unwrap()]);
            if ok {
                let bytes = std::fs::read(&path).unwrap();
                assert_eq!(out.as_bytes(), bytes, "{name}");
                read += 1;
                // get of each section's first key, and set of it to its own text: the
                // file stays byte for byte.
                let cfg = ConfigFile::from_bytes(&bytes).unwrap();
                let copy = scratch.join(&name);
                std::fs::write(&copy, &bytes).unwrap();
                let copy = copy.to_str().unwrap();
                for section in cfg.section_names() {
                    let Some(key) = cfg.keys(section).first().map(|k| k.to_string()) else {
                        continue;
                    };
                    let at = if section.is_empty() {
                        key
                    } else {
                        format!("{section}/{key}")
                    };
                    let (ok, text, err) = run(&["get", copy, &at]);
                    if !ok {
                        ambiguous.push(format!("{}: {at}: {err}", path.display()));
                        continue;
                    }
                    let (ok, _, err) = run(&["set", copy, &at, text.trim_end_matches('\n')]);
                    assert!(ok, "{}: set {at}: {err}", path.display());
                    assert_eq!(
                        std::fs::read(copy).unwrap(),
                        bytes,
                        "{}: {at}",
                        path.display()
                    );
                    sets += 1;
                }
            } else {
                refused.push(format!("{}: {err}", path.display()));
            }
        }
    }
    eprintln!(
        "{read} ConfigFiles read, {sets} keys set to their own text (files unchanged); \
         refused: {refused:#?}; ambiguous or missing: {ambiguous:#?}"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
    assert!(read > 0, "no ConfigFile in the corpus");
    // The ones refused are not ConfigFiles: JSON, YAML-like build notes, Godot 2's
    // engine.cfg (colors as #rrggbbaa).
    assert!(
        refused.iter().all(|r| !r.contains(".import:")),
        "{refused:#?}"
    );
}
