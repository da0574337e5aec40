//! An uncaught exception as CPython prints it: the traceback, the user's
//! frames with their lines, then `ExceptionClass: message` (README,
//! "Python: the VM").
//!
//! Frames of the fluid package are left out: a Paddle user's traceback
//! ended in Paddle's own files, which a fluidc user does not have, so the
//! last frame shown is the user's line that called the API. Frames of
//! the frozen standard library show as CPython shows frozen modules,
//! `<frozen json.decoder>`, without a source line.
use std::collections::HashSet;

use rustpython_vm::builtins::{PyBaseExceptionRef, PyTraceback};
use rustpython_vm::bytecode::{Instruction, OpArg, RaiseKind};
use rustpython_vm::PyRef;
use rustpython_vm::{AsObject, VirtualMachine};

use super::sources;
use crate::native::host::is_user_code;

/// Whether a frozen module is the fluid package's (left out of
/// tracebacks) rather than the standard library's.
fn is_package(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    matches!(top, "paddle" | "numpy" | "PIL" | "_fluidc_boot" | "_fluidc_codecs")
        // CPython leaves its import machinery out of tracebacks too.
        || top.starts_with("_frozen_importlib")
        || module.starts_with("importlib._bootstrap")
}

/// The text CPython's default `sys.excepthook` writes for `exc`.
pub fn render(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> String {
    let mut out = String::new();
    let mut seen = HashSet::new();
    chain(vm, exc, &mut seen, &mut out);
    out
}

fn chain(
    vm: &VirtualMachine,
    exc: &PyBaseExceptionRef,
    seen: &mut HashSet<usize>,
    out: &mut String,
) {
    seen.insert(exc.get_id());
    let earlier = match (exc.cause(), exc.context()) {
        (Some(c), _) => Some((
            c,
            "\nThe above exception was the direct cause of the following exception:\n\n",
        )),
        (None, Some(c)) if !suppressed(vm, exc) => Some((
            c,
            "\nDuring handling of the above exception, another exception occurred:\n\n",
        )),
        _ => None,
    };
    if let Some((e, between)) = earlier {
        if !seen.contains(&e.get_id()) {
            chain(vm, &e, seen, out);
            out.push_str(between);
        }
    }
    one(vm, exc, out);
}

/// `raise ... from None` sets `__suppress_context__`.
fn suppressed(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> bool {
    exc.as_object()
        .get_attr("__suppress_context__", vm)
        .ok()
        .and_then(|v| v.try_to_bool(vm).ok())
        .unwrap_or(false)
}

fn one(vm: &VirtualMachine, exc: &PyBaseExceptionRef, out: &mut String) {
    let class = exc.class();
    if class.fast_issubclass(vm.ctx.exceptions.syntax_error) {
        let mut text = String::new();
        if vm.write_exception_inner(&mut text, exc).is_ok() {
            out.push_str(&text);
            return;
        }
    }
    if let Some(tb) = exc.traceback() {
        let mut frames = String::new();
        // CPython prints a frame repeated more than three times in a row
        // (a runaway recursion) three times, then a count.
        let mut last: Option<(String, usize, String)> = None;
        let mut repeats = 0usize;
        let flush = |frames: &mut String, repeats: usize| {
            if repeats > 3 {
                let more = repeats - 3;
                frames.push_str(&format!(
                    "  [Previous line repeated {more} more time{}]\n",
                    if more == 1 { "" } else { "s" }
                ));
            }
        };
        for entry in entries(&tb) {
            let code = &entry.frame.code;
            let path = code.source_path.as_str();
            let (line, text) = if is_user_code(path) {
                sources::shown_line(path, entry.lineno.to_usize())
            } else {
                (entry.lineno.to_usize(), None)
            };
            let shown = is_user_code(path) || !is_package(path);
            if !shown {
                continue;
            }
            let key = (path.to_string(), line, code.obj_name.as_str().to_string());
            if last.as_ref() == Some(&key) {
                repeats += 1;
                if repeats > 3 {
                    continue;
                }
            } else {
                flush(&mut frames, repeats);
                last = Some(key);
                repeats = 1;
            }
            if is_user_code(path) {
                frames.push_str(&format!(
                    "  File \"{path}\", line {line}, in {}\n",
                    code.obj_name.as_str()
                ));
                if let Some(text) = &text {
                    frames.push_str(&format!("    {text}\n"));
                }
            } else {
                frames.push_str(&format!(
                    "  File \"<frozen {path}>\", line {line}, in {}\n",
                    code.obj_name.as_str()
                ));
            }
        }
        flush(&mut frames, repeats);
        if !frames.is_empty() {
            out.push_str("Traceback (most recent call last):\n");
            out.push_str(&frames);
        }
    }
    out.push_str(&last_line(vm, exc));
    out.push('\n');
}

/// The traceback's entries, outermost first, as CPython records them.
/// RustPython adds an entry for its frame each time an exception is
/// raised again — a bare `raise`, the end of an `except` that did not
/// match, of a `finally` or of a `with` — where CPython adds none: the
/// frame already has the entry of the line the exception came through.
/// Those entries are left out; an explicit `raise e` keeps its own, as in
/// CPython.
fn entries(tb: &PyRef<PyTraceback>) -> Vec<PyRef<PyTraceback>> {
    /// Whether the instruction that raised is a re-raise.
    fn reraised(tb: &PyTraceback) -> bool {
        let code = &tb.frame.code;
        let Some(unit) = (tb.lasti as usize)
            .checked_sub(1)
            .and_then(|i| code.instructions.get(i))
        else {
            return false;
        };
        match unit.op {
            Instruction::Raise { kind } => {
                kind.try_get(OpArg(u32::from(unit.arg.0))) == Some(RaiseKind::Reraise)
            }
            Instruction::EndFinally | Instruction::WithCleanupFinish => true,
            _ => false,
        }
    }
    let all: Vec<PyRef<PyTraceback>> = tb.iter().collect();
    let mut kept = Vec::with_capacity(all.len());
    for (i, entry) in all.iter().enumerate() {
        let same_frame_next = all
            .get(i + 1)
            .is_some_and(|next| next.frame.get_id() == entry.frame.get_id());
        if !(same_frame_next && reraised(entry)) {
            kept.push(entry.clone());
        }
    }
    kept
}

/// `ValueError: message` (`mod.Class: ...` for a class outside builtins
/// and `__main__`, as CPython's `TracebackException` names it), with
/// CPython's "Did you mean" for a NameError or AttributeError.
pub fn last_line(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> String {
    let class = exc.class();
    let module = class
        .as_object()
        .get_attr("__module__", vm)
        .ok()
        .and_then(|m| m.str(vm).ok())
        .map(|m| m.as_str().to_string())
        .unwrap_or_default();
    let name = class.slot_name().to_string();
    let qual = class
        .as_object()
        .get_attr("__qualname__", vm)
        .ok()
        .and_then(|m| m.str(vm).ok())
        .map(|m| m.as_str().to_string())
        .unwrap_or(name);
    let shown = match module.as_str() {
        "builtins" | "__main__" | "" => qual,
        m => format!("{m}.{qual}"),
    };
    let message = exc
        .as_object()
        .str(vm)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| "<exception str() failed>".to_string());
    let mut line = if message.is_empty() {
        shown
    } else {
        format!("{shown}: {message}")
    };
    if let Some(s) = rustpython_vm::suggestion::offer_suggestions(exc, vm) {
        line.push_str(&format!(". Did you mean: '{}'?", s.as_str()));
    }
    line
}

/// Whether `exc` is a fluidc bug: raised by the package's own code (its
/// innermost frame is the package's) as an AttributeError, NameError,
/// UnboundLocalError or KeyError, which the API never raises on purpose
/// (but a `__getattr__`'s AttributeError is the protocol's answer).
pub fn escaped_package(vm: &VirtualMachine, exc: &PyBaseExceptionRef) -> bool {
    let e = &vm.ctx.exceptions;
    let unintended = [e.attribute_error, e.name_error, e.key_error]
        .iter()
        .any(|t| exc.fast_isinstance(t));
    let Some(tb) = exc.traceback() else {
        return false;
    };
    let innermost = tb.iter().last();
    unintended
        && innermost.is_some_and(|t| {
            let path = t.frame.code.source_path.as_str();
            let lookup = t.frame.code.obj_name.as_str() == "__getattr__"
                && exc.fast_isinstance(e.attribute_error);
            !is_user_code(path) && is_package(path) && !lookup
        })
}
