//! The JSON form of `godot-bin dump --json` and `encode --json`: plain JSON where JSON has
//! the type, a one-key `{"$Type": ...}` object where it does not. See [`MAPPING_HELP`].

use godot_bin::*;
use serde_json::{Map, Number, Value};

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

/// `v` in the JSON mapping.
pub fn to_json(v: &Variant) -> Value {
    // The math types and Color: their components in the table's order, which is the text
    // form's (`Variant::components`).
    if let Some(parts) = v.components() {
        return tagged(v.get_type().name(), components(parts.as_slice()));
    }
    match v {
        Variant::Nil => Value::Null,
        Variant::Bool(b) => Value::Bool(*b),
        Variant::Int(i) => Value::from(*i),
        Variant::Float(x) if x.is_finite() => f64_value(*x),
        Variant::Float(x) => tagged("float", f64_value(*x)),
        Variant::String(s) => Value::from(s.as_str()),
        Variant::StringName(s) => tagged("StringName", Value::from(s.0.as_str())),
        Variant::NodePath(p) => tagged("NodePath", Value::from(p.to_string())),
        Variant::Rid(r) => tagged("RID", Value::from(r.0)),
        Variant::ObjectId(id) => tagged("ObjectId", Value::from(id.0)),
        Variant::Object(obj) => {
            let properties = obj
                .properties
                .iter()
                .map(|(name, value)| Value::Array(vec![Value::from(name.as_str()), to_json(value)]))
                .collect();
            tagged(
                "Object",
                object([
                    ("class", Value::from(obj.class_name.as_str())),
                    ("properties", Value::Array(properties)),
                ]),
            )
        }
        Variant::Callable(_) => tagged("Callable", Value::Null),
        Variant::Signal(s) => tagged(
            "Signal",
            object([
                ("name", Value::from(s.name.as_str())),
                ("object", Value::from(s.object)),
            ]),
        ),
        Variant::Dictionary(d) => {
            let plain = !d.is_typed()
                && d.iter()
                    .all(|(k, _)| matches!(k, Variant::String(s) if !s.starts_with('$')));
            if plain {
                Value::Object(
                    d.iter()
                        .map(|(k, v)| (k.as_str().unwrap_or_default().to_owned(), to_json(v)))
                        .collect(),
                )
            } else {
                let mut body = Map::new();
                if !d.key_type().is_untyped() {
                    body.insert("key_type".into(), element_type(d.key_type()));
                }
                if !d.value_type().is_untyped() {
                    body.insert("value_type".into(), element_type(d.value_type()));
                }
                let entries = d
                    .iter()
                    .map(|(k, v)| Value::Array(vec![to_json(k), to_json(v)]))
                    .collect();
                body.insert("entries".into(), Value::Array(entries));
                tagged("Dictionary", Value::Object(body))
            }
        }
        Variant::Array(a) if a.element_type.is_untyped() => list(&a.items, to_json),
        Variant::Array(a) => typed_items("Array", a),
        Variant::PackedTypedArray(a) => typed_items("PackedTypedArray", a),
        Variant::PackedByteArray(a) => tagged("PackedByteArray", list(a, |b| Value::from(*b))),
        Variant::PackedInt32Array(a) => tagged("PackedInt32Array", list(a, |i| Value::from(*i))),
        Variant::PackedInt64Array(a) => tagged("PackedInt64Array", list(a, |i| Value::from(*i))),
        Variant::PackedFloat32Array(a) => tagged("PackedFloat32Array", list(a, |x| f32_value(*x))),
        Variant::PackedFloat64Array(a) => tagged("PackedFloat64Array", list(a, |x| f64_value(*x))),
        Variant::PackedStringArray(a) => {
            tagged("PackedStringArray", list(a, |s| Value::from(s.as_str())))
        }
        Variant::PackedVector2Array(a) => packed_fixed(v, a),
        Variant::PackedVector3Array(a) => packed_fixed(v, a),
        Variant::PackedVector4Array(a) => packed_fixed(v, a),
        Variant::PackedColorArray(a) => packed_fixed(v, a),
        Variant::PackedVector2iArray(a) => packed_fixed(v, a),
        Variant::PackedVector3iArray(a) => packed_fixed(v, a),
        Variant::PackedVector4iArray(a) => packed_fixed(v, a),
        Variant::Image(img) => tagged(
            "Image",
            object([
                ("format", Value::from(img.format)),
                ("mipmaps", Value::from(img.mipmaps)),
                ("width", Value::from(img.width)),
                ("height", Value::from(img.height)),
                ("data", list(&img.data, |b| Value::from(*b))),
            ]),
        ),
        Variant::InputEvent(ev) => tagged(
            "InputEvent",
            object([
                ("type", Value::from(ev.event_type)),
                ("device", Value::from(ev.device)),
                ("extra", list(&ev.extra, |w| Value::from(*w))),
            ]),
        ),
        // A type added to the crate after this tool: say so rather than guess.
        other => tagged("unsupported", Value::from(other.get_type().name())),
    }
}

/// A float: a JSON number (serde_json always writes one with a '.' or an exponent), or
/// "inf" / "-inf" / "nan".
fn f64_value(x: f64) -> Value {
    match Number::from_f64(x) {
        Some(n) => Value::Number(n),
        None if x.is_nan() => Value::from("nan"),
        None if x > 0.0 => Value::from("inf"),
        None => Value::from("-inf"),
    }
}

/// A real component: the shortest digits that read back to the `f32` (0.1, not the
/// 0.10000000149011612 of its `f64` value).
fn f32_value(x: f32) -> Value {
    if x.is_finite() {
        let shortest: f64 = format!("{x:?}").parse().unwrap_or(f64::from(x));
        f64_value(shortest)
    } else {
        f64_value(f64::from(x))
    }
}

fn list<T>(items: &[T], each: impl FnMut(&T) -> Value) -> Value {
    Value::Array(items.iter().map(each).collect())
}

fn object<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
    )
}

fn tagged(tag: &str, body: Value) -> Value {
    let mut m = Map::new();
    m.insert(format!("${tag}"), body);
    Value::Object(m)
}

fn element_type(t: &ElementType) -> Value {
    match t {
        ElementType::Builtin(ty) => object([("builtin", Value::from(ty.name()))]),
        ElementType::ClassName(c) => object([("class", Value::from(c.as_str()))]),
        ElementType::Script(p) => object([("script", Value::from(p.as_str()))]),
        ElementType::Untyped => Value::Null,
    }
}

fn typed_items(tag: &str, a: &Array) -> Value {
    tagged(
        tag,
        object([
            ("type", element_type(&a.element_type)),
            ("items", list(&a.items, to_json)),
        ]),
    )
}

/// A fixed builtin's components as a JSON list.
fn components(parts: &[Component]) -> Value {
    list(parts, |c| match *c {
        Component::F32(x) => f32_value(x),
        Component::I32(i) => Value::from(i),
    })
}

/// A packed array of fixed builtins: a list of each element's components.
fn packed_fixed<T: Copy + Into<Variant>>(packed: &Variant, items: &[T]) -> Value {
    tagged(
        packed.get_type().name(),
        list(items, |item| {
            let item: Variant = (*item).into();
            item.components()
                .map_or(Value::Null, |parts| components(parts.as_slice()))
        }),
    )
}

// ---------------------------------------------------------------------------------------
// Reading: serde_json's `Value`, whose objects keep their members in document order
// (the `preserve_order` feature), so a Dictionary keeps its entries' order.

/// Every JSON document in `input` (whitespace-separated, e.g. one per line).
pub fn parse_all(input: &str) -> Result<Vec<Variant>, String> {
    let mut out = Vec::new();
    for (i, doc) in serde_json::Deserializer::from_str(input)
        .into_iter::<Value>()
        .enumerate()
    {
        let doc = doc.map_err(|e| format!("JSON document {}: {e}", i + 1))?;
        out.push(from_json(&doc).map_err(|e| format!("JSON document {}: {e}", i + 1))?);
    }
    Ok(out)
}

fn kind(j: &Value) -> &'static str {
    match j {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn from_json(j: &Value) -> Result<Variant, String> {
    Ok(match j {
        Value::Null => Variant::Nil,
        Value::Bool(b) => Variant::Bool(*b),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => Variant::Int(i),
            (None, Some(u)) => return Err(format!("{u} does not fit in a 64-bit int")),
            (None, None) => Variant::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => Variant::String(s.clone()),
        Value::Array(items) => {
            Variant::from(items.iter().map(from_json).collect::<Result<Vec<_>, _>>()?)
        }
        Value::Object(members) => match members.iter().next() {
            Some((tag, body)) if members.len() == 1 && tag.starts_with('$') => {
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

fn number(j: &Value) -> Result<f64, String> {
    match j {
        Value::Number(n) => n.as_f64().ok_or_else(|| "not a number".to_owned()),
        Value::String(s) if s == "inf" => Ok(f64::INFINITY),
        Value::String(s) if s == "-inf" => Ok(f64::NEG_INFINITY),
        Value::String(s) if s == "nan" => Ok(f64::NAN),
        other => Err(format!("expected a number, found {}", kind(other))),
    }
}

fn integer(j: &Value) -> Result<i64, String> {
    match j.as_i64() {
        Some(i) => Ok(i),
        None => Err(format!("expected an integer, found {}", kind(j))),
    }
}

fn int_as<T: TryFrom<i64>>(j: &Value) -> Result<T, String> {
    let i = integer(j)?;
    T::try_from(i).map_err(|_| format!("{i} is out of range"))
}

fn list_of(j: &Value, len: Option<usize>) -> Result<&[Value], String> {
    match j {
        Value::Array(items) => match len {
            Some(n) if items.len() != n => {
                Err(format!("expected {n} components, found {}", items.len()))
            }
            _ => Ok(items),
        },
        other => Err(format!("expected a list, found {}", kind(other))),
    }
}

fn members(j: &Value) -> Result<&Map<String, Value>, String> {
    match j {
        Value::Object(m) => Ok(m),
        other => Err(format!("expected an object, found {}", kind(other))),
    }
}

fn member<'a>(m: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    m.get(name)
}

fn required<'a>(m: &'a Map<String, Value>, name: &str) -> Result<&'a Value, String> {
    member(m, name).ok_or_else(|| format!("missing \"{name}\""))
}

fn string_of(j: &Value) -> Result<String, String> {
    match j {
        Value::String(s) => Ok(s.clone()),
        other => Err(format!("expected a string, found {}", kind(other))),
    }
}

fn element_type_of(j: Option<&Value>) -> Result<ElementType, String> {
    let Some(j) = j else {
        return Ok(ElementType::Untyped);
    };
    if let Value::Null = j {
        return Ok(ElementType::Untyped);
    }
    let m = members(j)?;
    if let Some(b) = member(m, "builtin") {
        let name = string_of(b)?;
        let ty = builtin_named(&name).ok_or_else(|| format!("unknown builtin type {name:?}"))?;
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

/// The builtin type a typed container names by `name`: any type but Nil (an untyped
/// container), Godot 2's `Image` and `InputEvent`, and the typed containers themselves.
fn builtin_named(name: &str) -> Option<VariantType> {
    use VariantType as T;
    T::ALL
        .iter()
        .copied()
        .filter(|t| {
            !matches!(
                t,
                T::Nil | T::Image | T::InputEvent | T::TypedArray | T::PackedTypedArray
            )
        })
        .find(|t| t.name() == name)
}

fn typed_array(body: &Value) -> Result<Array, String> {
    let m = members(body)?;
    let items = list_of(required(m, "items")?, None)?
        .iter()
        .map(from_json)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Array::typed(element_type_of(member(m, "type"))?, items))
}

fn groups<T, const N: usize>(
    body: &Value,
    make: impl Fn(&Value) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    list_of(body, None)?
        .iter()
        .enumerate()
        .map(|(i, g)| make(g).map_err(|e| format!("[{i}]: {e}")))
        .collect()
}

fn tagged_from_json(tag: &str, body: &Value) -> Result<Variant, String> {
    if let Some(ty) = fixed_named(tag) {
        return fixed(ty, body);
    }
    Ok(match tag {
        "float" => Variant::Float(number(body)?),
        "StringName" => Variant::StringName(StringName(string_of(body)?)),
        "NodePath" => Variant::NodePath(NodePath::from(string_of(body)?.as_str())),
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
        "PackedVector2Array" => packed_fixed_from(VariantType::Vector2, body)?,
        "PackedVector3Array" => packed_fixed_from(VariantType::Vector3, body)?,
        "PackedVector4Array" => packed_fixed_from(VariantType::Vector4, body)?,
        "PackedColorArray" => packed_fixed_from(VariantType::Color, body)?,
        "PackedVector2iArray" => packed_fixed_from(VariantType::Vector2i, body)?,
        "PackedVector3iArray" => packed_fixed_from(VariantType::Vector3i, body)?,
        "PackedVector4iArray" => packed_fixed_from(VariantType::Vector4i, body)?,
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

fn u64_of(j: &Value) -> Result<u64, String> {
    j.as_u64()
        .ok_or_else(|| format!("expected an unsigned integer, found {}", kind(j)))
}

/// The math type or Color named `tag` (the component table's types).
fn fixed_named(tag: &str) -> Option<VariantType> {
    VariantType::ALL
        .iter()
        .copied()
        .find(|t| t.components().is_some() && t.name() == tag)
}

/// A fixed builtin from its list of components, as many and of the kind the table says.
fn fixed(ty: VariantType, body: &Value) -> Result<Variant, String> {
    let (kind, n) = ty
        .components()
        .ok_or_else(|| format!("{} has no components", ty.name()))?;
    let parts = list_of(body, Some(n))?
        .iter()
        .map(|j| match kind {
            ComponentKind::I32 => int_as(j).map(Component::I32),
            _ => number(j).map(|x| Component::F32(x as f32)),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Variant::from_components(ty, &parts).ok_or_else(|| format!("not a {}", ty.name()))
}

/// A packed array of `element`s from a list of each one's components.
fn packed_fixed_from(element: VariantType, body: &Value) -> Result<Variant, String> {
    let items = groups::<_, 1>(body, |g| fixed(element, g))?;
    let mut packed = match element {
        VariantType::Vector2 => Variant::PackedVector2Array(Default::default()),
        VariantType::Vector3 => Variant::PackedVector3Array(Default::default()),
        VariantType::Vector4 => Variant::PackedVector4Array(Default::default()),
        VariantType::Color => Variant::PackedColorArray(Default::default()),
        VariantType::Vector2i => Variant::PackedVector2iArray(Default::default()),
        VariantType::Vector3i => Variant::PackedVector3iArray(Default::default()),
        VariantType::Vector4i => Variant::PackedVector4iArray(Default::default()),
        other => return Err(format!("no packed array of {}", other.name())),
    };
    // The elements fit the packed array's kind, so it keeps it.
    packed.assign(Variant::from(items));
    Ok(packed)
}
