//! Presenting builtin packets: in their own shape when a builtin type asks for them by its
//! private name (or a `Vec` asks for a packed array's elements), as their one-entry map
//! when `deserialize_any` does (see [`crate::builtin`]).

use super::access::ArrayAccess;
use super::Deserializer;
use crate::builtin::leaves::{
    self, FlatLeaves, FlatLeavesDe, LeafStream, OneEntry, ReaderLeaves, Two,
};
use crate::builtin::{Builtin, Kind, Shape};
use crate::dialect::VariantType;
use crate::error::{Error, PathSegment, Result};
use crate::packet::container::ContainerHead;
use crate::packet::header::Header;
use crate::packet::math::{self, FixedWire};
use crate::packet::packed::{self, ElemKind, Elems};
use crate::packet::{container, godot2, nodepath, object, text, Nest};
use crate::types::leaves::{layout, ComponentKind, Fixed};
use crate::types::names::NodePath;
use crate::variant::{Array, ElementType, Variant};
use serde::de::{self, DeserializeSeed, IntoDeserializer, SeqAccess, Visitor};

/// How a builtin is presented.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    /// In its own shape, to its own type's `Deserialize`.
    Native,
    /// As its one-entry map, to `deserialize_any`.
    Map,
}

impl<'de> Deserializer<'de> {
    /// The kind of builtin a packet is, as far as its header tells.
    fn packet_kind(&self, h: &Header) -> Option<Kind> {
        match h.ty {
            VariantType::Object if object::is_id(&self.d.ctx, h) => Some(Kind::ObjectId),
            ty => Kind::of_type(ty),
        }
    }

    /// A builtin asked for by its private name: the packet must be that builtin, or a value
    /// GDScript converts to it on assignment.
    pub(super) fn requested<V: Visitor<'de>>(
        &mut self,
        kind: Kind,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.d.header()?;
        self.requested_after(h, kind, visitor)
    }

    /// A fixed builtin `T` asked for by its own type's `Deserialize` (whose visitor is `V`):
    /// a packet of that type is read whole by the packet layer and given over (see
    /// [`crate::builtin::give`]); anything else goes the way of [`Self::requested`].
    pub(super) fn fixed_whole<V: Visitor<'de>, T: FixedWire + Builtin + 'static>(
        &mut self,
        visitor: V,
    ) -> Result<V::Value> {
        let h = self.d.header()?;
        if h.ty == <T as Fixed>::TYPE {
            if let Some(giver) = crate::builtin::give::to::<V, crate::builtin::StructVisitor<T>>() {
                let value = T::read(&mut self.d.r, math::read_wide(&self.d.ctx, &h))?;
                return Ok(giver.give(value));
            }
        }
        self.requested_after(h, <T as Builtin>::KIND, visitor)
    }

    /// [`Self::requested`] once the header `h` is read.
    fn requested_after<V: Visitor<'de>>(
        &mut self,
        h: Header,
        kind: Kind,
        visitor: V,
    ) -> Result<V::Value> {
        if self.packet_kind(&h) == Some(kind) {
            return self.builtin(h, kind, visitor, Form::Native);
        }
        let is_packed = packed::elem_kind(kind.ty()).is_some();
        match (kind, h.ty) {
            (Kind::StringName, VariantType::String) => {
                let s = text::read(&mut self.d.r)?;
                visitor.visit_newtype_struct(de::value::BorrowedStrDeserializer::new(s))
            }
            (Kind::StringName, VariantType::NodePath) => {
                let s = self.node_path_text()?;
                visitor.visit_newtype_struct(s.into_deserializer())
            }
            (Kind::NodePath, VariantType::String | VariantType::StringName) => {
                let path = NodePath::from(text::read(&mut self.d.r)?);
                crate::variant::present_fields(&path, visitor, Kind::NodePath, false)
            }
            (_, VariantType::Array | VariantType::TypedArray) if is_packed => {
                // A plain Array into a packed array: element by element, each checked.
                let head = container::read_head(&mut self.d.r, &self.d.ctx, &h)?;
                visitor.visit_newtype_struct(ItemsDe {
                    de: self,
                    count: head.count,
                })
            }
            (_, ty) if is_packed && packed::elem_kind(ty).is_some() => {
                // Another packed array: its elements, each checked (never its bytes).
                self.packed(h, kind, visitor, Form::Native)
            }
            _ => Err(self.mismatch(kind.ty().name(), &h)),
        }
    }

    /// Presents the builtin packet of `kind` whose header `h` was just read.
    pub(super) fn builtin<V: Visitor<'de>>(
        &mut self,
        h: Header,
        kind: Kind,
        visitor: V,
        form: Form,
    ) -> Result<V::Value> {
        let native = form == Form::Native;
        let r = &mut self.d.r;
        match kind {
            _ if kind.shape() == Shape::Fixed => self.fixed(h, kind, visitor, form),
            Kind::StringName => {
                let s = de::value::BorrowedStrDeserializer::new(text::read(r)?);
                present(visitor, kind, s, native)
            }
            Kind::Rid | Kind::ObjectId => {
                let id = if kind == Kind::Rid {
                    object::read_rid(r, &self.d.ctx)?
                } else {
                    object::read_id(r, &self.d.ctx)?
                };
                present(visitor, kind, de::value::U64Deserializer::new(id), native)
            }
            Kind::Callable if native => visitor.visit_unit(),
            Kind::Callable => visitor.visit_map(OneEntry::new(kind.name(), ().into_deserializer())),
            Kind::NodePath => {
                let p = nodepath::read(r, &self.d.ctx, self.d.pads.as_mut())?;
                let seq = NodePathSeq {
                    names: Some(p.names),
                    subnames: Some(p.subnames),
                    absolute: Some(p.absolute),
                };
                if native {
                    visitor.visit_seq(seq)
                } else {
                    visitor.visit_map(OneEntry::new(kind.name(), SeqDe(seq)))
                }
            }
            Kind::Signal => {
                let (name, id) = object::read_signal(r)?;
                let seq = Two::new(
                    de::value::BorrowedStrDeserializer::new(name),
                    de::value::U64Deserializer::new(id),
                );
                if native {
                    visitor.visit_seq(seq)
                } else {
                    visitor.visit_map(OneEntry::new(kind.name(), SeqDe(seq)))
                }
            }
            Kind::Image => {
                let (mut image, data) = godot2::read_image(r)?;
                image.data = data.to_vec();
                crate::variant::present_fields(&image, visitor, kind, !native)
            }
            Kind::InputEvent => {
                let event = godot2::read_input_event(r)?;
                crate::variant::present_fields(&event, visitor, kind, !native)
            }
            Kind::Object => {
                let (class, count) = object::read_full_head(r, &self.d.ctx, &h)?;
                let seq = ObjectSeq {
                    de: self,
                    class: Some(class),
                    count: Some(count),
                };
                if native {
                    visitor.visit_seq(seq)
                } else {
                    visitor.visit_map(OneEntry::new(kind.name(), SeqDe(seq)))
                }
            }
            Kind::TypedArray | Kind::PackedTypedArray | Kind::TypedDictionary => {
                let head = container::read_head(&mut self.d.r, &self.d.ctx, &h)?;
                self.typed_container(h, head, visitor, form)
            }
            Kind::PackedByteArray => {
                let bytes = de::value::BorrowedBytesDeserializer::new(packed::read_bytes(r)?);
                if native {
                    visitor.visit_newtype_struct(bytes)
                } else {
                    de::Deserializer::deserialize_any(bytes, visitor)
                }
            }
            _ => self.packed(h, kind, visitor, form),
        }
    }

    /// A fixed builtin: its components, read as they are asked for.
    fn fixed<V: Visitor<'de>>(
        &mut self,
        h: Header,
        kind: Kind,
        visitor: V,
        form: Form,
    ) -> Result<V::Value> {
        let (leaf_kind, n) = layout(kind.ty()).expect("a fixed builtin");
        let wide = math::read_wide(&self.d.ctx, &h);
        let mut src = ReaderLeaves {
            r: &mut self.d.r,
            kind: leaf_kind,
            wide,
            left: n,
        };
        leaves::all(&mut src, |src| match form {
            Form::Native => de::Deserializer::deserialize_struct(
                LeafStream {
                    src,
                    element: false,
                },
                kind.name(),
                kind.fields(),
                visitor,
            ),
            Form::Map => visitor.visit_map(OneEntry::new(kind.name(), FlatLeavesDe { src })),
        })
    }

    /// A packed array (its kind `kind` as asked; the packet's own type in `h`).
    fn packed<V: Visitor<'de>>(
        &mut self,
        h: Header,
        kind: Kind,
        visitor: V,
        form: Form,
    ) -> Result<V::Value> {
        let native = form == Form::Native;
        let elem = packed::elem_kind(h.ty).expect("a packed array");
        let r = &mut self.d.r;
        match elem {
            ElemKind::Str => {
                let strings = packed::read_strings(r)?;
                let seq = de::value::SeqDeserializer::new(
                    strings
                        .into_iter()
                        .map(de::value::BorrowedStrDeserializer::new),
                );
                present(visitor, kind, seq, native)
            }
            ElemKind::Byte => {
                let bytes = packed::read_bytes(r)?;
                let seq = de::value::SeqDeserializer::new(bytes.iter().copied());
                present(visitor, kind, seq, native)
            }
            _ => {
                let elems = packed::read_elems(r, &self.d.ctx, &h, elem)?;
                let de = PackedDe {
                    elems,
                    bulk: kind.ty() == h.ty,
                };
                present(visitor, kind, de, native)
            }
        }
    }

    /// An Array or Dictionary with element types (or Godot 2's shared flag), as its struct:
    /// `[element_type, shared, items]` or `[key_type, value_type, shared, entries]`.
    pub(super) fn typed_container<V: Visitor<'de>>(
        &mut self,
        h: Header,
        head: ContainerHead,
        visitor: V,
        form: Form,
    ) -> Result<V::Value> {
        let kind = match h.ty {
            VariantType::Dictionary => Kind::TypedDictionary,
            VariantType::PackedTypedArray => Kind::PackedTypedArray,
            _ => Kind::TypedArray,
        };
        let mut parts = Vec::with_capacity(3);
        parts.push(crate::variant::to_plain_variant(&head.first)?);
        if kind == Kind::TypedDictionary {
            parts.push(crate::variant::to_plain_variant(&head.second)?);
        }
        parts.push(Variant::Bool(head.shared));
        // Godot 4 checks each element (each key) against the container's type.
        let check = self
            .d
            .ctx
            .spec
            .checks_typed_elements
            .then(|| head.first.clone());
        let seq = ContainerSeq {
            de: self,
            parts: parts.into_iter(),
            count: Some(head.count),
            entries: kind == Kind::TypedDictionary,
            check,
        };
        match form {
            Form::Native => visitor.visit_seq(seq),
            Form::Map => visitor.visit_map(OneEntry::new(kind.name(), SeqDe(seq))),
        }
    }

    /// What `deserialize_seq` and `deserialize_tuple` are given: an Array's elements, a
    /// packed array's, a math type's components; anything else as it is.
    pub(super) fn sequence<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        match h.ty {
            VariantType::Array | VariantType::TypedArray | VariantType::PackedTypedArray => {
                let head = container::read_head(&mut self.d.r, &self.d.ctx, &h)?;
                ArrayAccess::visit(self, head.count, visitor)
            }
            ty if packed::elem_kind(ty).is_some() => {
                let kind = Kind::of_type(ty).expect("a packed array");
                let r = &mut self.d.r;
                match packed::elem_kind(ty) {
                    Some(ElemKind::Byte) => visitor.visit_seq(de::value::SeqDeserializer::new(
                        packed::read_bytes(r)?.iter().copied(),
                    )),
                    _ => self.packed(h, kind, SeqOnly(visitor), Form::Native),
                }
            }
            ty if layout(ty).is_some() => {
                let (leaf_kind, n) = layout(ty).expect("a fixed builtin");
                let wide = math::read_wide(&self.d.ctx, &h);
                let mut src = ReaderLeaves {
                    r: &mut self.d.r,
                    kind: leaf_kind,
                    wide,
                    left: n,
                };
                leaves::all(&mut src, |src| visitor.visit_seq(FlatLeaves { src }))
            }
            _ => self.any(h, visitor),
        }
    }

    /// The text of the NodePath payload at the reader (its header read).
    pub(super) fn node_path_text(&mut self) -> Result<String> {
        let p = nodepath::read(&mut self.d.r, &self.d.ctx, None)?;
        Ok(NodePath {
            names: p.names.iter().map(|s| s.to_string()).collect(),
            subnames: p.subnames.iter().map(|s| s.to_string()).collect(),
            absolute: p.absolute,
        }
        .to_string())
    }
}

/// Hands `content` to `visitor`: as a newtype's content in the native form, as the
/// one-entry map of `kind` otherwise.
fn present<'de, V: Visitor<'de>, D: de::Deserializer<'de, Error = Error>>(
    visitor: V,
    kind: Kind,
    content: D,
    native: bool,
) -> Result<V::Value> {
    if native {
        visitor.visit_newtype_struct(content)
    } else {
        visitor.visit_map(OneEntry::new(kind.name(), content))
    }
}

/// A visitor that takes a packed array's newtype and visits the sequence inside (what a
/// `Vec` asking for a packed array gets).
struct SeqOnly<V>(V);

impl<'de, V: Visitor<'de>> Visitor<'de> for SeqOnly<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.expecting(f)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_seq(self.0)
    }
}

/// A sequence presented as a deserializer (the content of a one-entry map).
struct SeqDe<A>(A);

impl<'de, A: SeqAccess<'de, Error = Error>> de::Deserializer<'de> for SeqDe<A> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(self.0)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

/// A NodePath as `[names, subnames, absolute]`.
struct NodePathSeq<'de> {
    names: Option<Vec<&'de str>>,
    subnames: Option<Vec<&'de str>>,
    absolute: Option<bool>,
}

impl<'de> SeqAccess<'de> for NodePathSeq<'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let strs = |v: Vec<&'de str>| {
            de::value::SeqDeserializer::new(
                v.into_iter().map(de::value::BorrowedStrDeserializer::new),
            )
        };
        if let Some(names) = self.names.take() {
            return seed.deserialize(strs(names)).map(Some);
        }
        if let Some(subnames) = self.subnames.take() {
            return seed.deserialize(strs(subnames)).map(Some);
        }
        match self.absolute.take() {
            Some(b) => seed.deserialize(b.into_deserializer()).map(Some),
            None => Ok(None),
        }
    }
}

/// A full object as `[class_name, [(name, value)...]]`.
struct ObjectSeq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    class: Option<&'de str>,
    count: Option<usize>,
}

impl<'de> SeqAccess<'de> for ObjectSeq<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(class) = self.class.take() {
            return seed
                .deserialize(de::value::BorrowedStrDeserializer::new(class))
                .map(Some);
        }
        match self.count.take() {
            Some(count) => self
                .de
                .nest(|de| {
                    seed.deserialize(SeqDe(Properties {
                        de,
                        index: 0,
                        count,
                    }))
                })
                .map(Some),
            None => Ok(None),
        }
    }
}

/// An object's properties: `count` (name, value) pairs.
struct Properties<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    index: usize,
    count: usize,
}

impl<'de> SeqAccess<'de> for Properties<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.count {
            return Ok(None);
        }
        self.index += 1;
        let name = object::read_property_name(&mut self.de.d.r)?;
        let property = Property {
            de: self.de,
            name: Some(name),
            value: true,
        };
        seed.deserialize(SeqDe(property))
            .map(Some)
            .map_err(|e| e.in_segment(PathSegment::Key(name.to_owned())))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.de.d.prealloc(self.count - self.index))
    }
}

/// A property: its name (already read), then its value, read from the packet.
struct Property<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    name: Option<&'de str>,
    value: bool,
}

impl<'de> SeqAccess<'de> for Property<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(name) = self.name.take() {
            return seed
                .deserialize(de::value::BorrowedStrDeserializer::new(name))
                .map(Some);
        }
        if std::mem::take(&mut self.value) {
            return seed.deserialize(&mut *self.de).map(Some);
        }
        Ok(None)
    }
}

/// A typed container's parts, then its items or entries.
struct ContainerSeq<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    parts: std::vec::IntoIter<Variant>,
    count: Option<usize>,
    entries: bool,
    /// Godot 4: the element (key) type whose check ([`ElementType::admit`]) the items (the
    /// entries' keys) go through, as in the engine; they are then decoded whole.
    check: Option<ElementType>,
}

impl<'de> SeqAccess<'de> for ContainerSeq<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(part) = self.parts.next() {
            return seed.deserialize(part).map(Some);
        }
        let Some(count) = self.count.take() else {
            return Ok(None);
        };
        if let Some(check) = self.check.take() {
            let entries = self.entries;
            let items = self
                .de
                .nest(|de| checked_items(de, count, entries, &check))?;
            return seed.deserialize(items).map(Some);
        }
        if self.entries {
            let de = &mut *self.de;
            return de
                .nest(|de| {
                    seed.deserialize(SeqDe(Entries {
                        de,
                        index: 0,
                        count,
                    }))
                })
                .map(Some);
        }
        seed.deserialize(ItemsDe { de: self.de, count }).map(Some)
    }
}

/// A Godot 4 typed container's `count` items (or `[key, value]` entries) decoded whole,
/// keeping those its type admits (or whose key its key type admits), as an Array.
fn checked_items(
    de: &mut Deserializer<'_>,
    count: usize,
    entries: bool,
    check: &ElementType,
) -> Result<Variant> {
    let mut out = Vec::with_capacity(de.d.prealloc(count));
    for index in 0..count {
        let at = |e: Error| e.in_segment(PathSegment::Index(index));
        let item = crate::variant::codec::decode(&mut de.d).map_err(at)?;
        if entries {
            let value = crate::variant::codec::decode(&mut de.d).map_err(at)?;
            if let Some(key) = check.admit(item) {
                out.push(Variant::Array(Array::from(vec![key, value])));
            }
        } else {
            out.extend(check.admit(item));
        }
    }
    Ok(Variant::Array(Array::from(out)))
}

/// An Array's items (its head read) as a deserializer.
struct ItemsDe<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    count: usize,
}

impl<'de> de::Deserializer<'de> for ItemsDe<'_, 'de> {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        ArrayAccess::visit(self.de, self.count, visitor)
    }
    /// A packed array's bulk request: the items come one by one.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// A typed Dictionary's entries as `[key, value]` pairs.
struct Entries<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    index: usize,
    count: usize,
}

impl<'de> SeqAccess<'de> for Entries<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.count {
            return Ok(None);
        }
        let index = self.index;
        self.index += 1;
        seed.deserialize(SeqDe(KeyValue {
            de: self.de,
            left: 2,
        }))
        .map(Some)
        .map_err(|e| e.in_segment(PathSegment::Index(index)))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.de.d.prealloc(self.count - self.index))
    }
}

/// A key then a value, both read from the packet.
struct KeyValue<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    left: u8,
}

impl<'de> SeqAccess<'de> for KeyValue<'_, 'de> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }
}

/// A packed array of numbers or vectors. Asked for its bulk newtype by the same packed type
/// (`bulk`), in a single-precision packet, it hands over its bytes; else its elements.
struct PackedDe<'de> {
    elems: Elems<'de>,
    bulk: bool,
}

impl<'de> de::Deserializer<'de> for PackedDe<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(PackedElems {
            elems: self.elems,
            at: 0,
        })
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == crate::builtin::packed::NAME && self.bulk && !self.elems.wide {
            return visitor.visit_borrowed_bytes(self.elems.bytes);
        }
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The elements of a packed array, one by one: numbers as numbers, vectors and colors
/// as their components.
struct PackedElems<'de> {
    elems: Elems<'de>,
    at: usize,
}

impl<'de> SeqAccess<'de> for PackedElems<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let size = self.elems.kind.size(self.elems.wide);
        let index = self.at / size.max(1);
        if self.at >= self.elems.bytes.len() {
            return Ok(None);
        }
        let mut r = crate::packet::reader::Reader::new(
            &self.elems.bytes[self.at..self.at + size],
            usize::MAX,
        );
        self.at += size;
        let result = match self.elems.kind {
            ElemKind::I64 => seed.deserialize(de::value::I64Deserializer::new(r.i64()?)),
            ElemKind::F64 => seed.deserialize(de::value::F64Deserializer::new(r.f64()?)),
            ElemKind::Leaves(kind, 1) => {
                let leaf = math::read_leaf(&mut r, kind, self.elems.wide, "element")?;
                seed.deserialize(leaves::LeafDe(leaf))
            }
            ElemKind::Leaves(kind, n) => {
                let mut src = ReaderLeaves {
                    r: &mut r,
                    kind,
                    wide: self.elems.wide && kind == ComponentKind::Real,
                    left: n,
                };
                leaves::all(&mut src, |src| {
                    seed.deserialize(LeafStream { src, element: true })
                })
            }
            ElemKind::Byte | ElemKind::Str => unreachable!("presented by their own paths"),
        };
        result
            .map(Some)
            .map_err(|e| e.in_segment(PathSegment::Index(index)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.elems.count - self.at / self.elems.kind.size(self.elems.wide).max(1))
    }
}
