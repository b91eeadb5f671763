//! `godot-bin` on the engines' save files: `dump` and `explain` open encrypted and
//! compressed saves, `convert` moves a Godot 3 save to Godot 4, and a save read in the
//! wrong dialect fails and names the right one (issue 24).

use crate::support::assert_eq_ordered;
use godot_bin::framing::{Framing, ENGINE_MAX_FRAME_LEN};
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::save::{Container, Key, Layout, Reader};
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    crate::support::golden::files_dir()
}

fn frames_of(content: &[u8], dialect: Dialect) -> Vec<Variant> {
    Framing::new(Config::new(dialect))
        .max_frame_len(ENGINE_MAX_FRAME_LEN)
        .frames(content)
        .collect::<Result<_, _>>()
        .unwrap()
}

mod containers {
    use super::*;

    use std::process::Command;

    fn run(args: &[&str]) -> (bool, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_godot-bin"))
            .args(args)
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.success(), text(out.stdout), text(out.stderr))
    }

    fn path(engine: &str, name: &str) -> String {
        data_dir()
            .join(engine)
            .join(name)
            .to_string_lossy()
            .into_owned()
    }

    #[test]
    fn dump_opens_encrypted_and_compressed_saves_and_says_what_they_are() {
        let save = path("godot4", "g4_multi_pass.bin");
        let (ok, _, err) = run(&["dump", &save]);
        assert!(!ok && err.contains("--password"), "{err}");
        let (ok, out, err) = run(&["dump", &save, "--password", "s3cret"]);
        assert!(ok, "{err}");
        assert_eq!(out, "1\n\"two\"\n[3, Vector2(4, 5)]\n");
        assert!(
            err.contains("Godot 4 layout") && err.contains("60 bytes of content"),
            "{err}"
        );
        let (ok, _, err) = run(&["dump", &save, "--password", "wrong"]);
        assert!(!ok && err.contains("wrong key or password"), "{err}");

        let zstd = path("godot3", "g3_multi_zstd.bin");
        let (ok, out, err) = run(&["dump", "--dialect", "godot3", &zstd]);
        assert!(ok, "{err}");
        assert_eq!(out, "1\n\"two\"\n[ 3, Vector2( 4, 5 ) ]\n");
        assert!(err.contains("GCPF, Zstd"), "{err}");

        let key = "062b50759abfe4092e53789dc2e70c31567ba0c5ea0f34597ea3c8ed12375c81";
        let (ok, out, err) = run(&[
            "explain",
            &path("godot3", "g3_multi_key.bin"),
            "--dialect",
            "godot3",
            "--key",
            key,
        ]);
        assert!(ok, "{err}");
        assert!(
            out.contains("mode 1 (Godot 3 layout: AES-256-ECB, no IV)"),
            "{out}"
        );
        assert!(out.contains("string \"two\""), "{out}");
    }

    #[test]
    fn convert_writes_a_godot4_save_in_the_same_container_with_the_same_password() {
        let dir = std::env::temp_dir().join(format!("godot_bin_convert_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out_path = dir.join("save4.bin");
        let out = out_path.to_string_lossy();
        let (ok, report, err) = run(&[
            "convert",
            "--godot4",
            &path("godot3", "g3_save_pass.bin"),
            &out,
            "--password",
            "s3cret",
        ]);
        assert!(ok, "{err}");
        assert!(
            report.contains("PackedStringArray") && report.contains("type 23 -> 34"),
            "{report}"
        );
        let written = std::fs::read(&out_path).unwrap();
        let key = Key::password("s3cret");
        let mut reader =
            Reader::with_key(&written[..], &key, &Config::new(Dialect::Godot4)).unwrap();
        assert!(matches!(
            reader.container(),
            Container::Encrypted {
                layout: Layout::Godot4 { .. },
                ..
            }
        ));
        let values: Vec<Variant> = reader.values().collect::<Result<_, _>>().unwrap();
        // The same values the Godot 3 save holds.
        let plain = std::fs::read(data_dir().join("godot3/g3_save_pass.plain")).unwrap();
        assert_eq_ordered!(values, frames_of(&plain, Dialect::Godot3));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

mod wrong_dialect {
    use super::*;

    fn path(engine: &str, name: &str) -> PathBuf {
        data_dir().join(engine).join(name)
    }

    use std::process::{Command, Output};

    fn run(args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_godot-bin"))
            .args(args)
            .output()
            .unwrap()
    }

    fn text(b: &[u8]) -> String {
        String::from_utf8(b.to_vec()).unwrap()
    }

    /// The engine's own text of the save's value, from the manifest.
    fn engine_text(engine: &str, name: &str) -> String {
        let manifest = std::fs::read_to_string(path(engine, "manifest.tsv")).expect("the manifest");
        let line = manifest
            .lines()
            .find(|l| l.starts_with(&format!("{name}\t")))
            .expect("a manifest row");
        line.split('\t').nth(3).unwrap().replace("\\n", "\n")
    }

    #[test]
    fn dump_of_a_godot3_encrypted_save_reads_it_as_godot3() {
        // The user's form: godot-bin dump g3_enc.sav --password pw.
        let save = path("godot3", "g3_save_pass.bin");
        let out = run(&["dump", save.to_str().unwrap(), "--password", "s3cret"]);
        let err = text(&out.stderr);
        assert!(out.status.success(), "{err}");
        assert_eq!(
            text(&out.stdout),
            engine_text("godot3", "g3_save_pass") + "\n"
        );
        assert!(
            err.contains("Godot 3 layout") && err.contains("read as Godot 3"),
            "{err}"
        );
    }

    #[test]
    fn dump_in_the_wrong_dialect_fails_names_the_right_one_and_prints_nothing() {
        let save = path("godot3", "g3_save_pass.bin");
        let out = run(&[
            "dump",
            save.to_str().unwrap(),
            "--password",
            "s3cret",
            "--dialect",
            "godot4",
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(
            err.contains("error at byte offset 56 (0x38): 192 bytes after the value"),
            "{err}"
        );
        assert!(
            err.contains(
                "hint: the input does not decode cleanly as Godot 4, but it does with \
                 --dialect godot3"
            ),
            "{err}"
        );

        // A compressed Godot 3 save: the container cannot tell, the hint does.
        let save = path("godot3", "g3_save_fastlz.bin");
        let out = run(&["dump", save.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
        assert!(
            text(&out.stderr).contains("but it does with --dialect godot3"),
            "{}",
            text(&out.stderr)
        );
        let out = run(&["dump", save.to_str().unwrap(), "--dialect", "godot3"]);
        assert!(out.status.success());
        assert_eq!(
            text(&out.stdout),
            engine_text("godot3", "g3_save_fastlz") + "\n"
        );
    }

    /// Issue 49 #6: `get` and `set` on a save in the wrong dialect said the library's
    /// sentence ("(Dialect::Godot3): read the file with that dialect's Config"), which a
    /// CLI user never sees; they say what Godot 4 said, and the hint line names the flag.
    #[test]
    fn get_and_set_name_the_flag_not_the_library() {
        let save = path("godot3", "g3_save_zstd.bin");
        for args in [
            vec!["get", save.to_str().unwrap(), "0.player"],
            vec![
                "set",
                save.to_str().unwrap(),
                "0.level",
                "4",
                "-o",
                "/dev/null",
            ],
        ] {
            let out = run(&args);
            assert_eq!(out.status.code(), Some(1));
            let err = text(&out.stderr);
            assert!(
                err.contains("error at byte offset 56 (0x38): value 0: 192 trailing bytes"),
                "{err}"
            );
            assert!(
                err.contains(
                    "hint: the input does not decode cleanly as Godot 4, but it does with \
                     --dialect godot3"
                ),
                "{err}"
            );
            assert!(
                !err.contains("Dialect::") && !err.contains("Config"),
                "{err}"
            );
        }
    }

    #[test]
    fn explain_names_the_dialect_that_decodes() {
        // The README's lines: a Godot 4 packet explained as Godot 3.
        let dir = std::env::temp_dir().join(format!("godot_bin_hint_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let packet = dir.join("packet.bin");
        std::fs::write(
            &packet,
            godot_bin::to_vec(&godot_bin::Vector3::new(1.0, 2.0, 3.0)).unwrap(),
        )
        .unwrap();
        let out = run(&["explain", packet.to_str().unwrap(), "--dialect", "godot3"]);
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(
            err.contains("error at byte offset 16 (0x10): unexpected end of input"),
            "{err}"
        );
        assert!(
            err.contains("does not decode cleanly as Godot 3, but it does with --dialect godot4"),
            "{err}"
        );
        let out = run(&["explain", packet.to_str().unwrap()]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Vector3 header: type id 9"));

        // A save in the wrong dialect: explain walks it, then fails and names the right one.
        let save = path("godot3", "g3_save_fastlz.bin");
        let out = run(&["explain", save.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(err.contains("192 bytes after the value"), "{err}");
        assert!(err.contains("but it does with --dialect godot3"), "{err}");
        assert!(text(&out.stdout).contains("192 bytes after the value (ignored by the engine)"));
        // An encrypted Godot 3 save is explained as Godot 3.
        let save = path("godot3", "g3_save_pass.bin");
        let out = run(&["explain", save.to_str().unwrap(), "--password", "s3cret"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Dictionary header: type id 18"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn convert_refuses_a_godot4_save_and_takes_no_dialect() {
        let dir = std::env::temp_dir().join(format!("godot_bin_conv4_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let new = dir.join("new.sav");
        let save = path("godot4", "g4_save_pass.bin");
        let out = run(&[
            "convert",
            "--godot4",
            save.to_str().unwrap(),
            new.to_str().unwrap(),
            "--password",
            "s3cret",
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("already a Godot 4 save"),
            "{}",
            text(&out.stderr)
        );
        assert!(!new.exists());
        let save = path("godot4", "g4_save_zstd.bin");
        let out = run(&[
            "convert",
            "--godot4",
            save.to_str().unwrap(),
            new.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("already a Godot 4 save: value 0"),
            "{}",
            text(&out.stderr)
        );
        assert!(!new.exists());

        // --dialect is no option of convert: refused, and not in its help.
        let old = path("godot3", "g3_save_pass.bin");
        let out = run(&[
            "convert",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--password",
            "s3cret",
            "--dialect",
            "godot3",
        ]);
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains("unexpected argument '--dialect'"));
        assert!(!new.exists());
        let help = text(&run(&["convert", "--help"]).stdout);
        assert!(!help.contains("--dialect <"), "{help}");
        assert!(!help.contains("--framed"), "{help}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A save converted without --godot4 keeps its engine: its content byte for byte, in the
/// container --to asks for.
mod keep_engine {
    use super::*;
    use godot_bin_files::save::{self, Compression};
    use std::process::Command;

    fn run(args: &[&str]) -> (Option<i32>, String, String) {
        let out = Command::new(env!("CARGO_BIN_EXE_godot-bin"))
            .args(args)
            .output()
            .unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    }

    #[test]
    fn convert_moves_a_save_between_containers_and_keeps_its_engine() {
        let dir = std::env::temp_dir().join(format!("godot_bin_keep_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let key = Key::password("s3cret");
        let old = data_dir().join("godot3/g3_save_pass.bin");
        let content = std::fs::read(data_dir().join("godot3/g3_save_pass.plain")).unwrap();
        let arg = |name: &str| dir.join(name).to_string_lossy().into_owned();
        let old = old.to_str().unwrap();

        // Encrypted -> compressed: the same store_var frames, still Godot 3's.
        let (code, out, err) = run(&[
            "convert",
            old,
            &arg("z.sav"),
            "--password",
            "s3cret",
            "--to",
            "zstd",
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            out.contains("byte for byte") && out.contains("--godot4"),
            "{out}"
        );
        let z = std::fs::read(arg("z.sav")).unwrap();
        assert_eq!(save::decompress(&z).unwrap(), content);
        let reader = Reader::new(&z[..], &Config::new(Dialect::Godot3)).unwrap();
        assert!(matches!(
            reader.container(),
            Container::Compressed {
                compression: Compression::Zstd,
                ..
            }
        ));

        // Compressed -> plain, and plain -> encrypted in Godot 3's layout (the engine
        // whose packets the content holds).
        let (code, _, err) = run(&["convert", &arg("z.sav"), &arg("p.sav"), "--to", "plain"]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(std::fs::read(arg("p.sav")).unwrap(), content);
        let (code, out, err) = run(&[
            "convert",
            &arg("p.sav"),
            &arg("e.sav"),
            "--to",
            "encrypted",
            "--new-password",
            "s3cret",
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("Godot 3's layout"), "{out}");
        let e = std::fs::read(arg("e.sav")).unwrap();
        assert_eq!(save::decrypt(&e, &key).unwrap(), content);
        let reader = Reader::with_key(&e[..], &key, &Config::default()).unwrap();
        assert!(matches!(
            reader.container(),
            Container::Encrypted {
                layout: Layout::Godot3,
                ..
            }
        ));

        // A Godot 4 save between containers, with no "already a Godot 4 save".
        let g4 = data_dir().join("godot4/g4_save_zstd.bin");
        let (code, _, err) = run(&[
            "convert",
            g4.to_str().unwrap(),
            &arg("g4.sav"),
            "--to",
            "gzip",
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(
            save::decompress(&std::fs::read(arg("g4.sav")).unwrap()).unwrap(),
            save::decompress(&std::fs::read(&g4).unwrap()).unwrap()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Issue 41: a conversion lists on stderr what does not carry over, and `--strict` writes
/// nothing when anything does not.
mod issues {
    use std::io::Write;
    use std::process::{Command, Stdio};

    fn godot_bin(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_godot-bin"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(stdin).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (out.status.code(), text(out.stdout), text(out.stderr))
    }

    #[test]
    fn convert_lists_what_does_not_carry_over_on_stderr_and_strict_writes_nothing() {
        let dir = std::env::temp_dir().join(format!("godot_bin_issues_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let old = dir.join("old.sav");
        let old_arg = old.to_str().unwrap();
        // A Godot 3 save holding a full object of a class Godot 4 renamed.
        let json = br#"{"$Object":{"class":"Spatial","properties":[["visible", true]]}} 5"#;
        let (code, _, err) = godot_bin(
            &[
                "encode",
                "--json",
                "--dialect",
                "godot3",
                "--framed",
                "-o",
                old_arg,
            ],
            json,
        );
        assert_eq!(code, Some(0), "{err}");
        let new = dir.join("new.sav");
        let (code, out, err) = godot_bin(
            &["convert", "--godot4", old_arg, new.to_str().unwrap()],
            b"",
        );
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains("godot-bin: issue: value 0: an object of class Spatial (renamed Node3D"),
            "{err}"
        );
        assert!(!out.contains("issue:"), "{out}");
        assert!(new.exists());
        let strict = dir.join("strict.sav");
        let (code, _, err) = godot_bin(
            &[
                "convert",
                "--godot4",
                "--strict",
                old_arg,
                strict.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(code, Some(1));
        assert!(
            err.contains("issue: value 0") && err.contains("nothing written (--strict)"),
            "{err}"
        );
        assert!(!strict.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
