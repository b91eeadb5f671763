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

fn section_1_2_3_4_5() -> Vec<Case> {
    let mut cases = Vec::new();
    let echo = Close::Echo;
    let fail = || Close::Fail(vec![1002]);
    // §1: text and binary messages of each length form.
    for (i, (n, w)) in [
        (0, None),
        (125, None),
        (126, None),
        (127, None),
        (128, None),
        (65535, None),
        (65536, None),
        (65536, Some(997)),
    ]
    .into_iter()
    .enumerate()
    {
        for (sub, op, byte) in [(1, TEXT, b'*'), (2, BINARY, 0xFE)] {
            let p = vec![byte; n];
            let acts = vec![Act::Send(
                vec![fr(true, op, &p)],
                w.map_or(Write::One, Write::Chop),
            )];
            let mut c = case(
                format!("1.{sub}.{}", i + 1),
                "5.2, 5.6",
                acts,
                vec![Ev::Msg(op == TEXT, p)],
                echo.clone(),
            );
            c.wait = Duration::from_secs(10);
            cases.push(c);
        }
    }
    cases.sort_by_key(|c| c.id.clone());
    // §2: pings and pongs.
    let hello = b"Hello, world!";
    let bin8 = [0x00, 0xff, 0xfe, 0xfd, 0xfc, 0xfb, 0x00, 0xff];
    let p125 = vec![0xFE; 125];
    cases.push(case(
        "2.1",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, b"")])],
        vec![Ev::Pong(vec![])],
        echo.clone(),
    ));
    cases.push(case(
        "2.2",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, hello)])],
        vec![Ev::Pong(hello.to_vec())],
        echo.clone(),
    ));
    cases.push(case(
        "2.3",
        "5.5.2, 5.5.3",
        vec![send(vec![fr(true, PING, &bin8)])],
        vec![Ev::Pong(bin8.to_vec())],
        echo.clone(),
    ));
    cases.push(case(
        "2.4",
        "5.5",
        vec![send(vec![fr(true, PING, &p125)])],
        vec![Ev::Pong(p125.clone())],
        echo.clone(),
    ));
    cases.push(case(
        "2.5",
        "5.5",
        vec![send(vec![fr(true, PING, &[0xFE; 126])])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "2.6",
        "5.5.2",
        vec![Act::Send(vec![fr(true, PING, &p125)], Write::Chop(1))],
        vec![Ev::Pong(p125)],
        echo.clone(),
    ));
    cases.push(case(
        "2.7",
        "5.5.3",
        vec![send(vec![fr(true, PONG, b"")])],
        vec![],
        echo.clone(),
    ));
    cases.push(case(
        "2.8",
        "5.5.3",
        vec![send(vec![fr(true, PONG, b"unsolicited pong payload")])],
        vec![],
        echo.clone(),
    ));
    cases.push(case(
        "2.9",
        "5.5.2, 5.5.3",
        vec![send(vec![
            fr(true, PONG, b"unsolicited pong payload"),
            fr(true, PING, b"ping payload"),
        ])],
        vec![Ev::Pong(b"ping payload".to_vec())],
        echo.clone(),
    ));
    let pings: Vec<Vec<u8>> = (0..10)
        .map(|i| format!("payload-{i}").into_bytes())
        .collect();
    let pongs: Vec<Ev> = pings.iter().cloned().map(Ev::Pong).collect();
    cases.push(case(
        "2.10",
        "5.5.3",
        vec![Act::Send(
            pings.iter().map(|p| fr(true, PING, p)).collect(),
            Write::Sync,
        )],
        pongs.clone(),
        echo.clone(),
    ));
    cases.push(case(
        "2.11",
        "5.5.3",
        vec![Act::Send(
            pings.iter().map(|p| fr(true, PING, p)).collect(),
            Write::Chop(1),
        )],
        pongs,
        echo.clone(),
    ));
    // §3: reserved bits.
    let no_echo = "the server failed before echoing the message in front of the bad frame";
    cases.push(case(
        "3.1",
        "5.2",
        vec![send(vec![fr_rsv(1, TEXT, hello)])],
        vec![],
        fail(),
    ));
    for (id, rsv, w) in [
        ("3.2", 2, Write::One),
        ("3.3", 3, Write::Sync),
        ("3.4", 4, Write::Chop(1)),
    ] {
        let mut c = case(
            id,
            "5.2",
            vec![Act::Send(
                vec![text(hello), fr_rsv(rsv, TEXT, hello), fr(true, PING, b"")],
                w,
            )],
            vec![t(hello)],
            fail(),
        );
        c.non_strict = Some((vec![], no_echo));
        cases.push(c);
    }
    cases.push(case(
        "3.5",
        "5.2",
        vec![send(vec![fr_rsv(5, BINARY, &bin8)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "3.6",
        "5.2",
        vec![send(vec![fr_rsv(6, BINARY, hello)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "3.7",
        "5.2",
        vec![send(vec![fr_rsv(7, CLOSE, b"")])],
        vec![],
        fail(),
    ));
    // §4: reserved opcodes, alone and after a valid message.
    let reserved = b"reserved opcode payload";
    for (id, op, lead, w) in [
        ("4.1.1", 3, false, Write::One),
        ("4.1.2", 4, false, Write::One),
        ("4.1.3", 5, true, Write::One),
        ("4.1.4", 6, true, Write::One),
        ("4.1.5", 7, true, Write::Chop(1)),
        ("4.2.1", 11, false, Write::One),
        ("4.2.2", 12, false, Write::One),
        ("4.2.3", 13, true, Write::One),
        ("4.2.4", 14, true, Write::One),
        ("4.2.5", 15, true, Write::Chop(1)),
    ] {
        let body: &[u8] = if matches!(op, 3 | 5 | 11 | 13) {
            b""
        } else {
            reserved
        };
        let mut frames = vec![fr(true, op, body)];
        if lead {
            frames.insert(0, text(hello));
            frames.push(fr(true, PING, b""));
        }
        let mut c = case(
            id,
            "5.2",
            vec![Act::Send(frames, w)],
            if lead { vec![t(hello)] } else { vec![] },
            fail(),
        );
        if lead {
            c.non_strict = Some((vec![], no_echo));
        }
        cases.push(c);
    }
    // §5: fragmentation.
    let (f1, f2) = (b"fragment1", b"fragment2");
    cases.push(case(
        "5.1",
        "5.4, 5.5",
        vec![send(vec![fr(false, PING, f1), fr(true, CONTINUATION, f2)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.2",
        "5.4, 5.5",
        vec![send(vec![fr(false, PONG, f1), fr(true, CONTINUATION, f2)])],
        vec![],
        fail(),
    ));
    let two = vec![fr(false, TEXT, f1), fr(true, CONTINUATION, f2)];
    for (id, w) in [
        ("5.3", Write::One),
        ("5.4", Write::Sync),
        ("5.5", Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(two.clone(), w)],
            vec![t(b"fragment1fragment2")],
            echo.clone(),
        ));
    }
    let with_ping = vec![
        fr(false, TEXT, f1),
        fr(true, PING, b"ping payload"),
        fr(true, CONTINUATION, f2),
    ];
    for (id, w) in [
        ("5.6", Write::One),
        ("5.7", Write::Sync),
        ("5.8", Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(with_ping.clone(), w)],
            vec![Ev::Pong(b"ping payload".to_vec()), t(b"fragment1fragment2")],
            echo.clone(),
        ));
    }
    for (id, fin, w) in [
        ("5.9", true, Write::One),
        ("5.10", true, Write::Sync),
        ("5.11", true, Write::Chop(1)),
        ("5.12", false, Write::One),
        ("5.13", false, Write::Sync),
        ("5.14", false, Write::Chop(1)),
    ] {
        cases.push(case(
            id,
            "5.4",
            vec![Act::Send(
                vec![
                    fr(fin, CONTINUATION, b"non-continuation payload"),
                    text(hello),
                ],
                w,
            )],
            vec![],
            fail(),
        ));
    }
    let mut c = case(
        "5.15",
        "5.4",
        vec![send(vec![
            fr(false, TEXT, f1),
            fr(true, CONTINUATION, f2),
            fr(false, CONTINUATION, b"fragment3"),
            fr(true, TEXT, b"fragment4"),
        ])],
        vec![t(b"fragment1fragment2")],
        fail(),
    );
    c.non_strict = Some((vec![], no_echo));
    cases.push(c);
    let trio = |first_fin: bool| {
        vec![
            fr(first_fin, CONTINUATION, f1),
            fr(false, TEXT, f2),
            fr(true, CONTINUATION, b"fragment3"),
        ]
    };
    cases.push(case(
        "5.16",
        "5.4",
        vec![send([trio(false), trio(false)].concat())],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.17",
        "5.4",
        vec![send([trio(true), trio(true)].concat())],
        vec![],
        fail(),
    ));
    cases.push(case(
        "5.18",
        "5.4",
        vec![send(vec![fr(false, TEXT, f1), fr(true, TEXT, f2)])],
        vec![],
        fail(),
    ));
    for (id, w) in [("5.19", Write::One), ("5.20", Write::Sync)] {
        let acts = vec![
            Act::Send(
                vec![
                    fr(false, TEXT, f1),
                    fr(false, CONTINUATION, f2),
                    fr(true, PING, b"pongme 1!"),
                ],
                w,
            ),
            Act::Pause(200),
            // The first pong came while the message is still unfinished.
            Act::Mark("pause"),
            Act::Send(
                vec![
                    fr(false, CONTINUATION, b"fragment3"),
                    fr(false, CONTINUATION, b"fragment4"),
                    fr(true, PING, b"pongme 2!"),
                    fr(true, CONTINUATION, b"fragment5"),
                ],
                w,
            ),
        ];
        let ok = vec![
            Ev::Pong(b"pongme 1!".to_vec()),
            Ev::Mark("pause"),
            Ev::Pong(b"pongme 2!".to_vec()),
            t(b"fragment1fragment2fragment3fragment4fragment5"),
        ];
        cases.push(case(id, "5.4, 5.5.2", acts, ok, echo.clone()));
    }
    cases
}

/// UTF-8 payloads of 6.5–6.23 (Markus Kuhn's decoder test data, as the suite has them).
fn utf8_families() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let h = |s: &str| -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
            .collect()
    };
    let hs = |v: &[&str]| v.iter().map(|s| h(s)).collect::<Vec<_>>();
    let kosme = h("cebae1bdb9cf83cebcceb5");
    vec![
        (
            "6.5",
            hs(&[
                "68656c6c6f24776f726c64",
                "68656c6c6fc2a2776f726c64",
                "68656c6c6fe282ac776f726c64",
                "68656c6c6ff0a4ada2776f726c64",
                "cebae1bdb9cf83cebcceb5",
            ]),
        ),
        ("6.6", (1..=11).map(|n| kosme[..n].to_vec()).collect()),
        ("6.7", hs(&["00", "c280", "e0a080", "f0908080"])),
        ("6.8", hs(&["f888808080", "fc8480808080"])),
        ("6.9", hs(&["7f", "dfbf", "efbfbf", "f48fbfbf"])),
        ("6.10", hs(&["f7bfbfbf", "fbbfbfbfbf", "fdbfbfbfbfbf"])),
        (
            "6.11",
            hs(&["ed9fbf", "ee8080", "efbfbd", "f48fbfbf", "f4908080"]),
        ),
        ("6.12", {
            let mut v = hs(&[
                "80",
                "bf",
                "80bf",
                "80bf80",
                "80bf80bf",
                "80bf80bf80",
                "80bf80bf80bf",
            ]);
            v.push((0x80..=0xbe).collect());
            v
        }),
        (
            "6.13",
            vec![
                (0xc0..=0xdeu8).flat_map(|b| [b, 0x20]).collect(),
                (0xe0..=0xeeu8).flat_map(|b| [b, 0x20]).collect(),
                h("f020f120f220f320f420f520f620"),
                h("f820f920fa20"),
                h("fc20"),
            ],
        ),
        (
            "6.14",
            hs(&[
                "c0",
                "e080",
                "f08080",
                "f8808080",
                "fc80808080",
                "df",
                "efbf",
                "f7bfbf",
                "fbbfbfbf",
                "fdbfbfbfbf",
            ]),
        ),
        (
            "6.15",
            hs(&["c0e080f08080f8808080fc80808080dfefbff7bfbffbbfbfbffdbfbfbfbf"]),
        ),
        ("6.16", hs(&["fe", "ff", "fefeffff"])),
        (
            "6.17",
            hs(&["c0af", "e080af", "f08080af", "f8808080af", "fc80808080af"]),
        ),
        (
            "6.18",
            hs(&["c1bf", "e09fbf", "f08fbfbf", "f887bfbfbf", "fc83bfbfbfbf"]),
        ),
        (
            "6.19",
            hs(&["c080", "e08080", "f0808080", "f880808080", "fc8080808080"]),
        ),
        (
            "6.20",
            hs(&[
                "eda080", "edadbf", "edae80", "edafbf", "edb080", "edbe80", "edbfbf",
            ]),
        ),
        (
            "6.21",
            hs(&[
                "eda080edb080",
                "eda080edbfbf",
                "edadbfedb080",
                "edadbfedbfbf",
                "edae80edb080",
                "edae80edbfbf",
                "edafbfedb080",
                "edafbfedbfbf",
            ]),
        ),
        (
            "6.22",
            (0..17u32)
                .flat_map(|plane| {
                    let base = if plane == 0 {
                        0xFFFE
                    } else {
                        plane * 0x10000 + 0xFFFE
                    };
                    [base, base + 1].map(|c| char::from_u32(c).unwrap().to_string().into_bytes())
                })
                .collect(),
        ),
        (
            "6.23",
            (0xFFF9..=0xFFFFu32)
                .map(|c| char::from_u32(c).unwrap().to_string().into_bytes())
                .collect(),
        ),
    ]
}

fn section_6() -> Vec<Case> {
    let mut cases = Vec::new();
    let echo = Close::Echo;
    let fail = || Close::Fail(vec![1007]);
    cases.push(case(
        "6.1.1",
        "5.6",
        vec![send(vec![text(b"")])],
        vec![t(b"")],
        echo.clone(),
    ));
    cases.push(case(
        "6.1.2",
        "5.4, 5.6",
        vec![send(vec![
            fr(false, TEXT, b""),
            fr(false, CONTINUATION, b""),
            fr(true, CONTINUATION, b""),
        ])],
        vec![t(b"")],
        echo.clone(),
    ));
    cases.push(case(
        "6.1.3",
        "5.4, 5.6",
        vec![send(vec![
            fr(false, TEXT, b""),
            fr(false, CONTINUATION, b"middle frame payload"),
            fr(true, CONTINUATION, b""),
        ])],
        vec![t(b"middle frame payload")],
        echo.clone(),
    ));
    let greek = "Hello-µ@ßöäüàá-UTF-8!!".as_bytes();
    let kosme = "κόσμε".as_bytes();
    let one_byte_frames = |p: &[u8]| -> Vec<Vec<u8>> {
        let n = p.len();
        p.iter()
            .enumerate()
            .map(|(i, b)| fr(i + 1 == n, if i == 0 { TEXT } else { CONTINUATION }, &[*b]))
            .collect()
    };
    cases.push(case(
        "6.2.1",
        "8.1",
        vec![send(vec![text(greek)])],
        vec![t(greek)],
        echo.clone(),
    ));
    let cut = "Hello-µ@ßöä".len();
    cases.push(case(
        "6.2.2",
        "8.1",
        vec![send(vec![
            fr(false, TEXT, &greek[..cut]),
            fr(true, CONTINUATION, &greek[cut..]),
        ])],
        vec![t(greek)],
        echo.clone(),
    ));
    cases.push(case(
        "6.2.3",
        "8.1",
        vec![send(one_byte_frames(greek))],
        vec![t(greek)],
        echo.clone(),
    ));
    cases.push(case(
        "6.2.4",
        "8.1",
        vec![send(one_byte_frames(kosme))],
        vec![t(kosme)],
        echo.clone(),
    ));
    let bad = [kosme, &[0xed, 0xa0, 0x80], b"edited"].concat();
    cases.push(case(
        "6.3.1",
        "8.1",
        vec![send(vec![text(&bad)])],
        vec![],
        fail(),
    ));
    cases.push(case(
        "6.3.2",
        "8.1",
        vec![send(one_byte_frames(&bad))],
        vec![],
        fail(),
    ));
    // 6.4: fail fast, across fragments (6.4.1, 6.4.2) and inside one frame (6.4.3, 6.4.4).
    let fast =
        "the frame's payload is checked once the frame is whole, so the connection fails at \
                the end of the frame that holds the invalid bytes, not inside it";
    let pieces_a: [&[u8]; 3] = [kosme, &[0xf4, 0x90, 0x80, 0x80], b"edited"];
    let pieces_b: [Vec<u8>; 3] = [
        [kosme, &[0xf4][..]].concat(),
        vec![0x90],
        [&[0x80, 0x80][..], b"edited"].concat(),
    ];
    for (id, pieces) in [
        ("6.4.1", pieces_a.map(<[u8]>::to_vec)),
        ("6.4.2", pieces_b.clone()),
    ] {
        let acts = vec![
            send(vec![fr(false, TEXT, &pieces[0])]),
            Act::Pause(200),
            Act::Mark("A"),
            send(vec![fr(false, CONTINUATION, &pieces[1])]),
            Act::Pause(200),
            Act::Mark("B"),
            send(vec![fr(true, CONTINUATION, &pieces[2])]),
        ];
        let mut c = case(id, "8.1", acts, vec![Ev::Mark("A")], fail());
        c.non_strict = Some((
            vec![Ev::Mark("A"), Ev::Mark("B")],
            "fails at the message's end",
        ));
        cases.push(c);
    }
    for (id, pieces) in [("6.4.3", pieces_a.map(<[u8]>::to_vec)), ("6.4.4", pieces_b)] {
        let whole = text(&pieces.concat());
        let header = whole.len() - pieces.concat().len();
        let (a, rest) = whole.split_at(header + pieces[0].len());
        let (b2, c2) = rest.split_at(pieces[1].len());
        let acts = vec![
            send(vec![a.to_vec()]),
            Act::Pause(200),
            Act::Mark("A"),
            send(vec![b2.to_vec()]),
            Act::Pause(200),
            Act::Mark("B"),
            send(vec![c2.to_vec()]),
        ];
        let mut c = case(id, "8.1", acts, vec![Ev::Mark("A")], fail());
        c.non_strict = Some((vec![Ev::Mark("A"), Ev::Mark("B")], fast));
        cases.push(c);
    }
    for (family, payloads) in utf8_families() {
        for (i, p) in payloads.into_iter().enumerate() {
            let id = format!("{family}.{}", i + 1);
            let mut c = if std::str::from_utf8(&p).is_ok() {
                case(
                    id,
                    "5.6, 8.1",
                    vec![send(vec![text(&p)])],
                    vec![t(&p)],
                    echo.clone(),
                )
            } else {
                case(id, "5.6, 8.1", vec![send(vec![text(&p)])], vec![], fail())
            };
            c.wait = Duration::from_millis(500);
            cases.push(c);
        }
    }
    cases
}

fn section_7() -> Vec<Case> {
    let mut cases = Vec::new();
    let close = |b: &[u8]| fr(true, CLOSE, b);
    let c1000 = close_body(1000, b"");
    let answer = || Close::Answer(vec![1000], true);
    let hw = b"Hello World!";
    cases.push(case(
        "7.1.1",
        "5.5.1, 7.1.2",
        vec![send(vec![text(hw)])],
        vec![t(hw)],
        Close::Echo,
    ));
    cases.push(case(
        "7.1.2",
        "5.5.1",
        vec![send(vec![close(&c1000), close(b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.3",
        "5.5.1, 5.5.2",
        vec![send(vec![close(&c1000), fr(true, PING, b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.4",
        "5.5.1",
        vec![send(vec![close(&c1000), text(hw)])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.5",
        "5.4, 5.5.1",
        vec![send(vec![
            fr(false, TEXT, b"fragment1"),
            close(&c1000),
            fr(true, CONTINUATION, b"fragment2"),
        ])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.1.6",
        "5.5.1",
        vec![send(vec![
            text(&repeat(b"BAsd7&jh23", 262_144)),
            text(hw),
            close(&c1000),
            fr(true, PING, b""),
        ])],
        vec![],
        Close::Info,
    ));
    cases.push(case(
        "7.3.1",
        "5.5.1",
        vec![send(vec![close(b"")])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.2",
        "5.5.1",
        vec![send(vec![close(b"a")])],
        vec![],
        Close::Answer(vec![1002], false),
    ));
    cases.push(case(
        "7.3.3",
        "5.5.1",
        vec![send(vec![close(&c1000)])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.4",
        "5.5.1",
        vec![send(vec![close(&close_body(1000, hw))])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.5",
        "5.5, 5.5.1",
        vec![send(vec![close(&close_body(1000, &[b'*'; 123]))])],
        vec![],
        answer(),
    ));
    cases.push(case(
        "7.3.6",
        "5.5",
        vec![send(vec![close(&close_body(1000, &[b'*'; 124]))])],
        vec![],
        Close::Answer(vec![1002], false),
    ));
    let bad_reason = ["κόσμε".as_bytes(), &[0xed, 0xa0, 0x80], b"edited"].concat();
    cases.push(case(
        "7.5.1",
        "5.5.1, 8.1",
        vec![send(vec![close(&close_body(1000, &bad_reason))])],
        vec![],
        Close::Answer(vec![1002, 1007], false),
    ));
    for (i, c) in [
        1000u16, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999,
    ]
    .into_iter()
    .enumerate()
    {
        cases.push(case(
            format!("7.7.{}", i + 1),
            "7.4.1, 7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Answer(vec![1000, c], true),
        ));
    }
    for (i, c) in [0u16, 999, 1004, 1005, 1006, 1016, 1100, 2000, 2999]
        .into_iter()
        .enumerate()
    {
        cases.push(case(
            format!("7.9.{}", i + 1),
            "7.4.1, 7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Answer(vec![1002], false),
        ));
    }
    for (i, c) in [5000u16, 65535].into_iter().enumerate() {
        cases.push(case(
            format!("7.13.{}", i + 1),
            "7.4.2",
            vec![send(vec![close(&close_body(c, b""))])],
            vec![],
            Close::Info,
        ));
    }
    cases
}

/// Section 9's cases, each built when it runs (together they are some 150 MiB).
fn section_9() -> Vec<Box<dyn Fn() -> Case>> {
    let mut cases: Vec<Box<dyn Fn() -> Case>> = Vec::new();
    let sizes = [65_536, 262_144, 1 << 20, 4 << 20, 8 << 20, 16 << 20];
    const TEXT_PAT: &[u8] = b"BAsd7&jh23";
    const BIN_PAT: &[u8] = &[0x00, 0xfe, 0x23, 0xfa, 0xf0];
    // One message of `n` bytes of `pat`, in frames of `size` bytes, written in `w`.
    fn big(id: String, op: u8, pat: &'static [u8], n: usize, size: usize, w: Write) -> Case {
        let p = repeat(pat, n);
        let count = p.len().div_ceil(size);
        let frames = p
            .chunks(size)
            .enumerate()
            .map(|(i, c)| fr(i + 1 == count, if i == 0 { op } else { CONTINUATION }, c))
            .collect();
        let mut c = case(
            id,
            "10.4, 7.4.1",
            vec![Act::Send(frames, w)],
            vec![Ev::Msg(op == TEXT, p)],
            Close::Echo,
        );
        c.wait = Duration::from_secs(100);
        c
    }
    for (i, n) in sizes.into_iter().enumerate() {
        cases.push(Box::new(move || {
            big(format!("9.1.{}", i + 1), TEXT, TEXT_PAT, n, n, Write::One)
        }));
    }
    for (i, n) in sizes.into_iter().enumerate() {
        cases.push(Box::new(move || {
            big(format!("9.2.{}", i + 1), BINARY, BIN_PAT, n, n, Write::One)
        }));
    }
    let frag_sizes = [
        64,
        256,
        1024,
        4096,
        16_384,
        65_536,
        262_144,
        1 << 20,
        4 << 20,
    ];
    for (sub, op, pat) in [(3, TEXT, b"*"), (4, BINARY, &[0xFE])] {
        for (i, size) in frag_sizes.into_iter().enumerate() {
            let pat: &'static [u8] = if sub == 4 && i == 8 { b"*" } else { pat };
            cases.push(Box::new(move || {
                big(
                    format!("9.{sub}.{}", i + 1),
                    op,
                    pat,
                    4 << 20,
                    size,
                    Write::One,
                )
            }));
        }
    }
    for (sub, op, pat) in [(5, TEXT, TEXT_PAT), (6, BINARY, BIN_PAT)] {
        for (i, chop) in [64, 128, 256, 512, 1024, 2048].into_iter().enumerate() {
            cases.push(Box::new(move || {
                big(
                    format!("9.{sub}.{}", i + 1),
                    op,
                    pat,
                    1 << 20,
                    1 << 20,
                    Write::Chop(chop),
                )
            }));
        }
    }
    for (sub, op, byte) in [(7, TEXT, b'*'), (8, BINARY, 0xFE)] {
        for (i, n) in [0, 16, 64, 256, 1024, 4096].into_iter().enumerate() {
            cases.push(Box::new(move || {
                let p = vec![byte; n];
                let f = fr(true, op, &p);
                let acts = (0..1000).map(|_| Act::RoundTrip(f.clone())).collect();
                let mut c = case(
                    format!("9.{sub}.{}", i + 1),
                    "10.4",
                    acts,
                    vec![Ev::Msg(op == TEXT, p); 1000],
                    Close::Echo,
                );
                c.wait = Duration::from_secs(60);
                c
            }));
        }
    }
    cases
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
