//! One file a bug: each reproduces what went wrong, from the engine's or a real project's
//! file where there is one, and fails with the fix taken out.

mod binary_to_text_as_the_engine;
mod config_key_without_equals;
mod convert_memory;
mod godot3_ext_types;
mod godot3_names;
mod hex_color_value;
mod image_texture_format;
mod nan_before_section;
mod negative_word_before_dot;
mod nested_array_memory;
mod node_ids_46;
mod relative_ext_path;
mod rid_in_godot3_text;
mod scene_index;
mod text_marker_object;
mod typed_array_kept;
mod value_glued_to_key;
mod wide_ints_godot3_0;
mod word_value_before_paren;
mod wrong_dialect;
