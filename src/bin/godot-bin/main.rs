//! `godot-bin`: look inside Godot Variant packets, and make them, from the command line.
//!
//! ```text
//! godot-bin [--dialect godot4|godot3|godot2|pandemonium|pandemonium37|pandemonium5]
//!           [--framed [--big-endian]] <command>
//!
//!   dump FILE [--json]   decode FILE and print every value as GDScript text (or JSON)
//!   encode [--json]      read GDScript text (or JSON) on stdin, write packets to stdout
//!   explain FILE         annotated hex dump: every header and field with its offset
//! ```
//!
//! FILE is a file written by `var_to_bytes` / `var2bytes` (one bare packet, or several
//! back to back), by `FileAccess.store_var` / `StreamPeer.put_var` (with `--framed`: a
//! 4-byte length before each packet), or a `.tsv` of hex packets (`name<TAB>hex...` per
//! line, `#` comments), such as the crate's golden files. `-` reads standard input.
//!
//! Errors name the byte offset in FILE where decoding failed, and the exit status is 1.
//! Full objects are decoded (as data: nothing is instantiated), since this is a tool for
//! looking at packets.
//!
//! The JSON mapping is described in `godot-bin dump --help`.

mod explain;
mod files;
mod json;

use clap::{Parser, Subcommand, ValueEnum};
use godot_bin::{Config, Dialect, Variant};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "godot-bin",
    version,
    about = "Inspect and build Godot Variant packets (var_to_bytes, store_var, put_var)"
)]
struct Cli {
    /// Whose wire format the packets use.
    #[arg(long, global = true, value_enum, default_value_t = DialectArg::Godot4)]
    dialect: DialectArg,
    /// Every packet has a 4-byte length prefix (FileAccess.store_var, StreamPeer.put_var).
    #[arg(long, global = true)]
    framed: bool,
    /// With --framed: the length prefixes are big-endian (the `big_endian` property).
    #[arg(long, global = true, requires = "framed")]
    big_endian: bool,
    #[command(flatten)]
    keys: files::KeyArgs,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decode FILE and print each value as GDScript text (var_to_str), or as JSON.
    #[command(after_long_help = json::MAPPING_HELP)]
    Dump {
        /// A packet file, or a .tsv of hex packets; `-` for standard input.
        file: PathBuf,
        /// Print one JSON document per line instead of GDScript text.
        #[arg(long)]
        json: bool,
    },
    /// Read GDScript text (str_to_var) or JSON on standard input; write the packets to
    /// standard output, one per value.
    #[command(after_long_help = json::MAPPING_HELP)]
    Encode {
        /// Read JSON documents (see the mapping below) instead of GDScript text.
        #[arg(long)]
        json: bool,
    },
    /// Print an annotated hex dump of FILE: every header with its type and flags, every
    /// field with its byte offset, and where decoding fails.
    Explain {
        /// A packet file, or a .tsv of hex packets; `-` for standard input.
        file: PathBuf,
    },
    /// Convert a Godot 3 save (plain, encrypted or compressed) into a Godot 4 save, and
    /// report what was converted and anything without a Godot 4 counterpart.
    Convert(files::ConvertArgs),
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    /// Godot 4.x (var_to_bytes).
    Godot4,
    /// Godot 3.x (var2bytes).
    Godot3,
    /// Godot 2.1.
    Godot2,
    /// Pandemonium 3.8 to 4.x.
    Pandemonium,
    /// Pandemonium 3.5 to 3.7.
    Pandemonium37,
    /// Pandemonium 5.x.
    Pandemonium5,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Godot4 => Dialect::Godot4,
            DialectArg::Godot3 => Dialect::Godot3,
            DialectArg::Godot2 => Dialect::Godot2,
            DialectArg::Pandemonium => Dialect::Pandemonium,
            DialectArg::Pandemonium37 => Dialect::Pandemonium37,
            DialectArg::Pandemonium5 => Dialect::Pandemonium5,
        }
    }
}

/// A failure, with the byte offset in the input when there is one.
struct Failure {
    offset: Option<usize>,
    message: String,
}

impl Failure {
    fn at(offset: usize, message: impl Into<String>) -> Failure {
        Failure {
            offset: Some(offset),
            message: message.into(),
        }
    }

    fn msg(message: impl Into<String>) -> Failure {
        Failure {
            offset: None,
            message: message.into(),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::msg(e.to_string())
    }
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
            ExitCode::FAILURE
        }
    }
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let dialect = Dialect::from(cli.dialect);
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Dump { file, json } => dump(cli, dialect, file, *json, &mut out),
        Command::Encode { json } => encode(cli, dialect, *json, &mut out),
        Command::Explain { file } => explain(cli, dialect, file, &mut out),
        Command::Convert(args) => files::convert(&cli.keys, args, &mut out),
    };
    // What was printed before a failure stays useful: flush it first.
    out.flush()?;
    result
}

fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| Failure::msg(format!("{}: {e}", path.display())))
    }
}

/// One packet of the input: a name for `.tsv` rows, its bytes and where they start.
struct Packet<'a> {
    name: Option<&'a str>,
    bytes: &'a [u8],
    offset: usize,
}

/// The input split into packets, or `None` when packets lie back to back with no framing
/// (their extents are only known by decoding them).
fn packets<'a>(
    cli: &Cli,
    framed: bool,
    path: &Path,
    data: &'a [u8],
    tsv: &'a [(String, Vec<u8>)],
) -> Result<Option<Vec<Packet<'a>>>, Failure> {
    if is_tsv(path) {
        return Ok(Some(
            tsv.iter()
                .map(|(name, bytes)| Packet {
                    name: Some(name),
                    bytes,
                    offset: 0,
                })
                .collect(),
        ));
    }
    if !framed {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < data.len() {
        let Some(prefix) = data.get(pos..pos + 4) else {
            return Err(Failure::at(
                pos,
                format!("a length prefix needs 4 bytes, {} left", data.len() - pos),
            ));
        };
        let prefix = [prefix[0], prefix[1], prefix[2], prefix[3]];
        let len = if cli.big_endian {
            u32::from_be_bytes(prefix)
        } else {
            u32::from_le_bytes(prefix)
        } as usize;
        let start = pos + 4;
        if len > data.len() - start {
            return Err(Failure::at(
                pos,
                format!(
                    "frame length {len} but only {} bytes follow",
                    data.len() - start
                ),
            ));
        }
        out.push(Packet {
            name: None,
            bytes: &data[start..start + len],
            offset: start,
        });
        pos = start + len;
    }
    Ok(Some(out))
}

fn is_tsv(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsv"))
}

/// `name<TAB>hex[<TAB>...]` lines; `#` lines and blank lines are skipped.
fn read_tsv(data: &[u8]) -> Result<Vec<(String, Vec<u8>)>, Failure> {
    let text = std::str::from_utf8(data)
        .map_err(|e| Failure::msg(format!("the .tsv is not UTF-8: {e}")))?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        let name = cols.next().unwrap_or_default();
        let hex = cols.next().unwrap_or_default().trim();
        let bytes = unhex(hex).ok_or_else(|| {
            Failure::msg(format!(
                "line {}: {name}: the second column is not hex",
                n + 1
            ))
        })?;
        rows.push((name.to_owned(), bytes));
    }
    Ok(rows)
}

fn unhex(hex: &str) -> Option<Vec<u8>> {
    if hex.len() % 2 != 0 || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

fn config(dialect: Dialect) -> Config {
    Config::new(dialect).allow_objects(true)
}

fn dump(
    cli: &Cli,
    dialect: Dialect,
    path: &Path,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let data = read_input(path)?;
    // An encrypted or compressed save holds store_var frames.
    let (data, framed) = match files::unwrap(&cli.keys, &data)? {
        Some((content, what)) => {
            eprintln!("godot-bin: {what}");
            (content, true)
        }
        None => (data, cli.framed),
    };
    let tsv = if is_tsv(path) {
        read_tsv(&data)?
    } else {
        Vec::new()
    };
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
            if let Some(n) = name {
                write!(out, "{n}\t")?;
            }
            // An Object's text already ends with a newline, as the engine prints it.
            if text.ends_with('\n') {
                write!(out, "{text}")
            } else {
                writeln!(out, "{text}")
            }
        }
    };
    match packets(cli, framed, path, &data, &tsv)? {
        Some(list) => {
            for p in list {
                let (v, rest) = cfg
                    .take_from_slice::<Variant>(p.bytes)
                    .map_err(|e| decode_failure(&e, p.offset, p.name))?;
                if !rest.is_empty() {
                    let at = p.offset + p.bytes.len() - rest.len();
                    eprintln!("godot-bin: warning: {} bytes after the value at byte offset {at} are ignored", rest.len());
                }
                print(p.name, &v)?;
            }
        }
        None => {
            // Bare packets back to back (one, for var_to_bytes output).
            let mut rest = &data[..];
            while !rest.is_empty() {
                let offset = data.len() - rest.len();
                let (v, tail) = cfg
                    .take_from_slice::<Variant>(rest)
                    .map_err(|e| decode_failure(&e, offset, None))?;
                print(None, &v)?;
                rest = tail;
            }
        }
    }
    Ok(())
}

fn decode_failure(e: &godot_bin::Error, base: usize, name: Option<&str>) -> Failure {
    let message = match name {
        Some(n) => format!("row {n}: {}", e.kind()),
        None => e.kind().to_string(),
    };
    Failure {
        offset: Some(base + e.offset().unwrap_or(0)),
        message,
    }
}

fn encode(cli: &Cli, dialect: Dialect, json: bool, out: &mut impl Write) -> Result<(), Failure> {
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
    for (i, v) in values.iter().enumerate() {
        let packet = cfg
            .to_vec(v)
            .map_err(|e| Failure::msg(format!("value {}: {e}", i + 1)))?;
        if cli.framed {
            let len = u32::try_from(packet.len())
                .map_err(|_| Failure::msg("packet too long for a frame"))?;
            out.write_all(&if cli.big_endian {
                len.to_be_bytes()
            } else {
                len.to_le_bytes()
            })?;
        }
        out.write_all(&packet)?;
    }
    Ok(())
}

fn explain(cli: &Cli, dialect: Dialect, path: &Path, out: &mut impl Write) -> Result<(), Failure> {
    let data = read_input(path)?;
    let (data, framed) = match files::unwrap(&cli.keys, &data)? {
        Some((content, what)) => {
            files::explain_header(&data, &what, out)?;
            (content, true)
        }
        None => (data, cli.framed),
    };
    let tsv = if is_tsv(path) {
        read_tsv(&data)?
    } else {
        Vec::new()
    };
    match packets(cli, framed, path, &data, &tsv)? {
        Some(list) => {
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
                    Failure::at(e.offset, message)
                })?;
                if used < p.bytes.len() {
                    writeln!(
                        out,
                        "{:06x}  {} bytes after the value (ignored by the engine)",
                        p.offset + used,
                        p.bytes.len() - used
                    )?;
                }
            }
        }
        None => {
            let mut pos = 0;
            let mut i = 0;
            while pos < data.len() {
                writeln!(out, "== packet {i} at {pos:06x} ==")?;
                let used = explain::packet(&data[pos..], pos, dialect, out)
                    .map_err(|e| Failure::at(e.offset, e.message))?;
                pos += used;
                i += 1;
            }
        }
    }
    Ok(())
}
