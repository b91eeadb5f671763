//! [`ConfigFile`]: the engine's `ConfigFile` text (`.cfg`, `project.godot`, `override.cfg`,
//! `export_presets.cfg`), plain or in the `GDEC` container of `save_encrypted_pass`.
//!
//! # The format
//!
//! UTF-8 text of sections and assignments, read with the same grammar as resource files
//! (see [`super::syntax`]):
//!
//! ```text
//! top=1                      <- keys of the section "" come first, under no header (Godot 4)
//!
//! [player]                   <- "[" + name + "]", a blank line after it
//!
//! name="Ada"                 <- key=value, the value in the engine's text form
//! "key with space"=true      <- Godot 4 quotes a key holding = " ; [ ] or a character
//!                               outside ! .. ~ (Godot 3 writes every key bare)
//! ```
//!
//! Godot 4 (`ConfigFile::save`) writes each section in the order it was first set, a
//! blank line between sections, `]` in a section name as `\]`, and the section `""`
//! without a header; Godot 3 writes that section as `[]` and names unescaped (a name with
//! `]` then does not read back: this crate writes `\]` in both styles). Values are
//! `var_to_str`'s text in each engine's spacing (`Vector2(1, 2)`, `Vector2( 1, 2 )`); an
//! object's text ends with a newline, which leaves a blank line after it.
//!
//! Reading follows the engine: `;` starts a comment, a key drops every character at or
//! below a space (`my key=1` is the key `mykey`), a quoted key is a string literal, a
//! section or key that appears again adds to the first (a key keeps its first place and
//! takes the last value), and `Resource("res://...")` is a [`Reference`](super::Reference),
//! never loaded.
//!
//! `save_encrypted_pass(path, password)` writes the same text in a `GDEC` container (see
//! [`crate::save`]): [`ConfigFile::from_encrypted`] reads it and gives the container's
//! [`Layout`], which [`ConfigFile::to_encrypted`] takes back to write the file the engine
//! wrote, byte for byte (a Godot 4 file's initial vector is random, so only the file can
//! give it).

use super::document::{fields_of, key_text, Document, Form, Properties, Property, Section, Tag};
use super::lex::encode_key;
use super::syntax::Style;
use crate::error::{Error, Result};
use crate::fsio;
use crate::save::{Key, Layout};
use godot_bin::Dialect;
use godot_bin::{Dictionary, Variant};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::path::Path;

/// A ConfigFile: sections of keys and values, and the text they were read from.
///
/// Writing a ConfigFile that was read and not changed gives its text back byte for byte
/// (comments and blank lines included); a changed value is printed anew in the file's
/// engine's style, so the diff is that one line.
///
/// ```
/// use godot_bin_files::resource::ConfigFile;
/// use godot_bin::Variant;
///
/// let text = "[player]\n\nname=\"Ada\"\nhp=100\npos=Vector2(1.5, 2)\n";
/// let mut cfg: ConfigFile = text.parse()?;
/// assert_eq!(cfg.get("player", "hp"), Some(&Variant::Int(100)));
/// assert_eq!(cfg.to_string(), text);
///
/// cfg.set("player", "hp", 95);
/// assert_eq!(cfg.to_string(), "[player]\n\nname=\"Ada\"\nhp=95\npos=Vector2(1.5, 2)\n");
///
/// #[derive(serde::Deserialize)]
/// struct Player { name: String, hp: i32 }
/// let p: Player = cfg.section_as("player")?;
/// assert_eq!((p.name.as_str(), p.hp), ("Ada", 95));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigFile {
    doc: Document,
    dialect: Dialect,
}

impl Default for ConfigFile {
    fn default() -> Self {
        ConfigFile::new()
    }
}

impl ConfigFile {
    /// An empty ConfigFile, written as Godot 4 writes one.
    pub fn new() -> ConfigFile {
        ConfigFile::with_dialect(Dialect::Godot4)
    }

    /// An empty ConfigFile written in `dialect`'s style (`Godot4`, or `Godot3` for the
    /// Godot 3 family).
    pub fn with_dialect(dialect: Dialect) -> ConfigFile {
        ConfigFile {
            doc: Document {
                sections: vec![Section {
                    tag: None,
                    properties: Properties::new(Form::Config(family(dialect))),
                }],
                trailing: String::new(),
            },
            dialect: family(dialect),
        }
    }

    /// Reads a ConfigFile's text. Its engine (for printing changed values) is found from
    /// the values' spacing and names; see [`ConfigFile::dialect`].
    pub fn parse(text: &str) -> Result<ConfigFile> {
        let mut doc = Document::parse(text, Form::Config(Dialect::Godot4))?;
        let dialect = detect_dialect(&doc);
        doc.reread_hex_colors(dialect);
        for s in &mut doc.sections {
            s.properties.form = Form::Config(dialect);
        }
        Ok(ConfigFile { doc, dialect })
    }

    /// Reads a ConfigFile from the bytes of a file (UTF-8).
    pub fn from_bytes(bytes: &[u8]) -> Result<ConfigFile> {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Error::syntax("the file is not UTF-8 text").at_byte(e.valid_up_to()))?;
        ConfigFile::parse(text)
    }

    /// Reads a file written by `save_encrypted_pass` (`Key::password`) or
    /// `save_encrypted` (`Key::bytes`), and the container's layout, which
    /// [`to_encrypted`](Self::to_encrypted) takes to write the same file again.
    pub fn from_encrypted(bytes: &[u8], key: &Key) -> Result<(ConfigFile, Layout)> {
        let plain = crate::save::decrypt(bytes, key)?;
        let layout = encrypted_layout(bytes)?;
        Ok((ConfigFile::from_bytes(&plain)?, layout))
    }

    /// This ConfigFile in a `GDEC` container, as `save_encrypted_pass` writes it: with
    /// the layout a read file had, the engine's file byte for byte; for a new file, pass
    /// `Layout::Godot4 { iv }` with a random `iv` or `Layout::Godot3`.
    pub fn to_encrypted(&self, key: &Key, layout: Layout) -> Result<Vec<u8>> {
        let text = self.to_string();
        Ok(match layout {
            Layout::Godot4 { iv } => crate::save::encrypt_with_iv(text.as_bytes(), key, iv)?,
            Layout::Godot3 => crate::save::encrypt(text.as_bytes(), key, Dialect::Godot3)?,
        })
    }

    /// Reads the ConfigFile at `path` (`project.godot`, `override.cfg`, an `.import`...),
    /// as `ConfigFile.load` does; an error names the file.
    ///
    /// ```no_run
    /// use godot_bin_files::ConfigFile;
    ///
    /// let mut project = ConfigFile::load("game/project.godot")?;
    /// project.set("application", "config/name", "Renamed");
    /// project.save("game/project.godot")?; // one line changed
    /// # Ok::<(), godot_bin_files::Error>(())
    /// ```
    pub fn load(path: impl AsRef<Path>) -> Result<ConfigFile> {
        fsio::load(path.as_ref(), ConfigFile::from_bytes)
    }

    /// Writes the file to `path`, as `ConfigFile.save` does; the write goes through a
    /// temporary file beside it, so a failure leaves the old file whole.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        fsio::write_atomic(path.as_ref(), self.to_string().as_bytes())
    }

    /// Reads the encrypted ConfigFile at `path` ([`from_encrypted`](Self::from_encrypted)),
    /// as `ConfigFile.load_encrypted_pass` / `load_encrypted` do.
    pub fn load_encrypted(path: impl AsRef<Path>, key: &Key) -> Result<(ConfigFile, Layout)> {
        fsio::load(path.as_ref(), |b| ConfigFile::from_encrypted(b, key))
    }

    /// Writes the file encrypted to `path` ([`to_encrypted`](Self::to_encrypted)), through
    /// a temporary file as [`save`](Self::save) does.
    pub fn save_encrypted(&self, path: impl AsRef<Path>, key: &Key, layout: Layout) -> Result<()> {
        let path = path.as_ref();
        let bytes = self
            .to_encrypted(key, layout)
            .map_err(|e| e.in_file(path))?;
        fsio::write_atomic(path, &bytes)
    }

    /// Whose style changed and new values are printed in: `Godot4` or `Godot3`. Read
    /// from the file (the first value whose text differs between the two engines says),
    /// `Godot4` when nothing tells.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Prints changed and new values in `dialect`'s style from now on.
    pub fn set_dialect(&mut self, dialect: Dialect) {
        self.dialect = family(dialect);
        for s in &mut self.doc.sections {
            s.properties.form = Form::Config(self.dialect);
        }
    }

    fn style(&self) -> Style {
        if self.dialect == Dialect::Godot4 {
            Style::GODOT4
        } else {
            Style::GODOT3
        }
    }

    fn runs(&self, section: &str) -> Vec<&Section> {
        self.doc
            .sections
            .iter()
            .filter(|s| section_name(s) == Some(section))
            .collect()
    }

    /// Every section block in the file's order, as [`TextResource::sections`] gives a
    /// resource's: the first holds the keys before any header (its [`Section::tag`] is
    /// `""`; it may be empty), and a section whose header the file repeats is one block
    /// per header. [`section_names`](Self::section_names) lists each name once.
    ///
    /// [`TextResource::sections`]: super::TextResource::sections
    pub fn sections(&self) -> &[Section] {
        &self.doc.sections
    }

    /// Every section block, to change its keys' values.
    pub fn sections_mut(&mut self) -> &mut [Section] {
        &mut self.doc.sections
    }

    /// The section names, each once, in the order they first appear (`""` for keys
    /// before any header).
    pub fn section_names(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.doc.sections {
            if let Some(name) = section_name(s) {
                if (s.tag.is_some() || !s.properties.is_empty()) && !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }

    /// Whether the file has this section.
    pub fn has_section(&self, section: &str) -> bool {
        self.section_names().contains(&section)
    }

    /// The keys of `section`, each once, in the order they first appear.
    pub fn keys(&self, section: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in self.runs(section).into_iter().flat_map(|s| &s.properties) {
            if !out.contains(&p.name()) {
                out.push(p.name());
            }
        }
        out
    }

    /// The value of `key` in `section` (the last one, if the file repeats the key, as the
    /// engine reads it).
    pub fn get(&self, section: &str, key: &str) -> Option<&Variant> {
        self.property(section, key).map(Property::value)
    }

    /// The property `key` of `section` (the last, if repeated): its value and text.
    pub fn property(&self, section: &str, key: &str) -> Option<&Property> {
        self.runs(section)
            .into_iter()
            .flat_map(|s| &s.properties)
            .rfind(|p| p.name() == key)
    }

    /// The property `key` of `section`, to change its value.
    pub fn property_mut(&mut self, section: &str, key: &str) -> Option<&mut Property> {
        self.doc
            .sections
            .iter_mut()
            .filter(|s| section_name(s) == Some(section))
            .flat_map(|s| &mut s.properties)
            .filter(|p| p.name() == key)
            .last()
    }

    /// Sets `key` in `section`: an existing key's line is changed in place; a new key is
    /// added at the end of its section, a new section at the end of the file, as the
    /// engine would write them.
    pub fn set(&mut self, section: &str, key: &str, value: impl Into<Variant>) {
        let value = value.into();
        if let Some(p) = self.property_mut(section, key) {
            p.set_value(value);
            return;
        }
        let head = format!("{}=", encode_key(key, self.dialect));
        let property = Property::fresh(key, value, head);
        let at = self.doc.sections.iter().rposition(|s| {
            section_name(s) == Some(section) && (s.tag.is_some() || section.is_empty())
        });
        match at {
            Some(i) => {
                let was_empty = self.doc.sections[i].properties.is_empty();
                self.doc.sections[i].properties.items.push(property);
                if i == 0 && was_empty {
                    // The first key before any header: keep a blank line before the next.
                    if let Some(tag) = self.doc.sections.get_mut(1).and_then(|s| s.tag.as_mut()) {
                        if tag.before.is_empty() {
                            tag.before = "\n".into();
                        }
                    }
                }
            }
            None => {
                let at = self.push_section(section);
                self.doc.sections[at].properties.items.push(property);
            }
        }
    }

    /// A new empty `[section]` at the end of the file, laid out as the engine's `save`
    /// lays one out; its index in the blocks.
    fn push_section(&mut self, section: &str) -> usize {
        let mut tag = Tag::fresh(section, Vec::new());
        tag.tail = "\n\n".into();
        let has_content = self
            .doc
            .sections
            .iter()
            .any(|s| s.tag.is_some() || !s.properties.is_empty());
        let trailing = std::mem::take(&mut self.doc.trailing);
        tag.before = if !trailing.is_empty() {
            // Text the engine stopped reading at (a key with no `=` before the end) would
            // swallow the new header into that key: it is kept as comments instead, which
            // the engine skips as it skipped the text.
            super::document::comment_out_dangling(trailing)
        } else if has_content {
            "\n".into()
        } else {
            String::new()
        };
        self.doc.sections.push(Section {
            tag: Some(tag),
            properties: Properties::new(Form::Config(self.dialect)),
        });
        self.doc.sections.len() - 1
    }

    /// The first block of `[section]` (`""`: the keys before any header).
    fn block(&self, section: &str) -> Option<usize> {
        self.doc
            .sections
            .iter()
            .position(|s| section_name(s) == Some(section))
    }

    /// Removes `key` from `section` (every line of it); returns the value it had.
    pub fn remove(&mut self, section: &str, key: &str) -> Option<Variant> {
        let old = self.get(section, key).cloned();
        for s in self
            .doc
            .sections
            .iter_mut()
            .filter(|s| section_name(s) == Some(section))
        {
            s.properties.items.retain(|p| p.name() != key);
        }
        old
    }

    /// Removes a section, its header and keys.
    pub fn remove_section(&mut self, section: &str) {
        self.doc.sections.retain(|s| {
            section_name(s) != Some(section) || (s.tag.is_none() && !section.is_empty())
        });
        if section.is_empty() {
            if let Some(first) = self.doc.sections.first_mut().filter(|s| s.tag.is_none()) {
                first.properties.items.clear();
            }
        }
        if self.doc.sections.first().is_none_or(|s| s.tag.is_some()) {
            let form = Form::Config(self.dialect);
            self.doc.sections.insert(
                0,
                Section {
                    tag: None,
                    properties: Properties::new(form),
                },
            );
        }
    }

    /// The keys and values of `section` as a Dictionary (String keys, in order), from
    /// every block of it.
    pub fn section_dictionary(&self, section: &str) -> Dictionary {
        let mut d = Dictionary::new();
        for p in self.runs(section).into_iter().flat_map(|s| &s.properties) {
            d.insert(p.name(), p.value().clone());
        }
        d
    }

    /// `section` as a `Deserialize` type: its keys are the fields, with the same rules
    /// as [`godot_bin::from_variant`] (builtins, `Variant`, references as
    /// [`Reference`](super::Reference)).
    pub fn section_as<T: DeserializeOwned>(&self, section: &str) -> Result<T> {
        Ok(godot_bin::from_variant(Variant::Dictionary(
            self.section_dictionary(section),
        ))?)
    }

    /// Sets each field of `value` (a struct or a map with text keys) as a key of
    /// `section`, in order, as [`set`](Self::set) does.
    pub fn set_section<T: Serialize + ?Sized>(&mut self, section: &str, value: &T) -> Result<()> {
        for (k, v) in fields_of(value)? {
            self.set(section, &k, v);
        }
        Ok(())
    }

    /// The whole file as a `Deserialize` type whose fields are the sections (each a
    /// struct or map of its keys).
    pub fn to_struct<T: DeserializeOwned>(&self) -> Result<T> {
        let mut d = Dictionary::new();
        for name in self.section_names() {
            d.insert(name, Variant::Dictionary(self.section_dictionary(name)));
        }
        Ok(godot_bin::from_variant(Variant::Dictionary(d))?)
    }

    /// A new ConfigFile (Godot 4 style) from a value whose fields are sections, each a
    /// struct or map of keys.
    pub fn from_struct<T: Serialize + ?Sized>(value: &T) -> Result<ConfigFile> {
        let mut cfg = ConfigFile::new();
        for (section, keys) in fields_of(value)? {
            let Variant::Dictionary(keys) = keys else {
                return Err(Error::unwritable(format!(
                    "section {section:?} is a {}, not a struct or map of keys",
                    keys.get_type()
                )));
            };
            for (k, v) in keys.iter() {
                let Some(k) = key_text(k) else {
                    return Err(Error::unwritable(format!(
                        "a key of section {section:?} is not text"
                    )));
                };
                cfg.set(&section, k, v.clone());
            }
        }
        Ok(cfg)
    }

    /// Forgets the text every value was read from, so that all are printed anew in
    /// [`dialect`](Self::dialect)'s style (comments and blank lines stay).
    pub fn reprint(&mut self) {
        self.doc.forget_text();
    }
}

/// The section `name` (its first block, when the file repeats its header: [`get`] and
/// [`set`] look through every block); panics if there is none
/// ([`has_section`](ConfigFile::has_section) asks).
///
/// [`get`]: ConfigFile::get
/// [`set`]: ConfigFile::set
impl std::ops::Index<&str> for ConfigFile {
    type Output = Section;
    fn index(&self, name: &str) -> &Section {
        match self.block(name) {
            Some(i) => &self.doc.sections[i],
            None => panic!("no section `{name}`"),
        }
    }
}

/// The section `name`, to change; a section not there yet is added at the end, as
/// toml_edit's tables add a table (`cfg["player"]["level"] = 4.into()`).
impl std::ops::IndexMut<&str> for ConfigFile {
    fn index_mut(&mut self, name: &str) -> &mut Section {
        let i = match self.block(name) {
            Some(i) => i,
            None => self.push_section(name),
        };
        &mut self.doc.sections[i]
    }
}

/// The file's text: `to_string()` is what [`save`](ConfigFile::save) writes.
impl fmt::Display for ConfigFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.doc.write(self.style(), true))
    }
}

impl std::str::FromStr for ConfigFile {
    type Err = Error;
    fn from_str(s: &str) -> Result<ConfigFile> {
        ConfigFile::parse(s)
    }
}

fn family(d: Dialect) -> Dialect {
    if d == Dialect::Godot4 {
        Dialect::Godot4
    } else {
        Dialect::Godot3
    }
}

/// A section's name: its tag's, or `""` for the keys before any tag.
fn section_name(s: &Section) -> Option<&str> {
    Some(s.tag.as_ref().map_or("", |t| t.name.as_str()))
}

/// Which engine's spacing a document's values were printed with.
fn detect_dialect(doc: &Document) -> Dialect {
    if doc
        .sections
        .iter()
        .any(|s| s.tag.as_ref().is_some_and(|t| t.name.is_empty()))
    {
        return Dialect::Godot3; // `[]`: Godot 3's header of the section "".
    }
    for p in doc.sections.iter().flat_map(|s| &s.properties) {
        let Some(text) = p.source_text() else {
            continue;
        };
        let g4 = super::syntax::print_value(p.value(), Style::GODOT4);
        let g3 = super::syntax::print_value(p.value(), Style::GODOT3);
        if g4 != g3 {
            let g3 = g3.strip_suffix('\n').unwrap_or(&g3);
            let g4 = g4.strip_suffix('\n').unwrap_or(&g4);
            match (text == g4, text == g3) {
                (true, false) => return Dialect::Godot4,
                (false, true) => return Dialect::Godot3,
                _ => {}
            }
        }
    }
    // No value printed alike: Godot 3's spacing inside brackets still tells.
    let godot3 = doc.sections.iter().flat_map(|s| &s.properties).any(|p| {
        p.source_text()
            .is_some_and(|t| t.contains("( ") || t.contains("[ ") || t.contains("Pool"))
    });
    if godot3 {
        Dialect::Godot3
    } else {
        Dialect::Godot4
    }
}

/// The layout of a `GDEC` file, read from its header.
pub(crate) fn encrypted_layout(bytes: &[u8]) -> Result<Layout> {
    let word = bytes
        .get(4..8)
        .ok_or_else(|| Error::eof().at_byte(bytes.len()))?;
    if u32::from_le_bytes(word.try_into().expect("4 bytes")) == 1 {
        return Ok(Layout::Godot3);
    }
    let iv: [u8; 16] = bytes
        .get(28..44)
        .and_then(|b| b.try_into().ok())
        .ok_or_else(|| Error::eof().at_byte(bytes.len()))?;
    Ok(Layout::Godot4 { iv })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_encoded_as_the_engine_encodes_them() {
        let cases = [
            ("a/b.c-d_e", "a/b.c-d_e"),
            ("key with space", "\"key with space\""),
            ("k\"q", "\"k\\\"q\""),
            ("k;x", "\"k;x\""),
            ("é", "\"é\""),
            ("a\tb", "\"a\tb\""),
            ("", ""),
            ("~!@#$%^&*()+{}|:<>?,'`", "~!@#$%^&*()+{}|:<>?,'`"),
        ];
        for (key, enc) in cases {
            assert_eq!(encode_key(key, Dialect::Godot4), enc);
            assert_eq!(encode_key(key, Dialect::Godot3), key);
        }
    }

    #[test]
    fn new_sections_and_keys_go_where_the_engine_puts_them() {
        let mut cfg = ConfigFile::new();
        cfg.set("main", "a", 1);
        cfg.set("", "top", true);
        cfg.set("other", "s", "x");
        cfg.set("main", "b", 2.5);
        assert_eq!(
            cfg.to_string(),
            "top=true\n\n[main]\n\na=1\nb=2.5\n\n[other]\n\ns=\"x\"\n"
        );
        let back: ConfigFile = cfg.to_string().parse().unwrap();
        assert_eq!(back.section_names(), ["", "main", "other"]);
        assert_eq!(back.get("main", "b"), Some(&Variant::Float(2.5)));
        let mut g3 = ConfigFile::with_dialect(Dialect::Godot3);
        g3.set("s", "v", godot_bin::Vector2::new(1.0, 2.0));
        assert_eq!(g3.to_string(), "[s]\n\nv=Vector2( 1, 2 )\n");
    }

    #[test]
    fn repeated_keys_read_as_the_engine_reads_them() {
        let cfg: ConfigFile = "[a]\nx=1\ny=2\n[b]\nz=0\n[a]\nx=3\n".parse().unwrap();
        assert_eq!(cfg.section_names(), ["a", "b"]);
        assert_eq!(cfg.keys("a"), ["x", "y"]);
        assert_eq!(cfg.get("a", "x"), Some(&Variant::Int(3)));
    }
}
