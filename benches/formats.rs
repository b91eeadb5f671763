//! godot_bin against postcard, cbor4ii, rmp-serde (plain and with field names) and
//! serde_json, side by side in one run, with two copies of the same bytes as the floor.
//! cbor4ii is the fastest self-describing serde format here (it names fields as godot_bin
//! must), so it is the bar for the struct encoder (issue 50).
//!
//! The data sets (`benches/data`), each encoded (`to_vec`) and decoded (`from_slice`) by
//! every format:
//! - `mesh`: a derived struct of two `PackedVector3Array`s (100,000 each), a
//!   `PackedInt32Array` (300,000) and a `PackedColorArray` (100,000);
//! - `game`: a `Vec` of 1,000 derived player structs (strings, ints, floats, a `Vector3`, a
//!   three-entry `HashMap`, an enum with unit and struct variants);
//! - `log`: 10,000 derived log-entry structs (four short strings, two ints), and
//!   `log_maps`: the same entries as `Vec<BTreeMap<String, String>>`;
//! - `snapshot`: a world snapshot of 1,000 derived player structs with strings, ints of
//!   several widths, floats, a bool, arrays of numbers and strings and nested item structs;
//! - `maps`: 2,000 `HashMap<String, i64>` of 12 entries, and `maps_variant`, the same data
//!   as each format's dynamic value (`Variant`; `rmpv::Value`, written and read by rmpv
//!   itself, under the `rmp_serde` name; `serde_json::Value`);
//! - `game_borrowed`, `log_borrowed`, `snapshot_borrowed` (decode only): the same packets
//!   decoded into structs that borrow their strings (`&str`) from the input.
//!
//! `rmp_serde_named` writes structs as maps with their field names
//! (`rmp_serde::to_vec_named`), as godot_bin must (a struct is a Dictionary for the
//! engine); postcard and plain `rmp_serde` write only the values.
//!
//! Every benchmark in a group reports `Throughput::Bytes` of the same number, the size of
//! the godot_bin packet, so the MB/s columns compare times directly. `copy_warm` copies the
//! packet's bytes into one buffer reused by every iteration; `copy_cold` into a new `Vec`
//! each time.
//!
//! Run `bash benches/run.sh` for three runs and the table of ratios with their spread
//! (`benches/report.py`), or `cargo bench --bench formats` for one.

use criterion::{black_box, criterion_group, Criterion, SamplingMode, Throughput};
mod data;

use data::*;
use serde::{de::DeserializeOwned, Serialize};
use std::time::Duration;

/// The floor of every group: copying the godot_bin packet's bytes, `copy_warm` into one
/// buffer reused by every iteration (source and destination stay in cache when they fit),
/// `copy_cold` into a newly allocated `Vec` each time, as `to_vec` and every decoder's
/// fresh output must.
fn copies(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, bytes: &[u8]) {
    g.bench_function("copy_warm", |b| {
        let mut dst = vec![0u8; bytes.len()];
        b.iter(|| {
            dst.copy_from_slice(black_box(bytes));
            black_box(&mut dst);
        })
    });
    g.bench_function("copy_cold", |b| {
        b.iter(|| black_box(black_box(bytes).to_vec()))
    });
}

/// `GODOT_BIN_BENCH_COUNT=<group>:<n>` (instruction counts, `COUNT=1 bash
/// benches/before_after.sh`): only the godot_bin function of `<group>` (`snapshot/decode`)
/// runs, `n` times, outside criterion, so that the difference between two counts of a
/// process under valgrind is `n`'s difference times one call, free of the machine's noise.
fn count_mode() -> Option<&'static (String, u64)> {
    static MODE: std::sync::OnceLock<Option<(String, u64)>> = std::sync::OnceLock::new();
    MODE.get_or_init(|| {
        let v = std::env::var("GODOT_BIN_BENCH_COUNT").ok()?;
        let (group, n) = v
            .rsplit_once(':')
            .expect("GODOT_BIN_BENCH_COUNT=<group>:<n>");
        Some((group.to_string(), n.parse().expect("a count")))
    })
    .as_ref()
}

/// The format whose function `GODOT_BIN_BENCH_COUNT` counts: `GODOT_BIN_BENCH_FORMAT`
/// (`cbor4ii`, `rmp_serde`...), godot_bin by default.
fn counted_format() -> &'static str {
    static FORMAT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FORMAT.get_or_init(|| {
        std::env::var("GODOT_BIN_BENCH_FORMAT").unwrap_or_else(|_| "godot_bin".into())
    })
}

/// A criterion benchmark of `format` in `g`, or, when counting group `group` in that
/// format, `f` called `n` times.
fn row<R>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    group: &str,
    format: &str,
    mut f: impl FnMut() -> R,
) {
    match count_mode() {
        None => {
            g.bench_function(format, |b| b.iter(&mut f));
        }
        Some((counted, n)) if counted == group && counted_format() == format => {
            (0..*n).for_each(|_| drop(black_box(f())))
        }
        Some(_) => {}
    }
}

/// Whether data set `name` is measured in this run (always, unless counting another's).
fn counted(name: &str) -> bool {
    count_mode().is_none_or(|(group, _)| group.split('/').next() == Some(name))
}

/// The godot_bin function of group `group`: a criterion benchmark, or, when counting that
/// group, `f` called `n` times.
fn godot_bin_row<R>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    group: &str,
    f: impl FnMut() -> R,
) {
    row(g, group, "godot_bin", f)
}

/// Encodes and decodes `value` with every format (checking each round trip first), plus the
/// memcpy floor, in two groups: `<name>/encode` and `<name>/decode`.
fn formats<T>(c: &mut Criterion, name: &str, value: &T, flat: bool)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    if !counted(name) {
        return;
    }
    let godot = godot_bin::to_vec(value).unwrap();
    let post = postcard::to_allocvec(value).unwrap();
    let cbor = cbor4ii::serde::to_vec(Vec::new(), value).unwrap();
    let rmp = rmp_serde::to_vec(value).unwrap();
    let rmp_named = rmp_serde::to_vec_named(value).unwrap();
    let json = serde_json::to_vec(value).unwrap();
    let same = |format: &str, back: T| assert!(&back == value, "{name}: {format} round trip");
    same("godot_bin", godot_bin::from_slice(&godot).unwrap());
    same("postcard", postcard::from_bytes(&post).unwrap());
    same("cbor4ii", cbor4ii::serde::from_slice(&cbor).unwrap());
    same("rmp_serde", rmp_serde::from_slice(&rmp).unwrap());
    same(
        "rmp_serde_named",
        rmp_serde::from_slice(&rmp_named).unwrap(),
    );
    same("serde_json", serde_json::from_slice(&json).unwrap());
    eprintln!(
        "{name}: encoded bytes godot_bin {} postcard {} cbor4ii {} rmp-serde {} (named {}) \
         serde_json {}",
        godot.len(),
        post.len(),
        cbor.len(),
        rmp.len(),
        rmp_named.len(),
        json.len()
    );

    let mut g = c.benchmark_group(format!("{name}/encode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    if flat {
        g.sampling_mode(SamplingMode::Flat);
    }
    godot_bin_row(&mut g, &format!("{name}/encode"), || {
        godot_bin::to_vec(black_box(value)).unwrap()
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(value)).unwrap())
    });
    row(&mut g, &format!("{name}/encode"), "cbor4ii", || {
        cbor4ii::serde::to_vec(Vec::new(), black_box(value)).unwrap()
    });
    g.bench_function("rmp_serde", |b| {
        b.iter(|| rmp_serde::to_vec(black_box(value)).unwrap())
    });
    g.bench_function("rmp_serde_named", |b| {
        b.iter(|| rmp_serde::to_vec_named(black_box(value)).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_vec(black_box(value)).unwrap())
    });
    copies(&mut g, &godot);
    g.finish();

    let mut g = c.benchmark_group(format!("{name}/decode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    if flat {
        g.sampling_mode(SamplingMode::Flat);
    }
    godot_bin_row(&mut g, &format!("{name}/decode"), || {
        godot_bin::from_slice::<T>(black_box(&godot)).unwrap()
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<T>(black_box(&post)).unwrap())
    });
    row(&mut g, &format!("{name}/decode"), "cbor4ii", || {
        cbor4ii::serde::from_slice::<T>(black_box(&cbor)).unwrap()
    });
    g.bench_function("rmp_serde", |b| {
        b.iter(|| rmp_serde::from_slice::<T>(black_box(&rmp)).unwrap())
    });
    g.bench_function("rmp_serde_named", |b| {
        b.iter(|| rmp_serde::from_slice::<T>(black_box(&rmp_named)).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<T>(black_box(&json)).unwrap())
    });
    copies(&mut g, &godot);
    g.finish();
}

/// Decodes the packets of `$value` into `$ty`, a type that borrows its strings from the
/// input, with every format: `<$name>/decode`. `$check` tells whether a decoded value holds
/// the original's data. (A macro: the borrowed type's lifetime is each input's.)
macro_rules! borrowed {
    ($c:expr, $name:literal, $value:expr, $ty:ty, $check:expr) => {
        if counted($name) {
            borrowed!(@run $c, $name, $value, $ty, $check)
        }
    };
    (@run $c:expr, $name:literal, $value:expr, $ty:ty, $check:expr) => {{
        let value = $value;
        let check = $check;
        let godot = godot_bin::to_vec(value).unwrap();
        let post = postcard::to_allocvec(value).unwrap();
        let cbor = cbor4ii::serde::to_vec(Vec::new(), value).unwrap();
        let rmp = rmp_serde::to_vec(value).unwrap();
        let rmp_named = rmp_serde::to_vec_named(value).unwrap();
        let json = serde_json::to_vec(value).unwrap();
        let same = |format: &str, back: $ty| {
            assert!(check(&back, value), "{}: {format} round trip", $name);
        };
        same("godot_bin", godot_bin::from_slice(&godot).unwrap());
        same("postcard", postcard::from_bytes(&post).unwrap());
        same("cbor4ii", cbor4ii::serde::from_slice(&cbor).unwrap());
        same("rmp_serde", rmp_serde::from_slice(&rmp).unwrap());
        same(
            "rmp_serde_named",
            rmp_serde::from_slice(&rmp_named).unwrap(),
        );
        same("serde_json", serde_json::from_slice(&json).unwrap());

        let mut g = $c.benchmark_group(concat!($name, "/decode"));
        g.throughput(Throughput::Bytes(godot.len() as u64));
        godot_bin_row(&mut g, concat!($name, "/decode"), || {
            godot_bin::from_slice::<$ty>(black_box(&godot)).unwrap()
        });
        g.bench_function("postcard", |b| {
            b.iter(|| postcard::from_bytes::<$ty>(black_box(&post)).unwrap())
        });
        row(&mut g, concat!($name, "/decode"), "cbor4ii", || {
            cbor4ii::serde::from_slice::<$ty>(black_box(&cbor)).unwrap()
        });
        g.bench_function("rmp_serde", |b| {
            b.iter(|| rmp_serde::from_slice::<$ty>(black_box(&rmp)).unwrap())
        });
        g.bench_function("rmp_serde_named", |b| {
            b.iter(|| rmp_serde::from_slice::<$ty>(black_box(&rmp_named)).unwrap())
        });
        g.bench_function("serde_json", |b| {
            b.iter(|| serde_json::from_slice::<$ty>(black_box(&json)).unwrap())
        });
        copies(&mut g, &godot);
        g.finish();
    }};
}

/// Whether every decoded element passes `check` against the original's.
fn all<R, V>(back: &[R], value: &[V], check: impl Fn(&R, &V) -> bool) -> bool {
    back.len() == value.len() && back.iter().zip(value).all(|(r, v)| check(r, v))
}

/// Dictionary-heavy data as each format's own dynamic value, both ways: godot_bin's
/// `Variant`, MessagePack's `rmpv::Value` (written and read by rmpv natively) and
/// `serde_json::Value`. postcard has no dynamic value.
fn dynamic(c: &mut Criterion, name: &str, data: &impl Serialize) {
    if !counted(name) {
        return;
    }
    // Through bytes rather than `to_variant`, so that benches/before_after.sh can run this
    // file on trees older than `to_variant`.
    let variant: godot_bin::Variant =
        godot_bin::from_slice(&godot_bin::to_vec(data).unwrap()).unwrap();
    let rmpv_value = rmpv::ext::to_value(data).unwrap();
    let json_value = serde_json::to_value(data).unwrap();
    let godot = godot_bin::to_vec(&variant).unwrap();
    let mut rmp = Vec::new();
    rmpv::encode::write_value(&mut rmp, &rmpv_value).unwrap();
    let json = serde_json::to_vec(&json_value).unwrap();
    assert_eq!(
        godot_bin::from_slice::<godot_bin::Variant>(&godot).unwrap(),
        variant
    );
    assert_eq!(rmpv::decode::read_value(&mut &rmp[..]).unwrap(), rmpv_value);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&json).unwrap(),
        json_value
    );

    let mut g = c.benchmark_group(format!("{name}/encode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    godot_bin_row(&mut g, &format!("{name}/encode"), || {
        godot_bin::to_vec(black_box(&variant)).unwrap()
    });
    g.bench_function("rmp_serde", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            rmpv::encode::write_value(&mut out, black_box(&rmpv_value)).unwrap();
            out
        })
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::to_vec(black_box(&json_value)).unwrap())
    });
    copies(&mut g, &godot);
    g.finish();

    let mut g = c.benchmark_group(format!("{name}/decode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    godot_bin_row(&mut g, &format!("{name}/decode"), || {
        godot_bin::from_slice::<godot_bin::Variant>(black_box(&godot)).unwrap()
    });
    g.bench_function("rmp_serde", |b| {
        b.iter(|| rmpv::decode::read_value(&mut black_box(&rmp[..])).unwrap())
    });
    g.bench_function("serde_json", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&json)).unwrap())
    });
    copies(&mut g, &godot);
    g.finish();
}

fn benches(c: &mut Criterion) {
    formats(c, "mesh", &mesh(), true);
    let players = game_state();
    formats(c, "game", &players, false);
    borrowed!(
        c,
        "game_borrowed",
        &players,
        Vec<PlayerRef>,
        |back: &Vec<PlayerRef>, value: &Vec<Player>| all(back, value, |r, v| {
            (r.name, r.id, r.hp, r.level) == (&v.name, v.id, v.hp, v.level)
                && (r.speed, r.score, r.position) == (v.speed, v.score, v.position)
                && r.inventory.len() == v.inventory.len()
                && v.inventory
                    .iter()
                    .all(|(k, n)| r.inventory.get(k.as_str()) == Some(n))
                && r.state == v.state
        })
    );
    let entries = log();
    formats(c, "log", &entries, false);
    borrowed!(
        c,
        "log_borrowed",
        &entries,
        Vec<LogEntryRef>,
        |back: &Vec<LogEntryRef>, value: &Vec<LogEntry>| all(back, value, |r, v| {
            (r.level, r.source, r.message, r.thread) == (&v.level, &v.source, &v.message, &v.thread)
                && (r.time, r.line) == (v.time, v.line)
        })
    );
    formats(c, "log_maps", &log_maps(&entries), false);
    let snap = snapshot();
    formats(c, "snapshot", &snap, false);
    borrowed!(c, "snapshot_borrowed", &snap, SnapshotRef, same_snapshot);
    let maps = maps();
    formats(c, "maps", &maps, false);
    dynamic(c, "maps_variant", &maps);
}

criterion_group! {
    name = formats_benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}

fn main() {
    if count_mode().is_some() {
        // Every criterion row is filtered out; `godot_bin_row` runs the counted one.
        benches(&mut Criterion::default().with_filter("^counting: no criterion row$"));
        return;
    }
    formats_benches();
    Criterion::default().configure_from_args().final_summary();
}
