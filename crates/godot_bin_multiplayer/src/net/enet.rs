//! ENet links on `rusty_enet` (ENet 1.3, no checksum, no compression, as
//! `ENetMultiplayerPeer` uses it), over a tokio UDP socket so that a task can wait for
//! datagrams.

use super::shards::Shards;
use super::transport::{ClientTransport, LinkEvent, Sent, ServerTransport, TransportEvent};
use super::udp::{bind_server, Udp};
use crate::map::Map;
use crate::scene::TransferMode;
use crate::wire::{self, Sys};
use rusty_enet::{Event, Packet, PacketKind};
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::task::Context;
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;

/// ENet channel for a SceneMultiplayer channel and mode: channels 0 and 1 are the
/// engine's system channels (reliable, unreliable); user channel c is ENet channel c + 1.
fn enet_channel(channel: u8, mode: TransferMode) -> u8 {
    match (channel, mode) {
        (0, TransferMode::Reliable) => 0,
        (0, _) => 1,
        (c, _) => c.saturating_add(1),
    }
}

/// SceneMultiplayer channel and mode of a packet that came on ENet channel `ch`. The mode
/// is not read from the packet: `rusty_enet` 0.4.1's `Packet::kind()` reports every
/// received packet as reliable. Channel 1 carries only unreliable packets; on the user
/// channels the mode is taken as reliable, which only matters when the packet is relayed
/// (a relayed packet then keeps its order and arrives).
fn from_enet_channel(ch: u8) -> (u8, TransferMode) {
    match ch {
        0 => (0, TransferMode::Reliable),
        1 => (0, TransferMode::Unreliable),
        c => (c - 1, TransferMode::Reliable),
    }
}

/// ENet hosts on one socket ([`Shards`]) and the Godot peer ids of their ENet peers.
pub(crate) struct EnetLink {
    shards: Shards,
    socket: Arc<UdpSocket>,
    is_server: bool,
    /// The ids of the ENet peers, by the index [`Shards`] gives them.
    ids: Ids,
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
            ids: Ids {
                by_enet: vec![0; shards.peer_limit() + 1],
                unheard: vec![0; shards.peer_limit() + 1],
                seen: vec![0; shards.peer_limit() + 1],
                by_godot: Map::default(),
                held: Map::default(),
            },
            shards,
            socket,
            is_server,
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
        // `Udp::send_held` sends with `try_send_to`, which fails with WouldBlock, without a
        // system call, until the reactor has seen the new socket writable: the CONNECT was
        // dropped and ENet sent it again only after its 500 ms retransmission timeout (a
        // bot took 505 ms to connect on loopback; issue 39).
        socket.writable().await?;
        let mut link = EnetLink::new(socket, 1, false, max_packet)?;
        let index = link.shards.connect(addr, 255, id as u32)?;
        link.ids.insert(1, index);
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

    /// One turn of the hosts at `now` ([`Shards::run`]: what is waiting, for the hosts
    /// it came for, or with `all` for every host), telling `on` what happened as it
    /// happens (packets borrowed from ENet, no copy); `on` says for `Connected` whether to
    /// keep the peer (a client's link reports its server as peer 1). Whether anything
    /// happened.
    ///
    /// What ENet sent meanwhile (acknowledgements, pings, retransmissions) is held: when
    /// something happened, to go out with the answers at the caller's next
    /// [`flush`](Self::flush), which it must call before it waits; when nothing did, here.
    pub(crate) fn service(
        &mut self,
        now: Instant,
        all: bool,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> io::Result<bool> {
        let (ids, is_server, max_packet) = (&mut self.ids, self.is_server, self.max_packet);
        let any = self.shards.run(all, |index, event| {
            dispatch(ids, is_server, max_packet, index, event, on);
            false
        })?;
        self.release_notices();
        if !any {
            // No answer will follow: what ENet queued goes now.
            self.shards.send_held();
        }
        self.shards.tidy(now);
        Ok(any)
    }

    /// Queues a packet with the flags and channel the engine uses for this mode; false if
    /// the peer has more than `limit` reliable packets queued since it was last heard from
    /// (nothing is queued then: the caller drops the peer as too slow).
    ///
    /// ENet keeps a reliable packet until the peer acknowledges it, so a peer that vanished
    /// holds every one sent to it until ENet times it out (5 to 30 s after its first
    /// unanswered datagram), and rusty_enet 0.4 does not say how many it holds. Heard
    /// from: ENet counted bytes from the peer (a packet, an acknowledgement or a ping) in
    /// its current one-second window; a live peer acknowledges what it receives and
    /// answers ENet's pings, so its count starts again within a round trip.
    ///
    /// A peer notice (SceneMultiplayer's "peer joined" / "peer left") to a peer not heard
    /// from since something was last sent to it is held as the id it names, 4 bytes
    /// instead of an ENet command and its packet, and sent when the peer is heard from,
    /// before anything else sent to it; the peer's leaving drops it. When many peers leave
    /// at once, every one left is sent a notice for each: the ones that vanished too
    /// acknowledge none, and ENet held each notice until it timed them out (the soak's
    /// mass-disconnect step, the crate's benches/RESULTS.md). Held notices count toward
    /// `limit` as queued ones do.
    pub(crate) fn send(
        &mut self,
        to: i32,
        channel: u8,
        mode: TransferMode,
        data: Vec<u8>,
        limit: u32,
    ) -> bool {
        let Some(&index) = self.ids.by_godot.get(&to) else {
            return true;
        };
        let kind = match mode {
            TransferMode::Reliable => PacketKind::Reliable,
            TransferMode::Unreliable => PacketKind::AlwaysUnreliable { sequenced: false },
            TransferMode::UnreliableOrdered => PacketKind::AlwaysUnreliable { sequenced: true },
        };
        let Some(peer) = self.shards.peer_mut(index) else {
            return true;
        };
        if kind == PacketKind::Reliable {
            let total = peer.incoming_data_total();
            let unheard = self.ids.unheard(index);
            if total > 0 {
                *unheard = 0;
            }
            if *unheard >= limit {
                return false;
            }
            *unheard += 1;
            // Heard from since the last send: ENet counted more bytes from it in this
            // window than it had then (a window that began since counts nothing yet).
            let seen = self.ids.seen(index);
            let heard = total > 0 && total != *seen;
            *seen = total;
            if !heard {
                if let Some(id) = notice(&data) {
                    self.ids.held.entry(index).or_default().push(id);
                    return true;
                }
            }
        }
        // What was held for the peer goes first, in order.
        if let Some(held) = self.ids.held.remove(&index) {
            send_notices(peer, &held);
        }
        // A full queue or a peer going away: ENet drops the packet, as the engine does.
        let _ = peer.send(enet_channel(channel, mode), &Packet::new(data, kind));
        self.shards.queued(index);
        true
    }

    /// Sends the notices held for the peers heard from since.
    fn release_notices(&mut self) {
        if self.ids.held.is_empty() {
            return;
        }
        let heard: Vec<usize> = self
            .ids
            .held
            .keys()
            .copied()
            .filter(|&index| {
                let total = self
                    .shards
                    .peer_mut(index)
                    .map_or(0, |p| p.incoming_data_total());
                total > 0 && total != self.ids.seen[index.min(self.ids.seen.len() - 1)]
            })
            .collect();
        for index in heard {
            let held = self.ids.held.remove(&index).unwrap_or_default();
            if let Some(peer) = self.shards.peer_mut(index) {
                *self.ids.seen(index) = peer.incoming_data_total();
                send_notices(peer, &held);
                self.shards.queued(index);
            }
        }
    }

    /// How many peer notices are held for Godot peer `id` (for the tests).
    #[cfg(test)]
    fn held_for(&self, id: i32) -> usize {
        self.ids
            .by_godot
            .get(&id)
            .and_then(|index| self.ids.held.get(index))
            .map_or(0, Vec::len)
    }

    /// Starts a graceful disconnect; the peer is forgotten at once.
    pub(crate) fn disconnect(&mut self, id: i32) {
        if let Some(index) = self.ids.remove(id) {
            if let Some(peer) = self.shards.peer_mut(index) {
                peer.disconnect(0);
                self.shards.queued(index);
            }
        }
    }

    /// Sends what is queued, and what `service` held, merged per peer.
    pub(crate) fn flush(&mut self) {
        self.shards.flush();
    }
}

/// Godot ids and ENet peers, both ways.
struct Ids {
    /// Godot id by the peer's index (0: none; Godot ids are 1 or more), one entry more than
    /// there are slots (see [`Ids::at`]).
    by_enet: Vec<i32>,
    /// Reliable packets queued to the peer at each index since it was last heard from.
    unheard: Vec<u32>,
    /// The bytes ENet had counted from the peer at each index in its current window when
    /// something reliable was last sent to it: more since, and it was heard from.
    seen: Vec<u32>,
    by_godot: Map<i32, usize>,
    /// Peer notices held for the peer at each index (see [`EnetLink::send`]), in order:
    /// the id of a peer that joined, minus the id of one that left.
    held: Map<usize, Vec<i32>>,
}

impl Ids {
    /// The Godot id of the peer at `index` (0: none). ENet names only peers below its
    /// hosts' limits, which have entries; the entry past them stands in for any other
    /// rather than a panic.
    fn at(&mut self, index: usize) -> &mut i32 {
        let last = self.by_enet.len() - 1;
        &mut self.by_enet[index.min(last)]
    }

    fn insert(&mut self, id: i32, index: usize) {
        *self.at(index) = id;
        *self.unheard(index) = 0;
        *self.seen(index) = 0;
        self.held.remove(&index);
        self.by_godot.insert(id, index);
    }

    /// The count of reliable packets queued to the peer at `index` since it was last heard
    /// from (the entry past the slots stands in for any other, as in [`Ids::at`]).
    fn unheard(&mut self, index: usize) -> &mut u32 {
        let last = self.unheard.len() - 1;
        &mut self.unheard[index.min(last)]
    }

    /// [`Ids::seen`]'s entry for the peer at `index` (the entry past the slots stands in
    /// for any other, as in [`Ids::at`]).
    fn seen(&mut self, index: usize) -> &mut u32 {
        let last = self.seen.len() - 1;
        &mut self.seen[index.min(last)]
    }

    /// Forgets `id`; its peer's index.
    fn remove(&mut self, id: i32) -> Option<usize> {
        let index = self.by_godot.remove(&id)?;
        *self.at(index) = 0;
        self.held.remove(&index);
        Some(index)
    }

    /// Forgets the peer at `index`; its id, if it had one.
    fn remove_at(&mut self, index: usize) -> Option<i32> {
        let id = std::mem::take(self.at(index));
        self.held.remove(&index);
        (id != 0).then(|| {
            self.by_godot.remove(&id);
            id
        })
    }
}

/// The peer a SceneMultiplayer peer notice names: its id if it joined, minus its id if it
/// left; `None` for any other packet.
fn notice(data: &[u8]) -> Option<i32> {
    if data.len() != 6 || data[0] & wire::cmd::MASK != wire::cmd::SYS {
        return None;
    }
    match wire::parse_sys(data) {
        Ok(Sys::AddPeer(id)) => Some(id),
        Ok(Sys::DelPeer(id)) => Some(-id),
        _ => None,
    }
}

/// Queues the held notices `ids` (see [`notice`]) to `peer`, reliable on the system
/// channel, as the session would have sent them.
fn send_notices(peer: &mut rusty_enet::Peer<Udp>, ids: &[i32]) {
    for &id in ids {
        let mut buf = Vec::with_capacity(6);
        wire::put_peer_notice(&mut buf, id > 0, id.abs());
        let channel = enet_channel(0, TransferMode::Reliable);
        let _ = peer.send(channel, &Packet::new(buf, PacketKind::Reliable));
    }
}

/// Tells `on` what an ENet event means for the session, keeping `ids` in step.
fn dispatch(
    ids: &mut Ids,
    is_server: bool,
    max_packet: usize,
    index: usize,
    event: Event<'_, Udp>,
    on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
) {
    match event {
        Event::Connect { peer, data } => {
            if !is_server {
                on(TransportEvent::Connected(1));
                return;
            }
            // The engine resets a peer whose id is below 2 or taken.
            let id = data as i32;
            if id < 2 || ids.by_godot.contains_key(&id) {
                peer.reset();
                return;
            }
            ids.insert(id, index);
            if !on(TransportEvent::Connected(id)) {
                ids.remove(id);
                peer.reset();
            }
        }
        Event::Receive {
            channel_id, packet, ..
        } => {
            let from = *ids.at(index);
            if from == 0 {
                return;
            }
            let data = packet.data();
            if data.is_empty() || data.len() > max_packet {
                return;
            }
            let (channel, mode) = from_enet_channel(channel_id);
            on(TransportEvent::Packet {
                from,
                channel,
                mode,
                data,
            });
        }
        Event::Disconnect { .. } => {
            if let Some(id) = ids.remove_at(index) {
                on(TransportEvent::Disconnected(id));
            }
        }
    }
}

/// The bundled ENet server as a [`ServerTransport`]: an [`EnetLink`] and the timer that
/// services every one of its hosts regularly, datagram or not.
pub(crate) struct EnetServer {
    link: EnetLink,
    /// How often every host must be serviced: ENet runs its timers (retransmissions,
    /// pings, peer timeouts) only inside `service`, and a datagram services only the hosts
    /// it came for.
    service_interval: Duration,
    next_service: Instant,
    /// How many reliable packets a peer not heard from may have queued (see
    /// [`EnetLink::send`]).
    queue: u32,
}

impl EnetServer {
    /// A server serviced every `service_interval` from `now`.
    pub(crate) fn new(
        link: EnetLink,
        service_interval: Duration,
        queue: usize,
        now: Instant,
    ) -> Self {
        EnetServer {
            link,
            service_interval,
            next_service: now,
            queue: u32::try_from(queue).unwrap_or(u32::MAX),
        }
    }
}

impl ServerTransport for EnetServer {
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> crate::error::Result<bool> {
        let force = now >= self.next_service;
        // Registers the task for the next datagram when none is waiting.
        if !self.link.poll_readable(cx) && !force {
            return Ok(false);
        }
        if force {
            self.next_service = now + self.service_interval;
        }
        Ok(self.link.service(now, force, on)?)
    }

    fn send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) -> Sent {
        if !self.link.ids.by_godot.contains_key(&to) {
            return Sent::NotMine(data);
        }
        if self.link.send(to, channel, mode, data, self.queue) {
            Sent::Queued(None)
        } else {
            Sent::TooSlow
        }
    }

    fn disconnect(&mut self, to: i32) -> bool {
        let ours = self.link.ids.by_godot.contains_key(&to);
        self.link.disconnect(to);
        ours
    }

    fn flush(&mut self) {
        self.link.flush()
    }

    fn next_wake(&self) -> Option<Instant> {
        Some(self.next_service)
    }

    fn local_addr(&self) -> Option<SocketAddr> {
        self.link.local_addr().ok()
    }
}

/// The bundled ENet client as a [`ClientTransport`]: its link to the server (ENet peer
/// 1) and the timer that services it regularly.
pub(crate) struct EnetClient {
    link: EnetLink,
    /// How long the link may go without a `service` call while waiting: ENet runs its
    /// retransmissions, pings and timeouts only inside `service`.
    service_interval: Duration,
    next_service: Instant,
}

impl EnetClient {
    /// A client serviced at least every `service_interval` from `now`.
    pub(crate) fn new(link: EnetLink, service_interval: Duration, now: Instant) -> Self {
        EnetClient {
            link,
            service_interval,
            next_service: now + service_interval,
        }
    }
}

impl ClientTransport for EnetClient {
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(LinkEvent<'_>),
    ) -> crate::error::Result<bool> {
        let any = self.link.service(now, true, &mut |ev| {
            match ev {
                TransportEvent::Packet {
                    channel,
                    mode,
                    data,
                    ..
                } => on(LinkEvent::Packet {
                    channel,
                    mode,
                    data,
                }),
                TransportEvent::Disconnected(_) => on(LinkEvent::Closed),
                TransportEvent::Connected(_) => {}
            }
            true
        })?;
        self.next_service = now + self.service_interval;
        // Nothing came: wait for the next datagram (or say one is already there).
        Ok(any || self.link.poll_readable(cx))
    }

    fn send(&mut self, channel: u8, mode: TransferMode, data: Vec<u8>) {
        // A client holds what it sends to its one server, unbounded as the engine does.
        self.link.send(1, channel, mode, data, u32::MAX);
    }

    fn poll_flush(&mut self, _cx: &mut Context<'_>) -> std::task::Poll<crate::error::Result<()>> {
        self.link.flush();
        std::task::Poll::Ready(Ok(()))
    }

    fn close(&mut self) {
        self.link.disconnect(1);
        self.link.flush();
    }

    fn next_wake(&self) -> Option<Instant> {
        Some(self.next_service)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One turn of `link`: what it received goes to `got`, what it queued goes out.
    fn pump(link: &mut EnetLink, got: &mut Vec<Vec<u8>>) -> Vec<i32> {
        let mut connected = Vec::new();
        link.service(Instant::now(), true, &mut |ev| {
            match ev {
                TransportEvent::Connected(id) => connected.push(id),
                TransportEvent::Packet { data, .. } => got.push(data.to_vec()),
                TransportEvent::Disconnected(_) => {}
            }
            true
        })
        .unwrap();
        link.flush();
        connected
    }

    fn left(id: i32) -> Vec<u8> {
        let mut buf = Vec::new();
        wire::put_peer_notice(&mut buf, false, id);
        buf
    }

    /// Issue 49 #20: the notices to a peer that is not heard from are held as ids, not as
    /// ENet packets; they reach it, in order and before anything later, once it is heard
    /// from again; a peer that leaves takes its held notices along. A live peer gets its
    /// notices at once.
    #[tokio::test]
    async fn notices_to_a_peer_not_heard_from_wait_as_ids_until_it_is() {
        let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let mut server = EnetLink::server(any, 8, 1 << 20).await.unwrap();
        let addr: SocketAddr = format!("127.0.0.1:{}", server.local_addr().unwrap().port())
            .parse()
            .unwrap();
        let mut live = EnetLink::client(addr, 10, 1 << 20).await.unwrap();
        let mut quiet = EnetLink::client(addr, 11, 1 << 20).await.unwrap();
        let (mut to_live, mut to_quiet, mut to_server) = (Vec::new(), Vec::new(), Vec::new());
        let mut joined = Vec::new();
        for _ in 0..200 {
            joined.extend(pump(&mut server, &mut to_server));
            pump(&mut live, &mut to_live);
            pump(&mut quiet, &mut to_quiet);
            if joined.len() == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        joined.sort_unstable();
        assert_eq!(joined, [10, 11]);
        // Something reliable to the quiet one, which then stops answering; past ENet's
        // one-second window it has not been heard from.
        assert!(server.send(11, 0, TransferMode::Reliable, b"\x00first".to_vec(), 4096));
        server.flush();
        let quiet_since = Instant::now();
        while quiet_since.elapsed() < Duration::from_millis(1300) {
            pump(&mut server, &mut to_server);
            pump(&mut live, &mut to_live);
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        for id in 1000..1100 {
            assert!(server.send(11, 0, TransferMode::Reliable, left(id), 4096));
            assert!(server.send(10, 0, TransferMode::Reliable, left(id), 4096));
        }
        server.flush();
        assert_eq!(server.held_for(11), 100, "the quiet peer's, as ids");
        // Held notices count toward the bound as queued packets do.
        assert_eq!(*server.ids.unheard(server.ids.by_godot[&11]), 101);
        // The live one gets its notices as it acknowledges them: none waits.
        for _ in 0..50 {
            pump(&mut live, &mut to_live);
            pump(&mut server, &mut to_server);
            if to_live.len() >= 100 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(to_live, (1000..1100).map(left).collect::<Vec<_>>());
        // The quiet one answers again: its notices follow its first packet, in order.
        for _ in 0..200 {
            pump(&mut quiet, &mut to_quiet);
            pump(&mut server, &mut to_server);
            if to_quiet.len() >= 101 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!((server.held_for(10), server.held_for(11)), (0, 0));
        let mut expected = vec![b"\x00first".to_vec()];
        expected.extend((1000..1100).map(left));
        assert_eq!(to_quiet, expected);
        // It stops answering again, its last acknowledgements in: within the same window
        // (ENet still counts its bytes), nothing more was heard, so notices wait again;
        // then it leaves, and they go with it.
        for _ in 0..20 {
            pump(&mut server, &mut to_server);
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        // The first send after it fell silent goes (its last acknowledgements came after
        // the previous send); from then on nothing more is heard.
        assert!(server.send(11, 0, TransferMode::Reliable, b"\x00second".to_vec(), 4096));
        for id in 2000..2010 {
            assert!(server.send(11, 0, TransferMode::Reliable, left(id), 4096));
        }
        assert_eq!(server.held_for(11), 10);
        let index = server.ids.by_godot[&11];
        server.disconnect(11);
        assert!(!server.ids.held.contains_key(&index));
    }
}
