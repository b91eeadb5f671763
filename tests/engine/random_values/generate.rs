//! The crate → engine generator: seeded random [`Variant`]s of every type a dialect has,
//! built from proptest strategies (drawn with a fixed-seed `TestRng`, so a seed gives the
//! same values on every machine).
//!
//! A value holds either objects sent as ids or full objects, never both (the engine's
//! `full_objects` decides for the whole packet). Full objects are `RefCounted` (`Reference`
//! in Godot 3) with only what such an object stores: `script` = null, then metadata (Godot
//! 4's `metadata/NAME` properties, Godot 3's `__meta__` Dictionary).

use godot_bin::*;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::{BoxedStrategy, ValueTree};
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestRng, TestRunner};

type S<T> = BoxedStrategy<T>;

/// `count` values for `dialect`, each with whether its objects travel in full.
pub fn values(dialect: Dialect, seed: u64, count: usize) -> Vec<(Variant, bool)> {
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    seed_bytes[8..16].copy_from_slice(&(dialect as u64).to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        PtConfig::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes),
    );
    let plain = top(Gen {
        dialect,
        full: false,
    });
    let full = top(Gen {
        dialect,
        full: true,
    });
    (0..count)
        .map(|i| {
            let is_full = i % 5 == 4;
            let strategy = if is_full { &full } else { &plain };
            let value = strategy
                .new_tree(&mut runner)
                .expect("the strategies never reject")
                .current();
            (value, is_full)
        })
        .collect()
}

#[derive(Clone, Copy)]
struct Gen {
    dialect: Dialect,
    full: bool,
}

/// Godot 4 builtin leaf types (containers and objects aside).
const LEAVES4: &[VariantType] = &[
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Vector2i,
    VariantType::Rect2,
    VariantType::Rect2i,
    VariantType::Vector3,
    VariantType::Vector3i,
    VariantType::Transform2D,
    VariantType::Vector4,
    VariantType::Vector4i,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Transform3D,
    VariantType::Projection,
    VariantType::Color,
    VariantType::StringName,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::Callable,
    VariantType::Signal,
    VariantType::PackedByteArray,
    VariantType::PackedInt32Array,
    VariantType::PackedInt64Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedFloat64Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedColorArray,
    VariantType::PackedVector4Array,
];

/// Key types whose order in the engine's text does not depend on memory addresses: in
/// Godot 4 a StringName inside an Array key compares by address, in Godot 3 an object does,
/// and Godot 3's `Pool*Array` `<` may read past the end of the shorter array (Godot 3's
/// pool arrays are keys of their own, [`pool_keys3`], kept apart by [`pool_keys_clash`]).
const KEYS4: &[VariantType] = &[
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Vector2i,
    VariantType::Rect2,
    VariantType::Vector3,
    VariantType::Vector3i,
    VariantType::Vector4,
    VariantType::Vector4i,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Color,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::Callable,
    VariantType::PackedInt32Array,
    VariantType::PackedStringArray,
    VariantType::PackedFloat32Array,
];

const LEAVES3: &[VariantType] = &[
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Rect2,
    VariantType::Vector3,
    VariantType::Transform2D,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Transform3D,
    VariantType::Color,
    VariantType::NodePath,
    VariantType::Rid,
    VariantType::PackedByteArray,
    VariantType::PackedInt32Array,
    VariantType::PackedFloat32Array,
    VariantType::PackedStringArray,
    VariantType::PackedVector2Array,
    VariantType::PackedVector3Array,
    VariantType::PackedColorArray,
];

const KEYS3: &[VariantType] = &[
    VariantType::Nil,
    VariantType::Bool,
    VariantType::Int,
    VariantType::Float,
    VariantType::String,
    VariantType::Vector2,
    VariantType::Rect2,
    VariantType::Vector3,
    VariantType::Transform2D,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Aabb,
    VariantType::Basis,
    VariantType::Color,
    VariantType::NodePath,
    VariantType::Rid,
];

/// Godot 3's pool-array types (the `Packed*` leaves), as Dictionary keys of their own (not
/// inside Array keys): non-empty, and kept apart by [`pool_keys_clash`].
fn pool_keys3() -> impl Iterator<Item = VariantType> {
    LEAVES3
        .iter()
        .copied()
        .filter(|t| t.name().starts_with("Packed"))
}

/// Whether two Dictionary keys are pool arrays of one type that Godot 3's `<` cannot tell
/// apart without reading past the end of one: that `<` reads `b[i]` for every `i` below
/// `a`'s size, beyond a shorter `b` (and an empty `b` has no memory at all: the engine
/// crashes). Two keys of one pool type whose first elements differ (`!=`) are decided at
/// the first element, or by length; the generators keep only such keys. (Equal keys are
/// one key: no clash.) Strings are compared as the engine decodes them, without a leading
/// BOM.
fn pool_keys_clash(a: &Variant, b: &Variant) -> bool {
    fn firsts<T: PartialEq>(x: &[T], y: &[T]) -> bool {
        x != y && (x.is_empty() || y.is_empty() || x[0] == y[0])
    }
    use Variant as V;
    match (a, b) {
        (V::PackedByteArray(x), V::PackedByteArray(y)) => firsts(x, y),
        (V::PackedInt32Array(x), V::PackedInt32Array(y)) => firsts(x, y),
        (V::PackedFloat32Array(x), V::PackedFloat32Array(y)) => firsts(x, y),
        (V::PackedStringArray(x), V::PackedStringArray(y)) => {
            // As the engine holds them: its decoder drops a leading BOM.
            let decoded = |a: &[String]| -> Vec<String> {
                a.iter()
                    .map(|s| s.strip_prefix('\u{feff}').unwrap_or(s).to_owned())
                    .collect()
            };
            firsts(&decoded(x), &decoded(y))
        }
        (V::PackedVector2Array(x), V::PackedVector2Array(y)) => firsts(x, y),
        (V::PackedVector3Array(x), V::PackedVector3Array(y)) => firsts(x, y),
        (V::PackedColorArray(x), V::PackedColorArray(y)) => firsts(x, y),
        _ => false,
    }
}

/// The length of a pool array (0 for any other value).
fn pool_len(v: &Variant) -> usize {
    use Variant as V;
    match v {
        V::PackedByteArray(x) => x.len(),
        V::PackedInt32Array(x) => x.len(),
        V::PackedFloat32Array(x) => x.len(),
        V::PackedStringArray(x) => x.len(),
        V::PackedVector2Array(x) => x.len(),
        V::PackedVector3Array(x) => x.len(),
        V::PackedColorArray(x) => x.len(),
        _ => 0,
    }
}

fn pick<T: Clone + std::fmt::Debug + 'static>(items: &'static [T]) -> S<T> {
    proptest::sample::select(items).boxed()
}

fn int() -> S<i64> {
    prop_oneof![
        -10i64..10,
        any::<i32>().prop_map(i64::from),
        pick(&[
            0,
            -1,
            i32::MAX as i64,
            i32::MIN as i64,
            i32::MAX as i64 + 1,
            i32::MIN as i64 - 1,
            i64::MAX,
            i64::MIN
        ]),
        any::<i64>(),
    ]
    .boxed()
}

fn double() -> S<f64> {
    prop_oneof![
        (-8000i32..8000).prop_map(|n| f64::from(n) / 8.0),
        -1e6f64..1e6,
        pick(&[0.1, 1e-5, 123456.7, 1e20, 0.3, -2.5e-7, 1e300, 3e-300, 0.5]),
        pick(&[
            0u64,
            1 << 63,
            0x7FF0_0000_0000_0000,
            0xFFF0_0000_0000_0000,
            0x7FF8_0000_0000_0000,
            0xFFF8_0000_0000_0000,
            1,
            0x000F_FFFF_FFFF_FFFF,
            0x0010_0000_0000_0000,
            0x7FEF_FFFF_FFFF_FFFF,
            0xFFEF_FFFF_FFFF_FFFF,
            0x8000_0000_0000_0001,
            0x7FF0_0000_0000_0001,
        ])
        .prop_map(f64::from_bits),
        any::<u64>().prop_map(f64::from_bits),
    ]
    .boxed()
}

fn real() -> S<f32> {
    prop_oneof![
        (-400i32..400).prop_map(|n| n as f32 / 4.0),
        -1000f32..1000.0,
        pick(&[
            0u32,
            0x8000_0000,
            0x7F80_0000,
            0xFF80_0000,
            0x7FC0_0000,
            0xFFC0_0000,
            1,
            0x007F_FFFF,
            0x0080_0000,
            0x7F7F_FFFF,
            0x8000_0001,
            0x3DCC_CCCD,
        ])
        .prop_map(f32::from_bits),
        any::<u32>().prop_map(f32::from_bits),
    ]
    .boxed()
}

/// Characters that matter to the text form (quotes, backslashes, C escapes, `?`), some
/// non-ASCII, and a leading BOM now and then (both decoders drop it). Never a NUL: the
/// crate refuses to encode one, since the engine's text ends there.
fn text() -> S<String> {
    let piece = prop_oneof![
        6 => pick(&["a", "b", "Z", "0", "7", " ", "_", "-", ".", "/", ":", "\"", "\\", "\n",
            "\t", "'", "?", "=", "é", "ß", "€", "中", "\u{a0}", "\u{7}", "\r"])
            .prop_map(str::to_owned),
        1 => (0x20u32..0xD800).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        1 => (0x10000u32..0x110000).prop_map(|c| char::from_u32(c).unwrap().to_string()),
    ];
    (prop::bool::weighted(0.1), vec(piece, 0..8))
        .prop_map(|(bom, parts)| {
            let mut s = if bom {
                "\u{FEFF}".to_owned()
            } else {
                String::new()
            };
            s.extend(parts);
            s
        })
        .boxed()
}

fn node_path() -> S<NodePath> {
    let name =
        pick(&["a", "b", "Node2D", "..", ".", "é", "x y", "root", "_1"]).prop_map(str::to_owned);
    prop_oneof![
        1 => Just(NodePath::from("/")),
        1 => Just(NodePath::default()),
        8 => (vec(name.clone(), 0..4), vec(name, 0..3), any::<bool>()).prop_map(
            |(names, subnames, absolute)| NodePath { names, subnames, absolute }
        ),
    ]
    .boxed()
}

fn v2() -> S<Vector2> {
    (real(), real())
        .prop_map(|(x, y)| Vector2::new(x, y))
        .boxed()
}

fn v3() -> S<Vector3> {
    (real(), real(), real())
        .prop_map(|(x, y, z)| Vector3::new(x, y, z))
        .boxed()
}

fn v4() -> S<Vector4> {
    (real(), real(), real(), real())
        .prop_map(|(x, y, z, w)| Vector4 { x, y, z, w })
        .boxed()
}

fn i32s() -> S<i32> {
    prop_oneof![-10i32..10, any::<i32>()].boxed()
}

fn basis() -> S<Basis> {
    (v3(), v3(), v3())
        .prop_map(|(a, b, c)| Basis { rows: [a, b, c] })
        .boxed()
}

impl Gen {
    fn leaves(self) -> &'static [VariantType] {
        if self.dialect == Dialect::Godot4 {
            LEAVES4
        } else {
            LEAVES3
        }
    }

    fn key_types(self) -> &'static [VariantType] {
        if self.dialect == Dialect::Godot4 {
            KEYS4
        } else {
            KEYS3
        }
    }

    /// A value of builtin leaf type `t`.
    fn leaf_of(self, t: VariantType) -> S<Variant> {
        use Variant as V;
        use VariantType as T;
        let godot4 = self.dialect == Dialect::Godot4;
        match t {
            T::Nil => Just(V::Nil).boxed(),
            T::Bool => any::<bool>().prop_map(V::Bool).boxed(),
            T::Int => int().prop_map(V::Int).boxed(),
            T::Float => double().prop_map(V::Float).boxed(),
            T::String => text().prop_map(V::String).boxed(),
            T::Vector2 => v2().prop_map(V::Vector2).boxed(),
            T::Vector2i => (i32s(), i32s())
                .prop_map(|(x, y)| V::Vector2i(Vector2i::new(x, y)))
                .boxed(),
            T::Rect2 => (v2(), v2())
                .prop_map(|(position, size)| V::Rect2(Rect2 { position, size }))
                .boxed(),
            T::Rect2i => (i32s(), i32s(), i32s(), i32s())
                .prop_map(|(a, b, c, d)| {
                    V::Rect2i(Rect2i {
                        position: Vector2i::new(a, b),
                        size: Vector2i::new(c, d),
                    })
                })
                .boxed(),
            T::Vector3 => v3().prop_map(V::Vector3).boxed(),
            T::Vector3i => (i32s(), i32s(), i32s())
                .prop_map(|(x, y, z)| V::Vector3i(Vector3i::new(x, y, z)))
                .boxed(),
            T::Transform2D => (v2(), v2(), v2())
                .prop_map(|(x, y, origin)| V::Transform2D(Transform2D { x, y, origin }))
                .boxed(),
            T::Vector4 => v4().prop_map(V::Vector4).boxed(),
            T::Vector4i => (i32s(), i32s(), i32s(), i32s())
                .prop_map(|(x, y, z, w)| V::Vector4i(Vector4i { x, y, z, w }))
                .boxed(),
            T::Plane => (v3(), real())
                .prop_map(|(normal, d)| V::Plane(Plane { normal, d }))
                .boxed(),
            T::Quaternion => v4()
                .prop_map(|v| {
                    V::Quaternion(Quaternion {
                        x: v.x,
                        y: v.y,
                        z: v.z,
                        w: v.w,
                    })
                })
                .boxed(),
            T::Aabb => (v3(), v3())
                .prop_map(|(position, size)| V::Aabb(Aabb { position, size }))
                .boxed(),
            T::Basis => basis().prop_map(V::Basis).boxed(),
            T::Transform3D => (basis(), v3())
                .prop_map(|(basis, origin)| V::Transform3D(Transform3D { basis, origin }))
                .boxed(),
            T::Projection => (v4(), v4(), v4(), v4())
                .prop_map(|(a, b, c, d)| {
                    V::Projection(Projection {
                        columns: [a, b, c, d],
                    })
                })
                .boxed(),
            T::Color => v4()
                .prop_map(|v| {
                    V::Color(Color {
                        r: v.x,
                        g: v.y,
                        b: v.z,
                        a: v.w,
                    })
                })
                .boxed(),
            T::StringName => text().prop_map(|s| V::StringName(StringName(s))).boxed(),
            T::NodePath => node_path().prop_map(V::NodePath).boxed(),
            // Godot 3 sends no RID id: every RID is id 0 there.
            T::Rid if godot4 => any::<u64>().prop_map(|id| V::Rid(Rid(id))).boxed(),
            T::Rid => Just(V::Rid(Rid(0))).boxed(),
            T::Callable => Just(V::Callable(Callable)).boxed(),
            T::Signal => (text(), any::<u64>())
                .prop_map(|(name, object)| V::Signal(Signal { name, object }))
                .boxed(),
            T::PackedByteArray => vec(any::<u8>(), 0..10)
                .prop_map(|a| V::PackedByteArray(a.into()))
                .boxed(),
            T::PackedInt32Array => vec(i32s(), 0..6)
                .prop_map(|a| V::PackedInt32Array(a.into()))
                .boxed(),
            T::PackedInt64Array => vec(int(), 0..6)
                .prop_map(|a| V::PackedInt64Array(a.into()))
                .boxed(),
            T::PackedFloat32Array => vec(real(), 0..6)
                .prop_map(|a| V::PackedFloat32Array(a.into()))
                .boxed(),
            T::PackedFloat64Array => vec(double(), 0..6)
                .prop_map(|a| V::PackedFloat64Array(a.into()))
                .boxed(),
            T::PackedStringArray => vec(text(), 0..5)
                .prop_map(|a| V::PackedStringArray(a.into()))
                .boxed(),
            T::PackedVector2Array => vec(v2(), 0..5)
                .prop_map(|a| V::PackedVector2Array(a.into()))
                .boxed(),
            T::PackedVector3Array => vec(v3(), 0..5)
                .prop_map(|a| V::PackedVector3Array(a.into()))
                .boxed(),
            T::PackedColorArray => vec(v4(), 0..5)
                .prop_map(|a| {
                    V::PackedColorArray(
                        a.into_iter()
                            .map(|v| Color {
                                r: v.x,
                                g: v.y,
                                b: v.z,
                                a: v.w,
                            })
                            .collect(),
                    )
                })
                .boxed(),
            T::PackedVector4Array => vec(v4(), 0..5)
                .prop_map(|a| V::PackedVector4Array(a.into()))
                .boxed(),
            other => panic!("no generator for {other:?}"),
        }
    }

    fn leaf(self) -> S<Variant> {
        let options: Vec<S<Variant>> = self.leaves().iter().map(|t| self.leaf_of(*t)).collect();
        proptest::strategy::Union::new(options).boxed()
    }

    /// A Dictionary key: a leaf of a key type, now and then a short Array of them.
    fn key(self) -> S<Variant> {
        let leaf: Vec<S<Variant>> = self.key_types().iter().map(|t| self.leaf_of(*t)).collect();
        let leaf = proptest::strategy::Union::new(leaf).boxed();
        let string_like = if self.dialect == Dialect::Godot4 {
            prop_oneof![
                text().prop_map(Variant::String),
                text().prop_map(|s| Variant::StringName(StringName(s)))
            ]
            .boxed()
        } else {
            text().prop_map(Variant::String).boxed()
        };
        let array = vec(leaf.clone(), 0..4).prop_map(|items| Variant::Array(Array::from(items)));
        if self.dialect == Dialect::Godot4 {
            return prop_oneof![4 => leaf, 2 => string_like, 1 => array].boxed();
        }
        // A pool-array key is never empty (see `pool_keys_clash`): an empty one clashes
        // with every other of its type. Nor does a PoolRealArray key hold a NaN: Godot
        // 3.2.3 cannot find such a key in its own Dictionary (`d[k]` is null, so var2str
        // and var2bytes give null for its value).
        let pool: Vec<S<Variant>> = pool_keys3()
            .map(|t| {
                self.leaf_of(t)
                    .prop_filter("a non-empty pool array", |v| pool_len(v) > 0)
                    .prop_filter("no NaN in a PoolRealArray key", |v| match v {
                        Variant::PackedFloat32Array(a) => !a.iter().any(|x| x.is_nan()),
                        _ => true,
                    })
                    .boxed()
            })
            .collect();
        let pool = proptest::strategy::Union::new(pool);
        prop_oneof![4 => leaf, 2 => string_like, 1 => array, 1 => pool].boxed()
    }

    /// An object: by id, or in full (when this value's objects travel in full).
    fn object(self, inner: S<Variant>) -> S<Variant> {
        if !self.full {
            return prop_oneof![
                1 => Just(Variant::ObjectId(ObjectId(0))),
                6 => any::<u64>().prop_map(|id| Variant::ObjectId(ObjectId(id))),
            ]
            .boxed();
        }
        let godot4 = self.dialect == Dialect::Godot4;
        // A null metadata value removes the entry (`set_meta(name, null)`): none here.
        let value = inner.prop_filter("a metadata value", |v| !matches!(v, Variant::Nil));
        vec(value, 0..3)
            .prop_map(move |meta| {
                let mut properties = vec![("script".to_owned(), Variant::Nil)];
                if godot4 {
                    for (i, v) in meta.into_iter().enumerate() {
                        properties.push((format!("metadata/m{i}"), v));
                    }
                    Variant::Object(Object {
                        class_name: "RefCounted".into(),
                        properties,
                    })
                } else {
                    if !meta.is_empty() {
                        let d: Vec<(Variant, Variant)> = meta
                            .into_iter()
                            .enumerate()
                            .map(|(i, v)| (Variant::String(format!("m{i}")), v))
                            .collect();
                        properties.push(("__meta__".into(), Variant::Dictionary(d.into())));
                    }
                    Variant::Object(Object {
                        class_name: "Reference".into(),
                        properties,
                    })
                }
            })
            .boxed()
    }

    /// A Dictionary of `size` entries; now and then one key comes twice (the same key, or
    /// its String/StringName twin), as a packet may hold it.
    fn dictionary(self, value: S<Variant>, size: std::ops::Range<usize>) -> S<Variant> {
        let godot4 = self.dialect == Dialect::Godot4;
        (
            vec((self.key(), value.clone()), size),
            prop::bool::weighted(0.05),
            value,
        )
            .prop_map(move |(mut pairs, repeat, extra)| {
                let mut kept: Vec<(Variant, Variant)> = Vec::with_capacity(pairs.len());
                for (k, v) in pairs {
                    if !kept.iter().any(|(other, _)| pool_keys_clash(other, &k)) {
                        kept.push((k, v));
                    }
                }
                pairs = kept;
                if repeat && !pairs.is_empty() {
                    let key = match &pairs[0].0 {
                        Variant::String(s) if godot4 => Variant::StringName(StringName(s.clone())),
                        k => k.clone(),
                    };
                    pairs.push((key, extra));
                }
                Variant::Dictionary(Dictionary::from(pairs))
            })
            .boxed()
    }

    fn typed_array(self) -> S<Variant> {
        let types: Vec<VariantType> = self.leaves()[1..].to_vec();
        proptest::sample::select(types)
            .prop_flat_map(move |t| {
                vec(self.leaf_of(t), 0..5).prop_map(move |items| {
                    Variant::Array(Array::typed(ElementType::Builtin(t), items))
                })
            })
            .boxed()
    }

    fn typed_dictionary(self) -> S<Variant> {
        let keys: Vec<VariantType> = self.key_types()[1..].to_vec();
        let values: Vec<VariantType> = self.leaves()[1..].to_vec();
        (
            proptest::sample::select(keys),
            proptest::sample::select(values),
        )
            .prop_flat_map(move |(kt, vt)| {
                vec((self.leaf_of(kt), self.leaf_of(vt)), 0..5).prop_map(move |pairs| {
                    // A typed Dictionary holds one entry per key, as the engine builds it.
                    let mut d = Dictionary::new();
                    for (k, v) in pairs {
                        if !d
                            .iter()
                            .any(|(k2, _)| super::compare::same_key(k2, &k, Dialect::Godot4))
                        {
                            d.insert(k, v);
                        }
                    }
                    d.set_types(ElementType::Builtin(kt), ElementType::Builtin(vt));
                    Variant::Dictionary(d)
                })
            })
            .boxed()
    }

    fn value(self) -> S<Variant> {
        let leaf = self.leaf();
        let godot4 = self.dialect == Dialect::Godot4;
        leaf.prop_recursive(8, 96, 6, move |inner| {
            let mut options: Vec<(u32, S<Variant>)> = vec![
                (
                    3,
                    vec(inner.clone(), 0..6)
                        .prop_map(|items| Variant::Array(Array::from(items)))
                        .boxed(),
                ),
                (3, self.dictionary(inner.clone(), 0..6)),
                (1, self.object(inner.clone())),
            ];
            if godot4 {
                options.push((1, self.typed_array()));
                options.push((1, self.typed_dictionary()));
            }
            proptest::strategy::Union::new_weighted(options).boxed()
        })
        .boxed()
    }

    /// `levels` containers around a value: an Array, a one-entry Dictionary, or an Array
    /// with siblings.
    fn deep(self, levels: std::ops::Range<usize>) -> S<Variant> {
        (
            self.leaf(),
            vec((0u8..3, self.key(), vec(self.leaf(), 0..3)), levels),
        )
            .prop_map(|(mut v, wraps)| {
                for (kind, key, mut siblings) in wraps {
                    v = match kind {
                        0 => Variant::Array(Array::from(vec![v])),
                        1 => Variant::Dictionary(Dictionary::from(vec![(key, v)])),
                        _ => {
                            siblings.insert(siblings.len() / 2, v);
                            Variant::Array(Array::from(siblings))
                        }
                    };
                }
                v
            })
            .boxed()
    }
}

/// The deepest wraps of a drawn value: past 128 levels with `stack-growth`; without it,
/// within `MAX_DEPTH` (the wraps, a key container and a leaf's own levels).
const DEEPEST: usize = if cfg!(feature = "stack-growth") {
    131
} else {
    godot_bin::MAX_DEPTH - 6
};

fn top(g: Gen) -> S<Variant> {
    let big = g.dictionary(g.leaf(), 17..61);
    prop_oneof![
        40 => g.value(),
        4 => g.deep(6..13),
        3 => big,
        1 => g.deep(101..DEEPEST),
    ]
    .boxed()
}
