//! Found by `fuzz/resource_text`: a ConfigFile line `d=5.e2100(3,` reads (the number ends
//! at `(`, which starts the next key), the value an infinity; its reprint writes the
//! engine's `inf` for it, and `inf(` was then taken for a constructor call whose bracket
//! never closes, so the reprint did not read back. The engine's reader takes no `(` after
//! the words that are values by themselves (`true`, `null`, `inf`, `nan`, ...); now
//! neither does the crate.

use crate::resource::config_reprint;
use godot_bin::Variant;
use godot_bin_files::resource::ConfigFile;

#[test]
fn a_reprinted_infinity_before_a_paren_reads_back() {
    let text = "[s]\nd=5.e2100(3,\nhp=100\n";
    let (cfg, printed, reread) = config_reprint(text);
    assert_eq!(cfg.get("s", "d"), Some(&Variant::Float(f64::INFINITY)));
    assert!(printed.contains("d=inf(3,"), "{printed:?}");
    assert_eq!(reread.section_names(), cfg.section_names(), "{printed:?}");
    assert_eq!(reread.keys("s"), cfg.keys("s"), "{printed:?}");
    assert_eq!(reread.get("s", "d"), Some(&Variant::Float(f64::INFINITY)));
}

#[test]
fn word_values_end_before_a_paren_as_the_engine_reads_them() {
    for (word, value) in [
        ("true", Variant::Bool(true)),
        ("null", Variant::Nil),
        ("inf_neg", Variant::Float(f64::NEG_INFINITY)),
    ] {
        let text = format!("[s]\nk={word}(x=1\n");
        let cfg = ConfigFile::parse(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert_eq!(cfg.get("s", "k"), Some(&value), "{text:?}");
    }
}

/// The fuzz input itself, kept in the repository. A `"` inside one of its keys starts a
/// string there, as in the engines' key reader, which is never closed: both engines
/// refuse the file (`ConfigFile.load` → `ERR_PARSE_ERROR`, "Unterminated string"), and
/// so does the crate, with a syntax error.
#[test]
fn the_fuzz_input_is_refused_as_the_engines_refuse_it() {
    let data = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/regressions/resource_text-240dcf25"
    ));
    let err = ConfigFile::parse(std::str::from_utf8(&data[1..]).unwrap()).unwrap_err();
    assert!(
        matches!(err.kind(), godot_bin_files::ErrorKind::Syntax(_)),
        "{err}"
    );
}
