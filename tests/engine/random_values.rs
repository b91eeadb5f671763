//! A random-value differential against both real engines (Godot 4.4.1 and Godot 3.2.3), in
//! both directions:
//!
//! * **engine → crate**: a GDScript generator (`random_values/gen4.gd`, `gen3.gd`) makes
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

use compare::{check, parse_records, Record, Tally};
use godot_bin::{Config, Dialect};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const GEN4: &str = include_str!("random_values/gen4.gd");
const GEN3: &str = include_str!("random_values/gen3.gd");
const CHECK4: &str = include_str!("random_values/check4.gd");
const CHECK3: &str = include_str!("random_values/check3.gd");

/// The seed CI runs.
pub const DEFAULT_SEED: u64 = 16_2026_1123;
/// Values per engine and direction in CI.
pub const DEFAULT_COUNT: usize = 4000;
/// Env var: another seed.
pub const SEED_ENV: &str = "GODOT_BIN_DIFF_SEED";
/// Env var: another count.
pub const COUNT_ENV: &str = "GODOT_BIN_DIFF_COUNT";

/// Seed and count for this run.
pub fn settings() -> (u64, usize) {
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

/// Which engine, and where.
pub struct Engine {
    pub dialect: Dialect,
    pub path: PathBuf,
}

impl Engine {
    /// Runs `call` (a GDScript expression using the script `helper.gd`, written into the
    /// run directory with `inputs`) and returns the file `out.bin` it wrote.
    fn run(&self, helper: &str, call: &str, inputs: &[(&str, &[u8])]) -> Vec<u8> {
        let dir = std::env::temp_dir().join(format!(
            "godot_bin-random-{}-{}",
            std::process::id(),
            Instant::now().elapsed().as_nanos() ^ rand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("helper.gd"), helper).unwrap();
        for (name, bytes) in inputs {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        let main = format!(
            "extends SceneTree\n\nfunc _init():\n\t{call}\n\tprint(\"RANDOM_VALUES:DONE\")\n\tquit()\n"
        );
        std::fs::write(dir.join("main.gd"), main).unwrap();
        let mut cmd = Command::new(&self.path);
        if self.dialect == Dialect::Godot4 {
            std::fs::write(dir.join("project.godot"), "config_version=5\n").unwrap();
            cmd.args(["--headless", "--path"])
                .arg(&dir)
                .args(["-s", "main.gd"]);
        } else {
            cmd.args(["--no-window", "-s", "main.gd"]);
        }
        let log = std::fs::File::create(dir.join("log.txt")).unwrap();
        let mut child = cmd
            .current_dir(&dir)
            .env("HOME", &dir)
            .env("LANG", "en_US.UTF-8")
            .stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.path.display()));
        let deadline = Instant::now() + Duration::from_secs(300);
        loop {
            if child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the engine timed out; its run directory: {}", dir.display());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let log = std::fs::read_to_string(dir.join("log.txt")).unwrap_or_default();
        assert!(
            log.contains("RANDOM_VALUES:DONE") && !log.contains("SCRIPT ERROR"),
            "the engine run failed ({}):\n{log}",
            dir.display()
        );
        let out = std::fs::read(dir.join("out.bin")).expect("the engine wrote out.bin");
        let _ = std::fs::remove_dir_all(&dir);
        out
    }
}

fn rand_suffix() -> u128 {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    N.fetch_add(1, Ordering::Relaxed) as u128
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

fn finish(title: &str, tally: &Tally, started: Instant) {
    eprintln!("{} ({:.1?})", tally.report(title), started.elapsed());
    assert!(
        tally.disagreements.is_empty(),
        "{title}: {} disagreements with the engine:\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n")
    );
}

/// Engine → crate: the engine's random values, decoded, re-encoded and printed by the crate.
pub fn engine_to_crate(engine: &Engine) -> Tally {
    let (seed, count) = settings();
    let started = Instant::now();
    let (helper, name) = match engine.dialect {
        Dialect::Godot4 => (GEN4, "Godot 4.4.1"),
        _ => (GEN3, "Godot 3.2.3"),
    };
    let out = engine.run(
        helper,
        &format!("load(\"res://helper.gd\").new().run({seed}, {count}, \"out.bin\")"),
        &[],
    );
    let mut tally = Tally::default();
    for rec in expect_records(&out, count) {
        check(engine.dialect, &rec, &mut tally);
    }
    finish(
        &format!("{name} engine -> crate, seed {seed}"),
        &tally,
        started,
    );
    tally
}

/// Crate → engine: the crate's random values, decoded, re-encoded and printed by the engine.
pub fn crate_to_engine(engine: &Engine) -> Tally {
    let (seed, count) = settings();
    let started = Instant::now();
    let (helper, name) = match engine.dialect {
        Dialect::Godot4 => (CHECK4, "Godot 4.4.1"),
        _ => (CHECK3, "Godot 3.2.3"),
    };
    let values = generate::values(engine.dialect, seed, count);
    let mut input = (count as u32).to_le_bytes().to_vec();
    for (value, full) in &values {
        let cfg = Config::new(engine.dialect).allow_objects(*full);
        let packet = cfg
            .to_vec(value)
            .unwrap_or_else(|e| panic!("the crate cannot encode {value:?}: {e}"));
        input.push(if *full { 16 } else { 0 });
        input.extend_from_slice(&(packet.len() as u32).to_le_bytes());
        input.extend_from_slice(&packet);
    }
    let out = engine.run(
        helper,
        "load(\"res://helper.gd\").new().run(\"in.bin\", \"out.bin\")",
        &[("in.bin", &input)],
    );
    let mut tally = Tally::default();
    for rec in expect_records(&out, count) {
        check(engine.dialect, &rec, &mut tally);
    }
    finish(
        &format!("{name} crate -> engine, seed {seed}"),
        &tally,
        started,
    );
    tally
}

/// The engine's executable from its env var, if set and present.
pub fn engine_from_env(var: &str, fallback: &str, dialect: Dialect) -> Option<Engine> {
    let path = std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::split_paths(&std::env::var_os("PATH")?)
                .map(|d| d.join(fallback))
                .find(|p| p.is_file())
        })?;
    Path::new(&path)
        .is_file()
        .then_some(Engine { dialect, path })
}
