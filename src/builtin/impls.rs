//! Each builtin's `Serialize` and `Deserialize`: the macros that write them and their
//! invocations for every plain-data type of `crate::types` (the packed arrays' are in
//! [`super::packed`], the dynamic value's own types' in `crate::variant`). The types
//! themselves stay plain data; their derives (`#[serde(remote = "Self")]`) give the field
//! code these impls call.

use super::Kind;
use crate::types::godot2::{Image, InputEvent};
use crate::types::leaves::for_each_fixed;
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};

/// `e`, from serializing a newtype-shaped builtin of `kind`, with the reason named when it
/// is serde's refusal to put such a value in an internally tagged enum (which has nowhere
/// to put the tag of a value that is not a map or a struct).
#[cold]
pub(crate) fn name_in_error<E: serde::ser::Error>(kind: Kind, e: E) -> E {
    let msg = e.to_string();
    if msg.starts_with("cannot serialize tagged newtype variant") {
        return E::custom(format_args!(
            "{msg}: a {} is not a map or a struct in serde's data model, so an internally \
             tagged enum has no place for its tag; use an adjacently tagged enum \
             (`#[serde(tag = \"t\", content = \"c\")]`) or a struct variant",
            kind.ty()
        ));
    }
    e
}

/// `Serialize` for a newtype-shaped builtin: the newtype of its private name around
/// `content`, with [`name_in_error`] on the way out.
macro_rules! newtype_serialize {
    ($t:ident, |$this:ident| $content:expr) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let kind = crate::builtin::Kind::$t;
                let $this = self;
                s.serialize_newtype_struct(kind.name(), $content)
                    .map_err(|e| crate::builtin::name_in_error(kind, e))
            }
        }
    };
}
pub(crate) use newtype_serialize;

/// `Deserialize` and `Serialize` for struct-shaped builtins whose derives were made with
/// `#[serde(remote = "Self")]` (so that the derived code is theirs to call).
macro_rules! struct_builtin {
    ($($t:ident),*) => {$(
        crate::builtin::struct_builtin!(@one $t {});
    )*};
    // One type; `$extra` are more items of its `Builtin` impl.
    (@one $t:ident { $($extra:tt)* }) => {
        impl crate::builtin::Builtin for $t {
            const KIND: crate::builtin::Kind = crate::builtin::Kind::$t;
            fn from_shape<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $t::deserialize(d)
            }
            $($extra)*
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = crate::builtin::Kind::$t;
                d.deserialize_struct(
                    kind.name(),
                    kind.fields(),
                    crate::builtin::StructVisitor::<$t>(std::marker::PhantomData),
                )
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $t::serialize(self, s)
            }
        }
    };
}
pub(crate) use struct_builtin;

/// [`struct_builtin`] for the fixed builtins: their map content is their components.
macro_rules! fixed_builtin {
    ($($t:ident),*) => {$(
        struct_builtin!(@one $t {
            fn from_map_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                crate::builtin::fixed_from_leaves(d)
            }
        });
    )*};
}

for_each_fixed!(fixed_builtin);
struct_builtin!(NodePath, Signal, Image, InputEvent);

newtype_serialize!(StringName, |this| &this.0);
newtype_serialize!(Rid, |this| &this.0);
newtype_serialize!(ObjectId, |this| &this.0);

/// `Deserialize` for the newtype-shaped builtins around one plain content: `$t` from a
/// `$content`, given directly, as a newtype, or as its one-entry map.
macro_rules! newtype_builtin {
    ($($t:ident($content:ty)),*) => {$(
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = Kind::$t;
                d.deserialize_newtype_struct(
                    kind.name(),
                    super::NewtypeVisitor {
                        wrap: $t,
                        kind,
                        content: std::marker::PhantomData::<$content>,
                    },
                )
            }
        }
    )*};
}
pub(crate) use newtype_builtin;
newtype_builtin!(StringName(String), Rid(u64), ObjectId(u64));

/// A struct with no fields: `{}` in other formats, and through serde's buffering an
/// empty map or the one-entry map of its private name.
impl serde::Serialize for Callable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        s.serialize_struct(Kind::Callable.name(), 0)?.end()
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
                    if key != Kind::Callable.name() {
                        return Err(serde::de::Error::unknown_field(&key, &[]));
                    }
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                Ok(Callable)
            }
        }
        let kind = Kind::Callable;
        d.deserialize_struct(kind.name(), kind.fields(), V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_self_describing_formats_read_their_own_bytes() {
        // postcard cannot present "anything": the newtype's content is asked for by type.
        let name = StringName::from("jump");
        let bytes = postcard::to_allocvec(&name).unwrap();
        assert_eq!(postcard::from_bytes::<StringName>(&bytes).unwrap(), name);
        let rid = Rid(1 << 63);
        let bytes = postcard::to_allocvec(&rid).unwrap();
        assert_eq!(postcard::from_bytes::<Rid>(&bytes).unwrap(), rid);
    }
}
