//! BOOL, INT and FLOAT, and the width rules the engine's encoder follows.
//!
//! - BOOL: one u32, 0 or 1 (any non-zero value reads as true).
//! - INT: an i32 when the value fits in 32 bits, else an i64 with header bit 16. The
//!   decoder follows the bit, not the value. Godot 2 has only the 32-bit form: a value
//!   outside `i32` cannot be sent there.
//! - FLOAT: an f32 when the value survives a round trip through `f32` (so 0.5 and
//!   infinities, never NaN, whose payload the engine does not test), else an f64 with
//!   header bit 16. Godot 2 has only f32: values are rounded to it as that engine rounds
//!   them, and a finite value beyond f32's range cannot be sent.

use super::header::{self, Header, FLAG_64};
use super::reader::Reader;
use super::trace::Value;
use super::writer::Put;
use super::Ctx;
use crate::dialect::VariantType;
use crate::error::{Error, ErrorKind, Result};

/// A BOOL payload.
#[inline]
pub(crate) fn read_bool(r: &mut Reader<'_>) -> Result<bool> {
    let at = r.pos();
    let v = r.u32()? != 0;
    r.note(at, "bool", || Value::Bool(v));
    Ok(v)
}

/// An INT payload of the width `h` says.
#[inline]
pub(crate) fn read_int(r: &mut Reader<'_>, h: &Header) -> Result<i64> {
    let at = r.pos();
    let v = if h.wide() { r.i64()? } else { r.i32()?.into() };
    r.note(at, if h.wide() { "int64" } else { "int32" }, || {
        Value::Int(v)
    });
    Ok(v)
}

/// A FLOAT payload of the width `h` says.
#[inline]
pub(crate) fn read_float(r: &mut Reader<'_>, h: &Header) -> Result<f64> {
    let at = r.pos();
    let v = if h.wide() { r.f64()? } else { r.f32()?.into() };
    let label = if h.wide() { "float64" } else { "float32" };
    r.note(at, label, || Value::Float(v, h.wide()));
    Ok(v)
}

/// A header and one 32-bit payload word, in one write.
#[inline]
pub(crate) fn write_word_packet(out: &mut Vec<u8>, header: u32, word: u32) {
    out.put_u64(u64::from(header) | u64::from(word) << 32);
}

/// A whole BOOL packet.
#[inline]
pub(crate) fn write_bool(out: &mut Vec<u8>, ctx: &Ctx, v: bool) -> Result<()> {
    let h = header::word(ctx, VariantType::Bool, 0)?;
    write_word_packet(out, h, v as u32);
    Ok(())
}

/// A whole INT packet, 32-bit when the value fits.
#[inline(always)]
pub(crate) fn write_int(out: &mut Vec<u8>, ctx: &Ctx, v: i64) -> Result<()> {
    match i32::try_from(v) {
        Ok(small) => {
            let h = header::word(ctx, VariantType::Int, 0)?;
            write_word_packet(out, h, small as u32);
            Ok(())
        }
        Err(_) => write_wide_int(out, ctx, v),
    }
}

/// [`write_int`] past i32, out of line.
#[inline(never)]
fn write_wide_int(out: &mut Vec<u8>, ctx: &Ctx, v: i64) -> Result<()> {
    if !ctx.spec.wide_numbers {
        return Err(out_of_range(v, "int (32-bit in this dialect)"));
    }
    out.put_u32(header::word(ctx, VariantType::Int, FLAG_64)?);
    out.put_u64(v as u64);
    Ok(())
}

/// A whole FLOAT packet, 32-bit when that loses nothing.
pub(crate) fn write_float(out: &mut Vec<u8>, ctx: &Ctx, v: f64) -> Result<()> {
    let narrow = v as f32;
    if !ctx.spec.wide_numbers && v.is_finite() && narrow.is_infinite() {
        return Err(out_of_range(v, "float (32-bit in this dialect)"));
    }
    if f64::from(narrow) == v || !ctx.spec.wide_numbers {
        let h = header::word(ctx, VariantType::Float, 0)?;
        write_word_packet(out, h, narrow.to_bits());
    } else {
        out.put_u32(header::word(ctx, VariantType::Float, FLAG_64)?);
        out.put_f64(v);
    }
    Ok(())
}

/// A number that does not fit where it is going.
#[cold]
#[inline(never)]
pub(crate) fn out_of_range(value: impl ToString, target: &'static str) -> Error {
    ErrorKind::NumberOutOfRange {
        value: value.to_string(),
        target,
    }
    .into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::dialect::Dialect;

    fn packet(ctx: &Ctx, f: impl Fn(&mut Vec<u8>, &Ctx) -> Result<()>) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        f(&mut out, ctx).map(|()| out)
    }

    #[test]
    fn widths_follow_the_value_and_the_dialect() {
        let g4 = Ctx::new(&Config::default());
        let g2 = Ctx::new(&Config::new(Dialect::Godot2));
        assert_eq!(packet(&g4, |o, c| write_int(o, c, 1)).unwrap().len(), 8);
        assert_eq!(
            packet(&g4, |o, c| write_int(o, c, 1 << 40)).unwrap().len(),
            12
        );
        assert!(packet(&g2, |o, c| write_int(o, c, 1 << 40)).is_err());
        assert_eq!(packet(&g4, |o, c| write_float(o, c, 0.5)).unwrap().len(), 8);
        assert_eq!(
            packet(&g4, |o, c| write_float(o, c, 0.1)).unwrap().len(),
            12
        );
        assert_eq!(
            packet(&g4, |o, c| write_float(o, c, f64::NAN))
                .unwrap()
                .len(),
            12
        );
        assert_eq!(packet(&g2, |o, c| write_float(o, c, 0.1)).unwrap().len(), 8);
        assert!(packet(&g2, |o, c| write_float(o, c, 1e300)).is_err());
        // Read back by the header's own flag.
        for v in [0.5, 0.1, -0.0, f64::INFINITY] {
            let bytes = packet(&g4, |o, c| write_float(o, c, v)).unwrap();
            let mut r = Reader::new(&bytes, usize::MAX);
            let h = header::read(&mut r, &g4).unwrap();
            assert_eq!(read_float(&mut r, &h).unwrap().to_bits(), v.to_bits());
        }
    }
}
