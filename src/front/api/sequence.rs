//! LoD sequence layers as Paddle 1.x's `layers/control_flow.py` and
//! `layers/nn.py` built them: `lod_rank_table`, `max_sequence_len`,
//! `lod_tensor_to_array`, `array_to_lod_tensor`, `shrink_memory`,
//! `reorder_lod_tensor_by_rank` (ops Paddle 3.3.1 dropped, which fluidc
//! runs itself), `sequence_pool` with `sequence_first_step` and
//! `sequence_last_step`, `sequence_softmax`, `sequence_conv`,
//! `sequence_expand`,
//! `fill_constant_batch_size_like` and
//! `sigmoid_cross_entropy_with_logits`.
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::array::declare_array;
use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::conv::append_inferred_at;
use super::layer::{dims, dtype_of, layer_helper};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.lod_rank_table"],
        [("x", Req), ("level", Int(0))],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let level = a.int("level")?;
            i.b.helper_name("lod_rank_table");
            Ok(Value::Var(rank_table(i, &x, level)))
        }
    ),
    builtin!(
        ["fluid.layers.max_sequence_len"],
        [("rank_table", Req)],
        Rest::No,
        |i, a| {
            let table = a.var("rank_table")?;
            let helper = i.b.helper_name("max_seqence_len");
            Ok(Value::Var(max_sequence_len(i, &helper, &table)))
        }
    ),
    builtin!(
        ["fluid.layers.lod_tensor_to_array"],
        [("x", Req), ("table", Req)],
        Rest::No,
        |i, a| {
            let (x, table) = (a.var("x")?, a.var("table")?);
            i.b.helper_name("lod_tensor_to_array");
            let name = i.b.unique("lod_tensor_to_array");
            Ok(Value::Var(to_array(i, &name, &x, &table)))
        }
    ),
    builtin!(
        ["fluid.layers.array_to_lod_tensor"],
        [("x", Req), ("table", Req)],
        Rest::No,
        |i, a| {
            let (x, table) = (a.var("x")?, a.var("table")?);
            Ok(Value::Var(to_lod_tensor(i, &x, &table)))
        }
    ),
    builtin!(
        ["fluid.layers.shrink_memory"],
        [("x", Req), ("i", Req), ("table", Req)],
        Rest::No,
        |i, a| {
            let (x, step, table) = (a.var("x")?, a.var("i")?, a.var("table")?);
            Ok(Value::Var(shrink_memory(i, &x, &step, &table)))
        }
    ),
    builtin!(
        ["fluid.layers.reorder_lod_tensor_by_rank"],
        [("x", Req), ("rank_table", Req)],
        Rest::No,
        |i, a| {
            let (x, table) = (a.var("x")?, a.var("rank_table")?);
            let helper = i.b.helper_name("reorder_lod_tensor_by_rank");
            Ok(Value::Var(reorder(i, &helper, &x, &table)))
        }
    ),
    builtin!(
        ["fluid.layers.sequence_pool"],
        [
            ("input", Req),
            ("pool_type", Req),
            ("is_test", Bool(false)),
            ("pad_value", Float(0.0))
        ],
        Rest::No,
        |i, a| {
            let pool = a.string("pool_type")?;
            let upper = pool.to_ascii_uppercase();
            if !["AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"].contains(&upper.as_str()) {
                return Err(a.err(
                    "pool_type",
                    format!(
                        "pool_type `{pool}` is not one of average, sum, sqrt, max, last, first"
                    ),
                ));
            }
            let (is_test, pad) = (a.bool("is_test")?, a.float("pad_value")?);
            sequence_pool(i, a, &upper, is_test, pad)
        }
    ),
    builtin!(
        ["fluid.layers.sequence_first_step"],
        [("input", Req)],
        Rest::No,
        |i, a| sequence_pool(i, a, "FIRST", false, 0.0)
    ),
    builtin!(
        ["fluid.layers.sequence_last_step"],
        [("input", Req)],
        Rest::No,
        |i, a| sequence_pool(i, a, "LAST", false, 0.0)
    ),
    builtin!(
        ["fluid.layers.sequence_softmax"],
        [("input", Req), ("use_cudnn", Bool(false)), ("name", Nil)],
        Rest::No,
        sequence_softmax
    ),
    builtin!(
        ["fluid.layers.sequence_conv"],
        [
            ("input", Req),
            ("num_filters", Req),
            ("filter_size", Int(3)),
            ("filter_stride", Int(1)),
            ("padding", Nil),
            ("bias_attr", Nil),
            ("param_attr", Nil),
            ("act", Nil),
            ("name", Nil)
        ],
        Rest::No,
        sequence_conv
    ),
    builtin!(
        ["fluid.layers.sequence_expand"],
        [
            ("x", Req),
            ("y", Req),
            ("ref_level", Int(-1)),
            ("name", Nil)
        ],
        Rest::No,
        sequence_expand
    ),
    builtin!(
        ["fluid.layers.fill_constant_batch_size_like"],
        [
            ("input", Req),
            ("shape", Req),
            ("dtype", Req),
            ("value", Req),
            ("input_dim_idx", Int(0)),
            ("output_dim_idx", Int(0)),
            ("force_cpu", Bool(false))
        ],
        Rest::No,
        |i, a| {
            let input = a.var("input")?;
            let like = BatchSizeLike {
                shape: a.ints("shape")?,
                dtype: a.dtype("dtype")?,
                value: a.float("value")?,
                input_dim_idx: a.int("input_dim_idx")?,
                output_dim_idx: a.int("output_dim_idx")?,
            };
            Ok(Value::Var(fill_batch_size_like(
                i,
                &input,
                &like,
                a.call.clone(),
            )?))
        }
    ),
    builtin!(
        ["fluid.layers.sigmoid_cross_entropy_with_logits"],
        [
            ("x", Req),
            ("label", Req),
            ("ignore_index", Int(-100)),
            ("name", Nil),
            ("normalize", Bool(false))
        ],
        Rest::No,
        sigmoid_ce
    ),
];

/// A `lod_rank_table` of `x`'s LoD level `level` into a fresh
/// `lod_rank_table_N` (also DynamicRNN's).
pub fn rank_table(i: &mut Host, x: &VarRef, level: i64) -> VarRef {
    let name = i.b.unique("lod_rank_table");
    let mut var = Var::plain(name, VarKind::LodRankTable);
    var.stop_gradient = Some(true);
    let table = i.b.declare(var);
    i.b.append(
        Op::new("lod_rank_table")
            .input("X", &[&x.name])
            .output("Out", &[&table.name])
            .attr("level", AttrValue::Int(level as i32)),
    );
    table
}

/// `max_sequence_len` of `table` into `<helper>.tmp_N`, an int64 `[1]`.
pub fn max_sequence_len(i: &mut Host, helper: &str, table: &VarRef) -> VarRef {
    let out = i.b.tmp_var(helper, VarKind::Int64, vec![1]);
    i.b.append(
        Op::new("max_sequence_len")
            .input("RankTable", &[&table.name])
            .output("Out", &[&out.name]),
    );
    out
}

/// `lod_tensor_to_array(x, table)` into a new array `name`.
pub fn to_array(i: &mut Host, name: &str, x: &VarRef, table: &VarRef) -> VarRef {
    let dtype = dtype_of(i, x);
    let array = declare_array(i, name.to_string(), dtype, dims(i, x));
    i.b.append(
        Op::new("lod_tensor_to_array")
            .input("X", &[&x.name])
            .input("RankTable", &[&table.name])
            .output("Out", &[&array.name]),
    );
    array
}

/// `array_to_lod_tensor(x, table)` into `array_to_lod_tensor_N.tmp_0`.
pub fn to_lod_tensor(i: &mut Host, x: &VarRef, table: &VarRef) -> VarRef {
    let helper = i.b.helper_name("array_to_lod_tensor");
    let out = i.b.tmp_var(&helper, dtype_of(i, x), dims(i, x));
    i.b.append(
        Op::new("array_to_lod_tensor")
            .input("X", &[&x.name])
            .input("RankTable", &[&table.name])
            .output("Out", &[&out.name]),
    );
    out
}

/// `shrink_rnn_memory(x, i, table)` into `shrink_memory_N.tmp_0`.
pub fn shrink_memory(i: &mut Host, x: &VarRef, step: &VarRef, table: &VarRef) -> VarRef {
    let helper = i.b.helper_name("shrink_memory");
    let out = i.b.tmp_var(&helper, dtype_of(i, x), dims(i, x));
    i.b.append(
        Op::new("shrink_rnn_memory")
            .input("X", &[&x.name])
            .input("I", &[&step.name])
            .input("RankTable", &[&table.name])
            .output("Out", &[&out.name]),
    );
    out
}

/// `reorder_lod_tensor_by_rank(x, table)` into `<helper>.tmp_N`.
pub fn reorder(i: &mut Host, helper: &str, x: &VarRef, table: &VarRef) -> VarRef {
    let out = i.b.tmp_var(helper, dtype_of(i, x), dims(i, x));
    i.b.append(
        Op::new("reorder_lod_tensor_by_rank")
            .input("X", &[&x.name])
            .input("RankTable", &[&table.name])
            .output("Out", &[&out.name]),
    );
    out
}

/// `sequence_pool(input, pool_type)`: `Out` and `MaxIndex` (kept from
/// the gradient for MAX, as Paddle 1.x).
fn sequence_pool(i: &mut Host, a: &Args, upper: &str, is_test: bool, pad: f64) -> Result<Value> {
    let x = a.var("input")?;
    let helper = i.b.helper_name("sequence_pool");
    let dtype = dtype_of(i, &x);
    let out = i.b.tmp_var(&helper, dtype, vec![]);
    let max_index = i.b.tmp_var(&helper, VarKind::Int32, vec![]);
    let op = Op::new("sequence_pool")
        .input("X", &[&x.name])
        .output("Out", &[&out.name])
        .output("MaxIndex", &[&max_index.name])
        .attr("pooltype", AttrValue::String(upper.to_string()))
        .attr("is_test", AttrValue::Bool(is_test))
        .attr("pad_value", AttrValue::Float(pad as f32));
    append_inferred_at(i, op, a.call.clone())?;
    if upper == "MAX" {
        i.b.var_mut(&max_index).stop_gradient = Some(true);
    }
    Ok(Value::Var(out))
}

/// `sequence_softmax(input)`: a softmax within each sequence. `use_cudnn`
/// picks Paddle's GPU kernel and changes nothing on the CPU, in Paddle as
/// in fluidc.
fn sequence_softmax(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let helper = layer_helper(i, a, "sequence_softmax")?;
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
    let op = Op::new("sequence_softmax")
        .input("X", &[&x.name])
        .output("Out", &[&out.name]);
    append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::Var(out))
}

/// `sequence_expand(x, y, ref_level=-1)` as 1.x built it: `x`'s rows (or
/// sequences) repeated per `y`'s LoD level `ref_level`, into
/// `sequence_expand_N.tmp_0` (`name.tmp_0` when named). The level is
/// checked against `y`'s LoD when the op runs, as in Paddle; here only
/// that it can name one (-1 for the last, or from 0).
fn sequence_expand(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (x, y) = (a.var("x")?, a.var("y")?);
    let ref_level = a.int("ref_level")?;
    if ref_level < -1 {
        return Err(a.err(
            "ref_level",
            format!("ref_level {ref_level} names no LoD level of y: use -1 (its last level) or 0, 1, ..."),
        ));
    }
    let helper = layer_helper(i, a, "sequence_expand")?;
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
    let op = Op::new("sequence_expand")
        .input("X", &[&x.name])
        .input("Y", &[&y.name])
        .output("Out", &[&out.name])
        .attr("ref_level", AttrValue::Int(ref_level as i32));
    append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::Var(out))
}

/// `sequence_conv(input, num_filters, filter_size)` as 1.x built it: a
/// `[filter_size * D, num_filters]` filter, the op with a window centred
/// on each row (`contextStart = -(filter_size // 2)`), the bias add
/// (unless `bias_attr=False`) and the activation.
fn sequence_conv(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let (filters, size) = (a.int("num_filters")?, a.int("filter_size")?);
    if size < 1 {
        return Err(a.err(
            "filter_size",
            format!("filter_size {size} must be at least 1"),
        ));
    }
    let stride = a.int("filter_stride")?;
    if stride != 1 {
        return Err(a.err(
            "filter_stride",
            format!("filter_stride {stride} is not supported: Paddle's sequence_conv only takes 1"),
        ));
    }
    if !a.is_none("padding") {
        return Err(a.err(
            "padding",
            "trainable padding is not supported; leave padding=None (zeros past each sequence's ends)",
        ));
    }
    let w_attr = super::param::param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "sequence_conv needs a filter; param_attr cannot be False",
        )
    })?;
    let b_attr = super::param::param_attr(a, "bias_attr")?;
    let helper = layer_helper(i, a, "sequence_conv")?;
    let dtype = dtype_of(i, &x);
    let width = dims(i, &x).get(1).copied().unwrap_or(-1);
    let filter = super::param::create_parameter(
        i,
        &helper,
        &w_attr,
        vec![size * width, filters],
        dtype,
        false,
        None,
    );
    let pre_bias = i.b.tmp_var(&helper, dtype, vec![]);
    let op = Op::new("sequence_conv")
        .input("X", &[&x.name])
        .input("Filter", &[&filter.name])
        .output("Out", &[&pre_bias.name])
        .attr("contextStride", AttrValue::Int(1))
        .attr("contextStart", AttrValue::Int(-(size / 2) as i32))
        .attr("contextLength", AttrValue::Int(size as i32));
    append_inferred_at(i, op, a.call.clone())?;
    let Some(b_attr) = b_attr else {
        return super::layer::activation(i, a, pre_bias, &helper);
    };
    let bias =
        super::param::create_parameter(i, &helper, &b_attr, vec![filters], dtype, true, None);
    let sum = i.b.tmp_var(&helper, dtype, dims(i, &pre_bias));
    let biased = super::math::elementwise(i, "elementwise_add", &pre_bias, &bias, 1, Some(sum));
    super::layer::activation(i, a, biased, &helper)
}

fn sigmoid_ce(i: &mut Host, a: &mut Args) -> Result<Value> {
    let (x, label) = (a.var("x")?, a.var("label")?);
    let helper = i.b.helper_name("sigmoid_cross_entropy_with_logits");
    let dtype = dtype_of(i, &x);
    let out = match a.opt_string("name")? {
        Some(name) => i.b.declare(Var::dense(name, dtype, dims(i, &x))),
        None => i.b.tmp_var(&helper, dtype, dims(i, &x)),
    };
    i.b.append(
        Op::new("sigmoid_cross_entropy_with_logits")
            .input("X", &[&x.name])
            .input("Label", &[&label.name])
            .output("Out", &[&out.name])
            .attr("ignore_index", AttrValue::Int(a.int32("ignore_index")?))
            .attr("normalize", AttrValue::Bool(a.bool("normalize")?)),
    );
    Ok(Value::Var(out))
}

/// What a `fill_constant_batch_size_like` fills.
#[derive(Debug, Clone)]
pub struct BatchSizeLike {
    pub shape: Vec<i64>,
    pub dtype: VarKind,
    pub value: f64,
    pub input_dim_idx: i64,
    pub output_dim_idx: i64,
}

/// `fill_constant_batch_size_like(input, ...)` into
/// `fill_constant_batch_size_like_N.tmp_0`, which stops gradients (the
/// layer, StaticRNN's and DynamicRNN's memories).
pub fn fill_batch_size_like(
    i: &mut Host,
    input: &VarRef,
    like: &BatchSizeLike,
    sp: std::ops::Range<usize>,
) -> Result<VarRef> {
    let helper = i.b.helper_name("fill_constant_batch_size_like");
    let out = i.b.tmp_var(&helper, like.dtype, vec![]);
    let op = Op::new("fill_constant_batch_size_like")
        .input("Input", &[&input.name])
        .output("Out", &[&out.name])
        .attr(
            "shape",
            AttrValue::Ints(like.shape.iter().map(|&d| d as i32).collect()),
        )
        .attr("dtype", AttrValue::Int(like.dtype as i32))
        .attr("value", AttrValue::Float(like.value as f32))
        .attr("input_dim_idx", AttrValue::Int(like.input_dim_idx as i32))
        .attr("output_dim_idx", AttrValue::Int(like.output_dim_idx as i32));
    append_inferred_at(i, op, sp)?;
    i.b.var_mut(&out).stop_gradient = Some(true);
    Ok(out)
}
