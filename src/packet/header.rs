//! The header word that starts every packet.
//!
//! A little-endian u32. Its low 8 bits are the type id, looked up in the dialect's table
//! ([`crate::dialect`]); an id at or past the table's length (the engine's `VARIANT_MAX`)
//! is refused. The other bits are flags, whose meaning depends on the type:
//!
//! | bits | meaning |
//! |---|---|
//! | 16 ([`FLAG_64`]) | INT and FLOAT: 64-bit payload. Math types in Godot 4 double-precision builds: 8-byte reals. OBJECT: sent as its instance id. Pandemonium 5 typed arrays of objects: objects sent as ids. |
//! | 16–17 | Godot 4.3+ ARRAY: the element type's kind; DICTIONARY (4.4+): the key type's kind ([`super::container`]) |
//! | 18–19 | Godot 4.4+ DICTIONARY: the value type's kind |
//!
//! Godot 2 has no flags: it compares the whole word with its `VARIANT_MAX`, so any flag
//! bit makes the id unknown there. Godot 3 and Pandemonium ignore flag bits they do not
//! use (a Godot 3 FLOAT with bit 16 is 64-bit; a Godot 3 Vector3 with bit 16 is still f32).

use super::reader::Reader;
use super::Ctx;
use crate::dialect::VariantType;
use crate::error::{Error, ErrorKind, Result};

/// Header bit 16: 64-bit INT/FLOAT, f64 math components, or an OBJECT sent as its id.
pub(crate) const FLAG_64: u32 = 1 << 16;

/// A packet's header word, decoded.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub ty: VariantType,
    /// The word's bits above the type id (none in Godot 2).
    pub flags: u32,
    /// Offset of the header in the input.
    pub at: usize,
}

impl Header {
    /// Whether bit 16 is set.
    #[inline]
    pub fn wide(&self) -> bool {
        self.flags & FLAG_64 != 0
    }
}

/// Reads a header, refusing ids the dialect does not have.
#[inline]
pub(crate) fn read(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Header> {
    let at = r.pos();
    let word = r.u32()?;
    let id = word & ctx.type_mask;
    let Some(ty) = ctx.spec.type_of(id) else {
        return Err(unknown(ctx, id, at));
    };
    let header = Header {
        ty,
        flags: word & !0xFF,
        at,
    };
    r.note(at, "header", || super::trace::Value::Header {
        ty,
        flags: header.flags,
    });
    Ok(header)
}

#[cold]
fn unknown(ctx: &Ctx, id: u32, at: usize) -> Error {
    Error::at(
        ErrorKind::UnknownTypeId {
            id,
            dialect: ctx.dialect,
        },
        at,
    )
}

/// The header word for `ty` with `flags`, refusing a type the dialect lacks.
#[inline]
pub(crate) fn word(ctx: &Ctx, ty: VariantType, flags: u32) -> Result<u32> {
    // The types most values are made of come from `Ctx::ids`, one load away; callers name
    // a constant type, so this match folds to one arm.
    let id = match ty {
        VariantType::String => ctx.ids.string,
        VariantType::Int => ctx.ids.int,
        VariantType::Float => ctx.ids.float,
        VariantType::Array => ctx.ids.array,
        VariantType::Dictionary => ctx.ids.dictionary,
        _ => match ctx.spec.id_of(ty) {
            Some(id) => id,
            None => return Err(not_in_dialect(ctx, ty)),
        },
    };
    Ok(id | flags)
}

/// The error for a type the dialect does not have.
#[cold]
#[inline(never)]
pub(crate) fn not_in_dialect(ctx: &Ctx, ty: VariantType) -> Error {
    ErrorKind::TypeNotInDialect {
        ty,
        dialect: ctx.dialect,
    }
    .into()
}

/// A type id inside a payload (a typed container's element type): it must exist in the
/// dialect.
pub(crate) fn read_type_id(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    label: &'static str,
) -> Result<VariantType> {
    let at = r.pos();
    let id = r.u32()?;
    let ty = ctx.spec.type_of(id).ok_or_else(|| unknown(ctx, id, at))?;
    r.note(at, label, || super::trace::Value::Type(ty));
    Ok(ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::dialect::Dialect;

    #[test]
    fn godot2_refuses_flag_bits_and_the_others_ignore_them() {
        for (dialect, refused) in [(Dialect::Godot2, true), (Dialect::Godot3, false)] {
            let ctx = Ctx::new(&Config::new(dialect));
            let float = word(&ctx, VariantType::Float, FLAG_64).unwrap();
            let bytes = float.to_le_bytes();
            let h = read(&mut Reader::new(&bytes, usize::MAX), &ctx);
            assert_eq!(h.is_err(), refused, "{dialect}");
        }
        let ctx = Ctx::new(&Config::default());
        let bytes = 39u32.to_le_bytes(); // Godot 4's VARIANT_MAX
        let err = read(&mut Reader::new(&bytes, usize::MAX), &ctx).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::UnknownTypeId { id: 39, .. }
        ));
    }
}
