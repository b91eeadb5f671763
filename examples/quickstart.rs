//! Derive a struct, encode it as Godot does, print the hex, decode it back.
//!
//! Run with `cargo run --example quickstart`.

use godot_bin::{Config, Dialect, NodePath, PackedInt32Array, Variant, Vector3};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Team {
    Red,
    Blue,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector3,
    path: NodePath,
    inventory: PackedInt32Array,
    team: Team,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn main() -> Result<(), godot_bin::Error> {
    let player = Player {
        name: "Ada".into(),
        hp: 100,
        pos: Vector3::new(1.0, 2.5, -3.0),
        path: NodePath::from("../Enemy:position"),
        inventory: vec![3, 1, 4].into(),
        team: Team::Blue,
    };

    // What GDScript's `bytes_to_var` reads (Godot 4, the default).
    let bytes = godot_bin::to_vec(&player)?;
    println!("Godot 4 packet ({} bytes): {}", bytes.len(), hex(&bytes));

    // Back into the struct, and into a Variant when the shape is not known.
    let back: Player = godot_bin::from_slice(&bytes)?;
    assert_eq!(back, player);
    let any: Variant = godot_bin::from_slice(&bytes)?;
    println!(
        "as a Variant: hp = {:?}, pos = {:?}",
        any.get("hp"),
        any.get("pos")
    );

    // The same value for a Godot 3 game (`bytes2var`): other type ids, same layout.
    let godot3 = Config::new(Dialect::Godot3);
    let bytes3 = godot3.to_vec(&player)?;
    println!("Godot 3 packet ({} bytes): {}", bytes3.len(), hex(&bytes3));
    assert_eq!(godot3.from_slice::<Player>(&bytes3)?, player);
    println!("round trips OK");
    Ok(())
}
