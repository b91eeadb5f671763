//! The crate README's Godot client (its `gdscript` block, as written) in Godot 4.4.1
//! against the README's server: the server's `hello` reaches the script's `hello`, and the
//! script's `move_to` (method id, by sorted name, and checksum as the server declared
//! them) reaches the server with its argument.

use crate::support::engine::godot4_trial;
use crate::support::godot4::Godot4;
use crate::support::run;
use godot_bin::Vector3;
use godot_bin_multiplayer::{net, Event, NodeConfig, Rpc, Scene};
use libtest_mimic::Trial;
use std::process::Command;
use std::time::Duration;

const README: &str = include_str!("../../README.md");

/// Loads the README's script as the node `/root/Game`, calls `move_to` once connected,
/// and quits a moment later (the script itself runs for ever, as a game would).
const DRIVER_GD: &str = r#"extends SceneTree

func _initialize():
	_start.call_deferred()

func _start():
	var game := Node.new()
	game.set_script(load("res://game.gd"))
	game.name = "Game"
	root.add_child(game)
	root.multiplayer.connected_to_server.connect(func():
		print("connected")
		game.move_to.rpc_id(1, Vector3(1, 2, 3)))
	create_timer(3.0).timeout.connect(func(): quit(0))
"#;

pub fn trials() -> Vec<Trial> {
    vec![godot4_trial(
        "multiplayer::ws::godot_client_of_the_readme",
        readme_client,
    )]
}

/// The README's one `gdscript` block.
fn readme_script() -> &'static str {
    let start = README.find("```gdscript\n").expect("a gdscript block") + "```gdscript\n".len();
    let len = README[start..].find("```").expect("its end");
    &README[start..start + len]
}

/// The README's scene, and its server loop: `hello` to each peer that connects, each
/// `move_to` told to every other peer; returns the `move_to` calls it got.
fn serve(port_tx: std::sync::mpsc::Sender<u16>) -> (Vec<Vector3>, Vec<String>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let scene = Scene::new()
            .with(
                NodeConfig::new("Game")
                    .rpc(Rpc::any_peer("hello"))
                    .rpc(Rpc::any_peer("move_to").unreliable_ordered().channel(1)),
            )
            .unwrap();
        let mut host = net::Host::builder(scene)
            .websocket("127.0.0.1:0".parse().unwrap())
            .start()
            .await
            .unwrap();
        port_tx.send(host.websocket_addr().unwrap().port()).unwrap();
        let (mut moves, mut other) = (Vec::new(), Vec::new());
        let until = tokio::time::Instant::now() + Duration::from_secs(20);
        while let Ok(ev) = tokio::time::timeout_at(until, host.next_event()).await {
            match ev.unwrap() {
                Event::PeerConnected(id) => {
                    host.rpc_id(id, "Game", "hello", &("welcome",)).unwrap()
                }
                Event::Call(call) if &*call.method == "move_to" => {
                    let (to,): (Vector3,) = call.args.decode().unwrap();
                    host.rpc_id(-call.from, "Game", "move_to", &(to,)).unwrap();
                    moves.push(to);
                }
                Event::PeerDisconnected(_) => break,
                // A checksum mismatch or a refused packet would show here.
                other_event => other.push(format!("{other_event:?}")),
            }
        }
        (moves, other)
    })
}

fn readme_client(engine: &Godot4) {
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let server = std::thread::spawn(move || serve(port_tx));
    let port = port_rx.recv().unwrap();
    let script = readme_script();
    assert!(script.contains("ws://127.0.0.1:9080"), "{script}");
    let script = script.replace("ws://127.0.0.1:9080", &format!("ws://127.0.0.1:{port}"));
    let files: [(&str, &[u8]); 3] = [
        ("game.gd", script.as_bytes()),
        ("driver.gd", DRIVER_GD.as_bytes()),
        ("project.godot", b"config_version=5\n"),
    ];
    let dir = run::prepare("mp_readme", "pass", "", &files);
    let mut cmd = Command::new(engine.path());
    cmd.args(["--headless", "--path"])
        .arg(&dir)
        .args(["-s", "driver.gd"]);
    let r = run::run("Godot 4", cmd, dir, Duration::from_secs(30));
    let (moves, other) = server.join().unwrap();
    assert!(r.stdout.contains("connected"), "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("the server says welcome"),
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(!r.stderr.contains("SCRIPT ERROR"), "{}", r.stderr);
    assert_eq!(
        moves,
        [Vector3::new(1.0, 2.0, 3.0)],
        "{}\n{}",
        r.stdout,
        r.stderr
    );
    assert!(other.is_empty(), "{other:?}");
}
