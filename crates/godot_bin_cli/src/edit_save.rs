//! `get` and `set` in a save: a `store_var` value by its index and the keys and indices
//! inside it (`0.items.2`), read and written back in the save's own form, its other
//! values byte for byte.

use crate::change::{type_note, Change};
use crate::failure::{kind_text, Failure};
use crate::input::{self, KeyArgs, PacketArgs};
use godot_bin::{Dialect, Variant};
use godot_bin_files::save::{self, Container, Key, Layout};

/// A step into a value: a Dictionary's key, or an Array's index (a number, which also
/// finds a Dictionary's int key).
pub(crate) enum Step {
    Key(String),
    Index(usize),
}

/// `INDEX[.KEY|.N]...`: which value of the file, then the steps into it.
pub(crate) fn save_target(target: &str) -> Result<(usize, Vec<Step>), Failure> {
    let bad = |why: &str| {
        Failure::msg(format!(
            "{target:?}: {why}; a save's values are INDEX[.KEY|.N]... (0, 0.level, 0.items.2, \
             0.\"key.with.dots\")"
        ))
    };
    let mut rest = target;
    let mut steps = Vec::new();
    let mut first = true;
    while !rest.is_empty() || first {
        let step = if let Some(quoted) = rest.strip_prefix('"') {
            // A quoted key: JSON's string syntax.
            let mut end = None;
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let end = end.ok_or_else(|| bad("a quoted key has no closing '\"'"))?;
            let key: String = serde_json::from_str(&rest[..end + 2])
                .map_err(|_| bad("a quoted key is not a JSON string"))?;
            rest = &rest[end + 2..];
            Step::Key(key)
        } else {
            let end = rest.find('.').unwrap_or(rest.len());
            let word = &rest[..end];
            rest = &rest[end..];
            if word.is_empty() {
                return Err(bad("an empty step"));
            }
            match word.parse::<usize>() {
                Ok(n) => Step::Index(n),
                Err(_) => Step::Key(word.to_owned()),
            }
        };
        steps.push(step);
        first = false;
        if let Some(r) = rest.strip_prefix('.') {
            if r.is_empty() {
                return Err(bad("a '.' with nothing after it"));
            }
            rest = r;
        } else if !rest.is_empty() {
            return Err(bad("a quoted key runs into what follows"));
        }
    }
    match steps.remove(0) {
        Step::Index(i) => Ok((i, steps)),
        Step::Key(_) => Err(bad("it starts with the value's index")),
    }
}

/// Where a step leads inside `v`, by position in the container, or why it leads nowhere.
fn locate(v: &Variant, step: &Step, at: &str) -> Result<Option<usize>, Failure> {
    match (v, step) {
        (Variant::Dictionary(d), _) => {
            let mut found: Vec<usize> = Vec::new();
            let mut push = |i: Option<usize>| {
                if let Some(i) = i {
                    if !found.contains(&i) {
                        found.push(i);
                    }
                }
            };
            match step {
                Step::Key(k) => push(d.get_index_of(k.as_str())),
                Step::Index(n) => {
                    push(d.get_index_of(n.to_string().as_str()));
                    if let Ok(n) = i64::try_from(*n) {
                        push(d.get_index_of(Variant::Int(n)));
                    }
                }
            }
            match found.as_slice() {
                [] => Ok(None),
                [i] => Ok(Some(*i)),
                _ => Err(Failure::msg(format!(
                    "{at} has both the String key and the int key {}; nothing changed",
                    step_text(step)
                ))),
            }
        }
        (Variant::Array(a), Step::Index(n)) => {
            if *n < a.len() {
                Ok(Some(*n))
            } else {
                Err(Failure::msg(format!(
                    "{at} is an Array of {} elements: no index {n}",
                    a.len()
                )))
            }
        }
        (other, step) => Err(Failure::msg(format!(
            "{at} is {}, not a Dictionary or an Array: no {}",
            other.get_type(),
            step_text(step)
        ))),
    }
}

fn step_text(step: &Step) -> String {
    match step {
        Step::Key(k) => format!("key {k:?}"),
        Step::Index(n) => format!("index {n}"),
    }
}

fn keys_listing(v: &Variant) -> String {
    match v {
        Variant::Dictionary(d) => {
            let keys: Vec<String> = d.keys().map(|k| k.to_text(Dialect::Godot4)).collect();
            format!("its keys: {}", keys.join(", "))
        }
        _ => String::new(),
    }
}

/// A save opened for `get` and `set`: its content's packets, their values, and how to
/// write it back.
pub(crate) struct Save {
    /// The file as read.
    pub(crate) file: Vec<u8>,
    pub(crate) container: Option<Container>,
    pub(crate) content: Vec<u8>,
    /// Each packet's start and end in the content (after its length prefix when framed).
    pub(crate) spans: Vec<(usize, usize)>,
    pub(crate) values: Vec<Variant>,
    pub(crate) dialect: Dialect,
    pub(crate) framed: bool,
    pub(crate) big_endian: bool,
}

impl Save {
    pub(crate) fn open(
        packets: &PacketArgs,
        keys: &KeyArgs,
        file: Vec<u8>,
    ) -> Result<Save, Failure> {
        let input = input::input_of(packets, keys, file)?;
        let dialect = input.dialect;
        let data = input.data().to_vec();
        let (framed, big_endian, _) =
            input::framing(&data, dialect, input.framed, packets.big_endian);
        let cfg = input::config(dialect);
        let mut spans = Vec::new();
        let mut values = Vec::new();
        if framed {
            let list = input::split_frames(&data, big_endian)?;
            for p in &list {
                match cfg.from_slice::<Variant>(p.bytes) {
                    Ok(v) => {
                        values.push(v);
                        spans.push((p.offset, p.offset + p.bytes.len()));
                    }
                    Err(e) => {
                        return Err(Failure::at(
                            p.offset + e.offset().unwrap_or(0),
                            format!("value {}: {}", values.len(), kind_text(e.kind())),
                        )
                        .with_hint(input::dialect_hint(dialect, |d| {
                            input::packets_clean(d, &list)
                        })))
                    }
                }
            }
        } else {
            let mut rest = &data[..];
            while !rest.is_empty() {
                let at = data.len() - rest.len();
                match cfg.take_from_slice::<Variant>(rest) {
                    Ok((v, tail)) => {
                        values.push(v);
                        spans.push((at, data.len() - tail.len()));
                        rest = tail;
                    }
                    Err(e) => {
                        return Err(Failure::at(
                            at + e.offset().unwrap_or(0),
                            format!("value {}: {}", values.len(), kind_text(e.kind())),
                        )
                        .with_hint(input::dialect_hint(dialect, |d| {
                            input::bare_clean(d, &data)
                        })))
                    }
                }
            }
        }
        let container = input.save.map(|(_, c)| c);
        Ok(Save {
            file: input.file,
            container,
            content: data,
            spans,
            values,
            dialect,
            framed,
            big_endian,
        })
    }

    fn top(&self, index: usize) -> Result<&Variant, Failure> {
        self.values.get(index).ok_or_else(|| {
            Failure::msg(format!(
                "no value {index}: the file holds {} value(s){}",
                self.values.len(),
                match self.values.len() {
                    0 => String::new(),
                    n => format!(", 0 to {}", n - 1),
                }
            ))
        })
    }

    pub(crate) fn value_at(&self, index: usize, path: &[Step]) -> Result<&Variant, Failure> {
        let mut v = self.top(index)?;
        let mut at = format!("value {index}");
        for step in path {
            match locate(v, step, &at)? {
                Some(i) => {
                    v = match v {
                        Variant::Dictionary(d) => d.get_index(i).map(|(_, v)| v),
                        Variant::Array(a) => a.get(i),
                        _ => None,
                    }
                    .ok_or_else(|| Failure::msg("lost in the value"))?;
                }
                None => {
                    return Err(Failure::msg(format!(
                        "{at} has no {}; {}",
                        step_text(step),
                        keys_listing(v)
                    )))
                }
            }
            at = format!("{at}.{}", step_short(step));
        }
        Ok(v)
    }

    pub(crate) fn set(
        &mut self,
        index: usize,
        path: &[Step],
        value: Variant,
        key: Option<&Key>,
    ) -> Result<Change, Failure> {
        let dialect = self.dialect;
        self.top(index)?;
        let mut top = self.values[index].clone();
        let mut v = &mut top;
        let mut at = format!("value {index}");
        let mut added = false;
        for (n, step) in path.iter().enumerate() {
            let last = n + 1 == path.len();
            let found = locate(v, step, &at)?;
            // Only the last step may add: a new key of an existing Dictionary.
            if found.is_none() && !(last && matches!(v, Variant::Dictionary(_))) {
                return Err(Failure::msg(format!(
                    "{at} has no {}; {}",
                    step_text(step),
                    keys_listing(v)
                )));
            }
            v = match (v, found) {
                (Variant::Dictionary(d), Some(i)) => {
                    let k = d.get_index(i).map(|(k, _)| k.clone()).unwrap_or_default();
                    d.get_mut(&k)
                        .ok_or_else(|| Failure::msg("lost in the value"))?
                }
                (Variant::Array(a), Some(i)) => a
                    .get_mut(i)
                    .ok_or_else(|| Failure::msg("lost in the value"))?,
                (Variant::Dictionary(d), None) => {
                    let k = match step {
                        Step::Key(k) => Variant::from(k.as_str()),
                        Step::Index(i) => Variant::Int(i64::try_from(*i).unwrap_or(i64::MAX)),
                    };
                    d.insert(k.clone(), Variant::Nil);
                    added = true;
                    d.get_mut(&k)
                        .ok_or_else(|| Failure::msg("lost in the value"))?
                }
                _ => return Err(Failure::msg("lost in the value")),
            };
            at = format!("{at}.{}", step_short(step));
        }
        let old = (!added).then(|| v.to_text(dialect).trim_end_matches('\n').to_owned());
        let old_type = (!added).then(|| v.get_type());
        let same = !added && v.eq_ordered(&value);
        v.assign(value);
        // What was stored: a value set over a typed container takes its types.
        let value = v.clone();
        let packet = input::config(dialect)
            .to_vec(&top)
            .map_err(|e| Failure::msg(format!("value {index}: {e}")))?;
        // The content with this packet replaced: every other byte stays.
        let (start, end) = self.spans[index];
        let mut content = Vec::with_capacity(self.content.len() + packet.len());
        if self.framed {
            let len = u32::try_from(packet.len())
                .map_err(|_| Failure::msg("the value is too long for a frame"))?;
            content.extend_from_slice(&self.content[..start - 4]);
            content.extend_from_slice(&if self.big_endian {
                len.to_be_bytes()
            } else {
                len.to_le_bytes()
            });
        } else {
            content.extend_from_slice(&self.content[..start]);
        }
        content.extend_from_slice(&packet);
        content.extend_from_slice(&self.content[end..]);
        let fail = |e: godot_bin_files::Error| Failure::msg(e.to_string());
        let (bytes, how) = match &self.container {
            None | Some(Container::Plain) => (
                content,
                if self.framed {
                    format!("store_var frame {index} written again, the rest as it was")
                } else {
                    format!("packet {index} written again, the rest as it was")
                },
            ),
            Some(container) => {
                // The container as it was read (layout, compression, block size), by
                // Writer::like; Godot 4's layout with a fresh initial vector, as the
                // engine draws one at every write.
                let cfg = input::config(dialect);
                let reader = match key {
                    Some(k) => save::Reader::with_key(&self.file[..], k, &cfg),
                    None => save::Reader::new(&self.file[..], &cfg),
                }
                .map_err(fail)?;
                let mut writer = save::Writer::like(&reader, Vec::new(), key).map_err(fail)?;
                writer.write_bytes(&content).map_err(fail)?;
                let how = match container {
                    Container::Encrypted { layout, .. } => format!(
                        "encrypted again with the same key, in {}'s layout",
                        match layout {
                            Layout::Godot3 => "Godot 3",
                            _ => "Godot 4",
                        }
                    ),
                    Container::Compressed { compression, .. } => {
                        format!("compressed again ({compression}), the blocks as they were sized")
                    }
                    Container::Plain => String::new(),
                };
                (writer.finish().map_err(fail)?, how)
            }
        };
        Ok(Change {
            bytes,
            label: at,
            old,
            new: value.to_text(dialect).trim_end_matches('\n').to_owned(),
            added,
            same,
            how,
            note: type_note(old_type, &value),
        })
    }
}

fn step_short(step: &Step) -> String {
    match step {
        Step::Key(k) if k.contains('.') || k.starts_with('"') || k.parse::<usize>().is_ok() => {
            serde_json::Value::from(k.as_str()).to_string()
        }
        Step::Key(k) => k.clone(),
        Step::Index(n) => n.to_string(),
    }
}
