//! Binary resources and scenes against both engines: each engine saves the random
//! resources and scenes of `text.rs` as `.res` / `.scn` (every other pair compressed,
//! `RSCC`) and as `.tres` / `.tscn` from the same seed; the crate reads each binary file to
//! the values the engine loads and writes it back byte for byte, converts each binary file
//! to text and each text file to binary (half of them compressed), and the engine loads
//! every converted file to the same values.

use super::text::{check, check_as, dump_call, helper, names, read_dump};
use super::{seed, Engine};
use crate::support::engine::{godot3_trial, godot4_trial};
use godot_bin::{Dialect, Dictionary, Rid, Variant};
use godot_bin_files::resource::{BinaryResource, TextResource};
use godot_bin_files::save::Compression;
use libtest_mimic::Trial;

/// Files per engine and form.
const FILES: usize = 40;

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("resources::binary::godot4", |e| {
            round_trip(&Engine::Godot4(e));
        }),
        godot3_trial("resources::binary::godot3", |e| {
            round_trip(&Engine::Godot3(e));
        }),
        godot4_trial(
            "resources::binary::an_rid_loads_as_its_int_id_godot4",
            |e| {
                an_rid_loads_as_its_int_id(&Engine::Godot4(e));
            },
        ),
        godot3_trial(
            "resources::binary::an_rid_loads_as_its_int_id_godot3",
            |e| {
                an_rid_loads_as_its_int_id(&Engine::Godot3(e));
            },
        ),
    ]
}

/// What the comparisons of `text.rs` take as a fact (its `norm`): an RID stored in a
/// binary resource loads as its id, an int, in both engines. A resource whose metadata holds
/// `RID` 76 alone and inside an Array is loaded by the engine, which prints each value's
/// type id and value.
fn an_rid_loads_as_its_int_id(engine: &Engine) {
    let dialect = engine.dialect();
    let mut res = BinaryResource::new_resource("Resource", dialect);
    let rid = Variant::Rid(Rid(76));
    let mut meta = Dictionary::new();
    meta.insert(Variant::from("x"), rid.clone());
    meta.insert(Variant::from("y"), Variant::from(vec![rid]));
    match dialect {
        Dialect::Godot4 => {
            let props = res.resource_mut().properties_mut();
            props.set("metadata/x", meta.get("x").unwrap().clone());
            props.set("metadata/y", meta.get("y").unwrap().clone());
        }
        _ => res.resource_mut().properties_mut().set("__meta__", meta),
    }
    let bytes = res.to_bytes().unwrap();
    // The crate reads back what it wrote: an RID, not an int.
    let back = BinaryResource::from_bytes(&bytes).unwrap();
    let x = match dialect {
        Dialect::Godot4 => back.resource().properties()["metadata/x"].clone(),
        _ => back.resource().properties()["__meta__"]["x"].clone(),
    };
    assert_eq!(x, Variant::Rid(Rid(76)));
    let call = "var r = load(\"res://rid.res\")\nfor k in [\"x\", \"y\"]:\n\tvar v = r.get_meta(k)\n\tvar inner = v[0] if typeof(v) == TYPE_ARRAY else v\n\tprint(\"RID \", k, \" \", typeof(v), \" \", typeof(inner), \" \", inner)";
    let run = engine.run("", call, &[("rid.res", &bytes)]);
    let int = match dialect {
        Dialect::Godot4 => (2, 28),
        _ => (2, 19),
    };
    assert_eq!(
        run.lines_with_prefix("RID "),
        [
            format!("x {} {} 76", int.0, int.0),
            format!("y {} {} 76", int.1, int.0),
        ],
        "{}",
        run.describe()
    );
}

fn round_trip(engine: &Engine) {
    let dialect = engine.dialect();
    let seed = seed();
    let binary = names(FILES, false);
    let text = names(FILES, true);
    let all: Vec<String> = binary.iter().chain(&text).cloned().collect();
    let call = format!(
        "var h = load(\"res://helper.gd\").new()\nh.make({seed}, {FILES}, false)\nh.make({seed}, {FILES}, true)\n{}",
        dump_call(&all)
    );
    let run = engine.run(helper(engine), &call, &[]);
    let loaded = read_dump(&run.read_file("dump.bin"), dialect);
    assert_eq!(loaded.len(), 2 * FILES);
    let support = [
        ("ext_a.tres", run.read_file("ext_a.tres")),
        ("ext_scene.tscn", run.read_file("ext_scene.tscn")),
    ];

    // Files the crate writes: (name, bytes, the text the crate reads them as).
    let mut ours: Vec<(String, Vec<u8>, TextResource, bool)> = Vec::new();
    let (mut identical, mut compressed, mut values) = (0, 0, 0);
    for (name, loaded) in binary.iter().zip(&loaded) {
        let bytes = run.read_file(name);
        let res = BinaryResource::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(res.dialect(), dialect, "{name}");
        let again = res.to_bytes().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            again == bytes,
            "{name} rewritten: {} bytes, the engine's {}",
            again.len(),
            bytes.len()
        );
        identical += 1;
        compressed += usize::from(res.compression().is_some());
        let as_text = res.to_text().unwrap_or_else(|e| panic!("{name}: {e}"));
        let text_file = as_text.file.to_string();
        values += check_as(&as_text.file, loaded, dialect, name, &text_file, true);
        let text_name = name.replace(".res", ".tres").replace(".scn", ".tscn");
        // What the engine will read: the text, as the crate reads it back.
        let reread =
            TextResource::parse(&text_file).unwrap_or_else(|e| panic!("{name} as text: {e}"));
        ours.push((
            format!("from_binary_{text_name}"),
            text_file.into_bytes(),
            reread,
            false,
        ));
    }
    let mut converted_identical = 0;
    for (k, (name, loaded)) in text.iter().zip(&loaded[FILES..]).enumerate() {
        let source = run.read_string(name);
        let doc = TextResource::parse(&source).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&doc, loaded, dialect, name, &source);
        let mut conv = doc.to_binary().unwrap_or_else(|e| panic!("{name}: {e}"));
        if k % 4 >= 2 {
            conv.file.set_compression(Some(Compression::Zstd));
        }
        let bytes = conv
            .file
            .to_bytes()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Read back by the crate: the same file, and text of the same values.
        let back = BinaryResource::from_bytes(&bytes).unwrap();
        assert_eq!(
            back.to_bytes().unwrap(),
            bytes,
            "{name}: the crate's binary rewritten"
        );
        let back_text = back.to_text().unwrap().file;
        if bytes == run.read_file(&binary[k]) {
            converted_identical += 1;
        }
        let bin_name = name.replace(".tres", ".res").replace(".tscn", ".scn");
        ours.push((format!("from_text_{bin_name}"), bytes, back_text, true));
    }

    let names: Vec<String> = ours.iter().map(|(n, ..)| n.clone()).collect();
    let mut inputs: Vec<(&str, &[u8])> =
        ours.iter().map(|(n, b, ..)| (n.as_str(), &b[..])).collect();
    inputs.extend(support.iter().map(|(n, b)| (*n, &b[..])));
    let run2 = engine.run(helper(engine), &dump_call(&names), &inputs);
    let loaded2 = read_dump(&run2.read_file("dump.bin"), dialect);
    for ((name, bytes, doc, binary), loaded) in ours.iter().zip(&loaded2) {
        check_as(
            doc,
            loaded,
            dialect,
            name,
            &String::from_utf8_lossy(bytes),
            *binary,
        );
    }
    eprintln!(
        "{} binary resources and scenes, seed {seed}: {FILES} files ({compressed} compressed, \
         {values} values) read to the engine's values and rewritten byte for byte ({identical}); \
         {FILES} converted to text and {FILES} text files converted to binary (half compressed), \
         all {} loaded by the engine to the same values ({converted_identical} of the binary \
         conversions are the engine's own bytes: its string table names every stored property \
         of each class)",
        engine.name(),
        ours.len()
    );
}
