//! Trials of the `engine` test binary (`tests/engine/`, harness = false, libtest-mimic):
//! a trial whose engine is absent is reported *ignored*, with the reason, never passed;
//! with `GODOT_BIN_REQUIRE_ENGINE=1` (CI) it fails instead.
//!
//! ```ignore
//! pub fn trials() -> Vec<Trial> {
//!     vec![godot3_trial("area::reads_a_vector", reads_a_vector)]
//! }
//!
//! fn reads_a_vector(engine: &Godot3) { /* panics on failure, as a #[test] does */ }
//! ```
//!
//! `godot4_trial` does the same with the Godot 4 engine (`&Godot4`).

use super::godot3::{self, Godot3};
use super::godot4::{self, Godot4};
use libtest_mimic::{Completion, Failed, Trial};
use std::path::Path;
use std::sync::OnceLock;

/// Env var that, when set to `1`, turns a missing engine into a failure (used by CI).
pub const REQUIRE_ENV: &str = "GODOT_BIN_REQUIRE_ENGINE";

/// Whether `GODOT_BIN_REQUIRE_ENGINE=1`.
pub fn engines_required() -> bool {
    std::env::var_os(REQUIRE_ENV).is_some_and(|v| v == "1")
}

/// The Godot 3 engine, looked up once per run of the binary.
pub fn godot3() -> &'static Result<Godot3, String> {
    static ENGINE: OnceLock<Result<Godot3, String>> = OnceLock::new();
    ENGINE.get_or_init(godot3::find)
}

/// A trial that runs `test` with the Godot 3 engine (kind `godot3`).
pub fn godot3_trial(name: &str, test: fn(&Godot3)) -> Trial {
    trial(name, "godot3", godot3, test)
}

/// The Godot 4 engine, looked up once per run of the binary.
pub fn godot4() -> &'static Result<Godot4, String> {
    static ENGINE: OnceLock<Result<Godot4, String>> = OnceLock::new();
    ENGINE.get_or_init(godot4::find)
}

/// A trial that runs `test` with the Godot 4 engine (kind `godot4`).
pub fn godot4_trial(name: &str, test: fn(&Godot4)) -> Trial {
    trial(name, "godot4", godot4, test)
}

/// A trial of kind `kind` that runs `test` with the engine `find` returns; a panic in
/// `test` fails the trial (libtest-mimic catches it, as the standard harness does).
fn trial<E: Sync + 'static>(
    name: &str,
    kind: &'static str,
    find: fn() -> &'static Result<E, String>,
    test: fn(&E),
) -> Trial {
    Trial::ignorable_test(name, move || match find() {
        Ok(engine) => {
            test(engine);
            Ok(Completion::Completed)
        }
        Err(missing) if engines_required() => Err(Failed::from(format!(
            "{missing}, and {REQUIRE_ENV}=1 requires the engine ({kind})"
        ))),
        Err(missing) => Ok(Completion::ignored_with(missing)),
    })
    .with_kind(kind)
}

/// One line per engine for the start of a run: where it is, or why its trials are ignored
/// (or fail) and how to get it.
pub fn summary() -> String {
    let line = |kind: &str, found: Result<&Path, &String>, how: &str| match found {
        Ok(path) => format!("{kind}: {}", path.display()),
        Err(missing) if engines_required() => {
            format!("{kind}: {missing}: its trials fail ({REQUIRE_ENV}=1; {how})")
        }
        Err(missing) => format!("{kind}: {missing}: its trials are ignored ({how})"),
    };
    [
        line(
            "godot3",
            godot3().as_ref().map(Godot3::path),
            godot3::HOW_TO_GET,
        ),
        line(
            "godot4",
            godot4().as_ref().map(Godot4::path),
            godot4::HOW_TO_GET,
        ),
    ]
    .join("; ")
}
