//! The crate's error: what went wrong ([`ErrorKind`]) and, when decoding, the byte offset.

use crate::dialect::{Dialect, VariantType};
use std::fmt;

/// `Godot 3 (Dialect::Godot3) or Godot 2 (Dialect::Godot2)`.
fn dialects(list: &[Dialect]) -> String {
    let names: Vec<String> = list
        .iter()
        .map(|d| format!("{d} (Dialect::{d:?})"))
        .collect();
    names.join(" or ")
}

/// What went wrong. Match on it to tell hostile input from a bug in your own types.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended inside a value: more bytes may complete it. A stream reader that
    /// sees this on a packet it has not got whole waits for more.
    #[error("unexpected end of input")]
    UnexpectedEof,
    /// A header names a type id the dialect does not have (at or past `VARIANT_MAX`).
    #[error("unknown type id {id} for {dialect}")]
    UnknownTypeId {
        /// The header's type id.
        id: u32,
        /// The dialect that was decoding.
        dialect: Dialect,
    },
    /// A string's bytes are not valid UTF-8 (or encode a character the engine refuses).
    #[error("invalid UTF-8 in a string")]
    InvalidUtf8,
    /// A length or count that no input could satisfy: negative, past what the engine
    /// accepts, or past [`Config::max_size`](crate::config::Config::max_size). (A length the input
    /// is merely too short for is [`ErrorKind::UnexpectedEof`].)
    #[error("length {0} out of range")]
    LengthOutOfRange(i64),
    /// Containers nest deeper than the configured limit.
    #[error("nesting deeper than {0} levels")]
    DepthExceeded(usize),
    /// The packet is larger than [`Config::max_size`](crate::config::Config::max_size) allows.
    #[error("packet larger than the {0}-byte limit")]
    SizeLimitExceeded(usize),
    /// A full object was found and [`Config::allow_objects`](crate::config::Config::allow_objects) is off.
    #[error("full objects are not allowed (enable Config::allow_objects)")]
    ObjectsNotAllowed,
    /// The value uses a type that the dialect does not have.
    #[error("{ty} does not exist in {dialect}")]
    TypeNotInDialect {
        /// The type.
        ty: VariantType,
        /// The dialect.
        dialect: Dialect,
    },
    /// A number does not fit the target: a u64 above `i64::MAX`, an int for an `u8` field...
    #[error("{value} does not fit in {target}")]
    NumberOutOfRange {
        /// The value, as text.
        value: String,
        /// The Rust type or wire slot it was meant for.
        target: &'static str,
    },
    /// The packet holds a different type from the one asked for.
    #[error("expected {expected}, found {found}")]
    TypeMismatch {
        /// What the caller's type asked for.
        expected: String,
        /// What the packet holds.
        found: VariantType,
    },
    /// Bytes remain after the value (use `take_from_slice` for buffers of several packets).
    #[error("{0} trailing bytes after the value")]
    TrailingBytes(usize),
    /// Structurally invalid data the engine would also refuse.
    #[error("invalid data: {0}")]
    InvalidData(&'static str),
    /// A value Rust can describe but the format cannot carry.
    #[error("cannot encode: {0}")]
    Unsupported(String),
    /// A value of another kind than the Rust type takes: a string for an `i32` field, a
    /// map for a sequence (serde's `invalid_type`). A packet type the asked-for builtin
    /// cannot be made from is [`ErrorKind::TypeMismatch`].
    #[error("invalid type: {unexpected}, expected {expected}")]
    InvalidType {
        /// What was there, as serde describes it: `string "lots"`, `integer `5``, `map`.
        unexpected: String,
        /// What the Rust type takes: `i32`, `a string`, `struct Player`.
        expected: String,
    },
    /// A value of the right kind that the Rust type refuses: a character from a
    /// two-letter string, a negative number for a `NonZeroU8`... (serde's
    /// `invalid_value`).
    #[error("invalid value: {unexpected}, expected {expected}")]
    InvalidValue {
        /// What was there, as serde describes it.
        unexpected: String,
        /// What the Rust type takes.
        expected: String,
    },
    /// A sequence or map with another number of elements than the Rust type takes: an
    /// Array of two for a tuple of three (serde's `invalid_length`).
    #[error("invalid length {len}, expected {expected}")]
    InvalidLength {
        /// The number of elements there were (or, when the type stopped reading early,
        /// the number there are).
        len: usize,
        /// What the Rust type takes: `a tuple of size 3`, `fewer elements`.
        expected: String,
    },
    /// A struct's field is not in the Dictionary (serde's `missing_field`).
    #[error("missing field `{0}`")]
    MissingField(&'static str),
    /// The Dictionary holds a key that is none of the struct's fields, and the struct has
    /// `#[serde(deny_unknown_fields)]` (serde's `unknown_field`).
    #[error("unknown field `{field}`, {}", one_of(.expected, "fields"))]
    UnknownField {
        /// The key.
        field: String,
        /// The struct's fields.
        expected: &'static [&'static str],
    },
    /// An enum's variant name that is none of its variants (serde's `unknown_variant`).
    #[error("unknown variant `{variant}`, {}", one_of(.expected, "variants"))]
    UnknownVariant {
        /// The name that was there.
        variant: String,
        /// The enum's variants.
        expected: &'static [&'static str],
    },
    /// Text that is not a value in the engine's text form: a
    /// [`ParseError`](crate::text::ParseError) passed on with `?` (or `Error::from`),
    /// where it was and what was wrong. The byte offset in the text is
    /// [`Error::offset`].
    #[error("line {line}, column {column}: {message}")]
    Text {
        /// The line, counted from 1.
        line: usize,
        /// The column in characters, counted from 1.
        column: usize,
        /// What was wrong, without the position.
        message: String,
    },
    /// A message from a `Serialize` or `Deserialize` implementation.
    #[error("{0}")]
    Custom(String),
    /// The value does not decode cleanly in the configured dialect, but does in others:
    /// the bytes are most likely another engine's. `error` is what the configured dialect
    /// said; `decodes_as` lists the dialects that read the same bytes as exactly one value
    /// (see `Config::dialects_that_decode`).
    #[error(
        "the value does not decode as {dialect} ({error}) but decodes cleanly as {}: read the \
         file with that dialect's Config",
        dialects(.decodes_as)
    )]
    WrongDialect {
        /// The dialect that was configured.
        dialect: Dialect,
        /// What decoding in it said.
        error: Box<ErrorKind>,
        /// The dialects that decode the bytes cleanly.
        decodes_as: Vec<Dialect>,
    },
    /// Reading or writing failed.
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// What serde says after the name of an unknown field or variant: the names there are, as
/// serde's own `OneOf` lists them.
fn one_of(names: &[&str], what: &str) -> String {
    match names {
        [] => format!("there are no {what}"),
        [a] => format!("expected `{a}`"),
        [a, b] => format!("expected `{a}` or `{b}`"),
        _ => {
            let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("expected one of {}", listed.join(", "))
        }
    }
}

/// An encoding or decoding error: what went wrong ([`kind`](Self::kind)), where in the
/// value ([`path`](Self::path)) and where in the bytes ([`offset`](Self::offset)). Its
/// `Display` and its `Debug` read as one sentence, so `fn main() -> Result<(), Error>`
/// prints it as it is.
///
/// ```
/// use godot_bin::{ErrorKind, Variant};
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug)]
/// struct Player { name: String, hp: u8 }
/// #[derive(Deserialize, Debug)]
/// struct Save { players: Vec<Player> }
///
/// // A save a game wrote: the second player's hp does not fit in a u8.
/// let save: Variant = "{\"players\": [{\"name\": \"Ada\", \"hp\": 10}, {\"name\": \"Bo\", \"hp\": 300}]}".parse()?;
/// let bytes = godot_bin::to_vec(&save)?;
/// let err = godot_bin::from_slice::<Save>(&bytes).unwrap_err();
/// match err.kind() {
///     ErrorKind::NumberOutOfRange { value, target } => {
///         assert_eq!((value.as_str(), *target), ("300", "u8"));
///     }
///     other => panic!("{other}"),
/// }
/// assert_eq!(err.path(), "players[1].hp");
/// assert_eq!(format!("{err:?}"), err.to_string());
/// assert!(err.to_string().starts_with("300 does not fit in u8 at players[1].hp at byte offset"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// One pointer wide, so that every `Result<(), Error>` the encoder and decoder pass up
/// travels in a register (as serde_json's does), not through memory.
pub struct Error {
    inner: Box<ErrorInner>,
}

#[derive(Debug)]
struct ErrorInner {
    kind: ErrorKind,
    offset: Option<usize>,
    /// Where in the value, innermost first (built as the error travels up, so that a
    /// value decoded without error pays nothing for it).
    path: Vec<PathSegment>,
}

/// One step of the path to where decoding failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathSegment {
    /// An Array element (or a packed array's, or an object's property by position).
    Index(usize),
    /// A Dictionary entry (a struct's field) by its key's text.
    Key(String),
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Where an error was found: the one position type of every godot_bin crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Position {
    /// In bytes (a packet, a binary file, a save's content): the offset from the start.
    Byte(usize),
    /// In text: the byte offset, and its line and column (from 1; the column in characters).
    Text {
        /// Byte offset from the start of the text.
        offset: usize,
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        column: usize,
    },
    /// In a compressed file (a compressed binary resource, `RSCC`): the byte offset in its
    /// decompressed content, since no offset in the compressed bytes points at a value.
    Uncompressed(usize),
}

impl Position {
    /// The position of byte `offset` of `text`: its line and column (an offset inside a
    /// character counts as that character's start; past the end, the end).
    ///
    /// ```
    /// use godot_bin::Position;
    /// assert_eq!(
    ///     Position::in_text("a = 1\nb = ?", 10),
    ///     Position::Text { offset: 10, line: 2, column: 5 }
    /// );
    /// ```
    pub fn in_text(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position::Text {
            offset,
            line,
            column,
        }
    }
}

/// `byte offset 7`, `line 2, column 4 (byte 10)`, `byte offset 7 of the decompressed
/// content`: what follows "at" in an error's sentence.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Position::Byte(at) => write!(f, "byte offset {at}"),
            Position::Text {
                offset,
                line,
                column,
            } => write!(f, "line {line}, column {column} (byte {offset})"),
            Position::Uncompressed(at) => {
                write!(f, "byte offset {at} of the decompressed content")
            }
        }
    }
}

impl Error {
    /// An error of `kind` at byte `offset` of the input.
    pub fn at(kind: ErrorKind, offset: usize) -> Self {
        Error {
            inner: Box::new(ErrorInner {
                kind,
                offset: Some(offset),
                path: Vec::new(),
            }),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// The byte offset in the input where decoding failed, if the error came from decoding.
    pub fn offset(&self) -> Option<usize> {
        self.inner.offset
    }

    /// Where in the input: [`Position::Text`] for text that did not parse
    /// ([`ErrorKind::Text`]), else [`Position::Byte`] at [`offset`](Self::offset).
    pub fn position(&self) -> Option<Position> {
        let offset = self.inner.offset?;
        Some(match self.inner.kind {
            ErrorKind::Text { line, column, .. } => Position::Text {
                offset,
                line,
                column,
            },
            _ => Position::Byte(offset),
        })
    }

    /// Where in the value decoding failed, as text: `players[3].hp` (empty at the top
    /// level).
    ///
    /// ```
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Player { hp: i32 }
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Game { players: Vec<Player> }
    ///
    /// let mut game = godot_bin::Dictionary::new();
    /// let players: Vec<godot_bin::Variant> = vec![
    ///     godot_bin::Dictionary::from_iter([("hp", 10)]).into(),
    ///     godot_bin::Dictionary::from_iter([("hp", "lots")]).into(),
    /// ];
    /// game.insert("players", players);
    /// let bytes = godot_bin::to_vec(&game)?;
    /// let err = godot_bin::from_slice::<Game>(&bytes).unwrap_err();
    /// assert_eq!(err.path(), "players[1].hp");
    /// assert!(err.to_string().contains("at players[1].hp at byte offset"));
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn path(&self) -> String {
        let mut out = String::new();
        for segment in self.inner.path.iter().rev() {
            match segment {
                PathSegment::Index(i) => {
                    use std::fmt::Write;
                    let _ = write!(out, "[{i}]");
                }
                PathSegment::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
            }
        }
        out
    }

    /// The steps of [`Error::path`], outermost first.
    pub fn path_segments(&self) -> impl Iterator<Item = &PathSegment> {
        self.inner.path.iter().rev()
    }

    /// Adds the step an error passed on its way out of a container.
    #[cold]
    pub(crate) fn in_segment(mut self, segment: PathSegment) -> Self {
        self.inner.path.push(segment);
        self
    }

    /// Where an error came from, if it has an offset.
    pub(crate) fn kind_mut(&mut self) -> &mut ErrorKind {
        &mut self.inner.kind
    }

    /// Sets the offset if none is known yet (errors raised by visitors learn it late).
    pub(crate) fn or_at(mut self, offset: usize) -> Self {
        self.inner.offset.get_or_insert(offset);
        self
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new(ErrorInner {
                kind,
                offset: None,
                path: Vec::new(),
            }),
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        ErrorKind::Io(e).into()
    }
}

/// The kind, then where in the value, then where in the input:
/// `invalid type: string "lots", expected i32 at players[1].hp at byte offset 52`.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner.kind, f)?;
        if !self.inner.path.is_empty() {
            write!(f, " at {}", self.path())?;
        }
        match self.inner.offset {
            Some(at) => write!(f, " at byte offset {at}"),
            None => Ok(()),
        }
    }
}

/// The same sentence as `Display`, so that `fn main() -> Result<(), Error>` and
/// `unwrap()` print it rather than the error's fields.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        ErrorKind::Custom(msg.to_string()).into()
    }
}

/// serde's errors each as a kind of its own, to match on; their text is serde's own.
impl serde::de::Error for Error {
    fn custom<M: fmt::Display>(msg: M) -> Self {
        ErrorKind::Custom(msg.to_string()).into()
    }

    #[cold]
    fn invalid_type(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        ErrorKind::InvalidType {
            unexpected: unexp.to_string(),
            expected: exp.to_string(),
        }
        .into()
    }

    #[cold]
    fn invalid_value(unexp: serde::de::Unexpected<'_>, exp: &dyn serde::de::Expected) -> Self {
        ErrorKind::InvalidValue {
            unexpected: unexp.to_string(),
            expected: exp.to_string(),
        }
        .into()
    }

    #[cold]
    fn invalid_length(len: usize, exp: &dyn serde::de::Expected) -> Self {
        ErrorKind::InvalidLength {
            len,
            expected: exp.to_string(),
        }
        .into()
    }

    #[cold]
    fn unknown_variant(variant: &str, expected: &'static [&'static str]) -> Self {
        ErrorKind::UnknownVariant {
            variant: variant.to_owned(),
            expected,
        }
        .into()
    }

    #[cold]
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> Self {
        ErrorKind::UnknownField {
            field: field.to_owned(),
            expected,
        }
        .into()
    }

    #[cold]
    fn missing_field(field: &'static str) -> Self {
        ErrorKind::MissingField(field).into()
    }
}

#[cfg(test)]
mod size_tests {
    use super::*;

    #[test]
    fn serdes_errors_read_as_serde_writes_them() {
        use serde::de::{Error as _, Unexpected};
        type Serdes = serde::de::value::Error;
        let pairs = [
            (
                Error::invalid_type(Unexpected::Str("lots"), &"i32"),
                Serdes::invalid_type(Unexpected::Str("lots"), &"i32"),
            ),
            (
                Error::invalid_value(Unexpected::Signed(-1), &"a positive number"),
                Serdes::invalid_value(Unexpected::Signed(-1), &"a positive number"),
            ),
            (
                Error::invalid_length(2, &"a tuple of size 3"),
                Serdes::invalid_length(2, &"a tuple of size 3"),
            ),
            (Error::missing_field("hp"), Serdes::missing_field("hp")),
        ];
        for (ours, serdes) in pairs {
            assert_eq!(ours.to_string(), serdes.to_string());
        }
        for names in [&[][..], &["a"], &["a", "b"], &["a", "b", "c"]] {
            assert_eq!(
                Error::unknown_field("x", names).to_string(),
                Serdes::unknown_field("x", names).to_string()
            );
            assert_eq!(
                Error::unknown_variant("x", names).to_string(),
                Serdes::unknown_variant("x", names).to_string()
            );
        }
        assert!(matches!(
            Error::missing_field("hp").kind(),
            ErrorKind::MissingField("hp")
        ));
    }

    #[test]
    fn results_fit_in_a_register() {
        // The encoder and decoder return `Result<()>` from every call; wider, it goes
        // through memory.
        assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
        assert_eq!(
            std::mem::size_of::<Result<()>>(),
            std::mem::size_of::<usize>()
        );
        let e = Error::at(ErrorKind::UnexpectedEof, 7).or_at(9);
        assert_eq!(
            (e.offset(), e.to_string()),
            (Some(7), "unexpected end of input at byte offset 7".into())
        );
    }
}
