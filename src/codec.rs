//! A [`tokio_util::codec`] Encoder/Decoder for framed values (feature `tokio`).
//!
//! [`VariantCodec`] speaks the framing of `StreamPeer.put_var` / `get_var` (a u32 length
//! prefix, then the packet; see [`crate::framing`]), so a tokio server can exchange
//! values with a Godot game over `StreamPeerTCP`. Wrap a socket in
//! [`tokio_util::codec::Framed`] and use it as a `Stream` of decoded values and a `Sink`
//! of values to send:
//!
//! ```no_run
//! # async fn serve(socket: tokio::net::TcpStream) -> Result<(), godot_bin::Error> {
//! use futures_util::{SinkExt, StreamExt};
//! use godot_bin::codec::VariantCodec;
//! use godot_bin::framing::Framing;
//! use godot_bin::{Config, Dialect, Variant};
//! use tokio_util::codec::Framed;
//!
//! let framing = Framing::new(Config::new(Dialect::Godot4)).max_frame_len(64 * 1024);
//! let codec = VariantCodec::<Variant>::new(framing);
//! let mut framed = Framed::new(socket, codec);
//! while let Some(value) = framed.next().await {
//!     let value = value?;
//!     framed.send(&value).await?; // echo it back
//! }
//! # Ok(())
//! # }
//! ```

use crate::config::Config;
use crate::error::{Error, ErrorKind, Result};
use crate::framing::{Framing, PREFIX_LEN};
use crate::variant::Variant;
use bytes::{Buf, BytesMut};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::marker::PhantomData;
use tokio_util::codec::{Decoder, Encoder};

/// Encodes and decodes length-prefixed values (what `StreamPeer.put_var` writes and
/// `get_var` reads), decoding each frame into `T` and encoding any `Serialize` value.
///
/// * Decoding waits for a whole frame, however the bytes arrive (one at a time, or
///   several frames in one read). A length prefix above the maximum frame length is
///   [`ErrorKind::LengthOutOfRange`] as soon as the prefix has arrived; the read buffer
///   reserves room for a frame only once its length has passed that check.
/// * A frame is removed from the buffer before its packet is decoded, so after a decoding
///   error the next frame can still be read by calling [`Decoder::decode`] again
///   (`tokio_util`'s `Framed` itself stops at the first error).
/// * A stream that ends inside a frame is [`ErrorKind::UnexpectedEof`].
/// * Encoding refuses a value whose packet is longer than the maximum frame length (so a
///   peer using the same limit can read it); nothing is written then.
///
/// `T` defaults to [`Variant`]; use your own `#[derive(Deserialize)]` message type to
/// decode straight into it. The types sent need not be `T`: a server can decode client
/// messages and encode server messages with the same codec.
///
/// ```
/// use bytes::BytesMut;
/// use godot_bin::codec::VariantCodec;
/// use godot_bin::framing::Framing;
/// use godot_bin::{Config, Variant};
/// use tokio_util::codec::{Decoder, Encoder};
///
/// // Frames as `StreamPeerTCP.put_var` writes them; at most 64 KiB each.
/// let mut codec: VariantCodec = VariantCodec::new(Framing::new(Config::default()).max_frame_len(64 << 10));
/// let mut wire = BytesMut::new();
/// codec.encode(&("hello", 1), &mut wire)?;
/// // Half a frame: nothing yet (a stream reader waits for more).
/// let mut half = wire.split_to(wire.len() / 2);
/// assert!(codec.decode(&mut half)?.is_none());
/// half.unsplit(wire);
/// let v = codec.decode(&mut half)?.expect("a whole frame");
/// assert_eq!(v, Variant::from(vec![Variant::from("hello"), Variant::from(1)]));
/// # Ok::<(), godot_bin::Error>(())
/// ```
///
/// In a tokio server, `tokio_util::codec::Framed::new(socket, codec)` gives a stream of
/// decoded values and a sink of encodable ones (`examples/game_server.rs`).
pub struct VariantCodec<T = Variant> {
    framing: Framing,
    _value: PhantomData<fn() -> T>,
}

impl<T> VariantCodec<T> {
    /// A codec framing as `framing` says: its [`Config`] for the packets, its maximum
    /// frame length, prefix byte order and strictness.
    pub fn new(framing: Framing) -> Self {
        VariantCodec {
            framing,
            _value: PhantomData,
        }
    }

    /// The configuration used for packets.
    pub fn config(&self) -> &Config {
        self.framing.config()
    }

    /// The framing options, including the maximum frame length.
    pub fn framing(&self) -> &Framing {
        &self.framing
    }
}

impl<T> Default for VariantCodec<T> {
    /// `VariantCodec::new(Framing::default())`: Godot 4,
    /// [`DEFAULT_MAX_FRAME_LEN`](crate::framing::DEFAULT_MAX_FRAME_LEN).
    fn default() -> Self {
        Self::new(Framing::default())
    }
}

impl<T> From<Framing> for VariantCodec<T> {
    /// `VariantCodec::new(framing)`.
    fn from(framing: Framing) -> Self {
        Self::new(framing)
    }
}

impl<T> Clone for VariantCodec<T> {
    fn clone(&self) -> Self {
        Self::new(self.framing.clone())
    }
}

impl<T> fmt::Debug for VariantCodec<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VariantCodec")
            .field("framing", &self.framing)
            .finish()
    }
}

impl<T: DeserializeOwned> Decoder for VariantCodec<T> {
    type Item = T;
    type Error = Error;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<T>> {
        let Some(prefix) = src.get(..PREFIX_LEN) else {
            return Ok(None);
        };
        let mut raw = [0u8; PREFIX_LEN];
        raw.copy_from_slice(prefix);
        let len = self.framing.frame_len(raw)?;
        let needed = PREFIX_LEN
            .checked_add(len)
            .ok_or_else(|| Error::from(ErrorKind::LengthOutOfRange(len as i64)))?;
        if src.len() < needed {
            // `len` passed the maximum check above, so this reservation is bounded by it.
            src.reserve(needed - src.len());
            return Ok(None);
        }
        src.advance(PREFIX_LEN);
        let packet = src.split_to(len);
        self.framing.decode_frame(&packet).map(Some)
    }

    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<T>> {
        match self.decode(src)? {
            Some(value) => Ok(Some(value)),
            None if src.is_empty() => Ok(None),
            None => Err(ErrorKind::UnexpectedEof.into()),
        }
    }
}

impl<T, I: Serialize> Encoder<I> for VariantCodec<T> {
    type Error = Error;

    fn encode(&mut self, item: I, dst: &mut BytesMut) -> Result<()> {
        let mut frame = Vec::new();
        self.framing.encode_frame(&mut frame, &item)?;
        dst.extend_from_slice(&frame);
        Ok(())
    }
}
