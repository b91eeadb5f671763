//! Found by `fuzz/resource_text`: a ConfigFile holding `Object(GodotBinText,"t":"/")` read,
//! but its reprint wrote `/` where the object was. The crate's printer carries the
//! engine's float text through a marker object of that class and writes each marker's
//! text back raw; a file's own object of the class was taken for a marker. A value holding
//! one is now printed without markers (its floats in the crate's shortest exact text).

use crate::resource::config_reprint;
use godot_bin::Variant;

#[test]
fn an_object_of_the_marker_class_stays_an_object_through_a_reprint() {
    let text = "[s]\n\na=Object(GodotBinText,\"t\":\"/\")\n\nb=[Object(GodotBinText,\"t\":\"x\")\n, Vector2(0.1, 0.2)]\nc=Vector2(0.1, 0.2)\n";
    let (cfg, printed, reread) = config_reprint(text);
    for key in ["a", "b", "c"] {
        assert_eq!(
            reread.get("s", key),
            cfg.get("s", key),
            "{key} in\n{printed}"
        );
    }
    assert!(
        matches!(reread.get("s", "a"), Some(Variant::Object(o)) if o.class_name == "GodotBinText")
    );
    // A value without such an object still gets the engine's float text.
    assert!(printed.contains("c=Vector2(0.1, 0.2)\n"), "{printed}");
}
