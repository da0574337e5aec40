//! Reading a program from what the user names on the command line.
//!
//! `-` is standard input. A `.pbtxt` file is protobuf text format; anything
//! else is read as `ProgramDesc` bytes (`.pb`, Paddle's `.pdmodel`, ...).
//! Every error starts with the file name, so the user knows which input is
//! at fault.
use std::fmt;
use std::io::Read;
use std::path::Path;

use fluidc_transpiler::codec::decode_program;
use fluidc_transpiler::text::from_text;
use fluidc_transpiler::verify::{Verified, VerifyError};
use fluidc_transpiler::Program;

/// A failure the user can act on, with the process exit code it maps to.
#[derive(Debug)]
pub struct CliError {
    pub code: u8,
    pub message: String,
}

impl CliError {
    /// Exit code 1: bad input (diagnostics printed).
    pub fn user(message: impl Into<String>) -> Self {
        CliError {
            code: 1,
            message: format!("error: {}", message.into()),
        }
    }

    /// Exit code 1 with diagnostics that are already rendered.
    pub fn rendered(text: String) -> Self {
        CliError {
            code: 1,
            message: text.trim_end().to_string(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// The name to show for a path in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// Standard input, read once (it is sniffed before it is used).
fn stdin_bytes() -> Result<&'static [u8], CliError> {
    static STDIN: std::sync::OnceLock<Result<Vec<u8>, String>> = std::sync::OnceLock::new();
    let read = STDIN.get_or_init(|| {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map(|_| bytes)
            .map_err(|e| e.to_string())
    });
    read.as_deref()
        .map_err(|e| CliError::user(format!("<stdin>: cannot read: {e}")))
}

/// Reads the raw bytes of `path` (`-` = stdin).
pub fn read_bytes(path: &str) -> Result<Vec<u8>, CliError> {
    if path == "-" {
        return stdin_bytes().map(<[u8]>::to_vec);
    }
    std::fs::read(path)
        .map_err(|e| CliError::user(format!("{}: cannot read: {e}", display_name(path))))
}

/// The `ProgramDesc` bytes of a `.pb` or `.pbtxt` input.
pub fn program_bytes(path: &str) -> Result<Vec<u8>, CliError> {
    let bytes = read_bytes(path)?;
    if Path::new(path).extension().is_some_and(|e| e == "pbtxt") {
        let text = String::from_utf8(bytes).map_err(|e| {
            CliError::user(format!(
                "{path}: not UTF-8 text at byte {}",
                e.utf8_error().valid_up_to()
            ))
        })?;
        return from_text(&text).map_err(|e| CliError::user(format!("{path}: {e}")));
    }
    Ok(bytes)
}

/// Whether `path` names a Python script: a `.py` file, or standard input
/// holding text that does not decode as a `ProgramDesc` (a Python script is
/// UTF-8 text; a program's bytes start with a block, field 1, and rarely
/// are text at all).
pub fn is_python(path: &str) -> bool {
    if path == "-" {
        let Ok(bytes) = stdin_bytes() else {
            return false;
        };
        return std::str::from_utf8(bytes).is_ok()
            && !bytes.is_empty()
            && decode_program(bytes).map_or(true, |p| Verified::new(p).is_err());
    }
    Path::new(path).extension().is_some_and(|e| e == "py")
}

/// Decodes (or, for a `.py`, builds: `test` picks a unittest file's test)
/// a program without verifying it.
pub fn load_unverified(path: &str, test: Option<String>) -> Result<Program, CliError> {
    if is_python(path) {
        return crate::script::compile(path, test);
    }
    let bytes = program_bytes(path)?;
    decode_program(&bytes).map_err(|e| CliError::user(format!("{}: {e}", display_name(path))))
}

/// Formats verifier problems for `path`.
pub fn verify_message(path: &str, err: &VerifyError) -> String {
    format!("{}: {err}", display_name(path))
}

/// Decodes (or builds) and verifies a program.
pub fn load(path: &str, test: Option<String>) -> Result<Verified, CliError> {
    let program = load_unverified(path, test)?;
    Verified::new(program).map_err(|e| CliError::user(verify_message(path, &e)))
}

/// Writes `bytes` to `path` (`-` = stdout) through a temporary file and a
/// rename, so a failed write never leaves a half-written output behind.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    if path == "-" {
        let mut out = std::io::stdout().lock();
        // A reader that stopped early (`| head`) wants no more: not an error.
        return match out.write_all(bytes).and_then(|_| out.flush()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(CliError::user(format!("<stdout>: cannot write: {e}")))
            }
            _ => Ok(()),
        };
    }
    let tmp = format!("{path}.fluidc-tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            CliError::user(format!("{path}: cannot write: {e}"))
        })
}
