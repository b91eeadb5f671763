//! How the builtin types cross serde.
//!
//! Each builtin type ([`Vector3`](crate::types::math::Vector3), [`NodePath`](crate::types::names::NodePath), the packed
//! arrays...) serializes under a private serde name, `"$godot_bin::Vector3"` and so on, in
//! the shape its Rust definition gives it: a struct of its fields, a newtype (StringName,
//! RID, object ids, the packed arrays), a unit struct (Callable). godot_bin's serializer
//! recognises the name and writes that builtin's packet; any other format sees an ordinary
//! struct, newtype or sequence.
//!
//! Decoding, a builtin's `Deserialize` asks for its private name, and godot_bin's
//! deserializer presents the packet in the same shape (a fixed builtin, whose visitor it
//! recognises by type, it reads whole and gives over: see [`give`]). Where serde itself must hold a value
//! before knowing its type (`#[serde(flatten)]`, untagged and internally tagged enums), it
//! asks for "anything" (`deserialize_any`) and keeps what it is given in its own data
//! model, which has no builtin types. There, godot_bin presents each builtin packet as a
//! one-entry map whose key is the type's private name: `{"$godot_bin::Vector3": [1.0,
//! 2.0, 3.0]}` (the components of a math type in wire order; another builtin in its own
//! shape). Every builtin's `Deserialize`, and [`Variant`](crate::variant::Variant)'s, recognise that
//! map, so a builtin keeps its type through serde's buffering, as serde_json's arbitrary-
//! precision numbers keep theirs. (So a map whose only key is one of these names is taken
//! for the builtin: the names are reserved.)
//!
//! The other way, serde's internally tagged enums add their tag as one more field of a
//! struct-shaped value. A builtin that receives a field of another name is written as a
//! Dictionary of those fields plus the builtin under its private name:
//! `{"type": "Move", "$godot_bin::Vector3": Vector3(1, 2, 3)}`, which decodes back through
//! the same enum.
//!
//! The rooms: this module the private names ([`Kind`]); `visit.rs` the visitors; `impls.rs`
//! the impl macros and their invocations for every `types/` builtin; `packed.rs` the packed
//! arrays and their bulk path; `leaves.rs` a fixed builtin's components presented to serde;
//! `give.rs` a value decoded whole, given to the crate's own visitor. The deserializers
//! (`crate::de`, and `Variant`'s in `crate::variant`) and the serializers use them; they use
//! nothing of those.

pub(crate) mod give;
mod impls;
pub(crate) mod leaves;
pub(crate) mod packed;
mod visit;

pub(crate) use impls::{name_in_error, struct_builtin};
pub(crate) use visit::{
    content, fixed_from_leaves, MapValueSeed, NewtypeVisitor, StructVisitor, Unwrap,
};

use crate::dialect::VariantType;
use serde::de::Deserializer;
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

            /// The kind a packet of type `ty` decodes as, for a packet whose type has one (not
            /// the plain types, not containers without types, not objects sent as ids: those
            /// the caller knows).
            // Rows that share a type (ObjectId and Object, both OBJECT) are unreachable
            // after the first: the arms above them say which kind such a type takes.
            #[allow(unreachable_patterns)]
            pub fn of_type(ty: VariantType) -> Option<Kind> {
                match ty {
                    VariantType::Object => Some(Kind::Object),
                    VariantType::TypedArray => Some(Kind::TypedArray),
                    $(VariantType::$ty => Some(Kind::$kind),)*
                    _ => None,
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

/// The `Deserializer` methods the crate's two deserializers (of packets, `crate::de`, and of
/// a `Variant`) answer alike: shapes that forward to another method, and a unit struct
/// asked for by a builtin's private name ([`Kind::by_name`]), which goes to the
/// deserializer's own `requested(kind, visitor)`. Expanded inside each `impl Deserializer`.
macro_rules! forward_shapes {
    ($de:lifetime) => {
        fn deserialize_string<V: ::serde::de::Visitor<$de>>(
            self,
            visitor: V,
        ) -> $crate::error::Result<V::Value> {
            self.deserialize_str(visitor)
        }

        fn deserialize_identifier<V: ::serde::de::Visitor<$de>>(
            self,
            visitor: V,
        ) -> $crate::error::Result<V::Value> {
            self.deserialize_str(visitor)
        }

        fn deserialize_tuple<V: ::serde::de::Visitor<$de>>(
            self,
            _: usize,
            visitor: V,
        ) -> $crate::error::Result<V::Value> {
            self.deserialize_seq(visitor)
        }

        fn deserialize_tuple_struct<V: ::serde::de::Visitor<$de>>(
            self,
            _: &'static str,
            _: usize,
            visitor: V,
        ) -> $crate::error::Result<V::Value> {
            self.deserialize_seq(visitor)
        }

        fn deserialize_unit_struct<V: ::serde::de::Visitor<$de>>(
            self,
            name: &'static str,
            visitor: V,
        ) -> $crate::error::Result<V::Value> {
            match $crate::builtin::Kind::by_name(name) {
                Some(kind) => self.requested(kind, visitor),
                None => self.deserialize_any(visitor),
            }
        }
    };
}
pub(crate) use forward_shapes;

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
    fn each_type_decodes_as_its_own_kind() {
        for ty in VariantType::ALL {
            let expected = match ty {
                VariantType::Array | VariantType::TypedArray => Some(Kind::TypedArray),
                VariantType::Dictionary => Some(Kind::TypedDictionary),
                // An id is told apart by the caller, from the header.
                VariantType::Object => Some(Kind::Object),
                // The kind of the same name, if there is one.
                ty => Kind::ALL
                    .iter()
                    .copied()
                    .find(|k| k.name()[PREFIX.len()..] == format!("{ty:?}")),
            };
            assert_eq!(Kind::of_type(ty), expected, "{ty:?}");
        }
        assert_eq!(Kind::of_type(VariantType::Int), None);
        assert_eq!(Kind::of_type(VariantType::Vector3), Some(Kind::Vector3));
        assert_eq!(Kind::of_type(VariantType::Callable), Some(Kind::Callable));
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
