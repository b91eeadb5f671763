//! A small multiplayer game server for Godot clients, with tokio and [`VariantCodec`].
//!
//! ```text
//! cargo run --example game_server --features tokio -- 127.0.0.1:4242 [--dialect godot3|godot4]
//! ```
//!
//! Then run one or more clients from `examples/godot_client/` (see its README). Clients
//! connect with `StreamPeerTCP` and exchange Rust types derived with serde, which
//! GDScript sees as Dictionaries, Arrays, Vector2s and Strings:
//!
//! * the client logs in: `put_var({"Login": {"name": "ada", "version": 1}})`
//!   ([`ClientMsg::Login`]), and the server answers
//!   `{"Welcome": {"id": 1, "players": [...]}}` ([`ServerMsg::Welcome`]);
//! * the client sends its state: `{"State": {"position": Vector2(..), "velocity": ..}}`;
//!   ten times a second the server sends everyone a snapshot of all players
//!   (`{"Snapshot": {"tick": 12, "players": [...]}}`);
//! * chat is an enum: `{"Chat": {"Say": "hello"}}`, `{"Chat": {"Whisper": {"to": 2,
//!   "text": "psst"}}}` or `{"Chat": "Wave"}` for a unit variant;
//! * players joining and leaving are announced; bad messages get an `{"Error": "..."}`.
//!
//! Every connection is a task that reads messages with `Framed<TcpStream, VariantCodec>`
//! and forwards what the world broadcasts; the world lives behind a mutex. A client that
//! closes its connection is logged as `disconnected`: at the end of a message (the codec
//! sees the end of the stream where the next message would start), or with a reset (a
//! client that closes with snapshots still unread in its socket makes the system reset
//! the connection). Anything else, such as the stream ending inside a message, is logged
//! as `dropped` with the error.

use futures_util::{SinkExt, StreamExt};
use godot_bin::codec::VariantCodec;
use godot_bin::framing::Framing;
use godot_bin::{Config, Dialect, Vector2};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, mpsc};
use tokio_util::codec::Framed;

/// No client message needs more than this.
const MAX_FRAME_LEN: usize = 16 * 1024;
/// Snapshots per second.
const TICK: Duration = Duration::from_millis(100);
/// The protocol version clients must announce.
const PROTOCOL_VERSION: i32 = 1;
/// Players move at most this many units per second.
const MAX_SPEED: f32 = 400.0;

/// What a client sends.
#[derive(Deserialize, Debug)]
enum ClientMsg {
    /// The first message of every connection.
    Login { name: String, version: i32 },
    /// The player's own position and velocity, sent as often as the client likes.
    State {
        position: Vector2,
        velocity: Vector2,
    },
    /// A chat message.
    Chat(Chat),
}

/// A chat message: GDScript sends `{"Say": "hi"}`, `{"Whisper": {...}}` or `"Wave"`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Chat {
    /// To everyone.
    Say(String),
    /// To one player, by id.
    Whisper { to: i64, text: String },
    /// An emote, sent as a bare string.
    Wave,
    /// Another emote.
    Dance,
}

/// What the server sends.
#[derive(Serialize, Debug, Clone)]
enum ServerMsg {
    /// The answer to a good login: your id and who is already here.
    Welcome { id: i64, players: Vec<PlayerState> },
    /// Somebody logged in.
    Joined { id: i64, name: String },
    /// Somebody left.
    Left { id: i64 },
    /// Everybody's state, ten times a second.
    Snapshot {
        tick: u32,
        players: Vec<PlayerState>,
    },
    /// A chat message from player `from`.
    Chat { from: i64, name: String, chat: Chat },
    /// Something the client did wrong; the connection stays open unless it was the login.
    Error(String),
}

/// One player as others see it.
#[derive(Serialize, Debug, Clone, PartialEq)]
struct PlayerState {
    id: i64,
    name: String,
    position: Vector2,
    velocity: Vector2,
}

/// Who is logged in. Whispers go through each player's own channel.
#[derive(Default)]
struct World {
    next_id: i64,
    players: BTreeMap<i64, (PlayerState, mpsc::UnboundedSender<ServerMsg>)>,
}

type Shared = Arc<Mutex<World>>;

/// Where the server's log lines go: stdout here; the engine tests collect them.
pub type Log = Arc<dyn Fn(String) + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:4242".into());
    let dialect = match (args.next().as_deref(), args.next().as_deref()) {
        (None, _) | (Some("--dialect"), Some("godot4")) => Dialect::Godot4,
        (Some("--dialect"), Some("godot3")) => Dialect::Godot3,
        _ => return Err("usage: game_server ADDRESS [--dialect godot3|godot4]".into()),
    };
    let listener = TcpListener::bind(&addr).await?;
    println!("game server on {} ({dialect})", listener.local_addr()?);
    run(
        listener,
        Config::new(dialect),
        Arc::new(|line| println!("{line}")),
    )
    .await?;
    Ok(())
}

/// Serves clients on `listener` until accepting fails, logging through `log`.
pub async fn run(listener: TcpListener, cfg: Config, log: Log) -> io::Result<()> {
    let world = Shared::default();
    let (snapshots, _) = broadcast::channel::<ServerMsg>(64);
    tokio::spawn(tick(world.clone(), snapshots.clone()));

    loop {
        let (socket, peer) = listener.accept().await?;
        let (world, cfg, snapshots) = (world.clone(), cfg.clone(), snapshots.clone());
        let log = log.clone();
        tokio::spawn(async move {
            log(format!("{peer}: connected"));
            match serve(socket, peer, cfg, world, snapshots, &log).await {
                Ok(()) => log(format!("{peer}: disconnected")),
                Err(e) if closed_by_peer(&e) => log(format!("{peer}: disconnected ({e})")),
                Err(e) => log(format!("{peer}: dropped: {e}")),
            }
        });
    }
}

/// Whether `e` is the client closing its end rather than a fault: the system resets a
/// connection closed with data unread, and a write after the close fails.
fn closed_by_peer(e: &godot_bin::Error) -> bool {
    match e.kind() {
        godot_bin::ErrorKind::Io(e) => matches!(
            e.kind(),
            io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe
        ),
        _ => false,
    }
}

/// Sends everyone a snapshot of all players, `TICK` apart, and announces arrivals and
/// departures through the same broadcast channel.
async fn tick(world: Shared, snapshots: broadcast::Sender<ServerMsg>) {
    let mut interval = tokio::time::interval(TICK);
    let mut tick = 0u32;
    loop {
        interval.tick().await;
        let players = {
            let mut world = world.lock().unwrap();
            let dt = TICK.as_secs_f32();
            for (state, _) in world.players.values_mut() {
                // Dead reckoning between client updates.
                state.position.x += state.velocity.x * dt;
                state.position.y += state.velocity.y * dt;
            }
            world.players.values().map(|(s, _)| s.clone()).collect()
        };
        tick = tick.wrapping_add(1);
        // No receivers (nobody connected) is not an error.
        let _ = snapshots.send(ServerMsg::Snapshot { tick, players });
    }
}

async fn serve(
    socket: TcpStream,
    peer: SocketAddr,
    cfg: Config,
    world: Shared,
    snapshots: broadcast::Sender<ServerMsg>,
    log: &Log,
) -> godot_bin::Result<()> {
    socket.set_nodelay(true)?;
    let framing = Framing::new(cfg).max_frame_len(MAX_FRAME_LEN);
    let mut framed = Framed::new(socket, VariantCodec::<ClientMsg>::new(framing));

    // The first message must be a login.
    let (name, version) = match framed.next().await {
        Some(Ok(ClientMsg::Login { name, version })) => (name, version),
        Some(Ok(other)) => {
            let error = format!("log in first (got {other:?})");
            framed.send(ServerMsg::Error(error)).await?;
            return Ok(());
        }
        Some(Err(e)) => return Err(e),
        None => return Ok(()),
    };
    let name: String = name.trim().chars().take(24).collect();
    if version != PROTOCOL_VERSION || name.is_empty() {
        let error = format!("need protocol version {PROTOCOL_VERSION} and a name");
        framed.send(ServerMsg::Error(error)).await?;
        return Ok(());
    }

    let (tx, mut rx) = mpsc::unbounded_channel();
    let mut snapshots_rx = snapshots.subscribe();
    let (id, others) = {
        let mut world = world.lock().unwrap();
        world.next_id += 1;
        let id = world.next_id;
        let others: Vec<PlayerState> = world.players.values().map(|(s, _)| s.clone()).collect();
        for (_, other) in world.players.values() {
            let _ = other.send(ServerMsg::Joined {
                id,
                name: name.clone(),
            });
        }
        let state = PlayerState {
            id,
            name: name.clone(),
            position: Vector2::new(0.0, 0.0),
            velocity: Vector2::new(0.0, 0.0),
        };
        world.players.insert(id, (state, tx));
        (id, others)
    };
    log(format!("{peer}: {name:?} logged in as player {id}"));
    framed
        .send(ServerMsg::Welcome {
            id,
            players: others,
        })
        .await?;

    let result = play(&mut framed, id, &name, &world, &mut rx, &mut snapshots_rx).await;

    let mut world = world.lock().unwrap();
    world.players.remove(&id);
    for (_, other) in world.players.values() {
        let _ = other.send(ServerMsg::Left { id });
    }
    result
}

/// The logged-in part of a connection: client messages in, world messages out.
async fn play(
    framed: &mut Framed<TcpStream, VariantCodec<ClientMsg>>,
    id: i64,
    name: &str,
    world: &Shared,
    own: &mut mpsc::UnboundedReceiver<ServerMsg>,
    snapshots: &mut broadcast::Receiver<ServerMsg>,
) -> godot_bin::Result<()> {
    loop {
        tokio::select! {
            incoming = framed.next() => {
                let Some(msg) = incoming else { return Ok(()) };
                if let Some(reply) = handle(msg?, id, name, world) {
                    framed.send(reply).await?;
                }
            }
            Some(msg) = own.recv() => framed.send(msg).await?,
            snapshot = snapshots.recv() => match snapshot {
                Ok(msg) => framed.send(msg).await?,
                // A slow client missed some snapshots; newer ones follow.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return Ok(()),
            },
        }
    }
}

/// Applies one client message; returns a reply for the sender, if any.
fn handle(msg: ClientMsg, id: i64, name: &str, world: &Shared) -> Option<ServerMsg> {
    let mut world = world.lock().unwrap();
    match msg {
        ClientMsg::Login { .. } => Some(ServerMsg::Error("already logged in".into())),
        ClientMsg::State { position, velocity } => {
            let finite = [position.x, position.y, velocity.x, velocity.y]
                .iter()
                .all(|c| c.is_finite());
            if !finite {
                return Some(ServerMsg::Error("state must be finite".into()));
            }
            let speed = (velocity.x * velocity.x + velocity.y * velocity.y).sqrt();
            let scale = if speed > MAX_SPEED {
                MAX_SPEED / speed
            } else {
                1.0
            };
            if let Some((state, _)) = world.players.get_mut(&id) {
                state.position = position;
                state.velocity = Vector2::new(velocity.x * scale, velocity.y * scale);
            }
            None
        }
        ClientMsg::Chat(chat) => {
            let chat = match chat {
                Chat::Say(text) => Chat::Say(text.chars().take(200).collect()),
                Chat::Whisper { to, text } => Chat::Whisper {
                    to,
                    text: text.chars().take(200).collect(),
                },
                emote => emote,
            };
            let msg = ServerMsg::Chat {
                from: id,
                name: name.to_string(),
                chat: chat.clone(),
            };
            match &chat {
                Chat::Whisper { to, .. } => match world.players.get(to) {
                    Some((_, tx)) => {
                        if *to != id {
                            let _ = tx.send(msg.clone());
                        }
                        Some(msg) // the sender sees its own whisper
                    }
                    None => Some(ServerMsg::Error(format!("no player {to}"))),
                },
                _ => {
                    for (_, tx) in world.players.values() {
                        let _ = tx.send(msg.clone());
                    }
                    None
                }
            }
        }
    }
}
