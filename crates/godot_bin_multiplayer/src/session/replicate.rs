//! Sending replication under server authority: spawning and despawning nodes on clients
//! (MultiplayerSpawner), and synchronizer state (MultiplayerSynchronizer), plain and delta,
//! each network frame. The state it keeps is in `replication`.

use super::replication::{SpawnScene, SpawnedNode, SyncFrame, SyncSpec, SyncState};
use super::{Multiplayer, Server};
use crate::error::{Error, ErrorKind, Result};
use crate::scene::TransferMode;
use crate::variant_io;
use crate::wire;
use godot_bin::Variant;

impl Multiplayer {
    /// A peer just admitted gets every node spawned so far.
    pub(super) fn show_spawned_to(&mut self, peer: i32) {
        for i in 0..self.replication.spawned.len() {
            let spawner = self.replication.spawned[i].spawner;
            self.send_path(spawner, peer);
            let id = self.paths.get(spawner);
            if let Ok(buf) = self.replication.spawned[i].packet(id) {
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
        let packet = node.packet(id)?;
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
    /// `path`); it goes out with the next [`tick`](crate::Session::tick).
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
