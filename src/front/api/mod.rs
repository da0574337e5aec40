//! The fluid API and Python's builtins as a table.
//!
//! Each [`Builtin`] declares its Python signature (parameter names and
//! defaults); [`bind`] matches positional and keyword arguments for all of
//! them, so "unexpected keyword argument" and "missing argument" are
//! produced in one place. A builtin's body only reads its [`Args`] and
//! appends ops. Builtins are found by dotted path (`fluid.layers.fill_constant`)
//! and methods by `Type.method` (`Select.case`).
mod control;
mod csp;
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
use super::eval::Interp;
use super::value::{Object, Show, Value, VarRef};

pub use control::Exit;
pub use pyfns::format_value;

/// A parameter default.
#[derive(Debug, Clone, Copy)]
pub enum D {
    Req,
    Nil,
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(&'static str),
}

/// What a builtin does with arguments beyond its parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rest {
    No,
    /// Every positional argument goes to [`Args::extra`] and the parameters
    /// are keyword-only (`print(*objects, sep=' ')`, `max`, `zip`).
    Varargs,
    /// Unknown keywords are accepted and ignored (Paddle's `**ignored`).
    IgnoreKwargs,
}

/// One builtin: its paths, Python signature and body.
#[derive(Debug)]
pub struct Builtin {
    /// Dotted paths it is found under; the first is its name in messages.
    pub paths: &'static [&'static str],
    pub params: &'static [(&'static str, D)],
    pub rest: Rest,
    pub body: fn(&mut Interp, &mut Args) -> Result<Value>,
    pub name: &'static str,
}

/// Declares a builtin: `builtin!(["fluid.layers.relu"], [("x", Req)], body)`.
macro_rules! builtin {
    ([$($path:expr),+], [$(($p:literal, $d:expr)),* $(,)?], $rest:expr, $body:expr) => {
        $crate::front::api::Builtin {
            paths: &[$($path),+],
            name: builtin!(@first $($path),+),
            params: &[$(($p, $d)),*],
            rest: $rest,
            body: $body,
        }
    };
    (@first $first:expr $(, $more:expr)*) => { $first };
}
pub(crate) use builtin;

/// The arguments of one call, bound to the builtin's parameters.
#[derive(Debug)]
pub struct Args {
    pub recv: Option<Value>,
    vals: Vec<Value>,
    spans: Vec<Range<usize>>,
    pub call: Range<usize>,
    pub b: &'static Builtin,
    pub extra: Vec<Value>,
    /// Keywords a `**ignored` builtin took and dropped, with their spans.
    pub ignored: Vec<(String, Range<usize>)>,
}

impl Args {
    fn idx(&self, name: &str) -> usize {
        self.b
            .params
            .iter()
            .position(|(p, _)| *p == name)
            .expect("builtin bodies ask only for their own parameters")
    }

    pub fn get(&self, name: &str) -> &Value {
        &self.vals[self.idx(name)]
    }

    /// The span of the argument given for `name`, or of the call.
    pub fn span(&self, name: &str) -> Range<usize> {
        self.spans[self.idx(name)].clone()
    }

    pub fn err(&self, name: &str, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.span(name), msg)
    }

    fn wrong(&self, name: &str, want: &str) -> Diagnostic {
        let got = self.get(name).type_name();
        self.err(
            name,
            format!(
                "argument `{name}` of {}() must be {want}, not {got}",
                self.short_name()
            ),
        )
    }

    /// The builtin's name without its module, as Python prints it.
    pub fn short_name(&self) -> &'static str {
        self.b.name.rsplit('.').next().unwrap_or(self.b.name)
    }

    pub fn is_none(&self, name: &str) -> bool {
        matches!(self.get(name), Value::None)
    }

    pub fn var(&self, name: &str) -> Result<VarRef> {
        match self.get(name) {
            Value::Var(v) => Ok(v.clone()),
            _ => Err(self.wrong(name, "a Variable")),
        }
    }

    pub fn opt_var(&self, name: &str) -> Result<Option<VarRef>> {
        if self.is_none(name) {
            Ok(None)
        } else {
            self.var(name).map(Some)
        }
    }

    /// A Variable or a list/tuple of Variables.
    pub fn var_list(&self, name: &str) -> Result<Vec<VarRef>> {
        match self.get(name) {
            Value::Var(v) => Ok(vec![v.clone()]),
            Value::None => Ok(Vec::new()),
            other => match other.items() {
                Some(items) => items
                    .into_iter()
                    .map(|i| match i {
                        Value::Var(v) => Ok(v),
                        _ => Err(self.wrong(name, "a Variable or a list of Variables")),
                    })
                    .collect(),
                None => Err(self.wrong(name, "a Variable or a list of Variables")),
            },
        }
    }

    pub fn int(&self, name: &str) -> Result<i64> {
        match self.get(name) {
            Value::Int(i) => Ok(*i),
            Value::Bool(b) => Ok(i64::from(*b)),
            _ => Err(self.wrong(name, "an int")),
        }
    }

    pub fn float(&self, name: &str) -> Result<f64> {
        match self.get(name) {
            Value::Int(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            Value::Bool(b) => Ok(f64::from(u8::from(*b))),
            _ => Err(self.wrong(name, "a number")),
        }
    }

    pub fn bool(&self, name: &str) -> Result<bool> {
        match self.get(name) {
            Value::Bool(b) => Ok(*b),
            Value::Int(i) => Ok(*i != 0),
            Value::None => Ok(false),
            _ => Err(self.wrong(name, "a bool")),
        }
    }

    pub fn string(&self, name: &str) -> Result<String> {
        match self.get(name) {
            Value::Str(s) => Ok(s.to_string()),
            _ => Err(self.wrong(name, "a str")),
        }
    }

    pub fn opt_string(&self, name: &str) -> Result<Option<String>> {
        if self.is_none(name) {
            Ok(None)
        } else {
            self.string(name).map(Some)
        }
    }

    /// A dtype in any spelling Paddle accepts (SPEC §1.2).
    pub fn dtype(&self, name: &str) -> Result<VarKind> {
        match self.get(name) {
            Value::DType(k) => Ok(*k),
            Value::Str(s) => dtype_from_str(s).ok_or_else(|| {
                self.err(name, format!("unknown dtype '{s}'"))
                    .help("use 'float32', 'float64', 'int32', 'int64', 'bool', ... or core.VarDesc.VarType.X")
            }),
            _ => Err(self.wrong(name, "a dtype")),
        }
    }

    /// A list/tuple of ints, or one int.
    pub fn ints(&self, name: &str) -> Result<Vec<i64>> {
        match self.get(name) {
            Value::Int(i) => Ok(vec![*i]),
            other => match other.items() {
                Some(items) => items
                    .into_iter()
                    .map(|i| match i {
                        Value::Int(i) => Ok(i),
                        _ => Err(self.wrong(name, "a list of ints")),
                    })
                    .collect(),
                None => Err(self.wrong(name, "a list of ints")),
            },
        }
    }
}

/// Paddle's dtype strings (through numpy's names), and `'int'` = INT64.
pub fn dtype_from_str(s: &str) -> Option<VarKind> {
    Some(match s {
        "float32" | "float" => VarKind::Fp32,
        "float64" | "double" => VarKind::Fp64,
        "float16" => VarKind::Fp16,
        "bfloat16" => VarKind::Bf16,
        "int32" => VarKind::Int32,
        "int64" | "int" => VarKind::Int64,
        "int16" => VarKind::Int16,
        "int8" => VarKind::Int8,
        "uint8" => VarKind::Uint8,
        "bool" => VarKind::Bool,
        "complex64" => VarKind::Complex64,
        "complex128" => VarKind::Complex128,
        _ => return None,
    })
}

/// Matches arguments to a builtin's parameters.
pub fn bind(
    b: &'static Builtin,
    recv: Option<Value>,
    args: Vec<Value>,
    arg_spans: Vec<Range<usize>>,
    kwargs: Vec<(String, Value, Range<usize>)>,
    call: Range<usize>,
) -> Result<Args> {
    let n = b.params.len();
    let mut vals: Vec<Option<Value>> = vec![None; n];
    let mut spans = vec![call.clone(); n];
    let mut extra = Vec::new();
    let mut ignored = Vec::new();
    let short = b.name.rsplit('.').next().unwrap_or(b.name);
    for (i, (a, sp)) in args.into_iter().zip(arg_spans).enumerate() {
        // A varargs builtin (`print(*objects, sep=...)`) takes every positional
        // argument as a vararg; its parameters are keyword-only, as in Python.
        if b.rest == Rest::Varargs {
            extra.push(a);
        } else if i < n {
            vals[i] = Some(a);
            spans[i] = sp;
        } else {
            return Err(
                Diagnostic::new(sp, format!("{short}() takes {n} positional arguments"))
                    .help(signature(b)),
            );
        }
    }
    for (name, v, sp) in kwargs {
        match b.params.iter().position(|(p, _)| *p == name) {
            Some(i) if vals[i].is_some() => {
                return Err(Diagnostic::new(
                    sp,
                    format!("{short}() got multiple values for argument `{name}`"),
                ))
            }
            Some(i) => {
                vals[i] = Some(v);
                spans[i] = sp;
            }
            None if b.rest == Rest::IgnoreKwargs => ignored.push((name, sp)),
            None => {
                return Err(Diagnostic::new(
                    sp,
                    format!("{short}() got an unexpected keyword argument `{name}`"),
                )
                .help(signature(b)))
            }
        }
    }
    let mut out = Vec::with_capacity(n);
    for (i, v) in vals.into_iter().enumerate() {
        let (pname, default) = b.params[i];
        out.push(match (v, default) {
            (Some(v), _) => v,
            (None, D::Req) => {
                return Err(Diagnostic::new(
                    call,
                    format!("{short}() is missing the argument `{pname}`"),
                )
                .help(signature(b)))
            }
            (None, D::Nil) => Value::None,
            (None, D::Int(x)) => Value::Int(x),
            (None, D::Float(x)) => Value::Float(x),
            (None, D::Bool(x)) => Value::Bool(x),
            (None, D::Str(x)) => Value::str(x),
        });
    }
    Ok(Args {
        recv,
        vals: out,
        spans,
        call,
        b,
        extra,
        ignored,
    })
}

/// `name(a, b=1, ...)`, for help lines.
fn signature(b: &Builtin) -> String {
    let params: Vec<String> = b
        .params
        .iter()
        .map(|(p, d)| match d {
            D::Req => p.to_string(),
            D::Nil => format!("{p}=None"),
            D::Int(x) => format!("{p}={x}"),
            D::Float(x) => format!("{p}={x:?}"),
            D::Bool(x) => format!("{p}={}", if *x { "True" } else { "False" }),
            D::Str(x) => format!("{p}='{x}'"),
        })
        .collect();
    format!("the signature is {}({})", b.name, params.join(", "))
}

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
pub fn get_attr(interp: &mut Interp, obj: &Value, name: &str, sp: Range<usize>) -> Result<Value> {
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
pub fn enter(interp: &mut Interp, v: &Value, sp: Range<usize>) -> Result<(Value, Exit)> {
    control::enter(interp, v, sp)
}

pub fn exit(interp: &mut Interp, exit: Exit, sp: Range<usize>) -> Result<()> {
    control::exit(interp, exit, sp)
}

pub fn binary(
    interp: &mut Interp,
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

pub fn unary(interp: &mut Interp, op: UnaryOp, v: Value, sp: Range<usize>) -> Result<Value> {
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
    interp: &mut Interp,
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

/// The `Object` inside a receiver value, for method bodies.
pub fn recv_object(a: &Args) -> Rc<Object> {
    match &a.recv {
        Some(Value::Object(o)) => o.clone(),
        _ => unreachable!("methods are only bound to objects of their type"),
    }
}
