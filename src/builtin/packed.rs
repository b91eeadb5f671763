//! Packed arrays across serde, and their bulk path.
//!
//! A packed array serializes as the newtype of its private name wrapping the newtype
//! [`NAME`] wrapping its elements. Any other serde format sees through both newtypes to a
//! plain sequence. godot_bin's serializer recognises [`NAME`], calls [`request`] and
//! serializes the elements again; [`Raw`] sees the request and, instead of one serde call
//! per component, sends the payload as little-endian bytes (a `u64` byte count to reserve,
//! then `serde_bytes` blocks) through a sequence: on a little-endian target, the elements'
//! own memory as one block; else, or with f64 reals, blocks of up to [`BLOCK`]
//! bytes. The request is only a shortcut: where serde replays a buffered value, the
//! request is not seen and the elements come one by one, which godot_bin writes to the
//! same bytes.
//!
//! Decoding asks the deserializer for the newtype [`NAME`] inside the packed array's own
//! newtype. godot_bin's deserializer answers with the whole payload as borrowed bytes when
//! every element has its single-precision width (not in a double-precision packet, whose
//! reals are 8 bytes: those come element by element); any other format answers with a
//! sequence.

use super::impls::{newtype_builtin, newtype_serialize};
use super::{Kind, NewtypeVisitor};
use crate::packet::packed::Elem;
use crate::types::packed::*;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{self, Serialize, SerializeSeq, Serializer};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

/// The private newtype name of a packed array's elements.
pub(crate) const NAME: &str = "$godot_bin::PackedElements";

/// The largest block of bytes [`Raw`] sends at once (a stack buffer).
pub(crate) const BLOCK: usize = 8192;

thread_local! {
    /// Set by [`request`] for the one [`Raw::serialize`] call it wraps: `Some(wide)`,
    /// where `wide` means reals are written as f64. Taken by that call.
    static REQUEST: Cell<Option<bool>> = const { Cell::new(None) };
}

/// Runs `f`, which serializes one [`NAME`] newtype's content for godot_bin, with the
/// bulk request set; the request is cleared afterwards whatever `f` did (even if it
/// panicked), so no other serializer can ever see it.
pub(crate) fn request<R>(wide: bool, f: impl FnOnce() -> R) -> R {
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            REQUEST.with(|r| r.set(None));
        }
    }
    let _clear = Clear;
    REQUEST.with(|r| r.set(Some(wide)));
    f()
}

/// A packed array's elements: the newtype [`NAME`] around [`Raw`].
pub(crate) struct Elems<'a, T>(pub &'a [T]);

impl<T: Elem + Serialize> Serialize for Elems<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(NAME, &Raw(self.0))
    }
}

/// The elements themselves: blocks of bytes when godot_bin asked for them with
/// [`request`], else a plain sequence.
pub(crate) struct Raw<'a, T>(&'a [T]);

impl<T: Elem + Serialize> Serialize for Raw<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let Some(wide) = REQUEST.with(|r| r.take()) else {
            return s.collect_seq(self.0);
        };
        if i32::try_from(self.0.len()).is_err() {
            return Err(ser::Error::custom(format_args!(
                "a packed array of {} elements (the engine's count is an i32)",
                self.0.len()
            )));
        }
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        if wide && T::REAL {
            let size = 2 * T::SIZE;
            // Cannot overflow: the elements already fill `len * size / 2` bytes.
            seq.serialize_element(&((self.0.len() * size) as u64))?;
            blocks(&mut seq, self.0, size, T::put_wide)?;
        } else {
            seq.serialize_element(&((self.0.len() * T::SIZE) as u64))?;
            match crate::packet::packed::as_bytes(self.0) {
                // Memory already holds the payload: one block, no copy here.
                Some(bytes) => seq.serialize_element(serde_bytes::Bytes::new(bytes))?,
                None => blocks(&mut seq, self.0, T::SIZE, T::put)?,
            }
        }
        seq.end()
    }
}

/// Encodes `elems` block by block into a stack buffer and sends each block as bytes.
#[inline(always)]
fn blocks<T, A: SerializeSeq>(
    seq: &mut A,
    elems: &[T],
    size: usize,
    put: impl Fn(&T, &mut [u8]),
) -> Result<(), A::Error> {
    let mut buf = [0u8; BLOCK];
    for chunk in elems.chunks(BLOCK / size) {
        let bytes = &mut buf[..chunk.len() * size];
        for (out, e) in bytes.chunks_exact_mut(size).zip(chunk) {
            put(e, out);
        }
        seq.serialize_element(serde_bytes::Bytes::new(bytes))?;
    }
    Ok(())
}

/// Decodes a packed array's newtype: asks for [`NAME`] inside it.
pub(crate) struct PackedVisitor<T> {
    kind: Kind,
    elem: PhantomData<T>,
}

impl<T> PackedVisitor<T> {
    pub fn new(kind: Kind) -> Self {
        PackedVisitor {
            kind,
            elem: PhantomData,
        }
    }
}

impl<'de, T: Elem + de::Deserialize<'de>> Visitor<'de> for PackedVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {}", self.kind.ty())
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_newtype_struct(NAME, ElemsVisitor(self))
    }

    /// The elements directly (a format that does not mark newtypes).
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Vec<T>, A::Error> {
        ElemsVisitor(self).visit_seq(seq)
    }

    /// The one-entry map of serde's buffering (see [`crate::builtin`]).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        match map.next_key::<String>()? {
            Some(key) if key == self.kind.name() => {
                let kind = self.kind;
                let elems =
                    map.next_value_seed(crate::builtin::Unwrap::new(kind, ElemsSeed(self)))?;
                match map.next_key::<de::IgnoredAny>()? {
                    None => Ok(elems),
                    Some(_) => Err(de::Error::custom(
                        "a builtin's map holds more than its one entry",
                    )),
                }
            }
            _ => Err(de::Error::invalid_type(de::Unexpected::Map, &self)),
        }
    }
}

struct ElemsSeed<T>(PackedVisitor<T>);

impl<'de, T: Elem + de::Deserialize<'de>> DeserializeSeed<'de> for ElemsSeed<T> {
    type Value = Vec<T>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        d.deserialize_seq(ElemsVisitor(self.0))
    }
}

/// The elements: raw little-endian bytes from godot_bin, a sequence from the rest.
struct ElemsVisitor<T>(PackedVisitor<T>);

impl<'de, T: Elem + de::Deserialize<'de>> Visitor<'de> for ElemsVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.expecting(f)
    }

    fn visit_borrowed_bytes<E: de::Error>(self, b: &'de [u8]) -> Result<Vec<T>, E> {
        self.visit_bytes(b)
    }

    fn visit_bytes<E: de::Error>(self, b: &[u8]) -> Result<Vec<T>, E> {
        if !b.len().is_multiple_of(T::SIZE) {
            return Err(E::invalid_length(b.len(), &self));
        }
        Ok(crate::packet::packed::from_bytes(b))
    }

    /// The elements as themselves, or (from serde's buffer) as the one-entry map. Only
    /// human-readable deserializers (godot_bin's, and serde's buffer) present that map;
    /// the others may not describe themselves at all.
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
        if d.is_human_readable() {
            d.deserialize_any(self)
        } else {
            d.deserialize_seq(self)
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Vec<T>, A::Error> {
        self.0.visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // As serde's own `Vec` visitor: trust the hint only up to about a megabyte.
        let cap = seq
            .size_hint()
            .unwrap_or(0)
            .min((1 << 20) / std::mem::size_of::<T>().max(1));
        let mut out = Vec::with_capacity(cap);
        while let Some(e) = seq.next_element()? {
            out.push(e);
        }
        Ok(out)
    }
}

/// `Serialize` and `Deserialize` of the packed arrays of numbers and vectors: the bulk path.
macro_rules! bulk {
    ($($name:ident),*) => {$(
        newtype_serialize!($name, |this| &Elems(&this.0));

        impl<'de> de::Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let kind = Kind::$name;
                d.deserialize_newtype_struct(kind.name(), PackedVisitor::new(kind))
                    .map($name)
            }
        }
    )*};
}
for_each_packed!(@bulk bulk);

// Bytes travel as one slice already; strings one by one.
newtype_serialize!(PackedByteArray, |this| serde_bytes::Bytes::new(&this.0));
newtype_serialize!(PackedStringArray, |this| &this.0);
newtype_builtin!(PackedStringArray(Vec<String>));

impl<'de> de::Deserialize<'de> for PackedByteArray {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let kind = Kind::PackedByteArray;
        d.deserialize_newtype_struct(
            kind.name(),
            NewtypeVisitor {
                wrap: |b: serde_bytes::ByteBuf| PackedByteArray(b.into_vec()),
                kind,
                content: PhantomData::<serde_bytes::ByteBuf>,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::packet::packed::Elem;
    use crate::types::math::*;
    use serde::Serialize;

    /// The payload written element by element, as the format defines it.
    fn reference<T: Elem>(ty: u32, elems: &[T], wide: bool) -> Vec<u8> {
        let size = if wide && T::REAL {
            2 * T::SIZE
        } else {
            T::SIZE
        };
        let flag = if wide && T::REAL { 1 << 16 } else { 0 };
        let mut out = Vec::new();
        out.extend_from_slice(&(ty | flag).to_le_bytes());
        out.extend_from_slice(&(elems.len() as u32).to_le_bytes());
        for e in elems {
            let mut b = vec![0; size];
            if size == T::SIZE {
                e.put(&mut b);
            } else {
                e.put_wide(&mut b);
            }
            out.extend_from_slice(&b);
        }
        out
    }

    fn vectors(n: usize) -> Vec<Vector3> {
        (0..n)
            .map(|i| Vector3::new(i as f32, -(i as f32) / 3.0, 0.5 + i as f32 * 1e-3))
            .collect()
    }

    /// Lengths around the block size: empty, one element, one block exactly, blocks and a
    /// remainder.
    fn lengths(size: usize) -> [usize; 5] {
        let per_block = BLOCK / size;
        [0, 1, per_block, per_block + 1, 3 * per_block + 7]
    }

    #[test]
    fn bulk_bytes_equal_the_element_by_element_payload() {
        use crate::dialect::Dialect;
        for n in lengths(12) {
            let v = PackedVector3Array(vectors(n));
            for (dialect, ty) in [(Dialect::Godot4, 36), (Dialect::Godot3, 25)] {
                let cfg = Config::new(dialect);
                let bytes = cfg.to_vec(&v).unwrap();
                assert_eq!(bytes, reference(ty, &v, false), "{dialect} n={n}");
                assert_eq!(cfg.from_slice::<PackedVector3Array>(&bytes).unwrap(), v);
            }
        }
        let ints: PackedInt32Array = (0..100_000).map(|i| i * 7 - 3).collect();
        let bytes = Config::default().to_vec(&ints).unwrap();
        assert_eq!(bytes, reference(30, &ints, false));
        assert_eq!(
            Config::default()
                .from_slice::<PackedInt32Array>(&bytes)
                .unwrap(),
            ints
        );
    }

    #[test]
    fn every_bulk_type_round_trips_through_every_dialect_that_has_it() {
        use crate::dialect::Dialect;
        use crate::variant::Variant;
        fn round<T>(value: T)
        where
            T: Serialize + for<'de> de::Deserialize<'de> + PartialEq + std::fmt::Debug + Clone,
            Variant: From<T>,
        {
            for dialect in [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium] {
                let cfg = Config::new(dialect);
                let Ok(bytes) = cfg.to_vec(&value) else {
                    continue; // a type this dialect lacks
                };
                assert_eq!(cfg.from_slice::<T>(&bytes).unwrap(), value, "{dialect}");
                // The same packet through Variant, and back to the same bytes.
                let any: Variant = cfg.from_slice(&bytes).unwrap();
                assert_eq!(any, Variant::from(value.clone()), "{dialect}");
                assert_eq!(cfg.to_vec(&any).unwrap(), bytes, "{dialect}");
            }
        }
        round(PackedInt32Array(vec![i32::MIN, -1, 0, 1, i32::MAX]));
        round(PackedInt64Array(vec![i64::MIN, -1, 0, i64::MAX]));
        round(PackedFloat32Array(vec![0.1, -0.0, f32::INFINITY, 3.5]));
        round(PackedFloat64Array(vec![0.1, -2.0, f64::MAX]));
        round(PackedVector2Array(vec![Vector2::new(1.0, 2.0); 3]));
        round(PackedVector3Array(vectors(1000)));
        round(PackedVector4Array(vec![Vector4::new(1.0, 2.0, 3.0, 4.0)]));
        round(PackedColorArray(vec![
            Color::from_rgba(0.1, 0.2, 0.3, 1.0);
            2
        ]));
        round(PackedVector2iArray(vec![Vector2i::new(-1, 2)]));
        round(PackedVector3iArray(vec![Vector3i::new(-1, 2, 3)]));
        round(PackedVector4iArray(vec![Vector4i::new(-1, 2, 3, 4)]));
    }

    #[test]
    fn double_precision_writes_f64_reals_and_reads_them_back() {
        use crate::dialect::Dialect;
        let cfg = Config::new(Dialect::Godot4).double_precision(true);
        for n in lengths(24) {
            let v = PackedVector3Array(vectors(n));
            let bytes = cfg.to_vec(&v).unwrap();
            assert_eq!(bytes, reference(36, &v, true), "n={n}");
            assert_eq!(bytes.len(), 8 + 24 * n);
            // Decoding follows the packet's flag, whatever the config says.
            assert_eq!(
                Config::default()
                    .from_slice::<PackedVector3Array>(&bytes)
                    .unwrap(),
                v
            );
            assert_eq!(cfg.from_slice::<PackedVector3Array>(&bytes).unwrap(), v);
        }
        // Colors and ints have no reals: same bytes as single precision.
        let colors = PackedColorArray(vec![Color::from_rgba(0.5, 0.25, 1.0, 0.0)]);
        assert_eq!(
            cfg.to_vec(&colors).unwrap(),
            Config::default().to_vec(&colors).unwrap()
        );
    }

    #[test]
    fn other_formats_see_plain_sequences() {
        let v = PackedVector3Array(vec![Vector3::new(1.0, 2.0, 3.0)]);
        // godot_bin first: its bulk request must not leak into the next serializer.
        Config::default().to_vec(&v).unwrap();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, r#"[{"x":1.0,"y":2.0,"z":3.0}]"#);
        assert_eq!(
            serde_json::from_str::<PackedVector3Array>(&json).unwrap(),
            v
        );
        let ints = PackedInt32Array(vec![1, -2]);
        assert_eq!(serde_json::to_string(&ints).unwrap(), "[1,-2]");
        assert_eq!(
            serde_json::from_str::<PackedInt32Array>("[1,-2]").unwrap(),
            ints
        );
        // A compact binary format: the same bytes as a plain Vec.
        let post = postcard::to_allocvec(&v).unwrap();
        assert_eq!(post, postcard::to_allocvec(&v.0).unwrap());
        assert_eq!(
            postcard::from_bytes::<PackedVector3Array>(&post).unwrap(),
            v
        );
        let rmp = rmp_serde::to_vec(&ints).unwrap();
        assert_eq!(rmp, rmp_serde::to_vec(&ints.0).unwrap());
        assert_eq!(
            rmp_serde::from_slice::<PackedInt32Array>(&rmp).unwrap(),
            ints
        );
    }

    #[test]
    fn a_plain_vec_still_reads_a_packed_array() {
        let v = PackedColorArray(vec![Color::from_rgba(1.0, 0.0, 0.5, 1.0); 3]);
        let bytes = Config::default().to_vec(&v).unwrap();
        let plain: Vec<Color> = Config::default().from_slice(&bytes).unwrap();
        assert_eq!(plain, v.0);
    }

    #[test]
    fn truncated_and_lying_packets_are_errors() {
        let v = PackedVector3Array(vectors(10));
        let bytes = Config::default().to_vec(&v).unwrap();
        for cut in 0..bytes.len() {
            assert!(Config::default()
                .from_slice::<PackedVector3Array>(&bytes[..cut])
                .is_err());
        }
        // A count larger than the bytes that follow.
        let mut lying = bytes.clone();
        lying[4..8].copy_from_slice(&11u32.to_le_bytes());
        let err = Config::default()
            .from_slice::<PackedVector3Array>(&lying)
            .unwrap_err();
        assert!(
            matches!(err.kind(), crate::error::ErrorKind::UnexpectedEof),
            "{err}"
        );
        // Another packed type is a mismatch, not a reinterpretation of its bytes.
        let ints = Config::default()
            .to_vec(&PackedInt32Array(vec![1, 2, 3]))
            .unwrap();
        assert!(Config::default()
            .from_slice::<PackedVector3Array>(&ints)
            .is_err());
    }
}
