//! ConfigFile: the engines' files read to their values and written back byte for byte,
//! values changed in place, serde, the encrypted container, and text the engine would not
//! accept.

use super::fixture;
use godot_bin::{Color, Dialect, NodePath, StringName, Variant, Vector2, Vector3};
use godot_bin_files::resource::{ConfigFile, Reference};
use godot_bin_files::save::{Key, Layout};
use godot_bin_files::{ErrorKind, Position};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[test]
fn godot4_file_reads_to_its_values_and_back_byte_for_byte() {
    let bytes = fixture("godot4", "game.cfg");
    let cfg = ConfigFile::from_bytes(&bytes).unwrap();
    assert_eq!(cfg.to_string().as_bytes(), &bytes[..]);
    assert_eq!(cfg.dialect(), Dialect::Godot4);
    assert_eq!(
        cfg.section_names(),
        ["", "player", "world", "keys", "sec]tion"]
    );
    assert_eq!(cfg.get("", "version"), Some(&Variant::Int(3)));
    assert_eq!(
        cfg.get("player", "name"),
        Some(&Variant::from("Ada \"the\" Great\nof Lovelace"))
    );
    assert_eq!(
        cfg.get("player", "pos"),
        Some(&Variant::from(Vector3::new(1.5, -2.0, 0.1)))
    );
    assert_eq!(
        cfg.get("player", "tag"),
        Some(&Variant::StringName(StringName::from("hero")))
    );
    assert_eq!(
        cfg.get("player", "home"),
        Some(&Variant::NodePath(NodePath::from(
            "/root/World/House:position"
        )))
    );
    assert_eq!(cfg.get("world", "seed"), Some(&Variant::Int(1234567890123)));
    assert_eq!(
        cfg.get("world", "tint"),
        Some(&Variant::from(Color {
            r: 0.1,
            g: 0.2,
            b: 0.3,
            a: 0.5
        }))
    );
    assert_eq!(
        cfg.keys("keys"),
        ["with space", "with=equals", "é", "plain/path.x-y_z"]
    );
    assert_eq!(cfg.get("sec]tion", "k"), Some(&Variant::from("v")));
    let Some(Variant::Object(obj)) = cfg.get("world", "obj") else {
        panic!("an object")
    };
    assert_eq!(obj.class_name, "RefCounted");
    assert_eq!(cfg.get("world", "after_obj"), Some(&Variant::Bool(true)));
}

#[test]
fn godot3_file_reads_to_its_values_and_back_byte_for_byte() {
    let bytes = fixture("godot3", "game.cfg");
    let cfg = ConfigFile::from_bytes(&bytes).unwrap();
    assert_eq!(cfg.to_string().as_bytes(), &bytes[..]);
    assert_eq!(cfg.dialect(), Dialect::Godot3);
    assert_eq!(cfg.section_names(), ["", "player", "world"]);
    assert_eq!(cfg.get("", "version"), Some(&Variant::Int(3)));
    assert_eq!(
        cfg.get("world", "gravity"),
        Some(&Variant::from(Vector2::new(0.0, 9.8)))
    );
    assert_eq!(
        cfg.get("world", "empty")
            .map(|v| v.as_dictionary().map(|d| d.len())),
        Some(Some(0))
    );
}

#[test]
fn project_settings_keep_their_comments() {
    let bytes = fixture("godot4", "override.cfg");
    let mut cfg = ConfigFile::from_bytes(&bytes).unwrap();
    assert_eq!(cfg.to_string().as_bytes(), &bytes[..]);
    assert_eq!(cfg.get("", "config_version"), Some(&Variant::Int(5)));
    cfg.set("display", "window/size/viewport_width", 1280);
    let text = cfg.to_string();
    assert!(text.starts_with("; Engine configuration file.\n"));
    assert_eq!(
        text,
        String::from_utf8(bytes)
            .unwrap()
            .replace("viewport_width=640", "viewport_width=1280")
    );
}

#[test]
fn one_changed_value_is_one_changed_line() {
    let bytes = fixture("godot4", "game.cfg");
    let original = String::from_utf8(bytes).unwrap();
    let mut cfg: ConfigFile = original.parse().unwrap();
    cfg.set("player", "hp", 95);
    cfg.property_mut("player", "speed").unwrap().set_value(3.25);
    // An object's text ends in a newline, which leaves a blank line after it; the value
    // that replaces it takes the blank line away, as the engine's writer would.
    cfg.set("world", "obj", Reference::Path("res://icon.svg".into()));
    let expected = original
        .replace("hp=100", "hp=95")
        .replace("speed=2.5", "speed=3.25")
        .replace(
            "obj=Object(RefCounted,\"script\":null)\n\n",
            "obj=Resource(\"res://icon.svg\")\n",
        );
    assert_eq!(cfg.to_string(), expected);
    let back: ConfigFile = expected.parse().unwrap();
    assert_eq!(
        back.get("world", "obj").and_then(Reference::from_variant),
        Some(Reference::Path("res://icon.svg".into()))
    );
}

#[test]
fn godot3_style_is_kept_for_new_values() {
    let mut cfg = ConfigFile::from_bytes(&fixture("godot3", "game.cfg")).unwrap();
    cfg.set("world", "gravity", Vector2::new(0.0, -1.0));
    cfg.set("new", "v", Vector2::new(1.0, 2.0));
    let text = cfg.to_string();
    assert!(text.contains("gravity=Vector2( 0, -1 )\n"), "{text}");
    assert!(
        text.ends_with("after_obj=true\n\n[new]\n\nv=Vector2( 1, 2 )\n"),
        "{text}"
    );
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    hp: i32,
    speed: f32,
    pos: Vector3,
    inventory: Vec<String>,
    stats: BTreeMap<String, Variant>,
    home: NodePath,
    tag: String,
}

#[test]
fn a_section_is_a_struct() {
    let cfg = ConfigFile::from_bytes(&fixture("godot4", "game.cfg")).unwrap();
    let p: Player = cfg.section_as("player").unwrap();
    assert_eq!(p.hp, 100);
    assert_eq!(p.inventory, ["sword", "shield"]);
    assert_eq!(
        p.stats.get("luck"),
        Some(&Variant::from(vec![
            Variant::Int(1),
            Variant::Int(2),
            Variant::Int(3)
        ]))
    );
    assert_eq!(p.tag, "hero");

    // Written back through serde: every field set in place, text unchanged.
    let mut again = cfg.clone();
    again.set_section("player", &p).unwrap();
    let mut original = cfg.section_dictionary("player");
    let mut written = again.section_dictionary("player");
    // `inventory` was a PackedStringArray and serde makes an Array of Strings; `tag` (and
    // a key of `stats`) a StringName and serde a String: the same values for the game,
    // other types.
    for d in [&mut original, &mut written] {
        d.remove("inventory");
        d.remove("tag");
        d.remove("stats");
    }
    assert_eq!(written, original);
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Settings {
    audio: Audio,
    video: Video,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Audio {
    volume: f64,
    muted: bool,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Video {
    size: godot_bin::Vector2i,
    #[serde(rename = "window/mode")]
    mode: String,
}

#[test]
fn a_whole_file_is_a_struct_of_sections() {
    let s = Settings {
        audio: Audio {
            volume: 0.75,
            muted: false,
        },
        video: Video {
            size: godot_bin::Vector2i::new(1280, 720),
            mode: "full".into(),
        },
    };
    let cfg = ConfigFile::from_struct(&s).unwrap();
    let text = cfg.to_string();
    assert_eq!(
        text,
        "[audio]\n\nvolume=0.75\nmuted=false\n\n[video]\n\nsize=Vector2i(1280, 720)\nwindow/mode=\"full\"\n"
    );
    let back: Settings = text.parse::<ConfigFile>().unwrap().to_struct().unwrap();
    assert_eq!(back, s);
}

#[test]
fn encrypted_files_decrypt_and_encrypt_back_byte_for_byte() {
    let plain = fixture("godot4", "game.cfg");
    for (engine, name, key) in [
        ("godot4", "game_pass.cfg", Key::password("s3cret")),
        (
            "godot4",
            "game_key.cfg",
            Key::bytes(std::array::from_fn(|i| (i * 7 + 1) as u8)),
        ),
        ("godot3", "game_pass.cfg", Key::password("s3cret")),
    ] {
        let enc = fixture(engine, name);
        let (cfg, layout) = ConfigFile::from_encrypted(&enc, &key).unwrap();
        let expected = fixture(engine, "game.cfg");
        assert_eq!(cfg.to_string().as_bytes(), &expected[..], "{engine}/{name}");
        assert_eq!(matches!(layout, Layout::Godot3), engine == "godot3");
        assert_eq!(
            cfg.to_encrypted(&key, layout).unwrap(),
            enc,
            "{engine}/{name}"
        );
    }
    let enc = fixture("godot4", "game_pass.cfg");
    let err = ConfigFile::from_encrypted(&enc, &Key::password("guess")).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::WrongKey));
    assert_eq!(plain.len(), 640);
}

#[test]
fn read_as_the_engine_reads() {
    // Spaces in a bare key are dropped; later values win and keep the first place;
    // a byte order mark at the start of a string is dropped; floats read as the
    // engine's own strtod reads them.
    let cfg: ConfigFile = "[a]\nmy key = 1 ; note\nx=\"\u{feff}t\"\nmy key=2\ntiny=-6.63015e-18\n"
        .parse()
        .unwrap();
    assert_eq!(cfg.keys("a"), ["mykey", "x", "tiny"]);
    assert_eq!(cfg.get("a", "mykey"), Some(&Variant::Int(2)));
    assert_eq!(cfg.get("a", "x"), Some(&Variant::from("t")));
    // Godot's strtod reads this one unit in the last place from the nearest double.
    let tiny = cfg.get("a", "tiny").and_then(Variant::as_float).unwrap();
    assert_eq!(tiny.to_bits(), (-6.63015e-18f64).to_bits() + 1);
    // Written by the crate: the shortest text the engine reads back to that double (the
    // crate's own shortest text, -6.630150000000001e-18, the engine would misread).
    let mut out = ConfigFile::new();
    out.set("a", "tiny", tiny);
    assert_eq!(out.to_string(), "[a]\n\ntiny=-6.63015e-18\n");
    out.set("a", "tiny", -6.63015e-18);
    assert_eq!(out.to_string(), "[a]\n\ntiny=-6.630150000000001e-18\n");
}

#[test]
fn broken_text_is_a_typed_error_with_a_position() {
    let cases = [
        ("[main]\nx=Vector2(1\n", 2, ErrorKind::Syntax(String::new())),
        ("[main\nx=1\n", 1, ErrorKind::Syntax(String::new())),
        ("x=\"open\n", 1, ErrorKind::Syntax(String::new())),
        ("x=1\n\"y\n", 2, ErrorKind::Syntax(String::new())),
        ("x=\ny=2\n", 2, ErrorKind::Value(String::new())),
        ("x=[1, 2}\n", 1, ErrorKind::Value(String::new())),
    ];
    for (text, line, kind) in cases {
        let err = text.parse::<ConfigFile>().unwrap_err();
        assert_eq!(
            std::mem::discriminant(err.kind()),
            std::mem::discriminant(&kind),
            "{text:?}: {err}"
        );
        match err.position() {
            Some(Position::Text { line: l, .. }) => assert_eq!(l, line, "{text:?}: {err}"),
            other => panic!("{text:?}: {other:?}"),
        }
    }
    // A key the text ends in is not an error: the engines read what comes before it.
    let cfg = "x=1\ny\n".parse::<ConfigFile>().unwrap();
    assert_eq!(cfg.keys(""), vec!["x"]);
    // Nesting past the engine's limit is an error, not a stack overflow.
    let deep = format!("x={}{}\n", "[".repeat(5000), "]".repeat(5000));
    assert!(deep.parse::<ConfigFile>().is_err());
}

#[test]
fn index_reads_and_writes_sections_and_keys_in_place() {
    let text = "; settings\n[player]\nname=\"Ada\"\nlevel=3\n";
    let mut cfg: ConfigFile = text.parse().unwrap();
    // By name and by position, the same value.
    assert_eq!(cfg["player"]["level"], Variant::Int(3));
    assert_eq!(cfg["player"][1], Variant::Int(3));
    assert_eq!(cfg["player"].properties().len(), 2);
    // A changed value changes its own line; nothing else moves.
    cfg["player"]["level"] = Variant::Int(4);
    assert_eq!(cfg.to_string(), text.replace("level=3", "level=4"));
    // A new key under an existing section, then a new section, laid out as `set` does.
    cfg["player"]["hp"] = Variant::Int(10);
    cfg["world"]["seed"] = Variant::Int(7);
    let mut by_set: ConfigFile = text.parse().unwrap();
    by_set.set("player", "level", 4);
    by_set.set("player", "hp", 10);
    by_set.set("world", "seed", 7);
    assert_eq!(cfg.to_string(), by_set.to_string());
    // The comment before the first header is no section of its own.
    assert_eq!(cfg.section_names(), ["player", "world"]);
}

#[test]
#[should_panic(expected = "no section `nowhere`")]
fn index_of_a_missing_section_panics_as_a_map_does() {
    let cfg: ConfigFile = "[a]\nx=1\n".parse().unwrap();
    let _ = &cfg["nowhere"];
}
