//! Giving a value, decoded whole, to one of this crate's own visitors.
//!
//! serde gives a deserializer nothing but a visitor. When that visitor is one of this
//! crate's own — a fixed builtin's ([`StructVisitor`]), or the dynamic value's (which says
//! so with its own `impl Own`) — the deserializer can decode the whole value with the packet layer
//! and give it as the visitor's result, instead of presenting it through serde piece by
//! piece (a visitor call, a seed and a move for each element or component). Both ways give
//! the same value (`tests/it/fast_paths.rs` holds them equal on every golden row).
//!
//! The visitor is recognised by its type id. Type ids are constants, so [`to`] is decided
//! at compile time for every visitor and costs nothing for all the others.

use crate::builtin::{Builtin, StructVisitor};
use serde::de::Visitor;
use std::marker::PhantomData;

/// A visitor of this crate that can be given its value whole.
///
/// Only for types without lifetime parameters: [`to`]'s proof rests on it.
pub(crate) trait Own: 'static {}

impl<T: Builtin + 'static> Own for StructVisitor<T> {}

/// Proof that the visitor type `V` is the crate's own visitor `W` (see [`to`]).
pub(crate) struct Giver<'de, V, W>(PhantomData<fn(&'de (), V, W)>);

/// A [`Giver`] if `V` is `W`, `None` for any other visitor.
#[inline(always)]
pub(crate) fn to<'de, V: Visitor<'de>, W: Visitor<'de> + Own>() -> Option<Giver<'de, V, W>> {
    (typeid::of::<V>() == typeid::of::<W>()).then_some(Giver(PhantomData))
}

impl<'de, V: Visitor<'de>, W: Visitor<'de> + Own> Giver<'de, V, W> {
    /// `value` as the result of visitor `V`, which is `W`.
    #[inline(always)]
    #[allow(unsafe_code)]
    pub fn give(self, value: W::Value) -> V::Value {
        // SAFETY: a `Giver` is made only by `to`, when `V` and `W` have the same type id.
        // `typeid::of` tells types apart up to their lifetimes, and `W` has no lifetime
        // parameters (`Own`'s contract: `StructVisitor<T>` with `T: 'static`, and
        // `Variant`'s visitor), so `V` *is* `W`, and for the same `'de` their `Visitor::Value`
        // is one type: reading the one as the other is a plain move (`ManuallyDrop` keeps
        // `value` from being dropped a second time). Checked by this module's tests and by
        // `tests/it/fast_paths.rs`, which decodes every golden row both ways.
        let value = std::mem::ManuallyDrop::new(value);
        unsafe { std::mem::transmute_copy::<W::Value, V::Value>(&value) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::math::{Color, Vector3};
    use serde::de::IgnoredAny;

    #[test]
    fn a_value_is_given_to_its_own_visitor_only() {
        let v = Vector3::new(1.5, -2.0, 3.25);
        let giver = to::<StructVisitor<Vector3>, StructVisitor<Vector3>>().unwrap();
        assert_eq!(giver.give(v), v);
        assert!(to::<StructVisitor<Color>, StructVisitor<Vector3>>().is_none());
        assert!(to::<IgnoredAny, StructVisitor<Vector3>>().is_none());
    }
}
