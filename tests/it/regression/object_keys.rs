//! Found by fuzzing (decode_godot4, this file's packet): a typed Dictionary whose keys are
//! two objects with the same id decoded into two entries (the engine decodes every object
//! into one of its own, so such keys never meet), but re-encoding it wrote one: the
//! serializer rebuilt the Dictionary from its entries with `insert`, which took the second
//! key for the first. Rebuilt as the decoder adds entries, both stay.

use crate::support::variant::assert_eq_ordered;
use godot_bin::{Config, ObjectId, Variant};

const PACKET: &str = "1b0007000000000001000000040000001819191900000000001b0101000100001919000001000000040000001819191900000000001b01010001000019191919191900000100610000310000000019190020";

#[test]
fn object_keys_of_a_typed_dictionary_stay_apart_through_a_round_trip() {
    let input = crate::support::hex::bytes(PACKET);
    let cfg = Config::default();
    let (v, _) = cfg.take_from_slice::<Variant>(&input).unwrap();
    let d = v.as_dictionary().unwrap();
    assert_eq!(d.len(), 2, "{v:?}");
    assert!(d.is_typed());
    let bytes = cfg.to_vec(&v).unwrap();
    let again: Variant = cfg.from_slice(&bytes).unwrap();
    assert_eq_ordered!(again, v);
    assert_eq_ordered!(godot_bin::to_variant(&v).unwrap(), v);
}

#[test]
fn object_keys_stay_apart_in_to_variant_as_in_the_bytes() {
    let pairs = vec![
        (Variant::ObjectId(ObjectId(5)), Variant::Int(1)),
        (Variant::ObjectId(ObjectId(5)), Variant::Int(2)),
    ];
    // A serde map with the same object key twice: its bytes decode into two entries, and
    // so does to_variant.
    struct Pairs(Vec<(Variant, Variant)>);
    impl serde::Serialize for Pairs {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    let via_bytes: Variant =
        godot_bin::from_slice(&godot_bin::to_vec(&Pairs(pairs.clone())).unwrap()).unwrap();
    let direct = godot_bin::to_variant(&Pairs(pairs)).unwrap();
    assert_eq!(via_bytes.as_dictionary().unwrap().len(), 2);
    assert_eq_ordered!(direct, via_bytes);
}
