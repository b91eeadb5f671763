//! Sending: RPCs (`rpc_id`, `rpc`, `call_args`), `send_bytes` and the client's relay
//! wrapping; a call names its node by path until the peer confirmed the node's cache id
//! (`paths`), then by the compact id.

use super::paths::PathState;
use super::{Multiplayer, SERVER_ID};
use crate::args::{encode_call_args, Args, CallArgs};
use crate::error::{Error, ErrorKind, Result};
use crate::scene::{NodeId, TransferMode};
use crate::variant_io::ArgsForm;
use crate::wire::{self, NodeField};

impl Multiplayer {
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
            self.outbox.send(SERVER_ID, channel, mode, buf);
        } else if to > 0 {
            self.outbox.send(to, channel, mode, packet);
        } else {
            let targets: Vec<i32> = self.peers().filter(|&p| to == 0 || p != -to).collect();
            for t in targets {
                self.outbox.send(t, channel, mode, packet.clone());
            }
        }
    }

    /// Sends SIMPLIFY_PATH to `peer` if it never got one for `node`; returns whether the
    /// peer confirmed the path.
    pub(super) fn send_path(&mut self, node: NodeId, peer: i32) -> bool {
        self.path_to(node, peer, false).unwrap_or(false)
    }

    /// [`send_path`](Self::send_path) with the peer looked up once: `None` if `peer` is
    /// unknown or, with `admitted_only`, still in auth (then nothing is sent or assigned).
    pub(super) fn path_to(&mut self, node: NodeId, peer: i32, admitted_only: bool) -> Option<bool> {
        let nodes = self.scene.len();
        let state = self
            .peers
            .get_mut(&peer)
            .filter(|p| !admitted_only || p.pending.is_none())?;
        let id = self.paths.id(node);
        match state.paths.mark_sent(node, nodes) {
            PathState::Confirmed => Some(true),
            PathState::Sent => Some(false),
            PathState::NotSent => {
                let mut buf = Vec::new();
                let node_ref = self.scene.get(node);
                wire::put_simplify_path(&mut buf, &node_ref.checksum, id, &node_ref.path);
                self.send_command(peer, 0, TransferMode::Reliable, buf);
                Some(false)
            }
        }
    }

    /// The peers a call to `to` (0 = every peer, `-id` = every peer but `id`) reaches.
    fn call_targets(&self, to: i32) -> Result<Vec<i32>> {
        if to < 0 && -to != self.unique_id && !self.peers.is_admitted(-to) {
            return Err(Error::from(ErrorKind::UnknownPeer(-to)));
        }
        Ok(self.peers().filter(|&p| to == 0 || p != -to).collect())
    }

    /// Calls `method` on `node` at peer `to` (0 = every peer, `-id` = every peer but
    /// `id`), with arguments already in wire form: answering an
    /// [`RpcCall`](crate::RpcCall) with its own `args` costs no decoding.
    pub fn call_args(&mut self, to: i32, node: NodeId, method: &str, args: &Args) -> Result<()> {
        let n = self.scene.get(node);
        let (id, rpc) = n
            .by_name
            .get(method)
            .map(|&i| (n.methods[i].0, &n.methods[i].1))
            .ok_or_else(|| {
                Error::from(ErrorKind::UnknownMethod {
                    node: n.path.to_string(),
                    method: method.to_owned(),
                })
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
        if to > 0 {
            // One peer (an answer, most calls): one lookup of it, no target list, and the
            // packet written where it is sent from.
            if to == self.unique_id {
                return Err(Error::from(ErrorKind::NotAllowed("an RPC to ourselves")));
            }
            let confirmed = self
                .path_to(node, to, true)
                .ok_or(Error::from(ErrorKind::UnknownPeer(to)))?;
            let path: &str = if confirmed {
                ""
            } else {
                &self.scene.get(node).path
            };
            let mut packet = self.outbox.buffer();
            // The path, when written, ends with a NUL.
            packet.reserve(wire::REMOTE_CALL_MAX_HEADER + args.len() + path.len() + 1);
            let field = if confirmed {
                NodeField::Compact(self.paths.get(node))
            } else {
                NodeField::Path
            };
            wire::put_remote_call(&mut packet, field, method, form, args, path);
            self.send_command(to, channel, mode, packet);
            return Ok(());
        }
        let targets = self.call_targets(to)?;
        if targets.is_empty() {
            return Ok(());
        }
        let mut all_confirmed = true;
        for &t in &targets {
            all_confirmed &= self.send_path(node, t);
        }
        let id = self.paths.get(node);
        let mut buf = self.outbox.take_scratch();
        if all_confirmed {
            wire::put_remote_call(&mut buf, NodeField::Compact(id), method, form, args, "");
            for &t in &targets {
                self.send_command(t, channel, mode, buf.clone());
            }
        } else {
            let mut full = Vec::new();
            let path = &self.scene.get(node).path;
            wire::put_remote_call(&mut buf, NodeField::Wide(id), method, form, args, "");
            wire::put_remote_call(&mut full, NodeField::Path, method, form, args, path);
            for &t in &targets {
                let confirmed = self.peers[&t].paths.confirmed(node);
                let packet = if confirmed { buf.clone() } else { full.clone() };
                self.send_command(t, channel, mode, packet);
            }
        }
        self.outbox.put_scratch(buf);
        Ok(())
    }

    /// `rpc_id(to, ...)`: calls `method` on the node at `path` at peer `to` (0 = all,
    /// `-id` = all but `id`). `args` is a tuple of the arguments (`&(value,)` for one,
    /// `&()` for none) or an [`Args`]; anything else does not compile (see
    /// [`CallArgs`]).
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
            return Err(Error::from(ErrorKind::Invalid("empty raw packet")));
        }
        if to > 0 && !self.peers.is_admitted(to) {
            return Err(Error::from(ErrorKind::UnknownPeer(to)));
        }
        let mut buf = Vec::with_capacity(data.len() + 1);
        wire::put_raw(&mut buf, data);
        self.send_command(to, channel, mode, buf);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::wire::{self, Command};
    use crate::{
        Client, Error, ErrorKind, NodeConfig, Options, Output, Rpc, Scene, Server, TransferMode,
    };
    use std::sync::Arc;
    use std::time::Instant;

    fn scene() -> Arc<Scene> {
        Arc::new(
            Scene::new()
                .with(NodeConfig::new("A").rpc(Rpc::any_peer("echo")))
                .unwrap()
                .with(NodeConfig::new("B").rpc(Rpc::any_peer("echo")))
                .unwrap(),
        )
    }

    fn sent(s: &mut Server) -> Vec<Vec<u8>> {
        std::iter::from_fn(|| s.poll_output())
            .map(|o| match o {
                Output::Send(t) => t.data,
                other => panic!("unexpected {other:?}"),
            })
            .collect()
    }

    /// Delivers `packets` to the client, and its answers (CONFIRM_PATH) to the server.
    fn deliver(s: &mut Server, c: &mut Client, packets: &[Vec<u8>]) {
        let now = Instant::now();
        for p in packets {
            c.receive(1, 0, TransferMode::Reliable, p, now);
        }
        while let Some(o) = c.poll_output() {
            if let Output::Send(t) = o {
                s.receive(7, 0, TransferMode::Reliable, &t.data, now);
            }
        }
    }

    fn pair() -> (Server, Client) {
        let now = Instant::now();
        let mut s = Server::new(scene(), Options::default());
        s.peer_connected(7, now).unwrap();
        let mut c = Client::new(scene(), Options::default());
        c.connected(7, now).unwrap();
        while c.poll_output().is_some() {}
        while s.poll_output().is_some() {}
        (s, c)
    }

    #[test]
    fn a_call_to_one_peer_is_the_call_to_all_when_it_is_the_only_one() {
        // `rpc_id(7)` takes its own path (one peer, one lookup); `rpc` the general one.
        // Before the path is sent, while it is unconfirmed, and once confirmed, both
        // must write the same packets.
        let (mut one, mut c1) = pair();
        let (mut all, mut c2) = pair();
        let (mut forms, mut so_far) = (Vec::new(), Vec::new());
        for round in 0..3 {
            one.rpc_id(7, "B", "echo", &(round,)).unwrap();
            all.rpc("B", "echo", &(round,)).unwrap();
            let (a, b) = (sent(&mut one), sent(&mut all));
            assert_eq!(a, b, "round {round}");
            forms.push(a.len());
            so_far.extend(a);
            // Round 1 is sent before the client confirms the path, round 2 after.
            if round == 1 {
                deliver(&mut one, &mut c1, &so_far);
                deliver(&mut all, &mut c2, &so_far);
            }
        }
        // SIMPLIFY_PATH + call by path, call by path (sent, unconfirmed), compact call.
        assert_eq!(forms, [2, 1, 1]);
        one.rpc_id(7, "B", "echo", &(9,)).unwrap();
        let compact = sent(&mut one);
        match wire::parse(&compact[0]).unwrap() {
            Command::RemoteCall(call) => {
                assert_eq!(call.target, wire::NodeTarget::Cached(1))
            }
            other => panic!("not a call: {other:?}"),
        }
    }

    #[test]
    fn an_answer_is_written_into_a_recycled_buffer_and_big_ones_are_not_kept() {
        let (mut s, _) = pair();
        let (mut fresh, _) = pair();
        s.rpc_id(7, "A", "echo", &(1,)).unwrap();
        let _ = sent(&mut s); // SIMPLIFY_PATH and the call
        let mut used = Vec::with_capacity(256);
        used.extend_from_slice(b"stale bytes");
        let at = used.as_ptr();
        s.recycle(used);
        s.rpc_id(7, "A", "echo", &(2,)).unwrap();
        let packets = sent(&mut s);
        assert_eq!(packets[0].as_ptr(), at, "the recycled buffer is reused");
        // The same bytes a session with no spare buffer writes.
        fresh.rpc_id(7, "A", "echo", &(1,)).unwrap();
        let _ = sent(&mut fresh);
        fresh.rpc_id(7, "A", "echo", &(2,)).unwrap();
        assert_eq!(packets, sent(&mut fresh));
        // A buffer past the size kept is dropped, and no more than the count are kept.
        assert!(s.0 .0.outbox.spare.is_empty());
        s.recycle(Vec::with_capacity(super::super::outbox::SPARE_CAPACITY + 1));
        assert!(s.0 .0.outbox.spare.is_empty());
        for _ in 0..super::super::outbox::SPARE_BUFFERS + 5 {
            s.recycle(Vec::with_capacity(16));
        }
        assert_eq!(
            s.0 .0.outbox.spare.len(),
            super::super::outbox::SPARE_BUFFERS
        );
    }

    #[test]
    fn a_refused_call_sends_nothing_and_assigns_no_cache_id() {
        let now = Instant::now();
        let auth = Options {
            auth: true,
            ..Options::default()
        };
        let mut s = Server::new(scene(), auth);
        s.peer_connected(5, now).unwrap(); // pending: in auth
        assert!(matches!(
            (s.rpc_id(5, "B", "echo", &(1,))).map_err(Error::into_kind),
            Err(ErrorKind::UnknownPeer(5))
        ));
        assert!(matches!(
            (s.rpc_id(9, "B", "echo", &(1,))).map_err(Error::into_kind),
            Err(ErrorKind::UnknownPeer(9))
        ));
        assert!(matches!(
            (s.rpc_id(1, "B", "echo", &(1,))).map_err(Error::into_kind),
            Err(ErrorKind::NotAllowed(_))
        ));
        assert_eq!(s.poll_output(), None);
        // Admit 5; node A, used first now, gets cache id 1: B's refused calls took none.
        s.complete_auth(5).unwrap();
        s.receive(
            5,
            0,
            TransferMode::Reliable,
            &[wire::cmd::SYS, wire::sys::AUTH],
            now,
        );
        while s.poll_output().is_some() {}
        s.rpc_id(5, "A", "echo", &(1,)).unwrap();
        let out = sent(&mut s);
        match wire::parse(&out[0]).unwrap() {
            Command::SimplifyPath { cache_id, path, .. } => {
                assert_eq!((cache_id, path), (1, "A"));
            }
            other => panic!("not SIMPLIFY_PATH: {other:?}"),
        }
    }
}
