//! The batch window's wait (`HostBuilder::batch_window`): after a turn that left nothing
//! to do, a blocking sleep before the next look at the sockets, so that the next turn
//! takes everything that arrived meanwhile.
//!
//! This file uses nothing of the crate, so that the bare transport
//! (`examples/multiplayer_bare`) waits with the very same code and stays the limit the
//! load run compares against (benches/RESULTS.md, issue 26).

use std::time::{Duration, Instant};

/// Sleeps for `window`, cut short at `until` (the next timer due); nothing for a zero
/// window or a timer already due. It blocks the calling thread: only for a runtime thread
/// that runs nothing else.
pub fn gather(window: Duration, until: Option<Instant>) {
    if window.is_zero() {
        return;
    }
    let now = Instant::now();
    let end = until.map_or(now + window, |u| u.min(now + window));
    if end > now {
        std::thread::sleep(end - now);
    }
}
