//! The integration tests of godot_bin_multiplayer that need nothing but this repository:
//! the captured packets of Godot 4.4.1 (`tests/data`), the sessions' rules, and the hosts
//! over real loopback sockets. The tests that run a real engine are the `engine` binary.

use godot_bin_testkit as support;

mod multiplayer;
#[cfg(all(feature = "websocket", feature = "enet"))]
mod multiplayer_host;
#[cfg(all(feature = "websocket", feature = "enet"))]
mod transport;
