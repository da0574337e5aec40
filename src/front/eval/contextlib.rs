//! `@contextlib.contextmanager`: a generator function used in `with`, as
//! the 2018 book chapters wrap `program_guard` and `scope_guard`. fluidc's
//! generators run eagerly, so the `with` body cannot wait at the `yield`;
//! instead the body runs *at* the `yield`: the generator's code before it
//! (its own `with` guards included) has run, the body runs in the caller's
//! names with the yielded value bound, and the generator goes on after
//! the `yield` (unwinding its guards if the body raised). That is
//! Python's order for the one `yield` a context manager has.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use super::{Eval, Flow};
use crate::front::diag::Diagnostic;
use crate::front::parse::{Expr, Stmt};
use crate::front::value::{Frame, Value};

/// A `with` body waiting for its context manager's `yield`.
pub(super) struct PendingBody {
    body: Rc<Vec<Stmt>>,
    target: Option<Expr>,
    /// The caller's names, loop depth and function stack height.
    scopes: Vec<Rc<RefCell<Frame>>>,
    globals: Rc<RefCell<Frame>>,
    loop_depth: usize,
    /// `calls.len()` inside the generator: a `yield` at this depth is its own.
    depth: usize,
    /// How the body ended, once it ran.
    flow: Option<Flow>,
}

impl std::fmt::Debug for PendingBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PendingBody(depth {})", self.depth)
    }
}

impl Eval<'_> {
    /// `with cm(args) as target: body` for a `contextmanager` function `cm`.
    pub(super) fn with_context_manager(
        &mut self,
        f: Value,
        args: Vec<Value>,
        kwargs: Vec<(String, Value, Range<usize>)>,
        target: Option<&Expr>,
        body: &[Stmt],
        sp: Range<usize>,
    ) -> Flow {
        self.st.pending_bodies.push(PendingBody {
            body: Rc::new(body.to_vec()),
            target: target.cloned(),
            scopes: self.st.scopes.clone(),
            globals: self.st.globals.clone(),
            loop_depth: self.st.loop_depth,
            depth: self.st.calls.len() + 1,
            flow: None,
        });
        let spans = vec![sp.clone(); args.len()];
        let called = self.call(f, args, spans, kwargs, sp.clone());
        let pending = self.st.pending_bodies.pop();
        if let Err(d) = called {
            self.report(d);
            return Flow::Normal;
        }
        match pending.and_then(|p| p.flow) {
            Some(flow) => {
                if self.st.raised.is_some() {
                    Flow::Raise
                } else {
                    flow
                }
            }
            None if self.st.raised.is_some() => Flow::Raise,
            None => {
                self.report(Diagnostic::new(sp, "RuntimeError: generator didn't yield"));
                Flow::Normal
            }
        }
    }

    /// At a `yield`: runs the pending `with` body if this generator is the
    /// context manager it waits for. `None`: an ordinary `yield`.
    pub(super) fn yield_to_body(&mut self, value: Value, sp: Range<usize>) -> Option<Value> {
        let at = self.st.pending_bodies.len().checked_sub(1)?;
        let p = &self.st.pending_bodies[at];
        if p.depth != self.st.calls.len() {
            return None;
        }
        if p.flow.is_some() {
            self.report(Diagnostic::new(sp, "RuntimeError: generator didn't stop"));
            return Some(Value::None);
        }
        let (body, target) = (p.body.clone(), p.target.clone());
        let scopes = std::mem::replace(&mut self.st.scopes, p.scopes.clone());
        let globals = std::mem::replace(&mut self.st.globals, p.globals.clone());
        let loops = std::mem::replace(&mut self.st.loop_depth, p.loop_depth);
        // The body runs in the caller's frame: tracebacks and op_callstack
        // do not show the generator's.
        let generator_calls = self.st.calls.split_off(p.depth.saturating_sub(1));
        if let Some(t) = &target {
            self.assign(t, value);
        }
        let flow = self.block(&body);
        self.st.calls.extend(generator_calls);
        self.st.scopes = scopes;
        self.st.globals = globals;
        self.st.loop_depth = loops;
        self.st.pending_bodies[at].flow = Some(flow);
        Some(Value::None)
    }
}
