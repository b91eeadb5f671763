//! Files by path: what `ConfigFile::load`, `TextResource::save` and the others share.
//!
//! A write goes to a temporary file beside the target, which then takes its name, so a
//! failed write (a full disk, a crash) leaves the old file as it was, never half of a new
//! one. Errors name the file ([`Error::file`]).

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The bytes of the file at `path`.
pub(crate) fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| Error::from(e).in_file(path))
}

/// Runs `parse` on the file's bytes; its error names the file.
pub(crate) fn load<T>(path: &Path, parse: impl FnOnce(&[u8]) -> Result<T>) -> Result<T> {
    let bytes = read(path)?;
    parse(&bytes).map_err(|e| e.in_file(path))
}

/// Writes `bytes` to the file at `path` whole or not at all: through a temporary file in
/// the same folder, flushed to disk, then renamed over the target. A symbolic link's
/// target is written (the link stays) and keeps its permissions. What `save` of
/// [`ConfigFile`](crate::ConfigFile), [`TextResource`](crate::TextResource),
/// [`BinaryResource`](crate::BinaryResource) and [`save::Writer`](crate::save::Writer)
/// write through; errors name the file.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    let fail = |e: std::io::Error| Error::from(e).in_file(path);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut n = 0u32;
    let (tmp, mut file) = loop {
        let tmp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 100 => n += 1,
            Err(e) => return Err(fail(e)),
        }
    };
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| match permissions {
            Some(p) => std::fs::set_permissions(&tmp, p),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}

/// The `res://` path of the file at `path`: its path below the nearest folder above it
/// that holds a `project.godot`; `None` when no such folder is found.
pub(crate) fn res_path(path: &Path) -> Option<String> {
    let full = std::fs::canonicalize(path).ok()?;
    let mut dir = full.parent();
    while let Some(d) = dir {
        if d.join("project.godot").is_file() {
            let rel = full.strip_prefix(d).ok()?;
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            return Some(format!("res://{}", parts.join("/")));
        }
        dir = d.parent();
    }
    None
}

/// Every file below `root` (symbolic links not followed), as its relative path with `/`
/// between the names and its full path, sorted by the relative path.
pub(crate) fn files_below(root: &Path) -> Result<Vec<(String, PathBuf)>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) -> Result<()> {
        let read = std::fs::read_dir(dir).map_err(|e| Error::from(e).in_file(dir))?;
        for item in read {
            let item = item.map_err(|e| Error::from(e).in_file(dir))?;
            let path = item.path();
            let kind = item
                .file_type()
                .map_err(|e| Error::from(e).in_file(&path))?;
            if kind.is_dir() {
                walk(root, &path, out)?;
            } else if kind.is_file() {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let parts: Vec<String> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push((parts.join("/"), path));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(root, root, &mut out)?;
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_whole_and_leaves_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("godot_bin_fsio_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("project/levels")).unwrap();
        std::fs::write(dir.join("project/project.godot"), "config_version=5\n").unwrap();
        let target = dir.join("project/levels/one.tres");
        write_atomic(&target, b"first").unwrap();
        write_atomic(&target, b"second").unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"second");
        let left: Vec<_> = std::fs::read_dir(dir.join("project/levels"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 1, "{left:?}");
        assert_eq!(res_path(&target).as_deref(), Some("res://levels/one.tres"));
        // A write into a folder that does not exist fails and names the file.
        let err = write_atomic(&dir.join("nowhere/x.tres"), b"x").unwrap_err();
        assert!(err.to_string().ends_with("x.tres"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
