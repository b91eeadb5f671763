//! Differential test against the real Godot 3 engine (`godot3-server`, 3.2.3).
//!
//! A few thousand packets (deterministic mutations of the golden `godot3.tsv` rows, plus
//! random small packets) go through the engine's `bytes2var` (objects not allowed) in a
//! few engine runs, and through our decoder (`Config::new(Dialect::Godot3)`, objects not
//! allowed, `take_from_slice`, since the engine ignores what follows a packet):
//! * where the engine refused the packet, we must return an error;
//! * where the engine produced a value, our re-encoding of our value must equal the
//!   engine's `var2bytes` of its value (NodePath padding aside, which the engine leaves
//!   unwritten).
//!
//! Deliberate exceptions, each counted and printed (run with `--nocapture`), never silent:
//! * [`Exception::Utf16Text`]: the Godot 3 UTF-8 parser accepts encoded surrogates, most
//!   3- and 4-byte overlong forms and code points above U+10FFFF (the module documentation of `src/packet/text.rs`); a Rust
//!   `String` cannot hold those, so we refuse them with `InvalidUtf8`.
//!
//! A packet with equal Dictionary keys decodes as the engine decodes it (one entry per key,
//! at the first key's position, holding the last value), so it re-encodes to the engine's
//! own bytes: the hand-made ones below must agree like any other.
//!
//! Objects sent as an id decode in the engine as an `EncodedObjectAsID` wrapper, whose
//! `var2bytes` would write the wrapper's own (random) instance id; both sides therefore
//! replace each object id by its int value (and the null id by null) before encoding.
//!
//! The engine runs are bounded in time. What the differential found about decoding is
//! also checked without the engine, in `tests/it/differential.rs`.

use crate::support::{godot3, golden, hex};

use crate::support::engine::godot3_trial;
use crate::support::godot3::Godot3;
use godot_bin::{Config, Dialect, ErrorKind, Variant};
use libtest_mimic::Trial;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![godot3_trial(
        "differential::engine_and_crate_agree_on_mutated_packets",
        engine_and_crate_agree_on_mutated_packets,
    )]
}

/// The GDScript that decodes one packet. It lives in its own script (loaded from the run
/// directory) so that a `bytes2var` error aborts only `one()`, and the loop goes on.
/// `D:` after decoding and `V:` after encoding tell a decode error from an encode error.
const HELPER: &str = r#"extends Reference

func norm(v):
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return null
			if v.get_class() == "EncodedObjectAsID":
				return v.get_object_id()
			return v
		TYPE_ARRAY:
			var out = []
			for x in v:
				out.append(norm(x))
			return out
		TYPE_DICTIONARY:
			var out = {}
			for k in v.keys():
				out[norm(k)] = norm(v[k])
			return out
	return v

func one(i, b):
	var v = bytes2var(b)
	print("D:", i)
	var e = var2bytes(norm(v))
	print("V:", i, ":", e.hex_encode())
"#;

/// The harness body: reads `in.bin` (u32 count, then u32 length + bytes per packet) and
/// decodes each packet through the helper, printing `P:` before each.
const BODY: &str = r#"
var h = load("res://helper.gd").new()
var f = File.new()
f.open("in.bin", File.READ)
var n = f.get_32()
for i in range(n):
	var l = f.get_32()
	var b = PoolByteArray()
	if l > 0:
		b = f.get_buffer(l)
	print("P:", i)
	h.one(i, b)
f.close()
print("ALLDONE")
"#;

/// What the engine did with one packet.
#[derive(Debug, Clone, PartialEq)]
enum Engine {
    /// `bytes2var` refused it (a script error aborted the helper before `D:`).
    Refused,
    /// Decoded, but `var2bytes` of the value failed.
    EncodeFailed,
    /// Decoded; the engine's `var2bytes` of (the normalised) value.
    Value(Vec<u8>),
    /// The engine died or hung on this packet.
    Crashed,
}

/// A documented reason to accept a disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Exception {
    Utf16Text,
}

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Words that make interesting counts, lengths and flags.
const WORDS: [u32; 10] = [
    0,
    1,
    2,
    3,
    4,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x0001_0000,
    0x8000_0001,
];

/// Deterministic mutants of the golden rows, then random small packets.
fn packets() -> Vec<Vec<u8>> {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let rows = golden::rows("godot3.tsv");
    let mut out = Vec::new();
    for row in &rows {
        let b = &row.bytes;
        out.push(b.clone());
        for k in 0..120 {
            let mut m = b.clone();
            match k % 6 {
                // One byte set to a random value.
                0 | 1 => {
                    let i = rng.below(m.len());
                    m[i] = rng.next() as u8;
                }
                // One aligned word replaced by an interesting value.
                2 => {
                    let w = rng.below(m.len() / 4) * 4;
                    let v = WORDS[rng.below(WORDS.len())];
                    m[w..w + 4].copy_from_slice(&v.to_le_bytes());
                }
                // The type byte of some aligned word changed (headers live there).
                3 => {
                    let w = rng.below(m.len() / 4) * 4;
                    m[w] = rng.below(30) as u8;
                }
                // Truncated, or with a few random bytes appended.
                4 => {
                    if rng.next().is_multiple_of(2) {
                        m.truncate(rng.below(m.len()));
                    } else {
                        for _ in 0..1 + rng.below(8) {
                            m.push(rng.next() as u8);
                        }
                    }
                }
                // Several random bytes.
                _ => {
                    for _ in 0..2 + rng.below(3) {
                        let i = rng.below(m.len());
                        m[i] = rng.next() as u8;
                    }
                }
            }
            out.push(m);
        }
    }
    // Random small packets: a header (type 0..29, sometimes with flag bits), then a few
    // words drawn from small numbers, interesting values and random bytes.
    for _ in 0..4000 {
        let mut p = vec![rng.below(30) as u8, 0, 0, 0];
        match rng.below(8) {
            0 => p[2] = 1,
            1 => p[3] = rng.next() as u8,
            _ => {}
        }
        for _ in 0..rng.below(10) {
            let w = match rng.below(4) {
                0 => WORDS[rng.below(WORDS.len())],
                1 => rng.below(40) as u32,
                2 => rng.next() as u32 & 0x7F7F_7F7F, // ASCII-ish text
                _ => rng.next() as u32,
            };
            p.extend_from_slice(&w.to_le_bytes());
        }
        if rng.below(4) == 0 {
            p.truncate(p.len().saturating_sub(1 + rng.below(3)));
        }
        out.push(p);
    }
    // Hand-made packets for the documented special cases: Dictionaries with equal keys
    // (also an int sent as 32 and as 64 bits), and objects sent as ids, alone and nested.
    let int = |v: u32| {
        [2, 0, 0, 0]
            .into_iter()
            .chain(v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let int64 = |v: u64| {
        [2, 0, 1, 0]
            .into_iter()
            .chain(v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let text = |t: &[u8; 4]| {
        let mut p = vec![4, 0, 0, 0, 4, 0, 0, 0];
        p.extend_from_slice(t);
        p
    };
    let object_id = |id: u64| {
        [17, 0, 1, 0]
            .into_iter()
            .chain(id.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let container = |id: u8, parts: &[Vec<u8>]| {
        let count = if id == 18 {
            parts.len() / 2
        } else {
            parts.len()
        };
        let mut p = vec![id, 0, 0, 0];
        p.extend_from_slice(&(count as u32).to_le_bytes());
        parts.iter().for_each(|x| p.extend_from_slice(x));
        p
    };
    out.push(container(18, &[int(1), int(2), int(1), int(3)]));
    out.push(container(
        18,
        &[int(1), int(2), int64(1), int(3), int(4), int(5)],
    ));
    out.push(container(
        18,
        &[text(b"key!"), int(1), int(7), int(8), text(b"key!"), int(2)],
    ));
    out.push(object_id(0));
    out.push(object_id(12345));
    out.push(container(19, &[object_id(0), object_id(99), int(1)]));
    out.push(container(18, &[int(1), object_id(7)]));
    // Text made of UTF-8 pieces the two parsers may judge differently, as a String and as
    // a PoolStringArray element.
    const PIECES: [&[u8]; 16] = [
        b"a",
        b"\xC3\xA9",             // é
        b"\xE2\x82\xAC",         // €
        b"\xF0\x9F\x98\x80",     // an emoji
        b"\xEF\xBB\xBF",         // BOM
        b"\x00",                 // NUL
        b"\xED\xA0\x80",         // a surrogate
        b"\xC0\x80",             // 2-byte overlong NUL
        b"\xC1\xBF",             // 2-byte overlong
        b"\xE0\x80\xAF",         // 3-byte overlong
        b"\xF0\x80\x80\xAF",     // 4-byte overlong
        b"\xF4\x90\x80\x80",     // above U+10FFFF
        b"\xFF",                 // invalid lead
        b"\x80",                 // lone continuation
        b"\xE2\x82",             // truncated sequence
        b"\xF8\x88\x80\x80\x80", // 5-byte form
    ];
    for n in 0..800 {
        let mut text = Vec::new();
        for _ in 0..1 + rng.below(3) {
            text.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        }
        let pad = (4 - text.len() % 4) % 4;
        let mut p = Vec::new();
        if n % 2 == 0 {
            p.extend_from_slice(&[4, 0, 0, 0]); // STRING
            p.extend_from_slice(&(text.len() as u32).to_le_bytes());
            p.extend_from_slice(&text);
            p.resize(p.len() + pad, 0);
        } else {
            p.extend_from_slice(&[23, 0, 0, 0, 1, 0, 0, 0]); // POOL_STRING_ARRAY of 1
            text.push(0);
            p.extend_from_slice(&(text.len() as u32).to_le_bytes());
            p.extend_from_slice(&text);
            p.resize(p.len() + (4 - text.len() % 4) % 4, 0);
        }
        out.push(p);
    }
    out
}

/// Runs the engine over `packets`, restarting after a packet that crashes or hangs it.
fn run_engine(engine: &Godot3, packets: &[Vec<u8>]) -> Vec<Engine> {
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut results: Vec<Option<Engine>> = vec![None; packets.len()];
    let mut start = 0;
    while start < packets.len() {
        let left = deadline.saturating_duration_since(Instant::now());
        assert!(!left.is_zero(), "engine runs exceeded 240 s");
        let mut input = Vec::new();
        input.extend_from_slice(&((packets.len() - start) as u32).to_le_bytes());
        for p in &packets[start..] {
            input.extend_from_slice(&(p.len() as u32).to_le_bytes());
            input.extend_from_slice(p);
        }
        let res = godot3::run_script_with_timeout(
            engine,
            BODY,
            &[("in.bin", &input), ("helper.gd", HELPER.as_bytes())],
            left.min(Duration::from_secs(120)),
        );
        let mut last_started = None;
        for line in res.stdout.lines() {
            let line = line.trim_end_matches('\r');
            let index = |s: &str| start + s.parse::<usize>().expect("packet index");
            if let Some(i) = line.strip_prefix("P:") {
                let i = index(i);
                results[i] = Some(Engine::Refused);
                last_started = Some(i);
            } else if let Some(i) = line.strip_prefix("D:") {
                results[index(i)] = Some(Engine::EncodeFailed);
            } else if let Some(rest) = line.strip_prefix("V:") {
                let (i, hex) = rest.split_once(':').expect("V:i:hex");
                let bytes = hex::decode(hex).expect("engine hex");
                results[index(i)] = Some(Engine::Value(bytes));
            }
        }
        if res.lines_with_prefix("ALLDONE").len() == 1 {
            break;
        }
        // The engine stopped inside the last packet it started: record it, go on after it.
        let crashed = last_started.unwrap_or(start);
        eprintln!(
            "engine stopped on packet {crashed} (status {:?}, timed out {}): {}",
            res.status,
            res.timed_out,
            hex::encode(&packets[crashed])
        );
        results[crashed] = Some(Engine::Crashed);
        start = crashed + 1;
    }
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| r.unwrap_or_else(|| panic!("no engine result for packet {i}")))
        .collect()
}

/// Our value with the engine's treatment of object ids: the null id is null, any other
/// id its int value (see the module docs).
fn normalise_ids(v: Variant) -> Variant {
    match v {
        Variant::ObjectId(id) if id.0 == 0 => Variant::Nil,
        Variant::ObjectId(id) => Variant::Int(id.0 as i64),
        Variant::Array(mut a) => {
            a.items = std::mem::take(&mut a.items)
                .into_iter()
                .map(normalise_ids)
                .collect();
            Variant::Array(a)
        }
        Variant::Dictionary(d) => {
            let mut out =
                godot_bin::Dictionary::typed(d.key_type().clone(), d.value_type().clone());
            out.shared = d.shared;
            out.extend(
                d.into_iter()
                    .map(|(k, v)| (normalise_ids(k), normalise_ids(v))),
            );
            Variant::Dictionary(out)
        }
        other => other,
    }
}

/// Whether the pascal string starting at `at` holds text that Godot 3 accepts and a Rust
/// `String` cannot: an encoded surrogate, a 3/4-byte overlong form, a code point above
/// U+10FFFF (also as the old 5- and 6-byte forms, which the Godot 3 parser still reads).
fn engine_only_utf8(packet: &[u8], at: usize) -> bool {
    let text = &packet[at.min(packet.len())..];
    text.windows(2).any(|w| {
        matches!(
            (w[0], w[1]),
            (0xED, 0xA0..=0xBF)       // surrogates U+D800..DFFF
                | (0xE0, 0x80..=0x9F) // 3-byte overlong
                | (0xF0, 0x80..=0x8F) // 4-byte overlong
                | (0xF4, 0x90..=0xBF) // above U+10FFFF
                | (0xF5..=0xF7, _)    // above U+10FFFF, 4-byte form
                | (0xF8..=0xFD, _) // 5- and 6-byte forms (pre-2003 UTF-8)
        )
    })
}

fn engine_and_crate_agree_on_mutated_packets(engine: &Godot3) {
    let packets = packets();
    assert!(packets.len() > 3000, "{} packets", packets.len());
    let started = Instant::now();
    let engine_results = run_engine(engine, &packets);
    let engine_time = started.elapsed();

    let cfg = Config::new(Dialect::Godot3);
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut exceptions: BTreeMap<Exception, Vec<String>> = BTreeMap::new();
    let mut disagreements = Vec::new();
    let mut crashes = Vec::new();
    for (i, (packet, engine)) in packets.iter().zip(&engine_results).enumerate() {
        let hex = hex::encode(packet);
        let ours = cfg.take_from_slice::<Variant>(packet);
        let mut note = |key: &'static str| *counts.entry(key).or_default() += 1;
        match (engine, ours) {
            (Engine::Crashed, _) => {
                note("engine crashed");
                crashes.push(format!("#{i} {hex}"));
            }
            (Engine::Refused, Err(_)) => note("agree: both refuse"),
            (Engine::Refused, Ok((v, _))) => {
                note("DISAGREE: engine refuses, we decode");
                disagreements.push(format!("#{i} {hex}: engine refuses, we decode {v:?}"));
            }
            (Engine::EncodeFailed, Ok(_)) => note("agree: both decode, engine cannot re-encode"),
            (Engine::EncodeFailed, Err(e)) => {
                note("DISAGREE: engine decodes, we refuse");
                disagreements.push(format!(
                    "#{i} {hex}: engine decodes (no var2bytes), we: {e}"
                ));
            }
            (Engine::Value(_), Err(e))
                if matches!(e.kind(), ErrorKind::InvalidUtf8)
                    && engine_only_utf8(packet, e.offset().unwrap_or(0)) =>
            {
                note("exception: text Rust cannot hold");
                exceptions
                    .entry(Exception::Utf16Text)
                    .or_default()
                    .push(format!("#{i} {hex}: {e}"));
            }
            (Engine::Value(b), Err(e)) => {
                note("DISAGREE: engine decodes, we refuse");
                disagreements.push(format!(
                    "#{i} {hex}: engine decodes to {}, we: {e}",
                    hex::encode(b)
                ));
            }
            (Engine::Value(theirs), Ok((v, _))) => {
                let v = normalise_ids(v);
                let mine = cfg.to_vec(&v).expect("our decoded value encodes");
                if golden::compare(&mine, theirs, &cfg).is_ok() {
                    note("agree: same value");
                    continue;
                }
                note("DISAGREE: different values");
                disagreements.push(format!(
                    "#{i} {hex}: engine {} ours {} ({v:?})",
                    hex::encode(theirs),
                    hex::encode(&mine)
                ));
            }
        }
    }

    eprintln!("{} packets, engine time {engine_time:?}:", packets.len());
    for (k, n) in &counts {
        eprintln!("  {n:>5}  {k}");
    }
    for (why, list) in &exceptions {
        eprintln!("exception {why:?}: {} packets, e.g.", list.len());
        for l in list.iter().take(3) {
            eprintln!("    {l}");
        }
    }
    for c in &crashes {
        eprintln!("engine crash: {c}");
    }
    // Every class of packet was exercised.
    assert!(
        counts.get("agree: same value").copied().unwrap_or(0) > 300,
        "{counts:?}"
    );
    assert!(
        counts.get("agree: both refuse").copied().unwrap_or(0) > 300,
        "{counts:?}"
    );
    assert!(
        disagreements.is_empty(),
        "{} disagreements with the engine:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
}
