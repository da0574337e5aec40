//! Runtime errors and how they point back to the op and its source line.
use std::fmt;

use fluidc_transpiler::{AttrValue, Op};

/// Why a program could not be loaded or run. `Display` is the whole report;
/// the CLI prints it and exits with code 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeError {
    pub message: String,
}

impl RuntimeError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        RuntimeError {
            message: message.into(),
        }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

/// Where an op is: its type, block, index and source line, for messages.
#[derive(Debug, Clone)]
pub(crate) struct OpInfo {
    pub(crate) ty: String,
    pub(crate) block: usize,
    pub(crate) index: usize,
    pub(crate) source: Option<String>,
}

impl OpInfo {
    pub(crate) fn new(op: &Op, block: usize, index: usize) -> Self {
        let source = match op.get_attr("op_callstack") {
            Some(AttrValue::Strings(lines)) => source_line(lines),
            _ => None,
        };
        OpInfo {
            ty: op.ty.clone(),
            block,
            index,
            source,
        }
    }

    /// `channel_send (block 1, op 3)`.
    pub(crate) fn location(&self) -> String {
        format!("{} (block {}, op {})", self.ty, self.block, self.index)
    }

    /// The source line under a message: `{indent}at File "model.py", line
    /// 12, in <module>` and the code line below it; or nothing.
    pub(crate) fn source_suffix(&self, indent: &str) -> String {
        let Some(source) = &self.source else {
            return String::new();
        };
        let mut lines = source.lines();
        let mut out = format!("\n{indent}at {}", lines.next().unwrap_or_default());
        for l in lines {
            out.push_str(&format!("\n{indent}     {l}"));
        }
        out
    }

    /// An error raised by this op: `channel_send (block 1, op 3): send on
    /// closed channel`, then the source line.
    pub(crate) fn error(&self, message: impl fmt::Display) -> RuntimeError {
        RuntimeError::new(format!(
            "{}: {message}{}",
            self.location(),
            self.source_suffix("  ")
        ))
    }
}

/// Picks the user's line out of an `op_callstack`: Python's traceback lines
/// (`  File "model.py", line 12, in <module>` followed by the code line), of
/// which the last `File` line outside Paddle's own package is the one that
/// built the op. If every frame is Paddle's, the last one; if there is no
/// `File` line at all, every line.
pub(crate) fn source_line(lines: &[String]) -> Option<String> {
    let is_file = |l: &str| l.trim_start().starts_with("File ");
    let files: Vec<usize> = (0..lines.len()).filter(|&i| is_file(&lines[i])).collect();
    let Some(&last) = files
        .iter()
        .rev()
        .find(|&&i| !is_paddle_internal(&lines[i]))
        .or(files.last())
    else {
        let all: Vec<&str> = lines
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect();
        return (!all.is_empty()).then(|| all.join("\n"));
    };
    let mut out = lines[last].trim().to_string();
    if let Some(code) = lines.get(last + 1).filter(|l| !is_file(l)) {
        out.push('\n');
        out.push_str(code.trim());
    }
    Some(out)
}

fn is_paddle_internal(line: &str) -> bool {
    [
        "site-packages/paddle/",
        "dist-packages/paddle/",
        "python/paddle/",
    ]
    .iter()
    .any(|p| line.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_line_skips_paddles_own_frames() {
        let lines: Vec<String> = [
            "  File \"/w/helper.py\", line 334, in <module>",
            "    main()",
            "  File \"/w/helper.py\", line 154, in build",
            "    ints = paddle.assign(x)",
            "  File \"/venv/lib/python3.11/site-packages/paddle/tensor/creation.py\", line 3673, in assign",
            "    helper.append_op(",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            source_line(&lines).as_deref(),
            Some("File \"/w/helper.py\", line 154, in build\nints = paddle.assign(x)")
        );
        let one = vec!["  File \"model.py\", line 7, in <module>".to_string()];
        assert_eq!(
            source_line(&one).as_deref(),
            Some("File \"model.py\", line 7, in <module>")
        );
        assert_eq!(source_line(&[]), None);
    }
}
