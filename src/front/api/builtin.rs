//! Builtins as data: a [`Builtin`] declares its Python signature (parameter
//! names and defaults) and [`bind`] matches a call's positional and keyword
//! arguments to it for every builtin, so "unexpected keyword argument" and
//! "missing argument" are produced in one place; a body then reads its
//! [`Args`]. Every `api` module declares its table with [`builtin!`].
use std::ops::Range;
use std::rc::Rc;

use fluidc_transpiler::VarKind;

use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Value, VarRef};

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
    /// Like [`Rest::Varargs`], and keywords the builtin does not declare
    /// go to [`Args::kwargs`] (`str.format(*args, **kwargs)`).
    VarargsKwargs,
}

/// One builtin: its paths, Python signature and body.
#[derive(Debug)]
pub struct Builtin {
    /// Dotted paths it is found under; the first is its name in messages.
    pub paths: &'static [&'static str],
    pub params: &'static [(&'static str, D)],
    pub rest: Rest,
    pub body: fn(&mut Host, &mut Args) -> Result<Value>,
    pub name: &'static str,
}

/// Declares a builtin: `builtin!(["fluid.layers.relu"], [("x", Req)], body)`.
macro_rules! builtin {
    ([$($path:expr),+], [$(($p:literal, $d:expr)),* $(,)?], $rest:expr, $body:expr) => {
        $crate::front::api::builtin::Builtin {
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
    /// A [`Rest::VarargsKwargs`] builtin's undeclared keywords.
    pub kwargs: Vec<(String, Value)>,
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
            // A numpy integer is an index (`__index__`), a numpy float is not.
            Value::NpScalar(x) => match x.item() {
                Ok(crate::host::Scalar::Int(i)) => Ok(i),
                Ok(crate::host::Scalar::Bool(b)) => Ok(i64::from(b)),
                _ => Err(self.wrong(name, "an int")),
            },
            _ => Err(self.wrong(name, "an int")),
        }
    }

    /// An int for an `int` attribute: Paddle stores those in 32 bits, so
    /// a larger one is an error, not a value wrapped into another.
    pub fn int32(&self, name: &str) -> Result<i32> {
        let v = self.int(name)?;
        i32::try_from(v).map_err(|_| {
            self.err(
                name,
                format!(
                    "`{name}` is {v}, out of range: Paddle keeps it as a 32-bit int, from {} to {}",
                    i32::MIN,
                    i32::MAX
                ),
            )
        })
    }

    pub fn float(&self, name: &str) -> Result<f64> {
        match self.get(name) {
            Value::Int(i) => Ok(*i as f64),
            Value::Float(f) => Ok(*f),
            Value::Bool(b) => Ok(f64::from(u8::from(*b))),
            Value::NpScalar(x) => x
                .item()
                .map(|v| v.as_f64())
                .map_err(|_| self.wrong(name, "a number")),
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
            // Python's types, as numpy reads them (`make_channel(dtype=bool)`).
            Value::Builtin(b, None) => match b.name {
                "builtins.bool" => Ok(VarKind::Bool),
                "builtins.int" => Ok(VarKind::Int64),
                "builtins.float" => Ok(VarKind::Fp64),
                _ => Err(self.wrong(name, "a dtype")),
            },
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

/// Calls the layer builtin at `path` with keyword arguments, for a layer
/// Paddle built out of other layers (`lstm_unit`, `fluid.nets`); errors
/// point at `call`.
pub fn call_layer(
    i: &mut Host,
    path: &str,
    kwargs: Vec<(&str, Value)>,
    call: &Range<usize>,
) -> Result<Value> {
    let Some(b) = super::lookup(path) else {
        return Err(Diagnostic::new(
            call.clone(),
            format!("`{path}` is not available"),
        ));
    };
    let kwargs = kwargs
        .into_iter()
        .map(|(k, v)| (k.to_string(), v, call.clone()))
        .collect();
    let mut bound = bind(b, None, Vec::new(), Vec::new(), kwargs, call.clone())?;
    (b.body)(i, &mut bound)
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
    let mut extra_kwargs = Vec::new();
    let short = b.name.rsplit('.').next().unwrap_or(b.name);
    for (i, (a, sp)) in args.into_iter().zip(arg_spans).enumerate() {
        // A varargs builtin (`print(*objects, sep=...)`) takes every positional
        // argument as a vararg; its parameters are keyword-only, as in Python.
        if matches!(b.rest, Rest::Varargs | Rest::VarargsKwargs) {
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
            None if b.rest == Rest::VarargsKwargs => extra_kwargs.push((name, v)),
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
        kwargs: extra_kwargs,
    })
}

/// `the signature is name(a, b=1, ...)`, for help lines.
fn signature(b: &Builtin) -> String {
    format!("the signature is {}", call_form(b, b.name))
}

/// `path(a, b=1, ...)`: how a builtin is called under one of its paths.
pub fn call_form(b: &Builtin, path: &str) -> String {
    let mut params: Vec<String> = b
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
    if matches!(b.rest, Rest::Varargs | Rest::VarargsKwargs) {
        params.insert(0, "*args".into());
    }
    if b.rest == Rest::VarargsKwargs {
        params.push("**kwargs".into());
    }
    format!("{path}({})", params.join(", "))
}

/// The `Object` inside a receiver value, for method bodies.
pub fn recv_object(a: &Args) -> Rc<Object> {
    match &a.recv {
        Some(Value::Object(o)) => o.clone(),
        _ => unreachable!("methods are only bound to objects of their type"),
    }
}
