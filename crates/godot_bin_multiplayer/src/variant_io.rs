//! Every place where the multiplayer module turns values into Variant packets or back.
//!
//! SceneMultiplayer carries each RPC argument and each replicated property as a
//! "compressed value": a top-level `int` or `bool` in a short form of its own, anything
//! else as the Variant packet `var_to_bytes` writes. This file is the only one in the
//! module that calls the crate's encoder and decoder, so that moving it onto another
//! packet layer is a change in one place.

use super::error::{Error, ErrorKind, Result};
use godot_bin::{Config, Dialect, Variant, VariantType};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Serialize;

/// Bits 0-5 of a compressed value's first byte: the Variant type.
const META_TYPE_MASK: u8 = 0x3F;
/// A compressed `bool` keeps its value in bit 7.
const META_BOOL_TRUE: u8 = 0x80;
/// A compressed `int` keeps its width in bits 6-7: 0 = 8, 1 = 16, 2 = 32, 3 = 64 bits.
const META_INT_WIDTH_SHIFT: u8 = 6;

/// Godot 4's type id of `ty` (every type asked for here exists in Godot 4).
fn id(ty: VariantType) -> u32 {
    Dialect::Godot4.type_id(ty).unwrap_or(u32::MAX)
}

/// The configuration the engine's SceneMultiplayer decodes with: Godot 4, full objects
/// refused (`allow_object_decoding` is off by default).
pub(crate) fn config() -> Config {
    Config::new(Dialect::Godot4)
}

/// The length of the compressed value at the start of `bytes`, checking that it is one
/// the engine would decode.
pub(crate) fn compressed_len(bytes: &[u8]) -> Result<usize> {
    let Some(&meta) = bytes.first() else {
        return Err(Error::from(ErrorKind::Truncated("value")));
    };
    let ty = u32::from(meta & META_TYPE_MASK);
    if ty == id(VariantType::Bool) {
        return Ok(1);
    }
    if ty == id(VariantType::Int) {
        let len = 1 + (1usize << (meta >> META_INT_WIDTH_SHIFT));
        return if bytes.len() >= len {
            Ok(len)
        } else {
            Err(Error::from(ErrorKind::Truncated("int value")))
        };
    }
    if Dialect::Godot4.type_of(ty).is_none() {
        return Err(Error::from(ErrorKind::Invalid("unknown value type")));
    }
    let (_, rest) = config().take_from_slice::<IgnoredAny>(bytes)?;
    Ok(bytes.len() - rest.len())
}

/// Decodes the compressed value at the start of `bytes`; returns it and its length.
pub(crate) fn decode_compressed(bytes: &[u8]) -> Result<(Variant, usize)> {
    let len = compressed_len(bytes)?;
    let meta = bytes[0];
    let ty = u32::from(meta & META_TYPE_MASK);
    let value = if ty == id(VariantType::Bool) {
        Variant::Bool(meta & META_BOOL_TRUE != 0)
    } else if ty == id(VariantType::Int) {
        Variant::Int(compact_int(&bytes[1..len]))
    } else {
        config().from_slice(&bytes[..len])?
    };
    Ok((value, len))
}

/// The little-endian signed integer in `bytes` (1, 2, 4 or 8 of them).
fn compact_int(bytes: &[u8]) -> i64 {
    match *bytes {
        [a] => i64::from(a as i8),
        [a, b] => i64::from(i16::from_le_bytes([a, b])),
        [a, b, c, d] => i64::from(i32::from_le_bytes([a, b, c, d])),
        [a, b, c, d, e, f, g, h] => i64::from_le_bytes([a, b, c, d, e, f, g, h]),
        _ => 0,
    }
}

/// Appends `value` as the engine compresses it: ints in the smallest of 8/16/32/64 bits.
pub(crate) fn put_compact_int(out: &mut Vec<u8>, value: i64) {
    let int = id(VariantType::Int) as u8;
    if let Ok(v) = i8::try_from(value) {
        out.extend_from_slice(&[int, v as u8]);
    } else if let Ok(v) = i16::try_from(value) {
        out.push(int | 1 << META_INT_WIDTH_SHIFT);
        out.extend_from_slice(&v.to_le_bytes());
    } else if let Ok(v) = i32::try_from(value) {
        out.push(int | 2 << META_INT_WIDTH_SHIFT);
        out.extend_from_slice(&v.to_le_bytes());
    } else {
        out.push(int | 3 << META_INT_WIDTH_SHIFT);
        out.extend_from_slice(&value.to_le_bytes());
    }
}

/// Appends a compressed `bool`.
pub(crate) fn put_compact_bool(out: &mut Vec<u8>, value: bool) {
    let b = id(VariantType::Bool) as u8;
    out.push(if value { b | META_BOOL_TRUE } else { b });
}

/// Appends `value` as one compressed value.
pub(crate) fn encode_compressed(value: &Variant, out: &mut Vec<u8>) -> Result<()> {
    match value {
        Variant::Int(i) => put_compact_int(out, *i),
        Variant::Bool(b) => put_compact_bool(out, *b),
        other => config().append_to_vec(out, other)?,
    }
    Ok(())
}

/// Rewrites the INT or BOOL packet at `out[start..]` (the whole tail) in compressed form;
/// leaves any other packet as it is.
fn compact_in_place(out: &mut Vec<u8>, start: usize) {
    let packet = &out[start..];
    let ty = u32::from(packet[0]);
    if ty == id(VariantType::Bool) && packet.len() == 8 {
        let v = packet[4] != 0;
        out.truncate(start);
        put_compact_bool(out, v);
    } else if ty == id(VariantType::Int) {
        let v = match packet.len() {
            8 => i64::from(i32::from_le_bytes([
                packet[4], packet[5], packet[6], packet[7],
            ])),
            12 => {
                let mut b = [0u8; 8];
                b.copy_from_slice(&packet[4..12]);
                i64::from_le_bytes(b)
            }
            _ => return,
        };
        out.truncate(start);
        put_compact_int(out, v);
    }
}

/// How the arguments of a REMOTE_CALL travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgsForm {
    /// An argc byte, then that many compressed values.
    Values(u8),
    /// The raw flag: no argc byte; nothing (no arguments) or the bytes of one
    /// PackedByteArray argument.
    Raw,
}

/// Encodes the arguments of a call from a serializable value: a tuple, tuple struct,
/// sequence or `Vec<Variant>` gives one argument per element, a struct one per field (in
/// declaration order), `()` none, and anything else one argument. Appends the argument
/// bytes (without the argc byte) to `out`.
pub(crate) fn encode_args<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<ArgsForm> {
    let start = out.len();
    config().append_to_vec(out, value)?;
    spread_packet(out, start)
}

/// Encodes the arguments of a call from Variants, one argument each.
pub(crate) fn encode_variant_args(values: &[Variant], out: &mut Vec<u8>) -> Result<ArgsForm> {
    if values.len() > 255 {
        return Err(Error::from(ErrorKind::Limit("more than 255 arguments")));
    }
    match values {
        [] => Ok(ArgsForm::Raw),
        [Variant::PackedByteArray(b)] => {
            out.extend_from_slice(b);
            Ok(ArgsForm::Raw)
        }
        _ => {
            for v in values {
                encode_compressed(v, out)?;
            }
            Ok(ArgsForm::Values(values.len() as u8))
        }
    }
}

/// Turns the single Variant packet at `out[start..]` into argument bytes in place.
fn spread_packet(out: &mut Vec<u8>, start: usize) -> Result<ArgsForm> {
    let packet = out[start..].to_vec();
    out.truncate(start);
    let ty = u32::from(packet[0]);
    let count =
        |p: &[u8]| -> usize { u32::from_le_bytes([p[4], p[5], p[6], p[7]]) as usize & 0x7FFF_FFFF };
    if ty == id(VariantType::Nil) {
        return Ok(ArgsForm::Raw);
    }
    let (elements, per_entry): (&[u8], usize) = if ty == id(VariantType::Array) {
        // Typed arrays carry their element type between header and count: a tuple never is.
        if packet[1..4] != [0, 0, 0] {
            return single(out, &packet);
        }
        (&packet[..], 1)
    } else if ty == id(VariantType::Dictionary) && packet[1..4] == [0, 0, 0] {
        (&packet[..], 2)
    } else {
        return single(out, &packet);
    };
    let n = count(elements);
    if n > 255 {
        return Err(Error::from(ErrorKind::Limit("more than 255 arguments")));
    }
    let mut rest = &elements[8..];
    let mut values: Vec<&[u8]> = Vec::with_capacity(n);
    for _ in 0..n {
        for k in 0..per_entry {
            let (_, after) = config().take_from_slice::<IgnoredAny>(rest)?;
            let len = rest.len() - after.len();
            if k + 1 == per_entry {
                values.push(&rest[..len]);
            }
            rest = after;
        }
    }
    if let [one] = values[..] {
        if u32::from(one[0]) == id(VariantType::PackedByteArray) {
            return single(out, one);
        }
    }
    for v in &values {
        let s = out.len();
        out.extend_from_slice(v);
        compact_in_place(out, s);
    }
    Ok(ArgsForm::Values(n as u8))
}

/// One argument given as a whole Variant packet.
fn single(out: &mut Vec<u8>, packet: &[u8]) -> Result<ArgsForm> {
    if u32::from(packet[0]) == id(VariantType::PackedByteArray) && packet[1..4] == [0, 0, 0] {
        let len = u32::from_le_bytes([packet[4], packet[5], packet[6], packet[7]]) as usize;
        if let Some(bytes) = packet.get(8..8 + len) {
            out.extend_from_slice(bytes);
            return Ok(ArgsForm::Raw);
        }
    }
    let s = out.len();
    out.extend_from_slice(packet);
    compact_in_place(out, s);
    Ok(ArgsForm::Values(1))
}

/// Checks that `bytes` holds at least `argc` valid compressed values; returns the length
/// they take (the engine ignores what follows).
pub(crate) fn check_values(bytes: &[u8], argc: usize) -> Result<usize> {
    let mut at = 0;
    for _ in 0..argc {
        if at >= bytes.len() {
            return Err(Error::from(ErrorKind::Truncated(
                "fewer arguments than argc",
            )));
        }
        at += compressed_len(&bytes[at..])?;
    }
    Ok(at)
}

/// Rebuilds the arguments as one ARRAY packet, the shape a tuple or struct decodes from.
fn as_array_packet(form: ArgsForm, bytes: &[u8]) -> Result<Vec<u8>> {
    let mut packet = Vec::with_capacity(bytes.len() + 16);
    packet.extend_from_slice(&id(VariantType::Array).to_le_bytes());
    match form {
        ArgsForm::Raw if bytes.is_empty() => packet.extend_from_slice(&0u32.to_le_bytes()),
        ArgsForm::Raw => {
            packet.extend_from_slice(&1u32.to_le_bytes());
            packet.extend_from_slice(&id(VariantType::PackedByteArray).to_le_bytes());
            packet.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            packet.extend_from_slice(bytes);
            packet.resize(packet.len() + (4 - bytes.len() % 4) % 4, 0);
        }
        ArgsForm::Values(n) => {
            packet.extend_from_slice(&u32::from(n).to_le_bytes());
            let mut at = 0;
            for _ in 0..n {
                let len = compressed_len(bytes.get(at..).unwrap_or_default())?;
                let value = &bytes[at..at + len];
                let ty = u32::from(value[0] & META_TYPE_MASK);
                if ty == id(VariantType::Bool) {
                    packet.extend_from_slice(&ty.to_le_bytes());
                    packet.extend_from_slice(
                        &u32::from(value[0] & META_BOOL_TRUE != 0).to_le_bytes(),
                    );
                } else if ty == id(VariantType::Int) {
                    config().append_to_vec(&mut packet, &compact_int(&value[1..]))?;
                } else {
                    packet.extend_from_slice(value);
                }
                at += len;
            }
        }
    }
    Ok(packet)
}

/// Decodes arguments into `T` (a tuple, a struct whose fields come in argument order, a
/// `Vec<Variant>`...).
pub(crate) fn decode_args<T: DeserializeOwned>(form: ArgsForm, bytes: &[u8]) -> Result<T> {
    let packet = as_array_packet(form, bytes)?;
    Ok(config().from_slice(&packet)?)
}

/// Decodes arguments into one Variant each.
pub(crate) fn decode_variant_args(form: ArgsForm, bytes: &[u8]) -> Result<Vec<Variant>> {
    match form {
        ArgsForm::Raw if bytes.is_empty() => Ok(Vec::new()),
        ArgsForm::Raw => Ok(vec![Variant::PackedByteArray(bytes.to_vec().into())]),
        ArgsForm::Values(n) => decode_values(bytes, usize::from(n)),
    }
}

/// Decodes `n` compressed values from the start of `bytes`.
pub(crate) fn decode_values(bytes: &[u8], n: usize) -> Result<Vec<Variant>> {
    let mut out = Vec::with_capacity(n.min(bytes.len()));
    let mut at = 0;
    for _ in 0..n {
        let (v, len) = decode_compressed(bytes.get(at..).unwrap_or_default())?;
        out.push(v);
        at += len;
    }
    Ok(out)
}

/// Decodes compressed values until `bytes` ends.
pub(crate) fn decode_all_values(bytes: &[u8]) -> Result<Vec<Variant>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (v, len) = decode_compressed(&bytes[at..])?;
        out.push(v);
        at += len;
    }
    Ok(out)
}
