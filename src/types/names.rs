//! `StringName` and `NodePath`.

use serde_derive::{Deserialize, Serialize};
use std::fmt;

/// `StringName`: an interned string in the engine, a plain string on the wire with its own
/// type id (Godot 4 and Pandemonium; Godot 3 has no such type).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StringName(pub String);

impl From<&str> for StringName {
    fn from(s: &str) -> Self {
        StringName(s.to_owned())
    }
}

impl From<String> for StringName {
    fn from(s: String) -> Self {
        StringName(s)
    }
}

impl std::ops::Deref for StringName {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for StringName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `NodePath`: node names, then property subnames, and whether the path is absolute.
///
/// Parse one from text as the engine does:
///
/// ```
/// use godot_bin::NodePath;
/// let p = NodePath::from("../Enemy:position:x");
/// assert_eq!(p.names, ["..", "Enemy"]);
/// assert_eq!(p.subnames, ["position", "x"]);
/// assert!(!p.absolute);
/// assert_eq!(p.to_string(), "../Enemy:position:x");
///
/// // The root: absolute, with no names. Godot 4 sends and decodes it as such; Godot 3's
/// // decoder turns it into the empty path, and so does this crate's in that dialect.
/// let root = NodePath::from("/");
/// assert!(root.absolute && root.names.is_empty() && !root.is_empty());
/// assert_eq!(root.to_string(), "/");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(remote = "Self", rename = "$godot_bin::NodePath")]
pub struct NodePath {
    /// Node names, split on `/`.
    pub names: Vec<String>,
    /// Property subnames, the parts after each `:`.
    pub subnames: Vec<String>,
    /// The path starts at the root (`/root/...`).
    pub absolute: bool,
}

impl NodePath {
    /// Whether the path is the empty path (`NodePath("")`): no names, no subnames, and
    /// not absolute (`NodePath("/")`, the root, is not empty, as in Godot 4).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty() && self.subnames.is_empty() && !self.absolute
    }
}

/// Parses as the engine's `NodePath(String)` does: a leading `/` makes the path absolute,
/// names are split on `/` (empty parts skipped), subnames follow each `:`. Text the engine
/// refuses (an empty subname such as `"a::b"`) gives the empty path, as in the engine.
impl From<&str> for NodePath {
    fn from(text: &str) -> Self {
        let absolute = text.starts_with('/');
        let (path, subpath) = match text.split_once(':') {
            Some((path, sub)) => (path, Some(sub)),
            None => (text, None),
        };
        let mut subnames = Vec::new();
        if let Some(sub) = subpath {
            // The engine allows one trailing ':' but no other empty subname.
            let sub = sub.strip_suffix(':').unwrap_or(sub);
            for part in sub.split(':') {
                if part.is_empty() {
                    if sub.is_empty() {
                        break;
                    }
                    return NodePath::default();
                }
                subnames.push(part.to_owned());
            }
        }
        let names = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        NodePath {
            names,
            subnames,
            absolute,
        }
    }
}

impl From<String> for NodePath {
    fn from(text: String) -> Self {
        NodePath::from(text.as_str())
    }
}

impl fmt::Display for NodePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.absolute {
            f.write_str("/")?;
        }
        f.write_str(&self.names.join("/"))?;
        for sub in &self.subnames {
            write!(f, ":{sub}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_like_the_engine() {
        let p = NodePath::from("/root/Main:position:x");
        assert!(p.absolute);
        assert_eq!(p.names, ["root", "Main"]);
        assert_eq!(p.subnames, ["position", "x"]);
        assert_eq!(NodePath::from("a//b").names, ["a", "b"]);
        assert_eq!(NodePath::from(":x").subnames, ["x"]);
        assert!(NodePath::from("a::b").is_empty());
        assert_eq!(NodePath::from("a:").subnames, Vec::<String>::new());
        assert!(NodePath::from("").is_empty());
    }
}
