//! Every builtin that is not a container, read from its constructor text under every
//! engine's type names: `true`, `null`, the float words (`inf`, `inf_neg`, `-nan`...),
//! the math types (`Vector2( 1, 2 )`, `Quat( ... )`, `Transform3D(...)`), `NodePath`,
//! `RID`, `Callable`, `Signal`, and the packed arrays (`PoolIntArray( ... )`,
//! `PackedByteArray("base64")`, ...). Godot 2's `Image` and `InputEvent` are in
//! [`godot2`](super::godot2).

use super::lexer::{Tok, Token};
use super::{ParseError, Parser};
use crate::types::math::*;
use crate::types::names::NodePath;
use crate::types::object::{Callable, Rid, Signal};
use crate::types::packed::*;
use crate::variant::Variant;

/// A number read inside a constructor's parentheses.
#[derive(Clone, Copy)]
pub(super) enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(x) => x,
        }
    }

    /// A `real_t`: the engine reads the double, then narrows it.
    fn as_f32(self) -> f32 {
        self.as_f64() as f32
    }
}

impl Parser<'_> {
    /// `(` numbers `)`, where a number may also be `inf`, `-inf`, `inf_neg` or `nan`.
    fn numbers(&mut self) -> Result<Vec<(Number, usize)>, ParseError> {
        self.expect(Tok::ParenOpen, "'('")?;
        // `paren_items` with a shortcut for the short integers most lists hold (a tile
        // map's cells, a byte array's bytes); anything else goes through the lexer.
        let mut out = Vec::new();
        loop {
            if let Some((i, at)) = self.short_int() {
                out.push((Number::Int(i), at));
            } else {
                let tok = self.next()?;
                if out.is_empty() && tok.kind == Tok::ParenClose {
                    return Ok(out);
                }
                out.push(self.number_item(tok)?);
            }
            if !self.comma_or_paren()? {
                return Ok(out);
            }
        }
    }

    /// One item of [`numbers`](Self::numbers) that is not a short integer.
    fn number_item(&self, tok: Token) -> Result<(Number, usize), ParseError> {
        let n = match tok.kind {
            Tok::Int(i) => Number::Int(i),
            Tok::Float(x) => Number::Float(x),
            Tok::Ident(ref id) => match float_word(id) {
                Some(x) => Number::Float(x),
                None => {
                    return Err(self.error_at(tok.start, format!("expected a number, found '{id}'")))
                }
            },
            _ => return Err(self.expected("a number", &tok)),
        };
        Ok((n, tok.start))
    }

    /// Exactly `n` reals for constructor `name`.
    fn reals<const N: usize>(&mut self, name: &str, at: usize) -> Result<[f32; N], ParseError> {
        let nums = self.numbers()?;
        if nums.len() != N {
            return Err(self.error_at(
                at,
                format!("{name} takes {N} numbers, found {}", nums.len()),
            ));
        }
        Ok(real_group(&nums))
    }

    /// Exactly `n` 32-bit integers for constructor `name`.
    fn ints<const N: usize>(&mut self, name: &str, at: usize) -> Result<[i32; N], ParseError> {
        let nums = self.numbers()?;
        if nums.len() != N {
            return Err(self.error_at(
                at,
                format!("{name} takes {N} integers, found {}", nums.len()),
            ));
        }
        self.int_group(&nums)
    }

    /// The first `N` numbers of `c` (with their offsets), as 32-bit integers.
    fn int_group<const N: usize>(&self, c: &[(Number, usize)]) -> Result<[i32; N], ParseError> {
        let mut out = [0; N];
        for (o, (n, at)) in out.iter_mut().zip(c) {
            *o = self.int32(*n, *at)?;
        }
        Ok(out)
    }

    fn int32(&self, n: Number, at: usize) -> Result<i32, ParseError> {
        match n {
            Number::Int(i) => i32::try_from(i)
                .map_err(|_| self.error_at(at, format!("{i} does not fit in a 32-bit integer"))),
            Number::Float(_) => Err(self.error_at(at, "expected an integer, found a float")),
        }
    }

    /// A packed array of `N`-component groups.
    fn groups<const N: usize, T>(
        &mut self,
        name: &str,
        at: usize,
        mut make: impl FnMut(&Self, &[(Number, usize)]) -> Result<T, ParseError>,
    ) -> Result<Vec<T>, ParseError> {
        let nums = self.numbers()?;
        if nums.len() % N != 0 {
            return Err(self.error_at(
                at,
                format!(
                    "{name} takes a multiple of {N} numbers, found {}",
                    nums.len()
                ),
            ));
        }
        nums.chunks_exact(N).map(|c| make(self, c)).collect()
    }

    /// A value named by an identifier that holds no other value.
    pub(super) fn identifier(&mut self, id: &str, at: usize) -> Result<Variant, ParseError> {
        if let Some(v) = word_value(id) {
            return Ok(v);
        }
        Ok(match id {
            "Vector2" => {
                let [x, y] = self.reals(id, at)?;
                Variant::Vector2(Vector2::new(x, y))
            }
            "Vector2i" => {
                let [x, y] = self.ints(id, at)?;
                Variant::Vector2i(Vector2i::new(x, y))
            }
            "Rect2" => {
                let [a, b, c, d] = self.reals(id, at)?;
                Variant::Rect2(Rect2::new(Vector2::new(a, b), Vector2::new(c, d)))
            }
            "Rect2i" => {
                let [a, b, c, d] = self.ints(id, at)?;
                Variant::Rect2i(Rect2i::new(Vector2i::new(a, b), Vector2i::new(c, d)))
            }
            "Vector3" => {
                let [x, y, z] = self.reals(id, at)?;
                Variant::Vector3(Vector3::new(x, y, z))
            }
            "Vector3i" => {
                let [x, y, z] = self.ints(id, at)?;
                Variant::Vector3i(Vector3i::new(x, y, z))
            }
            "Vector4" => {
                let [x, y, z, w] = self.reals(id, at)?;
                Variant::Vector4(Vector4::new(x, y, z, w))
            }
            "Vector4i" => {
                let [x, y, z, w] = self.ints(id, at)?;
                Variant::Vector4i(Vector4i::new(x, y, z, w))
            }
            "Transform2D" | "Matrix32" => {
                let [a, b, c, d, e, f] = self.reals(id, at)?;
                Variant::Transform2D(Transform2D {
                    x: Vector2::new(a, b),
                    y: Vector2::new(c, d),
                    origin: Vector2::new(e, f),
                })
            }
            "Plane" => {
                let [a, b, c, d] = self.reals(id, at)?;
                Variant::Plane(Plane::new(Vector3::new(a, b, c), d))
            }
            "Quaternion" | "Quat" => {
                let [x, y, z, w] = self.reals(id, at)?;
                Variant::Quaternion(Quaternion::new(x, y, z, w))
            }
            "AABB" | "Rect3" => {
                let [a, b, c, d, e, f] = self.reals(id, at)?;
                Variant::Aabb(Aabb {
                    position: Vector3::new(a, b, c),
                    size: Vector3::new(d, e, f),
                })
            }
            "Basis" | "Matrix3" => {
                let n: [f32; 9] = self.reals(id, at)?;
                Variant::Basis(basis_from(&n))
            }
            "Transform3D" | "Transform" => {
                let n: [f32; 12] = self.reals(id, at)?;
                Variant::Transform3D(Transform3D {
                    basis: basis_from(&n[..9]),
                    origin: Vector3::new(n[9], n[10], n[11]),
                })
            }
            "Projection" => {
                let n: [f32; 16] = self.reals(id, at)?;
                let col = |i: usize| Vector4::new(n[i], n[i + 1], n[i + 2], n[i + 3]);
                Variant::Projection(Projection {
                    columns: [col(0), col(4), col(8), col(12)],
                })
            }
            "Color" => {
                let [r, g, b, a] = self.reals(id, at)?;
                Variant::Color(Color::from_rgba(r, g, b, a))
            }
            "NodePath" => {
                self.expect(Tok::ParenOpen, "'('")?;
                let tok = self.next()?;
                let Tok::Str(path) = tok.kind else {
                    return Err(self.error_at(tok.start, "expected a string in NodePath()"));
                };
                self.expect(Tok::ParenClose, "')'")?;
                Variant::NodePath(NodePath::from(path.as_str()))
            }
            "RID" => {
                let nums = self.numbers()?;
                match nums.as_slice() {
                    [] => Variant::Rid(Rid(0)),
                    [(Number::Int(i), _)] => Variant::Rid(Rid(*i as u64)),
                    _ => return Err(self.error_at(at, "RID takes no argument or one integer")),
                }
            }
            "Callable" | "Signal" => {
                // The engine stores neither in text and reads both back empty.
                self.expect(Tok::ParenOpen, "'('")?;
                self.expect(Tok::ParenClose, "')'")?;
                if id == "Callable" {
                    Variant::Callable(Callable)
                } else {
                    Variant::Signal(Signal::default())
                }
            }
            "Image" => Variant::Image(self.image()?),
            "InputEvent" => Variant::InputEvent(self.input_event()?),
            "Resource" | "SubResource" | "ExtResource" => {
                return self.call(id, at, |id| {
                    format!("{id}(...) needs the engine to load it")
                });
            }
            "PackedByteArray" | "PoolByteArray" | "ByteArray" | "RawArray" => {
                Variant::PackedByteArray(self.byte_array()?)
            }
            "PackedInt32Array" | "PackedIntArray" | "PoolIntArray" | "IntArray" => {
                let v = self.groups::<1, _>(id, at, |p, c| p.int32(c[0].0, c[0].1))?;
                Variant::PackedInt32Array(PackedInt32Array(v))
            }
            "PackedInt64Array" => {
                let v = self.groups::<1, _>(id, at, |p, c| match c[0].0 {
                    Number::Int(i) => Ok(i),
                    Number::Float(_) => {
                        Err(p.error_at(c[0].1, "expected an integer, found a float"))
                    }
                })?;
                Variant::PackedInt64Array(PackedInt64Array(v))
            }
            "PackedFloat32Array" | "PackedRealArray" | "PoolRealArray" | "FloatArray"
            | "RealArray" => {
                let v = self.groups::<1, _>(id, at, |_, c| Ok(c[0].0.as_f32()))?;
                Variant::PackedFloat32Array(PackedFloat32Array(v))
            }
            "PackedFloat64Array" => {
                let v = self.groups::<1, _>(id, at, |_, c| Ok(c[0].0.as_f64()))?;
                Variant::PackedFloat64Array(PackedFloat64Array(v))
            }
            "PackedStringArray" | "PoolStringArray" | "StringArray" => {
                Variant::PackedStringArray(PackedStringArray(self.strings()?))
            }
            "PackedVector2Array" | "PoolVector2Array" | "Vector2Array" => {
                let v = self.groups::<2, _>(id, at, |_, c| {
                    let [x, y] = real_group(c);
                    Ok(Vector2::new(x, y))
                })?;
                Variant::PackedVector2Array(PackedVector2Array(v))
            }
            "PackedVector3Array" | "PoolVector3Array" | "Vector3Array" => {
                let v = self.groups::<3, _>(id, at, |_, c| {
                    let [x, y, z] = real_group(c);
                    Ok(Vector3::new(x, y, z))
                })?;
                Variant::PackedVector3Array(PackedVector3Array(v))
            }
            "PackedVector4Array" | "PoolVector4Array" | "Vector4Array" => {
                let v = self.groups::<4, _>(id, at, |_, c| {
                    let [x, y, z, w] = real_group(c);
                    Ok(Vector4::new(x, y, z, w))
                })?;
                Variant::PackedVector4Array(PackedVector4Array(v))
            }
            "PackedColorArray" | "PoolColorArray" | "ColorArray" => {
                let v = self.groups::<4, _>(id, at, |_, c| {
                    let [r, g, b, a] = real_group(c);
                    Ok(Color::from_rgba(r, g, b, a))
                })?;
                Variant::PackedColorArray(PackedColorArray(v))
            }
            "PackedVector2iArray" | "PoolVector2iArray" => {
                let v = self.groups::<2, _>(id, at, |p, c| {
                    let [x, y] = p.int_group(c)?;
                    Ok(Vector2i::new(x, y))
                })?;
                Variant::PackedVector2iArray(PackedVector2iArray(v))
            }
            "PackedVector3iArray" | "PoolVector3iArray" => {
                let v = self.groups::<3, _>(id, at, |p, c| {
                    let [x, y, z] = p.int_group(c)?;
                    Ok(Vector3i::new(x, y, z))
                })?;
                Variant::PackedVector3iArray(PackedVector3iArray(v))
            }
            "PackedVector4iArray" | "PoolVector4iArray" => {
                let v = self.groups::<4, _>(id, at, |p, c| {
                    let [x, y, z, w] = p.int_group(c)?;
                    Ok(Vector4i::new(x, y, z, w))
                })?;
                Variant::PackedVector4iArray(PackedVector4iArray(v))
            }
            _ => return self.call(id, at, |id| format!("unknown identifier '{id}'")),
        })
    }

    /// A call `id(args)` no builtin makes: the [`ParseHook`](crate::text::ParseHook)'s to
    /// take or refuse; `unknown` says what it is when the hook leaves it (or when no `(`
    /// follows).
    fn call(
        &mut self,
        id: &str,
        at: usize,
        unknown: impl Fn(&str) -> String,
    ) -> Result<Variant, ParseError> {
        let save = self.pos;
        if self.next()?.kind != Tok::ParenOpen {
            self.pos = save;
            return Err(self.error_at(at, unknown(id)));
        }
        let args = self.call_args(at)?;
        match self.hook.call(id, args) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(self.error_at(at, unknown(id))),
            Err(message) => Err(self.error_at(at, message)),
        }
    }

    /// `PackedByteArray(1, 2, 3)`, `PackedByteArray("AQID")` (base64) or `PackedByteArray()`.
    fn byte_array(&mut self) -> Result<PackedByteArray, ParseError> {
        let save = self.pos;
        self.expect(Tok::ParenOpen, "'('")?;
        let tok = self.next()?;
        if let Tok::Str(b64) = tok.kind {
            self.expect(Tok::ParenClose, "')'")?;
            return base64_decode(&b64)
                .map(PackedByteArray)
                .ok_or_else(|| self.error_at(tok.start, "invalid base64 in PackedByteArray"));
        }
        self.pos = save;
        let nums = self.numbers()?;
        let mut out = Vec::with_capacity(nums.len());
        for (n, at) in nums {
            match n {
                Number::Int(i @ 0..=255) => out.push(i as u8),
                _ => {
                    return Err(self.error_at(
                        at,
                        "a PackedByteArray element must be an integer in 0..=255",
                    ))
                }
            }
        }
        Ok(PackedByteArray(out))
    }

    /// `( "a", "b" )`.
    fn strings(&mut self) -> Result<Vec<String>, ParseError> {
        self.expect(Tok::ParenOpen, "'('")?;
        self.paren_items(true, |p, tok| match tok.kind {
            Tok::Str(s) => Ok(s),
            _ => Err(p.expected("a string", &tok)),
        })
    }
}

/// The first `N` numbers of `c` as `real_t`s.
fn real_group<const N: usize>(c: &[(Number, usize)]) -> [f32; N] {
    std::array::from_fn(|i| c[i].0.as_f32())
}

fn basis_from(n: &[f32]) -> Basis {
    let row = |i: usize| Vector3::new(n[i], n[i + 1], n[i + 2]);
    Basis {
        rows: [row(0), row(3), row(6)],
    }
}

/// The value of a word that is a whole value by itself (`true`, `false`, `null`, `nil` and
/// the float words): the engine's reader takes no `(` or `[` after these, so in `inf(3`
/// the `(` is not part of the value.
pub fn word_value(id: &str) -> Option<Variant> {
    match id {
        "true" => Some(Variant::Bool(true)),
        "false" => Some(Variant::Bool(false)),
        "null" | "nil" => Some(Variant::Nil),
        _ => float_word(id).map(Variant::Float),
    }
}

/// The float words the engines print: `inf`, `-inf`, `inf_neg`, `nan` and `-nan` (a NaN
/// with its sign bit set, in Godot 3).
fn float_word(id: &str) -> Option<f64> {
    match id {
        "inf" => Some(f64::INFINITY),
        "-inf" | "inf_neg" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        "-nan" => Some(-f64::NAN),
        _ => None,
    }
}

/// Standard base64 (with or without `=` padding), as the engine's `b64_decode` reads it.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() / 4 * 3 + 3);
    let mut acc = 0u32;
    let mut bits = 0;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A single leftover character (6 bits) cannot end valid base64.
    if bits >= 6 {
        return None;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_reads_the_engines_encoding() {
        assert_eq!(base64_decode("AQID").unwrap(), [1, 2, 3]);
        assert_eq!(base64_decode("AQIDBA==").unwrap(), [1, 2, 3, 4]);
        assert_eq!(base64_decode("AQIDBA").unwrap(), [1, 2, 3, 4]);
        assert_eq!(base64_decode("").unwrap(), Vec::<u8>::new());
        assert!(base64_decode("A").is_none());
        assert!(base64_decode("A*==").is_none());
    }
}
