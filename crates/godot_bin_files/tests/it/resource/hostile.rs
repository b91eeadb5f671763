//! Hostile text resources, scenes and ConfigFiles (the binary form's are in `binary.rs`):
//! every cut of every engine-made text file, random damage, absurd nesting and huge
//! strings are typed errors or read, never a panic, with memory bounded by the text's size;
//! what reads is written back and converted without a panic either.

use super::fixture;
use crate::support::alloc::peak_of;
use godot_bin_files::resource::{ConfigFile, TextResource};
use godot_bin_files::save::{Key, Layout};
use godot_bin_files::ErrorKind;

const TEXT: [(&str, &str); 9] = [
    ("godot4", "item.tres"),
    ("godot4/issue41", "index.tscn"),
    ("godot4", "icon.tres"),
    ("godot4", "level.tscn"),
    ("godot4", "enemy.tscn"),
    ("godot3", "item.tres"),
    ("godot3", "icon.tres"),
    ("godot3", "level.tscn"),
    ("godot3", "enemy.tscn"),
];

const CONFIG: [(&str, &str); 2] = [("godot4", "game.cfg"), ("godot3", "game.cfg")];

/// The memory a text may cost: 64 bytes a byte of text, and 64 KiB.
fn bound(len: usize) -> usize {
    64 * len + (64 << 10)
}

/// Panics unless `err` is a text error (syntax, value, depth) that says where; false.
fn refused_as_text(err: &godot_bin_files::Error, what: &str) -> bool {
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Syntax(_) | ErrorKind::Value(_) | ErrorKind::DepthExceeded(_)
        ),
        "{what}: {err}"
    );
    assert!(err.position().is_some(), "{what}: {err} has no position");
    false
}

/// Reads `text` as a resource: `Ok(true)` when it read (and was then written back and
/// converted, each of which may refuse it but must not panic), `Ok(false)` when it was
/// refused with a syntax or value error that says where.
fn read_text(text: &str, what: &str) -> bool {
    match text.parse::<TextResource>() {
        Ok(res) => {
            let _ = res.to_string();
            let _ = res.check_references();
            if let Ok(bin) = res.to_binary() {
                let _ = bin.file.to_bytes();
            }
            let _ = res.to_godot4();
            true
        }
        Err(err) => refused_as_text(&err, what),
    }
}

/// Reads `text` as a ConfigFile, as [`read_text`] does a resource.
fn read_config(text: &str, what: &str) -> bool {
    match ConfigFile::parse(text) {
        Ok(cfg) => {
            let _ = cfg.to_string();
            true
        }
        Err(err) => refused_as_text(&err, what),
    }
}

/// Reads each `(what, text)` with `read` under the memory bound; (read, refused).
fn tally<'a>(
    inputs: impl IntoIterator<Item = (String, &'a str)>,
    read: fn(&str, &str) -> bool,
    counts: &mut (usize, usize),
) {
    for (what, text) in inputs {
        let peak = peak_of(|| {
            if read(text, &what) {
                counts.0 += 1;
            } else {
                counts.1 += 1;
            }
        });
        assert!(peak <= bound(text.len()), "{what}: {peak} bytes");
    }
}

/// Every prefix of a text that ends on a character boundary.
fn cuts(text: &str) -> impl Iterator<Item = &str> {
    (0..text.len())
        .filter(|&n| text.is_char_boundary(n))
        .map(move |n| &text[..n])
}

/// Every cut of every file in `files`, read with `read`: (read, refused).
fn every_cut(files: &[(&str, &str)], read: fn(&str, &str) -> bool) -> (usize, usize) {
    let mut counts = (0, 0);
    for (engine, name) in files {
        let text = String::from_utf8(fixture(engine, name)).unwrap();
        let cuts = cuts(&text).map(|c| (format!("{engine}/{name} cut at {}", c.len()), c));
        tally(cuts, read, &mut counts);
    }
    counts
}

#[test]
fn every_cut_of_a_text_resource_reads_or_is_a_typed_error() {
    let (read, refused) = every_cut(&TEXT, read_text);
    println!("text cuts: {read} read, {refused} refused");
    // A cut between sections or lines reads (the engine loads it too, as a shorter file);
    // a cut inside a tag or a value is refused.
    assert!(
        read > 100 && refused > 1_000,
        "{read} read, {refused} refused"
    );
}

#[test]
fn every_cut_of_a_config_file_reads_or_is_a_typed_error() {
    let (read, refused) = every_cut(&CONFIG, read_config);
    println!("config cuts: {read} read, {refused} refused");
    assert!(read > 50 && refused > 500, "{read} read, {refused} refused");
}

/// Xorshift: the same damage on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `text` with 1 to 4 bytes replaced by characters that matter to the grammar.
fn damage(text: &str, rng: &mut Rng) -> String {
    const PIECES: [&str; 16] = [
        "[", "]", "(", ")", "{", "}", "\"", "\\", "=", "\n", ",", ":", "-", "9e999", "&", "\u{7f}",
    ];
    let mut out = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let mut at = rng.below(out.len());
        while !out.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = at + 1;
        while end < out.len() && !out.is_char_boundary(end) {
            end += 1;
        }
        let piece = PIECES[rng.below(PIECES.len())];
        out.replace_range(at..end.min(out.len()), piece);
    }
    out
}

#[test]
fn random_damage_to_text_never_panics_and_stays_bounded() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut counts = (0, 0);
    let files = TEXT
        .iter()
        .map(|f| (f, read_text as fn(&str, &str) -> bool));
    for ((engine, name), read) in files.chain(CONFIG.iter().map(|f| (f, read_config as _))) {
        let text = String::from_utf8(fixture(engine, name)).unwrap();
        let bad: Vec<String> = (0..400).map(|_| damage(&text, &mut rng)).collect();
        let inputs = bad
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("{engine}/{name} damage {i}: {b:?}"), b.as_str()));
        tally(inputs, read, &mut counts);
    }
    let (read, refused) = counts;
    println!("damaged text: {read} read, {refused} refused");
    assert!(
        read > 100 && refused > 100,
        "{read} read, {refused} refused"
    );
}

const HEAD: &str = "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n";

/// A resource whose one property is `levels` nested Arrays or Dictionaries.
fn nested(levels: usize, open: &str, close: &str) -> String {
    format!(
        "{HEAD}x = {}1{}\n",
        open.repeat(levels),
        close.repeat(levels)
    )
}

#[test]
fn absurd_nesting_is_refused_without_a_stack_overflow() {
    // The limit of this build: the engine's 1024 levels with `stack-growth`, else
    // 128 (`godot_bin::MAX_DEPTH`); `deep` a little under it (1000 for the engine's).
    let limit = godot_bin::MAX_DEPTH;
    let deep = limit - 24;
    for (open, close) in [("[", "]"), ("{1: ", "}"), ("Array[Array]([", "])")] {
        // As deep as this build reads: read, written back and converted.
        let text = nested(deep, open, close);
        let res: TextResource = text.parse().unwrap_or_else(|e| panic!("{open}: {e}"));
        assert_eq!(res.to_string(), text);
        let converted = res.to_binary().unwrap();
        let bin = converted.file;
        let back = godot_bin_files::resource::BinaryResource::from_bytes(&bin.to_bytes().unwrap())
            .unwrap();
        let (got, want) = (
            back.resource().properties().get("x"),
            res.resource().unwrap().properties().get("x"),
        );
        if open.starts_with("Array[") {
            // Godot 4.4's binary files keep no Array element type (the engine retypes an
            // Array when it assigns it to a typed property; the module docs say so): the
            // value comes back as the same Arrays untyped.
            let untyped: TextResource = nested(deep, "[", "]").parse().unwrap();
            let want = untyped.resource().unwrap().properties().get("x");
            assert!(
                got == want,
                "{open}: the binary round trip changed the value"
            );
        } else {
            // Compared without Debug on failure: a deep value's Debug is megabytes.
            assert!(
                got == want,
                "{open}: the binary round trip changed the value"
            );
        }
        // The typed Arrays are said to be stored untyped (one issue: the same place).
        if open.starts_with("Array[") {
            assert_eq!(converted.issues.len(), 1);
        } else {
            assert!(converted.issues.is_empty());
        }
        // Far deeper: refused where the limit ends.
        for levels in [limit + 1, 100_000] {
            let err = nested(levels, open, close)
                .parse::<TextResource>()
                .unwrap_err();
            assert!(
                matches!(
                    err.kind(),
                    ErrorKind::Value(_) | ErrorKind::DepthExceeded(_)
                ),
                "{open} x{levels}: {err}"
            );
            assert!(err.position().is_some());
        }
        // Left open: refused too.
        let open_only = format!("{HEAD}x = {}\n", open.repeat(100_000));
        assert!(open_only.parse::<TextResource>().is_err());
        let cfg = format!(
            "[s]\nx = {}1{}\n",
            open.repeat(100_000),
            close.repeat(100_000)
        );
        assert!(ConfigFile::parse(&cfg).is_err());
    }
}

#[test]
fn huge_strings_and_many_sections_cost_memory_in_proportion() {
    // One 8 MiB string, with escapes.
    let big = "ab\\\"c".repeat(8 << 18);
    let text = format!("{HEAD}s = \"{big}\"\n");
    let peak = peak_of(|| {
        let res: TextResource = text.parse().unwrap();
        assert_eq!(res.to_string(), text);
    });
    assert!(peak <= 8 * text.len(), "{peak} bytes for {}", text.len());
    // 50,000 sub-resources and as many properties.
    let mut many = String::from("[gd_resource type=\"Resource\" format=3]\n\n");
    for i in 0..50_000 {
        many.push_str(&format!(
            "[sub_resource type=\"Resource\" id=\"r{i}\"]\nv = {i}\n\n"
        ));
    }
    many.push_str("[resource]\nlast = SubResource(\"r49999\")\n");
    let peak = peak_of(|| {
        let res: TextResource = many.parse().unwrap();
        assert_eq!(res.sub_resources().count(), 50_000);
        res.check_references().unwrap();
        assert_eq!(res.to_string(), many);
    });
    assert!(peak <= bound(many.len()), "{peak} bytes for {}", many.len());
    // An unterminated string runs to the end and is refused where it began.
    let err = format!("{HEAD}s = \"{}", "x".repeat(1 << 20))
        .parse::<TextResource>()
        .unwrap_err();
    assert!(err.position().is_some(), "{err}");
}

#[test]
fn damaged_encrypted_config_files_are_typed_errors() {
    let bytes = fixture("godot4", "game_pass.cfg");
    let key = Key::password("s3cret");
    let (plain, layout) = ConfigFile::from_encrypted(&bytes, &key).unwrap();
    assert!(matches!(layout, Layout::Godot4 { .. }));
    assert!(!plain.section_names().is_empty());
    let mut refused = 0;
    for n in 0..bytes.len() {
        let err = ConfigFile::from_encrypted(&bytes[..n], &key).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                ErrorKind::Corrupt(_) | ErrorKind::UnexpectedEof | ErrorKind::LengthOutOfRange(_)
            ),
            "cut at {n}: {err}"
        );
        refused += 1;
    }
    let mut rng = Rng(7);
    for _ in 0..500 {
        let mut b = bytes.clone();
        let at = rng.below(b.len());
        b[at] ^= 1 << rng.below(8);
        // The MD5 check refuses every change of the content; a change in the header is
        // refused by the container.
        assert!(ConfigFile::from_encrypted(&b, &key).is_err(), "byte {at}");
        refused += 1;
    }
    assert!(
        ConfigFile::from_encrypted(&bytes, &Key::password("wrong")).is_err(),
        "a wrong password"
    );
    println!("damaged encrypted ConfigFiles: {refused} refused");
    assert!(refused > 500);
}

/// Found by `fuzz/resource_text`: a string with a NUL in it (text may hold one) was
/// written to a binary file, whose strings end at their first NUL, and read back shorter.
#[test]
fn a_string_with_a_nul_is_not_written_to_a_binary_file() {
    let text = format!("{HEAD}s = \"a\u{0}b\"\n");
    let res: TextResource = text.parse().unwrap();
    assert_eq!(res.to_string(), text);
    let bin = res.to_binary().unwrap().file;
    let err = bin.to_bytes().unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Unwritable(m) if m.contains("NUL")),
        "{err}"
    );
    let scene = "[gd_scene format=3]\n\n[node name=\"a\u{0}\" type=\"Node2D\"]\n";
    let res: TextResource = scene.parse().unwrap();
    let err = res.to_binary().unwrap().file.to_bytes().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unwritable(_)), "{err}");
}

/// Found by `fuzz/resource_text`: a ConfigFile section name holding `]`, read from a file
/// in Godot 3's spacing, was reprinted unescaped and then read back cut at that `]`; and
/// `\\]` ended a header where the engine's reader (a `\` escapes the next `]`, even after
/// another `\`) reads on.
#[test]
fn config_section_names_with_brackets_read_back_after_a_reprint() {
    // Godot 3 spacing (`[ 1 ]`), a name with `\]` in it.
    let text = "[a\\]b]\n\nx=[ 1 ]\n";
    let mut cfg = ConfigFile::parse(text).unwrap();
    assert_eq!(cfg.section_names(), ["a]b"]);
    assert_eq!(cfg.to_string(), text);
    cfg.reprint();
    let again = ConfigFile::parse(&cfg.to_string()).unwrap();
    assert_eq!(again.section_names(), ["a]b"]);
    // `\\]` does not end the header: the engine reads the name `a\]c` (kept `\`, then
    // `\]` read as `]`).
    let cfg = ConfigFile::parse("[a\\\\]c]\nk=1\n").unwrap();
    assert_eq!(cfg.section_names(), ["a\\]c"]);
    // A name ending in `\` (a later `\0` stripped) is written with a space that ends
    // the escape.
    let mut cfg = ConfigFile::parse("[s\\\u{0}]\nk=1\n").unwrap();
    assert_eq!(cfg.section_names(), ["s\\"]);
    cfg.reprint();
    assert_eq!(cfg.to_string(), "[s\\ ]\nk=1\n");
    assert_eq!(
        ConfigFile::parse(&cfg.to_string()).unwrap().section_names(),
        ["s\\"]
    );
    // Characters at or below a space are stripped from both ends, as `strip_edges` does.
    let cfg = ConfigFile::parse("[\u{1}s \t]\nk=1\n").unwrap();
    assert_eq!(cfg.section_names(), ["s"]);
}

/// Found by `fuzz/resource_text`: the blank line after an object's text was written back
/// with the object line's end (`\n`) when it ended otherwise (`\r\n`).
#[test]
fn the_blank_line_after_an_object_keeps_its_own_line_end() {
    for text in [
        "[s]\nobj=Object(RefCounted,\"script\":null)\n\r\n\nx=1\n",
        "[s]\r\nobj=Object(RefCounted,\"script\":null)\r\n\n\r\nx=1\r\n",
        "[s]\nobj=Object(RefCounted,\"script\":null)\n\nx=1\n",
    ] {
        assert_eq!(ConfigFile::parse(text).unwrap().to_string(), text);
    }
}

/// A Godot 4.6 scene with one node's attributes replaced by `attrs`.
fn scene46(attrs: &str) -> String {
    format!(
        "[gd_scene format=3 uid=\"uid://mhfp37lr7q4f\"]\n\n\
         [ext_resource type=\"PackedScene\" uid=\"uid://byriqsdywhr1k\" path=\"res://body.tscn\" id=\"1\"]\n\n\
         [node name=\"World\" type=\"Node2D\" unique_id=1200118420]\n\n\
         [node name=\"Body\" parent=\".\" unique_id=1591333926 instance=ExtResource(\"1\")]\n\n\
         [node name=\"Hat\" type=\"Node2D\" parent=\"Body/Head\" {attrs}]\n\n\
         [editable path=\"Body\"]\n"
    )
}

/// The Hat node's attributes after text -> binary -> text, or the error of a step.
fn through_binary(text: &str) -> Result<Vec<(String, String)>, String> {
    let t = TextResource::parse(text).map_err(|e| e.to_string())?;
    let bin = t.to_binary().map_err(|e| e.to_string())?.file;
    let bytes = bin.to_bytes().map_err(|e| e.to_string())?;
    let back = godot_bin_files::BinaryResource::from_bytes(&bytes)
        .and_then(|b| b.to_text())
        .map_err(|e| e.to_string())?
        .file;
    let hat = back.node("Body/Head/Hat").ok_or("no Hat")?;
    Ok(hat
        .attrs()
        .iter()
        .map(|(k, v)| (k.clone(), v.to_text(godot_bin::Dialect::Godot4)))
        .collect())
}

#[test]
fn hostile_node_id_attributes_convert_or_are_typed_errors() {
    let attr = |attrs: &[(String, String)], k: &str| {
        attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    };
    // An index the engine would not pack (2^14 - 1 and up, negative, not a number: the
    // engine's String to int reads "abc" as 0) is dropped or read as the engine reads it.
    for (index, want) in [
        ("\"2147483647\"", None),
        ("\"16383\"", None),
        ("\"16382\"", Some("\"16382\"")),
        ("\"-5\"", None),
        ("\"abc\"", Some("\"0\"")),
        ("7", Some("\"7\"")),
    ] {
        let got = through_binary(&scene46(&format!("index={index}"))).unwrap();
        assert_eq!(attr(&got, "index").as_deref(), want, "index={index}");
    }
    // Ids of the wrong type or size: never a panic; an id that is not an int is none.
    for attrs in [
        "unique_id=\"x\"",
        "unique_id=99999999999",
        "unique_id=-1",
        "parent_id_path=\"text\"",
        "parent_id_path=[1, \"a\", null]",
        "parent_id_path=PackedInt32Array()",
        "owner=\".\" owner_uid_path=PackedInt32Array(1, 2)",
        "owner=\"Body\" owner_uid_path=[[1]]",
    ] {
        let got = through_binary(&scene46(attrs));
        assert!(got.is_ok(), "{attrs}: {got:?}");
    }
    let got = through_binary(&scene46("unique_id=\"x\"")).unwrap();
    assert_eq!(attr(&got, "unique_id"), None);
}

#[test]
fn hostile_bundle_ids_read_or_are_typed_errors() {
    use godot_bin::{Array, PackedInt32Array, Variant};
    let t = TextResource::parse(&scene46(
        "parent_id_path=PackedInt32Array(1591333926, 7) unique_id=5",
    ))
    .unwrap();
    let good = t.to_binary().unwrap().file;
    let damage: [(&str, Variant); 6] = [
        (
            "node_ids",
            Variant::PackedInt32Array(PackedInt32Array(vec![])),
        ),
        (
            "node_ids",
            Variant::PackedInt32Array(PackedInt32Array(vec![1; 50])),
        ),
        ("node_ids", Variant::from("not ids")),
        (
            "id_paths",
            Variant::Array(Array::from(vec![Variant::Nil; 9])),
        ),
        ("id_paths", Variant::from(3)),
        ("id_paths", Variant::Array(Array::from(vec![]))),
    ];
    for (key, value) in damage {
        let mut bin = good.clone();
        let main = bin.resource_mut();
        let Some(Variant::Dictionary(mut d)) = main.properties().get("_bundled").cloned() else {
            panic!("no bundle")
        };
        d.insert(key, value.clone());
        main.properties_mut()
            .set("_bundled", Variant::Dictionary(d));
        let bytes = bin.to_bytes().unwrap();
        let read = godot_bin_files::BinaryResource::from_bytes(&bytes).unwrap();
        match read.to_text() {
            Ok(c) => {
                let _ = c.file.to_string();
            }
            Err(e) => assert!(
                matches!(e.kind(), ErrorKind::Corrupt(_)),
                "{key} = {value:?}: {e}"
            ),
        }
    }
}
