//! The Echo node of `examples/multiplayer_echo/godot_client/echo.gd`, as this crate configures it: the
//! one place both the echo server and `multiplayer_load` take it from, because method ids
//! are indexes into this list and must match the GDScript side.

use godot_bin_multiplayer::{NodeConfig, Rpc, Scene};

/// The node every check relies on: path `Echo`, exactly these three RPCs.
pub fn echo_scene() -> godot_bin_multiplayer::Result<Scene> {
    Scene::new().with(
        NodeConfig::new("Echo")
            .rpc(Rpc::any_peer("echo"))
            .rpc(Rpc::any_peer("echo_many"))
            .rpc(
                Rpc::any_peer("echo_unreliable")
                    .unreliable_ordered()
                    .channel(1),
            ),
    )
}
