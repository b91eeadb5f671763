//! The integration tests that need nothing but this repository: one binary, one module per
//! area, helpers in `tests/support/`. The tests that run a real engine are the `engine`
//! binary (`tests/engine/`).

#[path = "../support/mod.rs"]
mod support;

/// Counts allocations per thread for `alloc_bound` (peaks) and `framing` (largest block).
#[global_allocator]
static ALLOC: support::alloc::Counting = support::alloc::Counting;

mod alloc_bound;
mod cli;
mod codec;
mod conversions;
mod dialects;
mod differential;
mod errors;
mod fast_paths;
#[cfg(feature = "files")]
mod files;
#[cfg(feature = "files")]
mod files_hostile;
mod framing;
mod golden;
mod hostile;
mod interop;
mod mapping;
#[cfg(feature = "multiplayer-core")]
mod multiplayer;
#[cfg(feature = "multiplayer-websocket")]
mod multiplayer_host;
mod random_values;
mod readme;
mod regression_convert_memory;
mod regression_godot3_names;
mod regression_nan_before_section;
mod regression_negative_word_before_dot;
mod regression_nested_array_memory;
mod regression_nodepath_root_from_text;
mod regression_object_keys;
mod regression_object_property_names;
mod regression_text_marker_object;
mod regression_word_value_before_paren;
mod regression_wrong_dialect;
#[cfg(feature = "resource")]
mod resource;
mod roundtrip_props;
mod serde_paths;
mod text;
mod typed_golden;
mod user_errors;
