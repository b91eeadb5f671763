//! Decodes a file written by `FileAccess.store_var` (length-prefixed values, the default) or
//! by `var_to_bytes` (`--bare`: one packet, no prefix) and prints each Variant.
//!
//! `cargo run --example decode_file -- save.dat [--bare] [--godot3|--pandemonium]`

use godot_bin::{Config, Dialect, Variant};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: decode_file FILE [--bare] [--godot3|--pandemonium]");
        std::process::exit(2);
    };
    let mut bare = false;
    let mut dialect = Dialect::Godot4;
    for flag in args {
        match flag.as_str() {
            "--bare" => bare = true,
            "--godot3" => dialect = Dialect::Godot3,
            "--pandemonium" => dialect = Dialect::Pandemonium,
            other => {
                eprintln!("unknown flag {other}");
                std::process::exit(2);
            }
        }
    }
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    // store_var writes objects as ids unless full_objects is set; allowing full objects
    // here only lets us show them: decoding never runs anything.
    let cfg = Config::new(dialect).allow_objects(true);
    if let Err(e) = print_values(&bytes, bare, &cfg) {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    }
}

fn print_values(bytes: &[u8], bare: bool, cfg: &Config) -> godot_bin::Result<()> {
    if bare {
        let value: Variant = cfg.from_slice(bytes)?;
        println!("{value:#?}");
        return Ok(());
    }
    // store_var: a u32 little-endian length, then that many bytes of packet.
    let framing = godot_bin::framing::Framing::new(cfg.clone()).max_frame_len(bytes.len());
    let mut frames = framing.frames::<_, Variant>(bytes);
    loop {
        let offset = frames.position();
        match frames.next() {
            Some(value) => println!("@{offset}: {:#?}", value?),
            None => return Ok(()),
        }
    }
}
