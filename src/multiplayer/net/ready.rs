//! Which of many sockets woke: one task drives all of a host's connections itself, without
//! a task (and a channel) per connection.
//!
//! Each slot gets a waker of its own ([`Ready::waker`]); a slot's socket, polled with that
//! waker, records the slot in the woken list when it becomes ready and wakes the one task.
//! The task then polls only the slots in [`Ready::take`], as `FuturesUnordered` does for
//! futures. It uses nothing but `std`, so that the bare transport servers of the load run
//! can share it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Wake, Waker};

/// The woken slots and the task to wake.
#[derive(Default)]
struct Shared {
    woken: Mutex<Woken>,
}

#[derive(Default)]
struct Woken {
    slots: Vec<usize>,
    task: Option<Waker>,
}

/// One slot's waker: records the slot once until the task takes it.
struct SlotWaker {
    slot: usize,
    queued: AtomicBool,
    shared: Arc<Shared>,
}

impl Wake for SlotWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref()
    }

    fn wake_by_ref(self: &Arc<Self>) {
        if self.queued.swap(true, Ordering::AcqRel) {
            return;
        }
        let task = {
            let mut w = self
                .shared
                .woken
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            w.slots.push(self.slot);
            w.task.take()
        };
        if let Some(t) = task {
            t.wake();
        }
    }
}

/// The wakers of a set of slots, and the list of those woken since the last
/// [`take`](Ready::take).
#[derive(Default)]
pub(crate) struct Ready {
    shared: Arc<Shared>,
    wakers: Vec<Option<(Arc<SlotWaker>, Waker)>>,
}

impl Ready {
    /// The waker of `slot` (made on first use, kept while the slot is in use). A slot
    /// starts out woken, so that its first poll happens.
    pub(crate) fn waker(&mut self, slot: usize) -> &Waker {
        if self.wakers.len() <= slot {
            self.wakers.resize_with(slot + 1, || None);
        }
        let shared = &self.shared;
        let entry = self.wakers[slot].get_or_insert_with(|| {
            let w = Arc::new(SlotWaker {
                slot,
                queued: AtomicBool::new(false),
                shared: shared.clone(),
            });
            (w.clone(), Waker::from(w))
        });
        &entry.1
    }

    /// Marks `slot` woken (a new connection, or one with work left over).
    pub(crate) fn wake(&mut self, slot: usize) {
        self.waker(slot).wake_by_ref();
    }

    /// Forgets `slot`'s waker: a wake from its old socket is dropped, and a new
    /// connection in the slot gets a fresh one.
    pub(crate) fn remove(&mut self, slot: usize) {
        if let Some(w) = self.wakers.get_mut(slot) {
            if let Some((s, _)) = w.take() {
                // An old waker still held by the socket's driver must not queue the slot.
                s.queued.store(true, Ordering::Release);
            }
        }
    }

    /// Puts back slots taken by [`take`](Ready::take) but not polled, because the task's
    /// budget ran out: they come first in the next `take`, and the task is woken for it.
    /// A slot that woke again meanwhile is not listed twice.
    ///
    /// Polling a socket past the budget is not free: tokio refuses the read, clones the
    /// slot's waker into its deferred list and wakes it on the next tick, a slot at a
    /// time (benches/RESULTS.md, issue 26).
    pub(crate) fn put_back(&mut self, slots: &[usize]) {
        let wakers = &self.wakers;
        let task = {
            let mut w = self
                .shared
                .woken
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            let before = w.slots.len();
            let again = slots
                .iter()
                .copied()
                .filter(|&slot| match wakers.get(slot) {
                    Some(Some((s, _))) => !s.queued.swap(true, Ordering::AcqRel),
                    _ => false,
                });
            w.slots.splice(0..0, again);
            if w.slots.len() == before {
                return;
            }
            w.task.take()
        };
        if let Some(t) = task {
            t.wake();
        }
    }

    /// Moves the slots woken since the last call into `into` (cleared first), and registers
    /// `task` to be woken by the next slot that wakes. A slot taken here is queued again by
    /// its next wake.
    pub(crate) fn take(&mut self, into: &mut Vec<usize>, task: &Waker) {
        into.clear();
        {
            let mut w = self
                .shared
                .woken
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            std::mem::swap(&mut w.slots, into);
            match &w.task {
                Some(t) if t.will_wake(task) => {}
                _ => w.task = Some(task.clone()),
            }
        }
        into.retain(|&slot| match self.wakers.get(slot) {
            Some(Some((s, _))) => {
                s.queued.store(false, Ordering::Release);
                true
            }
            // Removed since it woke.
            _ => false,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::Ready;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use std::task::{Wake, Waker};

    struct Count(AtomicUsize);
    impl Wake for Count {
        fn wake(self: Arc<Self>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn slots_are_reported_once_per_wake_and_removed_slots_never() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(count.clone());
        let mut r = Ready::default();
        let mut got = Vec::new();
        r.take(&mut got, &task);
        assert!(got.is_empty());
        let w3 = r.waker(3).clone();
        let w5 = r.waker(5).clone();
        w3.wake_by_ref();
        w3.wake_by_ref();
        w5.wake_by_ref();
        assert_eq!(count.0.load(Ordering::Relaxed), 1, "the task is woken once");
        r.take(&mut got, &task);
        assert_eq!(got, [3, 5]);
        r.take(&mut got, &task);
        assert!(got.is_empty());
        w5.wake_by_ref();
        r.remove(5);
        w5.wake_by_ref();
        r.take(&mut got, &task);
        assert!(got.is_empty(), "a removed slot is not reported");
        // A new connection in slot 5 has a new waker that works.
        r.wake(5);
        r.take(&mut got, &task);
        assert_eq!(got, [5]);
    }

    #[test]
    fn slots_put_back_come_first_once_and_wake_the_task() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(count.clone());
        let mut r = Ready::default();
        let mut got = Vec::new();
        for slot in [1, 2, 3, 4] {
            r.wake(slot);
        }
        r.take(&mut got, &task);
        assert_eq!(got, [1, 2, 3, 4]);
        // Slot 1 was polled; 2, 3 and 4 were not: the task is woken to come back.
        let before = count.0.load(Ordering::Relaxed);
        r.put_back(&got[1..]);
        assert_eq!(
            count.0.load(Ordering::Relaxed),
            before + 1,
            "the task is woken"
        );
        r.take(&mut got, &task);
        assert_eq!(got, [2, 3, 4]);
        // Slots 3 and 1 wake again before 2, 3 and 4 are put back.
        r.waker(3).wake_by_ref();
        r.waker(1).wake_by_ref();
        r.put_back(&got);
        r.take(&mut got, &task);
        assert_eq!(got, [2, 4, 3, 1], "put back first, 3 not twice");
        // Removed slots are not put back.
        r.remove(2);
        r.put_back(&[2]);
        r.take(&mut got, &task);
        assert!(got.is_empty());
        // Put back slots are queued: a wake before the next take does not list them twice.
        r.put_back(&[4]);
        r.waker(4).wake_by_ref();
        r.take(&mut got, &task);
        assert_eq!(got, [4]);
    }
}
