//! [`Error`]: what went wrong reading or writing a save file, a resource, a scene or a
//! ConfigFile, and where (a line and column in text, a byte offset in a binary file).
//!
//! The same shape as [`godot_bin::Error`]: a kind to match on, the [`Position`], and a
//! `Display` and `Debug` that read as one sentence.

use godot_bin::text::ParseError;
pub use godot_bin::Position;
use std::fmt;
use std::path::{Path, PathBuf};

/// What went wrong. Match on it to tell a damaged or hostile file from a wrong key or a
/// value your own types refuse.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Text that is not the engine's `[tag]` / `key = value` layout.
    #[error("{0}")]
    Syntax(String),
    /// A value's text does not parse (the message is the value parser's).
    #[error("{0}")]
    Value(String),
    /// A file ends inside a table, a value or a frame: more bytes may complete it.
    #[error("unexpected end of file")]
    UnexpectedEof,
    /// A file's count, length, offset or index that the file cannot hold, or a container
    /// (`GDEC`, `GCPF`, `RSCC`) that is damaged or holds what the engine cannot read: the
    /// message says which.
    #[error("corrupt file: {0}")]
    Corrupt(String),
    /// A length the engine would refuse: a save's frame longer than the content left or
    /// the frame limit, an encrypted file's header length past the file.
    #[error("length {0} out of range")]
    LengthOutOfRange(i64),
    /// A version, format or mode this crate does not read or write (the message names it).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// Values nest deeper than the limit: the engine's 1024 levels with the `stack-growth`
    /// feature, else 128 ([`godot_bin::MAX_DEPTH`]).
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
    /// An encrypted file (`GDEC`) did not decrypt with the key or password given: the MD5
    /// of the decrypted content differs from the one the file carries, which is the
    /// engine's only check. (A file damaged after it was written fails the same way.)
    #[error("wrong key or password: the decrypted content does not match the file's MD5")]
    WrongKey,
    /// An encrypted file (`GDEC`), or a pack's encrypted directory or file, was opened
    /// without a key or password.
    #[error("the file is encrypted: a key or password is needed")]
    KeyRequired,
    /// A path a pack holds that would be written outside the folder it is extracted to
    /// (`../`, an absolute path, a drive letter, a backslash, a NUL): the message names
    /// the path and why.
    #[error("unsafe path in the pack: {0}")]
    UnsafePath(String),
    /// A path that names no file of the pack.
    #[error("no such file in the pack: {0}")]
    NotFound(String),
    /// A save given to the Godot 3 → Godot 4 conversion is already Godot 4's; the text
    /// says what showed it (its encrypted layout, or a value that decodes cleanly as
    /// Godot 4 and not as Godot 3).
    #[error("already a Godot 4 save: {0}; there is nothing to convert")]
    AlreadyGodot4(String),
    /// A Variant inside the file did not encode or decode (a save's `store_var` packet,
    /// a value given to serde): the format's own [`godot_bin::Error`], with its offset in
    /// the packet and its path in the value.
    #[error("{0}")]
    Variant(godot_bin::Error),
    /// Reading or writing failed.
    #[error("I/O error: {0}")]
    Io(std::io::Error),
}

/// An error reading or writing a save file, resource, scene or ConfigFile.
///
/// ```
/// use godot_bin_files::{ConfigFile, ErrorKind, Position};
/// let err = "[main]\nhp=Vector2(1)\n".parse::<ConfigFile>().unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::Value(_)));
/// assert!(matches!(err.position(), Some(Position::Text { line: 2, .. })));
/// assert_eq!(
///     err.to_string(),
///     "Vector2 takes 2 numbers, found 1 at line 2, column 4 (byte 10)"
/// );
/// // `Debug` reads the same, so `fn main() -> Result<(), Error>` prints the sentence.
/// assert_eq!(format!("{err:?}"), err.to_string());
/// ```
pub struct Error {
    inner: Box<(ErrorKind, Option<Position>, Option<PathBuf>)>,
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error of `kind`, with no position.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            inner: Box::new((kind, None, None)),
        }
    }

    /// An error of `kind` at byte `offset` of a binary file or a save's content.
    pub(crate) fn at_offset(kind: ErrorKind, offset: usize) -> Self {
        Error::new(kind).at_byte(offset)
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.0
    }

    /// Where in the file, if known. For [`ErrorKind::Variant`], the offset in the
    /// packet is the inner error's own ([`godot_bin::Error::position`]).
    pub fn position(&self) -> Option<Position> {
        self.inner.1
    }

    /// Where in the value, for a [`ErrorKind::Variant`] error (`players[3].hp`); empty
    /// otherwise.
    pub fn path(&self) -> String {
        match self.kind() {
            ErrorKind::Variant(e) => e.path(),
            _ => String::new(),
        }
    }

    /// The file it happened in, for the path conveniences (`ConfigFile::load`,
    /// `TextResource::save`...); `None` for bytes in memory.
    pub fn file(&self) -> Option<&Path> {
        self.inner.2.as_deref()
    }

    /// The same error, in the file at `path` (kept if already set).
    pub(crate) fn in_file(mut self, path: &Path) -> Self {
        self.inner.2.get_or_insert_with(|| path.to_path_buf());
        self
    }

    pub(crate) fn kind_mut(&mut self) -> &mut ErrorKind {
        &mut self.inner.0
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
            self.inner.1 = Some(Position::in_text(text, offset));
        }
        self
    }

    pub(crate) fn syntax(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Syntax(msg.into()))
    }

    pub(crate) fn corrupt(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Corrupt(msg.into()))
    }

    pub(crate) fn eof() -> Self {
        Error::new(ErrorKind::UnexpectedEof)
    }

    pub(crate) fn unwritable(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Unwritable(msg.into()))
    }

    /// A value parser's error inside a value that starts at byte `base` of `text`.
    pub(crate) fn value(e: &ParseError, text: &str, base: usize) -> Self {
        let offset = (base + e.offset()).min(text.len());
        Error::new(ErrorKind::Value(e.message().to_string())).at_text(text, offset)
    }
}

/// The kind, then where: `unexpected end of file at byte 52`,
/// `Vector2 takes 2 numbers, found 1 at line 2, column 4 (byte 10)`, and the file when one
/// was read or written by path (`... in level.tscn`).
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner.0, f)?;
        if let Some(p) = self.inner.1 {
            write!(f, " at {p}")?;
        }
        match &self.inner.2 {
            Some(file) => write!(f, " in {}", file.display()),
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
        match &self.inner.0 {
            ErrorKind::Variant(e) => Some(e),
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error::new(kind)
    }
}

impl From<godot_bin::Error> for Error {
    fn from(e: godot_bin::Error) -> Self {
        Error::new(ErrorKind::Variant(e))
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::new(ErrorKind::Io(e))
    }
}
