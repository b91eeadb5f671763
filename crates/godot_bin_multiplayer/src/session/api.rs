//! The methods the roles share, written once: [`game_api!`] is what a game calls (RPCs,
//! raw bytes, auth, the peer list), on [`Server`](super::Server) and
//! [`Client`](super::Client) and on the transports that own one
//! ([`net::Host`](crate::net::Host), [`net::Peer`](crate::net::Peer));
//! [`driver_api!`] is what drives a sans-IO session (packets in, outputs and events out,
//! time), on `Server` and `Client` only, since a transport drives its own.
//!
//! Each macro expands to forwarding methods inside an `impl` block; its argument names the
//! field that holds the value to forward to, which has the same methods.

/// The methods a game calls on any session; `$inner` is the field to forward to.
macro_rules! game_api {
    ($inner:tt) => {
        /// The declared scene.
        pub fn scene(&self) -> &std::sync::Arc<$crate::scene::Scene> {
            self.$inner.scene()
        }

        /// The options.
        pub fn options(&self) -> &$crate::session::Options {
            self.$inner.options()
        }

        /// Our peer id (1 on a server; on a client, 0 until it connects).
        pub fn unique_id(&self) -> i32 {
            self.$inner.unique_id()
        }

        /// The admitted peers (`multiplayer.get_peers()`).
        pub fn peers(&self) -> impl Iterator<Item = i32> + '_ {
            self.$inner.peers()
        }

        /// Peers whose auth is in progress.
        pub fn authenticating_peers(&self) -> impl Iterator<Item = i32> + '_ {
            self.$inner.authenticating_peers()
        }

        /// Calls `method` on `node` at peer `to` (0 = every peer, `-id` = every peer but
        /// `id`), with arguments already in wire form: answering an
        /// [`RpcCall`](crate::RpcCall) with its own `args` costs no decoding.
        pub fn call_args(
            &mut self,
            to: i32,
            node: $crate::scene::NodeId,
            method: &str,
            args: &$crate::args::Args,
        ) -> $crate::error::Result<()> {
            self.$inner.call_args(to, node, method, args)
        }

        /// `rpc_id(to, ...)`: calls `method` on the node at `path` at peer `to` (0 = all,
        /// `-id` = all but `id`). `args` is a tuple of the arguments (`&(value,)` for one,
        /// `&()` for none) or an [`Args`](crate::Args); anything else does not
        /// compile (see [`CallArgs`](crate::CallArgs)).
        pub fn rpc_id<A: $crate::args::CallArgs + ?Sized>(
            &mut self,
            to: i32,
            path: &str,
            method: &str,
            args: &A,
        ) -> $crate::error::Result<()> {
            self.$inner.rpc_id(to, path, method, args)
        }

        /// `rpc(...)`: calls `method` on every admitted peer.
        pub fn rpc<A: $crate::args::CallArgs + ?Sized>(
            &mut self,
            path: &str,
            method: &str,
            args: &A,
        ) -> $crate::error::Result<()> {
            self.$inner.rpc(path, method, args)
        }

        /// `send_bytes(data, to, mode, channel)` (to: 0 = all, `-id` = all but `id`).
        pub fn send_bytes(
            &mut self,
            to: i32,
            data: &[u8],
            mode: $crate::scene::TransferMode,
            channel: u8,
        ) -> $crate::error::Result<()> {
            self.$inner.send_bytes(to, data, mode, channel)
        }

        /// `send_auth(peer, data)`: auth data to a pending peer.
        pub fn send_auth(&mut self, peer: i32, data: &[u8]) -> $crate::error::Result<()> {
            self.$inner.send_auth(peer, data)
        }

        /// `complete_auth(peer)`: our side accepts; the peer is admitted once it completes
        /// too.
        pub fn complete_auth(&mut self, peer: i32) -> $crate::error::Result<()> {
            self.$inner.complete_auth(peer)
        }
    };
}

/// The methods that drive a sans-IO session; `$inner` is the field to forward to.
macro_rules! driver_api {
    ($inner:tt) => {
        /// A packet arrived from transport peer `from` (on a client, always 1).
        pub fn receive(
            &mut self,
            from: i32,
            channel: u8,
            mode: $crate::scene::TransferMode,
            packet: &[u8],
            now: std::time::Instant,
        ) {
            self.$inner.receive(from, channel, mode, packet, now)
        }

        /// The next event, if any.
        pub fn poll_event(&mut self) -> Option<$crate::session::Event> {
            self.$inner.poll_event()
        }

        /// The next packet or disconnect for the transport, if any.
        pub fn poll_output(&mut self) -> Option<$crate::session::Output> {
            self.$inner.poll_output()
        }

        /// Whether outputs are waiting.
        pub fn has_output(&self) -> bool {
            self.$inner.has_output()
        }

        /// Drops pending peers whose auth took longer than the timeout, and (server) sends
        /// the replication state of this network frame. Call it every network frame, and
        /// at [`poll_timeout`](Self::poll_timeout).
        pub fn tick(&mut self, now: std::time::Instant) {
            self.$inner.tick(now)
        }

        /// When [`tick`](Self::tick) next has a timer to serve: the earliest instant at
        /// which a peer still in auth reaches
        /// [`Options::auth_timeout`](crate::Options::auth_timeout) (a `tick` at
        /// or after it drops that peer). `None` when no timer is pending: no peer in auth,
        /// or the timeout is zero (none).
        ///
        /// This covers the session's timers only. A server's replication is sent by `tick`
        /// too, once per network frame at a rate the caller chooses (the engine's is the
        /// process frame, `net::Host`'s its `sync_interval`): a server that replicates
        /// ticks at the earlier of this instant and its next frame.
        pub fn poll_timeout(&self) -> Option<std::time::Instant> {
            self.$inner.poll_timeout()
        }
    };
}

pub(crate) use driver_api;
pub(crate) use game_api;
