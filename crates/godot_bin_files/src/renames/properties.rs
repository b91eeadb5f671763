//! Properties, signals and theme overrides Godot 4 renamed, each with the Godot 3 class it
//! belongs to (it applies to that class and every class below it) and what becomes of the
//! value.
//!
//! From the engine's `gdscript_properties_renames`, `gdscript_signals_renames` and
//! `theme_override_renames` (`editor/renames_map_3_to_4.cpp`), whose comments name the
//! classes; rows marked `past` go past the engine's table (renames it leaves out because
//! its regular expressions cannot tell classes apart, or values it does not convert),
//! checked against both engines' class lists (`classes3.txt`, `classes4.txt`) by the
//! tests below.

use super::Classes;

/// What becomes of a value when its property is renamed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    /// Kept as it is.
    Same,
    /// Doubled: a half size (`extents`) becomes a full one (`size`).
    Double,
    /// Degrees to radians (`rect_rotation` → `rotation`).
    DegreesToRadians,
    /// `pause_mode` to `process_mode`: inherit 0 → 0, stop 1 → pausable 1, process 2 →
    /// always 3.
    PauseMode,
    /// A Godot 3 key code (special keys from `1 << 24`) to Godot 4's (from `1 << 22`).
    Keycode,
    /// A bool to an enum: `true` becomes this value, `false` 0.
    BoolTo(i64),
    /// A bool inverted (`rotating` → `ignore_rotation`).
    Not,
    /// An `Animation.loop` bool to `loop_mode` (`LOOP_NONE` 0, `LOOP_LINEAR` 1).
    LoopMode,
    /// A capsule's middle height to Godot 4's whole height: plus twice the radius (the
    /// section's `radius`, or Godot 3's default for the class).
    PlusDiameter,
    /// An enum renumbered: (Godot 3 value, Godot 4 value) pairs; others kept.
    Table(&'static [(i64, i64)]),
    /// One value into an Array of it (a `ShortCut`'s `shortcut` event into a `Shortcut`'s
    /// `events`).
    IntoArray,
}

/// One rename (`p(...)` rows go past the engine's table, see the module docs): on Godot 3 `class` (and below), `from` is Godot 4's `to`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule {
    pub class: &'static str,
    pub from: &'static str,
    pub to: &'static str,
    pub value: Value,
}

const fn r(class: &'static str, from: &'static str, to: &'static str) -> Rule {
    Rule {
        class,
        from,
        to,
        value: Value::Same,
    }
}

const fn v(class: &'static str, from: &'static str, to: &'static str, value: Value) -> Rule {
    Rule {
        class,
        from,
        to,
        value,
    }
}

/// A rule past the engine's table.
const fn p(class: &'static str, from: &'static str, to: &'static str, value: Value) -> Rule {
    v(class, from, to, value)
}

use Value::*;

/// The property renames, by Godot 3 class.
pub(crate) const RULES: &[Rule] = &[
    r("NoiseTexture", "as_normalmap", "as_normal_map"),
    r("LineEdit", "caret_blink_speed", "caret_blink_interval"),
    r("TextEdit", "caret_blink_speed", "caret_blink_interval"),
    r(
        "TextEdit",
        "caret_moving_by_right_click",
        "caret_move_on_right_click",
    ),
    r("LineEdit", "caret_position", "caret_column"),
    r("RayCast", "cast_to", "target_position"),
    r("RayCast2D", "cast_to", "target_position"),
    r("RigidBody", "contacts_reported", "max_contacts_reported"),
    r("RigidBody2D", "contacts_reported", "max_contacts_reported"),
    r("Camera2D", "drag_margin_bottom", "drag_bottom_margin"),
    r(
        "Camera2D",
        "drag_margin_h_enabled",
        "drag_horizontal_enabled",
    ),
    r("Camera2D", "drag_margin_left", "drag_left_margin"),
    r("Camera2D", "drag_margin_right", "drag_right_margin"),
    r("Camera2D", "drag_margin_top", "drag_top_margin"),
    r("Camera2D", "drag_margin_v_enabled", "drag_vertical_enabled"),
    r("BaseButton", "enabled_focus_mode", "focus_mode"),
    v("BoxShape", "extents", "size", Double),
    p("RectangleShape2D", "extents", "size", Double),
    v("ReflectionProbe", "extents", "size", Double),
    p("GIProbe", "extents", "size", Double),
    r("Control", "focus_neighbour_bottom", "focus_neighbor_bottom"),
    r("Control", "focus_neighbour_left", "focus_neighbor_left"),
    r("Control", "focus_neighbour_right", "focus_neighbor_right"),
    r("Control", "focus_neighbour_top", "focus_neighbor_top"),
    r(
        "CanvasLayer",
        "follow_viewport_enable",
        "follow_viewport_enabled",
    ),
    r("Spatial", "global_translation", "global_position"),
    r("Area", "gravity_vec", "gravity_direction"),
    r("Area2D", "gravity_vec", "gravity_direction"),
    r("Control", "hint_tooltip", "tooltip_text"),
    r("Button", "icon_align", "icon_alignment"),
    r("Polygon2D", "invert_enable", "invert_enabled"),
    r("Control", "margin_bottom", "offset_bottom"),
    r("Control", "margin_left", "offset_left"),
    r("Control", "margin_right", "offset_right"),
    r("Control", "margin_top", "offset_top"),
    r("CapsuleMesh", "mid_height", "height"),
    r("NavigationAgent", "neighbor_dist", "neighbor_distance"),
    r("NavigationAgent2D", "neighbor_dist", "neighbor_distance"),
    r("OpenSimplexNoise", "octaves", "fractal_octaves"),
    r("Camera2D", "offset_h", "drag_horizontal_offset"),
    r("Camera2D", "offset_v", "drag_vertical_offset"),
    r("AnimatedTexture", "oneshot", "one_shot"),
    v("Node", "pause_mode", "process_mode", PauseMode),
    v(
        "InputEventKey",
        "physical_scancode",
        "physical_keycode",
        Keycode,
    ),
    r("Popup", "popup_exclusive", "exclusive"),
    r(
        "SpatialMaterial",
        "proximity_fade_enable",
        "proximity_fade_enabled",
    ),
    r("Control", "rect_position", "position"),
    r("Control", "rect_global_position", "global_position"),
    r("Control", "rect_size", "size"),
    r("Control", "rect_min_size", "custom_minimum_size"),
    p("Control", "rect_rotation", "rotation", DegreesToRadians),
    r("Control", "rect_scale", "scale"),
    r("Control", "rect_pivot_offset", "pivot_offset"),
    r("Control", "rect_clip_content", "clip_contents"),
    r("Sprite", "region_filter_clip", "region_filter_clip_enabled"),
    r("Area", "reverb_bus_enable", "reverb_bus_enabled"),
    v("InputEventKey", "scancode", "keycode", Keycode),
    r("RayShape", "slips_on_slope", "slide_on_slope"),
    r("RayShape2D", "slips_on_slope", "slide_on_slope"),
    r(
        "Camera2D",
        "smoothing_enabled",
        "position_smoothing_enabled",
    ),
    r("Camera2D", "smoothing_speed", "position_smoothing_speed"),
    r(
        "Environment",
        "ss_reflections_depth_tolerance",
        "ssr_depth_tolerance",
    ),
    r("Environment", "ss_reflections_enabled", "ssr_enabled"),
    r("Environment", "ss_reflections_fade_in", "ssr_fade_in"),
    r("Environment", "ss_reflections_fade_out", "ssr_fade_out"),
    r("Environment", "ss_reflections_max_steps", "ssr_max_steps"),
    r("TabContainer", "tab_align", "tab_alignment"),
    r("Tabs", "tab_align", "tab_alignment"),
    r("Spatial", "translation", "position"),
    r("AudioStreamPlayer3D", "unit_db", "volume_db"),
    r("PathFollow", "unit_offset", "progress_ratio"),
    r("PathFollow2D", "unit_offset", "progress_ratio"),
    // Input events (the engine's `input_map_renames`, which it applies to project.godot
    // only; here to every InputEvent, in any file).
    r("InputEventWithModifiers", "alt", "alt_pressed"),
    r("InputEventWithModifiers", "shift", "shift_pressed"),
    r("InputEventWithModifiers", "control", "ctrl_pressed"),
    r("InputEventWithModifiers", "meta", "meta_pressed"),
    r("InputEventMouseButton", "doubleclick", "double_click"),
    p(
        "InputEventWithModifiers",
        "command",
        "command_or_control_autoremap",
        Same,
    ),
    p("ShortCut", "shortcut", "events", IntoArray),
    // Past the table: renames the engine leaves out (commented out in its table as too
    // common words, or needing a value converted).
    p("Label", "align", "horizontal_alignment", Same),
    p("Label", "valign", "vertical_alignment", Same),
    p("Button", "align", "alignment", Same),
    p("LineEdit", "align", "alignment", Same),
    p("Label", "autowrap", "autowrap_mode", BoolTo(3)),
    p("Label", "percent_visible", "visible_ratio", Same),
    p("RichTextLabel", "percent_visible", "visible_ratio", Same),
    p("ProgressBar", "percent_visible", "show_percentage", Same),
    p("TextEdit", "wrap_enabled", "wrap_mode", BoolTo(1)),
    p("TextEdit", "readonly", "editable", Not),
    p("BaseButton", "pressed", "button_pressed", Same),
    p("BaseButton", "group", "button_group", Same),
    p("AnimatedSprite", "frames", "sprite_frames", Same),
    p("AnimatedSprite3D", "frames", "sprite_frames", Same),
    p("PathFollow", "offset", "progress", Same),
    p("PathFollow2D", "offset", "progress", Same),
    p("PathFollow2D", "rotate", "rotates", Same),
    p("WindowDialog", "window_title", "title", Same),
    p("Camera2D", "process_mode", "process_callback", Same),
    p("Camera2D", "rotating", "ignore_rotation", Not),
    p("Timer", "process_mode", "process_callback", Same),
    p(
        "AnimationTree",
        "process_mode",
        "callback_mode_process",
        Same,
    ),
    p(
        "AnimationPlayer",
        "playback_process_mode",
        "callback_mode_process",
        Same,
    ),
    p(
        "AnimationPlayer",
        "method_call_mode",
        "callback_mode_method",
        Same,
    ),
    p("AnimationPlayer", "playback_speed", "speed_scale", Same),
    p("Area", "space_override", "gravity_space_override", Same),
    p("Area2D", "space_override", "gravity_space_override", Same),
    p("Animation", "loop", "loop_mode", LoopMode),
    p("CapsuleShape", "height", "height", PlusDiameter),
    p("CapsuleShape2D", "height", "height", PlusDiameter),
    p(
        "StyleBoxTexture",
        "margin_left",
        "texture_margin_left",
        Same,
    ),
    p(
        "StyleBoxTexture",
        "margin_right",
        "texture_margin_right",
        Same,
    ),
    p("StyleBoxTexture", "margin_top", "texture_margin_top", Same),
    p(
        "ParticlesMaterial",
        "flag_align_y",
        "particle_flag_align_y",
        Same,
    ),
    p(
        "ParticlesMaterial",
        "flag_rotate_y",
        "particle_flag_rotate_y",
        Same,
    ),
    p(
        "ParticlesMaterial",
        "flag_disable_z",
        "particle_flag_disable_z",
        Same,
    ),
    p(
        "CPUParticles2D",
        "flag_align_y",
        "particle_flag_align_y",
        Same,
    ),
    p(
        "CPUParticles",
        "flag_align_y",
        "particle_flag_align_y",
        Same,
    ),
    p(
        "CPUParticles",
        "flag_rotate_y",
        "particle_flag_rotate_y",
        Same,
    ),
    p(
        "CPUParticles",
        "flag_disable_z",
        "particle_flag_disable_z",
        Same,
    ),
    p(
        "GeometryInstance",
        "use_in_baked_light",
        "gi_mode",
        BoolTo(1),
    ),
    p("TextureButton", "expand", "ignore_texture_size", Same),
    p("TextureRect", "expand", "expand_mode", BoolTo(1)),
    // Godot 3 none, PCF3, PCF5, PCF7, PCF9, PCF13; Godot 4 none, PCF5, PCF13.
    p(
        "Light2D",
        "shadow_filter",
        "shadow_filter",
        Table(&[(2, 1), (3, 1), (4, 2), (5, 2)]),
    ),
    p(
        "StyleBoxTexture",
        "margin_bottom",
        "texture_margin_bottom",
        Same,
    ),
    p("ReflectionProbe", "interior_enable", "interior", Same),
    p(
        "ReflectionProbe",
        "interior_ambient_color",
        "ambient_color",
        Same,
    ),
    p(
        "ReflectionProbe",
        "interior_ambient_energy",
        "ambient_color_energy",
        Same,
    ),
    p("Environment", "background_sky", "sky", Same),
    p(
        "Environment",
        "background_sky_custom_fov",
        "sky_custom_fov",
        Same,
    ),
];

/// Particle properties Godot 3 holds as a value and a randomness ratio (`initial_velocity`,
/// `initial_velocity_random`: from `value * (1 - random)` to `value`) and Godot 4 as a
/// range (`initial_velocity_min`, `initial_velocity_max`), past the engine's table: the
/// Godot 3 classes, the Godot 3 name, the Godot 4 name, Godot 3's default value.
pub(crate) const PARTICLE_RANGES: &[(&[&str], &str, &str, f64)] = &[
    (PARTICLES, "initial_velocity", "initial_velocity", 0.0),
    (PARTICLES, "angular_velocity", "angular_velocity", 0.0),
    (PARTICLES, "orbit_velocity", "orbit_velocity", 0.0),
    (PARTICLES, "linear_accel", "linear_accel", 0.0),
    (PARTICLES, "radial_accel", "radial_accel", 0.0),
    (PARTICLES, "tangential_accel", "tangential_accel", 0.0),
    (PARTICLES, "damping", "damping", 0.0),
    (PARTICLES, "angle", "angle", 0.0),
    (PARTICLES, "hue_variation", "hue_variation", 0.0),
    (PARTICLES, "anim_speed", "anim_speed", 0.0),
    (PARTICLES, "anim_offset", "anim_offset", 0.0),
    (&["ParticlesMaterial"], "scale", "scale", 1.0),
    (
        &["CPUParticles", "CPUParticles2D"],
        "scale_amount",
        "scale_amount",
        1.0,
    ),
];

const PARTICLES: &[&str] = &["ParticlesMaterial", "CPUParticles", "CPUParticles2D"];

/// Renames the engine makes in its table that this crate does not follow: the value's
/// meaning differs, so it is reported as having no home instead.
pub(crate) const NOT_FOLLOWED: &[(&str, &str, &str)] = &[
    (
        "AudioStreamPlayer3D",
        "out_of_range_mode",
        "an enum (mix or pause) where Godot 4's max_polyphony is a voice count",
    ),
    (
        "Area",
        "gravity_distance_scale",
        "a falloff factor where Godot 4's gravity_point_unit_distance is a distance",
    ),
    (
        "Area2D",
        "gravity_distance_scale",
        "a falloff factor where Godot 4's gravity_point_unit_distance is a distance",
    ),
    (
        "TextEdit",
        "syntax_highlighting",
        "a bool where Godot 4's syntax_highlighter is a resource",
    ),
];

/// The rule for `name` on an object of Godot 3 class `class`; with no class known (a
/// node instanced from another scene), a rule that is the same on every class that has
/// the name.
pub(crate) fn rule(g3: &Classes, class: Option<&str>, name: &str) -> Option<&'static Rule> {
    let mut found = RULES.iter().filter(|x| x.from == name);
    match class {
        Some(c) if g3.knows(c) => found.find(|x| g3.is_a(c, x.class)),
        Some(_) => None,
        None => {
            let first = found.next()?;
            found
                .all(|x| x.to == first.to && x.value == first.value)
                .then_some(first)
        }
    }
}

/// Signals Godot 4 renamed (`gdscript_signals_renames`), by Godot 3 class.
pub(crate) const SIGNALS: &[(&str, &str, &str)] = &[
    ("Popup", "about_to_show", "about_to_popup"),
    ("ARVRController", "button_release", "button_released"),
    ("AcceptDialog", "cancelled", "canceled"),
    ("Tree", "item_double_clicked", "item_icon_double_clicked"),
    ("GraphEdit", "node_unselected", "node_deselected"),
    ("GraphNode", "offset_changed", "position_offset_changed"),
    ("TileMap", "settings_changed", "changed"),
    ("Skeleton", "skeleton_updated", "pose_updated"),
    ("Tabs", "tab_close", "tab_closed"),
    ("Tabs", "tab_hover", "tab_hovered"),
    ("LineEdit", "text_entered", "text_submitted"),
];

/// The Godot 4 name of a signal of an object of Godot 3 class `class` (any class that has
/// the signal when the class is not known).
pub(crate) fn signal(g3: &Classes, class: Option<&str>, name: &str) -> Option<&'static str> {
    SIGNALS
        .iter()
        .find(|(c, from, _)| *from == name && class.is_none_or(|k| g3.is_a(k, c)))
        .map(|(_, _, to)| *to)
}

/// Control's theme override groups: Godot 3 prefix, Godot 4 prefix
/// (`theme_override_renames`).
pub(crate) const THEME_PREFIXES: &[(&str, &str)] = &[
    ("custom_colors/", "theme_override_colors/"),
    ("custom_constants/", "theme_override_constants/"),
    ("custom_fonts/", "theme_override_fonts/"),
    ("custom_icons/", "theme_override_icons/"),
    ("custom_styles/", "theme_override_styles/"),
];

/// Theme items Godot 4 renamed, as overrides name them (`group/item`): the engine's
/// `theme_override_renames` and the theme item names of its property table
/// (`hseparation` → `h_separation`...).
pub(crate) const THEME_ITEMS: &[(&str, &str)] = &[
    ("styles/tab_bg", "styles/tab_unselected"),
    ("styles/tab_fg", "styles/tab_selected"),
    ("colors/font_color_hover", "colors/font_hover_color"),
    ("colors/font_color_pressed", "colors/font_pressed_color"),
    ("colors/font_color_disabled", "colors/font_disabled_color"),
    ("colors/font_color_focus", "colors/font_focus_color"),
    (
        "colors/font_color_hover_pressed",
        "colors/font_hover_pressed_color",
    ),
    ("colors/font_outline_modulate", "colors/font_outline_color"),
    ("colors/font_color_shadow", "colors/font_shadow_color"),
    (
        "constants/shadow_as_outline",
        "constants/shadow_outline_size",
    ),
    (
        "constants/table_vseparation",
        "constants/table_v_separation",
    ),
    (
        "constants/table_hseparation",
        "constants/table_h_separation",
    ),
    ("constants/vseparation", "constants/v_separation"),
    ("constants/hseparation", "constants/h_separation"),
    ("constants/check_vadjust", "constants/check_v_offset"),
    ("constants/close_h_ofs", "constants/close_h_offset"),
    ("constants/close_v_ofs", "constants/close_v_offset"),
    ("styles/commentfocus", "styles/comment_focus"),
    ("styles/selectedframe", "styles/selected_frame"),
    ("styles/bg_focus", "styles/focus"),
    ("icons/off_disabled", "icons/unchecked_disabled"),
    ("icons/on_disabled", "icons/checked_disabled"),
    ("icons/off", "icons/unchecked"),
    ("icons/on", "icons/checked"),
];

/// The Godot 4 name of a Godot 3 theme override property (`custom_colors/font_color` →
/// `theme_override_colors/font_color`), or `None` for another property.
pub(crate) fn theme_override(name: &str) -> Option<String> {
    let (from, to) = THEME_PREFIXES
        .iter()
        .find(|(from, _)| name.starts_with(from))?;
    let group = from.trim_start_matches("custom_");
    let item = format!("{group}{}", &name[from.len()..]);
    let item = THEME_ITEMS
        .iter()
        .find(|(a, _)| *a == item)
        .map_or(item.as_str(), |(_, b)| b);
    let item = item.split_once('/').map_or(item, |(_, i)| i);
    Some(format!("{to}{item}"))
}

/// Groups of properties renamed by prefix on a Godot 3 class (and below), past the
/// engine's table: Godot 3 prefix, class, Godot 4 prefix.
pub(crate) const PREFIXES: &[(&str, &str, &str)] = &[
    ("shader_param/", "ShaderMaterial", "shader_parameter/"),
    ("material/", "MeshInstance", "surface_material_override/"),
];

/// Godot 3 property groups Godot 4 has no home for (reported): class, prefix, why.
pub(crate) const GONE_PREFIXES: &[(&str, &str, &str)] = &[(
    "ArrayMesh",
    "surfaces/",
    "Godot 4 stores a mesh's surfaces in another layout (_surfaces)",
)];

/// The Godot 4 name of property `name` of an object of Godot 3 class `class` (`None`:
/// unknown), by every rename this module knows, and how its value converts; `None` when
/// the name stays.
pub(crate) fn godot4_name(
    g3: &Classes,
    class: Option<&str>,
    name: &str,
) -> Option<(String, Value)> {
    if let Some(t) = theme_override(name) {
        return Some((t, Value::Same));
    }
    for (from, c, to) in PREFIXES {
        if let Some(rest) = name.strip_prefix(from) {
            if class.is_none_or(|k| g3.is_a(k, c)) {
                return Some((format!("{to}{rest}"), Value::Same));
            }
        }
    }
    rule(g3, class, name).map(|r| (r.to.to_string(), r.value))
}

#[cfg(test)]
mod tests {
    use super::super::{godot3, godot4, godot4_class};
    use super::*;

    /// Every rule names a Godot 3 class that has the property (or, for a property the
    /// engine computes and never stores, a class of Godot 3), and a Godot 4 home.
    #[test]
    fn every_rule_is_true_of_both_engines() {
        let (g3, g4) = (godot3(), godot4());
        // Computed from others, never stored by Godot 3 (seen in animation tracks and
        // scripts): Control's rect_position/size/global_position, Spatial's translation.
        let computed = [
            "rect_position",
            "rect_size",
            "rect_global_position",
            "global_translation",
            "translation",
            "unit_offset",
        ];
        // Stored by Godot 3 releases after 3.2.3 (3.3 to 3.5), whose files hold them.
        let later = ["icon_align", "neighbor_dist", "physical_scancode"];
        let later_classes = ["NavigationAgent", "NavigationAgent2D"];
        // Classes of a module the test engine build leaves out (noise): the engine's
        // table is taken as it is.
        let module = ["NoiseTexture", "OpenSimplexNoise"];
        let mut wrong = Vec::new();
        for rule in RULES {
            let class4 = godot4_class(rule.class).unwrap_or(rule.class);
            if module.contains(&rule.class) {
                continue;
            }
            let stored = g3.has(rule.class, rule.from)
                || computed.contains(&rule.from)
                || later.contains(&rule.from);
            let known = g3.knows(rule.class) || later_classes.contains(&rule.class);
            if !known || !stored || !g4.has(class4, rule.to) {
                wrong.push(format!("{rule:?} ({class4})"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        for (class, from, _) in NOT_FOLLOWED {
            assert!(g3.has(class, from), "{class}.{from}");
        }
    }

    #[test]
    fn a_rule_follows_the_class_hierarchy() {
        let g3 = godot3();
        let margin = rule(g3, Some("Button"), "margin_left").unwrap();
        assert_eq!(margin.to, "offset_left");
        let stylebox = rule(g3, Some("StyleBoxTexture"), "margin_left").unwrap();
        assert_eq!(stylebox.to, "texture_margin_left");
        assert!(rule(g3, Some("StyleBoxFlat"), "margin_left").is_none());
        assert!(rule(g3, Some("Node2D"), "margin_left").is_none());
        // Unknown class: only a name renamed alike everywhere.
        assert_eq!(rule(g3, None, "cast_to").unwrap().to, "target_position");
        assert!(rule(g3, None, "margin_left").is_none());
        assert!(rule(g3, None, "align").is_none());
        assert_eq!(
            rule(g3, Some("Timer"), "process_mode").unwrap().to,
            "process_callback"
        );
        assert!(rule(g3, Some("Node2D"), "process_mode").is_none());
    }

    #[test]
    fn theme_overrides_and_signals() {
        assert_eq!(
            theme_override("custom_colors/font_color_hover").as_deref(),
            Some("theme_override_colors/font_hover_color")
        );
        assert_eq!(
            theme_override("custom_constants/vseparation").as_deref(),
            Some("theme_override_constants/v_separation")
        );
        assert_eq!(
            theme_override("custom_fonts/font").as_deref(),
            Some("theme_override_fonts/font")
        );
        assert_eq!(theme_override("margin_left"), None);
        let g3 = godot3();
        assert_eq!(
            signal(g3, Some("LineEdit"), "text_entered"),
            Some("text_submitted")
        );
        assert_eq!(signal(g3, Some("Button"), "text_entered"), None);
        assert_eq!(
            signal(g3, Some("ConfirmationDialog"), "cancelled"),
            Some("canceled")
        );
    }
}
