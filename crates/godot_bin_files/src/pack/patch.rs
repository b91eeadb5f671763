//! Changing a pack in place: [`Patch`].
//!
//! The rule: no byte of a file left alone is written. New bytes go after the end of the
//! file, and the directory is written anew:
//!
//! - Formats 3 and 4 keep the directory at the end: the new files and then the new
//!   directory are appended, and the header's directory offset is written last, so until
//!   that one 8-byte write the old directory still describes the old pack.
//! - Formats 0 to 2 keep the directory right after the header, in front of the files.
//!   The new directory is written where the old one was. When it is longer than the room
//!   before the first file's bytes, the files it would overwrite (the first one or few)
//!   are copied to the end first and their entries point there: the cost is those
//!   files, not the pack. The new bytes are appended (and flushed) before the directory
//!   is written.
//! - An executable's pack gets its trailer (the pack's size and `GDPC`) again at the new
//!   end of the file.
//!
//! A replaced or removed file's old bytes stay where they were, unreferenced: the pack
//! grows by what is added. [`Pack::write_to`](super::Pack::write_to) of a fresh
//! [`PackWriter`](super::PackWriter) compacts one.

use super::format::{align, stored_len, Entry, FILE_ENCRYPTED};
use super::{directory_bytes, encrypt_block, paths, Key, Pack};
use crate::error::{Error, ErrorKind, Result};
use md5::{Digest, Md5};
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

enum Change {
    Set {
        path: String,
        data: Vec<u8>,
        encrypt: Option<bool>,
    },
    Remove(String),
}

/// Adds, replaces and removes files of a pack on disk, in place: the bytes of the files
/// left alone are not written, so the time grows with what changes, not with the pack.
/// The changes are collected, then made by [`commit`](Self::commit).
///
/// ```
/// use godot_bin_files::pack::{Pack, PackWriter, Patch};
/// let path = std::env::temp_dir().join(format!("godot_bin_patch_doc_{}.pck", std::process::id()));
/// let mut w = PackWriter::for_engine("4.4")?;
/// w.add("res://a.txt", b"old".to_vec()).add("res://b.txt", b"bee".to_vec());
/// w.save(&path)?;
///
/// let mut patch = Patch::open(&path, None)?;
/// patch.set("res://a.txt", b"new".to_vec()).remove("res://b.txt");
/// patch.set("res://c.txt", b"sea".to_vec());
/// patch.commit()?;
///
/// let mut pack = Pack::open(&path)?;
/// assert_eq!(pack.read("res://a.txt")?, b"new");
/// assert!(pack.entry("res://b.txt").is_none());
/// assert_eq!(pack.read("c.txt")?, b"sea");
/// # std::fs::remove_file(&path).ok();
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
pub struct Patch {
    path: PathBuf,
    key: Option<Key>,
    changes: Vec<Change>,
}

/// What a [`Patch::commit`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Patched {
    /// Files whose bytes were copied to the end to make room for a longer directory
    /// (formats 0 to 2), by path.
    pub relocated: Vec<String>,
    /// Bytes written after the old end of the file.
    pub appended: u64,
}

impl Patch {
    /// Starts changing the pack at `path` (a `.pck` or an executable's pack), with the
    /// key of an encrypted one. The pack is opened to check it now.
    pub fn open(path: impl AsRef<Path>, key: Option<&Key>) -> Result<Patch> {
        let path = path.as_ref().to_path_buf();
        match key {
            Some(k) => Pack::open_with_key(&path, k)?,
            None => Pack::open(&path)?,
        };
        Ok(Patch {
            path,
            key: key.cloned(),
            changes: Vec::new(),
        })
    }

    /// Puts `data` at `path`: replaces the file there, or adds one. A replaced file
    /// stays encrypted if it was; a new one is encrypted if the pack's files are.
    pub fn set(&mut self, path: &str, data: Vec<u8>) -> &mut Self {
        self.changes.push(Change::Set {
            path: path.to_string(),
            data,
            encrypt: None,
        });
        self
    }

    /// As [`set`](Self::set), choosing whether the file's bytes are encrypted.
    pub fn set_encrypted(&mut self, path: &str, data: Vec<u8>, encrypt: bool) -> &mut Self {
        self.changes.push(Change::Set {
            path: path.to_string(),
            data,
            encrypt: Some(encrypt),
        });
        self
    }

    /// Removes the file at `path` ([`ErrorKind::NotFound`] at commit if there is none).
    pub fn remove(&mut self, path: &str) -> &mut Self {
        self.changes.push(Change::Remove(path.to_string()));
        self
    }

    /// Makes the changes. See the module's documentation for where the bytes go.
    pub fn commit(self) -> Result<Patched> {
        let path = self.path.clone();
        self.commit_inner().map_err(|e| e.in_file(&path))
    }

    fn commit_inner(self) -> Result<Patched> {
        let file = OpenOptions::new().read(true).write(true).open(&self.path)?;
        let pack = Pack::from_reader(file, self.key.as_ref())?;
        let alignment = pack_alignment(&pack);
        let (mut file, mut header, old_entries, span, key) = pack.into_parts();
        let with_prefix = match old_entries.first() {
            Some(e) => e.path.starts_with("res://"),
            None => header.format <= 1 || (header.engine[0] == 4 && header.engine[1] < 4),
        };
        let pack_encrypts = old_entries.iter().any(Entry::is_encrypted);
        // The entries, each with the new bytes it needs written (None: left alone).
        let mut entries: Vec<(Entry, Option<Vec<u8>>)> =
            old_entries.into_iter().map(|e| (e, None)).collect();
        for change in self.changes {
            match change {
                Change::Remove(p) => {
                    let before = entries.len();
                    entries.retain(|(e, _)| paths::key(&e.path) != paths::key(&p));
                    if entries.len() == before {
                        return Err(Error::new(ErrorKind::NotFound(p)));
                    }
                }
                Change::Set {
                    path: p,
                    data,
                    encrypt,
                } => {
                    paths::safe_relative(&p)?;
                    let md5: [u8; 16] = Md5::digest(&data).into();
                    let found = entries
                        .iter()
                        .rposition(|(e, _)| paths::key(&e.path) == paths::key(&p));
                    let i = match found {
                        Some(i) => i,
                        None => {
                            let stored = if with_prefix {
                                format!("res://{}", paths::key(&p))
                            } else {
                                paths::key(&p).to_string()
                            };
                            entries.push((Entry::new(&stored, 0, [0; 16], 0), None));
                            entries.len() - 1
                        }
                    };
                    let e = &mut entries[i].0;
                    let encrypted = encrypt.unwrap_or(if found.is_some() {
                        e.is_encrypted()
                    } else {
                        pack_encrypts
                    });
                    if encrypted && header.format < 2 {
                        return Err(Error::unwritable(format!(
                            "pack format {} has no encryption",
                            header.format
                        )));
                    }
                    e.size = data.len() as u64;
                    e.md5 = md5;
                    e.flags = if encrypted {
                        e.flags | FILE_ENCRYPTED
                    } else {
                        e.flags & !FILE_ENCRYPTED
                    };
                    let stored = if encrypted {
                        let key = key.as_ref().ok_or(ErrorKind::KeyRequired)?;
                        encrypt_block(&data, key, None)?
                    } else {
                        data
                    };
                    entries[i].1 = Some(stored);
                }
            }
        }
        let plain: Vec<Entry> = entries.iter().map(|(e, _)| e.clone()).collect();
        let dir_len = directory_bytes(&header, &plain, key.as_ref(), Some([0; 16]))?.len() as u64;
        let mut relocated = Vec::new();
        if header.format <= 2 {
            // Files the new directory would overwrite are copied to the end.
            let limit = span.dir_start + dir_len;
            for (e, new) in &mut entries {
                if new.is_none()
                    && e.position < limit
                    && e.position + e.stored_len() > span.dir_start
                {
                    let mut bytes = Vec::with_capacity(e.stored_len() as usize);
                    file.seek(SeekFrom::Start(e.position))?;
                    std::io::copy(&mut (&mut file).take(e.stored_len()), &mut bytes)?;
                    if bytes.len() as u64 != e.stored_len() {
                        return Err(Error::at_offset(
                            ErrorKind::UnexpectedEof,
                            e.position as usize,
                        ));
                    }
                    relocated.push(e.res_path());
                    *new = Some(bytes);
                }
            }
        }
        // Append the new bytes after the end of the file.
        let mut at = span.file_len;
        let mut appended_any = false;
        file.seek(SeekFrom::Start(at))?;
        let mut out = std::io::BufWriter::new(&mut file);
        for (e, new) in &mut entries {
            let Some(bytes) = new.take() else { continue };
            let pos = span.start + align(at - span.start, alignment);
            zeros(&mut out, pos - at)?;
            out.write_all(&bytes)?;
            debug_assert_eq!(
                bytes.len() as u64,
                stored_len(e.size, e.is_encrypted()).unwrap_or(0)
            );
            e.position = pos;
            e.offset = pos.checked_sub(span.base).ok_or_else(|| {
                Error::corrupt("the pack's file base lies past the end of the file")
            })?;
            at = pos + bytes.len() as u64;
            appended_any = true;
        }
        let entries: Vec<Entry> = entries.into_iter().map(|(e, _)| e).collect();
        let dir = directory_bytes(&header, &entries, key.as_ref(), None)?;
        if header.format >= 3 {
            let pos = span.start + align(at - span.start, 4);
            zeros(&mut out, pos - at)?;
            out.write_all(&dir)?;
            header.dir_offset = pos - span.start;
            at = pos + dir.len() as u64;
            appended_any = true;
        }
        if span.trailer && appended_any {
            out.write_all(&(at - span.start).to_le_bytes())?;
            out.write_all(super::format::MAGIC)?;
            at += 12;
        }
        out.flush()?;
        drop(out);
        file.sync_data()?;
        if header.format >= 3 {
            // The commit point: the header names the new directory.
            file.seek(SeekFrom::Start(span.start))?;
            file.write_all(&header.to_bytes())?;
        } else {
            file.seek(SeekFrom::Start(span.dir_start))?;
            file.write_all(&dir)?;
            let end = span.dir_start + dir.len() as u64;
            if end < span.dir_end {
                zeros(&mut file, span.dir_end - end)?;
            }
        }
        file.sync_data()?;
        Ok(Patched {
            relocated,
            appended: at - span.file_len,
        })
    }
}

/// The alignment new files get: the largest power of two up to 4096 that every file's
/// position (from the pack's start) is a multiple of; 16, Godot's, for a pack of fewer
/// than two files.
fn pack_alignment<R>(pack: &Pack<R>) -> u64 {
    let files: Vec<u64> = pack
        .entries()
        .iter()
        .map(|e| e.position().wrapping_sub(pack.span().start))
        .collect();
    if files.len() < 2 {
        return 16;
    }
    let mut a = 4096u64;
    while a > 1 && files.iter().any(|p| p % a != 0) {
        a /= 2;
    }
    a
}

fn zeros(out: &mut impl Write, n: u64) -> Result<()> {
    std::io::copy(&mut std::io::repeat(0).take(n), out)?;
    Ok(())
}
