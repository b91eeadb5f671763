//! How each builtin type is laid out on the wire, keyed by the private serde name its
//! `Serialize` / `Deserialize` impls use (`"$godot_bin::Vector3"`...). The serializer and
//! the deserializer both read this table: a name found here means "write (or expect) this
//! packet type", anything else is an ordinary struct and becomes a Dictionary.

use crate::dialect::{DialectSpec, ObjectForm, RidForm, VariantType};

/// One number or string inside a payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leaf {
    /// `real_t`: f32, or f64 when the packet's header has bit 16.
    Real,
    /// Always f32 (Color, PackedFloat32Array).
    F32,
    /// Always f64 (PackedFloat64Array).
    F64,
    I32,
    U32,
    I64,
    U64,
    /// A Godot 2 `Image::Format`: a u32 below [`Image::FORMAT_MAX`](crate::Image::FORMAT_MAX).
    ImageFormat,
    /// A count, that many bytes, padding that need not be present.
    Bytes,
    /// A pascal string.
    Str,
    /// A `PackedStringArray` element: length + 1, the bytes, a NUL, padding.
    PackedStr,
    /// A u64 the dialect does not send (a Godot 3 RID): nothing on the wire, reads as 0.
    Absent,
}

/// The nesting of a payload, mirroring the Rust type's serde shape so that decoding can
/// hand a derived `Deserialize` exactly the sequences it expects.
#[derive(Debug)]
pub(crate) enum Shape {
    Leaf(Leaf),
    Group(&'static [Shape]),
}

impl Shape {
    /// Bytes on the wire, with `real` bytes per real (a string counts its length word).
    pub fn min_size(&self, real: usize) -> usize {
        match self {
            Shape::Leaf(Leaf::Real) => real,
            Shape::Leaf(
                Leaf::F32
                | Leaf::I32
                | Leaf::U32
                | Leaf::ImageFormat
                | Leaf::Str
                | Leaf::PackedStr
                | Leaf::Bytes,
            ) => 4,
            Shape::Leaf(Leaf::F64 | Leaf::I64 | Leaf::U64) => 8,
            Shape::Leaf(Leaf::Absent) => 0,
            Shape::Group(parts) => parts.iter().map(|p| p.min_size(real)).sum(),
        }
    }
}

/// The payload layout of one builtin.
#[derive(Debug)]
pub(crate) enum Form {
    /// A fixed sequence of leaves.
    Fixed(&'static Shape),
    /// A count, then elements of this shape.
    Packed(&'static Shape),
    /// A count, the bytes, padding.
    Bytes,
    NodePath,
    /// A full object: class name and properties.
    Object,
    /// An Array with its element type (Godot 4.3+).
    TypedArray,
    /// A Dictionary with its key and value types (Godot 4.4+).
    TypedDictionary,
    /// A Godot 2 InputEvent: type, device, payload length, extra words.
    InputEvent,
}

/// A builtin type: its private serde name, its Variant type and its layout.
#[derive(Debug)]
pub(crate) struct Builtin {
    pub name: &'static str,
    pub ty: VariantType,
    pub form: Form,
}

impl Builtin {
    /// Header flags for this value when written in `spec` (f64 math in double builds,
    /// the as-id bit for object ids).
    pub fn header_flags(&self, spec: &DialectSpec, double: bool) -> u32 {
        let wide = double && spec.double_math_flag && self.ty.has_real_components();
        if wide || (self.name == OBJECT_ID && spec.objects == ObjectForm::IdOrFull) {
            crate::wire::FLAG_64
        } else {
            0
        }
    }

    /// The shape of a fixed payload in `spec` (a Godot 3 RID, a Godot 2 object: nothing).
    pub fn fixed_shape(&self, spec: &DialectSpec) -> Option<&'static Shape> {
        let absent = (self.ty == VariantType::Rid && spec.rid == RidForm::HeaderOnly)
            || (self.name == OBJECT_ID && spec.objects == ObjectForm::HeaderOnly);
        match self.form {
            Form::Fixed(_) if absent => Some(&ABSENT),
            Form::Fixed(shape) => Some(shape),
            _ => None,
        }
    }
}

const R: Shape = Shape::Leaf(Leaf::Real);
const F32: Shape = Shape::Leaf(Leaf::F32);
const I32: Shape = Shape::Leaf(Leaf::I32);
const U64: Shape = Shape::Leaf(Leaf::U64);
const STR: Shape = Shape::Leaf(Leaf::Str);
const ABSENT: Shape = Shape::Leaf(Leaf::Absent);
const VEC2: Shape = Shape::Group(&[R, R]);
const VEC3: Shape = Shape::Group(&[R, R, R]);
const VEC4: Shape = Shape::Group(&[R, R, R, R]);
const VEC2I: Shape = Shape::Group(&[I32, I32]);
const VEC3I: Shape = Shape::Group(&[I32, I32, I32]);
const VEC4I: Shape = Shape::Group(&[I32, I32, I32, I32]);
const COLOR: Shape = Shape::Group(&[F32, F32, F32, F32]);
const BASIS: Shape = Shape::Group(&[Shape::Group(&[VEC3, VEC3, VEC3])]);

/// The private name of [`ObjectId`](crate::ObjectId), which shares OBJECT with full objects.
pub(crate) const OBJECT_ID: &str = "$godot_bin::ObjectId";

macro_rules! builtins {
    ($($name:literal => $ty:ident, $form:expr;)*) => {
        /// Every builtin, in one list.
        pub(crate) static BUILTINS: &[Builtin] = &[
            $(Builtin { name: $name, ty: VariantType::$ty, form: $form },)*
        ];

        /// [`by_name`] past the prefix check: a `match`, which compiles to compares of
        /// constant length (a scan of [`BUILTINS`] called `memcmp` once per candidate, and
        /// every struct and newtype a value holds asks).
        fn lookup(name: &str) -> Option<&'static Builtin> {
            match name {
                $($name => Some(&Builtin { name: $name, ty: VariantType::$ty, form: $form }),)*
                _ => None,
            }
        }
    };
}

builtins! {
    "$godot_bin::Vector2" => Vector2, Form::Fixed(&VEC2);
    "$godot_bin::Vector2i" => Vector2i, Form::Fixed(&VEC2I);
    "$godot_bin::Rect2" => Rect2, Form::Fixed(&Shape::Group(&[VEC2, VEC2]));
    "$godot_bin::Rect2i" => Rect2i, Form::Fixed(&Shape::Group(&[VEC2I, VEC2I]));
    "$godot_bin::Vector3" => Vector3, Form::Fixed(&VEC3);
    "$godot_bin::Vector3i" => Vector3i, Form::Fixed(&VEC3I);
    "$godot_bin::Transform2D" => Transform2D, Form::Fixed(&Shape::Group(&[VEC2, VEC2, VEC2]));
    "$godot_bin::Vector4" => Vector4, Form::Fixed(&VEC4);
    "$godot_bin::Vector4i" => Vector4i, Form::Fixed(&VEC4I);
    "$godot_bin::Plane" => Plane, Form::Fixed(&Shape::Group(&[VEC3, R]));
    "$godot_bin::Quaternion" => Quaternion, Form::Fixed(&VEC4);
    "$godot_bin::Aabb" => Aabb, Form::Fixed(&Shape::Group(&[VEC3, VEC3]));
    "$godot_bin::Basis" => Basis, Form::Fixed(&BASIS);
    "$godot_bin::Transform3D" => Transform3D, Form::Fixed(&Shape::Group(&[BASIS, VEC3]));
    "$godot_bin::Projection" => Projection, Form::Fixed(&Shape::Group(&[Shape::Group(&[VEC4, VEC4, VEC4, VEC4])]));
    "$godot_bin::Color" => Color, Form::Fixed(&COLOR);
    "$godot_bin::StringName" => StringName, Form::Fixed(&STR);
    "$godot_bin::NodePath" => NodePath, Form::NodePath;
    "$godot_bin::Rid" => Rid, Form::Fixed(&U64);
    "$godot_bin::ObjectId" => Object, Form::Fixed(&U64);
    "$godot_bin::Object" => Object, Form::Object;
    "$godot_bin::Callable" => Callable, Form::Fixed(&Shape::Group(&[]));
    "$godot_bin::Signal" => Signal, Form::Fixed(&Shape::Group(&[STR, U64]));
    "$godot_bin::Image" => Image, Form::Fixed(&Shape::Group(&[
        Shape::Leaf(Leaf::ImageFormat), Shape::Leaf(Leaf::U32), Shape::Leaf(Leaf::U32), Shape::Leaf(Leaf::U32),
        Shape::Leaf(Leaf::Bytes),
    ]));
    "$godot_bin::InputEvent" => InputEvent, Form::InputEvent;
    "$godot_bin::TypedArray" => Array, Form::TypedArray;
    "$godot_bin::PackedTypedArray" => PackedTypedArray, Form::TypedArray;
    "$godot_bin::TypedDictionary" => Dictionary, Form::TypedDictionary;
    "$godot_bin::PackedByteArray" => PackedByteArray, Form::Bytes;
    "$godot_bin::PackedInt32Array" => PackedInt32Array, Form::Packed(&I32);
    "$godot_bin::PackedInt64Array" => PackedInt64Array, Form::Packed(&Shape::Leaf(Leaf::I64));
    "$godot_bin::PackedFloat32Array" => PackedFloat32Array, Form::Packed(&F32);
    "$godot_bin::PackedFloat64Array" => PackedFloat64Array, Form::Packed(&Shape::Leaf(Leaf::F64));
    "$godot_bin::PackedStringArray" => PackedStringArray, Form::Packed(&Shape::Leaf(Leaf::PackedStr));
    "$godot_bin::PackedVector2Array" => PackedVector2Array, Form::Packed(&VEC2);
    "$godot_bin::PackedVector3Array" => PackedVector3Array, Form::Packed(&VEC3);
    "$godot_bin::PackedColorArray" => PackedColorArray, Form::Packed(&COLOR);
    "$godot_bin::PackedVector4Array" => PackedVector4Array, Form::Packed(&VEC4);
    "$godot_bin::PackedVector2iArray" => PackedVector2iArray, Form::Packed(&VEC2I);
    "$godot_bin::PackedVector3iArray" => PackedVector3iArray, Form::Packed(&VEC3I);
    "$godot_bin::PackedVector4iArray" => PackedVector4iArray, Form::Packed(&VEC4I);
}

/// The builtin a serde struct name stands for, if it is one of ours.
#[inline]
pub(crate) fn by_name(name: &str) -> Option<&'static Builtin> {
    if !name.starts_with("$godot_bin::") {
        return None;
    }
    lookup(name)
}

/// The builtin that reads a packet of type `ty` (for OBJECT, the full-object form; the
/// caller checks the as-id flag).
pub(crate) fn by_type(ty: VariantType) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.ty == ty && b.name != OBJECT_ID)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_lookup_agrees_with_the_table() {
        for b in BUILTINS {
            let found = by_name(b.name).unwrap();
            assert_eq!((found.name, found.ty), (b.name, b.ty));
            assert_eq!(format!("{:?}", found.form), format!("{:?}", b.form));
        }
        assert!(by_name("$godot_bin::Vector5").is_none());
        assert!(by_name("Vector3").is_none());
    }

    #[test]
    fn payload_sizes_match_the_spec_tables() {
        let size = |name: &str| match by_name(name).unwrap().form {
            Form::Fixed(shape) => shape.min_size(4),
            _ => unreachable!(),
        };
        assert_eq!(size("$godot_bin::Transform3D"), 48);
        assert_eq!(size("$godot_bin::Projection"), 64);
        assert_eq!(size("$godot_bin::Basis"), 36);
        assert_eq!(size("$godot_bin::Plane"), 16);
        assert_eq!(size("$godot_bin::Color"), 16);
    }

    #[test]
    fn every_name_is_unique() {
        for (i, a) in BUILTINS.iter().enumerate() {
            assert!(
                BUILTINS[i + 1..].iter().all(|b| b.name != a.name),
                "{}",
                a.name
            );
        }
    }
}
