//! Replication under server authority: spawning and despawning nodes on clients
//! (MultiplayerSpawner) and sending synchronizer state (MultiplayerSynchronizer), plain and
//! delta, each network frame; and, on a client, the same received.

use super::io::{SpawnEvent, SyncEvent};
use super::outbox::Outbox;
use super::{Event, Multiplayer, Server};
use crate::error::{Error, ErrorKind, Result};
use crate::map::Map;
use crate::scene::{NodeId, ReplicationConfig, ReplicationMode, TransferMode};
use crate::variant_io;
use crate::wire::{self, Spawn, SyncPacket};
use godot_bin::Variant;
use std::sync::Arc;

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

/// What a server spawned, with its synchronizers' state.
#[derive(Debug, Default)]
pub(super) struct Replication {
    spawned: Vec<SpawnedNode>,
    last_net_id: u32,
    /// Counts changes: each property keeps the version at which it last changed.
    version: u64,
}

impl Replication {
    fn next_net_id(&mut self) -> u32 {
        self.last_net_id += 1;
        self.last_net_id
    }

    fn next_version(&mut self) -> u64 {
        self.version += 1;
        self.version
    }
}

/// What was replicated with one peer: to it (server) or by it (client).
#[derive(Debug, Default)]
pub(super) struct PeerReplication {
    /// Server: the plain-sync frame counter toward this peer.
    pub(super) sync_time: u16,
    /// Server: spawned nodes this peer was sent (by node net id).
    visible: Vec<u32>,
    /// Server: per synchronizer, the change version this peer last got in a delta.
    delta_seen: Map<u32, u64>,
    /// Client: nodes this peer spawned, with their synchronizer ids.
    spawned: Map<u32, Vec<u32>>,
    /// Client: synchronizers this peer sends, with the last plain-sync time seen.
    syncs: Map<u32, Option<u16>>,
}

/// One network frame's synchronizer packets to one peer: plain state (unreliable, each
/// packet at most `max_sync_packet_size`) and delta state (reliable, at most
/// `max_delta_packet_size`), a packet sent whenever the next entry would overflow it.
struct SyncFrame {
    peer: i32,
    time: u16,
    max_sync: usize,
    max_delta: usize,
    plain: Vec<u8>,
    delta: Vec<u8>,
    /// One synchronizer's encoded values.
    state: Vec<u8>,
}

impl SyncFrame {
    fn new(peer: i32, time: u16, max_sync: usize, max_delta: usize) -> Self {
        let mut plain = Vec::new();
        wire::put_sync_header(&mut plain, time);
        let mut delta = Vec::new();
        wire::put_delta_header(&mut delta);
        SyncFrame {
            peer,
            time,
            max_sync,
            max_delta,
            plain,
            delta,
            state: Vec::new(),
        }
    }

    /// The synchronizer's "always" properties, if they encode and fit a packet.
    fn add_plain(&mut self, s: &SyncState, out: &mut Outbox) {
        self.state.clear();
        for (p, v) in s.config.properties.iter().zip(&s.values) {
            if p.mode == ReplicationMode::Always
                && variant_io::encode_compressed(v, &mut self.state).is_err()
            {
                self.state.clear();
                break;
            }
        }
        let (state, max) = (&self.state, self.max_sync);
        if state.is_empty() || 8 + state.len() + 3 > max {
            return;
        }
        if self.plain.len() + 8 + state.len() > max {
            let full = std::mem::take(&mut self.plain);
            out.send(self.peer, 0, TransferMode::Unreliable, full);
            wire::put_sync_header(&mut self.plain, self.time);
        }
        wire::put_sync_entry(&mut self.plain, s.net_id, &self.state);
    }

    /// The synchronizer's "on change" properties changed since version `seen` (the first
    /// 64); returns the version the peer has now.
    fn add_delta(&mut self, s: &SyncState, seen: u64, out: &mut Outbox) -> u64 {
        let mut indexes = 0u64;
        self.state.clear();
        let watched = s
            .config
            .properties
            .iter()
            .zip(&s.values)
            .zip(&s.changed)
            .filter(|((p, _), _)| p.mode == ReplicationMode::OnChange);
        for (i, ((_, v), &changed)) in watched.enumerate().take(64) {
            if changed > seen && variant_io::encode_compressed(v, &mut self.state).is_ok() {
                indexes |= 1 << i;
            }
        }
        let (len, max) = (self.state.len(), self.max_delta);
        if indexes != 0 && 16 + len < max {
            if self.delta.len() + 16 + len > max {
                let full = std::mem::take(&mut self.delta);
                out.send(self.peer, 0, TransferMode::Reliable, full);
                wire::put_delta_header(&mut self.delta);
            }
            wire::put_delta_entry(&mut self.delta, s.net_id, indexes, &self.state);
        }
        s.changed.iter().copied().max().unwrap_or(0)
    }

    /// Sends what is left.
    fn finish(self, out: &mut Outbox) {
        if self.plain.len() > 3 {
            out.send(self.peer, 0, TransferMode::Unreliable, self.plain);
        }
        if self.delta.len() > 1 {
            out.send(self.peer, 0, TransferMode::Reliable, self.delta);
        }
    }
}

impl Multiplayer {
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

    /// A peer just admitted gets every node spawned so far.
    pub(super) fn show_spawned_to(&mut self, peer: i32) {
        for i in 0..self.replication.spawned.len() {
            let spawner = self.replication.spawned[i].spawner;
            self.send_path(spawner, peer);
            let id = self.paths.get(spawner);
            if let Ok(buf) = self.spawn_packet(&self.replication.spawned[i], id) {
                self.outbox.send(peer, 0, TransferMode::Reliable, buf);
                let net_id = self.replication.spawned[i].net_id;
                if let Some(p) = self.peers.get_mut(&peer) {
                    p.replication.visible.push(net_id);
                }
            }
        }
    }

    /// This network frame's synchronizer state, to every admitted peer that has a node
    /// with synchronizers.
    pub(super) fn send_sync(&mut self) {
        // Nothing spawned replicates: no peer has anything to be sent. Without this, every
        // tick (60 a second) looked up every peer three times for nothing: 0.2 µs of each
        // call at 1,000 ENet bots (benches/RESULTS.md, issue 26).
        if self.replication.spawned.iter().all(|n| n.syncs.is_empty()) {
            return;
        }
        let peers: Vec<i32> = self.peers().collect();
        for peer in peers {
            let Some(p) = self.peers.get_mut(&peer) else {
                continue;
            };
            let visible = std::mem::take(&mut p.replication.visible);
            let has_sync = visible.iter().any(|id| {
                self.replication
                    .spawned
                    .iter()
                    .any(|n| n.net_id == *id && !n.syncs.is_empty())
            });
            if has_sync {
                p.replication.sync_time = p.replication.sync_time.wrapping_add(1);
                let time = p.replication.sync_time;
                self.sync_to(peer, time, &visible);
            }
            if let Some(p) = self.peers.get_mut(&peer) {
                p.replication.visible = visible;
            }
        }
    }

    fn sync_to(&mut self, peer: i32, time: u16, visible: &[u32]) {
        let (max_sync, max_delta) = (
            self.opts.max_sync_packet_size,
            self.opts.max_delta_packet_size,
        );
        let mut frame = SyncFrame::new(peer, time, max_sync, max_delta);
        let shown = self
            .replication
            .spawned
            .iter()
            .filter(|n| visible.contains(&n.net_id));
        for node in shown {
            for s in &node.syncs {
                frame.add_plain(s, &mut self.outbox);
                let seen = self
                    .peers
                    .get_mut(&peer)
                    .map(|p| &mut p.replication.delta_seen);
                let last = seen.as_ref().and_then(|d| d.get(&s.net_id).copied());
                let version = frame.add_delta(s, last.unwrap_or(0), &mut self.outbox);
                if let Some(d) = seen {
                    d.insert(s.net_id, version);
                }
            }
        }
        frame.finish(&mut self.outbox);
    }

    /// SPAWN from the spawner's authority (client side).
    pub(super) fn on_spawn(&mut self, from: i32, spawn: Spawn<'_>) -> Result<()> {
        let max = self.opts.max_spawned_per_peer;
        let peer = self
            .peers
            .get_mut(&from)
            .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
        let spawner = peer.paths.node(spawn.spawner)?;
        if self.scene.get(spawner).authority != from {
            return Err(Error::from(ErrorKind::NotAllowed(
                "spawn from a peer that is not the spawner's authority",
            )));
        }
        let known = &mut peer.replication;
        if known.spawned.contains_key(&spawn.net_id) {
            return Err(Error::from(ErrorKind::Invalid("net id already spawned")));
        }
        if known.spawned.len() >= max {
            return Err(Error::from(ErrorKind::Limit("spawned nodes per peer")));
        }
        let arg = match spawn.arg {
            Some(a) => Some(variant_io::decode_compressed(a)?.0),
            None => None,
        };
        let state = variant_io::decode_all_values(spawn.state)?;
        let sync_ids: Vec<u32> = spawn.sync_ids().collect();
        for &id in &sync_ids {
            known.syncs.insert(id, None);
        }
        known.spawned.insert(spawn.net_id, sync_ids.clone());
        self.outbox.event(Event::Spawn(SpawnEvent {
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

    /// DESPAWN of a node `from` spawned (client side).
    pub(super) fn on_despawn(&mut self, from: i32, net_id: u32) -> Result<()> {
        let peer = self
            .peers
            .get_mut(&from)
            .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
        let known = &mut peer.replication;
        let syncs = known
            .spawned
            .remove(&net_id)
            .ok_or(Error::from(ErrorKind::NotAllowed(
                "despawn of a node this peer did not spawn",
            )))?;
        for id in syncs {
            known.syncs.remove(&id);
        }
        self.outbox.event(Event::Despawn { from, net_id });
        Ok(())
    }

    /// SYNC (plain or delta) from `from` (client side): the state of the synchronizers it
    /// spawned; plain state older than the newest seen is dropped, as the engine drops it.
    pub(super) fn on_sync(&mut self, from: i32, sync: SyncPacket<'_>) -> Result<()> {
        let mut found = Vec::new();
        let peer = self
            .peers
            .get_mut(&from)
            .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
        for entry in sync.entries() {
            let entry = entry?;
            let Some(last) = peer.replication.syncs.get_mut(&entry.net_id) else {
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
        for (net_id, indexes, state) in found {
            let values = variant_io::decode_all_values(state)?;
            self.outbox.event(Event::Sync(SyncEvent {
                from,
                net_id,
                delta: sync.delta,
                indexes,
                values,
            }));
        }
        Ok(())
    }
}

impl Server {
    /// Spawns a node under the MultiplayerSpawner `spawner` on every admitted peer (and
    /// later ones), with its synchronizers. Returns the node's network id.
    pub fn spawn(
        &mut self,
        spawner: &str,
        name: &str,
        scene: SpawnScene,
        syncs: Vec<SyncSpec>,
    ) -> Result<u32> {
        let mp: &mut Multiplayer = self;
        let spawner = mp.node_id(spawner)?;
        if !wire::valid_node_name(name) {
            return Err(Error::from(ErrorKind::Invalid("invalid node name")));
        }
        let (scene, arg) = match scene {
            SpawnScene::Index(i) if i != wire::SPAWN_CUSTOM => (i, None),
            SpawnScene::Index(_) => {
                return Err(Error::from(ErrorKind::Invalid(
                    "scene index 255 means custom",
                )))
            }
            SpawnScene::Custom(v) => {
                let mut a = Vec::new();
                variant_io::encode_compressed(&v, &mut a)?;
                (wire::SPAWN_CUSTOM, Some(a))
            }
        };
        for s in &syncs {
            if s.values.len() != s.config.properties.len() {
                return Err(Error::from(ErrorKind::Invalid(
                    "one value per replicated property",
                )));
            }
        }
        let repl = &mut mp.replication;
        let net_id = repl.next_net_id();
        let version = repl.next_version();
        let syncs = syncs
            .into_iter()
            .map(|spec| SyncState {
                net_id: repl.next_net_id(),
                changed: vec![version; spec.values.len()],
                config: spec.config,
                values: spec.values,
            })
            .collect();
        repl.spawned.push(SpawnedNode {
            net_id,
            spawner,
            name: name.to_owned(),
            scene,
            arg,
            syncs,
        });
        let targets: Vec<i32> = mp.peers().collect();
        let id = mp.paths.id(spawner);
        let node = mp.replication.spawned.last().expect("just pushed");
        let packet = mp.spawn_packet(node, id)?;
        for t in targets {
            mp.send_path(spawner, t);
            mp.outbox.send(t, 0, TransferMode::Reliable, packet.clone());
            if let Some(p) = mp.peers.get_mut(&t) {
                p.replication.visible.push(net_id);
            }
        }
        Ok(net_id)
    }

    /// Sets a replicated property of a spawned node (its `i`-th synchronizer's property at
    /// `path`); it goes out with the next [`tick`](Server::tick).
    pub fn set_property(&mut self, net_id: u32, path: &str, value: Variant) -> Result<()> {
        let mp: &mut Multiplayer = self;
        let version = mp.replication.next_version();
        let node = mp
            .replication
            .spawned
            .iter_mut()
            .find(|n| n.net_id == net_id)
            .ok_or(Error::from(ErrorKind::Invalid(
                "no spawned node with this net id",
            )))?;
        for sync in &mut node.syncs {
            if let Some(i) = sync.config.index_of(path) {
                if sync.values[i] != value {
                    sync.values[i] = value;
                    sync.changed[i] = version;
                }
                return Ok(());
            }
        }
        Err(Error::from(ErrorKind::Invalid(
            "no replicated property at this path",
        )))
    }

    /// Despawns a spawned node on every peer that has it.
    pub fn despawn(&mut self, net_id: u32) -> Result<()> {
        let mp: &mut Multiplayer = self;
        let i = mp
            .replication
            .spawned
            .iter()
            .position(|n| n.net_id == net_id)
            .ok_or(Error::from(ErrorKind::Invalid(
                "no spawned node with this net id",
            )))?;
        let node = mp.replication.spawned.remove(i);
        let mut buf = Vec::with_capacity(5);
        wire::put_despawn(&mut buf, net_id);
        let ids: Vec<i32> = mp.peers.ids().collect();
        let targets: Vec<i32> = ids
            .into_iter()
            .filter(|id| {
                let Some(p) = mp.peers.get_mut(id) else {
                    return false;
                };
                let known = &mut p.replication;
                let before = known.visible.len();
                known.visible.retain(|&v| v != net_id);
                for sync in &node.syncs {
                    known.delta_seen.remove(&sync.net_id);
                }
                known.visible.len() != before
            })
            .collect();
        for t in targets {
            mp.outbox.send(t, 0, TransferMode::Reliable, buf.clone());
        }
        Ok(())
    }
}
