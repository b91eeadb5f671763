//! Real Godot projects written by others, through the crate (issue 41, "Real files in the
//! tests"): every file of the corpus (README.md beside this file) rewritten byte for byte,
//! its `reprint()` read back to the same values, and every text resource and scene taken
//! to binary and back (every binary one to text and back) with each attribute and property
//! compared, what changed matched against the conversion's issues.
//!
//! The corpus is not in the repository: the tests read it from `GODOT_BIN_CORPUS` (default
//! `../shared/corpus` beside the checkout) and report themselves ignored when it is absent.
//! Each file read is checked against `MANIFEST.tsv` (size and SHA-256) first; a file that
//! differs fails the run. `GODOT_BIN_CORPUS_PROJECTS=dir,dir` limits a run to some projects.
//! Each check prints its counts per project and form.

// Shared with the engine tests (`tests/engine/corpus`), which use all of it.
#[allow(dead_code)]
mod compare;
mod files;
mod node_ids;
mod table;

use compare::{compare_binary, compare_config, compare_text, issue_names, Diff};
use files::{corpus, files, form, kind_of, sha256, Corpus, Entry, Kind};
use godot_bin_files::{BinaryResource, ConfigFile, Issue, TextResource};
use libtest_mimic::{Completion, Failed, Trial};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use table::Table;

fn print(s: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}

/// A list of failures, shown up to `n` of them.
fn listing(title: &str, items: &[String], n: usize) -> String {
    let mut s = format!("{title}: {}\n", items.len());
    for i in items.iter().take(n) {
        s.push_str("  ");
        s.push_str(i);
        s.push('\n');
    }
    if items.len() > n {
        s.push_str(&format!("  ... and {} more\n", items.len() - n));
    }
    s
}

fn trial(name: &str, check: fn(&Corpus) -> Result<(), Failed>) -> Trial {
    Trial::ignorable_test(format!("corpus::{name}"), move || match corpus() {
        Ok(c) => check(c).map(|()| Completion::Completed),
        Err(why) => Ok(Completion::ignored_with(why)),
    })
}

fn main() {
    let args = libtest_mimic::Arguments::from_args();
    let trials = vec![
        Trial::test("corpus::sha256_vectors", || {
            sha256::self_test().map_err(Failed::from)
        }),
        trial("manifest", manifest),
        trial("rewrite_identical", rewrite_identical),
        trial("reprint_same_values", reprint_same_values),
        trial("text_binary_text", text_binary_text),
        trial("binary_text_binary", binary_text_binary),
        Trial::test("corpus::node_ids_scan", || {
            node_ids::scan_self_test().map_err(Failed::from)
        }),
        trial("node_ids_46", node_ids::node_ids_46),
    ];
    libtest_mimic::run(&args, trials).exit();
}

/// Every file the manifest records is there and is the recorded one (size, SHA-256); the
/// project folders hold no file it does not record.
fn manifest(c: &Corpus) -> Result<(), Failed> {
    let mut t = Table::new(
        format!(
            "corpus {} (manifest: {} projects)",
            c.root.display(),
            c.projects.len()
        ),
        &["files", "recorded", "differ"],
    );
    let mut bad = Vec::new();
    let mut recorded: BTreeSet<PathBuf> = BTreeSet::new();
    for e in &c.files {
        let f = match kind_of(&e.path) {
            Some(_) => form(e, b""),
            None => "license/other",
        };
        t.add(&e.dir, f, "files");
        recorded.insert(c.path(e));
        match c.read(e) {
            Ok(_) => t.add(&e.dir, f, "recorded"),
            Err(err) => {
                t.add(&e.dir, f, "differ");
                bad.push(err);
            }
        }
    }
    let mut extra = Vec::new();
    for p in &c.projects {
        walk(&c.root.join(&p.dir), &mut |path| {
            if !recorded.contains(path) {
                extra.push(path.display().to_string());
            }
        });
    }
    let mut out = t.render();
    for p in &c.projects {
        out.push_str(&format!(
            "  {}: {} @ {} ({}; {})\n",
            p.dir,
            p.repo,
            &p.commit[..10.min(p.commit.len())],
            p.license,
            p.engine
        ));
    }
    print(&out);
    if bad.is_empty() && extra.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            listing("files that are not the recorded ones", &bad, 20),
            listing("files the manifest does not record", &extra, 20)
        )
        .into())
    }
}

fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in rd.flatten() {
        let p = entry.path();
        if p.is_dir() {
            walk(&p, f);
        } else {
            f(&p);
        }
    }
}

/// The first line where two byte strings differ, both sides, for a failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let line = a[..i].iter().filter(|&&c| c == b'\n').count() + 1;
    let start = a[..i]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1);
    let end = |s: &[u8]| {
        let rest = &s[start.min(s.len())..];
        let n = rest
            .iter()
            .position(|&c| c == b'\n')
            .unwrap_or(rest.len())
            .min(120);
        String::from_utf8_lossy(&rest[..n]).into_owned()
    };
    format!("byte {i}, line {line}: {:?} became {:?}", end(a), end(b))
}

/// Every file read and written back unchanged is byte for byte the file.
fn rewrite_identical(c: &Corpus) -> Result<(), Failed> {
    let mut t = Table::new(
        "rewritten byte-identical",
        &["files", "identical", "differ", "unreadable"],
    );
    let mut bad = Vec::new();
    for (e, kind, f, bytes) in files(c)? {
        let out: Result<Vec<u8>, String> = match kind {
            Kind::Config => ConfigFile::from_bytes(&bytes)
                .map(|x| x.to_string().into_bytes())
                .map_err(|x| x.to_string()),
            Kind::Text => TextResource::from_bytes(&bytes)
                .map(|x| x.to_string().into_bytes())
                .map_err(|x| x.to_string()),
            Kind::Binary => BinaryResource::from_bytes(&bytes)
                .and_then(|x| x.to_bytes())
                .map_err(|x| x.to_string()),
        };
        t.add(&e.dir, f, "files");
        match out {
            Ok(o) if o == bytes => t.add(&e.dir, f, "identical"),
            Ok(o) => {
                t.add(&e.dir, f, "differ");
                bad.push(format!(
                    "{}/{}: {}",
                    e.dir,
                    e.path,
                    first_difference(&bytes, &o)
                ));
            }
            Err(err) => {
                t.add(&e.dir, f, "unreadable");
                bad.push(format!("{}/{}: {err}", e.dir, e.path));
            }
        }
    }
    print(&t.render());
    if bad.is_empty() {
        Ok(())
    } else {
        Err(listing("files not rewritten byte-identical", &bad, 40).into())
    }
}

/// Every text file printed anew (`reprint`) reads back to the same sections, attributes
/// and values.
fn reprint_same_values(c: &Corpus) -> Result<(), Failed> {
    let mut t = Table::new(
        "reprint() read back",
        &["files", "same", "differ", "unreadable"],
    );
    let mut bad = Vec::new();
    for (e, kind, f, bytes) in files(c)? {
        let diffs: Result<Vec<Diff>, String> = match kind {
            Kind::Config => (|| {
                let a = ConfigFile::from_bytes(&bytes)?;
                let mut r = a.clone();
                r.reprint();
                let b = ConfigFile::parse(&r.to_string())?;
                Ok(compare_config(&a, &b))
            })()
            .map_err(|x: godot_bin_files::Error| x.to_string()),
            Kind::Text => (|| {
                let a = TextResource::from_bytes(&bytes)?;
                let mut r = a.clone();
                r.reprint();
                let b = TextResource::parse(&r.to_string())?;
                Ok(compare_text(&a, &b))
            })()
            .map_err(|x: godot_bin_files::Error| x.to_string()),
            Kind::Binary => continue,
        };
        t.add(&e.dir, f, "files");
        match diffs {
            Ok(d) if d.is_empty() => t.add(&e.dir, f, "same"),
            Ok(d) => {
                t.add(&e.dir, f, "differ");
                for x in d.iter().take(3) {
                    bad.push(format!("{}/{}: {x}", e.dir, e.path));
                }
            }
            Err(err) => {
                t.add(&e.dir, f, "unreadable");
                bad.push(format!("{}/{}: {err}", e.dir, e.path));
            }
        }
    }
    print(&t.render());
    if bad.is_empty() {
        Ok(())
    } else {
        Err(listing("reprinted files that read back to other values", &bad, 40).into())
    }
}

/// How one conversion went, what its table counts.
struct Outcome {
    /// Changes that lose nothing the engine loads.
    equivalent: Vec<Diff>,
    /// Changes the issues name.
    named: Vec<Diff>,
    /// Changes no issue names: a silent loss.
    silent: Vec<Diff>,
    issues: Vec<Issue>,
}

fn judge(diffs: Vec<Diff>, issues: Vec<Issue>) -> Outcome {
    let (equivalent, diffs): (Vec<Diff>, Vec<Diff>) =
        diffs.into_iter().partition(|d| d.equivalent.is_some());
    let (named, silent) = diffs
        .into_iter()
        .partition(|d| issues.iter().any(|i| issue_names(i, d)));
    Outcome {
        equivalent,
        named,
        silent,
        issues,
    }
}

const CONVERT_COLUMNS: &[&str] = &[
    "files",
    "clean",
    "equivalent only",
    "issues, all named",
    "silent loss",
    "refused",
];

/// The counts of one conversion, and the lists the failure shows.
struct Tally {
    title: String,
    table: Table,
    silent: Vec<String>,
    refused: Vec<String>,
    issues: BTreeMap<String, usize>,
    equivalent: BTreeMap<&'static str, usize>,
}

impl Tally {
    fn new(title: &str) -> Tally {
        Tally {
            title: title.to_string(),
            table: Table::new(title, CONVERT_COLUMNS),
            silent: Vec::new(),
            refused: Vec::new(),
            issues: BTreeMap::new(),
            equivalent: BTreeMap::new(),
        }
    }

    fn count(&mut self, e: &Entry, f: &str, outcome: Result<Outcome, String>) {
        let at = format!("{}/{}", e.dir, e.path);
        self.table.add(&e.dir, f, "files");
        let o = match outcome {
            Ok(o) => o,
            Err(err) => {
                self.table.add(&e.dir, f, "refused");
                self.refused.push(format!("{at}: {err}"));
                return;
            }
        };
        for i in &o.issues {
            // Grouped by what the message says, its numbers and names left out.
            let key: String = i
                .message
                .chars()
                .take(70)
                .filter(|c| !c.is_ascii_digit())
                .collect();
            *self.issues.entry(key).or_default() += 1;
        }
        for d in &o.equivalent {
            *self
                .equivalent
                .entry(d.equivalent.unwrap_or(""))
                .or_default() += 1;
        }
        for d in &o.silent {
            self.silent.push(format!("{at}: {d}"));
        }
        let col = if !o.silent.is_empty() {
            "silent loss"
        } else if o.named.is_empty() && o.issues.is_empty() && o.equivalent.is_empty() {
            "clean"
        } else if o.named.is_empty() && o.issues.is_empty() {
            "equivalent only"
        } else {
            "issues, all named"
        };
        self.table.add(&e.dir, f, col);
    }

    fn finish(self) -> Result<(), Failed> {
        let mut out = self.table.render();
        out.push_str("changes that lose nothing the engine loads:\n");
        for (k, n) in &self.equivalent {
            out.push_str(&format!("  {n:>6}  {k}\n"));
        }
        out.push_str("issues reported (by message):\n");
        for (k, n) in &self.issues {
            out.push_str(&format!("  {n:>6}  {k}\n"));
        }
        out.push_str(&listing("silent losses", &self.silent, 60));
        out.push_str(&listing("refused", &self.refused, 20));
        print(&out);
        write_report(&self.title, &out, &self.silent);
        let mut msg = String::new();
        if !self.silent.is_empty() {
            msg.push_str(&listing(
                "changes no issue names (silent losses)",
                &self.silent,
                40,
            ));
        }
        if !self.refused.is_empty() {
            msg.push_str(&listing("conversions refused", &self.refused, 20));
        }
        if msg.is_empty() {
            Ok(())
        } else {
            Err(msg.into())
        }
    }
}

/// Each `.tscn` / `.tres` to binary (as bytes, read back) and to text again: every
/// attribute and property compared with the original's, what changed matched against the
/// issues of both conversions.
fn text_binary_text(c: &Corpus) -> Result<(), Failed> {
    let mut tally = Tally::new("text -> binary -> text");
    for (e, kind, f, bytes) in files(c)? {
        if kind != Kind::Text {
            continue;
        }
        let outcome = (|| -> Result<Outcome, godot_bin_files::Error> {
            let mut a = TextResource::from_bytes(&bytes)?;
            a.set_res_path(c.res_path(e).as_deref());
            let bin = a.to_binary()?;
            let back = BinaryResource::from_bytes(&bin.file.to_bytes()?)?;
            let text = back.to_text()?;
            let b = TextResource::parse(&text.file.to_string())?;
            let mut issues = bin.issues;
            issues.extend(text.issues);
            Ok(judge(compare_text(&a, &b), issues))
        })()
        .map_err(|x| x.to_string());
        tally.count(e, f, outcome);
    }
    tally.finish()
}

/// Each `.scn` / `.res` to text (as text, read back) and to binary again: the header, the
/// external table, every internal resource's properties (a scene's `_bundled` key by key)
/// compared.
fn binary_text_binary(c: &Corpus) -> Result<(), Failed> {
    let mut tally = Tally::new("binary -> text -> binary");
    for (e, kind, f, bytes) in files(c)? {
        if kind != Kind::Binary {
            continue;
        }
        let outcome = (|| -> Result<Outcome, godot_bin_files::Error> {
            let a = BinaryResource::from_bytes(&bytes)?;
            let text = a.to_text()?;
            let mut t = TextResource::parse(&text.file.to_string())?;
            t.set_res_path(c.res_path(e).as_deref());
            let bin = t.to_binary()?;
            let b = BinaryResource::from_bytes(&bin.file.to_bytes()?)?;
            let mut issues = text.issues;
            issues.extend(bin.issues);
            Ok(judge(compare_binary(&a, &b), issues))
        })()
        .map_err(|x| x.to_string());
        tally.count(e, f, outcome);
    }
    tally.finish()
}

/// With `GODOT_BIN_CORPUS_REPORT=<folder>`, a check's table and its whole list go to a
/// file there (the output shows the first few).
fn write_report(title: &str, table: &str, items: &[String]) {
    let Some(dir) = std::env::var_os("GODOT_BIN_CORPUS_REPORT") else {
        return;
    };
    let name: String = title
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let mut text = table.to_string();
    for i in items {
        text.push_str(i);
        text.push('\n');
    }
    let _ = std::fs::write(Path::new(&dir).join(format!("{name}.txt")), text);
}
