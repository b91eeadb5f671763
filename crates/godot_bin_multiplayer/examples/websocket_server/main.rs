//! A WebSocket game server for Godot clients exported to the web (or not): Godot 4's
//! `WebSocketPeer` and Godot 3's `WebSocketClient`, on tokio-tungstenite.
//!
//! ```text
//! cargo run -p godot_bin_multiplayer --example websocket_server -- 127.0.0.1:9080
//! ```
//!
//! # Framing: one bare packet per binary message
//!
//! A WebSocket peer is a `PacketPeer`: in both engines `put_var(v)` sends
//! `var_to_bytes(v)` (`var2bytes` in Godot 3) as **one binary message, with no length
//! prefix**, and `get_var()` reads one message as one value. (A `StreamPeerTCP` would add a
//! 4-byte length before each packet; see `godot_bin::framing`.) So this server decodes
//! each binary message with `Config::from_slice` and sends each reply with
//! `Config::to_vec`, one message each. Godot 3's peer must be in binary write mode
//! (`get_peer(1).set_write_mode(WebSocketPeer.WRITE_MODE_BINARY)`); a text message gets
//! an `Error` reply and a line in the log, as does a packet that does not decode; the
//! connection goes on.
//!
//! # Dialect: the request path
//!
//! Godot 3 and Godot 4 encode some values differently, so the server must know which
//! engine a client runs. It reads it from the URL the client connects to:
//! `ws://127.0.0.1:9080/godot3` for Godot 3, `ws://127.0.0.1:9080/` (or `/godot4`) for
//! Godot 4. Both kinds of client can play on one server at once.
//!
//! # Protocol
//!
//! Derived serde types (`server.rs`), which GDScript sees as Dictionaries:
//!
//! * the client says `{"Hello": {"name": "ada"}}`, the server answers
//!   `{"Welcome": {"id": 1, "dialect": "godot4"}}`;
//! * `{"Move": {"to": Vector3(3, 0, 4)}}` and `{"Paint": {"color": Color(1, 0.5, 0.25)}}`
//!   get `{"State": {"tick": 2, "players": [{"id": 1, "name": "ada", "position":
//!   Vector3(3, 0, 4), "facing": Vector2(0.6, 0.8), "color": Color(...)}]}}`;
//! * `{"Say": "hi"}` goes to everyone as `{"Chat": {"from": 1, "name": "ada", "text": "hi"}}`;
//! * `"Bye"` gets `"Goodbye"`, and the client closes.
//!
//! Clients: `examples/websocket_client/client4.gd` (Godot 4) and `client3.gd` (Godot 3),
//! see the README there.

mod server;

use std::process::ExitCode;
use std::sync::Arc;
use tokio::net::TcpListener;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:9080".into());
    if addr.starts_with('-') || args.next().is_some() {
        eprintln!("usage: websocket_server [ADDRESS]  (default 127.0.0.1:9080)");
        return ExitCode::from(2);
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let listener = match TcpListener::bind(&addr).await {
            Ok(listener) => listener,
            Err(e) => {
                eprintln!("cannot listen on {addr}: {e}");
                return ExitCode::FAILURE;
            }
        };
        match listener.local_addr() {
            Ok(local) => println!("listening on ws://{local}/ (Godot 4) and ws://{local}/godot3"),
            Err(_) => println!("listening on {addr}"),
        }
        // Refusals and errors on stderr, the rest on stdout.
        let log: server::Log = Arc::new(|event| match event {
            server::Event::Rejected { .. }
            | server::Event::HandshakeFailed { .. }
            | server::Event::Disconnected { error: Some(_), .. } => eprintln!("{event}"),
            _ => println!("{event}"),
        });
        server::run(listener, log).await;
        ExitCode::SUCCESS
    })
}
