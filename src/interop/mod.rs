//! Conversions between the builtin math types and the `glam` and `mint` crates, behind
//! the `glam` and `mint` features.
//!
//! Every conversion is a plain `From` in both directions and copies components, so
//! nothing is lost either way (glam and mint use `f32` as the engine's `real_t` does).
//!
//! | godot_bin | glam (`glam` feature) | mint (`mint` feature) |
//! |---|---|---|
//! | [`Vector2`](crate::types::math::Vector2), [`Vector3`](crate::types::math::Vector3), [`Vector4`](crate::types::math::Vector4) | `Vec2`, `Vec3` (and `Vec3A`), `Vec4` | `Vector2<f32>`, `Vector3<f32>`, `Vector4<f32>` |
//! | [`Vector2i`](crate::types::math::Vector2i), [`Vector3i`](crate::types::math::Vector3i), [`Vector4i`](crate::types::math::Vector4i) | `IVec2`, `IVec3`, `IVec4` | `Vector2<i32>`, `Vector3<i32>`, `Vector4<i32>` |
//! | [`Quaternion`](crate::types::math::Quaternion) | `Quat` | `Quaternion<f32>` |
//! | [`Basis`](crate::types::math::Basis) | `Mat3` | `ColumnMatrix3<f32>`, `RowMatrix3<f32>` |
//! | [`Transform2D`](crate::types::math::Transform2D) | `Affine2` | `ColumnMatrix2x3<f32>` |
//! | [`Transform3D`](crate::types::math::Transform3D) | `Affine3A` | `ColumnMatrix3x4<f32>` |
//! | [`Projection`](crate::types::math::Projection) | `Mat4` | `ColumnMatrix4<f32>` |
//!
//! # Rows and columns
//!
//! The engine's `Basis` stores its matrix as **rows** (`Basis::rows`, the order the wire
//! and the text form use), while glam's `Mat3` and mint's `ColumnMatrix3` store
//! **columns**. The conversions transpose the storage so that the *matrix* is the same:
//! the glam matrix's `x_axis` column is the engine's `basis.x` axis,
//! `(rows[0].x, rows[1].x, rows[2].x)`, and both rotate a vector the same way
//! (`basis.xform(v)` in the engine is `mat * v` in glam). A `Transform2D` is the engine's
//! three columns (x axis, y axis, origin) and a `Projection` its four columns, so those map
//! column for column.
//!
//! ```
//! # #[cfg(feature = "glam")] {
//! use godot_bin::{Basis, Vector3};
//! let rotation = glam::Mat3::from_rotation_y(0.7);
//! let basis = Basis::from(rotation);
//! // The engine's x axis is glam's first column.
//! assert_eq!(
//!     Vector3::new(basis.rows[0].x, basis.rows[1].x, basis.rows[2].x),
//!     Vector3::from(rotation.x_axis)
//! );
//! assert_eq!(glam::Mat3::from(basis), rotation);
//! # }
//! ```

#[cfg(feature = "glam")]
mod glam;
#[cfg(feature = "mint")]
mod mint;
