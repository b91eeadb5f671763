//! A random-value differential against both real engines (Godot 4.4.1 and Godot 3.2.3), in
//! both directions:
//!
//! * **engine → crate**: a GDScript generator (the test kit's `gd/gen4.gd`, `gd/gen3.gd`) makes
//!   thousands of values from a seed: every type, nested containers (depth 6 to 12, and a
//!   few past 100), typed Arrays and Dictionaries (Godot 4), objects as ids and (every fifth
//!   value) in full, edge floats (NaN of either sign, -0.0, infinities, denormals, extremes),
//!   edge ints, strings with a BOM, absolute, empty and root NodePaths, Dictionaries with
//!   17 to 60 keys of mixed types, and packets built byte by byte (repeated Dictionary keys,
//!   a NUL inside a string, a small int sent as 64 bits, the null object id). For each it
//!   writes the packet, its own decode-and-re-encode of it and its text of the decoded value.
//! * **crate → engine**: a seeded proptest generator of [`Variant`]s per dialect; the
//!   engine decodes each packet (`random_values/check4.gd`, `check3.gd`), re-encodes it and
//!   prints it.
//!
//! Both directions then run the same comparison ([`compare::check`]): the crate decodes the
//! packet, its re-encoding must equal the packet or the engine's re-encoding, its text must
//! be the engine's, and any difference must be one of the short named list
//! ([`compare::Named`]), each checked rather than assumed. The counts are printed per engine
//! and direction.
//!
//! The seed is fixed for CI and printed; `GODOT_BIN_DIFF_SEED=<u64>` runs another and
//! `GODOT_BIN_DIFF_COUNT=<n>` sets the number of values per engine and direction (default
//! 4000), for long runs by hand.

#[path = "random_values/compare.rs"]
pub mod compare;
#[path = "random_values/generate.rs"]
pub mod generate;

use crate::support::engine::trial;
use crate::support::godot::{self, Godot, Kind};
use crate::support::godot3::G3;
use crate::support::godot4::G4;
use compare::{check, parse_records, Record, Tally};
use godot_bin::Config;
use libtest_mimic::Trial;
use std::time::{Duration, Instant};

// Each script with the record writer they share appended (the generators live in the
// test kit: godot_bin_files' resource round trips use them too).
use crate::support::{GEN3_GD as GEN3, GEN4_GD as GEN4, RECORD_GD};
fn check4() -> String {
    format!("{}{RECORD_GD}", include_str!("random_values/check4.gd"))
}
fn check3() -> String {
    format!("{}{RECORD_GD}", include_str!("random_values/check3.gd"))
}

pub fn trials() -> Vec<Trial> {
    vec![
        trial::<G4>("random_values::godot4_engine_to_crate", |e| {
            engine_to_crate(e, GEN4);
        }),
        trial::<G4>("random_values::godot4_crate_to_engine", |e| {
            crate_to_engine(e, &check4());
        }),
        trial::<G3>("random_values::godot3_engine_to_crate", |e| {
            engine_to_crate(e, GEN3);
        }),
        trial::<G3>("random_values::godot3_crate_to_engine", |e| {
            crate_to_engine(e, &check3());
        }),
        Trial::test("random_values::printf_g_matches_c", || {
            compare::printf_g_matches_c();
            Ok(())
        }),
        Trial::test(
            "random_values::text_splits_into_numbers_and_the_rest",
            || {
                compare::tokens_split_numbers_from_words();
                Ok(())
            },
        ),
    ]
}

pub use crate::support::random_settings as settings;

/// Runs `call` (GDScript using the script `helper.gd`, written into the run directory with
/// `inputs`) in `engine` and returns the file `out.bin` it wrote.
fn run<K: Kind>(engine: &Godot<K>, helper: &str, call: &str, inputs: &[(&str, &[u8])]) -> Vec<u8> {
    let mut files = vec![("helper.gd", helper.as_bytes())];
    files.extend_from_slice(inputs);
    // Thousands of values a run; a long run by hand may take minutes.
    let timeout = Duration::from_secs(1800);
    let res = godot::run_script_with_timeout(engine, call, &files, timeout);
    res.assert_ok();
    res.read_file("out.bin")
}

/// The records, checked to be the `count` values asked for, in order.
fn expect_records(bytes: &[u8], count: usize) -> Vec<Record> {
    let records = parse_records(bytes);
    let indices: Vec<u32> = records.iter().map(|r| r.index).collect();
    assert!(
        indices.iter().copied().eq(0..count as u32),
        "the engine wrote {} of {count} records (a GDScript error skips one)",
        records.len()
    );
    records
}

/// Checks the `count` records of `out` in `K`'s dialect, prints the tally under the title
/// `direction` and fails on any disagreement.
fn check_records<K: Kind>(out: &[u8], count: usize, direction: &str, started: Instant) -> Tally {
    let (seed, _) = settings();
    let mut tally = Tally::default();
    for rec in expect_records(out, count) {
        check(K::DIALECT, &rec, &mut tally);
    }
    let title = format!("Godot {} {direction}, seed {seed}", K::VERSION);
    eprintln!("{} ({:.1?})", tally.report(&title), started.elapsed());
    assert!(
        tally.disagreements.is_empty(),
        "{title}: {} disagreements with the engine:\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n")
    );
    tally
}

/// Engine → crate: the engine's random values (from the script `generator`), decoded,
/// re-encoded and printed by the crate.
fn engine_to_crate<K: Kind>(engine: &Godot<K>, generator: &str) -> Tally {
    let (seed, count) = settings();
    let started = Instant::now();
    let out = run(
        engine,
        generator,
        &format!("load(\"res://helper.gd\").new().run({seed}, {count}, \"out.bin\")"),
        &[],
    );
    check_records::<K>(&out, count, "engine -> crate", started)
}

/// Crate → engine: the crate's random values, decoded, re-encoded and printed by the engine
/// (with the script `checker`).
fn crate_to_engine<K: Kind>(engine: &Godot<K>, checker: &str) -> Tally {
    let (seed, count) = settings();
    let started = Instant::now();
    let values = generate::values(K::DIALECT, seed, count);
    let mut input = (count as u32).to_le_bytes().to_vec();
    for (value, full) in &values {
        let cfg = Config::new(K::DIALECT).allow_objects(*full);
        let packet = cfg
            .to_vec(value)
            .unwrap_or_else(|e| panic!("the crate cannot encode {value:?}: {e}"));
        input.push(if *full { 16 } else { 0 });
        input.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        input.extend_from_slice(&packet);
    }
    let out = run(
        engine,
        checker,
        "load(\"res://helper.gd\").new().run(\"in.bin\", \"out.bin\")",
        &[("in.bin", &input)],
    );
    check_records::<K>(&out, count, "crate -> engine", started)
}
