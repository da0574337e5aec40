//! Neural-network layers: `fc` (with its parameters initialized in the
//! startup program), `mul`, `matmul`, the activations (`relu`, `sigmoid`,
//! `tanh`, `softmax`) and the losses `square_error_cost` and
//! `cross_entropy`.
use fluidc_transpiler::{AttrValue, Op, Var};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{activation, dims, dtype_of, simple, unary_layer};
use super::math::elementwise;
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
                Some(("axis", AttrValue::Int(a.int("axis")? as i32))),
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
                a.int("x_num_col_dims")? as i32,
                a.int("y_num_col_dims")? as i32,
            );
            Ok(Value::Var(out))
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
                    .attr(
                        "ignore_index",
                        AttrValue::Int(a.int("ignore_index")? as i32),
                    ),
            );
            Ok(Value::Var(out))
        }
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

/// `fc`: a weight and a bias parameter (initialized in the startup program:
/// Xavier uniform and zeros, Paddle's defaults), `mul`, `elementwise_add`
/// with `axis = num_flatten_dims`, then the activation.
fn fc(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let size = a.int("size")?;
    let nfd = a.int("num_flatten_dims")?;
    let xd = dims(i, &x);
    let fan_in: i64 = xd.iter().skip(nfd.max(0) as usize).product::<i64>().max(1);
    let dtype = dtype_of(i, &x);
    let helper = i.b.helper_name("fc");
    let w_name = format!("{helper}.w_0");
    let b_name = format!("{helper}.b_0");
    let (main, startup) = (i.b.main, i.b.startup);
    let limit = (6.0 / (fan_in + size) as f64).sqrt();
    for (name, shape, init) in [
        (&w_name, vec![fan_in, size], Some(limit)),
        (&b_name, vec![size], None),
    ] {
        let mut var = Var::dense(name.as_str(), dtype, shape.clone());
        var.persistable = Some(true);
        var.is_parameter = Some(true);
        var.stop_gradient = Some(false);
        i.b.declare_in(main, 0, var.clone());
        i.b.declare_in(startup, 0, var);
        let op = match init {
            Some(limit) => Op::new("uniform_random")
                .output("Out", &[name])
                .attr("shape", AttrValue::Longs(shape))
                .attr("dtype", AttrValue::Int(dtype as i32))
                .attr("min", AttrValue::Float(-limit as f32))
                .attr("max", AttrValue::Float(limit as f32))
                .attr("seed", AttrValue::Int(0)),
            None => Op::new("fill_constant")
                .output("Out", &[name])
                .attr("shape", AttrValue::Longs(shape))
                .attr("dtype", AttrValue::Int(dtype as i32))
                .attr("value", AttrValue::Float(0.0))
                .attr("str_value", AttrValue::String("0.0".into()))
                .attr("force_cpu", AttrValue::Bool(false)),
        };
        i.b.prepend_to(startup, 0, op);
    }
    let w = VarRef {
        program: main,
        block: 0,
        name: w_name.as_str().into(),
    };
    let b = VarRef {
        program: main,
        block: 0,
        name: b_name.as_str().into(),
    };
    let prod = mul_op(i, &helper, &x, &w, nfd as i32, 1);
    let sum = i.b.tmp_var(&helper, dtype, dims(i, &prod));
    let biased = elementwise(i, "elementwise_add", &prod, &b, nfd as i32, Some(sum));
    activation(i, a, biased, &helper)
}
