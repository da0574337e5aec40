//! Exceptions: `try`/`except`/`else`/`finally`, `raise`, and how a
//! fluidc error becomes a Python exception.
//!
//! An exception in flight is [`Interp::raised`]; every block returns
//! [`Flow::Raise`] until a `try` takes it. Inside a `try` with handlers
//! (or a unittest test method, or `assertRaises`), an error that would be
//! a diagnostic is raised instead, as an exception of the built-in class
//! that fits its message ([`class_of_message`]); a program's runtime error
//! in `exe.run` is a `RuntimeError` (Paddle 3 raises its C++ errors as
//! `RuntimeError`-derived exceptions too), and catching it clears the run's
//! error, so the script goes on and exits 0. Outside a `try`, errors stay
//! diagnostics, so one check reports every independent error; a `raise`
//! that nothing catches stops the script with one diagnostic.
use std::rc::Rc;

use rustpython_parser::ast;

use super::{Eval, Flow};
use crate::front::diag::Diagnostic;
use crate::front::parse::{span, Expr, Stmt};
use crate::front::value::{builtin_class, Class, Instance, Root, Show, Value, EXCEPTIONS};

/// An exception being raised.
#[derive(Debug)]
pub struct Exc {
    pub value: Rc<Instance>,
    /// What to report if nothing catches it.
    pub diag: Diagnostic,
    /// The runtime error of the `exe.run` that raised it (given back to the
    /// run, for exit status 3, if nothing catches it).
    pub runtime: Option<fluidc_runtime::RuntimeError>,
    /// (offset, function) frames from the module to where it was raised.
    pub trace: Vec<(usize, String)>,
}

/// The built-in exception class for a fluidc error message.
pub fn class_of_message(msg: &str) -> &'static str {
    if let Some((head, _)) = msg.split_once(':') {
        if let Some((name, _)) = EXCEPTIONS.iter().find(|(n, _)| *n == head.trim()) {
            return name;
        }
    }
    let has = |s: &str| msg.contains(s);
    if msg.starts_with("assertion failed") {
        "AssertionError"
    } else if has("is not defined") {
        "NameError"
    } else if msg.starts_with("module `") && has("is not supported") {
        "ModuleNotFoundError"
    } else if has("has no attribute") || (msg.starts_with("module `") && has("has no `")) {
        "AttributeError"
    } else if has("out of range") {
        "IndexError"
    } else if has("KeyError") || has("key not found") || has("not in the dict") {
        "KeyError"
    } else if has("division by zero") || has("divide by zero") || has("modulo by zero") {
        "ZeroDivisionError"
    } else if has("not supported by fluidc") {
        "NotImplementedError"
    } else if has("argument")
        || has("not callable")
        || has("unsupported operand")
        || has("not iterable")
        || has("unhashable")
        || has("cannot unpack")
        || has("not supported between")
    {
        "TypeError"
    } else {
        "ValueError"
    }
}

/// Whether a function body yields (then it is a generator). Looks at the
/// statements of the body, not into nested functions and classes.
pub fn yields(s: &Stmt) -> bool {
    let e = |x: &Expr| matches!(x, Expr::Yield(_) | Expr::YieldFrom(_));
    let body = |b: &[Stmt]| b.iter().any(yields);
    match s {
        Stmt::Expr(x) => e(&x.value),
        Stmt::Assign(x) => e(&x.value),
        Stmt::AugAssign(x) => e(&x.value),
        Stmt::If(x) => body(&x.body) || body(&x.orelse),
        Stmt::While(x) => body(&x.body) || body(&x.orelse),
        Stmt::For(x) => body(&x.body) || body(&x.orelse),
        Stmt::With(x) => body(&x.body),
        Stmt::Try(x) => {
            body(&x.body)
                || body(&x.orelse)
                || body(&x.finalbody)
                || x.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    body(&h.body)
                })
        }
        _ => false,
    }
}

impl Eval<'_> {
    /// The (offset, function) frames of the code running now, outermost first.
    pub(super) fn trace_here(&self, offset: usize) -> Vec<(usize, String)> {
        let mut frames = Vec::with_capacity(self.st.calls.len() + 1);
        let mut func = "<module>".to_string();
        for (at, name) in &self.st.calls {
            frames.push((*at, func.clone()));
            func = name.clone();
        }
        frames.push((offset, func));
        frames
    }

    /// A new exception of the built-in class `class` with one message.
    pub(super) fn new_exc(&mut self, class: &str, msg: &str, diag: Diagnostic) -> Exc {
        let class = builtin_class(class)
            .or_else(|| builtin_class("Exception"))
            .expect("Exception is a built-in class");
        let args = if msg.is_empty() {
            Vec::new()
        } else {
            vec![Value::str(msg)]
        };
        self.exc_of(class, args, diag)
    }

    pub(super) fn exc_of(&mut self, class: Rc<Class>, args: Vec<Value>, diag: Diagnostic) -> Exc {
        let value = Instance::new(class);
        value
            .attrs
            .borrow_mut()
            .insert("args".into(), Value::tuple(args));
        let trace = self.trace_here(diag.span.start);
        Exc {
            value,
            diag,
            runtime: None,
            trace,
        }
    }

    /// A fluidc error inside a `try`, as the exception Python would raise.
    pub(super) fn exc_from_diag(&mut self, d: Diagnostic) -> Exc {
        let runtime = self.b.run.as_mut().and_then(|r| r.error.take());
        let class = if runtime.is_some() {
            "RuntimeError"
        } else {
            class_of_message(&d.message)
        };
        let msg = d
            .message
            .strip_prefix(class)
            .and_then(|m| m.strip_prefix(':'))
            .map_or(d.message.as_str(), str::trim_start)
            .to_string();
        let msg = msg
            .strip_prefix("assertion failed: ")
            .map(str::to_string)
            .unwrap_or(if msg == "assertion failed" {
                String::new()
            } else {
                msg
            });
        // `d[k]` without k: CPython's KeyError shows the key's repr alone.
        let msg = match (class, msg.strip_prefix("key ")) {
            ("KeyError", Some(rest)) => rest
                .strip_suffix(" is not in the dict")
                .map_or(msg.clone(), str::to_string),
            _ => msg,
        };
        let mut e = self.new_exc(class, &msg, d);
        e.runtime = runtime;
        e
    }

    /// Whether an error now is a Python exception: inside a `try`, and
    /// always in run mode, where the script stops at its first uncaught
    /// exception as CPython does (nothing after it runs or prints). Build
    /// mode (`check`, `compile`) goes on, to report every error at once.
    pub(super) fn raises(&self) -> bool {
        self.st.try_depth > 0 || self.b.run.is_some()
    }

    /// An error the script may catch: raised as `class(msg)` when
    /// [`Self::raises`], else reported as `diag`.
    pub(super) fn fail(&mut self, class: &str, msg: &str, diag: Diagnostic) {
        if self.raises() && self.st.raised.is_none() {
            let e = self.new_exc(class, msg, diag);
            self.st.raised = Some(e);
        } else {
            self.report(diag);
        }
    }

    /// An exception that reached the module: it stops the script. `sys.exit`
    /// sets the exit status; any other is reported once.
    pub(super) fn uncaught(&mut self) {
        let Some(e) = self.st.raised.take() else {
            return;
        };
        if e.value.class.name == "SystemExit" && e.value.class.module == "builtins" {
            let code = match e.value.args().first() {
                None | Some(Value::None) => 0,
                Some(Value::Int(n)) => *n as i32,
                Some(Value::Bool(b)) => i32::from(*b),
                Some(other) => {
                    // sys.exit("message") prints it and exits 1.
                    eprintln!("{}", Show(other, false));
                    1
                }
            };
            self.st.exit_code = Some(code);
            return;
        }
        if let (Some(err), Some(run)) = (e.runtime, self.b.run.as_mut()) {
            run.error.get_or_insert(err);
        }
        self.record(e.diag);
    }

    pub(super) fn try_stmt(&mut self, t: &ast::StmtTry) -> Flow {
        let catches = !t.handlers.is_empty();
        self.st.try_depth += usize::from(catches);
        let mut flow = self.block(&t.body);
        self.st.try_depth -= usize::from(catches);
        if let Some(exc) = self.st.raised.take() {
            flow = Flow::Raise;
            let mut handler = None;
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                if self.handles(h.type_.as_deref(), &exc.value.class) {
                    handler = Some(h);
                    break;
                }
            }
            match handler {
                Some(h) => {
                    // Caught: a runtime error it carried no longer fails the run.
                    if let Some(name) = &h.name {
                        self.set_name(name.as_str(), Value::Instance(exc.value.clone()));
                    }
                    self.st.handling.push(exc.value.clone());
                    flow = self.block(&h.body);
                    self.st.handling.pop();
                }
                None => self.st.raised = Some(exc),
            }
        } else if matches!(flow, Flow::Normal) {
            flow = self.block(&t.orelse);
        }
        if !t.finalbody.is_empty() {
            let pending = self.st.raised.take();
            match self.block(&t.finalbody) {
                Flow::Normal => {
                    if pending.is_some() {
                        self.st.raised = pending;
                    }
                }
                // A `return`, `break` or new exception in `finally` wins.
                other => flow = other,
            }
        }
        flow
    }

    /// Whether an `except` clause's type takes an exception of `class`.
    fn handles(&mut self, ty: Option<&Expr>, class: &Rc<Class>) -> bool {
        let Some(ty) = ty else {
            return true;
        };
        let v = self.expr(ty);
        let kinds = match &v {
            Value::Tuple(t) => t.to_vec(),
            other => vec![other.clone()],
        };
        kinds.iter().any(|k| match k {
            Value::Class(c) => class.is_subclass(c),
            Value::Poison => false,
            other => {
                self.report(Diagnostic::new(
                    span(ty),
                    format!(
                        "catching a {} is not allowed: `except` takes exception classes",
                        other.type_name()
                    ),
                ));
                false
            }
        })
    }

    pub(super) fn raise_stmt(&mut self, r: &ast::StmtRaise, sp: std::ops::Range<usize>) {
        let Some(e) = &r.exc else {
            match self.st.handling.last().cloned() {
                Some(value) => self.raise_instance(value, sp),
                None => {
                    let d = Diagnostic::new(sp, "RuntimeError: No active exception to reraise");
                    let e = self.new_exc("RuntimeError", "No active exception to reraise", d);
                    self.st.raised = Some(e);
                }
            }
            return;
        };
        let v = self.expr(e);
        let value = match v {
            Value::Poison => return,
            Value::Class(c) if c.root == Root::Exception => {
                match self.call(
                    Value::Class(c),
                    Vec::new(),
                    Vec::new(),
                    Vec::new(),
                    span(e.as_ref()),
                ) {
                    Ok(Value::Instance(i)) => i,
                    Ok(_) => return,
                    Err(d) => return self.report(d),
                }
            }
            Value::Instance(i) if i.class.root == Root::Exception => i,
            other => {
                let msg = "exceptions must derive from BaseException";
                let d = Diagnostic::new(
                    span(e.as_ref()),
                    format!("TypeError: {msg} (not {})", other.type_name()),
                )
                .help("raise an exception class or instance, such as ValueError(\"...\")");
                let exc = self.new_exc("TypeError", msg, d);
                self.st.raised = Some(exc);
                return;
            }
        };
        self.raise_instance(value, sp);
    }

    /// Raises an exception instance at `sp` (a `raise` statement).
    fn raise_instance(&mut self, value: Rc<Instance>, sp: std::ops::Range<usize>) {
        let text = Show(&Value::Instance(value.clone()), false).to_string();
        let message = if text.is_empty() {
            value.class.name.clone()
        } else {
            format!("{}: {text}", value.class.name)
        };
        let diag = Diagnostic::new(sp.clone(), message)
            .help("an exception that no `try` catches stops the script");
        let trace = self.trace_here(sp.start);
        self.st.raised = Some(Exc {
            value,
            diag,
            runtime: None,
            trace,
        });
    }

    /// `with self.assertRaises(E) [as cm]:`: the body must raise E.
    pub(super) fn assert_raises_with(
        &mut self,
        classes: &[Rc<Class>],
        item: &ast::WithItem,
        w: &ast::StmtWith,
    ) -> Flow {
        let cm = Instance::new(Class::new(
            "_AssertRaisesContext",
            "unittest.case",
            None,
            Root::Object,
        ));
        cm.attrs
            .borrow_mut()
            .insert("exception".into(), Value::None);
        if let Some(target) = &item.optional_vars {
            self.assign(target, Value::Instance(cm.clone()));
        }
        self.st.try_depth += 1;
        let flow = self.block(&w.body);
        self.st.try_depth -= 1;
        match self.st.raised.take() {
            Some(exc) if classes.iter().any(|c| exc.value.class.is_subclass(c)) => {
                cm.attrs
                    .borrow_mut()
                    .insert("exception".into(), Value::Instance(exc.value));
                Flow::Normal
            }
            Some(exc) => {
                self.st.raised = Some(exc);
                Flow::Raise
            }
            None => {
                let names: Vec<&str> = classes.iter().map(|c| c.name.as_str()).collect();
                let msg = format!("{} not raised", names.join(", "));
                let d = Diagnostic::new(span(&item.context_expr), format!("AssertionError: {msg}"));
                self.fail("AssertionError", &msg, d);
                flow
            }
        }
    }
}
