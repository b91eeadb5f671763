//! Bounds-checked reading and the matching writing of a binary resource's words: u16, u32,
//! u64 and floats in the file's byte order, reals of the file's width, and the
//! length-prefixed strings.

use crate::error::{Error, Result};

/// A binary resource being read: every read is checked against the bytes left, and a
/// length is checked before anything is allocated for it.
pub(crate) struct Input<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) big_endian: bool,
    /// Math components (`store_real`) are doubles (a `real_t=double` build's file).
    pub(crate) real64: bool,
}

macro_rules! word {
    ($name:ident, $t:ty, $n:literal) => {
        pub(crate) fn $name(&mut self) -> Result<$t> {
            let b: [u8; $n] = self.take($n)?.try_into().expect("the length asked for");
            Ok(if self.big_endian {
                <$t>::from_be_bytes(b)
            } else {
                <$t>::from_le_bytes(b)
            })
        }
    };
}

impl<'a> Input<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Input {
            bytes,
            pos: 0,
            big_endian: false,
            real64: false,
        }
    }

    pub(crate) fn left(&self) -> usize {
        self.bytes.len() - self.pos
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if n > self.left() {
            return Err(Error::eof().at_byte(self.bytes.len()));
        }
        let b = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(b)
    }

    word!(u16, u16, 2);
    word!(u32, u32, 4);
    word!(u64, u64, 8);
    word!(f32, f32, 4);
    word!(f64, f64, 8);

    pub(crate) fn i32(&mut self) -> Result<i32> {
        Ok(self.u32()? as i32)
    }

    pub(crate) fn i64(&mut self) -> Result<i64> {
        Ok(self.u64()? as i64)
    }

    /// A math component: 4 or 8 bytes, as the file's `real_t`.
    pub(crate) fn real(&mut self) -> Result<f32> {
        if self.real64 {
            Ok(self.f64()? as f32)
        } else {
            self.f32()
        }
    }

    /// `count` items of at least `min_size` bytes each must fit in what is left: the
    /// check made before anything is allocated for them.
    pub(crate) fn check_count(&self, count: usize, min_size: usize, what: &str) -> Result<()> {
        if count.checked_mul(min_size).is_none_or(|n| n > self.left()) {
            return Err(Error::corrupt(format!(
                "{what}: {count} entries of at least {min_size} bytes do not fit in the {} bytes left",
                self.left()
            ))
            .at_byte(self.pos));
        }
        Ok(())
    }

    /// A string as `save_unicode_string` writes it: a u32 length counting the terminating
    /// NUL (bit 31 may flag an inline NodePath name), the UTF-8 bytes and the NUL. The
    /// text ends at the first NUL, as the engine reads it.
    pub(crate) fn string(&mut self) -> Result<String> {
        let at = self.pos;
        let len = (self.u32()? & 0x7fff_ffff) as usize;
        if len > self.left() {
            return Err(Error::corrupt(format!(
                "a string of {len} bytes, {} left in the file",
                self.left()
            ))
            .at_byte(at));
        }
        let raw = self.take(len)?;
        let text = raw.split(|&b| b == 0).next().unwrap_or(raw);
        String::from_utf8(text.to_vec())
            .map_err(|_| Error::corrupt("a string that is not UTF-8").at_byte(at))
    }
}

/// A binary resource being written, in the file's byte order.
pub(crate) struct Output {
    pub(crate) bytes: Vec<u8>,
    pub(crate) big_endian: bool,
    pub(crate) real64: bool,
    /// A string written held a NUL, which would end it early when read (the engine's
    /// reader too): the file cannot hold it, and `to_bytes` refuses it.
    pub(crate) nul: bool,
}

macro_rules! put {
    ($name:ident, $t:ty) => {
        pub(crate) fn $name(&mut self, v: $t) {
            if self.big_endian {
                self.bytes.extend_from_slice(&v.to_be_bytes());
            } else {
                self.bytes.extend_from_slice(&v.to_le_bytes());
            }
        }
    };
}

impl Output {
    put!(u16, u16);
    put!(u32, u32);
    put!(u64, u64);
    put!(f32, f32);
    put!(f64, f64);

    pub(crate) fn real(&mut self, v: f32) {
        if self.real64 {
            self.f64(f64::from(v));
        } else {
            self.f32(v);
        }
    }

    /// `save_unicode_string`: length with the NUL, the UTF-8 bytes, the NUL.
    pub(crate) fn string(&mut self, s: &str) {
        self.nul |= s.as_bytes().contains(&0);
        self.u32(s.len() as u32 + 1);
        self.bytes.extend_from_slice(s.as_bytes());
        self.bytes.push(0);
    }
}
