//! ARRAY and DICTIONARY: what comes before the elements.
//!
//! After the header comes type data (typed containers only), then a u32 count, then the
//! elements: each a whole packet (an Array's elements; a Dictionary's key, value, key,
//! value...), one nesting level deeper.
//!
//! The count: the engine masks off bit 31, which Godot 2 used for "shared" (a Godot 2
//! GDScript array or dictionary sets it). Every element takes at least 4 bytes (a
//! Dictionary entry 8), which bounds the count by the bytes left.
//!
//! Element types, per dialect:
//! - Godot 4.3+ typed Array (`Array[int]`): header bits 16–17 give the element type's kind
//!   (0 untyped, 1 builtin, 2 native class, 3 script), followed by its data: nothing, a u32
//!   type id, or a text (class name, `res://` script path). An object element type is
//!   written as class `EncodedObjectAsID` unless full objects are sent. Type id 0 (NIL) is
//!   untyped to the engine; it is kept here so that such a packet re-encodes as it came.
//! - Godot 4.4+ typed Dictionary: the key's kind in bits 16–17, the value's in bits 18–19,
//!   key data then value data, then the count.
//! - Decoding a Godot 4 typed container, the engine adds each element (each Dictionary
//!   key; values are not checked) through the container's type check, and so does this
//!   crate when it decodes into its dynamic value: a value of the type stays, an int in a float
//!   container becomes a float, a String in a StringName one a StringName and back, null
//!   and objects stay in an object container, and anything else is dropped (the engine
//!   logs an error and decodes the rest).
//! - Pandemonium 5: a TYPED_ARRAY (and PACKED_TYPED_ARRAY) type of its own, whose payload
//!   starts with the element type id; for OBJECT, a nested STRING_NAME packet with the
//!   class name follows, unless header bit 16 says objects are sent as ids.

use super::header::{self, Header, FLAG_64};
use super::reader::{Reader, COUNT_SHARED, MIN_ENTRY_SIZE};
use super::trace::Value;
use super::writer::Put;
use super::{text, Ctx};
use crate::dialect::{TypedArrays, VariantType};
use crate::error::{Error, ErrorKind, Result};
use crate::types::element::ElementType;

/// The class name objects sent as ids have as an element type.
pub(crate) const OBJECT_AS_ID: &str = "EncodedObjectAsID";

/// An Array's or Dictionary's element types, count and Godot 2 shared flag.
#[derive(Debug)]
pub(crate) struct ContainerHead {
    /// The element (Array) or key (Dictionary) type.
    pub first: ElementType,
    /// The value type (Dictionary).
    pub second: ElementType,
    pub count: usize,
    pub shared: bool,
}

/// Reads the type data and count after the header `h` of an ARRAY, DICTIONARY or
/// (Pandemonium 5) TYPED_ARRAY / PACKED_TYPED_ARRAY packet. The count is checked against
/// the bytes left before the caller allocates anything.
///
/// Inlined, with the typed containers' part out of line: a plain container's head is
/// then a count in registers, where a returned `ContainerHead` went through memory,
/// written in pieces and read back whole, a store-to-load forwarding stall that perf put
/// at a third of this function's time.
#[inline(always)]
pub(crate) fn read_head(r: &mut Reader<'_>, ctx: &Ctx, h: &Header) -> Result<ContainerHead> {
    // No header bits: untyped in every dialect (the common case, decided first).
    let plain = h.flags == 0 && matches!(h.ty, VariantType::Array | VariantType::Dictionary);
    let (first, second) = if plain {
        (ElementType::Untyped, ElementType::Untyped)
    } else {
        element_types(r, ctx, h)?
    };
    let at = r.pos();
    let shared = ctx.spec.shared_bit && r.peek_u32().is_some_and(|w| w & COUNT_SHARED != 0);
    let min_size = if h.ty == VariantType::Dictionary {
        MIN_ENTRY_SIZE
    } else {
        4
    };
    let count = r.container_count(min_size)?;
    let label = if h.ty == VariantType::Dictionary {
        "entry count"
    } else {
        "element count"
    };
    r.note(at, label, || Value::Count(count, shared));
    Ok(ContainerHead {
        first,
        second,
        count,
        shared,
    })
}

/// The element (or key and value) types of a container whose header is not plain.
#[inline(never)]
fn element_types(r: &mut Reader<'_>, ctx: &Ctx, h: &Header) -> Result<(ElementType, ElementType)> {
    Ok(match (h.ty, ctx.spec.typed_arrays) {
        (VariantType::TypedArray | VariantType::PackedTypedArray, _) => {
            (own_type_element(r, ctx, h)?, ElementType::Untyped)
        }
        (VariantType::Array, TypedArrays::HeaderBits) => (
            kind_data(r, ctx, (h.flags >> 16) & 3, "element type")?,
            ElementType::Untyped,
        ),
        (VariantType::Dictionary, _) if ctx.spec.typed_dictionaries => (
            kind_data(r, ctx, (h.flags >> 16) & 3, "key type")?,
            kind_data(r, ctx, (h.flags >> 18) & 3, "value type")?,
        ),
        _ => (ElementType::Untyped, ElementType::Untyped),
    })
}

/// Godot 4 type data for one kind field: nothing, a builtin type id, a class name, or a
/// script path.
fn kind_data(r: &mut Reader<'_>, ctx: &Ctx, kind: u32, label: &'static str) -> Result<ElementType> {
    Ok(match kind {
        0 => ElementType::Untyped,
        1 => ElementType::Builtin(header::read_type_id(r, ctx, label)?),
        2 => ElementType::ClassName(labelled_text(r, label)?.to_owned()),
        _ => ElementType::Script(labelled_text(r, label)?.to_owned()),
    })
}

fn labelled_text<'de>(r: &mut Reader<'de>, label: &'static str) -> Result<&'de str> {
    text::read_labelled(r, label)
}

/// Pandemonium 5's element type: a type id; for OBJECT, a nested StringName class name
/// unless header bit 16 marks objects sent as ids.
fn own_type_element(r: &mut Reader<'_>, ctx: &Ctx, h: &Header) -> Result<ElementType> {
    let ty = header::read_type_id(r, ctx, "element type")?;
    if ty != VariantType::Object {
        return Ok(ElementType::Builtin(ty));
    }
    if h.wide() {
        return Ok(ElementType::ClassName(OBJECT_AS_ID.into()));
    }
    let class = header::read(r, ctx)?;
    if class.ty != VariantType::StringName {
        return Err(Error::at(
            ErrorKind::TypeMismatch {
                expected: "a StringName class name".into(),
                found: class.ty,
            },
            class.at,
        ));
    }
    Ok(ElementType::ClassName(
        labelled_text(r, "class name")?.to_owned(),
    ))
}

/// The Godot 4 kind of an element type.
fn kind(t: &ElementType) -> u32 {
    match t {
        ElementType::Untyped => 0,
        ElementType::Builtin(_) => 1,
        ElementType::ClassName(_) => 2,
        ElementType::Script(_) => 3,
    }
}

fn type_id(ctx: &Ctx, ty: VariantType) -> Result<u32> {
    ctx.spec
        .id_of(ty)
        .ok_or_else(|| header::not_in_dialect(ctx, ty))
}

/// Godot 4 type data: nothing, a type id, or a class name / script path.
fn write_kind_data(out: &mut Vec<u8>, ctx: &Ctx, t: &ElementType) -> Result<()> {
    match t {
        ElementType::Untyped => {}
        ElementType::Builtin(ty) => out.put_u32(type_id(ctx, *ty)?),
        ElementType::ClassName(s) | ElementType::Script(s) => text::write(out, s)?,
    }
    Ok(())
}

/// Writes the header and type data of an Array (`ty` Array or PackedTypedArray) or a
/// Dictionary as the dialect marks element types, and returns the bits to OR into the
/// count (Godot 2's shared flag). The count itself follows.
pub(crate) fn write_head(
    out: &mut Vec<u8>,
    ctx: &Ctx,
    ty: VariantType,
    first: &ElementType,
    second: &ElementType,
    shared: bool,
) -> Result<u32> {
    let cannot = |what: &str| -> Error {
        ErrorKind::Unsupported(format!("{what} do not exist in {}", ctx.dialect)).into()
    };
    if shared && !ctx.spec.shared_bit {
        return Err(cannot("shared containers"));
    }
    let shared_bit = if shared { COUNT_SHARED } else { 0 };
    let untyped = first.is_untyped() && second.is_untyped();
    match (ty, ctx.spec.typed_arrays) {
        (VariantType::Dictionary | VariantType::Array, _) if untyped => {
            out.put_u32(header::word(ctx, ty, 0)?)
        }
        (VariantType::Dictionary, _) if ctx.spec.typed_dictionaries => {
            let flags = kind(first) << 16 | kind(second) << 18;
            out.put_u32(header::word(ctx, ty, flags)?);
            write_kind_data(out, ctx, first)?;
            write_kind_data(out, ctx, second)?;
        }
        (VariantType::Array, TypedArrays::HeaderBits) => {
            out.put_u32(header::word(ctx, ty, kind(first) << 16)?);
            write_kind_data(out, ctx, first)?;
        }
        (VariantType::Array | VariantType::PackedTypedArray, TypedArrays::OwnType) => {
            let own = if ty == VariantType::Array {
                VariantType::TypedArray
            } else {
                ty
            };
            match first {
                ElementType::Builtin(t) => {
                    out.put_u32(header::word(ctx, own, 0)?);
                    out.put_u32(type_id(ctx, *t)?);
                }
                ElementType::ClassName(class) => {
                    let as_id = class == OBJECT_AS_ID;
                    out.put_u32(header::word(ctx, own, if as_id { FLAG_64 } else { 0 })?);
                    out.put_u32(type_id(ctx, VariantType::Object)?);
                    if !as_id {
                        out.put_u32(header::word(ctx, VariantType::StringName, 0)?);
                        text::write(out, class)?;
                    }
                }
                ElementType::Untyped | ElementType::Script(_) => {
                    return Err(cannot("untyped or script-typed TypedArrays"))
                }
            }
        }
        (VariantType::Dictionary, _) => {
            return Err(cannot("typed Dictionary (Dictionary[K, V]) values"))
        }
        _ => return Err(cannot("typed Array (Array[T]) values")),
    }
    Ok(shared_bit)
}
