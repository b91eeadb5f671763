//! What Godot 4 renamed or reshaped since Godot 3, as data: the one home of the facts every
//! Godot 3 → 4 conversion of this crate reads (saves, resources, scenes, ConfigFiles,
//! projects).
//!
//! Where each fact comes from:
//!
//! * the engine's own 3-to-4 converter, `editor/renames_map_3_to_4.cpp` and
//!   `editor/project_converter_3_to_4.cpp` of godotengine/godot (read at commit
//!   `0171037e0a32b860f60859a0da9d08c6681e690f`, the 4.4/4.5 line; the tables are those
//!   of 4.4.1-stable): the class renames ([`classes`]), the property, signal, theme
//!   override, project setting and input map renames ([`properties`], [`settings`]), the
//!   key code and joypad remapping ([`settings::godot4_keycode`],
//!   [`settings::JOYPAD_BUTTONS`]);
//! * the engines themselves: `classes3.txt` is every Node and Resource class of Godot
//!   3.2.3 with its parent and the properties it stores, written by `classdb3.gd`;
//!   `classes4.txt` the same of Godot 4.4.1 (every property the class has), written by
//!   `classdb4.gd` (both scripts beside this file; rerun them to refresh). A property rule
//!   applies to a class and every class below it in Godot 3 ([`Classes::chain`]), and a
//!   property has a home in Godot 4 when its Godot 4 class, or one above it, has it
//!   ([`Classes::has`]);
//! * rules marked *past the table* in [`properties`]: renames the engine's converter
//!   leaves out because it rewrites text with regular expressions and cannot tell classes
//!   apart (`offset` → `progress` on `PathFollow`, `pressed` → `button_pressed`,
//!   `process_mode` of `Timer` / `Camera2D` / `AnimationTree`...), each checked against
//!   both engines' class lists by this module's tests.

pub(crate) mod classes;
pub(crate) mod properties;
pub(crate) mod settings;

pub(crate) use classes::godot4_class;

use std::collections::HashMap;
use std::sync::OnceLock;

/// One engine's Node and Resource classes: each class's parent and own properties.
pub(crate) struct Classes {
    classes: HashMap<&'static str, (&'static str, Vec<&'static str>)>,
}

impl Classes {
    fn parse(text: &'static str) -> Classes {
        let mut classes = HashMap::new();
        for line in text.lines() {
            let mut words = line.split(' ');
            let (Some(class), Some(parent)) = (words.next(), words.next()) else {
                continue;
            };
            classes.insert(class, (parent, words.collect()));
        }
        Classes { classes }
    }

    /// Whether the engine has this class (a Node or a Resource).
    pub(crate) fn knows(&self, class: &str) -> bool {
        self.classes.contains_key(class)
    }

    /// The class and the classes above it, nearest first (empty for a class the engine
    /// does not have).
    pub(crate) fn chain<'a>(&'a self, class: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let mut next = self.classes.get_key_value(class).map(|(k, _)| *k);
        std::iter::from_fn(move || {
            let c = next?;
            next = self
                .classes
                .get(c)
                .and_then(|(p, _)| self.classes.get_key_value(p).map(|(k, _)| *k));
            Some(c)
        })
        .take(64)
    }

    /// Whether `class` or a class above it has the property `name`.
    pub(crate) fn has(&self, class: &str, name: &str) -> bool {
        self.chain(class).any(|c| {
            self.classes
                .get(c)
                .is_some_and(|(_, ps)| ps.contains(&name))
        })
    }

    /// Whether `class` is `ancestor` or below it.
    pub(crate) fn is_a(&self, class: &str, ancestor: &str) -> bool {
        self.chain(class).any(|c| c == ancestor)
    }
}

/// Godot 3.2.3's classes (`classes3.txt`).
pub(crate) fn godot3() -> &'static Classes {
    static C: OnceLock<Classes> = OnceLock::new();
    C.get_or_init(|| Classes::parse(include_str!("classes3.txt")))
}

/// Godot 4.4.1's classes (`classes4.txt`).
pub(crate) fn godot4() -> &'static Classes {
    static C: OnceLock<Classes> = OnceLock::new();
    C.get_or_init(|| Classes::parse(include_str!("classes4.txt")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_lists_follow_the_engines_hierarchy() {
        let g3 = godot3();
        assert!(g3.is_a("Button", "Control"));
        assert!(g3.has("Button", "margin_left"));
        assert!(!g3.has("Node2D", "margin_left"));
        assert!(g3.has("StyleBoxTexture", "margin_left"));
        let g4 = godot4();
        assert!(g4.has("Button", "offset_left"));
        assert!(!g4.has("Button", "margin_left"));
        assert!(g4.has("StyleBoxTexture", "texture_margin_left"));
        assert_eq!(
            g3.chain("Label").collect::<Vec<_>>(),
            ["Label", "Control", "CanvasItem", "Node"]
        );
    }
}
