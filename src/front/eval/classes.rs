//! Classes (`class` statements, instances, methods, `super()`), the
//! built-in names that see them (`isinstance`, `getattr`, ...), and the
//! small Python modules the evaluator implements itself: `math`, `time`,
//! `os.path`, `functools`, `collections`, and `sys.exit`/`sys.argv`.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use rustpython_parser::ast;

use super::argparse::{self, strtobool};
use super::{Eval, Flow};
use crate::front::api;
use crate::front::diag::{Diagnostic, Result};
use crate::front::parse::span;
use crate::front::value::{
    builtin_class, Class, Dict, Frame, Instance, Native, Object, Root, Show, Value, EXCEPTIONS,
};

/// Built-in names the evaluator implements: the exception classes,
/// `object`, and the functions that need classes or calls back into the
/// script.
pub fn builtin_name(name: &str) -> Option<Value> {
    if name == "object" || EXCEPTIONS.iter().any(|(n, _)| *n == name) {
        return builtin_class(name).map(Value::Class);
    }
    const NATIVE: &[&str] = &[
        "super",
        "classmethod",
        "staticmethod",
        "isinstance",
        "issubclass",
        "getattr",
        "hasattr",
        "setattr",
        "callable",
        "next",
        "iter",
        "map",
        "filter",
        "any",
        "all",
        "set",
        "frozenset",
        "vars",
        "type",
    ];
    NATIVE.iter().find(|n| **n == name).map(|n| native(n, None))
}

/// Python's `tempfile.gettempdir()`: `$TMPDIR`, else `/tmp`.
fn temp_dir() -> String {
    std::env::var("TMPDIR")
        .ok()
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| "/tmp".into())
        .trim_end_matches('/')
        .to_string()
}

/// An I/O error as Python raises it: `FileNotFoundError: [Errno 2] No such
/// file or directory: 'path'`.
fn os_error(e: &std::io::Error, path: &str) -> String {
    use std::io::ErrorKind as K;
    let class = match e.kind() {
        K::NotFound => "FileNotFoundError",
        K::AlreadyExists => "FileExistsError",
        K::PermissionDenied => "PermissionError",
        _ => "OSError",
    };
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    match e.raw_os_error() {
        Some(n) => format!("{class}: [Errno {n}] {text}: '{path}'"),
        None => format!("{class}: {text}: '{path}'"),
    }
}

fn native(name: &'static str, recv: Option<Value>) -> Value {
    Value::Native(Rc::new(Native::Method(name)), recv.map(Rc::new))
}

/// The modules the evaluator implements (beyond the ones `api` knows).
pub const OWN_MODULES: &[&str] = &[
    "math",
    "time",
    "functools",
    "collections",
    "os.path",
    "sys.stdout",
    "sys.stderr",
    "argparse",
    "distutils",
    "distutils.util",
    "six",
    "six.moves",
    "copy",
    "paddle.compat",
    "contextlib",
    "shutil",
    "tempfile",
];

const MATH: &[&str] = &[
    "sqrt", "exp", "log", "log10", "log2", "floor", "ceil", "fabs", "pow", "sin", "cos", "tan",
    "tanh", "atan", "asin", "acos", "isnan", "isinf", "isfinite",
];

/// The `unittest.TestCase` methods fluidc implements.
pub const TESTCASE_METHODS: &[&str] = &[
    "assertEqual",
    "assertEquals",
    "assertNotEqual",
    "assertTrue",
    "assert_",
    "assertFalse",
    "assertAlmostEqual",
    "assertAlmostEquals",
    "assertNotAlmostEqual",
    "assertIn",
    "assertNotIn",
    "assertIs",
    "assertIsNot",
    "assertIsNone",
    "assertIsNotNone",
    "assertIsInstance",
    "assertGreater",
    "assertGreaterEqual",
    "assertLess",
    "assertLessEqual",
    "assertListEqual",
    "assertTupleEqual",
    "assertDictEqual",
    "assertSequenceEqual",
    "assertRaises",
    "fail",
    "skipTest",
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
];

/// Whether `t` is one of the evaluator's own names that needs an
/// `&'static str` (natives are named by static strings).
fn static_name(list: &'static [&'static str], t: &str) -> Option<&'static str> {
    list.iter().find(|n| **n == t).copied()
}

impl Eval<'_> {
    /// `module.name` for the names the evaluator implements.
    pub(super) fn special_attr(&mut self, module: &str, name: &str) -> Option<Value> {
        let num = |x: f64| Some(Value::Float(x));
        match (module, name) {
            ("unittest", "TestCase") => builtin_class("TestCase").map(Value::Class),
            ("unittest", "main") => Some(native("unittest.main", None)),
            ("unittest", "SkipTest") => builtin_class("SkipTest").map(Value::Class),
            ("unittest", n @ ("skip" | "skipIf" | "skipUnless")) => {
                static_name(&["skip", "skipIf", "skipUnless"], n)
                    .map(|n| native(n, Some(Value::Module("unittest"))))
            }
            ("sys", "exit") => Some(native("sys.exit", None)),
            ("sys", "argv") => Some(Value::list(
                self.st.argv.iter().map(|a| Value::str(a)).collect(),
            )),
            ("sys", "stdout") => Some(Value::Module("sys.stdout")),
            ("sys", "stderr") => Some(Value::Module("sys.stderr")),
            ("sys", "version_info") => Some(Value::tuple(vec![
                Value::Int(3),
                Value::Int(11),
                Value::Int(0),
            ])),
            ("sys", "maxsize") => Some(Value::Int(i64::MAX)),
            ("sys.stdout", "write") => Some(native("sys.stdout.write", None)),
            ("sys.stderr", "write") => Some(native("sys.stderr.write", None)),
            ("sys.stdout" | "sys.stderr", "flush") => Some(native("flush", None)),
            ("os", "path") => Some(Value::Module("os.path")),
            ("os", "listdir") => Some(native("os.listdir", None)),
            ("shutil", "rmtree") => Some(native("shutil.rmtree", None)),
            ("tempfile", n) => static_name(
                &["tempfile.mkdtemp", "tempfile.gettempdir"],
                &format!("tempfile.{n}"),
            )
            .map(|n| native(n, None)),
            ("os", "sep") | ("os.path", "sep") => Some(Value::str("/")),
            ("os.path", n) => static_name(
                &[
                    "join",
                    "exists",
                    "isfile",
                    "isdir",
                    "dirname",
                    "basename",
                    "abspath",
                    "splitext",
                    "expanduser",
                ],
                n,
            )
            .map(|n| native(n, Some(Value::Module("os.path")))),
            ("math", "pi") => num(std::f64::consts::PI),
            ("math", "e") => num(std::f64::consts::E),
            ("math", "inf") => num(f64::INFINITY),
            ("math", "nan") => num(f64::NAN),
            ("math", n) => static_name(MATH, n).map(|n| native(n, Some(Value::Module("math")))),
            ("time", n) => static_name(&["time", "sleep", "perf_counter", "clock"], n)
                .map(|n| native(n, Some(Value::Module("time")))),
            ("paddle", "compat") => Some(Value::Module("paddle.compat")),
            ("paddle.compat", n) => static_name(
                &[
                    "to_text",
                    "to_bytes",
                    "get_exception_message",
                    "floor_division",
                    "round",
                ],
                n,
            )
            .map(|n| native(n, Some(Value::Module("paddle.compat")))),
            ("contextlib", "contextmanager") => Some(native("contextlib.contextmanager", None)),
            ("copy", "copy") => Some(native("copy.copy", None)),
            ("copy", "deepcopy") => Some(native("copy.deepcopy", None)),
            ("functools", "partial") => Some(native("functools.partial", None)),
            ("functools", "reduce") => Some(native("functools.reduce", None)),
            ("collections", "OrderedDict") => Some(native("collections.OrderedDict", None)),
            ("collections", "defaultdict") => Some(native("collections.defaultdict", None)),
            ("collections", "namedtuple") => Some(native("collections.namedtuple", None)),
            ("argparse", "ArgumentParser") => Some(native("argparse.ArgumentParser", None)),
            ("argparse", "Namespace") => Some(Value::Class(argparse::namespace_class())),
            ("argparse", "SUPPRESS") => Some(Value::str(argparse::SUPPRESS)),
            ("argparse", n) if argparse::Formatter::CLASSES.contains(&n) => {
                builtin_class(n).map(Value::Class)
            }
            ("distutils", "util") => Some(Value::Module("distutils.util")),
            ("distutils.util", "strtobool") => Some(native("strtobool", None)),
            ("six", "moves") => Some(Value::Module("six.moves")),
            ("six", "PY2") => Some(Value::Bool(false)),
            ("six", "PY3") => Some(Value::Bool(true)),
            ("six", n) => static_name(&["iteritems", "iterkeys", "itervalues"], n)
                .map(|n| native(n, Some(Value::Module("six")))),
            ("six.moves", "xrange" | "range") => api::python_builtin("range"),
            ("six.moves", n @ ("zip" | "map" | "filter" | "input")) => {
                api::python_builtin(n).or_else(|| builtin_name(n))
            }
            ("six.moves", "reduce") => Some(native("functools.reduce", None)),
            _ => None,
        }
    }

    pub(super) fn class_def(&mut self, c: &ast::StmtClassDef) {
        if let Some(k) = c.keywords.first() {
            self.report(
                Diagnostic::new(span(k), "class keywords (metaclass=...) are not supported")
                    .help("define the class with one base class"),
            );
            return;
        }
        let base = match c.bases.as_slice() {
            [] => builtin_class("object"),
            [b] => match self.expr(b) {
                Value::Class(k) => Some(k),
                Value::Poison => return,
                other => {
                    self.report(Diagnostic::new(
                        span(b),
                        format!("a class's base must be a class, not {}", other.type_name()),
                    ));
                    return;
                }
            },
            [_, second, ..] => {
                self.report(
                    Diagnostic::new(
                        span(second),
                        "multiple inheritance is not supported by fluidc",
                    )
                    .help("give the class one base class"),
                );
                return;
            }
        };
        let root = base.as_ref().map_or(Root::Object, |b| b.root);
        let frame = Rc::new(RefCell::new(Frame {
            is_class: true,
            ..Frame::default()
        }));
        self.st.scopes.push(frame.clone());
        let flow = self.block(&c.body);
        self.st.scopes.pop();
        if let Flow::Return(_) | Flow::Raise = flow {
            return;
        }
        let module = match self.st.globals.borrow().names.get("__name__") {
            Some(Value::Str(m)) => m.to_string(),
            _ => "__main__".to_string(),
        };
        let class = Class::new(c.name.as_str(), &module, base, root);
        let mut names: Vec<(String, Value)> = frame.borrow_mut().names.drain().collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, v) in names {
            let f = match &v {
                Value::Function(f) => Some(f.clone()),
                Value::Native(n, _) => match n.as_ref() {
                    Native::ClassMethod(Value::Function(f))
                    | Native::StaticMethod(Value::Function(f)) => Some(f.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(f) = f {
                *f.owner.borrow_mut() = Some(Rc::downgrade(&class));
            }
            class.attrs.borrow_mut().insert(name, v);
        }
        // Class decorators (`@unittest.skipIf(...)`), innermost first.
        let mut value = Value::Class(class);
        for d in c.decorator_list.iter().rev() {
            let decorator = self.expr(d);
            if matches!(decorator, Value::Poison) {
                value = Value::Poison;
                break;
            }
            value = match self.call(decorator, vec![value], vec![span(d)], Vec::new(), span(d)) {
                Ok(v) => v,
                Err(e) => {
                    self.report(e);
                    Value::Poison
                }
            };
        }
        self.set_name(c.name.as_str(), value);
    }

    /// An attribute found on a class, bound to `obj` as Python binds it.
    fn bind(&self, v: Value, obj: &Value, class: &Rc<Class>) -> Value {
        match &v {
            Value::Function(_) if !matches!(obj, Value::Class(_)) => {
                Value::Method(Rc::new(v), Rc::new(obj.clone()))
            }
            Value::Native(n, _) => match n.as_ref() {
                Native::ClassMethod(f) => {
                    Value::Method(Rc::new(f.clone()), Rc::new(Value::Class(class.clone())))
                }
                Native::StaticMethod(f) => f.clone(),
                // A contextmanager method: bound to the instance like the
                // function it wraps.
                Native::ContextManager(_) if !matches!(obj, Value::Class(_)) => {
                    Value::Native(n.clone(), Some(Rc::new(obj.clone())))
                }
                _ => v,
            },
            _ => v,
        }
    }

    /// A method of the built-in class `root` under `name`, bound to `obj`.
    fn root_method(&self, root: Root, name: &str, obj: &Value) -> Option<Value> {
        let n = match (root, name) {
            (Root::TestCase, n) => static_name(TESTCASE_METHODS, n)?,
            (Root::Exception, "__init__") => "BaseException.__init__",
            (Root::NamedTuple, "_replace") => "namedtuple._replace",
            (Root::NamedTuple, "_asdict") => "namedtuple._asdict",
            (_, "__init__") => "object.__init__",
            _ => return None,
        };
        Some(native(n, Some(obj.clone())))
    }

    /// `obj.name` for classes, instances, `super()` and the evaluator's own
    /// modules; `None` for the values `api` knows.
    pub(super) fn get_attr_ext(
        &mut self,
        obj: &Value,
        name: &str,
        sp: Range<usize>,
    ) -> Option<Result<Value>> {
        Some(match obj {
            Value::UserModule(m) => self.user_module_attr(m, name, sp),
            Value::Module(m) => match self.special_attr(m, name) {
                Some(v) => Ok(v),
                None if OWN_MODULES.contains(m) => Err(Diagnostic::new(
                    sp,
                    format!("module `{m}` has no `{name}` that fluidc knows"),
                )),
                None => return None,
            },
            Value::Instance(i) => {
                if let Some(v) = i.attrs.borrow().get(name) {
                    return Some(Ok(v.clone()));
                }
                if name == "__class__" {
                    return Some(Ok(Value::Class(i.class.clone())));
                }
                if name == "code" && i.class.mro().iter().any(|c| c.name == "SystemExit") {
                    return Some(Ok(i.args().first().cloned().unwrap_or(Value::None)));
                }
                match i.class.lookup(name) {
                    Some((v, _)) => Ok(self.bind(v, obj, &i.class)),
                    None => match self.root_method(i.class.root, name, obj) {
                        Some(v) => Ok(v),
                        None => Err(Diagnostic::new(
                            sp,
                            format!(
                                "AttributeError: '{}' object has no attribute '{name}'",
                                i.class.name
                            ),
                        )),
                    },
                }
            }
            Value::Class(c) => {
                if name == "__name__" {
                    return Some(Ok(Value::str(&c.name)));
                }
                match c.lookup(name) {
                    Some((v, _)) => Ok(self.bind(v, obj, c)),
                    None => match self.root_method(c.root, name, obj) {
                        Some(v) => Ok(v),
                        None => Err(Diagnostic::new(
                            sp,
                            format!(
                                "AttributeError: type object '{}' has no attribute '{name}'",
                                c.name
                            ),
                        )),
                    },
                }
            }
            Value::Super(c, o) => {
                let found = c
                    .mro()
                    .into_iter()
                    .skip(1)
                    .find_map(|k| k.attrs.borrow().get(name).cloned());
                match found {
                    Some(v) => Ok(self.bind(v, o, c)),
                    None => match self.root_method(c.root, name, o) {
                        Some(v) => Ok(v),
                        None => Err(Diagnostic::new(
                            sp,
                            format!("AttributeError: 'super' object has no attribute '{name}'"),
                        )),
                    },
                }
            }
            Value::Builtin(b, None) if name == "__name__" => {
                Ok(Value::str(b.name.rsplit('.').next().unwrap_or(b.name)))
            }
            Value::Function(f) if name == "__name__" => Ok(Value::str(&f.name)),
            Value::Native(n, _) if name == "__name__" => match n.as_ref() {
                Native::Method(m) => Ok(Value::str(m.rsplit('.').next().unwrap_or(m))),
                _ => return None,
            },
            Value::Object(o) if matches!(o.as_ref(), Object::ArgParser(_) | Object::ArgGroup(_)) => {
                match static_name(argparse::METHODS, name) {
                    Some(n) => Ok(native(n, Some(obj.clone()))),
                    None => Err(Diagnostic::new(
                        sp,
                        format!(
                            "AttributeError: '{}' object has no attribute '{name}' that fluidc knows",
                            obj.type_name()
                        ),
                    )
                    .help(format!("fluidc's ArgumentParser has {}", argparse::METHODS.join(", ")))),
                }
            }
            _ => return None,
        })
    }

    /// `obj.name = v` on instances and classes; false for other values.
    pub(super) fn set_attr_ext(&mut self, obj: &Value, name: &str, v: &Value) -> bool {
        match obj {
            Value::Instance(i) => {
                i.attrs.borrow_mut().insert(name.to_string(), v.clone());
                true
            }
            Value::Class(c) => {
                c.attrs.borrow_mut().insert(name.to_string(), v.clone());
                true
            }
            Value::UserModule(m) => {
                m.globals
                    .borrow_mut()
                    .names
                    .insert(name.to_string(), v.clone());
                true
            }
            _ => false,
        }
    }

    /// Calls of classes, bound methods and natives; `None` for the values
    /// `call` handles itself.
    pub(super) fn call_ext(
        &mut self,
        func: &Value,
        args: &[Value],
        arg_spans: &[Range<usize>],
        kwargs: &[(String, Value, Range<usize>)],
        sp: &Range<usize>,
    ) -> Option<Result<Value>> {
        let sp = sp.clone();
        Some(match func {
            Value::Class(c) => self.instantiate(c, args, arg_spans, kwargs, sp),
            Value::Method(f, recv) => {
                let mut all = Vec::with_capacity(args.len() + 1);
                all.push((**recv).clone());
                all.extend(args.iter().cloned());
                let mut spans = vec![sp.clone()];
                spans.extend(arg_spans.iter().cloned());
                self.call((**f).clone(), all, spans, kwargs.to_vec(), sp)
            }
            Value::Native(n, recv) => {
                let recv = recv.as_deref().cloned();
                self.call_native(n, recv, args, arg_spans, kwargs, sp)
            }
            _ => return None,
        })
    }

    fn instantiate(
        &mut self,
        c: &Rc<Class>,
        args: &[Value],
        arg_spans: &[Range<usize>],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        if c.root == Root::NamedTuple && c.lookup("__init__").is_none() {
            return self.new_namedtuple(c, args, kwargs, sp);
        }
        let inst = Instance::new(c.clone());
        if c.root == Root::Exception {
            inst.attrs
                .borrow_mut()
                .insert("args".into(), Value::tuple(args.to_vec()));
        }
        let obj = Value::Instance(inst);
        match c.lookup("__init__") {
            Some((init @ Value::Function(_), _)) => {
                let mut all = vec![obj.clone()];
                all.extend(args.iter().cloned());
                let mut spans = vec![sp.clone()];
                spans.extend(arg_spans.iter().cloned());
                let r = self.call(init, all, spans, kwargs.to_vec(), sp.clone())?;
                if !matches!(r, Value::None | Value::Poison) {
                    return Err(Diagnostic::new(
                        sp,
                        "TypeError: __init__() should return None",
                    ));
                }
            }
            _ if c.root == Root::Object && (!args.is_empty() || !kwargs.is_empty()) => {
                return Err(Diagnostic::new(
                    sp,
                    format!("TypeError: {}() takes no arguments", c.name),
                )
                .help("define `__init__` to take arguments"));
            }
            _ => {}
        }
        Ok(obj)
    }

    fn call_native(
        &mut self,
        n: &Rc<Native>,
        recv: Option<Value>,
        args: &[Value],
        arg_spans: &[Range<usize>],
        kwargs: &[(String, Value, Range<usize>)],
        sp: Range<usize>,
    ) -> Result<Value> {
        let name = match n.as_ref() {
            Native::Method(name) => *name,
            Native::Partial(f, pre, kw) => {
                let mut all = pre.clone();
                all.extend(args.iter().cloned());
                let mut kws: Vec<(String, Value, Range<usize>)> = kw
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone(), sp.clone()))
                    .collect();
                for (k, v, s) in kwargs {
                    kws.retain(|(k2, _, _)| k2 != k);
                    kws.push((k.clone(), v.clone(), s.clone()));
                }
                let spans = vec![sp.clone(); all.len()];
                return self.call(f.clone(), all, spans, kws, sp);
            }
            Native::ClassMethod(f) | Native::StaticMethod(f) => {
                return self.call(
                    f.clone(),
                    args.to_vec(),
                    arg_spans.to_vec(),
                    kwargs.to_vec(),
                    sp,
                )
            }
            Native::ContextManager(f) => {
                let kwargs = kwargs
                    .iter()
                    .map(|(k, v, _)| (k.clone(), v.clone()))
                    .collect();
                let args = recv.iter().chain(args).cloned().collect();
                return Ok(Value::Native(
                    Rc::new(Native::ContextCall(f.clone(), args, kwargs)),
                    None,
                ));
            }
            Native::ContextCall(..) => {
                return Err(Diagnostic::new(
                    sp,
                    "a contextmanager's call is used with `with`",
                ))
            }
            Native::Skip(reason) => {
                let target = args.first().cloned().unwrap_or(Value::None);
                if let Some(reason) = reason {
                    if let Some(key) = super::unittest::skip_key(&target) {
                        self.st.skipped.insert(key, reason.clone());
                    }
                }
                return Ok(target);
            }
            Native::AssertRaises(_) => {
                return Err(Diagnostic::new(sp, "assertRaises(...) is used with `with`"))
            }
        };
        if let Some(Value::Instance(_) | Value::Class(_)) = &recv {
            if static_name(TESTCASE_METHODS, name).is_some() {
                let recv = recv.unwrap_or(Value::None);
                return self.test_case_method(name, recv, args, arg_spans, kwargs, sp);
            }
        }
        if let Some(parser @ Value::Object(o)) = &recv {
            if matches!(o.as_ref(), Object::ArgParser(_) | Object::ArgGroup(_)) {
                return self.parser_method(name, parser, args, kwargs, sp);
            }
        }
        let arg = |i: usize| args.get(i).cloned();
        let kw = |k: &str| kwargs.iter().find(|(n, _, _)| n == k).map(|x| x.1.clone());
        // A required argument, by position or by its name as a keyword
        // (`unittest.skipUnless(condition=..., reason=...)`).
        let need = |i: usize, what: &str| -> Result<Value> {
            args.get(i).cloned().or_else(|| kw(what)).ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    format!("TypeError: {name}() is missing `{what}`"),
                )
            })
        };
        let float = |v: &Value| -> Result<f64> {
            match v {
                Value::Int(i) => Ok(*i as f64),
                Value::Float(f) => Ok(*f),
                Value::Bool(b) => Ok(f64::from(u8::from(*b))),
                Value::NpScalar(a) | Value::Array(a) if a.size() == 1 => a
                    .to_float()
                    .map_err(|_| Diagnostic::new(sp.clone(), "TypeError: must be real number")),
                other => Err(Diagnostic::new(
                    sp.clone(),
                    format!("TypeError: must be real number, not {}", other.type_name()),
                )),
            }
        };
        let string = |v: &Value| -> Result<String> {
            match v {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(Diagnostic::new(
                    sp.clone(),
                    format!("TypeError: expected str, not {}", other.type_name()),
                )),
            }
        };
        let module = match &recv {
            Some(Value::Module(m)) => *m,
            _ => "",
        };
        match (module, name) {
            ("math", "floor" | "ceil") => {
                let x = float(&need(0, "x")?)?;
                let r = if name == "floor" { x.floor() } else { x.ceil() };
                if !r.is_finite() {
                    return Err(Diagnostic::new(
                        sp,
                        format!(
                            "OverflowError: cannot convert {} to integer",
                            crate::front::value::py_float(x)
                        ),
                    ));
                }
                return Ok(Value::Int(r as i64));
            }
            ("math", "isnan" | "isinf" | "isfinite") => {
                let x = float(&need(0, "x")?)?;
                return Ok(Value::Bool(match name {
                    "isnan" => x.is_nan(),
                    "isinf" => x.is_infinite(),
                    _ => x.is_finite(),
                }));
            }
            ("math", "log") => {
                let x = float(&need(0, "x")?)?;
                if x <= 0.0 {
                    return Err(Diagnostic::new(sp, "ValueError: math domain error"));
                }
                return Ok(Value::Float(match arg(1) {
                    Some(b) => x.ln() / float(&b)?.ln(),
                    None => x.ln(),
                }));
            }
            ("math", "pow") => {
                return Ok(Value::Float(
                    float(&need(0, "x")?)?.powf(float(&need(1, "y")?)?),
                ))
            }
            ("math", f) => {
                let x = float(&need(0, "x")?)?;
                let domain = match f {
                    "sqrt" => x >= 0.0,
                    "log10" | "log2" => x > 0.0,
                    "asin" | "acos" => (-1.0..=1.0).contains(&x),
                    _ => true,
                };
                if !domain {
                    return Err(Diagnostic::new(sp, "ValueError: math domain error"));
                }
                return Ok(Value::Float(match f {
                    "sqrt" => x.sqrt(),
                    "exp" => x.exp(),
                    "log10" => x.log10(),
                    "log2" => x.log2(),
                    "fabs" => x.abs(),
                    "sin" => x.sin(),
                    "cos" => x.cos(),
                    "tan" => x.tan(),
                    "tanh" => x.tanh(),
                    "atan" => x.atan(),
                    "asin" => x.asin(),
                    _ => x.acos(),
                }));
            }
            ("time", "sleep") => return Ok(Value::None),
            ("time", _) => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64());
                return Ok(Value::Float(now));
            }
            ("os.path", "join") => {
                let mut out = String::new();
                for a in args {
                    let s = string(a)?;
                    if s.starts_with('/') {
                        out = s;
                    } else if out.is_empty() || out.ends_with('/') {
                        out.push_str(&s);
                    } else {
                        out.push('/');
                        out.push_str(&s);
                    }
                }
                return Ok(Value::str(&out));
            }
            ("os.path", f) => {
                let p = string(&need(0, "path")?)?;
                let path = std::path::Path::new(&p);
                return Ok(match f {
                    "exists" => Value::Bool(path.exists()),
                    "isfile" => Value::Bool(path.is_file()),
                    "isdir" => Value::Bool(path.is_dir()),
                    "dirname" => Value::str(p.rsplit_once('/').map_or("", |(d, _)| {
                        if d.is_empty() {
                            "/"
                        } else {
                            d
                        }
                    })),
                    "basename" => Value::str(p.rsplit('/').next().unwrap_or("")),
                    "abspath" => Value::str(&absolute(&p)),
                    "expanduser" => match (p.strip_prefix('~'), std::env::var("HOME")) {
                        (Some(rest), Ok(home)) => Value::str(&format!("{home}{rest}")),
                        _ => Value::str(&p),
                    },
                    _ => {
                        let base_start = p.rfind('/').map_or(0, |i| i + 1);
                        match p[base_start..].rfind('.') {
                            Some(dot) if dot > 0 => {
                                let at = base_start + dot;
                                Value::tuple(vec![Value::str(&p[..at]), Value::str(&p[at..])])
                            }
                            _ => Value::tuple(vec![Value::str(&p), Value::str("")]),
                        }
                    }
                });
            }
            _ => {}
        }
        match name {
            "argparse.ArgumentParser" => self.argument_parser(args, kwargs, sp),
            // paddle.compat (Python 2/3 helpers of Paddle 1.x): text is str.
            "to_text" | "to_bytes" => Ok(need(0, "obj")?),
            "get_exception_message" => {
                Ok(Value::str(&Show(&need(0, "exc")?, false).to_string()))
            }
            "floor_division" => {
                let (x, y) = (need(0, "x")?, need(1, "y")?);
                api::binary(&mut self.host(), rustpython_parser::ast::Operator::FloorDiv, x, y, sp)
            }
            "round" => {
                // Python 2's round: halves away from zero, a float.
                let x = match need(0, "x")? {
                    Value::Int(i) => i as f64,
                    Value::Float(f) => f,
                    other => return Err(Diagnostic::new(sp, format!("round() of {}", other.type_name()))),
                };
                let d = match arg(1) {
                    Some(Value::Int(d)) => d as i32,
                    _ => 0,
                };
                let p = 10f64.powi(d);
                Ok(Value::Float((x * p).round() / p))
            }
            "strtobool" => match strtobool(&string(&need(0, "val")?)?) {
                Ok(v) => Ok(Value::Int(v)),
                Err(e) => Err(Diagnostic::new(sp, e)),
            },
            "type" if args.len() == 1 => {
                let v = need(0, "object")?;
                let builtin = match &v {
                    Value::Instance(i) => return Ok(Value::Class(i.class.clone())),
                    Value::Class(_) => "type",
                    Value::Bool(_)
                    | Value::Int(_)
                    | Value::Float(_)
                    | Value::Str(_)
                    | Value::List(_)
                    | Value::Tuple(_)
                    | Value::Dict(_)
                    | Value::Range { .. } => v.type_name(),
                    other => {
                        return Err(Diagnostic::new(
                            sp,
                            format!("type() of {} is not supported by fluidc", other.type_name()),
                        )
                        .help("type() gives the class of an instance and of int, float, bool, str, list, tuple, dict and range values; use isinstance for others"))
                    }
                };
                api::python_builtin(builtin).ok_or_else(|| {
                    Diagnostic::new(sp, format!("type() of a {builtin} is not supported by fluidc"))
                })
            }
            "vars" => match need(0, "object")? {
                Value::Instance(i) => {
                    let mut d = Dict::default();
                    for (k, v) in i.attrs.borrow().iter() {
                        let _ = d.insert(Value::str(k), v.clone());
                    }
                    Ok(Value::Dict(Rc::new(RefCell::new(d))))
                }
                other => Err(Diagnostic::new(
                    sp,
                    format!("TypeError: vars() argument must have __dict__ attribute (fluidc gives it for instances, not {})", other.type_name()),
                )),
            },
            "iteritems" | "iterkeys" | "itervalues" if module == "six" => match need(0, "d")? {
                Value::Dict(d) => Ok(Value::list(
                    d.borrow()
                        .iter()
                        .map(|(k, v)| match name {
                            "iteritems" => Value::tuple(vec![k.clone(), v.clone()]),
                            "iterkeys" => k.clone(),
                            _ => v.clone(),
                        })
                        .collect(),
                )),
                other => Err(Diagnostic::new(
                    sp,
                    format!("AttributeError: '{}' object has no attribute 'items'", other.type_name()),
                )),
            },
            "super" => match args {
                [] => match self.st.methods.last().cloned().flatten() {
                    Some((class, obj)) => Ok(Value::Super(class, Rc::new(obj))),
                    None => Err(Diagnostic::new(
                        sp,
                        "RuntimeError: super(): no arguments outside a method",
                    )
                    .help("call super() inside a method of a class")),
                },
                [Value::Class(c), obj] | [Value::Class(c), obj, ..] => {
                    Ok(Value::Super(c.clone(), Rc::new(obj.clone())))
                }
                _ => Err(Diagnostic::new(
                    sp,
                    "TypeError: super() takes a class and an object",
                )),
            },
            "classmethod" => Ok(Value::Native(
                Rc::new(Native::ClassMethod(need(0, "function")?)),
                None,
            )),
            "staticmethod" => Ok(Value::Native(
                Rc::new(Native::StaticMethod(need(0, "function")?)),
                None,
            )),
            "isinstance" | "issubclass" => {
                let obj = need(0, "obj")?;
                let info = need(1, "classinfo")?;
                let kinds = match &info {
                    Value::Tuple(t) => t.to_vec(),
                    other => vec![other.clone()],
                };
                for k in kinds {
                    let is = match (&k, &obj, name) {
                        (Value::Class(c), Value::Instance(i), "isinstance") => {
                            i.class.is_subclass(c)
                        }
                        (Value::Class(c), Value::Class(o), "issubclass") => o.is_subclass(c),
                        (Value::Class(c), _, "isinstance") => c.name == "object",
                        (Value::Class(_), _, _) => false,
                        (_, Value::Instance(_) | Value::Class(_), _) => false,
                        _ => {
                            let f = api::python_builtin(name).unwrap_or(Value::Poison);
                            let r = self.call(
                                f,
                                vec![obj.clone(), k.clone()],
                                arg_spans.to_vec(),
                                Vec::new(),
                                sp.clone(),
                            )?;
                            matches!(r, Value::Bool(true))
                        }
                    };
                    if is {
                        return Ok(Value::Bool(true));
                    }
                }
                Ok(Value::Bool(false))
            }
            "getattr" | "hasattr" => {
                let obj = need(0, "object")?;
                let attr = string(&need(1, "name")?)?;
                let got = match self.get_attr_ext(&obj, &attr, sp.clone()) {
                    Some(r) => r,
                    None => api::get_attr(&mut self.host(), &obj, &attr, sp.clone()),
                };
                match (name, got, arg(2)) {
                    ("hasattr", r, _) => Ok(Value::Bool(r.is_ok())),
                    (_, Ok(v), _) => Ok(v),
                    (_, Err(_), Some(default)) => Ok(default),
                    (_, Err(e), None) => Err(e),
                }
            }
            "setattr" => {
                let obj = need(0, "object")?;
                let attr = string(&need(1, "name")?)?;
                let v = need(2, "value")?;
                if !self.set_attr_ext(&obj, &attr, &v) {
                    api::set_attr(&mut self.host(), &obj, &attr, v, sp)?;
                }
                Ok(Value::None)
            }
            "callable" => Ok(Value::Bool(matches!(
                need(0, "obj")?,
                Value::Function(_)
                    | Value::Builtin(..)
                    | Value::Class(_)
                    | Value::Method(..)
                    | Value::Native(..)
            ))),
            "iter" => {
                let v = need(0, "iterable")?;
                Ok(Value::list(self.iterate(&v, sp).unwrap_or_default()))
            }
            "next" => match need(0, "iterator")? {
                // fluidc's iterators are lists: `next` takes the first item.
                Value::List(l) => {
                    if l.borrow().is_empty() {
                        match arg(1) {
                            Some(d) => Ok(d),
                            None => Err(Diagnostic::new(sp, "StopIteration")),
                        }
                    } else {
                        Ok(l.borrow_mut().remove(0))
                    }
                }
                other => Err(Diagnostic::new(
                    sp,
                    format!(
                        "TypeError: '{}' object is not an iterator",
                        other.type_name()
                    ),
                )),
            },
            "map" | "filter" => {
                let f = need(0, "function")?;
                let mut lists = Vec::new();
                for (i, a) in args.iter().enumerate().skip(1) {
                    let s = arg_spans.get(i).cloned().unwrap_or(sp.clone());
                    match self.iterate(a, s) {
                        Some(items) => lists.push(items),
                        None => return Ok(Value::Poison),
                    }
                }
                let n = lists.iter().map(Vec::len).min().unwrap_or(0);
                let mut out = Vec::with_capacity(n);
                for k in 0..n {
                    let call_args: Vec<Value> = lists.iter().map(|l| l[k].clone()).collect();
                    if name == "filter" {
                        let keep = match &f {
                            Value::None => call_args[0].truthy() == Some(true),
                            f => {
                                let r = self.call(
                                    f.clone(),
                                    call_args.clone(),
                                    vec![sp.clone()],
                                    Vec::new(),
                                    sp.clone(),
                                )?;
                                r.truthy() == Some(true)
                            }
                        };
                        if keep {
                            out.push(call_args[0].clone());
                        }
                    } else {
                        let spans = vec![sp.clone(); call_args.len()];
                        out.push(self.call(f.clone(), call_args, spans, Vec::new(), sp.clone())?);
                    }
                    if self.st.raised.is_some() {
                        return Ok(Value::Poison);
                    }
                }
                Ok(Value::list(out))
            }
            "any" | "all" => {
                let v = need(0, "iterable")?;
                let items = self.iterate(&v, sp.clone()).unwrap_or_default();
                let mut result = name == "all";
                for it in items {
                    match it.truthy() {
                        Some(t) if t == (name == "any") => {
                            result = t;
                            break;
                        }
                        Some(_) => {}
                        None => {
                            return Err(Diagnostic::new(
                                sp,
                                format!(
                                    "ValueError: the truth of a {} is not known here",
                                    it.type_name()
                                ),
                            ))
                        }
                    }
                }
                Ok(Value::Bool(result))
            }
            "set" | "frozenset" => {
                // fluidc's sets are lists without repeats.
                let items = match arg(0) {
                    None => Vec::new(),
                    Some(v) => self.iterate(&v, sp.clone()).unwrap_or_default(),
                };
                let mut seen = Dict::default();
                let mut out = Vec::new();
                for v in items {
                    if let Ok(None) = seen.get(&v) {
                        seen.insert(v.clone(), Value::None)
                            .map_err(|t| api::unhashable(t, sp.clone()))?;
                        out.push(v);
                    }
                }
                Ok(Value::list(out))
            }
            "object.__init__" => Ok(Value::None),
            "BaseException.__init__" => {
                if let Some(Value::Instance(i)) = &recv {
                    i.attrs
                        .borrow_mut()
                        .insert("args".into(), Value::tuple(args.to_vec()));
                }
                Ok(Value::None)
            }
            "unittest.main" => self.unittest_main(kw("exit"), sp),
            // `skip(reason)`, `skipIf(condition, reason)`, `skipUnless(condition, reason)`.
            "skip" | "skipIf" | "skipUnless" => {
                let (cond, reason) = match name {
                    "skip" => (true, need(0, "reason")?),
                    _ => {
                        let c = need(0, "condition")?.truthy().unwrap_or(false);
                        (c == (name == "skipIf"), need(1, "reason")?)
                    }
                };
                let reason = Show(&reason, false).to_string();
                Ok(Value::Native(Rc::new(Native::Skip(cond.then_some(reason))), None))
            }
            "sys.exit" => {
                let code = arg(0).unwrap_or(Value::None);
                let d = Diagnostic::new(sp, "SystemExit");
                let class = builtin_class("SystemExit").expect("SystemExit is built in");
                let e = self.exc_of(class, vec![code], d);
                self.st.raised = Some(e);
                Ok(Value::None)
            }
            "sys.stdout.write" | "sys.stderr.write" => {
                let text = string(&need(0, "s")?)?;
                self.write_out(&text, name == "sys.stderr.write");
                Ok(Value::Int(text.chars().count() as i64))
            }
            "flush" => Ok(Value::None),
            "os.listdir" => {
                let dir = match arg(0) {
                    Some(p) => string(&p)?,
                    None => ".".to_string(),
                };
                // Directory order, as CPython's listdir gives it.
                let entries = std::fs::read_dir(&dir).map_err(|e| {
                    Diagnostic::new(sp.clone(), format!("os.listdir('{dir}'): {e}"))
                })?;
                let mut names = Vec::new();
                for e in entries.flatten() {
                    names.push(Value::str(&e.file_name().to_string_lossy()));
                }
                Ok(Value::list(names))
            }
            // 2018 tests saved models to a temporary directory and removed
            // it. Only `fluidc run` touches the file system, as only it
            // writes what save_inference_model saves: at compile time
            // rmtree does nothing and mkdtemp creates nothing.
            "shutil.rmtree" => {
                let path = string(&need(0, "path")?)?;
                let ignore = kw("ignore_errors").and_then(|v| v.truthy()).unwrap_or(false);
                if self.b.run.is_some() {
                    if let Err(e) = std::fs::remove_dir_all(&path) {
                        if !ignore {
                            return Err(Diagnostic::new(sp, os_error(&e, &path)));
                        }
                    }
                }
                Ok(Value::None)
            }
            "tempfile.gettempdir" => Ok(Value::str(&temp_dir())),
            "tempfile.mkdtemp" => {
                let opt = |i: usize, k: &str| -> Result<Option<String>> {
                    match arg(i).or_else(|| kw(k)) {
                        None | Some(Value::None) => Ok(None),
                        Some(v) => string(&v).map(Some),
                    }
                };
                let suffix = opt(0, "suffix")?.unwrap_or_default();
                let prefix = opt(1, "prefix")?.unwrap_or_else(|| "tmp".into());
                let dir = opt(2, "dir")?.unwrap_or_else(temp_dir);
                // Python's name: the prefix, eight random characters, the
                // suffix (std's per-process random hasher draws them).
                use std::hash::{BuildHasher, Hasher};
                const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789_";
                let random = std::collections::hash_map::RandomState::new();
                let mut draw = 0u64;
                let path = loop {
                    let name: String = (0..8)
                        .map(|_| {
                            let mut h = random.build_hasher();
                            draw += 1;
                            h.write_u64(draw);
                            CHARS[(h.finish() % CHARS.len() as u64) as usize] as char
                        })
                        .collect();
                    let path = format!("{dir}/{prefix}{name}{suffix}");
                    if self.b.run.is_none() {
                        break path;
                    }
                    match std::fs::create_dir(&path) {
                        Ok(()) => break path,
                        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                        Err(e) => return Err(Diagnostic::new(sp, os_error(&e, &path))),
                    }
                };
                Ok(Value::str(&path))
            }
            "functools.partial" => {
                let f = need(0, "func")?;
                let kws = kwargs
                    .iter()
                    .map(|(k, v, _)| (k.clone(), v.clone()))
                    .collect();
                Ok(Value::Native(
                    Rc::new(Native::Partial(f, args[1..].to_vec(), kws)),
                    None,
                ))
            }
            "functools.reduce" => {
                let f = need(0, "function")?;
                let items = self
                    .iterate(&need(1, "iterable")?, sp.clone())
                    .unwrap_or_default();
                let mut it = items.into_iter();
                let mut acc = match arg(2) {
                    Some(init) => init,
                    None => it.next().ok_or_else(|| {
                        Diagnostic::new(
                            sp.clone(),
                            "TypeError: reduce() of empty iterable with no initial value",
                        )
                    })?,
                };
                for x in it {
                    acc = self.call(
                        f.clone(),
                        vec![acc, x],
                        vec![sp.clone(); 2],
                        Vec::new(),
                        sp.clone(),
                    )?;
                }
                Ok(acc)
            }
            "collections.defaultdict" => {
                // defaultdict(factory, *args, **kwargs): the rest is dict()'s.
                let d = self.dict_of(args.get(1), kwargs, "defaultdict", sp)?;
                d.borrow_mut().default_factory = arg(0).filter(|f| !matches!(f, Value::None));
                Ok(Value::Dict(d))
            }
            "collections.namedtuple" => self.namedtuple(args, kwargs, sp),
            "contextlib.contextmanager" => match need(0, "func")? {
                f @ Value::Function(_) => Ok(Value::Native(Rc::new(Native::ContextManager(f)), None)),
                other => Err(Diagnostic::new(
                    sp,
                    format!("contextmanager() takes a generator function, not {}", other.type_name()),
                )),
            },
            "copy.copy" => Ok(super::copy::shallow(&need(0, "x")?)),
            "copy.deepcopy" => Ok(super::copy::deep(&need(0, "x")?, &mut Default::default())),
            "namedtuple._replace" | "namedtuple._asdict" => {
                self.namedtuple_method(name, recv, kwargs, sp)
            }
            "collections.OrderedDict" => {
                let d = self.dict_of(args.first(), kwargs, "OrderedDict", sp)?;
                d.borrow_mut().ordered = true;
                Ok(Value::Dict(d))
            }
            other => Err(Diagnostic::new(
                sp,
                format!("{other}() is not supported by fluidc here"),
            )),
        }
    }
}

/// A path made absolute against the working directory, as `os.path.abspath`
/// (without resolving links).
pub fn absolute(p: &str) -> String {
    let joined = if p.starts_with('/') {
        p.to_string()
    } else {
        let cwd = std::env::current_dir().map_or_else(|_| ".".into(), |d| d.display().to_string());
        format!("{cwd}/{p}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            x => parts.push(x),
        }
    }
    format!("/{}", parts.join("/"))
}

/// For `==`/`is` with a class or an instance on either side: whether the
/// two are the same object (their identity is their equality).
pub fn identical(l: &Value, r: &Value) -> Option<bool> {
    match (l, r) {
        (Value::Class(a), Value::Class(b)) => Some(Rc::ptr_eq(a, b)),
        // A namedtuple compares as the tuple it is (`equal`).
        (Value::Instance(i), _) | (_, Value::Instance(i)) if i.is_namedtuple() => None,
        (Value::Instance(a), Value::Instance(b)) => Some(Rc::ptr_eq(a, b)),
        (Value::UserModule(a), Value::UserModule(b)) => Some(Rc::ptr_eq(a, b)),
        (Value::Class(_) | Value::Instance(_) | Value::UserModule(_), _)
        | (_, Value::Class(_) | Value::Instance(_) | Value::UserModule(_)) => Some(false),
        _ => None,
    }
}

/// `repr` of a value, for assertion messages.
pub fn repr(v: &Value) -> String {
    Show(v, true).to_string()
}

impl Eval<'_> {
    /// A dict from a mapping or (key, value) pairs, then keywords, as
    /// `dict(src, **kwargs)` builds it (`what` names the call in errors).
    fn dict_of(
        &mut self,
        src: Option<&Value>,
        kwargs: &[(String, Value, Range<usize>)],
        what: &str,
        sp: Range<usize>,
    ) -> Result<Rc<RefCell<Dict>>> {
        let mut d = Dict::default();
        if let Some(src) = src {
            let pairs = match src {
                Value::Dict(x) => x
                    .borrow()
                    .iter()
                    .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                    .collect(),
                other => self.iterate(other, sp.clone()).unwrap_or_default(),
            };
            for p in pairs {
                match p.items().as_deref() {
                    Some([k, v]) => d
                        .insert(k.clone(), v.clone())
                        .map_err(|t| api::unhashable(t, sp.clone()))?,
                    _ => {
                        return Err(Diagnostic::new(
                            sp,
                            format!("TypeError: {what}() takes (key, value) pairs"),
                        ))
                    }
                }
            }
        }
        for (k, v, _) in kwargs {
            // A string key is always hashable.
            let _ = d.insert(Value::str(k), v.clone());
        }
        Ok(Rc::new(RefCell::new(d)))
    }

    /// `d[key]` of a `defaultdict` without the key: the factory's value,
    /// stored under the key (as `__missing__` does); `None` otherwise.
    pub(super) fn default_item(
        &mut self,
        obj: &Value,
        key: &Value,
        sp: Range<usize>,
    ) -> Result<Option<Value>> {
        let Value::Dict(d) = obj else {
            return Ok(None);
        };
        let factory = {
            let d = d.borrow();
            match (&d.default_factory, d.get(key)) {
                (Some(f), Ok(None)) => f.clone(),
                _ => return Ok(None),
            }
        };
        let v = self.call(factory, Vec::new(), Vec::new(), Vec::new(), sp.clone())?;
        d.borrow_mut()
            .insert(key.clone(), v.clone())
            .map_err(|t| api::unhashable(t, sp))?;
        Ok(Some(v))
    }
}
