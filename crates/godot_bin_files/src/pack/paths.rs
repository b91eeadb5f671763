//! A pack's paths: how a `res://` path names an entry, and where an entry may be written
//! on extraction (never outside the target folder).

use super::format::bare;
use crate::error::{Error, ErrorKind, Result};
use std::path::PathBuf;

/// The key two paths compare by: without `res://`, as the engine does
/// (`simplify_path().trim_prefix("res://")`), so `res://a.png` and `a.png` name the
/// same file.
pub(crate) fn key(path: &str) -> &str {
    bare(path).trim_start_matches('/')
}

/// The relative path `path` (as a pack stores it) extracts to, checked: `res://` or no
/// prefix, then components that are plain names. Refused: an empty path or component,
/// `.` and `..`, an absolute path, a drive letter or any `:`, a backslash, a NUL, and
/// another scheme (`user://`).
pub(crate) fn safe_relative(path: &str) -> Result<PathBuf> {
    let refuse = |why: &str| {
        Err(Error::new(ErrorKind::UnsafePath(format!(
            "{path:?}: {why}"
        ))))
    };
    let rel = bare(path);
    if rel.is_empty() {
        return refuse("an empty path");
    }
    if rel.contains('\0') {
        return refuse("a NUL in the path");
    }
    if rel.contains('\\') {
        return refuse("a backslash (a Windows separator) in the path");
    }
    if rel.contains(':') {
        return refuse("a ':' (a drive letter, a stream or another scheme) in the path");
    }
    if rel.starts_with('/') {
        return refuse("an absolute path");
    }
    let mut out = PathBuf::new();
    for part in rel.split('/') {
        match part {
            "" => return refuse("an empty component"),
            "." | ".." => return refuse("a '.' or '..' component"),
            _ => out.push(part),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_below_the_folder_are_let_through() {
        assert_eq!(
            safe_relative("res://levels/one.tscn").unwrap(),
            PathBuf::from("levels/one.tscn")
        );
        assert_eq!(
            safe_relative("icon.png").unwrap(),
            PathBuf::from("icon.png")
        );
        for bad in [
            "res://../evil",
            "res://a/../../evil",
            "../evil",
            "/etc/passwd",
            "res:///etc/passwd",
            "C:/Windows/x",
            "res://C:\\x",
            "a\\..\\..\\b",
            "a\0b",
            "user://save.dat",
            "res://",
            "a//b",
            "./a",
        ] {
            let err = safe_relative(bad).unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::UnsafePath(_)),
                "{bad:?}: {err}"
            );
        }
    }

    #[test]
    fn res_and_bare_paths_name_the_same_file() {
        assert_eq!(key("res://a/b.png"), key("a/b.png"));
        assert_eq!(key("res:///a"), "a");
    }
}
