//! `examples/godot_client` (Godot 4: `main.gd` driving `game_client.gd`) against
//! `examples/game_server.rs`, for real: the example's own server code runs in this
//! process (its file is this module's `game_server`), and two headless Godot 4 clients
//! play against it, one joining while the other plays. Both clients' output and the
//! server's log are checked: logins, the join and leave announcements, the chat in its
//! three enum forms, snapshots that carry the moves the clients sent, a clean exit of each
//! client, and each closed connection logged by the server as a disconnect.
//!
//! Without the engine, [`closing_is_a_disconnect`] checks the server's verdicts on the
//! ways a connection can end: a close at the end of a message and a reset are
//! disconnects, a stream cut inside a message is a drop.

use crate::support::engine::godot4_trial;
use crate::support::godot4::Godot4;
use crate::support::run::{self, RunResult};
use godot_bin::framing::Framing;
use godot_bin::{Config, Dialect, Variant};
use libtest_mimic::Trial;
use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The example server, as a module: `run` serves a listener and logs through a closure.
#[allow(dead_code)] // its `main`
#[path = "../../examples/game_server.rs"]
mod game_server;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "game_client::two_godot4_clients_play_on_the_example_server",
            two_godot4_clients_play_on_the_example_server,
        ),
        Trial::test("game_client::closing_is_a_disconnect", || {
            closing_is_a_disconnect();
            Ok(())
        }),
    ]
}

/// The client project's files, copied into each run directory.
const CLIENT_FILES: [(&str, &str); 3] = [
    (
        "project.godot",
        include_str!("../../examples/godot_client/project.godot"),
    ),
    (
        "main.gd",
        include_str!("../../examples/godot_client/main.gd"),
    ),
    (
        "game_client.gd",
        include_str!("../../examples/godot_client/game_client.gd"),
    ),
];

/// How long to wait for the server to log something.
const WAIT: Duration = Duration::from_secs(30);

/// The example server on a free port, in its own tokio runtime, until dropped.
struct Server {
    port: u16,
    log: Arc<Mutex<Vec<String>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let lines = log.clone();
        let thread = thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                let log: Arc<dyn Fn(String) + Send + Sync> =
                    Arc::new(move |line| lines.lock().unwrap().push(line));
                tokio::select! {
                    served = game_server::run(listener, Config::new(Dialect::Godot4), log) => {
                        served.expect("the example server stopped");
                    }
                    _ = stopped => {}
                }
            });
        });
        Server {
            port,
            log,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    fn log(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// Waits until `n` log lines satisfy `pred`; the log.
    fn wait_for(&self, n: usize, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        loop {
            let log = self.log();
            if log.iter().filter(|l| pred(l)).count() >= n {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not log {n} x {what} in {WAIT:?}:\n{}",
                log.join("\n")
            );
            thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Runs `main.gd` of the example client project, as its README says, for `seconds`.
fn run_client(engine: &Godot4, port: u16, name: &str, seconds: u32) -> RunResult {
    let mut files: Vec<(&str, &[u8])> = CLIENT_FILES
        .iter()
        .map(|(n, c)| (*n, c.as_bytes()))
        .collect();
    // The global class cache an editor would have written (quiets a start-up error).
    files.push((".godot/global_script_class_cache.cfg", b"list=[]\n"));
    let dir = run::prepare("g4client", "pass", "", &files);
    let mut command = engine.command(&dir, "main.gd");
    command
        .arg("--")
        .arg(format!("127.0.0.1:{port}"))
        .arg(name)
        .arg(seconds.to_string());
    run::run("Godot 4", command, dir, Duration::from_secs(60))
}

/// Stdout lines of a client run (the banner and empty lines dropped).
fn client_lines(res: &RunResult) -> Vec<String> {
    res.stdout
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .filter(|l| !l.is_empty() && !l.starts_with("Godot Engine v"))
        .collect()
}

/// The positions a client printed for `name` (`tick N: name at (x, y)`).
fn positions(lines: &[String], name: &str) -> Vec<(f32, f32)> {
    let prefix = format!(": {name} at (");
    lines
        .iter()
        .filter(|l| l.starts_with("tick "))
        .filter_map(|l| {
            let at = l.find(&prefix)? + prefix.len();
            let (x, y) = l[at..].trim_end_matches(')').split_once(", ")?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// Checks one client's run: clean exit, its welcome, the chat it must have seen, and
/// snapshots that carry its own moves (a circle of radius 100 about the origin).
fn check_client(res: &RunResult, name: &str, id: u32, others: usize, seconds: u32) -> Vec<String> {
    let lines = client_lines(res);
    let ctx = || format!("{name}:\n{}", res.describe());
    assert!(!res.timed_out && res.status == Some(0), "{}", ctx());
    assert!(res.script_errors().is_empty(), "{}", ctx());
    assert!(
        !res.stderr.contains("SCRIPT ERROR") && !res.stderr.contains("Parse Error"),
        "{}",
        ctx()
    );
    assert!(
        lines[0].starts_with("connecting to 127.0.0.1:"),
        "{}",
        ctx()
    );
    assert_eq!(
        lines[1],
        format!("welcome: I am player {id}, {others} already here"),
        "{}",
        ctx()
    );
    for chat in [
        format!("chat from {name}: {{ \"Say\": \"hello from Godot 4\" }}"),
        format!("chat from {name}: Wave"),
        format!(
            "chat from {name}: {{ \"Whisper\": {{ \"to\": {id}, \"text\": \"note to self\" }} }}"
        ),
    ] {
        assert_eq!(
            lines.iter().filter(|l| **l == chat).count(),
            1,
            "{chat:?}\n{}",
            ctx()
        );
    }
    assert!(!lines.iter().any(|l| l == "disconnected"), "{}", ctx());
    assert!(
        !lines.iter().any(|l| l.starts_with("server error")),
        "{}",
        ctx()
    );
    assert_eq!(
        lines.last().unwrap(),
        &format!("done after {seconds}.0 s"),
        "{}",
        ctx()
    );
    let own = positions(&lines, name);
    assert!(own.len() >= 2, "{}", ctx());
    for (x, y) in &own {
        let r = (x * x + y * y).sqrt();
        assert!(
            (90.0..110.0).contains(&r),
            "{name} at ({x}, {y})\n{}",
            ctx()
        );
    }
    let mut distinct = own.clone();
    distinct.dedup();
    assert!(distinct.len() >= 2, "{name} never moved\n{}", ctx());
    lines
}

fn two_godot4_clients_play_on_the_example_server(engine: &Godot4) {
    let server = Server::start();
    let port = server.port;

    // Ada plays 5 s; Bob logs in once Ada has and plays 2 s, so Ada sees him come and go.
    let ada = {
        let engine = engine.clone();
        thread::spawn(move || run_client(&engine, port, "ada", 5))
    };
    server.wait_for(1, "ada's login", |l| {
        l.ends_with(": \"ada\" logged in as player 1")
    });
    let bob = run_client(engine, port, "bob", 2);
    let ada = ada.join().expect("ada's run");
    let log = server.wait_for(2, "disconnects", |l| l.contains(": disconnected"));

    let bob_lines = check_client(&bob, "bob", 2, 1, 2);
    let ada_lines = check_client(&ada, "ada", 1, 0, 5);
    // Ada saw Bob join, chat (his Say and Wave; his whisper was to himself), move, leave.
    for line in [
        "joined: bob (2)",
        "chat from bob: { \"Say\": \"hello from Godot 4\" }",
        "chat from bob: Wave",
        "left: 2",
    ] {
        assert!(
            ada_lines.iter().any(|l| l == line),
            "ada did not print {line:?}\n{}",
            ada.describe()
        );
    }
    assert!(
        !ada_lines
            .iter()
            .any(|l| l.contains("chat from bob: { \"Whisper\"")),
        "{}",
        ada.describe()
    );
    assert!(
        !positions(&ada_lines, "bob").is_empty(),
        "{}",
        ada.describe()
    );
    // Bob saw Ada in the snapshots.
    assert!(
        !positions(&bob_lines, "ada").is_empty(),
        "{}",
        bob.describe()
    );

    // The server: two connections, two logins, two disconnects, nothing dropped.
    let count = |pat: &str| log.iter().filter(|l| l.contains(pat)).count();
    assert_eq!(count(": connected"), 2, "{}", log.join("\n"));
    assert_eq!(
        count(": \"ada\" logged in as player 1"),
        1,
        "{}",
        log.join("\n")
    );
    assert_eq!(
        count(": \"bob\" logged in as player 2"),
        1,
        "{}",
        log.join("\n")
    );
    assert_eq!(count(": disconnected"), 2, "{}", log.join("\n"));
    assert_eq!(count("dropped"), 0, "{}", log.join("\n"));
    eprintln!(
        "godot4 game client: ada printed {} lines ({} snapshots of her), bob {} lines; \
         server log:\n  {}",
        ada_lines.len(),
        positions(&ada_lines, "ada").len(),
        bob_lines.len(),
        log.join("\n  ")
    );
}

/// A login frame, as GDScript's `put_var({"Login": {...}})` sends it.
fn login(name: &str) -> Variant {
    let mut body = godot_bin::Dictionary::new();
    body.insert("name", name);
    body.insert("version", 1);
    let mut msg = godot_bin::Dictionary::new();
    msg.insert("Login", body);
    Variant::Dictionary(msg)
}

/// Connects, logs in as `name` and reads the welcome.
fn logged_in(port: u16, name: &str) -> TcpStream {
    let cfg = Config::new(Dialect::Godot4);
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(WAIT)).unwrap();
    let framing = Framing::new(cfg).max_frame_len(1 << 20);
    framing.write(&mut s, &login(name)).unwrap();
    let welcome: Variant = framing.read(&mut s).unwrap().unwrap();
    assert!(format!("{welcome:?}").contains("Welcome"), "{welcome:?}");
    s
}

fn closing_is_a_disconnect() {
    let server = Server::start();

    // 1. Closed at the end of a message: the codec sees the stream end between frames.
    let s = logged_in(server.port, "clean");
    let peer = s.local_addr().unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    let log = server.wait_for(1, "clean's end", |l| l.starts_with(&format!("{peer}: d")));
    assert!(
        log.contains(&format!("{peer}: disconnected")),
        "{}",
        log.join("\n")
    );
    drop(s);

    // 2. Closed with snapshots unread: the system resets the connection.
    let s = logged_in(server.port, "reset");
    let peer = s.local_addr().unwrap();
    thread::sleep(Duration::from_millis(350)); // a few snapshots arrive, unread
    drop(s);
    let log = server.wait_for(1, "reset's end", |l| l.starts_with(&format!("{peer}: d")));
    let end = log
        .iter()
        .find(|l| l.starts_with(&format!("{peer}: d")))
        .unwrap();
    assert!(
        end.starts_with(&format!("{peer}: disconnected")),
        "{}",
        log.join("\n")
    );

    // 3. Cut inside a message: half a frame, then the end of the stream.
    let mut s = logged_in(server.port, "cut");
    let peer = s.local_addr().unwrap();
    let frame = {
        let mut f = Vec::new();
        Framing::new(Config::new(Dialect::Godot4))
            .write(&mut f, &login("again"))
            .unwrap();
        f
    };
    s.write_all(&frame[..frame.len() / 2]).unwrap();
    s.shutdown(Shutdown::Write).unwrap();
    let log = server.wait_for(1, "cut's end", |l| l.starts_with(&format!("{peer}: d")));
    let end = log
        .iter()
        .find(|l| l.starts_with(&format!("{peer}: d")))
        .unwrap();
    assert!(
        end.starts_with(&format!("{peer}: dropped: ")),
        "{}",
        log.join("\n")
    );
    eprintln!("game server ends of connections:\n  {}", log.join("\n  "));
}
