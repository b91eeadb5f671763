//! Packs: written, read back, rewritten byte for byte, patched in place without touching
//! the bytes of the files left alone.

use godot_bin_files::pack::{Pack, PackWriter, Patch};
use godot_bin_files::save::Key;
use godot_bin_files::ErrorKind;
use std::io::{Cursor, Read};
use std::path::PathBuf;

fn zero() -> Key {
    Key::bytes([0; 32])
}

/// A few files of odd lengths, one empty, one over the reader's chunk.
fn files() -> Vec<(String, Vec<u8>)> {
    vec![
        (
            "res://project.binary".into(),
            b"ECFG\x01\x00\x00\x00".to_vec(),
        ),
        ("res://empty.txt".into(), Vec::new()),
        (
            "res://levels/one.tscn".into(),
            b"[gd_scene format=3]\n".repeat(7),
        ),
        (
            "res://big.bin".into(),
            (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect(),
        ),
    ]
}

fn writer(engine: &str) -> PackWriter {
    let mut w = PackWriter::for_engine(engine).unwrap();
    for (p, b) in files() {
        w.add(&p, b);
    }
    w
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("godot_bin_pack_it_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn check_all(pack: &mut Pack<Cursor<&Vec<u8>>>) {
    for (p, b) in files() {
        assert_eq!(pack.read(&p).unwrap(), b, "{p}");
        // Streaming reads the same bytes, in small reads.
        let mut r = pack.reader(&p).unwrap();
        let mut got = Vec::new();
        let mut buf = [0u8; 333];
        loop {
            let n = r.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        assert_eq!(got, b, "{p} streamed");
    }
}

fn rewrite<R: Read + std::io::Seek>(pack: &mut Pack<R>) -> Vec<u8> {
    let mut out = Vec::new();
    pack.write_to(&mut out).unwrap();
    out
}

#[test]
fn every_format_round_trips_and_rewrites_byte_identical() {
    for (engine, format, prefixed) in [
        ("2.1", 0, true),
        ("3", 1, true),
        ("3.2.3", 1, true),
        ("4.0", 2, true),
        ("4.4.1", 2, false),
        ("4.5", 3, false),
        ("4.6.2", 3, false),
        ("4.7", 4, false),
    ] {
        let bytes = writer(engine).to_bytes().unwrap();
        let mut pack = Pack::from_reader(Cursor::new(&bytes), None).unwrap();
        assert_eq!(pack.header().format, format, "{engine}");
        assert_eq!(
            pack.entries()[0].path().starts_with("res://"),
            prefixed,
            "{engine}"
        );
        for e in pack.entries() {
            assert_eq!(e.position() % 16, 0, "{engine}: {} aligned", e.path());
            assert_eq!(e.md5(), md5_of(&pack_file(&files(), e.path())), "{engine}");
        }
        check_all(&mut pack);
        assert_eq!(rewrite(&mut pack), bytes, "{engine}: rewrite");
        if format >= 3 {
            // The directory is at the end, after the files.
            let (dir, _) = pack.directory_span();
            assert!(
                pack.entries().iter().all(|e| e.position() < dir),
                "{engine}"
            );
            assert_eq!(pack.header().flags & 2, 2, "{engine}: relative");
        }
    }
}

fn pack_file(files: &[(String, Vec<u8>)], path: &str) -> Vec<u8> {
    let bare = path.trim_start_matches("res://");
    files
        .iter()
        .find(|(p, _)| p.trim_start_matches("res://") == bare)
        .unwrap()
        .1
        .clone()
}

fn md5_of(b: &[u8]) -> [u8; 16] {
    use md5::{Digest, Md5};
    Md5::digest(b).into()
}

#[test]
fn the_md5_stored_is_the_md5_of_the_bytes() {
    // RFC 1321's test vector: the MD5 of "abc".
    let hex: String = md5_of(b"abc").iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, "900150983cd24fb0d6963f7d28e17f72");
}

#[test]
fn encrypted_files_and_directory_read_back_and_a_wrong_key_says_so() {
    for (files_enc, dir_enc) in [(true, false), (false, true), (true, true)] {
        for engine in ["4.4.1", "4.5", "4.7"] {
            let mut w = writer(engine).key(zero()).encrypt_files(files_enc);
            w.encrypt_directory(dir_enc);
            let bytes = w.to_bytes().unwrap();
            let what = format!("{engine} files {files_enc} dir {dir_enc}");
            let mut pack = Pack::from_reader(Cursor::new(&bytes), Some(&zero())).unwrap();
            assert_eq!(pack.header().dir_encrypted(), dir_enc, "{what}");
            assert!(
                pack.entries().iter().all(|e| e.is_encrypted() == files_enc),
                "{what}"
            );
            check_all(&mut pack);
            assert_eq!(rewrite(&mut pack), bytes, "{what}: rewrite");

            let wrong = Key::bytes([7; 32]);
            if dir_enc {
                let err = Pack::from_reader(Cursor::new(&bytes), Some(&wrong)).unwrap_err();
                assert!(matches!(err.kind(), ErrorKind::WrongKey), "{what}: {err}");
                let err = Pack::from_reader(Cursor::new(&bytes), None).unwrap_err();
                assert!(
                    matches!(err.kind(), ErrorKind::KeyRequired),
                    "{what}: {err}"
                );
            } else {
                let mut pack = Pack::from_reader(Cursor::new(&bytes), Some(&wrong)).unwrap();
                let err = pack.read("res://levels/one.tscn").unwrap_err();
                assert!(matches!(err.kind(), ErrorKind::WrongKey), "{what}: {err}");
                let mut pack = Pack::from_reader(Cursor::new(&bytes), None).unwrap();
                let err = pack.read("res://levels/one.tscn").unwrap_err();
                assert!(
                    matches!(err.kind(), ErrorKind::KeyRequired),
                    "{what}: {err}"
                );
                // Without a key the pack still lists and rewrites byte for byte.
                assert_eq!(rewrite(&mut pack), bytes, "{what}: keyless rewrite");
            }
            // A cut pack is damage, not a wrong key.
            let cut = &bytes[..bytes.len() - 20];
            let err = Pack::from_reader(Cursor::new(cut), Some(&zero()))
                .and_then(|mut p| p.read("res://big.bin").map(|_| ()))
                .unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::Corrupt(_) | ErrorKind::UnexpectedEof),
                "{what}: {err}"
            );
        }
    }
}

#[test]
fn godot3_packs_refuse_encryption() {
    let err = writer("3.2.3")
        .key(zero())
        .encrypt_files(true)
        .to_bytes()
        .unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unwritable(_)), "{err}");
}

#[test]
fn an_executable_pack_is_found_by_its_trailer() {
    for engine in ["3.2.3", "4.4.1", "4.6"] {
        let pck = writer(engine).to_bytes().unwrap();
        let mut exe = b"\x7fELF pretend executable".repeat(10);
        while !exe.len().is_multiple_of(8) {
            exe.push(0);
        }
        let start = exe.len() as u64;
        let mut pack_bytes = pck.clone();
        if engine.starts_with('3') {
            // Version 1 offsets are absolute in the file: shift them as an export does.
            pack_bytes = shift_v1(&pck, start);
        } else if engine == "4.4.1" {
            // Version 2: the relative flag, as an embedding export sets.
            pack_bytes[20] |= 2;
        }
        exe.extend_from_slice(&pack_bytes);
        exe.extend_from_slice(&(pack_bytes.len() as u64).to_le_bytes());
        exe.extend_from_slice(b"GDPC");
        let mut pack = Pack::from_reader(Cursor::new(&exe), None).unwrap();
        assert!(pack.is_embedded(), "{engine}");
        assert_eq!(pack.start(), start, "{engine}");
        for (p, b) in files() {
            assert_eq!(pack.read(&p).unwrap(), b, "{engine} {p}");
        }
        assert_eq!(rewrite(&mut pack), exe, "{engine}: rewrite");

        // Patched in place: the executable's bytes stay, the trailer moves to the end.
        let path = temp(&format!("game_{engine}.x86_64"));
        std::fs::write(&path, &exe).unwrap();
        let mut patch = Patch::open(&path, None).unwrap();
        patch.set("res://levels/one.tscn", b"changed".to_vec());
        patch.commit().unwrap();
        let after = std::fs::read(&path).unwrap();
        assert_eq!(after[..start as usize], exe[..start as usize], "{engine}");
        let mut pack = Pack::open(&path).unwrap();
        assert_eq!(pack.start(), start, "{engine}");
        assert_eq!(pack.read("res://levels/one.tscn").unwrap(), b"changed");
        assert_eq!(pack.read("res://big.bin").unwrap(), files()[3].1);
    }
}

/// A version 1 pack moved to `by` bytes into a file: every offset gains `by`.
fn shift_v1(pck: &[u8], by: u64) -> Vec<u8> {
    let pack = Pack::from_reader(Cursor::new(pck), None).unwrap();
    let mut out = pck.to_vec();
    let (dir, _) = pack.directory_span();
    let mut at = dir as usize + 4;
    for e in pack.entries() {
        let len = u32::from_le_bytes(out[at..at + 4].try_into().unwrap()) as usize;
        at += 4 + len;
        let shifted = e.offset() + by;
        out[at..at + 8].copy_from_slice(&shifted.to_le_bytes());
        at += 32;
    }
    out
}

/// The bytes of every file left alone, at their positions before the patch.
fn untouched(
    bytes: &[u8],
    pack: &Pack<Cursor<&Vec<u8>>>,
    skip: &[&str],
) -> Vec<(String, u64, Vec<u8>)> {
    pack.entries()
        .iter()
        .filter(|e| !skip.contains(&e.res_path().as_str()))
        .map(|e| {
            let at = e.position() as usize;
            (
                e.res_path(),
                e.position(),
                bytes[at..at + e.stored_len() as usize].to_vec(),
            )
        })
        .collect()
}

#[test]
fn a_patch_writes_no_byte_of_the_files_left_alone() {
    for engine in ["2.1", "3.2.3", "4.0", "4.4.1", "4.5", "4.7"] {
        for encrypted in [false, true] {
            if encrypted && !engine.starts_with('4') {
                continue;
            }
            let what = format!("{engine} encrypted {encrypted}");
            let mut w = writer(engine).key(zero()).encrypt_files(encrypted);
            w.encrypt_directory(encrypted);
            let path = temp(&format!("patch_{engine}_{encrypted}.pck"));
            w.save(&path).unwrap();
            let before = std::fs::read(&path).unwrap();
            let old = Pack::from_reader(Cursor::new(&before), Some(&zero())).unwrap();
            let kept = untouched(&before, &old, &["res://levels/one.tscn", "res://empty.txt"]);

            let mut patch = Patch::open(&path, Some(&zero())).unwrap();
            patch
                .set(
                    "res://levels/one.tscn",
                    b"[gd_scene format=3]\n; new\n".to_vec(),
                )
                .remove("res://empty.txt");
            // New files with long paths: the directory outgrows its room.
            for i in 0..40 {
                patch.set(
                    &format!("res://added/a_rather_long_folder_name/file_{i:03}.txt"),
                    format!("file {i}").into_bytes(),
                );
            }
            let done = patch.commit().unwrap();
            let after = std::fs::read(&path).unwrap();
            let mut pack = Pack::from_reader(Cursor::new(&after), Some(&zero())).unwrap();
            let (_, dir_end) = pack.directory_span();
            if pack.header().format <= 2 {
                // The directory grew over the first files: exactly those moved.
                assert!(!done.relocated.is_empty(), "{what}");
                for (p, pos, _) in &kept {
                    assert_eq!(done.relocated.contains(p), *pos < dir_end, "{what}: {p}");
                }
            } else {
                assert!(done.relocated.is_empty(), "{what}");
            }
            for (p, pos, bytes) in &kept {
                let e = pack.entry(p).unwrap().clone();
                if done.relocated.contains(p) {
                    assert!(
                        e.position() >= before.len() as u64,
                        "{what}: {p} moved to the end"
                    );
                } else {
                    assert_eq!(e.position(), *pos, "{what}: {p} stays");
                    let at = *pos as usize;
                    assert_eq!(
                        &after[at..at + bytes.len()],
                        &bytes[..],
                        "{what}: {p} bytes"
                    );
                }
                assert_eq!(pack.read(p).unwrap(), pack_file(&files(), p), "{what}: {p}");
            }
            assert_eq!(
                pack.read("res://levels/one.tscn").unwrap(),
                b"[gd_scene format=3]\n; new\n",
                "{what}"
            );
            assert!(pack.entry("res://empty.txt").is_none(), "{what}");
            assert_eq!(
                pack.read("res://added/a_rather_long_folder_name/file_039.txt")
                    .unwrap(),
                b"file 39",
                "{what}"
            );
            assert_eq!(pack.entries().len(), 3 + 40, "{what}");
            if encrypted {
                assert!(pack.entries().iter().all(|e| e.is_encrypted()), "{what}");
            }
            // The patched pack rewrites byte for byte too.
            assert_eq!(rewrite(&mut pack), after, "{what}");
            // Removing a file that is not there says so.
            let mut patch = Patch::open(&path, Some(&zero())).unwrap();
            patch.remove("res://empty.txt");
            let err = patch.commit().unwrap_err();
            assert!(
                matches!(err.kind(), ErrorKind::NotFound(_)),
                "{what}: {err}"
            );
            assert_eq!(
                std::fs::read(&path).unwrap(),
                after,
                "{what}: a failed patch writes nothing"
            );
        }
    }
}

#[test]
fn extract_writes_every_file_below_the_folder() {
    let bytes = writer("4.4.1").to_bytes().unwrap();
    let mut pack = Pack::from_reader(Cursor::new(&bytes), None).unwrap();
    let dir = temp("extracted");
    assert_eq!(pack.extract_all(&dir).unwrap(), 4);
    for (p, b) in files() {
        let on_disk = std::fs::read(dir.join(p.trim_start_matches("res://"))).unwrap();
        assert_eq!(on_disk, b, "{p}");
    }
    // A folder written out packs again into the same files.
    let mut w = PackWriter::for_engine("4.4.1").unwrap();
    w.add_dir(&dir).unwrap();
    let again = w.to_bytes().unwrap();
    let mut pack = Pack::from_reader(Cursor::new(&again), None).unwrap();
    let mut names: Vec<String> = pack.entries().iter().map(|e| e.res_path()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "res://big.bin",
            "res://empty.txt",
            "res://levels/one.tscn",
            "res://project.binary"
        ]
    );
    check_all(&mut pack);
}

#[test]
fn save_embedded_appends_a_pack_the_crate_finds() {
    for engine in ["3.2.3", "4.4.1", "4.5"] {
        let exe = temp(&format!("stub_{engine}"));
        std::fs::write(&exe, b"\x7fELF a stand-in, 21").unwrap();
        let out = temp(&format!("game_{engine}.bin"));
        writer(engine).save_embedded(&exe, &out).unwrap();
        let bytes = std::fs::read(&out).unwrap();
        assert_eq!(&bytes[..20], b"\x7fELF a stand-in, 21\0", "{engine}");
        assert_eq!(&bytes[bytes.len() - 4..], b"GDPC", "{engine}");
        let mut pack = Pack::open(&out).unwrap();
        assert_eq!(pack.start(), 24, "{engine}: on an 8-byte boundary");
        assert!(pack.is_embedded(), "{engine}");
        for (p, b) in files() {
            assert_eq!(pack.read(&p).unwrap(), b, "{engine} {p}");
        }
    }
}
