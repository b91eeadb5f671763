//! Hostile input: truncated, mutated, length-bomb and deeply nested packets must fail with
//! a typed error at the right offset, never panic, never overflow the stack.
//!
//! The packets come from the golden rows (`tests/data/golden/*.tsv`),
//! each decoded in the dialect of the engine that made it.

use crate::support::packets::{bomb, id_of, word, CountedIds, XorShift};
use crate::support::{golden, hex};

use godot_bin::{
    Array, Config, Dialect, Dictionary, Error, ErrorKind, NodePath, PackedByteArray,
    PackedInt32Array, PackedStringArray, Variant,
};
use serde::de::IgnoredAny;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Every dialect the crate speaks.
const ALL_DIALECTS: [Dialect; 6] = [
    Dialect::Godot4,
    Dialect::Godot3,
    Dialect::Godot2,
    Dialect::Pandemonium,
    Dialect::Pandemonium37,
    Dialect::Pandemonium5,
];

/// Every golden row with the config of the engine that made it.
fn golden_rows() -> Vec<(golden::Row, Config)> {
    golden::FILES
        .iter()
        .flat_map(|&(file, dialect)| {
            golden::rows(file)
                .into_iter()
                .map(move |row| (row, golden::config(dialect)))
        })
        .collect()
}

/// `take_from_slice::<Variant>` with panics turned into `Err(message)`.
fn decode(cfg: &Config, bytes: &[u8]) -> Result<Result<(Variant, usize), Error>, String> {
    catch_unwind(AssertUnwindSafe(|| {
        cfg.take_from_slice::<Variant>(bytes)
            .map(|(v, rest)| (v, bytes.len() - rest.len()))
    }))
    .map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default()
    })
}

/// The wire id of `value`'s type in `dialect`: the first byte of its encoding.
#[test]
fn every_truncation_of_every_golden_packet_is_an_error() {
    let mut checked = 0;
    let mut complete_prefixes = Vec::new();
    let mut failures = Vec::new();
    for (row, cfg) in golden_rows() {
        let (full, used) = decode(&cfg, &row.bytes)
            .expect("no panic")
            .unwrap_or_else(|e| {
                panic!("{} {}: golden row does not decode: {e}", row.file, row.name)
            });
        assert_eq!(used, row.bytes.len(), "{} {}", row.file, row.name);
        let full_bytes = cfg.to_vec(&full).expect("golden value re-encodes");
        for k in 0..row.bytes.len() {
            checked += 1;
            let prefix = &row.bytes[..k];
            let what = format!(
                "{} {} cut at {k}: {}",
                row.file,
                row.name,
                hex::encode(prefix)
            );
            match decode(&cfg, prefix) {
                Err(panic) => failures.push(format!("{what}: PANIC {panic}")),
                // A prefix may decode only when it is the same complete packet (the bytes cut
                // were optional, such as a PackedByteArray's final padding).
                Ok(Ok((v, used))) => {
                    let same = cfg.to_vec(&v).ok().as_deref() == Some(&full_bytes[..]);
                    if same && used == k {
                        complete_prefixes.push(format!("{} {} at {k}", row.file, row.name));
                    } else {
                        failures.push(format!("{what}: decoded {v:?} using {used} bytes"));
                    }
                }
                // Every other proper prefix is the end of input: what a stream reader takes
                // for "wait for more bytes", never another kind of error.
                Ok(Err(e)) => {
                    let eof = matches!(e.kind(), ErrorKind::UnexpectedEof);
                    if !eof || e.offset().is_none_or(|at| at > k) {
                        failures.push(format!("{what}: wrong error {e:?}"));
                    }
                    // from_slice refuses it too, with the same error.
                    if let Ok(v) = cfg.from_slice::<Variant>(prefix) {
                        failures.push(format!("{what}: from_slice accepted {v:?}"));
                    }
                }
            }
        }
    }
    assert!(checked > 3000, "only {checked} truncations checked");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The only complete prefixes are packets that end in optional PackedByteArray padding.
    for p in &complete_prefixes {
        assert!(p.contains("byte"), "unexpected complete prefix {p}");
    }
}

/// The byte values each position is set to: fixed ones plus one from the PRNG.
fn mutations(original: u8, rng: &mut XorShift) -> [u8; 8] {
    [
        0x00,
        0xFF,
        0x80,
        original ^ 0x01,
        original ^ 0x80,
        original.wrapping_add(1),
        original.wrapping_sub(1),
        rng.next_u64() as u8,
    ]
}

/// Decodes a mutated packet in `cfg`; when it decodes, the value must re-encode, and our
/// encoding must decode to a value that encodes to the same bytes. The generic serde path
/// (`IgnoredAny`) must accept exactly what the native `Variant` decode accepts.
fn check_mutant(cfg: &Config, bytes: &[u8], what: &str, failures: &mut Vec<String>) -> bool {
    let what = || format!("{what}: {}", hex::encode(bytes));
    let generic = catch_unwind(AssertUnwindSafe(|| {
        cfg.take_from_slice::<IgnoredAny>(bytes)
            .map(|(_, rest)| bytes.len() - rest.len())
    }));
    match (decode(cfg, bytes), generic) {
        (Err(p), _) => {
            failures.push(format!("{}: PANIC {p}", what()));
            false
        }
        (_, Err(_)) => {
            failures.push(format!("{}: PANIC in the IgnoredAny decode", what()));
            false
        }
        (Ok(Err(e)), Ok(g)) => {
            if let Ok(used) = g {
                failures.push(format!(
                    "{}: Variant failed ({e}), IgnoredAny used {used}",
                    what()
                ));
            }
            if e.offset().is_none_or(|at| at > bytes.len()) {
                failures.push(format!("{}: bad offset in {e:?}", what()));
            }
            false
        }
        (Ok(Ok((v, used))), Ok(g)) => {
            match g {
                Ok(g) if g == used => {}
                other => failures.push(format!(
                    "{}: Variant used {used} bytes, IgnoredAny gave {other:?}",
                    what()
                )),
            }
            let first = match cfg.to_vec(&v) {
                Ok(b) => b,
                Err(e) => {
                    failures.push(format!(
                        "{}: decoded {v:?} but it does not encode: {e}",
                        what()
                    ));
                    return true;
                }
            };
            match cfg.from_slice::<Variant>(&first) {
                Ok(again) => match cfg.to_vec(&again) {
                    Ok(second) if second == first => {}
                    other => failures.push(format!(
                        "{}: unstable re-encoding of {v:?}: {} then {:?}",
                        what(),
                        hex::encode(&first),
                        other.map(|b| hex::encode(&b))
                    )),
                },
                Err(e) => failures.push(format!(
                    "{}: our encoding {} of {v:?} does not decode: {e}",
                    what(),
                    hex::encode(&first)
                )),
            }
            true
        }
    }
}

#[test]
fn byte_mutations_never_panic_and_reencode_stably() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    let (mut total, mut decoded) = (0usize, 0usize);
    for (row, cfg) in golden_rows() {
        let strict = cfg.clone().allow_objects(false);
        // The other dialects read the same bytes too: hostile input need not match.
        let others: Vec<Config> = ALL_DIALECTS
            .iter()
            .filter(|&&d| d != cfg.dialect())
            .map(|&d| Config::new(d).allow_objects(true))
            .collect();
        let mut run = |bytes: &[u8], what: &str| {
            for c in [&cfg, &strict].into_iter().chain(&others) {
                total += 1;
                if check_mutant(c, bytes, what, &mut failures) {
                    decoded += 1;
                }
            }
        };
        // Every byte set to each of several values.
        for i in 0..row.bytes.len() {
            for value in mutations(row.bytes[i], &mut rng) {
                let mut m = row.bytes.clone();
                m[i] = value;
                run(
                    &m,
                    &format!("{} {} byte {i}={value:#04x}", row.file, row.name),
                );
            }
        }
        // Several bytes at once, and whole words replaced by interesting values.
        for n in 0..64 {
            let mut m = row.bytes.clone();
            for _ in 0..1 + n % 4 {
                let i = rng.below(m.len());
                m[i] = rng.next_u64() as u8;
            }
            run(&m, &format!("{} {} multi {n}", row.file, row.name));
        }
        for w in (0..row.bytes.len() / 4).map(|w| w * 4) {
            for value in [0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x0001_0000, 1024] {
                let mut m = row.bytes.clone();
                m[w..w + 4].copy_from_slice(&word(value));
                run(
                    &m,
                    &format!("{} {} word {w}={value:#x}", row.file, row.name),
                );
            }
        }
    }
    eprintln!("{total} mutant decodes, {decoded} decoded");
    assert!(total > 50_000, "only {total} mutants");
    assert!(decoded > 5_000, "only {decoded} of {total} mutants decoded");
    assert!(
        failures.is_empty(),
        "{} failures of {total} mutants:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

/// The 12-byte length bombs of one dialect: (name, packet, offset of the bad count).
fn length_bombs(dialect: Dialect) -> Vec<(&'static str, Vec<u8>, usize)> {
    let ids = CountedIds::of(dialect);
    let mut out = vec![
        // Bit 31 of an Array/Dictionary count is masked off: 2^31 - 1 is the largest claim.
        ("Array 2^31-1", bomb(ids.array, 0x7FFF_FFFF), 4),
        ("Array 2^32-1", bomb(ids.array, 0xFFFF_FFFF), 4),
        ("Dictionary 2^31-1", bomb(ids.dict, 0x7FFF_FFFF), 4),
        ("PackedByteArray 2^31-1", bomb(ids.bytes, 0x7FFF_FFFF), 4),
        ("PackedByteArray -2^31", bomb(ids.bytes, 0x8000_0000), 4),
        ("PackedInt32Array 2^31-1", bomb(ids.ints, 0x7FFF_FFFF), 4),
        ("PackedInt32Array 2^30", bomb(ids.ints, 0x4000_0000), 4),
        ("PackedInt32Array -2^31", bomb(ids.ints, 0x8000_0000), 4),
        (
            "PackedStringArray 2^31-1",
            bomb(ids.strings, 0x7FFF_FFFF),
            4,
        ),
        ("String 2^31-1", bomb(ids.string, 0x7FFF_FFFF), 4),
        ("String 2^32-1", bomb(ids.string, 0xFFFF_FFFF), 4),
    ];
    // A NodePath needs its three words; the name count (bit 31 is the format flag) lies.
    let mut p = vec![ids.path, 0, 0, 0];
    p.extend_from_slice(&word(0xFFFF_FFFF));
    p.extend_from_slice(&word(0));
    p.extend_from_slice(&word(0));
    out.push(("NodePath 2^31-1 names", p.clone(), 4));
    p[8..12].copy_from_slice(&word(0xFFFF_FFFF));
    out.push(("NodePath 2^31-1 names, 2^32-1 subnames", p, 4));
    out
}

/// What a length bomb is refused with: the end of input when more input could hold what
/// it claims (a stream reader waits for more), `LengthOutOfRange` when none could (past
/// what the engine accepts, or past `max_size`).
fn bomb_kind(name: &str, limited: bool) -> &'static str {
    // Negative, past i32 bytes, or a u32 length past i32: refused whatever follows.
    let never = name.ends_with("-2^31")
        || name == "String 2^32-1"
        || name.starts_with("PackedInt32Array 2^");
    if limited || never {
        "LengthOutOfRange"
    } else {
        "UnexpectedEof"
    }
}

fn kind_name(e: &Error) -> &'static str {
    match e.kind() {
        ErrorKind::LengthOutOfRange(_) => "LengthOutOfRange",
        ErrorKind::UnexpectedEof => "UnexpectedEof",
        _ => "other",
    }
}

#[test]
fn length_bombs_fail_fast_as_the_end_of_input_or_out_of_range() {
    let started = std::time::Instant::now();
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        for limited in [false, true] {
            let cfg = Config::new(dialect).allow_objects(true);
            let cfg = if limited { cfg.max_size(64 << 10) } else { cfg };
            for (name, packet, at) in length_bombs(dialect) {
                let want = bomb_kind(name, limited);
                let err = cfg
                    .from_slice::<Variant>(&packet)
                    .expect_err(&format!("{dialect} {name}: {}", hex::encode(&packet)));
                assert_eq!(kind_name(&err), want, "{dialect} {name} {limited}: {err:?}");
                assert_eq!(err.offset(), Some(at), "{dialect} {name}: {err}");
                // The generic serde path refuses it the same way.
                let err = cfg.from_slice::<IgnoredAny>(&packet).unwrap_err();
                assert_eq!(
                    kind_name(&err),
                    want,
                    "{dialect} {name} (IgnoredAny): {err:?}"
                );
                assert_eq!(err.offset(), Some(at), "{dialect} {name} (IgnoredAny)");
            }
        }
    }
    // Typed targets refuse them before allocating: each names the count's offset.
    let cfg = Config::new(Dialect::Godot4);
    let bombs = length_bombs(Dialect::Godot4);
    let find = |name: &str| bombs.iter().find(|b| b.0 == name).unwrap().1.clone();
    let typed: Vec<(&str, Result<(), Error>)> = vec![
        (
            "Vec<i32>",
            cfg.from_slice::<Vec<i32>>(&find("Array 2^31-1")).map(drop),
        ),
        (
            "HashMap",
            cfg.from_slice::<HashMap<String, i32>>(&find("Dictionary 2^31-1"))
                .map(drop),
        ),
        (
            "String",
            cfg.from_slice::<String>(&find("String 2^31-1")).map(drop),
        ),
        (
            "PackedInt32Array",
            cfg.from_slice::<PackedInt32Array>(&find("PackedInt32Array 2^31-1"))
                .map(drop),
        ),
        (
            "PackedByteArray",
            cfg.from_slice::<PackedByteArray>(&find("PackedByteArray 2^31-1"))
                .map(drop),
        ),
        (
            "PackedStringArray",
            cfg.from_slice::<PackedStringArray>(&find("PackedStringArray 2^31-1"))
                .map(drop),
        ),
        (
            "NodePath",
            cfg.from_slice::<NodePath>(&find("NodePath 2^31-1 names"))
                .map(drop),
        ),
    ];
    for (name, r) in typed {
        let err = r.expect_err(name);
        let want = if name == "PackedInt32Array" {
            "LengthOutOfRange"
        } else {
            "UnexpectedEof"
        };
        assert_eq!(kind_name(&err), want, "{name}: {err:?}");
        assert_eq!(err.offset(), Some(4), "{name}: {err}");
    }
    // "Fast": dozens of decodes, no allocation or loop proportional to the claim.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(2),
        "length bombs took {:?}",
        started.elapsed()
    );
}

#[test]
fn negative_packed_string_count_is_an_empty_array_as_in_the_engine() {
    // src/packet/packed.rs: the engine does not check a PackedStringArray count; a
    // negative one runs the loop zero times.
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let id = id_of(
            dialect,
            &Variant::PackedStringArray(PackedStringArray(vec![])),
        );
        let mut p = vec![id, 0, 0, 0];
        p.extend_from_slice(&word(0x8000_0000));
        let v: Variant = Config::new(dialect).from_slice(&p).unwrap();
        assert_eq!(v, Variant::PackedStringArray(PackedStringArray(vec![])));
    }
}

/// `levels` nested containers: Arrays `[[[...]]]` or Dictionaries `{null: {null: ...}}`,
/// each holding one element, the innermost holding `innermost` (empty if `None`).
fn nested(dialect: Dialect, dict: bool, levels: usize, innermost: Option<&Variant>) -> Vec<u8> {
    let cfg = Config::new(dialect);
    let id = if dict {
        id_of(dialect, &Variant::Dictionary(Dictionary::new()))
    } else {
        id_of(dialect, &Variant::Array(Array::new()))
    };
    let mut out = Vec::with_capacity(levels * 12 + 16);
    for i in 0..levels {
        let last = i + 1 == levels;
        let count = u32::from(!last || innermost.is_some());
        out.extend_from_slice(&[id, 0, 0, 0]);
        out.extend_from_slice(&word(count));
        if dict && count == 1 {
            out.extend_from_slice(&word(0)); // the key: null
        }
    }
    if let Some(v) = innermost {
        out.extend_from_slice(&cfg.to_vec(v).unwrap());
    }
    out
}

/// The default depth limit of this build: the engine's 1024 with `stack-growth`, else
/// 128 (`godot_bin::MAX_DEPTH`). Every boundary below is drawn from it.
fn limit() -> usize {
    Config::default().depth_limit()
}

/// Where the first value past the limit starts in [`nested`] packets (depth 1025 for the
/// engine's limit): the header of the Array past it, or the null key of the Dictionary at
/// the limit.
fn depth_past_offset(dict: bool) -> usize {
    if dict {
        limit() * 12 + 8
    } else {
        (limit() + 1) * 8
    }
}

/// Runs `f` on a thread with a `stack` byte stack and returns its result (a stack overflow
/// aborts the whole test binary, which is the failure this guards against).
fn on_stack<R: Send + 'static>(stack: usize, f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("thread panicked")
}

#[test]
fn exactly_the_limit_decodes_and_deeper_fails() {
    let l = limit();
    let int = Variant::Int(7);
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        for dict in [false, true] {
            let what = format!("{dialect} {}", if dict { "Dictionary" } else { "Array" });
            // `Config::max_depth`: the top level is depth 0; a value at depth L (1024 with
            // the engine's limit) decodes, one at depth L + 1 fails. L containers put the int
            // at depth L; L + 1 containers (the innermost empty) put the innermost container
            // at depth L.
            let ok = [
                nested(dialect, dict, l, Some(&int)),
                nested(dialect, dict, l + 1, None),
            ];
            for bytes in ok {
                let r = on_stack(64 << 20, move || {
                    Config::new(dialect).from_slice::<Variant>(&bytes).map(drop)
                });
                r.unwrap_or_else(|e| panic!("{what}: depth {l} refused: {e}"));
            }
            // L + 1 containers and an int: the int (depth L + 1) is refused where it
            // starts; L + 2 containers: the innermost container (depth L + 1) is. In
            // Dictionaries the first value at depth L + 1 is the null key of the container
            // at depth L.
            let at = depth_past_offset(dict);
            let bad = [
                (nested(dialect, dict, l + 1, Some(&int)), at),
                (nested(dialect, dict, l + 2, None), at),
            ];
            for (bytes, at) in bad {
                let err = on_stack(64 << 20, move || {
                    Config::new(dialect)
                        .from_slice::<Variant>(&bytes)
                        .unwrap_err()
                });
                assert!(
                    matches!(err.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
                    "{what}: {err:?}"
                );
                assert_eq!(err.offset(), Some(at), "{what}: {err}");
            }
        }
    }
    // A lower configured limit moves the boundary with it.
    let cfg = Config::new(Dialect::Godot4).max_depth(3);
    assert!(cfg
        .from_slice::<Variant>(&nested(Dialect::Godot4, false, 3, Some(&int)))
        .is_ok());
    let err = cfg
        .from_slice::<Variant>(&nested(Dialect::Godot4, false, 4, Some(&int)))
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::DepthExceeded(3)), "{err:?}");
    assert_eq!(err.offset(), Some(32));
}

#[test]
fn serde_paths_share_the_depth_limit() {
    // The generic path (deserialize_any) and a recursive serde type stop at the same depth.
    let cfg = Config::new(Dialect::Godot4);
    let int = Variant::Int(7);
    let ok = nested(Dialect::Godot4, false, limit(), Some(&int));
    let bad = nested(Dialect::Godot4, false, limit() + 1, Some(&int));
    let (ok_generic, bad_generic, ok_json, bad_json) = on_stack(64 << 20, move || {
        (
            cfg.from_slice::<IgnoredAny>(&ok).map(drop),
            cfg.from_slice::<IgnoredAny>(&bad).unwrap_err(),
            cfg.from_slice::<serde_json::Value>(&ok).map(drop),
            cfg.from_slice::<serde_json::Value>(&bad).unwrap_err(),
        )
    });
    ok_generic.unwrap();
    ok_json.unwrap();
    for err in [bad_generic, bad_json] {
        assert!(
            matches!(err.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
            "{err:?}"
        );
        assert_eq!(err.offset(), Some((limit() + 1) * 8));
    }
}

/// 100,000 nested containers into `Variant`, on a stack of `stack` bytes (2 MiB: a tokio
/// worker's default): the depth limit must stop the recursion before the stack runs out,
/// one level past it.
fn hundred_thousand_levels(dict: bool, stack: usize) {
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let bytes = nested(dialect, dict, 100_000, None);
        let err = on_stack(stack, move || {
            Config::new(dialect)
                .from_slice::<Variant>(&bytes)
                .unwrap_err()
        });
        assert!(
            matches!(err.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
            "{dialect}: {err:?}"
        );
        assert_eq!(
            err.offset(),
            Some(depth_past_offset(dict)),
            "{dialect}: {err}"
        );
    }
}

#[test]
fn hundred_thousand_nested_arrays_fail_with_depth_error_on_a_2mib_stack() {
    hundred_thousand_levels(false, 2 << 20);
}

#[test]
fn hundred_thousand_nested_dictionaries_fail_with_depth_error_on_a_2mib_stack() {
    hundred_thousand_levels(true, 2 << 20);
}

#[test]
fn hundred_thousand_levels_through_serde_fail_with_depth_error_on_a_2mib_stack() {
    // The generic path (deserialize_any into IgnoredAny, serde_json::Value) and nested full
    // objects go through serde's visitors, with bigger frames than the Variant decoder.
    for dict in [false, true] {
        let bytes = nested(Dialect::Godot4, dict, 100_000, None);
        let (generic, json) = on_stack(2 << 20, move || {
            let cfg = Config::new(Dialect::Godot4);
            (
                cfg.from_slice::<IgnoredAny>(&bytes).unwrap_err(),
                cfg.from_slice::<serde_json::Value>(&bytes).unwrap_err(),
            )
        });
        assert!(
            matches!(generic.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
            "{generic:?}"
        );
        assert_eq!(generic.offset(), Some(depth_past_offset(dict)));
        // serde_json::Value refuses the null key of a nested Dictionary first.
        if !dict {
            assert!(
                matches!(json.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
                "{json:?}"
            );
        }
    }
    hundred_thousand_objects(2 << 20);
}

/// 100,000 nested full objects (each the value of the previous one's only property) into
/// `Variant` on a stack of `stack` bytes: stopped at the same depth as containers.
fn hundred_thousand_objects(stack: usize) {
    let objects = nested_objects(100_000);
    let err = on_stack(stack, move || {
        Config::new(Dialect::Godot4)
            .allow_objects(true)
            .from_slice::<Variant>(&objects)
            .unwrap_err()
    });
    assert!(
        matches!(err.kind(), ErrorKind::DepthExceeded(d) if *d == limit()),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some((limit() + 1) * 24));
}

/// `levels` Godot 4 full objects of class "A", each the value of the previous one's only
/// property "p".
fn nested_objects(levels: usize) -> Vec<u8> {
    let mut obj = Vec::with_capacity(levels * 24);
    for _ in 0..levels {
        obj.extend_from_slice(&[24, 0, 0, 0, 1, 0, 0, 0, b'A', 0, 0, 0]); // OBJECT, "A"
        obj.extend_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0, b'p', 0, 0, 0]); // 1 property, "p"
    }
    obj
}

#[test]
fn hundred_thousand_nested_levels_fail_with_depth_error_on_a_large_stack() {
    // The same packets on a stack big enough for any build: the error itself is right.
    for dict in [false, true] {
        hundred_thousand_levels(dict, 64 << 20);
    }
    hundred_thousand_objects(64 << 20);
}

#[test]
fn errors_carry_the_offset_of_the_bad_byte() {
    let cfg = Config::new(Dialect::Godot4);
    let value = Variant::from(vec![
        Variant::from("hi"),
        Variant::from(5),
        Variant::NodePath(NodePath::from("a/b")),
    ]);
    let good = cfg.to_vec(&value).unwrap();
    // ARRAY header 0, count 4, "hi": header 8, length 12, bytes 16-17 (pad 18-19),
    // int 5: header 20, value 24; NodePath: header 28, name count 32.
    assert_eq!(&good[16..18], b"hi");
    assert_eq!(good[24], 5);

    let corrupt = |at: usize, value: u8| {
        let mut b = good.clone();
        b[at] = value;
        cfg.from_slice::<Variant>(&b).unwrap_err()
    };
    let err = corrupt(17, 0xFF);
    assert!(matches!(err.kind(), ErrorKind::InvalidUtf8), "{err:?}");
    assert_eq!(err.offset(), Some(16), "{err}"); // where the string's bytes start

    let err = corrupt(20, 0xFE);
    assert!(
        matches!(err.kind(), ErrorKind::UnknownTypeId { id: 0xFE, .. }),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(20), "{err}");

    // A string length past the input: the end of input, at the length.
    let err = corrupt(12, 0x7F);
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err:?}");
    assert_eq!(err.offset(), Some(12), "{err}");

    let err = corrupt(35, 0x00); // clears bit 31 of the NodePath name count: old format
    assert!(matches!(err.kind(), ErrorKind::InvalidData(_)), "{err:?}");
    assert_eq!(err.offset(), Some(32), "{err}");

    let err = cfg
        .from_slice::<Variant>(&good[..good.len() - 1])
        .unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::UnexpectedEof | ErrorKind::LengthOutOfRange(_)
        ),
        "{err:?}"
    );

    let mut trailing = good.clone();
    trailing.extend_from_slice(&[0, 0, 0, 0]);
    let err = cfg.from_slice::<Variant>(&trailing).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::TrailingBytes(4)), "{err:?}");
    assert_eq!(err.offset(), Some(good.len()));
    let (_, rest) = cfg.take_from_slice::<Variant>(&trailing).unwrap();
    assert_eq!(rest, [0, 0, 0, 0]);

    // An int too big for the Rust field: the error points at that int's header.
    let err = cfg
        .from_slice::<(String, i8)>(&cfg.to_vec(&("x", 300)).unwrap())
        .unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(20), "{err}");

    // A full object inside an Array, objects not allowed: the object's header.
    let strict = Config::new(Dialect::Godot4);
    let mut obj = vec![28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0];
    obj.extend_from_slice(&[24, 0, 0, 0, 0, 0, 0, 0]); // OBJECT, empty class name
    let err = strict.from_slice::<Variant>(&obj).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::ObjectsNotAllowed),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(16));
    assert!(strict
        .clone()
        .allow_objects(true)
        .from_slice::<Variant>(&obj)
        .is_ok());
}

/// Found by `fuzz/` (target `roundtrip`): Pandemonium 5's TYPED_ARRAY (id 27) may name
/// any element type, itself included (`src/packet/container.rs`); it decodes, so it must
/// encode back.
#[test]
fn fuzz_crash_typed_array_of_typed_arrays_reencodes() {
    let cfg = Config::new(Dialect::Pandemonium5);
    // TYPED_ARRAY, element type 27 (TYPED_ARRAY), count 1, one NIL.
    let packet = [27, 0, 0, 0, 27, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0];
    let v: Variant = cfg.from_slice(&packet).unwrap();
    assert!(matches!(&v, Variant::Array(a) if a.len() == 1), "{v:?}");
    assert_eq!(cfg.to_vec(&v).unwrap(), packet);
}

/// Found by `fuzz/` (target `decode_struct`): a PackedByteArray decoded into a `String`
/// field (serde's `String` visitor takes UTF-8 bytes) can hold NUL, which no STRING packet
/// can (the engine's text ends at NUL), so the value does not encode back. A String field
/// must be a STRING (or StringName) packet.
#[test]
fn fuzz_crash_string_from_packed_byte_array() {
    let cfg = Config::new(Dialect::Godot4);
    let bytes = cfg
        .to_vec(&Variant::PackedByteArray(PackedByteArray(vec![0, 0, 0x40])))
        .unwrap();
    let err = cfg.from_slice::<String>(&bytes).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::TypeMismatch { .. }),
        "{err:?}"
    );
    assert_eq!(err.offset(), Some(0));
    // Text bytes too: a String field is not a byte array.
    let bytes = cfg
        .to_vec(&Variant::PackedByteArray(PackedByteArray(b"hi".to_vec())))
        .unwrap();
    assert!(cfg.from_slice::<String>(&bytes).is_err());
}

/// Counts the bytes read through it.
struct CountingReader<R> {
    inner: R,
    read: usize,
}

impl<R: std::io::Read> std::io::Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n;
        Ok(n)
    }
}

#[test]
fn max_size_refuses_larger_packets() {
    let cfg = Config::new(Dialect::Godot4).max_size(1024);
    let big = Config::new(Dialect::Godot4)
        .to_vec(&Variant::PackedByteArray(PackedByteArray(vec![7; 4096])))
        .unwrap();
    let err = cfg.from_slice::<Variant>(&big).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::SizeLimitExceeded(1024)),
        "{err:?}"
    );
    let err = cfg.from_slice::<PackedByteArray>(&big).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::SizeLimitExceeded(1024)),
        "{err:?}"
    );
    // At the limit it decodes.
    let fits = Config::new(Dialect::Godot4)
        .to_vec(&Variant::PackedByteArray(PackedByteArray(vec![7; 1016])))
        .unwrap();
    assert_eq!(fits.len(), 1024);
    assert!(cfg.from_slice::<Variant>(&fits).is_ok());
}

#[test]
fn from_reader_stops_reading_past_max_size() {
    let cfg = Config::new(Dialect::Godot4).max_size(1024);
    // 16 MiB of zeros stands in for an endless stream (bounded, so the bug cannot hang).
    let mut reader = CountingReader {
        inner: std::io::Read::take(std::io::repeat(0), 16 << 20),
        read: 0,
    };
    let err = cfg.from_reader::<_, Variant>(&mut reader).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::SizeLimitExceeded(1024)),
        "{err:?}"
    );
    assert!(
        reader.read <= 1024 + 64 * 1024,
        "read {} bytes with max_size 1024",
        reader.read
    );
}

/// Found by `fuzz/` (target `decode_godot4`, AddressSanitizer build): encoding recursed
/// without growing the stack, and an ASan frame of `Variant::serialize` is ~150 KiB, so 55
/// levels overflowed. Encoding nests through `Serializer::nested` now, as decoding does.
#[test]
fn deep_nesting_encodes_up_to_the_limit_and_fails_past_it() {
    let result = on_stack(2 << 20, || {
        let nest = |levels: usize| {
            let mut v = Variant::Nil;
            for _ in 0..levels {
                v = Variant::from(vec![v]);
            }
            v
        };
        let cfg = Config::new(Dialect::Godot4);
        // L Arrays: the innermost value sits at depth L, the limit (the engine's 1024 with
        // `stack-growth`).
        let ok = cfg.to_vec(&nest(limit())).map(|bytes| bytes.len());
        let deep = cfg.to_vec(&nest(2000)).map(|bytes| bytes.len());
        (ok, deep.map_err(|e| format!("{:?}", e.kind())))
    });
    assert_eq!(result.0.unwrap(), limit() * 8 + 4);
    let err = result.1.unwrap_err();
    assert!(err.starts_with("DepthExceeded"), "{err}");
}
