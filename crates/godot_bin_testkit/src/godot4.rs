//! The Godot 4 engine's entry in the harness's table (`godot.rs`): the real Godot 4
//! engine (4.4.1, a headless build) run from the `engine` test binary.
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

// The harness's runs, as `godot4::run_script(engine, ...)` and so on: the engine's type
// picks its row. (Unused in the `it` binary, which runs no engine.)
use super::godot::{self, Godot, Installed, Kind};
#[allow(unused_imports)]
pub use super::godot::{run_script, run_script_file, run_script_with_timeout};
use godot_bin::Dialect;
use std::ffi::OsString;
use std::path::Path;

/// The Godot 4 engine found on this machine.
pub type Godot4 = Godot<G4>;

/// The Godot 4 kind of engine: its row of the harness's table.
#[derive(Debug)]
pub struct G4;

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
pub const CLASS_CACHE: (&str, &str) = (".godot/global_script_class_cache.cfg", "list=[]\n");

impl Kind for G4 {
    const NAME: &'static str = "Godot 4";
    const VERSION: &'static str = "4.4.1";
    const KIND: &'static str = "godot4";
    const DIALECT: Dialect = Dialect::Godot4;
    /// The only way to name the engine: CI unpacks it from the shared folder and sets it.
    const ENGINE_ENV: &'static str = "GODOT4_BIN";
    const DEFAULT_NAME: Option<&'static str> = None;
    const HOW_TO_GET: &'static str =
        "set GODOT4_BIN to a Godot 4.4 executable; .ci/run unpacks one from the shared folder";
    /// `read_bytes(path) -> PackedByteArray` (an empty array and an error line on stderr
    /// if the file cannot be opened), and the `_harness_write` behind `write_bytes` and
    /// `write_text` (`FileAccess`, Godot 4's file API).
    const GD_HELPERS: &'static str = r#"
func read_bytes(path):
	var f = FileAccess.open(path, FileAccess.READ)
	if f == null:
		printerr("read_bytes: cannot open ", path, ": error ", FileAccess.get_open_error())
		return PackedByteArray()
	var b = f.get_buffer(f.get_length())
	f.close()
	return b

func _harness_write(path, data, who):
	var f = FileAccess.open(path, FileAccess.WRITE)
	if f == null:
		var err = FileAccess.get_open_error()
		printerr(who, ": cannot open ", path, ": error ", err)
		return err
	if typeof(data) == TYPE_STRING:
		f.store_string(data)
	else:
		f.store_buffer(data)
	f.close()
	return OK
"#;
    const PROJECT_FILES: &'static [(&'static str, &'static str)] =
        &[("project.godot", PROJECT_GODOT), CLASS_CACHE];
    const RESERVED: &'static [&'static str] = &["project.godot", ".godot/", "user/"];
    /// The project names a custom user folder, `user/`; the engine's log goes there.
    const USER_DIR: &'static str = "user/";

    /// `--headless --path DIR -s SCRIPT`.
    fn script_args(dir: &Path, script: &str) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec!["--headless".into(), "--path".into()];
        args.push(dir.into());
        args.extend(["-s", script].map(OsString::from));
        args
    }

    fn installed() -> &'static Result<Godot4, String> {
        static ENGINE: Installed<G4> = Installed::new();
        ENGINE.get_or_init(godot::find)
    }
}
