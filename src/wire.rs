//! Little-endian words, pascal strings and padding: the pieces every packet is made of.
//! [`Reader`] never reads past its input and checks every length against the bytes left
//! before anything is allocated.

use crate::error::{Error, ErrorKind, Result};

/// Header bit 16: 64-bit INT/FLOAT, f64 math components, or an OBJECT sent as its id.
pub(crate) const FLAG_64: u32 = 1 << 16;
/// Bit 31 of the first NodePath word marks the (only accepted) new format.
pub(crate) const NODEPATH_NEW_FORMAT: u32 = 0x8000_0000;
/// Array and Dictionary counts: bit 31 is Godot 2's "shared" bit, masked off on decode.
pub(crate) const COUNT_MASK: u32 = 0x7FFF_FFFF;
/// The fewest bytes a Dictionary entry takes: a key header and a value header.
pub(crate) const MIN_ENTRY_SIZE: usize = 8;
/// Godot 2's "shared" bit of an Array or Dictionary count.
pub(crate) const COUNT_SHARED: u32 = 0x8000_0000;

/// The element count in an Array's or Dictionary's count word (bit 31 masked off, as the
/// engine does), if `left` bytes can hold that many elements of at least `min_elem_size`
/// bytes each: checked before anything is allocated.
#[inline]
pub(crate) fn container_count_of(word: u32, min_elem_size: usize, left: usize) -> Option<usize> {
    let count = (word & COUNT_MASK) as usize;
    (count.saturating_mul(min_elem_size) <= left).then_some(count)
}

/// Bytes of zero padding after `len` bytes of data, up to a multiple of 4.
#[inline]
pub(crate) fn pad_len(len: usize) -> usize {
    (4 - len % 4) % 4
}

/// A cursor over the input. Offsets in errors are offsets into the whole input.
#[derive(Clone)]
pub(crate) struct Reader<'de> {
    input: &'de [u8],
    pos: usize,
}

impl<'de> Reader<'de> {
    pub fn new(input: &'de [u8]) -> Self {
        Reader { input, pos: 0 }
    }

    /// Where the next read starts.
    #[inline]
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves back to `pos`, a position read earlier (to read a header again).
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

    /// Moves past `n` bytes already seen to be there (by [`Reader::peek_u32`]).
    #[inline]
    pub fn advance(&mut self, n: usize) {
        debug_assert!(self.pos + n <= self.input.len());
        self.pos += n;
    }

    /// An error of `kind` at byte `at`.
    #[inline]
    pub fn error_at(&self, kind: ErrorKind, at: usize) -> Error {
        Error::at(kind, at)
    }

    /// An error of `kind` at the current position.
    #[inline]
    pub fn error(&self, kind: ErrorKind) -> Error {
        Error::at(kind, self.pos)
    }

    /// The next `n` bytes, borrowed from the input.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'de [u8]> {
        match self.input.get(self.pos..).and_then(|rest| rest.get(..n)) {
            Some(bytes) => {
                self.pos += n;
                Ok(bytes)
            }
            None => Err(self.error(ErrorKind::UnexpectedEof)),
        }
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

    /// A packed-array count: an i32 that must be non-negative, with `count * elem_size`
    /// bytes present after it. Checked before the caller allocates anything.
    pub fn packed_count(&mut self, elem_size: usize) -> Result<usize> {
        let at = self.pos;
        let count = self.i32()?;
        let fits = usize::try_from(count).ok().filter(|&n| {
            n.checked_mul(elem_size)
                .is_some_and(|len| len <= self.rest().len())
        });
        fits.ok_or_else(|| self.error_at(ErrorKind::LengthOutOfRange(count.into()), at))
    }

    /// An Array or Dictionary count (bit 31 masked off, as the engine does), refused if the
    /// input cannot hold that many elements of at least `min_elem_size` bytes.
    pub fn container_count(&mut self, min_elem_size: usize) -> Result<usize> {
        let at = self.pos;
        let word = self.u32()?;
        container_count_of(word, min_elem_size, self.rest().len()).ok_or_else(|| {
            let count = (word & COUNT_MASK) as i64;
            self.error_at(ErrorKind::LengthOutOfRange(count), at)
        })
    }

    /// A pascal string: u32 length, UTF-8 bytes, padding to 4 (which must be present).
    /// As the engine's UTF-8 parser does, a leading BOM is dropped and the text ends at
    /// the first NUL byte.
    #[inline]
    pub fn string(&mut self) -> Result<&'de str> {
        match self.valid_string() {
            Some(text) => Ok(text),
            // Errors, with their offsets.
            None => self.string_and_pad().map(|(text, _)| text),
        }
    }

    /// [`Reader::string`] when the length, the text and its padding are all there and the
    /// text is valid; `None`, having read nothing, otherwise. An `Option<&str>` comes back
    /// in two registers, where a `Result<&str>` would go through memory: this is the path
    /// every field name takes.
    #[inline]
    pub fn valid_string(&mut self) -> Option<&'de str> {
        let rest = self.rest();
        let word = rest.get(..4)?;
        let len = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
        // Below 2^31, so the sum cannot overflow even a 32-bit usize.
        let len = len.min(i32::MAX as u32 + 1) as usize;
        let end = 4 + len + pad_len(len);
        if len > i32::MAX as usize || end > rest.len() {
            return None;
        }
        let text = engine_utf8(&rest[4..4 + len]).ok()?;
        self.pos += end;
        Some(text)
    }

    /// [`Reader::string`], also returning where its padding lies in the input.
    pub fn string_and_pad(&mut self) -> Result<(&'de str, std::ops::Range<usize>)> {
        let at = self.pos;
        let len = self.u32()?;
        let too_long = || self.error_at(ErrorKind::LengthOutOfRange(len.into()), at);
        if len > i32::MAX as u32 {
            return Err(too_long());
        }
        let len = len as usize;
        if len + pad_len(len) > self.rest().len() {
            return Err(too_long());
        }
        let data_at = self.pos;
        let raw = self.bytes(len)?;
        let pad = self.pos..self.pos + pad_len(len);
        self.skip(pad.len())?;
        let text = engine_utf8(raw).map_err(|_| self.error_at(ErrorKind::InvalidUtf8, data_at))?;
        Ok((text, pad))
    }

    /// A string that may be stored as the engine's `PackedStringArray` element, which is
    /// the same as [`Reader::string`]: the NUL the encoder adds ends the text.
    #[inline]
    pub fn packed_string(&mut self) -> Result<&'de str> {
        self.string()
    }
}

/// Writes a whole STRING-layout packet: `header`, u32 length, the text, zero padding to 4,
/// refusing what [`check_text`] refuses. Text of up to 16 bytes (every field name and most
/// values) is gathered into two words from overlapping loads, which also serve for the NUL
/// check, and written as one 24-byte block (three register stores after one capacity check)
/// cut back to the padded length: no `memcpy` call and no byte-by-byte assembly.
#[inline(always)]
pub(crate) fn put_text_packet(out: &mut Vec<u8>, header: u32, text: &str) -> Result<()> {
    let bytes = text.as_bytes();
    let len = bytes.len();
    if len > 16 {
        return put_long_text_packet(out, header, text);
    }
    // `low` holds text bytes 0-7 and `high` bytes 8-15, zero past the end of the text;
    // `nul` is whether a text byte is zero (the loads only cover text bytes).
    let (low, high, nul) = if len >= 8 {
        let head = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let tail = u64::from_le_bytes(bytes[len - 8..].try_into().unwrap());
        // Tail byte j is text byte len - 8 + j; high's byte k is text byte 8 + k.
        let high = tail.checked_shr(8 * (16 - len) as u32).unwrap_or(0);
        (head, high, word_has_zero(head) || word_has_zero(tail))
    } else if len >= 4 {
        let head = u32::from_le_bytes(bytes[..4].try_into().unwrap());
        let tail = u32::from_le_bytes(bytes[len - 4..].try_into().unwrap());
        let low = u64::from(head) | u64::from(tail) << (8 * (len - 4));
        // Widened with 0xFF bytes, which are not zero.
        let nul =
            word_has_zero(u64::from(head) | !0 << 32) || word_has_zero(u64::from(tail) | !0 << 32);
        (low, 0, nul)
    } else {
        let mut low = 0u64;
        let mut nul = false;
        for (i, &b) in bytes.iter().enumerate() {
            low |= u64::from(b) << (8 * i);
            nul |= b == 0;
        }
        (low, 0, nul)
    };
    if nul {
        return Err(nul_in_text());
    }
    let end = out.len() + 8 + len + pad_len(len);
    let mut block = [0u8; 24];
    block[..8].copy_from_slice(&(u64::from(header) | (len as u64) << 32).to_le_bytes());
    block[8..16].copy_from_slice(&low.to_le_bytes());
    block[16..].copy_from_slice(&high.to_le_bytes());
    out.extend_from_slice(&block);
    out.truncate(end);
    Ok(())
}

/// [`put_text_packet`] for text past 16 bytes, out of line so that the short path, inlined
/// at every caller, stays small.
#[inline(never)]
fn put_long_text_packet(out: &mut Vec<u8>, header: u32, text: &str) -> Result<()> {
    check_text(text)?;
    out.reserve(8 + text.len() + 3);
    out.put_u32(header);
    out.put_string(text);
    Ok(())
}

#[cold]
fn nul_in_text() -> Error {
    ErrorKind::Unsupported("a NUL character in a string (the engine's text ends there)".into())
        .into()
}

/// Refuses text the engine would not read back as written: a NUL ends the engine's text,
/// and a length past `i32::MAX` is refused by its decoder.
#[inline]
pub(crate) fn check_text(s: &str) -> Result<()> {
    if s.len() > i32::MAX as usize - 4 {
        return Err(ErrorKind::LengthOutOfRange(s.len() as i64).into());
    }
    if has_nul(s.as_bytes()) {
        return Err(nul_in_text());
    }
    Ok(())
}

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Whether any byte of `word` is zero (the classic word-at-a-time test: a byte's high bit
/// survives `(byte - 1) & !byte` only when the byte was zero).
#[inline]
fn word_has_zero(word: u64) -> bool {
    word.wrapping_sub(LOW_BITS) & !word & HIGH_BITS != 0
}

/// Whether `bytes` hold a NUL, eight bytes at a time.
#[inline]
fn has_nul(bytes: &[u8]) -> bool {
    !all_words(bytes, |w| !word_has_zero(w))
}

/// Whether every byte is in 0x01..=0x7F (ASCII, no NUL), eight bytes at a time.
#[inline]
fn is_plain_ascii(bytes: &[u8]) -> bool {
    all_words(bytes, |w| w & HIGH_BITS == 0 && !word_has_zero(w))
}

/// Whether `test` holds for 8-byte words covering all of `bytes`: whole words, then one
/// that overlaps them to end at the last byte; under 8 bytes, two overlapping 4-byte words
/// each widened with 0x01 bytes (ASCII, not NUL: they pass every test here), or under 4
/// bytes, one word of the bytes and 0x01 filler. No byte loop: text is mostly short field
/// names and values.
#[inline]
fn all_words(bytes: &[u8], test: impl Fn(u64) -> bool) -> bool {
    const FILLER: u64 = 0x0101_0101_0101_0101;
    let len = bytes.len();
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())) | FILLER << 32
    };
    if len >= 8 {
        let chunks = bytes.chunks_exact(8);
        let whole = chunks.len() * 8;
        chunks
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .all(&test)
            && (whole == len || test(word(len - 8)))
    } else if len >= 4 {
        test(half(0)) && test(half(len - 4))
    } else {
        let mut padded = FILLER.to_le_bytes();
        for (slot, &b) in padded.iter_mut().zip(bytes) {
            *slot = b;
        }
        test(u64::from_le_bytes(padded))
    }
}

/// UTF-8 as the engine reads it: BOM stripped, text ends at the first NUL.
#[inline]
pub(crate) fn engine_utf8(raw: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    // Fast path: field names and most text are ASCII without a NUL (nor, then, a BOM).
    if is_plain_ascii(raw) {
        #[allow(unsafe_code)]
        // SAFETY: every byte is in 0x01..=0x7F, so the bytes are ASCII, which is valid
        // UTF-8. (`wire::tests::ascii_fast_path_agrees_with_from_utf8` checks every byte at
        // every position of an 8-byte word and in the tail.)
        return Ok(unsafe { std::str::from_utf8_unchecked(raw) });
    }
    engine_utf8_checked(raw)
}

/// [`engine_utf8`] for any bytes.
fn engine_utf8_checked(raw: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    let raw = raw.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(raw);
    let text = match raw.iter().position(|&b| b == 0) {
        Some(nul) => &raw[..nul],
        None => raw,
    };
    std::str::from_utf8(text)
}

/// Appending words, strings and padding to an output buffer.
pub(crate) trait Put {
    fn put_u32(&mut self, v: u32);
    fn put_u64(&mut self, v: u64);
    fn put_f32(&mut self, v: f32);
    fn put_f64(&mut self, v: f64);
    fn put_zeros(&mut self, n: usize);
    /// u32 length, the bytes, zero padding to 4.
    fn put_string(&mut self, s: &str);
    /// `PackedStringArray` element: length + 1, the bytes, a NUL, zero padding to 4.
    fn put_packed_string(&mut self, s: &str);
    /// Overwrites the u32 at `at` (a count written before its elements were counted).
    fn patch_u32(&mut self, at: usize, v: u32);
}

impl Put for Vec<u8> {
    #[inline]
    fn put_u32(&mut self, v: u32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_u64(&mut self, v: u64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f32(&mut self, v: f32) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_f64(&mut self, v: f64) {
        self.extend_from_slice(&v.to_le_bytes());
    }
    #[inline]
    fn put_zeros(&mut self, n: usize) {
        self.resize(self.len() + n, 0);
    }
    #[inline]
    fn put_string(&mut self, s: &str) {
        let len = s.len();
        let pad = pad_len(len);
        self.reserve(4 + len + pad);
        self.extend_from_slice(&(len as u32).to_le_bytes());
        self.extend_from_slice(s.as_bytes());
        // A whole zero word cut back to the padding: a fixed-size copy, no memset call.
        self.extend_from_slice(&[0; 4]);
        self.truncate(self.len() - 4 + pad);
    }
    fn put_packed_string(&mut self, s: &str) {
        self.put_u32(s.len() as u32 + 1);
        self.extend_from_slice(s.as_bytes());
        self.put_zeros(1 + pad_len(s.len() + 1));
    }
    fn patch_u32(&mut self, at: usize, v: u32) {
        self[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_stops_at_nul_and_drops_bom() {
        let mut bytes = Vec::new();
        bytes.put_u32(8);
        bytes.extend_from_slice(b"\xEF\xBB\xBFab\0cd");
        assert_eq!(Reader::new(&bytes).string().unwrap(), "ab");
    }

    #[test]
    fn ascii_fast_path_agrees_with_from_utf8() {
        // Every single byte, and every byte after an ASCII prefix and before a suffix, in
        // short strings (the fast path) and long ones (the checked path).
        // Every length from 1 to 40: the word checks take different loads below 4, below 8,
        // at whole words and past them.
        for len in 1..=40 {
            for b in 0..=255u8 {
                for at in 0..len {
                    let mut raw = vec![b'x'; len];
                    raw[at] = b;
                    assert_eq!(
                        engine_utf8(&raw).ok(),
                        engine_utf8_checked(&raw).ok(),
                        "{raw:?}"
                    );
                    assert_eq!(has_nul(&raw), b == 0, "{raw:?}");
                    assert_eq!(is_plain_ascii(&raw), (1..0x80).contains(&b), "{raw:?}");
                }
            }
        }
        assert!(is_plain_ascii(b"") && !has_nul(b""));
        assert_eq!(engine_utf8(b"\xEF\xBB\xBFab").unwrap(), "ab");
        assert!(engine_utf8(b"a\xff").is_err());
        assert_eq!(engine_utf8(b"ab\0\xff").unwrap(), "ab");
    }

    #[test]
    fn text_packets_are_header_length_text_and_padding() {
        // Every length from 0 to 40 crosses each of put_text_packet's load patterns; the
        // expected bytes are built byte by byte.
        for len in 0..=40usize {
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let mut expected = vec![0xAA, 0xBB]; // bytes already in the buffer stay
            expected.extend_from_slice(&0x0004_0004u32.to_le_bytes());
            expected.extend_from_slice(&(len as u32).to_le_bytes());
            expected.extend_from_slice(text.as_bytes());
            expected.resize(expected.len() + pad_len(len), 0);
            let mut out = vec![0xAA, 0xBB];
            put_text_packet(&mut out, 0x0004_0004, &text).unwrap();
            assert_eq!(out, expected, "length {len}");
            // A NUL anywhere is refused, and nothing is written.
            for at in 0..len {
                let mut bytes = text.clone().into_bytes();
                bytes[at] = 0;
                let with_nul = String::from_utf8(bytes).unwrap();
                let mut out = vec![0xAA];
                assert!(
                    put_text_packet(&mut out, 4, &with_nul).is_err(),
                    "{len} {at}"
                );
                assert_eq!(out, [0xAA]);
            }
        }
        // Multi-byte characters are bytes like any other.
        let mut out = Vec::new();
        put_text_packet(&mut out, 4, "é").unwrap();
        assert_eq!(out, [4, 0, 0, 0, 2, 0, 0, 0, 0xC3, 0xA9, 0, 0]);
    }

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
    fn string_needs_its_padding() {
        let bytes = [1, 0, 0, 0, b'a'];
        let err = Reader::new(&bytes).string().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::LengthOutOfRange(1)));
        assert_eq!(err.offset(), Some(0));
    }

    #[test]
    fn packed_count_is_checked_against_the_bytes_left() {
        let bytes = [0, 0, 0, 0x40, 1, 2, 3, 4];
        let err = Reader::new(&bytes).packed_count(4).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::LengthOutOfRange(0x4000_0000)
        ));
        let neg = [0xff, 0xff, 0xff, 0xff];
        assert!(Reader::new(&neg).packed_count(1).is_err());
    }

    #[test]
    fn packed_string_writes_len_plus_one_and_nul() {
        let mut out = Vec::new();
        out.put_packed_string("a");
        assert_eq!(out, [2, 0, 0, 0, b'a', 0, 0, 0]);
        out.clear();
        out.put_packed_string("");
        assert_eq!(out, [1, 0, 0, 0, 0, 0, 0, 0]);
    }
}
