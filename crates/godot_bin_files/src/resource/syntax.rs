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
//! References (`ExtResource(...)`, `SubResource(...)`, `Resource(...)`) are not values the
//! crate's text parser reads: before parsing, each is rewritten as its marker object
//! (`Object(ExtResource,"id":"1")`, see [`super::reference`]); after printing, each
//! marker's text is written back as the reference. Both rewrites skip string literals, so
//! a string that happens to hold the words is left alone.

pub(crate) use super::lex::{is_ident, is_ident_start, skip_string, write_quoted};
use super::numbers::{self, engine_float_token, number_end, TEXT_CLASS};
use super::reference::{EXT_CLASS, PATH_CLASS, SUB_CLASS};
use crate::error::{Error, Result};
use godot_bin::text::word_value;
use godot_bin::Dialect;
use godot_bin::Variant;

/// How a file prints its values: which engine's spacing, and whether a PackedByteArray is
/// base64 (Godot 4's text format 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// `Godot4` or `Godot3` spacing (`Vector2(1, 2)` or `Vector2( 1, 2 )`).
    pub dialect: Dialect,
    /// `PackedByteArray("AQI=")` instead of `PackedByteArray(1, 2)`.
    pub base64_bytes: bool,
}

impl Style {
    pub(crate) const GODOT4: Style = Style {
        dialect: Dialect::Godot4,
        base64_bytes: false,
    };
    pub(crate) const GODOT3: Style = Style {
        dialect: Dialect::Godot3,
        base64_bytes: false,
    };
}

/// Where a rewritten text grew or shrank: (offset in the new text after a rewrite, total
/// growth so far).
type Shifts = Vec<(usize, isize)>;

/// The index after the bracketed group (`(...)`, `[...]`, `{...}`) opening at `i`: string
/// literals and `;` comments are skipped; brackets are counted, not matched (the value
/// parser checks them).
fn skip_group(s: &[u8], mut i: usize) -> Result<usize> {
    let open = i;
    let mut depth = 0usize;
    while i < s.len() {
        match s[i] {
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
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    Err(Error::syntax("a bracket is not closed before the end of the text").at_byte(open))
}

/// The index after the value starting at `i` (no whitespace before it). Byte offsets in
/// errors are absolute in `s`.
pub(crate) fn value_end(s: &[u8], i: usize) -> Result<usize> {
    let Some(&c) = s.get(i) else {
        return Err(Error::syntax("expected a value, found the end of the text").at_byte(i));
    };
    match c {
        b'"' => skip_string(s, i),
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
            let mut j = i + 1;
            while j < s.len() {
                let d = s[j];
                let exp_sign = (d == b'+' || d == b'-') && matches!(s[j - 1], b'e' | b'E');
                if is_ident(d) || d == b'.' || exp_sign {
                    j += 1;
                } else {
                    break;
                }
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

/// Parses the value `text[start..end]` (found with [`value_end`]): references become
/// their marker objects. Errors carry their line and column in `text`.
pub(crate) fn parse_value(text: &str, start: usize, end: usize) -> Result<Variant> {
    let src = &text[start..end];
    let (rewritten, shifts, renamed) = rewrite_references(src).map_err(|e| match e.position() {
        Some(crate::error::Position::Byte(at)) => {
            Error::new(strip_position(e)).at_text(text, start + at)
        }
        _ => e,
    })?;
    match &rewritten {
        None => Variant::from_text(src).map_err(|e| Error::value(&e, text, start)),
        Some(new) => Variant::from_text(new)
            .map(|mut v| {
                if renamed {
                    rename_resource_class(&mut v);
                }
                v
            })
            .map_err(|e| {
                // Map the offset in the rewritten text back to the source.
                let at = e.offset();
                let mut back = at as isize;
                for &(new_at, delta) in &shifts {
                    if new_at <= at {
                        back = at as isize - delta;
                    }
                }
                let back = back.clamp(0, src.len() as isize) as usize;
                Error::new(crate::error::ErrorKind::Value(e.message().into()))
                    .at_text(text, start + back)
            }),
    }
}

/// The name `Array[Resource]`'s class is read under (see [`rewrite_references`]).
const RESOURCE_CLASS_ALIAS: &str = "GodotBinResourceClass";

/// Gives the typed containers read with [`RESOURCE_CLASS_ALIAS`] their class back.
fn rename_resource_class(v: &mut Variant) {
    use godot_bin::ElementType;
    let fix = |t: &mut ElementType| {
        if matches!(t, ElementType::ClassName(c) if c == RESOURCE_CLASS_ALIAS) {
            *t = ElementType::ClassName("Resource".into());
        }
    };
    match v {
        Variant::Array(a) => {
            fix(&mut a.element_type);
            a.iter_mut().for_each(rename_resource_class);
        }
        Variant::Dictionary(d) => {
            if d.is_typed() {
                let (mut k, mut x) = (d.key_type().clone(), d.value_type().clone());
                fix(&mut k);
                fix(&mut x);
                d.set_types(k, x);
            }
            d.iter_mut().for_each(|(_, x)| rename_resource_class(x));
        }
        Variant::Object(o) => o
            .properties
            .iter_mut()
            .for_each(|(_, x)| rename_resource_class(x)),
        _ => {}
    }
}

fn strip_position(e: Error) -> crate::error::ErrorKind {
    use crate::error::ErrorKind as K;
    match e.kind() {
        K::Syntax(m) => K::Syntax(m.clone()),
        other => K::Syntax(other.to_string()),
    }
}

/// `src` with each reference rewritten as its marker object and the byte order mark at the
/// start of a string literal dropped, or `None` when there is neither; with the list of
/// (offset in the new text after a rewrite, total growth so far).
fn rewrite_references(src: &str) -> Result<(Option<String>, Shifts, bool)> {
    let s = src.as_bytes();
    let mut renamed_class = false;
    let mut out: Option<String> = None;
    let mut shifts = Vec::new();
    let mut copied = 0; // bytes of `src` copied to `out`
    let mut i = 0;
    // Whether the group just opened is a typed container's type list (`Array[...]`).
    let mut type_list_depth: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    let mut last_ident_end = usize::MAX;
    let mut last_ident = "";
    while i < s.len() {
        let c = s[i];
        if c == b'"' {
            let end = skip_string(s, i)?;
            if src[i + 1..].starts_with('\u{feff}') {
                // The engines read a string literal from a file through `parse_utf8`,
                // which drops a byte order mark at its start.
                let out = out.get_or_insert_with(|| String::with_capacity(src.len() + 64));
                out.push_str(&src[copied..i + 1]);
                copied = i + 1 + '\u{feff}'.len_utf8();
                let total = shifts.last().map_or(0, |&(_, t)| t) - '\u{feff}'.len_utf8() as isize;
                shifts.push((out.len(), total));
            }
            i = end;
            continue;
        }
        if c == b';' {
            while i < s.len() && s[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        match c {
            b'[' => {
                depth += 1;
                if last_ident_end == i && matches!(last_ident, "Array" | "Dictionary") {
                    type_list_depth.push(depth);
                }
                i += 1;
                continue;
            }
            b'(' | b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b']' | b')' | b'}' => {
                if type_list_depth.last() == Some(&depth) {
                    type_list_depth.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
                continue;
            }
            _ => {}
        }
        let number_start = c.is_ascii_digit()
            || (matches!(c, b'-' | b'+' | b'.')
                && s.get(i + 1)
                    .is_some_and(|&d| d.is_ascii_digit() || d == b'.'));
        if number_start && !(i > 0 && (is_ident(s[i - 1]) || s[i - 1] == b'.')) {
            let end = number_end(s, i);
            let token = &src[i..end];
            if let Some(fixed) = engine_float_token(token) {
                let out = out.get_or_insert_with(|| String::with_capacity(src.len() + 64));
                out.push_str(&src[copied..i]);
                out.push_str(&fixed);
                copied = end;
                let growth = fixed.len() as isize - token.len() as isize;
                let total = shifts.last().map_or(0, |&(_, t)| t) + growth;
                shifts.push((out.len(), total));
            }
            i = end;
            continue;
        }
        if !is_ident_start(c) || (i > 0 && (is_ident(s[i - 1]) || s[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let id_start = i;
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
        let word = &src[id_start..i];
        last_ident = word;
        last_ident_end = i;
        let class = match word {
            "ExtResource" => EXT_CLASS,
            "SubResource" => SUB_CLASS,
            "Resource" => PATH_CLASS,
            _ => continue,
        };
        let mut j = i;
        while j < s.len() && s[j].is_ascii_whitespace() {
            j += 1;
        }
        let in_type_list = !type_list_depth.is_empty();
        if s.get(j) != Some(&b'(') {
            if in_type_list && class == PATH_CLASS {
                // `Array[Resource]`: the class, which the value parser would take for the
                // start of `Resource("res://x.gd")`; read under another name, renamed back
                // after parsing.
                let out = out.get_or_insert_with(|| String::with_capacity(src.len() + 64));
                out.push_str(&src[copied..id_start]);
                out.push_str(RESOURCE_CLASS_ALIAS);
                copied = i;
                let growth = (RESOURCE_CLASS_ALIAS.len() - word.len()) as isize;
                let total = shifts.last().map_or(0, |&(_, t)| t) + growth;
                shifts.push((out.len(), total));
                renamed_class = true;
            }
            continue;
        }
        if in_type_list && class == PATH_CLASS {
            // `Array[Resource("res://x.gd")]`: the value parser's own script type.
            continue;
        }
        let args_end = skip_group(s, j)?;
        let args = parse_reference_args(&src[j + 1..args_end - 1]).ok_or_else(|| {
            Error::syntax(format!(
                "{word}(...) takes a string{}",
                if class == PATH_CLASS {
                    ""
                } else {
                    " or an integer id"
                }
            ))
            .at_byte(id_start)
        })?;
        let marker = if in_type_list {
            // `Array[ExtResource("1_x")]`: a script class by reference, kept as the
            // value parser's script type under a path no file has.
            let Arg::Str(literal) = &args else {
                return Err(Error::syntax("expected a string id").at_byte(id_start));
            };
            format!("Resource(\"{word}:{})", &literal[1..])
        } else {
            let key = if class == PATH_CLASS { "path" } else { "id" };
            let lit = match &args {
                Arg::Str(l) | Arg::Int(l) => l,
            };
            format!("Object({class},\"{key}\":{lit})")
        };
        let out = out.get_or_insert_with(|| String::with_capacity(src.len() + 64));
        out.push_str(&src[copied..id_start]);
        out.push_str(&marker);
        copied = args_end;
        let growth = marker.len() as isize - (args_end - id_start) as isize;
        let total = shifts.last().map_or(0, |&(_, t)| t) + growth;
        shifts.push((out.len(), total));
        i = args_end;
        last_ident = "";
    }
    if let Some(out) = &mut out {
        out.push_str(&src[copied..]);
    }
    Ok((out, shifts, renamed_class))
}

enum Arg<'a> {
    Str(&'a str),
    Int(&'a str),
}

/// The argument list of a reference: one string or one integer; with two strings
/// (`Resource("uid://...", "res://...")`), the path.
fn parse_reference_args(args: &str) -> Option<Arg<'_>> {
    let t = args.trim();
    if t.starts_with('"') {
        let end = skip_string(t.as_bytes(), 0).ok()?;
        let first = &t[..end];
        let rest = t[end..].trim_start();
        if rest.is_empty() {
            return Some(Arg::Str(first));
        }
        let second = rest.strip_prefix(',')?.trim();
        let end2 = skip_string(second.as_bytes(), 0).ok()?;
        (end2 == second.len()).then_some(Arg::Str(second))
    } else if !t.is_empty()
        && t.bytes()
            .enumerate()
            .all(|(k, b)| b.is_ascii_digit() || (k == 0 && b == b'-'))
    {
        Some(Arg::Int(t))
    } else {
        None
    }
}

/// `v` printed in `style`, with references in the file's syntax and every float in text
/// the engine reads back to it exactly. An object value ends the text with a newline, as
/// the engine's writer ends it.
pub(crate) fn print_value(v: &Variant, style: Style) -> String {
    // A value that holds an object of the marker's own class (a file can spell one) is
    // printed without markers, so that the object stays an object: the marker's text
    // would otherwise be written raw (found by `fuzz/resource_text`).
    let markers = !holds_text_marker(v);
    let fixed;
    let engine = if markers {
        numbers::engine_numbers(v, style.dialect)
    } else {
        None
    };
    let v = match engine {
        Some(copy) => {
            fixed = copy;
            &fixed
        }
        None => v,
    };
    let mut text = v.to_text(style.dialect);
    if let Some(t) = numbers::long_floats(&text) {
        text = t;
    }
    let special = text.contains("Object(")
        || text.contains("Resource(\"")
        || (style.base64_bytes && text.contains("PackedByteArray("));
    if !special {
        return text;
    }
    restore_references(&text, style, markers)
}

/// Whether `v` holds an object of the class [`TEXT_CLASS`] (walked without recursion:
/// values nest as deep as the reader allows).
fn holds_text_marker(v: &Variant) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Variant::Object(o) if o.class_name == TEXT_CLASS => return true,
            Variant::Object(o) => stack.extend(o.properties.iter().map(|(_, p)| p)),
            Variant::Array(a) => stack.extend(a.iter()),
            Variant::Dictionary(d) => stack.extend(d.iter().flat_map(|(k, v)| [k, v])),
            _ => {}
        }
    }
    false
}

/// The printer's text with each marker object written as its reference (the text
/// markers only when `markers`), each
/// `Resource("ExtResource:id")` type written as `ExtResource("id")`, and (in format 4)
/// each PackedByteArray as base64.
fn restore_references(text: &str, style: Style, markers: bool) -> String {
    let s = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    let godot3 = style.dialect != Dialect::Godot4;
    while i < s.len() {
        let c = s[i];
        if c == b'"' {
            i = skip_string(s, i).unwrap_or(s.len());
            continue;
        }
        if !is_ident_start(c) || (i > 0 && is_ident(s[i - 1])) {
            i += 1;
            continue;
        }
        let rest = &text[i..];
        let text_head = format!("Object({TEXT_CLASS},\"t\":\"");
        if markers && rest.starts_with(&text_head) {
            let lit = i + text_head.len() - 1;
            if let Ok(end) = skip_string(s, lit) {
                if text[end..].starts_with(")\n") {
                    out.push_str(&text[copied..i]);
                    out.push_str(&text[lit + 1..end - 1]);
                    i = end + 2;
                    copied = i;
                    continue;
                }
            }
        }
        let marker = [
            (EXT_CLASS, "ExtResource", "id"),
            (SUB_CLASS, "SubResource", "id"),
            (PATH_CLASS, "Resource", "path"),
        ]
        .into_iter()
        .find_map(|(class, name, key)| {
            let head = format!("Object({class},\"{key}\":");
            rest.starts_with(&head).then_some((head.len(), name))
        });
        if let Some((head_len, name)) = marker {
            let lit_start = i + head_len;
            let lit_end = if s.get(lit_start) == Some(&b'"') {
                skip_string(s, lit_start).unwrap_or(s.len())
            } else {
                let mut j = lit_start;
                while j < s.len() && (s[j].is_ascii_digit() || s[j] == b'-') {
                    j += 1;
                }
                j
            };
            if text[lit_end..].starts_with(")\n") {
                out.push_str(&text[copied..i]);
                let lit = &text[lit_start..lit_end];
                write_reference(&mut out, name, lit, godot3);
                i = lit_end + 2;
                copied = i;
                continue;
            }
        }
        let mut restored = false;
        for name in ["ExtResource", "SubResource"] {
            let head = format!("Resource(\"{name}:");
            if !rest.starts_with(&head) {
                continue;
            }
            if let Ok(end) = skip_string(s, i + "Resource(".len()) {
                if s.get(end) == Some(&b')') {
                    out.push_str(&text[copied..i]);
                    out.push_str(name);
                    out.push_str("(\"");
                    out.push_str(&text[i + head.len()..end]);
                    out.push(')');
                    i = end + 1;
                    copied = i;
                    restored = true;
                    break;
                }
            }
        }
        if restored {
            continue;
        }
        if style.base64_bytes && rest.starts_with("PackedByteArray(") {
            let open = i + "PackedByteArray(".len();
            if let Some(close) = text[open..].find(')') {
                let bytes: Option<Vec<u8>> = text[open..open + close]
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse::<u8>().ok())
                    .collect();
                if let Some(bytes) = bytes {
                    out.push_str(&text[copied..i]);
                    out.push_str("PackedByteArray(");
                    if !bytes.is_empty() {
                        out.push('"');
                        base64_encode(&bytes, &mut out);
                        out.push('"');
                    }
                    out.push(')');
                    i = open + close + 1;
                    copied = i;
                    continue;
                }
            }
        }
        while i < s.len() && is_ident(s[i]) {
            i += 1;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// `ExtResource("1")` (Godot 4) or `ExtResource( 1 )` (Godot 3, whose ids are numbers).
fn write_reference(out: &mut String, name: &str, lit: &str, godot3: bool) {
    out.push_str(name);
    if godot3 {
        let inner = lit.strip_prefix('"').and_then(|l| l.strip_suffix('"'));
        let numeric = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let lit = match inner {
            Some(t) if name != "Resource" && numeric(t) => t,
            _ => lit,
        };
        out.push_str("( ");
        out.push_str(lit);
        out.push_str(" )");
    } else if lit.starts_with('"') {
        out.push('(');
        out.push_str(lit);
        out.push(')');
    } else {
        out.push_str("(\"");
        out.push_str(lit);
        out.push_str("\")");
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
