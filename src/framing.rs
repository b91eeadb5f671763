//! Framing: how the engine's stream, file and packet APIs delimit values.
//!
//! | Engine API (Godot 4 name / Godot 3 name) | On the wire | Here |
//! |---|---|---|
//! | `StreamPeer.put_var` / `get_var` (`StreamPeerTCP`, `StreamPeerTLS`...) | u32 length prefix, then the packet | [`Framing::write`], [`Framing::read`], [`Framing::frames`] |
//! | `FileAccess.store_var` / `get_var` (`File` in Godot 3) | u32 length prefix, then the packet | the same methods over a [`std::fs::File`] |
//! | `PacketPeerStream` (a PacketPeer over a StreamPeer) | u32 length prefix, then the packet, always little-endian | the same methods |
//! | `PacketPeer.put_var` / `get_var` (`PacketPeerUDP`, ENet, `WebSocketPeer`...) | the bare packet, one value per packet | [`Config::to_vec`], [`Config::take_from_slice`] (the engine ignores bytes after the value) |
//! | `var_to_bytes` / `bytes_to_var` (`var2bytes` / `bytes2var`) | the bare packet | [`Config::to_vec`], [`Config::from_slice`] |
//!
//! The length prefix counts the bytes of the packet that follows (not itself). It is
//! little-endian unless the engine object's `big_endian` property (`endian_swap` on a
//! Godot 3 `File`) is set; that property swaps only the prefix, never the packet. Godot 3,
//! Godot 4 and Pandemonium frame alike; only the packets differ, which the [`Config`]'s
//! dialect takes care of.
//!
//! A [`Framing`] holds the [`Config`] of the packets and the framing options: the maximum
//! frame length, the prefix byte order and how strict decoding is. Every method takes the
//! destination (or source) first and the value second: `framing.write(&mut out, &value)`,
//! `framing.encode_frame(&mut buf, &value)`, `framing.read(&mut reader)`. The free
//! functions [`write_framed`], [`read_framed`] and [`frames`] are the same with
//! `Framing::default()` (Godot 4, [`DEFAULT_MAX_FRAME_LEN`]), as [`to_vec`](crate::ser::to_vec) is
//! [`Config::to_vec`] with the default configuration.
//!
//! A reader that accepts frames from the network must bound their size: a length prefix
//! above the framing's maximum is [`ErrorKind::LengthOutOfRange`] before anything is
//! allocated. Even below the maximum, the payload buffer grows with the bytes that
//! actually arrive, so a peer that announces a large frame and sends nothing costs
//! nothing. [`DEFAULT_MAX_FRAME_LEN`] (8 MiB, the engine's default
//! `PacketPeer.encode_buffer_max_size`) is the default; lower it with
//! [`Framing::max_frame_len`] for servers that expect small messages.
//!
//! ```
//! use godot_bin::framing::Framing;
//! use godot_bin::{Config, Dialect, Variant, Vector2};
//!
//! let framing = Framing::new(Config::new(Dialect::Godot3));
//! let mut stream = Vec::new(); // a TcpStream or a File in real use
//! framing.write(&mut stream, &Vector2::new(1.0, 2.0))?;
//! framing.write(&mut stream, "hello")?;
//! assert_eq!(&stream[..4], &12u32.to_le_bytes()); // the prefix: a 12-byte packet follows
//!
//! let mut reader = &stream[..];
//! let first: Option<Vector2> = framing.read(&mut reader)?;
//! assert_eq!(first, Some(Vector2::new(1.0, 2.0)));
//! let rest: Vec<Variant> = framing.frames(reader).collect::<Result<_, _>>()?;
//! assert_eq!(rest, [Variant::from("hello")]);
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! ## Error offsets
//!
//! A framing error (a length above the maximum, a stream that ends inside a frame) carries
//! the byte offset in the stream where it happened, counted from where the reader (or the
//! single [`Framing::read`] call) started. An error while decoding a frame's packet carries
//! the offset inside that packet, as [`Config::from_slice`] reports it.

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::variant::Variant;
use serde::de::{Deserialize, DeserializeOwned};
use serde::Serialize;
use std::fmt;
use std::io::{self, Read, Write};
use std::marker::PhantomData;

/// The size of the length prefix in front of every framed packet.
pub const PREFIX_LEN: usize = 4;

/// A default maximum frame length: 8 MiB, the engine's default
/// `PacketPeer.encode_buffer_max_size`. Lower it for servers that expect small messages.
pub const DEFAULT_MAX_FRAME_LEN: usize = 8 << 20;

/// The largest packet any engine API can read back from a frame: `StreamPeer.get_var`
/// keeps the prefix in a signed 32-bit `int`, so a longer frame is refused there. Writers
/// refuse to produce one.
pub const ENGINE_MAX_FRAME_LEN: usize = i32::MAX as usize;

/// How values are framed: the [`Config`] of the packets, the maximum frame length, the
/// byte order of the length prefix and whether bytes after a packet inside its frame are
/// tolerated.
///
/// `Framing::new(cfg)` (or `Framing::default()` for Godot 4) frames at most
/// [`DEFAULT_MAX_FRAME_LEN`] bytes with a little-endian prefix, decoded strictly; the
/// builder methods change the options.
///
/// ```
/// use godot_bin::framing::Framing;
/// use godot_bin::Config;
///
/// // A peer that set `StreamPeer.big_endian = true`, sending small messages.
/// let framing = Framing::new(Config::default()).max_frame_len(64 * 1024).big_endian(true);
/// let mut out = Vec::new();
/// framing.write(&mut out, &7)?;
/// assert_eq!(out, [0, 0, 0, 8, 2, 0, 0, 0, 7, 0, 0, 0]); // the packet stays little-endian
/// let back: Option<i32> = framing.read(&out[..])?;
/// assert_eq!(back, Some(7));
/// # Ok::<(), godot_bin::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Framing {
    cfg: Config,
    max_frame_len: usize,
    big_endian: bool,
    ignore_trailing_bytes: bool,
}

impl Default for Framing {
    /// `Framing::new(Config::default())`: Godot 4 packets, [`DEFAULT_MAX_FRAME_LEN`].
    fn default() -> Self {
        Framing::new(Config::default())
    }
}

impl From<Config> for Framing {
    /// `Framing::new(cfg)`.
    fn from(cfg: Config) -> Self {
        Framing::new(cfg)
    }
}

impl Framing {
    /// Frames of `cfg`'s packets, at most [`DEFAULT_MAX_FRAME_LEN`] packet bytes each
    /// (the prefix not counted), with a little-endian prefix, decoded strictly.
    pub const fn new(cfg: Config) -> Self {
        Framing {
            cfg,
            max_frame_len: DEFAULT_MAX_FRAME_LEN,
            big_endian: false,
            ignore_trailing_bytes: false,
        }
    }

    /// Frames of at most `max_frame_len` packet bytes (the prefix not counted). Reading,
    /// a larger length prefix is [`ErrorKind::LengthOutOfRange`] before anything is
    /// allocated; writing, a larger packet is refused, so that a peer using the same
    /// limit can read it. Writers never exceed [`ENGINE_MAX_FRAME_LEN`] whatever this is.
    pub const fn max_frame_len(mut self, max_frame_len: usize) -> Self {
        self.max_frame_len = max_frame_len;
        self
    }

    /// Read and write the length prefix big-endian, as the engine does when the
    /// `StreamPeer`'s `big_endian` property (a Godot 3 `File`'s `endian_swap`) is set.
    /// The packet itself stays little-endian. `PacketPeerStream` ignores the property.
    pub const fn big_endian(mut self, big_endian: bool) -> Self {
        self.big_endian = big_endian;
        self
    }

    /// Accept bytes after the packet inside a frame and skip them, as the engine's
    /// `get_var` does. Off by default: a frame must hold exactly one packet, and extra
    /// bytes are [`ErrorKind::TrailingBytes`].
    pub const fn ignore_trailing_bytes(mut self, ignore: bool) -> Self {
        self.ignore_trailing_bytes = ignore;
        self
    }

    /// The configuration of the packets.
    pub const fn config(&self) -> &Config {
        &self.cfg
    }

    /// The maximum frame length, in packet bytes.
    pub const fn frame_len_limit(&self) -> usize {
        self.max_frame_len
    }

    /// Whether the prefix is big-endian.
    pub const fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// Whether bytes after the packet inside a frame are skipped.
    pub const fn ignores_trailing_bytes(&self) -> bool {
        self.ignore_trailing_bytes
    }

    /// The packet length a prefix announces, checked against the maximum frame length.
    /// A larger one is [`ErrorKind::LengthOutOfRange`] (with no offset).
    pub fn frame_len(&self, prefix: [u8; PREFIX_LEN]) -> Result<usize> {
        let raw = self.raw_len(prefix);
        self.check_len(raw)
            .ok_or_else(|| ErrorKind::LengthOutOfRange(i64::from(raw)).into())
    }

    fn raw_len(&self, prefix: [u8; PREFIX_LEN]) -> u32 {
        if self.big_endian {
            u32::from_be_bytes(prefix)
        } else {
            u32::from_le_bytes(prefix)
        }
    }

    fn check_len(&self, raw: u32) -> Option<usize> {
        usize::try_from(raw)
            .ok()
            .filter(|&len| len <= self.max_frame_len)
    }

    /// Appends one frame (prefix and packet) holding `value` to `out`. The frame is
    /// refused if its packet is longer than the maximum frame length (so a peer using the
    /// same limit can read it) or than [`ENGINE_MAX_FRAME_LEN`]; `out` is then left as it
    /// was.
    pub fn encode_frame<T: Serialize + ?Sized>(&self, out: &mut Vec<u8>, value: &T) -> Result<()> {
        let limit = self.max_frame_len.min(ENGINE_MAX_FRAME_LEN);
        encode_frame_with(&self.cfg, value, out, self.big_endian, limit)
    }

    /// Writes one frame holding `value` to `writer`, in a single `write_all`: what
    /// `StreamPeer.put_var` and `FileAccess.store_var` write. See
    /// [`encode_frame`](Framing::encode_frame) for the length check.
    pub fn write<W: Write, T: Serialize + ?Sized>(&self, mut writer: W, value: &T) -> Result<()> {
        let mut frame = Vec::new();
        self.encode_frame(&mut frame, value)?;
        writer.write_all(&frame)?;
        Ok(())
    }

    /// Decodes the packet of one frame (the bytes after the prefix), honouring
    /// [`ignore_trailing_bytes`](Framing::ignore_trailing_bytes). Strings and byte slices
    /// may borrow from `packet`.
    pub fn decode_frame<'de, T: Deserialize<'de>>(&self, packet: &'de [u8]) -> Result<T> {
        if self.ignore_trailing_bytes {
            self.cfg.take_from_slice(packet).map(|(value, _)| value)
        } else {
            self.cfg.from_slice(packet)
        }
    }

    /// Reads one frame from `reader` and decodes its packet into `T` (a [`Variant`] when
    /// the shape is not known in advance).
    ///
    /// * `Ok(None)`: the stream ended cleanly, before the frame's first byte.
    /// * A length prefix above the maximum frame length is
    ///   [`ErrorKind::LengthOutOfRange`], raised before anything is allocated for the
    ///   packet.
    /// * A stream that ends inside the frame (prefix included) is
    ///   [`ErrorKind::UnexpectedEof`].
    /// * The packet must fill the frame exactly ([`ErrorKind::TrailingBytes`] otherwise)
    ///   unless [`ignore_trailing_bytes`](Framing::ignore_trailing_bytes) is set.
    ///
    /// `reader` is read only as far as the frame goes, so pass `&mut reader` and call
    /// again for the next frame; wrap a raw socket in a [`std::io::BufReader`] to save
    /// system calls.
    pub fn read<R: Read, T: DeserializeOwned>(&self, reader: R) -> Result<Option<T>> {
        let mut buf = Vec::new();
        let mut position = 0;
        match read_frame_into(reader, self, &mut buf, &mut position)? {
            Some(()) => self.decode_frame(&buf).map(Some),
            None => Ok(None),
        }
    }

    /// An iterator over the values framed in `reader` (written by `StreamPeer.put_var`,
    /// `FileAccess.store_var` or [`Framing::write`]) until the stream ends; see
    /// [`FramedReader`].
    ///
    /// ```
    /// use godot_bin::framing::Framing;
    /// use godot_bin::{Config, Variant};
    ///
    /// let framing = Framing::new(Config::default()).max_frame_len(1024);
    /// let mut file = Vec::new(); // std::fs::File::open("save.dat")? in real use
    /// for score in [10, 20, 30] {
    ///     framing.write(&mut file, &score)?;
    /// }
    /// let scores: Vec<i64> = framing.frames(&file[..]).collect::<Result<_, _>>()?;
    /// assert_eq!(scores, [10, 20, 30]);
    /// # Ok::<(), godot_bin::Error>(())
    /// ```
    pub fn frames<R: Read, T: DeserializeOwned>(&self, reader: R) -> FramedReader<R, T> {
        FramedReader {
            reader,
            framing: self.clone(),
            buf: Vec::new(),
            position: 0,
            finished: false,
            _value: PhantomData,
        }
    }
}

fn encode_frame_with<T: Serialize + ?Sized>(
    cfg: &Config,
    value: &T,
    out: &mut Vec<u8>,
    big_endian: bool,
    limit: usize,
) -> Result<()> {
    let start = out.len();
    out.extend_from_slice(&[0; PREFIX_LEN]);
    if let Err(e) = cfg.append_to_vec(out, value) {
        out.truncate(start);
        return Err(e);
    }
    let len = out.len() - start - PREFIX_LEN;
    let raw = match u32::try_from(len) {
        Ok(raw) if len <= limit => raw,
        _ => {
            out.truncate(start);
            return Err(ErrorKind::LengthOutOfRange(i64::try_from(len).unwrap_or(i64::MAX)).into());
        }
    };
    let prefix = if big_endian {
        raw.to_be_bytes()
    } else {
        raw.to_le_bytes()
    };
    out[start..start + PREFIX_LEN].copy_from_slice(&prefix);
    Ok(())
}

/// Bytes reserved up front for a frame's packet; beyond this the buffer grows with the
/// bytes that actually arrive.
const INITIAL_RESERVE: usize = 64 * 1024;

/// Reads the prefix and the packet of one frame into `buf` (cleared first). `position`
/// counts the bytes consumed and places error offsets. `Ok(None)` at a clean end.
fn read_frame_into<R: Read>(
    mut reader: R,
    framing: &Framing,
    buf: &mut Vec<u8>,
    position: &mut u64,
) -> Result<Option<()>> {
    let frame_start = *position;
    let mut prefix = [0u8; PREFIX_LEN];
    let mut got = 0;
    while got < PREFIX_LEN {
        match reader.read(&mut prefix[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => {
                *position += got as u64;
                return Err(Error::at(ErrorKind::UnexpectedEof, offset(*position)));
            }
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                *position += got as u64;
                return Err(e.into());
            }
        }
    }
    *position += PREFIX_LEN as u64;
    let raw = framing.raw_len(prefix);
    let len = framing.check_len(raw).ok_or_else(|| {
        Error::at(
            ErrorKind::LengthOutOfRange(i64::from(raw)),
            offset(frame_start),
        )
    })?;
    buf.clear();
    buf.reserve(len.min(INITIAL_RESERVE));
    // `len` fits in u32, so in u64.
    let read = reader.take(len as u64).read_to_end(buf);
    *position += buf.len() as u64;
    read?;
    if buf.len() < len {
        return Err(Error::at(ErrorKind::UnexpectedEof, offset(*position)));
    }
    Ok(Some(()))
}

fn offset(position: u64) -> usize {
    usize::try_from(position).unwrap_or(usize::MAX)
}

/// Writes `value` as one Godot 4 frame (u32 little-endian length prefix, then the packet)
/// to `writer`: [`Framing::write`] with `Framing::default()`, except that only the
/// engine's own limit ([`ENGINE_MAX_FRAME_LEN`]) applies, as for `StreamPeer.put_var`.
///
/// ```
/// let mut out = Vec::new();
/// godot_bin::framing::write_framed(&mut out, "hi")?;
/// assert_eq!(out, [12, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0]);
/// # Ok::<(), godot_bin::Error>(())
/// ```
pub fn write_framed<W: Write, T: Serialize + ?Sized>(writer: W, value: &T) -> Result<()> {
    Framing::default()
        .max_frame_len(ENGINE_MAX_FRAME_LEN)
        .write(writer, value)
}

/// Reads one Godot 4 frame from `reader`: [`Framing::read`] with `Framing::default()`
/// (frames up to [`DEFAULT_MAX_FRAME_LEN`]).
pub fn read_framed<R: Read, T: DeserializeOwned>(reader: R) -> Result<Option<T>> {
    Framing::default().read(reader)
}

/// An iterator over the Godot 4 frames in `reader`: [`Framing::frames`] with
/// `Framing::default()` (frames up to [`DEFAULT_MAX_FRAME_LEN`]).
pub fn frames<R: Read, T: DeserializeOwned>(reader: R) -> FramedReader<R, T> {
    Framing::default().frames(reader)
}

/// Reads framed values from a [`Read`] one after another; made by [`Framing::frames`] or
/// [`frames`].
///
/// As an [`Iterator`] it yields `Ok(value)` per frame and ends (`None`) at a clean end of
/// stream. A framing or I/O error (a length prefix above the maximum, a stream that ends
/// inside a frame, a failed read) is yielded once and ends the iteration, since the
/// stream position is then unknown. An error decoding a packet is yielded but does not
/// end it: the whole frame was consumed, so the next frame can still be read.
///
/// The packet buffer is reused from frame to frame.
pub struct FramedReader<R, T = Variant> {
    reader: R,
    framing: Framing,
    buf: Vec<u8>,
    position: u64,
    finished: bool,
    _value: PhantomData<fn() -> T>,
}

impl<R, T> FramedReader<R, T> {
    /// The number of bytes consumed from the reader so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Whether reading has stopped: the stream ended, or a framing or I/O error was
    /// returned. An error returned while this is still `false` was a packet that failed
    /// to decode, and the next frame can be read.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The underlying reader, mutably (reading from it directly desynchronizes the
    /// frames).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// Gives the reader back.
    pub fn into_inner(self) -> R {
        self.reader
    }
}

impl<R: Read, T: DeserializeOwned> FramedReader<R, T> {
    /// Reads the next frame: `Ok(None)` at a clean end of stream. After a framing or I/O
    /// error every later call returns `Ok(None)`.
    pub fn read_next(&mut self) -> Result<Option<T>> {
        if self.finished {
            return Ok(None);
        }
        match read_frame_into(
            &mut self.reader,
            &self.framing,
            &mut self.buf,
            &mut self.position,
        ) {
            Ok(Some(())) => self.framing.decode_frame(&self.buf).map(Some),
            Ok(None) => {
                self.finished = true;
                Ok(None)
            }
            Err(e) => {
                self.finished = true;
                Err(e)
            }
        }
    }
}

impl<R: Read, T: DeserializeOwned> Iterator for FramedReader<R, T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        self.read_next().transpose()
    }
}

impl<R: Read, T: DeserializeOwned> std::iter::FusedIterator for FramedReader<R, T> {}

impl<R, T> fmt::Debug for FramedReader<R, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FramedReader")
            .field("framing", &self.framing)
            .field("position", &self.position)
            .field("finished", &self.finished)
            .finish_non_exhaustive()
    }
}
