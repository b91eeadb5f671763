//! [`Config`]: the dialect and options that travel with every call. Plain options only:
//! its entry points (`to_vec`, `from_slice`...) live beside the machinery they start, in
//! `ser` and `de`.

use crate::dialect::Dialect;

/// How deeply values may nest without the `stack-growth` feature: the most levels a
/// thread's own stack holds on the deepest path (a `Variant` decoded through serde), with
/// room to spare on a 2 MiB thread (Rust's default for spawned threads and test threads,
/// and tokio's for its workers). Measured: about 12 KiB a level in a debug build, 1.4 KiB
/// in a release build. serde_json's default limit is the same.
///
/// Without `stack-growth`, [`Config::max_depth`] is at most this; with it, the stack grows
/// on demand and any limit holds (the default is then the engine's own 1024).
pub const STACK_SAFE_DEPTH: usize = 128;

/// `depth`, lowered to the deepest limit this build keeps without overflowing a thread's
/// stack: any with `stack-growth`, else [`STACK_SAFE_DEPTH`].
fn within_stack(depth: usize) -> usize {
    #[cfg(feature = "stack-growth")]
    return depth;
    #[cfg(not(feature = "stack-growth"))]
    return depth.min(STACK_SAFE_DEPTH);
}

/// How to encode and decode: the engine's [`Dialect`] and the options that change bytes.
///
/// A `Config` is a small value; build it once and call its methods, or use the crate's
/// free functions, which use `Config::default()` (Godot 4, single precision, objects not
/// allowed, the engine's depth limit with `stack-growth`, else [`STACK_SAFE_DEPTH`]).
///
/// ```
/// use godot_bin::{Config, Dialect};
/// let cfg = Config::new(Dialect::Godot3).allow_objects(true);
/// let bytes = cfg.to_vec(&vec![1, 2])?;
/// assert_eq!(bytes[0], 19); // ARRAY is type 19 in Godot 3
/// let back: Vec<i32> = cfg.from_slice(&bytes)?;
/// assert_eq!(back, [1, 2]);
/// # Ok::<(), godot_bin::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub(crate) dialect: Dialect,
    pub(crate) allow_objects: bool,
    pub(crate) double_precision: bool,
    pub(crate) max_depth: usize,
    pub(crate) max_size: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config::new(Dialect::Godot4)
    }
}

impl Config {
    /// The defaults for `dialect`.
    pub fn new(dialect: Dialect) -> Self {
        Config {
            dialect,
            allow_objects: false,
            double_precision: false,
            max_depth: within_stack(dialect.max_depth()),
            max_size: usize::MAX,
        }
    }

    /// Decode full objects (class name and properties) instead of refusing them, as the
    /// engine's `bytes_to_var_with_objects` / `bytes2var(b, true)` does. Off by default.
    /// Decoding an object never runs anything: the result is plain data.
    pub fn allow_objects(mut self, allow: bool) -> Self {
        self.allow_objects = allow;
        self
    }

    /// Write math types as an engine built with double-precision `real_t` does (Godot 4
    /// `precision=double`: 8-byte components and header bit 16). Decoding always follows
    /// each packet's own flag, whatever this says.
    pub fn double_precision(mut self, double: bool) -> Self {
        self.double_precision = double;
        self
    }

    /// The deepest nesting of containers accepted when decoding and encoding. The top-level
    /// value is at depth 0 and a container's elements (a Dictionary's keys and values, an
    /// Object's property values) one level deeper than the container: a value at depth
    /// `max_depth` is accepted, one deeper is
    /// [`ErrorKind::DepthExceeded`](crate::error::ErrorKind::DepthExceeded) where it starts.
    ///
    /// With the `stack-growth` feature the default is the engine's own limit, 1024
    /// ([`Dialect::max_depth`]), and any limit holds: the stack grows on demand. Without
    /// it, the default and the largest limit is [`STACK_SAFE_DEPTH`] (128): a larger one
    /// is lowered to it, so that hostile input never overflows the stack.
    ///
    /// ```
    /// use godot_bin::{Config, STACK_SAFE_DEPTH};
    /// let cfg = Config::default().max_depth(3);
    /// assert_eq!(cfg.depth_limit(), 3);
    /// if cfg!(feature = "stack-growth") {
    ///     assert_eq!(Config::default().depth_limit(), 1024);
    /// } else {
    ///     assert_eq!(Config::default().max_depth(1024).depth_limit(), STACK_SAFE_DEPTH);
    /// }
    /// ```
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = within_stack(depth);
        self
    }

    /// The deepest nesting this configuration accepts (see [`max_depth`](Self::max_depth)).
    pub fn depth_limit(&self) -> usize {
        self.max_depth
    }

    /// The largest packet, in bytes, that decoding reads and encoding writes; larger ones
    /// fail with [`ErrorKind::SizeLimitExceeded`](crate::error::ErrorKind::SizeLimitExceeded). Unlimited by default. Decoding already
    /// allocates no more than a small multiple of the input's size; this bounds the input.
    ///
    /// ```
    /// use godot_bin::{Config, ErrorKind};
    /// let cfg = Config::default().max_size(16);
    /// let err = cfg.to_vec(&"a string longer than sixteen bytes").unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::SizeLimitExceeded(16)));
    /// ```
    pub fn max_size(mut self, bytes: usize) -> Self {
        self.max_size = bytes;
        self
    }

    /// The dialect this configuration speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }
}
