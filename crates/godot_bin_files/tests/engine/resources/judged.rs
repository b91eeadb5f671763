//! What the engine loads and writes, judging the crate on small files written here that
//! reproduce what the real-project corpus found (issue 49 #4): each file is loaded and
//! saved by Godot 4.4.1, and the crate's reading and conversion must agree with it.

use crate::support::engine::{godot3_trial, godot4_trial};
use crate::support::{godot3, godot4};
use godot_bin::{Config, Dialect, Variant};
use godot_bin_files::resource::EngineVersion;
use godot_bin_files::{BinaryResource, ConfigFile, TextResource};
use libtest_mimic::Trial;

pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "resources::judged::image_texture_keeps_format_3",
            image_texture_keeps_format_3,
        ),
        godot4_trial("resources::judged::hex_colors::godot4", |e| {
            let text = hex_colors_file(Dialect::Godot4);
            let res = godot4::run_script(
                e,
                &hex_colors_script("var_to_bytes"),
                &[("in.cfg", text.as_bytes())],
            );
            res.assert_ok();
            check_hex_colors(&text, &res.read_file("out.bin"), Dialect::Godot4);
        }),
        godot3_trial("resources::judged::hex_colors::godot3", |e| {
            let text = hex_colors_file(Dialect::Godot3);
            let res = godot3::run_script(
                e,
                &hex_colors_script("var2bytes"),
                &[("in.cfg", text.as_bytes())],
            );
            res.assert_ok();
            check_hex_colors(&text, &res.read_file("out.bin"), Dialect::Godot3);
        }),
    ]
}

/// `#` colours of every length and many digits, in a ConfigFile whose other value shows
/// its engine (Godot 3 spacing or Godot 4's), as a Godot 2 `engine.cfg` carried into a
/// project holds them (the corpus has four).
fn hex_colors_file(dialect: Dialect) -> String {
    let shape = match dialect {
        Dialect::Godot3 => "Vector2( 1, 2 )",
        _ => "Vector2(1, 2)",
    };
    let mut text = format!("[a]\n\nshape={shape}\n");
    let mut n = 0u32;
    for len in [3usize, 4, 6, 8] {
        for k in 0..40u32 {
            let hex: String = (0..len)
                .map(|i| {
                    let d = (k * 7 + i as u32 * 5 + len as u32) % 16;
                    char::from_digit(d, 16).unwrap_or('0')
                })
                .collect();
            text.push_str(&format!("c{n}=#{hex}\n"));
            n += 1;
        }
    }
    text.push_str("c_last=#FF005784\n");
    text
}

fn hex_colors_script(to_bytes: &str) -> String {
    format!(
        "var c = ConfigFile.new()\nif c.load(\"res://in.cfg\") != OK:\n\treturn\nvar out = []\nfor k in c.get_section_keys(\"a\"):\n\tif k != \"shape\":\n\t\tout.append(c.get_value(\"a\", k))\nwrite_bytes(\"out.bin\", {to_bytes}(out))"
    )
}

/// Every colour the engine loaded is the crate's, bit for bit, and the file is written
/// back unchanged.
fn check_hex_colors(text: &str, packet: &[u8], dialect: Dialect) {
    let cfg = ConfigFile::parse(text).unwrap();
    assert_eq!(cfg.dialect(), dialect);
    assert_eq!(cfg.to_string(), text);
    let ours: Vec<&Variant> = cfg
        .keys("a")
        .into_iter()
        .filter(|k| *k != "shape")
        .filter_map(|k| cfg.get("a", k))
        .collect();
    let Variant::Array(engine) = Config::new(dialect).from_slice::<Variant>(packet).unwrap() else {
        panic!("not an array");
    };
    assert_eq!(engine.len(), ours.len());
    let bits = |v: &Variant| match v {
        Variant::Color(c) => format!("{:?}", [c.r, c.g, c.b, c.a].map(f32::to_bits)),
        other => format!("{other:?}"),
    };
    let differ: Vec<String> = engine
        .iter()
        .zip(&ours)
        .filter(|(e, o)| bits(e) != bits(o))
        .map(|(e, o)| format!("engine {e:?}, crate {o:?}"))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {}: {:?}",
        differ.len(),
        ours.len(),
        &differ[..differ.len().min(5)]
    );
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
