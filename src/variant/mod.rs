//! [`Variant`]: a packet whose shape is not known in advance, like `serde_json::Value`.
//!
//! The rooms: this module the enum and its per-builtin lists; `array.rs` [`Array`];
//! `dictionary.rs` [`Dictionary`], whose keys hash and compare by the engine's rules in
//! `keys.rs`; `object.rs` [`Object`]; `typed.rs` [`TypedArray`]; `codec.rs` its own byte
//! codec over the packet layer; `de.rs` and `ser.rs` its serde (a `Variant` is itself a
//! deserializer and a serializer target: [`from_variant`], [`to_variant`]; `access.rs` its
//! element and entry access, which gives errors their path), with the typed containers'
//! serde shapes they share in `shapes.rs`; `convert.rs` the `From` conversions; `assign.rs`
//! [`Variant::assign`], how a value set over another keeps its container kind.

mod access;
mod array;
mod assign;
pub(crate) mod codec;
mod convert;
pub(crate) mod de;
mod dictionary;
mod index;
mod keys;
mod object;
pub(crate) mod ser;
mod shapes;
pub(crate) mod typed;

pub use crate::types::element::ElementType;
pub use array::Array;
pub use de::from_variant;
pub(crate) use de::present_fields;
pub use dictionary::{Dictionary, DictionaryKey};
pub use index::VariantIndex;
pub use object::Object;
pub(crate) use ser::to_plain_variant;
pub use ser::to_variant;
pub use typed::{GodotType, TypedArray};

use crate::dialect::VariantType;
use crate::types::godot2::{Image, InputEvent};
use crate::types::leaves::{for_each_fixed, Component, Fixed, Leaves, MAX_LEAVES};
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;

/// Any value the engine can send, tagged with its type.
///
/// Decoding a packet into `Variant` and encoding it back gives the same bytes (NodePath
/// padding aside, which the engine leaves unwritten). Through other serde formats a
/// `Variant` serializes as its content; such formats cannot tell a `Vector3` from a
/// Dictionary, so only godot_bin round-trips every type.
///
/// Equality is structural: two NaN floats are not equal, as in `f64`; `1` is not `1.0`
/// and `"x"` is not `&"x"`. A [`Dictionary`] inside compares as the engine's `==` does, its
/// entries in any order (see its `PartialEq`); [`Variant::eq_ordered`] asks for the same
/// order too, which is what encodes to the same bytes.
///
/// ```
/// use godot_bin::{Variant, Vector3};
/// let v = Variant::from(vec![Variant::from(1), Variant::from(Vector3::new(1.0, 2.0, 3.0))]);
/// let bytes = godot_bin::to_vec(&v)?;
/// let back: Variant = godot_bin::from_slice(&bytes)?;
/// assert_eq!(back, v);
/// # Ok::<(), godot_bin::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub enum Variant {
    /// `null`.
    #[default]
    Nil,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `float`.
    Float(f64),
    /// `String`.
    String(String),
    /// `Vector2`.
    Vector2(Vector2),
    /// `Vector2i`.
    Vector2i(Vector2i),
    /// `Rect2`.
    Rect2(Rect2),
    /// `Rect2i`.
    Rect2i(Rect2i),
    /// `Vector3`.
    Vector3(Vector3),
    /// `Vector3i`.
    Vector3i(Vector3i),
    /// `Transform2D`.
    Transform2D(Transform2D),
    /// `Vector4`.
    Vector4(Vector4),
    /// `Vector4i`.
    Vector4i(Vector4i),
    /// `Plane`.
    Plane(Plane),
    /// `Quaternion`.
    Quaternion(Quaternion),
    /// `AABB`.
    Aabb(Aabb),
    /// `Basis`.
    Basis(Basis),
    /// `Transform3D`.
    Transform3D(Transform3D),
    /// `Projection`.
    Projection(Projection),
    /// `Color`.
    Color(Color),
    /// `StringName`.
    StringName(StringName),
    /// `NodePath`.
    NodePath(NodePath),
    /// `RID`.
    Rid(Rid),
    /// An object sent as its instance id.
    ObjectId(ObjectId),
    /// A full object (class name and properties).
    Object(Object),
    /// `Callable` (always empty on the wire).
    Callable(Callable),
    /// `Signal`.
    Signal(Signal),
    /// `Dictionary`, in insertion order, with any Variant as key.
    Dictionary(Dictionary),
    /// `Array`, possibly typed.
    Array(Array),
    /// `PackedByteArray`.
    PackedByteArray(PackedByteArray),
    /// `PackedInt32Array`.
    PackedInt32Array(PackedInt32Array),
    /// `PackedInt64Array`.
    PackedInt64Array(PackedInt64Array),
    /// `PackedFloat32Array`.
    PackedFloat32Array(PackedFloat32Array),
    /// `PackedFloat64Array`.
    PackedFloat64Array(PackedFloat64Array),
    /// `PackedStringArray`.
    PackedStringArray(PackedStringArray),
    /// `PackedVector2Array`.
    PackedVector2Array(PackedVector2Array),
    /// `PackedVector3Array`.
    PackedVector3Array(PackedVector3Array),
    /// `PackedColorArray`.
    PackedColorArray(PackedColorArray),
    /// `PackedVector4Array`.
    PackedVector4Array(PackedVector4Array),
    /// `PoolVector2iArray` (Pandemonium).
    PackedVector2iArray(PackedVector2iArray),
    /// `PoolVector3iArray` (Pandemonium).
    PackedVector3iArray(PackedVector3iArray),
    /// `PoolVector4iArray` (Pandemonium).
    PackedVector4iArray(PackedVector4iArray),
    /// `Image` (Godot 2).
    Image(Image),
    /// `InputEvent` (Godot 2).
    InputEvent(InputEvent),
    /// `PackedTypedArray` (Pandemonium 5; its `TypedArray` is an [`Array`] with an element
    /// type).
    PackedTypedArray(Array),
}

/// Calls `$m!{...}` with every Variant that wraps a builtin type of the same name and has a
/// `VariantType` of that name too (all but `ObjectId`, `Object`, `Dictionary`, `Array`).
/// `@with` adds names to the list.
macro_rules! for_each_plain_builtin {
    ($m:ident) => {
        $crate::variant::for_each_plain_builtin! {@with $m;}
    };
    (@with $m:ident; $($extra:ident),*) => {
        $m! {$($extra,)* Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D, Vector4,
        Vector4i, Plane, Quaternion, Aabb, Basis, Transform3D, Projection, Color, StringName,
        NodePath, Rid, Callable, Signal, PackedByteArray, PackedInt32Array, PackedInt64Array,
        PackedFloat32Array, PackedFloat64Array, PackedStringArray, PackedVector2Array,
        PackedVector3Array, PackedColorArray, PackedVector4Array, PackedVector2iArray,
        PackedVector3iArray, PackedVector4iArray, Image, InputEvent}
    };
}
pub(crate) use for_each_plain_builtin;

/// Calls `$m!{...}` with every Variant that wraps a builtin type of the same name.
macro_rules! for_each_builtin_variant {
    ($m:ident) => {
        $crate::variant::for_each_plain_builtin! {@with $m; ObjectId, Object, Dictionary, Array}
    };
}
pub(crate) use for_each_builtin_variant;

impl Variant {
    /// The components of a math type, in wire order; `None` for every other type.
    pub(crate) fn fixed_leaves(&self) -> Option<Leaves> {
        macro_rules! arms {
            ($($t:ident),*) => {
                match self {
                    $(Variant::$t(x) => Some(x.leaves()),)*
                    _ => None,
                }
            };
        }
        for_each_fixed!(arms)
    }
}

/// A fixed builtin's components, from [`Variant::components`]: an iterator, and a slice.
/// Held in place (at most 16, a Projection's), so taking them allocates nothing.
#[derive(Clone, Debug)]
pub struct Components {
    leaves: [Component; MAX_LEAVES],
    n: usize,
    next: usize,
}

impl Components {
    /// All the components, whatever the iterator has given.
    pub fn as_slice(&self) -> &[Component] {
        &self.leaves[..self.n]
    }
}

impl Iterator for Components {
    type Item = Component;

    fn next(&mut self) -> Option<Component> {
        let c = self.as_slice().get(self.next).copied()?;
        self.next += 1;
        Some(c)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.n - self.next;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Components {}

impl Variant {
    /// A fixed builtin's components (a math type's, a Color's), in the order the engine
    /// stores them in packets and binary resources (a `Rect2`: position x, y, size x, y;
    /// a `Basis`: its rows; a `Transform2D`: x axis, y axis, origin; a `Projection`: its
    /// columns); `None` for every other value. The one table of that order is
    /// `src/types/leaves.rs`; formats built on this crate read and write the builtins from
    /// it rather than field by field.
    ///
    /// ```
    /// use godot_bin::{Component, ComponentKind, Rect2, Variant, VariantType, Vector2};
    /// let r = Variant::from(Rect2::new(Vector2::new(1.0, 2.0), Vector2::new(3.0, 4.0)));
    /// let parts = r.components().unwrap();
    /// assert_eq!(parts.as_slice()[2], Component::F32(3.0));
    /// assert_eq!(VariantType::Rect2.components(), Some((ComponentKind::Real, 4)));
    /// assert_eq!(Variant::from_components(VariantType::Rect2, parts.as_slice()), Some(r));
    /// ```
    pub fn components(&self) -> Option<Components> {
        self.fixed_leaves()
            .map(|(leaves, n)| Components { leaves, n, next: 0 })
    }

    /// The fixed builtin of type `ty` made of `components` (as many as
    /// [`VariantType::components`] says, in the order of [`Variant::components`]); `None`
    /// for a type that is no fixed builtin, or another number of components. An `I32`
    /// component where a real is stored (or the other way round) is converted.
    pub fn from_components(ty: VariantType, components: &[Component]) -> Option<Variant> {
        macro_rules! arms {
            ($($t:ident),*) => {
                match ty {
                    $(VariantType::$t if components.len() == <$t as Fixed>::N => {
                        Some(Variant::$t($t::from_leaves(components)))
                    })*
                    _ => None,
                }
            };
        }
        for_each_fixed!(arms)
    }

    /// The engine type of this value.
    pub fn get_type(&self) -> VariantType {
        macro_rules! arms {
            ($($name:ident),*) => {
                match self {
                    Variant::Nil => VariantType::Nil,
                    Variant::Bool(_) => VariantType::Bool,
                    Variant::Int(_) => VariantType::Int,
                    Variant::Float(_) => VariantType::Float,
                    Variant::String(_) => VariantType::String,
                    Variant::ObjectId(_) | Variant::Object(_) => VariantType::Object,
                    Variant::PackedTypedArray(_) => VariantType::PackedTypedArray,
                    Variant::Dictionary(_) => VariantType::Dictionary,
                    Variant::Array(_) => VariantType::Array,
                    $(Variant::$name(_) => VariantType::$name,)*
                }
            };
        }
        for_each_plain_builtin!(arms)
    }
}

impl Variant {
    /// `==`, except that every [`Dictionary`] inside must also hold its entries in the
    /// same order, with keys of the same types ([`Dictionary::eq_ordered`]): equal this
    /// way, two values encode to the same bytes (NodePath padding aside). For tests of
    /// round trips, and for output that must be byte-identical.
    ///
    /// ```
    /// use godot_bin::{Dictionary, Variant};
    /// let ab = Variant::from(vec![Variant::from(Dictionary::from_iter([("a", 1), ("b", 2)]))]);
    /// let ba = Variant::from(vec![Variant::from(Dictionary::from_iter([("b", 2), ("a", 1)]))]);
    /// assert_eq!(ab, ba);
    /// assert!(!ab.eq_ordered(&ba));
    /// assert_ne!(godot_bin::to_vec(&ab)?, godot_bin::to_vec(&ba)?);
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn eq_ordered(&self, other: &Variant) -> bool {
        match (self, other) {
            (Variant::Dictionary(a), Variant::Dictionary(b)) => a.eq_ordered(b),
            (Variant::Array(a), Variant::Array(b))
            | (Variant::PackedTypedArray(a), Variant::PackedTypedArray(b)) => a.eq_ordered(b),
            (Variant::Object(a), Variant::Object(b)) => {
                a.class_name == b.class_name
                    && a.properties.len() == b.properties.len()
                    && a.properties
                        .iter()
                        .zip(&b.properties)
                        .all(|((n1, v1), (n2, v2))| n1 == n2 && v1.eq_ordered(v2))
            }
            _ => self == other,
        }
    }
}
