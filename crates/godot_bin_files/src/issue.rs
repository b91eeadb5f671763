//! [`Issue`]: what a conversion could not carry over exactly, the one type every
//! conversion of this crate reports (saves Godot 3 → 4, resources and scenes between their
//! forms and engines).

use std::fmt;

/// Something a conversion could not carry over exactly: where, and what was found and
/// what was written instead.
///
/// ```
/// use godot_bin_files::{Issue, Location};
/// let issue = Issue {
///     location: Location::Section {
///         section: "[node \"Player\"]".into(),
///         property: "script".into(),
///     },
///     message: "an inline script has no Godot 4 form".into(),
/// };
/// assert_eq!(
///     issue.to_string(),
///     "[node \"Player\"] script: an inline script has no Godot 4 form"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// Where in the file.
    pub location: Location,
    /// What was found and what was written instead.
    pub message: String,
}

impl Issue {
    /// An issue about `property` of `section` of a resource, scene or ConfigFile.
    pub(crate) fn in_section(
        section: impl Into<String>,
        property: impl Into<String>,
        message: impl Into<String>,
    ) -> Issue {
        Issue {
            location: Location::Section {
                section: section.into(),
                property: property.into(),
            },
            message: message.into(),
        }
    }
}

/// Where an [`Issue`] is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// In a save: which stored value (0 for the first `store_var`), and where inside it in
    /// GDScript's index notation (`["player"].script`; empty for the value itself).
    Value {
        /// The value's index.
        index: usize,
        /// The path inside it.
        path: String,
    },
    /// In a resource, scene or ConfigFile: the section (`[resource]`,
    /// `[sub_resource id="..."]`, `[node "Player"]`, `[header]`) and the property (empty
    /// for the section itself).
    Section {
        /// The section, as its tag reads.
        section: String,
        /// The property's name.
        property: String,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Value { index, path } => {
                write!(f, "value {index}")?;
                if !path.is_empty() {
                    write!(f, " at {path}")?;
                }
                Ok(())
            }
            Location::Section { section, property } => {
                f.write_str(section)?;
                if !property.is_empty() {
                    write!(f, " {property}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}
