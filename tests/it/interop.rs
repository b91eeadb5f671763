//! glam and mint conversions: values survive both ways, and a rotation built in glam
//! rotates vectors the same way as the engine's Basis / Transform (row-major storage).
#![cfg(all(feature = "glam", feature = "mint"))]

use crate::support::variant::close;

use glam::{Affine2, Affine3A, IVec2, IVec3, IVec4, Mat3, Mat4, Quat, Vec2, Vec3, Vec4};
use godot_bin::*;

/// `Basis::xform`: each component is a row dotted with the vector.
fn xform(b: &Basis, v: Vector3) -> Vector3 {
    let dot = |r: &Vector3| r.x * v.x + r.y * v.y + r.z * v.z;
    Vector3::new(dot(&b.rows[0]), dot(&b.rows[1]), dot(&b.rows[2]))
}

#[test]
fn a_glam_rotation_rotates_the_same_as_the_basis_both_ways() {
    let rotation = Mat3::from_rotation_y(0.7);
    let basis = Basis::from(rotation);
    let x = Vector3::new(1.0, 0.0, 0.0);
    let ours = xform(&basis, x);
    let theirs = Vector3::from(rotation * Vec3::X);
    assert!(close(ours, theirs), "{ours:?} != {theirs:?}");
    // A rotation about +y takes +x towards -z.
    assert!(
        close(ours, Vector3::new(0.7f32.cos(), 0.0, -(0.7f32.sin()))),
        "{ours:?}"
    );
    // Back to glam: the very same matrix, bit for bit.
    assert_eq!(Mat3::from(basis), rotation);
    // Through a packet and back.
    let bytes = godot_bin::to_vec(&basis).unwrap();
    let decoded: Basis = godot_bin::from_slice(&bytes).unwrap();
    assert_eq!(Mat3::from(decoded), rotation);

    // mint: a column matrix holds glam's columns, a row matrix the engine's rows.
    let columns = mint::ColumnMatrix3::<f32>::from(basis);
    assert_eq!(Vector3::from(columns.x), Vector3::from(rotation.x_axis));
    assert_eq!(Vector3::from(columns.z), Vector3::from(rotation.z_axis));
    let rows = mint::RowMatrix3::<f32>::from(basis);
    assert_eq!(Vector3::from(rows.x), basis.rows[0]);
    assert_eq!(Basis::from(columns), basis);
    assert_eq!(Basis::from(rows), basis);
}

#[test]
fn quaternions_transforms_and_projections_round_trip() {
    let q = Quat::from_rotation_y(0.7);
    let ours = Quaternion::from(q);
    assert_eq!((ours.x, ours.y, ours.z, ours.w), (q.x, q.y, q.z, q.w));
    assert_eq!(Quat::from(ours), q);
    let m = mint::Quaternion::<f32>::from(ours);
    assert_eq!((m.v.y, m.s), (q.y, q.w));
    assert_eq!(Quaternion::from(m), ours);
    // The quaternion and the basis agree on the rotation.
    let basis = Basis::from(Mat3::from_quat(q));
    assert!(close(
        xform(&basis, Vector3::new(1.0, 0.0, 0.0)),
        Vector3::from(q * Vec3::X)
    ));

    // Transform2D: x axis, y axis, origin are the affine's columns.
    let a2 = Affine2::from_angle_translation(0.5, Vec2::new(3.0, 4.0));
    let t2 = Transform2D::from(a2);
    let p = Vector2::new(1.0, 2.0);
    let ours = Vector2::new(
        t2.x.x * p.x + t2.y.x * p.y + t2.origin.x,
        t2.x.y * p.x + t2.y.y * p.y + t2.origin.y,
    );
    let theirs = a2.transform_point2(Vec2::from(p));
    assert!((ours.x - theirs.x).abs() < 1e-6 && (ours.y - theirs.y).abs() < 1e-6);
    assert_eq!(Affine2::from(t2), a2);
    let m2 = mint::ColumnMatrix2x3::<f32>::from(t2);
    assert_eq!(Vector2::from(m2.z), t2.origin);
    assert_eq!(Transform2D::from(m2), t2);

    // Transform3D: basis then origin.
    let a3 =
        Affine3A::from_rotation_translation(Quat::from_rotation_x(1.1), Vec3::new(1.0, -2.0, 3.0));
    let t3 = Transform3D::from(a3);
    let v = Vector3::new(0.5, 1.0, -1.0);
    let r = xform(&t3.basis, v);
    let ours = Vector3::new(r.x + t3.origin.x, r.y + t3.origin.y, r.z + t3.origin.z);
    assert!(close(
        ours,
        Vector3::from(a3.transform_point3(Vec3::from(v)))
    ));
    assert_eq!(Affine3A::from(t3), a3);
    let m3 = mint::ColumnMatrix3x4::<f32>::from(t3);
    assert_eq!(Vector3::from(m3.w), t3.origin);
    assert_eq!(Transform3D::from(m3), t3);

    // Projection: columns. Every element distinct, so a transposition would show.
    let proj = Mat4::from_cols_array(&std::array::from_fn(|i| i as f32 * 0.5 - 3.0));
    let ours = Projection::from(proj);
    assert_eq!(Vec4::from(ours.columns[2]), proj.z_axis);
    assert_eq!(ours.columns[1].x, proj.col(1).x);
    assert_eq!(ours.columns[0].w, proj.row(3).x);
    assert_eq!(Mat4::from(ours), proj);
    let m4 = mint::ColumnMatrix4::<f32>::from(ours);
    assert_eq!(Vector4::from(m4.w), ours.columns[3]);
    assert_eq!(Projection::from(m4), ours);
}

#[test]
fn vectors_round_trip() {
    let v2 = Vector2::new(1.5, -2.0);
    assert_eq!(Vec2::from(v2), Vec2::new(1.5, -2.0));
    assert_eq!(Vector2::from(Vec2::from(v2)), v2);
    assert_eq!(Vector2::from(mint::Vector2::from(v2)), v2);
    let v3 = Vector3::new(1.0, 2.0, 3.0);
    assert_eq!(Vector3::from(Vec3::from(v3)), v3);
    assert_eq!(Vector3::from(glam::Vec3A::from(v3)), v3);
    assert_eq!(Vector3::from(mint::Vector3::from(v3)), v3);
    let v4 = Vector4::new(1.0, 2.0, 3.0, 4.5);
    assert_eq!(Vec4::from(v4), Vec4::new(1.0, 2.0, 3.0, 4.5));
    assert_eq!(Vector4::from(mint::Vector4::from(v4)), v4);
    assert_eq!(IVec2::from(Vector2i::new(-7, 9)), IVec2::new(-7, 9));
    assert_eq!(
        Vector3i::from(IVec3::new(1, -2, 3)),
        Vector3i::new(1, -2, 3)
    );
    assert_eq!(
        Vector4i::from(IVec4::new(1, 2, -3, 4)),
        Vector4i::new(1, 2, -3, 4)
    );
    assert_eq!(
        Vector4i::from(mint::Vector4::from(Vector4i::new(1, 2, -3, 4))),
        Vector4i::new(1, 2, -3, 4)
    );
}
