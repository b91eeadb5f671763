//! Sans-IO SceneMultiplayer sessions: the state the engine keeps, fed with transport
//! events and packets, producing packets to send and events for the game.
//!
//! Three layers, each a type with its methods written once:
//!
//! * [`Multiplayer`]: what a game calls (RPCs, raw bytes, auth, the peer list), as a
//!   Godot game calls its `multiplayer` object. [`Server`], [`Client`],
//!   [`net::Host`](crate::net::Host) and [`net::Peer`](crate::net::Peer) all dereference
//!   to it.
//! * [`Session`]: what drives a sans-IO session (packets in, outputs and events out,
//!   time); [`Server`] and [`Client`] dereference to it, the drivers in `net` keep it to
//!   themselves.
//! * [`Server`] and [`Client`]: what only one role has (peers connecting, replication;
//!   the link to the server).
//!
//! The state is in types that each own one job, as quinn-proto splits its `Connection`;
//! the files below hold those types and know nothing of [`Multiplayer`]:
//!
//! * `peers`: the peer table (each peer's state by id, in id order, and the auth
//!   deadlines);
//! * `paths`: the path cache, ours (`PathCache`) and each peer's (`PeerPaths`);
//! * `replication`: what a server spawned, with its synchronizers' values, what each peer
//!   was sent or sent (`Replication`, `PeerReplication`), and a frame's sync packets;
//! * `outbox`: the outputs and events waiting, and the buffers handed back;
//! * `io`: the types that go in and out.
//!
//! The files above [`Multiplayer`] are its jobs, each on those types:
//!
//! * `recv`: a packet in, one handler per command; `send`: RPCs, raw bytes and the path
//!   announcements out; `link`: peers coming and going, announcements, auth;
//!   `replicate`: spawns, despawns and synchronizer state out; `timers`: `tick` and
//!   `poll_timeout`.

mod io;
mod link;
mod outbox;
mod paths;
mod peers;
mod recv;
mod replicate;
mod replication;
mod send;
mod timers;

pub use io::{Event, Output, RpcCall, SpawnEvent, SyncEvent, Transmit};
pub use replication::{SpawnScene, SyncSpec};

use super::error::{Error, ErrorKind, Result};
use super::scene::{NodeId, Scene, TransferMode};
use outbox::Outbox;
use paths::PathCache;
use peers::PeerTable;
use replication::Replication;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The server's peer id.
pub const SERVER_ID: i32 = 1;

/// Session options; the defaults are the engine's.
#[derive(Clone, Debug)]
pub struct Options {
    /// `SceneMultiplayer.server_relay`: announce peers to each other and relay between
    /// clients (default true).
    pub server_relay: bool,
    /// Whether `auth_callback` is set: peers stay pending until both sides complete auth.
    pub auth: bool,
    /// `auth_timeout` (default 3 s; zero = none).
    pub auth_timeout: Duration,
    /// How many path-cache entries one peer may announce (the engine has no limit; a
    /// hostile peer could otherwise grow the table without end).
    pub max_paths_per_peer: usize,
    /// How many spawned nodes a server may keep on a client session (same reason).
    pub max_spawned_per_peer: usize,
    /// `max_sync_packet_size` (default 1350).
    pub max_sync_packet_size: usize,
    /// `max_delta_packet_size` (default 65535).
    pub max_delta_packet_size: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            server_relay: true,
            auth: false,
            auth_timeout: Duration::from_secs(3),
            max_paths_per_peer: 4096,
            max_spawned_per_peer: 65536,
            max_sync_packet_size: 1350,
            max_delta_packet_size: 65535,
        }
    }
}

/// What a game calls, as a Godot game calls its `multiplayer` object: RPCs
/// ([`rpc_id`](Self::rpc_id), [`rpc`](Self::rpc), [`call_args`](Self::call_args)), raw
/// bytes ([`send_bytes`](Self::send_bytes)), auth ([`send_auth`](Self::send_auth),
/// [`complete_auth`](Self::complete_auth)) and the peer list.
///
/// A [`Server`], a [`Client`], a [`net::Host`](crate::net::Host) and a
/// [`net::Peer`](crate::net::Peer) dereference to it, so these are their methods too.
/// What they queue goes out with the driver's next turn (a sans-IO session's
/// [`Session::poll_output`]).
#[derive(Debug)]
pub struct Multiplayer {
    scene: Arc<Scene>,
    opts: Options,
    is_server: bool,
    /// Our peer id (1 on a server; on a client, 0 until it connects).
    unique_id: i32,
    peers: PeerTable,
    paths: PathCache,
    replication: Replication,
    outbox: Outbox,
}

impl Multiplayer {
    fn new(scene: Arc<Scene>, opts: Options, is_server: bool) -> Self {
        let nodes = scene.len();
        Multiplayer {
            scene,
            opts,
            is_server,
            unique_id: if is_server { SERVER_ID } else { 0 },
            peers: PeerTable::default(),
            paths: PathCache::new(nodes),
            replication: Replication::default(),
            outbox: Outbox::default(),
        }
    }

    /// The declared scene.
    pub fn scene(&self) -> &Arc<Scene> {
        &self.scene
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Our peer id (1 on a server; on a client, 0 until it connects).
    pub fn unique_id(&self) -> i32 {
        self.unique_id
    }

    /// The admitted peers (`multiplayer.get_peers()`).
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers.admitted()
    }

    /// Peers whose auth is in progress.
    pub fn authenticating_peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers
            .iter()
            .filter(|(_, p)| p.pending.is_some())
            .map(|(id, _)| id)
    }

    fn node_id(&self, path: &str) -> Result<NodeId> {
        self.scene
            .node_id(path)
            .ok_or_else(|| Error::from(ErrorKind::UnknownNode(path.to_owned())))
    }
}

/// What drives a sans-IO session: packets in ([`receive`](Self::receive)), packets to
/// send ([`poll_output`](Self::poll_output)) and events for the game
/// ([`poll_event`](Self::poll_event)) out, and time ([`tick`](Self::tick),
/// [`poll_timeout`](Self::poll_timeout)), which the caller passes in: the session never
/// reads the clock.
///
/// [`Server`] and [`Client`] dereference to it, and it to [`Multiplayer`]. The drivers of
/// [`net`](crate::net) drive their own session, so it is not reachable through them.
#[derive(Debug)]
pub struct Session(Multiplayer);

impl Session {
    /// A packet arrived from transport peer `from` (on a client, always 1) at `now`.
    pub fn receive(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
        now: Instant,
    ) {
        self.0.receive(from, channel, mode, packet, now)
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.0.outbox.next_event()
    }

    /// The next packet or disconnect for the transport, if any.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.0.outbox.next_output()
    }

    /// Whether outputs are waiting.
    pub fn has_output(&self) -> bool {
        self.0.outbox.has_output()
    }

    /// Drops pending peers whose auth took longer than the timeout, and (server) sends
    /// the replication state of this network frame. Call it every network frame, and at
    /// [`poll_timeout`](Self::poll_timeout).
    pub fn tick(&mut self, now: Instant) {
        self.0.tick(now)
    }

    /// When [`tick`](Self::tick) next has a timer to serve: the earliest instant at which
    /// a peer still in auth reaches [`Options::auth_timeout`] (a `tick` at or after it
    /// drops that peer). `None` when no timer is pending: no peer in auth, or the timeout
    /// is zero (none).
    ///
    /// This covers the session's timers only. A server's replication is sent by `tick`
    /// too, once per network frame at a rate the caller chooses (the engine's is the
    /// process frame, [`net::Host`](crate::net::Host)'s its `sync_interval`): a server
    /// that replicates ticks at the earlier of this instant and its next frame.
    pub fn poll_timeout(&self) -> Option<Instant> {
        self.0.poll_timeout()
    }
}

impl Deref for Session {
    type Target = Multiplayer;
    fn deref(&self) -> &Multiplayer {
        &self.0
    }
}

impl DerefMut for Session {
    fn deref_mut(&mut self) -> &mut Multiplayer {
        &mut self.0
    }
}

/// The server side of SceneMultiplayer (peer id 1). The game's calls are
/// [`Multiplayer`]'s, the driver's [`Session`]'s (it dereferences to both).
///
/// ```
/// use godot_bin_multiplayer::{Event, NodeConfig, Options, Output, Rpc, Scene, Server, TransferMode};
/// use std::{sync::Arc, time::Instant};
///
/// let scene = Scene::new().with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))?;
/// let mut server = Server::new(Arc::new(scene), Options::default());
/// let now = Instant::now();
/// server.peer_connected(7, now)?;
/// // The client calls echo("hi") by path: REMOTE_CALL, full-path form.
/// let mut call = Vec::new();
/// godot_bin_multiplayer::wire::put_remote_call(
///     &mut call,
///     godot_bin_multiplayer::wire::NodeField::Path,
///     0,
///     godot_bin_multiplayer::ArgsForm::Values(1),
///     &godot_bin_multiplayer::Args::new(&("hi",))?.as_bytes(),
///     "Echo",
/// );
/// server.receive(7, 0, TransferMode::Reliable, &call, now);
/// while let Some(event) = server.poll_event() {
///     if let Event::Call(c) = event {
///         let (text,): (String,) = c.args.decode()?;
///         assert_eq!(text, "hi");
///         server.call_args(c.from, c.node, &c.method, &c.args)?; // answer in kind
///     }
/// }
/// assert!(matches!(server.poll_output(), Some(Output::Send(_)))); // SIMPLIFY_PATH
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
#[derive(Debug)]
pub struct Server(Session);

impl Server {
    /// A server session over `scene`.
    pub fn new(scene: Arc<Scene>, opts: Options) -> Self {
        Server(Session(Multiplayer::new(scene, opts, true)))
    }

    /// Hands back the buffer of a [`Transmit`] the transport has copied out, for the
    /// session to write a later packet into (a driver's way to spare an allocation a
    /// packet; the session keeps a few small ones and drops the rest).
    pub fn recycle(&mut self, buf: Vec<u8>) {
        self.0 .0.outbox.recycle(buf)
    }
}

impl Deref for Server {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.0
    }
}

impl DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.0
    }
}

/// The client side of SceneMultiplayer: one link, to the server (peer 1); other clients
/// are reached through the server's relay. The game's calls are [`Multiplayer`]'s, the
/// driver's [`Session`]'s (it dereferences to both).
#[derive(Debug)]
pub struct Client(Session);

impl Client {
    /// A client session over `scene`.
    pub fn new(scene: Arc<Scene>, opts: Options) -> Self {
        Client(Session(Multiplayer::new(scene, opts, false)))
    }
}

impl Deref for Client {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.0
    }
}

impl DerefMut for Client {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.0
    }
}
