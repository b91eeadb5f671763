//! Helpers shared by the test binaries: `tests/it` (no engine) and `tests/engine` (the real
//! engines). Each binary includes this module with `#[path = "../support/mod.rs"] mod
//! support;`; what one binary does not use is dead code there.
#![allow(dead_code)]

pub mod alloc;
pub mod engine;
pub mod godot;
pub mod godot3;
pub mod godot4;
pub mod golden;
pub mod hex;
pub mod packets;
pub mod run;
pub mod variant;
