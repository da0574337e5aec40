//! What the fluid API may use of the interpreter that runs the script.
//!
//! A builtin appends ops to the programs being built and calls back into
//! the script: `layers.cond` its `true_fn`/`false_fn`, the reader
//! decorators (`paddle.batch`, `paddle.reader.*`) the readers and mappers
//! they wrap.
//! [`Host`] gives it exactly that, so `api` depends on this narrow interface
//! and not on the evaluator: the evaluator calls `api`, never the other way.
use std::fmt;
use std::ops::Range;

use super::builder::ProgramBuilder;
use super::diag::{Diagnostic, Result};
use super::value::Value;

/// The way back into the script, implemented by the evaluator.
pub trait Script {
    /// Calls the script callable `f` with positional arguments; the ops it
    /// appends go to `b`. A Python exception it raises (in a `try`) is an
    /// error value here: the caller stops and returns.
    fn call(
        &mut self,
        b: &mut ProgramBuilder,
        f: Value,
        args: Vec<Value>,
        sp: Range<usize>,
    ) -> Result<Value>;

    /// Reports a warning at `d`'s span (a builtin's note that does not stop
    /// the script).
    fn warn(&mut self, d: Diagnostic);

    /// How many errors the script has reported so far (a construct that
    /// sees new ones while it was built finishes quietly: SPEC §8.5's
    /// no follow-on errors).
    fn errors_reported(&self) -> u64;
}

/// What a builtin runs with: the programs being built, and the script.
pub struct Host<'a> {
    pub b: &'a mut ProgramBuilder,
    script: &'a mut dyn Script,
}

impl<'a> Host<'a> {
    pub fn new(b: &'a mut ProgramBuilder, script: &'a mut dyn Script) -> Self {
        Host { b, script }
    }

    /// Calls a script callable with no arguments (a branch of `cond`, a reader).
    pub fn call(&mut self, f: Value, sp: Range<usize>) -> Result<Value> {
        self.script.call(self.b, f, Vec::new(), sp)
    }

    /// Calls a script callable with positional arguments (a reader's mapper).
    pub fn call_with(&mut self, f: Value, args: Vec<Value>, sp: Range<usize>) -> Result<Value> {
        self.script.call(self.b, f, args, sp)
    }

    /// A warning, reported once where it is (a dataset file whose md5 is not Paddle's).
    pub fn warn(&mut self, d: Diagnostic) {
        self.script.warn(d);
    }

    pub fn errors_reported(&self) -> u64 {
        self.script.errors_reported()
    }
}

impl fmt::Debug for Host<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Host")
            .field("b", &self.b)
            .finish_non_exhaustive()
    }
}
