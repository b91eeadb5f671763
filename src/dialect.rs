//! The per-dialect facts, in one table: which types exist, their wire ids, and the few
//! rules that differ between engines. The serializer and the deserializer both consult
//! [`DialectSpec`]; no other module knows a type id.

use std::fmt;

/// Which engine's wire format to speak.
///
/// Engines differ in their type-id tables and in a handful of payload rules, so bytes
/// written for one are not readable by another. [`Dialect::Godot4`] is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Dialect {
    /// Godot 4.x (`var_to_bytes` / `bytes_to_var`): 39 types, typed containers (4.3+).
    #[default]
    Godot4,
    /// Godot 3.x (3.1 and later; `var2bytes` / `bytes2var`): 27 types.
    Godot3,
    /// Godot 2.1 (and 2.0): 29 types including `Image` and `InputEvent`; ints and floats are
    /// always 32-bit and headers carry no flags.
    Godot2,
    /// Pandemonium v3.8 to v4.9 (the 38-type table): Godot 3 rules with Godot 4-style extra
    /// types (`Vector2i`, `Vector4`, `Projection`, `StringName`, integer pool arrays...).
    Pandemonium,
    /// Pandemonium v3.5 to v3.7: the Godot 3 table with `Vector2i`, `Rect2i`, `Vector3i`,
    /// `StringName` and two integer pool arrays inserted in the middle.
    Pandemonium37,
    /// Pandemonium v5.x: the v3.8 table with `TypedArray` and `PackedTypedArray` at 27 and 28,
    /// every pool array shifted by two.
    Pandemonium5,
}

impl fmt::Display for Dialect {
    /// The engine's name and versions, as error messages write it: `Godot 4`,
    /// `Godot 3`, `Pandemonium 3.8-4.x`... (see [`Dialect::id`] for the short name that
    /// [`FromStr`](std::str::FromStr) reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec().name)
    }
}

impl std::str::FromStr for Dialect {
    type Err = ParseDialectError;

    /// Reads a dialect's short name ([`Dialect::id`]): `godot4`, `godot3`, `godot2`,
    /// `pandemonium`, `pandemonium37` or `pandemonium5`. Case, spaces, `-`, `_` and `.`
    /// are ignored, so `Godot 4`, `GODOT_3` and `pandemonium-3.7` are read too.
    ///
    /// ```
    /// use godot_bin::Dialect;
    ///
    /// assert_eq!("godot3".parse::<Dialect>(), Ok(Dialect::Godot3));
    /// assert_eq!("Godot 4".parse::<Dialect>(), Ok(Dialect::Godot4));
    /// assert_eq!("Pandemonium37".parse::<Dialect>(), Ok(Dialect::Pandemonium37));
    /// // Every dialect reads back from its short name.
    /// for d in Dialect::ALL {
    ///     assert_eq!(d.id().parse::<Dialect>(), Ok(d));
    /// }
    /// let err = "godot5".parse::<Dialect>().unwrap_err();
    /// assert_eq!(err.input(), "godot5");
    /// assert_eq!(
    ///     err.to_string(),
    ///     "unknown dialect \"godot5\"; expected one of: godot4, godot3, godot2, \
    ///      pandemonium, pandemonium37, pandemonium5"
    /// );
    /// ```
    fn from_str(s: &str) -> Result<Dialect, ParseDialectError> {
        let key: String = s
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_' | '.'))
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Dialect::ALL
            .into_iter()
            .find(|d| d.id() == key)
            .ok_or_else(|| ParseDialectError {
                input: s.to_owned(),
            })
    }
}

/// A dialect name that [`Dialect`]'s [`FromStr`](std::str::FromStr) does not know; its
/// message lists the names it reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseDialectError {
    input: String,
}

impl ParseDialectError {
    /// The text that was not a dialect name.
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseDialectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown dialect {:?}; expected one of: ", self.input)?;
        for (i, d) in Dialect::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(d.id())?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseDialectError {}

/// Every type that exists in at least one dialect, named as in Godot 4 where Godot 4 has it.
///
/// The discriminant is this crate's own index, never a wire id: wire ids come from the
/// dialect table.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde_derive::Serialize,
    serde_derive::Deserialize,
)]
#[non_exhaustive]
pub enum VariantType {
    /// `null` (`NIL`).
    Nil,
    /// `bool`.
    Bool,
    /// `int` (a 64-bit integer; 32-bit on the wire when it fits).
    Int,
    /// `float` (`real` in Godot 3): a double, 32-bit on the wire when exact.
    Float,
    /// `String`.
    String,
    /// `Vector2`.
    Vector2,
    /// `Vector2i`.
    Vector2i,
    /// `Rect2`.
    Rect2,
    /// `Rect2i`.
    Rect2i,
    /// `Vector3`.
    Vector3,
    /// `Vector3i`.
    Vector3i,
    /// `Transform2D` (`Matrix32` in Godot 2).
    Transform2D,
    /// `Vector4`.
    Vector4,
    /// `Vector4i`.
    Vector4i,
    /// `Plane`.
    Plane,
    /// `Quaternion` (`Quat` in Godot 3).
    Quaternion,
    /// `AABB` (`Rect3` in Godot 2).
    Aabb,
    /// `Basis` (`Matrix3` in Godot 2).
    Basis,
    /// `Transform3D` (`Transform` in Godot 3).
    Transform3D,
    /// `Projection`.
    Projection,
    /// `Color`.
    Color,
    /// `StringName`.
    StringName,
    /// `NodePath`.
    NodePath,
    /// `RID`.
    Rid,
    /// `Object`: an instance id or a full object.
    Object,
    /// `Callable`.
    Callable,
    /// `Signal`.
    Signal,
    /// `Dictionary`.
    Dictionary,
    /// `Array`.
    Array,
    /// `PackedByteArray` (`PoolByteArray` in Godot 3, `RawArray` in Godot 2).
    PackedByteArray,
    /// `PackedInt32Array` (`PoolIntArray` in Godot 3, `IntArray` in Godot 2).
    PackedInt32Array,
    /// `PackedInt64Array`.
    PackedInt64Array,
    /// `PackedFloat32Array` (`PoolRealArray` in Godot 3, `RealArray` in Godot 2).
    PackedFloat32Array,
    /// `PackedFloat64Array`.
    PackedFloat64Array,
    /// `PackedStringArray` (`PoolStringArray` in Godot 3, `StringArray` in Godot 2).
    PackedStringArray,
    /// `PackedVector2Array` (`PoolVector2Array` in Godot 3).
    PackedVector2Array,
    /// `PackedVector3Array` (`PoolVector3Array` in Godot 3).
    PackedVector3Array,
    /// `PackedColorArray` (`PoolColorArray` in Godot 3).
    PackedColorArray,
    /// `PackedVector4Array` (Godot 4.3+; `PoolVector4Array` in Pandemonium).
    PackedVector4Array,
    /// `PoolVector2iArray` (Pandemonium only).
    PackedVector2iArray,
    /// `PoolVector3iArray` (Pandemonium only).
    PackedVector3iArray,
    /// `PoolVector4iArray` (Pandemonium only).
    PackedVector4iArray,
    /// `Image` (Godot 2 only).
    Image,
    /// `InputEvent` (Godot 2 only).
    InputEvent,
    /// `TypedArray` (Pandemonium 5 only): an Array with an element type.
    TypedArray,
    /// `PackedTypedArray` (Pandemonium 5 only): laid out as `TypedArray`.
    PackedTypedArray,
}

use VariantType as T;

impl VariantType {
    /// Number of variants, for tables indexed by `VariantType as usize`.
    pub(crate) const COUNT: usize = T::PackedTypedArray as usize + 1;

    /// Every type, in this crate's order (`ALL[t as usize] == t`).
    pub const ALL: [VariantType; VariantType::COUNT] = {
        // Godot 4's table holds most types; the rest exist only in other engines.
        const EXTRA: &[VariantType] = &[
            T::PackedVector2iArray,
            T::PackedVector3iArray,
            T::PackedVector4iArray,
            T::Image,
            T::InputEvent,
            T::TypedArray,
            T::PackedTypedArray,
        ];
        let mut all = [T::Nil; VariantType::COUNT];
        let mut i = 0;
        while i < GODOT4_TYPES.len() {
            all[GODOT4_TYPES[i] as usize] = GODOT4_TYPES[i];
            i += 1;
        }
        let mut i = 0;
        while i < EXTRA.len() {
            all[EXTRA[i] as usize] = EXTRA[i];
            i += 1;
        }
        all
    };

    /// The type's name as Godot 4 spells it (or the engine that has it, for the rest).
    pub fn name(self) -> &'static str {
        match self {
            T::Nil => "Nil",
            T::Bool => "bool",
            T::Int => "int",
            T::Float => "float",
            T::String => "String",
            T::Vector2 => "Vector2",
            T::Vector2i => "Vector2i",
            T::Rect2 => "Rect2",
            T::Rect2i => "Rect2i",
            T::Vector3 => "Vector3",
            T::Vector3i => "Vector3i",
            T::Transform2D => "Transform2D",
            T::Vector4 => "Vector4",
            T::Vector4i => "Vector4i",
            T::Plane => "Plane",
            T::Quaternion => "Quaternion",
            T::Aabb => "AABB",
            T::Basis => "Basis",
            T::Transform3D => "Transform3D",
            T::Projection => "Projection",
            T::Color => "Color",
            T::StringName => "StringName",
            T::NodePath => "NodePath",
            T::Rid => "RID",
            T::Object => "Object",
            T::Callable => "Callable",
            T::Signal => "Signal",
            T::Dictionary => "Dictionary",
            T::Array => "Array",
            T::PackedByteArray => "PackedByteArray",
            T::PackedInt32Array => "PackedInt32Array",
            T::PackedInt64Array => "PackedInt64Array",
            T::PackedFloat32Array => "PackedFloat32Array",
            T::PackedFloat64Array => "PackedFloat64Array",
            T::PackedStringArray => "PackedStringArray",
            T::PackedVector2Array => "PackedVector2Array",
            T::PackedVector3Array => "PackedVector3Array",
            T::PackedColorArray => "PackedColorArray",
            T::PackedVector4Array => "PackedVector4Array",
            T::PackedVector2iArray => "PackedVector2iArray",
            T::PackedVector3iArray => "PackedVector3iArray",
            T::PackedVector4iArray => "PackedVector4iArray",
            T::Image => "Image",
            T::InputEvent => "InputEvent",
            T::TypedArray => "TypedArray",
            T::PackedTypedArray => "PackedTypedArray",
        }
    }

    /// The type's name as `dialect`'s engine spells it (`Quat` and `PoolIntArray` in Godot
    /// 3, `Matrix32` in Godot 2...), as its text form and its documentation write it.
    pub fn name_in(self, dialect: Dialect) -> &'static str {
        let ty = self;
        match dialect {
            Dialect::Godot4 => ty.name(),
            Dialect::Godot2 => match ty {
                T::Transform2D => "Matrix32",
                T::Basis => "Matrix3",
                T::Quaternion => "Quat",
                T::Transform3D => "Transform",
                T::PackedByteArray => "RawArray",
                T::PackedInt32Array => "IntArray",
                T::PackedFloat32Array => "RealArray",
                T::PackedStringArray => "StringArray",
                T::PackedVector2Array => "Vector2Array",
                T::PackedVector3Array => "Vector3Array",
                T::PackedColorArray => "ColorArray",
                _ => ty.name(),
            },
            // Godot 3 and Pandemonium.
            _ => match ty {
                T::Quaternion if dialect == Dialect::Godot3 => "Quat",
                T::PackedVector4Array if dialect != Dialect::Godot3 => "PoolVector4Array",
                T::Transform3D => "Transform",
                T::PackedByteArray => "PoolByteArray",
                T::PackedInt32Array => "PoolIntArray",
                T::PackedFloat32Array => "PoolRealArray",
                T::PackedStringArray => "PoolStringArray",
                T::PackedVector2Array => "PoolVector2Array",
                T::PackedVector3Array => "PoolVector3Array",
                T::PackedColorArray => "PoolColorArray",
                T::PackedVector2iArray => "PoolVector2iArray",
                T::PackedVector3iArray => "PoolVector3iArray",
                T::PackedVector4iArray => "PoolVector4iArray",
                _ => ty.name(),
            },
        }
    }

    /// Whether this type's components are `real_t`: 8 bytes, with header bit 16, from a
    /// Godot 4 double-precision build (see `packet::math`). Color stays f32.
    pub fn has_real_components(self) -> bool {
        matches!(
            self,
            T::Vector2
                | T::Vector3
                | T::Vector4
                | T::Rect2
                | T::Transform2D
                | T::Plane
                | T::Quaternion
                | T::Aabb
                | T::Basis
                | T::Transform3D
                | T::Projection
                | T::PackedVector2Array
                | T::PackedVector3Array
                | T::PackedVector4Array
        )
    }
}

impl fmt::Display for VariantType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a dialect writes for an RID.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RidForm {
    /// Godot 4: the u64 id.
    Id64,
    /// Godot 3, Pandemonium: the header alone; the id is not sent.
    HeaderOnly,
}

/// How a dialect marks an Array's element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TypedArrays {
    /// No typed arrays.
    None,
    /// Godot 4.3+: kind bits in the ARRAY header, type data before the count.
    HeaderBits,
    /// Pandemonium 5: a TYPED_ARRAY type of its own.
    OwnType,
}

/// What a dialect writes for an Object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ObjectForm {
    /// Godot 3/4, Pandemonium: an instance id (header bit 16) or a full object.
    IdOrFull,
    /// Godot 2: the header alone; every object decodes as null.
    HeaderOnly,
}

/// The engines' own nesting limit (`Variant::MAX_RECURSION_DEPTH`), the same in every
/// dialect here: the value of [`DialectSpec::max_depth`], and of
/// [`MAX_DEPTH`](crate::config::MAX_DEPTH) with the `stack-growth` feature.
pub(crate) const ENGINE_MAX_DEPTH: usize = 1024;

/// One row of the dialect table.
#[derive(Debug)]
pub(crate) struct DialectSpec {
    /// The engine's name, for messages.
    pub name: &'static str,
    /// Wire id → type. The index is the id; the length is the engine's `VARIANT_MAX`.
    pub types: &'static [VariantType],
    /// Type → wire id (`NO_ID` where the type does not exist), derived from `types`.
    ids: [u8; VariantType::COUNT],
    /// The ids of the types most values are made of, for the hot paths of both directions.
    pub plain: PlainIds,
    /// Typed arrays, if any.
    pub typed_arrays: TypedArrays,
    /// Godot 4.4+ typed Dictionary header bits.
    pub typed_dictionaries: bool,
    /// The decoder puts each element of a typed container (each key of a typed
    /// Dictionary; values are not checked) through the type's check
    /// ([`crate::types::element::ElementType`]'s `admit`), dropping what it refuses: Godot 4.
    /// Pandemonium 5's typed arrays keep every element.
    pub checks_typed_elements: bool,
    /// Headers may carry flags in bits 8–31 (all but Godot 2, which refuses any).
    pub header_flags: bool,
    /// INT and FLOAT may be 64-bit (not in Godot 2).
    pub wide_numbers: bool,
    /// Array/Dictionary counts keep bit 31 as the "shared" flag (Godot 2).
    pub shared_bit: bool,
    /// A NodePath's last subname is sent as Godot 2's separate property (flag bit 1).
    pub nodepath_property: bool,
    /// The decoder keeps the absolute flag of a NodePath with no names and no subnames
    /// (`NodePath("/")`, the root). Godot 4's `NodePath(names, subnames, absolute)` keeps
    /// it; Godot 3's and Pandemonium's return the empty relative path for no names and no
    /// subnames, whatever the flag (checked against 4.4.1 and 3.2.3).
    pub keeps_root_nodepath: bool,
    /// Objects.
    pub objects: ObjectForm,
    /// Godot 4 double builds flag their math types with bit 16 and write f64 components;
    /// Godot 3 and Pandemonium double builds narrow them to f32 unflagged.
    pub double_math_flag: bool,
    /// RID payload.
    pub rid: RidForm,
    /// The engine's own recursion limit (`Variant::MAX_RECURSION_DEPTH`).
    pub max_depth: usize,
    /// The mainline engine whose file code (`FileAccess` wrappers, ConfigFile, resource
    /// formats) this engine runs: see [`Dialect::file_family`].
    pub file_family: Dialect,
}

const NO_ID: u8 = u8::MAX;

/// The ids of the types most values are made of, read once from a dialect's row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PlainIds {
    pub string: u32,
    pub int: u32,
    pub float: u32,
    pub array: u32,
    pub dictionary: u32,
}

/// The id of `ty`, which every dialect has. The rows are statics, so a row without it is
/// a build error (a panic in constant evaluation), never a runtime one.
const fn must_have(ids: &[u8; VariantType::COUNT], ty: VariantType) -> u32 {
    let id = ids[ty as usize];
    assert!(
        id != NO_ID,
        "every dialect has String, Int, Float, Array and Dictionary"
    );
    id as u32
}

impl DialectSpec {
    const fn new(name: &'static str, types: &'static [VariantType]) -> Self {
        let mut ids = [NO_ID; VariantType::COUNT];
        let mut i = 0;
        while i < types.len() {
            ids[types[i] as usize] = i as u8;
            i += 1;
        }
        DialectSpec {
            name,
            types,
            ids,
            plain: PlainIds {
                string: must_have(&ids, VariantType::String),
                int: must_have(&ids, VariantType::Int),
                float: must_have(&ids, VariantType::Float),
                array: must_have(&ids, VariantType::Array),
                dictionary: must_have(&ids, VariantType::Dictionary),
            },
            typed_arrays: TypedArrays::None,
            typed_dictionaries: false,
            checks_typed_elements: false,
            header_flags: true,
            wide_numbers: true,
            shared_bit: false,
            nodepath_property: false,
            keeps_root_nodepath: false,
            objects: ObjectForm::IdOrFull,
            double_math_flag: false,
            rid: RidForm::HeaderOnly,
            max_depth: ENGINE_MAX_DEPTH,
            file_family: Dialect::Godot3,
        }
    }

    /// The wire id of `ty`, or `None` if the dialect lacks the type.
    #[inline]
    pub fn id_of(&self, ty: VariantType) -> Option<u32> {
        match self.ids[ty as usize] {
            NO_ID => None,
            id => Some(id as u32),
        }
    }

    /// The type with wire id `id`, or `None` for an id at or past `VARIANT_MAX`.
    #[inline]
    pub fn type_of(&self, id: u32) -> Option<VariantType> {
        self.types.get(id as usize).copied()
    }
}

/// Godot 4.4 `Variant::Type` (every id occurs in tests/data/golden/godot4.tsv).
const GODOT4_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Vector2i,
    T::Rect2,
    T::Rect2i,
    T::Vector3,
    T::Vector3i,
    T::Transform2D,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Projection,
    T::Color,
    T::StringName,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Callable,
    T::Signal,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedInt64Array,
    T::PackedFloat32Array,
    T::PackedFloat64Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
    T::PackedVector4Array,
];

/// Godot 3.x `Variant::Type` (every id occurs in tests/data/golden/godot3.tsv).
const GODOT3_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Rect2,
    T::Vector3,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
];

/// Pandemonium v3.8–v4.9 (engine-made packets in tests/data/golden/pandemonium.tsv).
const PANDEMONIUM_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Rect2,
    T::Rect2i,
    T::Vector2,
    T::Vector2i,
    T::Vector3,
    T::Vector3i,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Transform2D,
    T::Projection,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedVector4Array,
    T::PackedVector4iArray,
    T::PackedColorArray,
];

/// Godot 2.1 `Variant::Type` (from the engine's `core/variant.h`).
const GODOT2_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Rect2,
    T::Vector3,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::Image,
    T::NodePath,
    T::Rid,
    T::Object,
    T::InputEvent,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector3Array,
    T::PackedColorArray,
];

/// Pandemonium v3.5–v3.7 (from the engine's `core/variant.h` of those tags).
const PANDEMONIUM37_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Vector2,
    T::Vector2i,
    T::Rect2,
    T::Rect2i,
    T::Vector3,
    T::Vector3i,
    T::Transform2D,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedColorArray,
];

/// Pandemonium v5.x (from the engine's `core/variant.h`).
const PANDEMONIUM5_TYPES: &[VariantType] = &[
    T::Nil,
    T::Bool,
    T::Int,
    T::Float,
    T::String,
    T::Rect2,
    T::Rect2i,
    T::Vector2,
    T::Vector2i,
    T::Vector3,
    T::Vector3i,
    T::Vector4,
    T::Vector4i,
    T::Plane,
    T::Quaternion,
    T::Aabb,
    T::Basis,
    T::Transform3D,
    T::Transform2D,
    T::Projection,
    T::Color,
    T::NodePath,
    T::Rid,
    T::Object,
    T::StringName,
    T::Dictionary,
    T::Array,
    T::TypedArray,
    T::PackedTypedArray,
    T::PackedByteArray,
    T::PackedInt32Array,
    T::PackedFloat32Array,
    T::PackedStringArray,
    T::PackedVector2Array,
    T::PackedVector2iArray,
    T::PackedVector3Array,
    T::PackedVector3iArray,
    T::PackedVector4Array,
    T::PackedVector4iArray,
    T::PackedColorArray,
];

static GODOT4: DialectSpec = DialectSpec {
    typed_arrays: TypedArrays::HeaderBits,
    typed_dictionaries: true,
    checks_typed_elements: true,
    double_math_flag: true,
    rid: RidForm::Id64,
    keeps_root_nodepath: true,
    file_family: Dialect::Godot4,
    ..DialectSpec::new("Godot 4", GODOT4_TYPES)
};
static GODOT3: DialectSpec = DialectSpec::new("Godot 3", GODOT3_TYPES);
static GODOT2: DialectSpec = DialectSpec {
    header_flags: false,
    wide_numbers: false,
    shared_bit: true,
    nodepath_property: true,
    objects: ObjectForm::HeaderOnly,
    ..DialectSpec::new("Godot 2.1", GODOT2_TYPES)
};
static PANDEMONIUM: DialectSpec = DialectSpec::new("Pandemonium 3.8-4.x", PANDEMONIUM_TYPES);
static PANDEMONIUM37: DialectSpec = DialectSpec::new("Pandemonium 3.5-3.7", PANDEMONIUM37_TYPES);
static PANDEMONIUM5: DialectSpec = DialectSpec {
    typed_arrays: TypedArrays::OwnType,
    ..DialectSpec::new("Pandemonium 5", PANDEMONIUM5_TYPES)
};

impl Dialect {
    /// Every dialect, in declaration order.
    pub const ALL: [Dialect; 6] = [
        Dialect::Godot4,
        Dialect::Godot3,
        Dialect::Godot2,
        Dialect::Pandemonium,
        Dialect::Pandemonium37,
        Dialect::Pandemonium5,
    ];

    /// The dialect's short name, which [`FromStr`](std::str::FromStr) reads back:
    /// `godot4`, `godot3`, `godot2`, `pandemonium`, `pandemonium37`, `pandemonium5`.
    pub const fn id(self) -> &'static str {
        match self {
            Dialect::Godot4 => "godot4",
            Dialect::Godot3 => "godot3",
            Dialect::Godot2 => "godot2",
            Dialect::Pandemonium => "pandemonium",
            Dialect::Pandemonium37 => "pandemonium37",
            Dialect::Pandemonium5 => "pandemonium5",
        }
    }

    /// This dialect's row of the table.
    pub(crate) fn spec(self) -> &'static DialectSpec {
        match self {
            Dialect::Godot4 => &GODOT4,
            Dialect::Godot3 => &GODOT3,
            Dialect::Godot2 => &GODOT2,
            Dialect::Pandemonium => &PANDEMONIUM,
            Dialect::Pandemonium37 => &PANDEMONIUM37,
            Dialect::Pandemonium5 => &PANDEMONIUM5,
        }
    }

    /// Whether `ty` exists in this dialect.
    pub fn has_type(self, ty: VariantType) -> bool {
        self.spec().id_of(ty).is_some()
    }

    /// The engine's own nesting limit (`Variant::MAX_RECURSION_DEPTH`), the default of
    /// [`Config::max_depth`](crate::config::Config::max_depth) up to
    /// [`MAX_DEPTH`](crate::config::MAX_DEPTH), this build's limit.
    pub fn max_depth(self) -> usize {
        self.spec().max_depth
    }

    /// The mainline engine whose file code this engine runs: `Godot4` for Godot 4;
    /// `Godot3` for Godot 3 and for Godot 2.1 and Pandemonium, whose `FileAccess`
    /// wrappers (the encrypted file's ECB layout), ConfigFile and resource formats are
    /// Godot 3's. The file forms built on this crate (`godot_bin_files`) pick their layout
    /// from it.
    ///
    /// ```
    /// use godot_bin::Dialect;
    /// assert_eq!(Dialect::Godot4.file_family(), Dialect::Godot4);
    /// assert_eq!(Dialect::Pandemonium.file_family(), Dialect::Godot3);
    /// ```
    pub fn file_family(self) -> Dialect {
        self.spec().file_family
    }

    /// The wire id of `ty` in this dialect, if the dialect has the type.
    pub fn type_id(self, ty: VariantType) -> Option<u32> {
        self.spec().id_of(ty)
    }

    /// The type with wire id `id` in this dialect (`None` at or past its `VARIANT_MAX`).
    pub fn type_of(self, id: u32) -> Option<VariantType> {
        self.spec().type_of(id)
    }
}

#[cfg(test)]
mod tests;
