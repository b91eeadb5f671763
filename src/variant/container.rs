//! `Array` and `Dictionary`, with the element types Godot 4 typed containers carry.

use super::Variant;
use crate::dialect::VariantType;
pub use crate::types::element::ElementType;
use crate::types::leaves::{for_each_fixed, Fixed, Leaf, Leaves};
use hashbrown::HashTable;
use std::hash::{BuildHasher, Hash, Hasher};

impl ElementType {
    /// What a container of this type makes of `v` when decoding, as the engine's decoder
    /// does: it adds each element (and each Dictionary key; values are not checked)
    /// through the typed container's check, which takes a value of the type, converts an
    /// int for a float container, a String for a StringName one and back, takes null or
    /// any object for an object container, and drops anything else (`None`).
    pub(crate) fn admit(&self, v: Variant) -> Option<Variant> {
        use crate::types::names::StringName;
        let object =
            |v: &Variant| matches!(v, Variant::Nil | Variant::ObjectId(_) | Variant::Object(_));
        match (self, v) {
            (ElementType::Untyped, v) => Some(v),
            (ElementType::ClassName(_) | ElementType::Script(_), v)
            | (ElementType::Builtin(VariantType::Object), v) => object(&v).then_some(v),
            (ElementType::Builtin(ty), v) if v.get_type() == *ty => Some(v),
            (ElementType::Builtin(VariantType::Float), Variant::Int(i)) => {
                Some(Variant::Float(i as f64))
            }
            (ElementType::Builtin(VariantType::String), Variant::StringName(s)) => {
                Some(Variant::String(s.0))
            }
            (ElementType::Builtin(VariantType::StringName), Variant::String(s)) => {
                Some(Variant::StringName(StringName(s)))
            }
            _ => None,
        }
    }
}

/// `Array`: values in order, with an element type when it is a Godot 4 typed array
/// (`Array[int]`). Derefs to its `Vec<Variant>`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Array {
    /// The element type; [`ElementType::Untyped`] for a plain Array.
    pub element_type: ElementType,
    /// The elements.
    pub items: Vec<Variant>,
    /// Godot 2 only: the array is shared (bit 31 of the count; 2.x GDScript arrays are).
    pub shared: bool,
}

impl Array {
    /// An empty untyped array.
    pub fn new() -> Self {
        Array::default()
    }

    /// An array typed as `Array[ty]`.
    pub fn typed(element_type: ElementType, items: Vec<Variant>) -> Self {
        Array {
            element_type,
            items,
            shared: false,
        }
    }
}

impl std::ops::Deref for Array {
    type Target = Vec<Variant>;
    fn deref(&self) -> &Vec<Variant> {
        &self.items
    }
}

impl std::ops::DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Variant> {
        &mut self.items
    }
}

impl From<Vec<Variant>> for Array {
    fn from(items: Vec<Variant>) -> Self {
        Array {
            items,
            ..Array::default()
        }
    }
}

impl<V: Into<Variant>> FromIterator<V> for Array {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Array::from(iter.into_iter().map(Into::into).collect::<Vec<_>>())
    }
}

impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = std::vec::IntoIter<Variant>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

/// `Dictionary`: entries in insertion order, any [`Variant`] as key, with key and value
/// types when it is a Godot 4.4 typed dictionary.
///
/// An ordered hash map: [`insert`](Dictionary::insert) and [`get`](Dictionary::get) take
/// constant time, and iteration follows insertion order, which is the order the engine
/// writes and this crate encodes. (Up to 8 entries, what most structs and messages hold,
/// keys are found by comparing them in order, which is faster than hashing them; past that,
/// through a hash index.)
///
/// Keys compare as the engine compares them: a String and a StringName with the same text
/// are the same key (the key first inserted keeps its type); `1` and `1.0` are different
/// keys; `0.0` and `-0.0` are the same key, and so are two NaNs. Inserting a key that is
/// already there replaces its value and keeps its place. A packet that holds a key twice
/// decodes the way the engine decodes it: the key keeps its first place and takes the last
/// value (so it re-encodes with one entry, as the engine's own re-encoding does).
///
/// ```
/// use godot_bin::{Dictionary, StringName, Variant};
/// let mut d = Dictionary::new();
/// d.insert("hp", 10);
/// d.insert(1, "one");
/// d.insert(StringName::from("hp"), 12); // the same key as "hp": replaces the value
/// assert_eq!(d.get("hp"), Some(&Variant::Int(12)));
/// assert_eq!(d.len(), 2);
/// assert_eq!(d.keys().next(), Some(&Variant::from("hp"))); // still a String, still first
/// ```
#[derive(Clone, Debug, Default)]
pub struct Dictionary {
    map: Map,
    /// The key and value types of a typed Dictionary (boxed: most are untyped, and every
    /// `Variant` is as large as its largest kind).
    types: Option<Box<[ElementType; 2]>>,
    /// Godot 2 only: the dictionary is shared (bit 31 of the count).
    pub shared: bool,
}

/// How keys are hashed: foldhash (hashbrown's default), seeded at random once per process
/// so that keys sent by a peer cannot be chosen to collide, the seed held in a static so
/// that every `Dictionary` is two words smaller than with a seed of its own.
#[derive(Clone, Copy, Debug, Default)]
struct KeyState;

impl BuildHasher for KeyState {
    type Hasher = foldhash::fast::FoldHasher<'static>;
    fn build_hasher(&self) -> Self::Hasher {
        static SEED: std::sync::OnceLock<foldhash::fast::RandomState> = std::sync::OnceLock::new();
        SEED.get_or_init(Default::default).build_hasher()
    }
}

/// One entry, with its key's hash (compared before the keys, and kept for the index).
#[derive(Clone)]
struct Entry {
    /// [`Map::hash_of`] of the key: its fingerprint while the map has no index, its
    /// seeded hash once it has one.
    hash: u64,
    key: Key,
    value: Variant,
}

/// The entries in order, with a hash index of their positions once there are more than
/// [`Map::LINEAR`].
#[derive(Clone, Default)]
struct Map {
    entries: Vec<Entry>,
    /// Positions in `entries`, by their key's hash (boxed: most maps have none).
    index: Option<Box<HashTable<usize>>>,
    /// Without an index: bit `Map::bit(hash)` is set for each entry's hash, so that a key
    /// whose bit is clear is known to be new without comparing it to every entry (the
    /// common case when decoding: a packet rarely repeats a key).
    bits: u64,
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map()
            .entries(self.entries.iter().map(|e| (&e.key.0, &e.value)))
            .finish()
    }
}

impl Map {
    /// Entries found by comparing their keys' fingerprints in order, up to this many.
    const LINEAR: usize = 16;

    fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: None,
            bits: 0,
        }
    }

    /// The position of the key with hash `hash` that `eq` accepts.
    #[inline]
    fn find(&self, hash: u64, eq: impl Fn(&Key) -> bool) -> Option<usize> {
        match &self.index {
            None if self.bits & Map::bit(hash) == 0 => None,
            None => self
                .entries
                .iter()
                .position(|e| e.hash == hash && eq(&e.key)),
            Some(index) => index.find(hash, |&i| eq(&self.entries[i].key)).copied(),
        }
    }

    /// The hash entries carry. Without an index, a fingerprint: cheaper than the seeded
    /// hash (decoding a small Dictionary computes one per key, and most Dictionaries are
    /// small), and safe to be predictable, as at most [`Map::LINEAR`] keys are compared by
    /// it. With an index, the seeded hash, which a peer cannot make collide.
    #[inline]
    fn hash_of(&self, key: &Key) -> u64 {
        match (&self.index, key.0.as_str()) {
            (None, Some(s)) => str_fingerprint(s),
            (None, None) => foldhash::fast::FixedState::default().hash_one(key),
            (Some(_), _) => KeyState.hash_one(key),
        }
    }

    /// The bit of [`Map::bits`] for a hash: its top six bits (the fingerprint's length
    /// term reaches them).
    #[inline]
    fn bit(hash: u64) -> u64 {
        1 << (hash >> 58)
    }

    /// [`Map::hash_of`] a String key with this text.
    #[inline]
    fn hash_of_str(&self, s: &str) -> u64 {
        match &self.index {
            None => str_fingerprint(s),
            Some(_) => KeyState.hash_one(StrKey(s)),
        }
    }

    fn find_key(&self, key: &Key) -> Option<usize> {
        self.find(self.hash_of(key), |k| k == key)
    }

    /// Inserts, or replaces the value of an equal key; the old value.
    #[inline]
    fn insert(&mut self, key: Key, value: Variant) -> Option<Variant> {
        let hash = self.hash_of(&key);
        if let Some(i) = self.find(hash, |k| *k == key) {
            return Some(std::mem::replace(&mut self.entries[i].value, value));
        }
        let i = self.entries.len();
        match &mut self.index {
            Some(index) => {
                let entries = &self.entries;
                index.insert_unique(hash, i, |&j| entries[j].hash);
            }
            None => self.bits |= Map::bit(hash),
        }
        self.entries.push(Entry { hash, key, value });
        if self.index.is_none() && self.entries.len() > Map::LINEAR {
            self.reindex();
        }
        None
    }

    /// Builds the index from the entries, which then carry their seeded hashes.
    fn reindex(&mut self) {
        for e in &mut self.entries {
            e.hash = KeyState.hash_one(&e.key);
        }
        let entries = &self.entries;
        let mut index = HashTable::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            index.insert_unique(e.hash, i, |&j| entries[j].hash);
        }
        self.index = Some(Box::new(index));
    }

    /// Drops the index; the entries carry fingerprints again.
    fn unindex(&mut self) {
        self.index = None;
        for i in 0..self.entries.len() {
            self.entries[i].hash = self.hash_of(&self.entries[i].key);
        }
        self.rebit();
    }

    /// Sets [`Map::bits`] from the entries' hashes.
    fn rebit(&mut self) {
        self.bits = self.entries.iter().fold(0, |b, e| b | Map::bit(e.hash));
    }

    /// Removes the entry at `i`, keeping the order of the others.
    fn remove(&mut self, i: usize) -> Entry {
        let removed = self.entries.remove(i);
        match self.index {
            Some(_) if self.entries.len() > Map::LINEAR => self.reindex(),
            Some(_) => self.unindex(),
            None => self.rebit(),
        }
        removed
    }

    fn clear(&mut self) {
        self.entries.clear();
        self.index = None;
        self.bits = 0;
    }
}

/// The element type of an untyped container.
static UNTYPED: ElementType = ElementType::Untyped;

/// Equality is structural and ordered: the same entries (keys of the same types) in the
/// same order, and the same key and value types, as the bytes they encode to.
impl PartialEq for Dictionary {
    fn eq(&self, other: &Dictionary) -> bool {
        self.types == other.types
            && self.shared == other.shared
            && self.len() == other.len()
            && self
                .iter()
                .zip(other.iter())
                .all(|((k1, v1), (k2, v2))| k1 == k2 && v1 == v2)
    }
}

/// A Dictionary key, hashed and compared as the engine compares keys. `nth` tells apart
/// keys that hold objects decoded from a packet: the engine decodes each object into an
/// object of its own, so two such keys are never the same key there (0 otherwise).
#[derive(Clone, Debug)]
struct Key(Variant, u32);

impl Key {
    fn new(v: Variant) -> Key {
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
struct StrKey<'a>(&'a str);

impl Hash for StrKey<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // As `Key::hash` for `Key(String(text), 0)`.
        0u32.hash(h);
        STRING_LIKE.hash(h);
        self.0.hash(h);
    }
}

impl StrKey<'_> {
    fn matches(&self, key: &Key) -> bool {
        key.1 == 0 && key.0.as_str() == Some(self.0)
    }
}

/// A String or StringName key's fingerprint while its map has no index (see
/// [`Map::hash_of`]): its length and up to 16 of its bytes, the first and the last, so
/// the usual keys (names of fields) differ in it, and keys that do not are compared in
/// full.
#[inline]
fn str_fingerprint(s: &str) -> u64 {
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
const STRING_LIKE: u8 = 0xFF;

/// A float as a key: `-0.0` is `0.0` and every NaN is one NaN.
fn float_key(f: f64) -> u64 {
    if f == 0.0 {
        0
    } else if f.is_nan() {
        f64::NAN.to_bits()
    } else {
        f.to_bits()
    }
}

fn float_eq(a: f64, b: f64) -> bool {
    float_key(a) == float_key(b)
}

fn f32_eq(a: f32, b: f32) -> bool {
    float_eq(a.into(), b.into())
}

/// The engine's key equality (Godot 4's Dictionary compares keys "string-like first,
/// then by hash_compare"): a String and a StringName with equal text match, floats and
/// the math types' components compare with NaN equal to NaN. Inside an Array or Dictionary
/// key, elements compare as `==` does: types must match, NaN equals nothing (found with
/// the engine by the random-value differential).
fn key_eq(a: &Variant, b: &Variant) -> bool {
    if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
        return x == y;
    }
    if let (Variant::Float(x), Variant::Float(y)) = (a, b) {
        return float_eq(*x, *y);
    }
    match (fixed_leaves(a), fixed_leaves(b)) {
        (Some(x), Some(y)) => {
            std::mem::discriminant(a) == std::mem::discriminant(b) && leaves_eq(&x, &y)
        }
        _ => inner_eq(a, b),
    }
}

/// The components of a math type.
fn fixed_leaves(v: &Variant) -> Option<Leaves> {
    macro_rules! arms {
        ($($t:ident),*) => {
            match v {
                $(Variant::$t(x) => Some(x.leaves()),)*
                _ => None,
            }
        };
    }
    for_each_fixed!(arms)
}

/// `==` between the engine's values, as the parts of a container key compare: the same
/// type and value, `-0.0 == 0.0`, NaN equal to nothing.
fn inner_eq(a: &Variant, b: &Variant) -> bool {
    use Variant as V;
    match (a, b) {
        (V::Array(x), V::Array(y)) | (V::PackedTypedArray(x), V::PackedTypedArray(y)) => {
            x.element_type == y.element_type
                && x.shared == y.shared
                && x.len() == y.len()
                && x.iter().zip(y.iter()).all(|(p, q)| inner_eq(p, q))
        }
        (V::Dictionary(x), V::Dictionary(y)) => {
            x.types == y.types
                && x.len() == y.len()
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

fn leaves_eq(a: &Leaves, b: &Leaves) -> bool {
    a.1 == b.1
        && a.0[..a.1]
            .iter()
            .zip(&b.0[..b.1])
            .all(|(p, q)| match (p, q) {
                (Leaf::F32(x), Leaf::F32(y)) => f32_eq(*x, *y),
                (x, y) => x == y,
            })
}

/// A hash consistent with [`key_eq`] (`top`) and [`inner_eq`] (inside containers, where
/// a String and a StringName are different).
fn key_hash<H: Hasher>(v: &Variant, h: &mut H, top: bool) {
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
                Leaf::F32(f) => float_key((*f).into()).hash(h),
                Leaf::I32(i) => i.hash(h),
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

/// What a [`Dictionary`] can be indexed by: a `&str` (found without building a `Variant`),
/// or anything that converts into a [`Variant`].
pub trait DictionaryKey {
    #[doc(hidden)]
    fn find(self, d: &Dictionary) -> Option<(usize, &Variant, &Variant)>;
}

impl DictionaryKey for &str {
    fn find(self, d: &Dictionary) -> Option<(usize, &Variant, &Variant)> {
        let key = StrKey(self);
        let i = d.map.find(d.map.hash_of_str(self), |k| key.matches(k))?;
        let e = &d.map.entries[i];
        Some((i, &e.key.0, &e.value))
    }
}

impl DictionaryKey for &String {
    fn find(self, d: &Dictionary) -> Option<(usize, &Variant, &Variant)> {
        DictionaryKey::find(self.as_str(), d)
    }
}

impl DictionaryKey for &Variant {
    fn find(self, d: &Dictionary) -> Option<(usize, &Variant, &Variant)> {
        if let Some(s) = self.as_str() {
            return DictionaryKey::find(s, d);
        }
        let i = d.map.find_key(&Key::new(self.clone()))?;
        let e = &d.map.entries[i];
        Some((i, &e.key.0, &e.value))
    }
}

macro_rules! owned_keys {
    ($($t:ty),*) => {$(
        impl DictionaryKey for $t {
            fn find(self, d: &Dictionary) -> Option<(usize, &Variant, &Variant)> {
                let i = d.map.find_key(&Key::new(Variant::from(self)))?;
                let e = &d.map.entries[i];
                Some((i, &e.key.0, &e.value))
            }
        }
    )*};
}
owned_keys!(
    Variant,
    String,
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    f32,
    f64,
    crate::types::names::StringName,
    crate::types::names::NodePath,
    crate::types::math::Vector2,
    crate::types::math::Vector2i,
    crate::types::math::Vector3,
    crate::types::math::Vector3i
);

impl Dictionary {
    /// An empty untyped dictionary.
    pub fn new() -> Self {
        Dictionary::default()
    }

    /// An empty untyped dictionary with room for `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        Dictionary {
            map: Map::with_capacity(n),
            ..Dictionary::default()
        }
    }

    /// An empty typed dictionary (`Dictionary[key_type, value_type]`, Godot 4.4+).
    pub fn typed(key_type: ElementType, value_type: ElementType) -> Self {
        let mut d = Dictionary::new();
        d.set_types(key_type, value_type);
        d
    }

    /// The key type; [`ElementType::Untyped`] for a plain Dictionary.
    pub fn key_type(&self) -> &ElementType {
        self.types.as_ref().map_or(&UNTYPED, |t| &t[0])
    }

    /// The value type; [`ElementType::Untyped`] for a plain Dictionary.
    pub fn value_type(&self) -> &ElementType {
        self.types.as_ref().map_or(&UNTYPED, |t| &t[1])
    }

    /// Makes this a typed Dictionary (or, with both untyped, a plain one). The entries are
    /// not checked against the types.
    pub fn set_types(&mut self, key_type: ElementType, value_type: ElementType) {
        self.types = if key_type.is_untyped() && value_type.is_untyped() {
            None
        } else {
            Some(Box::new([key_type, value_type]))
        };
    }

    /// Whether this has a key or value type (a Godot 4.4+ typed Dictionary).
    pub fn is_typed(&self) -> bool {
        self.types.is_some()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.map.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.map.entries.is_empty()
    }

    /// Inserts or replaces. A key already there (as the engine compares keys) keeps its
    /// place and its own type; its old value is returned.
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        self.map.insert(Key::new(key.into()), value.into())
    }

    /// Inserts an entry decoded from a packet, as the engine's decoder does: like
    /// [`Dictionary::insert`], except that a key holding an object is always a new entry
    /// (the engine decodes every object into one of its own).
    #[inline]
    pub(crate) fn insert_decoded(&mut self, key: Variant, value: Variant) {
        let nth = if holds_object(&key) {
            u32::try_from(self.len() + 1).unwrap_or(u32::MAX)
        } else {
            0
        };
        self.map.insert(Key(key, nth), value);
    }

    /// The value for `key`: a `&str` finds String and StringName keys alike.
    pub fn get(&self, key: impl DictionaryKey) -> Option<&Variant> {
        key.find(self).map(|(_, _, v)| v)
    }

    /// The value for `key`, to change it.
    pub fn get_mut(&mut self, key: impl DictionaryKey) -> Option<&mut Variant> {
        let (i, _, _) = key.find(self)?;
        self.map.entries.get_mut(i).map(|e| &mut e.value)
    }

    /// The key as stored (its own type) and its value.
    pub fn get_key_value(&self, key: impl DictionaryKey) -> Option<(&Variant, &Variant)> {
        key.find(self).map(|(_, k, v)| (k, v))
    }

    /// The position of `key` in the order of entries.
    pub fn get_index_of(&self, key: impl DictionaryKey) -> Option<usize> {
        key.find(self).map(|(i, _, _)| i)
    }

    /// Whether `key` is there.
    pub fn contains_key(&self, key: impl DictionaryKey) -> bool {
        key.find(self).is_some()
    }

    /// Removes `key`, keeping the order of the other entries (as the engine does), and
    /// returns its value. Takes time linear in the entries after it.
    pub fn remove(&mut self, key: impl DictionaryKey) -> Option<Variant> {
        let (i, _, _) = key.find(self)?;
        Some(self.map.remove(i).value)
    }

    /// The entry at position `i`.
    pub fn get_index(&self, i: usize) -> Option<(&Variant, &Variant)> {
        self.map.entries.get(i).map(|e| (&e.key.0, &e.value))
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter(self.map.entries.iter())
    }

    /// The entries in order, values mutable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Variant, &mut Variant)> {
        self.map
            .entries
            .iter_mut()
            .map(|e| (&e.key.0, &mut e.value))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &Variant> {
        self.map.entries.iter().map(|e| &e.key.0)
    }

    /// The values in order.
    pub fn values(&self) -> impl Iterator<Item = &Variant> {
        self.map.entries.iter().map(|e| &e.value)
    }

    /// Removes every entry (the key and value types stay).
    pub fn clear(&mut self) {
        self.map.clear();
    }
}

/// Whether `v` is or holds an object (its id or in full). Inlined for the usual key, a
/// String or a number, which needs one comparison.
#[inline]
fn holds_object(v: &Variant) -> bool {
    match v {
        Variant::ObjectId(_) | Variant::Object(_) => true,
        Variant::Array(_) | Variant::PackedTypedArray(_) | Variant::Dictionary(_) => {
            container_holds_object(v)
        }
        _ => false,
    }
}

fn container_holds_object(v: &Variant) -> bool {
    match v {
        Variant::Array(a) | Variant::PackedTypedArray(a) => a.iter().any(holds_object),
        Variant::Dictionary(d) => d.iter().any(|(k, x)| holds_object(k) || holds_object(x)),
        _ => holds_object(v),
    }
}

/// The entries of a [`Dictionary`], in order.
pub struct Iter<'a>(std::slice::Iter<'a, Entry>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Variant, &'a Variant);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|e| (&e.key.0, &e.value))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|e| (&e.key.0, &e.value))
    }
}

/// Entries in order; a key that comes again replaces the value, as [`Dictionary::insert`].
impl From<Vec<(Variant, Variant)>> for Dictionary {
    fn from(entries: Vec<(Variant, Variant)>) -> Self {
        let mut d = Dictionary::with_capacity(entries.len());
        for (k, v) in entries {
            d.insert(k, v);
        }
        d
    }
}

impl<K: Into<Variant>, V: Into<Variant>> FromIterator<(K, V)> for Dictionary {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut d = Dictionary::new();
        for (k, v) in iter {
            d.insert(k, v);
        }
        d
    }
}

impl<K: Into<Variant>, V: Into<Variant>> Extend<(K, V)> for Dictionary {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = IntoIter;
    fn into_iter(self) -> IntoIter {
        IntoIter(self.map.entries.into_iter())
    }
}

/// The entries of a [`Dictionary`], in order, by value.
pub struct IntoIter(std::vec::IntoIter<Entry>);

impl Iterator for IntoIter {
    type Item = (Variant, Variant);
    fn next(&mut self) -> Option<(Variant, Variant)> {
        self.0.next().map(|e| (e.key.0, e.value))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for IntoIter {}

impl<'a> IntoIterator for &'a Dictionary {
    type Item = (&'a Variant, &'a Variant);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::math::Vector3;
    use crate::types::names::StringName;

    #[test]
    fn keys_compare_as_the_engine_compares_them() {
        let mut d = Dictionary::new();
        assert_eq!(d.insert("a", 1), None);
        assert_eq!(d.insert(StringName::from("a"), 2), Some(Variant::Int(1)));
        assert_eq!(d.insert(1, "int"), None);
        assert_eq!(d.insert(1.0, "float"), None);
        assert_eq!(d.insert(0.0, "zero"), None);
        assert_eq!(d.insert(-0.0, "minus zero"), Some("zero".into()));
        assert_eq!(d.insert(f64::NAN, "nan"), None);
        assert_eq!(d.insert(-f64::NAN, "nan again"), Some("nan".into()));
        assert_eq!(d.insert(Vector3::new(-0.0, 1.0, 2.0), 1), None);
        assert_eq!(d.insert(Vector3::new(0.0, 1.0, 2.0), 2), Some(1.into()));
        assert_eq!(d.len(), 6);
        // "a" kept its place and its String type.
        assert_eq!(
            d.get_index(0),
            Some((&Variant::from("a"), &Variant::Int(2)))
        );
        assert_eq!(d.get(StringName::from("a")), Some(&Variant::Int(2)));
        assert_eq!(d.get(1), Some(&Variant::from("int")));
        assert_eq!(d.get(1.0), Some(&Variant::from("float")));
        let nan = Variant::from(f64::NAN);
        assert!(d.contains_key(&nan));
        assert_eq!(d.remove("a"), Some(Variant::Int(2)));
        assert_eq!(d.keys().next(), Some(&Variant::Int(1)));
    }

    #[test]
    fn lookups_hold_across_the_index_threshold() {
        // Below, at and past Map::LINEAR entries; removals that cross it back.
        let mut d = Dictionary::new();
        for i in 0..40i64 {
            assert_eq!(d.insert(format!("k{i}"), i), None);
            assert_eq!(
                d.insert(StringName::from(format!("k{i}")), i * 10),
                Some(i.into())
            );
            for j in 0..=i {
                assert_eq!(d.get(format!("k{j}").as_str()), Some(&Variant::Int(j * 10)));
                assert_eq!(d.get_index_of(j), None);
            }
            assert_eq!(d.len(), i as usize + 1);
        }
        for i in (0..40i64).step_by(3) {
            assert_eq!(
                d.remove(format!("k{i}").as_str()),
                Some(Variant::Int(i * 10))
            );
        }
        let left: Vec<i64> = d.values().map(|v| v.as_int().unwrap()).collect();
        let expected: Vec<i64> = (0..40).filter(|i| i % 3 != 0).map(|i| i * 10).collect();
        assert_eq!(left, expected);
        for (i, k) in d.keys().enumerate() {
            assert_eq!(d.get_index_of(k), Some(i));
        }
        while d.len() > 2 {
            let k = d.get_index(0).unwrap().0.clone();
            d.remove(&k);
            assert!(d.keys().all(|k| d.contains_key(k)));
        }
    }

    #[test]
    fn equality_is_ordered_and_typed() {
        let ab: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
        let ba: Dictionary = [("b", 2), ("a", 1)].into_iter().collect();
        assert_ne!(ab, ba);
        let mut named = Dictionary::new();
        named.insert(StringName::from("a"), 1);
        named.insert("b", 2);
        assert_ne!(ab, named);
        assert_eq!(ab, ab.clone());
        let typed = Dictionary::typed(
            ElementType::Builtin(VariantType::String),
            ElementType::Untyped,
        );
        assert_ne!(typed, Dictionary::new());
        assert!(!Dictionary::typed(ElementType::Untyped, ElementType::Untyped).is_typed());
    }

    #[test]
    fn keys_alike_in_their_fingerprint_stay_apart() {
        // Same length, same first and last 8 bytes: the same fingerprint, and the same bit
        // of `Map::bits`; short keys that differ only in their middle byte but one.
        let long: Vec<String> = (0..12).map(|i| format!("abcdefgh{i:02}ijklmnop")).collect();
        let short = ["ab", "abc", "aXc", "a", "", "abcd", "abXd", "abcde"];
        assert_eq!(str_fingerprint(&long[0]), str_fingerprint(&long[1]));
        let mut d = Dictionary::new();
        for (i, k) in long.iter().map(String::as_str).chain(short).enumerate() {
            assert_eq!(d.insert(k, i as i64), None, "{k}");
        }
        assert_eq!(d.len(), long.len() + short.len());
        assert!(d.map.index.is_some());
        for (i, k) in long.iter().map(String::as_str).chain(short).enumerate() {
            assert_eq!(d.get(k), Some(&Variant::Int(i as i64)), "{k}");
        }
        // Back under the threshold: fingerprints and bits again, still each its own key.
        while d.len() > 6 {
            d.remove(d.get_index(0).unwrap().0.clone());
        }
        assert!(d.map.index.is_none());
        let left: Vec<Variant> = d.keys().cloned().collect();
        for (i, k) in left.iter().enumerate() {
            assert_eq!(d.get_index_of(k), Some(i));
            let old = d.get_index(i).unwrap().1.clone();
            assert_eq!(d.insert(k.clone(), -1), Some(old));
        }
        assert_eq!(d.len(), 6);
        assert!(!d.contains_key("abXd-not-there"));
    }

    #[test]
    fn a_dictionary_stays_small() {
        // Every Variant is as large as its largest kind; Dictionary is the largest.
        assert!(
            std::mem::size_of::<Dictionary>() <= 72,
            "{}",
            std::mem::size_of::<Dictionary>()
        );
        assert!(
            std::mem::size_of::<Variant>() <= 80,
            "{}",
            std::mem::size_of::<Variant>()
        );
    }
}

#[cfg(test)]
mod engine_key_tests {
    use super::*;
    use crate::config::Config;

    /// Packets made by Godot 4.4.1 (the random-value differential), which keeps two
    /// entries in each: keys equal at the top level are not equal inside an Array, and
    /// every decoded object is an object of its own.
    #[test]
    fn keys_inside_arrays_and_object_keys_stay_apart() {
        let unhex = |h: &str| -> Vec<u8> {
            (0..h.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&h[i..i + 2], 16).unwrap())
                .collect()
        };
        for packet in [
            // {["a"]: 1, [&"a"]: 2}
            "1b000000020000001c0000000100000004000000010000006100000002000000010000001c000000010000001500000001000000610000000200000002000000",
            // {[NAN]: 1, [NAN]: 2}
            "1b000000020000001c0000000100000003000100000000000000f87f02000000010000001c0000000100000003000100000000000000f87f0200000002000000",
            // {<object 5>: 1, <object 5>: 2}
            "1b0000000200000018000100050000000000000002000000010000001800010005000000000000000200000002000000",
        ] {
            let bytes = unhex(packet);
            let v: Variant = Config::default().from_slice(&bytes).unwrap();
            assert_eq!(v.as_dictionary().unwrap().len(), 2, "{packet}");
            assert_eq!(Config::default().to_vec(&v).unwrap(), bytes, "{packet}");
            let mut d = crate::packet::Decoder::new(&bytes, &Config::default()).unwrap();
            let direct = crate::variant::codec::decode(&mut d).unwrap();
            assert_eq!(direct.as_dictionary().unwrap().len(), 2, "{packet}");
        }
        // A key inserted by hand is one key, objects or not.
        let mut d = Dictionary::new();
        d.insert(crate::types::object::ObjectId(5), 1);
        d.insert(crate::types::object::ObjectId(5), 2);
        assert_eq!(d.len(), 1);
    }
}
