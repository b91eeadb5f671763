//! Save files in the CLI: `explain` shows an encrypted (`GDEC`) or compressed (`GCPF`)
//! file's header, and `convert` moves a save between containers or to Godot 4; resources,
//! scenes and ConfigFiles it hands to `resources.rs`.

use crate::failure::Failure;
use crate::input::{save_failure as failure, unwrap, KeyArgs};
use clap::{Args, ValueEnum};
use godot_bin::Dialect;
use godot_bin_files::save::{
    self as file, Compression, Container, ConvertOptions, Key, Layout, Target,
};
use godot_bin_files::ErrorKind;
use std::io::Write;
use std::path::PathBuf;

/// Writes an annotated dump of a container's header to `out`; the content's frames are
/// explained after it by the caller.
pub fn explain_header(data: &[u8], what: &str, out: &mut impl Write) -> Result<(), Failure> {
    let word = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().unwrap());
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    writeln!(out, "== {what} ==")?;
    if data.starts_with(b"GDEC") {
        writeln!(out, "000000  47 44 45 43  magic \"GDEC\"")?;
        let godot3 = word(4) == 1;
        let base = if godot3 {
            writeln!(out, "000004  mode 1 (Godot 3 layout: AES-256-ECB, no IV)")?;
            8
        } else {
            4
        };
        writeln!(
            out,
            "{base:06x}  MD5 of the content {}",
            hex(&data[base..base + 16])
        )?;
        let len = u64::from_le_bytes(data[base + 16..base + 24].try_into().unwrap());
        writeln!(out, "{:06x}  content length {len} (u64)", base + 16)?;
        let start = if godot3 {
            base + 24
        } else {
            writeln!(
                out,
                "{:06x}  IV {} (Godot 4 layout: AES-256-CFB)",
                base + 24,
                hex(&data[base + 24..base + 40])
            )?;
            base + 40
        };
        let padded = len.div_ceil(16) * 16;
        writeln!(
            out,
            "{start:06x}  {padded} encrypted bytes (the content zero-padded to 16)"
        )?;
    } else {
        let mode = word(4);
        let name = Compression::from_mode(mode).map_or("unknown".into(), |c| c.to_string());
        let (block, total) = (word(8), word(12));
        writeln!(out, "000000  47 43 50 46  magic \"GCPF\"")?;
        writeln!(out, "000004  mode {mode} ({name})")?;
        writeln!(out, "000008  block size {block}")?;
        writeln!(out, "00000c  content length {total}")?;
        let count = u64::from(total / block.max(1)) + 1;
        let mut at = 16 + 4 * count as usize;
        for i in 0..count as usize {
            let size = word(16 + 4 * i);
            writeln!(
                out,
                "{:06x}  block {i}: {size} compressed bytes at {at:06x}",
                16 + 4 * i
            )?;
            at += size as usize;
        }
        writeln!(out, "{at:06x}  magic \"GCPF\" again")?;
    }
    writeln!(out, "-- content (offsets below are in the content) --")?;
    Ok(())
}

/// `godot-bin convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The file: a save (plain, encrypted with --password / --key, or compressed), a
    /// resource, a scene or a ConfigFile; or, with --godot4, a Godot 3 project folder
    /// (written as a Godot 4 project into OUTPUT, a folder that must not exist or be empty).
    input: PathBuf,
    /// Where to write it (written only if the conversion succeeds).
    output: PathBuf,
    /// What to write: like the input (the default; an encrypted save keeps its key, with
    /// Godot 4's layout; a compressed .res/.scn its mode), plain, encrypted (saves and
    /// ConfigFiles), or compressed in one of the modes (saves, and .res/.scn as RSCC).
    /// A --to that does not apply to the output is refused.
    #[arg(long, value_enum, default_value_t = ToArg::Same)]
    to: ToArg,
    /// The password to encrypt the output with (default: the input's).
    #[arg(long, conflicts_with = "new_key")]
    new_password: Option<String>,
    /// The key to encrypt the output with, as 64 hex digits (default: the input's).
    #[arg(long)]
    new_key: Option<String>,
    /// Refuse to write anything when something does not carry over exactly (each is
    /// listed on stderr either way).
    #[arg(long)]
    strict: bool,
    /// Upgrade a Godot 3 save, resource or scene to Godot 4. Without it a file keeps its
    /// engine: a save's content is copied byte for byte into the container --to asks for.
    #[arg(long)]
    godot4: bool,
    /// Keep a Godot 3 file's engine: what convert does without --godot4 (kept for scripts
    /// written when upgrading was the default).
    #[arg(long, hide = true, conflicts_with = "godot4")]
    same_engine: bool,
    #[command(flatten)]
    keys: KeyArgs,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ToArg {
    Same,
    Plain,
    Encrypted,
    Fastlz,
    Deflate,
    Zstd,
    Gzip,
}

pub fn convert(args: &ConvertArgs, out: &mut impl Write) -> Result<(), Failure> {
    let key = args.keys.key()?;
    let new_key = match (&args.new_password, &args.new_key) {
        (Some(p), _) => Some(Key::password(p)),
        (None, Some(hex)) => Some(
            Key::from_hex(hex.trim())
                .ok_or_else(|| Failure::msg("--new-key takes 64 hexadecimal digits"))?,
        ),
        (None, None) => None,
    };
    if args.input.is_dir() {
        return convert_project(args, out);
    }
    // A pack: read and written back, byte for byte.
    if crate::pack::inside(&args.input).is_none() && crate::pack::is_pack(&args.input) {
        return crate::pack::convert(&args.input, &args.output, key.as_ref());
    }
    // Resources, scenes and ConfigFiles go their own way (resources.rs).
    let data = crate::pack::read(&args.input, key.as_ref())?;
    if let Some(doc) = crate::resources::open(&args.input, &data, key.clone())? {
        use crate::resources::To;
        let to = match args.to {
            ToArg::Same => To::Same,
            ToArg::Plain => To::Plain,
            ToArg::Encrypted => To::Encrypted,
            ToArg::Fastlz => To::Compressed(Compression::FastLz),
            ToArg::Deflate => To::Compressed(Compression::Deflate),
            ToArg::Zstd => To::Compressed(Compression::Zstd),
            ToArg::Gzip => To::Compressed(Compression::Gzip),
        };
        let options = crate::resources::ConvertOptions {
            key,
            new_key,
            to,
            godot4: args.godot4,
            strict: args.strict,
        };
        return crate::resources::convert(doc, &args.output, options, out);
    }
    // A save: its name is the game's choice, but not a resource's or a ConfigFile's.
    crate::resources::refuse_kind(&args.output, "a save", &[crate::resources::Kind::Other])?;
    if !args.godot4 {
        return recontainer(args, &data, key, new_key, out);
    }
    let target = match args.to {
        ToArg::Same if new_key.is_some() => Target::Encrypted(new_key.clone().unwrap()),
        ToArg::Same => Target::Same,
        ToArg::Plain => Target::Plain,
        ToArg::Encrypted => Target::Encrypted(new_key.or(key.clone()).ok_or_else(|| {
            Failure::msg(
                "--to encrypted needs --new-password or --new-key (or an encrypted input's key)",
            )
        })?),
        ToArg::Fastlz => Target::Compressed(Compression::FastLz),
        ToArg::Deflate => Target::Compressed(Compression::Deflate),
        ToArg::Zstd => Target::Compressed(Compression::Zstd),
        ToArg::Gzip => Target::Compressed(Compression::Gzip),
    };
    let input = std::io::Cursor::new(&data);
    let mut options = ConvertOptions::new().target(target);
    if let Some(key) = key {
        options = options.key(key);
    }
    let mut written = Vec::new();
    let done = file::convert_godot3_to_godot4(input, &mut written, &options).map_err(failure)?;

    writeln!(out, "read:    {} (Godot 3)", done.input)?;
    writeln!(out, "values:  {}", done.values)?;
    for (ty, n) in &done.types {
        let (from, to) = (Dialect::Godot3.type_id(*ty), Dialect::Godot4.type_id(*ty));
        match (from, to) {
            (Some(a), Some(b)) => writeln!(
                out,
                "  {n:>6} x {:<20} type {a:>2} -> {b:>2}",
                ty.to_string()
            )?,
            _ => writeln!(out, "  {n:>6} x {ty}")?,
        }
    }
    crate::resources::report(&done.issues);
    if args.strict && !done.issues.is_empty() {
        return Err(Failure::msg(format!(
            "{} value(s) have no exact Godot 4 counterpart; nothing written (--strict)",
            done.issues.len()
        )));
    }
    std::fs::write(&args.output, &written)
        .map_err(|e| Failure::msg(format!("{}: {e}", args.output.display())))?;
    writeln!(
        out,
        "wrote:   {}: {} (Godot 4), {} bytes",
        args.output.display(),
        done.output,
        written.len()
    )?;
    Ok(())
}

/// `convert SRC_PROJECT OUT_DIR --godot4`: the whole project through
/// `godot_bin_files::upgrade::project`; every issue on stderr. With `--strict` the project
/// is written into a temporary folder beside `OUT_DIR`, renamed to it only when nothing
/// is reported.
fn convert_project(args: &ConvertArgs, out: &mut impl Write) -> Result<(), Failure> {
    use godot_bin_files::upgrade::{project, Action, Options};
    if !args.godot4 {
        return Err(Failure::msg(format!(
            "{} is a folder: convert a Godot 3 project with --godot4",
            args.input.display()
        )));
    }
    let target = if args.strict {
        let name = args
            .output
            .file_name()
            .map_or_else(|| "project".into(), |n| n.to_string_lossy().into_owned());
        args.output
            .with_file_name(format!(".{name}.godot-bin-{}", std::process::id()))
    } else {
        args.output.clone()
    };
    let report = project(&args.input, &target, &Options::default())
        .map_err(|e| Failure::msg(e.to_string()))?;
    let (mut converted, mut copied) = (0, 0);
    for f in &report.files {
        match &f.action {
            Action::Converted => converted += 1,
            Action::Copied => copied += 1,
            Action::Failed(why) => {
                eprintln!("godot-bin: failed: {}: {why} (copied as it is)", f.path)
            }
            _ => {}
        }
        for i in &f.issues {
            eprintln!("godot-bin: issue: {}: {i}", f.path);
        }
    }
    let issues = report.issues().count();
    let failed = report.failed().count();
    if args.strict {
        if issues + failed > 0 {
            let _ = std::fs::remove_dir_all(&target);
            return Err(Failure::msg(format!(
                "{issues} thing(s) did not carry over exactly and {failed} file(s) failed; nothing written (--strict)"
            )));
        }
        std::fs::rename(&target, &args.output)
            .map_err(|e| Failure::msg(format!("{}: {e}", args.output.display())))?;
    }
    writeln!(
        out,
        "wrote:   {} (Godot 4): {converted} file(s) converted, {copied} copied, {failed} failed; {issues} issue(s)",
        args.output.display()
    )?;
    Ok(())
}

/// `convert` of a save without `--godot4`: its content (the `store_var` frames) byte for
/// byte, in the container `--to` asks for; the engine stays the one that wrote it.
fn recontainer(
    args: &ConvertArgs,
    data: &[u8],
    key: Option<Key>,
    new_key: Option<Key>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let (content, container) = match unwrap(&args.keys, data)? {
        Some((content, container)) => (content, container),
        None => (data.to_vec(), Container::Plain),
    };
    writeln!(out, "read:    {container}")?;
    let read_layout = match &container {
        Container::Encrypted { layout, .. } => Some(*layout),
        _ => None,
    };
    // The engine, for a layout: the one the input's layout is, else the one whose packets
    // the content holds.
    let engine = || -> Result<Dialect, Failure> {
        if let Some(layout) = &read_layout {
            return Ok(match layout {
                Layout::Godot3 => Dialect::Godot3,
                _ => Dialect::Godot4,
            });
        }
        let clean = |d: Dialect| {
            crate::input::split_frames(&content, false)
                .is_ok_and(|list| crate::input::packets_clean(d, &list))
        };
        match (clean(Dialect::Godot4), clean(Dialect::Godot3)) {
            (true, false) => Ok(Dialect::Godot4),
            (false, true) => Ok(Dialect::Godot3),
            _ => Err(Failure::msg(
                "which engine's encrypted layout to write is not clear from the content: \
                 the values read as both Godot 3's and Godot 4's, or as neither; give \
                 --godot4 to write a Godot 4 save",
            )),
        }
    };
    let encrypt = |k: &Key| -> Result<(Vec<u8>, String), Failure> {
        let engine = engine()?;
        let bytes = file::encrypt(&content, k, engine).map_err(failure)?;
        Ok((bytes, format!("encrypted (GDEC, {engine}'s layout)")))
    };
    let compress = |c: Compression| -> Result<(Vec<u8>, String), Failure> {
        let bytes = file::compress(&content, c).map_err(failure)?;
        Ok((bytes, format!("compressed (GCPF, {c})")))
    };
    let (bytes, written) = match (args.to, &container, new_key) {
        (ToArg::Same, Container::Encrypted { .. }, new_key) => {
            let k = new_key
                .or(key)
                .ok_or_else(|| failure(ErrorKind::KeyRequired.into()))?;
            encrypt(&k)?
        }
        (ToArg::Same, _, Some(k)) => encrypt(&k)?,
        (ToArg::Same, Container::Compressed { compression, .. }, None) => compress(*compression)?,
        (ToArg::Same | ToArg::Plain, _, _) => (content.clone(), "plain".to_owned()),
        (ToArg::Encrypted, _, new_key) => {
            let k = new_key.or(key).ok_or_else(|| {
                Failure::msg(
                    "--to encrypted needs --new-password or --new-key (or an encrypted input's key)",
                )
            })?;
            encrypt(&k)?
        }
        (ToArg::Fastlz, _, _) => compress(Compression::FastLz)?,
        (ToArg::Deflate, _, _) => compress(Compression::Deflate)?,
        (ToArg::Zstd, _, _) => compress(Compression::Zstd)?,
        (ToArg::Gzip, _, _) => compress(Compression::Gzip)?,
    };
    writeln!(
        out,
        "kept:    the content, {} bytes, byte for byte (its engine too: --godot4 converts a \
         Godot 3 save to Godot 4)",
        content.len()
    )?;
    std::fs::write(&args.output, &bytes)
        .map_err(|e| Failure::msg(format!("{}: {e}", args.output.display())))?;
    writeln!(
        out,
        "wrote:   {}: {written}, {} bytes",
        args.output.display(),
        bytes.len()
    )?;
    Ok(())
}
