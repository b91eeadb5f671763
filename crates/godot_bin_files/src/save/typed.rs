//! The engine's typed `FileAccess` reads and writes beside `get_var` / `store_var`:
//! `get_8` ... `get_64`, `get_float`, `get_double`, `get_buffer`, `get_pascal_string`,
//! `get_line` and their `store_*` twins, on the same content as the values, so a save that
//! mixes them reads and writes as the game's own calls do.
//!
//! The rules, as both engines' `FileAccess` has them (Godot 3.2 and 4.x alike):
//!
//! * Numbers are little-endian unless the game set `big_endian` (here
//!   `Framing::big_endian(true)`, which also orders `store_var`'s length prefixes).
//!   `store_float` is 4 bytes, `store_double` 8 (`store_real`: a `real_t`, 4 bytes in
//!   standard builds).
//! * `store_string` writes the text's UTF-8 bytes alone (no length, no end);
//!   `store_line` the same and `\n`; `store_pascal_string` a 32-bit length, then the UTF-8
//!   bytes; `store_buffer` the bytes.
//! * `get_line` reads to a `\n` or a NUL (neither kept) or the end, dropping every `\r`;
//!   `get_pascal_string` reads its length's worth; `get_buffer(n)` up to `n` bytes (fewer at
//!   the end). Text ends at a NUL and loses a leading byte order mark, as both engines
//!   make it; the engines decode invalid UTF-8 each their own way (Godot 3.2.3 gives an
//!   empty string, Godot 4.4.1 its own replacements): here each invalid sequence is
//!   U+FFFD.
//!
//! Where the engine returns 0 past the end and sets `eof_reached`, these return
//! [`ErrorKind::UnexpectedEof`] at the content offset. A pascal string's length is checked
//! against the content left (when the container says how much) before anything is
//! allocated for it, and read in pieces otherwise.

use super::reader::Reader;
use super::writer::Writer;
use crate::error::{Error, ErrorKind, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::{Read, Write};

/// Pieces in which a length from the file is read when the content left is not known.
const PIECE: usize = 64 * 1024;

macro_rules! get_number {
    ($(#[$doc:meta])* $name:ident, $ty:ty) => {
        $(#[$doc])*
        pub fn $name(&mut self) -> Result<$ty> {
            let mut b = [0u8; std::mem::size_of::<$ty>()];
            self.get_exact(&mut b)?;
            Ok(if self.is_big_endian() {
                <$ty>::from_be_bytes(b)
            } else {
                <$ty>::from_le_bytes(b)
            })
        }
    };
}

macro_rules! store_number {
    ($(#[$doc:meta])* $name:ident, $ty:ty) => {
        $(#[$doc])*
        pub fn $name(&mut self, value: $ty) -> Result<()> {
            let b = if self.is_big_endian() {
                value.to_be_bytes()
            } else {
                value.to_le_bytes()
            };
            self.write_bytes(&b)
        }
    };
}

impl<R: Read> Reader<R> {
    fn get_exact(&mut self, buf: &mut [u8]) -> Result<()> {
        let start = self.position();
        let got = self.read_up_to(buf)?;
        if got < buf.len() {
            return Err(Error::at_offset(
                ErrorKind::UnexpectedEof,
                (start + got as u64) as usize,
            ));
        }
        Ok(())
    }

    /// The next value, as `get_var` reads it ([`read_value`](Self::read_value)).
    pub fn get_var<T: DeserializeOwned>(&mut self) -> Result<Option<T>> {
        self.read_value()
    }

    get_number!(
        /// One byte (`get_8`).
        get_8, u8);
    get_number!(
        /// 16 bits (`get_16`).
        get_16, u16);
    get_number!(
        /// 32 bits (`get_32`).
        get_32, u32);
    get_number!(
        /// 64 bits (`get_64`).
        get_64, u64);
    get_number!(
        /// A 32-bit float (`get_float`; Godot 3's `get_float` and standard builds'
        /// `get_real`).
        get_float, f32);
    get_number!(
        /// A 64-bit float (`get_double`).
        get_double, f64);

    /// Up to `len` bytes (`get_buffer`): fewer at the end of the content, as the engine
    /// reads them.
    pub fn get_buffer(&mut self, len: usize) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        while out.len() < len {
            let have = out.len();
            let want = (len - have).min(PIECE);
            out.resize(have + want, 0);
            let got = self.read_up_to(&mut out[have..])?;
            out.truncate(have + got);
            if got < want {
                break;
            }
        }
        Ok(out)
    }

    /// A string stored with `store_pascal_string`: a 32-bit length, then UTF-8 bytes.
    pub fn get_pascal_string(&mut self) -> Result<String> {
        let at = self.position();
        let len = self.get_32()?;
        if self
            .content_left()
            .is_some_and(|left| u64::from(len) > left)
        {
            return Err(Error::at_offset(
                ErrorKind::LengthOutOfRange(i64::from(len)),
                at as usize,
            ));
        }
        let bytes = self.get_buffer(len as usize)?;
        if bytes.len() < len as usize {
            return Err(Error::at_offset(
                ErrorKind::UnexpectedEof,
                self.position() as usize,
            ));
        }
        Ok(engine_text(&bytes))
    }

    /// A line (`get_line`): the text up to a `\n` or a NUL, or to the end, without it and
    /// without any `\r`; `None` at the end of the content.
    pub fn get_line(&mut self) -> Result<Option<String>> {
        let mut line = Vec::new();
        let mut byte = [0u8; 1];
        let mut any = false;
        loop {
            if self.read_up_to(&mut byte)? == 0 {
                break;
            }
            any = true;
            match byte[0] {
                b'\n' | 0 => break,
                b'\r' => {}
                b => line.push(b),
            }
        }
        Ok(any.then(|| engine_text(&line)))
    }
}

/// Text as the engines make it from a file's bytes (`String::utf8`): up to a NUL, after a
/// leading byte order mark, invalid UTF-8 as U+FFFD.
fn engine_text(bytes: &[u8]) -> String {
    let bytes = bytes.split(|&b| b == 0).next().unwrap_or_default();
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

impl<W: Write> Writer<W> {
    /// Writes a value as `store_var` does ([`write_value`](Self::write_value)).
    pub fn store_var<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.write_value(value)
    }

    store_number!(
        /// One byte (`store_8`).
        store_8, u8);
    store_number!(
        /// 16 bits (`store_16`).
        store_16, u16);
    store_number!(
        /// 32 bits (`store_32`).
        store_32, u32);
    store_number!(
        /// 64 bits (`store_64`).
        store_64, u64);
    store_number!(
        /// A 32-bit float (`store_float`; standard builds' `store_real`).
        store_float, f32);
    store_number!(
        /// A 64-bit float (`store_double`).
        store_double, f64);

    /// Bytes as they are (`store_buffer`).
    pub fn store_buffer(&mut self, bytes: &[u8]) -> Result<()> {
        self.write_bytes(bytes)
    }

    /// The text's UTF-8 bytes, nothing else (`store_string`).
    pub fn store_string(&mut self, text: &str) -> Result<()> {
        self.write_bytes(text.as_bytes())
    }

    /// The text and a `\n` (`store_line`).
    pub fn store_line(&mut self, text: &str) -> Result<()> {
        self.write_bytes(text.as_bytes())?;
        self.write_bytes(b"\n")
    }

    /// A 32-bit length, then the text's UTF-8 bytes (`store_pascal_string`).
    pub fn store_pascal_string(&mut self, text: &str) -> Result<()> {
        let len = u32::try_from(text.len())
            .map_err(|_| Error::new(ErrorKind::LengthOutOfRange(text.len() as i64)))?;
        self.store_32(len)?;
        self.write_bytes(text.as_bytes())
    }
}
