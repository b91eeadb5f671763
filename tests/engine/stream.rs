//! The real Godot 3 engine against this crate's framing: `StreamPeerTCP.put_var` /
//! `get_var` through an echo server in this process, `File.store_var` / `get_var` files
//! in both directions (little- and big-endian prefixes), and `PacketPeerUDP` bare packets.
//!
//! Each test is one or two engine runs of well under a second; every wait in the scripts
//! is bounded, and the harness kills the engine after 60 s in any case.

use crate::support::godot3;

use crate::support::engine::godot3_trial;
use crate::support::godot3::Godot3;
use crate::support::variant::assert_eq_ordered;
use godot_bin::framing::Framing;
use godot_bin::{
    Color, Config, Dialect, NodePath, PackedStringArray, PackedVector2Array, Variant, VariantType,
    Vector2, Vector3,
};
use libtest_mimic::Trial;
use serde::{Deserialize, Serialize};
use std::io::{BufReader, BufWriter, Write};
use std::net::{TcpListener, UdpSocket};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![
        godot3_trial(
            "stream::stream_peer_tcp_put_var_round_trips_every_godot3_type",
            stream_peer_tcp_put_var_round_trips_every_godot3_type,
        ),
        godot3_trial(
            "stream::file_store_var_is_read_by_the_crate_and_the_crate_s_files_by_get_var",
            file_store_var_is_read_by_the_crate_and_the_crate_s_files_by_get_var,
        ),
        godot3_trial(
            "stream::packet_peer_udp_put_var_uses_bare_packets",
            packet_peer_udp_put_var_uses_bare_packets,
        ),
    ]
}

const MAX_FRAME_LEN: usize = 4 << 20;

/// How long the server threads wait for the engine before giving up.
pub(crate) const IO_TIMEOUT: Duration = Duration::from_secs(30);

fn godot3_cfg() -> Config {
    Config::new(Dialect::Godot3).allow_objects(true)
}

/// One value the GDScript client sends: a name for its report line, a GDScript
/// expression, and the type the server must see.
struct Case {
    name: &'static str,
    expr: &'static str,
    ty: VariantType,
}

const fn case(name: &'static str, expr: &'static str, ty: VariantType) -> Case {
    Case { name, expr, ty }
}

/// Every Godot 3 type (all 27 type ids), several twice in different forms.
const CASES: &[Case] = &[
    case("nil", "null", VariantType::Nil),
    case("bool_true", "true", VariantType::Bool),
    case("bool_false", "false", VariantType::Bool),
    case("int_small", "-123456", VariantType::Int),
    case("int_64bit", "-(1 << 40) - 7", VariantType::Int),
    case("float_f32", "2.5", VariantType::Float),
    case("float_f64", "0.1", VariantType::Float),
    case("float_inf", "INF", VariantType::Float),
    case("string", "\"héllo wörld ✓\"", VariantType::String),
    case("string_empty", "\"\"", VariantType::String),
    case("vector2", "Vector2(1.5, -2)", VariantType::Vector2),
    case("rect2", "Rect2(1, 2, 3.25, 4)", VariantType::Rect2),
    case("vector3", "Vector3(1, 2, 3)", VariantType::Vector3),
    case(
        "transform2d",
        "Transform2D(0.5, Vector2(3, 4))",
        VariantType::Transform2D,
    ),
    case("plane", "Plane(0, 1, 0, 2.5)", VariantType::Plane),
    case("quat", "Quat(0, 0, 0.6, 0.8)", VariantType::Quaternion),
    case(
        "aabb",
        "AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))",
        VariantType::Aabb,
    ),
    case("basis", "Basis(Vector3(0, 1, 0), 0.5)", VariantType::Basis),
    case(
        "transform",
        "Transform(Basis(Vector3(1, 0, 0), 1.0), Vector3(7, 8, 9))",
        VariantType::Transform3D,
    ),
    case("color", "Color(0.1, 0.2, 0.3, 0.4)", VariantType::Color),
    case(
        "node_path",
        "NodePath(\"../Enemy/Sprite:position:x\")",
        VariantType::NodePath,
    ),
    case(
        "node_path_abs",
        "NodePath(\"/root/Main\")",
        VariantType::NodePath,
    ),
    case("rid", "RID()", VariantType::Rid),
    // Sent as its instance id (put_var's default): comes back as EncodedObjectAsID.
    case("object_as_id", "Reference.new()", VariantType::Object),
    // Sent whole (put_var(v, true)) and read back with get_var(true).
    case("object_full", "make_resource()", VariantType::Object),
    case(
        "dictionary",
        "{\"a\": 1, 2: [3, \"x\"], Vector2(1, 1): null, \"nested\": {\"k\": PoolIntArray([7])}}",
        VariantType::Dictionary,
    ),
    case("dictionary_empty", "{}", VariantType::Dictionary),
    case(
        "array",
        "[1, \"two\", 3.5, [4], {\"five\": 5}, Color(1, 0, 0)]",
        VariantType::Array,
    ),
    case("array_empty", "[]", VariantType::Array),
    case(
        "pool_byte",
        "PoolByteArray([0, 1, 254, 255, 7])",
        VariantType::PackedByteArray,
    ),
    // About 300 kB: arrives at the server in many reads, and at the client likewise.
    case("pool_byte_big", "big_bytes()", VariantType::PackedByteArray),
    case(
        "pool_int",
        "PoolIntArray([1, -2, 2147483647, -2147483648])",
        VariantType::PackedInt32Array,
    ),
    case(
        "pool_real",
        "PoolRealArray([0.5, -1.25, 1e10])",
        VariantType::PackedFloat32Array,
    ),
    case(
        "pool_string",
        "PoolStringArray([\"a\", \"\", \"ünï\"])",
        VariantType::PackedStringArray,
    ),
    case(
        "pool_vector2",
        "PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)])",
        VariantType::PackedVector2Array,
    ),
    case(
        "pool_vector3",
        "PoolVector3Array([Vector3(1, 2, 3)])",
        VariantType::PackedVector3Array,
    ),
    case(
        "pool_color",
        "PoolColorArray([Color(1, 0, 0, 1), Color(0, 0, 1, 0.5)])",
        VariantType::PackedColorArray,
    ),
];

/// The GDScript array literal of `[name, value]` pairs; `make_resource()` and
/// `big_bytes()` are filled in by the script before it is built.
fn gd_cases() -> String {
    let items: Vec<String> = CASES
        .iter()
        .map(|c| format!("[\"{}\", {}]", c.name, c.expr))
        .collect();
    format!("[{}]", items.join(", "))
}

/// GDScript that builds a helper object `h`: `h.same(sent, got, name)` compares by type,
/// `var2str` and the exact `var2bytes` (objects by id, or by class and property; `==`
/// is not used because Godot 3 compares Dictionaries by reference).
const GD_SAME: &str = r#"
        var same_src = "func same(a, b, name):\n"
        same_src += "\tif name == 'object_as_id':\n"
        same_src += "\t\treturn b is EncodedObjectAsID and b.get_object_id() == a.get_instance_id()\n"
        same_src += "\tif name == 'object_full':\n"
        same_src += "\t\treturn b is Resource and b.get_class() == a.get_class() and b.resource_name == a.resource_name\n"
        same_src += "\tif typeof(a) != typeof(b):\n"
        same_src += "\t\treturn false\n"
        same_src += "\treturn var2str(a) == var2str(b) and var2bytes(a).hex_encode() == var2bytes(b).hex_encode()\n"
        same_src += "func make_resource():\n"
        same_src += "\tvar r = Resource.new()\n"
        same_src += "\tr.resource_name = 'hero'\n"
        same_src += "\treturn r\n"
        same_src += "func big_bytes():\n"
        same_src += "\tvar b = PoolByteArray()\n"
        same_src += "\tb.resize(300000)\n"
        same_src += "\tfor i in range(b.size()):\n"
        same_src += "\t\tb[i] = (i * 7) % 251\n"
        same_src += "\treturn b\n"
        var helper_script = GDScript.new()
        helper_script.source_code = same_src
        var helper_err = helper_script.reload()
        if helper_err != OK:
            print("HELPERS:BROKEN ", helper_err)
        var h = helper_script.new()
"#;

/// Replaces the helper calls in the case expressions with calls on the helper object.
fn with_helpers(cases: &str) -> String {
    cases
        .replace("make_resource()", "h.make_resource()")
        .replace("big_bytes()", "h.big_bytes()")
}

/// Serves one TCP client as `examples/echo_server.rs` does: echoes every framed value,
/// decoded into `Variant` and encoded again, and returns the values it saw.
pub(crate) fn echo_one_client(
    listener: TcpListener,
    cfg: Config,
) -> godot_bin::Result<Vec<Variant>> {
    let (stream, _) = listener.accept()?;
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_nodelay(true)?;
    let mut writer = BufWriter::new(stream.try_clone()?);
    let mut seen = Vec::new();
    let framing = Framing::new(cfg).max_frame_len(MAX_FRAME_LEN);
    for value in framing.frames::<_, Variant>(BufReader::new(stream)) {
        let value = value?;
        framing.write(&mut writer, &value)?;
        writer.flush()?;
        seen.push(value);
    }
    Ok(seen)
}

fn stream_peer_tcp_put_var_round_trips_every_godot3_type(engine: &Godot3) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (done_tx, done_rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = done_tx.send(echo_one_client(listener, godot3_cfg()));
    });

    let body = format!(
        r#"
        {GD_SAME}
        var cases = {cases}
        var peer = StreamPeerTCP.new()
        var err = peer.connect_to_host("127.0.0.1", {port})
        var waited = 0
        while peer.get_status() == StreamPeerTCP.STATUS_CONNECTING and waited < 10000:
            OS.delay_msec(2)
            waited += 2
        if err != OK or peer.get_status() != StreamPeerTCP.STATUS_CONNECTED:
            print("STREAM:NOCONNECT ", err, " ", peer.get_status())
        else:
            for c in cases:
                var name = c[0]
                var value = c[1]
                peer.put_var(value, name == "object_full")
                waited = 0
                while peer.get_available_bytes() == 0 and waited < 10000:
                    OS.delay_msec(1)
                    waited += 1
                if peer.get_available_bytes() == 0:
                    print("STREAM:TIMEOUT ", name)
                    break
                var reply = peer.get_var(name == "object_full")
                if h.same(value, reply, name):
                    print("STREAM:OK ", name)
                else:
                    print("STREAM:BAD ", name, " sent ", var2str(value).replace("\n", " "), " got ", var2str(reply).replace("\n", " "))
            peer.disconnect_from_host()
        "#,
        cases = with_helpers(&gd_cases()),
    );
    let run = godot3::run_script(engine, &body, &[]);
    let names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    let types: Vec<VariantType> = CASES.iter().map(|c| c.ty).collect();
    echoed(&run, &names, &types, &done_rx);
}

/// Checks an engine's run of the echo script (`STREAM:OK name` for each value that came
/// back equal, `STREAM:BAD ...` for one that did not): every case came back, in order;
/// then the values the crate's echo server saw (`done_rx`), which must be of `types`.
pub(crate) fn echoed(
    run: &crate::support::run::RunResult,
    names: &[&str],
    types: &[VariantType],
    done_rx: &mpsc::Receiver<godot_bin::Result<Vec<Variant>>>,
) -> Vec<Variant> {
    run.assert_ok();
    let bad = run.lines_with_prefix("STREAM:BAD ");
    assert!(
        bad.is_empty(),
        "values that did not survive:\n{}",
        bad.join("\n")
    );
    let ok = run.lines_with_prefix("STREAM:OK ");
    assert_eq!(ok, names, "{}", run.describe());

    let seen = done_rx
        .recv_timeout(IO_TIMEOUT)
        .expect("the echo server did not finish")
        .unwrap_or_else(|e| panic!("echo server failed: {e}\n{}", run.describe()));
    let seen_types: Vec<VariantType> = seen.iter().map(Variant::get_type).collect();
    assert_eq!(seen_types, types);
    seen
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Player {
    name: String,
    hp: i32,
    pos: Vector3,
    tags: PackedStringArray,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Event {
    Spawn { at: Vector2 },
    Say(String),
    Quit,
}

fn file_store_var_is_read_by_the_crate_and_the_crate_s_files_by_get_var(engine: &Godot3) {
    let cfg = godot3_cfg();

    // 1. The engine writes values with File.store_var, with and without endian_swap.
    let write = godot3::run_script(
        engine,
        r#"
        var values = [
            {"name": "ada", "hp": 100, "pos": Vector3(1, 2, 3), "tags": PoolStringArray(["a", "b"])},
            42,
            "héllo",
            Vector3(0.5, -1, 2),
            [1, "two", Color(1, 0, 0, 1)],
            NodePath("../Enemy:position"),
            PoolVector2Array([Vector2(1, 2)]),
            null,
        ]
        for path in ["engine.bin", "engine_be.bin"]:
            var f = File.new()
            f.open(path, File.WRITE)
            f.endian_swap = path == "engine_be.bin"
            for v in values:
                f.store_var(v)
            f.close()
        print("FILE:WROTE ", values.size())
        "#,
        &[],
    );
    write.assert_ok();
    assert_eq!(write.line_with_prefix("FILE:WROTE "), "8");

    // 2. The crate reads them all back, little- and big-endian.
    let le = write.read_file("engine.bin");
    let be = write.read_file("engine_be.bin");
    assert_eq!(le.len(), be.len());
    assert_ne!(le[..4], be[..4], "endian_swap swaps the prefix");
    let little = Framing::new(cfg.clone()).max_frame_len(MAX_FRAME_LEN);
    let big = little.clone().big_endian(true);
    let values: Vec<Variant> = little.frames(&le[..]).collect::<Result<_, _>>().unwrap();
    let values_be: Vec<Variant> = big.frames(&be[..]).collect::<Result<_, _>>().unwrap();
    assert_eq_ordered!(values_be, values, "only the prefix differs");
    assert_eq!(values.len(), 8);
    assert_eq!(values[1], Variant::Int(42));
    assert_eq!(values[2], Variant::from("héllo"));
    assert_eq!(values[3], Variant::Vector3(Vector3::new(0.5, -1.0, 2.0)));
    assert_eq!(
        values[4],
        Variant::from(vec![
            Variant::Int(1),
            Variant::from("two"),
            Variant::Color(Color::from_rgba(1.0, 0.0, 0.0, 1.0)),
        ])
    );
    assert_eq!(
        values[5],
        Variant::NodePath(NodePath::from("../Enemy:position"))
    );
    assert_eq!(
        values[6],
        Variant::PackedVector2Array(PackedVector2Array::from(vec![Vector2::new(1.0, 2.0)]))
    );
    assert_eq!(values[7], Variant::Nil);
    // The first value, typed.
    let mut file = std::io::Cursor::new(&le);
    let player: Player = little.read(&mut file).unwrap().unwrap();
    assert_eq!(
        player,
        Player {
            name: "ada".into(),
            hp: 100,
            pos: Vector3::new(1.0, 2.0, 3.0),
            tags: PackedStringArray::from(vec!["a".to_string(), "b".to_string()]),
        }
    );

    // 3. The crate writes new values; the engine reads them with File.get_var.
    let mut ours = Vec::new();
    let mut ours_be = Vec::new();
    macro_rules! put {
        ($v:expr) => {{
            little.write(&mut ours, &$v).unwrap();
            big.write(&mut ours_be, &$v).unwrap();
        }};
    }
    put!(Player {
        name: "bob".into(),
        hp: -5,
        pos: Vector3::new(4.0, 5.0, 6.5),
        tags: PackedStringArray::from(vec!["x".to_string()]),
    });
    put!(Event::Spawn {
        at: Vector2::new(3.0, 4.0)
    });
    put!(Event::Say("hi".into()));
    put!(Event::Quit);
    put!(vec![1i64 << 40, -1]);
    put!(0.1f64);
    put!(Color::from_rgba(0.0, 0.5, 1.0, 1.0));
    put!(NodePath::from("/root/Main:scale"));
    put!(values[0].clone()); // the engine's own first value, re-encoded
    put!(());

    let read = godot3::run_script(
        engine,
        r#"
        var expected = [
            {"name": "bob", "hp": -5, "pos": Vector3(4, 5, 6.5), "tags": PoolStringArray(["x"])},
            {"Spawn": {"at": Vector2(3, 4)}},
            {"Say": "hi"},
            "Quit",
            [1 << 40, -1],
            0.1,
            Color(0, 0.5, 1, 1),
            NodePath("/root/Main:scale"),
            {"name": "ada", "hp": 100, "pos": Vector3(1, 2, 3), "tags": PoolStringArray(["a", "b"])},
            null,
        ]
        for path in ["rust.bin", "rust_be.bin"]:
            var f = File.new()
            f.open(path, File.READ)
            f.endian_swap = path == "rust_be.bin"
            var i = 0
            while f.get_position() < f.get_len() and i < 100:
                var got = f.get_var()
                var want = expected[i] if i < expected.size() else "(none)"
                var same = typeof(got) == typeof(want) and var2str(got) == var2str(want) and var2bytes(got).hex_encode() == var2bytes(want).hex_encode()
                print("FILE:", path, ":", i, ":", "OK" if same else "BAD " + var2str(got).replace("\n", " "))
                i += 1
            print("FILE:", path, ":COUNT ", i)
            f.close()
        "#,
        &[("rust.bin", &ours), ("rust_be.bin", &ours_be)],
    );
    read.assert_ok();
    for path in ["rust.bin", "rust_be.bin"] {
        let lines = read.lines_with_prefix(&format!("FILE:{path}:"));
        let expected: Vec<String> = (0..10)
            .map(|i| format!("{i}:OK"))
            .chain(["COUNT 10".to_string()])
            .collect();
        assert_eq!(lines, expected, "{}", read.describe());
    }
}

fn packet_peer_udp_put_var_uses_bare_packets(engine: &Godot3) {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    socket.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    let port = socket.local_addr().unwrap().port();
    let (done_tx, done_rx) = mpsc::channel();
    thread::spawn(move || {
        let cfg = godot3_cfg();
        let mut seen = Vec::new();
        let mut buf = vec![0u8; 65536];
        let result = (|| -> godot_bin::Result<Vec<Variant>> {
            loop {
                let (n, from) = socket.recv_from(&mut buf)?;
                // PacketPeer.get_var ignores bytes after the value.
                let (value, _): (Variant, _) = cfg.take_from_slice(&buf[..n])?;
                // The string "bye" ends the exchange.
                let last = value == Variant::from("bye");
                socket.send_to(&cfg.to_vec(&value)?, from)?;
                seen.push(value);
                if last {
                    return Ok(seen);
                }
            }
        })();
        let _ = done_tx.send(result);
    });

    let body = format!(
        r#"
        var values = [Vector3(1, 2, 3), {{"k": [1, 2.5, "s"]}}, PoolColorArray([Color(0, 1, 0, 1)]), 1 << 40, "bye"]
        var udp = PacketPeerUDP.new()
        udp.set_dest_address("127.0.0.1", {port})
        for v in values:
            udp.put_var(v)
            var waited = 0
            while udp.get_available_packet_count() == 0 and waited < 10000:
                OS.delay_msec(1)
                waited += 1
            if udp.get_available_packet_count() == 0:
                print("UDP:TIMEOUT")
                break
            var got = udp.get_var()
            var same = typeof(got) == typeof(v) and var2str(got) == var2str(v) and var2bytes(got).hex_encode() == var2bytes(v).hex_encode()
            print("UDP:", "OK" if same else "BAD " + var2str(got))
        udp.close()
        "#,
    );
    let run = godot3::run_script(engine, &body, &[]);
    run.assert_ok();
    assert_eq!(
        run.lines_with_prefix("UDP:"),
        vec!["OK"; 5],
        "{}",
        run.describe()
    );
    let seen = done_rx
        .recv_timeout(IO_TIMEOUT)
        .expect("the UDP server did not finish")
        .unwrap();
    assert_eq!(seen.len(), 5);
    assert_eq!(seen[0], Variant::Vector3(Vector3::new(1.0, 2.0, 3.0)));
    assert_eq!(seen[3], Variant::Int(1 << 40));
}
