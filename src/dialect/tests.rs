use super::*;

#[test]
fn ids_round_trip_through_the_reverse_table() {
    for d in Dialect::ALL {
        let spec = d.spec();
        for (id, ty) in spec.types.iter().enumerate() {
            assert_eq!(spec.id_of(*ty), Some(id as u32), "{d} {ty}");
        }
    }
}

#[test]
fn every_type_is_at_its_own_index() {
    // A type missing from ALL would leave Nil at its index.
    for (i, ty) in VariantType::ALL.iter().enumerate() {
        assert_eq!(*ty as usize, i);
    }
}

#[test]
fn variant_max_matches_the_engines() {
    assert_eq!(GODOT4_TYPES.len(), 39);
    assert_eq!(GODOT3_TYPES.len(), 27);
    assert_eq!(PANDEMONIUM_TYPES.len(), 38);
    assert_eq!(Dialect::Godot4.type_id(T::Dictionary), Some(27));
    assert_eq!(Dialect::Godot3.type_id(T::Dictionary), Some(18));
    assert_eq!(Dialect::Pandemonium.type_id(T::Dictionary), Some(25));
    assert_eq!(Dialect::Godot3.type_id(T::StringName), None);
    // VARIANT_MAX of the other tables, from their engines' sources.
    assert_eq!(GODOT2_TYPES.len(), 29);
    assert_eq!(PANDEMONIUM37_TYPES.len(), 33);
    assert_eq!(PANDEMONIUM5_TYPES.len(), 40);
    // The id most easily taken from the wrong table: Dictionary is 27, 18, 20, 25, 22, 25.
    let dict: Vec<_> = Dialect::ALL
        .iter()
        .map(|d| d.type_id(T::Dictionary).unwrap())
        .collect();
    assert_eq!(dict, [27, 18, 20, 25, 22, 25]);
    assert_eq!(Dialect::Pandemonium5.type_id(T::PackedInt32Array), Some(30));
    assert_eq!(
        Dialect::Pandemonium37.type_id(T::PackedInt32Array),
        Some(25)
    );
}
