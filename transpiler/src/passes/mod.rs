//! The pass driver. Each pass takes a program and returns it rewritten, and
//! whether it changed anything. The verifier runs after every pass in debug
//! builds and with `verify_each`; the result is always verified, because
//! only a [`Verified`] program can be written or run (in release builds,
//! verified again at the end only if some pass changed it).
//!
//! Levels: `-O0` = lower_select; `-O1` (default) = + prune; `-O2` = +
//! fold_constants, dedup_constants and a final prune for what folding left
//! unused. Every pass preserves behaviour: the fetches are the same before
//! and after.
mod dedup_constants;
mod fold_constants;
mod lower_select;
pub mod prune;

use std::fmt;

use crate::model::Program;
use crate::verify::{Verified, VerifyError};

pub use fold_constants::{ConstData, Constant, Evaluator, EvaluatorRef, MAX_FOLD_ELEMENTS};

/// What a pass may need besides the program.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Extra fetch targets (roots for prune) beyond the program's fetch ops.
    pub fetch: Vec<String>,
    /// Runs an op on constants for `fold_constants` (the runtime's kernels;
    /// without one, nothing is folded).
    pub evaluator: Option<EvaluatorRef>,
}

/// Shared by the passes of one pipeline run: the rewrite budget that
/// `--max-steps` sets, to bisect a bad rewrite.
#[derive(Debug)]
pub struct Context<'a> {
    pub options: &'a Options,
    steps_left: Option<usize>,
}

impl Context<'_> {
    /// Whether one more rewrite is allowed (and counts it).
    pub fn step(&mut self) -> bool {
        match &mut self.steps_left {
            None => true,
            Some(0) => false,
            Some(n) => {
                *n -= 1;
                true
            }
        }
    }
}

/// A pass function: the program rewritten, and whether anything changed.
pub type PassFn = fn(Program, &mut Context) -> Result<(Program, bool), PassError>;

/// Called with each pass name and the program after it (`--print-after`).
pub type AfterPass<'a> = &'a mut dyn FnMut(&str, &Program, bool);

/// A pass: its name on the command line and its function.
#[derive(Debug, Clone, Copy)]
pub struct Pass {
    pub name: &'static str,
    pub about: &'static str,
    pub run: PassFn,
}

pub const PASSES: &[Pass] = &[
    Pass {
        name: "lower_select",
        about: "select nodes to Paddle's select op and cases block (docs/programs.md)",
        run: lower_select::run,
    },
    Pass {
        name: "prune",
        about: "drop what the fetches and effects do not need",
        run: prune::run,
    },
    Pass {
        name: "fold_constants",
        about: "ops on constants become constants",
        run: fold_constants::run,
    },
    Pass {
        name: "dedup_constants",
        about: "identical constants in a block are shared",
        run: dedup_constants::run,
    },
];

/// The passes of an optimization level.
pub fn level(n: u8) -> Vec<&'static str> {
    match n {
        0 => vec!["lower_select"],
        1 => vec!["lower_select", "prune"],
        _ => vec![
            "lower_select",
            "prune",
            "fold_constants",
            "dedup_constants",
            "prune",
        ],
    }
}

pub fn find(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// A pass that could not do its work, or a program it broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassError {
    pub pass: &'static str,
    pub kind: PassErrorKind,
    pub message: String,
}

/// Why a pass failed, for callers and tests to match on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassErrorKind {
    /// An op the pass rewrites is not in the form it rewrites (a select
    /// node without its cases): the input's fault.
    Malformed,
    /// The program the pass left does not verify (a fluidc bug): the
    /// verifier's problems, with their kinds.
    Invalid(VerifyError),
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pass {}: {}", self.pass, self.message)
    }
}

impl std::error::Error for PassError {}

/// How to run a pipeline.
#[allow(missing_debug_implementations)] // holds a callback
#[derive(Default)]
pub struct Pipeline<'a> {
    pub passes: Vec<&'static Pass>,
    pub options: Options,
    /// Verify after every pass, also in release builds.
    pub verify_each: bool,
    /// Stop rewriting after this many rewrites (all passes together).
    pub max_steps: Option<usize>,
    /// Called with each pass name, the program after it and whether the
    /// pass changed it.
    pub after_pass: Option<AfterPass<'a>>,
}

impl Pipeline<'_> {
    pub fn run(mut self, program: Verified) -> Result<Verified, PassError> {
        let mut ctx = Context {
            options: &self.options,
            steps_left: self.max_steps,
        };
        let mut program = program.into_inner();
        // The input was verified: with no change, verifying again (about
        // a fifth of a whole compile) would only find the same program.
        let mut any_change = false;
        for pass in &self.passes {
            let (next, changed) = (pass.run)(program, &mut ctx)?;
            program = next;
            any_change |= changed;
            if self.verify_each || cfg!(debug_assertions) {
                program = check(pass.name, program)?.into_inner();
            }
            if let Some(f) = self.after_pass.as_mut() {
                f(pass.name, &program, changed);
            }
        }
        if any_change || cfg!(debug_assertions) {
            check("(end)", program)
        } else {
            Ok(Verified::assume_unchanged(program))
        }
    }
}

fn check(pass: &'static str, program: Program) -> Result<Verified, PassError> {
    Verified::new(program).map_err(|e: VerifyError| PassError {
        pass,
        message: format!("left an {e}"),
        kind: PassErrorKind::Invalid(e),
    })
}
