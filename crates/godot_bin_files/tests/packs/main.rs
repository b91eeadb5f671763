//! Real packs exported by editors and committed to public repositories (issue 47 #6):
//! every one lists, extracts (each file's MD5 checked where the directory carries one),
//! is written back byte for byte, and takes a `set` in place that leaves the other files'
//! bytes where and as they were. An encrypted one without its key fails saying so.
//!
//! The packs are not in the repository (fetched material is never committed): the test
//! reads the folder named by `GODOT_BIN_PACKS` (its `MANIFEST.tsv` says where each came
//! from: repository, path, commit, license, header) and reports itself ignored without it.

use godot_bin_files::pack::{Pack, Patch};
use godot_bin_files::ErrorKind;
use libtest_mimic::{Completion, Failed, Trial};
use std::path::{Path, PathBuf};

fn packs() -> Result<Vec<PathBuf>, String> {
    let dir = std::env::var_os("GODOT_BIN_PACKS")
        .map(PathBuf::from)
        .ok_or("GODOT_BIN_PACKS is not set (a folder of real packs and their MANIFEST.tsv)")?;
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv"))
        .map_err(|e| format!("{}: {e}", dir.join("MANIFEST.tsv").display()))?;
    Ok(manifest
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .filter(|f| !f.is_empty())
        .map(|f| dir.join(f))
        .collect())
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let trials = vec![
        Trial::ignorable_test("packs::real_packs", || match packs() {
            Ok(list) => real_packs(&list).map(|()| Completion::Completed),
            Err(why) => Ok(Completion::ignored_with(why)),
        }),
        Trial::ignorable_test(
            "packs::the_engines_load_real_packs_patched",
            || match packs() {
                Ok(list) => engines_load_patched(&list),
                Err(why) => Ok(Completion::ignored_with(why)),
            },
        ),
    ];
    libtest_mimic::run(&args, trials).exit();
}

fn real_packs(list: &[PathBuf]) -> Result<(), Failed> {
    let scratch = std::env::temp_dir().join(format!("godot_bin_real_packs_{}", std::process::id()));
    let mut failures = Vec::new();
    let (mut files, mut md5s, mut bytes) = (0usize, 0usize, 0u64);
    println!("pack\theader\tfiles\tmd5 checked\tbytes\trewrite\tset");
    for path in list {
        match one(path, &scratch) {
            Ok(row) => {
                println!(
                    "{}\t{}\t{}\t{}\t{}\tidentical\tothers untouched",
                    name(path),
                    row.header,
                    row.files,
                    row.md5s,
                    row.bytes
                );
                files += row.files;
                md5s += row.md5s;
                bytes += row.bytes;
            }
            Err(e) => failures.push(format!("{}: {e}", name(path))),
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
    println!(
        "{} packs, {files} files ({md5s} MD5s checked), {bytes} bytes; {} failed",
        list.len(),
        failures.len()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n").into())
    }
}

/// Each real pack an engine here can load (Godot 4.4.1: format 2 from engines up to 4.4;
/// Godot 3.2.3: format 1 up to 3.2), patched on a copy (one file replaced, one added): the
/// engine loads it and reads the new bytes, and an untouched file's, as the crate does.
fn engines_load_patched(list: &[PathBuf]) -> Result<Completion, Failed> {
    use godot_bin_testkit::engine::{engines_required, godot3, godot4};
    let scratch = std::env::temp_dir().join(format!("godot_bin_real_patch_{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let (mut loaded, mut missing) = (0, Vec::new());
    for path in list {
        let Ok(pack) = Pack::open(path) else { continue };
        let h = pack.header().clone();
        let for4 = h.format == 2 && h.engine[0] == 4 && h.engine[1] <= 4;
        let for3 = h.format == 1 && h.engine[0] == 3 && h.engine[1] <= 2;
        if !for4 && !for3 {
            continue;
        }
        let Some(kept) = pack
            .entries()
            .iter()
            .rev()
            .find(|e| !e.is_encrypted() && !e.res_path().starts_with("res://.godot/"))
            .map(|e| e.res_path())
        else {
            continue;
        };
        let replaced = pack.entries()[0].res_path();
        drop(pack);
        let copy = scratch.join(name(path));
        std::fs::copy(path, &copy).map_err(|e| e.to_string())?;
        let mut patch = Patch::open(&copy, None).map_err(|e| e.to_string())?;
        patch.set(&replaced, b"replaced by godot_bin\n".to_vec());
        patch.set(
            "res://godot_bin_added.txt",
            b"added by godot_bin\n".to_vec(),
        );
        patch.commit().map_err(|e| e.to_string())?;
        let mut ours = Pack::open(&copy).map_err(|e| e.to_string())?;
        let paths = [
            replaced.clone(),
            "res://godot_bin_added.txt".to_string(),
            kept.clone(),
        ];
        let mut want = Vec::new();
        for p in &paths {
            let e = ours.entry(p).ok_or("missing after the patch")?.clone();
            let md5 = ours.file_md5(&e).map_err(|e| e.to_string())?;
            want.push(format!(
                "{p}:{}",
                md5.iter().map(|b| format!("{b:02x}")).collect::<String>()
            ));
        }
        let bytes = std::fs::read(&copy).map_err(|e| e.to_string())?;
        let list_gd = paths
            .iter()
            .map(|p| format!("\"{p}\""))
            .collect::<Vec<_>>()
            .join(", ");
        let files: [(&str, &[u8]); 1] = [("patched.pck", &bytes)];
        let run = if for4 {
            match godot4() {
                Ok(engine) => godot_bin_testkit::godot::run_script(
                    engine,
                    &format!("print(\"LOAD:\", ProjectSettings.load_resource_pack(\"res://patched.pck\"))\nfor p in [{list_gd}]:\n\tprint(\"MD5:\", p, \":\", FileAccess.get_md5(p))\n"),
                    &files,
                ),
                Err(why) => {
                    missing.push(why.clone());
                    continue;
                }
            }
        } else {
            match godot3() {
                Ok(engine) => godot_bin_testkit::godot::run_script(
                    engine,
                    &format!("print(\"LOAD:\", ProjectSettings.load_resource_pack(\"res://patched.pck\"))\nvar f = File.new()\nfor p in [{list_gd}]:\n\tprint(\"MD5:\", p, \":\", f.get_md5(p))\n"),
                    &files,
                ),
                Err(why) => {
                    missing.push(why.clone());
                    continue;
                }
            }
        };
        if run.line_with_prefix("LOAD:").to_lowercase() != "true" {
            return Err(format!(
                "{}: the engine did not load the patched pack\n{}",
                name(path),
                run.describe()
            )
            .into());
        }
        let got = run.lines_with_prefix("MD5:");
        if got != want {
            return Err(format!(
                "{}: the engine read {got:?}, the crate {want:?}",
                name(path)
            )
            .into());
        }
        println!(
            "{}: loaded patched by the engine, {} files read back alike",
            name(path),
            got.len()
        );
        loaded += 1;
    }
    std::fs::remove_dir_all(&scratch).ok();
    if loaded == 0 && !missing.is_empty() {
        return if engines_required() {
            Err(missing.join("; ").into())
        } else {
            Ok(Completion::ignored_with(missing.join("; ")))
        };
    }
    Ok(Completion::Completed)
}

fn name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

struct Row {
    header: String,
    files: usize,
    md5s: usize,
    bytes: u64,
}

fn one(path: &Path, scratch: &Path) -> Result<Row, String> {
    let original = std::fs::read(path).map_err(|e| e.to_string())?;
    let mut pack = match Pack::open(path) {
        Ok(p) => p,
        Err(e) if matches!(e.kind(), ErrorKind::KeyRequired) => {
            return Ok(Row {
                header: "encrypted directory: key required (as expected without it)".into(),
                files: 0,
                md5s: 0,
                bytes: original.len() as u64,
            })
        }
        Err(e) => return Err(e.to_string()),
    };
    let header = pack.header().to_string();
    let entries = pack.entries().to_vec();
    // Extract every file, and check each against the directory's MD5.
    let dir = scratch.join(name(path));
    let encrypted = entries.iter().any(|e| e.is_encrypted());
    if encrypted {
        let err = pack.extract_all(&dir).unwrap_err();
        if !matches!(err.kind(), ErrorKind::KeyRequired) {
            return Err(format!("an encrypted file without the key: {err}"));
        }
    } else {
        let n = pack.extract_all(&dir).map_err(|e| e.to_string())?;
        if n != entries.iter().filter(|e| !e.is_removal()).count() {
            return Err(format!("extracted {n} of {} files", entries.len()));
        }
    }
    let mut md5s = 0;
    for e in &entries {
        if e.is_encrypted() || e.is_removal() {
            continue;
        }
        let got = pack
            .file_md5(e)
            .map_err(|err| format!("{}: {err}", e.path()))?;
        let on_disk = std::fs::read(dir.join(e.path().trim_start_matches("res://")))
            .map_err(|err| format!("{}: {err}", e.path()))?;
        if on_disk.len() as u64 != e.size() {
            return Err(format!(
                "{}: extracted {} bytes of {}",
                e.path(),
                on_disk.len(),
                e.size()
            ));
        }
        if e.md5() != [0; 16] {
            if got != e.md5() {
                return Err(format!("{}: MD5 differs from the directory's", e.path()));
            }
            md5s += 1;
        }
    }
    // Written back unchanged: the same bytes.
    let mut again = Vec::new();
    pack.write_to(&mut again).map_err(|e| e.to_string())?;
    if again != original {
        return Err("the rewrite differs".into());
    }
    // `set` on a copy: the other files stay, byte for byte, where they were.
    let copy = scratch.join(format!("{}.patched", name(path)));
    std::fs::write(&copy, &original).map_err(|e| e.to_string())?;
    let target = entries
        .iter()
        .find(|e| !e.is_encrypted() && !e.is_removal())
        .map(|e| e.res_path());
    if let Some(target) = target {
        let mut patch = Patch::open(&copy, None).map_err(|e| e.to_string())?;
        patch.set(&target, b"patched by godot_bin".to_vec());
        let done = patch.commit().map_err(|e| e.to_string())?;
        let after = std::fs::read(&copy).map_err(|e| e.to_string())?;
        let mut patched = Pack::open(&copy).map_err(|e| e.to_string())?;
        if patched.read(&target).map_err(|e| e.to_string())? != b"patched by godot_bin" {
            return Err("the set file reads back otherwise".into());
        }
        for e in &entries {
            if e.res_path() == target || done.relocated.contains(&e.res_path()) {
                continue;
            }
            let now = patched
                .entry(e.path())
                .ok_or("a file went missing")?
                .clone();
            let (at, len) = (e.position() as usize, e.stored_len() as usize);
            if now.position() != e.position() || after[at..at + len] != original[at..at + len] {
                return Err(format!("{}: moved or rewritten by the patch", e.path()));
            }
        }
        std::fs::remove_file(&copy).ok();
    }
    std::fs::remove_dir_all(&dir).ok();
    // The exported project settings, in the engine's dialect, written back byte for byte.
    if pack.entry("res://project.binary").is_some() {
        let bytes = pack
            .read("res://project.binary")
            .map_err(|e| e.to_string())?;
        let dialect = if pack.header().engine[0] >= 4 {
            godot_bin::Dialect::Godot4
        } else {
            godot_bin::Dialect::Godot3
        };
        let settings = godot_bin_files::resource::ProjectBinary::from_bytes(
            &bytes,
            &godot_bin::Config::new(dialect),
        )
        .map_err(|e| format!("project.binary: {e}"))?;
        if settings.to_bytes().map_err(|e| e.to_string())? != bytes {
            return Err("project.binary: the rewrite differs".into());
        }
        println!(
            "  {}: project.binary, {} settings, name {}",
            name(path),
            settings.settings().count(),
            settings
                .get("application/config/name")
                .map(|v| v.to_text(dialect))
                .unwrap_or_default()
        );
    }
    // The pack as a project: every resource read (through its .remap in an export), its
    // references followed by uid or path.
    let mut project = godot_bin_files::project::Project::open(path).map_err(|e| e.to_string())?;
    let resources = project.resources();
    let mut links = 0;
    for r in &resources {
        links += project.links(r).map_err(|e| format!("{r}: {e}"))?.len();
    }
    let broken = project.broken().map_err(|e| e.to_string())?;
    println!(
        "  {}: {} resources, {links} references, {} broken{}",
        name(path),
        resources.len(),
        broken.len(),
        broken
            .first()
            .map(|b| format!(" (first: {} -> {})", b.from, b.link.path))
            .unwrap_or_default()
    );
    Ok(Row {
        header,
        files: entries.len(),
        md5s,
        bytes: original.len() as u64,
    })
}
