//! Time: [`tick`](Session::tick), the network frame that drops pending peers whose auth
//! timed out and (server) sends replication state.

use super::{Output, Session};
use std::time::Instant;

impl Session {
    /// Drops pending peers whose auth took longer than the timeout, and (server) sends
    /// the replication state of this network frame. Call it every network frame.
    pub fn tick(&mut self, now: Instant) {
        if !self.opts.auth_timeout.is_zero() {
            let timeout = self.opts.auth_timeout;
            let late: Vec<i32> = self
                .peers
                .iter()
                .filter(|(_, p)| {
                    p.pending
                        .as_ref()
                        .is_some_and(|p| now.saturating_duration_since(p.since) >= timeout)
                })
                .map(|(&id, _)| id)
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
}
