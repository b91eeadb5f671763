//! What the engine loads and writes, judging the crate on small files written here that
//! reproduce what the real-project corpus found (issue 49 #4): each file is loaded and
//! saved by Godot 4.4.1, and the crate's reading and conversion must agree with it.

use crate::support::engine::godot4_trial;
use crate::support::godot4;
use godot_bin_files::resource::EngineVersion;
use godot_bin_files::{BinaryResource, TextResource};
use libtest_mimic::Trial;

pub fn trials() -> Vec<Trial> {
    vec![godot4_trial(
        "resources::judged::image_texture_keeps_format_3",
        image_texture_keeps_format_3,
    )]
}

/// A 5x5 RGBA8 image's 100 bytes, as the engine's text writes them.
fn image_bytes() -> String {
    let b: Vec<String> = (0..100).map(|i| ((i * 7) % 256).to_string()).collect();
    format!("PackedByteArray({})", b.join(", "))
}

/// An `Image` of more than 64 bytes used only as an `ImageTexture`'s `image` (a
/// `RESOURCE_NOT_PERSISTENT` property the engine's text saver does not look into) leaves
/// the engine writing `format=3`; the same bytes in a property it looks into make it
/// write `format=4`. The crate reads the first as a 4.3+ file (not 4.2) and its
/// binary -> text writes the format the engine's own text save has, in both files.
fn image_texture_keeps_format_3(e: &godot4::Godot4) {
    let image = format!(
        "[sub_resource type=\"Image\" id=\"Image_a\"]\ndata = {{\n\"data\": {},\n\"format\": \"RGBA8\",\n\"height\": 5,\n\"mipmaps\": false,\n\"width\": 5\n}}\n\n",
        image_bytes()
    );
    let texture = format!(
        "[gd_resource type=\"ImageTexture\" load_steps=2 format=3]\n\n{image}[resource]\nimage = SubResource(\"Image_a\")\n"
    );
    let meta = format!(
        "[gd_resource type=\"Resource\" load_steps=2 format=3]\n\n{image}[resource]\nmetadata/image = SubResource(\"Image_a\")\n"
    );
    let t = TextResource::parse(&texture).unwrap();
    assert_eq!(t.engine(), EngineVersion::GODOT_4, "a 4.3+ file, not 4.2");
    let res = godot4::run_script(
        e,
        r#"
        for n in ["texture", "meta"]:
            var r = ResourceLoader.load("res://" + n + ".tres")
            if r == null:
                printerr("cannot load " + n)
                quit(1)
            ResourceSaver.save(r, "res://" + n + "_engine.tres")
            ResourceSaver.save(r, "res://" + n + "_engine.res")
        "#,
        &[
            ("texture.tres", texture.as_bytes()),
            ("meta.tres", meta.as_bytes()),
        ],
    );
    res.assert_ok();
    for (name, want) in [("texture", 3), ("meta", 4)] {
        let engine_text = TextResource::parse(&res.read_string(&format!("{name}_engine.tres")))
            .unwrap_or_else(|err| panic!("{name}: {err}"));
        assert_eq!(engine_text.format(), want, "{name}: the engine's text save");
        let bin =
            BinaryResource::from_bytes(&res.read_file(&format!("{name}_engine.res"))).unwrap();
        let ours = bin.to_text().unwrap().file;
        assert_eq!(
            ours.format(),
            engine_text.format(),
            "{name}: the crate's text of the engine's binary save"
        );
    }
}
