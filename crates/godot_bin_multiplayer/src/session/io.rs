//! What goes in and out of a session: packets and disconnects for the transport
//! ([`Transmit`], [`Output`]) and what the game is told ([`Event`] and its payloads).

use crate::args::Args;
use crate::error::Error;
use crate::scene::{NodeId, TransferMode};
use godot_bin::Variant;
use std::sync::Arc;

/// A packet for the transport to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmit {
    /// The transport peer (on a client, always 1).
    pub to: i32,
    /// The channel.
    pub channel: u8,
    /// The transfer mode.
    pub mode: TransferMode,
    /// The SceneMultiplayer packet.
    pub data: Vec<u8>,
}

/// What the session asks of its transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Send a packet.
    Send(Transmit),
    /// Close the link to this peer.
    Disconnect(i32),
}

/// A received RPC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcCall {
    /// The caller (`multiplayer.get_remote_sender_id()`): the transport peer, or the source
    /// of a relayed call.
    pub from: i32,
    /// The node.
    pub node: NodeId,
    /// The node's path.
    pub path: Arc<str>,
    /// The method.
    pub method: Arc<str>,
    /// The arguments.
    pub args: Args,
}

/// A node a server spawned, as a client sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnEvent {
    /// The spawner's authority that sent it.
    pub from: i32,
    /// The MultiplayerSpawner node.
    pub spawner: NodeId,
    /// The spawned node's network id.
    pub net_id: u32,
    /// Its name.
    pub name: String,
    /// Index of the spawnable scene, or 0xFF for a custom spawn.
    pub scene: u8,
    /// A custom spawn's argument.
    pub arg: Option<Variant>,
    /// Network ids of its synchronizers.
    pub sync_ids: Vec<u32>,
    /// The spawn properties, in config order.
    pub state: Vec<Variant>,
}

/// Synchronizer state as a client receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncEvent {
    /// The authority that sent it.
    pub from: i32,
    /// The synchronizer's network id.
    pub net_id: u32,
    /// Delta sync: `indexes` says which "on change" properties `values` holds.
    pub delta: bool,
    /// Delta only: bit i = the i-th "on change" property.
    pub indexes: u64,
    /// The values.
    pub values: Vec<Variant>,
}

/// Something the game should know: what `multiplayer`'s signals and `@rpc` functions tell
/// a Godot game, from [`Session::poll_event`](super::Session::poll_event)
/// (on a [`Server`](super::Server) or a [`Client`](super::Client)) or a driver's `next_event`.
///
/// ```
/// use godot_bin_multiplayer::{Event, NodeConfig, Options, Rpc, Scene, Server};
/// use std::sync::Arc;
/// use std::time::Instant;
///
/// let scene = Scene::new().with(NodeConfig::new("Game").rpc(Rpc::any_peer("hello")))?;
/// let mut server = Server::new(Arc::new(scene), Options::default());
/// // A transport says peer 7 connected (no auth configured: admitted at once).
/// server.peer_connected(7, Instant::now())?;
/// while let Some(event) = server.poll_event() {
///     match event {
///         Event::PeerConnected(id) => assert_eq!(id, 7),
///         Event::Call(call) => println!("{} called {}", call.from, call.method),
///         Event::PeerDisconnected(id) => println!("{id} left"),
///         other => println!("{other:?}"), // the enum grows: keep a catch-all
///     }
/// }
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Event {
    /// A peer connected at transport level and auth started (`peer_authenticating`).
    PeerAuthenticating(i32),
    /// Auth data from a pending peer (the `auth_callback`).
    Auth {
        /// The peer.
        peer: i32,
        /// Its data.
        data: Vec<u8>,
    },
    /// A pending peer was dropped (`peer_authentication_failed`).
    AuthFailed(i32),
    /// A peer was admitted (`peer_connected`).
    PeerConnected(i32),
    /// A peer left (`peer_disconnected`).
    PeerDisconnected(i32),
    /// A client's link to the server is up and admitted (`connected_to_server`).
    ConnectedToServer,
    /// A client lost its server (`server_disconnected`).
    ServerDisconnected,
    /// An RPC.
    Call(RpcCall),
    /// `send_bytes` data (`peer_packet`).
    Bytes {
        /// The sender.
        from: i32,
        /// The bytes.
        data: Vec<u8>,
    },
    /// A node was spawned (client side).
    Spawn(SpawnEvent),
    /// A spawned node was despawned (client side).
    Despawn {
        /// The sender.
        from: i32,
        /// The node's network id.
        net_id: u32,
    },
    /// Synchronizer state (client side).
    Sync(SyncEvent),
    /// The peer's RPC checksum for a node differs from ours (the engine only logs this).
    ChecksumMismatch {
        /// The peer.
        peer: i32,
        /// The node's path.
        path: String,
    },
    /// A packet was refused and dropped, as the engine drops it.
    Refused {
        /// The peer it came from.
        from: i32,
        /// Why.
        error: Error,
    },
}
