//! Floats in text files against both engines (issue 41 #5): thousands of doubles (random
//! bits, subnormals, values near the smallest and largest powers of ten) printed by the
//! crate into a ConfigFile, which the engine loads with `ConfigFile.load` (the same
//! `VariantParser` and `String::to_float` every text resource goes through). The engine
//! must load each to the bits the crate reads back from its own text: the crate's model
//! of the engine's float reading (`resource/strtod.rs`) is right, and where a double has
//! text the engine reads back, the crate writes that text. Where none has (values below
//! about 1e-290, whose digits overflow the engine's powers of ten, and a few others its
//! two roundings skip) the crate writes the text read nearest, and conversions say so.

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::{godot3, godot4};
use godot_bin::{Array, Config, Dialect, Variant};
use godot_bin_files::ConfigFile;
use libtest_mimic::Trial;

const COUNT: usize = 3000;

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial("resources::floats::godot4", |e| {
            let (text, want) = file(Dialect::Godot4);
            let res = godot4::run_script(
                e,
                "var c = ConfigFile.new()\nif c.load(\"res://in.cfg\") != OK:\n\treturn\nwrite_bytes(\"out.bin\", var_to_bytes(c.get_value(\"f\", \"v\")))",
                &[("in.cfg", text.as_bytes())],
            );
            res.assert_ok();
            check(&res.read_file("out.bin"), Dialect::Godot4, &want);
        }),
        godot3_trial("resources::floats::godot3", |e| {
            let (text, want) = file(Dialect::Godot3);
            let res = godot3::run_script(
                e,
                "var c = ConfigFile.new()\nif c.load(\"res://in.cfg\") != OK:\n\treturn\nwrite_bytes(\"out.bin\", var2bytes(c.get_value(\"f\", \"v\")))",
                &[("in.cfg", text.as_bytes())],
            );
            res.assert_ok();
            check(&res.read_file("out.bin"), Dialect::Godot3, &want);
        }),
    ]
}

/// The doubles: every kind of magnitude, the issue's own value first.
fn doubles() -> Vec<f64> {
    let mut out = vec![
        -5.013316528478497e-299,
        5e-324,
        -2.2250738585072014e-308,
        1e308,
    ];
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    while out.len() < COUNT {
        let r = next();
        let x = match out.len() % 5 {
            0 => f64::from_bits(r),
            1 => f64::from_bits(r & 0x800F_FFFF_FFFF_FFFF), // subnormal
            2 => f64::from_bits((r & 0x803F_FFFF_FFFF_FFFF) | 0x0010_0000_0000_0000), // tiny
            // A 32-bit property's value below 0.1 (0.001 as f32: its plain decimal text
            // spends digits on leading zeros, which the engine counts).
            3 => f64::from((r as f64 / u64::MAX as f64 * 0.1) as f32),
            _ => (r as f64 / u64::MAX as f64 - 0.5) * 10f64.powi((r % 40) as i32 - 20),
        };
        if x.is_finite() {
            out.push(x);
        }
    }
    out
}

/// The crate's file, and the doubles it reads back from its own text.
fn file(dialect: Dialect) -> (String, Vec<f64>) {
    let values: Vec<Variant> = doubles().into_iter().map(Variant::Float).collect();
    let mut cfg = ConfigFile::with_dialect(dialect);
    cfg.set("f", "v", Variant::Array(Array::from(values.clone())));
    let text = cfg.to_string();
    let back = ConfigFile::parse(&text).expect("the crate reads its own text");
    let Some(Variant::Array(read)) = back.get("f", "v") else {
        panic!("no array read back");
    };
    let read: Vec<f64> = read
        .iter()
        .map(|v| v.as_float().expect("a float"))
        .collect();
    // Where the crate's reading differs from the value, no text brings it back: only for
    // values whose digits overflow the engine's powers of ten.
    let mut inexact = 0;
    let mut normal = 0;
    for (v, r) in values.iter().zip(&read) {
        let x = v.as_float().unwrap_or_default();
        if x.to_bits() != r.to_bits() {
            inexact += 1;
            if x.abs() >= 1e-290 {
                normal += 1;
                if normal <= 3 {
                    println!(
                        "{dialect:?}: {x:e} has no exact text; written nearest, read as {r:e}"
                    );
                }
            }
        }
    }
    println!(
        "{dialect:?}: {} doubles, {inexact} with no text the engine reads back ({normal} of them above 1e-290)",
        values.len()
    );
    // Outside the tiny values, a double that no decimal text reaches through the engine's
    // two roundings (its joined mantissa, its division): about 1 in 60 here.
    assert!(normal * 20 < values.len(), "{normal}");
    (text, read)
}

fn check(packet: &[u8], dialect: Dialect, want: &[f64]) {
    let v: Variant = Config::new(dialect)
        .from_slice(packet)
        .expect("the engine's array decodes");
    let Variant::Array(got) = v else {
        panic!("not an array: {v}")
    };
    assert_eq!(got.len(), want.len());
    let mut differ = Vec::new();
    for (g, w) in got.iter().zip(want) {
        let g = g.as_float().expect("a float");
        if g.to_bits() != w.to_bits() {
            differ.push(format!("engine {g:e}, crate {w:e}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {}: {:?}",
        differ.len(),
        want.len(),
        &differ[..differ.len().min(10)]
    );
}
