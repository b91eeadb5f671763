//! The fixed-size builtins: vectors, rects, planes, quaternions, boxes, matrices, colors.
//!
//! Each payload is its components in order, nothing else: no count, no padding. The
//! order is the one the engine stores them in, which is the field order of this crate's
//! structs (a `Rect2` is position x, y, then size x, y; a `Basis` is its three rows; a
//! `Transform2D` is the x axis, the y axis, then the origin; a `Transform3D` is its basis
//! then its origin; a `Projection` is its four columns).
//!
//! Components come in three kinds ([`ComponentKind`]): reals (`real_t`: f32, or f64 in a
//! Godot 4 double-precision build, which then sets header bit 16 — the decoder follows
//! each packet's bit, and Godot 3 and Pandemonium always read f32), colors' components
//! (always f32), and integers (i32, in the `*i` types). Which components, in which order,
//! is the one table of `types::leaves`; this module reads and writes them.

use super::header::{Header, FLAG_64};
use super::reader::Reader;
use super::trace::Value;
use super::writer::Put;
use super::Ctx;
use crate::dialect::VariantType;
use crate::error::Result;
use crate::types::leaves::{fixed_table, Component, ComponentKind, Fixed, FromLeaf};
use crate::types::math::*;

/// A fixed builtin's wire form: its components read and written in the order of
/// [`fixed_table`], reals at the width the header says.
pub(crate) trait FixedWire: Fixed {
    /// Writes the payload; `wide` writes reals as f64.
    fn write(&self, out: &mut Vec<u8>, wide: bool);
    /// Reads the payload; `wide` reads reals as f64 (narrowed to this crate's f32 reals).
    fn read(r: &mut Reader<'_>, wide: bool) -> Result<Self>;
}

/// Whether the packet with header `h` holds 8-byte reals: only a flagged Godot 4 packet of a
/// type with real components.
#[inline]
pub(crate) fn read_wide(ctx: &Ctx, h: &Header) -> bool {
    h.wide() && ctx.spec.double_math_flag && h.ty.has_real_components()
}

/// Whether values of `ty` are written with 8-byte reals and header bit 16.
#[inline]
pub(crate) fn write_wide(ctx: &Ctx, ty: VariantType) -> bool {
    ctx.double && ctx.spec.double_math_flag && ty.has_real_components()
}

/// The header flags of a value of `ty` (bit 16 when its reals are wide).
#[inline]
pub(crate) fn write_flags(ctx: &Ctx, ty: VariantType) -> u32 {
    if write_wide(ctx, ty) {
        FLAG_64
    } else {
        0
    }
}

/// Reads one component of `kind`.
#[inline]
pub(crate) fn read_leaf(
    r: &mut Reader<'_>,
    kind: ComponentKind,
    wide: bool,
    label: &'static str,
) -> Result<Component> {
    let at = r.pos();
    let leaf = match kind {
        ComponentKind::Real if wide => Component::F32(r.f64()? as f32),
        ComponentKind::Real | ComponentKind::F32 => Component::F32(r.f32()?),
        ComponentKind::I32 => Component::I32(r.i32()?),
    };
    r.note(at, label, || match leaf {
        Component::F32(v) => Value::Float(v.into(), wide && kind == ComponentKind::Real),
        Component::I32(v) => Value::Int(v.into()),
    });
    Ok(leaf)
}

/// Writes one component of `kind`.
#[inline]
pub(crate) fn write_leaf(out: &mut Vec<u8>, kind: ComponentKind, wide: bool, leaf: Component) {
    match (leaf, kind) {
        (Component::F32(v), ComponentKind::Real) if wide => out.put_f64(v.into()),
        (Component::F32(v), _) => out.put_f32(v),
        (Component::I32(v), _) => out.put_u32(v as u32),
    }
}

/// Bytes one component of `kind` takes.
pub(crate) fn leaf_size(kind: ComponentKind, wide: bool) -> usize {
    if kind == ComponentKind::Real && wide {
        8
    } else {
        4
    }
}

macro_rules! wire_of {
    ($($t:ident: $kind:ident [$(($($path:tt)+)),*];)*) => {
        $(impl FixedWire for $t {
            #[inline]
            fn write(&self, out: &mut Vec<u8>, wide: bool) {
                out.reserve(Self::N * leaf_size(Self::KIND, wide));
                $(write_leaf(out, Self::KIND, wide, FromLeaf::to_leaf(self.$($path)+));)*
            }

            #[inline]
            fn read(r: &mut Reader<'_>, wide: bool) -> Result<Self> {
                let mut v = Self::default();
                $(v.$($path)+ = FromLeaf::from_leaf(
                    read_leaf(r, Self::KIND, wide, stringify!($($path)+))?,
                );)*
                Ok(v)
            }
        })*
    };
}
fixed_table!(@rows wire_of);

/// Writes a whole packet of a fixed builtin: header (bit 16 for wide reals), components.
#[inline]
pub(crate) fn write_packet<T: FixedWire>(out: &mut Vec<u8>, ctx: &Ctx, value: &T) -> Result<()> {
    let wide = write_wide(ctx, T::TYPE);
    let flags = if wide { FLAG_64 } else { 0 };
    out.put_u32(super::header::word(ctx, T::TYPE, flags)?);
    value.write(out, wide);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::types::leaves::layout;

    #[test]
    fn sizes_match_the_engine_and_leaves_round_trip() {
        // Payload sizes of the single-precision engine (Transform3D 48, Projection 64...).
        let size = |ty| {
            let (kind, n) = layout(ty).unwrap();
            n * leaf_size(kind, false)
        };
        assert_eq!(size(VariantType::Transform3D), 48);
        assert_eq!(size(VariantType::Projection), 64);
        assert_eq!(size(VariantType::Basis), 36);
        assert_eq!(size(VariantType::Plane), 16);
        assert_eq!(size(VariantType::Color), 16);
        // Components 1.0 to 12.0 in wire order (their model is tested in types/leaves.rs).
        let leaves: Vec<Component> = (1..=12).map(|i| Component::F32(i as f32)).collect();
        let t = Transform3D::from_leaves(&leaves);
        assert_eq!(t.origin, Vector3::new(10.0, 11.0, 12.0));
        let ctx = Ctx::new(&Config::default().double_precision(true));
        let mut out = Vec::new();
        write_packet(&mut out, &ctx, &t).unwrap();
        assert_eq!(out.len(), 4 + 12 * 8);
        let mut r = Reader::new(&out, usize::MAX);
        let h = super::super::header::read(&mut r, &ctx).unwrap();
        assert!(read_wide(&ctx, &h));
        assert_eq!(Transform3D::read(&mut r, true).unwrap(), t);
    }
}
