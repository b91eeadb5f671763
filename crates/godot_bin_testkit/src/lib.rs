//! The godot_bin workspace's shared test helpers (not published): finding and running the
//! real engines (`engine`, `godot3`, `godot4`, `run`), the engine-made golden packets
//! (`golden`), allocation counting (`alloc`), and comparisons of values (`variant`). Every
//! crate's test binaries take it as `use godot_bin_testkit as support;`.
#![allow(missing_docs)]

pub mod alloc;
pub mod engine;
pub mod godot;
pub mod godot3;
pub mod godot4;
pub mod golden;
pub mod hex;
pub mod packets;
pub mod run;
pub mod variant;

/// The GDScript that draws random values in the engines, shared by the random-value
/// differential (godot_bin) and the resource round trips (godot_bin_files): Godot 4's
/// generator, then the recorder.
pub const GEN4_GD: &str = concat!(include_str!("gd/gen4.gd"), include_str!("gd/record.gd"));
/// Godot 3's generator, then the recorder.
pub const GEN3_GD: &str = concat!(include_str!("gd/gen3.gd"), include_str!("gd/record.gd"));
/// The record writer the generators end with, for other scripts that write records.
pub const RECORD_GD: &str = include_str!("gd/record.gd");

// The random-value differential's seed and count, shared by every crate that draws from
// the generators.

/// The seed CI runs.
pub const DEFAULT_SEED: u64 = 16_2026_1123;
/// Values per engine and direction in CI.
pub const DEFAULT_COUNT: usize = 4000;
/// Env var: another seed.
pub const SEED_ENV: &str = "GODOT_BIN_DIFF_SEED";
/// Env var: another count.
pub const COUNT_ENV: &str = "GODOT_BIN_DIFF_COUNT";

/// Seed and count of the random values for this run.
pub fn random_settings() -> (u64, usize) {
    let read = |name: &str| {
        std::env::var(name).ok().filter(|v| !v.is_empty()).map(|v| {
            v.parse::<u64>()
                .unwrap_or_else(|e| panic!("{name}={v}: {e}"))
        })
    };
    (
        read(SEED_ENV).unwrap_or(DEFAULT_SEED),
        read(COUNT_ENV).map_or(DEFAULT_COUNT, |n| n as usize),
    )
}
