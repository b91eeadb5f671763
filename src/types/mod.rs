//! Plain-data types for the engine's builtins, and the tables generated code reads: the
//! fixed builtins' components (`leaves.rs`) and the list of packed arrays (`packed.rs`).
//! No serde protocol here: how these cross serde is the `builtin` room, a floor above.

pub mod element;
pub mod godot2;
pub(crate) mod leaves;
pub mod math;
pub mod names;
pub mod object;
pub mod packed;
