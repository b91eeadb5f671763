//! How the builtin types cross serde.
//!
//! Each builtin type ([`Vector3`](crate::Vector3), [`NodePath`](crate::NodePath), the packed
//! arrays...) serializes under a private serde name, `"$godot_bin::Vector3"` and so on, in
//! the shape its Rust definition gives it: a struct of its fields, a newtype (StringName,
//! RID, object ids, the packed arrays), a unit struct (Callable). godot_bin's serializer
//! recognises the name and writes that builtin's packet; any other format sees an ordinary
//! struct, newtype or sequence.
//!
//! Decoding, a builtin's `Deserialize` asks for its private name, and godot_bin's
//! deserializer presents the packet in the same shape (a fixed builtin, whose visitor it
//! recognises by type, it reads whole and gives over: see [`crate::de::give`]). Where serde itself must hold a value
//! before knowing its type (`#[serde(flatten)]`, untagged and internally tagged enums), it
//! asks for "anything" (`deserialize_any`) and keeps what it is given in its own data
//! model, which has no builtin types. There, godot_bin presents each builtin packet as a
//! one-entry map whose key is the type's private name: `{"$godot_bin::Vector3": [1.0,
//! 2.0, 3.0]}` (the components of a math type in wire order; another builtin in its own
//! shape). Every builtin's `Deserialize`, and [`Variant`](crate::Variant)'s, recognise that
//! map, so a builtin keeps its type through serde's buffering, as serde_json's arbitrary-
//! precision numbers keep theirs. (So a map whose only key is one of these names is taken
//! for the builtin: the names are reserved.)
//!
//! The other way, serde's internally tagged enums add their tag as one more field of a
//! struct-shaped value. A builtin that receives a field of another name is written as a
//! Dictionary of those fields plus the builtin under its private name:
//! `{"type": "Move", "$godot_bin::Vector3": Vector3(1, 2, 3)}`, which decodes back through
//! the same enum.

use crate::dialect::VariantType;
use crate::types::leaves::{Fixed, Leaf, LeafKind, MAX_LEAVES};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// Every private name starts so.
pub(crate) const PREFIX: &str = "$godot_bin::";

/// The shape a builtin has in serde's data model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A struct whose components are all numbers of one kind (the math types, Color).
    Fixed,
    /// A struct of named fields.
    Struct,
    /// A newtype around a string, a u64 or a sequence.
    Newtype,
}

macro_rules! kinds {
    ($($kind:ident => $ty:ident, $shape:ident, [$($field:literal),*];)*) => {
        /// A builtin type as serde sees it (one per Rust builtin type).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Kind {
            $($kind,)*
        }

        impl Kind {
            /// Every kind.
            #[cfg(test)]
            pub const ALL: &'static [Kind] = &[$(Kind::$kind,)*];

            /// The private serde name.
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$kind => concat!("$godot_bin::", stringify!($kind)),)*
                }
            }

            /// The kind with this private name; `None` for every other name.
            #[inline]
            pub fn by_name(name: &str) -> Option<Kind> {
                // Most names asked are a user's own structs: one compare rules them out.
                if !name.starts_with(PREFIX) {
                    return None;
                }
                match &name[PREFIX.len()..] {
                    $(stringify!($kind) => Some(Kind::$kind),)*
                    _ => None,
                }
            }

            /// The packet type values of this kind are written as.
            pub fn ty(self) -> VariantType {
                match self {
                    $(Kind::$kind => VariantType::$ty,)*
                }
            }

            /// Its shape in serde's data model.
            pub fn shape(self) -> Shape {
                match self {
                    $(Kind::$kind => Shape::$shape,)*
                }
            }

            /// A struct-shaped kind's field names, in order.
            pub fn fields(self) -> &'static [&'static str] {
                match self {
                    $(Kind::$kind => &[$($field),*],)*
                }
            }
        }
    };
}

kinds! {
    Vector2 => Vector2, Fixed, ["x", "y"];
    Vector2i => Vector2i, Fixed, ["x", "y"];
    Rect2 => Rect2, Fixed, ["position", "size"];
    Rect2i => Rect2i, Fixed, ["position", "size"];
    Vector3 => Vector3, Fixed, ["x", "y", "z"];
    Vector3i => Vector3i, Fixed, ["x", "y", "z"];
    Transform2D => Transform2D, Fixed, ["x", "y", "origin"];
    Vector4 => Vector4, Fixed, ["x", "y", "z", "w"];
    Vector4i => Vector4i, Fixed, ["x", "y", "z", "w"];
    Plane => Plane, Fixed, ["normal", "d"];
    Quaternion => Quaternion, Fixed, ["x", "y", "z", "w"];
    Aabb => Aabb, Fixed, ["position", "size"];
    Basis => Basis, Fixed, ["rows"];
    Transform3D => Transform3D, Fixed, ["basis", "origin"];
    Projection => Projection, Fixed, ["columns"];
    Color => Color, Fixed, ["r", "g", "b", "a"];
    StringName => StringName, Newtype, [];
    NodePath => NodePath, Struct, ["names", "subnames", "absolute"];
    Rid => Rid, Newtype, [];
    ObjectId => Object, Newtype, [];
    Object => Object, Struct, ["class_name", "properties"];
    Callable => Callable, Struct, [];
    Signal => Signal, Struct, ["name", "object"];
    Image => Image, Struct, ["format", "mipmaps", "width", "height", "data"];
    InputEvent => InputEvent, Struct, ["event_type", "device", "extra"];
    TypedArray => Array, Struct, ["element_type", "shared", "items"];
    PackedTypedArray => PackedTypedArray, Struct, ["element_type", "shared", "items"];
    TypedDictionary => Dictionary, Struct, ["key_type", "value_type", "shared", "entries"];
    PackedByteArray => PackedByteArray, Newtype, [];
    PackedInt32Array => PackedInt32Array, Newtype, [];
    PackedInt64Array => PackedInt64Array, Newtype, [];
    PackedFloat32Array => PackedFloat32Array, Newtype, [];
    PackedFloat64Array => PackedFloat64Array, Newtype, [];
    PackedStringArray => PackedStringArray, Newtype, [];
    PackedVector2Array => PackedVector2Array, Newtype, [];
    PackedVector3Array => PackedVector3Array, Newtype, [];
    PackedColorArray => PackedColorArray, Newtype, [];
    PackedVector4Array => PackedVector4Array, Newtype, [];
    PackedVector2iArray => PackedVector2iArray, Newtype, [];
    PackedVector3iArray => PackedVector3iArray, Newtype, [];
    PackedVector4iArray => PackedVector4iArray, Newtype, [];
}

impl Kind {
    /// The kind a packet of type `ty` decodes as, for a packet whose type has one (not
    /// the plain types, not containers without types, not objects sent as ids: those
    /// the caller knows).
    pub fn of_type(ty: VariantType) -> Option<Kind> {
        use VariantType as T;
        macro_rules! same {
            ($($t:ident),*) => {
                match ty {
                    $(T::$t => Some(Kind::$t),)*
                    T::Array | T::TypedArray => Some(Kind::TypedArray),
                    T::Dictionary => Some(Kind::TypedDictionary),
                    T::Object => Some(Kind::Object),
                    _ => None,
                }
            };
        }
        same!(
            Vector2,
            Vector2i,
            Rect2,
            Rect2i,
            Vector3,
            Vector3i,
            Transform2D,
            Vector4,
            Vector4i,
            Plane,
            Quaternion,
            Aabb,
            Basis,
            Transform3D,
            Projection,
            Color,
            StringName,
            NodePath,
            Rid,
            Callable,
            Signal,
            Image,
            InputEvent,
            PackedTypedArray,
            PackedByteArray,
            PackedInt32Array,
            PackedInt64Array,
            PackedFloat32Array,
            PackedFloat64Array,
            PackedStringArray,
            PackedVector2Array,
            PackedVector3Array,
            PackedColorArray,
            PackedVector4Array,
            PackedVector2iArray,
            PackedVector3iArray,
            PackedVector4iArray
        )
    }
}

/// A builtin type's link to the machinery here.
pub(crate) trait Builtin: Sized {
    const KIND: Kind;
    /// Reads the value in its own serde shape (the derived visitor: a sequence, or a map
    /// of its fields).
    fn from_shape<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
    /// Reads the value from the content of its one-entry map: its fields in order.
    fn from_map_value<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // As a sequence, so that the derived code's request by private name does not reach
        // a deserializer that would take it for the builtin itself.
        d.deserialize_seq(StructVisitor::<Self>(PhantomData))
    }
}

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
            let mut leaves = [Leaf::I32(0); MAX_LEAVES];
            for (i, slot) in leaves.iter_mut().take(T::N).enumerate() {
                *slot = match T::KIND {
                    LeafKind::I32 => Leaf::I32(
                        seq.next_element()?
                            .ok_or_else(|| de::Error::invalid_length(i, &self))?,
                    ),
                    _ => Leaf::F32(
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

/// `e`, from serializing a newtype-shaped builtin of `kind`, with the reason named when it
/// is serde's refusal to put such a value in an internally tagged enum (which has nowhere
/// to put the tag of a value that is not a map or a struct).
#[cold]
pub(crate) fn name_in_error<E: serde::ser::Error>(kind: Kind, e: E) -> E {
    let msg = e.to_string();
    if msg.starts_with("cannot serialize tagged newtype variant") {
        return E::custom(format_args!(
            "{msg}: a {} is not a map or a struct in serde's data model, so an internally \
             tagged enum has no place for its tag; use an adjacently tagged enum \
             (`#[serde(tag = \"t\", content = \"c\")]`) or a struct variant",
            kind.ty()
        ));
    }
    e
}

/// `Serialize` for a newtype-shaped builtin: the newtype of its private name around
/// `content`, with [`name_in_error`] on the way out.
macro_rules! newtype_serialize {
    ($t:ident, |$this:ident| $content:expr) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let kind = crate::builtin::Kind::$t;
                let $this = self;
                s.serialize_newtype_struct(kind.name(), $content)
                    .map_err(|e| crate::builtin::name_in_error(kind, e))
            }
        }
    };
}
pub(crate) use newtype_serialize;

/// `Deserialize` and `Serialize` for struct-shaped builtins whose derives were made with
/// `#[serde(remote = "Self")]` (so that the derived code is theirs to call).
macro_rules! struct_builtin {
    ($($t:ident),*) => {$(
        impl crate::builtin::Builtin for $t {
            const KIND: crate::builtin::Kind = crate::builtin::Kind::$t;
            fn from_shape<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $t::deserialize(d)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = crate::builtin::Kind::$t;
                d.deserialize_struct(
                    kind.name(),
                    kind.fields(),
                    crate::builtin::StructVisitor::<$t>(std::marker::PhantomData),
                )
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $t::serialize(self, s)
            }
        }
    )*};
}
pub(crate) use struct_builtin;

/// [`struct_builtin`] for the fixed builtins: their map content is their components.
macro_rules! fixed_builtin {
    ($($t:ident),*) => {$(
        impl crate::builtin::Builtin for $t {
            const KIND: crate::builtin::Kind = crate::builtin::Kind::$t;
            fn from_shape<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $t::deserialize(d)
            }
            fn from_map_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                crate::builtin::fixed_from_leaves(d)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = crate::builtin::Kind::$t;
                d.deserialize_struct(
                    kind.name(),
                    kind.fields(),
                    crate::builtin::StructVisitor::<$t>(std::marker::PhantomData),
                )
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $t::serialize(self, s)
            }
        }
    )*};
}
pub(crate) use fixed_builtin;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_look_up_their_kind() {
        for &k in Kind::ALL {
            assert_eq!(Kind::by_name(k.name()), Some(k));
            assert!(k.name().starts_with(PREFIX));
        }
        assert_eq!(Kind::by_name("$godot_bin::Vector5"), None);
        assert_eq!(Kind::by_name("Vector3"), None);
    }

    #[test]
    fn fixed_kinds_list_their_types_fields() {
        // The field names the table gives are those each type serializes.
        use crate::types::leaves::for_each_fixed;
        macro_rules! check {
            ($($t:ident),*) => {$(
                let json = serde_json::to_value(crate::types::math::$t::default()).unwrap();
                let names: Vec<&str> = json.as_object().unwrap().keys().map(|k| k.as_str()).collect();
                let mut expected = Kind::$t.fields().to_vec();
                expected.sort();
                let mut names = names;
                names.sort();
                assert_eq!(names, expected, stringify!($t));
                assert_eq!(Kind::$t.shape(), Shape::Fixed);
            )*};
        }
        for_each_fixed!(check);
    }
}
