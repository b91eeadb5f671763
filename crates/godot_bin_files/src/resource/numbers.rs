//! Floats in a file's text, both ways.
//!
//! Reading: the engines read a float's text with their own `strtod` ([`super::strtod`]),
//! which can land one unit in the last place away from the nearest double. A float token
//! whose engine reading differs from the crate parser's is rewritten, before parsing, as
//! text the crate's parser reads to the engine's double ([`engine_float_token`]).
//!
//! Writing: the engines print floats with `%g` and 6 significant digits (`rtos_fix`):
//! `0.333333`, `1.23457e+08`, `1.4013e-45`. A value printed here takes that text when the
//! engine reads it back to exactly the value (so a file read and printed anew is the
//! engine's own text), and otherwise the shortest text the engine reads back exactly
//! (never fewer digits than the value needs: the engine's own 6 digits lose precision,
//! this crate's do not). A FLOAT gets `.0` when its text has no `.` or exponent, as the
//! engine writes it; `-0.0` keeps its sign (the engine writes `0`).
//!
//! The crate's printer ([`Variant::to_text`]) prints shortest digits, so each value holding
//! floats is replaced, before printing, by a marker object ([`TEXT_CLASS`]) holding its
//! text with every float rewritten; the markers' text is put back after printing.
//! Dictionary keys are left as they are (a marker would move the key in the engine's key
//! order); their floats of more than 9 digits are fixed in the printed text
//! ([`long_floats`]).

use super::lex::{is_ident, skip_string};
use super::strtod::{engine_reading, engine_text, engine_value};
use godot_bin::Dialect;
use godot_bin::{Object, Variant};

/// Marker class of a value written as the text it holds.
pub(crate) const TEXT_CLASS: &str = "GodotBinText";

/// The end of the number token at `i`: a sign, digits and `.`, an exponent.
pub(crate) fn number_end(s: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < s.len() {
        let d = s[j];
        let exp_sign = (d == b'+' || d == b'-') && matches!(s[j - 1], b'e' | b'E');
        if d.is_ascii_digit() || d == b'.' || d == b'e' || d == b'E' || exp_sign {
            j += 1;
        } else {
            break;
        }
    }
    j
}

/// For a float token the engine reads to another double than the crate's parser: text
/// the crate's parser reads to the engine's double.
pub(crate) fn engine_float_token(token: &str) -> Option<String> {
    if !token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return None; // an int
    }
    let engine = engine_value(token)?;
    let ours = token.parse::<f64>().ok()?;
    if engine.to_bits() == ours.to_bits() {
        return None;
    }
    Some(if engine == f64::INFINITY {
        "inf".into()
    } else if engine == f64::NEG_INFINITY {
        "inf_neg".into()
    } else {
        format!("{engine:?}")
    })
}

/// C's `%g` (6 significant digits) of a finite `x`.
pub(crate) fn printf_g(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    let e_form = format!("{x:.5e}");
    let (mantissa, exp) = e_form.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    if !(-4..6).contains(&exp) {
        let m = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        let fixed = format!("{x:.*}", (5 - exp) as usize);
        if fixed.contains('.') {
            fixed
                .trim_end_matches('0')
                .trim_end_matches('.')
                .to_string()
        } else {
            fixed
        }
    }
}

/// The text of a 32-bit component printed `shortest` by the crate: the engine's `%g`
/// when the engine reads it back to `x`, else text it reads back exactly.
fn f32_text(x: f32, shortest: &str) -> Option<String> {
    let back = |t: &str| engine_reading(t).is_some_and(|v| (v as f32).to_bits() == x.to_bits());
    let g = printf_g(f64::from(x));
    if back(&g) {
        return (g != shortest).then_some(g);
    }
    if back(shortest) {
        return None;
    }
    engine_text(f64::from(x), shortest)
}

/// The text of a double printed `shortest` by the crate, likewise; `float` adds the `.0`
/// of a FLOAT.
fn f64_text(x: f64, shortest: &str, float: bool) -> Option<String> {
    let exact = |t: &str| engine_reading(t).is_some_and(|v| v.to_bits() == x.to_bits());
    let mut g = printf_g(x);
    if float && !g.bytes().any(|b| matches!(b, b'.' | b'e')) {
        g.push_str(".0");
    }
    if exact(&g) {
        return (g != shortest).then_some(g);
    }
    if exact(shortest) {
        return None;
    }
    engine_text(x, shortest)
}

/// `text` (a value's print) with each float token rewritten by `fix`; `None` if none is.
fn fix_tokens(text: &str, fix: impl Fn(&str) -> Option<String>) -> Option<String> {
    let s = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'"' {
            i = skip_string(s, i).unwrap_or(s.len());
            continue;
        }
        if is_ident(c) && !c.is_ascii_digit() {
            while i < s.len() && is_ident(s[i]) {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_digit() || (c == b'-' && s.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let end = number_end(s, i);
            if let Some(t) = fix(&text[i..end]) {
                out.push_str(&text[copied..i]);
                out.push_str(&t);
                copied = end;
            }
            i = end;
            continue;
        }
        i += 1;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// The engine's text of a value whose floats are all 32-bit (math types, packed arrays of
/// them), or `None` when the crate's is it.
fn f32_value_text(v: &Variant, dialect: Dialect) -> Option<String> {
    fix_tokens(&v.to_text(dialect), |t| {
        if t == "-0" {
            return Some("-0.0".into()); // the engine reads `-0` as the int 0
        }
        let x = t.parse::<f32>().ok()?;
        f32_text(x, t)
    })
}

/// Likewise for a value whose floats are doubles (a PackedFloat64Array).
fn f64_value_text(v: &Variant, dialect: Dialect) -> Option<String> {
    fix_tokens(&v.to_text(dialect), |t| {
        if t == "-0" {
            return Some("-0.0".into());
        }
        let x = t.parse::<f64>().ok()?;
        f64_text(x, t, false)
    })
}

/// The engine's text of one value that is not a container, when it differs from the
/// crate's.
fn leaf_text(v: &Variant, dialect: Dialect) -> Option<String> {
    match v {
        Variant::Float(x) if x.is_finite() => f64_text(*x, &v.to_text(dialect), true),
        Variant::Vector2(_)
        | Variant::Rect2(_)
        | Variant::Vector3(_)
        | Variant::Transform2D(_)
        | Variant::Vector4(_)
        | Variant::Plane(_)
        | Variant::Quaternion(_)
        | Variant::Aabb(_)
        | Variant::Basis(_)
        | Variant::Transform3D(_)
        | Variant::Projection(_)
        | Variant::Color(_)
        | Variant::PackedFloat32Array(_)
        | Variant::PackedVector2Array(_)
        | Variant::PackedVector3Array(_)
        | Variant::PackedColorArray(_)
        | Variant::PackedVector4Array(_) => f32_value_text(v, dialect),
        Variant::PackedFloat64Array(_) => f64_value_text(v, dialect),
        _ => None,
    }
}

fn marker(text: String) -> Variant {
    Variant::Object(Object {
        class_name: TEXT_CLASS.into(),
        properties: vec![("t".into(), Variant::String(text))],
    })
}

/// `v` with each value whose floats print otherwise in the engine's text replaced by a
/// marker holding that text; `None` when there is none.
pub(crate) fn engine_numbers(v: &Variant, dialect: Dialect) -> Option<Variant> {
    if let Some(t) = leaf_text(v, dialect) {
        return Some(marker(t));
    }
    match v {
        Variant::Array(a) => {
            let first = a
                .iter()
                .position(|x| engine_numbers(x, dialect).is_some())?;
            let mut copy = a.clone();
            for x in copy.iter_mut().skip(first) {
                if let Some(y) = engine_numbers(x, dialect) {
                    *x = y;
                }
            }
            Some(Variant::Array(copy))
        }
        Variant::Dictionary(d) => {
            d.values()
                .position(|x| engine_numbers(x, dialect).is_some())?;
            let mut copy = d.clone();
            for (_, x) in copy.iter_mut() {
                if let Some(y) = engine_numbers(x, dialect) {
                    *x = y;
                }
            }
            Some(Variant::Dictionary(copy))
        }
        Variant::Object(o) => {
            o.properties
                .iter()
                .position(|(_, x)| engine_numbers(x, dialect).is_some())?;
            let mut copy = o.clone();
            for (_, x) in copy.properties.iter_mut() {
                if let Some(y) = engine_numbers(x, dialect) {
                    *x = y;
                }
            }
            Some(Variant::Object(copy))
        }
        _ => None,
    }
}

/// The printed text with each float of more than 9 significant digits (so a double: a
/// 32-bit component prints with at most 9) that the engine would misread rewritten, and
/// each `-0` (a float: the engine reads the token as the int 0) as `-0.0`, or `None` when
/// there is none. This reaches floats inside Dictionary keys, which [`engine_numbers`]
/// leaves alone.
pub(crate) fn long_floats(text: &str) -> Option<String> {
    fix_tokens(text, |token| {
        if token == "-0" {
            return Some("-0.0".into());
        }
        let digits = token
            .split(['e', 'E'])
            .next()
            .unwrap_or("")
            .bytes()
            .filter(u8::is_ascii_digit)
            .skip_while(|&d| d == b'0')
            .count();
        if digits > 9 && token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
            let x = token.parse::<f64>().ok()?;
            engine_text(x, token)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use godot_bin::{Vector2, Vector3};

    #[test]
    fn printf_g_is_c_s() {
        for (x, want) in [
            (1.0, "1"),
            (0.1 + 0.2, "0.3"),
            (123456789.0, "1.23457e+08"),
            (1e-7, "1e-07"),
            (100000.0, "100000"),
            (0.0001, "0.0001"),
            (-2.5, "-2.5"),
            (f64::from(f32::from_bits(1)), "1.4013e-45"),
        ] {
            assert_eq!(printf_g(x), want, "{x}");
        }
    }

    #[test]
    fn values_print_as_the_engine_prints_them_when_that_is_exact() {
        let text = |v: Variant| {
            let v = engine_numbers(&v, Dialect::Godot4).unwrap_or(v);
            match &v {
                Variant::Object(o) if o.class_name == TEXT_CLASS => {
                    o.properties[0].1.as_str().unwrap().to_string()
                }
                other => other.to_text(Dialect::Godot4),
            }
        };
        // A 32-bit denormal: the engine's 6 digits read back exactly.
        assert_eq!(
            text(Vector2::new(f32::from_bits(1), 0.5).into()),
            "Vector2(1.4013e-45, 0.5)"
        );
        // 1/3 in 32 bits: `0.333333` reads back to another float; the shortest exact text.
        assert_eq!(
            text(Vector3::new(1.0 / 3.0, 0.0, -0.0).into()),
            "Vector3(0.33333334, 0, -0.0)"
        );
        // A FLOAT read from the engine's `0.333333` prints so again; 1/3 needs all digits.
        assert_eq!(text(Variant::Float(0.333333)), "0.333333");
        assert_eq!(text(Variant::Float(1.0 / 3.0)), "0.3333333333333333");
        assert_eq!(text(Variant::Float(1e20)), "1e+20");
        assert_eq!(text(Variant::Float(2.0)), "2.0");
    }
}
