//! Self-test of the engine harness (the test kit's `godot.rs` and its two table rows,
//! `godot3.rs` and `godot4.rs`): each test is written once and run with both engines,
//! with what differs between them (the GDScript names, the expected text and bytes, how a
//! script error shows) in the small table [`Gd`].

use crate::support::engine::trial;
use crate::support::godot::{self, Godot, Kind};
use crate::support::godot3::G3;
use crate::support::godot4::G4;
use crate::support::hex;
use godot_bin::{Config, Vector3};
use libtest_mimic::Trial;
use std::time::Duration;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        trial::<G3>(
            "godot3_harness::prints_var2str_of_vector3",
            prints_the_text_and_bytes_of_a_vector3,
        ),
        trial::<G3>(
            "godot3_harness::round_trips_files_through_the_run_directory",
            round_trips_files_through_the_run_directory,
        ),
        trial::<G3>(
            "godot3_harness::script_error_is_reported_instead_of_hanging",
            script_errors_are_reported_instead_of_hanging,
        ),
        trial::<G3>(
            "godot3_harness::a_run_past_its_time_limit_is_killed",
            a_run_past_its_time_limit_is_killed,
        ),
        trial::<G4>(
            "godot4_harness::var_to_bytes_of_vector3_is_the_crate_s",
            prints_the_text_and_bytes_of_a_vector3,
        ),
        trial::<G4>(
            "godot4_harness::round_trips_files_through_the_run_directory",
            round_trips_files_through_the_run_directory,
        ),
        trial::<G4>(
            "godot4_harness::script_errors_are_reported_instead_of_hanging",
            script_errors_are_reported_instead_of_hanging,
        ),
        trial::<G4>(
            "godot4_harness::a_run_past_its_time_limit_is_killed",
            a_run_past_its_time_limit_is_killed,
        ),
    ]
}

/// What the harness's self-test needs to know of an engine besides its [`Kind`].
struct Gd {
    /// GDScript's `var_to_str`, `var_to_bytes` and `bytes_to_var` in this engine.
    var_to_str: &'static str,
    var_to_bytes: &'static str,
    bytes_to_var: &'static str,
    /// The engine's text of `Vector3(1, 2, 3)`.
    vector3_text: &'static str,
    /// The engine's bytes of the Array `[42, "x"]`: an Array (type 19 in Godot 3, 28 in
    /// Godot 4) of 2, int 42, String "x" padded to 4 bytes.
    array_42_x: &'static [u8],
    /// A body that stops on a runtime error between printing `OUT:before` and `OUT:after`.
    runtime_error: &'static str,
    /// The exit status of a script that does not parse (Godot 3 runs nothing and exits
    /// with status 0, Godot 4 with 1).
    parse_error_status: i32,
}

/// An engine kind with its row of [`Gd`].
trait Row: Kind {
    const GD: Gd;
}

impl Row for G3 {
    const GD: Gd = Gd {
        var_to_str: "var2str",
        var_to_bytes: "var2bytes",
        bytes_to_var: "bytes2var",
        vector3_text: "Vector3( 1, 2, 3 )",
        array_42_x: &[
            19, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'x', 0, 0, 0,
        ],
        // bytes2var on bytes it refuses is a script error in Godot 3.
        runtime_error: r#"
            print("OUT:before")
            var v = bytes2var(PoolByteArray([1, 2]))
            print("OUT:after")
        "#,
        parse_error_status: 0,
    };
}

impl Row for G4 {
    const GD: Gd = Gd {
        var_to_str: "var_to_str",
        var_to_bytes: "var_to_bytes",
        bytes_to_var: "bytes_to_var",
        vector3_text: "Vector3(1, 2, 3)",
        array_42_x: &[
            28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 42, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, b'x', 0, 0, 0,
        ],
        // bytes_to_var on bytes it refuses is no script error in Godot 4 (it prints an
        // engine error and returns null); a call on null is.
        runtime_error: r#"
            print("OUT:before")
            var n = null
            n.foo()
            print("OUT:after")
        "#,
        parse_error_status: 1,
    };
}

fn prints_the_text_and_bytes_of_a_vector3<K: Row>(engine: &Godot<K>) {
    let gd = &K::GD;
    let (text, bytes) = (gd.var_to_str, gd.var_to_bytes);
    let res = godot::run_script(
        engine,
        &format!(
            r#"
            print("TEXT:", {text}(Vector3(1, 2, 3)))
            print("HEX:", {bytes}(Vector3(1, 2, 3)).hex_encode())
            "#
        ),
        &[],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("TEXT:"), gd.vector3_text);
    assert_eq!(
        hex::decode(&res.line_with_prefix("HEX:")).expect("engine hex"),
        Config::new(K::DIALECT)
            .to_vec(&Vector3::new(1.0, 2.0, 3.0))
            .unwrap()
    );
}

fn round_trips_files_through_the_run_directory<K: Row>(engine: &Godot<K>) {
    let gd = &K::GD;
    let (text, to_bytes, to_var) = (gd.var_to_str, gd.var_to_bytes, gd.bytes_to_var);
    // The int 42: type 2 (INT), value 42, both little-endian u32.
    let input: &[u8] = &[2, 0, 0, 0, 42, 0, 0, 0];
    assert_eq!(Config::new(K::DIALECT).to_vec(&42i64).unwrap(), input);
    let res = godot::run_script(
        engine,
        &format!(
            r#"
            var v = {to_var}(read_bytes("in/value.bin"))
            print("OUT:", {text}(v))
            write_bytes("out.bin", {to_bytes}([v, "x"]))
            print("HEX:", {to_bytes}(v).hex_encode())
            write_text("res://res.txt", "from res://")
            write_text("user://user.txt", "from user://")
            "#
        ),
        &[("in/value.bin", input)],
    );
    res.assert_ok();
    assert_eq!(res.line_with_prefix("OUT:"), "42");
    assert_eq!(hex::decode(&res.line_with_prefix("HEX:")).unwrap(), input);
    let out = res.read_file("out.bin");
    assert_eq!(out, gd.array_42_x);
    // The engine's Array [42, "x"] is the crate's tuple (42, "x").
    assert_eq!(
        out,
        Config::new(K::DIALECT).to_vec(&(42, "x")).unwrap(),
        "{}",
        K::NAME
    );
    assert_eq!(res.read_string("res.txt"), "from res://");
    assert_eq!(
        res.read_string(&format!("{}user.txt", K::USER_DIR)),
        "from user://"
    );
}

fn script_errors_are_reported_instead_of_hanging<K: Row>(engine: &Godot<K>) {
    let gd = &K::GD;
    // A runtime error aborts the body; _init still quits, with status 0.
    let res = godot::run_script(engine, gd.runtime_error, &[]);
    assert!(!res.timed_out, "{}", res.describe());
    assert_eq!(res.status, Some(0), "{}", res.describe());
    assert!(!res.completed(), "{}", res.describe());
    assert_eq!(res.lines_with_prefix("OUT:"), vec!["before"]);
    assert_eq!(res.script_errors().len(), 1, "{}", res.describe());

    // A parse error runs nothing.
    let res = godot::run_script(engine, "print(\"OUT:never\"", &[]);
    assert!(!res.timed_out, "{}", res.describe());
    assert_eq!(
        res.status,
        Some(gd.parse_error_status),
        "{}",
        res.describe()
    );
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

fn a_run_past_its_time_limit_is_killed<K: Row>(engine: &Godot<K>) {
    let res = godot::run_script_with_timeout(
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
