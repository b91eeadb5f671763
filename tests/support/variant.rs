//! Comparing `Variant`s in tests.

use godot_bin::{Array, Dictionary, Variant, Vector3};

/// Equality that sees NaN = NaN and tells -0.0 from 0.0: `Debug` prints every float with
/// the digits that identify it exactly.
pub fn same(a: &Variant, b: &Variant) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// Drops what a dialect's text cannot say: typed-container types outside Godot 4.
pub fn without_container_types(v: &Variant) -> Variant {
    match v {
        Variant::Array(a) => Variant::Array(Array::from(
            a.items
                .iter()
                .map(without_container_types)
                .collect::<Vec<_>>(),
        )),
        Variant::Dictionary(d) => Variant::Dictionary(Dictionary::from(
            d.iter()
                .map(|(k, v)| (without_container_types(k), without_container_types(v)))
                .collect::<Vec<_>>(),
        )),
        other => other.clone(),
    }
}

/// Whether two vectors agree to 1e-6 in every component (rotations computed two ways).
pub fn close(a: Vector3, b: Vector3) -> bool {
    (a.x - b.x).abs() < 1e-6 && (a.y - b.y).abs() < 1e-6 && (a.z - b.z).abs() < 1e-6
}
