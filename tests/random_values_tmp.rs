//! Temporary home of the random-value differential until tests/engine/main.rs lands.
#[path = "engine/random_values.rs"]
mod random_values;

use godot_bin::Dialect;
use random_values::{crate_to_engine, engine_from_env, engine_to_crate};

fn g4() -> Option<random_values::Engine> {
    engine_from_env("GODOT4_BIN", "godot4", Dialect::Godot4)
}
fn g3() -> Option<random_values::Engine> {
    engine_from_env("GODOT3_BIN", "godot3-server", Dialect::Godot3)
}

#[test]
fn godot4_engine_to_crate() {
    if let Some(e) = g4() {
        engine_to_crate(&e);
    }
}
#[test]
fn godot4_crate_to_engine() {
    if let Some(e) = g4() {
        crate_to_engine(&e);
    }
}
#[test]
fn godot3_engine_to_crate() {
    if let Some(e) = g3() {
        engine_to_crate(&e);
    }
}
#[test]
fn godot3_crate_to_engine() {
    if let Some(e) = g3() {
        crate_to_engine(&e);
    }
}
