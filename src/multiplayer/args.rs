//! The arguments of a call, kept as they came off the wire until the handler asks for a
//! type.

use super::error::Result;
use super::variant_io::{self, ArgsForm};
use crate::Variant;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The arguments of an RPC, in their wire form.
///
/// Decode them into a tuple, a derived struct whose fields come in argument order, or
/// `Vec<Variant>`; or hand them back unchanged to another call (an echo costs no decoding).
///
/// ```
/// use godot_bin::multiplayer::Args;
/// use godot_bin::Vector3;
/// let args = Args::new(&(1, "x", Vector3::new(1.0, 2.0, 3.0)))?;
/// let (n, s, v): (i64, String, Vector3) = args.decode()?;
/// assert_eq!((n, s.as_str(), v), (1, "x", Vector3::new(1.0, 2.0, 3.0)));
/// # Ok::<(), godot_bin::multiplayer::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    pub(crate) form: ArgsForm,
    pub(crate) bytes: Vec<u8>,
}

impl Args {
    /// Arguments from a serializable value: a tuple, tuple struct, sequence or
    /// `Vec<Variant>` gives one argument per element, a struct one per field in declaration
    /// order, `()` none, anything else exactly one (write `(v,)` to pass one sequence as a
    /// single argument). A single `serde_bytes` / `PackedByteArray` argument travels raw,
    /// as the engine sends it.
    pub fn new<T: Serialize + ?Sized>(value: &T) -> Result<Self> {
        let mut bytes = Vec::new();
        let form = variant_io::encode_args(value, &mut bytes)?;
        Ok(Args { form, bytes })
    }

    /// One argument per Variant.
    pub fn from_variants(values: &[Variant]) -> Result<Self> {
        let mut bytes = Vec::new();
        let form = variant_io::encode_variant_args(values, &mut bytes)?;
        Ok(Args { form, bytes })
    }

    /// No arguments.
    pub fn none() -> Self {
        Args {
            form: ArgsForm::Raw,
            bytes: Vec::new(),
        }
    }

    /// The number of arguments.
    pub fn len(&self) -> usize {
        match self.form {
            ArgsForm::Values(n) => usize::from(n),
            ArgsForm::Raw => usize::from(!self.bytes.is_empty()),
        }
    }

    /// Whether there are no arguments.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Decodes the arguments into `T`: a tuple such as `(i64, String, Vector3)`, a derived
    /// struct (fields in argument order), `Vec<Variant>`...
    pub fn decode<T: DeserializeOwned>(&self) -> Result<T> {
        variant_io::decode_args(self.form, &self.bytes)
    }

    /// Decodes each argument into a Variant.
    pub fn to_variants(&self) -> Result<Vec<Variant>> {
        variant_io::decode_variant_args(self.form, &self.bytes)
    }

    /// The form the arguments travel in.
    pub fn form(&self) -> ArgsForm {
        self.form
    }

    /// The argument bytes as on the wire (after the argc byte).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }
}
