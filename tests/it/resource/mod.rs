//! `godot_bin::resource`: ConfigFiles, text and binary resources and scenes, read from the
//! engine-made files in `tests/data/resource/` (which script made each: its README).

mod binary;
mod cli;
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
