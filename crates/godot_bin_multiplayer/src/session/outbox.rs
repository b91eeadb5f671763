//! The outbox: what the session has for its driver ([`Output`]: packets, disconnects) and
//! for its game ([`Event`]), in the order it was produced, and the packet buffers the
//! driver handed back for reuse.

use super::io::{Event, Output, Transmit};
use crate::scene::TransferMode;
use std::collections::VecDeque;

/// How many sent packet buffers a session keeps for reuse.
pub(super) const SPARE_BUFFERS: usize = 64;
/// The largest buffer kept for reuse (bytes of capacity).
pub(super) const SPARE_CAPACITY: usize = 2048;

#[derive(Debug, Default)]
pub(super) struct Outbox {
    out: VecDeque<Output>,
    events: VecDeque<Event>,
    /// Packet buffers the driver has written out and handed back
    /// ([`Server::recycle`](super::Server::recycle)): a packet reuses one instead of
    /// allocating.
    pub(super) spare: Vec<Vec<u8>>,
    /// The packet of a call to many peers, kept between calls for its capacity.
    scratch: Vec<u8>,
}

impl Outbox {
    /// Queues `data` for peer `to`.
    pub(super) fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        self.out.push_back(Output::Send(Transmit {
            to,
            channel,
            mode,
            data,
        }));
    }

    /// Asks the transport to close peer `id`'s link.
    pub(super) fn disconnect(&mut self, id: i32) {
        self.out.push_back(Output::Disconnect(id));
    }

    /// Tells the game.
    pub(super) fn event(&mut self, event: Event) {
        self.events.push_back(event);
    }

    pub(super) fn next_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    pub(super) fn next_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    pub(super) fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    /// Keeps `buf` (already sent) for a later packet: at most [`SPARE_BUFFERS`] of them,
    /// none larger than [`SPARE_CAPACITY`], so that a burst of big packets is not held.
    pub(super) fn recycle(&mut self, mut buf: Vec<u8>) {
        if self.spare.len() < SPARE_BUFFERS && buf.capacity() <= SPARE_CAPACITY {
            buf.clear();
            self.spare.push(buf);
        }
    }

    /// A buffer for a packet: a recycled one if there is one.
    pub(super) fn buffer(&mut self) -> Vec<u8> {
        self.spare.pop().unwrap_or_default()
    }

    /// The scratch buffer, empty, lent until [`put_scratch`](Self::put_scratch).
    pub(super) fn take_scratch(&mut self) -> Vec<u8> {
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        buf
    }

    pub(super) fn put_scratch(&mut self, buf: Vec<u8>) {
        self.scratch = buf;
    }

    /// The events not taken yet, which outlive a client's reset.
    pub(super) fn take_events(&mut self) -> VecDeque<Event> {
        std::mem::take(&mut self.events)
    }

    pub(super) fn restore_events(&mut self, events: VecDeque<Event>) {
        self.events = events;
    }
}
