//! Issue 41 #5, #6, #7: a binary resource converted to text held what the engine does not
//! load from it. Fixtures: Godot 4.4.1's `.res` and `.tres` of the same resources
//! (`tests/data/resource/make_issue41_4.gd`).
//!
//! * #7: a PackedByteArray of more than 64 bytes makes 4.3+ write `format=4`, and every
//!   byte array of such a file base64; the crate wrote `format=3` and number lists.
//! * #6: a RID in a binary resource loads in the engine as an int (Godot 4.4.1 reads
//!   `rid.res`'s `rid` as `TYPE_INT` 77); the crate kept a RID, so its text read back as
//!   another value than the engine loads.
//! * #5: `-5.013316528478497e-299` (a double the engine's `strtod` divides by 10^314,
//!   infinity) read back as -0.0 from the shortest text the crate printed; no text reads
//!   back to it exactly, so the crate now writes the text the engine reads nearest to it
//!   and says so.

use crate::resource::fixture;
use godot_bin::Variant;
use godot_bin_files::resource::{BinaryResource, TextResource};

fn convert(name: &str) -> (TextResource, Vec<String>) {
    let res = BinaryResource::from_bytes(&fixture("godot4/issue41", name)).unwrap();
    let c = res.to_text().unwrap();
    (c.file, c.issues.iter().map(ToString::to_string).collect())
}

#[test]
fn long_byte_arrays_make_format_4_as_the_engine_writes() {
    let (text, issues) = convert("bytes4.res");
    let engine = String::from_utf8(fixture("godot4/issue41", "bytes4.tres")).unwrap();
    assert_eq!(text.to_string(), engine);
    assert_eq!(text.format(), 4);
    assert!(issues.is_empty(), "{issues:?}");
}

#[test]
fn a_rid_is_the_int_the_engine_loads() {
    let (text, issues) = convert("rid.res");
    let main = text.resource().unwrap();
    assert_eq!(
        main.properties().get("metadata/rid"),
        Some(&Variant::Int(77))
    );
    assert!(text.to_string().contains("metadata/rid = 77\n"));
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(issues[0].contains("RID"), "{issues:?}");
}

#[test]
fn a_double_no_text_brings_back_is_written_nearest_and_reported() {
    let bin = BinaryResource::from_bytes(&fixture("godot4/issue41", "tiny.res")).unwrap();
    let want = match bin.resource().properties().get("metadata/tiny") {
        Some(Variant::PackedFloat64Array(a)) => a.0[0],
        other => panic!("{other:?}"),
    };
    assert_eq!(want.to_bits(), 0x8200_c973_0f11_19bf);
    let (text, issues) = convert("tiny.res");
    let printed = text.to_string();
    // What the crate reads from its own text is what the engine reads from it: not 0, and
    // within a millionth of a part of the value (the engine's own text, `-5.01332e-299`,
    // is 1e-6 off).
    let back = TextResource::parse(&printed).unwrap();
    let got = match back.resource().unwrap().properties().get("metadata/tiny") {
        Some(Variant::PackedFloat64Array(a)) => a.0[0],
        other => panic!("{other:?}"),
    };
    assert!(got < 0.0, "{printed}");
    assert!(((got - want) / want).abs() < 1e-9, "{got:e} from {printed}");
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert!(issues[0].contains("reads no text as"), "{issues:?}");
}

/// A binary file from an engine newer than any the crate knows (here 4.4.1's file with
/// its header's minor version set to 9) is read as far as its format goes, and its
/// conversion says so; rewritten, it keeps its header.
#[test]
fn a_newer_engines_file_is_read_and_said_so() {
    let mut bytes = fixture("godot4/issue41", "bytes4.res");
    assert_eq!(&bytes[16..20], &4u32.to_le_bytes());
    bytes[16..20].copy_from_slice(&9u32.to_le_bytes());
    let res = BinaryResource::from_bytes(&bytes).unwrap();
    assert_eq!(res.engine().to_string(), "4.9");
    assert!(!res.engine().is_known());
    assert_eq!(res.to_bytes().unwrap(), bytes);
    let c = res.to_text().unwrap();
    let said: Vec<String> = c.issues.iter().map(ToString::to_string).collect();
    assert!(
        said.iter().any(|i| i.contains("Godot 4.9, newer than")),
        "{said:?}"
    );
}
