//! The packet layer: Godot's binary Variant format, with no serde in it.
//!
//! This is the crate's description of the wire format, one module per rule, each a read
//! and a write side by side. It is the ground floor of the bytes: it knows the dialect
//! table, the options, the error type and the plain data types, and nothing above it.
//! Everything that reads or writes packets — the serde layers, the dynamic value's own
//! codec, the annotated walk — goes through it; the walk's records are [`trace`].
//!
//! A packet is a header word ([`header`]: the type id and flags), then the payload of that
//! type. Everything is little-endian. Numbers and counts are 32-bit unless a rule says
//! otherwise; texts, byte arrays and strings inside payloads are followed by zero bytes up
//! to a multiple of 4 ("padding"). Payloads by type:
//!
//! | module | types |
//! |---|---|
//! | [`scalar`] | NIL (no payload), BOOL, INT, FLOAT |
//! | [`text`] | STRING, STRING_NAME, and every text inside other payloads |
//! | [`math`] | the vectors, rects, PLANE, QUATERNION, AABB, BASIS, the transforms, PROJECTION, COLOR |
//! | [`nodepath`] | NODE_PATH |
//! | [`object`] | RID, OBJECT (an instance id or a full object), CALLABLE, SIGNAL |
//! | [`container`] | ARRAY, DICTIONARY (typed or not), Pandemonium 5's TYPED_ARRAY and PACKED_TYPED_ARRAY |
//! | [`packed`] | the packed arrays |
//! | [`godot2`] | Godot 2's IMAGE and INPUT_EVENT |
//!
//! What differs between engines (type ids, which rules apply) is read from the one table
//! in [`crate::dialect`], through [`Ctx`].
//!
//! Reading never goes past the input and checks every length against the bytes left
//! before anything is allocated ([`reader`]).

pub(crate) mod container;
pub(crate) mod godot2;
pub(crate) mod header;
pub(crate) mod math;
pub(crate) mod nodepath;
pub(crate) mod object;
pub(crate) mod packed;
pub(crate) mod reader;
pub(crate) mod scalar;
pub(crate) mod text;
pub(crate) mod trace;
pub(crate) mod writer;

use crate::config::Config;
use crate::dialect::{Dialect, DialectSpec, PlainIds};
use crate::error::{Error, ErrorKind, Result};
use header::{Header, FLAG_64};
use reader::{container_count_of, Reader, MIN_ENTRY_SIZE};
use std::cell::Cell;

/// What the packet layer needs to know of a [`Config`]: the dialect's row of the table and
/// the options that change bytes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Ctx {
    pub spec: &'static DialectSpec,
    pub dialect: Dialect,
    /// Write reals as f64 with header bit 16 (a Godot 4 double-precision build).
    pub double: bool,
    /// Read full objects.
    pub allow_objects: bool,
    pub max_depth: usize,
    /// The bits of a header word that name its type in this dialect.
    pub type_mask: u32,
    /// The ids of the types most values are made of, read once from the dialect table:
    /// the hot paths of both directions then need no lookup (and no error branch).
    pub ids: PlainIds,
}

impl Ctx {
    pub fn new(config: &Config) -> Ctx {
        let spec = config.dialect.spec();
        Ctx {
            spec,
            dialect: config.dialect,
            double: config.double_precision,
            allow_objects: config.allow_objects,
            max_depth: config.max_depth,
            // Godot 2 compares the whole word with VARIANT_MAX: any flag bit is refused.
            type_mask: if spec.header_flags { 0xFF } else { !0 },
            ids: spec.plain,
        }
    }
}

/// Nesting levels that never need a stack check.
pub(crate) const SHALLOW: usize = 32;
/// Stack left below which a nesting level gets a fresh segment (above the ~150 KiB one
/// level of `Variant` encoding takes in an AddressSanitizer build)...
#[cfg(feature = "stack-growth")]
pub(crate) const STACK_RED_ZONE: usize = 256 << 10;
/// ...of this size.
#[cfg(feature = "stack-growth")]
pub(crate) const STACK_SEGMENT: usize = 4 << 20;

/// Runs `f` with room on the stack for one more level of nesting: with the `stack-growth`
/// feature the stack grows first when little is left (a fresh segment, by `stacker`), so
/// that [`MAX_DEPTH`](crate::MAX_DEPTH), the engine's 1024 levels, ends deep nesting and
/// not the thread's stack; without it, `f` runs on the thread's own stack, which
/// `MAX_DEPTH` (128 levels then) keeps within bounds. For code that walks values
/// recursively as deep as the crate reads them (the files of `godot_bin_files` do): call
/// it once a level past the first few dozen.
///
/// ```
/// use godot_bin::Variant;
///
/// fn depth(v: &Variant) -> usize {
///     match v {
///         Variant::Array(a) => 1 + a.iter().map(|x| godot_bin::grow_stack(|| depth(x))).max().unwrap_or(0),
///         _ => 0,
///     }
/// }
/// let mut v = Variant::Nil;
/// for _ in 0..godot_bin::MAX_DEPTH {
///     v = Variant::Array(vec![v].into());
/// }
/// assert_eq!(depth(&v), godot_bin::MAX_DEPTH);
/// ```
#[cold]
#[inline(never)]
pub fn grow_stack<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(feature = "stack-growth")]
    return stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f);
    #[cfg(not(feature = "stack-growth"))]
    return f();
}

/// Something that reads through a [`Decoder`] (the decoder itself, or a deserializer
/// built on it), and so can go one nesting level deeper.
pub(crate) trait Nest<'de>: Sized {
    fn decoder(&mut self) -> &mut Decoder<'de>;

    /// Runs `f` one nesting level deeper. Past a few levels the stack is grown on demand
    /// (`stacker`), so that the depth limit, not the thread's stack, ends a deep packet:
    /// each level costs a few KiB of stack in debug builds, and a server thread may have
    /// only 2 MiB.
    #[inline]
    fn nest<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        let d = self.decoder();
        d.depth += 1;
        let depth = d.depth;
        if let Some(trace) = &mut d.r.trace {
            trace.depth = depth;
        }
        // The level is left when `deeper` drops, after `f`'s result is in place: holding
        // the result in a local while leaving it made the compiler copy every decoded
        // struct once more, in pieces that stalled the copy (store-to-load forwarding).
        let deeper = Deeper(self, std::marker::PhantomData);
        if depth < SHALLOW {
            f(deeper.0)
        } else {
            grow_stack(|| f(deeper.0))
        }
    }
}

/// One nesting level of a [`Nest`], left when this drops.
struct Deeper<'a, 'de, T: Nest<'de>>(&'a mut T, std::marker::PhantomData<&'de ()>);

impl<'de, T: Nest<'de>> Drop for Deeper<'_, 'de, T> {
    #[inline]
    fn drop(&mut self) {
        let d = self.0.decoder();
        d.depth -= 1;
        if let Some(trace) = &mut d.r.trace {
            trace.depth = d.depth;
        }
    }
}

impl<'de> Nest<'de> for Decoder<'de> {
    #[inline(always)]
    fn decoder(&mut self) -> &mut Decoder<'de> {
        self
    }
}

/// Reads packets from a byte slice: the reader, the dialect, the nesting depth and the
/// allocation budget one packet shares.
pub(crate) struct Decoder<'de> {
    pub r: Reader<'de>,
    pub ctx: Ctx,
    /// Nesting depth of the value read next (the top level is 0).
    pub depth: usize,
    /// Where NodePath padding lies, when recording (the crate's `nodepath_padding`).
    pub pads: Option<Vec<std::ops::Range<usize>>>,
    /// Container elements that may still be reserved ahead of their arrival, for the whole
    /// packet (see [`Decoder::prealloc`]).
    budget: Cell<usize>,
    /// [`Ctx::ids`], beside the reader: the fast paths read them on every packet.
    ids: PlainIds,
}

impl<'de> Decoder<'de> {
    pub fn new(input: &'de [u8], config: &Config) -> Result<Self> {
        let mut d = Decoder::with_ctx(input, Ctx::new(config));
        d.r = Reader::new(input, config.max_size);
        Ok(d)
    }

    /// A decoder of `input` with no size limit beyond the input's own.
    pub fn with_ctx(input: &'de [u8], ctx: Ctx) -> Self {
        Decoder {
            r: Reader::new(input, usize::MAX),
            ctx,
            depth: 0,
            pads: None,
            budget: Cell::new(input.len() / 16),
            ids: ctx.ids,
        }
    }

    /// Reads a header, refusing it past the depth limit.
    #[inline(always)]
    pub fn header(&mut self) -> Result<Header> {
        if self.depth > self.ctx.max_depth {
            return Err(self.depth_error());
        }
        header::read(&mut self.r, &self.ctx)
    }

    #[cold]
    fn depth_error(&self) -> Error {
        self.r.error(ErrorKind::DepthExceeded(self.ctx.max_depth))
    }

    /// The next header, without consuming it.
    pub fn peek_header(&mut self) -> Result<Header> {
        let at = self.r.pos();
        let h = self.header();
        self.r.rewind(at);
        h
    }

    /// How many elements to reserve for a container that claims `count`. The claim was
    /// checked against the bytes left, but nested containers all claim the same bytes, so
    /// reservations share one budget for the whole packet, one element per 16 input bytes:
    /// past it, containers grow as their elements arrive, and no packet, however it lies,
    /// makes the decoder reserve more than a small multiple of its own size.
    pub fn prealloc(&self, count: usize) -> usize {
        let n = count.min(self.budget.get());
        self.budget.set(self.budget.get() - n);
        n
    }

    /// The header word of the next packet when its type is `id` and the depth limit is
    /// not passed; `None`, having read nothing, otherwise. The fast paths of the most
    /// common packets start here and leave everything else to [`Decoder::header`], which
    /// reports every error.
    #[inline]
    fn peek_plain(&self, id: u32) -> Option<u32> {
        let word = self.r.peek_u32()?;
        (word & self.ctx.type_mask == id && self.depth <= self.ctx.max_depth).then_some(word)
    }

    /// The text of the next packet when it is a whole, valid STRING; `None`, having read
    /// nothing, otherwise. (An `Option<&str>` comes back in registers.)
    #[inline]
    pub fn plain_string(&mut self) -> Option<&'de str> {
        self.peek_plain(self.ids.string)?;
        let at = self.r.pos();
        self.r.advance(4);
        let text = text::valid(&mut self.r);
        if text.is_none() {
            self.r.rewind(at);
        }
        text
    }

    /// An INT's value and the offset of its header when the next packet is a whole INT.
    #[inline]
    pub fn plain_int(&mut self) -> Option<(i64, usize)> {
        let word = self.peek_plain(self.ids.int)?;
        let at = self.r.pos();
        let (value, size) = if word & FLAG_64 != 0 {
            let b: [u8; 12] = self.r.peek_array()?;
            let v = i64::from_le_bytes([b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11]]);
            (v, 12)
        } else {
            let b: [u8; 8] = self.r.peek_array()?;
            (i32::from_le_bytes([b[4], b[5], b[6], b[7]]).into(), 8)
        };
        self.r.advance(size);
        Some((value, at))
    }

    /// A FLOAT's value when the next packet is a whole FLOAT.
    #[inline]
    pub fn plain_float(&mut self) -> Option<f64> {
        let word = self.peek_plain(self.ids.float)?;
        if word & FLAG_64 != 0 {
            let b: [u8; 12] = self.r.peek_array()?;
            self.r.advance(12);
            Some(f64::from_le_bytes([
                b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
            ]))
        } else {
            let b: [u8; 8] = self.r.peek_array()?;
            self.r.advance(8);
            Some(f32::from_le_bytes([b[4], b[5], b[6], b[7]]).into())
        }
    }

    /// The entry count when the next packet is a DICTIONARY with no flags (no typed keys or
    /// values: what every struct is) whose count the bytes left can hold.
    #[inline]
    pub fn plain_dictionary(&mut self) -> Option<usize> {
        let word = self.peek_plain(self.ids.dictionary)?;
        if word != self.ids.dictionary {
            return None;
        }
        let b: [u8; 8] = self.r.peek_array()?;
        let word = u32::from_le_bytes([b[4], b[5], b[6], b[7]]);
        let count = container_count_of(word, MIN_ENTRY_SIZE, self.r.rest().len() - 8)?;
        self.r.advance(8);
        Some(count)
    }
}
