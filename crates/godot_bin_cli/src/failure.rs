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

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::msg(e.to_string())
    }
}
