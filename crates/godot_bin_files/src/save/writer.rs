//! Writing `store_var` values into a save of any kind.

use super::format::{layout_for, random_iv, Compression, Container, Key, Layout};
use super::gcpf::GcpfWriter;
use super::gdec::GdecWriter;
use super::reader::Reader;
use crate::error::{Error, ErrorKind, Result};
use godot_bin::framing::{Framing, ENGINE_MAX_FRAME_LEN};
use godot_bin::Config;
use godot_bin::Dialect;
use serde::Serialize;
use std::io::{self, Write};

enum Sink {
    Plain,
    Encrypted(Box<GdecWriter>),
    Compressed(Box<GcpfWriter>),
}

/// Writes `store_var` values into a save, plain, encrypted or compressed, as the engine's
/// `FileAccess` does: [`finish`](Self::finish) completes the file and hands back the
/// output. Dropping a `Writer` without finishing it leaves an encrypted or compressed
/// file unwritten.
///
/// A plain save goes straight to the output. An encrypted or compressed one is kept in
/// memory until `finish` (its header, written first, holds the content's MD5 or the size
/// of every block); as the engine does, but already encrypted or compressed block by
/// block, so a compressed save costs about its compressed size.
///
/// ```
/// use godot_bin_files::save::{self as file, Compression, Writer};
/// use godot_bin::{Config, Vector2};
///
/// let cfg = Config::default();
/// let mut writer = Writer::compressed(Vec::new(), Compression::Deflate, &cfg)?;
/// writer.write_value(&Vector2::new(4.0, 5.0))?;
/// let saved = writer.finish()?;
/// assert_eq!(&saved[..4], b"GCPF");
/// let content = file::decompress(&saved)?;
/// let framing = godot_bin::framing::Framing::new(cfg);
/// assert_eq!(framing.read(&content[..])?, Some(Vector2::new(4.0, 5.0)));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
pub struct Writer<W: Write> {
    out: W,
    sink: Sink,
    framing: Framing,
    frame: Vec<u8>,
}

impl<W: Write> Writer<W> {
    fn with_sink(out: W, sink: Sink, cfg: &Config) -> Self {
        Writer {
            out,
            sink,
            framing: Framing::new(cfg.clone()).max_frame_len(ENGINE_MAX_FRAME_LEN),
            frame: Vec::new(),
        }
    }

    /// A plain save (`FileAccess.open(path, WRITE)`).
    pub fn plain(out: W, cfg: &Config) -> Self {
        Self::with_sink(out, Sink::Plain, cfg)
    }

    /// An encrypted save in the layout of `cfg`'s engine (`open_encrypted_with_pass` with
    /// [`Key::password`], `open_encrypted` with [`Key::bytes`]): for Godot 4, with a fresh
    /// random initial vector; for the others, the Godot 3 layout (see
    /// [`encrypt`](super::encrypt)).
    pub fn encrypted(out: W, key: &Key, cfg: &Config) -> Result<Self> {
        let iv = if cfg.dialect() == Dialect::Godot4 {
            random_iv()?
        } else {
            [0; 16]
        };
        let layout = layout_for(cfg.dialect(), iv);
        Ok(Self::encrypted_layout(out, key, layout, cfg))
    }

    /// An encrypted save in the Godot 4 layout with the initial vector `iv`, as Godot 4's
    /// `open_encrypted(path, WRITE, key, iv)`.
    pub fn encrypted_with_iv(out: W, key: &Key, iv: [u8; 16], cfg: &Config) -> Self {
        Self::encrypted_layout(out, key, Layout::Godot4 { iv }, cfg)
    }

    pub(crate) fn encrypted_layout(out: W, key: &Key, layout: Layout, cfg: &Config) -> Self {
        let sink = Sink::Encrypted(Box::new(GdecWriter::new(key, layout)));
        Self::with_sink(out, sink, cfg)
    }

    /// A compressed save (`open_compressed(path, WRITE, mode)`), in blocks of 4096 bytes.
    /// [`Compression::Brotli`] is [`ErrorKind::Unsupported`](crate::error::ErrorKind::Unsupported).
    pub fn compressed(out: W, compression: Compression, cfg: &Config) -> Result<Self> {
        let sink = Sink::Compressed(Box::new(GcpfWriter::new(compression)?));
        Ok(Self::with_sink(out, sink, cfg))
    }

    /// A writer for the file `reader` read, in its form: the same container (plain; the
    /// same encrypted layout, Godot 3's ECB or Godot 4's CFB with a fresh initial vector,
    /// as the engine draws one per write; the same compression mode and block size), the
    /// same [`Config`] (the dialect the reader settled on: a Godot 3 encrypted save is
    /// written back as Godot 3) and the same framing (endianness). `key` is the key the
    /// file was opened with; an encrypted file without one is
    /// [`ErrorKind::KeyRequired`](crate::error::ErrorKind::KeyRequired). Writing another
    /// engine's form is asked for with [`plain`](Self::plain),
    /// [`encrypted`](Self::encrypted) or [`compressed`](Self::compressed).
    ///
    /// ```
    /// use godot_bin_files::save::{Key, Reader, Writer};
    /// use godot_bin::{Config, Dialect, Dictionary, Variant};
    ///
    /// // A Godot 3 save (`File.open_encrypted_with_pass`), as a game wrote it.
    /// let key = Key::password("pw");
    /// let mut save = Dictionary::new();
    /// save.insert("level", 7);
    /// let mut w = Writer::encrypted(Vec::new(), &key, &Config::new(Dialect::Godot3))?;
    /// w.write_value(&save)?;
    /// let file = w.finish()?;
    ///
    /// // Read it, change it, write it back in its own form.
    /// let mut reader = Reader::with_key(&file[..], &key, &Config::default())?;
    /// let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
    /// values[0]["level"] = Variant::Int(8);
    /// let mut writer = Writer::like(&reader, Vec::new(), Some(&key))?;
    /// for v in &values {
    ///     writer.write_value(v)?;
    /// }
    /// let again = writer.finish()?;
    /// assert_eq!(again.len(), file.len());
    /// let mut check = Reader::with_key(&again[..], &key, &Config::default())?;
    /// assert_eq!(check.container(), reader.container());
    /// assert_eq!(check.config().dialect(), Dialect::Godot3);
    /// assert_eq!(check.read_value::<Variant>()?.unwrap()["level"], Variant::Int(8));
    /// # Ok::<(), godot_bin_files::Error>(())
    /// ```
    pub fn like<R: std::io::Read>(reader: &Reader<R>, out: W, key: Option<&Key>) -> Result<Self> {
        let cfg = reader.config();
        let writer = match reader.container() {
            Container::Plain => Self::plain(out, cfg),
            Container::Encrypted { layout, .. } => {
                let key = key.ok_or_else(|| Error::new(ErrorKind::KeyRequired))?;
                let layout = match layout {
                    Layout::Godot3 => Layout::Godot3,
                    Layout::Godot4 { .. } => Layout::Godot4 { iv: random_iv()? },
                };
                Self::encrypted_layout(out, key, layout, cfg)
            }
            Container::Compressed {
                compression,
                block_size,
                ..
            } => {
                let sink = Sink::Compressed(Box::new(GcpfWriter::with_block_size(
                    *compression,
                    *block_size,
                )?));
                Self::with_sink(out, sink, cfg)
            }
        };
        Ok(writer.framing(reader.framing_used().clone()))
    }

    /// Frames with these options instead of the default (the [`Config`] given when
    /// creating the writer, little-endian prefixes, frames up to
    /// [`ENGINE_MAX_FRAME_LEN`]). The framing's own [`Config`] encodes the packets from
    /// then on.
    pub fn framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    /// Whether numbers and length prefixes are big-endian (the game's `big_endian`).
    pub(super) fn is_big_endian(&self) -> bool {
        self.framing.is_big_endian()
    }

    /// Writes one value as `store_var` does: a length prefix, then the packet.
    pub fn write_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let mut frame = std::mem::take(&mut self.frame);
        frame.clear();
        let result = self
            .framing
            .encode_frame(&mut frame, value)
            .map_err(crate::error::Error::from)
            .and_then(|()| self.write_bytes(&frame));
        self.frame = frame;
        result
    }

    /// Writes raw content, as `store_buffer` does.
    pub fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        match &mut self.sink {
            Sink::Plain => self.out.write_all(bytes)?,
            Sink::Encrypted(w) => w.write_content(bytes),
            Sink::Compressed(w) => w.write_content(bytes)?,
        }
        Ok(())
    }

    /// Completes the file (header, last block, padding) and hands back the output.
    pub fn finish(self) -> Result<W> {
        let mut out = match self.sink {
            Sink::Plain => self.out,
            Sink::Encrypted(w) => w.finish(self.out)?,
            Sink::Compressed(w) => w.finish(self.out)?,
        };
        out.flush()?;
        Ok(out)
    }
}

impl Writer<Vec<u8>> {
    /// Completes the file and writes it to `path` through a temporary file beside it,
    /// renamed over the target once whole: a failure leaves the old save as it was.
    pub fn save(self, path: impl AsRef<std::path::Path>) -> Result<()> {
        let path = path.as_ref();
        let bytes = self.finish().map_err(|e| e.in_file(path))?;
        crate::fsio::write_atomic(path, &bytes)
    }
}

impl<W: Write> Write for Writer<W> {
    /// Raw content, as [`write_bytes`](Writer::write_bytes).
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_bytes(buf).map_err(io::Error::other)?;
        Ok(buf.len())
    }

    /// Flushes a plain save's output; encrypted and compressed ones are written at
    /// [`finish`](Writer::finish).
    fn flush(&mut self) -> io::Result<()> {
        match self.sink {
            Sink::Plain => self.out.flush(),
            _ => Ok(()),
        }
    }
}
