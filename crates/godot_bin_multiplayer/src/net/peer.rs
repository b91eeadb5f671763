//! One client of a Godot server (or of a [`Host`](super::Host)): a bot.

#[cfg(feature = "enet")]
use super::enet::{EnetEvent, EnetLink};
use crate::error::{Error, ErrorKind, Result};
use crate::scene::Scene;
#[cfg(any(feature = "websocket", feature = "enet"))]
use crate::scene::TransferMode;
use crate::session::{self, Client, Event, Options, Output};
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};
#[cfg(feature = "websocket")]
use {
    futures_util::{SinkExt, StreamExt},
    tokio::net::TcpStream,
    tokio_tungstenite::tungstenite::Message,
    tokio_tungstenite::WebSocketStream,
};

/// Sets up a [`Peer`].
#[derive(Debug, Clone)]
pub struct PeerBuilder {
    scene: Arc<Scene>,
    opts: Options,
    service_interval: Duration,
    max_packet: usize,
}

impl PeerBuilder {
    /// Session options.
    pub fn options(mut self, opts: Options) -> Self {
        self.opts = opts;
        self
    }

    /// ENet only: how long the link may go without a `service` call while waiting
    /// (default 10 ms; thousands of bots in one process want more). ENet runs its
    /// retransmissions, pings and timeouts only inside `service`. The session's own timers
    /// need no polling: the peer sleeps until [`Client::poll_timeout`]. A WebSocket peer
    /// ignores this.
    pub fn service_interval(mut self, every: Duration) -> Self {
        self.service_interval = every;
        self
    }

    /// Connects to `ws://host:port/path` as `WebSocketMultiplayerPeer.create_client` does.
    #[cfg(feature = "websocket")]
    pub async fn connect_websocket(self, url: &str) -> Result<Peer> {
        let (ws, id) = super::ws::connect(url, self.max_packet).await?;
        let mut client = Client::new(self.scene, self.opts);
        client.connected(id, Instant::now())?;
        Ok(Peer::new(
            client,
            Link::Ws(Box::new(ws)),
            self.service_interval,
        ))
    }

    /// Connects to an ENet server as `ENetMultiplayerPeer.create_client` does, with a
    /// random id of our own.
    #[cfg(feature = "enet")]
    pub async fn connect_enet(self, addr: std::net::SocketAddr) -> Result<Peer> {
        let id = super::random_id();
        let mut link = EnetLink::client(addr, id, self.max_packet).await?;
        // Packets that arrive with the connection are kept for the session.
        let mut early: Vec<(u8, TransferMode, Vec<u8>)> = Vec::new();
        let connect = async {
            loop {
                let mut state = None;
                link.service(true, |ev| {
                    match ev {
                        EnetEvent::Connected(_) => state = state.or(Some(true)),
                        EnetEvent::Disconnected(_) => state = Some(false),
                        EnetEvent::Packet {
                            channel,
                            mode,
                            data,
                            ..
                        } => early.push((channel, mode, data.to_vec())),
                    }
                    true
                })?;
                // What `service` held (the acknowledgement of the server's verify) goes
                // now: nothing else is sent until the caller's first `next_event`.
                link.flush();
                match state {
                    Some(true) => return Ok::<_, Error>(()),
                    Some(false) => {
                        return Err(Error::from(ErrorKind::Transport(
                            "ENet connection refused".into(),
                        )))
                    }
                    None => {}
                }
                let socket = link.socket();
                let _ = tokio::time::timeout(Duration::from_millis(10), socket.readable()).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), connect)
            .await
            .map_err(|_| Error::from(ErrorKind::Transport("ENet connect timed out".into())))??;
        let mut client = Client::new(self.scene, self.opts);
        let now = Instant::now();
        client.connected(id, now)?;
        for (channel, mode, data) in early {
            client.receive(1, channel, mode, &data, now);
        }
        Ok(Peer::new(
            client,
            Link::Enet(Box::new(link)),
            self.service_interval,
        ))
    }
}

enum Link {
    #[cfg(feature = "websocket")]
    Ws(Box<WebSocketStream<TcpStream>>),
    #[cfg(feature = "enet")]
    Enet(Box<EnetLink>),
    Closed,
}

/// A SceneMultiplayer client over WebSocket or ENet: what a Godot game's client does, so
/// that a Rust program can join a Godot server, or load-test one with many bots.
///
/// A bot declares the nodes it calls as the game's scripts declare them, connects, and
/// loops on [`next_event`](Peer::next_event). It runs on tokio: the program needs tokio
/// with at least the `rt` and `macros` features for `#[tokio::main(flavor =
/// "current_thread")]` (`rt-multi-thread` too for the default flavor); this crate enables
/// the `net` and `time` features it uses itself.
///
/// ```no_run
/// use godot_bin_multiplayer::{net, Event, NodeConfig, Rpc, Scene};
///
/// #[tokio::main(flavor = "current_thread")]
/// async fn main() -> godot_bin_multiplayer::Result<()> {
///     // The node and RPCs as the server's scene declares them (`@rpc("any_peer")`).
///     let scene = Scene::new().with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))?;
///     let mut bot = net::Peer::builder(scene)
///         .connect_websocket("ws://127.0.0.1:9080")
///         .await?;
///     // Or: .connect_enet("127.0.0.1:9081".parse().unwrap())
///     bot.rpc_id(1, "Echo", "echo", &("hello",))?; // one argument: a 1-tuple
///     loop {
///         match bot.next_event().await? {
///             Event::Call(call) if &*call.method == "echo" => {
///                 let (text,): (String,) = call.args.decode()?;
///                 println!("echoed: {text}");
///                 break;
///             }
///             Event::ServerDisconnected => break,
///             _ => {}
///         }
///     }
///     bot.close().await;
///     Ok(())
/// }
/// ```
///
/// It owns a [`Client`] session and has the session's game-facing methods as its own:
/// [`rpc_id`](Peer::rpc_id), [`rpc`](Peer::rpc), [`call_args`](Peer::call_args),
/// [`send_bytes`](Peer::send_bytes), auth ([`send_auth`](Peer::send_auth),
/// [`complete_auth`](Peer::complete_auth)) and the peer list. What those queue is sent by
/// [`next_event`](Peer::next_event) or [`flush`](Peer::flush). The peer drives the session
/// itself, so the sans-IO half of [`Client`] (`receive`, `poll_event`, `tick`) is not
/// reachable through it: events come from [`next_event`](Peer::next_event).
pub struct Peer {
    client: Client,
    link: Link,
    /// Wakes the loop for the session's timers and, on ENet, the next service.
    sleep: Pin<Box<tokio::time::Sleep>>,
    #[cfg_attr(not(feature = "enet"), allow(dead_code))]
    service_interval: Duration,
    #[cfg_attr(not(feature = "enet"), allow(dead_code))]
    next_service: Instant,
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("id", &self.client.unique_id())
            .finish_non_exhaustive()
    }
}

impl Peer {
    /// A builder for a client that knows `scene` (a [`Scene`], or an `Arc<Scene>` that
    /// many bots share).
    pub fn builder(scene: impl Into<Arc<Scene>>) -> PeerBuilder {
        PeerBuilder {
            scene: scene.into(),
            opts: Options::default(),
            service_interval: Duration::from_millis(10),
            max_packet: 1 << 20,
        }
    }

    fn new(client: Client, link: Link, every: Duration) -> Self {
        let now = Instant::now();
        Peer {
            client,
            link,
            sleep: Box::pin(tokio::time::sleep_until(now.into())),
            service_interval: every,
            next_service: now + every,
        }
    }

    /// Ticks the session if one of its timers is due.
    fn on_timer(&mut self) {
        let now = Instant::now();
        if self.client.poll_timeout().is_some_and(|t| now >= t) {
            self.client.tick(now);
        }
    }

    session::game_api!(client);

    /// Whether the link to the server is gone.
    pub fn is_closed(&self) -> bool {
        matches!(self.link, Link::Closed)
    }

    fn lost(&mut self) {
        self.link = Link::Closed;
        self.client.disconnected();
    }

    /// Sends everything the session queued.
    pub async fn flush(&mut self) -> Result<()> {
        let mut failed = false;
        match &mut self.link {
            #[cfg(feature = "websocket")]
            Link::Ws(ws) => {
                let mut any = false;
                while let Some(out) = self.client.poll_output() {
                    match out {
                        Output::Send(t) => {
                            any = true;
                            if ws.feed(Message::Binary(t.data.into())).await.is_err() {
                                failed = true;
                                break;
                            }
                        }
                        Output::Disconnect(_) => {
                            let _ = WebSocketStream::close(ws, None).await;
                            failed = true;
                            break;
                        }
                    }
                }
                if any && !failed && ws.flush().await.is_err() {
                    failed = true;
                }
            }
            #[cfg(feature = "enet")]
            Link::Enet(e) => {
                while let Some(out) = self.client.poll_output() {
                    match out {
                        Output::Send(t) => e.send(1, t.channel, t.mode, t.data),
                        Output::Disconnect(_) => {
                            e.disconnect(1);
                            e.flush();
                            failed = true;
                            break;
                        }
                    }
                }
                if !failed {
                    e.flush();
                }
            }
            Link::Closed => while self.client.poll_output().is_some() {},
        }
        if failed {
            self.lost();
        }
        Ok(())
    }

    /// Closes the link (the server sees a disconnect).
    pub async fn close(&mut self) {
        let _ = self.flush().await;
        match &mut self.link {
            #[cfg(feature = "websocket")]
            Link::Ws(ws) => {
                let _ = WebSocketStream::close(ws, None).await;
            }
            #[cfg(feature = "enet")]
            Link::Enet(e) => {
                e.disconnect(1);
                e.flush();
            }
            Link::Closed => {}
        }
        self.lost();
    }

    /// The next event: one already in comes out at once; otherwise what is queued is sent
    /// and the link waited on. After the server is lost it reports
    /// [`Event::ServerDisconnected`] once, then fails.
    ///
    /// Events already in are handed out before anything is sent, as [`Host`](super::Host)
    /// does: what the game answers to them then leaves with what the link held meanwhile
    /// (on ENet, the acknowledgement of the packet that brought them), in one datagram.
    pub async fn next_event(&mut self) -> Result<Event> {
        loop {
            if let Some(ev) = self.client.poll_event() {
                return Ok(ev);
            }
            self.flush().await?;
            if let Some(ev) = self.client.poll_event() {
                return Ok(ev);
            }
            let now = Instant::now();
            match &mut self.link {
                #[cfg(feature = "websocket")]
                Link::Ws(ws) => {
                    tokio::select! {
                        m = ws.next() => match m {
                            Some(Ok(Message::Binary(b))) => {
                                if !b.is_empty() {
                                    self.client.receive(1, 0, TransferMode::Reliable, &b, now);
                                }
                            }
                            Some(Ok(Message::Text(t))) => {
                                self.client.receive(1, 0, TransferMode::Reliable, t.as_bytes(), now);
                            }
                            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => self.lost(),
                            Some(Ok(_)) => {}
                        },
                        _ = sleep_until(&mut self.sleep, self.client.poll_timeout()) => self.on_timer(),
                    }
                }
                #[cfg(feature = "enet")]
                Link::Enet(e) => {
                    let client = &mut self.client;
                    let mut gone = false;
                    let any = e.service(true, |ev| {
                        match ev {
                            EnetEvent::Packet {
                                channel,
                                mode,
                                data,
                                ..
                            } => client.receive(1, channel, mode, data, now),
                            EnetEvent::Disconnected(_) => gone = true,
                            EnetEvent::Connected(_) => {}
                        }
                        true
                    })?;
                    self.next_service = now + self.service_interval;
                    if gone {
                        self.lost();
                        continue;
                    }
                    if any {
                        continue;
                    }
                    let socket = e.socket();
                    // ENet must be serviced regularly even with no datagram (its timers
                    // run inside `service`, at the top of this loop): wake for that too.
                    let wake = match self.client.poll_timeout() {
                        Some(t) => t.min(self.next_service),
                        None => self.next_service,
                    };
                    tokio::select! {
                        r = socket.readable() => r?,
                        _ = sleep_until(&mut self.sleep, Some(wake)) => self.on_timer(),
                    }
                }
                Link::Closed => {
                    return Err(Error::from(ErrorKind::Transport("disconnected".into())))
                }
            }
        }
    }
}

/// Sleeps until `at` (for ever if `None`), reusing `sleep`'s timer entry.
async fn sleep_until(sleep: &mut Pin<Box<tokio::time::Sleep>>, at: Option<Instant>) {
    match at {
        Some(t) => {
            let t = tokio::time::Instant::from_std(t);
            if sleep.deadline() != t {
                sleep.as_mut().reset(t);
            }
            sleep.as_mut().await
        }
        None => std::future::pending().await,
    }
}
