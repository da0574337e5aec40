//! `import helper` of a sibling `.py` file: Python's import of a module
//! found in the script's directory (`sys.path[0]`). The module's code runs
//! once, in its own global names; later imports give the same module. Its
//! spans are in the shared offset space of [`super::Sources`], so its
//! diagnostics, tracebacks and `op_callstack` name its file and lines.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use super::{Eval, Flow};
use crate::front::diag::Diagnostic;
use crate::front::parse::{self, span};
use crate::front::value::{Frame, UserModule, Value};
use rustpython_parser::ast;

/// Modules one script may import (all files together).
const MAX_MODULES: usize = 256;
/// Bytes of source all imported modules together may have.
const MAX_SOURCE_BYTES: usize = 64 << 20;

impl Eval<'_> {
    /// The sibling module `name` (`import name`), loaded and run on first
    /// use. `None` when there is no `name.py` beside the script; a module
    /// that fails to read or parse is reported and gives `Value::Poison`.
    pub(super) fn import_sibling(&mut self, name: &str, sp: Range<usize>) -> Option<Value> {
        if let Some(m) = self.st.modules.get(name) {
            return Some(Value::UserModule(m.clone()));
        }
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None; // dotted names are packages, which fluidc does not import
        }
        let dir = std::path::Path::new(&self.st.path)
            .parent()
            .filter(|d| !d.as_os_str().is_empty());
        let file = match dir {
            Some(d) => d.join(format!("{name}.py")),
            None => std::path::PathBuf::from(format!("{name}.py")),
        };
        if !file.is_file() {
            return None;
        }
        let shown = file.display().to_string();
        if self.st.modules.len() >= MAX_MODULES {
            self.report(Diagnostic::new(
                sp,
                format!("more than {MAX_MODULES} modules imported; fluidc stops here"),
            ));
            return Some(Value::Poison);
        }
        let text = match std::fs::read(&file) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(t) => t,
                Err(_) => {
                    self.report(
                        Diagnostic::new(sp, format!("`{shown}` is not UTF-8 text"))
                            .help("save the module as UTF-8"),
                    );
                    return Some(Value::Poison);
                }
            },
            Err(e) => {
                self.report(Diagnostic::new(sp, format!("cannot read `{shown}`: {e}")));
                return Some(Value::Poison);
            }
        };
        if self.st.sources.total_len() + text.len() > MAX_SOURCE_BYTES {
            self.report(Diagnostic::new(
                sp,
                format!(
                    "the imported modules have more than {} MiB of source",
                    MAX_SOURCE_BYTES >> 20
                ),
            ));
            return Some(Value::Poison);
        }
        let source = self.st.sources.add(&shown, &text);
        let body = match parse::parse_module_at(&text, &shown, source.base) {
            Ok(body) => body,
            Err(d) => {
                self.report(d);
                return Some(Value::Poison);
            }
        };
        let globals = Rc::new(RefCell::new(Frame::default()));
        let module = Rc::new(UserModule {
            name: name.to_string(),
            file: super::classes::absolute(&shown),
            globals: globals.clone(),
        });
        {
            let mut g = globals.borrow_mut();
            g.names.insert("__name__".into(), Value::str(name));
            g.names.insert("__file__".into(), Value::str(&module.file));
        }
        // In `sys.modules` before its code runs, as in Python: a circular
        // import gets the module as far as it has run.
        self.st.modules.insert(name.to_string(), module.clone());
        let saved_globals = std::mem::replace(&mut self.st.globals, globals);
        let saved_scopes = std::mem::take(&mut self.st.scopes);
        let saved_loops = std::mem::replace(&mut self.st.loop_depth, 0);
        self.st.methods.push(None);
        self.st.calls.push((sp.start, "<module>".into()));
        let flow = self.block(&body);
        self.st.calls.pop();
        self.st.methods.pop();
        self.st.loop_depth = saved_loops;
        self.st.scopes = saved_scopes;
        self.st.globals = saved_globals;
        self.set_callstack(sp.start);
        drop(body);
        if let Flow::Raise = flow {
            return Some(Value::Poison); // the exception unwinds on from the import
        }
        Some(Value::UserModule(module))
    }

    /// `from helper import a, b as c` (and `*`: every public name).
    pub(super) fn import_from_sibling(&mut self, m: &UserModule, names: &[ast::Alias]) {
        for alias in names {
            let name = alias.name.as_str();
            if name == "*" {
                let public: Vec<(String, Value)> = m
                    .globals
                    .borrow()
                    .names
                    .iter()
                    .filter(|(n, _)| !n.starts_with('_'))
                    .map(|(n, v)| (n.clone(), v.clone()))
                    .collect();
                for (n, v) in public {
                    self.set_name(&n, v);
                }
                continue;
            }
            let bound = alias.asname.as_ref().map_or(name, |a| a.as_str());
            let v = m.globals.borrow().names.get(name).cloned();
            match v {
                Some(v) => self.set_name(bound, v),
                None => {
                    self.report(Diagnostic::new(
                        span(alias),
                        format!("ImportError: cannot import name '{name}' from '{}'", m.name),
                    ));
                    self.set_name(bound, Value::Poison);
                }
            }
        }
    }

    /// `module.name` of an imported sibling module.
    pub(super) fn user_module_attr(
        &self,
        m: &UserModule,
        name: &str,
        sp: Range<usize>,
    ) -> Result<Value, Diagnostic> {
        match m.globals.borrow().names.get(name) {
            Some(v) => Ok(v.clone()),
            None => Err(Diagnostic::new(
                sp,
                format!(
                    "AttributeError: module '{}' has no attribute '{name}'",
                    m.name
                ),
            )),
        }
    }
}
