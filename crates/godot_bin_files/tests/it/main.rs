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
mod regression_binary_to_text_as_the_engine;
mod regression_convert_memory;
mod regression_godot3_ext_types;
mod regression_godot3_names;
mod regression_nan_before_section;
mod regression_negative_word_before_dot;
mod regression_nested_array_memory;
mod regression_node_ids_46;
mod regression_relative_ext_path;
mod regression_rid_in_godot3_text;
mod regression_scene_index;
mod regression_text_marker_object;
mod regression_typed_array_kept;
mod regression_value_glued_to_key;
mod regression_word_value_before_paren;
mod regression_wrong_dialect;
mod resource;
