//! Where a project's `uid://` names come from: the editor's cache
//! (`.godot/uid_cache.bin`), the `.uid` file beside a script or shader, the `uid=` of a
//! text resource's header and of an `.import` file's `[remap]` section.

use crate::error::{Error, ErrorKind, Result};
use crate::resource::{uid_from_text, uid_to_text, INVALID_UID};

/// The editor's uid cache, `.godot/uid_cache.bin`: a u32 count, then per entry the id
/// (u64), the path's length (u32) and its UTF-8 bytes, little-endian. Entries appended
/// later (the editor appends, then rewrites the count) replace earlier ones with the
/// same id.
///
/// ```
/// use godot_bin_files::project::UidCache;
/// let mut cache = UidCache::default();
/// cache.insert("uid://cecaux1sm7mo0", "res://player.tscn");
/// let bytes = cache.to_bytes();
/// let back = UidCache::from_bytes(&bytes)?;
/// assert_eq!(back.path("uid://cecaux1sm7mo0"), Some("res://player.tscn"));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UidCache {
    entries: Vec<(u64, String)>,
}

impl UidCache {
    /// Reads a cache file's bytes. Its count is checked against the bytes there are
    /// (12 bytes at least per entry) before anything is allocated.
    pub fn from_bytes(bytes: &[u8]) -> Result<UidCache> {
        let corrupt = |why: String, at: usize| Error::at_offset(ErrorKind::Corrupt(why), at);
        let word = |at: usize| -> Result<u32> {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
                .ok_or_else(|| Error::at_offset(ErrorKind::UnexpectedEof, at.min(bytes.len())))
        };
        let count = word(0)? as usize;
        if count.saturating_mul(12) > bytes.len() - 4 {
            return Err(corrupt(
                format!("the uid cache claims {count} entries, more than its bytes hold"),
                0,
            ));
        }
        let mut entries = Vec::with_capacity(count);
        let mut at = 4;
        for _ in 0..count {
            let id = bytes
                .get(at..at + 8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
                .ok_or_else(|| Error::at_offset(ErrorKind::UnexpectedEof, bytes.len()))?;
            let len = word(at + 8)? as usize;
            let path = bytes
                .get(at + 12..(at + 12).saturating_add(len))
                .ok_or_else(|| {
                    corrupt(format!("a path of {len} bytes runs past the end"), at + 8)
                })?;
            entries.push((id, String::from_utf8_lossy(path).into_owned()));
            at += 12 + len;
        }
        Ok(UidCache { entries })
    }

    /// The cache's bytes, as the editor writes them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = (self.entries.len() as u32).to_le_bytes().to_vec();
        for (id, path) in &self.entries {
            out.extend_from_slice(&id.to_le_bytes());
            out.extend_from_slice(&(path.len() as u32).to_le_bytes());
            out.extend_from_slice(path.as_bytes());
        }
        out
    }

    /// Adds (or, read back, overrides) `uid` → `path`. A text that is no uid is ignored.
    pub fn insert(&mut self, uid: &str, path: &str) {
        if let Some(id) = uid_from_text(uid).filter(|&id| id != INVALID_UID) {
            self.entries.push((id, path.to_string()));
        }
    }

    /// The path of `uid` (`uid://...`): the last entry with its id.
    pub fn path(&self, uid: &str) -> Option<&str> {
        let id = uid_from_text(uid)?;
        self.entries
            .iter()
            .rev()
            .find(|(i, _)| *i == id)
            .map(|(_, p)| p.as_str())
    }

    /// The entries as (`uid://...`, path), in the file's order.
    pub fn iter(&self) -> impl Iterator<Item = (String, &str)> {
        self.entries
            .iter()
            .map(|(id, p)| (uid_to_text(*id), p.as_str()))
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The `uid="uid://..."` of a text resource's first line (its `[gd_scene ...]` or
/// `[gd_resource ...]` header), if it has one.
pub(crate) fn header_uid(text: &[u8]) -> Option<String> {
    let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
    let line = std::str::from_utf8(&text[..end]).ok()?;
    if !line.starts_with("[gd_") {
        return None;
    }
    quoted_after(line, " uid=\"")
}

/// The `uid="..."` of an `.import` file's `[remap]` section.
pub(crate) fn import_uid(text: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(text).ok()?;
    let remap = text.find("[remap]")?;
    let section = &text[remap..];
    let section = match section[1..].find("\n[") {
        Some(end) => &section[..end + 1],
        None => section,
    };
    section
        .lines()
        .find_map(|l| l.strip_prefix("uid=\"").and_then(|r| r.split('"').next()))
        .map(str::to_string)
}

/// The uid a `.uid` file holds (`uid://...` and a newline).
pub(crate) fn uid_file(text: &[u8]) -> Option<String> {
    let t = std::str::from_utf8(text).ok()?.trim();
    (t.starts_with("uid://") && uid_from_text(t).is_some()).then(|| t.to_string())
}

fn quoted_after(line: &str, key: &str) -> Option<String> {
    let start = line.find(key)? + key.len();
    let rest = &line[start..];
    Some(rest[..rest.find('"')?].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_reads_as_the_engine_writes_it_and_refuses_lies() {
        // Two entries by hand, the second overriding the first's id.
        let mut b = 2u32.to_le_bytes().to_vec();
        for (id, path) in [(5u64, "res://a.tscn"), (5, "res://b.tscn")] {
            b.extend_from_slice(&id.to_le_bytes());
            b.extend_from_slice(&(path.len() as u32).to_le_bytes());
            b.extend_from_slice(path.as_bytes());
        }
        let cache = UidCache::from_bytes(&b).unwrap();
        assert_eq!(cache.path(&uid_to_text(5)), Some("res://b.tscn"));
        assert_eq!(cache.to_bytes(), b);
        let err = UidCache::from_bytes(&u32::MAX.to_le_bytes()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{err}");
        let err = UidCache::from_bytes(&b[..b.len() - 1]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{err}");
    }

    #[test]
    fn uids_in_headers_import_files_and_uid_files() {
        let scene = b"[gd_scene load_steps=2 format=3 uid=\"uid://cecaux1sm7mo0\"]\n\n";
        assert_eq!(header_uid(scene).as_deref(), Some("uid://cecaux1sm7mo0"));
        assert_eq!(
            header_uid(b"[gd_scene format=3]\n[ext_resource uid=\"uid://x\"]"),
            None
        );
        let import = b"[remap]\n\nimporter=\"texture\"\nuid=\"uid://b4jq0r3l8d1kg\"\npath=\"res://.godot/imported/icon.svg-1.ctex\"\n\n[deps]\nuid=\"no\"\n";
        assert_eq!(import_uid(import).as_deref(), Some("uid://b4jq0r3l8d1kg"));
        assert_eq!(
            uid_file(b"uid://dqb8ejbl5q4ta\n").as_deref(),
            Some("uid://dqb8ejbl5q4ta")
        );
        assert_eq!(uid_file(b"not a uid"), None);
    }
}
