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
pub struct Ready {
    shared: Arc<Shared>,
    wakers: Vec<Option<(Arc<SlotWaker>, Waker)>>,
}

impl Ready {
    /// The waker of `slot` (made on first use, kept while the slot is in use). A slot
    /// starts out woken, so that its first poll happens.
    pub fn waker(&mut self, slot: usize) -> &Waker {
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
    pub fn wake(&mut self, slot: usize) {
        self.waker(slot).wake_by_ref();
    }

    /// Forgets `slot`'s waker: a wake from its old socket is dropped, and a new
    /// connection in the slot gets a fresh one.
    pub fn remove(&mut self, slot: usize) {
        if let Some(w) = self.wakers.get_mut(slot) {
            if let Some((s, _)) = w.take() {
                // An old waker still held by the socket's driver must not queue the slot.
                s.queued.store(true, Ordering::Release);
            }
        }
    }

    /// Appends the slots woken since the last call to `into` (which keeps, first, the
    /// slots a poll carried over), and registers `task` to be woken by the next slot that
    /// wakes. A slot stays queued, and is not listed again by its wakes, until
    /// [`polling`](Ready::polling) says it is being polled.
    ///
    /// A slot left unpolled stays in `into` for the next poll: once the task's budget is
    /// spent, tokio refuses the socket, clones the slot's waker into its deferred list and
    /// wakes it on the next tick, a slot at a time (seen under load: the crate's
    /// benches/RESULTS.md), so the owner stops there and carries the rest.
    pub fn take(&mut self, into: &mut Vec<usize>, task: &Waker) {
        let mut w = self
            .shared
            .woken
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        into.append(&mut w.slots);
        match &w.task {
            Some(t) if t.will_wake(task) => {}
            _ => w.task = Some(task.clone()),
        }
    }

    /// `slot` is being polled: a wake from now on lists it again. False if it was
    /// removed since it woke (skip it).
    pub fn polling(&self, slot: usize) -> bool {
        match self.wakers.get(slot) {
            Some(Some((s, _))) => {
                s.queued.store(false, Ordering::Release);
                true
            }
            _ => false,
        }
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

    /// Takes the woken slots into a fresh list and polls them all.
    fn take_all(r: &mut Ready, task: &Waker) -> Vec<usize> {
        let mut got = Vec::new();
        r.take(&mut got, task);
        got.retain(|&slot| r.polling(slot));
        got
    }

    #[test]
    fn slots_are_reported_once_per_wake_and_removed_slots_never() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(count.clone());
        let mut r = Ready::default();
        assert!(take_all(&mut r, &task).is_empty());
        let w3 = r.waker(3).clone();
        let w5 = r.waker(5).clone();
        w3.wake_by_ref();
        w3.wake_by_ref();
        w5.wake_by_ref();
        assert_eq!(count.0.load(Ordering::Relaxed), 1, "the task is woken once");
        assert_eq!(take_all(&mut r, &task), [3, 5]);
        assert!(take_all(&mut r, &task).is_empty());
        w5.wake_by_ref();
        r.remove(5);
        w5.wake_by_ref();
        assert!(
            take_all(&mut r, &task).is_empty(),
            "a removed slot is not reported"
        );
        // A new connection in slot 5 has a new waker that works.
        r.wake(5);
        assert_eq!(take_all(&mut r, &task), [5]);
    }

    #[test]
    fn a_slot_not_yet_polled_is_listed_once_however_often_it_wakes() {
        let count = Arc::new(Count(AtomicUsize::new(0)));
        let task = Waker::from(count.clone());
        let mut r = Ready::default();
        let mut woken = Vec::new();
        for slot in [1, 2, 3, 4] {
            r.wake(slot);
        }
        r.take(&mut woken, &task);
        assert_eq!(woken, [1, 2, 3, 4]);
        // The budget ran out after slot 1: 2, 3 and 4 are carried to the next poll.
        assert!(r.polling(1));
        woken.drain(..1);
        // Meanwhile 3 (carried, not yet polled) and 1 (polled) wake again.
        r.waker(3).wake_by_ref();
        r.waker(1).wake_by_ref();
        r.take(&mut woken, &task);
        assert_eq!(woken, [2, 3, 4, 1], "carried first, 3 not twice");
        // Once polled, a slot's next wake lists it again.
        assert!(woken.iter().all(|&s| r.polling(s)));
        woken.clear();
        r.waker(3).wake_by_ref();
        r.take(&mut woken, &task);
        assert_eq!(woken, [3]);
        // A carried slot removed before its turn is skipped.
        r.remove(3);
        assert!(!r.polling(3));
    }
}
