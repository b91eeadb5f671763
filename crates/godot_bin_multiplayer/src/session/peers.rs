//! Peers: links coming up and going down, the server's peer announcements, and auth
//! (`send_auth`, `complete_auth`; the auth timeout itself is in `timers`).

use super::{Client, Event, Output, Server, Session, SERVER_ID};
use crate::error::{Error, ErrorKind, Result};
use crate::map::Map;
use crate::scene::{NodeId, TransferMode};
use crate::wire;
use std::collections::BTreeSet;
use std::time::Instant;

/// How far a node's path-cache id has got with one peer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum PathState {
    #[default]
    NotSent,
    Sent,
    Confirmed,
}

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
    /// The peer's cache ids for our nodes.
    pub(super) recv_paths: Map<u32, NodeId>,
    /// Our cache ids, by node, as far as this peer knows them.
    pub(super) sent: Vec<PathState>,
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

/// The session's peers by id. Every packet in and every call out looks its peer up, so
/// the lookup is a hash (three a call: in, admitted and cache ids, path state out; a
/// B-tree of 1,000 peers cost about 150 instructions each, benches/RESULTS.md, issue 26);
/// the ids are also kept sorted, because broadcasts, announcements and `peers()` go in id
/// order.
#[derive(Debug, Default)]
pub(super) struct PeerTable {
    by_id: Map<i32, PeerState>,
    order: BTreeSet<i32>,
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
}

impl std::ops::Index<&i32> for PeerTable {
    type Output = PeerState;
    fn index(&self, id: &i32) -> &PeerState {
        &self.by_id[id]
    }
}

impl Session {
    /// The transport linked `peer` (server: a client connected; client: use
    /// [`Client::connected`]).
    pub(super) fn link_up(&mut self, peer: i32, now: Instant) {
        self.peers.insert(peer, PeerState::default());
        if self.opts.auth {
            self.peers.get_mut(&peer).expect("just inserted").pending = Some(Pending {
                local: false,
                remote: false,
                since: now,
            });
            self.in_auth.insert((now, peer));
            self.events.push_back(Event::PeerAuthenticating(peer));
        } else {
            self.admit(peer);
        }
    }

    pub(super) fn admit(&mut self, peer: i32) {
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, peer);
                self.push_send(other, 0, TransferMode::Reliable, buf);
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, other);
                self.push_send(peer, 0, TransferMode::Reliable, buf);
            }
        }
        if let Some(p) = self.peers.get_or_default(peer).pending.take() {
            self.in_auth.remove(&(p.since, peer));
        }
        if self.is_server {
            self.show_spawned_to(peer);
        }
        if peer == SERVER_ID {
            self.events.push_back(Event::ConnectedToServer);
        }
        self.events.push_back(Event::PeerConnected(peer));
    }

    /// Forgets `peer`; `notify` emits the engine's signals.
    pub(super) fn drop_peer(&mut self, peer: i32, notify: bool) {
        let Some(state) = self.peers.get(&peer) else {
            return;
        };
        if let Some(p) = &state.pending {
            self.in_auth.remove(&(p.since, peer));
            self.peers.remove(&peer);
            if notify {
                self.events.push_back(Event::AuthFailed(peer));
            }
            return;
        }
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, false, peer);
                self.push_send(other, 0, TransferMode::Reliable, buf);
            }
        }
        self.peers.remove(&peer);
        if notify {
            self.events.push_back(Event::PeerDisconnected(peer));
        }
    }

    /// `send_auth(peer, data)`: auth data to a pending peer.
    pub fn send_auth(&mut self, peer: i32, data: &[u8]) -> Result<()> {
        let p = self
            .peers
            .get(&peer)
            .and_then(|p| p.pending.as_ref())
            .ok_or(Error::from(ErrorKind::UnknownPeer(peer)))?;
        if data.is_empty() {
            return Err(Error::from(ErrorKind::Invalid("empty auth data")));
        }
        if p.local || p.remote {
            return Err(Error::from(ErrorKind::NotAllowed("auth already completed")));
        }
        let mut buf = Vec::with_capacity(data.len() + 2);
        wire::put_auth(&mut buf, data);
        self.push_send(peer, 0, TransferMode::Reliable, buf);
        Ok(())
    }

    /// `complete_auth(peer)`: our side accepts; the peer is admitted once it completes too.
    pub fn complete_auth(&mut self, peer: i32) -> Result<()> {
        let p = self
            .peers
            .get_mut(&peer)
            .and_then(|p| p.pending.as_mut())
            .ok_or(Error::from(ErrorKind::UnknownPeer(peer)))?;
        if p.local {
            return Err(Error::from(ErrorKind::NotAllowed("auth already completed")));
        }
        p.local = true;
        let remote = p.remote;
        let mut buf = Vec::with_capacity(2);
        wire::put_auth(&mut buf, &[]);
        self.push_send(peer, 0, TransferMode::Reliable, buf);
        if remote {
            self.admit(peer);
        }
        Ok(())
    }
}

impl Server {
    /// A client linked at transport level (WebSocket handshake done / ENet connected).
    /// Fails for ids the engine refuses (below 2, or in use); the transport should then
    /// close the link.
    pub fn peer_connected(&mut self, peer: i32, now: Instant) -> Result<()> {
        if peer <= SERVER_ID || self.0.peers.contains_key(&peer) {
            return Err(Error::from(ErrorKind::Invalid("peer id below 2 or in use")));
        }
        self.0.link_up(peer, now);
        Ok(())
    }

    /// Whether `peer` is linked (pending or admitted).
    pub fn has_peer(&self, peer: i32) -> bool {
        self.0.peers.contains_key(&peer)
    }

    /// The transport lost `peer`.
    pub fn peer_disconnected(&mut self, peer: i32) {
        self.0.drop_peer(peer, true);
    }

    /// `multiplayer.disconnect_peer(id)`: announce and drop the peer (no
    /// `PeerDisconnected` event, as the engine blocks its signals), then ask the transport
    /// to close the link.
    pub fn disconnect_peer(&mut self, peer: i32) {
        self.0.drop_peer(peer, false);
        self.0.out.push_back(Output::Disconnect(peer));
    }
}

impl Client {
    /// The transport connected to the server and we have our id (WebSocket: the server's
    /// id message; ENet: the id we chose).
    pub fn connected(&mut self, unique_id: i32, now: Instant) -> Result<()> {
        if unique_id <= SERVER_ID {
            return Err(Error::from(ErrorKind::Invalid("client id below 2")));
        }
        if self.0.peers.contains_key(&SERVER_ID) {
            return Err(Error::from(ErrorKind::Invalid("already connected")));
        }
        self.0.unique_id = unique_id;
        self.0.link_up(SERVER_ID, now);
        Ok(())
    }

    /// The transport lost the server: every peer and cache is forgotten, as the engine's
    /// `clear()` does.
    pub fn disconnected(&mut self) {
        let was = self.0.peers.contains_key(&SERVER_ID);
        let scene = self.0.scene.clone();
        let opts = self.0.opts.clone();
        let events = std::mem::take(&mut self.0.events);
        self.0 = Session::new(scene, opts, false);
        self.0.events = events;
        if was {
            self.0.events.push_back(Event::ServerDisconnected);
        }
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
                t.get_or_default(id).sync_time = n as u16;
            }
        }
        let mut sorted = ids.to_vec();
        sorted.sort_unstable();
        assert_eq!(t.ids().collect::<Vec<_>>(), sorted);
        assert_eq!(t.iter().map(|(id, _)| id).collect::<Vec<_>>(), sorted);
        assert_eq!(t[&7].sync_time, 1);
        assert!(t.remove(&40_000).is_some());
        assert!(t.remove(&40_000).is_none());
        assert!(!t.contains_key(&40_000) && t.get(&40_000).is_none());
        sorted.retain(|&id| id != 40_000);
        assert_eq!(t.ids().collect::<Vec<_>>(), sorted);
        // An existing entry is kept, not replaced.
        t.get_mut(&3).unwrap().sync_time = 9;
        assert_eq!(t.get_or_default(3).sync_time, 9);
        assert_eq!(t.ids().count(), sorted.len());
    }
}
