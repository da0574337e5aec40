//! The compile-time evaluator: runs the script's Python over [`Value`]s.
//!
//! Plain Python is computed here; fluid calls go to the builtin table in
//! [`super::api`], which appends ops through the [`ProgramBuilder`]. An error
//! is recorded once (by span and message) and the failing expression becomes
//! [`Value::Poison`], which silently propagates, so one run reports every
//! independent error in the file without cascades.
use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::Range;
use std::rc::Rc;

use rustpython_parser::ast::{self, BoolOp, CmpOp, Operator, UnaryOp};

use super::api::{self, Builtin, Exit};
use super::builder::ProgramBuilder;
use super::diag::{Diagnostic, Result};
use super::host::{Host, Script};
use super::parse::{int_literal, span, Constant, Expr, Stmt};
use super::sources::Sources;
use super::value::{Dict, FnBody, FnParam, Frame, Function, Show, UserModule, Value};

pub(super) mod argparse;
mod classes;
mod contextlib;
mod copy;
mod exc;
mod modules;
mod namedtuple;
mod unittest;

pub use exc::Exc;

/// What leaving a `with` item does: a fluid guard's exit, or a user
/// object's `__exit__`.
enum WithExit {
    Api(Exit),
    User(Value),
}

/// How a statement ended.
enum Flow {
    Normal,
    Return(Value),
    Break,
    Continue,
    /// An exception is in flight ([`Interp::raised`]): unwind to a `try`.
    Raise,
}

/// Limits that keep a runaway script from hanging or overflowing the compiler.
const MAX_CALL_DEPTH: usize = 200;
const MAX_LOOP_ITERATIONS: u64 = 1_000_000;
/// Ops, variables and blocks all the script's programs may hold together.
/// The largest 2018 models (a Transformer with its backward pass) have
/// tens of thousands; each item costs the compiler about a kilobyte, so a
/// loop that unrolls past this would take gigabytes (found by fuzzing).
const MAX_PROGRAM_SIZE: usize = 500_000;

/// The evaluator's state: names and scopes, the calls and loops running
/// and the diagnostics so far. The programs it builds are not part of it:
/// they are a [`ProgramBuilder`] lent for the run, so that a builtin can
/// hold the builder and the evaluator (as its [`Script`]) side by side.
#[derive(Debug)]
pub struct Interp {
    pub path: String,
    /// The script and the modules it imported: every span's file and line.
    sources: Sources,
    /// The sibling modules imported so far, by name (Python's `sys.modules`).
    modules: std::collections::HashMap<String, Rc<UserModule>>,
    pub diags: Vec<Diagnostic>,
    seen: HashSet<(usize, usize, String)>,
    globals: Rc<RefCell<Frame>>,
    /// The scope chain of the code running now (globals excluded), innermost last.
    scopes: Vec<Rc<RefCell<Frame>>>,
    /// Active user-function calls and module imports: (offset of the call,
    /// function name), for `op_callstack` and tracebacks.
    calls: Vec<(usize, String)>,
    /// Loops enclosing the code running now (in the current function).
    loop_depth: usize,
    loop_steps: u64,
    /// The exception being raised, while the code unwinds to a handler.
    raised: Option<Exc>,
    /// `try` statements with handlers (and unittest's test calls) around
    /// the code running now: inside one, an error is an exception the code
    /// can catch; outside, it is a diagnostic, as before.
    try_depth: usize,
    /// The exceptions being handled (`except` bodies running), for a bare `raise`.
    handling: Vec<Rc<super::value::Instance>>,
    /// `sys.exit(n)` (or unittest's verdict): the script's exit status.
    pub exit_code: Option<i32>,
    /// The values each running generator body has yielded.
    yields: Vec<Vec<Value>>,
    /// For `super()`: the class that defined each running method and its
    /// first argument (`None` for plain functions).
    methods: Vec<Option<(Rc<super::value::Class>, Value)>>,
    /// Build mode of a unittest file: the one test to build (`--test NAME`).
    pub test_select: Option<String>,
    /// Build mode: the tests `unittest.main()` found (and where it was called).
    pub tests_found: Option<(Vec<String>, Range<usize>)>,
    /// `with` bodies waiting for their `contextmanager`'s `yield`.
    pending_bodies: Vec<contextlib::PendingBody>,
    /// Test functions and classes `unittest.skip`/`skipIf`/`skipUnless`
    /// marked, with the reason (by [`unittest::skip_key`]).
    skipped: std::collections::HashMap<usize, String>,
    /// `sys.argv`: the script's path, then the words after `--` on
    /// `fluidc run script.py -- ARGS`.
    pub argv: Vec<String>,
    /// Every error [`Eval::record`] saw, repeats included (a repeat is kept
    /// once in `diags`, but a loop must still see it), and every use of a
    /// failed value, whose error was reported where it failed
    /// ([`Eval::failed_value_used`]). A loop whose body reported one stops:
    /// the next iterations would only repeat it or follow from it, and a
    /// `while True` whose `break` depended on the failed value would run to
    /// the iteration limit.
    errors_reported: u64,
    /// A limit stopped the script: it unwinds as at the end of build mode,
    /// and whatever fails on the way is a follow-on error, not reported.
    halted: bool,
}

impl Interp {
    pub fn new(path: &str, source: &str) -> Self {
        let globals = Rc::new(RefCell::new(Frame::default()));
        globals
            .borrow_mut()
            .names
            .insert("__name__".into(), Value::str("__main__"));
        Interp {
            path: path.to_string(),
            sources: Sources::new(path, source),
            modules: Default::default(),
            diags: Vec::new(),
            seen: HashSet::new(),
            globals,
            scopes: Vec::new(),
            calls: Vec::new(),
            loop_depth: 0,
            loop_steps: 0,
            raised: None,
            try_depth: 0,
            handling: Vec::new(),
            exit_code: None,
            yields: Vec::new(),
            methods: Vec::new(),
            test_select: None,
            tests_found: None,
            argv: vec![path.to_string()],
            skipped: Default::default(),
            pending_bodies: Vec::new(),
            errors_reported: 0,
            halted: false,
        }
    }

    /// Marks a diagnostic in an imported module with its file, for
    /// [`super::diag::render`].
    fn in_file(&self, d: &mut Diagnostic) {
        let file = self.sources.file_of(d.span.start);
        if file.base > 0 {
            d.file = Some(file.clone());
        }
    }

    /// The script's global names bound to program variables, by variable
    /// name (the alphabetically first, when several are): what the fetches
    /// printed for a script that printed nothing are called.
    pub fn global_var_names(&self) -> std::collections::HashMap<String, String> {
        let mut names: std::collections::HashMap<String, String> = Default::default();
        for (py, v) in &self.globals.borrow().names {
            if let Value::Var(r) = v {
                let slot = names
                    .entry(r.name.to_string())
                    .or_insert_with(|| py.clone());
                if py < slot {
                    *slot = py.clone();
                }
            }
        }
        names
    }

    /// Runs a whole module; its ops go to `b`.
    pub fn run_module(&mut self, b: &mut ProgramBuilder, body: &[Stmt]) {
        let mut ev = Eval { b, st: self };
        if let Flow::Raise = ev.block(body) {
            ev.uncaught();
        }
        // `return`/`break` outside a function or loop were reported where they stood.
    }
}

impl Script for Interp {
    fn call(
        &mut self,
        b: &mut ProgramBuilder,
        f: Value,
        args: Vec<Value>,
        sp: Range<usize>,
    ) -> Result<Value> {
        let spans = vec![sp.clone(); args.len()];
        let mut ev = Eval { b, st: self };
        let r = ev.call(f, args, spans, Vec::new(), sp.clone())?;
        if ev.st.raised.is_some() {
            // The callee raised: the builtin stops here, the exception
            // unwinds on from the builtin's call.
            return Ok(Value::Poison);
        }
        Ok(r)
    }

    fn warn(&mut self, mut d: Diagnostic) {
        debug_assert!(d.warning);
        self.in_file(&mut d);
        if self
            .seen
            .insert((d.span.start, d.span.end, d.message.clone()))
        {
            self.diags.push(d);
        }
    }

    fn errors_reported(&self) -> u64 {
        self.errors_reported
    }
}

/// The evaluator at work: its state and the programs it builds, borrowed
/// apart so that a builtin can get both (see [`Eval::host`]).
struct Eval<'a> {
    b: &'a mut ProgramBuilder,
    st: &'a mut Interp,
}

impl Eval<'_> {
    /// What a builtin runs with: the builder and the way back into the script.
    fn host(&mut self) -> Host<'_> {
        Host::new(self.b, self.st)
    }

    /// Records an error once (the same span and message in a loop counts once).
    pub fn report(&mut self, d: Diagnostic) {
        if !d.warning {
            if self.st.raised.is_some() || self.st.halted {
                // Unwinding: what fails on the way is a follow-on error.
                return;
            }
            if self.raises() {
                // An exception the script may catch; uncaught, it stops the
                // script and is reported once.
                let e = self.exc_from_diag(d);
                self.st.raised = Some(e);
                return;
            }
        }
        self.record(d);
    }

    /// Keeps a diagnostic for the report, once per place and message.
    pub fn record(&mut self, mut d: Diagnostic) {
        self.st.in_file(&mut d);
        if !d.warning {
            self.st.errors_reported += 1;
        }
        if self
            .st
            .seen
            .insert((d.span.start, d.span.end, d.message.clone()))
        {
            self.st.diags.push(d);
        }
    }

    fn block(&mut self, body: &[Stmt]) -> Flow {
        for s in body {
            if self.b.stopped || self.st.halted {
                // Build mode reached the program the script runs, or a
                // limit stopped the script: unwind out of every block, loop
                // and call (nothing after it counts).
                return Flow::Return(Value::None);
            }
            if self.st.raised.is_some() {
                return Flow::Raise;
            }
            match self.stmt(s) {
                Flow::Normal => {}
                other => return other,
            }
            if self.st.raised.is_some() {
                return Flow::Raise;
            }
        }
        Flow::Normal
    }

    /// The file, 1-based line and line text of an offset.
    fn location(&self, offset: usize) -> (&str, usize, &str) {
        let file = self.st.sources.file_of(offset);
        let line = file.line_of(offset);
        (&file.path, line, file.line(line))
    }

    /// Sets the `op_callstack` for ops appended by the statement at `offset`,
    /// in Python traceback order (outermost call first).
    fn set_callstack(&mut self, offset: usize) {
        let frames = self.trace_here(offset);
        let mut lines = Vec::with_capacity(frames.len() * 2);
        for (at, func) in frames {
            let (path, line, code) = self.location(at);
            lines.push(format!("  File \"{path}\", line {line}, in {func}"));
            lines.push(format!("    {}", code.trim()));
        }
        self.b.callstack = lines;
    }

    fn stmt(&mut self, s: &Stmt) -> Flow {
        self.set_callstack(span(s).start);
        match s {
            Stmt::Expr(e) => {
                self.expr(&e.value);
            }
            Stmt::Assign(a) => {
                let v = self.expr(&a.value);
                if self.st.raised.is_some() {
                    // The value raised: Python binds nothing.
                    return Flow::Normal;
                }
                for t in &a.targets {
                    self.assign(t, v.clone());
                }
            }
            Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    let v = self.expr(value);
                    self.assign(&a.target, v);
                }
            }
            Stmt::AugAssign(a) => {
                let cur = self.expr(&a.target);
                let rhs = self.expr(&a.value);
                let v = self.binop(a.op, cur, rhs, span(s));
                if self.st.raised.is_some() {
                    return Flow::Normal;
                }
                self.assign(&a.target, v);
            }
            Stmt::If(x) => match self.condition(&x.test) {
                Some(true) => return self.block(&x.body),
                Some(false) => return self.block(&x.orelse),
                None => {}
            },
            Stmt::While(x) => loop {
                match self.condition(&x.test) {
                    Some(true) => {}
                    Some(false) => return self.block(&x.orelse),
                    None => return Flow::Normal,
                }
                if !self.count_step(span(s)) {
                    return Flow::Normal;
                }
                let errors = self.st.errors_reported;
                match self.loop_body(&x.body) {
                    Flow::Break => return Flow::Normal,
                    Flow::Return(v) => return Flow::Return(v),
                    Flow::Raise => return Flow::Raise,
                    _ if self.st.errors_reported > errors => return Flow::Normal,
                    Flow::Normal | Flow::Continue => {}
                }
            },
            Stmt::For(x) => {
                let iter = self.expr(&x.iter);
                let Some(items) = self.iterate(&iter, span(x.iter.as_ref())) else {
                    return Flow::Normal;
                };
                for item in items {
                    if !self.count_step(span(s)) {
                        return Flow::Normal;
                    }
                    self.assign(&x.target, item);
                    let errors = self.st.errors_reported;
                    match self.loop_body(&x.body) {
                        Flow::Break => return Flow::Normal,
                        Flow::Return(v) => return Flow::Return(v),
                        Flow::Raise => return Flow::Raise,
                        _ if self.st.errors_reported > errors => return Flow::Normal,
                        Flow::Normal | Flow::Continue => {}
                    }
                }
                return self.block(&x.orelse);
            }
            Stmt::FunctionDef(f) => {
                let mut func = self.make_function(
                    f.name.as_str(),
                    &f.args,
                    FnBody::Def(Rc::new(f.body.clone())),
                );
                // Decorators apply innermost (last) first.
                for d in f.decorator_list.iter().rev() {
                    let deco = self.expr(d);
                    func = match (deco, func) {
                        (Value::Poison, _) | (_, Value::Poison) => Value::Poison,
                        (deco, func) => {
                            match self.call(deco, vec![func], vec![span(d)], Vec::new(), span(d)) {
                                Ok(v) => v,
                                Err(e) => {
                                    self.report(e);
                                    Value::Poison
                                }
                            }
                        }
                    };
                }
                self.set_name(f.name.as_str(), func);
            }
            Stmt::Return(r) => {
                let v = r.value.as_ref().map_or(Value::None, |e| self.expr(e));
                if self.st.calls.is_empty() {
                    self.report(Diagnostic::new(span(s), "`return` outside a function"));
                    return Flow::Normal;
                }
                return Flow::Return(v);
            }
            Stmt::Break(_) | Stmt::Continue(_) if self.st.loop_depth == 0 => {
                self.report(Diagnostic::new(
                    span(s),
                    "`break` and `continue` must be inside a loop",
                ));
            }
            Stmt::Break(_) => return Flow::Break,
            Stmt::Continue(_) => return Flow::Continue,
            Stmt::Pass(_) => {}
            Stmt::With(w) => return self.with(w),
            Stmt::Assert(a) => {
                let v = self.expr(&a.test);
                if v.truthy() == Some(false) {
                    let (msg, text) = match &a.msg {
                        Some(m) => {
                            let t = Show(&self.expr(m), false).to_string();
                            (format!("assertion failed: {t}"), t)
                        }
                        None => ("assertion failed".to_string(), String::new()),
                    };
                    self.fail("AssertionError", &text, Diagnostic::new(span(s), msg));
                }
            }
            Stmt::Global(g) => {
                if let Some(frame) = self.st.scopes.last() {
                    frame
                        .borrow_mut()
                        .globals_declared
                        .extend(g.names.iter().map(|n| n.to_string()));
                }
            }
            Stmt::Nonlocal(_) => self.unsupported(s, "`nonlocal` declarations"),
            Stmt::Delete(d) => {
                for t in &d.targets {
                    match t {
                        Expr::Name(n) => {
                            let frame = self
                                .st
                                .scopes
                                .last()
                                .cloned()
                                .unwrap_or_else(|| self.st.globals.clone());
                            if frame.borrow_mut().names.remove(n.id.as_str()).is_none() {
                                self.undefined(n.id.as_str(), span(t));
                            }
                        }
                        Expr::Subscript(sub) => {
                            let obj = self.expr(&sub.value);
                            let key = self.expr(&sub.slice);
                            if let Err(d) = api::del_item(&obj, &key, span(t)) {
                                self.report(d);
                            }
                        }
                        other => self.report(Diagnostic::new(
                            span(other),
                            "`del` supports names and subscripts",
                        )),
                    }
                }
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    let full = alias.name.as_str();
                    match alias.asname.as_ref() {
                        Some(asname) => match import_module(full) {
                            Some(m) => self.set_name(asname.as_str(), Value::Module(m)),
                            None => {
                                let m = self.import_sibling(full, span(alias));
                                // A failed import binds a failed value: its
                                // uses are no further errors (SPEC §8.5).
                                let m = m.unwrap_or_else(|| {
                                    self.unknown_module(full, span(alias));
                                    Value::Poison
                                });
                                self.set_name(asname.as_str(), m);
                            }
                        },
                        None => {
                            // `import paddle.fluid` binds `paddle`.
                            let top = full.split('.').next().unwrap_or(full);
                            match (import_module(full), import_module(top)) {
                                (Some(_), Some(m)) => self.set_name(top, Value::Module(m)),
                                _ => match self.import_sibling(full, span(alias)) {
                                    Some(m) => self.set_name(full, m),
                                    None => {
                                        self.unknown_module(full, span(alias));
                                        if self.get_name(top).is_none() {
                                            self.set_name(top, Value::Poison);
                                        }
                                    }
                                },
                            }
                        }
                    }
                    if self.st.raised.is_some() {
                        return Flow::Raise;
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map_or("", |m| m.as_str());
                if module == "__future__" {
                    // Python 2 compatibility imports (`print_function`,
                    // `division`, ...): Python 3 semantics are fluidc's.
                    return Flow::Normal;
                }
                let found = match import_module(module) {
                    Some(m) => Some(Value::Module(m)),
                    None if i.level.map_or(0, |l| l.to_u32()) == 0 => {
                        self.import_sibling(module, span(s))
                    }
                    None => None,
                };
                match found {
                    None => {
                        self.unknown_module(module, span(s));
                        for alias in &i.names {
                            let name = alias.asname.as_ref().unwrap_or(&alias.name);
                            self.set_name(name.as_str(), Value::Poison);
                        }
                    }
                    Some(Value::UserModule(m)) => self.import_from_sibling(&m, &i.names),
                    Some(Value::Module(m)) => {
                        for alias in &i.names {
                            let name = alias.name.as_str();
                            if name == "*" {
                                self.report(
                                    Diagnostic::new(span(alias), "`import *` is not supported")
                                        .help("import the names you use"),
                                );
                                continue;
                            }
                            let bound = alias.asname.as_ref().map_or(name, |a| a.as_str());
                            if let Some(v) = self.special_attr(m, name) {
                                self.set_name(bound, v);
                                continue;
                            }
                            match api::module_attr(m, name) {
                                Some(v) => self.set_name(bound, v),
                                None => {
                                    self.report(api::catalog::no_such_attr(m, name, span(alias)));
                                    self.set_name(bound, Value::Poison);
                                }
                            }
                        }
                    }
                    Some(_) => {
                        // The module failed to load (reported) or raised.
                        for alias in &i.names {
                            let name = alias.asname.as_ref().unwrap_or(&alias.name);
                            self.set_name(name.as_str(), Value::Poison);
                        }
                        if self.st.raised.is_some() {
                            return Flow::Raise;
                        }
                    }
                }
            }
            Stmt::ClassDef(c) => self.class_def(c),
            Stmt::Try(t) => return self.try_stmt(t),
            Stmt::TryStar(_) => self.unsupported(s, "`try` ... `except*` statements"),
            Stmt::Raise(r) => self.raise_stmt(r, span(s)),
            Stmt::AsyncFunctionDef(_) | Stmt::AsyncFor(_) | Stmt::AsyncWith(_) => {
                self.unsupported(s, "async code")
            }
            Stmt::Match(_) => self.unsupported(s, "`match` statements"),
            Stmt::TypeAlias(_) => self.unsupported(s, "type aliases"),
        }
        Flow::Normal
    }

    /// Runs a loop body, so `break`/`continue` know they are in a loop.
    fn loop_body(&mut self, body: &[Stmt]) -> Flow {
        self.st.loop_depth += 1;
        let flow = self.block(body);
        self.st.loop_depth -= 1;
        flow
    }

    fn unsupported(&mut self, s: &Stmt, what: &str) {
        let sp = span(s);
        // Point at the first line only: a class body can be long.
        let end = self
            .st
            .sources
            .text(sp.clone())
            .find('\n')
            .map_or(sp.end, |i| sp.start + i);
        self.report(
            Diagnostic::new(sp.start..end, format!("{what} are not supported by fluidc")).help(
                "fluidc runs a subset of Python: README.md's \"Python subset\" section lists it",
            ),
        );
    }

    fn unknown_module(&mut self, module: &str, sp: Range<usize>) {
        self.report(api::catalog::unknown_module(module, sp));
    }

    /// Counts a loop iteration; false (after reporting) when the script
    /// reached a limit, which stops it.
    fn count_step(&mut self, sp: Range<usize>) -> bool {
        if self.st.halted {
            return false;
        }
        self.st.loop_steps += 1;
        let error = if self.st.loop_steps > MAX_LOOP_ITERATIONS {
            Diagnostic::new(sp, "this loop runs too long at compile time")
        } else if self.b.size > MAX_PROGRAM_SIZE {
            Diagnostic::new(
                sp,
                format!("this loop makes the script's programs larger than {MAX_PROGRAM_SIZE} ops, variables and blocks"),
            )
        } else {
            return true;
        };
        // Recorded, not raised: a limit is no exception a script may catch.
        self.record(error.help(
            "a Python loop is unrolled into the program; use layers.While for a loop that runs in the program",
        ));
        self.st.halted = true;
        false
    }

    /// A failed value was used: its error was reported where it failed, and
    /// an enclosing loop stops as after an error, so a loop that only
    /// carries failed values does not run to the iteration limit (found by
    /// fuzzing). Only where errors are reported: where they are raised, a
    /// failed value left behind by a caught exception is no error.
    fn failed_value_used(&mut self) {
        if !self.raises() {
            self.st.errors_reported += 1;
        }
    }

    /// The truth of a Python `if`/`while` condition, or `None` after an error.
    fn condition(&mut self, test: &Expr) -> Option<bool> {
        let v = self.expr(test);
        match v {
            Value::Var(var) => {
                self.report(
                    Diagnostic::new(span(test), format!("a Python `if`/`while` cannot test the program variable `{}`", var.name))
                        .help("its value is only known when the program runs: use layers.While, layers.cond or layers.Switch"),
                );
                None
            }
            // A failed value decides where the code goes: an enclosing loop
            // stops (it can no longer tell when it would end).
            Value::Poison => {
                self.failed_value_used();
                None
            }
            Value::RunTime => {
                self.report(Diagnostic::new(
                    span(test),
                    "this condition depends on values known only when the program runs",
                ));
                None
            }
            other => other.truthy(),
        }
    }

    fn with(&mut self, w: &ast::StmtWith) -> Flow {
        let mut exits = Vec::new();
        let mut manager = None;
        for (k, item) in w.items.iter().enumerate() {
            let ctx = self.expr(&item.context_expr);
            if let Value::Native(n, _) = &ctx {
                if let super::value::Native::ContextCall(f, args, kwargs) = n.as_ref() {
                    if k + 1 == w.items.len() {
                        manager = Some((f.clone(), args.clone(), kwargs.clone(), item));
                        break;
                    }
                    self.report(
                        Diagnostic::new(
                            span(&item.context_expr),
                            "a contextmanager must be the last item of its `with`",
                        )
                        .help("nest the `with` statements"),
                    );
                    continue;
                }
            }
            if let Value::Native(n, _) = &ctx {
                if let super::value::Native::AssertRaises(classes) = n.as_ref() {
                    if w.items.len() == 1 {
                        return self.assert_raises_with(classes, item, w);
                    }
                }
            }
            if let Value::Instance(i) = &ctx {
                // A class with `__enter__`/`__exit__`: Python's protocol.
                if i.class.lookup("__enter__").is_some() {
                    let sp = span(&item.context_expr);
                    let entered = self.call_method(&ctx, "__enter__", Vec::new(), sp.clone());
                    if let Some(target) = &item.optional_vars {
                        self.assign(target, entered.unwrap_or(Value::Poison));
                    }
                    exits.push((WithExit::User(ctx.clone()), sp));
                    continue;
                }
            }
            let entered = match ctx {
                Value::Poison => None,
                other => match api::enter(&mut self.host(), &other, span(&item.context_expr)) {
                    Ok(x) => Some(x),
                    Err(d) => {
                        self.report(d);
                        None
                    }
                },
            };
            let (as_value, exit) = entered.unwrap_or((Value::Poison, Exit::Nothing));
            if let Some(target) = &item.optional_vars {
                self.assign(target, as_value);
            }
            exits.push((WithExit::Api(exit), span(&item.context_expr)));
        }
        let mut flow = match manager {
            Some((f, args, kwargs, item)) => {
                let sp = span(&item.context_expr);
                let kwargs = kwargs
                    .into_iter()
                    .map(|(k, v)| (k, v, sp.clone()))
                    .collect();
                let target = item.optional_vars.as_deref();
                self.with_context_manager(f, args, kwargs, target, &w.body, sp)
            }
            None => self.block(&w.body),
        };
        // Ops a guard appends on exit (`while`, `select`, `conditional_block`)
        // come from the `with` line, as Python's traceback gives it during
        // `__exit__`, not from the body's last statement.
        self.set_callstack(w.range.start().to_usize());
        for (exit, sp) in exits.into_iter().rev() {
            match exit {
                WithExit::Api(exit) => {
                    if let Err(d) = api::exit(&mut self.host(), exit, sp) {
                        self.report(d);
                    }
                }
                WithExit::User(ctx) => {
                    // `__exit__(type, value, traceback)`; a true result
                    // swallows the exception the body raised.
                    let raised = self.st.raised.take();
                    let args = match &raised {
                        Some(e) => vec![
                            Value::Class(e.value.class.clone()),
                            Value::Instance(e.value.clone()),
                            Value::None,
                        ],
                        None => vec![Value::None; 3],
                    };
                    let swallow = self
                        .call_method(&ctx, "__exit__", args, sp)
                        .is_some_and(|r| r.truthy() == Some(true));
                    if self.st.raised.is_none() && !swallow {
                        self.st.raised = raised;
                    } else if swallow && matches!(flow, Flow::Raise) {
                        flow = Flow::Normal;
                    }
                }
            }
        }
        flow
    }

    /// `obj.name(*args)`; `None` when it failed (reported, or raised).
    fn call_method(
        &mut self,
        obj: &Value,
        name: &str,
        args: Vec<Value>,
        sp: Range<usize>,
    ) -> Option<Value> {
        let method = match self.get_attr_ext(obj, name, sp.clone()) {
            Some(Ok(m)) => m,
            Some(Err(d)) => {
                self.report(d);
                return None;
            }
            None => return None,
        };
        let spans = vec![sp.clone(); args.len()];
        match self.call(method, args, spans, Vec::new(), sp) {
            Ok(v) if self.st.raised.is_none() => Some(v),
            Ok(_) => None,
            Err(d) => {
                self.report(d);
                None
            }
        }
    }

    fn make_function(&mut self, name: &str, args: &ast::Arguments, body: FnBody) -> Value {
        let mut params = Vec::new();
        for (a, kw_only) in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .map(|a| (a, false))
            .chain(args.kwonlyargs.iter().map(|a| (a, true)))
        {
            let default = a.default.as_ref().map(|d| self.expr(d));
            params.push(FnParam {
                name: a.def.arg.to_string(),
                default,
                kw_only,
            });
        }
        let generator = match &body {
            FnBody::Def(stmts) => stmts.iter().any(exc::yields),
            FnBody::Lambda(_) => false,
        };
        Value::Function(Rc::new(Function {
            name: name.to_string(),
            params,
            vararg: args.vararg.as_ref().map(|a| a.arg.to_string()),
            kwarg: args.kwarg.as_ref().map(|a| a.arg.to_string()),
            body,
            // A class body's names are not visible to the functions in it.
            closure: self
                .st
                .scopes
                .iter()
                .filter(|f| !f.borrow().is_class)
                .cloned()
                .collect(),
            owner: RefCell::new(None),
            generator,
            globals: self.st.globals.clone(),
        }))
    }

    // ---- names ----

    fn set_name(&mut self, name: &str, v: Value) {
        let frame = match self.st.scopes.last() {
            Some(f) if !f.borrow().globals_declared.iter().any(|g| g == name) => f.clone(),
            _ => self.st.globals.clone(),
        };
        frame.borrow_mut().names.insert(name.to_string(), v);
    }

    fn get_name(&self, name: &str) -> Option<Value> {
        for f in self.st.scopes.iter().rev() {
            if let Some(v) = f.borrow().names.get(name) {
                return Some(v.clone());
            }
        }
        if let Some(v) = self.st.globals.borrow().names.get(name) {
            return Some(v.clone());
        }
        classes::builtin_name(name).or_else(|| api::python_builtin(name))
    }

    fn undefined(&mut self, name: &str, sp: Range<usize>) {
        let mut known: Vec<String> = self.st.globals.borrow().names.keys().cloned().collect();
        for f in &self.st.scopes {
            known.extend(f.borrow().names.keys().cloned());
        }
        let close = crate::front::diag::closest(
            known.iter().map(String::as_str).filter(|k| k.len() > 1),
            name,
        );
        let mut d = Diagnostic::new(sp, format!("name `{name}` is not defined"));
        d = match (api::catalog::undefined_name_help(name), close) {
            (Some(help), _) => d.help(help),
            (None, Some(c)) => d.help(format!("did you mean `{c}`?")),
            (None, None) => d.help(format!("assign `{name}` before this line")),
        };
        self.report(d);
    }

    fn assign(&mut self, target: &Expr, v: Value) {
        match target {
            Expr::Name(n) => self.set_name(n.id.as_str(), v),
            Expr::Tuple(t) => self.unpack(&t.elts, v, span(target)),
            Expr::List(t) => self.unpack(&t.elts, v, span(target)),
            Expr::Subscript(s) => {
                let obj = self.expr(&s.value);
                if matches!(obj, Value::Poison) {
                    return;
                }
                if let Value::Array(x) = obj {
                    let parts = self.subscript_parts(&s.slice);
                    self.set_array_item(&s.value, x, &parts, &v, span(target));
                    return;
                }
                let key = self.expr(&s.slice);
                if let Err(d) = api::set_item(&obj, key, v, span(target)) {
                    self.report(d);
                }
            }
            Expr::Attribute(a) => {
                let obj = self.expr(&a.value);
                if self.set_attr_ext(&obj, a.attr.as_str(), &v) {
                    return;
                }
                if !matches!(obj, Value::Poison) {
                    if let Err(d) =
                        api::set_attr(&mut self.host(), &obj, a.attr.as_str(), v, span(target))
                    {
                        self.report(d);
                    }
                }
            }
            other => self.report(Diagnostic::new(
                span(other),
                "cannot assign to this expression",
            )),
        }
    }

    /// A subscript's key as the parts of an index tuple: `a[i]`, `a[1:3]`,
    /// `a[i, :]`, `a[..., 0]` and a tuple value `a[t]`.
    fn subscript_parts(&mut self, slice: &Expr) -> Vec<api::KeyPart> {
        let part = |me: &mut Self, e: &Expr| match e {
            Expr::Constant(c) if matches!(c.value, Constant::Ellipsis) => api::KeyPart::Ellipsis,
            Expr::Slice(sl) => {
                let mut b = |x: &Option<Box<Expr>>| x.as_ref().map(|x| me.expr(x));
                api::KeyPart::Slice([b(&sl.lower), b(&sl.upper), b(&sl.step)])
            }
            other => api::KeyPart::Value(me.expr(other)),
        };
        match slice {
            Expr::Tuple(t) => t.elts.iter().map(|el| part(self, el)).collect(),
            other => match part(self, other) {
                api::KeyPart::Value(Value::Tuple(items)) => {
                    items.iter().cloned().map(api::KeyPart::Value).collect()
                }
                p => vec![p],
            },
        }
    }

    /// `a[key] = v` into a numpy array. Arrays are shared values, so every
    /// name bound to this array sees the change, as numpy's in-place write
    /// shows through every name of the array (views of a part of it, such
    /// as `row = a[0]`, are copies here). The array is written in place
    /// when nothing else holds it.
    fn set_array_item(
        &mut self,
        base: &Expr,
        mut x: Rc<crate::host::HostArray>,
        parts: &[api::KeyPart],
        v: &Value,
        sp: Range<usize>,
    ) {
        let mut holders = Vec::new();
        let frames = std::iter::once(self.st.globals.clone()).chain(self.st.scopes.iter().cloned());
        for frame in frames {
            for (name, held) in frame.borrow_mut().names.iter_mut() {
                if matches!(held, Value::Array(h) if Rc::ptr_eq(h, &x)) {
                    *held = Value::None;
                    holders.push((frame.clone(), name.clone()));
                }
            }
        }
        let result = api::numpy::set_item_parts(Rc::make_mut(&mut x), parts, v, sp);
        for (frame, name) in holders {
            frame
                .borrow_mut()
                .names
                .insert(name, Value::Array(x.clone()));
        }
        match result {
            Err(d) => self.report(d),
            // `self.w[i] = v`, `d[k][i] = v`: the container takes the new array.
            Ok(()) if !matches!(base, Expr::Name(_)) => self.assign(base, Value::Array(x)),
            Ok(()) => {}
        }
    }

    fn unpack(&mut self, targets: &[Expr], v: Value, sp: Range<usize>) {
        if let Value::Poison = v {
            for t in targets {
                self.assign(t, Value::Poison);
            }
            return;
        }
        let items = match (&v, v.items()) {
            (Value::RunTime, _) => vec![Value::RunTime; targets.len()],
            (_, Some(items)) => items,
            (_, None) => {
                self.report(Diagnostic::new(
                    sp,
                    format!("cannot unpack a {}", v.type_name()),
                ));
                return;
            }
        };
        if items.len() != targets.len() {
            self.report(Diagnostic::new(
                sp,
                format!(
                    "expected {} values to unpack, got {}",
                    targets.len(),
                    items.len()
                ),
            ));
            return;
        }
        for (t, item) in targets.iter().zip(items) {
            self.assign(t, item);
        }
    }

    fn iterate(&mut self, v: &Value, sp: Range<usize>) -> Option<Vec<Value>> {
        match v {
            Value::Poison => None,
            Value::Var(var) => {
                self.report(
                    Diagnostic::new(
                        sp,
                        format!(
                            "cannot iterate over the program variable `{}` at compile time",
                            var.name
                        ),
                    )
                    .help("use layers.While for a loop that runs in the program"),
                );
                None
            }
            other => match other.items() {
                Some(items) => Some(items),
                None if matches!(other, Value::Range { .. }) => {
                    self.report(
                        Diagnostic::new(sp, "this range is too long to unroll at compile time")
                            .help("a Python loop is unrolled into the program; use layers.While for a loop that runs in the program"),
                    );
                    None
                }
                None => {
                    self.report(Diagnostic::new(
                        sp,
                        format!("a {} is not iterable", other.type_name()),
                    ));
                    None
                }
            },
        }
    }

    // ---- expressions ----

    pub fn expr(&mut self, e: &Expr) -> Value {
        match self.try_expr(e) {
            Ok(Value::Poison) => {
                self.failed_value_used();
                Value::Poison
            }
            Ok(v) => v,
            Err(d) => {
                self.report(d);
                Value::Poison
            }
        }
    }

    fn try_expr(&mut self, e: &Expr) -> Result<Value> {
        Ok(match e {
            Expr::Constant(c) => self.constant(&c.value, span(e))?,
            Expr::Name(n) if n.id.as_str() == "xrange" && self.get_name("xrange").is_none() => {
                self.report(
                    Diagnostic::warning(
                        span(e),
                        "`xrange` is Python 2's; fluidc runs it as `range`",
                    )
                    .help("write `range` (Python 3)"),
                );
                api::python_builtin("range").unwrap_or(Value::Poison)
            }
            Expr::Name(n) => match self.get_name(n.id.as_str()) {
                Some(v) => v,
                None => {
                    self.undefined(n.id.as_str(), span(e));
                    Value::Poison
                }
            },
            Expr::Attribute(a) => {
                let obj = self.expr(&a.value);
                match obj {
                    Value::Poison => Value::Poison,
                    obj => match self.get_attr_ext(&obj, a.attr.as_str(), span(e)) {
                        Some(v) => v?,
                        None => api::get_attr(&mut self.host(), &obj, a.attr.as_str(), span(e))?,
                    },
                }
            }
            Expr::Call(c) => self.call_expr(c, span(e))?,
            Expr::BinOp(b) => {
                let l = self.expr(&b.left);
                let r = self.expr(&b.right);
                self.binop(b.op, l, r, span(e))
            }
            Expr::UnaryOp(u) => {
                let v = self.expr(&u.operand);
                match (u.op, v) {
                    (_, Value::Poison) => Value::Poison,
                    (UnaryOp::Not, Value::Var(var)) => {
                        return Err(Diagnostic::new(
                            span(e),
                            format!("`not` cannot test the program variable `{}`", var.name),
                        )
                        .help("use layers.logical_not(x)"))
                    }
                    (UnaryOp::Not, v) => match v.truthy() {
                        Some(b) => Value::Bool(!b),
                        None => Value::RunTime,
                    },
                    (op, v) => api::unary(&mut self.host(), op, v, span(e))?,
                }
            }
            Expr::BoolOp(b) => {
                let mut last = Value::None;
                for (i, ve) in b.values.iter().enumerate() {
                    last = self.expr(ve);
                    if let Value::Var(var) = &last {
                        let f = if b.op == BoolOp::And {
                            "logical_and"
                        } else {
                            "logical_or"
                        };
                        return Err(Diagnostic::new(
                            span(ve),
                            format!("`and`/`or` cannot test the program variable `{}`", var.name),
                        )
                        .help(format!("use layers.{f}(x, y)")));
                    }
                    let Some(t) = last.truthy() else {
                        return Ok(last);
                    };
                    let stop = if b.op == BoolOp::And { !t } else { t };
                    if stop || i + 1 == b.values.len() {
                        break;
                    }
                }
                last
            }
            Expr::Compare(c) => {
                let mut left = self.expr(&c.left);
                let mut result = Value::Bool(true);
                for (op, right_e) in c.ops.iter().zip(&c.comparators) {
                    let right = self.expr(right_e);
                    result = self.compare(*op, &left, &right, span(e))?;
                    if matches!(result, Value::Bool(false)) || !matches!(result, Value::Bool(_)) {
                        break;
                    }
                    left = right;
                }
                result
            }
            Expr::IfExp(x) => match self.condition(&x.test) {
                Some(true) => self.expr(&x.body),
                Some(false) => self.expr(&x.orelse),
                None => Value::Poison,
            },
            Expr::List(l) => self.elements(&l.elts).map_or(Value::Poison, Value::list),
            Expr::Tuple(t) => self.elements(&t.elts).map_or(Value::Poison, Value::tuple),
            Expr::Set(s) => self.elements(&s.elts).map_or(Value::Poison, Value::list),
            Expr::Dict(d) => {
                let mut dict = Dict::default();
                let mut failed = false;
                for (k, v) in d.keys.iter().zip(&d.values) {
                    let val = self.expr(v);
                    let key = k.as_ref().map(|k| (self.expr(k), span(k)));
                    match (key, val) {
                        (Some((Value::Poison, _)), _) | (_, Value::Poison) => failed = true,
                        (Some((key, sp)), val) => {
                            if let Err(t) = dict.insert(key, val) {
                                self.report(api::unhashable(t, sp));
                                failed = true;
                            }
                        }
                        (None, Value::Dict(other)) => {
                            for (k, v) in other.borrow().iter() {
                                // Keys of a dict are hashable.
                                let _ = dict.insert(k.clone(), v.clone());
                            }
                        }
                        (None, _) => {}
                    }
                }
                if failed {
                    Value::Poison
                } else {
                    Value::Dict(Rc::new(RefCell::new(dict)))
                }
            }
            Expr::ListComp(lc) => self.comprehension(&lc.elt, &lc.generators)?,
            Expr::GeneratorExp(g) => self.comprehension(&g.elt, &g.generators)?,
            Expr::Subscript(s) => {
                let mut obj = self.expr(&s.value);
                if matches!(obj, Value::Poison) {
                    return Ok(Value::Poison);
                }
                if let Some(items) = match &obj {
                    Value::Instance(i) => i.tuple_items(),
                    _ => None,
                } {
                    obj = Value::tuple(items); // a namedtuple indexes as its tuple
                }
                if let Value::Var(v) = &obj {
                    // `var[0]`, `var[1:3]`: a `slice` op, as Paddle builds it.
                    let parts = self.subscript_parts(&s.slice);
                    return api::basic_layers::var_getitem(&mut self.host(), v, &parts)
                        .map_err(|m| Diagnostic::new(span(e), m));
                }
                if let Value::Array(_) | Value::NpScalar(_) = obj {
                    let parts = self.subscript_parts(&s.slice);
                    api::get_item_parts(&obj, parts, span(e))?
                } else if let Expr::Slice(sl) = s.slice.as_ref() {
                    let bound =
                        |me: &mut Self, x: &Option<Box<Expr>>| x.as_ref().map(|x| me.expr(x));
                    let (lo, hi, st) = (
                        bound(self, &sl.lower),
                        bound(self, &sl.upper),
                        bound(self, &sl.step),
                    );
                    api::slice(&obj, lo, hi, st, span(e))?
                } else if let Expr::Tuple(_) = s.slice.as_ref() {
                    // `x[:, 0, 1:]`: slices are allowed inside an array's key.
                    let parts = self.subscript_parts(&s.slice);
                    api::get_item_parts(&obj, parts, span(e))?
                } else {
                    let key = self.expr(&s.slice);
                    if let Some(v) = self.default_item(&obj, &key, span(e))? {
                        return Ok(v);
                    }
                    api::get_item(&obj, &key, span(e))?
                }
            }
            Expr::Lambda(l) => self.make_function(
                "<lambda>",
                &l.args,
                FnBody::Lambda(Rc::new((*l.body).clone())),
            ),
            Expr::JoinedStr(j) => {
                let mut s = String::new();
                for part in &j.values {
                    match part {
                        Expr::Constant(c) => {
                            if let Constant::Str(t) = &c.value {
                                s.push_str(t);
                            }
                        }
                        Expr::FormattedValue(f) => {
                            let v = self.expr(&f.value);
                            let spec = match &f.format_spec {
                                Some(spec) => match self.expr(spec) {
                                    Value::Str(x) => x.to_string(),
                                    _ => String::new(),
                                },
                                None => String::new(),
                            };
                            let repr = f.conversion == ast::ConversionFlag::Repr;
                            s.push_str(&api::format_value(&v, &spec, repr, span(part))?);
                        }
                        other => {
                            let v = self.expr(other);
                            s.push_str(&Show(&v, false).to_string());
                        }
                    }
                }
                api::check_size(s.len(), &span(e))?;
                Value::str(&s)
            }
            Expr::Starred(_) => {
                return Err(Diagnostic::new(
                    span(e),
                    "`*` is only supported in call arguments",
                ))
            }
            Expr::Yield(y) => {
                let v = y.value.as_ref().map_or(Value::None, |v| self.expr(v));
                if let Some(sent) = self.yield_to_body(v.clone(), span(e)) {
                    return Ok(sent);
                }
                match self.st.yields.last_mut() {
                    Some(out) => {
                        api::check_size(out.len() + 1, &span(e))?;
                        out.push(v);
                    }
                    None => return Err(Diagnostic::new(span(e), "`yield` outside a function")),
                }
                Value::None
            }
            Expr::SetComp(sc) => {
                let Value::List(items) = self.comprehension(&sc.elt, &sc.generators)? else {
                    return Ok(Value::Poison);
                };
                let mut seen = Dict::default();
                let mut out = Vec::new();
                for v in items.borrow().iter() {
                    if let Ok(None) = seen.get(v) {
                        if let Err(t) = seen.insert(v.clone(), Value::None) {
                            return Err(api::unhashable(t, span(e)));
                        }
                        out.push(v.clone());
                    }
                }
                Value::list(out)
            }
            Expr::DictComp(dc) => {
                let pair = Expr::Tuple(ast::ExprTuple {
                    range: dc.range,
                    elts: vec![(*dc.key).clone(), (*dc.value).clone()],
                    ctx: ast::ExprContext::Load,
                });
                let Value::List(items) = self.comprehension(&pair, &dc.generators)? else {
                    return Ok(Value::Poison);
                };
                let mut dict = Dict::default();
                for kv in items.borrow().iter() {
                    if let Value::Tuple(kv) = kv {
                        if let Err(t) = dict.insert(kv[0].clone(), kv[1].clone()) {
                            return Err(api::unhashable(t, span(dc.key.as_ref())));
                        }
                    }
                }
                Value::Dict(Rc::new(RefCell::new(dict)))
            }
            Expr::NamedExpr(_) | Expr::Await(_) | Expr::YieldFrom(_) => {
                return Err(Diagnostic::new(
                    span(e),
                    "this expression is not supported by fluidc",
                ))
            }
            Expr::FormattedValue(_) | Expr::Slice(_) => {
                return Err(Diagnostic::new(span(e), "unexpected expression here"))
            }
        })
    }

    fn constant(&mut self, c: &Constant, sp: Range<usize>) -> Result<Value> {
        Ok(match c {
            Constant::None => Value::None,
            Constant::Bool(b) => Value::Bool(*b),
            Constant::Str(s) => Value::str(s),
            Constant::Int(_) => match int_literal(c) {
                Some(i) => Value::Int(i),
                None => {
                    return Err(Diagnostic::new(
                        sp,
                        "integer literal does not fit in 64 bits",
                    ))
                }
            },
            Constant::Float(f) => Value::Float(*f),
            Constant::Tuple(items) => {
                let mut vals = Vec::new();
                for item in items {
                    vals.push(self.constant(item, sp.clone())?);
                }
                Value::tuple(vals)
            }
            Constant::Ellipsis => Value::None,
            Constant::Bytes(_) | Constant::Complex { .. } => {
                return Err(Diagnostic::new(
                    sp,
                    "bytes and complex literals are not supported",
                ))
            }
        })
    }

    /// The items of a list, tuple or set display; `None` after an error
    /// (in an element or a `*` part), so that the display is an error too
    /// rather than a container holding one.
    fn elements(&mut self, elts: &[Expr]) -> Option<Vec<Value>> {
        let mut out = Vec::with_capacity(elts.len());
        let mut failed = false;
        for e in elts {
            let v = match e {
                Expr::Starred(s) => self.expr(&s.value),
                _ => self.expr(e),
            };
            // Every element is evaluated, so that each error in it is reported.
            if failed || matches!(v, Value::Poison) {
                failed = true;
                continue;
            }
            if !matches!(e, Expr::Starred(_)) {
                out.push(v);
                continue;
            }
            let more = v.item_count().unwrap_or(0);
            if let Err(d) = api::check_size(out.len().saturating_add(more), &span(e)) {
                self.report(d);
                failed = true;
                continue;
            }
            match self.iterate(&v, span(e)) {
                Some(items) => out.extend(items),
                None => failed = true,
            }
        }
        (!failed).then_some(out)
    }

    fn comprehension(&mut self, elt: &Expr, gens: &[ast::Comprehension]) -> Result<Value> {
        let frame = Rc::new(RefCell::new(Frame::default()));
        self.st.scopes.push(frame);
        let mut out = Vec::new();
        self.comp_level(elt, gens, &mut out);
        self.st.scopes.pop();
        Ok(Value::list(out))
    }

    fn comp_level(&mut self, elt: &Expr, gens: &[ast::Comprehension], out: &mut Vec<Value>) {
        let Some((g, rest)) = gens.split_first() else {
            out.push(self.expr(elt));
            return;
        };
        let iter = self.expr(&g.iter);
        let Some(items) = self.iterate(&iter, span(&g.iter)) else {
            return;
        };
        'items: for item in items {
            if self.st.raised.is_some() || !self.count_step(span(&g.iter)) {
                return;
            }
            self.assign(&g.target, item);
            for cond in &g.ifs {
                if self.condition(cond) != Some(true) {
                    continue 'items;
                }
            }
            self.comp_level(elt, rest, out);
        }
    }

    pub fn binop(&mut self, op: Operator, l: Value, r: Value, sp: Range<usize>) -> Value {
        if matches!(l, Value::Poison) || matches!(r, Value::Poison) {
            return Value::Poison;
        }
        match api::binary(&mut self.host(), op, l, r, sp) {
            Ok(v) => v,
            Err(d) => {
                self.report(d);
                Value::Poison
            }
        }
    }

    fn compare(&mut self, op: CmpOp, l: &Value, r: &Value, sp: Range<usize>) -> Result<Value> {
        if matches!(l, Value::Poison) || matches!(r, Value::Poison) {
            return Ok(Value::Poison);
        }
        if let Some(same) = classes::identical(l, r) {
            return Ok(Value::Bool(match op {
                CmpOp::Eq | CmpOp::Is => same,
                CmpOp::NotEq | CmpOp::IsNot => !same,
                _ => {
                    return Err(Diagnostic::new(
                        sp,
                        format!(
                            "TypeError: this comparison is not supported between {} and {}",
                            l.type_name(),
                            r.type_name()
                        ),
                    ))
                }
            }));
        }
        api::compare(&mut self.host(), op, l, r, sp)
    }

    fn call_expr(&mut self, c: &ast::ExprCall, sp: Range<usize>) -> Result<Value> {
        let func = self.expr(&c.func);
        let mut args = Vec::with_capacity(c.args.len());
        let mut arg_spans = Vec::with_capacity(c.args.len());
        for a in &c.args {
            if let Expr::Starred(s) = a {
                let v = self.expr(&s.value);
                for item in self.iterate(&v, span(a)).unwrap_or_default() {
                    args.push(item);
                    arg_spans.push(span(a));
                }
            } else {
                args.push(self.expr(a));
                arg_spans.push(span(a));
            }
        }
        let mut kwargs = Vec::with_capacity(c.keywords.len());
        for k in &c.keywords {
            let v = self.expr(&k.value);
            match &k.arg {
                Some(name) => kwargs.push((name.to_string(), v, span(k))),
                None => match v {
                    Value::Dict(d) => {
                        for (key, val) in d.borrow().iter() {
                            if let Value::Str(key) = key {
                                kwargs.push((key.to_string(), val.clone(), span(k)));
                            }
                        }
                    }
                    Value::Poison => {}
                    other => self.report(Diagnostic::new(
                        span(k),
                        format!("`**` needs a dict, not {}", other.type_name()),
                    )),
                },
            }
        }
        if matches!(func, Value::Poison)
            || args
                .iter()
                .chain(kwargs.iter().map(|k| &k.1))
                .any(|v| matches!(v, Value::Poison))
        {
            // An argument failed (its error is reported): no second error
            // from what the call would have set up (a Switch's case).
            api::call_skipped(&func);
            return Ok(Value::Poison);
        }
        self.call(func, args, arg_spans, kwargs, sp)
    }

    /// Calls a function value with evaluated arguments.
    pub fn call(
        &mut self,
        func: Value,
        args: Vec<Value>,
        arg_spans: Vec<Range<usize>>,
        kwargs: Vec<(String, Value, Range<usize>)>,
        sp: Range<usize>,
    ) -> Result<Value> {
        if let Some(r) = self.call_ext(&func, &args, &arg_spans, &kwargs, &sp) {
            return r;
        }
        match func {
            Value::Builtin(b, recv) => {
                self.call_builtin(b, recv.map(|r| (*r).clone()), args, arg_spans, kwargs, sp)
            }
            Value::Function(f) => self.call_function(&f, args, kwargs, sp),
            Value::DType(k) => api::convert_dtype_call(k, args, sp),
            // An object with a `__call__` method (`rnn()` of a StaticRNN).
            Value::Object(_)
                if api::lookup(&format!("{}.__call__", func.type_name())).is_some() =>
            {
                let call = api::get_attr(&mut self.host(), &func, "__call__", sp.clone())?;
                self.call(call, args, arg_spans, kwargs, sp)
            }
            other => Err(Diagnostic::new(
                sp,
                format!("a {} is not callable", other.type_name()),
            )),
        }
    }

    fn call_builtin(
        &mut self,
        b: &'static Builtin,
        recv: Option<Value>,
        args: Vec<Value>,
        arg_spans: Vec<Range<usize>>,
        kwargs: Vec<(String, Value, Range<usize>)>,
        sp: Range<usize>,
    ) -> Result<Value> {
        let mut bound = api::bind(b, recv, args, arg_spans, kwargs, sp)?;
        for (name, at) in std::mem::take(&mut bound.ignored) {
            self.ignored_keyword(b, &name, at);
        }
        (b.body)(&mut self.host(), &mut bound)
    }

    /// Paddle's `**ignored` layers drop unknown keywords without a word, so
    /// a misspelt `cond=` silently builds another program (a loop that never
    /// ends, say): fluidc builds the same program and warns.
    fn ignored_keyword(&mut self, b: &api::Builtin, name: &str, at: Range<usize>) {
        let short = b.name.rsplit('.').next().unwrap_or(b.name);
        let close = crate::front::diag::closest(b.params.iter().map(|(p, _)| *p), name);
        let help = match close {
            Some(p) => format!("did you mean `{p}`? (Paddle ignores unknown keywords here)"),
            None => "remove it: Paddle ignores unknown keywords here".to_string(),
        };
        self.report(
            Diagnostic::warning(
                at,
                format!("{short}() ignores the keyword argument `{name}`"),
            )
            .help(help),
        );
    }

    fn call_function(
        &mut self,
        f: &Rc<Function>,
        args: Vec<Value>,
        kwargs: Vec<(String, Value, Range<usize>)>,
        sp: Range<usize>,
    ) -> Result<Value> {
        if self.st.calls.len() >= MAX_CALL_DEPTH {
            return Err(Diagnostic::new(
                sp,
                format!("calls nested deeper than {MAX_CALL_DEPTH} levels (runaway recursion?)"),
            ));
        }
        let frame = Rc::new(RefCell::new(Frame::default()));
        {
            let mut fr = frame.borrow_mut();
            let positional: Vec<&FnParam> = f.params.iter().filter(|p| !p.kw_only).collect();
            let mut args = args;
            if let Some(rest) = &f.vararg {
                let extra = args.split_off(positional.len().min(args.len()));
                fr.names.insert(rest.clone(), Value::tuple(extra));
            }
            let mut extra_kwargs = Dict::default();
            if args.len() > positional.len() {
                return Err(Diagnostic::new(
                    sp,
                    format!(
                        "{}() takes {} positional arguments but {} were given",
                        f.name,
                        positional.len(),
                        args.len()
                    ),
                ));
            }
            for (p, a) in positional.iter().zip(args) {
                fr.names.insert(p.name.clone(), a);
            }
            for (name, v, ksp) in kwargs {
                if f.kwarg.is_some() && !f.params.iter().any(|p| p.name == name) {
                    // A string key is always hashable.
                    let _ = extra_kwargs.insert(Value::str(&name), v);
                    continue;
                }
                if !f.params.iter().any(|p| p.name == name) {
                    return Err(Diagnostic::new(
                        ksp,
                        format!("{}() got an unexpected keyword argument `{name}`", f.name),
                    ));
                }
                if fr.names.insert(name.clone(), v).is_some() {
                    return Err(Diagnostic::new(
                        ksp,
                        format!("{}() got multiple values for argument `{name}`", f.name),
                    ));
                }
            }
            if let Some(kw) = &f.kwarg {
                fr.names
                    .insert(kw.clone(), Value::Dict(Rc::new(RefCell::new(extra_kwargs))));
            }
            for p in &f.params {
                if !fr.names.contains_key(&p.name) {
                    match &p.default {
                        Some(d) => {
                            fr.names.insert(p.name.clone(), d.clone());
                        }
                        None => {
                            return Err(Diagnostic::new(
                                sp,
                                format!("{}() is missing the argument `{}`", f.name, p.name),
                            ))
                        }
                    }
                }
            }
        }
        let owner = f.owner.borrow().as_ref().and_then(|w| w.upgrade());
        let first = f
            .params
            .first()
            .and_then(|p| frame.borrow().names.get(&p.name).cloned());
        self.st.methods.push(owner.zip(first));
        let saved = std::mem::replace(&mut self.st.scopes, f.closure.clone());
        let saved_globals = std::mem::replace(&mut self.st.globals, f.globals.clone());
        self.st.scopes.push(frame);
        self.st.calls.push((sp.start, f.name.clone()));
        let saved_loops = std::mem::replace(&mut self.st.loop_depth, 0);
        if f.generator {
            self.st.yields.push(Vec::new());
        }
        let mut result = match &f.body {
            FnBody::Def(body) => match self.block(body) {
                Flow::Return(v) => v,
                _ => Value::None,
            },
            FnBody::Lambda(e) => self.expr(e),
        };
        if f.generator {
            // Eager: the values it yielded, as a list to iterate.
            result = Value::list(self.st.yields.pop().unwrap_or_default());
        }
        if self.st.raised.is_some() {
            result = Value::Poison;
        }
        self.st.methods.pop();
        self.st.calls.pop();
        self.st.loop_depth = saved_loops;
        self.st.scopes = saved;
        self.st.globals = saved_globals;
        self.set_callstack(sp.start);
        Ok(result)
    }
}

/// The module an `import` names: one `api` knows, or one the evaluator
/// implements (`math`, `functools`, ...).
fn import_module(path: &str) -> Option<&'static str> {
    classes::OWN_MODULES
        .iter()
        .find(|m| **m == path)
        .copied()
        .or_else(|| api::import_module(path))
}
