//! Decoding accepts what GDScript itself converts when it assigns to a typed property (the
//! README's conversion table): a packed array into a `Vec`, a plain or typed Array into a
//! packed array (each element checked), String, StringName and NodePath into one another.
//! The same through `from_variant`, which presents a `Variant` as the packet it encodes to.

use godot_bin::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// Decodes the packet of `from` into `T`, from bytes and from the `Variant`.
fn convert<T: DeserializeOwned + PartialEq + Debug>(from: &Variant, expected: T) {
    for dialect in [Dialect::Godot4, Dialect::Godot3] {
        let cfg = Config::new(dialect);
        let Ok(bytes) = cfg.to_vec(from) else {
            continue; // a type this dialect lacks
        };
        let got: T = cfg
            .from_slice(&bytes)
            .unwrap_or_else(|e| panic!("{dialect}: {from:?}: {e}"));
        assert_eq!(got, expected, "{dialect}: {from:?}");
    }
    let got: T = from_variant(from.clone()).unwrap_or_else(|e| panic!("{from:?}: {e}"));
    assert_eq!(got, expected, "from_variant {from:?}");
}

/// The packet of `from` does not decode into `T`.
fn refuse<T: DeserializeOwned + Debug>(from: &Variant) {
    let bytes = to_vec(from).unwrap();
    assert!(from_slice::<T>(&bytes).is_err(), "{from:?}");
    assert!(from_variant::<T>(from.clone()).is_err(), "{from:?}");
}

#[test]
fn packed_arrays_into_vecs() {
    let bytes = Variant::PackedByteArray(PackedByteArray(vec![1, 2, 250]));
    convert::<Vec<u8>>(&bytes, vec![1, 2, 250]);
    convert::<[u8; 3]>(&bytes, [1, 2, 250]);
    convert::<serde_bytes::ByteBuf>(&bytes, serde_bytes::ByteBuf::from(vec![1, 2, 250]));
    convert::<Vec<i32>>(
        &Variant::PackedInt32Array(PackedInt32Array(vec![1, -2])),
        vec![1, -2],
    );
    convert::<Vec<f32>>(
        &Variant::PackedFloat32Array(PackedFloat32Array(vec![0.5])),
        vec![0.5],
    );
    let v3 = vec![Vector3::new(1.0, 2.0, 3.0), Vector3::ONE];
    convert::<Vec<Vector3>>(
        &Variant::PackedVector3Array(PackedVector3Array(v3.clone())),
        v3,
    );
    let colors = vec![Color::WHITE];
    convert::<Vec<Color>>(
        &Variant::PackedColorArray(PackedColorArray(colors.clone())),
        colors,
    );
    let names = vec!["a".to_owned(), "b".to_owned()];
    convert::<Vec<String>>(
        &Variant::PackedStringArray(PackedStringArray(names.clone())),
        names,
    );
    // A typed Array into a Vec.
    let typed = Variant::Array(Array::typed(
        ElementType::Builtin(VariantType::Int),
        vec![1.into(), 2.into()],
    ));
    convert::<Vec<i64>>(&typed, vec![1, 2]);
}

#[test]
fn arrays_into_packed_arrays_element_by_element() {
    let ints = Variant::from(vec![Variant::from(1), Variant::from(-2)]);
    convert::<PackedInt32Array>(&ints, PackedInt32Array(vec![1, -2]));
    convert::<PackedInt64Array>(&ints, PackedInt64Array(vec![1, -2]));
    convert::<PackedFloat32Array>(&ints, PackedFloat32Array(vec![1.0, -2.0]));
    let vectors = Variant::from(vec![Variant::Vector3(Vector3::UP)]);
    convert::<PackedVector3Array>(&vectors, PackedVector3Array(vec![Vector3::UP]));
    let typed = Variant::Array(Array::typed(
        ElementType::Builtin(VariantType::String),
        vec!["x".into()],
    ));
    convert::<PackedStringArray>(&typed, PackedStringArray(vec!["x".into()]));
    convert::<PackedByteArray>(
        &Variant::from(vec![Variant::from(7), Variant::from(255)]),
        PackedByteArray(vec![7, 255]),
    );
    // Each element checked: a string is no int, 300 no byte, a float no Vector3.
    refuse::<PackedInt32Array>(&Variant::from(vec![Variant::from("one")]));
    refuse::<PackedByteArray>(&Variant::from(vec![Variant::from(300)]));
    refuse::<PackedVector3Array>(&Variant::from(vec![Variant::from(1.5)]));
    // Another packed array's elements, checked as well; never its bytes reinterpreted.
    convert::<PackedInt64Array>(
        &Variant::PackedInt32Array(PackedInt32Array(vec![5])),
        PackedInt64Array(vec![5]),
    );
    refuse::<PackedVector3Array>(&Variant::PackedInt32Array(PackedInt32Array(vec![1, 2, 3])));
}

#[test]
fn string_stringname_and_nodepath_into_one_another() {
    let s = Variant::from("../Enemy:position");
    let sn = Variant::StringName(StringName::from("../Enemy:position"));
    let np = Variant::NodePath(NodePath::from("../Enemy:position"));
    for from in [&s, &sn, &np] {
        convert::<String>(from, "../Enemy:position".to_owned());
        convert::<StringName>(from, StringName::from("../Enemy:position"));
        convert::<NodePath>(from, NodePath::from("../Enemy:position"));
    }
    // Not from other types.
    refuse::<NodePath>(&Variant::from(3));
    refuse::<StringName>(&Variant::from(vec![Variant::from("a")]));
}

#[test]
fn struct_fields_convert_too() {
    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Target {
        name: String,
        path: NodePath,
        data: Vec<u8>,
        ids: PackedInt32Array,
    }
    let mut d = Dictionary::new();
    d.insert("name", StringName::from("orc"));
    d.insert("path", "Enemies/Orc");
    d.insert("data", PackedByteArray(vec![9, 8]));
    d.insert("ids", vec![Variant::from(4), Variant::from(5)]);
    convert::<Target>(
        &Variant::Dictionary(d),
        Target {
            name: "orc".into(),
            path: NodePath::from("Enemies/Orc"),
            data: vec![9, 8],
            ids: PackedInt32Array(vec![4, 5]),
        },
    );
}
