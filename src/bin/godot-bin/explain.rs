//! `godot-bin explain`: an annotated hex dump, written as a walker of its own over the
//! bytes (so that it can show a packet the decoder refuses, up to the failing field).
//! It uses only the crate's public dialect table (`Dialect::type_id`).

use godot_bin::{Dialect, VariantType as T};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Where and why the walk stopped.
pub struct ExplainError {
    /// Byte offset in the input.
    pub offset: usize,
    /// What was wrong.
    pub message: String,
}

impl From<io::Error> for ExplainError {
    fn from(e: io::Error) -> Self {
        ExplainError {
            offset: 0,
            message: e.to_string(),
        }
    }
}

type Result<T> = std::result::Result<T, ExplainError>;

/// Explains the packet at the start of `bytes` (which start at `base` in the file) and
/// returns how many bytes it used.
pub fn packet(bytes: &[u8], base: usize, dialect: Dialect, out: &mut impl Write) -> Result<usize> {
    let mut w = Walker {
        bytes,
        pos: 0,
        base,
        dialect,
        out,
        indent: 0,
    };
    w.value("", 0)?;
    Ok(w.pos)
}

struct Walker<'a, W: Write> {
    bytes: &'a [u8],
    pos: usize,
    base: usize,
    dialect: Dialect,
    out: &'a mut W,
    indent: usize,
}

/// How a component is stored.
#[derive(Clone, Copy)]
enum Num {
    F32,
    F64,
    I32,
}

impl<W: Write> Walker<'_, W> {
    fn fail<X>(&self, at: usize, message: impl Into<String>) -> Result<X> {
        Err(ExplainError {
            offset: self.base + at,
            message: message.into(),
        })
    }

    /// Checks that `n` bytes are left for `what`.
    fn need(&self, n: usize, what: &str) -> Result<()> {
        let left = self.bytes.len() - self.pos;
        if n > left {
            return self.fail(
                self.pos,
                format!("{what} needs {n} bytes, only {left} left"),
            );
        }
        Ok(())
    }

    /// Prints the `n` bytes at the cursor with `note`, eight per line, and moves past them.
    fn field(&mut self, n: usize, note: &str) -> Result<()> {
        let end = (self.pos + n).min(self.bytes.len());
        let chunk = &self.bytes[self.pos..end];
        let pad = "  ".repeat(self.indent);
        if chunk.is_empty() {
            writeln!(
                self.out,
                "{:06x}  {:<24} {pad}{note}",
                self.base + self.pos,
                ""
            )?;
        }
        for (i, row) in chunk.chunks(8).enumerate() {
            let mut hex = String::with_capacity(24);
            for b in row {
                let _ = write!(hex, "{b:02x} ");
            }
            let at = self.base + self.pos + i * 8;
            if i == 0 {
                writeln!(self.out, "{at:06x}  {hex:<24} {pad}{note}")?;
            } else {
                writeln!(self.out, "{at:06x}  {}", hex.trim_end())?;
            }
        }
        self.pos = end;
        Ok(())
    }

    fn peek_u32(&self, what: &str) -> Result<u32> {
        self.need(4, what)?;
        let b = &self.bytes[self.pos..self.pos + 4];
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u32_field(&mut self, what: &str) -> Result<u32> {
        let v = self.peek_u32(what)?;
        self.field(4, &format!("{what} = {v}"))?;
        Ok(v)
    }

    fn u64_field(&mut self, what: &str) -> Result<u64> {
        self.need(8, what)?;
        let b = &self.bytes[self.pos..self.pos + 8];
        let v = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        self.field(8, &format!("{what} = {v}"))?;
        Ok(v)
    }

    /// One number stored as `kind`, printed as `label = value`.
    fn num(&mut self, kind: Num, label: &str) -> Result<()> {
        let n = match kind {
            Num::F64 => 8,
            _ => 4,
        };
        self.need(n, label)?;
        let b = &self.bytes[self.pos..self.pos + n];
        let text = match kind {
            Num::F32 => format!("{:?}", f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Num::I32 => format!("{}", i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Num::F64 => format!(
                "{:?}",
                f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            ),
        };
        self.field(n, &format!("{label} = {text}"))
    }

    fn nums(&mut self, kind: Num, labels: &[&str]) -> Result<()> {
        for l in labels {
            self.num(kind, l)?;
        }
        Ok(())
    }

    /// A pascal string: u32 length, UTF-8, pad to 4 (which must be present).
    fn string(&mut self, what: &str) -> Result<String> {
        let start = self.pos;
        let len = self.peek_u32(&format!("{what} length"))?;
        if len > i32::MAX as u32 {
            return self.fail(start, format!("{what} length {len} is negative as an i32"));
        }
        self.field(4, &format!("{what} length = {len}"))?;
        let len = len as usize;
        let pad = (4 - len % 4) % 4;
        self.need(len + pad, &format!("{what} ({len} bytes + {pad} padding)"))?;
        let raw = &self.bytes[self.pos..self.pos + len];
        let text = match std::str::from_utf8(raw) {
            Ok(s) => s.to_owned(),
            Err(e) => {
                return self.fail(
                    self.pos + e.valid_up_to(),
                    format!("{what} is not valid UTF-8"),
                )
            }
        };
        // The engine stops at the first NUL (PackedStringArray elements end with one).
        let (body, nul) = match text.find('\0') {
            Some(i) => (
                &text[..i],
                format!(
                    " + NUL{}",
                    if i + 1 < text.len() {
                        " and ignored bytes"
                    } else {
                        ""
                    }
                ),
            ),
            None => (text.as_str(), String::new()),
        };
        let shown = if body.chars().count() > 60 {
            format!("{:?}...", body.chars().take(60).collect::<String>())
        } else {
            format!("{body:?}")
        };
        let note = if pad > 0 {
            format!("{what} {shown}{nul} (+{pad} padding)")
        } else {
            format!("{what} {shown}{nul}")
        };
        self.field(len + pad, &note)?;
        Ok(text)
    }

    /// One value: header, then payload.
    fn value(&mut self, label: &str, depth: usize) -> Result<()> {
        let max_depth = self.dialect.max_depth();
        if depth > max_depth {
            return self.fail(self.pos, format!("nesting deeper than {max_depth} levels"));
        }
        let start = self.pos;
        let header = self.peek_u32(&format!("{label}header"))?;
        let godot2 = self.dialect == Dialect::Godot2;
        let id = if godot2 { header } else { header & 0xff };
        let Some(ty) = self.dialect.type_of(id) else {
            return self.fail(start, format!("unknown type id {id} for {}", self.dialect));
        };
        let flags = header >> 16;
        let g4 = self.dialect == Dialect::Godot4;
        let bit16 = flags & 1 != 0;
        // Which header bits this type uses, and what they say.
        let mut said = Vec::new();
        let mut used = 0u32;
        let wide = match ty {
            T::Int | T::Float if !godot2 => {
                used |= 1;
                bit16
            }
            t if g4 && t.has_real_components() => {
                used |= 1;
                bit16
            }
            _ => false,
        };
        if wide {
            said.push(
                if matches!(ty, T::Int | T::Float) {
                    "64-bit"
                } else {
                    "64-bit reals"
                }
                .to_owned(),
            );
        }
        let as_id = ty == T::Object && !godot2 && bit16;
        if ty == T::Object && !godot2 {
            used |= 1;
            said.push(if bit16 { "instance id" } else { "full object" }.to_owned());
        }
        let mut array_kind = 0;
        let mut key_kind = 0;
        let mut value_kind = 0;
        if g4 && ty == T::Array {
            used |= 3;
            array_kind = flags & 3;
            if array_kind != 0 {
                said.push(format!("typed: {}", kind_name(array_kind)));
            }
        }
        if g4 && ty == T::Dictionary {
            used |= 0xf;
            key_kind = flags & 3;
            value_kind = (flags >> 2) & 3;
            if key_kind != 0 || value_kind != 0 {
                said.push(format!(
                    "typed keys: {}, values: {}",
                    kind_name(key_kind),
                    kind_name(value_kind)
                ));
            }
        }
        if matches!(ty, T::TypedArray | T::PackedTypedArray) {
            used |= 1;
        }
        let unused = if godot2 {
            0
        } else {
            (header >> 8) & !(used << 8) & 0x00ff_ffff
        };
        if unused != 0 {
            said.push(format!("unused bits 0x{:06x} ignored", unused << 8));
        }
        let no_payload = match ty {
            T::Callable => true,
            T::Rid => !g4,
            T::Object => godot2,
            _ => false,
        };
        if no_payload {
            said.push("no payload".to_owned());
        }
        let flags_note = if said.is_empty() {
            String::new()
        } else {
            format!(", {}", said.join(", "))
        };
        self.field(
            4,
            &format!("{label}{} header: type id {id}{flags_note}", ty.name()),
        )?;

        self.indent += 1;
        let real = if wide { Num::F64 } else { Num::F32 };
        let xy = ["x", "y"];
        let xyz = ["x", "y", "z"];
        let xyzw = ["x", "y", "z", "w"];
        match ty {
            T::Nil | T::Callable => {}
            T::Bool => {
                let v = self.peek_u32("bool")?;
                self.field(4, &format!("bool = {}", v != 0))?;
            }
            T::Int if wide => {
                self.need(8, "int64")?;
                let b = &self.bytes[self.pos..self.pos + 8];
                let v = i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
                self.field(8, &format!("int64 = {v}"))?;
            }
            T::Int => self.num(Num::I32, "int32")?,
            T::Float => self.num(real, if wide { "float64" } else { "float32" })?,
            T::String | T::StringName => {
                self.string("string")?;
            }
            T::Vector2 => self.nums(real, &xy)?,
            T::Vector2i => self.nums(Num::I32, &xy)?,
            T::Vector3 => self.nums(real, &xyz)?,
            T::Vector3i => self.nums(Num::I32, &xyz)?,
            T::Vector4 | T::Quaternion => self.nums(real, &xyzw)?,
            T::Vector4i => self.nums(Num::I32, &xyzw)?,
            T::Rect2 => self.nums(real, &["position.x", "position.y", "size.x", "size.y"])?,
            T::Rect2i => self.nums(Num::I32, &["position.x", "position.y", "size.x", "size.y"])?,
            T::Plane => self.nums(real, &["normal.x", "normal.y", "normal.z", "d"])?,
            T::Aabb => self.nums(
                real,
                &[
                    "position.x",
                    "position.y",
                    "position.z",
                    "size.x",
                    "size.y",
                    "size.z",
                ],
            )?,
            T::Transform2D => {
                self.nums(real, &["x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"])?
            }
            T::Basis | T::Transform3D => {
                for r in 0..3 {
                    for c in ["x", "y", "z"] {
                        self.num(real, &format!("basis.rows[{r}].{c}"))?;
                    }
                }
                if ty == T::Transform3D {
                    self.nums(real, &["origin.x", "origin.y", "origin.z"])?;
                }
            }
            T::Projection => {
                for col in 0..4 {
                    for c in xyzw {
                        self.num(real, &format!("columns[{col}].{c}"))?;
                    }
                }
            }
            T::Color => self.nums(Num::F32, &["r", "g", "b", "a"])?,
            T::NodePath => self.node_path()?,
            T::Rid => {
                if g4 {
                    self.u64_field("id")?;
                }
            }
            T::Object => {
                if as_id {
                    self.u64_field("instance id")?;
                } else if !godot2 {
                    let class = self.string("class name")?;
                    if !class.is_empty() {
                        let count = self.peek_u32("property count")? as i32;
                        self.field(4, &format!("property count = {count}"))?;
                        for _ in 0..count.max(0) {
                            let name = self.string("property name")?;
                            self.value(&format!("{name}: "), depth + 1)?;
                        }
                    }
                }
            }
            T::Signal => {
                self.string("signal name")?;
                self.u64_field("object id")?;
            }
            T::Dictionary => {
                self.container_type(key_kind, "key type")?;
                self.container_type(value_kind, "value type")?;
                let count = self.count("entry count")?;
                for i in 0..count {
                    self.value(&format!("[{i}] key: "), depth + 1)?;
                    self.value(&format!("[{i}] value: "), depth + 1)?;
                }
            }
            T::Array => {
                self.container_type(array_kind, "element type")?;
                let count = self.count("element count")?;
                for i in 0..count {
                    self.value(&format!("[{i}] "), depth + 1)?;
                }
            }
            T::TypedArray | T::PackedTypedArray => {
                let et = self.peek_u32("element type")?;
                let et_name = self.dialect.type_of(et).map_or("unknown", |t| t.name());
                self.field(4, &format!("element type = {et} ({et_name})"))?;
                if self.dialect.type_of(et) == Some(T::Object) && !bit16 {
                    self.value("class name: ", depth + 1)?;
                }
                let count = self.count("element count")?;
                for i in 0..count {
                    self.value(&format!("[{i}] "), depth + 1)?;
                }
            }
            T::PackedByteArray => {
                let count = self.peek_u32("byte count")?;
                self.field(4, &format!("byte count = {count}"))?;
                let count = count as usize;
                self.need(count, "bytes")?;
                // The engine does not require the padding after a byte array.
                let pad = ((4 - count % 4) % 4).min(self.bytes.len() - self.pos - count);
                self.field(count + pad, &format!("{count} bytes (+{pad} padding)"))?;
            }
            T::PackedInt32Array
            | T::PackedVector2iArray
            | T::PackedVector3iArray
            | T::PackedVector4iArray => {
                let comps: &[&str] = match ty {
                    T::PackedVector2iArray => &xy,
                    T::PackedVector3iArray => &xyz,
                    T::PackedVector4iArray => &xyzw,
                    _ => &[""],
                };
                self.packed(Num::I32, comps)?;
            }
            T::PackedInt64Array => {
                let count = self.count_checked("element count", 8)?;
                for i in 0..count {
                    self.need(8, "int64")?;
                    let b = &self.bytes[self.pos..self.pos + 8];
                    let v = i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
                    self.field(8, &format!("[{i}] = {v}"))?;
                }
            }
            T::PackedFloat32Array => self.packed(Num::F32, &[""])?,
            T::PackedFloat64Array => self.packed(Num::F64, &[""])?,
            T::PackedVector2Array => self.packed(real, &xy)?,
            T::PackedVector3Array => self.packed(real, &xyz)?,
            T::PackedVector4Array => self.packed(real, &xyzw)?,
            T::PackedColorArray => self.packed(Num::F32, &["r", "g", "b", "a"])?,
            T::PackedStringArray => {
                let count = self.count("element count")?;
                for i in 0..count {
                    self.string(&format!("[{i}]"))?;
                }
            }
            T::Image => {
                self.u32_field("format")?;
                self.u32_field("mipmaps")?;
                self.u32_field("width")?;
                self.u32_field("height")?;
                let len = self.u32_field("data length")? as usize;
                self.need(len, "image data")?;
                let pad = ((4 - len % 4) % 4).min(self.bytes.len() - self.pos - len);
                self.field(
                    len + pad,
                    &format!("{len} bytes of image data (+{pad} padding)"),
                )?;
            }
            T::InputEvent => {
                let kind = self.u32_field("event type")?;
                self.u32_field("device")?;
                let llen = self.u32_field("payload length")?;
                match kind {
                    1 => {
                        self.u32_field("modifier mask")?;
                        self.u32_field("scancode")?;
                    }
                    3 | 5 => {
                        self.u32_field("button index")?;
                    }
                    6 => {
                        self.u32_field("touch index")?;
                    }
                    4 => {
                        self.u32_field("axis")?;
                        if llen >= 20 {
                            self.num(Num::F32, "axis value")?;
                        }
                    }
                    _ => {}
                }
            }
            other => {
                return self.fail(
                    start,
                    format!("explain does not know the layout of {}", other.name()),
                );
            }
        }
        self.indent -= 1;
        Ok(())
    }

    /// A container's count word: bit 31 is Godot 2's "shared" flag (masked off since).
    fn count(&mut self, what: &str) -> Result<u32> {
        let raw = self.peek_u32(what)?;
        let count = raw & 0x7fff_ffff;
        let shared = if raw & 0x8000_0000 != 0 {
            " (bit 31: shared)"
        } else {
            ""
        };
        self.field(4, &format!("{what} = {count}{shared}"))?;
        Ok(count)
    }

    /// A packed array's count, checked against the bytes left for `size`-byte elements.
    fn count_checked(&mut self, what: &str, size: usize) -> Result<usize> {
        let start = self.pos;
        let count = self.peek_u32(what)?;
        if count > i32::MAX as u32 {
            return self.fail(start, format!("{what} {count} is negative as an i32"));
        }
        self.field(4, &format!("{what} = {count}"))?;
        let count = count as usize;
        let left = self.bytes.len() - self.pos;
        if count.saturating_mul(size) > left {
            return self.fail(
                start,
                format!("{count} elements of {size} bytes do not fit in the {left} bytes left"),
            );
        }
        Ok(count)
    }

    fn packed(&mut self, kind: Num, comps: &[&str]) -> Result<()> {
        let size = match kind {
            Num::F64 => 8,
            _ => 4,
        } * comps.len();
        let count = self.count_checked("element count", size)?;
        for i in 0..count {
            for c in comps {
                let label = if c.is_empty() {
                    format!("[{i}]")
                } else {
                    format!("[{i}].{c}")
                };
                self.num(kind, &label)?;
            }
        }
        Ok(())
    }

    /// Godot 4 typed-container data: kind 1 a builtin type id, 2 a class name, 3 a script.
    fn container_type(&mut self, kind: u32, what: &str) -> Result<()> {
        match kind {
            1 => {
                let id = self.peek_u32(what)?;
                let name = self.dialect.type_of(id).map_or("unknown", |t| t.name());
                self.field(4, &format!("{what} = {id} ({name})"))?;
            }
            2 => {
                self.string(&format!("{what} class"))?;
            }
            3 => {
                self.string(&format!("{what} script"))?;
            }
            _ => {}
        }
        Ok(())
    }

    fn node_path(&mut self) -> Result<()> {
        let first = self.peek_u32("name count")?;
        if first & 0x8000_0000 == 0 {
            if self.dialect == Dialect::Godot2 {
                // The pre-2.1 form: one plain path string.
                self.string("path")?;
                return Ok(());
            }
            return self.fail(
                self.pos,
                "old-format NodePath (bit 31 of the first word clear), refused since Godot 3",
            );
        }
        let names = first & 0x7fff_ffff;
        self.field(4, &format!("name count = {names} (bit 31: new format)"))?;
        let subnames = self.u32_field("subname count")?;
        let flags = self.peek_u32("flags")?;
        let mut said = Vec::new();
        if flags & 1 != 0 {
            said.push("absolute");
        }
        if flags & 2 != 0 {
            said.push("property string follows");
        }
        self.field(4, format!("flags = {flags} {}", said.join(", ")).trim_end())?;
        for i in 0..names {
            self.string(&format!("name[{i}]"))?;
        }
        for i in 0..subnames {
            self.string(&format!("subname[{i}]"))?;
        }
        if flags & 2 != 0 {
            self.string("property")?;
        }
        Ok(())
    }
}

fn kind_name(kind: u32) -> &'static str {
    match kind {
        0 => "none",
        1 => "builtin",
        2 => "class name",
        _ => "script",
    }
}
