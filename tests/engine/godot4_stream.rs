//! The real Godot 4 engine (4.4.1) against this crate's framing, as `stream.rs` does for
//! Godot 3: `StreamPeerTCP.put_var` / `get_var` of every Godot 4 type through the same echo
//! server, `FileAccess.store_var` / `get_var` files in both directions (little- and
//! big-endian prefixes), and `PacketPeerUDP` bare packets in both directions.
//!
//! The values are one list, [`CASES`]: a GDScript expression, the type the crate must
//! decode, and (for values that do not depend on the run, such as an object's id) the
//! crate's text of the value, which the crate's decoded value must equal. The engine-side
//! comparison is `same()` in `godot4_stream/helper.gd`: type, `==` and `var_to_bytes`.
//!
//! Every wait in the scripts is bounded, and the harness kills the engine after 60 s.

use crate::stream::{echo_one_client, echoed, IO_TIMEOUT};
use crate::support::engine::godot4_trial;
use crate::support::godot4::{self, Godot4};
use crate::support::run::RunResult;
use crate::support::variant::same;
use godot_bin::framing::Framing;
use godot_bin::{
    Config, Dialect, PackedStringArray, Variant, VariantType, Vector2, Vector3, Vector4i,
};
use libtest_mimic::Trial;
use serde::Serialize;
use std::net::{TcpListener, UdpSocket};
use std::sync::mpsc;
use std::thread;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot4_trial(
            "godot4_stream::stream_peer_tcp_put_var_round_trips_every_godot4_type",
            stream_peer_tcp_put_var_round_trips_every_godot4_type,
        ),
        godot4_trial(
            "godot4_stream::file_access_store_var_files_both_ways",
            file_access_store_var_files_both_ways,
        ),
        godot4_trial(
            "godot4_stream::packet_peer_udp_put_var_uses_bare_packets_both_ways",
            packet_peer_udp_put_var_uses_bare_packets_both_ways,
        ),
    ]
}

const HELPER_GD: &str = include_str!("godot4_stream/helper.gd");

const MAX_FRAME_LEN: usize = 4 << 20;

fn godot4_cfg() -> Config {
    Config::new(Dialect::Godot4).allow_objects(true)
}

/// One value: a name for the report lines, a GDScript expression (`h.` is the helper
/// object), the type the crate must decode, and the crate's text of the value when it
/// does not depend on the run. A name ending in `_full` is sent with full objects
/// (`put_var(v, true)`, `get_var(true)`, the same for files).
struct Case {
    name: &'static str,
    expr: &'static str,
    ty: VariantType,
    text: Option<&'static str>,
}

const fn case(name: &'static str, expr: &'static str, ty: VariantType, text: &'static str) -> Case {
    Case {
        name,
        expr,
        ty,
        text: Some(text),
    }
}

/// A value whose text depends on the run (an object id) or says nothing (a big array).
const fn opaque(name: &'static str, expr: &'static str, ty: VariantType) -> Case {
    Case {
        name,
        expr,
        ty,
        text: None,
    }
}

use VariantType as T;

/// Every Godot 4 Variant type (all 39 type ids, with typed Arrays and Dictionaries),
/// several in more than one form.
const CASES: &[Case] = &[
    case("nil", "null", T::Nil, "null"),
    case("bool_true", "true", T::Bool, "true"),
    case("bool_false", "false", T::Bool, "false"),
    case("int_small", "-123456", T::Int, "-123456"),
    case("int_64bit", "-(1 << 40) - 7", T::Int, "-1099511627783"),
    case("float_f32", "2.5", T::Float, "2.5"),
    case("float_f64", "0.1", T::Float, "0.1"),
    case("float_inf", "INF", T::Float, "inf"),
    case("string", "\"héllo wörld ✓\"", T::String, "\"héllo wörld ✓\""),
    case("string_empty", "\"\"", T::String, "\"\""),
    case("vector2", "Vector2(1.5, -2)", T::Vector2, "Vector2(1.5, -2)"),
    case("vector2i", "Vector2i(-3, 7)", T::Vector2i, "Vector2i(-3, 7)"),
    case("rect2", "Rect2(1, 2, 3.25, 4)", T::Rect2, "Rect2(1, 2, 3.25, 4)"),
    case("rect2i", "Rect2i(1, -2, 3, 4)", T::Rect2i, "Rect2i(1, -2, 3, 4)"),
    case("vector3", "Vector3(1, 2, 3)", T::Vector3, "Vector3(1, 2, 3)"),
    case(
        "vector3i",
        "Vector3i(1, -2, 2147483647)",
        T::Vector3i,
        "Vector3i(1, -2, 2147483647)",
    ),
    case(
        "transform2d",
        "Transform2D(Vector2(1, 2), Vector2(3, 4), Vector2(5, 6))",
        T::Transform2D,
        "Transform2D(1, 2, 3, 4, 5, 6)",
    ),
    case(
        "vector4",
        "Vector4(1, -2.5, 3, 4)",
        T::Vector4,
        "Vector4(1, -2.5, 3, 4)",
    ),
    case(
        "vector4i",
        "Vector4i(1, 2, -3, 4)",
        T::Vector4i,
        "Vector4i(1, 2, -3, 4)",
    ),
    case("plane", "Plane(0, 1, 0, 2.5)", T::Plane, "Plane(0, 1, 0, 2.5)"),
    case(
        "quaternion",
        "Quaternion(0, 0, 0.6, 0.8)",
        T::Quaternion,
        "Quaternion(0, 0, 0.6, 0.8)",
    ),
    case(
        "aabb",
        "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))",
        T::Aabb,
        "AABB(1, 2, 3, 4, 5, 6)",
    ),
    case(
        "basis",
        "Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3))",
        T::Basis,
        "Basis(1, 0, 0, 0, 2, 0, 0, 0, 3)",
    ),
    case(
        "transform3d",
        "Transform3D(Basis(Vector3(1, 0, 0), Vector3(0, 2, 0), Vector3(0, 0, 3)), Vector3(7, 8, 9))",
        T::Transform3D,
        "Transform3D(1, 0, 0, 0, 2, 0, 0, 0, 3, 7, 8, 9)",
    ),
    case(
        "projection",
        "Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16.5))",
        T::Projection,
        "Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16.5)",
    ),
    case(
        "color",
        "Color(0.1, 0.2, 0.3, 0.4)",
        T::Color,
        "Color(0.1, 0.2, 0.3, 0.4)",
    ),
    case("string_name", "&\"player_name\"", T::StringName, "&\"player_name\""),
    case("string_name_empty", "&\"\"", T::StringName, "&\"\""),
    case(
        "node_path",
        "NodePath(\"../Enemy/Sprite:position:x\")",
        T::NodePath,
        "NodePath(\"../Enemy/Sprite:position:x\")",
    ),
    case(
        "node_path_abs",
        "^\"/root/Main\"",
        T::NodePath,
        "NodePath(\"/root/Main\")",
    ),
    case("node_path_empty", "NodePath(\"\")", T::NodePath, "NodePath(\"\")"),
    case("rid_empty", "RID()", T::Rid, "RID()"),
    case("rid", "rid_from_int64(12345)", T::Rid, "RID(12345)"),
    // Sent as its instance id (put_var's default): comes back as EncodedObjectAsID.
    opaque("object_as_id", "RefCounted.new()", T::Object),
    // Sent whole and read back whole.
    opaque("object_full", "h.make_resource()", T::Object),
    // The engine sends no Callable but the empty one: its encoder writes the header only.
    opaque("callable_empty", "Callable()", T::Callable),
    // A Signal is its object's id and its name.
    opaque("signal", "Signal(h, &\"done\")", T::Signal),
    case(
        "dictionary",
        "{\"a\": 1, 2: [3, \"x\"], Vector2(1, 1): null, &\"sn\": {\"k\": PackedInt32Array([7])}}",
        T::Dictionary,
        "{\"a\": 1, 2: [3, \"x\"], Vector2(1, 1): null, &\"sn\": {\"k\": PackedInt32Array(7)}}",
    ),
    case("dictionary_empty", "{}", T::Dictionary, "{}"),
    case(
        "dictionary_typed",
        "Dictionary({\"a\": 1, \"b\": -2}, TYPE_STRING, &\"\", null, TYPE_INT, &\"\", null)",
        T::Dictionary,
        "Dictionary[String, int]({\"a\": 1, \"b\": -2})",
    ),
    case(
        "dictionary_typed_key",
        "Dictionary({Vector2i(1, 2): \"x\", Vector2i(3, 4): 5}, TYPE_VECTOR2I, &\"\", null, TYPE_NIL, &\"\", null)",
        T::Dictionary,
        "Dictionary[Vector2i, Variant]({Vector2i(1, 2): \"x\", Vector2i(3, 4): 5})",
    ),
    // Without full objects, the engine writes the class of an object-typed container as
    // EncodedObjectAsID (what such a container holds then); with them, the class itself.
    case(
        "dictionary_typed_node",
        "Dictionary({}, TYPE_STRING_NAME, &\"\", null, TYPE_OBJECT, &\"Node\", null)",
        T::Dictionary,
        "Dictionary[StringName, EncodedObjectAsID]({})",
    ),
    case(
        "dictionary_typed_node_full",
        "Dictionary({}, TYPE_STRING_NAME, &\"\", null, TYPE_OBJECT, &\"Node\", null)",
        T::Dictionary,
        "Dictionary[StringName, Node]({})",
    ),
    case(
        "array",
        "[1, \"two\", 3.5, [4], {\"five\": 5}, Color(1, 0, 0)]",
        T::Array,
        "[1, \"two\", 3.5, [4], {\"five\": 5}, Color(1, 0, 0, 1)]",
    ),
    case("array_empty", "[]", T::Array, "[]"),
    case(
        "array_typed_int",
        "Array([1, 2, -3], TYPE_INT, &\"\", null)",
        T::Array,
        "Array[int]([1, 2, -3])",
    ),
    case(
        "array_typed_string",
        "Array([\"a\", \"b\"], TYPE_STRING, &\"\", null)",
        T::Array,
        "Array[String]([\"a\", \"b\"])",
    ),
    case(
        "array_typed_vector4",
        "Array([Vector4(1, 2, 3, 4)], TYPE_VECTOR4, &\"\", null)",
        T::Array,
        "Array[Vector4]([Vector4(1, 2, 3, 4)])",
    ),
    case(
        "array_typed_node",
        "Array([], TYPE_OBJECT, &\"Node\", null)",
        T::Array,
        "Array[EncodedObjectAsID]([])",
    ),
    case(
        "array_typed_node_full",
        "Array([], TYPE_OBJECT, &\"Node\", null)",
        T::Array,
        "Array[Node]([])",
    ),
    case(
        "packed_byte",
        "PackedByteArray([0, 1, 254, 255, 7])",
        T::PackedByteArray,
        "PackedByteArray(0, 1, 254, 255, 7)",
    ),
    opaque("packed_byte_big", "h.big_bytes()", T::PackedByteArray),
    case(
        "packed_int32",
        "PackedInt32Array([1, -2, 2147483647, -2147483648])",
        T::PackedInt32Array,
        "PackedInt32Array(1, -2, 2147483647, -2147483648)",
    ),
    case(
        "packed_int64",
        "PackedInt64Array([1 << 40, -1])",
        T::PackedInt64Array,
        "PackedInt64Array(1099511627776, -1)",
    ),
    case(
        "packed_float32",
        "PackedFloat32Array([0.5, -1.25, 1e10])",
        T::PackedFloat32Array,
        "PackedFloat32Array(0.5, -1.25, 1e+10)",
    ),
    case(
        "packed_float64",
        "PackedFloat64Array([0.1, -2.5])",
        T::PackedFloat64Array,
        "PackedFloat64Array(0.1, -2.5)",
    ),
    case(
        "packed_string",
        "PackedStringArray([\"a\", \"\", \"ünï\"])",
        T::PackedStringArray,
        "PackedStringArray(\"a\", \"\", \"ünï\")",
    ),
    case(
        "packed_vector2",
        "PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])",
        T::PackedVector2Array,
        "PackedVector2Array(1, 2, -3, 4.5)",
    ),
    case(
        "packed_vector3",
        "PackedVector3Array([Vector3(1, 2, 3)])",
        T::PackedVector3Array,
        "PackedVector3Array(1, 2, 3)",
    ),
    case(
        "packed_color",
        "PackedColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)])",
        T::PackedColorArray,
        "PackedColorArray(1, 0, 0, 1, 0, 0, 1, 0.5)",
    ),
    case(
        "packed_vector4",
        "PackedVector4Array([Vector4(1, 2, 3, 4), Vector4(-1, 0.5, 0, 8)])",
        T::PackedVector4Array,
        "PackedVector4Array(1, 2, 3, 4, -1, 0.5, 0, 8)",
    ),
];

/// The cases with a text: the values that mean the same in every run.
fn fixed_cases() -> impl Iterator<Item = (&'static Case, Variant)> {
    CASES
        .iter()
        .filter_map(|c| c.text.map(|t| (c, expected(c.name, t))))
}

/// The crate's value for a case's text.
fn expected(name: &str, text: &str) -> Variant {
    text.parse()
        .unwrap_or_else(|e| panic!("case {name}: the crate cannot read {text:?}: {e}"))
}

/// The GDScript array literal of `[name, value]` pairs of `cases`.
fn gd_cases<'a>(cases: impl Iterator<Item = &'a Case>) -> String {
    let items: Vec<String> = cases
        .map(|c| format!("[\"{}\", {}]", c.name, c.expr))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Runs `body` with the helper script loaded as `h`.
fn run_with_helper(engine: &Godot4, body: &str, files: &[(&str, &[u8])]) -> RunResult {
    let mut all = vec![("helper.gd", HELPER_GD.as_bytes())];
    all.extend_from_slice(files);
    // The load, indented as the body's first line.
    let first = body.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let indent = &first[..first.len() - first.trim_start().len()];
    let body = format!("{indent}var h = load(\"res://helper.gd\").new()\n{body}");
    godot4::run_script(engine, &body, &all)
}

fn stream_peer_tcp_put_var_round_trips_every_godot4_type(engine: &Godot4) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (done_tx, done_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = done_tx.send(echo_one_client(listener, godot4_cfg()));
    });

    let body = format!(
        r#"
        var cases = {cases}
        var peer = StreamPeerTCP.new()
        if not h.connect_peer(peer, {port}):
            print("STREAM:NOCONNECT ", peer.get_status())
        else:
            for c in cases:
                var name = c[0]
                var value = c[1]
                var full = name.ends_with("_full")
                peer.put_var(value, full)
                if not h.wait_for_bytes(peer):
                    print("STREAM:TIMEOUT ", name)
                    break
                var reply = peer.get_var(full)
                if h.same(value, reply, name):
                    print("STREAM:OK ", name)
                else:
                    print("STREAM:BAD ", name, " sent ", var_to_str(value).replace("\n", " "), " got ", var_to_str(reply).replace("\n", " "))
            peer.disconnect_from_host()
        "#,
        cases = gd_cases(CASES.iter()),
    );
    let run = run_with_helper(engine, &body, &[]);
    let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    let types: Vec<VariantType> = CASES.iter().map(|c| c.ty).collect();
    let seen = echoed(&run, &names, &types, &done_rx);
    // Every value that means the same in every run decoded to the crate's value.
    let mut checked = 0;
    for (c, got) in CASES.iter().zip(&seen) {
        if let Some(text) = c.text {
            let want = expected(c.name, text);
            assert!(
                same(got, &want),
                "{}: decoded {got:?}, want {want:?}",
                c.name
            );
            checked += 1;
        }
    }
    assert_big_bytes(&seen[index_of("packed_byte_big")]);
    eprintln!(
        "godot4 StreamPeerTCP: {} values echoed and equal in the engine ({} types), {checked} \
         checked against the crate's value",
        names.len(),
        {
            let mut t = types.clone();
            t.sort();
            t.dedup();
            t.len()
        }
    );
}

fn index_of(name: &str) -> usize {
    CASES.iter().position(|c| c.name == name).unwrap()
}

fn assert_big_bytes(v: &Variant) {
    let Variant::PackedByteArray(b) = v else {
        panic!("big_bytes decoded as {:?}", v.get_type())
    };
    assert_eq!(b.0.len(), 300_000);
    assert!(b
        .0
        .iter()
        .enumerate()
        .all(|(i, x)| *x as usize == i * 7 % 251));
}

/// Rust types in the file the crate writes, as GDScript sees them.
#[derive(Serialize)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector3,
    tags: PackedStringArray,
    cell: Vector4i,
}

#[derive(Serialize)]
enum Event {
    Spawn { at: Vector2 },
    Say(String),
    Quit,
}

fn file_access_store_var_files_both_ways(engine: &Godot4) {
    let cfg = godot4_cfg();
    let fixed: Vec<(&Case, Variant)> = fixed_cases().collect();

    // 1. The engine writes every fixed case with FileAccess.store_var, little- and
    //    big-endian.
    let write = run_with_helper(
        engine,
        &format!(
            r#"
            var cases = {cases}
            for path in ["engine.bin", "engine_be.bin"]:
                var f = FileAccess.open(path, FileAccess.WRITE)
                f.big_endian = path == "engine_be.bin"
                for c in cases:
                    f.store_var(c[1], c[0].ends_with("_full"))
                f.close()
            print("FILE:WROTE ", cases.size())
            "#,
            cases = gd_cases(fixed.iter().map(|(c, _)| *c)),
        ),
        &[],
    );
    write.assert_ok();
    assert_eq!(
        write.line_with_prefix("FILE:WROTE "),
        fixed.len().to_string()
    );

    // 2. The crate reads them all back, each the case's value.
    let le = write.read_file("engine.bin");
    let be = write.read_file("engine_be.bin");
    assert_eq!(le.len(), be.len());
    assert_ne!(le[..4], be[..4], "big_endian swaps the prefix");
    let values: Vec<Variant> = Framing::new(cfg.clone())
        .max_frame_len(MAX_FRAME_LEN)
        .frames(&le[..])
        .collect::<Result<_, _>>()
        .unwrap();
    let values_be: Vec<Variant> = Framing::new(cfg.clone())
        .max_frame_len(MAX_FRAME_LEN)
        .big_endian(true)
        .frames(&be[..])
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(values.len(), fixed.len());
    for ((c, want), (got, got_be)) in fixed.iter().zip(values.iter().zip(&values_be)) {
        assert!(same(got, want), "{}: read {got:?}, want {want:?}", c.name);
        assert!(
            same(got_be, want),
            "{} (big-endian): read {got_be:?}",
            c.name
        );
    }

    // 3. The crate writes the same values and a few typed ones; the engine reads them
    //    with FileAccess.get_var and compares them with its own.
    let mut ours = Vec::new();
    let mut ours_be = Vec::new();
    let little = Framing::new(cfg.clone()).max_frame_len(MAX_FRAME_LEN);
    let big = little.clone().big_endian(true);
    let mut expressions = Vec::new();
    macro_rules! put {
        ($name:expr, $v:expr, $gd:expr) => {{
            little.write(&mut ours, &$v).unwrap();
            big.write(&mut ours_be, &$v).unwrap();
            expressions.push(format!("[\"{}\", {}]", $name, $gd));
        }};
    }
    for (c, want) in &fixed {
        put!(c.name, want, c.expr);
    }
    put!(
        "player",
        Player {
            name: "bob".into(),
            hp: -5,
            pos: Vector3::new(4.0, 5.0, 6.5),
            tags: PackedStringArray::from(vec!["x".to_string()]),
            cell: Vector4i::new(1, 2, 3, 4),
        },
        "{\"name\": \"bob\", \"hp\": -5, \"pos\": Vector3(4, 5, 6.5), \"tags\": PackedStringArray([\"x\"]), \"cell\": Vector4i(1, 2, 3, 4)}"
    );
    put!(
        "event_spawn",
        Event::Spawn {
            at: Vector2::new(3.0, 4.0)
        },
        "{\"Spawn\": {\"at\": Vector2(3, 4)}}"
    );
    put!("event_say", Event::Say("hi".into()), "{\"Say\": \"hi\"}");
    put!("event_quit", Event::Quit, "\"Quit\"");
    put!("vec_i64", vec![1i64 << 40, -1], "[1 << 40, -1]");
    put!("unit", (), "null");
    let count = expressions.len();
    let read = run_with_helper(
        engine,
        &format!(
            r#"
            var expected = [{list}]
            for path in ["rust.bin", "rust_be.bin"]:
                var f = FileAccess.open(path, FileAccess.READ)
                f.big_endian = path == "rust_be.bin"
                var i = 0
                while f.get_position() < f.get_length() and i < 1000:
                    var name = expected[i][0] if i < expected.size() else "(none)"
                    var got = f.get_var(name.ends_with("_full"))
                    var ok = i < expected.size() and h.same(expected[i][1], got, name)
                    print("FILE:", path, ":", name, ":", "OK" if ok else "BAD " + var_to_str(got).replace("\n", " "))
                    i += 1
                print("FILE:", path, ":COUNT ", i)
                f.close()
            "#,
            list = expressions.join(", "),
        ),
        &[("rust.bin", &ours), ("rust_be.bin", &ours_be)],
    );
    read.assert_ok();
    let names: Vec<String> = expressions
        .iter()
        .map(|e| e[2..e.find("\",").unwrap()].to_string())
        .collect();
    for path in ["rust.bin", "rust_be.bin"] {
        let lines = read.lines_with_prefix(&format!("FILE:{path}:"));
        let want: Vec<String> = names
            .iter()
            .map(|n| format!("{n}:OK"))
            .chain([format!("COUNT {count}")])
            .collect();
        assert_eq!(lines, want, "{}", read.describe());
    }
    eprintln!(
        "godot4 FileAccess: 2 engine files of {} values read by the crate (each checked), \
         2 crate files of {count} values read by the engine (each equal)",
        fixed.len()
    );
}

fn packet_peer_udp_put_var_uses_bare_packets_both_ways(engine: &Godot4) {
    let cfg = godot4_cfg();
    let udp_cases = [
        "vector4i",
        "projection",
        "string_name",
        "node_path",
        "rid",
        "array_typed_vector4",
        "dictionary_typed",
        "packed_vector4",
        "packed_float64",
        "int_64bit",
    ];
    let chosen: Vec<(&Case, Variant)> = fixed_cases()
        .filter(|(c, _)| udp_cases.contains(&c.name))
        .collect();
    assert_eq!(chosen.len(), udp_cases.len());
    let udp_cases: Vec<&str> = chosen.iter().map(|(c, _)| c.name).collect();
    // The crate's own packets for the second half, one datagram each.
    let ours: Vec<Vec<u8>> = chosen.iter().map(|(_, v)| cfg.to_vec(v).unwrap()).collect();

    // 1. Engine -> crate -> engine: the engine sends each value as one datagram; the
    //    crate decodes the datagram as one bare packet and sends it back the same way.
    // 2. Crate -> engine: after the string "bye", the crate sends its own packets to the
    //    engine's socket, which reads each with get_var.
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    let port = socket.local_addr().unwrap().port();
    let (done_tx, done_rx) = mpsc::channel();
    let server_cfg = cfg.clone();
    thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = vec![0u8; 65536];
        let result = (|| -> godot_bin::Result<Vec<(Variant, usize)>> {
            loop {
                let (n, from) = socket.recv_from(&mut buf)?;
                // One datagram, one bare packet; the engine ignores what follows it.
                let (value, _): (Variant, _) = server_cfg.take_from_slice(&buf[..n])?;
                socket.send_to(&server_cfg.to_vec(&value)?, from)?;
                if value == Variant::from("bye") {
                    for packet in &ours {
                        socket.send_to(packet, from)?;
                    }
                    return Ok(seen);
                }
                seen.push((value, n));
            }
        })();
        let _ = done_tx.send(result);
    });

    let body = format!(
        r#"
        var values = {cases}
        var udp = PacketPeerUDP.new()
        udp.set_dest_address("127.0.0.1", {port})
        var wait = func():
            var waited = 0
            while udp.get_available_packet_count() == 0 and waited < 10000:
                OS.delay_msec(1)
                waited += 1
            return udp.get_available_packet_count() > 0
        for c in values + [["bye", "bye"]]:
            var sent_bytes = var_to_bytes(c[1])
            udp.put_var(c[1])
            if not wait.call():
                print("UDP:TIMEOUT")
                break
            var raw = udp.get_packet()
            var got = bytes_to_var(raw)
            # The engine leaves NodePath padding unwritten: its bytes differ call to call.
            var ok = h.same(c[1], got, c[0]) and (raw == sent_bytes or c[1] is NodePath)
            print("UDP:", c[0], ":", "OK" if ok else "BAD " + raw.hex_encode())
        for c in values:
            if not wait.call():
                print("FROM_CRATE:TIMEOUT")
                break
            var got = udp.get_var()
            print("FROM_CRATE:", c[0], ":", "OK" if h.same(c[1], got, c[0]) else "BAD " + var_to_str(got))
        udp.close()
        "#,
        cases = gd_cases(chosen.iter().map(|(c, _)| *c)),
    );
    let run = run_with_helper(engine, &body, &[]);
    run.assert_ok();
    let ok_lines = |names: &mut dyn Iterator<Item = &&str>| -> Vec<String> {
        names.map(|n| format!("{n}:OK")).collect()
    };
    assert_eq!(
        run.lines_with_prefix("UDP:"),
        ok_lines(&mut udp_cases.iter().chain(&["bye"])),
        "{}",
        run.describe()
    );
    assert_eq!(
        run.lines_with_prefix("FROM_CRATE:"),
        ok_lines(&mut udp_cases.iter()),
        "{}",
        run.describe()
    );
    let seen = done_rx
        .recv_timeout(IO_TIMEOUT)
        .expect("the UDP server did not finish")
        .unwrap();
    assert_eq!(seen.len(), chosen.len());
    for ((c, want), (got, n)) in chosen.iter().zip(&seen) {
        assert!(same(got, want), "{}: got {got:?}", c.name);
        // The datagram is the bare packet: no length prefix in front.
        assert_eq!(*n, cfg.to_vec(want).unwrap().len(), "{}", c.name);
    }
    eprintln!(
        "godot4 PacketPeerUDP: {} datagrams engine -> crate -> engine, {} crate -> engine, \
         all equal",
        seen.len() + 1,
        chosen.len()
    );
}
