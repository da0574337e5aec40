//! The interpreter: runs a goroutine's frames op by op on a worker.
//!
//! Compute ops call their kernel. Control ops push frames (`while`,
//! `conditional_block`, `select`), start goroutines (`go`) or do channel
//! operations; a channel operation that cannot complete returns the waiter it
//! registered, the goroutine parks in it and the worker moves on. The woken
//! goroutine runs the same op again, which then finishes with the waiter's
//! completion (the transfer already happened, as in Go).
use std::sync::Arc;
use std::time::Instant;

use rand::RngCore;
use smallvec::{smallvec, SmallVec};

use crate::channel::{self, Attempt, Completion, Outcome};
use crate::error::{KernelError, RuntimeError};
use crate::exec::{CaseOp, Control, Exec, Select, ZeroValue};
use crate::goroutine::{first_frame, GWaiter, Goroutine, Parked};
use crate::load::{LoadedOp, Runnable};
use crate::recurrent;
use crate::scheduler::{Stop, Worker};
use crate::scope::{ChannelCache, FrameKind, VarRef, Vars};
use crate::steps;
use crate::tensor::Scalar;
use crate::value::{ParkedGoroutine, TypedChannel, Value};

/// What one step of a goroutine led to.
enum Step {
    Next,
    /// The op registered the goroutine's waiter and set `Goroutine::parked`.
    Block,
    Exit,
}

const SEND_ON_CLOSED: &str = "send on closed channel";

impl Worker<'_, '_> {
    /// Runs `g` until it blocks, exits, fails, or its time slice ends while
    /// others wait.
    pub(crate) fn run_goroutine(&mut self, g: Box<Goroutine>) {
        self.run_slice(g);
        self.count_woken();
    }

    /// Runs `g` on grants of ops from the scheduler (see
    /// `crate::scheduler`); gives back what it did not use when it stops.
    fn run_slice(&mut self, mut g: Box<Goroutine>) {
        let mut budget = match self.sched.grant() {
            Ok(n) => n,
            Err(stop) => {
                return self
                    .sched
                    .finish(Some(stopped_at(&g, self.sched.prog, stop)))
            }
        };
        loop {
            if self.sched.is_done() {
                return self.sched.refund(budget);
            }
            match self.step(&mut g, &mut budget) {
                Ok(Step::Next) => {}
                Ok(Step::Exit) => {
                    self.sched.refund(budget);
                    if self.sched.exited(*g) {
                        self.stopped();
                    }
                    return;
                }
                Ok(Step::Block) => {
                    let frame = &g.frames[g.depth - 1];
                    let info = g.info.clone();
                    info.park_at(frame.block, frame.pc);
                    match info.waiter.park(g.parked()) {
                        Ok(()) => {
                            self.sched.refund(budget);
                            return self.stopped();
                        }
                        // Completed while registering: carry on.
                        Err(back) => g = Goroutine::woken(back),
                    }
                }
                Err(e) => return self.sched.finish(Some(e)),
            }
            if budget == 0 {
                if self.others_wait() {
                    // Count its wake-ups first: once in the shared queue it
                    // may run, park and stop on another worker at once, and
                    // with them still uncounted `active` could reach 0
                    // while the goroutines it woke wait here (a false
                    // deadlock report).
                    self.count_woken();
                    return self.sched.push(g);
                }
                budget = match self.sched.grant() {
                    Ok(n) => n,
                    Err(stop) => {
                        return self
                            .sched
                            .finish(Some(stopped_at(&g, self.sched.prog, stop)))
                    }
                };
            }
        }
    }

    fn wake_all(&mut self, woken: impl IntoIterator<Item = ParkedGoroutine>) {
        for g in woken {
            self.wake(Goroutine::woken(g));
        }
    }

    /// Runs the innermost frame's compute ops up to the next control op,
    /// then that op or the frame's end, each op taking one of `budget`
    /// (the end of a `while` body too: the `while` checks its condition
    /// again). With `budget` spent it stops before the next op.
    fn step(&mut self, g: &mut Goroutine, budget: &mut u32) -> Result<Step, RuntimeError> {
        let prog = self.sched.prog;
        let top = g.depth - 1;
        let ops = &prog.blocks[g.frames[top].block].ops;
        let mut pc = g.frames[top].pc;
        let block = g.frames[top].block;
        let mut vars = Vars::new(&g.frames, &mut g.locals, top);
        while let Some(LoadedOp {
            exec: Exec::Compute(kernel),
            info,
        }) = ops.get(pc)
        {
            if *budget == 0 {
                break;
            }
            match &mut self.times {
                None => kernel(&mut vars).map_err(|e| info.kernel_error(e))?,
                Some(times) => {
                    let start = Instant::now();
                    let done = kernel(&mut vars);
                    times.record((block, pc), start);
                    done.map_err(|e| info.kernel_error(e))?;
                }
            }
            pc += 1;
            *budget -= 1;
        }
        g.frames[top].pc = pc;
        let op = ops.get(pc);
        let counts = match op {
            Some(LoadedOp {
                exec: Exec::Compute(_),
                ..
            }) => return Ok(Step::Next),
            Some(_) => true,
            None => matches!(
                g.frames[top].kind,
                FrameKind::While { .. } | FrameKind::Recurrent { .. }
            ),
        };
        if counts {
            if *budget == 0 {
                return Ok(Step::Next);
            }
            *budget -= 1;
        }
        match op {
            None => self.end_frame(g),
            Some(LoadedOp {
                exec: Exec::Control(c),
                info,
            }) => {
                let here = (block, pc);
                let start = self.times.is_some().then(Instant::now);
                let done = self.control(g, c, here);
                if let (Some(times), Some(start)) = (&mut self.times, start) {
                    times.record(here, start);
                }
                done.map_err(|e| info.kernel_error(e))
            }
            Some(_) => unreachable!("compute ops ran above"),
        }
    }

    fn end_frame(&mut self, g: &mut Goroutine) -> Result<Step, RuntimeError> {
        let prog = self.sched.prog;
        let top = g.depth - 1;
        match g.frames[top].kind {
            FrameKind::Branch { op } => {
                let Exec::Control(Control::CondBlock {
                    keep: Some(scope), ..
                }) = &prog.blocks[op.0].ops[op.1].exec
                else {
                    unreachable!("a kept branch frame is pushed by a conditional_block that keeps");
                };
                steps::keep_branch(g, top, scope);
                g.pop();
                return Ok(Step::Next);
            }
            FrameKind::Grad { op, .. } => {
                let grad_op = &prog.blocks[op.0].ops[op.1];
                return steps::end_grad_step(g, prog, grad_op)
                    .map(|()| Step::Next)
                    .map_err(|e| grad_op.info.kernel_error(e));
            }
            _ => {}
        }
        if let FrameKind::Recurrent { op, step, steps } = g.frames[top].kind {
            let rec_op = &prog.blocks[op.0].ops[op.1];
            let Exec::Control(Control::Recurrent(r)) = &rec_op.exec else {
                unreachable!("a recurrent frame is pushed by a recurrent op");
            };
            let err = |e| rec_op.info.kernel_error(e);
            let states = recurrent::end(g, top, r, step, steps).map_err(err)?;
            if step + 1 < steps {
                g.restart_top();
                g.frames[top].kind = FrameKind::Recurrent {
                    op,
                    step: step + 1,
                    steps,
                };
                recurrent::begin(g, top, r, step + 1, steps, Some(states)).map_err(err)?;
                return Ok(Step::Next);
            }
            g.pop();
            let mut outer = Vars::new(&g.frames, &mut g.locals, top - 1);
            recurrent::finish(&mut outer, r).map_err(err)?;
            return Ok(Step::Next);
        }
        if let FrameKind::While { op } = g.frames[top].kind {
            let while_op = &prog.blocks[op.0].ops[op.1];
            let Exec::Control(Control::While { cond, keep, .. }) = &while_op.exec else {
                unreachable!("a loop frame is pushed by a while op");
            };
            if let Some(k) = keep {
                steps::keep_step(g, top, k);
            }
            // The condition as the `while` op sees it, from the enclosing frame.
            let mut outer = Vars::new(&g.frames, &mut g.locals, top - 1);
            let again = outer
                .condition(cond)
                .map_err(|e| while_op.info.kernel_error(e))?;
            if again {
                if let Some(k) = keep {
                    steps::start(&mut outer, k);
                }
                g.restart_top();
                return Ok(Step::Next);
            }
        }
        if g.depth == 1 {
            // The goroutine keeps its first frame's locals (main's are the
            // root variables the run's fetches read).
            return Ok(Step::Exit);
        }
        g.pop();
        Ok(Step::Next)
    }

    /// Runs control op `c`, op `here` (block, index) of the innermost frame.
    /// (`here` comes from the caller: reading it back from the frame just
    /// written would stall on store forwarding.)
    fn control(
        &mut self,
        g: &mut Goroutine,
        c: &Control,
        here: (usize, usize),
    ) -> Result<Step, KernelError> {
        let prog = self.sched.prog;
        let top = g.depth - 1;
        let mut vars = Vars::new(&g.frames, &mut g.locals, top);
        let cache = &mut g.channels;
        match c {
            Control::While { cond, body, keep } => {
                let run = vars.condition(cond)?;
                if let Some(k) = keep {
                    if prog.blocks[*body].has_scope {
                        return Err(KernelError::Invalid(
                            "gradients through a loop whose body starts goroutines are not \
                             supported"
                                .into(),
                        ));
                    }
                    vars.set(&k.scopes, Value::Steps(Box::default()));
                    if run {
                        steps::start(&mut vars, k);
                    }
                }
                g.frames[top].pc += 1;
                if run {
                    g.push(&prog.blocks[*body], *body, FrameKind::While { op: here });
                }
            }
            Control::CondBlock {
                conds,
                scalar,
                body,
                keep,
            } => {
                let run = branch_runs(&vars, conds, *scalar)?;
                if let Some(scope) = keep {
                    vars.set(scope, Value::Steps(Box::default()));
                }
                g.frames[top].pc += 1;
                if run {
                    let kind = match keep {
                        Some(_) => FrameKind::Branch { op: here },
                        None => FrameKind::Once,
                    };
                    g.push(&prog.blocks[*body], *body, kind);
                }
            }
            Control::Recurrent(r) => {
                let steps = recurrent::start(&mut vars, r)?;
                g.frames[top].pc += 1;
                let kind = FrameKind::Recurrent {
                    op: here,
                    step: 0,
                    steps,
                };
                g.push(&prog.blocks[r.body], r.body, kind);
                recurrent::begin(g, top + 1, r, 0, steps, None)?;
            }
            Control::WhileGrad(wg) => {
                let kept = vars.with(&wg.scopes, std::mem::take);
                let kept = match kept {
                    Value::Steps(kept) if !kept.is_empty() => *kept,
                    _ => Vec::new(),
                };
                if !kept.is_empty() {
                    steps::zero_unwritten(&mut vars, &wg.zero_ogs)?;
                }
                g.frames[top].pc += 1;
                if kept.is_empty() {
                    return Ok(Step::Next);
                }
                steps::push_grad_step(
                    g, prog, here, wg.forward, wg.body, &wg.copies, &wg.links, kept, true,
                )?;
            }
            Control::CondBlockGrad(cg) => {
                let run = branch_runs(&vars, &cg.conds, cg.scalar)?;
                if !run {
                    steps::zero_grads(&mut vars, cg.grads.iter().map(|(o, x, _)| (o, x)))?;
                    g.frames[top].pc += 1;
                    return Ok(Step::Next);
                }
                let kept = match vars.with(&cg.scope, std::mem::take) {
                    Value::Steps(kept) if !kept.is_empty() => *kept,
                    _ => {
                        return Err(KernelError::Invalid(
                            "the branch ran but kept no scope for its grad".into(),
                        ))
                    }
                };
                g.frames[top].pc += 1;
                steps::push_grad_step(g, prog, here, cg.forward, cg.body, &[], &[], kept, true)?;
            }
            Control::Go { body } => {
                let (frame, locals) = first_frame(&prog.blocks[*body], *body, vars.scope());
                g.frames[top].pc += 1;
                self.spawn(frame, locals);
            }
            Control::Send { channel, x } => {
                let outcome = match g.parked.take() {
                    Some(_) => finish(&g.info.waiter).outcome,
                    None => {
                        let ch = cache.one(&vars, channel)?;
                        let value = vars.tensor_value(x)?;
                        ch.check(&value)?;
                        match ch.chan.send(value, &g.info.waiter) {
                            Attempt::Done(c, woken) => {
                                self.wake_all(woken);
                                c.outcome
                            }
                            Attempt::Blocked => {
                                let ch = ch.clone();
                                return Ok(blocked(g, smallvec![ch]));
                            }
                            Attempt::Default => unreachable!("a send has no default case"),
                        }
                    }
                };
                if matches!(outcome, Outcome::Closed) {
                    return Err(KernelError::Invalid(SEND_ON_CLOSED.into()));
                }
                g.frames[top].pc += 1;
            }
            Control::Recv {
                channel,
                out,
                status,
                zero,
            } => {
                let (value, ok) = match g.parked.take() {
                    Some(p) => received(finish(&g.info.waiter), zero, &p.channels[0]),
                    None => {
                        let ch = cache.one(&vars, channel)?;
                        match ch.chan.recv(&g.info.waiter) {
                            Attempt::Done(c, woken) => {
                                self.wake_all(woken);
                                received(c, zero, ch)
                            }
                            Attempt::Blocked => {
                                let ch = ch.clone();
                                return Ok(blocked(g, smallvec![ch]));
                            }
                            Attempt::Default => unreachable!("a receive has no default case"),
                        }
                    }
                };
                vars.set(out, value);
                if let Some(status) = status {
                    // `bool [1]`, written in place.
                    vars.set_scalar(status, Scalar::Bool(ok), 1);
                }
                g.frames[top].pc += 1;
            }
            Control::Close { channel } => {
                let ch = cache.one(&vars, channel)?;
                let woken = ch
                    .chan
                    .close()
                    .map_err(|_| KernelError::Invalid("close of closed channel".into()))?;
                g.frames[top].pc += 1;
                self.wake_all(woken);
            }
            Control::Select(sel) => {
                let chosen = match g.parked.take() {
                    Some(p) => {
                        let c = finish(&g.info.waiter);
                        unregister_others(&p.channels, c.case, &g.info.waiter);
                        let won = &p.channels[c.case];
                        Some(chosen_case(sel, c, won)?)
                    }
                    None => match self.try_select(sel, &vars, cache, &g.info.waiter)? {
                        Ok(chosen) => chosen,
                        Err(channels) => return Ok(blocked(g, channels)),
                    },
                };
                // What the chosen case writes: `case_to_execute` in this
                // frame, a received value in the cases block's.
                let (index, received) = match chosen {
                    Some(chosen) => chosen,
                    None => (
                        sel.default
                            .expect("only a select with a default case takes it"),
                        None,
                    ),
                };
                vars.set_scalar(&sel.case_to_execute, Scalar::Int32(index), 1);
                g.frames[top].pc += 1;
                g.push(&prog.blocks[sel.body], sel.body, FrameKind::Once);
                if let Some((value, v)) = received {
                    Vars::new(&g.frames, &mut g.locals, top + 1).set(value, v);
                }
                // The lowered dispatch would run just this case's block.
                let chosen = sel
                    .dispatch
                    .as_ref()
                    .and_then(|d| d.iter().find(|(k, _)| *k == index));
                if let Some(&(_, case_block)) = chosen {
                    g.frames[top + 1].pc = prog.blocks[sel.body].ops.len();
                    g.push(&prog.blocks[case_block], case_block, FrameKind::Once);
                }
            }
        }
        Ok(Step::Next)
    }

    /// Polls a select's cases in random order. `Ok(Ok(None))`: the default
    /// case; `Ok(Ok(Some(..)))`: a case completed (see [`chosen_case`]);
    /// `Ok(Err(channels))`: `waiter` is registered on these channels.
    #[allow(clippy::type_complexity)]
    fn try_select<'s>(
        &mut self,
        sel: &'s Select,
        vars: &Vars,
        cache: &mut ChannelCache,
        waiter: &Arc<GWaiter>,
    ) -> Result<Result<Option<Chosen<'s>>, Channels>, KernelError> {
        cache.start();
        let mut at: SmallVec<[usize; 4]> = SmallVec::new();
        for case in &sel.cases {
            at.push(vars.channel(&case.channel, cache)?);
        }
        let cache = &*cache;
        let mut cases: SmallVec<[channel::Case<'_, Value, ParkedGoroutine>; 4]> = SmallVec::new();
        for (case, ch) in sel.cases.iter().zip(at.iter().map(|&i| cache.get(i))) {
            cases.push(channel::Case {
                channel: &ch.chan,
                send: None,
            });
            // The value is written in place: a value built first and moved
            // in stalls on store forwarding (this is the hot path of every
            // select).
            if let CaseOp::Send(v) = &case.op {
                let send = &mut cases.last_mut().expect("just pushed").send;
                vars.tensor_value_into(v, send)?;
                ch.check(send.as_ref().expect("just written"))?;
            }
        }
        // A uniformly random poll order (Fisher-Yates), on the stack for a
        // few cases.
        let n = cases.len();
        let (mut few, mut many) = ([0, 1, 2, 3], Vec::new());
        let order: &mut [usize] = if n <= few.len() {
            &mut few[..n]
        } else {
            many.extend(0..n);
            &mut many
        };
        for i in (1..n).rev() {
            // A uniform index in 0..=i by multiply-shift (bias below 2^-32).
            let j = (u64::from(self.rng.next_u32()) * (i as u64 + 1)) >> 32;
            order.swap(i, j as usize);
        }
        let attempt = channel::select(&mut cases, order, sel.default.is_some(), waiter);
        drop(cases);
        Ok(match attempt {
            Attempt::Done(c, woken) => {
                self.wake_all(woken);
                let won = cache.get(at[c.case]);
                Ok(Some(chosen_case(sel, c, won)?))
            }
            Attempt::Default => Ok(None),
            Attempt::Blocked => Err(at.iter().map(|&i| cache.get(i).clone()).collect()),
        })
    }
}

/// Whether a conditional block (or its grad) runs: the one bool of
/// `conds[0]` (scalar), or every `conds` tensor non-empty.
fn branch_runs(vars: &Vars, conds: &[VarRef], scalar: bool) -> Result<bool, KernelError> {
    if scalar {
        return vars.condition(&conds[0]);
    }
    let mut all = true;
    for c in conds {
        all &= vars.tensor(c)?.numel() != 0;
    }
    Ok(all)
}

/// The error of a run stopped by `stop` while `g` was about to run its
/// next op: that op (or, at the end of a `while` body, the `while`) and
/// its source line.
fn stopped_at(g: &Goroutine, prog: &Runnable, stop: Stop) -> RuntimeError {
    let frame = &g.frames[g.depth - 1];
    let op = match (prog.blocks[frame.block].ops.get(frame.pc), &frame.kind) {
        (Some(op), _) => Some(op),
        (
            None,
            FrameKind::While { op }
            | FrameKind::Recurrent { op, .. }
            | FrameKind::Branch { op }
            | FrameKind::Grad { op, .. },
        ) => Some(&prog.blocks[op.0].ops[op.1]),
        (None, FrameKind::Once) => None,
    };
    match op {
        Some(op) => op.info.error(stop),
        None => RuntimeError::new(stop.to_string()),
    }
}

type Channels = SmallVec<[Arc<TypedChannel>; 2]>;

/// A select's chosen case: its index in the cases block, and for a receive
/// case the variable it writes and the value.
type Chosen<'s> = (i32, Option<(&'s VarRef, Value)>);

/// What case `c` of `sel`, on channel `ch`, writes; a send case on a closed
/// channel is an error.
fn chosen_case<'s>(
    sel: &'s Select,
    c: Completion<Value>,
    ch: &TypedChannel,
) -> Result<Chosen<'s>, KernelError> {
    let case = &sel.cases[c.case];
    let received = match (&case.op, c.outcome) {
        (CaseOp::Send(_), Outcome::Closed) => {
            return Err(KernelError::Invalid(SEND_ON_CLOSED.into()))
        }
        (CaseOp::Recv { value, .. }, Outcome::Received(v)) => Some((value, v)),
        (CaseOp::Recv { value, zero }, _) => Some((value, Value::tensor(zero.tensor(ch)))),
        (CaseOp::Send(_), _) => None,
    };
    Ok((case.index, received))
}

/// The value and status a receive on `ch` ends with.
fn received(c: Completion<Value>, zero: &ZeroValue, ch: &TypedChannel) -> (Value, bool) {
    match c.outcome {
        Outcome::Received(v) => (v, true),
        _ => (Value::tensor(zero.tensor(ch)), false),
    }
}

/// Frees the queue places of a finished select's entries (stale by now, see
/// `crate::channel::waiter`) on every channel but the one of case `won`,
/// whose entry its claimer took; each channel once.
fn unregister_others(channels: &Channels, won: usize, waiter: &Arc<GWaiter>) {
    for (i, ch) in channels.iter().enumerate() {
        let first = !channels[..i].iter().any(|c| Arc::ptr_eq(c, ch));
        let has_entries = channels
            .iter()
            .enumerate()
            .any(|(j, c)| j != won && Arc::ptr_eq(c, ch));
        if first && has_entries {
            ch.chan.unregister(waiter);
        }
    }
}

/// Marks `g` as waiting on `channels` (its waiter is registered there).
fn blocked(g: &mut Goroutine, channels: Channels) -> Step {
    g.parked = Some(Parked { channels });
    Step::Block
}

/// The completion of the goroutine's blocked operation, once woken (or
/// claimed while registering); its waiter is then ready for the next one.
fn finish(waiter: &GWaiter) -> Completion<Value> {
    waiter
        .finish()
        .expect("a goroutine is woken only after its waiter is claimed")
}
