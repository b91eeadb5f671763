//! `net::Host` over WebSocket with Rust `net::Peer` clients: more connections woken at
//! once than one poll of the host's task may serve (tokio's budget), so the rest must
//! wait for the next poll and none may be forgotten; and the batch window.

use godot_bin_multiplayer::{net, Event, NodeConfig, Rpc, Scene};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

fn scene() -> Arc<Scene> {
    Arc::new(
        Scene::new()
            .with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))
            .unwrap(),
    )
}

/// A runtime of one thread, as the host's own in `examples/multiplayer_echo`.
fn current_thread() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Answers every call with the same method and arguments, on the caller.
async fn serve_echo(mut host: net::Host) {
    loop {
        if let Event::Call(c) = host.next_event().await.unwrap() {
            host.call_args(c.from, c.node, &c.method, &c.args).unwrap();
        }
    }
}

/// Calls `echo(v)` on the host and waits for the next call it makes back: the value
/// that came back, and the round trip.
async fn echo_call(p: &mut net::Peer, v: i64) -> (i64, Duration) {
    p.rpc_id(1, "Echo", "echo", &(v,)).unwrap();
    let started = std::time::Instant::now();
    p.flush().await.unwrap();
    loop {
        if let Event::Call(c) = p.next_event().await.unwrap() {
            let (got,): (i64,) = c.args.decode().unwrap();
            return (got, started.elapsed());
        }
    }
}

#[test]
fn every_call_of_many_websocket_peers_at_once_is_answered() {
    const PEERS: usize = 300;
    const CALLS: i64 = 5;
    let rt = current_thread();
    let local = tokio::task::LocalSet::new();
    let answered = local.block_on(&rt, async {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let host = net::Host::builder(scene())
            .websocket(addr)
            .start()
            .await
            .unwrap();
        let url = format!("ws://{}", host.websocket_addr().unwrap());
        tokio::task::spawn_local(serve_echo(host));
        let mut peers = Vec::new();
        for _ in 0..PEERS {
            peers.push(
                net::Peer::builder(scene())
                    .connect_websocket(&url)
                    .await
                    .unwrap(),
            );
        }
        // Every peer calls before any waits: the host wakes to hundreds of sockets.
        let bots = peers.into_iter().enumerate().map(|(k, mut p)| {
            tokio::task::spawn_local(async move {
                let mut got = Vec::new();
                for i in 0..CALLS {
                    got.push(echo_call(&mut p, k as i64 * 100 + i).await.0);
                }
                got
            })
        });
        let bots: Vec<_> = bots.collect();
        let mut answered = Vec::new();
        for (k, b) in bots.into_iter().enumerate() {
            let got = tokio::time::timeout(Duration::from_secs(60), b)
                .await
                .expect("a peer waited 60 s for an answer")
                .unwrap();
            assert_eq!(
                got,
                (0..CALLS).map(|i| k as i64 * 100 + i).collect::<Vec<_>>()
            );
            answered.push(got.len());
        }
        answered
    });
    assert_eq!(answered, vec![CALLS as usize; PEERS]);
}

/// Runs an echo host with `window` on a thread of its own, then times two calls of one
/// peer: the first wakes the idle host, the second
/// is sent as soon as the first is answered, while the host gathers. The second call's
/// round trip.
fn second_call_round_trip(window: Duration) -> Duration {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = current_thread();
        rt.block_on(async {
            let host = net::Host::builder(scene())
                .websocket("127.0.0.1:0".parse().unwrap())
                // No replication frame to cut the window short within the test.
                .sync_interval(Duration::from_secs(5))
                .batch_window(window)
                .start()
                .await
                .unwrap();
            tx.send(host.websocket_addr().unwrap()).unwrap();
            serve_echo(host).await
        });
    });
    let addr = rx.recv().unwrap();
    let rt = current_thread();
    rt.block_on(async {
        let mut p = net::Peer::builder(scene())
            .connect_websocket(&format!("ws://{addr}"))
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(10), echo_call(&mut p, 1));
        assert_eq!(first.await.unwrap().0, 1);
        let second = tokio::time::timeout(Duration::from_secs(10), echo_call(&mut p, 2));
        let (got, took) = second.await.unwrap();
        assert_eq!(got, 2);
        took
    })
}

#[test]
fn a_batch_window_gathers_before_the_next_turn_and_none_without() {
    // After answering the first call the host sleeps its window; the second call waits
    // for the rest of it.
    let gathered = second_call_round_trip(Duration::from_millis(300));
    assert!(
        gathered >= Duration::from_millis(200),
        "answered in {gathered:?} inside a 300 ms window"
    );
    let direct = second_call_round_trip(Duration::ZERO);
    assert!(
        direct < Duration::from_millis(200),
        "answered in {direct:?} with no window"
    );
}

/// The batch window is the host's timer, not a sleep of its thread: a host, its peer and a
/// ticker share one current-thread runtime, and the ticker keeps ticking while the host
/// gathers (a blocking sleep stopped the whole thread for the window: no tick and no
/// answer until it ended).
#[test]
fn a_batch_window_blocks_no_other_task_on_the_thread() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let rt = current_thread();
    rt.block_on(async {
        let host = net::Host::builder(scene())
            .websocket("127.0.0.1:0".parse().unwrap())
            .sync_interval(Duration::from_secs(5))
            .batch_window(Duration::from_millis(300))
            .start()
            .await
            .unwrap();
        let addr = host.websocket_addr().unwrap();
        tokio::spawn(serve_echo(host));
        let ticks = Arc::new(AtomicUsize::new(0));
        let counter = ticks.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(Duration::from_millis(10));
            // Ticks missed while the thread was held are not made up for.
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
            loop {
                every.tick().await;
                counter.fetch_add(1, Ordering::Relaxed);
            }
        });
        let mut p = net::Peer::builder(scene())
            .connect_websocket(&format!("ws://{addr}"))
            .await
            .unwrap();
        let first = tokio::time::timeout(Duration::from_secs(10), echo_call(&mut p, 1));
        assert_eq!(first.await.unwrap().0, 1);
        let before = ticks.load(Ordering::Relaxed);
        let second = tokio::time::timeout(Duration::from_secs(10), echo_call(&mut p, 2));
        let (got, took) = second.await.unwrap();
        let during = ticks.load(Ordering::Relaxed) - before;
        assert_eq!(got, 2);
        // The window held the answer back, and the thread ran the ticker meanwhile.
        assert!(took >= Duration::from_millis(200), "answered in {took:?}");
        assert!(during >= 10, "{during} ticks of 10 ms in {took:?}");
    });
}

/// Issue 39: a bot's ENet connect on loopback takes a round trip, not ENet's 500 ms
/// retransmission timeout (it took 505 ms every time). The CONNECT left at the first
/// `service`, on a socket the reactor had not yet reported writable, and was dropped; a
/// current-thread runtime, which has not turned between the bind and the first send,
/// shows it every time.
#[test]
fn an_enet_connect_on_loopback_takes_no_retransmission_timeout() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        current_thread().block_on(async {
            let host = net::Host::builder(scene())
                .enet("127.0.0.1:0".parse().unwrap())
                .start()
                .await
                .unwrap();
            tx.send(host.enet_addr().unwrap()).unwrap();
            serve_echo(host).await
        });
    });
    let addr = rx.recv().unwrap();
    let mut took: Vec<Duration> = current_thread().block_on(async {
        let mut took = Vec::new();
        for _ in 0..5 {
            let started = std::time::Instant::now();
            let mut p = net::Peer::builder(scene())
                .connect_enet(addr)
                .await
                .unwrap();
            took.push(started.elapsed());
            // The link works: a call comes back.
            let (v, _) = echo_call(&mut p, 7).await;
            assert_eq!(v, 7);
            p.close().await;
        }
        took
    });
    took.sort();
    // The median of five: one slow connect on a loaded machine does not fail it.
    assert!(
        took[2] < Duration::from_millis(100),
        "connects took {took:?}"
    );
}

/// Bounded memory per ENet peer (issue 40): a peer that vanished (no disconnect, no
/// datagram ever again) holds every reliable packet sent to it until ENet times it out.
/// With `queue_size(32)`, once it has not been heard from for ENet's one-second window,
/// the 33rd reliable packet sent to it drops it as too slow (its queue freed), while a
/// live peer sent the same packets, one every 20 ms, stays and gets them all.
#[test]
fn a_vanished_enet_peer_is_dropped_at_the_queue_bound() {
    use godot_bin_multiplayer::TransferMode;
    let (tx, rx) = std::sync::mpsc::channel();
    let (ids_tx, ids_rx) = std::sync::mpsc::channel::<(i32, i32)>();
    let server = std::thread::spawn(move || {
        current_thread().block_on(async {
            let mut host = net::Host::builder(scene())
                .enet("127.0.0.1:0".parse().unwrap())
                .queue_size(32)
                .start()
                .await
                .unwrap();
            tx.send(host.enet_addr().unwrap()).unwrap();
            let mut connected = Vec::new();
            while connected.len() < 2 {
                if let Event::PeerConnected(id) = host.next_event().await.unwrap() {
                    connected.push(id);
                }
            }
            let (gone, live) = ids_rx.recv().unwrap();
            // The vanished peer's last datagram leaves ENet's window.
            let quiet = tokio::time::Instant::now() + Duration::from_millis(1500);
            while let Ok(ev) = tokio::time::timeout_at(quiet, host.next_event()).await {
                assert!(!matches!(ev, Ok(Event::PeerDisconnected(_))), "{ev:?}");
            }
            // One packet to each every 20 ms, the host serving its sockets between: the
            // live peer acknowledges each, the vanished one none.
            let mut left = Vec::new();
            let mut refused = None;
            for i in 0..64u8 {
                // The transport refuses the 33rd reliable packet since the peer was last
                // heard from (the session's own notices of the other peer among them) and
                // the peer is dropped; the session refuses what follows.
                let sent = host.send_bytes(gone, &[i; 100], TransferMode::Reliable, 0);
                match (sent.is_ok(), refused) {
                    (false, None) => refused = Some(i),
                    (ok, r) => assert!(ok == r.is_none(), "packet {i}: {sent:?}"),
                }
                host.send_bytes(live, &[i; 100], TransferMode::Reliable, 0)
                    .unwrap();
                host.flush();
                let until = tokio::time::Instant::now() + Duration::from_millis(20);
                while let Ok(ev) = tokio::time::timeout_at(until, host.next_event()).await {
                    if let Event::PeerDisconnected(id) = ev.unwrap() {
                        left.push(id);
                    }
                }
            }
            let first = refused.expect("the vanished peer was dropped");
            assert!((30..=33).contains(&first), "dropped at packet {first}");
            (left, host.peers().collect::<Vec<_>>())
        })
    });
    let addr = rx.recv().unwrap();
    let got = current_thread().block_on(async {
        let mut gone = net::Peer::builder(scene())
            .connect_enet(addr)
            .await
            .unwrap();
        let mut live = net::Peer::builder(scene())
            .connect_enet(addr)
            .await
            .unwrap();
        // Each is admitted (the engine's auth exchange) before one vanishes.
        for p in [&mut gone, &mut live] {
            while !matches!(p.next_event().await.unwrap(), Event::ConnectedToServer) {}
            // The server reports an ENet peer once a datagram follows the handshake.
            p.rpc_id(1, "Echo", "echo", &(1,)).unwrap();
            p.flush().await.unwrap();
        }
        ids_tx.send((gone.unique_id(), live.unique_id())).unwrap();
        let gone_id = gone.unique_id();
        // Vanishes: its socket stays open, and nothing ever services it again.
        std::mem::forget(gone);
        let mut bytes = 0;
        while bytes < 64 {
            match tokio::time::timeout(Duration::from_secs(5), live.next_event()).await {
                Ok(Ok(Event::Bytes { .. })) => bytes += 1,
                // The notice that the other peer left, among others.
                Ok(Ok(_)) => {}
                _ => break,
            }
        }
        (gone_id, live.unique_id(), bytes)
    });
    let (left, peers) = server.join().unwrap();
    let (gone, live, bytes) = got;
    // Dropped as the engine's `disconnect_peer` drops a peer: no event of its own.
    assert_eq!(left, Vec::<i32>::new());
    assert_ne!(gone, live);
    assert_eq!(peers, vec![live]);
    assert_eq!(bytes, 64, "the live peer got every packet");
}
