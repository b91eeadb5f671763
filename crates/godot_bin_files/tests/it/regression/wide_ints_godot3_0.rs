//! Found by the real-project corpus: Godot 3.0 and 3.1's binary saver stores every int
//! as a 64-bit INT64 (type 40), even `0` (it tests the lower bound against `-0x80000000`,
//! an unsigned constant, so every value passes as too wide). The crate read them and wrote
//! each int that fits 32 bits back as an INT (type 3): the 15 binary scenes and resources
//! of godot-demo-projects' 3.0 branch were not written back byte for byte. A file whose
//! ints are stored wide is now written back wide.

use godot_bin::{Dialect, Variant};
use godot_bin_files::BinaryResource;

/// A Godot 3 resource with `a = 7`, as the crate writes it (INT), and as Godot 3.0's saver
/// writes it: the same bytes with the value as INT64, which only lengthens the last
/// resource's body (no offset of the file points past it).
fn files() -> (Vec<u8>, Vec<u8>) {
    let mut r = BinaryResource::new_resource("Resource", Dialect::Godot3);
    r.resource_mut().properties_mut().set("a", Variant::Int(7));
    let narrow = r.to_bytes().unwrap();
    let int: &[u8] = &[3, 0, 0, 0, 7, 0, 0, 0];
    let at = narrow
        .windows(int.len())
        .position(|w| w == int)
        .expect("the INT in the crate's file");
    let mut wide = narrow[..at].to_vec();
    wide.extend_from_slice(&[40, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0]);
    wide.extend_from_slice(&narrow[at + int.len()..]);
    (narrow, wide)
}

#[test]
fn a_file_of_wide_ints_is_written_back_wide() {
    let (_, wide) = files();
    let r = BinaryResource::from_bytes(&wide).unwrap();
    assert_eq!(r.resource().properties().get("a"), Some(&Variant::Int(7)));
    assert_eq!(r.to_bytes().unwrap(), wide);
}

#[test]
fn a_file_of_narrow_ints_stays_narrow() {
    let (narrow, _) = files();
    let r = BinaryResource::from_bytes(&narrow).unwrap();
    assert_eq!(r.to_bytes().unwrap(), narrow);
}
