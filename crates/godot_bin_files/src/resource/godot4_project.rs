//! Godot 3 → Godot 4 for `project.godot` (and any ConfigFile of Godot 3 values):
//! [`ConfigFile::to_godot4`].

use super::config::ConfigFile;
use super::convert::Converted;
use crate::error::Result;
use crate::issue::Issue;
use crate::renames::settings;
use godot_bin::{Dialect, Variant};

fn issue(section: &str, key: &str, message: impl Into<String>) -> Issue {
    Issue::in_section(format!("[{section}]"), key, message)
}

/// Sections whose keys the project names (actions, autoloads, layers...), never checked
/// against Godot 4's settings.
const USER_SECTIONS: &[&str] = &[
    "input",
    "autoload",
    "editor_plugins",
    "layer_names",
    "locale",
    "importer_defaults",
    "",
];

impl ConfigFile {
    /// A Godot 3 ConfigFile as Godot 4 writes it: values in Godot 4's text (inline
    /// objects' classes and properties renamed, InputEvents' key codes and joypad buttons
    /// renumbered, as [`TextResource::to_godot4`](super::TextResource::to_godot4) does).
    /// `project.godot` (a file with `config_version`) also gets the renamed project
    /// settings (`display/window/size/width` → `display/window/size/viewport_width`...),
    /// `config_version=5` and `application/config/features`, and each setting Godot 4.4
    /// does not have is named in the issues (and kept: Godot 4 keeps it as a custom
    /// setting).
    pub fn to_godot4(&self) -> Result<Converted<ConfigFile>> {
        let mut issues = Vec::new();
        let project = self.get("", "config_version").is_some();
        let mut out = ConfigFile::with_dialect(Dialect::Godot4);
        for section in self.section_names() {
            for key in self.keys(section) {
                let Some(v) = self.get(section, key) else {
                    continue;
                };
                let at = format!("[{section}] {key}");
                let mut value = super::godot4::upgrade_value(v, &at, &mut issues);
                let (mut s, mut k) = (section.to_string(), key.to_string());
                if project && !section.is_empty() {
                    let full = format!("{section}/{key}");
                    if let Some(new) = settings::setting(&full) {
                        let (a, b) = new.split_once('/').unwrap_or(("", new));
                        (s, k) = (a.to_string(), b.to_string());
                        value = setting_value(&full, value);
                    }
                    let full = format!("{s}/{k}");
                    if !USER_SECTIONS.contains(&s.as_str()) && !settings::godot4_has_setting(&full)
                    {
                        issues.push(issue(
                            section,
                            key,
                            format!("no home in Godot 4: Godot 4.4 has no project setting {full}; kept as a custom setting"),
                        ));
                    }
                }
                if project && section.is_empty() && key == "config_version" {
                    value = Variant::Int(5);
                }
                out.set(&s, &k, value);
            }
        }
        if project {
            out.set(
                "application",
                "config/features",
                Variant::PackedStringArray(godot_bin::PackedStringArray(vec!["4.4".into()])),
            );
        }
        Ok(Converted { file: out, issues })
    }
}

/// A renamed setting's value where its type changed.
fn setting_value(godot3: &str, v: Variant) -> Variant {
    match (godot3, &v) {
        // VSYNC_DISABLED 0, VSYNC_ENABLED 1.
        ("display/window/vsync/use_vsync", Variant::Bool(b)) => Variant::Int(i64::from(*b)),
        // WINDOW_MODE_WINDOWED 0, WINDOW_MODE_FULLSCREEN 3.
        ("display/window/size/fullscreen", Variant::Bool(b)) => {
            Variant::Int(if *b { 3 } else { 0 })
        }
        _ => v,
    }
}
