//! Conversions: text ↔ binary resources and scenes, and Godot 3 → Godot 4 text.
//!
//! Text → binary keeps every resource, property and value; what a binary file cannot hold
//! is reported ([`Issue`]): an object that is not a resource (the engine stores it as
//! null), a typed Array's or Dictionary's element types (Godot 4.4's binary files store
//! them plain; the engine retypes them when it assigns them to a typed property). A scene's
//! nodes go into the `PackedScene`'s `_bundled` Dictionary ([`super::scene`]). The engine
//! loads the result to the same content; its own binary file of that resource would also
//! list, in its string table, every stored property of each class (which no file holds)
//! and store the `script` property of every resource as null.
//!
//! Binary → text writes what the engine's text saver writes for the same content, except
//! what the binary file does not hold: external resources get the ids `"1"`, `"2"`... in
//! table order (the engine's own are `"1_abcde"` with random letters, or numbers when it
//! has no uids), and the main resource's id is dropped (text files have none).
//!
//! Godot 3 → Godot 4 (text): classes Godot 4 renamed (`Spatial` → `Node3D`...; the list
//! of [`crate::save::convert_godot3_to_godot4`]) are written with their new names and
//! reported, since their properties may be renamed too (`translation` → `position`),
//! which no file says; `__meta__` becomes `metadata/<name>` properties; ids become
//! strings; scripts are reported (GDScript 3 does not run in Godot 4).

use super::binary::{
    uid_from_text, uid_to_text, BinaryResource, ExtResource, SubResource, FLAG_HAS_SCRIPT_CLASS,
    INVALID_UID,
};
use super::document::Section;
use super::godot4::Godot3Classes;
use super::reference::{Reference, EXT_CLASS, PATH_CLASS, SUB_CLASS};
use super::scene::Bundle;
use super::text::TextResource;
use super::versions::{file_needs_format_4, EngineVersion, ResourceView};
use crate::error::{Error, Result};
use crate::issue::Issue;
use godot_bin::Dialect;
use godot_bin::{Array, Object, Variant};
use std::collections::HashMap;

/// A converted file and what did not carry over.
#[derive(Clone, Debug)]
pub struct Converted<T> {
    /// The new file.
    pub file: T,
    /// What could not be carried over exactly.
    pub issues: Vec<Issue>,
}

fn issue(section: &str, property: &str, message: impl Into<String>) -> Issue {
    Issue::in_section(section, property, message)
}

/// Rewrites references and reports objects a binary file cannot hold.
fn to_binary_value(
    v: &mut Variant,
    ext: &HashMap<String, String>,
    at: (&str, &str),
    issues: &mut Vec<Issue>,
) {
    match v {
        Variant::Object(o) => match o.class_name.as_str() {
            EXT_CLASS => {
                if let Some(Reference::External(id)) = Reference::from_object(o) {
                    if let Some(n) = ext.get(&id) {
                        *v = Reference::External(n.clone()).to_variant();
                    }
                }
            }
            SUB_CLASS | PATH_CLASS => {}
            class => {
                issues.push(issue(
                        at.0,
                        at.1,
                        format!("an Object({class}, ...) is not a resource: a binary file stores it as null, as the engine does"),
                    ));
                *v = Variant::ObjectId(godot_bin::ObjectId(0));
            }
        },
        Variant::Array(a) => {
            if !a.element_type.is_untyped() {
                issues.push(issue(
                    at.0,
                    at.1,
                    "a typed Array is stored untyped, as the engine's binary saver stores it (the engine types it again only where it assigns it to a typed property)",
                ));
                a.element_type = Default::default();
            }
            a.iter_mut()
                .for_each(|x| to_binary_value(x, ext, at, issues));
        }
        Variant::Dictionary(d) => {
            if d.is_typed() {
                issues.push(issue(
                    at.0,
                    at.1,
                    "a typed Dictionary is stored untyped, as the engine's binary saver stores it (the engine types it again only where it assigns it to a typed property)",
                ));
                d.set_types(Default::default(), Default::default());
            }
            d.iter_mut()
                .for_each(|(_, x)| to_binary_value(x, ext, at, issues));
        }
        _ => {}
    }
}

fn section_name(s: &Section) -> String {
    match s.tag() {
        "node" => format!(
            "[node {:?}]",
            TextResource::node_path(s).unwrap_or_default()
        ),
        tag => match s.id() {
            Some(id) => format!("[{tag} id={id:?}]"),
            None => format!("[{tag}]"),
        },
    }
}

impl TextResource {
    /// This file as a binary resource (`.res` / `.scn`), of the same engine (Godot 3's
    /// format 3 for a `format=2` file, Godot 4.4's format 6 otherwise); see the
    /// [module docs](crate::resource#conversions).
    pub fn to_binary(&self) -> Result<Converted<BinaryResource>> {
        self.check_references()?;
        let dialect = self.dialect();
        let class = if self.is_scene() {
            "PackedScene".to_string()
        } else {
            self.header().type_name().unwrap_or("Resource").to_string()
        };
        let mut bin = BinaryResource::new_resource(&class, dialect);
        let engine = self.engine();
        bin.header_mut().version = (engine.major, engine.minor);
        bin.header_mut().format = engine.facts().binary_format;
        let mut issues = Vec::new();
        if self.format() > 4 {
            issues.push(issue(
                "[header]",
                "format",
                format!(
                    "format={} is newer than any engine this crate knows (up to {}); written as {engine}'s binary format",
                    self.format(),
                    EngineVersion::LATEST_KNOWN
                ),
            ));
        }
        if let Some(uid) = self.header().uid() {
            match uid_from_text(uid) {
                Some(u) if dialect == Dialect::Godot4 => bin.header_mut().uid = u,
                _ => issues.push(issue(
                    "[header]",
                    "uid",
                    format!("{uid:?} is not a uid this format holds; dropped"),
                )),
            }
        }
        if let Some(sc) = self.header().attr("script_class").and_then(Variant::as_str) {
            bin.header_mut().flags |= FLAG_HAS_SCRIPT_CLASS;
            bin.header_mut().script_class = Some(sc.into());
        }
        let mut ext = HashMap::new();
        for e in self.ext_resources() {
            let path = e.path().unwrap_or("");
            let path = match (is_relative(path), self.res_path()) {
                (false, _) => path.to_string(),
                (true, Some(own)) => resolve(own, path),
                (true, None) => {
                    issues.push(issue(
                        &section_name(e),
                        "path",
                        format!("{path:?} is relative to the file's folder, whose res:// path is not known (no project.godot in a folder above the file; TextResource::load finds it, set_res_path gives it): kept relative, where the engine's binary loader reads it from res:// and finds another file or none"),
                    ));
                    path.to_string()
                }
            };
            let id = bin.add_ext_resource(e.type_name().unwrap_or("Resource"), &path, e.uid());
            ext.insert(e.id().unwrap_or_default(), id);
        }
        let main = bin
            .resources_mut()
            .pop()
            .expect("a new file has its main resource");
        for s in self.sub_resources() {
            let id = s.id().unwrap_or_default();
            let mut r = SubResource::new(&id, s.type_name().unwrap_or("Resource"));
            let name = section_name(s);
            for p in s.properties() {
                let mut v = p.value().clone();
                to_binary_value(&mut v, &ext, (&name, p.name()), &mut issues);
                r.properties_mut().set(p.name(), v);
            }
            bin.resources_mut().push(r);
        }
        let mut main = main;
        if self.is_scene() {
            let mut bundle = Variant::Dictionary(Bundle::from_sections(self)?.to_dictionary());
            to_binary_value(&mut bundle, &ext, ("[node]", ""), &mut issues);
            main.properties_mut().set("_bundled", bundle);
        } else if let Some(s) = self.resource() {
            for p in s.properties() {
                let mut v = p.value().clone();
                to_binary_value(&mut v, &ext, ("[resource]", p.name()), &mut issues);
                main.properties_mut().set(p.name(), v);
            }
        }
        if dialect != Dialect::Godot4 {
            // Godot 3 numbers its internal resources; the main one follows the others.
            let next = bin
                .sub_resources()
                .iter()
                .filter_map(|r| r.id().parse::<u64>().ok())
                .max()
                .unwrap_or(0)
                + 1;
            main = rename(main, &next.to_string());
        }
        bin.resources_mut().push(main);
        issues.dedup();
        Ok(Converted { file: bin, issues })
    }
}

/// Whether an `[ext_resource]` path is relative to the file's folder, as the engine's
/// text loader decides (no `://`, not absolute).
fn is_relative(path: &str) -> bool {
    !path.is_empty() && !path.contains("://") && !path.starts_with('/') && !path.contains(":/")
}

/// `rel` joined to the folder of the file at `own` (`res://...`), `.` and `..` resolved:
/// the path the engine's text loader loads (and its binary saver stores).
fn resolve(own: &str, rel: &str) -> String {
    let (scheme, rest) = own.split_once("://").unwrap_or(("res", own));
    let mut parts: Vec<&str> = rest.split('/').filter(|p| !p.is_empty()).collect();
    parts.pop(); // the file's own name
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("{scheme}://{}", parts.join("/"))
}

fn rename(r: SubResource, id: &str) -> SubResource {
    let mut fresh = SubResource::new(id, r.type_name());
    for p in r.properties() {
        let (k, v) = (p.name(), p.value());
        fresh.properties_mut().set(k, v.clone());
    }
    fresh
}

fn text_id(id: &str, dialect: Dialect) -> Variant {
    match (dialect, id.parse::<i64>()) {
        (Dialect::Godot4, _) | (_, Err(_)) => Variant::from(id),
        (_, Ok(n)) => Variant::Int(n),
    }
}

impl BinaryResource {
    /// This file as a text resource (`.tres` / `.tscn`) of the same engine, as the
    /// engine's text saver lays it out; see the [module docs](crate::resource#conversions).
    pub fn to_text(&self) -> Result<Converted<TextResource>> {
        self.check_references()?;
        let dialect = self.dialect();
        let mut issues = Vec::new();
        let mut res = if self.is_scene() {
            TextResource::new_scene(dialect)
        } else {
            let mut r = TextResource::new_resource(&self.header().class, dialect);
            // `new_resource` added the `[resource]`; it goes after the sub-resources.
            r.sections_mut_vec().pop();
            r
        };
        let engine = self.engine();
        res.set_engine(engine);
        if !engine.is_known() {
            issues.push(issue(
                "[header]",
                "version",
                format!(
                    "written by Godot {engine}, newer than any engine this crate knows (up to {}): read as far as its format goes, and written as {}'s text",
                    EngineVersion::LATEST_KNOWN,
                    EngineVersion::LATEST_KNOWN
                ),
            ));
        }
        if let Some(sc) = &self.header().script_class {
            res.header_mut().set_attr("script_class", sc.as_str());
        }
        let uid = self.header().uid;
        if dialect == Dialect::Godot4 && uid != INVALID_UID && uid <= i64::MAX as u64 {
            res.header_mut().set_attr("uid", uid_to_text(uid));
        }
        let view: Vec<ResourceView<'_>> = std::iter::once((self.resource(), false))
            .chain(self.sub_resources().iter().map(|r| (r, true)))
            .map(|(r, sub)| {
                (
                    r.type_name(),
                    sub.then(|| r.id().to_string()),
                    r.properties(),
                )
            })
            .collect();
        let format4 = file_needs_format_4(&view);
        if format4 && dialect == Dialect::Godot4 && engine.facts().text_format_4 {
            res.header_mut().set_attr("format", 4);
        }
        for (i, e) in self.ext_resources().iter().enumerate() {
            let ExtResource {
                type_name,
                path,
                uid,
            } = e;
            let mut attrs: Vec<(String, Variant)> = Vec::new();
            let id = text_id(&(i + 1).to_string(), dialect);
            if dialect == Dialect::Godot4 {
                attrs.push(("type".into(), type_name.as_str().into()));
                if let Some(u) = uid.filter(|&u| u != INVALID_UID && u <= i64::MAX as u64) {
                    attrs.push(("uid".into(), uid_to_text(u).into()));
                }
                attrs.push(("path".into(), path.as_str().into()));
            } else {
                attrs.push(("path".into(), path.as_str().into()));
                attrs.push(("type".into(), type_name.as_str().into()));
            }
            attrs.push(("id".into(), id));
            res.push_section("ext_resource", attrs);
        }
        let (subs, main) = (self.sub_resources(), self.resource());
        for r in subs {
            let attrs = vec![
                ("type".into(), r.type_name().into()),
                ("id".into(), text_id(r.id(), dialect)),
            ];
            let s = res.push_section("sub_resource", attrs);
            for p in r.properties() {
                let (k, v) = (p.name(), p.value());
                if k == "script" && v.is_nil() {
                    continue;
                }
                s.properties_mut().set(
                    k,
                    from_binary_value(
                        v,
                        &format!("[sub_resource id={:?}]", r.id()),
                        k,
                        &mut issues,
                    ),
                );
            }
        }
        if self.is_scene() {
            let Some(Variant::Dictionary(bundled)) = main.properties().get("_bundled") else {
                return Err(Error::corrupt(
                    "a PackedScene without its _bundled Dictionary",
                ));
            };
            // Node values go through the same check as resources' (a RID, a float no
            // text brings back), reported against the nodes.
            let bundled = match from_binary_value(
                &Variant::Dictionary(bundled.clone()),
                "[node]",
                "a node's property",
                &mut issues,
            ) {
                Variant::Dictionary(d) => d,
                _ => bundled.clone(),
            };
            Bundle::from_dictionary(&bundled)?.to_sections(&mut res)?;
        } else {
            let s = res.push_section("resource", Vec::new());
            for p in main.properties() {
                let (k, v) = (p.name(), p.value());
                // The binary saver stores a null script; the text saver leaves it out.
                if k == "script" && v.is_nil() {
                    continue;
                }
                s.properties_mut()
                    .set(k, from_binary_value(v, "[resource]", k, &mut issues));
            }
        }
        res.update_load_steps();
        Ok(Converted { file: res, issues })
    }
}

/// A binary value for text: a reference by type and path keeps its path only; a RID is
/// the int the engine loads (its binary loader reads the id into the value as it is); a
/// float the engine cannot read back from any text is reported.
fn from_binary_value(
    v: &Variant,
    section: &str,
    property: &str,
    issues: &mut Vec<Issue>,
) -> Variant {
    match v {
        Variant::Rid(r) => {
            issues.push(issue(
                section,
                property,
                format!(
                    "a RID ({}) loads in the engine as the int {0}; written as that int",
                    r.0
                ),
            ));
            Variant::Int(r.0 as i64)
        }
        Variant::Float(x) => {
            report_float(*x, section, property, issues);
            v.clone()
        }
        Variant::PackedFloat64Array(a) => {
            for x in &a.0 {
                report_float(*x, section, property, issues);
            }
            v.clone()
        }
        Variant::Object(o) if o.class_name == PATH_CLASS && o.properties.len() > 1 => {
            issues.push(issue(
                section,
                property,
                "a reference by type and path keeps its path only in text",
            ));
            Reference::from_object(o).map_or(Variant::Nil, |r| r.to_variant())
        }
        Variant::Array(a) => {
            let mut a = a.clone();
            a.iter_mut()
                .for_each(|x| *x = from_binary_value(x, section, property, issues));
            Variant::Array(a)
        }
        Variant::Dictionary(d) => {
            let mut d = d.clone();
            d.iter_mut()
                .for_each(|(_, x)| *x = from_binary_value(x, section, property, issues));
            Variant::Dictionary(d)
        }
        other => other.clone(),
    }
}

/// Reports a double no text brings back through the engine's reading ([`super::strtod`]).
fn report_float(x: f64, section: &str, property: &str, issues: &mut Vec<Issue>) {
    if let Some((text, read)) = super::numbers::unreadable(x) {
        issues.push(issue(
            section,
            property,
            format!("the engine reads no text as {x:e} exactly: written as {text}, which it reads as {read:e}"),
        ));
    }
}

/// The Godot 4 name of a Godot 3 class ([`crate::renames`], the one home of the facts).
pub(crate) fn godot4_class(class: &str) -> String {
    crate::renames::godot4_class(class)
        .unwrap_or(class)
        .to_string()
}

impl TextResource {
    /// A Godot 3 text resource or scene (`format=2`) as Godot 4 text (`format=3`); see the
    /// [module docs](crate::resource#conversions). A Godot 4 file is returned as it is.
    pub fn to_godot4(&self) -> Result<Converted<TextResource>> {
        self.to_godot4_with(&Godot3Classes::new())
    }

    /// [`to_godot4`](Self::to_godot4), knowing the Godot 3 root class of other scenes
    /// (what a node instanced from them is, so that its properties are renamed by its
    /// class): what a project conversion ([`crate::upgrade::project`]) gives each file.
    pub fn to_godot4_with(&self, known: &Godot3Classes) -> Result<Converted<TextResource>> {
        if self.dialect() == Dialect::Godot4 {
            return Ok(Converted {
                file: self.clone(),
                issues: Vec::new(),
            });
        }
        let mut issues = Vec::new();
        let mut out = if self.is_scene() {
            TextResource::new_scene(Dialect::Godot4)
        } else {
            let class = self.header().type_name().unwrap_or("Resource");
            let new = godot4_class(class);
            let mut r = TextResource::new_resource(&new, Dialect::Godot4);
            r.sections_mut_vec().pop();
            r
        };
        for s in self.sections() {
            let name = section_name(s);
            let mut attrs: Vec<(String, Variant)> = Vec::new();
            for (k, v) in s.attrs() {
                let v = match (k.as_str(), v) {
                    ("id", Variant::Int(i)) => Variant::from(i.to_string()),
                    ("type", Variant::String(t)) => {
                        let new = godot4_class(t);
                        if new != *t && s.tag() == "ext_resource" {
                            issues.push(issue(
                                &name,
                                "type",
                                format!(
                                    "{t} is {new} in Godot 4 (the type the engine loads {} as)",
                                    s.path().unwrap_or("")
                                ),
                            ));
                        }
                        Variant::from(new)
                    }
                    _ => godot4_value(v),
                };
                attrs.push((k.clone(), v));
            }
            if s.tag() == "ext_resource" {
                // Godot 4's order: type, path, id.
                attrs.sort_by_key(|(k, _)| {
                    ["type", "uid", "path", "id"].iter().position(|o| o == k)
                });
                if s.type_name() == Some("Script") {
                    issues.push(issue(
                        &name,
                        "",
                        format!(
                            "{} is a Godot 3 script, which Godot 4 does not run as it is",
                            s.path().unwrap_or("")
                        ),
                    ));
                }
            }
            let section = out.push_section(s.tag(), attrs);
            for p in s.properties() {
                match (p.name(), p.value()) {
                    ("__meta__", Variant::Dictionary(meta)) => {
                        for (k, v) in meta.iter() {
                            match k.as_str() {
                                Some(k) => section.properties_mut().set(&format!("metadata/{k}"), godot4_value(v)),
                                None => issues.push(issue(&name, "__meta__", format!("a metadata key that is not text ({}) has no Godot 4 property", k.get_type()))),
                            }
                        }
                    }
                    (n, v) => section.properties_mut().set(n, godot4_value(v)),
                }
            }
        }
        super::godot4::upgrade(self, &mut out, known, &mut issues);
        out.update_load_steps();
        Ok(Converted { file: out, issues })
    }
}

/// A Godot 3 value for Godot 4: references' number ids as strings, an inline object's
/// class by its Godot 4 name (`Reference` is `RefCounted`) and its `__meta__` as
/// `metadata/` properties.
fn godot4_value(v: &Variant) -> Variant {
    match v {
        Variant::Object(o) => match Reference::from_object(o) {
            Some(r @ (Reference::External(_) | Reference::Sub(_))) => r.to_variant(),
            Some(Reference::Path(_)) => v.clone(),
            None => {
                let mut out = Object {
                    class_name: godot4_class(&o.class_name),
                    properties: Vec::with_capacity(o.properties.len()),
                };
                for (k, x) in &o.properties {
                    match (k.as_str(), x) {
                        ("__meta__", Variant::Dictionary(meta)) => {
                            for (mk, mv) in meta.iter() {
                                if let Some(mk) = mk.as_str() {
                                    let mv = godot4_value(mv);
                                    out.properties.push((format!("metadata/{mk}"), mv));
                                }
                            }
                        }
                        _ => out.properties.push((k.clone(), godot4_value(x))),
                    }
                }
                Variant::Object(out)
            }
        },
        // Each element converted once: cloning the array first and then converting into
        // it would copy every nested level again at each level above it.
        Variant::Array(a) => Variant::Array(Array {
            element_type: a.element_type.clone(),
            items: a.items.iter().map(godot4_value).collect(),
            shared: a.shared,
        }),
        Variant::Dictionary(d) => {
            let mut d = d.clone();
            d.iter_mut().for_each(|(_, x)| *x = godot4_value(x));
            Variant::Dictionary(d)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_against_the_files_folder() {
        let own = "res://models/tree/tree.tres";
        assert_eq!(resolve(own, "bark.png"), "res://models/tree/bark.png");
        assert_eq!(resolve(own, "./bark.png"), "res://models/tree/bark.png");
        assert_eq!(
            resolve(own, "../shared/leaf.png"),
            "res://models/shared/leaf.png"
        );
        assert_eq!(resolve("res://a.tres", "b.png"), "res://b.png");
        assert!(is_relative("bark.png"));
        assert!(is_relative("../x.png"));
        assert!(!is_relative("res://x.png"));
        assert!(!is_relative("user://x.png"));
        assert!(!is_relative("/abs/x.png"));
    }
}
