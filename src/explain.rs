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
use crate::dialect::{Dialect, VariantType};
use crate::error::Error;
use crate::packet::header::FLAG_64;
use crate::packet::Decoder;
use crate::variant::Variant;

pub use crate::packet::trace::{Field, Value};

/// The byte ranges of NodePath padding in the packet at the start of `bytes`: the bytes
/// after each name of a NodePath up to its 4-byte boundary, which real engines leave
/// unwritten (godotengine/godot#44999), so whatever memory held shows there. A program
/// that compares its packets with an engine's ignores exactly these ranges.
///
/// ```
/// use godot_bin::{explain, Config, NodePath};
///
/// let bytes = godot_bin::to_vec(&NodePath::from("a/bc"))?;
/// let pads = explain::nodepath_padding(&bytes, &Config::default())?;
/// // Two names, "a" and "bc", each padded to 4 bytes.
/// assert_eq!(pads.iter().map(|r| r.len()).collect::<Vec<_>>(), [3, 2]);
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn nodepath_padding(
    bytes: &[u8],
    config: &Config,
) -> crate::Result<Vec<std::ops::Range<usize>>> {
    let mut d = Decoder::new(bytes, config)?;
    d.pads = Some(Vec::new());
    crate::variant::codec::decode(&mut d)?;
    Ok(d.pads.unwrap_or_default())
}

/// What a header's flag bits say for a packet of type `ty` in `dialect`: "64-bit",
/// "typed: builtin", "instance id"... and any bits the type does not use.
pub fn header_notes(ty: VariantType, flags: u32, dialect: Dialect) -> Vec<String> {
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
    let result = crate::variant::codec::decode(&mut d);
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
