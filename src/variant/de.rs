//! `Deserialize` for [`Variant`], and `Variant` as a serde `Deserializer` ([`from_variant`]).
//!
//! godot_bin's own deserializer decodes a `Variant` in one pass and gives it over whole
//! (see [`crate::builtin::give`]). Through serde's buffering, a builtin packet arrives as the
//! one-entry map of its private name (see [`crate::builtin`]), which the visitor here turns
//! back into that builtin: so a `Variant` keeps every type either way. From other formats,
//! maps become Dictionaries and sequences Arrays.
//!
//! As a deserializer, a `Variant` presents itself as godot_bin's deserializer presents the
//! packet it encodes to: `from_variant(v)` gives what `from_slice(&to_vec(&v)?)` gives,
//! without the bytes, and its errors name the same place ([`Error::path`]; the elements and
//! entries are handed out by `access.rs`, which adds each step, as `src/de/access.rs`
//! does for the bytes).

use super::access::{Elements, Entries};
use super::ser::to_plain_variant;
use super::shapes::{TypedArrayShape, TypedDictionaryShape};
use super::{Array, Dictionary, Variant};
use crate::builtin::leaves::{self, ArrayLeaves, LeafStream, OneEntry, Two};
use crate::builtin::{content, Builtin, Kind, MapValueSeed, Shape};
use crate::error::{Error, ErrorKind, Result};
use crate::packet::packed::elem_kind;
use crate::types::godot2::{Image, InputEvent};
use crate::types::leaves::{for_each_fixed, Component, Fixed};
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Object;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer as _, IntoDeserializer, MapAccess, SeqAccess,
    Visitor,
};
use std::fmt;
use std::marker::PhantomData;

/// Decodes a `T` from a [`Variant`], as serde_json's `from_value` does from a `Value`:
/// the same result as encoding the variant and decoding the bytes, without the bytes. An
/// error names where in the value it happened ([`Error::path`]), as
/// [`from_slice`](crate::de::from_slice)'s does; having no bytes, it has no
/// [`offset`](Error::offset).
///
/// ```
/// use godot_bin::{from_variant, to_variant, Variant, Vector3};
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Spawn { at: Vector3, name: String }
///
/// let spawn = Spawn { at: Vector3::new(1.0, 2.0, 3.0), name: "orc".into() };
/// let v: Variant = to_variant(&spawn)?;
/// assert_eq!(v.get("at"), Some(&Variant::Vector3(spawn.at)));
/// assert_eq!(from_variant::<Spawn>(v.clone())?, spawn);
///
/// let mut wrong = v.as_dictionary().unwrap().clone();
/// wrong.insert("at", "here");
/// let err = from_variant::<Spawn>(wrong.into()).unwrap_err();
/// assert_eq!(err.path(), "at");
/// assert_eq!(err.to_string(), "expected Vector3, found String at at");
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn from_variant<T: de::DeserializeOwned>(value: Variant) -> Result<T> {
    T::deserialize(value)
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        d.deserialize_any(VariantVisitor)
    }
}

impl<'de> Deserialize<'de> for Array {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Array, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Array(a) => Ok(a),
            other => Err(de::Error::custom(format_args!(
                "expected Array, found {}",
                other.get_type()
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Dictionary {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Dictionary, D::Error> {
        match Variant::deserialize(d)? {
            Variant::Dictionary(dict) => Ok(dict),
            other => Err(de::Error::custom(format_args!(
                "expected Dictionary, found {}",
                other.get_type()
            ))),
        }
    }
}

/// The builtin of `kind` from the content of its one-entry map.
fn builtin_from_map_value<'de, A: MapAccess<'de>>(
    kind: Kind,
    map: &mut A,
) -> Result<Variant, A::Error> {
    fn seed<T: Builtin>() -> MapValueSeed<T> {
        MapValueSeed(PhantomData)
    }
    macro_rules! fixed {
        ($($t:ident),*) => {
            match kind {
                $(Kind::$t => return map.next_value_seed(seed::<$t>()).map(Variant::$t),)*
                _ => {}
            }
        };
    }
    for_each_fixed!(fixed);
    macro_rules! packed {
        ($($t:ident),*) => {
            match kind {
                $(Kind::$t => return map.next_value_seed(content::<$t>(kind)).map(Variant::$t),)*
                _ => {}
            }
        };
    }
    for_each_packed!(packed);
    Ok(match kind {
        Kind::StringName => Variant::StringName(StringName(map.next_value_seed(content(kind))?)),
        Kind::NodePath => Variant::NodePath(map.next_value_seed(seed::<NodePath>())?),
        Kind::Rid => Variant::Rid(Rid(map.next_value_seed(content(kind))?)),
        Kind::ObjectId => Variant::ObjectId(ObjectId(map.next_value_seed(content(kind))?)),
        Kind::Object => Variant::Object(map.next_value_seed(seed::<Object>())?),
        Kind::Callable => {
            map.next_value::<de::IgnoredAny>()?;
            Variant::Callable(Callable)
        }
        Kind::Signal => Variant::Signal(map.next_value_seed(seed::<Signal>())?),
        Kind::Image => Variant::Image(map.next_value_seed(seed::<Image>())?),
        Kind::InputEvent => Variant::InputEvent(map.next_value_seed(seed::<InputEvent>())?),
        Kind::TypedArray => Variant::Array(
            map.next_value_seed(content::<TypedArrayShape>(kind))?
                .into(),
        ),
        Kind::PackedTypedArray => Variant::PackedTypedArray(
            map.next_value_seed(content::<TypedArrayShape>(kind))?
                .into(),
        ),
        Kind::TypedDictionary => Variant::Dictionary(
            map.next_value_seed(content::<TypedDictionaryShape>(kind))?
                .into(),
        ),
        _ => unreachable!("every kind is read above"),
    })
}

pub(crate) struct VariantVisitor;

// No lifetime parameters: it can be given a Variant decoded whole (`crate::builtin::give`).
impl crate::builtin::give::Own for VariantVisitor {}

impl<'de> Visitor<'de> for VariantVisitor {
    type Value = Variant;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any Godot value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Variant, E> {
        Ok(Variant::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Variant, E> {
        Ok(Variant::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Variant, E> {
        i64::try_from(v)
            .map(Variant::Int)
            .map_err(|_| E::custom(format_args!("{v} does not fit in int (i64)")))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Variant, E> {
        Ok(Variant::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Variant, E> {
        Ok(Variant::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Variant, E> {
        Ok(Variant::String(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v.to_vec())))
    }
    fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Variant, E> {
        Ok(Variant::PackedByteArray(PackedByteArray(v)))
    }
    fn visit_unit<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_none<E>(self) -> Result<Variant, E> {
        Ok(Variant::Nil)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<Variant, D::Error> {
        Variant::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Variant, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Variant::from(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Variant, A::Error> {
        let mut dict = Dictionary::with_capacity(map.size_hint().unwrap_or(0).min(4096));
        let Some(first) = map.next_key::<Variant>()? else {
            return Ok(Variant::Dictionary(dict));
        };
        if let Variant::String(name) = &first {
            if let Some(kind) = Kind::by_name(name) {
                let value = builtin_from_map_value(kind, &mut map)?;
                return match map.next_key::<de::IgnoredAny>()? {
                    None => Ok(value),
                    Some(_) => Err(de::Error::custom(
                        "a builtin's map holds more than its one entry",
                    )),
                };
            }
        }
        let value: Variant = map.next_value()?;
        dict.insert_decoded(first, value);
        while let Some((key, value)) = map.next_entry::<Variant, Variant>()? {
            dict.insert_decoded(key, value);
        }
        Ok(Variant::Dictionary(dict))
    }
}

/// The content of a builtin's one-entry map (see [`crate::builtin`]), for the values that
/// are builtins in serde's eyes; `Err` gives back the others (the plain types, plain
/// Arrays and Dictionaries, byte arrays).
pub(crate) fn map_content(v: Variant) -> std::result::Result<(Kind, MapContent), Variant> {
    match v {
        Variant::Rid(Rid(id)) => Ok((Kind::Rid, MapContent::Id(id))),
        Variant::ObjectId(ObjectId(id)) => Ok((Kind::ObjectId, MapContent::Id(id))),
        Variant::Signal(s) => Ok((Kind::Signal, MapContent::Signal(s.name, s.object))),
        other => plain_content(other).map(|(kind, v)| (kind, MapContent::Value(v))),
    }
}

/// The content of a builtin's one-entry map. Ids are u64s, which a `Variant` (whose ints
/// are i64) cannot hold whole.
pub(crate) enum MapContent {
    Value(Variant),
    Id(u64),
    Signal(String, u64),
}

impl<'de> de::Deserializer<'de> for MapContent {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            MapContent::Value(v) => Plain(v).deserialize_any(visitor),
            MapContent::Id(id) => visitor.visit_u64(id),
            MapContent::Signal(name, id) => visitor.visit_seq(Two::new(
                name.into_deserializer(),
                de::value::U64Deserializer::<Error>::new(id),
            )),
        }
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match self {
            // The content of a packed array, asked for its elements.
            MapContent::Value(v) => Plain(v).deserialize_any(visitor),
            other => other.deserialize_any(visitor),
        }
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            MapContent::Value(v) => Plain(v).deserialize_option(visitor),
            other => other.deserialize_any(visitor),
        }
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self {
            MapContent::Value(v) => v.deserialize_enum(name, variants, visitor),
            other => other.deserialize_any(visitor),
        }
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// A builtin's content (numbers, strings, lists of them, Variants inside) presented as
/// plain data, as serde's own buffer presents it: whatever shape is asked for, the value
/// as it is. (A `Variant` asked for a builtin by name wants that builtin; a builtin's
/// content holds its parts, a `Color`'s components in a list.)
struct Plain(Variant);

impl IntoDeserializer<'_, Error> for Plain {
    type Deserializer = Plain;
    fn into_deserializer(self) -> Plain {
        self
    }
}

impl<'de> de::Deserializer<'de> for Plain {
    type Error = Error;
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Variant::Array(a) if a.element_type.is_untyped() && !a.shared => {
                let mut seq = de::value::SeqDeserializer::new(a.items.into_iter().map(Plain));
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            other => other.deserialize_any(visitor),
        }
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.0 {
            Variant::Nil => visitor.visit_none(),
            other => visitor.visit_some(Plain(other)),
        }
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.0.deserialize_enum(name, variants, visitor)
    }
    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// [`map_content`] for the builtins whose content a `Variant` holds.
fn plain_content(v: Variant) -> std::result::Result<(Kind, Variant), Variant> {
    fn leaves<T: Fixed>(x: &T) -> Variant {
        let (l, n) = x.leaves();
        Variant::from(
            l[..n]
                .iter()
                .map(|leaf| match leaf {
                    Component::F32(f) => Variant::Float((*f).into()),
                    Component::I32(i) => Variant::Int((*i).into()),
                })
                .collect::<Vec<_>>(),
        )
    }
    fn list<T, F: Fn(T) -> Variant>(items: Vec<T>, f: F) -> Variant {
        Variant::from(items.into_iter().map(f).collect::<Vec<_>>())
    }
    macro_rules! fixed {
        ($($t:ident),*) => {
            match &v {
                $(Variant::$t(x) => return Ok((Kind::$t, leaves(x))),)*
                _ => {}
            }
        };
    }
    for_each_fixed!(fixed);
    let strings = |s: Vec<String>| list(s, Variant::String);
    Ok(match v {
        Variant::StringName(s) => (Kind::StringName, Variant::String(s.0)),
        Variant::NodePath(p) => (
            Kind::NodePath,
            Variant::from(vec![
                strings(p.names),
                strings(p.subnames),
                Variant::Bool(p.absolute),
            ]),
        ),
        Variant::Object(o) => (
            Kind::Object,
            Variant::from(vec![
                Variant::String(o.class_name),
                list(o.properties, |(n, v)| {
                    Variant::from(vec![Variant::String(n), v])
                }),
            ]),
        ),
        Variant::Callable(_) => (Kind::Callable, Variant::Nil),
        Variant::Image(i) => (
            Kind::Image,
            Variant::from(vec![
                i.format.into(),
                i.mipmaps.into(),
                i.width.into(),
                i.height.into(),
                Variant::PackedByteArray(PackedByteArray(i.data)),
            ]),
        ),
        Variant::InputEvent(e) => (
            Kind::InputEvent,
            Variant::from(vec![
                e.event_type.into(),
                e.device.into(),
                list(e.extra, Variant::from),
            ]),
        ),
        Variant::Array(a) if !a.element_type.is_untyped() || a.shared => {
            (Kind::TypedArray, typed_array_content(a))
        }
        Variant::PackedTypedArray(a) => (Kind::PackedTypedArray, typed_array_content(a)),
        Variant::Dictionary(d) if d.is_typed() || d.shared => {
            let key_type = to_plain_variant(d.key_type()).unwrap_or_default();
            let value_type = to_plain_variant(d.value_type()).unwrap_or_default();
            let shared = Variant::Bool(d.shared);
            let entries = d
                .into_iter()
                .map(|(k, v)| Variant::from(vec![k, v]))
                .collect::<Vec<_>>();
            (
                Kind::TypedDictionary,
                Variant::from(vec![key_type, value_type, shared, Variant::from(entries)]),
            )
        }
        Variant::PackedInt32Array(x) => (Kind::PackedInt32Array, list(x.0, Variant::from)),
        Variant::PackedInt64Array(x) => (Kind::PackedInt64Array, list(x.0, Variant::from)),
        Variant::PackedFloat32Array(x) => (Kind::PackedFloat32Array, list(x.0, Variant::from)),
        Variant::PackedFloat64Array(x) => (Kind::PackedFloat64Array, list(x.0, Variant::from)),
        Variant::PackedStringArray(x) => (Kind::PackedStringArray, strings(x.0)),
        Variant::PackedVector2Array(x) => (Kind::PackedVector2Array, list(x.0, |e| leaves(&e))),
        Variant::PackedVector3Array(x) => (Kind::PackedVector3Array, list(x.0, |e| leaves(&e))),
        Variant::PackedVector4Array(x) => (Kind::PackedVector4Array, list(x.0, |e| leaves(&e))),
        Variant::PackedColorArray(x) => (Kind::PackedColorArray, list(x.0, |e| leaves(&e))),
        Variant::PackedVector2iArray(x) => (Kind::PackedVector2iArray, list(x.0, |e| leaves(&e))),
        Variant::PackedVector3iArray(x) => (Kind::PackedVector3iArray, list(x.0, |e| leaves(&e))),
        Variant::PackedVector4iArray(x) => (Kind::PackedVector4iArray, list(x.0, |e| leaves(&e))),
        other => return Err(other),
    })
}

fn typed_array_content(a: Array) -> Variant {
    Variant::from(vec![
        to_plain_variant(&a.element_type).unwrap_or_default(),
        Variant::Bool(a.shared),
        Variant::from(a.items),
    ])
}

/// The content of a packed array (its elements), or the value itself.
fn content_or_self(v: Variant) -> MapContent {
    match map_content(v) {
        Ok((_, content)) => content,
        Err(v) => MapContent::Value(v),
    }
}

/// Presents a struct-shaped builtin that godot_bin's deserializer decoded itself: its
/// fields in order as a sequence (to its own type), or its one-entry map.
pub(crate) fn present_fields<'de, V: Visitor<'de>>(
    value: &(impl Clone + Into<Variant>),
    visitor: V,
    kind: Kind,
    as_map: bool,
) -> Result<V::Value> {
    let content = content_or_self(value.clone().into());
    if as_map {
        visitor.visit_map(OneEntry::new(kind.name(), content))
    } else {
        content.deserialize_any(visitor)
    }
}

/// The kind of builtin a value is (its private name), if it is one in serde's eyes.
fn kind_of(v: &Variant) -> Option<Kind> {
    match v {
        Variant::ObjectId(_) => Some(Kind::ObjectId),
        Variant::Array(a) if a.element_type.is_untyped() && !a.shared => None,
        Variant::Dictionary(d) if !d.is_typed() && !d.shared => None,
        other => Kind::of_type(other.get_type()),
    }
}

impl IntoDeserializer<'_, Error> for Variant {
    type Deserializer = Variant;
    fn into_deserializer(self) -> Variant {
        self
    }
}

impl Variant {
    /// Presents this value as the builtin `kind` asked for by name: in its own shape, or
    /// converted as GDScript converts on assignment.
    fn requested<'de, V: Visitor<'de>>(self, kind: Kind, visitor: V) -> Result<V::Value> {
        let own = kind_of(&self) == Some(kind);
        let packed = elem_kind(kind.ty()).is_some();
        match self {
            Variant::Callable(_) if own => visitor.visit_unit(),
            Variant::PackedByteArray(b) if own => {
                visitor.visit_newtype_struct(de::value::BytesDeserializer::new(&b.0))
            }
            v if own && kind.shape() == Shape::Fixed => {
                let leaves = v.fixed_leaves().expect("a fixed builtin");
                let mut src = ArrayLeaves::new(leaves);
                leaves::all(&mut src, |src| {
                    de::Deserializer::deserialize_struct(
                        LeafStream {
                            src,
                            element: false,
                        },
                        kind.name(),
                        kind.fields(),
                        visitor,
                    )
                })
            }
            v if own => {
                let content = content_or_self(v);
                match kind.shape() {
                    Shape::Newtype => visitor.visit_newtype_struct(content),
                    _ => content.deserialize_any(visitor),
                }
            }
            Variant::String(s) if kind == Kind::StringName => {
                visitor.visit_newtype_struct(s.into_deserializer())
            }
            Variant::NodePath(p) if kind == Kind::StringName => {
                visitor.visit_newtype_struct(p.to_string().into_deserializer())
            }
            Variant::String(s) | Variant::StringName(StringName(s)) if kind == Kind::NodePath => {
                Variant::NodePath(NodePath::from(s)).requested(kind, visitor)
            }
            Variant::Array(a) if packed => visitor.visit_newtype_struct(Variant::from(a.items)),
            other if packed && elem_kind(other.get_type()).is_some() => {
                visitor.visit_newtype_struct(content_or_self(other))
            }
            other => Err(ErrorKind::TypeMismatch {
                expected: kind.ty().name().into(),
                found: other.get_type(),
            }
            .into()),
        }
    }
}

macro_rules! deserialize_int {
    ($($method:ident => $visit:ident: $ty:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self {
                Variant::Int(v) => match <$ty>::try_from(v) {
                    Ok(n) => visitor.$visit(n),
                    Err(_) => Err(ErrorKind::NumberOutOfRange {
                        value: v.to_string(),
                        target: stringify!($ty),
                    }
                    .into()),
                },
                other => other.deserialize_any(visitor),
            }
        }
    )*};
}

/// `Variant` as a serde `Deserializer`, presenting itself as godot_bin's deserializer
/// presents its packet.
impl<'de> de::Deserializer<'de> for Variant {
    type Error = Error;

    fn is_human_readable(&self) -> bool {
        true
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(giver) = crate::builtin::give::to::<V, VariantVisitor>() {
            // Itself, whole (see `crate::builtin::give`).
            return Ok(giver.give(self));
        }
        match self {
            Variant::Nil => visitor.visit_unit(),
            Variant::Bool(b) => visitor.visit_bool(b),
            Variant::Int(i) => visitor.visit_i64(i),
            Variant::Float(f) => visitor.visit_f64(f),
            Variant::String(s) => visitor.visit_string(s),
            Variant::PackedByteArray(b) => visitor.visit_byte_buf(b.0),
            Variant::Array(a) if a.element_type.is_untyped() && !a.shared => {
                Elements::visit(a.items, visitor)
            }
            Variant::Dictionary(d) if !d.is_typed() && !d.shared => {
                Entries::visit(d, false, visitor)
            }
            other => match map_content(other) {
                Ok((kind, content)) => visitor.visit_map(OneEntry::new(kind.name(), content)),
                Err(other) => Err(de::Error::custom(format_args!(
                    "cannot present a {}",
                    other.get_type()
                ))),
            },
        }
    }

    deserialize_int!(
        deserialize_i8 => visit_i8: i8, deserialize_i16 => visit_i16: i16,
        deserialize_i32 => visit_i32: i32, deserialize_i64 => visit_i64: i64,
        deserialize_u8 => visit_u8: u8, deserialize_u16 => visit_u16: u16,
        deserialize_u32 => visit_u32: u32, deserialize_u64 => visit_u64: u64,
        deserialize_i128 => visit_i128: i128, deserialize_u128 => visit_u128: u128
    );

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Variant::Float(f) => visitor.visit_f32(f as f32),
            Variant::Int(i) => visitor.visit_f32(i as f32),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Variant::Int(i) => visitor.visit_f64(i as f64),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Variant::Nil => visitor.visit_none(),
            other => visitor.visit_some(other),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Variant::String(s) | Variant::StringName(StringName(s)) => visitor.visit_string(s),
            Variant::NodePath(p) => visitor.visit_string(p.to_string()),
            Variant::PackedByteArray(_) => Err(ErrorKind::TypeMismatch {
                expected: "String".into(),
                found: crate::dialect::VariantType::PackedByteArray,
            }
            .into()),
            other => other.deserialize_any(visitor),
        }
    }

    crate::builtin::forward_shapes!('de);

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            Variant::Array(a) | Variant::PackedTypedArray(a) => {
                Variant::from(a.items).deserialize_any(visitor)
            }
            Variant::PackedByteArray(b) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(b.0.into_iter()))
            }
            v if v.fixed_leaves().is_some() => {
                let mut src = ArrayLeaves::new(v.fixed_leaves().expect("checked"));
                leaves::all(&mut src, |src| {
                    visitor.visit_seq(leaves::FlatLeaves { src })
                })
            }
            other if elem_kind(other.get_type()).is_some() => {
                content_or_self(other).deserialize_any(visitor)
            }
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        match Kind::by_name(name) {
            Some(kind) => self.requested(kind, visitor),
            // A packed array's bulk request: its elements.
            None if name == crate::builtin::packed::NAME => self.deserialize_any(visitor),
            None => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match (Kind::by_name(name), self) {
            (Some(kind), v) => v.requested(kind, visitor),
            // The entries of a Dictionary (typed or not; a Godot 2 shared one presents
            // itself as a builtin), its keys as field names.
            (None, Variant::Dictionary(d)) if d.is_typed() || !d.shared => {
                Entries::visit(d, true, visitor)
            }
            (None, v) => v.deserialize_map(visitor),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            // A typed Dictionary's entries, for a map or a struct.
            Variant::Dictionary(d) if d.is_typed() => Entries::visit(d, false, visitor),
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self {
            Variant::String(s) | Variant::StringName(StringName(s)) => {
                visitor.visit_enum(s.into_deserializer())
            }
            Variant::Dictionary(d) if d.len() == 1 => {
                let (name, content) = d.into_iter().next().expect("one entry");
                visitor.visit_enum(EnumAccess { name, content })
            }
            other => Err(ErrorKind::TypeMismatch {
                expected: "an enum (a String or a one-entry Dictionary)".into(),
                found: other.get_type(),
            }
            .into()),
        }
    }

    serde::forward_to_deserialize_any! {
        bool char bytes byte_buf unit ignored_any
    }
}

/// `{variant: content}` of an externally tagged enum.
struct EnumAccess {
    name: Variant,
    content: Variant,
}

impl<'de> de::EnumAccess<'de> for EnumAccess {
    type Error = Error;
    type Variant = Variant;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Variant)> {
        Ok((seed.deserialize(self.name)?, self.content))
    }
}

impl<'de> de::VariantAccess<'de> for Variant {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Deserialize::deserialize(self)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _: usize, visitor: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(self, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_map(self, visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::give::to;
    use crate::builtin::StructVisitor;
    use serde::de::IgnoredAny;

    #[test]
    fn a_variant_is_given_to_its_own_visitor_only() {
        // A value with a heap part arrives whole, and is dropped once (a double drop
        // would be caught by the allocator, or by Miri).
        let d = Variant::Array(vec![Variant::from("x"), Variant::Int(7)].into());
        let giver = to::<VariantVisitor, VariantVisitor>().unwrap();
        assert_eq!(giver.give(d.clone()), d);
        assert!(to::<IgnoredAny, VariantVisitor>().is_none());
        assert!(to::<StructVisitor<Vector3>, VariantVisitor>().is_none());
    }
}
