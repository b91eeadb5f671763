//! Comparing `Variant`s in tests.

use godot_bin::{Array, Dialect, Dictionary, Variant, Vector3};

/// Equality that sees NaN = NaN and tells -0.0 from 0.0: `Debug` prints every float with
/// the digits that identify it exactly.
pub fn same(a: &Variant, b: &Variant) -> bool {
    format!("{a:?}") == format!("{b:?}")
}

/// `==` that also asks every Dictionary inside to keep its order and its keys' types
/// ([`Variant::eq_ordered`]): for round trips and decodes of engine output, which keep the
/// order, where `==` (the engine's, in any order) would let a reordering pass.
pub trait EqOrdered {
    /// Equal, every Dictionary in the same order.
    fn eq_ordered(&self, other: &Self) -> bool;
}

impl EqOrdered for Variant {
    fn eq_ordered(&self, other: &Variant) -> bool {
        Variant::eq_ordered(self, other)
    }
}

impl EqOrdered for Dictionary {
    fn eq_ordered(&self, other: &Dictionary) -> bool {
        Dictionary::eq_ordered(self, other)
    }
}

impl<T: EqOrdered> EqOrdered for [T] {
    fn eq_ordered(&self, other: &[T]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.eq_ordered(b))
    }
}

impl<T: EqOrdered> EqOrdered for Vec<T> {
    fn eq_ordered(&self, other: &Vec<T>) -> bool {
        self[..].eq_ordered(&other[..])
    }
}

impl<T: EqOrdered + ?Sized> EqOrdered for &T {
    fn eq_ordered(&self, other: &Self) -> bool {
        (**self).eq_ordered(*other)
    }
}

/// `assert_eq!` by [`EqOrdered`]: the values must be equal with every Dictionary in the
/// same order.
#[macro_export]
macro_rules! assert_eq_ordered {
    ($left:expr, $right:expr $(,)?) => {{
        let (left, right) = (&$left, &$right);
        assert!(
            $crate::variant::EqOrdered::eq_ordered(left, right),
            "assertion `left == right` (Dictionaries in order) failed\n  left: {left:?}\n right: {right:?}"
        );
    }};
    ($left:expr, $right:expr, $($arg:tt)+) => {{
        let (left, right) = (&$left, &$right);
        assert!(
            $crate::variant::EqOrdered::eq_ordered(left, right),
            "assertion `left == right` (Dictionaries in order) failed: {}\n  left: {left:?}\n right: {right:?}",
            format_args!($($arg)+)
        );
    }};
}
pub use crate::assert_eq_ordered;

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
