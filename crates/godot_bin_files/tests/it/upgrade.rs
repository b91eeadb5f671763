//! Godot 3 → Godot 4 conversion rules (issue 48), each checked on what it writes: the
//! repository's Godot 3 project (`tests/data/upgrade/project3`, made by Godot 3.2.3)
//! converted whole, and small files for the rules that project does not hold. The engine
//! judges the same project in `tests/engine/upgrade/`.

use godot_bin::{Variant, Vector2, Vector3};
use godot_bin_files::resource::Reference;
use godot_bin_files::upgrade::{self, Action, Options};
use godot_bin_files::{ConfigFile, Issue, TextResource};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn project3() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/upgrade/project3")
}

/// The project converted once, into a fresh folder.
fn converted() -> &'static (PathBuf, upgrade::Report) {
    static C: OnceLock<(PathBuf, upgrade::Report)> = OnceLock::new();
    C.get_or_init(|| {
        let dst = std::env::temp_dir().join(format!("godot_bin_it_upgrade_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dst);
        let report = upgrade::project(&project3(), &dst, &Options::default()).unwrap();
        (dst, report)
    })
}

fn scene(name: &str) -> TextResource {
    TextResource::load(converted().0.join(name)).unwrap()
}

fn prop(t: &TextResource, node: &str, name: &str) -> Variant {
    t.node(node)
        .unwrap_or_else(|| panic!("no node {node}"))
        .properties()
        .get(name)
        .unwrap_or_else(|| panic!("{node} has no {name}"))
        .clone()
}

fn float(v: &Variant) -> f64 {
    v.as_float().unwrap()
}

#[test]
fn every_file_of_the_project_is_written() {
    let (dst, report) = converted();
    for f in &report.files {
        assert!(dst.join(&f.path).is_file(), "{}", f.path);
        assert!(
            !matches!(f.action, Action::Failed(_)),
            "{}: {:?}",
            f.path,
            f.action
        );
    }
    let converted = report
        .files
        .iter()
        .filter(|f| f.action == Action::Converted)
        .count();
    assert_eq!(converted, 7, "{report}");
    // The script is copied as it is.
    assert_eq!(
        std::fs::read(dst.join("ui.gd")).unwrap(),
        std::fs::read(project3().join("ui.gd")).unwrap()
    );
}

#[test]
fn control_margins_and_rect_properties() {
    let ui = scene("ui.tscn");
    assert_eq!(float(&prop(&ui, "Label", "offset_left")), 10.0);
    assert_eq!(float(&prop(&ui, "Label", "offset_bottom")), 44.0);
    assert_eq!(float(&prop(&ui, "Anchored", "anchor_left")), 0.5);
    assert_eq!(
        prop(&ui, "Label", "custom_minimum_size"),
        Vector2::new(50.0, 10.0).into()
    );
    assert!((float(&prop(&ui, "Label", "rotation")) - 30f64.to_radians()).abs() < 1e-12);
    assert_eq!(prop(&ui, "Label", "clip_contents"), Variant::Bool(true));
    assert_eq!(prop(&ui, "Label", "tooltip_text"), Variant::from("tip"));
    let label = ui.node("Label").unwrap();
    assert!(label.properties().get("margin_left").is_none());
    assert!(label.properties().get("rect_rotation").is_none());
}

#[test]
fn theme_overrides_alignments_and_modes() {
    let ui = scene("ui.tscn");
    assert_eq!(
        prop(&ui, "Label", "theme_override_colors/font_shadow_color"),
        godot_bin::Color::new(0.0, 0.0, 1.0, 1.0).into()
    );
    assert_eq!(
        prop(&ui, "Button", "theme_override_colors/font_hover_color"),
        godot_bin::Color::new(0.0, 1.0, 0.0, 1.0).into()
    );
    assert_eq!(
        prop(&ui, "Box/Margins", "theme_override_constants/margin_left"),
        Variant::Int(12)
    );
    assert_eq!(prop(&ui, "Label", "horizontal_alignment"), Variant::Int(1));
    assert_eq!(prop(&ui, "Label", "vertical_alignment"), Variant::Int(2));
    assert_eq!(prop(&ui, "Label", "autowrap_mode"), Variant::Int(3));
    assert_eq!(prop(&ui, "Button", "alignment"), Variant::Int(2));
    assert_eq!(prop(&ui, "Button", "button_pressed"), Variant::Bool(true));
    assert_eq!(
        prop(&ui, "Edit", "caret_blink_interval"),
        Variant::Float(0.3)
    );
    // pause_mode process (2) is process_mode always (3).
    assert_eq!(prop(&ui, "Label", "process_mode"), Variant::Int(3));
    // Timer's own process_mode is not Node's.
    assert_eq!(prop(&ui, "Timer", "process_callback"), Variant::Int(0));
    assert!(ui
        .node("Timer")
        .unwrap()
        .properties()
        .get("process_mode")
        .is_none());
    assert_eq!(prop(&ui, "Player", "speed_scale"), Variant::Float(1.5));
}

#[test]
fn animations_go_into_a_library_with_their_tracks_renamed() {
    let ui = scene("ui.tscn");
    let Variant::Dictionary(libs) = prop(&ui, "Player", "libraries") else {
        panic!("no libraries")
    };
    let Some(Reference::Sub(lib)) = Reference::from_variant(libs.get("").unwrap()) else {
        panic!("the default library is not a sub-resource")
    };
    let lib = ui.sub_resource(&lib).unwrap();
    assert_eq!(lib.type_name(), Some("AnimationLibrary"));
    let Some(Variant::Dictionary(data)) = lib.properties().get("_data") else {
        panic!("no _data")
    };
    let Some(Reference::Sub(mv)) = Reference::from_variant(data.get("move").unwrap()) else {
        panic!("move")
    };
    assert!(data.get("blink").is_some());
    let anim = ui.sub_resource(&mv).unwrap().properties();
    assert_eq!(anim.get("loop_mode"), Some(&Variant::Int(1)));
    assert!(anim.get("loop").is_none());
    let path = |i: usize| match anim.get(&format!("tracks/{i}/path")) {
        Some(Variant::NodePath(p)) => p.to_string(),
        other => panic!("{other:?}"),
    };
    assert_eq!(path(0), "Label:position");
    assert_eq!(path(1), "Label:rotation");
    assert_eq!(path(2), "Label:theme_override_colors/font_color");
    let Some(Variant::Dictionary(keys)) = anim.get("tracks/1/keys") else {
        panic!("keys")
    };
    let Some(Variant::Array(values)) = keys.get("values") else {
        panic!("values")
    };
    assert!((float(&values[1]) - std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    // Godot 3's trigger update mode (2) is Godot 4's discrete (1).
    let Some(Reference::Sub(blink)) = Reference::from_variant(data.get("blink").unwrap()) else {
        panic!("blink")
    };
    let blink = ui.sub_resource(&blink).unwrap().properties();
    let Some(Variant::Dictionary(keys)) = blink.get("tracks/0/keys") else {
        panic!("keys")
    };
    assert_eq!(keys.get("update"), Some(&Variant::Int(1)));
}

#[test]
fn connections_take_the_renamed_signals() {
    let ui = scene("ui.tscn");
    let signals: Vec<String> = ui
        .connections()
        .filter_map(|c| {
            c.attr("signal")
                .and_then(Variant::as_str)
                .map(str::to_string)
        })
        .collect();
    assert_eq!(signals, ["pressed", "text_submitted"]);
}

#[test]
fn shapes_casts_and_cameras() {
    let world = scene("world.tscn");
    assert_eq!(
        prop(&world, "Ray", "target_position"),
        Vector2::new(0.0, 120.0).into()
    );
    assert_eq!(
        prop(&world, "Space/Ray3", "target_position"),
        Vector3::new(0.0, 0.0, -5.0).into()
    );
    assert_eq!(
        prop(&world, "Camera", "position_smoothing_enabled"),
        Variant::Bool(true)
    );
    assert_eq!(
        prop(&world, "Camera", "drag_left_margin"),
        Variant::Float(0.1)
    );
    let shape = |id: &str, name: &str| {
        world
            .sub_resource(id)
            .unwrap()
            .properties()
            .get(name)
            .cloned()
    };
    assert_eq!(shape("1", "size"), Some(Vector2::new(32.0, 16.0).into()));
    assert_eq!(shape("3", "size"), Some(Vector3::new(2.0, 4.0, 6.0).into()));
    // A default BoxShape (extents 1, 1, 1) is 2 x 2 x 2; Godot 4's default is 1 x 1 x 1.
    assert_eq!(shape("4", "size"), Some(Vector3::new(2.0, 2.0, 2.0).into()));
    // Capsules: Godot 3's height is the middle part, Godot 4's the whole capsule.
    assert_eq!(shape("2", "height"), Some(Variant::Float(20.0)));
    assert_eq!(shape("5", "height"), Some(Variant::Float(5.0)));
    assert_eq!(shape("5", "radius"), Some(Variant::Float(1.0)));
    // The binary scene too.
    let scn = godot_bin_files::BinaryResource::load(converted().0.join("world.scn")).unwrap();
    let text = scn.to_text().unwrap().file.to_string();
    assert!(text.contains("size = Vector3(2, 4, 6)"), "{text}");
    assert!(text.contains("target_position = Vector2(0, 120)"), "{text}");
}

#[test]
fn an_instanced_node_is_converted_by_its_scenes_root_class() {
    let main = scene("main.tscn");
    assert_eq!(float(&prop(&main, "UI", "offset_left")), 40.0);
    // Alone, the file does not say what UI is: margin_left stays (its rename differs by
    // class), and nothing is guessed.
    let alone = TextResource::load(project3().join("main.tscn"))
        .unwrap()
        .to_godot4()
        .unwrap()
        .file;
    assert!(alone
        .node("UI")
        .unwrap()
        .properties()
        .get("margin_left")
        .is_some());
}

#[test]
fn resources_by_their_class() {
    let style = TextResource::load(converted().0.join("panel_style.tres")).unwrap();
    let props = style.resource().unwrap().properties();
    assert_eq!(props.get("texture_margin_left"), Some(&Variant::Float(4.0)));
    assert!(props.get("offset_left").is_none());
    let sc = TextResource::load(converted().0.join("quit_shortcut.tres")).unwrap();
    assert_eq!(sc.header().type_name(), Some("Shortcut"));
    let Some(Variant::Array(events)) = sc.resource().unwrap().properties().get("events") else {
        panic!("no events")
    };
    assert_eq!(events.len(), 1);
    let key = sc.sub_resources().next().unwrap().properties();
    // KEY_ESCAPE: Godot 3's 0x1000001, Godot 4's 0x400001.
    assert_eq!(key.get("keycode"), Some(&Variant::Int(0x40_0001)));
    assert_eq!(key.get("ctrl_pressed"), Some(&Variant::Bool(true)));
}

#[test]
fn project_settings_and_input_map() {
    let p = ConfigFile::load(converted().0.join("project.godot")).unwrap();
    assert_eq!(p.get("", "config_version"), Some(&Variant::Int(5)));
    assert_eq!(
        p.get("display", "window/size/viewport_width"),
        Some(&Variant::Int(800))
    );
    assert_eq!(
        p.get("display", "window/size/viewport_height"),
        Some(&Variant::Int(480))
    );
    assert_eq!(
        p.get("display", "window/size/window_width_override"),
        Some(&Variant::Int(400))
    );
    assert!(p.get("display", "window/size/width").is_none());
    let text = p.to_string();
    assert!(
        text.contains("config/features=PackedStringArray(\"4.4\")"),
        "{text}"
    );
    let events = |action: &str| -> Vec<godot_bin::Object> {
        let d = p
            .get("input", action)
            .unwrap()
            .as_dictionary()
            .unwrap()
            .clone();
        let Some(Variant::Array(a)) = d.get("events") else {
            panic!()
        };
        a.iter()
            .map(|e| match e {
                Variant::Object(o) => o.clone(),
                _ => panic!(),
            })
            .collect()
    };
    let get = |o: &godot_bin::Object, k: &str| {
        o.properties
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
    };
    let quit = events("quit");
    assert_eq!(get(&quit[0], "keycode"), Some(Variant::Int(0x40_0001))); // KEY_ESCAPE
    assert_eq!(get(&quit[0], "shift_pressed"), Some(Variant::Bool(true)));
    let jump = events("jump");
    assert_eq!(get(&jump[0], "keycode"), Some(Variant::Int(32)));
    let fire = events("fire");
    // JOY_R2 (7) is the right trigger axis (5); JOY_START (11) is button 6.
    assert_eq!(fire[0].class_name, "InputEventJoypadMotion");
    assert_eq!(get(&fire[0], "axis"), Some(Variant::Int(5)));
    assert_eq!(get(&fire[1], "button_index"), Some(Variant::Int(6)));
}

fn convert(text: &str) -> (TextResource, Vec<Issue>) {
    let c = TextResource::parse(text).unwrap().to_godot4().unwrap();
    (c.file, c.issues)
}

#[test]
fn particles_bodies_and_what_has_no_home() {
    let (t, issues) = convert(
        "[gd_scene load_steps=2 format=2]\n\n\
         [sub_resource type=\"ParticlesMaterial\" id=1]\n\
         flag_disable_z = true\ninitial_velocity = 100.0\ninitial_velocity_random = 0.5\nscale_random = 0.25\n\n\
         [node name=\"Root\" type=\"Node2D\"]\n\n\
         [node name=\"Body\" type=\"RigidBody2D\" parent=\".\"]\nmode = 1\n\n\
         [node name=\"Char\" type=\"RigidBody2D\" parent=\".\"]\nmode = 2\n\n\
         [node name=\"V\" type=\"VisibilityEnabler2D\" parent=\".\"]\npause_particles = false\n",
    );
    let m = t.sub_resource("1").unwrap().properties();
    assert_eq!(m.get("particle_flag_disable_z"), Some(&Variant::Bool(true)));
    assert_eq!(m.get("initial_velocity_min"), Some(&Variant::Float(50.0)));
    assert_eq!(m.get("initial_velocity_max"), Some(&Variant::Float(100.0)));
    assert_eq!(m.get("scale_min"), Some(&Variant::Float(0.75)));
    assert_eq!(m.get("scale_max"), Some(&Variant::Float(1.0)));
    assert_eq!(prop(&t, "Body", "freeze"), Variant::Bool(true));
    assert_eq!(prop(&t, "Body", "freeze_mode"), Variant::Int(0));
    assert_eq!(prop(&t, "Char", "lock_rotation"), Variant::Bool(true));
    let named: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
    assert!(
        named
            .iter()
            .any(|i| i.contains("[node \"V\"] pause_particles") && i.contains("no home")),
        "{named:#?}"
    );
    // Kept in the file (Godot 4 ignores it).
    assert_eq!(prop(&t, "V", "pause_particles"), Variant::Bool(false));
}

#[test]
fn a_project_folder_is_refused_when_the_output_is_not_empty() {
    let dst =
        std::env::temp_dir().join(format!("godot_bin_it_upgrade_full_{}", std::process::id()));
    std::fs::create_dir_all(&dst).unwrap();
    std::fs::write(dst.join("x"), b"x").unwrap();
    let e = upgrade::project(&project3(), &dst, &Options::default()).unwrap_err();
    assert!(e.to_string().contains("not empty"), "{e}");
    let e = upgrade::project(&dst, &dst.join("out"), &Options::default()).unwrap_err();
    assert!(e.to_string().contains("no project.godot"), "{e}");
    let e = upgrade::project(
        &project3(),
        &project3().join("new/out"),
        &Options::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("inside the project"), "{e}");
    assert!(!project3().join("new").exists());
    let _ = std::fs::remove_dir_all(&dst);
}

#[test]
fn item_lists_and_enums_renumbered() {
    let (t, issues) = convert(
        "[gd_scene format=2]\n\n\
         [node name=\"Root\" type=\"Control\"]\n\n\
         [node name=\"Opt\" type=\"OptionButton\" parent=\".\"]\n\
         items = [ \"A\", null, false, 7, null, \"B\", null, true, 9, null ]\nselected = 1\n\n\
         [node name=\"Menu\" type=\"PopupMenu\" parent=\".\"]\n\
         items = [ \"C\", null, 1, true, false, 3, 268435544, null, \"\", false ]\n\n\
         [node name=\"List\" type=\"ItemList\" parent=\".\"]\n\
         items = [ \"X\", null, false ]\n\n\
         [node name=\"Light\" type=\"Light2D\" parent=\".\"]\nshadow_filter = 3\n",
    );
    assert_eq!(prop(&t, "Opt", "item_count"), Variant::Int(2));
    assert_eq!(prop(&t, "Opt", "popup/item_1/text"), Variant::from("B"));
    assert_eq!(prop(&t, "Opt", "popup/item_1/id"), Variant::Int(9));
    assert_eq!(
        prop(&t, "Opt", "popup/item_1/disabled"),
        Variant::Bool(true)
    );
    assert_eq!(prop(&t, "Opt", "selected"), Variant::Int(1));
    let names: Vec<&str> = t.node("Opt").unwrap().properties().names().collect();
    assert!(
        names.iter().position(|n| *n == "item_count") < names.iter().position(|n| *n == "selected"),
        "{names:?}"
    );
    assert_eq!(prop(&t, "Menu", "item_0/checkable"), Variant::Int(1));
    assert_eq!(prop(&t, "Menu", "item_0/checked"), Variant::Bool(true));
    assert_eq!(prop(&t, "Menu", "item_0/id"), Variant::Int(3));
    assert_eq!(prop(&t, "List", "item_0/text"), Variant::from("X"));
    // PCF7 (3) has no Godot 4 filter of its own: PCF5 (1).
    assert_eq!(prop(&t, "Light", "shadow_filter"), Variant::Int(1));
    // The menu item's accelerator has no home.
    assert!(
        issues
            .iter()
            .any(|i| i.to_string().contains("[node \"Menu\"] items: no home")),
        "{issues:?}"
    );
}
