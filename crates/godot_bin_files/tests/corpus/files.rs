//! The corpus on disk and its manifest, for the `corpus` test binary and the engine
//! tests' `corpus` module: where it is, which files it holds, each file read only when it
//! is the one `MANIFEST.tsv` records (size and SHA-256).

use libtest_mimic::Failed;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

#[path = "sha256.rs"]
pub mod sha256;

/// Where the corpus is.
pub const CORPUS_ENV: &str = "GODOT_BIN_CORPUS";
/// Limits a run to these project folders (comma-separated).
pub const PROJECTS_ENV: &str = "GODOT_BIN_CORPUS_PROJECTS";

/// The manifest the corpus is checked against: projects, then their files.
const MANIFEST: &str = include_str!("MANIFEST.tsv");

/// A project row of the manifest.
pub struct Project {
    pub dir: String,
    pub repo: String,
    pub commit: String,
    pub license: String,
    pub engine: String,
}

/// A file row of the manifest.
pub struct Entry {
    pub dir: String,
    pub path: String,
    pub size: u64,
    pub sha256: String,
}

pub struct Corpus {
    pub root: PathBuf,
    pub projects: Vec<Project>,
    pub files: Vec<Entry>,
}

pub fn parse_manifest() -> Result<(Vec<Project>, Vec<Entry>), String> {
    let mut projects = Vec::new();
    let mut files = Vec::new();
    for (n, line) in MANIFEST.lines().enumerate() {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        match f.as_slice() {
            ["project", dir, repo, commit, spdx, _license_file, engine] => projects.push(Project {
                dir: dir.to_string(),
                repo: repo.to_string(),
                commit: commit.to_string(),
                license: spdx.to_string(),
                engine: engine.to_string(),
            }),
            ["file", dir, path, size, sha] => files.push(Entry {
                dir: dir.to_string(),
                path: path.to_string(),
                size: size
                    .parse()
                    .map_err(|_| format!("MANIFEST.tsv line {}: bad size", n + 1))?,
                sha256: sha.to_string(),
            }),
            _ => {
                return Err(format!(
                    "MANIFEST.tsv line {}: not a project or file row",
                    n + 1
                ))
            }
        }
    }
    Ok((projects, files))
}

/// The corpus, or why it is absent.
pub fn corpus() -> &'static Result<Corpus, String> {
    static CELL: OnceLock<Result<Corpus, String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let root = match std::env::var_os(CORPUS_ENV) {
            Some(p) => PathBuf::from(p),
            None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        };
        let (mut projects, mut files) = parse_manifest()?;
        if !root.is_dir() {
            return Err(format!(
                "no corpus at {} (set {CORPUS_ENV}; tests/corpus/README.md says what it is)",
                root.display()
            ));
        }
        if let Ok(only) = std::env::var(PROJECTS_ENV) {
            let only: HashSet<&str> = only.split(',').map(str::trim).collect();
            projects.retain(|p| only.contains(p.dir.as_str()));
            files.retain(|f| only.contains(f.dir.as_str()));
        }
        Ok(Corpus {
            root,
            projects,
            files,
        })
    })
}

impl Corpus {
    pub fn path(&self, e: &Entry) -> PathBuf {
        self.root.join(&e.dir).join(&e.path)
    }

    /// The file's bytes, when they are the ones the manifest records.
    pub fn read(&self, e: &Entry) -> Result<Vec<u8>, String> {
        let p = self.path(e);
        let bytes = std::fs::read(&p).map_err(|err| format!("{}: {err}", p.display()))?;
        if bytes.len() as u64 != e.size || sha256::hex(&bytes) != e.sha256 {
            return Err(format!(
                "{}: not the file the manifest records ({} bytes, sha256 {}; recorded {} bytes, {})",
                p.display(),
                bytes.len(),
                sha256::hex(&bytes),
                e.size,
                e.sha256
            ));
        }
        Ok(bytes)
    }

    /// Every file of a form the crate reads, with its form and bytes; a file that is not
    /// the manifest's is an error of the run.
    pub fn godot_files(&self) -> Result<Vec<(&Entry, Vec<u8>)>, Failed> {
        let mut out = Vec::new();
        let mut bad = Vec::new();
        for e in &self.files {
            if kind_of(&e.path).is_none() {
                continue;
            }
            match self.read(e) {
                Ok(bytes) => out.push((e, bytes)),
                Err(err) => bad.push(err),
            }
        }
        if !bad.is_empty() {
            return Err(format!(
                "{} files are not the manifest's:\n{}",
                bad.len(),
                bad.join("\n")
            )
            .into());
        }
        Ok(out)
    }

    /// The file's `res://` path: from the nearest folder above it with a `project.godot`.
    pub fn res_path(&self, e: &Entry) -> Option<String> {
        let mut dir = Path::new(&e.path).parent();
        while let Some(d) = dir {
            let godot = d.join("project.godot");
            let godot = godot.to_str()?;
            if self.files.iter().any(|f| f.dir == e.dir && f.path == godot) {
                let rel = Path::new(&e.path).strip_prefix(d).ok()?;
                return Some(format!("res://{}", rel.to_str()?));
            }
            dir = d.parent();
        }
        None
    }
}

/// Which reader a file goes to, by name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Config,
    Text,
    Binary,
}

pub fn kind_of(path: &str) -> Option<Kind> {
    let ext = Path::new(path).extension()?.to_str()?;
    match ext {
        "godot" | "cfg" | "import" => Some(Kind::Config),
        "tscn" | "tres" => Some(Kind::Text),
        "scn" | "res" => Some(Kind::Binary),
        _ => None,
    }
}

/// The table's form of a file: its name's kind, a binary file's header.
pub fn form(e: &Entry, bytes: &[u8]) -> &'static str {
    let name = Path::new(&e.path)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    let ext = Path::new(name)
        .extension()
        .and_then(|x| x.to_str())
        .unwrap_or("");
    let rscc = bytes.starts_with(b"RSCC");
    match (name, ext) {
        ("project.godot", _) => "project.godot",
        ("export_presets.cfg", _) => "export_presets.cfg",
        ("override.cfg", _) => "override.cfg",
        ("plugin.cfg", _) => "plugin.cfg",
        (_, "godot") => ".godot",
        (_, "cfg") => ".cfg",
        (_, "import") => ".import",
        (_, "tscn") => ".tscn",
        (_, "tres") => ".tres",
        (_, "scn") if rscc => ".scn RSCC",
        (_, "scn") => ".scn",
        (_, "res") if rscc => ".res RSCC",
        (_, "res") => ".res",
        _ => "other",
    }
}

/// A corpus file read: its manifest row, reader, table form and bytes.
pub type Read<'a> = (&'a Entry, Kind, &'static str, Vec<u8>);

pub fn files(c: &Corpus) -> Result<Vec<Read<'_>>, Failed> {
    Ok(c.godot_files()?
        .into_iter()
        .map(|(e, bytes)| {
            let kind = kind_of(&e.path).unwrap_or(Kind::Config);
            let f = form(e, &bytes);
            (e, kind, f, bytes)
        })
        .collect())
}
