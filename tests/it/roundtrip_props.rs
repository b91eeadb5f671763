//! Property tests for every dialect: any Variant the dialect can express encodes and decodes
//! to an equal value (and the same bytes again); one it cannot express is a clear error.

use godot_bin::*;
use proptest::prelude::*;

/// A finite f32 (NaN is never equal to itself, so it is checked separately).
fn real() -> impl Strategy<Value = f32> {
    prop::num::f32::NORMAL | prop::num::f32::ZERO | prop::num::f32::SUBNORMAL
}

/// Text the engine reads back as written: no NUL (its text ends there), no leading BOM.
fn text() -> impl Strategy<Value = String> {
    "[^\u{0}\u{feff}]{0,12}"
}

fn v2() -> impl Strategy<Value = Vector2> {
    (real(), real()).prop_map(|(x, y)| Vector2::new(x, y))
}
fn v3() -> impl Strategy<Value = Vector3> {
    (real(), real(), real()).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}
fn v4() -> impl Strategy<Value = Vector4> {
    (real(), real(), real(), real()).prop_map(|(x, y, z, w)| Vector4::new(x, y, z, w))
}
fn v2i() -> impl Strategy<Value = Vector2i> {
    any::<(i32, i32)>().prop_map(|(x, y)| Vector2i::new(x, y))
}
fn v3i() -> impl Strategy<Value = Vector3i> {
    any::<(i32, i32, i32)>().prop_map(|(x, y, z)| Vector3i::new(x, y, z))
}
fn v4i() -> impl Strategy<Value = Vector4i> {
    any::<(i32, i32, i32, i32)>().prop_map(|(x, y, z, w)| Vector4i::new(x, y, z, w))
}
fn color() -> impl Strategy<Value = Color> {
    v4().prop_map(|v| Color::from_rgba(v.x, v.y, v.z, v.w))
}
fn basis() -> impl Strategy<Value = Basis> {
    (v3(), v3(), v3()).prop_map(|(a, b, c)| Basis { rows: [a, b, c] })
}

/// Leaves that every dialect of this crate has.
fn common_leaf(wide: bool) -> BoxedStrategy<Variant> {
    let int = if wide {
        any::<i64>().boxed()
    } else {
        any::<i32>().prop_map(i64::from).boxed()
    };
    let float = if wide {
        prop::num::f64::NORMAL.boxed()
    } else {
        real().prop_map(f64::from).boxed()
    };
    prop_oneof![
        Just(Variant::Nil),
        any::<bool>().prop_map(Variant::Bool),
        int.prop_map(Variant::Int),
        float.prop_map(Variant::Float),
        text().prop_map(Variant::String),
        v2().prop_map(Variant::from),
        (v2(), v2()).prop_map(|(p, s)| Variant::from(Rect2::new(p, s))),
        v3().prop_map(Variant::from),
        (v2(), v2(), v2()).prop_map(|(x, y, origin)| Variant::from(Transform2D { x, y, origin })),
        (v3(), real()).prop_map(|(n, d)| Variant::from(Plane::new(n, d))),
        v4().prop_map(|v| Variant::from(Quaternion::new(v.x, v.y, v.z, v.w))),
        (v3(), v3()).prop_map(|(position, size)| Variant::from(Aabb { position, size })),
        basis().prop_map(Variant::from),
        (basis(), v3()).prop_map(|(basis, origin)| Variant::from(Transform3D { basis, origin })),
        color().prop_map(Variant::from),
        (
            prop::collection::vec(text(), 0..3),
            prop::collection::vec(text(), 0..3),
            any::<bool>()
        )
            .prop_map(|(names, subnames, absolute)| {
                // The engine reads an empty absolute path as relative (`src/packet/nodepath.rs`).
                let absolute = absolute && !(names.is_empty() && subnames.is_empty());
                Variant::from(NodePath {
                    names,
                    subnames,
                    absolute,
                })
            }),
        Just(Variant::Rid(Rid(0))),
        prop::collection::vec(any::<u8>(), 0..9).prop_map(|v| Variant::from(PackedByteArray(v))),
        prop::collection::vec(any::<i32>(), 0..4).prop_map(|v| Variant::from(PackedInt32Array(v))),
        prop::collection::vec(real(), 0..4).prop_map(|v| Variant::from(PackedFloat32Array(v))),
        prop::collection::vec(text(), 0..4).prop_map(|v| Variant::from(PackedStringArray(v))),
        prop::collection::vec(v2(), 0..3).prop_map(|v| Variant::from(PackedVector2Array(v))),
        prop::collection::vec(v3(), 0..3).prop_map(|v| Variant::from(PackedVector3Array(v))),
        prop::collection::vec(color(), 0..3).prop_map(|v| Variant::from(PackedColorArray(v))),
    ]
    .boxed()
}

/// Leaves that only Godot 4 can express (neither Godot 3 nor Godot 2 can).
fn godot4_leaf() -> BoxedStrategy<Variant> {
    prop_oneof![
        v2i().prop_map(Variant::from),
        (v2i(), v2i()).prop_map(|(p, s)| Variant::from(Rect2i::new(p, s))),
        v3i().prop_map(Variant::from),
        v4().prop_map(Variant::from),
        v4i().prop_map(Variant::from),
        (v4(), v4(), v4(), v4()).prop_map(|(a, b, c, d)| Variant::from(Projection {
            columns: [a, b, c, d]
        })),
        text().prop_map(|s| Variant::from(StringName(s))),
        (1..u64::MAX).prop_map(|id| Variant::from(Rid(id))),
        Just(Variant::from(Callable)),
        (text(), any::<u64>()).prop_map(|(name, object)| Variant::from(Signal { name, object })),
        prop::collection::vec(any::<i64>(), 0..3).prop_map(|v| Variant::from(PackedInt64Array(v))),
        prop::collection::vec(prop::num::f64::NORMAL, 0..3)
            .prop_map(|v| Variant::from(PackedFloat64Array(v))),
        prop::collection::vec(v4(), 0..3).prop_map(|v| Variant::from(PackedVector4Array(v))),
        prop::collection::vec(any::<i64>(), 0..3).prop_map(|v| {
            Variant::Array(Array::typed(
                ElementType::Builtin(VariantType::Int),
                v.into_iter().map(Variant::Int).collect(),
            ))
        }),
    ]
    .boxed()
}

fn pandemonium_leaf() -> BoxedStrategy<Variant> {
    prop_oneof![
        v2i().prop_map(Variant::from),
        v3i().prop_map(Variant::from),
        text().prop_map(|s| Variant::from(StringName(s))),
        any::<u64>().prop_map(|id| Variant::from(ObjectId(id))),
        prop::collection::vec(v2i(), 0..3).prop_map(|v| Variant::from(PackedVector2iArray(v))),
        prop::collection::vec(v3i(), 0..3).prop_map(|v| Variant::from(PackedVector3iArray(v))),
    ]
    .boxed()
}

fn pandemonium38_leaf() -> BoxedStrategy<Variant> {
    prop_oneof![
        v4().prop_map(Variant::from),
        v4i().prop_map(Variant::from),
        prop::collection::vec(v4(), 0..3).prop_map(|v| Variant::from(PackedVector4Array(v))),
        prop::collection::vec(v4i(), 0..3).prop_map(|v| Variant::from(PackedVector4iArray(v))),
    ]
    .boxed()
}

fn godot2_leaf() -> BoxedStrategy<Variant> {
    let image = (
        0u32..23,
        any::<(u32, u32, u32)>(),
        prop::collection::vec(any::<u8>(), 0..9),
    )
        .prop_map(|(format, (mipmaps, width, height), data)| {
            Variant::from(Image {
                format,
                mipmaps,
                width,
                height,
                data,
            })
        });
    let event = (0u32..9, any::<u32>(), any::<bool>(), any::<(u32, u32)>()).prop_map(
        |(t, device, long, (a, b))| {
            let extra = [a, b][..InputEventWords::of(t, long)].to_vec();
            Variant::from(InputEvent {
                event_type: t,
                device,
                extra,
            })
        },
    );
    prop_oneof![image, event, Just(Variant::ObjectId(ObjectId(0)))].boxed()
}

/// The extra words of a Godot 2 InputEvent type (`src/packet/godot2.rs`, `InputEvent`).
struct InputEventWords;
impl InputEventWords {
    fn of(event_type: u32, long_joystick: bool) -> usize {
        match event_type {
            1 => 2,
            4 if long_joystick => 2,
            3..=6 => 1,
            _ => 0,
        }
    }
}

fn leaf(dialect: Dialect) -> BoxedStrategy<Variant> {
    let wide = dialect != Dialect::Godot2;
    let common = common_leaf(wide);
    match dialect {
        Dialect::Godot4 => prop_oneof![
            3 => common,
            1 => godot4_leaf(),
            1 => any::<u64>().prop_map(|id| Variant::from(ObjectId(id))),
            1 => any::<u64>().prop_map(|id| Variant::from(Rid(id))),
        ]
        .boxed(),
        Dialect::Godot2 => prop_oneof![3 => common, 1 => godot2_leaf()].boxed(),
        Dialect::Pandemonium => {
            prop_oneof![3 => common, 1 => pandemonium_leaf(), 1 => pandemonium38_leaf()].boxed()
        }
        Dialect::Pandemonium5 => prop_oneof![
            3 => common,
            1 => pandemonium_leaf(),
            1 => pandemonium38_leaf(),
            1 => (prop::collection::vec(any::<i64>(), 0..3), any::<bool>()).prop_map(|(v, packed)| {
                let items = v.into_iter().map(Variant::Int).collect();
                let a = Array::typed(ElementType::Builtin(VariantType::Int), items);
                if packed { Variant::PackedTypedArray(a) } else { Variant::Array(a) }
            }),
        ]
        .boxed(),
        Dialect::Pandemonium37 => prop_oneof![3 => common, 1 => pandemonium_leaf()].boxed(),
        _ => prop_oneof![
            common,
            any::<u64>().prop_map(|id| Variant::from(ObjectId(id)))
        ]
        .boxed(),
    }
}

fn variant(dialect: Dialect) -> impl Strategy<Value = Variant> {
    leaf(dialect).prop_recursive(3, 24, 4, move |inner| {
        let shared = dialect == Dialect::Godot2;
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), any::<bool>()).prop_map(
                move |(items, s)| Variant::Array(Array {
                    shared: s && shared,
                    ..Array::from(items)
                })
            ),
            prop::collection::vec((inner.clone(), inner), 0..4)
                .prop_map(|entries| Variant::from(Dictionary::from(entries))),
        ]
    })
}

fn round_trip(dialect: Dialect, v: &Variant) -> Result<(), TestCaseError> {
    let cfg = Config::new(dialect);
    let bytes = cfg
        .to_vec(v)
        .map_err(|e| TestCaseError::fail(format!("{dialect}: encode {v:?}: {e}")))?;
    let back: Variant = cfg
        .from_slice(&bytes)
        .map_err(|e| TestCaseError::fail(format!("{dialect}: decode: {e}")))?;
    prop_assert!(
        back.eq_ordered(v),
        "{:?} != {:?} (Dictionaries in order)",
        back,
        v
    );
    prop_assert_eq!(cfg.to_vec(&back).unwrap(), bytes);
    Ok(())
}

macro_rules! dialect_props {
    ($($name:ident => $dialect:expr),*) => {$(
        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]
            #[test]
            fn $name(v in variant($dialect)) {
                round_trip($dialect, &v)?;
            }
        }
    )*};
}

dialect_props! {
    godot4_round_trips => Dialect::Godot4,
    godot3_round_trips => Dialect::Godot3,
    godot2_round_trips => Dialect::Godot2,
    pandemonium_round_trips => Dialect::Pandemonium,
    pandemonium37_round_trips => Dialect::Pandemonium37,
    pandemonium5_round_trips => Dialect::Pandemonium5
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    /// A value of a type the dialect lacks is an error naming the type, wherever it is nested.
    #[test]
    fn types_outside_the_dialect_are_errors(depth in 0usize..4, v in godot4_leaf()) {
        for dialect in [Dialect::Godot3, Dialect::Godot2] {
            let mut nested = v.clone();
            for _ in 0..depth {
                nested = Variant::from(vec![Variant::Int(1), nested]);
            }
            let err = Config::new(dialect).to_vec(&nested).unwrap_err();
            prop_assert!(
                matches!(err.kind(), ErrorKind::TypeNotInDialect { .. } | ErrorKind::Unsupported(_)),
                "{}: {:?}: {}", dialect, v, err
            );
        }
    }

    /// NaN survives as NaN (with its bits) in every dialect.
    #[test]
    fn nan_survives(bits in any::<u32>()) {
        let nan = f32::from_bits(bits | 0x7fc0_0000) as f64;
        for dialect in Dialect::ALL {
            let cfg = Config::new(dialect);
            let back: f64 = cfg.from_slice(&cfg.to_vec(&nan).unwrap()).unwrap();
            prop_assert!(back.is_nan());
        }
    }
}
