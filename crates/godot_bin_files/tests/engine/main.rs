//! The tests of godot_bin_files that run a real engine: one binary with its own harness
//! (libtest-mimic), so that a trial whose engine is absent is reported as *ignored* with
//! the reason, never as passed, and fails under `GODOT_BIN_REQUIRE_ENGINE=1` (CI). Engines
//! are found through `GODOT3_BIN` (else `godot3-server` on `PATH`) and `GODOT4_BIN`.

use godot_bin_testkit as support;

mod corpus;
mod files;
mod pack;
mod resources;
mod upgrade;

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let mut trials = Vec::new();
    trials.extend(files::trials());
    trials.extend(pack::trials());
    trials.extend(resources::trials());
    trials.extend(corpus::trials());
    trials.extend(upgrade::trials());
    if !args.list {
        // On stderr: `--list` output is read by tools.
        eprintln!("engine tests: {}", support::engine::summary());
    }
    libtest_mimic::run(&args, trials).exit();
}
