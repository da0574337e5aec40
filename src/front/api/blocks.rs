//! What control flow (`While`, conditional blocks) and concurrency (`Go`,
//! `Select`) share about sub-blocks: the guard that enters one, where it
//! sits, what it reads and writes as seen from enclosing blocks (by the rule
//! in `fluidc_transpiler::dataflow`), and its step-scopes variable.
use fluidc_transpiler::{dataflow, Var, VarKind};

use crate::front::host::Host;
use crate::front::value::{BlockGuard, GuardKind, Object, Value};

/// A guard whose `with` enters a new block and completes it as `kind`
/// (`While.block()`, `switch.case(c)`, `fluid.Go()`, ...).
pub fn guard(kind: GuardKind) -> Value {
    Value::object(Object::BlockGuard(std::cell::RefCell::new(BlockGuard {
        kind,
        entered: None,
    })))
}

/// [`dataflow::block_io`] of a block being built.
pub fn block_io(
    i: &Host,
    program: usize,
    block: usize,
    written: &[&str],
) -> (Vec<String>, Vec<String>) {
    dataflow::block_io(i.b.block(program, block), written)
}

/// [`dataflow::visible`] in a program being built, through the builder's
/// per-block index: scanning the global block's variables for each name
/// made a script of N `Go` blocks quadratic (8,000 took 3 s, found by the
/// front-end fuzz campaign of session 14).
pub fn visible(i: &Host, program: usize, block: usize, names: &[String]) -> Vec<String> {
    let chain = i.b.programs[program].program.scope_chain(block);
    names
        .iter()
        .filter(|n| chain.iter().any(|&b| i.b.declares(program, b, n)))
        .cloned()
        .collect()
}

/// The block that `block` is nested in.
pub fn parent_of(i: &Host, program: usize, block: usize) -> usize {
    usize::try_from(i.b.block(program, block).parent_idx).unwrap_or(0)
}

/// A new STEP_SCOPES variable (`_generated_var_N`) in `block`.
pub fn step_scopes(i: &mut Host, program: usize, block: usize) -> String {
    let name = i.b.unique("_generated_var");
    i.b.declare_in(
        program,
        block,
        Var::plain(name.as_str(), VarKind::StepScopes),
    );
    name
}

/// Names as the `&str`s an op's slots take.
pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}
