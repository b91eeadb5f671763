//! A counting allocator for measuring what decoding allocates.
//!
//! [`Counting`] wraps `System` and counts per thread, in `const`-initialised thread-locals
//! (they need no allocation and no destructor): the test harness and tests running at the
//! same time on other threads do not disturb a measurement, as long as the measured code
//! runs on the measuring thread. A binary installs it once, in its root:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: support::alloc::Counting = support::alloc::Counting;
//! ```
//!
//! Two measurements: [`peak_of`] (the most bytes live at once) and [`largest`] (the
//! largest single request since [`reset_largest`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting wrapper around `System`.
pub struct Counting;

thread_local! {
    /// Bytes allocated by this thread and not yet freed (may go negative when a thread
    /// frees what another allocated; only differences matter).
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    /// The highest `CURRENT` since the last reset.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// The largest single allocation (or reallocation's new size) since the last reset.
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = CURRENT.try_with(|c| {
        let now = c.get() + n as isize;
        c.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
    let _ = LARGEST.try_with(|l| l.set(l.get().max(n)));
}

fn shrink(n: usize) {
    let _ = CURRENT.try_with(|c| c.set(c.get() - n as isize));
}

// SAFETY: every call is forwarded to `System` unchanged; the wrapper only counts sizes in
// thread-locals that never allocate (const-initialised, no destructor, `try_with`).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grow(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        shrink(layout.size());
    }

    /// Counted as the worst case of a moving realloc: the new block is live before the old
    /// one is freed.
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = System.realloc(p, layout, new_size);
        if !q.is_null() {
            grow(new_size);
            shrink(layout.size());
        }
        q
    }
}

/// Runs `f` and returns the peak bytes it had allocated at once on this thread.
pub fn peak_of<R>(f: impl FnOnce() -> R) -> usize {
    let base = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let result = f();
    let peak = PEAK.with(Cell::get) - base;
    drop(result);
    peak.max(0) as usize
}

/// Forgets the largest allocation this thread has made so far.
pub fn reset_largest() {
    LARGEST.with(|l| l.set(0));
}

/// The largest single allocation this thread has made since [`reset_largest`].
pub fn largest() -> usize {
    LARGEST.with(Cell::get)
}
