//! Encrypted files (`FileAccess.open_encrypted` / `open_encrypted_with_pass`, magic `GDEC`).
//!
//! Both engines encrypt with AES-256 after zero-padding the content to whole 16-byte
//! blocks, and store the MD5 of the content (unpadded) and its length in front:
//!
//! - Godot 4: magic, MD5 (16), length (u64), the initial vector (16), then the content
//!   in CFB mode with 128-bit feedback. The IV is random unless the game passed one.
//! - Godot 3 (and Godot 2.1 and Pandemonium, whose writers are the same code): magic, a
//!   mode word that is always 1, MD5, length, then the content in ECB mode, block by
//!   block, with no IV.
//!
//! The MD5 is the only check the engine makes, so a wrong key shows only once the whole
//! content is decrypted. Bytes after the padded content are not looked at.

use super::format::{corrupt, drain_into, read_exact_at, Key, Layout, MAGIC_GDEC};
use crate::error::{Error, ErrorKind, Result};
use aes::cipher::{
    BlockDecrypt, BlockDecryptMut, BlockEncrypt, BlockEncryptMut, KeyInit, KeyIvInit,
};
use aes::Aes256;
use md5::{Digest, Md5};
use std::io::{Read, Write};

type CfbDec = cfb_mode::Decryptor<Aes256>;
type CfbEnc = cfb_mode::Encryptor<Aes256>;

const BLOCK: usize = 16;
/// Content is decrypted this many bytes at a time when streaming.
const CHUNK: usize = 64 * BLOCK;

/// What the header says, before any decryption.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Header {
    pub(crate) layout: Layout,
    pub(crate) md5: [u8; 16],
    pub(crate) length: u64,
}

impl Header {
    /// Reads the header after the magic. The word after the magic tells the layouts
    /// apart: 1 in Godot 3 files, the first MD5 bytes in Godot 4 files.
    pub(crate) fn read(mut r: impl Read) -> Result<Header> {
        let mut word = [0u8; 4];
        read_exact_at(&mut r, &mut word, 4)?;
        let godot3 = u32::from_le_bytes(word) == 1;
        let mut len = [0u8; 8];
        if godot3 {
            let mut md5 = [0u8; 16];
            read_exact_at(&mut r, &mut md5, 8)?;
            read_exact_at(&mut r, &mut len, 24)?;
            Ok(Header {
                layout: Layout::Godot3,
                md5,
                length: u64::from_le_bytes(len),
            })
        } else {
            Header::read_godot4_after(word, r)
        }
    }

    /// Reads a Godot 4 header whose magic is absent: the layout of a pack's encrypted
    /// files and directory (MD5, length, IV), which has no mode word to tell layouts by.
    pub(crate) fn read_godot4(mut r: impl Read) -> Result<Header> {
        let mut word = [0u8; 4];
        read_exact_at(&mut r, &mut word, 4)?;
        Header::read_godot4_after(word, r)
    }

    fn read_godot4_after(word: [u8; 4], mut r: impl Read) -> Result<Header> {
        let mut md5 = [0u8; 16];
        let mut len = [0u8; 8];
        md5[..4].copy_from_slice(&word);
        read_exact_at(&mut r, &mut md5[4..], 8)?;
        read_exact_at(&mut r, &mut len, 20)?;
        let mut iv = [0u8; 16];
        read_exact_at(&mut r, &mut iv, 28)?;
        Ok(Header {
            layout: Layout::Godot4 { iv },
            md5,
            length: u64::from_le_bytes(len),
        })
    }

    /// The header as the Godot 4 layout would read the same bytes (for the one file in
    /// four billion whose MD5 starts with the word 1).
    fn as_godot4(bytes: &[u8]) -> Option<Header> {
        let head = bytes.get(4..44)?;
        Some(Header {
            layout: Layout::Godot4 {
                iv: head[24..40].try_into().ok()?,
            },
            md5: head[..16].try_into().ok()?,
            length: u64::from_le_bytes(head[16..24].try_into().ok()?),
        })
    }

    /// The encrypted bytes that follow: the length rounded up to whole blocks.
    pub(crate) fn padded_len(&self) -> Option<u64> {
        self.length
            .checked_add(BLOCK as u64 - 1)
            .map(|n| n / BLOCK as u64 * BLOCK as u64)
    }
}

/// The cipher state of one file, in either layout.
enum Cipher {
    Ecb(Box<Aes256>),
    Cfb(Box<CfbDec>),
}

impl Cipher {
    fn new(key: &Key, layout: Layout) -> Cipher {
        match layout {
            Layout::Godot3 => Cipher::Ecb(Box::new(Aes256::new(key.as_bytes().into()))),
            Layout::Godot4 { iv } => {
                Cipher::Cfb(Box::new(CfbDec::new(key.as_bytes().into(), (&iv).into())))
            }
        }
    }

    /// Decrypts whole blocks in place.
    fn decrypt(&mut self, data: &mut [u8]) {
        debug_assert_eq!(data.len() % BLOCK, 0);
        for block in data.chunks_exact_mut(BLOCK) {
            let block = aes::Block::from_mut_slice(block);
            match self {
                Cipher::Ecb(aes) => aes.decrypt_block(block),
                Cipher::Cfb(cfb) => cfb.decrypt_block_mut(block),
            }
        }
    }
}

/// Decrypts an encrypted file as it is read. The MD5 is checked when the last block is
/// decrypted, before its bytes are handed out: a reader that reaches the end of the
/// content has seen only verified bytes at the end, and a wrong key surfaces as
/// [`ErrorKind::WrongKey`] at the latest there. [`verify`](Self::verify) checks earlier.
pub(crate) struct GdecReader<R> {
    inner: R,
    header: Header,
    cipher: Cipher,
    hasher: Md5,
    /// Decrypted content not handed out yet (`buf[pos..]`).
    buf: Vec<u8>,
    pos: usize,
    /// Encrypted bytes still to read from `inner`.
    left: u64,
    /// Content bytes still to hash (the padding is not hashed).
    unhashed: u64,
    produced: u64,
    verified: bool,
    /// The MD5 did not match: every later read says so again.
    wrong_key: bool,
}

impl<R: Read> GdecReader<R> {
    /// Reads the header (after the magic, which the caller has read).
    pub(crate) fn open(mut inner: R, key: &Key) -> Result<Self> {
        let header = Header::read(&mut inner)?;
        Self::with_header(inner, key, header)
    }

    /// Opens a Godot 4 block without its magic (a pack's encrypted file or directory),
    /// reading its header from `inner`.
    pub(crate) fn open_headless(mut inner: R, key: &Key) -> Result<Self> {
        let header = Header::read_godot4(&mut inner)?;
        Self::with_header(inner, key, header)
    }

    pub(crate) fn with_header(inner: R, key: &Key, header: Header) -> Result<Self> {
        let padded = header.padded_len().ok_or_else(|| length_error(&header))?;
        Ok(GdecReader {
            inner,
            cipher: Cipher::new(key, header.layout),
            hasher: Md5::new(),
            buf: Vec::new(),
            pos: 0,
            left: padded,
            unhashed: header.length,
            produced: 0,
            verified: false,
            wrong_key: false,
            header,
        })
    }

    pub(crate) fn layout(&self) -> Layout {
        self.header.layout
    }

    pub(crate) fn content_len(&self) -> u64 {
        self.header.length
    }

    /// Content bytes not handed out yet.
    pub(crate) fn remaining(&self) -> u64 {
        self.header.length - self.produced
    }

    /// Decrypts the next chunk; `false` at the end of the content.
    fn fill(&mut self) -> Result<bool> {
        if self.wrong_key {
            return Err(ErrorKind::WrongKey.into());
        }
        if self.pos < self.buf.len() {
            return Ok(true);
        }
        if self.left == 0 {
            // Empty content has an MD5 too, which must match.
            self.check_md5()?;
            return Ok(false);
        }
        let n = (self.left as usize).min(CHUNK);
        self.buf.clear();
        self.buf.resize(n, 0);
        let at = self.header.layout.header_len() + (self.produced_padded());
        read_exact_at(&mut self.inner, &mut self.buf, at).map_err(|e| {
            match e.kind() {
                // Tell truncation apart from a bad key: the engine calls both corrupt.
                ErrorKind::UnexpectedEof => Error::at_offset(
                    ErrorKind::Corrupt(format!(
                        "the header announces {} bytes of content but the file ends first",
                        self.header.length
                    )),
                    match e.position() {
                        Some(godot_bin::Position::Byte(at)) => at,
                        _ => 0,
                    },
                ),
                _ => e,
            }
        })?;
        self.left -= n as u64;
        self.cipher.decrypt(&mut self.buf);
        let content = (self.unhashed as usize).min(n);
        self.hasher.update(&self.buf[..content]);
        self.unhashed -= content as u64;
        self.buf.truncate(content);
        self.pos = 0;
        if self.left == 0 {
            self.check_md5()?;
        }
        Ok(!self.buf.is_empty())
    }

    /// Compares the MD5 of the content with the header's, once all of it is decrypted.
    fn check_md5(&mut self) -> Result<()> {
        if self.verified {
            return Ok(());
        }
        let digest: [u8; 16] = self.hasher.finalize_reset().into();
        if digest != self.header.md5 {
            self.buf.clear();
            self.wrong_key = true;
            return Err(ErrorKind::WrongKey.into());
        }
        self.verified = true;
        Ok(())
    }

    fn produced_padded(&self) -> u64 {
        self.header.padded_len().unwrap_or(0) - self.left
    }

    pub(crate) fn read_content(&mut self, out: &mut [u8]) -> Result<usize> {
        if out.is_empty() || !self.fill()? {
            return Ok(0);
        }
        let n = drain_into(&self.buf, &mut self.pos, out);
        self.produced += n as u64;
        Ok(n)
    }

    /// Decrypts the rest of the file to check the key, handing nothing out.
    pub(crate) fn verify(&mut self) -> Result<()> {
        while !self.verified {
            self.pos = self.buf.len();
            if !self.fill()? {
                break;
            }
        }
        Ok(())
    }
}

fn length_error(header: &Header) -> Error {
    let at = match header.layout {
        Layout::Godot3 => 24,
        Layout::Godot4 { .. } => 20,
    };
    Error::at_offset(
        ErrorKind::LengthOutOfRange(i64::try_from(header.length).unwrap_or(i64::MAX)),
        at,
    )
}

/// Decrypts a whole file held in memory. The length is checked against the file before
/// anything is allocated.
pub(crate) fn decrypt(file: &[u8], key: &Key) -> Result<Vec<u8>> {
    if file.get(..4) != Some(MAGIC_GDEC) {
        return Err(corrupt("no GDEC magic: not an encrypted file".into(), 0));
    }
    let header = Header::read(&file[4..])?;
    match decrypt_with(file, key, header) {
        Err(e) if header.layout == Layout::Godot3 => {
            // The word 1 may have been the start of a Godot 4 file's MD5.
            match Header::as_godot4(file).map(|h| decrypt_with(file, key, h)) {
                Some(Ok(content)) => Ok(content),
                _ => Err(e),
            }
        }
        other => other,
    }
}

fn decrypt_with(file: &[u8], key: &Key, header: Header) -> Result<Vec<u8>> {
    let start = header.layout.header_len();
    let padded = header.padded_len().ok_or_else(|| length_error(&header))?;
    let available = file.len() as u64 - start.min(file.len() as u64);
    if padded > available {
        return Err(Error::at_offset(
            ErrorKind::Corrupt(format!(
                "the header announces {} bytes of content but only {available} encrypted \
                 bytes follow",
                header.length
            )),
            file.len(),
        ));
    }
    let mut reader = GdecReader::with_header(&file[start as usize..], key, header)?;
    let mut content = vec![0u8; header.length as usize];
    let mut got = 0;
    while got < content.len() {
        let n = reader.read_content(&mut content[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    reader.verify()?;
    Ok(content)
}

/// Builds an encrypted file: content is encrypted as whole blocks arrive and the MD5
/// kept running; the header, which carries both, is written at [`finish`](Self::finish).
pub(crate) struct GdecWriter {
    layout: Layout,
    ecb: Option<Box<Aes256>>,
    cfb: Option<Box<CfbEnc>>,
    hasher: Md5,
    length: u64,
    /// Encrypted blocks, then a partial block of plain content at `tail..`.
    data: Vec<u8>,
    tail: usize,
}

impl GdecWriter {
    pub(crate) fn new(key: &Key, layout: Layout) -> GdecWriter {
        let (ecb, cfb) = match layout {
            Layout::Godot3 => (Some(Box::new(Aes256::new(key.as_bytes().into()))), None),
            Layout::Godot4 { iv } => (
                None,
                Some(Box::new(CfbEnc::new(key.as_bytes().into(), (&iv).into()))),
            ),
        };
        GdecWriter {
            layout,
            ecb,
            cfb,
            hasher: Md5::new(),
            length: 0,
            data: Vec::new(),
            tail: 0,
        }
    }

    fn encrypt_whole_blocks(&mut self) {
        let whole = (self.data.len() - self.tail) / BLOCK * BLOCK;
        let end = self.tail + whole;
        for block in self.data[self.tail..end].chunks_exact_mut(BLOCK) {
            let block = aes::Block::from_mut_slice(block);
            if let Some(aes) = &self.ecb {
                aes.encrypt_block(block);
            } else if let Some(cfb) = &mut self.cfb {
                cfb.encrypt_block_mut(block);
            }
        }
        self.tail = end;
    }

    pub(crate) fn write_content(&mut self, data: &[u8]) {
        self.hasher.update(data);
        self.length += data.len() as u64;
        self.data.extend_from_slice(data);
        self.encrypt_whole_blocks();
    }

    /// Pads the last block with zeros, encrypts it and writes the file to `out`.
    pub(crate) fn finish<W: Write>(self, out: W) -> Result<W> {
        self.finish_as(out, true)
    }

    /// As [`finish`](Self::finish) without the magic: a pack's encrypted file or
    /// directory (Godot 4 layout only).
    pub(crate) fn finish_headless<W: Write>(self, out: W) -> Result<W> {
        debug_assert!(self.layout != Layout::Godot3);
        self.finish_as(out, false)
    }

    fn finish_as<W: Write>(mut self, mut out: W, magic: bool) -> Result<W> {
        let partial = self.data.len() - self.tail;
        if partial > 0 {
            self.data.resize(self.tail + BLOCK, 0);
            self.encrypt_whole_blocks();
        }
        let digest: [u8; 16] = self.hasher.finalize().into();
        let mut head = Vec::with_capacity(44);
        if magic {
            head.extend_from_slice(MAGIC_GDEC);
        }
        if self.layout == Layout::Godot3 {
            head.extend_from_slice(&1u32.to_le_bytes());
        }
        head.extend_from_slice(&digest);
        head.extend_from_slice(&self.length.to_le_bytes());
        if let Layout::Godot4 { iv } = self.layout {
            head.extend_from_slice(&iv);
        }
        out.write_all(&head)?;
        out.write_all(&self.data)?;
        Ok(out)
    }
}
