//! The visitors every builtin's `Deserialize` uses: a struct-shaped builtin from its own
//! shape or from its one-entry map under its private name ([`StructVisitor`]), a
//! newtype-shaped one from its content or that map ([`NewtypeVisitor`]), the content of
//! such a map however deeply serde's buffering wrapped it ([`Unwrap`], [`content`]), and a
//! fixed builtin's components as one flat sequence ([`fixed_from_leaves`]).

use super::{Builtin, Kind};
use crate::types::leaves::{Component, ComponentKind, Fixed, MAX_LEAVES};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// The visitor of a struct-shaped builtin: its own shape, or its one-entry map.
pub(crate) struct StructVisitor<T>(pub PhantomData<T>);

impl<'de, T: Builtin> Visitor<'de> for StructVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}", T::KIND.ty())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::from_shape(de::value::SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return T::from_shape(de::value::MapAccessDeserializer::new(map));
        };
        if first == T::KIND.name() {
            let value = map.next_value_seed(MapValueSeed::<T>(PhantomData))?;
            return finish_map(map, value);
        }
        T::from_shape(de::value::MapAccessDeserializer::new(Replay {
            first: Some(first),
            map,
        }))
    }
}

/// Checks that a one-entry map has no more entries.
fn finish_map<'de, A: MapAccess<'de>, T>(mut map: A, value: T) -> Result<T, A::Error> {
    match map.next_key::<de::IgnoredAny>()? {
        None => Ok(value),
        Some(_) => Err(de::Error::custom(
            "a builtin's map holds more than its one entry",
        )),
    }
}

/// A map key read as a string (a field name or a private name).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }
}

/// A map whose first key was already read: hands it out again, then the rest.
struct Replay<A> {
    first: Option<String>,
    map: A,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        match self.first.take() {
            Some(key) => seed
                .deserialize(de::value::StringDeserializer::<A::Error>::new(key))
                .map(Some),
            None => self.map.next_key_seed(seed),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }
    fn size_hint(&self) -> Option<usize> {
        self.map
            .size_hint()
            .map(|n| n + self.first.is_some() as usize)
    }
}

/// The content of a builtin's one-entry map.
pub(crate) struct MapValueSeed<T>(pub PhantomData<T>);

impl<'de, T: Builtin> DeserializeSeed<'de> for MapValueSeed<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        Unwrap::new(T::KIND, FromMapValue::<T>(PhantomData)).deserialize(d)
    }
}

struct FromMapValue<T>(PhantomData<T>);

impl<'de, T: Builtin> DeserializeSeed<'de> for FromMapValue<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::from_map_value(d)
    }
}

/// The content of a builtin's one-entry map, read by `seed`, however many more of those
/// maps it comes wrapped in. (Written as a Dictionary beside serde's internal tag, a
/// builtin is its own packet, which serde's buffering keeps as its one-entry map: the
/// content of the outer map is then the inner map.)
pub(crate) struct Unwrap<S> {
    kind: Kind,
    seed: S,
}

impl<S> Unwrap<S> {
    pub fn new(kind: Kind, seed: S) -> Self {
        Unwrap { kind, seed }
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Unwrap<S> {
    type Value = S::Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        d.deserialize_any(self)
    }
}

macro_rules! unwrap_forward {
    ($($method:ident($($arg:ident: $t:ty),*) => $de:expr;)*) => {$(
        fn $method<E: de::Error>(self, $($arg: $t),*) -> Result<S::Value, E> {
            self.seed.deserialize($de)
        }
    )*};
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Unwrap<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the content of a {}", self.kind.ty())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<S::Value, A::Error> {
        let Some(first) = map.next_key_seed(KeySeed)? else {
            return self
                .seed
                .deserialize(de::value::MapAccessDeserializer::new(map));
        };
        if first == self.kind.name() {
            let value = map.next_value_seed(self)?;
            return finish_map(map, value);
        }
        self.seed
            .deserialize(de::value::MapAccessDeserializer::new(Replay {
                first: Some(first),
                map,
            }))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<S::Value, A::Error> {
        self.seed
            .deserialize(de::value::SeqAccessDeserializer::new(seq))
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(d)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(d)
    }

    unwrap_forward! {
        visit_bool(v: bool) => de::value::BoolDeserializer::new(v);
        visit_i64(v: i64) => de::value::I64Deserializer::new(v);
        visit_u64(v: u64) => de::value::U64Deserializer::new(v);
        visit_f32(v: f32) => de::value::F32Deserializer::new(v);
        visit_f64(v: f64) => de::value::F64Deserializer::new(v);
        visit_str(v: &str) => de::value::StrDeserializer::new(v);
        visit_borrowed_str(v: &'de str) => de::value::BorrowedStrDeserializer::new(v);
        visit_string(v: String) => de::value::StringDeserializer::new(v);
        visit_bytes(v: &[u8]) => de::value::BytesDeserializer::new(v);
        visit_borrowed_bytes(v: &'de [u8]) => de::value::BorrowedBytesDeserializer::new(v);
        visit_byte_buf(v: Vec<u8>) => de::value::BytesDeserializer::new(&v);
        visit_unit() => de::value::UnitDeserializer::new();
        visit_none() => de::value::UnitDeserializer::new();
    }
}

/// `T` (a serde type, not a builtin) read as the content of a builtin's one-entry map.
pub(crate) struct Content<T>(pub PhantomData<T>);

impl<'de, T: de::Deserialize<'de>> DeserializeSeed<'de> for Content<T> {
    type Value = T;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

/// [`Content`] inside any number of the one-entry maps of `kind`.
pub(crate) fn content<T>(kind: Kind) -> Unwrap<Content<T>> {
    Unwrap::new(kind, Content(PhantomData))
}

/// A fixed builtin's components, in wire order, as a flat sequence of numbers: the content
/// of its one-entry map.
pub(crate) fn fixed_from_leaves<'de, T: Fixed, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    struct LeavesVisitor<T>(PhantomData<T>);
    impl<'de, T: Fixed> Visitor<'de> for LeavesVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "the {} components of a {}", T::N, T::TYPE)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<T, A::Error> {
            let mut leaves = [Component::I32(0); MAX_LEAVES];
            for (i, slot) in leaves.iter_mut().take(T::N).enumerate() {
                *slot = match T::KIND {
                    ComponentKind::I32 => Component::I32(
                        seq.next_element()?
                            .ok_or_else(|| de::Error::invalid_length(i, &self))?,
                    ),
                    _ => Component::F32(
                        seq.next_element()?
                            .ok_or_else(|| de::Error::invalid_length(i, &self))?,
                    ),
                };
            }
            if seq.next_element::<de::IgnoredAny>()?.is_some() {
                return Err(de::Error::invalid_length(T::N + 1, &self));
            }
            Ok(T::from_leaves(&leaves[..T::N]))
        }
    }
    d.deserialize_seq(LeavesVisitor(PhantomData))
}

/// The visitor of a newtype-shaped builtin: `T` from its content `C` (a string, an id, a
/// sequence), given directly, as a newtype, or as its one-entry map.
pub(crate) struct NewtypeVisitor<T, C> {
    pub wrap: fn(C) -> T,
    pub kind: Kind,
    pub content: PhantomData<C>,
}

impl<'de, T, C: de::Deserialize<'de>> NewtypeVisitor<T, C> {
    fn content<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        C::deserialize(d).map(self.wrap)
    }
}

macro_rules! forward_to_content {
    ($($method:ident($($arg:ident: $t:ty),*) => $de:expr;)*) => {$(
        fn $method<E: de::Error>(self, $($arg: $t),*) -> Result<T, E> {
            self.content($de)
        }
    )*};
}

impl<'de, T, C: de::Deserialize<'de>> Visitor<'de> for NewtypeVisitor<T, C> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}", self.kind.ty())
    }

    /// The content as itself, or (from serde's buffer, which hands every newtype's content
    /// over so) as the one-entry map. Only human-readable deserializers (godot_bin's, and
    /// serde's buffer) present that map; the others may not describe themselves at all.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(self)
        } else {
            self.content(d)
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        self.content(de::value::SeqAccessDeserializer::new(seq))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        match map.next_key_seed(KeySeed)? {
            Some(key) if key == self.kind.name() => {
                let value = map.next_value_seed(content::<C>(self.kind))?;
                finish_map(map, (self.wrap)(value))
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }

    forward_to_content! {
        visit_str(v: &str) => de::value::StrDeserializer::new(v);
        visit_borrowed_str(v: &'de str) => de::value::BorrowedStrDeserializer::new(v);
        visit_string(v: String) => de::value::StringDeserializer::new(v);
        visit_u64(v: u64) => de::value::U64Deserializer::new(v);
        visit_i64(v: i64) => de::value::I64Deserializer::new(v);
        visit_bytes(v: &[u8]) => de::value::BytesDeserializer::new(v);
        visit_borrowed_bytes(v: &'de [u8]) => de::value::BorrowedBytesDeserializer::new(v);
        visit_byte_buf(v: Vec<u8>) => de::value::BytesDeserializer::new(&v);
    }
}
