//! What `dump`, `explain`, `get` and `set` read: a file's bytes, the key of an encrypted
//! one, a save's content and container, the dialect to read it in, and its packets (bare, framed as `store_var`
//! writes them, or rows of a `.tsv`), with the checks that tell them apart.

use crate::failure::{dialect_hint_of, kind_text, Failure};
use clap::Args;
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::save::{self as file, Container, Key, Layout};
use godot_bin_files::{ErrorKind, Position};
use std::io::{self, Read};
use std::path::Path;

/// The key of an encrypted file, for the commands that read files.
#[derive(Args, Default)]
pub struct KeyArgs {
    /// The password an encrypted file (GDEC) was written with (open_encrypted_with_pass).
    #[arg(long, conflicts_with = "key")]
    password: Option<String>,
    /// The 32-byte key an encrypted file was written with (open_encrypted), as 64 hex
    /// digits.
    #[arg(long)]
    key: Option<String>,
}

impl KeyArgs {
    /// The key given, if any.
    pub fn key(&self) -> Result<Option<Key>, Failure> {
        match (&self.password, &self.key) {
            (Some(p), _) => Ok(Some(Key::password(p))),
            (None, Some(hex)) => Key::from_hex(hex.trim())
                .map(Some)
                .ok_or_else(|| Failure::msg("--key takes 64 hexadecimal digits (32 bytes)")),
            (None, None) => Ok(None),
        }
    }
}

/// A save file's error as the CLI says it: a value's own error at its offset in the
/// packet, and what to give for a key.
pub(crate) fn save_failure(e: godot_bin_files::Error) -> Failure {
    let hint = match e.kind() {
        ErrorKind::KeyRequired => ": give --password or --key",
        ErrorKind::WrongKey => " (check --password / --key)",
        _ => "",
    };
    // A value's own error: its kind, and its offset in the packet.
    let (offset, message, dialects) = match e.kind() {
        ErrorKind::Variant(inner) => (
            inner.offset(),
            kind_text(inner.kind()),
            dialect_hint_of(inner.kind()),
        ),
        kind => match e.position() {
            Some(Position::Byte(at)) => (Some(at), kind.to_string(), None),
            _ => (None, kind.to_string(), None),
        },
    };
    Failure {
        offset,
        message: format!("{message}{hint}"),
        hint: dialects,
    }
}

/// The content and container of `data` if it is an encrypted or compressed file; `None`
/// for anything else.
pub fn unwrap(keys: &KeyArgs, data: &[u8]) -> Result<Option<(Vec<u8>, Container)>, Failure> {
    match data.get(..4) {
        Some(b"GDEC") => {
            let key = keys
                .key()?
                .ok_or_else(|| save_failure(ErrorKind::KeyRequired.into()))?;
            let content = file::decrypt(data, &key).map_err(save_failure)?;
            let reader = file::Reader::with_key(data, &key, &godot_bin::Config::default())
                .map_err(save_failure)?;
            Ok(Some((content, reader.container().clone())))
        }
        Some(b"GCPF") => {
            let content = file::decompress(data).map_err(save_failure)?;
            let reader =
                file::Reader::new(data, &godot_bin::Config::default()).map_err(save_failure)?;
            Ok(Some((content, reader.container().clone())))
        }
        _ => Ok(None),
    }
}

/// How the packets are written: for dump, encode and explain.
#[derive(Args)]
pub(crate) struct PacketArgs {
    /// Whose wire format the packets use: godot4, godot3, godot2, pandemonium (3.8 to
    /// 4.x), pandemonium37 (3.5 to 3.7) or pandemonium5 (case-insensitive). Default:
    /// godot4, or godot3 for an encrypted save in Godot 3's layout.
    #[arg(long)]
    pub(crate) dialect: Option<Dialect>,
    /// Every packet has a 4-byte length prefix (FileAccess.store_var, StreamPeer.put_var).
    /// dump reads such a file as frames without it when the bytes are frames and not bare
    /// packets, and says so.
    #[arg(long)]
    pub(crate) framed: bool,
    /// With --framed: the length prefixes are big-endian (the `big_endian` property).
    #[arg(long, requires = "framed")]
    pub(crate) big_endian: bool,
}

/// The input of `dump` and `explain`: the file's bytes, a save's content and container,
/// the dialect to read it in, and whether it is framed.
pub(crate) struct Input {
    pub(crate) file: Vec<u8>,
    /// A save's (`GDEC`, `GCPF`) content and container.
    pub(crate) save: Option<(Vec<u8>, Container)>,
    pub(crate) dialect: Dialect,
    pub(crate) framed: bool,
}

/// Reads `path`, opens a save, and settles the dialect (see [`input_of`]).
pub(crate) fn open_input(
    packets: &PacketArgs,
    keys: &KeyArgs,
    path: &Path,
) -> Result<Input, Failure> {
    input_of(packets, keys, read_input(path)?)
}

/// Opens a save in `file`, and settles the dialect: `--dialect`'s, else Godot 3 for a
/// save in Godot 3's encrypted layout (no Godot 4 engine writes it), else Godot 4.
pub(crate) fn input_of(
    packets: &PacketArgs,
    keys: &KeyArgs,
    file: Vec<u8>,
) -> Result<Input, Failure> {
    let save = unwrap(keys, &file)?;
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
    pub(crate) fn data(&self) -> &[u8] {
        match &self.save {
            Some((content, _)) => content,
            None => &self.file,
        }
    }

    /// What the save was, and the dialect when the container chose it.
    pub(crate) fn describe(&self, packets: &PacketArgs) -> Option<String> {
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

pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>, Failure> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        std::fs::read(path).map_err(|e| Failure::msg(format!("{}: {e}", path.display())))
    }
}

/// One packet of the input: a name for `.tsv` rows, its bytes and where they start.
pub(crate) struct Packet<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) bytes: &'a [u8],
    pub(crate) offset: usize,
}

/// The input split into packets, or `None` when packets lie back to back with no framing
/// (their extents are only known by decoding them).
pub(crate) fn packets<'a>(
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
pub(crate) fn split_frames(data: &[u8], big_endian: bool) -> Result<Vec<Packet<'_>>, Failure> {
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

pub(crate) fn is_tsv(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsv"))
}

/// `name<TAB>hex[<TAB>...]` lines; `#` lines and blank lines are skipped.
pub(crate) fn read_tsv(data: &[u8]) -> Result<Vec<(String, Vec<u8>)>, Failure> {
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

pub(crate) fn unhex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) || !hex.is_ascii() {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).ok())
        .collect()
}

pub(crate) fn config(dialect: Dialect) -> Config {
    Config::new(dialect).allow_objects(true)
}

/// Whether `data` decodes in `dialect` as bare packets back to back, to its last byte.
pub(crate) fn bare_clean(dialect: Dialect, data: &[u8]) -> bool {
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
pub(crate) fn plausible_bare(dialect: Dialect, data: &[u8]) -> bool {
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
pub(crate) fn packets_clean(dialect: Dialect, packets: &[Packet<'_>]) -> bool {
    let cfg = config(dialect);
    packets
        .iter()
        .all(|p| cfg.from_slice::<Variant>(p.bytes).is_ok())
}

/// When the input does not decode cleanly in `chosen`: the other dialects it does decode
/// cleanly in, as a hint.
pub(crate) fn dialect_hint(chosen: Dialect, clean: impl Fn(Dialect) -> bool) -> Option<String> {
    let others: Vec<String> = Dialect::ALL
        .into_iter()
        .filter(|&d| d != chosen && clean(d))
        .map(|d| format!("--dialect {}", d.id()))
        .collect();
    if others.is_empty() {
        return None;
    }
    Some(crate::failure::hint_text(chosen, &others))
}

/// Length-prefixed frames found in input given without `--framed`.
pub(crate) struct FoundFrames {
    pub(crate) count: usize,
    pub(crate) big_endian: bool,
}

impl FoundFrames {
    pub(crate) fn describe(&self) -> String {
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

    pub(crate) fn advice(&self) -> String {
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
pub(crate) fn frames_in(data: &[u8], dialect: Dialect) -> Option<FoundFrames> {
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

/// How the packets of `data` are framed: as given (`--framed`, `--big-endian`), or, for
/// store_var output given without `--framed` (issue 39 #4), as the frames found when the
/// bytes do not also read as bare packets; with the note to print on stderr about it.
pub(crate) fn framing(
    data: &[u8],
    dialect: Dialect,
    framed: bool,
    big_endian: bool,
) -> (bool, bool, Option<String>) {
    if framed {
        return (framed, big_endian, None);
    }
    match frames_in(data, dialect) {
        None => (false, big_endian, None),
        Some(frames) if plausible_bare(dialect, data) => (
            false,
            big_endian,
            Some(format!(
                "the input also reads as {}; if it is, {}",
                frames.describe(),
                frames.advice()
            )),
        ),
        Some(frames) => (
            true,
            frames.big_endian,
            Some(format!(
                "read as FileAccess.store_var / StreamPeer.put_var output ({}), as {} would",
                frames.describe(),
                frames.advice().trim_start_matches("use ")
            )),
        ),
    }
}
