//! Issue 41, item 14: `from_slice::<Variant>` of a Godot 3 packet with the default (Godot 4)
//! `Config` said only `24 trailing bytes after the value`, without the dialect hint the
//! save `Reader` and the CLI give. Now `from_slice` names the dialects that read the bytes
//! where its error is about the bytes (issue 49 widened it from bytes left over and
//! unknown type ids to the Rust type's errors); an input that merely ends early keeps its
//! `UnexpectedEof`, which stream readers wait on.

use crate::support::golden;
use godot_bin::{Config, Dialect, ErrorKind, Variant};

#[test]
fn godot3_engine_packets_read_as_godot4_name_godot3() {
    let (mut hinted, mut eof, mut read) = (0, 0, 0);
    for row in golden::rows("godot3.tsv") {
        match godot_bin::from_slice::<Variant>(&row.bytes) {
            Ok(_) => read += 1,
            Err(e) => match e.kind() {
                ErrorKind::WrongDialect {
                    dialect,
                    decodes_as,
                    error,
                } => {
                    assert_eq!(*dialect, Dialect::Godot4, "{}", row.name);
                    assert!(decodes_as.contains(&Dialect::Godot3), "{}: {e}", row.name);
                    // A limit's kind is never wrapped.
                    assert!(
                        !matches!(
                            **error,
                            ErrorKind::UnexpectedEof
                                | ErrorKind::LengthOutOfRange(_)
                                | ErrorKind::ObjectsNotAllowed
                        ),
                        "{}: {e}",
                        row.name
                    );
                    assert!(
                        e.to_string()
                            .contains("decodes cleanly as Godot 3 (Dialect::Godot3)"),
                        "{}: {e}",
                        row.name
                    );
                    hinted += 1;
                }
                // A limit or policy keeps its kind (code matches it).
                ErrorKind::UnexpectedEof
                | ErrorKind::LengthOutOfRange(_)
                | ErrorKind::ObjectsNotAllowed => eof += 1,
                // Every row reads cleanly in Godot 3 (below): nothing else fails unhinted.
                _ => panic!("{}: {e} without the hint", row.name),
            },
        }
    }
    println!("godot3.tsv in Godot 4: {hinted} named Godot 3, {eof} ran out or refused objects, {read} read");
    assert!(hinted > 0, "no row was hinted");
    // The same bytes with the dialect the hint names read cleanly.
    for row in golden::rows("godot3.tsv") {
        Config::new(Dialect::Godot3)
            .allow_objects(true)
            .from_slice::<Variant>(&row.bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", row.name));
    }
}

#[test]
fn a_struct_that_does_not_fit_a_good_packet_keeps_its_own_error() {
    // The packet is a fine Godot 4 Dictionary: the error is the type's, unhinted.
    let bytes = godot_bin::to_vec(&Variant::from(vec![Variant::Int(1)])).unwrap();
    let e = godot_bin::from_slice::<String>(&bytes).unwrap_err();
    assert!(!matches!(e.kind(), ErrorKind::WrongDialect { .. }), "{e}");
}
