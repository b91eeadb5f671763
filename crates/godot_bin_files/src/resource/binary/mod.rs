//! [`BinaryResource`]: binary resources and scenes (`.res`, `.scn`), plain (`RSRC`) or
//! compressed (`RSCC`), as Godot 4 (format 4 to 6) and Godot 3 (format 1 to 3) write them.
//!
//! # The format
//!
//! Little-endian unless the first word says otherwise (`ResourceFormatSaverBinaryInstance`):
//!
//! ```text
//! "RSRC"                           (absent in a compressed file: see below)
//! u32 big_endian, u32 use_real64   (1, 1 in a double build's Godot 3 file)
//! u32 version major, minor         (4, 4 for Godot 4.4; 3, 2 for Godot 3.2)
//! u32 format                       (6 for Godot 4.3+, 5 for 4.0-4.2, 3 for Godot 3)
//! string class                     (u32 length with the NUL, UTF-8, NUL)
//! u64 import metadata offset       (0)
//! u32 flags                        (Godot 4: 1 named scene ids, 2 uids, 4 real_t is
//!                                   double, 8 script class; Godot 3: 0)
//! u64 uid                          (Godot 4: the resource's uid or -1; Godot 3: 0)
//! [string script class]            (flag 8)
//! 11 × u32 reserved
//! u32 count, strings               the string table: property names and NodePath names
//! u32 count, externals             each: string class, string path, [u64 uid] (flag 2)
//! u32 count, internals             each: string path ("local://<id>"), u64 offset
//! resources, at their offsets      each: string class, u32 count, (u32 name, value)...
//! "RSRC"
//! ```
//!
//! The last internal resource is the main one. Each value is in the binary resource's own
//! encoding ([`value`]). Godot 3 writes the same layout with no flags or uid (its 14
//! reserved words are Godot 4's flags, uid and 11 reserved words) and ids that are
//! numbers (`local://1`).
//!
//! A compressed file (`ResourceSaver.FLAG_COMPRESS`) is the same bytes without the
//! leading magic, in the `GCPF` container of [`crate::save`] under the magic `RSCC` (at
//! both ends) instead: Zstandard blocks of 4096 bytes. Offsets then count from the start
//! of the uncompressed content.
//!
//! The engine's string table lists the names of every stored property of each class,
//! written or not (a property equal to its default is left out, but its name is in the
//! table), and NodePath names in the order it met them. A file read here keeps its table,
//! so it is written back byte for byte; a name it lacks is added at the end. A file made
//! from other data (a text resource) has the names it uses, in the order it uses them:
//! the engine loads it to the same content, but its own file of that resource would list
//! names this crate cannot know (the class's property list is not in any file).

mod io;
mod packed;
pub(crate) mod value;

use super::document::{Form, Properties, Property};
use super::reference::Reference;
use super::versions::EngineVersion;
use crate::error::{Error, ErrorKind, Result};
use crate::fsio;
use crate::save::Compression;
use godot_bin::Dialect;
use io::{Input, Output};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;
use value::{Tables, WriteTables};

const MAGIC: &[u8; 4] = b"RSRC";
const MAGIC_COMPRESSED: &[u8; 4] = b"RSCC";
/// The first format whose NodePaths have no separate property name (Godot 3.0's files,
/// format 2, store it after the subnames, and the engine reads it as one more).
const FORMAT_NO_NODEPATH_PROPERTY: u32 = 3;
/// Flag: internal resources have string ids (`local://Class_abcde`).
pub const FLAG_NAMED_SCENE_IDS: u32 = 1;
/// Flag: the file and its external resources carry uids.
pub const FLAG_UIDS: u32 = 2;
/// Flag: math components are doubles.
pub const FLAG_REAL_T_IS_DOUBLE: u32 = 4;
/// Flag: the header names the script's global class.
pub const FLAG_HAS_SCRIPT_CLASS: u32 = 8;
/// The uid of a resource that has none.
pub const INVALID_UID: u64 = u64::MAX;

/// A binary resource's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The file is big-endian.
    pub big_endian: bool,
    /// The `use_real64` word (a Godot 3 double build's file).
    pub real64: u32,
    /// The engine version that wrote it: (4, 4), (3, 2)...
    pub version: (u32, u32),
    /// The format version (6 for Godot 4.3+, 3 for Godot 3).
    pub format: u32,
    /// The main resource's class.
    pub class: String,
    /// Offset of the import metadata (0 in files the saver writes).
    pub import_metadata_offset: u64,
    /// Godot 4's flags ([`FLAG_NAMED_SCENE_IDS`]...).
    pub flags: u32,
    /// The uid ([`INVALID_UID`] for none; 0 in Godot 3 files).
    pub uid: u64,
    /// The script's global class name (flag [`FLAG_HAS_SCRIPT_CLASS`]).
    pub script_class: Option<String>,
    /// The reserved words after it.
    pub reserved: [u32; 11],
}

/// An external resource: an entry of the file's table of other files it uses, which values
/// name as `ExtResource("<index + 1>")` (the `[ext_resource]` of a text file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExtResource {
    /// The resource's class.
    pub type_name: String,
    /// Its path (`res://...`).
    pub path: String,
    /// Its uid, when the file has uids ([`INVALID_UID`] for none).
    pub uid: Option<u64>,
}

/// A resource stored in the file: a sub-resource (a text file's `[sub_resource]`), or the
/// main resource (its `[resource]`), which the binary format stores the same way, last.
#[derive(Clone, Debug, PartialEq)]
pub struct SubResource {
    path: String,
    type_name: String,
    pub(crate) properties: Properties,
}

impl SubResource {
    /// A new resource of class `type_name`, with path `local://<id>`.
    pub fn new(id: &str, type_name: &str) -> SubResource {
        SubResource {
            path: format!("local://{id}"),
            type_name: type_name.into(),
            properties: Properties::new(Form::Binary),
        }
    }

    /// Its path in the table (`local://<id>`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Its id: the path after `local://` (`SubResource(id)` refers to it).
    pub fn id(&self) -> &str {
        self.path.strip_prefix("local://").unwrap_or(&self.path)
    }

    /// Its class.
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// Its stored properties, in order (the same type as a text section's).
    pub fn properties(&self) -> &Properties {
        &self.properties
    }

    /// Its stored properties, to change, add or remove.
    pub fn properties_mut(&mut self) -> &mut Properties {
        &mut self.properties
    }
}

/// A binary resource or scene (`.res`, `.scn`), plain or compressed.
///
/// Reading then writing gives the engine's file back byte for byte (compressed ones too,
/// with the Zstandard this crate links, as in [`crate::save::compress`]).
///
/// ```
/// use godot_bin_files::resource::BinaryResource;
/// use godot_bin::{Dialect, Variant};
///
/// #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
/// struct Save { gold: i32, name: String }
///
/// let res = BinaryResource::from_struct("Resource", &Save { gold: 5, name: "Ada".into() }, Dialect::Godot4)?;
/// let bytes = res.to_bytes()?;
/// assert_eq!(&bytes[..4], b"RSRC");
/// let back = BinaryResource::from_bytes(&bytes)?;
/// assert_eq!(back.resource()["gold"], Variant::Int(5));
/// assert_eq!(back.resource_as::<Save>()?, Save { gold: 5, name: "Ada".into() });
/// assert_eq!(back.to_bytes()?, bytes);
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryResource {
    header: Header,
    strings: Vec<String>,
    ext_resources: Vec<ExtResource>,
    /// The sub-resources, then the main resource (last, as the file stores them).
    resources: Vec<SubResource>,
    compression: Option<packed::Packed>,
    /// Every int stored as 64 bits, as the file was read: the saver of Godot 3.0 and 3.1
    /// compares with `-0x80000000`, an unsigned constant, so every int passes as too wide
    /// (their files hold `0` as an INT64). Written back the same way.
    wide_ints: bool,
}

fn unsupported(msg: String) -> Error {
    Error::new(ErrorKind::Unsupported(msg))
}

impl BinaryResource {
    /// A new resource of class `class`, with an empty main resource, as `dialect`'s engine
    /// writes one (Godot 4.4: format 6, named ids and uids; Godot 3.2: format 3).
    pub fn new_resource(class: &str, dialect: Dialect) -> BinaryResource {
        let godot4 = dialect == Dialect::Godot4;
        let header = Header {
            big_endian: false,
            real64: 0,
            version: if godot4 { (4, 4) } else { (3, 2) },
            format: if godot4 { 6 } else { 3 },
            class: class.into(),
            import_metadata_offset: 0,
            flags: if godot4 {
                FLAG_NAMED_SCENE_IDS | FLAG_UIDS
            } else {
                0
            },
            uid: if godot4 { INVALID_UID } else { 0 },
            script_class: None,
            reserved: [0; 11],
        };
        let main_id = if godot4 {
            format!("{class}_{}", super::text::short_id(&[class, "main"], 0))
        } else {
            "1".into()
        };
        BinaryResource {
            header,
            strings: Vec::new(),
            ext_resources: Vec::new(),
            resources: vec![SubResource::new(&main_id, class)],
            compression: None,
            wide_ints: false,
        }
    }

    /// A new resource of class `class` whose main resource's properties are the fields of
    /// `value` (serde, as [`godot_bin::to_variant`]).
    pub fn from_struct<T: Serialize + ?Sized>(
        class: &str,
        value: &T,
        dialect: Dialect,
    ) -> Result<BinaryResource> {
        let mut res = BinaryResource::new_resource(class, dialect);
        res.set_resource(value)?;
        Ok(res)
    }

    /// Reads a `.res` / `.scn` (`RSRC` or `RSCC`).
    pub fn from_bytes(bytes: &[u8]) -> Result<BinaryResource> {
        match bytes.get(..4) {
            Some(m) if m == MAGIC => read(&bytes[4..], 4, None),
            Some(m) if m == MAGIC_COMPRESSED => {
                let (content, packed) = packed::unpack(bytes)?;
                read(&content, 0, Some(packed))
            }
            _ => Err(Error::corrupt("not a binary resource: no RSRC or RSCC magic").at_byte(0)),
        }
    }

    /// Reads the `.res` / `.scn` at `path`; an error names the file.
    pub fn load(path: impl AsRef<Path>) -> Result<BinaryResource> {
        fsio::load(path.as_ref(), BinaryResource::from_bytes)
    }

    /// Writes the file to `path` ([`to_bytes`](Self::to_bytes)), through a temporary file
    /// beside it, so a failure leaves the old file whole.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = path.as_ref();
        let bytes = self.to_bytes().map_err(|e| e.in_file(path))?;
        fsio::write_atomic(path, &bytes)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The header, to change.
    pub fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }

    /// Which engine wrote it: `Godot4` (version 4) or `Godot3`.
    pub fn dialect(&self) -> Dialect {
        if self.header.version.0 >= 4 {
            Dialect::Godot4
        } else {
            Dialect::Godot3
        }
    }

    /// The engine version the header records (e.g. 4.6), whose facts conversions follow.
    pub fn engine(&self) -> EngineVersion {
        EngineVersion::new(self.header.version.0, self.header.version.1)
    }

    /// Whether this is a scene (its main resource a `PackedScene`).
    pub fn is_scene(&self) -> bool {
        self.header.class == "PackedScene"
    }

    /// The compression of an `RSCC` file (`None` for `RSRC`).
    pub fn compression(&self) -> Option<Compression> {
        self.compression.as_ref().map(|p| p.mode)
    }

    /// Writes the file compressed (`Some`, as `FLAG_COMPRESS` does with Zstandard) or
    /// not.
    pub fn set_compression(&mut self, compression: Option<Compression>) {
        if self.compression() != compression {
            self.compression = compression.map(packed::Packed::new);
        }
    }

    /// The string table.
    pub fn strings(&self) -> &[String] {
        &self.strings
    }

    /// The string table, to give it what the file does not hold: the engine's table names
    /// every stored property of each class (written or not), in the order it met them.
    /// Copy it from an engine-made file of the same classes to write the engine's bytes
    /// for a converted or built resource. A name a value needs that the table lacks is
    /// added at the end when the file is written; names no value uses are kept.
    pub fn strings_mut(&mut self) -> &mut Vec<String> {
        &mut self.strings
    }

    /// The external resources, in table order (`ExtResource("1")` is the first).
    pub fn ext_resources(&self) -> &[ExtResource] {
        &self.ext_resources
    }

    /// The external resources, to change (an entry's place is its id: remove one and the
    /// ids after it move).
    pub fn ext_resources_mut(&mut self) -> &mut Vec<ExtResource> {
        &mut self.ext_resources
    }

    /// The external resource that values name `ExtResource(id)` (`"1"` for the first).
    pub fn ext_resource(&self, id: &str) -> Option<&ExtResource> {
        let k = id.parse::<usize>().ok()?.checked_sub(1)?;
        self.ext_resources.get(k)
    }

    /// Adds an external resource after the others and returns the id values use for it
    /// (`ExtResource(id)`), as [`TextResource::add_ext_resource`](super::TextResource::add_ext_resource)
    /// does. `uid` (`uid://...`) is kept when the file has uids ([`FLAG_UIDS`]); one that
    /// does not parse is stored as [`INVALID_UID`].
    pub fn add_ext_resource(&mut self, type_name: &str, path: &str, uid: Option<&str>) -> String {
        let uid = (self.header.flags & FLAG_UIDS != 0)
            .then(|| uid.and_then(uid_from_text).unwrap_or(INVALID_UID));
        self.ext_resources.push(ExtResource {
            type_name: type_name.into(),
            path: path.into(),
            uid,
        });
        self.ext_resources.len().to_string()
    }

    /// The sub-resources, in table order (every stored resource but the main one).
    pub fn sub_resources(&self) -> &[SubResource] {
        let n = self.resources.len().saturating_sub(1);
        &self.resources[..n]
    }

    /// The sub-resources, to change.
    pub fn sub_resources_mut(&mut self) -> &mut [SubResource] {
        let n = self.resources.len().saturating_sub(1);
        &mut self.resources[..n]
    }

    /// The sub-resource that values name `SubResource(id)`.
    pub fn sub_resource(&self, id: &str) -> Option<&SubResource> {
        self.sub_resources().iter().find(|r| r.id() == id)
    }

    /// The sub-resource with this id, to change.
    pub fn sub_resource_mut(&mut self, id: &str) -> Option<&mut SubResource> {
        self.sub_resources_mut().iter_mut().find(|r| r.id() == id)
    }

    /// The stored resources, the main one last (crate-internal: conversions build them).
    pub(crate) fn resources_mut(&mut self) -> &mut Vec<SubResource> {
        &mut self.resources
    }

    /// Adds a sub-resource after the others (before the main one) and returns its id
    /// (`SubResource(id)`): `Class_xxxxx` in a file with named ids, else the next number.
    pub fn add_sub_resource(&mut self, type_name: &str) -> String {
        let named = self.header.flags & FLAG_NAMED_SCENE_IDS != 0;
        let id = if named {
            let mut k = self.resources.len() as u32;
            loop {
                let id = format!("{type_name}_{}", super::text::short_id(&[type_name], k));
                if self.resources.iter().all(|r| r.id() != id) {
                    break id;
                }
                k += 1;
            }
        } else {
            let max = self
                .resources
                .iter()
                .filter_map(|r| r.id().parse::<u64>().ok())
                .max()
                .unwrap_or(0);
            (max + 1).to_string()
        };
        let at = self.resources.len().saturating_sub(1);
        self.resources.insert(at, SubResource::new(&id, type_name));
        id
    }

    /// The main resource (stored last).
    pub fn resource(&self) -> &SubResource {
        self.resources
            .last()
            .expect("a binary resource has a main resource")
    }

    /// The main resource, to change.
    pub fn resource_mut(&mut self) -> &mut SubResource {
        self.resources
            .last_mut()
            .expect("a binary resource has a main resource")
    }

    /// The main resource's properties as a `Deserialize` type.
    pub fn resource_as<T: DeserializeOwned>(&self) -> Result<T> {
        self.resource().properties.to_struct()
    }

    /// Sets the fields of `value` as the main resource's properties.
    pub fn set_resource<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.resource_mut().properties.set_struct(value)
    }

    /// Checks every reference: each `ExtResource` names an entry of the external table,
    /// each `SubResource` an internal resource before the one that uses it (the engine
    /// loads them in order): [`ErrorKind::UnknownReference`], or
    /// [`ErrorKind::ReferenceCycle`] when the resources refer to one another in a
    /// ring.
    pub fn check_references(&self) -> Result<()> {
        let ids: Vec<&str> = self.resources.iter().map(SubResource::id).collect();
        for (k, r) in self.resources.iter().enumerate() {
            let mut refs = Vec::new();
            for p in &r.properties {
                let (_, v) = (p.name(), p.value());
                crate::resource::reference::collect_references(v, &mut refs);
            }
            for reference in refs {
                match &reference {
                    Reference::External(id) => {
                        let ok = id
                            .parse::<usize>()
                            .is_ok_and(|i| (1..=self.ext_resources.len()).contains(&i));
                        if !ok {
                            return Err(ErrorKind::UnknownReference(format!(
                                "{reference}: the external table has {} entries",
                                self.ext_resources.len()
                            ))
                            .into());
                        }
                    }
                    Reference::Sub(id) => match ids.iter().position(|x| x == id) {
                        None => {
                            return Err(ErrorKind::UnknownReference(format!(
                                "{reference}: no internal resource has that id"
                            ))
                            .into())
                        }
                        Some(j) if j >= k => {
                            let cycle = self.reaches(j, k);
                            let msg = format!("{} uses {reference}", r.id());
                            return Err(if cycle {
                                ErrorKind::ReferenceCycle(msg)
                            } else {
                                ErrorKind::UnknownReference(format!("{msg}, defined after it"))
                            }
                            .into());
                        }
                        Some(_) => {}
                    },
                    Reference::Path(_) => {}
                }
            }
        }
        Ok(())
    }

    /// Whether internal resource `from` refers (through others) to `target`.
    fn reaches(&self, from: usize, target: usize) -> bool {
        let mut seen = vec![false; self.resources.len()];
        let mut stack = vec![from];
        while let Some(k) = stack.pop() {
            if k == target {
                return true;
            }
            if std::mem::replace(&mut seen[k], true) {
                continue;
            }
            let mut refs = Vec::new();
            for p in &self.resources[k].properties {
                let (_, v) = (p.name(), p.value());
                crate::resource::reference::collect_references(v, &mut refs);
            }
            for r in refs {
                if let Reference::Sub(id) = r {
                    if let Some(j) = self.resources.iter().position(|x| x.id() == id) {
                        stack.push(j);
                    }
                }
            }
        }
        false
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        // Names a value needs that the table lacks go at its end: found with a first
        // pass, so that the table (written first) is complete.
        let mut strings = self.strings.clone();
        self.write_resources(
            &mut strings,
            &mut Output {
                bytes: Vec::new(),
                big_endian: self.header.big_endian,
                real64: self.real64(),
                nul: false,
            },
        )?;
        let mut out = Output {
            bytes: Vec::new(),
            big_endian: false,
            real64: self.real64(),
            nul: false,
        };
        if self.compression.is_none() {
            out.bytes.extend_from_slice(MAGIC);
        }
        let h = &self.header;
        out.u32(u32::from(h.big_endian));
        out.big_endian = h.big_endian;
        out.u32(h.real64);
        out.u32(h.version.0);
        out.u32(h.version.1);
        out.u32(h.format);
        out.string(&h.class);
        out.u64(h.import_metadata_offset);
        out.u32(h.flags);
        out.u64(h.uid);
        if h.flags & FLAG_HAS_SCRIPT_CLASS != 0 {
            out.string(h.script_class.as_deref().unwrap_or(""));
        }
        for w in h.reserved {
            out.u32(w);
        }
        out.u32(strings.len() as u32);
        for s in &strings {
            out.string(s);
        }
        out.u32(self.ext_resources.len() as u32);
        for e in &self.ext_resources {
            out.string(&e.type_name);
            out.string(&e.path);
            if h.flags & FLAG_UIDS != 0 {
                out.u64(e.uid.unwrap_or(INVALID_UID));
            }
        }
        out.u32(self.resources.len() as u32);
        let mut slots = Vec::with_capacity(self.resources.len());
        for r in &self.resources {
            out.string(&r.path);
            slots.push(out.bytes.len());
            out.u64(0);
        }
        let offsets = self.write_resources(&mut strings, &mut out)?;
        // Positions in `out` are file positions (after the magic), or content positions in a
        // compressed file, which has none: what the offsets count in both.
        for (slot, at) in slots.into_iter().zip(offsets) {
            let at = at as u64;
            let word = if h.big_endian {
                at.to_be_bytes()
            } else {
                at.to_le_bytes()
            };
            out.bytes[slot..slot + 8].copy_from_slice(&word);
        }
        out.bytes.extend_from_slice(MAGIC);
        if out.nul {
            return Err(Error::unwritable(
                "a string holds a NUL character, where the binary form ends a string",
            ));
        }
        match &self.compression {
            None => Ok(out.bytes),
            Some(packed) => packed::pack(&out.bytes, packed),
        }
    }

    fn real64(&self) -> bool {
        self.header.flags & FLAG_REAL_T_IS_DOUBLE != 0 || self.header.real64 != 0
    }

    /// Writes each internal resource; returns where each starts in `out`.
    fn write_resources(&self, strings: &mut Vec<String>, out: &mut Output) -> Result<Vec<usize>> {
        let ids: Vec<String> = self.resources.iter().map(|r| r.id().to_string()).collect();
        let mut tables = WriteTables {
            strings,
            internal_ids: &ids,
            named_ids: self.header.flags & FLAG_NAMED_SCENE_IDS != 0,
            godot4: self.header.version.0 >= 4,
            nodepath_property: self.header.format < FORMAT_NO_NODEPATH_PROPERTY,
            wide_ints: self.wide_ints,
        };
        let mut offsets = Vec::with_capacity(self.resources.len());
        for r in &self.resources {
            offsets.push(out.bytes.len());
            out.string(&r.type_name);
            out.u32(r.properties.len() as u32);
            for p in &r.properties {
                let (name, v) = (p.name(), p.value());
                let i = tables.index(name);
                out.u32(i);
                value::write(out, v, &mut tables, 0)?;
            }
        }
        Ok(offsets)
    }
}

/// Reads the content after the magic; `base` is where it starts in the file (offsets
/// count from the file's start).
fn read(
    content: &[u8],
    base: usize,
    compression: Option<packed::Packed>,
) -> Result<BinaryResource> {
    let compressed = compression.is_some();
    let at = |e: Error| match e.position() {
        Some(crate::error::Position::Byte(p)) if compressed => {
            Error::new(strip(e.kind())).at(crate::error::Position::Uncompressed(p + base))
        }
        Some(crate::error::Position::Byte(p)) => Error::new(strip(e.kind())).at_byte(p + base),
        _ => e,
    };
    read_content(content, base, compression).map_err(at)
}

fn strip(k: &ErrorKind) -> ErrorKind {
    match k {
        ErrorKind::Corrupt(m) => ErrorKind::Corrupt(m.clone()),
        ErrorKind::UnexpectedEof => ErrorKind::UnexpectedEof,
        ErrorKind::UnknownReference(m) => ErrorKind::UnknownReference(m.clone()),
        ErrorKind::DepthExceeded(d) => ErrorKind::DepthExceeded(*d),
        ErrorKind::Unsupported(m) => ErrorKind::Unsupported(m.clone()),
        other => ErrorKind::Corrupt(other.to_string()),
    }
}

fn read_content(
    content: &[u8],
    base: usize,
    compression: Option<packed::Packed>,
) -> Result<BinaryResource> {
    let mut input = Input::new(content);
    let big_endian = input.u32()?;
    if big_endian > 1 {
        return Err(Error::corrupt(format!("big-endian word {big_endian}")).at_byte(0));
    }
    input.big_endian = big_endian == 1;
    let real64 = input.u32()?;
    let version = (input.u32()?, input.u32()?);
    let format = input.u32()?;
    if !(2..=4).contains(&version.0) || !(1..=6).contains(&format) {
        return Err(unsupported(format!(
            "engine version {}.{} format {format} (this crate reads Godot 3 and 4's formats 1 to 6)",
            version.0, version.1
        ))
        .at_byte(8));
    }
    let class = input.string()?;
    let import_metadata_offset = input.u64()?;
    let flags = input.u32()?;
    let uid = input.u64()?;
    let script_class = if flags & FLAG_HAS_SCRIPT_CLASS != 0 {
        Some(input.string()?)
    } else {
        None
    };
    let mut reserved = [0u32; 11];
    for w in &mut reserved {
        *w = input.u32()?;
    }
    input.real64 = flags & FLAG_REAL_T_IS_DOUBLE != 0 || real64 != 0;
    let n = input.u32()? as usize;
    input.check_count(n, 4, "the string table")?;
    let mut strings = Vec::with_capacity(n);
    for _ in 0..n {
        strings.push(input.string()?);
    }
    let n = input.u32()? as usize;
    input.check_count(n, 8, "the external resource table")?;
    let mut externals = Vec::with_capacity(n);
    for _ in 0..n {
        let type_name = input.string()?;
        let path = input.string()?;
        let uid = if flags & FLAG_UIDS != 0 {
            Some(input.u64()?)
        } else {
            None
        };
        externals.push(ExtResource {
            type_name,
            path,
            uid,
        });
    }
    let n = input.u32()? as usize;
    input.check_count(n, 12, "the internal resource table")?;
    if n == 0 {
        return Err(
            Error::corrupt("no internal resource: a file holds at least its main one")
                .at_byte(input.pos),
        );
    }
    let mut table = Vec::with_capacity(n);
    for _ in 0..n {
        let path = input.string()?;
        let at = input.pos;
        let offset = input.u64()?;
        let offset = usize::try_from(offset)
            .ok()
            .and_then(|o| o.checked_sub(base))
            .filter(|&o| o < content.len())
            .ok_or_else(|| {
                Error::corrupt(format!(
                    "internal resource {path:?} at offset {offset}, past the file's end"
                ))
                .at_byte(at)
            })?;
        table.push((path, offset));
    }
    let internal_ids: Vec<String> = table
        .iter()
        .map(|(p, _)| p.strip_prefix("local://").unwrap_or(p).to_string())
        .collect();
    let tables = Tables {
        strings: &strings,
        internal_ids: &internal_ids,
        named_ids: flags & FLAG_NAMED_SCENE_IDS != 0,
        godot4: version.0 >= 4,
        nodepath_property: format < FORMAT_NO_NODEPATH_PROPERTY,
        wide_ints: std::cell::Cell::new(false),
    };
    let mut internals = Vec::with_capacity(table.len());
    for (path, offset) in table {
        input.pos = offset;
        let type_name = input.string()?;
        let count = input.u32()? as usize;
        input.check_count(count, 8, "a resource's properties")?;
        let mut properties = Properties::new(Form::Binary);
        properties.items.reserve(count);
        for _ in 0..count {
            let at = input.pos;
            let name = input.u32()? as usize;
            let name = strings.get(name).cloned().ok_or_else(|| {
                Error::corrupt(format!(
                    "property name {name} past the string table's {} entries",
                    strings.len()
                ))
                .at_byte(at)
            })?;
            let v = value::read(&mut input, &tables, 0)?;
            properties
                .items
                .push(Property::fresh(&name, v, String::new()));
        }
        internals.push(SubResource {
            path,
            type_name,
            properties,
        });
    }
    let wide_ints = tables.wide_ints.get();
    Ok(BinaryResource {
        header: Header {
            big_endian: big_endian == 1,
            real64,
            version,
            format,
            class,
            import_metadata_offset,
            flags,
            uid,
            script_class,
            reserved,
        },
        strings,
        ext_resources: externals,
        resources: internals,
        compression,
        wide_ints,
    })
}

/// A uid's text, as `ResourceUID::id_to_text` writes it: `uid://` and the id in base 34
/// (`a`..`y`, `0`..`8`), most significant digit first.
pub fn uid_to_text(uid: u64) -> String {
    if uid > i64::MAX as u64 {
        return "uid://<invalid>".into();
    }
    let mut digits = Vec::new();
    let mut n = uid;
    while n > 0 {
        let c = (n % 34) as u8;
        digits.push(if c < 25 { b'a' + c } else { b'0' + (c - 25) });
        n /= 34;
    }
    digits.reverse();
    format!("uid://{}", String::from_utf8(digits).expect("ASCII"))
}

/// A uid from its text (`uid://...`), as `ResourceUID::text_to_id` reads it.
pub fn uid_from_text(text: &str) -> Option<u64> {
    let digits = text.strip_prefix("uid://")?;
    if digits == "<invalid>" {
        return Some(INVALID_UID);
    }
    let mut n: u64 = 0;
    for c in digits.bytes() {
        let d = match c {
            b'a'..=b'y' => c - b'a',
            b'0'..=b'8' => c - b'0' + 25,
            _ => return None,
        };
        n = n.checked_mul(34)?.checked_add(u64::from(d))?;
    }
    (n <= i64::MAX as u64).then_some(n)
}

super::document::index_properties!(SubResource);
