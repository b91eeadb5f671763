//! The serde [`Serializer`]: serde's data model in, Variant packets out, a thin adapter
//! over the packet layer ([`crate::packet`]), with its entry points ([`to_vec`],
//! [`to_writer`] and the [`Config`] methods) beside it.
//!
//! Ordinary Rust values map as the crate docs' table says. The builtin types
//! ([`Vector3`](crate::types::math::Vector3), the packed arrays, [`NodePath`](crate::types::names::NodePath)...) are
//! recognised by their private serde names ([`crate::builtin`]) and written as their own
//! packet types: the math types, strings and packed arrays streamed as they arrive
//! ([`sinks`]), the rest gathered into a [`Variant`](crate::variant::Variant) and written by the
//! packet layer.

mod sinks;

use crate::builtin::{Kind, Shape};
use crate::config::Config;
use crate::dialect::VariantType;
use crate::error::{Error, ErrorKind, Result};
use crate::packet::text::put_text_packet;
use crate::packet::writer::Put;
use crate::packet::{header, scalar, Ctx};
use serde::ser::{self, Serialize};
use sinks::FixedFields;
use std::io;

/// Writes one value as a Variant packet into a `Vec<u8>`.
///
/// Most callers want [`to_vec`](crate::ser::to_vec) or [`Config::to_vec`]; this type is for
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
    pub(crate) ctx: Ctx,
    /// Nesting depth of the value written next (the top level is 0).
    pub(crate) depth: usize,
}

impl<'a> Serializer<'a> {
    /// A serializer that appends to `out`, speaking `config`'s dialect. `out` holds what was
    /// written once the serializer is dropped.
    pub fn new(out: &'a mut Vec<u8>, config: &Config) -> Result<Self> {
        let ctx = Ctx::new(config);
        Ok(Serializer {
            out: std::mem::take(out),
            dest: out,
            ctx,
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
    pub(crate) fn header_word(&self, ty: VariantType, flags: u32) -> Result<u32> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        header::word(&self.ctx, ty, flags)
    }

    /// The depth limit's error. Out of line: inlined, the error's construction gave every
    /// caller a large stack frame.
    #[cold]
    #[inline(never)]
    pub(crate) fn depth_error(&self) -> Error {
        ErrorKind::DepthExceeded(self.ctx.max_depth).into()
    }

    /// INT: 32-bit when the value fits, else 64-bit with the flag ([`crate::packet::scalar`]).
    #[inline(always)]
    fn int(&mut self, v: i64) -> Result<()> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        scalar::write_int(&mut self.out, &self.ctx, v)
    }

    /// FLOAT: 32-bit when that loses nothing ([`crate::packet::scalar`]).
    fn float(&mut self, v: f64) -> Result<()> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        scalar::write_float(&mut self.out, &self.ctx, v)
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
    #[inline]
    fn open_variant(&mut self, variant: &str) -> Result<()> {
        let header = self.header_word(VariantType::Dictionary, 0)?;
        self.out.put_u64(u64::from(header) | 1 << 32);
        self.depth += 1;
        self.string(variant)
    }

    /// A whole packet of `v`, written by the packet layer at this depth.
    pub(crate) fn variant(&mut self, v: &crate::variant::Variant) -> Result<()> {
        crate::variant::codec::encode(&mut self.out, &self.ctx, self.depth, v)
    }

    /// Writes a value nested in a container. Past a few levels the stack is grown on
    /// demand (`stacker`), as the decoder does, so that the depth limit, not the thread's
    /// stack, ends deep nesting (a sanitizer build's frames are many times larger).
    #[inline]
    pub(crate) fn nested<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if self.depth < crate::packet::SHALLOW {
            value.serialize(self)
        } else {
            self.nested_deep(value)
        }
    }

    /// [`Serializer::nested`] past the shallow levels, kept out of the hot path.
    #[cold]
    #[inline(never)]
    fn nested_deep<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        crate::packet::grow_stack(|| value.serialize(&mut *self))
    }

    /// After a container's element (or a Dictionary's value): once, the first time, the
    /// room for the `rest` still to come, guessed from the first ([`Self::reserve_like_first`]).
    #[inline]
    fn after_element(&mut self, count_at: usize, rest: &mut u32) {
        if *rest != 0 {
            self.reserve_like_first(count_at + 4, std::mem::take(rest));
        }
    }

    /// After a container's first element (written from `first_at` on), room in the buffer
    /// for `rest` more of about its size: a large array of records then grows the buffer
    /// once, not by doubling, each doubling a copy of everything written so far (the
    /// struct benches spent 11-17% of their instructions in those copies). A guess, so
    /// half again as much, at most [`RESERVE_AHEAD_MAX`] past what is written, and a
    /// failed allocation only skips it; [`Config::append_to_vec`] gives back what the
    /// guess left well unused.
    #[inline(never)]
    fn reserve_like_first(&mut self, first_at: usize, rest: u32) {
        let first = self.out.len().saturating_sub(first_at);
        let guess = first
            .saturating_mul(rest as usize)
            .saturating_add(first.saturating_mul(rest as usize) / 2)
            .min(RESERVE_AHEAD_MAX);
        // The guess is only a guess: without the memory, the buffer grows as it would have.
        let _ = self.out.try_reserve(guess);
    }

    #[inline]
    pub(crate) fn leave(&mut self, levels: usize) {
        self.depth -= levels;
    }
}

/// The most [`Serializer::reserve_like_first`] reserves past what is written (16 MiB): past
/// that the buffer grows by doubling again, so a first element much larger than the rest
/// cannot make a small value reserve much memory.
const RESERVE_AHEAD_MAX: usize = 16 << 20;

impl Drop for Serializer<'_> {
    /// Hands the buffer back (also when a `Serialize` impl panics and unwinds).
    fn drop(&mut self) {
        std::mem::swap(self.dest, &mut self.out);
    }
}

use crate::packet::scalar::out_of_range;

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

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        let h = self.header_word(VariantType::Bool, 0)?;
        scalar::write_word_packet(&mut self.out, h, v as u32);
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.int(v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.int(v.into())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        self.int(i64::try_from(v).map_err(|_| out_of_range(v, "int (i64)"))?)
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        // Any f32 but NaN survives the round trip through f32 that `float` tests, in every
        // dialect: it is written as itself, 32-bit, without going through f64. A NaN takes
        // `float`'s path (64-bit where the dialect has it), as it always did.
        if v.is_nan() {
            return self.float(v.into());
        }
        let h = self.header_word(VariantType::Float, 0)?;
        scalar::write_word_packet(&mut self.out, h, v.to_bits());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.float(v)
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        crate::packet::packed::write_bytes(&mut self.out, &self.ctx, v)
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.header(VariantType::Nil, 0)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<()> {
        match Kind::by_name(name) {
            Some(Kind::Callable) => self.header(VariantType::Callable, 0),
            Some(kind) => Err(crate::variant::ser::wrong_shape(kind)),
            None => self.serialize_unit(),
        }
    }
    #[inline]
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.string(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match Kind::by_name(name) {
            None => value.serialize(self),
            Some(kind) if kind.shape() == Shape::Newtype => self.newtype_builtin(kind, value),
            Some(kind) => Err(crate::variant::ser::wrong_shape(kind)),
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
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'s, 'a>> {
        let count_at = self.open(VariantType::Array)?;
        Ok(Compound::counted(self, count_at, 1).expecting(len))
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
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'s, 'a>> {
        let count_at = self.open(VariantType::Dictionary)?;
        Ok(Compound::counted(self, count_at, 1).expecting(len))
    }
    // Inlined, so that the caller builds the Compound in place: returned through memory
    // and read back whole, it cost a store-forwarding stall per struct.
    #[inline(always)]
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'s, 'a>> {
        match Kind::by_name(name) {
            None => self.serialize_map(None),
            Some(kind) if kind.shape() == Shape::Fixed => {
                Ok(Compound::Fixed(FixedFields::begin(self, kind)?))
            }
            Some(kind) => self.collect(kind),
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
    /// the `{variant: [...]}` of an enum). `rest`: from serde's length hint, the elements
    /// still to come after the first, for [`Serializer::reserve_like_first`] (0 once used,
    /// or without a hint).
    #[doc(hidden)]
    Counted {
        ser: &'s mut Serializer<'a>,
        count_at: usize,
        count: u32,
        levels: u32,
        rest: u32,
    },
    /// The components of a math builtin, written as they come.
    #[doc(hidden)]
    Fixed(FixedFields<'s, 'a>),
    /// The fields of another builtin, gathered, then written whole.
    #[doc(hidden)]
    Collect(Box<sinks::Collect<'s, 'a>>),
}

impl<'s, 'a> Compound<'s, 'a> {
    #[inline(always)]
    fn counted(ser: &'s mut Serializer<'a>, count_at: usize, levels: u32) -> Self {
        Compound::Counted {
            ser,
            count_at,
            count: 0,
            levels,
            rest: 0,
        }
    }

    /// The container holds `len` elements or entries, by serde's hint.
    #[inline(always)]
    fn expecting(mut self, len: Option<usize>) -> Self {
        if let Compound::Counted { rest, .. } = &mut self {
            // Past u32, or a single element: nothing to guess.
            *rest = len.map_or(0, |n| u32::try_from(n.saturating_sub(1)).unwrap_or(0));
        }
        self
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self {
            Compound::Counted {
                ser,
                count,
                count_at,
                rest,
                ..
            } => {
                *count += 1;
                ser.nested(value)?;
                ser.after_element(*count_at, rest);
                Ok(())
            }
            _ => Err(ErrorKind::Unsupported("elements in a builtin".into()).into()),
        }
    }

    /// A Dictionary key; the value follows with [`Compound::value`].
    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        match self {
            Compound::Counted { ser, count, .. } => {
                *count += 1;
                ser.nested(key)
            }
            _ => Err(ErrorKind::Unsupported("elements in a builtin".into()).into()),
        }
    }

    /// A struct field: its name as a String key, then its value. Inlined into the caller
    /// (a derived `serialize`), where the name is a constant: the key's length tests, NUL
    /// check and byte loads fold away, leaving three stores of known words.
    #[inline(always)]
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()> {
        // A struct's fields, nearly always: tested first, the builtins' fields out of line.
        if let Compound::Counted { ser, count, .. } = self {
            *count += 1;
            ser.string(name)?;
            return ser.nested(value);
        }
        self.builtin_field(name, value)
    }

    /// [`Compound::field`] of a builtin.
    #[inline(never)]
    fn builtin_field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        match self {
            // Not reached (`field` writes these), and correct if it were.
            Compound::Counted { .. } => self.field(name, value),
            Compound::Fixed(fields) => fields.field(name, value),
            Compound::Collect(fields) => fields.field(name, value),
        }
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        match self {
            Compound::Counted {
                ser,
                count_at,
                rest,
                ..
            } => {
                ser.nested(value)?;
                ser.after_element(*count_at, rest);
                Ok(())
            }
            _ => Err(ErrorKind::Unsupported("values in a builtin".into()).into()),
        }
    }

    /// Patches the count of a container (inlined: every struct and array ends here) or
    /// finishes a builtin (out of line).
    #[inline]
    fn finish(self) -> Result<()> {
        match self {
            Compound::Counted {
                ser,
                count_at,
                count,
                levels,
                ..
            } => {
                ser.out.patch_u32(count_at, count);
                ser.leave(levels as usize);
                Ok(())
            }
            other => other.finish_builtin(),
        }
    }

    /// [`Compound::finish`] of a builtin.
    #[inline(never)]
    fn finish_builtin(self) -> Result<()> {
        match self {
            // Not reached (`finish` patches these), and correct if it were.
            Compound::Counted { .. } => self.finish(),
            Compound::Fixed(fields) => fields.finish(),
            Compound::Collect(fields) => fields.finish(),
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
    /// Both halves of an entry after one look at what this compound is (`collect_map`,
    /// which every map's `Serialize` uses, calls this). Inlined into the map's loop: left
    /// out of line (as it was after unrelated changes moved LLVM's choices) it cost a
    /// `Variant` of Dictionaries 13% more encode time (benches/before_after.sh).
    #[inline]
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<()> {
        if let Compound::Counted {
            ser,
            count,
            count_at,
            rest,
            ..
        } = self
        {
            *count += 1;
            ser.nested(key)?;
            ser.nested(value)?;
            if *rest != 0 {
                ser.reserve_like_first(*count_at + 4, std::mem::take(rest));
            }
            return Ok(());
        }
        self.key(key)?;
        self.value(value)
    }
    fn end(self) -> Result<()> {
        self.finish()
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    #[inline(always)]
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

/// The entry points of encoding.
impl Config {
    /// Encodes `value` into a new byte vector: what `bytes_to_var` reads.
    pub fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.append_to_vec(&mut out, value)?;
        Ok(out)
    }

    /// Encodes `value` at the end of `out`. On error, `out` is left as it was.
    pub fn append_to_vec<T: Serialize + ?Sized>(&self, out: &mut Vec<u8>, value: &T) -> Result<()> {
        let start = out.len();
        let capacity = out.capacity();
        let mut result = value.serialize(&mut Serializer::new(out, self)?);
        // A guess of the serializer's (`reserve_like_first`) that left more than half of
        // the buffer unused goes back (doubling growth never leaves that much; small
        // buffers are left alone).
        let spare = out.capacity() - out.len();
        if out.capacity() > capacity && spare > out.len().max(4096) {
            out.shrink_to(capacity.max(out.len()));
        }
        if result.is_ok() && out.len() - start > self.max_size {
            result = Err(ErrorKind::SizeLimitExceeded(self.max_size).into());
        }
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Encodes `value` and writes the packet to `writer` in one `write_all`.
    pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
        &self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_vec(value)?;
        writer.write_all(&bytes)?;
        Ok(())
    }
}

/// Encodes `value` with the default [`Config`] (Godot 4, single precision): the bytes
/// GDScript's `bytes_to_var` reads back to the same value.
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Hit {
///     target: String,
///     damage: i32,
/// }
/// let bytes = godot_bin::to_vec(&Hit { target: "slime".into(), damage: 7 })?;
/// // A Dictionary (type 27) of two String keys: bytes_to_var gives {"target": "slime", "damage": 7}.
/// assert_eq!(bytes[..8], [27, 0, 0, 0, 2, 0, 0, 0]);
/// // Another engine: Config::new(Dialect::Godot3).to_vec(&value).
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    Config::default().to_vec(value)
}

/// Encodes `value` with the default [`Config`] and writes it to `writer`.
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    Config::default().to_writer(writer, value)
}

#[cfg(test)]
mod buffer_tests {
    use super::Serializer;
    use crate::config::Config;
    use serde::Serialize;

    #[test]
    fn the_buffer_comes_back_after_success_error_and_panic() {
        let cfg = Config::default();
        let mut out = vec![0xAA];
        "hi".serialize(&mut Serializer::new(&mut out, &cfg).unwrap())
            .unwrap();
        let hi = Config::default().to_vec("hi").unwrap();
        assert_eq!(out[0], 0xAA);
        assert_eq!(out[1..], hi[..]);

        // An error leaves what was written before it, as a borrowed buffer would.
        let mut out = vec![0xAA];
        let err = ["ok", "a\0b"].serialize(&mut Serializer::new(&mut out, &cfg).unwrap());
        assert!(err.is_err());
        // The Array's header and its count, not yet patched (0).
        let empty = Config::default().to_vec(&[0u8; 0]).unwrap();
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
