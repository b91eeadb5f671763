//! A whole Godot 3 project as a Godot 4 project: [`project`].
//!
//! Every data file is converted by its kind, everything else copied as it is:
//!
//! | file | becomes |
//! |---|---|
//! | `.tscn`, `.tres` (Godot 3 text) | Godot 4 text: [`TextResource::to_godot4_with`] |
//! | `.scn`, `.res` (Godot 3 binary) | Godot 4 binary, its compression kept: text, [`TextResource::to_godot4_with`], binary |
//! | `project.godot` | [`ConfigFile::to_godot4`]: settings renamed, `config_version=5`, `config/features` |
//! | `.import` | the importers Godot 4 renamed (`ogg_vorbis` → `oggvorbisstr`, a `Spatial` scene root → `Node3D`), as the engine's converter does |
//! | scripts, shaders, images, sounds, other files | copied as they are (GDScript 3 is not converted: each script a scene uses is named in its issues) |
//!
//! Godot 3's import cache (`.import/`), `.git/` and Godot 4's `.godot/` are left out. The
//! Godot 3 class of every scene's root is gathered first, so that a node instanced from
//! another scene has its properties renamed by its class ([`Godot3Classes`]). A file that
//! cannot be read or converted is reported (and copied as it is) and the others go on;
//! [`Report`] lists every file with what was done and what did not carry over.
//!
//! ```no_run
//! use godot_bin_files::upgrade::{project, Options};
//! let report = project("old_game".as_ref(), "new_game".as_ref(), &Options::default())?;
//! for file in &report.files {
//!     for issue in &file.issues {
//!         eprintln!("{}: {issue}", file.path);
//!     }
//! }
//! # Ok::<(), godot_bin_files::Error>(())
//! ```

use crate::error::{Error, ErrorKind, Result};
use crate::fsio::write_atomic;
use crate::issue::Issue;
use crate::resource::{BinaryResource, ConfigFile, Godot3Classes, TextResource};
use godot_bin::Dialect;
use std::fmt;
use std::path::{Path, PathBuf};

/// How [`project`] converts (room for options; the default converts everything).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {}

/// What was done with one file.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Action {
    /// Converted to Godot 4.
    Converted,
    /// Copied as it is (not a data file, or already Godot 4's).
    Copied,
    /// Could not be read or converted: copied as it is; the reason.
    Failed(String),
}

/// One file of a [`Report`].
#[derive(Clone, Debug)]
pub struct FileReport {
    /// Its path below the project folder, `/`-separated.
    pub path: String,
    /// What was done.
    pub action: Action,
    /// What did not carry over exactly (properties without a home in Godot 4...).
    pub issues: Vec<Issue>,
}

/// What [`project`] did, file by file, in path order.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every file of the project.
    pub files: Vec<FileReport>,
}

impl Report {
    /// Every issue of every file, with the file's path.
    pub fn issues(&self) -> impl Iterator<Item = (&str, &Issue)> {
        self.files
            .iter()
            .flat_map(|f| f.issues.iter().map(move |i| (f.path.as_str(), i)))
    }

    /// The files that failed.
    pub fn failed(&self) -> impl Iterator<Item = &FileReport> {
        self.files
            .iter()
            .filter(|f| matches!(f.action, Action::Failed(_)))
    }
}

impl fmt::Display for Report {
    /// One line per converted or failed file, then one per issue.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for file in &self.files {
            match &file.action {
                Action::Converted => {
                    writeln!(f, "converted {} ({} issues)", file.path, file.issues.len())?
                }
                Action::Copied => {}
                Action::Failed(why) => {
                    writeln!(f, "failed    {}: {why} (copied as it is)", file.path)?
                }
            }
            for i in &file.issues {
                writeln!(f, "  {}: {i}", file.path)?;
            }
        }
        Ok(())
    }
}

/// Folders never copied: Godot 3's import cache, Godot 4's, version control.
const SKIPPED_DIRS: &[&str] = &[".import", ".godot", ".git"];

/// Converts the Godot 3 project in `src` (a folder with a `project.godot`) into a Godot 4
/// project in `dst` (created; it must not exist or be empty, and not be inside `src`);
/// see the [module docs](self).
pub fn project(src: &Path, dst: &Path, options: &Options) -> Result<Report> {
    let _ = options;
    let io = |e: std::io::Error, p: &Path| Error::from(e).in_file(p);
    if !src.join("project.godot").is_file() {
        return Err(Error::new(ErrorKind::Unsupported(format!(
            "{} is not a Godot project folder (no project.godot)",
            src.display()
        ))));
    }
    let src_full = std::fs::canonicalize(src).map_err(|e| io(e, src))?;
    // Where the output would be: the folder itself, or the one it would be made in.
    let inside = dst
        .ancestors()
        .find_map(|a| {
            std::fs::canonicalize(if a.as_os_str().is_empty() {
                Path::new(".")
            } else {
                a
            })
            .ok()
        })
        .is_some_and(|full| full.starts_with(&src_full));
    if inside {
        return Err(Error::new(ErrorKind::Unsupported(format!(
            "{} is inside the project it would be written from",
            dst.display()
        ))));
    }
    if dst.exists() {
        let full = std::fs::canonicalize(dst).map_err(|e| io(e, dst))?;
        if full.starts_with(&src_full) {
            return Err(Error::new(ErrorKind::Unsupported(format!(
                "{} is inside the project it would be written from",
                dst.display()
            ))));
        }
        if std::fs::read_dir(dst)
            .map_err(|e| io(e, dst))?
            .next()
            .is_some()
        {
            return Err(Error::new(ErrorKind::Unsupported(format!(
                "{} is not empty: nothing written",
                dst.display()
            ))));
        }
    }
    let mut files = Vec::new();
    walk(&src_full, &src_full, &mut files)?;
    files.sort();
    let known = scene_roots(&src_full, &files);
    let mut report = Report::default();
    for rel in files {
        let from = src_full.join(&rel);
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let to = dst.join(&rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(e, parent))?;
        }
        let bytes = std::fs::read(&from).map_err(|e| io(e, &from))?;
        let (action, issues, out) = match convert_file(&name, &bytes, &known) {
            Ok(Some((out, issues))) => (Action::Converted, issues, out),
            Ok(None) => (Action::Copied, Vec::new(), bytes),
            Err(e) => (Action::Failed(e.to_string()), Vec::new(), bytes),
        };
        write_atomic(&to, &out)?;
        report.files.push(FileReport {
            path: name,
            action,
            issues,
        });
    }
    Ok(report)
}

/// Every file below `dir` (relative to `root`), leaving out [`SKIPPED_DIRS`] and
/// symbolic links (which could lead out of the project or round in a ring).
fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::from(e).in_file(dir))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::from(e).in_file(dir))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| Error::from(e).in_file(&path))?;
        if kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            let name = entry.file_name();
            if !SKIPPED_DIRS.iter().any(|s| name == *s) {
                walk(root, &path, out)?;
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
    }
    Ok(())
}

/// The Godot 3 root class of every scene of the project, by `res://` path; a scene that
/// inherits another is resolved once that one is (a few rounds for chains).
fn scene_roots(root: &Path, files: &[PathBuf]) -> Godot3Classes {
    let mut scenes = Vec::new();
    for rel in files {
        let ext = rel.extension().and_then(|e| e.to_str()).unwrap_or("");
        let text = match ext {
            "tscn" => std::fs::read(root.join(rel))
                .ok()
                .and_then(|b| TextResource::from_bytes(&b).ok()),
            "scn" => std::fs::read(root.join(rel))
                .ok()
                .and_then(|b| BinaryResource::from_bytes(&b).ok())
                .and_then(|b| b.to_text().ok())
                .map(|c| c.file),
            _ => None,
        };
        if let Some(t) = text {
            let path = format!(
                "res://{}",
                rel.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            );
            scenes.push((path, t));
        }
    }
    let mut known = Godot3Classes::new();
    for _ in 0..8 {
        let mut grew = false;
        for (path, scene) in &scenes {
            if known.get(path).is_none() {
                if let Some(class) = known.root_of(scene) {
                    known.insert(path, &class);
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    known
}

/// A converted file (its bytes and issues), `None` to copy it as it is.
fn convert_file(
    name: &str,
    bytes: &[u8],
    known: &Godot3Classes,
) -> Result<Option<(Vec<u8>, Vec<Issue>)>> {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    let file_name = name.rsplit('/').next().unwrap_or(name);
    Ok(match ext {
        "tscn" | "tres" => {
            let t = TextResource::from_bytes(bytes)?;
            if t.dialect() == Dialect::Godot4 {
                return Ok(None);
            }
            let c = t.to_godot4_with(known)?;
            Some((c.file.to_string().into_bytes(), c.issues))
        }
        "scn" | "res" => {
            let b = BinaryResource::from_bytes(bytes)?;
            if b.dialect() == Dialect::Godot4 {
                return Ok(None);
            }
            let mut issues = Vec::new();
            let text = b.to_text()?;
            issues.extend(text.issues);
            let up = text.file.to_godot4_with(known)?;
            issues.extend(up.issues);
            let mut out = up.file.to_binary()?;
            issues.extend(out.issues);
            out.file.set_compression(b.compression());
            Some((out.file.to_bytes()?, issues))
        }
        "godot" if file_name == "project.godot" && !name.contains('/') => {
            let c = ConfigFile::from_bytes(bytes)?.to_godot4()?;
            Some((c.file.to_string().into_bytes(), c.issues))
        }
        "import" => {
            let mut cfg = ConfigFile::from_bytes(bytes)?;
            let mut changed = false;
            if cfg.get("remap", "importer").and_then(|v| v.as_str()) == Some("ogg_vorbis") {
                cfg.set("remap", "importer", "oggvorbisstr");
                changed = true;
            }
            if cfg
                .get("params", "nodes/root_type")
                .and_then(|v| v.as_str())
                == Some("Spatial")
            {
                cfg.set("params", "nodes/root_type", "Node3D");
                changed = true;
            }
            changed.then(|| (cfg.to_string().into_bytes(), Vec::new()))
        }
        _ => None,
    })
}

/// The Godot 4 name of a Godot 3 class (`Spatial` → `Node3D`; a class Godot 4 did not
/// rename keeps its name).
///
/// ```
/// assert_eq!(godot_bin_files::upgrade::godot4_class("KinematicBody2D"), "CharacterBody2D");
/// assert_eq!(godot_bin_files::upgrade::godot4_class("Node2D"), "Node2D");
/// ```
pub fn godot4_class(godot3: &str) -> &str {
    crate::renames::godot4_class(godot3).unwrap_or(godot3)
}

/// The Godot 4 name of property `name` of an object of Godot 3 class `class` (`None`: a
/// class not known, such as a node instanced from another scene: then only a name renamed
/// alike on every class), or `None` when Godot 4 keeps the name. The value may change too
/// (see the [module docs](self) and [`crate::resource`]'s conversions).
///
/// ```
/// use godot_bin_files::upgrade::godot4_property;
/// assert_eq!(godot4_property(Some("Button"), "margin_left").as_deref(), Some("offset_left"));
/// assert_eq!(godot4_property(Some("StyleBoxTexture"), "margin_left").as_deref(), Some("texture_margin_left"));
/// assert_eq!(godot4_property(Some("Label"), "custom_colors/font_color").as_deref(), Some("theme_override_colors/font_color"));
/// assert_eq!(godot4_property(Some("Node2D"), "position"), None);
/// ```
pub fn godot4_property(class: Option<&str>, name: &str) -> Option<String> {
    crate::renames::properties::godot4_name(crate::renames::godot3(), class, name)
        .map(|(to, _)| to)
        .filter(|to| to != name)
}

/// The Godot 4 name of signal `name` of an object of Godot 3 class `class` (`None`: any
/// class), or `None` when Godot 4 keeps it.
///
/// ```
/// assert_eq!(godot_bin_files::upgrade::godot4_signal(Some("LineEdit"), "text_entered"), Some("text_submitted"));
/// ```
pub fn godot4_signal(class: Option<&str>, name: &str) -> Option<&'static str> {
    crate::renames::properties::signal(crate::renames::godot3(), class, name)
}
