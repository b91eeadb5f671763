//! glam against the real engine: a rotation built in glam rotates vectors in Godot 3 as it
//! does in glam (the conversions themselves are tested in `tests/it/interop.rs`).

use crate::support::engine::godot3_trial;
use crate::support::godot3::{self, Godot3};
use crate::support::variant::close;
use glam::{Mat3, Vec3};
use godot_bin::*;
use libtest_mimic::Trial;

/// This area's trials, for `tests/engine/main.rs`.
pub fn trials() -> Vec<Trial> {
    vec![godot3_trial(
        "interop::godot3_engine_rotates_like_glam",
        godot3_engine_rotates_like_glam,
    )]
}

/// The real engine agrees: a Basis built from glam's rotation, sent as a packet, rotates
/// `Vector3(1, 0, 0)` in Godot 3 exactly as glam does, and the engine's own
/// `Basis(Vector3.UP, 0.7)` decodes to glam's matrix.
fn godot3_engine_rotates_like_glam(engine: &Godot3) {
    let cfg = Config::new(Dialect::Godot3);
    let basis = Basis::from(Mat3::from_rotation_y(0.7));
    let res = godot3::run_script(
        engine,
        "\tvar b = bytes2var(read_bytes(\"in.bin\"))\n\
         \tvar v = b.xform(Vector3(1, 0, 0))\n\
         \twrite_bytes(\"out.bin\", var2bytes(v))\n\
         \twrite_bytes(\"own.bin\", var2bytes(Basis(Vector3(0, 1, 0), 0.7)))\n",
        &[("in.bin", &cfg.to_vec(&basis).unwrap())],
    );
    res.assert_ok();
    let rotated: Vector3 = cfg.from_slice(&res.read_file("out.bin")).unwrap();
    let glam_rotated = Vector3::from(Mat3::from_rotation_y(0.7) * Vec3::X);
    assert!(
        close(rotated, glam_rotated),
        "{rotated:?} != {glam_rotated:?}"
    );
    let own: Basis = cfg.from_slice(&res.read_file("own.bin")).unwrap();
    let diff = Mat3::from(own) - Mat3::from_rotation_y(0.7);
    assert!(
        diff.to_cols_array().iter().all(|d| d.abs() < 1e-6),
        "{own:?}"
    );
}
