//! Packed arrays (`Pool*Array` in Godot 3): a newtype over `Vec` each.

use super::math::{Color, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i};
use serde_derive::{Deserialize, Serialize};

macro_rules! packed_array {
    ($(#[$doc:meta])* $name:ident($elem:ty), $magic:literal $(, $with:literal)?) => {
        $(#[$doc])*
        ///
        /// A newtype over `Vec`: build it with `From<Vec<_>>` or `collect()`, read it through
        /// `Deref<Target = [_]>`.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(rename = $magic)]
        pub struct $name($(#[serde(with = $with)])? pub Vec<$elem>);

        impl From<Vec<$elem>> for $name {
            fn from(v: Vec<$elem>) -> Self {
                $name(v)
            }
        }

        impl From<$name> for Vec<$elem> {
            fn from(v: $name) -> Self {
                v.0
            }
        }

        impl FromIterator<$elem> for $name {
            fn from_iter<I: IntoIterator<Item = $elem>>(iter: I) -> Self {
                $name(iter.into_iter().collect())
            }
        }

        impl std::ops::Deref for $name {
            type Target = [$elem];
            fn deref(&self) -> &[$elem] {
                &self.0
            }
        }

        impl std::ops::DerefMut for $name {
            fn deref_mut(&mut self) -> &mut [$elem] {
                &mut self.0
            }
        }

        impl IntoIterator for $name {
            type Item = $elem;
            type IntoIter = std::vec::IntoIter<$elem>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.into_iter()
            }
        }
    };
}

packed_array!(
    /// `PackedByteArray` (`PoolByteArray` in Godot 3).
    PackedByteArray(u8), "$godot_bin::PackedByteArray", "serde_bytes");
packed_array!(
    /// `PackedInt32Array` (`PoolIntArray` in Godot 3).
    PackedInt32Array(i32), "$godot_bin::PackedInt32Array");
packed_array!(
    /// `PackedInt64Array` (Godot 4 only).
    PackedInt64Array(i64), "$godot_bin::PackedInt64Array");
packed_array!(
    /// `PackedFloat32Array` (`PoolRealArray` in Godot 3).
    PackedFloat32Array(f32), "$godot_bin::PackedFloat32Array");
packed_array!(
    /// `PackedFloat64Array` (Godot 4 only).
    PackedFloat64Array(f64), "$godot_bin::PackedFloat64Array");
packed_array!(
    /// `PackedStringArray` (`PoolStringArray` in Godot 3).
    PackedStringArray(String), "$godot_bin::PackedStringArray");
packed_array!(
    /// `PackedVector2Array` (`PoolVector2Array` in Godot 3).
    PackedVector2Array(Vector2), "$godot_bin::PackedVector2Array");
packed_array!(
    /// `PackedVector3Array` (`PoolVector3Array` in Godot 3).
    PackedVector3Array(Vector3), "$godot_bin::PackedVector3Array");
packed_array!(
    /// `PackedColorArray` (`PoolColorArray` in Godot 3).
    PackedColorArray(Color), "$godot_bin::PackedColorArray");
packed_array!(
    /// `PackedVector4Array` (Godot 4.3+; `PoolVector4Array` in Pandemonium).
    PackedVector4Array(Vector4), "$godot_bin::PackedVector4Array");
packed_array!(
    /// `PoolVector2iArray` (Pandemonium only).
    PackedVector2iArray(Vector2i), "$godot_bin::PackedVector2iArray");
packed_array!(
    /// `PoolVector3iArray` (Pandemonium only).
    PackedVector3iArray(Vector3i), "$godot_bin::PackedVector3iArray");
packed_array!(
    /// `PoolVector4iArray` (Pandemonium only; that engine writes `z` where `w` belongs, and
    /// this crate reads the bytes as they are laid out).
    PackedVector4iArray(Vector4i), "$godot_bin::PackedVector4iArray");
