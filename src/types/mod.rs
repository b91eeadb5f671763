//! Plain-data types for the engine's builtins.

pub mod element;
pub mod godot2;
pub(crate) mod leaves;
pub mod math;
pub mod names;
pub mod object;
pub mod packed;
