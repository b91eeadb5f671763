//! The Autobahn|Testsuite fuzzingclient's sections 1–7 and 9 (crossbario/autobahn-testsuite,
//! its case list and verdict rules), run against the server's framing over real sockets,
//! one fresh connection per case, each case's verdict given as Autobahn gives it and
//! printed as a table (case, verdict, close code, RFC 6455 section).
//!
//! The server under test is the link with an echo that answers a message in its own type
//! (`Replies::queue` with the message's own type), as the suite expects; the game server answers in binary
//! (it takes text messages as packets, as the engine does, and sends none). Two things the
//! suite does not do are done here: the client reads the server's greeting (the game's
//! first binary message, a peer id) before each case, and the pauses that wait for the
//! server are 200 ms where the suite waits 1 s. Stricter than the suite: where a case
//! expects the server to fail, the server must fail it (a close with an accepted code, or
//! dropping the socket), not merely stay silent; echoes are compared byte for byte, also
//! in section 9, where the suite compares only type and length.

use super::*;
use std::time::Duration;
use tokio::sync::mpsc;

mod cases;
use cases::{section_1_2_3_4_5, section_6, section_7, section_9};

/// An event the client records, as the suite records them.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ev {
    /// A whole data message: text or not, its payload.
    Msg(bool, Vec<u8>),
    Pong(Vec<u8>),
    /// A checkpoint, recorded only while the server has not closed.
    Mark(&'static str),
}

/// What the client's reader saw on the socket.
#[derive(Debug)]
enum Got {
    Ev(Ev),
    Close(Option<u16>),
    /// The socket ended (or was reset) with no close frame first.
    Eof,
    /// The server broke a rule of RFC 6455 for its frames.
    Violation(String),
}

/// How a case's frames are written (the suite's three modes).
#[derive(Debug, Clone, Copy)]
enum Write {
    /// All in one write.
    One,
    /// One write per frame, with a pause so each is its own segment.
    Sync,
    /// In pieces of this many bytes, one write each.
    Chop(usize),
}

#[derive(Debug, Clone)]
enum Act {
    Send(Vec<Vec<u8>>, Write),
    Pause(u64),
    Mark(&'static str),
    /// Sends a frame and waits for the next event (the suite's round-trip cases).
    RoundTrip(Vec<u8>),
}

/// Who should end the connection, and with which codes.
#[derive(Debug, Clone)]
enum Close {
    /// The client closes with 1000 once the events are in; the server answers 1000 or
    /// with an empty body, then closes the socket, each within a second.
    Echo,
    /// The server fails the connection: a close with one of these codes (or none), or
    /// the socket dropped.
    Fail(Vec<u16>),
    /// The case's own frames closed; the server answers with one of these codes (or an
    /// empty body) and closes the socket; `clean` if a reply is required.
    Answer(Vec<u16>, bool),
    /// Whatever happens is information, not a verdict (RFC 6455 leaves it open).
    Info,
}

#[derive(Debug, Clone)]
struct Case {
    id: String,
    rfc: &'static str,
    acts: Vec<Act>,
    ok: Vec<Ev>,
    non_strict: Option<(Vec<Ev>, &'static str)>,
    close: Close,
    /// How long the client waits for the expected events (the suite's kill timer).
    wait: Duration,
    max: usize,
}

fn case(
    id: impl Into<String>,
    rfc: &'static str,
    acts: Vec<Act>,
    ok: Vec<Ev>,
    close: Close,
) -> Case {
    Case {
        id: id.into(),
        rfc,
        acts,
        ok,
        non_strict: None,
        close,
        wait: Duration::from_secs(2),
        max: 16 << 20,
    }
}

const MASK: [u8; 4] = [0x37, 0xFA, 0x21, 0x3D];

fn fr(fin: bool, op: u8, payload: &[u8]) -> Vec<u8> {
    client_frame(fin, op, payload, MASK)
}

/// A frame with reserved bits `rsv` (1..=7) set.
fn fr_rsv(rsv: u8, op: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = fr(true, op, payload);
    f[0] |= rsv << 4;
    f
}

fn text(b: &[u8]) -> Vec<u8> {
    fr(true, TEXT, b)
}

fn send(frames: Vec<Vec<u8>>) -> Act {
    Act::Send(frames, Write::One)
}

fn close_body(code: u16, reason: &[u8]) -> Vec<u8> {
    let mut b = code.to_be_bytes().to_vec();
    b.extend_from_slice(reason);
    b
}

fn t(b: &[u8]) -> Ev {
    Ev::Msg(true, b.to_vec())
}

/// `pattern` repeated to `n` bytes.
fn repeat(pattern: &[u8], n: usize) -> Vec<u8> {
    pattern.iter().copied().cycle().take(n).collect()
}

/// Echoes every message in its own type until the connection ends; the socket is closed
/// when the link drops.
async fn serve_same_type(max: usize) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let mut link = accept(tcp, &[7, 0, 0, 0], max).await.unwrap();
        run_link(&mut link, 16, |m, text, replies| replies.queue(text, m)).await;
    });
    (addr, task)
}

/// Reads server frames, checking them as the suite's client does, and reports what it saw.
async fn reader(mut rd: tokio::net::tcp::OwnedReadHalf, tx: mpsc::UnboundedSender<Got>) {
    let mut message: Option<(bool, Vec<u8>)> = None;
    loop {
        let mut h = [0; 2];
        if rd.read_exact(&mut h).await.is_err() {
            let _ = tx.send(Got::Eof);
            return;
        }
        let bad = |why: &str| Got::Violation(why.to_string());
        if h[0] & 0x70 != 0 {
            let _ = tx.send(bad("a reserved bit set"));
            return;
        }
        if h[1] & 0x80 != 0 {
            let _ = tx.send(bad("a masked server frame"));
            return;
        }
        let len = match h[1] & 0x7F {
            126 => match rd.read_u16().await {
                Ok(n) if n >= 126 => n as usize,
                Ok(_) => return drop(tx.send(bad("a 16-bit length under 126"))),
                Err(_) => return drop(tx.send(Got::Eof)),
            },
            127 => match rd.read_u64().await {
                Ok(n) if n > 0xFFFF => n as usize,
                Ok(_) => return drop(tx.send(bad("a 64-bit length under 65536"))),
                Err(_) => return drop(tx.send(Got::Eof)),
            },
            n => n as usize,
        };
        // No allocation on the word of an unchecked length: nothing the server sends in
        // these cases is longer than the largest echo (16 MiB).
        if len > 16 << 20 {
            return drop(tx.send(bad("a frame longer than any message sent")));
        }
        let mut payload = vec![0; len];
        if rd.read_exact(&mut payload).await.is_err() {
            let _ = tx.send(Got::Eof);
            return;
        }
        let (fin, op) = (h[0] & 0x80 != 0, h[0] & 0x0F);
        let got = match op {
            PING | PONG | CLOSE if !fin || len > 125 => bad("a fragmented or long control frame"),
            PONG => Got::Ev(Ev::Pong(payload)),
            PING => continue,
            CLOSE if len == 1 => bad("a 1-byte close body"),
            CLOSE => {
                let code = close_code(&payload);
                if code.is_some_and(|c| !matches!(c, 1000..=1003 | 1007..=1011 | 3000..=4999)) {
                    bad("a close code a peer may not send")
                } else if std::str::from_utf8(&payload[2.min(len)..]).is_err() {
                    bad("a close reason that is not UTF-8")
                } else {
                    let _ = tx.send(Got::Close(code));
                    continue;
                }
            }
            TEXT | BINARY if message.is_none() => {
                if fin {
                    message_done(op == TEXT, payload)
                } else {
                    message = Some((op == TEXT, payload));
                    continue;
                }
            }
            CONTINUATION if message.is_some() => {
                let (kind, mut m) = message.take().unwrap();
                m.extend_from_slice(&payload);
                if fin {
                    message_done(kind, m)
                } else {
                    message = Some((kind, m));
                    continue;
                }
            }
            _ => bad("an opcode out of place"),
        };
        let stop = matches!(got, Got::Violation(_));
        if tx.send(got).is_err() || stop {
            return;
        }
    }
}

fn message_done(text: bool, payload: Vec<u8>) -> Got {
    if text && std::str::from_utf8(&payload).is_err() {
        Got::Violation("a text message that is not UTF-8".into())
    } else {
        Got::Ev(Ev::Msg(text, payload))
    }
}

/// What happened in one case, as the suite's report has it.
#[derive(Debug)]
struct Outcome {
    events: Vec<Ev>,
    /// The close code the server sent (`Some(None)`: an empty close), if it sent one.
    code: Option<Option<u16>>,
    /// The server sent its close before the client sent one.
    server_first: bool,
    /// The close handshake finished and the server closed the socket, each in time.
    clean: bool,
    violation: Option<String>,
}

struct Conn {
    wr: tokio::net::tcp::OwnedWriteHalf,
    rx: mpsc::UnboundedReceiver<Got>,
    out: Outcome,
    /// The server closed or the socket ended: no more events are recorded.
    ended: bool,
    eof: bool,
}

impl Conn {
    fn take(&mut self, got: Got) {
        match got {
            Got::Ev(e) if !self.ended => self.out.events.push(e),
            Got::Ev(_) => {}
            Got::Close(c) => {
                if self.out.code.is_none() {
                    self.out.code = Some(c);
                }
                self.ended = true;
            }
            Got::Eof => {
                self.ended = true;
                self.eof = true;
            }
            Got::Violation(v) => {
                self.out.violation.get_or_insert(v);
                self.ended = true;
                self.eof = true;
            }
        }
    }

    /// Takes what has arrived.
    fn drain(&mut self) {
        while let Ok(g) = self.rx.try_recv() {
            self.take(g);
        }
    }

    /// Waits up to `d` for the next report; whether one came.
    async fn next(&mut self, d: Duration) -> bool {
        match tokio::time::timeout(d, self.rx.recv()).await {
            Ok(Some(g)) => {
                self.take(g);
                true
            }
            _ => false,
        }
    }

    async fn write(&mut self, bytes: &[u8]) {
        if !self.ended {
            // A refused connection may be gone before the rest is written.
            let _ = self.wr.write_all(bytes).await;
        }
    }

    /// The client's close: `code` (or none), then the server's answer and the socket's
    /// end, each within a second.
    async fn close(&mut self, code: Option<u16>) {
        let body = code.map(|c| c.to_be_bytes().to_vec()).unwrap_or_default();
        self.write(&fr(true, CLOSE, &body)).await;
        self.finish().await;
    }

    /// Waits for the server's close frame and the socket's end (a second each).
    async fn finish(&mut self) {
        while self.out.code.is_none() && !self.eof {
            if !self.next(Duration::from_secs(1)).await {
                return;
            }
        }
        while !self.eof {
            if !self.next(Duration::from_secs(1)).await {
                return;
            }
        }
        self.out.clean = self.out.code.is_some();
    }
}

async fn run(c: &Case) -> Outcome {
    let (addr, server) = serve_same_type(c.max).await;
    let (mut tcp, _) = upgrade(addr, &[]).await;
    assert_eq!(
        read_frame(&mut tcp).await,
        (BINARY, vec![7, 0, 0, 0]),
        "the greeting"
    );
    let (rd, wr) = tcp.into_split();
    let (tx, rx) = mpsc::unbounded_channel();
    let reading = tokio::spawn(reader(rd, tx));
    let mut conn = Conn {
        wr,
        rx,
        out: Outcome {
            events: Vec::new(),
            code: None,
            server_first: false,
            clean: false,
            violation: None,
        },
        ended: false,
        eof: false,
    };
    for act in &c.acts {
        match act {
            Act::Send(frames, Write::One) => conn.write(&frames.concat()).await,
            Act::Send(frames, Write::Sync) => {
                for f in frames {
                    conn.write(f).await;
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            }
            Act::Send(frames, Write::Chop(n)) => {
                for piece in frames.concat().chunks(*n) {
                    conn.write(piece).await;
                    tokio::task::yield_now().await;
                }
            }
            Act::Pause(ms) => tokio::time::sleep(Duration::from_millis(*ms)).await,
            Act::Mark(tag) => {
                conn.drain();
                if !conn.ended {
                    conn.out.events.push(Ev::Mark(tag));
                }
            }
            Act::RoundTrip(f) => {
                conn.write(f).await;
                let before = conn.out.events.len();
                while conn.out.events.len() == before && !conn.ended {
                    if !conn.next(c.wait).await {
                        break;
                    }
                }
            }
        }
        conn.drain();
        if conn.out.code.is_some() && !conn.eof {
            conn.out.server_first = true;
        }
    }
    conn.drain();
    let deadline = tokio::time::Instant::now() + c.wait;
    match &c.close {
        Close::Echo => {
            // Wait for the expected events, then close.
            while conn.out.events.len() < c.ok.len() && !conn.ended {
                let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                if left.is_zero() || !conn.next(left).await {
                    break;
                }
            }
            if conn.out.code.is_some() || conn.eof {
                conn.out.server_first = true;
            } else {
                conn.close(Some(CLOSE_NORMAL)).await;
            }
        }
        Close::Fail(_) => {
            while !conn.ended {
                let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                if left.is_zero() || !conn.next(left).await {
                    break;
                }
            }
            if conn.ended {
                conn.out.server_first = true;
                if conn.out.code.is_some() && !conn.eof {
                    // The client answers the server's close, as the suite does.
                    conn.write(&fr(true, CLOSE, &1000u16.to_be_bytes())).await;
                }
                conn.finish().await;
            } else {
                // The suite's kill timer: the client gives up with 1001.
                conn.close(Some(1001)).await;
            }
        }
        Close::Answer(..) | Close::Info => {
            // The case's frames held the client's close.
            conn.finish().await;
        }
    }
    drop(conn.wr);
    let _ = tokio::time::timeout(Duration::from_secs(2), reading).await;
    let _ = tokio::time::timeout(Duration::from_secs(2), server).await;
    conn.out
}

/// The suite's verdict for a case: OK, NON-STRICT (with why), INFORMATIONAL or FAILED
/// (with why).
fn verdict(c: &Case, o: &Outcome) -> (String, Option<String>) {
    if let Some(v) = &o.violation {
        return ("FAILED".into(), Some(format!("the server sent {v}")));
    }
    if matches!(c.close, Close::Info) {
        return ("INFORMATIONAL".into(), None);
    }
    let behaviour = if o.events == c.ok {
        Ok(None)
    } else if let Some((ns, why)) = c.non_strict.as_ref().filter(|(ns, _)| *ns == o.events) {
        let _ = ns;
        Ok(Some(*why))
    } else {
        Err(format!(
            "events {:?}, expected {:?}",
            short(&o.events),
            short(&c.ok)
        ))
    };
    let code_ok = |codes: &[u16]| match o.code {
        None | Some(None) => true,
        Some(Some(code)) => codes.contains(&code),
    };
    let close = match &c.close {
        Close::Echo if o.server_first => Err("the server closed first".to_string()),
        Close::Echo if !o.clean => Err("the close was not clean".to_string()),
        Close::Echo if !code_ok(&[1000]) => Err(format!("close code {:?}", o.code)),
        Close::Fail(_) if !o.server_first => Err("the server did not fail the connection".into()),
        Close::Fail(codes) if !code_ok(codes) => {
            Err(format!("close code {:?}, wanted {codes:?}", o.code))
        }
        Close::Answer(_, true) if !o.clean => Err("the close was not clean".into()),
        Close::Answer(codes, _) if !code_ok(codes) => {
            Err(format!("close code {:?}, wanted {codes:?}", o.code))
        }
        _ => Ok(()),
    };
    match (behaviour, close) {
        (Err(why), _) | (_, Err(why)) => ("FAILED".into(), Some(why)),
        (Ok(Some(why)), Ok(())) => ("NON-STRICT".into(), Some(why.into())),
        (Ok(None), Ok(())) => ("OK".into(), None),
    }
}

/// Events with long payloads shortened, for a readable failure.
fn short(evs: &[Ev]) -> Vec<String> {
    evs.iter()
        .map(|e| match e {
            Ev::Msg(t, p) if p.len() > 16 => format!("Msg({t}, {} bytes)", p.len()),
            e => format!("{e:?}"),
        })
        .collect()
}

/// Each case's verdict as the committed table in the crate's `docs/websocket.md` records
/// it: a case that now gets another verdict (OK become NON-STRICT, say) fails the run.
fn recorded_verdicts() -> std::collections::HashMap<String, String> {
    include_str!("../../../../docs/websocket.md")
        .lines()
        .filter_map(|l| {
            let mut cols = l.strip_prefix("| ")?.split(" | ");
            let (case, verdict) = (cols.next()?, cols.next()?);
            case.starts_with(|c: char| c.is_ascii_digit())
                .then(|| (case.to_owned(), verdict.to_owned()))
        })
        .collect()
}

/// Runs the cases one after the other and prints the table; fails on any FAILED and on
/// any verdict other than the one the committed table records. Returns how many ran.
async fn run_all(cases: impl IntoIterator<Item = Case>) -> usize {
    let recorded = recorded_verdicts();
    println!("| case | verdict | close code | RFC 6455 § | note |");
    println!("|---|---|---|---|---|");
    let mut failed = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    let mut ran = 0;
    for c in cases {
        ran += 1;
        let o = run(&c).await;
        let (v, why) = verdict(&c, &o);
        let code = match o.code {
            Some(Some(c)) => c.to_string(),
            Some(None) => "empty".into(),
            None => "none (socket closed)".into(),
        };
        println!(
            "| {} | {v} | {code} | §{} | {} |",
            c.id,
            c.rfc,
            why.clone().unwrap_or_default()
        );
        *counts.entry(v.clone()).or_default() += 1;
        if v == "FAILED" {
            failed.push(format!("{}: {}", c.id, why.clone().unwrap_or_default()));
        }
        match recorded.get(c.id.as_str()) {
            Some(r) if *r == v => {}
            r => failed.push(format!(
                "{}: {v}, where docs/websocket.md records {r:?}",
                c.id
            )),
        }
    }
    println!("{counts:?}");
    assert!(failed.is_empty(), "failed cases: {failed:#?}");
    ran
}

/// Sections 1–5: framing, pings, reserved bits, opcodes, fragmentation.
#[tokio::test]
async fn autobahn_sections_1_to_5() {
    let cases = section_1_2_3_4_5();
    assert_eq!(cases.len(), 16 + 11 + 7 + 10 + 20, "the suite's count");
    run_all(cases).await;
}

/// Section 6: UTF-8.
#[tokio::test]
async fn autobahn_section_6() {
    let cases = section_6();
    assert_eq!(cases.len(), 145, "the suite's count");
    run_all(cases).await;
}

/// Section 7: closing.
#[tokio::test]
async fn autobahn_section_7() {
    let cases = section_7();
    assert_eq!(cases.len(), 37, "the suite's count");
    run_all(cases).await;
}

/// Section 9: limits and performance, with the server taking messages up to 16 MiB (the
/// game server's default is 1 MiB: larger messages are refused with 1009, RFC 6455
/// §7.4.1 and §10.4, which the suite counts as failures of a limits case).
#[tokio::test]
async fn autobahn_section_9() {
    let cases = section_9();
    assert_eq!(cases.len(), 54, "the suite's count");
    assert_eq!(run_all(cases.iter().map(|c| c())).await, 54);
}

/// Section 9's messages above the game server's default limit (1 MiB), at that limit:
/// refused with 1009 as soon as the header (or the fragments' running total) is over it.
#[tokio::test]
async fn messages_over_the_default_limit_close_with_1009() {
    let cases = section_9();
    let over = cases
        .iter()
        .map(|c| c())
        .filter(|c| matches!(&c.ok[..], [Ev::Msg(_, p)] if p.len() > 1 << 20))
        .map(|mut c| {
            c.max = 1 << 20;
            c.close = Close::Fail(vec![1009]);
            c.ok = Vec::new();
            c.wait = Duration::from_secs(10);
            c
        });
    assert_eq!(run_all(over).await, 3 + 3 + 9 + 9);
}
