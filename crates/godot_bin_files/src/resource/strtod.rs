//! How the engines turn a number's text into a double when they read a file.
//!
//! Godot 3 and 4 read every float of a resource or ConfigFile with `String::to_float` /
//! `to_double`, whose `built_in_strtod` is Tcl's `strtod`: up to 18 mantissa digits
//! gathered in two 9-digit integers and joined in a double (`1e9 * frac1 + frac2`), then
//! multiplied or divided by 10^|exp| built from the powers 10^(2^i). Each step rounds, so
//! the result can be one unit in the last place away from the nearest double (Rust's
//! `str::parse`); an exponent past 511 is cut to 511, and 10^exp past the largest double
//! is infinity, so `4.94066e-324` reads as 0 and `1e-320` as 0.
//!
//! The crate's text parser rounds correctly. So that a file reads to the values the engine
//! reads from it, each float whose two readings differ is rewritten, before parsing, as
//! the shortest text that reads back exactly to the engine's double ([`engine_value`]);
//! and a value printed into a file is checked the other way ([`engine_text`]): where the
//! engine would read the shortest text to another double, longer text is written, the
//! shortest the engine reads back to the value.

const POWERS_OF_10: [f64; 9] = [
    10., 100., 1.0e4, 1.0e8, 1.0e16, 1.0e32, 1.0e64, 1.0e128, 1.0e256,
];
const MAX_EXPONENT: i64 = 511;

/// The double the engine reads from the number text `s` (an optional sign, digits with at
/// most one `.`, an optional exponent); `None` when `s` is not such a number.
pub(crate) fn engine_value(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut p = 0;
    let negative = match b.first() {
        Some(b'-') => {
            p = 1;
            true
        }
        Some(b'+') => {
            p = 1;
            false
        }
        _ => false,
    };
    let mant_start = p;
    let mut dec_pt: Option<usize> = None;
    let mut mant_size = 0;
    while p < b.len() {
        match b[p] {
            b'0'..=b'9' => {}
            b'.' if dec_pt.is_none() => dec_pt = Some(mant_size),
            _ => break,
        }
        p += 1;
        mant_size += 1;
    }
    let p_exp = p;
    let dec_pt = match dec_pt {
        Some(d) => {
            mant_size -= 1;
            d
        }
        None => mant_size,
    } as i64;
    let mut frac_exp;
    let mut mant = mant_size;
    if mant > 18 {
        frac_exp = dec_pt - 18;
        mant = 18;
    } else {
        frac_exp = dec_pt - mant as i64;
    }
    if mant == 0 {
        return None;
    }
    let digits = b[mant_start..p_exp].iter().filter(|c| c.is_ascii_digit());
    let (mut frac1, mut frac2) = (0i64, 0i64);
    for (k, c) in digits.take(mant).enumerate() {
        let d = i64::from(c - b'0');
        if mant - k > 9 {
            frac1 = 10 * frac1 + d;
        } else {
            frac2 = 10 * frac2 + d;
        }
    }
    let mut fraction = 1.0e9 * frac1 as f64 + frac2 as f64;
    let mut q = p_exp;
    let mut exp: i64 = 0;
    if q < b.len() && (b[q] == b'e' || b[q] == b'E') {
        q += 1;
        let exp_negative = match b.get(q) {
            Some(b'-') => {
                q += 1;
                true
            }
            Some(b'+') => {
                q += 1;
                false
            }
            _ => false,
        };
        if !b.get(q).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while q < b.len() && b[q].is_ascii_digit() {
            exp = (exp * 10 + i64::from(b[q] - b'0')).min(1 << 40);
            q += 1;
        }
        if exp_negative {
            exp = -exp;
        }
    }
    if q != b.len() {
        return None;
    }
    frac_exp += exp;
    let divide = frac_exp < 0;
    let mut e = frac_exp.unsigned_abs().min(MAX_EXPONENT as u64);
    let mut dbl_exp = 1.0f64;
    let mut d = 0;
    while e != 0 {
        if e & 1 == 1 {
            dbl_exp *= POWERS_OF_10[d];
        }
        e >>= 1;
        d += 1;
    }
    if divide {
        fraction /= dbl_exp;
    } else {
        fraction *= dbl_exp;
    }
    Some(if negative { -fraction } else { fraction })
}

/// Text for `x` that the engine reads back to exactly `x`, as short as possible, when the
/// shortest round-trip text `shortest` does not: `None` when `shortest` already does (or
/// no text up to 17 significant digits does).
pub(crate) fn engine_text(x: f64, shortest: &str) -> Option<String> {
    let exact = |t: &str| engine_reading(t).is_some_and(|v| v.to_bits() == x.to_bits());
    if !x.is_finite() || exact(shortest) {
        return None;
    }
    for digits in 1..=17usize {
        // Candidates: the correctly rounded digits, and one unit above and below.
        let (neg, n, exp) = rounded(x, digits);
        for m in [n, n + 1, n.saturating_sub(1)] {
            for text in layouts(neg, m, digits, exp) {
                if exact(&text) {
                    return Some(text);
                }
            }
        }
    }
    // The engine's own rounding (its mantissa joined from two 9-digit halves rounds past
    // 2^53, and its division by a power of ten rounds again) reaches only some doubles
    // from each number of digits, on grids that differ: search wider around the value at
    // 15 to 18 digits.
    for digits in 15usize..=18 {
        let (neg, n, exp) = rounded(x, digits);
        for k in 1..=WIDE {
            for m in [n + k, n.saturating_sub(k)] {
                for text in layouts(neg, m, digits, exp) {
                    if exact(&text) {
                        return Some(text);
                    }
                }
            }
        }
    }
    None
}

/// How many units of the last digit [`engine_text`] tries on each side at 15 to 18
/// digits.
const WIDE: u64 = 200;

/// When no text reads back to exactly `x` (a double so small that 10^digits overflows in
/// the engine's division, e.g. `-5.013316528478497e-299`, which every exact text brings
/// to 0): the text whose reading is nearest to `x`, and that reading. `None` when `x`
/// has exact text, or is not finite.
pub(crate) fn engine_nearest(x: f64) -> Option<(String, f64)> {
    if !x.is_finite() || engine_text(x, &format!("{x:e}")).is_some() || exact_somewhere(x) {
        return None;
    }
    // Distance in units in the last place, with the signs' order kept.
    let key = |v: f64| {
        let b = v.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    let mut best: Option<(String, f64, u64)> = None;
    for digits in 1..=17usize {
        let (neg, n, exp) = rounded(x, digits);
        for m in [n, n + 1, n.saturating_sub(1)] {
            for text in layouts(neg, m, digits, exp) {
                if let Some(v) = engine_reading(&text) {
                    let d = key(v).abs_diff(key(x));
                    if best.as_ref().is_none_or(|b| d < b.2) {
                        best = Some((text, v, d));
                    }
                }
            }
        }
    }
    best.map(|(t, v, _)| (t, v))
}

/// Whether the shortest text reads back exactly (the common case, checked first).
fn exact_somewhere(x: f64) -> bool {
    let shortest = format!("{x:?}");
    engine_reading(&shortest).is_some_and(|v| v.to_bits() == x.to_bits())
}

/// What the engine reads from a number token: a token without `.` or an exponent is an
/// int (`-0` is 0, so a float -0.0 needs `-0.0`), others go through [`engine_value`].
pub(crate) fn engine_reading(t: &str) -> Option<f64> {
    if t.bytes().any(|b| matches!(b, b'.' | b'e' | b'E')) {
        engine_value(t)
    } else {
        t.parse::<i64>().ok().map(|i| i as f64)
    }
}

/// `x` correctly rounded to `digits` significant digits: its sign, the digits as an
/// integer and the decimal exponent of the first (as `{:e}` gives them).
fn rounded(x: f64, digits: usize) -> (bool, u64, i32) {
    let sci = format!("{:.*e}", digits - 1, x);
    let (mant, exp) = sci.split_once('e').expect("{:e} has an exponent");
    let exp: i32 = exp.parse().expect("an integer exponent");
    let n: u64 = mant
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("digits");
    (mant.starts_with('-'), n, exp)
}

/// The texts tried for the digits `m`: laid out as `%g` would, and, when that puts zeros
/// before the digits (`0.00123`), with an exponent too: the engine counts those zeros
/// among the 18 mantissa digits it reads, so `1.23e-03` can say what `0.00123...` cannot.
fn layouts(neg: bool, m: u64, digits: usize, exp: i32) -> Vec<String> {
    let plain = layout(neg, m, digits, exp);
    let sci = sci_layout(neg, m, digits, exp);
    if sci == plain {
        vec![plain]
    } else {
        vec![plain, sci]
    }
}

/// `d.ddde±XX`, whatever the exponent.
fn sci_layout(neg: bool, m: u64, digits: usize, exp: i32) -> String {
    let mut s = m.to_string();
    let exp = exp + (s.len() as i32 - digits as i32);
    while s.len() > 1 && s.ends_with('0') {
        s.pop();
    }
    let (a, b) = s.split_at(1);
    let b = if b.is_empty() {
        String::new()
    } else {
        format!(".{b}")
    };
    format!(
        "{}{a}{b}e{}{:02}",
        if neg { "-" } else { "" },
        if exp < 0 { '-' } else { '+' },
        exp.abs()
    )
}

/// `0.mmm x 10^(exp+1)` laid out as `%g` would: plain digits when the exponent is small,
/// else `d.ddde±XX`; always with a `.` or an exponent so it reads as a float.
fn layout(neg: bool, m: u64, digits: usize, exp0: i32) -> String {
    let mut s = m.to_string();
    // `m` may have gained a digit (999 + 1).
    let exp = exp0 + (s.len() as i32 - digits as i32);
    let sign = if neg { "-" } else { "" };
    while s.len() > 1 && s.ends_with('0') {
        s.pop();
    }
    if (-5..17).contains(&exp) {
        if exp < 0 {
            format!("{sign}0.{}{s}", "0".repeat((-exp - 1) as usize))
        } else if (exp as usize) < s.len() - 1 {
            format!("{sign}{}.{}", &s[..=exp as usize], &s[exp as usize + 1..])
        } else {
            format!("{sign}{s}{}.0", "0".repeat(exp as usize + 1 - s.len()))
        }
    } else {
        sci_layout(neg, m, digits, exp0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_as_the_engine_reads() {
        // Exact cases agree with correct rounding.
        for s in [
            "0",
            "1.5",
            "-2.25",
            "1e+20",
            "0.1",
            "123456",
            "1e-05",
            "3.40282e+38",
        ] {
            assert_eq!(engine_value(s), Some(s.parse::<f64>().unwrap()), "{s}");
        }
        // Past the largest power of ten: zero and infinity, as in the engine.
        assert_eq!(engine_value("4.94066e-324"), Some(0.0));
        assert_eq!(engine_value("1e+400"), Some(f64::INFINITY));
        assert_eq!(
            engine_value("-0.0").map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        assert_eq!(engine_value("1e"), None);
        assert_eq!(engine_value("x"), None);
    }

    #[test]
    fn finds_text_the_engine_reads_back() {
        let mut rewritten = 0;
        let mut x = 0.7f64;
        for _ in 0..2000 {
            x = (x * 3.7 + 0.13).fract() * 1e3 - 500.0;
            let shortest = format!("{x:?}");
            if let Some(t) = engine_text(x, &shortest) {
                assert_eq!(engine_value(&t).unwrap().to_bits(), x.to_bits(), "{t}");
                rewritten += 1;
            }
        }
        assert!(rewritten < 2000);
    }

    #[test]
    fn small_values_take_an_exponent_when_leading_zeros_cost_digits() {
        // A 32-bit 0.001 as a double: Godot 3.2.3 reads `0.00100000004749745` (and
        // `0.0010000000474974513`: 18 digits read, zeros included) 6 units away.
        let x = f64::from(0.001f32);
        let t = engine_text(x, &format!("{x:?}")).expect("exact text");
        assert_eq!(engine_value(&t).map(f64::to_bits), Some(x.to_bits()), "{t}");
        assert!(t.contains('e'), "{t}");
        assert_ne!(
            engine_value("0.0010000000474974513").map(f64::to_bits),
            Some(x.to_bits())
        );
    }

    #[test]
    fn tiny_doubles_get_the_nearest_text_the_engine_reads() {
        // Godot 4.4.1 reads this text (the shortest) as -0.0 (issue 41 #5).
        let x = -5.013316528478497e-299;
        assert_eq!(engine_value("-5.013316528478497e-299"), Some(-0.0));
        let (text, read) = engine_nearest(x).expect("no exact text exists");
        assert_eq!(engine_value(&text), Some(read));
        assert!(
            read < 0.0 && (read - x).abs() < x.abs() * 1e-9,
            "{text} -> {read:e}"
        );
        // Ordinary values have exact text.
        assert_eq!(engine_nearest(0.1), None);
        assert_eq!(engine_nearest(1e300), None);
    }
}
