//! Resources, scenes and ConfigFiles: the other forms the engine keeps Variants in on disk.
//!
//! | File | Engine | Here |
//! |---|---|---|
//! | `.cfg`, `project.godot`, `override.cfg` | `ConfigFile.save`, `save_encrypted_pass` | [`ConfigFile`] |
//! | `.tres`, `.tscn` | `ResourceSaver.save` of a resource or a `PackedScene` | [`TextResource`] |
//! | `.res`, `.scn` (`RSRC`, compressed `RSCC`) | the same, to a binary path (`FLAG_COMPRESS`) | [`BinaryResource`] |
//!
//! Every reader keeps what the engine keeps, and the bytes it read: writing a file that
//! was read and not changed gives it back byte for byte (text and binary, plain,
//! compressed or encrypted), and a changed value changes only its own text or bytes.
//! References to other resources are [`Reference`]s, kept as data: nothing in a file is
//! loaded, fetched or run.
//!
//! ```
//! use godot_bin_files::resource::TextResource;
//! use godot_bin::Variant;
//!
//! // A game's save, as `ResourceSaver.save(save, "user://save.tres")` writes it.
//! let text = "[gd_resource type=\"Resource\" load_steps=2 format=3]\n\n\
//!             [ext_resource type=\"Script\" path=\"res://save.gd\" id=\"1_k2x4b\"]\n\n\
//!             [resource]\nscript = ExtResource(\"1_k2x4b\")\ngold = 120\nlevel = 3\n";
//! let mut save: TextResource = text.parse()?;
//! save.resource_mut().unwrap()["gold"] = 9999.into();
//! assert_eq!(save.to_string(), text.replace("gold = 120", "gold = 9999"));
//!
//! // The same save as a binary resource, and back.
//! let res = save.to_binary()?.file;
//! let bytes = res.to_bytes()?;
//! let again = godot_bin_files::resource::BinaryResource::from_bytes(&bytes)?;
//! assert_eq!(again.resource()["gold"], Variant::Int(9999));
//! # Ok::<(), godot_bin_files::Error>(())
//! ```
//!
//! serde works on a section's properties ([`TextResource::resource_as`],
//! [`TextResource::node_as`], [`BinaryResource::resource_as`], [`ConfigFile::section_as`]
//! and their setters), with the rules of [`godot_bin::from_variant`] / [`godot_bin::to_variant`]:
//! a property is a field (`#[serde(rename = "metadata/gold")]` for metadata), a reference a
//! [`Reference`] field.
//!
//! # Conversions
//!
//! [`TextResource::to_binary`] and [`BinaryResource::to_text`] convert resources and scenes
//! between the two forms, [`TextResource::to_godot4`] a Godot 3 text file to Godot 4, and
//! [`ConfigFile::from_encrypted`] / [`ConfigFile::to_encrypted`] a ConfigFile between plain
//! and encrypted. Each conversion returns what it could not carry over exactly
//! ([`Converted::issues`]). What no file holds, and so no converter can know:
//!
//! * which properties a class stores and their defaults: the engine leaves a property
//!   equal to its default out of a file, and its binary string table names every stored
//!   property of the class; a converted binary file lists only the names it uses (the
//!   engine loads it to the same content). Give the engine's table with
//!   [`BinaryResource::strings_mut`] (from an engine-made file of the same classes), and a
//!   property the engine stores at its default with [`Properties::set`] (the binary saver
//!   stores a null `script`, the text saver leaves it out);
//! * the ids the engine would draw: external resources are numbered `"1"`, `"2"`... in
//!   table order, a binary file's main resource gets an id made from a hash (the engine
//!   draws from the clock); the ids of sub-resources carry over. Give others with
//!   [`Section::set_attr`] (`id`, `uid` in a text file's tags) or
//!   [`BinaryResource::sub_resources_mut`] / [`Header::uid`];
//! * floats: a binary file holds the exact value, the engine's text saver 6 digits; text
//!   written here holds the exact value (the shortest text the engine reads back to it);
//! * a typed Array's element type, which Godot 4.4's binary files do not store (the engine
//!   retypes the Array when it assigns it to a typed property), and an object that is not
//!   a resource, which binary files store as null.
//!
//! # The formats
//!
//! Each format is described in the module that reads it (`cargo doc
//! --document-private-items`): ConfigFile in `config.rs`, text resources and scenes in
//! `text.rs` and the grammar both text forms share in `syntax.rs`, binary resources in
//! `binary/mod.rs` and their values in `binary/value.rs`, a scene's nodes as a binary file
//! bundles them in `scene.rs`, how the engines read and print a float's text in
//! `strtod.rs` and `numbers.rs`.

mod binary;
mod config;
mod convert;
mod document;
mod godot4;
mod godot4_project;
mod lex;
mod numbers;
mod project_binary;
mod reference;
mod scene;
mod section;
mod strtod;
mod syntax;
mod text;
mod versions;

pub use crate::issue::Issue;
pub use binary::{
    uid_from_text, uid_to_text, BinaryResource, ExtResource, Header, SubResource,
    FLAG_HAS_SCRIPT_CLASS, FLAG_NAMED_SCENE_IDS, FLAG_REAL_T_IS_DOUBLE, FLAG_UIDS, INVALID_UID,
};
pub use config::ConfigFile;
pub use convert::Converted;
pub use document::{Properties, Property, Section};
pub use godot4::Godot3Classes;
pub use project_binary::ProjectBinary;
pub use reference::Reference;
pub use text::TextResource;
pub use versions::EngineVersion;
