//! The engine's key rules: how a Dictionary's keys hash and compare (Godot 4's Dictionary
//! compares keys "string-like first, then by hash_compare"), kept apart from the map that
//! uses them.

use super::Variant;
use crate::types::leaves::{for_each_fixed, Component, Fixed, Leaves};
use std::hash::{BuildHasher, Hash, Hasher};

/// How keys are hashed: foldhash (hashbrown's default), seeded at random once per process
/// so that keys sent by a peer cannot be chosen to collide, the seed held in a static so
/// that every `Dictionary` is two words smaller than with a seed of its own.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KeyState;

impl BuildHasher for KeyState {
    type Hasher = foldhash::fast::FoldHasher<'static>;
    fn build_hasher(&self) -> Self::Hasher {
        static SEED: std::sync::OnceLock<foldhash::fast::RandomState> = std::sync::OnceLock::new();
        SEED.get_or_init(Default::default).build_hasher()
    }
}

/// A Dictionary key, hashed and compared as the engine compares keys. `nth` tells apart
/// keys that hold objects decoded from a packet: the engine decodes each object into an
/// object of its own, so two such keys are never the same key there (0 otherwise).
#[derive(Clone, Debug)]
pub(super) struct Key(pub Variant, pub u32);

impl Key {
    pub(super) fn new(v: Variant) -> Key {
        Key(v, 0)
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.1 == other.1 && key_eq(&self.0, &other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.1.hash(h);
        key_hash(&self.0, h, true)
    }
}

/// A `&str` looked up without building a `Variant`: it hashes as a string-like key does.
pub(super) struct StrKey<'a>(pub &'a str);

impl Hash for StrKey<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // As `Key::hash` for `Key(String(text), 0)`.
        0u32.hash(h);
        STRING_LIKE.hash(h);
        self.0.hash(h);
    }
}

impl StrKey<'_> {
    pub(super) fn matches(&self, key: &Key) -> bool {
        key.1 == 0 && key.0.as_str() == Some(self.0)
    }
}

/// A String or StringName key's fingerprint while its map has no index (see
/// [`Map::hash_of`]): its length and up to 16 of its bytes, the first and the last, so
/// the usual keys (names of fields) differ in it, and keys that do not are compared in
/// full.
#[inline]
pub(super) fn str_fingerprint(s: &str) -> u64 {
    let b = s.as_bytes();
    let n = b.len();
    let word = |at: usize| {
        b.get(at..at + 8)
            .map_or(0, |w| u64::from_le_bytes(w.try_into().unwrap_or_default()))
    };
    let half = |at: usize| {
        b.get(at..at + 4)
            .map_or(0, |w| u32::from_le_bytes(w.try_into().unwrap_or_default()))
    };
    let (first, last) = match n {
        8.. => (word(0), word(n - 8)),
        4..=7 => (u64::from(half(0)), u64::from(half(n - 4))),
        1..=3 => (
            u64::from(b[0]) | u64::from(b[n / 2]) << 8 | u64::from(b[n - 1]) << 16,
            0,
        ),
        0 => (0, 0),
    };
    // The multiplication (odd, so no two inputs meet) carries every bit into the top ones
    // that pick the map's bit.
    (first ^ last.rotate_left(29))
        .wrapping_add(n as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The hash tag shared by String and StringName keys.
pub(super) const STRING_LIKE: u8 = 0xFF;

/// A float as a key: `-0.0` is `0.0` and every NaN is one NaN.
pub(super) fn float_key(f: f64) -> u64 {
    if f == 0.0 {
        0
    } else if f.is_nan() {
        f64::NAN.to_bits()
    } else {
        f.to_bits()
    }
}

pub(super) fn float_eq(a: f64, b: f64) -> bool {
    float_key(a) == float_key(b)
}

pub(super) fn f32_eq(a: f32, b: f32) -> bool {
    float_eq(a.into(), b.into())
}

/// The engine's key equality (Godot 4's Dictionary compares keys "string-like first,
/// then by hash_compare"): a String and a StringName with equal text match, floats and
/// the math types' components compare with NaN equal to NaN. Inside an Array or Dictionary
/// key, elements compare as `==` does: types must match, NaN equals nothing (found with
/// the engine by the random-value differential).
pub(super) fn key_eq(a: &Variant, b: &Variant) -> bool {
    if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
        return x == y;
    }
    if let (Variant::Float(x), Variant::Float(y)) = (a, b) {
        return float_eq(*x, *y);
    }
    match (a.fixed_leaves(), b.fixed_leaves()) {
        (Some(x), Some(y)) => {
            std::mem::discriminant(a) == std::mem::discriminant(b) && leaves_eq(&x, &y)
        }
        _ => inner_eq(a, b),
    }
}

/// `==` between the engine's values, as the parts of a container key compare: the same
/// type and value, `-0.0 == 0.0`, NaN equal to nothing.
pub(super) fn inner_eq(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    match (a, b) {
        // Godot 4's Array and Dictionary compare their elements only (`recursive_equal`),
        // and hash them only: a typed container and an untyped one with the same elements
        // are one key (issue 41, item 13; tests/engine/equality.rs). Pandemonium 5's
        // PackedTypedArray keeps its type in the comparison.
        (V::Array(x), V::Array(y)) => {
            x.shared == y.shared
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| inner_eq(p, q))
        }
        (V::PackedTypedArray(x), V::PackedTypedArray(y)) => {
            x.element_type == y.element_type
                && x.shared == y.shared
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| inner_eq(p, q))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((k1, v1), (k2, v2))| inner_eq(k1, k2) && inner_eq(v1, v2))
        }
        (V::Object(x), V::Object(y)) => {
            x.class_name == y.class_name
                && x.properties.len() == y.properties.len()
                && x.properties
                    .iter()
                    .zip(&y.properties)
                    .all(|((n1, v1), (n2, v2))| n1 == n2 && inner_eq(v1, v2))
        }
        // Structural equality is `==` for everything else: -0.0 == 0.0 and NaN equals
        // nothing, as for f64.
        _ => a == b,
    }
}

pub(super) fn leaves_eq(a: &Leaves, b: &Leaves) -> bool {
    a.1 == b.1
        && a.0[..a.1]
            .iter()
            .zip(&b.0[..b.1])
            .all(|(p, q)| match (p, q) {
                (Component::F32(x), Component::F32(y)) => f32_eq(*x, *y),
                (x, y) => x == y,
            })
}

/// A hash consistent with [`key_eq`] (`top`) and [`inner_eq`] (inside containers, where
/// a String and a StringName are different).
pub(super) fn key_hash<H: Hasher>(v: &Variant, h: &mut H, top: bool) {
    use Variant as V;
    if let (Some(s), true) = (v.as_str(), top) {
        STRING_LIKE.hash(h);
        s.hash(h);
        return;
    }
    std::mem::discriminant(v).hash(h);
    let leaves = |l: Leaves, h: &mut H| {
        for leaf in &l.0[..l.1] {
            match leaf {
                Component::F32(f) => float_key((*f).into()).hash(h),
                Component::I32(i) => i.hash(h),
            }
        }
    };
    macro_rules! fixed {
        ($($t:ident),*) => {
            match v {
                $(V::$t(x) => return leaves(x.leaves(), h),)*
                _ => {}
            }
        };
    }
    for_each_fixed!(fixed);
    match v {
        V::Nil | V::Callable(_) => {}
        V::Bool(b) => b.hash(h),
        V::Int(i) => i.hash(h),
        V::Float(f) => float_key(*f).hash(h),
        V::Array(a) | V::PackedTypedArray(a) => {
            a.len().hash(h);
            a.iter().for_each(|x| key_hash(x, h, false));
        }
        V::Dictionary(d) => {
            d.len().hash(h);
            for (k, x) in d.iter() {
                key_hash(k, h, false);
                key_hash(x, h, false);
            }
        }
        V::Object(o) => {
            o.class_name.hash(h);
            for (n, x) in &o.properties {
                n.hash(h);
                key_hash(x, h, false);
            }
        }
        V::NodePath(p) => p.hash(h),
        V::Rid(r) => r.hash(h),
        V::ObjectId(id) => id.hash(h),
        V::Signal(s) => s.hash(h),
        V::String(s) => s.hash(h),
        V::StringName(s) => s.hash(h),
        V::PackedByteArray(x) => x.0.hash(h),
        V::PackedInt32Array(x) => x.0.hash(h),
        V::PackedInt64Array(x) => x.0.hash(h),
        V::PackedStringArray(x) => x.0.hash(h),
        V::PackedVector2iArray(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedVector3iArray(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedVector4iArray(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedFloat32Array(x) => x.iter().for_each(|f| float_key((*f).into()).hash(h)),
        V::PackedFloat64Array(x) => x.iter().for_each(|f| float_key(*f).hash(h)),
        V::PackedVector2Array(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedVector3Array(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedVector4Array(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::PackedColorArray(x) => x.iter().for_each(|e| leaves(e.leaves(), h)),
        V::Image(i) => i.hash(h),
        V::InputEvent(e) => e.hash(h),
        // String, StringName and the fixed types were hashed above.
        _ => {}
    }
}

/// Whether `v` is or holds an object (its id or in full). Inlined for the usual key, a
/// String or a number, which needs one comparison.
#[inline]
pub(super) fn holds_object(v: &Variant) -> bool {
    match v {
        Variant::ObjectId(_) | Variant::Object(_) => true,
        Variant::Array(_) | Variant::PackedTypedArray(_) | Variant::Dictionary(_) => {
            container_holds_object(v)
        }
        _ => false,
    }
}

pub(super) fn container_holds_object(v: &Variant) -> bool {
    match v {
        Variant::Array(a) | Variant::PackedTypedArray(a) => a.iter().any(holds_object),
        Variant::Dictionary(d) => d.iter().any(|(k, x)| holds_object(k) || holds_object(x)),
        _ => holds_object(v),
    }
}
