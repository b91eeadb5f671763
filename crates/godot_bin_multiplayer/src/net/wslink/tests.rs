//! The WebSocket framing against its RFC: unit checks of the parser, a tungstenite
//! client, raw frames over real sockets (Autobahn's UTF-8 and close cases).

use super::*;
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

mod autobahn;

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
    run_link(&mut link, 4, |m, _, replies| {
        replies.queue(false, m);
        got.push(m.to_vec());
    })
    .await;
    got
}

/// Reads `link` in turns of `budget` frames, handing each message to `on`, and writes
/// what was queued after every turn, until the connection ends.
async fn run_link(
    link: &mut Link,
    budget: usize,
    mut on: impl FnMut(&[u8], bool, &mut Replies<'_>),
) {
    std::future::poll_fn(|cx| loop {
        let turn = link.poll_messages(cx, budget, &mut on);
        let _ = link.poll_flush(cx);
        match turn {
            Turn::More => continue,
            Turn::Drained => return Poll::Pending,
            Turn::Closed => return Poll::Ready(()),
        }
    })
    .await;
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
        let turn = link.poll_messages(cx, 4, |m, _, _| got.push(m.to_vec()));
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

fn close_code(body: &[u8]) -> Option<u16> {
    (body.len() >= 2).then(|| u16::from_be_bytes([body[0], body[1]]))
}

/// A header that claims a long frame, trickled a byte at a time: the read buffer stays
/// at its first size until the frame's bytes fill it (found by the `ws_framing` fuzz
/// target: it used to double at every read, to the largest message after 10 bytes).
#[test]
fn a_claimed_length_costs_nothing_until_its_bytes_come() {
    let mut f = Frames::new(1 << 20);
    let frame = client_frame(true, BINARY, &bytes(1 << 20), [5, 6, 7, 8]);
    let mut on = |_: &[u8], _: bool, _: &mut Replies<'_>| panic!("no message yet");
    for (i, b) in frame[..200].iter().enumerate() {
        assert_eq!(f.take(&mut 0, 4, &mut on), Step::Need);
        let space = f.read_space();
        assert_eq!(
            space.len(),
            READ_BUFFER - i,
            "byte {i}: the buffer did not grow"
        );
        space[0] = *b;
        f.received(1);
    }
    // The frame's bytes in big reads: the buffer grows with them, and the message comes.
    let mut at = 200;
    let mut got = 0;
    while got == 0 {
        let mut on = |m: &[u8], _: bool, _: &mut Replies<'_>| got = m.len();
        let step = f.take(&mut 0, 4, &mut on);
        if got > 0 {
            break;
        }
        assert_eq!(step, Step::Need);
        let space = f.read_space();
        // Nothing of the frame is consumed yet: the buffer is `at` bytes and the space.
        let size = at + space.len();
        assert!(
            !space.is_empty() && size <= (2 * at).max(READ_BUFFER),
            "at {at}: {size}"
        );
        let n = space.len().min(frame.len() - at);
        space[..n].copy_from_slice(&frame[at..at + n]);
        f.received(n);
        at += n;
    }
    assert_eq!(got, 1 << 20);
}
