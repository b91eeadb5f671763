//! The arguments of a call, kept as they came off the wire until the handler asks for a
//! type.

use super::error::Result;
use super::variant_io::{self, ArgsForm};
use godot_bin::Variant;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::borrow::Cow;

/// The arguments of an RPC, in their wire form.
///
/// Decode them into a tuple, a derived struct whose fields come in argument order, or
/// `Vec<Variant>`; or hand them back unchanged to another call (an echo costs no decoding).
///
/// ```
/// use godot_bin_multiplayer::Args;
/// use godot_bin::Vector3;
/// let args = Args::new(&(1, "x", Vector3::new(1.0, 2.0, 3.0)))?;
/// let (n, s, v): (i64, String, Vector3) = args.decode()?;
/// assert_eq!((n, s.as_str(), v), (1, "x", Vector3::new(1.0, 2.0, 3.0)));
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Args {
    pub(crate) form: ArgsForm,
    pub(crate) bytes: Vec<u8>,
}

impl Args {
    /// Arguments from a serializable value: a tuple, tuple struct, sequence or
    /// `Vec<Variant>` gives one argument per element, a struct one per field in declaration
    /// order, `()` none, anything else exactly one (write `(v,)` to pass one sequence or
    /// struct as a single argument). A single `serde_bytes` / `PackedByteArray` argument
    /// travels raw, as the engine sends it.
    ///
    /// `rpc_id` and `rpc` take a tuple directly (see [`CallArgs`]); an `Args` made here is
    /// for the other shapes, and says at the call site that a struct is spread.
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

/// What `rpc_id` and `rpc` take as the arguments of a call: a tuple of up to 16
/// serializable values (one argument each; `(v,)` for one), `()` for none, or [`Args`].
///
/// It is sealed, so that a value meant as one argument cannot silently become several:
/// [`Args::new`] spreads a struct into one argument per field, and an RPC taking the struct
/// as its single argument would be called with the wrong count (Godot logs "Method
/// expected 1 arguments, but called with 2" on its side and drops the call). A struct
/// passed straight to `rpc_id` is therefore a compile error; wrap it in a tuple.
///
/// ```compile_fail,E0277
/// # use godot_bin_multiplayer::{Client, NodeConfig, Options, Rpc, Scene};
/// # use std::{sync::Arc, time::Instant};
/// #[derive(serde::Serialize)]
/// struct Hello {
///     text: String,
///     n: i32,
/// }
/// # let scene = Scene::new().with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))?;
/// # let mut client = Client::new(Arc::new(scene), Options::default());
/// # client.connected(7, Instant::now())?;
/// let hello = Hello { text: "hi".into(), n: 1 };
/// client.rpc_id(1, "Echo", "echo", &hello)?; // error: `Hello` is not a list of RPC arguments
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
///
/// The same call with the struct as one argument:
///
/// ```
/// # use godot_bin_multiplayer::{Client, NodeConfig, Options, Rpc, Scene};
/// # use std::{sync::Arc, time::Instant};
/// #[derive(serde::Serialize)]
/// struct Hello {
///     text: String,
///     n: i32,
/// }
/// # let scene = Scene::new().with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))?;
/// # let mut client = Client::new(Arc::new(scene), Options::default());
/// # client.connected(7, Instant::now())?;
/// let hello = Hello { text: "hi".into(), n: 1 };
/// client.rpc_id(1, "Echo", "echo", &(&hello,))?; // echo(hello): one argument
/// // Its fields as the arguments, when that is what the method takes: say so.
/// client.rpc_id(1, "Echo", "echo", &godot_bin_multiplayer::Args::new(&hello)?)?;
/// # Ok::<(), godot_bin_multiplayer::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of RPC arguments",
    label = "pass a tuple of arguments here",
    note = "wrap one argument in a 1-tuple: `&(value,)`; `()` is no argument; \
            `Args::new(&value)?` spreads a struct into one argument per field"
)]
pub trait CallArgs: sealed::Sealed {}

mod sealed {
    use super::{Args, Cow, Result};

    /// The encoding behind [`CallArgs`](super::CallArgs), out of users' reach.
    pub trait Sealed {
        fn encode(&self) -> Result<Cow<'_, Args>>;
    }
}

pub(crate) fn encode_call_args<A: CallArgs + ?Sized>(args: &A) -> Result<Cow<'_, Args>> {
    sealed::Sealed::encode(args)
}

impl sealed::Sealed for Args {
    fn encode(&self) -> Result<Cow<'_, Args>> {
        Ok(Cow::Borrowed(self))
    }
}
impl CallArgs for Args {}

impl sealed::Sealed for () {
    fn encode(&self) -> Result<Cow<'_, Args>> {
        Args::new(self).map(Cow::Owned)
    }
}
impl CallArgs for () {}

macro_rules! tuple_call_args {
    ($($name:ident)+) => {
        impl<$($name: Serialize),+> sealed::Sealed for ($($name,)+) {
            fn encode(&self) -> Result<Cow<'_, Args>> {
                Args::new(self).map(Cow::Owned)
            }
        }
        impl<$($name: Serialize),+> CallArgs for ($($name,)+) {}
    };
}

tuple_call_args!(A);
tuple_call_args!(A B);
tuple_call_args!(A B C);
tuple_call_args!(A B C D);
tuple_call_args!(A B C D E);
tuple_call_args!(A B C D E F);
tuple_call_args!(A B C D E F G);
tuple_call_args!(A B C D E F G H);
tuple_call_args!(A B C D E F G H I);
tuple_call_args!(A B C D E F G H I J);
tuple_call_args!(A B C D E F G H I J K);
tuple_call_args!(A B C D E F G H I J K L);
tuple_call_args!(A B C D E F G H I J K L M);
tuple_call_args!(A B C D E F G H I J K L M N);
tuple_call_args!(A B C D E F G H I J K L M N O);
tuple_call_args!(A B C D E F G H I J K L M N O P);
