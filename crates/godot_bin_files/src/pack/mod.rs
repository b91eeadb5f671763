//! PCK packs: the files of an exported game, in a `.pck` or appended to its executable.
//!
//! | Engine | Pack format | Here |
//! |---|---|---|
//! | Godot 2.1 | 0 | read, written, patched |
//! | Godot 3.x | 1 | read, written, patched |
//! | Godot 4.0 – 4.4 | 2: flags, file base, encrypted files and directory | read, written, patched |
//! | Godot 4.5 – 4.6 | 3: the directory at the end, offsets from the pack's start | read, written, patched |
//! | Godot 4.7 | 4: as 3, a salt for sparse bundles' directories | read, written, patched |
//!
//! [`Pack`] opens a pack where the engine finds it (at the start of the file, or at the
//! end of an executable that ends with the pack's size and `GDPC`), lists its files
//! ([`Pack::entries`]: path, offset, size, MD5, encrypted or not) and reads any one of
//! them, streaming ([`Pack::reader`]) or whole ([`Pack::read`]), without reading the
//! pack whole. [`Pack::extract_all`] writes every file below a folder and nowhere else.
//! [`PackWriter`] writes a new pack for a chosen engine; [`Patch`] adds, replaces and
//! removes files of a pack in place, leaving the bytes of the other files alone.
//!
//! Encrypted packs (Godot 4) use the game's 32-byte key ([`Key`]); a stock engine
//! without a key compiled in uses the all-zero key. A wrong key is
//! [`ErrorKind::WrongKey`] (the MD5 of the decrypted bytes differs from the one stored);
//! a damaged or cut pack is [`ErrorKind::Corrupt`] or [`ErrorKind::UnexpectedEof`].
//!
//! ```
//! use godot_bin_files::pack::{Pack, PackWriter};
//! use godot_bin_files::save::Key;
//! use std::io::Cursor;
//!
//! // A Godot 4.4 pack, its files and directory encrypted with the all-zero key.
//! let key = Key::bytes([0; 32]);
//! let mut w = PackWriter::for_engine("4.4.1")?.key(key.clone()).encrypt_files(true);
//! w.encrypt_directory(true);
//! w.add("res://project.binary", b"ECFG...".to_vec());
//! w.add("res://icon.svg", b"<svg/>".to_vec());
//! let bytes = w.to_bytes()?;
//!
//! let mut pack = Pack::from_reader(Cursor::new(&bytes), Some(&key))?;
//! assert_eq!(pack.header().format, 2);
//! let paths: Vec<String> = pack.entries().iter().map(|e| e.res_path()).collect();
//! assert_eq!(paths, ["res://project.binary", "res://icon.svg"]);
//! assert_eq!(pack.read("res://icon.svg")?, b"<svg/>");
//!
//! // Another key: the directory's MD5 does not match.
//! let err = Pack::from_reader(Cursor::new(&bytes), Some(&Key::bytes([1; 32]))).unwrap_err();
//! assert!(matches!(err.kind(), godot_bin_files::ErrorKind::WrongKey));
//! # Ok::<(), godot_bin_files::Error>(())
//! ```

mod format;
mod patch;
mod paths;
mod writer;

pub use crate::save::Key;
pub use format::{
    Entry, Header, DIR_ENCRYPTED, FILE_DELTA, FILE_ENCRYPTED, FILE_REMOVAL, RELATIVE_FILE_BASE,
    SPARSE_BUNDLE,
};
pub use patch::{Patch, Patched};

/// Whether [`Pack::extract_all`] would write the file at `path` (as a pack stores it):
/// a relative path of plain names below the folder, no `..`, `.`, empty component,
/// absolute path, drive letter or `:`, backslash or NUL.
pub fn is_safe_path(path: &str) -> bool {
    paths::safe_relative(path).is_ok()
}
pub use writer::PackWriter;

use crate::error::{Error, ErrorKind, Result};
use crate::save::gdec::GdecReader;
use crate::save::Layout;
use format::{parse_entries, MAGIC};
use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom, Take, Write};
use std::path::Path;

/// Where a pack lies in its file, beside what its header and directory say.
#[derive(Clone, Debug)]
pub(crate) struct Span {
    /// The file's length.
    pub(crate) file_len: u64,
    /// Where the pack starts (0, or inside an executable).
    pub(crate) start: u64,
    /// Whether the file ends with the pack's size and `GDPC` (an executable's pack).
    pub(crate) trailer: bool,
    /// Where file offsets count from, in the file.
    pub(crate) base: u64,
    /// The directory: where its file count starts and where it ends.
    pub(crate) dir_start: u64,
    pub(crate) dir_end: u64,
    /// The initial vector of an encrypted directory.
    pub(crate) dir_iv: Option<[u8; 16]>,
}

/// A pack opened for reading: its header and directory, read when it is opened, and its
/// files, read when asked for.
///
/// Open a `.pck`, or an executable with its pack inside, by path ([`Pack::open`],
/// [`Pack::open_with_key`]) or any `Read + Seek` ([`Pack::from_reader`]).
pub struct Pack<R = BufReader<File>> {
    source: R,
    header: Header,
    entries: Vec<Entry>,
    span: Span,
    key: Option<Key>,
}

impl Pack<BufReader<File>> {
    /// Opens the pack at `path`, a `.pck` or an executable with a pack appended. A pack
    /// whose directory is encrypted is [`ErrorKind::KeyRequired`]: use
    /// [`open_with_key`](Self::open_with_key).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_key(path.as_ref(), None)
    }

    /// Opens the pack at `path` with the game's key, for an encrypted directory or
    /// encrypted files.
    pub fn open_with_key(path: impl AsRef<Path>, key: &Key) -> Result<Self> {
        Self::open_key(path.as_ref(), Some(key))
    }

    fn open_key(path: &Path, key: Option<&Key>) -> Result<Self> {
        let file = File::open(path).map_err(|e| Error::from(e).in_file(path))?;
        Pack::from_reader(BufReader::new(file), key).map_err(|e| e.in_file(path))
    }
}

/// The header, where the pack starts and how many files it has (never the key).
impl<R> std::fmt::Debug for Pack<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pack")
            .field("header", &self.header)
            .field("start", &self.span.start)
            .field("files", &self.entries.len())
            .finish_non_exhaustive()
    }
}

impl<R> Pack<R> {
    /// The header: format version, engine numbers, flags.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The directory's entries, in the directory's order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry of `path` (`res://a.png` and `a.png` name the same file); the last one
    /// when the directory names a path twice, as the engine keeps the last.
    pub fn entry(&self, path: &str) -> Option<&Entry> {
        let want = paths::key(path);
        self.entries
            .iter()
            .rev()
            .find(|e| paths::key(&e.path) == want)
    }

    /// Where the pack starts in its file: 0 for a `.pck`, the executable's length for an
    /// executable with a pack appended.
    pub fn start(&self) -> u64 {
        self.span.start
    }

    /// Whether the pack sits at the end of an executable (the file ends with the pack's
    /// size and `GDPC`).
    pub fn is_embedded(&self) -> bool {
        self.span.trailer
    }

    /// Where the directory lies in the file: from its file count to its end.
    pub fn directory_span(&self) -> (u64, u64) {
        (self.span.dir_start, self.span.dir_end)
    }

    pub(crate) fn span(&self) -> &Span {
        &self.span
    }

    pub(crate) fn into_parts(self) -> (R, Header, Vec<Entry>, Span, Option<Key>) {
        (self.source, self.header, self.entries, self.span, self.key)
    }
}

impl<R: Read + Seek> Pack<R> {
    /// Reads the header and directory of the pack in `source`, with the key of an
    /// encrypted pack if there is one.
    pub fn from_reader(mut source: R, key: Option<&Key>) -> Result<Self> {
        let file_len = source.seek(SeekFrom::End(0))?;
        let (start, trailer) = locate(&mut source, file_len)?;
        let mut head = vec![0u8; (file_len - start).min(104) as usize];
        read_at(&mut source, start, &mut head)?;
        let header = Header::parse(&head, start)?;
        let pack_end = if trailer { file_len - 12 } else { file_len };
        let dir_start = if header.format >= 3 {
            match start.checked_add(header.dir_offset) {
                Some(at) if at >= start + header.len() && at < pack_end => at,
                _ => {
                    return Err(Error::at_offset(
                        ErrorKind::Corrupt(format!(
                            "the directory offset {} is outside the pack",
                            header.dir_offset
                        )),
                        start as usize + 32,
                    ))
                }
            }
        } else {
            start + header.len()
        };
        let mut word = [0u8; 4];
        read_at(&mut source, dir_start, &mut word)?;
        let count = u32::from_le_bytes(word);
        let body = dir_start + 4;
        let available = pack_end.saturating_sub(body);
        let (mut entries, dir_end, dir_iv) = if header.dir_encrypted() {
            let key = key.ok_or_else(|| Error::at_offset(ErrorKind::KeyRequired, body as usize))?;
            source.seek(SeekFrom::Start(body))?;
            let (content, iv, len) = decrypt_block(&mut source, key, available, body)?;
            let entries = parse_entries(
                &content[..],
                count,
                header.format,
                content.len() as u64,
                body,
            )?;
            (entries, body + len, Some(iv))
        } else {
            source.seek(SeekFrom::Start(body))?;
            let mut counted = Counted {
                inner: BufReader::new((&mut source).take(available)),
                n: 0,
            };
            let entries = parse_entries(&mut counted, count, header.format, available, body)?;
            (entries, body + counted.n, None)
        };
        let base = match header.format {
            0 | 1 => 0,
            2 if header.flags & RELATIVE_FILE_BASE == 0 => header.file_base,
            _ => header.file_base.saturating_add(start),
        };
        for e in &mut entries {
            e.position = base.saturating_add(e.offset);
        }
        Ok(Pack {
            source,
            header,
            entries,
            span: Span {
                file_len,
                start,
                trailer,
                base,
                dir_start,
                dir_end,
                dir_iv,
            },
            key: key.cloned(),
        })
    }

    /// A reader of the file at `path`, decrypted if it is encrypted; it reads the pack
    /// as it goes (an encrypted file a kilobyte at a time), never the whole pack.
    pub fn reader(&mut self, path: &str) -> Result<FileReader<'_, R>> {
        let entry = self
            .entry(path)
            .cloned()
            .ok_or_else(|| Error::new(ErrorKind::NotFound(path.to_string())))?;
        self.entry_reader(&entry)
    }

    /// A reader of `entry`'s bytes (an entry of this pack).
    pub fn entry_reader(&mut self, entry: &Entry) -> Result<FileReader<'_, R>> {
        let stored = entry.stored_len();
        let end = entry.position.checked_add(stored);
        if end.is_none_or(|end| end > self.span.file_len) {
            return Err(Error::at_offset(
                ErrorKind::Corrupt(format!(
                    "{}'s {stored} bytes at {} run past the file's end ({})",
                    entry.res_path(),
                    entry.position,
                    self.span.file_len
                )),
                entry.position.min(self.span.file_len) as usize,
            ));
        }
        self.source.seek(SeekFrom::Start(entry.position))?;
        let inner = (&mut self.source).take(stored);
        if entry.is_encrypted() {
            let key = self
                .key
                .as_ref()
                .ok_or_else(|| Error::at_offset(ErrorKind::KeyRequired, entry.position as usize))?;
            let r = GdecReader::open_headless(inner, key).map_err(|e| corrupt_at(e, entry))?;
            if r.content_len() != entry.size {
                return Err(Error::at_offset(
                    ErrorKind::Corrupt(format!(
                        "{}: the directory says {} bytes, its encrypted block {}",
                        entry.res_path(),
                        entry.size,
                        r.content_len()
                    )),
                    entry.position as usize,
                ));
            }
            Ok(FileReader(Inner::Encrypted(Box::new(r))))
        } else {
            Ok(FileReader(Inner::Plain(inner)))
        }
    }

    /// The bytes of the file at `path`, decrypted if it is encrypted.
    pub fn read(&mut self, path: &str) -> Result<Vec<u8>> {
        let entry = self
            .entry(path)
            .cloned()
            .ok_or_else(|| Error::new(ErrorKind::NotFound(path.to_string())))?;
        let mut r = self.entry_reader(&entry)?;
        // The size is checked against the file's length by `entry_reader`.
        let mut out = Vec::with_capacity(entry.size as usize);
        r.read_to_end_checked(&mut out)?;
        Ok(out)
    }

    /// The MD5 of `entry`'s bytes (decrypted), read through: what the directory's MD5
    /// should be (Godot 3's `PCKPacker` stores zeros instead).
    pub fn file_md5(&mut self, entry: &Entry) -> Result<[u8; 16]> {
        use md5::{Digest, Md5};
        let mut r = self.entry_reader(entry)?;
        let mut h = Md5::new();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = r.read_checked(&mut buf)?;
            if n == 0 {
                return Ok(h.finalize().into());
            }
            h.update(&buf[..n]);
        }
    }

    /// Writes every file below `dir` (made if missing), each at its path without
    /// `res://`, streaming. A path that would land outside `dir` (`../`, absolute, a
    /// drive letter, a backslash, a NUL) is [`ErrorKind::UnsafePath`], checked for every
    /// entry before anything is written. Removal entries are skipped. Returns the
    /// number of files written.
    pub fn extract_all(&mut self, dir: impl AsRef<Path>) -> Result<usize> {
        let dir = dir.as_ref();
        let targets: Vec<(Entry, std::path::PathBuf)> = self
            .entries
            .iter()
            .filter(|e| !e.is_removal())
            .map(|e| Ok((e.clone(), dir.join(paths::safe_relative(&e.path)?))))
            .collect::<Result<_>>()?;
        let mut made: Option<&Path> = None;
        for (entry, target) in &targets {
            if let Some(parent) = target.parent().filter(|p| made != Some(*p)) {
                std::fs::create_dir_all(parent).map_err(|e| Error::from(e).in_file(parent))?;
                made = Some(parent);
            }
            let mut out = File::create(target).map_err(|e| Error::from(e).in_file(target))?;
            let mut r = self.entry_reader(entry)?;
            r.copy_to(&mut out).map_err(|e| e.in_file(target))?;
        }
        Ok(targets.len())
    }

    /// The pack written again to `out`: its header and directory encoded anew from what
    /// was read, every other byte (the files, the padding, an executable's bytes in
    /// front) copied as it is. A pack read and written back unchanged is the same bytes.
    /// An encrypted directory is encrypted again with its own initial vector.
    pub fn write_to(&mut self, mut out: impl Write) -> Result<()> {
        let s = self.span.clone();
        let header_end = s.start + self.header.len();
        self.copy_range(0, s.start, &mut out)?;
        out.write_all(&self.header.to_bytes())?;
        self.copy_range(header_end, s.dir_start, &mut out)?;
        let dir = self.directory_bytes(&self.entries, s.dir_iv)?;
        out.write_all(&dir)?;
        self.copy_range(s.dir_end, s.file_len, &mut out)?;
        Ok(())
    }

    /// The directory's bytes: the count, then the entries, encrypted with `iv` when the
    /// directory is.
    pub(crate) fn directory_bytes(
        &self,
        entries: &[Entry],
        iv: Option<[u8; 16]>,
    ) -> Result<Vec<u8>> {
        directory_bytes(&self.header, entries, self.key.as_ref(), iv)
    }

    /// Copies the file's bytes `from..to` to `out`.
    pub(crate) fn copy_range(&mut self, from: u64, to: u64, out: &mut impl Write) -> Result<()> {
        if to <= from {
            return Ok(());
        }
        self.source.seek(SeekFrom::Start(from))?;
        let copied = io::copy(&mut (&mut self.source).take(to - from), out)?;
        if copied != to - from {
            return Err(Error::at_offset(
                ErrorKind::UnexpectedEof,
                (from + copied) as usize,
            ));
        }
        Ok(())
    }
}

/// The count and entries of a directory, encrypted with `key` and `iv` when the header
/// says the directory is (a fresh IV when `iv` is `None`).
pub(crate) fn directory_bytes(
    header: &Header,
    entries: &[Entry],
    key: Option<&Key>,
    iv: Option<[u8; 16]>,
) -> Result<Vec<u8>> {
    let mut out = (entries.len() as u32).to_le_bytes().to_vec();
    let body = format::entries_to_bytes(entries, header.format);
    if header.dir_encrypted() {
        let key = key.ok_or_else(|| Error::new(ErrorKind::KeyRequired))?;
        out.extend(encrypt_block(&body, key, iv)?);
    } else {
        out.extend(body);
    }
    Ok(out)
}

/// `content` as a pack's encrypted block (Godot 4's `GDEC` layout without the magic).
pub(crate) fn encrypt_block(content: &[u8], key: &Key, iv: Option<[u8; 16]>) -> Result<Vec<u8>> {
    let iv = match iv {
        Some(iv) => iv,
        None => crate::save::format::random_iv()?,
    };
    let mut w = crate::save::gdec::GdecWriter::new(key, Layout::Godot4 { iv });
    w.write_content(content);
    w.finish_headless(Vec::with_capacity(content.len() + 56))
}

/// Decrypts the encrypted block at the reader's position, which has at most `available`
/// bytes: its content, IV and stored length.
fn decrypt_block(
    r: &mut impl Read,
    key: &Key,
    available: u64,
    at: u64,
) -> Result<(Vec<u8>, [u8; 16], u64)> {
    let mut dec =
        GdecReader::open_headless(r.take(available), key).map_err(|e| e.at_byte(at as usize))?;
    let len = format::stored_len(dec.content_len(), true).unwrap_or(u64::MAX);
    if len > available {
        return Err(Error::at_offset(
            ErrorKind::Corrupt(format!(
                "the encrypted directory announces {} bytes but the pack has {available} left",
                dec.content_len()
            )),
            at as usize,
        ));
    }
    let iv = match dec.layout() {
        Layout::Godot4 { iv } => iv,
        Layout::Godot3 => [0; 16],
    };
    let mut content = vec![0u8; dec.content_len() as usize];
    let mut got = 0;
    while got < content.len() {
        let n = dec.read_content(&mut content[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    dec.verify()?;
    Ok((content, iv, len))
}

/// Finds the pack: at the file's start, or before an executable's last 12 bytes (the
/// pack's size and `GDPC`), as the engine looks.
fn locate(r: &mut (impl Read + Seek), len: u64) -> Result<(u64, bool)> {
    let mut magic = [0u8; 4];
    if len >= 4 {
        read_at(r, 0, &mut magic)?;
        if &magic == MAGIC {
            return Ok((0, false));
        }
    }
    if len >= 16 {
        let mut tail = [0u8; 12];
        read_at(r, len - 12, &mut tail)?;
        if &tail[8..] == MAGIC {
            let size = u64::from_le_bytes(tail[..8].try_into().unwrap_or_default());
            if let Some(start) = (len - 12).checked_sub(size) {
                read_at(r, start, &mut magic)?;
                if &magic == MAGIC {
                    return Ok((start, true));
                }
            }
            return Err(Error::at_offset(
                ErrorKind::Corrupt(format!(
                    "the file ends with a pack's size ({size}) and GDPC, but no pack starts there"
                )),
                (len - 12) as usize,
            ));
        }
    }
    Err(Error::at_offset(
        ErrorKind::Corrupt(
            "not a pack: no GDPC at the start, nor a pack's size and GDPC at the end".into(),
        ),
        0,
    ))
}

fn read_at(r: &mut (impl Read + Seek), at: u64, buf: &mut [u8]) -> Result<()> {
    r.seek(SeekFrom::Start(at))?;
    crate::save::format::read_exact_at(r, buf, at)
}

/// An encrypted file's block that ends early is damage, not a wrong key.
fn corrupt_at(e: Error, entry: &Entry) -> Error {
    match e.kind() {
        ErrorKind::UnexpectedEof => Error::at_offset(
            ErrorKind::Corrupt(format!(
                "{}'s encrypted block is cut short",
                entry.res_path()
            )),
            entry.position as usize,
        ),
        _ => e,
    }
}

/// Counts the bytes read through it.
struct Counted<R> {
    inner: R,
    n: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.n += n as u64;
        Ok(n)
    }
}

enum Inner<'a, R> {
    Plain(Take<&'a mut R>),
    Encrypted(Box<GdecReader<Take<&'a mut R>>>),
}

/// One file of a pack as it is read ([`Pack::reader`]): [`Read`] hands out its bytes,
/// decrypted if it is encrypted. Errors of the pack come as `io::Error`s wrapping this
/// crate's [`Error`] (a wrong key: [`ErrorKind::WrongKey`], checked when the last block
/// is decrypted).
pub struct FileReader<'a, R>(Inner<'a, R>);

impl<R: Read> FileReader<'_, R> {
    fn read_checked(&mut self, buf: &mut [u8]) -> Result<usize> {
        match &mut self.0 {
            Inner::Plain(r) => loop {
                match r.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => return Ok(other?),
                }
            },
            Inner::Encrypted(r) => r.read_content(buf),
        }
    }

    fn read_to_end_checked(&mut self, out: &mut Vec<u8>) -> Result<()> {
        let mut buf = [0u8; 64 * 1024];
        loop {
            let n = self.read_checked(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            out.extend_from_slice(&buf[..n]);
        }
    }

    /// Copies the rest of the file to `out`.
    pub(crate) fn copy_to(&mut self, out: &mut impl Write) -> Result<u64> {
        let mut buf = vec![0u8; 64 * 1024];
        let mut total = 0;
        loop {
            let n = self.read_checked(&mut buf)?;
            if n == 0 {
                return Ok(total);
            }
            out.write_all(&buf[..n])?;
            total += n as u64;
        }
    }
}

impl<R: Read> Read for FileReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read_checked(buf).map_err(io::Error::other)
    }
}
