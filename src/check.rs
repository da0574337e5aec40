//! `fluidc check`'s static findings (README, "Python: the VM"): every undefined name and
//! every unknown API of fluidc's package (`fluid.layers.elementwize_add`,
//! `np.random.randnn`) in a file, all at once, before anything runs. A
//! run stops at the first error; this pass sees the whole file.
//!
//! Names are resolved with Python's scoping rules (function, lambda and
//! comprehension scopes see their enclosing functions and the module, not
//! class bodies; `global` and `nonlocal` as declared); a name bound
//! anywhere in a scope counts as defined there. Builtins and the
//! package's modules come from the VM itself, so they cannot drift. A
//! module whose names are not all visible statically (`exec`,
//! `globals()`, a `*` import of a module that is not fluidc's) gets no
//! undefined-name findings.
use std::collections::{HashMap, HashSet};
use std::ops::Range;

use rustpython_parser::ast::{self, Expr, ExprContext, Pattern, Ranged, Stmt};
use rustpython_vm::builtins::PyStr;
use rustpython_vm::{AsObject, VirtualMachine};

use crate::diag::{self, Diagnostic};
use crate::input::{display_name, CliError};

/// The closest of `candidates` to `name` (at most two edits), for "did
/// you mean" hints.
pub fn closest<'c>(candidates: impl Iterator<Item = &'c str>, name: &str) -> Option<&'c str> {
    candidates
        .map(|c| (strsim::levenshtein(c, name), c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// The top-level modules whose attributes `check` knows (fluidc's own).
const PACKAGES: &[&str] = &["paddle", "numpy"];

/// Reports the static problems of the script at `path`: rendered
/// diagnostics as a user error (exit 1), or nothing. A file that does not
/// parse is left to the VM, which reports the SyntaxError as CPython does.
pub fn static_check(path: &str) -> Result<(), CliError> {
    let source = crate::script::source(path)?;
    let Ok(ast::Mod::Module(module)) =
        rustpython_parser::parse(&source, rustpython_parser::Mode::Module, display_name(path))
    else {
        return Ok(());
    };
    let mut s = Scopes::default();
    s.push(Kind::Module, None);
    s.stmts(&module.body);
    let star_imports: Vec<String> = s.star_imports.clone();
    let loads = std::mem::take(&mut s.loads);
    let chains = std::mem::take(&mut s.chains);
    let diags = crate::vm::with_package(move |vm| {
        let mut diags = Vec::new();
        // What `import paddle` installs (`xrange`) counts as a builtin.
        let _ = vm.import("paddle", 0);
        let builtins = builtin_names(vm);
        for m in &star_imports {
            match module_names(vm, m) {
                Some(names) => s.scopes[0].bound.extend(names),
                None => s.dynamic = true,
            }
        }
        if !s.dynamic {
            for (scope, name, range) in &loads {
                if !s.resolves(*scope, name) && !builtins.contains(name.as_str()) {
                    diags.push(
                        Diagnostic::new(range.clone(), format!("name `{name}` is not defined"))
                            .help(format!("assign `{name}` before this line")),
                    );
                }
            }
        }
        for chain in &chains {
            if let Some(d) = s.check_chain(vm, chain) {
                diags.push(d);
            }
        }
        diags
    });
    if diags.is_empty() {
        return Ok(());
    }
    let mut diags = diags;
    diags.sort_by_key(|d| d.span.start);
    Err(CliError::rendered(diag::render(
        display_name(path),
        &source,
        &diags,
    )))
}

/// Python's builtins, and the names every module has.
fn builtin_names(vm: &VirtualMachine) -> HashSet<String> {
    let mut names: HashSet<String> = [
        "__name__",
        "__file__",
        "__doc__",
        "__builtins__",
        "__spec__",
        "__loader__",
        "__package__",
        "__annotations__",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    if let Ok(keys) = vm.builtins.as_object().get_attr("__dict__", vm) {
        if let Ok(list) = vm.call_method(&keys, "keys", ()) {
            if let Ok(items) = list.try_to_value::<Vec<rustpython_vm::PyObjectRef>>(vm) {
                for k in items {
                    if let Some(s) = k.downcast_ref::<PyStr>() {
                        names.insert(s.as_str().to_string());
                    }
                }
            }
        }
    }
    names
}

/// The module `name` itself (`vm.import` gives a dotted name's top
/// package, as `__import__` does).
fn import_module(vm: &VirtualMachine, name: &str) -> Option<rustpython_vm::PyObjectRef> {
    vm.import(vm.ctx.intern_str(name), 0).ok()?;
    let modules = vm.sys_module.get_attr("modules", vm).ok()?;
    modules.get_item(name, vm).ok()
}

/// The public names of one of fluidc's modules (`from paddle.fluid import *`).
fn module_names(vm: &VirtualMachine, module: &str) -> Option<Vec<String>> {
    if !PACKAGES.contains(&module.split('.').next().unwrap_or("")) {
        return None;
    }
    let m = import_module(vm, module)?;
    let names = match m.get_attr("__all__", vm) {
        Ok(all) => all.try_to_value::<Vec<String>>(vm).ok()?,
        Err(_) => dir(vm, &m)
            .into_iter()
            .filter(|n| !n.starts_with('_'))
            .collect(),
    };
    Some(names)
}

fn dir(vm: &VirtualMachine, obj: &rustpython_vm::PyObjectRef) -> Vec<String> {
    vm.dir(Some(obj.clone()))
        .ok()
        .map(|l| {
            l.borrow_vec()
                .iter()
                .filter_map(|o| o.downcast_ref::<PyStr>().map(|s| s.as_str().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Module,
    Class,
    Function,
    /// A comprehension: a function scope, except that `:=` binds around it.
    Comprehension,
}

#[derive(Debug, Default)]
struct Scope {
    kind: Option<Kind>,
    parent: Option<usize>,
    bound: HashSet<String>,
    globals: HashSet<String>,
    /// Names bound to one of fluidc's modules by an import, and whether
    /// they are bound otherwise too (then their attributes are not checked).
    modules: HashMap<String, String>,
    rebound: HashSet<String>,
}

/// `a.b.c` over a name: its scope, the names, and the range of each prefix.
#[derive(Debug)]
struct Chain {
    scope: usize,
    names: Vec<String>,
    ranges: Vec<Range<usize>>,
}

#[derive(Debug, Default)]
struct Scopes {
    scopes: Vec<Scope>,
    stack: Vec<usize>,
    loads: Vec<(usize, String, Range<usize>)>,
    chains: Vec<Chain>,
    star_imports: Vec<String>,
    /// The module's names are not all visible statically.
    dynamic: bool,
}

fn span<T: Ranged>(node: &T) -> Range<usize> {
    let r = node.range();
    r.start().to_usize()..r.end().to_usize()
}

impl Scopes {
    fn push(&mut self, kind: Kind, parent: Option<usize>) {
        self.scopes.push(Scope {
            kind: Some(kind),
            parent,
            ..Default::default()
        });
        self.stack.push(self.scopes.len() - 1);
    }

    fn current(&self) -> usize {
        *self.stack.last().unwrap_or(&0)
    }

    fn bind(&mut self, name: &str) {
        let cur = self.current();
        let scope = &mut self.scopes[cur];
        if scope.globals.contains(name) {
            self.scopes[0].bound.insert(name.to_string());
            self.scopes[0].rebound.insert(name.to_string());
        } else {
            scope.bound.insert(name.to_string());
            scope.rebound.insert(name.to_string());
        }
    }

    fn bind_module(&mut self, local: &str, module: String) {
        let cur = self.current();
        self.scopes[cur].bound.insert(local.to_string());
        self.scopes[cur].modules.insert(local.to_string(), module);
    }

    /// Whether `name`, read in scope `s`, is bound in a scope it sees.
    fn resolves(&self, s: usize, name: &str) -> bool {
        let mut cur = Some(s);
        let mut first = true;
        while let Some(i) = cur {
            let scope = &self.scopes[i];
            if scope.globals.contains(name) {
                return self.scopes[0].bound.contains(name);
            }
            // A function does not see the class bodies around it.
            let visible = first || scope.kind != Some(Kind::Class);
            if visible && scope.bound.contains(name) {
                return true;
            }
            first = false;
            cur = scope.parent;
        }
        false
    }

    /// The module a name read in scope `s` is bound to by an import, if
    /// that is its only binding.
    fn module_of(&self, s: usize, name: &str) -> Option<&str> {
        let mut cur = Some(s);
        let mut first = true;
        while let Some(i) = cur {
            let scope = &self.scopes[i];
            let visible = first || scope.kind != Some(Kind::Class);
            if visible && scope.bound.contains(name) {
                if scope.rebound.contains(name) {
                    return None;
                }
                return scope.modules.get(name).map(String::as_str);
            }
            first = false;
            cur = scope.parent;
        }
        None
    }

    /// An attribute of one of fluidc's modules that the module lacks.
    fn check_chain(&self, vm: &VirtualMachine, chain: &Chain) -> Option<Diagnostic> {
        let module = self.module_of(chain.scope, &chain.names[0])?;
        let mut obj = import_module(vm, module)?;
        for k in 1..chain.names.len() {
            let is_module = obj.class().is(vm.ctx.types.module_type);
            if !is_module {
                return None;
            }
            let attr = &chain.names[k];
            match obj.get_attr(vm.ctx.intern_str(attr.as_str()), vm) {
                Ok(next) => obj = next,
                Err(_) => {
                    // A submodule not imported yet.
                    let full = format!("{}.{}", module_path(vm, &obj)?, attr);
                    if vm.import(vm.ctx.intern_str(full.as_str()), 0).is_ok() {
                        match obj.get_attr(vm.ctx.intern_str(attr.as_str()), vm) {
                            Ok(next) => {
                                obj = next;
                                continue;
                            }
                            Err(_) => return None,
                        }
                    }
                    let prefix = chain.names[..k].join(".");
                    let names = dir(vm, &obj);
                    let hint = match closest(names.iter().map(String::as_str), attr) {
                        Some(c) => format!(
                            "did you mean `{c}`? (`fluidc api` lists every module, layer and function fluidc knows)"
                        ),
                        None => "`fluidc api` lists every module, layer and function fluidc knows"
                            .to_string(),
                    };
                    return Some(
                        Diagnostic::new(
                            chain.ranges[k].clone(),
                            format!("module `{prefix}` has no `{attr}` that fluidc knows"),
                        )
                        .help(hint),
                    );
                }
            }
        }
        None
    }

    fn stmts(&mut self, body: &[Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::FunctionDef(f) => self.function(
                &f.name,
                &f.args,
                &f.body,
                &f.decorator_list,
                f.returns.as_deref(),
            ),
            Stmt::AsyncFunctionDef(f) => self.function(
                &f.name,
                &f.args,
                &f.body,
                &f.decorator_list,
                f.returns.as_deref(),
            ),
            Stmt::ClassDef(c) => {
                self.exprs(&c.decorator_list);
                self.exprs(&c.bases);
                for k in &c.keywords {
                    self.expr(&k.value);
                }
                self.bind(c.name.as_str());
                let parent = self.current();
                self.push(Kind::Class, Some(parent));
                self.stmts(&c.body);
                self.stack.pop();
            }
            Stmt::Return(r) => self.opt(r.value.as_deref()),
            Stmt::Delete(d) => self.exprs(&d.targets),
            Stmt::Assign(a) => {
                self.expr(&a.value);
                self.exprs(&a.targets);
            }
            Stmt::AugAssign(a) => {
                self.expr(&a.value);
                self.load_target(&a.target);
                self.expr(&a.target);
            }
            Stmt::AnnAssign(a) => {
                self.opt(a.value.as_deref());
                self.expr(&a.annotation);
                self.expr(&a.target);
            }
            Stmt::TypeAlias(t) => {
                self.expr(&t.value);
                self.expr(&t.name);
            }
            Stmt::For(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::AsyncFor(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            Stmt::With(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr);
                    self.opt(item.optional_vars.as_deref());
                }
                self.stmts(&w.body);
            }
            Stmt::AsyncWith(w) => {
                for item in &w.items {
                    self.expr(&item.context_expr);
                    self.opt(item.optional_vars.as_deref());
                }
                self.stmts(&w.body);
            }
            Stmt::Match(m) => {
                self.expr(&m.subject);
                for case in &m.cases {
                    self.pattern(&case.pattern);
                    self.opt(case.guard.as_deref());
                    self.stmts(&case.body);
                }
            }
            Stmt::Raise(r) => {
                self.opt(r.exc.as_deref());
                self.opt(r.cause.as_deref());
            }
            Stmt::Try(t) => self.try_(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            Stmt::TryStar(t) => self.try_(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            Stmt::Assert(a) => {
                self.expr(&a.test);
                self.opt(a.msg.as_deref());
            }
            Stmt::Import(i) => {
                for alias in &i.names {
                    let full = alias.name.as_str();
                    match &alias.asname {
                        Some(local) => self.import_binding(local.as_str(), full),
                        None => {
                            let top = full.split('.').next().unwrap_or(full);
                            self.import_binding(top, top);
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map(|m| m.as_str().to_string());
                let relative = i.level.map_or(0, |l| l.to_u32()) > 0;
                for alias in &i.names {
                    let name = alias.name.as_str();
                    if name == "*" {
                        match (&module, relative) {
                            (Some(m), false) => self.star_imports.push(m.clone()),
                            _ => self.dynamic = true,
                        }
                        continue;
                    }
                    let local = alias.asname.as_ref().map_or(name, |a| a.as_str());
                    match (&module, relative) {
                        (Some(m), false) => self.import_binding(local, &format!("{m}.{name}")),
                        _ => self.bind(local),
                    }
                }
            }
            Stmt::Global(g) => {
                let cur = self.current();
                for n in &g.names {
                    self.scopes[cur].globals.insert(n.as_str().to_string());
                }
            }
            Stmt::Nonlocal(n) => {
                // The name is the enclosing function's: bound here too.
                for name in &n.names {
                    self.bind(name.as_str());
                }
            }
            Stmt::Expr(e) => self.expr(&e.value),
            Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
        }
    }

    /// An import binds `local`; if it names one of fluidc's modules (or an
    /// attribute of one), its attributes can be checked.
    fn import_binding(&mut self, local: &str, full: &str) {
        if PACKAGES.contains(&full.split('.').next().unwrap_or("")) {
            self.bind_module(local, full.to_string());
        } else {
            self.bind(local);
        }
    }

    fn try_(
        &mut self,
        body: &[Stmt],
        handlers: &[ast::ExceptHandler],
        orelse: &[Stmt],
        finalbody: &[Stmt],
    ) {
        self.stmts(body);
        for h in handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            self.opt(h.type_.as_deref());
            if let Some(n) = &h.name {
                self.bind(n.as_str());
            }
            self.stmts(&h.body);
        }
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    fn function(
        &mut self,
        name: &ast::Identifier,
        args: &ast::Arguments,
        body: &[Stmt],
        decorators: &[Expr],
        returns: Option<&Expr>,
    ) {
        self.exprs(decorators);
        self.arg_defaults(args);
        self.opt(returns);
        self.bind(name.as_str());
        let parent = self.current();
        self.push(Kind::Function, Some(parent));
        self.bind_args(args);
        self.stmts(body);
        self.stack.pop();
    }

    fn arg_defaults(&mut self, args: &ast::Arguments) {
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            self.opt(a.default.as_deref());
            self.opt(a.def.annotation.as_deref());
        }
        for a in args.vararg.iter().chain(args.kwarg.iter()) {
            self.opt(a.annotation.as_deref());
        }
    }

    fn bind_args(&mut self, args: &ast::Arguments) {
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            self.bind(a.def.arg.as_str());
        }
        for a in args.vararg.iter().chain(args.kwarg.iter()) {
            self.bind(a.arg.as_str());
        }
    }

    fn pattern(&mut self, p: &Pattern) {
        match p {
            Pattern::MatchValue(v) => self.expr(&v.value),
            Pattern::MatchSingleton(_) => {}
            Pattern::MatchSequence(s) => s.patterns.iter().for_each(|p| self.pattern(p)),
            Pattern::MatchMapping(m) => {
                self.exprs(&m.keys);
                m.patterns.iter().for_each(|p| self.pattern(p));
                if let Some(r) = &m.rest {
                    self.bind(r.as_str());
                }
            }
            Pattern::MatchClass(c) => {
                self.expr(&c.cls);
                c.patterns.iter().for_each(|p| self.pattern(p));
                c.kwd_patterns.iter().for_each(|p| self.pattern(p));
            }
            Pattern::MatchStar(s) => {
                if let Some(n) = &s.name {
                    self.bind(n.as_str());
                }
            }
            Pattern::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(n) = &a.name {
                    self.bind(n.as_str());
                }
            }
            Pattern::MatchOr(o) => o.patterns.iter().for_each(|p| self.pattern(p)),
        }
    }

    fn opt(&mut self, e: Option<&Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn exprs(&mut self, es: &[Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    /// `x += 1` reads `x` too.
    fn load_target(&mut self, target: &Expr) {
        if let Expr::Name(n) = target {
            let cur = self.current();
            self.loads.push((cur, n.id.as_str().to_string(), span(n)));
        }
    }

    fn comprehension(&mut self, generators: &[ast::Comprehension], parts: &[&Expr]) {
        let Some(first) = generators.first() else {
            return;
        };
        // The first iterable is evaluated in the enclosing scope.
        self.expr(&first.iter);
        let parent = self.current();
        self.push(Kind::Comprehension, Some(parent));
        for (k, g) in generators.iter().enumerate() {
            if k > 0 {
                self.expr(&g.iter);
            }
            self.expr(&g.target);
            self.exprs(&g.ifs);
        }
        for p in parts {
            self.expr(p);
        }
        self.stack.pop();
    }

    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Name(n) => match n.ctx {
                ExprContext::Load => {
                    let name = n.id.as_str();
                    if matches!(name, "exec" | "globals" | "locals" | "vars") {
                        self.dynamic = true;
                    }
                    let cur = self.current();
                    self.loads.push((cur, name.to_string(), span(n)));
                }
                ExprContext::Store | ExprContext::Del => self.bind(n.id.as_str()),
            },
            Expr::Attribute(a) => {
                let mut names = vec![a.attr.as_str().to_string()];
                let mut ranges = vec![span(a)];
                let mut cur: &Expr = &a.value;
                loop {
                    match cur {
                        Expr::Attribute(inner) => {
                            names.push(inner.attr.as_str().to_string());
                            ranges.push(span(inner));
                            cur = &inner.value;
                        }
                        Expr::Name(root) => {
                            names.push(root.id.as_str().to_string());
                            ranges.push(span(root));
                            names.reverse();
                            ranges.reverse();
                            let scope = self.current();
                            if matches!(a.ctx, ExprContext::Load) {
                                self.chains.push(Chain {
                                    scope,
                                    names,
                                    ranges,
                                });
                            }
                            self.expr(cur);
                            return;
                        }
                        other => {
                            self.expr(other);
                            return;
                        }
                    }
                }
            }
            Expr::BoolOp(b) => self.exprs(&b.values),
            Expr::NamedExpr(n) => {
                self.expr(&n.value);
                // The target binds in the nearest function or module scope.
                if let Expr::Name(t) = n.target.as_ref() {
                    let at = self
                        .stack
                        .iter()
                        .rposition(|&i| self.scopes[i].kind != Some(Kind::Comprehension))
                        .unwrap_or(0);
                    let saved = self.stack.split_off(at + 1);
                    self.bind(t.id.as_str());
                    self.stack.extend(saved);
                }
            }
            Expr::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                self.arg_defaults(&l.args);
                let parent = self.current();
                self.push(Kind::Function, Some(parent));
                self.bind_args(&l.args);
                self.expr(&l.body);
                self.stack.pop();
            }
            Expr::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                for k in d.keys.iter().flatten() {
                    self.expr(k);
                }
                self.exprs(&d.values);
            }
            Expr::Set(s) => self.exprs(&s.elts),
            Expr::ListComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::GeneratorExp(c) => self.comprehension(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => self.comprehension(&c.generators, &[&c.key, &c.value]),
            Expr::Await(a) => self.expr(&a.value),
            Expr::Yield(y) => self.opt(y.value.as_deref()),
            Expr::YieldFrom(y) => self.expr(&y.value),
            Expr::Compare(c) => {
                self.expr(&c.left);
                self.exprs(&c.comparators);
            }
            Expr::Call(c) => {
                self.expr(&c.func);
                self.exprs(&c.args);
                for k in &c.keywords {
                    self.expr(&k.value);
                }
            }
            Expr::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt(f.format_spec.as_deref());
            }
            Expr::JoinedStr(j) => self.exprs(&j.values),
            Expr::Constant(_) => {}
            Expr::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            Expr::Starred(s) => self.expr(&s.value),
            Expr::List(l) => self.exprs(&l.elts),
            Expr::Tuple(t) => self.exprs(&t.elts),
            Expr::Slice(s) => {
                self.opt(s.lower.as_deref());
                self.opt(s.upper.as_deref());
                self.opt(s.step.as_deref());
            }
        }
    }
}

/// The dotted name of a module object (`paddle.fluid.layers`).
fn module_path(vm: &VirtualMachine, m: &rustpython_vm::PyObjectRef) -> Option<String> {
    m.get_attr("__name__", vm)
        .ok()?
        .downcast::<PyStr>()
        .ok()
        .map(|s| s.as_str().to_string())
}
