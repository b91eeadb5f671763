//! Resources, scenes and ConfigFiles against the real engines (`godot_bin_files::resource`):
//! each engine writes files of random values, the crate reads each to the values the
//! engine loads from it and writes it back byte for byte, and the engine loads every file
//! the crate writes to the same values.

pub mod binary;
pub mod config;
pub mod floats;
pub mod judged;
pub mod serde;
pub mod text;
pub mod upgrade;

use crate::support::{godot3, godot4};
use godot_bin::{Config, Dialect};
use std::time::Duration;

// The random-value generators, with the record writer they share appended (the test kit's).
use crate::support::{GEN3_GD as GEN3, GEN4_GD as GEN4};

pub enum Engine<'a> {
    Godot4(&'a godot4::Godot4),
    Godot3(&'a godot3::Godot3),
}

impl Engine<'_> {
    pub fn dialect(&self) -> Dialect {
        match self {
            Engine::Godot4(_) => Dialect::Godot4,
            Engine::Godot3(_) => Dialect::Godot3,
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Engine::Godot4(_) => "Godot 4.4.1",
            Engine::Godot3(_) => "Godot 3.2.3",
        }
    }

    /// Runs `call` with `helper` as `helper.gd` and the generator as `gen.gd`.
    pub fn run(
        &self,
        helper: &str,
        call: &str,
        inputs: &[(&str, &[u8])],
    ) -> crate::support::run::RunResult {
        let gen = match self {
            Engine::Godot4(_) => GEN4,
            Engine::Godot3(_) => GEN3,
        };
        let mut files = vec![("helper.gd", helper.as_bytes()), ("gen.gd", gen.as_bytes())];
        files.extend_from_slice(inputs);
        let timeout = Duration::from_secs(600);
        let res = match self {
            Engine::Godot4(e) => godot4::run_script_with_timeout(e, call, &files, timeout),
            Engine::Godot3(e) => godot3::run_script_with_timeout(e, call, &files, timeout),
        };
        res.assert_ok();
        res
    }
}

use libtest_mimic::Trial;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    let mut t = config::trials();
    t.extend(text::trials());
    t.extend(serde::trials());
    t.extend(binary::trials());
    t.extend(upgrade::trials());
    t.extend(floats::trials());
    t.extend(judged::trials());
    t
}

/// The seed of the random values: the differential's (`GODOT_BIN_DIFF_SEED`).
pub fn seed() -> u64 {
    crate::support::random_settings().0
}

/// A little-endian reader of the records the GDScript sides write.
pub struct Records<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Records<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Records { bytes, pos: 0 }
    }

    pub fn u32(&mut self) -> u32 {
        let b = &self.bytes[self.pos..self.pos + 4];
        self.pos += 4;
        u32::from_le_bytes(b.try_into().unwrap())
    }

    pub fn bytes(&mut self) -> &'a [u8] {
        let n = self.u32() as usize;
        let b = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        b
    }

    pub fn text(&mut self) -> String {
        String::from_utf8(self.bytes().to_vec()).expect("UTF-8 from the engine")
    }

    pub fn done(&self) -> bool {
        self.pos == self.bytes.len()
    }
}

/// The lines where two texts differ: what `old` has and `new` has between their common
/// first and last lines.
pub fn changed_lines(old: &str, new: &str) -> (String, String) {
    let a: Vec<&str> = old.split('\n').collect();
    let b: Vec<&str> = new.split('\n').collect();
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (
        a[head..a.len() - tail].join("\n"),
        b[head..b.len() - tail].join("\n"),
    )
}

/// `bytes` with the NodePath padding (the only bytes engines leave unwritten) zeroed.
pub fn mask_padding(mut bytes: Vec<u8>, dialect: Dialect) -> Vec<u8> {
    let cfg = Config::new(dialect).allow_objects(true);
    if let Ok(pads) = godot_bin::explain::nodepath_padding(&bytes, &cfg) {
        for r in pads {
            bytes[r].fill(0);
        }
    }
    bytes
}
