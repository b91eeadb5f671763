//! ENet links on `rusty_enet` (ENet 1.3, no checksum, no compression, as
//! `ENetMultiplayerPeer` uses it), over a tokio UDP socket so that a task can wait for
//! datagrams.

use super::shards::Shards;
use super::udp::bind_server;
use super::{enet_channel, from_enet_channel};
use crate::multiplayer::scene::TransferMode;
use rusty_enet::{EventNoRef, Packet, PacketKind, PeerID};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tokio::net::UdpSocket;

/// Datagrams read in one turn of the host's loop, drained or not: when datagrams come
/// faster than the host answers them (a starved core), reading until the socket drained
/// never ended, so the WebSocket side, the answers and the timers never got their turn;
/// the session's answers piled up (the soak reached 900 MB and 8,000 sockets in
/// CLOSE-WAIT). The host's loop comes back at once while the socket is readable. (Eight of
/// ENet's own receive passes, 256 datagrams each.)
const MAX_DATAGRAMS: usize = 8 * 256;

/// What an ENet link reports.
pub(crate) enum EnetEvent<'a> {
    /// A peer connected (server: with the Godot id it chose).
    Connected(i32),
    /// A packet.
    Packet {
        from: i32,
        channel: u8,
        mode: TransferMode,
        data: &'a [u8],
    },
    /// A peer left.
    Disconnected(i32),
}

/// ENet hosts on one socket ([`Shards`]) and the Godot peer ids of their ENet peers.
pub(crate) struct EnetLink {
    shards: Shards,
    socket: Arc<UdpSocket>,
    is_server: bool,
    /// Godot id by [`Shards::index`] of the ENet peer (0: none; Godot ids are 1 or more),
    /// one entry more than there are slots (see [`EnetLink::godot_id`]).
    by_enet: Vec<i32>,
    by_godot: HashMap<i32, (usize, PeerID)>,
    max_packet: usize,
}

impl EnetLink {
    fn new(
        socket: UdpSocket,
        peers: usize,
        is_server: bool,
        max_packet: usize,
    ) -> io::Result<Self> {
        let socket = Arc::new(socket);
        // The engine's hosts allow the protocol's maximum of channels, 255.
        let shards = Shards::new(socket.clone(), peers, 255, max_packet)?;
        Ok(EnetLink {
            by_enet: vec![0; shards.peer_limit() + 1],
            shards,
            socket,
            is_server,
            by_godot: HashMap::new(),
            max_packet,
        })
    }

    /// A server host on `addr`.
    pub(crate) async fn server(
        addr: SocketAddr,
        peers: usize,
        max_packet: usize,
    ) -> io::Result<Self> {
        EnetLink::new(bind_server(addr)?, peers.clamp(1, 4095), true, max_packet)
    }

    /// A client host connecting to `addr` as Godot peer `id` (the id travels in the
    /// CONNECT command's data, as `ENetMultiplayerPeer` sends it).
    pub(crate) async fn client(addr: SocketAddr, id: i32, max_packet: usize) -> io::Result<Self> {
        let local: SocketAddr = if addr.is_ipv6() {
            "[::]:0".parse().expect("literal")
        } else {
            "0.0.0.0:0".parse().expect("literal")
        };
        let socket = UdpSocket::bind(local).await?;
        let mut link = EnetLink::new(socket, 1, false, max_packet)?;
        let pid = link.shards.connect(addr, 255, id as u32)?;
        *link.godot_id(0, pid) = 1;
        link.by_godot.insert(1, (0, pid));
        Ok(link)
    }

    /// The Godot id of ENet peer `peer` of host `k` (0: none). ENet names only peers
    /// below its hosts' limits, which have entries; the entry past them stands in for any
    /// other rather than a panic.
    fn godot_id(&mut self, k: usize, peer: PeerID) -> &mut i32 {
        let i = self.shards.index(k, peer).min(self.shards.peer_limit());
        &mut self.by_enet[i]
    }

    pub(crate) fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    pub(crate) fn socket(&self) -> Arc<UdpSocket> {
        self.socket.clone()
    }

    /// Whether a datagram may be waiting; if not, `cx` is woken when one arrives.
    pub(crate) fn poll_readable(&self, cx: &mut std::task::Context<'_>) -> bool {
        self.socket.poll_recv_ready(cx).is_ready()
    }

    /// Reads what is waiting (up to [`MAX_DATAGRAMS`]) and runs the ENet hosts it came
    /// for, or with `all` every host (ENet's timers run only inside `service`), until each
    /// has given ENet everything it was delivered, telling `on` what happened as it
    /// happens (packets borrowed from ENet, no copy); `on` says for `Connected` whether to
    /// keep the peer. Whether anything happened.
    ///
    /// A `service` reads the host's delivered datagrams (up to 256) and queues their
    /// packets, which `check_events` (no I/O) then drains; the answers go out in the next
    /// `flush`. What ENet sends meanwhile (acknowledgements, pings, retransmissions) is
    /// held by the socket: when something happened, to go out with the answers at the
    /// caller's next [`flush`](Self::flush), which it must call before it waits; when
    /// nothing did, here.
    pub(crate) fn service(
        &mut self,
        all: bool,
        mut on: impl FnMut(EnetEvent<'_>) -> bool,
    ) -> io::Result<bool> {
        self.shards.read(MAX_DATAGRAMS)?;
        let mut any = false;
        for k in 0..self.shards.len() {
            let touched = self.shards.take_touched(k);
            if !(touched || all) {
                continue;
            }
            loop {
                // A `service` that returns nothing has read at least one datagram, if
                // any was left; one that returns an event may not have (a peer's
                // timeout comes first), so the loop asks the inbox.
                if let Some(event) = self
                    .shards
                    .host_mut(k)
                    .service()?
                    .map(rusty_enet::Event::no_ref)
                {
                    any = true;
                    self.dispatch(k, event, &mut on);
                    while let Some(event) = self.shards.host_mut(k).check_events() {
                        let event = event.no_ref();
                        self.dispatch(k, event, &mut on);
                    }
                }
                if self.shards.host_mut(k).socket().inbox_is_empty() {
                    break;
                }
            }
        }
        if !any {
            // No answer will follow: what ENet queued goes now.
            self.shards.send_held();
        }
        self.shards.tidy(Instant::now());
        Ok(any)
    }

    fn dispatch(
        &mut self,
        k: usize,
        event: EventNoRef,
        on: &mut impl FnMut(EnetEvent<'_>) -> bool,
    ) {
        match event {
            EventNoRef::Connect { peer, data } => {
                if !self.is_server {
                    on(EnetEvent::Connected(1));
                    return;
                }
                // The engine resets a peer whose id is below 2 or taken.
                let id = data as i32;
                if id < 2 || self.by_godot.contains_key(&id) {
                    self.shards.host_mut(k).peer_mut(peer).reset();
                    return;
                }
                *self.godot_id(k, peer) = id;
                self.by_godot.insert(id, (k, peer));
                if !on(EnetEvent::Connected(id)) {
                    self.reset(id);
                }
            }
            EventNoRef::Receive {
                peer,
                channel_id,
                packet,
            } => {
                let from = *self.godot_id(k, peer);
                if from == 0 {
                    return;
                }
                let data = packet.data();
                if data.is_empty() || data.len() > self.max_packet {
                    return;
                }
                let (channel, mode) = from_enet_channel(channel_id);
                on(EnetEvent::Packet {
                    from,
                    channel,
                    mode,
                    data,
                });
            }
            EventNoRef::Disconnect { peer, .. } => {
                let id = std::mem::take(self.godot_id(k, peer));
                if id != 0 {
                    self.by_godot.remove(&id);
                    on(EnetEvent::Disconnected(id));
                }
            }
        }
    }

    /// Queues a packet with the flags and channel the engine uses for this mode.
    pub(crate) fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        let Some(&(k, pid)) = self.by_godot.get(&to) else {
            return;
        };
        let kind = match mode {
            TransferMode::Reliable => PacketKind::Reliable,
            TransferMode::Unreliable => PacketKind::AlwaysUnreliable { sequenced: false },
            TransferMode::UnreliableOrdered => PacketKind::AlwaysUnreliable { sequenced: true },
        };
        if let Some(peer) = self.shards.host_mut(k).get_peer_mut(pid) {
            // A full queue or a peer going away: ENet drops the packet, as the engine does.
            let _ = peer.send(enet_channel(channel, mode), &Packet::new(data, kind));
            self.shards.queued(k);
        }
    }

    /// Starts a graceful disconnect; the peer is forgotten at once.
    pub(crate) fn disconnect(&mut self, id: i32) {
        if let Some((k, pid)) = self.by_godot.remove(&id) {
            *self.godot_id(k, pid) = 0;
            if let Some(peer) = self.shards.host_mut(k).get_peer_mut(pid) {
                peer.disconnect(0);
                self.shards.queued(k);
            }
        }
    }

    /// Drops a peer at once (the engine's reset for a refused id).
    pub(crate) fn reset(&mut self, id: i32) {
        if let Some((k, pid)) = self.by_godot.remove(&id) {
            *self.godot_id(k, pid) = 0;
            if let Some(peer) = self.shards.host_mut(k).get_peer_mut(pid) {
                peer.reset();
            }
        }
    }

    /// Sends what is queued, and what `service` held, merged per peer.
    pub(crate) fn flush(&mut self) {
        self.shards.flush();
    }
}
