//! Decode, encode, decode, encode: in every dialect, a packet that decodes must re-encode,
//! its encoding must decode to an equal value (by bytes when it holds NaN), and the
//! second encoding must equal the first.
#![no_main]

use godot_bin::{Config, Dialect, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for dialect in [
        Dialect::Godot4,
        Dialect::Godot3,
        Dialect::Godot2,
        Dialect::Pandemonium,
        Dialect::Pandemonium37,
        Dialect::Pandemonium5,
    ] {
        let cfg = Config::new(dialect).allow_objects(true);
        if let Ok((value, _)) = cfg.take_from_slice::<Variant>(data) {
            godot_bin_fuzz::check_reencode(&value, &cfg);
        }
    }
});
