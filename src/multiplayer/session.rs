//! Sans-IO SceneMultiplayer sessions: the state the engine keeps, fed with transport
//! events and packets, producing packets to send and events for the game.

use super::args::Args;
use super::error::{Error, Result};
use super::scene::{NodeId, ReplicationConfig, ReplicationMode, RpcMode, Scene, TransferMode};
use super::variant_io::{self, ArgsForm};
use super::wire::{self, Command, NodeField, NodeTarget, Sys};
use crate::Variant;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::ops::{Deref, DerefMut};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The server's peer id.
pub const SERVER_ID: i32 = 1;

/// Session options; the defaults are the engine's.
#[derive(Clone, Debug)]
pub struct Options {
    /// `SceneMultiplayer.server_relay`: announce peers to each other and relay between
    /// clients (default true).
    pub server_relay: bool,
    /// Whether `auth_callback` is set: peers stay pending until both sides complete auth.
    pub auth: bool,
    /// `auth_timeout` (default 3 s; zero = none).
    pub auth_timeout: Duration,
    /// How many path-cache entries one peer may announce (the engine has no limit; a
    /// hostile peer could otherwise grow the table without end).
    pub max_paths_per_peer: usize,
    /// How many spawned nodes a server may keep on a client session (same reason).
    pub max_spawned_per_peer: usize,
    /// `max_sync_packet_size` (default 1350).
    pub max_sync_packet_size: usize,
    /// `max_delta_packet_size` (default 65535).
    pub max_delta_packet_size: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            server_relay: true,
            auth: false,
            auth_timeout: Duration::from_secs(3),
            max_paths_per_peer: 4096,
            max_spawned_per_peer: 65536,
            max_sync_packet_size: 1350,
            max_delta_packet_size: 65535,
        }
    }
}

/// A packet for the transport to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmit {
    /// The transport peer (on a client, always 1).
    pub to: i32,
    /// The channel.
    pub channel: u8,
    /// The transfer mode.
    pub mode: TransferMode,
    /// The SceneMultiplayer packet.
    pub data: Vec<u8>,
}

/// What the session asks of its transport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// Send a packet.
    Send(Transmit),
    /// Close the link to this peer.
    Disconnect(i32),
}

/// A received RPC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RpcCall {
    /// The caller (`multiplayer.get_remote_sender_id()`): the transport peer, or the source
    /// of a relayed call.
    pub from: i32,
    /// The node.
    pub node: NodeId,
    /// The node's path.
    pub path: Arc<str>,
    /// The method.
    pub method: Arc<str>,
    /// The arguments.
    pub args: Args,
}

/// A node a server spawned, as a client sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpawnEvent {
    /// The spawner's authority that sent it.
    pub from: i32,
    /// The MultiplayerSpawner node.
    pub spawner: NodeId,
    /// The spawned node's network id.
    pub net_id: u32,
    /// Its name.
    pub name: String,
    /// Index of the spawnable scene, or 0xFF for a custom spawn.
    pub scene: u8,
    /// A custom spawn's argument.
    pub arg: Option<Variant>,
    /// Network ids of its synchronizers.
    pub sync_ids: Vec<u32>,
    /// The spawn properties, in config order.
    pub state: Vec<Variant>,
}

/// Synchronizer state as a client receives it.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncEvent {
    /// The authority that sent it.
    pub from: i32,
    /// The synchronizer's network id.
    pub net_id: u32,
    /// Delta sync: `indexes` says which "on change" properties `values` holds.
    pub delta: bool,
    /// Delta only: bit i = the i-th "on change" property.
    pub indexes: u64,
    /// The values.
    pub values: Vec<Variant>,
}

/// Something the game should know.
#[derive(Debug)]
#[non_exhaustive]
pub enum Event {
    /// A peer connected at transport level and auth started (`peer_authenticating`).
    PeerAuthenticating(i32),
    /// Auth data from a pending peer (the `auth_callback`).
    Auth {
        /// The peer.
        peer: i32,
        /// Its data.
        data: Vec<u8>,
    },
    /// A pending peer was dropped (`peer_authentication_failed`).
    AuthFailed(i32),
    /// A peer was admitted (`peer_connected`).
    PeerConnected(i32),
    /// A peer left (`peer_disconnected`).
    PeerDisconnected(i32),
    /// A client's link to the server is up and admitted (`connected_to_server`).
    ConnectedToServer,
    /// A client lost its server (`server_disconnected`).
    ServerDisconnected,
    /// An RPC.
    Call(RpcCall),
    /// `send_bytes` data (`peer_packet`).
    Bytes {
        /// The sender.
        from: i32,
        /// The bytes.
        data: Vec<u8>,
    },
    /// A node was spawned (client side).
    Spawn(SpawnEvent),
    /// A spawned node was despawned (client side).
    Despawn {
        /// The sender.
        from: i32,
        /// The node's network id.
        net_id: u32,
    },
    /// Synchronizer state (client side).
    Sync(SyncEvent),
    /// The peer's RPC checksum for a node differs from ours (the engine only logs this).
    ChecksumMismatch {
        /// The peer.
        peer: i32,
        /// The node's path.
        path: String,
    },
    /// A packet was refused and dropped, as the engine drops it.
    Refused {
        /// The peer it came from.
        from: i32,
        /// Why.
        error: Error,
    },
}

/// How far a node's path-cache id has got with one peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum PathState {
    #[default]
    NotSent,
    Sent,
    Confirmed,
}

#[derive(Debug)]
struct Pending {
    local: bool,
    remote: bool,
    since: Instant,
}

#[derive(Debug, Default)]
struct PeerState {
    /// Set while auth is in progress; `None` once admitted.
    pending: Option<Pending>,
    /// The peer's cache ids for our nodes.
    recv_paths: HashMap<u32, NodeId>,
    /// Our cache ids, by node, as far as this peer knows them.
    sent: Vec<PathState>,
    /// Server: the plain-sync frame counter toward this peer.
    sync_time: u16,
    /// Server: spawned nodes this peer was sent (by node net id).
    visible: Vec<u32>,
    /// Server: per synchronizer, the change version this peer last got in a delta.
    delta_seen: HashMap<u32, u64>,
    /// Client: nodes this peer spawned, with their synchronizer ids.
    spawned: HashMap<u32, Vec<u32>>,
    /// Client: synchronizers this peer sends, with the last plain-sync time seen.
    syncs: HashMap<u32, Option<u16>>,
}

/// The scene a spawned node goes into.
#[derive(Clone, Debug, PartialEq)]
pub enum SpawnScene {
    /// Index in the spawner's `_spawnable_scenes` list.
    Index(u8),
    /// Custom spawn: the spawner's `spawn_function` gets this argument.
    Custom(Variant),
}

/// One synchronizer of a spawned node: its config and its current values (one per
/// property, in config order).
#[derive(Clone, Debug)]
pub struct SyncSpec {
    /// The config, as the Godot side's MultiplayerSynchronizer has it.
    pub config: Arc<ReplicationConfig>,
    /// The values, one per property.
    pub values: Vec<Variant>,
}

#[derive(Debug)]
struct SyncState {
    net_id: u32,
    config: Arc<ReplicationConfig>,
    values: Vec<Variant>,
    /// Per property, the version at which it last changed.
    changed: Vec<u64>,
}

#[derive(Debug)]
struct SpawnedNode {
    net_id: u32,
    spawner: NodeId,
    name: String,
    scene: u8,
    arg: Option<Vec<u8>>,
    syncs: Vec<SyncState>,
}

/// The state both sides share; [`Server`] and [`Client`] add what is theirs.
#[derive(Debug)]
pub struct Session {
    scene: Arc<Scene>,
    opts: Options,
    is_server: bool,
    unique_id: i32,
    peers: BTreeMap<i32, PeerState>,
    /// Our cache id of each node (0 = none yet).
    cache_ids: Vec<u32>,
    /// Which node each of our cache ids names (id 1 is index 0).
    assigned: Vec<NodeId>,
    out: VecDeque<Output>,
    events: VecDeque<Event>,
    spawned: Vec<SpawnedNode>,
    last_net_id: u32,
    version: u64,
    scratch: Vec<u8>,
}

impl Session {
    fn new(scene: Arc<Scene>, opts: Options, is_server: bool) -> Self {
        let n = scene.len();
        Session {
            scene,
            opts,
            is_server,
            unique_id: if is_server { SERVER_ID } else { 0 },
            peers: BTreeMap::new(),
            cache_ids: vec![0; n],
            assigned: Vec::new(),
            out: VecDeque::new(),
            events: VecDeque::new(),
            spawned: Vec::new(),
            last_net_id: 0,
            version: 0,
            scratch: Vec::new(),
        }
    }

    /// The declared scene.
    pub fn scene(&self) -> &Arc<Scene> {
        &self.scene
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Our peer id (0 on a client before it connects).
    pub fn unique_id(&self) -> i32 {
        self.unique_id
    }

    /// The admitted peers (`multiplayer.get_peers()`).
    pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers
            .iter()
            .filter(|(_, p)| p.pending.is_none())
            .map(|(&id, _)| id)
    }

    /// Peers whose auth is in progress.
    pub fn authenticating_peers(&self) -> impl Iterator<Item = i32> + '_ {
        self.peers
            .iter()
            .filter(|(_, p)| p.pending.is_some())
            .map(|(&id, _)| id)
    }

    fn admitted(&self, peer: i32) -> bool {
        self.peers.get(&peer).is_some_and(|p| p.pending.is_none())
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// The next packet or disconnect for the transport, if any.
    pub fn poll_output(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// Whether outputs are waiting.
    pub fn has_output(&self) -> bool {
        !self.out.is_empty()
    }

    fn node_id(&self, path: &str) -> Result<NodeId> {
        self.scene
            .node_id(path)
            .ok_or_else(|| Error::UnknownNode(path.to_owned()))
    }

    // ----- transport events -----

    /// The transport linked `peer` (server: a client connected; client: use
    /// [`Client::connected`]).
    fn link_up(&mut self, peer: i32, now: Instant) {
        self.peers.insert(peer, PeerState::default());
        if self.opts.auth {
            self.peers.get_mut(&peer).expect("just inserted").pending = Some(Pending {
                local: false,
                remote: false,
                since: now,
            });
            self.events.push_back(Event::PeerAuthenticating(peer));
        } else {
            self.admit(peer);
        }
    }

    fn admit(&mut self, peer: i32) {
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, peer);
                self.push_send(other, 0, TransferMode::Reliable, buf);
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, other);
                self.push_send(peer, 0, TransferMode::Reliable, buf);
            }
        }
        self.peers.entry(peer).or_default().pending = None;
        if self.is_server {
            self.show_spawned_to(peer);
        }
        if peer == SERVER_ID {
            self.events.push_back(Event::ConnectedToServer);
        }
        self.events.push_back(Event::PeerConnected(peer));
    }

    /// Forgets `peer`; `notify` emits the engine's signals.
    fn drop_peer(&mut self, peer: i32, notify: bool) {
        let Some(state) = self.peers.get(&peer) else {
            return;
        };
        if state.pending.is_some() {
            self.peers.remove(&peer);
            if notify {
                self.events.push_back(Event::AuthFailed(peer));
            }
            return;
        }
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, false, peer);
                self.push_send(other, 0, TransferMode::Reliable, buf);
            }
        }
        self.peers.remove(&peer);
        if notify {
            self.events.push_back(Event::PeerDisconnected(peer));
        }
    }

    /// A packet arrived from transport peer `from`.
    pub fn receive(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
        now: Instant,
    ) {
        if let Err(error) = self.receive_inner(from, channel, mode, packet, now) {
            self.events.push_back(Event::Refused { from, error });
        }
    }

    fn receive_inner(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
        _now: Instant,
    ) -> Result<()> {
        let Some(peer) = self.peers.get_mut(&from) else {
            return Err(Error::UnknownPeer(from));
        };
        let is_sys = packet
            .first()
            .is_some_and(|b| b & wire::cmd::MASK == wire::cmd::SYS);
        if let Some(pending) = &mut peer.pending {
            if !is_sys || packet.len() < 2 || packet[1] != wire::sys::AUTH {
                return Err(Error::NotAllowed("only auth packets before auth completes"));
            }
            let data = &packet[2..];
            if !data.is_empty() {
                self.events.push_back(Event::Auth {
                    peer: from,
                    data: data.to_vec(),
                });
            } else {
                pending.remote = true;
                if pending.local {
                    self.admit(from);
                }
            }
            return Ok(());
        }
        if is_sys {
            if packet.len() > 1 && packet[1] == wire::sys::AUTH {
                // An admitted peer's late "completed" is fine; auth data is not.
                return if packet.len() == 2 {
                    Ok(())
                } else {
                    Err(Error::NotAllowed("auth data after auth completed"))
                };
            }
            return self.process_sys(from, channel, mode, packet);
        }
        self.process(from, packet)
    }

    fn process_sys(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<()> {
        match wire::parse_sys(packet)? {
            Sys::Auth(_) => Ok(()),
            Sys::AddPeer(peer) | Sys::DelPeer(peer) => {
                if self.is_server || !self.opts.server_relay || from != SERVER_ID {
                    return Err(Error::NotAllowed("peer announcements come from the server"));
                }
                if packet[1] == wire::sys::ADD_PEER {
                    if peer <= SERVER_ID || peer == self.unique_id || self.peers.contains_key(&peer)
                    {
                        return Err(Error::Invalid("announced peer id"));
                    }
                    self.admit(peer);
                } else {
                    if peer == SERVER_ID {
                        return Err(Error::Invalid("announced peer id"));
                    }
                    self.drop_peer(peer, true);
                }
                Ok(())
            }
            Sys::Relay { peer, inner } => {
                if !self.opts.server_relay {
                    return Err(Error::NotAllowed("relay is off"));
                }
                if inner[0] & wire::cmd::MASK == wire::cmd::SYS {
                    // The engine forwards it and every receiver refuses it; we stop it here.
                    return Err(Error::NotAllowed("relayed sys packet"));
                }
                if !self.is_server {
                    if from != SERVER_ID {
                        return Err(Error::NotAllowed("relay from a client"));
                    }
                    return self.process(peer, inner);
                }
                if peer > 0 && !self.admitted(peer) {
                    return Ok(()); // The target left while the packet was in transit.
                }
                let mut buf = Vec::with_capacity(inner.len() + 6);
                wire::put_relay(&mut buf, from, inner);
                if peer > 0 {
                    self.push_send(peer, channel, mode, buf);
                    return Ok(());
                }
                let targets: Vec<i32> = self.peers().filter(|&p| p != from && p != -peer).collect();
                for t in targets {
                    self.push_send(t, channel, mode, buf.clone());
                }
                if peer != -1 {
                    self.process(from, inner)?;
                }
                Ok(())
            }
        }
    }

    /// Handles a non-SYS packet from `from` (a transport peer or a relay source).
    fn process(&mut self, from: i32, packet: &[u8]) -> Result<()> {
        if !self.admitted(from) {
            return Err(Error::UnknownPeer(from));
        }
        match wire::parse(packet)? {
            Command::RemoteCall(call) => {
                let node = match call.target {
                    NodeTarget::Cached(id) => *self.peers[&from]
                        .recv_paths
                        .get(&id)
                        .ok_or_else(|| Error::UnknownNode(format!("cache id {id}")))?,
                    NodeTarget::Path(path) => self.node_id(path)?,
                };
                let n = self.scene.get(node);
                let rpc = n
                    .method_by_id(call.method)
                    .ok_or_else(|| Error::UnknownMethod {
                        node: n.path.to_string(),
                        method: format!("#{}", call.method),
                    })?;
                let allowed = match rpc.mode {
                    RpcMode::Disabled => false,
                    RpcMode::AnyPeer => true,
                    RpcMode::Authority => from == n.authority,
                };
                if !allowed {
                    return Err(Error::NotAllowed("the RPC's mode refuses this caller"));
                }
                self.events.push_back(Event::Call(RpcCall {
                    from,
                    node,
                    path: n.path.clone(),
                    method: rpc.name.clone(),
                    args: Args {
                        form: call.form,
                        bytes: call.args.to_vec(),
                    },
                }));
                Ok(())
            }
            Command::SimplifyPath {
                checksum,
                cache_id,
                path,
            } => {
                let max = self.opts.max_paths_per_peer;
                let node = self.node_id(path)?;
                let peer = self.peers.get_mut(&from).ok_or(Error::UnknownPeer(from))?;
                if peer.recv_paths.contains_key(&cache_id) {
                    return Err(Error::Invalid("duplicate path cache id"));
                }
                if peer.recv_paths.len() >= max {
                    return Err(Error::Limit("path cache entries per peer"));
                }
                peer.recv_paths.insert(cache_id, node);
                let valid = checksum == self.scene.checksum(node).as_bytes();
                if !valid {
                    self.events.push_back(Event::ChecksumMismatch {
                        peer: from,
                        path: path.to_owned(),
                    });
                }
                let mut buf = Vec::with_capacity(6);
                wire::put_confirm_path(&mut buf, valid, cache_id);
                self.send_command(from, 0, TransferMode::Reliable, buf);
                Ok(())
            }
            Command::ConfirmPath { valid, cache_id } => {
                let Some(&node) = (cache_id as usize)
                    .checked_sub(1)
                    .and_then(|i| self.assigned.get(i))
                else {
                    return Ok(()); // The engine ignores confirmations of unknown ids.
                };
                let peer = self.peers.get_mut(&from).ok_or(Error::UnknownPeer(from))?;
                match peer.sent.get_mut(node.0 as usize) {
                    Some(s @ (PathState::Sent | PathState::Confirmed)) => *s = PathState::Confirmed,
                    _ => return Err(Error::Invalid("confirmation of a path never sent")),
                }
                if !valid {
                    self.events.push_back(Event::ChecksumMismatch {
                        peer: from,
                        path: self.scene.path(node).to_owned(),
                    });
                }
                Ok(())
            }
            Command::Raw(data) => {
                self.events.push_back(Event::Bytes {
                    from,
                    data: data.to_vec(),
                });
                Ok(())
            }
            Command::Spawn(spawn) => {
                let max = self.opts.max_spawned_per_peer;
                let peer = self.peers.get_mut(&from).ok_or(Error::UnknownPeer(from))?;
                let spawner = *peer
                    .recv_paths
                    .get(&spawn.spawner)
                    .ok_or_else(|| Error::UnknownNode(format!("cache id {}", spawn.spawner)))?;
                if self.scene.get(spawner).authority != from {
                    return Err(Error::NotAllowed(
                        "spawn from a peer that is not the spawner's authority",
                    ));
                }
                if peer.spawned.contains_key(&spawn.net_id) {
                    return Err(Error::Invalid("net id already spawned"));
                }
                if peer.spawned.len() >= max {
                    return Err(Error::Limit("spawned nodes per peer"));
                }
                let arg = match spawn.arg {
                    Some(a) => Some(variant_io::decode_compressed(a)?.0),
                    None => None,
                };
                let state = variant_io::decode_all_values(spawn.state)?;
                let sync_ids: Vec<u32> = spawn.sync_ids().collect();
                for &id in &sync_ids {
                    peer.syncs.insert(id, None);
                }
                peer.spawned.insert(spawn.net_id, sync_ids.clone());
                self.events.push_back(Event::Spawn(SpawnEvent {
                    from,
                    spawner,
                    net_id: spawn.net_id,
                    name: spawn.name.to_owned(),
                    scene: spawn.scene,
                    arg,
                    sync_ids,
                    state,
                }));
                Ok(())
            }
            Command::Despawn { net_id } => {
                let peer = self.peers.get_mut(&from).ok_or(Error::UnknownPeer(from))?;
                let syncs = peer.spawned.remove(&net_id).ok_or(Error::NotAllowed(
                    "despawn of a node this peer did not spawn",
                ))?;
                for id in syncs {
                    peer.syncs.remove(&id);
                }
                self.events.push_back(Event::Despawn { from, net_id });
                Ok(())
            }
            Command::Sync(sync) => {
                let mut found = Vec::new();
                {
                    let peer = self.peers.get_mut(&from).ok_or(Error::UnknownPeer(from))?;
                    for entry in sync.entries() {
                        let entry = entry?;
                        let Some(last) = peer.syncs.get_mut(&entry.net_id) else {
                            continue; // Unknown synchronizer: the engine skips it too.
                        };
                        if !sync.delta {
                            // Drop state older than the newest seen (wrapping compare).
                            if let Some(l) = *last {
                                if sync.time <= l && l - sync.time < 32767 {
                                    continue;
                                }
                            }
                            *last = Some(sync.time);
                        }
                        found.push((entry.net_id, entry.indexes, entry.state));
                    }
                }
                for (net_id, indexes, state) in found {
                    let values = variant_io::decode_all_values(state)?;
                    self.events.push_back(Event::Sync(SyncEvent {
                        from,
                        net_id,
                        delta: sync.delta,
                        indexes,
                        values,
                    }));
                }
                Ok(())
            }
            Command::Sys(_) => Err(Error::Invalid("sys packet where a command was expected")),
        }
    }

    // ----- sending -----

    fn push_send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        self.out.push_back(Output::Send(Transmit {
            to,
            channel,
            mode,
            data,
        }));
    }

    /// Sends `packet` to `to` as the engine's `send_command` does: a client wraps
    /// everything not meant for the server in a RELAY to the server.
    fn send_command(&mut self, to: i32, channel: u8, mode: TransferMode, packet: Vec<u8>) {
        if !self.is_server && self.opts.server_relay && to != SERVER_ID {
            let mut buf = Vec::with_capacity(packet.len() + 6);
            wire::put_relay(&mut buf, to, &packet);
            self.push_send(SERVER_ID, channel, mode, buf);
        } else if to > 0 {
            self.push_send(to, channel, mode, packet);
        } else {
            let targets: Vec<i32> = self.peers().filter(|&p| to == 0 || p != -to).collect();
            for t in targets {
                self.push_send(t, channel, mode, packet.clone());
            }
        }
    }

    fn ensure_cache_id(&mut self, node: NodeId) -> u32 {
        let slot = &mut self.cache_ids[node.0 as usize];
        if *slot == 0 {
            self.assigned.push(node);
            *slot = self.assigned.len() as u32;
        }
        *slot
    }

    /// Sends SIMPLIFY_PATH to `peer` if it never got one for `node`; returns whether the
    /// peer confirmed the path.
    fn send_path(&mut self, node: NodeId, peer: i32) -> bool {
        let id = self.ensure_cache_id(node);
        let n = self.scene.len();
        let Some(state) = self.peers.get_mut(&peer) else {
            return false;
        };
        if state.sent.len() < n {
            state.sent.resize(n, PathState::NotSent);
        }
        let s = &mut state.sent[node.0 as usize];
        match *s {
            PathState::Confirmed => true,
            PathState::Sent => false,
            PathState::NotSent => {
                *s = PathState::Sent;
                let mut buf = Vec::new();
                let node_ref = self.scene.get(node);
                wire::put_simplify_path(&mut buf, &node_ref.checksum, id, &node_ref.path);
                self.send_command(peer, 0, TransferMode::Reliable, buf);
                false
            }
        }
    }

    fn call_targets(&self, to: i32) -> Result<Vec<i32>> {
        if to > 0 {
            if to == self.unique_id {
                return Err(Error::NotAllowed("an RPC to ourselves"));
            }
            if !self.admitted(to) {
                return Err(Error::UnknownPeer(to));
            }
            return Ok(vec![to]);
        }
        if to < 0 && -to != self.unique_id && !self.admitted(-to) {
            return Err(Error::UnknownPeer(-to));
        }
        Ok(self.peers().filter(|&p| to == 0 || p != -to).collect())
    }

    /// Calls `method` on `node` at peer `to` (0 = every peer, `-id` = every peer but
    /// `id`), with arguments already in wire form.
    pub fn call_args(&mut self, to: i32, node: NodeId, method: &str, args: &Args) -> Result<()> {
        let n = self.scene.get(node);
        let (id, rpc) = n
            .by_name
            .get(method)
            .map(|&i| (n.methods[i].0, &n.methods[i].1))
            .ok_or_else(|| Error::UnknownMethod {
                node: n.path.to_string(),
                method: method.to_owned(),
            })?;
        let (channel, mode) = (rpc.channel, rpc.transfer);
        self.send_call(to, node, id, channel, mode, args.form, &args.bytes)
    }

    #[allow(clippy::too_many_arguments)]
    fn send_call(
        &mut self,
        to: i32,
        node: NodeId,
        method: u16,
        channel: u8,
        mode: TransferMode,
        form: ArgsForm,
        args: &[u8],
    ) -> Result<()> {
        let targets = self.call_targets(to)?;
        if targets.is_empty() {
            return Ok(());
        }
        let mut all_confirmed = true;
        for &t in &targets {
            all_confirmed &= self.send_path(node, t);
        }
        let id = self.cache_ids[node.0 as usize];
        let path = self.scene.get(node).path.clone();
        let mut buf = std::mem::take(&mut self.scratch);
        buf.clear();
        if all_confirmed {
            wire::put_remote_call(&mut buf, NodeField::Compact(id), method, form, args, "");
            for &t in &targets {
                self.send_command(t, channel, mode, buf.clone());
            }
        } else {
            let mut full = Vec::new();
            wire::put_remote_call(&mut buf, NodeField::Wide(id), method, form, args, "");
            wire::put_remote_call(&mut full, NodeField::Path, method, form, args, &path);
            for &t in &targets {
                let confirmed =
                    self.peers[&t].sent.get(node.0 as usize) == Some(&PathState::Confirmed);
                let packet = if confirmed { buf.clone() } else { full.clone() };
                self.send_command(t, channel, mode, packet);
            }
        }
        self.scratch = buf;
        Ok(())
    }

    /// `rpc_id(to, ...)`: calls `method` on the node at `path` at peer `to` (0 = all, `-id`
    /// = all but `id`). `args` is a tuple (or anything [`Args::new`] takes).
    pub fn rpc_id<T: Serialize + ?Sized>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &T,
    ) -> Result<()> {
        let node = self.node_id(path)?;
        let args = Args::new(args)?;
        self.call_args(to, node, method, &args)
    }

    /// `rpc(...)`: calls `method` on every admitted peer.
    pub fn rpc<T: Serialize + ?Sized>(&mut self, path: &str, method: &str, args: &T) -> Result<()> {
        self.rpc_id(0, path, method, args)
    }

    /// `send_bytes(data, to, mode, channel)` (to: 0 = all, `-id` = all but `id`).
    pub fn send_bytes(
        &mut self,
        to: i32,
        data: &[u8],
        mode: TransferMode,
        channel: u8,
    ) -> Result<()> {
        if data.is_empty() {
            return Err(Error::Invalid("empty raw packet"));
        }
        if to > 0 && !self.admitted(to) {
            return Err(Error::UnknownPeer(to));
        }
        let mut buf = Vec::with_capacity(data.len() + 1);
        wire::put_raw(&mut buf, data);
        self.send_command(to, channel, mode, buf);
        Ok(())
    }

    /// `send_auth(peer, data)`: auth data to a pending peer.
    pub fn send_auth(&mut self, peer: i32, data: &[u8]) -> Result<()> {
        let p = self
            .peers
            .get(&peer)
            .and_then(|p| p.pending.as_ref())
            .ok_or(Error::UnknownPeer(peer))?;
        if data.is_empty() {
            return Err(Error::Invalid("empty auth data"));
        }
        if p.local || p.remote {
            return Err(Error::NotAllowed("auth already completed"));
        }
        let mut buf = Vec::with_capacity(data.len() + 2);
        wire::put_auth(&mut buf, data);
        self.push_send(peer, 0, TransferMode::Reliable, buf);
        Ok(())
    }

    /// `complete_auth(peer)`: our side accepts; the peer is admitted once it completes too.
    pub fn complete_auth(&mut self, peer: i32) -> Result<()> {
        let p = self
            .peers
            .get_mut(&peer)
            .and_then(|p| p.pending.as_mut())
            .ok_or(Error::UnknownPeer(peer))?;
        if p.local {
            return Err(Error::NotAllowed("auth already completed"));
        }
        p.local = true;
        let remote = p.remote;
        let mut buf = Vec::with_capacity(2);
        wire::put_auth(&mut buf, &[]);
        self.push_send(peer, 0, TransferMode::Reliable, buf);
        if remote {
            self.admit(peer);
        }
        Ok(())
    }

    /// Drops pending peers whose auth took longer than the timeout, and (server) sends
    /// the replication state of this network frame. Call it every network frame.
    pub fn tick(&mut self, now: Instant) {
        if !self.opts.auth_timeout.is_zero() {
            let timeout = self.opts.auth_timeout;
            let late: Vec<i32> = self
                .peers
                .iter()
                .filter(|(_, p)| {
                    p.pending
                        .as_ref()
                        .is_some_and(|p| now.saturating_duration_since(p.since) >= timeout)
                })
                .map(|(&id, _)| id)
                .collect();
            for id in late {
                self.out.push_back(Output::Disconnect(id));
                self.drop_peer(id, true);
            }
        }
        if self.is_server {
            self.send_sync();
        }
    }

    // ----- replication (server authority) -----

    fn spawn_packet(&self, node: &SpawnedNode, spawner_cache_id: u32) -> Result<Vec<u8>> {
        let mut state = Vec::new();
        for s in &node.syncs {
            for (p, v) in s.config.properties.iter().zip(&s.values) {
                if p.spawn {
                    variant_io::encode_compressed(v, &mut state)?;
                }
            }
        }
        let ids: Vec<u32> = node.syncs.iter().map(|s| s.net_id).collect();
        let mut buf = Vec::new();
        wire::put_spawn(
            &mut buf,
            node.scene,
            spawner_cache_id,
            node.net_id,
            &ids,
            &node.name,
            node.arg.as_deref(),
            &state,
        );
        Ok(buf)
    }

    fn show_spawned_to(&mut self, peer: i32) {
        for i in 0..self.spawned.len() {
            let spawner = self.spawned[i].spawner;
            self.send_path(spawner, peer);
            let id = self.cache_ids[spawner.0 as usize];
            if let Ok(buf) = self.spawn_packet(&self.spawned[i], id) {
                self.push_send(peer, 0, TransferMode::Reliable, buf);
                let net_id = self.spawned[i].net_id;
                if let Some(p) = self.peers.get_mut(&peer) {
                    p.visible.push(net_id);
                }
            }
        }
    }

    fn send_sync(&mut self) {
        let peers: Vec<i32> = self.peers().collect();
        for peer in peers {
            let visible = std::mem::take(&mut self.peers.get_mut(&peer).expect("admitted").visible);
            let has_sync = visible.iter().any(|id| {
                self.spawned
                    .iter()
                    .any(|n| n.net_id == *id && !n.syncs.is_empty())
            });
            if has_sync {
                let time = {
                    let p = self.peers.get_mut(&peer).expect("admitted");
                    p.sync_time = p.sync_time.wrapping_add(1);
                    p.sync_time
                };
                self.sync_to(peer, time, &visible);
            }
            self.peers.get_mut(&peer).expect("admitted").visible = visible;
        }
    }

    fn sync_to(&mut self, peer: i32, time: u16, visible: &[u32]) {
        let max_sync = self.opts.max_sync_packet_size;
        let max_delta = self.opts.max_delta_packet_size;
        let mut plain = Vec::new();
        wire::put_sync_header(&mut plain, time);
        let mut delta = Vec::new();
        wire::put_delta_header(&mut delta);
        let mut state = Vec::new();
        for node in self.spawned.iter().filter(|n| visible.contains(&n.net_id)) {
            for s in &node.syncs {
                state.clear();
                for (p, v) in s.config.properties.iter().zip(&s.values) {
                    if p.mode == ReplicationMode::Always
                        && variant_io::encode_compressed(v, &mut state).is_err()
                    {
                        state.clear();
                        break;
                    }
                }
                if !state.is_empty() && 8 + state.len() + 3 <= max_sync {
                    if plain.len() + 8 + state.len() > max_sync {
                        let full = std::mem::take(&mut plain);
                        self.out.push_back(Output::Send(Transmit {
                            to: peer,
                            channel: 0,
                            mode: TransferMode::Unreliable,
                            data: full,
                        }));
                        wire::put_sync_header(&mut plain, time);
                    }
                    wire::put_sync_entry(&mut plain, s.net_id, &state);
                }
                let seen = self
                    .peers
                    .get(&peer)
                    .and_then(|p| p.delta_seen.get(&s.net_id).copied())
                    .unwrap_or(0);
                let mut indexes = 0u64;
                state.clear();
                let watched = s
                    .config
                    .properties
                    .iter()
                    .zip(&s.values)
                    .zip(&s.changed)
                    .filter(|((p, _), _)| p.mode == ReplicationMode::OnChange);
                for (i, ((_, v), &changed)) in watched.enumerate().take(64) {
                    if changed > seen && variant_io::encode_compressed(v, &mut state).is_ok() {
                        indexes |= 1 << i;
                    }
                }
                if indexes != 0 && 16 + state.len() < max_delta {
                    if delta.len() + 16 + state.len() > max_delta {
                        let full = std::mem::take(&mut delta);
                        self.out.push_back(Output::Send(Transmit {
                            to: peer,
                            channel: 0,
                            mode: TransferMode::Reliable,
                            data: full,
                        }));
                        wire::put_delta_header(&mut delta);
                    }
                    wire::put_delta_entry(&mut delta, s.net_id, indexes, &state);
                }
                let version = s.changed.iter().copied().max().unwrap_or(0);
                if let Some(p) = self.peers.get_mut(&peer) {
                    p.delta_seen.insert(s.net_id, version);
                }
            }
        }
        if plain.len() > 3 {
            self.push_send(peer, 0, TransferMode::Unreliable, plain);
        }
        if delta.len() > 1 {
            self.push_send(peer, 0, TransferMode::Reliable, delta);
        }
    }
}

/// The server side of SceneMultiplayer (peer id 1).
///
/// ```
/// use godot_bin::multiplayer::{Event, NodeConfig, Options, Output, Rpc, Scene, Server, TransferMode};
/// use std::{sync::Arc, time::Instant};
///
/// let scene = Scene::new().with(NodeConfig::new("Echo").rpc(Rpc::any_peer("echo")))?;
/// let mut server = Server::new(Arc::new(scene), Options::default());
/// let now = Instant::now();
/// server.peer_connected(7, now)?;
/// // The client calls echo("hi") by path: REMOTE_CALL, full-path form.
/// let mut call = Vec::new();
/// godot_bin::multiplayer::wire::put_remote_call(
///     &mut call,
///     godot_bin::multiplayer::wire::NodeField::Path,
///     0,
///     godot_bin::multiplayer::ArgsForm::Values(1),
///     &godot_bin::multiplayer::Args::new(&("hi",))?.as_bytes(),
///     "Echo",
/// );
/// server.receive(7, 0, TransferMode::Reliable, &call, now);
/// while let Some(event) = server.poll_event() {
///     if let Event::Call(c) = event {
///         let (text,): (String,) = c.args.decode()?;
///         assert_eq!(text, "hi");
///         server.call_args(c.from, c.node, &c.method, &c.args)?; // answer in kind
///     }
/// }
/// assert!(matches!(server.poll_output(), Some(Output::Send(_)))); // SIMPLIFY_PATH
/// # Ok::<(), godot_bin::multiplayer::Error>(())
/// ```
#[derive(Debug)]
pub struct Server(Session);

impl Server {
    /// A server session over `scene`.
    pub fn new(scene: Arc<Scene>, opts: Options) -> Self {
        Server(Session::new(scene, opts, true))
    }

    /// A client linked at transport level (WebSocket handshake done / ENet connected).
    /// Fails for ids the engine refuses (below 2, or in use); the transport should then
    /// close the link.
    pub fn peer_connected(&mut self, peer: i32, now: Instant) -> Result<()> {
        if peer <= SERVER_ID || self.0.peers.contains_key(&peer) {
            return Err(Error::Invalid("peer id below 2 or in use"));
        }
        self.0.link_up(peer, now);
        Ok(())
    }

    /// Whether `peer` is linked (pending or admitted).
    pub fn has_peer(&self, peer: i32) -> bool {
        self.0.peers.contains_key(&peer)
    }

    /// The transport lost `peer`.
    pub fn peer_disconnected(&mut self, peer: i32) {
        self.0.drop_peer(peer, true);
    }

    /// `multiplayer.disconnect_peer(id)`: announce and drop the peer (no
    /// `PeerDisconnected` event, as the engine blocks its signals), then ask the transport
    /// to close the link.
    pub fn disconnect_peer(&mut self, peer: i32) {
        self.0.drop_peer(peer, false);
        self.0.out.push_back(Output::Disconnect(peer));
    }

    /// Spawns a node under the MultiplayerSpawner `spawner` on every admitted peer (and
    /// later ones), with its synchronizers. Returns the node's network id.
    pub fn spawn(
        &mut self,
        spawner: &str,
        name: &str,
        scene: SpawnScene,
        syncs: Vec<SyncSpec>,
    ) -> Result<u32> {
        let spawner = self.0.node_id(spawner)?;
        if !wire::valid_node_name(name) {
            return Err(Error::Invalid("invalid node name"));
        }
        let (scene, arg) = match scene {
            SpawnScene::Index(i) if i != wire::SPAWN_CUSTOM => (i, None),
            SpawnScene::Index(_) => return Err(Error::Invalid("scene index 255 means custom")),
            SpawnScene::Custom(v) => {
                let mut a = Vec::new();
                variant_io::encode_compressed(&v, &mut a)?;
                (wire::SPAWN_CUSTOM, Some(a))
            }
        };
        for s in &syncs {
            if s.values.len() != s.config.properties.len() {
                return Err(Error::Invalid("one value per replicated property"));
            }
        }
        let s = &mut self.0;
        s.last_net_id += 1;
        let net_id = s.last_net_id;
        s.version += 1;
        let version = s.version;
        let syncs = syncs
            .into_iter()
            .map(|spec| {
                s.last_net_id += 1;
                SyncState {
                    net_id: s.last_net_id,
                    changed: vec![version; spec.values.len()],
                    config: spec.config,
                    values: spec.values,
                }
            })
            .collect();
        s.spawned.push(SpawnedNode {
            net_id,
            spawner,
            name: name.to_owned(),
            scene,
            arg,
            syncs,
        });
        let targets: Vec<i32> = s.peers().collect();
        let id = s.ensure_cache_id(spawner);
        let packet = s.spawn_packet(s.spawned.last().expect("just pushed"), id)?;
        for t in targets {
            s.send_path(spawner, t);
            s.push_send(t, 0, TransferMode::Reliable, packet.clone());
            if let Some(p) = s.peers.get_mut(&t) {
                p.visible.push(net_id);
            }
        }
        Ok(net_id)
    }

    /// Sets a replicated property of a spawned node (its `i`-th synchronizer's property at
    /// `path`); it goes out with the next [`tick`](Session::tick).
    pub fn set_property(&mut self, net_id: u32, path: &str, value: Variant) -> Result<()> {
        let s = &mut self.0;
        s.version += 1;
        let version = s.version;
        let node = s
            .spawned
            .iter_mut()
            .find(|n| n.net_id == net_id)
            .ok_or(Error::Invalid("no spawned node with this net id"))?;
        for sync in &mut node.syncs {
            if let Some(i) = sync.config.index_of(path) {
                if sync.values[i] != value {
                    sync.values[i] = value;
                    sync.changed[i] = version;
                }
                return Ok(());
            }
        }
        Err(Error::Invalid("no replicated property at this path"))
    }

    /// Despawns a spawned node on every peer that has it.
    pub fn despawn(&mut self, net_id: u32) -> Result<()> {
        let s = &mut self.0;
        let i = s
            .spawned
            .iter()
            .position(|n| n.net_id == net_id)
            .ok_or(Error::Invalid("no spawned node with this net id"))?;
        let node = s.spawned.remove(i);
        let mut buf = Vec::with_capacity(5);
        wire::put_despawn(&mut buf, net_id);
        let targets: Vec<i32> = s
            .peers
            .iter_mut()
            .filter_map(|(&id, p)| {
                let before = p.visible.len();
                p.visible.retain(|&v| v != net_id);
                for sync in &node.syncs {
                    p.delta_seen.remove(&sync.net_id);
                }
                (p.visible.len() != before).then_some(id)
            })
            .collect();
        for t in targets {
            s.push_send(t, 0, TransferMode::Reliable, buf.clone());
        }
        Ok(())
    }
}

impl Deref for Server {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.0
    }
}

impl DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.0
    }
}

/// The client side of SceneMultiplayer: one link, to the server (peer 1); other clients
/// are reached through the server's relay.
#[derive(Debug)]
pub struct Client(Session);

impl Client {
    /// A client session over `scene`.
    pub fn new(scene: Arc<Scene>, opts: Options) -> Self {
        Client(Session::new(scene, opts, false))
    }

    /// The transport connected to the server and we have our id (WebSocket: the server's
    /// id message; ENet: the id we chose).
    pub fn connected(&mut self, unique_id: i32, now: Instant) -> Result<()> {
        if unique_id <= SERVER_ID {
            return Err(Error::Invalid("client id below 2"));
        }
        if self.0.peers.contains_key(&SERVER_ID) {
            return Err(Error::Invalid("already connected"));
        }
        self.0.unique_id = unique_id;
        self.0.link_up(SERVER_ID, now);
        Ok(())
    }

    /// The transport lost the server: every peer and cache is forgotten, as the engine's
    /// `clear()` does.
    pub fn disconnected(&mut self) {
        let was = self.0.peers.contains_key(&SERVER_ID);
        let scene = self.0.scene.clone();
        let opts = self.0.opts.clone();
        let events = std::mem::take(&mut self.0.events);
        self.0 = Session::new(scene, opts, false);
        self.0.events = events;
        if was {
            self.0.events.push_back(Event::ServerDisconnected);
        }
    }
}

impl Deref for Client {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.0
    }
}

impl DerefMut for Client {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.0
    }
}
