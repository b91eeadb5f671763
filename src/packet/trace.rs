//! What the reader records while tracing: each field's offset, length, depth, label and
//! value. The packet layer only fills it in; the annotated walk a floor above hands it to users.

use crate::dialect::VariantType;

/// One field of a packet.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Offset of its first byte in the input.
    pub offset: usize,
    /// Its length in bytes (padding included where the field has some).
    pub len: usize,
    /// Nesting depth: 0 for the top-level packet, 1 for its elements...
    pub depth: usize,
    /// What the field is: `"header"`, `"count"`, `"value"`, `"x"`, `"class name"`...
    pub label: &'static str,
    /// What it holds.
    pub value: Value,
}

/// The value of a [`Field`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// A header word: the type it names and its flag bits (the word above the type id).
    Header {
        /// The packet's type.
        ty: VariantType,
        /// The header's bits above the type id.
        flags: u32,
    },
    /// A type id inside a payload (a typed container's element type).
    Type(VariantType),
    /// A BOOL.
    Bool(bool),
    /// An integer (INT, an i32 component, a count word read as a number).
    Int(i64),
    /// A float, and whether it is stored in 8 bytes.
    Float(f64, bool),
    /// A text's length word.
    Len(usize),
    /// A text's bytes and padding: the text as read, and how many bytes the length said.
    Text {
        /// The text, as the engine reads it (BOM dropped, cut at a NUL).
        text: String,
        /// The byte length the length word gave.
        raw: usize,
    },
    /// An element count, and whether Godot 2's shared bit is set.
    Count(usize, bool),
    /// A NodePath's flags word.
    Flags(u32),
    /// A u64 id (RID, object instance, signal owner).
    Id(u64),
    /// A run of bytes (a byte array's data and its padding).
    Bytes(usize),
    /// A packed array element's components.
    Components(Vec<Value>),
}

/// The fields read so far (kept by the packet layer's reader while tracing).
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    pub fields: Vec<Field>,
    pub depth: usize,
}

impl Trace {
    pub fn field(&mut self, start: usize, end: usize, label: &'static str, value: Value) {
        self.fields.push(Field {
            offset: start,
            len: end - start,
            depth: self.depth,
            label,
            value,
        });
    }
}
