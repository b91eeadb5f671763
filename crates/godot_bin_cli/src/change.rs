//! What `set` did to a file, shared by its text and binary forms (`edit.rs`) and its
//! save files (`edit_save.rs`).

use godot_bin::Variant;

/// What `set` did: the file's new bytes, what it says on stderr.
pub(crate) struct Change {
    pub(crate) bytes: Vec<u8>,
    /// Where, for people: `[node name="Player"] position`, `[application] config/name`.
    pub(crate) label: String,
    /// The old value's text; `None` when the property or key is new.
    pub(crate) old: Option<String>,
    pub(crate) new: String,
    pub(crate) added: bool,
    /// Whether the value was already there, exactly (Dictionary order and float bits
    /// included): then nothing is written.
    pub(crate) same: bool,
    /// How the file was written: `1 line changed`, `binary resource written again`...
    pub(crate) how: String,
    pub(crate) note: Option<String>,
}

/// A note when the new value's type is not the old one's.
pub(crate) fn type_note(old: Option<godot_bin::VariantType>, new: &Variant) -> Option<String> {
    let old = old?;
    (old != new.get_type()).then(|| {
        format!(
            "the value was {old} and is now {}: check that the game expects that",
            new.get_type()
        )
    })
}
