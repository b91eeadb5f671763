//! The path cache, both ways. Ours ([`PathCache`]): the cache id each of our nodes goes
//! by, assigned on first use; we announce it to a peer with SIMPLIFY_PATH and call by it
//! once the peer confirms (CONFIRM_PATH). A peer's ([`PeerPaths`], in its
//! [`PeerState`](super::peers::PeerState)): the ids it announced for our nodes, and how far
//! each of ours got with it. `send` announces, `recv` learns and confirms.

use crate::error::{Error, ErrorKind, Result};
use crate::map::Map;
use crate::scene::NodeId;

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
    pub(super) fn node(&self, id: u32) -> Option<NodeId> {
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
    pub(super) fn mark_sent(&mut self, node: NodeId, nodes: usize) -> PathState {
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
    pub(super) fn learn(&mut self, id: u32, node: NodeId, max: usize) -> Result<()> {
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
    pub(super) fn confirm(&mut self, node: NodeId) -> Result<()> {
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
