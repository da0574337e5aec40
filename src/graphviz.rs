//! `fluidc graph --format svg`: the dot text laid out by Graphviz's `dot`,
//! when it is installed. fluidc does not lay graphs out itself.
use std::io::Write;
use std::process::{Command, Stdio};

use crate::input::CliError;

/// Runs `dot -Tsvg` on `dot_text` and gives the SVG.
pub fn to_svg(dot_text: &str) -> Result<Vec<u8>, CliError> {
    let child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(CliError::user(
                "--format svg needs Graphviz's `dot` on PATH (Debian: apt install graphviz); \
                 --format dot writes the graph as text",
            ))
        }
        Err(e) => return Err(CliError::user(format!("cannot run Graphviz's `dot`: {e}"))),
    };
    // `dot` reads all its input before it writes, so writing first cannot
    // block on a full output pipe.
    let written = child
        .stdin
        .take()
        .map(|mut s| s.write_all(dot_text.as_bytes()));
    let out = child
        .wait_with_output()
        .map_err(|e| CliError::user(format!("Graphviz's `dot` failed: {e}")))?;
    if !out.status.success() || matches!(written, Some(Err(_))) {
        return Err(CliError::user(format!(
            "Graphviz's `dot` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(out.stdout)
}
