//! The integration tests of godot_bin_files that need nothing but this repository: one
//! binary, one module per area, helpers from the workspace's test kit. The tests that run
//! a real engine are the `engine` binary (`tests/engine/`).

use godot_bin_testkit as support;

/// Counts allocations per thread for the memory bounds of hostile files.
#[global_allocator]
static ALLOC: support::alloc::Counting = support::alloc::Counting;

mod files;
mod files_hostile;
mod pack;
mod pack_hostile;
mod project;
mod regression;
mod resource;
mod upgrade;
