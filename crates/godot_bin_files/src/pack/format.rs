//! The bytes of a pack: its header and its directory, parsed and written back exactly.
//!
//! Nothing here reads a file: the header and the directory are decoded from bytes (or a
//! reader bounded by the bytes the file really has) and encoded to bytes. Every count,
//! length and offset is checked against the bytes there are before anything is
//! allocated on its word.

use crate::error::{Error, ErrorKind, Result};
use std::fmt;
use std::io::Read;

/// `"GDPC"`: the first four bytes of a pack, and the last four of an executable with a
/// pack appended.
pub(crate) const MAGIC: &[u8; 4] = b"GDPC";
/// The newest pack format version read and written (Godot 4.7).
pub(crate) const LATEST: u32 = 4;

/// Pack flag bit 0: the directory is encrypted.
pub const DIR_ENCRYPTED: u32 = 1;
/// Pack flag bit 1: `file_base` (and so every offset) counts from the pack's start.
pub const RELATIVE_FILE_BASE: u32 = 2;
/// Pack flag bit 2 (Godot 4.7): a sparse bundle, whose files lie beside the pack.
pub const SPARSE_BUNDLE: u32 = 4;
/// File flag bit 0: the file's bytes are encrypted.
pub const FILE_ENCRYPTED: u32 = 1;
/// File flag bit 1: the entry removes a file an earlier pack added (patch packs).
pub const FILE_REMOVAL: u32 = 2;
/// File flag bit 2 (Godot 4.7): the file is a delta over an earlier pack's.
pub const FILE_DELTA: u32 = 4;

/// The smallest directory entry of each format: a path length, an empty path, offset,
/// size and MD5 (and the flags word from version 2 on). A directory that claims more
/// entries than its bytes can hold is refused before any is read.
pub(crate) fn min_entry_len(format: u32) -> u64 {
    if format >= 2 {
        40
    } else {
        36
    }
}

/// Bytes an encrypted block adds in front of its content: MD5, length, IV.
pub(crate) const ENCRYPTED_HEAD: u64 = 40;

/// The bytes a file's content takes in the pack: itself, or encrypted, the block head
/// and the content padded to whole AES blocks.
pub(crate) fn stored_len(size: u64, encrypted: bool) -> Option<u64> {
    if encrypted {
        size.checked_add(15)
            .map(|n| n / 16 * 16)
            .and_then(|n| n.checked_add(ENCRYPTED_HEAD))
    } else {
        Some(size)
    }
}

/// A pack's header: the format version, the engine that wrote it, and where its files
/// and directory are.
///
/// ```
/// use godot_bin_files::pack::Header;
/// let h = Header::new(2, [4, 4, 1]);
/// assert_eq!(h.to_string(), "pack format 2, Godot 4.4.1, flags 0x0, file base 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Pack format version: 0 (Godot 2.1), 1 (3.x), 2 (4.0–4.4), 3 (4.5–4.6), 4 (4.7).
    pub format: u32,
    /// The major, minor and patch numbers of the engine that wrote the pack (the engine
    /// refuses packs from newer engines than itself).
    pub engine: [u32; 3],
    /// Pack flags (version 2 on): [`DIR_ENCRYPTED`], [`RELATIVE_FILE_BASE`],
    /// [`SPARSE_BUNDLE`].
    pub flags: u32,
    /// Where file offsets count from (version 2 on), as stored.
    pub file_base: u64,
    /// Where the directory is, from the pack's start (version 3 on), as stored.
    pub dir_offset: u64,
    /// The 16 reserved words, as stored; in version 4 their first 32 bytes are the salt
    /// of a sparse bundle's encrypted directory.
    pub reserved: [u8; 64],
}

impl Header {
    /// A header of pack `format` for engine `major.minor.patch`, flags and bases 0.
    pub fn new(format: u32, engine: [u32; 3]) -> Header {
        Header {
            format,
            engine,
            flags: 0,
            file_base: 0,
            dir_offset: 0,
            reserved: [0; 64],
        }
    }

    /// The header's length in bytes: 84 (versions 0, 1), 96 (2), 104 (3, 4).
    pub fn len(&self) -> u64 {
        match self.format {
            0 | 1 => 84,
            2 => 96,
            _ => 104,
        }
    }

    /// Never: a header has at least its magic. (For clippy's `len` rule.)
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether the directory is encrypted.
    pub fn dir_encrypted(&self) -> bool {
        self.format >= 2 && self.flags & DIR_ENCRYPTED != 0
    }

    /// The salt of a version 4 sparse bundle's encrypted directory, when it has one.
    pub fn salt(&self) -> Option<&[u8]> {
        (self.format >= 4 && self.flags & SPARSE_BUNDLE != 0 && self.dir_encrypted())
            .then(|| &self.reserved[..32])
    }

    /// Decodes a header from `bytes`, which start at the magic.
    pub(crate) fn parse(bytes: &[u8], at: u64) -> Result<Header> {
        let word = |i: usize| -> Result<u32> {
            bytes
                .get(i..i + 4)
                .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
                .ok_or_else(|| eof(at + i as u64))
        };
        let long = |i: usize| -> Result<u64> {
            bytes
                .get(i..i + 8)
                .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
                .ok_or_else(|| eof(at + i as u64))
        };
        if bytes.get(..4) != Some(MAGIC) {
            return Err(Error::at_offset(
                ErrorKind::Corrupt("no GDPC magic: not a pack".into()),
                at as usize,
            ));
        }
        let format = word(4)?;
        if format > LATEST {
            return Err(Error::at_offset(
                ErrorKind::Unsupported(format!(
                    "pack format version {format} (versions 0 to {LATEST} are read)"
                )),
                at as usize + 4,
            ));
        }
        let mut h = Header::new(format, [word(8)?, word(12)?, word(16)?]);
        let mut i = 20;
        if format >= 2 {
            h.flags = word(20)?;
            h.file_base = long(24)?;
            i = 32;
        }
        if format >= 3 {
            h.dir_offset = long(32)?;
            i = 40;
        }
        let reserved = bytes.get(i..i + 64).ok_or_else(|| eof(at + i as u64))?;
        h.reserved.copy_from_slice(reserved);
        Ok(h)
    }

    /// The header's bytes, exactly as [`parse`](Self::parse) read them.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len() as usize);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.format.to_le_bytes());
        for n in self.engine {
            out.extend_from_slice(&n.to_le_bytes());
        }
        if self.format >= 2 {
            out.extend_from_slice(&self.flags.to_le_bytes());
            out.extend_from_slice(&self.file_base.to_le_bytes());
        }
        if self.format >= 3 {
            out.extend_from_slice(&self.dir_offset.to_le_bytes());
        }
        out.extend_from_slice(&self.reserved);
        out
    }
}

/// `pack format 2, Godot 4.4.1, flags 0x3 (encrypted directory, relative file base), file
/// base 96` (and the directory offset from version 3 on).
impl fmt::Display for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [major, minor, patch] = self.engine;
        write!(
            f,
            "pack format {}, Godot {major}.{minor}.{patch}, flags {:#x}",
            self.format, self.flags
        )?;
        let names: Vec<&str> = [
            (DIR_ENCRYPTED, "encrypted directory"),
            (RELATIVE_FILE_BASE, "relative file base"),
            (SPARSE_BUNDLE, "sparse bundle"),
        ]
        .iter()
        .filter(|(bit, _)| self.flags & bit != 0)
        .map(|(_, name)| *name)
        .collect();
        if !names.is_empty() {
            write!(f, " ({})", names.join(", "))?;
        }
        write!(f, ", file base {}", self.file_base)?;
        if self.format >= 3 {
            write!(f, ", directory at {}", self.dir_offset)?;
        }
        Ok(())
    }
}

/// One file of a pack's directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path as stored, without the NUL padding.
    pub(crate) path: String,
    /// The stored path bytes, padding included (written back as they were).
    pub(crate) raw_path: Vec<u8>,
    pub(crate) offset: u64,
    pub(crate) size: u64,
    pub(crate) md5: [u8; 16],
    pub(crate) flags: u32,
    /// Where the data starts in the file (the offset and the pack's base).
    pub(crate) position: u64,
}

impl Entry {
    /// A new entry for `path` (stored as given), with its path padded to 4 bytes as the
    /// editor's exports do.
    pub(crate) fn new(path: &str, size: u64, md5: [u8; 16], flags: u32) -> Entry {
        let mut raw_path = path.as_bytes().to_vec();
        raw_path.resize(raw_path.len().div_ceil(4) * 4, 0);
        Entry {
            path: path.to_string(),
            raw_path,
            offset: 0,
            size,
            md5,
            flags,
            position: 0,
        }
    }

    /// The path as the pack stores it: `res://icon.png` (Godot 2 to 4.3) or
    /// `icon.png` (4.4 on).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path with `res://` in front, however the pack stores it.
    pub fn res_path(&self) -> String {
        format!("res://{}", bare(&self.path))
    }

    /// The offset as stored (from the file's start in versions 0 and 1, from the file
    /// base after).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Where the file's stored bytes start in the file the pack was read from.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The file's length (decrypted, for an encrypted file).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes the file takes in the pack: its size, or for an encrypted file the
    /// encrypted block (40 bytes of head and the content padded to 16).
    pub fn stored_len(&self) -> u64 {
        stored_len(self.size, self.is_encrypted()).unwrap_or(u64::MAX)
    }

    /// The MD5 the directory gives (all zeros from Godot 3's `PCKPacker`).
    pub fn md5(&self) -> [u8; 16] {
        self.md5
    }

    /// The file flags (version 2 on): [`FILE_ENCRYPTED`], [`FILE_REMOVAL`],
    /// [`FILE_DELTA`].
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// Whether the file's bytes are encrypted.
    pub fn is_encrypted(&self) -> bool {
        self.flags & FILE_ENCRYPTED != 0
    }

    /// Whether the entry removes a file (a patch pack's) rather than holding one.
    pub fn is_removal(&self) -> bool {
        self.flags & FILE_REMOVAL != 0
    }
}

/// `res://icon.png\t1234\t<md5 hex>`: the path with `res://`, the size, the directory's
/// MD5.
impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\t{}\t{}", self.res_path(), self.size, hex(&self.md5))
    }
}

/// Lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A path without `res://` in front.
pub(crate) fn bare(path: &str) -> &str {
    path.strip_prefix("res://").unwrap_or(path)
}

fn eof(at: u64) -> Error {
    Error::at_offset(ErrorKind::UnexpectedEof, at as usize)
}

/// Reads `count` directory entries of pack `format` from `r`, which holds at most
/// `available` bytes (the file's bytes after the count, or an encrypted directory's
/// content). `at` is where `r` starts in the file, for errors.
pub(crate) fn parse_entries(
    mut r: impl Read,
    count: u32,
    format: u32,
    available: u64,
    at: u64,
) -> Result<Vec<Entry>> {
    let min = min_entry_len(format);
    if u64::from(count) * min > available {
        return Err(Error::at_offset(
            ErrorKind::Corrupt(format!(
                "the directory claims {count} files, more than its {available} bytes can hold"
            )),
            at as usize,
        ));
    }
    let mut entries = Vec::with_capacity(count as usize);
    let mut used = 0u64;
    let mut take = |buf: &mut [u8], used: &mut u64| -> Result<()> {
        let mut got = 0;
        while got < buf.len() {
            match r.read(&mut buf[got..]) {
                Ok(0) => return Err(eof(at + *used + got as u64)),
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        *used += buf.len() as u64;
        Ok(())
    };
    for i in 0..count {
        let mut word = [0u8; 4];
        take(&mut word, &mut used)?;
        let len = u64::from(u32::from_le_bytes(word));
        // What this entry and the ones after it need at least, beyond the path.
        let rest = min - 4 + u64::from(count - i - 1) * min;
        if used + len + rest > available {
            return Err(Error::at_offset(
                ErrorKind::Corrupt(format!(
                    "entry {i}'s path of {len} bytes runs past the directory's end"
                )),
                (at + used - 4) as usize,
            ));
        }
        let mut raw_path = vec![0u8; len as usize];
        take(&mut raw_path, &mut used)?;
        let mut fixed = [0u8; 36];
        let fixed = &mut fixed[..(min - 4) as usize];
        take(fixed, &mut used)?;
        let long = |i: usize| u64::from_le_bytes(fixed[i..i + 8].try_into().unwrap_or_default());
        let end = raw_path
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(raw_path.len());
        entries.push(Entry {
            path: String::from_utf8_lossy(&raw_path[..end]).into_owned(),
            raw_path,
            offset: long(0),
            size: long(8),
            md5: fixed[16..32].try_into().unwrap_or_default(),
            flags: if format >= 2 {
                u32::from_le_bytes(fixed[32..36].try_into().unwrap_or_default())
            } else {
                0
            },
            position: 0,
        });
    }
    Ok(entries)
}

/// The entries' bytes (after the count), as [`parse_entries`] reads them.
pub(crate) fn entries_to_bytes(entries: &[Entry], format: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        out.extend_from_slice(&(e.raw_path.len() as u32).to_le_bytes());
        out.extend_from_slice(&e.raw_path);
        out.extend_from_slice(&e.offset.to_le_bytes());
        out.extend_from_slice(&e.size.to_le_bytes());
        out.extend_from_slice(&e.md5);
        if format >= 2 {
            out.extend_from_slice(&e.flags.to_le_bytes());
        }
    }
    out
}

/// `n` rounded up to a multiple of `alignment` (0 and 1: unchanged).
pub(crate) fn align(n: u64, alignment: u64) -> u64 {
    if alignment <= 1 {
        n
    } else {
        n.div_ceil(alignment).saturating_mul(alignment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_bytes_round_trip_in_every_format() {
        for format in 0..=LATEST {
            let mut h = Header::new(format, [4, 5, 1]);
            if format >= 2 {
                h.flags = 3;
                h.file_base = 112;
            }
            if format >= 3 {
                h.dir_offset = 9000;
            }
            h.reserved[7] = 9;
            let bytes = h.to_bytes();
            assert_eq!(bytes.len() as u64, h.len(), "format {format}");
            assert_eq!(Header::parse(&bytes, 0).unwrap(), h);
        }
    }

    #[test]
    fn a_directory_claiming_more_files_than_bytes_is_refused_before_reading() {
        let err = parse_entries(&[][..], 1000, 2, 39_999, 0).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(m) if m.contains("1000 files")));
        // A path longer than what is left.
        let mut bytes = u32::MAX.to_le_bytes().to_vec();
        bytes.extend([0u8; 36]);
        let err = parse_entries(&bytes[..], 1, 2, bytes.len() as u64, 0).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(m) if m.contains("path")));
    }

    #[test]
    fn entries_round_trip_with_their_padding() {
        let mut a = Entry::new("res://a.txt", 5, [1; 16], 1);
        a.offset = 64;
        let mut b = Entry::new("b.png", 7, [2; 16], 0);
        b.raw_path.push(0); // odd padding, kept as it was
        let bytes = entries_to_bytes(&[a.clone(), b.clone()], 2);
        let back = parse_entries(&bytes[..], 2, 2, bytes.len() as u64, 0).unwrap();
        assert_eq!(back, [a, b]);
        assert_eq!(back[1].path(), "b.png");
        assert_eq!(back[1].res_path(), "res://b.png");
    }
}
