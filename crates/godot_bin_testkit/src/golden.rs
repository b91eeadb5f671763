//! The tests' one reader of the engine-made golden packets, `tests/data/golden/*.tsv`
//! (where they came from: `tests/data/README.md`).

use super::hex;
use godot_bin::{Config, Dialect};
use std::path::PathBuf;

/// One row: name, the engine's bytes, the engine's text form of the value.
#[derive(Debug, Clone)]
pub struct Row {
    pub file: &'static str,
    pub name: String,
    pub bytes: Vec<u8>,
    pub text: String,
}

/// The golden files and the dialect each was made by.
pub const FILES: &[(&str, Dialect)] = &[
    ("godot4.tsv", Dialect::Godot4),
    ("godot3.tsv", Dialect::Godot3),
    ("pandemonium.tsv", Dialect::Pandemonium),
];

/// The workspace's root: this kit lives in `crates/godot_bin_testkit`.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's engine-made packets, `tests/data` at the workspace's root.
pub fn data_dir() -> PathBuf {
    workspace_root().join("tests/data")
}

/// `crates/godot_bin_files/tests/data/files`: the engines' encrypted and compressed saves.
/// Kept out of the published crate (5 MiB, `exclude` in its Cargo.toml): the tests that
/// read it run from a clone of the repository, and say so when it is missing.
pub fn files_dir() -> PathBuf {
    let dir = workspace_root().join("crates/godot_bin_files/tests/data/files");
    assert!(
        dir.is_dir(),
        "{} is missing: the engines' save files are not in the published crate; run these \
         tests from a clone of the repository",
        dir.display()
    );
    dir
}

/// An engine-made resource, scene or ConfigFile of godot_bin_files' tests:
/// `crates/godot_bin_files/tests/data/resource/<engine>/<name>`.
pub fn resource_fixture(engine: &str, name: &str) -> Vec<u8> {
    let path = workspace_root()
        .join("crates/godot_bin_files/tests/data/resource")
        .join(engine)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `tests/data/golden` (`GODOT_BIN_GOLDEN_DIR` points elsewhere, e.g. at a newer copy).
pub fn dir() -> PathBuf {
    match std::env::var_os("GODOT_BIN_GOLDEN_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => data_dir().join("golden"),
    }
}

/// Every row of one file. Panics if the file is missing: the golden rows are the bar.
pub fn rows(file: &'static str) -> Vec<Row> {
    let path = dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut cols = line.splitn(3, '\t');
            let name = cols.next().unwrap().to_owned();
            let hex_column = cols
                .next()
                .unwrap_or_else(|| panic!("{file}: {name}: no hex column"));
            let bytes = hex::decode(hex_column)
                .unwrap_or_else(|| panic!("{file}: {name}: the hex column is not hex"));
            let text = cols.next().unwrap_or("").to_owned();
            Row {
                file,
                name,
                bytes,
                text,
            }
        })
        .collect()
}

/// The text column with its escapes undone: the files escape tabs, newlines and
/// backslashes as `\t`, `\n` and `\\`.
pub fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => panic!("unknown escape \\{other} in a golden text"),
            None => panic!("trailing backslash in a golden text"),
        }
    }
    out
}

/// The config that decodes a file's rows: its dialect, objects allowed (the full-object
/// rows were made with `var_to_bytes_with_objects`).
pub fn config(dialect: Dialect) -> Config {
    Config::new(dialect).allow_objects(true)
}

/// One row of one file, by name.
pub fn row(file: &'static str, name: &str) -> Row {
    rows(file)
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{file} has no row {name}"))
}

/// Compares our encoding with the engine's, ignoring exactly the NodePath padding bytes
/// the engine leaves unwritten. Returns a description of the first difference.
pub fn compare(ours: &[u8], engine: &[u8], config: &Config) -> Result<(), String> {
    if ours.len() != engine.len() {
        return Err(format!(
            "length {} != engine's {}",
            ours.len(),
            engine.len()
        ));
    }
    let pads = godot_bin::explain::nodepath_padding(engine, config).map_err(|e| e.to_string())?;
    let is_pad = |i: usize| pads.iter().any(|p| p.contains(&i));
    match (0..ours.len()).find(|&i| ours[i] != engine[i] && !is_pad(i)) {
        Some(i) => Err(format!(
            "byte {i}: {:#04x} != engine's {:#04x}",
            ours[i], engine[i]
        )),
        None => Ok(()),
    }
}
