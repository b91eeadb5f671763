//! Harness for running the real Godot 3 engine (`godot3-server`, Debian
//! package `godot3-server`, engine 3.2.3) headless from integration tests.
//!
//! Typical use:
//!
//! ```ignore
//! let Some(engine) = godot3::engine() else { return };
//! let res = godot3::run_script(
//!     &engine,
//!     r#"
//!     var v = bytes2var(read_bytes("in.bin"))
//!     write_text("out.txt", var2str(v))
//!     "#,
//!     &[("in.bin", &bytes)],
//! );
//! res.assert_ok();
//! let text = res.read_string("out.txt");
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
//!   the GDScript function it happens in; the caller continues. If that
//!   function were `_init` itself, `quit()` would never run and the engine
//!   would hang forever. The harness therefore runs the caller's code in a
//!   separate function, calls `quit()` from `_init` afterwards, and prints
//!   an end marker as the body's last statement so a run whose body was
//!   aborted is visible through [`RunResult::completed`]. A parse error
//!   makes the engine exit with status 0 without running anything (no start
//!   marker; `completed()` is false).
//! * `quit(n)` sets the exit status (visible as [`RunResult::status`]).
use std::fs;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Name of the executable looked up on `PATH`.
pub const ENGINE_NAME: &str = "godot3-server";

/// Env var naming the engine explicitly (a path, or a name looked up on `PATH`).
pub const ENGINE_ENV: &str = "GODOT3_BIN";

/// Env var that, when set to `1`, turns a missing engine into a panic (used by CI).
pub const REQUIRE_ENV: &str = "GODOT_BIN_REQUIRE_ENGINE";

/// Env var that, when set to `1`, keeps every run directory instead of deleting it.
pub const KEEP_ENV: &str = "GODOT_BIN_KEEP_TMP";

/// Default time limit for one engine run; the engine is killed after it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// File name of the generated GDScript inside the run directory (do not use it for inputs).
pub const SCRIPT_NAME: &str = "harness_script.gd";

/// Stdout line printed by the generated script before the body runs.
pub const START_MARKER: &str = "GODOT3_HARNESS:START";

/// Stdout line printed by the generated script after the last line of the body.
pub const END_MARKER: &str = "GODOT3_HARNESS:END";

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

/// Finds the Godot 3 engine: `$GODOT3_BIN` if set (a path, or a name looked up on
/// `PATH`), else `godot3-server` on `PATH`.
///
/// When it is not found this returns `None` after printing
/// `engine tests skipped: godot3-server not found` to stderr (uncaptured, so it shows
/// even for passing tests), unless `GODOT_BIN_REQUIRE_ENGINE=1`, in which case it panics.
pub fn engine() -> Option<PathBuf> {
    let (wanted, found) = match std::env::var_os(ENGINE_ENV).filter(|v| !v.is_empty()) {
        Some(v) => {
            let shown = format!("{ENGINE_ENV}={}", v.to_string_lossy());
            (shown, resolve_executable(&v))
        }
        None => (
            ENGINE_NAME.to_string(),
            resolve_executable(ENGINE_NAME.as_ref()),
        ),
    };
    if found.is_some() {
        return found;
    }
    if std::env::var_os(REQUIRE_ENV).is_some_and(|v| v == "1") {
        panic!(
            "{wanted} not found, and {REQUIRE_ENV}=1 requires the Godot 3 engine \
             (install it with `apt-get install -y godot3-server`, or set {ENGINE_ENV})"
        );
    }
    // Written to the real stderr, not via `eprintln!`, so that the test harness's
    // output capture does not hide the notice from a passing test.
    let _ = writeln!(
        std::io::stderr(),
        "engine tests skipped: {wanted} not found"
    );
    None
}

/// Resolves `name` to an executable file: as a path if it contains a `/`, else on `PATH`.
fn resolve_executable(name: &std::ffi::OsStr) -> Option<PathBuf> {
    let as_path = Path::new(name);
    if as_path.components().count() > 1 || as_path.is_absolute() {
        return is_executable(as_path).then(|| as_path.to_path_buf());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

/// Whether `path` is a regular file that can be executed.
fn is_executable(path: &Path) -> bool {
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Outcome of one engine run. The run directory is deleted when this is dropped,
/// except while panicking (its path is then printed) or with `GODOT_BIN_KEEP_TMP=1`.
#[derive(Debug)]
pub struct RunResult {
    /// Everything the engine wrote to stdout (banner included), lossily decoded as UTF-8.
    pub stdout: String,
    /// Everything the engine wrote to stderr, lossily decoded as UTF-8.
    pub stderr: String,
    /// Exit status; `None` if the engine was killed (timeout) or died by a signal.
    pub status: Option<i32>,
    /// The run directory: cwd, `HOME`, `res://` and `user://` of the run.
    pub dir: PathBuf,
    /// Whether the engine was killed because it exceeded the time limit.
    pub timed_out: bool,
}

impl RunResult {
    /// Stdout lines that start with `prefix`, with the prefix stripped (and any trailing `\r`).
    pub fn lines_with_prefix(&self, prefix: &str) -> Vec<String> {
        self.stdout
            .lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .map(|rest| rest.trim_end_matches('\r').to_string())
            .collect()
    }

    /// The single stdout line starting with `prefix` (prefix stripped); panics with the
    /// full run output if there is not exactly one.
    pub fn line_with_prefix(&self, prefix: &str) -> String {
        let mut lines = self.lines_with_prefix(prefix);
        if lines.len() != 1 {
            panic!(
                "expected exactly one stdout line starting with {prefix:?}, found {}\n{}",
                lines.len(),
                self.describe()
            );
        }
        lines.remove(0)
    }

    /// Whether the script started and its body ran to its last line (no script error
    /// aborted it, no parse error, no early `return` in the body).
    pub fn completed(&self) -> bool {
        let mut lines = self.stdout.lines().map(|l| l.trim_end_matches('\r'));
        lines.any(|l| l == START_MARKER) && lines.any(|l| l == END_MARKER)
    }

    /// Stderr lines starting with `SCRIPT ERROR:` (GDScript runtime and parse errors).
    pub fn script_errors(&self) -> Vec<String> {
        self.stderr
            .lines()
            .filter(|l| l.starts_with("SCRIPT ERROR:"))
            .map(str::to_string)
            .collect()
    }

    /// Panics with the full run output unless the run exited with status 0 in time,
    /// the body completed and stderr has no `SCRIPT ERROR:` line.
    pub fn assert_ok(&self) {
        let ok = !self.timed_out
            && self.status == Some(0)
            && self.completed()
            && self.script_errors().is_empty();
        if !ok {
            panic!("Godot 3 run failed\n{}", self.describe());
        }
    }

    /// Path of `name` inside the run directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Contents of the file `name` (relative to the run directory); panics with the run
    /// output if it cannot be read.
    pub fn read_file(&self, name: &str) -> Vec<u8> {
        fs::read(self.path(name))
            .unwrap_or_else(|e| panic!("cannot read {name} from the run: {e}\n{}", self.describe()))
    }

    /// Contents of the UTF-8 text file `name` (relative to the run directory); panics
    /// with the run output if it cannot be read or is not UTF-8.
    pub fn read_string(&self, name: &str) -> String {
        String::from_utf8(self.read_file(name))
            .unwrap_or_else(|e| panic!("{name} is not UTF-8: {e}\n{}", self.describe()))
    }

    /// A human-readable dump of the run (status, dir, stdout, stderr) for panic messages.
    pub fn describe(&self) -> String {
        format!(
            "status: {:?}{}\ndir: {}\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- end ---",
            self.status,
            if self.timed_out {
                " (killed: timeout)"
            } else {
                ""
            },
            self.dir.display(),
            self.stdout,
            self.stderr
        )
    }
}

impl Drop for RunResult {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "godot3 harness: keeping run directory {}",
                self.dir.display()
            );
            return;
        }
        if std::env::var_os(KEEP_ENV).is_some_and(|v| v == "1") {
            return;
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// Runs `script_body` in the engine with the default 60 s time limit; see
/// [`run_script_with_timeout`].
pub fn run_script(engine: &Path, script_body: &str, files: &[(&str, &[u8])]) -> RunResult {
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
///   (subdirectories are created) and must not be [`SCRIPT_NAME`] or under `logs/`.
/// * The script sees the run directory as cwd, `res://` and `user://`, so it should
///   read and write files by relative path (`"out.bin"`), `"res://out.bin"` or
///   the absolute path; read its outputs with [`RunResult::read_file`].
/// * The engine runs as `ENGINE --no-window -s harness_script.gd` with cwd and `HOME`
///   set to the run directory and `LANG=en_US.UTF-8`; it is killed after `timeout`.
pub fn run_script_with_timeout(
    engine: &Path,
    script_body: &str,
    files: &[(&str, &[u8])],
    timeout: Duration,
) -> RunResult {
    let dir = fresh_dir();
    for (name, contents) in files {
        let rel = Path::new(name);
        assert!(
            !name.is_empty()
                && rel
                    .components()
                    .all(|c| matches!(c, Component::Normal(_) | Component::CurDir)),
            "input file name must be a relative path without `..`: {name:?}"
        );
        assert!(
            *name != SCRIPT_NAME,
            "input file name {name:?} is reserved for the script"
        );
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)
                .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
        }
        fs::write(&path, contents)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
    fs::write(dir.join(SCRIPT_NAME), build_script(script_body))
        .unwrap_or_else(|e| panic!("cannot write the script into {}: {e}", dir.display()));

    // Output goes to files rather than pipes: no reader threads, no pipe deadlock,
    // and the output survives in the directory when it is kept for debugging.
    let stdout_path = dir.join("harness_stdout.txt");
    let stderr_path = dir.join("harness_stderr.txt");
    let stdout_file = fs::File::create(&stdout_path).expect("cannot create stdout file");
    let stderr_file = fs::File::create(&stderr_path).expect("cannot create stderr file");

    let mut child = Command::new(engine)
        .arg("--no-window")
        .arg("-s")
        .arg(SCRIPT_NAME)
        .current_dir(&dir)
        .env("HOME", &dir)
        .env("XDG_DATA_HOME", &dir)
        .env("XDG_CONFIG_HOME", &dir)
        .env("XDG_CACHE_HOME", &dir)
        .env("LANG", "en_US.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::from(stdout_file))
        .stderr(Stdio::from(stderr_file))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", engine.display()));

    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let exit = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().expect("cannot wait for the killed engine");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => panic!("cannot wait for {}: {e}", engine.display()),
        }
    };

    RunResult {
        stdout: read_lossy(&stdout_path),
        stderr: read_lossy(&stderr_path),
        status: if timed_out { None } else { exit.code() },
        dir,
        timed_out,
    }
}

/// Builds the full GDScript source around `body` (see [`run_script_with_timeout`]).
pub fn build_script(body: &str) -> String {
    let mut script = String::from("extends SceneTree\n\n");
    script.push_str("func _init():\n");
    script.push_str(&format!("\tprint(\"{START_MARKER}\")\n"));
    script.push_str("\t_harness_body()\n");
    script.push_str("\tquit()\n\n");
    script.push_str("func _harness_body():\n");
    script.push_str(&dedent_and_indent(body));
    script.push_str(&format!("\tprint(\"{END_MARKER}\")\n"));
    script.push_str(GD_HELPERS);
    script
}

/// Removes the common leading whitespace of the non-blank lines of `body` and indents
/// every non-blank line by one tab; blank lines become empty.
fn dedent_and_indent(body: &str) -> String {
    let common = body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.bytes().take_while(|b| *b == b' ' || *b == b'\t').count())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for line in body.lines() {
        let line = line.trim_end();
        if !line.is_empty() {
            out.push('\t');
            // Every non-blank line starts with at least `common` ASCII spaces/tabs.
            out.push_str(&line[common.min(line.len())..]);
        }
        out.push('\n');
    }
    out
}

/// Creates a new, empty, uniquely named directory under the system temp dir.
fn fresh_dir() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    loop {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("godot_bin-g3-{}-{n}-{nanos}", std::process::id()));
        match fs::create_dir(&dir) {
            Ok(()) => return dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => panic!("cannot create run directory {}: {e}", dir.display()),
        }
    }
}

/// Reads a whole file as lossily decoded UTF-8 (empty if it cannot be read).
fn read_lossy(path: &Path) -> String {
    let mut bytes = Vec::new();
    if let Ok(mut f) = fs::File::open(path) {
        let _ = f.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
