//! Resources, scenes and ConfigFiles: the other forms the engine keeps Variants in on disk
//! (feature `resource`).
//!
//! | File | Engine | Here |
//! |---|---|---|
//! | `.cfg`, `project.godot`, `override.cfg` | `ConfigFile.save`, `save_encrypted_pass` | [`ConfigFile`] |
//! | `.tres`, `.tscn` | `ResourceSaver.save` of a resource or a `PackedScene` | [`TextResource`] |
//!
//! Every reader keeps what the engine keeps, and the text it read: writing a file that was
//! read and not changed gives it back byte for byte, and a changed value changes only its
//! own text. References to other resources are [`Reference`]s, kept as data: nothing in a
//! file is loaded, fetched or run.
//!
//! Each format is described in the module that reads it: ConfigFile in `config.rs`, text
//! resources and scenes in `text.rs`, the text grammar both text forms share in
//! `syntax.rs`, how the engines read a float's text in `strtod.rs`
//! (`cargo doc --document-private-items`).

mod config;
mod document;
mod error;
mod numbers;
mod reference;
mod section;
mod strtod;
mod syntax;
mod text;

pub use config::ConfigFile;
pub use document::{Property, Section};
pub use error::{Position, ResourceError, ResourceErrorKind, Result};
pub use reference::Reference;
pub use text::TextResource;
