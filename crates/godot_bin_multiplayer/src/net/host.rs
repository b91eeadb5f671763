//! A server on WebSocket and/or ENet, both feeding one [`Server`] session.

#[cfg(feature = "enet")]
use super::enet::{EnetLink, EnetServer};
use super::transport::{Sent, ServerTransport, TransportEvent};
#[cfg(feature = "websocket")]
use super::ws::WsServer;
use crate::error::Result;
use crate::scene::Scene;
use crate::session::{Event, Multiplayer, Options, Output, Server, SpawnScene, SyncSpec};
use godot_bin::Variant;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// Sets up a [`Host`].
#[derive(Debug)]
pub struct HostBuilder {
    scene: Arc<Scene>,
    opts: Options,
    #[cfg_attr(not(feature = "websocket"), allow(dead_code))]
    ws: Option<SocketAddr>,
    #[cfg_attr(not(feature = "enet"), allow(dead_code))]
    enet: Option<SocketAddr>,
    sync_interval: Duration,
    #[cfg_attr(not(feature = "enet"), allow(dead_code))]
    service_interval: Duration,
    max_packet: usize,
    queue: usize,
    max_enet_peers: usize,
    batch_window: Duration,
    /// Transports given by the caller, polled after the bundled ones.
    #[allow(clippy::type_complexity)]
    custom: Vec<Box<dyn ServerTransport>>,
}

impl std::fmt::Debug for dyn ServerTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerTransport")
            .field("local_addr", &self.local_addr())
            .finish_non_exhaustive()
    }
}

impl HostBuilder {
    /// Session options (relay, auth, limits).
    pub fn options(mut self, opts: Options) -> Self {
        self.opts = opts;
        self
    }

    /// Serves WebSocket (`WebSocketMultiplayerPeer` clients) on `addr`.
    #[cfg(feature = "websocket")]
    pub fn websocket(mut self, addr: SocketAddr) -> Self {
        self.ws = Some(addr);
        self
    }

    /// Serves ENet (`ENetMultiplayerPeer` clients) on `addr`.
    #[cfg(feature = "enet")]
    pub fn enet(mut self, addr: SocketAddr) -> Self {
        self.enet = Some(addr);
        self
    }

    /// How often the session's network frame runs (auth timeouts, replication); the
    /// engine's runs every process frame. Default 1/60 s.
    pub fn sync_interval(mut self, every: Duration) -> Self {
        self.sync_interval = every;
        self
    }

    /// The largest packet accepted from a peer (default 1 MiB; Godot clients' own buffers
    /// stop at 64 KiB by default).
    pub fn max_packet_size(mut self, bytes: usize) -> Self {
        self.max_packet = bytes;
        self
    }

    /// How many packets may wait for one peer before it is dropped as too slow (default
    /// 4096, the engine's outbound queue), as the engine's `disconnect_peer` drops one (no
    /// `PeerDisconnected` event). Keep it above the number of peers: a peer's admission
    /// sends it one notice per peer already there, at once (a smaller queue dropped live
    /// peers as they joined in the soak: the crate's benches/RESULTS.md).
    ///
    /// The bounds per peer, with the default sizes (`max_packet_size` 1 MiB):
    /// - WebSocket: 4096 packets written since the last write the socket finished, and
    ///   4 MiB unwritten (or four of the largest packets, if more); its read side holds at
    ///   most one frame (a buffer at most twice the bytes received, never past the largest
    ///   packet) and one message being reassembled; an upgrade request at most 8 KiB for
    ///   3 s; a frame begun must end within 30 s (closed with 1008); a ping flood that
    ///   does not read is closed past 1 MiB of pongs (1008).
    /// - ENet: 4096 reliable packets sent since the peer was last heard from (any datagram
    ///   of it: a packet, an acknowledgement, an answer to ENet's pings, in ENet's
    ///   one-second window). A vanished peer holds what was sent to it until ENet times it
    ///   out (5 to 30 s), at most this many; the "peer joined" / "peer left" notices among
    ///   them are held as peer ids (4 bytes each) until the peer is heard from again, so
    ///   that many peers leaving at once cost little more than the peers themselves.
    pub fn queue_size(mut self, packets: usize) -> Self {
        self.queue = packets.max(1);
        self
    }

    /// The number of ENet peer slots (default and maximum 4095).
    pub fn max_enet_peers(mut self, peers: usize) -> Self {
        self.max_enet_peers = peers;
        self
    }

    /// Lets the host gather work before it looks at its sockets again: after a turn that
    /// leaves nothing to do, the host waits `window` on its timer (cut short by the
    /// session's next timer) without reading its sockets, and the next turn takes
    /// everything that arrived meanwhile. The engine gets the same from its frame, which
    /// reads its sockets once a frame; this adds at most `window` to an answer's latency
    /// (rounded up to the runtime timer's millisecond), and a turn that still has work,
    /// or what the game queued meanwhile, never waits.
    ///
    /// Why: a server that keeps up with its peers goes to sleep after every few packets,
    /// and each packet that wakes it costs a wake-up; ENet also services its hosts and
    /// flushes once a turn. The load run's figures with and without a window are in the
    /// crate's benches/RESULTS.md.
    ///
    /// It blocks nothing: the wait is the host's own timer, so other tasks on the thread
    /// run meanwhile. Default zero: no window.
    pub fn batch_window(mut self, window: Duration) -> Self {
        self.batch_window = window;
        self
    }

    /// Serves peers on another transport as well: a [`ServerTransport`] of the caller's
    /// (another socket library, an in-process pipe). Its peer ids must not collide with
    /// the other transports' (Godot's random ids in 2..2³¹ do not, in practice).
    pub fn transport(mut self, transport: Box<dyn ServerTransport>) -> Self {
        self.custom.push(transport);
        self
    }

    /// Binds the listeners.
    pub async fn start(self) -> Result<Host> {
        let now = Instant::now();
        let mut transports: Vec<(Kind, Box<dyn ServerTransport>)> = Vec::new();
        #[cfg(feature = "websocket")]
        if let Some(addr) = self.ws {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let ws = WsServer::new(listener, self.max_packet, self.queue);
            transports.push((Kind::WebSocket, Box::new(ws)));
        }
        #[cfg(feature = "enet")]
        if let Some(addr) = self.enet {
            let link = EnetLink::server(addr, self.max_enet_peers, self.max_packet).await?;
            let enet = EnetServer::new(link, self.service_interval, self.queue, now);
            transports.push((Kind::Enet, Box::new(enet)));
        }
        transports.extend(self.custom.into_iter().map(|t| (Kind::Other, t)));
        Ok(Host {
            server: Server::new(self.scene, self.opts),
            transports,
            sleep: Box::pin(tokio::time::sleep_until(now.into())),
            sync_interval: self.sync_interval,
            next_sync: now,
            batch_window: self.batch_window,
            gathering: None,
        })
    }
}

/// A SceneMultiplayer server on WebSocket and/or ENet (peer id 1).
///
/// It owns a [`Server`] session and dereferences to its game-facing half,
/// [`Multiplayer`]: [`rpc_id`](Multiplayer::rpc_id), [`rpc`](Multiplayer::rpc),
/// [`call_args`](Multiplayer::call_args), [`send_bytes`](Multiplayer::send_bytes), auth
/// ([`send_auth`](Multiplayer::send_auth), [`complete_auth`](Multiplayer::complete_auth))
/// and the peer list are the host's methods; [`disconnect_peer`](Host::disconnect_peer)
/// and replication ([`spawn`](Host::spawn), [`set_property`](Host::set_property),
/// [`despawn`](Host::despawn)) are the server's, on the host. What those queue is sent by
/// [`next_event`](Host::next_event) or [`flush`](Host::flush).
///
/// The host drives the session itself (packets in, events out, `tick` on time), so the
/// sans-IO half of [`Server`] ([`Session`](crate::Session): `receive`, `poll_event`,
/// `poll_output`, `tick`) is not reachable through it: events come from
/// [`next_event`](Host::next_event).
pub struct Host {
    server: Server,
    /// The transports, polled in this order each turn: WebSocket, ENet, then the
    /// caller's ([`HostBuilder::transport`]).
    transports: Vec<(Kind, Box<dyn ServerTransport>)>,
    /// Wakes the loop at [`Host::next_wake`] when no I/O does.
    sleep: Pin<Box<tokio::time::Sleep>>,
    sync_interval: Duration,
    /// The next replication frame.
    next_sync: Instant,
    /// [`HostBuilder::batch_window`].
    batch_window: Duration,
    /// The end of the batch window under way: until then the sockets are not read.
    gathering: Option<Instant>,
}

/// Which transport a host's entry is, for [`Host::websocket_addr`] and
/// [`Host::enet_addr`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    #[cfg_attr(not(feature = "websocket"), allow(dead_code))]
    WebSocket,
    #[cfg_attr(not(feature = "enet"), allow(dead_code))]
    Enet,
    Other,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("websocket", &self.websocket_addr())
            .field("enet", &self.enet_addr())
            .finish_non_exhaustive()
    }
}

impl Host {
    /// A builder for a host serving `scene` (a [`Scene`] or an `Arc<Scene>` shared with
    /// other hosts or peers).
    pub fn builder(scene: impl Into<Arc<Scene>>) -> HostBuilder {
        HostBuilder {
            scene: scene.into(),
            opts: Options::default(),
            ws: None,
            enet: None,
            sync_interval: Duration::from_micros(16_667),
            service_interval: Duration::from_millis(5),
            max_packet: 1 << 20,
            queue: 4096,
            max_enet_peers: 4095,
            batch_window: Duration::ZERO,
            custom: Vec::new(),
        }
    }

    /// Whether `peer` is linked (pending or admitted).
    pub fn has_peer(&self, peer: i32) -> bool {
        self.server.has_peer(peer)
    }

    /// `multiplayer.disconnect_peer(id)`: announce and drop the peer (no
    /// `PeerDisconnected` event, as the engine blocks its signals), then close the link.
    pub fn disconnect_peer(&mut self, peer: i32) {
        self.server.disconnect_peer(peer)
    }

    /// Spawns a node under the MultiplayerSpawner `spawner` on every admitted peer (and
    /// later ones), with its synchronizers; returns the node's network id. See
    /// [`Server::spawn`].
    pub fn spawn(
        &mut self,
        spawner: &str,
        name: &str,
        scene: SpawnScene,
        syncs: Vec<SyncSpec>,
    ) -> Result<u32> {
        self.server.spawn(spawner, name, scene, syncs)
    }

    /// Sets a replicated property of a spawned node; it goes out with the next network
    /// frame. See [`Server::set_property`].
    pub fn set_property(&mut self, net_id: u32, path: &str, value: Variant) -> Result<()> {
        self.server.set_property(net_id, path, value)
    }

    /// Despawns a spawned node on every peer that has it.
    pub fn despawn(&mut self, net_id: u32) -> Result<()> {
        self.server.despawn(net_id)
    }

    /// The WebSocket listener's address.
    pub fn websocket_addr(&self) -> Option<SocketAddr> {
        self.addr_of(Kind::WebSocket)
    }

    /// The ENet socket's address.
    pub fn enet_addr(&self) -> Option<SocketAddr> {
        self.addr_of(Kind::Enet)
    }

    fn addr_of(&self, kind: Kind) -> Option<SocketAddr> {
        self.transports
            .iter()
            .find(|(k, _)| *k == kind)
            .and_then(|(_, t)| t.local_addr())
    }

    /// Sends everything the session queued.
    pub fn flush(&mut self) {
        self.queue_outputs();
        self.write_out();
    }

    /// Hands what the session queued to the transports' buffers: no system call yet.
    fn queue_outputs(&mut self) {
        while let Some(out) = self.server.poll_output() {
            match out {
                Output::Send(t) => {
                    let mut data = t.data;
                    for (_, transport) in &mut self.transports {
                        match transport.send(t.to, t.channel, t.mode, data) {
                            Sent::Queued(back) => {
                                // A buffer handed back: the next packet is written into it.
                                if let Some(buf) = back {
                                    self.server.recycle(buf);
                                }
                                break;
                            }
                            Sent::TooSlow => {
                                // Too slow to keep up: dropped, as the engine's full queue does.
                                self.server.disconnect_peer(t.to);
                                break;
                            }
                            Sent::NotMine(back) => data = back,
                        }
                    }
                }
                Output::Disconnect(id) => {
                    for (_, transport) in &mut self.transports {
                        if transport.disconnect(id) {
                            break;
                        }
                    }
                }
            }
        }
    }

    /// Writes what the transports buffered: one write per WebSocket connection, one ENet
    /// flush.
    fn write_out(&mut self) {
        for (_, transport) in &mut self.transports {
            transport.flush();
        }
    }

    /// Takes in what every transport has, straight into the session; whether anything
    /// happened.
    fn poll_transports(&mut self, cx: &mut Context<'_>, now: Instant) -> Result<bool> {
        let server = &mut self.server;
        let mut on = |ev: TransportEvent<'_>| match ev {
            TransportEvent::Connected(id) => server.peer_connected(id, now).is_ok(),
            TransportEvent::Packet {
                from,
                channel,
                mode,
                data,
            } => {
                server.receive(from, channel, mode, data, now);
                true
            }
            TransportEvent::Disconnected(id) => {
                server.peer_disconnected(id);
                true
            }
        };
        let mut any = false;
        for (_, transport) in &mut self.transports {
            any |= transport.poll(cx, now, &mut on)?;
        }
        Ok(any)
    }

    /// When the loop must run with no I/O to wake it: the earliest of the session's next
    /// timer ([`Session::poll_timeout`](crate::Session::poll_timeout)), the next replication frame, with ENet the next
    /// service, and soon after a failed `accept`.
    fn next_wake(&self) -> Instant {
        let mut at = self.next_sync;
        if let Some(t) = self.server.poll_timeout() {
            at = at.min(t);
        }
        // A transport's own timers: ENet's (retransmissions, pings, peer timeouts) run only
        // inside its `service`, which must be called regularly even when no datagram
        // arrives; WebSocket needs none unless an `accept` failed.
        for (_, transport) in &self.transports {
            if let Some(t) = transport.next_wake() {
                at = at.min(t);
            }
        }
        at
    }

    /// Runs what is due: the session's tick (auth timeouts, replication).
    fn on_timer(&mut self, now: Instant) {
        let timer_due = self.server.poll_timeout().is_some_and(|t| now >= t);
        if timer_due || now >= self.next_sync {
            // One tick serves both: it also sends this frame's replication.
            self.server.tick(now);
            self.next_sync = now + self.sync_interval;
        }
    }

    /// One turn of the loop: hand out the next event, or take in everything the sockets
    /// have, or register for the next wake.
    fn poll_event(&mut self, cx: &mut Context<'_>) -> Poll<Result<Event>> {
        // The window ended in this call and the turn after it found nothing: the next wait
        // is for the sockets, not another window.
        let mut gathered = false;
        loop {
            self.queue_outputs();
            if let Some(ev) = self.server.poll_event() {
                return Poll::Ready(Ok(ev));
            }
            // A turn of I/O starts with the task's budget whole: tokio's sockets, listener
            // and timers refuse work once it is spent, ENet's non-blocking calls do not, so
            // a turn begun without budget serves ENet alone. Under overload that starved
            // the WebSocket side (benches/RESULTS.md, issue 26); yielding lets the runtime
            // poll its drivers and gives the next turn a fresh budget.
            if !tokio::task::coop::has_budget_remaining() {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            // Every event of this turn is out and answered: write what it produced, one
            // write per connection, before waiting for more.
            self.write_out();
            // In the batch window, the sockets wait (what wakes the task meanwhile finds
            // them at the window's end); the timer is the host's own.
            if let Some(until) = self.gathering {
                if self.wait_until(cx, until).is_pending() {
                    return Poll::Pending;
                }
                self.gathering = None;
                gathered = true;
            }
            let now = Instant::now();
            let progressed = match self.poll_transports(cx, now) {
                Ok(p) => p,
                Err(e) => return Poll::Ready(Err(e)),
            };
            self.on_timer(now);
            if progressed || self.server.has_output() {
                gathered = false;
                continue;
            }
            // Everything is written and nothing is left: wait for the sockets or the next
            // timer, or first gather for the window (cut short by the next timer). What
            // arrives meanwhile is taken in one turn at its end.
            let wake = self.next_wake();
            let until = if self.batch_window.is_zero() || gathered {
                wake
            } else {
                let end = (now + self.batch_window).min(wake);
                self.gathering = Some(end);
                end
            };
            if self.wait_until(cx, until).is_pending() {
                return Poll::Pending;
            }
            self.gathering = None;
        }
    }

    /// Sets the host's timer for `at` (registering `cx`); ready once it is due.
    fn wait_until(&mut self, cx: &mut Context<'_>, at: Instant) -> Poll<()> {
        let at = tokio::time::Instant::from_std(at);
        if self.sleep.deadline() != at {
            self.sleep.as_mut().reset(at);
        }
        self.sleep.as_mut().poll(cx)
    }

    /// Sends what is queued, then waits for the next event. Cancel-safe: nothing is lost
    /// when the future is dropped before it completes.
    pub async fn next_event(&mut self) -> Result<Event> {
        std::future::poll_fn(|cx| self.poll_event(cx)).await
    }
}

impl std::ops::Deref for Host {
    type Target = Multiplayer;
    fn deref(&self) -> &Multiplayer {
        &self.server
    }
}

impl std::ops::DerefMut for Host {
    fn deref_mut(&mut self) -> &mut Multiplayer {
        &mut self.server
    }
}
