//! NODE_PATH: a path's node names, then its property subnames.
//!
//! Payload: a u32 name count with bit 31 set (bit 31 clear is the pre-2.0 format, which
//! every engine since refuses), a u32 subname count, a u32 flags word, then that many
//! texts ([`super::text`]): the names first, then the subnames. Flag bit 0: the path is
//! absolute (starts at the root). Flag bit 1 (Godot 2): one more text follows, the
//! "property", which later engines read as one more subname; Godot 2's encoder sends a
//! path's last subname that way.
//!
//! The engine adds the counts as wrapping u32s and takes the first name-count texts as
//! names. It leaves the padding after each text unwritten (whatever its buffer held), so
//! packets from the engine differ from ours there and only there.
//!
//! A path with no names and no subnames but the absolute flag is the root, `NodePath("/")`.
//! Godot 4's decoder keeps it; Godot 3's and Pandemonium's `NodePath(names, subnames,
//! absolute)` drop the flag of a path with no names and no subnames, so there it reads as
//! the empty relative path (the dialect table's `keeps_root_nodepath`).

use super::reader::Reader;
use super::trace::Value;
use super::writer::Put;
use super::{text, Ctx};
use crate::error::{ErrorKind, Result};
use std::ops::Range;

/// Bit 31 of the first word marks the (only accepted) new format.
pub(crate) const NEW_FORMAT: u32 = 0x8000_0000;

/// A NodePath read from the input, its texts borrowed.
#[derive(Debug, Default)]
pub(crate) struct NodePathRef<'de> {
    pub names: Vec<&'de str>,
    pub subnames: Vec<&'de str>,
    pub absolute: bool,
}

/// Reads a NodePath payload; the padding after each text is added to `pads` if given.
pub(crate) fn read<'de>(
    r: &mut Reader<'de>,
    ctx: &Ctx,
    mut pads: Option<&mut Vec<Range<usize>>>,
) -> Result<NodePathRef<'de>> {
    let at = r.pos();
    let first = r.u32()?;
    if first & NEW_FORMAT == 0 {
        return Err(r.error_at(ErrorKind::InvalidData("old-format NodePath"), at));
    }
    let names = first & !NEW_FORMAT;
    r.note(at, "name count", || Value::Int(names.into()));
    let at_sub = r.pos();
    let subnames = r.u32()?;
    r.note(at_sub, "subname count", || Value::Int(subnames.into()));
    let at_flags = r.pos();
    let flags = r.u32()?;
    r.note(at_flags, "flags", || Value::Flags(flags));
    let total = names.wrapping_add(subnames).wrapping_add(flags >> 1 & 1) as usize;
    // Every text takes at least its length word.
    let needed = total.saturating_mul(4);
    if needed > r.rest().len() {
        return Err(r.length_error(total as i64, at, needed));
    }
    let mut strings = Vec::with_capacity(total);
    for i in 0..total {
        let label = if i < names as usize {
            "name"
        } else {
            "subname"
        };
        let (part, pad) = text::read_with_pad(r, label)?;
        strings.push(part);
        if let Some(pads) = pads.as_deref_mut() {
            pads.push(pad);
        }
    }
    let subnames = strings.split_off((names as usize).min(total));
    Ok(NodePathRef {
        names: strings,
        subnames,
        absolute: flags & 1 != 0 && (total > 0 || ctx.spec.keeps_root_nodepath),
    })
}

/// Writes a NodePath payload. Godot 2 sends the last subname as the separate property.
pub(crate) fn write<'a>(
    out: &mut Vec<u8>,
    ctx: &Ctx,
    names: impl ExactSizeIterator<Item = &'a str>,
    subnames: impl ExactSizeIterator<Item = &'a str>,
    absolute: bool,
) -> Result<()> {
    let property = ctx.spec.nodepath_property && subnames.len() > 0;
    let flags = absolute as u32 | (property as u32) << 1;
    let counts = |n: usize| {
        u32::try_from(n)
            .ok()
            .filter(|&n| n < NEW_FORMAT)
            .ok_or(ErrorKind::LengthOutOfRange(n as i64))
    };
    out.put_u32(counts(names.len())? | NEW_FORMAT);
    out.put_u32(counts(subnames.len() - property as usize)?);
    out.put_u32(flags);
    for part in names.chain(subnames) {
        text::write(out, part)?;
    }
    Ok(())
}
