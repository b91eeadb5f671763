//! The engine versions, and what each writes differently in resources and scenes: the one
//! table ([`FACTS`]) every reader and writer of this module asks.
//!
//! Where the facts come from (the engine's source, `scene/resources/resource_format_text.cpp`,
//! `packed_scene.cpp`, `core/io/resource_format_binary.cpp` of 4.4.1 and of master; the
//! release lists name the version that brought each change):
//!
//! * 4.3 brought text `format=4`: written only when a value holds a `PackedByteArray` of
//!   more than 64 bytes or a `PackedVector4Array` in a resource the saver looks into (not
//!   an `ImageTexture`'s image: [`file_needs_format_4`]); every non-empty byte array of
//!   such a file is base64.
//! * 4.5 writes `-inf` (not `inf_neg`) in a `format=4` file, and floats as their shortest
//!   text (which changes no value this crate writes: it always writes text the engine
//!   reads back exactly).
//! * 4.6 gave nodes ids: `[node ... unique_id=N]`, `parent_id_path=` and `owner_uid_path=`
//!   (`PackedInt32Array`) where a parent or owner is a path into an instanced scene; in a
//!   binary scene the bundle's `node_ids` and `id_paths`. It stopped writing `load_steps=`.
//! * 4.7's text loader skips a UTF-8 byte order mark before the header (earlier ones
//!   refuse the file): read, and kept when written back.
//! * The binary header records the engine's major and minor version; its format stayed 6
//!   from 4.3 to master (4.8-dev), Godot 3's is 3.
//!
//! A text file does not say which engine wrote it; it shows as much as it shows: `format=2`
//! is Godot 3, node ids or a header without `load_steps` where it would have one is 4.6 or
//! later, `format=3` with a value that 4.3 and later write as `format=4` is 4.0–4.2 (taken
//! as 4.2), anything else Godot 4 up to 4.5 (taken as 4.4). A binary file says its version; one newer than [`EngineVersion::LATEST_KNOWN`]
//! is read as far as its format goes, kept as it is, and said so in conversions.

use std::fmt;

/// An engine version (`major.minor`), as a binary resource's header records it and as a
/// text file shows it ([`super::TextResource::engine`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EngineVersion {
    /// 3 or 4.
    pub major: u32,
    /// The minor version.
    pub minor: u32,
}

impl EngineVersion {
    /// Godot 3.2, what this crate writes for a Godot 3 file that does not say its minor
    /// version (every 3.x reads it).
    pub const GODOT_3: EngineVersion = EngineVersion::new(3, 2);
    /// Godot 4.2: a `format=3` text file with a value 4.3 would have written as
    /// `format=4` (its binary format is 5, which every 4.x reads).
    pub const GODOT_4_2: EngineVersion = EngineVersion::new(4, 2);
    /// Godot 4.4, what this crate writes for a Godot 4 file up to 4.5 that does not say
    /// its minor version (every 4.x from 4.3 reads its binary format 6).
    pub const GODOT_4: EngineVersion = EngineVersion::new(4, 4);
    /// Godot 4.6: node ids, no `load_steps`.
    pub const GODOT_4_6: EngineVersion = EngineVersion::new(4, 6);
    /// The newest version whose files this crate knows (master, 4.8-dev).
    pub const LATEST_KNOWN: EngineVersion = EngineVersion::new(4, 8);

    /// `major.minor`.
    pub const fn new(major: u32, minor: u32) -> EngineVersion {
        EngineVersion { major, minor }
    }

    /// Whether this crate knows this version's files (up to [`Self::LATEST_KNOWN`]).
    pub fn is_known(self) -> bool {
        self <= EngineVersion::LATEST_KNOWN
    }

    /// The facts of this version: the last row of [`FACTS`] at or before it.
    pub(crate) fn facts(self) -> &'static Facts {
        FACTS
            .iter()
            .rev()
            .find(|f| f.since <= self)
            .unwrap_or(&FACTS[0])
    }
}

impl fmt::Display for EngineVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// What one engine version writes, where versions differ.
#[derive(Debug)]
pub(crate) struct Facts {
    /// The first version these facts hold for.
    pub since: EngineVersion,
    /// The binary format number its saver writes.
    pub binary_format: u32,
    /// Text `format=` written when nothing asks for more (2: Godot 3, 3: Godot 4).
    pub text_format: i64,
    /// Whether it writes text `format=4` (base64 byte arrays) when a value needs it.
    pub text_format_4: bool,
    /// Whether its text header carries `load_steps=` (when more than 1).
    pub load_steps: bool,
    /// Whether nodes carry ids (`unique_id=`, `parent_id_path=`, `owner_uid_path=`; the
    /// bundle's `node_ids` and `id_paths`).
    pub node_ids: bool,
    /// Whether a `format=4` file writes `-inf` (else `inf_neg`).
    pub minus_inf: bool,
    /// The `_bundled` Dictionary's `version`.
    pub bundle_version: i64,
}

/// Every version with a difference, oldest first.
pub(crate) const FACTS: &[Facts] = &[
    Facts {
        since: EngineVersion::new(3, 0),
        binary_format: 3,
        text_format: 2,
        text_format_4: false,
        load_steps: true,
        node_ids: false,
        minus_inf: false,
        bundle_version: 2,
    },
    Facts {
        since: EngineVersion::new(4, 0),
        // 4 without a script class; 5 is read by every 4.x (the loader takes any format up
        // to its own).
        binary_format: 5,
        text_format: 3,
        text_format_4: false,
        load_steps: true,
        node_ids: false,
        minus_inf: false,
        bundle_version: 3,
    },
    Facts {
        since: EngineVersion::new(4, 3),
        binary_format: 6,
        text_format: 3,
        text_format_4: true,
        load_steps: true,
        node_ids: false,
        minus_inf: false,
        bundle_version: 3,
    },
    Facts {
        since: EngineVersion::new(4, 5),
        binary_format: 6,
        text_format: 3,
        text_format_4: true,
        load_steps: true,
        node_ids: false,
        minus_inf: true,
        bundle_version: 3,
    },
    Facts {
        since: EngineVersion::new(4, 6),
        binary_format: 6,
        text_format: 3,
        text_format_4: true,
        load_steps: false,
        node_ids: true,
        minus_inf: true,
        bundle_version: 3,
    },
];

/// The node attributes only 4.6 and later write, by which a text file shows it is one.
pub(crate) const NODE_ID_ATTRS: [&str; 3] = ["unique_id", "parent_id_path", "owner_uid_path"];

/// The version a text file shows: its `format`, whether its header has `load_steps`, how
/// many resources it counts (external and internal, the main one included), whether a
/// node carries an id attribute and whether a value needs `format=4` ([`needs_format_4`]).
pub(crate) fn text_version(
    format: i64,
    load_steps: bool,
    steps: usize,
    node_ids: bool,
    format_4_values: bool,
) -> EngineVersion {
    // Values that 4.3+ writes as `format=4` in a `format=3` file outweigh a missing
    // `load_steps` (which a tool may strip: godot-demo-projects' files do): the text of
    // every byte array depends on it, and 4.2 cannot read `format=4`.
    if format <= 2 {
        EngineVersion::GODOT_3
    } else if node_ids {
        EngineVersion::GODOT_4_6
    } else if format == 3 && format_4_values {
        EngineVersion::GODOT_4_2
    } else if !load_steps && steps > 1 {
        EngineVersion::GODOT_4_6
    } else {
        EngineVersion::GODOT_4
    }
}

/// Whether a value makes the text saver of 4.3 and later write `format=4`: a
/// PackedVector4Array, or a PackedByteArray of more than 64 bytes.
pub(crate) fn needs_format_4(v: &godot_bin::Variant) -> bool {
    use godot_bin::Variant;
    match v {
        Variant::PackedVector4Array(_) => true,
        Variant::PackedByteArray(b) => b.len() > 64,
        Variant::Array(a) => a.iter().any(needs_format_4),
        Variant::Dictionary(d) => d
            .iter()
            .any(|(k, x)| needs_format_4(k) || needs_format_4(x)),
        Variant::Object(o) => o.properties.iter().any(|(_, x)| needs_format_4(x)),
        _ => false,
    }
}

/// The properties whose resource the engine's text saver stores without looking into it
/// when it chooses `format=4` (class, property): a `PROPERTY_USAGE_RESOURCE_NOT_PERSISTENT`
/// property holding an object, which `_find_resources` lists as saved and does not visit
/// (4.4.1's classes: only `ImageTexture.image`; `ImageTextureLayered` and
/// `ImageTexture3D`'s `_images` hold an Array, which it does visit). So an `Image` whose
/// data is over 64 bytes, used only as an `ImageTexture`'s image, leaves a file at
/// `format=3`, as every such 4.3–4.7 file of the corpus shows.
const NOT_LOOKED_INTO: [(&str, &str); 1] = [("ImageTexture", "image")];

/// One resource of a file, as [`file_needs_format_4`] reads it: its class, its
/// sub-resource id (`None` for the main resource or a node) and its properties.
pub(crate) type ResourceView<'a> = (&'a str, Option<String>, &'a super::Properties);

/// Whether the text saver of 4.3 and later writes `format=4` for a file of these
/// resources: a value needing it ([`needs_format_4`]) in a resource the saver looks into,
/// which is every one but a sub-resource referred to only through [`NOT_LOOKED_INTO`].
pub(crate) fn file_needs_format_4(resources: &[ResourceView<'_>]) -> bool {
    use super::Reference;
    use std::collections::HashSet;
    let mut hidden: HashSet<String> = HashSet::new();
    let mut seen: HashSet<String> = HashSet::new();
    for (class, _, props) in resources {
        for p in props.iter() {
            let mut refs = Vec::new();
            super::reference::collect_references(p.value(), &mut refs);
            let not_looked_into = NOT_LOOKED_INTO
                .iter()
                .any(|(c, name)| c == class && *name == p.name());
            for r in refs {
                if let Reference::Sub(id) = r {
                    if not_looked_into && matches!(p.value(), godot_bin::Variant::Object(_)) {
                        hidden.insert(id);
                    } else {
                        seen.insert(id);
                    }
                }
            }
        }
    }
    resources.iter().any(|(_, id, props)| {
        let skipped = id
            .as_ref()
            .is_some_and(|i| hidden.contains(i) && !seen.contains(i));
        !skipped && props.iter().any(|p| needs_format_4(p.value()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_version_finds_its_row() {
        assert!(!EngineVersion::new(3, 5).facts().text_format_4);
        assert_eq!(EngineVersion::new(3, 5).facts().binary_format, 3);
        assert!(!EngineVersion::new(4, 2).facts().text_format_4);
        assert_eq!(EngineVersion::new(4, 2).facts().binary_format, 5);
        assert_eq!(EngineVersion::new(4, 3).facts().binary_format, 6);
        assert!(EngineVersion::new(4, 4).facts().text_format_4);
        assert!(!EngineVersion::new(4, 4).facts().minus_inf);
        assert!(EngineVersion::new(4, 5).facts().load_steps);
        assert!(!EngineVersion::new(4, 7).facts().load_steps);
        assert!(EngineVersion::new(4, 9).facts().node_ids);
        assert!(!EngineVersion::new(4, 9).is_known());
        assert!(EngineVersion::new(4, 8).is_known());
        // Rows are in order, so `facts` finds the newest that applies.
        assert!(FACTS.windows(2).all(|w| w[0].since < w[1].since));
    }

    #[test]
    fn a_text_file_shows_what_it_shows() {
        assert_eq!(
            text_version(2, true, 3, false, false),
            EngineVersion::GODOT_3
        );
        assert_eq!(
            text_version(3, true, 3, false, false),
            EngineVersion::GODOT_4
        );
        assert_eq!(
            text_version(3, false, 1, false, false),
            EngineVersion::GODOT_4
        );
        assert_eq!(
            text_version(3, false, 2, false, false),
            EngineVersion::GODOT_4_6
        );
        assert_eq!(
            text_version(4, false, 1, true, true),
            EngineVersion::GODOT_4_6
        );
        assert_eq!(
            text_version(3, true, 2, false, true),
            EngineVersion::GODOT_4_2
        );
        assert_eq!(
            text_version(3, false, 2, false, true),
            EngineVersion::GODOT_4_2
        );
        assert_eq!(
            text_version(3, false, 2, true, true),
            EngineVersion::GODOT_4_6
        );
        assert_eq!(
            text_version(4, true, 2, false, true),
            EngineVersion::GODOT_4
        );
    }
}
