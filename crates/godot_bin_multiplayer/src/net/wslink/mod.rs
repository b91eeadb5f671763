//! A WebSocket server connection framed here, not by a WebSocket library: the upgrade a
//! Godot client asks for, then RFC 6455 frames read from the socket into one buffer per
//! connection (payloads unmasked in place and handed out without a copy) and written from
//! one buffer per connection.
//!
//! Why not tokio-tungstenite on the server side: with one task polling every connection,
//! its per-message `Message` values, its waker proxies and its `AsyncRead` adapter cost
//! more than the session (the crate's benches/RESULTS.md). The client side (`ws::connect`) stays on tokio-tungstenite, which also checks
//! this server in the tests below.
//!
//! It uses only std, tokio's `TcpStream`, httparse and tungstenite's accept-key function,
//! so that the bare transport of the load run (`examples/multiplayer_bare`) runs on the
//! same file.

mod frames;

use frames::*;
pub use frames::{Frames, Replies, Step, CLOSE_NORMAL, CLOSE_POLICY, READ_BUFFER};
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// What a [`Link::poll_messages`] turn ended on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Everything the socket had was read; the waker is registered for more.
    Drained,
    /// The budget of frames was spent; more may be waiting.
    More,
    /// The connection is over: closed by the client, refused, or failed.
    Closed,
}

/// One upgraded connection: its [`Frames`] over its socket.
#[derive(Debug)]
pub struct Link {
    tcp: TcpStream,
    frames: Frames,
}

impl Link {
    /// Reads the messages the client sent, handing each text or binary message (whole,
    /// reassembled from its fragments) to `on` with whether it came as text and the link's [`Replies`] (to answer on
    /// the same connection without a copy of the message), until the socket has no more
    /// (registering `cx`), `budget` frames were taken, or the connection ends
    /// ([`Frames::take`] says what is answered and what ends it; the close frame is
    /// written if the socket takes it now).
    pub fn poll_messages(
        &mut self,
        cx: &mut Context<'_>,
        budget: usize,
        mut on: impl FnMut(&[u8], bool, &mut Replies<'_>),
    ) -> Turn {
        let mut taken = 0;
        loop {
            match self.frames.take(&mut taken, budget, &mut on) {
                Step::Need => {}
                Step::Budget => return Turn::More,
                Step::Closed => {
                    let _ = self.poll_flush(cx);
                    return Turn::Closed;
                }
            }
            let mut read = ReadBuf::new(self.frames.read_space());
            // tokio's `poll_read` takes a short read as the socket drained (edge-triggered
            // readiness): no second read that would only find it empty.
            match Pin::new(&mut self.tcp).poll_read(cx, &mut read) {
                Poll::Pending => return Turn::Drained,
                Poll::Ready(Ok(())) if read.filled().is_empty() => return Turn::Closed,
                Poll::Ready(Ok(())) => {
                    let n = read.filled().len();
                    self.frames.received(n);
                }
                Poll::Ready(Err(_)) => return Turn::Closed,
            }
        }
    }

    /// Whether a frame has begun arriving and is not all there yet.
    pub fn in_frame(&self) -> bool {
        self.frames.in_frame()
    }

    /// Queues `payload` as one binary message.
    pub fn queue(&mut self, payload: &[u8]) {
        self.frames.queue(payload);
    }

    /// Queues a close frame with `code` and no reason.
    pub fn queue_close(&mut self, code: u16) {
        self.frames.queue_close(code);
    }

    /// Whether frames are queued that the socket has not taken yet.
    pub fn has_unwritten(&self) -> bool {
        !self.frames.unwritten().is_empty()
    }

    /// How many queued bytes the socket has not taken yet.
    pub fn unwritten_len(&self) -> usize {
        self.frames.unwritten().len()
    }

    /// Writes what is queued; `Pending` (with `cx` registered) while the socket cannot take
    /// the rest.
    pub fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        loop {
            let rest = self.frames.unwritten();
            if rest.is_empty() {
                return Poll::Ready(Ok(()));
            }
            match Pin::new(&mut self.tcp).poll_write(cx, rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.frames.wrote(n),
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

fn refused(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

/// Upgrades an accepted connection as `WebSocketMultiplayerPeer`'s clients ask, and sends
/// `hello` as the first binary message (the engine's server sends the client's id there).
/// The answer names no subprotocol and no extension, and says `Connection: Upgrade` with
/// the one token (Godot's client checks for it). Bytes the client sent after its request
/// stay in the link's buffer. Untimed: the caller bounds it.
pub async fn accept(tcp: TcpStream, hello: &[u8], max_message: usize) -> io::Result<Link> {
    let _ = tcp.set_nodelay(true);
    let mut buf = vec![0; READ_BUFFER];
    let mut end = 0;
    let head = loop {
        if end == buf.len() {
            if buf.len() >= MAX_REQUEST {
                return Err(refused("upgrade request too long"));
            }
            buf.resize((buf.len() * 2).min(MAX_REQUEST), 0);
        }
        tcp.readable().await?;
        match tcp.try_read(&mut buf[end..]) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                // The blank line may straddle two reads.
                let from = end.saturating_sub(3);
                end += n;
                if let Some(at) = buf[from..end].windows(4).position(|w| w == b"\r\n\r\n") {
                    break from + at + 4;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    };
    let key = request_key(&buf[..head])?;
    let answer = tokio_tungstenite::tungstenite::handshake::derive_accept_key(key);
    let mut out = Vec::with_capacity(160);
    out.extend_from_slice(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n");
    out.extend_from_slice(b"Connection: Upgrade\r\nSec-WebSocket-Accept: ");
    out.extend_from_slice(answer.as_bytes());
    out.extend_from_slice(b"\r\n\r\n");
    put_frame(&mut out, BINARY, hello);
    let mut link = Link {
        tcp,
        frames: Frames::with_buffer(buf, head, end, out, max_message),
    };
    std::future::poll_fn(|cx| link.poll_flush(cx)).await?;
    Ok(link)
}

/// Checks an upgrade request (RFC 6455 §4.2.1) and returns its `Sec-WebSocket-Key`.
fn request_key(head: &[u8]) -> io::Result<&[u8]> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    if !matches!(req.parse(head), Ok(httparse::Status::Complete(_))) {
        return Err(refused("malformed upgrade request"));
    }
    if req.method != Some("GET") || req.version != Some(1) {
        return Err(refused("not a GET over HTTP/1.1"));
    }
    let (mut upgrade, mut connection, mut version, mut key) = (false, false, false, None);
    for h in req.headers.iter() {
        let value = h.value.trim_ascii();
        if h.name.eq_ignore_ascii_case("upgrade") {
            upgrade = value.eq_ignore_ascii_case(b"websocket");
        } else if h.name.eq_ignore_ascii_case("connection") {
            connection = value
                .split(|&b| b == b',')
                .any(|t| t.trim_ascii().eq_ignore_ascii_case(b"upgrade"));
        } else if h.name.eq_ignore_ascii_case("sec-websocket-version") {
            version = value == b"13";
        } else if h.name.eq_ignore_ascii_case("sec-websocket-key") {
            key = Some(value);
        }
    }
    match key {
        Some(k) if upgrade && connection && version && !k.is_empty() => Ok(k),
        _ => Err(refused("not a WebSocket upgrade")),
    }
}

#[cfg(test)]
mod tests;
