//! `net::Host` over WebSocket with Rust `net::Peer` clients, in one process: more
//! connections woken at once than one poll of the host's task may serve (tokio's budget),
//! so the rest must wait for the next poll and none may be forgotten.

use godot_bin::multiplayer::{net, Event, NodeConfig, Rpc, Scene};
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

#[test]
fn every_call_of_many_websocket_peers_at_once_is_answered() {
    const PEERS: usize = 300;
    const CALLS: i64 = 5;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let local = tokio::task::LocalSet::new();
    let answered = local.block_on(&rt, async {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        let mut host = net::Host::builder(scene())
            .websocket(addr)
            .start()
            .await
            .unwrap();
        let url = format!("ws://{}", host.websocket_addr().unwrap());
        tokio::task::spawn_local(async move {
            loop {
                if let Event::Call(c) = host.next_event().await.unwrap() {
                    host.call_args(c.from, c.node, &c.method, &c.args).unwrap();
                }
            }
        });
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
                    p.rpc_id(1, "Echo", "echo", &(k as i64 * 100 + i,)).unwrap();
                    p.flush().await.unwrap();
                    loop {
                        if let Event::Call(c) = p.next_event().await.unwrap() {
                            let (v,): (i64,) = c.args.decode().unwrap();
                            got.push(v);
                            break;
                        }
                    }
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
