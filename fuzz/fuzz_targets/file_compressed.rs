//! Compressed saves (`GCPF`): arbitrary files, and files this crate compresses from
//! arbitrary content in each mode (which must decompress to that content), cut or with
//! one byte changed. See `godot_bin_fuzz::check_file`.
#![no_main]

use godot_bin_files::save::{self as file, Compression, Key};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let key = Key::password("s3cret");
    let Some((&how, rest)) = data.split_first() else {
        return;
    };
    match how % 5 {
        // The bytes as a file.
        4 => godot_bin_fuzz::check_file(rest, &key),
        mode => {
            let compression = Compression::from_mode(u32::from(mode)).unwrap();
            let packed = file::compress(rest, compression).unwrap();
            assert_eq!(
                file::decompress(&packed).unwrap(),
                rest,
                "{compression} round trip"
            );
            godot_bin_fuzz::check_file(&packed, &key);
            let at = usize::from(how) * 13 % packed.len();
            godot_bin_fuzz::check_file(&packed[..at], &key);
            let mut flipped = packed.clone();
            flipped[at] ^= 1 << (how % 8);
            godot_bin_fuzz::check_file(&flipped, &key);
        }
    }
});
