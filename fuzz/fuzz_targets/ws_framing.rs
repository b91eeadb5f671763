//! The WebSocket server's framing (`wslink::Frames`, sans-IO) against byte streams cut
//! into arbitrary chunks as a socket delivers them, and the same streams through
//! tungstenite's server-side reading: the same messages (type and bytes), the same pings
//! answered, and the same end (the client's close, a refusal, or bytes running out).
//!
//! Where the two may differ, and why (fuzz/README.md lists them):
//! - the close code of a refusal (the RFC lets each side pick; only "refused" is compared);
//! - a frame refused on its first bytes: the framing refuses a reserved bit, a missing mask
//!   or a reserved opcode before the rest of the header is there; tungstenite reads the
//!   whole header first, so when the stream ends inside that header it sees only an
//!   unfinished frame;
//! - a close code no peer may send: tungstenite returns the close and answers 1002, the
//!   framing answers 1002 and returns nothing; both are counted as a refusal.
//!
//! Also: no panic; `read_space` is never empty when the framing needs bytes; what the
//! framing writes is well-formed server frames; its allocation stays within a small
//! multiple of the input, whatever length a header claims.
#![no_main]

use godot_bin_fuzz::{alloc_check_enabled, peak_during};
use godot_bin_multiplayer::internals::wslink::{Frames, Step};
use libfuzzer_sys::fuzz_target;
use std::io::{Read, Write};
use tungstenite::error::{CapacityError, Error, ProtocolError};
use tungstenite::protocol::{Role, WebSocket, WebSocketConfig};
use tungstenite::Message;

#[derive(Debug, Clone, PartialEq, Eq)]
enum End {
    /// The bytes ran out (inside a frame or between frames).
    Open,
    /// The client closed: the code it sent (if any).
    Closed(Option<u16>),
    /// The server refused the stream (tungstenite's side; the framing's refusal is its
    /// close code).
    Refused,
}

#[derive(Debug, PartialEq, Eq)]
struct Seen {
    messages: Vec<(bool, Vec<u8>)>,
    pings: Vec<Vec<u8>>,
    end: End,
}

/// Cuts `data` into the chunk lengths `cuts` gives (cycled, each 1..=256).
fn chunks<'a>(data: &'a [u8], cuts: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
    let mut rest = data;
    let mut i = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let n = if cuts.is_empty() {
            rest.len()
        } else {
            cuts[i % cuts.len()] as usize + 1
        };
        i += 1;
        let (a, b) = rest.split_at(n.min(rest.len()));
        rest = b;
        Some(a)
    })
}

/// Reads the server frames in `out` (each final, unmasked, RSV 0, the shortest length
/// form): pongs' payloads, and the close code if a close frame ends it.
fn server_frames(mut out: &[u8], pongs: &mut Vec<Vec<u8>>) -> Option<Option<u16>> {
    while !out.is_empty() {
        assert!(out.len() >= 2, "a cut server frame");
        let (b0, b1) = (out[0], out[1]);
        assert_eq!(b0 & 0xF0, 0x80, "final, no reserved bit");
        assert_eq!(b1 & 0x80, 0, "a server frame is not masked");
        let (len, at) = match b1 & 0x7F {
            126 => {
                let n = u16::from_be_bytes([out[2], out[3]]) as usize;
                assert!(n >= 126, "the shortest length form");
                (n, 4)
            }
            127 => {
                let n = u64::from_be_bytes(out[2..10].try_into().unwrap()) as usize;
                assert!(n > 0xFFFF, "the shortest length form");
                (n, 10)
            }
            n => (n as usize, 2),
        };
        let payload = &out[at..at + len];
        match b0 & 0x0F {
            0xA => pongs.push(payload.to_vec()),
            0x8 => {
                assert!(payload.len() != 1, "a close body is never one byte");
                assert_eq!(out.len(), at + len, "nothing after a close");
                return Some((len >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]])));
            }
            op => panic!("the framing wrote opcode {op} unasked"),
        }
        out = &out[at + len..];
    }
    None
}

fn ours(stream: &[u8], cuts: &[u8], max: usize, budget: usize) -> Seen {
    let mut f = Frames::new(max);
    let mut messages = Vec::new();
    let mut pongs = Vec::new();
    let mut pieces = chunks(stream, cuts);
    let mut piece: &[u8] = &[];
    let end = 'outer: loop {
        let mut taken = 0;
        let step = loop {
            match f.take(&mut taken, budget, &mut |m, text, _| {
                messages.push((text, m.to_vec()))
            }) {
                Step::Budget => taken = 0,
                step => break step,
            }
        };
        let out = f.unwritten().to_vec();
        f.wrote(out.len());
        let close = server_frames(&out, &mut pongs);
        if step == Step::Closed {
            let code = close.expect("a close frame ends the connection");
            // The client's own code answered (or an empty close answered empty), or
            // this side's refusal: told apart where the two are compared.
            break 'outer End::Closed(code);
        }
        assert!(close.is_none(), "a close frame only at the end");
        // Feed the next bytes, as much of the current piece as fits.
        if piece.is_empty() {
            match pieces.next() {
                Some(p) => piece = p,
                None => break End::Open,
            }
        }
        let space = f.read_space();
        assert!(!space.is_empty(), "no room for the byte the frame needs");
        let n = space.len().min(piece.len());
        space[..n].copy_from_slice(&piece[..n]);
        f.received(n);
        piece = &piece[n..];
    };
    Seen {
        messages,
        pings: pongs,
        end,
    }
}

/// A socket that hands out `data` in the given chunks and takes every write.
struct Chunked<'a> {
    pieces: Box<dyn Iterator<Item = &'a [u8]> + 'a>,
    piece: &'a [u8],
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.piece.is_empty() {
            match self.pieces.next() {
                Some(p) => self.piece = p,
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.piece.len());
        buf[..n].copy_from_slice(&self.piece[..n]);
        self.piece = &self.piece[n..];
        Ok(n)
    }
}

impl Write for Chunked<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn theirs(stream: &[u8], cuts: &[u8], max: usize) -> Seen {
    let socket = Chunked {
        pieces: Box::new(chunks(stream, cuts)),
        piece: &[],
    };
    let config = WebSocketConfig::default()
        .max_message_size(Some(max))
        .max_frame_size(Some(max));
    let mut ws = WebSocket::from_raw_socket(socket, Role::Server, Some(config));
    let mut messages = Vec::new();
    let mut pings = Vec::new();
    let end = loop {
        match ws.read() {
            Ok(Message::Text(t)) => messages.push((true, t.as_bytes().to_vec())),
            Ok(Message::Binary(b)) => messages.push((false, b.to_vec())),
            Ok(Message::Ping(p)) => pings.push(p.to_vec()),
            Ok(Message::Pong(_)) => {}
            Ok(Message::Close(c)) => {
                break match c {
                    Some(f) if !f.code.is_allowed() => End::Refused,
                    Some(f) => End::Closed(Some(u16::from(f.code))),
                    None => End::Closed(None),
                }
            }
            Ok(Message::Frame(_)) => unreachable!("a server reads no raw frames"),
            Err(Error::Protocol(ProtocolError::ResetWithoutClosingHandshake)) => break End::Open,
            Err(
                Error::Protocol(_)
                | Error::Utf8(_)
                | Error::Capacity(CapacityError::MessageTooLong { .. }),
            ) => break End::Refused,
            Err(e) => panic!("tungstenite: {e:?}"),
        }
    };
    Seen {
        messages,
        pings,
        end,
    }
}

/// Whether the frame at `at` in `stream` is not all there.
fn frame_cut(stream: &[u8], at: usize) -> bool {
    let rest = &stream[at.min(stream.len())..];
    if rest.len() < 2 {
        return true;
    }
    let (ext, len) = match rest[1] & 0x7F {
        126 if rest.len() >= 4 => (2, u64::from(u16::from_be_bytes([rest[2], rest[3]]))),
        127 if rest.len() >= 10 => (8, u64::from_be_bytes(rest[2..10].try_into().unwrap())),
        126 | 127 => return true,
        n => (0, u64::from(n)),
    };
    let mask = if rest[1] & 0x80 != 0 { 4 } else { 0 };
    ((2 + ext + mask) as u64).saturating_add(len) > rest.len() as u64
}

/// Builds a stream of client frames from a compact description, so that most inputs are
/// frames rather than noise: per frame a flags byte (FIN, RSV, mask or not, opcode), a
/// length byte and that many payload bytes, masked with a fixed key.
fn frames_from(spec: &[u8]) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::new();
    let mut starts = Vec::new();
    let mut s = spec;
    while s.len() >= 2 {
        let (flags, len) = (s[0], s[1] as usize);
        s = &s[2..];
        let payload = &s[..len.min(s.len())];
        s = &s[payload.len()..];
        starts.push(out.len());
        // bit 7 FIN, bits 6..4 RSV (kept rare: only when bit 3 is also set), bit 3..0 opcode
        let rsv = if flags & 0x08 != 0 && flags & 0x70 == 0x70 {
            0x40
        } else {
            0
        };
        let op = flags & 0x0F;
        let op = if flags & 0x08 != 0 && op >= 3 && op <= 7 && flags & 0x40 == 0 {
            op & 0x3
        } else {
            op
        };
        out.push((flags & 0x80) | rsv | op);
        let masked = flags & 0x30 != 0x30;
        let m = if masked { 0x80 } else { 0 };
        match payload.len() {
            n @ 0..=125 => out.push(m | n as u8),
            n => {
                out.push(m | 126);
                out.extend_from_slice(&(n as u16).to_be_bytes());
            }
        }
        let key = [0x1B, 0x2C, 0x3D, 0x4E];
        if masked {
            out.extend_from_slice(&key);
        }
        out.extend(
            payload
                .iter()
                .enumerate()
                .map(|(i, b)| if masked { b ^ key[i % 4] } else { *b }),
        );
    }
    (out, starts)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let max = [125, 1000, 4096, 1 << 16][(data[0] & 3) as usize];
    let budget = ((data[0] >> 2) & 3) as usize + 1;
    let structured = data[0] & 0x10 != 0;
    let ncuts = (data[1] % 16) as usize;
    let cuts = &data[2..(2 + ncuts).min(data.len())];
    let body = &data[(2 + ncuts).min(data.len())..];
    let (stream, _) = if structured {
        frames_from(body)
    } else {
        (body.to_vec(), Vec::new())
    };

    let (mine, peak) = peak_during(|| ours(&stream, cuts, max, budget));
    if alloc_check_enabled() {
        let bound = 16 * stream.len() + (64 << 10);
        assert!(
            peak <= bound,
            "{} bytes of stream allocated {peak} at peak (bound {bound})",
            stream.len()
        );
    }
    let other = theirs(&stream, cuts, max);

    assert_eq!(mine.messages, other.messages, "the same messages");
    assert_eq!(mine.pings, other.pings, "the same pings answered");
    let refusal = |c: &Option<u16>| matches!(c, Some(1002 | 1007 | 1009));
    match (&mine.end, &other.end) {
        (a, b) if a == b => {}
        (End::Closed(c), End::Refused) if refusal(c) => {}
        (End::Closed(c), End::Open) if refusal(c) => {
            // Explained only if the frame refused is the last one and not all there: the
            // framing refuses on a frame's header, tungstenite once the frame is whole.
            let last = last_frame(&stream);
            assert!(
                frame_cut(&stream, last),
                "refused where tungstenite read on: {mine:?} / {other:?}"
            );
            let before = ours(&stream[..last], cuts, max, budget);
            assert_eq!(
                before.end,
                End::Open,
                "refused before the last frame: {mine:?} / {other:?}"
            );
        }
        _ => panic!("different ends: ours {mine:?}, tungstenite {other:?}"),
    }
});

/// Where the last frame of `stream` starts, reading frame lengths as the headers give
/// them.
fn last_frame(stream: &[u8]) -> usize {
    let mut at = 0usize;
    loop {
        let rest = &stream[at..];
        if rest.len() < 2 {
            return at;
        }
        let (ext, len) = match rest[1] & 0x7F {
            126 if rest.len() >= 4 => (2, u16::from_be_bytes([rest[2], rest[3]]) as u64),
            127 if rest.len() >= 10 => (8, u64::from_be_bytes(rest[2..10].try_into().unwrap())),
            126 | 127 => return at,
            n => (0, n as u64),
        };
        let mask = if rest[1] & 0x80 != 0 { 4 } else { 0 };
        let end = ((2 + ext + mask) as u64).saturating_add(len);
        if end >= rest.len() as u64 {
            return at;
        }
        at += end as usize;
    }
}
