//! WebSocket links on tokio-tungstenite, as `WebSocketMultiplayerPeer` expects them: the
//! server answers the upgrade with a single-token `Connection: Upgrade`, no subprotocol and
//! no extension, then sends the client's id as one 4-byte binary message; every packet is
//! one binary message.

use super::random_id;
use crate::multiplayer::error::{Error, Result};
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::WebSocketStream;

/// The engine's `handshake_timeout`: TCP accept to open socket (and id) within 3 s.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);

/// What a connection task tells the host.
pub(crate) enum Inbound {
    Connected { id: i32, tx: mpsc::Sender<WsOut> },
    Packet { id: i32, data: Bytes },
    Closed { id: i32 },
}

/// What the host asks of a connection task.
pub(crate) enum WsOut {
    Data(Bytes),
    /// Close with code 1000, as `disconnect_peer` does.
    Close,
}

pub(crate) fn config(max_message: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
}

/// Accepts connections until the host goes away.
pub(crate) fn spawn_listener(
    listener: TcpListener,
    inbound: mpsc::Sender<Inbound>,
    max_message: usize,
    queue: usize,
) {
    tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                continue;
            };
            if inbound.is_closed() {
                return;
            }
            let _ = tcp.set_nodelay(true);
            tokio::spawn(connection(tcp, inbound.clone(), max_message, queue));
        }
    });
}

async fn connection(
    tcp: TcpStream,
    inbound: mpsc::Sender<Inbound>,
    max_message: usize,
    queue: usize,
) {
    let accept = tokio_tungstenite::accept_async_with_config(tcp, Some(config(max_message)));
    let Ok(Ok(ws)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, accept).await else {
        return;
    };
    let id = random_id();
    let (mut sink, mut stream) = ws.split();
    let hello = Message::Binary(Bytes::copy_from_slice(&id.to_le_bytes()));
    if sink.send(hello).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::channel(queue);
    if inbound.send(Inbound::Connected { id, tx }).await.is_err() {
        return;
    }
    let writer = async {
        while let Some(out) = rx.recv().await {
            let mut out = out;
            loop {
                match out {
                    WsOut::Data(b) => {
                        if sink.feed(Message::Binary(b)).await.is_err() {
                            return;
                        }
                    }
                    WsOut::Close => {
                        let frame = CloseFrame {
                            code: CloseCode::Normal,
                            reason: "".into(),
                        };
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        return;
                    }
                }
                match rx.try_recv() {
                    Ok(next) => out = next,
                    Err(_) => break,
                }
            }
            if sink.flush().await.is_err() {
                return;
            }
        }
    };
    let inbound2 = inbound.clone();
    let reader = async {
        while let Some(msg) = stream.next().await {
            let data = match msg {
                Ok(Message::Binary(b)) => b,
                // The engine takes text frames as packets too.
                Ok(Message::Text(t)) => Bytes::from(t),
                Ok(Message::Close(_)) | Err(_) => return,
                Ok(_) => continue,
            };
            if data.is_empty() {
                continue;
            }
            if inbound2.send(Inbound::Packet { id, data }).await.is_err() {
                return;
            }
        }
    };
    tokio::select! {
        _ = writer => {}
        _ = reader => {}
    }
    let _ = inbound.send(Inbound::Closed { id }).await;
}

/// Connects to a Godot WebSocket server at `url` (`ws://host:port/path`) and waits for the
/// id message. Returns the socket and our id.
pub(crate) async fn connect(
    url: &str,
    max_message: usize,
) -> Result<(WebSocketStream<TcpStream>, i32)> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or(Error::Transport("only ws:// URLs are supported".into()))?;
    let authority = rest.split('/').next().unwrap_or(rest);
    let connect = async {
        let tcp = TcpStream::connect(authority).await?;
        let _ = tcp.set_nodelay(true);
        let (mut ws, _) =
            tokio_tungstenite::client_async_with_config(url, tcp, Some(config(max_message)))
                .await
                .map_err(|e| Error::Transport(e.to_string()))?;
        loop {
            match ws.next().await {
                Some(Ok(Message::Binary(b))) if b.len() == 4 => {
                    let id = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    if id < 2 {
                        return Err(Error::Transport("invalid id from server".into()));
                    }
                    return Ok((ws, id));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Err(e)) => return Err(Error::Transport(e.to_string())),
                _ => return Err(Error::Transport("invalid id from server".into())),
            }
        }
    };
    tokio::time::timeout(HANDSHAKE_TIMEOUT, connect)
        .await
        .map_err(|_| Error::Transport("handshake timed out".into()))?
}
