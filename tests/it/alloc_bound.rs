//! Peak allocation while decoding hostile packets stays under `64 × input + 64 KiB`.
//!
//! The counting allocator of the test kit's `alloc.rs` counts per thread, so the test
//! harness and other tests running at the same time do not disturb a measurement; each
//! measurement runs its decode on the measuring thread and reads the peak above the
//! bytes live when it started. Run with `--nocapture` to see the table of peaks.

use crate::support::alloc;
use crate::support::packets::{bomb, word, CountedIds};

use godot_bin::{Config, Dialect, NodePath, PackedInt32Array, Variant};
use serde::Deserialize;
use std::collections::HashMap;

/// The bound: a small multiple of the input, plus a constant for fixed-size bookkeeping.
fn bound(input: usize) -> usize {
    64 * input + (64 << 10)
}

/// One measured decode.
struct Case {
    name: String,
    input: usize,
    peak: usize,
    ok: bool,
}

#[derive(Default)]
struct Report {
    cases: Vec<Case>,
}

impl Report {
    /// Decodes `bytes` into `T` with `cfg`, records the peak; `expect_ok` says whether the
    /// packet is valid (so that a bomb that accidentally decodes is noticed).
    fn measure<T: for<'de> Deserialize<'de>>(
        &mut self,
        name: &str,
        cfg: &Config,
        bytes: &[u8],
        expect_ok: bool,
    ) {
        let mut ok = false;
        let peak = alloc::peak_of(|| {
            let r = cfg.from_slice::<T>(bytes);
            ok = r.is_ok();
            r
        });
        assert_eq!(
            ok,
            expect_ok,
            "{name}: decode {} unexpectedly",
            if ok { "succeeded" } else { "failed" }
        );
        self.cases.push(Case {
            name: format!("{name} -> {}", short_type_name::<T>()),
            input: bytes.len(),
            peak,
            ok,
        });
    }

    /// Prints the table and fails listing every case over the bound.
    fn check(&self) {
        let mut over = Vec::new();
        for c in &self.cases {
            let line = format!(
                "{:<64} input {:>7} B  peak {:>10} B  ({:>6.1} x input) {}",
                c.name,
                c.input,
                c.peak,
                c.peak as f64 / c.input as f64,
                if c.ok { "ok" } else { "err" }
            );
            eprintln!("{line}");
            if c.peak > bound(c.input) {
                over.push(line);
            }
        }
        assert!(
            over.is_empty(),
            "over the bound of 64 x input + 64 KiB:\n{}",
            over.join("\n")
        );
    }
}

fn short_type_name<T>() -> String {
    let full = std::any::type_name::<T>();
    let mut out = String::new();
    for part in full.split_inclusive(['<', '>', ',', ' ']) {
        out.push_str(part.rsplit("::").next().unwrap_or(part));
    }
    out
}

/// `levels` nested containers that each claim as many elements as the bytes left after
/// their count could hold (so every level passes the "count × minimum size ≤ bytes left"
/// check), followed by `pad` zero bytes; the packet is truncated (so it fails) unless the
/// claims are honest. Dictionaries hold a null key before each nested value.
fn nested_bomb(id: u8, dict: bool, levels: usize, pad: usize) -> Vec<u8> {
    let per = if dict { 12 } else { 8 };
    let min_elem = if dict { 8 } else { 4 };
    let mut p = Vec::with_capacity(levels * per + pad);
    for i in 0..levels {
        let left = (levels - 1 - i) * per + pad + if dict { 4 } else { 0 };
        p.extend_from_slice(&[id, 0, 0, 0]);
        p.extend_from_slice(&word((left / min_elem) as u32));
        if dict {
            p.extend_from_slice(&word(0));
        }
    }
    p.resize(p.len() + pad, 0);
    p
}

/// A derived recursive type: `{"children": [{"children": [...]}, ...]}`.
#[derive(Deserialize)]
#[allow(dead_code)]
struct Node {
    children: Vec<Node>,
}

/// The same nesting as [`nested_bomb`] for [`Node`]: each level is a one-entry Dictionary
/// whose "children" Array claims as many elements as the bytes left could hold.
fn node_bomb(levels: usize, pad: usize) -> Vec<u8> {
    let per = 32;
    let mut p = Vec::new();
    for i in 0..levels {
        p.extend_from_slice(&[27, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 8, 0, 0, 0]);
        p.extend_from_slice(b"children");
        p.extend_from_slice(&[28, 0, 0, 0]);
        let left = (levels - 1 - i) * per + pad;
        p.extend_from_slice(&word((left / 4) as u32));
    }
    p.resize(p.len() + pad, 0);
    p
}

/// Full objects nested through their only property, each claiming as many properties as
/// the bytes left could hold (Godot 4 OBJECT is type 24).
fn object_bomb(levels: usize, pad: usize) -> Vec<u8> {
    let per = 24;
    let mut p = Vec::new();
    for i in 0..levels {
        p.extend_from_slice(&[24, 0, 0, 0, 1, 0, 0, 0, b'A', 0, 0, 0]);
        let left = (levels - 1 - i) * per + pad + 8;
        p.extend_from_slice(&word((left / 8) as u32));
        p.extend_from_slice(&[1, 0, 0, 0, b'p', 0, 0, 0]);
    }
    p.resize(p.len() + pad, 0);
    p
}

/// Runs `f` on a thread with a 64 MiB stack (1000-level packets need several MiB of stack
/// in debug builds; stack depth is `tests/it/hostile.rs`'s subject, not this file's). The
/// counters are per thread, so the whole measurement happens on that thread.
fn on_big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

#[test]
fn peak_allocation_stays_under_a_multiple_of_the_input() {
    on_big_stack(bounded_peaks);
}

fn bounded_peaks() {
    let mut r = Report::default();
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let cfg = Config::new(dialect).allow_objects(true);
        let ids = CountedIds::of(dialect);
        let d = format!("{dialect}");

        // 12-byte packets claiming 2^31 - 1 elements: refused before allocating.
        for (name, id) in [
            ("Array", ids.array),
            ("Dictionary", ids.dict),
            ("PackedByteArray", ids.bytes),
            ("PackedInt32Array", ids.ints),
            ("PackedStringArray", ids.strings),
            ("String", ids.string),
        ] {
            let b = bomb(id, 0x7FFF_FFFF);
            r.measure::<Variant>(&format!("{d} {name} 2^31-1"), &cfg, &b, false);
        }
        let mut np = vec![ids.path, 0, 0, 0];
        np.extend_from_slice(&word(0xFFFF_FFFF));
        np.extend_from_slice(&word(0xFFFF_FFFF));
        np.extend_from_slice(&word(0));
        r.measure::<Variant>(&format!("{d} NodePath 2^32 names"), &cfg, &np, false);
        r.measure::<NodePath>(&format!("{d} NodePath 2^32 names"), &cfg, &np, false);
        r.measure::<Vec<i32>>(
            &format!("{d} Array 2^31-1"),
            &cfg,
            &bomb(ids.array, 0x7FFF_FFFF),
            false,
        );
        r.measure::<HashMap<String, i32>>(
            &format!("{d} Dictionary 2^31-1"),
            &cfg,
            &bomb(ids.dict, 0x7FFF_FFFF),
            false,
        );
        r.measure::<String>(
            &format!("{d} String 2^31-1"),
            &cfg,
            &bomb(ids.string, 0x7FFF_FFFF),
            false,
        );
        r.measure::<PackedInt32Array>(
            &format!("{d} PackedInt32Array 2^31-1"),
            &cfg,
            &bomb(ids.ints, 0x7FFF_FFFF),
            false,
        );
        r.measure::<Vec<String>>(
            &format!("{d} PackedStringArray 2^31-1"),
            &cfg,
            &bomb(ids.strings, 0x7FFF_FFFF),
            false,
        );

        // Honest claims, as large as the bytes allow: the biggest legitimate allocations
        // per input byte (88-byte Variants from 4-byte NILs; Strings from 8-byte "").
        let mut nils = vec![ids.array, 0, 0, 0];
        nils.extend_from_slice(&word(10_000));
        nils.resize(nils.len() + 40_000, 0);
        r.measure::<Variant>(&format!("{d} Array of 10000 nulls"), &cfg, &nils, true);
        r.measure::<Vec<()>>(&format!("{d} Array of 10000 nulls"), &cfg, &nils, true);
        r.measure::<Vec<Option<u64>>>(&format!("{d} Array of 10000 nulls"), &cfg, &nils, true);
        let mut pairs = vec![ids.dict, 0, 0, 0];
        pairs.extend_from_slice(&word(5_000));
        for i in 0..5_000u32 {
            pairs.extend_from_slice(&[2, 0, 0, 0]); // INT key (id 2 in every dialect)
            pairs.extend_from_slice(&word(i));
            pairs.extend_from_slice(&[0, 0, 0, 0]);
        }
        r.measure::<Variant>(
            &format!("{d} Dictionary of 5000 int:null"),
            &cfg,
            &pairs,
            true,
        );
        r.measure::<HashMap<i64, ()>>(
            &format!("{d} Dictionary of 5000 int:null"),
            &cfg,
            &pairs,
            true,
        );
        let mut empties = vec![ids.strings, 0, 0, 0];
        empties.extend_from_slice(&word(10_000));
        for _ in 0..10_000 {
            empties.extend_from_slice(&word(0));
        }
        r.measure::<Variant>(
            &format!("{d} PackedStringArray of 10000 \"\""),
            &cfg,
            &empties,
            true,
        );
        r.measure::<Vec<String>>(
            &format!("{d} PackedStringArray of 10000 \"\""),
            &cfg,
            &empties,
            true,
        );
        let mut ints_ok = vec![ids.ints, 0, 0, 0];
        ints_ok.extend_from_slice(&word(10_000));
        ints_ok.resize(ints_ok.len() + 40_000, 7);
        r.measure::<PackedInt32Array>(
            &format!("{d} PackedInt32Array of 10000"),
            &cfg,
            &ints_ok,
            true,
        );
        r.measure::<Variant>(
            &format!("{d} PackedInt32Array of 10000"),
            &cfg,
            &ints_ok,
            true,
        );

        // Nested containers whose counts each claim the rest of the input. The generic
        // serde path into serde_json::Value grows as elements arrive.
        let b = nested_bomb(ids.array, false, 1000, 16 << 10);
        r.measure::<serde_json::Value>(
            &format!("{d} 1000 nested Arrays claiming all"),
            &cfg,
            &b,
            false,
        );
    }
    r.check();
}

#[test]
fn nested_length_bombs_stay_under_a_multiple_of_the_input() {
    on_big_stack(nested_peaks);
}

fn nested_peaks() {
    let mut r = Report::default();
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let cfg = Config::new(dialect).allow_objects(true);
        let CountedIds { array, dict, .. } = CountedIds::of(dialect);
        let d = format!("{dialect}");
        let b = nested_bomb(array, false, 1000, 16 << 10);
        r.measure::<Variant>(
            &format!("{d} 1000 nested Arrays claiming all"),
            &cfg,
            &b,
            false,
        );
        let b = nested_bomb(dict, true, 1000, 16 << 10);
        r.measure::<Variant>(
            &format!("{d} 1000 nested Dictionaries claiming all"),
            &cfg,
            &b,
            false,
        );
    }
    let cfg = Config::new(Dialect::Godot4).allow_objects(true);
    let b = node_bomb(500, 16 << 10);
    r.measure::<Node>(
        "Godot 4 500 nested {children: [..]} claiming all",
        &cfg,
        &b,
        false,
    );
    let b = object_bomb(1000, 16 << 10);
    r.measure::<Variant>("Godot 4 1000 nested Objects claiming all", &cfg, &b, false);
    r.check();
}

/// A few levels of nested containers, each claiming the bytes left, with 1 to 24 KiB of
/// filler: the shallow end of [`nested_bomb`], where the first levels' reservations are
/// large next to the input.
fn shallow_peaks() {
    let mut r = Report::default();
    let cfg = Config::new(Dialect::Godot4);
    let CountedIds { array, dict, .. } = CountedIds::of(Dialect::Godot4);
    for (name, id, is_dict) in [("Arrays", array, false), ("Dictionaries", dict, true)] {
        for levels in [2, 3, 4, 6, 8, 13, 20, 100] {
            for pad in [
                1 << 10,
                3000,
                4 << 10,
                8 << 10,
                12000,
                12 << 10,
                16 << 10,
                24 << 10,
            ] {
                let b = nested_bomb(id, is_dict, levels, pad);
                r.measure::<Variant>(
                    &format!("Godot 4 {levels} nested {name} claiming all, {pad} B filler"),
                    &cfg,
                    &b,
                    false,
                );
            }
        }
    }
    r.check();
}

#[test]
fn shallow_nested_length_bombs_stay_under_a_multiple_of_the_input() {
    on_big_stack(shallow_peaks);
}
