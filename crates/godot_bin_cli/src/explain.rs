//! `godot-bin explain`: an annotated hex dump of the packet layer's own reading of a packet
//! (`godot_bin::explain`), so it shows exactly the fields decoding reads, up to the field a
//! refused packet fails at.

use godot_bin::explain::{explain, header_notes, Field, Value};
use godot_bin::{Config, Dialect};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Where and why the walk stopped.
pub struct ExplainError {
    /// Byte offset in the input.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

impl From<io::Error> for ExplainError {
    fn from(e: io::Error) -> Self {
        ExplainError {
            offset: 0,
            message: e.to_string(),
        }
    }
}

/// An open container, for naming its elements: `[3] `, `[3] key: `, `hp: `.
struct Frame {
    /// The depth of its elements.
    depth: usize,
    dictionary: bool,
    /// Headers seen at its depth so far.
    seen: usize,
    /// The name of the property whose value comes next (objects).
    property: Option<String>,
}

/// Explains the packet at the start of `bytes` (which start at `base` in the file) and
/// returns how many bytes it used.
pub fn packet(
    bytes: &[u8],
    base: usize,
    dialect: Dialect,
    out: &mut impl Write,
) -> Result<usize, ExplainError> {
    // Objects are explained, never instantiated: reading them in full is safe here.
    let walk = explain(bytes, &Config::new(dialect).allow_objects(true));
    let mut frames: Vec<Frame> = Vec::new();
    // The index of the next packed-array element.
    let mut element = 0;
    for f in &walk.fields {
        frames.retain(|fr| fr.depth <= f.depth);
        let note = match &f.value {
            Value::Header { ty, flags } => {
                let mut label = String::new();
                if let Some(fr) = frames.last_mut().filter(|fr| fr.depth == f.depth) {
                    if let Some(name) = fr.property.take() {
                        label = format!("{name}: ");
                    } else if fr.dictionary {
                        let what = if fr.seen % 2 == 0 { "key" } else { "value" };
                        label = format!("[{}] {what}: ", fr.seen / 2);
                    } else {
                        label = format!("[{}] ", fr.seen);
                    }
                    fr.seen += 1;
                }
                let id = dialect.type_id(*ty).unwrap_or_default();
                let mut notes = header_notes(*ty, *flags, dialect).join(", ");
                if !notes.is_empty() {
                    notes.insert_str(0, ", ");
                }
                format!("{label}{} header: type id {id}{notes}", ty.name_in(dialect))
            }
            Value::Components(parts) => {
                element += 1;
                let v = value_text(&Value::Components(parts.clone()), dialect);
                format!("[{}] = {v}", element - 1)
            }
            Value::Count(n, shared) => {
                element = 0;
                if matches!(f.label, "element count" | "entry count" | "property count") {
                    frames.push(Frame {
                        depth: f.depth + 1,
                        dictionary: f.label == "entry count",
                        seen: 0,
                        property: None,
                    });
                }
                let shared = if *shared { " (shared)" } else { "" };
                format!("{} = {n}{shared}", f.label)
            }
            Value::Text { text, raw } => {
                if f.label == "property" {
                    if let Some(fr) = frames.last_mut() {
                        fr.property = Some(text.clone());
                    }
                }
                text_note(f, text, *raw)
            }
            Value::Len(n) => format!("{} length = {n}", f.label),
            value => format!("{} = {}", f.label, value_text(value, dialect)),
        };
        line(out, bytes, base, f, &note)?;
    }
    match walk.error {
        None => Ok(walk.len),
        Some(e) => Err(ExplainError {
            offset: base + e.offset().unwrap_or(walk.len),
            message: strip_offset(&e.to_string()),
        }),
    }
}

/// The error's text without its own "at byte offset N" (the caller prints the offset in
/// the file).
fn strip_offset(message: &str) -> String {
    match message.rfind(" at byte offset ") {
        Some(at) => message[..at].to_owned(),
        None => message.to_owned(),
    }
}

/// A text field: its length word, or its bytes with what the engine makes of them.
fn text_note(f: &Field, text: &str, raw: usize) -> String {
    let shown = if text.chars().count() > 60 {
        format!("{:?}...", text.chars().take(60).collect::<String>())
    } else {
        format!("{text:?}")
    };
    let pad = f.len.saturating_sub(raw);
    let cut = if text.len() < raw {
        " (the engine's text ends at a NUL; the rest is ignored)"
    } else {
        ""
    };
    if pad > 0 {
        format!("{} {shown}{cut} (+{pad} padding)", f.label)
    } else {
        format!("{} {shown}{cut}", f.label)
    }
}

fn value_text(value: &Value, dialect: Dialect) -> String {
    match value {
        Value::Type(t) => format!(
            "{} ({})",
            dialect.type_id(*t).unwrap_or_default(),
            t.name_in(dialect)
        ),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f, true) => format!("{f:?}"),
        Value::Float(f, false) => format!("{:?}", *f as f32),
        Value::Len(n) => n.to_string(),
        Value::Flags(flags) => {
            let absolute = if flags & 1 != 0 { " (absolute)" } else { "" };
            format!("{flags}{absolute}")
        }
        Value::Id(id) => id.to_string(),
        Value::Bytes(n) => format!("{n} bytes"),
        Value::Components(parts) => {
            let parts: Vec<String> = parts.iter().map(|p| value_text(p, dialect)).collect();
            if parts.len() == 1 {
                parts[0].clone()
            } else {
                format!("({})", parts.join(", "))
            }
        }
        other => format!("{other:?}"),
    }
}

/// Prints a field's bytes, eight a row, with `note` on the first row.
fn line(
    out: &mut impl Write,
    bytes: &[u8],
    base: usize,
    f: &Field,
    note: &str,
) -> Result<(), ExplainError> {
    let end = (f.offset + f.len).min(bytes.len());
    let chunk = &bytes[f.offset.min(end)..end];
    // Headers sit at their depth, payload fields one step in.
    let indent = match f.value {
        Value::Header { .. } => f.depth,
        _ => f.depth + 1,
    };
    let pad = "  ".repeat(indent);
    if chunk.is_empty() {
        writeln!(out, "{:06x}  {:<24} {pad}{note}", base + f.offset, "")?;
    }
    for (i, row) in chunk.chunks(8).enumerate() {
        let mut hex = String::with_capacity(24);
        for b in row {
            let _ = write!(hex, "{b:02x} ");
        }
        let at = base + f.offset + i * 8;
        if i == 0 {
            writeln!(out, "{at:06x}  {hex:<24} {pad}{note}")?;
        } else {
            writeln!(out, "{at:06x}  {}", hex.trim_end())?;
        }
    }
    Ok(())
}
