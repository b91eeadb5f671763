//! The crate's [`Error`]: what went wrong ([`ErrorKind`]), in the shape every godot_bin
//! crate's error has (a kind to match on, the position and path where there are any, a
//! `Display` and a `Debug` that read as one sentence).

use std::fmt;

/// Why a packet was refused or a call could not be made. Match on it through
/// [`Error::kind`].
///
/// Packets from the network that fail here are dropped by the sessions, as the engine drops
/// them (it prints an error and carries on); the session reports them as
/// [`Event::Refused`](super::Event::Refused) so a server can log or kick.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The packet ended before a field it must hold.
    #[error("packet too short: {0}")]
    Truncated(&'static str),
    /// The packet is malformed in a way the engine also refuses.
    #[error("invalid packet: {0}")]
    Invalid(&'static str),
    /// An argument or state value is not a valid Variant packet, or a value could not be
    /// encoded or decoded into the Rust type asked for: the format's own error, with its
    /// offset and path.
    #[error("variant: {0}")]
    Variant(godot_bin::Error),
    /// No node with this path (or cache id) is declared or known.
    #[error("unknown node {0}")]
    UnknownNode(String),
    /// The node has no RPC with this name or id.
    #[error("node {node} has no RPC {method}")]
    UnknownMethod {
        /// The node's path.
        node: String,
        /// The method name, or `#id` when it came as an id.
        method: String,
    },
    /// The peer is not connected (or not yet admitted).
    #[error("peer {0} is not connected")]
    UnknownPeer(i32),
    /// The sender may not do this (RPC mode, authority, auth not completed, relay rules).
    #[error("not allowed: {0}")]
    NotAllowed(&'static str),
    /// A limit set in the session's options was reached.
    #[error("limit reached: {0}")]
    Limit(&'static str),
    /// A transport failed.
    #[error("transport: {0}")]
    Transport(String),
    /// I/O failed.
    #[error("I/O: {0}")]
    Io(std::io::Error),
}

/// An error of the multiplayer sessions and transports.
///
/// ```
/// use godot_bin_multiplayer::{ErrorKind, NodeConfig, Options, Rpc, Scene, Server};
/// use std::sync::Arc;
///
/// let scene = Scene::new().with(NodeConfig::new("Game").rpc(Rpc::any_peer("hello")))?;
/// let mut server = Server::new(Arc::new(scene), Options::default());
/// let err = server.rpc_id(7, "Game", "hello", &("hi",)).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::UnknownPeer(7)));
/// assert_eq!(err.to_string(), "peer 7 is not connected");
/// // `Debug` reads the same, so `fn main() -> Result<(), Error>` prints the sentence.
/// assert_eq!(format!("{err:?}"), err.to_string());
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
pub struct Error {
    kind: Box<ErrorKind>,
}

/// `Result` with the multiplayer [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// What went wrong, by value.
    pub fn into_kind(self) -> ErrorKind {
        *self.kind
    }

    /// Where in a Variant's packet a [`ErrorKind::Variant`] error was found (the
    /// format's own [`godot_bin::Error::position`]); `None` for the others, which concern
    /// a whole packet or call.
    pub fn position(&self) -> Option<godot_bin::Position> {
        match self.kind() {
            ErrorKind::Variant(e) => e.position(),
            _ => None,
        }
    }

    /// Where in the value, for a [`ErrorKind::Variant`] error (`args[1].hp`); empty
    /// otherwise.
    pub fn path(&self) -> String {
        match self.kind() {
            ErrorKind::Variant(e) => e.path(),
            _ => String::new(),
        }
    }
}

impl From<ErrorKind> for Error {
    fn from(kind: ErrorKind) -> Self {
        Error {
            kind: Box::new(kind),
        }
    }
}

impl From<godot_bin::Error> for Error {
    fn from(e: godot_bin::Error) -> Self {
        ErrorKind::Variant(e).into()
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        ErrorKind::Io(e).into()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.kind, f)
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
        match self.kind() {
            ErrorKind::Variant(e) => Some(e),
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}
