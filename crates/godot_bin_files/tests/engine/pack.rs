//! The engines against this crate's packs: each engine's `PCKPacker` writes packs (aligned,
//! and in Godot 4 encrypted with the all-zero key and with another) that the crate reads
//! file for file; the packs the crate writes (every layout and option the engine loads,
//! inside an executable, patched in place) are loaded by the engine with
//! `ProjectSettings.load_resource_pack`, which prints the MD5 of each file it reads back.

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::godot::{run_script, Godot, Kind};
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::pack::{Pack, PackWriter, Patch};
use godot_bin_files::resource::ProjectBinary;
use godot_bin_files::save::Key;
use godot_bin_files::ErrorKind;
use libtest_mimic::Trial;
use md5::{Digest, Md5};
use std::collections::BTreeMap;
use std::io::Cursor;
use std::path::Path;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("pack::we_read_the_packs_godot4_writes", |e| {
            we_read_the_engines_packs(e, true)
        }),
        godot3_trial("pack::we_read_the_packs_godot3_writes", |e| {
            we_read_the_engines_packs(e, false)
        }),
        godot4_trial("pack::godot4_loads_the_packs_we_write", |e| {
            the_engine_loads_our_packs(e, true)
        }),
        godot3_trial("pack::godot3_loads_the_packs_we_write", |e| {
            the_engine_loads_our_packs(e, false)
        }),
        godot4_trial("pack::we_read_godot4_project_binary", |e| {
            project_binary(e, Dialect::Godot4)
        }),
        godot3_trial("pack::we_read_godot3_project_binary", |e| {
            project_binary(e, Dialect::Godot3)
        }),
    ]
}

/// A key other than the all-zero one a stock engine has.
const OTHER_KEY: [u8; 32] = *b"0123456789abcdefGHIJKLMNOPQRSTUV";

/// The source files: odd lengths, an empty one, one of several AES chunks.
fn sources() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("src/a.txt", b"hello, pack\n".to_vec()),
        ("src/empty.bin", Vec::new()),
        (
            "src/dir/level.tscn",
            b"[gd_scene format=3]\n\n[node name=\"L\" type=\"Node\"]\n".to_vec(),
        ),
        (
            "src/dir/big.bin",
            (0..100_003u32).map(|i| (i * 31 % 253) as u8).collect(),
        ),
    ]
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

fn md5_hex(b: &[u8]) -> String {
    hex(&Md5::digest(b))
}

fn we_read_the_engines_packs<K: Kind>(engine: &Godot<K>, godot4: bool) {
    let src = sources();
    let files: Vec<(&str, &[u8])> = src.iter().map(|(n, b)| (*n, &b[..])).collect();
    let list = src
        .iter()
        .map(|(n, _)| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ");
    // (pack name, alignment, key hex, encrypt files, encrypt directory)
    let zero = "0".repeat(64);
    let other = hex(&OTHER_KEY);
    let packs: Vec<(&str, u32, String, bool, bool)> = if godot4 {
        vec![
            ("a16.pck", 16, zero.clone(), false, false),
            ("a32.pck", 32, zero.clone(), false, false),
            ("files.pck", 16, zero.clone(), true, false),
            ("dir.pck", 16, zero.clone(), false, true),
            ("both.pck", 4, zero.clone(), true, true),
            ("other.pck", 16, other.clone(), true, true),
        ]
    } else {
        vec![
            ("a0.pck", 0, String::new(), false, false),
            ("a16.pck", 16, String::new(), false, false),
            ("a32.pck", 32, String::new(), false, false),
        ]
    };
    let mut body = format!("var files = [{list}]\nvar p\n");
    for (name, align, key, enc_files, enc_dir) in &packs {
        body += "p = PCKPacker.new()\n";
        if godot4 {
            body += &format!("print(\"START:{name}:\", p.pck_start(\"{name}\", {align}, \"{key}\", {enc_dir}))\n");
            body += &format!("for f in files:\n\tp.add_file(\"res://\" + f, f, {enc_files})\n");
        } else {
            body += &format!("print(\"START:{name}:\", p.pck_start(\"{name}\", {align}))\n");
            body += "for f in files:\n\tp.add_file(\"res://\" + f, f)\n";
        }
        body += &format!("print(\"FLUSH:{name}:\", p.flush())\n");
    }
    let run = run_script(engine, &body, &files);
    run.assert_ok();
    for (name, align, key, enc_files, enc_dir) in &packs {
        assert_eq!(
            run.line_with_prefix(&format!("START:{name}:")),
            "0",
            "{name}"
        );
        assert_eq!(
            run.line_with_prefix(&format!("FLUSH:{name}:")),
            "0",
            "{name}"
        );
        let bytes = run.read_file(name);
        let key = if key.is_empty() {
            None
        } else {
            Some(Key::from_hex(key).unwrap())
        };
        let mut pack = Pack::from_reader(Cursor::new(&bytes), key.as_ref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(pack.header().format, if godot4 { 2 } else { 1 }, "{name}");
        assert_eq!(pack.header().dir_encrypted(), *enc_dir, "{name}");
        assert_eq!(pack.entries().len(), src.len(), "{name}");
        for (path, content) in &src {
            let e = pack
                .entry(&format!("res://{path}"))
                .unwrap_or_else(|| panic!("{name}: no {path}"))
                .clone();
            assert_eq!(e.size(), content.len() as u64, "{name} {path}");
            assert_eq!(e.is_encrypted(), *enc_files, "{name} {path}");
            if *align > 1 {
                assert_eq!(e.position() % u64::from(*align), 0, "{name} {path}");
            }
            if godot4 {
                assert_eq!(hex(&e.md5()), md5_hex(content), "{name} {path}: md5");
            } else {
                assert_eq!(e.md5(), [0; 16], "{name} {path}: Godot 3 writes no md5");
            }
            assert_eq!(&pack.read(path).unwrap(), content, "{name} {path}");
        }
        // Read and written back: the engine's bytes.
        let mut again = Vec::new();
        pack.write_to(&mut again).unwrap();
        assert!(again == bytes, "{name}: rewrite differs");
        if *enc_dir || *enc_files {
            // The wrong key is told from damage.
            let wrong = Key::bytes([9; 32]);
            let err = Pack::from_reader(Cursor::new(&bytes), Some(&wrong))
                .and_then(|mut p| p.read("res://src/a.txt").map(|_| ()))
                .unwrap_err();
            assert!(matches!(err.kind(), ErrorKind::WrongKey), "{name}: {err}");
        }
    }
}

/// One pack of ours for the engine: its file name, how it was made, and what the engine
/// must read from it (res path -> content), `None` when the engine must refuse it.
struct Ours {
    name: String,
    files: Vec<(String, Vec<u8>)>,
    loads: bool,
}

fn ours_for(
    dir: &Path,
    name: &str,
    engine: &str,
    alignment: u32,
    enc: (bool, bool),
    key: [u8; 32],
) -> Ours {
    let prefix = name.trim_end_matches(".pck").replace('.', "_");
    let files: Vec<(String, Vec<u8>)> = sources()
        .into_iter()
        .map(|(p, b)| (format!("res://{prefix}/{p}"), b))
        .collect();
    let mut w = PackWriter::for_engine(engine)
        .unwrap()
        .alignment(alignment)
        .key(Key::bytes(key))
        .encrypt_files(enc.0);
    w.encrypt_directory(enc.1);
    for (p, b) in &files {
        w.add(p, b.clone());
    }
    w.save(dir.join(name)).unwrap();
    Ours {
        name: name.to_string(),
        files,
        loads: key == [0; 32] || !(enc.0 || enc.1),
    }
}

fn the_engine_loads_our_packs<K: Kind>(engine: &Godot<K>, godot4: bool) {
    let dir = std::env::temp_dir().join(format!(
        "godot_bin_engine_packs_{}_{}",
        std::process::id(),
        godot4
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let z = [0u8; 32];
    let mut ours: Vec<Ours> = if godot4 {
        vec![
            ours_for(&dir, "g40.pck", "4.0", 16, (false, false), z),
            ours_for(&dir, "g441.pck", "4.4.1", 0, (false, false), z),
            ours_for(&dir, "g44_a32.pck", "4.4", 32, (false, false), z),
            ours_for(&dir, "files.pck", "4.4.1", 16, (true, false), z),
            ours_for(&dir, "dir.pck", "4.4.1", 16, (false, true), z),
            ours_for(&dir, "both.pck", "4.2", 64, (true, true), z),
            ours_for(&dir, "otherkey.pck", "4.4.1", 16, (true, true), OTHER_KEY),
        ]
    } else {
        vec![
            ours_for(&dir, "g3.pck", "3", 0, (false, false), z),
            ours_for(&dir, "g323.pck", "3.2.3", 16, (false, false), z),
            ours_for(&dir, "g3_a32.pck", "3.2", 32, (false, false), z),
        ]
    };
    // A pack inside an executable.
    let exe = dir.join("engine_stub");
    std::fs::write(
        &exe,
        b"\x7fELF a stand-in for the game's executable, 45 bytes",
    )
    .unwrap();
    let exe_files: Vec<(String, Vec<u8>)> = sources()
        .into_iter()
        .map(|(p, b)| (format!("res://exe/{p}"), b))
        .collect();
    let mut w = PackWriter::for_engine(if godot4 { "4.4.1" } else { "3.2.3" }).unwrap();
    for (p, b) in &exe_files {
        w.add(p, b.clone());
    }
    w.save_embedded(&exe, dir.join("game.x86_64")).unwrap();
    ours.push(Ours {
        name: "game.x86_64".into(),
        files: exe_files,
        loads: true,
    });
    // A pack patched in place: one file replaced, one removed, one added, the directory
    // grown past the first file (which moves).
    let patched = ours_for(
        &dir,
        "patched.pck",
        if godot4 { "4.4.1" } else { "3.2.3" },
        16,
        (godot4, godot4),
        z,
    );
    let mut patch = Patch::open(dir.join("patched.pck"), Some(&Key::bytes(z))).unwrap();
    let mut files = patched.files.clone();
    files[2].1 = b"[gd_scene format=3]\n; patched\n".to_vec();
    patch.set(&files[2].0, files[2].1.clone());
    patch.remove(&files[0].0);
    let removed = files.remove(0);
    for i in 0..12 {
        let p = format!("res://patched/new/a_long_enough_name_{i:02}.txt");
        let b = format!("added {i}").into_bytes();
        patch.set(&p, b.clone());
        files.push((p, b));
    }
    let done = patch.commit().unwrap();
    assert!(!done.relocated.is_empty(), "the directory grew over a file");
    ours.push(Ours {
        name: "patched.pck".into(),
        files,
        loads: true,
    });

    let mut body = String::new();
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for o in &ours {
        inputs.push((
            format!("packs/{}", o.name),
            std::fs::read(dir.join(&o.name)).unwrap(),
        ));
        body += &format!(
            "print(\"LOAD:{0}:\", ProjectSettings.load_resource_pack(\"res://packs/{0}\"))\n",
            o.name
        );
    }
    let mut paths: Vec<&str> = ours
        .iter()
        .flat_map(|o| o.files.iter().map(|(p, _)| p.as_str()))
        .collect();
    paths.push(&removed.0);
    let list = paths
        .iter()
        .map(|p| format!("\"{p}\""))
        .collect::<Vec<_>>()
        .join(", ");
    body += &format!("for p in [{list}]:\n");
    if godot4 {
        body += "\tif FileAccess.file_exists(p):\n\t\tprint(\"MD5:\", p, \":\", FileAccess.get_md5(p))\n";
    } else {
        body += "\tvar f = File.new()\n\tif f.file_exists(p):\n\t\tprint(\"MD5:\", p, \":\", f.get_md5(p))\n";
    }
    body += "\telse:\n\t\tprint(\"MISSING:\", p)\n";
    let input_refs: Vec<(&str, &[u8])> = inputs.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let run = run_script(engine, &body, &input_refs);
    assert!(run.completed(), "{}", run.describe());
    let md5s: BTreeMap<String, String> = run
        .lines_with_prefix("MD5:")
        .into_iter()
        .filter_map(|l| {
            let (p, m) = l.rsplit_once(':')?;
            Some((p.to_string(), m.to_string()))
        })
        .collect();
    let missing = run.lines_with_prefix("MISSING:");
    for o in &ours {
        let loaded = run.line_with_prefix(&format!("LOAD:{}:", o.name));
        assert_eq!(
            loaded.to_lowercase(),
            o.loads.to_string(),
            "{}: {}",
            o.name,
            run.describe()
        );
        for (p, b) in &o.files {
            if o.loads {
                assert_eq!(md5s.get(p), Some(&md5_hex(b)), "{}: {p}", o.name);
            } else {
                assert!(missing.contains(p), "{}: {p} read with another key", o.name);
            }
        }
    }
    assert!(
        missing.contains(&removed.0),
        "the removed file is gone: {}",
        run.describe()
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `project.binary`, what an export puts in a pack in place of `project.godot`: the engine
/// writes one (`save_custom("*.binary")`), the crate reads its values in the engine's
/// dialect and writes it back byte for byte, and a changed value reads back.
fn project_binary<K: Kind>(engine: &Godot<K>, dialect: Dialect) {
    let body = "ProjectSettings.set_setting(\"application/config/name\", \"Packed Game\")\n\
                ProjectSettings.set_setting(\"custom/answer\", 42)\n\
                ProjectSettings.set_setting(\"custom/tint\", Color(0.25, 0.5, 1, 1))\n\
                print(\"SAVE:\", ProjectSettings.save_custom(\"settings.binary\"))\n";
    let run = run_script(engine, body, &[]);
    run.assert_ok();
    assert_eq!(run.line_with_prefix("SAVE:"), "0");
    let bytes = run.read_file("settings.binary");
    let cfg = Config::new(dialect);
    let mut pb = ProjectBinary::from_bytes(&bytes, &cfg).unwrap();
    assert_eq!(
        pb.get("application/config/name"),
        Some(&Variant::from("Packed Game"))
    );
    assert_eq!(pb.get("custom/answer"), Some(&Variant::Int(42)));
    assert_eq!(
        pb.get("custom/tint"),
        Some(&Variant::Color(godot_bin::Color::new(0.25, 0.5, 1.0, 1.0)))
    );
    assert_eq!(pb.to_bytes().unwrap(), bytes, "written back byte for byte");
    let text = pb.to_config().to_string();
    assert!(text.contains("[custom]\n\nanswer=42\n"), "{text}");
    pb.set("custom/answer", 43);
    let again = ProjectBinary::from_bytes(&pb.to_bytes().unwrap(), &cfg).unwrap();
    assert_eq!(again.get("custom/answer"), Some(&Variant::Int(43)));
    assert_eq!(again.settings().count(), pb.settings().count());
}
