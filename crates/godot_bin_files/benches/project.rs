//! Reading a real project's scenes and resources into documents, and writing them back:
//! what a tool that scans a project, a pack or a corpus spends its time on (issue 50 #2).
//!
//! The project: every `.tscn`, `.tres`, `.scn` and `.res` below the folder named by
//! `GODOT_BIN_BENCH_PROJECT` (default `../shared/corpus/GDQuest__godot-open-rpg`, the
//! corpus project of that name, beside the checkout; `tests/corpus/README.md` says how the
//! corpus is made), skipping `.godot/` and other hidden folders as the engine's own
//! listing in `project_engine.gd` does. Text files are read with [`TextResource`], binary
//! ones with [`BinaryResource`]. The files' bytes are read from disk once, before timing:
//! - `read`: every file's bytes into its document;
//! - `write`: every document (read once, before timing) back to its bytes;
//! - `read_from_disk`: `fs::read` and the document, as `TextResource::load` does, against
//!   the page cache.
//!
//! Throughput counts the files' bytes. Without the project the bench says so and measures
//! nothing. The engine's load time of the same files: `project_engine.sh`; both figures
//! are in the workspace's `benches/RESULTS.md`.
//! Run: `cargo bench -p godot_bin_files --bench project`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use godot_bin_files::resource::{BinaryResource, TextResource};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The project folder to read.
fn project_dir() -> PathBuf {
    match std::env::var_os("GODOT_BIN_BENCH_PROJECT") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/GDQuest__godot-open-rpg"),
    }
}

/// Every scene and resource below `dir`, sorted, hidden folders skipped.
fn list(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            list(&path, out);
        } else if matches!(
            path.extension().and_then(|x| x.to_str()),
            Some("tscn" | "tres" | "scn" | "res")
        ) {
            out.push(path);
        }
    }
}

fn is_text(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|x| x.to_str()),
        Some("tscn" | "tres")
    )
}

/// One file's document, either form.
enum Doc {
    Text(TextResource),
    Binary(BinaryResource),
}

fn read(path: &Path, bytes: &[u8]) -> Doc {
    if is_text(path) {
        Doc::Text(TextResource::from_bytes(bytes).unwrap())
    } else {
        Doc::Binary(BinaryResource::from_bytes(bytes).unwrap())
    }
}

fn write(doc: &Doc) -> usize {
    match doc {
        Doc::Text(t) => t.to_string().len(),
        Doc::Binary(b) => b.to_bytes().unwrap().len(),
    }
}

fn project(c: &mut Criterion) {
    let dir = project_dir();
    let mut paths = Vec::new();
    list(&dir, &mut paths);
    paths.sort();
    if paths.is_empty() {
        eprintln!(
            "project bench skipped: no scenes or resources under {} (set GODOT_BIN_BENCH_PROJECT)",
            dir.display()
        );
        return;
    }
    let files: Vec<(PathBuf, Vec<u8>)> = paths
        .into_iter()
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let binary = files.iter().filter(|(p, _)| !is_text(p)).count();
    eprintln!(
        "project bench: {} files ({} binary), {} bytes, from {}",
        files.len(),
        binary,
        bytes,
        dir.display()
    );
    let docs: Vec<Doc> = files.iter().map(|(p, b)| read(p, b)).collect();
    // Written back unchanged, every file is itself: the bench measures the real thing.
    for ((p, b), d) in files.iter().zip(&docs) {
        let again = match d {
            Doc::Text(t) => t.to_string().into_bytes(),
            Doc::Binary(r) => r.to_bytes().unwrap(),
        };
        assert!(again == *b, "{} is not written back as read", p.display());
    }

    let mut g = c.benchmark_group("project");
    g.measurement_time(Duration::from_secs(8));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("read", |b| {
        b.iter(|| {
            for (p, bytes) in &files {
                black_box(read(p, bytes));
            }
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| docs.iter().map(write).sum::<usize>())
    });
    g.bench_function("read_from_disk", |b| {
        b.iter(|| {
            for (p, _) in &files {
                let bytes = std::fs::read(p).unwrap();
                black_box(read(p, &bytes));
            }
        })
    });
    g.finish();
}

criterion_group!(benches, project);
criterion_main!(benches);
