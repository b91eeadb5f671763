//! `From` conversions with `glam` (feature `glam`); see the [module docs](crate::interop).

use crate::types::math::*;
use ::glam::{
    Affine2, Affine3A, IVec2, IVec3, IVec4, Mat2, Mat3, Mat3A, Mat4, Quat, Vec2, Vec3, Vec3A, Vec4,
};

/// Implements `From` both ways between a builtin and a glam type, given how to build each
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

both_ways!(Vector2, Vec2, |v| Vec2::new(v.x, v.y), |v| Vector2::new(
    v.x, v.y
));
both_ways!(Vector3, Vec3, |v| Vec3::new(v.x, v.y, v.z), |v| {
    Vector3::new(v.x, v.y, v.z)
});
both_ways!(Vector3, Vec3A, |v| Vec3A::new(v.x, v.y, v.z), |v| {
    Vector3::new(v.x, v.y, v.z)
});
both_ways!(Vector4, Vec4, |v| Vec4::new(v.x, v.y, v.z, v.w), |v| {
    Vector4::new(v.x, v.y, v.z, v.w)
});
both_ways!(
    Vector2i,
    IVec2,
    |v| IVec2::new(v.x, v.y),
    |v| Vector2i::new(v.x, v.y)
);
both_ways!(Vector3i, IVec3, |v| IVec3::new(v.x, v.y, v.z), |v| {
    Vector3i::new(v.x, v.y, v.z)
});
both_ways!(Vector4i, IVec4, |v| IVec4::new(v.x, v.y, v.z, v.w), |v| {
    Vector4i::new(v.x, v.y, v.z, v.w)
});
both_ways!(
    Quaternion,
    Quat,
    |q| Quat::from_xyzw(q.x, q.y, q.z, q.w),
    |q| Quaternion::new(q.x, q.y, q.z, q.w)
);

// Basis rows become Mat3 rows: the same matrix, stored transposed.
both_ways!(
    Basis,
    Mat3,
    |b| Mat3::from_cols_array_2d(&[
        [b.rows[0].x, b.rows[1].x, b.rows[2].x],
        [b.rows[0].y, b.rows[1].y, b.rows[2].y],
        [b.rows[0].z, b.rows[1].z, b.rows[2].z],
    ]),
    |m| Basis {
        rows: [m.row(0).into(), m.row(1).into(), m.row(2).into()],
    }
);

both_ways!(
    Transform2D,
    Affine2,
    |t| Affine2 {
        matrix2: Mat2::from_cols(t.x.into(), t.y.into()),
        translation: t.origin.into(),
    },
    |a| Transform2D {
        x: a.matrix2.x_axis.into(),
        y: a.matrix2.y_axis.into(),
        origin: a.translation.into(),
    }
);

both_ways!(
    Transform3D,
    Affine3A,
    |t| Affine3A {
        matrix3: Mat3A::from(Mat3::from(t.basis)),
        translation: t.origin.into(),
    },
    |a| Transform3D {
        basis: Mat3::from(a.matrix3).into(),
        origin: a.translation.into(),
    }
);

both_ways!(
    Projection,
    Mat4,
    |p| Mat4::from_cols(
        p.columns[0].into(),
        p.columns[1].into(),
        p.columns[2].into(),
        p.columns[3].into()
    ),
    |m| Projection {
        columns: [
            m.x_axis.into(),
            m.y_axis.into(),
            m.z_axis.into(),
            m.w_axis.into()
        ],
    }
);
