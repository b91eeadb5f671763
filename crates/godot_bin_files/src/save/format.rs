//! The folder's vocabulary: what the two containers (`gdec.rs`, encrypted; `gcpf.rs`,
//! compressed) and the rooms above them (reader, writer, conversion, the functions of
//! `file`) all speak of, so that neither container imports the other nor `file`'s own
//! module. Here: the magics, the [`Key`] of an encrypted file and its [`Layout`], the
//! [`Compression`] modes, the [`Container`] a file turns out to be, the choice of layout
//! and IV for a dialect, and the two error helpers (a corrupt file, a short read at an
//! offset).

use crate::error::{Error, ErrorKind, Result};
use godot_bin::Dialect;
use md5::{Digest, Md5};
use std::fmt;
use std::io::{self, Read};

pub(crate) const MAGIC_GDEC: &[u8; 4] = b"GDEC";
pub(crate) const MAGIC_GCPF: &[u8; 4] = b"GCPF";

pub(crate) fn corrupt(why: String, offset: usize) -> Error {
    Error::at_offset(ErrorKind::Corrupt(why), offset)
}

/// The 32-byte AES-256 key of an encrypted file.
///
/// The engine takes a key as given (`open_encrypted`), or makes one from a password
/// (`open_encrypted_with_pass`): the lowercase hexadecimal MD5 of the password's UTF-8,
/// whose 32 ASCII characters are the key's bytes.
///
/// ```
/// use godot_bin_files::save::Key;
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
    /// here: [`compress`](super::compress) and [`Writer::compressed`](super::Writer::compressed)
    /// refuse it.
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
pub(crate) fn layout_for(dialect: Dialect, iv: [u8; 16]) -> Layout {
    if dialect.file_family() == Dialect::Godot4 {
        Layout::Godot4 { iv }
    } else {
        Layout::Godot3
    }
}

/// A fresh random initial vector, as the engine makes one for each Godot 4 file.
pub(crate) fn random_iv() -> Result<[u8; 16]> {
    let mut iv = [0u8; 16];
    getrandom::fill(&mut iv).map_err(|e| {
        Error::from(ErrorKind::Io(std::io::Error::other(format!(
            "no random initial vector: {e}"
        ))))
    })?;
    Ok(iv)
}

/// Which engine's layout an encrypted file has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Godot 3.x (and Godot 2.1, Pandemonium): AES-256-ECB after a mode word of 1.
    Godot3,
    /// Godot 4.x: AES-256-CFB with the initial vector stored in the header.
    Godot4 {
        /// The initial vector the file was written with.
        iv: [u8; 16],
    },
}

impl Layout {
    /// Header bytes before the encrypted content.
    pub(crate) fn header_len(self) -> u64 {
        match self {
            Layout::Godot3 => 32,
            Layout::Godot4 { .. } => 44,
        }
    }
}

/// `read_exact` that reports a short read as [`ErrorKind::UnexpectedEof`] at `offset`
/// plus the bytes that did arrive.
pub(crate) fn read_exact_at(mut r: impl Read, buf: &mut [u8], offset: u64) -> Result<()> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => {
                return Err(Error::at_offset(
                    ErrorKind::UnexpectedEof,
                    (offset + got as u64) as usize,
                ))
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Copies into `out` what it can take of the decoded bytes `pending[*pos..]` and moves
/// `pos` past them: both containers hand out their content this way, a block (or chunk)
/// at a time. Returns how many bytes were copied.
pub(crate) fn drain_into(pending: &[u8], pos: &mut usize, out: &mut [u8]) -> usize {
    let n = out.len().min(pending.len() - *pos);
    out[..n].copy_from_slice(&pending[*pos..*pos + n]);
    *pos += n;
    n
}
