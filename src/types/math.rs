//! The engine's math builtins as plain data: vectors, rects, transforms, colors.
//!
//! Through godot_bin each encodes as its own packet type (a `Vector3` field becomes a
//! VECTOR3 packet); through other serde formats each is an ordinary struct.
//!
//! `Default` is the engine's: zero vectors, identity transforms, bases, quaternions and
//! projections, opaque black.

use serde_derive::{Deserialize, Serialize};

/// The engine's `real_t`: `f32`, as in every official Godot build. Packets from
/// double-precision engines decode too (their components are narrowed, as a
/// single-precision engine narrows them).
pub type Real = f32;

macro_rules! plain_struct {
    ($(#[$doc:meta])* $name:ident, $magic:literal { $($(#[$fdoc:meta])* $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$doc])*
        ///
        /// `#[repr(C)]` components with no padding: [`bytemuck::Pod`], so a slice of them is
        /// its components' bytes (packed arrays are copied in bulk on little-endian targets).
        #[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
        #[derive(bytemuck::Pod, bytemuck::Zeroable)]
        #[repr(C)]
        // The derived code is called by the builtins' serde impls (their own floor above
        // this one), which add the forms serde's buffering needs.
        #[serde(remote = "Self", rename = $magic)]
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

impl Aabb {
    /// A box from its minimum corner and its extent (the engine's `AABB(position, size)`).
    ///
    /// ```
    /// use godot_bin::{Aabb, Vector3};
    /// let b = Aabb::new(Vector3::new(-1.0, 0.0, -1.0), Vector3::new(2.0, 3.0, 2.0));
    /// assert_eq!(b.size.y, 3.0);
    /// assert_eq!(Aabb::new(Vector3::ZERO, Vector3::ZERO), Aabb::ZERO);
    /// ```
    pub const fn new(position: Vector3, size: Vector3) -> Self {
        Aabb { position, size }
    }
}

impl Basis {
    /// A basis from its three rows, as the engine stores and sends it.
    ///
    /// ```
    /// use godot_bin::{Basis, Vector3};
    /// let b = Basis::from_rows(Vector3::RIGHT, Vector3::UP, Vector3::BACK);
    /// assert_eq!(b, Basis::IDENTITY);
    /// assert_eq!(Basis::from_rows(Vector3::ZERO, Vector3::ONE, Vector3::ZERO).rows[1], Vector3::ONE);
    /// ```
    pub const fn from_rows(x: Vector3, y: Vector3, z: Vector3) -> Self {
        Basis { rows: [x, y, z] }
    }

    /// A basis from its three axes, the matrix's columns: what GDScript's
    /// `Basis(x_axis, y_axis, z_axis)` takes. Stored as rows, so `rows[0]` is
    /// `(x_axis.x, y_axis.x, z_axis.x)`.
    ///
    /// ```
    /// use godot_bin::{Basis, Vector3};
    /// // A quarter turn about y: the x axis points to -z, the z axis to +x.
    /// let turn = Basis::from_columns(
    ///     Vector3::new(0.0, 0.0, -1.0),
    ///     Vector3::UP,
    ///     Vector3::new(1.0, 0.0, 0.0),
    /// );
    /// assert_eq!(turn.rows[0], Vector3::new(0.0, 0.0, 1.0));
    /// assert_eq!(turn.rows[2], Vector3::new(-1.0, 0.0, 0.0));
    /// assert_eq!(Basis::from_columns(Vector3::RIGHT, Vector3::UP, Vector3::BACK), Basis::IDENTITY);
    /// ```
    pub const fn from_columns(x_axis: Vector3, y_axis: Vector3, z_axis: Vector3) -> Self {
        Basis {
            rows: [
                Vector3::new(x_axis.x, y_axis.x, z_axis.x),
                Vector3::new(x_axis.y, y_axis.y, z_axis.y),
                Vector3::new(x_axis.z, y_axis.z, z_axis.z),
            ],
        }
    }
}

impl Transform3D {
    /// A transform from its basis and origin (the engine's `Transform3D(basis, origin)`).
    ///
    /// ```
    /// use godot_bin::{Basis, Transform3D, Vector3};
    /// let t = Transform3D::new(Basis::IDENTITY, Vector3::new(1.0, 2.0, 3.0));
    /// assert_eq!(t.origin.z, 3.0);
    /// assert_eq!(Transform3D::new(Basis::IDENTITY, Vector3::ZERO), Transform3D::IDENTITY);
    /// ```
    pub const fn new(basis: Basis, origin: Vector3) -> Self {
        Transform3D { basis, origin }
    }
}

impl Transform2D {
    /// A transform from its x axis, y axis and origin (the engine's
    /// `Transform2D(x_axis, y_axis, origin)`).
    ///
    /// ```
    /// use godot_bin::{Transform2D, Vector2};
    /// let t = Transform2D::new(Vector2::RIGHT, Vector2::DOWN, Vector2::new(10.0, 5.0));
    /// assert_eq!(t.origin, Vector2::new(10.0, 5.0));
    /// assert_eq!(Transform2D::new(Vector2::RIGHT, Vector2::DOWN, Vector2::ZERO), Transform2D::IDENTITY);
    /// ```
    pub const fn new(x: Vector2, y: Vector2, origin: Vector2) -> Self {
        Transform2D { x, y, origin }
    }
}

impl Projection {
    /// A projection from its four columns (the engine's `Projection(x, y, z, w)`).
    ///
    /// ```
    /// use godot_bin::{Projection, Vector4};
    /// let p = Projection::from_columns(
    ///     Vector4::new(1.0, 0.0, 0.0, 0.0),
    ///     Vector4::new(0.0, 1.0, 0.0, 0.0),
    ///     Vector4::new(0.0, 0.0, 1.0, 0.0),
    ///     Vector4::new(0.0, 0.0, 0.0, 1.0),
    /// );
    /// assert_eq!(p, Projection::IDENTITY);
    /// assert_eq!(Projection::from_columns(Vector4::ONE, Vector4::ZERO, Vector4::ZERO, Vector4::ZERO).columns[0], Vector4::ONE);
    /// ```
    pub const fn from_columns(x: Vector4, y: Vector4, z: Vector4, w: Vector4) -> Self {
        Projection {
            columns: [x, y, z, w],
        }
    }
}

impl Color {
    /// A color from red, green, blue and alpha (the engine's `Color(r, g, b, a)`); the
    /// same as [`Color::from_rgba`].
    ///
    /// ```
    /// use godot_bin::Color;
    /// let c = Color::new(1.0, 0.5, 0.0, 0.25);
    /// assert_eq!((c.r, c.g, c.b, c.a), (1.0, 0.5, 0.0, 0.25));
    /// assert_eq!(Color::new(0.0, 0.0, 0.0, 1.0), Color::BLACK);
    /// ```
    pub const fn new(r: f32, g: f32, b: f32, a: f32) -> Self {
        Color { r, g, b, a }
    }

    /// A color from red, green, blue and alpha.
    pub const fn from_rgba(r: f32, g: f32, b: f32, a: f32) -> Self {
        Color { r, g, b, a }
    }
}

/// `Default` as the named constant the engine's default constructor gives.
macro_rules! default_is {
    ($($t:ident => $c:ident),*) => {$(
        impl Default for $t {
            fn default() -> Self {
                $t::$c
            }
        }
    )*};
}
default_is!(
    Vector2 => ZERO, Vector2i => ZERO, Rect2 => ZERO, Rect2i => ZERO, Vector3 => ZERO,
    Vector3i => ZERO, Transform2D => IDENTITY, Vector4 => ZERO, Vector4i => ZERO, Plane => ZERO,
    Quaternion => IDENTITY, Aabb => ZERO, Basis => IDENTITY, Transform3D => IDENTITY,
    Projection => IDENTITY, Color => BLACK
);

impl Vector2 {
    /// `(0, 0)`.
    pub const ZERO: Vector2 = Vector2::new(0.0, 0.0);
    /// `(1, 1)`.
    pub const ONE: Vector2 = Vector2::new(1.0, 1.0);
    /// `(-1, 0)`.
    pub const LEFT: Vector2 = Vector2::new(-1.0, 0.0);
    /// `(1, 0)`.
    pub const RIGHT: Vector2 = Vector2::new(1.0, 0.0);
    /// `(0, -1)`: up in 2D, where y grows downwards.
    pub const UP: Vector2 = Vector2::new(0.0, -1.0);
    /// `(0, 1)`.
    pub const DOWN: Vector2 = Vector2::new(0.0, 1.0);
}

impl Vector2i {
    /// `(0, 0)`.
    pub const ZERO: Vector2i = Vector2i::new(0, 0);
    /// `(1, 1)`.
    pub const ONE: Vector2i = Vector2i::new(1, 1);
}

impl Vector3 {
    /// `(0, 0, 0)`.
    pub const ZERO: Vector3 = Vector3::new(0.0, 0.0, 0.0);
    /// `(1, 1, 1)`.
    pub const ONE: Vector3 = Vector3::new(1.0, 1.0, 1.0);
    /// `(-1, 0, 0)`.
    pub const LEFT: Vector3 = Vector3::new(-1.0, 0.0, 0.0);
    /// `(1, 0, 0)`.
    pub const RIGHT: Vector3 = Vector3::new(1.0, 0.0, 0.0);
    /// `(0, 1, 0)`.
    pub const UP: Vector3 = Vector3::new(0.0, 1.0, 0.0);
    /// `(0, -1, 0)`.
    pub const DOWN: Vector3 = Vector3::new(0.0, -1.0, 0.0);
    /// `(0, 0, -1)`: forward in the engine's right-handed 3D.
    pub const FORWARD: Vector3 = Vector3::new(0.0, 0.0, -1.0);
    /// `(0, 0, 1)`.
    pub const BACK: Vector3 = Vector3::new(0.0, 0.0, 1.0);
}

impl Vector3i {
    /// `(0, 0, 0)`.
    pub const ZERO: Vector3i = Vector3i::new(0, 0, 0);
    /// `(1, 1, 1)`.
    pub const ONE: Vector3i = Vector3i::new(1, 1, 1);
}

impl Vector4 {
    /// `(0, 0, 0, 0)`.
    pub const ZERO: Vector4 = Vector4::new(0.0, 0.0, 0.0, 0.0);
    /// `(1, 1, 1, 1)`.
    pub const ONE: Vector4 = Vector4::new(1.0, 1.0, 1.0, 1.0);
}

impl Vector4i {
    /// `(0, 0, 0, 0)`.
    pub const ZERO: Vector4i = Vector4i::new(0, 0, 0, 0);
    /// `(1, 1, 1, 1)`.
    pub const ONE: Vector4i = Vector4i::new(1, 1, 1, 1);
}

impl Rect2 {
    /// Position and size zero.
    pub const ZERO: Rect2 = Rect2::new(Vector2::ZERO, Vector2::ZERO);
}

impl Rect2i {
    /// Position and size zero.
    pub const ZERO: Rect2i = Rect2i::new(Vector2i::ZERO, Vector2i::ZERO);
}

impl Plane {
    /// Normal and distance zero (the engine's `Plane()`).
    pub const ZERO: Plane = Plane::new(Vector3::ZERO, 0.0);
}

impl Aabb {
    /// Position and size zero.
    pub const ZERO: Aabb = Aabb::new(Vector3::ZERO, Vector3::ZERO);
}

impl Quaternion {
    /// No rotation: `(0, 0, 0, 1)`.
    pub const IDENTITY: Quaternion = Quaternion::new(0.0, 0.0, 0.0, 1.0);
}

impl Basis {
    /// The identity matrix.
    pub const IDENTITY: Basis = Basis {
        rows: [Vector3::RIGHT, Vector3::UP, Vector3::BACK],
    };
    /// `x` mirrored: `(-1, 0, 0), (0, 1, 0), (0, 0, 1)` as rows.
    pub const FLIP_X: Basis = Basis {
        rows: [Vector3::LEFT, Vector3::UP, Vector3::BACK],
    };
    /// `y` mirrored.
    pub const FLIP_Y: Basis = Basis {
        rows: [Vector3::RIGHT, Vector3::DOWN, Vector3::BACK],
    };
    /// `z` mirrored.
    pub const FLIP_Z: Basis = Basis {
        rows: [Vector3::RIGHT, Vector3::UP, Vector3::FORWARD],
    };
}

impl Transform3D {
    /// No rotation, scale or translation.
    pub const IDENTITY: Transform3D = Transform3D::new(Basis::IDENTITY, Vector3::ZERO);
}

impl Transform2D {
    /// No rotation, scale or translation.
    pub const IDENTITY: Transform2D =
        Transform2D::new(Vector2::RIGHT, Vector2::DOWN, Vector2::ZERO);
}

impl Projection {
    /// The identity matrix.
    pub const IDENTITY: Projection = Projection {
        columns: [
            Vector4::new(1.0, 0.0, 0.0, 0.0),
            Vector4::new(0.0, 1.0, 0.0, 0.0),
            Vector4::new(0.0, 0.0, 1.0, 0.0),
            Vector4::new(0.0, 0.0, 0.0, 1.0),
        ],
    };
    /// All zeros.
    pub const ZERO: Projection = Projection {
        columns: [Vector4::ZERO; 4],
    };
}

impl Color {
    /// Opaque black `(0, 0, 0, 1)`: the engine's `Color()`.
    pub const BLACK: Color = Color::from_rgba(0.0, 0.0, 0.0, 1.0);
    /// Opaque white.
    pub const WHITE: Color = Color::from_rgba(1.0, 1.0, 1.0, 1.0);
    /// Transparent black `(0, 0, 0, 0)`.
    pub const TRANSPARENT: Color = Color::from_rgba(0.0, 0.0, 0.0, 0.0);
    /// Opaque red.
    pub const RED: Color = Color::from_rgba(1.0, 0.0, 0.0, 1.0);
    /// Opaque green `(0, 1, 0, 1)` (the engine's `Color.GREEN`).
    pub const GREEN: Color = Color::from_rgba(0.0, 1.0, 0.0, 1.0);
    /// Opaque blue.
    pub const BLUE: Color = Color::from_rgba(0.0, 0.0, 1.0, 1.0);

    /// An opaque color from red, green and blue.
    pub const fn from_rgb(r: f32, g: f32, b: f32) -> Self {
        Color { r, g, b, a: 1.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_engines() {
        assert_eq!(Transform3D::default(), Transform3D::IDENTITY);
        assert_eq!(Basis::default().rows[1], Vector3::new(0.0, 1.0, 0.0));
        assert_eq!(Quaternion::default(), Quaternion::new(0.0, 0.0, 0.0, 1.0));
        assert_eq!(Transform2D::default().y, Vector2::new(0.0, 1.0));
        assert_eq!(Projection::default().columns[3].w, 1.0);
        assert_eq!(Color::default(), Color::from_rgba(0.0, 0.0, 0.0, 1.0));
        assert_eq!(Vector3::default(), Vector3::ZERO);
    }
}
