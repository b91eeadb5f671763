//! Load generator: N bots (Rust `net::Peer`s) each call `echo(i)` on the node `Echo` of a
//! server and wait for the answer, in a closed loop, for S seconds; prints calls per second
//! and latency percentiles. The server can be `multiplayer_echo` or a headless Godot running
//! the same node (`examples/multiplayer_echo/godot_client/server.gd`).
//!
//! ```sh
//! cargo run --release --example multiplayer_load --features multiplayer -- --enet 127.0.0.1:9081 --bots 100 --secs 10
//! cargo run --release --example multiplayer_load --features multiplayer -- --ws ws://127.0.0.1:9080 --bots 1000 --secs 10
//! ```
//! `benches/multiplayer_load.sh` runs both servers side by side.

use godot_bin::multiplayer::{net, Event, NodeConfig, Rpc, Scene};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() {
    let mut target = None;
    let (mut bots, mut secs) = (100usize, 10u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().expect("flag value");
        match a.as_str() {
            "--ws" => target = Some((true, v)),
            "--enet" => target = Some((false, v)),
            "--bots" => bots = v.parse().expect("--bots N"),
            "--secs" => secs = v.parse().expect("--secs S"),
            _ => panic!("usage: multiplayer_load (--ws URL | --enet ADDR) [--bots N] [--secs S]"),
        }
    }
    let (ws, addr) = target.expect("--ws URL or --enet HOST:PORT");
    let scene = Arc::new(
        Scene::new()
            .with(
                NodeConfig::new("Echo")
                    .rpc(Rpc::any_peer("echo"))
                    .rpc(Rpc::any_peer("echo_many"))
                    .rpc(
                        Rpc::any_peer("echo_unreliable")
                            .unreliable_ordered()
                            .channel(1),
                    ),
            )
            .expect("scene"),
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let local = tokio::task::LocalSet::new();
    let lat: Rc<RefCell<Vec<u32>>> = Rc::new(RefCell::new(Vec::new()));
    let connected = Rc::new(RefCell::new(0usize));
    local.block_on(&rt, async {
        let start = Instant::now() + Duration::from_secs(2 + bots as u64 / 200);
        let end = start + Duration::from_secs(secs);
        let mut tasks = Vec::new();
        for _ in 0..bots {
            let (scene, addr, lat, connected) =
                (scene.clone(), addr.clone(), lat.clone(), connected.clone());
            tasks.push(tokio::task::spawn_local(async move {
                let b = net::Peer::builder(scene).service_interval(Duration::from_millis(50));
                let peer = if ws {
                    b.connect_websocket(&addr).await
                } else {
                    b.connect_enet(addr.parse().expect("HOST:PORT")).await
                };
                let Ok(mut peer) = peer else { return };
                *connected.borrow_mut() += 1;
                tokio::time::sleep_until(start.into()).await;
                let mut i = 0i64;
                while Instant::now() < end {
                    let t = Instant::now();
                    if peer.rpc_id(1, "Echo", "echo", &(i,)).is_err() {
                        return;
                    }
                    loop {
                        match tokio::time::timeout(Duration::from_secs(5), peer.next_event()).await
                        {
                            Ok(Ok(Event::Call(_))) => break,
                            Ok(Ok(_)) => continue,
                            _ => return,
                        }
                    }
                    let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
                    if Instant::now() <= end {
                        lat.borrow_mut().push(us);
                    }
                    i += 1;
                }
                peer.close().await;
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
    });
    let mut l = lat.borrow_mut();
    l.sort_unstable();
    let p = |q: f64| {
        l.get(((l.len() as f64 - 1.0) * q) as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    println!(
        "bots {} connected {} calls {} calls/s {:.0} latency ms p50 {:.2} p99 {:.2} max {:.2}",
        bots,
        connected.borrow(),
        l.len(),
        l.len() as f64 / secs as f64,
        p(0.5),
        p(0.99),
        p(1.0)
    );
}
