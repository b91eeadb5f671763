//! Hostile packs: counts, offsets and sizes that lie, cuts and flipped bytes anywhere,
//! paths that climb out of the extraction folder. Each is a typed error or a pack that
//! reads; nothing panics, nothing is read past the end, and memory stays within a small
//! multiple of the file whatever its numbers claim.

use crate::support::alloc::peak_of;
use godot_bin_files::pack::{Pack, PackWriter};
use godot_bin_files::save::Key;
use godot_bin_files::{ErrorKind, Position};
use std::io::{Cursor, Read};

fn zero() -> Key {
    Key::bytes([0; 32])
}

/// What opening and reading every file of a pack may allocate.
fn bound(len: usize) -> usize {
    8 * len + (256 << 10)
}

fn sample(engine: &str, encrypted: bool) -> Vec<u8> {
    let mut w = PackWriter::for_engine(engine)
        .unwrap()
        .key(zero())
        .encrypt_files(encrypted);
    w.encrypt_directory(encrypted);
    w.add("res://a.txt", b"alpha".to_vec());
    w.add("res://dir/b.bin", vec![7; 300]);
    w.add("res://c", Vec::new());
    w.to_bytes().unwrap()
}

/// Opens `bytes` and reads every file; returns the errors seen. Panics (the test fails)
/// on an error offset past the file or a file read to another length than its entry's.
fn read_everything(bytes: &[u8]) -> Vec<godot_bin_files::Error> {
    let mut errors = Vec::new();
    let check = |e: &godot_bin_files::Error| {
        if let Some(Position::Byte(at)) = e.position() {
            assert!(at <= bytes.len(), "offset {at} past the file: {e}");
        }
    };
    match Pack::from_reader(Cursor::new(bytes), Some(&zero())) {
        Err(e) => {
            check(&e);
            errors.push(e);
        }
        Ok(mut pack) => {
            for e in pack.entries().to_vec() {
                match pack.entry_reader(&e).and_then(|mut r| {
                    let mut out = Vec::new();
                    r.read_to_end(&mut out)?;
                    Ok(out)
                }) {
                    Ok(out) => assert_eq!(out.len() as u64, e.size(), "{}", e.path()),
                    Err(err) => {
                        check(&err);
                        errors.push(err);
                    }
                }
            }
            let mut out = Vec::new();
            pack.write_to(&mut out).unwrap();
            if !pack.header().dir_encrypted() {
                assert_eq!(out, bytes, "a pack that opens writes back");
            }
        }
    }
    errors
}

#[test]
fn every_cut_and_every_flipped_byte_is_an_error_or_a_pack() {
    for engine in ["3.2.3", "4.4.1", "4.5", "4.7"] {
        for encrypted in [false, true] {
            if encrypted && engine.starts_with('3') {
                continue;
            }
            let good = sample(engine, encrypted);
            assert!(read_everything(&good).is_empty(), "{engine}");
            for cut in 0..good.len() {
                let bytes = &good[..cut];
                let peak = peak_of(|| read_everything(bytes));
                assert!(peak <= bound(cut), "{engine} cut at {cut}: {peak} bytes");
            }
            for at in 0..good.len() {
                for bit in [0, 7] {
                    let mut bytes = good.clone();
                    bytes[at] ^= 1 << bit;
                    let peak = peak_of(|| read_everything(&bytes));
                    assert!(peak <= bound(bytes.len()), "{engine} flip {at}: {peak}");
                }
            }
        }
    }
}

#[test]
fn a_cut_encrypted_pack_is_damage_not_a_wrong_key() {
    let good = sample("4.4.1", true);
    let pack = Pack::from_reader(Cursor::new(&good), Some(&zero())).unwrap();
    let (_, dir_end) = pack.directory_span();
    // Cut inside the encrypted directory: corrupt or short, never "wrong key".
    for cut in pack.directory_span().0 as usize + 4..dir_end as usize {
        let err = Pack::from_reader(Cursor::new(&good[..cut]), Some(&zero())).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Corrupt(_) | ErrorKind::UnexpectedEof),
            "cut at {cut}: {err}"
        );
    }
    // Cut inside the last file's encrypted block.
    let last = pack.entries()[1].clone();
    let cut = (last.position() + last.stored_len() - 1) as usize;
    let mut pack = Pack::from_reader(Cursor::new(&good[..cut]), Some(&zero())).unwrap();
    let err = pack.read("res://dir/b.bin").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{err}");
    // One flipped bit of the content under the right key: the MD5 fails (as the engine
    // can tell no better, it is reported as a wrong key).
    let mut flipped = good.clone();
    flipped[(last.position() + 50) as usize] ^= 1;
    let mut pack = Pack::from_reader(Cursor::new(&flipped), Some(&zero())).unwrap();
    let err = pack.read("res://dir/b.bin").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::WrongKey), "{err}");
}

/// A version 2 pack's directory by hand: `entries` as (path, offset, size).
fn handmade(count: u32, entries: &[(&[u8], u64, u64)], tail: &[u8]) -> Vec<u8> {
    let mut b = b"GDPC".to_vec();
    for w in [2u32, 4, 4, 1, 0] {
        b.extend_from_slice(&w.to_le_bytes());
    }
    b.extend_from_slice(&0u64.to_le_bytes()); // file base: the file's start
    b.extend_from_slice(&[0; 64]);
    b.extend_from_slice(&count.to_le_bytes());
    for (path, offset, size) in entries {
        b.extend_from_slice(&(path.len() as u32).to_le_bytes());
        b.extend_from_slice(path);
        b.extend_from_slice(&offset.to_le_bytes());
        b.extend_from_slice(&size.to_le_bytes());
        b.extend_from_slice(&[0; 16]);
        b.extend_from_slice(&0u32.to_le_bytes());
    }
    b.extend_from_slice(tail);
    b
}

#[test]
fn numbers_that_lie_are_refused_before_anything_is_allocated_on_them() {
    // A directory of four billion files in a file of a hundred bytes.
    let bytes = handmade(u32::MAX, &[], &[]);
    let peak = peak_of(|| {
        let err = Pack::from_reader(Cursor::new(&bytes), None).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Corrupt(m) if m.contains("4294967295 files")));
    });
    assert!(peak < 64 << 10, "{peak}");
    // A path of 4 GiB.
    let mut bytes = handmade(1, &[], &[]);
    bytes.extend_from_slice(&u32::MAX.to_le_bytes());
    bytes.extend_from_slice(&[0; 40]);
    let peak = peak_of(|| {
        let err = Pack::from_reader(Cursor::new(&bytes), None).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Corrupt(m) if m.contains("path")),
            "{err}"
        );
    });
    assert!(peak < 64 << 10, "{peak}");
    // A file of 2^64 - 1 bytes, one at offset 2^64 - 1, one past the end: listed, and
    // reading them is corrupt, with nothing allocated on their word.
    let bytes = handmade(
        3,
        &[
            (b"res://huge", 0, u64::MAX),
            (b"res://far", u64::MAX, 1),
            (b"res://past", 100, 500),
        ],
        b"some data",
    );
    let mut pack = Pack::from_reader(Cursor::new(&bytes), None).unwrap();
    assert_eq!(pack.entries().len(), 3);
    for p in ["res://huge", "res://far", "res://past"] {
        let peak = peak_of(|| {
            let err = pack.read(p).unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{p}: {err}");
        });
        assert!(peak < 64 << 10, "{p}: {peak}");
    }
    // A directory offset outside the pack (version 3).
    let mut v3 = sample("4.5", false);
    v3[32..40].copy_from_slice(&u64::MAX.to_le_bytes());
    let err = Pack::from_reader(Cursor::new(&v3), None).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Corrupt(m) if m.contains("directory offset")));
    // An executable's trailer that claims a pack longer than the file.
    let mut exe = b"MZ not a pack".to_vec();
    exe.extend_from_slice(&u64::MAX.to_le_bytes());
    exe.extend_from_slice(b"GDPC");
    let err = Pack::from_reader(Cursor::new(&exe), None).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Corrupt(_)), "{err}");
    // A future format.
    let mut v9 = sample("4.7", false);
    v9[4] = 9;
    let err = Pack::from_reader(Cursor::new(&v9), None).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
}

#[test]
fn extraction_never_writes_outside_its_folder() {
    let base = std::env::temp_dir().join(format!("godot_bin_pack_evil_{}", std::process::id()));
    for evil in [
        &b"res://../escaped.txt"[..],
        b"res://a/../../escaped.txt",
        b"/tmp/escaped.txt",
        b"res:///tmp/escaped.txt",
        b"C:/escaped.txt",
        b"res://C:\\escaped.txt",
        b"res://a\\..\\..\\escaped.txt",
        b"user://escaped.txt",
    ] {
        let bytes = handmade(2, &[(b"res://fine.txt", 0, 4), (evil, 0, 4)], b"");
        let mut pack = Pack::from_reader(Cursor::new(&bytes), None).unwrap();
        let target = base.join("out");
        let err = pack.extract_all(&target).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnsafePath(_)),
            "{evil:?}: {err}"
        );
        // Checked before anything is written: not even the safe file.
        assert!(!target.exists(), "{evil:?}");
        assert!(!base.join("escaped.txt").exists(), "{evil:?}");
    }
    std::fs::remove_dir_all(&base).ok();
}

#[test]
fn listing_reading_and_extracting_take_memory_independent_of_the_packs_size() {
    let dir = std::env::temp_dir().join(format!("godot_bin_pack_memory_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for encrypted in [false, true] {
        let path = dir.join(format!("big_{encrypted}.pck"));
        let mut w = PackWriter::for_engine("4.4.1")
            .unwrap()
            .key(zero())
            .encrypt_files(encrypted);
        w.add("res://big.bin", vec![3u8; 4 << 20]);
        w.add("res://small.txt", b"small".to_vec());
        w.save(&path).unwrap();
        let peak = peak_of(|| {
            let mut pack = Pack::open_with_key(&path, &zero()).unwrap();
            let mut r = pack.reader("res://big.bin").unwrap();
            let n = std::io::copy(&mut r, &mut std::io::sink()).unwrap();
            assert_eq!(n, 4 << 20);
        });
        assert!(
            peak < 512 << 10,
            "streaming 4 MiB took {peak} bytes (encrypted {encrypted})"
        );
        let peak = peak_of(|| {
            let mut pack = Pack::open_with_key(&path, &zero()).unwrap();
            assert_eq!(pack.extract_all(dir.join("out")).unwrap(), 2);
        });
        assert!(
            peak < 512 << 10,
            "extracting 4 MiB took {peak} bytes (encrypted {encrypted})"
        );
        assert_eq!(
            std::fs::metadata(dir.join("out/big.bin")).unwrap().len(),
            4 << 20
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
