//! Reading `store_var` values from a save of any kind.

use super::format::{Container, Key, MAGIC_GCPF, MAGIC_GDEC};
use super::gcpf::GcpfReader;
use super::gdec::GdecReader;
use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::framing::{Framing, ENGINE_MAX_FRAME_LEN, PREFIX_LEN};
use serde::de::DeserializeOwned;
use std::io::{self, BufReader, Chain, Cursor, Read};
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
/// In an encrypted file, the key can only be checked against the content's MD5 once the
/// whole file is decrypted. A value that fails to decode is therefore followed by that
/// check, so a wrong key is reported as [`ErrorKind::WrongKey`] rather than as garbage;
/// the end of the content is handed out only after the check passed. Values read before
/// the end are not yet verified: use [`file::decrypt`](super::decrypt) first to verify
/// before reading anything.
///
/// ```
/// use godot_bin::file::{self, Compression, Container, Reader};
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
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub struct Reader<R> {
    source: Source<R>,
    container: Container,
    framing: Framing,
    packet: Vec<u8>,
    /// Content bytes read so far.
    offset: u64,
}

impl<R: Read> Reader<R> {
    /// Opens a plain or compressed save. An encrypted one is [`ErrorKind::KeyRequired`]:
    /// use [`with_key`](Self::with_key).
    pub fn new(reader: R, cfg: &Config) -> Result<Self> {
        Self::open(reader, None, cfg)
    }

    /// Opens a save of any kind; `key` decrypts it if it is encrypted and is not used
    /// otherwise.
    pub fn with_key(reader: R, key: &Key, cfg: &Config) -> Result<Self> {
        Self::open(reader, Some(key), cfg)
    }

    fn open(reader: R, key: Option<&Key>, cfg: &Config) -> Result<Self> {
        let mut inner = BufReader::with_capacity(READ_AHEAD, reader);
        let mut magic = Vec::with_capacity(4);
        (&mut inner).take(4).read_to_end(&mut magic)?;
        let (source, container) = if magic == MAGIC_GDEC {
            let key = key.ok_or_else(|| Error::at(ErrorKind::KeyRequired, 0))?;
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
        Ok(Reader {
            source,
            container,
            framing: Framing::new(cfg.clone()).max_frame_len(ENGINE_MAX_FRAME_LEN),
            packet: Vec::new(),
            offset: 0,
        })
    }

    /// Frames with these options (the default: the [`Config`] given when opening,
    /// little-endian prefixes, frames up to [`ENGINE_MAX_FRAME_LEN`], a packet must fill
    /// its frame). The framing's own [`Config`] decodes the packets from then on. A game
    /// that set `big_endian` on its `FileAccess` needs `Framing::big_endian(true)`; the
    /// containers' own headers are little-endian either way.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// What wraps the content.
    pub fn container(&self) -> &Container {
        &self.container
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
    /// offset inside the packet, as [`Config::from_slice`] reports it.
    pub fn read_value<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        let result = match self.read_frame() {
            Ok(false) => return Ok(None),
            Ok(true) => self.framing.decode_frame(&self.packet).map(Some),
            Err(e) => Err(e),
        };
        result.map_err(|e| self.explain(e))
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
        let start = self.offset;
        let mut prefix = [0u8; PREFIX_LEN];
        let got = self.read_up_to(&mut prefix)?;
        if got == 0 {
            return Ok(false);
        }
        if got < PREFIX_LEN {
            return Err(Error::at(
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
            return Err(Error::at(
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
                return Err(Error::at(ErrorKind::UnexpectedEof, self.offset as usize));
            }
        }
        Ok(true)
    }

    fn read_up_to(&mut self, buf: &mut [u8]) -> Result<usize> {
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
