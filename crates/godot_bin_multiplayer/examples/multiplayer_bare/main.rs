//! The bare transport: an echo server of SceneMultiplayer's packets on the same transport
//! code as `net::Host` (its WebSocket framing, `net/wslink/`, on tokio; rusty_enet), with
//! no session in between.
//! It is the limit the load run holds the SceneMultiplayer server to
//! (`benches/multiplayer_load.sh`): whatever the Rust server spends per call beyond this
//! is SceneMultiplayer's.
//!
//! ```sh
//! cargo run --release -p godot_bin_multiplayer --features internals --example multiplayer_bare -- --ws 9080
//! cargo run --release -p godot_bin_multiplayer --features internals --example multiplayer_bare -- --enet 9081
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
//! default 4095 as the engine's server and `net::Host`); `--batch-window-us N` (as
//! `multiplayer_echo`'s, `HostBuilder::batch_window`: after a turn that left nothing to
//! do, sleep N µs before looking at the sockets again; default 0; reactor and ENet).

// The same transport code as `net::Host`'s: the ENet socket and hosts (held datagrams,
// merged per peer at the flush; peer slots in small hosts, serviced only where a datagram
// came), the WebSocket connections (the upgrade, the framing, one read and one write buffer
// per connection), the readiness queue and the batch window's wait.
use godot_bin_multiplayer::internals::{ready, shards, udp, window, wslink};
use ready::Ready;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use window::gather;
use wslink::{Link, Turn};

fn usage() -> ! {
    eprintln!(
        "usage: multiplayer_bare (--ws PORT | --enet PORT) [--bind IP] [--ws-mode reactor|tasks] [--enet-peers N] [--batch-window-us N]"
    );
    std::process::exit(2);
}

fn main() -> io::Result<()> {
    let (mut ws, mut enet, mut reactor, mut peers) = (None, None, true, 4095usize);
    let mut bind = IpAddr::from([127, 0, 0, 1]);
    let mut window = Duration::ZERO;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(v) = args.next() else { usage() };
        match flag.as_str() {
            "--ws" => ws = Some(v.parse::<u16>().unwrap_or_else(|_| usage())),
            "--enet" => enet = Some(v.parse::<u16>().unwrap_or_else(|_| usage())),
            "--bind" => bind = v.parse().unwrap_or_else(|_| usage()),
            "--ws-mode" => reactor = v == "reactor",
            "--enet-peers" => peers = v.parse().unwrap_or_else(|_| usage()),
            "--batch-window-us" => {
                window = Duration::from_micros(v.parse().unwrap_or_else(|_| usage()))
            }
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
                    ws_reactor(listener, window).await
                } else {
                    ws_tasks(listener).await
                }
            }
            (None, Some(p)) => enet_echo(SocketAddr::new(bind, p), peers, window).await,
            _ => usage(),
        }
    })
}

/// The WebSocket upgrade and the 4-byte id message a Godot client waits for, within the
/// engine's 3 s.
async fn handshake(tcp: TcpStream, id: i32) -> Option<Link> {
    let hello = id.to_le_bytes();
    let accept = wslink::accept(tcp, &hello, 1 << 20);
    tokio::time::timeout(Duration::from_secs(3), accept)
        .await
        .ok()?
        .ok()
}

/// How many frames a connection hands in before the others get their turn (as
/// `net::Host`'s `FRAMES_PER_POLL`).
const FRAMES_PER_POLL: usize = 64;

/// One turn of a connection: read what it has, queue each message back (into the link's
/// write buffer, no copy in between), write the echoes (a write that cannot finish now
/// wakes `cx` when it can). `Turn::More` when it should be polled again after the others,
/// `Turn::Closed` when the connection is over.
fn echo_turn(link: &mut Link, cx: &mut Context<'_>) -> Turn {
    let turn = link.poll_messages(cx, FRAMES_PER_POLL, |m, _, replies| replies.queue(false, m));
    if turn == Turn::Closed {
        return turn;
    }
    match link.poll_flush(cx) {
        Poll::Ready(Err(_)) => Turn::Closed,
        _ => turn,
    }
}

/// One task per connection.
async fn ws_tasks(listener: TcpListener) -> io::Result<()> {
    let mut next_id = 2;
    loop {
        let (tcp, _) = listener.accept().await?;
        next_id += 1;
        let id = next_id;
        tokio::spawn(async move {
            let Some(mut link) = handshake(tcp, id).await else {
                return;
            };
            std::future::poll_fn(|cx| loop {
                match echo_turn(&mut link, cx) {
                    Turn::More => continue,
                    Turn::Drained => return Poll::Pending,
                    Turn::Closed => return Poll::Ready(()),
                }
            })
            .await
        });
    }
}

/// One task for every connection: the listener's task hands each upgraded socket over;
/// this task polls only the sockets whose wakers fired, reads every message each has,
/// queues the echoes and writes each socket once per poll; with a `window`, a poll that
/// left nothing to do ends with `window::gather`, as `net::Host`'s does.
async fn ws_reactor(listener: TcpListener, window: Duration) -> io::Result<()> {
    let (tx, mut rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut next_id = 2;
        while let Ok((tcp, _)) = listener.accept().await {
            next_id += 1;
            let (tx, id) = (tx.clone(), next_id);
            tokio::spawn(async move {
                if let Some(link) = handshake(tcp, id).await {
                    let _ = tx.send(link);
                }
            });
        }
    });
    let mut conns: Vec<Option<Link>> = Vec::new();
    let mut free: Vec<usize> = Vec::new();
    let mut ready = Ready::default();
    let mut woken = Vec::new();
    std::future::poll_fn(|cx| {
        while let Poll::Ready(Some(link)) = rx.poll_recv(cx) {
            let slot = free.pop().unwrap_or_else(|| {
                conns.push(None);
                conns.len() - 1
            });
            conns[slot] = Some(link);
            ready.wake(slot);
        }
        ready.take(&mut woken, cx.waker());
        let (mut reached, mut more) = (0, false);
        for &slot in &woken {
            // As the server does: past the task's budget tokio would refuse the socket.
            if !tokio::task::coop::has_budget_remaining() {
                cx.waker().wake_by_ref();
                break;
            }
            reached += 1;
            let Some(link) = conns[slot].as_mut().filter(|_| ready.polling(slot)) else {
                continue;
            };
            let waker = ready.waker(slot);
            match echo_turn(link, &mut Context::from_waker(waker)) {
                Turn::Drained => {}
                Turn::More => {
                    more = true;
                    waker.wake_by_ref()
                }
                Turn::Closed => {
                    conns[slot] = None;
                    ready.remove(slot);
                    free.push(slot);
                }
            }
        }
        let done = reached == woken.len() && !more;
        woken.drain(..reached);
        if done {
            gather(window, None);
        }
        Poll::<io::Result<()>>::Pending
    })
    .await
}

/// ENet: each received packet goes back on its channel (the same `Packet`, so the same
/// mode and no copy). As `net::Host` does it: one turn of the hosts (`Shards::run`: the
/// hosts a datagram came for, every 5 ms every host for ENet's timers), one `flush` per host
/// that echoed, and the loop waits for a datagram or the next 5 ms.
async fn enet_echo(addr: SocketAddr, peers: usize, window: Duration) -> io::Result<()> {
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
                // As `net::Host`: only when no datagram is left and no timer is due (a
                // turn reads at most `READ_PER_TURN`, so one may leave some).
                gather(window, Some(timers.into_std()));
                Poll::Pending
            }
        })
        .await;
    }
}
