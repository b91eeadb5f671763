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
/// A module of the transport internals: public (shown as `crate::internals`) only with the
/// `internals` feature, for the crate's own bare-transport benchmark.
macro_rules! internal_mod {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[cfg(feature = "internals")]
        #[doc(hidden)]
        pub mod $name;
        $(#[$meta])*
        #[cfg(not(feature = "internals"))]
        pub(crate) mod $name;
    };
}
internal_mod!(
    #[cfg(feature = "websocket")]
    ready
);
internal_mod!(
    #[cfg(feature = "enet")]
    shards
);
internal_mod!(
    #[cfg(feature = "enet")]
    udp
);
internal_mod!(window);
#[cfg(feature = "websocket")]
mod ws;
internal_mod!(
    #[cfg(feature = "websocket")]
    wslink
);

pub use host::{Host, HostBuilder};
pub use peer::{Peer, PeerBuilder};
pub use transport::{ClientTransport, LinkEvent, Sent, ServerTransport, TransportEvent};

use super::scene::TransferMode;
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

/// ENet channel for a SceneMultiplayer channel and mode: channels 0 and 1 are the
/// engine's system channels (reliable, unreliable); user channel c is ENet channel c + 1.
#[cfg_attr(not(feature = "enet"), allow(dead_code))]
pub(crate) fn enet_channel(channel: u8, mode: TransferMode) -> u8 {
    match (channel, mode) {
        (0, TransferMode::Reliable) => 0,
        (0, _) => 1,
        (c, _) => c.saturating_add(1),
    }
}

/// SceneMultiplayer channel and mode of a packet that came on ENet channel `ch`. The mode
/// is not read from the packet: `rusty_enet` 0.4.1's `Packet::kind()` reports every
/// received packet as reliable. Channel 1 carries only unreliable packets; on the user
/// channels the mode is taken as reliable, which only matters when the packet is relayed
/// (a relayed packet then keeps its order and arrives).
#[cfg_attr(not(feature = "enet"), allow(dead_code))]
pub(crate) fn from_enet_channel(ch: u8) -> (u8, TransferMode) {
    match ch {
        0 => (0, TransferMode::Reliable),
        1 => (0, TransferMode::Unreliable),
        c => (c - 1, TransferMode::Reliable),
    }
}

#[allow(dead_code)]
fn _assert_send(s: Server, c: Client) -> impl Send {
    (s, c)
}
