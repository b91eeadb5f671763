//! The engine's math builtins as plain data: vectors, rects, transforms, colors.
//!
//! Through godot_bin each encodes as its own packet type (a `Vector3` field becomes a
//! VECTOR3 packet); through other serde formats each is an ordinary struct.

use serde_derive::{Deserialize, Serialize};

/// The engine's `real_t`: `f32`, as in every official Godot build. Packets from
/// double-precision engines decode too (their components are narrowed, as a
/// single-precision engine narrows them).
pub type Real = f32;

macro_rules! plain_struct {
    ($(#[$doc:meta])* $name:ident, $magic:literal { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(rename = $magic)]
        pub struct $name {
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

plain_struct!(
    /// `Vector2`: a 2D vector of reals.
    Vector2, "$godot_bin::Vector2" { /// x component.
    x: Real, /// y component.
    y: Real });
plain_struct!(
    /// `Vector2i`: a 2D vector of 32-bit integers.
    Vector2i, "$godot_bin::Vector2i" { /// x component.
    x: i32, /// y component.
    y: i32 });
plain_struct!(
    /// `Rect2`: position and size.
    Rect2, "$godot_bin::Rect2" { /// Top-left corner.
    position: Vector2, /// Width and height.
    size: Vector2 });
plain_struct!(
    /// `Rect2i`: integer position and size.
    Rect2i, "$godot_bin::Rect2i" { /// Top-left corner.
    position: Vector2i, /// Width and height.
    size: Vector2i });
plain_struct!(
    /// `Vector3`: a 3D vector of reals.
    Vector3, "$godot_bin::Vector3" { /// x component.
    x: Real, /// y component.
    y: Real, /// z component.
    z: Real });
plain_struct!(
    /// `Vector3i`: a 3D vector of 32-bit integers.
    Vector3i, "$godot_bin::Vector3i" { /// x component.
    x: i32, /// y component.
    y: i32, /// z component.
    z: i32 });
plain_struct!(
    /// `Transform2D`: the x and y axes and the origin (the engine's `columns`).
    Transform2D, "$godot_bin::Transform2D" { /// The x axis (`columns[0]`).
    x: Vector2, /// The y axis (`columns[1]`).
    y: Vector2, /// The origin (`columns[2]`).
    origin: Vector2 });
plain_struct!(
    /// `Vector4`: a 4D vector of reals.
    Vector4, "$godot_bin::Vector4" { /// x component.
    x: Real, /// y component.
    y: Real, /// z component.
    z: Real, /// w component.
    w: Real });
plain_struct!(
    /// `Vector4i`: a 4D vector of 32-bit integers.
    Vector4i, "$godot_bin::Vector4i" { /// x component.
    x: i32, /// y component.
    y: i32, /// z component.
    z: i32, /// w component.
    w: i32 });
plain_struct!(
    /// `Plane`: a normal and the distance from the origin.
    Plane, "$godot_bin::Plane" { /// The plane's normal.
    normal: Vector3, /// Distance from the origin along the normal.
    d: Real });
plain_struct!(
    /// `Quaternion` (`Quat` in Godot 3).
    Quaternion, "$godot_bin::Quaternion" { /// x component.
    x: Real, /// y component.
    y: Real, /// z component.
    z: Real, /// w component.
    w: Real });
plain_struct!(
    /// `AABB`: an axis-aligned box.
    Aabb, "$godot_bin::Aabb" { /// The minimum corner.
    position: Vector3, /// The extent.
    size: Vector3 });
plain_struct!(
    /// `Basis`: a 3×3 matrix stored as rows, as the engine stores and sends it.
    Basis, "$godot_bin::Basis" { /// `rows[i]` is row i; the x axis is `(rows[0].x, rows[1].x, rows[2].x)`.
    rows: [Vector3; 3] });
plain_struct!(
    /// `Transform3D` (`Transform` in Godot 3): a basis and an origin.
    Transform3D, "$godot_bin::Transform3D" { /// Rotation, scale and shear.
    basis: Basis, /// Translation.
    origin: Vector3 });
plain_struct!(
    /// `Projection`: a 4×4 matrix stored as columns.
    Projection, "$godot_bin::Projection" { /// `columns[i]` is column i.
    columns: [Vector4; 4] });
plain_struct!(
    /// `Color`: RGBA components, always 32-bit floats on the wire.
    Color, "$godot_bin::Color" { /// Red.
    r: f32, /// Green.
    g: f32, /// Blue.
    b: f32, /// Alpha.
    a: f32 });

impl Vector2 {
    /// A vector from its components.
    pub const fn new(x: Real, y: Real) -> Self {
        Vector2 { x, y }
    }
}

impl Vector2i {
    /// A vector from its components.
    pub const fn new(x: i32, y: i32) -> Self {
        Vector2i { x, y }
    }
}

impl Vector3 {
    /// A vector from its components.
    pub const fn new(x: Real, y: Real, z: Real) -> Self {
        Vector3 { x, y, z }
    }
}

impl Vector3i {
    /// A vector from its components.
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Vector3i { x, y, z }
    }
}

impl Vector4 {
    /// A vector from its components.
    pub const fn new(x: Real, y: Real, z: Real, w: Real) -> Self {
        Vector4 { x, y, z, w }
    }
}

impl Vector4i {
    /// A vector from its components.
    pub const fn new(x: i32, y: i32, z: i32, w: i32) -> Self {
        Vector4i { x, y, z, w }
    }
}

impl Rect2 {
    /// A rectangle from its position and size.
    pub const fn new(position: Vector2, size: Vector2) -> Self {
        Rect2 { position, size }
    }
}

impl Rect2i {
    /// A rectangle from its position and size.
    pub const fn new(position: Vector2i, size: Vector2i) -> Self {
        Rect2i { position, size }
    }
}

impl Quaternion {
    /// A quaternion from its components.
    pub const fn new(x: Real, y: Real, z: Real, w: Real) -> Self {
        Quaternion { x, y, z, w }
    }
}

impl Plane {
    /// A plane from its normal and distance.
    pub const fn new(normal: Vector3, d: Real) -> Self {
        Plane { normal, d }
    }
}

impl Color {
    /// A color from red, green, blue and alpha.
    pub const fn from_rgba(r: f32, g: f32, b: f32, a: f32) -> Self {
        Color { r, g, b, a }
    }
}
