//! `Serialize` for [`Variant`] and its containers: each value is handed to serde as what it
//! is, so godot_bin writes the same packet type and other formats write plain data.

use super::{Array, Dictionary, ElementType, Variant};
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};

impl Serialize for Variant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        macro_rules! arms {
            ($($name:ident),*) => {
                match self {
                    Variant::Nil => s.serialize_unit(),
                    Variant::Bool(v) => s.serialize_bool(*v),
                    Variant::Int(v) => s.serialize_i64(*v),
                    Variant::Float(v) => s.serialize_f64(*v),
                    Variant::String(v) => s.serialize_str(v),
                    Variant::PackedTypedArray(a) => serialize_array("$godot_bin::PackedTypedArray", a, s),
                    $(Variant::$name(v) => v.serialize(s),)*
                }
            };
        }
        super::for_each_builtin_variant!(arms)
    }
}

impl Serialize for Array {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.element_type.is_untyped() && !self.shared {
            return s.collect_seq(&self.items);
        }
        serialize_array("$godot_bin::TypedArray", self, s)
    }
}

/// An Array with an element type or shared flag, as a builtin struct godot_bin recognises.
pub(crate) fn serialize_array<S: Serializer>(
    name: &'static str,
    a: &Array,
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct(name, 3)?;
    st.serialize_field("element_type", &a.element_type)?;
    st.serialize_field("shared", &a.shared)?;
    st.serialize_field("items", &a.items)?;
    st.end()
}

impl Serialize for Dictionary {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.key_type == ElementType::Untyped
            && self.value_type == ElementType::Untyped
            && !self.shared
        {
            let mut map = s.serialize_map(Some(self.entries.len()))?;
            for (k, v) in &self.entries {
                map.serialize_entry(k, v)?;
            }
            return map.end();
        }
        let mut st = s.serialize_struct("$godot_bin::TypedDictionary", 4)?;
        st.serialize_field("key_type", &self.key_type)?;
        st.serialize_field("value_type", &self.value_type)?;
        st.serialize_field("shared", &self.shared)?;
        st.serialize_field("entries", &self.entries)?;
        st.end()
    }
}
