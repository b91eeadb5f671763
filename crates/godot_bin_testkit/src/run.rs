//! What the Godot 3 and Godot 4 runners (`godot3.rs`, `godot4.rs`) share: finding an
//! executable, a fresh run directory per run, the script around the caller's body, running
//! the engine with a time limit, and [`RunResult`].
//!
//! The generated script (the same GDScript in both engines):
//!
//! ```text
//! extends SceneTree
//!
//! func _init():
//!     print("GODOT_BIN_HARNESS:START")
//!     _harness_body()
//!     quit()
//!
//! func _harness_body():
//!     <the caller's body, indented one tab>
//!     print("GODOT_BIN_HARNESS:END")
//!
//! <the engine's helper functions>
//! ```
//!
//! A GDScript runtime error aborts only the function it happens in and the caller goes on.
//! Were the body `_init` itself, `quit()` would never run and the engine would wait forever;
//! in `_harness_body` an error skips the end marker instead, which [`RunResult::completed`]
//! sees, and `_init` still quits.

use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Env var that, when set to `1`, keeps every run directory instead of deleting it.
pub const KEEP_ENV: &str = "GODOT_BIN_KEEP_TMP";

/// Default time limit for one engine run; the engine is killed after it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// File name of the generated GDScript inside the run directory (do not use it for inputs).
pub const SCRIPT_NAME: &str = "harness_script.gd";

/// Stdout line printed by the generated script before the body runs.
pub const START_MARKER: &str = "GODOT_BIN_HARNESS:START";

/// Stdout line printed by the generated script after the last line of the body.
pub const END_MARKER: &str = "GODOT_BIN_HARNESS:END";

/// Outcome of one engine run. The run directory is deleted when this is dropped,
/// except while panicking (its path is then printed) or with `GODOT_BIN_KEEP_TMP=1`.
#[derive(Debug)]
pub struct RunResult {
    /// Which engine ran ("Godot 3", "Godot 4"), for messages.
    pub engine: &'static str,
    /// Everything the engine wrote to stdout (banner included), lossily decoded as UTF-8.
    pub stdout: String,
    /// Everything the engine wrote to stderr, lossily decoded as UTF-8.
    pub stderr: String,
    /// Exit status; `None` if the engine was killed (timeout) or died by a signal.
    pub status: Option<i32>,
    /// The run directory: the script, the input files and what the script writes.
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
            panic!("{} run failed\n{}", self.engine, self.describe());
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
            "{} status: {:?}{}\ndir: {}\n--- stdout ---\n{}\n--- stderr ---\n{}\n--- end ---",
            self.engine,
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
                "{} harness: keeping run directory {}",
                self.engine,
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

/// Finds an engine: `$env_var` if set and not empty (a path, or a name looked up on
/// `PATH`), else `default_name` on `PATH` if there is one. `Err` says what was looked for.
pub fn find_engine(env_var: &str, default_name: Option<&str>) -> Result<PathBuf, String> {
    match std::env::var_os(env_var).filter(|v| !v.is_empty()) {
        Some(v) => resolve_executable(&v)
            .ok_or_else(|| format!("{env_var}={} is not an executable", v.to_string_lossy())),
        None => match default_name {
            Some(name) => resolve_executable(name.as_ref())
                .ok_or_else(|| format!("no {name} on PATH, {env_var} not set")),
            None => Err(format!("{env_var} not set")),
        },
    }
}

/// Resolves `name` to an executable file: as a path if it contains a `/`, else on `PATH`.
fn resolve_executable(name: &OsStr) -> Option<PathBuf> {
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

/// Creates a fresh run directory (named after `tag`) holding `files` and the script built
/// from `body` and `helpers` (see the module docs).
///
/// `files` names are relative paths (subdirectories are created) and must not be
/// [`SCRIPT_NAME`].
pub fn prepare(tag: &str, body: &str, helpers: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = fresh_dir(tag);
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
    fs::write(dir.join(SCRIPT_NAME), build_script(body, helpers))
        .unwrap_or_else(|e| panic!("cannot write the script into {}: {e}", dir.display()));
    dir
}

/// Runs `command` (the engine with its arguments) in `dir` with `HOME` and the XDG
/// folders set to `dir`, killing it after `timeout`.
pub fn run(
    engine: &'static str,
    mut command: Command,
    dir: PathBuf,
    timeout: Duration,
) -> RunResult {
    // Output goes to files rather than pipes: no reader threads, no pipe deadlock,
    // and the output survives in the directory when it is kept for debugging.
    let stdout_path = dir.join("harness_stdout.txt");
    let stderr_path = dir.join("harness_stderr.txt");
    let stdout_file = fs::File::create(&stdout_path).expect("cannot create stdout file");
    let stderr_file = fs::File::create(&stderr_path).expect("cannot create stderr file");

    let mut child = command
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
        .unwrap_or_else(|e| panic!("cannot start {engine} ({command:?}): {e}"));

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
            Err(e) => panic!("cannot wait for {engine}: {e}"),
        }
    };

    RunResult {
        engine,
        stdout: read_lossy(&stdout_path),
        stderr: read_lossy(&stderr_path),
        status: if timed_out { None } else { exit.code() },
        dir,
        timed_out,
    }
}

/// Builds the full GDScript source around `body` (see the module docs).
pub fn build_script(body: &str, helpers: &str) -> String {
    let mut script = String::from("extends SceneTree\n\n");
    script.push_str("func _init():\n");
    script.push_str(&format!("\tprint(\"{START_MARKER}\")\n"));
    script.push_str("\t_harness_body()\n");
    script.push_str("\tquit()\n\n");
    script.push_str("func _harness_body():\n");
    script.push_str(&dedent_and_indent(body));
    script.push_str(&format!("\tprint(\"{END_MARKER}\")\n"));
    script.push_str(helpers);
    script
}

/// Removes the common leading whitespace of the non-blank lines of `body`, rewrites the
/// indentation left with tabs (one per level; a level of spaces is the narrowest run of
/// leading spaces in the body) and indents every non-blank line by one more tab; blank
/// lines become empty. Tabs only: Godot 4 refuses a script that indents with both.
fn dedent_and_indent(body: &str) -> String {
    let is_indent = |b: &u8| *b == b' ' || *b == b'\t';
    let lines: Vec<&str> = body.lines().map(str::trim_end).collect();
    let common = lines
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| l.bytes().take_while(is_indent).count())
        .min()
        .unwrap_or(0);
    // Every non-blank line starts with at least `common` ASCII spaces/tabs.
    let rest = |l: &str| l[common.min(l.len())..].to_owned();
    let spaces_of = |l: &str| {
        l.bytes()
            .take_while(is_indent)
            .filter(|b| *b == b' ')
            .count()
    };
    let unit = lines
        .iter()
        .filter(|l| !l.is_empty())
        .map(|l| spaces_of(&rest(l)))
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(1);
    let mut out = String::new();
    for line in &lines {
        if !line.is_empty() {
            let line = rest(line);
            let indent = line.bytes().take_while(is_indent).count();
            let tabs = line[..indent].bytes().filter(|b| *b == b'\t').count();
            let levels = tabs + spaces_of(&line).div_ceil(unit);
            out.push_str(&"\t".repeat(1 + levels));
            out.push_str(&line[indent..]);
        }
        out.push('\n');
    }
    out
}

/// Creates a new, empty, uniquely named directory under the system temp dir.
fn fresh_dir(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    loop {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "godot_bin-{tag}-{}-{n}-{nanos}",
            std::process::id()
        ));
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
