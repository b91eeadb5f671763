//! Text: the payload of STRING and STRING_NAME packets, and of every string inside other
//! payloads (NodePath parts, object class and property names, typed-container class
//! names, Signal names).
//!
//! On the wire: a u32 byte length, the UTF-8 bytes, then zero bytes up to a multiple of 4
//! (the padding must be there). The length is read as a signed 32-bit number, so anything
//! past `i32::MAX` is refused.
//!
//! How the engine reads the bytes, which this module follows: a leading byte-order mark is
//! dropped, and the text ends at the first NUL byte (whatever follows it up to the length
//! is ignored). Invalid UTF-8 is an error here ([`ErrorKind::InvalidUtf8`]); Godot 3 also
//! accepts surrogates and overlong forms, which a Rust `str` cannot hold.
//!
//! Writing, a text holding a NUL is refused: the engine would read it back cut short.
//!
//! A PackedStringArray element differs in one way: its length counts a NUL the encoder
//! adds after the text (`"a"` is length 2, `61 00`, padding); reading it is the same rule,
//! since the text ends at that NUL.

use super::reader::{pad_len, Reader};
use super::trace::Value;
use super::writer::Put;
use crate::error::{Error, ErrorKind, Result};

/// Reads a text payload: length, bytes, padding (which must be present).
#[inline]
pub(crate) fn read<'de>(r: &mut Reader<'de>) -> Result<&'de str> {
    read_labelled(r, "string")
}

/// [`read`], naming the text `label` when tracing.
#[inline]
pub(crate) fn read_labelled<'de>(r: &mut Reader<'de>, label: &'static str) -> Result<&'de str> {
    match valid(r) {
        Some(text) => Ok(text),
        // Errors, with their offsets; and the traced path.
        None => read_with_pad(r, label).map(|(text, _)| text),
    }
}

/// [`read`] when the length, the text and its padding are all there and the text is valid;
/// `None`, having read nothing, otherwise. An `Option<&str>` comes back in two registers,
/// where a `Result<&str>` would go through memory: this is the path every field name takes.
#[inline]
pub(crate) fn valid<'de>(r: &mut Reader<'de>) -> Option<&'de str> {
    if r.trace.is_some() {
        return None;
    }
    let rest = r.rest();
    let word = rest.get(..4)?;
    let len = u32::from_le_bytes([word[0], word[1], word[2], word[3]]);
    // Below 2^31, so the sum cannot overflow even a 32-bit usize.
    let len = len.min(i32::MAX as u32 + 1) as usize;
    let end = 4 + len + pad_len(len);
    if len > i32::MAX as usize || end > rest.len() {
        return None;
    }
    let text = engine_utf8(&rest[4..4 + len]).ok()?;
    r.advance(end);
    Some(text)
}

/// [`read`], also returning where the padding lies in the input (the engine leaves a
/// NodePath's padding unwritten, so tests comparing with its bytes skip exactly those).
pub(crate) fn read_with_pad<'de>(
    r: &mut Reader<'de>,
    label: &'static str,
) -> Result<(&'de str, std::ops::Range<usize>)> {
    let at = r.pos();
    let len = r.text_len()?;
    r.note(at, label, || Value::Len(len));
    let data_at = r.pos();
    let raw = r.bytes(len)?;
    let pad = r.pos()..r.pos() + pad_len(len);
    r.skip(pad.len())?;
    let text = engine_utf8(raw).map_err(|_| r.error_at(ErrorKind::InvalidUtf8, data_at))?;
    r.note(data_at, label, || Value::Text {
        text: text.to_owned(),
        raw: len,
    });
    Ok((text, pad))
}

/// Writes a text payload (length, bytes, padding), refusing what [`check_text`] refuses.
#[inline]
pub(crate) fn write(out: &mut Vec<u8>, text: &str) -> Result<()> {
    check_text(text)?;
    out.put_string(text);
    Ok(())
}

/// Writes a PackedStringArray element, refusing what [`check_text`] refuses.
#[inline]
pub(crate) fn write_packed_element(out: &mut Vec<u8>, text: &str) -> Result<()> {
    check_text(text)?;
    out.put_packed_string(text);
    Ok(())
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
        // Assembled in registers: a byte loop here compiled to a `memcpy` call.
        let word = match *bytes {
            [] => 0,
            [a] => u64::from(a),
            [a, b] => u64::from(u16::from_le_bytes([a, b])),
            [a, b, c, ..] => u64::from(u16::from_le_bytes([a, b])) | u64::from(c) << 16,
        };
        test(word | FILLER << (8 * len))
    }
}

/// UTF-8 as the engine reads it: BOM stripped, text ends at the first NUL.
#[inline]
pub(crate) fn engine_utf8(raw: &[u8]) -> std::result::Result<&str, std::str::Utf8Error> {
    // Fast path: field names and most text are ASCII without a NUL (nor, then, a BOM).
    if is_plain_ascii(raw) {
        #[allow(unsafe_code)]
        // SAFETY: every byte is in 0x01..=0x7F, so the bytes are ASCII, which is valid
        // UTF-8. (`tests::ascii_fast_path_agrees_with_from_utf8` below checks every byte at
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_stops_at_nul_and_drops_bom() {
        let mut bytes = Vec::new();
        bytes.put_u32(8);
        bytes.extend_from_slice(b"\xEF\xBB\xBFab\0cd");
        assert_eq!(read(&mut Reader::new(&bytes, usize::MAX)).unwrap(), "ab");
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
}
