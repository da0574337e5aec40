//! Channels, `Go` and `Select` (seeds 000 and 002, SPEC §3 and §4).
//!
//! `Select` builds the high-level select node, one op of type
//! [`SELECT_NODE`]: its `cases` attribute holds the case strings
//! (`"<index>,<kind>,<channel>,<value>"`, kind 0 default, 1 send, 2 receive)
//! and `case_blocks` the body block of each case, in case order; `Channel`
//! lists the channels, `X` the values sent and what the bodies read from
//! enclosing blocks, `Out` the variables received into and what the bodies
//! write there. The transpiler's `lower_select` pass turns it into Paddle's
//! `select` op with its cases block.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use fluidc_transpiler::proto::var_type::ChannelDesc;
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::blocks::{block_io, guard, parent_of, strs, visible};
use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{
    CaseState, GuardKind, Object, SelectCaseInfo, SelectState, Value, VarRef,
};

use D::*;

/// The op type of the high-level select node (fluidc's own, lowered before output).
pub const SELECT_NODE: &str = fluidc_transpiler::SELECT_NODE;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.make_channel", "fluid.concurrency.make_channel"],
        [("dtype", Req), ("capacity", Int(0)), ("name", Nil)],
        Rest::No,
        make_channel
    ),
    builtin!(
        ["fluid.channel_send", "fluid.concurrency.channel_send"],
        [("channel", Req), ("value", Req), ("is_copy", Bool(false))],
        Rest::No,
        channel_send
    ),
    builtin!(
        ["fluid.channel_recv", "fluid.concurrency.channel_recv"],
        [("channel", Req), ("return_value", Nil), ("dtype", Nil)],
        Rest::No,
        channel_recv
    ),
    builtin!(
        ["fluid.channel_close", "fluid.concurrency.channel_close"],
        [("channel", Req)],
        Rest::No,
        |i, a| {
            let ch = channel_arg(i, a, "channel")?;
            i.b.helper_name("channel_close");
            i.b.append(Op::new("channel_close").input("Channel", &[&ch.name]));
            Ok(Value::None)
        }
    ),
    builtin!(
        ["fluid.Go", "fluid.concurrency.Go"],
        [("name", Nil)],
        Rest::No,
        |_, _| Ok(guard(GuardKind::Go))
    ),
    builtin!(
        ["fluid.Select", "fluid.concurrency.Select"],
        [("name", Nil)],
        Rest::No,
        |i, _| {
            let state = SelectState {
                program: i.b.main,
                block: i.b.current_block(),
                ..Default::default()
            };
            Ok(Value::object(Object::Select(RefCell::new(state))))
        }
    ),
    builtin!(
        ["Select.case"],
        [
            ("channel_action_fn", Req),
            ("channel", Req),
            ("value", Req),
            ("is_copy", Bool(false))
        ],
        Rest::No,
        select_case
    ),
    builtin!(["Select.default"], [], Rest::No, select_default),
];

/// The channel argument `name`, checked to be a channel variable.
fn channel_arg(i: &Host, a: &Args, name: &str) -> Result<VarRef> {
    let v = a.var(name)?;
    let var = i.b.var(&v);
    if var.kind() != Some(VarKind::Channel) {
        let kind = var.kind().map_or("an unknown".to_string(), |k| {
            format!("a {}", k.as_str_name())
        });
        return Err(a
            .err(
                name,
                format!(
                    "{}() needs a channel, but `{}` is {kind} variable",
                    a.short_name(),
                    v.name
                ),
            )
            .help("create channels with fluid.make_channel(dtype=..., capacity=...)"));
    }
    Ok(v)
}

fn make_channel(i: &mut Host, a: &mut Args) -> Result<Value> {
    let dtype = a.dtype("dtype")?;
    let capacity = a.int("capacity")?;
    if capacity < 0 {
        return Err(a.err(
            "capacity",
            "a channel's capacity must be 0 (unbuffered) or more",
        ));
    }
    i.b.helper_name("channel_create");
    // Early 2018's `make_channel(..., name=)` names the channel variable.
    let name = match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.unique("channel"),
    };
    let mut var = Var::plain(name.as_str(), VarKind::Channel);
    var.ty.channel = Some(ChannelDesc {
        data_type: dtype as i32,
        capacity,
    });
    // Paddle made every channel persistable, and persistable variables live
    // in the root scope. A channel made inside a block (a While body) must
    // be fresh in each iteration, as in Go (SPEC §6), so only a channel of
    // the global block is persistable.
    var.persistable = Some(i.b.current_block() == 0);
    let ch = i.b.declare(var);
    i.b.append(
        Op::new("channel_create")
            .output("Out", &[&ch.name])
            .attr("data_type", AttrValue::Int(dtype as i32))
            .attr(
                "capacity",
                AttrValue::Int(
                    i32::try_from(capacity)
                        .map_err(|_| a.err("capacity", "capacity is too large"))?,
                ),
            ),
    );
    Ok(Value::Var(ch))
}

/// With `is_copy`, Paddle sends a fresh `<name>_copy_N` made by `assign`.
fn copy_for_send(i: &mut Host, value: &VarRef) -> VarRef {
    let mut var = i.b.var(value).clone();
    var.name = i.b.unique(&format!("{}_copy", value.name));
    var.persistable = Some(false);
    let copy = i.b.declare(var);
    i.b.append(
        Op::new("assign")
            .input("X", &[&value.name])
            .output("Out", &[&copy.name]),
    );
    copy
}

/// The element dtype a channel was declared with (none for 2018's
/// `LOD_TENSOR` channels, which carry any dtype).
fn element_dtype(i: &Host, ch: &VarRef) -> Option<VarKind> {
    let elem = i.b.var(ch).ty.channel.as_ref()?.data_type;
    VarKind::try_from(elem)
        .ok()
        .filter(|k| !matches!(k, VarKind::DenseTensor | VarKind::DenseTensorArray))
}

/// What `channel_send` sends: a Variable, or (early 2018) a Python bool,
/// int or float as a `[1]` `fill_constant` of the channel's element dtype
/// (of the number's own type, numpy's, on a `LOD_TENSOR` channel).
fn send_value(i: &mut Host, a: &Args, ch: &VarRef) -> Result<VarRef> {
    let (own, value) = match a.get("value") {
        Value::Bool(b) => (VarKind::Bool, f64::from(u8::from(*b))),
        Value::Int(n) => (VarKind::Int64, *n as f64),
        Value::Float(f) => (VarKind::Fp64, *f),
        _ => return a.var("value"),
    };
    let dtype = element_dtype(i, ch).unwrap_or(own);
    Ok(super::tensor::fill_constant(
        i,
        vec![1],
        dtype,
        value,
        false,
        None,
    ))
}

fn channel_send(i: &mut Host, a: &mut Args) -> Result<Value> {
    let ch = channel_arg(i, a, "channel")?;
    let mut value = send_value(i, a, &ch)?;
    i.b.helper_name("channel_send");
    if a.bool("is_copy")? {
        value = copy_for_send(i, &value);
    }
    i.b.append(
        Op::new("channel_send")
            .input("Channel", &[&ch.name])
            .input("X", &[&value.name]),
    );
    Ok(Value::None)
}

fn channel_recv(i: &mut Host, a: &mut Args) -> Result<Value> {
    let ch = channel_arg(i, a, "channel")?;
    // Early 2018: `channel_recv(ch)` or `channel_recv(ch, 'int32')` /
    // `dtype=` makes the variable it receives into and returns just it.
    let dtype_arg = match a.get("return_value") {
        Value::Var(_) => None,
        Value::None => (!a.is_none("dtype")).then_some("dtype"),
        _ => Some("return_value"),
    };
    let made = a.is_none("return_value");
    let helper = i.b.helper_name("channel_recv");
    let out = if made || dtype_arg.is_some() {
        let dtype = match dtype_arg {
            Some(arg) => a.dtype(arg)?,
            None => element_dtype(i, &ch).ok_or_else(|| {
                a.err("channel", "channel_recv() cannot tell what this channel carries: it was made with a LOD_TENSOR dtype")
                    .help("pass the element type, e.g. fluid.channel_recv(ch, dtype='int64'), or a variable to receive into")
            })?,
        };
        i.b.tmp_var(&helper, dtype, vec![1])
    } else {
        a.var("return_value")?
    };
    if !a.is_none("dtype") && !made && dtype_arg.is_none() {
        return Err(a.err(
            "dtype",
            "channel_recv() takes a dtype only when it makes the variable it receives into",
        ));
    }
    let name = i.b.unique("status");
    let status = i.b.declare(Var::dense(name, VarKind::Bool, vec![1]));
    i.b.append(
        Op::new("channel_recv")
            .input("Channel", &[&ch.name])
            .output("Out", &[&out.name])
            .output("Status", &[&status.name]),
    );
    if made || dtype_arg.is_some() {
        return Ok(Value::Var(out));
    }
    Ok(Value::tuple(vec![Value::Var(out), Value::Var(status)]))
}

/// Appends the `go` op for a finished `with fluid.Go():` block.
pub fn complete_go(i: &mut Host, program: usize, block: usize) {
    let parent = parent_of(i, program, block);
    let (reads, _) = block_io(i, program, block, &[]);
    let x = visible(i, program, parent, &reads);
    i.b.append_to(
        program,
        parent,
        Op::new("go")
            .input("X", &strs(&x))
            .attr("sub_block", AttrValue::Block(block as i32)),
    );
}

fn select_state(obj: &Rc<Object>) -> &RefCell<SelectState> {
    match obj.as_ref() {
        Object::Select(s) => s,
        _ => unreachable!("bound to Select"),
    }
}

fn check_select_open(i: &Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<()> {
    let s = select_state(obj).borrow();
    if !s.entered || s.closed {
        return Err(Diagnostic::new(sp, "a select case must be inside `with fluid.Select() as select:`")
            .help("put `with select.case(...):` and `with select.default():` in the Select's `with` block"));
    }
    if i.b.main != s.program || i.b.current_block() != s.block {
        return Err(Diagnostic::new(sp, "a select case must be directly inside its `with fluid.Select()` block, not nested in another block"));
    }
    Ok(())
}

fn select_case(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    check_select_open(i, &obj, a.call.clone())?;
    let kind = match a.get("channel_action_fn") {
        Value::Builtin(b, None) if b.name.ends_with("channel_send") => 1,
        Value::Builtin(b, None) if b.name.ends_with("channel_recv") => 2,
        _ => return Err(a.err(
            "channel_action_fn",
            "the first argument of select.case must be fluid.channel_send or fluid.channel_recv",
        )),
    };
    let ch = channel_arg(i, a, "channel")?;
    let mut value = a.var("value")?;
    if kind == 1 && a.bool("is_copy")? {
        value = copy_for_send(i, &value);
    }
    let index = next_index(&obj);
    let info = SelectCaseInfo {
        index,
        kind,
        channel: Some(ch),
        value: Some(value),
        body: None,
    };
    Ok(Value::object(Object::SelectCase(RefCell::new(CaseState {
        select: obj,
        info,
    }))))
}

fn next_index(obj: &Rc<Object>) -> usize {
    let mut s = select_state(obj).borrow_mut();
    s.next_index += 1;
    s.next_index - 1
}

fn select_default(i: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = recv_object(a);
    check_select_open(i, &obj, a.call.clone())?;
    if std::mem::replace(&mut select_state(&obj).borrow_mut().has_default, true) {
        return Err(
            Diagnostic::new(a.call.clone(), "a Select can have only one default case")
                .help("merge the two default bodies into one"),
        );
    }
    let index = next_index(&obj);
    let info = SelectCaseInfo {
        index,
        kind: 0,
        channel: None,
        value: None,
        body: None,
    };
    Ok(Value::object(Object::SelectCase(RefCell::new(CaseState {
        select: obj,
        info,
    }))))
}

/// Enters `with fluid.Select() as select:`; its cases go to the block it is in.
pub fn enter_select(i: &mut Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<()> {
    let mut s = select_state(obj).borrow_mut();
    if s.entered {
        return Err(Diagnostic::new(
            sp,
            "this Select was already used in a `with` statement",
        ));
    }
    s.entered = true;
    s.program = i.b.main;
    s.block = i.b.current_block();
    Ok(())
}

/// Enters `with select.case(...):`, the case's body block.
pub fn enter_case(i: &mut Host, obj: &Rc<Object>, sp: Range<usize>) -> Result<()> {
    let Object::SelectCase(c) = obj.as_ref() else {
        unreachable!("dispatched on SelectCase")
    };
    let select = c.borrow().select.clone();
    check_select_open(i, &select, sp.clone())?;
    if c.borrow().info.body.is_some() {
        return Err(Diagnostic::new(sp, "this case was already entered once"));
    }
    let body = i.b.enter_block();
    c.borrow_mut().info.body = Some(body);
    Ok(())
}

pub fn exit_case(i: &mut Host, obj: &Rc<Object>) -> Result<()> {
    let Object::SelectCase(c) = obj.as_ref() else {
        unreachable!("only a case is left as a case")
    };
    i.b.exit_block();
    let c = c.borrow();
    select_state(&c.select)
        .borrow_mut()
        .cases
        .push(c.info.clone());
    Ok(())
}

/// Appends the high-level select node for a finished `with fluid.Select()`.
pub fn exit_select(i: &mut Host, obj: &Rc<Object>, _sp: Range<usize>) -> Result<()> {
    let (program, block, mut cases) = {
        let mut s = select_state(obj).borrow_mut();
        s.closed = true;
        (s.program, s.block, s.cases.clone())
    };
    cases.sort_by_key(|c| c.index);
    let name = |v: &Option<VarRef>| v.as_ref().map_or(String::new(), |v| v.name.to_string());
    let strings: Vec<String> = cases
        .iter()
        .map(|c| {
            format!(
                "{},{},{},{}",
                c.index,
                c.kind,
                name(&c.channel),
                name(&c.value)
            )
        })
        .collect();
    let blocks: Vec<i32> = cases
        .iter()
        .filter_map(|c| c.body.map(|b| b as i32))
        .collect();
    let channels: Vec<String> = cases
        .iter()
        .filter_map(|c| c.channel.as_ref().map(|v| v.name.to_string()))
        .collect();
    // Like Paddle's select op, the node lists what the case bodies read
    // from and write to enclosing blocks, so an enclosing While sees them.
    let mut sent: Vec<String> = cases
        .iter()
        .filter(|c| c.kind == 1)
        .map(|c| name(&c.value))
        .collect();
    let mut received: Vec<String> = cases
        .iter()
        .filter(|c| c.kind == 2)
        .map(|c| name(&c.value))
        .collect();
    for body in &blocks {
        let (reads, writes) = block_io(i, program, *body as usize, &[]);
        for r in visible(i, program, block, &reads) {
            if !sent.contains(&r) {
                sent.push(r);
            }
        }
        for w in visible(i, program, block, &writes) {
            if !received.contains(&w) {
                received.push(w);
            }
        }
    }
    i.b.append_to(
        program,
        block,
        Op::new(SELECT_NODE)
            .input("Channel", &strs(&channels))
            .input("X", &strs(&sent))
            .output("Out", &strs(&received))
            .attr("cases", AttrValue::Strings(strings))
            .attr("case_blocks", AttrValue::Blocks(blocks)),
    );
    Ok(())
}
