//! Reading the engines' text form back (`VariantParser::parse`), for every dialect at once.

use super::display::IMAGE_FORMATS;
use crate::dialect::VariantType;
use crate::types::godot2::{Image, InputEvent};
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Object;
use crate::variant::{Array, Dictionary, ElementType, Variant};
use std::collections::HashMap;
use std::fmt;

/// How deeply arrays, dictionaries and objects may nest in parsed text: the engine's own
/// `Variant::MAX_RECURSION_DEPTH`. Deeper text is a [`ParseError`], never a stack overflow.
pub const MAX_DEPTH: usize = 1024;

/// Text that is not a value, with where it went wrong.
///
/// ```
/// use godot_bin::Variant;
/// let err = "[1,\n  Vector2(1)]".parse::<Variant>().unwrap_err();
/// assert_eq!((err.line(), err.column()), (2, 3));
/// assert_eq!(err.offset(), 6);
/// assert_eq!(err.to_string(), "line 2, column 3 (byte 6): Vector2 takes 2 numbers, found 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    offset: usize,
    line: usize,
    column: usize,
    message: String,
}

impl ParseError {
    /// The byte offset in the text where the offending token starts.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The line of [`offset`](Self::offset), counted from 1.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The column of [`offset`](Self::offset) in characters, counted from 1.
    pub fn column(&self) -> usize {
        self.column
    }

    /// What was wrong, without the position.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {} (byte {}): {}",
            self.line, self.column, self.offset, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// Parses exactly one value: only whitespace and comments may follow it.
pub(super) fn parse_one(text: &str) -> Result<Variant, ParseError> {
    let mut p = Parser::new(text);
    let tok = p.next()?;
    if tok.kind == Tok::Eof {
        return Err(p.error_at(tok.start, "expected a value, found the end of the text"));
    }
    let v = p.value(tok)?;
    let after = p.next()?;
    if after.kind != Tok::Eof {
        return Err(p.error_at(after.start, "unexpected text after the value"));
    }
    Ok(v)
}

/// Parses the value at the start of `text`; `None` if there is none.
pub(super) fn parse_prefix(text: &str) -> Result<Option<(Variant, &str)>, ParseError> {
    let mut p = Parser::new(text);
    let tok = p.next()?;
    if tok.kind == Tok::Eof {
        return Ok(None);
    }
    let v = p.value(tok)?;
    p.skip_blank();
    Ok(Some((v, &text[p.pos..])))
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    CurlyOpen,
    CurlyClose,
    BracketOpen,
    BracketClose,
    ParenOpen,
    ParenClose,
    Colon,
    Comma,
    Ident(String),
    Str(String),
    StrName(String),
    Int(i64),
    Float(f64),
    Eof,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::CurlyOpen => "'{'".into(),
            Tok::CurlyClose => "'}'".into(),
            Tok::BracketOpen => "'['".into(),
            Tok::BracketClose => "']'".into(),
            Tok::ParenOpen => "'('".into(),
            Tok::ParenClose => "')'".into(),
            Tok::Colon => "':'".into(),
            Tok::Comma => "','".into(),
            Tok::Ident(s) => format!("'{s}'"),
            Tok::Str(_) => "a string".into(),
            Tok::StrName(_) => "a StringName".into(),
            Tok::Int(_) | Tok::Float(_) => "a number".into(),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

struct Token {
    kind: Tok,
    start: usize,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

/// A number read inside a constructor's parentheses.
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(x) => x,
        }
    }

    /// A `real_t`: the engine reads the double, then narrows it.
    fn as_f32(self) -> f32 {
        self.as_f64() as f32
    }
}

/// A container being parsed.
enum Frame {
    Array {
        open: usize,
        items: Vec<Variant>,
        /// `Some` for `Array[T]([...])`, which ends with one more `)`.
        element_type: Option<ElementType>,
        /// `PackedTypedArray[T]([...])` (Pandemonium 5).
        packed: bool,
    },
    Dictionary {
        open: usize,
        entries: Vec<(Variant, Variant)>,
        /// Entry indices by key fingerprint, to find repeated keys quickly.
        index: HashMap<u64, Vec<usize>>,
        /// The key read, while its value is being parsed.
        key: Option<Variant>,
        /// `Some` for `Dictionary[K, V]({...})`.
        types: Option<(ElementType, ElementType)>,
    },
    Object {
        open: usize,
        class_name: String,
        properties: Vec<(String, Variant)>,
        /// The property name read, while its value is being parsed.
        name: String,
    },
}

impl Frame {
    fn array(open: usize, element_type: Option<ElementType>) -> Frame {
        Frame::Array {
            open,
            items: Vec::new(),
            element_type,
            packed: false,
        }
    }

    fn dictionary(open: usize, types: Option<(ElementType, ElementType)>) -> Frame {
        Frame::Dictionary {
            open,
            entries: Vec::new(),
            index: HashMap::new(),
            key: None,
            types,
        }
    }
}

/// What the parser does next.
enum Step {
    /// Parse the value that starts with this token.
    Start(Token),
    /// The top frame expects an element or its closing bracket.
    ElementOrClose,
    /// A value is complete: add it to the top frame, or return it.
    Done(Variant),
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { text, pos: 0 }
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> ParseError {
        let offset = offset.min(self.text.len());
        let before = &self.text[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        ParseError {
            offset,
            line,
            column,
            message: message.into(),
        }
    }

    fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Skips whitespace (every character up to U+0020, as the engine does) and `;` comments.
    fn skip_blank(&mut self) {
        while let Some(b) = self.peek_byte() {
            if b <= b' ' {
                self.pos += 1;
            } else if b == b';' {
                match self.text[self.pos..].find('\n') {
                    Some(n) => self.pos += n + 1,
                    None => self.pos = self.text.len(),
                }
            } else {
                break;
            }
        }
    }

    fn next(&mut self) -> Result<Token, ParseError> {
        self.skip_blank();
        let start = self.pos;
        let Some(b) = self.peek_byte() else {
            return Ok(Token {
                kind: Tok::Eof,
                start,
            });
        };
        let single = match b {
            b'{' => Some(Tok::CurlyOpen),
            b'}' => Some(Tok::CurlyClose),
            b'[' => Some(Tok::BracketOpen),
            b']' => Some(Tok::BracketClose),
            b'(' => Some(Tok::ParenOpen),
            b')' => Some(Tok::ParenClose),
            b':' => Some(Tok::Colon),
            b',' => Some(Tok::Comma),
            _ => None,
        };
        if let Some(kind) = single {
            self.pos += 1;
            return Ok(Token { kind, start });
        }
        let kind = match b {
            b'"' => {
                self.pos += 1;
                Tok::Str(self.string(start)?)
            }
            b'&' | b'@' => {
                self.pos += 1;
                if self.peek_byte() != Some(b'"') {
                    return Err(
                        self.error_at(start, format!("expected '\"' after '{}'", b as char))
                    );
                }
                self.pos += 1;
                Tok::StrName(self.string(start)?)
            }
            b'-' if ["inf", "nan"]
                .iter()
                .any(|w| self.text[self.pos + 1..].starts_with(w)) =>
            {
                self.pos += 1;
                let word = match self.ident().as_str() {
                    "inf" => "-inf",
                    "nan" => "-nan",
                    other => {
                        return Err(self.error_at(start, format!("unexpected '-{other}'")));
                    }
                };
                // Godot 3 prints a FLOAT -inf or -NaN as `-inf.0`, `-nan.0`.
                if self.text[self.pos..].starts_with(".0") {
                    self.pos += 2;
                }
                Tok::Ident(word.into())
            }
            b'-' | b'0'..=b'9' => self.number(start)?,
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => Tok::Ident(self.ident()),
            _ => {
                let c = self.text[self.pos..].chars().next().unwrap_or('?');
                return Err(self.error_at(start, format!("unexpected character {c:?}")));
            }
        };
        Ok(Token { kind, start })
    }

    fn ident(&mut self) -> String {
        let rest = &self.text[self.pos..];
        let len = rest
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .unwrap_or(rest.len());
        self.pos += len;
        rest[..len].to_owned()
    }

    /// A number as the engine's tokenizer delimits it: `-`? digits (`.` digits)?
    /// (`e`|`E` (`+`|`-`)? digits)?.
    fn number(&mut self, start: usize) -> Result<Tok, ParseError> {
        let bytes = self.text.as_bytes();
        let mut i = self.pos;
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits_from = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == digits_from {
            return Err(self.error_at(start, "expected a digit after '-'"));
        }
        let mut is_float = false;
        if bytes.get(i) == Some(&b'.') {
            is_float = true;
            i += 1;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            is_float = true;
            i += 1;
            if matches!(bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let exp_from = i;
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == exp_from {
                return Err(self.error_at(start, "malformed number: no digits after the exponent"));
            }
        }
        let text = &self.text[self.pos..i];
        self.pos = i;
        if is_float {
            text.parse::<f64>()
                .map(Tok::Float)
                .map_err(|_| self.error_at(start, format!("malformed number {text}")))
        } else {
            text.parse::<i64>().map(Tok::Int).map_err(|_| {
                self.error_at(start, format!("integer {text} does not fit in 64 bits"))
            })
        }
    }

    /// The body of a quoted string (after the opening quote), with the engine's escapes:
    /// `\b \t \n \f \r`, `\uXXXX` (UTF-16, surrogate pairs joined), `\UXXXXXX`, plus `\a`
    /// and `\v` (which the engine writes but reads as letters); any other escaped
    /// character stands for itself.
    fn string(&mut self, start: usize) -> Result<String, ParseError> {
        let mut out = String::new();
        let mut lead_surrogate: Option<u32> = None;
        loop {
            let rest = &self.text[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Err(self.error_at(start, "unterminated string"));
            };
            let here = self.pos;
            self.pos += c.len_utf8();
            let code = match c {
                '"' => break,
                '\\' => {
                    let Some(e) = self.text[self.pos..].chars().next() else {
                        return Err(self.error_at(start, "unterminated string"));
                    };
                    self.pos += e.len_utf8();
                    match e {
                        'b' => 8,
                        't' => 9,
                        'n' => 10,
                        'f' => 12,
                        'r' => 13,
                        'a' => 7,
                        'v' => 11,
                        'u' | 'U' => {
                            let len = if e == 'U' { 6 } else { 4 };
                            let hex = self.text.get(self.pos..self.pos + len).unwrap_or("");
                            if hex.len() != len || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                                return Err(self.error_at(here, "malformed hex constant in string"));
                            }
                            self.pos += len;
                            u32::from_str_radix(hex, 16).unwrap_or(0xfffd)
                        }
                        other => other as u32,
                    }
                }
                other => other as u32,
            };
            // Join UTF-16 surrogate pairs written as two \u escapes.
            let code = match (lead_surrogate.take(), code) {
                (None, 0xd800..=0xdbff) => {
                    lead_surrogate = Some(code);
                    continue;
                }
                (None, 0xdc00..=0xdfff) => {
                    return Err(self.error_at(here, "unpaired trail surrogate in string"));
                }
                (None, code) => code,
                (Some(lead), 0xdc00..=0xdfff) => {
                    0x10000 + ((lead - 0xd800) << 10) + (code - 0xdc00)
                }
                (Some(_), _) => {
                    return Err(self.error_at(here, "unpaired lead surrogate in string"));
                }
            };
            match char::from_u32(code) {
                Some(c) => out.push(c),
                None => {
                    return Err(
                        self.error_at(here, format!("invalid character U+{code:X} in string"))
                    )
                }
            }
        }
        if lead_surrogate.is_some() {
            return Err(self.error_at(self.pos, "unpaired lead surrogate in string"));
        }
        Ok(out)
    }

    fn expect(&mut self, want: Tok, what: &str) -> Result<Token, ParseError> {
        let tok = self.next()?;
        if tok.kind == want {
            Ok(tok)
        } else {
            Err(self.error_at(
                tok.start,
                format!("expected {what}, found {}", tok.kind.describe()),
            ))
        }
    }

    /// Parses the value that starts with `first`. Containers are parsed with an explicit
    /// stack of open frames rather than by recursion, so no text can overflow the call
    /// stack; [`MAX_DEPTH`] bounds the nesting.
    fn value(&mut self, first: Token) -> Result<Variant, ParseError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut step = Step::Start(first);
        loop {
            step = match step {
                Step::Start(tok) => self.start(tok, &mut stack)?,
                Step::ElementOrClose => {
                    let tok = self.next()?;
                    let Some(top) = stack.last_mut() else {
                        return Err(self.error_at(tok.start, "internal: no open container"));
                    };
                    match (top, tok.kind) {
                        (Frame::Array { .. }, Tok::BracketClose)
                        | (Frame::Dictionary { .. }, Tok::CurlyClose)
                        | (Frame::Object { .. }, Tok::ParenClose) => {
                            Step::Done(self.close(&mut stack)?)
                        }
                        (frame, Tok::Eof) => return Err(self.unterminated(frame)),
                        (Frame::Object { name, .. }, Tok::Str(s)) => {
                            *name = s;
                            self.expect(Tok::Colon, "':' after a property name")?;
                            Step::Start(self.next()?)
                        }
                        (Frame::Object { .. }, other) => {
                            return Err(self.error_at(
                                tok.start,
                                format!(
                                    "expected a property name string, found {}",
                                    other.describe()
                                ),
                            ))
                        }
                        (_, kind) => Step::Start(Token {
                            kind,
                            start: tok.start,
                        }),
                    }
                }
                Step::Done(v) => {
                    let Some(top) = stack.last_mut() else {
                        return Ok(v);
                    };
                    match top {
                        Frame::Array { items, .. } => items.push(v),
                        Frame::Dictionary {
                            key: key @ None, ..
                        } => {
                            *key = Some(v);
                            self.expect(Tok::Colon, "':' after a dictionary key")?;
                            step = Step::Start(self.next()?);
                            continue;
                        }
                        Frame::Dictionary {
                            key,
                            entries,
                            index,
                            ..
                        } => {
                            let key = key.take().unwrap_or_default();
                            // A repeated key replaces the earlier value in its place, as the
                            // engine's assignment does.
                            let slot = index.entry(fingerprint(&key)).or_default();
                            match slot.iter().find(|&&i| entries[i].0 == key) {
                                Some(&i) => entries[i].1 = v,
                                None => {
                                    slot.push(entries.len());
                                    entries.push((key, v));
                                }
                            }
                        }
                        Frame::Object {
                            name, properties, ..
                        } => properties.push((std::mem::take(name), v)),
                    }
                    // After an element: a comma (then maybe the closer: trailing commas
                    // are allowed) or the closer.
                    let sep = self.next()?;
                    let Some(top) = stack.last() else {
                        return Err(self.error_at(sep.start, "internal: no open container"));
                    };
                    match (top, sep.kind) {
                        (_, Tok::Comma) => Step::ElementOrClose,
                        (Frame::Array { .. }, Tok::BracketClose)
                        | (Frame::Dictionary { .. }, Tok::CurlyClose)
                        | (Frame::Object { .. }, Tok::ParenClose) => {
                            Step::Done(self.close(&mut stack)?)
                        }
                        (frame, Tok::Eof) => return Err(self.unterminated(frame)),
                        (frame, other) => {
                            let closer = match frame {
                                Frame::Array { .. } => "']'",
                                Frame::Dictionary { .. } => "'}'",
                                Frame::Object { .. } => "')'",
                            };
                            return Err(self.error_at(
                                sep.start,
                                format!("expected ',' or {closer}, found {}", other.describe()),
                            ));
                        }
                    }
                }
            };
        }
    }

    fn unterminated(&self, frame: &Frame) -> ParseError {
        match frame {
            Frame::Array { open, .. } => self.error_at(*open, "unterminated array"),
            Frame::Dictionary { open, .. } => self.error_at(*open, "unterminated dictionary"),
            Frame::Object { open, .. } => self.error_at(*open, "unterminated Object(...)"),
        }
    }

    fn push(&self, stack: &mut Vec<Frame>, frame: Frame, at: usize) -> Result<Step, ParseError> {
        if stack.len() >= MAX_DEPTH {
            return Err(self.error_at(at, format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        stack.push(frame);
        Ok(Step::ElementOrClose)
    }

    /// Begins the value at `tok`: a whole leaf, or a container frame pushed on `stack`.
    fn start(&mut self, tok: Token, stack: &mut Vec<Frame>) -> Result<Step, ParseError> {
        let at = tok.start;
        let id = match tok.kind {
            Tok::BracketOpen => return self.push(stack, Frame::array(at, None), at),
            Tok::CurlyOpen => return self.push(stack, Frame::dictionary(at, None), at),
            Tok::Str(s) => return Ok(Step::Done(Variant::String(s))),
            Tok::StrName(s) => return Ok(Step::Done(Variant::StringName(StringName(s)))),
            Tok::Int(i) => return Ok(Step::Done(Variant::Int(i))),
            Tok::Float(x) => return Ok(Step::Done(Variant::Float(x))),
            Tok::Ident(id) => id,
            other => {
                return Err(
                    self.error_at(at, format!("expected a value, found {}", other.describe()))
                )
            }
        };
        match id.as_str() {
            "Array" | "PackedTypedArray" => {
                self.expect(Tok::BracketOpen, "'[' after the type")?;
                let element_type = self.element_type()?;
                self.expect(Tok::BracketClose, "']'")?;
                self.expect(Tok::ParenOpen, "'('")?;
                let open = self.expect(Tok::BracketOpen, "'['")?;
                let mut frame = Frame::array(open.start, Some(element_type));
                if let Frame::Array { packed, .. } = &mut frame {
                    *packed = id == "PackedTypedArray";
                }
                self.push(stack, frame, at)
            }
            "Dictionary" => {
                self.expect(Tok::BracketOpen, "'[' after Dictionary")?;
                let key_type = self.element_type()?;
                self.expect(Tok::Comma, "','")?;
                let value_type = self.element_type()?;
                self.expect(Tok::BracketClose, "']'")?;
                self.expect(Tok::ParenOpen, "'('")?;
                let open = self.expect(Tok::CurlyOpen, "'{'")?;
                self.push(
                    stack,
                    Frame::dictionary(open.start, Some((key_type, value_type))),
                    at,
                )
            }
            "Object" => {
                self.expect(Tok::ParenOpen, "'(' after Object")?;
                let tok = self.next()?;
                let Tok::Ident(class_name) = tok.kind else {
                    return Err(self.error_at(tok.start, "expected the object's class name"));
                };
                let frame = Frame::Object {
                    open: at,
                    class_name,
                    properties: Vec::new(),
                    name: String::new(),
                };
                let sep = self.next()?;
                match sep.kind {
                    Tok::Comma => self.push(stack, frame, at),
                    Tok::ParenClose => {
                        stack.push(frame);
                        Ok(Step::Done(self.close(stack)?))
                    }
                    other => Err(self.error_at(
                        sep.start,
                        format!("expected ',' or ')', found {}", other.describe()),
                    )),
                }
            }
            _ => Ok(Step::Done(self.identifier(&id, at)?)),
        }
    }

    /// Pops the finished frame off `stack` and makes its value, reading the `)` that
    /// closes a typed container.
    fn close(&mut self, stack: &mut Vec<Frame>) -> Result<Variant, ParseError> {
        let Some(frame) = stack.pop() else {
            return Err(self.error_at(self.pos, "internal: no open container"));
        };
        Ok(match frame {
            Frame::Array {
                items,
                element_type,
                packed,
                ..
            } => {
                let mut array = Array::from(items);
                if let Some(t) = element_type {
                    self.expect(Tok::ParenClose, "')' after a typed Array")?;
                    array.element_type = t;
                }
                if packed {
                    Variant::PackedTypedArray(array)
                } else {
                    Variant::Array(array)
                }
            }
            Frame::Dictionary { entries, types, .. } => {
                let mut dict = Dictionary::from(entries);
                if let Some((k, v)) = types {
                    self.expect(Tok::ParenClose, "')' after a typed Dictionary")?;
                    dict.set_types(k, v);
                }
                Variant::Dictionary(dict)
            }
            Frame::Object {
                class_name,
                properties,
                ..
            } => object_value(class_name, properties),
        })
    }

    /// `(` numbers `)`, where a number may also be `inf`, `-inf`, `inf_neg` or `nan`.
    fn numbers(&mut self) -> Result<Vec<(Number, usize)>, ParseError> {
        self.expect(Tok::ParenOpen, "'('")?;
        let mut out = Vec::new();
        loop {
            let tok = self.next()?;
            let n = match tok.kind {
                Tok::ParenClose if out.is_empty() => return Ok(out),
                Tok::Int(i) => Number::Int(i),
                Tok::Float(x) => Number::Float(x),
                Tok::Ident(ref id) => match float_word(id) {
                    Some(x) => Number::Float(x),
                    None => {
                        return Err(
                            self.error_at(tok.start, format!("expected a number, found '{id}'"))
                        )
                    }
                },
                other => {
                    return Err(self.error_at(
                        tok.start,
                        format!("expected a number, found {}", other.describe()),
                    ))
                }
            };
            out.push((n, tok.start));
            let sep = self.next()?;
            match sep.kind {
                Tok::Comma => {}
                Tok::ParenClose => return Ok(out),
                other => {
                    return Err(self.error_at(
                        sep.start,
                        format!("expected ',' or ')', found {}", other.describe()),
                    ))
                }
            }
        }
    }

    /// Exactly `n` reals for constructor `name`.
    fn reals<const N: usize>(&mut self, name: &str, at: usize) -> Result<[f32; N], ParseError> {
        let nums = self.numbers()?;
        if nums.len() != N {
            return Err(self.error_at(
                at,
                format!("{name} takes {N} numbers, found {}", nums.len()),
            ));
        }
        let mut out = [0.0; N];
        for (o, (n, _)) in out.iter_mut().zip(&nums) {
            *o = n.as_f32();
        }
        Ok(out)
    }

    /// Exactly `n` 32-bit integers for constructor `name`.
    fn ints<const N: usize>(&mut self, name: &str, at: usize) -> Result<[i32; N], ParseError> {
        let nums = self.numbers()?;
        if nums.len() != N {
            return Err(self.error_at(
                at,
                format!("{name} takes {N} integers, found {}", nums.len()),
            ));
        }
        let mut out = [0; N];
        for (o, (n, pos)) in out.iter_mut().zip(&nums) {
            *o = self.int32(*n, *pos)?;
        }
        Ok(out)
    }

    fn int32(&self, n: Number, at: usize) -> Result<i32, ParseError> {
        match n {
            Number::Int(i) => i32::try_from(i)
                .map_err(|_| self.error_at(at, format!("{i} does not fit in a 32-bit integer"))),
            Number::Float(_) => Err(self.error_at(at, "expected an integer, found a float")),
        }
    }

    /// A packed array of `N`-component groups.
    fn groups<const N: usize, T>(
        &mut self,
        name: &str,
        at: usize,
        mut make: impl FnMut(&Self, &[(Number, usize)]) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let nums = self.numbers()?;
        if nums.len() % N != 0 {
            return Err(self.error_at(
                at,
                format!(
                    "{name} takes a multiple of {N} numbers, found {}",
                    nums.len()
                ),
            ));
        }
        nums.chunks_exact(N).map(|c| make(self, c)).collect()
    }

    /// A value named by an identifier that holds no other value.
    fn identifier(&mut self, id: &str, at: usize) -> Result<Variant, ParseError> {
        let real = |c: &[(Number, usize)], i: usize| c[i].0.as_f32();
        Ok(match id {
            "true" => Variant::Bool(true),
            "false" => Variant::Bool(false),
            "null" | "nil" => Variant::Nil,
            _ if float_word(id).is_some() => Variant::Float(float_word(id).unwrap_or(f64::NAN)),
            "Vector2" => {
                let [x, y] = self.reals(id, at)?;
                Variant::Vector2(Vector2::new(x, y))
            }
            "Vector2i" => {
                let [x, y] = self.ints(id, at)?;
                Variant::Vector2i(Vector2i::new(x, y))
            }
            "Rect2" => {
                let [a, b, c, d] = self.reals(id, at)?;
                Variant::Rect2(Rect2::new(Vector2::new(a, b), Vector2::new(c, d)))
            }
            "Rect2i" => {
                let [a, b, c, d] = self.ints(id, at)?;
                Variant::Rect2i(Rect2i::new(Vector2i::new(a, b), Vector2i::new(c, d)))
            }
            "Vector3" => {
                let [x, y, z] = self.reals(id, at)?;
                Variant::Vector3(Vector3::new(x, y, z))
            }
            "Vector3i" => {
                let [x, y, z] = self.ints(id, at)?;
                Variant::Vector3i(Vector3i::new(x, y, z))
            }
            "Vector4" => {
                let [x, y, z, w] = self.reals(id, at)?;
                Variant::Vector4(Vector4::new(x, y, z, w))
            }
            "Vector4i" => {
                let [x, y, z, w] = self.ints(id, at)?;
                Variant::Vector4i(Vector4i::new(x, y, z, w))
            }
            "Transform2D" | "Matrix32" => {
                let [a, b, c, d, e, f] = self.reals(id, at)?;
                Variant::Transform2D(Transform2D {
                    x: Vector2::new(a, b),
                    y: Vector2::new(c, d),
                    origin: Vector2::new(e, f),
                })
            }
            "Plane" => {
                let [a, b, c, d] = self.reals(id, at)?;
                Variant::Plane(Plane::new(Vector3::new(a, b, c), d))
            }
            "Quaternion" | "Quat" => {
                let [x, y, z, w] = self.reals(id, at)?;
                Variant::Quaternion(Quaternion::new(x, y, z, w))
            }
            "AABB" | "Rect3" => {
                let [a, b, c, d, e, f] = self.reals(id, at)?;
                Variant::Aabb(Aabb {
                    position: Vector3::new(a, b, c),
                    size: Vector3::new(d, e, f),
                })
            }
            "Basis" | "Matrix3" => {
                let n: [f32; 9] = self.reals(id, at)?;
                Variant::Basis(basis_from(&n))
            }
            "Transform3D" | "Transform" => {
                let n: [f32; 12] = self.reals(id, at)?;
                Variant::Transform3D(Transform3D {
                    basis: basis_from(&n[..9]),
                    origin: Vector3::new(n[9], n[10], n[11]),
                })
            }
            "Projection" => {
                let n: [f32; 16] = self.reals(id, at)?;
                let col = |i: usize| Vector4::new(n[i], n[i + 1], n[i + 2], n[i + 3]);
                Variant::Projection(Projection {
                    columns: [col(0), col(4), col(8), col(12)],
                })
            }
            "Color" => {
                let [r, g, b, a] = self.reals(id, at)?;
                Variant::Color(Color::from_rgba(r, g, b, a))
            }
            "NodePath" => {
                self.expect(Tok::ParenOpen, "'('")?;
                let tok = self.next()?;
                let Tok::Str(path) = tok.kind else {
                    return Err(self.error_at(tok.start, "expected a string in NodePath()"));
                };
                self.expect(Tok::ParenClose, "')'")?;
                Variant::NodePath(NodePath::from(path.as_str()))
            }
            "RID" => {
                let nums = self.numbers()?;
                match nums.as_slice() {
                    [] => Variant::Rid(Rid(0)),
                    [(Number::Int(i), _)] => Variant::Rid(Rid(*i as u64)),
                    _ => return Err(self.error_at(at, "RID takes no argument or one integer")),
                }
            }
            "Callable" | "Signal" => {
                // The engine stores neither in text and reads both back empty.
                self.expect(Tok::ParenOpen, "'('")?;
                self.expect(Tok::ParenClose, "')'")?;
                if id == "Callable" {
                    Variant::Callable(Callable)
                } else {
                    Variant::Signal(Signal::default())
                }
            }
            "Image" => Variant::Image(self.image()?),
            "InputEvent" => Variant::InputEvent(self.input_event()?),
            "Resource" | "SubResource" | "ExtResource" => {
                return Err(self.error_at(at, format!("{id}(...) needs the engine to load it")));
            }
            "PackedByteArray" | "PoolByteArray" | "ByteArray" | "RawArray" => {
                Variant::PackedByteArray(self.byte_array()?)
            }
            "PackedInt32Array" | "PackedIntArray" | "PoolIntArray" | "IntArray" => {
                let v = self.groups::<1, _>(id, at, |p, c| p.int32(c[0].0, c[0].1))?;
                Variant::PackedInt32Array(PackedInt32Array(v))
            }
            "PackedInt64Array" => {
                let v = self.groups::<1, _>(id, at, |p, c| match c[0].0 {
                    Number::Int(i) => Ok(i),
                    Number::Float(_) => {
                        Err(p.error_at(c[0].1, "expected an integer, found a float"))
                    }
                })?;
                Variant::PackedInt64Array(PackedInt64Array(v))
            }
            "PackedFloat32Array" | "PackedRealArray" | "PoolRealArray" | "FloatArray"
            | "RealArray" => {
                let v = self.groups::<1, _>(id, at, |_, c| Ok(real(c, 0)))?;
                Variant::PackedFloat32Array(PackedFloat32Array(v))
            }
            "PackedFloat64Array" => {
                let v = self.groups::<1, _>(id, at, |_, c| Ok(c[0].0.as_f64()))?;
                Variant::PackedFloat64Array(PackedFloat64Array(v))
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => {
                Variant::PackedStringArray(PackedStringArray(self.strings()?))
            }
            "PackedVector2Array" | "PoolVector2Array" | "Vector2Array" => {
                let v =
                    self.groups::<2, _>(id, at, |_, c| Ok(Vector2::new(real(c, 0), real(c, 1))))?;
                Variant::PackedVector2Array(PackedVector2Array(v))
            }
            "PackedVector3Array" | "PoolVector3Array" | "Vector3Array" => {
                let v = self.groups::<3, _>(id, at, |_, c| {
                    Ok(Vector3::new(real(c, 0), real(c, 1), real(c, 2)))
                })?;
                Variant::PackedVector3Array(PackedVector3Array(v))
            }
            "PackedVector4Array" | "PoolVector4Array" | "Vector4Array" => {
                let v = self.groups::<4, _>(id, at, |_, c| {
                    Ok(Vector4::new(real(c, 0), real(c, 1), real(c, 2), real(c, 3)))
                })?;
                Variant::PackedVector4Array(PackedVector4Array(v))
            }
            "PackedColorArray" | "PoolColorArray" | "ColorArray" => {
                let v = self.groups::<4, _>(id, at, |_, c| {
                    Ok(Color::from_rgba(
                        real(c, 0),
                        real(c, 1),
                        real(c, 2),
                        real(c, 3),
                    ))
                })?;
                Variant::PackedColorArray(PackedColorArray(v))
            }
            "PackedVector2iArray" | "PoolVector2iArray" => {
                let v = self.groups::<2, _>(id, at, |p, c| {
                    Ok(Vector2i::new(
                        p.int32(c[0].0, c[0].1)?,
                        p.int32(c[1].0, c[1].1)?,
                    ))
                })?;
                Variant::PackedVector2iArray(PackedVector2iArray(v))
            }
            "PackedVector3iArray" | "PoolVector3iArray" => {
                let v = self.groups::<3, _>(id, at, |p, c| {
                    Ok(Vector3i::new(
                        p.int32(c[0].0, c[0].1)?,
                        p.int32(c[1].0, c[1].1)?,
                        p.int32(c[2].0, c[2].1)?,
                    ))
                })?;
                Variant::PackedVector3iArray(PackedVector3iArray(v))
            }
            "PackedVector4iArray" | "PoolVector4iArray" => {
                let v = self.groups::<4, _>(id, at, |p, c| {
                    Ok(Vector4i::new(
                        p.int32(c[0].0, c[0].1)?,
                        p.int32(c[1].0, c[1].1)?,
                        p.int32(c[2].0, c[2].1)?,
                        p.int32(c[3].0, c[3].1)?,
                    ))
                })?;
                Variant::PackedVector4iArray(PackedVector4iArray(v))
            }
            _ => return Err(self.error_at(at, format!("unknown identifier '{id}'"))),
        })
    }

    /// `PackedByteArray(1, 2, 3)`, `PackedByteArray("AQID")` (base64) or `PackedByteArray()`.
    fn byte_array(&mut self) -> Result<PackedByteArray, ParseError> {
        let save = self.pos;
        self.expect(Tok::ParenOpen, "'('")?;
        let tok = self.next()?;
        if let Tok::Str(b64) = tok.kind {
            self.expect(Tok::ParenClose, "')'")?;
            return base64_decode(&b64)
                .map(PackedByteArray)
                .ok_or_else(|| self.error_at(tok.start, "invalid base64 in PackedByteArray"));
        }
        self.pos = save;
        let nums = self.numbers()?;
        let mut out = Vec::with_capacity(nums.len());
        for (n, at) in nums {
            match n {
                Number::Int(i @ 0..=255) => out.push(i as u8),
                _ => {
                    return Err(self.error_at(
                        at,
                        "a PackedByteArray element must be an integer in 0..=255",
                    ))
                }
            }
        }
        Ok(PackedByteArray(out))
    }

    /// Godot 2's `Image()` or `Image( width, height, mipmaps, FORMAT, bytes... )`, the
    /// format by name or number.
    fn image(&mut self) -> Result<Image, ParseError> {
        self.expect(Tok::ParenOpen, "'(' after Image")?;
        let mut words = [0u32; 3];
        for (i, w) in words.iter_mut().enumerate() {
            let tok = self.next()?;
            match tok.kind {
                Tok::ParenClose if i == 0 => return Ok(Image::default()),
                Tok::Int(n) => {
                    *w =
                        u32::try_from(n).map_err(|_| self.error_at(tok.start, "expected a size"))?
                }
                other => {
                    return Err(self.error_at(
                        tok.start,
                        format!("expected an integer, found {}", other.describe()),
                    ))
                }
            }
            self.expect(Tok::Comma, "','")?;
        }
        let tok = self.next()?;
        let format = match &tok.kind {
            Tok::Ident(name) => IMAGE_FORMATS
                .iter()
                .position(|f| f == name)
                .map(|i| i as u32),
            Tok::Int(n) => u32::try_from(*n).ok(),
            _ => None,
        }
        .ok_or_else(|| self.error_at(tok.start, "expected an image format"))?;
        let mut data = Vec::new();
        loop {
            let sep = self.next()?;
            match sep.kind {
                Tok::ParenClose => break,
                Tok::Comma => {}
                other => {
                    return Err(self.error_at(
                        sep.start,
                        format!("expected ',' or ')', found {}", other.describe()),
                    ))
                }
            }
            let tok = self.next()?;
            match tok.kind {
                Tok::Int(b @ 0..=255) => data.push(b as u8),
                _ => {
                    return Err(
                        self.error_at(tok.start, "an Image byte must be an integer in 0..=255")
                    )
                }
            }
        }
        let [width, height, mipmaps] = words;
        Ok(Image {
            format,
            mipmaps,
            width,
            height,
            data,
        })
    }

    /// Godot 2's `InputEvent(KEY,scancode[,mods])`, `(MBUTTON,n)`, `(JBUTTON,n)`,
    /// `(JAXIS,axis,value)`, `(NONE)` or `()`. The device is not in the text (0).
    fn input_event(&mut self) -> Result<InputEvent, ParseError> {
        self.expect(Tok::ParenOpen, "'(' after InputEvent")?;
        let tok = self.next()?;
        let kind = match tok.kind {
            Tok::ParenClose => return Ok(InputEvent::default()),
            Tok::Ident(k) => k,
            other => {
                return Err(self.error_at(
                    tok.start,
                    format!("expected an event type, found {}", other.describe()),
                ))
            }
        };
        let mut args = Vec::new();
        loop {
            let sep = self.next()?;
            match sep.kind {
                Tok::ParenClose => break,
                Tok::Comma => {}
                other => {
                    return Err(self.error_at(
                        sep.start,
                        format!("expected ',' or ')', found {}", other.describe()),
                    ))
                }
            }
            args.push(self.next()?);
        }
        let int = |p: &Self, t: &Token| match t.kind {
            Tok::Int(n) => {
                u32::try_from(n).map_err(|_| p.error_at(t.start, "expected a small integer"))
            }
            _ => Err(p.error_at(t.start, "expected an integer")),
        };
        let (event_type, extra) = match (kind.as_str(), args.as_slice()) {
            ("NONE", []) => (0, vec![]),
            ("KEY", [code]) => (1, vec![0, int(self, code)?]),
            ("KEY", [code, mods]) => {
                let Tok::Ident(m) = &mods.kind else {
                    return Err(self.error_at(mods.start, "expected modifier letters (A, S, C, M)"));
                };
                let mut mask = 0u32;
                for c in m.chars() {
                    mask |= match c {
                        'A' => 1 << 26,
                        'S' => 1 << 25,
                        'C' => 1 << 28,
                        'M' => 1 << 27,
                        _ => {
                            return Err(self.error_at(mods.start, format!("unknown modifier {c:?}")))
                        }
                    };
                }
                (1, vec![mask, int(self, code)?])
            }
            ("MBUTTON", [n]) => (3, vec![int(self, n)?]),
            ("JBUTTON", [n]) => (5, vec![int(self, n)?]),
            ("JAXIS", [axis, value]) => {
                let v = match value.kind {
                    Tok::Int(i) => i as f32,
                    Tok::Float(x) => x as f32,
                    _ => return Err(self.error_at(value.start, "expected the axis value")),
                };
                (4, vec![int(self, axis)?, v.to_bits()])
            }
            _ => {
                return Err(self.error_at(tok.start, format!("unknown InputEvent({kind}...) form")))
            }
        };
        Ok(InputEvent {
            event_type,
            device: 0,
            extra,
        })
    }

    /// `( "a", "b" )`.
    fn strings(&mut self) -> Result<Vec<String>, ParseError> {
        self.expect(Tok::ParenOpen, "'('")?;
        let mut out = Vec::new();
        loop {
            let tok = self.next()?;
            match tok.kind {
                Tok::ParenClose if out.is_empty() => return Ok(out),
                Tok::Str(s) => out.push(s),
                other => {
                    return Err(self.error_at(
                        tok.start,
                        format!("expected a string, found {}", other.describe()),
                    ))
                }
            }
            let sep = self.next()?;
            match sep.kind {
                Tok::Comma => {}
                Tok::ParenClose => return Ok(out),
                other => {
                    return Err(self.error_at(
                        sep.start,
                        format!("expected ',' or ')', found {}", other.describe()),
                    ))
                }
            }
        }
    }

    /// The type inside `Array[...]` or `Dictionary[...]`: a builtin type name, `Variant`
    /// (untyped), a class name, or `Resource("res://script.gd")`.
    fn element_type(&mut self) -> Result<ElementType, ParseError> {
        let tok = self.next()?;
        let Tok::Ident(name) = tok.kind else {
            return Err(self.error_at(
                tok.start,
                format!("expected a type name, found {}", tok.kind.describe()),
            ));
        };
        if name == "Variant" {
            return Ok(ElementType::Untyped);
        }
        if name == "Resource" {
            // `Resource("res://x.gd")` or, with a uid, `Resource("uid://...", "res://x.gd")`.
            self.expect(Tok::ParenOpen, "'(' after Resource")?;
            let mut paths = Vec::new();
            loop {
                let t = self.next()?;
                match t.kind {
                    Tok::Str(s) => paths.push(s),
                    other => {
                        return Err(self.error_at(
                            t.start,
                            format!("expected a path string, found {}", other.describe()),
                        ))
                    }
                }
                let sep = self.next()?;
                match sep.kind {
                    Tok::Comma => {}
                    Tok::ParenClose => break,
                    other => {
                        return Err(self.error_at(
                            sep.start,
                            format!("expected ',' or ')', found {}", other.describe()),
                        ))
                    }
                }
            }
            let path = paths
                .iter()
                .find(|p| !p.starts_with("uid://"))
                .or(paths.first())
                .cloned()
                .unwrap_or_default();
            return Ok(ElementType::Script(path));
        }
        Ok(match builtin_type(&name) {
            Some(ty) => ElementType::Builtin(ty),
            None => ElementType::ClassName(name),
        })
    }
}

/// An `Object(...)` read from text: `EncodedObjectAsID` with an `object_id` (and at most
/// a null `script`) becomes [`Variant::ObjectId`].
fn object_value(class_name: String, properties: Vec<(String, Variant)>) -> Variant {
    if class_name == "EncodedObjectAsID" {
        let id = properties
            .iter()
            .find(|(k, _)| k == "object_id")
            .map(|(_, v)| v);
        let rest_is_empty = properties
            .iter()
            .all(|(k, v)| k == "object_id" || (k == "script" && v.is_nil()));
        if let (Some(Variant::Int(id)), true) = (id, rest_is_empty) {
            return Variant::ObjectId(ObjectId(*id as u64));
        }
    }
    Variant::Object(Object {
        class_name,
        properties,
    })
}

fn basis_from(n: &[f32]) -> Basis {
    let row = |i: usize| Vector3::new(n[i], n[i + 1], n[i + 2]);
    Basis {
        rows: [row(0), row(3), row(6)],
    }
}

/// The float words the engines print: `inf`, `-inf`, `inf_neg`, `nan` and `-nan` (a NaN
/// with its sign bit set, in Godot 3).
fn float_word(id: &str) -> Option<f64> {
    match id {
        "inf" => Some(f64::INFINITY),
        "-inf" | "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        "-nan" => Some(-f64::NAN),
        _ => None,
    }
}

/// The builtin type with this Godot 4 name (`int`, `String`, `PackedVector3Array`...).
fn builtin_type(name: &str) -> Option<VariantType> {
    VariantType::ALL.iter().copied().find(|t| t.name() == name)
}

/// A cheap hash of a dictionary key, for finding repeated keys without comparing every
/// pair. Keys of the same fingerprint are compared with `==`.
fn fingerprint(v: &Variant) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::mem::discriminant(v).hash(&mut h);
    match v {
        Variant::Bool(b) => b.hash(&mut h),
        Variant::Int(i) => i.hash(&mut h),
        Variant::Float(x) => x.to_bits().hash(&mut h),
        Variant::String(s) => s.hash(&mut h),
        Variant::StringName(s) => s.hash(&mut h),
        Variant::NodePath(p) => p.hash(&mut h),
        Variant::Vector2i(p) => (p.x, p.y).hash(&mut h),
        Variant::Vector3i(p) => (p.x, p.y, p.z).hash(&mut h),
        Variant::Vector2(p) => (p.x.to_bits(), p.y.to_bits()).hash(&mut h),
        Variant::Vector3(p) => (p.x.to_bits(), p.y.to_bits(), p.z.to_bits()).hash(&mut h),
        _ => {}
    }
    h.finish()
}

/// Standard base64 (with or without `=` padding), as the engine's `b64_decode` reads it.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A single leftover character (6 bits) cannot end valid base64.
    if bits >= 6 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_reads_the_engines_encoding() {
        assert_eq!(base64_decode("AQID").unwrap(), [1, 2, 3]);
        assert_eq!(base64_decode("AQIDBA==").unwrap(), [1, 2, 3, 4]);
        assert_eq!(base64_decode("AQIDBA").unwrap(), [1, 2, 3, 4]);
        assert_eq!(base64_decode("").unwrap(), Vec::<u8>::new());
        assert!(base64_decode("A").is_none());
        assert!(base64_decode("A*==").is_none());
    }

    #[test]
    fn every_type_name_is_found() {
        for ty in &VariantType::ALL {
            assert_eq!(builtin_type(ty.name()), Some(*ty));
        }
        assert_eq!(builtin_type("Node"), None);
    }
}
