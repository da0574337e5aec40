//! The interpreter: runs a goroutine's frames op by op on a worker.
//!
//! Compute ops call their kernel. Control ops push frames (`while`,
//! `conditional_block`, `select`), start goroutines (`go`) or do channel
//! operations; a channel operation that cannot complete returns the waiter it
//! registered, the goroutine parks in it and the worker moves on. The woken
//! goroutine runs the same op again, which then finishes with the waiter's
//! completion (the transfer already happened, as in Go).
use std::sync::{Arc, OnceLock};

use rand::seq::SliceRandom;
use smallvec::{smallvec, SmallVec};

use crate::channel::{self, Attempt, Completion, Outcome};
use crate::error::RuntimeError;
use crate::goroutine::{Blocked, Frame, FrameKind, Goroutine, Parked};
use crate::ops::control::{CaseOp, Select};
use crate::ops::{Control, Exec};
use crate::scheduler::{Worker, TIME_SLICE};
use crate::scope::Scope;
use crate::tensor::Tensor;
use crate::value::TypedChannel;

/// What one step of a goroutine led to.
enum Step {
    Next,
    Block(Parked),
    Exit,
}

const SEND_ON_CLOSED: &str = "send on closed channel";

impl Worker<'_, '_> {
    /// Runs `g` until it blocks, exits, fails, or its time slice ends while
    /// others wait.
    pub(crate) fn run_goroutine(&mut self, mut g: Box<Goroutine>) {
        let mut budget = TIME_SLICE;
        loop {
            if self.sched.is_done() {
                return;
            }
            match self.step(&mut g) {
                Ok(Step::Next) => {}
                Ok(Step::Exit) => return self.sched.exited(&g),
                Ok(Step::Block(parked)) => {
                    let frame = g.frames.last().expect("a blocked goroutine has a frame");
                    let waiter = parked.waiter.clone();
                    *g.info.blocked.lock() = Some(Blocked {
                        block: frame.block,
                        op: frame.pc,
                        waiter: waiter.clone(),
                    });
                    g.parked = Some(parked);
                    let info = g.info.clone();
                    match waiter.park(g) {
                        Ok(()) => return self.sched.parked(),
                        // Completed while registering: carry on.
                        Err(back) => {
                            *info.blocked.lock() = None;
                            g = back;
                        }
                    }
                }
                Err(e) => return self.sched.finish(Some(e)),
            }
            budget -= 1;
            if budget == 0 {
                budget = TIME_SLICE;
                if self.next.is_some() || self.sched.has_queued() {
                    return self.sched.push(g);
                }
            }
        }
    }

    fn wake_all(&mut self, woken: impl IntoIterator<Item = Box<Goroutine>>) {
        for g in woken {
            self.wake(g);
        }
    }

    fn step(&mut self, g: &mut Goroutine) -> Result<Step, RuntimeError> {
        let prog = self.sched.prog;
        let frame = g
            .frames
            .last_mut()
            .expect("a running goroutine has a frame");
        let Some(op) = prog.blocks[frame.block].ops.get(frame.pc) else {
            return self.end_frame(g);
        };
        match &op.exec {
            Exec::Compute(kernel) => {
                kernel(&frame.scope).map_err(|e| op.info.error(e))?;
                frame.pc += 1;
                Ok(Step::Next)
            }
            Exec::Control(c) => self.control(g, c).map_err(|e| op.info.error(e)),
        }
    }

    fn end_frame(&mut self, g: &mut Goroutine) -> Result<Step, RuntimeError> {
        let prog = self.sched.prog;
        let frame = g
            .frames
            .last_mut()
            .expect("a running goroutine has a frame");
        if let FrameKind::While { cond, op } = &frame.kind {
            let again = frame
                .scope
                .condition(cond)
                .map_err(|e| prog.blocks[op.0].ops[op.1].info.error(e))?;
            if again {
                let parent = frame
                    .scope
                    .parent()
                    .expect("a loop body's scope has a parent")
                    .clone();
                frame.scope = Scope::child(&parent, prog.blocks[frame.block].slots);
                frame.pc = 0;
                return Ok(Step::Next);
            }
        }
        g.frames.pop();
        Ok(if g.frames.is_empty() {
            Step::Exit
        } else {
            Step::Next
        })
    }

    fn control(&mut self, g: &mut Goroutine, c: &Control) -> Result<Step, String> {
        let prog = self.sched.prog;
        let frame = g
            .frames
            .last_mut()
            .expect("a running goroutine has a frame");
        let child = |scope: &Arc<Scope>, body: usize| Scope::child(scope, prog.blocks[body].slots);
        match c {
            Control::While { cond, body } => {
                let op = (frame.block, frame.pc);
                frame.pc += 1;
                if frame.scope.condition(cond)? {
                    let scope = child(&frame.scope, *body);
                    let kind = FrameKind::While {
                        cond: cond.seen_from_child(),
                        op,
                    };
                    g.frames.push(Frame {
                        block: *body,
                        pc: 0,
                        scope,
                        kind,
                    });
                }
            }
            Control::CondBlock {
                conds,
                scalar,
                body,
            } => {
                let run = if *scalar {
                    frame.scope.condition(&conds[0])?
                } else {
                    let mut all = true;
                    for c in conds {
                        all &= frame.scope.tensor(c)?.numel() != 0;
                    }
                    all
                };
                frame.pc += 1;
                if run {
                    let scope = child(&frame.scope, *body);
                    g.frames.push(once(*body, scope));
                }
            }
            Control::Go { body } => {
                frame.pc += 1;
                self.sched.spawn(once(*body, child(&frame.scope, *body)));
            }
            Control::Send { channel, x } => {
                let outcome = match g.parked.take() {
                    Some(p) => completion(&p).outcome,
                    None => {
                        let ch = frame.scope.channel(channel)?;
                        let value = frame.scope.tensor(x)?;
                        ch.check(&value)?;
                        match ch.chan.send(value) {
                            Attempt::Done(c, woken) => {
                                self.wake_all(woken);
                                c.outcome
                            }
                            Attempt::Blocked(waiter) => return Ok(blocked(waiter, smallvec![ch])),
                            Attempt::Default => unreachable!("a send has no default case"),
                        }
                    }
                };
                if outcome == Outcome::Closed {
                    return Err(SEND_ON_CLOSED.into());
                }
                frame.pc += 1;
            }
            Control::Recv {
                channel,
                out,
                status,
                zero,
            } => {
                let (c, ch) = match g.parked.take() {
                    Some(p) => (completion(&p), p.channels[0].clone()),
                    None => {
                        let ch = frame.scope.channel(channel)?;
                        match ch.chan.recv() {
                            Attempt::Done(c, woken) => {
                                self.wake_all(woken);
                                (c, ch)
                            }
                            Attempt::Blocked(waiter) => return Ok(blocked(waiter, smallvec![ch])),
                            Attempt::Default => unreachable!("a receive has no default case"),
                        }
                    }
                };
                let (value, ok) = match c.outcome {
                    Outcome::Received(v) => (v, true),
                    _ => (zero.tensor(&ch), false),
                };
                frame.scope.set_tensor(out, value);
                if let Some(status) = status {
                    frame.scope.set_tensor(status, status_tensor(ok));
                }
                frame.pc += 1;
            }
            Control::Close { channel } => {
                let ch = frame.scope.channel(channel)?;
                let woken = ch
                    .chan
                    .close()
                    .map_err(|_| "close of closed channel".to_string())?;
                frame.pc += 1;
                self.wake_all(woken);
            }
            Control::Select(sel) => {
                let chosen = match g.parked.take() {
                    Some(p) => {
                        let c = completion(&p);
                        if p.channels.len() > 1 {
                            for ch in &p.channels {
                                ch.chan.unregister(&p.waiter);
                            }
                        }
                        Some((c, p.channels))
                    }
                    None => match self.try_select(sel, &frame.scope)? {
                        Ok(chosen) => chosen,
                        Err(parked) => return Ok(Step::Block(parked)),
                    },
                };
                let scope = child(&frame.scope, sel.body);
                let index = match chosen {
                    None => sel
                        .default
                        .clone()
                        .expect("only a select with a default case takes it"),
                    Some((c, channels)) => {
                        let case = &sel.cases[c.case];
                        match (&case.op, c.outcome) {
                            (CaseOp::Send(_), Outcome::Closed) => return Err(SEND_ON_CLOSED.into()),
                            (CaseOp::Recv { value, .. }, Outcome::Received(v)) => {
                                scope.set_tensor(value, v)
                            }
                            (CaseOp::Recv { value, zero }, _) => {
                                scope.set_tensor(value, zero.tensor(&channels[c.case]))
                            }
                            (CaseOp::Send(_), _) => {}
                        }
                        case.index.clone()
                    }
                };
                frame.scope.set_tensor(&sel.case_to_execute, index);
                frame.pc += 1;
                g.frames.push(once(sel.body, scope));
            }
        }
        Ok(Step::Next)
    }

    /// Polls a select's cases in random order. `Ok(Ok(None))`: the default
    /// case; `Ok(Ok(Some(..)))`: a case completed; `Ok(Err(parked))`: blocked.
    #[allow(clippy::type_complexity)]
    fn try_select(
        &mut self,
        sel: &Select,
        scope: &Scope,
    ) -> Result<Result<Option<(Completion<Tensor>, Channels)>, Parked>, String> {
        let channels: Channels = sel
            .cases
            .iter()
            .map(|c| scope.channel(&c.channel))
            .collect::<Result<_, _>>()?;
        let mut cases = Vec::with_capacity(channels.len());
        for (case, ch) in sel.cases.iter().zip(&channels) {
            let send = match &case.op {
                CaseOp::Send(v) => {
                    let t = scope.tensor(v)?;
                    ch.check(&t)?;
                    Some(t)
                }
                CaseOp::Recv { .. } => None,
            };
            cases.push(channel::Case {
                channel: &ch.chan,
                send,
            });
        }
        let mut order: SmallVec<[usize; 4]> = (0..cases.len()).collect();
        if order.len() > 1 {
            order.shuffle(&mut self.rng);
        }
        let attempt = channel::select(cases, &order, sel.default.is_some());
        Ok(match attempt {
            Attempt::Done(c, woken) => {
                self.wake_all(woken);
                Ok(Some((c, channels)))
            }
            Attempt::Default => Ok(None),
            Attempt::Blocked(waiter) => Err(Parked { waiter, channels }),
        })
    }
}

type Channels = SmallVec<[Arc<TypedChannel>; 2]>;

fn once(block: usize, scope: Arc<Scope>) -> Frame {
    Frame {
        block,
        pc: 0,
        scope,
        kind: FrameKind::Once,
    }
}

fn blocked(waiter: Arc<crate::goroutine::GWaiter>, channels: Channels) -> Step {
    Step::Block(Parked { waiter, channels })
}

/// A receive's status, `bool [1]`: two shared tensors, so a receive
/// allocates nothing for it.
fn status_tensor(ok: bool) -> Tensor {
    static FLAGS: OnceLock<[Tensor; 2]> = OnceLock::new();
    FLAGS.get_or_init(|| [Tensor::scalar(false), Tensor::scalar(true)])[usize::from(ok)].clone()
}

/// The completion of a woken goroutine's operation.
fn completion(p: &Parked) -> Completion<Tensor> {
    p.waiter
        .take_completion()
        .expect("a goroutine is woken only after its waiter is claimed")
}
