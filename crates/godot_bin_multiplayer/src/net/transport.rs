//! [`ServerTransport`]: what a [`Host`](super::Host) drives, one per listening transport.
//! The bundled WebSocket and ENet servers implement it; a third-party transport (another
//! socket library, an in-process pipe for tests) does the same and joins a host through
//! [`HostBuilder::transport`](super::HostBuilder::transport).
//!
//! The host runs one turn at a time: it polls every transport for what arrived (peers
//! joining, packets, peers leaving), lets the session answer, hands the answers to the
//! transports ([`send`](ServerTransport::send), [`disconnect`](ServerTransport::disconnect))
//! and has them write ([`flush`](ServerTransport::flush)) before it waits; it sleeps until a
//! transport's socket wakes the task or until the earliest
//! [`next_wake`](ServerTransport::next_wake).

use crate::error::Result;
use crate::scene::TransferMode;
use std::net::SocketAddr;
use std::task::Context;
use std::time::Instant;

/// What a transport reports to the host as it polls.
#[derive(Debug)]
pub enum TransportEvent<'a> {
    /// A peer finished connecting, with the Godot peer id it goes by. The host answers
    /// whether to keep it (`false`: an id already taken, or the session refused it), and a
    /// transport drops a peer it was told not to keep.
    Connected(i32),
    /// A SceneMultiplayer packet from peer `from`, on SceneMultiplayer channel `channel`
    /// in `mode` (a WebSocket packet: channel 0, reliable). Borrowed: the host's session
    /// reads it before the transport reuses its buffer.
    Packet {
        /// The sender's peer id.
        from: i32,
        /// The SceneMultiplayer channel.
        channel: u8,
        /// How it came.
        mode: TransferMode,
        /// The packet.
        data: &'a [u8],
    },
    /// A peer left, or its connection failed.
    Disconnected(i32),
}

/// What became of a packet handed to [`ServerTransport::send`].
#[derive(Debug)]
pub enum Sent {
    /// Queued for the peer (written by the next flush). A transport that copied the bytes
    /// hands the buffer back, for the session to write its next packet into
    /// ([`Server::recycle`](crate::Server::recycle)).
    Queued(Option<Vec<u8>>),
    /// The peer is not this transport's: the packet comes back, for the next transport.
    NotMine(Vec<u8>),
    /// The peer could not keep up (its queue is full) and is closed; the host drops it
    /// from the session, as the engine drops a peer whose queue overflows.
    TooSlow,
}

/// A server transport a [`Host`](super::Host) drives: where peers come from and where their
/// packets go. Sans-IO beside the host's loop: nothing here waits; a transport registers
/// `cx` for whatever will wake it (a socket becoming readable) and says when its own timers
/// fall due.
pub trait ServerTransport: Send {
    /// Takes what arrived since the last poll, telling `on` about each event as it comes
    /// (for [`TransportEvent::Connected`], `on` says whether to keep the peer), and
    /// registers `cx` to be woken when more arrives. `now` is the turn's time, for the
    /// transport's own timers. Returns whether anything happened.
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> Result<bool>;

    /// Queues `data` for peer `to` on SceneMultiplayer `channel` in `mode`.
    fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) -> Sent;

    /// Closes peer `to`'s connection (what was queued for it goes first where the transport
    /// can); whether the peer was this transport's.
    fn disconnect(&mut self, to: i32) -> bool;

    /// Writes what was queued since the last flush. The host calls it once a turn, before
    /// it waits.
    fn flush(&mut self);

    /// When the transport must be polled even if nothing wakes it (ENet's retransmission
    /// and ping timers; a failed `accept` to retry); `None`: only when woken.
    fn next_wake(&self) -> Option<Instant>;

    /// The address the transport listens on, if it has one.
    fn local_addr(&self) -> Option<SocketAddr>;
}

/// What a client transport reports as it polls.
#[derive(Debug)]
pub enum LinkEvent<'a> {
    /// A packet from the server, on SceneMultiplayer channel `channel` in `mode`.
    Packet {
        /// The SceneMultiplayer channel.
        channel: u8,
        /// How it came.
        mode: TransferMode,
        /// The packet, borrowed until `on` returns.
        data: &'a [u8],
    },
    /// The link to the server is gone.
    Closed,
}

/// A client transport a [`Peer`](super::Peer) drives: its one link to the server (peer 1).
/// The bundled WebSocket and ENet clients implement it; another joins a peer through
/// [`PeerBuilder::connect_with`](super::PeerBuilder::connect_with).
pub trait ClientTransport: Send {
    /// Takes what arrived from the server, telling `on` about each packet (and about the
    /// link closing), and registers `cx` to be woken when more arrives. `now` is the
    /// turn's time, for the transport's own timers. Returns whether anything happened.
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(LinkEvent<'_>),
    ) -> Result<bool>;

    /// Queues `data` for the server on SceneMultiplayer `channel` in `mode`.
    fn send(&mut self, channel: u8, mode: TransferMode, data: Vec<u8>);

    /// Writes what is queued: `Ready(Ok(()))` when it is all out, `Pending` (with `cx`
    /// registered) while the link cannot take it yet, an error when the link failed.
    fn poll_flush(&mut self, cx: &mut Context<'_>) -> std::task::Poll<Result<()>>;

    /// Starts closing the link (what is queued goes first where the transport can); the
    /// next [`poll_flush`](Self::poll_flush) finishes it.
    fn close(&mut self);

    /// When the transport must be polled even if nothing wakes it; `None`: only when
    /// woken.
    fn next_wake(&self) -> Option<Instant>;
}
