//! An ENet server as several small rusty_enet hosts on one UDP socket.
//!
//! Why: every `service` and `flush` of a rusty_enet host is a pass over all of its peer
//! slots, connected or not (ENet's design), and a server has a slot for every peer it may
//! ever hold: the engine's 4,095 (what that cost: the crate's benches/RESULTS.md). Here
//! the slots come in hosts of [`SHARD_PEERS`],
//! made as they fill, and a turn services only the hosts a datagram came for.
//!
//! The reader hands each datagram to the host that holds its sender; a datagram from an
//! unknown address that names no peer (ENet's connect) goes to a host with a free slot.
//! ENet still checks peer id and address itself: the routing only decides which host
//! looks. Which addresses a host holds is read from its peers' states once a second, and
//! after a connect found every host full, so a peer that left, timed out or was refused
//! frees its route without a path for each case. Until then its datagrams go to the host
//! that had it, which drops them as one host would have.
//!
//! This file uses nothing of the crate but `udp.rs`, so that the bare transport
//! (`examples/multiplayer_bare`) runs on it too.

use super::udp::{transient, Udp, HEADER_PEER_ID};
use rusty_enet::{Event, Host, HostSettings, Peer, PeerID, PeerState, MTU_MAX};
use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::UdpSocket;

/// Peer slots per host. A pass over 64 slots costs little next to a datagram's system
/// call (smaller hosts measured no faster); 1,000 peers are 16 hosts.
pub const SHARD_PEERS: usize = 64;

/// Datagrams read in one turn, drained or not: when datagrams come faster than the host
/// answers them (a starved core), reading until the socket drained never ended, so the
/// WebSocket side, the answers and the timers never got their turn; the session's answers
/// piled up (the soak's figures: the crate's benches/RESULTS.md). The host's loop comes back at once while the socket is readable. (Eight of
/// ENet's own receive passes, 256 datagrams each.)
pub const READ_PER_TURN: usize = 8 * 256;

/// How often the routes are read back from the peers' states.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// The peer id in a datagram that names no peer: ENet's connect.
const NO_PEER: u16 = rusty_enet::consts::PROTOCOL_MAXIMUM_PEER_ID as u16;

/// Hosts of at most [`SHARD_PEERS`] slots each, `peer_limit` slots in all, on one socket.
pub struct Shards {
    socket: Arc<UdpSocket>,
    hosts: Vec<Host<Udp>>,
    /// [`SHARD_PEERS`], but in tests.
    per_host: usize,
    peer_limit: usize,
    channel_limit: usize,
    max_packet: usize,
    /// Which host holds each sender.
    route: HashMap<SocketAddr, usize>,
    /// Routes to each host: no more than its slots are given out.
    routed: Vec<usize>,
    /// A datagram was delivered to the host since it was last serviced.
    touched: Vec<bool>,
    /// Something was queued on the host since its last flush.
    queued: Vec<bool>,
    buf: Box<[u8; MTU_MAX]>,
    /// When the routes are next read back (set at the first [`Shards::tidy`]).
    next_sweep: Option<Instant>,
    /// A connect found every host full: read the routes back at the next [`Shards::tidy`].
    sweep_soon: bool,
}

impl Shards {
    /// `peer_limit` slots in all (1 to 4,095, as one ENet host), the first host made now.
    pub fn new(
        socket: Arc<UdpSocket>,
        peer_limit: usize,
        channel_limit: usize,
        max_packet: usize,
    ) -> io::Result<Self> {
        Shards::with_hosts_of(SHARD_PEERS, socket, peer_limit, channel_limit, max_packet)
    }

    fn with_hosts_of(
        per_host: usize,
        socket: Arc<UdpSocket>,
        peer_limit: usize,
        channel_limit: usize,
        max_packet: usize,
    ) -> io::Result<Self> {
        let mut shards = Shards {
            socket,
            hosts: Vec::new(),
            per_host,
            peer_limit: peer_limit.clamp(1, NO_PEER as usize),
            channel_limit,
            max_packet,
            route: HashMap::new(),
            routed: Vec::new(),
            touched: Vec::new(),
            queued: Vec::new(),
            buf: Box::new([0; MTU_MAX]),
            next_sweep: None,
            sweep_soon: false,
        };
        shards.add_host()?;
        Ok(shards)
    }

    /// The slots host `k` has.
    fn slots(&self, k: usize) -> usize {
        self.per_host.min(self.peer_limit - k * self.per_host)
    }

    fn add_host(&mut self) -> io::Result<usize> {
        let k = self.hosts.len();
        let settings = HostSettings {
            peer_limit: self.slots(k),
            channel_limit: self.channel_limit,
            ..HostSettings::default()
        };
        let error = |e| io::Error::other(format!("{e:?}"));
        let mut host = Host::new(Udp::new(self.socket.clone()), settings).map_err(error)?;
        host.set_maximum_packet_size(self.max_packet)
            .map_err(|e| io::Error::other(format!("{e:?}")))?;
        self.hosts.push(host);
        self.routed.push(0);
        self.touched.push(false);
        self.queued.push(false);
        Ok(k)
    }

    /// The peer slots in all.
    pub fn peer_limit(&self) -> usize {
        self.peer_limit
    }

    /// A number for `peer` of host `k`, below [`Shards::peer_limit`], one per slot: how
    /// [`Shards::run`] names a peer, and [`Shards::peer_mut`] finds it.
    fn index(&self, k: usize, peer: PeerID) -> usize {
        k * self.per_host + peer.0
    }

    /// Starts a connection to `addr` from the first host (a client has one host of one
    /// slot), routing `addr`'s datagrams to it. The peer's index.
    pub fn connect(&mut self, addr: SocketAddr, channels: usize, data: u32) -> io::Result<usize> {
        let peer = self.hosts[0]
            .connect(addr, channels, data)
            .map_err(|_| io::Error::other("no ENet peer slot"))?;
        let id = peer.id();
        self.route.insert(addr, 0);
        self.routed[0] += 1;
        Ok(self.index(0, id))
    }

    /// The host for a datagram from `from` whose header word is `header`: the one holding
    /// `from`, or for a connect from a new address one with a free slot, made if need be.
    fn host_for(&mut self, from: SocketAddr, header: u16) -> io::Result<Option<usize>> {
        if let Some(&k) = self.route.get(&from) {
            return Ok(Some(k));
        }
        if header & HEADER_PEER_ID != NO_PEER {
            return Ok(None);
        }
        let k = match (0..self.hosts.len()).find(|&k| self.routed[k] < self.slots(k)) {
            Some(k) => k,
            None if self.hosts.len() * self.per_host < self.peer_limit => self.add_host()?,
            None => {
                // Full, as far as the routes know: ENet drops the connect (the client
                // sends it again) and the routes are read back after this turn.
                self.sweep_soon = true;
                return Ok(None);
            }
        };
        self.route.insert(from, k);
        self.routed[k] += 1;
        Ok(Some(k))
    }

    /// Reads up to `max` datagrams into their hosts' inboxes. Whether the socket is
    /// drained.
    fn read(&mut self, max: usize) -> io::Result<bool> {
        for _ in 0..max {
            let (n, from) = match self.socket.try_recv_from(&mut self.buf[..]) {
                Ok(got) => got,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(true),
                // ICMP "port unreachable" from an earlier send surfaces here on Linux.
                Err(e) if transient(&e) => continue,
                Err(e) => return Err(e),
            };
            // Shorter than ENet's header: no host would take it.
            let Some(&[a, b]) = self.buf.get(..2).filter(|_| n >= 2) else {
                continue;
            };
            if let Some(k) = self.host_for(from, u16::from_be_bytes([a, b]))? {
                self.hosts[k].socket_mut().deliver(from, &self.buf[..n]);
                self.touched[k] = true;
            }
        }
        Ok(false)
    }

    /// One turn: reads up to [`READ_PER_TURN`] datagrams, then runs each host a datagram
    /// came for, or with `all` every host (ENet runs its timers only inside `service`),
    /// until it has given ENet everything it was delivered. Each event goes to `on` with
    /// its peer's [`Shards::index`] as it happens (packets borrowed from ENet, no copy);
    /// `on` says whether it queued something on that peer, for [`Shards::flush`]. Whether
    /// there was any event.
    ///
    /// A `service` reads the host's delivered datagrams (up to 256) and queues their
    /// packets, which `check_events` (no I/O) then drains. What ENet sends meanwhile
    /// (acknowledgements, pings, retransmissions) is held by the hosts' sockets until
    /// [`Shards::flush`] or [`Shards::send_held`].
    pub fn run(
        &mut self,
        all: bool,
        mut on: impl FnMut(usize, Event<'_, Udp>) -> bool,
    ) -> io::Result<bool> {
        self.read(READ_PER_TURN)?;
        let mut any = false;
        for (k, host) in self.hosts.iter_mut().enumerate() {
            if !(std::mem::take(&mut self.touched[k]) || all) {
                continue;
            }
            let base = k * self.per_host;
            let mut queued = false;
            let mut give = |event: Event<'_, Udp>| {
                let index = base + peer_of(&event).0;
                queued |= on(index, event);
            };
            loop {
                // A `service` that returns nothing has read at least one datagram, if any
                // was left; one that returns an event may not have (a peer's timeout comes
                // first), so the loop asks the inbox.
                if let Some(event) = host.service()? {
                    any = true;
                    give(event);
                    while let Some(event) = host.check_events() {
                        give(event);
                    }
                }
                if host.socket().inbox_is_empty() {
                    break;
                }
            }
            self.queued[k] |= queued;
        }
        Ok(any)
    }

    /// The peer at `index` ([`Shards::index`]), if there is one.
    pub fn peer_mut(&mut self, index: usize) -> Option<&mut Peer<Udp>> {
        let host = self.hosts.get_mut(index / self.per_host)?;
        host.get_peer_mut(PeerID(index % self.per_host))
    }

    /// Notes that something was queued on the peer at `index`, for [`Shards::flush`].
    pub fn queued(&mut self, index: usize) {
        if let Some(q) = self.queued.get_mut(index / self.per_host) {
            *q = true;
        }
    }

    /// Sends what is queued on every host (a flush is a pass over the host's slots: only
    /// where something was queued) and what their sockets hold.
    pub fn flush(&mut self) {
        for (host, queued) in self.hosts.iter_mut().zip(&mut self.queued) {
            if std::mem::take(queued) {
                host.flush();
            }
            if host.socket().has_held() {
                host.socket_mut().send_held();
            }
        }
    }

    /// Sends what the hosts' sockets hold, without a pass over any host's slots.
    pub fn send_held(&mut self) {
        for host in &mut self.hosts {
            if host.socket().has_held() {
                host.socket_mut().send_held();
            }
        }
    }

    /// Reads the routes back from the peers' states when it is time, and only when every
    /// delivered datagram has been serviced (a connect still in an inbox has no peer yet).
    pub fn tidy(&mut self, now: Instant) {
        let due = *self.next_sweep.get_or_insert(now + SWEEP_EVERY) <= now;
        if !(self.sweep_soon || due) || !self.hosts.iter().all(|h| h.socket().inbox_is_empty()) {
            return;
        }
        self.sweep_soon = false;
        self.next_sweep = Some(now + SWEEP_EVERY);
        self.route.clear();
        for (k, host) in self.hosts.iter_mut().enumerate() {
            self.routed[k] = 0;
            for peer in host.peers() {
                if peer.state() == PeerState::Disconnected {
                    continue;
                }
                if let Some(addr) = peer.address() {
                    self.route.insert(addr, k);
                    self.routed[k] += 1;
                }
            }
        }
    }
}

/// The peer an event is about.
fn peer_of(event: &Event<'_, Udp>) -> PeerID {
    match event {
        Event::Connect { peer, .. }
        | Event::Disconnect { peer, .. }
        | Event::Receive { peer, .. } => peer.id(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusty_enet::Packet;

    /// A client host of one slot, connecting to `server`.
    fn client(server: SocketAddr) -> Host<std::net::UdpSocket> {
        let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        let settings = HostSettings {
            peer_limit: 1,
            channel_limit: 1,
            ..HostSettings::default()
        };
        let mut host = Host::new(socket, settings).unwrap();
        host.connect(server, 1, 0).unwrap();
        host
    }

    /// One turn of a server that echoes every packet: the hosts that connected a peer
    /// (from the peers' indexes) and the packets echoed, in order.
    async fn turn(shards: &mut Shards) -> (Vec<usize>, Vec<Vec<u8>>) {
        let wait = Duration::from_millis(5);
        let _ = tokio::time::timeout(wait, shards.socket.readable()).await;
        let per_host = shards.per_host;
        let (mut connected, mut echoed) = (Vec::new(), Vec::new());
        shards
            .run(true, |index, e| match e {
                Event::Connect { .. } => {
                    connected.push(index / per_host);
                    false
                }
                Event::Receive { peer, packet, .. } => {
                    echoed.push(packet.data().to_vec());
                    peer.send(0, &packet).unwrap();
                    true
                }
                Event::Disconnect { .. } => false,
            })
            .unwrap();
        shards.flush();
        (connected, echoed)
    }

    /// Services each client once: whether it is connected, and what it received.
    fn run_clients(clients: &mut [Host<std::net::UdpSocket>], got: &mut [Vec<Vec<u8>>]) {
        for (c, got) in clients.iter_mut().zip(got) {
            while let Some(e) = c.service().unwrap() {
                if let Event::Receive { packet, .. } = e {
                    got.push(packet.data().to_vec());
                }
            }
        }
    }

    async fn server(per_host: usize, peer_limit: usize) -> (Shards, SocketAddr) {
        let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
        let addr = socket.local_addr().unwrap();
        let shards =
            Shards::with_hosts_of(per_host, Arc::new(socket), peer_limit, 1, 1 << 20).unwrap();
        (shards, addr)
    }

    #[tokio::test]
    async fn peers_fill_hosts_in_turn_and_each_gets_its_own_answers() {
        let (mut shards, addr) = server(2, 5).await;
        // One more client than there are slots.
        let mut clients: Vec<_> = (0..6).map(|_| client(addr)).collect();
        let mut got = vec![Vec::new(); clients.len()];
        let mut connected = Vec::new();
        for _ in 0..200 {
            run_clients(&mut clients, &mut got);
            connected.extend(turn(&mut shards).await.0);
            if connected.len() >= 5
                && clients
                    .iter_mut()
                    .filter(|c| c.peer(PeerID(0)).connected())
                    .count()
                    >= 5
            {
                break;
            }
        }
        connected.sort();
        // Hosts of 2, 2 and 1 slots, made as they filled; the sixth client found no slot.
        assert_eq!(connected, [0, 0, 1, 1, 2]);
        assert_eq!(shards.hosts.len(), 3);
        let up: Vec<usize> = (0..clients.len())
            .filter(|&i| clients[i].peer(PeerID(0)).connected())
            .collect();
        assert_eq!(up.len(), 5, "connected clients: {up:?}");
        for &i in &up {
            let packet = Packet::reliable(format!("from {i}").as_bytes());
            clients[i].peer_mut(PeerID(0)).send(0, &packet).unwrap();
        }
        let mut echoed = Vec::new();
        for _ in 0..200 {
            run_clients(&mut clients, &mut got);
            echoed.extend(turn(&mut shards).await.1);
            if up.iter().all(|&i| !got[i].is_empty()) {
                break;
            }
        }
        assert_eq!(echoed.len(), 5);
        for &i in &up {
            assert_eq!(got[i], [format!("from {i}").into_bytes()]);
        }
    }

    #[tokio::test]
    async fn a_slot_freed_by_a_peer_that_left_is_given_out_again_after_the_sweep() {
        let (mut shards, addr) = server(1, 1).await;
        let mut first = vec![client(addr)];
        let mut got = vec![Vec::new()];
        for _ in 0..200 {
            run_clients(&mut first, &mut got);
            turn(&mut shards).await;
            if first[0].peer(PeerID(0)).connected() {
                break;
            }
        }
        assert!(first[0].peer(PeerID(0)).connected());
        // Gone without a word: the server's peer stays until ENet times it out.
        drop(first);
        let mut second = vec![client(addr)];
        for _ in 0..20 {
            run_clients(&mut second, &mut got);
            turn(&mut shards).await;
        }
        assert!(
            !second[0].peer(PeerID(0)).connected(),
            "one slot, still held"
        );
        shards.peer_mut(0).unwrap().reset();
        // The route stays until the sweep reads the peer's state back.
        assert_eq!(shards.routed[0], 1);
        shards.tidy(Instant::now() + SWEEP_EVERY);
        assert_eq!(shards.routed[0], 0);
        let mut connected = Vec::new();
        for _ in 0..800 {
            run_clients(&mut second, &mut got);
            connected.extend(turn(&mut shards).await.0);
            if second[0].peer(PeerID(0)).connected() {
                break;
            }
        }
        assert_eq!(connected, [0]);
        assert!(second[0].peer(PeerID(0)).connected());
    }

    #[tokio::test]
    async fn only_a_connect_opens_a_route() {
        let (mut shards, _) = server(4, 4).await;
        let a: SocketAddr = "127.0.0.1:1".parse().unwrap();
        let b: SocketAddr = "127.0.0.1:2".parse().unwrap();
        // A datagram naming peer 3 from an address no host holds: no host looks at it.
        assert_eq!(shards.host_for(a, 0x0003).unwrap(), None);
        assert!(shards.route.is_empty());
        // A connect (peer id 4,095, with flags and session bits set) gets a slot; the
        // address's later datagrams follow it.
        assert_eq!(
            shards.host_for(b, 0x8000 | 0x1000 | 0x0FFF).unwrap(),
            Some(0)
        );
        assert_eq!(shards.host_for(b, 0x0003).unwrap(), Some(0));
        assert_eq!(shards.routed[0], 1);
    }
}
