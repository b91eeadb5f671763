//! The path cache, both ways. Ours ([`PathCache`]): the cache id each of our nodes goes
//! by, assigned on first use; we announce it to a peer with SIMPLIFY_PATH and call by it
//! once the peer confirms (CONFIRM_PATH). A peer's ([`PeerPaths`], in its
//! [`PeerState`](super::peers::PeerState)): the ids it announced for our nodes, and how far
//! each of ours got with it.

use super::{Event, Multiplayer};
use crate::error::{Error, ErrorKind, Result};
use crate::map::Map;
use crate::scene::{NodeId, TransferMode};
use crate::wire;

/// How far a node's path-cache id has got with one peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum PathState {
    #[default]
    NotSent,
    Sent,
    Confirmed,
}

/// Our cache ids.
#[derive(Debug)]
pub(super) struct PathCache {
    /// Our cache id of each node (0 = none yet).
    ids: Vec<u32>,
    /// Which node each of our cache ids names (id 1 is index 0).
    assigned: Vec<NodeId>,
}

impl PathCache {
    /// A cache for a scene of `nodes` nodes.
    pub(super) fn new(nodes: usize) -> Self {
        PathCache {
            ids: vec![0; nodes],
            assigned: Vec::new(),
        }
    }

    /// The cache id of `node`, assigned on first use (ids count from 1).
    pub(super) fn id(&mut self, node: NodeId) -> u32 {
        let slot = &mut self.ids[node.0 as usize];
        if *slot == 0 {
            self.assigned.push(node);
            *slot = self.assigned.len() as u32;
        }
        *slot
    }

    /// The cache id of `node` so far (0: none).
    pub(super) fn get(&self, node: NodeId) -> u32 {
        self.ids[node.0 as usize]
    }

    /// The node our cache id `id` names, if it was assigned.
    fn node(&self, id: u32) -> Option<NodeId> {
        (id as usize)
            .checked_sub(1)
            .and_then(|i| self.assigned.get(i))
            .copied()
    }
}

/// One peer's side of the cache.
#[derive(Debug, Default)]
pub(super) struct PeerPaths {
    /// The peer's cache ids for our nodes.
    recv: Map<u32, NodeId>,
    /// Our cache ids, by node, as far as this peer knows them.
    sent: Vec<PathState>,
}

impl PeerPaths {
    /// The node the peer's cache id `id` names.
    pub(super) fn node(&self, id: u32) -> Result<NodeId> {
        self.recv
            .get(&id)
            .copied()
            .ok_or_else(|| Error::from(ErrorKind::UnknownNode(format!("cache id {id}"))))
    }

    /// Whether the peer confirmed our cache id of `node`.
    pub(super) fn confirmed(&self, node: NodeId) -> bool {
        self.sent.get(node.0 as usize) == Some(&PathState::Confirmed)
    }

    /// How far our cache id of `node` got with the peer; `NotSent` becomes `Sent` (the
    /// caller sends it). `nodes` is the scene's size.
    fn mark_sent(&mut self, node: NodeId, nodes: usize) -> PathState {
        if self.sent.len() < nodes {
            self.sent.resize(nodes, PathState::NotSent);
        }
        let s = &mut self.sent[node.0 as usize];
        let was = *s;
        if was == PathState::NotSent {
            *s = PathState::Sent;
        }
        was
    }

    /// The peer announced `id` for `node`: at most `max` entries, no id twice.
    fn learn(&mut self, id: u32, node: NodeId, max: usize) -> Result<()> {
        if self.recv.contains_key(&id) {
            return Err(Error::from(ErrorKind::Invalid("duplicate path cache id")));
        }
        if self.recv.len() >= max {
            return Err(Error::from(ErrorKind::Limit("path cache entries per peer")));
        }
        self.recv.insert(id, node);
        Ok(())
    }

    /// The peer confirmed our id of `node`, which must have been sent to it.
    fn confirm(&mut self, node: NodeId) -> Result<()> {
        match self.sent.get_mut(node.0 as usize) {
            Some(s @ (PathState::Sent | PathState::Confirmed)) => {
                *s = PathState::Confirmed;
                Ok(())
            }
            _ => Err(Error::from(ErrorKind::Invalid(
                "confirmation of a path never sent",
            ))),
        }
    }
}

impl Multiplayer {
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
}
