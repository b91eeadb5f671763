//! Found by the real-project corpus: Godot 2 `engine.cfg` files carried into a Godot 3
//! project (`boot_bg_color=#ff000000`) were refused ("expected a value, found '#'"). Both
//! engines read a `#` and the hex digits after it as a colour (`Color::html`): Godot 4 as
//! `#rgb[a]` / `#rrggbb[aa]`, Godot 3 with alpha first. The values below are what Godot
//! 4.4.1 and 3.2.3 load (checked for 161 colours, bit for bit, in
//! `tests/engine/resources/judged.rs`).

use godot_bin::{Color, Variant};
use godot_bin_files::ConfigFile;

fn color(text: &str) -> Color {
    let cfg = ConfigFile::parse(text).unwrap();
    assert_eq!(cfg.to_string(), text, "written back unchanged");
    let mut printed = cfg.clone();
    printed.reprint();
    let again = ConfigFile::parse(&printed.to_string()).unwrap();
    assert_eq!(again.get("a", "c"), cfg.get("a", "c"), "{printed}");
    match cfg.get("a", "c") {
        Some(Variant::Color(c)) => *c,
        other => panic!("{other:?}"),
    }
}

#[test]
fn godot4_reads_alpha_last() {
    let c = color("[a]\nshape=Vector2(1, 2)\nc=#ff000080\n");
    assert_eq!(c, Color::new(1.0, 0.0, 0.0, 128.0 / 255.0));
    let c = color("[a]\nshape=Vector2(1, 2)\nc=#abc8\n");
    assert_eq!(
        c,
        Color::new(10.0 / 15.0, 11.0 / 15.0, 12.0 / 15.0, 8.0 / 15.0)
    );
}

#[test]
fn godot3_reads_alpha_first() {
    let c = color("[a]\nshape=Vector2( 1, 2 )\nc=#ff000080\n");
    assert_eq!(c, Color::new(0.0, 0.0, (128.0f64 / 255.0) as f32, 1.0));
    let c = color("[a]\nshape=Vector2( 1, 2 )\nc=#abc\n");
    assert_eq!(
        c,
        Color::new(
            (170.0f64 / 255.0) as f32,
            (187.0f64 / 255.0) as f32,
            0.8,
            1.0
        )
    );
}

#[test]
fn another_length_is_an_error_not_a_panic() {
    for bad in ["#", "#12", "#12345", "#1234567", "#123456789"] {
        assert!(
            ConfigFile::parse(&format!("[a]\nc={bad}\n")).is_err(),
            "{bad}"
        );
    }
}
