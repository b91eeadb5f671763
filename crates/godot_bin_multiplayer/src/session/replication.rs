//! Replication's state under server authority: the nodes a server spawned
//! (MultiplayerSpawner) with their synchronizers' values (MultiplayerSynchronizer), what
//! each peer was sent or sent, and one network frame's synchronizer packets. Sending it is
//! `replicate`'s job, receiving it `recv`'s.

use super::outbox::Outbox;
use crate::error::Result;
use crate::map::Map;
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
pub(super) struct SyncState {
    pub(super) net_id: u32,
    pub(super) config: Arc<ReplicationConfig>,
    pub(super) values: Vec<Variant>,
    /// Per property, the version at which it last changed.
    pub(super) changed: Vec<u64>,
}

#[derive(Debug)]
pub(super) struct SpawnedNode {
    pub(super) net_id: u32,
    pub(super) spawner: NodeId,
    pub(super) name: String,
    pub(super) scene: u8,
    pub(super) arg: Option<Vec<u8>>,
    pub(super) syncs: Vec<SyncState>,
}

impl SpawnedNode {
    /// The SPAWN packet of the node, its spawner named by our cache id.
    pub(super) fn packet(&self, spawner_cache_id: u32) -> Result<Vec<u8>> {
        let node = self;
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
}

/// What a server spawned, with its synchronizers' state.
#[derive(Debug, Default)]
pub(super) struct Replication {
    pub(super) spawned: Vec<SpawnedNode>,
    pub(super) last_net_id: u32,
    /// Counts changes: each property keeps the version at which it last changed.
    pub(super) version: u64,
}

impl Replication {
    pub(super) fn next_net_id(&mut self) -> u32 {
        self.last_net_id += 1;
        self.last_net_id
    }

    pub(super) fn next_version(&mut self) -> u64 {
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
    pub(super) visible: Vec<u32>,
    /// Server: per synchronizer, the change version this peer last got in a delta.
    pub(super) delta_seen: Map<u32, u64>,
    /// Client: nodes this peer spawned, with their synchronizer ids.
    pub(super) spawned: Map<u32, Vec<u32>>,
    /// Client: synchronizers this peer sends, with the last plain-sync time seen.
    pub(super) syncs: Map<u32, Option<u16>>,
}

/// One network frame's synchronizer packets to one peer: plain state (unreliable, each
/// packet at most `max_sync_packet_size`) and delta state (reliable, at most
/// `max_delta_packet_size`), a packet sent whenever the next entry would overflow it.
pub(super) struct SyncFrame {
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
    pub(super) fn new(peer: i32, time: u16, max_sync: usize, max_delta: usize) -> Self {
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
    pub(super) fn add_plain(&mut self, s: &SyncState, out: &mut Outbox) {
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
    pub(super) fn add_delta(&mut self, s: &SyncState, seen: u64, out: &mut Outbox) -> u64 {
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
    pub(super) fn finish(self, out: &mut Outbox) {
        if self.plain.len() > 3 {
            out.send(self.peer, 0, TransferMode::Unreliable, self.plain);
        }
        if self.delta.len() > 1 {
            out.send(self.peer, 0, TransferMode::Reliable, self.delta);
        }
    }
}
