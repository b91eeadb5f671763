//! The bare transport: an echo server of SceneMultiplayer's packets on the same transport
//! code as `net::Host` (its WebSocket framing, `net/wslink/`, on tokio; rusty_enet), with
//! no session in between.
//! It is the limit the load run holds the SceneMultiplayer server to
//! (`benches/multiplayer_load.sh`): whatever the Rust server spends per call beyond this
//! is SceneMultiplayer's.
//!
//! ```sh
//! RUSTFLAGS='--cfg godot_bin_internals' cargo run --release -p godot_bin_multiplayer --example multiplayer_bare -- --ws 9080
//! RUSTFLAGS='--cfg godot_bin_internals' cargo run --release -p godot_bin_multiplayer --example multiplayer_bare -- --enet 9081
//! ```
//!
//! It speaks just enough of each transport for `net::Peer` bots (and Godot clients) to
//! connect: the WebSocket id message, the ENet connect. Every packet a peer sends comes
//! back to it unchanged (an echoed SIMPLIFY_PATH names the bot's own node, and its echoed
//! CONFIRM_PATH confirms the bot's own cache id, so a bot's `echo(i)` call comes back as a
//! call of `echo(i)` on it, in the same form and size as the SceneMultiplayer server's
//! answer).
//!
//! Flags: `--ws PORT` or `--enet PORT`; `--bind IP` (default 127.0.0.1); `--ws-mode
//! reactor|tasks` (default reactor: one task polls every connection through per-connection
//! wakers; tasks: one tokio task per connection); `--enet-peers N` (ENet peer slots,
//! default 4095 as the engine's server and `net::Host`); `--batch-window-us N` (as
//! `multiplayer_echo`'s, `HostBuilder::batch_window`: after a turn that left nothing to
//! do, wait N µs on the timer before looking at the sockets again; default 0; reactor and
//! ENet).
//!
//! It runs on the crate's transport internals, which exist only in a build with `--cfg
//! godot_bin_internals` (no feature exposes them); built without, it says so and exits.

#[cfg(godot_bin_internals)]
mod bare;

#[cfg(godot_bin_internals)]
fn main() -> std::io::Result<()> {
    bare::main()
}

#[cfg(not(godot_bin_internals))]
fn main() {
    eprintln!(
        "multiplayer_bare runs on the crate's transport internals: build it with \
         RUSTFLAGS='--cfg godot_bin_internals' (benches/multiplayer_load.sh does)"
    );
    std::process::exit(2);
}
