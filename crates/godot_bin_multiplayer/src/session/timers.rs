//! Time, always given by the caller: `tick`, the network frame that drops pending peers
//! whose auth timed out and (server) sends replication state, and `poll_timeout`, when the
//! next of those timeouts falls due.

use super::Multiplayer;
use std::time::Instant;

impl Multiplayer {
    /// [`Session::tick`](super::Session::tick).
    pub(super) fn tick(&mut self, now: Instant) {
        let timeout = self.opts.auth_timeout;
        if !timeout.is_zero() {
            for id in self.peers.auth_expired(now, timeout) {
                self.outbox.disconnect(id);
                self.drop_peer(id, true);
            }
        }
        if self.is_server {
            self.send_sync();
        }
    }

    /// [`Session::poll_timeout`](super::Session::poll_timeout).
    pub(super) fn poll_timeout(&self) -> Option<Instant> {
        let timeout = self.opts.auth_timeout;
        if timeout.is_zero() {
            return None;
        }
        // The earliest start has the earliest deadline; past what Instant can hold, it
        // (and every later one) never falls due.
        self.peers.first_auth()?.checked_add(timeout)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Client, Event, NodeConfig, Options, Output, Rpc, Scene, Server, SERVER_ID};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    fn scene() -> Arc<Scene> {
        Arc::new(
            Scene::new()
                .with(NodeConfig::new("Game").rpc(Rpc::any_peer("echo")))
                .unwrap(),
        )
    }

    fn auth(timeout: Duration) -> Options {
        Options {
            auth: true,
            auth_timeout: timeout,
            ..Options::default()
        }
    }

    #[test]
    fn idle_sessions_have_no_timeout() {
        let t0 = Instant::now();
        let server = Server::new(scene(), Options::default());
        assert_eq!(server.poll_timeout(), None);
        let client = Client::new(scene(), Options::default());
        assert_eq!(client.poll_timeout(), None);
        // Without auth, connected peers are admitted at once: still nothing to time.
        let mut server = Server::new(scene(), Options::default());
        server.peer_connected(5, t0).unwrap();
        assert_eq!(server.poll_timeout(), None);
        // Auth with a zero timeout waits for ever.
        let mut server = Server::new(scene(), auth(Duration::ZERO));
        server.peer_connected(5, t0).unwrap();
        assert_eq!(server.poll_timeout(), None);
    }

    #[test]
    fn pending_peers_time_out_at_the_earliest_deadline() {
        let t0 = Instant::now();
        let timeout = Duration::from_millis(1500);
        let mut s = Server::new(scene(), auth(timeout));
        s.peer_connected(5, t0).unwrap();
        assert_eq!(s.poll_timeout(), Some(t0 + timeout));
        s.peer_connected(6, t0 + Duration::from_millis(200))
            .unwrap();
        assert_eq!(s.poll_timeout(), Some(t0 + timeout));
        // A tick just before the deadline drops nobody and keeps it.
        s.tick(t0 + timeout - Duration::from_nanos(1));
        assert_eq!(s.poll_output(), None);
        assert_eq!(s.poll_timeout(), Some(t0 + timeout));
        // At the deadline peer 5 goes; 6's deadline is next.
        while s.poll_event().is_some() {}
        s.tick(t0 + timeout);
        assert_eq!(s.poll_output(), Some(Output::Disconnect(5)));
        assert!(matches!(s.poll_event(), Some(Event::AuthFailed(5))));
        assert_eq!(
            s.poll_timeout(),
            Some(t0 + Duration::from_millis(200) + timeout)
        );
        // Admitting 6 (both sides complete auth) leaves no timer.
        s.complete_auth(6).unwrap();
        s.receive(
            6,
            0,
            crate::scene::TransferMode::Reliable,
            &[crate::wire::cmd::SYS, crate::wire::sys::AUTH],
            t0,
        );
        assert_eq!(s.peers().collect::<Vec<_>>(), [6]);
        assert_eq!(s.poll_timeout(), None);
    }

    #[test]
    fn a_peer_that_leaves_takes_its_deadline_along() {
        let t0 = Instant::now();
        let mut s = Server::new(scene(), auth(Duration::from_secs(3)));
        s.peer_connected(5, t0).unwrap();
        s.peer_connected(6, t0 + Duration::from_secs(1)).unwrap();
        s.peer_disconnected(5);
        assert_eq!(s.poll_timeout(), Some(t0 + Duration::from_secs(4)));
        s.disconnect_peer(6);
        assert_eq!(s.poll_timeout(), None);
    }

    #[test]
    fn a_client_times_out_its_server() {
        let t0 = Instant::now();
        let mut c = Client::new(scene(), auth(Duration::from_secs(3)));
        c.connected(7, t0).unwrap();
        assert_eq!(c.poll_timeout(), Some(t0 + Duration::from_secs(3)));
        c.tick(t0 + Duration::from_secs(3));
        assert_eq!(c.poll_output(), Some(Output::Disconnect(SERVER_ID)));
        assert_eq!(c.poll_timeout(), None);
    }

    #[test]
    fn a_deadline_past_the_clock_never_falls_due() {
        let t0 = Instant::now();
        let mut s = Server::new(scene(), auth(Duration::MAX));
        s.peer_connected(5, t0).unwrap();
        assert_eq!(s.poll_timeout(), None);
        s.tick(t0 + Duration::from_secs(1 << 20));
        assert_eq!(s.poll_output(), None);
    }
}
