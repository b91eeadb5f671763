//! ConfigFile against both engines: each engine saves ConfigFiles of random values
//! (`ConfigFile.save` and `save_encrypted_pass`); the crate reads each to the values the
//! engine's `ConfigFile.load` gives, writes it back byte for byte (plain, and encrypted
//! with the file's own initial vector), and writes three files of its own per input (one
//! value changed, every value printed anew, and encrypted with a new initial vector),
//! which the engine loads to the crate's values.

use super::{seed, Engine, Records};
use crate::support::engine::{godot3_trial, godot4_trial};
use godot_bin::{Config, Dialect};
use godot_bin_files::resource::ConfigFile;
use godot_bin_files::save::{Key, Layout};
use libtest_mimic::Trial;

const CONFIG4: &str = include_str!("config4.gd");
const CONFIG3: &str = include_str!("config3.gd");

/// ConfigFiles per engine.
const FILES: usize = 60;

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("resources::config::godot4", |e| {
            round_trip(&Engine::Godot4(e));
        }),
        godot3_trial("resources::config::godot3", |e| {
            round_trip(&Engine::Godot3(e));
        }),
    ]
}

/// What the engine loaded from one file: the load's error code and each section's keys
/// and values (as `var_to_bytes_with_objects`).
#[derive(Debug, PartialEq)]
struct Loaded {
    err: u32,
    sections: Vec<(String, Keys)>,
}

/// A section's keys and their values' bytes.
type Keys = Vec<(String, Vec<u8>)>;

fn read_dump(bytes: &[u8], dialect: Dialect) -> Vec<Loaded> {
    let mut r = Records::new(bytes);
    let n = r.u32();
    let mut out = Vec::new();
    for _ in 0..n {
        let err = r.u32();
        let mut sections = Vec::new();
        for _ in 0..r.u32() {
            let name = r.text();
            let mut keys = Vec::new();
            for _ in 0..r.u32() {
                let key = r.text();
                keys.push((key, super::mask_padding(r.bytes().to_vec(), dialect)));
            }
            sections.push((name, keys));
        }
        out.push(Loaded { err, sections });
    }
    assert!(r.done(), "trailing bytes in the dump");
    out
}

/// The crate's reading of `cfg` in the dump's shape.
fn as_loaded(cfg: &ConfigFile, dialect: Dialect) -> Loaded {
    let config = Config::new(dialect).allow_objects(true);
    let sections = cfg
        .section_names()
        .into_iter()
        .map(|s| {
            let keys = cfg
                .keys(s)
                .into_iter()
                .map(|k| {
                    let v = cfg.get(s, k).unwrap();
                    let bytes = config
                        .to_vec(v)
                        .unwrap_or_else(|e| panic!("[{s}] {k}: cannot encode {v:?}: {e}"));
                    (k.to_string(), super::mask_padding(bytes, dialect))
                })
                .collect();
            (s.to_string(), keys)
        })
        .collect();
    Loaded { err: 0, sections }
}

fn dump_call(helper_paths: &[String], passwords: &[String]) -> String {
    let quote = |v: &[String]| {
        v.iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "load(\"res://helper.gd\").new().dump([{}], [{}], \"dump.bin\")",
        quote(helper_paths),
        quote(passwords)
    )
}

fn round_trip(engine: &Engine) {
    let dialect = engine.dialect();
    let helper = match engine {
        Engine::Godot4(_) => CONFIG4,
        Engine::Godot3(_) => CONFIG3,
    };
    let seed = seed();
    // Run 1: the engine makes the files and loads each.
    let mut paths = Vec::new();
    let mut passwords = Vec::new();
    for i in 0..FILES {
        paths.push(format!("res://cfg_{i}.cfg"));
        passwords.push(String::new());
        paths.push(format!("res://cfg_{i}.enc"));
        passwords.push(format!("pw{i}"));
    }
    let call = format!(
        "var h = load(\"res://helper.gd\").new()\nh.make({seed}, {FILES})\n{}",
        dump_call(&paths, &passwords)
    );
    let res = engine.run(helper, &call, &[]);
    let engine_loaded = read_dump(&res.read_file("dump.bin"), dialect);

    let mut ours: Vec<(String, Vec<u8>)> = Vec::new();
    let mut expected = Vec::new();
    let (mut identical, mut encrypted_identical, mut values, mut undecided) = (0, 0, 0, 0);
    for i in 0..FILES {
        let plain = res.read_file(&format!("cfg_{i}.cfg"));
        let enc = res.read_file(&format!("cfg_{i}.enc"));
        let mut cfg = ConfigFile::from_bytes(&plain)
            .unwrap_or_else(|e| panic!("cfg_{i}.cfg: {e}\n{}", String::from_utf8_lossy(&plain)));
        // The engine is found from the values' text, when one differs between engines.
        if cfg.dialect() != dialect {
            undecided += 1;
            cfg.set_dialect(dialect);
        }
        let loaded = as_loaded(&cfg, dialect);
        same_values(
            &loaded,
            &engine_loaded[2 * i],
            &format!("cfg_{i}.cfg"),
            &plain,
        );
        values += loaded.sections.iter().map(|s| s.1.len()).sum::<usize>();
        assert_eq!(
            cfg.to_string().as_bytes(),
            &plain[..],
            "cfg_{i}.cfg rewritten"
        );
        identical += 1;

        let key = Key::password(&format!("pw{i}"));
        let (from_enc, layout) = ConfigFile::from_encrypted(&enc, &key).unwrap();
        assert!(
            from_enc.to_string().as_bytes() == &plain[..],
            "cfg_{i}.enc holds the plain file's text"
        );
        assert_eq!(
            engine_loaded[2 * i + 1],
            loaded,
            "the engine read cfg_{i}.enc"
        );
        assert_eq!(
            from_enc.to_encrypted(&key, layout).unwrap(),
            enc,
            "cfg_{i}.enc rewritten"
        );
        encrypted_identical += 1;

        // One value changed: only its text changes.
        let section = cfg.section_names()[0].to_string();
        let first = cfg.keys(&section)[0].to_string();
        let mut changed = cfg.clone();
        changed.set(&section, &first, 424242);
        let old_text = cfg
            .property(&section, &first)
            .unwrap()
            .source_text()
            .unwrap();
        let text = changed.to_string();
        let (was, now) = super::changed_lines(&String::from_utf8_lossy(&plain), &text);
        assert!(
            now.ends_with("=424242") && !now.contains('\n') && was.contains(old_text),
            "cfg_{i}.cfg with one value changed: {was:?} became {now:?}"
        );
        let mut changed_values = loaded_clone(&loaded);
        changed_values.sections[0].1[0].1 = Config::new(dialect).to_vec(&424242).unwrap();
        ours.push((format!("ours_changed_{i}.cfg"), text.into_bytes()));
        expected.push(changed_values);

        // Every value printed anew, in a new file.
        let mut fresh = ConfigFile::with_dialect(dialect);
        for s in cfg.section_names() {
            for k in cfg.keys(s) {
                fresh.set(s, k, cfg.get(s, k).unwrap().clone());
            }
        }
        ours.push((
            format!("ours_fresh_{i}.cfg"),
            fresh.to_string().into_bytes(),
        ));
        expected.push(loaded_clone(&loaded));

        // Encrypted by the crate, a new initial vector for Godot 4.
        let layout = match dialect {
            Dialect::Godot4 => Layout::Godot4 { iv: [i as u8; 16] },
            _ => Layout::Godot3,
        };
        ours.push((
            format!("ours_{i}.enc"),
            fresh.to_encrypted(&key, layout).unwrap(),
        ));
        expected.push(loaded);
    }

    // Run 2: the engine loads what the crate wrote.
    let names: Vec<String> = ours.iter().map(|(n, _)| format!("res://{n}")).collect();
    let pw: Vec<String> = ours
        .iter()
        .map(|(n, _)| {
            n.strip_suffix(".enc")
                .and_then(|s| s.strip_prefix("ours_"))
                .map_or(String::new(), |i| format!("pw{i}"))
        })
        .collect();
    let inputs: Vec<(&str, &[u8])> = ours.iter().map(|(n, b)| (n.as_str(), &b[..])).collect();
    let res = engine.run(helper, &dump_call(&names, &pw), &inputs);
    let engine_loaded = read_dump(&res.read_file("dump.bin"), dialect);
    for (n, (name, _)) in ours.iter().enumerate() {
        // A value printed anew lists Dictionary keys in the engine's sorted order, which,
        // for keys the engine's comparison cannot order, may differ from the file's.
        let expected = &canonical(&expected[n], dialect);
        let engine_loaded = &canonical(&engine_loaded[n], dialect);
        same_values(
            expected,
            engine_loaded,
            &format!("{}: {name}", engine.name()),
            &ours[n].1,
        );
    }
    eprintln!(
        "{} ConfigFile, seed {seed}: {FILES} files ({values} values) read to the engine's values and \
         rewritten byte for byte, {encrypted_identical} encrypted files re-encrypted byte for byte; \
         {} files written by the crate ({} with one value changed, {} printed anew, {} encrypted) \
         loaded by the engine to the crate's values; {undecided} files whose text does not tell \
         the engine",
        engine.name(),
        ours.len(),
        FILES,
        FILES,
        FILES
    );
    assert_eq!(identical, FILES);
}

fn loaded_clone(l: &Loaded) -> Loaded {
    Loaded {
        err: l.err,
        sections: l.sections.clone(),
    }
}

/// Panics, naming the first value that differs, unless the crate's and the engine's
/// readings of a file agree.
fn same_values(ours: &Loaded, engine: &Loaded, what: &str, file: &[u8]) {
    if ours == engine {
        return;
    }
    let text = String::from_utf8_lossy(file);
    assert_eq!(
        engine.err, 0,
        "{what}: the engine could not load it\n{text}"
    );
    let names = |l: &Loaded| l.sections.iter().map(|s| s.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(ours), names(engine), "{what}: sections\n{text}");
    for ((s, a), (_, b)) in ours.sections.iter().zip(&engine.sections) {
        let keys = |v: &Keys| v.iter().map(|k| k.0.clone()).collect::<Vec<_>>();
        assert_eq!(keys(a), keys(b), "{what}: keys of [{s}]\n{text}");
        for ((k, x), (_, y)) in a.iter().zip(b) {
            if x != y {
                let at = x.iter().zip(y).take_while(|(p, q)| p == q).count();
                let show = |b: &[u8]| {
                    let cfg = Config::new(Dialect::Godot4).allow_objects(true);
                    cfg.from_slice::<godot_bin::Variant>(b)
                        .or_else(|_| {
                            Config::new(Dialect::Godot3)
                                .allow_objects(true)
                                .from_slice(b)
                        })
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                };
                panic!(
                    "{what}: [{s}] {k} differs at byte {at} of {}/{}:\ncrate:  {:?}\nengine: {:?}\ncrate:  {}\nengine: {}",
                    x.len(),
                    y.len(),
                    &x[at.saturating_sub(8)..(at + 16).min(x.len())],
                    &y[at.saturating_sub(8)..(at + 16).min(y.len())],
                    show(x),
                    show(y)
                );
            }
        }
    }
}

/// `l` with every Dictionary's entries in the order of their keys' bytes.
fn canonical(l: &Loaded, dialect: Dialect) -> Loaded {
    let cfg = Config::new(dialect).allow_objects(true);
    let sections = l
        .sections
        .iter()
        .map(|(s, keys)| {
            let keys = keys
                .iter()
                .map(|(k, b)| {
                    let mut v: godot_bin::Variant =
                        cfg.from_slice(b).expect("the engine's bytes decode");
                    sort_keys(&mut v, &cfg);
                    (
                        k.clone(),
                        super::mask_padding(cfg.to_vec(&v).unwrap(), dialect),
                    )
                })
                .collect();
            (s.clone(), keys)
        })
        .collect();
    Loaded {
        err: l.err,
        sections,
    }
}

fn sort_keys(v: &mut godot_bin::Variant, cfg: &Config) {
    use godot_bin::Variant;
    match v {
        Variant::Array(a) => a.iter_mut().for_each(|x| sort_keys(x, cfg)),
        Variant::Object(o) => o.properties.iter_mut().for_each(|(_, x)| sort_keys(x, cfg)),
        Variant::Dictionary(d) => {
            let mut entries: Vec<(Vec<u8>, Variant, Variant)> = d
                .iter()
                .map(|(k, x)| {
                    let (mut k, mut x) = (k.clone(), x.clone());
                    sort_keys(&mut k, cfg);
                    sort_keys(&mut x, cfg);
                    (cfg.to_vec(&k).unwrap(), k, x)
                })
                .collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            d.clear();
            for (_, k, x) in entries {
                d.insert(k, x);
            }
        }
        _ => {}
    }
}
