//! The element type of a Godot 4 typed container: plain data, read and written by the
//! packet layer (`packet::container`) and checked against values by `Variant`'s containers.

use crate::dialect::VariantType;
use serde_derive::{Deserialize, Serialize};

/// The element (or key, or value) type of a Godot 4 typed container.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ElementType {
    /// An untyped container (`Array`, `Dictionary`, or `Array[Variant]`).
    #[default]
    Untyped,
    /// A builtin type: `Array[int]`, `Dictionary[String, float]`...
    Builtin(VariantType),
    /// Objects of a native class: `Array[Node]`. Without `full_objects` the engine writes
    /// the class name `"EncodedObjectAsID"`.
    ClassName(String),
    /// Objects of a script class, by the script's `res://` path.
    Script(String),
}

impl ElementType {
    /// Whether this is [`ElementType::Untyped`].
    pub fn is_untyped(&self) -> bool {
        *self == ElementType::Untyped
    }
}
