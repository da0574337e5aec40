//! fluidc's `numpy` against real numpy (docs/numpy.md): every script in
//! `testdata/numpy/` runs under fluidc's VM and under the interop venv's
//! CPython with numpy 2, and both must print the same stdout, byte for
//! byte, and succeed. The scripts cover printing (float32 and float64
//! digits, summarization, bools, ints, 0-d and empty arrays), numpy 2's
//! promotion, indexing and item assignment, reductions, exact random
//! numbers, numpy scalars, making and joining arrays, conversions,
//! `numpy.testing`'s messages and print options, and the math functions
//! (`math_*.py`), whose reference is numpy's AVX2 dispatch: numpy on an
//! AVX-512 machine computes some of them with other kernels, so there those
//! scripts are skipped.
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::repo;

const SCRIPTS: &str = "testdata/numpy";

/// Runs `script` (a path relative to the repository) under fluidc.
fn fluidc_run(script: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fluidc"))
        .args(["run", script])
        .current_dir(repo())
        .env_remove("FLUIDC_PYTHON_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("fluidc runs")
}

/// Runs `script` under CPython with real numpy.
fn numpy_run(python: &Path, script: &str) -> Output {
    Command::new(python)
        .arg(script)
        .current_dir(repo())
        .env_remove("PYTHONPATH")
        .stdin(Stdio::null())
        .output()
        .expect("python runs")
}

/// Whether the venv's numpy dispatches to AVX-512 kernels on this machine.
fn numpy_uses_avx512(python: &Path) -> bool {
    let out = Command::new(python)
        .args([
            "-c",
            "from numpy._core._multiarray_umath import __cpu_features__ as f; print(int(f.get('AVX512F', False)))",
        ])
        .output()
        .expect("python runs");
    String::from_utf8_lossy(&out.stdout).trim() == "1"
}

fn scripts() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo().join(SCRIPTS))
        .expect("testdata/numpy exists")
        .map(|e| {
            e.expect("readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".py"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "{SCRIPTS} has no scripts");
    names
}

/// The first lines where two outputs differ.
fn first_difference(theirs: &str, ours: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
    let at = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let show = |lines: &[&str]| {
        let shown: Vec<String> = lines
            .iter()
            .skip(at)
            .take(6)
            .map(|l| format!("      {l}"))
            .collect();
        if shown.is_empty() {
            "      <end>".to_string()
        } else {
            shown.join("\n")
        }
    };
    format!(
        "    from line {}\n    numpy:\n{}\n    fluidc:\n{}",
        at + 1,
        show(&a),
        show(&b)
    )
}

#[test]
fn numpy_scripts_print_what_numpy_prints() {
    let python: PathBuf = common::paddle_python();
    let avx512 = numpy_uses_avx512(&python);
    let names: Vec<String> = scripts()
        .into_iter()
        .filter(|n| {
            let skip = avx512 && n.starts_with("math_");
            if skip {
                println!("{n}: skipped (numpy uses its AVX-512 kernels here)");
            }
            !skip
        })
        .collect();
    let next = AtomicUsize::new(0);
    let failures: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(name) = names.get(i) else { break };
                let script = format!("{SCRIPTS}/{name}");
                let theirs = numpy_run(&python, &script);
                let ours = fluidc_run(&script);
                let mut problem = String::new();
                if !theirs.status.success() {
                    problem.push_str(&format!(
                        "   numpy failed:\n{}\n",
                        String::from_utf8_lossy(&theirs.stderr)
                    ));
                }
                if !ours.status.success() {
                    problem.push_str(&format!(
                        "   fluidc failed:\n{}\n",
                        String::from_utf8_lossy(&ours.stderr)
                    ));
                }
                if theirs.stdout != ours.stdout {
                    problem.push_str(&format!(
                        "   stdout differs\n{}\n",
                        first_difference(
                            &String::from_utf8_lossy(&theirs.stdout),
                            &String::from_utf8_lossy(&ours.stdout)
                        )
                    ));
                }
                if !problem.is_empty() {
                    failures
                        .lock()
                        .unwrap()
                        .push(format!("  {name}:\n{problem}"));
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    assert!(
        failures.is_empty(),
        "{} of {} scripts differ from numpy:\n{}",
        failures.len(),
        names.len(),
        failures.join("")
    );
}
