//! Receiving: a packet from the transport, checked against the peer's state (auth,
//! relay rules, RPC modes, limits) and turned into [`Event`]s, replies and relayed packets.

use super::io::{RpcCall, SpawnEvent, SyncEvent};
use super::peers::PathState;
use super::{Event, Session, SERVER_ID};
use crate::args::Args;
use crate::error::{Error, ErrorKind, Result};
use crate::scene::{RpcMode, TransferMode};
use crate::variant_io;
use crate::wire::{self, Command, NodeTarget, Sys};
use std::time::Instant;

impl Session {
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
            return Err(Error::from(ErrorKind::UnknownPeer(from)));
        };
        let is_sys = packet
            .first()
            .is_some_and(|b| b & wire::cmd::MASK == wire::cmd::SYS);
        if let Some(pending) = &mut peer.pending {
            if !is_sys || packet.len() < 2 || packet[1] != wire::sys::AUTH {
                return Err(Error::from(ErrorKind::NotAllowed(
                    "only auth packets before auth completes",
                )));
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
                    Err(Error::from(ErrorKind::NotAllowed(
                        "auth data after auth completed",
                    )))
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
                    return Err(Error::from(ErrorKind::NotAllowed(
                        "peer announcements come from the server",
                    )));
                }
                if packet[1] == wire::sys::ADD_PEER {
                    if peer <= SERVER_ID || peer == self.unique_id || self.peers.contains_key(&peer)
                    {
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
            Sys::Relay { peer, inner } => {
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
        // Looked up once: the cache ids of a call come from the same entry.
        let Some(peer) = self.peers.get(&from).filter(|p| p.pending.is_none()) else {
            return Err(Error::from(ErrorKind::UnknownPeer(from)));
        };
        match wire::parse(packet)? {
            Command::RemoteCall(call) => {
                let node = match call.target {
                    NodeTarget::Cached(id) => *peer.recv_paths.get(&id).ok_or_else(|| {
                        Error::from(ErrorKind::UnknownNode(format!("cache id {id}")))
                    })?,
                    NodeTarget::Path(path) => self.node_id(path)?,
                };
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
                let peer = self
                    .peers
                    .get_mut(&from)
                    .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
                if peer.recv_paths.contains_key(&cache_id) {
                    return Err(Error::from(ErrorKind::Invalid("duplicate path cache id")));
                }
                if peer.recv_paths.len() >= max {
                    return Err(Error::from(ErrorKind::Limit("path cache entries per peer")));
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
                let peer = self
                    .peers
                    .get_mut(&from)
                    .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
                match peer.sent.get_mut(node.0 as usize) {
                    Some(s @ (PathState::Sent | PathState::Confirmed)) => *s = PathState::Confirmed,
                    _ => {
                        return Err(Error::from(ErrorKind::Invalid(
                            "confirmation of a path never sent",
                        )))
                    }
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
                let peer = self
                    .peers
                    .get_mut(&from)
                    .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
                let spawner = *peer.recv_paths.get(&spawn.spawner).ok_or_else(|| {
                    Error::from(ErrorKind::UnknownNode(format!(
                        "cache id {}",
                        spawn.spawner
                    )))
                })?;
                if self.scene.get(spawner).authority != from {
                    return Err(Error::from(ErrorKind::NotAllowed(
                        "spawn from a peer that is not the spawner's authority",
                    )));
                }
                if peer.spawned.contains_key(&spawn.net_id) {
                    return Err(Error::from(ErrorKind::Invalid("net id already spawned")));
                }
                if peer.spawned.len() >= max {
                    return Err(Error::from(ErrorKind::Limit("spawned nodes per peer")));
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
                let peer = self
                    .peers
                    .get_mut(&from)
                    .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
                let syncs =
                    peer.spawned
                        .remove(&net_id)
                        .ok_or(Error::from(ErrorKind::NotAllowed(
                            "despawn of a node this peer did not spawn",
                        )))?;
                for id in syncs {
                    peer.syncs.remove(&id);
                }
                self.events.push_back(Event::Despawn { from, net_id });
                Ok(())
            }
            Command::Sync(sync) => {
                let mut found = Vec::new();
                {
                    let peer = self
                        .peers
                        .get_mut(&from)
                        .ok_or(Error::from(ErrorKind::UnknownPeer(from)))?;
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
            Command::Sys(_) => Err(Error::from(ErrorKind::Invalid(
                "sys packet where a command was expected",
            ))),
        }
    }
}
