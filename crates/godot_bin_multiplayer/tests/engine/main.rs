//! The tests of godot_bin_multiplayer that run a real engine (Godot 4.4.1 clients and
//! servers): one binary with its own harness (libtest-mimic), so that a trial whose engine
//! is absent is reported as *ignored* with the reason, never as passed, and fails under
//! `GODOT_BIN_REQUIRE_ENGINE=1` (CI). The engine is found through `GODOT4_BIN` (and
//! `GODOT3_BIN`, else `godot3-server` on `PATH`, for the Godot 3 WebSocket client).

use godot_bin_testkit as support;

#[cfg(all(feature = "websocket", feature = "enet"))]
mod multiplayer;
#[cfg(feature = "websocket")]
mod readme;
#[cfg(feature = "websocket")]
mod websocket;

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    #[allow(unused_mut)] // without the transports, there is nothing to add
    let mut trials: Vec<libtest_mimic::Trial> = Vec::new();
    #[cfg(all(feature = "websocket", feature = "enet"))]
    trials.extend(multiplayer::trials());
    #[cfg(feature = "websocket")]
    trials.extend(websocket::trials());
    #[cfg(feature = "websocket")]
    trials.extend(readme::trials());
    if !args.list {
        // On stderr: `--list` output is read by tools.
        eprintln!("engine tests: {}", support::engine::summary());
    }
    libtest_mimic::run(&args, trials).exit();
}
