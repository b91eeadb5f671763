//! An annotated walk through a packet: every header and field the decoder reads, with its
//! byte offset, length and value, up to where decoding stopped. The `godot-bin explain`
//! command prints it; it is the packet layer's own reading, so it shows exactly what
//! decoding sees, including the field a refused packet fails at.
//!
//! ```
//! use godot_bin::explain::{explain, Value};
//! use godot_bin::{Config, VariantType};
//!
//! let bytes = godot_bin::to_vec(&vec![7])?;
//! let walk = explain(&bytes, &Config::default());
//! assert!(walk.error.is_none());
//! assert_eq!(walk.len, bytes.len());
//! // The Array's header, its count, the element's header and its value.
//! assert_eq!(walk.fields[0].value, Value::Header { ty: VariantType::Array, flags: 0 });
//! assert_eq!(walk.fields[1].value, Value::Count(1, false));
//! assert_eq!((walk.fields[2].offset, walk.fields[2].depth), (8, 1));
//! assert_eq!(walk.fields[3].value, Value::Int(7));
//! # Ok::<(), godot_bin::Error>(())
//! ```

use crate::config::Config;
use crate::dialect::VariantType;
use crate::error::Error;
use crate::packet::header::FLAG_64;
use crate::packet::{self, Decoder};
use crate::variant::Variant;

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

/// What a header's flag bits say for a packet of type `ty` in `dialect`: "64-bit",
/// "typed: builtin", "instance id"... and any bits the type does not use.
pub fn header_notes(ty: VariantType, flags: u32, dialect: crate::Dialect) -> Vec<String> {
    use crate::dialect::{ObjectForm, RidForm, TypedArrays};
    use VariantType as T;
    let spec = dialect.spec();
    let bit16 = flags & FLAG_64 != 0;
    let kind = |k: u32| match k {
        0 => "untyped",
        1 => "builtin",
        2 => "class",
        _ => "script",
    };
    let mut notes = Vec::new();
    let mut used = 0;
    match ty {
        T::Int | T::Float if spec.wide_numbers => {
            used = FLAG_64;
            if bit16 {
                notes.push("64-bit".to_owned());
            }
        }
        t if spec.double_math_flag && t.has_real_components() => {
            used = FLAG_64;
            if bit16 {
                notes.push("64-bit reals".to_owned());
            }
        }
        T::Object if spec.objects == ObjectForm::IdOrFull => {
            used = FLAG_64;
            notes.push(if bit16 { "instance id" } else { "full object" }.to_owned());
        }
        T::Array if spec.typed_arrays == TypedArrays::HeaderBits => {
            used = 3 << 16;
            if flags >> 16 & 3 != 0 {
                notes.push(format!("typed: {}", kind(flags >> 16 & 3)));
            }
        }
        T::Dictionary if spec.typed_dictionaries => {
            used = 0xF << 16;
            if flags >> 16 & 0xF != 0 {
                notes.push(format!(
                    "typed keys: {}, values: {}",
                    kind(flags >> 16 & 3),
                    kind(flags >> 18 & 3)
                ));
            }
        }
        T::TypedArray | T::PackedTypedArray => used = FLAG_64,
        _ => {}
    }
    let no_payload = match ty {
        T::Callable => true,
        T::Rid => spec.rid == RidForm::HeaderOnly,
        T::Object => spec.objects == ObjectForm::HeaderOnly,
        _ => false,
    };
    if no_payload {
        notes.push("no payload".to_owned());
    }
    if flags & !used != 0 {
        notes.push(format!("unused bits 0x{:06x} ignored", flags & !used));
    }
    notes
}

/// What [`explain`] found.
#[derive(Debug)]
pub struct Explanation {
    /// Every field read, in order.
    pub fields: Vec<Field>,
    /// The bytes the packet takes (up to the failure, if it failed).
    pub len: usize,
    /// The decoded value, if the packet is valid.
    pub value: Option<Variant>,
    /// Why decoding stopped, if it failed.
    pub error: Option<Error>,
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

/// Walks the packet at the start of `bytes`, recording every field.
pub fn explain(bytes: &[u8], config: &Config) -> Explanation {
    let mut d = match Decoder::new(bytes, config) {
        Ok(d) => d,
        Err(error) => {
            return Explanation {
                fields: Vec::new(),
                len: 0,
                value: None,
                error: Some(error),
            }
        }
    };
    d.r.trace = Some(Box::default());
    let result = packet::variant::decode(&mut d);
    let fields = d.r.trace.take().map(|t| t.fields).unwrap_or_default();
    let len = d.r.pos();
    match result {
        Ok(value) => Explanation {
            fields,
            len,
            value: Some(value),
            error: None,
        },
        Err(error) => Explanation {
            fields,
            len,
            value: None,
            error: Some(error),
        },
    }
}
