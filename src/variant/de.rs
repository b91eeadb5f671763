//! `Deserialize` for [`Variant`].
//!
//! From godot_bin, a `Variant` is decoded natively, so every detail (typed containers,
//! StringName vs String, the exact builtin type) survives: the deserializer sees the
//! private [`TOKEN`], decodes the packet, and hands the finished value to the visitor
//! through a thread-local slot, since serde's data model has no way to carry it. From any
//! other format, the visitor builds a `Variant` from serde's data model (maps become
//! Dictionaries, sequences Arrays).

use super::{Array, Dictionary, Variant};
use crate::de::{Deserializer, Header};
use crate::error::Result;
use crate::types::packed::PackedByteArray;
use serde::de::{self, Deserialize, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;

/// The private newtype name by which `Variant` asks godot_bin for a native decode.
pub(crate) const TOKEN: &str = "$godot_bin::Variant";

thread_local! {
    /// The value decoded for the visitor currently being handed one.
    static HANDED_OVER: Cell<Option<Variant>> = const { Cell::new(None) };
}

/// Gives `value` to a `Variant` visitor: stores it, then visits a one-entry map whose key
/// is [`TOKEN`]; [`VariantVisitor::visit_map`] takes it back out. Both happen on this
/// thread within this call, and the slot is emptied whatever the visitor does.
pub(crate) fn hand_over<'de, V: Visitor<'de>>(value: Variant, visitor: V) -> Result<V::Value> {
    HANDED_OVER.with(|slot| slot.set(Some(value)));
    let result = visitor.visit_map(de::value::MapDeserializer::new(std::iter::once((
        TOKEN,
        (),
    ))));
    HANDED_OVER.with(|slot| slot.take());
    result
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        d.deserialize_newtype_struct(TOKEN, VariantVisitor)
    }
}

impl<'de> Deserialize<'de> for Array {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Array, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Array(a) => Ok(a),
            other => Err(de::Error::custom(format!(
                "expected Array, found {}",
                other.get_type()
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Dictionary {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Dictionary, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Dictionary(dict) => Ok(dict),
            other => Err(de::Error::custom(format!(
                "expected Dictionary, found {}",
                other.get_type()
            ))),
        }
    }
}

struct VariantVisitor;

impl<'de> Visitor<'de> for VariantVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Godot value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Variant, E> {
        Ok(Variant::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Variant, E> {
        Ok(Variant::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(format!("{v} does not fit in int (i64)")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Variant, E> {
        Ok(Variant::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Variant, E> {
        Ok(Variant::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Variant, E> {
        Ok(Variant::String(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v.to_vec())))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v)))
    }
    fn visit_unit<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_none<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Variant, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Variant::from(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        while let Some(key) = map.next_key::<Variant>()? {
            if entries.is_empty() && key.as_str() == Some(TOKEN) {
                map.next_value::<()>()?;
                return HANDED_OVER.with(|slot| slot.take()).ok_or_else(|| {
                    de::Error::custom("a godot_bin Variant token without its value")
                });
            }
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(Variant::Dictionary(Dictionary::from(entries)))
    }
}

/// Decodes an Array (or Pandemonium 5 typed array) packet's payload into an [`Array`],
/// keeping its element type and Godot 2 shared flag.
pub(crate) fn decode_array(de: &mut Deserializer<'_>, h: &Header) -> Result<Array> {
    let head = de.container_head(h)?;
    let items = de.nest(|de| {
        let mut items = Vec::with_capacity(de.prealloc(head.count));
        for _ in 0..head.count {
            items.push(de.decode_variant()?);
        }
        Ok(items)
    })?;
    Ok(Array {
        element_type: head.first,
        items,
        shared: head.shared,
    })
}

/// Decodes a Dictionary packet's payload into a [`Dictionary`], keeping every entry in
/// order (duplicates included, so that re-encoding gives the same bytes).
pub(crate) fn decode_dictionary(de: &mut Deserializer<'_>, h: &Header) -> Result<Dictionary> {
    let head = de.container_head(h)?;
    let entries = de.nest(|de| {
        let mut entries = Vec::with_capacity(de.prealloc(head.count));
        for _ in 0..head.count {
            let key = de.decode_variant()?;
            let value = de.decode_variant()?;
            entries.push((key, value));
        }
        Ok(entries)
    })?;
    Ok(Dictionary {
        key_type: head.first,
        value_type: head.second,
        entries,
        shared: head.shared,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_without_a_handed_over_value_is_an_error() {
        // A JSON map that forges the token must not produce a value out of thin air.
        let err = serde_json::from_str::<Variant>(r#"{"$godot_bin::Variant": null}"#).unwrap_err();
        assert!(err.to_string().contains("token"), "{err}");
    }
}
