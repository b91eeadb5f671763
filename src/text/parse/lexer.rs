//! The lexer: the text's characters as tokens, as the engine's tokenizer cuts them
//! (punctuation, identifiers, strings and StringNames with their escapes, numbers, and
//! Godot 3's `-inf` / `-nan`), with the positions parse errors report. It also holds the
//! token-level helpers the other rooms use: [`Parser::expect`] and the `( a, b, ... )`
//! lists of [`Parser::comma_or_paren`] and [`Parser::paren_items`].

use super::{ParseError, Parser};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
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
    pub(super) fn describe(&self) -> String {
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

pub(super) struct Token {
    pub(super) kind: Tok,
    pub(super) start: usize,
}

impl Parser<'_> {
    fn peek_byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    /// Skips whitespace (every character up to U+0020, as the engine does) and `;` comments.
    pub(super) fn skip_blank(&mut self) {
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

    pub(super) fn next(&mut self) -> Result<Token, ParseError> {
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

    /// The integer token at the cursor (blanks skipped) and its offset, when it is one of
    /// up to 18 digits (which always fit an i64), read here without making a token; `None`
    /// leaves the cursor where a token starts, for [`next`](Self::next) to read.
    pub(super) fn short_int(&mut self) -> Option<(i64, usize)> {
        self.skip_blank();
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let from = start + usize::from(bytes.get(start) == Some(&b'-'));
        let mut i = from;
        let mut n = 0i64;
        while let Some(&d) = bytes.get(i).filter(|d| d.is_ascii_digit()) {
            n = n.wrapping_mul(10).wrapping_add(i64::from(d - b'0'));
            i += 1;
        }
        // A `.` or an exponent makes it a float, as in `number`.
        if i == from || i - from > 18 || matches!(bytes.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.pos = i;
        Some((if from > start { -n } else { n }, start))
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
            if let Some(x) = self.hook.float(text) {
                return Ok(Tok::Float(x));
            }
            text.parse::<f64>()
                .map(Tok::Float)
                .map_err(|_| self.error_at(start, format!("malformed number {text}")))
        } else {
            // Up to 18 digits always fit an i64: read them here (most of a file's numbers
            // are short integers); longer ones go through `parse` for its overflow check.
            let digits = &bytes[digits_from..i];
            if digits.len() <= 18 {
                let n = digits
                    .iter()
                    .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
                return Ok(Tok::Int(if digits_from > start { -n } else { n }));
            }
            text.parse::<i64>().map(Tok::Int).map_err(|_| {
                self.error_at(start, format!("integer {text} does not fit in 64 bits"))
            })
        }
    }

    /// The body of a quoted string (after the opening quote), with the engine's escapes:
    /// `\b \t \n \f \r`, `\uXXXX` (UTF-16, surrogate pairs joined), `\UXXXXXX`; any other
    /// escaped character stands for itself, `\a` and `\v` too: the engines' writers print
    /// BEL and VT so (`c_escape`), but their readers take them as the letters (Godot 3.2.3
    /// and 4.4.1: `str_to_var("\"a\\vb\\ac\"") == "avbac"`; tests/engine/text.rs).
    fn string(&mut self, start: usize) -> Result<String, ParseError> {
        // Most literals hold no escape: up to the first `"` or `\` the text is the value,
        // taken at once; the loop below reads the rest character by character.
        let rest = &self.text.as_bytes()[self.pos..];
        let plain = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\')
            .unwrap_or(rest.len());
        let mut out = self.text[self.pos..self.pos + plain].to_owned();
        self.pos += plain;
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
        // The literal's text between its quotes (the closing quote is the last byte read).
        let raw = &self.text[start + 1..self.pos - 1];
        let raw = raw.strip_prefix('"').unwrap_or(raw);
        self.hook.string(&mut out, raw);
        Ok(out)
    }

    /// The next token, which must be `want` (`what` names it in the error).
    pub(super) fn expect(&mut self, want: Tok, what: &str) -> Result<Token, ParseError> {
        let tok = self.next()?;
        if tok.kind == want {
            Ok(tok)
        } else {
            Err(self.expected(what, &tok))
        }
    }

    /// "expected `what`, found" the token `tok`, at `tok`.
    pub(super) fn expected(&self, what: &str, tok: &Token) -> ParseError {
        self.error_at(
            tok.start,
            format!("expected {what}, found {}", tok.kind.describe()),
        )
    }

    /// After an item of a `( ... )` list: `true` for a `,` (another item follows), `false`
    /// for the closing `)`.
    pub(super) fn comma_or_paren(&mut self) -> Result<bool, ParseError> {
        // The two bytes that can come here, without making a token of them.
        self.skip_blank();
        match self.peek_byte() {
            Some(b',') => {
                self.pos += 1;
                return Ok(true);
            }
            Some(b')') => {
                self.pos += 1;
                return Ok(false);
            }
            _ => {}
        }
        let sep = self.next()?;
        match sep.kind {
            Tok::Comma => Ok(true),
            Tok::ParenClose => Ok(false),
            other => Err(self.error_at(
                sep.start,
                format!("expected ',' or ')', found {}", other.describe()),
            )),
        }
    }

    /// The items of a `( item, item, ... )` list whose `(` is read: `item` makes one from
    /// its first token. `()` is an empty list where `empty` allows it; a `,` before the
    /// `)` is not allowed.
    pub(super) fn paren_items<T>(
        &mut self,
        empty: bool,
        mut item: impl FnMut(&mut Self, Token) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let mut out = Vec::new();
        loop {
            let tok = self.next()?;
            if empty && out.is_empty() && tok.kind == Tok::ParenClose {
                return Ok(out);
            }
            out.push(item(self, tok)?);
            if !self.comma_or_paren()? {
                return Ok(out);
            }
        }
    }
}
