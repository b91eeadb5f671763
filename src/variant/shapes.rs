//! Typed (and Godot 2 shared) Arrays and Dictionaries in serde's data model: the shapes
//! their one-entry maps hold, read by `de.rs` (through serde's buffering) and by `ser.rs`
//! (a builtin captured while serializing into a `Variant`).

use super::{Array, Dictionary, ElementType, Variant};
use serde_derive::Deserialize as DeriveDeserialize;

/// A typed (or Godot 2 shared) Array in its serde shape.
#[derive(DeriveDeserialize)]
pub(crate) struct TypedArrayShape {
    element_type: ElementType,
    shared: bool,
    items: Vec<Variant>,
}

impl From<TypedArrayShape> for Array {
    fn from(s: TypedArrayShape) -> Array {
        Array {
            element_type: s.element_type,
            items: s.items,
            shared: s.shared,
        }
    }
}

/// A typed (or Godot 2 shared) Dictionary in its serde shape.
#[derive(DeriveDeserialize)]
pub(crate) struct TypedDictionaryShape {
    key_type: ElementType,
    value_type: ElementType,
    shared: bool,
    entries: Vec<(Variant, Variant)>,
}

impl From<TypedDictionaryShape> for Dictionary {
    fn from(s: TypedDictionaryShape) -> Dictionary {
        // As the packet decoder adds them: an object key is always an entry of its own
        // (these entries come from a Dictionary, where such keys were apart).
        let mut d = Dictionary::with_capacity(s.entries.len());
        for (key, value) in s.entries {
            d.insert_decoded(key, value);
        }
        d.set_types(s.key_type, s.value_type);
        d.shared = s.shared;
        d
    }
}
