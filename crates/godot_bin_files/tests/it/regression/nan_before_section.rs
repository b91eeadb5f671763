//! Found by `fuzz/resource_text`: a ConfigFile line
//! `c=-nan[=...]` (a section header straight after the value, no line break) reads, the
//! value a NaN; its reprint writes the engine's `nan` for it, and `nan[` is then read as
//! the start of a bracketed value, so the reprint did not read back. Now only the typed
//! containers (`Array[...]`, `Dictionary[...]`) take a `[` after their name.

use godot_bin_files::resource::ConfigFile;

#[test]
fn a_reprinted_nan_before_a_section_header_reads_back() {
    let text = "c=-nan[=\0\0\u{1}c=-nan[=\0\0]";
    let cfg = ConfigFile::parse(text).unwrap();
    assert!(cfg
        .get("", "c")
        .and_then(|v| v.as_float())
        .is_some_and(f64::is_nan));
    let mut again = cfg.clone();
    again.reprint();
    let printed = again.to_string();
    let reread = ConfigFile::parse(&printed).expect("the reprint reads back");
    assert_eq!(reread.section_names(), cfg.section_names(), "{printed:?}");
}
