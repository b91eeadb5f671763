//! A server on WebSocket and/or ENet, both feeding one [`Server`] session.

#[cfg(feature = "multiplayer-enet")]
use super::enet::{EnetEvent, EnetLink};
#[cfg(feature = "multiplayer-websocket")]
use super::ws::{self, Inbound, WsOut};
use crate::multiplayer::error::{Error, Result};
use crate::multiplayer::scene::Scene;
#[cfg(feature = "multiplayer-websocket")]
use crate::multiplayer::scene::TransferMode;
use crate::multiplayer::session::{self, Event, Options, Output, Server, SpawnScene, SyncSpec};
use crate::Variant;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Sets up a [`Host`].
#[derive(Debug)]
pub struct HostBuilder {
    scene: Arc<Scene>,
    opts: Options,
    #[cfg_attr(not(feature = "multiplayer-websocket"), allow(dead_code))]
    ws: Option<SocketAddr>,
    #[cfg_attr(not(feature = "multiplayer-enet"), allow(dead_code))]
    enet: Option<SocketAddr>,
    sync_interval: Duration,
    service_interval: Duration,
    max_packet: usize,
    queue: usize,
    max_enet_peers: usize,
}

impl HostBuilder {
    /// Session options (relay, auth, limits).
    pub fn options(mut self, opts: Options) -> Self {
        self.opts = opts;
        self
    }

    /// Serves WebSocket (`WebSocketMultiplayerPeer` clients) on `addr`.
    #[cfg(feature = "multiplayer-websocket")]
    pub fn websocket(mut self, addr: SocketAddr) -> Self {
        self.ws = Some(addr);
        self
    }

    /// Serves ENet (`ENetMultiplayerPeer` clients) on `addr`.
    #[cfg(feature = "multiplayer-enet")]
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

    /// How many packets may wait for one WebSocket peer before it is dropped as too slow
    /// (default 4096, the engine's outbound queue).
    pub fn queue_size(mut self, packets: usize) -> Self {
        self.queue = packets.max(1);
        self
    }

    /// The number of ENet peer slots (default and maximum 4095).
    pub fn max_enet_peers(mut self, peers: usize) -> Self {
        self.max_enet_peers = peers;
        self
    }

    /// Binds the listeners.
    pub async fn start(self) -> Result<Host> {
        let (tx, rx) = mpsc::channel(self.queue.max(1024));
        let _ = &tx;
        let mut ws_addr = None;
        #[cfg(feature = "multiplayer-websocket")]
        if let Some(addr) = self.ws {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            ws_addr = Some(listener.local_addr()?);
            ws::spawn_listener(listener, tx.clone(), self.max_packet, self.queue);
        }
        #[cfg(not(feature = "multiplayer-websocket"))]
        let _ = (self.ws, &mut ws_addr);
        #[cfg(feature = "multiplayer-enet")]
        let enet = match self.enet {
            Some(addr) => Some(EnetLink::server(addr, self.max_enet_peers, self.max_packet).await?),
            None => None,
        };
        let now = Instant::now();
        Ok(Host {
            server: Server::new(self.scene, self.opts),
            rx,
            _tx: tx,
            ws_peers: HashMap::new(),
            #[cfg(feature = "multiplayer-enet")]
            enet,
            #[cfg(feature = "multiplayer-enet")]
            enet_events: Vec::new(),
            ws_addr,
            sleep: Box::pin(tokio::time::sleep_until(now.into())),
            sync_interval: self.sync_interval,
            next_sync: now,
            service_interval: self.service_interval,
            next_service: now,
        })
    }
}

#[cfg(not(feature = "multiplayer-websocket"))]
enum Inbound {}
#[cfg(not(feature = "multiplayer-websocket"))]
type WsOut = ();

/// A SceneMultiplayer server on WebSocket and/or ENet (peer id 1).
///
/// It owns a [`Server`] session and has the session's game-facing methods as its own:
/// [`rpc_id`](Host::rpc_id), [`rpc`](Host::rpc), [`call_args`](Host::call_args),
/// [`send_bytes`](Host::send_bytes), auth ([`send_auth`](Host::send_auth),
/// [`complete_auth`](Host::complete_auth), [`disconnect_peer`](Host::disconnect_peer)),
/// replication ([`spawn`](Host::spawn), [`set_property`](Host::set_property),
/// [`despawn`](Host::despawn)) and the peer list. What those queue is sent by
/// [`next_event`](Host::next_event) or [`flush`](Host::flush).
///
/// The host drives the session itself (packets in, events out, `tick` on time), so the
/// sans-IO half of [`Server`] (`receive`, `poll_event`, `poll_output`, `tick`) is not
/// reachable through it: events come from [`next_event`](Host::next_event).
pub struct Host {
    server: Server,
    rx: mpsc::Receiver<Inbound>,
    _tx: mpsc::Sender<Inbound>,
    #[cfg_attr(not(feature = "multiplayer-websocket"), allow(dead_code))]
    ws_peers: HashMap<i32, mpsc::Sender<WsOut>>,
    #[cfg(feature = "multiplayer-enet")]
    enet: Option<EnetLink>,
    #[cfg(feature = "multiplayer-enet")]
    enet_events: Vec<EnetEvent>,
    ws_addr: Option<SocketAddr>,
    /// Wakes the loop at [`Host::next_wake`] when no I/O does.
    sleep: Pin<Box<tokio::time::Sleep>>,
    sync_interval: Duration,
    /// The next replication frame.
    next_sync: Instant,
    #[cfg_attr(not(feature = "multiplayer-enet"), allow(dead_code))]
    service_interval: Duration,
    /// ENet only: when its timers must be run if no datagram has woken us first.
    #[cfg_attr(not(feature = "multiplayer-enet"), allow(dead_code))]
    next_service: Instant,
}

impl std::fmt::Debug for Host {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Host")
            .field("websocket", &self.ws_addr)
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
        }
    }

    session::game_api!(server);

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
        self.ws_addr
    }

    /// The ENet socket's address.
    pub fn enet_addr(&self) -> Option<SocketAddr> {
        #[cfg(feature = "multiplayer-enet")]
        if let Some(e) = &self.enet {
            return e.local_addr().ok();
        }
        None
    }

    /// Sends everything the session queued.
    pub fn flush(&mut self) {
        while let Some(out) = self.server.poll_output() {
            match out {
                Output::Send(t) => {
                    #[cfg(feature = "multiplayer-websocket")]
                    if let Some(tx) = self.ws_peers.get(&t.to) {
                        if let Err(mpsc::error::TrySendError::Full(_)) =
                            tx.try_send(WsOut::Data(t.data.into()))
                        {
                            // Too slow to keep up: drop it, as the engine's full queue does.
                            self.ws_peers.remove(&t.to);
                            self.server.disconnect_peer(t.to);
                        }
                        continue;
                    }
                    #[cfg(feature = "multiplayer-enet")]
                    if let Some(e) = &mut self.enet {
                        e.send(t.to, t.channel, t.mode, t.data);
                    }
                }
                Output::Disconnect(id) => {
                    #[cfg(feature = "multiplayer-websocket")]
                    if let Some(tx) = self.ws_peers.remove(&id) {
                        let _ = tx.try_send(WsOut::Close);
                        continue;
                    }
                    #[cfg(feature = "multiplayer-enet")]
                    if let Some(e) = &mut self.enet {
                        e.disconnect(id);
                    }
                }
            }
        }
        #[cfg(feature = "multiplayer-enet")]
        if let Some(e) = &mut self.enet {
            e.flush();
        }
    }

    #[cfg(feature = "multiplayer-websocket")]
    fn on_ws(&mut self, msg: Inbound) {
        let now = Instant::now();
        match msg {
            Inbound::Connected { id, tx } => {
                if self.server.peer_connected(id, now).is_ok() {
                    self.ws_peers.insert(id, tx);
                }
            }
            Inbound::Packet { id, data } => {
                if self.ws_peers.contains_key(&id) {
                    self.server
                        .receive(id, 0, TransferMode::Reliable, &data, now);
                }
            }
            Inbound::Closed { id } => {
                if self.ws_peers.remove(&id).is_some() {
                    self.server.peer_disconnected(id);
                }
            }
        }
    }

    #[cfg(not(feature = "multiplayer-websocket"))]
    fn on_ws(&mut self, msg: Inbound) {
        match msg {}
    }

    /// Runs ENet until it is idle; whether anything happened.
    fn service_enet(&mut self) -> Result<bool> {
        #[cfg(feature = "multiplayer-enet")]
        if let Some(e) = &mut self.enet {
            let mut events = std::mem::take(&mut self.enet_events);
            e.service(&mut events)?;
            let any = !events.is_empty();
            let now = Instant::now();
            self.next_service = now + self.service_interval;
            for ev in events.drain(..) {
                match ev {
                    EnetEvent::Connected(id) => {
                        if self.server.peer_connected(id, now).is_err() {
                            e.reset(id);
                        }
                    }
                    EnetEvent::Packet {
                        from,
                        channel,
                        mode,
                        data,
                    } => self.server.receive(from, channel, mode, &data, now),
                    EnetEvent::Disconnected(id) => self.server.peer_disconnected(id),
                }
            }
            self.enet_events = events;
            return Ok(any);
        }
        Ok(false)
    }

    /// When the loop must run with no I/O to wake it: the earliest of the session's next
    /// timer ([`Server::poll_timeout`]), the next replication frame, and, with ENet, the
    /// next service.
    fn next_wake(&self) -> Instant {
        let mut at = self.next_sync;
        if let Some(t) = self.server.poll_timeout() {
            at = at.min(t);
        }
        // ENet keeps its own timers (retransmissions, pings, peer timeouts) that run only
        // inside `service`, and rusty_enet does not say when the next one falls due: it
        // must be serviced regularly even when no datagram arrives. WebSocket needs no
        // such call (its tasks own the sockets).
        #[cfg(feature = "multiplayer-enet")]
        if self.enet.is_some() {
            at = at.min(self.next_service);
        }
        at
    }

    fn on_timer(&mut self) -> Result<()> {
        #[cfg(feature = "multiplayer-enet")]
        if self.enet.is_some() && Instant::now() >= self.next_service {
            self.service_enet()?;
        }
        let now = Instant::now();
        let timer_due = self.server.poll_timeout().is_some_and(|t| now >= t);
        if timer_due || now >= self.next_sync {
            // One tick serves both: it also sends this frame's replication.
            self.server.tick(now);
            self.next_sync = now + self.sync_interval;
        }
        Ok(())
    }

    /// Sends what is queued, then waits for the next event.
    pub async fn next_event(&mut self) -> Result<Event> {
        loop {
            self.flush();
            if let Some(ev) = self.server.poll_event() {
                return Ok(ev);
            }
            let mut progressed = false;
            for _ in 0..256 {
                match self.rx.try_recv() {
                    Ok(m) => {
                        self.on_ws(m);
                        progressed = true;
                    }
                    Err(_) => break,
                }
            }
            progressed |= self.service_enet()?;
            if progressed || self.server.has_output() {
                continue;
            }
            #[cfg(feature = "multiplayer-enet")]
            let socket = self.enet.as_ref().map(|e| e.socket());
            #[cfg(not(feature = "multiplayer-enet"))]
            let socket: Option<Arc<tokio::net::UdpSocket>> = None;
            let wake = tokio::time::Instant::from_std(self.next_wake());
            if self.sleep.deadline() != wake {
                self.sleep.as_mut().reset(wake);
            }
            let readable = async {
                match &socket {
                    Some(s) => s.readable().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                m = self.rx.recv() => {
                    if let Some(m) = m {
                        self.on_ws(m);
                    }
                }
                r = readable => {
                    r.map_err(Error::Io)?;
                }
                _ = &mut self.sleep => self.on_timer()?,
            }
        }
    }
}
