//! RID, objects, Callable and Signal.

use crate::variant::Variant;
use serde_derive::{Deserialize, Serialize};

/// `RID`: a server resource id. Godot 4 sends the u64 id; Godot 3 and Pandemonium send
/// nothing (every RID decodes as id 0 there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename = "$godot_bin::Rid")]
pub struct Rid(pub u64);

/// An object sent as its instance id (`var_to_bytes` without `full_objects`). The engine
/// decodes it as an `EncodedObjectAsID`; id 0 is a null object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename = "$godot_bin::ObjectId")]
pub struct ObjectId(pub u64);

/// A full object (`var_to_bytes_with_objects`): its class name and stored properties, in the
/// engine's order. Decoding needs [`Config::allow_objects`](crate::Config::allow_objects);
/// it never creates anything, it is data. An empty `class_name` is the engine's null-object
/// form and carries no properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename = "$godot_bin::Object")]
pub struct Object {
    /// The engine class, e.g. `"RefCounted"`.
    pub class_name: String,
    /// Property name and value pairs, in order (Godot 4 sends `script` as a `res://` path).
    pub properties: Vec<(String, Variant)>,
}

/// `Callable`. The engine sends only the type: every callable decodes as an empty one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename = "$godot_bin::Callable")]
pub struct Callable;

/// `Signal`: a signal name and the id of the object that owns it (Godot 4 only).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename = "$godot_bin::Signal")]
pub struct Signal {
    /// The signal's name.
    pub name: String,
    /// The owning object's instance id.
    pub object: u64,
}
