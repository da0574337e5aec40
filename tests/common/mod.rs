//! Helpers shared by the end-to-end tests: running the `fluidc` binary and
//! finding the Paddle interop tools.
#![allow(dead_code)]
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `fluidc ARGS` with `stdin` and returns its output.
pub fn fluidc(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fluidc"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fluidc starts");
    // The child may exit before reading stdin; a broken pipe is fine then.
    let _ = child.stdin.take().expect("piped stdin").write_all(stdin);
    child.wait_with_output().expect("fluidc finishes")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The `.pb` files real Paddle wrote, sorted.
pub fn paddle_programs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("testdata/paddle"))
        .expect("testdata/paddle exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pb"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "testdata/paddle has no .pb files");
    files
}

/// The interop venv's python (`scripts/setup-interop.sh` makes it). The
/// interop tests fail, not skip, without it: CI must run them.
pub fn paddle_python() -> PathBuf {
    let venv = std::env::var_os("FLUIDC_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/interop-venv"));
    let python = venv.join("bin/python");
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup-interop.sh (the README's test command runs it)",
        python.display()
    );
    python
}

/// Runs `tests/interop/paddle_helper.py ARGS` in the venv; panics with
/// Paddle's stderr on failure.
pub fn paddle_helper(args: &[&str]) -> Vec<u8> {
    let out = Command::new(paddle_python())
        .arg(repo().join("tests/interop/paddle_helper.py"))
        .args(args)
        .env("FLAGS_enable_pir_api", "0")
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "paddle_helper {args:?} failed:\n{}",
        stderr(&out)
    );
    out.stdout
}

pub fn temp_dir(name: &str) -> PathBuf {
    let dir = repo().join("target/test-tmp").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create temp dir");
    dir
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A version-1 `.npy` file of little-endian f64 or f32 values.
pub fn npy(descr: &str, shape: &[usize], values: &[f64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    for v in values {
        if descr == "<f8" {
            out.extend(v.to_le_bytes());
        } else {
            out.extend((*v as f32).to_le_bytes());
        }
    }
    out
}
