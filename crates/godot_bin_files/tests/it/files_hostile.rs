//! Hostile save files: lengths that lie, blocks that do not add up, truncation anywhere.
//! Every one is a typed error, never a panic, and reading it allocates no more than a
//! small multiple of the file plus a fixed amount for the buffers.

use godot_bin::{Config, Variant};
use godot_bin_files::save::{self as file, Compression, Key, Reader};
use godot_bin_files::{ErrorKind, Position};
use std::io::Read;

use crate::support::alloc::peak_of;

/// What reading a file may allocate: a small multiple of the file, and a fixed amount
/// for the 64 KiB read buffer, one block and the codecs' state.
fn bound(file_len: usize) -> usize {
    8 * file_len + (256 << 10)
}

fn golden(engine: &str, name: &str) -> Vec<u8> {
    let path = crate::support::golden::files_dir().join(engine).join(name);
    std::fs::read(path).unwrap()
}

fn key() -> Key {
    Key::password("s3cret")
}

/// Reads `file` every way there is, checks each is an error of an expected kind, and
/// returns the largest peak allocation among them.
fn refuse(what: &str, file: &[u8], expect: &[fn(&ErrorKind) -> bool]) -> usize {
    let ok = |e: &godot_bin_files::Error| expect.iter().any(|f| f(e.kind()));
    let mut peak = 0;
    peak = peak.max(peak_of(|| {
        let r = match &file[..4] {
            b"GDEC" => file::decrypt(file, &key()),
            _ => file::decompress(file),
        };
        let e = r.expect_err(what);
        assert!(ok(&e), "{what}: slice: {e}");
        if let Some(Position::Byte(at)) = e.position() {
            assert!(at <= file.len(), "{what}: offset {at} past the file");
        }
    }));
    peak = peak.max(peak_of(|| {
        let e = match Reader::with_key(file, &key(), &Config::default()) {
            Err(e) => e,
            Ok(mut r) => r
                .values::<Variant>()
                .find_map(Result::err)
                .unwrap_or_else(|| panic!("{what}: every value read")),
        };
        assert!(ok(&e), "{what}: reader: {e}");
    }));
    assert!(
        peak <= bound(file.len()),
        "{what}: {peak} bytes at peak for a {}-byte file",
        file.len()
    );
    println!("{what:<58} {:>9} bytes, peak {peak:>9}", file.len());
    peak
}

fn corrupt(k: &ErrorKind) -> bool {
    matches!(k, ErrorKind::Corrupt(_))
}
/// The file ends early: in the container, or inside a value's packet.
fn eof(k: &ErrorKind) -> bool {
    matches!(k, ErrorKind::UnexpectedEof)
        || matches!(k, ErrorKind::Variant(e) if matches!(e.kind(), godot_bin::ErrorKind::UnexpectedEof))
}
/// A length that cannot be: a frame's or the container's, or one inside a value's packet.
fn range(k: &ErrorKind) -> bool {
    matches!(k, ErrorKind::LengthOutOfRange(_))
        || matches!(k, ErrorKind::Variant(e) if matches!(e.kind(), godot_bin::ErrorKind::LengthOutOfRange(_)))
}

fn set_u32(file: &mut [u8], at: usize, v: u32) {
    file[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn a_compressed_file_that_claims_4_gib() {
    for name in [
        "g4_multi_fastlz.bin",
        "g4_multi_zstd.bin",
        "g4_multi_deflate.bin",
        "g4_multi_gzip.bin",
    ] {
        // Total 4 GiB - 1 in blocks of 4096: a million size entries that are not there.
        let mut f = golden("godot4", name);
        set_u32(&mut f, 12, u32::MAX);
        refuse(
            &format!("{name}: total 4 GiB, 4096-byte blocks"),
            &f,
            &[eof],
        );
        // Total 4 GiB - 1 in one block of 4 GiB - 1: the one block decodes to 60 bytes.
        set_u32(&mut f, 8, u32::MAX);
        refuse(&format!("{name}: total 4 GiB in one block"), &f, &[corrupt]);
    }
}

#[test]
fn block_sizes_that_do_not_add_up() {
    let base = golden("godot4", "g4_big_deflate.bin");
    let blocks = (240_012 / 4096 + 1) as usize;
    // A size that runs past the end of the file.
    let mut f = base.clone();
    set_u32(&mut f, 16 + 4 * (blocks - 1), 1 << 30);
    refuse("last block's size runs past the file", &f, &[eof]);
    // Sizes shifted by one byte: every later block starts in the wrong place.
    for delta in [1i64, -1] {
        let mut f = base.clone();
        let first = u32::from_le_bytes(f[16..20].try_into().unwrap()) as i64;
        set_u32(&mut f, 16, (first + delta) as u32);
        refuse(
            &format!("first block's size off by {delta}"),
            &f,
            &[corrupt, eof],
        );
    }
    // Block size 0, which the engine refuses; an unknown mode.
    let mut f = base.clone();
    set_u32(&mut f, 8, 0);
    refuse("block size 0", &f, &[corrupt]);
    let mut f = base;
    set_u32(&mut f, 4, 9);
    refuse("compression mode 9", &f, &[corrupt]);
}

#[test]
fn a_block_that_expands_past_its_size() {
    let content: Vec<u8> = (0..8192u32).map(|i| (i * 7 % 251) as u8).collect();
    for mode in [
        Compression::FastLz,
        Compression::Deflate,
        Compression::Zstd,
        Compression::Gzip,
    ] {
        // Blocks of 4096, 4096 and 0 bytes; the header now says 4000 bytes in all, so
        // the one block it expects holds 4000 and the first block makes 4096.
        let mut f = file::compress(&content, mode).unwrap();
        set_u32(&mut f, 12, 4000);
        refuse(
            &format!("{mode}: a 4096-byte block where 4000 belong"),
            &f,
            &[corrupt],
        );
        // And the other way: 4100 bytes expected from the first block's 4096.
        let mut f = file::compress(&content, mode).unwrap();
        set_u32(&mut f, 8, 5000);
        set_u32(&mut f, 12, 4100);
        refuse(
            &format!("{mode}: a 4096-byte block where 4100 belong"),
            &f,
            &[corrupt],
        );
    }
}

#[test]
fn an_encrypted_length_that_runs_past_the_file() {
    for (engine, name, at) in [
        ("godot3", "g3_save_pass.bin", 24),
        ("godot4", "g4_save_pass.bin", 20),
    ] {
        let base = golden(engine, name);
        for length in [base.len() as u64, 1 << 40, u64::MAX - 3] {
            let mut f = base.clone();
            f[at..at + 8].copy_from_slice(&length.to_le_bytes());
            refuse(&format!("{name}: length {length}"), &f, &[corrupt, range]);
        }
    }
}

#[test]
fn truncation_anywhere() {
    let mut cut = 0;
    for (engine, prefix) in [("godot3", "g3"), ("godot4", "g4")] {
        for kind in ["pass", "key", "fastlz", "deflate", "zstd", "gzip"] {
            let f = golden(engine, &format!("{prefix}_save_{kind}.bin"));
            // A compressed file's closing magic is never read, by the engine or here.
            let needed = if f.starts_with(b"GCPF") {
                f.len() - 4
            } else {
                f.len()
            };
            for len in 4..needed {
                refuse_quietly(&f[..len]);
                cut += 1;
            }
            let key = if kind == "key" {
                Key::from_hex("062b50759abfe4092e53789dc2e70c31567ba0c5ea0f34597ea3c8ed12375c81")
                    .unwrap()
            } else {
                key()
            };
            let r = match &f[..4] {
                b"GDEC" => file::decrypt(&f[..needed], &key),
                _ => file::decompress(&f[..needed]),
            };
            assert!(r.is_ok(), "{prefix}_save_{kind}: without its closing magic");
        }
    }
    assert!(cut > 2000, "{cut} cuts");
}

/// `refuse` for the many cuts: no table line.
fn refuse_quietly(file: &[u8]) {
    let peak = peak_of(|| {
        let r = match &file[..4] {
            b"GDEC" => file::decrypt(file, &key()),
            _ => file::decompress(file),
        };
        let e = r.expect_err("a cut file");
        assert!(
            corrupt(e.kind()) || eof(e.kind()),
            "{} bytes: {e}",
            file.len()
        );
        let mut content = Vec::new();
        let streamed = Reader::with_key(file, &key(), &Config::default()).and_then(|mut r| {
            r.read_to_end(&mut content)
                .map_err(|e| ErrorKind::Io(e).into())
        });
        assert!(
            streamed.is_err(),
            "{} bytes: the stream read a cut file",
            file.len()
        );
    });
    assert!(
        peak <= bound(file.len()),
        "{} bytes: peak {peak}",
        file.len()
    );
}

#[test]
fn a_wrong_key_costs_no_more_than_the_file() {
    let f = golden("godot4", "g4_big_pass.bin");
    let peak = peak_of(|| {
        let mut r = Reader::with_key(&f[..], &Key::password("guess"), &Config::default()).unwrap();
        let e = r.read_value::<Variant>().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    });
    // The first "frame" of garbage claims far more than the content: refused before its
    // bytes are read, then the MD5 check runs over the rest in 1 KiB chunks.
    assert!(peak <= bound(0), "peak {peak}");
}

#[test]
fn a_large_compressed_save_streams_in_one_blocks_memory() {
    // 8 MiB of content in 2048 blocks: the reader holds a block, not the file.
    let value = Variant::PackedByteArray(vec![7u8; 1 << 16].into());
    let mut w =
        file::Writer::compressed(Vec::new(), Compression::Zstd, &Config::default()).unwrap();
    for _ in 0..128 {
        w.write_value(&value).unwrap();
    }
    let f = w.finish().unwrap();
    let peak = peak_of(|| {
        let mut r = Reader::new(&f[..], &Config::default()).unwrap();
        let mut n = 0;
        while let Some(v) = r.read_value::<Variant>().unwrap() {
            assert_eq!(v, value);
            n += 1;
        }
        assert_eq!(n, 128);
    });
    // The size table, the read buffer, one block, one 64 KiB frame and its value.
    assert!(
        peak < f.len() + (512 << 10),
        "peak {peak} for {} bytes of content",
        128 << 16
    );
    println!("8 MiB of content from a {}-byte file: peak {peak}", f.len());
}

#[test]
fn fuzz_crash_empty_content_with_a_wrong_md5() {
    // Found by fuzz/file_compressed: a Godot 4 header announcing no content was accepted
    // whatever MD5 it carried, since the check ran only after the last encrypted block.
    // The engine checks the MD5 of the empty content too.
    let good = golden("godot4", "g4_empty_key_iv.bin");
    let key =
        Key::from_hex("062b50759abfe4092e53789dc2e70c31567ba0c5ea0f34597ea3c8ed12375c81").unwrap();
    assert_eq!(file::decrypt(&good, &key).unwrap(), b"");
    let mut bad = good.clone();
    bad[4] ^= 1;
    let e = file::decrypt(&bad, &key).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    let e = Reader::with_key(&bad[..], &key, &Config::default())
        .unwrap()
        .read_value::<Variant>()
        .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::WrongKey), "{e}");
    // The fuzzer's form: an MD5 starting with the word 1, so the Godot 3 layout is tried
    // first (its length runs past the file) and then the Godot 4 one.
    bad[4..8].copy_from_slice(&1u32.to_le_bytes());
    assert!(file::decrypt(&bad, &key).is_err());
    assert!(Reader::with_key(&bad[..], &key, &Config::default())
        .and_then(|mut r| r.read_value::<Variant>())
        .is_err());
}

/// A pascal string's length from the file: past the content a compressed file says it
/// holds, refused before anything is allocated; in a plain file (whose length the reader
/// does not know), read in pieces up to the end and refused there.
#[test]
fn a_pascal_string_longer_than_the_file() {
    use godot_bin_files::save::{Compression, Reader, Writer};
    let cfg = godot_bin::Config::default();
    let mut w = Writer::compressed(Vec::new(), Compression::FastLz, &cfg).unwrap();
    w.store_32(u32::MAX).unwrap();
    w.store_string("short").unwrap();
    let file = w.finish().unwrap();
    let mut r = Reader::new(&file[..], &cfg).unwrap();
    let err = r.get_pascal_string().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(n) if *n == i64::from(u32::MAX)),
        "{err}"
    );

    let mut plain = u32::MAX.to_le_bytes().to_vec();
    plain.extend_from_slice(b"short");
    let mut r = Reader::new(&plain[..], &cfg).unwrap();
    let err = r.get_pascal_string().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
    // Past the end, each typed read is a typed error too.
    let mut r = Reader::new(&[1u8, 2][..], &cfg).unwrap();
    assert_eq!(r.get_8().unwrap(), 1);
    assert!(matches!(
        r.get_32().unwrap_err().kind(),
        ErrorKind::UnexpectedEof
    ));
}

/// A pascal string's text ends at a NUL and loses a leading byte order mark, as both
/// engines read it (Godot 3.2.3 and 4.4.1, probed by the saves' engineer).
#[test]
fn pascal_strings_read_as_the_engines_read_them() {
    use godot_bin_files::save::{Reader, Writer};
    let cfg = godot_bin::Config::default();
    let mut w = Writer::plain(Vec::new(), &cfg);
    w.store_pascal_string("\u{feff}hello\0world").unwrap();
    w.store_line("a\0b").unwrap();
    let file = w.finish().unwrap();
    let mut r = Reader::new(&file[..], &cfg).unwrap();
    assert_eq!(r.get_pascal_string().unwrap(), "hello");
    assert_eq!(r.get_line().unwrap().as_deref(), Some("a"));
    assert_eq!(r.get_line().unwrap().as_deref(), Some("b"));
    assert_eq!(r.get_line().unwrap(), None);
}
