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
mod tests {
    use super::*;
    use futures_util::{SinkExt, StreamExt};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;
    use tokio_tungstenite::tungstenite::Message;

    /// A client frame: `mask` applied, the shortest length form.
    fn client_frame(fin: bool, opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
        let mut out = vec![if fin { 0x80 } else { 0 } | opcode];
        match payload.len() {
            n @ 0..=125 => out.push(0x80 | n as u8),
            n @ 126..=0xFFFF => {
                out.push(0x80 | 126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
            n => {
                out.push(0x80 | 127);
                out.extend_from_slice(&(n as u64).to_be_bytes());
            }
        }
        out.extend_from_slice(&mask);
        out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
        out
    }

    fn bytes(n: usize) -> Vec<u8> {
        (0..n).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn parse_reads_each_length_form_and_unmasks() {
        for n in [0, 1, 125, 126, 0xFFFF, 0x10000] {
            let payload = bytes(n);
            let mut f = client_frame(true, BINARY, &payload, [1, 0x80, 0x55, 0xFF]);
            let header = f.len() - n;
            let Ok(Parsed::Frame(fr)) = parse(&mut f, 1 << 20) else {
                panic!("length {n}: no frame");
            };
            assert_eq!(
                (fr.fin, fr.opcode, fr.start, fr.len),
                (true, BINARY, header, n)
            );
            assert_eq!(&f[fr.start..fr.start + fr.len], &payload[..], "length {n}");
        }
    }

    #[test]
    fn parse_asks_for_exactly_what_a_cut_frame_lacks() {
        for n in [3, 200, 70_000] {
            let f = client_frame(false, TEXT, &bytes(n), [9, 8, 7, 6]);
            for cut in [0, 1, 3, 7, f.len() - 1] {
                let mut part = f[..cut].to_vec();
                match parse(&mut part, 1 << 20) {
                    Ok(Parsed::Need(need)) => {
                        assert!(
                            need > cut && need <= f.len(),
                            "length {n}, cut {cut}: {need}"
                        )
                    }
                    other => panic!("length {n}, cut {cut}: {other:?}"),
                }
                assert_eq!(part, f[..cut], "nothing unmasked before the frame is whole");
            }
        }
    }

    #[test]
    fn parse_refuses_what_rfc_6455_refuses() {
        let mask = [1, 2, 3, 4];
        let mut unmasked = vec![0x82, 0x01, 0xAA];
        assert_eq!(parse(&mut unmasked, 100), Err(FrameError::Unmasked));
        let mut reserved = client_frame(true, BINARY, b"x", mask);
        reserved[0] |= 0x40;
        assert_eq!(parse(&mut reserved, 100), Err(FrameError::Reserved));
        let mut long_ping = client_frame(true, PING, &[0; 126], mask);
        assert_eq!(parse(&mut long_ping, 1000), Err(FrameError::BadControl));
        let mut cut_close = client_frame(false, CLOSE, b"", mask);
        assert_eq!(parse(&mut cut_close, 100), Err(FrameError::BadControl));
        for op in [3, 7, 0xB, 0xF] {
            let mut f = client_frame(true, op, b"", mask);
            assert_eq!(
                parse(&mut f, 100),
                Err(FrameError::BadOpcode),
                "opcode {op}"
            );
        }
        // A length over the limit is refused from its header alone.
        let mut huge = vec![0x82, 0x80 | 127];
        huge.extend_from_slice(&(1u64 << 40).to_be_bytes());
        assert_eq!(parse(&mut huge, 1 << 20), Err(FrameError::TooBig));
        let mut over = client_frame(true, BINARY, &[0; 101], mask);
        assert_eq!(parse(&mut over, 100), Err(FrameError::TooBig));
        // With no limit at all, a length whose end does not fit a usize.
        let mut endless = vec![0x82, 0x80 | 127];
        endless.extend_from_slice(&u64::MAX.to_be_bytes());
        endless.extend_from_slice(&mask);
        assert_eq!(parse(&mut endless, usize::MAX), Err(FrameError::TooBig));
    }

    #[test]
    fn unmask_matches_the_byte_at_a_time_rule() {
        let mask = [0x12, 0x34, 0x56, 0x78];
        for n in 0..40 {
            let data = bytes(n);
            let mut fast = data.clone();
            unmask(&mut fast, mask);
            let slow: Vec<u8> = data
                .iter()
                .enumerate()
                .map(|(i, b)| b ^ mask[i % 4])
                .collect();
            assert_eq!(fast, slow, "length {n}");
        }
    }

    #[test]
    fn parse_stays_inside_random_input() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let (mut frames, mut needs) = (0, 0);
        for _ in 0..20_000 {
            let len = (next() % 48) as usize;
            let mut buf: Vec<u8> = (0..len).map(|_| next() as u8).collect();
            // Often a masked header with a short length, so that whole frames occur.
            if len >= 2 && next() % 2 == 0 {
                buf[0] &= 0x8F;
                buf[1] = 0x80 | (next() % 40) as u8;
            }
            match parse(&mut buf, 64) {
                Ok(Parsed::Frame(f)) => {
                    assert!(f.start + f.len <= len);
                    frames += 1;
                }
                Ok(Parsed::Need(n)) => {
                    assert!(n > len);
                    needs += 1;
                }
                Err(_) => {}
            }
        }
        assert!(frames > 100 && needs > 100, "{frames} frames, {needs} cut");
    }

    /// Echoes every message until the connection ends; returns what came.
    async fn echo(mut link: Link) -> Vec<Vec<u8>> {
        let mut got = Vec::new();
        std::future::poll_fn(|cx| loop {
            let turn = link.poll_messages(cx, 4, |m, replies| {
                replies.queue(m);
                got.push(m.to_vec());
            });
            let _ = link.poll_flush(cx);
            match turn {
                Turn::More => continue,
                Turn::Drained => return Poll::Pending,
                Turn::Closed => return Poll::Ready(()),
            }
        })
        .await;
        got
    }

    async fn serve(max: usize) -> (std::net::SocketAddr, tokio::task::JoinHandle<Vec<Vec<u8>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let task = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            echo(accept(tcp, &[7, 0, 0, 0], max).await.unwrap()).await
        });
        (addr, task)
    }

    #[tokio::test]
    async fn a_tungstenite_client_gets_its_id_and_every_message_back() {
        let (addr, server) = serve(1 << 20).await;
        let tcp = TcpStream::connect(addr).await.unwrap();
        let (mut ws, answer) = tokio_tungstenite::client_async(format!("ws://{addr}/"), tcp)
            .await
            .unwrap();
        assert_eq!(answer.headers()["connection"], "Upgrade");
        assert!(answer.headers().get("sec-websocket-protocol").is_none());
        let hello = ws.next().await.unwrap().unwrap();
        assert_eq!(hello, Message::Binary(vec![7, 0, 0, 0].into()));
        let sizes = [0, 1, 125, 126, 1535, 1536, 3000, 0xFFFF, 0x10000, 200_000];
        for n in sizes {
            ws.send(Message::Binary(bytes(n).into())).await.unwrap();
            let back = ws.next().await.unwrap().unwrap();
            assert_eq!(back, Message::Binary(bytes(n).into()), "length {n}");
        }
        // Many at once: read in turns of four, written back in order.
        for i in 0..50u8 {
            ws.feed(Message::Binary(vec![i; i as usize].into()))
                .await
                .unwrap();
        }
        ws.flush().await.unwrap();
        for i in 0..50u8 {
            let back = ws.next().await.unwrap().unwrap();
            assert_eq!(back, Message::Binary(vec![i; i as usize].into()));
        }
        ws.send(Message::Text("héllo".into())).await.unwrap();
        let back = ws.next().await.unwrap().unwrap();
        assert_eq!(back, Message::Binary("héllo".as_bytes().to_vec().into()));
        ws.send(Message::Ping(b"p".to_vec().into())).await.unwrap();
        let back = ws.next().await.unwrap().unwrap();
        assert_eq!(back, Message::Pong(b"p".to_vec().into()));
        ws.close(None).await.unwrap();
        while let Some(Ok(m)) = ws.next().await {
            assert!(matches!(m, Message::Close(_)), "{m:?}");
        }
        let got = server.await.unwrap();
        assert_eq!(got.len(), sizes.len() + 50 + 1);
    }

    /// Reads one server frame: (opcode, payload).
    async fn read_frame(tcp: &mut TcpStream) -> (u8, Vec<u8>) {
        let mut h = [0; 2];
        tcp.read_exact(&mut h).await.unwrap();
        assert_eq!(h[0] & 0xF0, 0x80, "final, no reserved bit");
        assert_eq!(h[1] & 0x80, 0, "a server frame is not masked");
        let len = match h[1] & 0x7F {
            126 => tcp.read_u16().await.unwrap() as usize,
            127 => tcp.read_u64().await.unwrap() as usize,
            n => n as usize,
        };
        let mut payload = vec![0; len];
        tcp.read_exact(&mut payload).await.unwrap();
        (h[0] & 0x0F, payload)
    }

    /// Sends RFC 6455's sample upgrade request and `early` after it in one write; reads
    /// the answer up to its blank line.
    async fn upgrade(addr: std::net::SocketAddr, early: &[u8]) -> (TcpStream, String) {
        let mut tcp = TcpStream::connect(addr).await.unwrap();
        let mut req = b"GET /chat HTTP/1.1\r\nHost: server.example.com\r\nUpgrade: websocket\r\n\
            Connection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
            Sec-WebSocket-Version: 13\r\n\r\n"
            .to_vec();
        req.extend_from_slice(early);
        tcp.write_all(&req).await.unwrap();
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            head.push(tcp.read_u8().await.unwrap());
        }
        (tcp, String::from_utf8(head).unwrap())
    }

    #[tokio::test]
    async fn the_answer_and_the_frames_follow_rfc_6455() {
        let (addr, server) = serve(1 << 20).await;
        let mask = [0xA1, 0xB2, 0xC3, 0xD4];
        let (mut tcp, head) = upgrade(addr, &client_frame(true, BINARY, b"early", mask)).await;
        assert_eq!(
            head,
            "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
            "RFC 6455 §1.3's sample key and answer"
        );
        assert_eq!(read_frame(&mut tcp).await, (BINARY, vec![7, 0, 0, 0]));
        // Bytes sent with the request are the first message.
        assert_eq!(read_frame(&mut tcp).await, (BINARY, b"early".to_vec()));
        // A fragmented message with a ping between its parts, sent a byte at a time.
        let mut parts = client_frame(false, TEXT, b"ab", mask);
        parts.extend(client_frame(true, PING, b"x", mask));
        parts.extend(client_frame(false, CONTINUATION, b"cd", mask));
        parts.extend(client_frame(true, CONTINUATION, b"ef", mask));
        for b in parts {
            tcp.write_all(&[b]).await.unwrap();
            tcp.flush().await.unwrap();
        }
        assert_eq!(read_frame(&mut tcp).await, (PONG, b"x".to_vec()));
        assert_eq!(read_frame(&mut tcp).await, (BINARY, b"abcdef".to_vec()));
        // A continuation with no message begun ends the connection with 1002.
        tcp.write_all(&client_frame(true, CONTINUATION, b"z", mask))
            .await
            .unwrap();
        assert_eq!(
            read_frame(&mut tcp).await,
            (CLOSE, 1002u16.to_be_bytes().to_vec())
        );
        assert_eq!(
            tcp.read(&mut [0; 8]).await.unwrap(),
            0,
            "then the socket closes"
        );
        let got = server.await.unwrap();
        assert_eq!(got, [b"early".to_vec(), b"abcdef".to_vec()]);
    }

    #[tokio::test]
    async fn a_flood_of_control_frames_yields_to_the_other_connections() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(async move {
            let (mut tcp, _) = upgrade(addr, &[]).await;
            read_frame(&mut tcp).await;
            let mut flood = Vec::new();
            for _ in 0..10 {
                flood.extend(client_frame(true, PONG, b"", [1, 2, 3, 4]));
            }
            flood.extend(client_frame(true, BINARY, b"m", [1, 2, 3, 4]));
            tcp.write_all(&flood).await.unwrap();
            tcp
        });
        let (tcp, _) = listener.accept().await.unwrap();
        let mut link = accept(tcp, &[7, 0, 0, 0], 100).await.unwrap();
        let _tcp = client.await.unwrap();
        let (mut turns, mut got) = (Vec::new(), Vec::new());
        std::future::poll_fn(|cx| loop {
            let turn = link.poll_messages(cx, 4, |m, _| got.push(m.to_vec()));
            turns.push(turn);
            if !got.is_empty() {
                return Poll::Ready(());
            }
            if turn != Turn::More {
                return Poll::Pending;
            }
        })
        .await;
        // 11 frames at 4 a turn: the message comes in the third.
        let mores = turns.iter().filter(|&&t| t == Turn::More).count();
        assert_eq!(mores, 2, "{turns:?}");
        assert_eq!(got, [b"m".to_vec()]);
    }

    #[tokio::test]
    async fn messages_over_the_limit_close_with_1009() {
        let mask = [5, 6, 7, 8];
        // One frame's header over the limit: refused before its payload comes.
        let (addr, server) = serve(100).await;
        let (mut tcp, _) = upgrade(addr, &[]).await;
        read_frame(&mut tcp).await;
        let mut huge = vec![0x82, 0x80 | 127];
        huge.extend_from_slice(&(1u64 << 40).to_be_bytes());
        huge.extend_from_slice(&mask);
        tcp.write_all(&huge).await.unwrap();
        assert_eq!(
            read_frame(&mut tcp).await,
            (CLOSE, 1009u16.to_be_bytes().to_vec())
        );
        assert!(server.await.unwrap().is_empty());
        // Fragments each under the limit, together over it.
        let (addr, server) = serve(100).await;
        let (mut tcp, _) = upgrade(addr, &[]).await;
        read_frame(&mut tcp).await;
        let mut parts = client_frame(false, BINARY, &[1; 60], mask);
        parts.extend(client_frame(true, CONTINUATION, &[2; 60], mask));
        tcp.write_all(&parts).await.unwrap();
        assert_eq!(
            read_frame(&mut tcp).await,
            (CLOSE, 1009u16.to_be_bytes().to_vec())
        );
        assert!(server.await.unwrap().is_empty());
    }

    #[tokio::test]
    async fn requests_that_are_not_upgrades_are_refused() {
        let good = "GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                    Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        let bad = [
            good.replace("GET", "POST"),
            good.replace("HTTP/1.1", "HTTP/1.0"),
            good.replace("Upgrade: websocket", "Upgrade: h2c"),
            good.replace("Connection: Upgrade", "Connection: keep-alive"),
            good.replace("Version: 13", "Version: 8"),
            good.replace("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", ""),
            format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(MAX_REQUEST)),
        ];
        let mut refused = 0;
        for req in std::iter::once(good.to_string()).chain(bad) {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let client = tokio::spawn(async move {
                let mut tcp = TcpStream::connect(addr).await.unwrap();
                let _ = tcp.write_all(req.as_bytes()).await;
                let mut answer = Vec::new();
                let _ = tcp.read_to_end(&mut answer).await;
                answer
            });
            let (tcp, _) = listener.accept().await.unwrap();
            // The link (or the refused socket) is dropped here, so the client sees the end.
            let upgraded = match accept(tcp, &[], 100).await {
                Ok(_) => true,
                Err(e) => {
                    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                    false
                }
            };
            let answer = client.await.unwrap();
            assert_eq!(upgraded, answer.starts_with(b"HTTP/1.1 101"));
            refused += usize::from(!upgraded);
        }
        assert_eq!(refused, 7, "all but the first");
    }

    /// What the server did in one conformance case: the messages it echoed and the close
    /// code it sent (`None`: an empty close), then whether the socket closed after it.
    async fn run_case(frames: &[Vec<u8>], pause_after: Option<usize>) -> (Vec<Vec<u8>>, Option<Option<u16>>) {
        let (addr, server) = serve(1 << 20).await;
        let (mut tcp, _) = upgrade(addr, &[]).await;
        assert_eq!(read_frame(&mut tcp).await, (BINARY, vec![7, 0, 0, 0]));
        for (i, f) in frames.iter().enumerate() {
            if tcp.write_all(f).await.is_err() {
                break;
            }
            if pause_after == Some(i) {
                // Fail fast: the close must come before the rest is sent.
                let (op, body) = read_frame(&mut tcp).await;
                assert_eq!(op, CLOSE, "the server fails at the fragment that is invalid");
                server.await.unwrap();
                return (Vec::new(), Some(close_code(&body)));
            }
        }
        let mut echoed = Vec::new();
        let close = loop {
            let (op, body) = read_frame(&mut tcp).await;
            match op {
                CLOSE => break Some(close_code(&body)),
                _ => echoed.push(body),
            }
        };
        // The server closes the TCP connection after its close frame.
        let mut rest = Vec::new();
        let n = tokio::time::timeout(std::time::Duration::from_secs(2), tcp.read_to_end(&mut rest))
            .await
            .expect("the server closes the socket")
            .unwrap_or(0);
        assert_eq!(n, 0, "nothing after the close frame");
        server.await.unwrap();
        (echoed, close)
    }

    /// A conformance case: its name, RFC section, frames, the frame after which the
    /// server must already have failed, and the close code expected.
    type Case = (String, &'static str, Vec<Vec<u8>>, Option<usize>, Option<u16>);

    fn close_code(body: &[u8]) -> Option<u16> {
        (body.len() >= 2).then(|| u16::from_be_bytes([body[0], body[1]]))
    }

    /// The Autobahn|Testsuite fuzzingclient's UTF-8 and close-handling cases (sections 6
    /// and 7 of crossbario/autobahn-testsuite's case list) over a real socket, with the
    /// verdict Autobahn gives each (its events and close-code rules), printed as a table.
    /// The game channel answers in binary frames and greets a client with its peer id,
    /// which Autobahn's echo cases would count as extra events: those are not run here.
    #[tokio::test]
    async fn autobahn_utf8_and_close_cases() {
        let mask = [0x37, 0xFA, 0x21, 0x3D];
        let text = |fin: bool, b: &[u8]| client_frame(fin, TEXT, b, mask);
        let cont = |fin: bool, b: &[u8]| client_frame(fin, CONTINUATION, b, mask);
        let close = |b: &[u8]| client_frame(true, CLOSE, b, mask);
        let kosme = "κόσμε".as_bytes();
        let code = |c: u16, reason: &[u8]| {
            let mut b = c.to_be_bytes().to_vec();
            b.extend_from_slice(reason);
            b
        };
        // (case, RFC section, frames, pause after frame, expected close code)
        let mut cases: Vec<Case> = vec![
            ("6.3.1".into(), "8.1", vec![text(true, &[kosme, &[0xed, 0xa0, 0x80], b"edited"].concat())], None, Some(1007)),
            ("6.4.1".into(), "8.1", vec![text(false, kosme), cont(false, &[0xf4, 0x90, 0x80, 0x80]), cont(true, b"edited")], Some(1), Some(1007)),
            ("6.4.2".into(), "8.1", vec![text(false, &[kosme, &[0xf4]].concat()), cont(false, &[0x90]), cont(true, &[&[0x80, 0x80][..], b"edited"].concat())], Some(1), Some(1007)),
            ("6.6.1".into(), "8.1", vec![text(true, &[0xce])], None, Some(1007)),
            ("6.8.1".into(), "8.1", vec![text(true, &[0xf8, 0x88, 0x80, 0x80, 0x80])], None, Some(1007)),
            ("6.11.5".into(), "8.1", vec![text(true, &[0xf4, 0x90, 0x80, 0x80])], None, Some(1007)),
            ("6.12.1".into(), "8.1", vec![text(true, &[0x80])], None, Some(1007)),
            ("7.3.1".into(), "5.5.1", vec![close(b"")], None, None),
            ("7.3.2".into(), "5.5.1", vec![close(&[0x03])], None, Some(1002)),
            ("7.3.3".into(), "5.5.1", vec![close(&code(1000, b""))], None, Some(1000)),
            ("7.3.4".into(), "5.5.1", vec![close(&code(1000, b"Hello World!"))], None, Some(1000)),
            ("7.5.1".into(), "5.5.1, 8.1", vec![close(&code(1000, &[0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5, 0xed, 0xa0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64]))], None, Some(1007)),
        ];
        for (i, c) in [1000u16, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999].into_iter().enumerate() {
            cases.push((format!("7.7.{}", i + 1), "7.4.1, 7.4.2", vec![close(&code(c, b""))], None, Some(c)));
        }
        // 7.9.x: codes no peer may send; then 1014 and 1015 beside them (not Autobahn's).
        for (i, c) in [0u16, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999, 1014, 1015]
            .into_iter()
            .enumerate()
        {
            let name = if i < 9 { format!("7.9.{}", i + 1) } else { format!("code {c}") };
            cases.push((name, "7.4.1, 7.4.2", vec![close(&code(c, b""))], None, Some(1002)));
        }
        // 1012 and 1013, registered after RFC 6455, are taken (tungstenite takes them).
        for c in [1012u16, 1013] {
            cases.push((format!("code {c}"), "7.4.2", vec![close(&code(c, b""))], None, Some(c)));
        }
        // Valid text, fragmented across a cut sequence, is taken whole (6.2.3-like).
        let valid = "Hello-µ@ßöäüàá-UTF-8!!".as_bytes();
        cases.push(("6.2.3".into(), "8.1", valid.iter().enumerate().map(|(i, b)| if i == 0 { text(false, &[*b]) } else if i + 1 == valid.len() { cont(true, &[*b]) } else { cont(false, &[*b]) }).chain([close(&code(1000, b""))]).collect(), None, Some(1000)));
        println!("| case | verdict | RFC 6455 section |");
        println!("|---|---|---|");
        for (name, rfc, frames, pause, want) in &cases {
            let (echoed, got) = run_case(frames, *pause).await;
            let verdict = if got == Some(*want) { "OK" } else { "FAILED" };
            println!("| {name} | {verdict} | §{rfc} |");
            assert_eq!(got, Some(*want), "{name}: close code");
            if name == "6.2.3" {
                assert_eq!(echoed, vec![valid.to_vec()], "{name}: the message whole");
            } else {
                assert!(echoed.is_empty(), "{name}: nothing echoed");
            }
        }
    }
}
