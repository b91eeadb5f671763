//! `godot-bin`: look inside Godot Variant packets, and make them, from the command line.
//!
//! ```text
//! godot-bin dump FILE [--json] [PACKET OPTIONS] [--password P | --key HEX]
//!     decode FILE and print every value as GDScript text (or JSON)
//! godot-bin encode [--json] [-o FILE] [PACKET OPTIONS]
//!     read GDScript text (or JSON) on stdin, write packets to stdout
//! godot-bin explain FILE [PACKET OPTIONS] [--password P | --key HEX]
//!     annotated hex dump: every header and field with its offset
//! godot-bin convert OLD NEW [--password P | --key HEX] [--to ...]
//!     a Godot 3 save (plain, encrypted or compressed) into a Godot 4 save; a resource,
//!     scene or ConfigFile between its forms (text, binary, encrypted) by NEW's extension
//!
//! PACKET OPTIONS: --dialect godot4|godot3|godot2|pandemonium|pandemonium37|pandemonium5,
//!                 --framed [--big-endian]
//! ```
//!
//! FILE is a file written by `var_to_bytes` / `var2bytes` (one bare packet, or several
//! back to back), by `FileAccess.store_var` / `StreamPeer.put_var` (with `--framed`: a
//! 4-byte length before each packet; `dump` finds them without it when the bytes are
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

mod explain;
mod failure;
mod files;
mod json;
mod resources;

use clap::{Args, Parser, Subcommand};
use failure::Failure;
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::save::{Container, Layout};
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What `--help` says after the commands: how the dialect is chosen.
const DIALECT_HELP: &str = "The dialect is --dialect's; without it, godot4, except that an \
encrypted save in Godot 3's layout (which no Godot 4 engine writes) is read as godot3. When \
the input does not decode cleanly in that dialect (a value fails, or bytes are left after a \
value), dump and explain fail with exit status 1 and name the dialects in which the whole \
input decodes cleanly (\"hint: ... it does with --dialect godot3\"); they never guess.";

#[derive(Parser)]
#[command(
    name = "godot-bin",
    version,
    about = "Inspect and build Godot Variant packets (var_to_bytes, store_var, put_var)",
    after_help = DIALECT_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How the packets are written: for dump, encode and explain.
#[derive(Args)]
struct PacketArgs {
    /// Whose wire format the packets use: godot4, godot3, godot2, pandemonium (3.8 to
    /// 4.x), pandemonium37 (3.5 to 3.7) or pandemonium5 (case-insensitive). Default:
    /// godot4, or godot3 for an encrypted save in Godot 3's layout.
    #[arg(long)]
    dialect: Option<Dialect>,
    /// Every packet has a 4-byte length prefix (FileAccess.store_var, StreamPeer.put_var).
    /// dump reads such a file as frames without it when the bytes are frames and not bare
    /// packets, and says so.
    #[arg(long)]
    framed: bool,
    /// With --framed: the length prefixes are big-endian (the `big_endian` property).
    #[arg(long, requires = "framed")]
    big_endian: bool,
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
        keys: files::KeyArgs,
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
        keys: files::KeyArgs,
    },
    /// Convert a Godot 3 save (plain, encrypted or compressed) into a Godot 4 save, and
    /// report what was converted and anything without a Godot 4 counterpart.
    ///
    /// The input is read as Godot 3 and the output written as Godot 4, so there is no
    /// --dialect. A save that is already Godot 4's is refused, and the error says so.
    /// Or convert a resource, scene or ConfigFile between its forms (see below).
    #[command(after_long_help = resources::CONVERT_HELP)]
    Convert(files::ConvertArgs),
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
    };
    // What was printed before a failure stays useful: flush it first.
    out.flush()?;
    result
}

/// The input of `dump` and `explain`: the file's bytes, a save's content and container,
/// the dialect to read it in, and whether it is framed.
struct Input {
    file: Vec<u8>,
    /// A save's (`GDEC`, `GCPF`) content and container.
    save: Option<(Vec<u8>, Container)>,
    dialect: Dialect,
    framed: bool,
}

/// Reads `path`, opens a save, and settles the dialect (see [`input_of`]).
fn open_input(packets: &PacketArgs, keys: &files::KeyArgs, path: &Path) -> Result<Input, Failure> {
    input_of(packets, keys, read_input(path)?)
}

/// Opens a save in `file`, and settles the dialect: `--dialect`'s, else Godot 3 for a
/// save in Godot 3's encrypted layout (no Godot 4 engine writes it), else Godot 4.
fn input_of(packets: &PacketArgs, keys: &files::KeyArgs, file: Vec<u8>) -> Result<Input, Failure> {
    let save = files::unwrap(keys, &file)?;
    let godot3_layout = matches!(
        save,
        Some((
            _,
            Container::Encrypted {
                layout: Layout::Godot3,
                ..
            }
        ))
    );
    let dialect = match packets.dialect {
        Some(d) => d,
        None if godot3_layout => Dialect::Godot3,
        None => Dialect::Godot4,
    };
    // A save holds store_var frames.
    let framed = packets.framed || save.is_some();
    Ok(Input {
        file,
        save,
        dialect,
        framed,
    })
}

impl Input {
    /// The bytes to decode: the file's, or a save's content.
    fn data(&self) -> &[u8] {
        match &self.save {
            Some((content, _)) => content,
            None => &self.file,
        }
    }

    /// What the save was, and the dialect when the container chose it.
    fn describe(&self, packets: &PacketArgs) -> Option<String> {
        let (_, container) = self.save.as_ref()?;
        Some(
            if packets.dialect.is_none() && self.dialect == Dialect::Godot3 {
                format!(
                    "{container}; read as Godot 3, the engine of that layout (--dialect to choose \
                 another)"
                )
            } else {
                container.to_string()
            },
        )
    }
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
    big_endian: bool,
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
    split_frames(data, big_endian).map(Some)
}

/// `data` cut into its length-prefixed frames (what store_var and put_var write), or where
/// and why a prefix does not fit.
fn split_frames(data: &[u8], big_endian: bool) -> Result<Vec<Packet<'_>>, Failure> {
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
        let len = if big_endian {
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
    Ok(out)
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
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
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
    packets_args: &PacketArgs,
    keys: &files::KeyArgs,
    path: &Path,
    json: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let file = read_input(path)?;
    // Resources, scenes and ConfigFiles: their own forms (resources.rs).
    if let Some(doc) = resources::open(path, &file, keys.key()?)? {
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
    let (mut framed, mut big_endian) = (input.framed, packets_args.big_endian);
    if !framed && !tsv {
        if let Some(frames) = frames_in(data, dialect) {
            if plausible_bare(dialect, data) {
                eprintln!(
                    "godot-bin: note: the input also reads as {}; if it is, {}",
                    frames.describe(),
                    frames.advice()
                );
            } else {
                eprintln!(
                    "godot-bin: note: read as FileAccess.store_var / StreamPeer.put_var \
                     output ({}), as {} would",
                    frames.describe(),
                    frames.advice().trim_start_matches("use ")
                );
                (framed, big_endian) = (true, frames.big_endian);
            }
        }
    }
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

/// Whether `data` decodes in `dialect` as bare packets back to back, to its last byte.
fn bare_clean(dialect: Dialect, data: &[u8]) -> bool {
    let cfg = config(dialect);
    let mut rest = data;
    while !rest.is_empty() {
        match cfg.take_from_slice::<Variant>(rest) {
            Ok((_, tail)) => rest = tail,
            Err(_) => return false,
        }
    }
    true
}

/// Whether `data` decodes cleanly as bare packets ([`bare_clean`]) none of which is a NIL
/// header with flag bits set: no engine writes one, but a big-endian length prefix below
/// 16 MiB reads as one.
fn plausible_bare(dialect: Dialect, data: &[u8]) -> bool {
    let cfg = config(dialect);
    let mut rest = data;
    while let Some(header) = rest.get(..4) {
        let word = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
        if word & 0xFF == 0 && word != 0 {
            return false;
        }
        match cfg.take_from_slice::<Variant>(rest) {
            Ok((_, tail)) => rest = tail,
            Err(_) => return false,
        }
    }
    rest.is_empty()
}

/// Whether every packet decodes in `dialect`, each to its last byte.
fn packets_clean(dialect: Dialect, packets: &[Packet<'_>]) -> bool {
    let cfg = config(dialect);
    packets
        .iter()
        .all(|p| cfg.from_slice::<Variant>(p.bytes).is_ok())
}

/// When the input does not decode cleanly in `chosen`: the other dialects it does decode
/// cleanly in, as a hint.
fn dialect_hint(chosen: Dialect, clean: impl Fn(Dialect) -> bool) -> Option<String> {
    let others: Vec<String> = Dialect::ALL
        .into_iter()
        .filter(|&d| d != chosen && clean(d))
        .map(|d| format!("--dialect {}", d.id()))
        .collect();
    if others.is_empty() {
        return None;
    }
    Some(format!(
        "the input does not decode cleanly as {chosen}, but it does with {}",
        others.join(" or ")
    ))
}

/// Length-prefixed frames found in input given without `--framed`.
struct FoundFrames {
    count: usize,
    big_endian: bool,
}

impl FoundFrames {
    fn describe(&self) -> String {
        let order = if self.big_endian {
            "big-endian"
        } else {
            "little-endian"
        };
        let frames = if self.count == 1 { "frame" } else { "frames" };
        format!(
            "{} {frames}, each a 4-byte {order} length then a packet",
            self.count
        )
    }

    fn advice(&self) -> String {
        if self.big_endian {
            "use --framed --big-endian".to_owned()
        } else {
            "use --framed".to_owned()
        }
    }
}

/// Whether `data` is a sequence of length-prefixed frames (what store_var and put_var
/// write) whose packets, each at least one header long, decode to their last byte in
/// `dialect` or in another dialect; little-endian prefixes are tried first.
fn frames_in(data: &[u8], dialect: Dialect) -> Option<FoundFrames> {
    [false, true].into_iter().find_map(|big_endian| {
        let packets = split_frames(data, big_endian).ok()?;
        if packets.iter().any(|p| p.bytes.len() < 4) {
            return None;
        }
        let decodes = packets_clean(dialect, &packets)
            || Dialect::ALL
                .into_iter()
                .any(|d| d != dialect && packets_clean(d, &packets));
        (!packets.is_empty() && decodes).then_some(FoundFrames {
            count: packets.len(),
            big_endian,
        })
    })
}

fn decode_failure(e: &godot_bin::Error, base: usize, name: Option<&str>) -> Failure {
    let message = match name {
        Some(n) => format!("row {n}: {}", e.kind()),
        None => e.kind().to_string(),
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
    keys: &files::KeyArgs,
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
    match packets(packets_args.big_endian, input.framed, path, data, &tsv)? {
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
