//! The per project and form tables the checks print.

use std::collections::BTreeMap;
use std::fmt::Write;

/// Counts by (project, form), in named columns.
pub struct Table {
    title: String,
    columns: Vec<&'static str>,
    rows: BTreeMap<(String, String), Vec<u64>>,
}

impl Table {
    pub fn new(title: impl Into<String>, columns: &[&'static str]) -> Table {
        Table {
            title: title.into(),
            columns: columns.to_vec(),
            rows: BTreeMap::new(),
        }
    }

    /// Adds one to `column` of (project, form).
    pub fn add(&mut self, project: &str, form: &str, column: &str) {
        self.add_n(project, form, column, 1);
    }

    /// Adds `count` to `column` of (project, form).
    pub fn add_n(&mut self, project: &str, form: &str, column: &str, count: usize) {
        let n = self.columns.len();
        let i = self
            .columns
            .iter()
            .position(|c| *c == column)
            .unwrap_or_else(|| panic!("no column {column:?} in table {:?}", self.title));
        self.rows
            .entry((project.to_string(), form.to_string()))
            .or_insert_with(|| vec![0; n])[i] += count as u64;
    }

    /// The table as aligned text: a row per project and form, then a row per form over
    /// every project, then the grand total.
    pub fn render(&self) -> String {
        let mut by_form: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        for ((_, form), counts) in &self.rows {
            let slot = by_form
                .entry(form.clone())
                .or_insert_with(|| vec![0; counts.len()]);
            slot.iter_mut().zip(counts).for_each(|(s, c)| *s += c);
        }
        let mut lines: Vec<Vec<String>> = Vec::new();
        let mut head = vec!["project".to_string(), "form".to_string()];
        head.extend(self.columns.iter().map(|c| c.to_string()));
        lines.push(head);
        for ((project, form), counts) in &self.rows {
            let mut l = vec![project.clone(), form.clone()];
            l.extend(counts.iter().map(u64::to_string));
            lines.push(l);
        }
        let mut all = vec![0; self.columns.len()];
        for (form, counts) in &by_form {
            let mut l = vec!["(all projects)".to_string(), form.clone()];
            l.extend(counts.iter().map(u64::to_string));
            all.iter_mut().zip(counts).for_each(|(s, c)| *s += c);
            lines.push(l);
        }
        let mut l = vec!["(all projects)".to_string(), "(all forms)".to_string()];
        l.extend(all.iter().map(u64::to_string));
        lines.push(l);
        let widths: Vec<usize> = (0..lines[0].len())
            .map(|i| {
                lines
                    .iter()
                    .map(|l| l[i].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let mut out = format!("\n== {} ==\n", self.title);
        for l in &lines {
            let cells: Vec<String> = l
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| {
                    if i < 2 {
                        format!("{c:<w$}")
                    } else {
                        format!("{c:>w$}")
                    }
                })
                .collect();
            let _ = writeln!(out, "{}", cells.join(" | ").trim_end());
        }
        out
    }
}
