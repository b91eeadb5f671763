//! Replication under server authority: spawning and despawning nodes on clients
//! (MultiplayerSpawner) and sending synchronizer state (MultiplayerSynchronizer), plain and
//! delta, each network frame.

use super::{Output, Server, Session, Transmit};
use crate::error::{Error, ErrorKind, Result};
use crate::scene::{NodeId, ReplicationConfig, ReplicationMode, TransferMode};
use crate::variant_io;
use crate::wire;
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
pub(super) struct SpawnedNode {
    net_id: u32,
    spawner: NodeId,
    name: String,
    scene: u8,
    arg: Option<Vec<u8>>,
    syncs: Vec<SyncState>,
}

impl Session {
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

    pub(super) fn show_spawned_to(&mut self, peer: i32) {
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

    pub(super) fn send_sync(&mut self) {
        // Nothing spawned replicates: no peer has anything to be sent. Without this, every
        // tick (60 a second) looked up every peer three times for nothing: 0.2 µs of each
        // call at 1,000 ENet bots (benches/RESULTS.md, issue 26).
        if self.spawned.iter().all(|n| n.syncs.is_empty()) {
            return;
        }
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
        let spawner = self.0.node_id(spawner)?;
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
    /// `path`); it goes out with the next [`tick`](Server::tick).
    pub fn set_property(&mut self, net_id: u32, path: &str, value: Variant) -> Result<()> {
        let s = &mut self.0;
        s.version += 1;
        let version = s.version;
        let node = s
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
        let s = &mut self.0;
        let i = s
            .spawned
            .iter()
            .position(|n| n.net_id == net_id)
            .ok_or(Error::from(ErrorKind::Invalid(
                "no spawned node with this net id",
            )))?;
        let node = s.spawned.remove(i);
        let mut buf = Vec::with_capacity(5);
        wire::put_despawn(&mut buf, net_id);
        let ids: Vec<i32> = s.peers.ids().collect();
        let targets: Vec<i32> = ids
            .into_iter()
            .filter(|id| {
                let Some(p) = s.peers.get_mut(id) else {
                    return false;
                };
                let before = p.visible.len();
                p.visible.retain(|&v| v != net_id);
                for sync in &node.syncs {
                    p.delta_seen.remove(&sync.net_id);
                }
                p.visible.len() != before
            })
            .collect();
        for t in targets {
            s.push_send(t, 0, TransferMode::Reliable, buf.clone());
        }
        Ok(())
    }
}
