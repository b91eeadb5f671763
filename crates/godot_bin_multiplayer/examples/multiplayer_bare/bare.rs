//! The bare transport's code (see `main.rs`); built only with `--cfg godot_bin_internals`.

// The same transport code as `net::Host`'s: the ENet socket and hosts (held datagrams,
// merged per peer at the flush; peer slots in small hosts, serviced only where a datagram
// came), the WebSocket connections (the upgrade, the framing, one read and one write buffer
// per connection) and the readiness queue.
use godot_bin_multiplayer::internals::{ready, shards, udp, wslink};
use ready::Ready;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use wslink::{Link, Turn};

fn usage() -> ! {
    eprintln!(
        "usage: multiplayer_bare (--ws PORT | --enet PORT) [--bind IP] [--ws-mode reactor|tasks] [--enet-peers N] [--batch-window-us N]"
    );
    std::process::exit(2);
}

pub fn main() -> io::Result<()> {
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
/// left nothing to do is followed by the window on the timer, the sockets unread, as
/// `net::Host`'s is.
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
    let mut gather = Box::pin(tokio::time::sleep(Duration::ZERO));
    let mut gathering = false;
    std::future::poll_fn(|cx| {
        if gathering {
            if gather.as_mut().poll(cx).is_pending() {
                return Poll::Pending;
            }
            gathering = false;
        }
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
        if done && !window.is_zero() {
            gather.as_mut().reset(tokio::time::Instant::now() + window);
            gathering = true;
            if gather.as_mut().poll(cx).is_ready() {
                gathering = false;
                cx.waker().wake_by_ref();
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
        let idle = std::future::poll_fn(|cx| {
            if socket.poll_recv_ready(cx).is_ready() || sleep.as_mut().poll(cx).is_ready() {
                Poll::Ready(false)
            } else {
                Poll::Ready(true)
            }
        })
        .await;
        // As `net::Host`: only when no datagram is left and no timer is due (a turn reads
        // at most `READ_PER_TURN`, so one may leave some), the window on the timer, then
        // the wait for a datagram or the timers.
        if idle {
            if !window.is_zero() {
                let end = (tokio::time::Instant::now() + window).min(timers);
                tokio::time::sleep_until(end).await;
            }
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
}
