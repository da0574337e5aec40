//! Go channels: unbuffered handoff, buffered FIFO, close, and select.
//!
//! Semantics are Go's (docs/programs.md), where 2018 Paddle differed:
//! - a send completes when a receiver takes the value (unbuffered) or the
//!   buffer has room; values come out in the order they went in;
//! - a receive on a closed channel still drains the buffer, then completes at
//!   once with [`Outcome::Closed`] (zero value, status false);
//! - a send on a closed channel completes with [`Outcome::Closed`], which the
//!   runtime reports as "send on closed channel"; closing twice is an error;
//! - `close` wakes every blocked receiver and sender;
//! - a select polls its cases in the order the caller gives (the runtime
//!   shuffles it, so a ready case is chosen uniformly), takes the default if
//!   none is ready, or else blocks on all of them; a receive case on a closed
//!   channel and a send case on a closed channel count as ready.
//!
//! Blocking never sleeps here: a blocked operation registers the caller's
//! [`Waiter`] in the channels' queues, and the caller parks whatever it runs
//! (a goroutine) in it; see [`waiter`]. Like Go's `selectgo`, a select locks
//! all its channels (in address order, so two selects cannot deadlock) while
//! it polls and registers, so a counterpart can only claim it once it is fully
//! registered. Lock order: channel locks, then a waiter's lock; nothing takes
//! a channel lock while holding a waiter's.
mod waiter;

#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::sync::Arc;

use parking_lot::{Mutex, MutexGuard};

pub use waiter::{Completion, Outcome, Waiter};

/// A channel carrying `T`; `P` is what blocked operations park (see [`Waiter`]).
#[derive(Debug)]
pub struct Channel<T, P> {
    capacity: usize,
    state: Mutex<State<T, P>>,
}

#[derive(Debug)]
struct State<T, P> {
    buffer: VecDeque<T>,
    closed: bool,
    senders: VecDeque<SendEntry<T, P>>,
    receivers: VecDeque<RecvEntry<T, P>>,
}

/// A blocked send case: its waiter, the waiter's generation when it
/// registered (see [`waiter`]), its case number and the value it offers.
#[derive(Debug)]
struct SendEntry<T, P> {
    waiter: Arc<Waiter<T, P>>,
    generation: u64,
    case: usize,
    value: T,
}

#[derive(Debug)]
struct RecvEntry<T, P> {
    waiter: Arc<Waiter<T, P>>,
    generation: u64,
    case: usize,
}

/// The result of a send, receive or select that may block.
#[derive(Debug)]
pub enum Attempt<T, P> {
    /// Completed at once; the counterpart it completed, if that one was
    /// parked, must be woken.
    Done(Completion<T>, Option<P>),
    /// Nothing was ready and the select has a default case.
    Default,
    /// The caller's waiter is registered on every channel of the
    /// operation; park in it.
    Blocked,
}

/// One case of a select: a channel and, for a send, the value to send.
#[derive(Debug)]
pub struct Case<'a, T, P> {
    pub channel: &'a Channel<T, P>,
    pub send: Option<T>,
}

/// Closing a channel that is already closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlreadyClosed;

type Ready<T, P> = (Outcome<T>, Option<P>);

impl<T, P> State<T, P> {
    /// Sends now if possible; gives the value back if it would block.
    fn poll_send(&mut self, capacity: usize, mut value: T) -> Result<Ready<T, P>, T> {
        if self.closed {
            return Ok((Outcome::Closed, None));
        }
        while let Some(r) = self.receivers.pop_front() {
            let offer = Completion {
                case: r.case,
                outcome: Outcome::Received(value),
            };
            match r.waiter.complete(r.generation, offer) {
                Ok(wake) => return Ok((Outcome::Sent, wake)),
                // A select that already won elsewhere: take the value back.
                Err(back) => match back.outcome {
                    Outcome::Received(v) => value = v,
                    Outcome::Sent | Outcome::Closed => unreachable!("we offered a value"),
                },
            }
        }
        if self.buffer.len() < capacity {
            self.buffer.push_back(value);
            return Ok((Outcome::Sent, None));
        }
        Err(value)
    }

    /// Receives now if possible.
    fn poll_recv(&mut self) -> Option<Ready<T, P>> {
        if let Some(value) = self.buffer.pop_front() {
            // The buffer was full if a sender waits: its value takes the freed slot.
            let mut wake = None;
            while let Some(s) = self.senders.pop_front() {
                if let Ok(w) = s.waiter.complete(s.generation, sent(s.case)) {
                    self.buffer.push_back(s.value);
                    wake = w;
                    break;
                }
            }
            return Some((Outcome::Received(value), wake));
        }
        while let Some(s) = self.senders.pop_front() {
            if let Ok(wake) = s.waiter.complete(s.generation, sent(s.case)) {
                return Some((Outcome::Received(s.value), wake));
            }
        }
        if self.closed {
            return Some((Outcome::Closed, None));
        }
        None
    }

    fn remove(&mut self, waiter: &Arc<Waiter<T, P>>) {
        // Usually one entry or none: find and remove rather than `retain`.
        while let Some(i) = self
            .senders
            .iter()
            .position(|e| Arc::ptr_eq(&e.waiter, waiter))
        {
            self.senders.remove(i);
        }
        while let Some(i) = self
            .receivers
            .iter()
            .position(|e| Arc::ptr_eq(&e.waiter, waiter))
        {
            self.receivers.remove(i);
        }
    }
}

fn sent<T>(case: usize) -> Completion<T> {
    Completion {
        case,
        outcome: Outcome::Sent,
    }
}

impl<T, P> Channel<T, P> {
    /// A channel with room for `capacity` values (0 = unbuffered).
    pub fn new(capacity: usize) -> Self {
        Channel {
            capacity,
            state: Mutex::new(State {
                buffer: VecDeque::new(),
                closed: false,
                senders: VecDeque::new(),
                receivers: VecDeque::new(),
            }),
        }
    }

    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    #[cfg(test)]
    pub fn is_closed(&self) -> bool {
        self.state.lock().closed
    }

    /// Sends `value`, or registers `waiter` (unclaimed) as a blocked send
    /// (case 0).
    pub fn send(&self, value: T, waiter: &Arc<Waiter<T, P>>) -> Attempt<T, P> {
        let mut st = self.state.lock();
        match st.poll_send(self.capacity, value) {
            Ok((outcome, wake)) => Attempt::Done(Completion { case: 0, outcome }, wake),
            Err(value) => {
                st.senders.push_back(SendEntry {
                    waiter: waiter.clone(),
                    generation: waiter.generation(),
                    case: 0,
                    value,
                });
                Attempt::Blocked
            }
        }
    }

    /// Receives a value, or registers `waiter` (unclaimed) as a blocked
    /// receive (case 0).
    pub fn recv(&self, waiter: &Arc<Waiter<T, P>>) -> Attempt<T, P> {
        let mut st = self.state.lock();
        match st.poll_recv() {
            Some((outcome, wake)) => Attempt::Done(Completion { case: 0, outcome }, wake),
            None => {
                st.receivers.push_back(RecvEntry {
                    waiter: waiter.clone(),
                    generation: waiter.generation(),
                    case: 0,
                });
                Attempt::Blocked
            }
        }
    }

    /// Closes the channel; returns the parked operations it completed, to wake.
    pub fn close(&self) -> Result<Vec<P>, AlreadyClosed> {
        let mut st = self.state.lock();
        if st.closed {
            return Err(AlreadyClosed);
        }
        st.closed = true;
        let mut wake = Vec::new();
        let closed = |case| Completion {
            case,
            outcome: Outcome::Closed,
        };
        for r in std::mem::take(&mut st.receivers) {
            if let Ok(Some(p)) = r.waiter.complete(r.generation, closed(r.case)) {
                wake.push(p);
            }
        }
        for s in std::mem::take(&mut st.senders) {
            if let Ok(Some(p)) = s.waiter.complete(s.generation, closed(s.case)) {
                wake.push(p);
            }
        }
        Ok(wake)
    }

    /// Removes a select's remaining entries after it finished (they are
    /// stale, see [`waiter`]; this frees their places). A plain send or
    /// receive needs none: its one entry was taken by whoever completed it.
    pub fn unregister(&self, waiter: &Arc<Waiter<T, P>>) {
        self.state.lock().remove(waiter);
    }
}

/// Runs a select over `cases`, polling them in `order` (a permutation of the
/// case positions); registers `waiter` (unclaimed) on every case if it
/// blocks. See the module docs for the rules. A send case whose value was
/// delivered or registered has it taken out of `send`.
pub fn select<T, P>(
    cases: &mut [Case<'_, T, P>],
    order: &[usize],
    has_default: bool,
    waiter: &Arc<Waiter<T, P>>,
) -> Attempt<T, P> {
    // The bookkeeping lives on the stack for the usual few cases.
    const FEW: usize = 4;
    let n = cases.len();
    if n <= FEW {
        let mut guards: [Option<MutexGuard<'_, State<T, P>>>; FEW] = [None, None, None, None];
        let mut slot = [0; FEW];
        lock_and_select(
            cases,
            order,
            has_default,
            waiter,
            &mut guards[..n],
            &mut slot[..n],
        )
    } else {
        let mut guards: Vec<_> = (0..n).map(|_| None).collect();
        lock_and_select(
            cases,
            order,
            has_default,
            waiter,
            &mut guards,
            &mut vec![0; n],
        )
    }
}

/// [`select`] with room for a guard and a guard index per case.
fn lock_and_select<'c, T, P>(
    cases: &mut [Case<'c, T, P>],
    order: &[usize],
    has_default: bool,
    waiter: &Arc<Waiter<T, P>>,
    guards: &mut [Option<MutexGuard<'c, State<T, P>>>],
    slot: &mut [usize],
) -> Attempt<T, P> {
    // Lock every distinct channel once, in address order (so that two
    // selects cannot deadlock); case i's channel is `guards[slot[i]]`.
    // `slot` first holds the cases sorted by address (insertion sort: a
    // select has few cases).
    let n = cases.len();
    let addr = |i: usize| cases[i].channel as *const Channel<T, P> as usize;
    let mut by_addr = [0; 4];
    let mut many = Vec::new();
    let by_addr: &mut [usize] = if n <= by_addr.len() {
        &mut by_addr[..n]
    } else {
        many.resize(n, 0);
        &mut many
    };
    for i in 0..n {
        by_addr[i] = i;
        let mut j = i;
        while j > 0 && addr(by_addr[j - 1]) > addr(by_addr[j]) {
            by_addr.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut locked = 0;
    for k in 0..n {
        let i = by_addr[k];
        if k == 0 || addr(by_addr[k - 1]) != addr(i) {
            guards[locked] = Some(cases[i].channel.state.lock());
            locked += 1;
        }
        slot[i] = locked - 1;
    }

    for &i in order {
        let st = guards[slot[i]]
            .as_deref_mut()
            .expect("every case's channel is locked");
        let ready = match cases[i].send.take() {
            Some(value) => match st.poll_send(cases[i].channel.capacity, value) {
                Ok(ready) => Some(ready),
                Err(value) => {
                    cases[i].send = Some(value);
                    None
                }
            },
            None => st.poll_recv(),
        };
        if let Some((outcome, wake)) = ready {
            return Attempt::Done(Completion { case: i, outcome }, wake);
        }
    }
    if has_default {
        return Attempt::Default;
    }
    let generation = waiter.generation();
    for (i, case) in cases.iter_mut().enumerate() {
        let st = guards[slot[i]]
            .as_deref_mut()
            .expect("every case's channel is locked");
        match case.send.take() {
            Some(value) => st.senders.push_back(SendEntry {
                waiter: waiter.clone(),
                generation,
                case: i,
                value,
            }),
            None => st.receivers.push_back(RecvEntry {
                waiter: waiter.clone(),
                generation,
                case: i,
            }),
        }
    }
    Attempt::Blocked
}
