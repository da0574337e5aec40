//! Python classes at compile time: user `class` statements, the built-in
//! exception classes and `unittest.TestCase`, their instances, bound
//! methods, `super()` and the few callables the evaluator implements
//! itself ([`Native`]).
use std::cell::RefCell;
use std::rc::Rc;

use indexmap::IndexMap;

use super::Value;

/// What a class is rooted in: plain `object`, `BaseException` (its
/// instances are exceptions, with `args`), or `unittest.TestCase` (its
/// instances have the `assert*` methods).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    Object,
    Exception,
    TestCase,
    /// `collections.namedtuple(...)`: its instances act as tuples.
    NamedTuple,
}

/// A class: its name, its one base, and its attributes (methods, class
/// attributes) in definition order.
#[derive(Debug)]
pub struct Class {
    pub name: String,
    /// `builtins` for the built-in classes, `__main__` (or a sibling
    /// module's name) for the script's.
    pub module: String,
    pub base: Option<Rc<Class>>,
    pub attrs: RefCell<IndexMap<String, Value>>,
    pub root: Root,
}

/// An instance of a class, with its own attributes.
#[derive(Debug)]
pub struct Instance {
    pub class: Rc<Class>,
    pub attrs: RefCell<IndexMap<String, Value>>,
}

/// Callables the evaluator implements (they need to call back into the
/// script, or see its classes).
#[derive(Debug)]
pub enum Native {
    /// A method of a built-in class (`TestCase.assertEqual`,
    /// `BaseException.__init__`, `object.__init__`), by name.
    Method(&'static str),
    /// `@classmethod` / `@staticmethod` wrappers of a function.
    ClassMethod(Value),
    StaticMethod(Value),
    /// `functools.partial(f, *args, **kwargs)`.
    Partial(Value, Vec<Value>, Vec<(String, Value)>),
    /// `self.assertRaises(E)` used as a context manager.
    AssertRaises(Vec<Rc<Class>>),
    /// `@contextlib.contextmanager` applied to a generator function.
    ContextManager(Value),
    /// A call of one: the function and its arguments, run by `with`.
    ContextCall(Value, Vec<Value>, Vec<(String, Value)>),
    /// What `unittest.skip(reason)` / `skipIf` / `skipUnless` give: a
    /// decorator that marks the test method or class skipped (with the
    /// reason), or leaves it as it is (`None`: the condition was false).
    Skip(Option<String>),
}

impl Class {
    pub fn new(name: &str, module: &str, base: Option<Rc<Class>>, root: Root) -> Rc<Class> {
        Rc::new(Class {
            name: name.to_string(),
            module: module.to_string(),
            base,
            attrs: RefCell::new(IndexMap::new()),
            root,
        })
    }

    /// The field names of a namedtuple class (or a class derived from one).
    pub fn namedtuple_fields(self: &Rc<Class>) -> Vec<String> {
        match self.lookup("_fields") {
            Some((Value::Tuple(t), _)) if self.root == Root::NamedTuple => t
                .iter()
                .filter_map(|v| match v {
                    Value::Str(s) => Some(s.to_string()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The class and its bases, nearest first (single inheritance: the MRO).
    pub fn mro(self: &Rc<Class>) -> Vec<Rc<Class>> {
        let mut out = vec![self.clone()];
        while let Some(b) = out.last().and_then(|c| c.base.clone()) {
            out.push(b);
        }
        out
    }

    /// Whether `self` is `other` or derives from it.
    pub fn is_subclass(self: &Rc<Class>, other: &Rc<Class>) -> bool {
        self.mro().iter().any(|c| Rc::ptr_eq(c, other))
    }

    /// An attribute found on the class or a base, with the class it was
    /// found on.
    pub fn lookup(self: &Rc<Class>, name: &str) -> Option<(Value, Rc<Class>)> {
        self.mro()
            .into_iter()
            .find_map(|c| c.attrs.borrow().get(name).cloned().map(|v| (v, c.clone())))
    }

    /// `<class '__main__.Foo'>`, `<class 'ValueError'>`.
    pub fn repr(&self) -> String {
        if self.module == "builtins" {
            format!("<class '{}'>", self.name)
        } else {
            format!("<class '{}.{}'>", self.module, self.name)
        }
    }
}

impl Instance {
    pub fn new(class: Rc<Class>) -> Rc<Instance> {
        Rc::new(Instance {
            class,
            attrs: RefCell::new(IndexMap::new()),
        })
    }

    /// Whether it is a namedtuple's instance (without building its tuple).
    pub fn is_namedtuple(&self) -> bool {
        self.class.root == Root::NamedTuple
    }

    /// A namedtuple instance's fields, in order: the tuple it acts as.
    /// `None` for other instances.
    pub fn tuple_items(&self) -> Option<Vec<Value>> {
        if !self.is_namedtuple() {
            return None;
        }
        let attrs = self.attrs.borrow();
        Some(
            self.class
                .namedtuple_fields()
                .iter()
                .map(|n| attrs.get(n).cloned().unwrap_or(Value::None))
                .collect(),
        )
    }

    /// An exception's `args`.
    pub fn args(&self) -> Vec<Value> {
        match self.attrs.borrow().get("args") {
            Some(Value::Tuple(t)) => t.to_vec(),
            _ => Vec::new(),
        }
    }
}

/// The built-in exception classes, as `BaseException`'s tree in CPython
/// (the part scripts use), built once per thread.
pub fn builtin_class(name: &str) -> Option<Rc<Class>> {
    thread_local! {
        static CLASSES: Vec<Rc<Class>> = make_builtin_classes();
    }
    CLASSES.with(|cs| cs.iter().find(|c| c.name == name).cloned())
}

/// The names of the built-in exception classes.
pub const EXCEPTIONS: &[(&str, &str)] = &[
    ("BaseException", ""),
    ("SystemExit", "BaseException"),
    ("KeyboardInterrupt", "BaseException"),
    ("Exception", "BaseException"),
    ("StopIteration", "Exception"),
    ("ArithmeticError", "Exception"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("OverflowError", "ArithmeticError"),
    ("AssertionError", "Exception"),
    ("AttributeError", "Exception"),
    ("ImportError", "Exception"),
    ("ModuleNotFoundError", "ImportError"),
    ("LookupError", "Exception"),
    ("IndexError", "LookupError"),
    ("KeyError", "LookupError"),
    ("NameError", "Exception"),
    ("OSError", "Exception"),
    ("IOError", "OSError"),
    ("FileNotFoundError", "OSError"),
    ("FileExistsError", "OSError"),
    ("PermissionError", "OSError"),
    ("RuntimeError", "Exception"),
    ("NotImplementedError", "RuntimeError"),
    ("RecursionError", "RuntimeError"),
    ("TypeError", "Exception"),
    ("ValueError", "Exception"),
];

fn make_builtin_classes() -> Vec<Rc<Class>> {
    let mut out: Vec<Rc<Class>> = vec![Class::new("object", "builtins", None, Root::Object)];
    for (name, base) in EXCEPTIONS {
        let base = out.iter().find(|c| c.name == *base).cloned();
        out.push(Class::new(name, "builtins", base, Root::Exception));
    }
    out.push(Class::new("TestCase", "unittest", None, Root::TestCase));
    let exception = out.iter().find(|c| c.name == "Exception").cloned();
    out.push(Class::new(
        "SkipTest",
        "unittest",
        exception,
        Root::Exception,
    ));
    for name in crate::front::eval::argparse::Formatter::CLASSES {
        out.push(Class::new(
            name,
            "argparse",
            out.first().cloned(),
            Root::Object,
        ));
    }
    out
}
