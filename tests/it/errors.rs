//! What decoding errors say: the end of input for every cut packet (so a stream reader can
//! wait for more bytes), `LengthOutOfRange` only for lengths no input could satisfy, and
//! the path to the field that failed as well as its byte offset.

use godot_bin::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Item {
    name: String,
    count: u16,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector3,
    path: NodePath,
    items: Vec<Item>,
    tags: HashMap<String, i64>,
    ids: PackedInt32Array,
    note: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Game {
    players: Vec<Player>,
}

fn game() -> Game {
    let player = |i: i32| Player {
        name: format!("player {i}"),
        hp: 100 - i,
        pos: Vector3::new(i as f32, 0.5, -1.0),
        path: NodePath::from("../Spawn:position"),
        items: vec![Item {
            name: "sword".into(),
            count: 1,
        }],
        tags: HashMap::from([("team".to_owned(), i as i64 % 2)]),
        ids: PackedInt32Array(vec![i, i + 1]),
        note: (i % 2 == 0).then(|| "even".to_owned()),
    };
    Game {
        players: (0..4).map(player).collect(),
    }
}

#[test]
fn every_cut_of_a_struct_packet_is_the_end_of_input_in_every_dialect() {
    for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
        let cfg = Config::new(dialect);
        let bytes = cfg.to_vec(&game()).unwrap();
        assert_eq!(cfg.from_slice::<Game>(&bytes).unwrap(), game());
        for k in 0..bytes.len() {
            for err in [
                cfg.from_slice::<Game>(&bytes[..k]).unwrap_err(),
                cfg.from_slice::<Variant>(&bytes[..k]).unwrap_err(),
                cfg.from_slice::<serde::de::IgnoredAny>(&bytes[..k])
                    .unwrap_err(),
            ] {
                assert!(
                    matches!(err.kind(), ErrorKind::UnexpectedEof),
                    "{dialect} cut at {k}: {err}"
                );
                assert!(err.offset().unwrap() <= k, "{dialect} cut at {k}: {err}");
            }
        }
    }
}

#[test]
fn a_length_no_input_could_satisfy_is_out_of_range() {
    let bytes = to_vec(&"a string of some length").unwrap();
    // Cut short: more input could complete it.
    let err = from_slice::<String>(&bytes[..12]).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnexpectedEof), "{err}");
    // Past max_size, no input could.
    let cfg = Config::default().max_size(16);
    let err = cfg.from_slice::<String>(&bytes[..12]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(23)),
        "{err}"
    );
    // Negative.
    let mut neg = to_vec(&PackedByteArray(vec![1])).unwrap();
    neg[4..8].copy_from_slice(&(-1i32).to_le_bytes());
    let err = from_slice::<PackedByteArray>(&neg).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LengthOutOfRange(-1)),
        "{err}"
    );
}

#[test]
fn errors_name_the_field_path_and_the_offset() {
    let mut v = to_variant(&game()).unwrap();
    // players[3].hp becomes a String.
    let Variant::Dictionary(d) = &mut v else {
        unreachable!()
    };
    let Some(Variant::Array(players)) = d.get_mut("players") else {
        unreachable!()
    };
    let Variant::Dictionary(p3) = &mut players[3] else {
        unreachable!()
    };
    p3.insert("hp", "lots");
    let bytes = to_vec(&v).unwrap();
    let err = from_slice::<Game>(&bytes).unwrap_err();
    assert_eq!(err.path(), "players[3].hp");
    let at = err.offset().unwrap();
    assert_eq!(
        err.to_string(),
        format!("invalid type: string \"lots\", expected i32 at players[3].hp at byte offset {at}")
    );
    assert_eq!(
        err.path_segments().cloned().collect::<Vec<_>>(),
        [
            PathSegment::Key("players".into()),
            PathSegment::Index(3),
            PathSegment::Key("hp".into())
        ]
    );
    // The offset is that of the String packet where the i32 should be.
    assert_eq!(&bytes[at..at + 4], &to_vec("lots").unwrap()[..4]);

    // Deeper: a number out of range inside a nested Vec, and a packed array's element.
    let mut v = to_variant(&game()).unwrap();
    let Variant::Dictionary(d) = &mut v else {
        unreachable!()
    };
    let Some(Variant::Array(players)) = d.get_mut("players") else {
        unreachable!()
    };
    let Variant::Dictionary(p1) = &mut players[1] else {
        unreachable!()
    };
    let Some(Variant::Array(items)) = p1.get_mut("items") else {
        unreachable!()
    };
    let Variant::Dictionary(item) = &mut items[0] else {
        unreachable!()
    };
    item.insert("count", 70_000);
    let err = from_slice::<Game>(&to_vec(&v).unwrap()).unwrap_err();
    assert_eq!(err.path(), "players[1].items[0].count");
    assert!(
        matches!(err.kind(), ErrorKind::NumberOutOfRange { .. }),
        "{err}"
    );

    // A map key that is not text is named by its text form.
    let mut m = Dictionary::new();
    m.insert(Vector2::new(1.0, 2.0), "not a number");
    let err = from_slice::<HashMap<String, i32>>(&to_vec(&m).unwrap()).unwrap_err();
    assert_eq!(err.path(), "", "the key itself failed: {err}");
    let mut m = Dictionary::new();
    m.insert(7, "seven");
    let err = from_slice::<HashMap<i32, i32>>(&to_vec(&m).unwrap()).unwrap_err();
    assert_eq!(err.path(), "[7]", "{err}");

    // A value at the top level has no path.
    let err = from_slice::<i32>(&to_vec("x").unwrap()).unwrap_err();
    assert_eq!(err.path(), "");
    assert!(err.to_string().ends_with("at byte offset 0"), "{err}");
}
