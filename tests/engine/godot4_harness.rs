//! Self-test of the Godot 4 engine harness in `tests/support/godot4.rs`.

use crate::support::engine::godot4_trial;
use crate::support::godot4::{self, Godot4};
use crate::support::hex;
use godot_bin::Vector3;
use libtest_mimic::Trial;
use std::time::Duration;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "godot4_harness::var_to_bytes_of_vector3_is_the_crate_s",
            var_to_bytes_of_vector3_is_the_crate_s,
        ),
        godot4_trial(
            "godot4_harness::round_trips_files_through_the_run_directory",
            round_trips_files_through_the_run_directory,
        ),
        godot4_trial(
            "godot4_harness::script_errors_are_reported_instead_of_hanging",
            script_errors_are_reported_instead_of_hanging,
        ),
        godot4_trial(
            "godot4_harness::a_run_past_its_time_limit_is_killed",
            a_run_past_its_time_limit_is_killed,
        ),
    ]
}

fn var_to_bytes_of_vector3_is_the_crate_s(engine: &Godot4) {
    let res = godot4::run_script(
        engine,
        r#"
            print("TEXT:", var_to_str(Vector3(1, 2, 3)))
            print("HEX:", var_to_bytes(Vector3(1, 2, 3)).hex_encode())
        "#,
        &[],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("TEXT:"), "Vector3(1, 2, 3)");
    assert_eq!(
        hex::decode(&res.line_with_prefix("HEX:")).expect("engine hex"),
        godot_bin::to_vec(&Vector3::new(1.0, 2.0, 3.0)).unwrap()
    );
}

fn round_trips_files_through_the_run_directory(engine: &Godot4) {
    let input = godot_bin::to_vec(&42i64).unwrap();
    let res = godot4::run_script(
        engine,
        r#"
            var v = bytes_to_var(read_bytes("in/value.bin"))
            print("OUT:", var_to_str(v))
            write_bytes("out.bin", var_to_bytes([v, "x"]))
            write_text("res://out.txt", "from res://")
            write_text("user://out.txt", "from user://")
        "#,
        &[("in/value.bin", &input)],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("OUT:"), "42");
    // The engine's Array [42, "x"] is the crate's tuple (42, "x").
    assert_eq!(
        res.read_file("out.bin"),
        godot_bin::to_vec(&(42, "x")).unwrap()
    );
    assert_eq!(res.read_string("out.txt"), "from res://");
    assert_eq!(res.read_string("user/out.txt"), "from user://");
}

fn script_errors_are_reported_instead_of_hanging(engine: &Godot4) {
    // A runtime error aborts the body; _init still quits, with status 0.
    let res = godot4::run_script(
        engine,
        r#"
            print("OUT:before")
            var n = null
            n.foo()
            print("OUT:after")
        "#,
        &[],
    );
    assert!(!res.timed_out, "{}", res.describe());
    assert_eq!(res.status, Some(0), "{}", res.describe());
    assert!(!res.completed(), "{}", res.describe());
    assert_eq!(res.lines_with_prefix("OUT:"), vec!["before"]);
    assert_eq!(res.script_errors().len(), 1, "{}", res.describe());

    // A parse error runs nothing and exits with status 1.
    let res = godot4::run_script(engine, "print(\"OUT:never\"", &[]);
    assert!(!res.timed_out, "{}", res.describe());
    assert_eq!(res.status, Some(1), "{}", res.describe());
    assert!(!res.completed(), "{}", res.describe());
    assert!(res.lines_with_prefix("OUT:").is_empty());
    assert!(
        res.script_errors()
            .iter()
            .any(|l| l.contains("Parse Error")),
        "{}",
        res.describe()
    );
}

fn a_run_past_its_time_limit_is_killed(engine: &Godot4) {
    let res = godot4::run_script_with_timeout(
        engine,
        r#"
            print("OUT:looping")
            while true:
                pass
        "#,
        &[],
        Duration::from_secs(3),
    );
    assert!(res.timed_out, "{}", res.describe());
    assert_eq!(res.status, None);
    assert!(!res.completed());
    // What was printed before the kill is there (stdout is flushed on every print).
    assert_eq!(res.lines_with_prefix("OUT:"), vec!["looping"]);
}
