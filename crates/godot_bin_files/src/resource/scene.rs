//! A scene's nodes both ways: the `[node]`, `[connection]` and `[editable]` sections of a
//! `.tscn`, and the `_bundled` Dictionary a binary `PackedScene` stores
//! (`SceneState::get_bundled`).
//!
//! # The bundle
//!
//! ```text
//! names               PackedStringArray: node names, types, property names, groups,
//!                     signals and methods, each once
//! variants            Array: property values, instances, binds (not deduplicated when a
//!                     .tscn is loaded, deduplicated when a scene is packed)
//! node_count, nodes   PackedInt32Array, per node: parent, owner, type, name, instance,
//!                     property count, (name, value) per property, group count, groups
//! conn_count, conns   PackedInt32Array, per connection: from, to, signal, method, flags,
//!                     bind count, binds, and (Godot 4) unbinds
//! node_ids            (4.6+) PackedInt32Array: each node's id, 0 for none
//! node_paths          Array of NodePaths: parents, owners and connection ends that are
//!                     not nodes of this scene, referred to as index | 1 << 30
//! id_paths            (4.6+) Array of PackedInt32Array, one per node path: the ids of
//!                     the nodes on that path (`parent_id_path=`, `owner_uid_path=`)
//! editable_instances  Array of NodePaths
//! base_scene          (an inherited scene) the variants index of the base scene
//! version             3 (Godot 4) or 2 (Godot 3)
//! ```
//!
//! A parent or owner is a node index (-1 for none); a type a names index, or 0x7FFFFFFF
//! for an instanced node, 0x7FFFFFFE for a placeholder; a name a names index with, in the
//! bits from 18 up, the node's `index` + 1; an instance a variants index (bit 30: an
//! instance placeholder's path); a property name with bit 30 a property that holds a node
//! path (`node_paths=` in text).

use super::text::TextResource;
use crate::error::{Error, ErrorKind, Result};
use godot_bin::NodePath;
use godot_bin::{Array, Dictionary, Variant};
use godot_bin::{PackedInt32Array, PackedStringArray};

const FLAG_ID_IS_PATH: i32 = 1 << 30;
const FLAG_MASK: i32 = (1 << 24) - 1;
const TYPE_INSTANTIATED: i32 = 0x7FFF_FFFF;
const TYPE_PLACEHOLDER: i32 = 0x7FFF_FFFE;
const NO_PARENT_SAVED: i32 = 0x7FFF_FFFF;
const NAME_INDEX_BITS: u32 = 18;
const NAME_MASK: i32 = (1 << NAME_INDEX_BITS) - 1;
const MAX_INDEX: i32 = (1 << (32 - NAME_INDEX_BITS)) - 1;
const FLAG_INSTANCE_IS_PLACEHOLDER: i32 = 1 << 30;
const FLAG_PATH_PROPERTY_IS_NODE: i32 = 1 << 30;

fn bad(msg: impl Into<String>) -> Error {
    Error::corrupt(format!("scene bundle: {}", msg.into()))
}

#[derive(Clone, Debug, Default)]
struct Node {
    parent: i32,
    owner: i32,
    type_: i32,
    name: i32,
    instance: i32,
    properties: Vec<(i32, i32)>,
    groups: Vec<i32>,
}

#[derive(Clone, Debug, Default)]
struct Connection {
    from: i32,
    to: i32,
    signal: i32,
    method: i32,
    flags: i32,
    binds: Vec<i32>,
    unbinds: i32,
}

/// A `PackedScene`'s `_bundled` Dictionary, taken apart.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bundle {
    names: Vec<String>,
    variants: Vec<Variant>,
    nodes: Vec<Node>,
    connections: Vec<Connection>,
    node_paths: Vec<Variant>,
    /// 4.6+: each node's id (`None`: the bundle has no ids, as before 4.6).
    ids: Option<Vec<i32>>,
    /// 4.6+: the id path of each of `node_paths` (empty where it has none).
    id_paths: Vec<Variant>,
    editable: Vec<Variant>,
    base_scene: Option<i64>,
    version: i64,
}

/// Reads ints from a PackedInt32Array, each read checked against its end.
struct Ints<'a> {
    ints: &'a [i32],
    pos: usize,
    what: &'static str,
}

impl Ints<'_> {
    fn next(&mut self) -> Result<i32> {
        let v = *self
            .ints
            .get(self.pos)
            .ok_or_else(|| bad(format!("{} end early", self.what)))?;
        self.pos += 1;
        Ok(v)
    }

    /// A count of items, each at least `min` ints, checked against what is left.
    fn count(&mut self, min: usize) -> Result<usize> {
        let n = self.next()?;
        let n =
            usize::try_from(n).map_err(|_| bad(format!("a negative count in {}", self.what)))?;
        if n.saturating_mul(min) > self.ints.len() - self.pos {
            return Err(bad(format!("a count of {n} past the end of {}", self.what)));
        }
        Ok(n)
    }
}

impl Bundle {
    /// Takes apart a `_bundled` Dictionary, checking every count against the arrays.
    pub(crate) fn from_dictionary(d: &Dictionary) -> Result<Bundle> {
        let names = match d.get("names") {
            Some(Variant::PackedStringArray(a)) => a.0.clone(),
            Some(Variant::Array(a)) => a
                .iter()
                .map(|v| v.as_str().unwrap_or("").to_string())
                .collect(),
            _ => return Err(bad("no names")),
        };
        let variants = match d.get("variants") {
            Some(Variant::Array(a)) => a.items.clone(),
            _ => return Err(bad("no variants")),
        };
        let ints = |key: &str| -> Vec<i32> {
            match d.get(key) {
                Some(Variant::PackedInt32Array(a)) => a.0.clone(),
                Some(Variant::Array(a)) => a
                    .iter()
                    .filter_map(Variant::as_int)
                    .map(|i| i as i32)
                    .collect(),
                _ => Vec::new(),
            }
        };
        let count = |key: &str| d.get(key).and_then(Variant::as_int).unwrap_or(0);
        let version = count("version");
        let node_ints = ints("nodes");
        let mut r = Ints {
            ints: &node_ints,
            pos: 0,
            what: "the nodes",
        };
        let node_count =
            usize::try_from(count("node_count")).map_err(|_| bad("a negative node count"))?;
        if node_count.saturating_mul(7) > node_ints.len() {
            return Err(bad(format!(
                "{node_count} nodes in {} ints",
                node_ints.len()
            )));
        }
        let mut nodes = Vec::with_capacity(node_count);
        for _ in 0..node_count {
            let mut n = Node {
                parent: r.next()?,
                owner: r.next()?,
                type_: r.next()?,
                name: r.next()?,
                instance: r.next()?,
                ..Node::default()
            };
            for _ in 0..r.count(2)? {
                n.properties.push((r.next()?, r.next()?));
            }
            for _ in 0..r.count(1)? {
                n.groups.push(r.next()?);
            }
            nodes.push(n);
        }
        let conn_ints = ints("conns");
        let mut r = Ints {
            ints: &conn_ints,
            pos: 0,
            what: "the connections",
        };
        let godot4 = version >= 3;
        let conn_count =
            usize::try_from(count("conn_count")).map_err(|_| bad("a negative connection count"))?;
        if conn_count.saturating_mul(6) > conn_ints.len() {
            return Err(bad(format!(
                "{conn_count} connections in {} ints",
                conn_ints.len()
            )));
        }
        let mut connections = Vec::with_capacity(conn_count);
        for _ in 0..conn_count {
            let mut c = Connection {
                from: r.next()?,
                to: r.next()?,
                signal: r.next()?,
                method: r.next()?,
                flags: r.next()?,
                ..Connection::default()
            };
            for _ in 0..r.count(1)? {
                c.binds.push(r.next()?);
            }
            if godot4 {
                c.unbinds = r.next()?;
            }
            connections.push(c);
        }
        let list = |key: &str| match d.get(key) {
            Some(Variant::Array(a)) => a.items.clone(),
            _ => Vec::new(),
        };
        let ids = d.get("node_ids").map(|_| ints("node_ids"));
        Ok(Bundle {
            names,
            variants,
            nodes,
            connections,
            id_paths: if ids.is_some() {
                list("id_paths")
            } else {
                Vec::new()
            },
            ids,
            node_paths: list("node_paths"),
            editable: list("editable_instances"),
            base_scene: d.get("base_scene").and_then(Variant::as_int),
            version,
        })
    }

    /// The `_bundled` Dictionary, its keys in the engine's order.
    pub(crate) fn to_dictionary(&self) -> Dictionary {
        let mut d = Dictionary::new();
        d.insert(
            "names",
            Variant::PackedStringArray(PackedStringArray(self.names.clone())),
        );
        d.insert(
            "variants",
            Variant::Array(Array::from(self.variants.clone())),
        );
        d.insert("node_count", self.nodes.len() as i64);
        let mut nodes = Vec::new();
        for n in &self.nodes {
            nodes.extend([
                n.parent,
                n.owner,
                n.type_,
                n.name,
                n.instance,
                n.properties.len() as i32,
            ]);
            for (k, v) in &n.properties {
                nodes.extend([*k, *v]);
            }
            nodes.push(n.groups.len() as i32);
            nodes.extend(&n.groups);
        }
        d.insert("nodes", Variant::PackedInt32Array(PackedInt32Array(nodes)));
        if let Some(ids) = &self.ids {
            d.insert(
                "node_ids",
                Variant::PackedInt32Array(PackedInt32Array(ids.clone())),
            );
        }
        d.insert("conn_count", self.connections.len() as i64);
        let mut conns = Vec::new();
        for c in &self.connections {
            conns.extend([
                c.from,
                c.to,
                c.signal,
                c.method,
                c.flags,
                c.binds.len() as i32,
            ]);
            conns.extend(&c.binds);
            if self.version >= 3 {
                conns.push(c.unbinds);
            }
        }
        d.insert("conns", Variant::PackedInt32Array(PackedInt32Array(conns)));
        d.insert(
            "node_paths",
            Variant::Array(Array::from(self.node_paths.clone())),
        );
        if self.ids.is_some() {
            d.insert(
                "id_paths",
                Variant::Array(Array::from(self.id_paths.clone())),
            );
        }
        d.insert(
            "editable_instances",
            Variant::Array(Array::from(self.editable.clone())),
        );
        if let Some(b) = self.base_scene {
            d.insert("base_scene", b);
        }
        d.insert("version", self.version);
        d
    }

    fn name(&self, i: i32) -> Result<&str> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.names.get(i))
            .map(String::as_str)
            .ok_or_else(|| bad(format!("name {i} past the {} names", self.names.len())))
    }

    fn value(&self, i: i32) -> Result<&Variant> {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.variants.get(i))
            .ok_or_else(|| bad(format!("value {i} past the {} values", self.variants.len())))
    }

    /// The text of a reference to a node: a node of this scene by index (`.` for the
    /// root), or a path of `node_paths`; `None` for -1.
    fn path_of(&self, id: i32, depth: usize) -> Result<Option<String>> {
        if id < 0 || id == NO_PARENT_SAVED {
            return Ok(None);
        }
        if id & FLAG_ID_IS_PATH != 0 {
            let p = self
                .node_paths
                .get((id & FLAG_MASK) as usize)
                .ok_or_else(|| bad(format!("node path {} past the list", id & FLAG_MASK)))?;
            let text = match p {
                Variant::NodePath(np) => np.to_string(),
                other => other.as_str().unwrap_or("").to_string(),
            };
            return Ok(Some(simplified(&text)));
        }
        if depth > self.nodes.len() {
            return Err(bad("nodes are their own ancestors"));
        }
        let node = self
            .nodes
            .get(id as usize)
            .ok_or_else(|| bad(format!("node {id} past the {} nodes", self.nodes.len())))?;
        let name = self.name(node.name & NAME_MASK)?.to_string();
        Ok(Some(match self.path_of(node.parent, depth + 1)? {
            None => ".".into(),
            Some(p) if p == "." => name,
            Some(p) => format!("{p}/{name}"),
        }))
    }

    /// The id path of a parent or owner that is a path, when it has one (4.6+).
    fn id_path(&self, id: i32) -> Option<Variant> {
        if id < 0 || id == NO_PARENT_SAVED || id & FLAG_ID_IS_PATH == 0 {
            return None;
        }
        match self.id_paths.get((id & FLAG_MASK) as usize) {
            Some(Variant::PackedInt32Array(p)) if !p.0.is_empty() => {
                Some(Variant::PackedInt32Array(p.clone()))
            }
            _ => None,
        }
    }

    /// Adds the scene's `[node]`, `[connection]` and `[editable]` sections to `res`.
    pub(crate) fn to_sections(&self, res: &mut TextResource) -> Result<()> {
        for (i, n) in self.nodes.iter().enumerate() {
            let mut attrs: Vec<(String, Variant)> =
                vec![("name".into(), self.name(n.name & NAME_MASK)?.into())];
            if n.type_ != TYPE_INSTANTIATED && n.type_ != TYPE_PLACEHOLDER {
                attrs.push(("type".into(), self.name(n.type_)?.into()));
            }
            if let Some(parent) = self.path_of(n.parent, 0)? {
                attrs.push(("parent".into(), parent.into()));
                if let Some(ids) = self.id_path(n.parent) {
                    attrs.push(("parent_id_path".into(), ids));
                }
            }
            if let Some(owner) = self.path_of(n.owner, 0)? {
                if owner != "." {
                    attrs.push(("owner".into(), owner.into()));
                    if let Some(ids) = self.id_path(n.owner) {
                        attrs.push(("owner_uid_path".into(), ids));
                    }
                }
            }
            // An unsigned shift, as the engine reads the field (indices up to 2^14 - 2).
            let index = ((n.name as u32) >> NAME_INDEX_BITS) as i32 - 1;
            if index >= 0 {
                // Quoted, as the engines write it.
                attrs.push(("index".into(), index.to_string().into()));
            }
            match self.ids.as_ref().and_then(|ids| ids.get(i)) {
                Some(&id) if id != 0 => attrs.push(("unique_id".into(), i64::from(id).into())),
                _ => {}
            }
            let deferred: Vec<String> = n
                .properties
                .iter()
                .filter(|(k, _)| k & FLAG_PATH_PROPERTY_IS_NODE != 0)
                .map(|(k, _)| {
                    self.name(k & (FLAG_PATH_PROPERTY_IS_NODE - 1))
                        .map(String::from)
                })
                .collect::<Result<_>>()?;
            if !deferred.is_empty() {
                attrs.push((
                    "node_paths".into(),
                    Variant::PackedStringArray(PackedStringArray(deferred)),
                ));
            }
            if !n.groups.is_empty() {
                // The text savers sort a node's groups.
                let mut groups: Vec<&str> = n
                    .groups
                    .iter()
                    .map(|g| self.name(*g))
                    .collect::<Result<_>>()?;
                groups.sort_unstable();
                let groups: Vec<Variant> = groups.into_iter().map(Variant::from).collect();
                attrs.push(("groups".into(), Variant::Array(Array::from(groups))));
            }
            if n.instance >= 0 {
                if n.instance & FLAG_INSTANCE_IS_PLACEHOLDER != 0 {
                    let path = self.value(n.instance & FLAG_MASK)?.clone();
                    attrs.push(("instance_placeholder".into(), path));
                } else {
                    attrs.push(("instance".into(), self.value(n.instance)?.clone()));
                }
            } else if i == 0 {
                if let Some(b) = self.base_scene {
                    attrs.push(("instance".into(), self.value(b as i32)?.clone()));
                }
            }
            let mut props = Vec::with_capacity(n.properties.len());
            for (k, v) in &n.properties {
                let name = self.name(k & (FLAG_PATH_PROPERTY_IS_NODE - 1))?.to_string();
                props.push((name, self.value(*v)?.clone()));
            }
            let section = res.push_section("node", attrs);
            for (name, value) in props {
                section.properties_mut().set(&name, value);
            }
        }
        for c in &self.connections {
            let mut attrs: Vec<(String, Variant)> = vec![
                ("signal".into(), self.name(c.signal)?.into()),
                (
                    "from".into(),
                    self.path_of(c.from, 0)?.unwrap_or_default().into(),
                ),
                (
                    "to".into(),
                    self.path_of(c.to, 0)?.unwrap_or_default().into(),
                ),
                ("method".into(), self.name(c.method)?.into()),
            ];
            if c.flags != 2 {
                attrs.push(("flags".into(), i64::from(c.flags).into()));
            }
            if c.unbinds > 0 {
                attrs.push(("unbinds".into(), i64::from(c.unbinds).into()));
            }
            if !c.binds.is_empty() {
                let binds: Vec<Variant> = c
                    .binds
                    .iter()
                    .map(|b| self.value(*b).cloned())
                    .collect::<Result<_>>()?;
                attrs.push(("binds".into(), Variant::Array(Array::from(binds))));
            }
            res.push_section("connection", attrs);
        }
        for e in &self.editable {
            let path = match e {
                Variant::NodePath(np) => simplified(&np.to_string()),
                other => other.as_str().unwrap_or("").to_string(),
            };
            res.push_section("editable", vec![("path".into(), path.into())]);
        }
        Ok(())
    }

    /// The bundle of a text scene's sections, as the engine's text loader builds it
    /// (names once each, values in the order met), with parents and owners that are
    /// nodes of the scene as indices, as a packed scene has them.
    pub(crate) fn from_sections(res: &TextResource) -> Result<Bundle> {
        let facts = res.engine().facts();
        let mut b = Bundle {
            version: facts.bundle_version,
            ids: facts.node_ids.then(Vec::new),
            ..Bundle::default()
        };
        let mut paths: Vec<String> = Vec::new();
        for node in res.nodes() {
            let text = |k: &str| node.attr(k).and_then(Variant::as_str).map(str::to_string);
            let name = text("name").ok_or_else(|| missing("a [node] without a name"))?;
            let name_idx = b.add_name(&name);
            let parent = match text("parent") {
                Some(p) => b.resolve(&p, &paths, true, node.attr("parent_id_path")),
                None => -1,
            };
            let type_ = match text("type") {
                Some(t) => b.add_name(&t),
                None => TYPE_INSTANTIATED,
            };
            let deferred: Vec<String> = match node.attr("node_paths") {
                Some(Variant::PackedStringArray(a)) => a.0.clone(),
                Some(Variant::Array(a)) => a
                    .iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect(),
                _ => Vec::new(),
            };
            let mut instance = -1;
            if let Some(v) = node.attr("instance") {
                let at = b.add_value(v.clone());
                if b.nodes.is_empty() && parent == -1 {
                    b.base_scene = Some(i64::from(at));
                } else {
                    instance = at;
                }
            }
            if let Some(p) = node.attr("instance_placeholder") {
                instance = b.add_value(p.clone()) | FLAG_INSTANCE_IS_PLACEHOLDER;
            }
            let owner = match text("owner") {
                Some(o) => b.resolve(&o, &paths, false, node.attr("owner_uid_path")),
                None if parent != -1 && !(type_ == TYPE_INSTANTIATED && instance == -1) => 0,
                None => -1,
            };
            // The engines write `index="3"`; the loader converts what it finds to an int.
            let index = match node.attr("index") {
                Some(Variant::String(t)) => t.trim().parse::<i32>().unwrap_or(0),
                Some(v) => v.as_int().map_or(0, |i| i as i32),
                None => -1,
            };
            // The engine packs an index only below 2^14 - 1 (the bits above the name's).
            let name_field = if (0..MAX_INDEX).contains(&index) {
                name_idx | ((index + 1) << NAME_INDEX_BITS)
            } else {
                name_idx
            };
            let mut n = Node {
                parent,
                owner,
                type_,
                name: name_field,
                instance,
                ..Node::default()
            };
            for g in node.groups() {
                n.groups.push(b.add_name(&g));
            }
            for p in node.properties() {
                let mut k = b.add_name(p.name());
                if deferred.iter().any(|d| d == p.name()) {
                    k |= FLAG_PATH_PROPERTY_IS_NODE;
                }
                let v = b.add_value(p.value().clone());
                n.properties.push((k, v));
            }
            paths.push(TextResource::node_path(node).unwrap_or_default());
            b.nodes.push(n);
            if let Some(ids) = &mut b.ids {
                ids.push(
                    node.attr("unique_id")
                        .and_then(Variant::as_int)
                        .unwrap_or(0) as i32,
                );
            }
        }
        for c in res.connections() {
            let text = |k: &str| {
                c.attr(k)
                    .and_then(Variant::as_str)
                    .unwrap_or("")
                    .to_string()
            };
            // As the engine's text loader stores a connection's ends: each a path of its
            // own (simplified), never a node index, so that the scene the engine loads
            // from the binary file names them as from the text (`Timer`, not `./Timer`).
            let from = b.add_path(&text("from"), c.attr("from_uid_path"));
            let to = b.add_path(&text("to"), c.attr("to_uid_path"));
            let signal = b.add_name(&text("signal"));
            let method = b.add_name(&text("method"));
            let flags = c.attr("flags").and_then(Variant::as_int).unwrap_or(2) as i32;
            let unbinds = c.attr("unbinds").and_then(Variant::as_int).unwrap_or(0) as i32;
            let binds = match c.attr("binds") {
                Some(Variant::Array(a)) => a.iter().map(|v| b.add_value(v.clone())).collect(),
                _ => Vec::new(),
            };
            b.connections.push(Connection {
                from,
                to,
                signal,
                method,
                flags,
                binds,
                unbinds,
            });
        }
        for path in res.editable_paths() {
            b.editable.push(Variant::NodePath(NodePath::from(path)));
        }
        Ok(b)
    }

    fn add_name(&mut self, name: &str) -> i32 {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i as i32,
            None => {
                self.names.push(name.into());
                (self.names.len() - 1) as i32
            }
        }
    }

    fn add_value(&mut self, v: Variant) -> i32 {
        self.variants.push(v);
        (self.variants.len() - 1) as i32
    }

    /// A new `node_paths` entry for `path` (simplified), with its id path when it has one
    /// (4.6+), as the engine's `add_node_path` adds one: never shared.
    fn add_path(&mut self, path: &str, ids: Option<&Variant>) -> i32 {
        let np = Variant::NodePath(NodePath::from(simplified(path).as_str()));
        self.node_paths.push(np);
        let at = self.node_paths.len() - 1;
        if self.ids.is_some() {
            self.id_paths.resize(
                self.node_paths.len(),
                Variant::PackedInt32Array(Default::default()),
            );
            if let Some(Variant::PackedInt32Array(p)) = ids {
                self.id_paths[at] = Variant::PackedInt32Array(p.clone());
            }
        }
        at as i32 | FLAG_ID_IS_PATH
    }

    /// A node of the scene by its path (`.` the root), or a `node_paths` entry (always
    /// one when the node has an id path, `ids`, which it then keeps).
    fn resolve(
        &mut self,
        path: &str,
        paths: &[String],
        parent: bool,
        ids: Option<&Variant>,
    ) -> i32 {
        let simple = simplified(path);
        let ids = match ids {
            Some(Variant::PackedInt32Array(p)) if !p.0.is_empty() => Some(p.clone()),
            Some(Variant::Array(a)) if !a.is_empty() => Some(PackedInt32Array(
                a.iter().map(|v| v.as_int().unwrap_or(0) as i32).collect(),
            )),
            _ => None,
        };
        if ids.is_none() {
            if let Some(i) = paths.iter().position(|p| *p == simple) {
                return i as i32;
            }
        }
        // As the engine's loader stores a parent: with a leading `./`.
        let stored = if parent && simple != "." && !simple.starts_with('/') {
            format!("./{simple}")
        } else {
            simple
        };
        let np = Variant::NodePath(NodePath::from(stored.as_str()));
        let at = match self.node_paths.iter().position(|p| *p == np) {
            Some(i) => i,
            None => {
                self.node_paths.push(np);
                self.node_paths.len() - 1
            }
        };
        if self.ids.is_some() {
            self.id_paths.resize(
                self.node_paths.len(),
                Variant::PackedInt32Array(Default::default()),
            );
            if let Some(p) = ids {
                self.id_paths[at] = Variant::PackedInt32Array(p);
            }
        }
        at as i32 | FLAG_ID_IS_PATH
    }
}

fn missing(msg: &str) -> Error {
    Error::new(ErrorKind::Syntax(msg.into()))
}

/// A node path's text without a leading `./` (`NodePath::simplified` for the paths a
/// scene holds).
fn simplified(path: &str) -> String {
    match path.strip_prefix("./") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => path.to_string(),
    }
}
