//! Binary resources and scenes: the engines' `.res` / `.scn` files (plain and compressed)
//! read and written back byte for byte, conversions both ways, and hostile files: every
//! truncation, lying counts, offsets and indices, random damage, deep nesting and rings of
//! sub-resources are typed errors, with memory bounded by the file's size.

use super::fixture;
use crate::support::alloc::peak_of;
use godot_bin::{Dialect, Variant, Vector2};
use godot_bin_files::resource::{BinaryResource, Reference, TextResource};
use godot_bin_files::save::Compression;
use godot_bin_files::ErrorKind;

const FIXTURES: [(&str, &str); 12] = [
    ("godot4", "item.res"),
    ("godot4", "item_c.res"),
    ("godot4", "vec4.res"),
    ("godot4", "vec4_c.res"),
    ("godot4", "level.scn"),
    ("godot4", "level_c.scn"),
    ("godot3", "item.res"),
    ("godot3", "item_c.res"),
    ("godot3", "level.scn"),
    ("godot3", "level_c.scn"),
    ("godot3", "item.res"),
    ("godot4", "item.res"),
];

#[test]
fn every_engine_file_is_written_back_byte_for_byte() {
    for (engine, name) in FIXTURES {
        let bytes = fixture(engine, name);
        let res =
            BinaryResource::from_bytes(&bytes).unwrap_or_else(|e| panic!("{engine}/{name}: {e}"));
        assert_eq!(res.to_bytes().unwrap(), bytes, "{engine}/{name}");
        assert_eq!(
            res.compression().is_some(),
            name.contains("_c."),
            "{engine}/{name}"
        );
        let dialect = if engine == "godot4" {
            Dialect::Godot4
        } else {
            Dialect::Godot3
        };
        assert_eq!(res.dialect(), dialect);
        res.check_references().unwrap();
    }
}

#[test]
fn a_binary_resource_s_tables_and_values() {
    let res = BinaryResource::from_bytes(&fixture("godot4", "item.res")).unwrap();
    let h = res.header();
    assert_eq!(
        (h.version, h.format, h.class.as_str()),
        ((4, 4), 6, "Resource")
    );
    let ext: Vec<(&str, &str)> = res
        .ext_resources()
        .iter()
        .map(|e| (e.type_name.as_str(), e.path.as_str()))
        .collect();
    assert_eq!(
        ext,
        [
            ("Script", "res://item.gd"),
            ("Gradient", "res://godot4/icon.tres")
        ]
    );
    let types: Vec<&str> = res
        .sub_resources()
        .iter()
        .chain([res.resource()])
        .map(|r| r.type_name())
        .collect();
    assert_eq!(types, ["Curve", "Resource", "Resource"]);
    let main = res.resource();
    assert_eq!(main.properties().get("hp"), Some(&Variant::Int(150)));
    assert_eq!(
        main.properties().get("pos"),
        Some(&Variant::from(Vector2::new(1.5, -2.0)))
    );
    assert_eq!(
        main.properties()
            .get("script")
            .and_then(Reference::from_variant),
        Some(Reference::External("1".into()))
    );
    // Full precision in a binary file (the .tres has 6 digits).
    assert_eq!(
        main.properties().get("metadata/third"),
        Some(&Variant::Float(1.0 / 3.0))
    );
    let Some(Variant::Array(parts)) = main.properties().get("parts") else {
        panic!("an Array")
    };
    let gem = res.sub_resources()[1].id().to_string();
    assert_eq!(
        parts.items[..2],
        [
            Reference::Sub(gem.clone()).to_variant(),
            Reference::Sub(gem).to_variant()
        ]
    );
    // The engine's binary files keep a typed Array plain.
    assert!(parts.element_type.is_untyped());
    assert!(parts.items[2].is_nil());

    let g3 = BinaryResource::from_bytes(&fixture("godot3", "item.res")).unwrap();
    assert_eq!((g3.header().version, g3.header().format), ((3, 2), 3));
    let ids: Vec<&str> = g3
        .sub_resources()
        .iter()
        .chain([g3.resource()])
        .map(|r| r.id())
        .collect();
    assert_eq!(ids, ["1", "2", "3"]);
}

/// A node's path, type, groups and property names.
type NodeRow = (String, Option<String>, Vec<String>, Vec<String>);

#[test]
fn binary_scenes_read_as_their_text_twins() {
    for engine in ["godot4", "godot3"] {
        let bin = BinaryResource::from_bytes(&fixture(engine, "level.scn")).unwrap();
        assert!(bin.is_scene());
        let text = bin.to_text().unwrap();
        assert!(text.issues.is_empty(), "{:?}", text.issues);
        let ours = text.file;
        let theirs = TextResource::from_bytes(&fixture(engine, "level.tscn")).unwrap();
        let nodes = |r: &TextResource| -> Vec<NodeRow> {
            r.nodes()
                .map(|n| {
                    (
                        TextResource::node_path(n).unwrap(),
                        n.type_name().map(String::from),
                        n.groups(),
                        n.properties()
                            .iter()
                            .map(|p| p.name().to_string())
                            .collect(),
                    )
                })
                .collect()
        };
        assert_eq!(nodes(&ours), nodes(&theirs), "{engine}");
        let conns = |r: &TextResource| -> Vec<String> {
            r.connections()
                .map(|c| format!("{:?}", c.attrs()))
                .collect()
        };
        let mut a = conns(&ours);
        let mut b = conns(&theirs);
        a.sort();
        b.sort();
        assert_eq!(a, b, "{engine}");
        assert_eq!(ours.editable_paths(), theirs.editable_paths(), "{engine}");
        assert_eq!(
            ours.node("Player").unwrap().properties().get("position"),
            Some(&Variant::from(Vector2::new(-3.0, 4.25)))
        );
    }
}

#[test]
fn text_converts_to_binary_and_back() {
    for engine in ["godot4", "godot3"] {
        for name in ["item.tres", "level.tscn"] {
            let text = TextResource::from_bytes(&fixture(engine, name)).unwrap();
            let bin = text.to_binary().unwrap();
            // Only the typed Arrays are said to be stored untyped, as the engine stores
            // them (`parts`, `metadata/ids`).
            assert!(
                bin.issues
                    .iter()
                    .all(|i| i.to_string().contains("a typed Array is stored untyped")),
                "{engine}/{name}: {:?}",
                bin.issues
            );
            let mut bin = bin.file;
            for compression in [None, Some(Compression::Zstd)] {
                bin.set_compression(compression);
                let bytes = bin.to_bytes().unwrap();
                let back = BinaryResource::from_bytes(&bytes).unwrap();
                assert_eq!(back.to_bytes().unwrap(), bytes);
                let again = back.to_text().unwrap().file;
                // The same sections and values, typed Arrays aside (binary files keep them
                // plain), with external ids numbered in table order.
                assert_eq!(
                    again.sections().len(),
                    text.sections().len(),
                    "{engine}/{name}"
                );
                for (a, b) in again.sections().iter().zip(text.sections()) {
                    assert_eq!(a.tag(), b.tag());
                    let names = |s: &godot_bin_files::resource::Section| {
                        s.properties()
                            .iter()
                            .map(|p| p.name().to_string())
                            .collect::<Vec<_>>()
                    };
                    assert_eq!(names(a), names(b), "{engine}/{name} [{}]", a.tag());
                }
            }
        }
    }
}

#[test]
fn a_changed_value_changes_only_its_bytes_and_compressed_blocks() {
    let bytes = fixture("godot3", "item_c.res");
    let mut res = BinaryResource::from_bytes(&bytes).unwrap();
    res.resource_mut().properties_mut().set("hp", 151);
    let changed = res.to_bytes().unwrap();
    let back = BinaryResource::from_bytes(&changed).unwrap();
    assert_eq!(
        back.resource().properties().get("hp"),
        Some(&Variant::Int(151))
    );
    let plain = BinaryResource::from_bytes(&fixture("godot3", "item.res")).unwrap();
    let mut plain_changed = plain.clone();
    plain_changed.resource_mut().properties_mut().set("hp", 151);
    let a = plain.to_bytes().unwrap();
    let b = plain_changed.to_bytes().unwrap();
    assert_eq!(a.len(), b.len());
    assert_eq!(
        a.iter().zip(&b).filter(|(x, y)| x != y).count(),
        1,
        "one byte of 150 -> 151"
    );
}

#[test]
fn serde_through_a_binary_resource() {
    #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Save {
        level: i32,
        name: String,
        pos: Vector2,
        #[serde(rename = "metadata/flags")]
        flags: Vec<bool>,
    }
    let save = Save {
        level: 3,
        name: "Ada".into(),
        pos: Vector2::new(1.0, 2.5),
        flags: vec![true, false],
    };
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let bytes = BinaryResource::from_struct("Resource", &save, dialect)
            .unwrap()
            .to_bytes()
            .unwrap();
        let back = BinaryResource::from_bytes(&bytes).unwrap();
        assert_eq!(back.resource_as::<Save>().unwrap(), save);
        assert_eq!(back.dialect(), dialect);
    }
}

/// Panics unless reading `bytes` fails with a typed error (with the byte where it was
/// found, or from the container), allocating at most 64 times the file and 64 KiB.
fn refused(bytes: &[u8], what: &str) {
    let peak = peak_of(|| {
        let err = BinaryResource::from_bytes(bytes).map(|_| ()).unwrap_err();
        match err.kind() {
            // A value's own error (serde), with its offset in the value.
            ErrorKind::Variant(_) => {}
            ErrorKind::Corrupt(_)
            | ErrorKind::UnexpectedEof
            | ErrorKind::UnknownReference(_)
            | ErrorKind::DepthExceeded(_)
            | ErrorKind::Unsupported(_) => {
                assert!(err.position().is_some(), "{what}: {err} has no position")
            }
            other => panic!("{what}: {other}"),
        }
    });
    assert!(
        peak <= 64 * bytes.len() + (64 << 10),
        "{what}: {peak} bytes allocated for a {}-byte file",
        bytes.len()
    );
}

#[test]
fn every_truncation_is_a_typed_error() {
    let mut count = 0;
    for (engine, name) in FIXTURES {
        let bytes = fixture(engine, name);
        for n in 0..bytes.len().saturating_sub(4) {
            refused(&bytes[..n], &format!("{engine}/{name} cut at {n}"));
            count += 1;
        }
    }
    println!("binary truncations: {count} refused");
    assert!(count > 10_000, "{count} truncations");
}

fn word_at(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn lying_counts_offsets_and_indices_are_typed_errors() {
    let bytes = fixture("godot4", "item.res");
    let res = BinaryResource::from_bytes(&bytes).unwrap();
    // The string table's count follows the header: magic 4, five words 20, the class
    // string (4 + 9), import offset 8, flags 4, uid 8, reserved 44.
    let table = 4 + 20 + 4 + "Resource".len() + 1 + 8 + 4 + 8 + 44;
    assert_eq!(
        u32::from_le_bytes(bytes[table..table + 4].try_into().unwrap()) as usize,
        res.strings().len()
    );
    for count in [
        res.strings().len() as u32 + 1,
        1 << 20,
        u32::MAX,
        0x7fff_ffff,
    ] {
        let mut b = bytes.clone();
        word_at(&mut b, table, count);
        refused(&b, &format!("string count {count}"));
    }
    // The first string's length.
    for len in [1 << 30, u32::MAX, 0x8000_0000 | 1 << 24] {
        let mut b = bytes.clone();
        word_at(&mut b, table + 4, len);
        refused(&b, &format!("string length {len}"));
    }
    // Every word in the file set to large values: never a panic or an allocation past the
    // bound (most are errors; a few land in values and still read).
    for at in (0..bytes.len() - 4).step_by(4) {
        for v in [u32::MAX, 0x7fff_ffff, 1 << 24] {
            let mut b = bytes.clone();
            word_at(&mut b, at, v);
            let peak = peak_of(|| {
                let _ = BinaryResource::from_bytes(&b);
            });
            assert!(
                peak <= 64 * b.len() + (64 << 10),
                "word {at} = {v}: {peak} bytes"
            );
        }
    }
    // An internal reference past the table.
    let mut bad = res.clone();
    bad.resource_mut()
        .properties_mut()
        .set("curve", Reference::Sub("nope".into()));
    assert!(matches!(
        bad.to_bytes().unwrap_err().kind(),
        ErrorKind::UnknownReference(_)
    ));
}

#[test]
fn random_damage_never_panics_and_stays_bounded() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut read, mut refused_n) = (0, 0);
    for (engine, name) in FIXTURES {
        let bytes = fixture(engine, name);
        for _ in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..1 + next() % 4 {
                let at = (next() % b.len() as u64) as usize;
                b[at] ^= 1 << (next() % 8);
            }
            let peak = peak_of(|| match BinaryResource::from_bytes(&b) {
                Ok(r) => {
                    let _ = r.to_bytes();
                    let _ = r.to_text();
                    read += 1;
                }
                Err(_) => refused_n += 1,
            });
            assert!(
                peak <= 64 * b.len() + (256 << 10),
                "{engine}/{name}: {peak} bytes"
            );
        }
    }
    println!("damaged binary files: {read} read, {refused_n} refused");
    assert!(
        read > 0 && refused_n > 0,
        "{read} read, {refused_n} refused"
    );
}

/// A Godot 4 file whose main resource holds `levels` nested Arrays.
fn nested(levels: usize) -> Vec<u8> {
    let mut res = BinaryResource::new_resource("Resource", Dialect::Godot4);
    res.resource_mut().properties_mut().set("x", 0);
    let mut bytes = res.to_bytes().unwrap();
    // Replace the value (INT 0: type 3, 0) with `levels` Arrays of one element.
    let end = bytes.len() - 4;
    let value = end - 8;
    assert_eq!(&bytes[value..end], &[3, 0, 0, 0, 0, 0, 0, 0]);
    let mut deep = Vec::new();
    for _ in 0..levels {
        deep.extend_from_slice(&30u32.to_le_bytes());
        deep.extend_from_slice(&1u32.to_le_bytes());
    }
    deep.extend_from_slice(&[1, 0, 0, 0]);
    bytes.splice(value..end, deep);
    bytes
}

#[test]
fn deep_nesting_is_refused_without_a_stack_overflow() {
    // The engine's 1024 levels with `stack-growth`, else 128 (`godot_bin::MAX_DEPTH`).
    let limit = godot_bin::MAX_DEPTH;
    assert!(BinaryResource::from_bytes(&nested(limit - 24)).is_ok());
    let err = BinaryResource::from_bytes(&nested(100_000)).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DepthExceeded(d) if *d == limit),
        "{err}"
    );
}

#[test]
fn rings_of_sub_resources_are_reported() {
    let mut res = BinaryResource::new_resource("Resource", Dialect::Godot4);
    let a = res.add_sub_resource("Resource");
    let b = res.add_sub_resource("Resource");
    res.sub_resource_mut(&a)
        .unwrap()
        .properties_mut()
        .set("next", Reference::Sub(b.clone()));
    res.sub_resource_mut(&b)
        .unwrap()
        .properties_mut()
        .set("next", Reference::Sub(a.clone()));
    let bytes = res.to_bytes().unwrap();
    let back = BinaryResource::from_bytes(&bytes).unwrap();
    let err = back.check_references().unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::ReferenceCycle(_)), "{err}");
    assert!(matches!(
        back.to_text().unwrap_err().kind(),
        ErrorKind::ReferenceCycle(_)
    ));
    // A self-reference too.
    let mut one = BinaryResource::new_resource("Resource", Dialect::Godot4);
    let main_id = one.resource().id().to_string();
    one.resource_mut()
        .properties_mut()
        .set("me", Reference::Sub(main_id));
    assert!(matches!(
        one.check_references().unwrap_err().kind(),
        ErrorKind::ReferenceCycle(_)
    ));
}

#[test]
fn other_files_are_refused_by_name() {
    for (bytes, want) in [
        (b"PK\x03\x04".to_vec(), "magic"),
        (b"RSRC".to_vec(), "eof"),
        (
            [
                &b"RSRC"[..],
                &[0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
            ]
            .concat(),
            "version",
        ),
        ([&b"RSRC"[..], &[7, 0, 0, 0]].concat(), "endian"),
        (b"RSCC\x09\x00\x00\x00".to_vec(), "mode"),
    ] {
        let err = BinaryResource::from_bytes(&bytes).unwrap_err();
        let ok = match want {
            // The container's own errors (a cut RSCC header ends early).
            "magic" | "endian" | "mode" => {
                matches!(err.kind(), ErrorKind::Corrupt(_) | ErrorKind::UnexpectedEof)
            }
            "eof" => matches!(err.kind(), ErrorKind::UnexpectedEof),
            _ => matches!(err.kind(), ErrorKind::Unsupported(_)),
        };
        assert!(ok, "{want}: {err}");
    }
}

#[test]
fn uids_read_and_print_as_the_engine_s() {
    use godot_bin_files::resource::{uid_from_text, uid_to_text};
    for uid in [0u64, 1, 33, 34, 1_234_567_890_123_456, i64::MAX as u64] {
        assert_eq!(uid_from_text(&uid_to_text(uid)), Some(uid));
    }
    assert_eq!(uid_to_text(34), "uid://ba");
    assert_eq!(
        uid_from_text("uid://d0163f433p47h")
            .map(uid_to_text)
            .as_deref(),
        Some("uid://d0163f433p47h")
    );
    assert_eq!(uid_from_text("uid://z"), None);
}

#[test]
fn a_given_string_table_is_written_first() {
    // The engine's table names properties no value uses; a table given is kept, and the
    // names values need are added after it.
    let mut res = BinaryResource::new_resource("Resource", Dialect::Godot4);
    res.resource_mut().properties_mut().set("gold", 5);
    *res.strings_mut() = vec!["resource_local_to_scene".into(), "resource_name".into()];
    let back = BinaryResource::from_bytes(&res.to_bytes().unwrap()).unwrap();
    assert_eq!(
        back.strings(),
        ["resource_local_to_scene", "resource_name", "gold"]
    );
    assert_eq!(
        back.resource().properties().get("gold"),
        Some(&Variant::Int(5))
    );
}

/// An error inside a compressed file's content is placed in that content
/// (`Position::Uncompressed`), not at a byte of the compressed file, which holds no value.
#[test]
fn an_error_inside_compressed_content_says_where_in_the_content() {
    use godot_bin_files::Position;
    let mut plain = fixture("godot4", "item.res");
    // The string table's count (after the header; see the test above), made absurd.
    let table = 4 + 20 + 4 + "Resource".len() + 1 + 8 + 4 + 8 + 44;
    word_at(&mut plain, table, u32::MAX);
    let err = BinaryResource::from_bytes(&plain).unwrap_err();
    let Some(Position::Byte(at)) = err.position() else {
        panic!("{err}: {:?}", err.position());
    };
    assert!(at >= table, "{err}");
    // The same content in an `RSCC` container (the `GCPF` layout under another magic).
    let mut packed = godot_bin_files::save::compress(&plain[4..], Compression::Zstd).unwrap();
    packed[..4].copy_from_slice(b"RSCC");
    let err = BinaryResource::from_bytes(&packed).unwrap_err();
    assert_eq!(
        err.position(),
        Some(Position::Uncompressed(at - 4)),
        "{err}"
    );
    assert!(err.to_string().contains("decompressed content"), "{err}");
}

/// Godot 3.0's binary files (format 2) store a NodePath's property name after its
/// subnames, outside their count; the engine reads it as one more subname. The crate read
/// the count alone and lost its place in the file ("unknown value type 90" in 3 of the
/// 16 Godot 3.0 scenes of the real-project corpus). Godot 3.2.3's `item.res` (format 3),
/// written as format 2, reads back to the same NodePath, and its bytes hold the property
/// outside the count.
#[test]
fn godot3_0_node_paths_carry_their_property() {
    let mut res = BinaryResource::from_bytes(&fixture("godot3", "item.res")).unwrap();
    assert_eq!(res.header().format, 3);
    let where_ = |r: &BinaryResource| {
        r.sub_resources()
            .iter()
            .chain([r.resource()])
            .flat_map(|i| i.properties().iter())
            .find_map(|p| match p.value() {
                Variant::Dictionary(d) => d.get("where").cloned(),
                _ => None,
            })
    };
    let before = where_(&res).expect("the fixture's NodePath");
    res.header_mut().format = 2;
    let bytes = res.to_bytes().unwrap();
    let again = BinaryResource::from_bytes(&bytes).unwrap();
    assert_eq!(where_(&again), Some(before.clone()));
    assert_eq!(again.to_bytes().unwrap(), bytes);
    // In the bytes: names 2, subnames counted 0 (the one subname is the property).
    let Variant::NodePath(np) = &before else {
        panic!("{before:?}")
    };
    assert_eq!((np.names.len(), np.subnames.len()), (2, 1));
    let needle = [22u8, 0, 0, 0, 2, 0, 0, 0];
    assert!(
        bytes.windows(8).any(|w| w == needle),
        "a NodePath with 2 names and 0 counted subnames"
    );
}
