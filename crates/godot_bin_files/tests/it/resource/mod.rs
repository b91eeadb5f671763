//! `godot_bin_files::resource`: ConfigFiles, text and binary resources and scenes, read from the
//! engine-made files in `tests/data/resource/` (which script made each: its README).

mod binary;
mod config;
mod hostile;
mod text;

use std::path::PathBuf;

/// A fixture's bytes: `tests/data/resource/<engine>/<name>`.
pub fn fixture(engine: &str, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/resource")
        .join(engine)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fuzz target's ConfigFile steps: `text` reads and is written back byte for byte;
/// printed anew it reads back, and that reprint is written back byte for byte. Returns the
/// file read, the reprint and the reprint read back.
pub fn config_reprint(
    text: &str,
) -> (
    godot_bin_files::resource::ConfigFile,
    String,
    godot_bin_files::resource::ConfigFile,
) {
    let cfg = godot_bin_files::resource::ConfigFile::parse(text).unwrap();
    assert_eq!(cfg.to_string(), text);
    let mut again = cfg.clone();
    again.reprint();
    let printed = again.to_string();
    let reread = godot_bin_files::resource::ConfigFile::parse(&printed)
        .unwrap_or_else(|e| panic!("the reprint reads back: {e}\n{printed}"));
    assert_eq!(reread.to_string(), printed);
    (cfg, printed, reread)
}

/// The keys before the first section of `cfg` and `reread` are the same, in order, with
/// the same values (`printed`, the reprint, shown on failure).
pub fn assert_same_top_keys(
    cfg: &godot_bin_files::resource::ConfigFile,
    reread: &godot_bin_files::resource::ConfigFile,
    printed: &str,
) {
    assert_eq!(reread.keys(""), cfg.keys(""), "{printed:?}");
    for key in cfg.keys("") {
        assert_eq!(reread.get("", key), cfg.get("", key), "{key}");
    }
}
