//! The tests that run a real engine: one binary with its own harness (libtest-mimic), so
//! that a trial whose engine is absent is reported as *ignored* with the reason, never as
//! passed, and fails under `GODOT_BIN_REQUIRE_ENGINE=1` (CI). Each area is a module
//! exposing `trials()`, built with the test kit's `engine`. Engines are found through
//! `GODOT3_BIN` (else `godot3-server` on `PATH`) and `GODOT4_BIN`.

use godot_bin_testkit as support;

mod differential;
mod equality;
#[cfg(feature = "tokio")]
mod game_client;
mod godot4_stream;
mod harness;
#[cfg(all(feature = "glam", feature = "mint"))]
mod interop;
mod random_values;
mod stream;
mod text;
mod values;

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = Vec::new();
    trials.extend(differential::trials());
    trials.extend(equality::trials());
    #[cfg(feature = "tokio")]
    trials.extend(game_client::trials());
    trials.extend(godot4_stream::trials());
    trials.extend(harness::trials());
    #[cfg(all(feature = "glam", feature = "mint"))]
    trials.extend(interop::trials());
    trials.extend(random_values::trials());
    trials.extend(stream::trials());
    trials.extend(text::trials());
    trials.extend(values::trials());
    if !args.list {
        // On stderr: `--list` output is read by tools.
        eprintln!("engine tests: {}", support::engine::summary());
    }
    libtest_mimic::run(&args, trials).exit();
}
