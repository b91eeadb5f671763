//! What the differential compares, and the short list of known, named differences.
//!
//! Each record holds a packet, the engine's own decode-and-re-encode of it (`again`) and the
//! engine's text of the decoded value. The crate decodes the packet into a [`Variant`] `w`;
//! its re-encoding must equal the packet or the engine's re-encoding, and `w`'s text must
//! be the engine's text. Where they differ, the difference must be one of [`Named`], and
//! each is checked, not assumed: the engine's side is put through the one transformation
//! the name stands for and must then agree byte for byte (or character for character).

use godot_bin::{Array, Config, Dialect, Dictionary, Object, Variant};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// One value as the engine handled it.
#[derive(Debug, Clone)]
pub struct Record {
    pub index: u32,
    /// How the packet was made (engine → crate): see the `TAG_*` constants.
    pub tag: u8,
    /// Objects travel in full (`var_to_bytes_with_objects` / `var2bytes(v, true)`).
    pub full: bool,
    pub packet: Vec<u8>,
    pub again: Vec<u8>,
    pub text: String,
}

// Tags (engine -> crate): 0, a generated value through the engine's encoder, and these:

/// A Dictionary packet whose keys repeat, built byte by byte.
pub const TAG_REPEATED_KEYS: u8 = 1;
/// A String packet whose bytes hold a NUL, built byte by byte.
pub const TAG_NUL: u8 = 2;
/// An int that fits in 32 bits, sent with the 64-bit flag.
pub const TAG_WIDE_INT: u8 = 3;

/// Reads the records the GDScript side writes: per value, u32 index, u8 flags (tag in the
/// low four bits, bit 4 = objects in full), then three u32-length-prefixed byte strings:
/// the packet, the engine's re-encoding, the engine's text (UTF-8).
pub fn parse_records(bytes: &[u8]) -> Vec<Record> {
    fn take<'a>(bytes: &'a [u8], at: &mut usize, n: usize) -> &'a [u8] {
        let s = &bytes[*at..*at + n];
        *at += n;
        s
    }
    fn word(bytes: &[u8], at: &mut usize) -> usize {
        u32::from_le_bytes(take(bytes, at, 4).try_into().unwrap()) as usize
    }
    let mut at = 0;
    let mut out = Vec::new();
    while at < bytes.len() {
        let index = word(bytes, &mut at) as u32;
        let flags = take(bytes, &mut at, 1)[0];
        let n = word(bytes, &mut at);
        let packet = take(bytes, &mut at, n).to_vec();
        let n = word(bytes, &mut at);
        let again = take(bytes, &mut at, n).to_vec();
        let n = word(bytes, &mut at);
        let text = String::from_utf8(take(bytes, &mut at, n).to_vec())
            .expect("the engine's text is UTF-8");
        out.push(Record {
            index,
            tag: flags & 15,
            full: flags & 16 != 0,
            packet,
            again,
            text,
        });
    }
    out
}

/// The known differences, each with its reason. A value may show several.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Named {
    /// The engine's encoder leaves NodePath padding unwritten (old memory); the crate
    /// writes zeros.
    NodePathPadding,
    /// The engine (and the crate) drop a BOM at the start of a string while decoding.
    BomDropped,
    /// The engine (and the crate) end a string at its first NUL while decoding.
    TextAfterNulDropped,
    /// An int that fits in 32 bits decodes to the same int whichever width it was sent in,
    /// and both re-encode it in 32 bits.
    WideIntNarrowed,
    /// Godot 3's decoder makes the absolute empty path `NodePath("/")` relative (its
    /// `NodePath(names, subnames, absolute)` drops the flag of an empty path); the crate
    /// follows it in the Godot 3 dialect.
    Godot3RootPathRelative,
    /// The engine decodes an object sent as its id into an `EncodedObjectAsID` placeholder
    /// and re-encodes the placeholder's own id (null for id 0); the crate keeps the id.
    PlaceholderObjectIds,
    /// Repeated Dictionary keys: a packet holding a key twice (or two keys that differ only
    /// by a leading BOM, which decoding drops) decodes to one entry, at the first key's
    /// place with the last value, in the engine and in the crate alike, so both re-encode
    /// fewer entries than the packet. (Checked the other way too: were the crate to keep
    /// both, merging them as the engine does must give the engine's bytes and text.)
    RepeatedKeys,
    /// Godot 4's text writer prints `[]`, `{}` or `null` for a container past depth 100 and
    /// logs an error; the crate prints everything (see the text form's docs).
    DepthPast100,
    /// The crate prints the shortest digits that read back exactly; the engine prints six
    /// significant digits (`%g`).
    FloatDigits,
    /// Godot 3 prints a FLOAT through its 32-bit `real_t`, so a double within the `f32`
    /// range prints with the digits of the nearest `f32` (`3e-300` as `0`). (Beyond that
    /// range it prints an infinity, and so does the crate: no difference.)
    Godot3FloatAsF32,
    /// The crate keeps the sign of `-0.0` in text; the engines print `0`.
    NegativeZero,
    /// Godot 3 prints a FLOAT `-inf` as `-inf.0`, which its own parser cannot read; the
    /// crate prints `-inf`.
    Godot3NegInfSuffix,
    /// Godot 3 prints a NaN whose sign bit is set as `-nan` (`-nan.0` as a FLOAT); the
    /// crate prints `nan` (issue 13 owns that printing rule).
    Godot3NegativeNan,
}

/// Counts per engine and direction: values compared, each named difference (with an
/// example), and the disagreements.
#[derive(Default)]
pub struct Tally {
    pub compared: usize,
    pub named: BTreeMap<Named, (usize, String)>,
    pub disagreements: Vec<String>,
}

/// The named differences one value shows, each with an example.
#[derive(Default)]
struct Found(BTreeMap<Named, String>);

impl Found {
    fn note(&mut self, named: Named, example: impl FnOnce() -> String) {
        self.0.entry(named).or_insert_with(example);
    }
}

impl Tally {
    /// Counts each named difference once per value.
    fn add(&mut self, found: Found) {
        for (named, example) in found.0 {
            self.named.entry(named).or_insert((0, example)).0 += 1;
        }
    }

    /// The report printed after a run.
    pub fn report(&self, title: &str) -> String {
        let mut s = format!(
            "{title}: {} values compared, {} disagreements\n",
            self.compared,
            self.disagreements.len()
        );
        for (named, (n, example)) in &self.named {
            let _ = writeln!(s, "  {n:>6}  {named:?}, e.g. {example}");
        }
        for d in self.disagreements.iter().take(20) {
            let _ = writeln!(s, "  DISAGREE {d}");
        }
        s
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn short(s: &str) -> String {
    // GODOT_BIN_DIFF_FULL=1 shows whole texts in the report.
    let keep = if std::env::var_os("GODOT_BIN_DIFF_FULL").is_some() {
        usize::MAX
    } else {
        160
    };
    let s: String = s.chars().take(keep).collect();
    format!("{s:?}")
}

/// `ours` equals the engine's `theirs`, NodePath padding aside: `Some(padding_differs)`.
fn same(ours: &[u8], theirs: &[u8], cfg: &Config) -> Option<bool> {
    if ours == theirs {
        return Some(false);
    }
    if ours.len() != theirs.len() {
        return None;
    }
    let pads = godot_bin::explain::nodepath_padding(theirs, cfg).ok()?;
    let is_pad = |i: usize| pads.iter().any(|p| p.contains(&i));
    (0..ours.len())
        .all(|i| ours[i] == theirs[i] || is_pad(i))
        .then_some(true)
}

/// Compares one record; adds to `tally`.
pub fn check(dialect: Dialect, rec: &Record, tally: &mut Tally) {
    tally.compared += 1;
    let cfg = Config::new(dialect).allow_objects(rec.full);
    let what = || format!("#{} packet {}", rec.index, hex(&rec.packet));
    let w: Variant = match cfg.from_slice(&rec.packet) {
        Ok(w) => w,
        Err(e) => {
            tally
                .disagreements
                .push(format!("{}: the engine decodes it, the crate: {e}", what()));
            return;
        }
    };
    let ours = match cfg.to_vec(&w) {
        Ok(b) => b,
        Err(e) => {
            tally
                .disagreements
                .push(format!("{}: the crate cannot re-encode {w:?}: {e}", what()));
            return;
        }
    };
    let mut found = Found::default();
    if let Err(why) = check_bytes(dialect, &cfg, rec, &w, &ours, &mut found) {
        tally.disagreements.push(format!(
            "{}: {why}\n    crate:  {}\n    engine: {}\n    value: {w:?}",
            what(),
            hex(&ours),
            hex(&rec.again)
        ));
    }
    if let Err(why) = check_text(dialect, rec, &w, &mut found) {
        tally.disagreements.push(format!(
            "{}: text: {why}\n    crate:  {}\n    engine: {}",
            what(),
            short(&w.to_text(dialect)),
            short(&rec.text)
        ));
    }
    tally.add(found);
}

/// The bytes: the crate's re-encoding `ours` against the packet and the engine's `again`.
fn check_bytes(
    dialect: Dialect,
    cfg: &Config,
    rec: &Record,
    w: &Variant,
    ours: &[u8],
    tally: &mut Found,
) -> Result<(), String> {
    let example = || format!("#{} {}", rec.index, hex(&rec.packet));
    let vs_packet = same(ours, &rec.packet, cfg);
    let engine_kept = same(&rec.again, &rec.packet, cfg);
    if let (Some(p1), Some(p2)) = (vs_packet, engine_kept) {
        if p1 || p2 {
            tally.note(Named::NodePathPadding, example);
        }
        return Ok(());
    }
    // The engine's re-encoding, with the ids of its placeholder objects put back, against
    // the crate's value as the engine holds it (repeated keys merged).
    let e: Variant = cfg
        .from_slice(&rec.again)
        .map_err(|e| format!("the crate cannot decode the engine's re-encoding: {e}"))?;
    let merged = merge_repeated_keys(w, dialect);
    let with_ids = put_back_ids(e.clone(), &merged);
    let mine = cfg.to_vec(&merged).map_err(|e| e.to_string())?;
    let theirs = cfg.to_vec(&with_ids).map_err(|e| e.to_string())?;
    if mine != theirs {
        return Err("differs from the engine's re-encoding".into());
    }
    // (Compared as bytes: a NaN is not equal to itself as a Variant.)
    let engine_bytes = cfg.to_vec(&e).map_err(|e| e.to_string())?;
    if theirs != engine_bytes {
        tally.note(Named::PlaceholderObjectIds, example);
    }
    let merged_keys = mine != ours;
    if merged_keys {
        tally.note(Named::RepeatedKeys, example);
    }
    if vs_packet.is_none() && !merged_keys {
        // The crate's re-encoding is the engine's but not the packet: the crate's decoder
        // normalised the value as the engine's does. Say how.
        let reason = if rec.tag == TAG_REPEATED_KEYS {
            Named::RepeatedKeys
        } else if rec.tag == TAG_NUL {
            Named::TextAfterNulDropped
        } else if rec.tag == TAG_WIDE_INT || has_wide_small_int(&rec.packet, dialect) {
            Named::WideIntNarrowed
        } else if rec.packet.windows(3).any(|x| x == b"\xEF\xBB\xBF") {
            Named::BomDropped
        } else if dialect == Dialect::Godot3 && has_root_path(&rec.packet) {
            Named::Godot3RootPathRelative
        } else {
            return Err(
                "the crate normalised the packet as the engine does, for no known reason".into(),
            );
        };
        tally.note(reason, example);
    }
    Ok(())
}

/// Whether the packet holds a Godot 3 NodePath with no names, no subnames and the absolute
/// flag (`NodePath("/")`), at a word boundary.
fn has_root_path(packet: &[u8]) -> bool {
    let pattern = [15u8, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 1, 0, 0, 0];
    packet
        .chunks_exact(4)
        .enumerate()
        .any(|(i, _)| packet[i * 4..].starts_with(&pattern))
}

/// Whether the packet is (or, in a repeated-key packet, holds) a 64-bit INT header.
fn has_wide_small_int(packet: &[u8], _dialect: Dialect) -> bool {
    packet.starts_with(&[2, 0, 1, 0])
}

/// The engine's key equality (`Dictionary` keeps one entry per key): Godot 4 takes a
/// String and a StringName of one text as one key; otherwise `Variant::hash_compare`.
pub fn same_key(a: &Variant, b: &Variant, dialect: Dialect) -> bool {
    if dialect == Dialect::Godot4 {
        if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
            return x == y;
        }
    }
    hash_equal(a, b, true, dialect)
}

/// `Variant::hash_compare`: one type, and equal values, where float components are equal
/// when `==` (so `0.0` and `-0.0`) or both NaN. A FLOAT's NaN equals another only at the
/// top (`semantic`): Godot 4 compares Array elements without that rule. Objects are never
/// equal (each decodes to its own placeholder).
fn hash_equal(a: &Variant, b: &Variant, semantic: bool, dialect: Dialect) -> bool {
    use Variant as V;
    match (a, b) {
        (V::Float(x), V::Float(y)) => x == y || (semantic && x.is_nan() && y.is_nan()),
        (V::Array(x), V::Array(y)) => {
            let inner = dialect != Dialect::Godot4;
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| hash_equal(p, q, inner, dialect))
        }
        (V::ObjectId(_) | V::Object(_), _) | (_, V::ObjectId(_) | V::Object(_)) => false,
        _ => canonical(a) == canonical(b),
    }
}

/// `v`'s debug text with every NaN alike (as `{:?}` prints them) and `-0.0` as `0.0`.
fn canonical(v: &Variant) -> String {
    let text = format!("{v:?}");
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        let negative_zero = c == '-'
            && b[i + 1..].starts_with(b"0.0")
            && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
            && !(i > 0 && b[i - 1].is_ascii_alphanumeric());
        if !negative_zero {
            out.push(c);
        }
    }
    out
}

/// `w` with the engine's Dictionary semantics applied everywhere: one entry per key, at
/// the first key's position, holding the last value.
pub fn merge_repeated_keys(w: &Variant, dialect: Dialect) -> Variant {
    map_containers(w, &|v| match v {
        Variant::Dictionary(d) => {
            let mut pairs: Vec<(Variant, Variant)> = Vec::new();
            for (k, v) in d.iter() {
                match pairs.iter_mut().find(|(k2, _)| same_key(k2, k, dialect)) {
                    Some(slot) => slot.1 = v.clone(),
                    None => pairs.push((k.clone(), v.clone())),
                }
            }
            Some(Variant::Dictionary(dictionary_like(d, pairs)))
        }
        _ => None,
    })
}

/// A Dictionary with `d`'s key and value types and these entries.
fn dictionary_like(d: &Dictionary, pairs: Vec<(Variant, Variant)>) -> Dictionary {
    let mut out = Dictionary::from(pairs);
    out.set_types(d.key_type().clone(), d.value_type().clone());
    out
}

/// Rebuilds every container bottom-up: `f` may replace a (rebuilt) container.
fn map_containers(v: &Variant, f: &dyn Fn(&Variant) -> Option<Variant>) -> Variant {
    let rebuilt = match v {
        Variant::Array(a) => Variant::Array(Array::typed(
            a.element_type.clone(),
            a.iter().map(|x| map_containers(x, f)).collect(),
        )),
        Variant::Dictionary(d) => {
            let pairs = d
                .iter()
                .map(|(k, x)| (map_containers(k, f), map_containers(x, f)))
                .collect();
            Variant::Dictionary(dictionary_like(d, pairs))
        }
        Variant::Object(o) => Variant::Object(Object {
            class_name: o.class_name.clone(),
            properties: o
                .properties
                .iter()
                .map(|(n, x)| (n.clone(), map_containers(x, f)))
                .collect(),
        }),
        other => other.clone(),
    };
    f(&rebuilt).unwrap_or(rebuilt)
}

/// `e` (the engine's re-encoding, decoded) with each object id taken from `w` at the same
/// place: the engine re-encodes its `EncodedObjectAsID` placeholders with their own ids,
/// and the null id as null.
fn put_back_ids(e: Variant, w: &Variant) -> Variant {
    match (e, w) {
        (Variant::ObjectId(_) | Variant::Nil, Variant::ObjectId(id)) => Variant::ObjectId(*id),
        (Variant::Array(a), Variant::Array(b)) if a.len() == b.len() => {
            let items = a
                .items
                .into_iter()
                .zip(b.iter())
                .map(|(x, y)| put_back_ids(x, y))
                .collect();
            Variant::Array(Array::typed(a.element_type, items))
        }
        (Variant::Dictionary(d), Variant::Dictionary(d2)) if d.len() == d2.len() => {
            let pairs = d
                .iter()
                .zip(d2.iter())
                .map(|((k, x), (k2, y))| (put_back_ids(k.clone(), k2), put_back_ids(x.clone(), y)))
                .collect();
            Variant::Dictionary(dictionary_like(&d, pairs))
        }
        (Variant::Object(o), Variant::Object(o2)) if o.properties.len() == o2.properties.len() => {
            Variant::Object(Object {
                properties: o
                    .properties
                    .into_iter()
                    .zip(&o2.properties)
                    .map(|((n, x), (_, y))| (n, put_back_ids(x, y)))
                    .collect(),
                class_name: o.class_name,
            })
        }
        (e, _) => e,
    }
}

/// Godot 4's writer past depth 100: a container whose nesting count is above 100 prints
/// empty (an object as `null`). The count goes up on entering a non-empty Array, a non-empty
/// Dictionary, or an Object.
fn truncate_past_100(v: &Variant, level: usize) -> Variant {
    const MAX: usize = 100;
    match v {
        Variant::Array(a) => Variant::Array(Array::typed(
            a.element_type.clone(),
            if level > MAX {
                Vec::new()
            } else {
                a.iter().map(|x| truncate_past_100(x, level + 1)).collect()
            },
        )),
        Variant::Dictionary(d) => {
            let pairs = if level > MAX {
                Vec::new()
            } else {
                d.iter()
                    .map(|(k, x)| {
                        (
                            truncate_past_100(k, level + 1),
                            truncate_past_100(x, level + 1),
                        )
                    })
                    .collect()
            };
            Variant::Dictionary(dictionary_like(d, pairs))
        }
        Variant::Object(_) | Variant::ObjectId(_) if level > MAX => Variant::Nil,
        Variant::Object(o) => Variant::Object(Object {
            class_name: o.class_name.clone(),
            properties: o
                .properties
                .iter()
                .map(|(n, x)| (n.clone(), truncate_past_100(x, level + 1)))
                .collect(),
        }),
        other => other.clone(),
    }
}

/// The text: the crate's text of `w` against the engine's.
fn check_text(
    dialect: Dialect,
    rec: &Record,
    w: &Variant,
    tally: &mut Found,
) -> Result<(), String> {
    let example = || format!("#{}", rec.index);
    let whole = w.to_text(dialect);
    let merged = merge_repeated_keys(w, dialect);
    let mut ours = merged.to_text(dialect);
    if ours != whole {
        tally.note(Named::RepeatedKeys, example);
    }
    if dialect == Dialect::Godot4 {
        let truncated = truncate_past_100(&merged, 0).to_text(dialect);
        if truncated != ours {
            tally.note(Named::DepthPast100, example);
            ours = truncated;
        }
    }
    if ours == rec.text {
        return Ok(());
    }
    let notes = compare_text(&ours, &rec.text, dialect)?;
    for n in notes {
        tally.note(n, || format!("#{} {}", rec.index, short(&rec.text)));
    }
    Ok(())
}

#[derive(Debug, PartialEq)]
enum Tok<'a> {
    Num(&'a str),
    Other(&'a str),
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Length of the number at `s[i..]` (`-1.5e+07`, `inf`, `inf_neg`, `-nan.0`...), if one
/// starts there and is not part of a word.
fn number_at(s: &[u8], i: usize) -> Option<usize> {
    if i > 0 && (is_word_byte(s[i - 1]) || s[i - 1] == b'.') {
        return None;
    }
    let mut j = i;
    if s.get(j) == Some(&b'-') {
        j += 1;
    }
    let rest = &s[j..];
    let word = rest.iter().take_while(|b| is_word_byte(**b)).count();
    if matches!(&rest[..word], b"inf" | b"nan" | b"inf_neg") {
        j += word;
        if s[j..].starts_with(b".0") && !s.get(j + 2).is_some_and(|b| b.is_ascii_digit()) {
            j += 2;
        }
        return Some(j - i);
    }
    let digits = |j: &mut usize| {
        let start = *j;
        while s.get(*j).is_some_and(u8::is_ascii_digit) {
            *j += 1;
        }
        *j > start
    };
    if !digits(&mut j) {
        return None;
    }
    if s.get(j) == Some(&b'.') {
        j += 1;
        digits(&mut j);
    }
    if matches!(s.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(s.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if digits(&mut k) {
            j = k;
        }
    }
    if s.get(j).is_some_and(|b| is_word_byte(*b)) {
        return None;
    }
    Some(j - i)
}

fn tokens(s: &str) -> Vec<Tok<'_>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut other) = (0, 0);
    while i < b.len() {
        match number_at(b, i) {
            Some(n) => {
                if other < i {
                    out.push(Tok::Other(&s[other..i]));
                }
                out.push(Tok::Num(&s[i..i + n]));
                i += n;
                other = i;
            }
            None => i += 1,
        }
    }
    if other < b.len() {
        out.push(Tok::Other(&s[other..]));
    }
    out
}

/// Compares texts token by token; numbers may differ only in the named ways.
fn compare_text(ours: &str, theirs: &str, dialect: Dialect) -> Result<Vec<Named>, String> {
    let (a, b) = (tokens(ours), tokens(theirs));
    let mut notes = Vec::new();
    for (i, pair) in a.iter().zip(b.iter()).enumerate() {
        match pair {
            (Tok::Num(x), Tok::Num(y)) => match compare_number(x, y, dialect) {
                Some(Some(n)) => notes.push(n),
                Some(None) => {}
                None => return Err(format!("token {i}: number {x} against the engine's {y}")),
            },
            (x, y) if x == y => {}
            (x, y) => return Err(format!("token {i}: {x:?} against the engine's {y:?}")),
        }
    }
    if a.len() != b.len() {
        return Err(format!(
            "{} tokens against the engine's {}",
            a.len(),
            b.len()
        ));
    }
    Ok(notes)
}

/// A number's text without the `.0` the writers add to a FLOAT.
fn strip_float_suffix(s: &str) -> &str {
    match s.strip_suffix(".0") {
        Some(base) if !base.contains(['.', 'e']) => base,
        _ => s,
    }
}

fn parse_number(s: &str) -> Option<f64> {
    Some(match s {
        "inf" => f64::INFINITY,
        "inf_neg" | "-inf" => f64::NEG_INFINITY,
        "nan" => f64::NAN,
        "-nan" => -f64::NAN,
        _ => s.parse().ok()?,
    })
}

/// C's `%g` (six significant digits), as the engines print a number.
pub fn printf_g(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let e_form = format!("{x:.5e}");
    let (mantissa, exp) = e_form.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if !(-4..6).contains(&exp) {
        let m = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let fixed = format!("{x:.*}", (5 - exp) as usize);
        if fixed.contains('.') {
            fixed
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            fixed
        }
    }
}

/// `None`: a disagreement; `Some(None)`: the same number; `Some(Some(n))`: a named
/// difference.
fn compare_number(ours: &str, theirs: &str, dialect: Dialect) -> Option<Option<Named>> {
    if ours == theirs {
        return Some(None);
    }
    let (o, t) = (strip_float_suffix(ours), strip_float_suffix(theirs));
    let (x, y) = (parse_number(o)?, parse_number(t)?);
    if x.is_nan() && y.is_nan() {
        return (dialect == Dialect::Godot3 && t.starts_with('-') && !o.starts_with('-'))
            .then_some(Some(Named::Godot3NegativeNan));
    }
    if x == f64::NEG_INFINITY && y == x && theirs == "-inf.0" {
        return Some(Some(Named::Godot3NegInfSuffix));
    }
    if x == 0.0 && y == 0.0 && x.is_sign_negative() && !y.is_sign_negative() {
        return Some(Some(Named::NegativeZero));
    }
    if printf_g(x) == t || (x.is_sign_negative() && x == 0.0 && t == "0") {
        return Some(Some(Named::FloatDigits));
    }
    // An f32 component prints with the f32's shortest digits, which read back as a double
    // are not the f32 itself: round the f32 instead. A Godot 3 FLOAT prints through f32,
    // but where that makes an infinity of a finite double the crate prints it too.
    let narrow = x as f32;
    if narrow.is_infinite() {
        return None;
    }
    // The writers print any zero as `0`.
    let narrow_text = if narrow == 0.0 {
        "0".to_owned()
    } else {
        printf_g(f64::from(narrow))
    };
    if narrow_text == t {
        let printed_an_f32 = narrow.to_string().parse::<f64>() == Ok(x);
        if printed_an_f32 {
            return Some(Some(Named::FloatDigits));
        }
        if dialect == Dialect::Godot3 {
            return Some(Some(Named::Godot3FloatAsF32));
        }
    }
    None
}

/// Checks of the comparison itself, run as trials of the engine binary (which has no
/// `#[test]` harness).
pub fn printf_g_matches_c() {
    for (x, want) in [
        (1.0, "1"),
        (0.1 + 0.2, "0.3"),
        (123456789.0, "1.23457e+08"),
        (1e-7, "1e-07"),
        (1234567.0, "1.23457e+06"),
        (100000.0, "100000"),
        (0.0001, "0.0001"),
        (-2.5, "-2.5"),
    ] {
        assert_eq!(printf_g(x), want, "{x}");
    }
}

/// See [`printf_g_matches_c`].
pub fn tokens_split_numbers_from_words() {
    let t = tokens("Vector2(1.5, -inf.0) PackedInt32Array(3) \"a1\" inf_neg");
    let nums: Vec<_> = t
        .iter()
        .filter_map(|t| match t {
            Tok::Num(n) => Some(*n),
            _ => None,
        })
        .collect();
    assert_eq!(nums, ["1.5", "-inf.0", "3", "inf_neg"]);
}
