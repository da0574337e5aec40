//! `fluid.layers.DynamicRNN`, built as Paddle 1.x's `control_flow.py`
//! built it: a `While` loop over the steps of LoD sequences.
//!
//! - `DynamicRNN()` makes the loop's condition (`dynamic_rnn_N.tmp_0`);
//!   `block()` adds the step counter (int64 0) and opens the loop's block;
//! - the first `step_input(x)` adds, in the enclosing block, a
//!   `lod_rank_table` of `x` (longest sequence first), its
//!   `max_sequence_len` and the first `less_than`; each `step_input`
//!   splits its input with `lod_tensor_to_array` and reads step `i`;
//! - `memory(init=...)` writes `init` at 0 of an array and reads step `i`
//!   shrunk (`shrink_rnn_memory`) to the sequences still running; without
//!   `init`, the boot value is a `fill_constant_batch_size_like` of the
//!   first input's step 0; `need_reorder` puts `init` in the table's order;
//! - `static_input(x)` reorders `x` by the table and shrinks it each step;
//! - `output(o)` writes `o` at step `i` of an array of the enclosing block;
//! - leaving the block increments `i`, writes each updated memory at the
//!   new `i` and updates the condition; after the `while`, each output
//!   array becomes a LoD tensor again (`array_to_lod_tensor`), which
//!   `rnn()` returns.
//!
//! Paddle 3.3.1 dropped the LoD ops, so such a program runs in fluidc only
//! (README, "fluidc-only ops"). Gradients go through `while_grad`.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::array::{declare_array, read_array, write_array};
use super::blocks::guard;
use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use super::layer::{dims, dtype_of};
use super::logic::compare_op;
use super::rnn::in_parent;
use super::sequence::{self, BatchSizeLike};
use super::tensor::fill_constant;
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{GuardKind, Object, Value, VarRef};

use D::*;

/// What a DynamicRNN has built so far.
#[derive(Debug)]
pub struct DynRnnState {
    helper: String,
    cond: VarRef,
    status: Status,
    /// The block around the loop, once `block()` was entered.
    parent: usize,
    step: Option<VarRef>,
    zero: Option<VarRef>,
    table: Option<VarRef>,
    max_len: Option<VarRef>,
    /// Each step input's array and dtype.
    inputs: Vec<(VarRef, VarKind)>,
    /// Each memory (what the step reads) and its array.
    memories: Vec<(VarRef, VarRef)>,
    /// (new value, memory array) of each `update_memory`.
    links: Vec<(VarRef, VarRef)>,
    output_arrays: Vec<VarRef>,
    outputs: Vec<VarRef>,
    errors_at_block: u64,
    failed: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Before,
    In,
    After,
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.DynamicRNN"],
        [("name", Nil)],
        Rest::No,
        |i, a| {
            let helper = match a.opt_string("name")? {
                Some(name) => i.b.unique(&name),
                None => i.b.helper_name("dynamic_rnn"),
            };
            let cond = i.b.tmp_var(&helper, VarKind::Bool, vec![]);
            i.b.helper_name("while");
            let parent = i.b.current_block();
            Ok(Value::object(Object::DynamicRnn(RefCell::new(
                DynRnnState {
                    helper,
                    cond,
                    status: Status::Before,
                    parent,
                    step: None,
                    zero: None,
                    table: None,
                    max_len: None,
                    inputs: Vec::new(),
                    memories: Vec::new(),
                    links: Vec::new(),
                    output_arrays: Vec::new(),
                    outputs: Vec::new(),
                    errors_at_block: 0,
                    failed: false,
                },
            ))))
        }
    ),
    builtin!(["DynamicRNN.block"], [], Rest::No, |i, a| {
        let obj = recv_object(a);
        let mut st = state(&obj).borrow_mut();
        if st.status != Status::Before {
            return Err(Diagnostic::new(
                a.call.clone(),
                "ValueError: rnn.block() can only be invoke once",
            ));
        }
        st.parent = i.b.current_block();
        let step = fill_constant(i, vec![1], VarKind::Int64, 0.0, true, None);
        i.b.var_mut(&step).stop_gradient = Some(false);
        st.step = Some(step);
        st.status = Status::In;
        st.errors_at_block = i.errors_reported();
        drop(st);
        Ok(guard(GuardKind::Rnn(obj)))
    }),
    builtin!(
        ["DynamicRNN.step_input"],
        [("x", Req), ("level", Int(0))],
        Rest::No,
        step_input
    ),
    builtin!(
        ["DynamicRNN.static_input"],
        [("x", Req)],
        Rest::No,
        |i, a| {
            let obj = recv_object(a);
            let st = inside(&obj, a)?;
            let x = a.var("x")?;
            let Some(table) = st.table.clone() else {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "RuntimeError: static_input() must be called after step_input().",
                ));
            };
            let step = st.step.clone().expect("set by block()");
            let reordered = in_parent(i, st.parent, |i| {
                let name = i.b.unique("dynamic_rnn_static_input_reordered");
                sequence::reorder(i, &name, &x, &table)
            });
            Ok(Value::Var(sequence::shrink_memory(
                i, &reordered, &step, &table,
            )))
        }
    ),
    builtin!(
        ["DynamicRNN.memory"],
        [
            ("init", Nil),
            ("shape", Nil),
            ("value", Float(0.0)),
            ("need_reorder", Bool(false)),
            ("dtype", Str("float32"))
        ],
        Rest::No,
        memory
    ),
    builtin!(
        ["DynamicRNN.update_memory"],
        [("ex_mem", Req), ("new_mem", Req)],
        Rest::No,
        |_, a| {
            let obj = recv_object(a);
            let mut st = inside(&obj, a)?;
            let (mem, new) = (a.var("ex_mem")?, a.var("new_mem")?);
            let Some(array) = st
                .memories
                .iter()
                .find(|(read, _)| *read == mem)
                .map(|(_, array)| array.clone())
            else {
                return Err(a
                    .err(
                        "ex_mem",
                        "ValueError: Please invoke memory before update_memory",
                    )
                    .help("pass what rnn.memory(...) returned"));
            };
            st.links.push((new, array));
            Ok(Value::None)
        }
    ),
    builtin!(["DynamicRNN.output"], [], Rest::Varargs, |i, a| {
        let obj = recv_object(a);
        let mut st = inside(&obj, a)?;
        let step = st.step.clone().expect("set by block()");
        for v in a.extra.clone() {
            let Value::Var(o) = v else {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "DynamicRNN.output takes Variables",
                ));
            };
            let name =
                i.b.unique(&format!("{}_output_array_{}", st.helper, o.name));
            let dtype = dtype_of(i, &o);
            let o_dims = dims(i, &o);
            let array = in_parent(i, st.parent, |i| declare_array(i, name, dtype, o_dims));
            write_array(i, &o, &step, Some(array.clone()));
            st.output_arrays.push(array);
        }
        Ok(Value::None)
    }),
    builtin!(["DynamicRNN.__call__"], [], Rest::No, |_, a| {
        let obj = recv_object(a);
        let st = state(&obj).borrow();
        if st.failed {
            return Ok(Value::Poison);
        }
        if st.status != Status::After {
            return Err(Diagnostic::new(
                a.call.clone(),
                "ValueError: Output of the dynamic RNN can only be visited outside the rnn block.",
            ));
        }
        Ok(match st.outputs.as_slice() {
            [one] => Value::Var(one.clone()),
            many => Value::list(many.iter().cloned().map(Value::Var).collect()),
        })
    }),
];

fn state(obj: &Object) -> &RefCell<DynRnnState> {
    match obj {
        Object::DynamicRnn(st) => st,
        _ => unreachable!("bound to DynamicRNN"),
    }
}

/// The state, for a call that must be inside `with rnn.block():`.
fn inside<'a>(obj: &'a Object, a: &Args) -> Result<std::cell::RefMut<'a, DynRnnState>> {
    let st = state(obj).borrow_mut();
    if st.status != Status::In {
        return Err(Diagnostic::new(
            a.call.clone(),
            format!(
                "ValueError: {}() can only be invoked inside rnn block.",
                a.short_name()
            ),
        ));
    }
    Ok(st)
}

fn step_input(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    let mut st = inside(&obj, a)?;
    let x = a.var("x")?;
    let level = a.int("level")?;
    let step = st.step.clone().expect("set by block()");
    let parent = st.parent;
    if st.table.is_none() {
        let cond = st.cond.clone();
        let (table, max_len) = in_parent(i, parent, |i| {
            let table = sequence::rank_table(i, &x, level);
            let name = i.b.unique("dynamic_rnn_max_seq_len");
            let max_len =
                i.b.declare(fluidc_transpiler::Var::dense(name, VarKind::Int64, vec![1]));
            i.b.append(
                Op::new("max_sequence_len")
                    .input("RankTable", &[&table.name])
                    .output("Out", &[&max_len.name]),
            );
            i.b.var_mut(&cond).stop_gradient = Some(true);
            compare_op(i, "less_than", &step, &max_len, cond.clone());
            (table, max_len)
        });
        st.table = Some(table);
        st.max_len = Some(max_len);
    }
    let table = st.table.clone().expect("made above");
    let dtype = dtype_of(i, &x);
    let array = in_parent(i, parent, |i| {
        let name = i.b.unique("dynamic_rnn_input_array");
        sequence::to_array(i, &name, &x, &table)
    });
    st.inputs.push((array.clone(), dtype));
    Ok(Value::Var(read_array(i, &array, &step)))
}

/// The `zero_idx` constant of the enclosing block, made once.
fn zero_index(i: &mut Host, st: &mut DynRnnState) -> VarRef {
    if let Some(z) = &st.zero {
        return z.clone();
    }
    let zero = in_parent(i, st.parent, |i| {
        let name = i.b.unique("zero_idx");
        let z =
            i.b.declare(fluidc_transpiler::Var::dense(name, VarKind::Int64, vec![1]));
        super::tensor::fill_constant_op(i, &z, vec![1], VarKind::Int64, 0.0, true);
        z
    });
    st.zero = Some(zero.clone());
    zero
}

fn memory(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    let mut st = inside(&obj, a)?;
    let zero = zero_index(i, &mut st);
    let parent = st.parent;
    let init = match a.opt_var("init")? {
        Some(init) => init,
        None => {
            let Some((array, _)) = st.inputs.first().cloned() else {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "ValueError: step_input should be invoked before memory(shape=..., value=...)",
                ));
            };
            if a.is_none("shape") {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    "memory() needs `init`, or `shape` (and `value`)",
                ));
            }
            let mut shape = vec![-1];
            shape.extend(a.ints("shape")?);
            let like = BatchSizeLike {
                shape,
                dtype: a.dtype("dtype")?,
                value: a.float("value")?,
                input_dim_idx: 0,
                output_dim_idx: 0,
            };
            in_parent(i, parent, |i| {
                let in0 = read_array(i, &array, &zero);
                sequence::fill_batch_size_like(i, &in0, &like, a.call.clone())
            })?
        }
    };
    let table = st.table.clone();
    let init = if a.bool("need_reorder")? {
        let Some(table) = &table else {
            return Err(Diagnostic::new(
                a.call.clone(),
                "ValueError: If set need_reorder to True, make sure step_input be invoked before memory(init=init, need_reordered=True, ...).",
            ));
        };
        in_parent(i, parent, |i| {
            let name = i.b.unique("dynamic_rnn_mem_init_reordered");
            sequence::reorder(i, &name, &init, table)
        })
    } else {
        init
    };
    let Some(table) = table else {
        return Err(Diagnostic::new(
            a.call.clone(),
            "ValueError: step_input should be invoked before memory()",
        )
        .help(
            "call rnn.step_input(x) first: the memory shrinks with the sequences it steps through",
        ));
    };
    let array = in_parent(i, parent, |i| {
        let array = write_array(i, &init, &zero, None);
        // Gradients reach the boot value through the array.
        i.b.var_mut(&array).stop_gradient = Some(false);
        array
    });
    let step = st.step.clone().expect("set by block()");
    let read = read_array(i, &array, &step);
    let mem = sequence::shrink_memory(i, &read, &step, &table);
    st.memories.push((mem.clone(), array));
    Ok(Value::Var(mem))
}

/// Leaving the step block, while it is still current: the counter moves
/// on, each memory is written at the new step and the condition updated.
/// Returns the condition the `while` takes, or `None` after an error in
/// the block (nothing more is built then).
pub fn finish_block(i: &mut Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<Option<VarRef>> {
    let mut st = state(obj).borrow_mut();
    st.status = Status::After;
    if i.errors_reported() > st.errors_at_block {
        st.failed = true;
        return Ok(None);
    }
    let Some(max_len) = st.max_len.clone() else {
        st.failed = true;
        return Err(Diagnostic::new(sp, "a DynamicRNN needs a step input")
            .help("call rnn.step_input(x) inside `with rnn.block():`"));
    };
    let step = st.step.clone().expect("set by block()");
    i.b.helper_name("increment");
    i.b.append(
        Op::new("increment")
            .input("X", &[&step.name])
            .output("Out", &[&step.name])
            .attr("step", AttrValue::Float(1.0)),
    );
    for (new, array) in &st.links {
        write_array(i, new, &step, Some(array.clone()));
    }
    i.b.helper_name("less_than");
    compare_op(i, "less_than", &step, &max_len, st.cond.clone());
    Ok(Some(st.cond.clone()))
}

/// After the `while`: each output array back to a LoD tensor.
pub fn collect_outputs(i: &mut Host, obj: &Rc<Object>) {
    let mut st = state(obj).borrow_mut();
    let table = st.table.clone().expect("checked by finish_block");
    let outputs = st
        .output_arrays
        .clone()
        .iter()
        .map(|array| sequence::to_lod_tensor(i, array, &table))
        .collect();
    st.outputs = outputs;
}
