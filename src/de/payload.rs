//! Presenting the inside of builtin packets to serde: numbers and strings by the payload's
//! [`Shape`], packed-array elements, byte arrays, NodePaths and full objects. The nesting
//! of sequences mirrors the Rust types' serde shape, so the derived `Deserialize` of a
//! `Rect2` (two `Vector2`s) reads a Rect2 payload directly.

use super::Deserializer;
use crate::builtin::{Leaf, Shape};
use crate::error::{Error, ErrorKind, Result};
use crate::types::godot2::Image;
use crate::wire::{pad_len, NODEPATH_NEW_FORMAT};
use serde::de::{self, DeserializeSeed, IntoDeserializer, SeqAccess, Visitor};

/// A payload of a given shape, read from the deserializer's position.
pub(crate) struct PayloadDe<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    shape: &'static Shape,
    /// Bytes per [`Leaf::Real`]: 4, or 8 in a flagged Godot 4 double-precision packet.
    real: usize,
}

impl<'a, 'de> PayloadDe<'a, 'de> {
    pub fn new(de: &'a mut Deserializer<'de>, shape: &'static Shape, real: usize) -> Self {
        PayloadDe { de, shape, real }
    }
}

impl<'de> de::Deserializer<'de> for PayloadDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let r = &mut self.de.reader;
        match self.shape {
            Shape::Leaf(Leaf::Real) if self.real == 8 => visitor.visit_f64(r.f64()?),
            Shape::Leaf(Leaf::Real | Leaf::F32) => visitor.visit_f32(r.f32()?),
            Shape::Leaf(Leaf::F64) => visitor.visit_f64(r.f64()?),
            Shape::Leaf(Leaf::I32) => visitor.visit_i32(r.i32()?),
            Shape::Leaf(Leaf::U32) => visitor.visit_u32(r.u32()?),
            Shape::Leaf(Leaf::ImageFormat) => {
                let at = r.pos();
                match r.u32()? {
                    format if format < Image::FORMAT_MAX => visitor.visit_u32(format),
                    _ => {
                        Err(r.error_at(ErrorKind::InvalidData("Image format past FORMAT_MAX"), at))
                    }
                }
            }
            Shape::Leaf(Leaf::Bytes) => visitor.visit_borrowed_bytes(BytesDe::read(self.de)?.bytes),
            Shape::Leaf(Leaf::I64) => visitor.visit_i64(r.i64()?),
            Shape::Leaf(Leaf::U64) => visitor.visit_u64(r.u64()?),
            Shape::Leaf(Leaf::Str) => visitor.visit_borrowed_str(r.string()?),
            Shape::Leaf(Leaf::PackedStr) => visitor.visit_borrowed_str(r.packed_string()?),
            Shape::Leaf(Leaf::Absent) => visitor.visit_u64(0),
            Shape::Group(parts) => visitor.visit_seq(GroupAccess {
                de: self.de,
                parts: parts.iter(),
                real: self.real,
            }),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// The parts of a [`Shape::Group`], in order.
struct GroupAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    parts: std::slice::Iter<'static, Shape>,
    real: usize,
}

impl<'de> SeqAccess<'de> for GroupAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.parts.next() {
            Some(shape) => seed
                .deserialize(PayloadDe::new(self.de, shape, self.real))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.parts.len())
    }
}

/// A packed array's elements, after its count was read and checked.
pub(crate) struct PackedDe<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    elem: &'static Shape,
    real: usize,
    left: usize,
}

impl<'a, 'de> PackedDe<'a, 'de> {
    /// Reads the count. The engine refuses a negative count or one whose elements would
    /// run past the input, except for strings, whose negative count means "empty"
    /// (FORMAT.md §2.10).
    pub fn read(de: &'a mut Deserializer<'de>, elem: &'static Shape, real: usize) -> Result<Self> {
        let left = if matches!(elem, Shape::Leaf(Leaf::PackedStr)) {
            let at = de.reader.pos();
            let count = de.reader.i32()?;
            let count = usize::try_from(count).unwrap_or(0);
            if count.saturating_mul(4) > de.reader.rest().len() {
                return Err(de
                    .reader
                    .error_at(ErrorKind::LengthOutOfRange(count as i64), at));
            }
            count
        } else {
            de.reader.packed_count(elem.min_size(real))?
        };
        Ok(PackedDe {
            de,
            elem,
            real,
            left,
        })
    }
}

impl<'de> de::Deserializer<'de> for PackedDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_seq(&mut self)?;
        if self.left != 0 {
            return Err(de::Error::invalid_length(
                self.left,
                &"every element of the packed array",
            ));
        }
        Ok(value)
    }

    /// The bulk path of [`crate::types::packed::raw`]: asked for its private newtype, a
    /// packed array whose elements all have their single-precision width hands over its
    /// whole payload as borrowed bytes (the count was checked against the input by
    /// [`PackedDe::read`]). Strings, and reals in a double-precision packet, come element
    /// by element.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        let fixed = !matches!(self.elem, Shape::Leaf(Leaf::PackedStr)) && self.real == 4;
        if name == crate::types::packed::raw::NAME && fixed {
            let len = self.left * self.elem.min_size(self.real);
            let bytes = self.de.reader.bytes(len)?;
            return visitor.visit_borrowed_bytes(bytes);
        }
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de> SeqAccess<'de> for PackedDe<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(PayloadDe::new(self.de, self.elem, self.real))
            .map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A PackedByteArray's bytes, borrowed from the input.
pub(crate) struct BytesDe<'de> {
    bytes: &'de [u8],
}

impl<'de> BytesDe<'de> {
    /// Reads count and bytes. The engine needs only `count` bytes, not the padding after
    /// them, so a missing pad at the end of the input is accepted.
    pub fn read(de: &mut Deserializer<'de>) -> Result<Self> {
        let count = de.reader.packed_count(1)?;
        let bytes = de.reader.bytes(count)?;
        de.reader.skip_optional(pad_len(count));
        Ok(BytesDe { bytes })
    }
}

impl<'de> de::Deserializer<'de> for BytesDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.bytes)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// A NodePath payload, presented as `[names, subnames, absolute]` (FORMAT.md §2.6): the
/// new format only; flag bit 1 (Godot 2's property) becomes one more subname.
pub(crate) fn visit_node_path<'de, V: Visitor<'de>>(
    de: &mut Deserializer<'de>,
    visitor: V,
) -> Result<V::Value> {
    let r = &mut de.reader;
    let at = r.pos();
    let first = r.u32()?;
    if first & NODEPATH_NEW_FORMAT == 0 {
        return Err(r.error_at(ErrorKind::InvalidData("old-format NodePath"), at));
    }
    // The engine adds the counts as u32 (wrapping) and takes the first `names` strings as
    // names; flag bit 1 (Godot 2's property) is one more subname.
    let names = first & !NODEPATH_NEW_FORMAT;
    let subnames = r.u32()?;
    let flags = r.u32()?;
    let total = names.wrapping_add(subnames).wrapping_add(flags >> 1 & 1) as usize;
    if total.saturating_mul(4) > r.rest().len() {
        return Err(r.error_at(ErrorKind::LengthOutOfRange(total as i64), at));
    }
    let mut strings = Vec::with_capacity(total);
    for _ in 0..total {
        let (text, pad) = r.string_and_pad()?;
        strings.push(text);
        if let Some(pads) = &mut de.nodepath_pads {
            pads.push(pad);
        }
    }
    let (names, subnames) = strings.split_at((names as usize).min(total));
    let parts = (
        de::value::SeqDeserializer::<_, Error>::new(names.iter().copied()),
        de::value::SeqDeserializer::<_, Error>::new(subnames.iter().copied()),
        // NodePath("/") (no names, no subnames, absolute): Godot 4 keeps the flag, Godot 3
        // and Pandemonium make the path relative (see `keeps_root_nodepath`).
        flags & 1 != 0 && (total > 0 || de.spec.keeps_root_nodepath),
    );
    visitor.visit_seq(NodePathAccess { parts, step: 0 })
}

type StrSeq<'s, 'de> =
    de::value::SeqDeserializer<std::iter::Copied<std::slice::Iter<'s, &'de str>>, Error>;

struct NodePathAccess<'s, 'de> {
    parts: (StrSeq<'s, 'de>, StrSeq<'s, 'de>, bool),
    step: u8,
}

impl<'de> SeqAccess<'de> for NodePathAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.step += 1;
        let empty = || de::value::SeqDeserializer::new([].iter().copied());
        match self.step {
            1 => seed
                .deserialize(std::mem::replace(&mut self.parts.0, empty()))
                .map(Some),
            2 => seed
                .deserialize(std::mem::replace(&mut self.parts.1, empty()))
                .map(Some),
            3 => seed.deserialize(self.parts.2.into_deserializer()).map(Some),
            _ => Ok(None),
        }
    }
}

/// A full object, presented as `[class_name, [(name, value)...]]`; the empty class name is
/// the null object and carries no property count (FORMAT.md §2.7).
pub(crate) fn visit_object<'de, V: Visitor<'de>>(
    de: &mut Deserializer<'de>,
    visitor: V,
) -> Result<V::Value> {
    let class = de.reader.string()?;
    let count = if class.is_empty() {
        0
    } else {
        let at = de.reader.pos();
        // The engine reads the count as i32; zero or less means no properties.
        let count = usize::try_from(de.reader.i32()?).unwrap_or(0);
        if count.saturating_mul(8) > de.reader.rest().len() {
            return Err(de
                .reader
                .error_at(ErrorKind::LengthOutOfRange(count as i64), at));
        }
        count
    };
    de.nest(|de| {
        visitor.visit_seq(ObjectAccess {
            de,
            class: Some(class),
            properties: Some(count),
        })
    })
}

struct ObjectAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    class: Option<&'de str>,
    properties: Option<usize>,
}

impl<'de> SeqAccess<'de> for ObjectAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(class) = self.class.take() {
            return seed
                .deserialize(de::value::BorrowedStrDeserializer::new(class))
                .map(Some);
        }
        match self.properties.take() {
            Some(left) => seed
                .deserialize(PropertiesDe { de: self.de, left })
                .map(Some),
            None => Ok(None),
        }
    }
}

/// An object's properties: `left` (name, value) pairs.
struct PropertiesDe<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: usize,
}

impl<'de> de::Deserializer<'de> for PropertiesDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value> {
        let value = visitor.visit_seq(&mut self)?;
        if self.left != 0 {
            return Err(de::Error::invalid_length(self.left, &"every property"));
        }
        Ok(value)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

impl<'de> SeqAccess<'de> for PropertiesDe<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(PropertyDe { de: self.de }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.de.prealloc(self.left))
    }
}

/// One property: a bare name, then a full value.
struct PropertyDe<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::Deserializer<'de> for PropertyDe<'_, 'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(PropertyAccess {
            de: self.de,
            step: 0,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

struct PropertyAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    step: u8,
}

impl<'de> SeqAccess<'de> for PropertyAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        self.step += 1;
        match self.step {
            1 => {
                let name = self.de.reader.string()?;
                seed.deserialize(de::value::BorrowedStrDeserializer::new(name))
                    .map(Some)
            }
            2 => seed.deserialize(&mut *self.de).map(Some),
            _ => Ok(None),
        }
    }
}

/// A Godot 2 InputEvent (FORMAT.md §4.6), presented as `[event_type, device, [extra...]]`.
/// The engine ignores the payload length word except to tell the two JOYSTICK_MOTION
/// forms apart (with and without the axis value).
pub(crate) fn visit_input_event<'de, V: Visitor<'de>>(
    de: &mut Deserializer<'de>,
    visitor: V,
) -> Result<V::Value> {
    let r = &mut de.reader;
    let event_type = r.u32()?;
    let device = r.u32()?;
    let length = r.u32()?;
    let words = crate::types::godot2::InputEvent::extra_words(event_type, length == 20);
    let mut extra = [0u32; 2];
    for word in &mut extra[..words] {
        *word = r.u32()?;
    }
    visitor.visit_seq(de::value::SeqDeserializer::new(
        [
            InputEventPart::Word(event_type),
            InputEventPart::Word(device),
            InputEventPart::Words(extra[..words].to_vec()),
        ]
        .into_iter(),
    ))
}

/// One part of an InputEvent as presented to serde.
enum InputEventPart {
    Word(u32),
    Words(Vec<u32>),
}

impl<'de> IntoDeserializer<'de, Error> for InputEventPart {
    type Deserializer = InputEventPartDe;
    fn into_deserializer(self) -> InputEventPartDe {
        InputEventPartDe(self)
    }
}

struct InputEventPartDe(InputEventPart);

impl<'de> de::Deserializer<'de> for InputEventPartDe {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            InputEventPart::Word(w) => visitor.visit_u32(w),
            InputEventPart::Words(ws) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(ws.into_iter()))
            }
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}
