//! `Serialize` for [`Variant`] and its containers, and the serializer that builds a
//! `Variant` from any `Serialize` value ([`to_variant`]).

use super::shapes::{TypedArrayShape, TypedDictionaryShape};
use super::{Array, Dictionary, Variant};
use crate::builtin::{Builtin, Kind, Shape};
use crate::error::{Error, ErrorKind, Result};
use crate::packet::scalar::out_of_range;
use crate::types::godot2::{Image, InputEvent};
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Object;
use serde::ser::{self, Impossible, Serialize, SerializeMap, SerializeStruct, Serializer};

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        macro_rules! arms {
            ($($name:ident),*) => {
                match self {
                    Variant::Nil => s.serialize_unit(),
                    Variant::Bool(v) => s.serialize_bool(*v),
                    Variant::Int(v) => s.serialize_i64(*v),
                    Variant::Float(v) => s.serialize_f64(*v),
                    Variant::String(v) => s.serialize_str(v),
                    Variant::PackedTypedArray(a) => serialize_array(Kind::PackedTypedArray, a, s),
                    $(Variant::$name(v) => v.serialize(s),)*
                }
            };
        }
        super::for_each_builtin_variant!(arms)
    }
}

impl Serialize for Array {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.element_type.is_untyped() && !self.shared {
            return s.collect_seq(&self.items);
        }
        serialize_array(Kind::TypedArray, self, s)
    }
}

/// An Array with an element type or shared flag, as the builtin struct of `kind`.
fn serialize_array<S: Serializer>(kind: Kind, a: &Array, s: S) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct(kind.name(), 3)?;
    st.serialize_field("element_type", &a.element_type)?;
    st.serialize_field("shared", &a.shared)?;
    st.serialize_field("items", &a.items)?;
    st.end()
}

impl Serialize for Dictionary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if !self.is_typed() && !self.shared {
            let mut map = s.serialize_map(Some(self.len()))?;
            for (k, v) in self.iter() {
                map.serialize_entry(k, v)?;
            }
            return map.end();
        }
        let mut st = s.serialize_struct(Kind::TypedDictionary.name(), 4)?;
        st.serialize_field("key_type", self.key_type())?;
        st.serialize_field("value_type", self.value_type())?;
        st.serialize_field("shared", &self.shared)?;
        st.serialize_field("entries", &Entries(self))?;
        st.end()
    }
}

/// A Dictionary's entries as a sequence of `(key, value)` pairs.
struct Entries<'a>(&'a Dictionary);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter())
    }
}

/// Builds a [`Variant`] from any `Serialize` value, as serde_json's `to_value` builds a
/// `Value`: what decoding the value's packet would give, without the bytes. Structs become
/// Dictionaries, sequences Arrays, and the builtin types keep their own types.
///
/// ```
/// use godot_bin::{to_variant, NodePath, Variant};
/// #[derive(serde::Serialize)]
/// struct Target { path: NodePath, hp: u8 }
///
/// let v = to_variant(&Target { path: NodePath::from("../Enemy"), hp: 3 })?;
/// assert_eq!(v.get("path"), Some(&Variant::NodePath(NodePath::from("../Enemy"))));
/// assert_eq!(v.get("hp"), Some(&Variant::Int(3)));
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn to_variant<T: Serialize + ?Sized>(value: &T) -> Result<Variant> {
    value.serialize(ValueSerializer { plain: false })
}

/// The serializer behind [`to_variant`]. With `plain`, the top level is taken as plain
/// data: a builtin's private name is not recognised there (its nested values still are).
pub(crate) struct ValueSerializer {
    pub plain: bool,
}

const NESTED: ValueSerializer = ValueSerializer { plain: false };

impl ValueSerializer {
    fn kind(&self, name: &str) -> Option<Kind> {
        if self.plain {
            None
        } else {
            Kind::by_name(name)
        }
    }
}

impl Serializer for ValueSerializer {
    type Ok = Variant;
    type Error = Error;
    type SerializeSeq = SeqCollect;
    type SerializeTuple = SeqCollect;
    type SerializeTupleStruct = SeqCollect;
    type SerializeTupleVariant = SeqCollect;
    type SerializeMap = MapCollect;
    type SerializeStruct = MapCollect;
    type SerializeStructVariant = MapCollect;

    fn is_human_readable(&self) -> bool {
        true
    }

    fn serialize_bool(self, v: bool) -> Result<Variant> {
        Ok(Variant::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Variant> {
        Ok(Variant::Int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Variant> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v, "int (i64)"))
    }
    fn serialize_u8(self, v: u8) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Variant> {
        Ok(Variant::Int(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Variant> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v, "int (i64)"))
    }
    fn serialize_u128(self, v: u128) -> Result<Variant> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| out_of_range(v, "int (i64)"))
    }
    fn serialize_f32(self, v: f32) -> Result<Variant> {
        Ok(Variant::Float(v.into()))
    }
    fn serialize_f64(self, v: f64) -> Result<Variant> {
        Ok(Variant::Float(v))
    }
    fn serialize_char(self, v: char) -> Result<Variant> {
        Ok(Variant::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Variant> {
        Ok(Variant::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Variant> {
        Ok(Variant::PackedByteArray(PackedByteArray(v.to_vec())))
    }
    fn serialize_none(self) -> Result<Variant> {
        Ok(Variant::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Variant> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Variant> {
        Ok(Variant::Nil)
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result<Variant> {
        match self.kind(name) {
            Some(Kind::Callable) => Ok(Variant::Callable(Callable)),
            Some(kind) => Err(wrong_shape(kind)),
            None => Ok(Variant::Nil),
        }
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Variant> {
        Ok(Variant::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Variant> {
        match self.kind(name) {
            Some(kind) if kind.shape() == Shape::Newtype => newtype_builtin(kind, value),
            Some(kind) => Err(wrong_shape(kind)),
            None => value.serialize(NESTED),
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Variant> {
        let mut d = Dictionary::with_capacity(1);
        d.insert(variant, to_variant(value)?);
        Ok(Variant::Dictionary(d))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqCollect> {
        Ok(SeqCollect {
            items: Vec::with_capacity(len.unwrap_or(0).min(4096)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqCollect> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<SeqCollect> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqCollect> {
        Ok(SeqCollect {
            items: Vec::with_capacity(len.min(4096)),
            variant: Some(variant),
        })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapCollect> {
        Ok(MapCollect::new(len.unwrap_or(0), None, None))
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<MapCollect> {
        Ok(MapCollect::new(len, self.kind(name), None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapCollect> {
        Ok(MapCollect::new(len, None, Some(variant)))
    }
}

/// A builtin whose private name came with the wrong serde shape (not one of this crate's
/// own types).
#[cold]
pub(crate) fn wrong_shape(kind: Kind) -> Error {
    ErrorKind::Unsupported(format!(
        "a value named {} that is not shaped as that builtin",
        kind.name()
    ))
    .into()
}

/// The builtin of a newtype-shaped `kind` (StringName, RID, object id, packed array) from
/// its content.
fn newtype_builtin<T: Serialize + ?Sized>(kind: Kind, value: &T) -> Result<Variant> {
    match kind {
        Kind::Rid => Ok(Variant::Rid(Rid(capture_u64(value)?))),
        Kind::ObjectId => Ok(Variant::ObjectId(ObjectId(capture_u64(value)?))),
        _ => {
            let content = value.serialize(NESTED)?;
            from_content(kind, content)
        }
    }
}

/// A newtype-shaped builtin from its content as a `Variant` (a String, an Array of
/// elements), checked as decoding checks it.
pub(crate) fn from_content(kind: Kind, content: Variant) -> Result<Variant> {
    macro_rules! packed {
        ($($t:ident),*) => {
            match kind {
                $(Kind::$t => return $t::deserialize(Newtype(content)).map(Variant::$t),)*
                _ => {}
            }
        };
    }
    use serde::Deserialize;
    for_each_packed!(packed);
    match (kind, content) {
        (Kind::StringName, Variant::String(s)) => Ok(Variant::StringName(StringName(s))),
        (kind, _) => Err(wrong_shape(kind)),
    }
}

/// Presents a value as a newtype's content.
struct Newtype(Variant);

impl<'de> serde::Deserializer<'de> for Newtype {
    type Error = Error;
    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.0.deserialize_any(visitor)
    }
    fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self.0)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// The builtin of a struct-shaped `kind` from the fields its `Serialize` gave. Fields of
/// other names (serde's internal tag) make it a Dictionary of those fields, with the
/// builtin under its private name (see [`crate::builtin`]).
pub(crate) fn from_fields(kind: Kind, fields: Dictionary) -> Result<Variant> {
    let own = kind.fields();
    let mut mine = Dictionary::with_capacity(own.len());
    let mut foreign = Dictionary::new();
    for (key, value) in fields {
        match key.as_str() {
            Some(name) if own.contains(&name) => mine.insert(key, value),
            _ => foreign.insert(key, value),
        };
    }
    let value = construct(kind, mine)?;
    if foreign.is_empty() {
        return Ok(value);
    }
    foreign.insert(kind.name(), value);
    Ok(Variant::Dictionary(foreign))
}

/// Reads a struct-shaped builtin from its named fields, with its own derived code.
fn construct(kind: Kind, fields: Dictionary) -> Result<Variant> {
    if kind == Kind::Callable {
        return match fields.is_empty() {
            true => Ok(Variant::Callable(Callable)),
            false => Err(wrong_shape(kind)),
        };
    }
    if kind == Kind::Signal {
        // Built here: its object id is kept as bits in an int (see `MapCollect::field`).
        let name = fields
            .get("name")
            .and_then(Variant::as_str)
            .map(str::to_owned);
        let object = fields.get("object").and_then(Variant::as_int);
        return match (name, object, fields.len()) {
            (Some(name), Some(object), 2) => Ok(Variant::Signal(Signal {
                name,
                object: object as u64,
            })),
            _ => Err(wrong_shape(kind)),
        };
    }
    let d = || serde::de::value::MapDeserializer::<_, Error>::new(fields.into_iter());
    macro_rules! shaped {
        ($($t:ident),*) => {
            match kind {
                $(Kind::$t => return <$t as Builtin>::from_shape(d()).map(Variant::$t),)*
                _ => {}
            }
        };
    }
    crate::types::leaves::for_each_fixed!(shaped);
    shaped!(NodePath, Object, Image, InputEvent);
    use serde::Deserialize;
    match kind {
        Kind::TypedArray => Ok(Variant::Array(TypedArrayShape::deserialize(d())?.into())),
        Kind::PackedTypedArray => Ok(Variant::PackedTypedArray(
            TypedArrayShape::deserialize(d())?.into(),
        )),
        Kind::TypedDictionary => Ok(Variant::Dictionary(
            TypedDictionaryShape::deserialize(d())?.into(),
        )),
        _ => Err(wrong_shape(kind)),
    }
}

/// Elements of a sequence, tuple or tuple variant.
pub(crate) struct SeqCollect {
    items: Vec<Variant>,
    variant: Option<&'static str>,
}

impl SeqCollect {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.items.push(to_variant(value)?);
        Ok(())
    }

    fn finish(self) -> Result<Variant> {
        let array = Variant::from(self.items);
        Ok(match self.variant {
            Some(name) => Variant::Dictionary(Dictionary::from_iter([(name, array)])),
            None => array,
        })
    }
}

macro_rules! seq_impls {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for SeqCollect {
            type Ok = Variant;
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.push(value)
            }
            fn end(self) -> Result<Variant> {
                self.finish()
            }
        }
    )*};
}
seq_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// Entries of a map, or fields of a struct (a builtin's, when `kind` is set) or of a struct
/// variant.
pub(crate) struct MapCollect {
    dict: Dictionary,
    key: Option<Variant>,
    kind: Option<Kind>,
    variant: Option<&'static str>,
}

impl MapCollect {
    /// The fields of a builtin of `kind`.
    pub(crate) fn for_builtin(kind: Kind) -> Self {
        MapCollect::new(kind.fields().len(), Some(kind), None)
    }

    fn new(len: usize, kind: Option<Kind>, variant: Option<&'static str>) -> Self {
        MapCollect {
            dict: Dictionary::with_capacity(len.min(4096)),
            key: None,
            kind,
            variant,
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<()> {
        let value = match (self.kind, name) {
            // An object id, past i64::MAX when bit 63 is set: kept as its bits.
            (Some(Kind::Signal), "object") => Variant::Int(capture_u64(value)? as i64),
            _ => to_variant(value)?,
        };
        self.dict.insert(name, value);
        Ok(())
    }

    fn finish(self) -> Result<Variant> {
        let value = match self.kind {
            Some(kind) => from_fields(kind, self.dict)?,
            None => Variant::Dictionary(self.dict),
        };
        Ok(match self.variant {
            Some(name) => Variant::Dictionary(Dictionary::from_iter([(name, value)])),
            None => value,
        })
    }
}

impl ser::SerializeMap for MapCollect {
    type Ok = Variant;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.key = Some(to_variant(key)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ErrorKind::Custom("a map value without its key".into()))?;
        // As decoding the map's bytes would add it (an object key is an entry of its own).
        self.dict.insert_decoded(key, to_variant(value)?);
        Ok(())
    }
    fn end(self) -> Result<Variant> {
        self.finish()
    }
}

impl ser::SerializeStruct for MapCollect {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<Variant> {
        self.finish()
    }
}

impl ser::SerializeStructVariant for MapCollect {
    type Ok = Variant;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.field(key, value)
    }
    fn end(self) -> Result<Variant> {
        self.finish()
    }
}

/// The u64 inside a `Rid` or `ObjectId` (which can be past `i64::MAX`: object ids use bit
/// 63).
pub(crate) fn capture_u64<T: Serialize + ?Sized>(value: &T) -> Result<u64> {
    value.serialize(U64Capture)
}

struct U64Capture;

fn not_an_id() -> Error {
    ErrorKind::Unsupported("an id that is not an unsigned integer".into()).into()
}

impl Serializer for U64Capture {
    type Ok = u64;
    type Error = Error;
    type SerializeSeq = Impossible<u64, Error>;
    type SerializeTuple = Impossible<u64, Error>;
    type SerializeTupleStruct = Impossible<u64, Error>;
    type SerializeTupleVariant = Impossible<u64, Error>;
    type SerializeMap = Impossible<u64, Error>;
    type SerializeStruct = Impossible<u64, Error>;
    type SerializeStructVariant = Impossible<u64, Error>;

    fn serialize_u64(self, v: u64) -> Result<u64> {
        Ok(v)
    }
    fn serialize_u32(self, v: u32) -> Result<u64> {
        Ok(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<u64> {
        u64::try_from(v).map_err(|_| not_an_id())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<u64> {
        v.serialize(self)
    }
    fn serialize_bool(self, _: bool) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_i8(self, _: i8) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_i16(self, _: i16) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_i32(self, v: i32) -> Result<u64> {
        u64::try_from(v).map_err(|_| not_an_id())
    }
    fn serialize_u8(self, v: u8) -> Result<u64> {
        Ok(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<u64> {
        Ok(v.into())
    }
    fn serialize_f32(self, _: f32) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_f64(self, _: f64) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_char(self, _: char) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_str(self, _: &str) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_none(self) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_unit(self) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<u64> {
        Err(not_an_id())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_an_id())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(not_an_id())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_an_id())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_an_id())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_an_id())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(not_an_id())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_an_id())
    }
}

/// A value serialized with its top level taken as plain data (a struct as a Dictionary of
/// its fields, a builtin's private name not recognised): the shape of a builtin's own
/// fields.
pub(crate) fn to_plain_variant<T: serde::Serialize + ?Sized>(value: &T) -> Result<Variant> {
    value.serialize(ValueSerializer { plain: true })
}
