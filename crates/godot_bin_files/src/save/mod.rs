//! Save files: the engine's encrypted and compressed `FileAccess` files, and the
//! `store_var` values inside them.
//!
//! Games write saves with `FileAccess.store_var` (`File.store_var` in Godot 3), often
//! through one of two wrappers the engine puts around a file:
//!
//! | GDScript | On disk | Here |
//! |---|---|---|
//! | `FileAccess.open(path, WRITE)` | the frames as they are | [`Writer::plain`] |
//! | `open_encrypted_with_pass(path, WRITE, pass)` | `GDEC`: AES-256, key from the password | [`Key::password`], [`encrypt`], [`Writer::encrypted`]; an edited save: [`Writer::like`] |
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
//! use godot_bin_files::save::{self, Key, Reader, Writer};
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
//! assert!(matches!(err.kind(), godot_bin_files::ErrorKind::WrongKey));
//!
//! // The containers alone, on bytes in memory:
//! let plain = save::decrypt(&bytes, &key)?;
//! let packed = save::compress(&plain, save::Compression::Zstd)?;
//! assert_eq!(save::decompress(&packed)?, plain);
//! # Ok::<(), godot_bin_files::Error>(())
//! ```
//!
//! ## Editing a save a game wrote
//!
//! To change a save and give it back to the same game, build the writer from the reader:
//! [`Writer::like`] writes what was read the way it was read — the container (Godot 3's
//! or Godot 4's encrypted layout, the compression mode and block size), the engine's
//! packets and the framing. A writer made from `Config::default()` writes Godot 4, which
//! a Godot 3 game cannot read.
//!
//! ```
//! use godot_bin_files::save::{Key, Reader, Writer};
//! use godot_bin::{Config, Dialect, Variant};
//!
//! # let key = Key::password("s3cret");
//! # let mut w = Writer::encrypted(Vec::new(), &key, &Config::new(Dialect::Godot3))?;
//! # w.write_value(&Variant::Dictionary([("level", 3)].into_iter().collect()))?;
//! # let godot3_save = w.finish()?;
//! // A Godot 3 game's save, encrypted with its password:
//! let mut reader = Reader::with_key(&godot3_save[..], &key, &Config::default())?;
//! let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
//! values[0]["level"] = Variant::Int(4);
//! let mut writer = Writer::like(&reader, Vec::new(), Some(&key))?;
//! for v in &values {
//!     writer.write_value(v)?;
//! }
//! let edited = writer.finish()?;
//! // Godot 3's layout and packets still: the game reads it.
//! let mut again = Reader::with_key(&edited[..], &key, &Config::default())?;
//! assert_eq!(again.config().dialect(), Dialect::Godot3);
//! assert_eq!(again.read_value::<Variant>()?.unwrap()["level"], Variant::Int(4));
//! # Ok::<(), godot_bin_files::Error>(())
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
//! [`ErrorKind::Corrupt`] (or [`ErrorKind::UnexpectedEof`] where the file ends
//! early), with the file offset where it was found.
//!
//! [`ErrorKind::Corrupt`]: crate::error::ErrorKind::Corrupt
//! [`ErrorKind::UnexpectedEof`]: crate::error::ErrorKind::UnexpectedEof

mod codec;
mod convert;
mod fastlz;
pub(crate) mod format;
mod gcpf;
pub(crate) mod gdec;
mod reader;
mod typed;
mod writer;

pub use crate::issue::Issue;
pub use convert::{convert_godot3_to_godot4, Conversion, ConvertOptions, Target};
pub use format::{Compression, Container, Key, Layout};
pub use reader::{Reader, Values};
pub use writer::Writer;

use crate::error::Result;
use format::{corrupt, layout_for, random_iv, MAGIC_GCPF};
use godot_bin::Dialect;

/// The content of an encrypted file (`GDEC`) of either engine's layout.
///
/// A wrong key or password is [`ErrorKind::WrongKey`]: the content's MD5 does not match
/// the one the file carries (the engine's only check). A file that is too short for the
/// length its header gives is [`ErrorKind::Corrupt`], found before anything is
/// allocated for it.
///
/// [`ErrorKind::Corrupt`]: crate::error::ErrorKind::Corrupt
/// [`ErrorKind::WrongKey`]: crate::error::ErrorKind::WrongKey
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
/// [`ErrorKind::Corrupt`] or [`ErrorKind::UnexpectedEof`]; the output grows only with
/// bytes that really decompress.
///
/// [`ErrorKind::Corrupt`]: crate::error::ErrorKind::Corrupt
/// [`ErrorKind::UnexpectedEof`]: crate::error::ErrorKind::UnexpectedEof
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
///
/// [`ErrorKind::Unsupported`]: crate::error::ErrorKind::Unsupported
pub fn compress(content: &[u8], compression: Compression) -> Result<Vec<u8>> {
    let mut w = gcpf::GcpfWriter::new(compression)?;
    w.write_content(content)?;
    w.finish(Vec::new())
}
