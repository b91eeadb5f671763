//! Save files: every engine-made encrypted and compressed file reads to its plain content,
//! and what this crate writes matches the engine's bytes wherever the engine's output is
//! deterministic.

use crate::support;
use crate::support::variant::assert_eq_ordered;
use godot_bin::framing::{Framing, ENGINE_MAX_FRAME_LEN};
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::save::{self as file, Compression, Container, Key, Layout, Reader, Writer};
use godot_bin_files::ErrorKind;
use std::path::PathBuf;

/// One row of a `manifest.tsv`.
struct Row {
    engine: &'static str,
    name: String,
    kind: String,
    secret: String,
    /// How many values the engine's text lists (`None` for the long files, marked `-`).
    values: Option<usize>,
}

impl Row {
    fn dir(&self) -> PathBuf {
        data_dir().join(self.engine)
    }
    fn bin(&self) -> Vec<u8> {
        std::fs::read(self.dir().join(format!("{}.bin", self.name))).unwrap()
    }
    fn plain(&self) -> Vec<u8> {
        std::fs::read(self.dir().join(format!("{}.plain", self.name))).unwrap()
    }
    fn dialect(&self) -> Dialect {
        if self.engine == "godot3" {
            Dialect::Godot3
        } else {
            Dialect::Godot4
        }
    }
    fn key(&self) -> Option<Key> {
        match self.kind.as_str() {
            "pass" => Some(Key::password(&self.secret)),
            "key" => Some(Key::from_hex(&self.secret).unwrap()),
            "key_iv" => Some(Key::from_hex(self.secret.split(':').next().unwrap()).unwrap()),
            _ => None,
        }
    }
    fn iv(&self) -> Option<[u8; 16]> {
        let hex = self.secret.split(':').nth(1)?;
        crate::support::hex::bytes(hex).try_into().ok()
    }
    fn compression(&self) -> Option<Compression> {
        Some(match self.kind.as_str() {
            "fastlz" => Compression::FastLz,
            "deflate" => Compression::Deflate,
            "zstd" => Compression::Zstd,
            "gzip" => Compression::Gzip,
            _ => return None,
        })
    }
}

fn data_dir() -> PathBuf {
    crate::support::golden::files_dir()
}

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for engine in ["godot3", "godot4"] {
        let text = std::fs::read_to_string(data_dir().join(engine).join("manifest.tsv")).unwrap();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let cols: Vec<&str> = line.split('\t').collect();
            let values = match cols.get(3).copied().unwrap_or("") {
                "-" => None,
                "" => Some(0),
                t => Some(t.split(" ; ").count()),
            };
            rows.push(Row {
                engine,
                name: cols[0].into(),
                kind: cols[1].into(),
                secret: cols[2].into(),
                values,
            });
        }
    }
    assert_eq!(rows.len(), 24 + 28, "both manifests, every row");
    rows
}

/// Every frame of `content`, decoded in the engine's dialect.
fn frames_of(content: &[u8], dialect: Dialect) -> Vec<Variant> {
    Framing::new(Config::new(dialect))
        .max_frame_len(ENGINE_MAX_FRAME_LEN)
        .frames(content)
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn every_engine_file_reads_to_its_plain_content() {
    let mut read = [0usize; 2];
    for row in rows() {
        let (bin, plain) = (row.bin(), row.plain());
        let content = match (row.key(), row.compression()) {
            (Some(key), None) => file::decrypt(&bin, &key).unwrap(),
            (None, Some(_)) => file::decompress(&bin).unwrap(),
            _ => unreachable!("{}", row.name),
        };
        assert_eq!(content, plain, "{}", row.name);

        // The frames decode, as many as the engine stored.
        let values = frames_of(&plain, row.dialect());
        if let Some(n) = row.values {
            assert_eq!(values.len(), n, "{}", row.name);
        } else {
            // One large packed array.
            assert_eq!(values.len(), 1, "{}", row.name);
        }

        // The streaming reader gives the same values and says what it found.
        let cfg = Config::new(row.dialect());
        let mut reader = match row.key() {
            Some(key) => Reader::with_key(&bin[..], &key, &cfg).unwrap(),
            None => Reader::new(&bin[..], &cfg).unwrap(),
        };
        match (reader.container(), row.kind.as_str()) {
            (
                Container::Encrypted {
                    layout: Layout::Godot3,
                    content_len,
                },
                _,
            ) => {
                assert_eq!(row.engine, "godot3");
                assert_eq!(*content_len, plain.len() as u64);
            }
            (
                Container::Encrypted {
                    layout: Layout::Godot4 { iv },
                    ..
                },
                kind,
            ) => {
                assert_eq!(row.engine, "godot4");
                if kind == "key_iv" {
                    assert_eq!(Some(*iv), row.iv());
                }
            }
            (
                Container::Compressed {
                    compression,
                    block_size,
                    content_len,
                },
                _,
            ) => {
                assert_eq!(Some(*compression), row.compression());
                assert_eq!((*block_size, *content_len), (4096, plain.len() as u64));
            }
            (Container::Plain, _) => panic!("{}: not recognised", row.name),
        }
        let streamed: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
        assert_eq_ordered!(streamed, values, "{}", row.name);
        read[usize::from(row.engine == "godot4")] += 1;
    }
    assert_eq!(read, [24, 28]);
}

#[test]
fn encrypting_with_the_engines_key_gives_the_engines_file() {
    let mut same = 0;
    for row in rows() {
        let Some(key) = row.key() else { continue };
        let (bin, plain) = (row.bin(), row.plain());
        let ours = match (row.engine, row.iv()) {
            // Godot 3's ECB layout has no IV: the file is a function of key and content.
            ("godot3", _) => file::encrypt(&plain, &key, Dialect::Godot3).unwrap(),
            // Godot 4 with the IV the engine was given.
            ("godot4", Some(iv)) => file::encrypt_with_iv(&plain, &key, iv).unwrap(),
            // Godot 4 with its own random IV: reuse the IV the engine drew.
            _ => file::encrypt_with_iv(&plain, &key, bin[28..44].try_into().unwrap()).unwrap(),
        };
        assert_eq!(ours, bin, "{}", row.name);
        same += 1;
    }
    assert_eq!(same, 8 + 12, "every encrypted file, both engines");
}

#[test]
fn compressing_gives_the_engines_bytes_where_the_codec_is_the_engines() {
    let mut same = Vec::new();
    for row in rows() {
        let Some(mode) = row.compression() else {
            continue;
        };
        let (bin, plain) = (row.bin(), row.plain());
        let ours = file::compress(&plain, mode).unwrap();
        assert_eq!(file::decompress(&ours).unwrap(), plain, "{}", row.name);
        if ours == bin {
            same.push(row.name.clone());
        } else {
            // Godot 3.2.3 bundles an older Zstandard, whose choices differ: only its Zstd
            // files may differ, and then only in the blocks' bytes.
            assert_eq!(
                (row.engine, mode),
                ("godot3", Compression::Zstd),
                "{}",
                row.name
            );
            assert_eq!(ours[..16], bin[..16], "{}: header", row.name);
        }
    }
    same.sort();
    // FastLZ, Deflate and gzip for both engines, Zstd for Godot 4 (and for the Godot 3
    // files whose blocks Zstandard stores raw).
    assert_eq!(same.len(), 4 * 3 + 4 * 4 + 2, "{same:?}");
}

#[test]
fn a_wrong_password_says_so() {
    for row in rows()
        .iter()
        .filter(|r| r.kind == "pass" && r.values != Some(0))
    {
        let bin = row.bin();
        let wrong = Key::password("not the password");
        let err = file::decrypt(&bin, &wrong).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::WrongKey),
            "{}: {err}",
            row.name
        );
        let cfg = Config::new(row.dialect());
        let err = Reader::with_key(&bin[..], &wrong, &cfg)
            .unwrap()
            .values::<Variant>()
            .find_map(Result::err)
            .unwrap();
        assert!(
            matches!(err.kind(), ErrorKind::WrongKey),
            "{}: {err}",
            row.name
        );
        let err = Reader::new(&bin[..], &cfg).err().unwrap();
        assert!(
            matches!(err.kind(), ErrorKind::KeyRequired),
            "{}: {err}",
            row.name
        );
    }
}

/// Issue 49 #8: `Reader::open` with a wrong password succeeded, and the error came at the
/// first read; the engine's `open_encrypted_with_pass` checks the key at open (the MD5 of
/// the content). Every engine-made encrypted save, Godot 4's and Godot 3's layouts: a
/// wrong key fails `open` itself, naming the file; the right one opens and reads.
#[test]
fn open_checks_the_key_as_the_engine_does() {
    let dir = std::env::temp_dir().join(format!("godot_bin_open_key_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for row in rows().iter().filter(|r| r.kind == "pass") {
        let path = dir.join(format!("{}.bin", row.name));
        std::fs::write(&path, row.bin()).unwrap();
        let cfg = Config::new(row.dialect());
        let wrong = Reader::open(&path, Some(&Key::password("not the password")), &cfg);
        if row.values == Some(0) {
            // No content: the MD5 of nothing matches under any key, for the engine too.
            assert!(wrong.is_ok(), "{}", row.name);
        } else {
            let err = wrong
                .err()
                .unwrap_or_else(|| panic!("{}: a wrong key opened", row.name));
            assert!(
                matches!(err.kind(), ErrorKind::WrongKey),
                "{}: {err}",
                row.name
            );
            assert_eq!(err.file(), Some(path.as_path()), "{}", row.name);
            checked += 1;
        }
        let mut reader = Reader::open(&path, Some(&Key::password("s3cret")), &cfg).unwrap();
        let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
        if let Some(n) = row.values {
            assert_eq!(values.len(), n, "{}", row.name);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    let with_content = rows()
        .iter()
        .filter(|r| r.kind == "pass" && r.values != Some(0))
        .count();
    assert_eq!(checked, with_content);
    assert!(checked >= 2, "{checked}");
}

#[test]
fn writer_round_trips_every_container_and_dialect() {
    let values = vec![
        Variant::from(1),
        Variant::from("two"),
        Variant::from(vec![
            Variant::from(3),
            Variant::from(godot_bin::Vector2::new(4.0, 5.0)),
        ]),
    ];
    let key = Key::password("s3cret");
    for dialect in [Dialect::Godot3, Dialect::Godot4] {
        let cfg = Config::new(dialect);
        let mut outputs = vec![
            Writer::plain(Vec::new(), &cfg),
            Writer::encrypted(Vec::new(), &key, &cfg).unwrap(),
        ];
        for mode in &Compression::ALL[..4] {
            outputs.push(Writer::compressed(Vec::new(), *mode, &cfg).unwrap());
        }
        for mut w in outputs {
            for v in &values {
                w.write_value(v).unwrap();
            }
            let bytes = w.finish().unwrap();
            let mut r = Reader::with_key(&bytes[..], &key, &cfg).unwrap();
            let back: Vec<Variant> = r.values().collect::<Result<_, _>>().unwrap();
            assert_eq!(back, values, "{dialect} {}", r.container());
        }
    }
    // The golden "multi" files hold exactly these values: our plain writer gives the
    // engine's plain content.
    for (engine, dialect) in [("godot3", Dialect::Godot3), ("godot4", Dialect::Godot4)] {
        let short = if engine == "godot3" { "g3" } else { "g4" };
        let plain = std::fs::read(
            data_dir()
                .join(engine)
                .join(format!("{short}_multi_pass.plain")),
        )
        .unwrap();
        let mut w = Writer::plain(Vec::new(), &Config::new(dialect));
        for v in &values {
            w.write_value(v).unwrap();
        }
        assert_eq!(w.finish().unwrap(), plain, "{engine}");
    }
}

#[test]
fn brotli_is_read_and_never_written() {
    let err = file::compress(b"x", Compression::Brotli).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Unsupported(_)), "{err}");
    assert!(Writer::compressed(Vec::new(), Compression::Brotli, &Config::default()).is_err());

    // A GCPF file in mode 4, its blocks made by a Brotli encoder.
    let content: Vec<u8> = (0..10_000u32)
        .flat_map(|i| (i % 251).to_le_bytes())
        .collect();
    let file = gcpf_with(4, &content, |block| {
        let mut out = Vec::new();
        let params = brotli::enc::BrotliEncoderParams::default();
        brotli::BrotliCompress(&mut &block[..], &mut out, &params).unwrap();
        out
    });
    assert_eq!(file::decompress(&file).unwrap(), content);
}

/// A compressed file laid out as the engine lays it out, in `mode`, with each 4096-byte
/// block packed by `pack`.
pub fn gcpf_with(mode: u32, content: &[u8], pack: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let blocks: Vec<Vec<u8>> = content
        .chunks(4096)
        .chain(
            std::iter::once(&content[content.len() / 4096 * 4096..])
                .filter(|_| content.len().is_multiple_of(4096)),
        )
        .map(pack)
        .collect();
    let mut out = b"GCPF".to_vec();
    for word in [mode, 4096, content.len() as u32] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
    }
    for b in &blocks {
        out.extend_from_slice(b);
    }
    out.extend_from_slice(b"GCPF");
    out
}

/// Issue 41 #1: write-back keeps what was read. Every engine-made save, read as a user
/// reads it (a Godot 3 encrypted save with the default `Config`: the reader settles on
/// Godot 3) and written back with `Writer::like`, keeps its container, layout, compression,
/// block size and dialect: its content is the engine's, byte for byte, and so is the whole
/// file where the engine's output is deterministic (Godot 3's ECB encryption, every
/// compression but Zstandard, whose library versions differ).
#[test]
fn writer_like_keeps_every_engine_files_form() {
    let mut identical = 0;
    let mut checked = 0;
    for row in rows() {
        let bin = row.bin();
        let key = row.key();
        // What a user passes: the default, except for compressed Godot 3 saves, whose
        // container does not tell the engine.
        let cfg = match (row.engine, key.is_some()) {
            ("godot3", false) => Config::new(Dialect::Godot3),
            _ => Config::default(),
        };
        let mut reader = match &key {
            Some(k) => Reader::with_key(&bin[..], k, &cfg).unwrap(),
            None => Reader::new(&bin[..], &cfg).unwrap(),
        };
        let values: Vec<Variant> = reader
            .values()
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{}: {e}", row.name));
        assert_eq!(reader.config().dialect(), row.dialect(), "{}", row.name);
        let mut w = Writer::like(&reader, Vec::new(), key.as_ref()).unwrap();
        for v in &values {
            w.write_value(v).unwrap();
        }
        let out = w.finish().unwrap();
        let mut again = match &key {
            Some(k) => Reader::with_key(&out[..], k, &cfg).unwrap(),
            None => Reader::new(&out[..], &cfg).unwrap(),
        };
        match (reader.container(), again.container()) {
            (
                Container::Encrypted {
                    layout: Layout::Godot4 { .. },
                    content_len: a,
                },
                Container::Encrypted {
                    layout: Layout::Godot4 { .. },
                    content_len: b,
                },
            ) => {
                assert_eq!(a, b, "{}", row.name)
            }
            (a, b) => assert_eq!(a, b, "{}", row.name),
        }
        assert_eq!(again.config().dialect(), row.dialect(), "{}", row.name);
        let content = match &key {
            Some(k) => file::decrypt(&out, k).unwrap(),
            None => file::decompress(&out).unwrap(),
        };
        let reread: Vec<Variant> = again.values().collect::<Result<_, _>>().unwrap();
        assert_eq!(reread, values, "{}: the values", row.name);
        checked += 1;
        // The content is the engine's, frame by frame; the engine leaves a NodePath's
        // padding unwritten (whatever was in its buffer), so those bytes alone may differ.
        let plain = row.plain();
        let (ours, theirs) = (frames(&content), frames(&plain));
        assert_eq!(ours.len(), theirs.len(), "{}: frames", row.name);
        for (a, b) in ours.iter().zip(&theirs) {
            support::golden::compare(a, b, &again.config().clone())
                .unwrap_or_else(|e| panic!("{}: a frame: {e}", row.name));
        }
        // The whole file where the engine's output is deterministic and has no padding
        // it left unwritten.
        let deterministic = match row.kind.as_str() {
            "pass" | "key" => row.engine == "godot3",
            "zstd" | "key_iv" => false,
            _ => true,
        };
        if deterministic && content == plain {
            assert_eq!(out, bin, "{}: the whole file", row.name);
            identical += 1;
        }
    }
    println!("{checked} saves written back in their own form, {identical} byte for byte");
    // Every engine-made save; 26 of them are deterministic and padding-free.
    assert_eq!(
        (checked, identical),
        (rows().len(), 26),
        "{checked} {identical}"
    );
}

/// The packets of little-endian `store_var` frames.
fn frames(content: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = content;
    while rest.len() >= 4 {
        let n = u32::from_le_bytes(rest[..4].try_into().unwrap()) as usize;
        out.push(&rest[4..4 + n]);
        rest = &rest[4 + n..];
    }
    assert!(rest.is_empty(), "a partial frame");
    out
}

/// Issue 49 #16: `Writer::like` writing the default block size or little-endian frames
/// passed every test, since the engine's files all have both. A compressed save of
/// another block size (the engine's Godot 4 FastLZ save with the header's block size
/// made 8192: one block either way; a save with no NodePath, whose padding the engine
/// leaves unwritten) and a save of big-endian frames (the engine's
/// content with its prefixes turned, as a game with `big_endian` writes them) are written
/// back as they were read, byte for byte.
#[test]
fn writer_like_keeps_the_block_size_and_the_framing() {
    let cfg = Config::default();
    let mut engine = std::fs::read(data_dir().join("godot4/g4_multi_fastlz.bin")).unwrap();
    assert_eq!(engine[8..12], 4096u32.to_le_bytes());
    engine[8..12].copy_from_slice(&8192u32.to_le_bytes());
    let mut reader = Reader::new(&engine[..], &cfg).unwrap();
    assert!(matches!(
        reader.container(),
        Container::Compressed {
            block_size: 8192,
            ..
        }
    ));
    let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
    let mut w = Writer::like(&reader, Vec::new(), None).unwrap();
    for v in &values {
        w.write_value(v).unwrap();
    }
    assert_eq!(w.finish().unwrap(), engine, "the block size");

    let plain = std::fs::read(data_dir().join("godot4/g4_multi_fastlz.plain")).unwrap();
    let mut turned = Vec::new();
    for p in frames(&plain) {
        turned.extend_from_slice(&(p.len() as u32).to_be_bytes());
        turned.extend_from_slice(p);
    }
    let file = file::compress(&turned, Compression::FastLz).unwrap();
    let mut reader = Reader::new(&file[..], &cfg)
        .unwrap()
        .framing(Framing::new(cfg.clone()).big_endian(true));
    let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
    assert_eq!(values.len(), frames(&plain).len());
    let mut w = Writer::like(&reader, Vec::new(), None).unwrap();
    for v in &values {
        w.write_value(v).unwrap();
    }
    assert_eq!(
        file::decompress(&w.finish().unwrap()).unwrap(),
        turned,
        "the framing"
    );
}

/// Issue 39 #5 (saves): by path, as `FileAccess.open` takes one; the write is whole or
/// not at all, and errors name the file.
#[test]
fn saves_open_and_save_by_path() {
    let dir = std::env::temp_dir().join(format!("godot_bin_save_path_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("save.dat");
    let key = Key::password("s3cret");
    let cfg = Config::default();
    let mut w = Writer::encrypted(Vec::new(), &key, &cfg).unwrap();
    w.write_value(&Variant::Dictionary(godot_bin::Dictionary::from_iter([(
        "level", 3,
    )])))
    .unwrap();
    w.save(&path).unwrap();

    let mut reader = Reader::open(&path, Some(&key), &cfg).unwrap();
    let mut values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
    values[0]["level"] = Variant::Int(4);
    let mut w = Writer::like(&reader, Vec::new(), Some(&key)).unwrap();
    w.write_value(&values[0]).unwrap();
    w.save(&path).unwrap();
    let mut again = Reader::open(&path, Some(&key), &cfg).unwrap();
    assert_eq!(
        again.read_value::<Variant>().unwrap().unwrap()["level"],
        Variant::Int(4)
    );
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        1,
        "no temporary file left"
    );

    let missing = dir.join("missing.dat");
    let err = Reader::open(&missing, None, &cfg).err().unwrap();
    assert!(matches!(err.kind(), ErrorKind::Io(_)));
    assert_eq!(err.file(), Some(missing.as_path()));
    assert!(err.to_string().ends_with("missing.dat"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
