//! Resources, scenes and ConfigFiles in the CLI: `dump` shows them (their text form, or
//! JSON), `convert` moves them between forms by the output's extension.
//!
//! Which files: by extension (`.tres`, `.tscn`, `.res`, `.scn`, and the ConfigFiles'
//! [`CONFIG_EXTENSIONS`]), by magic (`RSRC`, `RSCC`), by first line (`[gd_resource`,
//! `[gd_scene`), text that reads as a ConfigFile whatever its name, and, for an encrypted file (`GDEC`) read with `--password` or `--key`, by
//! its content: a ConfigFile written by `save_encrypted_pass`, whatever its extension.

use crate::failure::Failure;
use crate::json;
use godot_bin::{Dialect, Variant};
use godot_bin_files::resource::{
    BinaryResource, ConfigFile, Converted, Issue, ProjectBinary, Section, TextResource,
};
use godot_bin_files::save::{Compression, Key, Layout};
use serde_json::{json, Map, Value};
use std::io::Write;
use std::path::Path;

/// A file of one of the resource forms.
pub enum Doc {
    Text(TextResource),
    Binary(BinaryResource),
    Config(ConfigFile),
    /// An encrypted ConfigFile and its layout (kept when it is encrypted again).
    Encrypted(ConfigFile, Layout),
}

fn failure(what: &Path, e: godot_bin_files::Error) -> Failure {
    let offset = match e.position() {
        Some(godot_bin_files::Position::Byte(at)) => Some(at),
        Some(godot_bin_files::Position::Text { offset, .. }) => Some(offset),
        // Inside a compressed file's content: no offset of the file points there (the
        // message says where in the content).
        Some(_) | None => None,
    };
    Failure {
        offset,
        message: format!("{}: {}", what.display(), e),
        hint: None,
    }
}

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The extensions of the ConfigFiles the engines write or read: `.cfg` (`override.cfg`,
/// `export_presets.cfg`, `plugin.cfg`, the editor's settings), `project.godot`, `.import`
/// beside every imported asset, `.remap` in an exported game, and the library
/// descriptions `.gdextension` (Godot 4) and `.gdnlib` (Godot 3).
pub const CONFIG_EXTENSIONS: &[&str] = &[
    "cfg",
    "godot",
    "import",
    "remap",
    "gdextension",
    "gdnlib",
    "ini",
];

/// Whether `path` names a ConfigFile by its name.
fn config_name(path: &Path) -> bool {
    CONFIG_EXTENSIONS.contains(&extension(path).as_str())
}

/// What a file's name says it holds, for `convert`'s output: the engine picks its loader
/// by extension, so a file written under another kind's name does not load.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// `.tres`, `.tscn`: a text resource or scene.
    TextResource,
    /// `.res`, `.scn`: a binary resource or scene.
    BinaryResource,
    /// A ConfigFile's name ([`CONFIG_EXTENSIONS`]).
    Config,
    /// Any other name: a save (`store_var` frames) or an encrypted ConfigFile, whose names
    /// the game chooses.
    Other,
}

/// The kind `path`'s name says.
pub fn kind_of_name(path: &Path) -> Kind {
    match extension(path).as_str() {
        "tres" | "tscn" => Kind::TextResource,
        "res" | "scn" => Kind::BinaryResource,
        _ if config_name(path) => Kind::Config,
        _ => Kind::Other,
    }
}

/// Refuses an output name of a kind `what` cannot become (nothing is written): a
/// ConfigFile's text under `out.scn` is a file the engine's binary loader rejects.
pub fn refuse_kind(output: &Path, what: &str, allowed: &[Kind]) -> Result<(), Failure> {
    let kind = kind_of_name(output);
    if allowed.contains(&kind) {
        return Ok(());
    }
    let named = match kind {
        Kind::TextResource => "a text resource or scene (.tres, .tscn)",
        Kind::BinaryResource => "a binary resource or scene (.res, .scn)",
        Kind::Config => "a ConfigFile",
        Kind::Other => "neither a resource, a scene nor a ConfigFile",
    };
    let wants = allowed
        .iter()
        .map(|k| match k {
            Kind::TextResource => ".tres/.tscn",
            Kind::BinaryResource => ".res/.scn",
            Kind::Config => "a ConfigFile name (.cfg, .godot, .import...)",
            Kind::Other => "a save's own name",
        })
        .collect::<Vec<_>>()
        .join(" or ");
    Err(Failure::msg(format!(
        "{} names {named}, which {what} cannot become (the engine picks its loader by the \
         name); give {wants}; nothing written",
        output.display()
    )))
}

/// Whether `data` looks like a ConfigFile's text whatever its name: UTF-8 without a NUL
/// (no packet or frame of a save is: a header's or length's high bytes are zero for
/// anything shorter than 16 MiB), whose first line that is not blank or a `;` comment
/// opens a section or assigns a key. A packet can not start with `[` (type id 91) in any
/// dialect, so a file starting with one is never a bare packet.
fn looks_like_config(data: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(data) else {
        return false;
    };
    if text.contains('\0') {
        return false;
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with(';'))
        .is_some_and(|l| (l.starts_with('[') && l.ends_with(']')) || l.contains('='))
}

/// The file at `path` with bytes `data`, if it is one of the resource forms; `None` for a
/// save file or packets.
pub fn open(path: &Path, data: &[u8], key: Option<Key>) -> Result<Option<Doc>, Failure> {
    let ext = extension(path);
    let head = data.get(..4).unwrap_or(&[]);
    if head == b"RSRC" || head == b"RSCC" || matches!(ext.as_str(), "res" | "scn") {
        return BinaryResource::from_bytes(data)
            .map(|r| Some(Doc::Binary(r)))
            .map_err(|e| failure(path, e));
    }
    let text_start = data
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(data)
        .trim_ascii_start();
    if matches!(ext.as_str(), "tres" | "tscn")
        || text_start.starts_with(b"[gd_resource")
        || text_start.starts_with(b"[gd_scene")
    {
        // A file on disk is loaded by its path, so that its `res://` path is found from the
        // project folder above it, as the editor finds it: conversions resolve relative
        // `[ext_resource]` paths against it.
        let read = if path.is_file() {
            TextResource::load(path)
        } else {
            TextResource::from_bytes(data)
        };
        return read
            .map(|r| Some(Doc::Text(r)))
            .map_err(|e| failure(path, e));
    }
    if head == b"ECFG" {
        // project.binary, the exported project settings: shown, and read by SECTION/KEY,
        // as the project.godot it stands for (`set` writes it back binary: edit.rs).
        let settings = settings(path, data)?;
        return Ok(Some(Doc::Config(settings.to_config())));
    }
    if head == b"GDEC" {
        // A ConfigFile of save_encrypted_pass, when its content reads as one.
        let Some(key) = key else {
            return Ok(None);
        };
        if let Ok((cfg, layout)) = ConfigFile::from_encrypted(data, &key) {
            let plain = godot_bin_files::save::decrypt(data, &key).unwrap_or_default();
            if config_name(path) || !plain.starts_with(&[0]) && std::str::from_utf8(&plain).is_ok()
            {
                return Ok(Some(Doc::Encrypted(cfg, layout)));
            }
        }
        return Ok(None);
    }
    if config_name(path) {
        return ConfigFile::from_bytes(data)
            .map(|c| Some(Doc::Config(c)))
            .map_err(|e| failure(path, e));
    }
    // Any other name: a ConfigFile by its content, when all of it reads as one.
    if looks_like_config(data) {
        if let Ok(c) = ConfigFile::from_bytes(data) {
            return Ok(Some(Doc::Config(c)));
        }
    }
    Ok(None)
}

/// A `project.binary`: its values in the packets of the engine of the pack it is in, else
/// Godot 4's, else (when they do not decode as Godot 4) Godot 3's.
pub fn settings(path: &Path, data: &[u8]) -> Result<ProjectBinary, Failure> {
    let first = crate::pack::engine_dialect(path).unwrap_or(Dialect::Godot4);
    let other = if first == Dialect::Godot4 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    };
    ProjectBinary::from_bytes(data, &godot_bin::Config::new(first))
        .or_else(|e| ProjectBinary::from_bytes(data, &godot_bin::Config::new(other)).map_err(|_| e))
        .map_err(|e| failure(path, e))
}

/// Applies `--dialect` to a document: a ConfigFile's values print in that engine's style
/// from then on; a resource or scene says its engine itself (a text file's `format`, a
/// binary file's version), so a `--dialect` of another engine is refused rather than
/// ignored without a word.
pub fn apply_dialect(doc: &mut Doc, asked: Option<Dialect>, path: &Path) -> Result<(), Failure> {
    let Some(asked) = asked else {
        return Ok(());
    };
    let (own, what) = match doc {
        Doc::Config(c) | Doc::Encrypted(c, _) => {
            c.set_dialect(asked);
            return Ok(());
        }
        Doc::Text(t) => (
            t.dialect(),
            format!("a text {} of format {}", noun(t.is_scene()), t.format()),
        ),
        Doc::Binary(b) => (
            b.dialect(),
            format!(
                "a binary {} of version {}.{}",
                noun(b.is_scene()),
                b.header().version.0,
                b.header().version.1
            ),
        ),
    };
    let family = |d: Dialect| {
        if d == Dialect::Godot4 {
            Dialect::Godot4
        } else {
            Dialect::Godot3
        }
    };
    if family(asked) == own {
        return Ok(());
    }
    Err(Failure::msg(format!(
        "{} is {what}, a {own} file by its own header: --dialect {} does not apply to it (to \
         make a Godot 3 file a Godot 4 one: godot-bin convert FILE OUT --godot4)",
        path.display(),
        asked.id()
    )))
}

fn noun(scene: bool) -> &'static str {
    if scene {
        "scene"
    } else {
        "resource"
    }
}

/// Prints a document: its text (a binary file as the text it converts to), or JSON.
pub fn dump(doc: &Doc, json_out: bool, out: &mut impl Write) -> Result<(), Failure> {
    if json_out {
        let value = to_json(doc).map_err(|e| failure(Path::new("input"), e))?;
        serde_json::to_writer_pretty(&mut *out, &value).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(());
    }
    let text = match doc {
        Doc::Text(t) => t.to_string(),
        Doc::Binary(b) => {
            let conv = b.to_text().map_err(|e| failure(Path::new("input"), e))?;
            eprintln!("godot-bin: binary {} shown as text", form_name(b));
            report(&conv.issues);
            conv.file.to_string()
        }
        Doc::Config(c) | Doc::Encrypted(c, ..) => c.to_string(),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn form_name(b: &BinaryResource) -> &'static str {
    if b.is_scene() {
        "scene"
    } else {
        "resource"
    }
}

/// What a conversion could not carry over, on stderr: one `godot-bin: issue:` line each.
pub fn report(issues: &[Issue]) {
    for i in issues {
        eprintln!("godot-bin: issue: {i}");
    }
}

/// A value in the JSON mapping, references as `{"$ExtResource": id}`,
/// `{"$SubResource": id}`, `{"$Resource": path}`.
pub fn value_json(v: &Variant) -> Value {
    let mut j = json::to_json(v);
    references(&mut j);
    j
}

fn references(j: &mut Value) {
    match j {
        Value::Array(items) => items.iter_mut().for_each(references),
        Value::Object(map) => {
            let marker = map.get("$Object").and_then(|o| {
                let class = o.get("class")?.as_str()?;
                let props = o.get("properties")?.as_array()?;
                let [pair] = props.as_slice() else {
                    return None;
                };
                let value = pair.get(1)?.clone();
                let tag = match class {
                    "ExtResource" => "$ExtResource",
                    "SubResource" => "$SubResource",
                    "ResourcePath" => "$Resource",
                    _ => return None,
                };
                Some((tag, value))
            });
            match marker {
                Some((tag, value)) => {
                    map.clear();
                    map.insert(tag.into(), value);
                }
                None => map.values_mut().for_each(references),
            }
        }
        _ => {}
    }
}

/// The inverse of [`value_json`]'s references: `{"$ExtResource": id}`,
/// `{"$SubResource": id}` and `{"$Resource": path}` become the marker objects of the JSON
/// mapping (`{"$Object": {"class": "ExtResource", ...}}`), which read as references.
pub fn references_from_json(j: Value) -> Value {
    match j {
        Value::Array(items) => Value::Array(items.into_iter().map(references_from_json).collect()),
        Value::Object(map) => {
            let marker = match map.iter().next() {
                Some((tag, value)) if map.len() == 1 => match tag.as_str() {
                    "$ExtResource" => Some(("ExtResource", "id", value.clone())),
                    "$SubResource" => Some(("SubResource", "id", value.clone())),
                    "$Resource" => Some(("ResourcePath", "path", value.clone())),
                    _ => None,
                },
                _ => None,
            };
            match marker {
                Some((class, key, value)) => json!({"$Object": {
                    "class": class,
                    "properties": [[key, value]],
                }}),
                None => Value::Object(
                    map.into_iter()
                        .map(|(k, v)| (k, references_from_json(v)))
                        .collect(),
                ),
            }
        }
        other => other,
    }
}

fn section_json(s: &Section) -> Value {
    let mut attrs = Map::new();
    for (k, v) in s.attrs() {
        attrs.insert(k.clone(), value_json(v));
    }
    let mut props = Map::new();
    for p in s.properties() {
        props.insert(p.name().into(), value_json(p.value()));
    }
    json!({"tag": s.tag(), "attributes": attrs, "properties": props})
}

fn to_json(doc: &Doc) -> Result<Value, godot_bin_files::Error> {
    Ok(match doc {
        Doc::Text(t) => text_json(
            t,
            if t.is_scene() {
                "text scene"
            } else {
                "text resource"
            },
        ),
        Doc::Binary(b) => {
            let text = b.to_text()?.file;
            let mut j = text_json(
                &text,
                if b.is_scene() {
                    "binary scene"
                } else {
                    "binary resource"
                },
            );
            j["binary"] = json!({
                "version": [b.header().version.0, b.header().version.1],
                "format": b.header().format,
                "compressed": b.compression().map(|c| c.to_string()),
                "strings": b.strings(),
            });
            j
        }
        Doc::Config(c) | Doc::Encrypted(c, ..) => {
            let mut sections = Map::new();
            for s in c.section_names() {
                let mut keys = Map::new();
                for k in c.keys(s) {
                    keys.insert(k.into(), value_json(c.get(s, k).unwrap_or(&Variant::Nil)));
                }
                sections.insert(s.into(), Value::Object(keys));
            }
            let form = if matches!(doc, Doc::Encrypted(..)) {
                "encrypted ConfigFile"
            } else {
                "ConfigFile"
            };
            json!({"form": form, "sections": sections})
        }
    })
}

fn text_json(t: &TextResource, form: &str) -> Value {
    json!({
        "form": form,
        "format": t.format(),
        "header": section_json(t.header()),
        "sections": t.sections().iter().map(section_json).collect::<Vec<_>>(),
    })
}

/// What `--to` asks of a resource, scene or ConfigFile.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum To {
    /// The input's own form: a compressed binary file stays compressed in its mode.
    Same,
    /// Uncompressed, unencrypted.
    Plain,
    /// A ConfigFile encrypted as `save_encrypted_pass` / `save_encrypted` writes it.
    Encrypted,
    /// A binary resource or scene compressed (`RSCC`) in this mode.
    Compressed(Compression),
}

impl std::fmt::Display for To {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            To::Same => f.write_str("same"),
            To::Plain => f.write_str("plain"),
            To::Encrypted => f.write_str("encrypted"),
            To::Compressed(c) => write!(f, "{}", c.to_string().to_ascii_lowercase()),
        }
    }
}

/// What `convert` was asked, for a resource, scene or ConfigFile.
pub struct ConvertOptions {
    /// The key the input was read with (`--password`, `--key`).
    pub key: Option<Key>,
    /// The key to encrypt the output with (`--new-password`, `--new-key`).
    pub new_key: Option<Key>,
    /// What `--to` asks for.
    pub to: To,
    /// Upgrade a Godot 3 file to Godot 4; without it the file keeps its engine.
    pub godot4: bool,
    /// Write nothing when anything does not carry over exactly.
    pub strict: bool,
}

/// `godot-bin convert` for resources, scenes and ConfigFiles: the output's form from its
/// extension, its compression or encryption from `to`. A Godot 3 resource or scene stays
/// Godot 3 unless `godot4`; a ConfigFile is encrypted with `new_key` (or `--password`
/// when the input is plain), or decrypted. What does not carry over is listed on stderr.
pub fn convert(
    doc: Doc,
    output: &Path,
    options: ConvertOptions,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let ConvertOptions {
        key,
        new_key,
        to,
        godot4,
        strict,
    } = options;
    let same_engine = !godot4;
    let ext = extension(output);
    match &doc {
        Doc::Config(_) | Doc::Encrypted(..) => {
            refuse_kind(output, "a ConfigFile", &[Kind::Config, Kind::Other])?
        }
        Doc::Text(_) | Doc::Binary(_) => refuse_kind(
            output,
            "a resource or scene",
            &[Kind::TextResource, Kind::BinaryResource],
        )?,
    }
    let mut issues = Vec::new();
    let not_for = |what: &str| {
        Failure::msg(format!(
            "--to {to} does not apply to {what}; nothing written"
        ))
    };
    let bytes: Vec<u8> = match doc {
        Doc::Config(cfg) => {
            writeln!(out, "read:    ConfigFile")?;
            let key = match to {
                To::Same => new_key.or(key),
                To::Plain => None,
                To::Encrypted => Some(new_key.or(key).ok_or_else(|| {
                    Failure::msg(
                        "--to encrypted needs --password, --key, --new-password or --new-key",
                    )
                })?),
                To::Compressed(_) => return Err(not_for("a ConfigFile (plain or encrypted only)")),
            };
            match key {
                Some(k) => {
                    let layout = match cfg.dialect() {
                        godot_bin::Dialect::Godot4 => Layout::Godot4 { iv: fresh_iv() },
                        _ => Layout::Godot3,
                    };
                    cfg.to_encrypted(&k, layout)
                        .map_err(|e| failure(output, e))?
                }
                None => cfg.to_string().into_bytes(),
            }
        }
        Doc::Encrypted(cfg, layout) => {
            writeln!(out, "read:    encrypted ConfigFile")?;
            let key = match to {
                To::Same => new_key,
                To::Encrypted => new_key.or(key),
                To::Plain => None,
                To::Compressed(_) => return Err(not_for("a ConfigFile (plain or encrypted only)")),
            };
            match key {
                Some(k) => cfg
                    .to_encrypted(&k, layout)
                    .map_err(|e| failure(output, e))?,
                None => cfg.to_string().into_bytes(),
            }
        }
        Doc::Text(t) => {
            writeln!(
                out,
                "read:    text {} ({:?}, format {})",
                if t.is_scene() { "scene" } else { "resource" },
                t.dialect(),
                t.format()
            )?;
            let t = upgrade(t, same_engine, &mut issues).map_err(|e| failure(output, e))?;
            match ext.as_str() {
                "res" | "scn" => {
                    let mut b = take(t.to_binary(), output, &mut issues)?;
                    compress(&mut b, to, None)?;
                    b.to_bytes().map_err(|e| failure(output, e))?
                }
                _ if matches!(to, To::Same | To::Plain) => t.to_string().into_bytes(),
                _ => {
                    return Err(not_for(
                        "a text resource or scene (.res or .scn are binary)",
                    ))
                }
            }
        }
        Doc::Binary(b) => {
            writeln!(
                out,
                "read:    binary {} ({:?}, format {}{})",
                form_name(&b),
                b.dialect(),
                b.header().format,
                match b.compression() {
                    Some(c) => format!(", compressed: {c}"),
                    None => String::new(),
                }
            )?;
            let godot3 = b.dialect() != godot_bin::Dialect::Godot4;
            let read_as = b.compression();
            match ext.as_str() {
                "tres" | "tscn" => {
                    if !matches!(to, To::Same | To::Plain) {
                        return Err(not_for(
                            "a text resource or scene (.res or .scn are binary)",
                        ));
                    }
                    let t = take(b.to_text(), output, &mut issues)?;
                    upgrade(t, same_engine, &mut issues)
                        .map_err(|e| failure(output, e))?
                        .to_string()
                        .into_bytes()
                }
                _ if same_engine || !godot3 => {
                    let mut b = b;
                    compress(&mut b, to, read_as)?;
                    b.to_bytes().map_err(|e| failure(output, e))?
                }
                _ => {
                    let t = take(b.to_text(), output, &mut issues)?;
                    let t = upgrade(t, same_engine, &mut issues).map_err(|e| failure(output, e))?;
                    let mut b = take(t.to_binary(), output, &mut issues)?;
                    compress(&mut b, to, read_as)?;
                    b.to_bytes().map_err(|e| failure(output, e))?
                }
            }
        }
    };
    report(&issues);
    if strict && !issues.is_empty() {
        return Err(Failure::msg(format!(
            "{} thing(s) did not carry over exactly; nothing written (--strict)",
            issues.len()
        )));
    }
    std::fs::write(output, &bytes)
        .map_err(|e| Failure::msg(format!("{}: {e}", output.display())))?;
    writeln!(out, "wrote:   {}, {} bytes", output.display(), bytes.len())?;
    Ok(())
}

/// Compresses a binary resource as `to` asks: `Same` keeps the mode it was read in
/// (`read_as`), uncompressed for one made from text.
fn compress(b: &mut BinaryResource, to: To, read_as: Option<Compression>) -> Result<(), Failure> {
    let mode = match to {
        To::Same => read_as,
        To::Plain => None,
        To::Compressed(Compression::Brotli) => {
            return Err(Failure::msg(
                "--to brotli: the engine reads Brotli and never writes it; nothing written",
            ))
        }
        To::Compressed(c) => Some(c),
        To::Encrypted => {
            return Err(Failure::msg(
                "--to encrypted does not apply to a resource or scene (the engine encrypts \
                 only saves and ConfigFiles); nothing written",
            ))
        }
    };
    b.set_compression(mode);
    Ok(())
}

fn take<T>(
    r: Result<Converted<T>, godot_bin_files::Error>,
    output: &Path,
    issues: &mut Vec<Issue>,
) -> Result<T, Failure> {
    let c = r.map_err(|e| failure(output, e))?;
    issues.extend(c.issues);
    Ok(c.file)
}

fn upgrade(
    t: TextResource,
    same_engine: bool,
    issues: &mut Vec<Issue>,
) -> Result<TextResource, godot_bin_files::Error> {
    if same_engine {
        return Ok(t);
    }
    let c = t.to_godot4()?;
    issues.extend(c.issues);
    Ok(c.file)
}

/// A fresh initial vector for a new Godot 4 encrypted file, from the system's randomness.
pub fn fresh_iv() -> [u8; 16] {
    // The file module draws one per file for the saves it writes; a ConfigFile asks for
    // the layout explicitly, so draw it the same way: through an encryption of nothing.
    let probe = godot_bin_files::save::encrypt(b"", &Key::password(""), godot_bin::Dialect::Godot4)
        .unwrap_or_default();
    probe
        .get(28..44)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; 16])
}

/// For `--help`: what `convert` does with resources.
pub const CONVERT_HELP: &str = "Resources, scenes and ConfigFiles (by extension or magic: \
.tres .tscn .res .scn, RSRC, RSCC; ConfigFiles .cfg .import .remap .gdextension .gdnlib \
project.godot, or any text that reads as one, or a GDEC file holding one): the output's extension picks its form (.tres/.tscn text, .res/.scn binary); \
a name of another kind is refused (a resource to .cfg or .sav, a ConfigFile to .scn, a save to \
.tscn or .cfg: the engine picks its loader by the name); a Godot 3 resource or scene stays Godot 3 unless \
--godot4; a plain ConfigFile with --password (or --new-password) is written encrypted \
as save_encrypted_pass writes it, an encrypted one (read with --password) plain, or with \
--new-password re-encrypted. --to zstd|fastlz|deflate|gzip writes a .res/.scn compressed \
(RSCC, loaded by both engines in each mode; zstd is what the engine's FLAG_COMPRESS \
writes); a compressed binary file stays compressed in its mode unless --to plain; --to \
plain|encrypted decrypts or encrypts a ConfigFile; a --to that does not apply to the output \
is refused. Anything that does not carry over exactly is listed.";
