//! # godot_bin_files
//!
//! The Godot engine's files of Variants, read and written back byte for byte, on
//! [`godot_bin`]'s packets and text form:
//!
//! | File | Engine | Here |
//! |---|---|---|
//! | a save: `store_var` frames, plain, encrypted (`GDEC`) or compressed (`GCPF`) | `FileAccess.store_var`, `open_encrypted*`, `open_compressed` | [`save`] ([`save::Reader`], [`save::Writer`]) |
//! | `.cfg`, `project.godot`, `override.cfg` | `ConfigFile.save`, `save_encrypted_pass` | [`ConfigFile`] |
//! | `.tres`, `.tscn` | `ResourceSaver.save` of a resource or a `PackedScene` | [`TextResource`] |
//! | `.res`, `.scn` (`RSRC`, compressed `RSCC`) | the same, to a binary path | [`BinaryResource`] |
//! | a Godot 3 project, to Godot 4 | the editor's project converter | [`upgrade::project`] |
//! | `project.binary` (exported project settings, `ECFG`) | an export, `ProjectSettings.save_custom("*.binary")` | [`resource::ProjectBinary`] |
//! | `.pck` packs, alone or inside an executable, encrypted or not | `PCKPacker`, the editor's export, `ProjectSettings.load_resource_pack` | [`pack`] ([`pack::Pack`], [`pack::PackWriter`], [`pack::Patch`]) |
//!
//! ```
//! use godot_bin_files::save::{Key, Reader, Writer};
//! use godot_bin_files::ConfigFile;
//! use godot_bin::Config;
//!
//! // A save as `open_encrypted_with_pass` and `store_var` write it, and read back.
//! let key = Key::password("s3cret");
//! let mut w = Writer::encrypted(Vec::new(), &key, &Config::default())?;
//! w.write_value(&("Ada", 3))?;
//! let bytes = w.finish()?;
//! let mut r = Reader::with_key(&bytes[..], &key, &Config::default())?;
//! assert_eq!(r.read_value::<(String, i32)>()?, Some(("Ada".into(), 3)));
//!
//! // A ConfigFile edited in place: one line changes.
//! let mut cfg: ConfigFile = "[player]\nname=\"Ada\"\nlevel=3\n".parse()?;
//! cfg.set("player", "level", 4);
//! assert_eq!(cfg.to_string(), "[player]\nname=\"Ada\"\nlevel=4\n");
//! # Ok::<(), godot_bin_files::Error>(())
//! ```
//!
//! Every failure is an [`Error`]: a kind to match on ([`ErrorKind`]), where in the file
//! ([`Position`]) and, for a Variant inside, where in the value; its `Display` and `Debug`
//! read as one sentence. Nothing in a file is loaded, fetched or run: references to
//! other resources are data ([`resource::Reference`]).

#![deny(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// `cargo test --doc` runs README.md's Rust blocks as written (they are not part of the
// rendered docs: `doctest` is set only while rustdoc collects tests).
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

mod depth;
mod error;
mod fsio;
mod issue;
pub mod pack;
pub mod project;
mod renames;
pub mod resource;
pub mod save;
pub mod upgrade;

pub use error::{Error, ErrorKind, Position, Result};
pub use issue::{Issue, Location};
pub use resource::{BinaryResource, ConfigFile, TextResource};
