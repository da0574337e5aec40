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

/// A version-1 `.npy` file of little-endian f64, f32 or (`<i8`) i64 values.
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
        } else if descr == "<i8" {
            out.extend((*v as i64).to_le_bytes());
        } else {
            out.extend((*v as f32).to_le_bytes());
        }
    }
    out
}

/// A temporary HOME whose Paddle dataset cache holds a small `housing.data`
/// (`rows` rows of 14 numbers in UCI housing's text format: 13 features of
/// different scales and a price from 5 to 50, from a fixed LCG), as
/// `paddle.dataset.uci_housing` reads it.
pub fn housing_home(name: &str, rows: usize) -> PathBuf {
    let home = temp_dir(name);
    let dir = home.join(".cache/paddle/dataset/uci_housing");
    std::fs::create_dir_all(&dir).expect("create dataset dir");
    let mut state: u64 = 0x2018_0901;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut text = String::new();
    for _ in 0..rows {
        let mut price = 5.0;
        for j in 0..13 {
            let scale = [
                10.0, 100.0, 30.0, 1.0, 1.0, 9.0, 100.0, 12.0, 24.0, 700.0, 22.0, 400.0, 38.0,
            ][j];
            let v = if j == 3 {
                (next() < 0.1) as u8 as f64
            } else {
                next() * scale
            };
            price += v / scale
                * [
                    2.0, 1.0, -3.0, 4.0, -2.0, 9.0, -1.0, 3.0, -2.0, -4.0, -5.0, 2.0, -8.0,
                ][j];
            text.push_str(&format!(" {v:.5}"));
        }
        let price = (price + 15.0 + next() * 4.0).clamp(5.0, 50.0);
        text.push_str(&format!(" {price:.1}\n"));
    }
    std::fs::write(dir.join("housing.data"), text).expect("write housing.data");
    home
}

/// Runs `fluidc ARGS` with the environment variables `envs` set.
pub fn fluidc_env(args: &[&str], envs: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fluidc"));
    cmd.args(args).current_dir(repo()).stdin(Stdio::null());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("fluidc runs")
}

/// Runs `script` in CPython + Paddle 3.3.1 through the fluid2018 shim
/// (`run_with_paddle.py`), in `cwd`, with the environment `envs` added.
pub fn run_with_paddle(script: &Path, cwd: &Path, envs: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(paddle_python());
    cmd.arg(repo().join("tests/interop/fluid2018/run_with_paddle.py"))
        .arg(script)
        .current_dir(cwd);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("python starts")
}

/// The stdout of `script` run by Paddle 3.3.1, once when `runs` is 1
/// (the run must succeed); else run up to `runs` times until two
/// successful runs print the same. Paddle 3.3.1 itself varies from run to
/// run on programs lowered from StaticRNN (in about two runs of five, other
/// losses from the third step on, or nan, which can fail the script's own
/// asserts), and its wrong runs differ from each other, so the first
/// output printed twice is Paddle's answer.
pub fn paddle_majority(script: &Path, runs: usize) -> Vec<u8> {
    let name = script.display();
    let mut failures = String::new();
    let mut outputs: Vec<Vec<u8>> = Vec::new();
    for _ in 0..runs {
        let theirs = run_with_paddle(script, &repo(), &[]);
        if !theirs.status.success() {
            failures.push_str(&String::from_utf8_lossy(&theirs.stderr));
            continue;
        }
        if runs == 1 || outputs.contains(&theirs.stdout) {
            return theirs.stdout;
        }
        outputs.push(theirs.stdout);
    }
    panic!(
        "{name}: no two of Paddle's {runs} runs printed the same ({} failed):\n{failures}",
        runs - outputs.len()
    );
}

/// Asserts that two outputs agree (`compare_numbers.py`): numbers within
/// `rtol`, other text exactly; `dir` holds the two files compared.
pub fn assert_numbers_agree(dir: &Path, what: &str, ours: &[u8], theirs: &[u8], rtol: &str) {
    let (a, b) = (dir.join("fluidc.out"), dir.join("paddle.out"));
    std::fs::write(&a, ours).expect("write");
    std::fs::write(&b, theirs).expect("write");
    let cmp = Command::new(paddle_python())
        .arg(repo().join("tests/interop/fluid2018/compare_numbers.py"))
        .args([path_str(&a), path_str(&b), "--rtol", rtol])
        .output()
        .expect("python runs");
    assert!(
        cmp.status.success(),
        "{what}: fluidc's output differs from Paddle's:\n{}{}",
        stdout(&cmp),
        stderr(&cmp)
    );
}

/// Compiles `script` into `dir` as main and startup programs apart
/// (`compile --startup-out`).
pub fn compile_split(dir: &Path, script: &str) -> (PathBuf, PathBuf) {
    let (main, startup) = (dir.join("main.pb"), dir.join("startup.pb"));
    let out = fluidc(
        &[
            "compile",
            script,
            "-o",
            path_str(&main),
            "--startup-out",
            path_str(&startup),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    (main, startup)
}
