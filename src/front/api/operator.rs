//! `block.ops` and the `Operator` objects in it, as Paddle 1.x's Python
//! gives them to tests that inspect a built program: `op.type`,
//! `op.input_names`/`output_names`, `op.input(slot)`/`op.output(slot)`,
//! `op.input_arg_names`/`output_arg_names`, `op.attr(name)`,
//! `op.has_attr(name)`, `op.attr_names`. An operator is named by its
//! program, block and index (the list is taken when `block.ops` is read).
use fluidc_transpiler::{AttrValue, Op};

use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D::*};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Object, Value};

pub const BUILTINS: &[Builtin] = &[
    builtin!(["Operator.input"], [("name", Req)], Rest::No, |i, a| {
        slot_args(i, a, |op| &op.inputs)
    }),
    builtin!(["Operator.output"], [("name", Req)], Rest::No, |i, a| {
        slot_args(i, a, |op| &op.outputs)
    }),
    builtin!(["Operator.attr"], [("name", Req)], Rest::No, |i, a| {
        let name = a.string("name")?;
        let op = the_op(i, a);
        match op.and_then(|op| op.get_attr(&name).map(attr_value)) {
            Some(v) => Ok(v),
            None => Err(a.err(
                "name",
                format!("ValueError: the op has no attribute `{name}`"),
            )),
        }
    }),
    builtin!(["Operator.has_attr"], [("name", Req)], Rest::No, |i, a| {
        let name = a.string("name")?;
        Ok(Value::Bool(
            the_op(i, a).is_some_and(|op| op.get_attr(&name).is_some()),
        ))
    }),
];

/// The operator a method is bound to.
fn the_op<'h>(i: &'h Host, a: &Args) -> Option<&'h Op> {
    let Object::Operator {
        program,
        block,
        index,
    } = *recv_object(a)
    else {
        return None;
    };
    i.b.block(program, block).ops.get(index)
}

fn slot_args(
    i: &mut Host,
    a: &Args,
    slots: fn(&Op) -> &Vec<fluidc_transpiler::Slot>,
) -> Result<Value> {
    let name = a.string("name")?;
    let found = the_op(i, a).and_then(|op| {
        slots(op).iter().find(|s| s.parameter == name).map(|s| {
            s.arguments
                .iter()
                .map(|n| Value::str(n))
                .collect::<Vec<_>>()
        })
    });
    found
        .map(Value::list)
        .ok_or_else(|| a.err("name", format!("ValueError: the op has no slot `{name}`")))
}

/// Slots sorted by name: Paddle's op desc keeps them in a sorted map.
fn sorted(slots: &[fluidc_transpiler::Slot]) -> Vec<&fluidc_transpiler::Slot> {
    let mut v: Vec<&fluidc_transpiler::Slot> = slots.iter().collect();
    v.sort_by(|a, b| a.parameter.cmp(&b.parameter));
    v
}

/// `op.type`, `op.input_names`, ... (`None`: not an attribute of an operator).
pub fn operator_attr(
    i: &Host,
    program: usize,
    block: usize,
    index: usize,
    name: &str,
) -> Option<Value> {
    let op = i.b.block(program, block).ops.get(index)?;
    let names = |slots: &[fluidc_transpiler::Slot]| {
        Value::list(
            sorted(slots)
                .iter()
                .map(|s| Value::str(&s.parameter))
                .collect(),
        )
    };
    let args = |slots: &[fluidc_transpiler::Slot]| {
        Value::list(
            sorted(slots)
                .iter()
                .flat_map(|s| s.arguments.iter().map(|n| Value::str(n)))
                .collect(),
        )
    };
    Some(match name {
        "type" => Value::str(&op.ty),
        "input_names" => names(&op.inputs),
        "output_names" => names(&op.outputs),
        "input_arg_names" => args(&op.inputs),
        "output_arg_names" => args(&op.outputs),
        "attr_names" => Value::list(op.attrs.iter().map(|a| Value::str(&a.name)).collect()),
        "idx" => Value::Int(index as i64),
        "block" => Value::object(Object::Block { program, block }),
        _ => return None,
    })
}

/// An attribute's value as Python sees it.
fn attr_value(v: &AttrValue) -> Value {
    let list = |items: Vec<Value>| Value::list(items);
    match v {
        AttrValue::Int(n) => Value::Int(i64::from(*n)),
        AttrValue::Long(n) => Value::Int(*n),
        AttrValue::Float(f) => Value::Float(f64::from(*f)),
        AttrValue::Float64(f) => Value::Float(*f),
        AttrValue::String(s) | AttrValue::Var(s) => Value::str(s),
        AttrValue::Bool(b) => Value::Bool(*b),
        AttrValue::Ints(v) => list(v.iter().map(|n| Value::Int(i64::from(*n))).collect()),
        AttrValue::Longs(v) => list(v.iter().map(|n| Value::Int(*n)).collect()),
        AttrValue::Floats(v) => list(v.iter().map(|f| Value::Float(f64::from(*f))).collect()),
        AttrValue::Float64s(v) => list(v.iter().map(|f| Value::Float(*f)).collect()),
        AttrValue::Strings(v) | AttrValue::Vars(v) => {
            list(v.iter().map(|s| Value::str(s)).collect())
        }
        AttrValue::Bools(v) => list(v.iter().map(|b| Value::Bool(*b)).collect()),
        AttrValue::Block(b) => Value::Int(i64::from(*b)),
        AttrValue::Blocks(v) => list(v.iter().map(|b| Value::Int(i64::from(*b))).collect()),
        AttrValue::Scalar(_) | AttrValue::Scalars(_) | AttrValue::Raw(_) => Value::None,
    }
}
