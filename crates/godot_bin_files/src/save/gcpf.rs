//! Compressed files (`FileAccess.open_compressed`, magic `GCPF`).
//!
//! Layout, as the engine's writer makes it and its reader takes it (all words u32
//! little-endian): the magic, the compression mode, the block size (4096 from GDScript),
//! the content's total size, then one compressed size per block and the blocks back to
//! back, and the magic once more at the very end (written, never checked). The content is
//! cut into blocks of the block size and the last block holds the remainder: there are
//! always `total / block_size + 1` blocks, so content that fills its last block exactly
//! is followed by an empty one, which is still compressed (to a few bytes) and stored.

use super::codec::BlockCodec;
use super::format::{corrupt, drain_into, read_exact_at, Compression, MAGIC_GCPF};
use crate::error::{Error, ErrorKind, Result};
use std::io::{Read, Write};

/// The block size the engine always writes.
pub(crate) const ENGINE_BLOCK_SIZE: u32 = 4096;
/// The fixed part of the header: magic, mode, block size, total.
const HEADER_LEN: u64 = 16;

/// The header of a compressed file, after its magic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub(crate) mode: Compression,
    pub(crate) block_size: u32,
    pub(crate) total: u32,
}

impl Header {
    /// Parses the 12 bytes after the magic.
    pub(crate) fn parse(bytes: [u8; 12]) -> Result<Header> {
        let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let mode = Compression::from_mode(word(0))
            .ok_or_else(|| corrupt(format!("unknown compression mode {}", word(0)), 4))?;
        let block_size = word(4);
        if block_size == 0 {
            // Godot 4 refuses it; Godot 3 would divide by zero.
            return Err(corrupt("block size 0".into(), 8));
        }
        Ok(Header {
            mode,
            block_size,
            total: word(8),
        })
    }

    /// How many blocks follow: always one more than the whole blocks.
    pub(crate) fn block_count(&self) -> u64 {
        u64::from(self.total / self.block_size) + 1
    }

    /// The content bytes of block `i`.
    fn block_len(&self, i: u64) -> usize {
        if i + 1 == self.block_count() {
            (self.total % self.block_size) as usize
        } else {
            self.block_size as usize
        }
    }
}

/// Reads the content of a compressed file block by block: memory for the size table, one
/// compressed block and one decompressed block, never the whole content.
pub(crate) struct GcpfReader<R> {
    inner: R,
    header: Header,
    sizes: Vec<u32>,
    next_block: u64,
    /// The file offset of the next compressed block (for error offsets).
    file_offset: u64,
    codec: BlockCodec,
    packed: Vec<u8>,
    block: Vec<u8>,
    pos: usize,
    /// Content bytes handed out so far.
    produced: u64,
}

impl<R: Read> GcpfReader<R> {
    /// Reads the header (after the 4-byte magic, which the caller has read) and the size
    /// table. The table grows as its entries arrive, so a header that claims billions of
    /// blocks in a short file costs no more than the file.
    pub(crate) fn open(mut inner: R) -> Result<Self> {
        let mut head = [0u8; 12];
        read_exact_at(&mut inner, &mut head, 4)?;
        let header = Header::parse(head)?;
        let count = header.block_count();
        let mut sizes = Vec::new();
        let mut entry = [0u8; 4];
        for i in 0..count {
            read_exact_at(&mut inner, &mut entry, HEADER_LEN + 4 * i)?;
            sizes.push(u32::from_le_bytes(entry));
        }
        Ok(GcpfReader {
            inner,
            header,
            sizes,
            next_block: 0,
            file_offset: HEADER_LEN + 4 * count,
            codec: BlockCodec::new(header.mode),
            packed: Vec::new(),
            block: Vec::new(),
            pos: 0,
            produced: 0,
        })
    }

    pub(crate) fn header(&self) -> Header {
        self.header
    }

    /// Content bytes not handed out yet.
    pub(crate) fn remaining(&self) -> u64 {
        u64::from(self.header.total) - self.produced
    }

    /// Loads the next block that holds content; `false` once every block is read.
    fn fill(&mut self) -> Result<bool> {
        while self.pos == self.block.len() {
            let i = self.next_block;
            if i == self.header.block_count() {
                return Ok(false);
            }
            let size = self.sizes[i as usize];
            let at = self.file_offset;
            self.packed.clear();
            let got = (&mut self.inner)
                .take(u64::from(size))
                .read_to_end(&mut self.packed)?;
            if got < size as usize {
                return Err(Error::at_offset(
                    ErrorKind::UnexpectedEof,
                    (at + got as u64) as usize,
                ));
            }
            let expected = self.header.block_len(i);
            self.codec
                .decompress(&self.packed, expected, &mut self.block)
                .map_err(|why| {
                    Error::at_offset(ErrorKind::Corrupt(format!("block {i}: {why}")), at as usize)
                })?;
            self.pos = 0;
            self.next_block += 1;
            self.file_offset += u64::from(size);
        }
        Ok(true)
    }

    /// Copies content into `buf`; 0 at the end of the content.
    pub(crate) fn read_content(&mut self, buf: &mut [u8]) -> Result<usize> {
        if buf.is_empty() || !self.fill()? {
            return Ok(0);
        }
        let n = drain_into(&self.block, &mut self.pos, buf);
        self.produced += n as u64;
        Ok(n)
    }

    /// The rest of the current block, or the next block; `None` at the end.
    pub(crate) fn next_block(&mut self) -> Result<Option<&[u8]>> {
        if !self.fill()? {
            return Ok(None);
        }
        let start = self.pos;
        self.produced += (self.block.len() - start) as u64;
        self.pos = self.block.len();
        Ok(Some(&self.block[start..]))
    }
}

/// Builds a compressed file: blocks are compressed as they fill, and the header, whose
/// size table depends on the total, is written with them at [`finish`](Self::finish).
/// Memory: the compressed blocks so far and one block of content.
pub(crate) struct GcpfWriter {
    mode: Compression,
    block_size: u32,
    codec: BlockCodec,
    block: Vec<u8>,
    sizes: Vec<u32>,
    packed: Vec<u8>,
    total: u64,
}

impl GcpfWriter {
    pub(crate) fn new(mode: Compression) -> Result<Self> {
        Self::with_block_size(mode, ENGINE_BLOCK_SIZE)
    }

    /// Blocks of `block_size` bytes (a file read with another size is written back with
    /// it); the block's memory grows with the content, never on the size's word alone.
    pub(crate) fn with_block_size(mode: Compression, block_size: u32) -> Result<Self> {
        if block_size == 0 {
            return Err(
                ErrorKind::Unsupported("a compressed file with blocks of 0 bytes".into()).into(),
            );
        }
        if mode == Compression::Brotli {
            return Err(ErrorKind::Unsupported(
                "Brotli compression: the engine only decompresses Brotli, so no engine \
                 writes it and this crate does not either"
                    .into(),
            )
            .into());
        }
        Ok(GcpfWriter {
            mode,
            block_size,
            codec: BlockCodec::new(mode),
            block: Vec::with_capacity(block_size.min(ENGINE_BLOCK_SIZE) as usize),
            sizes: Vec::new(),
            packed: Vec::new(),
            total: 0,
        })
    }

    fn flush_block(&mut self) -> Result<()> {
        let before = self.packed.len();
        self.codec
            .compress(&self.block, &mut self.packed)
            .map_err(|why| Error::from(ErrorKind::Unsupported(why)))?;
        self.sizes.push((self.packed.len() - before) as u32);
        self.block.clear();
        Ok(())
    }

    pub(crate) fn write_content(&mut self, mut data: &[u8]) -> Result<()> {
        if self.total + data.len() as u64 > u64::from(u32::MAX) {
            // The header's total is a u32.
            return Err(ErrorKind::Unsupported(
                "a compressed file holds at most 4 GiB - 1 bytes of content".into(),
            )
            .into());
        }
        self.total += data.len() as u64;
        while !data.is_empty() {
            let room = self.block_size as usize - self.block.len();
            let n = room.min(data.len());
            self.block.extend_from_slice(&data[..n]);
            data = &data[n..];
            if self.block.len() == self.block_size as usize {
                self.flush_block()?;
            }
        }
        Ok(())
    }

    /// Compresses the last (possibly empty) block and writes the whole file to `out`.
    pub(crate) fn finish<W: Write>(mut self, mut out: W) -> Result<W> {
        self.flush_block()?;
        let mut head = Vec::with_capacity(16 + 4 * self.sizes.len());
        head.extend_from_slice(MAGIC_GCPF);
        head.extend_from_slice(&self.mode.mode().to_le_bytes());
        head.extend_from_slice(&self.block_size.to_le_bytes());
        head.extend_from_slice(&(self.total as u32).to_le_bytes());
        for size in &self.sizes {
            head.extend_from_slice(&size.to_le_bytes());
        }
        out.write_all(&head)?;
        out.write_all(&self.packed)?;
        out.write_all(MAGIC_GCPF)?;
        Ok(out)
    }
}
