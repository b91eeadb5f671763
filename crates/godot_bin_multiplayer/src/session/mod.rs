//! Sans-IO SceneMultiplayer sessions: the state the engine keeps, fed with transport
//! events and packets, producing packets to send and events for the game.
//!
//! This file holds the shared [`Session`] state and the two roles over it, [`Server`] and
//! [`Client`], and re-exports the public types; each job has its own file, as quinn-proto
//! splits its `Connection`:
//!
//! * `api`: the methods the roles share, written once as macros (also used by `net`);
//! * `io`: what goes in and out ([`Transmit`], [`Output`], [`Event`] and its payloads);
//! * `peers`: links, peer announcements and auth;
//! * `recv`: receiving and dispatching packets (relay, path cache, calls, replication in);
//! * `send`: RPCs, raw bytes and the path cache on the sending side;
//! * `replication`: spawn, despawn and synchronizer state (server authority);
//! * `timers`: `tick`, the network frame and the auth timeouts.

mod api;
mod io;
mod peers;
mod recv;
mod replication;
mod send;
mod timers;

#[cfg(any(feature = "websocket", feature = "enet"))]
pub(crate) use api::game_api;
pub use io::{Event, Output, RpcCall, SpawnEvent, SyncEvent, Transmit};
pub use replication::{SpawnScene, SyncSpec};

use super::error::{Error, ErrorKind, Result};
use super::scene::{NodeId, Scene};
use peers::PeerTable;
use replication::SpawnedNode;
use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How many sent packet buffers a session keeps for reuse.
const SPARE_BUFFERS: usize = 64;
/// The largest buffer kept for reuse (bytes of capacity).
const SPARE_CAPACITY: usize = 2048;

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

/// The state both sides share; [`Server`] and [`Client`] add what is theirs and expose
/// its methods as their own (see `api`).
#[derive(Debug)]
pub(crate) struct Session {
    scene: Arc<Scene>,
    opts: Options,
    is_server: bool,
    unique_id: i32,
    peers: PeerTable,
    /// The peers in auth, earliest start first: the auth timer reads the first one, so
    /// neither `poll_timeout` nor `tick` walks every peer.
    in_auth: BTreeSet<(Instant, i32)>,
    /// Our cache id of each node (0 = none yet).
    cache_ids: Vec<u32>,
    /// Which node each of our cache ids names (id 1 is index 0).
    assigned: Vec<NodeId>,
    out: VecDeque<Output>,
    events: VecDeque<Event>,
    spawned: Vec<SpawnedNode>,
    last_net_id: u32,
    version: u64,
    scratch: Vec<u8>,
    /// Packet buffers the host has written out and handed back ([`Server::recycle`]):
    /// an answer's packet reuses one instead of allocating.
    spare: Vec<Vec<u8>>,
}

impl Session {
    fn new(scene: Arc<Scene>, opts: Options, is_server: bool) -> Self {
        let n = scene.len();
        Session {
            scene,
            opts,
            is_server,
            unique_id: if is_server { SERVER_ID } else { 0 },
            peers: PeerTable::default(),
            in_auth: BTreeSet::new(),
            cache_ids: vec![0; n],
            assigned: Vec::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            spawned: Vec::new(),
            last_net_id: 0,
            version: 0,
            scratch: Vec::new(),
            spare: Vec::new(),
        }
    }

    /// Keeps `buf` (already sent) for a later packet: at most [`SPARE_BUFFERS`] of them,
    /// none larger than [`SPARE_CAPACITY`], so that a burst of big packets is not held.
    pub(crate) fn recycle(&mut self, mut buf: Vec<u8>) {
        if self.spare.len() < SPARE_BUFFERS && buf.capacity() <= SPARE_CAPACITY {
            buf.clear();
            self.spare.push(buf);
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

    /// Our peer id (0 on a client before it connects).
    pub fn unique_id(&self) -> i32 {
        self.unique_id
    }

    /// The admitted peers (`multiplayer.get_peers()`).
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers
            .iter()
            .filter(|(_, p)| p.pending.is_none())
            .map(|(id, _)| id)
    }

    /// Peers whose auth is in progress.
    pub fn authenticating_peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers
            .iter()
            .filter(|(_, p)| p.pending.is_some())
            .map(|(id, _)| id)
    }

    fn admitted(&self, peer: i32) -> bool {
        self.peers.get(&peer).is_some_and(|p| p.pending.is_none())
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next packet or disconnect for the transport, if any.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// Whether outputs are waiting.
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    fn node_id(&self, path: &str) -> Result<NodeId> {
        self.scene
            .node_id(path)
            .ok_or_else(|| Error::from(ErrorKind::UnknownNode(path.to_owned())))
    }
}

/// The server side of SceneMultiplayer (peer id 1).
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
        Server(Session::new(scene, opts, true))
    }

    /// Hands back the buffer of a [`Transmit`] the transport has copied out, for the
    /// session to write a later packet into (a driver's way to spare an allocation a
    /// packet; the session keeps a few small ones and drops the rest).
    pub fn recycle(&mut self, buf: Vec<u8>) {
        self.0.recycle(buf)
    }

    api::game_api!(0);
    api::driver_api!(0);
}

/// The client side of SceneMultiplayer: one link, to the server (peer 1); other clients
/// are reached through the server's relay.
#[derive(Debug)]
pub struct Client(Session);

impl Client {
    /// A client session over `scene`.
    pub fn new(scene: Arc<Scene>, opts: Options) -> Self {
        Client(Session::new(scene, opts, false))
    }

    api::game_api!(0);
    api::driver_api!(0);
}
