//! What the fluid API may use of the interpreter that runs the script.
//!
//! A builtin appends ops to the programs being built and, for
//! `layers.cond`, calls back into the script (its `true_fn`/`false_fn`).
//! [`Host`] gives it exactly that, so `api` depends on this narrow interface
//! and not on the evaluator: the evaluator calls `api`, never the other way.
use std::fmt;
use std::ops::Range;

use super::builder::ProgramBuilder;
use super::diag::Result;
use super::value::Value;

/// The way back into the script, implemented by the evaluator.
pub trait Script {
    /// Calls the script callable `f` with no arguments; the ops it appends
    /// go to `b`.
    fn call(&mut self, b: &mut ProgramBuilder, f: Value, sp: Range<usize>) -> Result<Value>;
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

    /// Calls a script callable with no arguments (a branch of `cond`).
    pub fn call(&mut self, f: Value, sp: Range<usize>) -> Result<Value> {
        self.script.call(self.b, f, sp)
    }
}

impl fmt::Debug for Host<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Host")
            .field("b", &self.b)
            .finish_non_exhaustive()
    }
}
