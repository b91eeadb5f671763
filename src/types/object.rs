//! RID, objects, Callable and Signal.

use crate::variant::Variant;
use serde_derive::{Deserialize, Serialize};

/// `RID`: a server resource id. Godot 4 sends the u64 id; Godot 3 and Pandemonium send
/// nothing (every RID decodes as id 0 there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rid(pub u64);

crate::builtin::newtype_serialize!(Rid, |this| &this.0);

/// An object sent as its instance id (`var_to_bytes` without `full_objects`). The engine
/// decodes it as an `EncodedObjectAsID`; id 0 is a null object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ObjectId(pub u64);

crate::builtin::newtype_serialize!(ObjectId, |this| &this.0);

/// A full object (`var_to_bytes_with_objects`): its class name and stored properties, in the
/// engine's order. Decoding needs [`Config::allow_objects`](crate::Config::allow_objects);
/// it never creates anything, it is data. An empty `class_name` is the engine's null-object
/// form and carries no properties.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::Object")]
pub struct Object {
    /// The engine class, e.g. `"RefCounted"`.
    pub class_name: String,
    /// Property name and value pairs, in order (Godot 4 sends `script` as a `res://` path).
    pub properties: Vec<(String, Variant)>,
}

/// `Callable`. The engine sends only the type: every callable decodes as an empty one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Callable;

/// `Signal`: a signal name and the id of the object that owns it (Godot 4 only).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::Signal")]
pub struct Signal {
    /// The signal's name.
    pub name: String,
    /// The owning object's instance id.
    pub object: u64,
}

crate::builtin::struct_builtin!(Object, Signal);

macro_rules! id_builtin {
    ($($t:ident),*) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = crate::builtin::Kind::$t;
                d.deserialize_newtype_struct(
                    kind.name(),
                    crate::builtin::NewtypeVisitor {
                        wrap: $t,
                        kind,
                        content: std::marker::PhantomData::<u64>,
                    },
                )
            }
        }
    )*};
}
id_builtin!(Rid, ObjectId);

/// A struct with no fields: `{}` in other formats, and through serde's buffering an
/// empty map or the one-entry map of its private name.
impl serde::Serialize for Callable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        s.serialize_struct(crate::builtin::Kind::Callable.name(), 0)?
            .end()
    }
}

impl<'de> serde::Deserialize<'de> for Callable {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Callable;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a Callable")
            }
            fn visit_unit<E: serde::de::Error>(self) -> Result<Callable, E> {
                Ok(Callable)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Callable, A::Error> {
                match seq.next_element::<serde::de::IgnoredAny>()? {
                    None => Ok(Callable),
                    Some(_) => Err(serde::de::Error::invalid_length(1, &self)),
                }
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Callable, A::Error> {
                while let Some(key) = map.next_key::<String>()? {
                    if key != crate::builtin::Kind::Callable.name() {
                        return Err(serde::de::Error::unknown_field(&key, &[]));
                    }
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                Ok(Callable)
            }
        }
        let kind = crate::builtin::Kind::Callable;
        d.deserialize_struct(kind.name(), kind.fields(), V)
    }
}
