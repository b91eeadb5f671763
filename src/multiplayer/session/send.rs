//! Sending: RPCs (`rpc_id`, `rpc`, `call_args`), `send_bytes`, the client's relay
//! wrapping, and the path cache as the sender keeps it (SIMPLIFY_PATH before the compact form).

use super::peers::PathState;
use super::{Output, Session, Transmit, SERVER_ID};
use crate::multiplayer::args::{encode_call_args, Args, CallArgs};
use crate::multiplayer::error::{Error, Result};
use crate::multiplayer::scene::{NodeId, TransferMode};
use crate::multiplayer::variant_io::ArgsForm;
use crate::multiplayer::wire::{self, NodeField};

impl Session {
    pub(super) fn push_send(&mut self, to: i32, channel: u8, mode: TransferMode, data: Vec<u8>) {
        self.out.push_back(Output::Send(Transmit {
            to,
            channel,
            mode,
            data,
        }));
    }

    /// Sends `packet` to `to` as the engine's `send_command` does: a client wraps
    /// everything not meant for the server in a RELAY to the server.
    pub(super) fn send_command(
        &mut self,
        to: i32,
        channel: u8,
        mode: TransferMode,
        packet: Vec<u8>,
    ) {
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

    pub(super) fn ensure_cache_id(&mut self, node: NodeId) -> u32 {
        let slot = &mut self.cache_ids[node.0 as usize];
        if *slot == 0 {
            self.assigned.push(node);
            *slot = self.assigned.len() as u32;
        }
        *slot
    }

    /// Sends SIMPLIFY_PATH to `peer` if it never got one for `node`; returns whether the
    /// peer confirmed the path.
    pub(super) fn send_path(&mut self, node: NodeId, peer: i32) -> bool {
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
    /// = all but `id`). `args` is a tuple, `()` or [`Args`] (see [`CallArgs`]).
    pub fn rpc_id<A: CallArgs + ?Sized>(
        &mut self,
        to: i32,
        path: &str,
        method: &str,
        args: &A,
    ) -> Result<()> {
        let node = self.node_id(path)?;
        let args = encode_call_args(args)?;
        self.call_args(to, node, method, &args)
    }

    /// `rpc(...)`: calls `method` on every admitted peer.
    pub fn rpc<A: CallArgs + ?Sized>(&mut self, path: &str, method: &str, args: &A) -> Result<()> {
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
}
