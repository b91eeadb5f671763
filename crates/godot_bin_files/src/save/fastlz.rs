//! FastLZ, the block codec of compressed files in mode 0 (GDScript's default).
//!
//! The engine bundles FastLZ 0.5.0 and compresses every block (at most 4096 bytes, so
//! always below 64 KiB) with its level 1. The compressor here makes the same choices as
//! that one (same hash of two overlapping 16-bit words, same 8 KiB match window, same
//! handling of runs and of the last bytes), so it gives the engine's bytes exactly; the
//! tests check every block of the engine-made files. The decoder reads both levels, as
//! the engine's does, and turns every bound the C code checks into an error.
//!
//! The stream is a sequence of instructions. An opcode byte below 32 copies `op + 1`
//! literal bytes that follow it. Otherwise its top three bits hold a match length and its
//! low five bits the high bits of a backwards distance: level 1 adds a length byte when
//! the three bits are all set and then the distance's low byte; level 2 extends lengths
//! with a run of 255 bytes and distances beyond 8191 with two more bytes. The first
//! opcode's top three bits (always a literal run) name the level: 0 for 1, 1 for 2.

/// Literal runs are at most this long.
const MAX_COPY: usize = 32;
/// The longest match one level-1 instruction holds.
const MAX_LEN: usize = 264;
/// Level 1 matches reach back less than this.
const MAX_L1_DISTANCE: usize = 8192;
/// Level 2 distances at or beyond this take the two-byte extension.
const MAX_L2_DISTANCE: usize = 8191;
const HASH_LOG: u32 = 13;
const HASH_SIZE: usize = 1 << HASH_LOG;

/// Why a FastLZ block does not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastLzError {
    /// The block is empty, or its first byte names neither level.
    BadLevel,
    /// An instruction reads past the end of the block.
    Truncated,
    /// A match reaches back before the start of the output.
    BadDistance,
    /// The output would grow past the limit the caller set.
    TooLong,
}

impl FastLzError {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            FastLzError::BadLevel => "a FastLZ block that names no known level",
            FastLzError::Truncated => "a FastLZ instruction that runs past its block",
            FastLzError::BadDistance => "a FastLZ match that reaches before the block's start",
            FastLzError::TooLong => "a FastLZ block that expands past its size",
        }
    }
}

/// The hash of the three bytes at `i` (two overlapping little-endian 16-bit words).
fn hash(data: &[u8], i: usize) -> usize {
    let v = u32::from(u16::from_le_bytes([data[i], data[i + 1]]));
    let w = u32::from(u16::from_le_bytes([data[i + 1], data[i + 2]]));
    ((v ^ w ^ (v >> (16 - HASH_LOG))) as usize) & (HASH_SIZE - 1)
}

/// Appends the level-1 compression of `input` to `out`. Inputs of 64 KiB and more are
/// level 2 in the engine; the container never makes blocks that large.
pub(crate) fn compress_level1(input: &[u8], out: &mut Vec<u8>) {
    let length = input.len();
    if length < 4 {
        if length > 0 {
            out.push((length - 1) as u8);
            out.extend_from_slice(input);
        }
        return;
    }
    // Matches are searched while at least 13 bytes remain and extended up to two bytes
    // before the end; the tail is always literal.
    let bound = length - 2;
    let limit = length.saturating_sub(13);
    // Every slot starts at position 0, so the first lookups compare against the start.
    let mut table = vec![0usize; HASH_SIZE];
    let mut copy = 2;
    out.push((MAX_COPY - 1) as u8);
    out.extend_from_slice(&input[..2]);
    let mut ip = 2;

    while ip < limit {
        let anchor = ip;
        let h = hash(input, anchor);
        let candidate = table[h];
        table[h] = anchor;
        let distance = anchor - candidate;
        if distance == 0
            || distance >= MAX_L1_DISTANCE
            || input[candidate..candidate + 3] != input[anchor..anchor + 3]
        {
            out.push(input[anchor]);
            ip = anchor + 1;
            copy += 1;
            if copy == MAX_COPY {
                copy = 0;
                out.push((MAX_COPY - 1) as u8);
            }
            continue;
        }

        // The first three bytes match; extend. `end` stops one past the first byte that
        // differs (or at `bound`), which the bias below takes back.
        let mut end = anchor + 3;
        let mut from = candidate + 3;
        let biased = distance - 1;
        if biased == 0 {
            // A run of one repeated byte.
            let x = input[end - 1];
            while end < bound {
                let b = input[from];
                from += 1;
                if b != x {
                    break;
                }
                end += 1;
            }
        } else {
            let mut differs = false;
            // The first eight comparisons need no bound check: `anchor < limit`.
            for _ in 0..8 {
                let same = input[from] == input[end];
                from += 1;
                end += 1;
                if !same {
                    differs = true;
                    break;
                }
            }
            if !differs {
                while end < bound {
                    let same = input[from] == input[end];
                    from += 1;
                    end += 1;
                    if !same {
                        break;
                    }
                }
            }
        }

        // Close the pending literal run: write its count, or drop its empty opcode.
        if copy > 0 {
            let at = out.len() - copy - 1;
            out[at] = (copy - 1) as u8;
        } else {
            out.pop();
        }
        copy = 0;

        let end = end - 3;
        let mut len = end - anchor; // the match is len + 2 bytes long
        while len > MAX_LEN - 2 {
            out.push(((7 << 5) + (biased >> 8)) as u8);
            out.push((MAX_LEN - 2 - 7 - 2) as u8);
            out.push((biased & 255) as u8);
            len -= MAX_LEN - 2;
        }
        if len < 7 {
            out.push(((len << 5) + (biased >> 8)) as u8);
        } else {
            out.push(((7 << 5) + (biased >> 8)) as u8);
            out.push((len - 7) as u8);
        }
        out.push((biased & 255) as u8);

        // Remember the two positions where the match ends.
        table[hash(input, end)] = end;
        table[hash(input, end + 1)] = end + 1;
        ip = end + 2;
        out.push((MAX_COPY - 1) as u8);
    }

    for &b in &input[ip..] {
        out.push(b);
        copy += 1;
        if copy == MAX_COPY {
            copy = 0;
            out.push((MAX_COPY - 1) as u8);
        }
    }
    if copy > 0 {
        let at = out.len() - copy - 1;
        out[at] = (copy - 1) as u8;
    } else {
        out.pop();
    }
}

/// Appends the decompression of `input` (either level) to `out`, which may grow to at
/// most `max` bytes in all. Memory grows with the bytes produced, never with a claim.
pub(crate) fn decompress(input: &[u8], out: &mut Vec<u8>, max: usize) -> Result<(), FastLzError> {
    let first = *input.first().ok_or(FastLzError::BadLevel)?;
    let level2 = match first >> 5 {
        0 => false,
        1 => true,
        _ => return Err(FastLzError::BadLevel),
    };
    let byte = |at: usize| input.get(at).copied().ok_or(FastLzError::Truncated);
    let mut ctrl = usize::from(first & 31);
    let mut ip = 1;
    loop {
        if ctrl >= 32 {
            let mut len = (ctrl >> 5) - 1;
            let high = (ctrl & 31) << 8;
            if len == 6 {
                if level2 {
                    loop {
                        let code = byte(ip)?;
                        ip += 1;
                        len += usize::from(code);
                        if code != 255 {
                            break;
                        }
                    }
                } else {
                    len += usize::from(byte(ip)?);
                    ip += 1;
                }
            }
            let low = byte(ip)?;
            ip += 1;
            let mut back = high + usize::from(low) + 1;
            if level2 && low == 255 && high == 31 << 8 {
                let far = usize::from(byte(ip)?) << 8 | usize::from(byte(ip + 1)?);
                ip += 2;
                back = far + MAX_L2_DISTANCE + 1;
            }
            len += 3;
            if back > out.len() {
                return Err(FastLzError::BadDistance);
            }
            if out.len() + len > max {
                return Err(FastLzError::TooLong);
            }
            let start = out.len() - back;
            if back >= len {
                out.extend_from_within(start..start + len);
            } else {
                // Overlapping: the match repeats bytes it is itself writing.
                for i in start..start + len {
                    let b = out[i];
                    out.push(b);
                }
            }
        } else {
            let n = ctrl + 1;
            let literals = input.get(ip..ip + n).ok_or(FastLzError::Truncated)?;
            if out.len() + n > max {
                return Err(FastLzError::TooLong);
            }
            out.extend_from_slice(literals);
            ip += n;
        }
        // Level 1 stops with fewer than two bytes left (one byte cannot hold an
        // instruction), level 2 at the very end, as the engine's decoder does.
        let done = if level2 {
            ip >= input.len()
        } else {
            ip + 2 > input.len()
        };
        if done {
            return Ok(());
        }
        ctrl = usize::from(input[ip]);
        ip += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) {
        let mut packed = Vec::new();
        compress_level1(data, &mut packed);
        let mut back = Vec::new();
        if data.is_empty() {
            assert!(packed.is_empty());
            return;
        }
        decompress(&packed, &mut back, data.len()).unwrap();
        assert_eq!(back, data);
    }

    #[test]
    fn round_trips_runs_repeats_and_noise() {
        let mut noise = Vec::new();
        let mut x = 0x1234_5678u32;
        for _ in 0..70_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            noise.push((x >> 24) as u8);
        }
        round_trip(&[]);
        round_trip(&[7]);
        round_trip(&[1, 2, 3]);
        round_trip(&[0; 16]);
        round_trip(&[9; 5000]);
        round_trip(&noise[..4096]);
        round_trip(&noise[..60_000]);
        let text: Vec<u8> = b"the save holds a player, the player holds a sword; "
            .iter()
            .copied()
            .cycle()
            .take(4096)
            .collect();
        round_trip(&text);
        let mut mixed = noise[..1000].to_vec();
        mixed.extend_from_slice(&[0; 700]);
        mixed.extend_from_slice(&noise[..1000]);
        round_trip(&mixed);
    }

    #[test]
    fn decoder_refuses_what_the_engine_bounds_check_refuses() {
        assert_eq!(
            decompress(&[], &mut Vec::new(), 16),
            Err(FastLzError::BadLevel)
        );
        assert_eq!(
            decompress(&[0x40], &mut Vec::new(), 16),
            Err(FastLzError::BadLevel)
        );
        // A literal run of 4 with only 2 bytes.
        assert_eq!(
            decompress(&[3, 1, 2], &mut Vec::new(), 16),
            Err(FastLzError::Truncated)
        );
        // A match with nothing before it.
        assert_eq!(
            decompress(&[0, 1, 0x20, 5], &mut Vec::new(), 16),
            Err(FastLzError::BadDistance)
        );
        // A long match past the limit.
        assert_eq!(
            decompress(&[0, 1, 0xe0, 200, 0], &mut Vec::new(), 16),
            Err(FastLzError::TooLong)
        );
        let mut out = Vec::new();
        decompress(&[0, 1, 0xe0, 200, 0], &mut out, 300).unwrap();
        assert_eq!(out, vec![1; 1 + 6 + 200 + 3]);
    }
}
