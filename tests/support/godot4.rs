//! Harness for running the real Godot 4 engine (4.4.1, a headless build) from the
//! `engine` test binary; the same shape as `godot3.rs`, with what differs in Godot 4.
//!
//! Typical use, in a trial of the `engine` binary (`support::engine::godot4_trial`):
//!
//! ```ignore
//! fn prints_the_value(engine: &Godot4) {
//!     let res = godot4::run_script(
//!         engine,
//!         r#"
//!         var v = bytes_to_var(read_bytes("in.bin"))
//!         write_text("out.txt", var_to_str(v))
//!         "#,
//!         &[("in.bin", &bytes)],
//!     );
//!     res.assert_ok();
//!     let text = res.read_string("out.txt");
//! }
//! ```
//!
//! Facts about the engine that the harness relies on (checked on 4.4.1):
//!
//! * The engine is found through `GODOT4_BIN` only (a path, or a name looked up on
//!   `PATH`); CI unpacks it from the shared folder and sets the variable.
//! * It needs a project: each run directory holds a `project.godot` ([`PROJECT_GODOT`])
//!   and the script, and the engine runs as `ENGINE --headless --path DIR -s
//!   harness_script.gd` with cwd, `HOME` and the XDG folders set to the run directory.
//!   `res://` and relative paths are the run directory; `user://` is its `user/`
//!   subfolder (the project names a custom user folder; the engine's log goes there).
//! * stdout starts with the banner `Godot Engine v4.4.1.stable... - https://godotengine.org`
//!   and an empty line; print results behind a marker. The project turns on
//!   `flush_stdout_on_print`, so what was printed survives a kill.
//! * The headless build prints `ERROR: No renderers available.` on stderr at start:
//!   harmless (it is not a `SCRIPT ERROR:` line). The project picks the dummy physics
//!   servers and the run directory holds an empty global class cache, which silences the
//!   other start-up warnings.
//! * A GDScript runtime error prints `SCRIPT ERROR: ...` and aborts only the function it
//!   happens in, as in Godot 3 (hence the body's own function, see `run.rs`). A parse
//!   error makes the engine exit with status 1 without running anything. `bytes_to_var`
//!   on bytes it refuses is not a script error: it prints an engine `ERROR:` line and
//!   returns null, and the body goes on.
//! * A run takes about 1.1 s, most of it at exit (the engine joins a thread that sleeps in
//!   one-second steps), so put many cases in one run.
//! * `quit(n)` sets the exit status.

pub use super::run::RunResult;
use super::run::{self, DEFAULT_TIMEOUT};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Env var naming the engine (a path, or a name looked up on `PATH`).
pub const ENGINE_ENV: &str = "GODOT4_BIN";

/// How to get the engine, for the message when it is missing.
pub const HOW_TO_GET: &str =
    "set GODOT4_BIN to a Godot 4.4 executable; .ci/run unpacks one from the shared folder";

/// The `project.godot` of every run: a named project (so the custom `user://` folder
/// applies), stdout flushed on every print, dummy physics (no start-up warnings).
pub const PROJECT_GODOT: &str = r#"config_version=5

[application]

config/name="godot_bin tests"
config/use_custom_user_dir=true
config/custom_user_dir_name="user"
run/flush_stdout_on_print=true

[physics]

2d/physics_engine="Dummy"
3d/physics_engine="Dummy"
"#;

/// The global class cache an editor would have written; without it the engine prints an
/// error line at start.
const CLASS_CACHE: (&str, &str) = (".godot/global_script_class_cache.cfg", "list=[]\n");

/// The Godot 4 engine found on this machine.
#[derive(Debug, Clone)]
pub struct Godot4 {
    path: PathBuf,
}

impl Godot4 {
    /// The engine's executable.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Finds the Godot 4 engine through `$GODOT4_BIN`. `Err` says what was looked for;
/// `support::engine` turns it into an ignored (or, in CI, failed) trial.
pub fn find() -> Result<Godot4, String> {
    run::find_engine(ENGINE_ENV, None).map(|path| Godot4 { path })
}

/// GDScript helper functions appended to every generated script; the body may call them.
///
/// * `read_bytes(path) -> PackedByteArray` (empty array and an error line on stderr if the
///   file cannot be opened),
/// * `write_bytes(path, bytes: PackedByteArray) -> int` (an `Error` code, `OK` == 0),
/// * `write_text(path, text: String) -> int` (UTF-8, no newline added; use it for
///   `var_to_str` output, which can span several lines).
pub const GD_HELPERS: &str = r#"
func read_bytes(path):
	var f = FileAccess.open(path, FileAccess.READ)
	if f == null:
		printerr("read_bytes: cannot open ", path, ": error ", FileAccess.get_open_error())
		return PackedByteArray()
	var b = f.get_buffer(f.get_length())
	f.close()
	return b

func write_bytes(path, bytes):
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		var err = FileAccess.get_open_error()
		printerr("write_bytes: cannot open ", path, ": error ", err)
		return err
	f.store_buffer(bytes)
	f.close()
	return OK

func write_text(path, text):
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		var err = FileAccess.get_open_error()
		printerr("write_text: cannot open ", path, ": error ", err)
		return err
	f.store_string(text)
	f.close()
	return OK
"#;

/// Runs `script_body` in the engine with the default 60 s time limit; see
/// [`run_script_with_timeout`].
pub fn run_script(engine: &Godot4, script_body: &str, files: &[(&str, &[u8])]) -> RunResult {
    run_script_with_timeout(engine, script_body, files, DEFAULT_TIMEOUT)
}

/// Runs `script_body` as GDScript in a fresh project directory and returns the outcome.
///
/// * `script_body` is the code of one function, written as for `godot3::run_script`
///   (any indentation; no `return`; `quit(n)` sets the status; the helpers in
///   [`GD_HELPERS`]).
/// * `files` are written into the run directory first; names are relative paths
///   (subdirectories are created) and must not be `harness_script.gd`, `project.godot`,
///   or under `.godot/` or `user/`.
/// * The script reads and writes files by relative path (`"out.bin"`) or `"res://..."`;
///   read its outputs with [`RunResult::read_file`]. The engine is killed after `timeout`.
pub fn run_script_with_timeout(
    engine: &Godot4,
    script_body: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> RunResult {
    for (name, _) in files {
        assert!(
            *name != "project.godot" && !name.starts_with(".godot/") && !name.starts_with("user/"),
            "input file name {name:?} is reserved for the project"
        );
    }
    let dir = run::prepare("g4", script_body, GD_HELPERS, files);
    write_project(&dir);
    let command = headless(engine, &dir, run::SCRIPT_NAME);
    run::run("Godot 4", command, dir, timeout)
}

/// Runs a whole `extends SceneTree` script of its own (an example's client, say) rather
/// than a body in the harness's script: `script` is its file name and source, written into
/// a fresh project directory as [`run_script_with_timeout`] makes one, and `args` follow
/// `--` on the command line (the script reads them with `OS.get_cmdline_user_args()`).
/// The script decides when to quit; the engine is killed after `timeout`. The harness's
/// markers are not printed, so judge the run by its status and its own output, not by
/// [`RunResult::assert_ok`].
pub fn run_script_file(
    engine: &Godot4,
    script: (&str, &str),
    args: &[&str],
    timeout: Duration,
) -> RunResult {
    let (name, source) = script;
    let dir = run::prepare("g4", "pass", "", &[(name, source.as_bytes())]);
    write_project(&dir);
    let mut command = headless(engine, &dir, name);
    command.arg("--").args(args);
    run::run("Godot 4", command, dir, timeout)
}

/// The engine's command line for running `script` headless in the project at `dir`.
pub fn headless(engine: &Godot4, dir: &Path, script: &str) -> Command {
    let mut command = Command::new(engine.path());
    command
        .arg("--headless")
        .arg("--path")
        .arg(dir)
        .arg("-s")
        .arg(script);
    command
}

/// Writes [`PROJECT_GODOT`] and the class cache into a run directory.
fn write_project(dir: &Path) {
    fs::write(dir.join("project.godot"), PROJECT_GODOT)
        .unwrap_or_else(|e| panic!("cannot write project.godot into {}: {e}", dir.display()));
    let (cache, contents) = CLASS_CACHE;
    fs::create_dir_all(dir.join(".godot"))
        .and_then(|()| fs::write(dir.join(cache), contents))
        .unwrap_or_else(|e| panic!("cannot write {cache} into {}: {e}", dir.display()));
}
