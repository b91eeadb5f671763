//! One client of a Godot server (or of a [`Host`](super::Host)): a bot.

#[cfg(feature = "enet")]
use super::enet::{EnetClient, EnetLink};
#[cfg(feature = "enet")]
use super::transport::TransportEvent;
use super::transport::{ClientTransport, LinkEvent};
#[cfg(feature = "websocket")]
use super::ws::WsClient;
use crate::error::{Error, ErrorKind, Result};
use crate::scene::Scene;
#[cfg(feature = "enet")]
use crate::scene::TransferMode;
use crate::session::{Client, Event, Multiplayer, Options, Output};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

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
    /// need no polling: the peer sleeps until [`Session::poll_timeout`](crate::Session::poll_timeout). A WebSocket peer
    /// ignores this.
    pub fn service_interval(mut self, every: Duration) -> Self {
        self.service_interval = every;
        self
    }

    /// Connects to `ws://host:port/path` as `WebSocketMultiplayerPeer.create_client` does.
    #[cfg(feature = "websocket")]
    pub async fn connect_websocket(self, url: &str) -> Result<Peer> {
        let (ws, id) = super::ws::connect(url, self.max_packet).await?;
        self.connect_with(Box::new(WsClient::new(ws)), id, Vec::new())
    }

    /// A peer over a transport of the caller's, already connected to the server as peer
    /// `id` (what the server told it, or chose itself as ENet's client does), with the
    /// packets that arrived with the connection (`(channel, mode, data)`), which the session
    /// reads first.
    pub fn connect_with(
        self,
        transport: Box<dyn ClientTransport>,
        id: i32,
        early: Vec<(u8, crate::scene::TransferMode, Vec<u8>)>,
    ) -> Result<Peer> {
        let mut client = Client::new(self.scene, self.opts);
        let now = Instant::now();
        client.connected(id, now)?;
        for (channel, mode, data) in early {
            client.receive(1, channel, mode, &data, now);
        }
        Ok(Peer::new(client, transport))
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
                link.service(Instant::now(), true, &mut |ev| {
                    match ev {
                        TransportEvent::Connected(_) => state = state.or(Some(true)),
                        TransportEvent::Disconnected(_) => state = Some(false),
                        TransportEvent::Packet {
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
        let every = self.service_interval;
        let enet = EnetClient::new(link, every, Instant::now());
        self.connect_with(Box::new(enet), id, early)
    }
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
///     // The node and ALL its RPCs, in the order the server's script declares them
///     // (`@rpc("any_peer")`; here `examples/multiplayer_echo`'s Echo node): the engine
///     // numbers RPCs by that order and checks an MD5 of the list, so a bot that declares
///     // fewer gets `Event::ChecksumMismatch` (harmless, the engine only logs it) and
///     // calls the wrong methods by number.
///     let scene = Scene::new().with(
///         NodeConfig::new("Echo")
///             .rpc(Rpc::any_peer("echo"))
///             .rpc(Rpc::any_peer("echo_many"))
///             .rpc(Rpc::any_peer("echo_unreliable").unreliable_ordered().channel(1)),
///     )?;
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
///             other => println!("{other:?}"),
///         }
///     }
///     bot.close().await;
///     Ok(())
/// }
/// ```
///
/// It owns a [`Client`] session and dereferences to its game-facing half,
/// [`Multiplayer`]: [`rpc_id`](Multiplayer::rpc_id), [`rpc`](Multiplayer::rpc),
/// [`call_args`](Multiplayer::call_args), [`send_bytes`](Multiplayer::send_bytes), auth
/// ([`send_auth`](Multiplayer::send_auth), [`complete_auth`](Multiplayer::complete_auth))
/// and the peer list are the peer's methods. What those queue is sent by
/// [`next_event`](Peer::next_event) or [`flush`](Peer::flush). The peer drives the session
/// itself, so the sans-IO half of [`Client`] ([`Session`](crate::Session): `receive`,
/// `poll_event`, `tick`) is not reachable through it: events come from
/// [`next_event`](Peer::next_event).
pub struct Peer {
    client: Client,
    /// The link to the server; `None` once it is gone.
    link: Option<Box<dyn ClientTransport>>,
    /// Wakes the loop for the session's timers and the transport's ([`ClientTransport::next_wake`]).
    sleep: Pin<Box<tokio::time::Sleep>>,
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

    fn new(client: Client, link: Box<dyn ClientTransport>) -> Self {
        Peer {
            client,
            link: Some(link),
            sleep: Box::pin(tokio::time::sleep_until(Instant::now().into())),
        }
    }

    /// Ticks the session if one of its timers is due.
    fn on_timer(&mut self) {
        let now = Instant::now();
        if self.client.poll_timeout().is_some_and(|t| now >= t) {
            self.client.tick(now);
        }
    }

    /// Whether the link to the server is gone.
    pub fn is_closed(&self) -> bool {
        self.link.is_none()
    }

    fn lost(&mut self) {
        self.link = None;
        self.client.disconnected();
    }

    /// Hands what the session queued to the link; whether the session asked to close it.
    fn queue_outputs(&mut self) -> bool {
        let Some(link) = &mut self.link else {
            while self.client.poll_output().is_some() {}
            return false;
        };
        while let Some(out) = self.client.poll_output() {
            match out {
                Output::Send(t) => link.send(t.channel, t.mode, t.data),
                Output::Disconnect(_) => {
                    link.close();
                    return true;
                }
            }
        }
        false
    }

    /// One step of writing: what the session queued goes to the link, and the link writes
    /// what it can. Ready once all is written (or the link is gone).
    fn poll_write(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let closing = self.queue_outputs();
        let Some(link) = &mut self.link else {
            return Poll::Ready(());
        };
        match link.poll_flush(cx) {
            Poll::Ready(Ok(())) if !closing => Poll::Ready(()),
            // Closed as asked, or failed: the server is gone for this peer.
            Poll::Ready(_) => {
                self.lost();
                Poll::Ready(())
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// Sends everything the session queued.
    pub async fn flush(&mut self) -> Result<()> {
        std::future::poll_fn(|cx| self.poll_write(cx)).await;
        Ok(())
    }

    /// Closes the link (the server sees a disconnect).
    pub async fn close(&mut self) {
        let _ = self.flush().await;
        if let Some(link) = &mut self.link {
            link.close();
            let _ = std::future::poll_fn(|cx| link.poll_flush(cx)).await;
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
        std::future::poll_fn(|cx| self.poll_event(cx)).await
    }

    fn poll_event(&mut self, cx: &mut Context<'_>) -> Poll<Result<Event>> {
        loop {
            if let Some(ev) = self.client.poll_event() {
                return Poll::Ready(Ok(ev));
            }
            // Writing what is queued may wait for the socket; reading goes on meanwhile.
            let _ = self.poll_write(cx);
            if let Some(ev) = self.client.poll_event() {
                return Poll::Ready(Ok(ev));
            }
            let now = Instant::now();
            let Some(link) = &mut self.link else {
                return Poll::Ready(Err(Error::from(ErrorKind::Transport(
                    "disconnected".into(),
                ))));
            };
            let client = &mut self.client;
            let mut gone = false;
            let any = link.poll(cx, now, &mut |ev| match ev {
                LinkEvent::Packet {
                    channel,
                    mode,
                    data,
                } => client.receive(1, channel, mode, data, now),
                LinkEvent::Closed => gone = true,
            });
            match any {
                Err(e) => return Poll::Ready(Err(e)),
                Ok(_) if gone => {
                    self.lost();
                    continue;
                }
                Ok(true) => continue,
                Ok(false) => {}
            }
            // Nothing came: sleep until the session's next timer or the transport's.
            let wake = match (self.client.poll_timeout(), link.next_wake()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            let Some(wake) = wake else {
                return Poll::Pending;
            };
            let at = tokio::time::Instant::from_std(wake);
            if self.sleep.deadline() != at {
                self.sleep.as_mut().reset(at);
            }
            match self.sleep.as_mut().poll(cx) {
                Poll::Ready(()) => self.on_timer(),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

impl std::ops::Deref for Peer {
    type Target = Multiplayer;
    fn deref(&self) -> &Multiplayer {
        &self.client
    }
}

impl std::ops::DerefMut for Peer {
    fn deref_mut(&mut self) -> &mut Multiplayer {
        &mut self.client
    }
}
