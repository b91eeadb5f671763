//! Hand-made packets for the hostile-input tests (`tests/it/hostile.rs`,
//! `tests/it/alloc_bound.rs`, `tests/engine/differential.rs`): a dialect's type ids, little-
//! endian words, 12-byte length bombs, and a small deterministic PRNG for mutations.

use godot_bin::{
    Array, Config, Dialect, Dictionary, NodePath, PackedByteArray, PackedInt32Array,
    PackedStringArray, Variant,
};

/// A small deterministic PRNG (xorshift64), so that mutations are the same on every run.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `v` as a packet's little-endian word.
pub fn word(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// The type id `dialect` encodes `value` with (the packet's first byte).
pub fn id_of(dialect: Dialect, value: &Variant) -> u8 {
    Config::new(dialect).to_vec(value).expect("encode sample")[0]
}

/// The type ids of the types whose packets carry a length or count, in one dialect.
#[derive(Clone, Copy, Debug)]
pub struct CountedIds {
    pub array: u8,
    pub dict: u8,
    pub bytes: u8,
    pub ints: u8,
    pub strings: u8,
    pub string: u8,
    pub path: u8,
}

impl CountedIds {
    /// The ids of `dialect`.
    pub fn of(dialect: Dialect) -> CountedIds {
        let id = |v: Variant| id_of(dialect, &v);
        CountedIds {
            array: id(Variant::Array(Array::new())),
            dict: id(Variant::Dictionary(Dictionary::new())),
            bytes: id(Variant::PackedByteArray(PackedByteArray(vec![]))),
            ints: id(Variant::PackedInt32Array(PackedInt32Array(vec![]))),
            strings: id(Variant::PackedStringArray(PackedStringArray(vec![]))),
            string: id(Variant::from("s")),
            path: id(Variant::NodePath(NodePath::from("a"))),
        }
    }
}

/// Header + count + one more word: a 12-byte packet of type `id` claiming `count` elements.
pub fn bomb(id: u8, count: u32) -> Vec<u8> {
    let mut p = vec![id, 0, 0, 0];
    p.extend_from_slice(&word(count));
    p.extend_from_slice(&word(0));
    p
}
