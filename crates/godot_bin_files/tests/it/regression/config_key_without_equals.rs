//! Found by the real-project corpus: `.cfg` files that are not ConfigFiles (a JSON
//! runner configuration, YAML-like build settings) were refused with "expected '=' after
//! a key". Both engines load them (Godot 4.4.1 and 3.2.3, `ConfigFile.load` → `OK`) as
//! what the text holds up to where it ends without a `=`: nothing for such files. The
//! engine reads a key as every character above a space up to `=`, a quoted string taking
//! the place of what came before it, and stops at the end of the text with what it has.
//! The crate now reads the same, keeps the unread text so that the file is written back
//! byte for byte, and comments it out when a new section goes after it (else the new
//! header would be read as part of that unfinished key).

use godot_bin::Variant;
use godot_bin_files::ConfigFile;

/// What both engines print for these texts (keys and values), checked by hand with
/// `ConfigFile.load` in 4.4.1 and 3.2.3: `[s] x = 1, ab = 2` and nothing more.
#[test]
fn a_key_the_text_ends_in_is_not_read_and_the_rest_is() {
    let text = "[s]\nx=1\n\"a\" b = 2\n\"q\":3\n";
    let cfg = ConfigFile::parse(text).unwrap();
    assert_eq!(cfg.section_names(), vec!["s"]);
    assert_eq!(cfg.keys("s"), vec!["x", "ab"]);
    assert_eq!(cfg.get("s", "ab"), Some(&Variant::Int(2)));
    assert_eq!(cfg.to_string(), text);
}

#[test]
fn json_and_yaml_named_cfg_read_as_empty_and_write_back_unchanged() {
    for text in [
        "{\"included\":{\"res://test/\":[]},\"server_port\":31002,\"version\":\"1.0\"}",
        "subdir: build\ntarget: Android\nextra_params:",
        "[only]\nnot a key\n",
    ] {
        let cfg = ConfigFile::parse(text).unwrap();
        let keys: usize = cfg.section_names().iter().map(|s| cfg.keys(s).len()).sum();
        assert_eq!(keys, 0, "{text:?}");
        assert_eq!(cfg.to_string(), text);
    }
}

#[test]
fn a_section_added_after_unread_text_is_read() {
    let mut cfg = ConfigFile::parse("[a]\nx=1\nleft over").unwrap();
    cfg.set("b", "y", 2);
    let text = cfg.to_string();
    let back = ConfigFile::parse(&text).unwrap();
    assert_eq!(back.get("b", "y"), Some(&Variant::Int(2)), "{text:?}");
    assert_eq!(back.get("a", "x"), Some(&Variant::Int(1)), "{text:?}");
    assert!(text.contains("; left over\n"), "{text:?}");
}
