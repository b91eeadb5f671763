//! Binary resources and scenes (`.res`, `.scn`; `RSRC`, compressed `RSCC`): arbitrary
//! bytes. No panic; memory bounded by the file (with the compressed containers' allowance,
//! `file_alloc_bound`); what reads is written back stably (the first rewrite may normalise
//! what the engine reads leniently, e.g. a string whose stored length has no final NUL;
//! after that, read and write agree byte for byte: engine-made files are checked for
//! byte-identical rewriting in `tests/it/resource/binary.rs`), and converts to text, which
//! reads back.
#![no_main]

use godot_bin_files::resource::{BinaryResource, TextResource};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let bound = godot_bin_fuzz::file_alloc_bound(data)
        + if data.starts_with(b"RSCC") { 24 << 20 } else { 0 };
    let ((), peak) = godot_bin_fuzz::peak_during(|| {
        let Ok(res) = BinaryResource::from_bytes(data) else {
            return;
        };
        if let Ok(bytes) = res.to_bytes() {
            let again = BinaryResource::from_bytes(&bytes)
                .expect("a binary file this crate wrote reads back");
            assert_eq!(again.to_bytes().unwrap(), bytes, "binary rewrite is stable");
        }
        let _ = res.check_references();
        if let Ok(converted) = res.to_text() {
            let text = converted.file.to_string();
            let back: TextResource = text.parse().expect("text this crate wrote reads back");
            assert_eq!(back.to_string(), text, "text rewrite");
        }
    });
    if godot_bin_fuzz::alloc_check_enabled() {
        assert!(peak <= bound, "{} bytes allocated {peak} at peak", data.len());
    }
});
