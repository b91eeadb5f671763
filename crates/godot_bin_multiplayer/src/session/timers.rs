//! Time: [`tick`](Session::tick), the network frame that drops pending peers whose auth
//! timed out and (server) sends replication state, and
//! [`poll_timeout`](Session::poll_timeout), when the next of those timeouts falls due.

use super::{Output, Session};
use std::time::Instant;

impl Session {
    /// Drops pending peers whose auth took longer than the timeout, and (server) sends
    /// the replication state of this network frame. Call it every network frame.
    pub fn tick(&mut self, now: Instant) {
        if !self.opts.auth_timeout.is_zero() {
            let timeout = self.opts.auth_timeout;
            let late: Vec<i32> = self
                .in_auth
                .iter()
                .take_while(|(since, _)| now.saturating_duration_since(*since) >= timeout)
                .map(|&(_, id)| id)
                .collect();
            for id in late {
                self.out.push_back(Output::Disconnect(id));
                self.drop_peer(id, true);
            }
        }
        if self.is_server {
            self.send_sync();
        }
    }

    /// When [`tick`](Session::tick) next has a timer to serve: the earliest instant at
    /// which a peer still in auth reaches [`Options::auth_timeout`](super::Options) (a
    /// `tick` at or after it drops that peer). `None` when no timer is pending: no peer
    /// in auth, or the timeout is zero (none).
    ///
    /// This covers the session's timers only. A server's replication is sent by `tick`
    /// too, once per network frame at a rate the caller chooses (the engine's is the
    /// process frame; [`net::Host`](crate::net::Host)'s is its
    /// `sync_interval`): a caller that replicates ticks at the earlier of this instant and
    /// its next frame.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let timeout = self.opts.auth_timeout;
        if timeout.is_zero() {
            return None;
        }
        // The earliest start has the earliest deadline; past what Instant can hold, it
        // (and every later one) never falls due.
        let &(since, _) = self.in_auth.first()?;
        since.checked_add(timeout)
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
