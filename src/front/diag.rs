//! Compile-time diagnostics: a message on a byte span of the user's file,
//! with an optional help line. Only [`render`] turns them into text (through
//! codespan-reporting, without colour), so tests compare plain text.
use std::ops::Range;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, Config};
use std::sync::Arc;

use super::sources::SourceFile;

/// One error (or warning) in the user's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub span: Range<usize>,
    pub message: String,
    pub help: Option<String>,
    /// A warning does not stop the compile: the program is what Paddle's
    /// Python would build, but probably not what the user meant.
    pub warning: bool,
    /// The imported module the span is in (`None`: the script). The
    /// evaluator sets it when it keeps the diagnostic.
    pub file: Option<Arc<SourceFile>>,
}

impl Diagnostic {
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            span,
            message: message.into(),
            help: None,
            warning: false,
            file: None,
        }
    }

    pub fn warning(span: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            warning: true,
            ..Diagnostic::new(span, message)
        }
    }

    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
}

/// The result type of everything that evaluates user code.
pub type Result<T> = std::result::Result<T, Diagnostic>;

/// 1-based line and column of a byte offset (columns count characters).
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = floor_char_boundary(source, offset.min(source.len()));
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Renders diagnostics as `error: msg` (or `warning: msg`) / `--> path:line:col`
/// / source line / caret / `= help: ...`, the way rustc does, followed by a
/// count. A diagnostic in an imported module shows that file.
pub fn render(path: &str, source: &str, diags: &[Diagnostic]) -> String {
    let config = Config::default();
    let mut out = term::termcolor::NoColor::new(Vec::new());
    for d in diags {
        let (file, span) = match &d.file {
            Some(f) => (
                SimpleFile::new(f.path.as_str(), f.text.as_str()),
                d.span.start.saturating_sub(f.base)..d.span.end.saturating_sub(f.base),
            ),
            None => (SimpleFile::new(path, source), d.span.clone()),
        };
        let source = *file.source();
        let start = floor_char_boundary(source, span.start.min(source.len()));
        let end = floor_char_boundary(source, span.end.clamp(start, source.len()));
        let cs = if d.warning {
            CsDiagnostic::warning()
        } else {
            CsDiagnostic::error()
        };
        let mut cs = cs
            .with_message(&d.message)
            .with_labels(vec![Label::primary((), start..end)]);
        if let Some(h) = &d.help {
            cs = cs.with_notes(vec![format!("help: {h}")]);
        }
        let _ = term::emit(&mut out, &config, &file, &cs);
    }
    let mut text = String::from_utf8_lossy(&out.into_inner()).into_owned();
    let warnings = diags.iter().filter(|d| d.warning).count();
    let counts = [(diags.len() - warnings, "error"), (warnings, "warning")];
    let counts: Vec<String> = counts
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}{}", if *n == 1 { "" } else { "s" }))
        .collect();
    text.push_str(&format!("{path}: {}\n", counts.join(", ")));
    text
}

/// The candidate closest to `name` (at most two edits away), for "did you
/// mean" hints.
pub fn closest<'c>(candidates: impl Iterator<Item = &'c str>, name: &str) -> Option<&'c str> {
    candidates
        .map(|c| (strsim::levenshtein(c, name), c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_path_line_col_caret_and_help() {
        let src = "x = 1\ny = undefined_name + 2\n";
        let start = src.find("undefined_name").expect("present");
        let d = Diagnostic::new(start..start + 14, "name `undefined_name` is not defined")
            .help("define it first");
        let text = render("model.py", src, &[d]);
        assert!(
            text.contains("error: name `undefined_name` is not defined"),
            "{text}"
        );
        assert!(text.contains("model.py:2:5"), "{text}");
        assert!(text.contains("^^^^^^^^^^^^^^"), "{text}");
        assert!(text.contains("= help: define it first"), "{text}");
        assert!(text.ends_with("model.py: 1 error\n"), "{text}");
        assert_eq!(line_col(src, start), (2, 5));
    }
}
