//! Found by the real-project corpus and the engine judgement of it: the engine's text
//! saver chooses `format=4` by the values it looks into, and it does not look into the
//! `Image` of an `ImageTexture` (its `image` property is `RESOURCE_NOT_PERSISTENT`). So
//! 4.3–4.7 files with an image of more than 64 bytes say `format=3` (50 such files in the
//! corpus). The crate counted those bytes: it read such a file as Godot 4.2's and wrote
//! `format=4` where the engine writes 3. `tests/engine/resources/judged.rs` has the
//! engine's own saves of these files.

use godot_bin_files::resource::EngineVersion;
use godot_bin_files::TextResource;

fn file(main_type: &str, property: &str) -> String {
    let bytes: Vec<String> = (0..100).map(|i| ((i * 7) % 256).to_string()).collect();
    format!(
        "[gd_resource type=\"{main_type}\" load_steps=2 format=3]\n\n\
         [sub_resource type=\"Image\" id=\"Image_a\"]\n\
         data = {{\n\"data\": PackedByteArray({}),\n\"format\": \"RGBA8\",\n\"height\": 5,\n\"mipmaps\": false,\n\"width\": 5\n}}\n\n\
         [resource]\n{property} = SubResource(\"Image_a\")\n",
        bytes.join(", ")
    )
}

fn round_trip_format(text: &str) -> i64 {
    let t = TextResource::parse(text).unwrap();
    let bin = t.to_binary().unwrap().file;
    bin.to_text().unwrap().file.format()
}

#[test]
fn an_image_texture_s_image_does_not_ask_for_format_4() {
    let text = file("ImageTexture", "image");
    let t = TextResource::parse(&text).unwrap();
    assert_eq!(t.engine(), EngineVersion::GODOT_4);
    assert_eq!(round_trip_format(&text), 3);
}

#[test]
fn the_same_image_elsewhere_does() {
    let text = file("Resource", "metadata/image");
    // `format=3` with a value 4.3+ would write as 4: a 4.0-4.2 file.
    let t = TextResource::parse(&text).unwrap();
    assert_eq!(t.engine(), EngineVersion::GODOT_4_2);
    let as_4_4 = text.replace("format=3", "format=4");
    assert_eq!(round_trip_format(&as_4_4), 4);
}
