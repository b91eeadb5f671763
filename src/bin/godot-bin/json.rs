//! The JSON form of `godot-bin dump --json` and `encode --json`: plain JSON where JSON has
//! the type, a one-key `{"$Type": ...}` object where it does not. See [`MAPPING_HELP`].

use godot_bin::*;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt::{self, Write};

/// The mapping, for `--help`.
pub const MAPPING_HELP: &str = r#"JSON mapping (lossless; what --json prints and reads):
  null, true/false, 12 (int), 1.5 or 1.0 (float: always with '.' or an exponent),
  "text" (String), [ ... ] (untyped Array), {"key": ...} (untyped Dictionary whose keys
  are all Strings not starting with '$'). Everything else is a one-key object:
  {"$float": "inf" | "-inf" | "nan"}            non-finite floats
  {"$StringName": "name"}   {"$NodePath": "a/b:c"}
  {"$Vector2": [1.5, -2.0]}  and Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D,
      Vector4, Vector4i, Plane, Quaternion, AABB, Basis, Transform3D, Projection, Color:
      the components in the text form's order ("inf", "-inf", "nan" for non-finite reals)
  {"$RID": 5}   {"$ObjectId": 5}   {"$Callable": null}   {"$Signal": {"name": "s", "object": 5}}
  {"$Object": {"class": "Node", "properties": [["name", value], ...]}}
  {"$Array": {"type": T, "items": [...]}}          a typed Array
  {"$Dictionary": {"key_type": T, "value_type": T, "entries": [[key, value], ...]}}
      any other Dictionary (the types are optional)
      where T is {"builtin": "int"}, {"class": "Node"} or {"script": "res://a.gd"}
  {"$PackedByteArray": [1, 2]}, PackedInt32Array, PackedInt64Array, PackedFloat32Array,
      PackedFloat64Array, PackedStringArray: a list of elements;
      PackedVector2Array, PackedVector3Array, PackedVector4Array, PackedColorArray,
      PackedVector2iArray, PackedVector3iArray, PackedVector4iArray: a list of component lists
  {"$PackedTypedArray": {"type": T, "items": [...]}}   (Pandemonium 5)
  {"$Image": {"format": 4, "mipmaps": 0, "width": 1, "height": 1, "data": [...]}}   (Godot 2)
  {"$InputEvent": {"type": 1, "device": 0, "extra": [...]}}                        (Godot 2)"#;

/// `s` as a JSON string.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_str(&mut out, s);
    out
}

fn push_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `v` in the JSON mapping, on one line.
pub fn to_json(v: &Variant) -> String {
    let mut out = String::new();
    write_value(&mut out, v);
    out
}

/// A float component: a JSON number, or "inf" / "-inf" / "nan".
fn push_f64(out: &mut String, x: f64) {
    if x.is_finite() {
        let _ = write!(out, "{x:?}");
    } else {
        out.push_str(if x.is_nan() {
            "\"nan\""
        } else if x > 0.0 {
            "\"inf\""
        } else {
            "\"-inf\""
        });
    }
}

fn push_f32(out: &mut String, x: f32) {
    if x.is_finite() {
        // The shortest digits of the f32, which read back to it.
        let _ = write!(out, "{x:?}");
    } else {
        push_f64(out, f64::from(x));
    }
}

fn list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(out, item);
    }
    out.push(']');
}

fn tagged(out: &mut String, tag: &str, body: impl FnOnce(&mut String)) {
    out.push_str("{\"$");
    out.push_str(tag);
    out.push_str("\":");
    body(out);
    out.push('}');
}

fn reals(out: &mut String, tag: &str, xs: &[f32]) {
    tagged(out, tag, |o| list(o, xs, |o, x| push_f32(o, *x)));
}

fn ints(out: &mut String, tag: &str, xs: &[i32]) {
    tagged(out, tag, |o| list(o, xs, |o, x| push_int(o, i64::from(*x))));
}

fn push_int(out: &mut String, i: i64) {
    let _ = write!(out, "{i}");
}

fn element_type(out: &mut String, t: &ElementType) {
    match t {
        ElementType::Builtin(ty) => {
            out.push_str("{\"builtin\":");
            push_str(out, ty.name());
        }
        ElementType::ClassName(c) => {
            out.push_str("{\"class\":");
            push_str(out, c);
        }
        ElementType::Script(p) => {
            out.push_str("{\"script\":");
            push_str(out, p);
        }
        ElementType::Untyped => {
            out.push_str("null");
            return;
        }
    }
    out.push('}');
}

fn typed_items(out: &mut String, tag: &str, a: &Array) {
    tagged(out, tag, |o| {
        o.push_str("{\"type\":");
        element_type(o, &a.element_type);
        o.push_str(",\"items\":");
        list(o, &a.items, write_value);
        o.push('}');
    });
}

fn write_value(out: &mut String, v: &Variant) {
    match v {
        Variant::Nil => out.push_str("null"),
        Variant::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Variant::Int(i) => push_int(out, *i),
        Variant::Float(x) if x.is_finite() => push_f64(out, *x),
        Variant::Float(x) => tagged(out, "float", |o| push_f64(o, *x)),
        Variant::String(s) => push_str(out, s),
        Variant::StringName(s) => tagged(out, "StringName", |o| push_str(o, s)),
        Variant::NodePath(p) => tagged(out, "NodePath", |o| push_str(o, &p.to_string())),
        Variant::Vector2(v) => reals(out, "Vector2", &[v.x, v.y]),
        Variant::Vector2i(v) => ints(out, "Vector2i", &[v.x, v.y]),
        Variant::Rect2(r) => reals(
            out,
            "Rect2",
            &[r.position.x, r.position.y, r.size.x, r.size.y],
        ),
        Variant::Rect2i(r) => ints(
            out,
            "Rect2i",
            &[r.position.x, r.position.y, r.size.x, r.size.y],
        ),
        Variant::Vector3(v) => reals(out, "Vector3", &[v.x, v.y, v.z]),
        Variant::Vector3i(v) => ints(out, "Vector3i", &[v.x, v.y, v.z]),
        Variant::Transform2D(t) => reals(
            out,
            "Transform2D",
            &[t.x.x, t.x.y, t.y.x, t.y.y, t.origin.x, t.origin.y],
        ),
        Variant::Vector4(v) => reals(out, "Vector4", &[v.x, v.y, v.z, v.w]),
        Variant::Vector4i(v) => ints(out, "Vector4i", &[v.x, v.y, v.z, v.w]),
        Variant::Plane(p) => reals(out, "Plane", &[p.normal.x, p.normal.y, p.normal.z, p.d]),
        Variant::Quaternion(q) => reals(out, "Quaternion", &[q.x, q.y, q.z, q.w]),
        Variant::Aabb(b) => reals(
            out,
            "AABB",
            &[
                b.position.x,
                b.position.y,
                b.position.z,
                b.size.x,
                b.size.y,
                b.size.z,
            ],
        ),
        Variant::Basis(b) => reals(out, "Basis", &basis(b)),
        Variant::Transform3D(t) => {
            let mut n = basis(&t.basis).to_vec();
            n.extend([t.origin.x, t.origin.y, t.origin.z]);
            reals(out, "Transform3D", &n);
        }
        Variant::Projection(p) => {
            let n: Vec<f32> = p
                .columns
                .iter()
                .flat_map(|c| [c.x, c.y, c.z, c.w])
                .collect();
            reals(out, "Projection", &n);
        }
        Variant::Color(c) => reals(out, "Color", &[c.r, c.g, c.b, c.a]),
        Variant::Rid(r) => tagged(out, "RID", |o| {
            let _ = write!(o, "{}", r.0);
        }),
        Variant::ObjectId(id) => tagged(out, "ObjectId", |o| {
            let _ = write!(o, "{}", id.0);
        }),
        Variant::Object(obj) => tagged(out, "Object", |o| {
            o.push_str("{\"class\":");
            push_str(o, &obj.class_name);
            o.push_str(",\"properties\":");
            list(o, &obj.properties, |o, (name, value)| {
                o.push('[');
                push_str(o, name);
                o.push(',');
                write_value(o, value);
                o.push(']');
            });
            o.push('}');
        }),
        Variant::Callable(_) => tagged(out, "Callable", |o| o.push_str("null")),
        Variant::Signal(s) => tagged(out, "Signal", |o| {
            o.push_str("{\"name\":");
            push_str(o, &s.name);
            let _ = write!(o, ",\"object\":{}}}", s.object);
        }),
        Variant::Dictionary(d) => {
            let plain = !d.is_typed()
                && d.iter()
                    .all(|(k, _)| matches!(k, Variant::String(s) if !s.starts_with('$')));
            if plain {
                out.push('{');
                for (i, (k, v)) in d.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    push_str(out, k.as_str().unwrap_or_default());
                    out.push(':');
                    write_value(out, v);
                }
                out.push('}');
            } else {
                tagged(out, "Dictionary", |o| {
                    o.push('{');
                    if !d.key_type().is_untyped() {
                        o.push_str("\"key_type\":");
                        element_type(o, d.key_type());
                        o.push(',');
                    }
                    if !d.value_type().is_untyped() {
                        o.push_str("\"value_type\":");
                        element_type(o, d.value_type());
                        o.push(',');
                    }
                    o.push_str("\"entries\":");
                    let entries: Vec<(&Variant, &Variant)> = d.iter().collect();
                    list(o, &entries, |o, (k, v)| {
                        o.push('[');
                        write_value(o, k);
                        o.push(',');
                        write_value(o, v);
                        o.push(']');
                    });
                    o.push('}');
                });
            }
        }
        Variant::Array(a) if a.element_type.is_untyped() => list(out, &a.items, write_value),
        Variant::Array(a) => typed_items(out, "Array", a),
        Variant::PackedTypedArray(a) => typed_items(out, "PackedTypedArray", a),
        Variant::PackedByteArray(a) => tagged(out, "PackedByteArray", |o| {
            list(o, a, |o, b| push_int(o, i64::from(*b)))
        }),
        Variant::PackedInt32Array(a) => ints(out, "PackedInt32Array", a),
        Variant::PackedInt64Array(a) => tagged(out, "PackedInt64Array", |o| {
            list(o, a, |o, i| push_int(o, *i))
        }),
        Variant::PackedFloat32Array(a) => reals(out, "PackedFloat32Array", a),
        Variant::PackedFloat64Array(a) => tagged(out, "PackedFloat64Array", |o| {
            list(o, a, |o, x| push_f64(o, *x))
        }),
        Variant::PackedStringArray(a) => tagged(out, "PackedStringArray", |o| {
            list(o, a, |o, s| push_str(o, s))
        }),
        Variant::PackedVector2Array(a) => {
            groups_f32(out, "PackedVector2Array", a, |v| vec![v.x, v.y])
        }
        Variant::PackedVector3Array(a) => {
            groups_f32(out, "PackedVector3Array", a, |v| vec![v.x, v.y, v.z])
        }
        Variant::PackedVector4Array(a) => {
            groups_f32(out, "PackedVector4Array", a, |v| vec![v.x, v.y, v.z, v.w])
        }
        Variant::PackedColorArray(a) => {
            groups_f32(out, "PackedColorArray", a, |c| vec![c.r, c.g, c.b, c.a])
        }
        Variant::PackedVector2iArray(a) => {
            groups_i32(out, "PackedVector2iArray", a, |v| vec![v.x, v.y])
        }
        Variant::PackedVector3iArray(a) => {
            groups_i32(out, "PackedVector3iArray", a, |v| vec![v.x, v.y, v.z])
        }
        Variant::PackedVector4iArray(a) => {
            groups_i32(out, "PackedVector4iArray", a, |v| vec![v.x, v.y, v.z, v.w])
        }
        Variant::Image(img) => tagged(out, "Image", |o| {
            let _ = write!(
                o,
                "{{\"format\":{},\"mipmaps\":{},\"width\":{},\"height\":{},\"data\":",
                img.format, img.mipmaps, img.width, img.height
            );
            list(o, &img.data, |o, b| push_int(o, i64::from(*b)));
            o.push('}');
        }),
        Variant::InputEvent(ev) => tagged(out, "InputEvent", |o| {
            let _ = write!(
                o,
                "{{\"type\":{},\"device\":{},\"extra\":",
                ev.event_type, ev.device
            );
            list(o, &ev.extra, |o, w| push_int(o, i64::from(*w)));
            o.push('}');
        }),
        // A type added to the crate after this tool: say so rather than guess.
        other => tagged(out, "unsupported", |o| push_str(o, other.get_type().name())),
    }
}

fn groups_f32<T>(out: &mut String, tag: &str, items: &[T], comps: impl Fn(&T) -> Vec<f32>) {
    tagged(out, tag, |o| {
        list(o, items, |o, item| {
            list(o, &comps(item), |o, x| push_f32(o, *x))
        })
    });
}

fn groups_i32<T>(out: &mut String, tag: &str, items: &[T], comps: impl Fn(&T) -> Vec<i32>) {
    tagged(out, tag, |o| {
        list(o, items, |o, item| {
            list(o, &comps(item), |o, x| push_int(o, i64::from(*x)))
        })
    });
}

fn basis(b: &Basis) -> [f32; 9] {
    let [r0, r1, r2] = &b.rows;
    [r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z]
}

// ---------------------------------------------------------------------------------------
// Reading: serde_json parses into this tree, which keeps object keys in their order.

/// A JSON value with its object members in document order.
#[derive(Debug, Clone)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    /// An integer beyond `i64` (kept to say so in the error).
    Big(u64),
    Float(f64),
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Json;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON value")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Json, E> {
                Ok(Json::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Json, E> {
                Ok(i64::try_from(u).map_or(Json::Big(u), Json::Int))
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Json, E> {
                Ok(Json::Float(x))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Str(s.to_owned()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Json, E> {
                Ok(Json::Str(s))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Json::List(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
                let mut members = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, Json>()? {
                    members.push((k, v));
                }
                Ok(Json::Object(members))
            }
        }
        d.deserialize_any(V)
    }
}

/// Every JSON document in `input` (whitespace-separated, e.g. one per line).
pub fn parse_all(input: &str) -> Result<Vec<Variant>, String> {
    let mut out = Vec::new();
    for (i, doc) in serde_json::Deserializer::from_str(input)
        .into_iter::<Json>()
        .enumerate()
    {
        let doc = doc.map_err(|e| format!("JSON document {}: {e}", i + 1))?;
        out.push(from_json(&doc).map_err(|e| format!("JSON document {}: {e}", i + 1))?);
    }
    Ok(out)
}

fn kind(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::Int(_) | Json::Big(_) => "an integer",
        Json::Float(_) => "a float",
        Json::Str(_) => "a string",
        Json::List(_) => "a list",
        Json::Object(_) => "an object",
    }
}

fn from_json(j: &Json) -> Result<Variant, String> {
    Ok(match j {
        Json::Null => Variant::Nil,
        Json::Bool(b) => Variant::Bool(*b),
        Json::Int(i) => Variant::Int(*i),
        Json::Big(u) => return Err(format!("{u} does not fit in a 64-bit int")),
        Json::Float(x) => Variant::Float(*x),
        Json::Str(s) => Variant::String(s.clone()),
        Json::List(items) => {
            Variant::from(items.iter().map(from_json).collect::<Result<Vec<_>, _>>()?)
        }
        Json::Object(members) => match members.as_slice() {
            [(tag, body)] if tag.starts_with('$') => {
                tagged_from_json(&tag[1..], body).map_err(|e| format!("{tag}: {e}"))?
            }
            _ => {
                let mut d = Dictionary::new();
                for (k, v) in members {
                    if k.starts_with('$') {
                        return Err(format!("key {k:?}: keys starting with '$' are tags; write such a Dictionary as {{\"$Dictionary\": ...}}"));
                    }
                    d.insert(
                        Variant::from(k.as_str()),
                        from_json(v).map_err(|e| format!("{k}: {e}"))?,
                    );
                }
                Variant::Dictionary(d)
            }
        },
    })
}

fn number(j: &Json) -> Result<f64, String> {
    match j {
        Json::Int(i) => Ok(*i as f64),
        Json::Float(x) => Ok(*x),
        Json::Str(s) if s == "inf" => Ok(f64::INFINITY),
        Json::Str(s) if s == "-inf" => Ok(f64::NEG_INFINITY),
        Json::Str(s) if s == "nan" => Ok(f64::NAN),
        other => Err(format!("expected a number, found {}", kind(other))),
    }
}

fn integer(j: &Json) -> Result<i64, String> {
    match j {
        Json::Int(i) => Ok(*i),
        other => Err(format!("expected an integer, found {}", kind(other))),
    }
}

fn int_as<T: TryFrom<i64>>(j: &Json) -> Result<T, String> {
    let i = integer(j)?;
    T::try_from(i).map_err(|_| format!("{i} is out of range"))
}

fn list_of(j: &Json, len: Option<usize>) -> Result<&[Json], String> {
    match j {
        Json::List(items) => match len {
            Some(n) if items.len() != n => {
                Err(format!("expected {n} components, found {}", items.len()))
            }
            _ => Ok(items),
        },
        other => Err(format!("expected a list, found {}", kind(other))),
    }
}

fn f32s<const N: usize>(j: &Json) -> Result<[f32; N], String> {
    let items = list_of(j, Some(N))?;
    let mut out = [0.0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = number(item)? as f32;
    }
    Ok(out)
}

fn i32s<const N: usize>(j: &Json) -> Result<[i32; N], String> {
    let items = list_of(j, Some(N))?;
    let mut out = [0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = int_as(item)?;
    }
    Ok(out)
}

fn members(j: &Json) -> Result<&[(String, Json)], String> {
    match j {
        Json::Object(m) => Ok(m),
        other => Err(format!("expected an object, found {}", kind(other))),
    }
}

fn member<'a>(m: &'a [(String, Json)], name: &str) -> Option<&'a Json> {
    m.iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

fn required<'a>(m: &'a [(String, Json)], name: &str) -> Result<&'a Json, String> {
    member(m, name).ok_or_else(|| format!("missing \"{name}\""))
}

fn string_of(j: &Json) -> Result<String, String> {
    match j {
        Json::Str(s) => Ok(s.clone()),
        other => Err(format!("expected a string, found {}", kind(other))),
    }
}

fn element_type_of(j: Option<&Json>) -> Result<ElementType, String> {
    let Some(j) = j else {
        return Ok(ElementType::Untyped);
    };
    if let Json::Null = j {
        return Ok(ElementType::Untyped);
    }
    let m = members(j)?;
    if let Some(b) = member(m, "builtin") {
        let name = string_of(b)?;
        let ty = BUILTIN_NAMES
            .iter()
            .copied()
            .find(|t| t.name() == name)
            .ok_or_else(|| format!("unknown builtin type {name:?}"))?;
        return Ok(ElementType::Builtin(ty));
    }
    if let Some(c) = member(m, "class") {
        return Ok(ElementType::ClassName(string_of(c)?));
    }
    if let Some(s) = member(m, "script") {
        return Ok(ElementType::Script(string_of(s)?));
    }
    Err("expected {\"builtin\": ...}, {\"class\": ...} or {\"script\": ...}".into())
}

/// The builtin types a typed container can name.
const BUILTIN_NAMES: &[VariantType] = &[
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Vector2i,
    VariantType::Rect2,
    VariantType::Rect2i,
    VariantType::Vector3,
    VariantType::Vector3i,
    VariantType::Transform2D,
    VariantType::Vector4,
    VariantType::Vector4i,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Transform3D,
    VariantType::Projection,
    VariantType::Color,
    VariantType::StringName,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::Object,
    VariantType::Callable,
    VariantType::Signal,
    VariantType::Dictionary,
    VariantType::Array,
    VariantType::PackedByteArray,
    VariantType::PackedInt32Array,
    VariantType::PackedInt64Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedFloat64Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedColorArray,
    VariantType::PackedVector4Array,
    VariantType::PackedVector2iArray,
    VariantType::PackedVector3iArray,
    VariantType::PackedVector4iArray,
];

fn typed_array(body: &Json) -> Result<Array, String> {
    let m = members(body)?;
    let items = list_of(required(m, "items")?, None)?
        .iter()
        .map(from_json)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Array::typed(element_type_of(member(m, "type"))?, items))
}

fn groups<T, const N: usize>(
    body: &Json,
    make: impl Fn(&Json) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    list_of(body, None)?
        .iter()
        .enumerate()
        .map(|(i, g)| make(g).map_err(|e| format!("[{i}]: {e}")))
        .collect()
}

fn tagged_from_json(tag: &str, body: &Json) -> Result<Variant, String> {
    Ok(match tag {
        "float" => Variant::Float(number(body)?),
        "StringName" => Variant::StringName(StringName(string_of(body)?)),
        "NodePath" => Variant::NodePath(NodePath::from(string_of(body)?.as_str())),
        "Vector2" => {
            let [x, y] = f32s(body)?;
            Variant::Vector2(Vector2::new(x, y))
        }
        "Vector2i" => {
            let [x, y] = i32s(body)?;
            Variant::Vector2i(Vector2i::new(x, y))
        }
        "Rect2" => {
            let [a, b, c, d] = f32s(body)?;
            Variant::Rect2(Rect2::new(Vector2::new(a, b), Vector2::new(c, d)))
        }
        "Rect2i" => {
            let [a, b, c, d] = i32s(body)?;
            Variant::Rect2i(Rect2i::new(Vector2i::new(a, b), Vector2i::new(c, d)))
        }
        "Vector3" => {
            let [x, y, z] = f32s(body)?;
            Variant::Vector3(Vector3::new(x, y, z))
        }
        "Vector3i" => {
            let [x, y, z] = i32s(body)?;
            Variant::Vector3i(Vector3i::new(x, y, z))
        }
        "Transform2D" => {
            let [a, b, c, d, e, f] = f32s(body)?;
            Variant::Transform2D(Transform2D {
                x: Vector2::new(a, b),
                y: Vector2::new(c, d),
                origin: Vector2::new(e, f),
            })
        }
        "Vector4" => {
            let [x, y, z, w] = f32s(body)?;
            Variant::Vector4(Vector4::new(x, y, z, w))
        }
        "Vector4i" => {
            let [x, y, z, w] = i32s(body)?;
            Variant::Vector4i(Vector4i::new(x, y, z, w))
        }
        "Plane" => {
            let [a, b, c, d] = f32s(body)?;
            Variant::Plane(Plane::new(Vector3::new(a, b, c), d))
        }
        "Quaternion" => {
            let [x, y, z, w] = f32s(body)?;
            Variant::Quaternion(Quaternion::new(x, y, z, w))
        }
        "AABB" => {
            let [a, b, c, d, e, f] = f32s(body)?;
            Variant::Aabb(Aabb {
                position: Vector3::new(a, b, c),
                size: Vector3::new(d, e, f),
            })
        }
        "Basis" => Variant::Basis(basis_from(&f32s::<9>(body)?)),
        "Transform3D" => {
            let n = f32s::<12>(body)?;
            Variant::Transform3D(Transform3D {
                basis: basis_from(&n[..9]),
                origin: Vector3::new(n[9], n[10], n[11]),
            })
        }
        "Projection" => {
            let n = f32s::<16>(body)?;
            let col = |i: usize| Vector4::new(n[i], n[i + 1], n[i + 2], n[i + 3]);
            Variant::Projection(Projection {
                columns: [col(0), col(4), col(8), col(12)],
            })
        }
        "Color" => {
            let [r, g, b, a] = f32s(body)?;
            Variant::Color(Color::from_rgba(r, g, b, a))
        }
        "RID" => Variant::Rid(Rid(u64_of(body)?)),
        "ObjectId" => Variant::ObjectId(ObjectId(u64_of(body)?)),
        "Callable" => Variant::Callable(Callable),
        "Signal" => {
            let m = members(body)?;
            Variant::Signal(Signal {
                name: string_of(required(m, "name")?)?,
                object: u64_of(required(m, "object")?)?,
            })
        }
        "Object" => {
            let m = members(body)?;
            let mut properties = Vec::new();
            for p in list_of(required(m, "properties")?, None)? {
                let pair = list_of(p, Some(2))?;
                properties.push((string_of(&pair[0])?, from_json(&pair[1])?));
            }
            Variant::Object(Object {
                class_name: string_of(required(m, "class")?)?,
                properties,
            })
        }
        "Array" => Variant::Array(typed_array(body)?),
        "PackedTypedArray" => Variant::PackedTypedArray(typed_array(body)?),
        "Dictionary" => {
            let m = members(body)?;
            let mut d = Dictionary::new();
            d.set_types(
                element_type_of(member(m, "key_type"))?,
                element_type_of(member(m, "value_type"))?,
            );
            for e in list_of(required(m, "entries")?, None)? {
                let pair = list_of(e, Some(2))?;
                d.insert(from_json(&pair[0])?, from_json(&pair[1])?);
            }
            Variant::Dictionary(d)
        }
        "PackedByteArray" => Variant::PackedByteArray(groups::<u8, 1>(body, int_as)?.into()),
        "PackedInt32Array" => Variant::PackedInt32Array(groups::<i32, 1>(body, int_as)?.into()),
        "PackedInt64Array" => Variant::PackedInt64Array(groups::<i64, 1>(body, integer)?.into()),
        "PackedFloat32Array" => Variant::PackedFloat32Array(
            groups::<f32, 1>(body, |j| number(j).map(|x| x as f32))?.into(),
        ),
        "PackedFloat64Array" => Variant::PackedFloat64Array(groups::<f64, 1>(body, number)?.into()),
        "PackedStringArray" => {
            Variant::PackedStringArray(groups::<String, 1>(body, string_of)?.into())
        }
        "PackedVector2Array" => Variant::PackedVector2Array(
            groups::<_, 2>(body, |g| f32s::<2>(g).map(|[x, y]| Vector2::new(x, y)))?.into(),
        ),
        "PackedVector3Array" => Variant::PackedVector3Array(
            groups::<_, 3>(body, |g| {
                f32s::<3>(g).map(|[x, y, z]| Vector3::new(x, y, z))
            })?
            .into(),
        ),
        "PackedVector4Array" => Variant::PackedVector4Array(
            groups::<_, 4>(body, |g| {
                f32s::<4>(g).map(|[x, y, z, w]| Vector4::new(x, y, z, w))
            })?
            .into(),
        ),
        "PackedColorArray" => Variant::PackedColorArray(
            groups::<_, 4>(body, |g| {
                f32s::<4>(g).map(|[r, g, b, a]| Color::from_rgba(r, g, b, a))
            })?
            .into(),
        ),
        "PackedVector2iArray" => Variant::PackedVector2iArray(
            groups::<_, 2>(body, |g| i32s::<2>(g).map(|[x, y]| Vector2i::new(x, y)))?.into(),
        ),
        "PackedVector3iArray" => Variant::PackedVector3iArray(
            groups::<_, 3>(body, |g| {
                i32s::<3>(g).map(|[x, y, z]| Vector3i::new(x, y, z))
            })?
            .into(),
        ),
        "PackedVector4iArray" => Variant::PackedVector4iArray(
            groups::<_, 4>(body, |g| {
                i32s::<4>(g).map(|[x, y, z, w]| Vector4i::new(x, y, z, w))
            })?
            .into(),
        ),
        "Image" => {
            let m = members(body)?;
            Variant::Image(Image {
                format: int_as(required(m, "format")?)?,
                mipmaps: int_as(required(m, "mipmaps")?)?,
                width: int_as(required(m, "width")?)?,
                height: int_as(required(m, "height")?)?,
                data: groups::<u8, 1>(required(m, "data")?, int_as)?,
            })
        }
        "InputEvent" => {
            let m = members(body)?;
            Variant::InputEvent(InputEvent {
                event_type: int_as(required(m, "type")?)?,
                device: int_as(required(m, "device")?)?,
                extra: groups::<u32, 1>(required(m, "extra")?, int_as)?,
            })
        }
        other => return Err(format!("unknown tag ${other}")),
    })
}

fn u64_of(j: &Json) -> Result<u64, String> {
    match j {
        Json::Int(i) if *i >= 0 => Ok(*i as u64),
        Json::Big(u) => Ok(*u),
        other => Err(format!(
            "expected an unsigned integer, found {}",
            kind(other)
        )),
    }
}

fn basis_from(n: &[f32]) -> Basis {
    let row = |i: usize| Vector3::new(n[i], n[i + 1], n[i + 2]);
    Basis {
        rows: [row(0), row(3), row(6)],
    }
}
