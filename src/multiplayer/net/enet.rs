//! ENet links on `rusty_enet` (ENet 1.3, no checksum, no compression, as
//! `ENetMultiplayerPeer` uses it), over a tokio UDP socket so that a task can wait for
//! datagrams.

use super::udp::{bind_server, Udp};
use super::{enet_channel, from_enet_channel};
use crate::multiplayer::scene::TransferMode;
use rusty_enet::{EventNoRef, Host, HostSettings, Packet, PacketKind, PeerID};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::UdpSocket;

/// `service` passes in one turn of the host's loop (each reads what is waiting, up to
/// ENet's own per-call limit).
const MAX_PASSES: usize = 8;

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

/// One ENet host and the Godot peer ids of its ENet peers.
pub(crate) struct EnetLink {
    host: Host<Udp>,
    socket: Arc<UdpSocket>,
    is_server: bool,
    /// ENet peer index to Godot id.
    by_enet: HashMap<usize, i32>,
    by_godot: HashMap<i32, PeerID>,
    max_packet: usize,
    /// Something was queued since the last flush.
    queued: bool,
}

impl EnetLink {
    fn new(
        socket: UdpSocket,
        peers: usize,
        is_server: bool,
        max_packet: usize,
    ) -> io::Result<Self> {
        let socket = Arc::new(socket);
        let settings = HostSettings {
            peer_limit: peers,
            // The engine's hosts allow the protocol's maximum, 255.
            channel_limit: 255,
            ..HostSettings::default()
        };
        let mut host = Host::new(Udp::new(socket.clone()), settings)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        host.set_maximum_packet_size(max_packet)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        Ok(EnetLink {
            host,
            socket,
            is_server,
            by_enet: HashMap::new(),
            by_godot: HashMap::new(),
            max_packet,
            queued: false,
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
        let peer = link
            .host
            .connect(addr, 255, id as u32)
            .map_err(|_| io::Error::other("no ENet peer slot"))?;
        let pid = peer.id();
        link.by_enet.insert(pid.0, 1);
        link.by_godot.insert(1, pid);
        Ok(link)
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

    /// Runs ENet until it has nothing more to report (or for [`MAX_PASSES`]), telling `on`
    /// what happened as it happens (packets borrowed from ENet, no copy); `on` says for
    /// `Connected` whether to keep the peer. Whether anything happened.
    ///
    /// One `service` reads every waiting datagram and queues their packets; the queue is
    /// then drained with `check_events`, which does no I/O. Another `service` runs only if
    /// the socket was not drained, so a turn costs one receive-and-send pass over ENet's
    /// peers (a `service` that finds nothing costs two), and the answers go out in the
    /// next `flush`.
    ///
    /// What ENet sends meanwhile (acknowledgements, pings, retransmissions) is held by the
    /// socket: when something happened, to go out with the answers at the caller's next
    /// [`flush`](Self::flush), which it must call before it waits; when nothing did, here.
    pub(crate) fn service(
        &mut self,
        mut on: impl FnMut(EnetEvent<'_>) -> bool,
    ) -> io::Result<bool> {
        let mut any = false;
        // At most this many passes a turn, drained or not: when datagrams come faster than
        // the host answers them (a starved core), servicing until the socket drains never
        // ended, so the WebSocket side, the answers and the timers never got their turn;
        // the session's answers piled up (the soak reached 900 MB and 8,000 sockets in
        // CLOSE-WAIT). The host's loop comes back at once while the socket is readable.
        for _ in 0..MAX_PASSES {
            self.host.socket_mut().drained = false;
            let Some(event) = self.host.service()?.map(rusty_enet::Event::no_ref) else {
                break;
            };
            any = true;
            self.dispatch(event, &mut on);
            while let Some(event) = self.host.check_events().map(rusty_enet::Event::no_ref) {
                self.dispatch(event, &mut on);
            }
            if self.host.socket().drained {
                break;
            }
        }
        if !any {
            // No answer will follow: what ENet queued goes now.
            self.host.socket_mut().send_held();
        }
        Ok(any)
    }

    fn dispatch(&mut self, event: EventNoRef, on: &mut impl FnMut(EnetEvent<'_>) -> bool) {
        match event {
            EventNoRef::Connect { peer, data } => {
                if !self.is_server {
                    on(EnetEvent::Connected(1));
                    return;
                }
                // The engine resets a peer whose id is below 2 or taken.
                let id = data as i32;
                if id < 2 || self.by_godot.contains_key(&id) {
                    self.host.peer_mut(peer).reset();
                    return;
                }
                self.by_enet.insert(peer.0, id);
                self.by_godot.insert(id, peer);
                if !on(EnetEvent::Connected(id)) {
                    self.reset(id);
                }
            }
            EventNoRef::Receive {
                peer,
                channel_id,
                packet,
            } => {
                let Some(&from) = self.by_enet.get(&peer.0) else {
                    return;
                };
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
                if let Some(id) = self.by_enet.remove(&peer.0) {
                    self.by_godot.remove(&id);
                    on(EnetEvent::Disconnected(id));
                }
            }
        }
    }

    /// Queues a packet with the flags and channel the engine uses for this mode.
    pub(crate) fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        let Some(&pid) = self.by_godot.get(&to) else {
            return;
        };
        let kind = match mode {
            TransferMode::Reliable => PacketKind::Reliable,
            TransferMode::Unreliable => PacketKind::AlwaysUnreliable { sequenced: false },
            TransferMode::UnreliableOrdered => PacketKind::AlwaysUnreliable { sequenced: true },
        };
        if let Some(peer) = self.host.get_peer_mut(pid) {
            // A full queue or a peer going away: ENet drops the packet, as the engine does.
            let _ = peer.send(enet_channel(channel, mode), &Packet::new(data, kind));
            self.queued = true;
        }
    }

    /// Starts a graceful disconnect; the peer is forgotten at once.
    pub(crate) fn disconnect(&mut self, id: i32) {
        if let Some(pid) = self.by_godot.remove(&id) {
            self.by_enet.remove(&pid.0);
            if let Some(peer) = self.host.get_peer_mut(pid) {
                peer.disconnect(0);
                self.queued = true;
            }
        }
    }

    /// Drops a peer at once (the engine's reset for a refused id).
    pub(crate) fn reset(&mut self, id: i32) {
        if let Some(pid) = self.by_godot.remove(&id) {
            self.by_enet.remove(&pid.0);
            if let Some(peer) = self.host.get_peer_mut(pid) {
                peer.reset();
            }
        }
    }

    /// Sends what is queued, and what `service` held, merged per peer. ENet's flush is a
    /// pass over every peer slot (4,095 on a server): skipped when nothing was queued,
    /// since acknowledgements and ENet's own commands come out of `service`.
    pub(crate) fn flush(&mut self) {
        if std::mem::take(&mut self.queued) {
            self.host.flush();
        }
        if self.host.socket().has_held() {
            self.host.socket_mut().send_held();
        }
    }
}
