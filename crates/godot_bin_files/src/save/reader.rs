//! Reading `store_var` values from a save of any kind.

use super::format::{Container, Key, Layout, MAGIC_GCPF, MAGIC_GDEC};
use super::gcpf::GcpfReader;
use super::gdec::GdecReader;
use crate::error::{Error, ErrorKind, Result};
use godot_bin::framing::{Framing, ENGINE_MAX_FRAME_LEN, PREFIX_LEN};
use godot_bin::Config;
use godot_bin::Dialect;
use godot_bin::Variant;
use serde::de::DeserializeOwned;
use std::io::{self, BufReader, Chain, Cursor, Read, Seek, SeekFrom};
use std::marker::PhantomData;

/// Packets are read into memory at most this much ahead of the bytes that arrived.
const READ_AHEAD: usize = 64 * 1024;

enum Source<R> {
    Plain(Chain<Cursor<Vec<u8>>, BufReader<R>>),
    Encrypted(Box<GdecReader<BufReader<R>>>),
    Compressed(Box<GcpfReader<BufReader<R>>>),
}

impl<R: Read> Source<R> {
    fn read_content(&mut self, buf: &mut [u8]) -> Result<usize> {
        match self {
            Source::Plain(r) => loop {
                match r.read(buf) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => return Ok(other?),
                }
            },
            Source::Encrypted(r) => r.read_content(buf),
            Source::Compressed(r) => r.read_content(buf),
        }
    }

    /// Content bytes left, when the container says how many there are.
    fn remaining(&self) -> Option<u64> {
        match self {
            Source::Plain(_) => None,
            Source::Encrypted(r) => Some(r.remaining()),
            Source::Compressed(r) => Some(r.remaining()),
        }
    }
}

/// Reads a save file of any kind, plain, encrypted (`GDEC`) or compressed (`GCPF`),
/// recognised by its first four bytes, and hands out the `store_var` values in it one at
/// a time: what the game's `get_var` calls would read.
///
/// The file is read as the values are asked for, through a buffer; a compressed save
/// costs the memory of one block plus the value being decoded. Each frame's length is
/// checked against the content the container says is left before its bytes are read.
///
/// `Reader` also implements [`Read`], for content that is not `store_var` values (text
/// written with `store_string`, a `ConfigFile`): reading it hands out the decrypted or
/// decompressed bytes.
///
/// # Which dialect
///
/// Values are decoded in the [`Config`]'s dialect, with one exception the file itself
/// settles: an encrypted file in Godot 3's layout ([`Layout::Godot3`], AES-256-ECB),
/// opened with a Godot 4 `Config` (the default), is read as Godot 3. No Godot 4 engine
/// writes that layout; Godot 3, Godot 2.1 and Pandemonium do, so a `Config` of one of
/// those is kept as given. [`config`](Self::config) says what is used, and
/// [`framing`](Self::framing) overrides it. Compressed and plain files look the same
/// whatever engine wrote them.
///
/// When a value does not decode cleanly in the reader's dialect but does in others (tried
/// on the same frame), the error names them: an [`ErrorKind::Variant`] of kind [`godot_bin::ErrorKind::WrongDialect`] holding the
/// dialect's own error and the dialects to read the file with, at the same byte offset. A value that decodes in the reader's dialect and only fails to fit `T` keeps
/// its own error.
///
/// ```
/// use godot_bin_files::save::{Compression, Reader, Writer};
/// use godot_bin::{Config, Dialect, Variant, Vector3};
///
/// // A Godot 3 save, compressed: nothing in the container tells its engine.
/// let mut w = Writer::compressed(Vec::new(), Compression::FastLz, &Config::new(Dialect::Godot3))?;
/// w.write_value(&Vector3::new(1.0, 2.0, 3.0))?;
/// let saved = w.finish()?;
///
/// let err = Reader::new(&saved[..], &Config::default())?
///     .read_value::<Variant>()
///     .unwrap_err();
/// assert!(err.to_string().contains("decodes cleanly as Godot 3 (Dialect::Godot3)"), "{err}");
///
/// let mut reader = Reader::new(&saved[..], &Config::new(Dialect::Godot3))?;
/// assert_eq!(reader.read_value()?, Some(Variant::Vector3(Vector3::new(1.0, 2.0, 3.0))));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
///
/// # Wrong keys
///
/// In an encrypted file, the key can only be checked against the content's MD5 once the
/// whole file is decrypted. A value that fails to decode is therefore followed by that
/// check, so a wrong key is reported as [`ErrorKind::WrongKey`] rather than as garbage;
/// the end of the content is handed out only after the check passed. Values read before
/// the end are not yet verified: [`Reader::open`] checks the key at open, as the engine
/// does; for another source, use [`file::decrypt`](super::decrypt) first to verify
/// before reading anything.
///
/// ```
/// use godot_bin_files::save::{self as file, Compression, Container, Reader};
/// use godot_bin::framing::Framing;
/// use godot_bin::{Config, Variant};
///
/// let cfg = Config::default();
/// let mut content = Vec::new();
/// let framing = Framing::new(cfg.clone());
/// framing.write(&mut content, &7)?;
/// framing.write(&mut content, "seven")?;
/// let saved = file::compress(&content, Compression::FastLz)?;
///
/// let mut reader = Reader::new(&saved[..], &cfg)?;
/// assert!(matches!(reader.container(), Container::Compressed { compression: Compression::FastLz, .. }));
/// assert_eq!(reader.read_value::<i32>()?, Some(7));
/// assert_eq!(reader.read_value::<Variant>()?, Some(Variant::from("seven")));
/// assert_eq!(reader.read_value::<Variant>()?, None);
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
pub struct Reader<R> {
    source: Source<R>,
    container: Container,
    framing: Framing,
    packet: Vec<u8>,
    /// Whether `packet` holds the whole frame last read.
    whole: bool,
    /// Content bytes read so far.
    offset: u64,
}

impl<R: Read> Reader<R> {
    /// Opens a plain or compressed save. An encrypted one is [`ErrorKind::KeyRequired`]:
    /// use [`with_key`](Self::with_key).
    pub fn new(reader: R, cfg: &Config) -> Result<Self> {
        Self::open_source(reader, None, cfg)
    }

    /// Opens a save of any kind; `key` decrypts it if it is encrypted and is not used
    /// otherwise. A file in Godot 3's encrypted layout opened with a Godot 4 `cfg` is read
    /// as Godot 3 (see [Which dialect](Self#which-dialect)).
    ///
    /// ```
    /// use godot_bin_files::save::{Key, Reader, Writer};
    /// use godot_bin::{Config, Dialect, Variant};
    ///
    /// // What Godot 3's `File.open_encrypted_with_pass(path, WRITE, "pw")` and
    /// // `store_var({"hp": 100})` write:
    /// let mut save = godot_bin::Dictionary::new();
    /// save.insert("hp", 100);
    /// let mut w = Writer::encrypted(Vec::new(), &Key::password("pw"), &Config::new(Dialect::Godot3))?;
    /// w.write_value(&save)?;
    /// let bytes = w.finish()?;
    ///
    /// let mut reader = Reader::with_key(&bytes[..], &Key::password("pw"), &Config::default())?;
    /// assert_eq!(reader.config().dialect(), Dialect::Godot3);
    /// let values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
    /// assert_eq!(values, [Variant::Dictionary(save)]);
    /// # Ok::<(), godot_bin_files::Error>(())
    /// ```
    pub fn with_key(reader: R, key: &Key, cfg: &Config) -> Result<Self> {
        Self::open_source(reader, Some(key), cfg)
    }

    fn open_source(reader: R, key: Option<&Key>, cfg: &Config) -> Result<Self> {
        let mut inner = BufReader::with_capacity(READ_AHEAD, reader);
        let mut magic = Vec::with_capacity(4);
        (&mut inner).take(4).read_to_end(&mut magic)?;
        let (source, container) = if magic == MAGIC_GDEC {
            let key = key.ok_or_else(|| Error::at_offset(ErrorKind::KeyRequired, 0))?;
            let r = GdecReader::open(inner, key)?;
            let container = Container::Encrypted {
                layout: r.layout(),
                content_len: r.content_len(),
            };
            (Source::Encrypted(Box::new(r)), container)
        } else if magic == MAGIC_GCPF {
            let r = GcpfReader::open(inner)?;
            let h = r.header();
            let container = Container::Compressed {
                compression: h.mode,
                block_size: h.block_size,
                content_len: u64::from(h.total),
            };
            (Source::Compressed(Box::new(r)), container)
        } else {
            // Not a wrapper: the bytes read are the content's first.
            (
                Source::Plain(Cursor::new(magic).chain(inner)),
                Container::Plain,
            )
        };
        // Godot 3's encrypted layout is never a Godot 4 engine's: read it as Godot 3.
        let godot3_layout = matches!(
            container,
            Container::Encrypted {
                layout: Layout::Godot3,
                ..
            }
        );
        let cfg = if godot3_layout && cfg.dialect() == Dialect::Godot4 {
            cfg.with_dialect(Dialect::Godot3)
        } else {
            cfg.clone()
        };
        Ok(Reader {
            source,
            container,
            framing: Framing::new(cfg).max_frame_len(ENGINE_MAX_FRAME_LEN),
            packet: Vec::new(),
            whole: false,
            offset: 0,
        })
    }

    /// Frames with these options (the default: the [`Config`] given when opening, or
    /// Godot 3's for a Godot 3 encrypted layout, little-endian prefixes, frames up to
    /// [`ENGINE_MAX_FRAME_LEN`], a packet must fill its frame). The framing's own
    /// [`Config`] decodes the packets from then on, whatever the container. A game
    /// that set `big_endian` on its `FileAccess` needs `Framing::big_endian(true)`; the
    /// containers' own headers are little-endian either way.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// Whether numbers and length prefixes are big-endian (the game's `big_endian`).
    pub(super) fn is_big_endian(&self) -> bool {
        self.framing.is_big_endian()
    }

    /// Content bytes left, when the container says.
    pub(super) fn content_left(&self) -> Option<u64> {
        self.source.remaining()
    }

    /// The framing the values are read with (for [`Writer::like`](super::Writer::like)).
    pub(crate) fn framing_used(&self) -> &Framing {
        &self.framing
    }

    /// What wraps the content.
    pub fn container(&self) -> &Container {
        &self.container
    }

    /// The configuration the values are decoded with: the one given when opening, except
    /// for a file in Godot 3's encrypted layout opened with a Godot 4 one, which is read
    /// as Godot 3 (see [Which dialect](Self#which-dialect)); or the one of
    /// [`framing`](Self::framing).
    pub fn config(&self) -> &Config {
        self.framing.config()
    }

    /// Content bytes read so far (the offset of the next frame).
    pub fn position(&self) -> u64 {
        self.offset
    }

    /// The next value, or `None` at the end of the content.
    ///
    /// A frame whose length prefix exceeds the content left, or the frame limit, is
    /// [`ErrorKind::LengthOutOfRange`] at its content offset; content that ends inside a
    /// frame is [`ErrorKind::UnexpectedEof`]; an error decoding the packet carries the
    /// offset inside the packet, as [`Config::from_slice`] reports it; when the packet
    /// does not decode in the reader's dialect but does in others, the error names them
    /// (see [Which dialect](Self#which-dialect)).
    pub fn read_value<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        match self.read_frame() {
            Ok(false) => Ok(None),
            Ok(true) => match self.framing.decode_frame(&self.packet) {
                Ok(value) => Ok(Some(value)),
                Err(e) => {
                    let e = self.framing.config().hint_dialect(&self.packet, e);
                    Err(self.explain(e.into()))
                }
            },
            Err(e) => Err(self.explain(e)),
        }
    }

    /// The dialects other than the reader's in which the last frame read decodes cleanly
    /// (empty when it decodes cleanly in the reader's own, or was not read whole).
    pub(super) fn frame_dialects(&self) -> Vec<Dialect> {
        let cfg = self.framing.config();
        if !self.whole || cfg.from_slice::<Variant>(&self.packet).is_ok() {
            return Vec::new();
        }
        cfg.dialects_that_decode(&self.packet)
    }

    /// The values that are left, one at a time, until the end of the content or the
    /// first error.
    pub fn values<T: DeserializeOwned>(&mut self) -> Values<'_, R, T> {
        Values {
            reader: self,
            done: false,
            _value: PhantomData,
        }
    }

    /// An error in an encrypted file may be the first sign of a wrong key: check.
    fn explain(&mut self, e: Error) -> Error {
        if matches!(e.kind(), ErrorKind::WrongKey) {
            return e;
        }
        if let Source::Encrypted(r) = &mut self.source {
            if let Err(check) = r.verify() {
                if matches!(check.kind(), ErrorKind::WrongKey) {
                    return check;
                }
            }
        }
        e
    }

    /// Reads one frame's packet into `self.packet`; `false` at a clean end.
    fn read_frame(&mut self) -> Result<bool> {
        self.whole = false;
        let start = self.offset;
        let mut prefix = [0u8; PREFIX_LEN];
        let got = self.read_up_to(&mut prefix)?;
        if got == 0 {
            return Ok(false);
        }
        if got < PREFIX_LEN {
            return Err(Error::at_offset(
                ErrorKind::UnexpectedEof,
                (start + got as u64) as usize,
            ));
        }
        let raw = if self.framing.is_big_endian() {
            u32::from_be_bytes(prefix)
        } else {
            u32::from_le_bytes(prefix)
        };
        let len = raw as usize;
        let too_long = len > self.framing.frame_len_limit()
            || self
                .source
                .remaining()
                .is_some_and(|left| raw as u64 > left);
        if too_long {
            return Err(Error::at_offset(
                ErrorKind::LengthOutOfRange(i64::from(raw)),
                start as usize,
            ));
        }
        self.packet.clear();
        while self.packet.len() < len {
            let have = self.packet.len();
            let want = (len - have).min(READ_AHEAD);
            self.packet.resize(have + want, 0);
            let n = self.source.read_content(&mut self.packet[have..])?;
            self.packet.truncate(have + n);
            self.offset += n as u64;
            if n == 0 {
                return Err(Error::at_offset(
                    ErrorKind::UnexpectedEof,
                    self.offset as usize,
                ));
            }
        }
        self.whole = true;
        Ok(true)
    }

    /// Reads content into `buf` until it is full or the content ends; how many bytes.
    pub(super) fn read_up_to(&mut self, buf: &mut [u8]) -> Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            let n = self.source.read_content(&mut buf[got..])?;
            if n == 0 {
                break;
            }
            got += n;
        }
        self.offset += got as u64;
        Ok(got)
    }
}

impl Reader<std::fs::File> {
    /// Opens the save at `path` (`FileAccess.open`, `open_encrypted*`,
    /// `open_compressed`): any kind, `key` used if it is encrypted; an error names the
    /// file. Write it back with [`Writer::like`](super::Writer::like) and
    /// [`Writer::save`](super::Writer::save).
    ///
    /// An encrypted file's key is checked here, as the engine's `open_encrypted*` checks
    /// it (the MD5 of the whole decrypted content): a wrong key is
    /// [`ErrorKind::WrongKey`] from `open`, not from the first read. The file is
    /// decrypted once to check it, a chunk at a time, and read again as it is streamed.
    ///
    /// ```no_run
    /// use godot_bin_files::save::{Key, Reader, Writer};
    /// use godot_bin::{Config, Variant};
    ///
    /// let key = Key::password("s3cret");
    /// let mut reader = Reader::open("save.dat", Some(&key), &Config::default())?;
    /// let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
    /// values[0]["level"] = Variant::Int(8);
    /// let mut writer = Writer::like(&reader, Vec::new(), Some(&key))?;
    /// for v in &values {
    ///     writer.write_value(v)?;
    /// }
    /// writer.save("save.dat")?; // whole, or not at all
    /// # Ok::<(), godot_bin_files::Error>(())
    /// ```
    pub fn open(
        path: impl AsRef<std::path::Path>,
        key: Option<&Key>,
        cfg: &Config,
    ) -> Result<Self> {
        let path = path.as_ref();
        let open = || std::fs::File::open(path).map_err(|e| Error::from(e).in_file(path));
        let reader = Self::open_source(open()?, key, cfg).map_err(|e| e.in_file(path))?;
        if let (Source::Encrypted(_), Some(key)) = (&reader.source, key) {
            // The key, checked before anything is read: a pass of its own over the file.
            let mut check = open()?;
            check.seek(SeekFrom::Start(MAGIC_GDEC.len() as u64))?;
            GdecReader::open(check, key)
                .and_then(|mut r| r.verify())
                .map_err(|e| e.in_file(path))?;
        }
        Ok(reader)
    }
}

impl<R: Read> Read for Reader<R> {
    /// The content's bytes, decrypted or decompressed. Errors of the container come as
    /// `io::Error`s wrapping this crate's [`Error`].
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.source.read_content(buf).map_err(io::Error::other)?;
        self.offset += n as u64;
        Ok(n)
    }
}

/// The values of a save, from [`Reader::values`].
pub struct Values<'a, R, T> {
    reader: &'a mut Reader<R>,
    done: bool,
    _value: PhantomData<fn() -> T>,
}

impl<R: Read, T: DeserializeOwned> Iterator for Values<'_, R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        if self.done {
            return None;
        }
        let next = self.reader.read_value().transpose();
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }
}
