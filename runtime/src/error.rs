//! Runtime errors and how they point back to the op and its source line.
use std::fmt;

use fluidc_transpiler::model::dtype_name;
use fluidc_transpiler::{AttrValue, Op, VarKind};

/// Why a program could not be loaded or run. `Display` is the whole report;
/// the CLI prints it and exits with code 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeError {
    pub message: String,
    /// The kernel's own error when an op failed, to tell kinds apart.
    kernel: Option<KernelError>,
}

impl RuntimeError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        RuntimeError {
            message: message.into(),
            kernel: None,
        }
    }

    /// A report of its own, `message`, about `kernel`, which it keeps so
    /// that callers can tell kinds apart.
    pub(crate) fn with_kernel(message: impl Into<String>, kernel: KernelError) -> Self {
        RuntimeError {
            message: message.into(),
            kernel: Some(kernel),
        }
    }

    /// Several errors as one report, one a line (every op a load could not
    /// build, not only the first); the kind is the first one's.
    pub(crate) fn joined(errors: Vec<RuntimeError>) -> Self {
        let message = errors
            .iter()
            .map(|e| e.message.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        RuntimeError {
            message,
            kernel: errors.into_iter().find_map(|e| e.kernel),
        }
    }

    /// What kind of failure it was, when an op's kernel failed (or could
    /// not be built from the op when the program was loaded).
    pub fn kernel_error(&self) -> Option<&KernelError> {
        self.kernel.as_ref()
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RuntimeError {}

/// Why a kernel failed. `Display` is the message (the caller adds the op
/// and its source line, see [`OpInfo::error`]); the variant tells callers
/// what kind of failure it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelError {
    /// Operands of a dtype the op does not take, or of two dtypes that
    /// must agree.
    Dtype(String),
    /// Shapes that do not fit together (broadcast, matmul, reshape, dims).
    Shape(String),
    /// A tensor too large to allocate (see [`AllocError`]).
    /// Boxed: kernels return `Result<(), KernelError>` on every op, so the
    /// error stays two words and a tag.
    OutOfMemory(Box<AllocError>),
    /// An attribute (or a tensor standing for one) with a value the op
    /// cannot use.
    Attribute(String),
    /// An input variable that holds no value, or not a tensor.
    MissingInput(String),
    /// Values the op refuses: integer division by zero, a label out of
    /// range, a send on a closed channel, ...
    Invalid(String),
    /// Something Paddle has that fluidc does not implement: an op type, a
    /// tensor-valued form of an attribute, a layout or dtype the runtime
    /// does not hold. The program is valid; fluidc cannot run it.
    Unsupported(String),
    /// The op does not fit the program around it: a slot that names no
    /// variable or several, a variable no block declares, a grad block with
    /// no forward block. A defect of the program, not of its values.
    Program(String),
    /// Bytes that are not what they claim to be: a truncated or foreign
    /// tensor file, a `.npy` or JSON value that does not parse.
    Format(String),
    /// A file that could not be read or written.
    Io(String),
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::OutOfMemory(e) => e.fmt(f),
            KernelError::Dtype(m)
            | KernelError::Shape(m)
            | KernelError::Attribute(m)
            | KernelError::MissingInput(m)
            | KernelError::Invalid(m)
            | KernelError::Unsupported(m)
            | KernelError::Program(m)
            | KernelError::Format(m)
            | KernelError::Io(m) => f.write_str(m),
        }
    }
}

impl KernelError {
    /// The same kind with its message rewritten, e.g. prefixed with where it
    /// happened (`tensor 3: ...`), so wrapping an error does not lose its
    /// kind. An [`KernelError::OutOfMemory`] has no message of its own; it
    /// becomes `Invalid` with the rewritten text, as it did when every
    /// wrapped message was plain text.
    pub(crate) fn map_message(self, f: impl FnOnce(&str) -> String) -> KernelError {
        match self {
            KernelError::Dtype(m) => KernelError::Dtype(f(&m)),
            KernelError::Shape(m) => KernelError::Shape(f(&m)),
            KernelError::Attribute(m) => KernelError::Attribute(f(&m)),
            KernelError::MissingInput(m) => KernelError::MissingInput(f(&m)),
            KernelError::Invalid(m) => KernelError::Invalid(f(&m)),
            KernelError::Unsupported(m) => KernelError::Unsupported(f(&m)),
            KernelError::Program(m) => KernelError::Program(f(&m)),
            KernelError::Format(m) => KernelError::Format(f(&m)),
            KernelError::Io(m) => KernelError::Io(f(&m)),
            KernelError::OutOfMemory(e) => KernelError::Invalid(f(&e.to_string())),
        }
    }
}

impl std::error::Error for KernelError {}

/// A tensor whose byte size overflows or is over the memory limit
/// (`fluidc run --max-memory`, see `crate::tensor::alloc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    /// What the tensor is for the op: "the output", "a temporary".
    pub what: &'static str,
    pub shape: Vec<i64>,
    /// An element type (named by the transpiler's numpy names, as
    /// `crate::tensor::dtype_name` names it: errors sit below tensors).
    pub dtype: VarKind,
    /// The bytes it needs; `None` if that does not fit in 128 bits.
    pub bytes: Option<u128>,
    pub limit: u64,
}

impl fmt::Display for AllocError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let needs = match self.bytes {
            Some(b) => format!("{b} bytes"),
            None => "more than 2^128 bytes".to_string(),
        };
        write!(
            f,
            "{} of shape {:?} {} needs {needs}, over the {} limit (--max-memory)",
            self.what,
            self.shape,
            dtype_name(self.dtype),
            human_bytes(self.limit)
        )
    }
}

/// `12 GiB`, `1.5 GiB`, `512 MiB`, `100 bytes`.
pub(crate) fn human_bytes(b: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (size, unit) in UNITS {
        if b >= size {
            return if b.is_multiple_of(size) {
                format!("{} {unit}", b / size)
            } else {
                format!("{:.1} {unit}", b as f64 / size as f64)
            };
        }
    }
    format!("{b} bytes")
}

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

    /// [`OpInfo::error`] of a kernel's error, which the result keeps.
    pub(crate) fn kernel_error(&self, e: KernelError) -> RuntimeError {
        RuntimeError {
            kernel: Some(e.clone()),
            ..self.error(e)
        }
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
    let mut files = (0..lines.len()).rev().filter(|&i| is_file(&lines[i]));
    let innermost = files.clone().next();
    let Some(last) = files
        .find(|&i| !is_paddle_internal(&lines[i]))
        .or(innermost)
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
