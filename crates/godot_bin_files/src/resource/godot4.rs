//! Godot 3 → Godot 4: what a rename implies for the properties, signals and animations of
//! a text resource or scene, after [`TextResource::to_godot4`] has renamed its classes.
//!
//! Every property is looked up by its Godot 3 class ([`crate::renames`]): a node's `type`,
//! the root class of the scene an instanced node comes from (known in a project
//! conversion, [`Godot3Classes`]), a sub-resource's `type`. Then:
//!
//! * a renamed property takes its Godot 4 name, and its value what the rename implies
//!   (`extents` doubled into `size`, `rect_rotation` degrees into `rotation` radians, key
//!   codes renumbered, `pause_mode` into `process_mode`, `loop` into `loop_mode`, a
//!   capsule's middle height into its whole height...);
//! * theme overrides (`custom_colors/x` → `theme_override_colors/x`, renamed items too);
//!   `shader_param/x` → `shader_parameter/x`; `material/N` → `surface_material_override/N`;
//! * an AnimationPlayer's `anims/NAME` go into an `AnimationLibrary` sub-resource held in
//!   its `libraries` (`{"": SubResource(...)}`), as Godot 4 keeps them; the tracks of its
//!   animations point at renamed properties (`.:rect_position` → `.:position`), with the
//!   keys' values converted, the target's class found from the player's `root_node`;
//! * `[connection]` signals Godot 4 renamed;
//! * 3D shapes whose Godot 3 default Godot 4 changed get the Godot 3 value written;
//! * a property Godot 4 has no home for (its Godot 4 class and the classes above it have
//!   no property of that name) is kept in the file, which Godot 4 ignores, and named in
//!   the issues.

use super::document::Section;
use super::reference::Reference;
use super::text::TextResource;
use crate::issue::Issue;
use crate::renames::properties::{self, Value};
use crate::renames::{godot3, godot4, godot4_class};
use godot_bin::{Dictionary, NodePath, Object, Variant};
use std::collections::HashMap;

/// The Godot 3 class of each scene's root node, by `res://` path: what a node instanced
/// from that scene is. Filled by a project conversion for every scene of the project.
#[derive(Clone, Debug, Default)]
pub struct Godot3Classes {
    roots: HashMap<String, String>,
}

impl Godot3Classes {
    /// No scene known.
    pub fn new() -> Godot3Classes {
        Godot3Classes::default()
    }

    /// Records that the scene at `path` (`res://...`) has a root of Godot 3 class `class`.
    pub fn insert(&mut self, path: &str, class: &str) {
        self.roots.insert(path.to_string(), class.to_string());
    }

    /// The root class of the scene at `path`.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.roots.get(path).map(String::as_str)
    }

    /// The Godot 3 root class of a scene: its root node's `type`, or that of the scene it
    /// inherits (when known).
    pub fn root_of(&self, scene: &TextResource) -> Option<String> {
        let root = scene.nodes().next()?;
        if let Some(t) = root.type_name() {
            return Some(t.to_string());
        }
        let Some(Reference::External(id)) = root.instance() else {
            return None;
        };
        let path = scene.ext_resource(&id)?.path()?;
        self.get(path).map(str::to_string)
    }
}

fn issue(section: &str, property: &str, message: impl Into<String>) -> Issue {
    Issue::in_section(section, property, message)
}

/// The Godot 3 class of each section of `src` (same order as its sections), and of each
/// node by path.
fn classes_of(
    src: &TextResource,
    known: &Godot3Classes,
) -> (Vec<Option<String>>, HashMap<String, String>) {
    let mut by_path = HashMap::new();
    let header_type = src.header().type_name().map(str::to_string);
    let mut out = Vec::new();
    for s in src.sections() {
        let class = match s.tag() {
            "sub_resource" => s.type_name().map(str::to_string),
            "resource" => header_type.clone(),
            "node" => {
                let class = s.type_name().map(str::to_string).or_else(|| {
                    let Some(Reference::External(id)) = s.instance() else {
                        return None;
                    };
                    let path = src.ext_resource(&id)?.path()?;
                    known.get(path).map(str::to_string)
                });
                if let (Some(c), Some(p)) = (&class, TextResource::node_path(s)) {
                    by_path.insert(p, c.clone());
                }
                class
            }
            _ => None,
        };
        out.push(class);
    }
    (out, by_path)
}

/// Godot 3's default of a property whose Godot 4 default differs, written when the file
/// leaves it out (the engine leaves a default out of a file): the value Godot 3 had.
fn changed_default(class3: &str, section: &mut Section) {
    let props = section.properties_mut();
    let float = |props: &super::Properties, k: &str, d: f64| {
        props.get(k).and_then(Variant::as_float).unwrap_or(d)
    };
    match class3 {
        "BoxShape" if props.get("size").is_none() => {
            props.set("size", godot_bin::Vector3::new(2.0, 2.0, 2.0));
        }
        "SphereShape" | "CylinderShape" if props.get("radius").is_none() => {
            props.set("radius", 1.0);
        }
        "CapsuleShape" | "CapsuleShape2D" => {
            // Godot 3's height is the middle part; Godot 4's the whole capsule.
            let (r, mid) = if class3 == "CapsuleShape" {
                (1.0, 2.0)
            } else {
                (10.0, 20.0)
            };
            let r = float(props, "radius", r);
            let mid = float(props, "height", mid);
            props.set("radius", r);
            props.set("height", mid + 2.0 * r);
        }
        _ => {}
    }
}

/// Converts a value as a rename implies; `Err` names what could not be.
pub(crate) fn convert_value(kind: Value, v: &Variant) -> Result<Variant, String> {
    use godot_bin::{Vector2, Vector3};
    let bad = || format!("a {} where the rename expects another type", v.get_type());
    Ok(match (kind, v) {
        (Value::Same | Value::PlusDiameter, v) => v.clone(),
        (Value::Double, Variant::Vector2(a)) => {
            Variant::Vector2(Vector2::new(a.x * 2.0, a.y * 2.0))
        }
        (Value::Double, Variant::Vector3(a)) => {
            Variant::Vector3(Vector3::new(a.x * 2.0, a.y * 2.0, a.z * 2.0))
        }
        (Value::Double, Variant::Float(x)) => Variant::Float(x * 2.0),
        (Value::DegreesToRadians, v) => Variant::Float(v.as_float().ok_or_else(bad)?.to_radians()),
        (Value::PauseMode, Variant::Int(2)) => Variant::Int(3),
        (Value::PauseMode, Variant::Int(i)) => Variant::Int(*i),
        (Value::Keycode, Variant::Int(i)) => {
            Variant::Int(crate::renames::settings::godot4_keycode(*i))
        }
        (Value::BoolTo(n), Variant::Bool(b)) => Variant::Int(if *b { n } else { 0 }),
        (Value::Not, Variant::Bool(b)) => Variant::Bool(!b),
        (Value::LoopMode, Variant::Bool(b)) => Variant::Int(i64::from(*b)),
        (Value::Table(t), Variant::Int(i)) => {
            Variant::Int(t.iter().find(|(a, _)| a == i).map_or(*i, |(_, b)| *b))
        }
        (Value::IntoArray, Variant::Nil) => Variant::Array(godot_bin::Array::new()),
        (Value::IntoArray, v) => Variant::Array(godot_bin::Array::from(vec![v.clone()])),
        _ => return Err(bad()),
    })
}

/// The Godot 4 name and value of property `name` of a Godot 3 `class` (`None`: unknown
/// class), or `None` when it keeps both.
fn rename_property(
    class: Option<&str>,
    name: &str,
    value: &Variant,
    at: (&str, &str),
    issues: &mut Vec<Issue>,
) -> Option<(String, Variant)> {
    let (to, kind) = properties::godot4_name(godot3(), class, name)?;
    match convert_value(kind, value) {
        Ok(v) => Some((to, v)),
        Err(why) => {
            issues.push(issue(
                at.0,
                at.1,
                format!("{why}: kept as it is, under Godot 4's name {to}"),
            ));
            Some((to, value.clone()))
        }
    }
}

/// Whether Godot 4 has no home for property `name` of an object of Godot 3 `class3`.
fn no_home(class3: &str, name: &str) -> bool {
    if properties::GONE_PREFIXES
        .iter()
        .any(|(c, p, _)| name.starts_with(p) && godot3().is_a(class3, c))
    {
        return true;
    }
    let class4 = godot4_class(class3).unwrap_or(class3);
    godot3().knows(class3)
        && godot4().knows(class4)
        && !name.contains('/')
        && name != "script"
        && !godot4().has(class4, name)
}

/// Converts one section's properties (or an inline object's): returns the new list.
fn upgrade_properties(
    class3: Option<&str>,
    props: Vec<(String, Variant)>,
    section: &str,
    issues: &mut Vec<Issue>,
) -> Vec<(String, Variant)> {
    let props = match class3 {
        Some(c) => reshape(c, props, section, issues),
        None => props,
    };
    let mut out: Vec<(String, Variant)> = Vec::with_capacity(props.len());
    for (name, value) in props {
        let value = upgrade_inline(&value, section, &name, issues);
        if let Some((c, _, why)) = properties::NOT_FOLLOWED
            .iter()
            .find(|(c, n, _)| *n == name && class3.is_some_and(|k| godot3().is_a(k, c)))
        {
            issues.push(issue(
                section,
                &name,
                format!("no home in Godot 4: {c}.{name} is {why}; kept, Godot 4 ignores it"),
            ));
            out.push((name, value));
            continue;
        }
        let (new, value) = rename_property(class3, &name, &value, (section, &name), issues)
            .unwrap_or((name.clone(), value));
        // Only a property of the Godot 3 class itself: another one belongs to the object's
        // script (kept; it has a home once the script is ported).
        let engine_property = class3.is_some_and(|c| {
            godot3().has(c, &name)
                || properties::GONE_PREFIXES
                    .iter()
                    .any(|(k, p, _)| name.starts_with(p) && godot3().is_a(c, k))
        });
        if let (Some(c), true) = (class3, engine_property) {
            if no_home(c, &new) {
                issues.push(issue(
                    section,
                    &name,
                    format!(
                        "no home in Godot 4: {} has no property {new}; kept, Godot 4 ignores it",
                        godot4_class(c).unwrap_or(c)
                    ),
                ));
            }
        }
        // A renamed property replaces one already there under the new name
        // (`enabled_focus_mode` over `focus_mode`).
        out.retain(|(k, _)| *k != new);
        out.push((new, value));
    }
    out
}

/// A Godot 3 value for Godot 4: inline objects (an InputEvent in an Array...) with their
/// classes and properties converted by their own class.
pub(crate) fn upgrade_value(v: &Variant, at: &str, issues: &mut Vec<Issue>) -> Variant {
    upgrade_inline(v, at, "", issues)
}

/// Properties Godot 4 holds in another shape, past the engine's table: a particle value and
/// its randomness as a range ([`properties::PARTICLE_RANGES`]), a rigid body's `mode` as
/// `freeze` / `freeze_mode` / `lock_rotation`.
fn reshape(
    class3: &str,
    mut props: Vec<(String, Variant)>,
    section: &str,
    issues: &mut Vec<Issue>,
) -> Vec<(String, Variant)> {
    let g3 = godot3();
    items(class3, &mut props, section, issues);
    for (classes, from, to, default) in properties::PARTICLE_RANGES {
        if !classes.iter().any(|c| g3.is_a(class3, c)) {
            continue;
        }
        let random = format!("{from}_random");
        let pos = props.iter().position(|(k, _)| k == from || *k == random);
        let Some(pos) = pos else { continue };
        let take = |props: &mut Vec<(String, Variant)>, k: &str| {
            let i = props.iter().position(|(n, _)| n == k)?;
            props.remove(i).1.as_float()
        };
        let v = take(&mut props, from).unwrap_or(*default);
        let r = take(&mut props, &random).unwrap_or(0.0);
        let at = pos.min(props.len());
        props.insert(at, (format!("{to}_max"), Variant::Float(v)));
        props.insert(at, (format!("{to}_min"), Variant::Float(v * (1.0 - r))));
    }
    if g3.is_a(class3, "RigidBody") || g3.is_a(class3, "RigidBody2D") {
        if let Some(i) = props.iter().position(|(k, _)| k == "mode") {
            // Godot 3: rigid 0, static 1, character 2, kinematic 3.
            let mode = props[i].1.as_int();
            let new: Vec<(String, Variant)> = match mode {
                Some(1) => vec![
                    ("freeze".into(), true.into()),
                    ("freeze_mode".into(), 0.into()),
                ],
                Some(3) => vec![
                    ("freeze".into(), true.into()),
                    ("freeze_mode".into(), 1.into()),
                ],
                Some(2) => vec![("lock_rotation".into(), true.into())],
                Some(0) => vec![],
                _ => return props,
            };
            props.splice(i..=i, new);
        }
    }
    props
}

/// Godot 3's `items` Array of an OptionButton, a PopupMenu or an ItemList (so many values
/// per item) as Godot 4's `item_count` and one property per item field, past the
/// engine's table; the fields Godot 4 has no property for are named.
fn items(class3: &str, props: &mut Vec<(String, Variant)>, section: &str, issues: &mut Vec<Issue>) {
    let g3 = godot3();
    // Godot 3's fields per item, and the Godot 4 prefix and name of each (None: no home).
    let (prefix, fields): (&str, &[Option<&str>]) = if g3.is_a(class3, "OptionButton") {
        (
            "popup/item_",
            &[
                Some("text"),
                Some("icon"),
                Some("disabled"),
                Some("id"),
                None,
            ],
        )
    } else if g3.is_a(class3, "PopupMenu") {
        let f: &[Option<&str>] = &[
            Some("text"),
            Some("icon"),
            Some("checkable"),
            Some("checked"),
            Some("disabled"),
            Some("id"),
            None, // accelerator: a Shortcut in Godot 4
            None, // metadata
            None, // submenu
            Some("separator"),
        ];
        ("item_", f)
    } else if g3.is_a(class3, "ItemList") {
        ("item_", &[Some("text"), Some("icon"), Some("disabled")])
    } else {
        return;
    };
    let Some(at) = props.iter().position(|(k, _)| k == "items") else {
        return;
    };
    let Variant::Array(items) = props[at].1.clone() else {
        return;
    };
    let n = fields.len();
    let count = items.len() / n;
    let mut new = vec![("item_count".to_string(), Variant::Int(count as i64))];
    for i in 0..count {
        for (j, field) in fields.iter().enumerate() {
            let v = items.items.get(i * n + j).cloned().unwrap_or_default();
            match field {
                Some(f) => new.push((format!("{prefix}{i}/{f}"), v)),
                None => {
                    let empty = match &v {
                        Variant::Nil => true,
                        Variant::Int(0) => true,
                        Variant::String(s) => s.is_empty(),
                        _ => false,
                    };
                    if !empty {
                        issues.push(issue(
                            section,
                            "items",
                            format!("no home in Godot 4: item {i}'s field {j} ({v:?}) of a {class3} (accelerator, metadata or submenu); dropped"),
                        ));
                    }
                }
            }
        }
    }
    if items.len() % n != 0 {
        issues.push(issue(
            section,
            "items",
            format!(
                "{} values are not whole items of {n}: the rest dropped",
                items.len()
            ),
        ));
    }
    props.splice(at..=at, new);
}

/// Inline objects inside a value (an InputEvent in an Array...): their properties
/// converted by their own class.
fn upgrade_inline(v: &Variant, section: &str, property: &str, issues: &mut Vec<Issue>) -> Variant {
    match v {
        Variant::Object(o) if Reference::from_object(o).is_none() => {
            Variant::Object(upgrade_object(o, section, property, issues))
        }
        Variant::Array(a) => {
            let mut a = a.clone();
            for x in a.iter_mut() {
                *x = upgrade_inline(x, section, property, issues);
            }
            Variant::Array(a)
        }
        Variant::Dictionary(d) => {
            let mut d = d.clone();
            for (_, x) in d.iter_mut() {
                *x = upgrade_inline(x, section, property, issues);
            }
            Variant::Dictionary(d)
        }
        other => other.clone(),
    }
}

/// An inline Godot 3 object (class already renamed or not) as Godot 4 has it: properties
/// renamed by its Godot 3 class, joypad buttons and axes renumbered.
pub(crate) fn upgrade_object(
    o: &Object,
    section: &str,
    property: &str,
    issues: &mut Vec<Issue>,
) -> Object {
    let class3 = crate::renames::classes::godot3_name(&o.class_name);
    let at = format!("{section} {property}");
    let mut props = upgrade_properties(Some(class3), o.properties.clone(), at.trim(), issues);
    let mut class = godot4_class(class3).unwrap_or(class3).to_string();
    if class3 == "InputEventJoypadButton" {
        let index = props.iter().find(|(k, _)| k == "button_index");
        if let Some(i) = index.and_then(|(_, v)| v.as_int()) {
            match usize::try_from(i)
                .ok()
                .and_then(|i| crate::renames::settings::JOYPAD_BUTTONS.get(i))
            {
                Some(-1) => {
                    // L2 / R2: axes 4 / 5 in Godot 4.
                    class = "InputEventJoypadMotion".into();
                    props = vec![
                        ("axis".into(), Variant::Int(if i == 6 { 4 } else { 5 })),
                        ("axis_value".into(), Variant::Float(1.0)),
                    ];
                }
                Some(&n) => {
                    for (k, v) in props.iter_mut() {
                        if k == "button_index" {
                            *v = Variant::Int(n);
                        }
                    }
                }
                None => {}
            }
        }
        // Godot 4 has no pressure.
        props.retain(|(k, _)| k != "pressure");
    }
    if class3 == "InputEventJoypadMotion" {
        for (k, v) in props.iter_mut() {
            if let (true, Some(a)) = (k == "axis", v.as_int()) {
                *v = Variant::Int(crate::renames::settings::godot4_axis(a));
            }
        }
    }
    Object {
        class_name: class,
        properties: props,
    }
}

/// Converts the sections of `out` (the Godot 4 text made from `src`, the same sections in
/// the same order) as the module docs say.
pub(crate) fn upgrade(
    src: &TextResource,
    out: &mut TextResource,
    known: &Godot3Classes,
    issues: &mut Vec<Issue>,
) {
    let (classes, by_path) = classes_of(src, known);
    // The animations each AnimationPlayer holds, and the node its tracks start from.
    let mut players: Vec<(String, Vec<(String, Variant)>)> = Vec::new();
    let mut anim_base: HashMap<String, String> = HashMap::new();
    for (section, class3) in out.sections_mut().iter_mut().zip(&classes) {
        let tag = section.tag().to_string();
        if !matches!(tag.as_str(), "node" | "sub_resource" | "resource") {
            continue;
        }
        let name = section_label(section);
        let class3 = class3.as_deref();
        let props: Vec<(String, Variant)> = section
            .properties()
            .iter()
            .map(|p| (p.name().to_string(), p.value().clone()))
            .collect();
        let is_player = class3.is_some_and(|c| godot3().is_a(c, "AnimationPlayer"));
        let (anims, props): (Vec<_>, Vec<_>) = props
            .into_iter()
            .partition(|(k, _)| is_player && k.starts_with("anims/"));
        let props = upgrade_properties(class3, props, &name, issues);
        let p = section.properties_mut();
        p.items.clear();
        for (k, v) in props {
            p.set(&k, v);
        }
        if let Some(c) = class3 {
            changed_default(c, section);
        }
        if is_player {
            let path = TextResource::node_path(section).unwrap_or_else(|| ".".into());
            let root = match section.properties().get("root_node") {
                Some(Variant::NodePath(n)) => n.to_string(),
                _ => "..".into(),
            };
            let base = join_path(&path, &root);
            for (_, v) in &anims {
                if let Some(Reference::Sub(id)) = Reference::from_variant(v) {
                    anim_base.insert(id, base.clone());
                }
            }
            if !anims.is_empty() {
                players.push((path, anims));
            }
        }
    }
    // Animation tracks: after the nodes are known, before libraries are added (which
    // move sections).
    for (section, class3) in out.sections_mut().iter_mut().zip(&classes) {
        if section.tag() == "sub_resource" && class3.as_deref() == Some("Animation")
            || section.tag() == "resource" && class3.as_deref() == Some("Animation")
        {
            let base = section.id().and_then(|id| anim_base.get(&id).cloned());
            upgrade_tracks(section, base.as_deref(), &by_path, issues);
        }
    }
    for (path, anims) in players {
        let mut data = Dictionary::new();
        for (k, v) in anims {
            data.insert(k.trim_start_matches("anims/"), v);
        }
        let id = out.add_sub_resource("AnimationLibrary");
        if let Some(lib) = out.sub_resource_mut(&id) {
            lib.properties_mut().set("_data", Variant::Dictionary(data));
        }
        let mut libraries = Dictionary::new();
        libraries.insert("", Reference::Sub(id).to_variant());
        if let Some(node) = out.node_mut(&path) {
            node.properties_mut()
                .set("libraries", Variant::Dictionary(libraries));
        }
    }
    for c in out
        .sections_mut()
        .iter_mut()
        .filter(|s| s.tag() == "connection")
    {
        let (Some(sig), Some(from)) = (
            c.attr("signal")
                .and_then(Variant::as_str)
                .map(str::to_string),
            c.attr("from").and_then(Variant::as_str).map(str::to_string),
        ) else {
            continue;
        };
        let class = by_path.get(&from).map(String::as_str);
        if let Some(new) = properties::signal(godot3(), class, &sig) {
            c.set_attr("signal", new);
        }
    }
}

/// `[node name="A" parent="B"]`-like label for issues.
fn section_label(s: &Section) -> String {
    match s.tag() {
        "node" => format!(
            "[node {:?}]",
            TextResource::node_path(s).unwrap_or_default()
        ),
        "sub_resource" => format!("[sub_resource id={:?}]", s.id().unwrap_or_default()),
        t => format!("[{t}]"),
    }
}

/// `base` (a node path, `.` the root) followed by a relative `rel`, normalized.
fn join_path(base: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = base
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

/// An Animation's tracks: paths to renamed properties renamed, the keys' values
/// converted, update modes renumbered; `base` is where its player's tracks start (unknown
/// for an animation no player of this file holds: the property is then renamed only
/// where the name alone says how).
fn upgrade_tracks(
    section: &mut Section,
    base: Option<&str>,
    nodes: &HashMap<String, String>,
    issues: &mut Vec<Issue>,
) {
    let label = section_label(section);
    let names: Vec<String> = section.properties().names().map(str::to_string).collect();
    for name in names {
        let Some(track) = name
            .strip_prefix("tracks/")
            .and_then(|r| r.strip_suffix("/path"))
        else {
            continue;
        };
        let Some(Variant::NodePath(path)) = section.properties().get(&name).cloned() else {
            continue;
        };
        let ty = section
            .properties()
            .get(&format!("tracks/{track}/type"))
            .and_then(Variant::as_str)
            .unwrap_or("value")
            .to_string();
        if ty == "transform" {
            issues.push(issue(
                &label,
                &name,
                "no home in Godot 4: a transform track (Godot 4 splits it into position, rotation and scale tracks of another key layout); kept, Godot 4 ignores it",
            ));
            continue;
        }
        let Some(prop) = path.subnames.first().cloned() else {
            continue;
        };
        let target = base.map(|b| join_path(b, &path.names.join("/")));
        let class = target
            .as_ref()
            .and_then(|t| nodes.get(t))
            .map(String::as_str);
        let class = class.or(None);
        let renamed = properties::godot4_name(godot3(), class, &prop);
        let Some((new, kind)) = renamed else { continue };
        let mut np: NodePath = path.clone();
        np.subnames[0] = new;
        section.properties_mut().set(&name, Variant::NodePath(np));
        let keys = format!("tracks/{track}/keys");
        if kind != Value::Same && ty == "value" {
            if let Some(Variant::Dictionary(d)) = section.properties_mut().get_mut(&keys) {
                if let Some(Variant::Array(values)) = d.get_mut("values") {
                    for x in values.iter_mut() {
                        match convert_value(kind, x) {
                            Ok(v) => *x = v,
                            Err(why) => issues.push(issue(&label, &keys, why)),
                        }
                    }
                }
            }
        }
    }
    // Update modes: Godot 3 continuous 0, discrete 1, trigger 2, capture 3; Godot 4
    // continuous 0, discrete 1, capture 2 (a trigger is discrete).
    for p in section.properties_mut().iter_mut() {
        if !(p.name().starts_with("tracks/") && p.name().ends_with("/keys")) {
            continue;
        }
        if let Variant::Dictionary(d) = p.value() {
            let mode = d.get("update").and_then(Variant::as_int);
            if let Some(m @ (2 | 3)) = mode {
                if let Variant::Dictionary(d) = p.value_mut() {
                    d.insert("update", Variant::Int(if m == 2 { 1 } else { 2 }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_as_the_engine_resolves_them() {
        assert_eq!(join_path("Player/Anim", ".."), "Player");
        assert_eq!(join_path(".", ".."), ".");
        assert_eq!(join_path("Anim", "../Label"), "Label");
        assert_eq!(join_path("UI", "Label"), "UI/Label");
    }

    #[test]
    fn values_convert_as_the_rename_implies() {
        use godot_bin::Vector2;
        assert_eq!(
            convert_value(Value::Double, &Variant::Vector2(Vector2::new(3.0, 4.0))).unwrap(),
            Variant::Vector2(Vector2::new(6.0, 8.0))
        );
        assert_eq!(
            convert_value(Value::DegreesToRadians, &Variant::Float(180.0)).unwrap(),
            Variant::Float(std::f64::consts::PI)
        );
        assert_eq!(
            convert_value(Value::PauseMode, &Variant::Int(2)).unwrap(),
            Variant::Int(3)
        );
        assert_eq!(
            convert_value(Value::Keycode, &Variant::Int(0x0100_0005)).unwrap(),
            Variant::Int(0x0040_0005)
        );
        assert!(convert_value(Value::Double, &Variant::Bool(true)).is_err());
    }
}
