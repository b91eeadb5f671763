//! Edit a game's save: read it (plain, encrypted or compressed, Godot 3 or 4), change a
//! value, write it back in the form it was read in (`Writer::like`: the same container,
//! layout, compression and dialect) with the same password.
//!
//! ```sh
//! cargo run -p godot_bin_files --example save_edit -- save.dat s3cret
//! ```
//!
//! Without arguments it makes a save first (as `FileAccess.open_encrypted_with_pass` and
//! `store_var` would) in the system's temporary folder, and edits that.

use godot_bin::{Config, Variant};
use godot_bin_files::save::{Key, Reader, Writer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = match args.next() {
        Some(path) => std::path::PathBuf::from(path),
        None => make_sample()?,
    };
    let key = Key::password(&args.next().unwrap_or_else(|| "s3cret".into()));
    // A Godot 3 encrypted save is found to be Godot 3; for a plain or compressed Godot 3
    // save, pass Config::new(Dialect::Godot3) (the error says so when it is needed).
    let cfg = Config::default();

    // Read every value the game stored.
    let bytes = std::fs::read(&path)?;
    let mut reader = Reader::with_key(&bytes[..], &key, &cfg)?;
    let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
    println!(
        "{}: {}, {:?}, {} values",
        path.display(),
        reader.container(),
        reader.config().dialect(),
        values.len()
    );

    // Change one: a level-up in the first value, a Dictionary.
    if let Some(Variant::Dictionary(save)) = values.first_mut() {
        let level = save.get("level").and_then(Variant::as_int).unwrap_or(0);
        save.insert("level", level + 1);
        println!("level {level} -> {}", level + 1);
    }

    // Write them back in the form they were read in.
    let mut writer = Writer::like(&reader, Vec::new(), Some(&key))?;
    for v in &values {
        writer.write_value(v)?;
    }
    std::fs::write(&path, writer.finish()?)?;
    Ok(())
}

/// A save as a Godot 3 game would write it (`File.open_encrypted_with_pass`):
/// `{"level": 3, "name": "Ada"}` and a play time.
fn make_sample() -> Result<std::path::PathBuf, godot_bin_files::Error> {
    let path = std::env::temp_dir().join("godot_bin_save_edit.dat");
    let mut save = godot_bin::Dictionary::new();
    save.insert("level", 3);
    save.insert("name", "Ada");
    let cfg = Config::new(godot_bin::Dialect::Godot3);
    let mut w = Writer::encrypted(Vec::new(), &Key::password("s3cret"), &cfg)?;
    w.write_value(&Variant::Dictionary(save))?;
    w.write_value(&1234.5)?;
    std::fs::write(&path, w.finish()?)?;
    Ok(path)
}
