//! [`TypedArray`]: ask for a Godot 4 `Array[T]` when encoding.

use crate::dialect::VariantType;
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, Rid, Signal};
use crate::types::packed::*;
use crate::variant::{Dictionary, ElementType};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::marker::PhantomData;

/// A Rust type with a Godot builtin type, usable as a typed array's element.
pub trait GodotType {
    /// The engine type of values of this Rust type.
    const VARIANT_TYPE: VariantType;
}

macro_rules! godot_types {
    ($($rust:ty => $ty:ident),* $(,)?) => {
        $(impl GodotType for $rust {
            const VARIANT_TYPE: VariantType = VariantType::$ty;
        })*
    };
}

godot_types! {
    bool => Bool, i8 => Int, i16 => Int, i32 => Int, i64 => Int, u8 => Int, u16 => Int, u32 => Int,
    f32 => Float, f64 => Float, String => String, Vector2 => Vector2, Vector2i => Vector2i,
    Rect2 => Rect2, Rect2i => Rect2i, Vector3 => Vector3, Vector3i => Vector3i,
    Transform2D => Transform2D, Vector4 => Vector4, Vector4i => Vector4i, Plane => Plane,
    Quaternion => Quaternion, Aabb => Aabb, Basis => Basis, Transform3D => Transform3D,
    Projection => Projection, Color => Color, StringName => StringName, NodePath => NodePath,
    Rid => Rid, Callable => Callable, Signal => Signal, Dictionary => Dictionary,
    PackedByteArray => PackedByteArray, PackedInt32Array => PackedInt32Array,
    PackedInt64Array => PackedInt64Array, PackedFloat32Array => PackedFloat32Array,
    PackedFloat64Array => PackedFloat64Array, PackedStringArray => PackedStringArray,
    PackedVector2Array => PackedVector2Array, PackedVector3Array => PackedVector3Array,
    PackedColorArray => PackedColorArray, PackedVector4Array => PackedVector4Array,
}

/// A `Vec<T>` that encodes as Godot 4's typed `Array[T]` (a TYPED_ARRAY in Pandemonium 5),
/// so that GDScript receives an `Array[int]`, `Array[Vector3]`... rather than a plain
/// `Array`. Dialects without typed arrays refuse it with an error.
///
/// ```
/// use godot_bin::{TypedArray, Variant, ElementType, VariantType};
/// let ids = TypedArray(vec![1i64, 2, 3]);
/// let bytes = godot_bin::to_vec(&ids)?;
/// assert_eq!(&bytes[..8], [0x1c, 0, 1, 0, 2, 0, 0, 0]); // ARRAY, kind 1 (builtin), INT
/// let any: Variant = godot_bin::from_slice(&bytes)?;
/// assert_eq!(any.as_array().unwrap().element_type, ElementType::Builtin(VariantType::Int));
/// let back: TypedArray<i64> = godot_bin::from_slice(&bytes)?;
/// assert_eq!(back, ids);
/// # Ok::<(), godot_bin::Error>(())
/// ```
///
/// Through other serde formats it is `{"element_type": ..., "shared": false, "items": [...]}`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TypedArray<T>(pub Vec<T>);

impl<T: GodotType + Serialize> Serialize for TypedArray<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("$godot_bin::TypedArray", 3)?;
        st.serialize_field("element_type", &ElementType::Builtin(T::VARIANT_TYPE))?;
        st.serialize_field("shared", &false)?;
        st.serialize_field("items", &self.0)?;
        st.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for TypedArray<T> {
    /// Reads any Array (its element type is not checked) or the struct form other formats
    /// write.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ItemsVisitor<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ItemsVisitor<T> {
            type Value = TypedArray<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(TypedArray(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut items = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key == crate::builtin::Kind::TypedArray.name() {
                        // The one-entry map of serde's buffering: [element_type, shared, items].
                        let (_, _, list): (de::IgnoredAny, de::IgnoredAny, Vec<T>) = map
                            .next_value_seed(crate::builtin::content(
                                crate::builtin::Kind::TypedArray,
                            ))?;
                        items = Some(list);
                    } else if key == "items" {
                        items = Some(map.next_value()?);
                    } else {
                        map.next_value::<de::IgnoredAny>()?;
                    }
                }
                items
                    .map(TypedArray)
                    .ok_or_else(|| de::Error::missing_field("items"))
            }
        }
        d.deserialize_any(ItemsVisitor(PhantomData))
    }
}

impl<T> From<Vec<T>> for TypedArray<T> {
    fn from(v: Vec<T>) -> Self {
        TypedArray(v)
    }
}

impl<T> std::ops::Deref for TypedArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}
