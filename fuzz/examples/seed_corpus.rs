//! Writes the seed corpus: every golden packet (`../shared/golden/*.tsv`, hex-decoded) into
//! `corpus/<target>/` for the targets of its dialect, plus encodings of the sample struct
//! for `decode_struct`. Run from `fuzz/`: `cargo run --example seed_corpus`. The corpus is
//! not committed (`.gitignore`).

use godot_bin::{Config, Dialect};
use godot_bin_fuzz::{sample_player, State};
use std::path::{Path, PathBuf};

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::create_dir_all(dir).expect("create corpus dir");
    std::fs::write(dir.join(name), bytes).expect("write seed");
}

fn main() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let golden = std::env::var_os("GODOT_BIN_GOLDEN_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| here.join("../../shared/golden"));
    let corpus = here.join("corpus");
    let files = [
        ("godot4.tsv", "decode_godot4", Dialect::Godot4),
        ("godot3.tsv", "decode_godot3", Dialect::Godot3),
        (
            "pandemonium.tsv",
            "decode_pandemonium",
            Dialect::Pandemonium,
        ),
    ];
    let mut count = 0;
    for (file, target, _) in files {
        let text = std::fs::read_to_string(golden.join(file))
            .unwrap_or_else(|e| panic!("{}: {e}", golden.join(file).display()));
        for line in text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let mut cols = line.split('\t');
            let name = cols.next().expect("name");
            let bytes = unhex(cols.next().expect("hex"));
            let seed = format!("{}-{name}", file.trim_end_matches(".tsv"));
            for t in [
                target,
                "roundtrip",
                "decode_struct",
                "decode_other_dialects",
            ] {
                write(&corpus.join(t), &seed, &bytes);
            }
            count += 1;
        }
    }
    let states = [
        State::Idle,
        State::Moving(godot_bin::Vector3::new(1.0, 0.0, -1.0)),
        State::Fighting(2, "x".into()),
        State::Dead { at: -5 },
    ];
    for (_, _, dialect) in files {
        let cfg = Config::new(dialect);
        let player = cfg.to_vec(&sample_player()).expect("encode sample");
        write(
            &corpus.join("decode_struct"),
            &format!("player-{dialect}"),
            &player,
        );
        for (i, s) in states.iter().enumerate() {
            let bytes = cfg.to_vec(s).expect("encode state");
            write(
                &corpus.join("decode_struct"),
                &format!("state{i}-{dialect}"),
                &bytes,
            );
        }
    }
    // Save files: each engine-made file, behind the byte that makes the file targets take
    // it as a file (0 for file_encrypted, 4 for file_compressed); its plain content behind
    // the bytes that make them wrap it themselves.
    let files = here.join("../tests/data/files");
    for engine in ["godot3", "godot4"] {
        let dir = files.join(engine);
        for entry in std::fs::read_dir(&dir).expect("tests/data/files") {
            let path = entry.expect("entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).expect("read file");
            if name.ends_with(".bin") {
                let (target, how) = if bytes.starts_with(b"GDEC") {
                    ("file_encrypted", 0u8)
                } else {
                    ("file_compressed", 4u8)
                };
                write(&corpus.join(target), &name, &[&[how][..], &bytes].concat());
                count += 1;
            } else if name.ends_with(".plain") && bytes.len() < 4096 {
                for (target, how) in [
                    ("file_encrypted", 1u8),
                    ("file_encrypted", 2),
                    ("file_compressed", 0),
                    ("file_compressed", 2),
                ] {
                    write(
                        &corpus.join(target),
                        &format!("{name}-{how}"),
                        &[&[how][..], &bytes].concat(),
                    );
                }
            }
        }
    }
    println!("{count} golden seeds written under {}", corpus.display());
}
