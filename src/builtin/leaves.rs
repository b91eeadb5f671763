//! Presenting a fixed builtin's components (or a packed array element's) to serde.
//!
//! The components come from a [`LeafSource`]: the packet itself, read on demand, or the
//! components of a value already decoded. A [`LeafStream`] hands them out in whatever
//! nesting the asking type's own `Deserialize` wants: a `Rect2` asks for a struct of two
//! `Vector2`s, each a struct of two numbers, and gets exactly that, from four components in
//! a row. [`FlatLeaves`] hands them out as one flat sequence: the content of a builtin's
//! one-entry map (see [`crate::builtin`]).

use crate::error::{Error, ErrorKind, Result};
use crate::packet::math::read_leaf;
use crate::packet::reader::Reader;
use crate::types::leaves::{Component, ComponentKind, Leaves};
use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};

/// Where components come from.
pub(crate) trait LeafSource {
    /// The next component; an error if none is left.
    fn next_leaf(&mut self) -> Result<Component>;
    /// How many are left.
    fn left(&self) -> usize;
}

/// Components read from the packet as they are asked for.
pub(crate) struct ReaderLeaves<'a, 'de> {
    pub r: &'a mut Reader<'de>,
    pub kind: ComponentKind,
    pub wide: bool,
    pub left: usize,
}

impl LeafSource for ReaderLeaves<'_, '_> {
    #[inline]
    fn next_leaf(&mut self) -> Result<Component> {
        if self.left == 0 {
            return Err(too_many());
        }
        self.left -= 1;
        read_leaf(self.r, self.kind, self.wide, "component")
    }
    fn left(&self) -> usize {
        self.left
    }
}

/// Components of a value already decoded.
pub(crate) struct ArrayLeaves {
    pub leaves: Leaves,
    pub at: usize,
}

impl ArrayLeaves {
    pub fn new(leaves: Leaves) -> Self {
        ArrayLeaves { leaves, at: 0 }
    }
}

impl LeafSource for ArrayLeaves {
    fn next_leaf(&mut self) -> Result<Component> {
        if self.at == self.leaves.1 {
            return Err(too_many());
        }
        self.at += 1;
        Ok(self.leaves.0[self.at - 1])
    }
    fn left(&self) -> usize {
        self.leaves.1 - self.at
    }
}

#[cold]
fn too_many() -> Error {
    ErrorKind::InvalidData("a type asked for more components than the builtin has").into()
}

/// Runs `f` on `src` and checks that every component was taken (a type that asked for
/// fewer would leave the rest of the packet unread).
pub(crate) fn all<S: LeafSource, R>(src: &mut S, f: impl FnOnce(&mut S) -> Result<R>) -> Result<R> {
    let value = f(src)?;
    if src.left() != 0 {
        return Err(ErrorKind::InvalidData(
            "a type asked for fewer components than the builtin has",
        )
        .into());
    }
    Ok(value)
}

/// One component, presented as the number it is.
pub(crate) struct LeafDe(pub Component);

impl<'de> de::Deserializer<'de> for LeafDe {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Component::F32(v) => visitor.visit_f32(v),
            Component::I32(v) => visitor.visit_i32(v),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// The components in the nesting the asking type wants. At the top of a packed array
/// element (`element: true`), `deserialize_any` presents all of them as one flat sequence;
/// inside, it presents the next one.
pub(crate) struct LeafStream<'s, S> {
    pub src: &'s mut S,
    pub element: bool,
}

impl<'s, S: LeafSource> LeafStream<'s, S> {
    fn group<'de, V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(Group {
            src: self.src,
            left: len,
        })
    }
}

impl<'de, S: LeafSource> de::Deserializer<'de> for LeafStream<'_, S> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.element {
            return visitor.visit_seq(FlatLeaves { src: self.src });
        }
        LeafDe(self.src.next_leaf()?).deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.group(fields.len(), visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.group(len, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.group(len, visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(FlatLeaves { src: self.src })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct map enum identifier ignored_any
    }
}

/// `left` parts of a nested group, each a [`LeafStream`].
struct Group<'s, S> {
    src: &'s mut S,
    left: usize,
}

impl<'de, S: LeafSource> SeqAccess<'de> for Group<'_, S> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(LeafStream {
            src: &mut *self.src,
            element: false,
        })
        .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// Every component left, as one flat sequence of numbers.
pub(crate) struct FlatLeaves<'s, S> {
    pub src: &'s mut S,
}

impl<'de, S: LeafSource> SeqAccess<'de> for FlatLeaves<'_, S> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.src.left() == 0 {
            return Ok(None);
        }
        seed.deserialize(LeafDe(self.src.next_leaf()?)).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.src.left())
    }
}

/// [`FlatLeaves`] as a deserializer: the content of a fixed builtin's one-entry map.
pub(crate) struct FlatLeavesDe<'s, S> {
    pub src: &'s mut S,
}

impl<'de, S: LeafSource> de::Deserializer<'de> for FlatLeavesDe<'_, S> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(FlatLeaves { src: self.src })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// A one-entry map `{key: value}`: how a builtin is presented to `deserialize_any`.
pub(crate) struct OneEntry<D> {
    pub key: Option<&'static str>,
    pub value: Option<D>,
}

impl<D> OneEntry<D> {
    pub fn new(key: &'static str, value: D) -> Self {
        OneEntry {
            key: Some(key),
            value: Some(value),
        }
    }
}

impl<'de, D: de::Deserializer<'de, Error = Error>> de::MapAccess<'de> for OneEntry<D> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.key.take() {
            Some(key) => seed
                .deserialize(de::value::BorrowedStrDeserializer::new(key))
                .map(Some),
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match self.value.take() {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::custom("a value asked for twice")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.key.is_some() as usize)
    }
}

/// Two values in a row, as a sequence.
pub(crate) struct Two<A, B> {
    first: Option<A>,
    second: Option<B>,
}

impl<A, B> Two<A, B> {
    pub fn new(first: A, second: B) -> Self {
        Two {
            first: Some(first),
            second: Some(second),
        }
    }
}

impl<'de, A, B> SeqAccess<'de> for Two<A, B>
where
    A: de::Deserializer<'de, Error = Error>,
    B: de::Deserializer<'de, Error = Error>,
{
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(a) = self.first.take() {
            return seed.deserialize(a).map(Some);
        }
        match self.second.take() {
            Some(b) => seed.deserialize(b).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.first.is_some() as usize + self.second.is_some() as usize)
    }
}
