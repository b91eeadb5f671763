//! [`Section`]'s API: its tag's attributes (typed where the engine gives them a meaning)
//! and the properties under it, with serde for the properties.

use super::document::{Form, Properties, Section, Tag};
use super::reference::Reference;
use godot_bin::Dialect;
use godot_bin::Variant;

/// The order the engine writes each section's attributes in, so that an attribute set
/// anew goes where the engine would put it.
const ATTR_ORDER: &[&str] = &[
    "type",
    "script_class",
    "load_steps",
    "format",
    "uid",
    "path",
    "id",
    "name",
    "parent",
    "owner",
    "index",
    "unique_id",
    "node_paths",
    "groups",
    "instance_placeholder",
    "instance",
    "signal",
    "from",
    "to",
    "method",
    "flags",
    "unbinds",
    "binds",
];

/// Godot 3's attribute order differs for `[ext_resource]`: `path`, `type`, `id`.
const ATTR_ORDER_GODOT3_EXT: &[&str] = &["path", "type", "id"];

impl Section {
    pub(crate) fn new(name: &str, attrs: Vec<(String, Variant)>, form: Form) -> Section {
        Section {
            tag: Some(Tag::fresh(name, attrs)),
            properties: Properties::new(form),
        }
    }

    fn dialect(&self) -> Dialect {
        self.properties.form.dialect()
    }

    /// The tag's name: `gd_resource`, `gd_scene`, `ext_resource`, `sub_resource`,
    /// `resource`, `node`, `connection`, `editable` (a ConfigFile's section name).
    pub fn tag(&self) -> &str {
        self.tag.as_ref().map_or("", |t| t.name.as_str())
    }

    /// The tag's attributes, in the file's order (`type="Node2D"`, `parent="."`...).
    pub fn attrs(&self) -> &[(String, Variant)] {
        self.tag.as_ref().map_or(&[], |t| t.attrs.as_slice())
    }

    /// An attribute's value.
    pub fn attr(&self, name: &str) -> Option<&Variant> {
        self.attrs().iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    /// Sets an attribute: in place, or where the engine writes it. The tag is printed
    /// anew.
    pub fn set_attr(&mut self, name: &str, value: impl Into<Variant>) {
        let godot3_ext = self.dialect() != Dialect::Godot4 && self.tag() == "ext_resource";
        let order = if godot3_ext {
            ATTR_ORDER_GODOT3_EXT
        } else {
            ATTR_ORDER
        };
        let rank = order.iter().position(|k| *k == name);
        let Some(tag) = self.tag.as_mut() else { return };
        tag.text = None;
        let value = value.into();
        if let Some(slot) = tag.attrs.iter_mut().find(|(k, _)| k == name) {
            slot.1 = value;
            return;
        }
        let at = rank
            .and_then(|r| {
                tag.attrs
                    .iter()
                    .position(|(k, _)| order.iter().position(|o| o == k).is_some_and(|q| q > r))
            })
            .unwrap_or(tag.attrs.len());
        tag.attrs.insert(at, (name.into(), value));
    }

    /// Removes an attribute; the tag is printed anew.
    pub fn remove_attr(&mut self, name: &str) -> Option<Variant> {
        let tag = self.tag.as_mut()?;
        let i = tag.attrs.iter().position(|(k, _)| k == name)?;
        tag.text = None;
        Some(tag.attrs.remove(i).1)
    }

    fn text_attr(&self, name: &str) -> Option<&str> {
        match self.attr(name)? {
            Variant::String(s) => Some(s),
            Variant::StringName(s) => Some(&s.0),
            _ => None,
        }
    }

    /// `id`: a Godot 4 string id, or a Godot 3 number as text.
    pub fn id(&self) -> Option<String> {
        match self.attr("id")? {
            Variant::Int(i) => Some(i.to_string()),
            other => other.as_str().map(str::to_string),
        }
    }

    /// `type`: the class of a resource or node.
    pub fn type_name(&self) -> Option<&str> {
        self.text_attr("type")
    }

    /// `path`: an external resource's path, an `[editable]` node's path.
    pub fn path(&self) -> Option<&str> {
        self.text_attr("path")
    }

    /// `uid`: `uid://...`.
    pub fn uid(&self) -> Option<&str> {
        self.text_attr("uid")
    }

    /// A node's `name`.
    pub fn name(&self) -> Option<&str> {
        self.text_attr("name")
    }

    /// A node's `parent` path (`.` for the root's children; none for the root).
    pub fn parent(&self) -> Option<&str> {
        self.text_attr("parent")
    }

    /// A node's `owner` path, when it is not the root.
    pub fn owner(&self) -> Option<&str> {
        self.text_attr("owner")
    }

    /// An instanced node's scene: `instance=ExtResource(...)`.
    pub fn instance(&self) -> Option<Reference> {
        self.attr("instance").and_then(Reference::from_variant)
    }

    /// A node's groups (`groups=["a", "b"]`).
    pub fn groups(&self) -> Vec<String> {
        match self.attr("groups") {
            Some(Variant::Array(a)) => a
                .iter()
                .filter_map(|g| g.as_str().map(String::from))
                .collect(),
            Some(Variant::PackedStringArray(a)) => a.0.clone(),
            _ => Vec::new(),
        }
    }

    /// The properties, in the file's order.
    pub fn properties(&self) -> &Properties {
        &self.properties
    }

    /// The properties, to change, add or remove.
    pub fn properties_mut(&mut self) -> &mut Properties {
        &mut self.properties
    }
}

super::document::index_properties!(Section);
