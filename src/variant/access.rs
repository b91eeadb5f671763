//! serde's access traits over the Array elements and Dictionary entries that a `Variant`
//! presents as a deserializer ([`from_variant`](super::from_variant)). An error passing out
//! of an element or entry learns where it was (its index, its key's text), as from
//! godot_bin's own deserializer (`src/de/access.rs`): [`Error::path`] is the same both ways.

use super::dictionary::{self, Dictionary};
use super::Variant;
use crate::error::{Error, PathSegment, Result};
use serde::de::{self, DeserializeSeed, Visitor};

/// The path step of an entry with this key: a String or StringName key's own text, any
/// other key's text form in brackets (`[1]`, `[Vector2(1, 2)]`). Only called on the error
/// path.
#[cold]
#[inline(never)]
pub(super) fn key_segment(key: &Variant) -> PathSegment {
    match key.as_str() {
        Some(s) => PathSegment::Key(s.to_owned()),
        None => PathSegment::Key(format!("[{key}]")),
    }
}

/// The elements of an Array, each given by value.
pub(super) struct Elements {
    items: std::vec::IntoIter<Variant>,
    index: usize,
}

impl Elements {
    /// Visits the elements; a visitor that stops early is an error, as in serde_json and
    /// godot_bin's deserializer.
    pub(super) fn visit<'de, V: Visitor<'de>>(items: Vec<Variant>, visitor: V) -> Result<V::Value> {
        let count = items.len();
        let mut access = Elements {
            items: items.into_iter(),
            index: 0,
        };
        let value = visitor.visit_seq(&mut access)?;
        if access.index != count {
            return Err(de::Error::invalid_length(count, &"fewer elements"));
        }
        Ok(value)
    }
}

impl<'de> de::SeqAccess<'de> for Elements {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(item) = self.items.next() else {
            return Ok(None);
        };
        let index = self.index;
        self.index += 1;
        match seed.deserialize(item) {
            Ok(value) => Ok(Some(value)),
            Err(e) => Err(e.in_segment(PathSegment::Index(index))),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

/// The entries of a Dictionary, each key and value given by value. The key stays here
/// until its value is read, to name it if the value fails.
pub(super) struct Entries {
    entries: dictionary::IntoIter,
    key: Option<Variant>,
    value: Option<Variant>,
    /// For a struct: a String or StringName key is lent as its text (a field name needs
    /// no copy of its own), not given.
    fields: bool,
}

impl Entries {
    /// Visits the entries (as a struct's fields if `fields`); a visitor that stops early is
    /// an error.
    pub(super) fn visit<'de, V: Visitor<'de>>(
        d: Dictionary,
        fields: bool,
        visitor: V,
    ) -> Result<V::Value> {
        let count = d.len();
        let mut access = Entries {
            entries: d.into_iter(),
            key: None,
            value: None,
            fields,
        };
        let value = visitor.visit_map(&mut access)?;
        if access.entries.len() != 0 {
            return Err(de::Error::invalid_length(count, &"fewer entries"));
        }
        Ok(value)
    }
}

impl<'de> de::MapAccess<'de> for Entries {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        let key = self.key.insert(key);
        match key.as_str() {
            Some(name) if self.fields => seed
                .deserialize(de::value::StrDeserializer::<Error>::new(name))
                .map(Some),
            _ => seed.deserialize(key.clone()).map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let Some(value) = self.value.take() else {
            return Err(de::Error::custom("a value asked for before its key"));
        };
        seed.deserialize(value).map_err(|e| match &self.key {
            Some(key) => e.in_segment(key_segment(key)),
            None => e,
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
