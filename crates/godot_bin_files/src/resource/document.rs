//! The lossless text document under [`ConfigFile`](super::ConfigFile) and
//! [`TextResource`](super::TextResource): sections (`[tag ...]` and the `key = value`
//! lines under it), each piece keeping the text it was read from.
//!
//! Every [`Property`] keeps the text before its value (`metadata/hp = `), its value's text
//! and its line end; every tag keeps its text; comments and blank lines stay where they
//! were. Writing an unchanged document gives the text it was read from, byte for byte,
//! whoever wrote it. A value that is changed ([`Property::set_value`],
//! [`Property::value_mut`]) is printed anew in the file's style, so one changed value is a
//! diff of one value.

use super::syntax::{self, Style};
use crate::error::{Error, Result};
use godot_bin::Dialect;
use godot_bin::{Dictionary, Variant};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Write as _;

/// One `key = value` assignment, as the file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// Its lines as read, in one string (one allocation a property, not four): the text
    /// before it (comments, blank lines), its `head` (`name = `), its value's text while
    /// the value is unchanged, and its `tail` (what ends its line). `cuts` are where the
    /// head, the value's text and the tail start.
    raw: String,
    cuts: [usize; 3],
    /// `raw` holds the value's text (dropped when the value changes).
    has_text: bool,
    pub(crate) name: String,
    pub(crate) value: Variant,
    /// A blank line after an object value, which the engine's writer leaves (the object's
    /// text ends in a newline).
    pub(crate) extra_line: bool,
}

impl Property {
    /// A new property, written `head` + value + a newline (`head` is `name = ` in a
    /// resource, `name=` in a ConfigFile, the name encoded as the engine encodes it).
    pub(crate) fn fresh(name: &str, value: Variant, head: String) -> Property {
        let at = head.len();
        let mut raw = head;
        raw.push('\n');
        Property {
            raw,
            cuts: [0, at, at],
            has_text: false,
            name: name.into(),
            value,
            extra_line: false,
        }
    }

    /// The property read from `lines` (its whole text), cut at `cuts` (module docs of
    /// [`Property`]'s fields).
    fn read(lines: &str, cuts: [usize; 3], name: String, value: Variant) -> Property {
        Property {
            raw: lines.into(),
            cuts,
            has_text: true,
            name,
            value,
            extra_line: false,
        }
    }

    /// The text before it: comments and blank lines.
    pub(crate) fn before(&self) -> &str {
        &self.raw[..self.cuts[0]]
    }

    fn head(&self) -> &str {
        &self.raw[self.cuts[0]..self.cuts[1]]
    }

    /// The value's text as read, while the value is unchanged.
    pub(crate) fn text(&self) -> Option<&str> {
        self.has_text.then(|| &self.raw[self.cuts[1]..self.cuts[2]])
    }

    fn tail(&self) -> &str {
        &self.raw[self.cuts[2]..]
    }

    /// Drops the value's text: the value is printed anew when written.
    pub(crate) fn forget_text(&mut self) {
        if self.has_text {
            self.raw.replace_range(self.cuts[1]..self.cuts[2], "");
            self.cuts[2] = self.cuts[1];
            self.has_text = false;
        }
    }

    /// The property's name (`metadata/hp`, `position`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its value; references are marker objects ([`super::Reference`]).
    pub fn value(&self) -> &Variant {
        &self.value
    }

    /// Its value, to change: the property is printed anew when written.
    pub fn value_mut(&mut self) -> &mut Variant {
        self.forget_text();
        &mut self.value
    }

    /// Replaces its value; it is printed anew when written.
    ///
    /// A typed Array or Dictionary keeps its types when the new value's elements fit them
    /// (a `Vec<String>` set on `Array[String](...)`, as the engine keeps a typed property's
    /// type on assignment), and a value equal to the old one keeps its text.
    pub fn set_value(&mut self, value: impl Into<Variant>) {
        let mut new = self.value.clone();
        new.assign(value);
        if new == self.value && self.has_text {
            return;
        }
        self.forget_text();
        self.value = new;
    }

    /// The value's text as read from the file, while it is unchanged.
    pub fn source_text(&self) -> Option<&str> {
        self.text()
    }

    pub(crate) fn write(&self, out: &mut String, style: Style) {
        out.push_str(self.before());
        out.push_str(self.head());
        let tail = self.tail();
        match self.text() {
            Some(t) => {
                out.push_str(t);
                out.push_str(tail);
                if self.extra_line {
                    out.push_str(line_end(tail));
                }
            }
            None => {
                let text = syntax::print_value(&self.value, style);
                match text.strip_suffix('\n') {
                    Some(t) => {
                        out.push_str(t);
                        out.push_str(tail);
                        out.push_str(line_end(tail));
                    }
                    None => {
                        out.push_str(&text);
                        out.push_str(tail);
                    }
                }
            }
        }
    }
}

/// The properties of a section of a text file (a resource's or scene's `[tag]`, a
/// ConfigFile's `[section]`) or of a binary resource's internal resource: an ordered list
/// of [`Property`], one type for every form, with the same methods. A name may repeat (a
/// file can say it twice); lookups take the last, as the engine reads it.
///
/// Index by name or position gives the value (`props["hp"]`, `props[0]`); reading a name
/// that is not there panics, as `HashMap`'s index does ([`get`](Self::get) asks), and
/// assigning to one adds it (`props["hp"] = 3.into()`), as toml_edit's tables do.
///
/// ```
/// use godot_bin_files::ConfigFile;
/// use godot_bin::Variant;
/// let mut cfg: ConfigFile = "[player]\nname=\"Ada\"\nlevel=3\n".parse()?;
/// let props = cfg["player"].properties();
/// assert_eq!(props["level"], Variant::Int(3));
/// assert_eq!(props[0], Variant::from("Ada"));
/// assert_eq!(props.names().collect::<Vec<_>>(), ["name", "level"]);
/// cfg["player"]["level"] = Variant::Int(4); // one line changes
/// assert_eq!(cfg.to_string(), "[player]\nname=\"Ada\"\nlevel=4\n");
/// cfg["player"].properties_mut()["hp"] = Variant::Int(9); // a new name is added
/// assert_eq!(cfg.to_string(), "[player]\nname=\"Ada\"\nlevel=4\nhp=9\n");
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Properties {
    pub(crate) items: Vec<Property>,
    /// How a new property's line is written (`name = `, `name=`, nothing in a binary file).
    pub(crate) form: Form,
}

impl Properties {
    pub(crate) fn new(form: Form) -> Properties {
        Properties {
            items: Vec::new(),
            form,
        }
    }

    /// How many properties (a repeated name counts each time).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The properties in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Property> {
        self.items.iter()
    }

    /// The properties in order, to change their values (a changed value is printed anew).
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Property> {
        self.items.iter_mut()
    }

    /// Their names in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.items.iter().map(Property::name)
    }

    /// The property `name` (the last, if repeated): its value and text.
    pub fn property(&self, name: &str) -> Option<&Property> {
        self.items.iter().rfind(|p| p.name() == name)
    }

    /// The property `name`, to change.
    pub fn property_mut(&mut self, name: &str) -> Option<&mut Property> {
        self.items.iter_mut().rfind(|p| p.name() == name)
    }

    /// The value of `name` (the last, if repeated).
    pub fn get(&self, name: &str) -> Option<&Variant> {
        self.property(name).map(Property::value)
    }

    /// The value of `name`, to change (it is printed anew).
    pub fn get_mut(&mut self, name: &str) -> Option<&mut Variant> {
        self.property_mut(name).map(Property::value_mut)
    }

    /// Sets a property: its value in place, or a new one at the end, written as the
    /// engine writes one (`name = value` in a resource, `name=value` in a ConfigFile, the
    /// name quoted when it must be).
    pub fn set(&mut self, name: &str, value: impl Into<Variant>) {
        let value = value.into();
        if let Some(p) = self.property_mut(name) {
            p.set_value(value);
            return;
        }
        let head = self.form.head(name);
        self.items.push(Property::fresh(name, value, head));
    }

    /// Removes a property (every line of it); returns its value.
    pub fn remove(&mut self, name: &str) -> Option<Variant> {
        let old = self.get(name).cloned();
        self.items.retain(|p| p.name() != name);
        old
    }

    /// The properties as a Dictionary of their names (in order; a repeated name once,
    /// with its last value).
    pub fn to_dictionary(&self) -> Dictionary {
        let mut d = Dictionary::new();
        for p in &self.items {
            d.insert(p.name(), p.value().clone());
        }
        d
    }

    /// The properties as a `Deserialize` type: fields by property name (`metadata/hp` with
    /// `#[serde(rename = "metadata/hp")]`), values with the rules of
    /// [`godot_bin::from_variant`], references as [`Reference`](super::Reference).
    pub fn to_struct<T: DeserializeOwned>(&self) -> Result<T> {
        Ok(godot_bin::from_variant(Variant::Dictionary(
            self.to_dictionary(),
        ))?)
    }

    /// Sets each field of `value` as a property, in order (as [`set`](Self::set)).
    pub fn set_struct<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        for (k, v) in fields_of(value)? {
            self.set(&k, v);
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Properties {
    type Item = &'a Property;
    type IntoIter = std::slice::Iter<'a, Property>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a> IntoIterator for &'a mut Properties {
    type Item = &'a mut Property;
    type IntoIter = std::slice::IterMut<'a, Property>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

/// The value of `name`; panics if there is none (see [`Properties::get`]).
impl std::ops::Index<&str> for Properties {
    type Output = Variant;
    fn index(&self, name: &str) -> &Variant {
        self.get(name)
            .unwrap_or_else(|| panic!("no property `{name}`"))
    }
}

/// The value of `name`, to change; a property not there yet is added at the end (null
/// until set), as toml_edit's tables add a key.
impl std::ops::IndexMut<&str> for Properties {
    fn index_mut(&mut self, name: &str) -> &mut Variant {
        if self.property(name).is_none() {
            self.set(name, Variant::Nil);
        }
        self.get_mut(name).expect("the property was just added")
    }
}

/// The value of the property at `position`; panics past the end.
impl std::ops::Index<usize> for Properties {
    type Output = Variant;
    fn index(&self, position: usize) -> &Variant {
        self.items[position].value()
    }
}

/// The value of the property at `position`, to change; panics past the end.
impl std::ops::IndexMut<usize> for Properties {
    fn index_mut(&mut self, position: usize) -> &mut Variant {
        self.items[position].value_mut()
    }
}

fn line_end(tail: &str) -> &'static str {
    if tail.ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// A `[tag attr=value ...]` header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Tag {
    pub(crate) before: String,
    pub(crate) name: String,
    pub(crate) attrs: Vec<(String, Variant)>,
    /// The tag's text from `[` to `]` as read, while unchanged.
    pub(crate) text: Option<String>,
    pub(crate) tail: String,
}

impl Tag {
    pub(crate) fn fresh(name: &str, attrs: Vec<(String, Variant)>) -> Tag {
        Tag {
            before: String::new(),
            name: name.into(),
            attrs,
            text: None,
            tail: "\n".into(),
        }
    }

    /// The tag as the engine prints one: `[name a=v b=w]`. A simple tag (ConfigFile) has
    /// no attributes and escapes `]` in its name (Godot 4).
    pub(crate) fn write(&self, out: &mut String, style: Style, simple: bool) {
        out.push_str(&self.before);
        match &self.text {
            Some(t) => out.push_str(t),
            None if simple => {
                out.push('[');
                // Godot 3's saver writes a `]` in a name as it is, which its reader then
                // takes for the header's end: such a file would not read back, so both
                // styles write Godot 4's `\]`.
                out.push_str(&self.name.replace(']', "\\]"));
                if self.name.ends_with('\\') {
                    // A last `\` would escape the closing `]`; a space ends the escape and
                    // is stripped again on reading.
                    out.push(' ');
                }
                out.push(']');
            }
            None => {
                out.push('[');
                out.push_str(&self.name);
                for (k, v) in &self.attrs {
                    // The engine writes `binds= [...]`, a space after its `=` only.
                    let sep = if k == "binds" { "= " } else { "=" };
                    let _ = write!(out, " {k}{sep}");
                    if let (true, Variant::Array(groups)) =
                        (k == "groups" && style.dialect != Dialect::Godot4, v)
                    {
                        // Godot 3 writes groups one per line, each followed by a comma.
                        out.push_str("[\n");
                        for g in groups.iter() {
                            out.push('"');
                            c_escape(g.as_str().unwrap_or_default(), out);
                            out.push_str("\",\n");
                        }
                        out.push(']');
                        continue;
                    }
                    let text = syntax::print_value(v, style);
                    out.push_str(text.strip_suffix('\n').unwrap_or(&text));
                }
                out.push(']');
            }
        }
        out.push_str(&self.tail);
    }
}

/// `String::c_escape` for the characters a group name may hold.
fn c_escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// Which file a section is in: how a new property is written under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// A ConfigFile: `key=value`, the key encoded for `dialect`.
    Config(Dialect),
    /// A resource or scene: `key = value`.
    Resource(Dialect),
    /// A binary resource's internal resource: no text.
    Binary,
}

impl Form {
    /// The text before a new property's value.
    pub(crate) fn head(self, name: &str) -> String {
        match self {
            Form::Config(d) => format!("{}=", super::lex::encode_key(name, d)),
            Form::Resource(_) => format!("{} = ", super::lex::encode_property(name)),
            Form::Binary => String::new(),
        }
    }

    /// The dialect a text file's section is written in (Godot 4 for a binary resource's,
    /// which has no text).
    pub(crate) fn dialect(self) -> Dialect {
        match self {
            Form::Config(d) | Form::Resource(d) => d,
            Form::Binary => Dialect::Godot4,
        }
    }
}

/// One `[tag ...]` of a text resource, scene or ConfigFile and the properties under it
/// (see [`TextResource`](super::TextResource), [`ConfigFile`](super::ConfigFile)): the
/// tag's attributes ([`attr`](Self::attr), typed ones such as [`id`](Self::id) and
/// [`parent`](Self::parent)) and its [`Properties`], indexed by name or position.
///
/// ```
/// use godot_bin_files::TextResource;
/// use godot_bin::{Variant, Vector2};
///
/// let text = "[gd_scene format=3]\n\n[node name=\"Player\" type=\"Node2D\"]\nposition = Vector2(4, 2)\n";
/// let mut scene: TextResource = text.parse()?;
/// let player = scene.node_mut(".").expect("the root node"); // `.`: the root, as `parent=` names it
/// assert_eq!(player.type_name(), Some("Node2D"));
/// assert_eq!(player["position"], Variant::from(Vector2::new(4.0, 2.0)));
/// player["position"] = Vector2::new(5.0, 2.0).into(); // one line changes
/// assert_eq!(scene.to_string(), text.replace("Vector2(4, 2)", "Vector2(5, 2)"));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub(crate) tag: Option<Tag>,
    pub(crate) properties: Properties,
}

/// A whole text file: its sections and the text after the last one.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Document {
    pub(crate) sections: Vec<Section>,
    pub(crate) trailing: String,
}

/// Skips whitespace and `;` comments from `i`.
fn skip_trivia(s: &[u8], mut i: usize) -> usize {
    while i < s.len() {
        match s[i] {
            b';' => {
                while i < s.len() && s[i] != b'\n' {
                    i += 1;
                }
            }
            c if c <= b' ' => i += 1,
            _ => break,
        }
    }
    i
}

/// The line end after a value at `i`: spaces and tabs, then `\n` or `\r\n`, when the line
/// ends there; empty when something else follows on the line.
fn tail_at(s: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < s.len() && (s[j] == b' ' || s[j] == b'\t' || s[j] == b'\r') {
        j += 1;
    }
    if j == s.len() {
        return j;
    }
    if s[j] == b'\n' {
        j + 1
    } else {
        i
    }
}

/// Whether the engine's text of `v` ends with a newline: a full object (not a reference
/// marker) or an object id.
pub(crate) fn ends_with_newline(v: &Variant) -> bool {
    match v {
        Variant::Object(o) => {
            !o.class_name.is_empty() && super::reference::Reference::from_object(o).is_none()
        }
        Variant::ObjectId(id) => id.0 != 0,
        _ => false,
    }
}

impl Document {
    /// Reads `text`. `simple_tags`: ConfigFile section headers (`[any text]`), else the
    /// resource form's `[name attr=value ...]`.
    pub(crate) fn parse(text: &str, form: Form) -> Result<Document> {
        let simple_tags = matches!(form, Form::Config(_));
        let s = text.as_bytes();
        let mut doc = Document {
            sections: vec![Section {
                tag: None,
                properties: Properties::new(form),
            }],
            trailing: String::new(),
        };
        let mut pos = 0;
        let at = |e: Error| relocate(e, text);
        loop {
            let i = skip_trivia(s, pos);
            if i == s.len() {
                doc.trailing = text[pos..].into();
                return Ok(doc);
            }
            if s[i] == b'[' {
                let (mut tag, end) = if simple_tags {
                    simple_tag(text, i).map_err(at)?
                } else {
                    full_tag(text, i).map_err(at)?
                };
                let after = tail_at(s, end);
                tag.before = text[pos..i].into();
                tag.tail = text[end..after].into();
                doc.sections.push(Section {
                    tag: Some(tag),
                    properties: Properties::new(form),
                });
                pos = after;
                continue;
            }
            let Some((name, eq)) = key(text, i).map_err(at)? else {
                doc.trailing = text[pos..].into();
                return Ok(doc);
            };
            let start = skip_ws(s, eq + 1);
            let end = syntax::value_end(s, start).map_err(at)?;
            let value = syntax::parse_value(text, start, end)?;
            let after = tail_at(s, end);
            let mut next = after;
            let mut extra_line = false;
            // The blank line the engine prints after an object's text is taken as part of
            // the value only when it ends as the value's line does (it is written back as
            // that line end); any other blank stays as the next item's leading text.
            let blank = line_end(&text[end..after]).as_bytes();
            if ends_with_newline(&value)
                && s[..after].ends_with(b"\n")
                && s[after..].starts_with(blank)
            {
                next = after + blank.len();
                extra_line = true;
            }
            let mut property = Property::read(
                &text[pos..after],
                [i, start, end].map(|c| c - pos),
                name,
                value,
            );
            property.extra_line = extra_line;
            doc.sections
                .last_mut()
                .expect("a document always has a first section")
                .properties
                .items
                .push(property);
            pos = next;
        }
    }

    /// Reads every `#` colour value again as `dialect` reads it (they are first read as
    /// Godot 4 does, before the file's dialect is known; Godot 3 puts alpha first).
    pub(crate) fn reread_hex_colors(&mut self, dialect: Dialect) {
        for p in self
            .sections
            .iter_mut()
            .flat_map(|s| s.properties.items.iter_mut())
        {
            if let Some(c) = p
                .text()
                .filter(|t| t.starts_with('#'))
                .and_then(|t| syntax::hex_color(t, dialect))
            {
                p.value = Variant::Color(c);
            }
        }
    }

    /// Forgets the text every value and tag was read from, so that all are printed anew
    /// (comments and blank lines stay).
    pub(crate) fn forget_text(&mut self) {
        for s in &mut self.sections {
            if let Some(t) = s.tag.as_mut() {
                t.text = None;
            }
            for p in &mut s.properties {
                p.forget_text();
            }
        }
    }

    /// The document's text.
    pub(crate) fn write(&self, style: Style, simple_tags: bool) -> String {
        let mut out = String::new();
        // After a value printed anew with nothing after it on its line, the next key may
        // follow at once (`x=4e3e h=1` is `x=4e3`, then the key `e h`, as the engine reads
        // it): where the new text and what follows would read as one token (`4000.0e`), a
        // space goes between them, which the key's reading skips.
        let mut open_end = false;
        for section in &self.sections {
            if let Some(tag) = &section.tag {
                let at = out.len();
                tag.write(&mut out, style, simple_tags);
                unglue(&mut out, at, open_end);
                open_end = false;
            }
            for p in &section.properties {
                let at = out.len();
                p.write(&mut out, style);
                unglue(&mut out, at, open_end);
                open_end = p.text().is_none() && p.tail().is_empty();
            }
        }
        let at = out.len();
        out.push_str(&self.trailing);
        unglue(&mut out, at, open_end);
        out
    }
}

/// `trailing` (the text after a document's last item) with every line a `;` comment
/// when it holds text that is not whitespace or comments: a key the engine stopped
/// reading at the end of the file. Written before something new, that text would be read
/// as the start of the new item's key.
pub(crate) fn comment_out_dangling(trailing: String) -> String {
    if skip_trivia(trailing.as_bytes(), 0) == trailing.len() {
        return trailing;
    }
    let mut out = String::new();
    for line in trailing.split_inclusive('\n') {
        if skip_trivia(line.as_bytes(), 0) < line.len() {
            out.push_str("; ");
        }
        out.push_str(line);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// A space at `at` when `open_end` and the text on both sides of it would lex as one word.
fn unglue(out: &mut String, at: usize, open_end: bool) {
    let word =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if open_end && word(out[..at].chars().next_back()) && word(out[at..].chars().next()) {
        out.insert(at, ' ');
    }
}

/// A byte-positioned error from the scanner, given its line and column in `text`.
fn relocate(e: Error, text: &str) -> Error {
    match e.position() {
        Some(crate::error::Position::Byte(at)) => {
            let kind = match e.kind() {
                crate::error::ErrorKind::Syntax(m) => crate::error::ErrorKind::Syntax(m.clone()),
                other => crate::error::ErrorKind::Syntax(other.to_string()),
            };
            Error::new(kind).at_text(text, at)
        }
        _ => e,
    }
}

fn skip_ws(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i] <= b' ' {
        i += 1;
    }
    i
}

/// The key starting at `i` and the index of its `=`, as the engine reads keys: the
/// characters up to `=` with every one at or below a space dropped, a quoted string
/// taking the place of what came before it (`"a" b =` is the key `ab`). `None` when the
/// text ends before a `=`: the engine stops reading there with what it has (a JSON or
/// YAML file named `.cfg` reads as an empty ConfigFile), and so does this reader.
fn key(text: &str, i: usize) -> Result<Option<(String, usize)>> {
    let s = text.as_bytes();
    let mut name = Vec::new();
    let mut j = i;
    while j < s.len() {
        // Up to the next `=`, `"` or `;` every byte above a space is the name's.
        let run = s[j..]
            .iter()
            .position(|&c| matches!(c, b'=' | b'"' | b';'))
            .unwrap_or(s.len() - j);
        name.reserve(run);
        name.extend(s[j..j + run].iter().filter(|&&c| c > b' '));
        j += run;
        let Some(&c) = s.get(j) else {
            break;
        };
        match c {
            b'=' => {
                let name = String::from_utf8(name)
                    .map_err(|_| Error::syntax("a key that is not UTF-8").at_byte(i))?;
                return Ok(Some((name, j)));
            }
            b'"' => {
                let end = syntax::skip_string(s, j)?;
                match Variant::from_text(&text[j..end]) {
                    Ok(Variant::String(n)) => name = n.into_bytes(),
                    _ => return Err(Error::syntax("a quoted key that is not a string").at_byte(j)),
                }
                j = end;
                continue;
            }
            _ => {
                return Err(
                    Error::syntax("a comment inside a key: expected '=' before ';'").at_byte(j),
                )
            }
        }
    }
    Ok(None)
}

/// A ConfigFile section header: the text up to the first `]` not right after a `\`,
/// stripped of characters at or below a space at both ends (the engine's `strip_edges`),
/// with `\]` read as `]` (Godot 4's rule; Godot 3 stops at the first `]`). A `\` escapes
/// the next `]` even after another `\`, as in the engine's tag reader.
fn simple_tag(text: &str, i: usize) -> Result<(Tag, usize)> {
    let s = text.as_bytes();
    let mut j = i + 1;
    let mut escaping = false;
    while j < s.len() {
        match s[j] {
            b']' if !escaping => {
                let name = text[i + 1..j]
                    .trim_matches(|c: char| c <= ' ')
                    .replace("\\]", "]");
                let tag = Tag {
                    before: String::new(),
                    name,
                    attrs: Vec::new(),
                    text: Some(text[i..j + 1].into()),
                    tail: String::new(),
                };
                return Ok((tag, j + 1));
            }
            b'\\' => escaping = true,
            _ => escaping = false,
        }
        j += 1;
    }
    Err(Error::syntax("a section header is not closed with ']'").at_byte(i))
}

/// A resource file's tag: `[name attr=value ...]` with whitespace (newlines too) between
/// the pieces.
fn full_tag(text: &str, i: usize) -> Result<(Tag, usize)> {
    let s = text.as_bytes();
    let ident = |j: usize| {
        let mut k = j;
        while k < s.len()
            && (s[k].is_ascii_alphanumeric() || matches!(s[k], b'_' | b'.' | b':' | b'/'))
        {
            k += 1;
        }
        k
    };
    let mut j = skip_ws(s, i + 1);
    let name_end = ident(j);
    if name_end == j {
        return Err(Error::syntax("expected a tag name after '['").at_byte(j));
    }
    let name = text[j..name_end].to_string();
    j = name_end;
    let mut attrs = Vec::new();
    loop {
        j = skip_ws(s, j);
        match s.get(j) {
            None => {
                return Err(
                    Error::syntax(format!("the tag [{name} is not closed with ']'")).at_byte(i),
                )
            }
            Some(b']') => break,
            Some(_) => {}
        }
        let key_end = ident(j);
        if key_end == j {
            return Err(Error::syntax(format!(
                "expected an attribute name or ']' in [{name}], found {:?}",
                syntax::char_at(s, j)
            ))
            .at_byte(j));
        }
        let key = text[j..key_end].to_string();
        let eq = skip_ws(s, key_end);
        if s.get(eq) != Some(&b'=') {
            return Err(Error::syntax(format!("expected '=' after {key} in [{name}]")).at_byte(eq));
        }
        let start = skip_ws(s, eq + 1);
        let end = syntax::value_end(s, start)?;
        let value = syntax::parse_value(text, start, end)?;
        attrs.push((key, value));
        j = end;
    }
    let tag = Tag {
        before: String::new(),
        name,
        attrs,
        text: Some(text[i..j + 1].into()),
        tail: String::new(),
    };
    Ok((tag, j + 1))
}

/// A Dictionary key as text, if it is a String or a StringName.
pub(crate) fn key_text(k: &Variant) -> Option<&str> {
    match k {
        Variant::String(s) => Some(s),
        Variant::StringName(s) => Some(&s.0),
        _ => None,
    }
}

/// The keys and values of a struct or map with text keys.
pub(crate) fn fields_of<T: Serialize + ?Sized>(value: &T) -> Result<Vec<(String, Variant)>> {
    match godot_bin::to_variant(value)? {
        Variant::Dictionary(d) => d
            .iter()
            .map(|(k, v)| {
                key_text(k)
                    .map(|k| (k.to_string(), v.clone()))
                    .ok_or_else(|| {
                        Error::unwritable(format!("a key is a {}, not text", k.get_type()))
                    })
            })
            .collect(),
        other => Err(Error::unwritable(format!(
            "expected a struct or a map, found a {}",
            other.get_type()
        ))),
    }
}

/// `Index` / `IndexMut` by name and by position for a type that holds a `properties`
/// field ([`Section`], a binary file's `SubResource`): the same as indexing its
/// [`Properties`], which owns the rules.
macro_rules! index_properties {
    ($ty:ty) => {
        /// The value of the property `name`; panics if there is none (see
        /// [`Properties::get`](super::Properties::get)).
        impl std::ops::Index<&str> for $ty {
            type Output = godot_bin::Variant;
            fn index(&self, name: &str) -> &godot_bin::Variant {
                &self.properties[name]
            }
        }

        /// The value of the property `name`, to change; a property not there yet is added
        /// (null until set).
        impl std::ops::IndexMut<&str> for $ty {
            fn index_mut(&mut self, name: &str) -> &mut godot_bin::Variant {
                &mut self.properties[name]
            }
        }

        /// The value of the property at `position`; panics past the end.
        impl std::ops::Index<usize> for $ty {
            type Output = godot_bin::Variant;
            fn index(&self, position: usize) -> &godot_bin::Variant {
                &self.properties[position]
            }
        }

        /// The value of the property at `position`, to change; panics past the end.
        impl std::ops::IndexMut<usize> for $ty {
            fn index_mut(&mut self, position: usize) -> &mut godot_bin::Variant {
                &mut self.properties[position]
            }
        }
    };
}
pub(crate) use index_properties;

#[cfg(test)]
mod tests;
