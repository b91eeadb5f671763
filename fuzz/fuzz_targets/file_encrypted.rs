//! Encrypted saves (`GDEC`): arbitrary files, and well-formed files around arbitrary
//! content, cut or with one byte changed. See `godot_bin_fuzz::check_file`.
#![no_main]

use godot_bin_files::save::{self as file, Key};
use godot_bin::Dialect;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let key = Key::password("s3cret");
    let Some((&how, rest)) = data.split_first() else {
        return;
    };
    match how % 4 {
        // The bytes as a file.
        0 => godot_bin_fuzz::check_file(rest, &key),
        // The bytes as content, in either layout, then cut or flipped.
        _ => {
            let sealed = if how % 4 == 1 {
                file::encrypt(rest, &key, Dialect::Godot3).unwrap()
            } else {
                file::encrypt_with_iv(rest, &key, [how; 16]).unwrap()
            };
            assert_eq!(file::decrypt(&sealed, &key).unwrap(), rest, "round trip");
            godot_bin_fuzz::check_file(&sealed, &key);
            let at = usize::from(how) * 7 % sealed.len();
            godot_bin_fuzz::check_file(&sealed[..at], &key);
            let mut flipped = sealed.clone();
            flipped[at] ^= 1 << (how % 8);
            godot_bin_fuzz::check_file(&flipped, &key);
        }
    }
});
