//! The fluid API and Python's builtins as a table, and the entry points the
//! evaluator calls (attributes, operators, `with`, subscripts).
//!
//! Each module declares a table of [`Builtin`]s ([`builtin`] says how a
//! builtin declares its signature and gets its arguments). Builtins are found
//! by dotted path (`fluid.layers.fill_constant`) and methods by
//! `Type.method` (`Select.case`). A builtin's body sees the interpreter only
//! as a [`Host`]: the builder, and a way to call a script function.
mod array;
pub mod basic_layers;
mod blocks;
pub mod builtin;
pub mod catalog;
pub mod clip;
mod compat;
mod control;
mod conv;
mod csp;
mod dataset;
pub mod dyn_rnn;
mod format_spec;
mod guards;
pub mod io;
mod layer;
mod logic;
mod lr;
mod math;
mod math_op_patch;
mod nets;
mod nn;
mod norm_layers;
pub mod numpy;
pub mod numpy_more;
mod operator;
pub mod optimizer;
pub mod param;
mod program;
mod pyfns;
mod random;
pub mod reader;
mod reduce;
pub mod rnn;
mod rnn_cells;
pub mod sequence;
mod tensor;

use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::OnceLock;

use fluidc_transpiler::VarKind;
use rustpython_parser::ast::{CmpOp, Operator, UnaryOp};

use super::diag::{Diagnostic, Result};
use super::host::Host;
use super::value::{Show, Value};

use builtin::dtype_from_str;
pub use builtin::{bind, Builtin};
pub use control::call_skipped;
pub use guards::Exit;
pub use pyfns::{check_size, format_value, unhashable};

/// Every module's builtins.
const TABLES: &[&[Builtin]] = &[
    tensor::BUILTINS,
    array::BUILTINS,
    compat::BUILTINS,
    math::BUILTINS,
    logic::BUILTINS,
    reduce::BUILTINS,
    nn::BUILTINS,
    norm_layers::BUILTINS,
    param::BUILTINS,
    clip::BUILTINS,
    lr::BUILTINS,
    conv::BUILTINS,
    optimizer::BUILTINS,
    numpy::BUILTINS,
    numpy_more::BUILTINS,
    rnn::BUILTINS,
    dyn_rnn::BUILTINS,
    random::BUILTINS,
    control::BUILTINS,
    csp::BUILTINS,
    program::BUILTINS,
    basic_layers::BUILTINS,
    sequence::BUILTINS,
    rnn_cells::BUILTINS,
    nets::BUILTINS,
    operator::BUILTINS,
    io::BUILTINS,
    reader::BUILTINS,
    dataset::BUILTINS,
    pyfns::BUILTINS,
];

type Registry = HashMap<&'static str, &'static Builtin>;

/// The builtins by path. A path declared twice is a bug in fluidc (one
/// declaration would silently hide the other), so it makes the table fail.
fn build_registry(tables: &[&'static [Builtin]]) -> std::result::Result<Registry, String> {
    let mut map: Registry = HashMap::new();
    for b in tables.iter().copied().flatten() {
        for p in b.paths {
            if let Some(first) = map.insert(*p, b) {
                return Err(format!(
                    "the builtin path `{p}` is declared twice (by {} and {})",
                    first.name, b.name
                ));
            }
        }
    }
    Ok(map)
}

fn registry() -> &'static std::result::Result<Registry, String> {
    static REGISTRY: OnceLock<std::result::Result<Registry, String>> = OnceLock::new();
    REGISTRY.get_or_init(|| build_registry(TABLES))
}

/// Checks the builtin table (built once per process): the front end calls
/// this before it evaluates anything, and reports a bad table as an
/// internal error.
pub fn check_registry() -> std::result::Result<(), String> {
    registry().as_ref().map(|_| ()).map_err(Clone::clone)
}

/// The builtin declared at `path` (none if the table is bad: that was
/// reported by [`check_registry`]).
pub fn lookup(path: &str) -> Option<&'static Builtin> {
    registry().as_ref().ok()?.get(path).copied()
}

/// Modules and namespaces fluidc knows, by canonical name.
const MODULES: &[&str] = &[
    "paddle",
    "fluid",
    "fluid.layers",
    "fluid.nets",
    "fluid.core",
    "fluid.core.VarDesc",
    "fluid.core.VarDesc.VarType",
    "fluid.framework",
    "fluid.layer_helper",
    "fluid.executor",
    "fluid.concurrency",
    "fluid.unique_name",
    "fluid.optimizer",
    "fluid.initializer",
    "fluid.regularizer",
    "fluid.param_attr",
    "fluid.backward",
    "fluid.clip",
    "fluid.io",
    "paddle.static",
    "fluid.compiler",
    "fluid.data_feeder",
    "paddle.reader",
    "paddle.dataset",
    "paddle.dataset.uci_housing",
    "paddle.dataset.mnist",
    "numpy",
    "numpy.random",
    "random",
    "unittest",
    "os",
    "sys",
];

/// The canonical name of a module path (`paddle.fluid.layers.tensor` is `fluid.layers`).
fn canonical(module: &str) -> Option<&'static str> {
    // Early 2018's `paddle.v2.fluid` is `paddle.fluid`.
    let module = match module.strip_prefix("paddle.v2") {
        Some(rest) => return canonical(&format!("paddle{rest}")),
        None => module,
    };
    match module {
        // `paddle.reader` and `paddle.dataset` keep their `paddle.`: a
        // script's own `reader.py` is `import reader`.
        "paddle.reader.decorator" => return Some("paddle.reader"),
        _ => {
            if let Some(k) = MODULES
                .iter()
                .find(|k| k.starts_with("paddle.") && **k == module)
            {
                return Some(k);
            }
        }
    }
    let m = module.strip_prefix("paddle.").unwrap_or(module);
    let m = match m {
        "fluid.layers.tensor"
        | "fluid.layers.control_flow"
        | "fluid.layers.nn"
        | "fluid.layers.ops"
        | "fluid.layers.io"
        | "fluid.layers.math_op_patch" => "fluid.layers",
        "fluid.framework.core" => "fluid.core",
        "static" => "paddle.static",
        "np" => "numpy",
        other => other,
    };
    MODULES.iter().find(|k| **k == m).copied()
}

/// The module an `import` names, if fluidc knows it.
pub fn import_module(path: &str) -> Option<&'static str> {
    canonical(path)
}

/// `module.name`: a builtin, a submodule or a constant.
pub fn module_attr(module: &'static str, name: &str) -> Option<Value> {
    let full = format!("{module}.{name}");
    if let Some(b) = lookup(&full) {
        return Some(Value::Builtin(b, None));
    }
    if let Some(m) = canonical(&full) {
        return Some(Value::Module(m));
    }
    match module {
        "fluid.core.VarDesc.VarType" => var_type_constant(name).map(Value::DType),
        "numpy" => dtype_from_str(name)
            .filter(|_| name != "int" && name != "float")
            .map(Value::DType),
        "fluid" if name == "core" => Some(Value::Module("fluid.core")),
        _ => None,
    }
}

/// `core.VarDesc.VarType.NAME`, with Paddle's old names too.
fn var_type_constant(name: &str) -> Option<VarKind> {
    Some(match name {
        "LOD_TENSOR" => VarKind::DenseTensor,
        "LOD_TENSOR_ARRAY" => VarKind::DenseTensorArray,
        other => VarKind::from_str_name(other)?,
    })
}

/// Python's builtin functions (`len`, `range`, ...).
pub fn python_builtin(name: &str) -> Option<Value> {
    let full = format!("builtins.{name}");
    lookup(&full)
        .map(|b| Value::Builtin(b, None))
        .or(match name {
            "True" => Some(Value::Bool(true)),
            "False" => Some(Value::Bool(false)),
            "None" => Some(Value::None),
            _ => None,
        })
}

/// The registry key prefix for methods of a value.
fn method_type(v: &Value) -> &'static str {
    v.type_name()
}

/// `obj.name`.
pub fn get_attr(interp: &mut Host, obj: &Value, name: &str, sp: Range<usize>) -> Result<Value> {
    if let Value::Module(m) = obj {
        return module_attr(m, name).ok_or_else(|| catalog::no_such_attr(m, name, sp));
    }
    if let Value::Var(v) = obj {
        if let Some(x) = program::var_attr(interp, v, name) {
            return Ok(x);
        }
    }
    if let Value::Array(x) | Value::NpScalar(x) = obj {
        if let Some(v) = numpy::array_attr(x, name) {
            return Ok(v);
        }
    }
    if let Value::Object(o) = obj {
        if let Some(v) = program::object_attr(interp, o, name) {
            return Ok(v);
        }
    }
    let key = format!("{}.{name}", method_type(obj));
    match lookup(&key) {
        Some(b) => Ok(Value::Builtin(b, Some(Rc::new(obj.clone())))),
        None => Err(catalog::no_such_method(obj.type_name(), name, sp)),
    }
}

/// `obj.name = v`: the attributes scripts set on fluid objects
/// (`var.stop_gradient`, `var.persistable`, `program.random_seed`).
pub fn set_attr(
    interp: &mut Host,
    obj: &Value,
    name: &str,
    v: Value,
    sp: Range<usize>,
) -> Result<()> {
    let flag = |v: &Value| match v {
        Value::Bool(b) => Ok(*b),
        Value::Int(n) => Ok(*n != 0),
        other => Err(Diagnostic::new(
            sp.clone(),
            format!("`{name}` takes True or False, not {}", other.type_name()),
        )),
    };
    match (obj, name) {
        (Value::Var(r), "stop_gradient") => {
            interp.b.var_mut(r).stop_gradient = Some(flag(&v)?);
            Ok(())
        }
        (Value::Var(r), "persistable") => {
            interp.b.var_mut(r).persistable = Some(flag(&v)?);
            Ok(())
        }
        (Value::Object(o), "random_seed") => match (o.as_ref(), &v) {
            (super::value::Object::Program(p), Value::Int(seed)) => {
                interp.b.random_seeds.insert(*p, *seed);
                Ok(())
            }
            _ => Err(Diagnostic::new(sp, "random_seed takes an int")),
        },
        _ => Err(Diagnostic::new(
            sp,
            format!("cannot set attribute `{name}` on {}", obj.type_name()),
        )
        .help("fluidc lets scripts set `stop_gradient` and `persistable` on a Variable and `random_seed` on a Program")),
    }
}

/// Enters a `with` context; returns the `as` value and what to do on exit.
pub fn enter(interp: &mut Host, v: &Value, sp: Range<usize>) -> Result<(Value, Exit)> {
    guards::enter(interp, v, sp)
}

pub fn exit(interp: &mut Host, exit: Exit, sp: Range<usize>) -> Result<()> {
    guards::exit(interp, exit, sp)
}

pub fn binary(
    interp: &mut Host,
    op: Operator,
    l: Value,
    r: Value,
    sp: Range<usize>,
) -> Result<Value> {
    if matches!(l, Value::Var(_)) || matches!(r, Value::Var(_)) {
        return math_op_patch::var_binary(interp, op, l, r, sp);
    }
    if matches!(l, Value::RunTime) || matches!(r, Value::RunTime) {
        return Ok(Value::RunTime);
    }
    // `"%s" % np.float32(x)` formats a string, whatever the operand.
    let formats = op == Operator::Mod && matches!(l, Value::Str(_));
    if !formats && (is_numpy(&l) || is_numpy(&r)) {
        let op = match op {
            Operator::Add => crate::host::BinaryOp::Add,
            Operator::Sub => crate::host::BinaryOp::Sub,
            Operator::Mult => crate::host::BinaryOp::Mul,
            Operator::Div => crate::host::BinaryOp::TrueDiv,
            Operator::FloorDiv => crate::host::BinaryOp::FloorDiv,
            Operator::Mod => crate::host::BinaryOp::Mod,
            Operator::Pow => crate::host::BinaryOp::Pow,
            _ => {
                return Err(Diagnostic::new(
                    sp,
                    "this operator is not supported on arrays",
                ))
            }
        };
        return numpy::binary(op, &l, &r, sp);
    }
    pyfns::binary(op, l, r, sp)
}

pub fn unary(interp: &mut Host, op: UnaryOp, v: Value, sp: Range<usize>) -> Result<Value> {
    match (op, v) {
        (UnaryOp::USub, Value::Var(var)) => math_op_patch::negate(interp, var),
        (UnaryOp::UAdd, v @ Value::Var(_)) => Ok(v),
        (_, Value::RunTime) => Ok(Value::RunTime),
        (UnaryOp::USub, v @ (Value::Array(_) | Value::NpScalar(_))) => numpy::negate(&v, sp),
        (UnaryOp::USub, Value::Int(i)) => i
            .checked_neg()
            .map(Value::Int)
            .ok_or_else(|| Diagnostic::new(sp, "integer overflow at compile time")),
        (UnaryOp::USub, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::USub, Value::Bool(b)) => Ok(Value::Int(-i64::from(b))),
        (UnaryOp::UAdd, v @ (Value::Int(_) | Value::Float(_))) => Ok(v),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        (_, v) => Err(Diagnostic::new(
            sp,
            format!("bad operand type for unary operator: {}", v.type_name()),
        )),
    }
}

pub fn compare(
    interp: &mut Host,
    op: CmpOp,
    l: &Value,
    r: &Value,
    sp: Range<usize>,
) -> Result<Value> {
    if matches!(l, Value::Var(_)) || matches!(r, Value::Var(_)) {
        return math_op_patch::var_compare(interp, op, l.clone(), r.clone(), sp);
    }
    if matches!(l, Value::RunTime) || matches!(r, Value::RunTime) {
        return Ok(Value::RunTime);
    }
    if is_numpy(l) || is_numpy(r) {
        let op = match op {
            CmpOp::Eq => crate::host::BinaryOp::Eq,
            CmpOp::NotEq => crate::host::BinaryOp::Ne,
            CmpOp::Lt => crate::host::BinaryOp::Lt,
            CmpOp::LtE => crate::host::BinaryOp::Le,
            CmpOp::Gt => crate::host::BinaryOp::Gt,
            CmpOp::GtE => crate::host::BinaryOp::Ge,
            _ => {
                return Err(Diagnostic::new(
                    sp,
                    "this comparison is not supported on arrays",
                ))
            }
        };
        return numpy::binary(op, l, r, sp);
    }
    pyfns::compare(op, l, r, sp)
}

pub fn get_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<Value> {
    if let Value::Array(x) | Value::NpScalar(x) = obj {
        return numpy::get_item(x, key, sp);
    }
    pyfns::get_item(obj, key, sp)
}

/// One element of a subscript tuple: a value, or a slice `lo:hi:step`.
#[derive(Debug)]
pub enum KeyPart {
    Value(Value),
    Slice([Option<Value>; 3]),
    /// `...` (arrays only).
    Ellipsis,
}

/// `obj[a, b:c, ...]`: a tuple key that may hold slices. Arrays take
/// slices on any axis; for other values the key must be a plain tuple.
pub fn get_item_parts(obj: &Value, parts: Vec<KeyPart>, sp: Range<usize>) -> Result<Value> {
    if let Value::Array(x) | Value::NpScalar(x) = obj {
        return numpy::get_item_parts(x, parts, sp);
    }
    let mut values = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            KeyPart::Value(v) => values.push(v),
            KeyPart::Slice(_) | KeyPart::Ellipsis => {
                return Err(Diagnostic::new(
                    sp,
                    format!(
                        "{} indices cannot hold slices inside a tuple",
                        obj.type_name()
                    ),
                ))
            }
        }
    }
    pyfns::get_item(obj, &Value::tuple(values), sp)
}

pub fn set_item(obj: &Value, key: Value, v: Value, sp: Range<usize>) -> Result<()> {
    pyfns::set_item(obj, key, v, sp)
}

pub fn del_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<()> {
    pyfns::del_item(obj, key, sp)
}

/// Python's comparison of plain values (no arrays, no program variables).
pub use pyfns::compare as compare_values;
pub use pyfns::equal;

pub fn slice(
    obj: &Value,
    lo: Option<Value>,
    hi: Option<Value>,
    step: Option<Value>,
    sp: Range<usize>,
) -> Result<Value> {
    if let Value::Array(x) = obj {
        let bound = |v: &Option<Value>| -> Result<Option<i64>> {
            match v {
                None | Some(Value::None) => Ok(None),
                Some(Value::Int(i)) => Ok(Some(*i)),
                Some(other) => Err(Diagnostic::new(
                    sp.clone(),
                    format!(
                        "slice indices must be integers or None, not {}",
                        other.type_name()
                    ),
                )),
            }
        };
        return numpy::slice(x, [bound(&lo)?, bound(&hi)?, bound(&step)?], sp);
    }
    pyfns::slice(obj, lo, hi, step, sp)
}

/// Whether a value is numpy's (an array or a numpy scalar).
fn is_numpy(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::NpScalar(_))
}

/// `numpy.float32(x)` and `numpy.float64(x)`: a numpy scalar of that
/// dtype, as numpy gives (so `np.float32(0.1) - 0.5` stays float32, NEP
/// 50); `numpy.int64(x)` and friends: a Python int.
pub fn convert_dtype_call(k: VarKind, args: Vec<Value>, sp: Range<usize>) -> Result<Value> {
    let [x] = args.as_slice() else {
        return Err(Diagnostic::new(sp, "a dtype conversion takes one argument"));
    };
    let value = match x {
        Value::Int(i) => crate::host::Scalar::Int(*i),
        Value::Float(f) => crate::host::Scalar::Float(*f),
        Value::Bool(b) => crate::host::Scalar::Bool(*b),
        Value::Array(a) | Value::NpScalar(a) if a.size() == 1 => a
            .item()
            .map_err(|e| Diagnostic::new(sp.clone(), e.message))?,
        Value::Str(s) => match s.trim().parse::<i64>() {
            Ok(i) => crate::host::Scalar::Int(i),
            Err(_) => crate::host::Scalar::Float(s.trim().parse::<f64>().map_err(|_| {
                Diagnostic::new(
                    sp.clone(),
                    format!(
                        "ValueError: could not convert string to {}: {}",
                        k.as_str_name(),
                        Show(x, true)
                    ),
                )
            })?),
        },
        other => {
            return Err(Diagnostic::new(
                sp,
                format!(
                    "cannot convert {} to {}",
                    Show(other, true),
                    k.as_str_name()
                ),
            ))
        }
    };
    // Integer and bool kinds give Python ints and bools, which behave as
    // numpy's do in what scripts do with them (index, count, print).
    match k {
        VarKind::Bool => return Ok(Value::Bool(value.as_f64() != 0.0)),
        VarKind::Fp16 | VarKind::Fp32 | VarKind::Fp64 | VarKind::Bf16 => {}
        _ => {
            return Ok(Value::Int(match value {
                crate::host::Scalar::Int(i) => i,
                other => other.as_f64() as i64,
            }))
        }
    }
    // float16 and bfloat16 have no host dtype: float32 holds their values.
    let dtype = numpy::dtype_of_kind(k).unwrap_or(crate::host::DType::Float32);
    Ok(Value::NpScalar(std::rc::Rc::new(
        crate::host::HostArray::scalar(dtype, value),
    )))
}

#[cfg(test)]
mod tests {
    use super::builtin::{builtin, Rest, D};
    use super::*;

    #[test]
    fn the_real_table_declares_each_path_once() {
        assert_eq!(check_registry(), Ok(()));
        let paths: usize = TABLES
            .iter()
            .flat_map(|t| t.iter())
            .map(|b| b.paths.len())
            .sum();
        assert_eq!(build_registry(TABLES).map(|m| m.len()), Ok(paths));
    }

    #[test]
    fn a_table_with_a_duplicate_path_is_rejected() {
        const AGAIN: &[Builtin] = &[builtin!(
            ["fluid.layers.relu", "fluid.layers.my_relu"],
            [("x", D::Req)],
            Rest::No,
            |_, _| Ok(Value::None)
        )];
        let err = build_registry(&[nn::BUILTINS, AGAIN]).expect_err("relu is declared twice");
        assert!(
            err.contains("`fluid.layers.relu` is declared twice"),
            "{err}"
        );
        // Twice within one table too.
        assert!(build_registry(&[AGAIN, AGAIN]).is_err());
        assert!(build_registry(&[AGAIN]).is_ok());
    }
}
