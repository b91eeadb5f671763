//! The peer table: each peer's state (auth, its path cache, its replication) by id, in id
//! order, and the auth deadlines. Links coming up and going down are `link`'s job.

use super::paths::PeerPaths;
use super::replication::PeerReplication;
use crate::map::Map;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

#[derive(Debug)]
pub(super) struct Pending {
    pub(super) local: bool,
    pub(super) remote: bool,
    pub(super) since: Instant,
}

#[derive(Debug, Default)]
pub(super) struct PeerState {
    /// Set while auth is in progress; `None` once admitted.
    pub(super) pending: Option<Pending>,
    /// The path cache with this peer.
    pub(super) paths: PeerPaths,
    /// What was replicated to this peer (server) or by it (client).
    pub(super) replication: PeerReplication,
}

/// The session's peers by id. Every packet in and every call out looks its peer up, so
/// the lookup is a hash (three a call: in, admitted and cache ids, path state out; a
/// B-tree cost more: the crate's benches/RESULTS.md);
/// the ids are also kept sorted, because broadcasts, announcements and `peers()` go in id
/// order. The peers in auth are also kept by start, earliest first: the auth timer reads
/// the first one, so neither `poll_timeout` nor `tick` walks every peer.
#[derive(Debug, Default)]
pub(super) struct PeerTable {
    by_id: Map<i32, PeerState>,
    order: BTreeSet<i32>,
    in_auth: BTreeSet<(Instant, i32)>,
}

impl PeerTable {
    pub(super) fn get(&self, id: &i32) -> Option<&PeerState> {
        self.by_id.get(id)
    }

    pub(super) fn get_mut(&mut self, id: &i32) -> Option<&mut PeerState> {
        self.by_id.get_mut(id)
    }

    pub(super) fn contains_key(&self, id: &i32) -> bool {
        self.by_id.contains_key(id)
    }

    /// `id`'s state, a fresh one if it had none.
    pub(super) fn get_or_default(&mut self, id: i32) -> &mut PeerState {
        self.order.insert(id);
        self.by_id.entry(id).or_default()
    }

    pub(super) fn insert(&mut self, id: i32, state: PeerState) {
        self.order.insert(id);
        self.by_id.insert(id, state);
    }

    pub(super) fn remove(&mut self, id: &i32) -> Option<PeerState> {
        self.order.remove(id);
        self.by_id.remove(id)
    }

    /// Every peer, in id order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (i32, &PeerState)> + '_ {
        self.order.iter().map(|id| (*id, &self.by_id[id]))
    }

    /// Every peer's id, in order.
    pub(super) fn ids(&self) -> impl Iterator<Item = i32> + '_ {
        self.order.iter().copied()
    }

    /// The admitted peers, in order.
    pub(super) fn admitted(&self) -> impl Iterator<Item = i32> + '_ {
        self.iter()
            .filter(|(_, p)| p.pending.is_none())
            .map(|(id, _)| id)
    }

    /// Whether `id` is a peer and admitted.
    pub(super) fn is_admitted(&self, id: i32) -> bool {
        self.get(&id).is_some_and(|p| p.pending.is_none())
    }

    /// `id` joins in auth at `now`.
    pub(super) fn start_auth(&mut self, id: i32, now: Instant) {
        self.order.insert(id);
        self.by_id.insert(
            id,
            PeerState {
                pending: Some(Pending {
                    local: false,
                    remote: false,
                    since: now,
                }),
                ..PeerState::default()
            },
        );
        self.in_auth.insert((now, id));
    }

    /// `id` is admitted (added if it was not there); whether it was in auth.
    pub(super) fn admit(&mut self, id: i32) {
        if let Some(p) = self.get_or_default(id).pending.take() {
            self.in_auth.remove(&(p.since, id));
        }
    }

    /// Forgets `id`, and its auth deadline.
    pub(super) fn forget(&mut self, id: i32) -> Option<PeerState> {
        let state = self.remove(&id)?;
        if let Some(p) = &state.pending {
            self.in_auth.remove(&(p.since, id));
        }
        Some(state)
    }

    /// The peers whose auth began `timeout` or more before `now`, earliest first.
    pub(super) fn auth_expired(&self, now: Instant, timeout: Duration) -> Vec<i32> {
        self.in_auth
            .iter()
            .take_while(|(since, _)| now.saturating_duration_since(*since) >= timeout)
            .map(|&(_, id)| id)
            .collect()
    }

    /// When the earliest auth began.
    pub(super) fn first_auth(&self) -> Option<Instant> {
        self.in_auth.first().map(|&(since, _)| since)
    }
}

impl std::ops::Index<&i32> for PeerTable {
    type Output = PeerState;
    fn index(&self, id: &i32) -> &PeerState {
        &self.by_id[id]
    }
}

#[cfg(test)]
mod tests {
    use super::{PeerState, PeerTable};

    #[test]
    fn the_peer_table_goes_in_id_order_and_forgets_what_it_removes() {
        let mut t = PeerTable::default();
        // Ids as a server draws them: at random, not in order.
        let ids = [912_345_678, 7, 1, 40_000, 3, 2_000_000_000, 55];
        for (n, &id) in ids.iter().enumerate() {
            if n % 2 == 0 {
                t.insert(id, PeerState::default());
            } else {
                t.get_or_default(id).replication.sync_time = n as u16;
            }
        }
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        assert_eq!(t.ids().collect::<Vec<_>>(), sorted);
        assert_eq!(t.iter().map(|(id, _)| id).collect::<Vec<_>>(), sorted);
        assert_eq!(t[&7].replication.sync_time, 1);
        assert!(t.remove(&40_000).is_some());
        assert!(t.remove(&40_000).is_none());
        assert!(!t.contains_key(&40_000) && t.get(&40_000).is_none());
        sorted.retain(|&id| id != 40_000);
        assert_eq!(t.ids().collect::<Vec<_>>(), sorted);
        // An existing entry is kept, not replaced.
        t.get_mut(&3).unwrap().replication.sync_time = 9;
        assert_eq!(t.get_or_default(3).replication.sync_time, 9);
        assert_eq!(t.ids().count(), sorted.len());
    }
}
