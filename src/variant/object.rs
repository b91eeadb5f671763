//! [`Object`]: a full object, its class name and properties (which are Variants).

use super::Variant;
use serde_derive::{Deserialize, Serialize};

/// A full object (`var_to_bytes_with_objects`): its class name and stored properties, in the
/// engine's order. Decoding needs [`Config::allow_objects`](crate::config::Config::allow_objects);
/// it never creates anything, it is data. An empty `class_name` is the engine's null-object
/// form and carries no properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::Object")]
pub struct Object {
    /// The engine class, e.g. `"RefCounted"`.
    pub class_name: String,
    /// Property name and value pairs, in order (Godot 4 sends `script` as a `res://` path).
    pub properties: Vec<(String, Variant)>,
}

crate::builtin::struct_builtin!(Object);
