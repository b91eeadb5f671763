//! Packed arrays (`Pool*Array` in Godot 3): a newtype over `Vec` each.
//!
//! Plain data. Their serde impls (which carry the numbers and vectors through godot_bin a
//! block of bytes at a time) are the builtins' own, a floor above; through any other serde
//! format they are plain sequences, as a `Vec` is.

use super::math::{Color, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i};

macro_rules! packed_array {
    // Strings and bytes: Eq and Hash as well.
    ($(#[$doc:meta])* $name:ident($elem:ty), derived) => {
        $(#[$doc])*
        ///
        /// A newtype over `Vec`: build it with `From<Vec<_>>` or `collect()`, read it through
        /// `Deref<Target = [_]>`.
        #[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub Vec<$elem>);

        packed_array!(@common $name($elem));
    };
    // Numbers and vectors: whole blocks of bytes through godot_bin.
    ($(#[$doc:meta])* $name:ident($elem:ty), bulk) => {
        $(#[$doc])*
        ///
        /// A newtype over `Vec`: build it with `From<Vec<_>>` or `collect()`, read it through
        /// `Deref<Target = [_]>`.
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name(pub Vec<$elem>);

        packed_array!(@common $name($elem));
    };
    (@common $name:ident($elem:ty)) => {
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
    PackedByteArray(u8), derived);
packed_array!(
    /// `PackedInt32Array` (`PoolIntArray` in Godot 3).
    PackedInt32Array(i32), bulk);
packed_array!(
    /// `PackedInt64Array` (Godot 4 only).
    PackedInt64Array(i64), bulk);
packed_array!(
    /// `PackedFloat32Array` (`PoolRealArray` in Godot 3).
    PackedFloat32Array(f32), bulk);
packed_array!(
    /// `PackedFloat64Array` (Godot 4 only).
    PackedFloat64Array(f64), bulk);
packed_array!(
    /// `PackedStringArray` (`PoolStringArray` in Godot 3).
    PackedStringArray(String), derived);
packed_array!(
    /// `PackedVector2Array` (`PoolVector2Array` in Godot 3).
    PackedVector2Array(Vector2), bulk);
packed_array!(
    /// `PackedVector3Array` (`PoolVector3Array` in Godot 3).
    PackedVector3Array(Vector3), bulk);
packed_array!(
    /// `PackedColorArray` (`PoolColorArray` in Godot 3).
    PackedColorArray(Color), bulk);
packed_array!(
    /// `PackedVector4Array` (Godot 4.3+; `PoolVector4Array` in Pandemonium).
    PackedVector4Array(Vector4), bulk);
packed_array!(
    /// `PoolVector2iArray` (Pandemonium only).
    PackedVector2iArray(Vector2i), bulk);
packed_array!(
    /// `PoolVector3iArray` (Pandemonium only).
    PackedVector3iArray(Vector3i), bulk);
packed_array!(
    /// `PoolVector4iArray` (Pandemonium only; that engine writes `z` where `w` belongs, and
    /// this crate reads the bytes as they are laid out).
    PackedVector4iArray(Vector4i), bulk);

/// Calls `$m!` with the packed arrays' names: all of them, or with `@bulk` those of numbers
/// and vectors (fixed-size elements, carried a block of bytes at a time). The one list of
/// them that code dispatches on.
macro_rules! for_each_packed {
    ($m:ident) => {
        $crate::types::packed::for_each_packed! { @with $m; PackedByteArray, PackedStringArray }
    };
    (@bulk $m:ident) => {
        $crate::types::packed::for_each_packed! { @with $m; }
    };
    (@with $m:ident; $($extra:ident),*) => {
        $m! {
            $($extra,)* PackedInt32Array, PackedInt64Array, PackedFloat32Array, PackedFloat64Array,
            PackedVector2Array, PackedVector3Array, PackedVector4Array, PackedColorArray,
            PackedVector2iArray, PackedVector3iArray, PackedVector4iArray
        }
    };
}
pub(crate) use for_each_packed;
