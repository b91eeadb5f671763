//! Decodes arbitrary bytes into derived structs, enums, maps and builtins (Godot 4 and
//! Godot 3 dialects) and checks that whatever decodes re-encodes stably.
#![no_main]

use godot_bin::{Config, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        godot_bin_fuzz::check_typed(data, &Config::new(dialect));
    }
});
