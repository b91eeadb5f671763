//! The text layer both text forms share (ConfigFile and `.tres` / `.tscn`): where one value
//! ends, values with references parsed through the crate's own text parser
//! ([`Variant::from_text`]), and values printed in a file's syntax.
//!
//! The engine reads both forms with one grammar (`VariantParser::parse_tag_assign_eof`):
//! `[tag ...]` headers, `key = value` assignments, `;` comments to the end of a line, and
//! whitespace anywhere between them. A value is one token or one bracketed group:
//! `"text"`, `&"name"`, `-1.5e+20`, `true`, `Vector2(1, 2)`, `Array[int]([1])`, `[...]`,
//! `{...}`; it may span lines (strings hold raw newlines, containers break lines).
//!
//! Values are read and printed by godot_bin's text form through its two seams: the
//! parser's [`ParseHook`] ([`FileReader`]: references become their marker objects, see
//! [`super::reference`]; floats are read as the engine reads them) and the printer's
//! [`Formatter`] ([`FileWriter`]: markers are written back as references, floats as the
//! engine prints them where that reads back exactly, byte arrays as base64 in format 4).

pub(crate) use super::lex::{is_ident, is_ident_start, skip_string, write_quoted};
use super::numbers;
use super::reference::{Reference, EXT_CLASS, PATH_CLASS, SUB_CLASS};
use crate::error::{Error, Result};
use godot_bin::text::{word_value, Formatter, ParseHook};
use godot_bin::{Dialect, ElementType, Object, Variant};
use std::fmt;

/// How a file prints its values: which engine's spacing, and whether a PackedByteArray is
/// base64 (Godot 4's text format 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// `Godot4` or `Godot3` spacing (`Vector2(1, 2)` or `Vector2( 1, 2 )`).
    pub dialect: Dialect,
    /// `PackedByteArray("AQI=")` instead of `PackedByteArray(1, 2)`.
    pub base64_bytes: bool,
    /// `-inf` instead of `inf_neg` (4.5 and later, in `format=4` files).
    pub minus_inf: bool,
}

impl Style {
    pub(crate) const GODOT4: Style = Style {
        dialect: Dialect::Godot4,
        base64_bytes: false,
        minus_inf: false,
    };
    pub(crate) const GODOT3: Style = Style {
        dialect: Dialect::Godot3,
        base64_bytes: false,
        minus_inf: false,
    };
}

/// The index after the bracketed group (`(...)`, `[...]`, `{...}`) opening at `i`: string
/// literals and `;` comments are skipped; brackets are counted, not matched (the value
/// parser checks them).
fn skip_group(s: &[u8], mut i: usize) -> Result<usize> {
    let open = i;
    let mut depth = 0usize;
    while i < s.len() {
        // Most of a group's bytes are none of the five kinds below: pass over them first.
        while i < s.len() && !GROUP_BYTES[usize::from(s[i])] {
            i += 1;
        }
        let Some(&b) = s.get(i) else {
            break;
        };
        match b {
            b'"' => {
                i = skip_string(s, i)?;
                continue;
            }
            b';' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            _ => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
        }
        i += 1;
    }
    Err(Error::syntax("a bracket is not closed before the end of the text").at_byte(open))
}

/// The bytes [`skip_group`] stops at: quotes, comments and brackets.
static GROUP_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let stops = b"\";()[]{}";
    while k < stops.len() {
        t[stops[k] as usize] = true;
        k += 1;
    }
    t
};

/// The index after the value starting at `i` (no whitespace before it). Byte offsets in
/// errors are absolute in `s`.
pub(crate) fn value_end(s: &[u8], i: usize) -> Result<usize> {
    let Some(&c) = s.get(i) else {
        return Err(Error::syntax("expected a value, found the end of the text").at_byte(i));
    };
    match c {
        b'"' => skip_string(s, i),
        // A `#` colour: the hex digits after it, as the engine's lexer takes them.
        b'#' => {
            let mut j = i + 1;
            while j < s.len() && s[j].is_ascii_hexdigit() {
                j += 1;
            }
            Ok(j)
        }
        b'&' | b'@' | b'^' if s.get(i + 1) == Some(&b'"') => skip_string(s, i + 1),
        b'(' | b'[' | b'{' => skip_group(s, i),
        c if is_ident_start(c) => {
            let mut j = i;
            while j < s.len() && is_ident(s[j]) {
                j += 1;
            }
            // A word that is a value by itself ends there, as in the engine's reader:
            // after `inf` a `(` starts the next item (`c=inf(3`).
            if std::str::from_utf8(&s[i..j]).is_ok_and(|w| word_value(w).is_some()) {
                return Ok(j);
            }
            // `Array[int]([1])`, `Vector2(1, 2)`, `Vector2 (1, 2)`. Only the typed
            // containers take a `[`: after another name a `[` starts the next section
            // (`c=nan[s]`), as in the engine's reader.
            let mut k = j;
            while k < s.len() && (s[k] == b' ' || s[k] == b'\t') {
                k += 1;
            }
            let typed = matches!(&s[i..j], b"Array" | b"Dictionary" | b"PackedTypedArray");
            if typed && s.get(k) == Some(&b'[') {
                k = skip_group(s, k)?;
                j = k;
                while k < s.len() && (s[k] == b' ' || s[k] == b'\t') {
                    k += 1;
                }
            }
            if s.get(k) == Some(&b'(') {
                return skip_group(s, k);
            }
            Ok(j)
        }
        b'-' | b'+' | b'.' | b'0'..=b'9' => {
            // `-inf` and `-nan`, with the `.0` Godot 3 prints after them, end where the
            // text parser's lexer ends them: `-inf.0.5` is `-inf.0`, then `.5`.
            if c == b'-' {
                let mut j = i + 1;
                while j < s.len() && is_ident(s[j]) {
                    j += 1;
                }
                if std::str::from_utf8(&s[i..j]).is_ok_and(|w| word_value(w).is_some()) {
                    if s[j..].starts_with(b".0") {
                        j += 2;
                    }
                    return Ok(j);
                }
            }
            // Otherwise as the engine's tokenizer (and godot_bin's lexer) delimits a number:
            // a sign, digits, one `.` and digits, an exponent with one sign and digits;
            // `-1e400.fff` is `-1e400`, then `.fff`.
            let digits = |mut j: usize| {
                while j < s.len() && s[j].is_ascii_digit() {
                    j += 1;
                }
                j
            };
            if c == b'-' && !s.get(i + 1).is_some_and(u8::is_ascii_digit) {
                // `-word`: a word the parser takes or refuses (`-inf` in 4.5+ files).
                let mut j = i + 1;
                while j < s.len() && (is_ident(s[j]) || s[j] == b'.') {
                    j += 1;
                }
                return Ok(j);
            }
            let mut j = digits(i + 1);
            if c != b'.' && s.get(j) == Some(&b'.') {
                j = digits(j + 1);
            }
            if matches!(s.get(j), Some(b'e' | b'E')) {
                j += 1;
                if matches!(s.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                j = digits(j);
            }
            Ok(j)
        }
        _ => Err(Error::syntax(format!("expected a value, found {:?}", char_at(s, i))).at_byte(i)),
    }
}

/// The character at byte `i` (for messages).
pub(crate) fn char_at(s: &[u8], i: usize) -> char {
    std::str::from_utf8(&s[i..s.len().min(i + 4)])
        .ok()
        .or_else(|| std::str::from_utf8(&s[i..i + 1]).ok())
        .and_then(|t| t.chars().next())
        .unwrap_or('\u{fffd}')
}

/// Parses the value `text[start..end]` (found with [`value_end`]) as the engine's file
/// reader does ([`FileReader`]). Errors carry their line and column in `text`.
pub(crate) fn parse_value(text: &str, start: usize, end: usize) -> Result<Variant> {
    if text[start..end].starts_with('#') {
        // Read as Godot 4 does; a Godot 3 file's are read again once its dialect is known
        // (`Document::reread_hex_colors`).
        return hex_color(&text[start..end], Dialect::Godot4)
            .map(Variant::Color)
            .ok_or_else(|| {
                Error::syntax(
                    "a # colour of other than 3, 4, 6 or 8 hex digits (the engine reads it as black, with an error)",
                )
                .at_text(text, start)
            });
    }
    Variant::from_text_with(&text[start..end], &mut FileReader)
        .map_err(|e| Error::value(&e, text, start))
}

/// A `#` colour, as the engines' text reader reads one (its `Color::html`): `#rgb`,
/// `#rrggbb`, and with alpha `#rgba` / `#rrggbbaa` in Godot 4, `#argb` / `#aarrggbb` in
/// Godot 3 (a one-digit channel is the digit twice). Godot 4 divides in single
/// precision, Godot 3 in double; `None` for another number of digits.
pub(crate) fn hex_color(text: &str, dialect: Dialect) -> Option<godot_bin::Color> {
    let hex = text.strip_prefix('#')?;
    let digits: Vec<u32> = hex.chars().map(|c| c.to_digit(16)).collect::<Option<_>>()?;
    // Each channel as 0..=255, in the order the text holds them.
    let channels: Vec<u32> = match digits.len() {
        3 | 4 => digits.iter().map(|d| d * 17).collect(),
        6 | 8 => digits.chunks(2).map(|p| p[0] * 16 + p[1]).collect(),
        _ => return None,
    };
    let alpha = channels.len() == 4;
    let (rgb, a) = match (dialect, alpha) {
        (_, false) => (&channels[..], None),
        (Dialect::Godot3, true) => (&channels[1..], Some(channels[0])),
        (_, true) => (&channels[..3], Some(channels[3])),
    };
    let unit = |c: u32| -> f32 {
        match dialect {
            Dialect::Godot3 => (f64::from(c) / 255.0) as f32,
            // Godot 4 divides a one-digit channel by 15, a two-digit one by 255.
            _ if digits.len() <= 4 => (c / 17) as f32 / 15.0,
            _ => c as f32 / 255.0,
        }
    };
    Some(godot_bin::Color::new(
        unit(rgb[0]),
        unit(rgb[1]),
        unit(rgb[2]),
        a.map_or(1.0, unit),
    ))
}

/// How a file's values are read on top of the text form ([`ParseHook`]): references as
/// their marker objects ([`Reference`]), floats as the engine's `strtod` reads them
/// ([`super::strtod`]), and a byte order mark written at a string literal's start
/// dropped, as the engine's `parse_utf8` of the file drops it.
pub(crate) struct FileReader;

impl ParseHook for FileReader {
    fn call(
        &mut self,
        name: &str,
        args: Vec<Variant>,
    ) -> std::result::Result<Option<Variant>, String> {
        let (class, key) = match name {
            "ExtResource" => (EXT_CLASS, "id"),
            "SubResource" => (SUB_CLASS, "id"),
            "Resource" => (PATH_CLASS, "path"),
            _ => return Ok(None),
        };
        let id = reference_arg(class, args).ok_or_else(|| {
            if class == PATH_CLASS {
                format!("{name}(...) takes a string")
            } else {
                format!("{name}(...) takes a string or an integer id")
            }
        })?;
        Ok(Some(Variant::Object(Object {
            class_name: class.into(),
            properties: vec![(key.into(), id)],
        })))
    }

    fn type_call(
        &mut self,
        name: &str,
        args: Vec<Variant>,
    ) -> std::result::Result<Option<ElementType>, String> {
        // `Array[ExtResource("1_s")]`: a script class by the file's reference, kept as a
        // script type under the path `ExtResource:1_s`, which no file has (module docs of
        // `reference`); [`FileWriter::script_type`] writes it back.
        if !matches!(name, "ExtResource" | "SubResource") {
            return Ok(None);
        }
        match args.as_slice() {
            [Variant::String(id)] => Ok(Some(ElementType::Script(format!("{name}:{id}")))),
            _ => Err("expected a string id".into()),
        }
    }

    fn float(&mut self, token: &str) -> Option<f64> {
        numbers::engine_float(token)
    }

    fn string(&mut self, value: &mut String, raw: &str) {
        if raw.starts_with('\u{feff}') && value.starts_with('\u{feff}') {
            value.drain(..'\u{feff}'.len_utf8());
        }
    }
}

/// The argument of a reference: one string or one integer; with two strings
/// (`Resource("uid://...", "res://...")`), the path. Ints only where ids are numbers
/// (Godot 3's `ExtResource( 1 )`), not in a path reference.
fn reference_arg(class: &str, args: Vec<Variant>) -> Option<Variant> {
    let mut args = args.into_iter();
    let first = args.next()?;
    match (first, args.next(), args.next()) {
        (v @ Variant::String(_), None, None) => Some(v),
        (v @ Variant::Int(_), None, None) if class != PATH_CLASS => Some(v),
        (Variant::String(_), Some(v @ Variant::String(_)), None) => Some(v),
        _ => None,
    }
}

/// `v` printed in `style`, with references in the file's syntax and every float in text
/// the engine reads back to it exactly ([`FileWriter`]). An object value ends the text
/// with a newline, as the engine's writer ends it.
pub(crate) fn print_value(v: &Variant, style: Style) -> String {
    if style.dialect != Dialect::Godot4 && has_rid(v) {
        // Godot 3 prints an RID as nothing (a line it cannot read back) and reads
        // `RID(76)` as the int 76 (3.2.3's `ConfigFile.parse`): a value that is an RID is
        // printed `RID(76)` (which ends where it ends, whatever follows), one inside a
        // container as that int.
        if let Variant::Rid(r) = v {
            return format!("RID({})", r.0);
        }
        return rid_as_int(v).to_text_with(style.dialect, &mut FileWriter { style });
    }
    v.to_text_with(style.dialect, &mut FileWriter { style })
}

fn has_rid(v: &Variant) -> bool {
    match v {
        Variant::Rid(_) => true,
        Variant::Array(a) => a.iter().any(has_rid),
        Variant::Dictionary(d) => d.iter().any(|(k, x)| has_rid(k) || has_rid(x)),
        Variant::Object(o) => o.properties.iter().any(|(_, x)| has_rid(x)),
        _ => false,
    }
}

fn rid_as_int(v: &Variant) -> Variant {
    match v {
        Variant::Rid(r) => Variant::Int(r.0 as i64),
        Variant::Array(a) => {
            let mut a = a.clone();
            a.iter_mut().for_each(|x| *x = rid_as_int(x));
            Variant::Array(a)
        }
        Variant::Dictionary(d) => {
            let mut out = d.clone();
            out.clear();
            for (k, x) in d.iter() {
                out.insert(rid_as_int(k), rid_as_int(x));
            }
            Variant::Dictionary(out)
        }
        Variant::Object(o) => {
            let mut o = o.clone();
            o.properties
                .iter_mut()
                .for_each(|(_, x)| *x = rid_as_int(x));
            Variant::Object(o)
        }
        other => other.clone(),
    }
}

/// How a file's values are printed on top of the text form ([`Formatter`]): a reference's
/// marker as `ExtResource("1")` (`ExtResource( 1 )` in Godot 3), floats as the engine
/// prints them where that reads back exactly ([`numbers`]), and in format 4 a
/// PackedByteArray as base64.
pub(crate) struct FileWriter {
    pub(crate) style: Style,
}

impl FileWriter {
    /// Negative infinity as the file's engine reads it back: `-inf` in a 4.5+ `format=4`
    /// file, `inf_neg` in other Godot 4 files, and in Godot 3 `-1e400` (Godot 3.2.3's
    /// writer prints `-inf.0`, which its own reader takes for the int 0 and, inside an
    /// Array, for a syntax error; a number past the largest double reads as -inf).
    fn neg_inf(&self) -> &'static str {
        if self.style.dialect != Dialect::Godot4 {
            "-1e400"
        } else if self.style.minus_inf {
            "-inf"
        } else {
            "inf_neg"
        }
    }
}

impl Formatter for FileWriter {
    fn f32(&mut self, out: &mut dyn fmt::Write, x: f32, shortest: &str) -> fmt::Result {
        if x == f32::NEG_INFINITY {
            return out.write_str(self.neg_inf());
        }
        match numbers::f32_text(x, shortest) {
            Some(text) => out.write_str(&text),
            None => out.write_str(shortest),
        }
    }

    fn f64(
        &mut self,
        out: &mut dyn fmt::Write,
        x: f64,
        shortest: &str,
        float: bool,
    ) -> fmt::Result {
        if x == f64::NEG_INFINITY {
            return out.write_str(self.neg_inf());
        }
        match numbers::f64_text(x, shortest, float) {
            Some(text) => out.write_str(&text),
            None => out.write_str(shortest),
        }
    }

    fn object(
        &mut self,
        out: &mut dyn fmt::Write,
        o: &Object,
    ) -> std::result::Result<bool, fmt::Error> {
        // Only the marker itself: a path reference read from a binary file also keeps its
        // class (`type`), which the text has no place for, and stays an Object.
        if o.properties.len() != 1 {
            return Ok(false);
        }
        let Some(reference) = Reference::from_object(o) else {
            return Ok(false);
        };
        let name = match reference {
            Reference::External(_) => "ExtResource",
            Reference::Sub(_) => "SubResource",
            Reference::Path(_) => "Resource",
        };
        // The id as the file spelled it: a string, or a number (Godot 3's ids).
        let mut lit = String::new();
        match &o.properties[0].1 {
            Variant::Int(i) => lit.push_str(&i.to_string()),
            _ => write_quoted(&mut lit, reference.id())?,
        }
        write_reference(out, name, &lit, self.style.dialect != Dialect::Godot4)?;
        Ok(true)
    }

    fn script_type(
        &mut self,
        out: &mut dyn fmt::Write,
        path: &str,
    ) -> std::result::Result<bool, fmt::Error> {
        for name in ["ExtResource", "SubResource"] {
            if let Some(id) = path.strip_prefix(name).and_then(|p| p.strip_prefix(':')) {
                out.write_str(name)?;
                out.write_char('(')?;
                write_quoted(out, id)?;
                out.write_char(')')?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn packed_bytes(
        &mut self,
        out: &mut dyn fmt::Write,
        bytes: &[u8],
    ) -> std::result::Result<bool, fmt::Error> {
        if !self.style.base64_bytes {
            return Ok(false);
        }
        out.write_str("PackedByteArray(")?;
        if !bytes.is_empty() {
            let mut b64 = String::with_capacity(bytes.len() / 3 * 4 + 4);
            base64_encode(bytes, &mut b64);
            out.write_char('"')?;
            out.write_str(&b64)?;
            out.write_char('"')?;
        }
        out.write_char(')')?;
        Ok(true)
    }
}

/// `ExtResource("1")` (Godot 4) or `ExtResource( 1 )` (Godot 3, whose ids are numbers).
fn write_reference(out: &mut dyn fmt::Write, name: &str, lit: &str, godot3: bool) -> fmt::Result {
    out.write_str(name)?;
    if godot3 {
        let inner = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"'));
        let numeric = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let lit = match inner {
            Some(t) if name != "Resource" && numeric(t) => t,
            _ => lit,
        };
        out.write_str("( ")?;
        out.write_str(lit)?;
        out.write_str(" )")
    } else if lit.starts_with('"') {
        out.write_char('(')?;
        out.write_str(lit)?;
        out.write_char(')')
    } else {
        out.write_str("(\"")?;
        out.write_str(lit)?;
        out.write_str("\")")
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding, as the engine's `CryptoCore::b64_encode_str`.
pub(crate) fn base64_encode(bytes: &[u8], out: &mut String) {
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Variant {
        let end = value_end(s.as_bytes(), 0).unwrap();
        assert_eq!(end, s.len(), "{s}");
        parse_value(s, 0, end).unwrap()
    }

    #[test]
    fn value_extents() {
        let cases = [
            ("1.5e+20 rest", 7),
            ("\"a\\\"b\" x", 6),
            ("&\"n\"]", 4),
            ("Vector2(1, 2)\nnext", 13),
            ("Array[int]([1, 2]) x", 18),
            ("[1, [2, \"]\"]]]", 13),
            ("true]", 4),
            ("inf_neg\n", 7),
            ("inf(3,\n", 3),
            ("null (", 4),
            ("nan[s]", 3),
            ("-inf.0.fff(1", 6),
            ("-nan(", 4),
            ("-inf_neg", 8),
            ("{\n\"a\": 1\n}\n", 10),
            ("-1e400.fff(1", 6),
            ("2.5.x", 3),
            ("7f", 1),
        ];
        for (s, end) in cases {
            assert_eq!(value_end(s.as_bytes(), 0).unwrap(), end, "{s:?}");
        }
        assert!(value_end(b"[1, 2", 0).is_err());
        assert!(value_end(b"\"open", 0).is_err());
        assert!(value_end(b"=", 0).is_err());
    }

    #[test]
    fn references_round_trip_through_markers() {
        let v = parse(
            "[ExtResource(\"1_abc\"), SubResource( 2 ), {\"k\": Resource(\"res://a.tres\")}]",
        );
        let text = print_value(&v, Style::GODOT4);
        assert_eq!(
            text,
            "[ExtResource(\"1_abc\"), SubResource(\"2\"), {\n\"k\": Resource(\"res://a.tres\")\n}]"
        );
        assert_eq!(
            print_value(&v, Style::GODOT3),
            "[ ExtResource( \"1_abc\" ), SubResource( 2 ), {\n\"k\": Resource( \"res://a.tres\" )\n} ]"
        );
        // A string holding the words is left alone.
        let s = parse("\"ExtResource(\\\"1\\\")\"");
        assert_eq!(s, Variant::from("ExtResource(\"1\")"));
        // A byte order mark at the start of a string is dropped, as the engines drop it.
        assert_eq!(
            parse("[\"\u{feff}a\", \"b\u{feff}\"]"),
            parse("[\"a\", \"b\u{feff}\"]")
        );
        let class = parse("Dictionary[String, Resource]({\n\"a\": SubResource(\"x\")\n})");
        assert_eq!(
            print_value(&class, Style::GODOT4),
            "Dictionary[String, Resource]({\n\"a\": SubResource(\"x\")\n})"
        );
        let typed = parse("Array[ExtResource(\"1_s\")]([SubResource(\"x\")])");
        assert_eq!(
            print_value(&typed, Style::GODOT4),
            "Array[ExtResource(\"1_s\")]([SubResource(\"x\")])"
        );
    }

    #[test]
    fn base64_matches_the_engine() {
        let mut s = String::new();
        base64_encode(&[1, 2, 3, 255], &mut s);
        assert_eq!(s, "AQID/w==");
        let v = parse("PackedByteArray(\"AQID/w==\")");
        let style = Style {
            base64_bytes: true,
            ..Style::GODOT4
        };
        assert_eq!(print_value(&v, style), "PackedByteArray(\"AQID/w==\")");
        assert_eq!(
            print_value(&v, Style::GODOT4),
            "PackedByteArray(1, 2, 3, 255)"
        );
    }

    #[test]
    fn errors_point_into_the_file() {
        let text = "a = [1,\n  SubResource(\"x\"), Vector2(1)]";
        let err = parse_value(text, 4, text.len()).unwrap_err();
        match err.position() {
            Some(crate::error::Position::Text { line, column, .. }) => {
                assert_eq!((line, column), (2, 21));
            }
            other => panic!("{other:?}"),
        }
    }
}
