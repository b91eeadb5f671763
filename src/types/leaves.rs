//! A fixed builtin's components in wire order: the leaf model of the math types and Color.
//!
//! Each fixed builtin is a run of numbers ("leaves") of one [`ComponentKind`], in the order the
//! engine stores them (which is the field order of this crate's structs: a `Rect2` is
//! position x, y, then size x, y; a `Basis` its three rows; a `Transform2D` the x axis, the
//! y axis, then the origin; a `Transform3D` its basis then its origin; a `Projection` its
//! four columns). That order is written once, in [`fixed_table`]: this module derives the
//! [`Fixed`] model from it, the packet layer (`packet::math`) the wire's read and write.

use crate::dialect::VariantType;
use crate::types::math::*;

/// How one component of a fixed builtin (a math type or a Color) is stored, in packets and
/// in the engine's binary resources alike. Exported at the crate root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ComponentKind {
    /// `real_t`: f32, or f64 in a double-precision build's packet or file.
    Real,
    /// Always f32 (Color).
    F32,
    /// Always i32 (the `i` vectors and rects).
    I32,
}

/// One component's value. Exported at the crate root.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Component {
    /// A real or Color component.
    F32(f32),
    /// An integer component.
    I32(i32),
}

/// The most components a fixed builtin has (Projection's 16).
pub(crate) const MAX_LEAVES: usize = 16;

/// A fixed builtin's components, in wire order.
pub(crate) type Leaves = ([Component; MAX_LEAVES], usize);

/// A fixed-size builtin: its type, how its components are stored, and its components.
pub(crate) trait Fixed: Copy + Default + Sized {
    const TYPE: VariantType;
    const KIND: ComponentKind;
    /// How many components.
    const N: usize;
    /// The components in wire order.
    fn leaves(&self) -> Leaves;
    /// The value with these components (exactly [`Fixed::N`] of this type's kind).
    fn from_leaves(leaves: &[Component]) -> Self;
}

/// One component as a Rust number, and back.
pub(crate) trait FromLeaf {
    fn from_leaf(leaf: Component) -> Self;
    fn to_leaf(self) -> Component;
}

impl FromLeaf for f32 {
    #[inline]
    fn from_leaf(leaf: Component) -> f32 {
        match leaf {
            Component::F32(v) => v,
            Component::I32(v) => v as f32,
        }
    }
    #[inline]
    fn to_leaf(self) -> Component {
        Component::F32(self)
    }
}

impl FromLeaf for i32 {
    #[inline]
    fn from_leaf(leaf: Component) -> i32 {
        match leaf {
            Component::I32(v) => v,
            Component::F32(v) => v as i32,
        }
    }
    #[inline]
    fn to_leaf(self) -> Component {
        Component::I32(self)
    }
}

/// The one table of the fixed builtins: each type, the kind of its components and their
/// paths in wire order. `fixed_table!(@rows m)` hands the rows to `m!`;
/// `fixed_table!(@names m)` hands `m!` the type names alone (see [`for_each_fixed`]).
macro_rules! fixed_table {
    (@names $m:ident) => {
        $crate::types::leaves::fixed_table! { @with [names $m] }
    };
    (@rows $m:ident) => {
        $crate::types::leaves::fixed_table! { @with [rows $m] }
    };
    (@with $how:tt) => {
        $crate::types::leaves::fixed_table! { @out $how
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
    };
    (@out [names $m:ident] $($t:ident: $kind:ident [$(($($path:tt)+)),*];)*) => {
        $m! { $($t),* }
    };
    (@out [rows $m:ident] $($rows:tt)*) => {
        $m! { $($rows)* }
    };
}
pub(crate) use fixed_table;

/// Calls `$m!` with every fixed builtin's name, from [`fixed_table`].
macro_rules! for_each_fixed {
    ($m:ident) => {
        $crate::types::leaves::fixed_table! { @names $m }
    };
}
pub(crate) use for_each_fixed;

macro_rules! count {
    () => { 0 };
    ($head:tt $($tail:tt)*) => { 1 + count!($($tail)*) };
}

macro_rules! leaves_of {
    ($($t:ident: $kind:ident [$(($($path:tt)+)),*];)*) => {
        $(impl Fixed for $t {
            const TYPE: VariantType = VariantType::$t;
            const KIND: ComponentKind = ComponentKind::$kind;
            const N: usize = count!($(($($path)+))*);

            fn leaves(&self) -> Leaves {
                let mut out = [Component::I32(0); MAX_LEAVES];
                let mut n = 0;
                $(out[n] = FromLeaf::to_leaf(self.$($path)+); n += 1;)*
                (out, n)
            }

            fn from_leaves(leaves: &[Component]) -> Self {
                let mut v = Self::default();
                let mut it = leaves.iter().copied();
                $(v.$($path)+ = FromLeaf::from_leaf(it.next().unwrap_or(Component::I32(0)));)*
                v
            }
        })*

        /// How a fixed builtin's components are stored: their kind and number.
        pub(crate) fn layout(ty: VariantType) -> Option<(ComponentKind, usize)> {
            match ty {
                $(VariantType::$t => Some((<$t as Fixed>::KIND, <$t as Fixed>::N)),)*
                _ => None,
            }
        }

    };
}
fixed_table!(@rows leaves_of);

impl VariantType {
    /// How a fixed builtin's components are stored and how many there are (see
    /// `Variant::components`); `None` for every other type.
    pub fn components(self) -> Option<(ComponentKind, usize)> {
        layout(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_round_trip_in_wire_order() {
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
        assert_eq!(leaves[3], Component::F32(4.0));
        assert_eq!(leaves[11], Component::F32(12.0));
        assert_eq!(Transform3D::from_leaves(&leaves[..n]), t);
        assert_eq!(
            layout(VariantType::Projection),
            Some((ComponentKind::Real, 16))
        );
        assert_eq!(layout(VariantType::Rect2i), Some((ComponentKind::I32, 4)));
        assert_eq!(layout(VariantType::Color), Some((ComponentKind::F32, 4)));
        assert_eq!(layout(VariantType::String), None);
    }
}
