//! Differential tests against the real engines: Godot 3 (`godot3-server`, 3.2.3) and
//! Godot 4 (4.4.1, `GODOT4_BIN`). One generator and one comparison serve both; what differs
//! per engine is a [`Flavour`] (dialect, golden file, type ids) and the engine runner.
//!
//! Several thousand packets (deterministic mutations of the engine's golden rows, plus
//! random small packets and hand-made ones) go through the engine's `bytes2var` /
//! `bytes_to_var` (objects not allowed) in a few engine runs, and through our decoder
//! (`Config::new(dialect)`, objects not allowed, `take_from_slice`, since the engine
//! ignores what follows a packet):
//! * where the engine refused the packet, we must return an error;
//! * where the engine produced a value, our re-encoding of our value must equal the
//!   engine's `var2bytes` / `var_to_bytes` of its value (NodePath padding aside, which the
//!   engine leaves unwritten).
//!
//! How a refusal shows: Godot 3's `bytes2var` raises a script error, which aborts the
//! helper function before its next line; Godot 4's `bytes_to_var` returns null after the
//! decoder printed an engine `ERROR:` line (the failed condition) on stderr, so the Godot 4
//! helper brackets each packet with `P:i` / `D:i` lines on stderr, and a packet whose
//! bracket holds an `ERROR:` line and whose value is null was refused.
//!
//! Deliberate exceptions, each counted and printed (run with `--nocapture`), never silent:
//! * [`Exception::Utf16Text`] (Godot 3): the Godot 3 UTF-8 parser accepts encoded
//!   surrogates, most 3- and 4-byte overlong forms and code points above U+10FFFF; a Rust
//!   `String` cannot hold those, so we refuse them with `InvalidUtf8` (the rustdoc of
//!   `src/packet/text.rs`).
//! * [`Exception::ObjectTypedClass`] (Godot 4): an object-typed container (typed `Object`,
//!   by a class name, or by a script, which the engine does not load without objects) is
//!   written by the engine's `var_to_bytes` with the class name `EncodedObjectAsID`
//!   whatever its class (without full objects its elements are such ids); the crate keeps
//!   the packet's class. Accepted where renaming the class so gives the engine's bytes.
//!
//! A packet with equal Dictionary keys decodes as the engine decodes it (one entry per key,
//! at the first key's position, holding the last value), so it re-encodes to the engine's
//! own bytes: the hand-made ones below must agree like any other. So does a typed Array or
//! Dictionary holding elements (keys) not of its type: the crate drops them as the engine
//! does (`ElementType`'s check, found by this differential).
//!
//! Objects sent as an id decode in the engine as an `EncodedObjectAsID` wrapper, whose
//! `var2bytes` would write the wrapper's own (random) instance id; both sides therefore
//! replace each object id by its int value (and the null id by null) before encoding, and
//! a container holding one becomes an untyped container (the engine's helper rebuilds it).
//!
//! The engine runs are bounded in time. What the differential found about decoding is
//! also checked without the engine, in `tests/it/differential.rs`.

use crate::support::{godot3, godot4, golden, hex};

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::godot3::Godot3;
use crate::support::godot4::Godot4;
use crate::support::packets::XorShift;
use crate::support::run::RunResult;
use godot_bin::{Config, Dialect, ErrorKind, Variant};
use libtest_mimic::Trial;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot3_trial(
            "differential::engine_and_crate_agree_on_mutated_packets",
            |engine| engine_and_crate_agree(&GODOT3, |p| run_godot3(engine, p)),
        ),
        godot4_trial(
            "differential::godot4_engine_and_crate_agree_on_mutated_packets",
            |engine| engine_and_crate_agree(&GODOT4, |p| run_godot4(engine, p)),
        ),
    ]
}

/// What the differential needs to know about one engine.
struct Flavour {
    name: &'static str,
    dialect: Dialect,
    /// The engine's golden packets, in `tests/data/golden`.
    golden: &'static str,
    /// Random headers draw their type byte below this (a few past the last type id).
    type_bound: usize,
    /// Type ids of the hand-made packets.
    int: u8,
    string: u8,
    object: u8,
    dictionary: u8,
    array: u8,
    packed_string_array: u8,
}

const GODOT3: Flavour = Flavour {
    name: "Godot 3.2.3",
    dialect: Dialect::Godot3,
    golden: "godot3.tsv",
    type_bound: 30,
    int: 2,
    string: 4,
    object: 17,
    dictionary: 18,
    array: 19,
    packed_string_array: 23,
};

const GODOT4: Flavour = Flavour {
    name: "Godot 4.4.1",
    dialect: Dialect::Godot4,
    golden: "godot4.tsv",
    type_bound: 42,
    int: 2,
    string: 4,
    object: 24,
    dictionary: 27,
    array: 28,
    packed_string_array: 34,
};

/// The Godot 3 GDScript that decodes one packet. It lives in its own script (loaded from the run
/// directory) so that a `bytes2var` error aborts only `one()`, and the loop goes on.
/// `D:` after decoding and `V:` after encoding tell a decode error from an encode error.
const HELPER3: &str = r#"extends Reference

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

/// The Godot 3 harness body: reads `in.bin` (u32 count, then u32 length + bytes per packet) and
/// decodes each packet through the helper, printing `P:` before each.
const BODY3: &str = r#"
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

/// The Godot 4 helper: `P:i` and `D:i` on stderr bracket the decoding of packet `i` (a
/// refusal is an engine error line between them), `V:i:hex` on stdout is the engine's
/// `var_to_bytes` of the (normalised) value, empty if it could not encode it.
const HELPER4: &str = r#"extends RefCounted

func has_ids(v) -> bool:
	match typeof(v):
		TYPE_OBJECT:
			return v == null or v is EncodedObjectAsID
		TYPE_ARRAY:
			for x in v:
				if has_ids(x):
					return true
		TYPE_DICTIONARY:
			for k in v.keys():
				if has_ids(k) or has_ids(v[k]):
					return true
	return false

func norm(v):
	if not has_ids(v):
		return v
	match typeof(v):
		TYPE_OBJECT:
			if v == null:
				return null
			return v.get_object_id()
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
	printerr("P:", i)
	var v = bytes_to_var(b)
	printerr("D:", i)
	print("V:", i, ":", var_to_bytes(norm(v)).hex_encode())
"#;

/// The Godot 4 harness body, reading the same `in.bin` as [`BODY3`].
const BODY4: &str = r#"
var h = load("res://helper.gd").new()
var f = FileAccess.open("in.bin", FileAccess.READ)
var n = f.get_32()
for i in range(n):
	var l = f.get_32()
	var b = PackedByteArray()
	if l > 0:
		b = f.get_buffer(l)
	h.one(i, b)
f.close()
print("ALLDONE")
"#;

/// How the engine's error lines start (Godot 4).
const GODOT4_ERROR: &str = "ERROR:";

/// `var_to_bytes(null)`, what a refused packet re-encodes to (Godot 4).
const GODOT4_NULL: &str = "00000000";

/// What the engine did with one packet.
#[derive(Debug, Clone, PartialEq)]
enum Engine {
    /// `bytes2var` / `bytes_to_var` refused it.
    Refused,
    /// Decoded, but re-encoding the value failed.
    EncodeFailed,
    /// Decoded; the engine's re-encoding of (the normalised) value.
    Value(Vec<u8>),
    /// The engine died or hung on this packet.
    Crashed,
}

/// A documented reason to accept a disagreement (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Exception {
    /// Godot 3 text that a Rust `String` cannot hold.
    Utf16Text,
    /// Godot 4: the class of an object-typed container, written as `EncodedObjectAsID`.
    ObjectTypedClass,
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
fn packets(f: &Flavour) -> Vec<Vec<u8>> {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let rows = golden::rows(f.golden);
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
                    m[i] = rng.next_u64() as u8;
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
                    m[w] = rng.below(f.type_bound) as u8;
                }
                // Truncated, or with a few random bytes appended.
                4 => {
                    if rng.next_u64().is_multiple_of(2) {
                        m.truncate(rng.below(m.len()));
                    } else {
                        for _ in 0..1 + rng.below(8) {
                            m.push(rng.next_u64() as u8);
                        }
                    }
                }
                // Several random bytes.
                _ => {
                    for _ in 0..2 + rng.below(3) {
                        let i = rng.below(m.len());
                        m[i] = rng.next_u64() as u8;
                    }
                }
            }
            out.push(m);
        }
    }
    // Random small packets: a header (type 0..29, sometimes with flag bits), then a few
    // words drawn from small numbers, interesting values and random bytes.
    for _ in 0..4000 {
        let mut p = vec![rng.below(f.type_bound) as u8, 0, 0, 0];
        match rng.below(8) {
            0 => p[2] = 1,
            1 => p[3] = rng.next_u64() as u8,
            _ => {}
        }
        for _ in 0..rng.below(10) {
            let w = match rng.below(4) {
                0 => WORDS[rng.below(WORDS.len())],
                1 => rng.below(40) as u32,
                2 => rng.next_u64() as u32 & 0x7F7F_7F7F, // ASCII-ish text
                _ => rng.next_u64() as u32,
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
        [f.int, 0, 0, 0]
            .into_iter()
            .chain(v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let int64 = |v: u64| {
        [f.int, 0, 1, 0]
            .into_iter()
            .chain(v.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let text = |t: &[u8; 4]| {
        let mut p = vec![f.string, 0, 0, 0, 4, 0, 0, 0];
        p.extend_from_slice(t);
        p
    };
    let object_id = |id: u64| {
        [f.object, 0, 1, 0]
            .into_iter()
            .chain(id.to_le_bytes())
            .collect::<Vec<u8>>()
    };
    let container = |id: u8, parts: &[Vec<u8>]| {
        let count = if id == f.dictionary {
            parts.len() / 2
        } else {
            parts.len()
        };
        let mut p = vec![id, 0, 0, 0];
        p.extend_from_slice(&(count as u32).to_le_bytes());
        parts.iter().for_each(|x| p.extend_from_slice(x));
        p
    };
    out.push(container(f.dictionary, &[int(1), int(2), int(1), int(3)]));
    out.push(container(
        f.dictionary,
        &[int(1), int(2), int64(1), int(3), int(4), int(5)],
    ));
    out.push(container(
        f.dictionary,
        &[text(b"key!"), int(1), int(7), int(8), text(b"key!"), int(2)],
    ));
    out.push(object_id(0));
    out.push(object_id(12345));
    out.push(container(f.array, &[object_id(0), object_id(99), int(1)]));
    out.push(container(f.dictionary, &[int(1), object_id(7)]));
    // Godot 4 typed containers holding other types, which the type check converts or
    // drops: Array[float] [1], Array[StringName] ["a"], Array[String] [&"a"], Array[int]
    // [2.0, 3], Array[Object] [null, 5], Dictionary[float, Variant] {1: "x"},
    // Dictionary[String, int] {"a": "x", 2: 3}.
    if f.dialect == Dialect::Godot4 {
        for h in [
            "1c00010003000000010000000200000001000000",
            "1c0001001500000001000000040000000100000061000000",
            "1c0001000400000001000000150000000100000061000000",
            "1c000100020000000200000003000000000000400200000003000000",
            "1c0001001800000002000000000000000200000005000000",
            "1b00010003000000010000000200000001000000040000000100000078000000",
            concat!(
                "1b000500040000000200000002000000",
                "040000000100000061000000040000000100000078000000",
                "02000000020000000200000003000000",
            ),
        ] {
            out.push(hex::decode(h).expect("hex"));
        }
    }
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
            p.extend_from_slice(&[f.string, 0, 0, 0]);
            p.extend_from_slice(&(text.len() as u32).to_le_bytes());
            p.extend_from_slice(&text);
            p.resize(p.len() + pad, 0);
        } else {
            p.extend_from_slice(&[f.packed_string_array, 0, 0, 0, 1, 0, 0, 0]); // of 1
            text.push(0);
            p.extend_from_slice(&(text.len() as u32).to_le_bytes());
            p.extend_from_slice(&text);
            p.resize(p.len() + (4 - text.len() % 4) % 4, 0);
        }
        out.push(p);
    }
    out
}

/// The Godot 3 outcomes of `packets`.
fn run_godot3(engine: &Godot3, packets: &[Vec<u8>]) -> Vec<Engine> {
    run_batches(
        packets,
        |input, time| {
            godot3::run_script_with_timeout(
                engine,
                BODY3,
                &[("in.bin", input), ("helper.gd", HELPER3.as_bytes())],
                time,
            )
        },
        parse_godot3,
    )
}

/// The Godot 4 outcomes of `packets`.
fn run_godot4(engine: &Godot4, packets: &[Vec<u8>]) -> Vec<Engine> {
    run_batches(
        packets,
        |input, time| {
            godot4::run_script_with_timeout(
                engine,
                BODY4,
                &[("in.bin", input), ("helper.gd", HELPER4.as_bytes())],
                time,
            )
        },
        parse_godot4,
    )
}

/// Reads a Godot 3 batch starting at packet `start` into `results`; returns the last
/// packet the engine started.
fn parse_godot3(res: &RunResult, start: usize, results: &mut [Option<Engine>]) -> Option<usize> {
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
    last_started
}

/// Reads a Godot 4 batch starting at packet `start` into `results` (see [`HELPER4`]);
/// returns the last packet the engine started.
fn parse_godot4(res: &RunResult, start: usize, results: &mut [Option<Engine>]) -> Option<usize> {
    let index = |s: &str| start + s.parse::<usize>().expect("packet index");
    let mut last_started = None;
    let mut decoding = None;
    let mut refused = vec![false; results.len()];
    for line in res.stderr.lines() {
        let line = line.trim_end_matches('\r');
        if let Some(i) = line.strip_prefix("P:") {
            decoding = Some(index(i));
            last_started = decoding;
        } else if line.strip_prefix("D:").is_some() {
            decoding = None;
        } else if let Some(i) = decoding.filter(|_| line.starts_with(GODOT4_ERROR)) {
            refused[i] = true;
        }
    }
    for line in res.lines_with_prefix("V:") {
        let (i, hex) = line.split_once(':').expect("V:i:hex");
        let i = index(i);
        results[i] = Some(if refused[i] && hex == GODOT4_NULL {
            Engine::Refused
        } else if hex.is_empty() {
            Engine::EncodeFailed
        } else {
            Engine::Value(hex::decode(hex).expect("engine hex"))
        });
    }
    last_started
}

/// Runs the engine over `packets` in batches (`run` runs one, given its `in.bin` and the
/// time left; `parse` reads its outcomes), restarting after a packet that crashes or
/// hangs it.
fn run_batches(
    packets: &[Vec<u8>],
    run: impl Fn(&[u8], Duration) -> RunResult,
    parse: fn(&RunResult, usize, &mut [Option<Engine>]) -> Option<usize>,
) -> Vec<Engine> {
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
        let res = run(&input, left.min(Duration::from_secs(120)));
        let last_started = parse(&res, start, &mut results);
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
/// id its int value, and a container holding one is rebuilt untyped, as the engine's
/// helper does (see the module docs).
fn normalise_ids(v: Variant) -> Variant {
    normalise(v).0
}

/// [`normalise_ids`], and whether anything changed.
fn normalise(v: Variant) -> (Variant, bool) {
    match v {
        Variant::ObjectId(id) if id.0 == 0 => (Variant::Nil, true),
        Variant::ObjectId(id) => (Variant::Int(id.0 as i64), true),
        Variant::Array(a) => {
            let items: Vec<(Variant, bool)> = a.items.iter().cloned().map(normalise).collect();
            if !items.iter().any(|(_, changed)| *changed) {
                return (Variant::Array(a), false);
            }
            let mut out =
                godot_bin::Array::from(items.into_iter().map(|(v, _)| v).collect::<Vec<_>>());
            out.shared = a.shared;
            (Variant::Array(out), true)
        }
        Variant::Dictionary(d) => {
            let entries: Vec<((Variant, bool), (Variant, bool))> = d
                .iter()
                .map(|(k, v)| (normalise(k.clone()), normalise(v.clone())))
                .collect();
            if !entries.iter().any(|((_, a), (_, b))| *a || *b) {
                return (Variant::Dictionary(d), false);
            }
            let mut out = godot_bin::Dictionary::new();
            out.shared = d.shared;
            out.extend(entries.into_iter().map(|((k, _), (v, _))| (k, v)));
            (Variant::Dictionary(out), true)
        }
        other => (other, false),
    }
}

/// Our value as the Godot 4 engine re-encodes it without full objects: every object-typed
/// container's class is `EncodedObjectAsID` (see [`Exception::ObjectTypedClass`]); `why`
/// gets the exception if that changed something.
fn godot4_view(v: &Variant, why: &mut Vec<Exception>) -> Variant {
    use godot_bin::{Array, Dictionary, ElementType, VariantType};
    fn class(t: &ElementType, why: &mut Vec<Exception>) -> ElementType {
        match t {
            ElementType::Builtin(VariantType::Object) => {
                why.push(Exception::ObjectTypedClass);
                ElementType::ClassName("EncodedObjectAsID".into())
            }
            ElementType::ClassName(c) | ElementType::Script(c) => {
                if c != "EncodedObjectAsID" || matches!(t, ElementType::Script(_)) {
                    why.push(Exception::ObjectTypedClass);
                }
                ElementType::ClassName("EncodedObjectAsID".into())
            }
            other => other.clone(),
        }
    }
    match v {
        Variant::Array(a) => Variant::Array(Array {
            element_type: class(&a.element_type, why),
            items: a.items.iter().map(|x| godot4_view(x, why)).collect(),
            shared: a.shared,
        }),
        Variant::Dictionary(d) => {
            let mut out = Dictionary::typed(class(d.key_type(), why), class(d.value_type(), why));
            for (k, x) in d.iter() {
                out.insert(godot4_view(k, why), godot4_view(x, why));
            }
            Variant::Dictionary(out)
        }
        other => other.clone(),
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

/// Runs `packets(f)` through the engine (`run`) and the crate and compares them.
fn engine_and_crate_agree(f: &Flavour, run: impl Fn(&[Vec<u8>]) -> Vec<Engine>) {
    let packets = packets(f);
    assert!(packets.len() > 3000, "{} packets", packets.len());
    let started = Instant::now();
    let engine_results = run(&packets);
    let engine_time = started.elapsed();

    let cfg = Config::new(f.dialect);
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
                if f.dialect == Dialect::Godot3
                    && matches!(e.kind(), ErrorKind::InvalidUtf8)
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
                if f.dialect == Dialect::Godot4 {
                    let mut why = Vec::new();
                    let seen = normalise_ids(godot4_view(&v, &mut why));
                    let theirs_ok = cfg
                        .to_vec(&seen)
                        .is_ok_and(|b| golden::compare(&b, theirs, &cfg).is_ok());
                    if theirs_ok && !why.is_empty() {
                        why.sort();
                        why.dedup();
                        for e in why {
                            note("exception: object-typed container's class");
                            exceptions
                                .entry(e)
                                .or_default()
                                .push(format!("#{i} {hex}: ours {}", hex::encode(&mine)));
                        }
                        continue;
                    }
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

    eprintln!(
        "{}: {} packets (golden rows, their mutants, random and hand-made), engine time \
         {engine_time:?}:",
        f.name,
        packets.len()
    );
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
