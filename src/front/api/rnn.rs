//! `fluid.layers.StaticRNN`, lowered onto a `While` loop.
//!
//! Paddle 1.x built a StaticRNN as one `recurrent` op; Paddle 3.3.1 no
//! longer has that op, so fluidc builds the recurrence from ops both run
//! (the shim in `tests/interop/fluid2018` builds the same ops in the same
//! order, so the two are compared op for op and loss for loss):
//!
//! - `step()` puts a counter `i` (int64, 0) and the loop's condition in the
//!   enclosing block and opens the loop's block;
//! - the first `step_input(x)` adds the step count `x.shape[0]` and the
//!   first `less_than` to the enclosing block; each `step_input` reads
//!   `reshape2(gather(x, i))` in the loop;
//! - `memory(...)` writes its boot value (`init`, or a
//!   `fill_constant_batch_size_like` of the batch of `batch_ref`, or of its
//!   input when `batch_ref` is a step input) at 0 of a tensor array in the
//!   enclosing block and reads element `i` in the loop;
//! - `step_output(o)` writes `o` at `i` of a tensor array made in the
//!   enclosing block;
//! - leaving the block increments `i`, writes each updated memory at the
//!   new `i`, updates the condition and appends the `while`; each output is
//!   then read back step by step, concatenated and reshaped to
//!   `[steps, ...o.shape]`, which `rnn()` returns.
//!
//! Gradients go through `while_grad` like any loop's.
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::array::{create_array, read_array, write_array};
use super::blocks::guard;
use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use super::conv::{self, append_inferred_at};
use super::layer::{dims, dtype_of};
use super::logic::compare_op;
use super::sequence::{fill_batch_size_like, BatchSizeLike};
use super::tensor::fill_constant;
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{GuardKind, Object, Value, VarRef};

use D::*;

/// What a StaticRNN's `step()` block has built so far.
#[derive(Debug, Default)]
pub struct RnnState {
    /// The block around the loop, once `step()` was called.
    parent: Option<usize>,
    counter: Option<VarRef>,
    cond: Option<VarRef>,
    limit: Option<VarRef>,
    steps: Option<i64>,
    /// Inside the step block.
    inside: bool,
    /// Each step input's variable in the loop, to the sequence it reads.
    inputs: HashMap<String, VarRef>,
    memories: Vec<Memory>,
    /// Each output's array and the variable written into it.
    outputs: Vec<(VarRef, VarRef)>,
    /// What `rnn()` returns, once the block is finished.
    results: Option<Vec<VarRef>>,
    /// The script's error count when `step()` was called: an error while
    /// the step block was built leaves the RNN unfinished, quietly.
    errors_at_step: u64,
    failed: bool,
}

#[derive(Debug)]
struct Memory {
    read: VarRef,
    array: VarRef,
    update: Option<VarRef>,
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.StaticRNN"],
        [("name", Nil)],
        Rest::No,
        |_, _| Ok(Value::object(Object::StaticRnn(RefCell::default())))
    ),
    builtin!(["StaticRNN.step"], [], Rest::No, |i, a| {
        let obj = recv_object(a);
        let mut st = state(&obj).borrow_mut();
        if st.parent.is_some() {
            return Err(Diagnostic::new(
                a.call.clone(),
                "this StaticRNN already has its step block",
            )
            .help("make a new fluid.layers.StaticRNN() for another recurrence"));
        }
        st.parent = Some(i.b.current_block());
        let counter = fill_constant(i, vec![1], VarKind::Int64, 0.0, false, None);
        let name = i.b.unique("static_rnn_cond");
        let mut cond = fluidc_transpiler::Var::dense(name, VarKind::Bool, vec![1]);
        cond.stop_gradient = Some(true);
        st.cond = Some(i.b.declare(cond));
        st.counter = Some(counter);
        st.inside = true;
        st.errors_at_step = i.errors_reported();
        drop(st);
        Ok(guard(GuardKind::Rnn(obj)))
    }),
    builtin!(["StaticRNN.step_input"], [("x", Req)], Rest::No, step_input),
    builtin!(
        ["StaticRNN.memory"],
        [
            ("init", Nil),
            ("shape", Nil),
            ("batch_ref", Nil),
            ("init_value", Float(0.0)),
            ("init_batch_dim_idx", Int(0)),
            ("ref_batch_dim_idx", Int(1))
        ],
        Rest::No,
        memory
    ),
    builtin!(
        ["StaticRNN.update_memory"],
        [("mem", Req), ("var", Req)],
        Rest::No,
        |_, a| {
            let obj = recv_object(a);
            let mut st = inside(&obj, a)?;
            let (mem, var) = (a.var("mem")?, a.var("var")?);
            let Some(m) = st.memories.iter_mut().find(|m| m.read == mem) else {
                return Err(a
                    .err(
                        "mem",
                        format!("`{}` is not a memory of this StaticRNN", mem.name),
                    )
                    .help("pass what rnn.memory(...) returned"));
            };
            m.update = Some(var);
            Ok(Value::None)
        }
    ),
    builtin!(["StaticRNN.step_output"], [("o", Req)], Rest::No, |i, a| {
        let o = a.var("o")?;
        step_output(i, a, o)?;
        Ok(Value::None)
    }),
    builtin!(["StaticRNN.output"], [], Rest::Varargs, |i, a| {
        for v in a.extra.clone() {
            let Value::Var(o) = v else {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "StaticRNN.output takes Variables",
                ));
            };
            step_output(i, a, o)?;
        }
        Ok(Value::None)
    }),
    builtin!(["StaticRNN.__call__"], [], Rest::No, |_, a| {
        let obj = recv_object(a);
        let st = state(&obj).borrow();
        if st.failed {
            return Ok(Value::Poison);
        }
        let Some(results) = &st.results else {
            return Err(
                Diagnostic::new(a.call.clone(), "the StaticRNN has no outputs yet")
                    .help("call rnn() after the `with rnn.step():` block"),
            );
        };
        Ok(match results.as_slice() {
            [one] => Value::Var(one.clone()),
            many => Value::list(many.iter().cloned().map(Value::Var).collect()),
        })
    }),
];

fn state(obj: &Object) -> &RefCell<RnnState> {
    match obj {
        Object::StaticRnn(st) => st,
        _ => unreachable!("bound to StaticRNN"),
    }
}

/// The state, for a call that must be inside `with rnn.step():`.
fn inside<'a>(obj: &'a Object, a: &Args) -> Result<std::cell::RefMut<'a, RnnState>> {
    let st = state(obj).borrow_mut();
    if !st.inside {
        return Err(Diagnostic::new(
            a.call.clone(),
            format!("{}() belongs inside `with rnn.step():`", a.short_name()),
        ));
    }
    Ok(st)
}

/// Runs `f` with the block around the loop current.
pub fn in_parent<T>(i: &mut Host, parent: usize, f: impl FnOnce(&mut Host) -> T) -> T {
    let main = i.b.main;
    let saved = std::mem::replace(&mut i.b.programs[main].current, parent);
    let out = f(i);
    i.b.programs[main].current = saved;
    out
}

fn step_input(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    let mut st = inside(&obj, a)?;
    let x = a.var("x")?;
    let x_dims = dims(i, &x);
    let steps = match x_dims.first() {
        Some(&t) if t > 0 => t,
        _ => {
            return Err(a
                .err("x", format!("a step input needs a known first (time) dimension; `{}` has dims {x_dims:?}", x.name))
                .help("StaticRNN steps over dim 0: give the sequence as [steps, batch, ...] with a fixed number of steps"))
        }
    };
    let (parent, counter, cond) = parts(&st);
    match st.steps {
        Some(n) if n != steps => {
            return Err(a.err(
                "x",
                format!("this step input has {steps} steps, the first had {n}"),
            ))
        }
        Some(_) => {}
        None => {
            st.steps = Some(steps);
            let limit = in_parent(i, parent, |i| {
                let limit = fill_constant(i, vec![1], VarKind::Int64, steps as f64, false, None);
                i.b.helper_name("less_than");
                compare_op(i, "less_than", &counter, &limit, cond.clone());
                limit
            });
            st.limit = Some(limit);
        }
    }
    let helper = i.b.helper_name("gather");
    let dtype = dtype_of(i, &x);
    let mut row_dims = x_dims.clone();
    row_dims[0] = 1;
    let row = i.b.tmp_var(&helper, dtype, row_dims);
    i.b.append(
        Op::new("gather")
            .input("X", &[&x.name])
            .input("Index", &[&counter.name])
            .output("Out", &[&row.name])
            .attr("axis", AttrValue::Int(0)),
    );
    let step = reshape(i, &row, &x_dims[1..], a.call.clone())?;
    st.inputs.insert(step.name.to_string(), x);
    Ok(Value::Var(step))
}

/// The parent block, counter and condition `step()` made.
fn parts(st: &RnnState) -> (usize, VarRef, VarRef) {
    match (st.parent, &st.counter, &st.cond) {
        (Some(p), Some(c), Some(cond)) => (p, c.clone(), cond.clone()),
        _ => unreachable!("step() sets them before the block is entered"),
    }
}

fn memory(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    let mut st = inside(&obj, a)?;
    let (parent, counter, _) = parts(&st);
    let boot = match a.opt_var("init")? {
        Some(init) => init,
        None => {
            if a.is_none("shape") || a.is_none("batch_ref") {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "memory() needs `init`, or `shape` and `batch_ref`",
                ));
            }
            let batch_ref = a.var("batch_ref")?;
            let input = st
                .inputs
                .get(&*batch_ref.name)
                .cloned()
                .unwrap_or(batch_ref);
            let shape = a.ints("shape")?;
            let (value, out_idx, in_idx) = (
                a.float("init_value")?,
                a.int("init_batch_dim_idx")?,
                a.int("ref_batch_dim_idx")?,
            );
            let like = BatchSizeLike {
                dtype: dtype_of(i, &input),
                shape,
                value,
                input_dim_idx: in_idx,
                output_dim_idx: out_idx,
            };
            in_parent(i, parent, |i| {
                fill_batch_size_like(i, &input, &like, a.call.clone())
            })?
        }
    };
    let array = in_parent(i, parent, |i| {
        let array = write_array(i, &boot, &counter, None);
        // Gradients flow through the memory from step to step even when
        // the boot value stops them (Paddle 3's append_op would otherwise
        // mark the array stop_gradient).
        i.b.var_mut(&array).stop_gradient = Some(false);
        array
    });
    let read = read_array(i, &array, &counter);
    st.memories.push(Memory {
        read: read.clone(),
        array,
        update: None,
    });
    Ok(Value::Var(read))
}

fn step_output(i: &mut Host, a: &Args, o: VarRef) -> Result<()> {
    let obj = recv_object(a);
    let mut st = inside(&obj, a)?;
    let (parent, counter, _) = parts(&st);
    let dtype = dtype_of(i, &o);
    let array = in_parent(i, parent, |i| create_array(i, dtype));
    write_array(i, &o, &counter, Some(array.clone()));
    st.outputs.push((array, o));
    Ok(())
}

/// `reshape2(x, shape)` as the `reshape` layer appends it.
fn reshape(i: &mut Host, x: &VarRef, shape: &[i64], sp: Range<usize>) -> Result<VarRef> {
    conv::reshape2(i, x, shape, sp).map(|(out, _)| out)
}

/// Leaving the step block, while it is still current: the counter moves
/// on, each memory is written at the new step and the condition updated.
/// Returns the condition the `while` op takes, or `None` when an error
/// was reported while the block was built (nothing more is built then).
pub fn finish_step(i: &mut Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<Option<VarRef>> {
    let mut st = state(obj).borrow_mut();
    st.inside = false;
    if i.errors_reported() > st.errors_at_step {
        st.failed = true;
        return Ok(None);
    }
    let (_, counter, cond) = parts(&st);
    let Some(limit) = st.limit.clone() else {
        return Err(Diagnostic::new(sp, "a StaticRNN needs a step input")
            .help("call rnn.step_input(x) inside `with rnn.step():`"));
    };
    for m in &st.memories {
        if m.update.is_none() {
            return Err(
                Diagnostic::new(sp, format!("memory `{}` is never updated", m.read.name))
                    .help("call rnn.update_memory(mem, new_value) inside the step block"),
            );
        }
    }
    i.b.helper_name("increment");
    i.b.append(
        Op::new("increment")
            .input("X", &[&counter.name])
            .output("Out", &[&counter.name])
            .attr("step", AttrValue::Float(1.0)),
    );
    for m in &st.memories {
        if let Some(update) = &m.update {
            write_array(i, update, &counter, Some(m.array.clone()));
        }
    }
    i.b.helper_name("less_than");
    compare_op(i, "less_than", &counter, &limit, cond.clone());
    Ok(Some(cond))
}

/// After the `while`, in the enclosing block: each output read back step
/// by step, concatenated and reshaped to `[steps, ...]`.
pub fn collect_outputs(i: &mut Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<()> {
    let mut st = state(obj).borrow_mut();
    let steps = st.steps.unwrap_or(0);
    let mut results = Vec::new();
    for (array, like) in &st.outputs {
        let mut reads = Vec::new();
        for t in 0..steps {
            let k = fill_constant(i, vec![1], VarKind::Int64, t as f64, false, None);
            reads.push(read_array(i, array, &k));
        }
        let helper = i.b.helper_name("concat");
        let dtype = dtype_of(i, like);
        let joined = i.b.tmp_var(&helper, dtype, vec![]);
        let names: Vec<&str> = reads.iter().map(|v| &*v.name).collect();
        let op = Op::new("concat")
            .input("X", &names)
            .output("Out", &[&joined.name])
            .attr("axis", AttrValue::Int(0));
        append_inferred_at(i, op, sp.clone())?;
        let mut shape = vec![steps];
        shape.extend(dims(i, like));
        results.push(reshape(i, &joined, &shape, sp.clone())?);
    }
    st.results = Some(results);
    Ok(())
}
