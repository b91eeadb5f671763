//! The serde [`Serializer`]: serde's data model in, Variant packets out.
//!
//! Ordinary Rust values map as the crate docs' table says. The builtin types
//! ([`Vector3`](crate::Vector3), the packed arrays, [`NodePath`](crate::NodePath)...) are
//! recognised by their private serde names and written as their own packet types, by the
//! sinks in [`sinks`].

mod sinks;

use crate::builtin::{self, Builtin, Form};
use crate::config::Config;
use crate::dialect::{DialectSpec, VariantType};
use crate::error::{Error, ErrorKind, Result};
use crate::wire::{put_text_packet, Put, FLAG_64};
use serde::ser::{self, Serialize};
use sinks::{BuiltinFields, PackedSink, ScalarSink};

/// Writes one value as a Variant packet into a `Vec<u8>`.
///
/// Most callers want [`to_vec`](crate::to_vec) or [`Config::to_vec`]; this type is for
/// driving serde by hand.
///
/// ```
/// use serde::Serialize;
/// let mut out = Vec::new();
/// let cfg = godot_bin::Config::default();
/// "hi".serialize(&mut godot_bin::Serializer::new(&mut out, &cfg)?)?;
/// assert_eq!(out, [4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub struct Serializer<'a> {
    /// The caller's buffer, moved in for the serializer's life and handed back when it is
    /// dropped: held by value, every write reaches the length and capacity without first
    /// loading a pointer to the `Vec`.
    pub(crate) out: Vec<u8>,
    /// Where `out` goes back to.
    dest: &'a mut Vec<u8>,
    pub(crate) spec: &'static DialectSpec,
    config: Config,
    /// Nesting depth of the value written next (the top level is 0).
    depth: usize,
}

impl<'a> Serializer<'a> {
    /// A serializer that appends to `out`, speaking `config`'s dialect. `out` holds what was
    /// written once the serializer is dropped.
    pub fn new(out: &'a mut Vec<u8>, config: &Config) -> Result<Self> {
        let spec = config.spec()?;
        Ok(Serializer {
            out: std::mem::take(out),
            dest: out,
            spec,
            config: config.clone(),
            depth: 0,
        })
    }

    /// Writes a header for `ty`, refusing types the dialect lacks and values nested past
    /// the depth limit.
    #[inline]
    pub(crate) fn header(&mut self, ty: VariantType, flags: u32) -> Result<()> {
        let word = self.header_word(ty, flags)?;
        self.out.put_u32(word);
        Ok(())
    }

    /// The header word for `ty`, refusing types the dialect lacks and values nested past
    /// the depth limit.
    #[inline]
    fn header_word(&self, ty: VariantType, flags: u32) -> Result<u32> {
        match self.spec.id_of(ty) {
            Some(id) if self.depth <= self.config.max_depth => Ok(id | flags),
            _ => Err(self.header_error(ty)),
        }
    }

    /// Why [`Serializer::header_word`] refused `ty`. Out of line: inlined, the error's
    /// construction gave every caller a large stack frame.
    #[cold]
    #[inline(never)]
    fn header_error(&self, ty: VariantType) -> Error {
        if self.depth > self.config.max_depth {
            return ErrorKind::DepthExceeded(self.config.max_depth).into();
        }
        ErrorKind::TypeNotInDialect {
            ty,
            dialect: self.config.dialect,
        }
        .into()
    }

    /// A header and one 32-bit payload word, in one write.
    #[inline]
    fn word_packet(&mut self, ty: VariantType, word: u32) -> Result<()> {
        let header = self.header_word(ty, 0)?;
        self.out.put_u64(u64::from(header) | u64::from(word) << 32);
        Ok(())
    }

    /// INT: 32-bit when the value fits, else 64-bit with the flag, as the engine writes it.
    /// Godot 2 has no 64-bit INT: a value outside i32 is an error, never truncated.
    /// (The 32-bit case inlines at every caller; the rest stays out of line.)
    #[inline(always)]
    fn int(&mut self, v: i64) -> Result<()> {
        match i32::try_from(v) {
            Ok(small) => self.word_packet(VariantType::Int, small as u32),
            Err(_) => self.wide_int(v),
        }
    }

    /// [`Serializer::int`] past i32.
    #[inline(never)]
    fn wide_int(&mut self, v: i64) -> Result<()> {
        if !self.spec.wide_numbers {
            return Err(out_of_range(v, "int (32-bit in this dialect)"));
        }
        self.header(VariantType::Int, FLAG_64)?;
        self.out.put_u64(v as u64);
        Ok(())
    }

    /// FLOAT: 32-bit when the value survives a round trip through f32 (so never NaN),
    /// else 64-bit with the flag (FORMAT.md §2.3). Godot 2 has only f32: values are rounded
    /// to it as that engine rounds them, and a finite value beyond f32's range is an error.
    fn float(&mut self, v: f64) -> Result<()> {
        if !self.spec.wide_numbers && v.is_finite() && (v as f32).is_infinite() {
            return Err(out_of_range(v, "float (32-bit in this dialect)"));
        }
        if (v as f32) as f64 == v || !self.spec.wide_numbers {
            self.word_packet(VariantType::Float, (v as f32).to_bits())?;
        } else {
            self.header(VariantType::Float, FLAG_64)?;
            self.out.put_f64(v);
        }
        Ok(())
    }

    #[inline(always)]
    fn string(&mut self, v: &str) -> Result<()> {
        let header = self.header_word(VariantType::String, 0)?;
        put_text_packet(&mut self.out, header, v)
    }

    /// Writes a container header and a count to patch later; elements go one level deeper.
    #[inline]
    fn open(&mut self, ty: VariantType) -> Result<usize> {
        // The header and a zero count in one write.
        let header = self.header_word(ty, 0)?;
        let count_at = self.out.len() + 4;
        self.out.put_u64(header.into());
        self.depth += 1;
        Ok(count_at)
    }

    /// Opens the one-entry Dictionary `{variant: ...}` of an externally tagged enum.
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        let header = self.header_word(VariantType::Dictionary, 0)?;
        self.out.put_u64(u64::from(header) | 1 << 32);
        self.depth += 1;
        self.string(variant)
    }

    /// The fields of the builtin `b`, kept out of line so that `serialize_struct` inlines.
    #[inline(never)]
    fn builtin_fields<'s>(&'s mut self, b: &'static Builtin) -> Result<Compound<'s, 'a>> {
        Ok(Compound::Builtin(BuiltinFields::begin(self, b)?))
    }

    /// Whether math types get f64 components and header bit 16 in this dialect.
    fn wide_reals(&self, b: &Builtin) -> bool {
        b.header_flags(self.spec, self.config.double_precision) & FLAG_64 != 0
            && b.ty.has_real_components()
    }

    /// Writes a builtin's header and returns the sink for its payload.
    fn builtin_scalar_sink(&mut self, b: &Builtin) -> Result<ScalarSink<'_>> {
        self.header(
            b.ty,
            b.header_flags(self.spec, self.config.double_precision),
        )?;
        let wide = self.wide_reals(b);
        Ok(ScalarSink::new(&mut self.out, wide))
    }

    /// Writes a value nested in a container. Past a few levels the stack is grown on
    /// demand (`stacker`), as the decoder does, so that the depth limit, not the thread's
    /// stack, ends deep nesting (a sanitizer build's frames are many times larger).
    #[inline]
    pub(crate) fn nested<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.depth < crate::de::SHALLOW {
            value.serialize(self)
        } else {
            self.nested_deep(value)
        }
    }

    /// [`Serializer::nested`] past the shallow levels, kept out of the hot path.
    #[cold]
    #[inline(never)]
    fn nested_deep<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        stacker::maybe_grow(crate::de::STACK_RED_ZONE, crate::de::STACK_SEGMENT, || {
            value.serialize(&mut *self)
        })
    }

    pub(crate) fn enter(&mut self) {
        self.depth += 1;
    }

    pub(crate) fn leave(&mut self, levels: usize) {
        self.depth -= levels;
    }
}

impl Drop for Serializer<'_> {
    /// Hands the buffer back (also when a `Serialize` impl panics and unwinds).
    fn drop(&mut self) {
        std::mem::swap(self.dest, &mut self.out);
    }
}

#[cold]
#[inline(never)]
fn out_of_range(value: impl ToString, target: &'static str) -> Error {
    ErrorKind::NumberOutOfRange {
        value: value.to_string(),
        target,
    }
    .into()
}

impl<'s, 'a> ser::Serializer for &'s mut Serializer<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'s, 'a>;
    type SerializeTuple = Compound<'s, 'a>;
    type SerializeTupleStruct = Compound<'s, 'a>;
    type SerializeTupleVariant = Compound<'s, 'a>;
    type SerializeMap = Compound<'s, 'a>;
    type SerializeStruct = Compound<'s, 'a>;
    type SerializeStructVariant = Compound<'s, 'a>;

    fn is_human_readable(&self) -> bool {
        // GDScript reads what it is sent: an address or a date is more use there as text
        // than as the compact bytes a binary-only format would pick.
        true
    }

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.word_packet(VariantType::Bool, v as u32)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.int(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.float(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.header(VariantType::PackedByteArray, 0)?;
        sinks::put_bytes(&mut self.out, v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        match builtin::by_name(name) {
            Some(b) => self.builtin_scalar_sink(b).map(drop),
            None => self.serialize_unit(),
        }
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let Some(b) = builtin::by_name(name) else {
            return value.serialize(self);
        };
        match b.form {
            Form::Fixed(_) => {
                let absent = b.fixed_shape(self.spec).is_some_and(|s| s.min_size(4) == 0);
                if absent {
                    // A Godot 3 RID or Godot 2 object: the engine sends the type alone, so
                    // only id 0 (what such a packet decodes to) can be expressed.
                    if sinks::capture_u64(value)? != 0 {
                        let msg = format!("{} ids are not sent by {}", b.ty, self.config.dialect);
                        return Err(ErrorKind::Unsupported(msg).into());
                    }
                    return self.builtin_scalar_sink(b).map(drop);
                }
                let sink = self.builtin_scalar_sink(b)?;
                value.serialize(sink).map(drop)
            }
            Form::Packed(_) | Form::Bytes => {
                self.header(
                    b.ty,
                    b.header_flags(self.spec, self.config.double_precision),
                )?;
                let wide = self.wide_reals(b);
                value.serialize(PackedSink::new(&mut self.out, wide))
            }
            _ => Err(ErrorKind::Unsupported(format!("{name} as a newtype")).into()),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        self.nested(value)?;
        self.leave(1);
        Ok(())
    }
    #[inline]
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'s, 'a>> {
        let count_at = self.open(VariantType::Array)?;
        Ok(Compound::counted(self, count_at, 1))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'s, 'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'s, 'a>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.open_variant(variant)?;
        let count_at = self.open(VariantType::Array)?;
        Ok(Compound::counted(self, count_at, 2))
    }
    #[inline(always)]
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'s, 'a>> {
        let count_at = self.open(VariantType::Dictionary)?;
        Ok(Compound::counted(self, count_at, 1))
    }
    // Inlined, so that the caller builds the Compound in place: returned through memory
    // and read back whole, it cost a store-forwarding stall per struct.
    #[inline(always)]
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'s, 'a>> {
        match builtin::by_name(name) {
            Some(b) if matches!(b.form, Form::Fixed(_)) => {
                Ok(Compound::Builtin(BuiltinFields::fixed(self, b)?))
            }
            Some(b) => self.builtin_fields(b),
            None => self.serialize_map(None),
        }
    }
    #[inline(always)]
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'s, 'a>> {
        self.open_variant(variant)?;
        let count_at = self.open(VariantType::Dictionary)?;
        Ok(Compound::counted(self, count_at, 2))
    }
}

/// An Array or Dictionary being written (its count is patched at the end), or a builtin's
/// fields.
pub enum Compound<'s, 'a> {
    /// Elements or entries of a container; `levels` containers close at the end (two for
    /// the `{variant: [...]}` of an enum).
    #[doc(hidden)]
    Counted {
        ser: &'s mut Serializer<'a>,
        count_at: usize,
        count: u32,
        /// Bits ORed into the count (Godot 2's shared flag).
        count_flags: u32,
        levels: u32,
    },
    /// The fields of a builtin type.
    #[doc(hidden)]
    Builtin(BuiltinFields<'s, 'a>),
}

impl<'s, 'a> Compound<'s, 'a> {
    fn counted(ser: &'s mut Serializer<'a>, count_at: usize, levels: u32) -> Self {
        Compound::Counted {
            ser,
            count_at,
            count: 0,
            count_flags: 0,
            levels,
        }
    }

    pub(crate) fn with_count_flags(mut self, flags: u32) -> Self {
        if let Compound::Counted { count_flags, .. } = &mut self {
            *count_flags = flags;
        }
        self
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self {
            Compound::Counted { ser, count, .. } => {
                *count += 1;
                ser.nested(value)
            }
            Compound::Builtin(_) => {
                Err(ErrorKind::Unsupported("elements in a builtin".into()).into())
            }
        }
    }

    /// A Dictionary key; the value follows with [`Compound::value`].
    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.element(key)
    }

    /// A struct field: its name as a String key, then its value.
    #[inline]
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()> {
        match self {
            Compound::Counted { ser, count, .. } => {
                *count += 1;
                ser.string(name)?;
                ser.nested(value)
            }
            Compound::Builtin(fields) => fields.field(name, value),
        }
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self {
            Compound::Counted { ser, .. } => ser.nested(value),
            Compound::Builtin(_) => {
                Err(ErrorKind::Unsupported("values in a builtin".into()).into())
            }
        }
    }

    fn finish(self) -> Result<()> {
        match self {
            Compound::Counted {
                ser,
                count_at,
                count,
                count_flags,
                levels,
            } => {
                ser.out.patch_u32(count_at, count | count_flags);
                ser.leave(levels as usize);
                Ok(())
            }
            Compound::Builtin(fields) => fields.finish(),
        }
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.element(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.value(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

#[cfg(test)]
mod buffer_tests {
    use super::Serializer;
    use crate::Config;
    use serde::Serialize;

    #[test]
    fn the_buffer_comes_back_after_success_error_and_panic() {
        let cfg = Config::default();
        let mut out = vec![0xAA];
        "hi".serialize(&mut Serializer::new(&mut out, &cfg).unwrap())
            .unwrap();
        let hi = crate::to_vec("hi").unwrap();
        assert_eq!(out[0], 0xAA);
        assert_eq!(out[1..], hi[..]);

        // An error leaves what was written before it, as a borrowed buffer would.
        let mut out = vec![0xAA];
        let err = ["ok", "a\0b"].serialize(&mut Serializer::new(&mut out, &cfg).unwrap());
        assert!(err.is_err());
        // The Array's header and its count, not yet patched (0).
        let empty = crate::to_vec(&[0u8; 0]).unwrap();
        assert_eq!(out[0], 0xAA);
        assert_eq!(out[1..9], empty[..]);

        // A panicking Serialize impl unwinds through the serializer: the buffer survives.
        struct Panics;
        impl Serialize for Panics {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                panic!("on purpose")
            }
        }
        let mut out = vec![1, 2, 3];
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = vec![Panics].serialize(&mut Serializer::new(&mut out, &cfg).unwrap());
        }));
        assert!(caught.is_err());
        assert_eq!(out[..3], [1, 2, 3]);
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn a_compound_stays_small() {
        // Every struct's serialize_struct returns one; a larger enum (the typed-container
        // state unboxed made it 80 bytes) is copied through the stack with mixed-width moves
        // that stall on store forwarding.
        assert!(std::mem::size_of::<crate::error::Result<super::Compound>>() <= 40);
    }
}
