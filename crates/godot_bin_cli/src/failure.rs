//! [`Failure`]: what a command reports when it fails.

use std::io;

/// A failure, with the byte offset in the input when there is one, and a hint at what
/// to try instead.
pub(crate) struct Failure {
    pub(crate) offset: Option<usize>,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
}

impl Failure {
    pub(crate) fn at(offset: usize, message: impl Into<String>) -> Failure {
        Failure {
            offset: Some(offset),
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn msg(message: impl Into<String>) -> Failure {
        Failure {
            offset: None,
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn with_hint(mut self, hint: Option<String>) -> Failure {
        self.hint = hint;
        self
    }
}

/// A value's error as the CLI says it. The library's [`godot_bin::ErrorKind::WrongDialect`]
/// tells a program to read with another dialect's `Config`, which a CLI user never sees:
/// the CLI says what the configured dialect said, and its hint line names the `--dialect`
/// to give ([`dialect_hint_of`]).
pub(crate) fn kind_text(kind: &godot_bin::ErrorKind) -> String {
    match kind {
        godot_bin::ErrorKind::WrongDialect { error, .. } => error.to_string(),
        kind => kind.to_string(),
    }
}

/// The hint line for an error whose kind names the dialects that read the bytes cleanly.
pub(crate) fn dialect_hint_of(kind: &godot_bin::ErrorKind) -> Option<String> {
    match kind {
        godot_bin::ErrorKind::WrongDialect {
            dialect,
            decodes_as,
            ..
        } => {
            let others: Vec<String> = decodes_as
                .iter()
                .map(|d| format!("--dialect {}", d.id()))
                .collect();
            Some(hint_text(*dialect, &others))
        }
        _ => None,
    }
}

/// "the input does not decode cleanly as Godot 4, but it does with --dialect godot3".
pub(crate) fn hint_text(chosen: godot_bin::Dialect, others: &[String]) -> String {
    format!(
        "the input does not decode cleanly as {chosen}, but it does with {}",
        others.join(" or ")
    )
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::msg(e.to_string())
    }
}
