//! [`Dictionary`]: an ordered map with any [`Variant`] as key, and the key and value types
//! of a Godot 4.4 typed dictionary. Its keys hash and compare by the engine's rules
//! (`keys.rs`).

use super::keys::*;
use super::Variant;
use crate::types::element::ElementType;
use hashbrown::HashTable;
use std::hash::BuildHasher;

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
    pub(super) types: Option<Box<[ElementType; 2]>>,
    /// Godot 2 only: the dictionary is shared (bit 31 of the count).
    pub shared: bool,
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
#[derive(Default)]
struct Map {
    entries: Vec<Entry>,
    /// Positions in `entries`, by their key's hash (boxed: most maps have none).
    index: Option<Box<HashTable<usize>>>,
    /// Without an index: bit `Map::bit(hash)` is set for each entry's hash, so that a key
    /// whose bit is clear is known to be new without comparing it to every entry (the
    /// common case when decoding: a packet rarely repeats a key).
    bits: u64,
}

impl Clone for Map {
    fn clone(&self) -> Self {
        Map {
            entries: super::array::clone_deep(&self.entries),
            index: self.index.clone(),
            bits: self.bits,
        }
    }
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

/// Equality is the engine's `==` (Godot 4's `Dictionary::operator==`): the same keys,
/// found by the engine's key rules, with the same values, in any order. So
/// `{"a": 1, "b": 2} == {"b": 2, "a": 1}`, as in GDScript, in `indexmap::IndexMap` and in
/// serde_json's `Map`; a String key and a StringName key of the same text are the same key
/// (`{"a": 1} == {&"a": 1}`, as in the engine), and so are `0.0` and `-0.0`, or two NaNs.
/// Values compare as [`Variant`]'s `==` does: of the same type (`1` is not `1.0`, `"x"` is
/// not `&"x"`), nested Dictionaries again in any order. A key that is itself an Array or a
/// Dictionary matches only one with its entries in the same order, as in the engine, which
/// hashes them in order.
///
/// Unlike the engine, which ignores them, the key and value types of a typed Dictionary
/// must be the same, as [`Array`](crate::variant::Array)'s element type must: a typed
/// Dictionary encodes to other bytes and admits other entries. The Godot 2 `shared` flag
/// must be the same too.
///
/// [`Dictionary::eq_ordered`] (and [`Variant::eq_ordered`]) also asks for the same order
/// and the same key types, all the way down: what encodes to the same bytes.
///
/// ```
/// use godot_bin::{Dictionary, StringName};
/// let ab: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
/// let ba: Dictionary = [("b", 2), ("a", 1)].into_iter().collect();
/// assert_eq!(ab, ba);
/// assert!(!ab.eq_ordered(&ba));
/// let named: Dictionary = [(StringName::from("a"), 1), (StringName::from("b"), 2)]
///     .into_iter()
///     .collect();
/// assert_eq!(ab, named);
/// ```
impl PartialEq for Dictionary {
    fn eq(&self, other: &Dictionary) -> bool {
        if self.types != other.types || self.shared != other.shared || self.len() != other.len() {
            return false;
        }
        let (a, b) = (&self.map.entries, &other.map.entries);
        // The same order, the usual case: no lookups.
        let same = a
            .iter()
            .zip(b)
            .take_while(|(x, y)| key_eq(&x.key.0, &y.key.0) && x.value == y.value)
            .count();
        if same == a.len() {
            return true;
        }
        let (rest_a, rest_b) = (&a[same..], &b[same..]);
        if rest_a.iter().chain(rest_b).all(|e| e.key.1 == 0) {
            // Each map holds each key once, so a key of `self` found in `other` is found at
            // a place of its own: with as many entries on both sides, every key is matched.
            return rest_a.iter().all(|x| {
                other
                    .map
                    .find_key(&x.key)
                    .is_some_and(|j| b[j].value == x.value)
            });
        }
        // Keys holding objects decoded from a packet, each a key of its own (the engine
        // decodes every object into one of its own): they may repeat, so match each entry
        // to one not matched yet.
        let mut taken = vec![false; rest_b.len()];
        rest_a.iter().all(|x| {
            let found = rest_b
                .iter()
                .enumerate()
                .position(|(j, y)| !taken[j] && key_eq(&x.key.0, &y.key.0) && x.value == y.value);
            found.map(|j| taken[j] = true).is_some()
        })
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

    /// Whether `self` and `other` hold the same entries **in the same order**, with keys
    /// of the same types (a String key is not a StringName key here), nested containers
    /// compared the same way ([`Variant::eq_ordered`]), and the same key and value types:
    /// what encodes to the same bytes. `==` is the engine's comparison, in any order.
    ///
    /// ```
    /// use godot_bin::Dictionary;
    /// let ab: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
    /// let ba: Dictionary = [("b", 2), ("a", 1)].into_iter().collect();
    /// assert_eq!(ab, ba);
    /// assert!(!ab.eq_ordered(&ba));
    /// assert!(ab.eq_ordered(&ab.clone()));
    /// ```
    pub fn eq_ordered(&self, other: &Dictionary) -> bool {
        self.types == other.types
            && self.shared == other.shared
            && self.len() == other.len()
            && self
                .iter()
                .zip(other.iter())
                .all(|((k1, v1), (k2, v2))| k1.eq_ordered(k2) && v1.eq_ordered(v2))
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
    use crate::dialect::VariantType;
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
    fn ordered_equality_is_ordered_and_typed() {
        let ab: Dictionary = [("a", 1), ("b", 2)].into_iter().collect();
        let ba: Dictionary = [("b", 2), ("a", 1)].into_iter().collect();
        assert!(!ab.eq_ordered(&ba));
        let mut named = Dictionary::new();
        named.insert(StringName::from("a"), 1);
        named.insert("b", 2);
        assert!(!ab.eq_ordered(&named));
        assert!(ab.eq_ordered(&ab.clone()));
        let typed = Dictionary::typed(
            ElementType::Builtin(VariantType::String),
            ElementType::Untyped,
        );
        assert!(!typed.eq_ordered(&Dictionary::new()));
        assert!(!Dictionary::typed(ElementType::Untyped, ElementType::Untyped).is_typed());
    }

    /// Godot 4.4.1 says `true` or `false` to each of these `==` (tests/engine/values.rs
    /// asks it again).
    #[test]
    fn equality_is_the_engines() {
        let d = |pairs: Vec<(Variant, Variant)>| Dictionary::from(pairs);
        let s = |x: &str| Variant::from(x);
        let n = |x: &str| Variant::StringName(StringName::from(x));
        let ab = d(vec![(s("a"), 1.into()), (s("b"), 2.into())]);
        let ba = d(vec![(s("b"), 2.into()), (s("a"), 1.into())]);
        assert_eq!(ab, ba);
        // Nested, and inside an Array.
        let outer = |x: &Dictionary| d(vec![(s("x"), x.clone().into()), (s("k"), 0.into())]);
        assert_eq!(outer(&ab), outer(&ba));
        assert_eq!(
            Variant::from(vec![Variant::from(ab.clone())]),
            Variant::from(vec![Variant::from(ba.clone())])
        );
        // Keys by the engine's rules: String and StringName, 0.0 and -0.0, NaN and NaN.
        assert_eq!(ab, d(vec![(n("b"), 2.into()), (n("a"), 1.into())]));
        assert_eq!(
            d(vec![(0.0.into(), 1.into())]),
            d(vec![((-0.0).into(), 1.into())])
        );
        let nan_key = d(vec![(f64::NAN.into(), 1.into()), (s("a"), 1.into())]);
        assert_eq!(
            nan_key,
            d(vec![(s("a"), 1.into()), (f64::NAN.into(), 1.into())])
        );
        assert_ne!(d(vec![(1.into(), s("a"))]), d(vec![(1.0.into(), s("a"))]));
        // Values by Variant's `==`: of one type, NaN equal to nothing.
        assert_ne!(d(vec![(s("a"), s("x"))]), d(vec![(s("a"), n("x"))]));
        assert_ne!(d(vec![(s("a"), 1.into())]), d(vec![(s("a"), 1.0.into())]));
        assert_ne!(
            d(vec![(s("a"), f64::NAN.into())]),
            d(vec![(s("a"), f64::NAN.into())])
        );
        assert_eq!(
            d(vec![(s("a"), 0.0.into())]),
            d(vec![(s("a"), (-0.0).into())])
        );
        // A Dictionary key matches only in its own order.
        assert_ne!(
            d(vec![(ab.clone().into(), 1.into()), (s("z"), 0.into())]),
            d(vec![(s("z"), 0.into()), (ba.clone().into(), 1.into())])
        );
        assert_ne!(ab, d(vec![(s("a"), 1.into())]));
        assert_ne!(ab, d(vec![(s("a"), 1.into()), (s("b"), 3.into())]));
        assert_ne!(ab, d(vec![(s("a"), 1.into()), (s("c"), 2.into())]));
    }

    #[test]
    fn equality_in_any_order_past_the_index_and_with_object_keys() {
        use crate::types::object::ObjectId;
        let forward: Dictionary = (0..40i64).map(|i| (format!("k{i}"), i)).collect();
        let backward: Dictionary = (0..40i64).rev().map(|i| (format!("k{i}"), i)).collect();
        assert!(forward.map.index.is_some());
        assert_eq!(forward, backward);
        let mut changed = backward.clone();
        changed.insert("k7", -1);
        assert_ne!(forward, changed);
        // Decoded object keys are keys of their own, and may repeat.
        let mut a = Dictionary::new();
        a.insert_decoded(ObjectId(5).into(), 1.into());
        a.insert_decoded(ObjectId(5).into(), 2.into());
        a.insert_decoded("s".into(), 3.into());
        let mut b = Dictionary::new();
        b.insert_decoded("s".into(), 3.into());
        b.insert_decoded(ObjectId(5).into(), 2.into());
        b.insert_decoded(ObjectId(5).into(), 1.into());
        assert_eq!((a.len(), b.len()), (3, 3));
        assert_eq!(a, b);
        let mut c = Dictionary::new();
        c.insert_decoded("s".into(), 3.into());
        c.insert_decoded(ObjectId(5).into(), 2.into());
        c.insert_decoded(ObjectId(5).into(), 2.into());
        assert_ne!(a, c);
        // An object key inserted by hand matches a decoded one.
        let mut by_hand = Dictionary::new();
        by_hand.insert(ObjectId(6), 1);
        by_hand.insert("s", 3);
        let mut decoded = Dictionary::new();
        decoded.insert_decoded("s".into(), 3.into());
        decoded.insert_decoded(ObjectId(6).into(), 1.into());
        assert_eq!(by_hand, decoded);
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
