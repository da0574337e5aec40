//! Neural-network layers: `fc` (with its parameters initialized in the
//! startup program), `mul`, `matmul`, the activations (`relu`, `sigmoid`,
//! `tanh`, `softmax`), `cos_sim`, `one_hot`, and the losses
//! `square_error_cost` and `cross_entropy`.
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{activation, append_sum, dims, dtype_of, layer_helper, simple, unary_layer};
use super::math::elementwise;
use super::param::{create_parameter, param_attr, param_attrs};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    unary_layer!("relu"),
    unary_layer!("sigmoid"),
    unary_layer!("tanh"),
    builtin!(
        ["fluid.layers.softmax"],
        [
            ("input", Req),
            ("use_cudnn", Bool(false)),
            ("name", Nil),
            ("axis", Int(-1))
        ],
        Rest::No,
        |i, a| {
            let x = a.var("input")?;
            simple(
                i,
                "softmax",
                &[("X", &x)],
                &[("axis", AttrValue::Int(a.int32("axis")?))],
            )
        }
    ),
    builtin!(
        ["fluid.layers.matmul"],
        [
            ("x", Req),
            ("y", Req),
            ("transpose_x", Bool(false)),
            ("transpose_y", Bool(false)),
            ("alpha", Float(1.0)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let (x, y) = (a.var("x")?, a.var("y")?);
            let helper = i.b.helper_name("matmul");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("matmul")
                    .input("X", &[&x.name])
                    .input("Y", &[&y.name])
                    .output("Out", &[&out.name])
                    .attr("transpose_X", AttrValue::Bool(a.bool("transpose_x")?))
                    .attr("transpose_Y", AttrValue::Bool(a.bool("transpose_y")?))
                    .attr("alpha", AttrValue::Float(a.float("alpha")? as f32)),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.mul"],
        [
            ("x", Req),
            ("y", Req),
            ("x_num_col_dims", Int(1)),
            ("y_num_col_dims", Int(1)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let (x, y) = (a.var("x")?, a.var("y")?);
            let helper = i.b.helper_name("mul");
            let out = mul_op(
                i,
                &helper,
                &x,
                &y,
                a.int32("x_num_col_dims")?,
                a.int32("y_num_col_dims")?,
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.log_loss"],
        [
            ("input", Req),
            ("label", Req),
            ("epsilon", Float(1e-4)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("log_loss");
            let loss = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            let op = Op::new("log_loss")
                .input("Predicted", &[&x.name])
                .input("Labels", &[&label.name])
                .output("Loss", &[&loss.name])
                .attr("epsilon", AttrValue::Float(a.float("epsilon")? as f32));
            super::conv::append_inferred(i, op, a)?;
            Ok(Value::Var(loss))
        }
    ),
    builtin!(
        ["fluid.layers.square_error_cost"],
        [("input", Req), ("label", Req)],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("square_error_cost");
            let minus = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            i.b.append(
                Op::new("elementwise_sub")
                    .input("X", &[&x.name])
                    .input("Y", &[&label.name])
                    .output("Out", &[&minus.name])
                    .attr("axis", AttrValue::Int(-1)),
            );
            let square = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            i.b.append(
                Op::new("square")
                    .input("X", &[&minus.name])
                    .output("Out", &[&square.name]),
            );
            Ok(Value::Var(square))
        }
    ),
    builtin!(
        ["fluid.layers.cos_sim"],
        [("X", Req), ("Y", Req)],
        Rest::No,
        cos_sim
    ),
    builtin!(
        ["fluid.layers.one_hot"],
        [
            ("input", Req),
            ("depth", Req),
            ("allow_out_of_range", Bool(false))
        ],
        Rest::No,
        one_hot
    ),
    builtin!(
        ["fluid.layers.cross_entropy"],
        [
            ("input", Req),
            ("label", Req),
            ("soft_label", Bool(false)),
            ("ignore_index", Int(-100))
        ],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("cross_entropy");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("cross_entropy")
                    .input("X", &[&x.name])
                    .input("Label", &[&label.name])
                    .output("Y", &[&out.name])
                    .attr("soft_label", AttrValue::Bool(a.bool("soft_label")?))
                    .attr("ignore_index", AttrValue::Int(a.int32("ignore_index")?)),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.softmax_with_cross_entropy"],
        [
            ("logits", Req),
            ("label", Req),
            ("soft_label", Bool(false)),
            ("ignore_index", Int(-100)),
            ("numeric_stable_mode", Bool(true)),
            ("return_softmax", Bool(false)),
            ("axis", Int(-1))
        ],
        Rest::No,
        softmax_with_cross_entropy
    ),
    builtin!(
        ["fluid.layers.accuracy"],
        [
            ("input", Req),
            ("label", Req),
            ("k", Int(1)),
            ("correct", Nil),
            ("total", Nil)
        ],
        Rest::No,
        accuracy
    ),
    builtin!(
        ["fluid.layers.auc"],
        [
            ("input", Req),
            ("label", Req),
            ("curve", Str("ROC")),
            ("num_thresholds", Int(4095)),
            ("topk", Int(1)),
            ("slide_steps", Int(1))
        ],
        Rest::No,
        auc
    ),
    builtin!(
        ["fluid.layers.fc"],
        [
            ("input", Req),
            ("size", Req),
            ("num_flatten_dims", Int(1)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("act", Nil),
            ("name", Nil)
        ],
        Rest::No,
        fc
    ),
];

/// `cos_sim(X, Y)` as Paddle 1.x built it: the op (which Paddle 3.3.1
/// dropped; fluidc runs it) with `Out`, `XNorm` and `YNorm` in
/// `cos_sim_N.tmp_0..2`; the layer returns `Out`, `[N, 1]`.
fn cos_sim(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (x, y) = (a.var("X")?, a.var("Y")?);
    let helper = i.b.helper_name("cos_sim");
    let dtype = dtype_of(i, &x);
    let [out, xnorm, ynorm] = [(); 3].map(|()| i.b.tmp_var(&helper, dtype, vec![]));
    let op = Op::new("cos_sim")
        .input("X", &[&x.name])
        .input("Y", &[&y.name])
        .output("Out", &[&out.name])
        .output("XNorm", &[&xnorm.name])
        .output("YNorm", &[&ynorm.name]);
    super::conv::append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}

/// `one_hot(input, depth)` as Paddle 1.x's layer: int ids `[..., 1]` to
/// float32 `[..., depth]` in `one_hot_N.tmp_0`, keeping the ids' LoD. 1.x's
/// `one_hot` op is gone from Paddle 3.3.1, so the layer squeezes the last
/// axis (`squeeze2` into `one_hot_N.tmp_1`, its `XShape` `tmp_2`) and
/// appends `one_hot_v2`, which 3.3.1 runs with the same result. `depth` is
/// an int, as in 2018 (a tensor depth came with 1.6); `allow_out_of_range`
/// (1.6) gives a zero row for an id outside `[0, depth)`.
fn one_hot(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let depth = a.int32("depth")?;
    if depth < 1 {
        return Err(a.err(
            "depth",
            format!("depth {depth} must be at least 1 (the number of classes)"),
        ));
    }
    let (dtype, shape) = (dtype_of(i, &x), dims(i, &x));
    if !matches!(dtype, VarKind::Int32 | VarKind::Int64) {
        return Err(a.err(
            "input",
            format!(
                "one_hot takes int64 (or int32) ids, and `{}` is {}; declare the data layer with dtype='int64' or cast it",
                x.name,
                fluidc_transpiler::model::dtype_name(dtype)
            ),
        ));
    }
    if shape.len() < 2 || !matches!(shape.last(), Some(1 | -1)) {
        return Err(a.err(
            "input",
            format!(
                "one_hot takes ids of shape [..., 1] (rank 2 or more, the last dim 1), and `{}` is {shape:?}; reshape it first",
                x.name
            ),
        ));
    }
    let helper = i.b.helper_name("one_hot");
    let out = i.b.tmp_var(&helper, VarKind::Fp32, vec![]);
    let ids = i.b.tmp_var(&helper, dtype, vec![]);
    let xshape = i.b.tmp_var(&helper, dtype, vec![]);
    let squeeze = Op::new("squeeze2")
        .input("X", &[&x.name])
        .output("Out", &[&ids.name])
        .output("XShape", &[&xshape.name])
        .attr("axes", AttrValue::Ints(vec![-1]));
    super::conv::append_inferred(i, squeeze, a)?;
    let op = Op::new("one_hot_v2")
        .input("X", &[&ids.name])
        .output("Out", &[&out.name])
        .attr("depth", AttrValue::Int(depth))
        .attr(
            "allow_out_of_range",
            AttrValue::Bool(a.bool("allow_out_of_range")?),
        );
    super::conv::append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}

/// `mul` into a temporary of `helper` (`mul_N` for the layer, `fc_N` in fc).
fn mul_op(i: &mut Host, helper: &str, x: &VarRef, y: &VarRef, xn: i32, yn: i32) -> VarRef {
    let (xd, yd) = (dims(i, x), dims(i, y));
    let mut d: Vec<i64> = xd.iter().take(xn.max(0) as usize).copied().collect();
    d.extend(yd.iter().skip(yn.max(0) as usize));
    let out = i.b.tmp_var(helper, dtype_of(i, x), d);
    i.b.append(
        Op::new("mul")
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name])
            .attr("x_num_col_dims", AttrValue::Int(xn))
            .attr("y_num_col_dims", AttrValue::Int(yn)),
    );
    out
}

/// `fc` as Paddle 1.x built it: per input (one Variable or a list), a
/// weight parameter (`param_attr`, one for all or one per input; Xavier
/// uniform by default) and a `mul`; with several inputs a `sum` of the
/// products; then unless `bias_attr=False` a bias parameter (zero by
/// default) added with `axis = num_flatten_dims`, then the activation.
/// Parameters are created as [`create_parameter`] does.
fn fc(i: &mut Host, a: &mut Args) -> Result<Value> {
    let inputs = a.var_list("input")?;
    if inputs.is_empty() {
        return Err(a.err("input", "fc needs at least one input Variable"));
    }
    let size = a.int("size")?;
    let mut nfd = a.int("num_flatten_dims")?;
    let w_attrs = param_attrs(a, "param_attr", inputs.len())?;
    let b_attr = param_attr(a, "bias_attr")?;
    let dtype = dtype_of(i, &inputs[0]);
    let helper = layer_helper(i, a, "fc")?;
    let mut products = Vec::new();
    for (x, w_attr) in inputs.iter().zip(w_attrs) {
        let w_attr = w_attr.ok_or_else(|| {
            a.err(
                "param_attr",
                "fc needs a weight; param_attr cannot be False",
            )
        })?;
        let xd = dims(i, x);
        if nfd == -1 {
            nfd = xd.len() as i64 - 1;
        }
        let fan_in: i64 = xd.iter().skip(nfd.max(0) as usize).product::<i64>().max(1);
        let w = create_parameter(i, &helper, &w_attr, vec![fan_in, size], dtype, false, None);
        products.push(mul_op(i, &helper, x, &w, nfd as i32, 1));
    }
    let prod = if products.len() == 1 {
        products.remove(0)
    } else {
        let sum = i.b.tmp_var(&helper, dtype, dims(i, &products[0]));
        append_sum(i, &products, &sum);
        sum
    };
    let Some(b_attr) = b_attr else {
        return activation(i, a, prod, &helper);
    };
    let b = create_parameter(i, &helper, &b_attr, vec![size], dtype, true, None);
    let sum = i.b.tmp_var(&helper, dtype, dims(i, &prod));
    let biased = elementwise(i, "elementwise_add", &prod, &b, nfd as i32, Some(sum));
    activation(i, a, biased, &helper)
}

/// 1.x `softmax_with_cross_entropy`: Softmax shaped like the logits, Loss
/// with the class axis reduced to 1.
fn softmax_with_cross_entropy(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (logits, label) = (a.var("logits")?, a.var("label")?);
    let helper = i.b.helper_name("softmax_with_cross_entropy");
    let dtype = dtype_of(i, &logits);
    let ld = dims(i, &logits);
    let axis = a.int("axis")?;
    let mut loss_dims = ld.clone();
    let at = if axis < 0 {
        ld.len() as i64 + axis
    } else {
        axis
    };
    if let Some(d) = usize::try_from(at).ok().and_then(|k| loss_dims.get_mut(k)) {
        *d = 1;
    }
    let softmax = i.b.tmp_var(&helper, dtype, ld);
    let loss = i.b.tmp_var(&helper, dtype, loss_dims);
    i.b.append(
        Op::new("softmax_with_cross_entropy")
            .input("Logits", &[&logits.name])
            .input("Label", &[&label.name])
            .output("Softmax", &[&softmax.name])
            .output("Loss", &[&loss.name])
            .attr("soft_label", AttrValue::Bool(a.bool("soft_label")?))
            .attr("ignore_index", AttrValue::Int(a.int32("ignore_index")?))
            .attr(
                "numeric_stable_mode",
                AttrValue::Bool(a.bool("numeric_stable_mode")?),
            )
            .attr("axis", AttrValue::Int(axis as i32)),
    );
    if a.bool("return_softmax")? {
        return Ok(Value::tuple(vec![Value::Var(loss), Value::Var(softmax)]));
    }
    Ok(Value::Var(loss))
}

/// 1.x `metric_op.auc`: two `auc` ops on the same predictions, one over
/// every batch so far and one over the last `slide_steps` batches, each
/// with persistable int64 statistics the startup program zeroes
/// (`_generated_var_N`). Returns `(auc, batch_auc, [batch_stat_pos,
/// batch_stat_neg, stat_pos, stat_neg])`. `topk` is unused, in Paddle's
/// layer as here; Paddle's kernel computes the ROC area whatever `curve`
/// says, so fluidc refuses `curve='PR'` rather than print a ROC area.
fn auc(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (input, label) = (a.var("input")?, a.var("label")?);
    let curve = a.string("curve")?;
    if curve != "ROC" {
        return Err(a.err(
            "curve",
            format!("curve='{curve}': Paddle's auc op computes the ROC curve's area only; pass curve='ROC'"),
        ));
    }
    let thresholds = i64::from(a.int32("num_thresholds")?);
    if thresholds < 1 {
        return Err(a.err(
            "num_thresholds",
            format!("num_thresholds={thresholds}: auc needs at least 1 (the buckets of probability it counts in)"),
        ));
    }
    let slide_steps = i64::from(a.int32("slide_steps")?);
    if slide_steps < 0 {
        return Err(a.err(
            "slide_steps",
            format!("slide_steps={slide_steps}: pass the number of batches the batch AUC covers, or 0 for all of them"),
        ));
    }
    a.int("topk")?;
    let (dtype, shape) = (dtype_of(i, &input), dims(i, &input));
    if dtype != VarKind::Fp32 || shape.len() != 2 {
        return Err(a.err(
            "input",
            format!(
                "auc takes float32 probabilities [batch, classes] (the last column the positive class's), and `{}` is {} {shape:?}; pass a softmax or sigmoid output, cast or reshaped",
                input.name,
                fluidc_transpiler::model::dtype_name(dtype)
            ),
        ));
    }
    if dtype_of(i, &label) != VarKind::Int64 {
        return Err(a.err(
            "label",
            format!(
                "auc takes int64 labels, and `{}` is {}; declare the data layer with dtype='int64' or cast it",
                label.name,
                fluidc_transpiler::model::dtype_name(dtype_of(i, &label))
            ),
        ));
    }
    let helper = i.b.helper_name("auc");
    let auc_out = i.b.tmp_var(&helper, VarKind::Fp64, vec![]);
    let batch_auc = i.b.tmp_var(&helper, VarKind::Fp64, vec![]);
    let ring = (1 + slide_steps) * (thresholds + 1) + 1;
    let mut stat = |shape: Vec<i64>| {
        super::tensor::global_var(i, None, shape, VarKind::Int64, 0.0, true, false)
    };
    let (batch_pos, batch_neg) = (stat(vec![ring]), stat(vec![ring]));
    let (pos, neg) = (stat(vec![1, thresholds + 1]), stat(vec![1, thresholds + 1]));
    for (out, pos, neg, steps) in [
        (&batch_auc, &batch_pos, &batch_neg, slide_steps),
        (&auc_out, &pos, &neg, 0),
    ] {
        i.b.append(
            Op::new("auc")
                .input("Predict", &[&input.name])
                .input("Label", &[&label.name])
                .input("StatPos", &[&pos.name])
                .input("StatNeg", &[&neg.name])
                .output("AUC", &[&out.name])
                .output("StatPosOut", &[&pos.name])
                .output("StatNegOut", &[&neg.name])
                .attr("curve", AttrValue::String(curve.clone()))
                .attr("num_thresholds", AttrValue::Int(thresholds as i32))
                .attr("slide_steps", AttrValue::Int(steps as i32)),
        );
    }
    let stats = [batch_pos, batch_neg, pos, neg].map(Value::Var).to_vec();
    Ok(Value::tuple(vec![
        Value::Var(auc_out),
        Value::Var(batch_auc),
        Value::list(stats),
    ]))
}

/// 1.x `accuracy`: `top_k` of the input (its own helper, `top_k_N`), then
/// `accuracy`, all outputs 0-D as Paddle 3.3.1 declares them. Correct and Total hold int32 at run time
/// but are declared float32, as Paddle 3.3.1's Python declares them.
fn accuracy(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (input, label) = (a.var("input")?, a.var("label")?);
    let k = a.int("k")?;
    let helper = i.b.helper_name("accuracy");
    let topk = i.b.helper_name("top_k");
    let mut td = dims(i, &input);
    if let Some(last) = td.last_mut() {
        *last = k;
    }
    let values = i.b.tmp_var(&topk, dtype_of(i, &input), td.clone());
    let indices = i.b.tmp_var(&topk, VarKind::Int64, td);
    i.b.append(
        Op::new("top_k")
            .input("X", &[&input.name])
            .output("Out", &[&values.name])
            .output("Indices", &[&indices.name])
            .attr("k", AttrValue::Int(k as i32)),
    );
    let acc = i.b.tmp_var(&helper, VarKind::Fp32, vec![]);
    let counter = |i: &mut Host, name: &str| -> Result<VarRef> {
        match a.get(name) {
            Value::None => Ok(i.b.tmp_var(&helper, VarKind::Fp32, vec![])),
            _ => a.var(name),
        }
    };
    let correct = counter(i, "correct")?;
    let total = counter(i, "total")?;
    i.b.append(
        Op::new("accuracy")
            .input("Out", &[&values.name])
            .input("Indices", &[&indices.name])
            .input("Label", &[&label.name])
            .output("Accuracy", &[&acc.name])
            .output("Correct", &[&correct.name])
            .output("Total", &[&total.name]),
    );
    Ok(Value::Var(acc))
}
