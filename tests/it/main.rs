//! The integration tests that need nothing but this repository: one binary, one module per
//! area, helpers in the test kit (`crates/godot_bin_testkit`). The tests that run a real engine are the `engine`
//! binary (`tests/engine/`).

use godot_bin_testkit as support;

/// Counts allocations per thread for `alloc_bound` (peaks) and `framing` (largest block).
#[global_allocator]
static ALLOC: support::alloc::Counting = support::alloc::Counting;

mod alloc_bound;
mod codec;
mod conversions;
mod dialects;
mod differential;
mod encode_paths;
mod errors;
mod fast_paths;
mod framing;
mod golden;
mod hostile;
mod interop;
mod mapping;
mod random_values;
mod regression;
mod roundtrip_props;
mod serde_paths;
mod text;
mod typed_golden;
mod user_errors;
