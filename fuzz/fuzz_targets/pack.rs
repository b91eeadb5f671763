//! PCK packs: arbitrary bytes as a `.pck` (or an executable's pack), read with the
//! all-zero key. No panic; memory bounded by the file (`file_alloc_bound`: counts, sizes
//! and offsets are checked against the bytes there are before anything is allocated); each
//! error's offset lies inside the file; every file of a pack that opens reads, or fails
//! with a typed error; a pack whose directory is not encrypted is written back byte for
//! byte (an encrypted directory is too when its padding is the engine's zeros, which
//! arbitrary bytes need not be); every path the extraction would accept stays below its
//! folder.
#![no_main]

use godot_bin_files::pack::Pack;
use godot_bin_files::save::Key;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let bound = godot_bin_fuzz::file_alloc_bound(data);
    let ((), peak) = godot_bin_fuzz::peak_during(|| {
        let key = Key::bytes([0; 32]);
        let mut pack = match Pack::from_reader(Cursor::new(data), Some(&key)) {
            Ok(p) => p,
            Err(e) => {
                if let Some(godot_bin::Position::Byte(at)) = e.position() {
                    assert!(at <= data.len(), "offset {at} past the file: {e}");
                }
                return;
            }
        };
        let entries = pack.entries().to_vec();
        for e in &entries {
            if let Ok(bytes) = pack.entry_reader(e).and_then(|mut r| {
                let mut out = Vec::new();
                std::io::Read::read_to_end(&mut r, &mut out)?;
                Ok(out)
            }) {
                assert_eq!(bytes.len() as u64, e.size(), "{}", e.path());
            }
            let rel = e.path().trim_start_matches("res://");
            if godot_bin_files::pack::is_safe_path(e.path()) {
                assert!(
                    !rel.split('/').any(|c| c == ".." || c.is_empty())
                        && !rel.contains(['\\', ':', '\0'])
                        && !rel.starts_with('/'),
                    "unsafe path let through: {rel:?}"
                );
            }
        }
        let mut out = Vec::new();
        pack.write_to(&mut out).expect("a pack that opened writes back");
        if !pack.header().dir_encrypted() {
            assert!(out == data, "rewrite differs");
        }
    });
    if godot_bin_fuzz::alloc_check_enabled() {
        assert!(peak <= bound, "{} bytes allocated {peak} at peak", data.len());
    }
});
