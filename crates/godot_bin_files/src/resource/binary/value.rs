//! A property's value in a binary resource: the binary resource's own Variant encoding
//! (`ResourceFormatSaverBinaryInstance::write_variant`), which is not `var_to_bytes`'.
//!
//! Each value is a u32 type id of its own table, then its data, with no padding except
//! after a PackedByteArray:
//!
//! | id | value | data |
//! |---|---|---|
//! | 1, 2 | nil, bool | -, u32 |
//! | 3, 40 | int | i32 when it fits, else (40) i64 (Godot 3.0 and 3.1: always i64) |
//! | 4, 41 | float | f32 when the value survives it, else (41) f64 |
//! | 5, 44 | String, StringName | u32 length with the NUL, UTF-8, NUL |
//! | 10, 45, 11, 46, 12, 47, 50, 51 | Vector2(i), Rect2(i), Vector3(i), Vector4(i) | components (reals: f32, or f64 in a double build's file; ints: i32) |
//! | 13, 14, 15, 16, 17, 18, 52 | Plane, Quaternion, AABB, Basis (rows), Transform3D (basis rows, origin), Transform2D (columns), Projection (columns) | reals |
//! | 20 | Color | 4 × f32, whatever the build |
//! | 22 | NodePath | u16 names, u16 subnames (bit 15: absolute), then each name as a u32 index in the string table (or, with bit 31 of a length, a string) |
//! | 23 | RID | u32 id |
//! | 24 | Object | u32 kind: 0 null, 1 external by type and path (two strings), 2 internal by index (Godot 4: in the internal table; Godot 3: the `local://N` number), 3 external by index in the external table |
//! | 42, 43 | Callable, Signal (Godot 4) | - (never stored) |
//! | 26 | Dictionary | u32 count (bit 31 ignored), then key, value, ... |
//! | 30 | Array | u32 count, then the elements |
//! | 31 | PackedByteArray | u32 length, bytes, zeros to a multiple of 4 |
//! | 32, 48, 33, 49 | PackedInt32/Int64/Float32/Float64Array | u32 count, elements |
//! | 34 | PackedStringArray | u32 count, strings |
//! | 37, 35, 53 | PackedVector2/3/4Array | u32 count, reals |
//! | 36 | PackedColorArray | u32 count, 4 × f32 each |
//!
//! Godot 4.4 writes typed Arrays and Dictionaries as plain ones (their element types are
//! not in the file) and an object that is not a resource as null; so do the writers here.
//! A reference is read as its [`Reference`](crate::resource::Reference) marker: an external
//! by index `i` as `ExtResource("i+1")`, an internal as `SubResource(id)`, its
//! `local://id` path.

use super::io::{Input, Output};
use crate::error::{Error, Result};
use crate::resource::reference::{EXT_CLASS, PATH_CLASS, SUB_CLASS};
use godot_bin::{
    Array, Callable, Color, Component, ComponentKind, Dictionary, NodePath, Object, ObjectId,
    PackedByteArray, PackedColorArray, PackedFloat32Array, PackedFloat64Array, PackedInt32Array,
    PackedInt64Array, PackedStringArray, PackedVector2Array, PackedVector3Array,
    PackedVector4Array, Rid, Signal, StringName, Variant, VariantType, Vector2, Vector3, Vector4,
};

/// How deep values may nest: the engine's own limit.
pub(crate) use crate::depth::MAX_DEPTH;

const NIL: u32 = 1;
const BOOL: u32 = 2;
const INT: u32 = 3;
const FLOAT: u32 = 4;
const STRING: u32 = 5;
const VECTOR2: u32 = 10;
const RECT2: u32 = 11;
const VECTOR3: u32 = 12;
const PLANE: u32 = 13;
const QUATERNION: u32 = 14;
const AABB: u32 = 15;
const BASIS: u32 = 16;
const TRANSFORM3D: u32 = 17;
const TRANSFORM2D: u32 = 18;
const COLOR: u32 = 20;
const NODE_PATH: u32 = 22;
const RID: u32 = 23;
const OBJECT: u32 = 24;
const DICTIONARY: u32 = 26;
const ARRAY: u32 = 30;
const PACKED_BYTE: u32 = 31;
const PACKED_INT32: u32 = 32;
const PACKED_FLOAT32: u32 = 33;
const PACKED_STRING: u32 = 34;
const PACKED_VECTOR3: u32 = 35;
const PACKED_COLOR: u32 = 36;
const PACKED_VECTOR2: u32 = 37;
const INT64: u32 = 40;
const DOUBLE: u32 = 41;
const CALLABLE: u32 = 42;
const SIGNAL: u32 = 43;
const STRING_NAME: u32 = 44;
const VECTOR2I: u32 = 45;
const RECT2I: u32 = 46;
const VECTOR3I: u32 = 47;
const PACKED_INT64: u32 = 48;
const PACKED_FLOAT64: u32 = 49;
const VECTOR4: u32 = 50;
const VECTOR4I: u32 = 51;
const PROJECTION: u32 = 52;
const PACKED_VECTOR4: u32 = 53;

const OBJECT_EMPTY: u32 = 0;
const OBJECT_EXTERNAL_RESOURCE: u32 = 1;
const OBJECT_INTERNAL_RESOURCE: u32 = 2;
const OBJECT_EXTERNAL_RESOURCE_INDEX: u32 = 3;

/// What a value's references and NodePath names are resolved against.
pub(crate) struct Tables<'a> {
    pub(crate) strings: &'a [String],
    /// The internal resources' ids (`local://id`), by table index.
    pub(crate) internal_ids: &'a [String],
    /// Godot 4's named ids: an internal reference is a table index (else the id number).
    pub(crate) named_ids: bool,
    /// Godot 4 (Callable, Signal, the 4.x types) or Godot 3.
    pub(crate) godot4: bool,
    /// Format 2 (Godot 3.0): a NodePath has a property name after its subnames, read as
    /// one more subname, as the engine reads it.
    pub(crate) nodepath_property: bool,
    /// Set on reading an int that fits 32 bits stored as 64 (Godot 3.0 and 3.1's saver
    /// stores every int so), for the file to be written back the same way.
    pub(crate) wide_ints: std::cell::Cell<bool>,
}

fn marker(class: &str, props: Vec<(&str, Variant)>) -> Variant {
    Variant::Object(Object {
        class_name: class.into(),
        properties: props.into_iter().map(|(k, v)| (k.into(), v)).collect(),
    })
}

/// Reads one value.
pub(crate) fn read(input: &mut Input<'_>, t: &Tables<'_>, depth: usize) -> Result<Variant> {
    if depth > MAX_DEPTH {
        return Err(
            Error::new(crate::error::ErrorKind::DepthExceeded(MAX_DEPTH)).at_byte(input.pos),
        );
    }
    if depth > 32 {
        return crate::depth::grow_stack(|| read_value(input, t, depth));
    }
    read_value(input, t, depth)
}

fn reals<const N: usize>(input: &mut Input<'_>) -> Result<[f32; N]> {
    let mut out = [0.0; N];
    for x in &mut out {
        *x = input.real()?;
    }
    Ok(out)
}

fn v3(c: &[f32]) -> Vector3 {
    Vector3::new(c[0], c[1], c[2])
}

fn v4(c: &[f32]) -> Vector4 {
    Vector4::new(c[0], c[1], c[2], c[3])
}

/// A count of items of at least `min` bytes, checked against the bytes left.
fn count(input: &mut Input<'_>, min: usize, what: &str) -> Result<usize> {
    let n = (input.u32()? & 0x7fff_ffff) as usize;
    input.check_count(n, min, what)?;
    Ok(n)
}

/// The fixed builtins' ids in a binary resource, and whether only Godot 4's files have
/// them. Their components, and the order they are stored in, are godot_bin's one table
/// (`Variant::components`): the same order as in packets.
const FIXED: [(u32, VariantType, bool); 16] = [
    (VECTOR2, VariantType::Vector2, false),
    (VECTOR2I, VariantType::Vector2i, true),
    (RECT2, VariantType::Rect2, false),
    (RECT2I, VariantType::Rect2i, true),
    (VECTOR3, VariantType::Vector3, false),
    (VECTOR3I, VariantType::Vector3i, true),
    (TRANSFORM2D, VariantType::Transform2D, false),
    (VECTOR4, VariantType::Vector4, true),
    (VECTOR4I, VariantType::Vector4i, true),
    (PLANE, VariantType::Plane, false),
    (QUATERNION, VariantType::Quaternion, false),
    (AABB, VariantType::Aabb, false),
    (BASIS, VariantType::Basis, false),
    (TRANSFORM3D, VariantType::Transform3D, false),
    (PROJECTION, VariantType::Projection, true),
    (COLOR, VariantType::Color, false),
];

/// A fixed builtin's components as the file stores them: reals as `real_t` (f32, or f64
/// in a double build's file), a Color's as f32, ints as i32.
fn read_fixed(input: &mut Input<'_>, ty: VariantType, at: usize) -> Result<Variant> {
    let bad = || Error::corrupt(format!("{ty} has no components")).at_byte(at);
    let (kind, n) = ty.components().ok_or_else(bad)?;
    let mut parts = [Component::I32(0); 16];
    for part in parts.iter_mut().take(n) {
        *part = match kind {
            ComponentKind::Real => Component::F32(input.real()?),
            ComponentKind::F32 => Component::F32(input.f32()?),
            _ => Component::I32(input.i32()?),
        };
    }
    Variant::from_components(ty, &parts[..n]).ok_or_else(bad)
}

/// Writes a fixed builtin's id and components (see [`read_fixed`]).
fn write_fixed(out: &mut Output, v: &Variant, t: &WriteTables<'_>) -> Result<bool> {
    let Some(parts) = v.components() else {
        return Ok(false);
    };
    let ty = v.get_type();
    let (Some(&(id, _, godot4_only)), Some((kind, _))) =
        (FIXED.iter().find(|row| row.1 == ty), ty.components())
    else {
        return Err(unwritable(v, "has no binary resource encoding"));
    };
    if godot4_only && !t.godot4 {
        return Err(unwritable(v, "is not in Godot 3's binary resources"));
    }
    out.u32(id);
    for part in parts {
        match (kind, part) {
            (ComponentKind::Real, Component::F32(x)) => out.real(x),
            (ComponentKind::F32, Component::F32(x)) => out.f32(x),
            (_, Component::I32(x)) => out.u32(x as u32),
            (_, Component::F32(x)) => out.f32(x),
        }
    }
    Ok(true)
}

fn read_value(input: &mut Input<'_>, t: &Tables<'_>, depth: usize) -> Result<Variant> {
    let at = input.pos;
    let id = input.u32()?;
    if let Some(&(_, ty, godot4_only)) = FIXED.iter().find(|row| row.0 == id) {
        if godot4_only && !t.godot4 {
            return Err(Error::corrupt(format!("type {id} is not in a Godot 3 file")).at_byte(at));
        }
        return read_fixed(input, ty, at);
    }
    let g4 = |v: Variant| -> Result<Variant> {
        if t.godot4 {
            Ok(v)
        } else {
            Err(Error::corrupt(format!("type {id} is not in a Godot 3 file")).at_byte(at))
        }
    };
    Ok(match id {
        NIL => Variant::Nil,
        BOOL => Variant::Bool(input.u32()? != 0),
        INT => Variant::Int(i64::from(input.i32()?)),
        INT64 => {
            let i = input.i64()?;
            if i32::try_from(i).is_ok() {
                t.wide_ints.set(true);
            }
            Variant::Int(i)
        }
        FLOAT => Variant::Float(f64::from(input.real()?)),
        DOUBLE => Variant::Float(input.f64()?),
        STRING => Variant::String(input.string()?),
        STRING_NAME => g4(Variant::StringName(StringName(input.string()?)))?,
        NODE_PATH => read_node_path(input, t)?,
        RID => Variant::Rid(Rid(u64::from(input.u32()?))),
        OBJECT => read_object(input, t, at)?,
        CALLABLE => g4(Variant::Callable(Callable))?,
        SIGNAL => g4(Variant::Signal(Signal::default()))?,
        DICTIONARY => {
            let n = count(input, 8, "a Dictionary")?;
            let mut d = Dictionary::with_capacity(n.min(1024));
            for _ in 0..n {
                let k = read(input, t, depth + 1)?;
                let v = read(input, t, depth + 1)?;
                d.insert(k, v);
            }
            Variant::Dictionary(d)
        }
        ARRAY => {
            let n = count(input, 4, "an Array")?;
            let mut items = Vec::with_capacity(n.min(1024));
            for _ in 0..n {
                items.push(read(input, t, depth + 1)?);
            }
            Variant::Array(Array::from(items))
        }
        PACKED_BYTE | PACKED_INT32 | PACKED_INT64 | PACKED_FLOAT32 | PACKED_FLOAT64
        | PACKED_STRING | PACKED_VECTOR2 | PACKED_VECTOR3 | PACKED_VECTOR4 | PACKED_COLOR => {
            read_packed(input, id, &g4)?
        }
        other => return Err(Error::corrupt(format!("unknown value type {other}")).at_byte(at)),
    })
}

/// A NodePath: its names and subnames, each inline or an index into the string table.
fn read_node_path(input: &mut Input<'_>, t: &Tables<'_>) -> Result<Variant> {
    let names = usize::from(input.u16()?);
    let sub = input.u16()?;
    let absolute = sub & 0x8000 != 0;
    let subs = usize::from(sub & 0x7fff) + usize::from(t.nodepath_property);
    input.check_count(names + subs, 4, "a NodePath's names")?;
    let read_name = |input: &mut Input<'_>| -> Result<String> {
        let at = input.pos;
        let word = input.u32()?;
        if word & 0x8000_0000 != 0 {
            input.pos = at;
            return input.string();
        }
        t.strings.get(word as usize).cloned().ok_or_else(|| {
            Error::corrupt(format!(
                "NodePath name {word} past the string table's {} entries",
                t.strings.len()
            ))
            .at_byte(at)
        })
    };
    let mut n = Vec::with_capacity(names);
    for _ in 0..names {
        n.push(read_name(input)?);
    }
    let mut s = Vec::with_capacity(subs);
    for _ in 0..subs {
        s.push(read_name(input)?);
    }
    Ok(Variant::NodePath(NodePath {
        names: n,
        subnames: s,
        absolute,
    }))
}

/// An object slot: empty, an external or internal resource, or an external one by index.
fn read_object(input: &mut Input<'_>, t: &Tables<'_>, at: usize) -> Result<Variant> {
    Ok(match input.u32()? {
        OBJECT_EMPTY => Variant::ObjectId(ObjectId(0)),
        OBJECT_EXTERNAL_RESOURCE => {
            let type_name = input.string()?;
            let path = input.string()?;
            marker(
                PATH_CLASS,
                vec![
                    ("path", Variant::String(path)),
                    ("type", Variant::String(type_name)),
                ],
            )
        }
        OBJECT_INTERNAL_RESOURCE => {
            let index = input.u32()?;
            let id = if t.named_ids {
                t.internal_ids.get(index as usize).cloned().ok_or_else(|| {
                    Error::new(crate::error::ErrorKind::UnknownReference(format!(
                        "internal resource {index} past the table's {}",
                        t.internal_ids.len()
                    )))
                    .at_byte(at)
                })?
            } else {
                index.to_string()
            };
            marker(SUB_CLASS, vec![("id", Variant::String(id))])
        }
        OBJECT_EXTERNAL_RESOURCE_INDEX => {
            let index = input.u32()?;
            marker(
                EXT_CLASS,
                vec![("id", Variant::String((u64::from(index) + 1).to_string()))],
            )
        }
        kind => return Err(Error::corrupt(format!("an object of unknown kind {kind}")).at_byte(at)),
    })
}

/// A packed array of type `id` (`g4` refuses the Godot 4 ones in a Godot 3 file).
fn read_packed(
    input: &mut Input<'_>,
    id: u32,
    g4: &dyn Fn(Variant) -> Result<Variant>,
) -> Result<Variant> {
    Ok(match id {
        PACKED_BYTE => {
            let n = count(input, 1, "a PackedByteArray")?;
            let data = input.take(n)?.to_vec();
            input.take((4 - n % 4) % 4)?;
            Variant::PackedByteArray(PackedByteArray(data))
        }
        PACKED_INT32 => {
            let n = count(input, 4, "a PackedInt32Array")?;
            let v = (0..n).map(|_| input.i32()).collect::<Result<Vec<_>>>()?;
            Variant::PackedInt32Array(PackedInt32Array(v))
        }
        PACKED_INT64 => {
            let n = count(input, 8, "a PackedInt64Array")?;
            let v = (0..n).map(|_| input.i64()).collect::<Result<Vec<_>>>()?;
            g4(Variant::PackedInt64Array(PackedInt64Array(v)))?
        }
        PACKED_FLOAT32 => {
            let n = count(input, 4, "a PackedFloat32Array")?;
            let v = (0..n).map(|_| input.f32()).collect::<Result<Vec<_>>>()?;
            Variant::PackedFloat32Array(PackedFloat32Array(v))
        }
        PACKED_FLOAT64 => {
            let n = count(input, 8, "a PackedFloat64Array")?;
            let v = (0..n).map(|_| input.f64()).collect::<Result<Vec<_>>>()?;
            g4(Variant::PackedFloat64Array(PackedFloat64Array(v)))?
        }
        PACKED_STRING => {
            let n = count(input, 4, "a PackedStringArray")?;
            let v = (0..n).map(|_| input.string()).collect::<Result<Vec<_>>>()?;
            Variant::PackedStringArray(PackedStringArray(v))
        }
        PACKED_VECTOR2 => {
            let n = count(input, 8, "a PackedVector2Array")?;
            let v = (0..n)
                .map(|_| reals::<2>(input).map(|[x, y]| Vector2::new(x, y)))
                .collect::<Result<Vec<_>>>()?;
            Variant::PackedVector2Array(PackedVector2Array(v))
        }
        PACKED_VECTOR3 => {
            let n = count(input, 12, "a PackedVector3Array")?;
            let v = (0..n)
                .map(|_| reals::<3>(input).map(|c| v3(&c)))
                .collect::<Result<Vec<_>>>()?;
            Variant::PackedVector3Array(PackedVector3Array(v))
        }
        PACKED_VECTOR4 => {
            let n = count(input, 16, "a PackedVector4Array")?;
            let v = (0..n)
                .map(|_| reals::<4>(input).map(|c| v4(&c)))
                .collect::<Result<Vec<_>>>()?;
            g4(Variant::PackedVector4Array(PackedVector4Array(v)))?
        }
        PACKED_COLOR => {
            let n = count(input, 16, "a PackedColorArray")?;
            let v = (0..n)
                .map(|_| -> Result<Color> {
                    Ok(Color {
                        r: input.f32()?,
                        g: input.f32()?,
                        b: input.f32()?,
                        a: input.f32()?,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Variant::PackedColorArray(PackedColorArray(v))
        }
        other => return Err(Error::corrupt(format!("{other} is no packed array type"))),
    })
}

/// Where a value's references and names go when it is written.
pub(crate) struct WriteTables<'a> {
    pub(crate) strings: &'a mut Vec<String>,
    pub(crate) internal_ids: &'a [String],
    pub(crate) named_ids: bool,
    pub(crate) godot4: bool,
    /// Format 2: the last subname is written as the property (see [`Tables`]).
    pub(crate) nodepath_property: bool,
    /// Every int written as 64 bits, as the file was read ([`Tables::wide_ints`]).
    pub(crate) wide_ints: bool,
}

impl WriteTables<'_> {
    /// The string table index of `s`, added at the end when missing.
    pub(crate) fn index(&mut self, s: &str) -> u32 {
        match self.strings.iter().position(|x| x == s) {
            Some(i) => i as u32,
            None => {
                self.strings.push(s.into());
                (self.strings.len() - 1) as u32
            }
        }
    }
}

fn unwritable(v: &Variant, why: &str) -> Error {
    Error::unwritable(format!("{} {why}", v.get_type()))
}

/// Writes one value (see the module docs).
pub(crate) fn write(
    out: &mut Output,
    v: &Variant,
    t: &mut WriteTables<'_>,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::new(crate::error::ErrorKind::DepthExceeded(
            MAX_DEPTH,
        )));
    }
    if depth > 32 {
        return crate::depth::grow_stack(|| write_value(out, v, t, depth));
    }
    write_value(out, v, t, depth)
}

/// Refuses `v`, a type Godot 3's binary resources do not have, in a Godot 3 file.
fn need_godot4(v: &Variant, t: &WriteTables<'_>) -> Result<()> {
    if t.godot4 {
        Ok(())
    } else {
        Err(unwritable(v, "is not in Godot 3's binary resources"))
    }
}

fn write_value(out: &mut Output, v: &Variant, t: &mut WriteTables<'_>, depth: usize) -> Result<()> {
    if write_fixed(out, v, t)? {
        return Ok(());
    }
    match v {
        Variant::Nil => out.u32(NIL),
        Variant::Bool(b) => {
            out.u32(BOOL);
            out.u32(u32::from(*b));
        }
        Variant::Int(i) => match i32::try_from(*i) {
            Ok(small) if !t.wide_ints => {
                out.u32(INT);
                out.u32(small as u32);
            }
            _ => {
                out.u32(INT64);
                out.u64(*i as u64);
            }
        },
        Variant::Float(x) => {
            let narrow = *x as f32;
            // As the engine decides: a NaN (unequal to itself) is stored as a double.
            if f64::from(narrow) == *x {
                out.u32(FLOAT);
                out.real(narrow);
            } else {
                out.u32(DOUBLE);
                out.f64(*x);
            }
        }
        Variant::String(s) => {
            out.u32(STRING);
            out.string(s);
        }
        Variant::StringName(s) => {
            need_godot4(v, t)?;
            out.u32(STRING_NAME);
            out.string(&s.0);
        }
        Variant::NodePath(p) => write_node_path(out, v, p, t)?,
        Variant::Rid(r) => {
            out.u32(RID);
            out.u32(r.0 as u32);
        }
        Variant::ObjectId(_) => {
            // The engine writes a null object, or one that is not a resource, as empty.
            out.u32(OBJECT);
            out.u32(OBJECT_EMPTY);
        }
        Variant::Object(o) => {
            out.u32(OBJECT);
            write_object(out, o, t)?;
        }
        Variant::Callable(_) => {
            need_godot4(v, t)?;
            out.u32(CALLABLE);
        }
        Variant::Signal(_) => {
            need_godot4(v, t)?;
            out.u32(SIGNAL);
        }
        Variant::Dictionary(d) => {
            out.u32(DICTIONARY);
            out.u32(d.len() as u32);
            for (k, x) in d.iter() {
                write(out, k, t, depth + 1)?;
                write(out, x, t, depth + 1)?;
            }
        }
        Variant::Array(a) => {
            out.u32(ARRAY);
            out.u32(a.len() as u32);
            for x in a.iter() {
                write(out, x, t, depth + 1)?;
            }
        }
        other => {
            if !write_packed(out, other, t)? {
                return Err(unwritable(other, "has no binary resource encoding"));
            }
        }
    }
    Ok(())
}

/// A NodePath's counts and names, each an index into the string table (see
/// [`read_node_path`]).
fn write_node_path(
    out: &mut Output,
    v: &Variant,
    p: &NodePath,
    t: &mut WriteTables<'_>,
) -> Result<()> {
    out.u32(NODE_PATH);
    let (names, subs) = (p.names.len(), p.subnames.len());
    // Format 2 counts the subnames without the last, its property (empty if none).
    let counted = if t.nodepath_property {
        subs.saturating_sub(1)
    } else {
        subs
    };
    if names > 0xffff || counted > 0x7fff {
        return Err(unwritable(v, "has more names than its u16 counts hold"));
    }
    out.u16(names as u16);
    out.u16(counted as u16 | if p.absolute { 0x8000 } else { 0 });
    for name in p.names.iter().chain(&p.subnames) {
        let i = t.index(name);
        out.u32(i);
    }
    if t.nodepath_property && subs == 0 {
        let i = t.index("");
        out.u32(i);
    }
    Ok(())
}

/// A packed array's id, count and elements; `false` for a value that is no packed array.
fn write_packed(out: &mut Output, v: &Variant, t: &WriteTables<'_>) -> Result<bool> {
    match v {
        Variant::PackedByteArray(b) => {
            out.u32(PACKED_BYTE);
            out.u32(b.0.len() as u32);
            out.bytes.extend_from_slice(&b.0);
            out.bytes
                .extend(std::iter::repeat_n(0, (4 - b.0.len() % 4) % 4));
        }
        Variant::PackedInt32Array(a) => {
            out.u32(PACKED_INT32);
            out.u32(a.0.len() as u32);
            a.0.iter().for_each(|x| out.u32(*x as u32));
        }
        Variant::PackedInt64Array(a) => {
            need_godot4(v, t)?;
            out.u32(PACKED_INT64);
            out.u32(a.0.len() as u32);
            a.0.iter().for_each(|x| out.u64(*x as u64));
        }
        Variant::PackedFloat32Array(a) => {
            out.u32(PACKED_FLOAT32);
            out.u32(a.0.len() as u32);
            a.0.iter().for_each(|x| out.f32(*x));
        }
        Variant::PackedFloat64Array(a) => {
            need_godot4(v, t)?;
            out.u32(PACKED_FLOAT64);
            out.u32(a.0.len() as u32);
            a.0.iter().for_each(|x| out.f64(*x));
        }
        Variant::PackedStringArray(a) => {
            out.u32(PACKED_STRING);
            out.u32(a.0.len() as u32);
            a.0.iter().for_each(|s| out.string(s));
        }
        Variant::PackedVector2Array(a) => {
            out.u32(PACKED_VECTOR2);
            out.u32(a.0.len() as u32);
            for p in &a.0 {
                out.real(p.x);
                out.real(p.y);
            }
        }
        Variant::PackedVector3Array(a) => {
            out.u32(PACKED_VECTOR3);
            out.u32(a.0.len() as u32);
            for p in &a.0 {
                for x in [p.x, p.y, p.z] {
                    out.real(x);
                }
            }
        }
        Variant::PackedVector4Array(a) => {
            need_godot4(v, t)?;
            out.u32(PACKED_VECTOR4);
            out.u32(a.0.len() as u32);
            for p in &a.0 {
                for x in [p.x, p.y, p.z, p.w] {
                    out.real(x);
                }
            }
        }
        Variant::PackedColorArray(a) => {
            out.u32(PACKED_COLOR);
            out.u32(a.0.len() as u32);
            for c in &a.0 {
                for x in [c.r, c.g, c.b, c.a] {
                    out.f32(x);
                }
            }
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn write_object(out: &mut Output, o: &Object, t: &mut WriteTables<'_>) -> Result<()> {
    let text = |k: &str| -> Option<String> {
        o.properties
            .iter()
            .find(|(n, _)| n == k)
            .and_then(|(_, v)| match v {
                Variant::String(s) => Some(s.clone()),
                Variant::Int(i) => Some(i.to_string()),
                _ => None,
            })
    };
    match o.class_name.as_str() {
        EXT_CLASS => {
            let id = text("id").unwrap_or_default();
            let index = id.parse::<u64>().ok().filter(|&i| i >= 1).ok_or_else(|| {
                Error::unwritable(format!(
                    "ExtResource({id:?}): a binary file names external resources by number (1, 2, ...)"
                ))
            })?;
            out.u32(OBJECT_EXTERNAL_RESOURCE_INDEX);
            out.u32((index - 1) as u32);
        }
        SUB_CLASS => {
            let id = text("id").unwrap_or_default();
            let index = if t.named_ids {
                t.internal_ids
                    .iter()
                    .position(|x| *x == id)
                    .map(|i| i as u32)
            } else {
                id.parse::<u32>().ok()
            }
            .ok_or_else(|| {
                Error::new(crate::error::ErrorKind::UnknownReference(format!(
                    "SubResource({id:?}): no internal resource has that id"
                )))
            })?;
            out.u32(OBJECT_INTERNAL_RESOURCE);
            out.u32(index);
        }
        PATH_CLASS => {
            out.u32(OBJECT_EXTERNAL_RESOURCE);
            out.string(&text("type").unwrap_or_else(|| "Resource".into()));
            out.string(&text("path").unwrap_or_default());
        }
        // An object that is not a resource: the engine stores it as empty.
        _ => out.u32(OBJECT_EMPTY),
    }
    Ok(())
}
