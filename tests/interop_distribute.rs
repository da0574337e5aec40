//! Data-parallel training on Paddle 3.3.1's collective engine (issue 39,
//! docs/distributed.md): each case of testdata/distribute is compiled,
//! made into trainer programs by `fluidc distribute` (op for op Paddle's
//! own GradAllReduce), and trained by 2 trainer processes that
//! `paddle.distributed.launch` starts on this machine; the mean of their
//! losses must be the one-process loss on the whole batch, their
//! parameters bit-identical, and `fluidc run --nranks 2` must agree.
//! The driver is tests/interop/distribute/run_case.py. Fails, not skips,
//! without the venv (scripts/setup-interop.sh).
mod common;
use common::*;

fn run_case(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(paddle_python())
        .arg(repo().join("tests/interop/distribute/run_case.py"))
        .args(["--fluidc", env!("CARGO_BIN_EXE_fluidc")])
        .args(args)
        .output()
        .expect("python starts");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[test]
fn paddles_engine_trains_fluidcs_trainer_programs_as_one_process() {
    let (ok, text) = run_case(&[]);
    assert!(ok, "{text}");
    let passed = text.lines().filter(|l| l.contains(": ok: ")).count();
    assert_eq!(passed, 5, "five cases pass:\n{text}");
}

/// Trainers on the untransformed programs each train alone: the same
/// comparison must fail for every case, or it could not tell.
#[test]
fn trainers_on_untransformed_programs_fail_the_comparison() {
    let (ok, text) = run_case(&["--control"]);
    assert!(ok, "{text}");
    let failed = text
        .lines()
        .filter(|l| l.contains("control fails as expected"))
        .count();
    assert_eq!(failed, 5, "five cases fail:\n{text}");
}
