//! The ranks of a data-parallel run in one process (`fluidc run --nranks
//! N`, docs/distributed.md): N sessions on N threads, each a rank, joined
//! by a [`Group`] through which the `all_reduce` and `broadcast` kernels
//! (`ops::collective`) exchange tensors, as Paddle's gloo communicator
//! joins trainer processes.
//!
//! Every rank calls the same collectives in the same order (the programs
//! are the same). A collective completes when all N ranks have given
//! their tensor: the last to arrive computes the result, in rank order,
//! so every rank gets the same bits, and wakes the others. A rank that
//! fails [`Group::abort`]s the group, so that the others stop with an error
//! instead of waiting for it forever.
//!
//! A session with no group (a plain run) is a group of one: the
//! collectives are the identity.
use std::cell::RefCell;
use std::sync::{Arc, Condvar, Mutex, PoisonError};

use crate::error::KernelError;
use crate::tensor::Tensor;

/// What a collective computes from the ranks' tensors.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Reduce {
    /// `all_reduce` with `reduce_type` 0: the sum, added in rank order
    /// with the kernel's addition (the group only moves tensors).
    Sum(fn(&Tensor, &Tensor) -> Result<Tensor, KernelError>),
    /// `broadcast`: the tensor of this rank.
    From(usize),
}

/// N ranks of one run. See the module docs.
#[derive(Debug)]
pub struct Group {
    nranks: usize,
    state: Mutex<State>,
    done: Condvar,
}

#[derive(Debug)]
struct State {
    /// Collectives completed so far: a waiter's is done when this passes it.
    completed: u64,
    /// The tensors given to the current collective, by rank.
    given: Vec<Option<Tensor>>,
    /// The result of the last completed collective.
    result: Result<Tensor, KernelError>,
    aborted: Option<String>,
}

impl Group {
    pub fn new(nranks: usize) -> Arc<Group> {
        Arc::new(Group {
            nranks,
            state: Mutex::new(State {
                completed: 0,
                given: vec![None; nranks],
                result: Err(KernelError::Invalid("no collective has run".into())),
                aborted: None,
            }),
            done: Condvar::new(),
        })
    }

    pub fn nranks(&self) -> usize {
        self.nranks
    }

    /// Stops the group: collectives waiting now or later fail with
    /// `why` (the error of the rank that stopped). Whether this was the
    /// first abort, the cause of the others' errors.
    pub fn abort(&self, why: &str) -> bool {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let first = s.aborted.is_none();
        s.aborted.get_or_insert_with(|| why.to_string());
        self.done.notify_all();
        first
    }

    /// Rank `rank`'s part in one collective: waits for the others and
    /// returns the result.
    fn exchange(&self, rank: usize, t: Tensor, how: Reduce) -> Result<Tensor, KernelError> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let stopped = |s: &State| {
            s.aborted.as_ref().map(|why| {
                KernelError::Invalid(format!("another rank stopped the collective: {why}"))
            })
        };
        if let Some(e) = stopped(&s) {
            return Err(e);
        }
        let mine = s.completed;
        s.given[rank] = Some(t);
        if s.given.iter().all(Option::is_some) {
            let given: Vec<Tensor> = s.given.iter_mut().filter_map(Option::take).collect();
            s.result = combine(given, how);
            s.completed += 1;
            self.done.notify_all();
        } else {
            while s.completed == mine {
                if let Some(e) = stopped(&s) {
                    return Err(e);
                }
                s = self.done.wait(s).unwrap_or_else(PoisonError::into_inner);
            }
        }
        s.result.clone()
    }
}

/// The result of a collective from the ranks' tensors (in rank order).
fn combine(given: Vec<Tensor>, how: Reduce) -> Result<Tensor, KernelError> {
    let first = &given[0];
    for (rank, t) in given.iter().enumerate() {
        if t.dtype() != first.dtype() || t.shape() != first.shape() {
            return Err(KernelError::Shape(format!(
                "rank {rank} gives a {:?} tensor of shape {:?}, rank 0 a {:?} tensor of shape \
                 {:?}: every rank must give the same kind of tensor",
                t.dtype(),
                t.shape(),
                first.dtype(),
                first.shape()
            )));
        }
    }
    match how {
        Reduce::From(root) => given.into_iter().nth(root).ok_or_else(|| {
            KernelError::Attribute(format!("root {root}: the group has no such rank"))
        }),
        Reduce::Sum(add) => {
            let mut ranks = given.into_iter();
            let first = ranks.next().expect("a group has a rank");
            let lod = first.lod().to_vec();
            let mut sum = first;
            for t in ranks {
                sum = add(&sum, &t)?;
            }
            Ok(sum.with_lod(lod))
        }
    }
}

/// One rank's place in a group.
#[derive(Debug, Clone)]
pub struct Member {
    pub group: Arc<Group>,
    pub rank: usize,
}

thread_local! {
    static MEMBER: RefCell<Option<Member>> = const { RefCell::new(None) };
}

/// This thread's group membership, if its session has one.
pub(crate) fn member() -> Option<Member> {
    MEMBER.with(|m| m.borrow().clone())
}

/// Runs this rank's part of a collective on this thread's group: `t`
/// itself when the thread's session belongs to none.
pub(crate) fn exchange(t: Tensor, how: Reduce) -> Result<Tensor, KernelError> {
    match member() {
        None => Ok(t),
        Some(m) => m.group.exchange(m.rank, t, how),
    }
}

/// Makes `member` this thread's group membership until the guard drops
/// (the session sets it for a run, as it does its random engine).
pub(crate) fn use_member(member: Option<Member>) -> MemberGuard {
    MemberGuard {
        previous: MEMBER.with(|m| m.replace(member)),
    }
}

/// Restores the previous membership when dropped (see [`use_member`]).
#[derive(Debug)]
pub(crate) struct MemberGuard {
    previous: Option<Member>,
}

impl Drop for MemberGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        MEMBER.with(|m| *m.borrow_mut() = previous);
    }
}
