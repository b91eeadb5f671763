//! The encoder's shortcuts held to its general paths: an `f32` written without the trip
//! through `f64`, struct keys folded into the caller, and the buffer reserved from a
//! container's first element (which must never keep more memory than doubling would).

use godot_bin::{Config, Dialect, ErrorKind};
use serde::Serialize;

/// Every class of f32: zeros, normals, subnormals, the extremes, infinities and NaNs with
/// several payloads and both signs.
fn f32_samples() -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.5,
        -0.1,
        f32::MIN_POSITIVE,
        f32::MIN_POSITIVE / 8.0,
        -f32::from_bits(1),
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        -f32::NAN,
    ];
    v.extend([0x7FC0_0001u32, 0x7F80_0001, 0xFFFF_FFFF].map(f32::from_bits));
    v
}

#[test]
fn an_f32_is_written_as_the_same_value_as_an_f64() {
    // The f32 path's packet is the f64 path's for the same number, in every dialect: 32-bit
    // for every value but NaN, which the general path writes 64-bit where it can.
    for d in Dialect::ALL {
        let cfg = Config::new(d);
        for x in f32_samples() {
            let narrow = cfg.to_vec(&x);
            let wide = cfg.to_vec(&f64::from(x));
            match (&narrow, &wide) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{d} {x:?} ({:#x})", x.to_bits()),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{d} {x:?}"),
                _ => panic!("{d} {x:?}: {narrow:?} against {wide:?}"),
            }
            // Inside a struct too (the inlined field path).
            #[derive(Serialize)]
            struct S {
                x: f32,
            }
            #[derive(Serialize)]
            struct W {
                x: f64,
            }
            assert_eq!(
                cfg.to_vec(&S { x }).ok(),
                cfg.to_vec(&W { x: x.into() }).ok(),
                "{d} {x:?}"
            );
        }
    }
    // The NaN case is not vacuous: Godot 4 writes it 64-bit.
    let nan = Config::default().to_vec(&f32::NAN).unwrap();
    assert_eq!(nan.len(), 12);
    assert_eq!(Config::default().to_vec(&1.5f32).unwrap().len(), 8);
}

#[derive(Serialize)]
struct Fields {
    a: i32,
    four: &'static str,
    seventeen_letters: u8,
    #[serde(rename = "")]
    empty: bool,
}

#[test]
fn struct_keys_are_string_packets() {
    // Keys of 1, 4, 17 and 0 bytes (the folded key's length cases), byte for byte.
    let bytes = godot_bin::to_vec(&Fields {
        a: 1,
        four: "x",
        seventeen_letters: 2,
        empty: true,
    })
    .unwrap();
    let mut want = vec![27, 0, 0, 0, 4, 0, 0, 0];
    let key = |want: &mut Vec<u8>, k: &str| {
        want.extend_from_slice(&[4, 0, 0, 0]);
        want.extend_from_slice(&(k.len() as u32).to_le_bytes());
        want.extend_from_slice(k.as_bytes());
        want.resize(want.len().next_multiple_of(4), 0);
    };
    key(&mut want, "a");
    want.extend_from_slice(&[2, 0, 0, 0, 1, 0, 0, 0]);
    key(&mut want, "four");
    key(&mut want, "x");
    key(&mut want, "seventeen_letters");
    want.extend_from_slice(&[2, 0, 0, 0, 2, 0, 0, 0]);
    key(&mut want, "");
    want.extend_from_slice(&[1, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(bytes, want);

    // A field name holding a NUL is refused, as any such text is.
    #[derive(Serialize)]
    struct Nul {
        #[serde(rename = "a\0b")]
        x: i32,
    }
    let err = godot_bin::to_vec(&Nul { x: 1 }).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
}

#[test]
fn a_guess_from_a_large_first_element_is_given_back() {
    // The first element is 100 KB and the other 999 are empty: the guess from the first
    // (16 MiB, the cap) is far past what is written, and must not stay in the buffer.
    let mut v = vec![String::new(); 1000];
    v[0] = "x".repeat(100_000);
    let bytes = godot_bin::to_vec(&v).unwrap();
    assert_eq!(bytes.len(), 8 + 8 + 100_000 + 999 * 8);
    assert!(
        bytes.capacity() <= 2 * bytes.len(),
        "capacity {} for {} bytes",
        bytes.capacity(),
        bytes.len()
    );
    // Equal elements: the guess covers them all (one growth), and is not given back.
    let same = vec![[1u32, 2, 3, 4]; 1000];
    let bytes = godot_bin::to_vec(&same).unwrap();
    assert!(bytes.capacity() <= 2 * bytes.len());
}

#[test]
fn a_callers_buffer_keeps_its_capacity() {
    // append_to_vec gives back only what the serializer's guess added, never the caller's.
    let mut out = Vec::with_capacity(1 << 20);
    Config::default()
        .append_to_vec(&mut out, &[1u8, 2, 3])
        .unwrap();
    assert!(out.capacity() >= 1 << 20);
    let mut v = vec![String::new(); 1000];
    v[0] = "x".repeat(100_000);
    let mut out = Vec::with_capacity(1 << 20);
    Config::default().append_to_vec(&mut out, &v).unwrap();
    assert!(out.capacity() >= 1 << 20);
    let mut out = vec![7u8; 3];
    Config::default().append_to_vec(&mut out, &v).unwrap();
    assert_eq!(out[..3], [7, 7, 7]);
    assert!(out.capacity() <= 2 * out.len());
}
