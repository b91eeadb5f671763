//! Found by `fuzz/resource_text`: in a ConfigFile line `tma=4e3e h.x-y_z=4` the value is
//! `4e3` and the next key `e h.x-y_z` follows at once (the engine's tokenizer ends the
//! number there). The value printed anew, `4000.0`, ran into the key as `4000.0e`, which
//! did not read back. A value printed anew with a key glued after it now gets a space
//! between them, which the key's reading skips: the same keys and values read back.

use crate::resource::config_reprint;
use godot_bin::Variant;

#[test]
fn a_key_glued_after_a_reprinted_value_keeps_its_name() {
    let text = "v= Vector2( 1, 2 )\ntma=4e3e h.x-y_z=4\n";
    let (cfg, printed, reread) = config_reprint(text);
    assert_eq!(cfg.get("", "tma"), Some(&Variant::Float(4000.0)));
    assert!(printed.contains("tma=4000.0 e"), "{printed:?}");
    crate::resource::assert_same_top_keys(&cfg, &reread, &printed);
}

/// The fuzz input itself, kept in the repository.
#[test]
fn the_fuzz_input_reprints_and_reads_back() {
    let data = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/regressions/resource_text-af671334"
    ));
    config_reprint(std::str::from_utf8(&data[1..]).unwrap());
}
