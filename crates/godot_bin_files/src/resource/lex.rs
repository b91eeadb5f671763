//! The smallest pieces of the resource files' text syntax, below everything that reads or
//! writes it (`syntax.rs`, `numbers.rs`, `reference.rs`): identifier characters, where a
//! string literal ends, and how one is written.

use crate::error::{Error, Result};
use godot_bin::Dialect;
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

/// A key as the engine writes it: Godot 4's `property_name_encode` (quoted, `\` and `"`
/// escaped, when it holds `=` `"` `;` `[` `]` or a character outside `!`..`~`); Godot 3
/// writes it as it is.
pub(crate) fn encode_key(key: &str, dialect: Dialect) -> String {
    let plain = |c: char| !matches!(c, '=' | '"' | ';' | '[' | ']') && ('!'..='~').contains(&c);
    if dialect != Dialect::Godot4 || key.chars().all(plain) {
        return key.into();
    }
    let mut out = String::with_capacity(key.len() + 2);
    let _ = write_quoted(&mut out, key);
    out
}

/// A property name as the resource writers encode it: Godot 4's `property_name_encode`
/// (see [`encode_key`]) in every dialect. Godot 3's own encoder leaves `;`, `[` and `]`
/// unquoted, and then no reader, the engine's included, reads the line back as that name;
/// engine-made files never hold such names (properties are identifiers), so quoting them
/// changes no engine file and makes what the crate writes read back
/// (`tests/it/regression/godot3_names.rs`).
pub(crate) fn encode_property(name: &str) -> String {
    encode_key(name, Dialect::Godot4)
}
