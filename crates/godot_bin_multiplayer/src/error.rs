//! The multiplayer module's error type.

/// Why a packet was refused or a call could not be made.
///
/// Packets from the network that fail here are dropped by the sessions, as the engine drops
/// them (it prints an error and carries on); the session reports them as
/// [`Event::Refused`](super::Event::Refused) so a server can log or kick.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The packet ended before a field it must hold.
    #[error("packet too short: {0}")]
    Truncated(&'static str),
    /// The packet is malformed in a way the engine also refuses.
    #[error("invalid packet: {0}")]
    Invalid(&'static str),
    /// An argument or state value is not a valid Variant packet, or a value could not be
    /// encoded or decoded into the Rust type asked for.
    #[error("variant: {0}")]
    Variant(#[from] godot_bin::Error),
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
    Io(#[from] std::io::Error),
}

/// `Result` with the multiplayer [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
