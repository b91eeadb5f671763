//! The serde [`Deserializer`]: Variant packets in, serde's data model out, a thin adapter
//! over the packet layer ([`crate::packet`]), with its entry points ([`from_slice`],
//! [`take_from_slice`], [`from_reader`] and their [`Config`] methods) beside it. Builtin
//! packets are presented by `present.rs`, containers through `access.rs`.
//!
//! The format is self-describing, so `deserialize_any` presents whatever the packet holds:
//! the plain types as serde's own, Arrays and Dictionaries as sequences and maps, every
//! builtin as the one-entry map described in [`crate::builtin`]. The typed entry points add
//! range checks for numbers, recognise the builtin types by their private names and present
//! them in their own shape, and accept what GDScript converts on assignment (a plain Array
//! into a packed array, a packed array into a `Vec`, String, StringName and NodePath into
//! one another).

mod access;
mod hint;
mod present;

use crate::builtin::{Kind, StructVisitor};
use crate::config::Config;
use crate::dialect::VariantType;
use crate::error::{Error, ErrorKind, Result};
use crate::packet::header::Header;
use crate::packet::{container, object, scalar, text, Decoder, Nest};
use access::{ArrayAccess, DictionaryAccess, EnumAccess};
use serde::de::{self, Deserialize, DeserializeOwned, Visitor};
use std::io;

/// Reads Variant packets from a byte slice, borrowing strings and bytes from it.
///
/// Most callers want [`from_slice`](crate::de::from_slice) or [`Config::from_slice`]; this
/// type is for driving serde by hand.
///
/// ```
/// use serde::Deserialize;
/// let cfg = godot_bin::Config::default();
/// let bytes = godot_bin::to_vec("hi")?;
/// let mut de = godot_bin::Deserializer::from_slice(&bytes, &cfg)?;
/// let s = <&str>::deserialize(&mut de)?;
/// assert_eq!(s, "hi");
/// assert!(de.remaining().is_empty());
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub struct Deserializer<'de> {
    pub(crate) d: Decoder<'de>,
}

impl<'de> Deserializer<'de> {
    /// A deserializer reading `input` in `config`'s dialect.
    pub fn from_slice(input: &'de [u8], config: &Config) -> Result<Self> {
        Ok(Deserializer {
            d: Decoder::new(input, config)?,
        })
    }

    /// The input not consumed yet.
    pub fn remaining(&self) -> &'de [u8] {
        self.d.r.rest()
    }

    #[cold]
    fn mismatch(&self, expected: impl Into<String>, h: &Header) -> Error {
        Error::at(
            ErrorKind::TypeMismatch {
                expected: expected.into(),
                found: h.ty,
            },
            h.at,
        )
    }

    /// Presents the packet whose header `h` was just read as whatever it holds. An error
    /// the visitor raises (it wanted another type) is placed at the packet's header.
    #[inline]
    fn any<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        let at = h.at;
        self.any_payload(h, visitor).map_err(|e| e.or_at(at))
    }

    fn any_payload<V: Visitor<'de>>(&mut self, h: Header, visitor: V) -> Result<V::Value> {
        let r = &mut self.d.r;
        match h.ty {
            VariantType::Nil => visitor.visit_unit(),
            VariantType::Bool => visitor.visit_bool(scalar::read_bool(r)?),
            VariantType::Int => visitor.visit_i64(scalar::read_int(r, &h)?),
            VariantType::Float => visitor.visit_f64(scalar::read_float(r, &h)?),
            VariantType::String => visitor.visit_borrowed_str(text::read(r)?),
            VariantType::PackedByteArray => {
                visitor.visit_borrowed_bytes(crate::packet::packed::read_bytes(r)?)
            }
            VariantType::Array | VariantType::Dictionary | VariantType::TypedArray => {
                let head = container::read_head(&mut self.d.r, &self.d.ctx, &h)?;
                if !head.first.is_untyped() || !head.second.is_untyped() || head.shared {
                    return self.typed_container(h, head, visitor, present::Form::Map);
                }
                if h.ty == VariantType::Dictionary {
                    DictionaryAccess::visit(self, head.count, visitor)
                } else {
                    ArrayAccess::visit(self, head.count, visitor)
                }
            }
            VariantType::Object if object::is_id(&self.d.ctx, &h) => {
                self.builtin(h, Kind::ObjectId, visitor, present::Form::Map)
            }
            ty => {
                let kind = Kind::of_type(ty).ok_or_else(|| self.mismatch("a known type", &h))?;
                self.builtin(h, kind, visitor, present::Form::Map)
            }
        }
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
            return Err(Error::at(
                ErrorKind::InvalidData("an enum needs a one-entry Dictionary {variant: content}"),
                count_at,
            ));
        }
        self.nest(|de| visitor.visit_enum(EnumAccess { de }))
    }

    /// Reads an INT (or, for float targets, a FLOAT) for a typed number.
    fn number(&mut self) -> Result<(Header, Number)> {
        let h = self.d.header()?;
        let r = &mut self.d.r;
        let n = match h.ty {
            VariantType::Int => Number::Int(scalar::read_int(r, &h)?),
            VariantType::Float => Number::Float(scalar::read_float(r, &h)?),
            _ => Number::Other,
        };
        Ok((h, n))
    }
}

impl<'de> Nest<'de> for Deserializer<'de> {
    #[inline(always)]
    fn decoder(&mut self) -> &mut Decoder<'de> {
        &mut self.d
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
            let out_of_range = |v: i64, at| Error::at(
                ErrorKind::NumberOutOfRange { value: v.to_string(), target: stringify!($ty) },
                at,
            );
            if let Some((v, at)) = self.d.plain_int() {
                return match <$ty>::try_from(v) {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(out_of_range(v, at)),
                };
            }
            let start = self.d.r.pos();
            match self.number()? {
                (h, Number::Int(v)) => match <$ty>::try_from(v) {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(out_of_range(v, h.at)),
                },
                _ => {
                    self.d.r.rewind(start);
                    self.deserialize_any(visitor)
                }
            }
        }
    )*};
}

macro_rules! deserialize_float {
    ($($method:ident => $visit:ident: $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            if let Some(v) = self.d.plain_float() {
                return visitor.$visit(v as $ty);
            }
            let start = self.d.r.pos();
            match self.number()? {
                (_, Number::Float(v)) => visitor.$visit(v as $ty),
                (_, Number::Int(v)) => visitor.$visit(v as $ty),
                _ => {
                    self.d.r.rewind(start);
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
        if let Some(giver) = crate::builtin::give::to::<V, crate::variant::de::VariantVisitor>() {
            // A `Variant`, decoded in one pass and given over whole (see `give`).
            return Ok(giver.give(crate::variant::codec::decode(&mut self.d)?));
        }
        let h = self.d.header()?;
        self.any(h, visitor)
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
        if self.d.peek_header()?.ty == VariantType::Nil {
            self.d.header()?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(text) = self.d.plain_string() {
            return visitor.visit_borrowed_str(text);
        }
        let h = self.d.header()?;
        match h.ty {
            VariantType::String | VariantType::StringName => {
                visitor.visit_borrowed_str(text::read(&mut self.d.r)?)
            }
            // GDScript converts a NodePath assigned to a String to its text.
            VariantType::NodePath => visitor.visit_string(self.node_path_text()?),
            // serde's String visitor would take bytes as text, and bytes may hold what no
            // STRING packet can (a NUL): a string field is a STRING.
            VariantType::PackedByteArray => Err(self.mismatch("String", &h)),
            _ => self.any(h, visitor),
        }
    }

    crate::builtin::forward_shapes!('de);

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let h = self.d.header()?;
        self.sequence(h, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match Kind::by_name(name) {
            Some(kind) => self.requested(kind, visitor),
            None => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // A fixed builtin's own `Deserialize`: the value read and given over whole (see
        // `give`).
        // The comparisons are of constants, decided at compile time for each visitor.
        macro_rules! fixed {
            ($($t:ident),*) => {$(
                if typeid::of::<V>() == typeid::of::<StructVisitor<crate::types::math::$t>>() {
                    return self.fixed_whole::<V, crate::types::math::$t>(visitor);
                }
            )*};
        }
        crate::types::leaves::for_each_fixed!(fixed);
        if let Some(kind) = Kind::by_name(name) {
            return self.requested(kind, visitor);
        }
        self.deserialize_map(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(name) = self.d.plain_string() {
            return visitor.visit_enum(de::value::BorrowedStrDeserializer::new(name));
        }
        let count_at = self.d.r.pos() + 4;
        if let Some(count) = self.d.plain_dictionary() {
            return self.enum_entry(count, count_at, visitor);
        }
        let h = self.d.header()?;
        match h.ty {
            VariantType::String | VariantType::StringName => {
                let name = text::read(&mut self.d.r)?;
                visitor.visit_enum(de::value::BorrowedStrDeserializer::new(name))
            }
            VariantType::Dictionary => {
                let count_at = self.d.r.pos();
                let count = container::read_head(&mut self.d.r, &self.d.ctx, &h)?.count;
                self.enum_entry(count, count_at, visitor)
            }
            _ => Err(self.mismatch("an enum (a String or a one-entry Dictionary)", &h)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(count) = self.d.plain_dictionary() {
            return DictionaryAccess::visit(self, count, visitor);
        }
        let h = self.d.header()?;
        if h.ty == VariantType::Dictionary {
            // A typed Dictionary's entries, for a map or a struct.
            let head = container::read_head(&mut self.d.r, &self.d.ctx, &h)?;
            return DictionaryAccess::visit(self, head.count, visitor);
        }
        self.any(h, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool char unit ignored_any
    }
}

/// The entry points of decoding.
impl Config {
    /// Decodes one value that fills `bytes` exactly; trailing bytes are an error.
    /// `&str` and `serde_bytes` `&[u8]` fields borrow from `bytes`.
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        match self.take_from_slice(bytes) {
            Ok((value, [])) => Ok(value),
            Ok((_, rest)) => {
                let at = bytes.len() - rest.len();
                let e = Error::at(ErrorKind::TrailingBytes(rest.len()), at);
                Err(self.hint_packet(bytes, e))
            }
            Err(e) => Err(self.hint_packet(bytes, e)),
        }
    }

    /// A whole packet's error, with the dialects that read it named
    /// ([`hint_dialect`](Config::hint_dialect)) when the bytes do not read cleanly in this
    /// dialect and do in another: bytes left after a value, a type id the dialect lacks,
    /// and every error of the Rust type (a Godot 3 packet decoded into a struct in Godot 4
    /// fails as the struct's, ``missing field `pos` ``, far from its real mistake: issue
    /// 49). A packet that reads cleanly here keeps the type's own error. The errors that
    /// name a limit or a policy keep their kind, for code that matches it: the input
    /// running out ([`ErrorKind::UnexpectedEof`], which a stream reader waits on, and
    /// [`ErrorKind::LengthOutOfRange`]), [`ErrorKind::DepthExceeded`],
    /// [`ErrorKind::SizeLimitExceeded`], [`ErrorKind::ObjectsNotAllowed`]. A packet past
    /// 64 KiB is not tried, which would decode it once for each dialect.
    #[cold]
    #[inline(never)]
    fn hint_packet(&self, bytes: &[u8], e: Error) -> Error {
        let policy = matches!(
            e.kind(),
            ErrorKind::UnexpectedEof
                | ErrorKind::LengthOutOfRange(_)
                | ErrorKind::DepthExceeded(_)
                | ErrorKind::SizeLimitExceeded(_)
                | ErrorKind::ObjectsNotAllowed
        );
        if policy || bytes.len() > HINT_LIMIT {
            return e;
        }
        self.hint_dialect(bytes, e)
    }

    /// Decodes the value at the start of `bytes` and returns it with the bytes after it, for
    /// buffers that hold several packets (the engine itself ignores what follows a packet).
    pub fn take_from_slice<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
    ) -> Result<(T, &'de [u8])> {
        // Past max_size the decoder sees no bytes at all, so a longer packet runs out.
        let window = &bytes[..bytes.len().min(self.max_size)];
        let mut de = Deserializer::from_slice(window, self)?;
        // Errors raised by visitors carry no offset yet: they happened where reading stopped.
        let value = T::deserialize(&mut de).map_err(|e| {
            let mut e = e.or_at(de.d.r.pos());
            let ran_out = matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthOutOfRange(_)
            );
            if ran_out && window.len() < bytes.len() {
                *e.kind_mut() = ErrorKind::SizeLimitExceeded(self.max_size);
            }
            e
        })?;
        let consumed = window.len() - de.remaining().len();
        Ok((value, &bytes[consumed..]))
    }

    /// Reads `reader` to its end and decodes the one value it holds, as
    /// [`from_slice`](Config::from_slice) does. For streams of length-prefixed values
    /// (`StreamPeer.put_var`, `FileAccess.store_var`) read each frame first.
    pub fn from_reader<R: io::Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        // Read no more than max_size + 1 bytes: enough to tell that a packet is too large.
        let mut bytes = Vec::new();
        let limit = (self.max_size as u64).saturating_add(1);
        io::Read::read_to_end(&mut reader.take(limit), &mut bytes)?;
        if bytes.len() > self.max_size {
            return Err(ErrorKind::SizeLimitExceeded(self.max_size).into());
        }
        self.from_slice(&bytes)
    }
}

/// The largest packet [`Config::from_slice`] names other dialects for when it fails (see
/// [`Config::hint_dialect`]): naming them decodes the packet once for each dialect.
pub(crate) const HINT_LIMIT: usize = 64 << 10;

/// Decodes one value that fills `bytes` exactly, with the default [`Config`] (Godot 4):
/// what GDScript's `var_to_bytes` wrote. Strings and `serde_bytes` byte slices borrow from
/// `bytes`. A failure says what and where ([`Error::kind`](crate::error::Error::kind),
/// [`Error::path`](crate::error::Error::path), the byte offset).
///
/// ```
/// use godot_bin::{ErrorKind, Variant};
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct Hit<'a> {
///     target: &'a str, // borrowed from the packet
///     damage: i32,
/// }
/// // var_to_bytes({"target": "slime", "damage": 7}) in Godot 4:
/// let bytes = godot_bin::to_vec(&Variant::Dictionary(
///     [("target", Variant::from("slime")), ("damage", Variant::from(7))].into_iter().collect(),
/// ))?;
/// let hit: Hit = godot_bin::from_slice(&bytes)?;
/// assert_eq!(hit, Hit { target: "slime", damage: 7 });
///
/// // A packet that ends early: the kind to match on, and where.
/// let err = godot_bin::from_slice::<Hit>(&bytes[..20]).unwrap_err();
/// assert!(matches!(err.kind(), ErrorKind::UnexpectedEof));
/// assert!(err.offset().is_some());
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T> {
    Config::default().from_slice(bytes)
}

/// Decodes the value at the start of `bytes` with the default [`Config`] and returns it
/// with the bytes that follow it.
pub fn take_from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<(T, &'de [u8])> {
    Config::default().take_from_slice(bytes)
}

/// Reads `reader` to its end and decodes the one value it holds, with the default
/// [`Config`].
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T> {
    Config::default().from_reader(reader)
}
