//! Serializers for the inside of builtin packets: numbers and strings written bare (no
//! headers), packed-array elements, and the fields of NodePath, Object and typed
//! containers. Each accepts only what the crate's own builtin types send it.

use super::{Compound, Serializer};
use crate::builtin::{Builtin, Form};
use crate::dialect::{ObjectForm, TypedArrays, VariantType};
use crate::error::{Error, ErrorKind, Result};
use crate::variant::ElementType;
use crate::wire::{check_text, pad_len, Put, COUNT_SHARED, FLAG_64, NODEPATH_NEW_FORMAT};
use serde::ser::{self, Impossible, Serialize};

fn unexpected(what: &str) -> Error {
    ErrorKind::Unsupported(format!("{what} inside a builtin type's payload")).into()
}

/// Stubs for the `Serializer` methods a sink does not take.
macro_rules! reject {
    ($ok:ty; $($m:ident)*) => { $(reject!(@ $ok; $m);)* };
    (@ $ok:ty; bool) => { fn serialize_bool(self, _: bool) -> Result<$ok> { Err(unexpected("bool")) } };
    (@ $ok:ty; i8) => { fn serialize_i8(self, _: i8) -> Result<$ok> { Err(unexpected("i8")) } };
    (@ $ok:ty; i16) => { fn serialize_i16(self, _: i16) -> Result<$ok> { Err(unexpected("i16")) } };
    (@ $ok:ty; i32) => { fn serialize_i32(self, _: i32) -> Result<$ok> { Err(unexpected("i32")) } };
    (@ $ok:ty; i64) => { fn serialize_i64(self, _: i64) -> Result<$ok> { Err(unexpected("i64")) } };
    (@ $ok:ty; u8) => { fn serialize_u8(self, _: u8) -> Result<$ok> { Err(unexpected("u8")) } };
    (@ $ok:ty; u16) => { fn serialize_u16(self, _: u16) -> Result<$ok> { Err(unexpected("u16")) } };
    (@ $ok:ty; u32) => { fn serialize_u32(self, _: u32) -> Result<$ok> { Err(unexpected("u32")) } };
    (@ $ok:ty; u64) => { fn serialize_u64(self, _: u64) -> Result<$ok> { Err(unexpected("u64")) } };
    (@ $ok:ty; f32) => { fn serialize_f32(self, _: f32) -> Result<$ok> { Err(unexpected("f32")) } };
    (@ $ok:ty; f64) => { fn serialize_f64(self, _: f64) -> Result<$ok> { Err(unexpected("f64")) } };
    (@ $ok:ty; char) => { fn serialize_char(self, _: char) -> Result<$ok> { Err(unexpected("char")) } };
    (@ $ok:ty; str) => { fn serialize_str(self, _: &str) -> Result<$ok> { Err(unexpected("str")) } };
    (@ $ok:ty; bytes) => { fn serialize_bytes(self, _: &[u8]) -> Result<$ok> { Err(unexpected("bytes")) } };
    (@ $ok:ty; none) => { fn serialize_none(self) -> Result<$ok> { Err(unexpected("None")) } };
    (@ $ok:ty; some) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<$ok> { Err(unexpected("Some")) }
    };
    (@ $ok:ty; unit) => { fn serialize_unit(self) -> Result<$ok> { Err(unexpected("()")) } };
    (@ $ok:ty; unit_struct) => {
        fn serialize_unit_struct(self, _: &'static str) -> Result<$ok> { Err(unexpected("a unit struct")) }
    };
    (@ $ok:ty; unit_variant) => {
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<$ok> {
            Err(unexpected("an enum"))
        }
    };
    (@ $ok:ty; newtype_struct) => {
        fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Result<$ok> {
            Err(unexpected("a newtype"))
        }
    };
    (@ $ok:ty; newtype_variant) => {
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self, _: &'static str, _: u32, _: &'static str, _: &T,
        ) -> Result<$ok> {
            Err(unexpected("an enum"))
        }
    };
    (@ $ok:ty; seq) => {
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> { Err(unexpected("a sequence")) }
    };
    (@ $ok:ty; tuple) => {
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> { Err(unexpected("a tuple")) }
    };
    (@ $ok:ty; tuple_struct) => {
        fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
            Err(unexpected("a tuple struct"))
        }
    };
    (@ $ok:ty; tuple_variant) => {
        fn serialize_tuple_variant(
            self, _: &'static str, _: u32, _: &'static str, _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(unexpected("an enum"))
        }
    };
    (@ $ok:ty; map) => {
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> { Err(unexpected("a map")) }
    };
    (@ $ok:ty; struct) => {
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
            Err(unexpected("a struct"))
        }
    };
    (@ $ok:ty; struct_variant) => {
        fn serialize_struct_variant(
            self, _: &'static str, _: u32, _: &'static str, _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(unexpected("an enum"))
        }
    };
}

/// The u32 this serializer wrote at `at` (a field that decides whether what follows is
/// valid).
fn read_u32(out: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([out[at], out[at + 1], out[at + 2], out[at + 3]])
}

/// count, bytes, zero padding (a PackedByteArray payload).
pub(crate) fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.put_u32(bytes.len() as u32);
    out.extend_from_slice(bytes);
    out.put_zeros(pad_len(bytes.len()));
}

/// Writes numbers and strings bare, flattening any nesting (a `Rect2` is four reals).
/// Its `Ok` is the number of leaves written, which NodePath uses as its name count.
pub(crate) struct ScalarSink<'o> {
    out: &'o mut Vec<u8>,
    /// Reals (`f32` fields of math types) are written as f64: a Godot 4 double build.
    wide: bool,
    /// Strings are `PackedStringArray` elements (length + 1 and a NUL).
    packed_strings: bool,
}

impl<'o> ScalarSink<'o> {
    pub fn new(out: &'o mut Vec<u8>, wide: bool) -> Self {
        ScalarSink {
            out,
            wide,
            packed_strings: false,
        }
    }

    fn reborrow(&mut self) -> ScalarSink<'_> {
        ScalarSink {
            out: self.out,
            wide: self.wide,
            packed_strings: self.packed_strings,
        }
    }
}

/// A flattened group being written by a [`ScalarSink`].
pub(crate) struct ScalarGroup<'o> {
    sink: ScalarSink<'o>,
    leaves: usize,
}

impl ScalarGroup<'_> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.leaves += value.serialize(self.sink.reborrow())?;
        Ok(())
    }
}

macro_rules! group_impls {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for ScalarGroup<'_> {
            type Ok = usize;
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.push(value)
            }
            fn end(self) -> Result<usize> {
                Ok(self.leaves)
            }
        }
    )*};
}
group_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeStruct for ScalarGroup<'_> {
    type Ok = usize;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<()> {
        self.push(value)
    }
    fn end(self) -> Result<usize> {
        Ok(self.leaves)
    }
}

impl<'o> ser::Serializer for ScalarSink<'o> {
    type Ok = usize;
    type Error = Error;
    type SerializeSeq = ScalarGroup<'o>;
    type SerializeTuple = ScalarGroup<'o>;
    type SerializeTupleStruct = ScalarGroup<'o>;
    type SerializeTupleVariant = Impossible<usize, Error>;
    type SerializeMap = Impossible<usize, Error>;
    type SerializeStruct = ScalarGroup<'o>;
    type SerializeStructVariant = Impossible<usize, Error>;

    fn serialize_f32(self, v: f32) -> Result<usize> {
        if self.wide {
            self.out.put_f64(v.into());
        } else {
            self.out.put_f32(v);
        }
        Ok(1)
    }
    fn serialize_f64(self, v: f64) -> Result<usize> {
        // f64 leaves are PackedFloat64Array elements: always 8 bytes.
        self.out.put_f64(v);
        Ok(1)
    }
    fn serialize_u32(self, v: u32) -> Result<usize> {
        self.out.put_u32(v);
        Ok(1)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<usize> {
        put_bytes(self.out, v);
        Ok(1)
    }
    fn serialize_i32(self, v: i32) -> Result<usize> {
        self.out.put_u32(v as u32);
        Ok(1)
    }
    fn serialize_i64(self, v: i64) -> Result<usize> {
        self.out.put_u64(v as u64);
        Ok(1)
    }
    fn serialize_u64(self, v: u64) -> Result<usize> {
        self.out.put_u64(v);
        Ok(1)
    }
    fn serialize_str(self, v: &str) -> Result<usize> {
        check_text(v)?;
        if self.packed_strings {
            self.out.put_packed_string(v);
        } else {
            self.out.put_string(v);
        }
        Ok(1)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<ScalarGroup<'o>> {
        Ok(ScalarGroup {
            sink: self,
            leaves: 0,
        })
    }
    fn serialize_tuple(self, _: usize) -> Result<ScalarGroup<'o>> {
        Ok(ScalarGroup {
            sink: self,
            leaves: 0,
        })
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<ScalarGroup<'o>> {
        Ok(ScalarGroup {
            sink: self,
            leaves: 0,
        })
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<ScalarGroup<'o>> {
        Ok(ScalarGroup {
            sink: self,
            leaves: 0,
        })
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<usize> {
        value.serialize(self)
    }
    reject!(usize; bool i8 i16 u8 u16 char none some unit unit_struct unit_variant
        newtype_variant tuple_variant map struct_variant);
}

/// Writes a packed array's payload: the count, then each element bare.
///
/// The arrays of numbers and vectors come through the bulk protocol of
/// [`crate::types::packed::raw`]: a newtype of that module's `NAME`, whose content, once
/// asked with `raw::request`, is a sequence of a `u64` (bytes to reserve) and blocks of
/// payload bytes. Anything else (a `PackedStringArray`, a user's type with a packed name)
/// is written element by element.
pub(crate) struct PackedSink<'o> {
    out: &'o mut Vec<u8>,
    wide: bool,
    /// Inside the bulk newtype: the sequence carries blocks of payload bytes.
    raw: bool,
}

impl<'o> PackedSink<'o> {
    pub fn new(out: &'o mut Vec<u8>, wide: bool) -> Self {
        PackedSink {
            out,
            wide,
            raw: false,
        }
    }
}

/// The elements of a packed array being written.
pub(crate) struct PackedElements<'o> {
    out: &'o mut Vec<u8>,
    wide: bool,
    count_at: usize,
    count: u32,
    /// Elements are blocks of payload bytes (the count is known up front).
    raw: bool,
}

impl ser::SerializeSeq for PackedElements<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.raw {
            return value.serialize(RawBlocks(self.out));
        }
        let sink = ScalarSink {
            out: self.out,
            wide: self.wide,
            packed_strings: true,
        };
        value.serialize(sink)?;
        self.count += 1;
        Ok(())
    }
    fn end(self) -> Result<()> {
        self.out.patch_u32(self.count_at, self.count);
        Ok(())
    }
}

impl<'o> ser::Serializer for PackedSink<'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = PackedElements<'o>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        put_bytes(self.out, v);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if name != crate::types::packed::raw::NAME || self.raw {
            return Err(unexpected("a newtype"));
        }
        let wide = self.wide;
        let sink = PackedSink {
            out: self.out,
            wide,
            raw: true,
        };
        crate::types::packed::raw::request(wide, || value.serialize(sink))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<PackedElements<'o>> {
        let count_at = self.out.len();
        let count = if self.raw {
            // `Raw` sends its exact length, checked to fit the engine's i32 count.
            let len = len.ok_or_else(|| unexpected("a packed array of unknown length"))?;
            u32::try_from(len).map_err(|_| unexpected("a packed array past u32"))?
        } else {
            if let Some(len) = len {
                // Reserve the payload for 4-byte elements (strings grow as needed).
                self.out.reserve(len.saturating_mul(4).saturating_add(4));
            }
            0
        };
        self.out.put_u32(count);
        Ok(PackedElements {
            out: self.out,
            wide: self.wide,
            count_at,
            count,
            raw: self.raw,
        })
    }
    reject!((); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str none some unit unit_struct
        unit_variant newtype_variant tuple tuple_struct tuple_variant map struct
        struct_variant);
}

/// One element of a bulk packed array's sequence (see [`PackedSink`]): a `u64` is the
/// payload's size in bytes, reserved before the blocks come; bytes are appended as they are.
struct RawBlocks<'o>(&'o mut Vec<u8>);

impl ser::Serializer for RawBlocks<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_u64(self, total: u64) -> Result<()> {
        let total = usize::try_from(total).unwrap_or(usize::MAX);
        self.0
            .try_reserve(total)
            .map_err(|_| unexpected("a packed array larger than memory"))
    }
    fn serialize_bytes(self, block: &[u8]) -> Result<()> {
        self.0.extend_from_slice(block);
        Ok(())
    }
    reject!((); bool i8 i16 i32 i64 u8 u16 u32 f32 f64 char str none some unit unit_struct
        unit_variant newtype_struct newtype_variant seq tuple tuple_struct tuple_variant map
        struct struct_variant);
}

/// A small value captured whole: a bool, a string, or an enum variant with its payload.
/// Used for the few builtin fields that decide what is written before them.
#[derive(Debug)]
enum Captured {
    Bool(bool),
    U64(u64),
    Str(String),
    Variant(u32, Option<Box<Captured>>),
}

struct Capture;

impl ser::Serializer for Capture {
    type Ok = Captured;
    type Error = Error;
    type SerializeSeq = Impossible<Captured, Error>;
    type SerializeTuple = Impossible<Captured, Error>;
    type SerializeTupleStruct = Impossible<Captured, Error>;
    type SerializeTupleVariant = Impossible<Captured, Error>;
    type SerializeMap = Impossible<Captured, Error>;
    type SerializeStruct = Impossible<Captured, Error>;
    type SerializeStructVariant = Impossible<Captured, Error>;

    fn serialize_bool(self, v: bool) -> Result<Captured> {
        Ok(Captured::Bool(v))
    }
    fn serialize_str(self, v: &str) -> Result<Captured> {
        Ok(Captured::Str(v.to_owned()))
    }
    fn serialize_u64(self, v: u64) -> Result<Captured> {
        Ok(Captured::U64(v))
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
    ) -> Result<Captured> {
        Ok(Captured::Variant(index, None))
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<Captured> {
        Ok(Captured::Variant(
            index,
            Some(Box::new(value.serialize(Capture)?)),
        ))
    }
    reject!(Captured; i8 i16 i32 i64 u8 u16 u32 f32 f64 char bytes none some unit unit_struct
        newtype_struct seq tuple tuple_struct tuple_variant map struct struct_variant);
}

/// The u64 inside a `Rid` or `ObjectId`.
pub(crate) fn capture_u64<T: Serialize + ?Sized>(value: &T) -> Result<u64> {
    match value.serialize(Capture)? {
        Captured::U64(v) => Ok(v),
        _ => Err(unexpected("a non-u64 id")),
    }
}

fn capture_element_type<T: Serialize + ?Sized>(value: &T) -> Result<ElementType> {
    let bad = || unexpected("an unknown element type");
    Ok(match value.serialize(Capture)? {
        Captured::Variant(0, None) => ElementType::Untyped,
        Captured::Variant(1, Some(inner)) => match *inner {
            Captured::Variant(index, None) => {
                ElementType::Builtin(VariantType::from_index(index).ok_or_else(bad)?)
            }
            _ => return Err(bad()),
        },
        Captured::Variant(2, Some(inner)) => match *inner {
            Captured::Str(name) => ElementType::ClassName(name),
            _ => return Err(bad()),
        },
        Captured::Variant(3, Some(inner)) => match *inner {
            Captured::Str(path) => ElementType::Script(path),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    })
}

/// The Godot 4 container-type kind (FORMAT.md §2.2).
fn container_kind(t: &ElementType) -> u32 {
    match t {
        ElementType::Untyped => 0,
        ElementType::Builtin(_) => 1,
        ElementType::ClassName(_) => 2,
        ElementType::Script(_) => 3,
    }
}

fn element_type_id(ser: &Serializer<'_>, ty: VariantType) -> Result<u32> {
    ser.spec
        .id_of(ty)
        .ok_or_else(|| unexpected("an element type outside the dialect"))
}

/// Godot 4 type data: nothing, a type id, or a class name / script path.
fn put_container_type(ser: &mut Serializer<'_>, t: &ElementType) -> Result<()> {
    match t {
        ElementType::Untyped => {}
        ElementType::Builtin(ty) => {
            let id = element_type_id(ser, *ty)?;
            ser.out.put_u32(id);
        }
        ElementType::ClassName(s) | ElementType::Script(s) => ser.out.put_string(s),
    }
    Ok(())
}

/// The class name Pandemonium 5 and Godot 4 use for objects sent as ids.
const OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// Writes the header and type data of an Array (`ty` Array or PackedTypedArray) or a
/// Dictionary, as the dialect marks element types, and returns the bits to OR into the
/// count (Godot 2's shared flag).
fn container_header(
    ser: &mut Serializer<'_>,
    ty: VariantType,
    types: (&ElementType, &ElementType),
    shared: bool,
) -> Result<u32> {
    let cannot = |what: &str| -> Error {
        ErrorKind::Unsupported(format!("{what} do not exist in {}", ser.config.dialect)).into()
    };
    if shared && !ser.spec.shared_bit {
        return Err(cannot("shared containers"));
    }
    let shared_bit = if shared { COUNT_SHARED } else { 0 };
    let (first, second) = types;
    let untyped = first.is_untyped() && second.is_untyped();
    match (ty, ser.spec.typed_arrays) {
        (VariantType::Dictionary | VariantType::Array, _) if untyped => ser.header(ty, 0)?,
        (VariantType::Dictionary, _) if ser.spec.typed_dictionaries => {
            let flags = container_kind(first) << 16 | container_kind(second) << 18;
            ser.header(ty, flags)?;
            put_container_type(ser, first)?;
            put_container_type(ser, second)?;
        }
        (VariantType::Array, TypedArrays::HeaderBits) => {
            ser.header(ty, container_kind(first) << 16)?;
            put_container_type(ser, first)?;
        }
        (VariantType::Array | VariantType::PackedTypedArray, TypedArrays::OwnType) => {
            // Pandemonium 5 (FORMAT.md §5.3): the element type id; for objects, the class
            // as a nested StringName, or header bit 16 for objects sent as ids.
            let own = if ty == VariantType::Array {
                VariantType::TypedArray
            } else {
                ty
            };
            match first {
                ElementType::Builtin(t) => {
                    ser.header(own, 0)?;
                    let id = element_type_id(ser, *t)?;
                    ser.out.put_u32(id);
                }
                ElementType::ClassName(class) => {
                    let as_id = class == OBJECT_AS_ID;
                    ser.header(own, if as_id { FLAG_64 } else { 0 })?;
                    let id = element_type_id(ser, VariantType::Object)?;
                    ser.out.put_u32(id);
                    if !as_id {
                        ser.header(VariantType::StringName, 0)?;
                        ser.out.put_string(class);
                    }
                }
                ElementType::Untyped | ElementType::Script(_) => {
                    return Err(cannot("untyped or script-typed TypedArrays"))
                }
            }
        }
        _ => return Err(cannot("typed containers")),
    }
    Ok(shared_bit)
}

/// Where a builtin struct's fields go.
enum FieldState {
    Fixed {
        wide: bool,
    },
    NodePath {
        words_at: usize,
        names: usize,
        subnames: usize,
        absolute: bool,
    },
    Object {
        null: bool,
    },
    InputEvent {
        length_at: usize,
    },
    Container {
        ty: VariantType,
        // Boxed: the rare typed container would otherwise make every builtin's state (and
        // every struct's `Compound`) several words larger.
        types: Box<[ElementType; 2]>,
        shared: bool,
    },
}

/// The fields of a builtin struct being written.
pub struct BuiltinFields<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    state: FieldState,
}

impl<'s, 'a> BuiltinFields<'s, 'a> {
    /// [`BuiltinFields::begin`] for a fixed-size builtin (the math types): the header.
    /// Small and inlined into `serialize_struct`, so that the caller builds the result in
    /// place (returned through memory, it stalled on store forwarding per value).
    #[inline(always)]
    pub(crate) fn fixed(ser: &'s mut Serializer<'a>, b: &'static Builtin) -> Result<Self> {
        let wide = ser.wide_reals(b);
        ser.header(b.ty, b.header_flags(ser.spec, ser.config.double_precision))?;
        Ok(BuiltinFields {
            ser,
            state: FieldState::Fixed { wide },
        })
    }

    /// Writes what comes before the fields (the header, unless a field decides it).
    pub(crate) fn begin(ser: &'s mut Serializer<'a>, b: &'static Builtin) -> Result<Self> {
        let state = match b.form {
            Form::Fixed(_) => return Self::fixed(ser, b),
            Form::NodePath => {
                ser.header(b.ty, 0)?;
                let words_at = ser.out.len();
                ser.out.put_zeros(12);
                FieldState::NodePath {
                    words_at,
                    names: 0,
                    subnames: 0,
                    absolute: false,
                }
            }
            Form::Object if ser.spec.objects == ObjectForm::HeaderOnly => {
                return Err(unexpected(
                    "a full object (Godot 2 sends objects as the type alone)",
                ))
            }
            Form::Object => {
                ser.header(b.ty, 0)?;
                FieldState::Object { null: false }
            }
            Form::TypedArray | Form::TypedDictionary => FieldState::Container {
                ty: b.ty,
                types: Default::default(),
                shared: false,
            },
            Form::InputEvent => {
                ser.header(b.ty, 0)?;
                FieldState::InputEvent { length_at: 0 }
            }
            Form::Packed(_) | Form::Bytes => return Err(unexpected("a packed array as a struct")),
        };
        Ok(BuiltinFields { ser, state })
    }

    pub(crate) fn field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        let ser = &mut *self.ser;
        match (&mut self.state, key) {
            (FieldState::Fixed { wide }, "format") => {
                // A Godot 2 Image format past FORMAT_MAX would not decode (FORMAT.md §4.5).
                let at = ser.out.len();
                value.serialize(ScalarSink::new(&mut ser.out, *wide))?;
                if read_u32(&ser.out, at) >= crate::Image::FORMAT_MAX {
                    return Err(unexpected("an Image format at or past FORMAT_MAX"));
                }
            }
            (FieldState::Fixed { wide }, _) => {
                value.serialize(ScalarSink::new(&mut ser.out, *wide))?;
            }
            (FieldState::NodePath { names, .. }, "names") => {
                *names = value.serialize(ScalarSink::new(&mut ser.out, false))?
            }
            (FieldState::NodePath { subnames, .. }, "subnames") => {
                *subnames = value.serialize(ScalarSink::new(&mut ser.out, false))?
            }
            (FieldState::NodePath { absolute, .. }, "absolute") => {
                match value.serialize(Capture)? {
                    Captured::Bool(b) => *absolute = b,
                    _ => return Err(unexpected("a non-bool `absolute`")),
                }
            }
            (FieldState::Object { null }, "class_name") => match value.serialize(Capture)? {
                Captured::Str(class) => {
                    *null = class.is_empty();
                    ser.out.put_string(&class);
                }
                _ => return Err(unexpected("a non-string class name")),
            },
            (FieldState::Object { null }, "properties") => {
                value.serialize(PairsSink {
                    ser,
                    names_first: true,
                    no_count: *null,
                    count_flags: 0,
                })?;
            }
            (FieldState::InputEvent { length_at }, "event_type" | "device") => {
                value.serialize(ScalarSink::new(&mut ser.out, false))?;
                if key == "device" {
                    // The payload length, patched once the extra words are counted.
                    *length_at = ser.out.len();
                    ser.out.put_u32(0);
                }
            }
            (FieldState::InputEvent { length_at }, "extra") => {
                let words = value.serialize(ScalarSink::new(&mut ser.out, false))?;
                // The decoder reads as many words as the event type has (FORMAT.md §4.6).
                let event_type = read_u32(&ser.out, *length_at - 8);
                if crate::types::godot2::InputEvent::extra_words(event_type, words == 2) != words {
                    return Err(unexpected(
                        "an InputEvent whose extra words do not fit its type",
                    ));
                }
                ser.out.patch_u32(*length_at, 12 + 4 * words as u32);
            }
            (FieldState::Container { types, .. }, "element_type" | "key_type") => {
                types[0] = capture_element_type(value)?
            }
            (FieldState::Container { types, .. }, "value_type") => {
                types[1] = capture_element_type(value)?
            }
            (FieldState::Container { shared, .. }, "shared") => match value.serialize(Capture)? {
                Captured::Bool(b) => *shared = b,
                _ => return Err(unexpected("a non-bool `shared`")),
            },
            (FieldState::Container { ty, types, shared }, "items") => {
                let count_flags = container_header(ser, *ty, (&types[0], &types[1]), *shared)?;
                value.serialize(ItemsSink { ser, count_flags })?;
            }
            (FieldState::Container { ty, types, shared }, "entries") => {
                let count_flags = container_header(ser, *ty, (&types[0], &types[1]), *shared)?;
                value.serialize(PairsSink {
                    ser,
                    names_first: false,
                    no_count: false,
                    count_flags,
                })?;
            }
            (_, other) => return Err(unexpected(other)),
        }
        Ok(())
    }

    pub(crate) fn finish(self) -> Result<()> {
        if let FieldState::NodePath {
            words_at,
            names,
            subnames,
            absolute,
        } = self.state
        {
            // Godot 2 sends the last subname as its separate property (flag bit 1).
            let property = self.ser.spec.nodepath_property && subnames > 0;
            let flags = absolute as u32 | (property as u32) << 1;
            let out = &mut self.ser.out;
            out.patch_u32(words_at, names as u32 | NODEPATH_NEW_FORMAT);
            out.patch_u32(words_at + 4, (subnames - property as usize) as u32);
            out.patch_u32(words_at + 8, flags);
        }
        Ok(())
    }
}

/// A typed array's items: an Array payload without its header.
struct ItemsSink<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    count_flags: u32,
}

impl<'s, 'a> ser::Serializer for ItemsSink<'s, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'a>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'s, 'a>> {
        let count_at = self.ser.out.len();
        self.ser.out.put_u32(0);
        self.ser.enter();
        Ok(Compound::counted(self.ser, count_at, 1).with_count_flags(self.count_flags))
    }
    reject!((); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none some unit
        unit_struct unit_variant newtype_struct newtype_variant tuple tuple_struct tuple_variant
        map struct struct_variant);
}

/// A list of pairs written as count + (first, second)...: object properties (a bare name,
/// then a value) or typed-dictionary entries (a key value, then a value).
struct PairsSink<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    names_first: bool,
    /// The null object form carries no property count.
    no_count: bool,
    /// Bits ORed into the count (Godot 2's shared flag).
    count_flags: u32,
}

/// The pairs being written by a [`PairsSink`].
pub struct Pairs<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    names_first: bool,
    no_count: bool,
    count_flags: u32,
    count_at: usize,
    count: u32,
}

impl ser::SerializeSeq for Pairs<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.no_count {
            return Err(unexpected("properties on a null object"));
        }
        self.count += 1;
        value.serialize(PairSink {
            ser: self.ser,
            name_first: self.names_first,
        })
    }
    fn end(self) -> Result<()> {
        if !self.no_count {
            self.ser
                .out
                .patch_u32(self.count_at, self.count | self.count_flags);
        }
        self.ser.leave(1);
        Ok(())
    }
}

impl<'s, 'a> ser::Serializer for PairsSink<'s, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Pairs<'s, 'a>;
    type SerializeTuple = Impossible<(), Error>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_seq(self, _: Option<usize>) -> Result<Pairs<'s, 'a>> {
        let count_at = self.ser.out.len();
        if !self.no_count {
            self.ser.out.put_u32(0);
        }
        self.ser.enter();
        Ok(Pairs {
            ser: self.ser,
            names_first: self.names_first,
            no_count: self.no_count,
            count_flags: self.count_flags,
            count_at,
            count: 0,
        })
    }
    reject!((); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none some unit
        unit_struct unit_variant newtype_struct newtype_variant tuple tuple_struct tuple_variant
        map struct struct_variant);
}

/// One `(first, second)` pair of a [`PairsSink`].
struct PairSink<'p, 'a> {
    ser: &'p mut Serializer<'a>,
    name_first: bool,
}

/// The two halves of a pair being written.
pub struct PairHalves<'p, 'a> {
    ser: &'p mut Serializer<'a>,
    name_first: bool,
    index: usize,
}

impl ser::SerializeTuple for PairHalves<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let bare_name = self.index == 0 && self.name_first;
        self.index += 1;
        if bare_name {
            value
                .serialize(ScalarSink::new(&mut self.ser.out, false))
                .map(drop)
        } else {
            self.ser.nested(value)
        }
    }
    fn end(self) -> Result<()> {
        match self.index {
            2 => Ok(()),
            _ => Err(unexpected("a pair without two halves")),
        }
    }
}

impl<'p, 'a> ser::Serializer for PairSink<'p, 'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Impossible<(), Error>;
    type SerializeTuple = PairHalves<'p, 'a>;
    type SerializeTupleStruct = Impossible<(), Error>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = Impossible<(), Error>;
    type SerializeStructVariant = Impossible<(), Error>;

    fn serialize_tuple(self, _: usize) -> Result<PairHalves<'p, 'a>> {
        Ok(PairHalves {
            ser: self.ser,
            name_first: self.name_first,
            index: 0,
        })
    }
    reject!((); bool i8 i16 i32 i64 u8 u16 u32 u64 f32 f64 char str bytes none some unit
        unit_struct unit_variant newtype_struct newtype_variant seq tuple_struct tuple_variant
        map struct struct_variant);
}
