//! SceneMultiplayer core: what one echoed RPC costs the server, without I/O.
//! `cargo bench -p godot_bin_multiplayer --bench multiplayer`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use godot_bin::Vector3;
use godot_bin_multiplayer::{
    wire, Args, ArgsForm, Event, NodeConfig, Options, Rpc, Scene, Server, TransferMode,
};
use std::sync::Arc;
use std::time::Instant;

fn echo_server() -> Server {
    let scene = Scene::new()
        .with(
            NodeConfig::new("Echo")
                .rpc(Rpc::any_peer("echo"))
                .rpc(Rpc::any_peer("echo_many")),
        )
        .unwrap();
    let mut s = Server::new(Arc::new(scene), Options::default());
    s.peer_connected(5, Instant::now()).unwrap();
    while s.poll_event().is_some() {}
    s
}

fn bench(c: &mut Criterion) {
    let args = Args::new(&(1, "x", Vector3::new(1.0, 2.0, 3.0))).unwrap();
    let mut call = Vec::new();
    wire::put_remote_call(
        &mut call,
        wire::NodeField::Path,
        1,
        args.form(),
        args.as_bytes(),
        "Echo",
    );
    let mut g = c.benchmark_group("multiplayer");
    g.throughput(Throughput::Elements(1));
    g.bench_function("parse_call", |b| {
        b.iter(|| wire::parse(black_box(&call)).unwrap())
    });
    g.bench_function("encode_args_tuple", |b| {
        b.iter(|| Args::new(black_box(&(1, "x", Vector3::new(1.0, 2.0, 3.0)))).unwrap())
    });
    g.bench_function("decode_args_tuple", |b| {
        b.iter(|| black_box(&args).decode::<(i64, String, Vector3)>().unwrap())
    });
    g.bench_function("server_receive_and_echo", |b| {
        let mut s = echo_server();
        let now = Instant::now();
        b.iter(|| {
            s.receive(5, 0, TransferMode::Reliable, black_box(&call), now);
            while let Some(ev) = s.poll_event() {
                if let Event::Call(c) = ev {
                    s.call_args(c.from, c.node, &c.method, &c.args).unwrap();
                }
            }
            while let Some(o) = s.poll_output() {
                black_box(o);
            }
        })
    });
    let _ = ArgsForm::Raw;
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
