//! The tokio codec: split and coalesced reads, the maximum frame length, end of stream.
#![cfg(feature = "tokio")]

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use godot_bin::codec::VariantCodec;
use godot_bin::framing::{Framing, DEFAULT_MAX_FRAME_LEN, PREFIX_LEN};
use godot_bin::{Config, Dialect, ErrorKind, Variant, Vector2, Vector3};
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;
use tokio_util::codec::{Decoder, Encoder, FramedRead};

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Msg {
    Hello { name: String },
    Move(Vector2),
    Say(String),
    Quit,
}

fn msgs() -> Vec<Msg> {
    vec![
        Msg::Hello { name: "ada".into() },
        Msg::Move(Vector2::new(1.5, -2.0)),
        Msg::Say("héllo wörld".into()),
        Msg::Quit,
    ]
}

fn framed(cfg: &Config, values: &[Msg]) -> Vec<u8> {
    let framing = Framing::new(cfg.clone());
    let mut out = Vec::new();
    for v in values {
        framing.write(&mut out, v).unwrap();
    }
    out
}

/// A codec for `cfg` with frames of at most `max` packet bytes.
fn new_codec<T>(cfg: Config, max: usize) -> VariantCodec<T> {
    VariantCodec::new(Framing::new(cfg).max_frame_len(max))
}

#[test]
fn a_frame_arriving_one_byte_at_a_time() {
    let cfg = Config::new(Dialect::Godot3);
    let bytes = framed(&cfg, &msgs()[..1]);
    let mut codec = new_codec::<Msg>(cfg, 1024);
    let mut buf = BytesMut::new();
    for (i, &b) in bytes.iter().enumerate() {
        buf.extend_from_slice(&[b]);
        let got = codec.decode(&mut buf).unwrap();
        if i + 1 < bytes.len() {
            assert_eq!(got, None, "decoded early at byte {i}");
        } else {
            assert_eq!(got, Some(msgs()[0].clone()));
        }
    }
    assert!(buf.is_empty());
    assert_eq!(codec.decode_eof(&mut buf).unwrap(), None);
}

#[test]
fn several_frames_in_one_read() {
    let cfg = Config::new(Dialect::Godot4);
    let all = msgs();
    let bytes = framed(&cfg, &all);
    let mut codec = new_codec::<Msg>(cfg, 1024);
    // All frames plus the first three bytes of another one.
    let mut buf = BytesMut::from(&bytes[..]);
    buf.extend_from_slice(&bytes[..3]);
    for m in &all {
        assert_eq!(codec.decode(&mut buf).unwrap().as_ref(), Some(m));
    }
    assert_eq!(codec.decode(&mut buf).unwrap(), None);
    assert_eq!(buf.len(), 3);
    let err = codec.decode_eof(&mut buf).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
}

#[test]
fn a_frame_split_across_reads_at_every_point() {
    let cfg = Config::default();
    let all = msgs();
    let bytes = framed(&cfg, &all);
    for cut in 0..=bytes.len() {
        let mut codec = new_codec::<Msg>(cfg.clone(), 1024);
        let mut buf = BytesMut::from(&bytes[..cut]);
        let mut got = Vec::new();
        while let Some(m) = codec.decode(&mut buf).unwrap() {
            got.push(m);
        }
        buf.extend_from_slice(&bytes[cut..]);
        while let Some(m) = codec.decode(&mut buf).unwrap() {
            got.push(m);
        }
        assert_eq!(got, all, "cut at {cut}");
        assert!(buf.is_empty());
    }
}

#[test]
fn a_length_above_the_maximum_is_refused_without_reserving() {
    let mut codec = new_codec::<Variant>(Config::default(), 100);
    let mut buf = BytesMut::with_capacity(8);
    buf.extend_from_slice(&101u32.to_le_bytes());
    let err = codec.decode(&mut buf).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(101)),
        "{err}"
    );
    assert!(buf.capacity() < 101, "capacity {}", buf.capacity());

    let mut buf = BytesMut::from(&u32::MAX.to_le_bytes()[..]);
    let err = codec.decode(&mut buf).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(n) if *n == u32::MAX as i64),
        "{err}"
    );
}

#[test]
fn the_maximum_is_inclusive_and_room_is_reserved_for_a_checked_length() {
    let cfg = Config::default();
    let mut whole = Vec::new();
    Framing::new(cfg.clone())
        .write(&mut whole, &"abcd")
        .unwrap();
    let packet_len = whole.len() - PREFIX_LEN;

    let mut codec = new_codec::<String>(cfg.clone(), packet_len);
    let mut buf = BytesMut::from(&whole[..PREFIX_LEN]);
    assert_eq!(codec.decode(&mut buf).unwrap(), None);
    assert!(buf.capacity() >= whole.len(), "room for the checked frame");
    buf.extend_from_slice(&whole[PREFIX_LEN..]);
    assert_eq!(codec.decode(&mut buf).unwrap().as_deref(), Some("abcd"));

    let mut smaller = new_codec::<String>(cfg, packet_len - 1);
    let err = smaller.decode(&mut BytesMut::from(&whole[..])).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::LengthOutOfRange(n) if *n == packet_len as i64));
}

#[test]
fn an_undecodable_frame_is_consumed_and_the_next_one_reads() {
    let cfg = Config::default();
    let mut bytes = Vec::new();
    Framing::new(cfg.clone())
        .write(&mut bytes, &"not a Msg")
        .unwrap();
    Framing::new(cfg.clone())
        .write(&mut bytes, &Msg::Quit)
        .unwrap();
    let mut codec = new_codec::<Msg>(cfg, 1024);
    let mut buf = BytesMut::from(&bytes[..]);
    assert!(codec.decode(&mut buf).is_err());
    assert_eq!(codec.decode(&mut buf).unwrap(), Some(Msg::Quit));
}

#[test]
fn encoding_matches_write_framed_and_respects_the_maximum() {
    let cfg = Config::new(Dialect::Godot3);
    let mut codec = new_codec::<Msg>(cfg.clone(), 64);
    let mut dst = BytesMut::new();
    for m in msgs() {
        codec.encode(&m, &mut dst).unwrap();
    }
    // Any serializable type can be sent, not only the decoded one.
    codec.encode(Vector3::new(1.0, 2.0, 3.0), &mut dst).unwrap();
    let mut expected = framed(&cfg, &msgs());
    Framing::new(cfg.clone())
        .write(&mut expected, &Vector3::new(1.0, 2.0, 3.0))
        .unwrap();
    assert_eq!(dst[..], expected[..]);

    let before = dst.clone();
    let err = codec.encode("x".repeat(100), &mut dst).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(_)),
        "{err}"
    );
    assert_eq!(dst, before, "nothing written");
}

#[test]
fn a_big_endian_codec() {
    let cfg = Config::default();
    let framing = Framing::new(cfg.clone())
        .max_frame_len(1024)
        .big_endian(true);
    let mut codec = VariantCodec::<Msg>::from(framing);
    assert!(codec.framing().is_big_endian());
    assert_eq!(codec.config(), &cfg);
    let mut dst = BytesMut::new();
    codec.encode(Msg::Quit, &mut dst).unwrap();
    let packet = cfg.to_vec(&Msg::Quit).unwrap();
    assert_eq!(dst[..4], (packet.len() as u32).to_be_bytes());
    assert_eq!(dst[4..], packet[..]);
    assert_eq!(codec.decode(&mut dst).unwrap(), Some(Msg::Quit));
}

#[test]
fn the_default_codec_is_godot4_with_the_default_maximum() {
    let codec = VariantCodec::<Variant>::default();
    assert_eq!(codec.config().dialect(), Dialect::Godot4);
    assert_eq!(codec.framing().frame_len_limit(), DEFAULT_MAX_FRAME_LEN);
}

#[tokio::test]
async fn framed_read_over_a_byte_at_a_time_pipe() {
    let cfg = Config::new(Dialect::Godot3);
    let all = msgs();
    let bytes = framed(&cfg, &all);
    // A one-byte pipe: every read the decoder sees holds at most one byte.
    let (mut tx, rx) = tokio::io::duplex(1);
    let writer = tokio::spawn(async move {
        for b in bytes {
            tx.write_all(&[b]).await.unwrap();
        }
        // Dropping tx ends the stream cleanly.
    });
    let got: Vec<Msg> = FramedRead::new(rx, new_codec::<Msg>(cfg, 1024))
        .map(|r| r.unwrap())
        .collect()
        .await;
    writer.await.unwrap();
    assert_eq!(got, all);
}

#[tokio::test]
async fn framed_read_reports_a_truncated_last_frame() {
    let cfg = Config::default();
    let bytes = framed(&cfg, &msgs());
    let cut = bytes.len() - 2;
    let reader = &bytes[..cut];
    let mut frames = FramedRead::new(reader, new_codec::<Msg>(cfg, 1024));
    for m in &msgs()[..3] {
        assert_eq!(frames.next().await.unwrap().unwrap(), *m);
    }
    let err = frames.next().await.unwrap().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
}

#[tokio::test]
async fn a_tcp_echo_with_the_codec() {
    let cfg = Config::new(Dialect::Godot4);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server_cfg = cfg.clone();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let mut framed =
            tokio_util::codec::Framed::new(socket, new_codec::<Variant>(server_cfg, 1024));
        let mut seen = 0;
        while let Some(value) = framed.next().await {
            framed.send(&value.unwrap()).await.unwrap();
            seen += 1;
        }
        seen
    });
    let socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut client = tokio_util::codec::Framed::new(socket, new_codec::<Msg>(cfg, 1024));
    for m in msgs() {
        client.send(&m).await.unwrap();
        assert_eq!(client.next().await.unwrap().unwrap(), m);
    }
    drop(client);
    assert_eq!(server.await.unwrap(), msgs().len());
}
