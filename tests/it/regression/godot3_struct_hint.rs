//! Issue 49, item 5: a Godot 3 packet decoded into a derived struct with the default
//! (Godot 4) `Config` said only ``missing field `pos` at byte offset 0``, while the same
//! bytes into a `Variant` named Godot 3. Every decode that fails where the bytes do not
//! read cleanly in the configured dialect and do in another now names it, whatever the
//! Rust type (the input running out and the limits keep their kinds). Fixtures: Godot
//! 3.2.3's own packets (`godot3.tsv`).

use crate::support::golden;
use godot_bin::{Config, Dialect, ErrorKind, Variant, Vector2};
use serde::Deserialize;
use std::collections::BTreeMap;

#[allow(dead_code)]
#[derive(Deserialize, Debug)]
struct Player {
    pos: Vector2,
}

/// Decodes `bytes` as `T` with the default Config; `Some(error)` when it fails.
fn fails<T: for<'de> Deserialize<'de>>(bytes: &[u8]) -> Option<godot_bin::Error> {
    godot_bin::from_slice::<T>(bytes).err()
}

#[test]
fn a_godot3_packet_into_any_type_names_godot3() {
    let godot3 = Config::new(Dialect::Godot3).allow_objects(true);
    let (mut hinted, mut kept, mut kinds) = (0, 0, BTreeMap::new());
    for row in golden::rows("godot3.tsv") {
        let bytes = &row.bytes;
        let is_godot4 = Config::default()
            .allow_objects(true)
            .from_slice::<Variant>(bytes)
            .is_ok();
        assert!(godot3.from_slice::<Variant>(bytes).is_ok(), "{}", row.name);
        for e in [
            fails::<Player>(bytes),
            fails::<String>(bytes),
            fails::<Vec<i32>>(bytes),
            fails::<BTreeMap<String, i64>>(bytes),
        ]
        .into_iter()
        .flatten()
        {
            match e.kind() {
                ErrorKind::WrongDialect {
                    dialect,
                    decodes_as,
                    error,
                } => {
                    assert_eq!(*dialect, Dialect::Godot4);
                    assert!(decodes_as.contains(&Dialect::Godot3), "{}: {e}", row.name);
                    assert!(!is_godot4, "{}: a Godot 4 packet was hinted: {e}", row.name);
                    let name = format!("{error:?}");
                    let name = name.split(['(', ' ', '{']).next().unwrap_or("").to_string();
                    *kinds.entry(name).or_insert(0) += 1;
                    hinted += 1;
                }
                // The limits and policies keep their kind (code matches it).
                ErrorKind::UnexpectedEof
                | ErrorKind::LengthOutOfRange(_)
                | ErrorKind::ObjectsNotAllowed => kept += 1,
                // Bytes that read cleanly in Godot 4 too: the type's own error stands.
                _ => assert!(is_godot4, "{}: {e} without the hint", row.name),
            }
        }
    }
    println!(
        "godot3.tsv into four Rust types in Godot 4: {hinted} errors named Godot 3 {kinds:?}, \
         {kept} ran out or refused objects"
    );
    // 54 rows x 4 types = 216 decodes: 96 fail on bytes that are no Godot 4 packet, 83 of
    // them named, 13 keeping a limit's kind; the rest decode, or fail on a packet Godot 4
    // reads too (the type's own error).
    assert_eq!((hinted, kept), (83, 13));
}

#[test]
fn the_issues_struct_names_godot3() {
    // {1: "one", "two": 2.5, Vector2(...): ...}, Godot 3's id 18: Godot 4's Transform3D,
    // whose twelve floats the struct finds no `pos` in.
    let row = golden::rows("godot3.tsv")
        .into_iter()
        .find(|r| r.name == "dict_mixed_keys")
        .unwrap();
    let e = godot_bin::from_slice::<Player>(&row.bytes).unwrap_err();
    let ErrorKind::WrongDialect {
        error, decodes_as, ..
    } = e.kind()
    else {
        panic!("{e}")
    };
    assert!(matches!(**error, ErrorKind::MissingField("pos")), "{e}");
    assert!(decodes_as.contains(&Dialect::Godot3));
    assert!(e.to_string().contains("decodes cleanly as Godot 3"), "{e}");
}
