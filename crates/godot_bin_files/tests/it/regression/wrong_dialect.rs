//! What a new user trips on (issue 24): a save or a packet read in the wrong dialect.
//!
//! A Godot 3 save read with the default `Config` (Godot 4) failed with only "192 trailing
//! bytes after the value", though its Godot 3 encrypted layout said which engine wrote it,
//! and `godot-bin dump` printed a garbage `Transform3D(8e-45, ...)` and exited 0. Now the
//! reader reads that layout as Godot 3; where the container cannot tell (compressed and
//! plain saves), the error names the dialect that decodes the value; and the CLI fails and
//! names it, never printing a value that did not decode cleanly. `convert` says when a save
//! is already Godot 4's, and takes no `--dialect`.

use godot_bin::framing::{Framing, ENGINE_MAX_FRAME_LEN};
use godot_bin::{Config, Dialect, ErrorKind, Variant};
use godot_bin_files::ErrorKind as FilesKind;

/// The value's own error inside a save's: a packet that did not decode.
fn in_value(e: &godot_bin_files::Error) -> &godot_bin::Error {
    match e.kind() {
        FilesKind::Variant(inner) => inner,
        other => panic!("not a value's error: {other}"),
    }
}
use godot_bin_files::save::{self as file, convert_godot3_to_godot4, ConvertOptions, Key, Reader};
use std::path::PathBuf;

const KEY_HEX: &str = "062b50759abfe4092e53789dc2e70c31567ba0c5ea0f34597ea3c8ed12375c81";

fn path(engine: &str, name: &str) -> PathBuf {
    crate::support::golden::files_dir().join(engine).join(name)
}

fn read(engine: &str, name: &str) -> Vec<u8> {
    std::fs::read(path(engine, name)).unwrap()
}

/// The values the engine stored, from the plain file of the same `store_var` calls.
fn stored(engine: &str, name: &str, dialect: Dialect) -> Vec<Variant> {
    let plain = read(engine, &format!("{name}.plain"));
    Framing::new(Config::new(dialect))
        .max_frame_len(ENGINE_MAX_FRAME_LEN)
        .frames(&plain[..])
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn a_godot3_encrypted_save_reads_with_the_default_config() {
    // The user's form: Godot 3.2's open_encrypted_with_pass + store_var({...}), read with
    // the default Config.
    let bytes = read("godot3", "g3_save_pass.bin");
    let mut reader =
        Reader::with_key(&bytes[..], &Key::password("s3cret"), &Config::default()).expect("opens");
    let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().expect("reads");
    assert_eq!(values, stored("godot3", "g3_save_pass", Dialect::Godot3));
    assert_eq!(values.len(), 1);
    assert_eq!(values[0].get("level"), Some(&Variant::Int(3)));
    assert_eq!(reader.config().dialect(), Dialect::Godot3);

    // open_encrypted with a key: the same layout, the same rule.
    let bytes = read("godot3", "g3_multi_key.bin");
    let key = Key::from_hex(KEY_HEX).unwrap();
    let mut reader = Reader::with_key(&bytes[..], &key, &Config::default()).unwrap();
    let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
    assert_eq!(values, stored("godot3", "g3_multi_key", Dialect::Godot3));
}

#[test]
fn a_dialect_that_shares_the_godot3_layout_is_kept_as_given() {
    // Godot 2.1 and Pandemonium write the same layout: a Config naming one is kept.
    let bytes = read("godot3", "g3_multi_pass.bin");
    for d in [
        Dialect::Godot2,
        Dialect::Pandemonium,
        Dialect::Pandemonium37,
    ] {
        let reader =
            Reader::with_key(&bytes[..], &Key::password("s3cret"), &Config::new(d)).unwrap();
        assert_eq!(reader.config().dialect(), d);
    }
    // A Godot 4 save's layout leaves a Godot 4 Config as it is.
    let bytes = read("godot4", "g4_multi_pass.bin");
    let mut reader =
        Reader::with_key(&bytes[..], &Key::password("s3cret"), &Config::default()).unwrap();
    assert_eq!(reader.config().dialect(), Dialect::Godot4);
    let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
    assert_eq!(values, stored("godot4", "g4_multi_pass", Dialect::Godot4));
}

#[test]
fn framing_overrides_the_layout_and_the_error_names_godot3() {
    let bytes = read("godot3", "g3_save_pass.bin");
    let mut reader = Reader::with_key(&bytes[..], &Key::password("s3cret"), &Config::default())
        .unwrap()
        .framing(Framing::new(Config::default()).max_frame_len(ENGINE_MAX_FRAME_LEN));
    assert_eq!(reader.config().dialect(), Dialect::Godot4);
    let err = reader.read_value::<Variant>().unwrap_err();
    let err = in_value(&err);
    assert!(
        matches!(
            err.kind(),
            ErrorKind::WrongDialect { dialect: Dialect::Godot4, error, decodes_as }
                if matches!(**error, ErrorKind::TrailingBytes(192))
                    && decodes_as == &[Dialect::Godot3]
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the value does not decode as Godot 4 (192 trailing bytes after the value) but \
         decodes cleanly as Godot 3 (Dialect::Godot3): read the file with that dialect's \
         Config at byte offset 52"
    );
}

#[test]
fn a_compressed_godot3_save_read_as_godot4_names_godot3() {
    // Compressed files are the same in both engines: nothing tells the dialect but the
    // values, and the error names the one that decodes them.
    for name in [
        "g3_save_fastlz.bin",
        "g3_save_deflate.bin",
        "g3_save_zstd.bin",
    ] {
        let bytes = read("godot3", name);
        let mut reader = Reader::new(&bytes[..], &Config::default()).unwrap();
        let err = reader
            .values::<Variant>()
            .collect::<Result<Vec<_>, _>>()
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("does not decode as Godot 4 (192 trailing bytes after the value)"),
            "{name}: {text}"
        );
        assert!(
            text.contains("decodes cleanly as Godot 3 (Dialect::Godot3)"),
            "{name}: {text}"
        );
        assert_eq!(in_value(&err).offset(), Some(52), "{name}");
        // Read as the error says, it is the engine's save.
        let mut reader = Reader::new(&bytes[..], &Config::new(Dialect::Godot3)).unwrap();
        let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
        assert_eq!(
            values,
            stored("godot3", name.trim_end_matches(".bin"), Dialect::Godot3)
        );
    }
}

#[test]
fn a_value_that_decodes_but_does_not_fit_keeps_its_own_error() {
    // The dialect is right; the Rust type is not: no hint, the error's own kind.
    let bytes = read("godot3", "g3_save_pass.bin");
    let mut reader =
        Reader::with_key(&bytes[..], &Key::password("s3cret"), &Config::default()).unwrap();
    let err = reader.read_value::<i32>().unwrap_err();
    assert_eq!(
        in_value(&err).kind().to_string(),
        "invalid type: map, expected i32"
    );
    // A wrong password is still a wrong password.
    let err = Reader::with_key(&bytes[..], &Key::password("guess"), &Config::default())
        .unwrap()
        .read_value::<Variant>()
        .unwrap_err();
    assert!(matches!(err.kind(), FilesKind::WrongKey), "{err:?}");
}

#[test]
fn convert_says_a_godot4_save_is_already_godot4() {
    // Its encrypted layout shows it: refused before anything is written.
    let bytes = read("godot4", "g4_save_pass.bin");
    let mut out = Vec::new();
    let options = ConvertOptions::new().key(Key::password("s3cret"));
    let err = convert_godot3_to_godot4(&bytes[..], &mut out, &options).unwrap_err();
    assert!(matches!(err.kind(), FilesKind::AlreadyGodot4(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "already a Godot 4 save: its encrypted layout is Godot 4's (AES-256-CFB with an IV); \
         there is nothing to convert"
    );
    assert!(out.is_empty());

    // A compressed one: at the first value that decodes as Godot 4 and not as Godot 3
    // (g4_multi's 1 and "two" read the same in both; its Array is id 28, unknown to
    // Godot 3).
    for (name, index) in [("g4_save_fastlz.bin", 0), ("g4_multi_gzip.bin", 2)] {
        let bytes = read("godot4", name);
        let err =
            convert_godot3_to_godot4(&bytes[..], Vec::new(), &ConvertOptions::new()).unwrap_err();
        assert!(matches!(err.kind(), FilesKind::AlreadyGodot4(_)), "{err:?}");
        assert_eq!(
            err.kind().to_string(),
            format!(
                "already a Godot 4 save: value {index} decodes cleanly as Godot 4, not as \
                 Godot 3; there is nothing to convert"
            ),
            "{name}"
        );
    }

    // A Godot 3 save still converts.
    let bytes = read("godot3", "g3_save_fastlz.bin");
    let done = convert_godot3_to_godot4(&bytes[..], Vec::new(), &ConvertOptions::new()).unwrap();
    assert_eq!(done.values, 1);
    assert!(file::decompress(&bytes).is_ok());
}
