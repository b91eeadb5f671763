//! A project as one thing: a project folder or an exported game's pack, its files by
//! `res://` path or `uid://`, its resources, and the references between them.
//!
//! [`Project::open`] takes a folder (the one with `project.godot`) or a pack (a `.pck`,
//! or an executable with its pack inside). It learns the project's `uid://` names from
//! every place the engine keeps them ([`uids`]: the editor's `.godot/uid_cache.bin`,
//! `.uid` files, the `uid=` of text resources' headers and of `.import` files), reads any
//! file by path or uid, follows an exported game's `.remap` files to the converted
//! resource they name, and checks every `ext_resource` of every resource
//! ([`Project::broken`]): a reference resolves as the engine resolves it, by its uid when
//! the uid is known, else by its path.
//!
//! ```
//! use godot_bin_files::project::Project;
//! let dir = std::env::temp_dir().join(format!("godot_bin_project_doc_{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("project.godot"), "config_version=5\n")?;
//! std::fs::write(dir.join("item.tres"), "[gd_resource type=\"Resource\" format=3 uid=\"uid://bq1k4yyqy3mxw\"]\n\n[resource]\n")?;
//! std::fs::write(
//!     dir.join("level.tscn"),
//!     "[gd_scene format=3]\n\n\
//!      [ext_resource type=\"Resource\" uid=\"uid://bq1k4yyqy3mxw\" path=\"res://old/item.tres\" id=\"1\"]\n\
//!      [ext_resource type=\"Texture2D\" path=\"res://gone.png\" id=\"2\"]\n\n\
//!      [node name=\"Level\" type=\"Node\"]\n",
//! )?;
//! let mut project = Project::open(&dir)?;
//! assert_eq!(project.resolve("uid://bq1k4yyqy3mxw"), Some("res://item.tres"));
//! // The stale path is followed by its uid, as the engine does; the missing texture is not.
//! let broken = project.broken()?;
//! assert_eq!(broken.len(), 1);
//! assert_eq!(broken[0].from, "res://level.tscn");
//! assert_eq!(broken[0].link.path, "res://gone.png");
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), godot_bin_files::Error>(())
//! ```

pub mod uids;

pub use uids::UidCache;

use crate::error::{Error, ErrorKind, Result};
use crate::pack::{Key, Pack};
use crate::resource::{uid_to_text, BinaryResource, ConfigFile, TextResource, INVALID_UID};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

enum Source {
    Folder(PathBuf),
    Pack(Box<Pack>),
}

/// A project folder or a pack, read as one project: see the [module](self).
pub struct Project {
    source: Source,
    /// Every file, as `res://` paths.
    files: Vec<String>,
    /// The same, to look up.
    present: HashSet<String>,
    /// uid text → `res://` path.
    uids: HashMap<String, String>,
}

/// A resource read from a project, in the form it is stored in.
#[derive(Debug)]
pub enum Resource {
    /// `.tres`, `.tscn`.
    Text(TextResource),
    /// `.res`, `.scn` (an exported game's converted resources too).
    Binary(BinaryResource),
}

/// One `ext_resource` of a resource, and where it leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The class it names.
    pub type_name: String,
    /// The path it gives.
    pub path: String,
    /// The uid it gives, if any.
    pub uid: Option<String>,
    /// The file it resolves to (by its uid when the project knows it, else its path),
    /// `None` when neither names a file of the project.
    pub target: Option<String>,
}

/// A reference that leads nowhere: which resource holds it, and the reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The resource holding the reference (`res://...`).
    pub from: String,
    /// The reference.
    pub link: Link,
}

/// The file extensions of resources.
const RESOURCES: [&str; 4] = ["tscn", "tres", "scn", "res"];

impl Project {
    /// Opens a project folder (the one holding `project.godot`, or any folder) or a pack.
    pub fn open(path: impl AsRef<Path>) -> Result<Project> {
        Project::open_key(path.as_ref(), None)
    }

    /// Opens a project folder or an encrypted pack with its key.
    pub fn open_with_key(path: impl AsRef<Path>, key: &Key) -> Result<Project> {
        Project::open_key(path.as_ref(), Some(key))
    }

    fn open_key(path: &Path, key: Option<&Key>) -> Result<Project> {
        let source = if path.is_dir() {
            Source::Folder(path.to_path_buf())
        } else {
            Source::Pack(Box::new(match key {
                Some(k) => Pack::open_with_key(path, k)?,
                None => Pack::open(path)?,
            }))
        };
        let files: Vec<String> = match &source {
            Source::Folder(dir) => crate::fsio::files_below(dir)?
                .into_iter()
                .map(|(rel, _)| format!("res://{rel}"))
                .collect(),
            Source::Pack(pack) => pack
                .entries()
                .iter()
                .filter(|e| !e.is_removal())
                .map(|e| e.res_path())
                .collect(),
        };
        let mut project = Project {
            source,
            present: files.iter().cloned().collect(),
            files,
            uids: HashMap::new(),
        };
        project.learn_uids()?;
        Ok(project)
    }

    /// Reads every place a uid is kept. Later sources win: the cache first, then each
    /// file's own word (its `.uid`, header or `.import`), which the editor keeps current.
    fn learn_uids(&mut self) -> Result<()> {
        if self.files.iter().any(|f| f == "res://.godot/uid_cache.bin") {
            let bytes = self.read_raw("res://.godot/uid_cache.bin")?;
            let cache = UidCache::from_bytes(&bytes)?;
            for (uid, path) in cache.iter() {
                self.uids.insert(uid, path.to_string());
            }
        }
        let files = self.files.clone();
        for f in &files {
            let found = if let Some(of) = f.strip_suffix(".uid") {
                uids::uid_file(&self.read_raw(f)?).map(|u| (u, of.to_string()))
            } else if let Some(of) = f.strip_suffix(".import") {
                uids::import_uid(&self.read_raw(f)?).map(|u| (u, of.to_string()))
            } else if f.ends_with(".tscn") || f.ends_with(".tres") {
                uids::header_uid(&self.read_raw(f)?).map(|u| (u, f.clone()))
            } else {
                None
            };
            if let Some((uid, path)) = found {
                self.uids.insert(uid, path);
            }
        }
        Ok(())
    }

    /// Every file, by `res://` path, sorted for a folder, in directory order for a pack.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The resources (`.tscn`, `.tres`, `.scn`, `.res`), by the path the game loads them
    /// by: an exported resource's `.remap` counts as the resource it stands for.
    pub fn resources(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .files
            .iter()
            .filter_map(|f| {
                let f = f.strip_suffix(".remap").unwrap_or(f);
                let ext = f.rsplit('.').next().unwrap_or("");
                (RESOURCES.contains(&ext) && !f.starts_with("res://.godot/")).then(|| f.to_string())
            })
            .collect();
        out.dedup();
        out
    }

    /// The `res://` path of `uid` (`uid://...`), if the project knows it.
    pub fn resolve(&self, uid: &str) -> Option<&str> {
        self.uids.get(uid).map(String::as_str)
    }

    /// The uid of the file at `path`, if the project gives it one.
    pub fn uid_of(&self, path: &str) -> Option<&str> {
        let path = res(path);
        self.uids
            .iter()
            .find(|(_, p)| **p == path)
            .map(|(u, _)| u.as_str())
    }

    /// Whether `path` names a file of the project: the file itself, or (in an exported
    /// game) its `.remap`, or the `.import` of an imported asset.
    pub fn exists(&self, path: &str) -> bool {
        let path = res(path);
        [
            path.clone(),
            format!("{path}.remap"),
            format!("{path}.import"),
        ]
        .iter()
        .any(|p| self.present.contains(p))
    }

    /// The bytes of the file at `path_or_uid` (`res://...` or `uid://...`); a resource an
    /// export converted is read through its `.remap` to the converted file.
    pub fn read(&mut self, path_or_uid: &str) -> Result<Vec<u8>> {
        let path = self.path_of(path_or_uid)?;
        if !self.present.contains(&path) {
            let remap = format!("{path}.remap");
            if self.present.contains(&remap) {
                let cfg = ConfigFile::from_bytes(&self.read_raw(&remap)?)?;
                if let Some(godot_bin::Variant::String(to)) = cfg.get("remap", "path") {
                    let to = to.to_string();
                    return self.read_raw(&to);
                }
            }
        }
        self.read_raw(&path)
    }

    /// The resource at `path_or_uid`, read in its own form.
    pub fn load(&mut self, path_or_uid: &str) -> Result<Resource> {
        let bytes = self.read(path_or_uid)?;
        if bytes.starts_with(b"RSRC") || bytes.starts_with(b"RSCC") {
            Ok(Resource::Binary(BinaryResource::from_bytes(&bytes)?))
        } else {
            Ok(Resource::Text(TextResource::from_bytes(&bytes)?))
        }
    }

    /// The `ext_resource`s of the resource at `path_or_uid`, each resolved.
    pub fn links(&mut self, path_or_uid: &str) -> Result<Vec<Link>> {
        let raw: Vec<(String, String, Option<String>)> = match self.load(path_or_uid)? {
            Resource::Text(t) => t
                .ext_resources()
                .map(|s| {
                    (
                        s.type_name().unwrap_or_default().to_string(),
                        s.path().unwrap_or_default().to_string(),
                        s.uid().map(str::to_string),
                    )
                })
                .collect(),
            Resource::Binary(b) => b
                .ext_resources()
                .iter()
                .map(|e| {
                    let uid = e.uid.filter(|&u| u != INVALID_UID).map(uid_to_text);
                    (e.type_name.clone(), e.path.clone(), uid)
                })
                .collect(),
        };
        Ok(raw
            .into_iter()
            .map(|(type_name, path, uid)| {
                let by_uid = uid
                    .as_deref()
                    .and_then(|u| self.resolve(u))
                    .map(str::to_string);
                let target = by_uid
                    .filter(|p| self.exists(p))
                    .or_else(|| self.exists(&path).then(|| res(&path)));
                Link {
                    type_name,
                    path,
                    uid,
                    target,
                }
            })
            .collect())
    }

    /// Every reference of every resource that leads to no file of the project.
    pub fn broken(&mut self) -> Result<Vec<Broken>> {
        let mut out = Vec::new();
        for from in self.resources() {
            for link in self.links(&from)? {
                if link.target.is_none() {
                    out.push(Broken {
                        from: from.clone(),
                        link,
                    });
                }
            }
        }
        Ok(out)
    }

    /// `res://` path of a path or uid.
    fn path_of(&self, path_or_uid: &str) -> Result<String> {
        if path_or_uid.starts_with("uid://") {
            self.resolve(path_or_uid)
                .map(str::to_string)
                .ok_or_else(|| Error::new(ErrorKind::NotFound(path_or_uid.to_string())))
        } else {
            Ok(res(path_or_uid))
        }
    }

    fn read_raw(&mut self, path: &str) -> Result<Vec<u8>> {
        match &mut self.source {
            Source::Folder(dir) => {
                let rel = crate::pack::is_safe_path(path)
                    .then(|| path.trim_start_matches("res://"))
                    .ok_or_else(|| Error::new(ErrorKind::UnsafePath(path.to_string())))?;
                let full = dir.join(rel);
                std::fs::read(&full).map_err(|e| match e.kind() {
                    std::io::ErrorKind::NotFound => {
                        Error::new(ErrorKind::NotFound(path.to_string()))
                    }
                    _ => Error::from(e).in_file(&full),
                })
            }
            Source::Pack(pack) => pack.read(path),
        }
    }
}

/// `path` with `res://` in front.
fn res(path: &str) -> String {
    format!("res://{}", path.strip_prefix("res://").unwrap_or(path))
}
