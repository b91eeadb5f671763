//! Async transports on tokio, thin over the sans-IO sessions: [`Host`] is a server on
//! WebSocket and/or ENet at once, [`Peer`] one client (a bot) on either.
//!
//! Both carry one SceneMultiplayer packet per WebSocket binary message or ENet packet, with
//! no header of their own, as `WebSocketMultiplayerPeer` and `ENetMultiplayerPeer` do.
//!
//! [`Host`] and [`Peer`] own a [`Server`] and a [`Client`] session and have their
//! game-facing methods (`rpc_id`, `rpc`, `send_bytes`, auth...) as their own. Sends are
//! queued; [`Host::next_event`] / [`Peer::next_event`] send them before they wait, and
//! `flush` sends them at once.

#[cfg(feature = "enet")]
mod enet;
mod host;
mod peer;
mod transport;
// The transport rooms: public (as `crate::internals`) only where the crate is built with
// `--cfg fuzzing` (cargo-fuzz, for the framing's fuzz target) or `--cfg
// godot_bin_internals` (the load run's bare-transport example), never in the published API.
#[cfg(all(feature = "websocket", any(fuzzing, godot_bin_internals)))]
pub mod ready;
#[cfg(all(feature = "websocket", not(any(fuzzing, godot_bin_internals))))]
mod ready;
#[cfg(all(feature = "enet", any(fuzzing, godot_bin_internals)))]
pub mod shards;
#[cfg(all(feature = "enet", not(any(fuzzing, godot_bin_internals))))]
mod shards;
#[cfg(all(feature = "enet", any(fuzzing, godot_bin_internals)))]
pub mod udp;
#[cfg(all(feature = "enet", not(any(fuzzing, godot_bin_internals))))]
mod udp;
#[cfg(feature = "websocket")]
mod ws;
#[cfg(all(feature = "websocket", any(fuzzing, godot_bin_internals)))]
pub mod wslink;
#[cfg(all(feature = "websocket", not(any(fuzzing, godot_bin_internals))))]
mod wslink;

pub use host::{Host, HostBuilder};
pub use peer::{Peer, PeerBuilder};
pub use transport::{ClientTransport, LinkEvent, Sent, ServerTransport, TransportEvent};

use super::session::{Client, Server};
use std::hash::{BuildHasher, Hasher};

/// A random peer id in 2..2³¹, as the engine's `generate_unique_id` gives.
pub(crate) fn random_id() -> i32 {
    loop {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        );
        let id = (h.finish() & 0x7FFF_FFFF) as i32;
        if id > 1 {
            return id;
        }
    }
}

#[allow(dead_code)]
fn _assert_send(s: Server, c: Client) -> impl Send {
    (s, c)
}
