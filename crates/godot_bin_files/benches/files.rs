//! Reading a large compressed save through `godot_bin_files::save` against decompressing the
//! same blocks with the codec crates directly: what the container adds.
//!
//! The save: about 10 MiB of `store_var` content (a mix of dictionaries, strings, packed
//! arrays, about what a game's state looks like), compressed in each mode the engine
//! writes, in the engine's 4096-byte blocks. For each mode:
//! - `codec`: every block decompressed with the codec crate into one reused buffer
//!   (flate2 for Deflate and gzip, zstd, fastlz-rs for FastLZ, whose engine bytes no crate
//!   reproduces, so the container uses its own decoder): the floor;
//! - `decompress`: `file::decompress`, the whole content into one `Vec`;
//! - `reader`: the streaming `Reader` read to the end through `std::io::Read` (one block in
//!   memory at a time);
//! - `values`: the `Reader` decoding every value into `Variant` (decoding included).
//!
//! Throughput counts the content's bytes, so the MB/s compare times.
//! Run: `cargo bench -p godot_bin_files --bench files`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use godot_bin::{Config, Dictionary, Variant};
use godot_bin_files::save::{self as file, Compression, Reader, Writer};
use std::io::Read;
use std::time::Duration;

/// A save of about 10 MiB of content.
fn save_values() -> Vec<Variant> {
    let mut values = Vec::new();
    for i in 0..2000i64 {
        let mut d = Dictionary::new();
        d.insert("id", i);
        d.insert("name", format!("player {i}"));
        d.insert("pos", godot_bin::Vector3::new(i as f32, 2.0, -(i as f32)));
        d.insert("hp", (i % 100) as i32);
        d.insert(
            "path",
            Variant::PackedVector3Array(
                (0..300)
                    .map(|k| godot_bin::Vector3::new(k as f32, (i % 7) as f32, 0.5))
                    .collect::<Vec<_>>()
                    .into(),
            ),
        );
        d.insert(
            "seen",
            Variant::PackedInt32Array(
                (0..400)
                    .map(|k| (k * i % 1000) as i32)
                    .collect::<Vec<_>>()
                    .into(),
            ),
        );
        values.push(Variant::Dictionary(d));
    }
    values
}

/// Each block's compressed bytes and content length, from the file's table.
fn blocks(file: &[u8]) -> Vec<(&[u8], usize)> {
    let word = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let (size, total) = (word(8), word(12));
    let count = total / size + 1;
    let mut at = 16 + 4 * count;
    (0..count)
        .map(|i| {
            let c = word(16 + 4 * i);
            let len = if i + 1 == count { total % size } else { size };
            let b = (&file[at..at + c], len);
            at += c;
            b
        })
        .collect()
}

/// Decompresses every block with the codec crate itself into `out` (reused).
fn codec_only(mode: Compression, blocks: &[(&[u8], usize)], out: &mut [u8]) -> usize {
    let mut n = 0;
    match mode {
        Compression::FastLz => {
            for (b, len) in blocks {
                let got = fastlz_rs::decompress_to_buf(b, &mut out[..(*len).max(16)]).unwrap();
                n += got.min(*len);
            }
        }
        Compression::Deflate | Compression::Gzip => {
            let mut d = if mode == Compression::Gzip {
                flate2::Decompress::new_gzip(15)
            } else {
                flate2::Decompress::new(true)
            };
            for (b, len) in blocks {
                d.reset(true);
                d.decompress(b, &mut out[..*len], flate2::FlushDecompress::Finish)
                    .unwrap();
                n += d.total_out() as usize;
            }
        }
        Compression::Zstd => {
            let mut d = zstd::bulk::Decompressor::new().unwrap();
            for (b, len) in blocks {
                n += d.decompress_to_buffer(b, &mut out[..*len]).unwrap();
            }
        }
        Compression::Brotli => unreachable!(),
    }
    n
}

fn bench(c: &mut Criterion) {
    let cfg = Config::default();
    let values = save_values();
    let mut plain = Writer::plain(Vec::new(), &cfg);
    for v in &values {
        plain.write_value(v).unwrap();
    }
    let content = plain.finish().unwrap();
    let mut group = c.benchmark_group("files");
    group
        .throughput(Throughput::Bytes(content.len() as u64))
        .sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    for mode in [
        Compression::FastLz,
        Compression::Deflate,
        Compression::Zstd,
        Compression::Gzip,
    ] {
        let packed = file::compress(&content, mode).unwrap();
        let table = blocks(&packed);
        let mut out = vec![0u8; 4096];
        assert_eq!(codec_only(mode, &table, &mut out), content.len());
        assert_eq!(file::decompress(&packed).unwrap(), content);
        eprintln!(
            "{mode}: {} bytes of content in {} bytes, {} blocks",
            content.len(),
            packed.len(),
            table.len()
        );
        group.bench_function(format!("{mode}/codec"), |b| {
            b.iter(|| codec_only(mode, black_box(&table), &mut out))
        });
        group.bench_function(format!("{mode}/decompress"), |b| {
            b.iter(|| file::decompress(black_box(&packed)).unwrap())
        });
        group.bench_function(format!("{mode}/reader"), |b| {
            let mut sink = vec![0u8; 64 << 10];
            b.iter(|| {
                let mut r = Reader::new(black_box(&packed[..]), &cfg).unwrap();
                let mut n = 0;
                loop {
                    let got = r.read(&mut sink).unwrap();
                    if got == 0 {
                        break n;
                    }
                    n += got;
                }
            })
        });
        group.bench_function(format!("{mode}/values"), |b| {
            b.iter(|| {
                let mut r = Reader::new(black_box(&packed[..]), &cfg).unwrap();
                r.values::<Variant>().map(Result::unwrap).count()
            })
        });
    }
    group.finish();
}

criterion_group!(files_benches, bench);
criterion_main!(files_benches);
