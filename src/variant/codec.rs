//! [`Variant`]'s own byte codec: straight to and from packets, with no serde in between,
//! every type through its own module of the packet layer (`crate::packet`), as rmpv's
//! decoder sits over rmp.

use super::{Array, Dictionary, ElementType, Variant};
use crate::dialect::VariantType;
use crate::error::{ErrorKind, PathSegment, Result};
use crate::packet::header::{self, Header};
use crate::packet::math::{read_wide, FixedWire};
use crate::packet::reader::COUNT_MASK;
use crate::packet::writer::Put;
use crate::packet::{self, container, godot2, math, nodepath, object, packed, scalar, text};
use crate::packet::{Ctx, Decoder, Nest};
use crate::types::leaves::for_each_fixed;
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Object;

/// Decodes the next packet into a [`Variant`], keeping every detail needed to write the same
/// bytes again (NodePath padding aside).
pub(crate) fn decode(d: &mut Decoder<'_>) -> Result<Variant> {
    let h = d.header()?;
    decode_payload(d, &h)
}

/// Decodes the payload of the packet whose header `h` was just read.
#[inline(always)]
fn decode_payload(d: &mut Decoder<'_>, h: &Header) -> Result<Variant> {
    use VariantType as T;
    let ctx = d.ctx;
    let r = &mut d.r;
    macro_rules! fixed_arms {
        ($($t:ident),*) => {
            match h.ty {
                $(T::$t => return Ok(Variant::$t($t::read(r, read_wide(&ctx, h))?)),)*
                _ => {}
            }
        };
    }
    for_each_fixed!(fixed_arms);
    macro_rules! packed_arms {
        ($($t:ident),*) => {
            match h.ty {
                $(T::$t => {
                    let kind = packed::elem_kind(h.ty).expect("a packed type");
                    let elems = packed::read_elems(r, &ctx, h, kind)?;
                    return Ok(Variant::$t($t(packed::to_vec(&elems))));
                })*
                _ => {}
            }
        };
    }
    for_each_packed!(@bulk packed_arms);
    Ok(match h.ty {
        T::Nil => Variant::Nil,
        T::Bool => Variant::Bool(scalar::read_bool(r)?),
        T::Int => Variant::Int(scalar::read_int(r, h)?),
        T::Float => Variant::Float(scalar::read_float(r, h)?),
        T::String => Variant::String(text::read(r)?.to_owned()),
        T::StringName => Variant::StringName(StringName(text::read(r)?.to_owned())),
        T::NodePath => {
            let p = nodepath::read(&mut d.r, &ctx, d.pads.as_mut())?;
            Variant::NodePath(NodePath {
                names: p.names.iter().map(|s| s.to_string()).collect(),
                subnames: p.subnames.iter().map(|s| s.to_string()).collect(),
                absolute: p.absolute,
            })
        }
        T::Rid => Variant::Rid(Rid(object::read_rid(r, &ctx)?)),
        T::Object if object::is_id(&ctx, h) => {
            Variant::ObjectId(ObjectId(object::read_id(r, &ctx)?))
        }
        T::Object => Variant::Object(decode_object(d, h)?),
        T::Callable => Variant::Callable(Callable),
        T::Signal => {
            let (name, object) = object::read_signal(r)?;
            Variant::Signal(Signal {
                name: name.to_owned(),
                object,
            })
        }
        T::Dictionary => Variant::Dictionary(decode_dictionary(d, h)?),
        T::Array | T::TypedArray => Variant::Array(decode_array(d, h)?),
        T::PackedTypedArray => Variant::PackedTypedArray(decode_array(d, h)?),
        T::PackedByteArray => {
            Variant::PackedByteArray(PackedByteArray(packed::read_bytes(r)?.to_vec()))
        }
        T::PackedStringArray => Variant::PackedStringArray(PackedStringArray(
            packed::read_strings(r)?
                .into_iter()
                .map(str::to_owned)
                .collect(),
        )),
        T::Image => {
            let (mut image, data) = godot2::read_image(r)?;
            image.data = data.to_vec();
            Variant::Image(image)
        }
        T::InputEvent => Variant::InputEvent(godot2::read_input_event(r)?),
        other => unreachable!("{other} is decoded above"),
    })
}

fn decode_object(d: &mut Decoder<'_>, h: &Header) -> Result<Object> {
    let (class, count) = object::read_full_head(&mut d.r, &d.ctx, h)?;
    let properties = d.nest(|d| {
        let mut properties = Vec::with_capacity(d.prealloc(count));
        for _ in 0..count {
            let name = object::read_property_name(&mut d.r)?.to_owned();
            properties.push((name, decode(d)?));
        }
        Ok(properties)
    })?;
    Ok(Object {
        class_name: class.to_owned(),
        properties,
    })
}

/// Decodes an Array (or Pandemonium 5 typed array) payload, keeping its element type and
/// Godot 2 shared flag.
fn decode_array(d: &mut Decoder<'_>, h: &Header) -> Result<Array> {
    let head = container::read_head(&mut d.r, &d.ctx, h)?;
    let items = d.nest(|d| {
        let mut items = Vec::with_capacity(d.prealloc(head.count));
        let check = d.ctx.spec.checks_typed_elements && !head.first.is_untyped();
        for index in 0..head.count {
            let item = match decode(d) {
                Ok(item) => item,
                Err(e) => return Err(e.in_segment(PathSegment::Index(index))),
            };
            // A Godot 4 typed array keeps what its type admits, as in the engine.
            if check {
                items.extend(head.first.admit(item));
            } else {
                items.push(item);
            }
        }
        Ok(items)
    })?;
    Ok(Array {
        element_type: head.first,
        items,
        shared: head.shared,
    })
}

/// Decodes a Dictionary payload. A key that comes again keeps its first place and takes
/// the later value, and a typed Dictionary keeps the entries whose key its key type
/// admits, as in the engine.
fn decode_dictionary(d: &mut Decoder<'_>, h: &Header) -> Result<Dictionary> {
    let head = container::read_head(&mut d.r, &d.ctx, h)?;
    let mut dict = Dictionary::with_capacity(d.prealloc(head.count));
    dict.set_types(head.first, head.second);
    dict.shared = head.shared;
    let check = d.ctx.spec.checks_typed_elements && !dict.key_type().is_untyped();
    d.nest(|d| {
        for _ in 0..head.count {
            let key_at = d.r.pos();
            let key = decode(d)?;
            let value = match decode(d) {
                Ok(value) => value,
                Err(e) => return Err(e.in_segment(key_segment(d, key_at))),
            };
            if !check {
                dict.insert_decoded(key, value);
            } else if let Some(key) = dict.key_type().admit(key) {
                dict.insert_decoded(key, value);
            }
        }
        Ok(())
    })?;
    Ok(dict)
}

/// The path step of the entry whose key starts at `at`: the key's text (a string key's own
/// text, any other key's text form). Only called on the error path.
#[cold]
#[inline(never)]
pub(crate) fn key_segment(d: &Decoder<'_>, at: usize) -> PathSegment {
    let mut key = Decoder::with_ctx(&d.r.input()[at..], d.ctx);
    match decode(&mut key) {
        Ok(v) => super::access::key_segment(&v),
        Err(_) => PathSegment::Key("?".into()),
    }
}

/// Writes `v` at nesting depth `depth` (the top level is 0).
pub(crate) fn encode(out: &mut Vec<u8>, ctx: &Ctx, depth: usize, v: &Variant) -> Result<()> {
    if depth > ctx.max_depth {
        return Err(ErrorKind::DepthExceeded(ctx.max_depth).into());
    }
    if depth >= packet::SHALLOW {
        return packet::grow_stack(|| encode_value(out, ctx, depth, v));
    }
    encode_value(out, ctx, depth, v)
}

fn encode_value(out: &mut Vec<u8>, ctx: &Ctx, depth: usize, v: &Variant) -> Result<()> {
    use VariantType as T;
    macro_rules! arms {
        ($($t:ident),*) => {
            match v {
                $(Variant::$t(x) => return math::write_packet(out, ctx, x),)*
                _ => {}
            }
        };
    }
    for_each_fixed!(arms);
    macro_rules! packed_arms {
        ($($t:ident),*) => {
            match v {
                $(Variant::$t(x) => return packed::write_elems(out, ctx, &x.0),)*
                _ => {}
            }
        };
    }
    for_each_packed!(@bulk packed_arms);
    match v {
        Variant::Nil => out.put_u32(header::word(ctx, T::Nil, 0)?),
        Variant::Bool(b) => scalar::write_bool(out, ctx, *b)?,
        Variant::Int(i) => scalar::write_int(out, ctx, *i)?,
        Variant::Float(f) => scalar::write_float(out, ctx, *f)?,
        Variant::String(s) => text::put_text_packet(out, header::word(ctx, T::String, 0)?, s)?,
        Variant::StringName(s) => {
            text::put_text_packet(out, header::word(ctx, T::StringName, 0)?, s)?
        }
        Variant::NodePath(p) => write_node_path(out, ctx, p)?,
        Variant::Rid(r) => object::write_rid(out, ctx, r.0)?,
        Variant::ObjectId(id) => object::write_id(out, ctx, id.0)?,
        Variant::Object(o) => {
            object::write_full_head(out, ctx, &o.class_name, o.properties.len())?;
            for (name, value) in &o.properties {
                text::write(out, name)?;
                encode(out, ctx, depth + 1, value)?;
            }
        }
        Variant::Callable(_) => object::write_callable(out, ctx)?,
        Variant::Signal(s) => object::write_signal(out, ctx, &s.name, s.object)?,
        Variant::Dictionary(dict) => {
            let shared = container::write_head(
                out,
                ctx,
                T::Dictionary,
                dict.key_type(),
                dict.value_type(),
                dict.shared,
            )?;
            out.put_u32(count(dict.len())? | shared);
            for (key, value) in dict.iter() {
                encode(out, ctx, depth + 1, key)?;
                encode(out, ctx, depth + 1, value)?;
            }
        }
        Variant::Array(a) => encode_array(out, ctx, depth, T::Array, a)?,
        Variant::PackedTypedArray(a) => encode_array(out, ctx, depth, T::PackedTypedArray, a)?,
        Variant::PackedByteArray(b) => packed::write_bytes(out, ctx, b)?,
        Variant::PackedStringArray(s) => {
            packed::write_strings(out, ctx, s.iter().map(String::as_str))?
        }
        Variant::Image(image) => godot2::write_image(out, ctx, image)?,
        Variant::InputEvent(event) => godot2::write_input_event(out, ctx, event)?,
        _ => unreachable!("written above"),
    }
    Ok(())
}

/// A whole NODE_PATH packet.
pub(crate) fn write_node_path(out: &mut Vec<u8>, ctx: &Ctx, p: &NodePath) -> Result<()> {
    out.put_u32(header::word(ctx, VariantType::NodePath, 0)?);
    nodepath::write(
        out,
        ctx,
        p.names.iter().map(String::as_str),
        p.subnames.iter().map(String::as_str),
        p.absolute,
    )
}

fn encode_array(
    out: &mut Vec<u8>,
    ctx: &Ctx,
    depth: usize,
    ty: VariantType,
    a: &Array,
) -> Result<()> {
    let shared = container::write_head(
        out,
        ctx,
        ty,
        &a.element_type,
        &ElementType::Untyped,
        a.shared,
    )?;
    out.put_u32(count(a.items.len())? | shared);
    for item in &a.items {
        encode(out, ctx, depth + 1, item)?;
    }
    Ok(())
}

/// A container's element count, which must leave bit 31 (Godot 2's shared flag) free.
fn count(n: usize) -> Result<u32> {
    u32::try_from(n)
        .ok()
        .filter(|&n| n <= COUNT_MASK)
        .ok_or_else(|| ErrorKind::LengthOutOfRange(n as i64).into())
}
