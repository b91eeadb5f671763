//! The packed arrays (`Pool*Array` in Godot 3 and Pandemonium, `*Array` in Godot 2).
//!
//! Payload: a u32 element count, then the elements back to back.
//! - Bytes (PackedByteArray): the bytes, then zero padding to a multiple of 4, which the
//!   engine's decoder does not require to be present.
//! - Numbers and vectors: each element's components as in [`super::math`]: i32, i64, f32,
//!   f64, or 2–4 components. Vector components are reals: 8 bytes each, and header bit 16,
//!   in a Godot 4 double-precision build. Colors are always f32.
//! - Strings (PackedStringArray): each a text whose length counts a NUL written after it
//!   ([`super::text`]).
//!
//! The count is read as an i32: negative is refused, and so is a byte size past `i32::MAX`
//! (the engine checks the multiplication) — except for strings, whose count the engine
//! does not check: a negative one reads as an empty array.

use super::header::{self, Header, FLAG_64};
use super::math::{read_wide, write_wide};
use super::reader::{pad_len, Reader};
use super::trace::Value;
use super::writer::Put;
use super::{text, Ctx};
use crate::dialect::VariantType;
use crate::error::Result;
use crate::types::leaves::{Component, ComponentKind};
use crate::types::math::{Color, Vector2, Vector2i, Vector3, Vector3i, Vector4, Vector4i};

/// What a packed array's elements are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ElemKind {
    /// PackedByteArray.
    Byte,
    /// PackedStringArray.
    Str,
    /// `n` components of a kind ([`ComponentKind`]): ints, f32s, vectors, colors.
    Leaves(ComponentKind, usize),
    /// PackedInt64Array.
    I64,
    /// PackedFloat64Array.
    F64,
}

impl ElemKind {
    /// Bytes per element (strings: the least one takes).
    pub fn size(self, wide: bool) -> usize {
        match self {
            ElemKind::Byte => 1,
            ElemKind::Str => 4,
            ElemKind::Leaves(kind, n) => n * super::math::leaf_size(kind, wide),
            ElemKind::I64 | ElemKind::F64 => 8,
        }
    }
}

/// The element kind of a packed array type, or `None` if `ty` is not one.
pub(crate) fn elem_kind(ty: VariantType) -> Option<ElemKind> {
    use ComponentKind::*;
    use VariantType as T;
    Some(match ty {
        T::PackedByteArray => ElemKind::Byte,
        T::PackedStringArray => ElemKind::Str,
        T::PackedInt32Array => ElemKind::Leaves(I32, 1),
        T::PackedInt64Array => ElemKind::I64,
        T::PackedFloat32Array => ElemKind::Leaves(F32, 1),
        T::PackedFloat64Array => ElemKind::F64,
        T::PackedVector2Array => ElemKind::Leaves(Real, 2),
        T::PackedVector3Array => ElemKind::Leaves(Real, 3),
        T::PackedVector4Array => ElemKind::Leaves(Real, 4),
        T::PackedColorArray => ElemKind::Leaves(F32, 4),
        T::PackedVector2iArray => ElemKind::Leaves(I32, 2),
        T::PackedVector3iArray => ElemKind::Leaves(I32, 3),
        T::PackedVector4iArray => ElemKind::Leaves(I32, 4),
        _ => return None,
    })
}

/// The elements of a packed array of numbers or vectors, borrowed from the input after
/// their count was checked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Elems<'de> {
    pub kind: ElemKind,
    pub count: usize,
    /// Reals are 8 bytes.
    pub wide: bool,
    pub bytes: &'de [u8],
}

/// Reads the count and borrows the elements of a packed array of numbers or vectors
/// (`h` its header: bit 16 widens reals).
pub(crate) fn read_elems<'de>(
    r: &mut Reader<'de>,
    ctx: &Ctx,
    h: &Header,
    kind: ElemKind,
) -> Result<Elems<'de>> {
    let wide = read_wide(ctx, h);
    let size = kind.size(wide);
    let at = r.pos();
    let count = r.packed_count(size)?;
    r.note(at, "count", || Value::Count(count, false));
    let at = r.pos();
    let bytes = r.bytes(count * size)?;
    let elems = Elems {
        kind,
        count,
        wide,
        bytes,
    };
    if r.trace.is_some() {
        trace_elements(r, at, &elems);
    }
    Ok(elems)
}

/// Records each element of `elems`, which start at `at`, in the trace.
#[cold]
fn trace_elements(r: &mut Reader<'_>, at: usize, elems: &Elems<'_>) {
    let size = elems.kind.size(elems.wide);
    let Some(trace) = r.trace.as_mut() else {
        return;
    };
    for (i, chunk) in elems.bytes.chunks_exact(size).enumerate() {
        let mut e = Reader::new(chunk, usize::MAX);
        let parts: Vec<Value> = match elems.kind {
            ElemKind::I64 => vec![Value::Int(e.i64().unwrap_or_default())],
            ElemKind::F64 => vec![Value::Float(e.f64().unwrap_or_default(), true)],
            ElemKind::Leaves(kind, n) => (0..n)
                .filter_map(|_| super::math::read_leaf(&mut e, kind, elems.wide, "").ok())
                .map(|leaf| match leaf {
                    Component::F32(v) => Value::Float(v.into(), elems.wide),
                    Component::I32(v) => Value::Int(v.into()),
                })
                .collect(),
            ElemKind::Byte | ElemKind::Str => return,
        };
        let start = at + i * size;
        trace.field(start, start + size, "element", Value::Components(parts));
    }
}

/// A PackedByteArray's bytes. The padding after them need not be present.
pub(crate) fn read_bytes<'de>(r: &mut Reader<'de>) -> Result<&'de [u8]> {
    let at = r.pos();
    let count = r.packed_count(1)?;
    r.note(at, "count", || Value::Count(count, false));
    let at = r.pos();
    let bytes = r.bytes(count)?;
    r.skip_optional(pad_len(count));
    r.note(at, "bytes", || Value::Bytes(count));
    Ok(bytes)
}

/// A PackedStringArray's strings. A negative count reads as empty, as in the engine.
pub(crate) fn read_strings<'de>(r: &mut Reader<'de>) -> Result<Vec<&'de str>> {
    let at = r.pos();
    let count = usize::try_from(r.i32()?).unwrap_or(0);
    let needed = count.saturating_mul(4);
    if needed > r.rest().len() {
        return Err(r.length_error(count as i64, at, needed));
    }
    r.note(at, "count", || Value::Count(count, false));
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        out.push(text::read(r)?);
    }
    Ok(out)
}

/// Writes the header and count of a packed array of `len` elements of `ty` and returns
/// whether its reals are wide.
fn write_head(out: &mut Vec<u8>, ctx: &Ctx, ty: VariantType, len: usize) -> Result<bool> {
    let wide = write_wide(ctx, ty);
    let count = i32::try_from(len).map_err(|_| {
        crate::error::ErrorKind::Unsupported(format!(
            "a packed array of {len} elements (the engine's count is an i32)"
        ))
    })?;
    out.put_u32(header::word(ctx, ty, if wide { FLAG_64 } else { 0 })?);
    out.put_u32(count as u32);
    Ok(wide)
}

/// A whole PackedByteArray packet.
pub(crate) fn write_bytes(out: &mut Vec<u8>, ctx: &Ctx, bytes: &[u8]) -> Result<()> {
    write_head(out, ctx, VariantType::PackedByteArray, bytes.len())?;
    out.extend_from_slice(bytes);
    out.put_zeros(pad_len(bytes.len()));
    Ok(())
}

/// A whole PackedStringArray packet.
pub(crate) fn write_strings<'a>(
    out: &mut Vec<u8>,
    ctx: &Ctx,
    strings: impl ExactSizeIterator<Item = &'a str>,
) -> Result<()> {
    write_head(out, ctx, VariantType::PackedStringArray, strings.len())?;
    for s in strings {
        text::write_packed_element(out, s)?;
    }
    Ok(())
}

/// A whole packet of a packed array of numbers or vectors, written in bulk.
pub(crate) fn write_elems<T: Elem>(out: &mut Vec<u8>, ctx: &Ctx, elems: &[T]) -> Result<()> {
    let wide = write_head(out, ctx, T::TYPE, elems.len())? && T::REAL;
    put_elems(out, elems, wide);
    Ok(())
}

/// Appends `elems` (no header, no count), sizing the buffer once.
pub(crate) fn put_elems<T: Elem>(out: &mut Vec<u8>, elems: &[T], wide: bool) {
    if let (false, Some(bytes)) = (wide, as_bytes(elems)) {
        out.extend_from_slice(bytes);
        return;
    }
    let size = if wide { 2 * T::SIZE } else { T::SIZE };
    let start = out.len();
    out.resize(start + elems.len() * size, 0);
    let dest = &mut out[start..];
    if wide {
        for (chunk, e) in dest.chunks_exact_mut(size).zip(elems) {
            e.put_wide(chunk);
        }
    } else {
        for (chunk, e) in dest.chunks_exact_mut(size).zip(elems) {
            e.put(chunk);
        }
    }
}

/// Converts borrowed elements into values (`T` must match `elems.kind`).
pub(crate) fn to_vec<T: Elem>(elems: &Elems<'_>) -> Vec<T> {
    if elems.wide && T::REAL {
        elems
            .bytes
            .chunks_exact(2 * T::SIZE)
            .map(T::get_wide)
            .collect()
    } else {
        from_bytes(elems.bytes)
    }
}

/// Elements from their single-precision bytes (a multiple of `T::SIZE`; any tail is
/// ignored).
pub(crate) fn from_bytes<T: Elem>(bytes: &[u8]) -> Vec<T> {
    if LITTLE_ENDIAN {
        // One copy when the input is aligned for `T` (a packet's payload starts 4-aligned
        // in the packet, so it is whenever the input buffer is).
        let whole = bytes.len() - bytes.len() % T::SIZE;
        if let Ok(elems) = bytemuck::try_cast_slice::<u8, T>(&bytes[..whole]) {
            return elems.to_vec();
        }
    }
    bytes.chunks_exact(T::SIZE).map(T::get).collect()
}

/// The single-precision bytes of `elems`, borrowed when memory already holds them so
/// (a little-endian target).
pub(crate) fn as_bytes<T: Elem>(elems: &[T]) -> Option<&[u8]> {
    LITTLE_ENDIAN.then(|| bytemuck::cast_slice(elems))
}

/// Whether memory holds numbers little-endian, as packets do: then a slice of elements is
/// its packet bytes.
const LITTLE_ENDIAN: bool = cfg!(target_endian = "little");

/// An element of a packed array of numbers or vectors: fixed-size little-endian
/// components (in memory too, on a little-endian target: `Pod`, `SIZE` bytes).
pub(crate) trait Elem: bytemuck::Pod {
    /// The packed array type holding elements of this type.
    const TYPE: VariantType;
    /// Bytes per element in a single-precision packet.
    const SIZE: usize;
    /// Whether the components are `real_t`, written as f64 by double-precision engines.
    const REAL: bool;
    /// Writes the element into `out` (exactly [`Elem::SIZE`] bytes).
    fn put(&self, out: &mut [u8]);
    /// Writes the element with f64 components into `out` (exactly 2 × [`Elem::SIZE`]
    /// bytes). Only called when [`Elem::REAL`].
    fn put_wide(&self, out: &mut [u8]);
    /// Reads an element from `b` (exactly [`Elem::SIZE`] bytes).
    fn get(b: &[u8]) -> Self;
    /// Reads an element with f64 components from `b` (exactly 2 × [`Elem::SIZE`] bytes).
    fn get_wide(b: &[u8]) -> Self;
}

macro_rules! scalar_elem {
    ($($t:ty: $ty:ident, $size:literal),*) => {$(
        impl Elem for $t {
            const TYPE: VariantType = VariantType::$ty;
            const SIZE: usize = $size;
            const REAL: bool = false;
            #[inline(always)]
            fn put(&self, out: &mut [u8]) {
                out[..$size].copy_from_slice(&self.to_le_bytes());
            }
            #[inline(always)]
            fn put_wide(&self, out: &mut [u8]) {
                self.put(out)
            }
            #[inline(always)]
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b[..$size].try_into().unwrap())
            }
            #[inline(always)]
            fn get_wide(b: &[u8]) -> Self {
                Self::get(b)
            }
        }
    )*};
}
scalar_elem!(
    i32: PackedInt32Array, 4,
    i64: PackedInt64Array, 8,
    f32: PackedFloat32Array, 4,
    f64: PackedFloat64Array, 8
);

macro_rules! vector_elem {
    ($($t:ident($c:ty, $ty:ident, real: $real:literal) { $($f:ident: $i:literal),* }),*) => {$(
        impl Elem for $t {
            const TYPE: VariantType = VariantType::$ty;
            const SIZE: usize = 4 * [$($i),*].len();
            const REAL: bool = $real;
            #[inline(always)]
            fn put(&self, out: &mut [u8]) {
                $(out[4 * $i..4 * $i + 4].copy_from_slice(&self.$f.to_le_bytes());)*
            }
            #[inline(always)]
            fn put_wide(&self, out: &mut [u8]) {
                $(out[8 * $i..8 * $i + 8].copy_from_slice(&f64::from(self.$f).to_le_bytes());)*
            }
            #[inline(always)]
            fn get(b: &[u8]) -> Self {
                $t { $($f: <$c>::from_le_bytes(b[4 * $i..4 * $i + 4].try_into().unwrap())),* }
            }
            #[inline(always)]
            fn get_wide(b: &[u8]) -> Self {
                // Only the real vectors are written wide; their reals narrow to f32.
                $t { $($f: f64::from_le_bytes(b[8 * $i..8 * $i + 8].try_into().unwrap()) as $c),* }
            }
        }
    )*};
}
vector_elem!(
    Vector2(f32, PackedVector2Array, real: true) { x: 0, y: 1 },
    Vector3(f32, PackedVector3Array, real: true) { x: 0, y: 1, z: 2 },
    Vector4(f32, PackedVector4Array, real: true) { x: 0, y: 1, z: 2, w: 3 },
    Color(f32, PackedColorArray, real: false) { r: 0, g: 1, b: 2, a: 3 },
    Vector2i(i32, PackedVector2iArray, real: false) { x: 0, y: 1 },
    Vector3i(i32, PackedVector3iArray, real: false) { x: 0, y: 1, z: 2 },
    Vector4i(i32, PackedVector4iArray, real: false) { x: 0, y: 1, z: 2, w: 3 }
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each element type's size is its packed array's element size, wide and narrow.
    #[test]
    fn element_sizes_match_the_element_kinds() {
        fn check<T: Elem>() {
            let kind = elem_kind(T::TYPE).unwrap();
            assert_eq!(T::SIZE, kind.size(false), "{}", T::TYPE);
            let wide = if T::REAL { 2 * T::SIZE } else { T::SIZE };
            assert_eq!(wide, kind.size(true), "{}", T::TYPE);
        }
        check::<i32>();
        check::<i64>();
        check::<f32>();
        check::<f64>();
        check::<Vector2>();
        check::<Vector3>();
        check::<Vector4>();
        check::<Color>();
        check::<Vector2i>();
        check::<Vector3i>();
        check::<Vector4i>();
    }

    /// The bulk conversion gives the same elements whether or not the input is aligned
    /// for them (it copies aligned input in one go, and reads unaligned input element by
    /// element), and ignores a tail shorter than an element.
    #[test]
    fn bulk_conversion_ignores_alignment() {
        let v: Vec<Vector3> = (0..50)
            .map(|i| Vector3::new(i as f32, -0.5 * i as f32, 1e-3 * i as f32))
            .collect();
        let mut reference = Vec::new();
        for e in &v {
            let mut b = [0u8; 12];
            e.put(&mut b);
            reference.extend_from_slice(&b);
        }
        let mut out = Vec::new();
        put_elems(&mut out, &v, false);
        assert_eq!(out, reference);
        for offset in 0..8 {
            let mut buf = vec![0xAAu8; offset];
            buf.extend_from_slice(&reference);
            buf.extend_from_slice(&[1, 2, 3]);
            assert_eq!(from_bytes::<Vector3>(&buf[offset..]), v, "offset {offset}");
            let ints: Vec<i32> = from_bytes(&buf[offset..offset + 10]);
            let word = |at: usize| i32::from_le_bytes(reference[at..at + 4].try_into().unwrap());
            assert_eq!(ints, [word(0), word(4)], "offset {offset}");
        }
    }

    #[test]
    fn put_and_get_are_little_endian() {
        let v = Vector3::new(1.0, -2.5, 3.25);
        let mut b = [0u8; 12];
        v.put(&mut b);
        assert_eq!(&b[4..8], &(-2.5f32).to_le_bytes());
        assert_eq!(Vector3::get(&b), v);
        let mut w = [0u8; 24];
        v.put_wide(&mut w);
        assert_eq!(&w[16..24], &3.25f64.to_le_bytes());
        assert_eq!(Vector3::get_wide(&w), v);
        let mut i = [0u8; 8];
        (-3i64).put(&mut i);
        assert_eq!(i64::get(&i), -3);
        assert_eq!(i, (-3i64).to_le_bytes());
    }
}
