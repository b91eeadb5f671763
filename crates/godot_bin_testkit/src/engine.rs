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
//! `godot4_trial` does the same with the Godot 4 engine (`&Godot4`), and `trial::<K>` with
//! the engine of any kind `K` (`support::godot::Kind`), for tests written once for both.

use super::godot::{Godot, Kind};
use super::godot3::{Godot3, G3};
use super::godot4::{Godot4, G4};
use libtest_mimic::{Completion, Failed, Trial};

/// Env var that, when set to `1`, turns a missing engine into a failure (used by CI).
pub const REQUIRE_ENV: &str = "GODOT_BIN_REQUIRE_ENGINE";

/// Whether `GODOT_BIN_REQUIRE_ENGINE=1`.
pub fn engines_required() -> bool {
    std::env::var_os(REQUIRE_ENV).is_some_and(|v| v == "1")
}

/// The Godot 3 engine, looked up once per run of the binary.
pub fn godot3() -> &'static Result<Godot3, String> {
    G3::installed()
}

/// A trial that runs `test` with the Godot 3 engine (kind `godot3`).
pub fn godot3_trial(name: &str, test: fn(&Godot3)) -> Trial {
    trial(name, test)
}

/// The Godot 4 engine, looked up once per run of the binary.
pub fn godot4() -> &'static Result<Godot4, String> {
    G4::installed()
}

/// A trial that runs `test` with the Godot 4 engine (kind `godot4`).
pub fn godot4_trial(name: &str, test: fn(&Godot4)) -> Trial {
    trial(name, test)
}

/// A trial of kind `K::KIND` that runs `test` with that engine; a panic in `test` fails
/// the trial (libtest-mimic catches it, as the standard harness does).
pub fn trial<K: Kind>(name: &str, test: fn(&Godot<K>)) -> Trial {
    Trial::ignorable_test(name, move || match K::installed() {
        Ok(engine) => {
            test(engine);
            Ok(Completion::Completed)
        }
        Err(missing) if engines_required() => Err(Failed::from(format!(
            "{missing}, and {REQUIRE_ENV}=1 requires the engine ({})",
            K::KIND
        ))),
        Err(missing) => Ok(Completion::ignored_with(missing)),
    })
    .with_kind(K::KIND)
}

/// One line per engine for the start of a run: where it is, or why its trials are ignored
/// (or fail) and how to get it.
pub fn summary() -> String {
    [line::<G3>(), line::<G4>()].join("; ")
}

/// [`summary`]'s line for the engine of kind `K`.
fn line<K: Kind>() -> String {
    let (kind, how) = (K::KIND, K::HOW_TO_GET);
    match K::installed() {
        Ok(engine) => format!("{kind}: {}", engine.path().display()),
        Err(missing) if engines_required() => {
            format!("{kind}: {missing}: its trials fail ({REQUIRE_ENV}=1; {how})")
        }
        Err(missing) => format!("{kind}: {missing}: its trials are ignored ({how})"),
    }
}
