//! Soak generator: bots that connect, call `echo(i)` at random intervals, and leave at
//! random (half close cleanly, half vanish: the link is dropped without a goodbye, some
//! with a call still unanswered), then come back as new peers, over WebSocket and ENet at
//! once, until a deadline. `benches/multiplayer_soak.sh` runs it against
//! `multiplayer_echo` and watches the server's memory and peer count.
//!
//! ```sh
//! cargo run --release -p godot_bin_multiplayer --example multiplayer_soak -- \
//!     --ws ws://127.0.0.1:9080 --enet 127.0.0.1:9081 --bots 1000 --secs 1800
//! ```
//!
//! Flags: `--ws URL` and `--enet ADDR` (at least one; with both, bots alternate between
//! them), `--bots N` (default 1000, in all), `--secs S` (default 60), `--life MS` (the
//! longest a bot stays connected, default 60000; each stays a random time up to it).
//! Every 60 s and at the end it prints one line of counters: sessions started, failed to
//! connect, closed cleanly, vanished, calls answered, calls lost (a bot that waited 5 s for
//! an answer; it vanishes).

#[path = "../multiplayer_echo/scene.rs"]
mod scene;

use godot_bin_multiplayer::{net, Event, Scene};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Counters {
    sessions: AtomicU64,
    failed: AtomicU64,
    clean: AtomicU64,
    vanished: AtomicU64,
    calls: AtomicU64,
    lost: AtomicU64,
}

impl Counters {
    fn line(&self) -> String {
        let g = |c: &AtomicU64| c.load(Ordering::Relaxed);
        format!(
            "sessions={} failed={} clean={} vanished={} calls={} lost={}",
            g(&self.sessions),
            g(&self.failed),
            g(&self.clean),
            g(&self.vanished),
            g(&self.calls),
            g(&self.lost)
        )
    }
}

/// xorshift64*: enough randomness for when to call and when to leave.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn usage() -> ! {
    eprintln!("usage: multiplayer_soak [--ws URL] [--enet ADDR] [--bots N] [--secs S] [--life MS]");
    std::process::exit(2);
}

/// One bot's life after life until the deadline.
async fn bot(
    scene: Arc<Scene>,
    target: (bool, String),
    life_ms: u64,
    end: Instant,
    mut rng: Rng,
    c: Arc<Counters>,
) {
    let (ws, addr) = target;
    // Spread the first connections over a few seconds.
    tokio::time::sleep(Duration::from_millis(rng.below(5000))).await;
    while Instant::now() < end {
        let b = net::Peer::builder(scene.clone()).service_interval(Duration::from_millis(50));
        let peer = if ws {
            b.connect_websocket(&addr).await
        } else {
            b.connect_enet(addr.parse().expect("HOST:PORT")).await
        };
        let Ok(mut peer) = peer else {
            c.failed.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(Duration::from_millis(200 + rng.below(800))).await;
            continue;
        };
        c.sessions.fetch_add(1, Ordering::Relaxed);
        let leave = (Instant::now() + Duration::from_millis(rng.below(life_ms))).min(end);
        let mut i = 0i64;
        let mut answered = true;
        while Instant::now() < leave {
            if peer.rpc_id(1, "Echo", "echo", &(i,)).is_err() {
                answered = false;
                break;
            }
            // The answer, or 5 s; peer notices and other events pass by.
            let got = tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    match peer.next_event().await {
                        Ok(Event::Call(_)) => return true,
                        Ok(_) => continue,
                        Err(_) => return false,
                    }
                }
            })
            .await;
            if got != Ok(true) {
                c.lost.fetch_add(1, Ordering::Relaxed);
                answered = false;
                break;
            }
            c.calls.fetch_add(1, Ordering::Relaxed);
            i += 1;
            // Idle a while, still taking the server's notices.
            let pause = Duration::from_millis(10 + rng.below(90));
            let _ = tokio::time::timeout(pause, async { while peer.next_event().await.is_ok() {} })
                .await;
        }
        if answered && rng.below(2) == 0 {
            peer.close().await;
            c.clean.fetch_add(1, Ordering::Relaxed);
        } else {
            // Vanish: sometimes with a call in flight, never with a goodbye.
            if answered && rng.below(2) == 0 {
                let _ = peer.rpc_id(1, "Echo", "echo", &(i,));
                let _ = peer.flush().await;
            }
            drop(peer);
            c.vanished.fetch_add(1, Ordering::Relaxed);
        }
        tokio::time::sleep(Duration::from_millis(rng.below(500))).await;
    }
}

fn main() {
    let (mut ws, mut enet, mut bots, mut secs, mut life) = (None, None, 1000u64, 60u64, 60_000);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(v) = args.next() else { usage() };
        let num = |v: &str| v.parse::<u64>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--ws" => ws = Some(v),
            "--enet" => enet = Some(v),
            "--bots" => bots = num(&v),
            "--secs" => secs = num(&v),
            "--life" => life = num(&v).max(1),
            _ => usage(),
        }
    }
    let targets: Vec<(bool, String)> = ws
        .map(|u| (true, u))
        .into_iter()
        .chain(enet.map(|a| (false, a)))
        .collect();
    if targets.is_empty() {
        usage();
    }
    let scene = Arc::new(scene::echo_scene().expect("scene"));
    let counters = Arc::new(Counters::default());
    let end = Instant::now() + Duration::from_secs(secs);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let local = tokio::task::LocalSet::new();
    local.block_on(&rt, async {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
            | 1;
        let mut tasks = Vec::new();
        for k in 0..bots {
            let target = targets[(k as usize) % targets.len()].clone();
            let rng = Rng(seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1);
            tasks.push(tokio::task::spawn_local(bot(
                scene.clone(),
                target,
                life,
                end,
                rng,
                counters.clone(),
            )));
        }
        let report = counters.clone();
        let ticker = tokio::task::spawn_local(async move {
            let mut t = tokio::time::interval(Duration::from_secs(60));
            t.tick().await;
            loop {
                t.tick().await;
                println!("soak {}", report.line());
            }
        });
        for t in tasks {
            let _ = t.await;
        }
        ticker.abort();
    });
    println!("soak end {}", counters.line());
}
