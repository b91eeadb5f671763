//! [`Reader`]: a cursor over the input that never reads past it, and the rule for lengths
//! taken from the input: a length the bytes left cannot hold is the end of input (more
//! bytes may yet come: a stream reader waits for them), unless no input could ever hold it
//! (a negative length, one the engine refuses, one past `Config::max_size`), which is
//! [`ErrorKind::LengthOutOfRange`]. Either way nothing is allocated on its word.

use super::trace::Value;
use crate::error::{Error, ErrorKind, Result};

/// Bytes of zero padding after `len` bytes of data, up to a multiple of 4 (see [`crate::packet`]).
#[inline]
pub(crate) fn pad_len(len: usize) -> usize {
    (4 - len % 4) % 4
}

/// A cursor over the input. Offsets in errors are offsets into the whole input.
#[derive(Clone)]
pub(crate) struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
    /// The most input any packet may take (`Config::max_size`): a length that would run
    /// past it can never be satisfied.
    limit: usize,
    /// Fields read so far, when tracing ([`super::trace`]).
    pub(crate) trace: Option<Box<super::trace::Trace>>,
}

impl<'de> Reader<'de> {
    pub fn new(input: &'de [u8], limit: usize) -> Self {
        Reader {
            input,
            pos: 0,
            limit,
            trace: None,
        }
    }

    /// Records a field that started at `at` and ends here, when tracing.
    #[inline(always)]
    pub fn note(&mut self, at: usize, label: &'static str, value: impl FnOnce() -> Value) {
        if let Some(trace) = &mut self.trace {
            trace.field(at, self.pos, label, value());
        }
    }

    /// Where the next read starts.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The whole input.
    #[inline]
    pub fn input(&self) -> &'de [u8] {
        self.input
    }

    /// Moves back to `pos`, a position read earlier.
    #[inline]
    pub fn rewind(&mut self, pos: usize) {
        debug_assert!(pos <= self.pos);
        self.pos = pos;
    }

    /// The bytes not read yet.
    #[inline]
    pub fn rest(&self) -> &'de [u8] {
        &self.input[self.pos..]
    }

    /// The next u32, without consuming it; `None` at the end of the input.
    #[inline]
    pub fn peek_u32(&self) -> Option<u32> {
        let w = self.input.get(self.pos..)?.get(..4)?;
        Some(u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }

    /// The next `N` bytes, without consuming them; `None` if fewer are left.
    #[inline]
    pub fn peek_array<const N: usize>(&self) -> Option<[u8; N]> {
        self.input.get(self.pos..)?.get(..N)?.try_into().ok()
    }

    /// Moves past `n` bytes already seen to be there.
    #[inline]
    pub fn advance(&mut self, n: usize) {
        debug_assert!(self.pos + n <= self.input.len());
        self.pos += n;
    }

    /// An error of `kind` at byte `at`.
    #[cold]
    pub fn error_at(&self, kind: ErrorKind, at: usize) -> Error {
        Error::at(kind, at)
    }

    /// An error of `kind` at the current position.
    #[cold]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.pos)
    }

    /// Why a length `claimed` at `at`, which needs `needed` more bytes after the current
    /// position, cannot be read now: the end of input, or past any input there could be.
    #[cold]
    pub fn length_error(&self, claimed: i64, at: usize, needed: usize) -> Error {
        let kind = if self.pos.saturating_add(needed) > self.limit {
            ErrorKind::LengthOutOfRange(claimed)
        } else {
            ErrorKind::UnexpectedEof
        };
        Error::at(kind, at)
    }

    /// The next `n` bytes, borrowed from the input.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        match self.input.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.eof()),
        }
    }

    /// The end of input inside the field that starts here.
    #[cold]
    fn eof(&self) -> Error {
        Error::at(ErrorKind::UnexpectedEof, self.pos)
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes = self.bytes(N)?;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    #[inline]
    pub fn u32(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    #[inline]
    pub fn i32(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }

    #[inline]
    pub fn u64(&mut self) -> Result<u64> {
        self.array().map(u64::from_le_bytes)
    }

    #[inline]
    pub fn i64(&mut self) -> Result<i64> {
        self.array().map(i64::from_le_bytes)
    }

    #[inline]
    pub fn f32(&mut self) -> Result<f32> {
        self.array().map(f32::from_le_bytes)
    }

    #[inline]
    pub fn f64(&mut self) -> Result<f64> {
        self.array().map(f64::from_le_bytes)
    }

    /// Skips `n` bytes that must be present.
    #[inline]
    pub fn skip(&mut self, n: usize) -> Result<()> {
        self.bytes(n).map(drop)
    }

    /// Skips up to `n` bytes of padding that the engine does not require to be present.
    pub fn skip_optional(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.input.len());
    }

    /// A packed-array count ([`crate::packet::packed`]): an i32 that must not be negative, whose
    /// elements of `elem_size` bytes fit the engine's i32 byte count and the bytes left.
    /// Checked before the caller allocates anything.
    pub fn packed_count(&mut self, elem_size: usize) -> Result<usize> {
        let at = self.pos;
        let count = self.i32()?;
        let refused = || Error::at(ErrorKind::LengthOutOfRange(count.into()), at);
        let n = usize::try_from(count).map_err(|_| refused())?;
        // The engine refuses a byte size past i32 (ERR_FAIL_MUL_OF).
        let len = n
            .checked_mul(elem_size)
            .filter(|&len| len <= i32::MAX as usize)
            .ok_or_else(refused)?;
        if len > self.rest().len() {
            return Err(self.length_error(count.into(), at, len));
        }
        Ok(n)
    }

    /// An Array or Dictionary count (bit 31 masked off, as the engine does), refused if the
    /// input cannot hold that many elements of at least `min_elem_size` bytes.
    pub fn container_count(&mut self, min_elem_size: usize) -> Result<usize> {
        let at = self.pos;
        let word = self.u32()?;
        let count = (word & COUNT_MASK) as usize;
        let needed = count.saturating_mul(min_elem_size);
        if needed > self.rest().len() {
            return Err(self.length_error(count as i64, at, needed));
        }
        Ok(count)
    }

    /// A u32 string length, refused past `i32::MAX` (the engine reads it as an i32), whose
    /// bytes and padding the input holds.
    pub fn text_len(&mut self) -> Result<usize> {
        let at = self.pos;
        let len = self.u32()?;
        if len > i32::MAX as u32 {
            return Err(Error::at(ErrorKind::LengthOutOfRange(len.into()), at));
        }
        let len = len as usize;
        let needed = len + pad_len(len);
        if needed > self.rest().len() {
            return Err(self.length_error(len as i64, at, needed));
        }
        Ok(len)
    }
}

/// Array and Dictionary counts: bit 31 is Godot 2's "shared" bit, masked off on decode.
pub(crate) const COUNT_MASK: u32 = 0x7FFF_FFFF;
/// Godot 2's "shared" bit of an Array or Dictionary count.
pub(crate) const COUNT_SHARED: u32 = 0x8000_0000;
/// The fewest bytes a Dictionary entry takes: a key header and a value header.
pub(crate) const MIN_ENTRY_SIZE: usize = 8;

/// The element count in a container's count word, if `left` bytes can hold that many
/// elements of at least `min_elem_size` bytes (the check of [`Reader::container_count`], for
/// the fast paths that read the word themselves).
#[inline]
pub(crate) fn container_count_of(word: u32, min_elem_size: usize, left: usize) -> Option<usize> {
    let count = (word & COUNT_MASK) as usize;
    (count.saturating_mul(min_elem_size) <= left).then_some(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn container_counts_mask_the_shared_bit_and_must_fit() {
        assert_eq!(container_count_of(3, MIN_ENTRY_SIZE, 24), Some(3));
        assert_eq!(container_count_of(3, MIN_ENTRY_SIZE, 23), None);
        assert_eq!(container_count_of(COUNT_SHARED | 2, 4, 8), Some(2));
        assert_eq!(
            container_count_of(COUNT_MASK, usize::MAX, usize::MAX - 1),
            None
        );
    }

    #[test]
    fn a_length_past_the_input_is_the_end_of_input_unless_no_input_could_hold_it() {
        let bytes = [0, 0, 0, 0x40, 1, 2, 3, 4];
        // 2^30 elements of 4 bytes: past i32 bytes, which the engine refuses.
        let err = Reader::new(&bytes, usize::MAX).packed_count(4).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::LengthOutOfRange(0x4000_0000)
        ));
        assert_eq!(err.offset(), Some(0));
        // 2^30 single bytes: more input could hold them.
        let err = Reader::new(&bytes, usize::MAX).packed_count(1).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
        // ...unless the packet may not be that large.
        let err = Reader::new(&bytes, 1 << 20).packed_count(1).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::LengthOutOfRange(0x4000_0000)
        ));
        // A negative count.
        let neg = [0xff, 0xff, 0xff, 0xff];
        let err = Reader::new(&neg, usize::MAX).packed_count(1).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::LengthOutOfRange(-1)));
    }

    #[test]
    fn a_string_needs_its_padding() {
        let bytes = [1, 0, 0, 0, b'a'];
        let err = Reader::new(&bytes, usize::MAX).text_len().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::UnexpectedEof));
        let long = [0, 0, 0, 0x80];
        let err = Reader::new(&long, usize::MAX).text_len().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::LengthOutOfRange(_)));
    }
}
