//! What the session knows of the scene: the nodes a game exposes, their RPC lists, method
//! ids and checksums, and the replication configs of spawnable nodes.

use super::error::{Error, ErrorKind, Result};
use crate::map::Map;
use std::sync::Arc;

/// Who may call an RPC (`@rpc("any_peer")`, `@rpc("authority")`, or disabled).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RpcMode {
    /// Nobody (`MultiplayerAPI.RPC_MODE_DISABLED`).
    Disabled,
    /// Any peer (`"any_peer"`).
    AnyPeer,
    /// Only the node's multiplayer authority (`"authority"`, the default).
    Authority,
}

/// How a packet travels (`MultiplayerPeer.TransferMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TransferMode {
    /// May be lost or arrive out of order (`"unreliable"`).
    Unreliable,
    /// May be lost; late packets are dropped (`"unreliable_ordered"`).
    UnreliableOrdered,
    /// Arrives, in order (`"reliable"`, the default).
    Reliable,
}

/// One RPC of a node, as `@rpc(...)` or `rpc_config` declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rpc {
    /// The method name.
    pub name: Arc<str>,
    /// Who may call it.
    pub mode: RpcMode,
    /// How calls to it are sent.
    pub transfer: TransferMode,
    /// The channel calls to it are sent on.
    pub channel: u8,
    /// `call_local`: the engine also runs it on the caller. Kept for completeness; a Rust
    /// session never calls itself.
    pub call_local: bool,
}

impl Rpc {
    /// `@rpc("any_peer")`: reliable, channel 0.
    pub fn any_peer(name: &str) -> Self {
        Rpc {
            name: name.into(),
            mode: RpcMode::AnyPeer,
            transfer: TransferMode::Reliable,
            channel: 0,
            call_local: false,
        }
    }

    /// `@rpc` / `@rpc("authority")`: reliable, channel 0.
    pub fn authority(name: &str) -> Self {
        Rpc {
            mode: RpcMode::Authority,
            ..Rpc::any_peer(name)
        }
    }

    /// `@rpc("disabled")`: listed (it takes an id) but never callable.
    pub fn disabled(name: &str) -> Self {
        Rpc {
            mode: RpcMode::Disabled,
            ..Rpc::any_peer(name)
        }
    }

    /// Sets the transfer mode.
    pub fn transfer(mut self, transfer: TransferMode) -> Self {
        self.transfer = transfer;
        self
    }

    /// `"unreliable"`.
    pub fn unreliable(self) -> Self {
        self.transfer(TransferMode::Unreliable)
    }

    /// `"unreliable_ordered"`.
    pub fn unreliable_ordered(self) -> Self {
        self.transfer(TransferMode::UnreliableOrdered)
    }

    /// Sets the channel.
    pub fn channel(mut self, channel: u8) -> Self {
        self.channel = channel;
        self
    }

    /// `"call_local"`.
    pub fn call_local(mut self, call_local: bool) -> Self {
        self.call_local = call_local;
        self
    }
}

/// A node the game talks to: its path below the multiplayer root (`/root/Game` is
/// `"Game"`), its RPCs, and its multiplayer authority.
///
/// The RPC list must be the one the Godot side has for that node: method ids are indexes
/// into it, sorted by name, and its checksum is compared on both sides.
///
/// ```
/// use godot_bin_multiplayer::{NodeConfig, Rpc};
/// let echo = NodeConfig::new("Echo")
///     .rpc(Rpc::any_peer("echo"))
///     .rpc(Rpc::any_peer("echo_many"))
///     .rpc(Rpc::any_peer("echo_unreliable").unreliable_ordered().channel(1));
/// ```
#[derive(Clone, Debug)]
pub struct NodeConfig {
    path: Arc<str>,
    script: Vec<Rpc>,
    node: Vec<Rpc>,
    authority: i32,
}

impl NodeConfig {
    /// A node at `path` (relative to the multiplayer root, no leading `/`), with no RPCs,
    /// whose authority is the server.
    pub fn new(path: &str) -> Self {
        NodeConfig {
            path: path.trim_start_matches('/').into(),
            script: Vec::new(),
            node: Vec::new(),
            authority: 1,
        }
    }

    /// Adds a script RPC (a GDScript `@rpc` function).
    pub fn rpc(mut self, rpc: Rpc) -> Self {
        self.script.push(rpc);
        self
    }

    /// Adds a node-level RPC (`Node.rpc_config(name, config)` on the Godot side); these take
    /// ids from `0x8000`.
    pub fn node_rpc(mut self, rpc: Rpc) -> Self {
        self.node.push(rpc);
        self
    }

    /// Sets the node's multiplayer authority (1, the server, by default).
    pub fn authority(mut self, peer: i32) -> Self {
        self.authority = peer;
        self
    }
}

/// The id bit of node-level (`rpc_config`) methods.
const NODE_RPC_BIT: u16 = 0x8000;

/// A node as the session uses it: methods by id and name, checksum.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) path: Arc<str>,
    pub(crate) authority: i32,
    /// Methods in table order (node-level first), with their ids.
    pub(crate) methods: Vec<(u16, Rpc)>,
    pub(crate) by_name: Map<Arc<str>, usize>,
    pub(crate) checksum: String,
}

impl Node {
    fn new(cfg: NodeConfig) -> Result<Self> {
        let mut methods = Vec::new();
        for (list, bit) in [(cfg.node, NODE_RPC_BIT), (cfg.script, 0)] {
            let mut list = list;
            // The engine sorts each dictionary's names with String `<`: code point order,
            // which is the byte order of UTF-8.
            list.sort_by(|a, b| a.name.cmp(&b.name));
            if list.windows(2).any(|w| w[0].name == w[1].name) {
                return Err(Error::from(ErrorKind::Invalid(
                    "an RPC name is declared twice",
                )));
            }
            if list.len() > usize::from(NODE_RPC_BIT) {
                return Err(Error::from(ErrorKind::Limit(
                    "more than 32768 RPCs on a node",
                )));
            }
            for (i, rpc) in list.into_iter().enumerate() {
                methods.push((i as u16 | bit, rpc));
            }
        }
        let checksum = checksum(methods.iter().map(|(_, r)| &*r.name));
        let by_name = methods
            .iter()
            .enumerate()
            .map(|(i, (_, r))| (r.name.clone(), i))
            .collect();
        Ok(Node {
            path: cfg.path,
            authority: cfg.authority,
            methods,
            by_name,
            checksum,
        })
    }

    pub(crate) fn method_by_id(&self, id: u16) -> Option<&Rpc> {
        let (base, bit) = (id & !NODE_RPC_BIT, id & NODE_RPC_BIT);
        // Node-level methods come first in the table; script ones after them.
        let node_count = self
            .methods
            .iter()
            .take_while(|(i, _)| i & NODE_RPC_BIT != 0)
            .count();
        let index = if bit != 0 {
            (usize::from(base) < node_count).then_some(usize::from(base))?
        } else {
            node_count + usize::from(base)
        };
        self.methods.get(index).map(|(_, r)| r)
    }
}

/// The checksum the engine sends in SIMPLIFY_PATH: md5 of the RPC names concatenated in
/// table order, as 32 lowercase hex digits.
fn checksum<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    use md5::{Digest, Md5};
    let mut h = Md5::new();
    for n in names {
        h.update(n.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Identifies a declared node (its index in the [`Scene`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

/// One replicated property of a MultiplayerSynchronizer's `SceneReplicationConfig`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplicatedProperty {
    /// The property path as in the config (`".:position"`).
    pub path: Arc<str>,
    /// Sent in the SPAWN packet.
    pub spawn: bool,
    /// How it is synchronized afterwards.
    pub mode: ReplicationMode,
}

/// `SceneReplicationConfig.ReplicationMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplicationMode {
    /// Only at spawn (if `spawn` is set).
    Never,
    /// In every plain (unreliable) sync.
    Always,
    /// In a reliable delta sync when it changes.
    OnChange,
}

/// A MultiplayerSynchronizer's replication config: its properties, in config order.
///
/// ```
/// use godot_bin_multiplayer::{ReplicationConfig, ReplicationMode};
/// let player = ReplicationConfig::new()
///     .property(".:position", true, ReplicationMode::Always)
///     .property(".:rotation", false, ReplicationMode::OnChange);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplicationConfig {
    pub(crate) properties: Vec<ReplicatedProperty>,
}

impl ReplicationConfig {
    /// An empty config.
    pub fn new() -> Self {
        ReplicationConfig::default()
    }

    /// Adds a property at the end.
    pub fn property(mut self, path: &str, spawn: bool, mode: ReplicationMode) -> Self {
        self.properties.push(ReplicatedProperty {
            path: path.into(),
            spawn,
            mode,
        });
        self
    }

    /// The properties, in order.
    pub fn properties(&self) -> &[ReplicatedProperty] {
        &self.properties
    }

    /// Index of the property at `path`.
    pub fn index_of(&self, path: &str) -> Option<usize> {
        self.properties.iter().position(|p| &*p.path == path)
    }
}

/// The declared nodes, shared by every session of a server.
#[derive(Debug, Default)]
pub struct Scene {
    pub(crate) nodes: Vec<Node>,
    pub(crate) by_path: Map<Arc<str>, NodeId>,
}

impl Scene {
    /// An empty scene.
    pub fn new() -> Self {
        Scene::default()
    }

    /// Declares a node; fails if the path is declared already or an RPC name repeats.
    pub fn add(&mut self, node: NodeConfig) -> Result<NodeId> {
        if self.by_path.contains_key(&node.path) {
            return Err(Error::from(ErrorKind::Invalid("node path declared twice")));
        }
        let id = NodeId(self.nodes.len() as u32);
        let node = Node::new(node)?;
        self.by_path.insert(node.path.clone(), id);
        self.nodes.push(node);
        Ok(id)
    }

    /// Declares a node, builder style.
    pub fn with(mut self, node: NodeConfig) -> Result<Self> {
        self.add(node)?;
        Ok(self)
    }

    /// The node declared at `path`.
    pub fn node_id(&self, path: &str) -> Option<NodeId> {
        self.by_path.get(path.trim_start_matches('/')).copied()
    }

    /// The path of a declared node.
    pub fn path(&self, node: NodeId) -> &str {
        &self.nodes[node.0 as usize].path
    }

    /// The RPC checksum of a declared node (what SIMPLIFY_PATH carries).
    pub fn checksum(&self, node: NodeId) -> &str {
        &self.nodes[node.0 as usize].checksum
    }

    /// The method id of `method` on `node`.
    pub fn method_id(&self, node: NodeId, method: &str) -> Option<u16> {
        let n = &self.nodes[node.0 as usize];
        n.by_name.get(method).map(|&i| n.methods[i].0)
    }

    pub(crate) fn get(&self, node: NodeId) -> &Node {
        &self.nodes[node.0 as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }
}
