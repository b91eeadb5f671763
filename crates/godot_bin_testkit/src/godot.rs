//! One harness for both real engines: finding one, running a GDScript body in a fresh run
//! directory, running a whole script of one's own. What differs between Godot 3 and
//! Godot 4 is a small table, the [`Kind`] trait, which `godot3.rs` and `godot4.rs`
//! implement with the facts of their engine; everything else is written once, here and in
//! `run.rs` (the run directory, the script around the body, the time limit, [`RunResult`]).
//!
//! ```ignore
//! fn prints_the_value(engine: &Godot3) {
//!     let res = godot3::run_script(engine, "print(\"OUT:\", var2str(1))", &[]);
//!     res.assert_ok();
//!     assert_eq!(res.line_with_prefix("OUT:"), "1");
//! }
//! ```
//!
//! `godot3::run_script` and `godot4::run_script` are this module's [`run_script`]; the
//! engine's type picks its table.

pub use super::run::RunResult;
use super::run::{self, DEFAULT_TIMEOUT};
use godot_bin::Dialect;
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

/// What one engine does differently: a marker type per engine implements it (`G3`, `G4`).
pub trait Kind: Sized + Send + Sync + 'static {
    /// The engine's name in messages: "Godot 3".
    const NAME: &'static str;
    /// The engine build the tests are checked against: "3.2.3".
    const VERSION: &'static str;
    /// The trial kind (`godot3`), which also names the engine in the run summary.
    const KIND: &'static str;
    /// The crate's dialect for this engine.
    const DIALECT: Dialect;
    /// The env var naming the engine (a path, or a name looked up on `PATH`).
    const ENGINE_ENV: &'static str;
    /// The executable looked up on `PATH` when the env var is not set, if any.
    const DEFAULT_NAME: Option<&'static str>;
    /// How to get the engine, for the message when it is missing.
    const HOW_TO_GET: &'static str;
    /// The GDScript of this engine's file API appended to every body's script (after
    /// [`GD_HELPERS`]): `read_bytes(path)`, and `_harness_write(path, data, who)`, which
    /// writes a String as UTF-8 or a byte array as it is and returns an `Error` code.
    const GD_HELPERS: &'static str;
    /// Files every run directory holds besides the caller's (a project, a class cache),
    /// as (relative path, contents).
    const PROJECT_FILES: &'static [(&'static str, &'static str)];
    /// Input names the caller may not use: exact names, or folders ending with `/`.
    const RESERVED: &'static [&'static str];
    /// Where `user://` lands, relative to the run directory (`""`: the directory itself).
    const USER_DIR: &'static str;

    /// The command-line arguments that run `script` (a file name in `dir`) in `dir`.
    fn script_args(dir: &Path, script: &str) -> Vec<OsString>;

    /// The engine, looked up once per run of the binary (each kind's own cell).
    fn installed() -> &'static Result<Godot<Self>, String>;
}

/// An engine of kind `K` found on this machine.
pub struct Godot<K> {
    path: PathBuf,
    kind: PhantomData<K>,
}

impl<K: Kind> Godot<K> {
    /// The engine's executable.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The engine's command line for running `script` (a file in `dir`) with `dir` as its
    /// project or working directory; append `--` and arguments for the script.
    pub fn command(&self, dir: &Path, script: &str) -> Command {
        let mut command = Command::new(&self.path);
        command.args(K::script_args(dir, script));
        command
    }
}

impl<K> Clone for Godot<K> {
    fn clone(&self) -> Self {
        Godot {
            path: self.path.clone(),
            kind: PhantomData,
        }
    }
}

impl<K: Kind> fmt::Debug for Godot<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", K::NAME, self.path.display())
    }
}

/// Finds the engine of kind `K`: `$ENGINE_ENV` if set (a path, or a name looked up on
/// `PATH`), else its default name on `PATH` if it has one. `Err` says what was looked for;
/// `support::engine` turns it into an ignored (or, in CI, failed) trial.
pub fn find<K: Kind>() -> Result<Godot<K>, String> {
    run::find_engine(K::ENGINE_ENV, K::DEFAULT_NAME).map(|path| Godot {
        path,
        kind: PhantomData,
    })
}

/// GDScript helper functions of every body's script, written once for both engines on
/// the engine's own [`Kind::GD_HELPERS`]:
///
/// * `read_bytes(path) -> PoolByteArray / PackedByteArray` (an empty array and an error
///   line on stderr if the file cannot be opened),
/// * `write_bytes(path, bytes) -> int` (an `Error` code, `OK` == 0),
/// * `write_text(path, text: String) -> int` (UTF-8, no newline added; use it for the
///   text form, which can span several lines).
pub const GD_HELPERS: &str = r#"
func write_bytes(path, bytes):
	return _harness_write(path, bytes, "write_bytes")

func write_text(path, text):
	return _harness_write(path, text, "write_text")
"#;

/// The cell a [`Kind::installed`] keeps its engine in.
pub type Installed<K> = OnceLock<Result<Godot<K>, String>>;

/// Runs `script_body` in the engine with the default 60 s time limit; see
/// [`run_script_with_timeout`].
pub fn run_script<K: Kind>(
    engine: &Godot<K>,
    script_body: &str,
    files: &[(&str, &[u8])],
) -> RunResult {
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
///   (subdirectories are created) and must not be `harness_script.gd` nor one of the
///   engine's [`Kind::RESERVED`] names.
/// * The script sees the run directory as cwd and `res://` (and `user://` as
///   [`Kind::USER_DIR`] in it), so it reads and writes files by relative path
///   (`"out.bin"`) or `"res://out.bin"`; read its outputs with [`RunResult::read_file`].
/// * The engine runs with cwd, `HOME` and the XDG folders set to the run directory and
///   `LANG=en_US.UTF-8`; it is killed after `timeout`.
pub fn run_script_with_timeout<K: Kind>(
    engine: &Godot<K>,
    script_body: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> RunResult {
    for (name, _) in files {
        assert!(
            !K::RESERVED
                .iter()
                .any(|r| name == r || (r.ends_with('/') && name.starts_with(r))),
            "input file name {name:?} is reserved for the {} project",
            K::NAME
        );
    }
    let helpers = format!("{GD_HELPERS}{}", K::GD_HELPERS);
    let dir = prepare::<K>(script_body, &helpers, files);
    let command = engine.command(&dir, run::SCRIPT_NAME);
    run::run(K::NAME, command, dir, timeout)
}

/// Runs a whole `extends SceneTree` script of its own (an example's client, say) rather
/// than a body in the harness's script: `script` is its file name and source, written into
/// a fresh run directory as [`run_script_with_timeout`] makes one, and `args` follow `--`
/// on the command line (Godot 4 scripts read them with `OS.get_cmdline_user_args()`,
/// Godot 3 ones find them after `"--"` in `OS.get_cmdline_args()`). The script decides
/// when to quit; the engine is killed after `timeout`. The harness's markers are not
/// printed, so judge the run by its status and its own output, not by
/// [`RunResult::assert_ok`].
pub fn run_script_file<K: Kind>(
    engine: &Godot<K>,
    script: (&str, &str),
    args: &[&str],
    timeout: Duration,
) -> RunResult {
    let (name, source) = script;
    let dir = prepare::<K>("pass", "", &[(name, source.as_bytes())]);
    let mut command = engine.command(&dir, name);
    command.arg("--").args(args);
    run::run(K::NAME, command, dir, timeout)
}

/// A fresh run directory with the script, `files` and the engine's project files.
fn prepare<K: Kind>(body: &str, helpers: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let tag = K::KIND.replace("godot", "g");
    let dir = run::prepare(&tag, body, helpers, files);
    for (name, contents) in K::PROJECT_FILES {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        fs::write(&path, contents)
            .unwrap_or_else(|e| panic!("cannot write {name} into {}: {e}", dir.display()));
    }
    dir
}
