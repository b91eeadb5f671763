//! `godot-bin convert SRC_DIR OUT_DIR --godot4`: a whole Godot 3 project (issue 48).

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_godot-bin");

fn project3() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../godot_bin_files/tests/data/upgrade/project3")
}

fn out(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "godot_bin_cli_upgrade_{name}_{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `godot-bin convert PROJECT3 DST --godot4 EXTRA...`.
fn convert_project3(dst: &std::path::Path, extra: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("convert")
        .arg(project3())
        .arg(dst)
        .arg("--godot4")
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn a_project_folder_is_converted() {
    let dst = out("plain");
    let o = convert_project3(&dst, &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("7 file(s) converted, 1 copied, 0 failed"),
        "{stdout}"
    );
    // What has no home is named per file and property.
    assert!(
        stderr.contains("godot-bin: issue: ui.tscn: [ext_resource id=\"1\"]"),
        "{stderr}"
    );
    let project = std::fs::read_to_string(dst.join("project.godot")).unwrap();
    assert!(project.contains("config_version=5"), "{project}");
    assert!(
        project.contains("window/size/viewport_width=800"),
        "{project}"
    );
    let ui = std::fs::read_to_string(dst.join("ui.tscn")).unwrap();
    assert!(ui.contains("offset_left = 10.0"), "{ui}");
    let _ = std::fs::remove_dir_all(&dst);
}

#[test]
fn strict_writes_nothing_when_something_has_no_home() {
    let dst = out("strict");
    let o = convert_project3(&dst, &["--strict"]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("nothing written (--strict)"), "{stderr}");
    assert!(!dst.exists());
    let leftovers: Vec<_> = std::fs::read_dir(dst.parent().unwrap())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name().to_string_lossy().contains(&format!(
                "godot_bin_cli_upgrade_strict_{}.godot-bin",
                std::process::id()
            ))
        })
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn a_folder_without_godot4_is_refused() {
    let dst = out("refused");
    let o = Command::new(BIN)
        .args(["convert".as_ref(), project3().as_os_str(), dst.as_os_str()])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("is a folder: convert a Godot 3 project with --godot4"),
        "{stderr}"
    );
    assert!(!dst.exists());
}
