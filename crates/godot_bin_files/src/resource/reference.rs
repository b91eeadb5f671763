//! [`Reference`]: a resource file's pointer to another resource, kept as data.
//!
//! Inside a [`Variant`] (a property's value, an element of an Array...), a reference is an
//! [`Object`] of one of three marker classes that no engine class is named after:
//!
//! | In the file | `Reference` | In a `Variant` |
//! |---|---|---|
//! | `ExtResource("1_abc")`, `ExtResource( 1 )` | `External("1_abc")`, `External("1")` | `Object(ExtResource, "id": "1_abc")` (an int `id` for Godot 3's numbers) |
//! | `SubResource("Gradient_x")`, `SubResource( 2 )` | `Sub("Gradient_x")` | `Object(SubResource, "id": ...)` |
//! | `Resource("res://a.tres")` | `Path("res://a.tres")` | `Object(ResourcePath, "path": "res://a.tres")` (from a binary file, also `"type": "Texture2D"`) |
//!
//! so references travel wherever a value goes (nested in Arrays and Dictionaries, through
//! serde) and are printed back in the file's own syntax. Nothing is ever loaded.

use godot_bin::{Object, Variant};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Marker class of an external reference inside a `Variant`.
pub const EXT_CLASS: &str = "ExtResource";
/// Marker class of a sub-resource reference inside a `Variant`.
pub const SUB_CLASS: &str = "SubResource";
/// Marker class of a reference by path inside a `Variant`.
pub const PATH_CLASS: &str = "ResourcePath";

/// A reference from a resource file to another resource: by the id of an
/// `[ext_resource]` or `[sub_resource]` of the same file, or by path. Never resolved.
///
/// ```
/// use godot_bin_files::resource::Reference;
/// use godot_bin::Variant;
/// let r = Reference::Sub("Gradient_x1".into());
/// let v = Variant::from(r.clone());
/// assert_eq!(Reference::from_variant(&v), Some(r));
/// assert_eq!(Reference::External("1".into()).to_string(), "ExtResource(\"1\")");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reference {
    /// `ExtResource(id)`: the `[ext_resource]` with this id (Godot 3's numbers as text).
    External(String),
    /// `SubResource(id)`: the `[sub_resource]` with this id.
    Sub(String),
    /// `Resource(path)`: a resource file by path (`res://...`), as a ConfigFile or an old
    /// file writes one.
    Path(String),
}

impl Reference {
    /// The reference a marker `Variant` holds; `None` for any other value.
    pub fn from_variant(v: &Variant) -> Option<Reference> {
        let Variant::Object(o) = v else { return None };
        Reference::from_object(o)
    }

    /// The reference a marker [`Object`] holds.
    pub fn from_object(o: &Object) -> Option<Reference> {
        // A path reference read from a binary file also keeps its class (`type`).
        let (name, value) = match o.properties.as_slice() {
            [one] => one,
            [one, (t, Variant::String(_))] if o.class_name == PATH_CLASS && t == "type" => one,
            _ => return None,
        };
        let text = match value {
            Variant::String(s) => s.clone(),
            Variant::Int(i) if o.class_name != PATH_CLASS => i.to_string(),
            _ => return None,
        };
        match (o.class_name.as_str(), name.as_str()) {
            (EXT_CLASS, "id") => Some(Reference::External(text)),
            (SUB_CLASS, "id") => Some(Reference::Sub(text)),
            (PATH_CLASS, "path") => Some(Reference::Path(text)),
            _ => None,
        }
    }

    /// The id of an external or sub-resource reference, the path of a path reference.
    pub fn id(&self) -> &str {
        match self {
            Reference::External(s) | Reference::Sub(s) | Reference::Path(s) => s,
        }
    }

    /// This reference as its marker `Variant`.
    pub fn to_variant(&self) -> Variant {
        let (class, key) = match self {
            Reference::External(_) => (EXT_CLASS, "id"),
            Reference::Sub(_) => (SUB_CLASS, "id"),
            Reference::Path(_) => (PATH_CLASS, "path"),
        };
        Variant::Object(Object {
            class_name: class.into(),
            properties: vec![(key.into(), Variant::String(self.id().into()))],
        })
    }
}

/// Godot 4's syntax: `ExtResource("1_abc")`, `SubResource("x")`, `Resource("res://a")`.
impl fmt::Display for Reference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            Reference::External(_) => "ExtResource",
            Reference::Sub(_) => "SubResource",
            Reference::Path(_) => "Resource",
        };
        write!(f, "{name}(")?;
        super::lex::write_quoted(f, self.id())?;
        f.write_str(")")
    }
}

impl From<Reference> for Variant {
    fn from(r: Reference) -> Variant {
        r.to_variant()
    }
}

/// Serializes as its marker [`Object`], so that it reaches the file as the reference.
impl Serialize for Reference {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_variant().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Reference {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Variant::deserialize(d)?;
        Reference::from_variant(&v).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "expected ExtResource(...), SubResource(...) or Resource(...), found {}",
                v.get_type()
            ))
        })
    }
}

/// Every reference inside `v`.
pub(crate) fn collect_references(v: &Variant, out: &mut Vec<Reference>) {
    match v {
        Variant::Object(o) => match Reference::from_object(o) {
            Some(r) => out.push(r),
            None => o
                .properties
                .iter()
                .for_each(|(_, x)| collect_references(x, out)),
        },
        Variant::Array(a) => a.iter().for_each(|x| collect_references(x, out)),
        Variant::Dictionary(d) => d.iter().for_each(|(k, x)| {
            collect_references(k, out);
            collect_references(x, out);
        }),
        _ => {}
    }
}
