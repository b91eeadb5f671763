//! serde's access traits over Array elements, Dictionary entries and enum variants. An
//! error passing out of an element or entry learns where it was (its index, its key's text):
//! the path in [`Error::path`](crate::error::Error::path).

use super::Deserializer;
use crate::error::{Error, PathSegment, Result};
use crate::packet::Nest;
use serde::de::{self, DeserializeSeed, Visitor};

/// The elements of an Array, one level deeper than the Array.
pub(crate) struct ArrayAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    index: usize,
    count: usize,
}

impl<'a, 'de> ArrayAccess<'a, 'de> {
    /// Visits `count` elements; a visitor that stops early is an error, as in serde_json.
    pub fn visit<V: Visitor<'de>>(
        de: &'a mut Deserializer<'de>,
        count: usize,
        visitor: V,
    ) -> Result<V::Value> {
        de.nest(|de| {
            let mut access = ArrayAccess {
                de,
                index: 0,
                count,
            };
            // The result goes back as it came, not through a local (see `Nest::nest`).
            let result = visitor.visit_seq(&mut access);
            if result.is_ok() && access.index != count {
                return Err(de::Error::invalid_length(count, &"fewer elements"));
            }
            result
        })
    }
}

impl<'de> de::SeqAccess<'de> for ArrayAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.count {
            return Ok(None);
        }
        let index = self.index;
        self.index += 1;
        match seed.deserialize(&mut *self.de) {
            Ok(value) => Ok(Some(value)),
            Err(e) => Err(e.in_segment(PathSegment::Index(index))),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.d.prealloc(self.count - self.index))
    }
}

/// The entries of a Dictionary, one level deeper than the Dictionary.
pub(crate) struct DictionaryAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
    /// Where the last key read starts, to name it in an error.
    key_at: usize,
}

impl<'a, 'de> DictionaryAccess<'a, 'de> {
    /// Visits `count` entries; a visitor that stops early is an error.
    pub fn visit<V: Visitor<'de>>(
        de: &'a mut Deserializer<'de>,
        count: usize,
        visitor: V,
    ) -> Result<V::Value> {
        de.nest(|de| {
            let mut access = DictionaryAccess {
                de,
                left: count,
                key_at: 0,
            };
            let result = visitor.visit_map(&mut access);
            if result.is_ok() && access.left != 0 {
                return Err(de::Error::invalid_length(count, &"fewer entries"));
            }
            result
        })
    }
}

impl<'de> de::MapAccess<'de> for DictionaryAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        self.key_at = self.de.d.r.pos();
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        match seed.deserialize(&mut *self.de) {
            Ok(value) => Ok(value),
            Err(e) => {
                Err(e.in_segment(crate::variant::codec::key_segment(&self.de.d, self.key_at)))
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.d.prealloc(self.left))
    }
}

/// `{variant: content}`: the one entry of an externally tagged enum.
pub(crate) struct EnumAccess<'a, 'de> {
    pub de: &'a mut Deserializer<'de>,
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = seed.deserialize(&mut *self.de)?;
        Ok((name, self))
    }
}

impl<'de> de::VariantAccess<'de> for EnumAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(self.de)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self.de, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // A map, read as any packet is, with the fast path for a plain Dictionary.
        de::Deserializer::deserialize_map(self.de, visitor)
    }
}
