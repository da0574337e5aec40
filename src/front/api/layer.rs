//! What the layer modules share: a variable's dtype and dims as declared,
//! the one-op layer (`relu`, `exp`, ...) and a layer's `act=`, as Paddle's
//! `LayerHelper` provides them to every layer.
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::Args;
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

/// Declares a one-op layer `fluid.layers.<name>(x, name=None)`.
macro_rules! unary_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [("x", Req), ("name", Nil)],
            Rest::No,
            |i, a| {
                let x = a.var("x")?;
                simple(i, $name, &[("X", &x)], &[])
            }
        )
    };
}
pub(crate) use unary_layer;

/// The dtype of a declared variable (FP32 if it has none, as Paddle assumes).
pub fn dtype_of(i: &Host, v: &VarRef) -> VarKind {
    i.b.var(v).dtype().unwrap_or(VarKind::Fp32)
}

/// A `sum` of `xs` into `out`, as every 1.x layer that adds a list
/// appends it (`sums`, fc's several inputs, gradient clipping).
pub fn append_sum(i: &mut Host, xs: &[VarRef], out: &VarRef) {
    let names: Vec<&str> = xs.iter().map(|v| &*v.name).collect();
    i.b.append(
        fluidc_transpiler::Op::new("sum")
            .input("X", &names)
            .output("Out", &[&out.name])
            .attr("use_mkldnn", fluidc_transpiler::AttrValue::Bool(false)),
    );
}

/// `LayerHelper(layer, name=name).name`: the layer's `name` argument, or
/// a fresh `<layer>_N`.
pub fn layer_helper(i: &mut Host, a: &Args, layer: &str) -> Result<String> {
    Ok(match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.helper_name(layer),
    })
}

/// The declared dims of a variable (none if it is not a tensor).
pub fn dims(i: &Host, v: &VarRef) -> Vec<i64> {
    i.b.var(v)
        .tensor_desc()
        .map(|t| t.dims.clone())
        .unwrap_or_default()
}

/// The shape Paddle declares for a broadcast result: the higher-rank side's.
pub fn broadcast_dims(a: &[i64], b: &[i64]) -> Vec<i64> {
    if a.len() >= b.len() {
        a.to_vec()
    } else {
        b.to_vec()
    }
}

/// Whether a dtype is an integer type.
pub fn is_int(k: VarKind) -> bool {
    matches!(
        k,
        VarKind::Int8 | VarKind::Int16 | VarKind::Int32 | VarKind::Int64 | VarKind::Uint8
    )
}

/// A one-op layer whose output has the input's dtype and shape.
pub fn simple(
    i: &mut Host,
    ty: &str,
    inputs: &[(&str, &VarRef)],
    attrs: &[(&str, AttrValue)],
) -> Result<Value> {
    let x = inputs[0].1;
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, dtype_of(i, x), dims(i, x));
    let mut op = Op::new(ty).output("Out", &[&out.name]);
    for (slot, v) in inputs {
        op = op.input(slot, &[&v.name]);
    }
    for (name, value) in attrs {
        op = op.attr(name, value.clone());
    }
    i.b.append(op);
    Ok(Value::Var(out))
}

/// Applies a layer's `act=` by name (`relu`, `sigmoid`, `tanh`,
/// `softmax`), into the layer helper's next temporary, as Paddle's
/// `append_activation` does (`elementwise_add_0.tmp_1`).
pub fn activation(i: &mut Host, a: &Args, out: VarRef, helper: &str) -> Result<Value> {
    match a.get("act") {
        Value::None => Ok(Value::Var(out)),
        Value::Str(act) if matches!(&**act, "relu" | "sigmoid" | "tanh" | "softmax") => {
            let t = i.b.tmp_var(helper, dtype_of(i, &out), dims(i, &out));
            i.b.append(
                Op::new(&**act)
                    .input("X", &[&out.name])
                    .output("Out", &[&t.name]),
            );
            Ok(Value::Var(t))
        }
        _ => Err(a.err(
            "act",
            "act must be None or one of 'relu', 'sigmoid', 'tanh', 'softmax'",
        )),
    }
}
