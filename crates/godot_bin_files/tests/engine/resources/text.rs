//! Text resources and scenes against both engines: each engine saves resources (metadata of
//! random values, sub-resources referring to one another, a Gradient, a Curve, an external
//! resource) and scenes (nodes of several types with properties, metadata, groups,
//! instances, connections with binds) with `ResourceSaver`; the crate reads each to the
//! values the engine loads, writes it back byte for byte, prints it anew (counting the
//! files whose fresh text is the engine's own), and writes files of its own (every value
//! printed anew, one value changed), which the engine loads to the crate's values.

use super::{mask_padding, seed, Engine, Records};
use crate::support::engine::{godot3_trial, godot4_trial};
use godot_bin::{Array, Config, Dialect, Dictionary, ElementType, Variant};
use godot_bin_files::resource::{Reference, Section, TextResource};
use libtest_mimic::Trial;
use std::collections::HashMap;

const TEXT4: &str = include_str!("text4.gd");
const TEXT3: &str = include_str!("text3.gd");

/// Files per engine: resources and scenes in turn.
const FILES: usize = 60;

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("resources::text::godot4", |e| {
            round_trip(&Engine::Godot4(e));
        }),
        godot3_trial("resources::text::godot3", |e| {
            round_trip(&Engine::Godot3(e));
        }),
    ]
}

pub fn helper(engine: &Engine) -> &'static str {
    match engine {
        Engine::Godot4(_) => TEXT4,
        Engine::Godot3(_) => TEXT3,
    }
}

/// What the engine loaded from one file.
pub enum Loaded {
    /// Each resource (`""` the main one) by id: its class and stored properties.
    Resource(HashMap<String, (String, Dictionary)>),
    /// A scene's nodes and connections, normalized as the GDScript side does.
    Scene(Vec<Variant>, Vec<Variant>),
    Failed,
}

/// The items of a normalized Array (`["$array", type, class, items...]`).
fn items(v: &Variant) -> &[Variant] {
    match v {
        Variant::Array(a) if a.first() == Some(&Variant::from("$array")) => &a[3..],
        other => panic!("not a normalized array: {other}"),
    }
}

/// The Dictionary of a normalized Dictionary (`["$dict", 4 types, {...}]`).
fn dict(v: &Variant) -> &Dictionary {
    match v {
        Variant::Array(a) if a.first() == Some(&Variant::from("$dict")) => {
            a[5].as_dictionary().expect("a Dictionary")
        }
        other => panic!("not a normalized dictionary: {other}"),
    }
}

pub fn read_dump(bytes: &[u8], dialect: Dialect) -> Vec<Loaded> {
    let cfg = Config::new(dialect).allow_objects(true);
    let mut r = Records::new(bytes);
    let mut out = Vec::new();
    while !r.done() {
        let kind = r.u32();
        if kind == 2 {
            out.push(Loaded::Failed);
            continue;
        }
        let v: Variant = cfg
            .from_slice(r.bytes())
            .expect("the engine's dump decodes");
        if kind == 0 {
            let mut map = HashMap::new();
            for entry in items(&v) {
                let e = items(entry);
                let id = e[0].as_str().unwrap().to_string();
                let class = e[1].as_str().unwrap().to_string();
                map.insert(id, (class, dict(&e[2]).clone()));
            }
            out.push(Loaded::Resource(map));
        } else {
            let parts = items(&v);
            out.push(Loaded::Scene(
                items(&parts[0]).to_vec(),
                items(&parts[1]).to_vec(),
            ));
        }
    }
    out
}

/// The crate's value in the shape the GDScript side's `norm` gives the engine's: references
/// as `"SubResource:<id>"` and `"ExtResource:<path>"`, objects, Arrays and Dictionaries
/// as Arrays that carry their class and element types.
pub fn norm(v: &Variant, res: &TextResource, dialect: Dialect, binary: bool) -> Variant {
    let type_id = |t: &ElementType| -> (i64, String) {
        match t {
            ElementType::Untyped => (0, String::new()),
            ElementType::Builtin(ty) => (
                i64::from(dialect.type_id(*ty).expect("a type of the dialect")),
                String::new(),
            ),
            ElementType::ClassName(c) => (24, c.clone()),
            ElementType::Script(_) => (24, "Resource".into()),
        }
    };
    match v {
        Variant::Object(o) => match Reference::from_object(o) {
            Some(Reference::Sub(id)) => Variant::from(format!("SubResource:{id}")),
            Some(Reference::External(id)) => {
                let path = res.ext_resource(&id).and_then(Section::path).unwrap_or("?");
                Variant::from(format!("ExtResource:{path}"))
            }
            Some(Reference::Path(p)) => Variant::from(format!("ExtResource:{p}")),
            None => {
                let mut out = vec![
                    Variant::from("$object"),
                    Variant::from(o.class_name.as_str()),
                ];
                for (k, x) in &o.properties {
                    out.push(Variant::from(k.as_str()));
                    out.push(norm(x, res, dialect, binary));
                }
                Variant::from(out)
            }
        },
        Variant::Array(a) if dialect == Dialect::Godot3 => Variant::from(
            a.iter()
                .map(|x| norm(x, res, dialect, binary))
                .collect::<Vec<_>>(),
        ),
        Variant::Dictionary(d) if dialect == Dialect::Godot3 => {
            let mut out = Dictionary::new();
            for (k, x) in d.iter() {
                out.insert(norm(k, res, dialect, binary), norm(x, res, dialect, binary));
            }
            Variant::Dictionary(out)
        }
        Variant::Array(a) => {
            let (t, c) = type_id(&a.element_type);
            let mut out = vec![Variant::from("$array"), Variant::Int(t), Variant::from(c)];
            out.extend(a.iter().map(|x| norm(x, res, dialect, binary)));
            Variant::from(out)
        }
        Variant::Dictionary(d) => {
            let (kt, kc) = type_id(d.key_type());
            let (vt, vc) = type_id(d.value_type());
            let mut out = Dictionary::new();
            for (k, x) in d.iter() {
                out.insert(norm(k, res, dialect, binary), norm(x, res, dialect, binary));
            }
            Variant::from(vec![
                Variant::from("$dict"),
                Variant::Int(kt),
                Variant::from(kc),
                Variant::Int(vt),
                Variant::from(vc),
                Variant::Dictionary(out),
            ])
        }
        // A binary file's empty object slot: the engine loads null.
        Variant::ObjectId(_) => Variant::Nil,
        // The engines' binary loaders read an RID as its int id (checked on both engines:
        // `binary.rs`, `an_rid_loads_as_its_int_id`).
        Variant::Rid(r) if binary => Variant::Int(r.0 as i64),
        other => other.clone(),
    }
}

/// `v`'s bytes after a trip through the dialect's decoder (Godot 3's drops the absolute
/// flag of the root path, as the engine's does: `tests/it/regression/nodepath_root_from_text.rs`).
fn bytes(v: &Variant, dialect: Dialect) -> Vec<u8> {
    let cfg = Config::new(dialect).allow_objects(true);
    let first = cfg
        .to_vec(v)
        .unwrap_or_else(|e| panic!("cannot encode {v}: {e}"));
    let back: Variant = cfg
        .from_slice(&first)
        .expect("the crate decodes its own bytes");
    mask_padding(cfg.to_vec(&back).expect("and encodes them again"), dialect)
}

fn same(ours: &Variant, engine: &Variant, dialect: Dialect, what: &str, file: &str) {
    let (a, b) = (bytes(ours, dialect), bytes(engine, dialect));
    if a != b {
        let text = |v: &Variant| {
            let t = v.to_string();
            t.chars().take(1500).collect::<String>()
        };
        let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
        panic!(
            "{what} differs at byte {at}: {:?} / {:?}\ncrate:  {}\nengine: {}\n--- file ---\n{}",
            &a[at.saturating_sub(8)..(at + 8).min(a.len())],
            &b[at.saturating_sub(8)..(at + 8).min(b.len())],
            text(ours),
            text(engine),
            file.chars().take(6000).collect::<String>()
        );
    }
}

/// Panics unless what the engine loaded from `file` is what the crate reads from it.
pub fn check(
    res: &TextResource,
    loaded: &Loaded,
    dialect: Dialect,
    name: &str,
    file: &str,
) -> usize {
    check_as(res, loaded, dialect, name, file, false)
}

/// [`check`], for values the engine loaded from a binary file (`binary`).
pub fn check_as(
    res: &TextResource,
    loaded: &Loaded,
    dialect: Dialect,
    name: &str,
    file: &str,
    binary: bool,
) -> usize {
    let mut values = 0;
    match loaded {
        Loaded::Failed => panic!("{name}: the engine could not load it\n{file}"),
        Loaded::Resource(map) => {
            assert!(!res.is_scene(), "{name}: the engine loaded a resource");
            let main = res.resource().expect("a [resource]");
            let mut sections = vec![(
                String::new(),
                res.header().type_name().unwrap_or("").to_string(),
                main,
            )];
            for s in res.sub_resources() {
                sections.push((s.id().unwrap(), s.type_name().unwrap_or("").into(), s));
            }
            for (id, class, section) in sections {
                let (engine_class, props) = map
                    .get(&id)
                    .unwrap_or_else(|| panic!("{name}: the engine has no resource {id:?}\n{file}"));
                assert_eq!(&class, engine_class, "{name}: class of {id:?}");
                for p in section.properties() {
                    let ours = norm(p.value(), res, dialect, binary);
                    let Some(theirs) = props.get(p.name()) else {
                        // Metadata set to null is removed (a binary file's null object).
                        assert!(
                            ours.is_nil() && p.name().starts_with("metadata/"),
                            "{name}: the engine's {id:?} has no property {}\n{file}",
                            p.name()
                        );
                        continue;
                    };
                    let what = format!("{name}: [{id}] {}", p.name());
                    same(&ours, theirs, dialect, &what, file);
                    values += 1;
                }
            }
        }
        Loaded::Scene(nodes, conns) => {
            assert!(res.is_scene(), "{name}: the engine loaded a scene");
            let ours: Vec<&Section> = res.nodes().collect();
            assert_eq!(ours.len(), nodes.len(), "{name}: nodes\n{file}");
            for (k, (n, theirs)) in ours.iter().zip(nodes).enumerate() {
                let root = k == 0;
                let instance = n
                    .instance()
                    .map(|r| match r {
                        Reference::External(id) => res
                            .ext_resource(&id)
                            .and_then(Section::path)
                            .unwrap_or("?")
                            .to_string(),
                        other => panic!("{name}: instance={other}"),
                    })
                    .unwrap_or_default();
                let groups = Variant::PackedStringArray(godot_bin::PackedStringArray(n.groups()));
                let mut props = Dictionary::new();
                for p in n.properties() {
                    props.insert(p.name(), p.value().clone());
                    values += 1;
                }
                let ours = Variant::from(vec![
                    Variant::from(n.name().unwrap_or("")),
                    Variant::from(n.type_name().unwrap_or("")),
                    // SceneState names a parent below the root `./A`.
                    Variant::from(match n.parent() {
                        None => String::new(),
                        Some(".") => ".".into(),
                        Some(p) => format!("./{p}"),
                    }),
                    Variant::from(n.owner().unwrap_or(if root { "" } else { "." })),
                    Variant::from(instance),
                    groups,
                    Variant::Dictionary(props),
                ]);
                let theirs = items(theirs).to_vec();
                let mut theirs_v = theirs.clone();
                theirs_v[6] = Variant::Dictionary(dict(&theirs[6]).clone());
                if let Variant::PackedStringArray(g) = &mut theirs_v[5] {
                    g.0.sort();
                }
                same(
                    &norm_scene(&ours, res, dialect, binary),
                    &Variant::from(theirs_v),
                    dialect,
                    &format!("{name}: node {k}"),
                    file,
                );
            }
            let ours: Vec<&Section> = res.connections().collect();
            assert_eq!(ours.len(), conns.len(), "{name}: connections\n{file}");
            for (k, (c, theirs)) in ours.iter().zip(conns).enumerate() {
                let text = |a: &str| {
                    c.attr(a)
                        .and_then(Variant::as_str)
                        .unwrap_or("")
                        .to_string()
                };
                let binds = c
                    .attr("binds")
                    .cloned()
                    .unwrap_or(Variant::Array(Array::new()));
                let ours = Variant::from(vec![
                    Variant::from(text("from")),
                    Variant::from(text("signal")),
                    Variant::from(text("to")),
                    Variant::from(text("method")),
                    c.attr("flags").cloned().unwrap_or(Variant::Int(2)),
                    norm(&binds, res, dialect, binary),
                    c.attr("unbinds").cloned().unwrap_or(Variant::Int(0)),
                ]);
                // A packed scene's connection ends read `./A`, a loaded text's `A`.
                let mut theirs = items(theirs).to_vec();
                for end in [0, 2] {
                    if let Some(p) = theirs[end].as_str().and_then(|p| p.strip_prefix("./")) {
                        theirs[end] = Variant::from(p);
                    }
                }
                let theirs = Variant::from(theirs);
                same(
                    &ours,
                    &theirs,
                    dialect,
                    &format!("{name}: connection {k}"),
                    file,
                );
            }
        }
    }
    values
}

/// A node's list with its properties normalized (the rest is plain text).
fn norm_scene(v: &Variant, res: &TextResource, dialect: Dialect, binary: bool) -> Variant {
    let a = v.as_array().unwrap();
    let mut out: Vec<Variant> = a.items[..6].to_vec();
    let mut props = Dictionary::new();
    for (k, x) in a.items[6].as_dictionary().unwrap().iter() {
        props.insert(k.clone(), norm(x, res, dialect, binary));
    }
    out.push(Variant::Dictionary(props));
    Variant::from(out)
}

/// The files the engine made, by name.
pub fn names(count: usize, text: bool) -> Vec<String> {
    (0..count)
        .map(|i| match (i % 2, text) {
            (0, true) => format!("res_{i}.tres"),
            (0, false) => format!("res_{i}.res"),
            (_, true) => format!("scn_{i}.tscn"),
            (_, false) => format!("scn_{i}.scn"),
        })
        .collect()
}

pub fn dump_call(paths: &[String]) -> String {
    let list = paths
        .iter()
        .map(|p| format!("\"res://{p}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!("load(\"res://helper.gd\").new().dump([{list}], \"dump.bin\")")
}

fn round_trip(engine: &Engine) {
    let dialect = engine.dialect();
    let seed = seed();
    let files = names(FILES, true);
    let call = format!(
        "var h = load(\"res://helper.gd\").new()\nh.make({seed}, {FILES}, true)\n{}",
        dump_call(&files)
    );
    let res = engine.run(helper(engine), &call, &[]);
    let loaded = read_dump(&res.read_file("dump.bin"), dialect);
    assert_eq!(loaded.len(), FILES);
    let support = [
        ("ext_a.tres", res.read_file("ext_a.tres")),
        ("ext_scene.tscn", res.read_file("ext_scene.tscn")),
    ];

    let mut ours: Vec<(String, String)> = Vec::new();
    let (mut values, mut fresh_identical, mut scenes) = (0, 0, 0);
    for (name, loaded) in files.iter().zip(&loaded) {
        let text = res.read_string(name);
        let doc = TextResource::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        assert_eq!(doc.dialect(), dialect, "{name}");
        assert_eq!(doc.to_string(), text, "{name} rewritten");
        doc.check_references()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        values += check(&doc, loaded, dialect, name, &text);
        scenes += usize::from(doc.is_scene());

        let mut fresh = doc.clone();
        fresh.reprint();
        let fresh_text = fresh.to_string();
        if fresh_text == text {
            fresh_identical += 1;
        } else if std::env::var_os("GODOT_BIN_SHOW_REPRINT").is_some() {
            let (was, now) = super::changed_lines(&text, &fresh_text);
            eprintln!("{name} printed anew:\n- {was}\n+ {now}");
        }
        ours.push((format!("fresh_{name}"), fresh_text));

        let mut changed = doc.clone();
        let section = if doc.is_scene() {
            changed.node_mut(".")
        } else {
            changed.resource_mut()
        };
        let section = section.expect("a root node or [resource]");
        // A property the file leaves out: the root Node2D's z_index, a Godot 4 resource's
        // metadata (Godot 3 keeps metadata in one `__meta__` Dictionary), a Godot 3
        // resource's `resource_local_to_scene`.
        let (key, value) = match (doc.is_scene(), dialect) {
            (true, _) => ("z_index", Variant::Int(7)),
            (false, Dialect::Godot4) => ("metadata/changed", Variant::Int(424242)),
            (false, _) => ("resource_local_to_scene", Variant::Bool(true)),
        };
        section.properties_mut().set(key, value.clone());
        let changed_text = changed.to_string();
        let (was, now) = super::changed_lines(&text, &changed_text);
        assert!(
            was.is_empty() && now == format!("{key} = {}", value.to_text(dialect)),
            "{name}: adding one value: {was:?} became {now:?}"
        );
        ours.push((format!("changed_{name}"), changed_text));
    }

    let names: Vec<String> = ours.iter().map(|(n, _)| n.clone()).collect();
    let mut inputs: Vec<(&str, &[u8])> = ours
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_bytes()))
        .collect();
    inputs.extend(support.iter().map(|(n, b)| (*n, &b[..])));
    let run = engine.run(helper(engine), &dump_call(&names), &inputs);
    let loaded = read_dump(&run.read_file("dump.bin"), dialect);
    for ((name, text), loaded) in ours.iter().zip(&loaded) {
        let doc = TextResource::parse(text).unwrap();
        check(&doc, loaded, dialect, name, text);
    }
    eprintln!(
        "{} text resources and scenes, seed {seed}: {FILES} files ({} scenes, {values} values) \
         read to the engine's values and rewritten byte for byte; printed anew, {fresh_identical} \
         of {FILES} are the engine's text byte for byte; {} files written by the crate (every \
         value printed anew, one value added) loaded by the engine to the crate's values",
        engine.name(),
        scenes,
        ours.len()
    );
}
