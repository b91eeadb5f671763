//! Conversions into [`Variant`] and accessors out of it.

use super::{Array, Dictionary, Variant};
use crate::types::godot2::{Image, InputEvent};
use crate::types::math::*;
use crate::types::names::{NodePath, StringName};
use crate::types::object::{Callable, ObjectId, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Object;

macro_rules! from_builtin {
    ($($name:ident),*) => {
        $(impl From<$name> for Variant {
            fn from(v: $name) -> Self {
                Variant::$name(v)
            }
        })*
    };
}
super::for_each_builtin_variant!(from_builtin);

macro_rules! from_number {
    ($variant:ident as $to:ty: $($from:ty),*) => {
        $(impl From<$from> for Variant {
            fn from(v: $from) -> Self {
                Variant::$variant(<$to>::from(v))
            }
        })*
    };
}
from_number!(Int as i64: i8, i16, i32, i64, u8, u16, u32);
from_number!(Float as f64: f32, f64);

impl From<bool> for Variant {
    fn from(v: bool) -> Self {
        Variant::Bool(v)
    }
}

impl From<&str> for Variant {
    fn from(v: &str) -> Self {
        Variant::String(v.to_owned())
    }
}

impl From<String> for Variant {
    fn from(v: String) -> Self {
        Variant::String(v)
    }
}

impl From<()> for Variant {
    fn from(_: ()) -> Self {
        Variant::Nil
    }
}

impl<T: Into<Variant>> From<Option<T>> for Variant {
    fn from(v: Option<T>) -> Self {
        v.map_or(Variant::Nil, Into::into)
    }
}

impl From<Vec<Variant>> for Variant {
    fn from(v: Vec<Variant>) -> Self {
        Variant::Array(Array::from(v))
    }
}

impl Variant {
    /// Whether this is `null`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Variant::Nil)
    }

    /// The text of a String or StringName.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Variant::String(s) => Some(s),
            Variant::StringName(s) => Some(&s.0),
            _ => None,
        }
    }

    /// The value of an int.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Variant::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// The value of a float, or of an int widened to float.
    pub fn as_float(&self) -> Option<f64> {
        match self {
            Variant::Float(v) => Some(*v),
            Variant::Int(v) => Some(*v as f64),
            _ => None,
        }
    }

    /// The value of a bool.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Variant::Bool(v) => Some(*v),
            _ => None,
        }
    }

    /// The array, if this is one.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Variant::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The dictionary, if this is one.
    pub fn as_dictionary(&self) -> Option<&Dictionary> {
        match self {
            Variant::Dictionary(d) => Some(d),
            _ => None,
        }
    }

    /// Looks `key` up in a Dictionary; `None` for other types.
    pub fn get(&self, key: impl super::DictionaryKey) -> Option<&Variant> {
        self.as_dictionary()?.get(key)
    }
}
