//! The bare transport: an echo server of SceneMultiplayer's packets on the same transport
//! libraries as `net::Host` (tokio-tungstenite, rusty_enet), with no session in between.
//! It is the limit the load run holds the SceneMultiplayer server to
//! (`benches/multiplayer_load.sh`): whatever the Rust server spends per call beyond this
//! is SceneMultiplayer's.
//!
//! ```sh
//! cargo run --release --example multiplayer_bare --features multiplayer -- --ws 9080
//! cargo run --release --example multiplayer_bare --features multiplayer -- --enet 9081
//! ```
//!
//! It speaks just enough of each transport for `net::Peer` bots (and Godot clients) to
//! connect: the WebSocket id message, the ENet connect. Every packet a peer sends comes
//! back to it unchanged (an echoed SIMPLIFY_PATH names the bot's own node, and its echoed
//! CONFIRM_PATH confirms the bot's own cache id, so a bot's `echo(i)` call comes back as a
//! call of `echo(i)` on it, in the same form and size as the SceneMultiplayer server's
//! answer).
//!
//! Flags: `--ws PORT` or `--enet PORT`; `--bind IP` (default 127.0.0.1); `--ws-mode
//! reactor|tasks` (default reactor: one task polls every connection through per-connection
//! wakers; tasks: one tokio task per connection); `--enet-peers N` (ENet peer slots,
//! default 4095 as the engine's server and `net::Host`).

#[path = "../../src/multiplayer/net/ready.rs"]
#[allow(dead_code)]
mod ready;
// The same ENet socket and hosts as `net::Host`'s (held datagrams, merged per peer at the
// flush; peer slots in small hosts, serviced only where a datagram came).
#[path = "../../src/multiplayer/net/shards.rs"]
#[allow(dead_code)]
mod shards;
#[path = "../../src/multiplayer/net/udp.rs"]
#[allow(dead_code)]
mod udp;

use futures_util::{Sink, SinkExt, Stream, StreamExt};
use ready::Ready;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};
use tokio_tungstenite::WebSocketStream;

fn usage() -> ! {
    eprintln!(
        "usage: multiplayer_bare (--ws PORT | --enet PORT) [--bind IP] [--ws-mode reactor|tasks] [--enet-peers N]"
    );
    std::process::exit(2);
}

fn main() -> io::Result<()> {
    let (mut ws, mut enet, mut reactor, mut peers) = (None, None, true, 4095usize);
    let mut bind = IpAddr::from([127, 0, 0, 1]);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(v) = args.next() else { usage() };
        match flag.as_str() {
            "--ws" => ws = Some(v.parse::<u16>().unwrap_or_else(|_| usage())),
            "--enet" => enet = Some(v.parse::<u16>().unwrap_or_else(|_| usage())),
            "--bind" => bind = v.parse().unwrap_or_else(|_| usage()),
            "--ws-mode" => reactor = v == "reactor",
            "--enet-peers" => peers = v.parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
    }
    // One thread, as the SceneMultiplayer server of the load run.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        match (ws, enet) {
            (Some(p), None) => {
                let listener = TcpListener::bind(SocketAddr::new(bind, p)).await?;
                println!("listening websocket {}", listener.local_addr()?);
                if reactor {
                    ws_reactor(listener).await
                } else {
                    ws_tasks(listener).await
                }
            }
            (None, Some(p)) => enet_echo(SocketAddr::new(bind, p), peers).await,
            _ => usage(),
        }
    })
}

/// The WebSocket upgrade and the 4-byte id message a Godot client waits for.
async fn handshake(tcp: TcpStream, id: i32) -> Option<WebSocketStream<TcpStream>> {
    let _ = tcp.set_nodelay(true);
    // The read buffer `net::Host` uses: tungstenite zero-fills its free capacity before
    // every read, and the default 128 KiB costs more than a small packet's read.
    // The read buffer of `net::Host`'s connections (`READ_BUFFER` in net/ws.rs).
    let config = WebSocketConfig::default().read_buffer_size(1536);
    let accept = tokio_tungstenite::accept_async_with_config(tcp, Some(config));
    let mut ws = tokio::time::timeout(Duration::from_secs(3), accept)
        .await
        .ok()?
        .ok()?;
    let hello = Message::Binary(Bytes::copy_from_slice(&id.to_le_bytes()));
    ws.send(hello).await.ok()?;
    Some(ws)
}

/// One task per connection: read a message, write it back, flush when nothing more is
/// ready to read.
async fn ws_tasks(listener: TcpListener) -> io::Result<()> {
    let mut next_id = 2;
    loop {
        let (tcp, _) = listener.accept().await?;
        next_id += 1;
        let id = next_id;
        tokio::spawn(async move {
            let Some(mut ws) = handshake(tcp, id).await else {
                return;
            };
            while let Some(Ok(m)) = ws.next().await {
                if !matches!(m, Message::Binary(_)) || ws.feed(m).await.is_err() {
                    continue;
                }
                if ws.flush().await.is_err() {
                    return;
                }
            }
        });
    }
}

/// One task for every connection: the listener's task hands each upgraded socket over;
/// this task polls only the sockets whose wakers fired, reads every message each has,
/// queues the echoes and flushes each socket once per poll.
async fn ws_reactor(listener: TcpListener) -> io::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut next_id = 2;
        while let Ok((tcp, _)) = listener.accept().await {
            next_id += 1;
            let (tx, id) = (tx.clone(), next_id);
            tokio::spawn(async move {
                if let Some(ws) = handshake(tcp, id).await {
                    let _ = tx.send(ws);
                }
            });
        }
    });
    let mut conns: Vec<Option<WebSocketStream<TcpStream>>> = Vec::new();
    let mut free: Vec<usize> = Vec::new();
    let mut ready = Ready::default();
    let mut woken = Vec::new();
    std::future::poll_fn(|cx| {
        while let Poll::Ready(Some(ws)) = rx.poll_recv(cx) {
            let slot = free.pop().unwrap_or_else(|| {
                conns.push(None);
                conns.len() - 1
            });
            conns[slot] = Some(ws);
            ready.wake(slot);
        }
        ready.take(&mut woken, cx.waker());
        for &slot in &woken {
            let Some(ws) = conns[slot].as_mut() else {
                continue;
            };
            let mut scx = Context::from_waker(ready.waker(slot));
            let mut fed = false;
            let mut gone = false;
            loop {
                match Pin::new(&mut *ws).poll_next(&mut scx) {
                    Poll::Ready(Some(Ok(m @ Message::Binary(_)))) => {
                        if Pin::new(&mut *ws).start_send(m).is_err() {
                            gone = true;
                            break;
                        }
                        fed = true;
                    }
                    Poll::Ready(Some(Ok(_))) => {}
                    Poll::Ready(Some(Err(_)) | None) => {
                        gone = true;
                        break;
                    }
                    Poll::Pending => break,
                }
            }
            // A flush that cannot finish now wakes this slot again when it can.
            if !gone && fed {
                if let Poll::Ready(Err(_)) = Pin::new(&mut *ws).poll_flush(&mut scx) {
                    gone = true;
                }
            }
            if gone {
                conns[slot] = None;
                ready.remove(slot);
                free.push(slot);
            }
        }
        Poll::<io::Result<()>>::Pending
    })
    .await
}

/// ENet: each received packet goes back on its channel (the same `Packet`, so the same
/// mode and no copy). As `net::Host` does it: one turn of the hosts (`Shards::run`: the
/// hosts a datagram came for, every 5 ms every host for ENet's timers), one `flush` per host
/// that echoed, and the loop waits for a datagram or the next 5 ms.
async fn enet_echo(addr: SocketAddr, peers: usize) -> io::Result<()> {
    let socket = Arc::new(udp::bind_server(addr)?);
    println!("listening enet {}", socket.local_addr()?);
    let max_packet = rusty_enet::consts::HOST_DEFAULT_MAXIMUM_PACKET_SIZE as usize;
    let mut shards = shards::Shards::new(socket.clone(), peers, 255, max_packet)?;
    // Whether it echoed anything (on that peer's host).
    fn echo(event: rusty_enet::Event<'_, udp::Udp>) -> bool {
        if let rusty_enet::Event::Receive {
            peer,
            channel_id,
            packet,
        } = event
        {
            let _ = peer.send(channel_id, &packet);
            return true;
        }
        false
    }
    let every = Duration::from_millis(5);
    let mut timers = tokio::time::Instant::now() + every;
    let mut sleep = Box::pin(tokio::time::sleep(Duration::ZERO));
    loop {
        let now = tokio::time::Instant::now();
        let all = now >= timers;
        if all {
            // From now, as `net::Host` does: a late turn does not bring a run of them.
            timers = now + every;
        }
        shards.run(all, |_, event| echo(event))?;
        // The echoes, with what `service` held (acknowledgements), merged per peer.
        shards.flush();
        shards.tidy(std::time::Instant::now());
        sleep.as_mut().reset(timers);
        std::future::poll_fn(|cx| {
            if socket.poll_recv_ready(cx).is_ready() || sleep.as_mut().poll(cx).is_ready() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    }
}
