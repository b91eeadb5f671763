//! Decodes arbitrary bytes as a Pandemonium packet into `Variant` (objects refused and allowed)
//! and checks the invariants in `godot_bin_fuzz::check_variant`.
#![no_main]

use godot_bin::Dialect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for cfg in godot_bin_fuzz::configs(Dialect::Pandemonium) {
        godot_bin_fuzz::check_variant(data, &cfg);
    }
});
