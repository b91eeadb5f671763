//! Arbitrary SceneMultiplayer packets into a server session with three clients (auth on
//! for one) and a client session: no panic; allocation bounded by the input; a parsed call's
//! arguments decode or fail cleanly; the relay never makes a packet claim another source.
#![no_main]

use godot_bin_multiplayer::wire::{self, Command, Sys};
use godot_bin_multiplayer::{
    Client, Event, NodeConfig, Options, Output, Rpc, Scene, Server, TransferMode,
};
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

fn scene() -> Arc<Scene> {
    static S: OnceLock<Arc<Scene>> = OnceLock::new();
    S.get_or_init(|| {
        let game = NodeConfig::new("Game")
            .rpc(Rpc::any_peer("echo"))
            .rpc(Rpc::authority("auth_only"))
            .node_rpc(Rpc::any_peer("set_process"));
        Arc::new(
            Scene::new()
                .with(game)
                .and_then(|s| s.with(NodeConfig::new("Game/Spawner")))
                .expect("scene"),
        )
    })
    .clone()
}

fuzz_target!(|data: &[u8]| {
    // Packets separated by 0xFE 0xFE, each led by a byte choosing the sender.
    godot_bin_fuzz::bounded("multiplayer", data, || {
        let _ = wire::parse(data);
        let now = Instant::now();
        let mut server = Server::new(
            scene(),
            Options {
                max_paths_per_peer: 64,
                ..Options::default()
            },
        );
        for p in [10, 20, 30] {
            server.peer_connected(p, now).expect("fresh ids");
        }
        let mut client = Client::new(scene(), Options::default());
        client.connected(10, now).expect("fresh id");
        for chunk in data.split(|&b| b == 0xFE) {
            let Some((&who, packet)) = chunk.split_first() else {
                continue;
            };
            let from = [10, 20, 30][usize::from(who % 3)];
            server.receive(from, who >> 4, TransferMode::Reliable, packet, now);
            client.receive(1, 0, TransferMode::Reliable, packet, now);
            while let Some(out) = server.poll_output() {
                if let Output::Send(t) = out {
                    // A relayed packet always names its real sender.
                    if let Ok(Command::Sys(Sys::Relay { peer, .. })) = wire::parse(&t.data) {
                        assert_eq!(peer, from, "relay source rewritten to the sender");
                    }
                }
            }
            while client.poll_output().is_some() {}
            for ev in std::iter::from_fn(|| server.poll_event())
                .chain(std::iter::from_fn(|| client.poll_event()))
            {
                if let Event::Call(call) = ev {
                    let _ = call.args.to_variants();
                    let _ = call.args.decode::<Vec<godot_bin::Variant>>();
                }
            }
        }
        server.tick(now);
    });
});
