//! Receiving: a packet from the transport, checked against the peer's state (auth, relay
//! rules, RPC modes, limits) and handed to the handler of its command, which turns it
//! into [`Event`]s, replies and relayed packets: calls, raw bytes, the path cache
//! (`paths`' types), replication in (`replication`'s).

use super::io::{RpcCall, SpawnEvent, SyncEvent};
use super::{Event, Multiplayer, SERVER_ID};
use crate::args::Args;
use crate::error::{Error, ErrorKind, Result};
use crate::scene::{NodeId, RpcMode, TransferMode};
use crate::variant_io;
use crate::wire::{self, Command, NodeTarget, RemoteCall, Spawn, SyncPacket, Sys};
use std::time::Instant;

impl Multiplayer {
    /// A packet arrived from transport peer `from`; what is refused becomes
    /// [`Event::Refused`].
    pub(super) fn receive(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
        _now: Instant,
    ) {
        if let Err(error) = self.receive_from_link(from, channel, mode, packet) {
            self.outbox.event(Event::Refused { from, error });
        }
    }

    fn receive_from_link(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        packet: &[u8],
    ) -> Result<()> {
        let Some(peer) = self.peers.get(&from) else {
            return Err(Error::from(ErrorKind::UnknownPeer(from)));
        };
        let is_sys = packet
            .first()
            .is_some_and(|b| b & wire::cmd::MASK == wire::cmd::SYS);
        if peer.pending.is_some() {
            if !is_sys || packet.len() < 2 || packet[1] != wire::sys::AUTH {
                return Err(Error::from(ErrorKind::NotAllowed(
                    "only auth packets before auth completes",
                )));
            }
            self.on_auth(from, &packet[2..]);
            return Ok(());
        }
        if !is_sys {
            return self.process(from, packet);
        }
        if packet.len() > 1 && packet[1] == wire::sys::AUTH {
            // An admitted peer's late "completed" is fine; auth data is not.
            return if packet.len() == 2 {
                Ok(())
            } else {
                Err(Error::from(ErrorKind::NotAllowed(
                    "auth data after auth completed",
                )))
            };
        }
        match wire::parse_sys(packet)? {
            Sys::Auth(_) => Ok(()),
            Sys::AddPeer(peer) => self.on_peer_notice(from, true, peer),
            Sys::DelPeer(peer) => self.on_peer_notice(from, false, peer),
            Sys::Relay { peer, inner } => self.on_relay(from, channel, mode, peer, inner),
        }
    }

    /// Auth data (or, empty, "completed") from a pending peer.
    fn on_auth(&mut self, from: i32, data: &[u8]) {
        if !data.is_empty() {
            self.outbox.event(Event::Auth {
                peer: from,
                data: data.to_vec(),
            });
            return;
        }
        let Some(pending) = self.peers.get_mut(&from).and_then(|p| p.pending.as_mut()) else {
            return;
        };
        pending.remote = true;
        if pending.local {
            self.admit(from);
        }
    }

    /// ADD_PEER / DEL_PEER: the server announces a peer (client side, with relay on).
    fn on_peer_notice(&mut self, from: i32, added: bool, peer: i32) -> Result<()> {
        if self.is_server || !self.opts.server_relay || from != SERVER_ID {
            return Err(Error::from(ErrorKind::NotAllowed(
                "peer announcements come from the server",
            )));
        }
        if added {
            if peer <= SERVER_ID || peer == self.unique_id || self.peers.contains_key(&peer) {
                return Err(Error::from(ErrorKind::Invalid("announced peer id")));
            }
            self.admit(peer);
        } else {
            if peer == SERVER_ID {
                return Err(Error::from(ErrorKind::Invalid("announced peer id")));
            }
            self.drop_peer(peer, true);
        }
        Ok(())
    }

    /// RELAY: on a server, a client's packet for peer `peer` (0 = all, `-id` = all but
    /// `id`), forwarded with the sender's id (and taken by us too when it is for all); on
    /// a client, a packet the server relays from peer `peer`.
    fn on_relay(
        &mut self,
        from: i32,
        channel: u8,
        mode: TransferMode,
        peer: i32,
        inner: &[u8],
    ) -> Result<()> {
        if !self.opts.server_relay {
            return Err(Error::from(ErrorKind::NotAllowed("relay is off")));
        }
        if inner[0] & wire::cmd::MASK == wire::cmd::SYS {
            // The engine forwards it and every receiver refuses it; we stop it here.
            return Err(Error::from(ErrorKind::NotAllowed("relayed sys packet")));
        }
        if !self.is_server {
            if from != SERVER_ID {
                return Err(Error::from(ErrorKind::NotAllowed("relay from a client")));
            }
            return self.process(peer, inner);
        }
        if peer > 0 && !self.peers.is_admitted(peer) {
            return Ok(()); // The target left while the packet was in transit.
        }
        let mut buf = Vec::with_capacity(inner.len() + 6);
        wire::put_relay(&mut buf, from, inner);
        if peer > 0 {
            self.outbox.send(peer, channel, mode, buf);
            return Ok(());
        }
        let targets: Vec<i32> = self.peers().filter(|&p| p != from && p != -peer).collect();
        for t in targets {
            self.outbox.send(t, channel, mode, buf.clone());
        }
        if peer != -1 {
            self.process(from, inner)?;
        }
        Ok(())
    }

    /// Handles a non-SYS packet from `from` (a transport peer or a relay source): one
    /// handler per command.
    fn process(&mut self, from: i32, packet: &[u8]) -> Result<()> {
        // Looked up once here: a call's cache id comes from the same entry.
        let Some(peer) = self.peers.get(&from).filter(|p| p.pending.is_none()) else {
            return Err(Error::from(ErrorKind::UnknownPeer(from)));
        };
        match wire::parse(packet)? {
            Command::RemoteCall(call) => {
                let node = match call.target {
                    NodeTarget::Cached(id) => peer.paths.node(id)?,
                    NodeTarget::Path(path) => self.node_id(path)?,
                };
                self.on_remote_call(from, node, call)
            }
            Command::SimplifyPath {
                checksum,
                cache_id,
                path,
            } => self.on_simplify_path(from, checksum, cache_id, path),
            Command::ConfirmPath { valid, cache_id } => self.on_confirm_path(from, valid, cache_id),
            Command::Raw(data) => {
                self.outbox.event(Event::Bytes {
                    from,
                    data: data.to_vec(),
                });
                Ok(())
            }
            Command::Spawn(spawn) => self.on_spawn(from, spawn),
            Command::Despawn { net_id } => self.on_despawn(from, net_id),
            Command::Sync(sync) => self.on_sync(from, sync),
            Command::Sys(_) => Err(Error::from(ErrorKind::Invalid(
                "sys packet where a command was expected",
            ))),
        }
    }

    /// REMOTE_CALL of `node`'s method, if its RPC mode lets `from` call it.
    fn on_remote_call(&mut self, from: i32, node: NodeId, call: RemoteCall<'_>) -> Result<()> {
        let n = self.scene.get(node);
        let rpc = n.method_by_id(call.method).ok_or_else(|| {
            Error::from(ErrorKind::UnknownMethod {
                node: n.path.to_string(),
                method: format!("#{}", call.method),
            })
        })?;
        let allowed = match rpc.mode {
            RpcMode::Disabled => false,
            RpcMode::AnyPeer => true,
            RpcMode::Authority => from == n.authority,
        };
        if !allowed {
            return Err(Error::from(ErrorKind::NotAllowed(
                "the RPC's mode refuses this caller",
            )));
        }
        self.outbox.event(Event::Call(RpcCall {
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

    /// SIMPLIFY_PATH from `from`: it calls our node at `path` by `cache_id` from now on;
    /// confirmed, with whether its RPC checksum matches ours.
    pub(super) fn on_simplify_path(
        &mut self,
        from: i32,
        checksum: &[u8],
        cache_id: u32,
        path: &str,
    ) -> Result<()> {
        let node = self.node_id(path)?;
        let peer = self
            .peers
            .get_mut(&from)
            .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
        peer.paths
            .learn(cache_id, node, self.opts.max_paths_per_peer)?;
        let valid = checksum == self.scene.checksum(node).as_bytes();
        if !valid {
            self.outbox.event(Event::ChecksumMismatch {
                peer: from,
                path: path.to_owned(),
            });
        }
        let mut buf = Vec::with_capacity(6);
        wire::put_confirm_path(&mut buf, valid, cache_id);
        self.send_command(from, 0, TransferMode::Reliable, buf);
        Ok(())
    }

    /// CONFIRM_PATH from `from`: our `cache_id` may be used with it now.
    pub(super) fn on_confirm_path(&mut self, from: i32, valid: bool, cache_id: u32) -> Result<()> {
        let Some(node) = self.paths.node(cache_id) else {
            return Ok(()); // The engine ignores confirmations of unknown ids.
        };
        let peer = self
            .peers
            .get_mut(&from)
            .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
        peer.paths.confirm(node)?;
        if !valid {
            self.outbox.event(Event::ChecksumMismatch {
                peer: from,
                path: self.scene.path(node).to_owned(),
            });
        }
        Ok(())
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
