//! What the random-value differential (`tests/engine/random_values.rs`) found, checked
//! without the engine on packets the engines made (`tests/data/random_values/`, made by
//! Godot 4.4.1 and Godot 3.2.3 with the scripts beside them): the absolute empty NodePath
//! (`NodePath("/")`) as each engine decodes it, Dictionary keys printed in each engine's
//! order (pool-array keys in Godot 3 too), a Godot 3 FLOAT beyond the `f32` range, and
//! text past depth 100.

use crate::support::{golden, hex};
use godot_bin::{Config, Dialect, NodePath, PackedVector3Array, Variant, Vector3};

struct Row {
    name: String,
    packet: Vec<u8>,
    again: Vec<u8>,
    text: String,
}

/// The rows of `tests/data/random_values/FILE`: name, packet, the engine's re-encoding of
/// its own decode of it, its text of the decoded value (escaped as in the golden files).
fn rows(file: &str) -> Vec<Row> {
    let path = golden::data_dir().join("random_values").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.splitn(4, '\t').collect();
            assert_eq!(cols.len(), 4, "{file}: {l}");
            Row {
                name: cols[0].to_owned(),
                packet: hex::bytes(cols[1]),
                again: hex::bytes(cols[2]),
                text: golden::unescape(cols[3]),
            }
        })
        .collect()
}

fn row(file: &str, name: &str) -> Row {
    rows(file)
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{file}: no row {name}"))
}

/// The crate's re-encoding of its decode of each row is the engine's own re-encoding
/// (NodePath padding aside, which the engine leaves unwritten), and its text is the
/// engine's (these rows hold only floats the engines print exactly).
fn check_file(file: &str, dialect: Dialect) {
    let cfg = Config::new(dialect);
    for r in rows(file) {
        let v: Variant = cfg.from_slice(&r.packet).unwrap();
        let ours = cfg.to_vec(&v).unwrap();
        if let Err(e) = golden::compare(&ours, &r.again, &cfg) {
            panic!(
                "{file} {}: the re-encoding differs from the engine's: {e}",
                r.name
            );
        }
        if r.name != "depth_103" {
            assert_eq!(v.to_text(dialect), r.text, "{file} {}", r.name);
        }
    }
}

#[test]
fn godot4_rows_decode_reencode_and_print_as_the_engine() {
    check_file("godot4.tsv", Dialect::Godot4);
}

#[test]
fn godot3_rows_decode_reencode_and_print_as_the_engine() {
    check_file("godot3.tsv", Dialect::Godot3);
}

#[test]
fn root_nodepath_follows_each_engine() {
    // Godot 4 writes NodePath("/") as no names, no subnames, flags 1, and keeps it.
    let r = row("godot4.tsv", "nodepath_root");
    assert_eq!(r.packet, r.again);
    let cfg = Config::new(Dialect::Godot4);
    let p: NodePath = cfg.from_slice(&r.packet).unwrap();
    assert_eq!(p, NodePath::from("/"));
    assert!(p.absolute && p.names.is_empty() && !p.is_empty());
    assert_eq!(cfg.to_vec(&p).unwrap(), r.packet);
    assert_eq!(r.text, "NodePath(\"/\")");
    // Godot 3 writes the same flags, but its decoder makes the path relative.
    let r = row("godot3.tsv", "nodepath_root");
    assert_ne!(r.packet, r.again);
    let cfg = Config::new(Dialect::Godot3);
    let p: NodePath = cfg.from_slice(&r.packet).unwrap();
    assert_eq!(p, NodePath::default());
    assert_eq!(cfg.to_vec(&p).unwrap(), r.again);
    assert_eq!(cfg.to_vec(&NodePath::from("/")).unwrap(), r.packet);
    assert_eq!(r.text, "NodePath(\"\")");
}

#[test]
fn text_past_depth_100_is_printed_whole() {
    let r = row("godot4.tsv", "depth_103");
    let v: Variant = godot_bin::from_slice(&r.packet).unwrap();
    let ours = v.to_string();
    // The engine's writer gave up past depth 100; the crate prints all 103 levels, and
    // its text reads back to the same value.
    assert!(r.text.contains("[]") || r.text.contains("{}"), "{}", r.text);
    assert!(ours.len() > r.text.len());
    assert_eq!(ours.matches('[').count(), 52);
    assert_eq!(Variant::from_text(&ours).unwrap(), v);
}

#[test]
fn a_float_beyond_f32_prints_as_godot3_prints_it() {
    // Godot 3.2.3 prints a FLOAT through its 32-bit real_t: a double beyond the f32 range
    // prints as the f32 infinity (`-inf.0`, `inf`), as for an f32 infinity.
    let cfg = Config::new(Dialect::Godot3);
    let r = row("godot3.tsv", "float_beyond_f32");
    assert_eq!(hex::encode(&r.packet), "030001009c7500883ce437fe");
    let v: Variant = cfg.from_slice(&r.packet).unwrap();
    assert_eq!(v, Variant::Float(-1e300));
    assert_eq!(r.text, "-inf.0");
    assert_eq!(v.to_text(Dialect::Godot3), r.text);
    // The value itself is kept: the packet and Godot 4 text still say the double.
    assert_eq!(cfg.to_vec(&v).unwrap(), r.packet);
    assert_eq!(v.to_text(Dialect::Godot4), "-1e+300");

    let r = row("godot3.tsv", "floats_beyond_f32_in_array");
    let v: Variant = cfg.from_slice(&r.packet).unwrap();
    assert_eq!(r.text, "[ inf, -inf.0, inf, -inf.0, 2.5 ]");
    assert_eq!(v.to_text(Dialect::Godot3), r.text);
}

#[test]
fn pool_array_keys_print_in_godot3_order() {
    // Godot 3's `<` for two pool arrays of one type: the shorter first, else "less" when
    // any element differs; a PoolVector2Array is compared as if its floats were Vector3s.
    // Each row's keys are in another order in the packet than in the engine's text.
    let cfg = Config::new(Dialect::Godot3);
    for name in [
        "keys_pool_vector3_arrays",
        "keys_pool_vector2_arrays",
        "keys_twenty_vector3_arrays",
    ] {
        let r = row("godot3.tsv", name);
        let v: Variant = cfg.from_slice(&r.packet).unwrap();
        assert_eq!(v.to_text(Dialect::Godot3), r.text, "{name}");
        let Variant::Dictionary(d) = &v else {
            panic!("{name}: {v:?}")
        };
        let first_key = d.iter().next().unwrap().0.to_text(Dialect::Godot3);
        assert!(!r.text.starts_with(&format!("{{\n{first_key}:")), "{name}");
    }
    let r = row("godot3.tsv", "keys_pool_vector3_arrays");
    let v: Variant = cfg.from_slice(&r.packet).unwrap();
    let first = |x: f32| Variant::from(PackedVector3Array::from(vec![Vector3::new(x, 0.0, 0.0)]));
    let Variant::Dictionary(d) = &v else {
        panic!("{v:?}")
    };
    assert_eq!(d.get(first(-1.0)), Some(&Variant::from(5)));
    assert_eq!(
        r.text,
        "{\nPoolVector3Array( -1, 0, 0 ): 5,\n\
         PoolVector3Array( 2, 2, 2, 3, 3, 3, 4, 4, 4 ): 4,\n\
         PoolVector3Array( 5, 5, 5 ): 3,\n\
         PoolVector3Array( 0, 0, 0, 1, 1, 1 ): 2,\n\
         PoolVector3Array( 1, 2, 3 ): 1\n}"
    );
    // Two single Vector2s are no Vector3 at all to Godot 3's `<`: neither is less, and
    // they keep their packet order (5, 5 before 0, 0), last, after the arrays that are.
    let r = row("godot3.tsv", "keys_pool_vector2_arrays");
    assert!(
        r.text
            .ends_with("PoolVector2Array( 5, 5 ): 1,\nPoolVector2Array( 0, 0 ): 2\n}"),
        "{}",
        r.text
    );
}
