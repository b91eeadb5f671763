//! Project settings, key codes and joypad buttons Godot 4 renamed or renumbered.
//!
//! From the engine's `project_settings_renames` (`editor/renames_map_3_to_4.cpp`) and its
//! `rename_input_map_scancode` / `rename_joypad_buttons_and_axes`
//! (`editor/project_converter_3_to_4.cpp`), plus (past the table) settings whose value
//! changed type.

/// Project settings (`section/key` as `ProjectSettings` names them): Godot 3 beside
/// Godot 4.
pub(crate) const SETTINGS: &[(&str, &str)] = &[
    (
        "audio/channel_disable_threshold_db",
        "audio/buses/channel_disable_threshold_db",
    ),
    (
        "audio/channel_disable_time",
        "audio/buses/channel_disable_time",
    ),
    ("audio/default_bus_layout", "audio/buses/default_bus_layout"),
    ("audio/driver", "audio/driver/driver"),
    ("audio/enable_audio_input", "audio/driver/enable_input"),
    ("audio/mix_rate", "audio/driver/mix_rate"),
    ("audio/output_latency", "audio/driver/output_latency"),
    (
        "audio/output_latency.web",
        "audio/driver/output_latency.web",
    ),
    (
        "audio/video_delay_compensation_ms",
        "audio/video/video_delay_compensation_ms",
    ),
    (
        "display/window/size/width",
        "display/window/size/viewport_width",
    ),
    (
        "display/window/size/height",
        "display/window/size/viewport_height",
    ),
    (
        "display/window/size/test_width",
        "display/window/size/window_width_override",
    ),
    (
        "display/window/size/test_height",
        "display/window/size/window_height_override",
    ),
    (
        "display/window/vsync/use_vsync",
        "display/window/vsync/vsync_mode",
    ),
    ("editor/main_run_args", "editor/run/main_run_args"),
    ("gui/common/swap_ok_cancel", "gui/common/swap_cancel_ok"),
    (
        "network/limits/debugger_stdout/max_chars_per_second",
        "network/limits/debugger/max_chars_per_second",
    ),
    (
        "network/limits/debugger_stdout/max_errors_per_second",
        "network/limits/debugger/max_errors_per_second",
    ),
    (
        "network/limits/debugger_stdout/max_messages_per_frame",
        "network/limits/debugger/max_queued_messages",
    ),
    (
        "network/limits/debugger_stdout/max_warnings_per_second",
        "network/limits/debugger/max_warnings_per_second",
    ),
    (
        "network/ssl/certificates",
        "network/tls/certificate_bundle_override",
    ),
    ("physics/2d/thread_model", "physics/2d/run_on_thread"),
    (
        "rendering/environment/default_clear_color",
        "rendering/environment/defaults/default_clear_color",
    ),
    (
        "rendering/environment/default_environment",
        "rendering/environment/defaults/default_environment",
    ),
    (
        "rendering/quality/depth_prepass/disable_for_vendors",
        "rendering/driver/depth_prepass/disable_for_vendors",
    ),
    (
        "rendering/quality/depth_prepass/enable",
        "rendering/driver/depth_prepass/enable",
    ),
    (
        "rendering/quality/shading/force_blinn_over_ggx",
        "rendering/shading/overrides/force_blinn_over_ggx",
    ),
    (
        "rendering/quality/shading/force_blinn_over_ggx.mobile",
        "rendering/shading/overrides/force_blinn_over_ggx.mobile",
    ),
    (
        "rendering/quality/shading/force_lambert_over_burley",
        "rendering/shading/overrides/force_lambert_over_burley",
    ),
    (
        "rendering/quality/shading/force_lambert_over_burley.mobile",
        "rendering/shading/overrides/force_lambert_over_burley.mobile",
    ),
    (
        "rendering/quality/shading/force_vertex_shading",
        "rendering/shading/overrides/force_vertex_shading",
    ),
    (
        "rendering/quality/shading/force_vertex_shading.mobile",
        "rendering/shading/overrides/force_vertex_shading.mobile",
    ),
    (
        "rendering/quality/shadow_atlas/quadrant_0_subdiv",
        "rendering/lights_and_shadows/shadow_atlas/quadrant_0_subdiv",
    ),
    (
        "rendering/quality/shadow_atlas/quadrant_1_subdiv",
        "rendering/lights_and_shadows/shadow_atlas/quadrant_1_subdiv",
    ),
    (
        "rendering/quality/shadow_atlas/quadrant_2_subdiv",
        "rendering/lights_and_shadows/shadow_atlas/quadrant_2_subdiv",
    ),
    (
        "rendering/quality/shadow_atlas/quadrant_3_subdiv",
        "rendering/lights_and_shadows/shadow_atlas/quadrant_3_subdiv",
    ),
    (
        "rendering/quality/shadow_atlas/size",
        "rendering/lights_and_shadows/shadow_atlas/size",
    ),
    (
        "rendering/quality/shadow_atlas/size.mobile",
        "rendering/lights_and_shadows/shadow_atlas/size.mobile",
    ),
    (
        "rendering/vram_compression/import_etc2",
        "rendering/textures/vram_compression/import_etc2_astc",
    ),
    (
        "rendering/vram_compression/import_s3tc",
        "rendering/textures/vram_compression/import_s3tc_bptc",
    ),
    // Past the table.
    (
        "physics/common/physics_fps",
        "physics/common/physics_ticks_per_second",
    ),
    ("display/window/size/fullscreen", "display/window/size/mode"),
];

/// Whether Godot 4.4.1 has the project setting `name` (`settings4.txt`, written by
/// `settings4.gd`); input actions, autoloads and other user-named keys are not checked.
pub(crate) fn godot4_has_setting(name: &str) -> bool {
    use std::collections::HashSet;
    use std::sync::OnceLock;
    static S: OnceLock<HashSet<String>> = OnceLock::new();
    let set = S.get_or_init(|| {
        let mut set = HashSet::new();
        for line in include_str!("settings4.txt").lines() {
            let mut words = line.split(' ');
            let Some(top) = words.next() else { continue };
            for w in words {
                set.insert(format!("{top}/{w}"));
            }
        }
        set
    });
    set.contains(name)
}

/// The Godot 4 name of a Godot 3 project setting.
pub(crate) fn setting(godot3: &str) -> Option<&'static str> {
    SETTINGS.iter().find(|(a, _)| *a == godot3).map(|(_, b)| *b)
}

/// Godot 3's special-key bit (`SPKEY`).
pub(crate) const GODOT3_SPECIAL: i64 = 1 << 24;
/// Godot 4's (`Key::SPECIAL`).
pub(crate) const GODOT4_SPECIAL: i64 = 1 << 22;

/// A Godot 3 key code as Godot 4 numbers it: a special key's bit moves from `1 << 24`
/// to `1 << 22` (the engine's `rename_input_map_scancode`); printable keys keep their
/// code.
pub(crate) fn godot4_keycode(code: i64) -> i64 {
    if code & GODOT3_SPECIAL != 0 {
        (code & !GODOT3_SPECIAL) | GODOT4_SPECIAL
    } else {
        code
    }
}

/// Godot 3 joypad button index → Godot 4's (the engine's `joypad_button_mappings`); -1:
/// L2 / R2, which are axes 4 / 5 in Godot 4.
pub(crate) const JOYPAD_BUTTONS: [i64; 23] = [
    0, 1, 2, 3, 9, 10, -1, -1, 7, 8, 4, 6, 11, 12, 13, 14, 5, 15, 16, 17, 18, 19, 20,
];

/// Godot 3 joypad axes 6 and 7 (L2, R2) are Godot 4's 4 and 5; the others keep their
/// index.
pub(crate) fn godot4_axis(axis: i64) -> i64 {
    match axis {
        6 => 4,
        7 => 5,
        a => a,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_buttons() {
        // KEY_ESCAPE: Godot 3 0x1000005, Godot 4 0x400005; 'A' stays 65.
        assert_eq!(godot4_keycode(0x0100_0005), 0x0040_0005);
        assert_eq!(godot4_keycode(65), 65);
        assert_eq!(JOYPAD_BUTTONS[4], 9); // L1 -> left shoulder
        assert_eq!(JOYPAD_BUTTONS[11], 6); // start
        assert_eq!(godot4_axis(7), 5);
        assert_eq!(
            setting("display/window/size/width"),
            Some("display/window/size/viewport_width")
        );
    }
}
