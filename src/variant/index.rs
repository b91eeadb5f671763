//! `Index` and `IndexMut` on [`Variant`] and [`Dictionary`], as serde_json's `Value` and
//! `Map` have them (and toml_edit's tables): `v["players"][0]["hp"]`.

use super::dictionary::DictionaryKey;
use super::{Dictionary, Variant};
use std::ops::{Index, IndexMut};

/// What indexes a [`Variant`]: a `&str` (or `String`) finds a Dictionary's String or
/// StringName key, a `usize` an Array's element. Sealed: implemented here only.
pub trait VariantIndex: private::Sealed {
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant>;
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Variant) -> &'v mut Variant;
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl VariantIndex for usize {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        match v {
            Variant::Array(a) | Variant::PackedTypedArray(a) => a.get(*self),
            _ => None,
        }
    }

    fn index_or_insert<'v>(&self, v: &'v mut Variant) -> &'v mut Variant {
        match v {
            Variant::Array(a) | Variant::PackedTypedArray(a) => {
                let len = a.len();
                a.get_mut(*self).unwrap_or_else(|| {
                    panic!("cannot index an Array of {len} elements with {self}")
                })
            }
            other => panic!("cannot index {} with a number", other.get_type()),
        }
    }
}

impl VariantIndex for str {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        match v {
            Variant::Dictionary(d) => d.get(self),
            _ => None,
        }
    }

    fn index_or_insert<'v>(&self, v: &'v mut Variant) -> &'v mut Variant {
        if let Variant::Nil = v {
            *v = Variant::Dictionary(Dictionary::new());
        }
        match v {
            Variant::Dictionary(d) => {
                if d.get(self).is_none() {
                    d.insert(self, Variant::Nil);
                }
                d.get_mut(self).expect("the key was just inserted")
            }
            other => panic!("cannot index {} with a string", other.get_type()),
        }
    }
}

impl VariantIndex for String {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        self.as_str().index_into(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Variant) -> &'v mut Variant {
        self.as_str().index_or_insert(v)
    }
}

impl<T: VariantIndex + ?Sized> VariantIndex for &T {
    fn index_into<'v>(&self, v: &'v Variant) -> Option<&'v Variant> {
        (**self).index_into(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Variant) -> &'v mut Variant {
        (**self).index_or_insert(v)
    }
}

static NIL: Variant = Variant::Nil;

/// `v["key"]` (a Dictionary's String or StringName key) and `v[0]` (an Array's element),
/// as serde_json's `Value` indexes: a key that is not there, an index past the end or a
/// value of another type gives `Variant::Nil`, never a panic.
///
/// ```
/// use godot_bin::{Dictionary, Variant};
/// let mut player = Dictionary::new();
/// player.insert("hp", 10);
/// let save = Variant::from(vec![Variant::Dictionary(player)]);
/// assert_eq!(save[0]["hp"], Variant::Int(10));
/// assert_eq!(save[0]["mp"], Variant::Nil);
/// assert_eq!(save[3], Variant::Nil);
/// ```
impl<I: VariantIndex> Index<I> for Variant {
    type Output = Variant;
    fn index(&self, index: I) -> &Variant {
        index.index_into(self).unwrap_or(&NIL)
    }
}

/// `v["key"] = ...` and `v[0] = ...`, as serde_json's `Value`: a missing key is inserted
/// (null until assigned) and a null becomes a Dictionary first; an index past an Array's
/// end, or a value of another type, panics.
///
/// ```
/// use godot_bin::Variant;
/// let mut v = Variant::Nil;
/// v["player"]["hp"] = Variant::Int(10);
/// assert_eq!(v.to_string(), "{\n\"player\": {\n\"hp\": 10\n}\n}");
/// ```
impl<I: VariantIndex> IndexMut<I> for Variant {
    fn index_mut(&mut self, index: I) -> &mut Variant {
        index.index_or_insert(self)
    }
}

/// `d[key]`: the value of `key` (a `&str` finds String and StringName keys alike); panics
/// if there is none, as `HashMap`'s index and serde_json's `Map` do
/// ([`Dictionary::get`] asks).
///
/// ```
/// use godot_bin::{Dictionary, Variant};
/// let mut d = Dictionary::new();
/// d.insert("hp", 10);
/// d.insert(5, "five");
/// assert_eq!(d["hp"], Variant::Int(10));
/// assert_eq!(d[5], Variant::from("five"));
/// d["hp"] = Variant::Int(11);
/// assert_eq!(d.get("hp"), Some(&Variant::Int(11)));
/// ```
impl<K: DictionaryKey> Index<K> for Dictionary {
    type Output = Variant;
    fn index(&self, key: K) -> &Variant {
        self.get(key).expect("no such key in the Dictionary")
    }
}

/// `d[key] = ...` for a key that is there; panics if there is none
/// ([`Dictionary::insert`] adds one).
impl<K: DictionaryKey> IndexMut<K> for Dictionary {
    fn index_mut(&mut self, key: K) -> &mut Variant {
        self.get_mut(key).expect("no such key in the Dictionary")
    }
}
