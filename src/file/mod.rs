//! Save files: the engine's encrypted and compressed `FileAccess` files, and the
//! `store_var` values inside them (feature `files`).
//!
//! Games write saves with `FileAccess.store_var` (`File.store_var` in Godot 3), often
//! through one of two wrappers the engine puts around a file:
//!
//! | GDScript | On disk | Here |
//! |---|---|---|
//! | `FileAccess.open(path, WRITE)` | the frames as they are | [`Writer::plain`] |
//! | `open_encrypted_with_pass(path, WRITE, pass)` | `GDEC`: AES-256, key from the password | [`Key::password`], [`encrypt`], [`Writer::encrypted`] |
//! | `open_encrypted(path, WRITE, key[, iv])` | `GDEC` with the 32-byte key as given | [`Key::bytes`], [`encrypt_with_iv`] |
//! | `open_compressed(path, WRITE, mode)` | `GCPF`: blocks of 4096 bytes, each compressed | [`compress`], [`Writer::compressed`] |
//!
//! Godot 3 and Godot 4 lay encrypted files out differently (ECB without an IV, CFB with
//! one; see [`Layout`]); readers here tell them apart from the file. Compressed files are
//! the same in both, with FastLZ (GDScript's default), Deflate, Zstandard and gzip, and
//! Brotli in Godot 4, which the engine can read but not write.
//!
//! [`Reader`] opens any of the three (by the first four bytes) and hands out the values
//! one at a time, reading the file as it goes: a compressed save costs memory for one
//! block and the value being decoded, however large the file. [`Writer`] writes them.
//!
//! ```
//! use godot_bin::file::{self, Key, Reader, Writer};
//! use godot_bin::{Config, Variant};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Save {
//!     level: i32,
//!     name: String,
//! }
//!
//! // What `open_encrypted_with_pass("user://save.dat", WRITE, "s3cret")` and two
//! // `store_var` calls write:
//! let cfg = Config::default();
//! let key = Key::password("s3cret");
//! let mut writer = Writer::encrypted(Vec::new(), &key, &cfg)?;
//! writer.write_value(&Save { level: 3, name: "Ada".into() })?;
//! writer.write_value(&1234.5)?;
//! let bytes = writer.finish()?;
//!
//! // Reading it back, as the game's `get_var` calls would:
//! let mut reader = Reader::with_key(&bytes[..], &key, &cfg)?;
//! let save: Save = reader.read_value()?.expect("a first value");
//! assert_eq!(save, Save { level: 3, name: "Ada".into() });
//! let rest: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
//! assert_eq!(rest, [Variant::Float(1234.5)]);
//!
//! // The wrong password is an error that says so.
//! let err = Reader::with_key(&bytes[..], &Key::password("guess"), &cfg)?
//!     .read_value::<Variant>()
//!     .unwrap_err();
//! assert!(matches!(err.kind(), godot_bin::ErrorKind::WrongKey));
//!
//! // The containers alone, on bytes in memory:
//! let plain = file::decrypt(&bytes, &key)?;
//! let packed = file::compress(&plain, file::Compression::Zstd)?;
//! assert_eq!(file::decompress(&packed)?, plain);
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! Godot 3 saves move to Godot 4 with [`convert_godot3_to_godot4`].
//!
//! ## Hostile files
//!
//! Every length in a container is checked against what the file can hold before memory
//! is committed to it: buffers grow with the bytes that really arrive or decompress, a
//! block may not decode to more (or fewer) bytes than its share of the content, and an
//! encrypted file's announced length must fit in the file. A damaged container is
//! [`ErrorKind::CorruptFile`] (or [`ErrorKind::UnexpectedEof`] where the file ends
//! early), with the file offset where it was found.

mod codec;
mod convert;
mod fastlz;
mod gcpf;
mod gdec;
mod reader;
mod renames;
mod writer;

pub use convert::{convert_godot3_to_godot4, Conversion, ConvertOptions, Issue, Target};
pub use gdec::Layout;
pub use reader::{Reader, Values};
pub use writer::Writer;

use crate::Dialect;
use crate::{Error, ErrorKind, Result};
use md5::{Digest, Md5};
use std::fmt;

pub(crate) const MAGIC_GDEC: &[u8; 4] = b"GDEC";
pub(crate) const MAGIC_GCPF: &[u8; 4] = b"GCPF";

pub(crate) fn corrupt(why: String, offset: usize) -> Error {
    Error::at(ErrorKind::CorruptFile(why), offset)
}

/// The 32-byte AES-256 key of an encrypted file.
///
/// The engine takes a key as given (`open_encrypted`), or makes one from a password
/// (`open_encrypted_with_pass`): the lowercase hexadecimal MD5 of the password's UTF-8,
/// whose 32 ASCII characters are the key's bytes.
///
/// ```
/// use godot_bin::file::Key;
/// // The MD5 of "s3cret" is 33e1b232...: those hex digits, as text, are the key.
/// let key = Key::password("s3cret");
/// assert_eq!(&key.as_bytes()[..8], b"33e1b232");
/// let raw = Key::from_hex("062b50759abfe4092e53789dc2e70c31567ba0c5ea0f34597ea3c8ed12375c81");
/// assert_eq!(raw.map(|k| k.as_bytes()[..2].to_vec()), Some(vec![0x06, 0x2b]));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Key([u8; 32]);

impl Key {
    /// The key the engine derives from `password` (`open_encrypted_with_pass`,
    /// `ConfigFile.save_encrypted_pass`).
    pub fn password(password: &str) -> Key {
        let digest = Md5::digest(password.as_bytes());
        let mut key = [0u8; 32];
        for (pair, byte) in key.chunks_exact_mut(2).zip(digest.iter()) {
            pair[0] = HEX[usize::from(byte >> 4)];
            pair[1] = HEX[usize::from(byte & 15)];
        }
        Key(key)
    }

    /// A key given as its 32 bytes (`open_encrypted(path, mode, key)`).
    pub fn bytes(key: [u8; 32]) -> Key {
        Key(key)
    }

    /// A key written as 64 hexadecimal digits; `None` for anything else.
    pub fn from_hex(hex: &str) -> Option<Key> {
        let hex = hex.as_bytes();
        if hex.len() != 64 {
            return None;
        }
        let mut key = [0u8; 32];
        for (byte, pair) in key.iter_mut().zip(hex.chunks_exact(2)) {
            let digit = |c: u8| (c as char).to_digit(16);
            *byte = (digit(pair[0])? << 4 | digit(pair[1])?) as u8;
        }
        Some(Key(key))
    }

    /// The key's bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl fmt::Debug for Key {
    /// Never prints the key itself.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Key(..)")
    }
}

/// How a compressed file compresses its blocks: the engine's `CompressionMode`, whose
/// number the file stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// FastLZ (mode 0), GDScript's default for `open_compressed`.
    FastLz,
    /// Deflate in a zlib wrapper (mode 1).
    Deflate,
    /// Zstandard (mode 2).
    Zstd,
    /// gzip (mode 3).
    Gzip,
    /// Brotli (mode 4, Godot 4 only). The engine reads it and cannot write it; so it is
    /// here: [`compress`] and [`Writer::compressed`] refuse it.
    Brotli,
}

impl Compression {
    /// Every mode, in the order of their numbers.
    pub const ALL: [Compression; 5] = [
        Compression::FastLz,
        Compression::Deflate,
        Compression::Zstd,
        Compression::Gzip,
        Compression::Brotli,
    ];

    /// The number the file stores for this mode.
    pub fn mode(self) -> u32 {
        self as u32
    }

    /// The mode a file's number names, if any.
    pub fn from_mode(mode: u32) -> Option<Compression> {
        Compression::ALL.get(usize::try_from(mode).ok()?).copied()
    }
}

impl fmt::Display for Compression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Compression::FastLz => "FastLZ",
            Compression::Deflate => "Deflate",
            Compression::Zstd => "Zstd",
            Compression::Gzip => "gzip",
            Compression::Brotli => "Brotli",
        })
    }
}

/// What wraps a file's content, as found in its first bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Container {
    /// No wrapper: the content is the file.
    Plain,
    /// `GDEC`: encrypted.
    Encrypted {
        /// Which engine's layout.
        layout: Layout,
        /// The content's length, as the header gives it.
        content_len: u64,
    },
    /// `GCPF`: compressed.
    Compressed {
        /// How the blocks are compressed.
        compression: Compression,
        /// The block size (4096 from the engine's scripts).
        block_size: u32,
        /// The content's length, as the header gives it.
        content_len: u64,
    },
}

impl fmt::Display for Container {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Container::Plain => f.write_str("plain (no GDEC or GCPF wrapper)"),
            Container::Encrypted {
                layout: Layout::Godot3,
                content_len,
            } => write!(
                f,
                "encrypted (GDEC, Godot 3 layout: AES-256-ECB), {content_len} bytes of content"
            ),
            Container::Encrypted {
                layout: Layout::Godot4 { iv },
                content_len,
            } => {
                write!(f, "encrypted (GDEC, Godot 4 layout: AES-256-CFB, IV ")?;
                for b in iv {
                    write!(f, "{b:02x}")?;
                }
                write!(f, "), {content_len} bytes of content")
            }
            Container::Compressed {
                compression,
                block_size,
                content_len,
            } => write!(
                f,
                "compressed (GCPF, {compression}, blocks of {block_size} bytes), \
                 {content_len} bytes of content"
            ),
        }
    }
}

/// The encrypted layout each dialect's engine writes: Godot 4's for Godot 4, and the
/// ECB one for the engines whose file wrapper is Godot 3's code (Godot 2.1 and
/// Pandemonium kept it unchanged).
fn layout_for(dialect: Dialect, iv: [u8; 16]) -> Layout {
    match dialect {
        Dialect::Godot4 => Layout::Godot4 { iv },
        Dialect::Godot3
        | Dialect::Godot2
        | Dialect::Pandemonium
        | Dialect::Pandemonium37
        | Dialect::Pandemonium5 => Layout::Godot3,
    }
}

/// A fresh random initial vector, as the engine makes one for each Godot 4 file.
fn random_iv() -> Result<[u8; 16]> {
    let mut iv = [0u8; 16];
    getrandom::fill(&mut iv).map_err(|e| {
        Error::from(ErrorKind::Io(std::io::Error::other(format!(
            "no random initial vector: {e}"
        ))))
    })?;
    Ok(iv)
}

/// The content of an encrypted file (`GDEC`) of either engine's layout.
///
/// A wrong key or password is [`ErrorKind::WrongKey`]: the content's MD5 does not match
/// the one the file carries (the engine's only check). A file that is too short for the
/// length its header gives is [`ErrorKind::CorruptFile`], found before anything is
/// allocated for it.
pub fn decrypt(file: &[u8], key: &Key) -> Result<Vec<u8>> {
    gdec::decrypt(file, key)
}

/// Encrypts `content` as `dialect`'s engine does: for Godot 4, with a fresh random
/// initial vector (as `open_encrypted_with_pass` and `open_encrypted` without an IV do);
/// for Godot 3, in its ECB layout, which has no IV. Godot 2.1 and Pandemonium get the
/// Godot 3 layout, which their engines also write.
pub fn encrypt(content: &[u8], key: &Key, dialect: Dialect) -> Result<Vec<u8>> {
    let iv = if dialect == Dialect::Godot4 {
        random_iv()?
    } else {
        [0; 16]
    };
    encrypt_layout(content, key, layout_for(dialect, iv))
}

/// Encrypts `content` in the Godot 4 layout with the initial vector `iv`, as Godot 4's
/// `FileAccess.open_encrypted(path, WRITE, key, iv)` does: the same key, IV and content
/// give the engine's file byte for byte. Reusing an IV with the same key leaks what two
/// files have in common; [`encrypt`] draws a fresh one.
pub fn encrypt_with_iv(content: &[u8], key: &Key, iv: [u8; 16]) -> Result<Vec<u8>> {
    encrypt_layout(content, key, Layout::Godot4 { iv })
}

fn encrypt_layout(content: &[u8], key: &Key, layout: Layout) -> Result<Vec<u8>> {
    let mut w = gdec::GdecWriter::new(key, layout);
    w.write_content(content);
    w.finish(Vec::with_capacity(content.len() + 60))
}

/// The content of a compressed file (`GCPF`), any mode including Brotli.
///
/// A header that claims more content than its blocks hold, block sizes that run past the
/// file, or a block that decodes to more or fewer bytes than its share is
/// [`ErrorKind::CorruptFile`] or [`ErrorKind::UnexpectedEof`]; the output grows only with
/// bytes that really decompress.
pub fn decompress(file: &[u8]) -> Result<Vec<u8>> {
    if file.get(..4) != Some(MAGIC_GCPF) {
        return Err(corrupt("no GCPF magic: not a compressed file".into(), 0));
    }
    let mut reader = gcpf::GcpfReader::open(&file[4..])?;
    let mut content = Vec::new();
    while let Some(block) = reader.next_block()? {
        content.extend_from_slice(block);
    }
    Ok(content)
}

/// Compresses `content` as `FileAccess.open_compressed(path, WRITE, mode)` does, in blocks
/// of 4096 bytes. FastLZ, Deflate, gzip and (for Godot 4's Zstandard 1.5) Zstd give the
/// engine's bytes exactly. [`Compression::Brotli`] is [`ErrorKind::Unsupported`]: no
/// engine writes it.
pub fn compress(content: &[u8], compression: Compression) -> Result<Vec<u8>> {
    let mut w = gcpf::GcpfWriter::new(compression)?;
    w.write_content(content)?;
    w.finish(Vec::new())
}
