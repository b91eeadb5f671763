//! The `RSCC` container of a compressed binary resource: the `GCPF` layout of
//! [`crate::save`] under another magic (see the module docs of [`super`]).
//!
//! Godot 4.4 compresses with the Zstandard this crate links, byte for byte; Godot 3.2.3's
//! older Zstandard makes other (equally valid) blocks. So that an unchanged file is written
//! back as it was read, whoever compressed it, a file read here keeps its compressed
//! blocks, and each block whose content is unchanged is written as it was; only changed
//! blocks are compressed anew.

use crate::error::{Error, Result};
use crate::save::Compression;

const BLOCK: usize = 4096;

/// How a compressed file is compressed, and the blocks it was read with.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Packed {
    pub(crate) mode: Compression,
    /// The content and the compressed blocks of the file as read.
    original: Option<(Vec<u8>, Vec<Vec<u8>>)>,
}

impl Packed {
    pub(crate) fn new(mode: Compression) -> Packed {
        Packed {
            mode,
            original: None,
        }
    }
}

fn word(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The content of an `RSCC` file, and its blocks.
pub(crate) fn unpack(bytes: &[u8]) -> Result<(Vec<u8>, Packed)> {
    let mut file = bytes.to_vec();
    file[..4].copy_from_slice(b"GCPF");
    let content = crate::save::decompress(&file)?;
    let mode = word(bytes, 4)
        .and_then(Compression::from_mode)
        .ok_or_else(|| Error::corrupt("an RSCC file of no known compression mode").at_byte(4))?;
    // The container checked the header and sizes; keep the blocks as they are.
    let block_size = word(bytes, 8).unwrap_or(0) as usize;
    let total = word(bytes, 12).unwrap_or(0) as usize;
    let mut blocks = Vec::new();
    if block_size == BLOCK {
        let count = total / BLOCK + 1;
        let mut at = 16 + 4 * count;
        for i in 0..count {
            let size = word(bytes, 16 + 4 * i).unwrap_or(0) as usize;
            match bytes.get(at..at + size) {
                Some(b) => blocks.push(b.to_vec()),
                None => break,
            }
            at += size;
        }
    }
    let original = (blocks.len() == total / BLOCK + 1).then(|| (content.clone(), blocks));
    Ok((content, Packed { mode, original }))
}

/// The compressed bytes of one block of content.
fn compress_block(block: &[u8], mode: Compression) -> Result<Vec<u8>> {
    let file = crate::save::compress(block, mode)?;
    let size = word(&file, 16).unwrap_or(0) as usize;
    let count = block.len() / BLOCK + 1;
    let at = 16 + 4 * count;
    Ok(file[at..at + size].to_vec())
}

/// An `RSCC` file of `content`.
pub(crate) fn pack(content: &[u8], packed: &Packed) -> Result<Vec<u8>> {
    if content.len() > u32::MAX as usize {
        return Err(Error::unwritable(
            "a compressed file holds at most 4 GiB - 1 bytes of content",
        ));
    }
    let count = content.len() / BLOCK + 1;
    let mut blocks = Vec::with_capacity(count);
    for i in 0..count {
        let block = &content[i * BLOCK..((i + 1) * BLOCK).min(content.len())];
        let kept = packed.original.as_ref().and_then(|(old, old_blocks)| {
            let old_block = old.get(i * BLOCK..((i + 1) * BLOCK).min(old.len()))?;
            (old_block == block).then(|| old_blocks[i].clone())
        });
        blocks.push(match kept {
            Some(b) => b,
            None => compress_block(block, packed.mode)?,
        });
    }
    let mut out =
        Vec::with_capacity(16 + 4 * count + blocks.iter().map(Vec::len).sum::<usize>() + 4);
    out.extend_from_slice(b"RSCC");
    out.extend_from_slice(&packed.mode.mode().to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(content.len() as u32).to_le_bytes());
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out.extend_from_slice(b"RSCC");
    Ok(out)
}
