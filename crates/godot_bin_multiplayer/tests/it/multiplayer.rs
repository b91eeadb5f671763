//! The multiplayer protocol core against packets Godot 4.4.1 sent
//! (`tests/data/multiplayer_4.4.1.tsv`), and the session rules a hostile client must not
//! get around. The engine itself is exercised in `tests/engine/multiplayer.rs`.

use crate::support::hex;
use godot_bin::{Variant, Vector3};
use godot_bin_multiplayer::wire::{self, Command, NodeTarget, Sys};
use godot_bin_multiplayer::{
    Args, ArgsForm, Event, NodeConfig, Options, Output, Rpc, Scene, Server, TransferMode,
};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn captures() -> HashMap<String, Vec<u8>> {
    let text = include_str!("../data/multiplayer_4.4.1.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (name, h) = l.split_once('\t').unwrap();
            (name.to_owned(), hex::bytes(h))
        })
        .collect()
}

/// The captured scene's node, declared in another order: ids come from sorted names.
fn game() -> NodeConfig {
    NodeConfig::new("Game")
        .rpc(Rpc::any_peer("ping"))
        .rpc(Rpc::any_peer("hello"))
        .rpc(Rpc::any_peer("Zed"))
        .rpc(Rpc::any_peer("noargs"))
        .rpc(Rpc::any_peer("bytes_only"))
        .rpc(Rpc::any_peer("uo").unreliable_ordered().channel(1))
        .rpc(Rpc::authority("zeta_unrel").unreliable().channel(2))
        .node_rpc(Rpc::any_peer("set_process"))
}

fn server(opts: Options) -> Server {
    Server::new(Arc::new(Scene::new().with(game()).unwrap()), opts)
}

fn sends(s: &mut Server) -> Vec<(i32, Vec<u8>)> {
    let mut v = Vec::new();
    while let Some(o) = s.poll_output() {
        if let Output::Send(t) = o {
            v.push((t.to, t.data));
        }
    }
    v
}

fn events(s: &mut Server) -> Vec<Event> {
    std::iter::from_fn(|| s.poll_event()).collect()
}

const R: TransferMode = TransferMode::Reliable;

#[test]
fn method_ids_and_checksum_match_the_engine() {
    let scene = Scene::new().with(game()).unwrap();
    let id = scene.node_id("Game").unwrap();
    let ids: Vec<_> = [
        "Zed",
        "bytes_only",
        "hello",
        "noargs",
        "ping",
        "uo",
        "zeta_unrel",
        "set_process",
    ]
    .iter()
    .map(|m| scene.method_id(id, m).unwrap())
    .collect();
    assert_eq!(ids, [0, 1, 2, 3, 4, 5, 6, 0x8000]);
    let c = captures();
    // The checksum the engine put in its SIMPLIFY_PATH.
    assert_eq!(scene.checksum(id).as_bytes(), &c["simplify_game"][1..33]);
    // A node with no RPC: the md5 of nothing.
    let empty = Scene::new().with(NodeConfig::new("Empty")).unwrap();
    let node = empty.node_id("Empty").unwrap();
    assert_eq!(empty.checksum(node), "d41d8cd98f00b204e9800998ecf8427e");
}

#[test]
fn captured_packets_parse() {
    let c = captures();
    match wire::parse(&c["hello_full_path"]).unwrap() {
        Command::RemoteCall(call) => {
            assert_eq!(call.target, NodeTarget::Path("Game"));
            assert_eq!(call.method, 2);
            assert_eq!(call.form, ArgsForm::Values(3));
        }
        other => panic!("{other:?}"),
    }
    match wire::parse(&c["spawn_custom"]).unwrap() {
        Command::Spawn(s) => {
            assert_eq!(
                (s.scene, s.spawner, s.net_id, s.name),
                (0xFF, 2, 1, "Node2D")
            );
            assert_eq!(s.sync_ids().collect::<Vec<_>>(), [2]);
            assert!(s.arg.is_some());
            assert_eq!(s.state.len(), 12);
        }
        other => panic!("{other:?}"),
    }
    match wire::parse(&c["delta_rotation"]).unwrap() {
        Command::Sync(s) => {
            let e: Vec<_> = s.entries().collect::<Result<_, _>>().unwrap();
            assert_eq!((e.len(), e[0].net_id, e[0].indexes), (1, 2, 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        wire::parse(&c["relay_bytes_not_b"]).unwrap(),
        Command::Sys(Sys::Relay {
            peer: -1192860113,
            inner: &[3, 0xdd]
        })
    );
    for (name, p) in &c {
        assert!(wire::parse(p).is_ok(), "{name}");
    }
}

#[test]
fn server_answers_the_captured_client_and_calls_back_byte_for_byte() {
    let c = captures();
    let mut s = server(Options::default());
    let now = Instant::now();
    s.peer_connected(5, now).unwrap();
    events(&mut s);
    s.receive(5, 0, R, &c["simplify_game"], now);
    assert_eq!(sends(&mut s), vec![(5, c["confirm_1"].clone())]);
    s.receive(5, 0, R, &c["hello_full_path"], now);
    s.receive(5, 0, R, &c["hello_compact"], now);
    let calls: Vec<_> = events(&mut s)
        .into_iter()
        .map(|e| match e {
            Event::Call(c) => (
                c.from,
                c.method.to_string(),
                c.args.decode::<(i64, String, Vector3)>().unwrap(),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        calls[0],
        (
            5,
            "hello".into(),
            (1, "x".into(), Vector3::new(1.0, 2.0, 3.0))
        )
    );
    assert_eq!(
        calls[1],
        (
            5,
            "hello".into(),
            (300, "y".into(), Vector3::new(4.0, 5.0, 6.0))
        )
    );
    // The server's first call: SIMPLIFY_PATH then the full-path form, the same bytes the
    // engine sent; after the confirmation, the compact form.
    s.rpc_id(5, "Game", "hello", &(1, "x", Vector3::new(1.0, 2.0, 3.0)))
        .unwrap();
    assert_eq!(
        sends(&mut s),
        vec![
            (5, c["simplify_game"].clone()),
            (5, c["hello_full_path"].clone())
        ]
    );
    s.receive(5, 0, R, &c["confirm_1"], now);
    s.rpc_id(5, "Game", "hello", &(300, "y", Vector3::new(4.0, 5.0, 6.0)))
        .unwrap();
    s.rpc_id(5, "Game", "noargs", &()).unwrap();
    s.rpc_id(
        5,
        "Game",
        "bytes_only",
        &(godot_bin::PackedByteArray::from(vec![1, 2, 3]),),
    )
    .unwrap();
    s.rpc_id(5, "Game", "Zed", &(true,)).unwrap();
    s.rpc_id(5, "Game", "set_process", &(false,)).unwrap();
    s.rpc_id(5, "Game", "uo", &(9,)).unwrap();
    s.send_bytes(5, &[0xAA, 0xBB], R, 0).unwrap();
    let want: Vec<_> = [
        "hello_compact",
        "noargs",
        "bytes_only",
        "zed_true",
        "set_process_false",
        "uo_9",
        "raw_aabb",
    ]
    .iter()
    .map(|n| (5, c[*n].clone()))
    .collect();
    assert_eq!(sends(&mut s), want);
}

#[test]
fn captured_call_shapes_decode() {
    let c = captures();
    let mut s = server(Options::default());
    let now = Instant::now();
    s.peer_connected(5, now).unwrap();
    s.receive(5, 0, R, &c["simplify_game"], now);
    for name in [
        "noargs",
        "bytes_only",
        "zed_true",
        "set_process_false",
        "uo_9",
        "noargs_full_path",
        "zed_full_path",
    ] {
        s.receive(5, 0, R, &c[name], now);
    }
    let got: Vec<_> = events(&mut s)
        .into_iter()
        .filter_map(|e| match e {
            Event::Call(c) => Some((c.method.to_string(), c.args.to_variants().unwrap())),
            _ => None,
        })
        .collect();
    let pba = Variant::PackedByteArray(vec![1, 2, 3].into());
    assert_eq!(
        got,
        vec![
            ("noargs".into(), vec![]),
            ("bytes_only".into(), vec![pba]),
            ("Zed".into(), vec![Variant::Bool(true)]),
            ("set_process".into(), vec![Variant::Bool(false)]),
            ("uo".into(), vec![Variant::Int(9)]),
            ("noargs".into(), vec![]),
            ("Zed".into(), vec![Variant::Bool(true)]),
        ]
    );
}

fn three_peers() -> Server {
    let mut s = server(Options::default());
    let now = Instant::now();
    for p in [10, 20, 30] {
        s.peer_connected(p, now).unwrap();
    }
    events(&mut s);
    sends(&mut s);
    s
}

#[test]
fn announcements_follow_the_engine() {
    let mut s = server(Options::default());
    let now = Instant::now();
    s.peer_connected(10, now).unwrap();
    s.peer_connected(20, now).unwrap();
    let add = |p: i32| {
        let mut b = Vec::new();
        wire::put_peer_notice(&mut b, true, p);
        b
    };
    assert_eq!(sends(&mut s), vec![(10, add(20)), (20, add(10))]);
    s.peer_disconnected(10);
    let mut del = Vec::new();
    wire::put_peer_notice(&mut del, false, 10);
    assert_eq!(sends(&mut s), vec![(20, del)]);
}

#[test]
fn relay_rules_and_no_posing() {
    let now = Instant::now();
    let relay = |t: i32, inner: &[u8]| {
        let mut b = Vec::new();
        wire::put_relay(&mut b, t, inner);
        b
    };
    // t > 0: forwarded to t only, the source is the real sender whatever it claims.
    let mut s = three_peers();
    s.receive(10, 0, R, &relay(20, &[3, 1]), now);
    assert_eq!(sends(&mut s), vec![(20, relay(10, &[3, 1]))]);
    assert!(events(&mut s).is_empty());
    // t = 0: everyone else, and the server.
    s.receive(10, 0, R, &relay(0, &[3, 2]), now);
    assert_eq!(
        sends(&mut s),
        vec![(20, relay(10, &[3, 2])), (30, relay(10, &[3, 2]))]
    );
    assert!(matches!(&events(&mut s)[..], [Event::Bytes { from: 10, data }] if data == &[2]));
    // t = -30: everyone but 30 (and the sender), and the server.
    s.receive(10, 0, R, &relay(-30, &[3, 3]), now);
    assert_eq!(sends(&mut s), vec![(20, relay(10, &[3, 3]))]);
    assert_eq!(events(&mut s).len(), 1);
    // t = -1: everyone but the server.
    s.receive(10, 0, R, &relay(-1, &[3, 4]), now);
    assert_eq!(
        sends(&mut s),
        vec![(20, relay(10, &[3, 4])), (30, relay(10, &[3, 4]))]
    );
    assert!(events(&mut s).is_empty());
    // Unknown target: dropped. A client cannot announce peers or relay SYS packets.
    s.receive(10, 0, R, &relay(99, &[3, 5]), now);
    s.receive(10, 0, R, &[7, 1, 99, 0, 0, 0], now);
    s.receive(10, 0, R, &relay(20, &[7, 1, 99, 0, 0, 0]), now);
    assert!(sends(&mut s).is_empty());
    assert_eq!(
        events(&mut s)
            .iter()
            .filter(|e| matches!(e, Event::Refused { .. }))
            .count(),
        2
    );
}

#[test]
fn nothing_but_auth_before_auth_completes() {
    let c = captures();
    let opts = Options {
        auth: true,
        auth_timeout: Duration::from_secs(3),
        ..Options::default()
    };
    let mut s = server(opts);
    let t0 = Instant::now();
    s.peer_connected(5, t0).unwrap();
    s.peer_connected(6, t0).unwrap();
    assert!(matches!(
        events(&mut s)[..],
        [Event::PeerAuthenticating(5), Event::PeerAuthenticating(6)]
    ));
    s.receive(5, 0, R, &c["noargs_full_path"], t0);
    s.receive(5, 0, R, &c["raw_aabb"], t0);
    s.receive(5, 0, R, &c["auth_secret"], t0);
    let ev = events(&mut s);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Refused { .. }))
            .count(),
        2
    );
    assert!(matches!(&ev[2], Event::Auth { peer: 5, data } if data == b"secret"));
    assert!(s.rpc_id(5, "Game", "noargs", &()).is_err());
    s.complete_auth(5).unwrap();
    assert_eq!(sends(&mut s), vec![(5, c["auth_done"].clone())]);
    s.receive(5, 0, R, &c["auth_done"], t0);
    assert!(matches!(events(&mut s)[..], [Event::PeerConnected(5)]));
    // Peer 6 never completes: dropped at the timeout, which poll_timeout announces.
    assert_eq!(s.poll_timeout(), Some(t0 + Duration::from_secs(3)));
    s.tick(t0 + Duration::from_secs(3));
    assert_eq!(s.poll_output(), Some(Output::Disconnect(6)));
    assert!(matches!(events(&mut s)[..], [Event::AuthFailed(6)]));
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn hostile_packets_are_refused_without_panic() {
    let c = captures();
    let opts = Options {
        max_paths_per_peer: 4,
        ..Options::default()
    };
    let mut s = server(opts);
    let now = Instant::now();
    s.peer_connected(5, now).unwrap();
    for p in c.values() {
        for cut in 0..p.len() {
            let _ = wire::parse(&p[..cut]);
            s.receive(5, 0, R, &p[..cut], now);
        }
    }
    // Lengths past the packet fail before anything is allocated for them.
    let mut spawn = c["spawn_custom"].clone();
    spawn[10..14].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(wire::parse(&spawn).is_err());
    // The path table per peer is bounded.
    let mut s = server(Options {
        max_paths_per_peer: 4,
        ..Options::default()
    });
    s.peer_connected(5, now).unwrap();
    for id in 1..100u32 {
        let mut p = Vec::new();
        wire::put_simplify_path(&mut p, &"0".repeat(32), id, "Game");
        s.receive(5, 0, R, &p, now);
    }
    let confirmed = sends(&mut s).into_iter().filter(|(_, p)| p[0] == 2).count();
    assert_eq!(confirmed, 4 + 1 - 1);
    // Authority RPCs refuse clients; unknown methods and nodes are refused.
    events(&mut s);
    let mut call = Vec::new();
    wire::put_remote_call(
        &mut call,
        wire::NodeField::Path,
        6,
        ArgsForm::Values(1),
        &[2, 5],
        "Game",
    );
    s.receive(5, 0, R, &call, now);
    call.clear();
    wire::put_remote_call(
        &mut call,
        wire::NodeField::Path,
        77,
        ArgsForm::Raw,
        &[],
        "Game",
    );
    s.receive(5, 0, R, &call, now);
    call.clear();
    wire::put_remote_call(
        &mut call,
        wire::NodeField::Path,
        0,
        ArgsForm::Raw,
        &[],
        "Nope",
    );
    s.receive(5, 0, R, &call, now);
    assert_eq!(
        events(&mut s)
            .iter()
            .filter(|e| matches!(e, Event::Refused { .. }))
            .count(),
        3
    );
}

#[test]
fn args_from_tuples_structs_and_variants() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Move {
        id: i32,
        to: Vector3,
        run: bool,
    }
    let m = Move {
        id: 300,
        to: Vector3::new(1.0, 2.0, 3.0),
        run: true,
    };
    let args = Args::new(&m).unwrap();
    assert_eq!(args.len(), 3);
    assert_eq!(args.decode::<Move>().unwrap(), m);
    let same = Args::from_variants(&[
        Variant::Int(300),
        Variant::Vector3(m.to),
        Variant::Bool(true),
    ])
    .unwrap();
    assert_eq!(args, same);
    assert_eq!(&args.as_bytes()[..3], &[0x42, 0x2c, 0x01]);
    assert_eq!(Args::new(&()).unwrap().form(), ArgsForm::Raw);
    let raw = Args::new(&(godot_bin::PackedByteArray::from(vec![9, 8]),)).unwrap();
    assert_eq!((raw.form(), raw.as_bytes()), (ArgsForm::Raw, &[9u8, 8][..]));
    let big = Args::new(&(i64::MIN, -129, 70000)).unwrap();
    assert_eq!(
        big.decode::<(i64, i64, i64)>().unwrap(),
        (i64::MIN, -129, 70000)
    );
}

/// Issue 24: `rpc_id(1, "Echo", "echo", &hello)` with a struct sent one argument per
/// field and returned Ok; only the Godot side logged "Method expected 1 arguments, but
/// called with 2" and dropped the call. That form no longer compiles (the `CallArgs`
/// doctests prove it); the struct as one argument is `&(&hello,)`, and spreading its fields
/// takes an explicit `Args::new`.
#[test]
fn a_struct_is_one_argument_only_in_a_tuple() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq, Clone)]
    struct Hello {
        text: String,
        n: i32,
    }
    let hello = Hello {
        text: "hi".into(),
        n: 7,
    };
    let now = Instant::now();
    let scene = Arc::new(Scene::new().with(game()).unwrap());
    let mut s = Server::new(scene.clone(), Options::default());
    s.peer_connected(5, now).unwrap();
    events(&mut s);
    sends(&mut s);
    // The server calls the client both ways; the client decodes what arrives.
    s.rpc_id(5, "Game", "hello", &(&hello,)).unwrap();
    s.rpc_id(5, "Game", "hello", &Args::new(&hello).unwrap())
        .unwrap();
    let sent = sends(&mut s);
    assert_eq!(sent.len(), 3, "SIMPLIFY_PATH and two calls");
    let forms: Vec<_> = sent[1..]
        .iter()
        .map(|(_, p)| match wire::parse(p).unwrap() {
            Command::RemoteCall(c) => c.form,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(forms, [ArgsForm::Values(1), ArgsForm::Values(2)]);
    let mut c = godot_bin_multiplayer::Client::new(scene, Options::default());
    c.connected(5, now).unwrap();
    for (_, p) in &sent {
        c.receive(1, 0, R, p, now);
    }
    let calls: Vec<_> = std::iter::from_fn(|| c.poll_event())
        .filter_map(|e| match e {
            Event::Call(call) => Some(call.args),
            _ => None,
        })
        .collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].len(), 1);
    assert_eq!(calls[0].decode::<(Hello,)>().unwrap(), (hello.clone(),));
    assert_eq!(calls[1].len(), 2);
    assert_eq!(calls[1].decode::<Hello>().unwrap(), hello);
}
