//! Moving a Godot 3 save to Godot 4.

use super::format::{random_iv, Compression, Container, Key, Layout};
use super::reader::Reader;
use super::writer::Writer;
use crate::error::{Error, ErrorKind, Result};
use crate::issue::{Issue, Location};
use crate::renames::godot4_class;
use godot_bin::Config;
use godot_bin::{Dialect, VariantType};
use godot_bin::{Dictionary, Object, Variant};
use std::collections::BTreeMap;
use std::io::{Read, Write};

/// What a converted save is written as.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Target {
    /// Like the input: a plain save stays plain; an encrypted one is encrypted with the
    /// same key (in the Godot 4 layout, with a fresh initial vector); a compressed one
    /// keeps its compression mode, which Godot 4 reads unchanged.
    #[default]
    Same,
    /// A plain save.
    Plain,
    /// Encrypted with this key, in the Godot 4 layout.
    Encrypted(Key),
    /// Compressed in this mode (not Brotli, which no engine writes).
    Compressed(Compression),
}

/// Options of [`convert_godot3_to_godot4`].
#[derive(Clone, Debug, Default)]
pub struct ConvertOptions {
    key: Option<Key>,
    target: Target,
}

impl ConvertOptions {
    /// Read a plain or compressed save and write it like the input.
    pub fn new() -> Self {
        Self::default()
    }

    /// The key or password of an encrypted input (and, with [`Target::Same`], of the
    /// output).
    pub fn key(mut self, key: Key) -> Self {
        self.key = Some(key);
        self
    }

    /// What to write.
    pub fn target(mut self, target: Target) -> Self {
        self.target = target;
        self
    }
}

/// What [`convert_godot3_to_godot4`] did.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The input's container.
    pub input: Container,
    /// The output's container.
    pub output: Container,
    /// How many values were converted.
    pub values: usize,
    /// How many values of each type the save holds (nested ones included), each
    /// written with its Godot 4 type id: `Quat` as `Quaternion`, `Transform` as
    /// `Transform3D`, `PoolStringArray` as `PackedStringArray`...
    pub types: BTreeMap<VariantType, usize>,
    /// Values with no exact Godot 4 counterpart, and what was written for each.
    pub issues: Vec<Issue>,
}

/// Reads a Godot 3 save (plain, encrypted or compressed) from `input` and writes it to
/// `output` for Godot 4's `get_var`.
///
/// Every Godot 3 type has a Godot 4 counterpart with the same content (`Quat` is
/// `Quaternion`, `Transform` is `Transform3D`, the `Pool*Array`s are the `Packed*Array`s,
/// `real` is `float`), so values are re-encoded with Godot 4's type ids. What does not
/// carry over is reported in [`Conversion::issues`]:
///
/// - a full object (`store_var(value, true)`) of a class Godot 4 renamed (`Spatial` is
///   `Node3D`, `Reference` is `RefCounted`; the engine's own project converter's list) is
///   written with the new class name, its properties as they were (some may have been
///   renamed too, and Godot 4 ignores those it does not have);
/// - a full object's `script`: Godot 3 stores the script object inline, Godot 4 only a
///   `res://` path to it. The path is written when the inline script carries one,
///   otherwise the script is dropped (null).
///
/// The output's container follows [`ConvertOptions`]' target: by default like the input,
/// an encrypted save with the same key. The output is written as the values are
/// converted: on an error, it may hold part of a file.
///
/// A save that is already Godot 4's is refused with an error that says so
/// ([`ErrorKind::AlreadyGodot4`]), before anything is written when its
/// container shows it (Godot 4's encrypted layout, AES-256-CFB), or at the first value
/// that does not decode as Godot 3 but does as Godot 4 (a plain or compressed save, whose
/// container is the same in both engines).
///
/// ```
/// use godot_bin_files::save::{convert_godot3_to_godot4, ConvertOptions, Key, Writer};
/// use godot_bin::Config;
///
/// let key = Key::password("s3cret");
/// let mut save = Writer::encrypted(Vec::new(), &key, &Config::default())?; // Godot 4's
/// save.write_value(&godot_bin::Dictionary::from_iter([("level", 3)]))?;
/// let save = save.finish()?;
///
/// let mut out = Vec::new();
/// let err = convert_godot3_to_godot4(&save[..], &mut out, &ConvertOptions::new().key(key))
///     .unwrap_err();
/// assert!(err.to_string().starts_with("already a Godot 4 save"), "{err}");
/// assert!(out.is_empty());
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
///
/// ```
/// use godot_bin_files::save::{self as file, convert_godot3_to_godot4, ConvertOptions, Key, Writer};
/// use godot_bin::{Config, Dialect, Variant, Quaternion};
///
/// // A Godot 3 save, encrypted with a password (Godot 3's ECB layout).
/// let key = Key::password("s3cret");
/// let mut old = Writer::encrypted(Vec::new(), &key, &Config::new(Dialect::Godot3))?;
/// old.write_value(&Quaternion::new(0.0, 0.0, 0.0, 1.0))?;
/// let old = old.finish()?;
///
/// let mut new = Vec::new();
/// let done = convert_godot3_to_godot4(&old[..], &mut new, &ConvertOptions::new().key(key.clone()))?;
/// assert_eq!(done.values, 1);
/// assert!(done.issues.is_empty());
///
/// // Godot 4's layout now, and Godot 4's type id for the quaternion.
/// let mut reader = file::Reader::with_key(&new[..], &key, &Config::new(Dialect::Godot4))?;
/// assert_eq!(reader.read_value::<Variant>()?, Some(Variant::Quaternion(Quaternion::new(0.0, 0.0, 0.0, 1.0))));
/// # Ok::<(), godot_bin_files::Error>(())
/// ```
pub fn convert_godot3_to_godot4<R: Read, W: Write>(
    input: R,
    output: W,
    options: &ConvertOptions,
) -> Result<Conversion> {
    let read_cfg = Config::new(Dialect::Godot3).allow_objects(true);
    let write_cfg = Config::new(Dialect::Godot4);
    let mut reader = match &options.key {
        Some(key) => Reader::with_key(input, key, &read_cfg)?,
        None => Reader::new(input, &read_cfg)?,
    };
    let input_container = reader.container().clone();
    if let Container::Encrypted {
        layout: Layout::Godot4 { .. },
        ..
    } = input_container
    {
        return Err(ErrorKind::AlreadyGodot4(
            "its encrypted layout is Godot 4's (AES-256-CFB with an IV)".into(),
        )
        .into());
    }

    let target = match (&options.target, &input_container) {
        (Target::Same, Container::Plain) => Target::Plain,
        (Target::Same, Container::Compressed { compression, .. }) => {
            Target::Compressed(*compression)
        }
        (Target::Same, Container::Encrypted { .. }) => {
            // Opening an encrypted input needed the key.
            Target::Encrypted(
                options
                    .key
                    .clone()
                    .expect("an encrypted input was opened with a key"),
            )
        }
        (other, _) => other.clone(),
    };
    let iv = random_iv()?;
    let mut writer = match &target {
        Target::Same | Target::Plain => Writer::plain(output, &write_cfg),
        Target::Encrypted(key) => {
            Writer::encrypted_layout(output, key, Layout::Godot4 { iv }, &write_cfg)
        }
        Target::Compressed(mode) => Writer::compressed(output, *mode, &write_cfg)?,
    };

    let mut walk = Walk {
        value: 0,
        path: String::new(),
        types: BTreeMap::new(),
        issues: Vec::new(),
    };
    let mut content_len = 0u64;
    while let Some(value) = reader
        .read_value::<Variant>()
        .map_err(|e| already_godot4(e, &reader, walk.value))?
    {
        let value = walk.map(value);
        let mut frame = Vec::new();
        godot_bin::framing::Framing::new(write_cfg.clone())
            .max_frame_len(godot_bin::framing::ENGINE_MAX_FRAME_LEN)
            .encode_frame(&mut frame, &value)?;
        content_len += frame.len() as u64;
        writer.write_bytes(&frame)?;
        walk.value += 1;
    }
    writer.finish()?;

    let output = match target {
        Target::Same | Target::Plain => Container::Plain,
        Target::Encrypted(_) => Container::Encrypted {
            layout: Layout::Godot4 { iv },
            content_len,
        },
        Target::Compressed(compression) => Container::Compressed {
            compression,
            block_size: super::gcpf::ENGINE_BLOCK_SIZE,
            content_len,
        },
    };
    Ok(Conversion {
        input: input_container,
        output,
        values: walk.value,
        types: walk.types,
        issues: walk.issues,
    })
}

/// An error reading value `index` of the input: when that value decodes as Godot 4 (and
/// not as Godot 3), the save is already Godot 4's, and the error says so.
fn already_godot4<R: Read>(mut e: Error, reader: &Reader<R>, index: usize) -> Error {
    if matches!(e.kind(), ErrorKind::WrongKey)
        || !reader.frame_dialects().contains(&Dialect::Godot4)
    {
        return e;
    }
    *e.kind_mut() = ErrorKind::AlreadyGodot4(format!(
        "value {index} decodes cleanly as Godot 4, not as Godot 3"
    ));
    e
}

struct Walk {
    value: usize,
    path: String,
    types: BTreeMap<VariantType, usize>,
    issues: Vec<Issue>,
}

impl Walk {
    fn issue(&mut self, message: String) {
        self.issues.push(Issue {
            location: Location::Value {
                index: self.value,
                path: self.path.clone(),
            },
            message,
        });
    }

    /// Runs `f` with `step` appended to the path.
    fn at<T>(&mut self, step: &str, f: impl FnOnce(&mut Self) -> T) -> T {
        let len = self.path.len();
        self.path.push_str(step);
        let out = f(self);
        self.path.truncate(len);
        out
    }

    fn map(&mut self, value: Variant) -> Variant {
        *self.types.entry(value.get_type()).or_default() += 1;
        match value {
            Variant::Array(mut array) => {
                for (i, item) in array.items.iter_mut().enumerate() {
                    let taken = std::mem::take(item);
                    *item = self.at(&format!("[{i}]"), |w| w.map(taken));
                }
                Variant::Array(array)
            }
            Variant::Dictionary(dict) => {
                let mut out = if dict.is_typed() {
                    Dictionary::typed(dict.key_type().clone(), dict.value_type().clone())
                } else {
                    Dictionary::with_capacity(dict.len())
                };
                out.shared = dict.shared;
                for (key, item) in dict {
                    let step = format!("[{key}]");
                    let key = self.at(&step, |w| w.map(key));
                    let item = self.at(&step, |w| w.map(item));
                    out.insert(key, item);
                }
                Variant::Dictionary(out)
            }
            Variant::Object(object) => Variant::Object(self.map_object(object)),
            other => other,
        }
    }

    fn map_object(&mut self, mut object: Object) -> Object {
        if let Some(renamed) = godot4_class(&object.class_name) {
            self.issue(format!(
                "an object of class {} (renamed {renamed} in Godot 4): written as {renamed} \
                 with its {} properties unchanged; Godot 4 ignores any it no longer has",
                object.class_name,
                object.properties.len()
            ));
            object.class_name = renamed.to_owned();
        }
        for (name, value) in object.properties.iter_mut() {
            let step = format!(".{name}");
            let taken = std::mem::take(value);
            *value = if name == "script" {
                self.at(&step, |w| w.map_script(taken))
            } else {
                self.at(&step, |w| w.map(taken))
            };
        }
        object
    }

    /// Godot 4 accepts a script only as its `res://` path.
    fn map_script(&mut self, script: Variant) -> Variant {
        match script {
            Variant::Object(inline) => {
                *self.types.entry(VariantType::Object).or_default() += 1;
                let path = inline.properties.iter().find_map(|(name, value)| {
                    (name == "resource_path")
                        .then(|| value.as_str())
                        .flatten()
                        .filter(|p| p.starts_with("res://"))
                        .map(str::to_owned)
                });
                match path {
                    Some(path) => Variant::String(path),
                    None => {
                        self.issue(format!(
                            "an inline script ({}) that Godot 4 cannot take: it stores a \
                             script only as its res:// path, and this one has none; written \
                             as null",
                            inline.class_name
                        ));
                        Variant::Nil
                    }
                }
            }
            other => self.map(other),
        }
    }
}
