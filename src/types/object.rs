//! RID, object ids, Callable and Signal. (A full object holds Variants, so it lives with
//! the dynamic value.)

use serde_derive::{Deserialize, Serialize};

/// `RID`: a server resource id. Godot 4 sends the u64 id; Godot 3 and Pandemonium send
/// nothing (every RID decodes as id 0 there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rid(pub u64);

/// An object sent as its instance id (`var_to_bytes` without `full_objects`). The engine
/// decodes it as an `EncodedObjectAsID`; id 0 is a null object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ObjectId(pub u64);

/// `Callable`. The engine sends only the type: every callable decodes as an empty one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Callable;

/// `Signal`: a signal name and the id of the object that owns it (Godot 4 only).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::Signal")]
pub struct Signal {
    /// The signal's name.
    pub name: String,
    /// The owning object's instance id.
    pub object: u64,
}
