//! The fixed-size builtins: vectors, rects, planes, quaternions, boxes, matrices, colors.
//!
//! Each payload is its components in order, nothing else: no count, no padding. The
//! order is the one the engine stores them in, which is the field order of this crate's
//! structs (a `Rect2` is position x, y, then size x, y; a `Basis` is its three rows; a
//! `Transform2D` is the x axis, the y axis, then the origin; a `Transform3D` is its basis
//! then its origin; a `Projection` is its four columns).
//!
//! Components come in three kinds ([`LeafKind`]): reals (`real_t`: f32, or f64 in a
//! Godot 4 double-precision build, which then sets header bit 16 — the decoder follows
//! each packet's bit, and Godot 3 and Pandemonium always read f32), colors' components
//! (always f32), and integers (i32, in the `*i` types).

use super::header::{Header, FLAG_64};
use super::reader::Reader;
use super::writer::Put;
use super::Ctx;
use crate::dialect::VariantType;
use crate::error::Result;
use crate::explain::Value;
use crate::types::math::*;

/// How one component is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LeafKind {
    /// `real_t`: f32, or f64 in a flagged Godot 4 packet.
    Real,
    /// Always f32 (Color).
    F32,
    /// Always i32.
    I32,
}

/// One component's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Leaf {
    F32(f32),
    I32(i32),
}

/// The most components a fixed builtin has (Projection's 16).
pub(crate) const MAX_LEAVES: usize = 16;

/// A fixed builtin's components, in wire order.
pub(crate) type Leaves = ([Leaf; MAX_LEAVES], usize);

/// A fixed-size builtin: its type, how its components are stored, and how to read and write
/// them.
pub(crate) trait Fixed: Copy + Default + Sized {
    const TYPE: VariantType;
    const KIND: LeafKind;
    /// How many components.
    const N: usize;
    /// Writes the payload; `wide` writes reals as f64.
    fn write(&self, out: &mut Vec<u8>, wide: bool);
    /// Reads the payload; `wide` reads reals as f64 (narrowed to this crate's f32 reals).
    fn read(r: &mut Reader<'_>, wide: bool) -> Result<Self>;
    /// The components in wire order.
    fn leaves(&self) -> Leaves;
    /// The value with these components (exactly [`Fixed::N`] of this type's kind).
    fn from_leaves(leaves: &[Leaf]) -> Self;
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
    kind: LeafKind,
    wide: bool,
    label: &'static str,
) -> Result<Leaf> {
    let at = r.pos();
    let leaf = match kind {
        LeafKind::Real if wide => Leaf::F32(r.f64()? as f32),
        LeafKind::Real | LeafKind::F32 => Leaf::F32(r.f32()?),
        LeafKind::I32 => Leaf::I32(r.i32()?),
    };
    r.note(at, label, || match leaf {
        Leaf::F32(v) => Value::Float(v.into(), wide && kind == LeafKind::Real),
        Leaf::I32(v) => Value::Int(v.into()),
    });
    Ok(leaf)
}

/// Writes one component of `kind`.
#[inline]
pub(crate) fn write_leaf(out: &mut Vec<u8>, kind: LeafKind, wide: bool, leaf: Leaf) {
    match (leaf, kind) {
        (Leaf::F32(v), LeafKind::Real) if wide => out.put_f64(v.into()),
        (Leaf::F32(v), _) => out.put_f32(v),
        (Leaf::I32(v), _) => out.put_u32(v as u32),
    }
}

/// Bytes one component of `kind` takes.
pub(crate) fn leaf_size(kind: LeafKind, wide: bool) -> usize {
    if kind == LeafKind::Real && wide {
        8
    } else {
        4
    }
}

trait FromLeaf {
    fn from_leaf(leaf: Leaf) -> Self;
    fn to_leaf(self) -> Leaf;
}

impl FromLeaf for f32 {
    #[inline]
    fn from_leaf(leaf: Leaf) -> f32 {
        match leaf {
            Leaf::F32(v) => v,
            Leaf::I32(v) => v as f32,
        }
    }
    #[inline]
    fn to_leaf(self) -> Leaf {
        Leaf::F32(self)
    }
}

impl FromLeaf for i32 {
    #[inline]
    fn from_leaf(leaf: Leaf) -> i32 {
        match leaf {
            Leaf::I32(v) => v,
            Leaf::F32(v) => v as i32,
        }
    }
    #[inline]
    fn to_leaf(self) -> Leaf {
        Leaf::I32(self)
    }
}

macro_rules! count {
    () => { 0 };
    ($head:tt $($tail:tt)*) => { 1 + count!($($tail)*) };
}

macro_rules! fixed {
    (($d:tt) $($t:ident: $kind:ident [$(($($path:tt)+)),*];)*) => {
        $(impl Fixed for $t {
            const TYPE: VariantType = VariantType::$t;
            const KIND: LeafKind = LeafKind::$kind;
            const N: usize = count!($(($($path)+))*);

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

            fn leaves(&self) -> Leaves {
                let mut out = [Leaf::I32(0); MAX_LEAVES];
                let mut n = 0;
                $(out[n] = FromLeaf::to_leaf(self.$($path)+); n += 1;)*
                (out, n)
            }

            fn from_leaves(leaves: &[Leaf]) -> Self {
                let mut v = Self::default();
                let mut it = leaves.iter().copied();
                $(v.$($path)+ = FromLeaf::from_leaf(it.next().unwrap_or(Leaf::I32(0)));)*
                v
            }
        })*

        /// How a fixed builtin's components are stored: their kind and number.
        pub(crate) fn layout(ty: VariantType) -> Option<(LeafKind, usize)> {
            match ty {
                $(VariantType::$t => Some((<$t as Fixed>::KIND, <$t as Fixed>::N)),)*
                _ => None,
            }
        }

        /// Calls `$m!` with every fixed builtin's name.
        macro_rules! for_each_fixed {
            ($d m:ident) => { $d m!($($t),*) };
        }
        pub(crate) use for_each_fixed;
    };
}

fixed! {
    ($)
    Vector2: Real [(x), (y)];
    Vector2i: I32 [(x), (y)];
    Rect2: Real [(position.x), (position.y), (size.x), (size.y)];
    Rect2i: I32 [(position.x), (position.y), (size.x), (size.y)];
    Vector3: Real [(x), (y), (z)];
    Vector3i: I32 [(x), (y), (z)];
    Transform2D: Real [(x.x), (x.y), (y.x), (y.y), (origin.x), (origin.y)];
    Vector4: Real [(x), (y), (z), (w)];
    Vector4i: I32 [(x), (y), (z), (w)];
    Plane: Real [(normal.x), (normal.y), (normal.z), (d)];
    Quaternion: Real [(x), (y), (z), (w)];
    Aabb: Real [(position.x), (position.y), (position.z), (size.x), (size.y), (size.z)];
    Basis: Real [
        (rows[0].x), (rows[0].y), (rows[0].z),
        (rows[1].x), (rows[1].y), (rows[1].z),
        (rows[2].x), (rows[2].y), (rows[2].z)
    ];
    Transform3D: Real [
        (basis.rows[0].x), (basis.rows[0].y), (basis.rows[0].z),
        (basis.rows[1].x), (basis.rows[1].y), (basis.rows[1].z),
        (basis.rows[2].x), (basis.rows[2].y), (basis.rows[2].z),
        (origin.x), (origin.y), (origin.z)
    ];
    Projection: Real [
        (columns[0].x), (columns[0].y), (columns[0].z), (columns[0].w),
        (columns[1].x), (columns[1].y), (columns[1].z), (columns[1].w),
        (columns[2].x), (columns[2].y), (columns[2].z), (columns[2].w),
        (columns[3].x), (columns[3].y), (columns[3].z), (columns[3].w)
    ];
    Color: F32 [(r), (g), (b), (a)];
}

/// Writes a whole packet of a fixed builtin: header (bit 16 for wide reals), components.
#[inline]
pub(crate) fn write_packet<T: Fixed>(out: &mut Vec<u8>, ctx: &Ctx, value: &T) -> Result<()> {
    let wide = write_wide(ctx, T::TYPE);
    let flags = if wide { FLAG_64 } else { 0 };
    out.put_u32(super::header::word(ctx, T::TYPE, flags)?);
    value.write(out, wide);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

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
        let t = Transform3D {
            basis: Basis {
                rows: [
                    Vector3::new(1.0, 2.0, 3.0),
                    Vector3::new(4.0, 5.0, 6.0),
                    Vector3::new(7.0, 8.0, 9.0),
                ],
            },
            origin: Vector3::new(10.0, 11.0, 12.0),
        };
        let (leaves, n) = t.leaves();
        assert_eq!(n, 12);
        assert_eq!(leaves[3], Leaf::F32(4.0));
        assert_eq!(Transform3D::from_leaves(&leaves[..n]), t);
        let ctx = Ctx::new(&Config::default().double_precision(true)).unwrap();
        let mut out = Vec::new();
        write_packet(&mut out, &ctx, &t).unwrap();
        assert_eq!(out.len(), 4 + 12 * 8);
        let mut r = Reader::new(&out, usize::MAX);
        let h = super::super::header::read(&mut r, &ctx).unwrap();
        assert!(read_wide(&ctx, &h));
        assert_eq!(Transform3D::read(&mut r, true).unwrap(), t);
    }
}
