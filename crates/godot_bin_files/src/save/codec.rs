//! One block of a compressed file, in each of the engine's five modes.
//!
//! Decoding is held to the block's size: the output grows with the bytes the codec really
//! produces, one step past the size is an error, and so is a block that ends short. The
//! engine's decoders get a buffer of the block size and fail on an overrun too (zlib,
//! Zstandard and Brotli do; FastLZ checks its own bound).

use super::fastlz;
use super::format::Compression;
use flate2::{Decompress, FlushCompress, FlushDecompress, Status};
use std::io::Read;

/// The engine's zlib and gzip level (`Z_DEFAULT_COMPRESSION`, which zlib takes as 6).
const DEFLATE_LEVEL: u32 = 6;
/// The engine's Zstandard level (its project setting's default).
const ZSTD_LEVEL: i32 = 3;
/// The largest Zstandard window the engine accepts (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`).
const ZSTD_WINDOW_LOG_MAX: u32 = 27;
/// FastLZ compresses at least this many bytes: the engine pads shorter blocks with zeros.
pub(crate) const FASTLZ_MIN: usize = 16;
/// Output is reserved up to this much ahead; past it, it grows as bytes are produced.
const RESERVE_AHEAD: usize = 4096;

/// Reusable codec state for one mode (zlib and Zstandard contexts are costly to build).
pub(crate) struct BlockCodec {
    mode: Compression,
    inflate: Option<Decompress>,
    deflate: Option<flate2::Compress>,
    zstd_d: Option<zstd::zstd_safe::DCtx<'static>>,
    zstd_c: Option<zstd::bulk::Compressor<'static>>,
}

impl BlockCodec {
    pub(crate) fn new(mode: Compression) -> Self {
        BlockCodec {
            mode,
            inflate: None,
            deflate: None,
            zstd_d: None,
            zstd_c: None,
        }
    }

    /// Decodes `src` into `out` (cleared first), which must come to exactly `expected`
    /// bytes. On failure, says why in words.
    pub(crate) fn decompress(
        &mut self,
        src: &[u8],
        expected: usize,
        out: &mut Vec<u8>,
    ) -> Result<(), String> {
        out.clear();
        out.reserve(expected.min(RESERVE_AHEAD));
        match self.mode {
            Compression::FastLz => {
                // A short block was padded to 16 bytes before compressing.
                let max = expected.max(FASTLZ_MIN);
                fastlz::decompress(src, out, max).map_err(|e| e.describe().to_owned())?;
                if expected < FASTLZ_MIN && out.len() >= expected {
                    out.truncate(expected);
                }
            }
            Compression::Deflate | Compression::Gzip => {
                let gzip = self.mode == Compression::Gzip;
                let d = self.inflate.get_or_insert_with(|| {
                    if gzip {
                        Decompress::new_gzip(15)
                    } else {
                        Decompress::new(true)
                    }
                });
                d.reset(true);
                inflate(d, src, expected, out)?;
            }
            Compression::Zstd => {
                let ctx = match &mut self.zstd_d {
                    Some(ctx) => ctx,
                    None => {
                        let mut ctx = zstd::zstd_safe::DCtx::create();
                        ctx.set_parameter(zstd::zstd_safe::DParameter::WindowLogMax(
                            ZSTD_WINDOW_LOG_MAX,
                        ))
                        .map_err(|_| "cannot set up a Zstandard decoder".to_owned())?;
                        self.zstd_d.insert(ctx)
                    }
                };
                let decoder = zstd::stream::read::Decoder::with_context(src, ctx);
                read_at_most(decoder, expected, out)
                    .map_err(|e| format!("a Zstandard block that does not decode ({e})"))?;
            }
            Compression::Brotli => {
                let decoder = brotli_decompressor::Decompressor::new(src, RESERVE_AHEAD);
                read_at_most(decoder, expected, out)
                    .map_err(|e| format!("a Brotli block that does not decode ({e})"))?;
            }
        }
        match out.len().cmp(&expected) {
            std::cmp::Ordering::Equal => Ok(()),
            std::cmp::Ordering::Greater => Err(format!(
                "a {} block that expands past its {expected} bytes",
                self.mode
            )),
            std::cmp::Ordering::Less => Err(format!(
                "a {} block that decodes to {} bytes, not {expected}",
                self.mode,
                out.len()
            )),
        }
    }

    /// Appends the compression of `src` to `out`, as the engine compresses a block.
    pub(crate) fn compress(&mut self, src: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
        match self.mode {
            Compression::FastLz => {
                if src.len() < FASTLZ_MIN {
                    let mut padded = [0u8; FASTLZ_MIN];
                    padded[..src.len()].copy_from_slice(src);
                    fastlz::compress_level1(&padded, out);
                } else {
                    fastlz::compress_level1(src, out);
                }
            }
            Compression::Deflate | Compression::Gzip => {
                let gzip = self.mode == Compression::Gzip;
                let c = self.deflate.get_or_insert_with(|| {
                    let level = flate2::Compression::new(DEFLATE_LEVEL);
                    if gzip {
                        flate2::Compress::new_gzip(level, 15)
                    } else {
                        flate2::Compress::new(level, true)
                    }
                });
                c.reset();
                let start = c.total_in();
                loop {
                    out.reserve(src.len() / 8 + 64);
                    let done = (c.total_in() - start) as usize;
                    let status = c
                        .compress_vec(&src[done..], out, FlushCompress::Finish)
                        .map_err(|e| format!("zlib failed: {e}"))?;
                    if status == Status::StreamEnd {
                        break;
                    }
                }
            }
            Compression::Zstd => {
                let c = match &mut self.zstd_c {
                    Some(c) => c,
                    None => self.zstd_c.insert(
                        zstd::bulk::Compressor::new(ZSTD_LEVEL)
                            .map_err(|e| format!("cannot set up Zstandard: {e}"))?,
                    ),
                };
                let packed = c
                    .compress(src)
                    .map_err(|e| format!("Zstandard failed: {e}"))?;
                out.extend_from_slice(&packed);
            }
            Compression::Brotli => {
                return Err("the engine only decompresses Brotli; it cannot write it".into())
            }
        }
        Ok(())
    }
}

/// Inflates a zlib or gzip stream that must end within `expected` bytes of output;
/// bytes after the stream's end are ignored, as zlib's `inflate` ignores them.
fn inflate(
    d: &mut Decompress,
    src: &[u8],
    expected: usize,
    out: &mut Vec<u8>,
) -> Result<(), String> {
    loop {
        if out.len() == out.capacity() {
            if out.len() > expected {
                return Ok(()); // the caller reports the overrun
            }
            out.reserve((out.len() + 1).clamp(64, RESERVE_AHEAD));
        }
        let used = d.total_in() as usize;
        let before = out.len();
        let status = d
            .decompress_vec(&src[used.min(src.len())..], out, FlushDecompress::Finish)
            .map_err(|e| format!("a corrupt zlib block ({e})"))?;
        match status {
            Status::StreamEnd => return Ok(()),
            _ if out.len() == before
                && d.total_in() as usize == used
                && out.len() < out.capacity() =>
            {
                return Err("a zlib block that ends before its stream does".into())
            }
            _ => {}
        }
    }
}

/// Reads `reader` to its end into `out`, stopping one byte past `expected`.
fn read_at_most(reader: impl Read, expected: usize, out: &mut Vec<u8>) -> std::io::Result<()> {
    reader.take(expected as u64 + 1).read_to_end(out)?;
    Ok(())
}
