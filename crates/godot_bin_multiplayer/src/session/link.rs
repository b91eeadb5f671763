//! Links: peers coming up and going down, the server's peer announcements, and auth
//! (`send_auth`, `complete_auth`; the deadlines are kept in the peer table and served by
//! `timers`).

use super::peers::PeerState;
use super::{Client, Event, Multiplayer, Server, SERVER_ID};
use crate::error::{Error, ErrorKind, Result};
use crate::scene::TransferMode;
use crate::wire;
use std::time::Instant;

impl Multiplayer {
    /// The transport linked `peer` (server: a client connected; client: use
    /// [`Client::connected`]).
    fn link_up(&mut self, peer: i32, now: Instant) {
        if self.opts.auth {
            self.peers.start_auth(peer, now);
            self.outbox.event(Event::PeerAuthenticating(peer));
        } else {
            self.peers.insert(peer, PeerState::default());
            self.admit(peer);
        }
    }

    pub(super) fn admit(&mut self, peer: i32) {
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, peer);
                self.outbox.send(other, 0, TransferMode::Reliable, buf);
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, true, other);
                self.outbox.send(peer, 0, TransferMode::Reliable, buf);
            }
        }
        self.peers.admit(peer);
        if self.is_server {
            self.show_spawned_to(peer);
        }
        if peer == SERVER_ID {
            self.outbox.event(Event::ConnectedToServer);
        }
        self.outbox.event(Event::PeerConnected(peer));
    }

    /// Forgets `peer`; `notify` emits the engine's signals.
    pub(super) fn drop_peer(&mut self, peer: i32, notify: bool) {
        let Some(state) = self.peers.get(&peer) else {
            return;
        };
        if state.pending.is_some() {
            self.peers.forget(peer);
            if notify {
                self.outbox.event(Event::AuthFailed(peer));
            }
            return;
        }
        if self.is_server && self.opts.server_relay {
            let others: Vec<i32> = self.peers().filter(|&p| p != peer).collect();
            for other in others {
                let mut buf = Vec::with_capacity(6);
                wire::put_peer_notice(&mut buf, false, peer);
                self.outbox.send(other, 0, TransferMode::Reliable, buf);
            }
        }
        self.peers.forget(peer);
        if notify {
            self.outbox.event(Event::PeerDisconnected(peer));
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
        self.outbox.send(peer, 0, TransferMode::Reliable, buf);
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
        self.outbox.send(peer, 0, TransferMode::Reliable, buf);
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
        let mp: &mut Multiplayer = self;
        if peer <= SERVER_ID || mp.peers.contains_key(&peer) {
            return Err(Error::from(ErrorKind::Invalid("peer id below 2 or in use")));
        }
        mp.link_up(peer, now);
        Ok(())
    }

    /// Whether `peer` is linked (pending or admitted).
    pub fn has_peer(&self, peer: i32) -> bool {
        let mp: &Multiplayer = self;
        mp.peers.contains_key(&peer)
    }

    /// The transport lost `peer`.
    pub fn peer_disconnected(&mut self, peer: i32) {
        let mp: &mut Multiplayer = self;
        mp.drop_peer(peer, true);
    }

    /// `multiplayer.disconnect_peer(id)`: announce and drop the peer (no
    /// `PeerDisconnected` event, as the engine blocks its signals), then ask the transport
    /// to close the link.
    pub fn disconnect_peer(&mut self, peer: i32) {
        let mp: &mut Multiplayer = self;
        mp.drop_peer(peer, false);
        mp.outbox.disconnect(peer);
    }
}

impl Client {
    /// The transport connected to the server and we have our id (WebSocket: the server's
    /// id message; ENet: the id we chose).
    pub fn connected(&mut self, unique_id: i32, now: Instant) -> Result<()> {
        let mp: &mut Multiplayer = self;
        if unique_id <= SERVER_ID {
            return Err(Error::from(ErrorKind::Invalid("client id below 2")));
        }
        if mp.peers.contains_key(&SERVER_ID) {
            return Err(Error::from(ErrorKind::Invalid("already connected")));
        }
        mp.unique_id = unique_id;
        mp.link_up(SERVER_ID, now);
        Ok(())
    }

    /// The transport lost the server: every peer and cache is forgotten, as the engine's
    /// `clear()` does.
    pub fn disconnected(&mut self) {
        let mp: &mut Multiplayer = self;
        let was = mp.peers.contains_key(&SERVER_ID);
        let events = mp.outbox.take_events();
        *mp = Multiplayer::new(mp.scene.clone(), mp.opts.clone(), false);
        mp.outbox.restore_events(events);
        if was {
            mp.outbox.event(Event::ServerDisconnected);
        }
    }
}
