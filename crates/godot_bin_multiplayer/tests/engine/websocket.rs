//! Real Godot clients against `examples/websocket_server`: Godot 4.4's `WebSocketPeer`
//! (`examples/websocket_client/client4.gd`) and Godot 3.2's `WebSocketClient`
//! (`client3.gd`) talk to the example's own server loop (its `server.rs`, included here),
//! one Variant per binary message in both directions.
//!
//! Each client says Hello, Move, Paint, Say, sends a text message, bytes that are no
//! Variant and a Variant that is no message, Move again and Bye: 9 messages, 7 of them
//! `put_var` values. The server answers each: Welcome, State, State, Chat, three Errors,
//! State, Goodbye. The trials check what each side got: the server's decoded messages and
//! the exact bytes of every message against the engine's `var_to_bytes` / `var2bytes` of
//! the same value, and what the engine decoded (its `var_to_str` text and its
//! `var_to_bytes` of it) against what the server sent.

#[allow(dead_code)] // main.rs's half of the example (the log printer) is not here
#[path = "../../examples/websocket_server/server.rs"]
mod server;

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::godot3::{self, Godot3};
use crate::support::godot4::{self, Godot4};
use crate::support::hex;
use crate::support::run::RunResult;
use godot_bin::{to_variant, Color, Config, Dialect, Variant, VariantType, Vector2, Vector3};
use libtest_mimic::Trial;
use server::{errors, ClientMsg, Event, Player, ServerMsg, State};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tokio_tungstenite::tungstenite;

const CLIENT4_GD: &str = include_str!("../../examples/websocket_client/client4.gd");
const CLIENT3_GD: &str = include_str!("../../examples/websocket_client/client3.gd");

/// The engine is killed after this; a client gives up by itself after 15 s.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(40);

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "websocket::godot4_web_socket_peer_talks_to_the_example_server",
            godot4_web_socket_peer_talks_to_the_example_server,
        ),
        godot3_trial(
            "websocket::godot3_web_socket_client_talks_to_the_example_server",
            godot3_web_socket_client_talks_to_the_example_server,
        ),
        godot4_trial(
            "websocket::a_godot4_client_and_a_godot3_dialect_player_share_one_server",
            a_godot4_client_and_a_godot3_dialect_player_share_one_server,
        ),
        godot4_trial(
            "websocket::an_unknown_path_is_refused_at_the_handshake",
            an_unknown_path_is_refused_at_the_handshake,
        ),
    ]
}

/// The example's server on a free port of 127.0.0.1, in a thread of its own, with every
/// event kept. Dropping it stops the server.
struct Running {
    addr: SocketAddr,
    events: Arc<Mutex<Vec<Event>>>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    fn start() -> Running {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let addr = listener.local_addr().expect("local_addr");
        let events = Arc::new(Mutex::new(Vec::new()));
        let kept = events.clone();
        let log: server::Log = Arc::new(move |event| kept.lock().unwrap().push(event));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                tokio::select! {
                    () = server::run(listener, log) => {}
                    _ = stopped => {}
                }
            });
        });
        Running {
            addr,
            events,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// The events so far, once the last one matches `done` or after 5 s (the engine may
    /// exit before the server has logged the end of its connection).
    fn events_once(&self, done: fn(&Event) -> bool) -> Vec<Event> {
        for _ in 0..500 {
            let events = self.events.lock().unwrap();
            if events.last().is_some_and(done) {
                return events.clone();
            }
            drop(events);
            std::thread::sleep(Duration::from_millis(10));
        }
        self.events.lock().unwrap().clone()
    }

    /// [`Self::events_once`] the connection has ended.
    fn events_after_disconnect(&self) -> Vec<Event> {
        self.events_once(|e| matches!(e, Event::Disconnected { .. }))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the clients send, as the server must decode it (the 6 messages of the 9 that
/// are `ClientMsg`s).
fn expected_client_msgs(name: &str, engine: &str) -> Vec<ClientMsg> {
    vec![
        ClientMsg::Hello { name: name.into() },
        ClientMsg::Move {
            to: Vector3::new(4.0, 0.5, 0.0),
        },
        ClientMsg::Paint {
            color: Color::from_rgba(1.0, 0.5, 0.25, 1.0),
        },
        ClientMsg::Say(format!("héllo ✓ from {engine}")),
        ClientMsg::Move {
            to: Vector3::new(4.0, 0.5, -2.5),
        },
        ClientMsg::Bye,
    ]
}

/// What the server must answer, in order: one reply to each of the client's 9 messages,
/// when the client is player `id` and `others` (with smaller ids) stand still meanwhile.
fn expected_replies(
    id: i64,
    others: &[Player],
    name: &str,
    engine: &str,
    dialect: &str,
) -> Vec<ServerMsg> {
    let player = |position: Vector3, facing: Vector2, color: Color| Player {
        id,
        name: name.into(),
        position,
        facing,
        color,
    };
    let state = |tick: i64, player: Player| {
        let mut players = others.to_vec();
        players.push(player);
        ServerMsg::State(State { tick, players })
    };
    let orange = Color::from_rgba(1.0, 0.5, 0.25, 1.0);
    vec![
        ServerMsg::Welcome {
            id,
            dialect: dialect.into(),
        },
        state(
            1,
            player(
                Vector3::new(4.0, 0.5, 0.0),
                Vector2::new(1.0, 0.0),
                Color::WHITE,
            ),
        ),
        state(
            2,
            player(Vector3::new(4.0, 0.5, 0.0), Vector2::new(1.0, 0.0), orange),
        ),
        ServerMsg::Chat {
            from: id,
            name: name.into(),
            text: format!("héllo ✓ from {engine}"),
        },
        ServerMsg::Error(errors::TEXT_MESSAGE.into()),
        ServerMsg::Error(errors::NOT_A_VARIANT.into()),
        ServerMsg::Error(errors::NOT_A_MESSAGE.into()),
        state(
            3,
            player(
                Vector3::new(4.0, 0.5, -2.5),
                Vector2::new(0.0, -1.0),
                orange,
            ),
        ),
        ServerMsg::Goodbye,
    ]
}

/// One message the engine says it sent, in order.
#[derive(Debug, PartialEq)]
enum Outbound {
    /// `put_var(v)`: the engine's `var_to_bytes(v)`.
    Var(Vec<u8>),
    /// `send_text` / a text-mode `put_packet`.
    Text(Vec<u8>),
    /// `put_packet` of raw bytes.
    Raw(Vec<u8>),
}

/// The engine's `SENT*` lines.
fn outbound(run: &RunResult) -> Vec<Outbound> {
    run.stdout
        .lines()
        .filter_map(|line| {
            let line = line.trim_end_matches('\r');
            if let Some(h) = line.strip_prefix("SENT ") {
                Some(Outbound::Var(hex::bytes(h)))
            } else if let Some(t) = line.strip_prefix("SENT_TEXT ") {
                Some(Outbound::Text(t.as_bytes().to_vec()))
            } else {
                line.strip_prefix("SENT_RAW ")
                    .map(|h| Outbound::Raw(hex::bytes(h)))
            }
        })
        .collect()
}

/// One message the engine received: `RECV <message hex> <var_to_bytes hex> <text>`.
#[derive(Debug)]
struct Inbound {
    message: Vec<u8>,
    reencoded: Vec<u8>,
    text: String,
}

fn inbound(run: &RunResult) -> Vec<Inbound> {
    run.lines_with_prefix("RECV ")
        .iter()
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let mut next = || {
                parts
                    .next()
                    .unwrap_or_else(|| panic!("short line {line:?}"))
            };
            let (message, reencoded, text) = (next(), next(), next());
            Inbound {
                message: hex::bytes(message),
                reencoded: hex::bytes(reencoded),
                text: text.to_string(),
            }
        })
        .collect()
}

/// The address of a connection's events.
fn peer_of(event: &Event) -> SocketAddr {
    match event {
        Event::Connected { peer, .. }
        | Event::HandshakeFailed { peer, .. }
        | Event::Received { peer, .. }
        | Event::Sent { peer, .. }
        | Event::Rejected { peer, .. }
        | Event::Disconnected { peer, .. } => *peer,
    }
}

/// The conversation of one client (`client4.gd` or `client3.gd`) with the example server,
/// checked on both sides: the engine is player `id`, `others` were there before it.
/// `events` are the server's, of the engine's connection only.
fn check_conversation(
    run: &RunResult,
    events: &[Event],
    (id, others): (i64, &[Player]),
    dialect: Dialect,
    name: &str,
    engine: &str,
) {
    let why = || format!("{}\nserver events: {events:#?}", run.describe());
    let peer = events.first().map(peer_of);
    assert!(events.iter().all(|e| Some(peer_of(e)) == peer), "{}", why());
    assert!(
        !run.timed_out && run.status == Some(0),
        "client failed\n{}",
        why()
    );
    assert!(run.lines_with_prefix("FAIL").is_empty(), "{}", why());
    assert_eq!(run.lines_with_prefix("DONE").len(), 1, "{}", why());
    assert!(run.script_errors().is_empty(), "{}", why());
    let cfg = Config::new(dialect);
    let dialect_name = server::dialect_name(dialect);

    // The server: one connection in the client's dialect, closed cleanly.
    match events.first() {
        Some(Event::Connected { dialect: d, .. }) => assert_eq!(*d, dialect, "{}", why()),
        other => panic!("first event {other:?}\n{}", why()),
    }
    match events.last() {
        Some(Event::Disconnected { error, .. }) => assert_eq!(*error, None, "{}", why()),
        other => panic!("last event {other:?}\n{}", why()),
    }

    // Client -> server: what the server decoded, and every message's bytes as they arrived
    // against what the engine printed for it (put_var's bytes are var_to_bytes(v): one bare
    // packet per message, no length prefix).
    let received: Vec<ClientMsg> = events
        .iter()
        .filter_map(|e| match e {
            Event::Received { msg, .. } => Some(msg.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(received, expected_client_msgs(name, engine), "{}", why());
    let arrived: Vec<&[u8]> = events
        .iter()
        .filter_map(|e| match e {
            Event::Received { bytes, .. } | Event::Rejected { bytes, .. } => Some(&bytes[..]),
            _ => None,
        })
        .collect();
    let sent = outbound(run);
    assert_eq!(sent.len(), 9, "{}", why());
    assert_eq!(arrived.len(), sent.len(), "{}", why());
    for (i, (got, engine_sent)) in arrived.iter().zip(&sent).enumerate() {
        let (Outbound::Var(b) | Outbound::Text(b) | Outbound::Raw(b)) = engine_sent;
        assert_eq!(
            hex::encode(got),
            hex::encode(b),
            "message {i} ({engine_sent:?}) arrived changed\n{}",
            why()
        );
    }
    // The crate encodes each decoded message to the engine's var_to_bytes of it, byte for
    // byte; the first (Hello) is checked field by field too.
    let vars: Vec<&Vec<u8>> = sent
        .iter()
        .filter_map(|o| match o {
            Outbound::Var(b) => Some(b),
            _ => None,
        })
        .collect();
    assert_eq!(vars.len(), 7, "{}", why());
    let decoded_vars: Vec<Vec<u8>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Received { msg, .. } => Some(cfg.to_vec(msg).expect("encode")),
            Event::Rejected { bytes, .. } => cfg
                .from_slice::<Variant>(bytes)
                .ok()
                .map(|v| cfg.to_vec(&v).expect("encode")),
            _ => None,
        })
        .collect();
    assert_eq!(
        decoded_vars
            .iter()
            .map(|b| hex::encode(b))
            .collect::<Vec<_>>(),
        vars.iter().map(|b| hex::encode(b)).collect::<Vec<_>>(),
        "the crate's encoding of what it decoded is not the engine's var_to_bytes\n{}",
        why()
    );
    let hello = cfg.to_vec(&ClientMsg::Hello { name: name.into() }).unwrap();
    let dict_type = match dialect {
        Dialect::Godot3 => 18u32,
        _ => 27u32,
    };
    assert_eq!(
        hello[..4],
        dict_type.to_le_bytes(),
        "a bare Dictionary packet"
    );
    assert_eq!(hex::encode(&hello), hex::encode(vars[0]), "{}", why());
    let hello_var: Variant = cfg.from_slice(vars[0]).unwrap();
    assert_eq!(hello_var.get_type(), VariantType::Dictionary);
    assert_eq!(
        hello_var
            .get("Hello")
            .and_then(|h| h.get("name"))
            .and_then(Variant::as_str),
        Some(name)
    );

    // The three refusals were logged, each with the reason the client was told.
    let rejected: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Rejected { reason, .. } => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(rejected.len(), 3, "{}", why());
    assert!(rejected[0].contains(errors::TEXT_MESSAGE), "{rejected:?}");
    assert!(
        rejected[1].starts_with(errors::NOT_A_VARIANT),
        "{rejected:?}"
    );
    assert!(
        rejected[2].starts_with(errors::NOT_A_MESSAGE),
        "{rejected:?}"
    );
    assert!(rejected[2].contains("Fly"), "{rejected:?}");

    // Server -> client: the server's replies, and what the engine made of each: the same
    // bytes in one message, its var_to_bytes of the decoded value equal to them, and its
    // var_to_str text equal to the crate's text of the expected value.
    let replies: Vec<(&ServerMsg, &Vec<u8>)> = events
        .iter()
        .filter_map(|e| match e {
            Event::Sent { msg, bytes, .. } => Some((msg, bytes)),
            _ => None,
        })
        .collect();
    let expected = expected_replies(id, others, name, engine, dialect_name);
    assert_eq!(
        replies
            .iter()
            .map(|(m, _)| (*m).clone())
            .collect::<Vec<_>>(),
        expected,
        "{}",
        why()
    );
    let got = inbound(run);
    assert_eq!(got.len(), expected.len(), "{}", why());
    for (i, ((msg, bytes), seen)) in replies.iter().zip(&got).enumerate() {
        assert_eq!(
            hex::encode(&seen.message),
            hex::encode(bytes),
            "reply {i} arrived changed\n{}",
            why()
        );
        assert_eq!(
            hex::encode(&seen.reencoded),
            hex::encode(bytes),
            "reply {i}: the engine's var_to_bytes of {msg:?} is not the crate's\n{}",
            why()
        );
        let text = to_variant(*msg)
            .expect("to_variant")
            .to_text(dialect)
            .replace('\n', "\\n");
        assert_eq!(seen.text, text, "reply {i}: {msg:?}\n{}", why());
    }
}

fn godot4_web_socket_peer_talks_to_the_example_server(engine: &Godot4) {
    let server = Running::start();
    let url = format!("ws://{}/godot4", server.addr);
    let run = godot4::run_script_file(
        engine,
        ("client4.gd", CLIENT4_GD),
        &[&url, "ada"],
        ENGINE_TIMEOUT,
    );
    let events = server.events_after_disconnect();
    check_conversation(&run, &events, (1, &[]), Dialect::Godot4, "ada", "Godot 4");
    // The server answered the client's close (1000) with its own.
    assert_eq!(run.line_with_prefix("CLOSED "), "1000");
}

fn godot3_web_socket_client_talks_to_the_example_server(engine: &Godot3) {
    let server = Running::start();
    let url = format!("ws://{}/godot3", server.addr);
    let run = godot3::run_script_file(
        engine,
        ("client3.gd", CLIENT3_GD),
        &[&url, "bob"],
        ENGINE_TIMEOUT,
    );
    let events = server.events_after_disconnect();
    check_conversation(&run, &events, (1, &[]), Dialect::Godot3, "bob", "Godot 3");
}

fn an_unknown_path_is_refused_at_the_handshake(engine: &Godot4) {
    let server = Running::start();
    let url = format!("ws://{}/godot5", server.addr);
    let run = godot4::run_script_file(
        engine,
        ("client4.gd", CLIENT4_GD),
        &[&url, "eve"],
        ENGINE_TIMEOUT,
    );
    assert_eq!(run.status, Some(1), "{}", run.describe());
    assert!(
        run.lines_with_prefix("SENT").is_empty(),
        "{}",
        run.describe()
    );
    assert_eq!(run.lines_with_prefix("FAIL closed before Goodbye").len(), 1);
    let events = server.events_once(|e| matches!(e, Event::HandshakeFailed { .. }));
    assert!(
        matches!(&events[..], [Event::HandshakeFailed { .. }]),
        "{events:#?}"
    );
}

/// A player that is not an engine: a blocking tungstenite client in the Godot 3 dialect.
struct RustPlayer {
    ws: tungstenite::WebSocket<std::net::TcpStream>,
    cfg: Config,
}

impl RustPlayer {
    fn connect(addr: SocketAddr, path: &str, dialect: Dialect) -> RustPlayer {
        let tcp = std::net::TcpStream::connect(addr).expect("connect");
        tcp.set_read_timeout(Some(Duration::from_secs(10)))
            .expect("timeout");
        let (ws, _) =
            tungstenite::client(format!("ws://{addr}{path}"), tcp).expect("WebSocket handshake");
        RustPlayer {
            ws,
            cfg: Config::new(dialect),
        }
    }

    fn send(&mut self, msg: &ClientMsg) {
        let bytes = self.cfg.to_vec(msg).expect("encode");
        self.ws
            .send(tungstenite::Message::Binary(bytes.into()))
            .expect("send");
    }

    /// The next message: one binary message, one packet, decoded in this player's dialect.
    fn recv(&mut self) -> ServerMsg {
        loop {
            match self.ws.read().expect("read") {
                tungstenite::Message::Binary(bytes) => {
                    return self.cfg.from_slice(&bytes).expect("decode")
                }
                tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_) => {}
                other => panic!("unexpected {other:?}"),
            }
        }
    }
}

fn a_godot4_client_and_a_godot3_dialect_player_share_one_server(engine: &Godot4) {
    let server = Running::start();
    // Player 1 speaks Godot 3's encoding; it stays put while the engine plays.
    let mut rusty = RustPlayer::connect(server.addr, "/godot3", Dialect::Godot3);
    rusty.send(&ClientMsg::Hello {
        name: "rusty".into(),
    });
    assert_eq!(
        rusty.recv(),
        ServerMsg::Welcome {
            id: 1,
            dialect: "godot3".into()
        }
    );
    let url = format!("ws://{}/", server.addr);
    let run = godot4::run_script_file(
        engine,
        ("client4.gd", CLIENT4_GD),
        &[&url, "ada"],
        ENGINE_TIMEOUT,
    );
    // The engine's connection: its events, from its Connected to its Disconnected.
    let all = server.events_after_disconnect();
    let engine_peer = all
        .iter()
        .filter_map(|e| match e {
            Event::Connected { peer, .. } => Some(*peer),
            _ => None,
        })
        .nth(1)
        .unwrap_or_else(|| panic!("no second connection: {all:#?}\n{}", run.describe()));
    let events: Vec<Event> = all
        .iter()
        .filter(|e| peer_of(e) == engine_peer)
        .cloned()
        .collect();
    let rusty_state = Player {
        id: 1,
        name: "rusty".into(),
        position: Vector3::new(0.0, 0.0, 0.0),
        facing: Vector2::new(0.0, 1.0),
        color: Color::WHITE,
    };
    // The engine's States hold both players (a Vec of two structs), in Godot 4's encoding.
    check_conversation(
        &run,
        &events,
        (2, &[rusty_state]),
        Dialect::Godot4,
        "ada",
        "Godot 4",
    );
    // The engine's chat reached player 1, re-encoded in Godot 3's dialect.
    assert_eq!(
        rusty.recv(),
        ServerMsg::Chat {
            from: 2,
            name: "ada".into(),
            text: "héllo ✓ from Godot 4".into(),
        }
    );
    rusty.send(&ClientMsg::Bye);
    assert_eq!(rusty.recv(), ServerMsg::Goodbye);
    let _ = rusty.ws.close(None);
}
