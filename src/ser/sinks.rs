//! Writing builtins from their serde calls: the math types' components and the packed
//! arrays' elements as they arrive, everything else gathered into a
//! [`Variant`](crate::variant::Variant) (by the same code as [`to_variant`](crate::variant::to_variant)) and
//! written whole by the packet layer.

use super::{Compound, Serializer};
use crate::builtin::Kind;
use crate::error::{Error, ErrorKind, Result};
use crate::packet::math;
use crate::packet::object;
use crate::packet::packed::{self, ElemKind};
use crate::packet::writer::Put;
use crate::types::leaves::{layout, Component, ComponentKind};
use crate::variant::ser::{capture_u64, from_content, MapCollect, ValueSerializer};
use serde::ser::{self, Impossible, Serialize, SerializeStruct};

#[cold]
fn unexpected(what: &str, kind: Kind) -> Error {
    ErrorKind::Unsupported(format!("{what} inside a {}", kind.ty())).into()
}

impl<'a> Serializer<'a> {
    /// A newtype-shaped builtin: StringName, RID, object id, packed array.
    pub(super) fn newtype_builtin<T: Serialize + ?Sized>(
        &mut self,
        kind: Kind,
        value: &T,
    ) -> Result<()> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        match kind {
            Kind::Rid => object::write_rid(&mut self.out, &self.ctx, capture_u64(value)?),
            Kind::ObjectId => object::write_id(&mut self.out, &self.ctx, capture_u64(value)?),
            Kind::StringName | Kind::PackedByteArray | Kind::PackedStringArray => {
                let content = value.serialize(ValueSerializer { plain: false })?;
                let v = from_content(kind, content)?;
                self.variant(&v)
            }
            _ => {
                let ty = kind.ty();
                let elem = packed::elem_kind(ty).ok_or_else(|| unexpected("a newtype", kind))?;
                let wide = math::write_wide(&self.ctx, ty);
                self.header(ty, math::write_flags(&self.ctx, ty))?;
                let count_at = self.out.len();
                self.out.put_u32(0);
                let count = value.serialize(PackedSink {
                    out: &mut self.out,
                    kind,
                    elem,
                    wide,
                    raw: false,
                })?;
                let count = i32::try_from(count).map_err(|_| {
                    ErrorKind::Unsupported(format!(
                        "a packed array of {count} elements (the engine's count is an i32)"
                    ))
                })?;
                self.out.patch_u32(count_at, count as u32);
                Ok(())
            }
        }
    }

    /// A struct-shaped builtin other than the math types: its fields, gathered.
    pub(super) fn collect<'s>(&'s mut self, kind: Kind) -> Result<Compound<'s, 'a>> {
        Ok(Compound::Collect(Box::new(Collect {
            ser: self,
            fields: MapCollect::for_builtin(kind),
        })))
    }
}

/// The fields of a builtin, gathered to be written whole.
pub struct Collect<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    fields: MapCollect,
}

impl Collect<'_, '_> {
    pub(super) fn field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        self.fields.serialize_field(name, value)
    }

    pub(super) fn finish(self) -> Result<()> {
        let v = self.fields.end()?;
        self.ser.variant(&v)
    }
}

/// The components of a math builtin, written as they arrive. A first field of another
/// name (serde's internal tag) turns it into a Dictionary of its fields with the builtin
/// under its private name (see [`crate::builtin`]): what was written is taken back and the
/// fields are gathered instead.
pub struct FixedFields<'s, 'a> {
    ser: &'s mut Serializer<'a>,
    /// Where the packet started, to take it back.
    start: usize,
    fallback: Option<Box<MapCollect>>,
    /// Components still to come.
    left: u32,
    kind: Kind,
    leaf: ComponentKind,
    wide: bool,
    first: bool,
}

impl<'s, 'a> FixedFields<'s, 'a> {
    /// Writes the header. Small and inlined into `serialize_struct`, so that the caller
    /// builds the result in place.
    #[inline(always)]
    pub(super) fn begin(ser: &'s mut Serializer<'a>, kind: Kind) -> Result<Self> {
        let ty = kind.ty();
        let (leaf, n) = layout(ty).expect("a fixed builtin");
        let wide = math::write_wide(&ser.ctx, ty);
        let start = ser.out.len();
        let flags = if wide {
            crate::packet::header::FLAG_64
        } else {
            0
        };
        ser.header(ty, flags)?;
        Ok(FixedFields {
            ser,
            start,
            fallback: None,
            left: n as u32,
            kind,
            leaf,
            wide,
            first: true,
        })
    }

    #[inline]
    pub(super) fn field<T: Serialize + ?Sized>(
        &mut self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        if self.first {
            self.first = false;
            if name != self.kind.fields()[0] {
                self.ser.out.truncate(self.start);
                self.fallback = Some(Box::new(MapCollect::for_builtin(self.kind)));
            }
        }
        if let Some(fields) = &mut self.fallback {
            return fields.serialize_field(name, value);
        }
        value.serialize(LeafSink {
            out: &mut self.ser.out,
            kind: self.kind,
            leaf: self.leaf,
            wide: self.wide,
            left: &mut self.left,
        })
    }

    pub(super) fn finish(self) -> Result<()> {
        if let Some(fields) = self.fallback {
            let v = fields.end()?;
            return self.ser.variant(&v);
        }
        if self.left != 0 {
            return Err(unexpected("too few components", self.kind));
        }
        Ok(())
    }
}

/// Writes the numbers of a math builtin (or of a packed array's element) bare, through
/// whatever nesting its type has, counting them down.
struct LeafSink<'o> {
    out: &'o mut Vec<u8>,
    kind: Kind,
    leaf: ComponentKind,
    wide: bool,
    left: &'o mut u32,
}

impl LeafSink<'_> {
    #[inline]
    fn put(self, leaf: Component) -> Result<()> {
        if *self.left == 0 {
            return Err(unexpected("too many components", self.kind));
        }
        *self.left -= 1;
        match (leaf, self.leaf) {
            (Component::F32(_), ComponentKind::I32)
            | (Component::I32(_), ComponentKind::Real | ComponentKind::F32) => {
                return Err(unexpected("a number of another kind", self.kind))
            }
            _ => {}
        }
        math::write_leaf(self.out, self.leaf, self.wide, leaf);
        Ok(())
    }

    fn reborrow(&mut self) -> LeafSink<'_> {
        LeafSink {
            out: self.out,
            kind: self.kind,
            leaf: self.leaf,
            wide: self.wide,
            left: self.left,
        }
    }
}

/// A group inside a math builtin (a `Rect2`'s `Vector2`s, a `Basis`'s rows).
struct LeafGroup<'o>(LeafSink<'o>);

macro_rules! group_impls {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for LeafGroup<'_> {
            type Ok = ();
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(self.0.reborrow())
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}
group_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeStruct for LeafGroup<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<()> {
        value.serialize(self.0.reborrow())
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

/// `Serializer` methods a sink does not take: each an error naming what came.
macro_rules! reject {
    ($ok:ty; $($m:ident)*) => { $(reject!(@ $ok; $m);)* };
    (@ $ok:ty; bool) => { fn serialize_bool(self, _: bool) -> Result<$ok> { Err(self.refuse("a bool")) } };
    (@ $ok:ty; i8) => { fn serialize_i8(self, _: i8) -> Result<$ok> { Err(self.refuse("an i8")) } };
    (@ $ok:ty; i16) => { fn serialize_i16(self, _: i16) -> Result<$ok> { Err(self.refuse("an i16")) } };
    (@ $ok:ty; u8) => { fn serialize_u8(self, _: u8) -> Result<$ok> { Err(self.refuse("a u8")) } };
    (@ $ok:ty; u16) => { fn serialize_u16(self, _: u16) -> Result<$ok> { Err(self.refuse("a u16")) } };
    (@ $ok:ty; u32) => { fn serialize_u32(self, _: u32) -> Result<$ok> { Err(self.refuse("a u32")) } };
    (@ $ok:ty; u64) => { fn serialize_u64(self, _: u64) -> Result<$ok> { Err(self.refuse("a u64")) } };
    (@ $ok:ty; char) => { fn serialize_char(self, _: char) -> Result<$ok> { Err(self.refuse("a char")) } };
    (@ $ok:ty; str) => { fn serialize_str(self, _: &str) -> Result<$ok> { Err(self.refuse("a string")) } };
    (@ $ok:ty; bytes) => { fn serialize_bytes(self, _: &[u8]) -> Result<$ok> { Err(self.refuse("bytes")) } };
    (@ $ok:ty; none) => { fn serialize_none(self) -> Result<$ok> { Err(self.refuse("None")) } };
    (@ $ok:ty; some) => {
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<$ok> { Err(self.refuse("Some")) }
    };
    (@ $ok:ty; unit) => { fn serialize_unit(self) -> Result<$ok> { Err(self.refuse("()")) } };
    (@ $ok:ty; unit_struct) => {
        fn serialize_unit_struct(self, _: &'static str) -> Result<$ok> { Err(self.refuse("a unit struct")) }
    };
    (@ $ok:ty; unit_variant) => {
        fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<$ok> {
            Err(self.refuse("an enum"))
        }
    };
    (@ $ok:ty; newtype_variant) => {
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self, _: &'static str, _: u32, _: &'static str, _: &T,
        ) -> Result<$ok> {
            Err(self.refuse("an enum"))
        }
    };
    (@ $ok:ty; tuple_variant) => {
        fn serialize_tuple_variant(
            self, _: &'static str, _: u32, _: &'static str, _: usize,
        ) -> Result<Self::SerializeTupleVariant> {
            Err(self.refuse("an enum"))
        }
    };
    (@ $ok:ty; map) => {
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> { Err(self.refuse("a map")) }
    };
    (@ $ok:ty; struct_variant) => {
        fn serialize_struct_variant(
            self, _: &'static str, _: u32, _: &'static str, _: usize,
        ) -> Result<Self::SerializeStructVariant> {
            Err(self.refuse("an enum"))
        }
    };
}

impl<'o> ser::Serializer for LeafSink<'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = LeafGroup<'o>;
    type SerializeTuple = LeafGroup<'o>;
    type SerializeTupleStruct = LeafGroup<'o>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = LeafGroup<'o>;
    type SerializeStructVariant = Impossible<(), Error>;

    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.put(Component::F32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.put(Component::F32(v as f32))
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.put(Component::I32(v))
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        let v = i32::try_from(v).map_err(|_| unexpected("an int past i32", self.kind))?;
        self.put(Component::I32(v))
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<LeafGroup<'o>> {
        Ok(LeafGroup(self))
    }
    fn serialize_tuple(self, _: usize) -> Result<LeafGroup<'o>> {
        Ok(LeafGroup(self))
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<LeafGroup<'o>> {
        Ok(LeafGroup(self))
    }
    #[inline]
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<LeafGroup<'o>> {
        Ok(LeafGroup(self))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    reject!((); bool i8 i16 u8 u16 u32 u64 char str bytes none some unit unit_struct
        unit_variant newtype_variant tuple_variant map struct_variant);
}

impl LeafSink<'_> {
    #[cold]
    fn refuse(&self, what: &str) -> Error {
        unexpected(what, self.kind)
    }
}

/// Writes a packed array's elements (its header and count placeholder written) and returns
/// how many came.
///
/// The arrays of numbers and vectors come through the bulk protocol of
/// [`crate::types::packed::raw`]: a newtype of that module's `NAME`, whose content, once
/// asked with `raw::request`, is a sequence of a `u64` (bytes to reserve) and blocks of
/// payload bytes. Where serde replays a buffered value the request is not seen, and the
/// elements come one by one; they are written to the same bytes.
struct PackedSink<'o> {
    out: &'o mut Vec<u8>,
    kind: Kind,
    elem: ElemKind,
    wide: bool,
    /// Inside the bulk newtype.
    raw: bool,
}

impl PackedSink<'_> {
    #[cold]
    fn refuse(&self, what: &str) -> Error {
        unexpected(what, self.kind)
    }
}

/// The elements of a packed array being written.
struct PackedElements<'o> {
    out: &'o mut Vec<u8>,
    kind: Kind,
    elem: ElemKind,
    wide: bool,
    /// Elements written one by one.
    count: usize,
    /// Payload bytes written in blocks.
    bulk: usize,
}

impl ser::SerializeSeq for PackedElements<'_> {
    type Ok = usize;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(ElementSink { elems: self })
    }
    fn end(self) -> Result<usize> {
        let size = self.elem.size(self.wide);
        if !self.bulk.is_multiple_of(size) {
            return Err(unexpected("a block that splits an element", self.kind));
        }
        Ok(self.count + self.bulk / size)
    }
}

impl<'o> ser::Serializer for PackedSink<'o> {
    type Ok = usize;
    type Error = Error;
    type SerializeSeq = PackedElements<'o>;
    type SerializeTuple = Impossible<usize, Error>;
    type SerializeTupleStruct = Impossible<usize, Error>;
    type SerializeTupleVariant = Impossible<usize, Error>;
    type SerializeMap = Impossible<usize, Error>;
    type SerializeStruct = Impossible<usize, Error>;
    type SerializeStructVariant = Impossible<usize, Error>;

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<usize> {
        if name != crate::builtin::packed::NAME || self.raw {
            return value.serialize(self);
        }
        let wide = self.wide;
        let sink = PackedSink { raw: true, ..self };
        crate::builtin::packed::request(wide, || value.serialize(sink))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<PackedElements<'o>> {
        if let Some(len) = len {
            self.out
                .reserve(len.saturating_mul(self.elem.size(self.wide)));
        }
        Ok(PackedElements {
            out: self.out,
            kind: self.kind,
            elem: self.elem,
            wide: self.wide,
            count: 0,
            bulk: 0,
        })
    }
    fn serialize_i32(self, _: i32) -> Result<usize> {
        Err(self.refuse("an i32"))
    }
    fn serialize_i64(self, _: i64) -> Result<usize> {
        Err(self.refuse("an i64"))
    }
    fn serialize_f32(self, _: f32) -> Result<usize> {
        Err(self.refuse("an f32"))
    }
    fn serialize_f64(self, _: f64) -> Result<usize> {
        Err(self.refuse("an f64"))
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(self.refuse("a tuple"))
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(self.refuse("a tuple struct"))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(self.refuse("a struct"))
    }
    reject!(usize; bool i8 i16 u8 u16 u32 u64 char str bytes none some unit unit_struct
        unit_variant newtype_variant tuple_variant map struct_variant);
}

/// One element of a packed array's sequence: a block of bulk bytes (or the `u64` size to
/// reserve before them), or one element.
struct ElementSink<'e, 'o> {
    elems: &'e mut PackedElements<'o>,
}

impl ElementSink<'_, '_> {
    fn one(self) -> Result<()> {
        self.elems.count += 1;
        Ok(())
    }

    #[cold]
    fn refuse(&self, what: &str) -> Error {
        unexpected(what, self.elems.kind)
    }

    /// An element of components (ints, f32s, vectors, colors).
    fn leaves<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        let ElemKind::Leaves(leaf, n) = self.elems.elem else {
            return Err(self.refuse("a number of another kind"));
        };
        let mut left = n as u32;
        value.serialize(LeafSink {
            out: self.elems.out,
            kind: self.elems.kind,
            leaf,
            wide: self.elems.wide,
            left: &mut left,
        })?;
        if left != 0 {
            return Err(self.refuse("too few components"));
        }
        self.one()
    }
}

impl<'e, 'o> ElementSink<'e, 'o> {
    /// A vector or color element's components.
    fn group(self) -> Result<ElemGroup<'e, 'o>> {
        match self.elems.elem {
            ElemKind::Leaves(leaf, n) => Ok(ElemGroup {
                elems: self.elems,
                leaf,
                left: n as u32,
            }),
            _ => Err(self.refuse("a group of numbers")),
        }
    }
}

/// The components of one vector or color element.
struct ElemGroup<'e, 'o> {
    elems: &'e mut PackedElements<'o>,
    leaf: ComponentKind,
    left: u32,
}

impl ElemGroup<'_, '_> {
    fn part<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(LeafSink {
            out: self.elems.out,
            kind: self.elems.kind,
            leaf: self.leaf,
            wide: self.elems.wide,
            left: &mut self.left,
        })
    }

    fn done(self) -> Result<()> {
        if self.left != 0 {
            return Err(unexpected("too few components", self.elems.kind));
        }
        self.elems.count += 1;
        Ok(())
    }
}

macro_rules! elem_group_impls {
    ($($tr:ident :: $m:ident),*) => {$(
        impl ser::$tr for ElemGroup<'_, '_> {
            type Ok = ();
            type Error = Error;
            fn $m<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.part(value)
            }
            fn end(self) -> Result<()> {
                self.done()
            }
        }
    )*};
}
elem_group_impls!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field
);

impl ser::SerializeStruct for ElemGroup<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<()> {
        self.part(value)
    }
    fn end(self) -> Result<()> {
        self.done()
    }
}

impl<'e, 'o> ser::Serializer for ElementSink<'e, 'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ElemGroup<'e, 'o>;
    type SerializeTuple = ElemGroup<'e, 'o>;
    type SerializeTupleStruct = ElemGroup<'e, 'o>;
    type SerializeTupleVariant = Impossible<(), Error>;
    type SerializeMap = Impossible<(), Error>;
    type SerializeStruct = ElemGroup<'e, 'o>;
    type SerializeStructVariant = Impossible<(), Error>;

    /// The bulk protocol's size of the blocks to come.
    fn serialize_u64(self, total: u64) -> Result<()> {
        let total = usize::try_from(total).unwrap_or(usize::MAX);
        self.elems
            .out
            .try_reserve(total)
            .map_err(|_| unexpected("a packed array larger than memory", self.elems.kind))
    }
    /// A block of the bulk protocol.
    fn serialize_bytes(self, block: &[u8]) -> Result<()> {
        self.elems.out.extend_from_slice(block);
        self.elems.bulk += block.len();
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        match self.elems.elem {
            ElemKind::I64 => {
                self.elems.out.put_u64(v as u64);
                self.one()
            }
            _ => self.leaves(&v),
        }
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        match self.elems.elem {
            ElemKind::I64 => self.serialize_i64(v.into()),
            _ => self.leaves(&v),
        }
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        match self.elems.elem {
            ElemKind::F64 => {
                self.elems.out.put_f64(v);
                self.one()
            }
            _ => self.leaves(&v),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        match self.elems.elem {
            ElemKind::F64 => self.serialize_f64(v.into()),
            _ => self.leaves(&v),
        }
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<ElemGroup<'e, 'o>> {
        self.group()
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<ElemGroup<'e, 'o>> {
        self.group()
    }
    fn serialize_tuple(self, _: usize) -> Result<ElemGroup<'e, 'o>> {
        self.group()
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<ElemGroup<'e, 'o>> {
        self.group()
    }
    reject!((); bool i8 i16 u8 u16 u32 char str none some unit unit_struct unit_variant
        newtype_variant tuple_variant map struct_variant);
}
