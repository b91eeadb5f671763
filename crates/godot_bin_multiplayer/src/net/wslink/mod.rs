//! A WebSocket server connection framed here, not by a WebSocket library: the upgrade a
//! Godot client asks for, then RFC 6455 frames read from the socket into one buffer per
//! connection (payloads unmasked in place and handed out without a copy) and written from
//! one buffer per connection.
//!
//! Why not tokio-tungstenite on the server side: with one task polling every connection,
//! its per-message `Message` values, its waker proxies and its `AsyncRead` adapter were
//! most of the server's user-space time a call after the session's own (benches/RESULTS.md,
//! issue 26). The client side (`ws::connect`) stays on tokio-tungstenite, which also checks
//! this server in the tests below.
//!
//! It uses only std, tokio's `TcpStream`, httparse and tungstenite's accept-key function,
//! so that the bare transport of the load run (`examples/multiplayer_bare`) runs on the
//! same file.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The read buffer a connection starts with. It holds a packet of the engine's largest
/// replication size (1,350 bytes) in one read; a longer frame grows it (to twice its size
/// at a time, never past the frame's checked length) and a drained buffer shrinks back.
/// Zero-filled once, when the connection opens, not before every read as tungstenite's
/// was: that fill was 5% of the server's CPU at 1,000 bots with 4 KiB (benches/RESULTS.md,
/// issue 26). The client's tungstenite read buffer (`ws::config`) is the same size.
pub const READ_BUFFER: usize = 1536;

/// The largest upgrade request read (a Godot client's is about 200 bytes).
const MAX_REQUEST: usize = 8192;
/// The most header lines an upgrade request may have.
const MAX_HEADERS: usize = 32;
/// The most unwritten bytes a ping may find before it is answered: a client that pings
/// and does not read is closed instead of holding ever more pongs.
const MAX_BACKLOG: usize = 1 << 20;
/// A write buffer larger than this after everything in it was written is let go, so that
/// a burst to one client does not stay with its connection.
const KEEP_OUT: usize = 64 * 1024;

// RFC 6455 §5.2 opcodes.
const CONTINUATION: u8 = 0x0;
const TEXT: u8 = 0x1;
const BINARY: u8 = 0x2;
const CLOSE: u8 = 0x8;
const PING: u8 = 0x9;
const PONG: u8 = 0xA;

/// Close codes (RFC 6455 §7.4.1) this side sends.
pub const CLOSE_NORMAL: u16 = 1000;
const CLOSE_PROTOCOL: u16 = 1002;
const CLOSE_INVALID_DATA: u16 = 1007;
const CLOSE_POLICY: u16 = 1008;
const CLOSE_TOO_BIG: u16 = 1009;

/// Why a client's frame was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FrameError {
    /// A reserved bit set: no extension was agreed.
    Reserved,
    /// A client frame without a mask (RFC 6455 §5.1: the server must close).
    Unmasked,
    /// A control frame fragmented or over 125 bytes.
    BadControl,
    /// An opcode RFC 6455 reserves.
    BadOpcode,
    /// Longer than the largest message the server takes.
    TooBig,
}

/// A whole frame at the start of the buffer: its payload is `buf[start..start + len]`,
/// already unmasked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frame {
    fin: bool,
    opcode: u8,
    start: usize,
    len: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parsed {
    Frame(Frame),
    /// The frame at the start is not all there: it needs this many bytes in all.
    Need(usize),
}

/// Whether a peer may send close code `code` (RFC 6455 §7.4.1–7.4.2 and IANA's registry:
/// the codes defined for a close frame, 1012 and 1013 registered since, and the ranges for
/// libraries and applications), as tungstenite's `CloseCode::is_allowed` has it, so that
/// the crate's client and server agree.
fn peer_may_send(code: u16) -> bool {
    matches!(code, 1000..=1003 | 1007..=1013 | 3000..=4999)
}

/// Reads the client frame at the start of `buf`, unmasking its payload in place once it is
/// all there. The length field is checked against `max` before anything depends on it.
fn parse(buf: &mut [u8], max: usize) -> Result<Parsed, FrameError> {
    let (Some(&b0), Some(&b1)) = (buf.first(), buf.get(1)) else {
        return Ok(Parsed::Need(2));
    };
    if b0 & 0x70 != 0 {
        return Err(FrameError::Reserved);
    }
    if b1 & 0x80 == 0 {
        return Err(FrameError::Unmasked);
    }
    let fin = b0 & 0x80 != 0;
    let opcode = b0 & 0x0F;
    let (len, mask_at) = match b1 & 0x7F {
        126 => match buf.get(2..4) {
            Some(b) => (u64::from(u16::from_be_bytes([b[0], b[1]])), 4),
            None => return Ok(Parsed::Need(4)),
        },
        127 => match buf.get(2..10) {
            Some(b) => {
                let mut n = [0; 8];
                n.copy_from_slice(b);
                (u64::from_be_bytes(n), 10)
            }
            None => return Ok(Parsed::Need(10)),
        },
        n => (u64::from(n), 2),
    };
    match opcode {
        CONTINUATION | TEXT | BINARY => {}
        CLOSE | PING | PONG if !fin || len > 125 => return Err(FrameError::BadControl),
        CLOSE | PING | PONG => {}
        _ => return Err(FrameError::BadOpcode),
    }
    if len > max as u64 {
        return Err(FrameError::TooBig);
    }
    // `len <= max`, a usize; the sum is checked for a limit near `usize::MAX`.
    let len = len as usize;
    let start: usize = mask_at + 4;
    let end = start.checked_add(len).ok_or(FrameError::TooBig)?;
    let Some(frame) = buf.get_mut(mask_at..end) else {
        return Ok(Parsed::Need(end));
    };
    let (mask, payload) = frame.split_at_mut(4);
    unmask(payload, [mask[0], mask[1], mask[2], mask[3]]);
    Ok(Parsed::Frame(Frame {
        fin,
        opcode,
        start,
        len,
    }))
}

/// XORs `data` with the 4-byte `mask` repeated from its first byte, eight bytes at a time.
fn unmask(data: &mut [u8], mask: [u8; 4]) {
    let [a, b, c, d] = mask;
    // Byte order does not matter: the same bytes go in and out in the same order.
    let word = u64::from_ne_bytes([a, b, c, d, a, b, c, d]);
    let mut chunks = data.chunks_exact_mut(8);
    for chunk in &mut chunks {
        let mut w = [0; 8];
        w.copy_from_slice(chunk);
        chunk.copy_from_slice(&(u64::from_ne_bytes(w) ^ word).to_ne_bytes());
    }
    // The rest starts at a multiple of 8, so at mask byte 0.
    for (i, byte) in chunks.into_remainder().iter_mut().enumerate() {
        *byte ^= mask[i % 4];
    }
}

/// Appends a server frame (final, unmasked) to `out`.
fn put_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
    out.push(0x80 | opcode);
    match payload.len() {
        n @ 0..=125 => out.push(n as u8),
        n @ 126..=0xFFFF => {
            out.push(126);
            out.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            out.push(127);
            out.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    out.extend_from_slice(payload);
}

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

/// One upgraded connection.
#[derive(Debug)]
pub struct Link {
    tcp: TcpStream,
    /// Received bytes; `buf[start..end]` is not yet parsed. Always initialised, so that a
    /// read needs no fill.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// The parts so far of a fragmented message.
    message: Vec<u8>,
    fragmented: bool,
    /// The fragmented message is text: `message[..text_checked]` is known valid UTF-8 (a
    /// sequence cut at the end of a fragment is checked when the rest arrives).
    text: bool,
    text_checked: usize,
    /// Frames to write; `out[written..]` is not written yet.
    out: Vec<u8>,
    written: usize,
    max_message: usize,
}

impl Link {
    /// Reads the messages the client sent, handing each text or binary message (whole,
    /// reassembled from its fragments) to `on` with the link's [`Replies`] (to answer on
    /// the same connection without a copy of the message), until the socket has no more (registering
    /// `cx`), `budget` frames were taken, or the connection ends. Pings are
    /// answered (the pong goes with the next flush), a close is answered and ends the
    /// connection, as does a frame RFC 6455 refuses or a message over the size limit.
    pub fn poll_messages(
        &mut self,
        cx: &mut Context<'_>,
        budget: usize,
        mut on: impl FnMut(&[u8], &mut Replies<'_>),
    ) -> Turn {
        let mut taken = 0;
        loop {
            while taken < budget {
                let frame = match parse(&mut self.buf[self.start..self.end], self.max_message) {
                    Ok(Parsed::Frame(f)) => f,
                    Ok(Parsed::Need(n)) => {
                        self.make_room(n);
                        break;
                    }
                    Err(FrameError::TooBig) => return self.fail(cx, CLOSE_TOO_BIG),
                    Err(_) => return self.fail(cx, CLOSE_PROTOCOL),
                };
                let payload = self.start + frame.start..self.start + frame.start + frame.len;
                self.start = payload.end;
                // Every frame counts, so that a flood of pings, pongs or fragments yields
                // to the other connections too.
                taken += 1;
                match frame.opcode {
                    TEXT | BINARY if !self.fragmented => {
                        let text = frame.opcode == TEXT;
                        if frame.fin {
                            // A text message is UTF-8 (RFC 6455 §8.1), or the connection
                            // fails with 1007.
                            if text && std::str::from_utf8(&self.buf[payload.clone()]).is_err() {
                                return self.fail(cx, CLOSE_INVALID_DATA);
                            }
                            on(&self.buf[payload], &mut Replies(&mut self.out));
                        } else {
                            self.message.clear();
                            self.message.extend_from_slice(&self.buf[payload]);
                            self.fragmented = true;
                            self.text = text;
                            self.text_checked = 0;
                            if !self.check_text(false) {
                                return self.fail(cx, CLOSE_INVALID_DATA);
                            }
                        }
                    }
                    CONTINUATION if self.fragmented => {
                        if self.message.len().saturating_add(frame.len) > self.max_message {
                            return self.fail(cx, CLOSE_TOO_BIG);
                        }
                        self.message.extend_from_slice(&self.buf[payload]);
                        // Fail fast: invalid UTF-8 is refused at the fragment that holds
                        // it, not at the message's end.
                        if !self.check_text(frame.fin) {
                            return self.fail(cx, CLOSE_INVALID_DATA);
                        }
                        if frame.fin {
                            on(&self.message, &mut Replies(&mut self.out));
                            self.fragmented = false;
                            self.message = Vec::new();
                        }
                    }
                    PING => {
                        if self.out.len() - self.written > MAX_BACKLOG {
                            return self.fail(cx, CLOSE_POLICY);
                        }
                        put_frame(&mut self.out, PONG, &self.buf[payload]);
                    }
                    PONG => {}
                    CLOSE => {
                        // A body is a code RFC 6455 lets a peer send (§7.4) and a UTF-8
                        // reason (§5.5.1), or the connection fails: 1002 for a 1-byte body
                        // or a code it may not send, 1007 for a reason that is not UTF-8.
                        // Otherwise answered with the client's code, or none.
                        let body = &self.buf[payload.clone()];
                        let code = match body.len() {
                            0 => &[][..],
                            1 => return self.fail(cx, CLOSE_PROTOCOL),
                            _ => {
                                let c = u16::from_be_bytes([body[0], body[1]]);
                                if !peer_may_send(c) {
                                    return self.fail(cx, CLOSE_PROTOCOL);
                                }
                                if std::str::from_utf8(&body[2..]).is_err() {
                                    return self.fail(cx, CLOSE_INVALID_DATA);
                                }
                                &body[..2]
                            }
                        };
                        put_frame(&mut self.out, CLOSE, code);
                        let _ = self.poll_flush(cx);
                        return Turn::Closed;
                    }
                    // A continuation with no message begun, or a new message inside one.
                    _ => return self.fail(cx, CLOSE_PROTOCOL),
                }
            }
            if taken == budget {
                return Turn::More;
            }
            let mut read = ReadBuf::new(&mut self.buf[self.end..]);
            // tokio's `poll_read` takes a short read as the socket drained (edge-triggered
            // readiness): no second read that would only find it empty.
            match Pin::new(&mut self.tcp).poll_read(cx, &mut read) {
                Poll::Pending => return Turn::Drained,
                Poll::Ready(Ok(())) if read.filled().is_empty() => return Turn::Closed,
                Poll::Ready(Ok(())) => self.end += read.filled().len(),
                Poll::Ready(Err(_)) => return Turn::Closed,
            }
        }
    }

    /// Whether the fragmented message so far can still be UTF-8 (or is not text); checks
    /// only the bytes not yet checked, so a message costs its length once. At the last
    /// fragment (`whole`) a sequence cut at the end is invalid too.
    fn check_text(&mut self, whole: bool) -> bool {
        if !self.text {
            return true;
        }
        match std::str::from_utf8(&self.message[self.text_checked..]) {
            Ok(_) => {
                self.text_checked = self.message.len();
                true
            }
            Err(e) => {
                self.text_checked += e.valid_up_to();
                e.error_len().is_none() && !whole
            }
        }
    }

    /// Makes room for the frame at `start`, which needs `need` bytes in all (at most the
    /// largest message and its header, checked by `parse`): the unparsed bytes move to the
    /// front, and the buffer grows by doubling when the frame is longer than it.
    fn make_room(&mut self, need: usize) {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            if self.buf.len() > READ_BUFFER {
                self.buf.truncate(READ_BUFFER);
                self.buf.shrink_to_fit();
            }
        }
        if self.start + need <= self.buf.len() {
            return;
        }
        self.buf.copy_within(self.start..self.end, 0);
        self.end -= self.start;
        self.start = 0;
        if need > self.buf.len() {
            let grown = need.min(self.buf.len().saturating_mul(2));
            self.buf.resize(grown, 0);
        }
    }

    /// Queues a close frame with `code`, writes what the socket takes now, and ends.
    fn fail(&mut self, cx: &mut Context<'_>, code: u16) -> Turn {
        self.queue_close(code);
        let _ = self.poll_flush(cx);
        Turn::Closed
    }

    /// Queues `payload` as one binary message.
    pub fn queue(&mut self, payload: &[u8]) {
        Replies(&mut self.out).queue(payload);
    }

    /// Queues a close frame with `code` and no reason.
    pub fn queue_close(&mut self, code: u16) {
        put_frame(&mut self.out, CLOSE, &code.to_be_bytes());
    }

    /// Whether frames are queued that the socket has not taken yet.
    pub fn has_unwritten(&self) -> bool {
        self.written < self.out.len()
    }

    /// Writes what is queued; `Pending` (with `cx` registered) while the socket cannot take
    /// the rest.
    pub fn poll_flush(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.out.len() {
            match Pin::new(&mut self.tcp).poll_write(cx, &self.out[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.written = 0;
        if self.out.capacity() > KEEP_OUT {
            self.out = Vec::new();
        } else {
            self.out.clear();
        }
        Poll::Ready(Ok(()))
    }
}

/// A link's write buffer, lent to [`Link::poll_messages`]'s callback.
pub struct Replies<'a>(&'a mut Vec<u8>);

impl Replies<'_> {
    /// Queues `payload` as one binary message (written by the link's next flush).
    pub fn queue(&mut self, payload: &[u8]) {
        put_frame(self.0, BINARY, payload);
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
        buf,
        start: head,
        end,
        message: Vec::new(),
        fragmented: false,
        text: false,
        text_checked: 0,
        out,
        written: 0,
        max_message,
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
