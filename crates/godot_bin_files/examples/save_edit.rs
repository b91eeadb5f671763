//! Edit a game's save: read it (plain, encrypted or compressed), change a value, write it
//! back in the same container with the same password.
//!
//! ```sh
//! cargo run -p godot_bin_files --example save_edit -- save.dat s3cret
//! ```
//!
//! Without arguments it makes a save first (as `FileAccess.open_encrypted_with_pass` and
//! `store_var` would) in the system's temporary folder, and edits that.

use godot_bin::{Config, Variant};
use godot_bin_files::save::{Container, Key, Reader, Writer};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = match args.next() {
        Some(path) => std::path::PathBuf::from(path),
        None => make_sample()?,
    };
    let key = Key::password(&args.next().unwrap_or_else(|| "s3cret".into()));
    let cfg = Config::default(); // Config::new(Dialect::Godot3) for a Godot 3 game

    // Read every value the game stored.
    let bytes = std::fs::read(&path)?;
    let mut reader = Reader::with_key(&bytes[..], &key, &cfg)?;
    let container = reader.container().clone();
    let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>()?;
    println!("{}: {container}, {} values", path.display(), values.len());

    // Change one: a level-up in the first value, a Dictionary.
    if let Some(Variant::Dictionary(save)) = values.first_mut() {
        let level = save.get("level").and_then(Variant::as_int).unwrap_or(0);
        save.insert("level", level + 1);
        println!("level {level} -> {}", level + 1);
    }

    // Write them back in the same kind of file.
    let mut writer = match container {
        Container::Plain => Writer::plain(Vec::new(), &cfg),
        Container::Encrypted { .. } => Writer::encrypted(Vec::new(), &key, &cfg)?,
        Container::Compressed { compression, .. } => {
            Writer::compressed(Vec::new(), compression, &cfg)?
        }
    };
    for v in &values {
        writer.write_value(v)?;
    }
    std::fs::write(&path, writer.finish()?)?;
    Ok(())
}

/// A save as a game would write it: `{"level": 3, "name": "Ada"}` and a play time.
fn make_sample() -> Result<std::path::PathBuf, godot_bin_files::Error> {
    let path = std::env::temp_dir().join("godot_bin_save_edit.dat");
    let mut save = godot_bin::Dictionary::new();
    save.insert("level", 3);
    save.insert("name", "Ada");
    let mut w = Writer::encrypted(Vec::new(), &Key::password("s3cret"), &Config::default())?;
    w.write_value(&Variant::Dictionary(save))?;
    w.write_value(&1234.5)?;
    std::fs::write(&path, w.finish()?)?;
    Ok(path)
}
