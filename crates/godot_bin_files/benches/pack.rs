//! Packs: listing one, extracting one beside copying the same bytes with `std::fs::copy`,
//! and patching one file in place in packs of 10 MB, 100 MB and 1 GB, to show that the
//! time of a patch does not grow with the pack.
//!
//! The packs are generated (format 2, Godot 4.4's layout, aligned to 16 as exports are)
//! into the temporary folder once: 160 files of 64 KiB, 640 KiB and 6.4 MiB (10 MB, 100 MB,
//! 1 GB: the same directory, bytes ten and a hundred times over), and 1,600 files of
//! 64 KiB (100 MB with a directory ten times longer). The 1 GB one only with
//! `GODOT_BIN_BENCH_1GB=1` (it needs a gigabyte of disk). Each patch iteration replaces one
//! file with 64 KiB (appended), writes the directory, as `godot-bin pack set` does, and
//! flushes the file to disk twice (`sync_data`). A patch reads and writes the directory,
//! so its time follows the number of files, not the pack's bytes.
//! Run: `cargo bench -p godot_bin_files --bench pack`.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use godot_bin_files::pack::{Pack, PackWriter, Patch};
use std::path::PathBuf;
use std::time::Duration;

const FILE: usize = 64 * 1024;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join("godot_bin_pack_bench");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A pack of about `mb` megabytes in `files` files, made once.
fn pack_of(mb: usize, files: usize) -> PathBuf {
    let path = dir().join(format!("pack_{mb}mb_{files}.pck"));
    if path.exists() {
        return path;
    }
    let mut w = PackWriter::for_engine("4.4.1").unwrap();
    let size = mb * 1024 * 1024 / files;
    let src = dir().join(format!("src_{mb}_{files}"));
    std::fs::create_dir_all(&src).unwrap();
    for i in 0..files {
        let f = src.join(format!("f{i:06}.bin"));
        if !f.exists() {
            let bytes: Vec<u8> = (0..size).map(|k| (k * 31 + i * 7) as u8).collect();
            std::fs::write(&f, bytes).unwrap();
        }
        w.add_file(&format!("res://data/f{i:06}.bin"), &f);
    }
    w.save(&path).unwrap();
    std::fs::remove_dir_all(&src).ok();
    path
}

fn list(c: &mut Criterion) {
    let mut g = c.benchmark_group("pack_list");
    g.measurement_time(Duration::from_secs(5));
    for (mb, files) in [(10, 160), (100, 160), (100, 1600)] {
        let path = pack_of(mb, files);
        g.bench_with_input(
            BenchmarkId::new("open_and_list", format!("{mb}MB_{files}files")),
            &path,
            |b, p| {
                b.iter(|| {
                    let pack = Pack::open(black_box(p)).unwrap();
                    black_box(pack.entries().len())
                })
            },
        );
    }
    g.finish();
}

fn extract(c: &mut Criterion) {
    let mut g = c.benchmark_group("pack_extract");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    let path = pack_of(100, 160);
    let len = std::fs::metadata(&path).unwrap().len();
    g.throughput(Throughput::Bytes(len));
    let out = dir().join("extracted");
    g.bench_function("extract_all_100MB", |b| {
        b.iter(|| {
            let mut pack = Pack::open(&path).unwrap();
            black_box(pack.extract_all(&out).unwrap())
        })
    });
    let copy = dir().join("copy.pck");
    g.bench_function("std_fs_copy_100MB", |b| {
        b.iter(|| black_box(std::fs::copy(&path, &copy).unwrap()))
    });
    g.finish();
    std::fs::remove_dir_all(&out).ok();
    std::fs::remove_file(&copy).ok();
}

fn patch(c: &mut Criterion) {
    let mut g = c.benchmark_group("pack_patch_one_file");
    g.sample_size(20).measurement_time(Duration::from_secs(10));
    let mut sizes = vec![(10, 160), (100, 160), (100, 1600)];
    if std::env::var_os("GODOT_BIN_BENCH_1GB").is_some_and(|v| v == "1") {
        sizes.push((1024, 160));
    }
    for (mb, files) in sizes {
        let original = pack_of(mb, files);
        let work = dir().join(format!("patched_{mb}_{files}.pck"));
        std::fs::copy(&original, &work).unwrap();
        // On disk before timing, so that no patch pays for flushing the copy.
        std::fs::File::open(&work).unwrap().sync_all().unwrap();
        let new: Vec<u8> = (0..FILE).map(|k| (k * 13) as u8).collect();
        let id = format!("{mb}MB_{files}files");
        g.bench_with_input(BenchmarkId::new("set", id), &work, |b, p| {
            b.iter(|| {
                let mut patch = Patch::open(p, None).unwrap();
                patch.set("res://data/f000003.bin", new.clone());
                black_box(patch.commit().unwrap())
            })
        });
        std::fs::remove_file(&work).ok();
    }
    g.finish();
}

criterion_group!(benches, list, extract, patch);
criterion_main!(benches);
