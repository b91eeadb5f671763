//! The framing without a socket: bytes in, messages, pongs and the close out. [`Frames`]
//! holds one connection's read buffer, the message being reassembled and the frames to
//! write; [`super::Link`] moves bytes between it and a `TcpStream`, and the fuzz target
//! `ws_framing` feeds it byte streams cut anywhere (fuzz/README.md).

/// The read buffer a connection starts with. It holds a packet of the engine's largest
/// replication size (1,350 bytes) in one read; a longer frame grows it (to twice its size
/// at a time, never past the frame's checked length) and a drained buffer shrinks back.
/// Zero-filled once, when the connection opens, not before every read as tungstenite's
/// was (a cost measured in the crate's benches/RESULTS.md). The client's tungstenite read
/// buffer (`ws::config`) is the same size.
pub const READ_BUFFER: usize = 1536;

/// The largest upgrade request read (a Godot client's is about 200 bytes).
pub(super) const MAX_REQUEST: usize = 8192;
/// The most header lines an upgrade request may have.
pub(super) const MAX_HEADERS: usize = 32;
/// The most unwritten bytes a ping may find before it is answered: a client that pings
/// and does not read is closed instead of holding ever more pongs.
pub(super) const MAX_BACKLOG: usize = 1 << 20;
/// A write buffer larger than this after everything in it was written is let go, so that
/// a burst to one client does not stay with its connection.
pub(super) const KEEP_OUT: usize = 64 * 1024;

// RFC 6455 §5.2 opcodes.
pub(super) const CONTINUATION: u8 = 0x0;
pub(super) const TEXT: u8 = 0x1;
pub(super) const BINARY: u8 = 0x2;
pub(super) const CLOSE: u8 = 0x8;
pub(super) const PING: u8 = 0x9;
pub(super) const PONG: u8 = 0xA;

/// Close code (RFC 6455 §7.4.1) this side sends: normal closure.
pub const CLOSE_NORMAL: u16 = 1000;
/// Close code: a protocol error.
pub const CLOSE_PROTOCOL: u16 = 1002;
/// Close code: a text message that is not UTF-8.
pub const CLOSE_INVALID_DATA: u16 = 1007;
/// Close code: a policy violation (a frame that took too long, a ping flood).
pub const CLOSE_POLICY: u16 = 1008;
/// Close code: a message over the size limit.
pub const CLOSE_TOO_BIG: u16 = 1009;

/// Why a client's frame was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FrameError {
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
pub(super) struct Frame {
    pub(super) fin: bool,
    pub(super) opcode: u8,
    pub(super) start: usize,
    pub(super) len: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Parsed {
    Frame(Frame),
    /// The frame at the start is not all there: it needs this many bytes in all.
    Need(usize),
}

/// Whether a peer may send close code `code` (RFC 6455 §7.4.1–7.4.2 and IANA's registry:
/// the codes defined for a close frame, 1012 and 1013 registered since, and the ranges for
/// libraries and applications), as tungstenite's `CloseCode::is_allowed` has it, so that
/// the crate's client and server agree.
pub(super) fn peer_may_send(code: u16) -> bool {
    matches!(code, 1000..=1003 | 1007..=1013 | 3000..=4999)
}

/// Reads the client frame at the start of `buf`, unmasking its payload in place once it is
/// all there. The length field is checked against `max` before anything depends on it.
pub(super) fn parse(buf: &mut [u8], max: usize) -> Result<Parsed, FrameError> {
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
pub(super) fn unmask(data: &mut [u8], mask: [u8; 4]) {
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
pub(super) fn put_frame(out: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
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

/// What [`Frames::take`] stopped on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Every whole frame was read; [`Frames::read_space`] has room for at least the next
    /// byte the frame at the start needs.
    Need,
    /// The budget of frames was spent; more may be in the buffer.
    Budget,
    /// The connection is over: the close frame to send (an answer to the client's close,
    /// or this side's refusal) is queued; nothing more is read.
    Closed,
}

/// One connection's framing state, with no I/O: received bytes go into
/// [`read_space`](Self::read_space) and are announced with [`received`](Self::received);
/// [`take`](Self::take) reads the whole frames; [`unwritten`](Self::unwritten) is what
/// to send.
#[derive(Debug)]
pub struct Frames {
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

impl Frames {
    /// A connection that takes messages of at most `max_message` bytes, nothing read yet
    /// (the server's connections start with [`with_buffer`](Self::with_buffer), after
    /// their upgrade request; this is for the framing's tests and fuzz target).
    #[cfg(any(test, fuzzing))]
    pub fn new(max_message: usize) -> Self {
        Self::with_buffer(vec![0; READ_BUFFER], 0, 0, Vec::new(), max_message)
    }

    /// A connection whose bytes `buf[start..end]` were read already (after the upgrade
    /// request) and whose first frames to write are `out`.
    pub(super) fn with_buffer(
        buf: Vec<u8>,
        start: usize,
        end: usize,
        out: Vec<u8>,
        max_message: usize,
    ) -> Self {
        Frames {
            buf,
            start,
            end,
            message: Vec::new(),
            fragmented: false,
            text: false,
            text_checked: 0,
            out,
            written: 0,
            max_message,
        }
    }

    /// Where the next received bytes go (never empty after [`take`](Self::take) returned
    /// [`Step::Need`]).
    pub fn read_space(&mut self) -> &mut [u8] {
        &mut self.buf[self.end..]
    }

    /// `n` bytes were put at the start of [`read_space`](Self::read_space).
    pub fn received(&mut self, n: usize) {
        self.end = (self.end + n).min(self.buf.len());
    }

    /// Reads the whole frames received, handing each text or binary message (whole,
    /// reassembled from its fragments) to `on`, with whether it came as text and the
    /// connection's [`Replies`] (to answer it without a copy), until
    /// `*taken` reaches `budget` (every frame counts, so that a flood of pings, pongs or
    /// fragments yields to the other connections too), the bytes run out, or the
    /// connection ends. Pings are answered, a close is answered and ends the connection,
    /// as does a frame RFC 6455 refuses or a message over the size limit.
    pub fn take(
        &mut self,
        taken: &mut usize,
        budget: usize,
        on: &mut impl FnMut(&[u8], bool, &mut Replies<'_>),
    ) -> Step {
        while *taken < budget {
            let frame = match parse(&mut self.buf[self.start..self.end], self.max_message) {
                Ok(Parsed::Frame(f)) => f,
                Ok(Parsed::Need(n)) => {
                    self.make_room(n);
                    return Step::Need;
                }
                Err(FrameError::TooBig) => return self.fail(CLOSE_TOO_BIG),
                Err(_) => return self.fail(CLOSE_PROTOCOL),
            };
            let payload = self.start + frame.start..self.start + frame.start + frame.len;
            self.start = payload.end;
            *taken += 1;
            match frame.opcode {
                TEXT | BINARY if !self.fragmented => {
                    let text = frame.opcode == TEXT;
                    if frame.fin {
                        // A text message is UTF-8 (RFC 6455 §8.1), or the connection fails
                        // with 1007.
                        if text && std::str::from_utf8(&self.buf[payload.clone()]).is_err() {
                            return self.fail(CLOSE_INVALID_DATA);
                        }
                        on(&self.buf[payload], text, &mut Replies(&mut self.out));
                    } else {
                        self.message.clear();
                        self.message.extend_from_slice(&self.buf[payload]);
                        self.fragmented = true;
                        self.text = text;
                        self.text_checked = 0;
                        if !self.check_text(false) {
                            return self.fail(CLOSE_INVALID_DATA);
                        }
                    }
                }
                CONTINUATION if self.fragmented => {
                    if self.message.len().saturating_add(frame.len) > self.max_message {
                        return self.fail(CLOSE_TOO_BIG);
                    }
                    self.message.extend_from_slice(&self.buf[payload]);
                    // Fail fast: invalid UTF-8 is refused at the fragment that holds it,
                    // not at the message's end.
                    if !self.check_text(frame.fin) {
                        return self.fail(CLOSE_INVALID_DATA);
                    }
                    if frame.fin {
                        let text = self.text;
                        on(&self.message, text, &mut Replies(&mut self.out));
                        self.fragmented = false;
                        self.message = Vec::new();
                    }
                }
                PING => {
                    if self.out.len() - self.written > MAX_BACKLOG {
                        return self.fail(CLOSE_POLICY);
                    }
                    put_frame(&mut self.out, PONG, &self.buf[payload]);
                }
                PONG => {}
                CLOSE => {
                    // A body is a code RFC 6455 lets a peer send (§7.4) and a UTF-8 reason
                    // (§5.5.1), or the connection fails: 1002 for a 1-byte body or a code
                    // it may not send, 1007 for a reason that is not UTF-8. Otherwise
                    // answered with the client's code, or none.
                    let body = &self.buf[payload.clone()];
                    let code = match body.len() {
                        0 => &[][..],
                        1 => return self.fail(CLOSE_PROTOCOL),
                        _ => {
                            let c = u16::from_be_bytes([body[0], body[1]]);
                            if !peer_may_send(c) {
                                return self.fail(CLOSE_PROTOCOL);
                            }
                            if std::str::from_utf8(&body[2..]).is_err() {
                                return self.fail(CLOSE_INVALID_DATA);
                            }
                            &body[..2]
                        }
                    };
                    put_frame(&mut self.out, CLOSE, code);
                    return Step::Closed;
                }
                // A continuation with no message begun, or a new message inside one.
                _ => return self.fail(CLOSE_PROTOCOL),
            }
        }
        Step::Budget
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
    /// front, and a full buffer doubles (never past `need`). It grows only when the bytes
    /// received fill it, so a header that claims a long frame costs nothing until the
    /// frame's bytes come: the buffer is at most twice what was received.
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
        if need > self.buf.len() && self.end == self.buf.len() {
            let grown = need.min(self.buf.len().saturating_mul(2));
            self.buf.resize(grown, 0);
        }
    }

    /// Queues a close frame with `code`: the connection is over.
    fn fail(&mut self, code: u16) -> Step {
        self.queue_close(code);
        Step::Closed
    }

    /// Whether a frame has begun arriving and is not all there yet.
    pub fn in_frame(&self) -> bool {
        self.start < self.end
    }

    /// Queues `payload` as one binary message.
    pub fn queue(&mut self, payload: &[u8]) {
        Replies(&mut self.out).queue(false, payload);
    }

    /// Queues a close frame with `code` and no reason.
    pub fn queue_close(&mut self, code: u16) {
        put_frame(&mut self.out, CLOSE, &code.to_be_bytes());
    }

    /// The queued bytes not written yet.
    pub fn unwritten(&self) -> &[u8] {
        &self.out[self.written..]
    }

    /// `n` bytes of [`unwritten`](Self::unwritten) were written; once all are, the write
    /// buffer is reset (and let go if a burst made it large).
    pub fn wrote(&mut self, n: usize) {
        self.written = (self.written + n).min(self.out.len());
        if self.written == self.out.len() {
            self.written = 0;
            if self.out.capacity() > KEEP_OUT {
                self.out = Vec::new();
            } else {
                self.out.clear();
            }
        }
    }
}

/// A connection's write buffer, lent to the callback of [`Frames::take`] with the message
/// it is called for; [`Frames::queue`] writes through it too.
pub struct Replies<'a>(&'a mut Vec<u8>);

impl Replies<'_> {
    /// Queues `payload` as one message, text or binary (written by the link's next
    /// flush). The game server answers in binary; an echo that keeps the type (as the
    /// Autobahn suite expects) passes the type the message came in.
    pub fn queue(&mut self, text: bool, payload: &[u8]) {
        put_frame(self.0, if text { TEXT } else { BINARY }, payload);
    }
}
