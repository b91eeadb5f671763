use super::*;

#[test]
fn reads_keys_as_the_engine_does() {
    let doc = Document::parse(
        "a=1\n[x]\n  spaced key = 2 ;c\n[ y z ]\nk=[1,\n2] q=3\n\"quo\\\"ted\"=4\n",
        Form::Config(Dialect::Godot4),
    )
    .unwrap();
    let names: Vec<(Option<&str>, Vec<&str>)> = doc
        .sections
        .iter()
        .map(|s| {
            (
                s.tag.as_ref().map(|t| t.name.as_str()),
                s.properties.iter().map(|p| p.name()).collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            (None, vec!["a"]),
            (Some("x"), vec!["spacedkey"]),
            (Some("y z"), vec!["k", "q", "quo\"ted"]),
        ]
    );
}

#[test]
fn unchanged_text_is_written_back_whole() {
    let text = "; top\n\n[gd_resource type=\"Resource\" format=3]\n\n[resource]\nmetadata/a = Object(Node,\"script\":null)\n\nmetadata/b = [1,\n2]  ; trailing\n\r\nx = 1\r\n";
    let doc = Document::parse(text, Form::Resource(Dialect::Godot4)).unwrap();
    assert_eq!(doc.write(Style::GODOT4, false), text);
    let mut doc = doc;
    let p = &mut doc.sections[2].properties.items[0];
    assert!(p.extra_line);
    p.set_value(5);
    let out = doc.write(Style::GODOT4, false);
    assert!(out.contains("metadata/a = 5\nmetadata/b"), "{out}");
}

#[test]
fn tags_keep_their_attributes_in_order() {
    let doc = Document::parse(
        "[node name=\"A\" type=\"Node\" parent=\".\" groups=[\n\"g\",\n]]\n",
        Form::Resource(Dialect::Godot4),
    )
    .unwrap();
    let tag = doc.sections[1].tag.as_ref().unwrap();
    let keys: Vec<&str> = tag.attrs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["name", "type", "parent", "groups"]);
    let mut fresh = tag.clone();
    fresh.text = None;
    let mut out = String::new();
    fresh.write(&mut out, Style::GODOT4, false);
    assert_eq!(
        out,
        "[node name=\"A\" type=\"Node\" parent=\".\" groups=[\"g\"]]\n"
    );
}
