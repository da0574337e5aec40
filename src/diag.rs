//! Diagnostics on a user's file (`fluidc check`'s static findings): a
//! message on a byte span with an optional help line, rendered the way
//! rustc renders them (codespan-reporting, without colour).
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};

/// One error in the user's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Range<usize>,
    pub message: String,
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            message: message.into(),
            help: None,
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders diagnostics as `error: msg` / `--> path:line:col` / source
/// line / caret / `= help: ...`, followed by a count.
pub fn render(path: &str, source: &str, diags: &[Diagnostic]) -> String {
    let config = Config::default();
    let mut out = term::termcolor::NoColor::new(Vec::new());
    let file = SimpleFile::new(path, source);
    for d in diags {
        let start = floor_char_boundary(source, d.span.start.min(source.len()));
        let end = floor_char_boundary(source, d.span.end.clamp(start, source.len()));
        let mut cs = CsDiagnostic::error()
            .with_message(&d.message)
            .with_labels(vec![Label::primary((), start..end)]);
        if let Some(h) = &d.help {
            cs = cs.with_notes(vec![format!("help: {h}")]);
        }
        let _ = term::emit(&mut out, &config, &file, &cs);
    }
    let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
    let n = diags.len();
    text.push_str(&format!(
        "{path}: {n} error{}\n",
        if n == 1 { "" } else { "s" }
    ));
    text
}
