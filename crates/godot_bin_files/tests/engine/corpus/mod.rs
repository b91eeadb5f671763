//! The engines' judgement of the real-project corpus (issue 41; the corpus and its
//! manifest: `tests/corpus/README.md`). For each project, a temporary copy of its files is
//! the engine's project; for every `.tscn` / `.tres` / `.scn` / `.res` the engine here reads
//! (Godot 4.4.1 for 4.x files of text format <= 4 and binary format <= 6, Godot 3.2.3 for
//! 3.x), the engine loads
//!
//! * the original,
//! * the crate's conversion to the other form (text -> binary, binary -> text),
//! * its own conversion (`ResourceSaver.save` of the loaded original to the other form),
//!
//! and writes what it loaded from each (`judge4.gd` / `judge3.gd`: every stored property of
//! every resource, every node, property and connection of a scene's state). The crate's
//! conversion must load to what the original loads. Missing dependencies (scripts,
//! textures the corpus does not hold) are not fatal (`set_abort_on_missing_resources(false)`):
//! such a file is counted as loaded with errors; a file the engine cannot load at all is
//! counted with the error it printed, grouped.
//!
//! The engine's own saves (text and binary) of every file it loads are then rewritten by
//! the crate, which must give them back byte for byte, and the crate's text of the
//! engine's binary save is compared with the engine's own text save.
//!
//! `GODOT_BIN_CORPUS_PROJECTS=dir,dir` limits the run to some projects (one engine start
//! per project folder with a `project.godot`).

#[allow(dead_code)]
#[path = "../../corpus/compare.rs"]
mod compare;
#[allow(dead_code)]
#[path = "../../corpus/files.rs"]
mod files;
#[allow(dead_code)]
#[path = "../../corpus/table.rs"]
mod table;

use crate::support::godot::{Godot, Kind};
use crate::support::godot3::G3;
use crate::support::godot4::G4;
use files::{corpus, Corpus, Entry};
use godot_bin_files::{BinaryResource, TextResource};
use libtest_mimic::{Completion, Failed, Trial};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;
use table::Table;

const JUDGE4: &str = include_str!("judge4.gd");
const JUDGE3: &str = include_str!("judge3.gd");

/// One engine start may take this long (a project of a few hundred files).
const TIMEOUT: Duration = Duration::from_secs(1800);

pub fn trials() -> Vec<Trial> {
    let mut out = Vec::new();
    // The projects come from the committed manifest, so the list is the same with or
    // without the corpus.
    let projects = files::parse_manifest().map(|(p, _)| p).unwrap_or_default();
    for p in projects {
        let godot3 = p.engine.starts_with("3.");
        let dir = p.dir.clone();
        let kind = if godot3 { "godot3" } else { "godot4" };
        out.push(
            Trial::ignorable_test(format!("corpus::engine::{dir}"), move || {
                let c = match corpus() {
                    Ok(c) => c,
                    Err(why) => return Ok(Completion::ignored_with(why)),
                };
                if !c.projects.iter().any(|x| x.dir == dir) {
                    return Ok(Completion::ignored_with(format!(
                        "{dir} is not in {}",
                        files::PROJECTS_ENV
                    )));
                }
                if godot3 {
                    run_engine::<G3>(c, &dir)
                } else {
                    run_engine::<G4>(c, &dir)
                }
            })
            .with_kind(kind),
        );
    }
    out
}

fn run_engine<K: Kind>(c: &Corpus, dir: &str) -> Result<Completion, Failed> {
    match K::installed() {
        Ok(engine) => judge(engine, c, dir).map(|()| Completion::Completed),
        Err(missing) if crate::support::engine::engines_required() => Err(missing.clone().into()),
        Err(missing) => Ok(Completion::ignored_with(missing)),
    }
}

/// A file's two forms' extensions: (text, binary).
fn forms(path: &str) -> Option<(&'static str, &'static str, bool)> {
    let ext = Path::new(path).extension()?.to_str()?;
    match ext {
        "tscn" => Some(("tscn", "scn", true)),
        "scn" => Some(("tscn", "scn", false)),
        "tres" => Some(("tres", "res", true)),
        "res" => Some(("tres", "res", false)),
        _ => None,
    }
}

/// One file the engine is given.
struct Job<'a> {
    entry: &'a Entry,
    /// Path inside the project (no `res://`).
    rel: String,
    is_text: bool,
    text_ext: &'static str,
    bin_ext: &'static str,
    /// The crate's conversion was written (else why not).
    crate_conv: Result<(), String>,
    /// The original's bytes.
    bytes: Vec<u8>,
}

/// What the engine reads here: 4.4.1 reads text formats up to 4 and binary formats up to
/// 6; 3.2.3 reads Godot 3's (text format 2, binary up to 3).
fn engine_reads<K: Kind>(is_text: bool, bytes: &[u8]) -> Result<(), String> {
    let godot4 = K::DIALECT == godot_bin::Dialect::Godot4;
    if is_text {
        // A file the crate cannot read is still the engine's to judge (the crate's
        // conversion is then counted refused).
        let Ok(t) = TextResource::from_bytes(bytes) else {
            return Ok(());
        };
        let ok = if godot4 {
            t.dialect() == godot_bin::Dialect::Godot4 && t.format() <= 4
        } else {
            t.format() <= 2
        };
        if !ok {
            return Err(format!(
                "text format {} not read by {}",
                t.format(),
                K::VERSION
            ));
        }
    } else {
        let Ok(b) = BinaryResource::from_bytes(bytes) else {
            return Ok(());
        };
        let f = b.header().format;
        let ok = if godot4 {
            f <= 6 && b.dialect() == godot_bin::Dialect::Godot4
        } else {
            f <= 3
        };
        if !ok {
            return Err(format!("binary format {f} not read by {}", K::VERSION));
        }
    }
    Ok(())
}

/// The crate's conversion of a file to the other form, as bytes.
fn convert(is_text: bool, bytes: &[u8], res_path: &str) -> Result<Vec<u8>, String> {
    if is_text {
        let mut t = TextResource::from_bytes(bytes).map_err(|e| e.to_string())?;
        t.set_res_path(Some(res_path));
        let b = t.to_binary().map_err(|e| e.to_string())?;
        b.file.to_bytes().map_err(|e| e.to_string())
    } else {
        let b = BinaryResource::from_bytes(bytes).map_err(|e| e.to_string())?;
        let t = b.to_text().map_err(|e| e.to_string())?;
        Ok(t.file.to_string().into_bytes())
    }
}

/// The errors the engine printed for each file and step, from its stderr markers.
fn errors_by_step(stderr: &str) -> BTreeMap<(String, String), Vec<String>> {
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut at: Option<(String, String)> = None;
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("@@FILE ") {
            let (idx, step) = rest.split_once(' ').unwrap_or((rest, ""));
            at = Some((idx.to_string(), step.to_string()));
            continue;
        }
        if line.starts_with("@@") {
            continue;
        }
        let msg = line.trim();
        if let (Some(k), true) = (
            &at,
            msg.starts_with("ERROR:") || msg.starts_with("SCRIPT ERROR:"),
        ) {
            out.entry(k.clone()).or_default().push(msg.to_string());
        }
    }
    out
}

/// The resources the engine found no loader for in one file's step (`No loader found for
/// resource: <path>`), by path.
fn missing_loader(
    errs: &BTreeMap<(String, String), Vec<String>>,
    idx: &str,
    step: &str,
) -> Option<Vec<String>> {
    let v = errs.get(&(idx.to_string(), step.to_string()))?;
    Some(
        v.iter()
            .filter_map(|m| m.split("No loader found for resource: ").nth(1))
            .map(|rest| rest.split(' ').next().unwrap_or(rest).to_string())
            .collect(),
    )
}

/// An error line with its paths and numbers left out, to group files by reason.
fn reason(msg: &str) -> String {
    let mut out = String::new();
    let mut in_path = false;
    for w in msg.split_inclusive([' ', '"', '\'']) {
        if w.contains("res://") || w.contains('/') && w.contains('.') {
            if !in_path {
                out.push_str("<path> ");
            }
            in_path = true;
            continue;
        }
        in_path = false;
        out.push_str(w);
    }
    let out: String = out.chars().filter(|c| !c.is_ascii_digit()).collect();
    out.chars().take(140).collect()
}

fn copy_tree(c: &Corpus, dir: &str, root: &str, to: &Path) -> Result<(), String> {
    for e in c.files.iter().filter(|e| e.dir == dir) {
        let Some(rel) = rel_to(&e.path, root) else {
            continue;
        };
        let bytes = c.read(e)?;
        let dest = to.join(rel);
        if let Some(p) = dest.parent() {
            std::fs::create_dir_all(p).map_err(|x| x.to_string())?;
        }
        std::fs::write(&dest, bytes).map_err(|x| x.to_string())?;
    }
    Ok(())
}

/// `path` inside the project folder `root` ("" for the corpus project's own folder).
fn rel_to<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    if root.is_empty() {
        return Some(path);
    }
    path.strip_prefix(root)?.strip_prefix('/')
}

/// Every folder of the corpus project with a `project.godot`, innermost first for each
/// file (a file belongs to the nearest one above it).
fn roots(c: &Corpus, dir: &str) -> Vec<String> {
    let mut r: Vec<String> = c
        .files
        .iter()
        .filter(|e| {
            e.dir == dir
                && Path::new(&e.path)
                    .file_name()
                    .is_some_and(|n| n == "project.godot")
        })
        .map(|e| {
            Path::new(&e.path)
                .parent()
                .and_then(|p| p.to_str())
                .unwrap_or("")
                .to_string()
        })
        .collect();
    r.sort();
    r
}

fn root_of<'a>(path: &str, roots: &'a [String]) -> Option<&'a str> {
    roots
        .iter()
        .filter(|r| rel_to(path, r).is_some())
        .max_by_key(|r| r.len())
        .map(String::as_str)
}

const JUDGE_COLUMNS: &[&str] = &[
    "files",
    "not for this engine",
    "cannot load",
    "loaded",
    "with load errors",
    "crate refused",
    "crate loads same",
    "crate differs as engine conv",
    "crate: dependency not in corpus",
    "crate differs",
    "engine conv same",
    "engine conv differs",
];

const SAVES_COLUMNS: &[&str] = &[
    "engine saves",
    "crate rewrites identical",
    "rewrite differs",
    "bin->text = engine text",
    "same content",
    "float digits only",
    "content differs",
];

fn judge<K: Kind>(engine: &Godot<K>, c: &Corpus, dir: &str) -> Result<(), Failed> {
    let roots = roots(c, dir);
    let mut t = Table::new(
        format!("engine {} on {dir}: files loaded", K::VERSION),
        JUDGE_COLUMNS,
    );
    let mut s = Table::new(
        format!("engine {} on {dir}: the engine's own saves", K::VERSION),
        SAVES_COLUMNS,
    );
    let mut cannot: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut load_errors: BTreeMap<String, usize> = BTreeMap::new();
    let mut crate_differs: Vec<String> = Vec::new();
    let mut missing_dep: Vec<String> = Vec::new();
    let mut engine_differs: Vec<String> = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    let mut found = SaveFindings::default();
    let mut like_engine: Vec<String> = Vec::new();
    let mut failures = String::new();
    for root in &roots {
        let proj_label = if root.is_empty() {
            dir.to_string()
        } else {
            format!("{dir}/{root}")
        };
        let work = std::env::temp_dir().join(format!(
            "godot_bin_corpus_{}_{}",
            std::process::id(),
            proj_label.replace('/', "_")
        ));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(work.join("corpus_out")).map_err(|e| e.to_string())?;
        copy_tree(c, dir, root, &work)?;
        let mut jobs: Vec<Job> = Vec::new();
        for e in c.files.iter().filter(|e| e.dir == dir) {
            let Some((text_ext, bin_ext, is_text)) = forms(&e.path) else {
                continue;
            };
            if root_of(&e.path, &roots) != Some(root.as_str()) {
                continue;
            }
            let rel = rel_to(&e.path, root).unwrap_or(&e.path).to_string();
            let bytes = c.read(e)?;
            let form = files::form(e, &bytes);
            t.add(&proj_label, form, "files");
            if let Err(why) = engine_reads::<K>(is_text, &bytes) {
                t.add(&proj_label, form, "not for this engine");
                cannot
                    .entry(format!("not for {}: {why}", K::VERSION))
                    .or_default()
                    .push(format!("{dir}/{}", e.path));
                continue;
            }
            let crate_conv = convert(is_text, &bytes, &format!("res://{rel}")).and_then(|out| {
                let ext = if is_text { bin_ext } else { text_ext };
                std::fs::write(work.join(format!("{rel}.crate.{ext}")), out)
                    .map_err(|x| x.to_string())
            });
            jobs.push(Job {
                entry: e,
                rel,
                is_text,
                text_ext,
                bin_ext,
                crate_conv,
                bytes,
            });
        }
        if jobs.is_empty() {
            continue;
        }
        let mut list = String::new();
        for (i, j) in jobs.iter().enumerate() {
            let crate_path = match (&j.crate_conv, j.is_text) {
                (Ok(()), true) => format!("res://{}.crate.{}", j.rel, j.bin_ext),
                (Ok(()), false) => format!("res://{}.crate.{}", j.rel, j.text_ext),
                (Err(_), _) => String::new(),
            };
            let text_save = format!("res://{}.engine.{}", j.rel, j.text_ext);
            let bin_save = format!("res://{}.engine.{}", j.rel, j.bin_ext);
            let other = if j.is_text { &bin_save } else { &text_save };
            let _ = writeln!(
                list,
                "{i}\tres://{}\t{crate_path}\t{text_save}\t{bin_save}\t{other}",
                j.rel
            );
        }
        std::fs::write(work.join("corpus_jobs.txt"), list).map_err(|e| e.to_string())?;
        if K::DIALECT == godot_bin::Dialect::Godot4 {
            // A project may treat GDScript warnings as errors; the judge script is not
            // the project's. `override.cfg` overrides the project's settings.
            let path = work.join("override.cfg");
            let mut cfg = std::fs::read_to_string(&path).unwrap_or_default();
            cfg.push_str("\n[debug]\n\ngdscript/warnings/enable=false\n");
            std::fs::write(&path, cfg).map_err(|e| e.to_string())?;
        }
        let script = if K::DIALECT == godot_bin::Dialect::Godot4 {
            JUDGE4
        } else {
            JUDGE3
        };
        std::fs::write(work.join("corpus_judge.gd"), script).map_err(|e| e.to_string())?;
        let run = crate::support::run::run(
            K::NAME,
            engine.command(&work, "corpus_judge.gd"),
            work.clone(),
            TIMEOUT,
        );
        if !run.stderr.contains("@@END") {
            let _ = writeln!(
                failures,
                "{proj_label}: the engine did not finish (status {:?}, timed out {}); stderr ends: {}",
                run.status,
                run.timed_out,
                run.stderr.lines().rev().take(8).collect::<Vec<_>>().join(" | ")
            );
        }
        let errs = errors_by_step(&run.stderr);
        for (i, j) in jobs.iter().enumerate() {
            let idx = i.to_string();
            let at = format!("{dir}/{}", j.entry.path);
            let form = files::form(j.entry, &j.bytes);
            let read = |step: &str| {
                std::fs::read_to_string(work.join(format!("corpus_out/{idx}.{step}.txt"))).ok()
            };
            let Some(orig) = read("orig") else {
                t.add(&proj_label, form, "cannot load");
                let why = errs
                    .get(&(idx.clone(), "orig".into()))
                    .and_then(|v| v.first())
                    .map_or("no error printed".to_string(), |m| reason(m));
                cannot.entry(why).or_default().push(at);
                continue;
            };
            t.add(&proj_label, form, "loaded");
            if let Some(v) = errs.get(&(idx.clone(), "orig".into())) {
                t.add(&proj_label, form, "with load errors");
                if let Some(m) = v.first() {
                    *load_errors.entry(reason(m)).or_default() += 1;
                }
            }
            match &j.crate_conv {
                Err(why) => {
                    t.add(&proj_label, form, "crate refused");
                    refused.push(format!("{at}: {why}"));
                }
                Ok(()) => match read("crate") {
                    Some(x) if x == orig => t.add(&proj_label, form, "crate loads same"),
                    // What the engine's own conversion also changes (it loads the same).
                    Some(x) if read("engine").is_some_and(|e| e == x) => {
                        t.add(&proj_label, form, "crate differs as engine conv");
                        like_engine.push(format!("{at}: {}", first_line_diff(&orig, Some(&x))));
                    }
                    // Neither conversion loads (a dependency missing here, which the text
                    // loader does not step over as the binary one does).
                    None if read("engine").is_none() => {
                        t.add(&proj_label, form, "crate differs as engine conv");
                        like_engine.push(format!("{at}: neither conversion loads"));
                    }
                    // The crate's text does not load where a dependency is missing from the
                    // corpus (an asset whose import is not here) and the original could not
                    // load it either: the engine's text loader refuses an ext_resource no
                    // loader takes, where its binary loader goes on (its own conversion had
                    // stored the missing resource as null). With the dependency there, the
                    // same text loads.
                    None if !j.is_text
                        && missing_loader(&errs, &idx, "crate").is_some_and(|m| {
                            !m.is_empty()
                                && missing_loader(&errs, &idx, "orig")
                                    .is_some_and(|o| m.iter().all(|x| o.contains(x)))
                        }) =>
                    {
                        t.add(&proj_label, form, "crate: dependency not in corpus");
                        missing_dep.push(format!(
                            "{at}: {}",
                            missing_loader(&errs, &idx, "crate")
                                .and_then(|m| m.into_iter().next())
                                .unwrap_or_default()
                        ));
                    }
                    other => {
                        t.add(&proj_label, form, "crate differs");
                        crate_differs.push(format!(
                            "{at}: {}",
                            first_line_diff(&orig, other.as_deref())
                        ));
                    }
                },
            }
            match read("engine") {
                Some(x) if x == orig => t.add(&proj_label, form, "engine conv same"),
                other => {
                    t.add(&proj_label, form, "engine conv differs");
                    engine_differs.push(format!(
                        "{at}: {}",
                        first_line_diff(&orig, other.as_deref())
                    ));
                }
            }
            engine_saves(&work, j, &proj_label, form, &mut s, &mut found);
        }
        // `run` removes the folder when dropped (the test kit's keep switch keeps it).
        drop(run);
    }
    let SaveFindings {
        saves_differ,
        text_differs,
        float_digits,
    } = found;
    let mut out = t.render();
    out.push_str(&s.render());
    let group = |title: &str, m: &BTreeMap<String, Vec<String>>| {
        let mut o = format!("{title}:\n");
        for (k, v) in m {
            let _ = writeln!(o, "  {:>5}  {k}   (e.g. {})", v.len(), v[0]);
        }
        o
    };
    out.push_str(&group("cannot load, by the engine's first error", &cannot));
    out.push_str("loaded with errors, by the first error:\n");
    for (k, n) in &load_errors {
        let _ = writeln!(out, "  {n:>5}  {k}");
    }
    out.push_str(&listing(
        "crate conversion loads differently",
        &crate_differs,
        30,
    ));
    out.push_str(&listing(
        "crate conversion does not load for a dependency not in the corpus, which the original lacked too",
        &missing_dep,
        10,
    ));
    out.push_str(&listing(
        "crate conversion loads differently, as the engine's own conversion does",
        &like_engine,
        10,
    ));
    out.push_str(&listing(
        "engine's own conversion loads differently",
        &engine_differs,
        15,
    ));
    out.push_str(&listing("crate refused to convert", &refused, 15));
    out.push_str(&listing(
        "engine saves the crate does not rewrite byte-identical",
        &saves_differ,
        15,
    ));
    out.push_str(&listing(
        "crate text of the engine binary save differs only in float digits (the engine prints fewer)",
        &float_digits,
        5,
    ));
    out.push_str(&listing(
        "crate text of the engine binary save differs from the engine text save",
        &text_differs,
        15,
    ));
    print!("{out}");
    // With GODOT_BIN_CORPUS_REPORT=<folder>, the whole lists go to a file there.
    if let Some(report) = std::env::var_os("GODOT_BIN_CORPUS_REPORT") {
        let mut all = out.clone();
        for (title, items) in [
            ("crate differs", &crate_differs),
            ("crate differs as engine conv", &like_engine),
            ("engine conv differs", &engine_differs),
            ("engine text differs", &text_differs),
            ("float digits", &float_digits),
        ] {
            all.push_str(&format!("== {title}\n"));
            for i in items {
                all.push_str(i);
                all.push('\n');
            }
        }
        let _ = std::fs::write(Path::new(&report).join(format!("engine_{dir}.txt")), all);
    }
    if !crate_differs.is_empty() {
        failures.push_str(&listing(
            "crate conversion loads differently",
            &crate_differs,
            30,
        ));
    }
    if !refused.is_empty() {
        failures.push_str(&listing("crate refused to convert", &refused, 15));
    }
    if !saves_differ.is_empty() {
        failures.push_str(&listing(
            "engine saves not rewritten byte-identical",
            &saves_differ,
            15,
        ));
    }
    if !text_differs.is_empty() {
        failures.push_str(&listing(
            "crate text of engine binary differs in content",
            &text_differs,
            15,
        ));
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.into())
    }
}

/// What the engine's own saves showed, listed at the end.
#[derive(Default)]
struct SaveFindings {
    saves_differ: Vec<String>,
    text_differs: Vec<String>,
    float_digits: Vec<String>,
}

/// The engine's own saves of one file: the crate rewrites each byte for byte, and its
/// text of the binary save is compared with the engine's text save.
fn engine_saves(
    work: &Path,
    j: &Job,
    label: &str,
    form: &str,
    s: &mut Table,
    found: &mut SaveFindings,
) {
    let SaveFindings {
        saves_differ,
        text_differs,
        float_digits,
    } = found;
    let text_path: PathBuf = work.join(format!("{}.engine.{}", j.rel, j.text_ext));
    let bin_path: PathBuf = work.join(format!("{}.engine.{}", j.rel, j.bin_ext));
    let at = format!("{}/{}", j.entry.dir, j.entry.path);
    let (Ok(text), Ok(bin)) = (std::fs::read(&text_path), std::fs::read(&bin_path)) else {
        return;
    };
    s.add(label, form, "engine saves");
    let t = TextResource::from_bytes(&text);
    let b = BinaryResource::from_bytes(&bin);
    let t_same = t.as_ref().is_ok_and(|x| x.to_string().as_bytes() == text);
    let b_same = b
        .as_ref()
        .is_ok_and(|x| x.to_bytes().is_ok_and(|y| y == bin));
    if t_same && b_same {
        s.add(label, form, "crate rewrites identical");
    } else {
        s.add(label, form, "rewrite differs");
        saves_differ.push(format!(
            "{at}: text {}, binary {}",
            if t_same {
                "identical".to_string()
            } else {
                t.as_ref().err().map_or("differs".into(), |e| e.to_string())
            },
            if b_same {
                "identical".to_string()
            } else {
                b.as_ref().err().map_or("differs".into(), |e| e.to_string())
            }
        ));
    }
    let (Ok(t), Ok(b)) = (t, b) else { return };
    match b.to_text() {
        Ok(conv) => {
            let ours = conv.file.to_string();
            if ours.as_bytes() == text {
                s.add(label, form, "bin->text = engine text");
                return;
            }
            let again = TextResource::parse(&ours);
            let diffs: Vec<compare::Diff> = match &again {
                // A binary file does not hold element types: the crate's text of it has
                // none where the engine's text save (of the typed value it loaded) has.
                Ok(x) => compare::compare_text(&t, x)
                    .into_iter()
                    .filter(|d| d.equivalent.is_none() && !compare::element_types_only(d))
                    .map(compare::untyped_values)
                    .collect(),
                Err(_) => Vec::new(),
            };
            if again.is_ok() && diffs.is_empty() {
                s.add(label, form, "same content");
            } else if again.is_ok() && diffs.iter().all(compare::float_digits_only) {
                s.add(label, form, "float digits only");
                float_digits.push(format!("{at}: {} values; {}", diffs.len(), diffs[0]));
            } else {
                s.add(label, form, "content differs");
                let first = diffs
                    .iter()
                    .find(|d| !compare::float_digits_only(d))
                    .map_or("unreadable".to_string(), |d| d.to_string());
                text_differs.push(format!("{at}: {} changes; {first}", diffs.len()));
            }
        }
        Err(e) => {
            s.add(label, form, "content differs");
            text_differs.push(format!("{at}: to_text: {e}"));
        }
    }
}

/// What differs between two dumps: the number of lines that differ, and the first pair
/// of each kind (a connection line, any other), so that one kind does not hide another.
fn first_line_diff(a: &str, b: Option<&str>) -> String {
    let Some(b) = b else {
        return "did not load".into();
    };
    let cut = |s: &str| s.chars().take(200).collect::<String>();
    let (xa, xb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    if xa.len() != xb.len() {
        let (x, y) = crate::resources::changed_lines(a, b);
        let first = |s: &str| cut(s.lines().next().unwrap_or(""));
        return format!(
            "{:?} became {:?} (line count {} became {})",
            first(&x),
            first(&y),
            xa.len(),
            xb.len()
        );
    }
    let pairs: Vec<(&str, &str)> = xa.into_iter().zip(xb).filter(|(x, y)| x != y).collect();
    let conn = pairs
        .iter()
        .filter(|(x, _)| x.starts_with("connection "))
        .count();
    let other = pairs.iter().find(|(x, _)| !x.starts_with("connection "));
    let first = other.or(pairs.first());
    match first {
        Some((x, y)) => format!(
            "{} lines differ ({conn} connection lines); {:?} became {:?}",
            pairs.len(),
            cut(x),
            cut(y)
        ),
        None => "the same lines".into(),
    }
}

fn listing(title: &str, items: &[String], n: usize) -> String {
    let mut s = format!("{title}: {}\n", items.len());
    for i in items.iter().take(n) {
        let _ = writeln!(s, "  {i}");
    }
    if items.len() > n {
        let _ = writeln!(s, "  ... and {} more", items.len() - n);
    }
    s
}
