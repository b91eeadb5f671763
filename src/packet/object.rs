//! RID, OBJECT, CALLABLE and SIGNAL: references to things that live in the engine.
//!
//! - RID: Godot 4 sends the u64 id; Godot 3, Godot 2 and Pandemonium send the header alone
//!   (every RID reads back as id 0 there).
//! - OBJECT as an instance id (header bit 16): a u64; id 0 is a null object. Decoding it
//!   needs no permission. Godot 2 sends every object as the header alone (read: id 0).
//! - OBJECT in full (no bit 16): the class name (a text), a u32 property count read as an
//!   i32 (zero or less: none), then for each property its name (a bare text, no header)
//!   and its value (a whole packet, one level deeper). An empty class name is the null
//!   object and carries no count. The engine refuses to decode a full object unless asked
//!   to (`bytes_to_var_with_objects`), and so does this crate unless
//!   [`Config::allow_objects`](crate::config::Config::allow_objects).
//! - CALLABLE: the header alone, whatever the callable held.
//! - SIGNAL: the signal's name (a text), then the owner's u64 instance id.

use super::header::{Header, FLAG_64};
use super::reader::Reader;
use super::trace::Value;
use super::writer::Put;
use super::{header, text, Ctx};
use crate::dialect::{ObjectForm, RidForm, VariantType};
use crate::error::{Error, ErrorKind, Result};

/// Whether an OBJECT packet holds an id (bit 16; every Godot 2 object, which carries
/// nothing and reads as id 0).
#[inline]
pub(crate) fn is_id(ctx: &Ctx, h: &Header) -> bool {
    h.wide() || ctx.spec.objects == ObjectForm::HeaderOnly
}

fn u64_field(r: &mut Reader<'_>, label: &'static str) -> Result<u64> {
    let at = r.pos();
    let v = r.u64()?;
    r.note(at, label, || Value::Id(v));
    Ok(v)
}

/// A RID payload.
pub(crate) fn read_rid(r: &mut Reader<'_>, ctx: &Ctx) -> Result<u64> {
    match ctx.spec.rid {
        RidForm::Id64 => u64_field(r, "id"),
        RidForm::HeaderOnly => Ok(0),
    }
}

/// A whole RID packet. Where the dialect sends no id, only id 0 can be expressed.
pub(crate) fn write_rid(out: &mut Vec<u8>, ctx: &Ctx, id: u64) -> Result<()> {
    out.put_u32(header::word(ctx, VariantType::Rid, 0)?);
    match ctx.spec.rid {
        RidForm::Id64 => out.put_u64(id),
        RidForm::HeaderOnly if id == 0 => {}
        RidForm::HeaderOnly => return Err(ids_not_sent(ctx, VariantType::Rid)),
    }
    Ok(())
}

fn ids_not_sent(ctx: &Ctx, ty: VariantType) -> Error {
    ErrorKind::Unsupported(format!("{ty} ids are not sent by {}", ctx.dialect)).into()
}

/// The payload of an OBJECT packet that [`is_id`].
pub(crate) fn read_id(r: &mut Reader<'_>, ctx: &Ctx) -> Result<u64> {
    match ctx.spec.objects {
        ObjectForm::IdOrFull => u64_field(r, "instance id"),
        ObjectForm::HeaderOnly => Ok(0),
    }
}

/// A whole OBJECT packet holding an instance id.
pub(crate) fn write_id(out: &mut Vec<u8>, ctx: &Ctx, id: u64) -> Result<()> {
    match ctx.spec.objects {
        ObjectForm::IdOrFull => {
            out.put_u32(header::word(ctx, VariantType::Object, FLAG_64)?);
            out.put_u64(id);
        }
        ObjectForm::HeaderOnly if id == 0 => {
            out.put_u32(header::word(ctx, VariantType::Object, 0)?)
        }
        ObjectForm::HeaderOnly => return Err(ids_not_sent(ctx, VariantType::Object)),
    }
    Ok(())
}

/// The start of a full object's payload: its class name and how many properties follow.
/// `h` is the packet's header, for the permission error's offset.
pub(crate) fn read_full_head<'de>(
    r: &mut Reader<'de>,
    ctx: &Ctx,
    h: &Header,
) -> Result<(&'de str, usize)> {
    if !ctx.allow_objects {
        return Err(r.error_at(ErrorKind::ObjectsNotAllowed, h.at));
    }
    let class = text::read_labelled(r, "class name")?;
    if class.is_empty() {
        return Ok((class, 0));
    }
    let at = r.pos();
    // The engine reads the count as i32; zero or less means no properties.
    let count = usize::try_from(r.i32()?).unwrap_or(0);
    // A property takes at least a name's length word and a value's header.
    let needed = count.saturating_mul(8);
    if needed > r.rest().len() {
        return Err(r.length_error(count as i64, at, needed));
    }
    r.note(at, "property count", || Value::Count(count, false));
    Ok((class, count))
}

/// A property's name (a bare text); its value, a whole packet, follows.
pub(crate) fn read_property_name<'de>(r: &mut Reader<'de>) -> Result<&'de str> {
    text::read_labelled(r, "property")
}

/// Writes the start of a full object: header, class name, property count (none for the
/// null object, whose class name is empty). The properties follow, each written with
/// [`text::write`] for the name and a whole packet for the value.
pub(crate) fn write_full_head(
    out: &mut Vec<u8>,
    ctx: &Ctx,
    class: &str,
    count: usize,
) -> Result<()> {
    if ctx.spec.objects == ObjectForm::HeaderOnly {
        return Err(ErrorKind::Unsupported(
            "a full object (Godot 2 sends objects as the type alone)".into(),
        )
        .into());
    }
    out.put_u32(header::word(ctx, VariantType::Object, 0)?);
    text::write(out, class)?;
    if class.is_empty() {
        if count > 0 {
            return Err(ErrorKind::Unsupported("properties on a null object".into()).into());
        }
        return Ok(());
    }
    let count = i32::try_from(count).map_err(|_| ErrorKind::LengthOutOfRange(count as i64))? as u32;
    out.put_u32(count);
    Ok(())
}

/// A SIGNAL payload: name and owner id.
pub(crate) fn read_signal<'de>(r: &mut Reader<'de>) -> Result<(&'de str, u64)> {
    let name = text::read_labelled(r, "signal name")?;
    Ok((name, u64_field(r, "object id")?))
}

/// A whole SIGNAL packet.
pub(crate) fn write_signal(out: &mut Vec<u8>, ctx: &Ctx, name: &str, object: u64) -> Result<()> {
    out.put_u32(header::word(ctx, VariantType::Signal, 0)?);
    text::write(out, name)?;
    out.put_u64(object);
    Ok(())
}

/// A whole CALLABLE packet: the header alone.
pub(crate) fn write_callable(out: &mut Vec<u8>, ctx: &Ctx) -> Result<()> {
    out.put_u32(header::word(ctx, VariantType::Callable, 0)?);
    Ok(())
}
