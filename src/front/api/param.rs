//! Parameters (SPEC §9.2): `fluid.ParamAttr`, the initializers, and
//! `LayerHelper.create_parameter` as Paddle 1.x built them: the parameter is
//! declared in the startup program with its initializer op *prepended* there,
//! then declared in the main program.
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Value, VarRef};

use D::*;

/// An initializer, as `fluid.initializer.*` makes it.
#[derive(Debug, Clone, PartialEq)]
pub enum Init {
    Constant(f64),
    Uniform {
        low: f64,
        high: f64,
        seed: i64,
    },
    Normal {
        mean: f64,
        std: f64,
        seed: i64,
    },
    TruncatedNormal {
        mean: f64,
        std: f64,
        seed: i64,
    },
    Xavier {
        uniform: bool,
        fan_in: Option<f64>,
        fan_out: Option<f64>,
        seed: i64,
    },
    Msra {
        uniform: bool,
        fan_in: Option<f64>,
        seed: i64,
    },
    /// `NumpyArrayInitializer(value)`: the array's elements, row-major.
    NumpyArray {
        values: Vec<f64>,
        shape: Vec<i64>,
    },
}

/// A weight regularizer (`fluid.regularizer.L2Decay(c)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Regularizer {
    L1(f64),
    L2(f64),
}

/// `fluid.ParamAttr(...)`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParamAttr {
    pub name: Option<String>,
    pub initializer: Option<Init>,
    pub learning_rate: f64,
    pub regularizer: Option<Regularizer>,
    pub trainable: bool,
}

/// What a parameter's layer knows of it, beyond its declaration: the
/// optimizer reads these (`trainable`, per-parameter learning rate and
/// regularizer), as Paddle's `Parameter` object carries them.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamInfo {
    pub name: String,
    pub learning_rate: f64,
    pub regularizer: Option<Regularizer>,
    pub trainable: bool,
    /// `fluid.clip.set_gradient_clip`'s clip for this parameter.
    pub clip: Option<super::clip::Clip>,
}

fn seed_arg(a: &Args) -> Result<i64> {
    a.int("seed")
}

fn opt_float(a: &Args, name: &str) -> Result<Option<f64>> {
    if a.is_none(name) {
        Ok(None)
    } else {
        a.float(name).map(Some)
    }
}

fn init(i: Init) -> Result<Value> {
    Ok(Value::object(Object::Initializer(i)))
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.ParamAttr", "fluid.param_attr.ParamAttr"],
        [
            ("name", Nil),
            ("initializer", Nil),
            ("learning_rate", Float(1.0)),
            ("regularizer", Nil),
            ("trainable", Bool(true)),
            ("gradient_clip", Nil),
            ("do_model_average", Bool(false))
        ],
        Rest::No,
        |_, a| {
            let initializer = match a.get("initializer") {
                Value::None => None,
                Value::Object(o) => match o.as_ref() {
                    Object::Initializer(i) => Some(i.clone()),
                    _ => {
                        return Err(a.err("initializer", "initializer must be a fluid.initializer"))
                    }
                },
                _ => return Err(a.err("initializer", "initializer must be a fluid.initializer")),
            };
            let regularizer = regularizer_arg(a, "regularizer")?;
            if !a.is_none("gradient_clip") {
                return Err(a.err(
                    "gradient_clip",
                    "a per-parameter gradient_clip is not supported; use the optimizer's grad_clip",
                ));
            }
            Ok(Value::object(Object::ParamAttr(ParamAttr {
                name: a.opt_string("name")?,
                initializer,
                learning_rate: a.float("learning_rate")?,
                regularizer,
                trainable: a.bool("trainable")?,
            })))
        }
    ),
    builtin!(
        [
            "fluid.initializer.Constant",
            "fluid.initializer.ConstantInitializer"
        ],
        [("value", Float(0.0)), ("force_cpu", Bool(false))],
        Rest::No,
        |_, a| init(Init::Constant(a.float("value")?))
    ),
    builtin!(
        [
            "fluid.initializer.Uniform",
            "fluid.initializer.UniformInitializer"
        ],
        [("low", Float(-1.0)), ("high", Float(1.0)), ("seed", Int(0))],
        Rest::No,
        |_, a| init(Init::Uniform {
            low: a.float("low")?,
            high: a.float("high")?,
            seed: seed_arg(a)?,
        })
    ),
    builtin!(
        [
            "fluid.initializer.Normal",
            "fluid.initializer.NormalInitializer"
        ],
        [("loc", Float(0.0)), ("scale", Float(1.0)), ("seed", Int(0))],
        Rest::No,
        |_, a| init(Init::Normal {
            mean: a.float("loc")?,
            std: a.float("scale")?,
            seed: seed_arg(a)?,
        })
    ),
    builtin!(
        [
            "fluid.initializer.TruncatedNormal",
            "fluid.initializer.TruncatedNormalInitializer"
        ],
        [("loc", Float(0.0)), ("scale", Float(1.0)), ("seed", Int(0))],
        Rest::No,
        |_, a| init(Init::TruncatedNormal {
            mean: a.float("loc")?,
            std: a.float("scale")?,
            seed: seed_arg(a)?,
        })
    ),
    builtin!(
        [
            "fluid.initializer.Xavier",
            "fluid.initializer.XavierInitializer"
        ],
        [
            ("uniform", Bool(true)),
            ("fan_in", Nil),
            ("fan_out", Nil),
            ("seed", Int(0))
        ],
        Rest::No,
        |_, a| init(Init::Xavier {
            uniform: a.bool("uniform")?,
            fan_in: opt_float(a, "fan_in")?,
            fan_out: opt_float(a, "fan_out")?,
            seed: seed_arg(a)?,
        })
    ),
    builtin!(
        [
            "fluid.initializer.MSRA",
            "fluid.initializer.MSRAInitializer"
        ],
        [("uniform", Bool(true)), ("fan_in", Nil), ("seed", Int(0))],
        Rest::No,
        |_, a| init(Init::Msra {
            uniform: a.bool("uniform")?,
            fan_in: opt_float(a, "fan_in")?,
            seed: seed_arg(a)?,
        })
    ),
    builtin!(
        [
            "fluid.initializer.NumpyArrayInitializer",
            "fluid.initializer.NumpyArray"
        ],
        [("value", Req)],
        Rest::No,
        |_, a| {
            let Value::Array(x) = a.get("value") else {
                return Err(a.err("value", "NumpyArrayInitializer takes a numpy array"));
            };
            let values = (0..x.size())
                .map(|k| match x.item_at(k as i64) {
                    Ok(crate::host::Scalar::Float(f)) => f,
                    Ok(crate::host::Scalar::Int(n)) => n as f64,
                    Ok(crate::host::Scalar::Bool(b)) => f64::from(u8::from(b)),
                    Err(_) => 0.0,
                })
                .collect();
            let shape = x.shape().iter().map(|&d| d as i64).collect();
            init(Init::NumpyArray { values, shape })
        }
    ),
    builtin!(
        [
            "fluid.regularizer.L2Decay",
            "fluid.regularizer.L2DecayRegularizer"
        ],
        [("regularization_coeff", Float(0.0))],
        Rest::No,
        |_, a| Ok(Value::object(Object::Regularizer(Regularizer::L2(
            a.float("regularization_coeff")?
        ))))
    ),
    builtin!(
        [
            "fluid.regularizer.L1Decay",
            "fluid.regularizer.L1DecayRegularizer"
        ],
        [("regularization_coeff", Float(0.0))],
        Rest::No,
        |_, a| Ok(Value::object(Object::Regularizer(Regularizer::L1(
            a.float("regularization_coeff")?
        ))))
    ),
    builtin!(
        ["fluid.layers.create_parameter"],
        [
            ("shape", Req),
            ("dtype", Req),
            ("name", Nil),
            ("attr", Nil),
            ("is_bias", Bool(false)),
            ("default_initializer", Nil)
        ],
        Rest::No,
        |i, a| {
            let mut attr = param_attr(a, "attr")?
                .ok_or_else(|| a.err("attr", "create_parameter's attr cannot be False"))?;
            if attr.name.is_none() {
                attr.name = a.opt_string("name")?;
            }
            let default = initializer_arg(a, "default_initializer")?;
            let helper = i.b.helper_name("create_parameter");
            let dtype = a.dtype("dtype")?;
            let shape = a.ints("shape")?;
            let p = create_parameter(i, &helper, &attr, shape, dtype, a.bool("is_bias")?, default);
            Ok(Value::Var(p))
        }
    ),
    builtin!(
        ["Block.create_parameter"],
        [
            ("dtype", Req),
            ("shape", Req),
            ("name", Nil),
            ("lod_level", Int(0)),
            ("initializer", Nil),
            ("trainable", Bool(true)),
            ("persistable", Bool(true))
        ],
        Rest::No,
        block_create_parameter
    ),
];

/// `block.create_parameter(...)` (Paddle 1.x's `Block.create_parameter`,
/// as `test_initializer` calls it): the parameter in this block, and its
/// initializer's op prepended to the same block, once per name.
fn block_create_parameter(i: &mut Host, a: &mut Args) -> Result<Value> {
    let Object::Block { program, block } = *super::builtin::recv_object(a) else {
        return Ok(Value::Poison);
    };
    let init = initializer_arg(a, "initializer")?;
    let dtype = a.dtype("dtype")?;
    let shape = a.ints("shape")?;
    let name = match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.unique("parameter"),
    };
    let mut var = Var::dense(name.as_str(), dtype, shape.clone());
    var.persistable = Some(a.bool("persistable")?);
    var.is_parameter = Some(true);
    var.stop_gradient = Some(!a.bool("trainable")?);
    let initialized =
        i.b.block(program, block)
            .ops
            .iter()
            .any(|op| op.output_names().any(|n| n == name));
    let r = i.b.declare_in(program, block, var);
    if let (Some(init), false) = (init, initialized) {
        let seed = i.b.random_seed(program);
        i.b.prepend_to(program, block, init_op(&init, &name, &shape, dtype, seed));
    }
    Ok(Value::Var(r))
}

/// An initializer argument: None or a `fluid.initializer.*`.
fn initializer_arg(a: &Args, name: &str) -> Result<Option<Init>> {
    match a.get(name) {
        Value::None => Ok(None),
        Value::Object(o) => match o.as_ref() {
            Object::Initializer(init) => Ok(Some(init.clone())),
            _ => Err(a.err(name, "must be a fluid.initializer")),
        },
        _ => Err(a.err(name, "must be a fluid.initializer")),
    }
}

/// A `regularizer=` argument: None or a `fluid.regularizer.*`.
pub fn regularizer_arg(a: &Args, name: &str) -> Result<Option<Regularizer>> {
    match a.get(name) {
        Value::None => Ok(None),
        Value::Object(o) => match o.as_ref() {
            Object::Regularizer(r) => Ok(Some(*r)),
            _ => Err(a.err(
                name,
                format!("{name} must be fluid.regularizer.L2Decay or L1Decay"),
            )),
        },
        _ => Err(a.err(
            name,
            format!("{name} must be fluid.regularizer.L2Decay or L1Decay"),
        )),
    }
}

/// `ParamAttr._to_attr(arg)`: None (defaults), a name, a ParamAttr, an
/// initializer, or False (no parameter: `bias_attr=False`).
pub fn param_attr(a: &Args, name: &str) -> Result<Option<ParamAttr>> {
    attr_of_value(a, name, a.get(name))
}

/// [`param_attr`] for a layer with `n` inputs (`fc`): a list gives one
/// attribute per input, a single one is copied for each.
pub fn param_attrs(a: &Args, name: &str, n: usize) -> Result<Vec<Option<ParamAttr>>> {
    let value = a.get(name);
    let attrs = match (value, value.items()) {
        (Value::List(_) | Value::Tuple(_), Some(items)) => items
            .iter()
            .map(|v| attr_of_value(a, name, v))
            .collect::<Result<Vec<_>>>()?,
        _ => vec![attr_of_value(a, name, value)?],
    };
    match attrs.len() {
        1 => Ok(vec![attrs[0].clone(); n]),
        k if k == n => Ok(attrs),
        k => Err(a.err(
            name,
            format!("{name} gives {k} attributes for {n} inputs; give one, or one per input"),
        )),
    }
}

/// The parameter attribute `value` (argument `name`) stands for.
fn attr_of_value(a: &Args, name: &str, value: &Value) -> Result<Option<ParamAttr>> {
    let default = ParamAttr {
        learning_rate: 1.0,
        trainable: true,
        ..Default::default()
    };
    match value {
        Value::None | Value::Bool(true) => Ok(Some(default)),
        Value::Bool(false) => Ok(None),
        Value::Str(s) => Ok(Some(ParamAttr {
            name: Some(s.to_string()),
            ..default
        })),
        Value::Object(o) => match o.as_ref() {
            Object::ParamAttr(p) => Ok(Some(p.clone())),
            Object::Initializer(i) => Ok(Some(ParamAttr {
                initializer: Some(i.clone()),
                ..default
            })),
            Object::Regularizer(r) => Ok(Some(ParamAttr {
                regularizer: Some(*r),
                ..default
            })),
            _ => Err(wrong_attr(a, name)),
        },
        _ => Err(wrong_attr(a, name)),
    }
}

fn wrong_attr(a: &Args, name: &str) -> Diagnostic {
    a.err(
        name,
        format!(
            "{name} must be None, a name, fluid.ParamAttr(...), an initializer or False, not {}",
            a.get(name).type_name()
        ),
    )
}

/// Paddle's `_compute_fans`.
fn fans(shape: &[i64]) -> (f64, f64) {
    match shape.len() {
        0 => (1.0, 1.0),
        1 => (shape[0] as f64, shape[0] as f64),
        2 => (shape[0] as f64, shape[1] as f64),
        _ => {
            let receptive: i64 = shape[2..].iter().product();
            ((shape[1] * receptive) as f64, (shape[0] * receptive) as f64)
        }
    }
}

/// The startup op that initializes `name` (Paddle 1.x `initializer.py`);
/// a seed of 0 takes the startup program's `random_seed`.
fn init_op(init: &Init, name: &str, shape: &[i64], dtype: VarKind, program_seed: i64) -> Op {
    let seed = |s: i64| {
        AttrValue::Int(if s == 0 {
            program_seed as i32
        } else {
            s as i32
        })
    };
    // `shape` in the width the op's proto declares (Paddle converts the
    // Python list to it).
    let base = |ty: &str| {
        Op::new(ty)
            .output("Out", &[name])
            .attr("shape", shape_attr(ty, shape))
            .attr("dtype", AttrValue::Int(dtype as i32))
    };
    let uniform = |limit: f64, s: i64| {
        base("uniform_random")
            .attr("min", AttrValue::Float(-limit as f32))
            .attr("max", AttrValue::Float(limit as f32))
            .attr("seed", seed(s))
    };
    let gaussian = |mean: f64, std: f64, s: i64| {
        base("gaussian_random")
            .attr("mean", AttrValue::Float(mean as f32))
            .attr("std", AttrValue::Float(std as f32))
            .attr("seed", seed(s))
    };
    let (fan_in, fan_out) = fans(shape);
    if let Init::NumpyArray {
        values,
        shape: vshape,
    } = init
    {
        return numpy_array_op(name, dtype, values, vshape);
    }
    match *init {
        Init::Constant(v) => base("fill_constant")
            .attr("value", AttrValue::Float(v as f32))
            .attr("force_cpu", AttrValue::Bool(false)),
        Init::Uniform { low, high, seed: s } => base("uniform_random")
            .attr("min", AttrValue::Float(low as f32))
            .attr("max", AttrValue::Float(high as f32))
            .attr("seed", seed(s)),
        Init::Normal { mean, std, seed: s } => gaussian(mean, std, s),
        Init::TruncatedNormal { mean, std, seed: s } => base("truncated_gaussian_random")
            .attr("mean", AttrValue::Float(mean as f32))
            .attr("std", AttrValue::Float(std as f32))
            .attr("seed", seed(s)),
        Init::Xavier {
            uniform: u,
            fan_in: fi,
            fan_out: fo,
            seed: s,
        } => {
            let (fi, fo) = (fi.unwrap_or(fan_in), fo.unwrap_or(fan_out));
            if u {
                uniform((6.0 / (fi + fo)).sqrt(), s)
            } else {
                gaussian(0.0, (2.0 / (fi + fo)).sqrt(), s)
            }
        }
        Init::NumpyArray { .. } => unreachable!("handled above"),
        Init::Msra {
            uniform: u,
            fan_in: fi,
            seed: s,
        } => {
            let fi = fi.unwrap_or(fan_in);
            if u {
                uniform((6.0 / fi).sqrt(), s)
            } else {
                gaussian(0.0, (2.0 / fi).sqrt(), s)
            }
        }
    }
}

/// The `shape` attribute of a random or fill op as the op declares it:
/// LONGS for most, INTS for some (`truncated_gaussian_random`).
pub(super) fn shape_attr(ty: &str, shape: &[i64]) -> AttrValue {
    let ints = fluidc_transpiler::ops::get(ty)
        .and_then(|d| d.attr("shape"))
        .is_some_and(|a| a.ty == fluidc_transpiler::model::AttrType::Ints);
    if ints {
        AttrValue::Ints(shape.iter().map(|&d| d as i32).collect())
    } else {
        AttrValue::Longs(shape.to_vec())
    }
}

/// 1.x `NumpyArrayInitializer`: an `assign_value` of the array's elements
/// (Paddle 3's one `values` attribute: float64 scalars for float32, longs
/// for int32).
fn numpy_array_op(name: &str, dtype: VarKind, values: &[f64], shape: &[i64]) -> Op {
    use fluidc_transpiler::proto::{scalar, Scalar};
    let scalars = values
        .iter()
        .map(|&v| match dtype {
            VarKind::Int32 => Scalar {
                r#type: scalar::Type::Long as i32,
                i: Some(v as i64),
                ..Default::default()
            },
            _ => Scalar {
                r#type: scalar::Type::Float64 as i32,
                r: Some(v),
                ..Default::default()
            },
        })
        .collect();
    Op::new("assign_value")
        .output("Out", &[name])
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr(
            "shape",
            AttrValue::Ints(shape.iter().map(|&d| d as i32).collect()),
        )
        .attr("values", AttrValue::Scalars(scalars))
}

/// `LayerHelper.create_parameter`: `attr` (from [`param_attr`]) names the
/// parameter (`<helper>.<w|b>_N` by default) and picks its initializer
/// (`default`: the layer's, Xavier for weights, zero for biases).
pub fn create_parameter(
    i: &mut Host,
    helper: &str,
    attr: &ParamAttr,
    shape: Vec<i64>,
    dtype: VarKind,
    is_bias: bool,
    default: Option<Init>,
) -> VarRef {
    let init = attr.initializer.clone().or(default).unwrap_or(if is_bias {
        Init::Constant(0.0)
    } else {
        Init::Xavier {
            uniform: true,
            fan_in: None,
            fan_out: None,
            seed: 0,
        }
    });
    let name = match &attr.name {
        Some(n) => n.clone(),
        None => {
            i.b.unique(&format!("{helper}.{}", if is_bias { "b" } else { "w" }))
        }
    };
    let (main, startup) = (i.b.main, i.b.startup);
    let mut var = Var::dense(name.as_str(), dtype, shape.clone());
    var.persistable = Some(true);
    var.is_parameter = Some(true);
    var.stop_gradient = Some(!attr.trainable);
    // Paddle 1.x declares the parameter in the startup program first; a
    // name used twice (shared weights) is initialized once.
    let fresh = !i.b.declares(startup, 0, &name);
    i.b.declare_in(startup, 0, var.clone());
    if fresh {
        let seed = i.b.random_seed(startup);
        i.b.prepend_to(startup, 0, init_op(&init, &name, &shape, dtype, seed));
    }
    let r = i.b.declare_in(main, 0, var);
    i.b.params.insert(
        name.clone(),
        ParamInfo {
            name,
            learning_rate: attr.learning_rate,
            regularizer: attr.regularizer,
            trainable: attr.trainable,
            clip: None,
        },
    );
    r
}
