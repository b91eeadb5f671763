//! The data sets of the benches, shared by `formats.rs` and anything else that measures
//! the same data: deterministic, so every run measures the same bytes.
#![allow(dead_code)]

use godot_bin::{Color, PackedColorArray, PackedInt32Array, PackedVector3Array, Vector3};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Mesh {
    pub vertices: PackedVector3Array,
    pub normals: PackedVector3Array,
    pub indices: PackedInt32Array,
    pub colors: PackedColorArray,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub enum PlayerState {
    Idle,
    Dead,
    Moving { speed: f32, heading: f32 },
    Attacking { target: i64, damage: i32 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Player {
    pub name: String,
    pub id: i64,
    pub hp: i32,
    pub level: i32,
    pub speed: f32,
    pub score: f64,
    pub position: Vector3,
    pub inventory: HashMap<String, i32>,
    pub state: PlayerState,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct LogEntry {
    pub level: String,
    pub source: String,
    pub message: String,
    pub thread: String,
    pub time: i64,
    pub line: i32,
}

/// [`Player`] with its strings borrowed from the input.
#[derive(Deserialize, Debug, PartialEq)]
pub struct PlayerRef<'a> {
    pub name: &'a str,
    pub id: i64,
    pub hp: i32,
    pub level: i32,
    pub speed: f32,
    pub score: f64,
    pub position: Vector3,
    #[serde(borrow)]
    pub inventory: HashMap<&'a str, i32>,
    pub state: PlayerState,
}

/// [`LogEntry`] with its strings borrowed from the input.
#[derive(Deserialize, Debug, PartialEq)]
pub struct LogEntryRef<'a> {
    pub level: &'a str,
    pub source: &'a str,
    pub message: &'a str,
    pub thread: &'a str,
    pub time: i64,
    pub line: i32,
}

/// A small deterministic generator, so every run benchmarks the same data.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
    pub fn unit(&mut self) -> f32 {
        self.next() as f32 / (1u64 << 31) as f32
    }
    pub fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.next() as usize % words.len()]
    }
}

pub fn mesh() -> Mesh {
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

pub const NAMES: &[&str] = &["Ada", "Grace", "Linus", "Ken", "Barbara", "Edsger", "Alan"];
pub const ITEMS: &[&str] = &["potion", "arrow", "gold", "key", "scroll", "gem"];

pub fn game_state() -> Vec<Player> {
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

pub const LEVELS: &[&str] = &["debug", "info", "warn", "error"];
pub const SOURCES: &[&str] = &["net", "physics", "ai", "render", "audio"];
pub const MESSAGES: &[&str] = &[
    "peer connected",
    "packet dropped",
    "frame late",
    "path not found",
    "buffer full",
    "ok",
];

pub fn log() -> Vec<LogEntry> {
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

pub fn log_maps(entries: &[LogEntry]) -> Vec<BTreeMap<String, String>> {
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

/// A server's world snapshot: 1,000 players of derived structs holding strings, ints of
/// several widths, floats, a bool, arrays of numbers and strings, and nested item structs.
/// Plain Rust types only (no Godot builtins), so every format carries the same data.
#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Snapshot {
    pub tick: u64,
    pub map: String,
    pub players: Vec<SnapPlayer>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct SnapPlayer {
    pub id: u32,
    pub name: String,
    pub team: u8,
    pub hp: i32,
    pub max_hp: i32,
    pub x: f32,
    pub y: f32,
    pub rotation: f32,
    pub alive: bool,
    pub score: i64,
    pub cooldowns: Vec<f32>,
    pub tags: Vec<String>,
    pub items: Vec<Item>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
pub struct Item {
    pub kind: String,
    pub count: u16,
    pub durability: f32,
    pub slot: i8,
}

/// [`Snapshot`] with its strings borrowed from the input.
#[derive(Deserialize, Debug, PartialEq)]
pub struct SnapshotRef<'a> {
    pub tick: u64,
    pub map: &'a str,
    #[serde(borrow)]
    pub players: Vec<SnapPlayerRef<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
pub struct SnapPlayerRef<'a> {
    pub id: u32,
    pub name: &'a str,
    pub team: u8,
    pub hp: i32,
    pub max_hp: i32,
    pub x: f32,
    pub y: f32,
    pub rotation: f32,
    pub alive: bool,
    pub score: i64,
    pub cooldowns: Vec<f32>,
    #[serde(borrow)]
    pub tags: Vec<&'a str>,
    #[serde(borrow)]
    pub items: Vec<ItemRef<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
pub struct ItemRef<'a> {
    pub kind: &'a str,
    pub count: u16,
    pub durability: f32,
    pub slot: i8,
}

pub const TAGS: &[&str] = &["vip", "afk", "muted", "new", "streamer"];

pub fn snapshot() -> Snapshot {
    let mut rng = Lcg(4);
    let players = (0..1_000u32)
        .map(|i| SnapPlayer {
            id: 10_000 + i,
            name: format!("{}_{i}", rng.pick(NAMES)),
            team: (rng.next() % 4) as u8,
            hp: (rng.next() % 100) as i32,
            max_hp: 100,
            x: rng.unit() * 1000.0,
            y: rng.unit() * 1000.0,
            rotation: rng.unit() * std::f32::consts::TAU,
            alive: !rng.next().is_multiple_of(5),
            score: (rng.next() % 100_000) as i64,
            cooldowns: (0..4).map(|_| rng.unit() * 5.0).collect(),
            tags: (0..rng.next() % 3)
                .map(|_| rng.pick(TAGS).to_owned())
                .collect(),
            items: (0..1 + rng.next() % 4)
                .map(|s| Item {
                    kind: rng.pick(ITEMS).to_owned(),
                    count: (rng.next() % 99) as u16,
                    durability: rng.unit(),
                    slot: s as i8,
                })
                .collect(),
        })
        .collect();
    Snapshot {
        tick: 123_456,
        map: "arena_03".to_owned(),
        players,
    }
}

/// Whether a borrowed snapshot holds the same data as `v`.
pub fn same_snapshot(r: &SnapshotRef, v: &Snapshot) -> bool {
    r.tick == v.tick
        && r.map == v.map
        && r.players.len() == v.players.len()
        && r.players.iter().zip(&v.players).all(|(r, v)| {
            (r.id, r.name, r.team, r.hp, r.max_hp) == (v.id, &v.name, v.team, v.hp, v.max_hp)
                && (r.x, r.y, r.rotation, r.alive, r.score)
                    == (v.x, v.y, v.rotation, v.alive, v.score)
                && r.cooldowns == v.cooldowns
                && r.tags.iter().eq(v.tags.iter())
                && r.items.len() == v.items.len()
                && r.items.iter().zip(&v.items).all(|(r, v)| {
                    (r.kind, r.count, r.durability, r.slot)
                        == (v.kind.as_str(), v.count, v.durability, v.slot)
                })
        })
}

/// Dictionary-heavy data: 2,000 string-keyed maps of 12 int entries (`HashMap`), as a
/// save file's loosely typed records are.
pub fn maps() -> Vec<HashMap<String, i64>> {
    let mut rng = Lcg(5);
    (0..2_000)
        .map(|_| {
            (0..12)
                .map(|k| (format!("field_{k}"), i64::from(rng.next() % 100_000)))
                .collect()
        })
        .collect()
}
