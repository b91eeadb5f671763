//! An echo server for Godot 4 `@rpc` clients, over WebSocket and/or ENet.
//!
//! ```sh
//! cargo run --release -p godot_bin_multiplayer --example multiplayer_echo -- --ws 9080 --enet 9081
//! cargo run --release -p godot_bin_multiplayer --example multiplayer_echo -- --bind 127.0.0.1 --ws 9080
//! ```
//!
//! Flags: `--ws PORT` and `--enet PORT` (at least one) choose the transports; `--bind IP`
//! (default `0.0.0.0`, every IPv4 interface) the address both listen on: `127.0.0.1`
//! keeps the server to this machine, `::` serves IPv6 too. `--status SECS` prints a line
//! `status peers=N authenticating=M` that often (the soak run watches it).
//! `--batch-window-us N` lets the host gather for N microseconds after a turn that left
//! nothing to do (`HostBuilder::batch_window`; default 0, none): fewer wake-ups a call,
//! at most N µs more latency. The load run sets 200 (benches/multiplayer_load.sh).
//! `--queue PACKETS` bounds what may wait for one peer (`HostBuilder::queue_size`,
//! default 4096).
//!
//! It hosts a node at path `Echo` whose RPCs are `echo(value)`, `echo_many(a, b, c)` (any
//! peer, reliable) and `echo_unreliable(value)` (any peer, unreliable ordered, channel 1),
//! and answers every call by calling the same method on the caller with the same
//! arguments. Server relay is on, so clients can call each other through it. It prints
//! one line per connected and disconnected peer. The Godot client beside it
//! (`godot_client/`) connects with either transport and shows the round trip.

mod scene;

use godot_bin_multiplayer::{net, Event};
use scene::echo_scene;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

fn usage() -> ! {
    eprintln!(
        "usage: multiplayer_echo [--bind IP] [--ws PORT] [--enet PORT] [--status SECS] [--batch-window-us N] [--queue PACKETS]   (at least one port)"
    );
    std::process::exit(2);
}

fn main() -> godot_bin_multiplayer::Result<()> {
    let mut ws = None;
    let mut enet = None;
    let mut bind = IpAddr::from([0, 0, 0, 0]);
    let mut status = None;
    let mut window = Duration::ZERO;
    let mut queue = 4096;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else { usage() };
        let port = || value.parse::<u16>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--ws" => ws = Some(port()),
            "--enet" => enet = Some(port()),
            "--bind" => bind = value.parse().unwrap_or_else(|_| usage()),
            "--status" => status = Some(port()),
            "--queue" => queue = value.parse().unwrap_or_else(|_| usage()),
            "--batch-window-us" => {
                window = Duration::from_micros(value.parse().unwrap_or_else(|_| usage()))
            }
            _ => usage(),
        }
    }
    if ws.is_none() && enet.is_none() {
        usage();
    }
    // One thread: the load run measures calls per second per core.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let mut builder = net::Host::builder(echo_scene()?)
            .batch_window(window)
            .queue_size(queue);
        if let Some(p) = ws {
            builder = builder.websocket(SocketAddr::new(bind, p));
        }
        if let Some(p) = enet {
            builder = builder.enet(SocketAddr::new(bind, p));
        }
        let mut host = builder.start().await?;
        if let Some(a) = host.websocket_addr() {
            println!("listening websocket {a}");
        }
        if let Some(a) = host.enet_addr() {
            println!("listening enet {a}");
        }
        let mut every = status.map(|s| tokio::time::interval(Duration::from_secs(s.max(1).into())));
        loop {
            let ev = match every.as_mut() {
                // next_event is cancel-safe: the status line may come between two events.
                Some(t) => tokio::select! {
                    ev = host.next_event() => ev?,
                    _ = t.tick() => {
                        println!(
                            "status peers={} authenticating={}",
                            host.peers().count(),
                            host.authenticating_peers().count()
                        );
                        continue;
                    }
                },
                None => host.next_event().await?,
            };
            match ev {
                Event::PeerConnected(id) => println!("peer connected {id}"),
                Event::PeerDisconnected(id) => println!("peer disconnected {id}"),
                Event::Call(call) => {
                    // The same method, on the caller, with the same arguments: no decoding.
                    if let Err(e) = host.call_args(call.from, call.node, &call.method, &call.args) {
                        eprintln!("answer to {}: {e}", call.from);
                    }
                }
                Event::Refused { from, error } => eprintln!("refused packet from {from}: {error}"),
                _ => {}
            }
        }
    })
}
