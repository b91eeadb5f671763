//! Read a scene out of a game's pack, change one value, put it back in place (the
//! README's pack example).

use godot_bin_files::pack::{Pack, PackWriter, Patch};
use godot_bin_files::save::Key;
use godot_bin_files::TextResource;

fn main() -> Result<(), godot_bin_files::Error> {
    let path = std::env::temp_dir().join("godot_bin_readme_game.pck"); // your game's pack
    let key = Key::bytes([0; 32]); // a stock engine's key; a game built with its own has another

    // A Godot 4.4 export, files and directory encrypted.
    let mut w = PackWriter::for_engine("4.4.1")?
        .key(key.clone())
        .encrypt_files(true);
    w.encrypt_directory(true);
    w.add(
        "res://level.tscn",
        b"[gd_scene format=3]\n\n[node name=\"Level\" type=\"Node2D\"]\nposition = Vector2(1, 2)\n"
            .to_vec(),
    );
    w.add("res://icon.svg", b"<svg/>".to_vec());
    w.save(&path)?;

    // List it and read one file.
    let mut pack = Pack::open_with_key(&path, &key)?;
    for entry in pack.entries() {
        println!("{entry}"); // res://level.tscn	<size>	<md5>
    }
    let bytes = pack.read("res://level.tscn")?;
    let mut scene: TextResource = String::from_utf8_lossy(&bytes).parse()?;

    // Change one value and put the scene back, in place.
    let root = scene.node_mut(".").expect("the scene's root node");
    root.properties_mut()
        .set("position", godot_bin::Vector2::new(5.0, 6.0));
    let mut patch = Patch::open(&path, Some(&key))?;
    patch.set("res://level.tscn", scene.to_string().into_bytes());
    patch.commit()?;

    let mut again = Pack::open_with_key(&path, &key)?;
    let text = String::from_utf8(again.read("res://level.tscn")?).unwrap();
    assert!(text.contains("position = Vector2(5, 6)"));
    assert_eq!(again.read("res://icon.svg")?, b"<svg/>"); // left alone
    Ok(())
}
