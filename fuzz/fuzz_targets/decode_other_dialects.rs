//! Decodes arbitrary bytes as a Godot 2, Pandemonium 3.7 and Pandemonium 5 packet into
//! `Variant` (objects refused and allowed) and checks the invariants in
//! `godot_bin_fuzz::check_variant`.
#![no_main]

use godot_bin::Dialect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in [
        Dialect::Godot2,
        Dialect::Pandemonium37,
        Dialect::Pandemonium5,
    ] {
        for cfg in godot_bin_fuzz::configs(dialect) {
            godot_bin_fuzz::check_variant(data, &cfg);
        }
    }
});
