//! The `with` statement over the fluid API's guards: `program_guard`,
//! `unique_name.guard`, the block guards (`While.block()`,
//! `ConditionalBlock.block()`, `switch.case(c)`, `fluid.Go()`), `Switch`, and
//! `Select` with its cases. Entering records what leaving must undo or
//! complete; leaving a block appends its op (`while`, `conditional_block`,
//! `go`, the select node).
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use super::{control, csp};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{GuardKind, Object, Value};

/// What leaving a `with` statement must do.
#[derive(Debug)]
pub enum Exit {
    Nothing,
    Programs {
        main: usize,
        startup: usize,
    },
    Block(Rc<Object>),
    Select(Rc<Object>),
    Case(Rc<Object>),
    Switch(Rc<Object>),
    Counters(HashMap<String, usize>),
    /// The scope to go back to after a `scope_guard`.
    Scope(usize),
}

/// Enters a `with` context; returns the `as` value and what to do on exit.
pub fn enter(i: &mut Host, v: &Value, sp: Range<usize>) -> Result<(Value, Exit)> {
    let Value::Object(obj) = v else {
        return Err(Diagnostic::new(
            sp,
            format!("a {} cannot be used in a `with` statement", v.type_name()),
        ));
    };
    let exit = match obj.as_ref() {
        Object::ProgramGuard { main, startup } => {
            let saved = Exit::Programs {
                main: i.b.main,
                startup: i.b.startup,
            };
            i.b.main = *main;
            if let Some(s) = startup {
                i.b.startup = *s;
                i.b.startup_of.insert(*main, *s);
            }
            saved
        }
        Object::BlockGuard(g) => {
            let mut g = g.borrow_mut();
            if g.entered.is_some() {
                return Err(Diagnostic::new(sp, "this block was already entered once")
                    .help("call .block() again for a new block"));
            }
            let idx = i.b.enter_block();
            g.entered = Some((i.b.main, idx));
            Exit::Block(obj.clone())
        }
        Object::Select(_) => {
            csp::enter_select(i, obj, sp)?;
            Exit::Select(obj.clone())
        }
        Object::SelectCase(_) => {
            csp::enter_case(i, obj, sp)?;
            Exit::Case(obj.clone())
        }
        Object::Switch(s) => {
            s.borrow_mut().inside = true;
            Exit::Switch(obj.clone())
        }
        Object::UniqueNameGuard => Exit::Counters(i.b.swap_counters(HashMap::new())),
        Object::ScopeGuard(scope) => Exit::Scope(std::mem::replace(&mut i.b.scope, *scope)),
        _ => {
            return Err(Diagnostic::new(
                sp,
                format!("a {} cannot be used in a `with` statement", v.type_name()),
            ))
        }
    };
    Ok((v.clone(), exit))
}

/// Leaves a `with` context: restores what `enter` changed, or appends the
/// op of the block it built.
pub fn exit(i: &mut Host, exit: Exit, sp: Range<usize>) -> Result<()> {
    match exit {
        Exit::Nothing => Ok(()),
        Exit::Programs { main, startup } => {
            i.b.main = main;
            i.b.startup = startup;
            Ok(())
        }
        Exit::Scope(previous) => {
            i.b.scope = previous;
            Ok(())
        }
        Exit::Counters(saved) => {
            i.b.swap_counters(saved);
            Ok(())
        }
        Exit::Switch(obj) => {
            if let Object::Switch(s) = obj.as_ref() {
                s.borrow_mut().inside = false;
            }
            Ok(())
        }
        Exit::Select(obj) => csp::exit_select(i, &obj, sp),
        Exit::Case(obj) => csp::exit_case(i, &obj),
        Exit::Block(obj) => {
            let Object::BlockGuard(g) = obj.as_ref() else {
                unreachable!("Exit::Block holds a block guard")
            };
            let (kind, (program, block)) = {
                let g = g.borrow();
                (g.kind.clone(), g.entered.expect("entered before exit"))
            };
            // A StaticRNN's step block ends with ops of its own.
            let rnn_cond = match &kind {
                GuardKind::Rnn(rnn) if matches!(rnn.as_ref(), Object::DynamicRnn(_)) => {
                    Some(super::dyn_rnn::finish_block(i, rnn, sp.clone()))
                }
                GuardKind::Rnn(rnn) => Some(super::rnn::finish_step(i, rnn, sp.clone())),
                _ => None,
            };
            i.b.exit_block();
            match kind {
                GuardKind::Rnn(rnn) => {
                    if let Some(cond) = rnn_cond.expect("set for an Rnn guard")? {
                        control::complete_while(i, program, block, &cond, false);
                        if matches!(rnn.as_ref(), Object::DynamicRnn(_)) {
                            super::dyn_rnn::collect_outputs(i, &rnn);
                        } else {
                            super::rnn::collect_outputs(i, &rnn, sp)?;
                        }
                    }
                }
                GuardKind::While { cond, is_test } => {
                    control::complete_while(i, program, block, &cond, is_test)
                }
                GuardKind::Conditional { inputs, is_scalar } => {
                    control::complete_conditional(i, program, block, &inputs, is_scalar);
                }
                GuardKind::Go => csp::complete_go(i, program, block),
            }
            Ok(())
        }
    }
}
