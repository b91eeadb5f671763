//! Comparing `Variant`s in tests.

use godot_bin::{Array, Dialect, Dictionary, Variant, Vector3};

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

/// What `dialect`'s text of `v` reads back as, where the text cannot say everything:
/// outside Godot 4, typed containers lose their types, and a FLOAT beyond the `f32` range
/// becomes the infinity those engines print for it (they print a FLOAT through their
/// 32-bit `real_t`).
pub fn as_text_says(v: &Variant, dialect: Dialect) -> Variant {
    if dialect == Dialect::Godot4 {
        return v.clone();
    }
    fn narrow(v: &Variant) -> Variant {
        match v {
            Variant::Float(x) if (*x as f32).is_infinite() => Variant::Float(f64::from(*x as f32)),
            Variant::Array(a) => {
                Variant::Array(Array::from(a.items.iter().map(narrow).collect::<Vec<_>>()))
            }
            Variant::Dictionary(d) => Variant::Dictionary(Dictionary::from(
                d.iter()
                    .map(|(k, v)| (narrow(k), narrow(v)))
                    .collect::<Vec<_>>(),
            )),
            other => other.clone(),
        }
    }
    narrow(&without_container_types(v))
}

/// Whether two vectors agree to 1e-6 in every component (rotations computed two ways).
pub fn close(a: Vector3, b: Vector3) -> bool {
    (a.x - b.x).abs() < 1e-6 && (a.y - b.y).abs() < 1e-6 && (a.z - b.z).abs() < 1e-6
}
