//! The one module that knows the Python parser (rustpython-parser), so it can
//! be swapped. It also guards against hostile input: the parser itself uses
//! an explicit stack, but the tree it builds is walked (and dropped)
//! recursively, so nesting deeper than [`MAX_DEPTH`] is reported as an error
//! and the tree is leaked instead of dropped.
use rustpython_parser::ast::{self, Ranged};
use rustpython_parser::{parse_starts_at, Mode, ParseErrorType};

use super::diag::Diagnostic;

pub use rustpython_parser::ast::{Constant, Expr, Stmt};

/// Deeper nesting of the syntax tree than this (operators, calls, blocks) is
/// an error. The compiler runs on a thread with a large stack (see
/// `front::compile`), so this bounds its recursion well within it.
pub const MAX_DEPTH: usize = 1000;

/// Deeper bracket nesting than this is an error, as in CPython (200).
pub const MAX_BRACKETS: usize = 200;

/// A byte range in the source.
pub fn span<T: Ranged + ?Sized>(node: &T) -> std::ops::Range<usize> {
    let r = node.range();
    r.start().to_usize()..r.end().to_usize()
}

/// Parses a module; a syntax error or too deep a nesting is a diagnostic.
pub fn parse_module(source: &str, path: &str) -> Result<Vec<Stmt>, Diagnostic> {
    parse_module_at(source, path, 0)
}

/// [`parse_module`] of a file that starts at offset `base` of the
/// [`super::sources::Sources`] (an imported module): every span, the
/// tree's and the error's, is in that offset space.
pub fn parse_module_at(source: &str, path: &str, base: usize) -> Result<Vec<Stmt>, Diagnostic> {
    let shift = |mut d: Diagnostic| {
        d.span = d.span.start + base..d.span.end + base;
        d
    };
    let brackets = check_brackets(source).map_err(shift)?;
    let start = ast::TextSize::try_from(base)
        .map_err(|_| Diagnostic::new(base..base, "the imported source is too large"))?;
    let module = parse_starts_at(source, Mode::Module, path, start).map_err(|e| {
        let at = e.offset.to_usize().saturating_sub(base);
        if let Some(d) = bracket_error(source, &brackets, at) {
            return shift(d);
        }
        let message = match &e.error {
            ParseErrorType::Eof => "unexpected end of file".to_string(),
            ParseErrorType::Lexical(l) => format!("invalid syntax: {l}"),
            other => format!("invalid syntax: {other}"),
        };
        shift(Diagnostic::new(at..at + 1, message))
    })?;
    let ast::Mod::Module(m) = module else {
        return Err(Diagnostic::new(base..base, "expected a module"));
    };
    if let Some(deep) = m.body.iter().find_map(|s| too_deep_stmt(s, 0)) {
        let d = Diagnostic::new(deep, format!("nesting deeper than {MAX_DEPTH} levels"))
            .help("split the expression or block into smaller named pieces");
        std::mem::forget(m); // dropping it would recurse as deep as it is nested
        return Err(d);
    }
    Ok(m.body)
}

/// What the bracket scan found that does not pair up: the first closing
/// bracket that matches no opener (with the opener it met, if any), and the
/// brackets still open at the end of the file (outermost first).
#[derive(Debug, Default)]
struct Brackets {
    mismatch: Option<(usize, Option<usize>)>,
    unclosed: Vec<usize>,
}

/// On a syntax error at `at`, the bracket problem behind it, as CPython
/// 3.10+ reports it: a closer that matches no opener, or an opener on an
/// earlier line that was never closed (the parser only notices it at a
/// later line's first token).
fn bracket_error(source: &str, b: &Brackets, at: usize) -> Option<Diagnostic> {
    let ch = |i: usize| source[i..].chars().next().unwrap_or(' ');
    let line = |i: usize| source[..i].matches('\n').count() + 1;
    if let Some((close, open)) = b.mismatch {
        if close <= at {
            let message = match open {
                Some(o) if line(o) != line(close) => format!(
                    "closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                    ch(close),
                    ch(o),
                    line(o)
                ),
                Some(o) => format!(
                    "closing parenthesis '{}' does not match opening parenthesis '{}'",
                    ch(close),
                    ch(o)
                ),
                None => format!("unmatched '{}'", ch(close)),
            };
            return Some(Diagnostic::new(close..close + 1, message));
        }
    }
    let open = b
        .unclosed
        .iter()
        .rev()
        .find(|&&o| o < at && line(o) < line(at.min(source.len())))
        .or_else(|| b.unclosed.last().filter(|_| at >= source.len()))?;
    Some(
        Diagnostic::new(*open..open + 1, format!("'{}' was never closed", ch(*open)))
            .help("close it where the expression ends"),
    )
}

/// Rejects bracket nesting deeper than [`MAX_DEPTH`] before parsing, with a
/// scan that skips strings and comments; pairs the brackets for
/// [`bracket_error`].
fn check_brackets(source: &str) -> Result<Brackets, Diagnostic> {
    let bytes = source.as_bytes();
    let mut i = 0usize;
    let mut open: Vec<usize> = Vec::new();
    let mut found = Brackets::default();
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let triple = bytes[i..].starts_with(&[q, q, q]);
                i += if triple { 3 } else { 1 };
                while i < bytes.len() {
                    if bytes[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple && bytes[i..].starts_with(&[q, q, q]) {
                        i += 2;
                        break;
                    }
                    if !triple && (bytes[i] == q || bytes[i] == b'\n') {
                        break;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                open.push(i);
                if open.len() > MAX_BRACKETS {
                    return Err(Diagnostic::new(
                        i..i + 1,
                        format!("brackets nested deeper than {MAX_BRACKETS} levels"),
                    )
                    .help("split the expression into smaller named pieces"));
                }
            }
            c @ (b')' | b']' | b'}') => {
                let opener = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                match open.last() {
                    Some(&o) if bytes[o] == opener => {
                        open.pop();
                    }
                    other => {
                        if found.mismatch.is_none() {
                            found.mismatch = Some((i, other.copied()));
                        }
                        open.pop();
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    found.unclosed = open;
    Ok(found)
}

fn too_deep_stmt(s: &Stmt, depth: usize) -> Option<std::ops::Range<usize>> {
    if depth > MAX_DEPTH {
        return Some(span(s));
    }
    let d = depth + 1;
    let body = |b: &[Stmt]| b.iter().find_map(|s| too_deep_stmt(s, d));
    let expr = |e: &Expr| too_deep_expr(e, d);
    match s {
        Stmt::FunctionDef(f) => body(&f.body).or_else(|| {
            f.args
                .args
                .iter()
                .chain(&f.args.kwonlyargs)
                .find_map(|a| a.default.as_deref().and_then(expr))
        }),
        Stmt::If(x) => expr(&x.test)
            .or_else(|| body(&x.body))
            .or_else(|| body(&x.orelse)),
        Stmt::While(x) => expr(&x.test)
            .or_else(|| body(&x.body))
            .or_else(|| body(&x.orelse)),
        Stmt::For(x) => expr(&x.iter)
            .or_else(|| expr(&x.target))
            .or_else(|| body(&x.body))
            .or_else(|| body(&x.orelse)),
        Stmt::With(x) => x
            .items
            .iter()
            .find_map(|i| expr(&i.context_expr))
            .or_else(|| body(&x.body)),
        Stmt::Expr(x) => expr(&x.value),
        Stmt::Assign(x) => expr(&x.value).or_else(|| x.targets.iter().find_map(expr)),
        Stmt::AugAssign(x) => expr(&x.value),
        Stmt::AnnAssign(x) => x.value.as_deref().and_then(expr),
        Stmt::Return(x) => x.value.as_deref().and_then(expr),
        Stmt::Assert(x) => expr(&x.test),
        Stmt::ClassDef(x) => body(&x.body),
        Stmt::Try(x) => body(&x.body),
        _ => None,
    }
}

fn too_deep_expr(e: &Expr, depth: usize) -> Option<std::ops::Range<usize>> {
    if depth > MAX_DEPTH {
        return Some(span(e));
    }
    let d = depth + 1;
    let one = |e: &Expr| too_deep_expr(e, d);
    let many = |es: &[Expr]| es.iter().find_map(|e| too_deep_expr(e, d));
    match e {
        Expr::BoolOp(x) => many(&x.values),
        Expr::BinOp(x) => one(&x.left).or_else(|| one(&x.right)),
        Expr::UnaryOp(x) => one(&x.operand),
        Expr::Lambda(x) => one(&x.body),
        Expr::IfExp(x) => one(&x.test)
            .or_else(|| one(&x.body))
            .or_else(|| one(&x.orelse)),
        Expr::Dict(x) => x
            .keys
            .iter()
            .flatten()
            .find_map(one)
            .or_else(|| many(&x.values)),
        Expr::Compare(x) => one(&x.left).or_else(|| many(&x.comparators)),
        Expr::Call(x) => one(&x.func)
            .or_else(|| many(&x.args))
            .or_else(|| x.keywords.iter().find_map(|k| one(&k.value))),
        Expr::Attribute(x) => one(&x.value),
        Expr::Subscript(x) => one(&x.value).or_else(|| one(&x.slice)),
        Expr::Starred(x) => one(&x.value),
        Expr::List(x) => many(&x.elts),
        Expr::Tuple(x) => many(&x.elts),
        Expr::Set(x) => many(&x.elts),
        Expr::ListComp(x) => one(&x.elt),
        Expr::JoinedStr(x) => many(&x.values),
        Expr::FormattedValue(x) => one(&x.value),
        Expr::Slice(x) => x
            .lower
            .as_deref()
            .and_then(one)
            .or_else(|| x.upper.as_deref().and_then(one)),
        _ => None,
    }
}

/// An integer literal as i64, if it fits.
pub fn int_literal(c: &Constant) -> Option<i64> {
    match c {
        Constant::Int(i) => i.to_string().parse().ok(),
        _ => None,
    }
}
