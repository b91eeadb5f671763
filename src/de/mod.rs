//! The serde [`Deserializer`]: Variant packets in, serde's data model out.
//!
//! The format is self-describing, so `deserialize_any` presents whatever the packet holds;
//! the typed entry points add range checks for numbers and recognise the builtin types by
//! their private serde names (see [`crate::builtin`]).

mod access;
mod container;
mod payload;

use crate::builtin::{self, Builtin, Form, Shape, OBJECT_ID};
use crate::config::Config;
use crate::dialect::{DialectSpec, ObjectForm, VariantType};
use crate::error::{Error, ErrorKind, Result};
use crate::variant;
use crate::wire::{container_count_of, Reader, FLAG_64, MIN_ENTRY_SIZE};
use access::{ArrayAccess, DictionaryAccess, EnumAccess};
use payload::{BytesDe, PackedDe, PayloadDe};
use serde::de::{self, Visitor};

/// Nesting levels that never need a stack check.
pub(crate) const SHALLOW: usize = 32;
/// Stack left below which a nesting level gets a fresh segment (above the ~150 KiB one
/// level of `Variant` encoding takes in an AddressSanitizer build)...
pub(crate) const STACK_RED_ZONE: usize = 256 << 10;
/// ...of this size.
pub(crate) const STACK_SEGMENT: usize = 4 << 20;

/// A packet's header word, decoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub ty: VariantType,
    pub flags: u32,
    /// Offset of the header in the input.
    pub at: usize,
}

impl Header {
    fn wide(&self) -> bool {
        self.flags & FLAG_64 != 0
    }
}

/// Reads Variant packets from a byte slice, borrowing strings and bytes from it.
///
/// Most callers want [`from_slice`](crate::from_slice) or [`Config::from_slice`]; this
/// type is for driving serde by hand.
///
/// ```
/// use serde::Deserialize;
/// let cfg = godot_bin::Config::default();
/// let bytes = [4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0];
/// let mut de = godot_bin::Deserializer::from_slice(&bytes, &cfg)?;
/// let s = <&str>::deserialize(&mut de)?;
/// assert_eq!(s, "hi");
/// assert!(de.remaining().is_empty());
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub struct Deserializer<'de> {
    pub(crate) reader: Reader<'de>,
    pub(crate) spec: &'static DialectSpec,
    pub(crate) config: Config,
    /// Nesting depth of the value read next (the top level is 0).
    depth: usize,
    /// Where NodePath padding lies, when recording (see [`nodepath_padding`]).
    pub(crate) nodepath_pads: Option<Vec<std::ops::Range<usize>>>,
    /// Container elements that may still be reserved ahead of their arrival, for the whole
    /// packet (see [`Deserializer::prealloc`]).
    prealloc_budget: std::cell::Cell<usize>,
    /// The bits of a header word that name its type in this dialect (FORMAT.md §1.4)...
    type_mask: u32,
    /// ...and what they are for the packets the fast paths read (see
    /// [`Deserializer::peek_plain`]).
    ids: PlainIds,
}

/// This dialect's ids of the packet types most values are made of.
struct PlainIds {
    string: u32,
    int: u32,
    float: u32,
    dictionary: u32,
}

impl PlainIds {
    fn of(spec: &DialectSpec) -> Self {
        let id = |ty| spec.id_of(ty).expect("every dialect has the basic types");
        PlainIds {
            string: id(VariantType::String),
            int: id(VariantType::Int),
            float: id(VariantType::Float),
            dictionary: id(VariantType::Dictionary),
        }
    }
}

impl<'de> Deserializer<'de> {
    /// A deserializer reading `input` in `config`'s dialect.
    pub fn from_slice(input: &'de [u8], config: &Config) -> Result<Self> {
        let spec = config.spec()?;
        Ok(Deserializer {
            reader: Reader::new(input),
            spec,
            config: config.clone(),
            depth: 0,
            nodepath_pads: None,
            prealloc_budget: std::cell::Cell::new(input.len() / 16),
            // Godot 2 compares the whole word with VARIANT_MAX: any flag bit is refused.
            type_mask: if spec.header_flags { 0xFF } else { !0 },
            ids: PlainIds::of(spec),
        })
    }

    /// The input not consumed yet.
    pub fn remaining(&self) -> &'de [u8] {
        self.reader.rest()
    }

    /// Reads a header: the type is the low 8 bits (FORMAT.md §1.4), refused at or past the
    /// dialect's `VARIANT_MAX`; the other bits are flags.
    #[inline]
    pub(crate) fn header(&mut self) -> Result<Header> {
        let at = self.reader.pos();
        if self.depth > self.config.max_depth {
            return Err(self
                .reader
                .error(ErrorKind::DepthExceeded(self.config.max_depth)));
        }
        let word = self.reader.u32()?;
        let id = word & self.type_mask;
        let ty = self.spec.type_of(id).ok_or_else(|| {
            self.reader.error_at(
                ErrorKind::UnknownTypeId {
                    id,
                    dialect: self.config.dialect,
                },
                at,
            )
        })?;
        Ok(Header {
            ty,
            flags: word & !0xFF,
            at,
        })
    }

    /// The text of the next packet when it is a whole, valid STRING, read without the
    /// general header path (field names and string fields are most of a struct's packets);
    /// `None`, having read nothing, otherwise, so that the general path reads the packet and
    /// reports any error. (An `Option<&str>` comes back in registers.)
    #[inline]
    fn plain_string(&mut self) -> Option<&'de str> {
        self.peek_plain(self.ids.string)?;
        let at = self.reader.pos();
        self.reader.advance(4);
        let text = self.reader.valid_string();
        if text.is_none() {
            self.reader.rewind(at);
        }
        text
    }

    /// The header word of the next packet when its type is `id` and the depth limit is
    /// not passed; `None`, having read nothing, otherwise. The fast paths of the most
    /// common packets start here and leave everything else to [`Deserializer::header`].
    #[inline]
    fn peek_plain(&self, id: u32) -> Option<u32> {
        let word = self.reader.peek_u32()?;
        (word & self.type_mask == id && self.depth <= self.config.max_depth).then_some(word)
    }

    /// An INT's value and the offset of its header when the next packet is a whole INT
    /// (see [`Deserializer::peek_plain`]); `None`, having read nothing, otherwise. The
    /// shortcuts return plain `Option`s, which come back in registers.
    #[inline]
    fn plain_int(&mut self) -> Option<(i64, usize)> {
        let word = self.peek_plain(self.ids.int)?;
        let at = self.reader.pos();
        let (value, size) = if word & FLAG_64 != 0 {
            let b: [u8; 12] = self.reader.peek_array()?;
            let v = i64::from_le_bytes([b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11]]);
            (v, 12)
        } else {
            let b: [u8; 8] = self.reader.peek_array()?;
            (i32::from_le_bytes([b[4], b[5], b[6], b[7]]).into(), 8)
        };
        self.reader.advance(size);
        Some((value, at))
    }

    /// A FLOAT's value when the next packet is a whole FLOAT (see
    /// [`Deserializer::plain_int`]).
    #[inline]
    fn plain_float(&mut self) -> Option<f64> {
        let word = self.peek_plain(self.ids.float)?;
        if word & FLAG_64 != 0 {
            let b: [u8; 12] = self.reader.peek_array()?;
            self.reader.advance(12);
            Some(f64::from_le_bytes([
                b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
            ]))
        } else {
            let b: [u8; 8] = self.reader.peek_array()?;
            self.reader.advance(8);
            Some(f32::from_le_bytes([b[4], b[5], b[6], b[7]]).into())
        }
    }

    /// The entry count when the next packet is a DICTIONARY with no flags (no typed keys or
    /// values: what every struct is) whose count the bytes left can hold (see
    /// [`Deserializer::plain_int`]).
    #[inline]
    fn plain_dictionary(&mut self) -> Option<usize> {
        let word = self.peek_plain(self.ids.dictionary)?;
        if word != self.ids.dictionary {
            return None;
        }
        let b: [u8; 8] = self.reader.peek_array()?;
        let word = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        let count = container_count_of(word, MIN_ENTRY_SIZE, self.reader.rest().len() - 8)?;
        self.reader.advance(8);
        Some(count)
    }

    /// Presents `{variant: content}`, a Dictionary whose count, read at `count_at`, must
    /// be 1, as an externally tagged enum.
    fn enum_entry<V: Visitor<'de>>(
        &mut self,
        count: usize,
        count_at: usize,
        visitor: V,
    ) -> Result<V::Value> {
        if count != 1 {
            return Err(self.reader.error_at(
                ErrorKind::InvalidData("an enum needs a one-entry Dictionary {variant: content}"),
                count_at,
            ));
        }
        self.nest(|de| visitor.visit_enum(EnumAccess { de }))
    }

    /// Whether an OBJECT packet holds an id (bit 16; every Godot 2 object, which carries
    /// nothing and reads as id 0).
    fn object_as_id(&self, h: &Header) -> bool {
        h.wide() || self.spec.objects == ObjectForm::HeaderOnly
    }

    /// The next header, without consuming it.
    fn peek_header(&mut self) -> Result<Header> {
        let saved = self.reader.clone();
        let header = self.header();
        self.reader = saved;
        header
    }

    /// How many elements to reserve for a container that claims `count`. The claim was
    /// checked against the bytes left, but nested containers all claim the same bytes, so
    /// reservations share one budget for the whole packet, one element per 16 input bytes:
    /// past it, containers grow as their elements arrive, and no packet, however it lies,
    /// makes the decoder reserve more than a small multiple of its own size.
    pub(crate) fn prealloc(&self, count: usize) -> usize {
        let n = count.min(self.prealloc_budget.get());
        self.prealloc_budget.set(self.prealloc_budget.get() - n);
        n
    }

    /// Runs `f` one nesting level deeper. Past a few levels the stack is grown on demand
    /// (`stacker`), so that the depth limit, not the thread's stack, ends a deep packet:
    /// each level costs a few KiB of stack in debug builds, and a server thread may have
    /// only 2 MiB.
    #[inline]
    pub(crate) fn nest<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        self.depth += 1;
        let result = if self.depth < SHALLOW {
            f(self)
        } else {
            self.nest_deep(f)
        };
        self.depth -= 1;
        result
    }

    /// [`Deserializer::nest`] past the shallow levels, kept out of the hot path.
    #[cold]
    #[inline(never)]
    fn nest_deep<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || f(self))
    }

    /// Bytes per real in a math payload with this header: 8 only for a flagged Godot 4
    /// packet (Godot 3 and Pandemonium read f32 whatever the flag says).
    fn real_size(&self, h: &Header, ty: VariantType) -> usize {
        if h.wide() && self.spec.double_math_flag && ty.has_real_components() {
            8
        } else {
            4
        }
    }

    fn mismatch(&self, expected: impl Into<String>, h: &Header) -> Error {
        self.reader.error_at(
            ErrorKind::TypeMismatch {
                expected: expected.into(),
                found: h.ty,
            },
            h.at,
        )
    }

    /// Presents the payload of the packet whose header `h` was just read.
    fn visit_payload<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        let r = &mut self.reader;
        match h.ty {
            VariantType::Nil => visitor.visit_unit(),
            VariantType::Bool => visitor.visit_bool(r.u32()? != 0),
            VariantType::Int if h.wide() => visitor.visit_i64(r.i64()?),
            VariantType::Int => visitor.visit_i64(r.i32()?.into()),
            VariantType::Float if h.wide() => visitor.visit_f64(r.f64()?),
            VariantType::Float => visitor.visit_f64(r.f32()?.into()),
            VariantType::String => visitor.visit_borrowed_str(r.string()?),
            VariantType::Array | VariantType::TypedArray | VariantType::PackedTypedArray => {
                let head = self.container_head(&h)?;
                ArrayAccess::visit(self, head.count, visitor)
            }
            VariantType::Dictionary => {
                let head = self.container_head(&h)?;
                DictionaryAccess::visit(self, head.count, visitor)
            }
            VariantType::Object if self.object_as_id(&h) => {
                let b = builtin::by_name(OBJECT_ID).expect("in the table");
                self.builtin_payload(b, h, visitor, false)
            }
            ty => {
                let b = builtin::by_type(ty).ok_or_else(|| self.mismatch("a known type", &h))?;
                self.builtin_payload(b, h, visitor, false)
            }
        }
    }

    /// Reads a packet that must be the builtin `b` and presents it.
    fn builtin<V: Visitor<'de>>(
        &mut self,
        b: &'static Builtin,
        visitor: V,
        newtype: bool,
    ) -> Result<V::Value> {
        let h = self.header()?;
        let as_id = b.name == OBJECT_ID;
        if h.ty != b.ty || (h.ty == VariantType::Object && self.object_as_id(&h) != as_id) {
            return Err(self.mismatch(b.name.trim_start_matches("$godot_bin::"), &h));
        }
        self.builtin_payload(b, h, visitor, newtype)
    }

    /// Presents a builtin's payload; `newtype` wraps it for a newtype struct's visitor.
    fn builtin_payload<V: Visitor<'de>>(
        &mut self,
        b: &'static Builtin,
        h: Header,
        visitor: V,
        newtype: bool,
    ) -> Result<V::Value> {
        let real = self.real_size(&h, b.ty);
        match b.form {
            Form::Fixed(_) => {
                let shape = b.fixed_shape(self.spec).expect("fixed form");
                if let Shape::Group([]) = shape {
                    // Callable: the type alone.
                    return visitor.visit_unit();
                }
                let payload = PayloadDe::new(self, shape, real);
                if newtype {
                    visitor.visit_newtype_struct(payload)
                } else {
                    de::Deserializer::deserialize_any(payload, visitor)
                }
            }
            Form::Packed(elem) => {
                let packed = PackedDe::read(self, elem, real)?;
                if newtype {
                    visitor.visit_newtype_struct(packed)
                } else {
                    de::Deserializer::deserialize_any(packed, visitor)
                }
            }
            Form::Bytes => {
                let bytes = BytesDe::read(self)?;
                if newtype {
                    visitor.visit_newtype_struct(bytes)
                } else {
                    de::Deserializer::deserialize_any(bytes, visitor)
                }
            }
            Form::NodePath => payload::visit_node_path(self, visitor),
            Form::InputEvent => payload::visit_input_event(self, visitor),
            Form::Object => {
                if !self.config.allow_objects {
                    return Err(self.reader.error_at(ErrorKind::ObjectsNotAllowed, h.at));
                }
                payload::visit_object(self, visitor)
            }
            Form::TypedArray | Form::TypedDictionary => {
                Err(self.mismatch("a typed container via Variant", &h))
            }
        }
    }

    /// Decodes the next packet into a [`Variant`](crate::Variant), keeping every detail
    /// needed to re-encode the same bytes.
    pub(crate) fn decode_variant(&mut self) -> Result<crate::Variant> {
        use crate::Variant as V;
        let at = self.reader.pos();
        let h = self.header()?;
        Ok(match h.ty {
            VariantType::Array | VariantType::TypedArray => {
                V::Array(variant::decode_array(self, &h)?)
            }
            VariantType::PackedTypedArray => V::PackedTypedArray(variant::decode_array(self, &h)?),
            VariantType::Dictionary => V::Dictionary(variant::decode_dictionary(self, &h)?),
            _ => self.decode_leaf(&h, at)?,
        })
    }

    /// Decodes a value that holds no nested Variants (only objects recurse, through their
    /// own deserializer), whose header `h`, at `at`, was just read. Kept out of
    /// [`Deserializer::decode_variant`], which recurses once per nesting level: inlined, its
    /// many arms made every level's stack frame several KiB in debug builds.
    #[inline(never)]
    fn decode_leaf(&mut self, h: &Header, at: usize) -> Result<crate::Variant> {
        use crate::Variant as V;
        use serde::Deserialize;
        let r = &mut self.reader;
        macro_rules! typed {
            ($($name:ident),*) => {{
                self.reader.rewind(at);
                match h.ty {
                    $(VariantType::$name => V::$name(Deserialize::deserialize(&mut *self)?),)*
                    VariantType::Object if self.object_as_id(h) => {
                        V::ObjectId(Deserialize::deserialize(&mut *self)?)
                    }
                    VariantType::Object => V::Object(Deserialize::deserialize(&mut *self)?),
                    _ => unreachable!("containers are decoded by decode_variant"),
                }
            }};
        }
        Ok(match h.ty {
            VariantType::Nil => V::Nil,
            VariantType::Bool => V::Bool(r.u32()? != 0),
            VariantType::Int if h.wide() => V::Int(r.i64()?),
            VariantType::Int => V::Int(r.i32()?.into()),
            VariantType::Float if h.wide() => V::Float(r.f64()?),
            VariantType::Float => V::Float(r.f32()?.into()),
            VariantType::String => V::String(r.string()?.to_owned()),
            _ => crate::variant::for_each_plain_builtin!(typed),
        })
    }

    /// Reads an INT (or, for float targets, a FLOAT) for a typed number, checking range.
    fn number(&mut self) -> Result<(Header, Number)> {
        let h = self.header()?;
        let r = &mut self.reader;
        let n = match h.ty {
            VariantType::Int if h.wide() => Number::Int(r.i64()?),
            VariantType::Int => Number::Int(r.i32()?.into()),
            VariantType::Float if h.wide() => Number::Float(r.f64()?),
            VariantType::Float => Number::Float(r.f32()?.into()),
            _ => Number::Other,
        };
        Ok((h, n))
    }
}

enum Number {
    Int(i64),
    Float(f64),
    Other,
}

/// Typed integer entry points: an INT that does not fit the Rust type is a
/// `NumberOutOfRange` error naming both; other packet types go to `deserialize_any`, whose
/// visitor reports the type mismatch.
macro_rules! deserialize_int {
    ($($method:ident => $visit:ident: $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let out_of_range = |de: &Deserializer, v: i64, at| de.reader.error_at(
                ErrorKind::NumberOutOfRange { value: v.to_string(), target: stringify!($ty) },
                at,
            );
            if let Some((v, at)) = self.plain_int() {
                return match <$ty>::try_from(v) {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(out_of_range(self, v, at)),
                };
            }
            let start = self.reader.clone();
            match self.number()? {
                (h, Number::Int(v)) => match <$ty>::try_from(v) {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(out_of_range(self, v, h.at)),
                },
                _ => {
                    self.reader = start;
                    self.deserialize_any(visitor)
                }
            }
        }
    )*};
}

macro_rules! deserialize_float {
    ($($method:ident => $visit:ident: $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if let Some(v) = self.plain_float() {
                return visitor.$visit(v as $ty);
            }
            let start = self.reader.clone();
            match self.number()? {
                (_, Number::Float(v)) => visitor.$visit(v as $ty),
                (_, Number::Int(v)) => visitor.$visit(v as $ty),
                _ => {
                    self.reader = start;
                    self.deserialize_any(visitor)
                }
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        true
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.header()?;
        self.visit_payload(h, visitor)
    }

    deserialize_int!(
        deserialize_i8 => visit_i8: i8, deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32, deserialize_i64 => visit_i64: i64,
        deserialize_u8 => visit_u8: u8, deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32, deserialize_u64 => visit_u64: u64,
        deserialize_i128 => visit_i128: i128, deserialize_u128 => visit_u128: u128
    );
    deserialize_float!(deserialize_f32 => visit_f32: f32, deserialize_f64 => visit_f64: f64);

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek_header()?.ty == VariantType::Nil {
            self.header()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(text) = self.plain_string() {
            return visitor.visit_borrowed_str(text);
        }
        let h = self.header()?;
        match h.ty {
            VariantType::String | VariantType::StringName => {
                visitor.visit_borrowed_str(self.reader.string()?)
            }
            // serde's String visitor would take bytes as text, and bytes may hold what no
            // STRING packet can (a NUL): a string field is a STRING.
            VariantType::PackedByteArray => Err(self.mismatch("String", &h)),
            _ => self.visit_payload(h, visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match builtin::by_name(name) {
            Some(b) => self.builtin(b, visitor, false),
            None => self.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == variant::TOKEN {
            let value = self.decode_variant()?;
            return variant::hand_over(value, visitor);
        }
        match builtin::by_name(name) {
            Some(b) => self.builtin(b, visitor, true),
            None => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(b) = builtin::by_name(name) {
            return self.builtin(b, visitor, false);
        }
        if let Some(count) = self.plain_dictionary() {
            return DictionaryAccess::visit(self, count, visitor);
        }
        self.deserialize_any(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(name) = self.plain_string() {
            return visitor.visit_enum(de::value::BorrowedStrDeserializer::new(name));
        }
        let count_at = self.reader.pos() + 4;
        if let Some(count) = self.plain_dictionary() {
            return self.enum_entry(count, count_at, visitor);
        }
        let h = self.header()?;
        match h.ty {
            VariantType::String | VariantType::StringName => {
                let name = self.reader.string()?;
                visitor.visit_enum(de::value::BorrowedStrDeserializer::new(name))
            }
            VariantType::Dictionary => {
                let count_at = self.reader.pos();
                let count = self.container_head(&h)?.count;
                self.enum_entry(count, count_at, visitor)
            }
            _ => Err(self.mismatch("an enum (a String or a one-entry Dictionary)", &h)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(count) = self.plain_dictionary() {
            return DictionaryAccess::visit(self, count, visitor);
        }
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool char unit seq tuple tuple_struct ignored_any
    }
}

/// The byte ranges of NodePath padding in the packet at the start of `bytes`: the only
/// bytes real engines leave unwritten (godotengine/godot#44999), so that tests comparing
/// against engine output can ignore exactly them. Not part of the stable API.
#[doc(hidden)]
pub fn nodepath_padding(bytes: &[u8], config: &Config) -> Result<Vec<std::ops::Range<usize>>> {
    let mut de = Deserializer::from_slice(bytes, config)?;
    de.nodepath_pads = Some(Vec::new());
    de.decode_variant()?;
    Ok(de.nodepath_pads.unwrap_or_default())
}
