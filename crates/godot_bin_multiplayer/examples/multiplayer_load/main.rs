//! Load generator: N bots (Rust `net::Peer`s) each call `echo(i)` on the node `Echo` of a
//! server and wait for the answer, in a closed loop, for S seconds; prints calls per second
//! and latency percentiles. The server can be `multiplayer_echo` or a headless Godot running
//! the same node (`examples/multiplayer_echo/godot_client/server.gd`).
//!
//! ```sh
//! cargo run --release -p godot_bin_multiplayer --example multiplayer_load -- --enet 127.0.0.1:9081 --bots 100 --secs 10
//! cargo run --release -p godot_bin_multiplayer --example multiplayer_load -- --ws ws://127.0.0.1:9080 --bots 1000 --secs 10 --threads 2 --server-pid 1234
//! ```
//!
//! Flags:
//! * `--threads T` (default 1): T OS threads, each with its own single-threaded runtime
//!   driving `bots / T` bots, so that the generator is less of a ceiling on machines with
//!   cores to spare.
//! * `--server-pid PID`: reads the server's user + system CPU time from `/proc/PID/stat`
//!   exactly at the start and the end of the measured window (from the main thread, which
//!   runs no bots), and reports the server's CPU-seconds, its utilisation and the calls
//!   per server CPU-second: the server's per-core throughput, whatever the generator's
//!   ceiling. `--clk-tck HZ` (default 100, Linux's `USER_HZ`) is the unit of those times
//!   (`getconf CLK_TCK`). The generator's own CPU time over the window is reported too
//!   (`gen_util_pct`, per thread), so that a run says which side limited calls/s.
//! * `--settle on|off` (default on): whether the window also waits for the announcements.
//!   A SceneMultiplayer server with `server_relay` (the engine's default, and the echo
//!   server's) tells every peer of every other as they join: 999,000 "peer joined" notices
//!   for 1,000 bots, part of connecting. With `on` the window opens once every bot has been
//!   told of every other that connected, or no bot has been told of one more for
//!   `SETTLE_QUIET` (a server that announces nothing, or fewer); with `off`, as soon as every
//!   bot has connected (over ENet the last notices then still arrive in the window's first
//!   second: the workspace's benches/RESULTS.md, issue 50 #3).
//!
//! Bots connect a few at a time and retry for up to 30 s; the window opens once every bot
//! has connected or given up and the peer announcements have settled, and bots keep their
//! links serviced (ENet pings) until then.
//! The last line of output is one `key=value` record for scripts.
//! `benches/multiplayer_load.sh` runs both servers side by side.

#[path = "../multiplayer_echo/scene.rs"]
mod scene;

use godot_bin_multiplayer::{net, Event, Scene};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{watch, Semaphore};

struct Args {
    ws: bool,
    addr: String,
    bots: usize,
    secs: u64,
    threads: usize,
    server_pid: Option<u32>,
    clk_tck: f64,
    settle: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: multiplayer_load (--ws URL | --enet ADDR) [--bots N] [--secs S] [--threads T] \
         [--server-pid PID] [--clk-tck HZ] [--settle on|off]"
    );
    std::process::exit(2);
}

fn parse_args() -> Args {
    let mut target = None;
    let mut a = Args {
        ws: false,
        addr: String::new(),
        bots: 100,
        secs: 10,
        threads: 1,
        server_pid: None,
        clk_tck: 100.0,
        settle: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(v) = args.next() else { usage() };
        let num = |v: &str| v.parse::<u64>().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--ws" => target = Some((true, v)),
            "--enet" => target = Some((false, v)),
            "--bots" => a.bots = num(&v) as usize,
            "--secs" => a.secs = num(&v).max(1),
            "--threads" => a.threads = (num(&v) as usize).max(1),
            "--server-pid" => a.server_pid = Some(num(&v) as u32),
            "--clk-tck" => a.clk_tck = num(&v).max(1) as f64,
            "--settle" => {
                a.settle = match v.as_str() {
                    "on" => true,
                    "off" => false,
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    let Some((ws, addr)) = target else { usage() };
    a.ws = ws;
    a.addr = addr;
    a
}

/// User + system CPU time of process `pid` (all its threads), in clock ticks: fields 14
/// and 15 of `/proc/PID/stat`, counted after the parenthesised command name.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

fn sleep_until(t: Instant) {
    let now = Instant::now();
    if t > now {
        std::thread::sleep(t - now);
    }
}

/// What the bot threads share: counters, and the window, set once every bot has connected
/// (or given up).
struct Shared {
    connected: AtomicUsize,
    failed: AtomicUsize,
    dropped: AtomicUsize,
    /// Other peers the bots were told of (`PeerConnected` of an id other than the server's)
    /// before the window.
    announced: AtomicUsize,
    window: watch::Receiver<Option<(Instant, Instant)>>,
}

/// With `--settle on`, how long no bot may be told of another peer before the window opens
/// anyway (a server that announces nothing, or not every peer).
const SETTLE_QUIET: Duration = Duration::from_millis(500);
/// With `--settle on`, the longest the window waits for the announcements.
const SETTLE_MAX: Duration = Duration::from_secs(30);

/// How many connection attempts may be in flight per thread, over WebSocket: the engine's
/// WebSocket server accepts one connection per frame, and a handshake not finished in 3 s
/// fails.
const WS_CONNECTS_IN_FLIGHT: usize = 16;
/// The same over ENet, where a connection takes about one default round trip (500 ms) but
/// servers take many at once.
const ENET_CONNECTS_IN_FLIGHT: usize = 128;

/// Runs `bots` bots on this thread; returns the latencies (µs) of the calls answered inside
/// the window.
fn run_bots(a: &Args, scene: Arc<Scene>, bots: usize, shared: Arc<Shared>) -> Vec<u32> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let local = tokio::task::LocalSet::new();
    let gate = Rc::new(Semaphore::new(if a.ws {
        WS_CONNECTS_IN_FLIGHT
    } else {
        ENET_CONNECTS_IN_FLIGHT
    }));
    local.block_on(&rt, async {
        let mut tasks = Vec::new();
        for _ in 0..bots {
            let (scene, addr, ws, gate) = (scene.clone(), a.addr.clone(), a.ws, gate.clone());
            let shared = shared.clone();
            let mut window = shared.window.clone();
            tasks.push(tokio::task::spawn_local(async move {
                let mut lat = Vec::new();
                let mut peer = None;
                let mut last_error = None;
                let give_up = Instant::now() + CONNECT_DEADLINE;
                while peer.is_none() && Instant::now() < give_up {
                    let permit = gate.acquire().await.expect("semaphore");
                    let b = net::Peer::builder(scene.clone())
                        .service_interval(Duration::from_millis(50));
                    let p = if ws {
                        b.connect_websocket(&addr).await
                    } else {
                        b.connect_enet(addr.parse().expect("HOST:PORT")).await
                    };
                    drop(permit);
                    match p {
                        Ok(p) => peer = Some(p),
                        Err(e) => {
                            last_error = Some(e);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
                let Some(mut peer) = peer else {
                    if let Some(e) = last_error {
                        eprintln!("connect: {e}");
                    }
                    shared.failed.fetch_add(1, Ordering::Relaxed);
                    return Outcome::Failed;
                };
                shared.connected.fetch_add(1, Ordering::Relaxed);
                // Keep the link serviced (ENet pings) until the window is set.
                let (start, end) = loop {
                    tokio::select! {
                        w = window.wait_for(|w| w.is_some()) => break w.expect("window").expect("set"),
                        e = peer.next_event() => match e {
                            Ok(Event::PeerConnected(id)) if id != 1 => {
                                shared.announced.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok(_) => {}
                            Err(_) => return Outcome::Dropped(lat),
                        },
                    }
                };
                tokio::time::sleep_until(start.into()).await;
                // One timer for the whole window rather than one per call (the generator
                // is often the ceiling): a call unanswered 5 s after the window's end
                // drops the bot.
                let calls = async {
                    let mut i = 0i64;
                    while Instant::now() < end {
                        let t = Instant::now();
                        peer.rpc_id(1, "Echo", "echo", &(i,))?;
                        while !matches!(peer.next_event().await?, Event::Call(_)) {}
                        let done = Instant::now();
                        if done <= end {
                            lat.push((done - t).as_micros().min(u32::MAX as u128) as u32);
                        }
                        i += 1;
                    }
                    Ok::<_, godot_bin_multiplayer::Error>(())
                };
                let give_up = end + Duration::from_secs(5);
                if !matches!(tokio::time::timeout_at(give_up.into(), calls).await, Ok(Ok(()))) {
                    return Outcome::Dropped(lat);
                }
                peer.close().await;
                Outcome::Done(lat)
            }));
        }
        let mut all = Vec::new();
        for t in tasks {
            match t.await {
                Ok(Outcome::Done(l)) => all.extend(l),
                Ok(Outcome::Dropped(l)) => {
                    all.extend(l);
                    shared.dropped.fetch_add(1, Ordering::Relaxed);
                }
                Ok(Outcome::Failed) | Err(_) => {}
            }
        }
        all
    })
}

/// How long a bot keeps trying to connect.
const CONNECT_DEADLINE: Duration = Duration::from_secs(30);

enum Outcome {
    /// Never connected.
    Failed,
    /// Lost the server or an answer mid-run.
    Dropped(Vec<u32>),
    Done(Vec<u32>),
}

fn main() {
    let a = Arc::new(parse_args());
    let scene = Arc::new(scene::echo_scene().expect("scene"));
    let (set_window, window) = watch::channel(None);
    let shared = Arc::new(Shared {
        connected: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
        dropped: AtomicUsize::new(0),
        announced: AtomicUsize::new(0),
        window,
    });
    let began = Instant::now();
    let threads: Vec<_> = (0..a.threads)
        .map(|k| {
            // Bots spread evenly: the first `bots % threads` threads take one more.
            let n = a.bots / a.threads + usize::from(k < a.bots % a.threads);
            let (a, scene, shared) = (a.clone(), scene.clone(), shared.clone());
            std::thread::spawn(move || run_bots(&a, scene, n, shared))
        })
        .collect();

    // The window opens once every bot has connected or given up.
    while shared.connected.load(Ordering::Relaxed) + shared.failed.load(Ordering::Relaxed) < a.bots
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let connected_in = began.elapsed();
    if a.settle {
        // Every bot told of every other, or no news for SETTLE_QUIET.
        let n = shared.connected.load(Ordering::Relaxed);
        let all = n * n.saturating_sub(1);
        let (since, mut last, mut seen) = (Instant::now(), Instant::now(), usize::MAX);
        loop {
            let told = shared.announced.load(Ordering::Relaxed);
            if told != seen {
                (seen, last) = (told, Instant::now());
            }
            if told >= all || last.elapsed() >= SETTLE_QUIET || since.elapsed() >= SETTLE_MAX {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    let start = Instant::now() + Duration::from_millis(200);
    let end = start + Duration::from_secs(a.secs);
    eprintln!(
        "{} of {} bots connected in {:.1} s; told of {} other peers in all by {:.1} s",
        shared.connected.load(Ordering::Relaxed),
        a.bots,
        connected_in.as_secs_f64(),
        shared.announced.load(Ordering::Relaxed),
        began.elapsed().as_secs_f64()
    );
    set_window.send_replace(Some((start, end)));
    // The server's CPU time at the window's edges, from this thread, which only sleeps.
    // And the generator's own, to tell which side limited calls/s.
    let me = std::process::id();
    sleep_until(start);
    let (t0, c0, g0) = (
        Instant::now(),
        a.server_pid.and_then(cpu_ticks),
        cpu_ticks(me),
    );
    sleep_until(end);
    let (t1, c1, g1) = (
        Instant::now(),
        a.server_pid.and_then(cpu_ticks),
        cpu_ticks(me),
    );
    let wall = (t1 - t0).as_secs_f64();
    let server = c1.zip(c0).map(|(c1, c0)| (c1.saturating_sub(c0), wall));
    let generator = g1
        .zip(g0)
        .map(|(g1, g0)| g1.saturating_sub(g0) as f64 / a.clk_tck);
    let mut l: Vec<u32> = Vec::new();
    for t in threads {
        l.extend(t.join().expect("bot thread"));
    }
    l.sort_unstable();
    let p = |q: f64| {
        l.get(((l.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let calls_s = l.len() as f64 / a.secs as f64;
    let connected = shared.connected.load(Ordering::Relaxed);
    let dropped = shared.dropped.load(Ordering::Relaxed);
    println!(
        "bots {} connected {} dropped {} calls {} calls/s {:.0} latency ms p50 {:.2} p99 {:.2} max {:.2}",
        a.bots,
        connected,
        dropped,
        l.len(),
        calls_s,
        p(0.5),
        p(0.99),
        p(1.0)
    );
    let mut rec = format!(
        "bots={} connected={} dropped={} threads={} secs={} calls={} calls_s={:.0} p50_ms={:.2} p99_ms={:.2} max_ms={:.2}",
        a.bots,
        connected,
        dropped,
        a.threads,
        a.secs,
        l.len(),
        calls_s,
        p(0.5),
        p(0.99),
        p(1.0)
    );
    if let Some((ticks, wall)) = server {
        let cpu = ticks as f64 / a.clk_tck;
        println!(
            "server CPU {:.2} s in {:.2} s ({:.0}%), calls per CPU-second {:.0}",
            cpu,
            wall,
            100.0 * cpu / wall,
            if cpu > 0.0 { l.len() as f64 / cpu } else { 0.0 }
        );
        rec += &format!(
            " server_cpu_s={:.2} server_util_pct={:.0} calls_per_cpu_s={:.0}",
            cpu,
            100.0 * cpu / wall,
            if cpu > 0.0 { l.len() as f64 / cpu } else { 0.0 }
        );
    }
    if let Some(cpu) = generator {
        // Per generator thread: 100% = every bot thread busy all the window.
        let util = 100.0 * cpu / wall / a.threads as f64;
        println!(
            "generator CPU {cpu:.2} s ({util:.0}% of {} thread(s))",
            a.threads
        );
        rec += &format!(" gen_cpu_s={cpu:.2} gen_util_pct={util:.0}");
    }
    println!("{rec}");
}
