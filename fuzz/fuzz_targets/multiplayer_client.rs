//! A client session against a hostile server: arbitrary packets from peer 1 (or from a
//! spoofed sender), interleaved with what a game does on the client (calls to the server
//! and, through the relay, to other peers; raw bytes; auth; time passing; the link
//! dropping and coming back). No panic; allocation bounded by the input; the client only
//! ever sends to the server; every packet it sends parses; a call it reports names a
//! declared node and method; the peers it lists never include itself.
#![no_main]

use godot_bin_multiplayer::wire;
use godot_bin_multiplayer::{
    Client, Event, NodeConfig, Options, Output, Rpc, Scene, TransferMode, SERVER_ID,
};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

fn scene() -> Arc<Scene> {
    static S: OnceLock<Arc<Scene>> = OnceLock::new();
    S.get_or_init(|| {
        let game = NodeConfig::new("Game")
            .rpc(Rpc::any_peer("echo"))
            .rpc(Rpc::authority("from_server"))
            .rpc(Rpc::any_peer("uo").unreliable_ordered().channel(2))
            .node_rpc(Rpc::any_peer("set_process"));
        Arc::new(
            Scene::new()
                .with(game)
                .and_then(|s| s.with(NodeConfig::new("Game/Spawner")))
                .and_then(|s| s.with(NodeConfig::new("Game/Spawner/Bot")))
                .expect("scene"),
        )
    })
    .clone()
}

const ME: i32 = 77;

fn drain(client: &mut Client) {
    while let Some(out) = client.poll_output() {
        match out {
            Output::Send(t) => {
                assert_eq!(t.to, SERVER_ID, "a client sends only to the server");
                assert!(
                    wire::parse(&t.data).is_ok(),
                    "the client sent a packet it cannot parse: {:02x?}",
                    t.data
                );
            }
            Output::Disconnect(peer) => assert_eq!(peer, SERVER_ID),
        }
    }
    while let Some(ev) = client.poll_event() {
        match ev {
            Event::Call(call) => {
                let scene = client.scene();
                assert_eq!(scene.path(call.node), &*call.path);
                assert!(scene.method_id(call.node, &call.method).is_some());
                let _ = call.args.to_variants();
            }
            Event::Spawn(s) => {
                let _ = s.state.len();
            }
            Event::Sync(s) => {
                let _ = s.values.len();
            }
            _ => {}
        }
    }
    assert!(client.peers().all(|p| p != ME), "the client lists itself");
}

fuzz_target!(|data: &[u8]| {
    // The first byte sets the options; then operations separated by 0xFE, each led by an
    // op byte (a packet from the server unless it names one of the others).
    godot_bin_fuzz::bounded("multiplayer client", data, || {
        let Some((&setup, ops)) = data.split_first() else {
            return;
        };
        let opts = Options {
            auth: setup & 1 != 0,
            server_relay: setup & 2 == 0,
            max_paths_per_peer: 16,
            max_spawned_per_peer: 16,
            auth_timeout: Duration::from_millis(u64::from(setup >> 2) * 100),
            ..Options::default()
        };
        let t0 = Instant::now();
        let mut now = t0;
        let mut client = Client::new(scene(), opts);
        client.connected(ME, now).expect("fresh id");
        for chunk in ops.split(|&b| b == 0xFE) {
            let Some((&op, rest)) = chunk.split_first() else {
                continue;
            };
            let arg = rest.first().copied().unwrap_or(0);
            match op {
                0xF0 => {
                    let to = [SERVER_ID, 0, -ME, 5, -5, ME][usize::from(arg) % 6];
                    let _ = client.rpc_id(to, "Game", "echo", &(i64::from(arg), "x"));
                    let _ = client.rpc_id(to, "Game/Spawner/Bot", "set_process", &(true,));
                }
                0xF1 => {
                    let _ = client.rpc_id(SERVER_ID, "Game", "uo", &(rest,));
                }
                0xF2 => {
                    let to = [SERVER_ID, 0, 5][usize::from(arg) % 3];
                    let _ = client.send_bytes(to, rest, TransferMode::Unreliable, arg);
                }
                0xF3 => {
                    let _ = client.send_auth(SERVER_ID, rest);
                    let _ = client.complete_auth(SERVER_ID);
                }
                0xF4 => {
                    now += Duration::from_millis(u64::from(arg) * 50);
                    if client.poll_timeout().is_some_and(|t| t <= now) || arg & 1 == 0 {
                        client.tick(now);
                    }
                }
                0xF5 => {
                    client.disconnected();
                    let _ = client.connected(ME, now);
                }
                _ => {
                    // A packet; a few from a sender that is not the server.
                    let from = if op == 0xF6 { 5 } else { SERVER_ID };
                    let mode = [
                        TransferMode::Reliable,
                        TransferMode::Unreliable,
                        TransferMode::UnreliableOrdered,
                    ][usize::from(op % 3)];
                    let packet = if op == 0xF6 { rest } else { chunk };
                    client.receive(from, op >> 4, mode, packet, now);
                }
            }
            drain(&mut client);
        }
        client.tick(now + Duration::from_secs(10));
        drain(&mut client);
    });
});
