//! `godot-bin pack ...`, `dump PACK`, `convert PACK OUT.pck`, and files inside a pack
//! (`PACK::res://path`) for `dump`, `get` and `set`.

use crate::failure::Failure;
use clap::{Args, Subcommand};
use godot_bin_files::pack::{Pack, PackWriter, Patch};
use godot_bin_files::save::Key;
use godot_bin_files::{ErrorKind, Position};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How a file inside a pack is named on the command line.
pub(crate) const INSIDE_HELP: &str =
    "A file inside a pack is PACK::res://PATH (game.pck::res://level.tscn): \
dump, get and set read it from the pack, and set writes it back into the pack in place \
(the other files' bytes untouched). --key HEX gives an encrypted pack's key.";

/// The pack commands.
#[derive(Subcommand)]
pub enum PackCommand {
    /// One line a file: its res:// path, size and the MD5 of its bytes (hex), tab-separated.
    List {
        /// A .pck, or an executable with its pack inside.
        pack: PathBuf,
        #[command(flatten)]
        key: PackKey,
    },
    /// Write every file of the pack below DIR (never outside it: a path with `..`, an
    /// absolute path or a drive letter is refused before anything is written).
    Extract {
        /// A .pck, or an executable with its pack inside.
        pack: PathBuf,
        /// The folder to write into (made if missing).
        dir: PathBuf,
        #[command(flatten)]
        key: PackKey,
    },
    /// Write a new pack of every file below DIR, at its path below DIR.
    Create(CreateArgs),
    /// Put FILE's bytes at res://PATH in the pack, in place: a file there is replaced,
    /// else one is added; the other files' bytes are not rewritten.
    Set {
        /// The pack to change (a .pck or an executable's pack).
        pack: PathBuf,
        /// Where in the pack (res://PATH).
        path: String,
        /// The file whose bytes to put there.
        file: PathBuf,
        #[command(flatten)]
        key: PackKey,
    },
    /// Remove res://PATH from the pack, in place.
    Rm {
        /// The pack to change.
        pack: PathBuf,
        /// The file to remove (res://PATH).
        path: String,
        #[command(flatten)]
        key: PackKey,
    },
}

/// `--key` of a pack: the game's 32-byte encryption key (a stock engine's is all zeros).
#[derive(Args)]
pub struct PackKey {
    /// The pack's encryption key, as 64 hex digits (the all-zero key of a stock engine:
    /// 64 zeros).
    #[arg(long, value_name = "HEX")]
    key: Option<String>,
}

impl PackKey {
    fn get(&self) -> Result<Option<Key>, Failure> {
        parse_key(self.key.as_deref())
    }
}

fn parse_key(hex: Option<&str>) -> Result<Option<Key>, Failure> {
    match hex {
        None => Ok(None),
        Some(h) => Key::from_hex(h.trim())
            .map(Some)
            .ok_or_else(|| Failure::msg("--key takes 64 hexadecimal digits (32 bytes)")),
    }
}

/// `godot-bin pack create`.
#[derive(Args)]
pub struct CreateArgs {
    /// The pack to write.
    pack: PathBuf,
    /// The folder whose files go in.
    dir: PathBuf,
    /// The engine the pack is for: 3, 4.0, 4.5 or 4.7 pick the layout (format 1, 2, 3, 4);
    /// a full version such as 3.2.3 or 4.6.2 also sets the header's numbers (an engine
    /// refuses packs from newer engines). 4.4 and later store paths without res://.
    #[arg(long, value_name = "V", default_value = "4.4")]
    engine: String,
    /// Align each file's bytes to N bytes (0: none).
    #[arg(long, value_name = "N", default_value_t = 16)]
    alignment: u32,
    /// Encrypt the files' bytes (Godot 4 packs; needs --key).
    #[arg(long)]
    encrypt_files: bool,
    /// Encrypt the directory (Godot 4 packs; needs --key).
    #[arg(long)]
    encrypt_directory: bool,
    #[command(flatten)]
    key: PackKey,
}

/// A pack's error as the CLI says it.
pub(crate) fn failure(e: godot_bin_files::Error) -> Failure {
    let hint = match e.kind() {
        ErrorKind::KeyRequired => Some("give the pack's key: --key HEX (64 hex digits)".into()),
        ErrorKind::WrongKey => {
            Some("check --key: the MD5 of what it decrypted does not match".into())
        }
        _ => None,
    };
    let offset = match e.position() {
        Some(Position::Byte(at)) => Some(at),
        _ => None,
    };
    Failure {
        offset,
        message: e.to_string(),
        hint,
    }
}

fn open(path: &Path, key: Option<&Key>) -> Result<Pack, Failure> {
    match key {
        Some(k) => Pack::open_with_key(path, k),
        None => Pack::open(path),
    }
    .map_err(failure)
}

pub(crate) fn run(cmd: &PackCommand, out: &mut impl Write) -> Result<(), Failure> {
    match cmd {
        PackCommand::List { pack, key } => {
            let mut p = open(pack, key.get()?.as_ref())?;
            for e in p.entries().to_vec() {
                if e.is_removal() {
                    continue;
                }
                let md5 = p.file_md5(&e).map_err(failure)?;
                writeln!(out, "{}\t{}\t{}", e.res_path(), e.size(), hex(&md5))?;
            }
            Ok(())
        }
        PackCommand::Extract { pack, dir, key } => {
            let mut p = open(pack, key.get()?.as_ref())?;
            let n = p.extract_all(dir).map_err(failure)?;
            eprintln!("godot-bin: extracted {n} files into {}", dir.display());
            Ok(())
        }
        PackCommand::Create(args) => create(args),
        PackCommand::Set {
            pack,
            path,
            file,
            key,
        } => {
            let bytes = std::fs::read(file)
                .map_err(|e| Failure::msg(format!("{}: {e}", file.display())))?;
            put(pack, path, bytes, key.get()?.as_ref())
        }
        PackCommand::Rm { pack, path, key } => {
            let mut patch = Patch::open(pack, key.get()?.as_ref()).map_err(failure)?;
            patch.remove(path);
            patch.commit().map_err(failure)?;
            eprintln!("godot-bin: removed {path} from {}", pack.display());
            Ok(())
        }
    }
}

fn create(args: &CreateArgs) -> Result<(), Failure> {
    let key = args.key.get()?;
    let mut w = PackWriter::for_engine(&args.engine)
        .map_err(failure)?
        .alignment(args.alignment)
        .encrypt_files(args.encrypt_files);
    w.encrypt_directory(args.encrypt_directory);
    if let Some(k) = key {
        w = w.key(k);
    }
    w.add_dir(&args.dir).map_err(failure)?;
    w.save(&args.pack).map_err(failure)?;
    let pack = Pack::open_with_key(&args.pack, &Key::bytes([0; 32])).or_else(|_| {
        // Only to count what was written: an encrypted directory under another key.
        parse_key(args.key.key.as_deref())?
            .map(|k| Pack::open_with_key(&args.pack, &k).map_err(failure))
            .unwrap_or_else(|| Pack::open(&args.pack).map_err(failure))
    })?;
    eprintln!(
        "godot-bin: wrote {} ({}, {} files)",
        args.pack.display(),
        pack.header(),
        pack.entries().len()
    );
    Ok(())
}

/// Puts `bytes` at `path` in the pack at `pack`, in place.
pub(crate) fn put(
    pack: &Path,
    path: &str,
    bytes: Vec<u8>,
    key: Option<&Key>,
) -> Result<(), Failure> {
    let mut patch = Patch::open(pack, key).map_err(failure)?;
    let len = bytes.len();
    patch.set(path, bytes);
    let done = patch.commit().map_err(failure)?;
    let moved = if done.relocated.is_empty() {
        String::new()
    } else {
        format!(
            "; moved {} to the end to make room for the directory",
            done.relocated.join(", ")
        )
    };
    eprintln!(
        "godot-bin: put {path} ({len} bytes) into {}: {} bytes appended{moved}",
        pack.display(),
        done.appended
    );
    Ok(())
}

/// `PACK::res://PATH` split into the pack and the path inside it.
pub(crate) fn inside(path: &Path) -> Option<(PathBuf, String)> {
    let s = path.to_str()?;
    let at = s.find("::res://")?;
    Some((PathBuf::from(&s[..at]), s[at + 2..].to_string()))
}

/// The bytes of `path`, or of the file it names inside a pack.
pub(crate) fn read(path: &Path, key: Option<&Key>) -> Result<Vec<u8>, Failure> {
    match inside(path) {
        Some((pack, inner)) => open(&pack, key)?.read(&inner).map_err(failure),
        None => crate::input::read_input(path),
    }
}

/// Writes `bytes` to `path` whole or not at all, or into the pack it names.
pub(crate) fn write(path: &Path, bytes: &[u8], key: Option<&Key>) -> Result<(), Failure> {
    match inside(path) {
        Some((pack, inner)) => put(&pack, &inner, bytes.to_vec(), key),
        None => write_atomically(path, bytes),
    }
}

/// The dialect of the engine that wrote the pack `path` names a file inside, if it does.
pub(crate) fn engine_dialect(path: &Path) -> Option<godot_bin::Dialect> {
    let (pack, _) = inside(path)?;
    let header = Pack::open(&pack).ok()?.header().clone();
    Some(if header.engine[0] >= 4 {
        godot_bin::Dialect::Godot4
    } else {
        godot_bin::Dialect::Godot3
    })
}

/// Whether the file at `path` is a pack: `GDPC` at its start, or at its end after the
/// pack's size (an executable's).
pub(crate) fn is_pack(path: &Path) -> bool {
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let mut magic = [0u8; 4];
    if f.read_exact(&mut magic).is_ok() && &magic == b"GDPC" {
        return true;
    }
    f.seek(SeekFrom::End(-4)).is_ok() && f.read_exact(&mut magic).is_ok() && &magic == b"GDPC"
}

/// `dump PACK`: the header, where the pack lies, and the directory.
pub(crate) fn dump(path: &Path, key: Option<&Key>, out: &mut impl Write) -> Result<(), Failure> {
    let pack = open(path, key)?;
    writeln!(out, "{}", pack.header())?;
    if pack.is_embedded() {
        writeln!(out, "inside an executable, from byte {}", pack.start())?;
    }
    let (from, to) = pack.directory_span();
    writeln!(
        out,
        "directory: {} files, bytes {from}..{to}{}",
        pack.entries().len(),
        if pack.header().dir_encrypted() {
            ", encrypted"
        } else {
            ""
        }
    )?;
    writeln!(out, "path\toffset\tsize\tmd5\tflags")?;
    for e in pack.entries() {
        let md5 = hex(&e.md5());
        let mut flags = Vec::new();
        if e.is_encrypted() {
            flags.push("encrypted");
        }
        if e.is_removal() {
            flags.push("removal");
        }
        if e.flags() & godot_bin_files::pack::FILE_DELTA != 0 {
            flags.push("delta");
        }
        writeln!(
            out,
            "{}\t{}\t{}\t{md5}\t{}",
            e.path(),
            e.offset(),
            e.size(),
            if flags.is_empty() {
                "-".to_string()
            } else {
                flags.join(",")
            }
        )?;
    }
    Ok(())
}

/// `convert PACK OUT.pck`: the pack read and written back, byte for byte.
pub(crate) fn convert(input: &Path, output: &Path, key: Option<&Key>) -> Result<(), Failure> {
    let same = std::fs::canonicalize(input).ok() == std::fs::canonicalize(output).ok();
    if same {
        return Err(Failure::msg(
            "convert writes a new pack: give another OUT than PACK",
        ));
    }
    let mut pack = open(input, key)?;
    let file = std::fs::File::create(output)
        .map_err(|e| Failure::msg(format!("{}: {e}", output.display())))?;
    let mut w = std::io::BufWriter::new(file);
    pack.write_to(&mut w).map_err(failure)?;
    w.flush()?;
    eprintln!(
        "godot-bin: wrote {} ({}, {} files)",
        output.display(),
        pack.header(),
        pack.entries().len()
    );
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes `bytes` to `path` whole or not at all: a temporary file beside the target, synced,
/// given the old file's permissions and renamed over it; a symbolic link's target is
/// written in place of the link. (The files crate's documents save the same way; this
/// writes the bytes a `set` made, of whichever kind the file is.)
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    use std::io::Write;
    let resolved = std::fs::canonicalize(path).ok();
    let path = resolved.as_deref().unwrap_or(path);
    let fail = |e: std::io::Error| Failure::msg(format!("{}: {e}", path.display()));
    let permissions = std::fs::metadata(path).ok().map(|m| m.permissions());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.godot-bin.tmp", std::process::id()));
    let mut file = std::fs::File::create(&tmp).map_err(fail)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| permissions.map_or(Ok(()), |p| std::fs::set_permissions(&tmp, p)))
        .and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(fail(e));
    }
    Ok(())
}
