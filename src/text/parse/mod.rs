//! Reading the engines' text form back (`VariantParser::parse`), for every dialect at once.
//!
//! The parser is cut by job, each room an `impl Parser` block of its own:
//! * [`lexer`]: characters to tokens (strings and their escapes, numbers, the float
//!   words), and the token-level helpers every other room uses;
//! * [`stack`]: arrays, dictionaries, objects and typed containers, kept on an explicit
//!   stack of open frames so that no text can overflow the call stack;
//! * [`construct`]: every builtin read from its constructor text (`Vector2( 1, 2 )`,
//!   `PoolIntArray( ... )`, `NodePath("...")`, ...), under every engine's type names;
//! * [`godot2`]: the two Godot 2 types whose text is not a list of numbers, `Image` and
//!   `InputEvent`.
//!
//! This room holds the entry points, the [`ParseError`] every room returns and the
//! [`Parser`] state the rooms share.

mod construct;
mod godot2;
mod lexer;
mod stack;

use super::hooks::ParseHook;
use crate::variant::Variant;
pub use construct::word_value;
use lexer::Tok;
use std::fmt;

/// How deeply calls a [`ParseHook`] reads may nest in their arguments
/// (`A(B(C(...)))`): each level parses its arguments on the call stack (about 16 KiB a
/// level in a debug build), and no file needs more than one (`ExtResource("1")`).
pub const MAX_CALL_DEPTH: usize = 16;

/// Text that is not a value, with where it went wrong.
///
/// ```
/// use godot_bin::Variant;
/// let err = "[1,\n  Vector2(1)]".parse::<Variant>().unwrap_err();
/// assert_eq!((err.line(), err.column()), (2, 3));
/// assert_eq!(err.offset(), 6);
/// assert_eq!(err.to_string(), "line 2, column 3 (byte 6): Vector2 takes 2 numbers, found 1");
/// assert_eq!(format!("{err:?}"), err.to_string()); // Debug reads the same
/// ```
#[derive(Clone, PartialEq, Eq)]
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

/// The same sentence as `Display`, so that `fn main() -> Result<(), ParseError>` and
/// `unwrap()` print it rather than the fields.
impl fmt::Debug for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ParseError {}

/// Parses exactly one value: only whitespace and comments may follow it.
pub(super) fn parse_one(text: &str, hook: &mut dyn ParseHook) -> Result<Variant, ParseError> {
    let mut p = Parser::new(text, hook);
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
pub(super) fn parse_prefix<'t>(
    text: &'t str,
    hook: &mut dyn ParseHook,
) -> Result<Option<(Variant, &'t str)>, ParseError> {
    let mut p = Parser::new(text, hook);
    let tok = p.next()?;
    if tok.kind == Tok::Eof {
        return Ok(None);
    }
    let v = p.value(tok)?;
    p.skip_blank();
    Ok(Some((v, &text[p.pos..])))
}

/// The parser's state: the text, the byte offset of the next character and the caller's
/// [`ParseHook`]. Its methods live in the rooms of this folder, by job.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
    hook: &'a mut dyn ParseHook,
    /// Calls open around the value being read (`ExtResource(ExtResource(...))`): each
    /// reads its arguments with a fresh [`Parser::value`], so they nest on the call stack,
    /// at most [`MAX_CALL_DEPTH`] deep.
    calls: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, hook: &'a mut dyn ParseHook) -> Self {
        Parser {
            text,
            pos: 0,
            hook,
            calls: 0,
        }
    }

    /// The values of a call's `( ... )`, whose `(` is read: each a whole value, one call
    /// level deeper.
    fn call_args(&mut self, at: usize) -> Result<Vec<Variant>, ParseError> {
        if self.calls >= MAX_CALL_DEPTH {
            return Err(self.error_at(
                at,
                format!("calls nested deeper than {MAX_CALL_DEPTH} levels"),
            ));
        }
        self.calls += 1;
        let args = self.paren_items(true, |p, tok| p.value(tok));
        self.calls -= 1;
        args
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
}
