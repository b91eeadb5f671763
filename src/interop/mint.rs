//! `From` conversions with `mint` (feature `mint`); see the [module docs](crate::interop).

use crate::types::math::*;
use ::mint::{ColumnMatrix2x3, ColumnMatrix3, ColumnMatrix3x4, ColumnMatrix4, RowMatrix3};

/// Implements `From` both ways between a builtin and a mint type, given how to build each
/// from the other.
macro_rules! both_ways {
    ($ours:ty, $theirs:ty, |$a:ident| $to_theirs:expr, |$b:ident| $to_ours:expr) => {
        impl From<$ours> for $theirs {
            fn from($a: $ours) -> Self {
                $to_theirs
            }
        }
        impl From<$theirs> for $ours {
            fn from($b: $theirs) -> Self {
                $to_ours
            }
        }
    };
}

both_ways!(
    Vector2,
    mint::Vector2<f32>,
    |v| mint::Vector2 { x: v.x, y: v.y },
    |v| Vector2::new(v.x, v.y)
);
both_ways!(
    Vector3,
    mint::Vector3<f32>,
    |v| mint::Vector3 {
        x: v.x,
        y: v.y,
        z: v.z
    },
    |v| Vector3::new(v.x, v.y, v.z)
);
both_ways!(
    Vector4,
    mint::Vector4<f32>,
    |v| mint::Vector4 {
        x: v.x,
        y: v.y,
        z: v.z,
        w: v.w
    },
    |v| Vector4::new(v.x, v.y, v.z, v.w)
);
both_ways!(
    Vector2i,
    mint::Vector2<i32>,
    |v| mint::Vector2 { x: v.x, y: v.y },
    |v| Vector2i::new(v.x, v.y)
);
both_ways!(
    Vector3i,
    mint::Vector3<i32>,
    |v| mint::Vector3 {
        x: v.x,
        y: v.y,
        z: v.z
    },
    |v| Vector3i::new(v.x, v.y, v.z)
);
both_ways!(
    Vector4i,
    mint::Vector4<i32>,
    |v| mint::Vector4 {
        x: v.x,
        y: v.y,
        z: v.z,
        w: v.w
    },
    |v| Vector4i::new(v.x, v.y, v.z, v.w)
);
both_ways!(
    Quaternion,
    mint::Quaternion<f32>,
    |q| mint::Quaternion {
        v: mint::Vector3 {
            x: q.x,
            y: q.y,
            z: q.z
        },
        s: q.w
    },
    |q| Quaternion::new(q.v.x, q.v.y, q.v.z, q.s)
);

// Basis stores rows: a RowMatrix3 is the same layout, a ColumnMatrix3 the transpose.
both_ways!(
    Basis,
    RowMatrix3<f32>,
    |b| RowMatrix3 {
        x: b.rows[0].into(),
        y: b.rows[1].into(),
        z: b.rows[2].into(),
    },
    |m| Basis {
        rows: [m.x.into(), m.y.into(), m.z.into()],
    }
);
both_ways!(
    Basis,
    ColumnMatrix3<f32>,
    |b| RowMatrix3::from(b).into(),
    |m| RowMatrix3::from(m).into()
);

// Transform2D is three columns of two: x axis, y axis, origin.
both_ways!(
    Transform2D,
    ColumnMatrix2x3<f32>,
    |t| ColumnMatrix2x3 {
        x: t.x.into(),
        y: t.y.into(),
        z: t.origin.into(),
    },
    |m| Transform2D {
        x: m.x.into(),
        y: m.y.into(),
        origin: m.z.into(),
    }
);

// Transform3D as a 3x4 matrix: the basis columns, then the origin.
both_ways!(
    Transform3D,
    ColumnMatrix3x4<f32>,
    |t| {
        let basis = ColumnMatrix3::from(t.basis);
        ColumnMatrix3x4 {
            x: basis.x,
            y: basis.y,
            z: basis.z,
            w: t.origin.into(),
        }
    },
    |m| Transform3D {
        basis: ColumnMatrix3 {
            x: m.x,
            y: m.y,
            z: m.z
        }
        .into(),
        origin: m.w.into(),
    }
);

both_ways!(
    Projection,
    ColumnMatrix4<f32>,
    |p| ColumnMatrix4 {
        x: p.columns[0].into(),
        y: p.columns[1].into(),
        z: p.columns[2].into(),
        w: p.columns[3].into(),
    },
    |m| Projection {
        columns: [m.x.into(), m.y.into(), m.z.into(), m.w.into()],
    }
);
