//! README.md's shell blocks that use `godot-bin` run as written, against the built binary.
//! (Its Rust blocks are doc tests: `src/lib.rs` includes README.md while rustdoc collects
//! them.)
//!
//! Each block runs in a fresh directory under `bash -euo pipefail`, with the binary first
//! on `PATH`, so every line must succeed and a failing command in a pipeline fails the
//! block. The files a block names that a user brings are given: `old.sav`, a Godot 3
//! save from the engine, encrypted with the password `s3cret`, `save.tres`, a Godot 4
//! resource from the engine, `level.tscn` a Godot 4 scene, the engine's
//! `project.godot` and `icon.svg.import`, and `my_game_godot3`, the Godot 3 project the
//! files crate's upgrade tests convert.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The fenced blocks of `markdown` whose info string is `lang`, with their first line
/// number.
fn blocks(markdown: &str, lang: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in markdown.lines().enumerate() {
        match &mut current {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    if info.trim() == lang {
                        current = Some((n + 2, String::new()));
                    }
                }
            }
            Some((_, body)) => {
                if line.starts_with("```") {
                    out.push(current.take().unwrap());
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    assert!(current.is_none(), "an unclosed ```{lang} block");
    out
}

/// Whether a shell line runs `godot-bin` (as a command, not in an argument or comment).
fn runs_godot_bin(line: &str) -> bool {
    let code = line.split(" #").next().unwrap_or("");
    code.split(['|', ';', '&'])
        .any(|cmd| cmd.trim_start().starts_with("godot-bin "))
}

fn fixtures(dir: &Path) {
    let golden = |engine: &str, name: &str| crate::support::golden::resource_fixture(engine, name);
    std::fs::write(dir.join("level.tscn"), golden("godot4", "level.tscn")).unwrap();
    let ours = crate::configs::data("godot4");
    for name in ["project.godot", "icon.svg.import"] {
        std::fs::copy(ours.join(name), dir.join(name)).unwrap();
    }
    let project3 = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../godot_bin_files/tests/data/upgrade/project3");
    let game = dir.join("my_game_godot3");
    std::fs::create_dir_all(&game).unwrap();
    for e in std::fs::read_dir(project3).unwrap().flatten() {
        std::fs::copy(e.path(), game.join(e.file_name())).unwrap();
    }
    let old = crate::support::golden::files_dir().join("godot3/g3_save_pass.bin");
    std::fs::copy(old, dir.join("old.sav")).unwrap();
    std::fs::write(
        dir.join("save.tres"),
        crate::support::golden::resource_fixture("godot4", "item.tres"),
    )
    .unwrap();
    // A game's pack: the scene and the project settings, as an export of Godot 4.4.1.
    let mut w = godot_bin_files::pack::PackWriter::for_engine("4.4.1").unwrap();
    w.add("res://level.tscn", golden("godot4", "level.tscn"));
    w.add(
        "res://project.godot",
        std::fs::read(ours.join("project.godot")).unwrap(),
    );
    w.save(dir.join("game.pck")).unwrap();
}

/// The READMEs of the workspace that show `godot-bin`, from its root.
const READMES: &[&str] = &[
    "README.md",
    "crates/godot_bin_files/README.md",
    "crates/godot_bin_cli/README.md",
];

#[test]
fn readme_shell_blocks_that_use_godot_bin_run_as_written() {
    let mut ran = 0;
    let mut lines = 0;
    for name in READMES {
        let (r, l) = run_blocks(name);
        ran += r;
        lines += l;
    }
    // The root's packet block; the files README's save and resource blocks; the CLI
    // README's packet, save, project, pack, resource and get/set blocks: all their lines.
    assert_eq!((ran, lines), (10, 38));
}

/// Runs every `sh` block of the README `name` that uses godot-bin: (blocks, lines).
fn run_blocks(name: &str) -> (usize, usize) {
    let readme = std::fs::read_to_string(crate::support::golden::workspace_root().join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_godot-bin"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut ran, mut lines) = (0, 0);
    for (at, block) in blocks(&readme, "sh") {
        if !block.lines().any(runs_godot_bin) {
            continue;
        }
        // Every line of such a block is for godot-bin: nothing else is run by surprise.
        for line in block.lines().filter(|l| !l.trim().is_empty()) {
            assert!(runs_godot_bin(line), "{name}:{at}: {line}");
            lines += 1;
        }
        let dir = std::env::temp_dir().join(format!(
            "godot_bin_readme_{}_{}_{at}",
            std::process::id(),
            name.replace('/', "_")
        ));
        std::fs::create_dir_all(&dir).unwrap();
        fixtures(&dir);
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &block])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("run bash");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{name}:{at}: the block failed:\n{block}\nstderr:\n{stderr}"
        );
        assert!(
            !stderr.contains("error"),
            "{name}:{at}: an error on stderr:\n{stderr}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        ran += 1;
    }
    (ran, lines)
}

#[test]
fn readme_lines_give_what_their_comments_say() {
    // The CLI block's comments show output: check them against the binary.
    let dir = std::env::temp_dir().join(format!("godot_bin_readme_out_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |script: &str| {
        let out = Command::new("bash")
            .args(["-euo", "pipefail", "-c", script])
            .current_dir(&dir)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    Path::new(env!("CARGO_BIN_EXE_godot-bin"))
                        .parent()
                        .unwrap()
                        .display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    run("echo 'Vector3(1, 2, 3)' | godot-bin encode > packet.bin");
    assert_eq!(
        std::fs::read(dir.join("packet.bin")).unwrap(),
        godot_bin::to_vec(&godot_bin::Vector3::new(1.0, 2.0, 3.0)).unwrap()
    );
    assert_eq!(run("godot-bin dump packet.bin"), "Vector3(1, 2, 3)\n");
    assert_eq!(
        run("godot-bin dump packet.bin --json"),
        "{\"$Vector3\":[1.0,2.0,3.0]}\n"
    );
    run("echo '{\"level\": 3} 1234.5' | godot-bin encode --dialect godot3 --framed > save.dat");
    assert_eq!(
        run("godot-bin dump save.dat --dialect godot3"),
        "{\n\"level\": 3\n}\n1234.5\n"
    );
    // And the line the README says fails, fails as it says.
    let out = Command::new(env!("CARGO_BIN_EXE_godot-bin"))
        .args(["dump", "save.dat"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains(
        "hint: the input does not decode cleanly as Godot 4, but it does with --dialect godot3"
    ));
    // The get/set block.
    fixtures(&dir);
    assert_eq!(
        run("godot-bin get level.tscn Player:position"),
        "Vector2(-3, 4.25)\n"
    );
    run("godot-bin set level.tscn Player:position 'Vector2(1, 2)'");
    assert_eq!(
        run("godot-bin get level.tscn Player:position"),
        "Vector2(1, 2)\n"
    );
    assert_eq!(run("godot-bin get save.tres hp --json"), "150\n");
    // The pack block: list, get inside the pack, set it back into the pack.
    let scene = crate::support::golden::resource_fixture("godot4", "level.tscn");
    let list = run("godot-bin pack list game.pck");
    let first = list.lines().next().unwrap();
    assert!(
        first.starts_with(&format!("res://level.tscn\t{}\t", scene.len())),
        "{list}"
    );
    assert_eq!(
        run("godot-bin get game.pck::res://level.tscn Player:position"),
        "Vector2(-3, 4.25)\n"
    );
    run("godot-bin set game.pck::res://level.tscn Player:position 'Vector2(1, 2)'");
    assert_eq!(
        run("godot-bin get game.pck::res://level.tscn Player:position"),
        "Vector2(1, 2)\n"
    );
    let pack = godot_bin_files::pack::Pack::open(dir.join("game.pck"))
        .unwrap()
        .read("res://level.tscn")
        .unwrap();
    assert_eq!(
        pack,
        std::fs::read(dir.join("level.tscn")).unwrap(),
        "the same one-line change"
    );
    run("godot-bin set project.godot application/config/name '\"My Game\"'");
    assert_eq!(
        run("godot-bin get project.godot application/config/name"),
        "\"My Game\"\n"
    );
    assert_eq!(
        run("godot-bin get icon.svg.import params/compress/lossy_quality"),
        "0.7\n"
    );
    run("godot-bin set old.sav 0.player.hp 90 --password s3cret");
    assert_eq!(
        run("godot-bin get old.sav 0.player.hp --password s3cret"),
        "90\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
