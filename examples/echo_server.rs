//! An echo server for Godot's `StreamPeerTCP.put_var` / `get_var`.
//!
//! ```text
//! cargo run --example echo_server -- 127.0.0.1:4242 [--dialect godot3|godot4|pandemonium]
//! ```
//!
//! Every client gets its own thread. For each framed value a client sends with
//! `put_var`, the server decodes it into a `Variant`, prints it, and sends it back encoded
//! again, which the client reads with `get_var`. Full objects (`put_var(obj, true)`) are
//! accepted and echoed as plain data. In Godot 4:
//!
//! ```gdscript
//! var peer := StreamPeerTCP.new()
//! peer.connect_to_host("127.0.0.1", 4242)
//! while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING:
//!     peer.poll()
//! peer.put_var({"hello": Vector3(1, 2, 3)})
//! print(peer.get_var()) # { "hello": (1, 2, 3) }
//! ```

use godot_bin::framing::{FramedReader, Framing};
use godot_bin::{Config, Dialect, Variant};
use std::io::{BufReader, BufWriter, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;

/// The largest value a client may send.
const MAX_FRAME_LEN: usize = 16 << 20;

/// The longest debug text printed per value.
const MAX_SHOWN: usize = 160;

fn main() -> ExitCode {
    let (addr, dialect) = match parse_args(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(msg) => {
            eprintln!("{msg}");
            eprintln!(
                "usage: echo_server ADDRESS [--dialect godot3|godot4|pandemonium]  \
                 (e.g. 127.0.0.1:4242)"
            );
            return ExitCode::from(2);
        }
    };
    let listener = match TcpListener::bind(&addr) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("cannot listen on {addr}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cfg = Config::new(dialect).allow_objects(true);
    match listener.local_addr() {
        Ok(local) => println!("listening on {local} ({dialect})"),
        Err(_) => println!("listening on {addr} ({dialect})"),
    }
    for stream in listener.incoming() {
        match stream {
            Ok(stream) => {
                let cfg = cfg.clone();
                std::thread::spawn(move || serve(stream, &cfg));
            }
            Err(e) => eprintln!("accept failed: {e}"),
        }
    }
    ExitCode::SUCCESS
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<(String, Dialect), String> {
    let mut addr = None;
    let mut dialect = Dialect::Godot4;
    while let Some(arg) = args.next() {
        let name = if arg == "--dialect" {
            args.next().ok_or("--dialect needs a value")?
        } else if let Some(name) = arg.strip_prefix("--dialect=") {
            name.to_string()
        } else if addr.is_none() && !arg.starts_with('-') {
            addr = Some(arg);
            continue;
        } else {
            return Err(format!("unexpected argument {arg:?}"));
        };
        dialect = match name.to_ascii_lowercase().as_str() {
            "godot4" | "4" => Dialect::Godot4,
            "godot3" | "3" => Dialect::Godot3,
            "pandemonium" => Dialect::Pandemonium,
            other => return Err(format!("unknown dialect {other:?}")),
        };
    }
    Ok((addr.ok_or("missing the address to listen on")?, dialect))
}

fn serve(stream: TcpStream, cfg: &Config) {
    let peer = stream
        .peer_addr()
        .unwrap_or_else(|_| SocketAddr::from(([0, 0, 0, 0], 0)));
    println!("{peer}: connected");
    match echo(stream, cfg, peer) {
        Ok(count) => println!("{peer}: disconnected after {count} values"),
        Err(e) => println!("{peer}: closed: {e}"),
    }
}

/// Echoes every value until the client closes the connection; returns how many.
fn echo(stream: TcpStream, cfg: &Config, peer: SocketAddr) -> godot_bin::Result<usize> {
    let mut writer = BufWriter::new(stream.try_clone()?);
    let framing = Framing::new(cfg.clone()).max_frame_len(MAX_FRAME_LEN);
    let mut frames: FramedReader<_, Variant> = framing.frames(BufReader::new(stream));
    let mut count = 0;
    while let Some(value) = frames.next() {
        let value = match value {
            Ok(value) => value,
            // The frame was well delimited but its packet is invalid: say so and go on.
            Err(e) if !frames.is_finished() => {
                println!("{peer}: #{count} undecodable: {e}");
                count += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        println!("{peer}: #{count} {}", shorten(&format!("{value:?}")));
        framing.write(&mut writer, &value)?;
        writer.flush()?;
        count += 1;
    }
    Ok(count)
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(MAX_SHOWN) {
        Some((at, _)) => format!("{}... ({} bytes of text)", &text[..at], text.len()),
        None => text.to_string(),
    }
}
