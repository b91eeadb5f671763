//! Godot 4.4.1 clients against the Rust multiplayer server (`net::Host`), over WebSocket
//! and ENet, and Rust clients (`net::Peer`) against a Godot server. The engine side is
//! `multiplayer/main.gd` with the node `multiplayer/rpcnode.gd`.

use crate::support::engine::godot4_trial;
use crate::support::godot4::Godot4;
use crate::support::run::{self, RunResult};
use godot_bin::{Variant, Vector2, Vector3};
use godot_bin_multiplayer::{
    net, Args, Event, NodeConfig, Options, ReplicationConfig, ReplicationMode, Rpc, Scene,
    SpawnScene, SyncSpec,
};
use libtest_mimic::Trial;
use std::net::SocketAddr;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const MAIN_GD: &str = include_str!("multiplayer/main.gd");
const RPCNODE_GD: &str = include_str!("multiplayer/rpcnode.gd");

pub fn trials() -> Vec<Trial> {
    let mut t = Vec::new();
    for transport in ["ws", "enet"] {
        let name = |what: &str| format!("multiplayer::{transport}::{what}");
        let calls: fn(&Godot4) = if transport == "ws" {
            |e| calls(e, "ws")
        } else {
            |e| calls(e, "enet")
        };
        t.push(godot4_trial(
            &name("godot_client_calls_every_form_and_type"),
            calls,
        ));
        let f: fn(&Godot4) = if transport == "ws" {
            |e| auth(e, "ws")
        } else {
            |e| auth(e, "enet")
        };
        t.push(godot4_trial(
            &name("godot_client_auth_accepted_refused_timed_out"),
            f,
        ));
        let f: fn(&Godot4) = if transport == "ws" {
            |e| relay(e, "ws")
        } else {
            |e| relay(e, "enet")
        };
        t.push(godot4_trial(
            &name("two_godot_clients_call_each_other_through_relay"),
            f,
        ));
        let f: fn(&Godot4) = if transport == "ws" {
            |e| spawn(e, "ws")
        } else {
            |e| spawn(e, "enet")
        };
        t.push(godot4_trial(
            &name("godot_client_sees_spawn_sync_despawn"),
            f,
        ));
        let f: fn(&Godot4) = if transport == "ws" {
            |e| rust_client(e, "ws", 30601)
        } else {
            |e| rust_client(e, "enet", 30602)
        };
        t.push(godot4_trial(&name("rust_client_against_godot_server"), f));
    }
    t
}

/// The node as the engine side declares it.
fn scene() -> Scene {
    Scene::new()
        .with(
            NodeConfig::new("Game")
                .node_rpc(Rpc::any_peer("set_process"))
                .rpc(Rpc::any_peer("echo"))
                .rpc(Rpc::any_peer("echo_many"))
                .rpc(Rpc::any_peer("noargs"))
                .rpc(Rpc::any_peer("bytes_only"))
                .rpc(Rpc::any_peer("from_server"))
                .rpc(Rpc::any_peer("relay_hello").unreliable_ordered().channel(1)),
        )
        .and_then(|s| s.with(NodeConfig::new("Game/Spawner")))
        .expect("scene")
}

fn godot(engine: &Godot4, args: &[&str]) -> RunResult {
    let files: [(&str, &[u8]); 3] = [
        ("main.gd", MAIN_GD.as_bytes()),
        ("rpcnode.gd", RPCNODE_GD.as_bytes()),
        ("project.godot", b"config_version=5\n"),
    ];
    let dir = run::prepare("mp", "pass", "", &files);
    let mut cmd = Command::new(engine.path());
    cmd.args(["--headless", "--path"])
        .arg(&dir)
        .args(["-s", "main.gd", "--"])
        .args(args);
    run::run("Godot 4", cmd, dir, Duration::from_secs(40))
}

fn mp_lines(r: &RunResult) -> Vec<String> {
    r.lines_with_prefix("MP ")
}

#[derive(Default)]
struct Log {
    lines: Vec<String>,
    expected: Vec<Variant>,
    matched: usize,
    mismatched: Vec<String>,
}

/// Runs a Rust server for `scenario` while `client` runs; returns what the server saw.
fn with_server(
    transport: &str,
    scenario: &'static str,
    clients: usize,
    client: impl FnOnce(u16) -> Vec<RunResult>,
) -> (Vec<RunResult>, Log) {
    let log = Arc::new(Mutex::new(Log::default()));
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let (stop_tx, mut stop_rx) = tokio::sync::oneshot::channel::<()>();
    let ws = transport == "ws";
    let log2 = log.clone();
    let server = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let mut opts = Options::default();
            if scenario.starts_with("auth") {
                opts.auth = true;
                opts.auth_timeout = Duration::from_secs(1);
            }
            let any: SocketAddr = "127.0.0.1:0".parse().unwrap();
            let b = net::Host::builder(scene()).options(opts);
            let b = if ws { b.websocket(any) } else { b.enet(any) };
            let mut host = b.start().await.unwrap();
            let port = if ws { host.websocket_addr() } else { host.enet_addr() }.unwrap().port();
            port_tx.send(port).unwrap();
            let mut ticks = tokio::time::interval(Duration::from_millis(100));
            let mut spawned: Option<(u32, u32)> = None;
            let mut disconnected = 0;
            loop {
                tokio::select! {
                    _ = &mut stop_rx => break,
                    _ = ticks.tick() => {
                        if let Some((net, n)) = spawned.as_mut() {
                            *n += 1;
                            if *n == 4 {
                                host.set_property(*net, ".:position", Vector2::new(10.0, 20.0).into()).unwrap();
                                host.set_property(*net, ".:rotation", Variant::Float(0.5)).unwrap();
                            }
                            if *n == 10 {
                                host.despawn(*net).unwrap();
                            }
                        }
                    }
                    ev = host.next_event() => {
                        let ev = ev.unwrap();
                        let mut l = log2.lock().unwrap();
                        match ev {
                            Event::PeerConnected(id) => {
                                l.lines.push("connected".into());
                                if scenario == "calls" {
                                    host.rpc_id(id, "Game", "from_server", &(1, "x", Vector3::new(1.0, 2.0, 3.0))).unwrap();
                                }
                                if scenario == "spawn" {
                                    let cfg = Arc::new(ReplicationConfig::new()
                                        .property(".:position", true, ReplicationMode::Always)
                                        .property(".:rotation", false, ReplicationMode::OnChange));
                                    let net = host.spawn("Game/Spawner", "Bot", SpawnScene::Custom(Variant::Int(7)),
                                        vec![SyncSpec { config: cfg, values: vec![Vector2::new(7.0, 8.0).into(), Variant::Float(0.0)] }]).unwrap();
                                    spawned = Some((net, 0));
                                }
                            }
                            Event::PeerDisconnected(_) => {
                                l.lines.push("disconnected".into());
                                disconnected += 1;
                            }
                            Event::Auth { peer, data } => {
                                l.lines.push(format!("auth {}", String::from_utf8_lossy(&data)));
                                match scenario {
                                    "auth_ok" => {
                                        host.send_auth(peer, b"ok").unwrap();
                                        host.complete_auth(peer).unwrap();
                                    }
                                    "auth_bad" => {
                                        host.send_auth(peer, b"no").unwrap();
                                        host.disconnect_peer(peer);
                                    }
                                    _ => {}
                                }
                            }
                            Event::AuthFailed(_) => l.lines.push("auth_failed".into()),
                            Event::Bytes { data, .. } => {
                                if data == [0xAA, 0xBB] {
                                    l.lines.push("raw".into());
                                } else {
                                    l.expected.push(godot_bin::from_slice(&data).unwrap());
                                }
                            }
                            Event::Call(call) => {
                                let values = call.args.to_variants().unwrap();
                                if &*call.method == "set_process" {
                                    l.lines.push(format!("set_process {values:?}"));
                                    continue;
                                }
                                if &*call.method == "echo" {
                                    let want = l.expected.remove(0);
                                    // NaN-free values: structural equality is exact.
                                    if values == [want.clone()] { l.matched += 1 } else {
                                        l.mismatched.push(format!("{values:?} != {want:?}"));
                                    }
                                }
                                // Answer with arguments re-encoded by us, not copied.
                                let args = Args::from_variants(&values).unwrap();
                                host.call_args(call.from, call.node, &call.method, &args).unwrap();
                            }
                            Event::Refused { from, error } => l.lines.push(format!("refused {from} {error}")),
                            Event::ChecksumMismatch { path, .. } => l.lines.push(format!("checksum {path}")),
                            _ => {}
                        }
                        if disconnected >= clients && scenario != "auth_bad" && scenario != "auth_timeout" {
                            break;
                        }
                    }
                }
            }
        });
    });
    let port = port_rx.recv().unwrap();
    let results = client(port);
    let _ = stop_tx.send(());
    server.join().unwrap();
    let log = Arc::try_unwrap(log).ok().unwrap().into_inner().unwrap();
    (results, log)
}

fn calls(engine: &Godot4, transport: &str) {
    let (r, log) = with_server(transport, "calls", 1, |port| {
        vec![godot(
            engine,
            &["client", transport, &port.to_string(), "calls"],
        )]
    });
    let lines = mp_lines(&r[0]);
    assert!(lines.iter().any(|l| l == "done"), "{}", r[0].describe());
    let bad: Vec<_> = lines.iter().filter(|l| l.starts_with("echo bad")).collect();
    assert!(bad.is_empty(), "{bad:?}");
    let echoed = lines.iter().filter(|l| l.starts_with("echo ok")).count();
    assert_eq!(echoed, 50, "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .find(|l| l.starts_with("from_server"))
            .map(String::as_str),
        Some("from_server [1, \"x\", Vector3(1, 2, 3)]")
    );
    assert_eq!(log.matched, 47, "mismatches: {:?}", log.mismatched);
    assert!(log.mismatched.is_empty());
    assert!(log.lines.contains(&"raw".to_string()));
    assert!(
        log.lines.contains(&"set_process [Bool(false)]".to_string()),
        "{:?}",
        log.lines
    );
    assert!(
        !log.lines
            .iter()
            .any(|l| l.starts_with("refused") || l.starts_with("checksum")),
        "{:?}",
        log.lines
    );
}

fn auth(engine: &Godot4, transport: &str) {
    let (r, log) = with_server(transport, "auth_ok", 1, |port| {
        vec![godot(
            engine,
            &["client", transport, &port.to_string(), "auth_ok"],
        )]
    });
    let lines = mp_lines(&r[0]);
    assert!(lines.contains(&"auth_data ok".to_string()), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("connected")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "done"), "{lines:?}");
    assert!(log.lines.contains(&"auth secret".to_string()));

    let (r, log) = with_server(transport, "auth_bad", 1, |port| {
        vec![godot(
            engine,
            &["client", transport, &port.to_string(), "auth_bad"],
        )]
    });
    let lines = mp_lines(&r[0]);
    assert!(
        !lines.iter().any(|l| l.starts_with("connected")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("auth_failed") || l == "server_disconnected"),
        "{lines:?}"
    );
    assert!(!log.lines.contains(&"connected".to_string()));

    let (r, log) = with_server(transport, "auth_timeout", 1, |port| {
        vec![godot(
            engine,
            &["client", transport, &port.to_string(), "auth_timeout"],
        )]
    });
    let lines = mp_lines(&r[0]);
    assert!(
        !lines.iter().any(|l| l.starts_with("connected")),
        "{lines:?}"
    );
    assert!(
        log.lines.contains(&"auth_failed".to_string()),
        "{:?}",
        log.lines
    );
}

fn relay(engine: &Godot4, transport: &str) {
    let (r, log) = with_server(transport, "relay", 2, |port| {
        let p = port.to_string();
        let t = transport.to_string();
        let e2 = engine.clone();
        let b = std::thread::spawn(move || godot(&e2, &["client", &t, &p, "relay"]));
        let a = godot(engine, &["client", transport, &port.to_string(), "relay"]);
        vec![a, b.join().unwrap()]
    });
    let ids: Vec<String> = r
        .iter()
        .map(|r| {
            mp_lines(r)
                .iter()
                .find_map(|l| l.strip_prefix("connected ").map(str::to_owned))
                .expect("connected")
        })
        .collect();
    for (i, res) in r.iter().enumerate() {
        let other = &ids[1 - i];
        let lines = mp_lines(res);
        assert!(
            lines.contains(&format!("peer_connected {other}")),
            "{lines:?}"
        );
        // The caller's id as argument and as get_remote_sender_id(): the relay kept the source.
        assert!(
            lines.contains(&format!("relay_hello {other} {other}")),
            "{lines:?}"
        );
    }
    assert_eq!(
        log.lines.iter().filter(|l| *l == "disconnected").count(),
        2,
        "{:?}",
        log.lines
    );
}

fn spawn(engine: &Godot4, transport: &str) {
    let (r, _log) = with_server(transport, "spawn", 1, |port| {
        vec![godot(
            engine,
            &["client", transport, &port.to_string(), "spawn"],
        )]
    });
    let lines = mp_lines(&r[0]);
    assert!(
        lines.contains(&"spawn_arg 7".to_string()),
        "{}",
        r[0].describe()
    );
    assert!(
        lines.contains(&"spawned Bot (7.0, 8.0)".to_string()),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"synced (10.0, 20.0)".to_string()),
        "{lines:?}"
    );
    assert!(lines.contains(&"delta 0.5".to_string()), "{lines:?}");
    assert!(lines.contains(&"despawned Bot".to_string()), "{lines:?}");
}

fn rust_client(engine: &Godot4, transport: &str, port: u16) {
    let e2 = engine.clone();
    let t = transport.to_string();
    let server =
        std::thread::spawn(move || godot(&e2, &["server", &t, &port.to_string(), "serve"]));
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let got = rt.block_on(async {
        let b = net::Peer::builder(scene());
        let mut peer = None;
        for _ in 0..50 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let c = if transport == "ws" {
                b.clone()
                    .connect_websocket(&format!("ws://127.0.0.1:{port}"))
                    .await
            } else {
                b.clone()
                    .connect_enet(SocketAddr::from(([127, 0, 0, 1], port)))
                    .await
            };
            if let Ok(p) = c {
                peer = Some(p);
                break;
            }
        }
        let mut peer = peer.expect("Godot server reachable");
        peer.rpc_id(1, "Game", "echo_many", &(300, true, "x"))
            .unwrap();
        peer.rpc_id(1, "Game", "echo", &(Vector3::new(1.0, 2.0, 3.0),))
            .unwrap();
        peer.rpc_id(1, "Game", "noargs", &()).unwrap();
        let mut got = Vec::new();
        while got.len() < 3 {
            let ev = tokio::time::timeout(Duration::from_secs(10), peer.next_event())
                .await
                .unwrap()
                .unwrap();
            if let Event::Call(c) = ev {
                got.push((c.method.to_string(), c.args.to_variants().unwrap()));
            }
        }
        peer.close().await;
        got
    });
    let r = server.join().unwrap();
    assert_eq!(
        got,
        vec![
            (
                "echo_many".to_string(),
                vec![Variant::Int(300), Variant::Bool(true), Variant::from("x")]
            ),
            (
                "echo".to_string(),
                vec![Variant::Vector3(Vector3::new(1.0, 2.0, 3.0))]
            ),
            ("noargs".to_string(), vec![]),
        ]
    );
    let lines = mp_lines(&r);
    assert!(
        lines.iter().any(|l| l.starts_with("peer_disconnected")),
        "{}",
        r.describe()
    );
}
