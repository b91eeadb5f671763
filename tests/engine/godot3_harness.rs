//! Self-test of the Godot 3 engine harness in `tests/support/godot3.rs`.

use crate::support::engine::godot3_trial;
use crate::support::godot3::Godot3;
use crate::support::{godot3, hex};
use libtest_mimic::Trial;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot3_trial(
            "godot3_harness::prints_var2str_of_vector3",
            prints_var2str_of_vector3,
        ),
        godot3_trial(
            "godot3_harness::round_trips_files_through_the_run_directory",
            round_trips_files_through_the_run_directory,
        ),
        godot3_trial(
            "godot3_harness::script_error_is_reported_instead_of_hanging",
            script_error_is_reported_instead_of_hanging,
        ),
    ]
}

fn prints_var2str_of_vector3(engine: &Godot3) {
    let res = godot3::run_script(engine, r#"print("OUT:", var2str(Vector3(1, 2, 3)))"#, &[]);
    res.assert_ok();
    assert_eq!(res.lines_with_prefix("OUT:"), vec!["Vector3( 1, 2, 3 )"]);
}

fn round_trips_files_through_the_run_directory(engine: &Godot3) {
    // var2bytes(42): type 2 (INT), value 42, both little-endian u32.
    let input: &[u8] = &[2, 0, 0, 0, 42, 0, 0, 0];
    let res = godot3::run_script(
        engine,
        r#"
            var v = bytes2var(read_bytes("in/value.bin"))
            print("OUT:", var2str(v))
            write_bytes("out.bin", var2bytes([v, "x"]))
            print("HEX:", var2bytes(v).hex_encode())
        "#,
        &[("in/value.bin", input)],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("OUT:"), "42");
    assert_eq!(hex::decode(&res.line_with_prefix("HEX:")).unwrap(), input);
    let out = res.read_file("out.bin");
    // Array (type 19) of 2: int 42, String "x" padded to 4 bytes.
    let expected: &[u8] = &[
        19, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'x', 0, 0, 0,
    ];
    assert_eq!(out, expected);
}

fn script_error_is_reported_instead_of_hanging(engine: &Godot3) {
    let res = godot3::run_script(
        engine,
        r#"
            print("OUT:before")
            var v = bytes2var(PoolByteArray([1, 2]))
            print("OUT:after")
        "#,
        &[],
    );
    assert!(!res.timed_out, "{}", res.describe());
    assert_eq!(res.status, Some(0));
    assert!(!res.completed(), "{}", res.describe());
    assert_eq!(res.lines_with_prefix("OUT:"), vec!["before"]);
    assert_eq!(res.script_errors().len(), 1, "{}", res.describe());
}
