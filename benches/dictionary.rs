//! `Dictionary`: building 10,000 and 100,000 entries (the time should grow in proportion:
//! insert takes constant time), 1,000 lookups in the large one, and decoding a packet of
//! that many entries into a `Variant`.
//!
//! Run: `cargo bench --bench dictionary`. Uses only `insert`, `get`, `len`, `to_vec` and
//! `from_slice`, so the same file runs against older versions of the crate for comparison.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use godot_bin::{Dictionary, Variant};
use std::time::Duration;

fn keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("key_{i:06}")).collect()
}

fn build(keys: &[String]) -> Dictionary {
    let mut d = Dictionary::new();
    for (i, k) in keys.iter().enumerate() {
        d.insert(k.as_str(), i as i64);
    }
    d
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("dictionary/build");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for n in [10_000usize, 100_000] {
        let k = keys(n);
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &k, |b, k| {
            b.iter(|| black_box(build(k)).len())
        });
    }
    g.finish();

    let k = keys(100_000);
    let big = build(&k);
    let mut g = c.benchmark_group("dictionary/get");
    g.throughput(Throughput::Elements(1_000));
    g.bench_function("1000 of 100000", |b| {
        b.iter(|| {
            let mut found = 0;
            for key in k.iter().step_by(100) {
                found += black_box(big.get(key.as_str())).is_some() as usize;
            }
            found
        })
    });
    g.finish();

    let mut g = c.benchmark_group("dictionary/decode");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for n in [10_000usize, 100_000] {
        let bytes = godot_bin::to_vec(&Variant::Dictionary(build(&keys(n)))).unwrap();
        g.throughput(Throughput::Elements(n as u64));
        g.bench_with_input(BenchmarkId::from_parameter(n), &bytes, |b, bytes| {
            b.iter(|| godot_bin::from_slice::<Variant>(black_box(bytes)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(dictionary, benches);
criterion_main!(dictionary);
