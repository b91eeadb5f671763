//! godot_bin against postcard, rmp-serde and serde_json, side by side in one run, with a
//! plain memcpy of the same number of bytes as the floor.
//!
//! Three data sets, each encoded (`to_vec`) and decoded (`from_slice`) by every format:
//! - `mesh`: a derived struct of two `PackedVector3Array`s (100,000 each), a
//!   `PackedInt32Array` (300,000) and a `PackedColorArray` (100,000);
//! - `game`: a `Vec` of 1,000 derived player structs (strings, ints, floats, a `Vector3`, a
//!   three-entry `HashMap`, an enum with unit and struct variants);
//! - `log`: 10,000 derived log-entry structs (four short strings, two ints), and
//!   `log_maps`: the same entries as `Vec<BTreeMap<String, String>>`;
//! - `game_borrowed` and `log_borrowed` (decode only): the same packets decoded into
//!   structs that borrow their strings (`&str`) from the input, as every format here can.
//!
//! Besides the three formats the issue names, `rmp_serde_named` writes structs as maps
//! with their field names (`rmp_serde::to_vec_named`), as godot_bin must (a struct is a
//! Dictionary for the engine); postcard and plain `rmp_serde` write only the values.
//!
//! Every benchmark in a group reports `Throughput::Bytes` of the same number: the size of
//! the godot_bin packet for that data set. Each format's MB/s is that number over its own
//! time, so the MB/s columns compare times directly (and `memcpy` copies exactly that many
//! bytes into a preallocated buffer).
//!
//! Run: `cargo bench --bench formats` (about three minutes on two cores); then
//! `python3 benches/report.py` prints the table from `target/criterion`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use godot_bin::{Color, PackedColorArray, PackedInt32Array, PackedVector3Array, Vector3};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Mesh {
    vertices: PackedVector3Array,
    normals: PackedVector3Array,
    indices: PackedInt32Array,
    colors: PackedColorArray,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum PlayerState {
    Idle,
    Dead,
    Moving { speed: f32, heading: f32 },
    Attacking { target: i64, damage: i32 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    id: i64,
    hp: i32,
    level: i32,
    speed: f32,
    score: f64,
    position: Vector3,
    inventory: HashMap<String, i32>,
    state: PlayerState,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct LogEntry {
    level: String,
    source: String,
    message: String,
    thread: String,
    time: i64,
    line: i32,
}

/// [`Player`] with its strings borrowed from the input.
#[derive(Deserialize, Debug, PartialEq)]
struct PlayerRef<'a> {
    name: &'a str,
    id: i64,
    hp: i32,
    level: i32,
    speed: f32,
    score: f64,
    position: Vector3,
    #[serde(borrow)]
    inventory: HashMap<&'a str, i32>,
    state: PlayerState,
}

/// [`LogEntry`] with its strings borrowed from the input.
#[derive(Deserialize, Debug, PartialEq)]
struct LogEntryRef<'a> {
    level: &'a str,
    source: &'a str,
    message: &'a str,
    thread: &'a str,
    time: i64,
    line: i32,
}

/// A small deterministic generator, so every run benchmarks the same data.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    fn unit(&mut self) -> f32 {
        self.next() as f32 / (1u64 << 31) as f32
    }
    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.next() as usize % words.len()]
    }
}

fn mesh() -> Mesh {
    let mut rng = Lcg(1);
    let n = 100_000;
    let v3 = |rng: &mut Lcg| Vector3::new(rng.unit() * 100.0, rng.unit(), rng.unit() - 0.5);
    Mesh {
        vertices: (0..n).map(|_| v3(&mut rng)).collect(),
        normals: (0..n).map(|_| v3(&mut rng)).collect(),
        indices: (0..3 * n).map(|_| (rng.next() % n as u32) as i32).collect(),
        colors: (0..n)
            .map(|_| Color::from_rgba(rng.unit(), rng.unit(), rng.unit(), 1.0))
            .collect(),
    }
}

const NAMES: &[&str] = &["Ada", "Grace", "Linus", "Ken", "Barbara", "Edsger", "Alan"];
const ITEMS: &[&str] = &["potion", "arrow", "gold", "key", "scroll", "gem"];

fn game_state() -> Vec<Player> {
    let mut rng = Lcg(2);
    (0..1_000)
        .map(|i| {
            let mut inventory = HashMap::new();
            while inventory.len() < 3 {
                inventory.insert(rng.pick(ITEMS).to_owned(), (rng.next() % 100) as i32);
            }
            Player {
                name: format!("{}_{i}", rng.pick(NAMES)),
                id: 1_000_000_000_000 + i as i64,
                hp: (rng.next() % 100) as i32,
                level: (rng.next() % 60) as i32,
                speed: rng.unit() * 10.0,
                // One decimal: not an f32 (godot_bin writes a 64-bit FLOAT), and short enough
                // that serde_json parses it back exactly without `float_roundtrip`.
                score: (rng.next() % 10_000_000) as f64 / 10.0,
                position: Vector3::new(rng.unit() * 500.0, rng.unit() * 10.0, rng.unit() * 500.0),
                inventory,
                state: match i % 4 {
                    0 => PlayerState::Idle,
                    1 => PlayerState::Dead,
                    2 => PlayerState::Moving {
                        speed: rng.unit(),
                        heading: rng.unit() * std::f32::consts::TAU,
                    },
                    _ => PlayerState::Attacking {
                        target: rng.next() as i64,
                        damage: (rng.next() % 50) as i32,
                    },
                },
            }
        })
        .collect()
}

const LEVELS: &[&str] = &["debug", "info", "warn", "error"];
const SOURCES: &[&str] = &["net", "physics", "ai", "render", "audio"];
const MESSAGES: &[&str] = &[
    "peer connected",
    "packet dropped",
    "frame late",
    "path not found",
    "buffer full",
    "ok",
];

fn log() -> Vec<LogEntry> {
    let mut rng = Lcg(3);
    (0..10_000)
        .map(|i| LogEntry {
            level: rng.pick(LEVELS).to_owned(),
            source: rng.pick(SOURCES).to_owned(),
            message: rng.pick(MESSAGES).to_owned(),
            thread: format!("worker-{}", rng.next() % 8),
            time: 1_700_000_000_000 + i * 17,
            line: (rng.next() % 2000) as i32,
        })
        .collect()
}

fn log_maps(entries: &[LogEntry]) -> Vec<BTreeMap<String, String>> {
    entries
        .iter()
        .map(|e| {
            BTreeMap::from([
                ("level".to_owned(), e.level.clone()),
                ("source".to_owned(), e.source.clone()),
                ("message".to_owned(), e.message.clone()),
                ("thread".to_owned(), e.thread.clone()),
            ])
        })
        .collect()
}

/// Encodes and decodes `value` with every format (checking each round trip first), plus the
/// memcpy floor, in two groups: `<name>/encode` and `<name>/decode`.
fn formats<T>(c: &mut Criterion, name: &str, value: &T, flat: bool)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let godot = godot_bin::to_vec(value).unwrap();
    let post = postcard::to_allocvec(value).unwrap();
    let rmp = rmp_serde::to_vec(value).unwrap();
    let rmp_named = rmp_serde::to_vec_named(value).unwrap();
    let json = serde_json::to_vec(value).unwrap();
    let same = |format: &str, back: T| assert!(&back == value, "{name}: {format} round trip");
    same("godot_bin", godot_bin::from_slice(&godot).unwrap());
    same("postcard", postcard::from_bytes(&post).unwrap());
    same("rmp_serde", rmp_serde::from_slice(&rmp).unwrap());
    same(
        "rmp_serde_named",
        rmp_serde::from_slice(&rmp_named).unwrap(),
    );
    same("serde_json", serde_json::from_slice(&json).unwrap());
    eprintln!(
        "{name}: encoded bytes godot_bin {} postcard {} rmp-serde {} (named {}) serde_json {}",
        godot.len(),
        post.len(),
        rmp.len(),
        rmp_named.len(),
        json.len()
    );

    let memcpy = |b: &mut criterion::Bencher| {
        let mut dst = vec![0u8; godot.len()];
        b.iter(|| {
            dst.copy_from_slice(black_box(&godot));
            black_box(&mut dst);
        })
    };

    let mut g = c.benchmark_group(format!("{name}/encode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    if flat {
        g.sampling_mode(SamplingMode::Flat);
    }
    g.bench_function("godot_bin", |b| {
        b.iter(|| godot_bin::to_vec(black_box(value)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::to_allocvec(black_box(value)).unwrap())
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
    g.bench_function("memcpy", memcpy);
    g.finish();

    let mut g = c.benchmark_group(format!("{name}/decode"));
    g.throughput(Throughput::Bytes(godot.len() as u64));
    if flat {
        g.sampling_mode(SamplingMode::Flat);
    }
    g.bench_function("godot_bin", |b| {
        b.iter(|| godot_bin::from_slice::<T>(black_box(&godot)).unwrap())
    });
    g.bench_function("postcard", |b| {
        b.iter(|| postcard::from_bytes::<T>(black_box(&post)).unwrap())
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
    g.bench_function("memcpy", memcpy);
    g.finish();
}

/// Decodes the packets of `$value` into `Vec<$ty>`, a type that borrows its strings from
/// the input, with every format: `<$name>/decode`. `$check` compares a decoded element with
/// the original one. (A macro: the borrowed type's lifetime is each input's.)
macro_rules! borrowed {
    ($c:expr, $name:literal, $value:expr, $ty:ident, $check:expr) => {{
        let value = $value;
        let check = $check;
        let godot = godot_bin::to_vec(value).unwrap();
        let post = postcard::to_allocvec(value).unwrap();
        let rmp = rmp_serde::to_vec(value).unwrap();
        let rmp_named = rmp_serde::to_vec_named(value).unwrap();
        let json = serde_json::to_vec(value).unwrap();
        let same = |format: &str, back: Vec<$ty>| {
            let ok = back.len() == value.len() && back.iter().zip(value).all(|(r, v)| check(r, v));
            assert!(ok, "{}: {format} round trip", $name);
        };
        same("godot_bin", godot_bin::from_slice(&godot).unwrap());
        same("postcard", postcard::from_bytes(&post).unwrap());
        same("rmp_serde", rmp_serde::from_slice(&rmp).unwrap());
        same(
            "rmp_serde_named",
            rmp_serde::from_slice(&rmp_named).unwrap(),
        );
        same("serde_json", serde_json::from_slice(&json).unwrap());

        let mut g = $c.benchmark_group(concat!($name, "/decode"));
        g.throughput(Throughput::Bytes(godot.len() as u64));
        g.bench_function("godot_bin", |b| {
            b.iter(|| godot_bin::from_slice::<Vec<$ty>>(black_box(&godot)).unwrap())
        });
        g.bench_function("postcard", |b| {
            b.iter(|| postcard::from_bytes::<Vec<$ty>>(black_box(&post)).unwrap())
        });
        g.bench_function("rmp_serde", |b| {
            b.iter(|| rmp_serde::from_slice::<Vec<$ty>>(black_box(&rmp)).unwrap())
        });
        g.bench_function("rmp_serde_named", |b| {
            b.iter(|| rmp_serde::from_slice::<Vec<$ty>>(black_box(&rmp_named)).unwrap())
        });
        g.bench_function("serde_json", |b| {
            b.iter(|| serde_json::from_slice::<Vec<$ty>>(black_box(&json)).unwrap())
        });
        g.bench_function("memcpy", |b| {
            let mut dst = vec![0u8; godot.len()];
            b.iter(|| {
                dst.copy_from_slice(black_box(&godot));
                black_box(&mut dst);
            })
        });
        g.finish();
    }};
}

fn benches(c: &mut Criterion) {
    formats(c, "mesh", &mesh(), true);
    let players = game_state();
    formats(c, "game", &players, false);
    borrowed!(
        c,
        "game_borrowed",
        &players,
        PlayerRef,
        |r: &PlayerRef, v: &Player| {
            (r.name, r.id, r.hp, r.level) == (&v.name, v.id, v.hp, v.level)
                && (r.speed, r.score, r.position) == (v.speed, v.score, v.position)
                && r.inventory.len() == v.inventory.len()
                && v.inventory
                    .iter()
                    .all(|(k, n)| r.inventory.get(k.as_str()) == Some(n))
                && r.state == v.state
        }
    );
    let entries = log();
    formats(c, "log", &entries, false);
    borrowed!(
        c,
        "log_borrowed",
        &entries,
        LogEntryRef,
        |r: &LogEntryRef, v: &LogEntry| {
            (r.level, r.source, r.message, r.thread) == (&v.level, &v.source, &v.message, &v.thread)
                && (r.time, r.line) == (v.time, v.line)
        }
    );
    formats(c, "log_maps", &log_maps(&entries), false);
}

criterion_group! {
    name = formats_benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = benches
}
criterion_main!(formats_benches);
