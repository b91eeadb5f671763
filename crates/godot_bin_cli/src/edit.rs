//! `godot-bin get` and `set`: one value of a scene, a resource, a ConfigFile or a save, by
//! where it is (issue 39 #3).
//!
//! A text file (`.tscn`, `.tres`, a ConfigFile) changes by the one line of the value (the
//! document model prints the rest as it was read); a binary resource, an encrypted
//! ConfigFile and a save are written again in the form they were read in (compression,
//! container, key, engine), a save's other values byte for byte; a binary scene is rebuilt
//! from its text when that text carries all of it.

use crate::change::{type_note, Change};
use crate::edit_save::{save_target, Save};
use crate::failure::Failure;
use crate::input::{self, KeyArgs, PacketArgs};
use crate::json;
use crate::resources::{self, Doc};
use clap::Args;
use godot_bin::{Dialect, Variant};
use godot_bin_files::resource::{BinaryResource, ConfigFile, Section, TextResource};
use godot_bin_files::save::{Key, Layout};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What `--help` says about WHERE.
pub const WHERE_HELP: &str = "WHERE names one value:
  scene (.tscn .scn)     NODE:PROPERTY            Player/Sprite:position, .:script (the root)
                         SubResource(\"ID\"):PROPERTY   a sub-resource by its id
  resource (.tres .res)  PROPERTY                 hp (the [resource] section)
                         SubResource(\"ID\"):PROPERTY
  ConfigFile             SECTION/KEY              application/config/name, params/compress/mode
                         KEY                      a key before the first section
  save                   INDEX[.KEY|.N]...        0 (the first store_var value), 0.level,
                                                  0.items.2, 0.\"key.with.dots\"
NODE is a path from the root, as the scene's parent= attributes write it (the root's own
name may lead it). A ConfigFile key may hold '/': the section is the one that exists. A
target that names nothing, or more than one thing, is refused (exit status 1) with what
exists. set adds a property or key that is not there yet (a node's property at its
default value is not written in a scene) in a section or node that is, and says so.

A text file changes by the value's one line. A binary resource, an encrypted ConfigFile
and a save are written again in the form they were read in (compression, key, engine; a
save's other values byte for byte). A binary scene bundles its nodes in one value: set
rebuilds it from its text (same engine, format and compression), and refuses when that
text does not carry all of the scene.";

/// `godot-bin get`.
#[derive(Args)]
pub struct GetArgs {
    /// A scene, resource, ConfigFile or save; `-` for standard input.
    file: PathBuf,
    /// Where the value is (see below).
    #[arg(value_name = "WHERE")]
    target: String,
    /// Print the value as JSON (the mapping of `dump --help`) instead of the engine's text.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    packets: PacketArgs,
    #[command(flatten)]
    keys: KeyArgs,
}

/// `godot-bin set`.
#[derive(Args)]
pub struct SetArgs {
    /// The scene, resource, ConfigFile or save to change (in place, unless --output).
    file: PathBuf,
    /// Where the value is (see below).
    #[arg(value_name = "WHERE")]
    target: String,
    /// The new value in the engine's text form (`Vector2(1, 2)`, `"text"`, `4`, `-1`), or
    /// JSON with --json; `-` reads it from standard input (a value too long for a
    /// command line).
    #[arg(allow_hyphen_values = true)]
    value: String,
    /// VALUE is JSON (the mapping of `dump --help`).
    #[arg(long)]
    json: bool,
    /// Write the changed file here instead of over FILE.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    #[command(flatten)]
    packets: PacketArgs,
    #[command(flatten)]
    keys: KeyArgs,
}

/// `godot-bin get`: prints the value WHERE names, as the file writes it or as JSON.
pub fn get(args: &GetArgs, out: &mut impl Write) -> Result<(), Failure> {
    let key = args.keys.key()?;
    let data = crate::pack::read(&args.file, key.as_ref())?;
    let (value, text, exact) = match resources::open(&args.file, &data, key.clone())? {
        Some(mut doc) => {
            resources::apply_dialect(&mut doc, args.packets.dialect, &args.file)?;
            doc_value(&doc, &args.target)?
        }
        None => {
            let save = Save::open(&args.packets, &args.keys, data)?;
            let (index, path) = save_target(&args.target)?;
            let v = save.value_at(index, &path)?;
            let text = v.to_text(save.dialect).trim_end_matches('\n').to_owned();
            let exact = Variant::from_text(&text).is_ok_and(|back| back.eq_ordered(v));
            (v.clone(), text, exact)
        }
    };
    if !args.json && !exact {
        inexact_note();
    }
    if args.json {
        serde_json::to_writer(&mut *out, &resources::value_json(&value))
            .map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// `godot-bin set`: changes the value WHERE names and writes the file in its own form,
/// saying on stderr what changed.
pub fn set(args: &SetArgs) -> Result<(), Failure> {
    if args.file.as_os_str() == "-" && args.output.is_none() {
        return Err(Failure::msg(
            "set changes a file: give its path, or --output for standard input",
        ));
    }
    let stdin_value;
    let value = if args.value == "-" {
        if args.file.as_os_str() == "-" {
            return Err(Failure::msg("FILE and VALUE cannot both be standard input"));
        }
        stdin_value = input::read_input(Path::new("-"))?;
        std::str::from_utf8(&stdin_value)
            .map_err(|_| Failure::msg("VALUE on standard input is not UTF-8 text"))?
            .trim_end_matches(['\n', '\r'])
    } else {
        args.value.as_str()
    };
    let key = args.keys.key()?;
    let data = crate::pack::read(&args.file, key.as_ref())?;
    let json = args.json.then_some(value);
    let text = (!args.json).then_some(value);
    let source = ValueSource { json, text };
    let change = if data.starts_with(b"ECFG") {
        set_settings(&args.file, &data, &args.target, &source)?
    } else {
        match resources::open(&args.file, &data, key.clone())? {
            Some(mut doc) => {
                resources::apply_dialect(&mut doc, args.packets.dialect, &args.file)?;
                set_doc(doc, &args.target, &source, key.clone())?
            }
            None => {
                let mut save = Save::open(&args.packets, &args.keys, data.clone())?;
                let (index, path) = save_target(&args.target)?;
                let value = source.plain()?;
                save.set(index, &path, value, key.as_ref())?
            }
        }
    };
    let dest = args.output.as_deref().unwrap_or(&args.file);
    if change.same {
        // The value is already there, exactly: the file stays as it is, byte for byte.
        if args.output.is_some() {
            crate::pack::write(dest, &data, key.as_ref())?;
        }
        eprintln!(
            "godot-bin: {} is already {}; nothing changed",
            change.label, change.new
        );
        return Ok(());
    }
    crate::pack::write(dest, &change.bytes, key.as_ref())?;
    let verb = if change.added { "added" } else { "set" };
    match &change.old {
        Some(old) => eprintln!(
            "godot-bin: {verb} {}: {old} -> {} ({}); wrote {}",
            change.label,
            change.new,
            change.how,
            dest.display()
        ),
        None => eprintln!(
            "godot-bin: {verb} {} = {} ({}); wrote {}",
            change.label,
            change.new,
            change.how,
            dest.display()
        ),
    }
    if let Some(note) = &change.note {
        eprintln!("godot-bin: note: {note}");
    }
    Ok(())
}

/// Says that a binary value's text does not read back as the value, as the engine's own
/// text of it would not: a Dictionary's order (the text sorts the keys), a float's last
/// bits. JSON is exact.
fn inexact_note() {
    eprintln!(
        "godot-bin: note: the text form does not give this value back exactly (a \
         Dictionary's order, a float's last bits), nor would the engine's; --json does"
    );
}

/// `set` in a `project.binary`: the value set as in the project.godot it stands for, then
/// the file written back binary, the other settings' packets as they were.
fn set_settings(
    path: &Path,
    data: &[u8],
    target: &str,
    source: &ValueSource<'_>,
) -> Result<Change, Failure> {
    let mut settings = resources::settings(path, data)?;
    let mut c = settings.to_config();
    let mut change = set_config(&mut c, target, source)?;
    let (section, key) = config_target(&c, target, false)?;
    let value = c
        .get(&section, &key)
        .cloned()
        .ok_or_else(|| Failure::msg(format!("no key {key:?}")))?;
    let full = if section.is_empty() {
        key
    } else {
        format!("{section}/{key}")
    };
    settings.set(&full, value);
    change.bytes = settings
        .to_bytes()
        .map_err(|e| Failure::msg(e.to_string()))?;
    change.how = "project.binary written again, the other settings byte for byte".into();
    Ok(change)
}

/// The new value as the user gave it: the engine's text form or JSON.
struct ValueSource<'a> {
    json: Option<&'a str>,
    text: Option<&'a str>,
}

impl ValueSource<'_> {
    /// The value with references given as JSON markers (`{"$SubResource": "id"}`) or in a
    /// resource's syntax; `parse_text` reads the text form in the file's own syntax.
    fn value(
        &self,
        parse_text: impl FnOnce(&str) -> Result<Variant, Failure>,
    ) -> Result<Variant, Failure> {
        match (self.json, self.text) {
            (Some(j), _) => one_json(j),
            (None, Some(t)) => parse_text(t),
            (None, None) => Err(Failure::msg("no value")),
        }
    }

    /// The value for a save: the text form (any engine's names) or JSON.
    fn plain(&self) -> Result<Variant, Failure> {
        self.value(|t| {
            Variant::from_text(t).map_err(|e| {
                Failure::msg(format!("VALUE: {}", e.message())).with_hint(quote_hint(t))
            })
        })
    }
}

fn one_json(j: &str) -> Result<Variant, Failure> {
    let doc: serde_json::Value =
        serde_json::from_str(j).map_err(|e| Failure::msg(format!("VALUE is not JSON: {e}")))?;
    let doc = resources::references_from_json(doc);
    let mut values = json::parse_all(&doc.to_string()).map_err(Failure::msg)?;
    match values.pop() {
        Some(v) if values.is_empty() => Ok(v),
        _ => Err(Failure::msg("VALUE is one JSON document")),
    }
}

/// A hint for a bare word given where a String goes: the text form quotes strings.
fn quote_hint(text: &str) -> Option<String> {
    let bare = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || " _-./".contains(c));
    bare.then(|| {
        format!(
            "a String is quoted in the engine's text form: '\"{text}\"' (or --json '\"{text}\"')"
        )
    })
}

// ---------------------------------------------------------------------------------------
// Resources, scenes and ConfigFiles.

/// A section of a resource file named by WHERE.
enum Sel {
    /// `[resource]`.
    Main,
    /// `[sub_resource id=...]`.
    Sub(String),
    /// `[node ...]` by its path.
    Node(String),
}

/// WHERE in a scene or resource: the section and the property.
fn parse_where(target: &str, scene: bool) -> Result<(Sel, String), Failure> {
    let (sel, property) = if let Some(rest) = target.strip_prefix("SubResource(") {
        let Some(close) = rest.find(')') else {
            return Err(Failure::msg(format!(
                "{target:?}: SubResource(\"ID\"):PROPERTY has no ')'"
            )));
        };
        let id = rest[..close].trim().trim_matches('"').to_owned();
        let Some(property) = rest[close + 1..].strip_prefix(':') else {
            return Err(Failure::msg(format!(
                "{target:?}: a sub-resource's value is SubResource(\"ID\"):PROPERTY"
            )));
        };
        (Sel::Sub(id), property)
    } else if let Some((section, property)) = target.split_once(':') {
        let sel = if scene {
            Sel::Node(section.to_owned())
        } else if matches!(section, "" | "resource" | "[resource]") {
            Sel::Main
        } else {
            return Err(Failure::msg(format!(
                "{target:?}: a resource's values are PROPERTY (its [resource]) or \
                 SubResource(\"ID\"):PROPERTY"
            )));
        };
        (sel, property)
    } else if scene {
        return Err(Failure::msg(format!(
            "{target:?}: a scene's values are NODE:PROPERTY (Player/Sprite:position, .:name \
             for the root) or SubResource(\"ID\"):PROPERTY"
        )));
    } else {
        (Sel::Main, target)
    };
    if property.is_empty() {
        return Err(Failure::msg(format!("{target:?}: no property after ':'")));
    }
    Ok((sel, property.to_owned()))
}

/// Up to 30 names, for a message.
fn listing<S: AsRef<str>>(names: &[S]) -> String {
    let mut shown: Vec<String> = names
        .iter()
        .take(30)
        .map(|n| format!("{:?}", n.as_ref()))
        .collect();
    if names.len() > 30 {
        shown.push(format!("and {} more", names.len() - 30));
    }
    if shown.is_empty() {
        "none".into()
    } else {
        shown.join(", ")
    }
}

/// The index in `t.sections()` of the section `sel` names, and how to name it.
fn find_section(t: &TextResource, sel: &Sel) -> Result<(usize, String), Failure> {
    let sections = t.sections();
    let found: Vec<usize> = match sel {
        Sel::Main => (0..sections.len())
            .filter(|&i| sections[i].tag() == "resource")
            .collect(),
        Sel::Sub(id) => (0..sections.len())
            .filter(|&i| {
                sections[i].tag() == "sub_resource" && sections[i].id().as_deref() == Some(id)
            })
            .collect(),
        Sel::Node(path) => {
            let path = path.strip_prefix("./").unwrap_or(path);
            let path = if path.is_empty() { "." } else { path };
            let root = t.nodes().next().and_then(Section::name);
            // The root's own name may lead the path: `Level/Player` is `Player`.
            let short = root.and_then(|r| {
                if path == r {
                    Some(".".to_owned())
                } else {
                    path.strip_prefix(r)?.strip_prefix('/').map(str::to_owned)
                }
            });
            (0..sections.len())
                .filter(|&i| {
                    let s = &sections[i];
                    s.tag() == "node"
                        && TextResource::node_path(s)
                            .is_some_and(|p| p == path || short.as_deref() == Some(p.as_str()))
                })
                .collect()
        }
    };
    let label = |i: usize| match sel {
        Sel::Main => "[resource]".to_owned(),
        Sel::Sub(id) => format!("SubResource(\"{id}\")"),
        Sel::Node(_) => format!(
            "node {:?}",
            TextResource::node_path(&sections[i]).unwrap_or_default()
        ),
    };
    match found.as_slice() {
        [i] => Ok((*i, label(*i))),
        [] => Err(match sel {
            Sel::Main => Failure::msg(format!(
                "no [resource] section (a scene's values are NODE:PROPERTY); sub-resources: {}",
                listing(&sub_ids(t))
            )),
            Sel::Sub(id) => Failure::msg(format!(
                "no sub-resource with id {id:?}; the sub-resources: {}",
                listing(&sub_ids(t))
            )),
            Sel::Node(path) => Failure::msg(format!(
                "no node {path:?}; the nodes: {}",
                listing(
                    &t.nodes()
                        .filter_map(TextResource::node_path)
                        .collect::<Vec<_>>()
                )
            )),
        }),
        many => Err(Failure::msg(format!(
            "{} sections are {}: the {} sections of the file (counting its first line's \
             header as the 1st); nothing changed",
            many.len(),
            label(many[0]),
            many.iter()
                .map(|&i| ordinal(i + 2))
                .collect::<Vec<_>>()
                .join(" and ")
        ))),
    }
}

/// 1st, 2nd, 3rd, 4th... 11th, 12th, 13th, 21st.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn sub_ids(t: &TextResource) -> Vec<String> {
    t.sub_resources().filter_map(Section::id).collect()
}

fn missing_property(label: &str, property: &str, names: Vec<&str>, scene: bool) -> Failure {
    let default = if scene {
        " (a property at its default value is not written in the file; set adds it)"
    } else {
        ""
    };
    Failure::msg(format!(
        "{label} has no property {property:?}{default}; its properties: {}",
        listing(&names)
    ))
}

/// A value printed in a resource file's syntax (`ExtResource("1")` for a reference), as
/// the file's engine writes it.
fn resource_text(v: &Variant, dialect: Dialect) -> String {
    let mut t = TextResource::new_resource("Resource", dialect);
    if let Some(r) = t.resource_mut() {
        r.properties_mut().set("v", v.clone());
    }
    after_marker(&t.to_string(), "\nv = ")
}

/// A value printed in a ConfigFile's syntax.
fn config_text(v: &Variant, dialect: Dialect) -> String {
    let mut c = ConfigFile::with_dialect(dialect);
    c.set("s", "v", v.clone());
    after_marker(&c.to_string(), "\nv=")
}

fn after_marker(doc: &str, marker: &str) -> String {
    doc.find(marker)
        .map(|at| doc[at + marker.len()..].trim_end_matches('\n').to_owned())
        .unwrap_or_default()
}

/// Reads VALUE in a resource file's syntax (references included), by the same parser as
/// the file: as the one property of a scratch `[resource]` of the file's format.
fn parse_resource_value(text: &str, format: i64) -> Result<Variant, Failure> {
    let head = format!("[gd_resource type=\"Resource\" format={format}]\n\n[resource]\nv = ");
    let doc = format!("{head}{text}\n");
    let bad = |why: String| Failure::msg(format!("VALUE: {why}")).with_hint(quote_hint(text));
    let t = TextResource::parse(&doc).map_err(|e| bad(located(&e, head.len())))?;
    match t.sections() {
        [s] if s.properties().len() == 1 => {
            Ok(s.properties().get("v").cloned().unwrap_or_default())
        }
        _ => Err(bad("not one value".into())),
    }
}

/// Reads VALUE in a ConfigFile's syntax.
fn parse_config_value(text: &str) -> Result<Variant, Failure> {
    let head = "[s]\n\nv=";
    let doc = format!("{head}{text}\n");
    let bad = |why: String| Failure::msg(format!("VALUE: {why}")).with_hint(quote_hint(text));
    let c = ConfigFile::parse(&doc).map_err(|e| bad(located(&e, head.len())))?;
    match (c.section_names().as_slice(), c.keys("s").as_slice()) {
        (["s"], ["v"]) => Ok(c.get("s", "v").cloned().unwrap_or_default()),
        _ => Err(bad("not one value".into())),
    }
}

/// An error of a scratch document, placed in VALUE.
fn located(e: &godot_bin_files::Error, head: usize) -> String {
    match e.position() {
        Some(godot_bin_files::Position::Text { offset, .. }) if offset >= head => {
            format!("{} at character {} of VALUE", e.kind(), offset - head + 1)
        }
        _ => e.kind().to_string(),
    }
}

/// A key of a ConfigFile named by `SECTION/KEY` (or `KEY` before the first section): the
/// sections that exist decide where the section's name ends.
fn config_target(c: &ConfigFile, target: &str, adding: bool) -> Result<(String, String), Failure> {
    // A key before the first section may hold '/' too: the whole of WHERE is one choice.
    let mut splits: Vec<(String, String)> = vec![(String::new(), target.to_owned())];
    for (i, _) in target.match_indices('/') {
        splits.push((target[..i].to_owned(), target[i + 1..].to_owned()));
    }
    let existing: Vec<&(String, String)> = splits
        .iter()
        .filter(|(s, k)| !k.is_empty() && c.get(s, k).is_some())
        .collect();
    // Where a new key goes: a named section that exists; before the first section only
    // when WHERE names none (`KEY`, or a key with '/' that no section's name begins).
    let mut sections: Vec<&(String, String)> = splits
        .iter()
        .filter(|(s, k)| !s.is_empty() && !k.is_empty() && c.has_section(s))
        .collect();
    if sections.is_empty() && c.has_section("") || !target.contains('/') {
        sections = vec![&splits[0]];
    }
    let name = |(s, k): &(String, String)| {
        if s.is_empty() {
            format!("{k:?} before the first section")
        } else {
            format!("[{s}] {k:?}")
        }
    };
    match (existing.as_slice(), sections.as_slice()) {
        ([one], _) => Ok((*one).clone()),
        ([], [one]) if adding => Ok((*one).clone()),
        ([], [one]) => Err(Failure::msg(format!(
            "[{}] has no key {:?}; its keys: {}",
            one.0,
            one.1,
            listing(&c.keys(&one.0))
        ))),
        ([], []) => Err(Failure::msg(format!(
            "no section for {target:?}; the sections: {}",
            listing(&c.section_names())
        ))),
        ([], many) | (many, _) => Err(Failure::msg(format!(
            "{target:?} is ambiguous: {}; nothing changed",
            many.iter()
                .map(|p| name(p))
                .collect::<Vec<_>>()
                .join(" or ")
        ))),
    }
}

/// A binary resource's section named by `sel`: its main resource or a sub-resource.
fn binary_sub_resource<'a>(
    b: &'a BinaryResource,
    sel: &Sel,
) -> Result<(&'a godot_bin_files::resource::SubResource, String), Failure> {
    match sel {
        Sel::Main => Ok((b.resource(), "[resource]".into())),
        Sel::Sub(id) => b
            .sub_resource(id)
            .map(|i| (i, format!("SubResource(\"{id}\")")))
            .ok_or_else(|| {
                let ids: Vec<&str> = b
                    .sub_resources()
                    .iter()
                    .map(|i| i.id())
                    .filter(|i| !i.is_empty())
                    .collect();
                Failure::msg(format!(
                    "no sub-resource with id {id:?}; the sub-resources: {}",
                    listing(&ids)
                ))
            }),
        Sel::Node(_) => Err(Failure::msg("a resource has no nodes")),
    }
}

/// `get` on a document: the value, its text in the file's syntax, and whether that text
/// reads back as the value exactly.
fn doc_value(doc: &Doc, target: &str) -> Result<(Variant, String, bool), Failure> {
    match doc {
        Doc::Text(t) => text_value(t, target),
        Doc::Binary(b) if b.is_scene() => {
            // A binary scene's nodes are bundled in one value: read them as its text, and
            // say what that text does not carry.
            let conv = b.to_text().map_err(|e| Failure::msg(e.to_string()))?;
            resources::report(&conv.issues);
            text_value(&conv.file, target)
        }
        Doc::Binary(b) => {
            let (sel, property) = parse_where(target, false)?;
            let (internal, label) = binary_sub_resource(b, &sel)?;
            let v = internal.properties().get(&property).ok_or_else(|| {
                missing_property(
                    &label,
                    &property,
                    internal.properties().names().collect(),
                    false,
                )
            })?;
            let text = resource_text(v, b.dialect());
            let format = if b.dialect() == Dialect::Godot4 { 3 } else { 2 };
            let exact = parse_resource_value(&text, format).is_ok_and(|back| back.eq_ordered(v));
            Ok((v.clone(), text, exact))
        }
        Doc::Config(c) | Doc::Encrypted(c, _) => {
            let (section, key) = config_target(c, target, false)?;
            let p = c
                .property(&section, &key)
                .ok_or_else(|| Failure::msg(format!("no key {key:?}")))?;
            let text = p
                .source_text()
                .map(str::to_owned)
                .unwrap_or_else(|| config_text(p.value(), c.dialect()));
            Ok((p.value().clone(), text, true))
        }
    }
}

fn text_value(t: &TextResource, target: &str) -> Result<(Variant, String, bool), Failure> {
    let (sel, property) = parse_where(target, t.is_scene())?;
    let (i, label) = find_section(t, &sel)?;
    let s = &t.sections()[i];
    let p = s.properties().property(&property).ok_or_else(|| {
        missing_property(
            &label,
            &property,
            s.properties().names().collect(),
            t.is_scene(),
        )
    })?;
    let text = p
        .source_text()
        .map(str::to_owned)
        .unwrap_or_else(|| resource_text(p.value(), t.dialect()));
    Ok((p.value().clone(), text, true))
}

/// How many lines differ between two texts that share a start and an end.
fn lines_changed(old: &str, new: &str) -> usize {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (a.len() - head - tail).max(b.len() - head - tail)
}

fn lines_note(n: usize) -> String {
    match n {
        1 => "1 line changed".into(),
        n => format!("{n} lines changed"),
    }
}

fn set_doc(
    doc: Doc,
    target: &str,
    source: &ValueSource<'_>,
    key: Option<Key>,
) -> Result<Change, Failure> {
    match doc {
        Doc::Text(mut t) => {
            let before = t.to_string();
            let mut change = set_in_text(&mut t, target, source)?;
            let after = t.to_string();
            change.how = lines_note(lines_changed(&before, &after));
            change.bytes = after.into_bytes();
            Ok(change)
        }
        Doc::Binary(b) if b.is_scene() => {
            // A binary scene's nodes are bundled in one value: the scene is rebuilt from
            // its text, only when the text carries all of it.
            let refuse = |what: &str, issues: &[godot_bin_files::resource::Issue]| {
                resources::report(issues);
                Failure::msg(format!(
                    "set in this binary scene would go through its text, which {what} \
                     (listed above); nothing changed"
                ))
            };
            let conv = b.to_text().map_err(|e| Failure::msg(e.to_string()))?;
            if !conv.issues.is_empty() {
                return Err(refuse("does not carry all of it", &conv.issues));
            }
            let mut t = conv.file;
            let before = t.to_string();
            let mut change = set_in_text(&mut t, target, source)?;
            let changed = lines_changed(&before, &t.to_string());
            let back = t.to_binary().map_err(|e| Failure::msg(e.to_string()))?;
            if !back.issues.is_empty() {
                return Err(refuse("does not write back whole", &back.issues));
            }
            let mut rebuilt = back.file;
            rebuilt.set_compression(b.compression());
            change.bytes = rebuilt
                .to_bytes()
                .map_err(|e| Failure::msg(e.to_string()))?;
            change.how = format!(
                "binary scene rebuilt from its text, where {}{}",
                lines_note(changed),
                match b.compression() {
                    Some(c) => format!("; compressed ({c}) as it was"),
                    None => String::new(),
                }
            );
            Ok(change)
        }
        Doc::Binary(mut b) => {
            let (sel, property) = parse_where(target, false)?;
            let (internal, label) = binary_sub_resource(&b, &sel)?;
            let old_value = internal.properties().get(&property).cloned();
            let id = internal.id().to_owned();
            let dialect = b.dialect();
            let format = if dialect == Dialect::Godot4 { 3 } else { 2 };
            let value = source.value(|text| parse_resource_value(text, format))?;
            let internal = match sel {
                Sel::Sub(_) => b.sub_resource_mut(&id),
                _ => Some(b.resource_mut()),
            }
            .ok_or_else(|| Failure::msg("the sub-resource went missing"))?;
            internal.properties_mut().set(&property, value.clone());
            b.check_references()
                .map_err(|e| Failure::msg(format!("VALUE: {e}; nothing changed")))?;
            let bytes = b.to_bytes().map_err(|e| Failure::msg(e.to_string()))?;
            let how = match b.compression() {
                Some(c) => format!("binary resource written again, compressed ({c})"),
                None => "binary resource written again".into(),
            };
            Ok(Change {
                bytes,
                label: format!("{label} {property}"),
                added: old_value.is_none(),
                same: old_value.as_ref().is_some_and(|o| o.eq_ordered(&value)),
                old: old_value.as_ref().map(|v| resource_text(v, dialect)),
                new: resource_text(&value, dialect),
                how,
                note: type_note(old_value.as_ref().map(Variant::get_type), &value),
            })
        }
        Doc::Config(mut c) => {
            let before = c.to_string();
            let mut change = set_config(&mut c, target, source)?;
            let after = c.to_string();
            change.how = lines_note(lines_changed(&before, &after));
            change.bytes = after.into_bytes();
            Ok(change)
        }
        Doc::Encrypted(mut c, layout) => {
            let key =
                key.ok_or_else(|| Failure::msg("an encrypted file needs --password or --key"))?;
            let mut change = set_config(&mut c, target, source)?;
            // A fresh initial vector, as the engine draws one at every save.
            let layout = match layout {
                Layout::Godot4 { .. } => Layout::Godot4 {
                    iv: resources::fresh_iv(),
                },
                other => other,
            };
            change.bytes = c
                .to_encrypted(&key, layout)
                .map_err(|e| Failure::msg(e.to_string()))?;
            change.how = "encrypted again with the same key and layout".into();
            Ok(change)
        }
    }
}

/// Sets a property of a text scene or resource by WHERE: the document changes by that
/// one line. The bytes and how they were written are the caller's to fill in.
fn set_in_text(
    t: &mut TextResource,
    target: &str,
    source: &ValueSource<'_>,
) -> Result<Change, Failure> {
    let (sel, property) = parse_where(target, t.is_scene())?;
    let (i, label) = find_section(t, &sel)?;
    let value = source.value(|text| parse_resource_value(text, t.format()))?;
    let old = t.sections()[i].properties().property(&property).map(|p| {
        p.source_text()
            .map(str::to_owned)
            .unwrap_or_else(|| resource_text(p.value(), t.dialect()))
    });
    let section = &mut t.sections_mut()[i];
    let old_type = section.properties().get(&property).map(Variant::get_type);
    let same = section
        .properties()
        .get(&property)
        .is_some_and(|o| o.eq_ordered(&value));
    section.properties_mut().set(&property, value);
    // What was stored: a value set over a typed container takes its types.
    let value = section.properties()[property.as_str()].clone();
    let new = resource_text(&value, t.dialect());
    // A reference to an id the file does not have would not load.
    t.check_references()
        .map_err(|e| Failure::msg(format!("VALUE: {e}; nothing changed")))?;
    Ok(Change {
        bytes: Vec::new(),
        label: format!("{label} {property}"),
        added: old.is_none(),
        old,
        new,
        same,
        how: String::new(),
        note: type_note(old_type, &value),
    })
}

/// Sets a ConfigFile's key by WHERE: the text changes by that one line. The bytes and
/// how they were written are the caller's to fill in.
fn set_config(
    c: &mut ConfigFile,
    target: &str,
    source: &ValueSource<'_>,
) -> Result<Change, Failure> {
    let (section, key) = config_target(c, target, true)?;
    let value = source.value(parse_config_value)?;
    let old = c.property(&section, &key).map(|p| {
        p.source_text()
            .map(str::to_owned)
            .unwrap_or_else(|| config_text(p.value(), c.dialect()))
    });
    let old_type = c.get(&section, &key).map(Variant::get_type);
    let same = c.get(&section, &key).is_some_and(|o| o.eq_ordered(&value));
    let new = config_text(&value, c.dialect());
    c.set(&section, &key, value.clone());
    let label = if section.is_empty() {
        key
    } else {
        format!("[{section}] {key}")
    };
    Ok(Change {
        bytes: Vec::new(),
        label,
        added: old.is_none(),
        old,
        new,
        same,
        how: String::new(),
        note: type_note(old_type, &value),
    })
}
