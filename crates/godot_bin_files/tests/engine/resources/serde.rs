//! serde through resource files, loaded by the engines: a derived struct written as the
//! properties of a scripted resource (`.tres`, and `.res` through the binary writer), which
//! the engine loads into the script's exported variables; and read back by the crate into
//! the same struct.

use super::Engine;
use crate::support::engine::{godot3_trial, godot4_trial};
use godot_bin::{Config, Dialect, PackedStringArray, TypedArray, Variant, Vector2};
use godot_bin_files::resource::{BinaryResource, Reference, TextResource};
use libtest_mimic::Trial;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

const ITEM4: &str = include_str!("item4.gd");
const ITEM3: &str = include_str!("item3.gd");

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("resources::serde::godot4", |e| {
            serde_round_trip(&Engine::Godot4(e));
        }),
        godot3_trial("resources::serde::godot3", |e| {
            serde_round_trip(&Engine::Godot3(e));
        }),
    ]
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
pub struct Item {
    /// First, so that the engine sets the script before its variables.
    pub script: Reference,
    pub name: String,
    pub hp: i32,
    pub speed: f64,
    pub pos: Vector2,
    pub tags: PackedStringArray,
    pub inventory: TypedArray<String>,
    pub stats: BTreeMap<String, i64>,
    pub child: Option<Reference>,
}

pub fn item(script: Reference, child: Reference) -> Item {
    Item {
        script,
        name: "Sword of \"Truth\"\nand é".into(),
        hp: -42,
        speed: 0.1 + 0.2,
        pos: Vector2::new(1.5, 1.0 / 3.0),
        tags: PackedStringArray(vec!["sharp".into(), "heavy".into()]),
        inventory: TypedArray::from(vec!["gem".to_string(), "coin".to_string()]),
        stats: BTreeMap::from([("str".into(), 10), ("luck".into(), 1 << 40)]),
        child: Some(child),
    }
}

/// A resource file of `Item`: its script as an external resource, its child a
/// sub-resource with one property.
pub fn item_resource(dialect: Dialect) -> (TextResource, Item) {
    let mut res = TextResource::new_resource("Resource", dialect);
    let script = res.add_ext_resource("Script", "res://item.gd", None);
    let child = res.add_sub_resource("Resource");
    res.sub_resource_mut(&child)
        .expect("the sub-resource just added")
        .properties_mut()
        .set("resource_name", "the child");
    let item = item(Reference::External(script), Reference::Sub(child));
    res.set_resource(&item).expect("an Item serializes");
    (res, item)
}

/// GDScript: loads each path and writes the Item's variables (and its child's name).
pub fn dump_items(paths: &[&str], dialect: Dialect) -> String {
    let list = paths
        .iter()
        .map(|p| format!("\"res://{p}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let (open, bytes) = match dialect {
        Dialect::Godot4 => (
            "var out = FileAccess.open(\"items.bin\", FileAccess.WRITE)",
            "var_to_bytes",
        ),
        _ => (
            "var out = File.new()\nout.open(\"items.bin\", File.WRITE)",
            "var2bytes",
        ),
    };
    let load = match dialect {
        Dialect::Godot4 => "ResourceLoader.load(p, \"\", ResourceLoader.CACHE_MODE_IGNORE)",
        _ => "ResourceLoader.load(p, \"\", true)",
    };
    format!(
        "{open}\nfor p in [{list}]:\n    var r = {load}\n    var v = [r.name, r.hp, r.speed, r.pos, r.tags, r.inventory, r.stats, r.child.resource_name, r.get_script().resource_path]\n    var b = {bytes}(v)\n    out.store_32(b.size())\n    out.store_buffer(b)\nout.close()"
    )
}

/// The Item's variables as the engine's dump lists them.
pub fn expected(item: &Item, dialect: Dialect) -> Vec<u8> {
    let mut stats = godot_bin::Dictionary::new();
    for (k, v) in &item.stats {
        stats.insert(k.as_str(), *v);
    }
    let inventory: Vec<Variant> = item
        .inventory
        .iter()
        .map(|s| Variant::from(s.as_str()))
        .collect();
    let inventory = if dialect == Dialect::Godot4 {
        Variant::Array(godot_bin::Array::typed(
            godot_bin::ElementType::Builtin(godot_bin::VariantType::String),
            inventory,
        ))
    } else {
        Variant::from(inventory)
    };
    let v = Variant::from(vec![
        Variant::from(item.name.as_str()),
        Variant::Int(i64::from(item.hp)),
        Variant::Float(item.speed),
        Variant::from(item.pos),
        Variant::PackedStringArray(item.tags.clone()),
        inventory,
        Variant::Dictionary(stats),
        Variant::from("the child"),
        Variant::from("res://item.gd"),
    ]);
    Config::new(dialect).to_vec(&v).unwrap()
}

fn serde_round_trip(engine: &Engine) {
    let dialect = engine.dialect();
    let (res, item) = item_resource(dialect);
    let text = res.to_string();
    // Read back by the crate into the same struct.
    let back: Item = TextResource::parse(&text).unwrap().resource_as().unwrap();
    assert_eq!(back, item);
    // The same resource as a .res.
    let binary = res.to_binary().unwrap();
    // The typed `inventory` is stored untyped, as the engine stores it, and said so.
    assert!(
        binary
            .issues
            .iter()
            .all(|i| i.to_string().contains("inventory") && i.to_string().contains("typed Array")),
        "{:?}",
        binary.issues
    );
    let res_bytes = binary.file.to_bytes().unwrap();
    let from_res: Item = BinaryResource::from_bytes(&res_bytes)
        .unwrap()
        .resource_as()
        .unwrap();
    // External ids are table numbers in a binary file.
    let numbered = Item {
        script: Reference::External("1".into()),
        ..item.clone()
    };
    assert_eq!(from_res, numbered);
    let script = if dialect == Dialect::Godot4 {
        ITEM4
    } else {
        ITEM3
    };
    let run = engine.run(
        "",
        &dump_items(&["item.tres", "item.res"], dialect),
        &[
            ("item.gd", script.as_bytes()),
            ("item.tres", text.as_bytes()),
            ("item.res", &res_bytes),
        ],
    );
    let dump = run.read_file("items.bin");
    let want = expected(&item, dialect);
    let (first, second) = dump.split_at(4 + want.len());
    assert_eq!(
        &first[4..],
        &want[..],
        "{}: the engine's Item from\n{text}",
        engine.name()
    );
    assert_eq!(
        &second[4..],
        &want[..],
        "{}: the engine's Item from the .res",
        engine.name()
    );
    eprintln!(
        "{}: a derived struct written as a .tres and as a .res, loaded by the engine into \
         its script's variables (9 fields each), and read back by the crate equal",
        engine.name()
    );
}
