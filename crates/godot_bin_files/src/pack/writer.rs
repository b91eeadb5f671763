//! Writing a new pack: [`PackWriter`].

use super::format::{
    align, stored_len, Entry, Header, DIR_ENCRYPTED, FILE_ENCRYPTED, RELATIVE_FILE_BASE,
};
use super::{directory_bytes, encrypt_block, paths, Key};
use crate::error::{Error, ErrorKind, Result};
use md5::{Digest, Md5};
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

enum Source {
    Bytes(Vec<u8>),
    File(PathBuf),
}

/// Writes a new pack for a chosen engine: its layout (the pack format the engine
/// writes), its header numbers, the alignment of the files, and encryption.
///
/// Files are written in the order they were added, the directory in the same order.
/// Paths keep `res://` in front for the engines that store it (Godot 2 to 4.3) and lose
/// it for the ones that do not (4.4 on). What each format gets:
///
/// | Format | Layout |
/// |---|---|
/// | 0, 1 | the header, the directory, the files (offsets from the pack's start) |
/// | 2 | as 1 with flags and a file base (the first file's position); encryption |
/// | 3, 4 | the header, the files from byte 104 aligned, the directory at the end; flags say offsets are relative |
///
/// ```
/// use godot_bin_files::pack::{Pack, PackWriter};
/// use std::io::Cursor;
/// // A pack Godot 3.2.3 loads, with its files aligned to 32 bytes.
/// let mut w = PackWriter::for_engine("3.2.3")?.alignment(32);
/// w.add("res://a.txt", b"first".to_vec());
/// w.add("b.txt", b"second".to_vec());
/// let bytes = w.to_bytes()?;
/// let pack = Pack::from_reader(Cursor::new(&bytes), None)?;
/// assert_eq!(pack.header().format, 1);
/// assert_eq!(pack.header().engine, [3, 2, 3]);
/// assert_eq!(pack.entries()[1].path(), "res://b.txt");
/// assert!(pack.entries().iter().all(|e| e.position() % 32 == 0));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
pub struct PackWriter {
    header: Header,
    alignment: u64,
    res_prefix: bool,
    key: Option<Key>,
    encrypt_files: bool,
    files: Vec<(String, Source)>,
}

impl PackWriter {
    /// A writer of pack `format` (0 to 4) with the engine numbers `engine`, paths with
    /// `res://` in formats 0 and 1 and for engines before 4.4, files aligned to 16 bytes.
    pub fn new(format: u32, engine: [u32; 3]) -> PackWriter {
        let res_prefix = format <= 1 || (format == 2 && engine[0] == 4 && engine[1] < 4);
        PackWriter {
            header: Header::new(format, engine),
            alignment: 16,
            res_prefix,
            key: None,
            encrypt_files: false,
            files: Vec::new(),
        }
    }

    /// A writer for an engine version: `3`, `4.0`, `4.5`, `4.7` pick the layout that
    /// engine writes, with the lowest header numbers of its range (the engine refuses
    /// packs of newer engines); a full version, `3.2.3` or `4.6.2`, also gives the
    /// header's numbers. `2.1` is Godot 2.1's format 0. Anything else is
    /// [`ErrorKind::Unsupported`].
    pub fn for_engine(version: &str) -> Result<PackWriter> {
        let bad = || {
            Error::new(ErrorKind::Unsupported(format!(
                "engine version {version:?} (give 3, 4.0, 4.5, 4.7 or a full one such as 3.2.3)"
            )))
        };
        let parts: Vec<u32> = version
            .trim()
            .split('.')
            .map(|p| p.parse().map_err(|_| bad()))
            .collect::<Result<_>>()?;
        if parts.is_empty() || parts.len() > 3 {
            return Err(bad());
        }
        let engine = [
            parts[0],
            parts.get(1).copied().unwrap_or(0),
            parts.get(2).copied().unwrap_or(0),
        ];
        let format = match (engine[0], engine[1]) {
            (2, _) => 0,
            (3, _) => 1,
            (4, 0..=4) => 2,
            (4, 5..=6) => 3,
            (4, _) => 4,
            _ => return Err(bad()),
        };
        Ok(PackWriter::new(format, engine))
    }

    /// Aligns each file's data to `alignment` bytes from the pack's start (0 and 1:
    /// none). Godot's exports use 16.
    pub fn alignment(mut self, alignment: u32) -> Self {
        self.alignment = u64::from(alignment);
        self
    }

    /// Whether the paths are stored with `res://` in front.
    pub fn res_prefix(mut self, on: bool) -> Self {
        self.res_prefix = on;
        self
    }

    /// The key for encrypted files or an encrypted directory (the all-zero key for a
    /// stock engine).
    pub fn key(mut self, key: Key) -> Self {
        self.key = Some(key);
        self
    }

    /// Encrypts every file's bytes (format 2 on; a key is needed).
    pub fn encrypt_files(mut self, on: bool) -> Self {
        self.encrypt_files = on;
        self
    }

    /// Encrypts the directory (format 2 on; a key is needed).
    pub fn encrypt_directory(&mut self, on: bool) -> &mut Self {
        if on {
            self.header.flags |= DIR_ENCRYPTED;
        } else {
            self.header.flags &= !DIR_ENCRYPTED;
        }
        self
    }

    /// Adds a file at `path` (`res://` in front or not) with `bytes`.
    pub fn add(&mut self, path: &str, bytes: Vec<u8>) -> &mut Self {
        self.files.push((path.to_string(), Source::Bytes(bytes)));
        self
    }

    /// Adds a file at `path` whose bytes are read from `source` when the pack is
    /// written.
    pub fn add_file(&mut self, path: &str, source: impl AsRef<Path>) -> &mut Self {
        self.files.push((
            path.to_string(),
            Source::File(source.as_ref().to_path_buf()),
        ));
        self
    }

    /// Adds every file below `dir`, in the order of their paths, at their paths below it
    /// (`dir/a/b.png` as `res://a/b.png`).
    pub fn add_dir(&mut self, dir: impl AsRef<Path>) -> Result<&mut Self> {
        for (rel, full) in crate::fsio::files_below(dir.as_ref())? {
            self.files.push((rel, Source::File(full)));
        }
        Ok(self)
    }

    /// The pack's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write(&mut out)?;
        Ok(out)
    }

    /// Writes the pack to the file at `path` (replaced if it exists).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| Error::from(e).in_file(path))?;
        let mut out = BufWriter::new(file);
        self.write(&mut out).map_err(|e| e.in_file(path))?;
        out.flush().map_err(|e| Error::from(e).in_file(path))
    }

    /// Writes `exe` (an exported game's executable, without a pack) to `out` followed
    /// by the pack, as an export with "embed PCK" does: the pack starts on an 8-byte
    /// boundary, its offsets count from its start (format 2: the relative flag; format
    /// 1: offsets from the file's start, as Godot 3 reads them) and the file ends with
    /// the pack's size and `GDPC`.
    pub fn save_embedded(&self, exe: impl AsRef<Path>, out: impl AsRef<Path>) -> Result<()> {
        let (exe, path) = (exe.as_ref(), out.as_ref());
        let fail = |e: Error| e.in_file(path);
        let mut input = File::open(exe).map_err(|e| Error::from(e).in_file(exe))?;
        let file = File::create(path).map_err(|e| fail(e.into()))?;
        let mut out = BufWriter::new(file);
        let mut start = io::copy(&mut input, &mut out).map_err(|e| fail(e.into()))?;
        let pad = align(start, 8) - start;
        zeros(&mut out, pad).map_err(fail)?;
        start += pad;
        let len = self.write_at(&mut out, start).map_err(fail)?;
        out.write_all(&len.to_le_bytes())
            .and_then(|()| out.write_all(super::format::MAGIC))
            .and_then(|()| out.flush())
            .map_err(|e| fail(e.into()))
    }

    /// Writes the pack to `out`, front to back.
    pub fn write(&self, out: impl Write) -> Result<()> {
        self.write_at(out, 0).map(|_| ())
    }

    /// Writes the pack as if it started at byte `start` of its file; returns its length.
    fn write_at(&self, out: impl Write, start: u64) -> Result<u64> {
        let encrypting = self.encrypt_files || self.header.dir_encrypted();
        if encrypting && self.header.format < 2 {
            return Err(Error::unwritable(format!(
                "pack format {} has no encryption (Godot 4's packs, format 2 on, do)",
                self.header.format
            )));
        }
        if encrypting && self.key.is_none() {
            return Err(Error::new(ErrorKind::KeyRequired));
        }
        let mut header = self.header.clone();
        let mut entries = Vec::with_capacity(self.files.len());
        for (path, source) in &self.files {
            paths::safe_relative(path)?;
            let stored = if self.res_prefix {
                format!("res://{}", paths::key(path))
            } else {
                paths::key(path).to_string()
            };
            let (size, md5) = measure(source)?;
            let flags = if self.encrypt_files {
                FILE_ENCRYPTED
            } else {
                0
            };
            entries.push(Entry::new(&stored, size, md5, flags));
        }
        let a = self.alignment;
        let hlen = header.len();
        let dir_len =
            directory_bytes(&header, &entries, self.key.as_ref(), Some([0; 16]))?.len() as u64;
        if header.format == 2 && start > 0 {
            header.flags |= RELATIVE_FILE_BASE;
        }
        let data_start = if header.format <= 2 {
            align(hlen + dir_len, a)
        } else {
            header.flags |= RELATIVE_FILE_BASE;
            align(hlen, a)
        };
        let mut at = data_start;
        for e in &mut entries {
            e.position = at;
            e.offset = if header.format <= 1 {
                start + at
            } else {
                at - data_start
            };
            at = align(
                at + stored_len(e.size, self.encrypt_files).unwrap_or(u64::MAX),
                a,
            );
        }
        let data_end = entries
            .last()
            .map(|e| e.position + e.stored_len())
            .unwrap_or(data_start);
        if header.format >= 2 {
            header.file_base = data_start;
        }
        if header.format >= 3 {
            header.dir_offset = align(data_end, a);
        }
        let mut out = Positioned { out, at: 0 };
        out.put(&header.to_bytes())?;
        if header.format <= 2 {
            out.put(&directory_bytes(
                &header,
                &entries,
                self.key.as_ref(),
                None,
            )?)?;
        }
        for (e, (_, source)) in entries.iter().zip(&self.files) {
            out.pad_to(e.position)?;
            if e.is_encrypted() {
                let key = self.key.as_ref().ok_or(ErrorKind::KeyRequired)?;
                let plain = match source {
                    Source::Bytes(b) => std::borrow::Cow::Borrowed(&b[..]),
                    Source::File(p) => std::borrow::Cow::Owned(crate::fsio::read(p)?),
                };
                if plain.len() as u64 != e.size {
                    return Err(changed(source));
                }
                out.put(&encrypt_block(&plain, key, None)?)?;
            } else {
                match source {
                    Source::Bytes(b) => out.put(b)?,
                    Source::File(p) => {
                        let f = File::open(p).map_err(|err| Error::from(err).in_file(p))?;
                        let n = io::copy(&mut f.take(e.size), &mut out.out)?;
                        out.at += n;
                        if n != e.size {
                            return Err(changed(source));
                        }
                    }
                }
            }
        }
        if header.format >= 3 {
            out.pad_to(header.dir_offset)?;
            out.put(&directory_bytes(
                &header,
                &entries,
                self.key.as_ref(),
                None,
            )?)?;
        }
        Ok(out.at)
    }
}

/// A file that changed length between the two reads of a write.
fn changed(source: &Source) -> Error {
    let name = match source {
        Source::File(p) => p.display().to_string(),
        Source::Bytes(_) => String::new(),
    };
    Error::new(ErrorKind::Io(io::Error::other(format!(
        "{name} changed while the pack was written"
    ))))
}

/// A writer that knows how many bytes it wrote.
struct Positioned<W> {
    out: W,
    at: u64,
}

impl<W: Write> Positioned<W> {
    fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.out.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    fn pad_to(&mut self, to: u64) -> Result<()> {
        let n = to.saturating_sub(self.at);
        zeros(&mut self.out, n)?;
        self.at += n;
        Ok(())
    }
}

fn zeros(out: &mut impl Write, n: u64) -> Result<()> {
    io::copy(&mut io::repeat(0).take(n), out)?;
    Ok(())
}

/// A file's length and MD5, read once.
fn measure(source: &Source) -> Result<(u64, [u8; 16])> {
    match source {
        Source::Bytes(b) => Ok((b.len() as u64, Md5::digest(b).into())),
        Source::File(path) => {
            let mut f = File::open(path).map_err(|e| Error::from(e).in_file(path))?;
            let mut h = Md5::new();
            let mut buf = vec![0u8; 64 * 1024];
            let mut size = 0u64;
            loop {
                let n = f.read(&mut buf).map_err(|e| Error::from(e).in_file(path))?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
                size += n as u64;
            }
            Ok((size, h.finalize().into()))
        }
    }
}
