//! Every engine-made packet in `tests/data/golden/*.tsv` decodes, and re-encodes to the
//! engine's bytes (NodePath padding aside).

use crate::support::golden;

use godot_bin::{Dialect, Variant};

fn check_file(file: &'static str, dialect: Dialect) {
    let cfg = golden::config(dialect);
    let rows = golden::rows(file);
    assert!(rows.len() > 20, "{file}: only {} rows", rows.len());
    let mut failures = Vec::new();
    for row in &rows {
        let result = cfg
            .from_slice::<Variant>(&row.bytes)
            .map_err(|e| format!("decode: {e}"))
            .and_then(|v| {
                // Through serde (to_vec) and back: the same bytes.
                let ours = cfg.to_vec(&v).map_err(|e| format!("encode: {e}"))?;
                golden::compare(&ours, &row.bytes, &cfg)?;
                // And the value survives a second trip.
                let again: Variant = cfg
                    .from_slice(&ours)
                    .map_err(|e| format!("re-decode: {e}"))?;
                if !again.eq_ordered(&v) && !matches!(v, Variant::Float(f) if f.is_nan()) {
                    return Err(format!("re-decoded {again:?} != {v:?}"));
                }
                Ok(())
            });
        if let Err(e) = result {
            failures.push(format!("{file} {}: {e}", row.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
    eprintln!("{file}: {} rows byte-exact", rows.len());
}

#[test]
fn godot4_rows_round_trip_byte_exact() {
    check_file("godot4.tsv", Dialect::Godot4);
}

#[test]
fn godot3_rows_round_trip_byte_exact() {
    check_file("godot3.tsv", Dialect::Godot3);
}

#[test]
fn pandemonium_rows_round_trip_byte_exact() {
    check_file("pandemonium.tsv", Dialect::Pandemonium);
}

#[test]
fn nodepath_padding_is_dont_care_and_nothing_else() {
    // nodepath_rel holds leftovers (00 f0 3f) in a pad: it still compares equal...
    let cfg = golden::config(Dialect::Godot4);
    let row = golden::row("godot4.tsv", "nodepath_rel");
    let v: Variant = cfg.from_slice(&row.bytes).unwrap();
    let ours = cfg.to_vec(&v).unwrap();
    assert_ne!(
        ours, row.bytes,
        "the engine row has garbage padding; we write zeros"
    );
    golden::compare(&ours, &row.bytes, &cfg).unwrap();
    // ...but a changed byte outside the padding does not.
    let mut wrong = ours.clone();
    wrong[17] ^= 1; // inside the first name's length word
    assert!(golden::compare(&wrong, &row.bytes, &cfg).is_err());
}

#[test]
fn every_type_id_occurs_and_decodes_to_its_own_type() {
    // VARIANT_MAX of each engine (`src/packet/header.rs`, the tables in `src/dialect.rs`): every id below it has a row.
    for (file, dialect, variant_max) in [
        ("godot4.tsv", Dialect::Godot4, 39),
        ("godot3.tsv", Dialect::Godot3, 27),
    ] {
        let cfg = golden::config(dialect);
        let mut seen = std::collections::BTreeSet::new();
        for row in golden::rows(file) {
            let v: Variant = cfg.from_slice(&row.bytes).unwrap();
            assert_eq!(
                dialect.type_id(v.get_type()),
                Some(row.bytes[0] as u32),
                "{file} {}",
                row.name
            );
            seen.insert(row.bytes[0] as u32);
        }
        assert_eq!(seen, (0..variant_max).collect(), "{file}");
    }
}
