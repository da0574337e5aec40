//! The fluid API and Python's builtins as a table, and the entry points the
//! evaluator calls (attributes, operators, `with`, subscripts).
//!
//! Each module declares a table of [`Builtin`]s ([`builtin`] says how a
//! builtin declares its signature and gets its arguments). Builtins are found
//! by dotted path (`fluid.layers.fill_constant`) and methods by
//! `Type.method` (`Select.case`). A builtin's body sees the interpreter only
//! as a [`Host`]: the builder, and a way to call a script function.
mod blocks;
pub mod builtin;
mod control;
mod csp;
mod guards;
mod layer;
mod logic;
mod math;
mod math_op_patch;
mod nn;
mod program;
mod pyfns;
mod reduce;
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
pub use guards::Exit;
pub use pyfns::format_value;

fn registry() -> &'static HashMap<&'static str, &'static Builtin> {
    static REGISTRY: OnceLock<HashMap<&'static str, &'static Builtin>> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut map = HashMap::new();
        for table in [
            tensor::BUILTINS,
            math::BUILTINS,
            logic::BUILTINS,
            reduce::BUILTINS,
            nn::BUILTINS,
            control::BUILTINS,
            csp::BUILTINS,
            program::BUILTINS,
            pyfns::BUILTINS,
        ] {
            for b in table {
                for p in b.paths {
                    map.insert(*p, b);
                }
            }
        }
        map
    })
}

/// Modules and namespaces fluidc knows, by canonical name.
const MODULES: &[&str] = &[
    "paddle",
    "fluid",
    "fluid.layers",
    "fluid.core",
    "fluid.core.VarDesc",
    "fluid.core.VarDesc.VarType",
    "fluid.framework",
    "fluid.layer_helper",
    "fluid.executor",
    "fluid.concurrency",
    "fluid.unique_name",
    "fluid.optimizer",
    "numpy",
    "unittest",
    "os",
    "sys",
];

/// The canonical name of a module path (`paddle.fluid.layers.tensor` is `fluid.layers`).
fn canonical(module: &str) -> Option<&'static str> {
    let m = module.strip_prefix("paddle.").unwrap_or(module);
    let m = match m {
        "fluid.layers.tensor"
        | "fluid.layers.control_flow"
        | "fluid.layers.nn"
        | "fluid.layers.ops"
        | "fluid.layers.io"
        | "fluid.layers.math_op_patch" => "fluid.layers",
        "fluid.framework.core" => "fluid.core",
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
    if let Some(b) = registry().get(full.as_str()) {
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
    registry()
        .get(full.as_str())
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
        return module_attr(m, name).ok_or_else(|| {
            Diagnostic::new(
                sp,
                format!("module `{m}` has no `{name}` that fluidc knows"),
            )
            .help("see SPEC §1.2 for the supported fluid API")
        });
    }
    if let Value::Var(v) = obj {
        if let Some(x) = program::var_attr(interp, v, name) {
            return Ok(x);
        }
    }
    let key = format!("{}.{name}", method_type(obj));
    match registry().get(key.as_str()) {
        Some(b) => Ok(Value::Builtin(b, Some(Rc::new(obj.clone())))),
        None => Err(Diagnostic::new(
            sp,
            format!(
                "{} has no attribute `{name}` that fluidc knows",
                obj.type_name()
            ),
        )),
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
    pyfns::binary(op, l, r, sp)
}

pub fn unary(interp: &mut Host, op: UnaryOp, v: Value, sp: Range<usize>) -> Result<Value> {
    match (op, v) {
        (UnaryOp::USub, Value::Var(var)) => math_op_patch::negate(interp, var),
        (UnaryOp::UAdd, v @ Value::Var(_)) => Ok(v),
        (_, Value::RunTime) => Ok(Value::RunTime),
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
    pyfns::compare(op, l, r, sp)
}

pub fn get_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<Value> {
    pyfns::get_item(obj, key, sp)
}

pub fn set_item(obj: &Value, key: Value, v: Value, sp: Range<usize>) -> Result<()> {
    pyfns::set_item(obj, key, v, sp)
}

pub fn del_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<()> {
    pyfns::del_item(obj, key, sp)
}

pub use pyfns::equal;

pub fn slice(
    obj: &Value,
    lo: Option<Value>,
    hi: Option<Value>,
    step: Option<Value>,
    sp: Range<usize>,
) -> Result<Value> {
    pyfns::slice(obj, lo, hi, step, sp)
}

/// `numpy.float32(x)` and friends: a plain number of that kind.
pub fn convert_dtype_call(k: VarKind, args: Vec<Value>, sp: Range<usize>) -> Result<Value> {
    let [x] = args.as_slice() else {
        return Err(Diagnostic::new(sp, "a dtype conversion takes one argument"));
    };
    let f = match x {
        Value::Int(i) => *i as f64,
        Value::Float(f) => *f,
        Value::Bool(b) => f64::from(u8::from(*b)),
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
    Ok(match k {
        VarKind::Fp16 | VarKind::Fp32 | VarKind::Fp64 | VarKind::Bf16 => Value::Float(f),
        VarKind::Bool => Value::Bool(f != 0.0),
        _ => Value::Int(f as i64),
    })
}
