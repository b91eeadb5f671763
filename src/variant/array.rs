//! [`Array`]: values in order, with the element type a Godot 4 typed array carries, and
//! the typed containers' admission rule.

use super::Variant;
use crate::dialect::VariantType;
use crate::types::element::ElementType;

impl ElementType {
    /// What a container of this type makes of `v` when decoding, as the engine's decoder
    /// does: it adds each element (and each Dictionary key; values are not checked)
    /// through the typed container's check, which takes a value of the type, converts an
    /// int for a float container, a String for a StringName one and back, takes null or
    /// any object for an object container, and drops anything else (`None`).
    pub(crate) fn admit(&self, v: Variant) -> Option<Variant> {
        use crate::types::names::StringName;
        let object =
            |v: &Variant| matches!(v, Variant::Nil | Variant::ObjectId(_) | Variant::Object(_));
        match (self, v) {
            (ElementType::Untyped, v) => Some(v),
            (ElementType::ClassName(_) | ElementType::Script(_), v)
            | (ElementType::Builtin(VariantType::Object), v) => object(&v).then_some(v),
            (ElementType::Builtin(ty), v) if v.get_type() == *ty => Some(v),
            (ElementType::Builtin(VariantType::Float), Variant::Int(i)) => {
                Some(Variant::Float(i as f64))
            }
            (ElementType::Builtin(VariantType::String), Variant::StringName(s)) => {
                Some(Variant::String(s.0))
            }
            (ElementType::Builtin(VariantType::StringName), Variant::String(s)) => {
                Some(Variant::StringName(StringName(s)))
            }
            _ => None,
        }
    }
}

/// `Array`: values in order, with an element type when it is a Godot 4 typed array
/// (`Array[int]`). Derefs to its `Vec<Variant>`, so indexing, `push` and iteration are
/// `Vec`'s.
///
/// ```
/// use godot_bin::{Array, ElementType, Variant, VariantType};
/// let mut a = Array::from(vec![Variant::from(1), Variant::from("two")]);
/// a.push(Variant::from(3.5));
/// assert_eq!(a[1], Variant::from("two"));
/// assert_eq!(Variant::Array(a).to_string(), "[1, \"two\", 3.5]");
///
/// // `Array[int]([1, 2])`, as a typed GDScript array prints:
/// let typed = Array::typed(ElementType::Builtin(VariantType::Int), vec![1.into(), 2.into()]);
/// assert_eq!(Variant::Array(typed).to_string(), "Array[int]([1, 2])");
/// ```
#[derive(Debug, Default, PartialEq)]
pub struct Array {
    /// The element type; [`ElementType::Untyped`] for a plain Array.
    pub element_type: ElementType,
    /// The elements.
    pub items: Vec<Variant>,
    /// Godot 2 only: the array is shared (bit 31 of the count; 2.x GDScript arrays are).
    pub shared: bool,
}

impl Clone for Array {
    fn clone(&self) -> Self {
        Array {
            element_type: self.element_type.clone(),
            items: clone_deep(&self.items),
            shared: self.shared,
        }
    }
}

/// Clones the elements of a container. A value nests as deep as the decoders allow (1024
/// levels with `stack-growth`, else 128: `MAX_DEPTH`), and cloning recurses once a level
/// (about 2.6 KiB of stack a level in a debug build), so the stack is grown on demand here
/// as the decoders grow it: cloning what was read must not overflow a thread the read did
/// not (godot_bin_files' `tests/it/resource/hostile.rs`).
pub(super) fn clone_deep<T: Clone>(items: &[T]) -> Vec<T> {
    if items.is_empty() {
        return Vec::new();
    }
    crate::packet::grow_stack(|| items.to_vec())
}

impl Array {
    /// An empty untyped array.
    pub fn new() -> Self {
        Array::default()
    }

    /// An array typed as `Array[ty]`.
    pub fn typed(element_type: ElementType, items: Vec<Variant>) -> Self {
        Array {
            element_type,
            items,
            shared: false,
        }
    }
}

impl Array {
    /// `==`, with every [`Dictionary`](crate::variant::Dictionary) inside compared in
    /// order too ([`Variant::eq_ordered`]): what encodes to the same bytes.
    pub fn eq_ordered(&self, other: &Array) -> bool {
        self.element_type == other.element_type
            && self.shared == other.shared
            && self.items.len() == other.items.len()
            && self
                .items
                .iter()
                .zip(&other.items)
                .all(|(a, b)| a.eq_ordered(b))
    }
}

impl std::ops::Deref for Array {
    type Target = Vec<Variant>;
    fn deref(&self) -> &Vec<Variant> {
        &self.items
    }
}

impl std::ops::DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Variant> {
        &mut self.items
    }
}

impl From<Vec<Variant>> for Array {
    fn from(items: Vec<Variant>) -> Self {
        Array {
            items,
            ..Array::default()
        }
    }
}

impl<V: Into<Variant>> FromIterator<V> for Array {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Array::from(iter.into_iter().map(Into::into).collect::<Vec<_>>())
    }
}

impl IntoIterator for Array {
    type Item = Variant;
    type IntoIter = std::vec::IntoIter<Variant>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}
