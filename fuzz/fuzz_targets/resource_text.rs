//! Text resources, scenes and ConfigFiles (`.tres`, `.tscn`, `.cfg`): arbitrary text, the
//! first byte choosing the reader. No panic; memory bounded by the text; what reads is
//! written back byte for byte unchanged, and converts to binary (which reads back) and to
//! Godot 4 without a panic.
#![no_main]

use godot_bin_files::resource::{BinaryResource, ConfigFile, TextResource};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&how, text)) = data.split_first() else {
        return;
    };
    godot_bin_fuzz::bounded("resource text", data, || {
        if how % 2 == 0 {
            let Ok(res) = TextResource::from_bytes(text) else {
                return;
            };
            // Unchanged, the text comes back as it was read.
            assert_eq!(res.to_string().as_bytes(), text, "text resource round trip");
            let _ = res.check_references();
            if let Ok(converted) = res.to_binary() {
                if let Ok(bytes) = converted.file.to_bytes() {
                    let back = BinaryResource::from_bytes(&bytes)
                        .expect("a binary file this crate wrote reads back");
                    assert_eq!(back.to_bytes().unwrap(), bytes, "binary rewrite");
                }
            }
            let _ = res.to_godot4();
        } else {
            let Ok(text) = std::str::from_utf8(text) else {
                return;
            };
            let Ok(cfg) = ConfigFile::parse(text) else {
                return;
            };
            assert_eq!(cfg.to_string(), text, "ConfigFile round trip");
            let mut again = cfg.clone();
            again.reprint();
            let printed = again.to_string();
            let reread = ConfigFile::parse(&printed).expect("a reprinted ConfigFile reads back");
            assert_eq!(reread.to_string(), printed, "reprinted ConfigFile round trip");
        }
    });
});
