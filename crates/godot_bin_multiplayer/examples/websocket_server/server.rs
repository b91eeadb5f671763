//! The server of `examples/websocket_server`: its protocol (derived serde types) and its
//! connection loop, apart from `main.rs` so that the engine tests (`tests/engine/websocket.rs`)
//! run exactly this code against real Godot clients.
//!
//! # Framing
//!
//! A Godot WebSocket peer's `put_var(v)` sends `var_to_bytes(v)` as one binary message: the
//! bare Variant packet, with no length prefix (WebSocket messages delimit themselves, as UDP
//! datagrams and ENet packets do). `get_var()` on the engine side reads one message as one
//! value. So the server decodes each binary message with [`Config::from_slice`] and sends
//! each reply as one binary message made by [`Config::to_vec`]: no `godot_bin::framing`
//! here (that is for `StreamPeer` / `FileAccess`, which add a 4-byte length).
//!
//! # Dialect
//!
//! The request path picks the dialect of a connection: `ws://HOST:PORT/godot3` for a
//! Godot 3 client, `/` or `/godot4` for Godot 4; any other path is refused with 404 during
//! the handshake. One server serves both engines at once.

use futures_util::{SinkExt, StreamExt};
use godot_bin::{Color, Config, Dialect, Variant, Vector2, Vector3};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::StatusCode;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};

/// The largest message a client may send; larger ones close the connection (the
/// WebSocket layer refuses them before they are buffered whole).
pub const MAX_MESSAGE_LEN: usize = 64 * 1024;

/// The longest player name kept (in characters).
const MAX_NAME_CHARS: usize = 24;

/// The longest chat line kept (in characters).
const MAX_SAY_CHARS: usize = 200;

/// What a client sends, one value per binary message. Serde's enum form: a variant with
/// fields is a one-entry Dictionary, `{"Move": {"to": Vector3(3, 0, 4)}}`, a newtype
/// variant `{"Say": "hi"}`, a unit variant the bare String `"Bye"`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum ClientMsg {
    /// The first message of a connection: who is playing.
    Hello {
        /// The player's name (trimmed, at most 24 characters kept).
        name: String,
    },
    /// Walk to a point; the server answers with the new [`State`].
    Move {
        /// Where the player now stands.
        to: Vector3,
    },
    /// Change the player's color; the server answers with the new [`State`].
    Paint {
        /// The new color.
        color: Color,
    },
    /// A chat line for everyone.
    Say(String),
    /// The client is leaving; the server answers [`ServerMsg::Goodbye`] and the client
    /// closes the connection.
    Bye,
}

/// What the server sends, one value per binary message.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub enum ServerMsg {
    /// The answer to `Hello`: the player's id and the dialect the server speaks to it.
    Welcome {
        /// The player's id, from 1.
        id: i64,
        /// `"godot3"` or `"godot4"`.
        dialect: String,
    },
    /// Everybody's state, after every `Move` and `Paint`.
    State(State),
    /// A chat line, to everyone (the sender too).
    Chat {
        /// The id of the player who said it.
        from: i64,
        /// Their name.
        name: String,
        /// What they said.
        text: String,
    },
    /// Something the client sent that the server could not take; the connection stays
    /// open. The details are in the server's log.
    Error(String),
    /// The answer to `Bye`.
    Goodbye,
}

/// The world as every client sees it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct State {
    /// Counts the states the server has made, from 1.
    pub tick: i64,
    /// Every player, by id.
    pub players: Vec<Player>,
}

/// One player.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Player {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// Where it stands.
    pub position: Vector3,
    /// The direction of its last move on the ground (x, z), of length 1; `(0, 1)` at first.
    pub facing: Vector2,
    /// Its color; white at first.
    pub color: Color,
}

/// The error texts of [`ServerMsg::Error`].
pub mod errors {
    /// A text message: Variants come in binary messages only.
    pub const TEXT_MESSAGE: &str = "binary messages only";
    /// A binary message that is not a Variant packet.
    pub const NOT_A_VARIANT: &str = "not a Variant packet";
    /// A Variant that is not a [`ClientMsg`](super::ClientMsg).
    pub const NOT_A_MESSAGE: &str = "not a message this server knows";
    /// Anything but `Hello` before `Hello`.
    pub const HELLO_FIRST: &str = "say Hello first";
    /// A second `Hello`.
    pub const HELLO_TWICE: &str = "already said Hello";
    /// A `Hello` with an empty name.
    pub const NO_NAME: &str = "a name is needed";
    /// A `Move` or `Paint` with a component that is not finite.
    pub const NOT_FINITE: &str = "values must be finite";
}

/// What happened on the server, for its log (and for the tests).
#[derive(Debug, Clone)]
pub enum Event {
    /// A client finished the handshake.
    Connected {
        /// The client's address.
        peer: SocketAddr,
        /// The dialect its request path picked.
        dialect: Dialect,
    },
    /// A handshake failed (an unknown path, not a WebSocket request...).
    HandshakeFailed {
        /// The client's address.
        peer: SocketAddr,
        /// Why.
        reason: String,
    },
    /// A message was decoded.
    Received {
        /// The client's address.
        peer: SocketAddr,
        /// The message.
        msg: ClientMsg,
        /// The binary message exactly as it arrived: the packet `put_var` sent.
        bytes: Vec<u8>,
    },
    /// A message was sent.
    Sent {
        /// The client's address.
        peer: SocketAddr,
        /// The message.
        msg: ServerMsg,
        /// The binary message, as `Config::to_vec` made it.
        bytes: Vec<u8>,
    },
    /// A message was refused (a text message, a packet that does not decode); the client
    /// got a [`ServerMsg::Error`] and the connection goes on.
    Rejected {
        /// The client's address.
        peer: SocketAddr,
        /// The message as it arrived (a text message's UTF-8).
        bytes: Vec<u8>,
        /// Why, in full (the decoder's error with its byte offset).
        reason: String,
    },
    /// The connection ended.
    Disconnected {
        /// The client's address.
        peer: SocketAddr,
        /// `None` for a clean close, else the error that ended it.
        error: Option<String>,
    },
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Connected { peer, dialect } => write!(f, "{peer}: connected ({dialect})"),
            Event::HandshakeFailed { peer, reason } => {
                write!(f, "{peer}: handshake failed: {reason}")
            }
            Event::Received { peer, msg, bytes } => {
                write!(f, "{peer}: got {msg:?} ({} bytes)", bytes.len())
            }
            Event::Sent { peer, msg, bytes } => {
                write!(f, "{peer}: sent {msg:?} ({} bytes)", bytes.len())
            }
            Event::Rejected {
                peer,
                bytes,
                reason,
            } => write!(f, "{peer}: error: {reason} ({} bytes)", bytes.len()),
            Event::Disconnected { peer, error: None } => write!(f, "{peer}: disconnected"),
            Event::Disconnected {
                peer,
                error: Some(e),
            } => write!(f, "{peer}: dropped: {e}"),
        }
    }
}

/// Receives every [`Event`]; `main.rs` prints them, the tests collect them.
pub type Log = Arc<dyn Fn(Event) + Send + Sync>;

/// Everybody connected, and each one's channel for messages from others (chat).
#[derive(Default)]
struct World {
    next_id: i64,
    tick: i64,
    players: BTreeMap<i64, (Player, mpsc::UnboundedSender<ServerMsg>)>,
}

impl World {
    fn state(&mut self) -> State {
        self.tick += 1;
        State {
            tick: self.tick,
            players: self.players.values().map(|(p, _)| p.clone()).collect(),
        }
    }
}

type Shared = Arc<Mutex<World>>;

/// Accepts clients on `listener` for ever, each in its own task; every event goes to `log`.
pub async fn run(listener: TcpListener, log: Log) {
    let world = Shared::default();
    loop {
        let (tcp, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors and the like: the listener itself is fine.
                eprintln!("accept failed: {e}");
                continue;
            }
        };
        let (world, log) = (world.clone(), log.clone());
        tokio::spawn(async move {
            let _ = tcp.set_nodelay(true);
            connection(tcp, peer, world, log).await;
        });
    }
}

/// The dialect the request path asks for, or `None` for an unknown path.
fn dialect_of_path(path: &str) -> Option<Dialect> {
    match path {
        "/" | "" | "/godot4" => Some(Dialect::Godot4),
        "/godot3" => Some(Dialect::Godot3),
        _ => None,
    }
}

/// The name a dialect goes by in [`ServerMsg::Welcome`].
pub fn dialect_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Godot3 => "godot3",
        _ => "godot4",
    }
}

/// One connection: the handshake, then messages until the client closes.
async fn connection(tcp: TcpStream, peer: SocketAddr, world: Shared, log: Log) {
    let mut dialect = None;
    // tungstenite's handshake callback: its Err type is tungstenite's, not ours to shrink.
    #[allow(clippy::result_large_err)]
    let pick = |req: &Request, res: Response| -> Result<Response, ErrorResponse> {
        dialect = dialect_of_path(req.uri().path());
        if dialect.is_some() {
            return Ok(res);
        }
        let mut refusal = ErrorResponse::new(Some("use /godot3 or /godot4".into()));
        *refusal.status_mut() = StatusCode::NOT_FOUND;
        Err(refusal)
    };
    let ws_config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE_LEN))
        .max_frame_size(Some(MAX_MESSAGE_LEN));
    let mut ws =
        match tokio_tungstenite::accept_hdr_async_with_config(tcp, pick, Some(ws_config)).await {
            Ok(ws) => ws,
            Err(e) => {
                let reason = e.to_string();
                log(Event::HandshakeFailed { peer, reason });
                return;
            }
        };
    let dialect = dialect.unwrap_or(Dialect::Godot4);
    log(Event::Connected { peer, dialect });
    // No message needs more: a hostile packet cannot make the decoder read further.
    let cfg = Config::new(dialect).max_size(MAX_MESSAGE_LEN);
    let mut conn = Conn {
        peer,
        dialect,
        cfg,
        id: None,
        world,
        log: log.clone(),
    };
    let (tx, mut from_others) = mpsc::unbounded_channel();

    let error = loop {
        let outgoing: Vec<ServerMsg> = tokio::select! {
            incoming = ws.next() => match incoming {
                // The client's close: reading on sends tungstenite's reply, then ends.
                Some(Ok(Message::Close(_))) => Vec::new(),
                None => break None,
                Some(Err(e)) => break Some(e.to_string()),
                Some(Ok(Message::Binary(bytes))) => conn.binary(&bytes, &tx),
                Some(Ok(Message::Text(text))) => {
                    let reason = format!("a text message: {}", errors::TEXT_MESSAGE);
                    conn.reject(text.as_bytes(), reason, errors::TEXT_MESSAGE)
                }
                // Pings are answered by tungstenite; pongs and raw frames mean nothing here.
                Some(Ok(_)) => Vec::new(),
            },
            Some(msg) = from_others.recv() => vec![msg],
        };
        let mut failed = None;
        for msg in outgoing {
            if let Err(e) = conn.send(&mut ws, msg).await {
                failed = Some(e);
                break;
            }
        }
        if let Some(e) = failed {
            break Some(e);
        }
    };
    if let Some(id) = conn.id {
        conn.world.lock().unwrap().players.remove(&id);
    }
    log(Event::Disconnected { peer, error });
}

/// One client's side of the world.
struct Conn {
    peer: SocketAddr,
    dialect: Dialect,
    cfg: Config,
    /// Set by `Hello`.
    id: Option<i64>,
    world: Shared,
    log: Log,
}

impl Conn {
    /// Encodes `msg` as one binary message and sends it.
    async fn send<S>(&self, ws: &mut S, msg: ServerMsg) -> Result<(), String>
    where
        S: futures_util::Sink<Message> + Unpin,
        S::Error: std::fmt::Display,
    {
        // Every ServerMsg encodes: finite or not, floats are floats, and nothing is nested
        // deeply. An error here would be a bug in this file.
        let bytes = self.cfg.to_vec(&msg).map_err(|e| format!("encode: {e}"))?;
        ws.send(Message::Binary(Bytes::from(bytes.clone())))
            .await
            .map_err(|e| e.to_string())?;
        (self.log)(Event::Sent {
            peer: self.peer,
            msg,
            bytes,
        });
        Ok(())
    }

    /// Logs a refused message; the client gets `Error(answer)`.
    fn reject(&self, bytes: &[u8], reason: String, answer: &str) -> Vec<ServerMsg> {
        (self.log)(Event::Rejected {
            peer: self.peer,
            bytes: bytes.to_vec(),
            reason,
        });
        vec![ServerMsg::Error(answer.into())]
    }

    /// One binary message: one packet, decoded whole (trailing bytes are an error).
    fn binary(&mut self, bytes: &[u8], tx: &mpsc::UnboundedSender<ServerMsg>) -> Vec<ServerMsg> {
        let msg: ClientMsg = match self.cfg.from_slice(bytes) {
            Ok(msg) => msg,
            Err(e) => {
                // Tell a packet of the wrong shape from one that is no packet at all.
                return match self.cfg.from_slice::<Variant>(bytes) {
                    Ok(v) => {
                        let text = v.to_string().replace('\n', " ");
                        let reason = format!("{}: {text} ({e})", errors::NOT_A_MESSAGE);
                        self.reject(bytes, reason, errors::NOT_A_MESSAGE)
                    }
                    Err(_) => {
                        let reason = format!("{}: {e}", errors::NOT_A_VARIANT);
                        self.reject(bytes, reason, errors::NOT_A_VARIANT)
                    }
                };
            }
        };
        (self.log)(Event::Received {
            peer: self.peer,
            msg: msg.clone(),
            bytes: bytes.to_vec(),
        });
        self.handle(msg, tx)
    }

    /// Applies one message; returns the replies to this client.
    fn handle(&mut self, msg: ClientMsg, tx: &mpsc::UnboundedSender<ServerMsg>) -> Vec<ServerMsg> {
        let error = |text: &str| vec![ServerMsg::Error(text.into())];
        let mut world = self.world.lock().unwrap();
        let Some(id) = self.id else {
            let ClientMsg::Hello { name } = msg else {
                return error(errors::HELLO_FIRST);
            };
            let name: String = name.trim().chars().take(MAX_NAME_CHARS).collect();
            if name.is_empty() {
                return error(errors::NO_NAME);
            }
            world.next_id += 1;
            let id = world.next_id;
            let player = Player {
                id,
                name,
                position: Vector3::new(0.0, 0.0, 0.0),
                facing: Vector2::new(0.0, 1.0),
                color: Color::WHITE,
            };
            world.players.insert(id, (player, tx.clone()));
            self.id = Some(id);
            let dialect = dialect_name(self.dialect).into();
            return vec![ServerMsg::Welcome { id, dialect }];
        };
        let Some((me, _)) = world.players.get_mut(&id) else {
            return Vec::new();
        };
        match msg {
            ClientMsg::Hello { .. } => error(errors::HELLO_TWICE),
            ClientMsg::Move { to } => {
                if ![to.x, to.y, to.z].iter().all(|c| c.is_finite()) {
                    return error(errors::NOT_FINITE);
                }
                let (dx, dz) = (to.x - me.position.x, to.z - me.position.z);
                let len = (dx * dx + dz * dz).sqrt();
                if len > 0.0 {
                    me.facing = Vector2::new(dx / len, dz / len);
                }
                me.position = to;
                vec![ServerMsg::State(world.state())]
            }
            ClientMsg::Paint { color } => {
                if ![color.r, color.g, color.b, color.a]
                    .iter()
                    .all(|c| c.is_finite())
                {
                    return error(errors::NOT_FINITE);
                }
                me.color = color;
                vec![ServerMsg::State(world.state())]
            }
            ClientMsg::Say(text) => {
                let chat = ServerMsg::Chat {
                    from: id,
                    name: me.name.clone(),
                    text: text.chars().take(MAX_SAY_CHARS).collect(),
                };
                for (other, (_, their_tx)) in &world.players {
                    if *other != id {
                        let _ = their_tx.send(chat.clone());
                    }
                }
                // The sender's copy goes straight back, in order with its other replies.
                vec![chat]
            }
            ClientMsg::Bye => vec![ServerMsg::Goodbye],
        }
    }
}
