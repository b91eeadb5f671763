//! The Godot 3 engine's entry in the harness's table (`godot.rs`): the real Godot 3
//! engine (`godot3-server`, Debian package `godot3-server`, engine 3.2.3) run headless
//! from integration tests.
//!
//! Typical use, in a trial of the `engine` binary (`support::engine::godot3_trial`):
//!
//! ```ignore
//! fn prints_the_value(engine: &Godot3) {
//!     let res = godot3::run_script(
//!         engine,
//!         r#"
//!         var v = bytes2var(read_bytes("in.bin"))
//!         write_text("out.txt", var2str(v))
//!         "#,
//!         &[("in.bin", &bytes)],
//!     );
//!     res.assert_ok();
//!     let text = res.read_string("out.txt");
//! }
//! ```
//!
//! Facts about the engine that the harness relies on (checked on 3.2.3):
//!
//! * `godot3-server --no-window -s script.gd` runs an `extends SceneTree`
//!   script; one run takes about 50 ms. Without a `project.godot`, both
//!   `res://` and `user://` resolve to the current directory, so relative
//!   paths, `res://name` and absolute paths all work for `File.open`. The
//!   engine writes `logs/godot.log` into the current directory and nothing
//!   into `$HOME`; each run still gets its own directory (used as cwd and
//!   `HOME`) so parallel tests never share files.
//! * stdout always starts with the banner
//!   `Godot Engine v3.2.3.stable.custom_build - https://godotengine.org`
//!   and a line holding a single space; `print()` output follows. Hence
//!   [`RunResult::lines_with_prefix`](super::run::RunResult::lines_with_prefix): print your results behind a marker.
//!   stdout is flushed after every `print`, even if the engine is killed.
//! * With `LANG=C.UTF-8` the engine prints two `ERROR: ... Invalid locale
//!   'C'` lines to stderr; the harness sets `LANG=en_US.UTF-8` to avoid them.
//! * A script error (for example `bytes2var` on invalid bytes) aborts only
//!   the GDScript function it happens in; the caller continues, which is why
//!   the body runs in its own function (see `run.rs`). A parse error makes
//!   the engine exit with status 0 without running anything (no start
//!   marker; `completed()` is false).
//! * `quit(n)` sets the exit status (visible as [`RunResult::status`](super::run::RunResult::status)).

// The harness's runs, as `godot3::run_script(engine, ...)` and so on: the engine's type
// picks its row. (Unused in the `it` binary, which runs no engine.)
use super::godot::{self, Godot, Installed, Kind};
#[allow(unused_imports)]
pub use super::godot::{run_script, run_script_file, run_script_with_timeout};
use godot_bin::Dialect;
use std::ffi::OsString;
use std::path::Path;

/// The Godot 3 engine found on this machine.
pub type Godot3 = Godot<G3>;

/// The Godot 3 kind of engine: its row of the harness's table.
#[derive(Debug)]
pub struct G3;

/// Name of the executable looked up on `PATH`.
pub const ENGINE_NAME: &str = "godot3-server";

impl Kind for G3 {
    const NAME: &'static str = "Godot 3";
    const VERSION: &'static str = "3.2.3";
    const KIND: &'static str = "godot3";
    const DIALECT: Dialect = Dialect::Godot3;
    const ENGINE_ENV: &'static str = "GODOT3_BIN";
    const DEFAULT_NAME: Option<&'static str> = Some(ENGINE_NAME);
    const HOW_TO_GET: &'static str = "apt-get install godot3-server, or set GODOT3_BIN";
    /// `read_bytes(path) -> PoolByteArray` (an empty array and an error line on stderr if
    /// the file cannot be opened), and the `_harness_write` behind `write_bytes` and
    /// `write_text` (`File`, Godot 3's file API).
    const GD_HELPERS: &'static str = r#"
func read_bytes(path):
	var f = File.new()
	var err = f.open(path, File.READ)
	if err != OK:
		printerr("read_bytes: cannot open ", path, ": error ", err)
		return PoolByteArray()
	var b = f.get_buffer(f.get_len())
	f.close()
	return b

func _harness_write(path, data, who):
	var f = File.new()
	var err = f.open(path, File.WRITE)
	if err != OK:
		printerr(who, ": cannot open ", path, ": error ", err)
		return err
	if typeof(data) == TYPE_STRING:
		f.store_string(data)
	else:
		f.store_buffer(data)
	f.close()
	return OK
"#;
    /// No project: `res://` and `user://` are the run directory.
    const PROJECT_FILES: &'static [(&'static str, &'static str)] = &[];
    /// The engine's log folder.
    const RESERVED: &'static [&'static str] = &["logs/"];
    const USER_DIR: &'static str = "";

    /// `--no-window -s SCRIPT`, in the run directory (the current directory).
    fn script_args(_dir: &Path, script: &str) -> Vec<OsString> {
        ["--no-window", "-s", script].map(OsString::from).to_vec()
    }

    fn installed() -> &'static Result<Godot3, String> {
        static ENGINE: Installed<G3> = Installed::new();
        ENGINE.get_or_init(godot::find)
    }
}
