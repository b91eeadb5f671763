//! `godot-bin`: look inside, convert and edit what the Godot engine writes — Variant
//! packets, saves, resources, scenes and ConfigFiles — from the command line.
//!
//! ```text
//! godot-bin dump FILE [--json] [PACKET OPTIONS] [--password P | --key HEX]
//!     decode FILE and print every value as GDScript text (or JSON)
//! godot-bin encode [--json] [-o FILE] [PACKET OPTIONS]
//!     read GDScript text (or JSON) on stdin, write packets to stdout
//! godot-bin explain FILE [PACKET OPTIONS] [--password P | --key HEX]
//!     annotated hex dump: every header and field with its offset
//! godot-bin convert OLD NEW [--password P | --key HEX] [--to ...] [--godot4] [--strict]
//!     a save between containers (plain, encrypted, compressed); a resource, scene or
//!     ConfigFile between its forms (text, binary, encrypted) by NEW's extension; with
//!     --godot4 a Godot 3 file into a Godot 4 one
//! godot-bin get FILE WHERE [--json] [--password P | --key HEX] [PACKET OPTIONS]
//!     one value of a scene, resource, ConfigFile or save (see `get --help` for WHERE)
//! godot-bin set FILE WHERE VALUE [--json] [-o OUT] [--password P | --key HEX] [PACKET OPTIONS]
//!     change one value: a text file by one line, a binary file or a save in its own form
//!
//! PACKET OPTIONS: --dialect godot4|godot3|godot2|pandemonium|pandemonium37|pandemonium5,
//!                 --framed [--big-endian]
//! ```
//!
//! FILE is a file written by `var_to_bytes` / `var2bytes` (one bare packet, or several
//! back to back), by `FileAccess.store_var` / `StreamPeer.put_var` (with `--framed`: a
//! 4-byte length before each packet; `dump` and `explain` find them without it when the bytes are
//! frames and not bare packets), an encrypted or compressed save (`GDEC`, `GCPF`:
//! its `store_var` frames), or a `.tsv` of hex packets (`name<TAB>hex...` per line, `#`
//! comments), such as the crate's golden files. `-` reads standard input.
//!
//! The dialect is `--dialect`'s; without it, Godot 4, except that an encrypted save in
//! Godot 3's layout (which no Godot 4 engine writes) is read as Godot 3, as the library's
//! `file::Reader` reads it. When the input does not decode cleanly in that dialect (a
//! value fails, or bytes are left after a value), `dump` and `explain` fail with exit
//! status 1 and name the dialects in which the whole input does decode cleanly: they
//! never guess, and `dump` prints no value when another dialect reads the input. Errors
//! name the byte offset in FILE where decoding failed. Full objects are decoded (as data:
//! nothing is instantiated), since this is a tool for looking at packets.
//!
//! The JSON mapping is described in `godot-bin dump --help`.

mod change;
mod edit;
mod edit_save;
mod explain;
mod failure;
mod files;
mod input;
mod json;
mod pack;
mod resources;

use clap::{Parser, Subcommand};
use failure::Failure;
use godot_bin::{Config, Variant};
use input::*;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `--help` says after the commands: every form the tool reads, and how the dialect
/// is chosen.
const DIALECT_HELP: &str = "Files it reads (by extension, magic or content):
  packets     var_to_bytes / var2bytes output; store_var / put_var frames; .tsv of hex packets
  saves       store_var files: plain, encrypted (GDEC: open_encrypted[_with_pass], with
              --password or --key) or compressed (GCPF: FastLZ, Deflate, Zstd, gzip, Brotli)
  resources   .tres (text), .res (binary, RSRC; compressed RSCC)
  scenes      .tscn (text), .scn (binary, RSRC; compressed RSCC)
  ConfigFiles .cfg (override.cfg, export_presets.cfg, plugin.cfg), project.godot, .import,
              .remap, .gdextension, .gdnlib, any text that reads as one; plain or encrypted
              (save_encrypted_pass: GDEC, with --password or --key)
Godot 4 and Godot 3 (and Godot 2 and Pandemonium packets) throughout.

The dialect is --dialect's; without it, godot4, except that an \
encrypted save in Godot 3's layout (which no Godot 4 engine writes) is read as godot3. When \
the input does not decode cleanly in that dialect (a value fails, or bytes are left after a \
value), dump and explain fail with exit status 1 and name the dialects in which the whole \
input decodes cleanly (\"hint: ... it does with --dialect godot3\"); they never guess.

Packs (.pck, or an executable with its pack inside): `godot-bin pack --help`; dump PACK \
shows the header and directory, convert PACK OUT.pck writes it back byte for byte. A file \
inside a pack is PACK::res://PATH for dump, get, set and convert (game.pck::res://level.tscn); \
set writes it back into the pack in place.";

#[derive(Parser)]
#[command(
    name = "godot-bin",
    version,
    about = "Inspect, convert and edit Godot's packets, saves, resources, scenes and ConfigFiles",
    after_help = DIALECT_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decode FILE and print each value as GDScript text (var_to_str), or as JSON.
    ///
    /// For a .tsv, each row prints as its name, a tab and the text, on one line:
    /// newlines, carriage returns and tabs in the text are written as \n, \r and \t.
    ///
    /// When FILE does not decode cleanly in the dialect, dump fails (exit status 1) and
    /// names the dialects that decode all of it cleanly; it then prints no value.
    /// A resource, scene or ConfigFile (.tres .tscn .res .scn; ConfigFiles by name:
    /// .cfg .import .remap .gdextension .gdnlib project.godot, or by content; an encrypted
    /// ConfigFile with --password) prints as its text (a binary one as the text it
    /// converts to), or as one JSON document.
    #[command(after_long_help = json::MAPPING_HELP)]
    Dump {
        /// A packet file, a save, or a .tsv of hex packets; `-` for standard input.
        file: PathBuf,
        /// Print one JSON document per line instead of GDScript text.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        packets: PacketArgs,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Read GDScript text (str_to_var) or JSON on standard input; write the packets to
    /// standard output (or to FILE with -o), one per value. Binary is never written to a
    /// terminal.
    #[command(after_long_help = json::MAPPING_HELP)]
    Encode {
        /// Read JSON documents (see the mapping below) instead of GDScript text.
        #[arg(long)]
        json: bool,
        /// Write the packets to FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        packets: PacketArgs,
    },
    /// Print an annotated hex dump of FILE: every header with its type and flags, every
    /// field with its byte offset, and where decoding fails.
    ///
    /// When FILE does not decode cleanly in the dialect, explain prints as far as it
    /// reads, then fails (exit status 1) and names the dialects that decode all of it
    /// cleanly.
    Explain {
        /// A packet file, a save, or a .tsv of hex packets; `-` for standard input.
        file: PathBuf,
        #[command(flatten)]
        packets: PacketArgs,
        #[command(flatten)]
        keys: KeyArgs,
    },
    /// Convert a save, resource, scene or ConfigFile between its forms, or (--godot4) a
    /// Godot 3 one to Godot 4, and list on stderr anything that does not carry over.
    ///
    /// A file keeps its engine unless --godot4 asks for the upgrade. A save's content (its
    /// store_var frames) is then copied byte for byte into the container --to asks for;
    /// with --godot4 it is read as Godot 3 and written as Godot 4, with what was converted
    /// (a save that is already Godot 4's is refused, and the error says so). Resources,
    /// scenes and ConfigFiles: see below.
    #[command(after_long_help = resources::CONVERT_HELP)]
    Convert(files::ConvertArgs),
    /// Print one value of a scene, resource, ConfigFile or save, in the engine's text form
    /// (as the file writes it) or as JSON.
    #[command(after_long_help = edit::WHERE_HELP)]
    Get(edit::GetArgs),
    /// Change one value of a scene, resource, ConfigFile or save: a text file by that one
    /// line, a binary file or a save written again in the form it was read in. stderr
    /// says what changed.
    #[command(after_long_help = edit::WHERE_HELP)]
    Set(edit::SetArgs),
    /// PCK packs (a .pck, or an executable with its pack inside): list, extract, create,
    /// and change files in place (set, rm).
    #[command(after_long_help = pack::INSIDE_HELP)]
    Pack {
        #[command(subcommand)]
        command: pack::PackCommand,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            match f.offset {
                Some(at) => eprintln!(
                    "godot-bin: error at byte offset {at} (0x{at:x}): {}",
                    f.message
                ),
                None => eprintln!("godot-bin: error: {}", f.message),
            }
            if let Some(hint) = f.hint {
                eprintln!("godot-bin: hint: {hint}");
            }
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Dump {
            file,
            json,
            packets,
            keys,
        } => dump(packets, keys, file, *json, &mut out),
        Command::Encode {
            json,
            output,
            packets,
        } => encode(packets, *json, output.as_deref(), &mut out),
        Command::Explain {
            file,
            packets,
            keys,
        } => explain(packets, keys, file, &mut out),
        Command::Convert(args) => files::convert(args, &mut out),
        Command::Get(args) => edit::get(args, &mut out),
        Command::Set(args) => edit::set(args),
        Command::Pack { command } => pack::run(command, &mut out),
    };
    // What was printed before a failure stays useful: flush it first.
    out.flush()?;
    result
}

fn dump(
    packets_args: &PacketArgs,
    keys: &KeyArgs,
    path: &Path,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    // A pack: its header and directory; a file inside one: that file.
    if pack::inside(path).is_none() && pack::is_pack(path) {
        return pack::dump(path, keys.key()?.as_ref(), out);
    }
    let file = pack::read(path, keys.key()?.as_ref())?;
    // Resources, scenes and ConfigFiles: their own forms (resources.rs).
    if let Some(mut doc) = resources::open(path, &file, keys.key()?)? {
        resources::apply_dialect(&mut doc, packets_args.dialect, path)?;
        return resources::dump(&doc, json, out);
    }
    let input = input_of(packets_args, keys, file)?;
    if let Some(what) = input.describe(packets_args) {
        eprintln!("godot-bin: {what}");
    }
    let (data, dialect) = (input.data(), input.dialect);
    let tsv = is_tsv(path);
    let rows = if tsv { read_tsv(data)? } else { Vec::new() };
    let cfg = config(dialect);
    let mut print = |name: Option<&str>, v: &Variant| -> io::Result<()> {
        if json {
            let doc = match name {
                Some(n) => serde_json::json!({"name": n, "value": json::to_json(v)}),
                None => json::to_json(v),
            };
            serde_json::to_writer(&mut *out, &doc).map_err(io::Error::from)?;
            writeln!(out)
        } else {
            let text = v.to_text(dialect);
            // An Object's text already ends with a newline, as the engine prints it.
            let text = text.strip_suffix('\n').unwrap_or(&text);
            match name {
                // A .tsv row stays on one line.
                Some(n) if tsv => writeln!(out, "{n}\t{}", tsv_escape(text)),
                Some(n) => writeln!(out, "{n}\t{text}"),
                None => writeln!(out, "{text}"),
            }
        }
    };
    // store_var output given without --framed reads as frames (issue 39 #4), unless it
    // reads as well as bare packets: then it is read bare, and the note says how else.
    let (framed, big_endian) = if tsv {
        (input.framed, packets_args.big_endian)
    } else {
        let (framed, big_endian, note) =
            framing(data, dialect, input.framed, packets_args.big_endian);
        if let Some(note) = note {
            eprintln!("godot-bin: note: {note}");
        }
        (framed, big_endian)
    };
    // Every value is decoded before any is printed: when the input does not decode
    // cleanly and another dialect reads it, none of them is worth printing.
    let mut values: Vec<(Option<&str>, Variant)> = Vec::new();
    let failure = match packets(big_endian, framed, path, data, &rows)? {
        Some(list) => {
            let mut failure = None;
            for p in &list {
                match cfg.take_from_slice::<Variant>(p.bytes) {
                    Ok((v, [])) => values.push((p.name, v)),
                    Ok((_, rest)) => {
                        failure = Some(trailing_failure(p, rest.len()));
                        break;
                    }
                    Err(e) => {
                        failure = Some(decode_failure(&e, p.offset, p.name));
                        break;
                    }
                }
            }
            failure.map(|f| f.with_hint(dialect_hint(dialect, |d| packets_clean(d, &list))))
        }
        None => {
            // Bare packets back to back (one, for var_to_bytes output).
            let mut rest = data;
            let mut failure = None;
            while !rest.is_empty() {
                let offset = data.len() - rest.len();
                match cfg.take_from_slice::<Variant>(rest) {
                    Ok((v, tail)) => {
                        values.push((None, v));
                        rest = tail;
                    }
                    Err(e) => {
                        failure = Some(decode_failure(&e, offset, None));
                        break;
                    }
                }
            }
            failure.map(|f| f.with_hint(dialect_hint(dialect, |d| bare_clean(d, data))))
        }
    };
    match failure {
        // Read in the wrong dialect: what decoded is no more to be trusted than the rest.
        Some(f) if f.hint.is_some() => Err(f),
        // Damaged input: the values before the damage are the file's.
        Some(f) => {
            for (name, v) in &values {
                print(*name, v)?;
            }
            Err(f)
        }
        None => {
            for (name, v) in &values {
                print(*name, v)?;
            }
            Ok(())
        }
    }
}

/// A packet that decoded with `left` bytes after its value.
fn trailing_failure(p: &Packet<'_>, left: usize) -> Failure {
    let at = p.offset + p.bytes.len() - left;
    let message = match p.name {
        Some(n) => format!("row {n}: {left} bytes after the value"),
        None => format!("{left} bytes after the value"),
    };
    Failure::at(at, message)
}

/// A .tsv text column on one line: newlines, carriage returns and tabs as `\n`, `\r`
/// and `\t`.
fn tsv_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

fn decode_failure(e: &godot_bin::Error, base: usize, name: Option<&str>) -> Failure {
    let message = match name {
        Some(n) => format!("row {n}: {}", failure::kind_text(e.kind())),
        None => failure::kind_text(e.kind()),
    };
    Failure::at(base + e.offset().unwrap_or(0), message)
}

fn encode(
    packets: &PacketArgs,
    json: bool,
    output: Option<&Path>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let dialect = packets.dialect.unwrap_or_default();
    // Refused before reading anything, so that nobody types values in vain.
    if output.is_none() && io::stdout().is_terminal() {
        return Err(Failure::msg(
            "refusing to write binary packets to a terminal; redirect standard output \
             (godot-bin encode > FILE) or use -o FILE",
        ));
    }
    let mut input = String::new();
    io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| Failure::msg(format!("standard input: {e}")))?;
    let values: Vec<Variant> = if json {
        json::parse_all(&input).map_err(Failure::msg)?
    } else {
        let mut values = Vec::new();
        let mut rest = input.as_str();
        loop {
            let offset = input.len() - rest.len();
            match Variant::take_from_text(rest) {
                Ok(Some((v, tail))) => {
                    values.push(v);
                    rest = tail;
                }
                Ok(None) => break,
                Err(e) => {
                    // The error's position is within `rest`; report it within the input.
                    let at = offset + e.offset();
                    let before = &input[..at];
                    let line = before.matches('\n').count() + 1;
                    let column = before[before.rfind('\n').map_or(0, |i| i + 1)..]
                        .chars()
                        .count()
                        + 1;
                    return Err(Failure::msg(format!(
                        "input line {line}, column {column} (byte {at}): {}",
                        e.message()
                    )));
                }
            }
        }
        values
    };
    if values.is_empty() {
        return Err(Failure::msg("no value on standard input"));
    }
    let cfg = Config::new(dialect);
    let mut bytes = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let packet = cfg
            .to_vec(v)
            .map_err(|e| Failure::msg(format!("value {}: {e}", i + 1)))?;
        if packets.framed {
            let len = u32::try_from(packet.len())
                .map_err(|_| Failure::msg("packet too long for a frame"))?;
            bytes.extend_from_slice(&if packets.big_endian {
                len.to_be_bytes()
            } else {
                len.to_le_bytes()
            });
        }
        bytes.extend_from_slice(&packet);
    }
    match output {
        Some(path) => std::fs::write(path, &bytes)
            .map_err(|e| Failure::msg(format!("{}: {e}", path.display()))),
        None => Ok(out.write_all(&bytes)?),
    }
}

fn explain(
    packets_args: &PacketArgs,
    keys: &KeyArgs,
    path: &Path,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let input = open_input(packets_args, keys, path)?;
    if let Some(what) = input.describe(packets_args) {
        files::explain_header(&input.file, &what, out)?;
    }
    let (data, dialect) = (input.data(), input.dialect);
    let tsv = if is_tsv(path) {
        read_tsv(data)?
    } else {
        Vec::new()
    };
    // store_var output given without --framed is explained as frames, as dump reads it.
    let (framed, big_endian) = if is_tsv(path) {
        (input.framed, packets_args.big_endian)
    } else {
        let (framed, big_endian, note) =
            framing(data, dialect, input.framed, packets_args.big_endian);
        if let Some(note) = note {
            eprintln!("godot-bin: note: {note}");
        }
        (framed, big_endian)
    };
    match packets(big_endian, framed, path, data, &tsv)? {
        Some(list) => {
            let hint = || dialect_hint(dialect, |d| packets_clean(d, &list));
            // The first packet with bytes after its value: the walk goes on, and fails at
            // the end.
            let mut trailing = None;
            for (i, p) in list.iter().enumerate() {
                match p.name {
                    Some(n) => writeln!(out, "== {n} ({} bytes) ==", p.bytes.len())?,
                    None => writeln!(
                        out,
                        "== frame {i}: length prefix at {:06x}, {} bytes ==",
                        p.offset - 4,
                        p.bytes.len()
                    )?,
                }
                let used = explain::packet(p.bytes, p.offset, dialect, out).map_err(|e| {
                    let message = match p.name {
                        Some(n) => format!("row {n}: {}", e.message),
                        None => e.message,
                    };
                    Failure::at(e.offset, message).with_hint(hint())
                })?;
                if used < p.bytes.len() {
                    writeln!(
                        out,
                        "{:06x}  {} bytes after the value (ignored by the engine)",
                        p.offset + used,
                        p.bytes.len() - used
                    )?;
                    trailing.get_or_insert_with(|| trailing_failure(p, p.bytes.len() - used));
                }
            }
            match trailing {
                Some(f) => Err(f.with_hint(hint())),
                None => Ok(()),
            }
        }
        None => {
            let mut pos = 0;
            let mut i = 0;
            while pos < data.len() {
                writeln!(out, "== packet {i} at {pos:06x} ==")?;
                let used = explain::packet(&data[pos..], pos, dialect, out).map_err(|e| {
                    Failure::at(e.offset, e.message)
                        .with_hint(dialect_hint(dialect, |d| bare_clean(d, data)))
                })?;
                pos += used;
                i += 1;
            }
            Ok(())
        }
    }
}
