//! [`Config`]: the dialect and options that travel with every call. Plain options only:
//! its entry points (`to_vec`, `from_slice`...) live beside the machinery they start, in
//! `ser` and `de`.

use crate::dialect::{Dialect, ENGINE_MAX_DEPTH};

/// How deeply values may nest in this build, in every form (packets, the text form, and
/// the files of `godot_bin_files`): the one depth policy.
///
/// * With the `stack-growth` feature: the engine's own limit, 1024 levels
///   (`Variant::MAX_RECURSION_DEPTH`); the stack grows on demand ([`grow_stack`]).
/// * Without it: 128 levels, the most a thread's own stack holds on the deepest path (a
///   `Variant` decoded through serde) with room to spare on a 2 MiB thread (Rust's default
///   for spawned and test threads, and tokio's for its workers). Measured: about 12 KiB a
///   level in a debug build, 1.4 KiB in a release build. serde_json's limit is the same.
///
/// [`Config::max_depth`] may lower it, never raise it.
///
/// [`grow_stack`]: crate::grow_stack
pub const MAX_DEPTH: usize = if cfg!(feature = "stack-growth") {
    ENGINE_MAX_DEPTH
} else {
    128
};

/// `depth`, lowered to this build's [`MAX_DEPTH`].
fn within_stack(depth: usize) -> usize {
    depth.min(MAX_DEPTH)
}

/// How to encode and decode: the engine's [`Dialect`] and the options that change bytes.
///
/// A `Config` is a small value; build it once and call its methods, or use the crate's
/// free functions, which use `Config::default()` (Godot 4, single precision, objects not
/// allowed, nesting up to [`MAX_DEPTH`]).
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
    /// The default and the largest limit is [`MAX_DEPTH`], this build's: the engine's own
    /// 1024 ([`Dialect::max_depth`]) with the `stack-growth` feature, else 128. A larger
    /// one is lowered to it, so that hostile input never overflows the stack.
    ///
    /// ```
    /// use godot_bin::{Config, MAX_DEPTH};
    /// let cfg = Config::default().max_depth(3);
    /// assert_eq!(cfg.depth_limit(), 3);
    /// assert_eq!(Config::default().depth_limit(), MAX_DEPTH);
    /// assert_eq!(Config::default().max_depth(5000).depth_limit(), MAX_DEPTH);
    /// assert_eq!(MAX_DEPTH, if cfg!(feature = "stack-growth") { 1024 } else { 128 });
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
