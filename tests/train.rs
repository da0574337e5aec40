//! Training from the command line (docs/training.md): `fluidc run main.pb
//! --startup startup.pb --steps N [--batch-size B]`, and the limits that
//! stop a runaway run (`--max-steps`, `--timeout`).
mod common;
use common::*;

use std::path::Path;

/// Writes a float32 `.npy` of `rows` (one value a row) as `dir/FILE.npy`
/// and returns the argument `--feed NAME=dir/FILE.npy`.
fn npy_feed(dir: &Path, name: &str, file: &str, rows: &[f64]) -> String {
    let path = dir.join(format!("{file}.npy"));
    std::fs::write(&path, npy("<f4", &[rows.len(), 1], rows)).expect("write npy");
    format!("{name}={}", path_str(&path))
}

/// The JSON lines of a `--format json` training run.
fn json_lines(out: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: not JSON: {e}")))
        .collect()
}

/// The startup program sets the persistable counter to 10 once; each step
/// increments it, as the script's own loop of `exe.run` does.
#[test]
fn steps_carry_persistable_state_from_the_startup_program() {
    let dir = temp_dir("train_counter");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let (main, startup) = (path_str(&main), path_str(&startup));
    let out = fluidc(&["run", main, "--startup", startup, "--steps", "5"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    // Standard error is a pipe here: no progress bar.
    assert_eq!(stderr(&out), "");
    assert_eq!(
        stdout(&out),
        "step 0: counter = 11, tmp_0 = 22\n\
         step 1: counter = 12, tmp_0 = 24\n\
         step 2: counter = 13, tmp_0 = 26\n\
         step 3: counter = 14, tmp_0 = 28\n\
         step 4: counter = 15, tmp_0 = 30\n"
    );
    // The same values as the script's five runs.
    let script = fluidc(&["run", "testdata/run/persistable_state.py"], b"");
    assert!(script.status.success(), "{}", stderr(&script));
    assert!(
        stdout(&script).starts_with("counter went [11, 12, 13, 14, 15]"),
        "{}",
        stdout(&script)
    );
    // Without --steps: one run after the startup program, printed as ever.
    let once = fluidc(&["run", main, "--startup", startup], b"");
    assert_eq!(
        stdout(&once),
        "counter = [11] (int64, shape [1])\ntmp_0 = [22] (int64, shape [1])\n"
    );
    // Without the startup program the counter was never set.
    let bare = fluidc(&["run", main, "--steps", "2"], b"");
    assert_eq!(bare.status.code(), Some(3), "{}", stderr(&bare));
    assert!(stdout(&bare).is_empty());
    assert!(
        stderr(&bare).contains("step 0: increment")
            && stderr(&bare).contains("give it with --startup startup.pb"),
        "{}",
        stderr(&bare)
    );
}

/// `--profile` counts each op type's calls: the steps' ops (not the
/// startup program's) for a training run, every `exe.run` for a script.
#[test]
fn profile_counts_the_calls_of_each_op_type() {
    let dir = temp_dir("train_profile");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let (main, startup) = (path_str(&main), path_str(&startup));
    let calls = |out: &std::process::Output| -> Vec<(String, u64)> {
        let text = stderr(out);
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        assert_eq!(
            header,
            ["op", "calls", "total", "ms", "mean", "µs", "share"],
            "{text}"
        );
        let mut rows: Vec<(String, u64)> = lines
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f[0].to_string(), f[1].parse().expect("a count of calls"))
            })
            .collect();
        rows.sort();
        rows
    };
    let out = fluidc(
        &[
            "run",
            main,
            "--startup",
            startup,
            "--steps",
            "5",
            "--profile",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let row = |n: &str, c: u64| (n.to_string(), c);
    assert_eq!(
        calls(&out),
        [
            row("fetch", 10),
            row("increment", 5),
            row("scale", 5),
            row("total", 20)
        ]
    );
    let script = fluidc(
        &["run", "testdata/run/persistable_state.py", "--profile"],
        b"",
    );
    assert!(script.status.success(), "{}", stderr(&script));
    assert_eq!(
        calls(&script),
        [
            row("fetch", 10),
            row("fill_constant", 1),
            row("increment", 5),
            row("scale", 5),
            row("total", 21)
        ]
    );
    // Without --profile, no table.
    let plain = fluidc(&["run", main, "--startup", startup, "--steps", "2"], b"");
    assert_eq!(stderr(&plain), "");
}

/// Issue 15's numbers: seed 003's linear regression trained with SGD for
/// 100 steps from its compiled programs gives Paddle 3.3.1's losses and
/// predictions, as the script does in run mode.
#[test]
fn training_steps_give_paddles_losses() {
    let dir = temp_dir("train_sgd");
    let (main, startup) = compile_split(&dir, "testdata/train/linear_sgd_const.py");
    let x_feed = npy_feed(&dir, "x", "x", &[1.0, 2.0, 3.0, 4.0]);
    let y_feed = npy_feed(&dir, "y", "y", &[2.0, 4.0, 6.0, 8.0]);
    let out = fluidc(
        &[
            "run",
            path_str(&main),
            "--startup",
            path_str(&startup),
            "--steps",
            "100",
            "--feed",
            &x_feed,
            "--feed",
            &y_feed,
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 100);
    for (step, loss) in [
        (0, "16.135"),
        (1, "11.210728"),
        (9, "0.64708817"),
        (99, "0.027590197"),
    ] {
        assert!(
            lines[step].ends_with(&format!("mean_0.tmp_0 = {loss}")),
            "{}",
            lines[step]
        );
    }
    assert!(
        lines[99].contains("[[2.2682047], [4.1299634], [5.9917216], [7.8534803]]"),
        "{}",
        lines[99]
    );
}

#[test]
fn json_lines_give_each_step_and_its_fetches() {
    let dir = temp_dir("train_json");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let out = fluidc(
        &[
            "run",
            path_str(&main),
            "--startup",
            path_str(&startup),
            "--steps",
            "3",
            "--format",
            "json",
            "--fetch",
            "counter",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("{\"step\":0,"), "{}", stdout(&out));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        let counter = 11 + i as i64;
        assert_eq!(line["step"], serde_json::json!(i));
        assert_eq!(
            line["fetch"],
            serde_json::json!([
                {"name": "counter", "dtype": "int64", "shape": [1], "data": [counter]},
                {"name": "tmp_0", "dtype": "int64", "shape": [1], "data": [2 * counter]},
                {"name": "counter", "dtype": "int64", "shape": [1], "data": [counter]},
            ])
        );
    }
}

/// `--batch-size 2` over 3 rows: rows 0-1, then 2 and round to 0, then
/// 1-2, then 0-1 again; y is cut the same way, so the rows stay paired.
#[test]
fn batches_cycle_through_the_rows_of_each_npy_feed() {
    let dir = temp_dir("train_batches");
    let (main, startup) = compile_split(&dir, "testdata/run/seed003_feeds.py");
    let x_feed = npy_feed(&dir, "x", "x", &[1.0, 2.0, 3.0]);
    let y_feed = npy_feed(&dir, "y", "y", &[2.0, 4.0, 6.0]);
    let run = |extra: &[&str]| {
        let mut args = vec![
            "run",
            path_str(&main),
            "--startup",
            path_str(&startup),
            "--feed",
            &x_feed,
            "--feed",
            &y_feed,
        ];
        args.extend_from_slice(extra);
        fluidc(&args, b"")
    };
    let out = run(&["--steps", "4", "--batch-size", "2", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // y_predict = x * w with w = 0.5; the loss is the mean of (x/2 - 2x)^2.
    let predictions: Vec<serde_json::Value> = json_lines(&out)
        .iter()
        .map(|l| l["fetch"][0]["data"].clone())
        .collect();
    assert_eq!(
        predictions,
        vec![
            serde_json::json!([0.5, 1.0]),
            serde_json::json!([1.5, 0.5]),
            serde_json::json!([1.0, 1.5]),
            serde_json::json!([0.5, 1.0]),
        ]
    );
    let text = run(&["--steps", "2", "--batch-size", "2"]);
    assert_eq!(
        stdout(&text),
        "step 0: elementwise_mul_0.tmp_0 = [[0.5], [1.0]], mean_0.tmp_0 = 5.625\n\
         step 1: elementwise_mul_0.tmp_0 = [[1.5], [0.5]], mean_0.tmp_0 = 11.25\n"
    );
    // Without --batch-size every step gets the whole arrays.
    let whole = run(&["--steps", "2", "--format", "json"]);
    for line in json_lines(&whole) {
        assert_eq!(line["fetch"][0]["data"], serde_json::json!([0.5, 1.0, 1.5]));
    }

    // Batched feeds of different lengths would drift apart.
    let y4_feed = npy_feed(&dir, "y", "y4", &[2.0, 4.0, 6.0, 8.0]);
    let out = fluidc(
        &[
            "run",
            path_str(&main),
            "--steps",
            "2",
            "--batch-size",
            "2",
            "--feed",
            &x_feed,
            "--feed",
            &y4_feed,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("has 3 rows but") && stderr(&out).contains("has 4"),
        "{}",
        stderr(&out)
    );
    let out = run(&["--steps", "2", "--batch-size", "4"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("give a batch size from 1 to 3"),
        "{}",
        stderr(&out)
    );
    let out = run(&["--batch-size", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--steps N"), "{}", stderr(&out));
}

#[test]
fn training_flags_are_usage_errors_where_they_do_not_apply() {
    let dir = temp_dir("train_usage");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let script = "testdata/run/persistable_state.py";
    for (args, says) in [
        (
            vec!["run", script, "--startup", path_str(&startup)],
            "--startup is for a compiled program",
        ),
        (vec!["run", script, "--steps", "3"], "--startup-out"),
        (
            vec!["run", path_str(&main), "--steps", "0"],
            "run at least one step",
        ),
        (
            vec!["run", path_str(&main), "--startup", script],
            "give the compiled startup program",
        ),
        (
            vec!["run", path_str(&main), "--max-steps", "0"],
            "give 1 or more",
        ),
        (
            vec!["run", path_str(&main), "--timeout", "0"],
            "a number more than 0",
        ),
    ] {
        let out = fluidc(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
}

/// `--max-steps` counts the ops of one run: the counter program runs 4
/// ops a step (increment, scale, two fetches), so 4 lets every step run
/// and 3 stops the first step before its last fetch.
#[test]
fn max_steps_counts_the_ops_of_each_run() {
    let dir = temp_dir("train_max_steps");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let (main, startup) = (path_str(&main), path_str(&startup));
    let args = ["run", main, "--startup", startup, "--steps", "3"];
    let ok = fluidc(&[&args[..], &["--max-steps", "4"]].concat(), b"");
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert_eq!(stdout(&ok).lines().count(), 3);
    let stopped = fluidc(&[&args[..], &["--max-steps", "3"]].concat(), b"");
    assert_eq!(stopped.status.code(), Some(3), "{}", stderr(&stopped));
    assert!(stdout(&stopped).is_empty());
    assert!(
        stderr(&stopped).contains("step 0: fetch (block 0, op 3): stopped after 3 ops"),
        "{}",
        stderr(&stopped)
    );
}

/// A `while` whose condition never changes (`cnd=` for `cond=`) runs
/// forever; the limits stop it, in a script and in its compiled program.
#[test]
fn limits_stop_a_loop_whose_condition_never_changes() {
    let dir = temp_dir("train_runaway");
    let script = "testdata/front/warn/cond_keyword_typo.py";
    let pb = dir.join("typo.pb");
    let out = fluidc(&["compile", script, "-o", path_str(&pb)], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    for input in [script, path_str(&pb)] {
        let out = fluidc(&["run", input, "--max-steps", "1000"], b"");
        assert_eq!(out.status.code(), Some(3), "{input}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("stopped after 1000 ops")
                && err.contains("raise the limit (--max-steps N)")
                && err.contains("line 11"),
            "{input}: {err}"
        );
        let out = fluidc(&["run", input, "--timeout", "0.2"], b"");
        assert_eq!(out.status.code(), Some(3), "{input}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("stopped after 0.2 seconds")
                && stderr(&out).contains("raise the limit (--timeout SECONDS)"),
            "{input}: {}",
            stderr(&out)
        );
    }
}

/// Goroutines blocked on a channel when the limit stops the main
/// goroutine's loop are freed: the run ends with the limit's error (not a
/// hang, a panic or a deadlock report), on one worker and on several.
#[test]
fn limits_end_runs_with_blocked_goroutines() {
    let script = "testdata/programs/runaway_goroutines.py";
    for workers in ["1", "2", "4"] {
        // The timeout is a backstop: the op limit must trip first.
        let out = fluidc(
            &[
                "run",
                script,
                "--workers",
                workers,
                "--max-steps",
                "5000",
                "--timeout",
                "120",
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains("stopped after 5000 ops"), "{workers}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("deadlock"),
            "{err}"
        );
        let out = fluidc(
            &["run", script, "--workers", workers, "--timeout", "0.2"],
            b"",
        );
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("stopped after 0.2 seconds"),
            "{workers}: {}",
            stderr(&out)
        );
    }
}

/// Each trainable parameter with a gradient, in each training script's program, gets
/// exactly one optimizer op, and the op that writes its gradient last
/// carries the pair `[param, grad]` in `op_role_var` (what Paddle's data-parallel
/// transform reads; issue 38's `sums([x, w])` lost both). Compiled with
/// `--passes none`, so the program is the one the script built.
#[test]
fn every_trainable_parameter_gets_one_optimizer_op() {
    use fluidc_transpiler::AttrValue;
    let mut scripts: Vec<_> = std::fs::read_dir(repo().join("testdata/train"))
        .expect("testdata/train")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 10, "testdata/train has too few scripts");
    let mut checked = 0;
    for script in scripts {
        let rel = script.strip_prefix(repo()).expect("in repo");
        let out = fluidc(
            &["compile", path_str(rel), "--passes", "none", "-o", "-"],
            b"",
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            rel.display(),
            stderr(&out)
        );
        let program = fluidc_transpiler::codec::decode_program(&out.stdout).expect("decodes");
        let block = &program.blocks[0];
        if !block.ops.iter().any(|op| !op.inputs_of("Param").is_empty()) {
            continue; // a backward without an optimizer (gradient checks)
        }
        let trainable: Vec<&str> = block
            .vars
            .iter()
            .filter(|v| v.is_parameter == Some(true) && v.stop_gradient != Some(true))
            .map(|v| v.name.as_str())
            // Those the backward reached (layers built after `minimize`
            // are not trained).
            .filter(|p| block.var(&format!("{p}@GRAD")).is_some())
            .collect();
        checked += trainable.len();
        for p in trainable {
            // Optimizer ops read the parameter as `Param`.
            let updates = block
                .ops
                .iter()
                .filter(|op| op.inputs_of("Param").iter().any(|n| n == p))
                .count();
            assert_eq!(
                updates,
                1,
                "{}: {p} has {updates} optimizer ops",
                rel.display()
            );
            let grad = format!("{p}@GRAD");
            let role_var = block
                .ops
                .iter()
                .filter(|op| !op.inputs_of("Param").iter().any(|n| n == p))
                .rev()
                .find(|op| op.output_names().any(|n| n == grad))
                .and_then(|op| match op.get_attr("op_role_var") {
                    Some(AttrValue::Strings(v)) => Some(v.clone()),
                    _ => None,
                });
            assert!(
                // A flat list of pairs: one op may write several gradients.
                role_var
                    .as_ref()
                    .is_some_and(|v| v.chunks(2).any(|pair| pair == [p, grad.as_str()])),
                "{}: the op writing {grad} has op_role_var {role_var:?}",
                rel.display()
            );
        }
    }
    assert!(checked >= 20, "only {checked} trained parameters checked");
}
