//! The manual of `godot-bin`, the command-line tool this crate installs (`cargo install
//! godot_bin_cli`). The crate is the binary: this library has no API of its own, only this
//! page, so that the tool's documentation has a home on docs.rs beside the libraries it is
//! built on ([`godot_bin`](https://docs.rs/godot_bin),
//! [`godot_bin_files`](https://docs.rs/godot_bin_files)). `godot-bin --help` and
//! `godot-bin <command> --help` say the same, at the terminal.
//!
//! ---
//!
#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]
#![warn(missing_docs)]
