//! The values the compile-time evaluator computes with: plain Python values,
//! program variables, and the fluid API's objects (programs, guards, ...).
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use fluidc_transpiler::VarKind;
use rustpython_parser::ast;

use super::api::builtin::Builtin;
pub use super::builder::VarRef;

mod class;
mod dict;
pub use class::{builtin_class, Class, Instance, Native, Root, EXCEPTIONS};
pub use dict::{Dict, Key, Unhashable};

/// A user function (`def` or `lambda`) with the scopes it closes over.
#[derive(Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<FnParam>,
    /// `*args` and `**kwargs`: the names that take the extra positional
    /// arguments (a tuple) and the extra keywords (a dict).
    pub vararg: Option<String>,
    pub kwarg: Option<String>,
    pub body: FnBody,
    pub closure: Vec<Rc<RefCell<Frame>>>,
    /// The class whose body defined it (a method), for `super()`.
    pub owner: RefCell<Option<std::rc::Weak<Class>>>,
    /// Its body yields: a call runs it to the end and gives the yielded
    /// values (fluidc's generators are eager).
    pub generator: bool,
    /// The global names of the module that defined it: the script's, or
    /// an imported sibling module's.
    pub globals: Rc<RefCell<Frame>>,
}

/// A sibling `.py` file the script imported (`import helper`): its global
/// names after its code ran once.
#[derive(Debug)]
pub struct UserModule {
    pub name: String,
    /// Its absolute path, Python's `__file__`.
    pub file: String,
    pub globals: Rc<RefCell<Frame>>,
}

#[derive(Debug)]
pub struct FnParam {
    pub name: String,
    pub default: Option<Value>,
    pub kw_only: bool,
}

#[derive(Debug)]
pub enum FnBody {
    Def(Rc<Vec<ast::Stmt>>),
    Lambda(Rc<ast::Expr>),
}

/// One scope of Python names.
#[derive(Debug, Default)]
pub struct Frame {
    pub names: std::collections::HashMap<String, Value>,
    pub globals_declared: Vec<String>,
    /// A class body's scope: the functions defined in it do not see it.
    pub is_class: bool,
}

/// A tensor on the host with its LoD ([`Object::DenseTensor`]).
#[derive(Debug, Default, Clone)]
pub struct HostTensor {
    /// `None` until `set` gives a fresh `fluid.LoDTensor()` its data.
    pub array: Option<Rc<crate::host::HostArray>>,
    /// LoD offsets, level by level (`[[0, 3, 5]]`).
    pub lod: Vec<Vec<usize>>,
    /// The (scope, variable) this tensor is, for
    /// `scope.find_var(name).get_tensor()`: Paddle gives the variable
    /// itself, so `set` writes through to the scope and each run refreshes
    /// the tensor ([`crate::front::run::RunMode::view`]).
    pub view: Option<(usize, String)>,
}

/// An object of the fluid API; the mutable ones carry their state inside.
#[derive(Debug)]
pub enum Object {
    Program(usize),
    Block {
        program: usize,
        block: usize,
    },
    /// Op `index` of a block (`block.ops[index]`).
    Operator {
        program: usize,
        block: usize,
        index: usize,
    },
    Executor,
    Place,
    /// A `LayerHelper(layer_type)` and the name it generated (`scale_0`),
    /// which its temporaries extend (`scale_0.tmp_0`).
    LayerHelper {
        layer_type: String,
        name: String,
    },
    ProgramGuard {
        main: usize,
        startup: Option<usize>,
    },
    While {
        cond: VarRef,
        is_test: bool,
    },
    /// What `with w.block():` / `with cb.block():` / `with switch.case(c):` enter.
    BlockGuard(RefCell<BlockGuard>),
    ConditionalBlock {
        inputs: Vec<VarRef>,
        is_scalar: bool,
    },
    Switch(RefCell<SwitchState>),
    Select(RefCell<SelectState>),
    SelectCase(RefCell<CaseState>),
    UniqueNameGuard,
    /// A `unittest.TestCase`-like namespace; only its assert methods exist.
    Other(&'static str),
    /// `scope.find_var(name)`: a variable of scope N (0: the global scope).
    ScopeVar(usize, String),
    /// `fluid.global_scope()` (0) or a `fluid.Scope()`.
    Scope(usize),
    /// `fluid.scope_guard(scope)`: runs use that scope while it is entered.
    ScopeGuard(usize),
    /// Paddle's DenseTensor (1.x's LoDTensor): a fetched value with
    /// `return_numpy=False`, `fluid.create_lod_tensor`, `fluid.LoDTensor()`.
    DenseTensor(RefCell<HostTensor>),
    ParamAttr(crate::front::api::param::ParamAttr),
    Initializer(crate::front::api::param::Init),
    Regularizer(crate::front::api::param::Regularizer),
    Optimizer(crate::front::api::optimizer::Optimizer),
    GradientClip(crate::front::api::clip::Clip),
    /// `numpy.random.RandomState(seed)`: a generator of its own.
    RandomState(RefCell<crate::host::random::RandomState>),
    /// `fluid.DataFeeder(feed_list, place)`: what each slot converts to.
    DataFeeder(Vec<crate::front::api::reader::FeedSlot>),
    /// `fluid.layers.StaticRNN()`: what its `step()` block has built so far.
    StaticRnn(RefCell<crate::front::api::rnn::RnnState>),
    DynamicRnn(RefCell<crate::front::api::dyn_rnn::DynRnnState>),
    /// `argparse.ArgumentParser(...)` and one of its argument groups.
    ArgParser(RefCell<crate::front::eval::argparse::Parser>),
    ArgGroup(crate::front::eval::argparse::Group),
}

/// Which construct a block guard completes on exit.
#[derive(Debug, Clone)]
pub enum GuardKind {
    While {
        cond: VarRef,
        is_test: bool,
    },
    Conditional {
        inputs: Vec<VarRef>,
        is_scalar: bool,
    },
    Go,
    /// A `StaticRNN`'s step block or a `DynamicRNN`'s block: leaving it
    /// finishes the loop.
    Rnn(Rc<Object>),
}

#[derive(Debug)]
pub struct BlockGuard {
    pub kind: GuardKind,
    /// The block created on enter (program, block).
    pub entered: Option<(usize, usize)>,
}

#[derive(Debug, Default)]
pub struct SwitchState {
    pub pre_not_conditions: Vec<VarRef>,
    pub has_default: bool,
    pub inside: bool,
}

/// A select statement being built (SPEC §4: the high-level node).
#[derive(Debug, Default)]
pub struct SelectState {
    pub program: usize,
    /// The block the select op goes into.
    pub block: usize,
    pub entered: bool,
    /// The `with` block of the select has ended.
    pub closed: bool,
    /// Cases are numbered in the order `case()`/`default()` create them.
    pub next_index: usize,
    pub cases: Vec<SelectCaseInfo>,
    pub has_default: bool,
}

#[derive(Debug, Clone)]
pub struct SelectCaseInfo {
    pub index: usize,
    /// 0 default, 1 send, 2 receive (Paddle's numbering).
    pub kind: i32,
    pub channel: Option<VarRef>,
    pub value: Option<VarRef>,
    pub body: Option<usize>,
}

#[derive(Debug)]
pub struct CaseState {
    pub select: Rc<Object>,
    pub info: SelectCaseInfo,
}

/// A value at compile time.
#[derive(Debug, Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<[Value]>),
    Dict(Rc<RefCell<Dict>>),
    Range {
        start: i64,
        stop: i64,
        step: i64,
    },
    Var(VarRef),
    Function(Rc<Function>),
    /// A builtin, bound to its receiver for a method.
    Builtin(&'static Builtin, Option<Rc<Value>>),
    /// An imported module or a namespace in one (`fluid.layers`, `core.VarDesc.VarType`).
    Module(&'static str),
    /// A sibling `.py` module the script imported.
    UserModule(Rc<UserModule>),
    DType(VarKind),
    Object(Rc<Object>),
    /// Known only when the program runs (what `exe.run` returns when the
    /// script is compiled rather than run).
    RunTime,
    /// A numpy array on the host (run mode's fetched values, numpy calls),
    /// of any rank (a fetched 0-d tensor is a 0-d array, as Paddle returns).
    Array(Rc<crate::host::HostArray>),
    /// A numpy scalar (`np.float32(1.5)`: an element, a full reduction),
    /// held as a 0-d array; it prints as numpy prints scalars.
    NpScalar(Rc<crate::host::HostArray>),
    /// A class (`class Foo:`, a built-in exception, `unittest.TestCase`).
    Class(Rc<Class>),
    /// An instance of a class.
    Instance(Rc<Instance>),
    /// A function bound to its first argument (`obj.method`, a classmethod).
    Method(Rc<Value>, Rc<Value>),
    /// A callable the evaluator implements, bound to its receiver.
    Native(Rc<Native>, Option<Rc<Value>>),
    /// `super()`: attributes are looked up after the class, bound to the object.
    Super(Rc<Class>, Rc<Value>),
    /// The result of an expression that failed; its error is reported once.
    Poison,
}

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }

    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::from(items))
    }

    pub fn object(o: Object) -> Value {
        Value::Object(Rc::new(o))
    }

    /// The Python type name, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(_) => "dict",
            Value::Range { .. } => "range",
            Value::Var(_) => "Variable",
            Value::Function(_) => "function",
            Value::Builtin(..) => "builtin function",
            Value::Module(_) | Value::UserModule(_) => "module",
            Value::DType(_) => "dtype",
            Value::Object(o) => match o.as_ref() {
                Object::Program(_) => "Program",
                Object::Block { .. } => "Block",
                Object::Operator { .. } => "Operator",
                Object::Executor => "Executor",
                Object::Place => "CPUPlace",
                Object::LayerHelper { .. } => "LayerHelper",
                Object::ProgramGuard { .. } => "program_guard",
                Object::While { .. } => "While",
                Object::BlockGuard(_) => "BlockGuard",
                Object::ConditionalBlock { .. } => "ConditionalBlock",
                Object::Switch(_) => "Switch",
                Object::Select(_) => "Select",
                Object::SelectCase(_) => "SelectCase",
                Object::UniqueNameGuard => "unique_name.guard",
                Object::Other(n) => n,
                Object::ScopeVar(..) => "ScopeVar",
                Object::Scope(_) => "Scope",
                Object::ScopeGuard(_) => "scope_guard",
                Object::DenseTensor(_) => "DenseTensor",
                Object::ParamAttr(_) => "ParamAttr",
                Object::Initializer(_) => "Initializer",
                Object::Regularizer(_) => "WeightDecayRegularizer",
                Object::Optimizer(_) => "Optimizer",
                Object::RandomState(_) => "RandomState",
                Object::DataFeeder(_) => "DataFeeder",
                Object::GradientClip(_) => "GradientClip",
                Object::ArgParser(_) => "ArgumentParser",
                Object::ArgGroup(_) => "_ArgumentGroup",
                Object::StaticRnn(_) => "StaticRNN",
                Object::DynamicRnn(_) => "DynamicRNN",
            },
            Value::RunTime => "run-time value",
            Value::Array(_) => "ndarray",
            Value::NpScalar(a) => a.dtype().name(),
            Value::Class(_) => "type",
            Value::Instance(_) => "object",
            Value::Method(..) => "method",
            Value::Native(..) => "builtin function",
            Value::Super(..) => "super",
            Value::Poison => "error",
        }
    }

    /// Python truthiness for plain values; `None` for values only known at run time.
    pub fn truthy(&self) -> Option<bool> {
        Some(match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Instance(i) if i.is_namedtuple() => !i.class.namedtuple_fields().is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            Value::Range { start, stop, step } => range_len(*start, *stop, *step) > 0,
            // numpy: the truth of a one-element array; others are an error.
            Value::Array(a) | Value::NpScalar(a) => return a.truthy().ok(),
            Value::Var(_) | Value::RunTime | Value::Poison => return None,
            _ => true,
        })
    }

    /// How many items [`Value::items`] would give, without building them.
    pub fn item_count(&self) -> Option<usize> {
        Some(match self {
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Instance(i) => return i.tuple_items().map(|t| t.len()),
            Value::Dict(d) => d.borrow().len(),
            Value::Str(s) => s.chars().count(),
            Value::Range { start, stop, step } => {
                usize::try_from(range_len(*start, *stop, *step)).unwrap_or(usize::MAX)
            }
            _ => return None,
        })
    }

    /// Items of an iterable plain value.
    pub fn items(&self) -> Option<Vec<Value>> {
        if let Value::Array(x) = self {
            return crate::front::api::numpy::rows(x);
        }
        Some(match self {
            Value::List(l) => l.borrow().clone(),
            Value::Tuple(t) => t.to_vec(),
            Value::Instance(i) => return i.tuple_items(),
            Value::Dict(d) => d.borrow().keys().cloned().collect(),
            Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
            Value::Range { start, stop, step } => {
                let n = range_len(*start, *stop, *step);
                if n as u64 > MAX_ITEMS as u64 {
                    return None;
                }
                // Every item lies between start and stop, so this cannot overflow.
                (0..n).map(|i| Value::Int(start + i * step)).collect()
            }
            _ => return None,
        })
    }
}

/// The number of items of `range(start, stop, step)` (no overflow: i128).
pub fn range_len(start: i64, stop: i64, step: i64) -> i64 {
    let (start, stop, step) = (i128::from(start), i128::from(stop), i128::from(step));
    let n = if step > 0 && stop > start {
        (stop - start + step - 1) / step
    } else if step < 0 && stop < start {
        (start - stop - step - 1) / -step
    } else {
        0
    };
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The largest list, string or unrolled loop a script may build at compile
/// time; beyond it the script gets a diagnostic instead of exhausting memory.
pub const MAX_ITEMS: usize = 10_000_000;

/// Python's `repr`/`str` of plain values, for f-strings, `%` and `print`.
pub struct Show<'a>(pub &'a Value, pub bool);

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Show(v, repr) = *self;
        let seq = |f: &mut fmt::Formatter<'_>, items: &[Value], open: &str, close: &str| {
            f.write_str(open)?;
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{}", Show(it, true))?;
            }
            if open == "(" && items.len() == 1 {
                f.write_str(",")?;
            }
            f.write_str(close)
        };
        match v {
            Value::None => f.write_str("None"),
            Value::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => f.write_str(&py_float(*x)),
            Value::Str(s) if repr => f.write_str(&py_str_repr(s)),
            Value::Str(s) => f.write_str(s),
            Value::List(l) => shown_once(f, Rc::as_ptr(l) as usize, "[...]", |f| {
                seq(f, &l.borrow(), "[", "]")
            }),
            Value::Tuple(t) => seq(f, t, "(", ")"),
            Value::Dict(d) if d.borrow().ordered => {
                shown_once(f, Rc::as_ptr(d) as usize, "...", |f| {
                    let d = d.borrow();
                    if d.is_empty() {
                        return f.write_str("OrderedDict()");
                    }
                    f.write_str("OrderedDict([")?;
                    for (i, (k, v)) in d.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        write!(f, "({}, {})", Show(k, true), Show(v, true))?;
                    }
                    f.write_str("])")
                })
            }
            Value::Dict(d) => shown_once(f, Rc::as_ptr(d) as usize, "{...}", |f| {
                f.write_str("{")?;
                for (i, (k, v)) in d.borrow().iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{}: {}", Show(k, true), Show(v, true))?;
                }
                f.write_str("}")
            }),
            Value::Range { start, stop, step } => write!(f, "range({start}, {stop}, {step})"),
            Value::Var(v) => write!(f, "Variable({})", v.name),
            Value::DType(k) => write!(f, "VarType.{}", k.as_str_name()),
            Value::Module(m) => write!(f, "<module '{m}'>"),
            Value::UserModule(m) => write!(f, "<module '{}' from '{}'>", m.name, m.file),
            Value::Function(func) => write!(f, "<function {}>", func.name),
            Value::Builtin(b, _) => write!(f, "<built-in {}>", b.name),
            Value::RunTime => f.write_str("<known when the program runs>"),
            // numpy's str at the top of a print, its repr inside containers.
            Value::Array(a) if repr => f.write_str(&crate::host::array_repr(a)),
            Value::Array(a) => f.write_str(&crate::host::array_str(a)),
            Value::NpScalar(a) if repr => f.write_str(&crate::host::scalar_repr(a)),
            Value::NpScalar(a) => f.write_str(&crate::host::scalar_str(a)),
            Value::Object(o) => match o.as_ref() {
                Object::DenseTensor(t) => {
                    f.write_str(&crate::front::run::dense_tensor_text(&t.borrow()))
                }
                _ => write!(f, "<{}>", self.0.type_name()),
            },
            Value::Class(c) => f.write_str(&c.repr()),
            Value::Instance(i) if i.class.root == Root::Exception => {
                let args = i.args();
                if repr {
                    let items: Vec<String> =
                        args.iter().map(|a| Show(a, true).to_string()).collect();
                    return write!(f, "{}({})", i.class.name, items.join(", "));
                }
                match args.as_slice() {
                    [] => Ok(()),
                    [one] => write!(f, "{}", Show(one, false)),
                    more => seq(f, more, "(", ")"),
                }
            }
            Value::Instance(i) if i.is_namedtuple() => {
                // `Point(x=1, y=2)`, for str and repr alike.
                let attrs = i.attrs.borrow();
                let fields: Vec<String> = i
                    .class
                    .namedtuple_fields()
                    .iter()
                    .map(|n| {
                        let v = attrs.get(n).cloned().unwrap_or(Value::None);
                        format!("{n}={}", Show(&v, true))
                    })
                    .collect();
                write!(f, "{}({})", i.class.name, fields.join(", "))
            }
            Value::Instance(i) => match crate::front::eval::argparse::namespace_repr(i) {
                Some(text) => f.write_str(&text),
                None => write!(f, "<{}.{} object>", i.class.module, i.class.name),
            },
            Value::Method(func, recv) => write!(
                f,
                "<bound method {} of {}>",
                Show(func, true),
                Show(recv, true)
            ),
            other => write!(f, "<{}>", other.type_name()),
        }
    }
}

thread_local! {
    /// The lists and dicts being shown now, by address.
    static SHOWING: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Shows a list or dict with `body`, or as `ellipsis` inside itself: a
/// list that contains itself is `[[...]]`, as Python's repr gives it,
/// rather than a recursion that overflows the stack.
fn shown_once(
    f: &mut fmt::Formatter<'_>,
    addr: usize,
    ellipsis: &str,
    body: impl FnOnce(&mut fmt::Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    if SHOWING.with(|s| s.borrow().contains(&addr)) {
        return f.write_str(ellipsis);
    }
    SHOWING.with(|s| s.borrow_mut().push(addr));
    let shown = body(f);
    SHOWING.with(|s| s.borrow_mut().pop());
    shown
}

/// Python's `repr` of a string: single quotes unless the string has a
/// single quote and no double one; backslash escapes for the quote,
/// backslashes and control characters.
pub fn py_str_repr(s: &str) -> String {
    let q = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(q);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == q => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(q);
    out
}

/// Python's float repr: `1.0`, `0.1`, `1e-05`.
pub fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let s = format!("{x:?}");
    match s.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map(|d| ('-', d)).unwrap_or(('+', e));
            format!("{}e{sign}{digits:0>2}", m.trim_end_matches(".0"))
        }
        None => s,
    }
}
