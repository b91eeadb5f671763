//! Plain-data types for the engine's builtins.

pub mod godot2;
pub mod math;
pub mod names;
pub mod object;
pub mod packed;
pub mod typed;
