//! The `godot-bin` binary, run on the engine-made packets of `tests/data/golden`.

use crate::support::golden;
use crate::support::variant::{as_text_says, same};

use godot_bin::{Dialect, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_godot-bin");

fn dialect_arg(d: Dialect) -> &'static str {
    d.id()
}

/// Runs the binary with `args` and `stdin`.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run godot-bin");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "godot-bin {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `args` (no input), which must succeed and print nothing on stderr: no note, no
/// hint.
fn quiet(args: &[&str]) {
    let out = run(args, b"");
    assert!(out.status.success(), "godot-bin {args:?} failed");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("UTF-8 output")
}

/// A file in the temp directory that is removed on drop.
struct TempFile(PathBuf);

impl TempFile {
    fn new(ext: &str, contents: &[u8]) -> TempFile {
        static N: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "godot-bin-cli-{}-{}.{ext}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&path, contents).unwrap();
        TempFile(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Splits `dump` output of a .tsv into (name, text) pairs: one line per row, the name,
/// a tab and the text, whose newlines are written `\n`.
fn rows_of(output: &str) -> Vec<(String, String)> {
    output
        .lines()
        .map(|line| {
            let (name, text) = line.split_once('\t').expect("name<TAB>text");
            (name.to_owned(), text.replace("\\n", "\n"))
        })
        .collect()
}

#[test]
fn dump_prints_the_engines_text_for_golden_files() {
    let mut exact = 0;
    for &(file, dialect) in golden::FILES {
        let rows = golden::rows(file);
        let path = golden::dir().join(file);
        let out = text(ok(
            &[
                "dump",
                "--dialect",
                dialect_arg(dialect),
                path.to_str().unwrap(),
            ],
            b"",
        ));
        let printed = rows_of(&out);
        assert_eq!(printed.len(), rows.len(), "{file}: one output per row");
        for (row, (name, ours)) in rows.iter().zip(&printed) {
            assert_eq!(&row.name, name);
            // The library's text of the decoded value, always.
            let value: Variant = golden::config(dialect).from_slice(&row.bytes).unwrap();
            let want = value.to_text(dialect);
            assert_eq!(
                ours,
                want.strip_suffix('\n').unwrap_or(&want),
                "{file} {name}"
            );
            // And the engine's own text, wherever no float of the row was rounded.
            let engine = golden::unescape(&row.text);
            if engine.parse::<Variant>().is_ok_and(|v| v == value) {
                assert_eq!(
                    ours,
                    engine.strip_suffix('\n').unwrap_or(&engine),
                    "{file} {name}"
                );
                exact += 1;
            }
        }
    }
    assert!(exact > 150, "{exact}");
}

#[test]
fn dump_reads_bare_and_framed_files() {
    let rows = golden::rows("godot3.tsv");
    let picks: Vec<&golden::Row> = rows
        .iter()
        .filter(|r| {
            ["int_1", "str_hi", "vector2", "dict_a1", "pool_int"].contains(&r.name.as_str())
        })
        .collect();
    assert_eq!(picks.len(), 5);
    let want: String = picks
        .iter()
        .map(|r| {
            let v: Variant = golden::config(Dialect::Godot3)
                .from_slice(&r.bytes)
                .unwrap();
            v.to_text(Dialect::Godot3) + "\n"
        })
        .collect();
    assert!(want.contains("PoolIntArray( 1, -2, 2147483647 )"), "{want}");

    // var2bytes output: one bare packet per file, or several back to back.
    let one = TempFile::new("bin", &picks[3].bytes);
    assert_eq!(
        text(ok(&["dump", "--dialect", "godot3", one.arg()], b"")),
        "{\n\"a\": 1\n}\n"
    );
    let bare: Vec<u8> = picks.iter().flat_map(|r| r.bytes.clone()).collect();
    let bare = TempFile::new("bin", &bare);
    assert_eq!(
        text(ok(&["dump", "--dialect", "godot3", bare.arg()], b"")),
        want
    );

    // store_var output: a length before each packet, little- or big-endian.
    for big_endian in [false, true] {
        let mut framed = Vec::new();
        for r in &picks {
            let len = r.bytes.len() as u32;
            framed.extend(if big_endian {
                len.to_be_bytes()
            } else {
                len.to_le_bytes()
            });
            framed.extend(&r.bytes);
        }
        let file = TempFile::new("bin", &framed);
        let mut args = vec!["dump", "--dialect", "godot3", "--framed", file.arg()];
        if big_endian {
            args.insert(4, "--big-endian");
        }
        assert_eq!(text(ok(&args, b"")), want, "big_endian={big_endian}");
    }
    // Standard input.
    assert_eq!(
        text(ok(&["dump", "--dialect", "godot3", "-"], &picks[0].bytes)),
        "1\n"
    );
}

#[test]
fn text_from_dump_encodes_back_to_the_engines_bytes() {
    let mut narrowed = Vec::new();
    for &(file, dialect) in golden::FILES {
        let cfg = golden::config(dialect);
        for row in golden::rows(file) {
            let value: Variant = cfg.from_slice(&row.bytes).unwrap();
            if dialect != Dialect::Godot4 && matches!(value, Variant::Rid(_)) {
                continue; // Godot 3 and Pandemonium have no text for an RID
            }
            let pkt = TempFile::new("bin", &row.bytes);
            let d = dialect_arg(dialect);
            let dumped = ok(&["dump", "--dialect", d, pkt.arg()], b"");
            let encoded = ok(&["encode", "--dialect", d], &dumped);
            // What the text cannot say (a Godot 3 FLOAT beyond the f32 range prints as the
            // engine's infinity) comes back as what it says.
            let says = as_text_says(&value, dialect);
            if !same(&says, &value) {
                narrowed.push(format!("{file} {}", row.name));
            }
            let want = cfg.to_vec(&says).unwrap();
            golden::compare(&encoded, &want, &cfg).unwrap_or_else(|e| {
                panic!(
                    "{file} {}: {e}\n{}",
                    row.name,
                    String::from_utf8_lossy(&dumped)
                )
            });
        }
    }
    // The one such golden row; `dump --json` keeps its double (below).
    assert_eq!(narrowed, ["godot3.tsv float_1e300"]);
}

#[test]
fn json_dump_encodes_back_to_the_engines_bytes() {
    for &(file, dialect) in golden::FILES {
        let cfg = golden::config(dialect);
        let d = dialect_arg(dialect);
        let path = golden::dir().join(file);
        let lines = text(ok(
            &["dump", "--dialect", d, "--json", path.to_str().unwrap()],
            b"",
        ));
        let rows = golden::rows(file);
        assert_eq!(lines.lines().count(), rows.len());
        for (line, row) in lines.lines().zip(&rows) {
            // Each line is {"name": ..., "value": ...}, valid JSON.
            let doc: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(doc["name"], row.name.as_str());
            let value = serde_json::to_string(&doc["value"]).unwrap();
            let encoded = ok(&["encode", "--dialect", d, "--json"], value.as_bytes());
            golden::compare(&encoded, &row.bytes, &cfg)
                .unwrap_or_else(|e| panic!("{file} {}: {e}\n{line}", row.name));
        }
    }
    // Plain JSON where JSON has the type, tags where it does not.
    let rows = golden::rows("godot4.tsv");
    let get = |name: &str| {
        let row = rows.iter().find(|r| r.name == name).unwrap();
        let f = TempFile::new("bin", &row.bytes);
        text(ok(&["dump", "--json", f.arg()], b""))
            .trim_end()
            .to_owned()
    };
    assert_eq!(get("array_mixed"), r#"[1,"x",[2,null],{"k":false}]"#);
    assert_eq!(get("vector2"), r#"{"$Vector2":[1.5,-2.0]}"#);
    assert_eq!(get("float_0"), "0.0");
    assert_eq!(
        get("dict_typed_string_int"),
        r#"{"$Dictionary":{"key_type":{"builtin":"String"},"value_type":{"builtin":"int"},"entries":[["hp",10]]}}"#
    );
}

#[test]
fn encode_reads_text_and_json_and_frames() {
    let out = ok(&["encode"], b"Vector2(1.5, -2) \"hi\"");
    let (first, rest) = godot_bin::take_from_slice::<Variant>(&out).unwrap();
    assert_eq!(first.to_string(), "Vector2(1.5, -2)");
    assert_eq!(
        godot_bin::from_slice::<Variant>(rest).unwrap(),
        Variant::from("hi")
    );

    let framed = ok(
        &["encode", "--framed", "--dialect", "godot3", "--json"],
        b"1\n{\"$float\": \"nan\"}\n",
    );
    assert_eq!(&framed[..4], &8u32.to_le_bytes());
    assert_eq!(&framed[4..12], &[2, 0, 0, 0, 1, 0, 0, 0]);
    assert_eq!(&framed[12..16], &12u32.to_le_bytes());
    assert_eq!(framed.len(), 28);

    // Errors: the position in the input, and a non-zero status.
    let bad = run(&["encode"], b"[1, 2]\n{\"a\": Vector2(1)}");
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("line 2, column 7"), "{err}");
    let bad = run(&["encode", "--dialect", "godot3"], b"Vector2i(1, 2)");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("Vector2i does not exist in Godot 3"));
    let bad = run(&["encode", "--json"], b"{\"$Vector2\": [1]}");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected 2 components"));
}

#[test]
fn explain_annotates_every_field() {
    let row = golden::row("godot4.tsv", "dict_a1");
    let f = TempFile::new("bin", &row.bytes);
    let out = text(ok(&["explain", f.arg()], b""));
    let expected = "\
== packet 0 at 000000 ==
000000  1b 00 00 00              Dictionary header: type id 27
000004  01 00 00 00                entry count = 1
000008  04 00 00 00                [0] key: String header: type id 4
00000c  01 00 00 00                  string length = 1
000010  61 00 00 00                  string \"a\" (+3 padding)
000014  02 00 00 00                [0] value: int header: type id 2
000018  01 00 00 00                  int32 = 1
";
    assert_eq!(out, expected);

    // Flags are named: a 64-bit int, a typed array.
    let row = golden::row("godot4.tsv", "int_i64_max");
    let f = TempFile::new("bin", &row.bytes);
    let out = text(ok(&["explain", f.arg()], b""));
    assert!(
        out.contains("000000  02 00 01 00              int header: type id 2, 64-bit"),
        "{out}"
    );
    assert!(
        out.contains("000004  ff ff ff ff ff ff ff 7f    int64 = 9223372036854775807"),
        "{out}"
    );
    let row = golden::row("godot4.tsv", "array_typed_int");
    let f = TempFile::new("bin", &row.bytes);
    let out = text(ok(&["explain", f.arg()], b""));
    assert!(
        out.contains("Array header: type id 28, typed: builtin"),
        "{out}"
    );
    assert!(out.contains("element type = 2 (int)"), "{out}");

    // Every golden row of every dialect walks to its last byte, in .tsv form.
    for &(file, dialect) in golden::FILES {
        let path = golden::dir().join(file);
        let out = text(ok(
            &[
                "explain",
                "--dialect",
                dialect_arg(dialect),
                path.to_str().unwrap(),
            ],
            b"",
        ));
        assert!(!out.contains("after the value"), "{file}: {out}");
        for row in golden::rows(file) {
            let header = format!("== {} ({} bytes) ==\n", row.name, row.bytes.len());
            assert!(out.contains(&header), "{file}: no {header}");
        }
    }
}

#[test]
fn errors_name_the_offset_and_fail() {
    // dict_a1 cut inside its last int.
    let row = golden::row("godot4.tsv", "dict_a1");
    let cut = TempFile::new("bin", &row.bytes[..26]);
    for cmd in ["dump", "explain"] {
        let out = run(&[cmd, cut.arg()], b"");
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("error at byte offset 24 (0x18)"),
            "{cmd}: {err}"
        );
    }
    // explain shows everything up to the failing field.
    let out = run(&["explain", cut.arg()], b"");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.ends_with("[0] value: int header: type id 2\n"),
        "{stdout}"
    );

    // An id past the dialect's table: a Godot 4 PackedVector4Array is unknown to Godot 3.
    let v4 = golden::row("godot4.tsv", "packed_vector4");
    let f = TempFile::new("bin", &v4.bytes);
    let out = run(&["explain", "--dialect", "godot3", f.arg()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("error at byte offset 0 (0x0): unknown type id 38 for Godot 3"));

    // A frame longer than the file: the offset of its length prefix.
    let mut framed = 8u32.to_le_bytes().to_vec();
    framed.extend([2, 0, 0, 0, 1, 0, 0, 0]);
    framed.extend(100u32.to_le_bytes());
    framed.extend([0, 0]);
    let f = TempFile::new("bin", &framed);
    let out = run(&["dump", "--framed", f.arg()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("error at byte offset 12 (0xc): frame length 100 but only 2 bytes follow"));

    // In a framed file, decoding errors count from the start of the file.
    let mut framed = 6u32.to_le_bytes().to_vec();
    framed.extend([2, 0, 1, 0, 1, 0]);
    let f = TempFile::new("bin", &framed);
    let out = run(&["dump", "--framed", f.arg()], b"");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("error at byte offset 8"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A missing file, and bad arguments.
    let out = run(&["dump", "/nonexistent/godot-bin-test"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(!run(&["dump", "--dialect", "godot9", "-"], b"")
        .status
        .success());
}

/// explain's own walker agrees with the library's encoder on the extent of every packet,
/// in every dialect (Godot 2, Pandemonium 5 and double-precision builds included).
#[test]
fn explain_walks_every_packet_the_library_writes() {
    use godot_bin::{Array, Config, ElementType, Image, InputEvent, VariantType};
    let mut values: Vec<Variant> = golden::rows("godot4.tsv")
        .iter()
        .chain(&golden::rows("pandemonium.tsv"))
        .filter_map(|r| {
            Config::new(Dialect::Godot4)
                .allow_objects(true)
                .from_slice(&r.bytes)
                .ok()
        })
        .collect();
    values.extend([
        Variant::Image(Image {
            format: 4,
            mipmaps: 0,
            width: 1,
            height: 1,
            data: vec![1, 2, 3, 4, 5],
        }),
        Variant::InputEvent(InputEvent {
            event_type: 1,
            device: 2,
            extra: vec![1 << 25, 65],
        }),
        Variant::Array(Array::typed(
            ElementType::Builtin(VariantType::Int),
            vec![1.into(), 2.into()],
        )),
        Variant::PackedTypedArray(Array::typed(
            ElementType::Builtin(VariantType::String),
            vec!["a".into()],
        )),
    ]);
    let configs = [
        ("godot4", Config::new(Dialect::Godot4)),
        (
            "godot4",
            Config::new(Dialect::Godot4).double_precision(true),
        ),
        ("godot3", Config::new(Dialect::Godot3)),
        ("godot2", Config::new(Dialect::Godot2)),
        ("pandemonium", Config::new(Dialect::Pandemonium)),
        ("pandemonium37", Config::new(Dialect::Pandemonium37)),
        ("pandemonium5", Config::new(Dialect::Pandemonium5)),
    ];
    for (arg, cfg) in configs {
        let cfg = cfg.allow_objects(true);
        let mut framed = Vec::new();
        let mut n = 0;
        for v in &values {
            // Only what the dialect can carry.
            if let Ok(packet) = cfg.to_vec(v) {
                framed.extend((packet.len() as u32).to_le_bytes());
                framed.extend(packet);
                n += 1;
            }
        }
        assert!(n > 20, "{arg}: {n}");
        let f = TempFile::new("bin", &framed);
        let out = text(ok(&["explain", "--dialect", arg, "--framed", f.arg()], b""));
        assert_eq!(out.matches("== frame").count(), n, "{arg}");
        assert!(!out.contains("after the value"), "{arg}: {out}");
        // And dump agrees with the library's text, value by value.
        let dumped = text(ok(&["dump", "--dialect", arg, "--framed", f.arg()], b""));
        assert!(!dumped.is_empty());
    }
}

/// `bytes` as store_var frames: each packet after its 4-byte length.
fn frames_of(packets: &[&[u8]], big_endian: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for p in packets {
        let len = p.len() as u32;
        out.extend(if big_endian {
            len.to_be_bytes()
        } else {
            len.to_le_bytes()
        });
        out.extend_from_slice(p);
    }
    out
}

#[test]
fn dialect_names_are_read_by_the_librarys_from_str() {
    let row = golden::row("godot3.tsv", "vector2");
    let f = TempFile::new("bin", &row.bytes);
    // Case-insensitive, and the Display names too.
    for name in ["godot3", "GODOT3", "Godot 3", "godot_3"] {
        assert_eq!(
            text(ok(&["dump", "--dialect", name, f.arg()], b"")),
            "Vector2( 1.5, -2 )\n",
            "{name}"
        );
    }
    let out = run(&["dump", "--dialect", "godot5", f.arg()], b"");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "expected one of: godot4, godot3, godot2, pandemonium, pandemonium37, pandemonium5"
        ),
        "{err}"
    );
}

#[test]
fn dump_without_framed_reads_store_var_output_as_frames() {
    // Issue 39 #4: a plain store_var file needs no --framed; stderr says how it was read.
    let a = golden::row("godot4.tsv", "dict_a1");
    let b = golden::row("godot4.tsv", "vector2");
    let framed_text = text(ok(
        &[
            "dump",
            "--framed",
            TempFile::new("bin", &frames_of(&[&a.bytes, &b.bytes], false)).arg(),
        ],
        b"",
    ));
    assert!(
        framed_text.ends_with(&format!("{}\n", b.text)),
        "{framed_text}"
    );
    for big_endian in [false, true] {
        let f = TempFile::new("bin", &frames_of(&[&a.bytes, &b.bytes], big_endian));
        let out = run(&["dump", f.arg()], b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(text(out.stdout), framed_text);
        assert!(err.contains("store_var"), "{err}");
        assert!(err.contains("2 frames"), "{err}");
        let flags = if big_endian {
            "as --framed --big-endian would"
        } else {
            "as --framed would"
        };
        assert!(err.contains(flags), "{err}");
    }
    // explain reads them as frames too.
    let f = TempFile::new("bin", &frames_of(&[&a.bytes, &b.bytes], false));
    let out = run(&["explain", f.arg()], b"");
    assert!(out.status.success());
    let listing = text(out.stdout);
    assert!(
        listing.contains("== frame 0: length prefix at 000000"),
        "{listing}"
    );
    assert!(
        listing.contains("== frame 1: length prefix at"),
        "{listing}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("as --framed would"));
    // One frame: its prefix is the length of the rest.
    let f = TempFile::new("bin", &frames_of(&[&b.bytes], false));
    let out = run(&["dump", f.arg()], b"");
    assert_eq!(text(out.stdout), format!("{}\n", b.text));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(err.contains("1 frame,"), "{err}");
    // A bare packet is not mistaken for one.
    let f = TempFile::new("bin", &a.bytes);
    quiet(&["dump", f.arg()]);
    // Frames of another engine: read as frames, and the hint names that engine.
    let g3 = golden::row("godot3.tsv", "rect2");
    let f = TempFile::new("bin", &frames_of(&[&g3.bytes, &g3.bytes], false));
    let out = run(&["dump", f.arg()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("but it does with --dialect godot3"), "{err}");
    assert!(out.stdout.is_empty());
    let out = text(ok(&["dump", "--dialect", "godot3", f.arg()], b""));
    assert_eq!(out, format!("{0}\n{0}\n", g3.text));
}

#[test]
fn dump_hints_at_the_dialect_that_decodes_cleanly() {
    // A Godot 3 Vector3 (type 7) is a truncated Rect2 in Godot 4.
    let v3 = golden::row("godot3.tsv", "vector3");
    let f = TempFile::new("bin", &v3.bytes);
    let out = run(&["dump", f.arg()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error at byte offset"), "{err}");
    assert!(
        err.contains(
            "hint: the input does not decode cleanly as Godot 4, but it does with --dialect godot3"
        ),
        "{err}"
    );
    // A Godot 3 Rect2 (type 6) in a frame reads as a Godot 4 Vector2i with 8 bytes left.
    let rect = golden::row("godot3.tsv", "rect2");
    let f = TempFile::new("bin", &frames_of(&[&rect.bytes], false));
    let out = run(&["dump", "--framed", f.arg()], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("8 bytes after the value"), "{err}");
    // Not a clean decode: it fails, and prints no value.
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(err.contains("but it does with --dialect godot3"), "{err}");
    // No hint when the chosen dialect reads the input cleanly.
    quiet(&["dump", "--dialect", "godot3", "--framed", f.arg()]);
}

#[test]
fn explain_names_types_as_the_dialect_does() {
    let mut bare = Vec::new();
    for name in ["quat", "pool_int", "transform"] {
        bare.extend(golden::row("godot3.tsv", name).bytes);
    }
    let f = TempFile::new("bin", &bare);
    let out = text(ok(&["explain", "--dialect", "godot3", f.arg()], b""));
    for header in [
        "Quat header: type id 10",
        "PoolIntArray header: type id 21",
        "Transform header: type id 13",
    ] {
        assert!(out.contains(header), "{header}: {out}");
    }
    assert!(
        !out.contains("Quaternion") && !out.contains("Packed"),
        "{out}"
    );
}

#[test]
fn dump_of_a_tsv_keeps_each_row_on_one_line() {
    let dict = golden::row("godot4.tsv", "dict_a1");
    let s = godot_bin::to_vec(&"two\nlines\tand a tab").unwrap();
    let tsv = format!(
        "# rows\nd\t{}\ns\t{}\n",
        crate::support::hex::encode(&dict.bytes),
        crate::support::hex::encode(&s)
    );
    let f = TempFile::new("tsv", tsv.as_bytes());
    let out = text(ok(&["dump", f.arg()], b""));
    assert_eq!(out, "d\t{\\n\"a\": 1\\n}\ns\t\"two\\nlines\\tand a tab\"\n");
}

#[test]
fn encode_writes_to_a_file_with_o() {
    let f = TempFile::new("bin", b"");
    let out = run(&["encode", "-o", f.arg()], b"42");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(&f.0).unwrap(), [2, 0, 0, 0, 42, 0, 0, 0]);
}

/// `script` (util-linux) gives the binary a pseudo-terminal as its standard output.
#[cfg(target_os = "linux")]
#[test]
fn encode_refuses_to_write_binary_to_a_terminal() {
    let cmd = format!("{BIN} encode");
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux `script` runs a command on a pseudo-terminal");
    assert_eq!(out.status.code(), Some(1));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("refusing to write binary packets to a terminal")
            && shown.contains("-o FILE"),
        "{shown}"
    );
    // With -o the terminal is not written to, so encoding goes ahead.
    let f = TempFile::new("bin", b"");
    let cmd = format!("echo 7 | {BIN} encode -o {}", f.arg());
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(std::fs::read(&f.0).unwrap(), [2, 0, 0, 0, 7, 0, 0, 0]);
}
