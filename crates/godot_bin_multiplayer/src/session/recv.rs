//! Receiving: a packet from the transport, checked against the peer's state (auth, relay
//! rules, RPC modes, limits) and handed to the handler of its command, which turns it
//! into [`Event`]s, replies and relayed packets. The path-cache commands are handled in
//! `paths`, the replication commands in `replication`.

use super::io::RpcCall;
use super::{Event, Multiplayer, SERVER_ID};
use crate::args::Args;
use crate::error::{Error, ErrorKind, Result};
use crate::scene::{NodeId, RpcMode, TransferMode};
use crate::wire::{self, Command, NodeTarget, RemoteCall, Sys};
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
}
