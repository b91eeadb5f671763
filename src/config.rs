//! [`Config`]: the dialect and options that travel with every call.

use crate::de::Deserializer;
use crate::dialect::Dialect;
use crate::error::{ErrorKind, Result};
use crate::ser::Serializer;
use serde::de::{Deserialize, DeserializeOwned};
use serde::Serialize;
use std::io;

/// How to encode and decode: the engine's [`Dialect`] and the options that change bytes.
///
/// A `Config` is a small value; build it once and call its methods, or use the crate's
/// free functions, which use `Config::default()` (Godot 4, single precision, objects not
/// allowed, the engine's depth limit).
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
            max_depth: dialect.max_depth(),
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

    /// The deepest nesting of containers accepted when decoding and encoding. The default
    /// is the engine's own limit, 1024. The top-level value is at depth 0 and a
    /// container's elements (a Dictionary's keys and values, an Object's property values)
    /// one level deeper than the container: a value at depth `max_depth` is accepted, one
    /// deeper is [`ErrorKind::DepthExceeded`] where it
    /// starts.
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// The largest packet, in bytes, that decoding reads and encoding writes; larger ones
    /// fail with [`ErrorKind::SizeLimitExceeded`]. Unlimited by default. Decoding already
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

    /// Encodes `value` into a new byte vector: what `bytes_to_var` reads.
    pub fn to_vec<T: Serialize + ?Sized>(&self, value: &T) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.append_to_vec(&mut out, value)?;
        Ok(out)
    }

    /// Encodes `value` at the end of `out`. On error, `out` is left as it was.
    pub fn append_to_vec<T: Serialize + ?Sized>(&self, out: &mut Vec<u8>, value: &T) -> Result<()> {
        let start = out.len();
        let mut result = value.serialize(&mut Serializer::new(out, self)?);
        if result.is_ok() && out.len() - start > self.max_size {
            result = Err(ErrorKind::SizeLimitExceeded(self.max_size).into());
        }
        if result.is_err() {
            out.truncate(start);
        }
        result
    }

    /// Encodes `value` and writes the packet to `writer` in one `write_all`.
    pub fn to_writer<W: io::Write, T: Serialize + ?Sized>(
        &self,
        mut writer: W,
        value: &T,
    ) -> Result<()> {
        let bytes = self.to_vec(value)?;
        writer.write_all(&bytes)?;
        Ok(())
    }

    /// Decodes one value that fills `bytes` exactly; trailing bytes are an error.
    /// `&str` and `serde_bytes` `&[u8]` fields borrow from `bytes`.
    pub fn from_slice<'de, T: Deserialize<'de>>(&self, bytes: &'de [u8]) -> Result<T> {
        let (value, rest) = self.take_from_slice(bytes)?;
        if !rest.is_empty() {
            let at = bytes.len() - rest.len();
            return Err(crate::Error::at(ErrorKind::TrailingBytes(rest.len()), at));
        }
        Ok(value)
    }

    /// Decodes the value at the start of `bytes` and returns it with the bytes after it, for
    /// buffers that hold several packets (the engine itself ignores what follows a packet).
    pub fn take_from_slice<'de, T: Deserialize<'de>>(
        &self,
        bytes: &'de [u8],
    ) -> Result<(T, &'de [u8])> {
        // Past max_size the decoder sees no bytes at all, so a longer packet runs out.
        let window = &bytes[..bytes.len().min(self.max_size)];
        let mut de = Deserializer::from_slice(window, self)?;
        // Errors raised by visitors carry no offset yet: they happened where reading stopped.
        let value = T::deserialize(&mut de).map_err(|e| {
            let mut e = e.or_at(de.d.r.pos());
            let ran_out = matches!(
                e.kind(),
                ErrorKind::UnexpectedEof | ErrorKind::LengthOutOfRange(_)
            );
            if ran_out && window.len() < bytes.len() {
                *e.kind_mut() = ErrorKind::SizeLimitExceeded(self.max_size);
            }
            e
        })?;
        let consumed = window.len() - de.remaining().len();
        Ok((value, &bytes[consumed..]))
    }

    /// Reads `reader` to its end and decodes the one value it holds, as
    /// [`from_slice`](Config::from_slice) does. For streams of length-prefixed values
    /// (`StreamPeer.put_var`, `FileAccess.store_var`) read each frame first.
    pub fn from_reader<R: io::Read, T: DeserializeOwned>(&self, reader: R) -> Result<T> {
        // Read no more than max_size + 1 bytes: enough to tell that a packet is too large.
        let mut bytes = Vec::new();
        let limit = (self.max_size as u64).saturating_add(1);
        io::Read::read_to_end(&mut reader.take(limit), &mut bytes)?;
        if bytes.len() > self.max_size {
            return Err(ErrorKind::SizeLimitExceeded(self.max_size).into());
        }
        self.from_slice(&bytes)
    }
}
