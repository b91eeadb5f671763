//! Floats in a file's text, both ways, as the two hooks of the text form call for them
//! (`syntax.rs`: `FileReader`, `FileWriter`).
//!
//! Reading: the engines read a float's text with their own `strtod` ([`super::strtod`]),
//! which can land one unit in the last place away from the nearest double. A float token
//! whose engine reading differs from the nearest double is read as the engine's
//! ([`engine_float`]).
//!
//! Writing: the engines print floats with `%g` and 6 significant digits (`rtos_fix`):
//! `0.333333`, `1.23457e+08`, `1.4013e-45`. A value printed here takes that text when the
//! engine reads it back to exactly the value (so a file read and printed anew is the
//! engine's own text), and otherwise the shortest text the engine reads back exactly
//! (never fewer digits than the value needs: the engine's own 6 digits lose precision,
//! this crate's do not). A FLOAT gets `.0` when its text has no `.` or exponent, as the
//! engine writes it; `-0.0` keeps its sign (the engine writes `0`), and so does a `-0`
//! component, written `-0.0` (the engine reads the token `-0` as the int 0).

use super::strtod::{engine_nearest, engine_reading, engine_text, engine_value};

/// For a double no text brings back exactly through the engine's reading: the text
/// written for it (the nearest the engine reads) and what the engine reads from it.
pub(crate) fn unreadable(x: f64) -> Option<(String, f64)> {
    engine_nearest(x)
}

/// The engine's reading of a float token, when it is not the nearest double.
pub(crate) fn engine_float(token: &str) -> Option<f64> {
    if !token.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        return None; // an int
    }
    let engine = engine_value(token)?;
    let ours = token.parse::<f64>().ok()?;
    (engine.to_bits() != ours.to_bits()).then_some(engine)
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
/// when the engine reads it back to `x`, else text it reads back exactly; `None` when
/// `shortest` is it.
pub(crate) fn f32_text(x: f32, shortest: &str) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    if shortest == "-0" {
        return Some("-0.0".into()); // the engine reads `-0` as the int 0
    }
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
pub(crate) fn f64_text(x: f64, shortest: &str, float: bool) -> Option<String> {
    if !x.is_finite() {
        return None;
    }
    if shortest == "-0" {
        return Some("-0.0".into()); // the engine reads `-0` as the int 0
    }
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
    // No exact text: the nearest the engine reads, not text it reads as 0.
    engine_text(x, shortest).or_else(|| engine_nearest(x).map(|(t, _)| t))
}

#[cfg(test)]
mod tests {
    use super::super::syntax::Style;
    use super::*;
    use godot_bin::{Variant, Vector2, Vector3};

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
        let text = |v: Variant| super::super::syntax::print_value(&v, Style::GODOT4);
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
