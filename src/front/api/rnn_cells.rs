//! Recurrent cells as Paddle 1.x's `layers/nn.py` built them: one step of
//! `gru_unit` (a `gru_unit` op with its own weight and bias) and of
//! `lstm_unit` (`concat` of the input and the last hidden state, an `fc`
//! to four gates, then the `lstm_unit` op, which only fluidc runs now),
//! and `dynamic_lstm` and `dynamic_gru` over whole LoD sequences (the
//! `lstm` and `gru` ops).
use fluidc_transpiler::{AttrValue, Op};

use super::builtin::{builtin, call_layer, Args, Builtin, Rest, D};
use super::conv::append_inferred_at;
use super::layer::{dims, dtype_of, layer_helper};
use super::param::{create_parameter, param_attr};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::Value;

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.gru_unit"],
        [
            ("input", Req),
            ("hidden", Req),
            ("size", Req),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("activation", Str("tanh")),
            ("gate_activation", Str("sigmoid")),
            ("origin_mode", Bool(false))
        ],
        Rest::No,
        gru_unit
    ),
    builtin!(
        ["fluid.layers.lstm_unit"],
        [
            ("x_t", Req),
            ("hidden_t_prev", Req),
            ("cell_t_prev", Req),
            ("forget_bias", Float(0.0)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("name", Nil)
        ],
        Rest::No,
        lstm_unit
    ),
    builtin!(
        ["fluid.layers.dynamic_lstm"],
        [
            ("input", Req),
            ("size", Req),
            ("h_0", Nil),
            ("c_0", Nil),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("use_peepholes", Bool(true)),
            ("is_reverse", Bool(false)),
            ("gate_activation", Str("sigmoid")),
            ("cell_activation", Str("tanh")),
            ("candidate_activation", Str("tanh")),
            ("dtype", Str("float32")),
            ("name", Nil)
        ],
        Rest::No,
        dynamic_lstm
    ),
    builtin!(
        ["fluid.layers.dynamic_gru"],
        [
            ("input", Req),
            ("size", Req),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("is_reverse", Bool(false)),
            ("gate_activation", Str("sigmoid")),
            ("candidate_activation", Str("tanh")),
            ("h_0", Nil),
            ("origin_mode", Bool(false))
        ],
        Rest::No,
        dynamic_gru
    ),
];

/// The activation names Paddle's sequence RNN ops take.
fn check_activations(a: &Args, names: &[&str]) -> Result<()> {
    for name in names {
        let act = a.string(name)?;
        if !["sigmoid", "tanh", "relu", "identity"].contains(&act.as_str()) {
            return Err(a.err(
                name,
                format!("{name} `{act}` is not one of sigmoid, tanh, relu, identity"),
            ));
        }
    }
    Ok(())
}

/// `dynamic_gru(input, size)`: `input` is the projected `[T, 3 * size]`
/// sequence batch and `size` the hidden size; returns the hidden states
/// `[T, size]` with the input's LoD. The weight is `[size, 3 * size]` and
/// the bias `[1, 3 * size]` in the input's dtype, as 1.x created them.
fn dynamic_gru(i: &mut Host, a: &mut Args) -> Result<Value> {
    let input = a.var("input")?;
    let size = a.int("size")?;
    if size <= 0 {
        return Err(a.err(
            "size",
            format!("size {size} must be the hidden size, above 0"),
        ));
    }
    check_activations(a, &["gate_activation", "candidate_activation"])?;
    let w_attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "dynamic_gru needs a weight; param_attr cannot be False",
        )
    })?;
    let b_attr = param_attr(a, "bias_attr")?;
    let helper = i.b.helper_name("gru");
    let dtype = dtype_of(i, &input);
    let weight = create_parameter(
        i,
        &helper,
        &w_attr,
        vec![size, 3 * size],
        dtype,
        false,
        None,
    );
    let mut op = Op::new("gru")
        .input("Input", &[&input.name])
        .input("Weight", &[&weight.name]);
    if let Some(b_attr) = b_attr {
        let bias = create_parameter(i, &helper, &b_attr, vec![1, 3 * size], dtype, true, None);
        op = op.input("Bias", &[&bias.name]);
    }
    if !a.is_none("h_0") {
        op = op.input("H0", &[&a.var("h_0")?.name]);
    }
    let outs: Vec<_> = (0..4)
        .map(|_| i.b.tmp_var(&helper, dtype, vec![]))
        .collect();
    let op = op
        .output("Hidden", &[&outs[0].name])
        .output("BatchGate", &[&outs[1].name])
        .output("BatchResetHiddenPrev", &[&outs[2].name])
        .output("BatchHidden", &[&outs[3].name])
        .attr("is_reverse", AttrValue::Bool(a.bool("is_reverse")?))
        .attr(
            "gate_activation",
            AttrValue::String(a.string("gate_activation")?),
        )
        .attr(
            "activation",
            AttrValue::String(a.string("candidate_activation")?),
        )
        .attr("origin_mode", AttrValue::Bool(a.bool("origin_mode")?));
    append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::Var(outs[0].clone()))
}

/// `dynamic_lstm(input, size)`: `input` is the projected `[T, size]`
/// sequence batch and `size` four times the hidden size; returns
/// `(hidden, cell)`, both `[T, size / 4]` with the input's LoD. The
/// weight is `[D, 4D]` and the bias `[1, 7D]` (`[1, 4D]` without
/// peepholes), in `dtype`, as 1.x created them.
fn dynamic_lstm(i: &mut Host, a: &mut Args) -> Result<Value> {
    let input = a.var("input")?;
    let size = a.int("size")?;
    if size <= 0 || size % 4 != 0 {
        return Err(a.err(
            "size",
            format!("size {size} must be four times the hidden size"),
        ));
    }
    check_activations(
        a,
        &["gate_activation", "cell_activation", "candidate_activation"],
    )?;
    let w_attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "dynamic_lstm needs a weight; param_attr cannot be False",
        )
    })?;
    let b_attr = param_attr(a, "bias_attr")?
        .ok_or_else(|| a.err("bias_attr", "bias_attr should not be False in dynamic_lstm"))?;
    let dtype = a.dtype("dtype")?;
    let helper = layer_helper(i, a, "lstm")?;
    let d = size / 4;
    let peepholes = a.bool("use_peepholes")?;
    let weight = create_parameter(i, &helper, &w_attr, vec![d, size], dtype, false, None);
    let bias_width = if peepholes { 7 * d } else { size };
    let bias = create_parameter(i, &helper, &b_attr, vec![1, bias_width], dtype, true, None);
    let outs: Vec<_> = (0..4)
        .map(|_| i.b.tmp_var(&helper, dtype, vec![]))
        .collect();
    let mut op = Op::new("lstm")
        .input("Input", &[&input.name])
        .input("Weight", &[&weight.name])
        .input("Bias", &[&bias.name]);
    for (slot, arg) in [("H0", "h_0"), ("C0", "c_0")] {
        if !a.is_none(arg) {
            op = op.input(slot, &[&a.var(arg)?.name]);
        }
    }
    let op = op
        .output("Hidden", &[&outs[0].name])
        .output("Cell", &[&outs[1].name])
        .output("BatchGate", &[&outs[2].name])
        .output("BatchCellPreAct", &[&outs[3].name])
        .attr("use_peepholes", AttrValue::Bool(peepholes))
        .attr("is_reverse", AttrValue::Bool(a.bool("is_reverse")?))
        .attr(
            "gate_activation",
            AttrValue::String(a.string("gate_activation")?),
        )
        .attr(
            "cell_activation",
            AttrValue::String(a.string("cell_activation")?),
        )
        .attr(
            "candidate_activation",
            AttrValue::String(a.string("candidate_activation")?),
        );
    append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::tuple(vec![
        Value::Var(outs[0].clone()),
        Value::Var(outs[1].clone()),
    ]))
}

/// `gru_unit(input, hidden, size)`: `size` is three times the hidden
/// size; returns `(hidden, reset_hidden_prev, gate)`. Paddle 1.x checks
/// the activation names but always builds the op with tanh and sigmoid
/// (`activation: 2, gate_activation: 1`); fluidc builds the same op and
/// warns when the script asked for others.
fn gru_unit(i: &mut Host, a: &mut Args) -> Result<Value> {
    const ACTIVATIONS: [&str; 4] = ["identity", "sigmoid", "tanh", "relu"];
    for name in ["activation", "gate_activation"] {
        let act = a.string(name)?;
        if !ACTIVATIONS.contains(&act.as_str()) {
            return Err(a.err(
                name,
                format!("{name} `{act}` is not one of identity, sigmoid, tanh, relu"),
            ));
        }
    }
    for (name, built) in [("activation", "tanh"), ("gate_activation", "sigmoid")] {
        let act = a.string(name)?;
        if act != built {
            i.warn(
                Diagnostic::warning(
                    a.span(name),
                    format!("gru_unit builds its op with {name} `{built}`, not `{act}`, as Paddle 1.x does"),
                )
                .help(format!("Paddle 1.x checks {name} but always builds the op with {built}; pass {name}='{built}' to say so")),
            );
        }
    }
    let (input, hidden) = (a.var("input")?, a.var("hidden")?);
    let size = a.int("size")?;
    if size <= 0 || size % 3 != 0 {
        return Err(a.err(
            "size",
            format!("size {size} must be three times the hidden size"),
        ));
    }
    let frame = size / 3;
    let w_attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "gru_unit needs a weight; param_attr cannot be False",
        )
    })?;
    let b_attr = param_attr(a, "bias_attr")?;
    let helper = i.b.helper_name("gru_unit");
    let dtype = dtype_of(i, &input);
    let weight = create_parameter(i, &helper, &w_attr, vec![frame, size], dtype, false, None);
    let gate = i.b.tmp_var(&helper, dtype, vec![]);
    let reset = i.b.tmp_var(&helper, dtype, vec![]);
    let updated = i.b.tmp_var(&helper, dtype, vec![]);
    let mut op = Op::new("gru_unit")
        .input("Input", &[&input.name])
        .input("HiddenPrev", &[&hidden.name])
        .input("Weight", &[&weight.name]);
    if let Some(b_attr) = b_attr {
        let bias = create_parameter(i, &helper, &b_attr, vec![1, size], dtype, true, None);
        op = op.input("Bias", &[&bias.name]);
    }
    let op = op
        .output("Gate", &[&gate.name])
        .output("ResetHiddenPrev", &[&reset.name])
        .output("Hidden", &[&updated.name])
        .attr("activation", AttrValue::Int(2))
        .attr("gate_activation", AttrValue::Int(1))
        .attr("origin_mode", AttrValue::Bool(a.bool("origin_mode")?));
    append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::tuple(vec![
        Value::Var(updated),
        Value::Var(reset),
        Value::Var(gate),
    ]))
}

/// `lstm_unit(x_t, hidden_t_prev, cell_t_prev)`: returns `(h, c)`. The
/// gates come from `fc(concat([x_t, hidden_t_prev], axis=1), 4 * D)`
/// with this layer's `param_attr` and `bias_attr`; the names follow
/// Paddle's order (`lstm_unit_N` is taken before `concat_N` and `fc_N`).
fn lstm_unit(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (x, h_prev, c_prev) = (
        a.var("x_t")?,
        a.var("hidden_t_prev")?,
        a.var("cell_t_prev")?,
    );
    let mut shapes = Vec::new();
    for (name, v) in [
        ("x_t", &x),
        ("hidden_t_prev", &h_prev),
        ("cell_t_prev", &c_prev),
    ] {
        let d = dims(i, v);
        if d.len() != 2 {
            return Err(a.err(name, format!("{name} has shape {d:?}; its rank must be 2")));
        }
        shapes.push(d);
    }
    if shapes[1][1] != shapes[2][1] {
        return Err(a.err(
            "cell_t_prev",
            format!(
                "the 2nd dimensions of hidden_t_prev {:?} and cell_t_prev {:?} must be the same",
                shapes[1], shapes[2]
            ),
        ));
    }
    let helper = layer_helper(i, a, "lstm_unit")?;
    let call = a.call.clone();
    let concat = call_layer(
        i,
        "fluid.layers.concat",
        vec![
            (
                "input",
                Value::list(vec![Value::Var(x.clone()), Value::Var(h_prev)]),
            ),
            ("axis", Value::Int(1)),
        ],
        &call,
    )?;
    let fc = call_layer(
        i,
        "fluid.layers.fc",
        vec![
            ("input", concat),
            ("size", Value::Int(4 * shapes[2][1])),
            ("param_attr", a.get("param_attr").clone()),
            ("bias_attr", a.get("bias_attr").clone()),
        ],
        &call,
    )?;
    let Value::Var(fc) = fc else {
        return Err(Diagnostic::new(
            call,
            "lstm_unit's fc did not give a Variable",
        ));
    };
    let dtype = dtype_of(i, &x);
    let c = i.b.tmp_var(&helper, dtype, vec![]);
    let h = i.b.tmp_var(&helper, dtype, vec![]);
    let op = Op::new("lstm_unit")
        .input("X", &[&fc.name])
        .input("C_prev", &[&c_prev.name])
        .output("C", &[&c.name])
        .output("H", &[&h.name])
        .attr(
            "forget_bias",
            AttrValue::Float(a.float("forget_bias")? as f32),
        );
    append_inferred_at(i, op, call)?;
    Ok(Value::tuple(vec![Value::Var(h), Value::Var(c)]))
}
