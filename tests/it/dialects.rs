//! Dialects without an engine-made golden file (Godot 2.1, Pandemonium 3.5–3.7 and 5.x),
//! double-precision builds and the Godot 4 forms no golden row shows: packets computed by
//! hand from the packet layer's description of the format (the module documentation in
//! `src/packet/`, and the type tables of `src/dialect.rs`), each with the module its bytes
//! come from. Every
//! one decodes into the expected value and re-encodes to the same bytes.

use crate::support::{golden, hex};

use godot_bin::{
    Array, Config, Dialect, Dictionary, ElementType, ErrorKind, Image, InputEvent, NodePath,
    ObjectId, Rid, TypedArray, Variant, VariantType, Vector2i, Vector3,
};

/// `bytes` decode into `expected` in `cfg`, and `expected` encodes to `bytes`.
fn both_ways(cfg: &Config, bytes: &str, expected: Variant) {
    let bytes = hex::bytes(bytes);
    let decoded: Variant = cfg
        .from_slice(&bytes)
        .unwrap_or_else(|e| panic!("{expected:?}: {e}"));
    assert_eq!(decoded, expected);
    assert_eq!(cfg.to_vec(&expected).unwrap(), bytes, "{expected:?}");
}

fn array(items: Vec<Variant>, shared: bool) -> Variant {
    Variant::Array(Array {
        shared,
        ..Array::from(items)
    })
}

#[test]
fn godot2_packets_by_hand() {
    let g2 = Config::new(Dialect::Godot2);
    // scalar.rs: INT and FLOAT are always 32-bit.
    both_ways(&g2, "02000000 01000000", Variant::Int(1));
    both_ways(&g2, "03000000 0000003f", Variant::Float(0.5));
    // scalar.rs: 0.1 is rounded to f32, as that engine rounds it.
    assert_eq!(g2.to_vec(&0.1f64).unwrap(), hex::bytes("03000000 cdcccc3d"));
    // text.rs, packet/mod.rs: padding to a multiple of 4; we write zeros.
    both_ways(&g2, "04000000 02000000 68690000", Variant::from("hi"));
    // dialect.rs, math.rs: VECTOR3 is id 7, f32 components.
    both_ways(
        &g2,
        "07000000 0000803f 00000040 00004040",
        Variant::from(Vector3::new(1.0, 2.0, 3.0)),
    );
    // container.rs: DICTIONARY is id 20; bit 31 of the count is the shared flag.
    both_ways(
        &g2,
        "14000000 00000000",
        Variant::Dictionary(Dictionary::new()),
    );
    let mut shared = Dictionary::new();
    shared.shared = true;
    both_ways(&g2, "14000000 00000080", Variant::Dictionary(shared));
    // An unshared {"a": 1}.
    let mut d = Dictionary::new();
    d.insert("a", 1);
    both_ways(
        &g2,
        "14000000 01000000 04000000 01000000 61000000 02000000 01000000",
        Variant::Dictionary(d),
    );
    // container.rs: [1, "x"] from a GDScript literal is shared (capture in godot#6226).
    both_ways(
        &g2,
        "15000000 02000080 02000000 01000000 04000000 01000000 78000000",
        array(vec![1.into(), "x".into()], true),
    );
    // packed.rs: INT_ARRAY (23) and STRING_ARRAY (25, length + 1 and a NUL).
    both_ways(
        &g2,
        "17000000 02000000 01000000 02000000",
        Variant::PackedInt32Array(vec![1, 2].into()),
    );
    both_ways(
        &g2,
        "19000000 01000000 02000000 61000000",
        Variant::PackedStringArray(vec!["a".into()].into()),
    );
    // godot2.rs: InputEvent KEY, device 0, Shift (1 << 25) + scancode 65; llen = 20.
    let key = InputEvent {
        event_type: 1,
        device: 0,
        extra: vec![1 << 25, 65],
    };
    both_ways(
        &g2,
        "13000000 01000000 00000000 14000000 00000002 41000000",
        Variant::InputEvent(key),
    );
    // godot2.rs: JOYSTICK_MOTION with and without the axis value (llen 20 / 16).
    let axis = InputEvent {
        event_type: 4,
        device: 1,
        extra: vec![2, 0.5f32.to_bits()],
    };
    both_ways(
        &g2,
        "13000000 04000000 01000000 14000000 02000000 0000003f",
        Variant::InputEvent(axis),
    );
    let old = InputEvent {
        event_type: 4,
        device: 1,
        extra: vec![2],
    };
    both_ways(
        &g2,
        "13000000 04000000 01000000 10000000 02000000",
        Variant::InputEvent(old),
    );
    // object.rs: OBJECT (18) and RID (17) are the type alone.
    both_ways(&g2, "12000000", Variant::ObjectId(ObjectId(0)));
    both_ways(&g2, "11000000", Variant::Rid(Rid(0)));
    // godot2.rs: Image format 4 (RGBA), no mipmaps, 1×1, 4 bytes of data.
    let img = Image {
        format: 4,
        mipmaps: 0,
        width: 1,
        height: 1,
        data: vec![1, 2, 3, 4],
    };
    both_ways(
        &g2,
        "0f000000 04000000 00000000 01000000 01000000 04000000 01020304",
        Variant::Image(img),
    );
    // nodepath.rs: the last subname travels as the property (flags bit 1).
    both_ways(
        &g2,
        "10000000 01000080 01000000 02000000 01000000 61000000 01000000 62000000 01000000 63000000",
        Variant::NodePath(NodePath::from("a:b:c")),
    );
}

#[test]
fn godot2_refuses_what_it_cannot_express() {
    let g2 = Config::new(Dialect::Godot2);
    let err = |v: &Variant| g2.to_vec(v).unwrap_err();
    assert!(matches!(
        err(&Variant::Int(1 << 40)).kind(),
        ErrorKind::NumberOutOfRange { .. }
    ));
    assert!(matches!(
        err(&Variant::Float(1e300)).kind(),
        ErrorKind::NumberOutOfRange { .. }
    ));
    assert!(matches!(
        err(&Variant::ObjectId(ObjectId(7))).kind(),
        ErrorKind::Unsupported(_)
    ));
    assert!(matches!(
        err(&Variant::Vector2i(Vector2i::new(1, 2))).kind(),
        ErrorKind::TypeNotInDialect { .. }
    ));
    // godot2.rs: an Image format at or past FORMAT_MAX (23) is refused when decoding.
    let bad = hex::bytes("0f000000 17000000 00000000 01000000 01000000 00000000");
    assert!(matches!(
        g2.from_slice::<Variant>(&bad).unwrap_err().kind(),
        ErrorKind::InvalidData(_)
    ));
    // header.rs: Godot 2 refuses a header with any flag bit.
    let flagged = hex::bytes("02000100 01000000 00000000");
    // A flagged header is another dialect's packet: the error names the dialects that
    // read it (issue 41: `from_slice` hints), holding Godot 2's own refusal.
    assert!(matches!(
        g2.from_slice::<Variant>(&flagged).unwrap_err().kind(),
        ErrorKind::WrongDialect { error, .. } if matches!(**error, ErrorKind::UnknownTypeId { .. })
    ));
}

#[test]
fn pandemonium_packets_by_hand() {
    // Dialect::Pandemonium (3.8-4.x) has engine-made rows in
    // tests/data/golden/pandemonium.tsv, checked by tests/it/golden.rs; these are the two
    // tables no golden file covers: p1 (3.5-3.7) and p3 (5.x), beside p2 (3.8-4.x).
    let p1 = Config::new(Dialect::Pandemonium37);
    let p3 = Config::new(Dialect::Pandemonium5);
    // The shared Godot 3 rules (scalar.rs); VECTOR3 is 9 in all three tables (dialect.rs).
    for cfg in [&p1, &p3] {
        both_ways(cfg, "02000000 01000000", Variant::Int(1));
        both_ways(cfg, "03000100 9a9999999999b93f", Variant::Float(0.1));
        both_ways(
            cfg,
            "09000000 0000803f 00000040 00004040",
            Variant::from(Vector3::new(1.0, 2.0, 3.0)),
        );
    }
    // dialect.rs: Vector2i is 8 in p2/p3, 6 in p1.
    let v2i = Variant::from(Vector2i::new(1, 2));
    both_ways(&p3, "08000000 01000000 02000000", v2i.clone());
    both_ways(&p1, "06000000 01000000 02000000", v2i);
    // dialect.rs: StringName is 24 in p2/p3, 21 in p1.
    let name = Variant::StringName("a".into());
    both_ways(&p3, "18000000 01000000 61000000", name.clone());
    both_ways(&p1, "15000000 01000000 61000000", name);
    // dialect.rs: Dictionary 25 / Array 26 in p2/p3, 22 / 23 in p1.
    let mut d = Dictionary::new();
    d.insert("a", 1);
    both_ways(
        &p3,
        "19000000 01000000 04000000 01000000 61000000 02000000 01000000",
        Variant::Dictionary(d.clone()),
    );
    both_ways(
        &p1,
        "16000000 01000000 04000000 01000000 61000000 02000000 01000000",
        Variant::Dictionary(d),
    );
    let a = Variant::from(vec![Variant::Int(1), Variant::from("x")]);
    both_ways(
        &p1,
        "17000000 02000000 02000000 01000000 04000000 01000000 78000000",
        a,
    );
    // dialect.rs: PoolIntArray is 28 (p2), 30 (p3), 25 (p1).
    let ints = Variant::PackedInt32Array(vec![1, 2].into());
    both_ways(&p3, "1e000000 02000000 01000000 02000000", ints.clone());
    both_ways(&p1, "19000000 02000000 01000000 02000000", ints);
    // container.rs: a p3 TypedArray (27) of int [1]: element type INT, count, elements.
    let typed = Array::typed(
        ElementType::Builtin(VariantType::Int),
        vec![Variant::Int(1)],
    );
    both_ways(
        &p3,
        "1b000000 02000000 01000000 02000000 01000000",
        Variant::Array(typed.clone()),
    );
    // container.rs: PACKED_TYPED_ARRAY (28) has the same layout.
    both_ways(
        &p3,
        "1c000000 02000000 01000000 02000000 01000000",
        Variant::PackedTypedArray(typed),
    );
    // container.rs: objects sent as ids set header bit 16 and carry no class name.
    let ids = Array::typed(ElementType::ClassName("EncodedObjectAsID".into()), vec![]);
    both_ways(&p3, "1b000100 17000000 00000000", Variant::Array(ids));
    // ...and a named class is a nested StringName (24).
    let nodes = Array::typed(ElementType::ClassName("Node".into()), vec![]);
    both_ways(
        &p3,
        "1b000000 17000000 18000000 04000000 4e6f6465 00000000",
        Variant::Array(nodes),
    );
}

#[test]
fn godot4_forms_no_golden_row_shows() {
    let g4 = Config::new(Dialect::Godot4);
    // scalar.rs: NaN is always 64-bit, INF 32-bit.
    assert_eq!(
        g4.to_vec(&f64::NAN).unwrap(),
        hex::bytes("03000100 000000000000f87f")
    );
    both_ways(&g4, "03000000 0000807f", Variant::Float(f64::INFINITY));
    both_ways(&g4, "03000000 00000080", Variant::Float(-0.0));
    // Typed arrays are engine-verified by golden rows: TypedArray<T> writes array_typed_int.
    let row = golden::row("godot4.tsv", "array_typed_int");
    assert_eq!(
        godot_bin::to_vec(&TypedArray(vec![1i32, 2, 3])).unwrap(),
        row.bytes
    );
    // container.rs, kind 3: an Array typed by a script path.
    let scripted = Array::typed(ElementType::Script("res://a.gd".into()), vec![]);
    both_ways(
        &g4,
        "1c000300 0a000000 7265733a2f2f612e67640000 00000000",
        Variant::Array(scripted),
    );
    // object.rs: an object sent as its id (header bit 16).
    both_ways(
        &g4,
        "18000100 34120000 00000000",
        Variant::ObjectId(ObjectId(0x1234)),
    );
    // object.rs: RID with id 5.
    both_ways(&g4, "17000000 05000000 00000000", Variant::Rid(Rid(5)));
    // object.rs: the null full-object form (empty class name, no count) decodes with objects on.
    let objects = g4.clone().allow_objects(true);
    both_ways(
        &objects,
        "18000000 00000000",
        Variant::Object(Default::default()),
    );
}

#[test]
fn double_precision_builds() {
    // math.rs: Vector3(1, 2, 3) in a Godot 4 double build: bit 16 and f64 components.
    let double = Config::new(Dialect::Godot4).double_precision(true);
    let v = Vector3::new(1.0, 2.0, 3.0);
    let e427 = "09000100 000000000000f03f 0000000000000040 0000000000000840";
    both_ways(&double, e427, Variant::from(v));
    // Decoding follows each packet's flag, whatever the option says.
    assert_eq!(
        godot_bin::from_slice::<Vector3>(&hex::bytes(e427)).unwrap(),
        v
    );
    assert_eq!(
        double
            .from_slice::<Vector3>(&godot_bin::to_vec(&v).unwrap())
            .unwrap(),
        v
    );
    // math.rs: Color stays f32; ints and the float rule are unchanged.
    let color = godot_bin::Color::from_rgba(1.0, 0.5, 0.25, 1.0);
    assert_eq!(
        double.to_vec(&color).unwrap(),
        godot_bin::to_vec(&color).unwrap()
    );
    assert_eq!(
        double.to_vec(&0.5f64).unwrap(),
        godot_bin::to_vec(&0.5f64).unwrap()
    );
    // README, Dialects: Godot 3 double builds write math types narrowed to f32, unflagged.
    let g3 = Config::new(Dialect::Godot3);
    assert_eq!(
        g3.clone().double_precision(true).to_vec(&v).unwrap(),
        g3.to_vec(&v).unwrap()
    );
}

#[test]
fn typed_arrays_are_refused_where_the_dialect_has_none() {
    let typed = TypedArray(vec![1i64]);
    for dialect in [
        Dialect::Godot3,
        Dialect::Godot2,
        Dialect::Pandemonium,
        Dialect::Pandemonium37,
    ] {
        let err = Config::new(dialect).to_vec(&typed).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Unsupported(_)),
            "{dialect}: {err}"
        );
    }
}
