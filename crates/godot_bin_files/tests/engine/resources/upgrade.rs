//! Godot 3 → Godot 4: Godot 3 saves the random resources and scenes of `text.rs` as
//! `.tres` / `.tscn`; the crate converts each to Godot 4 text (`to_godot4`) and Godot 4
//! loads every converted file to the crate's values. Each conversion reports what may not
//! carry over (renamed classes, Godot 3 scripts); the counts are printed.

use super::text::{check, dump_call, names, read_dump};
use super::{seed, Engine};
use crate::support::engine::{engines_required, godot3, godot4, REQUIRE_ENV};
use godot_bin::Dialect;
use godot_bin_files::resource::TextResource;
use libtest_mimic::{Completion, Failed, Trial};

/// Files converted.
const FILES: usize = 40;

/// A trial that needs both engines: ignored (or, with `GODOT_BIN_REQUIRE_ENGINE=1`, failed)
/// when either is missing, as `support::engine`'s trials are.
pub fn trials() -> Vec<Trial> {
    let t = Trial::ignorable_test("resources::upgrade::godot3_to_godot4", || {
        match (godot3(), godot4()) {
            (Ok(g3), Ok(g4)) => {
                upgrade(g3, g4);
                Ok(Completion::Completed)
            }
            (Err(missing), _) | (_, Err(missing)) if engines_required() => Err(Failed::from(
                format!("{missing}, and {REQUIRE_ENV}=1 requires the engine (godot3 and godot4)"),
            )),
            (Err(missing), _) | (_, Err(missing)) => Ok(Completion::ignored_with(missing)),
        }
    });
    vec![t.with_kind("godot3+4")]
}

fn upgrade(g3: &crate::support::godot3::Godot3, g4: &crate::support::godot4::Godot4) {
    let seed = seed();
    let files = names(FILES, true);
    let old = Engine::Godot3(g3);
    let call = format!("load(\"res://helper.gd\").new().make({seed}, {FILES}, true)");
    let run = old.run(super::text::helper(&old), &call, &[]);
    let mut ours: Vec<(String, String)> = Vec::new();
    let mut issues = 0;
    for name in files
        .iter()
        .map(String::as_str)
        .chain(["ext_a.tres", "ext_scene.tscn"])
    {
        let text = run.read_string(name);
        let doc = TextResource::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let conv = doc.to_godot4().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(conv.file.dialect(), Dialect::Godot4);
        issues += conv.issues.len();
        ours.push((name.to_string(), conv.file.to_string()));
    }
    let new = Engine::Godot4(g4);
    let inputs: Vec<(&str, &[u8])> = ours
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_bytes()))
        .collect();
    let run = new.run(super::text::helper(&new), &dump_call(&files), &inputs);
    let loaded = read_dump(&run.read_file("dump.bin"), Dialect::Godot4);
    let mut values = 0;
    for ((name, text), loaded) in ours.iter().zip(&loaded) {
        let doc = TextResource::parse(text).unwrap();
        values += check(&doc, loaded, Dialect::Godot4, name, text);
    }
    eprintln!(
        "Godot 3.2.3 -> Godot 4.4.1, seed {seed}: {FILES} resources and scenes converted to Godot 4 \
         text ({values} values; {issues} issues reported), all loaded by Godot 4 to the crate's values"
    );
}
