//! `Array` and `Dictionary`, with the element types Godot 4 typed containers carry.

use super::Variant;
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

/// `Array`: values in order, with an element type when it is a Godot 4 typed array
/// (`Array[int]`). Derefs to its `Vec<Variant>`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Array {
    /// The element type; [`ElementType::Untyped`] for a plain Array.
    pub element_type: ElementType,
    /// The elements.
    pub items: Vec<Variant>,
    /// Godot 2 only: the array is shared (bit 31 of the count; 2.x GDScript arrays are).
    pub shared: bool,
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

/// `Dictionary`: key/value pairs in insertion order, any [`Variant`] as key, with key and
/// value types when it is a Godot 4.4 typed dictionary.
///
/// It is a list, as the engine sends it: lookups are linear, and decoding keeps every pair
/// the packet holds, in its order, so that re-encoding gives the same bytes.
///
/// ```
/// use godot_bin::{Dictionary, Variant};
/// let mut d = Dictionary::new();
/// d.insert("hp", 10);
/// d.insert(1, "one");
/// d.insert("hp", 12); // replaces the value, keeps the position
/// assert_eq!(d.get("hp"), Some(&Variant::Int(12)));
/// assert_eq!(d.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dictionary {
    /// The key type; [`ElementType::Untyped`] for a plain Dictionary.
    pub key_type: ElementType,
    /// The value type; [`ElementType::Untyped`] for a plain Dictionary.
    pub value_type: ElementType,
    /// The entries, in order.
    pub entries: Vec<(Variant, Variant)>,
    /// Godot 2 only: the dictionary is shared (bit 31 of the count).
    pub shared: bool,
}

impl Dictionary {
    /// An empty untyped dictionary.
    pub fn new() -> Self {
        Dictionary::default()
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Inserts or replaces. As in Godot 4, a String key and a StringName key with the same
    /// text are the same key, and the key first inserted keeps its type.
    pub fn insert(
        &mut self,
        key: impl Into<Variant>,
        value: impl Into<Variant>,
    ) -> Option<Variant> {
        let key = key.into();
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| same_key(k, &key)) {
            Some((_, slot)) => Some(std::mem::replace(slot, value)),
            None => {
                self.entries.push((key, value));
                None
            }
        }
    }

    /// The value for `key`. A `&str` finds String and StringName keys alike.
    pub fn get<K: Into<Variant>>(&self, key: K) -> Option<&Variant> {
        let key = key.into();
        self.entries
            .iter()
            .find(|(k, _)| same_key(k, &key))
            .map(|(_, v)| v)
    }

    /// The entries in order.
    pub fn iter(&self) -> std::slice::Iter<'_, (Variant, Variant)> {
        self.entries.iter()
    }
}

/// Godot 4's key equality: String and StringName with equal text match.
fn same_key(a: &Variant, b: &Variant) -> bool {
    match (a.as_str(), b.as_str()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

impl From<Vec<(Variant, Variant)>> for Dictionary {
    fn from(entries: Vec<(Variant, Variant)>) -> Self {
        Dictionary {
            entries,
            ..Dictionary::default()
        }
    }
}

impl<K: Into<Variant>, V: Into<Variant>> FromIterator<(K, V)> for Dictionary {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut d = Dictionary::new();
        for (k, v) in iter {
            d.insert(k, v);
        }
        d
    }
}

impl IntoIterator for Dictionary {
    type Item = (Variant, Variant);
    type IntoIter = std::vec::IntoIter<(Variant, Variant)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'a> IntoIterator for &'a Dictionary {
    type Item = &'a (Variant, Variant);
    type IntoIter = std::slice::Iter<'a, (Variant, Variant)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter()
    }
}
