//! [`ResourceError`]: what went wrong reading or writing a resource, scene or ConfigFile,
//! and where (a line and column in text, a byte offset in a binary file).

use crate::text::ParseError;
use std::fmt;

/// What went wrong. Match on it to tell a damaged or hostile file from a value your own
/// types refuse.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceErrorKind {
    /// Text that is not the engine's `[tag]` / `key = value` layout.
    #[error("{0}")]
    Syntax(String),
    /// A value's text does not parse (the message is the value parser's).
    #[error("{0}")]
    Value(String),
    /// A binary file ends inside a table or a value.
    #[error("unexpected end of file")]
    UnexpectedEof,
    /// A binary file's count, length, offset or index that the file cannot hold: the
    /// message says which.
    #[error("corrupt file: {0}")]
    Corrupt(String),
    /// A version or format this crate does not read (the message names it).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Values nest deeper than the engine's 1024 levels.
    #[error("nesting deeper than {0} levels")]
    DepthExceeded(usize),
    /// A reference names a resource the file does not define (`SubResource("x")` without
    /// a `[sub_resource id="x"]`, an index past a binary table).
    #[error("unknown reference: {0}")]
    UnknownReference(String),
    /// Sub-resources refer to one another in a ring, which the engine cannot load.
    #[error("sub-resources refer to one another in a cycle: {0}")]
    ReferenceCycle(String),
    /// A document that a writer or converter cannot express in the target (the message
    /// says what).
    #[error("cannot write: {0}")]
    Unwritable(String),
    /// A container (`GDEC`, `GCPF`), a serde conversion or a Variant failed: the crate's
    /// own error.
    #[error("{0}")]
    Crate(crate::error::Error),
    /// Reading or writing failed.
    #[error("I/O error: {0}")]
    Io(std::io::Error),
}

/// Where an error was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// In text: the byte offset, and its line and column (from 1; the column in characters).
    Text {
        /// Byte offset from the start of the text.
        offset: usize,
        /// Line, from 1.
        line: usize,
        /// Column in characters, from 1.
        column: usize,
    },
    /// In a binary file: the byte offset.
    Byte(usize),
    /// In a compressed binary file (`RSCC`): the byte offset in its decompressed content
    /// (what the container holds, from the header's first word on; the file's own offsets
    /// count from there too), since no offset in the compressed bytes points at a value.
    Uncompressed(usize),
}

/// An error reading or writing a resource, scene or ConfigFile.
///
/// ```
/// use godot_bin::resource::{ConfigFile, Position, ResourceErrorKind};
/// let err = "[main]\nhp=Vector2(1)\n".parse::<ConfigFile>().unwrap_err();
/// assert!(matches!(err.kind(), ResourceErrorKind::Value(_)));
/// assert!(matches!(err.position(), Some(Position::Text { line: 2, .. })));
/// ```
#[derive(Debug)]
pub struct ResourceError {
    inner: Box<(ResourceErrorKind, Option<Position>)>,
}

/// `Result` with [`ResourceError`].
pub type Result<T, E = ResourceError> = std::result::Result<T, E>;

impl ResourceError {
    /// An error of `kind`, with no position.
    pub fn new(kind: ResourceErrorKind) -> Self {
        ResourceError {
            inner: Box::new((kind, None)),
        }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ResourceErrorKind {
        &self.inner.0
    }

    /// Where, if known.
    pub fn position(&self) -> Option<Position> {
        self.inner.1
    }

    /// The same error, found at byte `offset` of a binary file (kept if already set).
    pub(crate) fn at_byte(self, offset: usize) -> Self {
        self.at(Position::Byte(offset))
    }

    /// The same error, found at `position` (kept if already set).
    pub(crate) fn at(mut self, position: Position) -> Self {
        self.inner.1.get_or_insert(position);
        self
    }

    /// The same error, found at byte `offset` of `text` (kept if already set).
    pub(crate) fn at_text(mut self, text: &str, offset: usize) -> Self {
        if self.inner.1.is_none() {
            self.inner.1 = Some(text_position(text, offset));
        }
        self
    }

    pub(crate) fn syntax(msg: impl Into<String>) -> Self {
        ResourceError::new(ResourceErrorKind::Syntax(msg.into()))
    }

    pub(crate) fn corrupt(msg: impl Into<String>) -> Self {
        ResourceError::new(ResourceErrorKind::Corrupt(msg.into()))
    }

    pub(crate) fn eof() -> Self {
        ResourceError::new(ResourceErrorKind::UnexpectedEof)
    }

    pub(crate) fn unwritable(msg: impl Into<String>) -> Self {
        ResourceError::new(ResourceErrorKind::Unwritable(msg.into()))
    }

    /// A value parser's error inside a value that starts at byte `base` of `text`.
    pub(crate) fn value(e: &ParseError, text: &str, base: usize) -> Self {
        let offset = (base + e.offset()).min(text.len());
        ResourceError::new(ResourceErrorKind::Value(e.message().to_string())).at_text(text, offset)
    }
}

/// Line and column of byte `offset` in `text`.
pub(crate) fn text_position(text: &str, offset: usize) -> Position {
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

impl fmt::Display for ResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.inner.1 {
            Some(Position::Text {
                offset,
                line,
                column,
            }) => write!(f, "line {line}, column {column} (byte {offset}): ")?,
            Some(Position::Byte(at)) => write!(f, "at byte {at}: ")?,
            Some(Position::Uncompressed(at)) => {
                write!(f, "at byte {at} of the decompressed content: ")?
            }
            None => {}
        }
        fmt::Display::fmt(&self.inner.0, f)
    }
}

impl std::error::Error for ResourceError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.0 {
            ResourceErrorKind::Crate(e) => Some(e),
            ResourceErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ResourceErrorKind> for ResourceError {
    fn from(kind: ResourceErrorKind) -> Self {
        ResourceError::new(kind)
    }
}

impl From<crate::error::Error> for ResourceError {
    fn from(e: crate::error::Error) -> Self {
        ResourceError::new(ResourceErrorKind::Crate(e))
    }
}

impl From<std::io::Error> for ResourceError {
    fn from(e: std::io::Error) -> Self {
        ResourceError::new(ResourceErrorKind::Io(e))
    }
}
