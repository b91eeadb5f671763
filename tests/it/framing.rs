//! Length-prefixed framing over `std::io` (`StreamPeer.put_var`, `FileAccess.store_var`)
//! and bare packets (`PacketPeer.put_var`).

use crate::support::{alloc, golden};

use godot_bin::framing::{
    self, frames, read_framed, write_framed, Framing, DEFAULT_MAX_FRAME_LEN, PREFIX_LEN,
};
use godot_bin::{Config, Dialect, Error, ErrorKind, Variant, Vector2, Vector3};
use serde::{Deserialize, Serialize};
use std::io::{self, Read};

/// Records the largest single allocation, to show that a hostile length prefix does not
/// make the reader allocate what it announces.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Move {
    player: String,
    to: Vector2,
    run: bool,
}

fn mv(player: &str, x: f32) -> Move {
    Move {
        player: player.into(),
        to: Vector2::new(x, -x),
        run: x > 1.0,
    }
}

/// A reader that hands out at most one byte per call and interrupts every other call.
struct Trickle<'a> {
    bytes: &'a [u8],
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(2) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "signal"));
        }
        match (self.bytes.split_first(), buf.is_empty()) {
            (Some((&b, rest)), false) => {
                buf[0] = b;
                self.bytes = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// `cfg`'s frames of at most `max` packet bytes.
fn framed(cfg: &Config, max: usize) -> Framing {
    Framing::new(cfg.clone()).max_frame_len(max)
}

fn kind_of<T: std::fmt::Debug>(r: Result<T, Error>) -> (ErrorKind, Option<usize>) {
    let e = r.expect_err("expected an error");
    let offset = e.offset();
    let kind = match e.kind() {
        ErrorKind::UnexpectedEof => ErrorKind::UnexpectedEof,
        ErrorKind::LengthOutOfRange(n) => ErrorKind::LengthOutOfRange(*n),
        ErrorKind::TrailingBytes(n) => ErrorKind::TrailingBytes(*n),
        other => panic!("unexpected error kind {other:?} ({e})"),
    };
    (kind, offset)
}

#[test]
fn a_frame_is_a_little_endian_length_then_the_packet() {
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let cfg = Config::new(dialect);
        let value = mv("ada", 2.5);
        let packet = cfg.to_vec(&value).unwrap();
        let mut out = Vec::new();
        Framing::new(cfg.clone()).write(&mut out, &value).unwrap();
        assert_eq!(out.len(), PREFIX_LEN + packet.len());
        assert_eq!(out[..4], (packet.len() as u32).to_le_bytes());
        assert_eq!(out[4..], packet[..]);
    }
}

#[test]
fn every_golden_packet_survives_framing_both_ways() {
    for &(file, dialect) in golden::FILES {
        let cfg = golden::config(dialect);
        let rows = golden::rows(file);
        // The engine's packets framed as store_var / put_var would frame them.
        let mut stream = Vec::new();
        for row in &rows {
            stream.extend_from_slice(&(row.bytes.len() as u32).to_le_bytes());
            stream.extend_from_slice(&row.bytes);
        }
        let values: Vec<Variant> = framed(&cfg, 1 << 20)
            .frames::<_, Variant>(&stream[..])
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(values.len(), rows.len(), "{file}");

        let mut again = Vec::new();
        for v in &values {
            Framing::new(cfg.clone()).write(&mut again, v).unwrap();
        }
        let mut rest = &again[..];
        for row in &rows {
            let len = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
            assert_eq!(len, row.bytes.len(), "{file} {}: prefix", row.name);
            golden::compare(&rest[4..4 + len], &row.bytes, &cfg)
                .unwrap_or_else(|e| panic!("{file} {}: {e}", row.name));
            rest = &rest[4 + len..];
        }
        assert!(rest.is_empty());
    }
}

#[test]
fn typed_values_round_trip_through_one_stream() {
    let cfg = Config::new(Dialect::Godot3);
    let moves = [mv("ada", 1.0), mv("bob", 2.0), mv("", 0.25)];
    let mut stream = Vec::new();
    for m in &moves {
        Framing::new(cfg.clone()).write(&mut stream, m).unwrap();
    }
    let mut reader = &stream[..];
    for m in &moves {
        let got: Option<Move> = framed(&cfg, 1024).read(&mut reader).unwrap();
        assert_eq!(got.as_ref(), Some(m));
    }
    // A clean end: no byte of a next frame.
    assert!(framed(&cfg, 1024)
        .read::<_, Move>(&mut reader)
        .unwrap()
        .is_none());

    let back: Vec<Move> = framed(&cfg, 1024)
        .frames(&stream[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, moves);
}

#[test]
fn the_free_functions_frame_godot4_values_of_any_shape() {
    let mut stream = Vec::new();
    write_framed(&mut stream, &Vector3::new(1.0, 2.0, 3.0)).unwrap();
    write_framed(&mut stream, &mv("ada", 3.0)).unwrap();
    // VECTOR3 is type 9 in Godot 4 (7 in Godot 3).
    assert_eq!(stream[..8], [16, 0, 0, 0, 9, 0, 0, 0]);
    let mut reader = &stream[..];
    assert_eq!(
        read_framed::<_, Variant>(&mut reader).unwrap(),
        Some(Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)))
    );
    let second: Variant = read_framed(&mut reader).unwrap().unwrap();
    assert_eq!(second.get("player"), Some(&Variant::from("ada")));
    assert_eq!(second.get("run"), Some(&Variant::Bool(true)));
    assert_eq!(read_framed::<_, Variant>(&mut reader).unwrap(), None);
    let all: Vec<Variant> = frames(&stream[..]).collect::<Result<_, _>>().unwrap();
    assert_eq!(all.len(), 2);
}

#[test]
fn a_framing_owns_its_config() {
    let framing = Framing::new(Config::new(Dialect::Godot3)).max_frame_len(64);
    assert_eq!(framing.config().dialect(), Dialect::Godot3);
    assert_eq!(framing.frame_len_limit(), 64);
    assert_eq!(
        Framing::from(Config::new(Dialect::Godot3)).max_frame_len(64),
        framing
    );
    assert_eq!(Framing::default().config(), &Config::default());
    let mut out = Vec::new();
    framing
        .write(&mut out, &Vector3::new(1.0, 2.0, 3.0))
        .unwrap();
    assert_eq!(out[4], 7, "VECTOR3 in Godot 3");
}

#[test]
fn an_empty_stream_is_a_clean_end() {
    assert_eq!(read_framed::<_, Variant>(&[][..]).unwrap(), None);
    assert_eq!(frames::<_, Variant>(&[][..]).count(), 0);
    let cfg = Config::new(Dialect::Godot3);
    assert_eq!(framed(&cfg, 64).read::<_, Variant>(&[][..]).unwrap(), None);
}

#[test]
fn one_byte_per_read_with_interruptions() {
    let cfg = Config::new(Dialect::Godot3);
    let moves = [mv("ada", 1.0), mv("bob", 2.0)];
    let mut stream = Vec::new();
    for m in &moves {
        Framing::new(cfg.clone()).write(&mut stream, m).unwrap();
    }
    let reader = Trickle {
        bytes: &stream,
        calls: 0,
    };
    let mut frames = framed(&cfg, 1024).frames::<_, Move>(reader);
    assert_eq!(frames.next().unwrap().unwrap(), moves[0]);
    assert_eq!(frames.next().unwrap().unwrap(), moves[1]);
    assert!(frames.next().is_none());
    assert!(frames.is_finished());
    assert_eq!(frames.position(), stream.len() as u64);
    // Two calls per byte (one interrupted), plus the final end-of-stream read.
    assert!(frames.into_inner().calls >= 2 * stream.len());
}

#[test]
fn a_stream_that_ends_inside_the_prefix_is_unexpected_eof() {
    let cfg = Config::default();
    let mut stream = Vec::new();
    Framing::new(cfg.clone()).write(&mut stream, &7).unwrap();
    for cut in 1..PREFIX_LEN {
        let (kind, offset) = kind_of(framed(&cfg, 64).read::<_, Variant>(&stream[..cut]));
        assert!(matches!(kind, ErrorKind::UnexpectedEof), "{kind:?}");
        assert_eq!(offset, Some(cut));
    }
}

#[test]
fn a_stream_that_ends_inside_the_packet_is_unexpected_eof() {
    let cfg = Config::default();
    let mut stream = Vec::new();
    Framing::new(cfg.clone())
        .write(&mut stream, &"hello")
        .unwrap();
    Framing::new(cfg.clone())
        .write(&mut stream, &"world")
        .unwrap();
    let cut = stream.len() - 3;
    let mut frames = framed(&cfg, 64).frames::<_, Variant>(&stream[..cut]);
    assert_eq!(frames.next().unwrap().unwrap(), Variant::from("hello"));
    let (kind, offset) = kind_of(frames.next().unwrap());
    assert!(matches!(kind, ErrorKind::UnexpectedEof), "{kind:?}");
    assert_eq!(
        offset,
        Some(cut),
        "offset counts from the start of the stream"
    );
    assert!(frames.is_finished());
    assert!(
        frames.next().is_none(),
        "a framing error ends the iteration"
    );
}

#[test]
fn the_maximum_frame_length_is_inclusive() {
    let cfg = Config::default();
    let mut stream = Vec::new();
    Framing::new(cfg.clone())
        .write(&mut stream, &"abcd")
        .unwrap(); // 4 + 4 + 4 bytes of packet
    let packet_len = stream.len() - PREFIX_LEN;
    assert_eq!(
        framed(&cfg, packet_len)
            .read::<_, Variant>(&stream[..])
            .unwrap(),
        Some(Variant::from("abcd"))
    );
    let (kind, offset) = kind_of(framed(&cfg, packet_len - 1).read::<_, Variant>(&stream[..]));
    assert!(
        matches!(kind, ErrorKind::LengthOutOfRange(n) if n == packet_len as i64),
        "{kind:?}"
    );
    assert_eq!(offset, Some(0));
}

#[test]
fn a_hostile_length_is_refused_before_reading_or_allocating() {
    let cfg = Config::default();
    // Announces 4 GiB - 1, followed by a megabyte that must not be read.
    let mut stream = u32::MAX.to_le_bytes().to_vec();
    stream.resize(PREFIX_LEN + 100, 0xAB);
    let mut reader = &stream[..];
    let (kind, _) = kind_of(framed(&cfg, DEFAULT_MAX_FRAME_LEN).read::<_, Variant>(&mut reader));
    assert!(
        matches!(kind, ErrorKind::LengthOutOfRange(n) if n == u32::MAX as i64),
        "{kind:?}"
    );
    assert_eq!(reader.len(), 100, "only the prefix was consumed");

    // The second frame of a stream: the offset is that of its prefix.
    let mut two = Vec::new();
    Framing::new(cfg.clone()).write(&mut two, &1).unwrap();
    let first_len = two.len();
    two.extend_from_slice(&(1u32 << 30).to_le_bytes());
    let mut frames = framed(&cfg, 1 << 20).frames::<_, Variant>(&two[..]);
    assert_eq!(frames.next().unwrap().unwrap(), Variant::Int(1));
    let (kind, offset) = kind_of(frames.next().unwrap());
    assert!(matches!(kind, ErrorKind::LengthOutOfRange(n) if n == 1 << 30));
    assert_eq!(offset, Some(first_len));
}

#[test]
fn an_allowed_but_unfulfilled_length_allocates_only_what_arrives() {
    // A server allowing 1 GiB frames; the peer announces 1 GiB and sends 10 bytes.
    let cfg = Config::default();
    let mut stream = (1u32 << 30).to_le_bytes().to_vec();
    stream.extend_from_slice(&[0; 10]);
    alloc::reset_largest();
    let (kind, offset) = kind_of(framed(&cfg, 1 << 30).read::<_, Variant>(&stream[..]));
    assert!(matches!(kind, ErrorKind::UnexpectedEof), "{kind:?}");
    assert_eq!(offset, Some(PREFIX_LEN + 10));
    let largest = alloc::largest();
    assert!(
        largest < 4 << 20,
        "largest allocation {largest} bytes for a 10-byte packet"
    );
}

#[test]
fn a_bad_packet_is_skipped_and_the_next_frame_still_reads() {
    let cfg = Config::default();
    let mut stream = Vec::new();
    Framing::new(cfg.clone()).write(&mut stream, &1).unwrap();
    // A well-delimited frame whose packet has an unknown type id.
    stream.extend_from_slice(&4u32.to_le_bytes());
    stream.extend_from_slice(&[0xFF, 0, 0, 0]);
    Framing::new(cfg.clone()).write(&mut stream, &3).unwrap();
    let mut frames = framed(&cfg, 64).frames::<_, Variant>(&stream[..]);
    assert_eq!(frames.next().unwrap().unwrap(), Variant::Int(1));
    let err = frames.next().unwrap().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::UnknownTypeId { id: 0xFF, .. }),
        "{err}"
    );
    assert_eq!(err.offset(), Some(0), "offset inside the packet");
    assert!(!frames.is_finished());
    assert_eq!(frames.next().unwrap().unwrap(), Variant::Int(3));
    assert!(frames.next().is_none());
}

#[test]
fn trailing_bytes_inside_a_frame_are_refused_unless_asked() {
    let cfg = Config::default();
    let mut packet = cfg.to_vec(&5).unwrap();
    packet.extend_from_slice(&[9, 9, 9, 9]);
    let mut stream = (packet.len() as u32).to_le_bytes().to_vec();
    stream.extend_from_slice(&packet);

    let (kind, _) = kind_of(framed(&cfg, 64).read::<_, Variant>(&stream[..]));
    assert!(matches!(kind, ErrorKind::TrailingBytes(4)), "{kind:?}");

    let lenient = framed(&cfg, 64).ignore_trailing_bytes(true);
    assert!(lenient.ignores_trailing_bytes());
    let got: Option<i32> = lenient.read(&stream[..]).unwrap();
    assert_eq!(got, Some(5));
}

#[test]
fn a_big_endian_prefix_swaps_only_the_prefix() {
    let cfg = Config::new(Dialect::Godot3);
    let big = framed(&cfg, 1024).big_endian(true);
    assert!(big.is_big_endian());
    let value = mv("ada", 1.5);
    let mut out = Vec::new();
    big.write(&mut out, &value).unwrap();
    let packet = cfg.to_vec(&value).unwrap();
    assert_eq!(out[..4], (packet.len() as u32).to_be_bytes());
    assert_eq!(out[4..], packet[..]);
    assert_eq!(big.read::<_, Move>(&out[..]).unwrap(), Some(value));
    assert_eq!(
        big.frame_len(out[..4].try_into().unwrap()).unwrap(),
        packet.len()
    );

    // Read as little-endian the same prefix announces a length far above the maximum.
    let (kind, _) = kind_of(framed(&cfg, 1024).read::<_, Variant>(&out[..]));
    assert!(matches!(kind, ErrorKind::LengthOutOfRange(_)), "{kind:?}");
}

#[test]
fn framing_write_refuses_a_packet_above_the_maximum_and_writes_nothing() {
    let cfg = Config::default();
    let framing = framed(&cfg, 8);
    let mut out = vec![1, 2, 3];
    framing.encode_frame(&mut out, &7).unwrap(); // an 8-byte packet
    assert_eq!(out.len(), 3 + PREFIX_LEN + 8);
    let before = out.clone();
    let err = framing.encode_frame(&mut out, &"too long").unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(16)),
        "{err}"
    );
    assert_eq!(out, before);

    let mut sink = Vec::new();
    assert!(framing.write(&mut sink, &"too long").is_err());
    assert!(sink.is_empty());
}

#[test]
fn an_encoding_error_writes_nothing() {
    // Vector2i does not exist in Godot 3.
    let cfg = Config::new(Dialect::Godot3);
    let mut out = Vec::new();
    let err = Framing::new(cfg.clone())
        .write(&mut out, &godot_bin::Vector2i::new(1, 2))
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TypeNotInDialect { .. }),
        "{err}"
    );
    assert!(out.is_empty());
}

#[test]
fn packets_are_bare_and_decode_like_packet_peer_get_var() {
    let cfg = Config::new(Dialect::Godot3);
    let value = mv("ada", 4.0);
    let packet = cfg.to_vec(&value).unwrap();
    let decode = |bytes| cfg.take_from_slice::<Move>(bytes).map(|(v, _)| v);
    assert_eq!(decode(&packet).unwrap(), value);
    // The engine ignores bytes after the value in a packet; so does take_from_slice.
    let mut padded = packet.clone();
    padded.extend_from_slice(&[1, 2, 3]);
    assert_eq!(decode(&padded).unwrap(), value);
    assert!(cfg.from_slice::<Move>(&padded).is_err());
    // A short packet is an error, not a panic.
    assert!(decode(&packet[..packet.len() - 1]).is_err());
}

#[test]
fn borrowed_decoding_from_a_frame() {
    let framing = Framing::default();
    assert_eq!(framing.frame_len_limit(), DEFAULT_MAX_FRAME_LEN);
    let mut out = Vec::new();
    framing.encode_frame(&mut out, &"borrowed").unwrap();
    let len = framing.frame_len(out[..4].try_into().unwrap()).unwrap();
    let s: &str = framing.decode_frame(&out[4..4 + len]).unwrap();
    assert_eq!(s, "borrowed");
    assert_eq!(framing::ENGINE_MAX_FRAME_LEN, i32::MAX as usize);
}
