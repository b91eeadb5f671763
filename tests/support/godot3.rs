//! Harness for running the real Godot 3 engine (`godot3-server`, Debian
//! package `godot3-server`, engine 3.2.3) headless from integration tests.
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
//!   [`RunResult::lines_with_prefix`]: print your results behind a marker.
//!   stdout is flushed after every `print`, even if the engine is killed.
//! * With `LANG=C.UTF-8` the engine prints two `ERROR: ... Invalid locale
//!   'C'` lines to stderr; the harness sets `LANG=en_US.UTF-8` to avoid them.
//! * A script error (for example `bytes2var` on invalid bytes) aborts only
//!   the GDScript function it happens in; the caller continues, which is why
//!   the body runs in its own function (see `run.rs`). A parse error makes
//!   the engine exit with status 0 without running anything (no start
//!   marker; `completed()` is false).
//! * `quit(n)` sets the exit status (visible as [`RunResult::status`]).

pub use super::run::RunResult;
use super::run::{self, DEFAULT_TIMEOUT};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Name of the executable looked up on `PATH`.
pub const ENGINE_NAME: &str = "godot3-server";

/// Env var naming the engine explicitly (a path, or a name looked up on `PATH`).
pub const ENGINE_ENV: &str = "GODOT3_BIN";

/// The Godot 3 engine found on this machine.
#[derive(Debug, Clone)]
pub struct Godot3 {
    path: PathBuf,
}

impl Godot3 {
    /// The engine's executable.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How to get the engine, for the message when it is missing.
pub const HOW_TO_GET: &str = "apt-get install godot3-server, or set GODOT3_BIN";

/// Finds the Godot 3 engine: `$GODOT3_BIN` if set (a path, or a name looked up on
/// `PATH`), else `godot3-server` on `PATH`. `Err` says what was looked for;
/// `support::engine` turns it into an ignored (or, in CI, failed) trial.
pub fn find() -> Result<Godot3, String> {
    run::find_engine(ENGINE_ENV, Some(ENGINE_NAME)).map(|path| Godot3 { path })
}

/// GDScript helper functions appended to every generated script; the body may call them.
///
/// * `read_bytes(path) -> PoolByteArray` (empty array and an error line on stderr if the
///   file cannot be opened),
/// * `write_bytes(path, bytes: PoolByteArray) -> int` (an `Error` code, `OK` == 0),
/// * `write_text(path, text: String) -> int` (UTF-8, no newline added; use it for
///   `var2str` output, which can span several lines).
pub const GD_HELPERS: &str = r#"
func read_bytes(path):
	var f = File.new()
	var err = f.open(path, File.READ)
	if err != OK:
		printerr("read_bytes: cannot open ", path, ": error ", err)
		return PoolByteArray()
	var b = f.get_buffer(f.get_len())
	f.close()
	return b

func write_bytes(path, bytes):
	var f = File.new()
	var err = f.open(path, File.WRITE)
	if err != OK:
		printerr("write_bytes: cannot open ", path, ": error ", err)
		return err
	f.store_buffer(bytes)
	f.close()
	return OK

func write_text(path, text):
	var f = File.new()
	var err = f.open(path, File.WRITE)
	if err != OK:
		printerr("write_text: cannot open ", path, ": error ", err)
		return err
	f.store_string(text)
	f.close()
	return OK
"#;

/// Runs `script_body` in the engine with the default 60 s time limit; see
/// [`run_script_with_timeout`].
pub fn run_script(engine: &Godot3, script_body: &str, files: &[(&str, &[u8])]) -> RunResult {
    run_script_with_timeout(engine, script_body, files, DEFAULT_TIMEOUT)
}

/// Runs `script_body` as GDScript in a fresh run directory and returns the outcome.
///
/// * `script_body` is the code of one function. Write it at any indentation (common
///   leading whitespace is removed, as with `indoc`, and one tab is added); nested blocks
///   may use tabs or spaces. Don't `return` from it (that hides the end marker, see
///   [`RunResult::completed`]); it may call `quit(n)` to set the exit status and the
///   helpers in [`GD_HELPERS`].
/// * `files` are written into the run directory first; names are relative paths
///   (subdirectories are created) and must not be `harness_script.gd` or under `logs/`.
/// * The script sees the run directory as cwd, `res://` and `user://`, so it should
///   read and write files by relative path (`"out.bin"`), `"res://out.bin"` or
///   the absolute path; read its outputs with [`RunResult::read_file`].
/// * The engine runs as `ENGINE --no-window -s harness_script.gd` with cwd and `HOME`
///   set to the run directory and `LANG=en_US.UTF-8`; it is killed after `timeout`.
pub fn run_script_with_timeout(
    engine: &Godot3,
    script_body: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> RunResult {
    let dir = run::prepare("g3", script_body, GD_HELPERS, files);
    let mut command = Command::new(engine.path());
    command.arg("--no-window").arg("-s").arg(run::SCRIPT_NAME);
    run::run("Godot 3", command, dir, timeout)
}

/// Runs a whole `extends SceneTree` script of its own (an example's client, say) rather
/// than a body in the harness's script: `script` is its file name and source, written into
/// a fresh run directory, and `args` follow `--` on the command line (the script finds them
/// after `"--"` in `OS.get_cmdline_args()`). The script decides when to quit; the engine is
/// killed after `timeout`. The harness's markers are not printed, so judge the run by its
/// status and its own output, not by [`RunResult::assert_ok`].
pub fn run_script_file(
    engine: &Godot3,
    script: (&str, &str),
    args: &[&str],
    timeout: Duration,
) -> RunResult {
    let (name, source) = script;
    let dir = run::prepare("g3", "pass", "", &[(name, source.as_bytes())]);
    let mut command = Command::new(engine.path());
    command
        .arg("--no-window")
        .arg("-s")
        .arg(name)
        .arg("--")
        .args(args);
    run::run("Godot 3", command, dir, timeout)
}
