//! The smallest pieces of the resource files' text syntax, below everything that reads or
//! writes it (`syntax.rs`, `numbers.rs`, `reference.rs`): identifier characters, where a
//! string literal ends, and how one is written.

use crate::error::{Error, Result};
use std::fmt;

pub(crate) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

pub(crate) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The index after the string literal whose opening quote is at `i`.
pub(crate) fn skip_string(s: &[u8], mut i: usize) -> Result<usize> {
    let open = i;
    i += 1;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 2,
            b'"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err(Error::syntax("a string is not closed before the end of the text").at_byte(open))
}

/// Writes `s` as a double-quoted literal, escaping `"` and `\` as the engine's String
/// text does.
pub(crate) fn write_quoted(f: &mut (impl fmt::Write + ?Sized), s: &str) -> fmt::Result {
    f.write_char('"')?;
    for c in s.chars() {
        if c == '"' || c == '\\' {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char('"')
}
