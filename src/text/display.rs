//! Writing a [`Variant`] in an engine's text form (`VariantWriter::write`).

use super::hooks::Formatter;
use crate::dialect::{Dialect, VariantType};
use crate::types::godot2::{Image, InputEvent};
use crate::types::math::*;
use crate::variant::{ElementType, Variant};
use std::fmt::{self, Write};

/// Writes `v` in `dialect`'s text form, with `fmt`'s choices.
pub(super) fn write_variant<W: Write, F: Formatter + ?Sized>(
    out: &mut W,
    v: &Variant,
    dialect: Dialect,
    fmt: &mut F,
) -> fmt::Result {
    Writer {
        out,
        style: Style::of(dialect),
        fmt,
    }
    .run(v)
}

/// A piece of pending output. Containers are written with an explicit stack of these
/// rather than by recursion, so any depth prints without overflowing the call stack.
enum Task<'v> {
    Static(&'static str),
    /// Text that goes between double quotes: `\` and `"` escaped.
    Quoted(&'v str),
    Value(&'v Variant),
}

/// The few layout facts that differ between the engines' writers.
#[derive(Clone, Copy)]
struct Style {
    /// The dialect asked for (its type table orders Dictionary keys).
    dialect: Dialect,
    /// Whose text layout: the three Pandemonium tables share one.
    family: Dialect,
    /// Godot 4: `Vector2(1, 2)`, `[1, 2]`; the others: `Vector2( 1, 2 )`, `[ 1, 2 ]`.
    godot4: bool,
    /// What `-inf` and a NaN with its sign bit set print as.
    specials: Specials,
    /// Whether a FLOAT whose text is `-inf` or `-nan` gets the `.0` of other whole
    /// FLOATs (`-inf.0`): Godot 3's writer appends it to everything but `inf` and `nan`.
    signed_special_suffix: bool,
    /// Whether a FLOAT prints through the engine's 32-bit `real_t` (Godot 3, Godot 2 and
    /// Pandemonium: `rtosfix(real_t)`), so that a double beyond the `f32` range prints as
    /// the infinity it becomes there. (The crate keeps the double's digits otherwise.)
    float_through_real: bool,
    /// Whether C escapes include `\?` (the Godot 3 family).
    escape_question: bool,
    /// Whether typed arrays print as `Array[T]([...])` (Godot 4, Pandemonium 5).
    typed_arrays: bool,
}

impl Style {
    fn of(dialect: Dialect) -> Style {
        let godot4 = dialect == Dialect::Godot4;
        let family = match dialect {
            Dialect::Pandemonium37 | Dialect::Pandemonium5 => Dialect::Pandemonium,
            d => d,
        };
        Style {
            dialect,
            family,
            godot4,
            specials: match family {
                Dialect::Godot3 | Dialect::Godot2 => Specials::GODOT3,
                _ => Specials::GODOT4,
            },
            signed_special_suffix: matches!(family, Dialect::Godot3 | Dialect::Godot2),
            float_through_real: !godot4,
            escape_question: !godot4,
            typed_arrays: godot4 || dialect == Dialect::Pandemonium5,
        }
    }
}

/// One number in a constructor's argument list.
#[derive(Clone, Copy)]
enum Num {
    /// A `real_t` or color component.
    F32(f32),
    /// A double (PackedFloat64Array elements).
    F64(f64),
    /// An integer component.
    Int(i64),
}

struct Writer<'a, W: Write, F: Formatter + ?Sized> {
    out: &'a mut W,
    style: Style,
    fmt: &'a mut F,
}

impl<W: Write, F: Formatter + ?Sized> Writer<'_, W, F> {
    fn s(&mut self, s: &str) -> fmt::Result {
        self.out.write_str(s)
    }

    /// `Name(` or `Name( `.
    fn open(&mut self, name: &str, spaced: bool) -> fmt::Result {
        self.s(name)?;
        self.s(if spaced { "( " } else { "(" })
    }

    fn close(&mut self, spaced: bool) -> fmt::Result {
        self.s(if spaced { " )" } else { ")" })
    }

    /// `Name(n, n, ...)` in the dialect's spacing.
    fn ctor(&mut self, ty: VariantType, nums: &[Num]) -> fmt::Result {
        // Pandemonium writes its Projection without the inner spaces.
        let unspaced_projection =
            self.style.family == Dialect::Pandemonium && ty == VariantType::Projection;
        let spaced = !(self.style.godot4 || unspaced_projection);
        self.open(type_name(ty, self.style.family), spaced)?;
        self.num_list(nums)?;
        self.close(spaced)
    }

    fn num_list(&mut self, nums: &[Num]) -> fmt::Result {
        for (i, n) in nums.iter().enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            match *n {
                Num::F32(x) => {
                    let shortest = fmt_f32(x, self.style.specials);
                    self.fmt.f32(self.out, x, &shortest)?
                }
                Num::F64(x) => {
                    let shortest = fmt_f64(x, self.style.specials);
                    self.fmt.f64(self.out, x, &shortest, false)?
                }
                Num::Int(x) => write!(self.out, "{x}")?,
            }
        }
        Ok(())
    }

    /// A packed array: `Name(elements)` with elements written by `each`.
    fn packed<T>(
        &mut self,
        ty: VariantType,
        items: &[T],
        mut each: impl FnMut(&mut Self, &T) -> fmt::Result,
    ) -> fmt::Result {
        let spaced = !self.style.godot4;
        self.open(type_name(ty, self.style.family), spaced)?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.s(", ")?;
            }
            each(self, item)?;
        }
        self.close(spaced)
    }

    /// Writes `root`, containers through an explicit stack.
    fn run(&mut self, root: &Variant) -> fmt::Result {
        let mut stack = vec![Task::Value(root)];
        while let Some(task) = stack.pop() {
            match task {
                Task::Static(s) => self.s(s)?,
                Task::Quoted(s) => escape_multiline(self.out, s)?,
                Task::Value(v) => self.open_value(v, &mut stack)?,
            }
        }
        Ok(())
    }

    /// Writes a leaf whole, or a container's opening and pushes the rest of it.
    fn open_value<'v>(&mut self, v: &'v Variant, stack: &mut Vec<Task<'v>>) -> fmt::Result {
        match v {
            Variant::Array(_) | Variant::PackedTypedArray(_) => {
                let (a, name, typed) = match v {
                    Variant::PackedTypedArray(a) => (a, "PackedTypedArray[", true),
                    Variant::Array(a) => (
                        a,
                        "Array[",
                        self.style.typed_arrays && !a.element_type.is_untyped(),
                    ),
                    _ => return Ok(()),
                };
                if typed {
                    self.s(name)?;
                    self.element_type(&a.element_type, "Variant")?;
                    self.s("](")?;
                    stack.push(Task::Static(")"));
                }
                let spaced = !self.style.godot4;
                self.s(if spaced { "[ " } else { "[" })?;
                stack.push(Task::Static(if spaced { " ]" } else { "]" }));
                for (i, item) in a.items.iter().enumerate().rev() {
                    stack.push(Task::Value(item));
                    if i > 0 {
                        stack.push(Task::Static(", "));
                    }
                }
            }
            Variant::Dictionary(d) => {
                let typed = self.style.godot4 && d.is_typed();
                if typed {
                    self.s("Dictionary[")?;
                    self.element_type(d.key_type(), "Variant")?;
                    self.s(", ")?;
                    self.element_type(d.value_type(), "Variant")?;
                    self.s("](")?;
                    stack.push(Task::Static(")"));
                }
                if d.is_empty() {
                    return self.s(match self.style.family {
                        Dialect::Godot4 => "{}",
                        Dialect::Pandemonium => "{\n}",
                        _ => "{\n\n}",
                    });
                }
                self.s("{\n")?;
                stack.push(Task::Static("\n}"));
                let entries: Vec<(&Variant, &Variant)> = d.iter().collect();
                let keys: Vec<&Variant> = entries.iter().map(|e| e.0).collect();
                let order = super::order::key_order(&keys, self.style.dialect);
                for (n, &i) in order.iter().enumerate().rev() {
                    let (key, value) = entries[i];
                    stack.push(Task::Value(value));
                    stack.push(Task::Static(": "));
                    stack.push(Task::Value(key));
                    if n > 0 {
                        stack.push(Task::Static(",\n"));
                    }
                }
            }
            Variant::Object(o) => {
                if o.class_name.is_empty() {
                    return self.s("null");
                }
                if self.fmt.object(self.out, o)? {
                    return Ok(());
                }
                self.s("Object(")?;
                self.s(&o.class_name)?;
                self.s(",")?;
                stack.push(Task::Static(")\n"));
                for (i, (name, value)) in o.properties.iter().enumerate().rev() {
                    stack.push(Task::Value(value));
                    stack.push(Task::Static("\":"));
                    // The engine writes the name raw; escaped, a name holding `"` or `\`
                    // reads back (identifiers, the engine's names, print the same).
                    stack.push(Task::Quoted(name));
                    stack.push(Task::Static("\""));
                    if i > 0 {
                        stack.push(Task::Static(","));
                    }
                }
            }
            Variant::ObjectId(id) => {
                if id.0 == 0 {
                    self.s("null")?;
                } else {
                    // The engine prints the id as a signed 64-bit int.
                    writeln!(
                        self.out,
                        "Object(EncodedObjectAsID,\"object_id\":{},\"script\":null)",
                        id.0 as i64
                    )?;
                }
            }
            leaf => self.value(leaf)?,
        }
        Ok(())
    }

    /// Writes a value that holds no other value.
    fn value(&mut self, v: &Variant) -> fmt::Result {
        use Num::{F32, F64};
        use VariantType as T;
        match v {
            Variant::Nil => self.s("null"),
            Variant::Bool(b) => self.s(if *b { "true" } else { "false" }),
            Variant::Int(i) => write!(self.out, "{i}"),
            Variant::Float(value) => {
                // A double beyond the f32 range is an infinity as a `real_t`.
                let x = match *value as f32 {
                    real if self.style.float_through_real && real.is_infinite() => f64::from(real),
                    _ => *value,
                };
                let mut s = fmt_f64(x, self.style.specials);
                let suffix = if x.is_finite() {
                    !s.contains(['.', 'e'])
                } else {
                    self.style.signed_special_suffix && s.starts_with('-')
                };
                if suffix {
                    s.push_str(".0");
                }
                // The hook gets the value itself: a file's printer may write its digits.
                self.fmt.f64(self.out, *value, &s, true)
            }
            Variant::String(s) => {
                self.s("\"")?;
                escape_multiline(self.out, s)?;
                self.s("\"")
            }
            Variant::Vector2(v) => self.ctor(T::Vector2, &[F32(v.x), F32(v.y)]),
            Variant::Vector2i(v) => self.ctor(T::Vector2i, &ints([v.x, v.y])),
            Variant::Rect2(r) => {
                let (p, s) = (r.position, r.size);
                self.ctor(T::Rect2, &reals([p.x, p.y, s.x, s.y]))
            }
            Variant::Rect2i(r) => {
                let (p, s) = (r.position, r.size);
                self.ctor(T::Rect2i, &ints([p.x, p.y, s.x, s.y]))
            }
            Variant::Vector3(v) => self.ctor(T::Vector3, &v3(v)),
            Variant::Vector3i(v) => self.ctor(T::Vector3i, &ints([v.x, v.y, v.z])),
            Variant::Transform2D(t) => {
                let (x, y, o) = (t.x, t.y, t.origin);
                self.ctor(T::Transform2D, &reals([x.x, x.y, y.x, y.y, o.x, o.y]))
            }
            Variant::Vector4(v) => self.ctor(T::Vector4, &v4(v)),
            Variant::Vector4i(v) => self.ctor(T::Vector4i, &ints([v.x, v.y, v.z, v.w])),
            Variant::Plane(p) => self.ctor(
                T::Plane,
                &[F32(p.normal.x), F32(p.normal.y), F32(p.normal.z), F32(p.d)],
            ),
            Variant::Quaternion(q) => {
                self.ctor(T::Quaternion, &[F32(q.x), F32(q.y), F32(q.z), F32(q.w)])
            }
            Variant::Aabb(b) => {
                let [a, b2, c] = v3(&b.position);
                let [d, e, f] = v3(&b.size);
                self.ctor(T::Aabb, &[a, b2, c, d, e, f])
            }
            Variant::Basis(b) => self.ctor(T::Basis, &basis(b)),
            Variant::Transform3D(t) => {
                let mut n = basis(&t.basis).to_vec();
                n.extend(v3(&t.origin));
                self.ctor(T::Transform3D, &n)
            }
            Variant::Projection(p) => {
                let n: Vec<Num> = p.columns.iter().flat_map(v4).collect();
                self.ctor(T::Projection, &n)
            }
            Variant::Color(c) => self.ctor(T::Color, &[F32(c.r), F32(c.g), F32(c.b), F32(c.a)]),
            Variant::StringName(s) => {
                self.s(if self.style.family == Dialect::Pandemonium {
                    "@\""
                } else {
                    "&\""
                })?;
                c_escape(self.out, s, self.style.escape_question)?;
                self.s("\"")
            }
            Variant::NodePath(p) => {
                self.s("NodePath(\"")?;
                c_escape(self.out, &p.to_string(), self.style.escape_question)?;
                self.s("\")")
            }
            Variant::Rid(r) => {
                if !self.style.godot4 {
                    // Godot 3 and Pandemonium have no text for an RID: var2str prints nothing.
                    Ok(())
                } else if r.0 == 0 {
                    self.s("RID()")
                } else {
                    // The engine prints the id as a signed 64-bit int.
                    write!(self.out, "RID({})", r.0 as i64)
                }
            }
            Variant::Callable(_) => self.s("Callable()"),
            Variant::Signal(_) => self.s("Signal()"),
            Variant::Image(img) => self.image(img),
            Variant::InputEvent(ev) => self.input_event(ev),
            // Written by open_value, which never passes them here.
            Variant::Dictionary(_)
            | Variant::Array(_)
            | Variant::PackedTypedArray(_)
            | Variant::Object(_)
            | Variant::ObjectId(_) => {
                debug_assert!(false, "containers are written by open_value");
                Ok(())
            }
            Variant::PackedByteArray(a) => {
                if self.fmt.packed_bytes(self.out, a)? {
                    return Ok(());
                }
                self.packed(T::PackedByteArray, a, |w, b| write!(w.out, "{b}"))
            }
            Variant::PackedInt32Array(a) => {
                self.packed(T::PackedInt32Array, a, |w, i| write!(w.out, "{i}"))
            }
            Variant::PackedInt64Array(a) => {
                self.packed(T::PackedInt64Array, a, |w, i| write!(w.out, "{i}"))
            }
            Variant::PackedFloat32Array(a) => {
                self.packed(T::PackedFloat32Array, a, |w, x| w.num_list(&[F32(*x)]))
            }
            Variant::PackedFloat64Array(a) => {
                self.packed(T::PackedFloat64Array, a, |w, x| w.num_list(&[F64(*x)]))
            }
            Variant::PackedStringArray(a) => self.packed(T::PackedStringArray, a, |w, s| {
                w.s("\"")?;
                c_escape(w.out, s, w.style.escape_question)?;
                w.s("\"")
            }),
            Variant::PackedVector2Array(a) => self.packed(T::PackedVector2Array, a, |w, v| {
                w.num_list(&[F32(v.x), F32(v.y)])
            }),
            Variant::PackedVector3Array(a) => {
                self.packed(T::PackedVector3Array, a, |w, v| w.num_list(&v3(v)))
            }
            Variant::PackedColorArray(a) => self.packed(T::PackedColorArray, a, |w, c| {
                w.num_list(&[F32(c.r), F32(c.g), F32(c.b), F32(c.a)])
            }),
            Variant::PackedVector4Array(a) => {
                self.packed(T::PackedVector4Array, a, |w, v| w.num_list(&v4(v)))
            }
            Variant::PackedVector2iArray(a) => self.packed(T::PackedVector2iArray, a, |w, v| {
                w.num_list(&ints([v.x, v.y]))
            }),
            Variant::PackedVector3iArray(a) => self.packed(T::PackedVector3iArray, a, |w, v| {
                w.num_list(&ints([v.x, v.y, v.z]))
            }),
            Variant::PackedVector4iArray(a) => self.packed(T::PackedVector4iArray, a, |w, v| {
                w.num_list(&ints([v.x, v.y, v.z, v.w]))
            }),
        }
    }

    /// Godot 2's `Image( width, height, mipmaps, FORMAT, bytes... )`, or `Image()`.
    fn image(&mut self, img: &Image) -> fmt::Result {
        let spaced = !self.style.godot4;
        if *img == Image::default() {
            return self.s("Image()");
        }
        self.open("Image", spaced)?;
        write!(self.out, "{}, {}, {}, ", img.width, img.height, img.mipmaps)?;
        match IMAGE_FORMATS.get(img.format as usize) {
            Some(name) => self.s(name)?,
            None => write!(self.out, "{}", img.format)?,
        }
        for b in &img.data {
            write!(self.out, ", {b}")?;
        }
        self.close(spaced)
    }

    /// Godot 2's `InputEvent(KEY,scancode,mods)`, `InputEvent(MBUTTON,n)`,
    /// `InputEvent(JBUTTON,n)`, `InputEvent(JAXIS,axis,value)`, `InputEvent(NONE)`; other
    /// events (and the device) have no text, as in the engine: `InputEvent()`.
    fn input_event(&mut self, ev: &InputEvent) -> fmt::Result {
        let word = |i: usize| ev.extra.get(i).copied().unwrap_or(0);
        self.s("InputEvent(")?;
        match ev.event_type {
            0 => self.s("NONE")?,
            1 => {
                write!(self.out, "KEY,{}", word(1))?;
                let mask = word(0);
                let mods: String = [
                    (1 << 26, 'A'),
                    (1 << 25, 'S'),
                    (1 << 28, 'C'),
                    (1 << 27, 'M'),
                ]
                .iter()
                .filter(|(bit, _)| mask & bit != 0)
                .map(|(_, c)| *c)
                .collect();
                if !mods.is_empty() {
                    write!(self.out, ",{mods}")?;
                }
            }
            3 => write!(self.out, "MBUTTON,{}", word(0))?,
            5 => write!(self.out, "JBUTTON,{}", word(0))?,
            4 => {
                let value = f32::from_bits(word(1));
                write!(
                    self.out,
                    "JAXIS,{},{}",
                    word(0),
                    fmt_f32(value, self.style.specials)
                )?;
            }
            _ => {}
        }
        self.s(")")
    }

    /// The type inside `Array[...]` / `Dictionary[..., ...]`.
    fn element_type(&mut self, t: &ElementType, untyped: &str) -> fmt::Result {
        match t {
            ElementType::Untyped => self.s(untyped),
            ElementType::Builtin(ty) => self.s(ty.name()),
            ElementType::ClassName(c) => self.s(c),
            ElementType::Script(path) => {
                if self.fmt.script_type(self.out, path)? {
                    return Ok(());
                }
                self.s("Resource(\"")?;
                escape_multiline(self.out, path)?;
                self.s("\")")
            }
        }
    }
}

/// `real_t` components as constructor arguments.
fn reals<const N: usize>(v: [f32; N]) -> [Num; N] {
    v.map(Num::F32)
}

/// Integer components as constructor arguments.
fn ints<const N: usize>(v: [i32; N]) -> [Num; N] {
    v.map(|x| Num::Int(x.into()))
}

fn v3(v: &Vector3) -> [Num; 3] {
    [Num::F32(v.x), Num::F32(v.y), Num::F32(v.z)]
}

fn v4(v: &Vector4) -> [Num; 4] {
    [Num::F32(v.x), Num::F32(v.y), Num::F32(v.z), Num::F32(v.w)]
}

fn basis(b: &Basis) -> [Num; 9] {
    let [r0, r1, r2] = &b.rows;
    let [a, b1, c] = v3(r0);
    let [d, e, f] = v3(r1);
    let [g, h, i] = v3(r2);
    [a, b1, c, d, e, f, g, h, i]
}

/// Godot 2's `Image::Format` names, by value.
pub(super) const IMAGE_FORMATS: [&str; 23] = [
    "GRAYSCALE",
    "INTENSITY",
    "GRAYSCALE_ALPHA",
    "RGB",
    "RGBA",
    "INDEXED",
    "INDEXED_ALPHA",
    "YUV_422",
    "YUV_444",
    "BC1",
    "BC2",
    "BC3",
    "BC4",
    "BC5",
    "PVRTC2",
    "PVRTC2_ALPHA",
    "PVRTC4",
    "PVRTC4_ALPHA",
    "ETC",
    "ATC",
    "ATC_ALPHA_EXPLICIT",
    "ATC_ALPHA_INTERPOLATED",
    "CUSTOM",
];

/// The type's name in `dialect`'s text.
pub(super) fn type_name(ty: VariantType, dialect: Dialect) -> &'static str {
    ty.name_in(dialect)
}

/// `String::c_escape_multiline`: only `\` and `"` are escaped.
fn escape_multiline<W: Write>(out: &mut W, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            '\\' => out.write_str("\\\\")?,
            '"' => out.write_str("\\\"")?,
            c => out.write_char(c)?,
        }
    }
    Ok(())
}

/// `String::c_escape` (Godot 3's also escapes `?`).
fn c_escape<W: Write>(out: &mut W, s: &str, question: bool) -> fmt::Result {
    for c in s.chars() {
        match c {
            '\\' => out.write_str("\\\\")?,
            '\u{7}' => out.write_str("\\a")?,
            '\u{8}' => out.write_str("\\b")?,
            '\u{c}' => out.write_str("\\f")?,
            '\n' => out.write_str("\\n")?,
            '\r' => out.write_str("\\r")?,
            '\t' => out.write_str("\\t")?,
            '\u{b}' => out.write_str("\\v")?,
            '\'' => out.write_str("\\'")?,
            '?' if question => out.write_str("\\?")?,
            '"' => out.write_str("\\\"")?,
            c => out.write_char(c)?,
        }
    }
    Ok(())
}

/// The shortest text that reads back (through `f64` parsing, as the engine reads it, then
/// narrowing to `f32`) to exactly `x`, laid out as C's `%g` would.
/// How an engine spells the floats that have no digits, where engines differ.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Specials {
    /// Negative infinity.
    neg_inf: &'static str,
    /// A NaN whose sign bit is set.
    neg_nan: &'static str,
}

impl Specials {
    /// Godot 4 and Pandemonium: `inf_neg`, and `nan` whatever the sign (Godot 4.4.1's
    /// `var_to_str` of a NaN with its sign bit set prints `nan`).
    pub(crate) const GODOT4: Specials = Specials {
        neg_inf: "inf_neg",
        neg_nan: "nan",
    };
    /// Godot 3 (and Godot 2, which prints numbers the same way): C's `-inf`, and `-nan`
    /// for a NaN with its sign bit set, as Godot 3.2.3's `var2str` prints them.
    pub(crate) const GODOT3: Specials = Specials {
        neg_inf: "-inf",
        neg_nan: "-nan",
    };
}

pub(crate) fn fmt_f32(x: f32, specials: Specials) -> String {
    if let Some(s) = special(f64::from(x), specials) {
        return s;
    }
    let s = g_layout(&format!("{:e}", x));
    // The f32 digits read back through f64 in every case we know of; should a double
    // rounding ever differ, the f64 digits of the same value are always exact.
    match s.parse::<f64>() {
        Ok(back) if (back as f32).to_bits() == x.to_bits() => s,
        _ => g_layout(&format!("{:e}", f64::from(x))),
    }
}

/// The shortest text that reads back to exactly `x`, laid out as C's `%g` would.
pub(crate) fn fmt_f64(x: f64, specials: Specials) -> String {
    special(x, specials).unwrap_or_else(|| g_layout(&format!("{:e}", x)))
}

fn special(x: f64, specials: Specials) -> Option<String> {
    if x.is_nan() {
        Some(if x.is_sign_negative() {
            specials.neg_nan.into()
        } else {
            "nan".into()
        })
    } else if x.is_infinite() {
        Some(if x > 0.0 {
            "inf".into()
        } else {
            specials.neg_inf.into()
        })
    } else if x == 0.0 {
        Some(if x.is_sign_negative() { "-0" } else { "0" }.into())
    } else {
        None
    }
}

/// Turns Rust's shortest `{:e}` text (`-1.2345e3`) into `%g` layout: plain notation when
/// the exponent is in `-4..max(6, digits)`, else `d.ddde+XX` with at least two exponent
/// digits.
fn g_layout(e_form: &str) -> String {
    let (negative, body) = match e_form.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, e_form),
    };
    let (mantissa, exp) = body.split_once('e').unwrap_or((body, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let n = digits.len() as i32;
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    if exp < -4 || exp >= n.max(6) {
        out.push_str(&digits[..1]);
        if n > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", exp.unsigned_abs());
    } else if exp >= 0 {
        let int_len = (exp + 1) as usize;
        if digits.len() <= int_len {
            out.push_str(&digits);
            out.extend(std::iter::repeat_n('0', int_len - digits.len()));
        } else {
            out.push_str(&digits[..int_len]);
            out.push('.');
            out.push_str(&digits[int_len..]);
        }
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-exp - 1) as usize));
        out.push_str(&digits);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_layout_matches_printf_g_for_six_digit_values() {
        for (x, want) in [
            (1.0, "1"),
            (0.5, "0.5"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (1e-5, "1e-05"),
            (0.0001, "0.0001"),
            (1.5e-7, "1.5e-07"),
            (1e300, "1e+300"),
            (-2.5, "-2.5"),
            (123456.0, "123456"),
        ] {
            assert_eq!(fmt_f64(x, Specials::GODOT4), want, "{x}");
        }
        // More digits than %g's 6: plain notation up to the digit count.
        assert_eq!(fmt_f64(1234567.5, Specials::GODOT3), "1234567.5");
        assert_eq!(fmt_f64(0.1 + 0.2, Specials::GODOT3), "0.30000000000000004");
        assert_eq!(fmt_f32(0.1, Specials::GODOT3), "0.1");
        assert_eq!(fmt_f32(f32::MAX, Specials::GODOT3), "3.4028235e+38");
        assert_eq!(fmt_f32(f32::NEG_INFINITY, Specials::GODOT4), "inf_neg");
        assert_eq!(fmt_f32(-f32::NAN, Specials::GODOT4), "nan");
        assert_eq!(fmt_f32(-f32::NAN, Specials::GODOT3), "-nan");
        assert_eq!(fmt_f64(f64::NAN, Specials::GODOT3), "nan");
        assert_eq!(fmt_f32(-0.0, Specials::GODOT3), "-0");
    }

    #[test]
    fn f32_text_reads_back_through_f64() {
        // Every 65537th positive finite f32, subnormals included (about 32 000 values).
        for bits in (1u32..0x7f80_0000).step_by(65537) {
            let x = f32::from_bits(bits);
            let s = fmt_f32(x, Specials::GODOT3);
            let back = s.parse::<f64>().unwrap() as f32;
            assert_eq!(back.to_bits(), x.to_bits(), "{s}");
        }
    }
}
