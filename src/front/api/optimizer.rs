//! Training (SPEC §9.2): `fluid.backward.append_backward` and the
//! optimizers' `minimize`, building the ops Paddle 3.3.1 builds in legacy
//! static mode (checked op for op against it through the fluid2018 shim).
//!
//! `minimize(loss)` is `append_backward` (transpiler::backward), then, with
//! the (parameter, gradient) pairs sorted by parameter name as Paddle's
//! `apply_gradients` sorts them: the global learning rate
//! (`learning_rate_N`, a persistable 0-D float32 filled in the startup
//! program), each parameter's accumulators (`<param>_<acc>_N`, zero-filled
//! or as the optimizer says, in the startup program), and one update op per
//! parameter in name scope `/optimizer_N/` with `op_role` Optimize and
//! `op_role_var = [param, grad]`. Parameters update in place (`ParamOut`
//! is `Param`).
use fluidc_transpiler::backward::{self, check_attrs, role};
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use super::param::{regularizer_arg, Regularizer};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Value, VarRef};

use D::*;

/// Which update rule, with its hyper-parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    Sgd,
    Momentum {
        mu: f64,
        nesterov: bool,
    },
    Adam {
        beta1: f64,
        beta2: f64,
        epsilon: f64,
        lazy_mode: bool,
    },
    Adagrad {
        epsilon: f64,
        initial: f64,
    },
    RmsProp {
        rho: f64,
        epsilon: f64,
        momentum: f64,
        centered: bool,
    },
    Adamax {
        beta1: f64,
        beta2: f64,
        epsilon: f64,
    },
    Adadelta {
        rho: f64,
        epsilon: f64,
    },
    Lamb {
        beta1: f64,
        beta2: f64,
        epsilon: f64,
        weight_decay: f64,
    },
}

/// A constant learning rate, or a Variable (a schedule's).
#[derive(Debug, Clone, PartialEq)]
pub enum LearningRate {
    Const(f64),
    Var(String),
}

/// An optimizer object (`fluid.optimizer.Adam(...)`).
#[derive(Debug, Clone, PartialEq)]
pub struct Optimizer {
    pub rule: Rule,
    pub learning_rate: LearningRate,
    /// The optimizer-wide `regularization=` (a parameter's own wins).
    pub regularization: Option<Regularizer>,
    /// `grad_clip=` (1.6+), which replaces `set_gradient_clip`'s clips.
    pub grad_clip: Option<super::clip::Clip>,
}

fn optimizer(rule: Rule, a: &Args) -> Result<Value> {
    let regularization = regularizer_arg(a, "regularization")?;
    let learning_rate = match a.get("learning_rate") {
        Value::Int(n) => LearningRate::Const(*n as f64),
        Value::Float(f) => LearningRate::Const(*f),
        Value::Var(v) => LearningRate::Var(v.name.to_string()),
        other => {
            return Err(a.err(
                "learning_rate",
                format!(
                    "learning_rate must be a number or a Variable (a schedule), not {}",
                    other.type_name()
                ),
            ))
        }
    };
    let grad_clip = super::clip::clip_arg(a, "grad_clip")?;
    Ok(Value::object(Object::Optimizer(Optimizer {
        rule,
        learning_rate,
        regularization,
        grad_clip,
    })))
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.optimizer.SGD", "fluid.optimizer.SGDOptimizer"],
        [
            ("learning_rate", Req),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| optimizer(Rule::Sgd, a)
    ),
    builtin!(
        [
            "fluid.optimizer.Momentum",
            "fluid.optimizer.MomentumOptimizer"
        ],
        [
            ("learning_rate", Req),
            ("momentum", Req),
            ("use_nesterov", Bool(false)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::Momentum {
                mu: a.float("momentum")?,
                nesterov: a.bool("use_nesterov")?,
            },
            a
        )
    ),
    builtin!(
        ["fluid.optimizer.Adam", "fluid.optimizer.AdamOptimizer"],
        [
            ("learning_rate", Float(0.001)),
            ("beta1", Float(0.9)),
            ("beta2", Float(0.999)),
            ("epsilon", Float(1e-8)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil),
            ("lazy_mode", Bool(false))
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::Adam {
                beta1: a.float("beta1")?,
                beta2: a.float("beta2")?,
                epsilon: a.float("epsilon")?,
                lazy_mode: a.bool("lazy_mode")?,
            },
            a
        )
    ),
    builtin!(
        [
            "fluid.optimizer.Adagrad",
            "fluid.optimizer.AdagradOptimizer"
        ],
        [
            ("learning_rate", Req),
            ("epsilon", Float(1e-6)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil),
            ("initial_accumulator_value", Float(0.0))
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::Adagrad {
                epsilon: a.float("epsilon")?,
                initial: a.float("initial_accumulator_value")?,
            },
            a
        )
    ),
    builtin!(
        [
            "fluid.optimizer.RMSProp",
            "fluid.optimizer.RMSPropOptimizer"
        ],
        [
            ("learning_rate", Req),
            ("rho", Float(0.95)),
            ("epsilon", Float(1e-6)),
            ("momentum", Float(0.0)),
            ("centered", Bool(false)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::RmsProp {
                rho: a.float("rho")?,
                epsilon: a.float("epsilon")?,
                momentum: a.float("momentum")?,
                centered: a.bool("centered")?,
            },
            a
        )
    ),
    builtin!(
        ["fluid.optimizer.Adamax", "fluid.optimizer.AdamaxOptimizer"],
        [
            ("learning_rate", Float(0.001)),
            ("beta1", Float(0.9)),
            ("beta2", Float(0.999)),
            ("epsilon", Float(1e-8)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::Adamax {
                beta1: a.float("beta1")?,
                beta2: a.float("beta2")?,
                epsilon: a.float("epsilon")?,
            },
            a
        )
    ),
    builtin!(
        [
            "fluid.optimizer.Adadelta",
            "fluid.optimizer.AdadeltaOptimizer"
        ],
        [
            ("learning_rate", Req),
            ("epsilon", Float(1e-6)),
            ("rho", Float(0.95)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| optimizer(
            Rule::Adadelta {
                rho: a.float("rho")?,
                epsilon: a.float("epsilon")?,
            },
            a
        )
    ),
    builtin!(
        ["fluid.optimizer.Lamb", "fluid.optimizer.LambOptimizer"],
        [
            ("learning_rate", Float(0.001)),
            ("lamb_weight_decay", Float(0.01)),
            ("beta1", Float(0.9)),
            ("beta2", Float(0.999)),
            ("epsilon", Float(1e-6)),
            ("regularization", Nil),
            ("grad_clip", Nil),
            ("exclude_from_weight_decay_fn", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| {
            if !a.is_none("exclude_from_weight_decay_fn") {
                return Err(a.err(
                    "exclude_from_weight_decay_fn",
                    "Lamb's exclude_from_weight_decay_fn is not supported yet; leave it out",
                ));
            }
            optimizer(
                Rule::Lamb {
                    beta1: a.float("beta1")?,
                    beta2: a.float("beta2")?,
                    epsilon: a.float("epsilon")?,
                    weight_decay: a.float("lamb_weight_decay")?,
                },
                a,
            )
        }
    ),
    builtin!(
        ["Optimizer.minimize"],
        [
            ("loss", Req),
            ("startup_program", Nil),
            ("parameter_list", Nil),
            ("no_grad_set", Nil),
            ("grad_clip", Nil)
        ],
        Rest::No,
        minimize
    ),
    builtin!(
        ["fluid.backward.append_backward", "fluid.append_backward"],
        [
            ("loss", Req),
            ("parameter_list", Nil),
            ("no_grad_set", Nil),
            ("callbacks", Nil)
        ],
        Rest::No,
        |i, a| {
            if !a.is_none("callbacks") {
                return Err(a.err("callbacks", "append_backward callbacks are not supported"));
            }
            let pairs = backward_of(i, a)?;
            Ok(pairs_value(i, &pairs))
        }
    ),
];

/// Names from a list of Variables or strings (`parameter_list`, `no_grad_set`).
fn names(a: &Args, name: &str) -> Result<Option<Vec<String>>> {
    let items = match a.get(name) {
        Value::None => return Ok(None),
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        other => {
            return Err(a.err(
                name,
                format!(
                    "{name} must be a list or set of Variables or names, not {}",
                    other.type_name()
                ),
            ))
        }
    };
    items
        .iter()
        .map(|v| match v {
            Value::Var(r) => Ok(r.name.to_string()),
            Value::Str(s) => Ok(s.to_string()),
            other => Err(a.err(
                name,
                format!(
                    "{name} must hold Variables or names, not {}",
                    other.type_name()
                ),
            )),
        })
        .collect::<Result<Vec<_>>>()
        .map(Some)
}

/// `append_backward` on the loss's program: the (param, grad) pairs.
fn backward_of(i: &mut Host, a: &Args) -> Result<Vec<(String, String)>> {
    let loss = a.var("loss")?;
    if loss.block != 0 {
        return Err(a.err(
            "loss",
            "the loss must be computed in the program's global block (a loss computed inside \
             a While or conditional block is not supported yet); compute it after the block",
        ));
    }
    // Paddle's optimizer adds non-trainable parameters to the no-grad set;
    // the default parameter list is every trainable parameter.
    let mut no_grad = names(a, "no_grad_set")?.unwrap_or_default();
    let program_params: Vec<String> =
        i.b.block(loss.program, 0)
            .vars
            .iter()
            .filter(|v| v.is_parameter == Some(true))
            .map(|v| v.name.clone())
            .collect();
    let trainable = |n: &str| i.b.params.get(n).is_none_or(|p| p.trainable);
    let parameters = match names(a, "parameter_list")? {
        Some(list) => list,
        None => program_params
            .iter()
            .filter(|n| trainable(n))
            .cloned()
            .collect(),
    };
    no_grad.extend(program_params.iter().filter(|n| !trainable(n)).cloned());
    let program = &mut i.b.programs[loss.program].program;
    let pairs = backward::append_backward(program, &loss.name, &parameters, &no_grad)
        .map_err(|e| Diagnostic::new(a.call.clone(), e))?;
    i.b.reindex(loss.program);
    Ok(pairs)
}

fn var_ref(program: usize, name: &str) -> Value {
    Value::Var(VarRef {
        program,
        block: 0,
        name: name.into(),
    })
}

fn pairs_value(i: &Host, pairs: &[(String, String)]) -> Value {
    let p = i.b.main;
    Value::list(
        pairs
            .iter()
            .map(|(w, g)| Value::tuple(vec![var_ref(p, w), var_ref(p, g)]))
            .collect(),
    )
}

/// `optimizer.minimize(loss)`: backward, then the update ops; returns
/// `(optimize_ops, params_grads)` as Paddle does (the ops as None: fluidc
/// has no Operator objects).
fn minimize(i: &mut Host, a: &mut Args) -> Result<Value> {
    let opt = match recv_object(a).as_ref() {
        Object::Optimizer(o) => o.clone(),
        _ => return Ok(Value::Poison),
    };
    // `minimize(loss, startup_program)`: the optimizer's state (learning
    // rate, accumulators) is initialized there instead.
    let given_startup = if a.is_none("startup_program") {
        None
    } else {
        Some(super::program::program_arg(a, "startup_program")?)
    };
    let loss = a.var("loss")?;
    let mut pairs = backward_of(i, a)?;
    pairs.sort_by(|x, y| x.0.cmp(&y.0));
    let program = loss.program;
    let startup = given_startup
        .or_else(|| i.b.startup_of.get(&program).copied())
        .unwrap_or(i.b.startup);
    let grad_clip = super::clip::clip_arg(a, "grad_clip")?.or(opt.grad_clip.clone());
    let mut pairs = match grad_clip {
        Some(clip) => super::clip::static_clip(i, a, program, pairs, &clip)?,
        None => super::clip::append_gradient_clip_ops(i, a, program, pairs)?,
    };
    let fused = regularize(i, program, &opt, &mut pairs);
    let lr = match &opt.learning_rate {
        LearningRate::Const(v) => learning_rate_var(i, program, startup, *v),
        LearningRate::Var(name) => name.clone(),
    };
    let accs: Vec<Vec<String>> = pairs
        .iter()
        .map(|(p, _)| create_accumulators(i, program, startup, &opt.rule, p))
        .collect();
    let mut ops = Vec::new();
    for (((p, g), acc), l2) in pairs.iter().zip(&accs).zip(&fused) {
        let scope = i.b.unique_scope("optimizer");
        let param_lr = param_learning_rate(i, a, p, &lr, &scope)?;
        let mut op = update_op(&opt.rule, p, g, &param_lr, acc, *l2)
            .attr("op_role", AttrValue::Int(role::OPTIMIZE))
            .attr(
                "op_role_var",
                AttrValue::Strings(vec![p.clone(), g.clone()]),
            )
            .attr("op_namescope", AttrValue::String(format!("/{scope}/")));
        check_attrs(&mut op);
        i.b.append_to(program, 0, op);
        ops.push(Value::None);
    }
    // Adamax's `_finish_update`: beta1_pow *= beta1, one `scale` per
    // parameter in name scope `/adamax_N/`, after every update.
    if let Rule::Adamax { beta1, .. } = opt.rule {
        for ((p, g), acc) in pairs.iter().zip(&accs) {
            let pow = acc.get(2).cloned().unwrap_or_default();
            let scope = i.b.unique_scope("adamax");
            let mut op = Op::new("scale")
                .input("X", &[&pow])
                .output("Out", &[&pow])
                .attr("scale", AttrValue::Float(beta1 as f32))
                .attr("op_role", AttrValue::Int(role::OPTIMIZE))
                .attr(
                    "op_role_var",
                    AttrValue::Strings(vec![p.clone(), g.clone()]),
                )
                .attr("op_namescope", AttrValue::String(format!("/{scope}/")));
            check_attrs(&mut op);
            i.b.append_to(program, 0, op);
        }
    }
    Ok(Value::tuple(vec![Value::list(ops), pairs_value(i, &pairs)]))
}

fn declare_persistable(
    i: &mut Host,
    program: usize,
    name: &str,
    dims: Vec<i64>,
    dtype: VarKind,
    stop: bool,
) {
    let mut var = Var::dense(name, dtype, dims);
    var.persistable = Some(true);
    var.stop_gradient = Some(stop);
    i.b.declare_in(program, 0, var);
}

fn fill_op(name: &str, dims: &[i64], value: f64, device: &str) -> Op {
    Op::new("fill_constant")
        .output("Out", &[name])
        .attr("shape", AttrValue::Longs(dims.to_vec()))
        .attr("dtype", AttrValue::Int(VarKind::Fp32 as i32))
        .attr("value", AttrValue::Float(value as f32))
        .attr("str_value", AttrValue::String(py_float(value)))
        .attr("force_cpu", AttrValue::Bool(false))
        .attr("op_device", AttrValue::String(device.to_string()))
}

/// Python's `str(float)` for the short values optimizers use.
fn py_float(v: f64) -> String {
    let s = format!("{v}");
    if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
        s
    } else {
        format!("{s}.0")
    }
}

/// `_create_global_learning_rate`: `learning_rate_N`, 0-D float32,
/// persistable, filled in the startup program.
fn learning_rate_var(i: &mut Host, program: usize, startup: usize, lr: f64) -> String {
    let name = i.b.unique("learning_rate");
    declare_persistable(i, program, &name, vec![], VarKind::Fp32, true);
    declare_persistable(i, startup, &name, vec![], VarKind::Fp32, true);
    i.b.append_to(startup, 0, fill_op(&name, &[], lr, ""));
    name
}

/// The accumulators of `rule` for parameter `p`: (suffix, fill value,
/// shape of the parameter or `[1]`, device).
fn accumulators(rule: &Rule) -> Vec<(&'static str, f64, bool, &'static str)> {
    match *rule {
        Rule::Sgd => vec![],
        Rule::Momentum { .. } => vec![("velocity", 0.0, true, "")],
        Rule::Adam { beta1, beta2, .. } => vec![
            ("moment1", 0.0, true, ""),
            ("moment2", 0.0, true, ""),
            ("beta1_pow_acc", beta1, false, "cpu"),
            ("beta2_pow_acc", beta2, false, "cpu"),
        ],
        Rule::Adagrad { initial, .. } => vec![("moment", initial, true, "")],
        Rule::RmsProp { .. } => vec![
            ("momentum", 0.0, true, ""),
            ("mean_square", 0.0, true, ""),
            ("mean_grad", 0.0, true, ""),
        ],
        Rule::Adamax { beta1, .. } => vec![
            ("moment", 0.0, true, ""),
            ("inf_norm", 0.0, true, ""),
            ("beta1_pow_acc", beta1, false, ""),
        ],
        Rule::Adadelta { .. } => vec![
            ("_avg_squared_grad", 0.0, true, ""),
            ("_avg_squared_update", 0.0, true, ""),
        ],
        Rule::Lamb { beta1, beta2, .. } => vec![
            ("moment1", 0.0, true, ""),
            ("moment2", 0.0, true, ""),
            ("beta1_pow_acc", beta1, false, "cpu"),
            ("beta2_pow_acc", beta2, false, "cpu"),
        ],
    }
}

/// Declares `p`'s accumulators (main and startup) and fills them in the
/// startup program; their names, in [`accumulators`] order.
fn create_accumulators(
    i: &mut Host,
    program: usize,
    startup: usize,
    rule: &Rule,
    p: &str,
) -> Vec<String> {
    let mut names = Vec::new();
    let pvar = i.b.block(program, 0).var(p).cloned();
    let dtype = pvar
        .as_ref()
        .and_then(|v| v.dtype())
        .unwrap_or(VarKind::Fp32);
    let pdims = pvar
        .as_ref()
        .and_then(|v| v.tensor_desc().map(|t| t.dims.clone()))
        .unwrap_or_default();
    for (suffix, value, like_param, device) in accumulators(rule) {
        let name = i.b.unique(&format!("{p}_{suffix}"));
        let dims = if like_param { pdims.clone() } else { vec![1] };
        declare_persistable(i, program, &name, dims.clone(), dtype, false);
        declare_persistable(i, startup, &name, dims.clone(), dtype, true);
        i.b.append_to(startup, 0, fill_op(&name, &dims, value, device));
        names.push(name);
    }
    names
}

/// `_create_param_lr`: the global learning rate, or for a parameter whose
/// `ParamAttr` has its own `learning_rate` the global one scaled by it (a
/// `scale` with `op_role` LRSched|Optimize in `/optimizer_N/scale_with_param_lr/`).
fn param_learning_rate(i: &mut Host, a: &Args, p: &str, lr: &str, scope: &str) -> Result<String> {
    let factor = i.b.params.get(p).map_or(1.0, |info| info.learning_rate);
    if factor == 1.0 {
        return Ok(lr.to_string());
    }
    i.b.op_guard = vec![
        (
            "op_role".into(),
            AttrValue::Int(role::LR_SCHED | role::OPTIMIZE),
        ),
        ("op_role_var".into(), AttrValue::Strings(Vec::new())),
        (
            "op_namescope".into(),
            AttrValue::String(format!("/{scope}/scale_with_param_lr/")),
        ),
    ];
    let lr_var = Value::Var(VarRef {
        program: i.b.main,
        block: 0,
        name: lr.into(),
    });
    let scaled = super::math_op_patch::var_binary(
        i,
        rustpython_parser::ast::Operator::Mult,
        lr_var,
        Value::Float(factor),
        a.call.clone(),
    );
    i.b.op_guard.clear();
    match scaled? {
        Value::Var(v) => Ok(v.name.to_string()),
        _ => Err(a.err(
            "loss",
            "internal error: a scaled learning rate is not a Variable",
        )),
    }
}

/// `append_regularization_ops` (Paddle 3.3.1): in name scope
/// `/regularization/`, each regularized gradient gets its decay added in
/// place: L2 `scale(param, coeff)`, L1 `scale(sign(param), coeff)`, then
/// `sum([grad, decay]) -> grad`; a sparse (`SELECTED_ROWS`) grad sums into
/// a new dense `grad@NEWGRAD@`, which replaces it in its pair. A parameter's
/// own regularizer wins over the optimizer's. Momentum fuses L2 decay into
/// its op instead: the returned coefficient per pair (None: nothing fused).
fn regularize(
    i: &mut Host,
    program: usize,
    opt: &Optimizer,
    pairs: &mut [(String, String)],
) -> Vec<Option<f64>> {
    let momentum = matches!(opt.rule, Rule::Momentum { .. });
    // Momentum takes an optimizer-wide L2 decay as its attribute.
    let (wide, wide_fused) = match opt.regularization {
        Some(Regularizer::L2(c)) if momentum => (None, Some(c)),
        r => (r, None),
    };
    let mut fused = Vec::with_capacity(pairs.len());
    let mut scope: Option<String> = None;
    for (p, g) in pairs.iter_mut() {
        let own = i.b.params.get(p).and_then(|info| info.regularizer);
        let reg = match (own, momentum) {
            (Some(Regularizer::L2(c)), true) => {
                fused.push(Some(c));
                continue;
            }
            // A parameter's own decay (L1, or any without Momentum) is
            // built as ops; nothing fused.
            (Some(r), _) => {
                fused.push(None);
                Some(r)
            }
            (None, _) => {
                fused.push(wide_fused);
                wide
            }
        };
        let Some(reg) = reg else {
            continue;
        };
        let scope = scope
            .get_or_insert_with(|| i.b.unique_scope("regularization"))
            .clone();
        let (dtype, dims) = {
            let v = i.b.block(program, 0).var(p);
            (
                v.and_then(|v| v.dtype()).unwrap_or(VarKind::Fp32),
                v.and_then(|v| v.tensor_desc().map(|t| t.dims.clone()))
                    .unwrap_or_default(),
            )
        };
        let guard = |op: Op| {
            op.attr("op_role", AttrValue::Int(role::OPTIMIZE))
                .attr(
                    "op_role_var",
                    AttrValue::Strings(vec![p.clone(), g.clone()]),
                )
                .attr("op_namescope", AttrValue::String(format!("/{scope}/")))
        };
        let fresh = |i: &mut Host| {
            let name = i.b.unique("_generated_var");
            let mut v = Var::dense(name.as_str(), dtype, dims.clone());
            v.stop_gradient = Some(false);
            i.b.declare_in(program, 0, v);
            name
        };
        let (source, coeff) = match reg {
            Regularizer::L2(c) => (p.clone(), c),
            Regularizer::L1(c) => {
                let sign = fresh(i);
                i.b.append_to(
                    program,
                    0,
                    guard(Op::new("sign").input("X", &[p]).output("Out", &[&sign])),
                );
                (sign, c)
            }
        };
        let decay = fresh(i);
        i.b.append_to(
            program,
            0,
            guard(
                Op::new("scale")
                    .input("X", &[&source])
                    .output("Out", &[&decay])
                    .attr("scale", AttrValue::Float(coeff as f32)),
            ),
        );
        let sparse =
            i.b.block(program, 0).var(g).and_then(Var::kind) == Some(VarKind::SelectedRows);
        let sum = if sparse {
            let name = format!("{g}@NEWGRAD@");
            let mut v = Var::dense(name.as_str(), dtype, dims.clone());
            v.stop_gradient = Some(false);
            i.b.declare_in(program, 0, v);
            name
        } else {
            g.clone()
        };
        i.b.append_to(
            program,
            0,
            guard(
                Op::new("sum")
                    .input("X", &[g, &decay])
                    .output("Out", &[&sum]),
            ),
        );
        *g = sum;
    }
    fused
}

/// The update op for one parameter; `accs` are its accumulators, `l2` a
/// Momentum's fused L2 decay.
fn update_op(rule: &Rule, p: &str, g: &str, lr: &str, accs: &[String], l2: Option<f64>) -> Op {
    let acc = |suffix: &str| {
        let k = accumulators(rule)
            .iter()
            .position(|a| a.0 == suffix)
            .unwrap_or(0);
        accs.get(k).cloned().unwrap_or_default()
    };
    let base = |ty: &str| {
        Op::new(ty)
            .input("Param", &[p])
            .input("Grad", &[g])
            .input("LearningRate", &[lr])
            .output("ParamOut", &[p])
            .attr("multi_precision", AttrValue::Bool(false))
    };
    match *rule {
        Rule::Sgd => base("sgd"),
        Rule::Momentum { mu, nesterov } => base("momentum")
            .input("Velocity", &[&acc("velocity")])
            .output("VelocityOut", &[&acc("velocity")])
            .attr("mu", AttrValue::Float(mu as f32))
            .attr("use_nesterov", AttrValue::Bool(nesterov))
            .attr(
                "regularization_method",
                AttrValue::String(match l2 {
                    Some(_) => "l2_decay".into(),
                    _ => String::new(),
                }),
            )
            .attr(
                "regularization_coeff",
                AttrValue::Float(l2.unwrap_or(0.0) as f32),
            )
            .attr("rescale_grad", AttrValue::Float(1.0)),
        Rule::Adam {
            beta1,
            beta2,
            epsilon,
            lazy_mode,
        } => base("adam")
            .input("Moment1", &[&acc("moment1")])
            .input("Moment2", &[&acc("moment2")])
            .input("Beta1Pow", &[&acc("beta1_pow_acc")])
            .input("Beta2Pow", &[&acc("beta2_pow_acc")])
            .output("Moment1Out", &[&acc("moment1")])
            .output("Moment2Out", &[&acc("moment2")])
            .output("Beta1PowOut", &[&acc("beta1_pow_acc")])
            .output("Beta2PowOut", &[&acc("beta2_pow_acc")])
            .attr("beta1", AttrValue::Float(beta1 as f32))
            .attr("beta2", AttrValue::Float(beta2 as f32))
            .attr("epsilon", AttrValue::Float(epsilon as f32))
            .attr("lazy_mode", AttrValue::Bool(lazy_mode))
            .attr("min_row_size_to_use_multithread", AttrValue::Long(1000))
            .attr("use_global_beta_pow", AttrValue::Bool(false))
            .attr("amsgrad", AttrValue::Bool(false)),
        Rule::Adagrad { epsilon, .. } => base("adagrad")
            .input("Moment", &[&acc("moment")])
            .output("MomentOut", &[&acc("moment")])
            .attr("epsilon", AttrValue::Float(epsilon as f32)),
        Rule::RmsProp {
            rho,
            epsilon,
            momentum,
            centered,
        } => base("rmsprop")
            .input("Moment", &[&acc("momentum")])
            .input("MeanSquare", &[&acc("mean_square")])
            .input("MeanGrad", &[&acc("mean_grad")])
            .output("MomentOut", &[&acc("momentum")])
            .output("MeanSquareOut", &[&acc("mean_square")])
            .output("MeanGradOut", &[&acc("mean_grad")])
            .attr("decay", AttrValue::Float(rho as f32))
            .attr("epsilon", AttrValue::Float(epsilon as f32))
            .attr("momentum", AttrValue::Float(momentum as f32))
            .attr("centered", AttrValue::Bool(centered)),
        Rule::Adamax {
            beta1,
            beta2,
            epsilon,
        } => base("adamax")
            .input("Moment", &[&acc("moment")])
            .input("InfNorm", &[&acc("inf_norm")])
            .input("Beta1Pow", &[&acc("beta1_pow_acc")])
            .output("MomentOut", &[&acc("moment")])
            .output("InfNormOut", &[&acc("inf_norm")])
            .attr("beta1", AttrValue::Float(beta1 as f32))
            .attr("beta2", AttrValue::Float(beta2 as f32))
            .attr("epsilon", AttrValue::Float(epsilon as f32)),
        Rule::Adadelta { rho, epsilon } => base("adadelta")
            .input("AvgSquaredGrad", &[&acc("_avg_squared_grad")])
            .input("AvgSquaredUpdate", &[&acc("_avg_squared_update")])
            .output("AvgSquaredGradOut", &[&acc("_avg_squared_grad")])
            .output("AvgSquaredUpdateOut", &[&acc("_avg_squared_update")])
            .attr("rho", AttrValue::Float(rho as f32))
            .attr("epsilon", AttrValue::Float(epsilon as f32)),
        Rule::Lamb {
            beta1,
            beta2,
            epsilon,
            weight_decay,
        } => base("lamb")
            .input("Moment1", &[&acc("moment1")])
            .input("Moment2", &[&acc("moment2")])
            .input("Beta1Pow", &[&acc("beta1_pow_acc")])
            .input("Beta2Pow", &[&acc("beta2_pow_acc")])
            .output("Moment1Out", &[&acc("moment1")])
            .output("Moment2Out", &[&acc("moment2")])
            .output("Beta1PowOut", &[&acc("beta1_pow_acc")])
            .output("Beta2PowOut", &[&acc("beta2_pow_acc")])
            .attr("beta1", AttrValue::Float(beta1 as f32))
            .attr("beta2", AttrValue::Float(beta2 as f32))
            .attr("epsilon", AttrValue::Float(epsilon as f32))
            .attr("weight_decay", AttrValue::Float(weight_decay as f32))
            .attr("always_adapt", AttrValue::Bool(false)),
    }
}
