//! The one waiter mechanism behind send, receive and select.
//!
//! A blocked operation is a [`Waiter`]: it sits in the send or receive queue
//! of every channel it waits on (one for a plain send or receive, several for
//! a select). Whoever can complete it — a counterpart sender or receiver, or
//! `close` — claims it with [`Waiter::complete`]. Exactly one claim succeeds
//! (crossbeam's one-winner select); later claims get their value back and move
//! on to the next waiter in the queue, so stale entries of a select already
//! won on another channel are skipped, never lost.
//!
//! What is parked is generic (`P`): the runtime parks a goroutine (its frame
//! stack), the tests park an OS thread. The waiter never sleeps itself; the
//! claimer gets the parked value back and schedules it. Parking and claiming
//! can race (a counterpart may claim a waiter between its registration and
//! [`Waiter::park`]); then `park` refuses and the caller keeps running.
//!
//! A waiter is reusable: [`Waiter::finish`] takes the completion and makes it
//! ready for the next operation, so a goroutine keeps one for its whole life
//! instead of allocating one per blocking operation. Every operation has its
//! own generation, and a channel's entry carries the generation it was
//! registered in: a claim through an entry of an earlier operation fails as
//! if another case had won. So a select's other entries are harmless once
//! it finished; [`super::Channel::unregister`] removes them only to free
//! their places in the queues, and not from the channel that completed it,
//! whose claimer already took its entry (one lock less per blocked select).
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use parking_lot::Mutex;

/// How a blocked case ended.
#[derive(Debug, PartialEq)]
pub enum Outcome<T> {
    /// A send case handed its value over (to a receiver or the buffer).
    Sent,
    /// A receive case got a value.
    Received(T),
    /// The channel was closed: a receive case gets the zero value and
    /// status false, a send case is an error.
    Closed,
}

/// Which case of a waiter won and how it ended.
#[derive(Debug, PartialEq)]
pub struct Completion<T> {
    /// The position of the case in the select (0 for a plain send or receive).
    pub case: usize,
    pub outcome: Outcome<T>,
}

#[derive(Debug)]
enum Sleeper<P> {
    /// Registered on channels, not yet parked.
    Registering,
    Parked(P),
    /// Claimed: the parked value was handed to the claimer, or never parked.
    Gone,
}

#[derive(Debug)]
struct State<T, P> {
    claimed: bool,
    completion: Option<Completion<T>>,
    sleeper: Sleeper<P>,
}

/// One blocked send, receive or select. See the module docs.
#[derive(Debug)]
pub struct Waiter<T, P> {
    /// The generation of the operation in progress. Written only by the
    /// waiter's owner, in [`Waiter::finish`] under the state's lock; claimers
    /// read it under that lock, the owner (registering) without.
    generation: AtomicU64,
    state: Mutex<State<T, P>>,
}

impl<T, P> Default for Waiter<T, P> {
    fn default() -> Self {
        Waiter {
            generation: AtomicU64::new(0),
            state: Mutex::new(State {
                claimed: false,
                completion: None,
                sleeper: Sleeper::Registering,
            }),
        }
    }
}

impl<T, P> Waiter<T, P> {
    /// The generation the owner registers its entries with.
    pub fn generation(&self) -> u64 {
        self.generation.load(Relaxed)
    }

    /// Claims the waiter with `completion`, through an entry registered in
    /// `generation`. `Ok(Some(p))`: the claimer must wake `p`; `Ok(None)`:
    /// the waiter was not parked yet and will see the completion itself;
    /// `Err(completion)`: another case already won, or the entry is stale.
    pub fn complete(
        &self,
        generation: u64,
        completion: Completion<T>,
    ) -> Result<Option<P>, Completion<T>> {
        let mut s = self.state.lock();
        if s.claimed || generation != self.generation.load(Relaxed) {
            return Err(completion);
        }
        s.claimed = true;
        s.completion = Some(completion);
        match std::mem::replace(&mut s.sleeper, Sleeper::Gone) {
            Sleeper::Parked(p) => Ok(Some(p)),
            Sleeper::Registering | Sleeper::Gone => Ok(None),
        }
    }

    /// Parks `p` until a claim. `Err(p)` if the waiter was already claimed:
    /// the caller keeps running `p` and takes the completion.
    pub fn park(&self, p: P) -> Result<(), P> {
        let mut s = self.state.lock();
        if s.claimed {
            return Err(p);
        }
        s.sleeper = Sleeper::Parked(p);
        Ok(())
    }

    #[cfg(test)]
    pub fn is_claimed(&self) -> bool {
        self.state.lock().claimed
    }

    /// The winning case, once claimed (leaving the waiter claimed).
    #[cfg(test)]
    pub fn take_completion(&self) -> Option<Completion<T>> {
        self.state.lock().completion.take()
    }

    /// The winning case, once claimed; the waiter is then ready for the
    /// next operation, and every entry registered so far is stale.
    pub fn finish(&self) -> Option<Completion<T>> {
        let mut s = self.state.lock();
        s.claimed = false;
        s.sleeper = Sleeper::Registering;
        self.generation
            .store(self.generation.load(Relaxed) + 1, Relaxed);
        s.completion.take()
    }

    /// Takes the parked value without claiming: used when the program ends
    /// with goroutines still blocked, to free them.
    pub fn take_parked(&self) -> Option<P> {
        let mut s = self.state.lock();
        match std::mem::replace(&mut s.sleeper, Sleeper::Gone) {
            Sleeper::Parked(p) => Some(p),
            other => {
                s.sleeper = other;
                None
            }
        }
    }
}
