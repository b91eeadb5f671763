//! # godot_bin
//!
//! A serde data format for the Godot engine's binary Variant serialization: the bytes that
//! GDScript's `var_to_bytes` / `bytes_to_var` (`var2bytes` / `bytes2var` in Godot 3),
//! `FileAccess.store_var` / `get_var` and `StreamPeer` / `PacketPeer` `put_var` / `get_var`
//! write and read. Byte-exact with real engines: Godot 4.x (the default), Godot 3.x and
//! Pandemonium; Godot 2.1 and Pandemonium's older and newer type tables are dialects too.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use godot_bin::{NodePath, Variant, Vector3};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Player {
//!     name: String,
//!     hp: i32,
//!     pos: Vector3,
//!     path: NodePath,
//! }
//!
//! let player = Player {
//!     name: "Ada".into(),
//!     hp: 100,
//!     pos: Vector3::new(1.0, 2.0, 3.0),
//!     path: NodePath::from("../Enemy:position"),
//! };
//! let bytes = godot_bin::to_vec(&player)?; // what bytes_to_var reads
//! let back: Player = godot_bin::from_slice(&bytes)?;
//! assert_eq!(back, player);
//!
//! // When the shape is not known in advance:
//! let any: Variant = godot_bin::from_slice(&bytes)?;
//! assert_eq!(any.get("hp"), Some(&Variant::Int(100)));
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! ## How serde's data model maps to Variant types
//!
//! | Rust / serde | Variant packet |
//! |---|---|
//! | `bool` | BOOL |
//! | every integer type | INT: 32-bit when the value fits in `i32`, else 64-bit with the 64-bit flag; a `u64` (or `i128`/`u128`) outside `i64` is an error, never a wrap |
//! | `f32`, `f64` | FLOAT: 32-bit when the value survives a round trip through `f32` (0.5, INF), else 64-bit (0.1, NaN), as the engine decides |
//! | `char`, `&str`, `String` | STRING |
//! | `serde_bytes` bytes (`&[u8]`, `ByteBuf`) | PackedByteArray (a plain `Vec<u8>` is an Array of ints, as serde defines it) |
//! | `None`, `()`, unit struct | NIL |
//! | `Some(v)`, newtype struct | the content |
//! | seq, tuple, tuple struct (`Vec<T>`, `(A, B)`, `[T; N]`) | ARRAY |
//! | map (`HashMap`, `BTreeMap`) | DICTIONARY, keys of any type |
//! | struct | DICTIONARY with String field names as keys, in declaration order |
//! | unit enum variant | STRING of the variant's name |
//! | newtype, tuple and struct variants | a one-entry DICTIONARY `{name: content}` (serde's externally tagged form, as serde_json writes it) |
//! | [`Vector2`], [`Vector3`], [`Color`], [`NodePath`], [`PackedVector3Array`], ... | that builtin's own packet type |
//! | [`Variant`] | whatever it holds, byte for byte |
//!
//! Decoding is self-describing (`deserialize_any` works), so `#[serde(untagged)]`,
//! `#[serde(flatten)]`, `Option` and `HashMap<String, _>` work, and every builtin keeps its
//! type through them: where serde buffers a value, a builtin crosses as a one-entry map
//! under its private name (`{"$godot_bin::Vector3": [1.0, 2.0, 3.0]}`), which the builtins'
//! and [`Variant`]'s `Deserialize` recognise; in an internally tagged enum a struct-like
//! builtin travels as a Dictionary of the tag and the builtin under that name.
//! [`to_variant`] and [`from_variant`] convert without going through bytes. A struct decodes from a
//! Dictionary whose keys are String or StringName. An INT decodes into a narrower Rust
//! integer only when it fits; otherwise [`ErrorKind::NumberOutOfRange`] names the Rust type
//! and the value. An INT decodes into a float field; a FLOAT into an `f32` field is
//! rounded, as the engine's own `float` → `real_t` conversion rounds it.
//!
//! Through other serde formats (serde_json...) the builtin types serialize as ordinary
//! structs (`{"x":1.0,"y":2.0,"z":3.0}`) and sequences.
//!
//! ## Untagged enums
//!
//! serde tries the variants of a `#[serde(untagged)]` enum in order, on its buffered copy
//! of the value, and takes the first that accepts it; when none does it says only `data did
//! not match any variant of untagged enum U` (with godot_bin's path and byte offset), not
//! what was there. What was there is a Godot builtin, which the buffer keeps, and the usual
//! causes are two:
//! * **A builtin no variant takes.** GDScript's `&"name"` is a StringName and `^"a/b"` a
//!   NodePath: either decodes into a plain `String` field, but not under `untagged`, where
//!   only its own type (or a `Variant`) takes it. A Vector2 is no Vector3, an INT no
//!   `String`.
//! * **Order.** The first variant that accepts a value wins: `Part(f64)` before
//!   `Whole(i64)` takes every INT (an INT decodes into a float), so list the narrower
//!   type first.
//!
//! The working form lists the builtin's own type, and ends with a variant holding
//! [`Variant`], which takes anything: a value no other variant takes arrives there, and
//! [`Variant::get_type`] says what it was.
//!
//! ```
//! use godot_bin::{StringName, Variant, VariantType, Vector2, Vector3};
//! use serde::Deserialize;
//!
//! #[derive(Deserialize, Debug)]
//! #[serde(untagged)]
//! enum Target {
//!     At(Vector3),
//!     Named(String),
//! }
//! // The game sent `&"spawn"`, a StringName: no variant takes it.
//! let name = godot_bin::to_vec(&StringName::from("spawn"))?;
//! let err = godot_bin::from_slice::<Target>(&name).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "data did not match any variant of untagged enum Target at byte offset 16"
//! );
//!
//! #[derive(Deserialize, Debug, PartialEq)]
//! #[serde(untagged)]
//! enum Target2 {
//!     At(Vector3),
//!     Named(String),
//!     Node(StringName),
//!     Other(Variant),
//! }
//! assert_eq!(godot_bin::from_slice::<Target2>(&name)?, Target2::Node("spawn".into()));
//! let flat = godot_bin::to_vec(&Vector2::new(1.0, 2.0))?;
//! match godot_bin::from_slice::<Target2>(&flat)? {
//!     Target2::Other(v) => assert_eq!(v.get_type(), VariantType::Vector2), // say so
//!     other => panic!("{other:?}"),
//! }
//!
//! // Order: the narrower type first.
//! #[derive(Deserialize, Debug, PartialEq)]
//! #[serde(untagged)]
//! enum Amount {
//!     Whole(i64),
//!     Part(f64),
//! }
//! #[derive(Deserialize, Debug, PartialEq)]
//! #[serde(untagged)]
//! enum FloatFirst {
//!     Part(f64),
//!     Whole(i64),
//! }
//! let five = godot_bin::to_vec(&5)?;
//! assert_eq!(godot_bin::from_slice::<Amount>(&five)?, Amount::Whole(5));
//! assert_eq!(godot_bin::from_slice::<FloatFirst>(&five)?, FloatFirst::Part(5.0));
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! ## Dialects and options
//!
//! [`Config`] carries the [`Dialect`] and the options that change bytes:
//!
//! ```
//! use godot_bin::{Config, Dialect};
//! let godot3 = Config::new(Dialect::Godot3);
//! let bytes = godot3.to_vec(&godot_bin::Vector3::new(1.0, 2.0, 3.0))?;
//! assert_eq!(bytes[0], 7); // VECTOR3 is type 7 in Godot 3, 9 in Godot 4
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! A type the chosen dialect lacks (a `Vector2i` for Godot 3) is an error at encode time,
//! never written with another engine's id.
//!
//! ## Objects
//!
//! A null object is NIL. An object sent as its id decodes to [`ObjectId`] (or
//! `Variant::ObjectId`) always. A full object (class name and properties) decodes only
//! with [`Config::allow_objects`], as the engine's `bytes_to_var` refuses it otherwise;
//! decoding never instantiates anything.
//!
//! ## From a struct to a running server
//!
//! A Godot client sends with `StreamPeerTCP.put_var(value)`: a 4-byte length, then the
//! packet. [`framing`] reads and writes those frames over any `std::io` stream (the `tokio`
//! feature adds `codec::VariantCodec` for async servers):
//!
//! ```no_run
//! use godot_bin::framing::Framing;
//! use godot_bin::{Config, Vector3};
//! use serde::{Deserialize, Serialize};
//! use std::net::TcpListener;
//!
//! #[derive(Serialize, Deserialize)]
//! enum Msg {
//!     Login { name: String },
//!     Move(Vector3),
//!     Chat(String),
//! }
//!
//! // Config::new(Dialect::Godot3) for a Godot 3 game. At most 64 KiB a frame: a hostile
//! // length prefix fails before any allocation.
//! let framing = Framing::new(Config::default()).max_frame_len(64 << 10);
//! let listener = TcpListener::bind("127.0.0.1:4242")?;
//! for stream in listener.incoming() {
//!     let mut stream = stream?;
//!     while let Some(msg) = framing.read::<_, Msg>(&mut stream)? {
//!         let reply = match msg {
//!             Msg::Login { name } => format!("welcome, {name}"),
//!             Msg::Move(to) => format!("moved to {}, {}, {}", to.x, to.y, to.z),
//!             Msg::Chat(text) => text,
//!         };
//!         framing.write(&mut stream, &reply)?; // the client's get_var() reads it
//!     }
//! }
//! # Ok::<(), godot_bin::Error>(())
//! ```
//!
//! In GDScript the client sends `peer.put_var({"Move": Vector3(1, 2, 3)})` or
//! `peer.put_var({"Login": {"name": "Ada"}})`: externally tagged enums as serde_json writes
//! them. `PacketPeer.put_var` (UDP, ENet, WebSocket) sends bare packets: use
//! [`Config::from_slice`] on each packet.
//!
//! ## Text, tools and math libraries
//!
//! [`Variant`] prints in the engine's text form (`var_to_str`) and parses it back
//! ([`text`]); [`explain`] annotates a packet field by field; the `glam` and `mint`
//! features add conversions for the math types (`interop`).
//!
//! ## Beside this crate
//!
//! The same workspace publishes the rest of what sits around packets in games, each
//! crate versioned apart and built on this one's public API:
//! [`godot_bin_files`](https://docs.rs/godot_bin_files) (save files, resources, scenes and
//! ConfigFiles, read and written back byte for byte),
//! [`godot_bin_multiplayer`](https://docs.rs/godot_bin_multiplayer) (Godot 4's high-level
//! multiplayer: servers and bots for unmodified games) and
//! [`godot_bin_cli`](https://docs.rs/godot_bin_cli) (the `godot-bin` command).
//!
//! ## Errors
//!
//! Every failure is an [`Error`] whose [`kind`](Error::kind) can be matched and whose
//! [`offset`](Error::offset) is the byte where decoding failed, and whose
//! [`path`](Error::path) says where in the value (`players[3].hp`), from bytes or from
//! [`from_variant`] alike. serde's own complaints have kinds of their own
//! ([`ErrorKind::InvalidType`], [`ErrorKind::MissingField`], ...), and a text
//! [`ParseError`](text::ParseError) converts into an [`Error`], so `?` takes both into a
//! [`Result`]. Lengths are checked against the bytes left before anything is allocated.

// Two `unsafe` blocks, each allowed where it stands with its proof and tests:
// `builtin::give` (a value decoded whole, handed to a visitor of the same type) and
// `packet::text::engine_utf8` (bytes checked to be ASCII, read as a str).
#![deny(unsafe_code)]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly): every item gated on a feature carries its badge.
#![cfg_attr(docsrs, feature(doc_cfg))]
// `cargo test --doc` runs README.md's Rust blocks as written (they are not part of the
// rendered docs: `doctest` is set only while rustdoc collects tests).
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

mod builtin;
#[cfg(feature = "tokio")]
pub mod codec;
mod config;
mod de;
mod dialect;
mod error;
pub mod explain;
pub mod framing;
#[cfg(any(feature = "glam", feature = "mint"))]
pub mod interop;
mod packet;
mod ser;
pub mod text;
mod types;
mod variant;

pub use config::{Config, MAX_DEPTH};
pub use de::Deserializer;
pub use de::{from_reader, from_slice, take_from_slice};
pub use dialect::{Dialect, ParseDialectError, VariantType};
pub use error::{Error, ErrorKind, PathSegment, Position, Result};
pub use packet::grow_stack;
pub use ser::{to_vec, to_writer, Serializer};
pub use types::godot2::{Image, InputEvent};
pub use types::leaves::{Component, ComponentKind};
pub use types::math::{
    Aabb, Basis, Color, Plane, Projection, Quaternion, Real, Rect2, Rect2i, Transform2D,
    Transform3D, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i,
};
pub use types::names::{NodePath, StringName};
pub use types::object::{Callable, ObjectId, Rid, Signal};
pub use types::packed::{
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector2iArray,
    PackedVector3Array, PackedVector3iArray, PackedVector4Array, PackedVector4iArray,
};
pub use variant::{from_variant, to_variant};
pub use variant::{
    Array, Components, Dictionary, DictionaryKey, ElementType, GodotType, Object, TypedArray,
    Variant, VariantIndex,
};
