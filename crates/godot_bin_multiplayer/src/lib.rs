//! # godot_bin_multiplayer
//!
//! Godot 4 high-level multiplayer (`@rpc`, `SceneMultiplayer`) for Rust servers and bots
//! that unmodified Godot 4.4 games talk to, over WebSocket and ENet. Values cross as
//! [`godot_bin`](https://docs.rs/godot_bin)'s Variant packets.
//!
//! A Godot game that uses `rpc()` / `rpc_id()`, `MultiplayerSpawner`,
//! `MultiplayerSynchronizer` or `send_bytes` over `WebSocketMultiplayerPeer` or
//! `ENetMultiplayerPeer` sends SceneMultiplayer packets. This crate speaks that protocol:
//!
//! * [`wire`]: every packet, parsed and built without state.
//! * [`Server`] and [`Client`]: sans-IO sessions that keep the engine's state (path caches,
//!   confirmations, auth, peer announcements, relay, replication). Feed them transport
//!   events and packets; take [`Output`]s to send and [`Event`]s for the game.
//! * [`net`] (features `websocket` / `enet`, both on by default): async transports on
//!   tokio: [`net::Host`] serves both at once, [`net::Peer`] is one client (a bot).
//!
//! ```no_run
//! # #[cfg(all(feature = "websocket", feature = "enet"))]
//! # async fn run() -> godot_bin_multiplayer::Result<()> {
//! use godot_bin::Vector3;
//! use godot_bin_multiplayer::{net, Event, NodeConfig, Rpc, Scene};
//!
//! let scene = Scene::new().with(
//!     NodeConfig::new("Game")
//!         .rpc(Rpc::any_peer("hello"))
//!         .rpc(Rpc::any_peer("move_to").unreliable_ordered().channel(1)),
//! )?;
//! let mut host = net::Host::builder(scene)
//!     .websocket("0.0.0.0:9080".parse().unwrap())
//!     .enet("0.0.0.0:9081".parse().unwrap())
//!     .start()
//!     .await?;
//! loop {
//!     match host.next_event().await? {
//!         Event::PeerConnected(id) => host.rpc_id(id, "Game", "hello", &("welcome",))?,
//!         Event::Call(call) if &*call.method == "move_to" => {
//!             let (to,): (Vector3,) = call.args.decode()?;
//!             host.rpc_id(-call.from, "Game", "move_to", &(to,))?; // tell everyone else
//!         }
//!         _ => {}
//!     }
//! }
//! # }
//! ```
//!
//! The Godot client this server expects (the node at `/root/Game` and its `@rpc`
//! annotations) is in the crate's README. The protocol, in our own words, with the version
//! facts, is in `docs/multiplayer.md`.
//! Tested against Godot 4.4.1. The engine declares this protocol internal and free to
//! change between versions: a client of another version may use other command bytes or
//! checksums; the sessions then refuse what they cannot parse
//! ([`Event::Refused`]) rather than guess.

#![deny(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// `cargo test --doc` runs README.md's Rust blocks as written (they are not part of the
// rendered docs: `doctest` is set only while rustdoc collects tests).
#![cfg_attr(
    all(doctest, feature = "websocket", feature = "enet"),
    doc = include_str!("../README.md")
)]

mod args;
mod error;
mod map;
#[cfg(any(feature = "websocket", feature = "enet"))]
pub mod net;
mod scene;
mod session;
mod variant_io;
pub mod wire;

/// The transport internals [`net::Host`] runs on, for the crate's own bare-transport
/// benchmark (`examples/multiplayer_bare`: the same packets echoed on the same transport
/// code, no session), which the load run holds the server to, and for the framing's fuzz
/// target. Not an API: it exists only in a build with `--cfg godot_bin_internals` (the
/// load run's scripts set it) or `--cfg fuzzing` (cargo-fuzz sets it), as quinn-proto keeps
/// its fuzzing entry points behind `cfg(fuzzing)`; no feature turns it on. A third-party
/// transport needs none of it: it implements [`net::ServerTransport`] or
/// [`net::ClientTransport`].
#[cfg(all(
    any(feature = "websocket", feature = "enet"),
    any(fuzzing, godot_bin_internals)
))]
pub mod internals {
    #[cfg(feature = "websocket")]
    pub use crate::net::ready;
    #[cfg(feature = "enet")]
    pub use crate::net::shards;
    #[cfg(feature = "enet")]
    pub use crate::net::udp;
    #[cfg(feature = "websocket")]
    pub use crate::net::wslink;
}

pub use args::{Args, CallArgs};
pub use error::{Error, ErrorKind, Result};
pub use scene::{
    NodeConfig, NodeId, ReplicatedProperty, ReplicationConfig, ReplicationMode, Rpc, RpcMode,
    Scene, TransferMode,
};
pub use session::{
    Client, Event, Multiplayer, Options, Output, RpcCall, Server, Session, SpawnEvent, SpawnScene,
    SyncEvent, SyncSpec, Transmit, SERVER_ID,
};
pub use variant_io::ArgsForm;
