//! [`TextResource`]: text resources and scenes (`.tres`, `.tscn`), Godot 4 (`format=3`, and
//! `format=4` when a value holds a PackedVector4Array) and Godot 3 (`format=2`).
//!
//! # The format
//!
//! The ConfigFile grammar ([`super::syntax`]) with tags that carry attributes. Godot 4.4's
//! `ResourceFormatSaverText` writes, in this order:
//!
//! ```text
//! [gd_resource type="Resource" script_class="Item" load_steps=3 format=3 uid="uid://c1x"]
//!
//! [ext_resource type="Texture2D" uid="uid://b2y" path="res://icon.svg" id="1_k3j2a"]
//!
//! [sub_resource type="Gradient" id="Gradient_t734h"]
//! offsets = PackedFloat32Array(0, 1)
//!
//! [resource]
//! icon = ExtResource("1_k3j2a")
//! colors = SubResource("Gradient_t734h")
//! metadata/note = "hi"
//! ```
//!
//! * The header: `gd_resource` (its `type`, and `script_class` when its script has a
//!   global class name) or `gd_scene`; `load_steps` (external plus internal resources,
//!   the main one included) when more than 1; `format`; `uid` when the resource has one.
//!   A blank line follows.
//! * `[ext_resource]` lines one after another (`type`, `uid`, `path`, `id`; Godot 3:
//!   `path`, `type`, `id` with a number), then a blank line.
//! * Each `[sub_resource type=... id=...]` (Godot 4 ids are `Class_xxxxx`, Godot 3's
//!   numbers) with its stored properties, `name = value` in the class's property order
//!   (metadata last, as `metadata/name`; Godot 3 keeps it in one `__meta__` Dictionary);
//!   a blank line between sections. Properties equal to their default are not written.
//! * A resource ends with `[resource]` and the main resource's properties.
//! * A scene has `[node]`s instead: `name`, `type` (absent on an instanced node), `parent`
//!   (`.` for the root's children, absent on the root), `owner`, `index`, `groups=[...]`,
//!   `instance=ExtResource(...)`; its properties below. Then `[connection signal from to
//!   method flags unbinds binds]` lines (Godot 4: after a blank line; Godot 3: right after
//!   the last node), then `[editable path=...]` lines after a blank line.
//! * Values are `var_to_str`'s text (Godot 4 spacing for format 3 and 4, Godot 3's for
//!   format 2; format 4 writes a PackedByteArray as base64), with the references
//!   `ExtResource(id)`, `SubResource(id)` and `Resource(path)` ([`super::Reference`]).
//!
//! What the file does not hold, and so a writer cannot know: which properties a class
//! stores and their defaults (the engine leaves defaults out); a sub-resource's id and a
//! resource's uid until one is given (new ids here are made as the engine makes them, from
//! a hash instead of the clock). Floats are written as the shortest text the engine reads
//! back exactly (the engine itself writes 6 significant digits).

use super::document::{Document, Form, Section};
use super::reference::{collect_references, Reference};
use super::syntax::Style;
use super::versions::{
    file_needs_format_4, text_version, EngineVersion, ResourceView, NODE_ID_ATTRS,
};
use crate::error::{Error, ErrorKind, Result};
use crate::fsio;
use godot_bin::Dialect;
use godot_bin::Variant;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// A text resource or scene (`.tres`, `.tscn`): its header, sections and the text they
/// were read from.
///
/// Reading then writing gives the file back byte for byte; a changed value or attribute
/// is printed anew in the file's style, so the diff is that one value.
///
/// ```
/// use godot_bin_files::resource::{Reference, TextResource};
/// use godot_bin::Variant;
///
/// let text = "[gd_resource type=\"Resource\" load_steps=2 format=3]\n\n\
///             [ext_resource type=\"Texture2D\" path=\"res://icon.svg\" id=\"1_ab\"]\n\n\
///             [resource]\nicon = ExtResource(\"1_ab\")\nmetadata/gold = 10\n";
/// let mut res: TextResource = text.parse()?;
/// assert_eq!(res.header().type_name(), Some("Resource"));
/// let main = res.resource().unwrap();
/// assert_eq!(Reference::from_variant(&main["icon"]), Some(Reference::External("1_ab".into())));
/// assert_eq!(res.ext_resource("1_ab").and_then(|e| e.path()), Some("res://icon.svg"));
///
/// res.resource_mut().unwrap()["metadata/gold"] = 25.into();
/// assert_eq!(res.to_string(), text.replace("gold = 10", "gold = 25"));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TextResource {
    doc: Document,
    dialect: Dialect,
    engine: EngineVersion,
    res_path: Option<String>,
    /// The file began with a UTF-8 byte order mark (read by 4.7 and later), kept.
    bom: bool,
}

impl TextResource {
    /// Reads a `.tres` or `.tscn`.
    pub fn parse(text: &str) -> Result<TextResource> {
        // Godot 4.7's loader skips a byte order mark before the header; earlier ones
        // refuse the file. Read past it, and keep it.
        let (text, bom) = match text.strip_prefix('\u{feff}') {
            Some(rest) => (rest, true),
            None => (text, false),
        };
        let mut doc = Document::parse(text, Form::Resource(Dialect::Godot4))?;
        if doc.sections.len() < 2 || !doc.sections[0].properties.is_empty() {
            let at = doc.sections[0]
                .properties
                .iter()
                .next()
                .map_or(0, |p| p.before().len());
            return Err(Error::syntax(
                "a resource file starts with [gd_resource ...] or [gd_scene ...]",
            )
            .at_text(text, at));
        }
        doc.sections.remove(0);
        let head = doc.sections[0].tag();
        if head != "gd_resource" && head != "gd_scene" {
            return Err(Error::syntax(format!(
                "a resource file starts with [gd_resource ...] or [gd_scene ...], not [{head} ...]"
            ))
            .at_text(
                text,
                doc.sections[0].tag.as_ref().map_or(0, |t| t.before.len()),
            ));
        }
        let format = match doc.sections[0].attr("format") {
            Some(Variant::Int(f)) => *f,
            _ => 3,
        };
        let dialect = if format <= 2 {
            Dialect::Godot3
        } else {
            Dialect::Godot4
        };
        doc.reread_hex_colors(dialect);
        for s in &mut doc.sections {
            s.properties.form = Form::Resource(dialect);
        }
        let count = |tag: &str| doc.sections.iter().filter(|s| s.tag() == tag).count();
        let steps = count("ext_resource") + count("sub_resource") + 1;
        let node_ids = doc
            .sections
            .iter()
            .any(|s| s.tag() == "node" && NODE_ID_ATTRS.iter().any(|a| s.attr(a).is_some()));
        let load_steps = doc.sections[0].attr("load_steps").is_some();
        let format_4_values = format == 3 && {
            let view: Vec<ResourceView<'_>> = doc
                .sections
                .iter()
                .map(|s| {
                    let id = (s.tag() == "sub_resource").then(|| s.id()).flatten();
                    // The main resource's class is the header's `type`.
                    let class = match s.tag() {
                        "resource" => doc.sections[0].type_name(),
                        _ => s.type_name(),
                    };
                    (class.unwrap_or(""), id, &s.properties)
                })
                .collect();
            file_needs_format_4(&view)
        };
        let engine = text_version(format, load_steps, steps, node_ids, format_4_values);
        Ok(TextResource {
            doc,
            dialect,
            engine,
            res_path: None,
            bom,
        })
    }

    /// Reads a `.tres` or `.tscn` from a file's bytes (UTF-8).
    pub fn from_bytes(bytes: &[u8]) -> Result<TextResource> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::syntax("the file is not UTF-8 text").at_byte(e.valid_up_to()))?;
        TextResource::parse(text)
    }

    /// Reads the `.tres` / `.tscn` at `path`, as `ResourceLoader.load` finds it; an error
    /// names the file. When a folder above it holds a `project.godot`, the file's own
    /// `res://` path is kept ([`res_path`](Self::res_path)): conversions resolve relative
    /// `[ext_resource]` paths against it as the engine does.
    ///
    /// ```no_run
    /// use godot_bin_files::TextResource;
    ///
    /// let mut level = TextResource::load("game/levels/one.tscn")?;
    /// level.node_mut("Player").unwrap()["speed"] = 320.into();
    /// level.save("game/levels/one.tscn")?; // one line changed
    /// level.to_binary()?.file.save("game/levels/one.scn")?;
    /// # Ok::<(), godot_bin_files::Error>(())
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<TextResource> {
        let path = path.as_ref();
        let mut res = fsio::load(path, TextResource::from_bytes)?;
        res.res_path = fsio::res_path(path);
        Ok(res)
    }

    /// Writes the file to `path`, through a temporary file beside it, so a failure leaves
    /// the old file whole.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        fsio::write_atomic(path.as_ref(), self.to_string().as_bytes())
    }

    /// The file's own `res://` path, when known ([`load`](Self::load) finds it from the
    /// project folder; [`set_res_path`](Self::set_res_path) gives it).
    pub fn res_path(&self) -> Option<&str> {
        self.res_path.as_deref()
    }

    /// Gives the file's own `res://` path (`res://levels/one.tscn`), against which a
    /// relative `[ext_resource path="..."]` is resolved in conversions, as the engine's
    /// loader resolves it against the file's folder.
    pub fn set_res_path(&mut self, path: Option<&str>) {
        self.res_path = path.map(str::to_string);
    }

    /// A new resource of class `type_name` with an empty `[resource]`, as `dialect`'s
    /// engine writes one (`format=3`, or `format=2` for Godot 3).
    pub fn new_resource(type_name: &str, dialect: Dialect) -> TextResource {
        let mut res = TextResource::empty("gd_resource", dialect);
        res.doc.sections[0].set_attr("type", type_name);
        res.push_section("resource", Vec::new());
        res
    }

    /// A new scene with no nodes yet.
    pub fn new_scene(dialect: Dialect) -> TextResource {
        TextResource::empty("gd_scene", dialect)
    }

    fn empty(head: &str, dialect: Dialect) -> TextResource {
        let dialect = if dialect == Dialect::Godot4 {
            Dialect::Godot4
        } else {
            Dialect::Godot3
        };
        let engine = if dialect == Dialect::Godot4 {
            EngineVersion::GODOT_4
        } else {
            EngineVersion::GODOT_3
        };
        let format = engine.facts().text_format;
        let form = Form::Resource(dialect);
        let header = Section::new(head, vec![("format".into(), Variant::Int(format))], form);
        TextResource {
            doc: Document {
                sections: vec![header],
                trailing: String::new(),
            },
            dialect,
            engine,
            res_path: None,
            bom: false,
        }
    }

    /// A new resource of class `type_name` whose `[resource]` properties are the fields
    /// of `value` (serde, as [`godot_bin::to_variant`]).
    pub fn from_struct<T: Serialize + ?Sized>(
        type_name: &str,
        value: &T,
        dialect: Dialect,
    ) -> Result<TextResource> {
        let mut res = TextResource::new_resource(type_name, dialect);
        res.set_resource(value)?;
        Ok(res)
    }

    /// Whether this is a scene (`[gd_scene]`).
    pub fn is_scene(&self) -> bool {
        self.header().tag() == "gd_scene"
    }

    /// Which engine's text: `Godot4` (format 3 and 4) or `Godot3` (format 2).
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The engine version the file shows (see [`EngineVersion`]): Godot 3 for `format=2`;
    /// 4.6 when a node carries an id (`unique_id=`...) or the header has no `load_steps`
    /// where 4.5 and older would write one; Godot 4.4 for other Godot 4 files, which do
    /// not tell 4.0 to 4.5 apart. A new file is 4.4 or 3.2. What is written into the file
    /// follows it: `load_steps`, node ids in conversions, `-inf` in `format=4`.
    pub fn engine(&self) -> EngineVersion {
        self.engine
    }

    /// Says which engine the file is for (e.g. 4.6 for a 4.6 file that shows nothing of
    /// it); nothing already in the file changes until it is written anew.
    pub fn set_engine(&mut self, engine: EngineVersion) {
        self.engine = engine;
    }

    /// The `format` attribute (3 if absent).
    pub fn format(&self) -> i64 {
        self.header()
            .attr("format")
            .and_then(Variant::as_int)
            .unwrap_or(3)
    }

    pub(crate) fn style(&self) -> Style {
        let format4 = self.format() >= 4;
        Style {
            dialect: self.dialect,
            base64_bytes: format4,
            minus_inf: format4 && self.engine.facts().minus_inf,
        }
    }

    /// The `[gd_resource ...]` or `[gd_scene ...]` header: `type_name()`, `uid()`,
    /// `attr("script_class")`, `attr("load_steps")`.
    pub fn header(&self) -> &Section {
        &self.doc.sections[0]
    }

    /// The header, to change its attributes.
    pub fn header_mut(&mut self) -> &mut Section {
        &mut self.doc.sections[0]
    }

    /// Every section after the header, in the file's order.
    pub fn sections(&self) -> &[Section] {
        &self.doc.sections[1..]
    }

    /// Every section after the header, to change.
    pub fn sections_mut(&mut self) -> &mut [Section] {
        &mut self.doc.sections[1..]
    }

    fn tagged<'a>(&'a self, tag: &'a str) -> impl Iterator<Item = &'a Section> + 'a {
        self.sections().iter().filter(move |s| s.tag() == tag)
    }

    /// The `[ext_resource]` sections.
    pub fn ext_resources(&self) -> impl Iterator<Item = &Section> {
        self.tagged("ext_resource")
    }

    /// The `[ext_resource]` with this id.
    pub fn ext_resource(&self, id: &str) -> Option<&Section> {
        self.ext_resources().find(|s| s.id().as_deref() == Some(id))
    }

    /// The `[sub_resource]` sections, in order.
    pub fn sub_resources(&self) -> impl Iterator<Item = &Section> {
        self.tagged("sub_resource")
    }

    /// The `[sub_resource]` with this id.
    pub fn sub_resource(&self, id: &str) -> Option<&Section> {
        self.sub_resources().find(|s| s.id().as_deref() == Some(id))
    }

    /// The `[sub_resource]` with this id, to change.
    pub fn sub_resource_mut(&mut self, id: &str) -> Option<&mut Section> {
        self.sections_mut()
            .iter_mut()
            .find(|s| s.tag() == "sub_resource" && s.id().as_deref() == Some(id))
    }

    /// The main resource's `[resource]` section (none in a scene).
    pub fn resource(&self) -> Option<&Section> {
        self.tagged("resource").next()
    }

    /// The `[resource]` section, to change.
    pub fn resource_mut(&mut self) -> Option<&mut Section> {
        self.sections_mut()
            .iter_mut()
            .find(|s| s.tag() == "resource")
    }

    /// A scene's `[node]` sections, in order (the root first).
    pub fn nodes(&self) -> impl Iterator<Item = &Section> {
        self.tagged("node")
    }

    /// A node's path from the root, as the engine names it in `parent=` (`.` for the
    /// root, `A`, `A/B`...).
    pub fn node_path(node: &Section) -> Option<String> {
        let name = node.name()?;
        Some(match node.parent() {
            None => ".".into(),
            Some(".") => name.into(),
            Some(parent) => format!("{parent}/{name}"),
        })
    }

    /// The node at `path` (`.` for the root).
    pub fn node(&self, path: &str) -> Option<&Section> {
        self.nodes()
            .find(|n| TextResource::node_path(n).as_deref() == Some(path))
    }

    /// The node at `path`, to change.
    pub fn node_mut(&mut self, path: &str) -> Option<&mut Section> {
        self.sections_mut()
            .iter_mut()
            .find(|n| n.tag() == "node" && TextResource::node_path(n).as_deref() == Some(path))
    }

    /// A scene's `[connection]` lines.
    pub fn connections(&self) -> impl Iterator<Item = &Section> {
        self.tagged("connection")
    }

    /// A scene's `[editable path=...]` lines: instanced nodes whose children are editable.
    pub fn editable_paths(&self) -> Vec<&str> {
        self.tagged("editable").filter_map(Section::path).collect()
    }

    /// The `[resource]` properties as a `Deserialize` type (see
    /// [`Properties::to_struct`](super::Properties::to_struct)).
    pub fn resource_as<T: DeserializeOwned>(&self) -> Result<T> {
        self.resource()
            .ok_or_else(|| no_section("[resource]"))?
            .properties()
            .to_struct()
    }

    /// Sets the fields of `value` as `[resource]` properties.
    pub fn set_resource<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.resource_mut()
            .ok_or_else(|| no_section("[resource]"))?
            .properties_mut()
            .set_struct(value)
    }

    /// The properties of the node at `path` as a `Deserialize` type.
    pub fn node_as<T: DeserializeOwned>(&self, path: &str) -> Result<T> {
        self.node(path)
            .ok_or_else(|| no_section(&format!("a node at {path:?}")))?
            .properties()
            .to_struct()
    }

    /// Sets the fields of `value` as properties of the node at `path`.
    pub fn set_node<T: Serialize + ?Sized>(&mut self, path: &str, value: &T) -> Result<()> {
        self.node_mut(path)
            .ok_or_else(|| no_section(&format!("a node at {path:?}")))?
            .properties_mut()
            .set_struct(value)
    }

    /// Adds an `[ext_resource]` after the others, as the engine writes one, and returns
    /// its id (Godot 4: `"<n>_<5 characters>"`; Godot 3: the next number). `load_steps`
    /// follows.
    pub fn add_ext_resource(&mut self, type_name: &str, path: &str, uid: Option<&str>) -> String {
        let n = self.ext_resources().count() + 1;
        let godot4 = self.dialect == Dialect::Godot4;
        let id = if godot4 {
            let mut k = 0u32;
            loop {
                let id = format!("{n}_{}", short_id(&[path, type_name], k));
                if self.ext_resource(&id).is_none() {
                    break id;
                }
                k += 1;
            }
        } else {
            (self
                .ext_resources()
                .filter_map(|s| s.id()?.parse::<i64>().ok())
                .max()
                .unwrap_or(0)
                + 1)
            .to_string()
        };
        let mut attrs: Vec<(String, Variant)> = Vec::new();
        let id_value = if godot4 {
            Variant::from(id.as_str())
        } else {
            Variant::Int(id.parse().unwrap_or(0))
        };
        if godot4 {
            attrs.push(("type".into(), type_name.into()));
            if let Some(uid) = uid {
                attrs.push(("uid".into(), uid.into()));
            }
            attrs.push(("path".into(), path.into()));
        } else {
            attrs.push(("path".into(), path.into()));
            attrs.push(("type".into(), type_name.into()));
        }
        attrs.push(("id".into(), id_value));
        let at = self
            .doc
            .sections
            .iter()
            .rposition(|s| s.tag() == "ext_resource")
            .map_or(1, |i| i + 1);
        self.insert_section(at, "ext_resource", attrs);
        self.update_load_steps();
        id
    }

    /// Adds an empty `[sub_resource]` of class `type_name` after the others (before the
    /// `[resource]` or the first node) and returns its id (Godot 4: `Class_xxxxx`; Godot
    /// 3: the next number). `load_steps` follows.
    pub fn add_sub_resource(&mut self, type_name: &str) -> String {
        let godot4 = self.dialect == Dialect::Godot4;
        let count = self.sub_resources().count() as u32;
        let id = if godot4 {
            let mut k = count;
            loop {
                let id = format!("{type_name}_{}", short_id(&[type_name], k));
                if self.sub_resource(&id).is_none() {
                    break id;
                }
                k += 1;
            }
        } else {
            (self
                .sub_resources()
                .filter_map(|s| s.id()?.parse::<i64>().ok())
                .max()
                .unwrap_or(0)
                + 1)
            .to_string()
        };
        let id_value = if godot4 {
            Variant::from(id.as_str())
        } else {
            Variant::Int(id.parse().unwrap_or(0))
        };
        let attrs = vec![("type".into(), type_name.into()), ("id".into(), id_value)];
        let at = self
            .doc
            .sections
            .iter()
            .rposition(|s| matches!(s.tag(), "sub_resource" | "ext_resource"))
            .map_or(1, |i| i + 1);
        self.insert_section(at, "sub_resource", attrs);
        self.update_load_steps();
        id
    }

    /// Adds a section at the end (`[node]`, `[connection]`, `[editable]`...), laid out as
    /// the engine lays it out, and returns it.
    pub fn push_section(&mut self, tag: &str, attrs: Vec<(String, Variant)>) -> &mut Section {
        let at = self.doc.sections.len();
        self.insert_section(at, tag, attrs);
        &mut self.doc.sections[at]
    }

    fn insert_section(&mut self, at: usize, tag: &str, attrs: Vec<(String, Variant)>) {
        let form = Form::Resource(self.dialect);
        let mut section = Section::new(tag, attrs, form);
        let prev = self.doc.sections[at - 1].tag().to_string();
        let grouped = matches!(tag, "ext_resource" | "connection" | "editable") && prev == tag;
        let godot3_connection = tag == "connection" && self.dialect != Dialect::Godot4;
        if let Some(t) = section.tag.as_mut() {
            t.before = if grouped || godot3_connection {
                String::new()
            } else {
                "\n".into()
            };
        }
        if let Some(next) = self.doc.sections.get_mut(at).and_then(|s| s.tag.as_mut()) {
            let next_grouped = next.name == tag && grouped_tag(tag);
            if !next_grouped
                && next.before.is_empty()
                && !(next.name == "connection" && godot3_connection)
            {
                next.before = "\n".into();
            }
        }
        self.doc.sections.insert(at, section);
    }

    /// Sets `load_steps` to the engine's count (external and internal resources, the main
    /// one included) when it is more than 1, and removes it otherwise; a file for 4.6 or
    /// later ([`Self::engine`]) has none, and one there is left as it is.
    pub fn update_load_steps(&mut self) {
        let steps = (self.ext_resources().count() + self.sub_resources().count() + 1) as i64;
        let writes_steps = self.engine.facts().load_steps;
        let header = self.header_mut();
        if !writes_steps {
            // 4.6+ neither writes nor reads it: an old one left in the file is harmless.
        } else if steps > 1 {
            if header.attr("load_steps").and_then(Variant::as_int) != Some(steps) {
                header.set_attr("load_steps", steps);
            }
        } else if header.attr("load_steps").is_some() {
            header.remove_attr("load_steps");
        }
    }

    /// Checks every reference: each `ExtResource` names an `[ext_resource]`, and each
    /// `SubResource` a `[sub_resource]` defined before the section that uses it (the
    /// engine loads them in order). A ring of sub-resources is
    /// [`ErrorKind::ReferenceCycle`], another miss
    /// [`ErrorKind::UnknownReference`].
    pub fn check_references(&self) -> Result<()> {
        let ext: Vec<String> = self.ext_resources().filter_map(Section::id).collect();
        let subs: Vec<(String, &Section)> = self
            .sub_resources()
            .filter_map(|s| Some((s.id()?, s)))
            .collect();
        let mut defined = 0usize; // sub-resources before the current section
        for section in self.sections() {
            let mut refs = Vec::new();
            for (_, v) in section.attrs() {
                collect_references(v, &mut refs);
            }
            for p in section.properties() {
                collect_references(p.value(), &mut refs);
            }
            for r in refs {
                match &r {
                    Reference::External(id) if !ext.contains(id) => {
                        return Err(ErrorKind::UnknownReference(format!(
                            "ExtResource({id:?}): no [ext_resource] has that id"
                        ))
                        .into())
                    }
                    Reference::Sub(id) => match subs.iter().position(|(s, _)| s == id) {
                        None => {
                            return Err(ErrorKind::UnknownReference(format!(
                                "SubResource({id:?}): no [sub_resource] has that id"
                            ))
                            .into())
                        }
                        Some(k) if k >= defined => {
                            let user = section.id().unwrap_or_else(|| section.tag().into());
                            return Err(if reaches(&subs, k, &user) {
                                ErrorKind::ReferenceCycle(format!(
                                    "{user} and SubResource({id:?}) refer to each other"
                                ))
                            } else {
                                ErrorKind::UnknownReference(format!(
                                    "SubResource({id:?}) is used by {user} before it is defined"
                                ))
                            }
                            .into());
                        }
                        Some(_) => {}
                    },
                    _ => {}
                }
            }
            if section.tag() == "sub_resource" {
                defined += 1;
            }
        }
        Ok(())
    }

    /// Every section, the header first, to add or remove (crate-internal).
    pub(crate) fn sections_mut_vec(&mut self) -> &mut Vec<Section> {
        &mut self.doc.sections
    }

    /// Forgets the text every value and tag was read from, so that the whole file is
    /// printed anew as the engine prints it (blank lines and comments stay where they
    /// are).
    pub fn reprint(&mut self) {
        self.doc.forget_text();
    }
}

fn grouped_tag(tag: &str) -> bool {
    matches!(tag, "ext_resource" | "connection" | "editable")
}

fn no_section(what: &str) -> Error {
    ErrorKind::UnknownReference(format!("the file has no {what}")).into()
}

/// Whether sub-resource `from` (an index in `subs`) refers, directly or through others,
/// to the section with id `target`.
fn reaches(subs: &[(String, &Section)], from: usize, target: &str) -> bool {
    let mut seen = vec![false; subs.len()];
    let mut stack = vec![from];
    while let Some(k) = stack.pop() {
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        if subs[k].0 == target {
            return true;
        }
        let mut refs = Vec::new();
        for p in subs[k].1.properties() {
            collect_references(p.value(), &mut refs);
        }
        for r in refs {
            if let Reference::Sub(id) = r {
                if let Some(j) = subs.iter().position(|(s, _)| *s == id) {
                    stack.push(j);
                }
            }
        }
    }
    false
}

/// Five characters of `[a-z0-9]` from a hash of `parts` and `salt`, in the shape of the
/// engine's `Resource::generate_scene_unique_id` (which hashes the clock).
pub(crate) fn short_id(parts: &[&str], salt: u32) -> String {
    let mut h: u32 = 0x811c_9dc5 ^ salt.wrapping_mul(0x9e37_79b9);
    for p in parts {
        for b in p.bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        h = (h ^ 0xff).wrapping_mul(0x0100_0193);
    }
    let base = 35; // 'a'..'z' (25 of them, as the engine counts) and '0'..'9'
    let mut out = String::new();
    for _ in 0..5 {
        let c = h % base;
        out.push(if c < 25 {
            (b'a' + c as u8) as char
        } else {
            (b'0' + (c - 25) as u8) as char
        });
        h /= base;
        h = h.wrapping_mul(0x0100_0193) ^ salt;
    }
    out
}

/// The file's text: `to_string()` is what [`save`](TextResource::save) writes.
impl fmt::Display for TextResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.bom {
            f.write_str("\u{feff}")?;
        }
        f.write_str(&self.doc.write(self.style(), false))
    }
}

impl std::str::FromStr for TextResource {
    type Err = Error;
    fn from_str(s: &str) -> Result<TextResource> {
        TextResource::parse(s)
    }
}
