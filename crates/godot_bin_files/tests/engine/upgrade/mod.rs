//! Godot 3 → Godot 4 of whole projects, judged by both engines (issue 48).
//!
//! Godot 3.2.3 loads every scene and resource of the original project and writes every
//! stored property of every node and sub-resource that differs from a fresh instance of
//! its class, with groups, metadata and connections (`judge3.gd`); the crate converts the
//! project (`upgrade::project`); Godot 4.4.1 loads the converted files and writes every
//! stored property (`judge4.gd`). Each Godot 3 property is then looked up in Godot 4's
//! under its Godot 4 name (the crate's rename facts, `upgrade::godot4_property`) with its
//! value converted as Godot 4 holds it (this file's own `expected`, written apart from
//! the crate's conversion: extents doubled, degrees in radians, key codes...):
//!
//! * **kept**: Godot 4 loaded the value;
//! * **lost**: Godot 4 has the property (it stores one of that name) but loaded another
//!   value, or the file failed to load in Godot 4;
//! * **no home**: Godot 4's object stores no property of that name.
//!
//! `upgrade::project3` runs on the repository's own Godot 3 project
//! (`tests/data/upgrade/project3`, made by Godot 3.2.3 with `make_project3.gd`) and
//! requires nothing lost. `upgrade::corpus` runs on real projects written by others when
//! `GODOT_BIN_GODOT3_CORPUS` names a folder of them (ignored otherwise): every folder
//! below it with a `project.godot`; it prints the figures per project and fails when a
//! file Godot 3 loads fails to load in Godot 4. `GODOT_BIN_UPGRADE_WITH=path/to/godot-bin`
//! converts each file with that binary's `convert F OUT --godot4` instead (the figures
//! before this work).

use crate::support::engine::{engines_required, godot3, godot4, REQUIRE_ENV};
use crate::support::godot::{Godot, Kind};
use godot_bin_files::upgrade;
use libtest_mimic::{Completion, Failed, Trial};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

const JUDGE3: &str = include_str!("judge3.gd");
const JUDGE4: &str = include_str!("judge4.gd");
const CORPUS_ENV: &str = "GODOT_BIN_GODOT3_CORPUS";
const WITH_ENV: &str = "GODOT_BIN_UPGRADE_WITH";

pub fn trials() -> Vec<Trial> {
    vec![
        both("upgrade::project3", || {
            let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/upgrade/project3");
            let f = judge_project(&src, "project3")?;
            eprintln!("project3: {f}; without a home: {:?}", f.no_home);
            if !f.lost.is_empty() {
                return Err(format!("lost in Godot 4:\n{}", f.lost.join("\n")).into());
            }
            check_project3(&f)?;
            Ok(Completion::Completed)
        }),
        both("upgrade::corpus", || {
            let Some(dir) = std::env::var_os(CORPUS_ENV) else {
                return Ok(Completion::ignored_with(format!(
                    "{CORPUS_ENV} names no folder of real Godot 3 projects"
                )));
            };
            let mut projects = Vec::new();
            find_projects(Path::new(&dir), &mut projects);
            projects.sort();
            let mut total = Figures::default();
            let mut failed = Vec::new();
            for p in &projects {
                let name = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
                let f = judge_project(p, &name)?;
                eprintln!("{name}: {f}");
                failed.extend(f.failed4.iter().map(|x| format!("{name}: {x}")));
                total.add(&f);
            }
            eprintln!("TOTAL ({} projects): {total}", projects.len());
            if let Some(path) = std::env::var_os("GODOT_BIN_UPGRADE_REPORT") {
                let mut text = total.lost.join("\n");
                text.push_str("\n\nNO HOME\n");
                text.push_str(&total.no_home.join("\n"));
                let _ = std::fs::write(path, text);
            }
            let mut lost: HashMap<String, usize> = HashMap::new();
            for l in &total.lost {
                let key = l.split('\t').nth(1).unwrap_or("").to_string();
                *lost.entry(key).or_default() += 1;
            }
            let mut lost: Vec<_> = lost.into_iter().collect();
            lost.sort_by_key(|x| std::cmp::Reverse(x.1));
            eprintln!("most lost: {:?}", &lost[..lost.len().min(40)]);
            let mut home: HashMap<String, usize> = HashMap::new();
            for l in &total.no_home {
                *home.entry(l.clone()).or_default() += 1;
            }
            let mut home: Vec<_> = home.into_iter().collect();
            home.sort_by_key(|x| std::cmp::Reverse(x.1));
            eprintln!("most without a home: {:?}", &home[..home.len().min(40)]);
            if !failed.is_empty() {
                return Err(format!(
                    "loaded by Godot 3, not by Godot 4 after conversion:\n{}",
                    failed.join("\n")
                )
                .into());
            }
            Ok(Completion::Completed)
        }),
    ]
}

/// A trial that needs both engines: ignored, or failed under `GODOT_BIN_REQUIRE_ENGINE=1`,
/// when either is missing.
fn both(name: &str, test: fn() -> Result<Completion, Failed>) -> Trial {
    Trial::ignorable_test(name, move || match (godot3(), godot4()) {
        (Ok(_), Ok(_)) => test(),
        (Err(m), _) | (_, Err(m)) if engines_required() => Err(Failed::from(format!(
            "{m}, and {REQUIRE_ENV}=1 requires the engine (godot3 and godot4)"
        ))),
        (Err(m), _) | (_, Err(m)) => Ok(Completion::ignored_with(m)),
    })
    .with_kind("godot3+4")
}

fn find_projects(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("project.godot").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        let skip = e.file_name().to_string_lossy().starts_with('.');
        if is_dir && !skip {
            find_projects(&e.path(), out);
        }
    }
}

/// What became of the Godot 3 properties of a project.
#[derive(Default)]
struct Figures {
    files: usize,
    properties: usize,
    kept: usize,
    /// `file \t prop \t path: godot 3 value -> godot 4 value`.
    lost: Vec<String>,
    /// `Class.prop`.
    no_home: Vec<String>,
    /// References to files Godot 4 must import first (images, sounds, models), which the
    /// judging engine (no editor) cannot: not judged.
    unjudged: usize,
    /// Files Godot 3 loads and Godot 4 does not.
    failed4: Vec<String>,
    /// What Godot 4 loaded, by file and path: for the value checks.
    loaded: HashMap<(String, String, String), String>,
    issues: usize,
}

impl Figures {
    fn add(&mut self, o: &Figures) {
        self.files += o.files;
        self.properties += o.properties;
        self.kept += o.kept;
        self.unjudged += o.unjudged;
        self.lost.extend(o.lost.iter().cloned());
        self.no_home.extend(o.no_home.iter().cloned());
        self.failed4.extend(o.failed4.iter().cloned());
        self.issues += o.issues;
    }
}

impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} files, {} properties: {} kept, {} lost, {} no home in Godot 4, {} not judged (imported assets); {} failed in Godot 4; {} issues reported",
            self.files,
            self.properties,
            self.kept,
            self.lost.len(),
            self.no_home.len(),
            self.unjudged,
            self.failed4.len(),
            self.issues
        )
    }
}

fn scratch(name: &str) -> PathBuf {
    let safe: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let dir = std::env::temp_dir().join(format!("godot_bin_upgrade_{}_{safe}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = e.file_type().unwrap();
        let name = e.file_name();
        if t.is_dir() {
            if name != ".import" && name != ".git" && name != ".godot" {
                copy_dir(&e.path(), &to.join(&name));
            }
        } else if t.is_file() {
            std::fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

/// The data files of a project, as `res://` paths.
fn data_files(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            if !name.starts_with('.') {
                data_files(root, &p, out);
            }
        } else if [".tscn", ".tres", ".scn", ".res"]
            .iter()
            .any(|x| name.ends_with(x))
        {
            let rel = p
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(format!("res://{rel}"));
        }
    }
}

fn run_judge<K: Kind>(engine: &Godot<K>, dir: &Path, script: &str, jobs: &[String]) -> String {
    std::fs::write(dir.join("judge.gd"), script).unwrap();
    std::fs::write(dir.join("judge_jobs.txt"), jobs.join("\n")).unwrap();
    let mut cmd = engine.command(dir, "judge.gd");
    cmd.current_dir(dir);
    let timeout = Duration::from_secs(1800);
    let run = crate::support::run::run(K::NAME, cmd, dir.to_path_buf(), timeout);
    let out = dir.join("judge_out.txt");
    std::fs::read_to_string(&out)
        .unwrap_or_else(|_| panic!("{}: no judge output\n{}", K::NAME, run.describe()))
}

/// One engine's judgement, by file.
#[derive(Default)]
struct Dump {
    failed: bool,
    classes: HashMap<String, String>,
    props: Vec<(String, String, String)>,
    groups: HashSet<(String, String)>,
    connections: Vec<(String, String, String, String)>,
}

fn parse_dump(text: &str) -> HashMap<String, Dump> {
    let mut out: HashMap<String, Dump> = HashMap::new();
    let mut cur = String::new();
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("FILE ") {
            cur = f.to_string();
            out.entry(cur.clone()).or_default();
            continue;
        }
        let d = out.entry(cur.clone()).or_default();
        if line == "FAIL" {
            d.failed = true;
        } else if let Some(r) = line.strip_prefix("O ") {
            if let Some((p, c)) = r.rsplit_once(' ') {
                d.classes.insert(p.to_string(), c.to_string());
            }
        } else if let Some(r) = line.strip_prefix("P ") {
            let mut it = r.splitn(3, '\t');
            if let (Some(a), Some(b), Some(c)) = (it.next(), it.next(), it.next()) {
                d.props.push((a.into(), b.into(), c.into()));
            }
        } else if let Some(r) = line.strip_prefix("G ") {
            if let Some((a, b)) = r.split_once('\t') {
                d.groups.insert((a.into(), b.into()));
            }
        } else if let Some(r) = line.strip_prefix("C ") {
            let v: Vec<&str> = r.split('\t').collect();
            if v.len() == 4 {
                d.connections
                    .push((v[0].into(), v[1].into(), v[2].into(), v[3].into()));
            }
        }
    }
    out
}

fn convert(src: &Path, dst: &Path) -> usize {
    match std::env::var_os(WITH_ENV) {
        None => {
            let report = upgrade::project(src, dst, &upgrade::Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}", src.display()));
            report.issues().count()
        }
        Some(bin) => {
            // An older godot-bin: file by file, and the rest copied.
            copy_dir(src, dst);
            let mut files = Vec::new();
            data_files(dst, dst, &mut files);
            for f in files {
                let path = dst.join(f.trim_start_matches("res://"));
                let tmp = path.with_extension(format!(
                    "tmp.{}",
                    path.extension().unwrap().to_string_lossy()
                ));
                let ok = std::process::Command::new(&bin)
                    .arg("convert")
                    .arg(&path)
                    .arg(&tmp)
                    .arg("--godot4")
                    .output()
                    .is_ok_and(|o| o.status.success());
                if ok {
                    std::fs::rename(&tmp, &path).unwrap();
                }
            }
            0
        }
    }
}

fn judge_project(src: &Path, name: &str) -> Result<Figures, Failed> {
    let (Ok(g3), Ok(g4)) = (godot3(), godot4()) else {
        return Err("engines missing".into());
    };
    let base = scratch(name);
    let orig = base.join("g3");
    let conv = base.join("g4");
    copy_dir(src, &orig);
    let issues = convert(src, &conv);
    let mut jobs = Vec::new();
    data_files(&orig, &orig, &mut jobs);
    jobs.sort();
    // Before the engines run: a run's folder is removed with its result.
    let mut needs_import = HashMap::new();
    for file in &jobs {
        needs_assets(&orig, file, &mut needs_import, 0);
    }
    let d3 = parse_dump(&run_judge(g3, &orig, JUDGE3, &jobs));
    let d4 = parse_dump(&run_judge(g4, &conv, JUDGE4, &jobs));
    let mut f = compare(&d3, &d4, &needs_import);
    f.issues = issues;
    let _ = std::fs::remove_dir_all(&base);
    Ok(f)
}

/// Numbers of a value's text, and the rest (types normalised to Godot 4's names).
fn shape(v: &str) -> (String, Vec<f64>) {
    let v = v
        .replace("PoolRealArray", "PackedFloat32Array")
        .replace("PoolIntArray", "PackedInt32Array")
        .replace("PoolStringArray", "PackedStringArray")
        .replace("PoolVector2Array", "PackedVector2Array")
        .replace("PoolVector3Array", "PackedVector3Array")
        .replace("PoolColorArray", "PackedColorArray")
        .replace("PoolByteArray", "PackedByteArray")
        .replace("Transform(", "Transform3D(")
        .replace("Vector2i(", "Vector2(")
        .replace("Vector3i(", "Vector3(")
        .replace("&\"", "\"")
        .replace("Quat(", "Quaternion(");
    let mut text = String::new();
    let mut nums = Vec::new();
    let b = v.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        let starts =
            c.is_ascii_digit() || (c == '-' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit()));
        let prev_ident = i > 0 && ((b[i - 1] as char).is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts && !prev_ident {
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b'0'..=b'9' | b'.' | b'e' | b'-' | b'+') {
                j += 1;
            }
            nums.push(v[i..j].parse().unwrap_or(f64::NAN));
            text.push('#');
            i = j;
        } else {
            if !c.is_whitespace() {
                text.push(c);
            }
            i += 1;
        }
    }
    (text, nums)
}

fn same_value(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let (ta, na) = shape(a);
    let (tb, nb) = shape(b);
    let ta = ta.replace("Obj(", "").replace("Ext(", "").replace(')', "");
    let tb = tb.replace("Obj(", "").replace("Ext(", "").replace(')', "");
    let class_of = |t: &str| {
        t.split_once("res:").map_or(t.to_string(), |(c, p)| {
            format!("{}res:{p}", upgrade::godot4_class(c))
        })
    };
    let (ta, tb) = (class_of(&ta), class_of(&tb));
    let class_same = ta == tb || upgrade::godot4_class(&ta) == tb;
    class_same
        && na.len() == nb.len()
        && na
            .iter()
            .zip(&nb)
            .all(|(x, y)| (x - y).abs() <= 1e-4 * (1.0 + x.abs().max(y.abs())))
}

/// A Godot 3 value as Godot 4 holds it after the rename of `prop` (written apart from
/// the crate's conversion); `props3` are the object's other Godot 3 properties.
fn expected(class3: &str, prop: &str, v: &str, props3: &HashMap<&str, &str>) -> String {
    let num = |s: &str| s.trim().parse::<f64>().ok();
    let map_nums = |v: &str, f: &dyn Fn(f64) -> f64| {
        let (_, ns) = shape(v);
        let mut out = v.to_string();
        // Rewrite each number in order.
        let mut parts = Vec::new();
        let (text, _) = shape(v);
        let mut k = 0;
        for ch in text.chars() {
            if ch == '#' {
                parts.push(format!("{}", f(ns[k])));
                k += 1;
            } else {
                parts.push(ch.to_string());
            }
        }
        if k == ns.len() {
            out = parts.concat();
        }
        out
    };
    let keycode = |x: f64| {
        let c = x as i64;
        if c & (1 << 24) != 0 {
            ((c & !(1 << 24)) | (1 << 22)) as f64
        } else {
            x
        }
    };
    match (class3, prop) {
        (_, "extents") => map_nums(v, &|x| x * 2.0),
        (_, "rect_rotation") => map_nums(v, &|x| x.to_radians()),
        (_, "pause_mode") => {
            if v == "2" {
                "3".into()
            } else {
                v.into()
            }
        }
        (_, "scancode" | "physical_scancode") => map_nums(v, &keycode),
        ("Label", "autowrap") => {
            if v == "true" {
                "3".into()
            } else {
                "0".into()
            }
        }
        ("Animation", "loop") => {
            if v == "true" {
                "1".into()
            } else {
                "0".into()
            }
        }
        ("TextEdit", "readonly") | ("Camera2D", "rotating") => {
            if v == "true" {
                "false".into()
            } else {
                "true".into()
            }
        }
        ("CapsuleShape" | "CapsuleShape2D", "height") => {
            let r = props3
                .get("radius")
                .and_then(|r| num(r))
                .unwrap_or(if class3 == "CapsuleShape" { 1.0 } else { 10.0 });
            map_nums(v, &|x| x + 2.0 * r)
        }
        ("ShortCut", "shortcut") => format!("[{v}]"),
        (_, "use_in_baked_light") | ("TextureRect", "expand") | ("TextEdit", "wrap_enabled") => {
            if v == "true" {
                "1".into()
            } else {
                "0".into()
            }
        }
        ("Environment", p) if p.starts_with("glow_levels/") => {
            if v == "true" {
                "1.0".into()
            } else {
                "0.0".into()
            }
        }
        // Godot 3 none, PCF3, PCF5, PCF7, PCF9, PCF13; Godot 4 none, PCF5, PCF13.
        ("Light2D", "shadow_filter") => match v {
            "0" => "0",
            "1" | "2" | "3" => "1",
            _ => "2",
        }
        .into(),
        _ => v.to_string(),
    }
}

/// Properties Godot 4 holds in another shape (written apart from the crate): a particle
/// value and its randomness as a `_min` / `_max` range, a rigid body's mode as `freeze` or
/// `lock_rotation`. The Godot 4 property to look at and the value it should hold.
fn reshaped(
    class3: &str,
    k: &str,
    v: &str,
    props: &HashMap<&str, &str>,
) -> Option<(String, String)> {
    let particles = ["ParticlesMaterial", "CPUParticles", "CPUParticles2D"];
    let ranged = [
        "initial_velocity",
        "angular_velocity",
        "orbit_velocity",
        "linear_accel",
        "radial_accel",
        "tangential_accel",
        "damping",
        "angle",
        "hue_variation",
        "anim_speed",
        "anim_offset",
        "scale",
        "scale_amount",
    ];
    if particles.contains(&class3) {
        if ranged.contains(&k) {
            return Some((format!("{k}_max"), v.to_string()));
        }
        if let Some(base) = k.strip_suffix("_random").filter(|b| ranged.contains(b)) {
            let default = if base.starts_with("scale") { 1.0 } else { 0.0 };
            let value = props
                .get(base)
                .and_then(|x| x.parse::<f64>().ok())
                .unwrap_or(default);
            let r: f64 = v.parse().ok()?;
            return Some((format!("{base}_min"), format!("{}", value * (1.0 - r))));
        }
    }
    if matches!(class3, "RigidBody" | "RigidBody2D") && k == "mode" {
        return match v {
            "1" | "3" => Some(("freeze".into(), "true".into())),
            "2" => Some(("lock_rotation".into(), "true".into())),
            _ => None,
        };
    }
    None
}

/// The target property of a track (`Label:rect_rotation` of the animation at
/// `owner|anims/x`), renamed by its node's Godot 3 class.
fn track_target(
    owner: &str,
    path: &str,
    classes: &HashMap<String, String>,
) -> Option<(String, String, String)> {
    let inner = path
        .trim_start_matches("NodePath(\"")
        .trim_end_matches("\")");
    let (node, prop) = inner.split_once(':')?;
    let player = owner.rsplit_once('|').map_or("", |(p, _)| p);
    // The player's root_node is ".." by default: its parent.
    let mut parts: Vec<&str> = player
        .split('/')
        .filter(|x| !x.is_empty() && *x != ".")
        .collect();
    parts.pop();
    for n in node.split('/') {
        match n {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            n => parts.push(n),
        }
    }
    let target = if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    };
    let class = classes.get(&target).map(String::as_str);
    let prop4 = upgrade::godot4_property(class, prop).unwrap_or(prop.to_string());
    Some((node.to_string(), prop.to_string(), prop4))
}

/// A track's Godot 3 property as Godot 4 holds it: its path's property renamed, its keys'
/// values converted, trigger / capture update modes renumbered (2 -> 1, 3 -> 2).
fn expected_track(
    owner: &str,
    k: &str,
    v: &str,
    props: &HashMap<&str, &str>,
    classes: &HashMap<String, String>,
) -> String {
    let Some((track, field)) = k.strip_prefix("tracks/").and_then(|r| r.split_once('/')) else {
        return v.to_string();
    };
    let path = props
        .get(format!("tracks/{track}/path").as_str())
        .copied()
        .unwrap_or("");
    let target = track_target(owner, path, classes);
    match (field, target) {
        ("path", Some((node, _, prop4))) => format!("NodePath(\"{node}:{prop4}\")"),
        ("keys", t) => {
            let mut v = v
                .replace("\"update\": 2", "\"update\": 1")
                .replace("\"update\": 3", "\"update\": 2");
            if let (Some((_, prop, _)), Some(at)) = (t, v.find("\"values\":")) {
                let values = expected("", &prop, &v[at..], &HashMap::new());
                v = format!("{}{values}", &v[..at]);
            }
            v
        }
        _ => v.to_string(),
    }
}

/// Whether a data file depends, directly or through other data files, on an asset Godot 4
/// must import before it loads (an image, a sound, a font, a model): the judging engine
/// has no editor to import with, so such a file (and what it holds) is not judged when
/// Godot 4 does not load it.
fn needs_assets(root: &Path, res: &str, memo: &mut HashMap<String, bool>, depth: usize) -> bool {
    if let Some(&b) = memo.get(res) {
        return b;
    }
    let data = [".tscn", ".tres", ".scn", ".res"];
    if !data.iter().any(|x| res.ends_with(x)) {
        return true;
    }
    if depth > 32 {
        return false;
    }
    memo.insert(res.to_string(), false);
    let Ok(bytes) = std::fs::read(root.join(res.trim_start_matches("res://"))) else {
        return false;
    };
    let deps: Vec<String> = if let Ok(t) = godot_bin_files::TextResource::from_bytes(&bytes) {
        t.ext_resources()
            .filter_map(|s| s.path().map(str::to_string))
            .collect()
    } else if let Ok(b) = godot_bin_files::BinaryResource::from_bytes(&bytes) {
        b.ext_resources().iter().map(|e| e.path.clone()).collect()
    } else {
        Vec::new()
    };
    let dir = res.rsplit_once('/').map_or("res:/", |(d, _)| d);
    let mut any = false;
    for d in deps {
        let full = if d.starts_with("res://") {
            d
        } else {
            format!("{dir}/{d}")
        };
        if needs_assets(root, &full, memo, depth + 1) {
            any = true;
        }
    }
    memo.insert(res.to_string(), any);
    any
}

fn compare(
    d3: &HashMap<String, Dump>,
    d4: &HashMap<String, Dump>,
    needs_import: &HashMap<String, bool>,
) -> Figures {
    let mut f = Figures::default();
    let empty = Dump::default();
    for (file, a) in d3 {
        if a.failed {
            continue;
        }
        f.files += 1;
        let b = d4.get(file).unwrap_or(&empty);
        let unjudged = needs_import.get(file).copied().unwrap_or(false);
        if b.failed && unjudged {
            f.unjudged += a.props.len() + a.groups.len() + a.connections.len();
            continue;
        }
        if b.failed || !d4.contains_key(file) {
            f.failed4.push(file.clone());
        }
        let mut loaded: HashMap<(&str, &str), &str> = HashMap::new();
        let mut stored: HashSet<(&str, &str)> = HashSet::new();
        for (p, k, v) in &b.props {
            loaded.insert((p, k), v);
            stored.insert((p, k));
            f.loaded
                .insert((file.clone(), p.clone(), k.clone()), v.clone());
        }
        // Each Godot 3 object path as Godot 4 names it.
        let mut paths: HashMap<&str, String> = HashMap::new();
        let mut objs: Vec<&String> = a.classes.keys().collect();
        objs.sort_by_key(|p| p.matches('|').count());
        for p in objs {
            let new = match p.rsplit_once('|') {
                None => p.clone(),
                Some((owner, prop)) => {
                    let class = a.classes.get(owner).map(String::as_str);
                    let mut prop4 =
                        upgrade::godot4_property(class, prop).unwrap_or(prop.to_string());
                    if class == Some("ShortCut") && prop == "shortcut" {
                        prop4.push_str("/0"); // one event into the events Array
                    }
                    format!(
                        "{}|{prop4}",
                        paths.get(owner).cloned().unwrap_or(owner.to_string())
                    )
                }
            };
            paths.insert(p, new);
        }
        let mut by_obj: HashMap<&str, HashMap<&str, &str>> = HashMap::new();
        for (p, k, v) in &a.props {
            by_obj.entry(p).or_default().insert(k, v);
        }
        for (p, k, v) in &a.props {
            f.properties += 1;
            let class3 = a.classes.get(p).map(String::as_str).unwrap_or("");
            let p4 = paths.get(p.as_str()).cloned().unwrap_or(p.clone());
            let k4 = upgrade::godot4_property(Some(class3), k).unwrap_or(k.clone());
            let mut want = expected(class3, k, v, &by_obj[p.as_str()]);
            let mut k4 = k4;
            if let Some((k, w)) = reshaped(class3, k, v, &by_obj[p.as_str()]) {
                (k4, want) = (k, w);
            }
            if class3 == "Animation" && k.starts_with("tracks/") {
                want = expected_track(p, k, v, &by_obj[p.as_str()], &a.classes);
            }
            if v.starts_with("<long") {
                f.unjudged += 1; // too long to print: not compared
                continue;
            }
            let asset = v.starts_with("Ext(")
                && ![".tscn)", ".tres)", ".scn)", ".res)"]
                    .iter()
                    .any(|x| v.ends_with(x));
            // Godot 4 sets a node's `_import_path` in the editor only.
            if k == "_import_path" {
                f.unjudged += 1;
                continue;
            }
            let dep_failed = |v: &str| {
                v.strip_prefix("Ext(")
                    .and_then(|r| r.split_once(' '))
                    .is_some_and(|(_, path)| {
                        needs_import
                            .get(path.trim_end_matches(')'))
                            .copied()
                            .unwrap_or(false)
                    })
            };
            match loaded.get(&(p4.as_str(), k4.as_str())) {
                Some(got) if same_value(&want, got) => f.kept += 1,
                Some(&"null") if dep_failed(v) => f.unjudged += 1,
                Some(&"null") if asset => f.unjudged += 1,
                Some(got) => f
                    .lost
                    .push(format!("{file}\t{class3}.{k}\t{p}: {v} -> {k4} = {got}")),
                None if unjudged && !b.classes.contains_key(&p4) => f.unjudged += 1,
                None if b.failed || !b.classes.contains_key(&p4) => f.lost.push(format!(
                    "{file}\t{class3}.{k}\t{p}: {v} -> (object not loaded)"
                )),
                None if k4.starts_with("metadata/") && asset => f.unjudged += 1,
                None if k4.starts_with("metadata/") => f
                    .lost
                    .push(format!("{file}\t{class3}.{k}\t{p}: {v} -> (no metadata)")),
                None => f.no_home.push(format!("{class3}.{k}")),
            }
        }
        for g in &a.groups {
            f.properties += 1;
            if b.groups.contains(g) {
                f.kept += 1;
            } else {
                f.lost.push(format!("{file}\tgroup\t{} {}", g.0, g.1));
            }
        }
        for (from, sig, to, method) in &a.connections {
            f.properties += 1;
            let class = a.classes.get(from).map(String::as_str);
            let sig4 = upgrade::godot4_signal(class, sig).unwrap_or(sig);
            let hit = b
                .connections
                .iter()
                .any(|c| c.0 == *from && c.1 == sig4 && c.2 == *to && c.3 == *method);
            if hit {
                f.kept += 1;
            } else {
                f.lost
                    .push(format!("{file}\tconnection\t{from}.{sig} -> {to}.{method}"));
            }
        }
        let _ = &stored;
    }
    f.lost.sort();
    f
}

/// Values of the repository's project, as Godot 4 loaded them: each conversion rule's
/// result, so that taking a rule out fails here even where the comparison above would
/// count the property as without a home.
fn check_project3(f: &Figures) -> Result<(), Failed> {
    let want: &[(&str, &str, &str, &str)] = &[
        ("res://ui.tscn", "Label", "offset_left", "10.0"),
        ("res://ui.tscn", "Label", "rotation", "0.523599"),
        (
            "res://ui.tscn",
            "Label",
            "theme_override_colors/font_shadow_color",
            "Color(0, 0, 1, 1)",
        ),
        ("res://ui.tscn", "Label", "horizontal_alignment", "1"),
        ("res://ui.tscn", "Label", "process_mode", "3"),
        ("res://ui.tscn", "Anchored", "anchor_left", "0.5"),
        ("res://ui.tscn", "Anchored", "offset_left", "-20.0"),
        ("res://ui.tscn", "Button", "button_pressed", "true"),
        ("res://ui.tscn", "Player", "speed_scale", "1.5"),
        ("res://ui.tscn", "Player|anims/move", "loop_mode", "1"),
        (
            "res://ui.tscn",
            "Player|anims/move",
            "tracks/0/path",
            "NodePath(\"Label:position\")",
        ),
        ("res://main.tscn", "UI", "offset_left", "40.0"),
        (
            "res://world.tscn",
            "Ray",
            "target_position",
            "Vector2(0, 120)",
        ),
        (
            "res://world.tscn",
            "Body/Shape|shape",
            "size",
            "Vector2(32, 16)",
        ),
        (
            "res://world.tscn",
            "Space/Static/DefaultBox|shape",
            "size",
            "Vector3(2, 2, 2)",
        ),
        (
            "res://world.tscn",
            "Space/Static/Capsule|shape",
            "height",
            "5.0",
        ),
        (
            "res://world.scn",
            "Space/Static/Box|shape",
            "size",
            "Vector3(2, 4, 6)",
        ),
        ("res://quit_shortcut.tres", "|events", "", ""),
    ];
    let mut wrong = String::new();
    for (file, path, prop, value) in want {
        if prop.is_empty() {
            continue;
        }
        let got = f
            .loaded
            .get(&(file.to_string(), path.to_string(), prop.to_string()));
        if !got.is_some_and(|g| same_value(value, g)) {
            let _ = writeln!(
                wrong,
                "{file} {path} {prop}: want {value}, Godot 4 loaded {got:?}"
            );
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(wrong.into())
    }
}
