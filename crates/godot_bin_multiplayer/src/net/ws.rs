//! WebSocket links, as `WebSocketMultiplayerPeer` expects them: the server answers the
//! upgrade with a single-token `Connection: Upgrade`, no subprotocol and no extension, then
//! sends the client's id as one 4-byte binary message; every packet is one binary message.
//! The server's connections are framed by [`wslink`](super::wslink); the client
//! ([`connect`]) runs on tokio-tungstenite. What the server refuses, with which close code,
//! and what each client may cost it: the crate's `docs/websocket.md`.

use super::random_id;
use super::ready::Ready;
use super::transport::{ClientTransport, LinkEvent, Sent, ServerTransport, TransportEvent};
use super::wslink::{self, Link, Turn, CLOSE_NORMAL};
use crate::error::{Error, ErrorKind, Result};
use crate::map::Map;
use crate::scene::TransferMode;
use futures_util::stream::FuturesUnordered;
use futures_util::StreamExt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

/// The engine's `handshake_timeout`: TCP accept to open socket (and id) within 3 s.
pub(crate) const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);

/// How long a frame may take from its first byte to its last: a client that begins one and
/// never finishes it (a header trickled, a payload stopped) is closed with 1008 then. A
/// Godot client writes each packet whole; at this limit a packet of the default largest
/// size (1 MiB) needs 35 KB/s.
pub(crate) const FRAME_TIMEOUT: Duration = Duration::from_secs(30);

/// The most bytes a connection's write buffer may hold unwritten before the client is
/// dropped as too slow (or four of the largest packets, where that is more): with the
/// packet count (`HostBuilder::queue_size`), what bounds a client that does not read.
const MAX_UNWRITTEN: usize = 4 << 20;

/// How many frames one connection may hand in per poll before the others get their turn.
const FRAMES_PER_POLL: usize = 64;

/// How many accepted connections may be in their handshake at once; more wait in the
/// listener's backlog. Without a bound, a server short of CPU accepted faster than it
/// could answer handshakes (an accept costs a task a fraction of what a handshake does),
/// and the accepted sockets sat with their upgrade request unread, their timeouts never
/// started (the overload run: the crate's benches/RESULTS.md).
const MAX_HANDSHAKES: usize = 128;

/// How soon a failed `accept` (out of descriptors, say) is tried again.
const ACCEPT_RETRY: Duration = Duration::from_millis(10);

/// The client's tungstenite settings: the server's read buffer size (tungstenite
/// zero-fills its free capacity before every read, so a small one is cheaper), and the
/// largest message taken.
pub(crate) fn config(max_message: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(wslink::READ_BUFFER)
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
}

/// A connection being upgraded: the WebSocket handshake, then the id message.
type Handshake = Pin<Box<dyn Future<Output = Option<(Link, i32)>> + Send>>;

fn handshake(tcp: TcpStream, max_message: usize) -> Handshake {
    // The engine's 3 s run from the accept, not from the future's first poll.
    let deadline = tokio::time::Instant::now() + HANDSHAKE_TIMEOUT;
    Box::pin(async move {
        let id = random_id();
        let hello = id.to_le_bytes();
        let open = wslink::accept(tcp, &hello, max_message);
        let link = tokio::time::timeout_at(deadline, open).await.ok()?.ok()?;
        Some((link, id))
    })
}

struct Conn {
    link: Link,
    id: i32,
    /// Messages queued since the last completed flush.
    unflushed: usize,
    /// In the list of connections to flush.
    dirty: bool,
    /// When the frame now arriving began (its first byte was seen at the end of a poll).
    frame_since: Option<Instant>,
}

/// A WebSocket server driven from the host's own task: the listener, the handshakes in
/// flight and every open connection are polled there, each connection through a waker of
/// its own ([`Ready`]), so a poll touches only the sockets that woke. No task and no
/// channel per connection: a packet goes from the socket to the session and the answer
/// from the session to the socket's write buffer in the same task, and each connection is
/// flushed once for everything one poll produced for it.
pub(crate) struct WsServer {
    listener: TcpListener,
    handshakes: FuturesUnordered<Handshake>,
    conns: Vec<Option<Conn>>,
    free: Vec<usize>,
    by_id: Map<i32, usize>,
    ready: Ready,
    woken: Vec<usize>,
    dirty: Vec<usize>,
    /// Connections a failed write closed, to report at the next poll.
    gone: Vec<i32>,
    max_message: usize,
    queue: usize,
    /// The write buffer's bound in bytes ([`MAX_UNWRITTEN`]).
    max_unwritten: usize,
    /// Connections in the middle of a frame, to close at `frame_timeout`.
    partial: Vec<usize>,
    /// [`FRAME_TIMEOUT`] (shorter in tests).
    frame_timeout: Duration,
    /// An `accept` failed (out of descriptors, say): when the host's timer retries it.
    accept_retry: Option<Instant>,
}

impl WsServer {
    pub(crate) fn new(listener: TcpListener, max_message: usize, queue: usize) -> Self {
        WsServer {
            listener,
            handshakes: FuturesUnordered::new(),
            conns: Vec::new(),
            free: Vec::new(),
            by_id: Map::default(),
            ready: Ready::default(),
            woken: Vec::new(),
            dirty: Vec::new(),
            gone: Vec::new(),
            max_message,
            queue,
            max_unwritten: MAX_UNWRITTEN.max(max_message.saturating_mul(4)),
            partial: Vec::new(),
            frame_timeout: FRAME_TIMEOUT,
            accept_retry: None,
        }
    }

    /// Advances the handshakes in flight; each finished one becomes a connection (if `on`
    /// keeps it). Whether a connection was added.
    fn poll_handshakes(
        &mut self,
        cx: &mut Context<'_>,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> bool {
        let mut any = false;
        while let Poll::Ready(Some(done)) = self.handshakes.poll_next_unpin(cx) {
            let Some((link, id)) = done else { continue };
            // A random id already taken (1 in 2^31 per client): drop the newcomer.
            if self.by_id.contains_key(&id) || !on(TransportEvent::Connected(id)) {
                continue;
            }
            any = true;
            let slot = self.free.pop().unwrap_or_else(|| {
                self.conns.push(None);
                self.conns.len() - 1
            });
            self.conns[slot] = Some(Conn {
                link,
                id,
                unflushed: 0,
                dirty: false,
                frame_since: None,
            });
            self.by_id.insert(id, slot);
            self.ready.wake(slot);
        }
        any
    }

    /// Reads every connection that woke (each through its own waker), reporting its
    /// packets and its end to `on`; a frame begun and not finished starts its clock at
    /// `now`. Whether anything happened.
    fn poll_reads(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> bool {
        let mut any = false;
        // Slots a poll could not reach come first, then those woken since.
        let mut woken = std::mem::take(&mut self.woken);
        self.ready.take(&mut woken, cx.waker());
        let mut reached = 0;
        for &slot in &woken {
            // Past the task's budget tokio would refuse the socket; the rest wait for the
            // next poll (see `Ready::take`).
            if !tokio::task::coop::has_budget_remaining() {
                cx.waker().wake_by_ref();
                break;
            }
            reached += 1;
            if !self.ready.polling(slot) {
                continue;
            }
            let Some(c) = self.conns.get_mut(slot).and_then(Option::as_mut) else {
                continue;
            };
            let waker = self.ready.waker(slot);
            let mut scx = Context::from_waker(waker);
            let mut closed = false;
            // A flush that could not finish: the socket woke because it can take more.
            if c.link.has_unwritten() {
                match c.link.poll_flush(&mut scx) {
                    Poll::Ready(Ok(())) => c.unflushed = 0,
                    Poll::Ready(Err(_)) => closed = true,
                    Poll::Pending => {}
                }
            }
            if !closed {
                let id = c.id;
                // The engine takes text messages as packets too.
                let turn = c
                    .link
                    .poll_messages(&mut scx, FRAMES_PER_POLL, |data, _, _| {
                        if !data.is_empty() {
                            on(TransportEvent::Packet {
                                from: id,
                                channel: 0,
                                mode: TransferMode::Reliable,
                                data,
                            });
                            any = true;
                        }
                    });
                match turn {
                    Turn::Drained => {}
                    // More may be waiting: come back after the others.
                    Turn::More => waker.wake_by_ref(),
                    Turn::Closed => closed = true,
                }
                // Pongs to write.
                if !closed && c.link.has_unwritten() && !c.dirty {
                    c.dirty = true;
                    self.dirty.push(slot);
                }
                // A frame begun and not finished: its clock starts (once).
                match (c.link.in_frame(), c.frame_since) {
                    (true, None) => {
                        c.frame_since = Some(now);
                        self.partial.push(slot);
                    }
                    (false, Some(_)) => c.frame_since = None,
                    _ => {}
                }
            }
            if closed {
                let id = c.id;
                self.remove(slot);
                on(TransportEvent::Disconnected(id));
                any = true;
            }
        }
        woken.drain(..reached);
        self.woken = woken;
        any
    }

    /// Closes (1008) the connections whose frame began `frame_timeout` ago or more, to
    /// report at this poll; forgets the finished ones.
    fn close_stalled(&mut self, now: Instant) {
        let mut partial = std::mem::take(&mut self.partial);
        partial.retain(|&slot| {
            let Some(c) = self.conns.get_mut(slot).and_then(Option::as_mut) else {
                return false;
            };
            match c.frame_since {
                None => false,
                Some(t) if now.duration_since(t) >= self.frame_timeout => {
                    let id = c.id;
                    if let Some(mut c) = self.remove(slot) {
                        c.link.queue_close(wslink::CLOSE_POLICY);
                        let _ = c.link.poll_flush(&mut Context::from_waker(Waker::noop()));
                    }
                    self.gone.push(id);
                    false
                }
                Some(_) => true,
            }
        });
        self.partial = partial;
    }

    /// When the oldest unfinished frame runs out of time.
    fn frame_deadline(&self) -> Option<Instant> {
        self.partial
            .iter()
            .filter_map(|&slot| self.conns.get(slot)?.as_ref()?.frame_since)
            .min()
            .map(|t| t + self.frame_timeout)
    }

    fn remove(&mut self, slot: usize) -> Option<Conn> {
        let c = self.conns.get_mut(slot)?.take()?;
        self.by_id.remove(&c.id);
        self.ready.remove(slot);
        self.free.push(slot);
        Some(c)
    }

    /// Closes client `id`'s connection with code 1000, as `disconnect_peer` does: what
    /// was queued for it and the close frame are written if the socket takes them now.
    pub(crate) fn close(&mut self, id: i32) -> bool {
        let Some(&slot) = self.by_id.get(&id) else {
            return false;
        };
        if let Some(mut c) = self.remove(slot) {
            let mut cx = Context::from_waker(Waker::noop());
            c.link.queue_close(CLOSE_NORMAL);
            let _ = c.link.poll_flush(&mut cx);
            // Read what the client sent meanwhile, so that closing the socket sends a FIN
            // rather than a reset that could discard our last packets at the client.
            for _ in 0..16 {
                if c.link.poll_messages(&mut cx, FRAMES_PER_POLL, |_, _, _| {}) != Turn::More {
                    break;
                }
            }
        }
        true
    }
}

/// Connects to a Godot WebSocket server at `url` (`ws://host:port/path`) and waits for the
/// id message. Returns the socket and our id.
pub(crate) async fn connect(
    url: &str,
    max_message: usize,
) -> Result<(WebSocketStream<TcpStream>, i32)> {
    let rest = url
        .strip_prefix("ws://")
        .ok_or(Error::from(ErrorKind::Transport(
            "only ws:// URLs are supported".into(),
        )))?;
    let authority = rest.split('/').next().unwrap_or(rest);
    let connect = async {
        let tcp = TcpStream::connect(authority).await?;
        let _ = tcp.set_nodelay(true);
        let (mut ws, _) =
            tokio_tungstenite::client_async_with_config(url, tcp, Some(config(max_message)))
                .await
                .map_err(|e| Error::from(ErrorKind::Transport(e.to_string())))?;
        loop {
            match ws.next().await {
                Some(Ok(Message::Binary(b))) if b.len() == 4 => {
                    let id = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    if id < 2 {
                        return Err(Error::from(ErrorKind::Transport(
                            "invalid id from server".into(),
                        )));
                    }
                    return Ok((ws, id));
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                Some(Err(e)) => return Err(Error::from(ErrorKind::Transport(e.to_string()))),
                _ => {
                    return Err(Error::from(ErrorKind::Transport(
                        "invalid id from server".into(),
                    )))
                }
            }
        }
    };
    tokio::time::timeout(HANDSHAKE_TIMEOUT, connect)
        .await
        .map_err(|_| Error::from(ErrorKind::Transport("handshake timed out".into())))?
}

/// The bundled WebSocket server as a [`ServerTransport`]: one packet per binary (or text)
/// message, channel 0, reliable, as `WebSocketMultiplayerPeer` has it.
impl ServerTransport for WsServer {
    /// Accepts connections, advances handshakes and reads every connection that woke,
    /// reporting each event to `on` (which, for `Connected`, says whether to keep the
    /// client). Registers `cx` for all of it. Whether anything happened.
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(TransportEvent<'_>) -> bool,
    ) -> Result<bool> {
        // Handshakes under way first, then new connections up to the bound, whose
        // handshakes start (and their timeouts with them) in the same poll.
        let mut any = self.poll_handshakes(cx, on);
        self.accept_retry = None;
        while self.handshakes.len() < MAX_HANDSHAKES {
            match self.listener.poll_accept(cx) {
                Poll::Ready(Ok((tcp, _))) => {
                    self.handshakes.push(handshake(tcp, self.max_message));
                }
                Poll::Ready(Err(_)) => {
                    // Retried soon after, on the host's timer.
                    self.accept_retry = Some(now + ACCEPT_RETRY);
                    break;
                }
                Poll::Pending => break,
            }
        }
        any |= self.poll_handshakes(cx, on);
        self.close_stalled(now);
        for id in self.gone.drain(..) {
            on(TransportEvent::Disconnected(id));
            any = true;
        }
        any |= self.poll_reads(cx, now, on);
        Ok(any)
    }

    /// Queues a packet for client `to` (written by the next flush), with one lookup of
    /// the client: copied into the connection's buffer, so the packet's own buffer comes
    /// back to be reused; a client with more than the queue waiting is closed, too slow.
    fn send(&mut self, to: i32, _channel: u8, _mode: TransferMode, data: Vec<u8>) -> Sent {
        let Some(&slot) = self.by_id.get(&to) else {
            return Sent::NotMine(data);
        };
        let Some(c) = self.conns[slot].as_mut() else {
            return Sent::NotMine(data);
        };
        if c.unflushed >= self.queue
            || (c.link.has_unwritten() && c.link.unwritten_len() + data.len() > self.max_unwritten)
        {
            self.close(to);
            return Sent::TooSlow;
        }
        c.link.queue(&data);
        c.unflushed += 1;
        if !c.dirty {
            c.dirty = true;
            self.dirty.push(slot);
        }
        Sent::Queued(Some(data))
    }

    fn disconnect(&mut self, to: i32) -> bool {
        self.close(to)
    }

    /// Writes what was queued since the last flush: one write per connection. A socket
    /// that cannot take it all now finishes when it wakes.
    fn flush(&mut self) {
        let mut dirty = std::mem::take(&mut self.dirty);
        for &slot in &dirty {
            let Some(c) = self.conns[slot].as_mut() else {
                continue;
            };
            c.dirty = false;
            let mut scx = Context::from_waker(self.ready.waker(slot));
            match c.link.poll_flush(&mut scx) {
                Poll::Ready(Ok(())) => c.unflushed = 0,
                Poll::Ready(Err(_)) => {
                    let id = c.id;
                    self.remove(slot);
                    self.gone.push(id);
                }
                Poll::Pending => {}
            }
        }
        dirty.clear();
        self.dirty = dirty;
    }

    fn next_wake(&self) -> Option<Instant> {
        // A failed `accept` (out of descriptors, say) is retried soon after.
        match (self.accept_retry, self.frame_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn local_addr(&self) -> Option<std::net::SocketAddr> {
        self.listener.local_addr().ok()
    }
}

/// The bundled WebSocket client (tokio-tungstenite) as a [`ClientTransport`]: one binary
/// message per packet.
pub(crate) struct WsClient {
    ws: WebSocketStream<TcpStream>,
    /// Messages queued since the last flush began.
    out: std::collections::VecDeque<Message>,
    closing: bool,
}

impl WsClient {
    pub(crate) fn new(ws: WebSocketStream<TcpStream>) -> Self {
        WsClient {
            ws,
            out: std::collections::VecDeque::new(),
            closing: false,
        }
    }
}

impl ClientTransport for WsClient {
    fn poll(
        &mut self,
        cx: &mut Context<'_>,
        now: Instant,
        on: &mut dyn FnMut(LinkEvent<'_>),
    ) -> Result<bool> {
        let _ = now;
        let mut any = false;
        for _ in 0..FRAMES_PER_POLL {
            match self.ws.poll_next_unpin(cx) {
                Poll::Ready(Some(Ok(Message::Binary(b)))) => {
                    if !b.is_empty() {
                        on(LinkEvent::Packet {
                            channel: 0,
                            mode: TransferMode::Reliable,
                            data: &b,
                        });
                    }
                    any = true;
                }
                // The engine takes text messages as packets too.
                Poll::Ready(Some(Ok(Message::Text(t)))) => {
                    on(LinkEvent::Packet {
                        channel: 0,
                        mode: TransferMode::Reliable,
                        data: t.as_bytes(),
                    });
                    any = true;
                }
                Poll::Ready(Some(Ok(Message::Close(_))) | Some(Err(_)) | None) => {
                    on(LinkEvent::Closed);
                    return Ok(true);
                }
                // Pings (tungstenite queues the pong) and pongs.
                Poll::Ready(Some(Ok(_))) => any = true,
                Poll::Pending => return Ok(any),
            }
        }
        // More may be waiting: come back after the others.
        cx.waker().wake_by_ref();
        Ok(any)
    }

    fn send(&mut self, _channel: u8, _mode: TransferMode, data: Vec<u8>) {
        self.out.push_back(Message::Binary(data.into()));
    }

    fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<Result<()>> {
        use futures_util::Sink;
        let transport = |e: tokio_tungstenite::tungstenite::Error| {
            Error::from(ErrorKind::Transport(e.to_string()))
        };
        let mut ws = Pin::new(&mut self.ws);
        while !self.out.is_empty() {
            match ws.as_mut().poll_ready(cx) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(e)) => return Poll::Ready(Err(transport(e))),
                Poll::Pending => return Poll::Pending,
            }
            let m = self.out.pop_front().expect("a queued message");
            if let Err(e) = ws.as_mut().start_send(m) {
                return Poll::Ready(Err(transport(e)));
            }
        }
        let done = if self.closing {
            ws.poll_close(cx)
        } else {
            ws.poll_flush(cx)
        };
        done.map_err(transport)
    }

    fn close(&mut self) {
        self.closing = true;
    }

    fn next_wake(&self) -> Option<Instant> {
        None
    }
}

#[cfg(test)]
mod slow_clients {
    use super::*;
    use tokio::io::AsyncWriteExt;
    use tokio::net::TcpListener;

    /// Slowloris, upgrade phase (issue 40): a client that trickles its upgrade request a
    /// byte every 200 ms is dropped at the engine's 3 s handshake timeout, having cost at
    /// most the request buffer (8 KiB); a request that never ends its headers is refused
    /// at 8 KiB whatever its pace.
    #[tokio::test]
    async fn a_trickled_upgrade_ends_at_the_handshake_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(async move {
            let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
            for b in b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                .iter()
                .cycle()
            {
                if tcp.write_all(&[*b]).await.is_err() {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        let (tcp, _) = listener.accept().await.unwrap();
        let started = Instant::now();
        let done = handshake(tcp, 1 << 20).await;
        let took = started.elapsed();
        assert!(done.is_none(), "no link for a request that never ends");
        assert!(
            took >= HANDSHAKE_TIMEOUT && took < HANDSHAKE_TIMEOUT + Duration::from_secs(1),
            "{took:?}"
        );
        client.abort();
    }

    #[tokio::test]
    async fn an_endless_request_is_refused_at_its_limit() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(async move {
            let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
            let line =
                b"X-Pad: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
            let mut req = b"GET / HTTP/1.1\r\n".to_vec();
            while req.len() < 64 * 1024 {
                req.extend_from_slice(line);
            }
            let _ = tcp.write_all(&req).await;
            tcp
        });
        let (tcp, _) = listener.accept().await.unwrap();
        let started = Instant::now();
        assert!(handshake(tcp, 1 << 20).await.is_none());
        assert!(
            started.elapsed() < HANDSHAKE_TIMEOUT,
            "refused at the size limit, not the timeout"
        );
        drop(client.await);
    }

    /// Drives `server` until `until` returns true for the events so far or `limit` passes,
    /// waking at its own deadlines as the host does.
    async fn drive(
        server: &mut WsServer,
        limit: Duration,
        mut until: impl FnMut(&[String]) -> bool,
    ) -> Vec<String> {
        let end = Instant::now() + limit;
        let mut seen = Vec::new();
        while !until(&seen) && Instant::now() < end {
            let deadline = ServerTransport::next_wake(server);
            let wake = deadline.unwrap_or(end).min(end);
            let _ = tokio::time::timeout(
                wake.saturating_duration_since(Instant::now()) + Duration::from_millis(5),
                std::future::poll_fn(|cx| {
                    let any = server
                        .poll(cx, Instant::now(), &mut |ev| {
                            seen.push(match ev {
                                TransportEvent::Connected(id) => format!("connected {id}"),
                                TransportEvent::Packet { from, data, .. } => {
                                    format!("packet {from} {}", data.len())
                                }
                                TransportEvent::Disconnected(id) => format!("closed {id}"),
                            });
                            true
                        })
                        .unwrap();
                    // What the poll queued (pongs) goes out, as the host's turn ends.
                    server.flush();
                    // Back to the loop for the events, or for a new deadline's timer.
                    if any || ServerTransport::next_wake(server) != deadline {
                        Poll::Ready(())
                    } else {
                        Poll::Pending
                    }
                }),
            )
            .await;
        }
        seen
    }

    /// Upgrades a raw client; returns it after the answer and the 4-byte id message.
    async fn raw_client(addr: std::net::SocketAddr) -> tokio::net::TcpStream {
        use tokio::io::AsyncReadExt;
        let mut tcp = tokio::net::TcpStream::connect(addr).await.unwrap();
        tcp.write_all(
            b"GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .await
        .unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(tcp.read_u8().await.unwrap());
        }
        let mut id = [0; 6];
        tcp.read_exact(&mut id).await.unwrap();
        assert_eq!(id[..2], [0x82, 4], "the id message");
        tcp
    }

    /// Slowloris, frame phase (issue 40): a client that begins a frame and never finishes
    /// it is closed with 1008 when the frame's time is up (here 1 s, `FRAME_TIMEOUT` in a
    /// server), having cost its read buffer only; a client that sends whole frames and
    /// then nothing stays.
    #[tokio::test]
    async fn a_frame_never_finished_is_closed_at_its_time_limit() {
        use tokio::io::AsyncReadExt;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut server = WsServer::new(listener, 1 << 20, 4096);
        server.frame_timeout = Duration::from_secs(1);
        // The handshakes run in the server's poll: the clients wait in tasks.
        let clients = tokio::spawn(async move { (raw_client(addr).await, raw_client(addr).await) });
        let seen = drive(&mut server, Duration::from_secs(2), |s| s.len() == 2).await;
        assert_eq!(seen.len(), 2, "{seen:?}");
        let (mut stalled, mut idle) = clients.await.unwrap();
        // A whole ping from the idle one; three bytes of a header from the other.
        idle.write_all(&[0x89, 0x80, 1, 2, 3, 4]).await.unwrap();
        stalled.write_all(&[0x82, 0xFE, 0x01]).await.unwrap();
        let started = Instant::now();
        let seen = drive(&mut server, Duration::from_secs(3), |s| {
            s.iter().any(|e| e.starts_with("closed"))
        })
        .await;
        let took = started.elapsed();
        assert_eq!(seen.len(), 1, "one closed: {seen:?}");
        assert!(
            took >= Duration::from_millis(950) && took < Duration::from_millis(1500),
            "{took:?}"
        );
        let mut close = [0; 4];
        stalled.read_exact(&mut close).await.unwrap();
        assert_eq!(close, [0x88, 2, 0x03, 0xF0], "close 1008");
        // The idle client got its pong and is still there a second later.
        let mut pong = [0; 2];
        idle.read_exact(&mut pong).await.unwrap();
        assert_eq!(pong, [0x8A, 0]);
        let seen = drive(&mut server, Duration::from_millis(1200), |_| false).await;
        assert!(seen.is_empty(), "{seen:?}");
        assert_eq!(server.by_id.len(), 1);
    }

    /// A client that stops reading: what waits for it is bounded in bytes (here 4 MiB, the
    /// bound for packets up to 1 MiB), then it is dropped as too slow.
    #[tokio::test]
    async fn a_client_that_does_not_read_is_dropped_at_the_byte_bound() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        // Messages of 64 KiB at most, so that the bound is MAX_UNWRITTEN itself (for larger
        // messages it is four of them).
        let max_message = 64 << 10;
        let mut server = WsServer::new(listener, max_message, 4096);
        let client = tokio::spawn(raw_client(addr));
        let seen = drive(&mut server, Duration::from_secs(2), |s| !s.is_empty()).await;
        let _client = client.await.unwrap();
        let id: i32 = seen[0].strip_prefix("connected ").unwrap().parse().unwrap();
        let packet = vec![7; max_message - 16];
        let mut sent = 0usize;
        let mut peak = 0usize;
        loop {
            match server.send(id, 0, TransferMode::Reliable, packet.clone()) {
                Sent::Queued(_) => sent += packet.len(),
                Sent::TooSlow => break,
                Sent::NotMine(_) => panic!("the client is ours"),
            }
            server.flush();
            let slot = server.by_id[&id];
            let c = server.conns[slot].as_ref().unwrap();
            peak = peak.max(c.link.unwritten_len());
            assert!(sent < 1 << 30, "never dropped");
        }
        assert!(!server.by_id.contains_key(&id), "dropped");
        // The server held up to 4 MiB for the client, and not more: within one message
        // of the bound when the next would not fit.
        assert!(peak <= 4 << 20, "{peak}");
        assert!(peak > (4 << 20) - max_message, "{peak}");
    }
}
