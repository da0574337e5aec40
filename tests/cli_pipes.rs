//! A reader that stops early (`fluidc dump x.pb | head -c 10`) is not an
//! error: every command that writes to standard output exits 0 when the
//! pipe closes under it, as `cat` and `protoc` do.
mod common;
use common::*;

use std::process::{Command, Stdio};

/// Runs fluidc with its standard output a pipe whose reading end is closed
/// at once, before it writes, so every write it makes meets a closed pipe.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fluidc"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fluidc starts");
    drop(child.stdout.take());
    child.wait_with_output().expect("fluidc finishes")
}

#[test]
fn commands_writing_to_a_closed_pipe_exit_0() {
    let dir = temp_dir("cli_pipes");
    let script = "testdata/distribute/sgd_regression.py";
    let (main, startup) = compile_split(&dir, script);
    let (main, startup) = (path_str(&main), path_str(&startup));
    let x = dir.join("x.npy");
    let y = dir.join("y.npy");
    std::fs::write(&x, npy("<f4", &[8, 4], &[0.5; 32])).expect("write");
    std::fs::write(&y, npy("<f4", &[8, 1], &[1.0; 8])).expect("write");
    let (x, y) = (format!("x={}", path_str(&x)), format!("y={}", path_str(&y)));
    let train = [
        "run",
        main,
        "--startup",
        startup,
        "--steps",
        "3",
        "--feed",
        &x,
        "--feed",
        &y,
    ];
    let commands: Vec<Vec<&str>> = vec![
        vec!["dump", main, "--format", "text"],
        vec!["dump", main, "--format", "pretty"],
        vec!["dump", main, "--format", "json"],
        vec!["compile", script, "-o", "-"],
        vec!["graph", main],
        vec!["run", "testdata/programs/operators.py", "--format", "json"],
        train.to_vec(),
        [&train[..], &["--format", "json"]].concat(),
        vec!["api"],
        vec!["completions", "bash"],
        vec!["man"],
    ];
    for args in commands {
        let out = into_closed_pipe(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "fluidc {}: {}",
            args.join(" "),
            stderr(&out)
        );
    }
}
