//! Found by `fuzz/resource_text`: a 2,551-byte ConfigFile of nested empty arrays
//! (`pseed=[[[[...]]]]`, repeated) took 100,656 bytes to read and 231,449 bytes through
//! the fuzz target's read, reprint and read again, over its bound of 64 bytes a byte and
//! 64 KiB. Each `[` is a 72-byte `Variant` in its parent's `Vec`, which grew to four slots
//! at its first element: 288 bytes for one byte of text. The text parser now gives that
//! room back when an array closes (40,176 bytes for the same file).

use crate::support::alloc::peak_of;
use godot_bin_files::resource::ConfigFile;

/// The bound every reader in the crate keeps: 64 bytes a byte of text, and 64 KiB.
fn bound(len: usize) -> usize {
    64 * len + (64 << 10)
}

#[test]
fn nested_arrays_cost_memory_in_proportion_to_their_text() {
    // 40 lines of 30 nested arrays: 1,200 `[` in 2,524 bytes (357,189 bytes at peak before).
    let line = format!("k={}{}\n", "[".repeat(30), "]".repeat(30));
    let text = format!("[s]\n{}", line.repeat(40));
    let peak = peak_of(|| ConfigFile::parse(&text).unwrap());
    assert!(
        peak <= bound(text.len()) / 2,
        "{} bytes of text took {peak} bytes",
        text.len()
    );
}

/// The fuzz input itself. A `"` inside its first key starts a string there, as in the
/// engines' key reader (`a"b"c=` is the key `bc`), which leaves no value where one is
/// due: both engines refuse it (`ConfigFile.load` → `ERR_PARSE_ERROR`, "Expected value"),
/// and the crate refuses it with a syntax error, within the bound.
#[test]
fn the_fuzz_input_is_refused_as_the_engines_refuse_it_within_the_bound() {
    let data = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/regressions/resource_text-83b81eb5"
    ));
    let text = std::str::from_utf8(&data[1..]).unwrap();
    let mut refused = None;
    let peak = peak_of(|| refused = Some(godot_bin_files::ConfigFile::parse(text).is_err()));
    assert_eq!(refused, Some(true));
    assert!(peak <= bound(data.len()), "{peak} bytes at peak");
}
