//! `fluidc run` end to end on scripts: the answers Paddle's own CSP tests
//! expect, at every -O level (passes preserve behaviour), under several
//! seeds and worker counts (select's choice and scheduling vary).
mod common;
use common::*;

/// A script, its feeds, and the expected fetches as (name, JSON data).
type Case = (
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

const CASES: &[Case] = &[
    (
        "testdata/front/ok/csp_simple_routine.py",
        &[],
        &[("fill_constant_1.tmp_0", "[1234.0]")],
    ),
    (
        "testdata/front/ok/csp_recv_placeholder.py",
        &[],
        &[("return_value_0", "[1234.0]")],
    ),
    (
        "testdata/front/ok/csp_daisy_chain.py",
        &[],
        &[("fill_constant_201.tmp_0", "[101]")],
    ),
    (
        "testdata/front/ok/csp_select_default.py",
        &[],
        &[
            ("fill_constant_3.tmp_0", "[10.0]"),
            ("fill_constant_1.tmp_0", "[false]"),
        ],
    ),
    (
        "testdata/front/ok/csp_2018_forms.py",
        &[],
        &[
            ("channel_recv_0.tmp_0", "[true]"),
            ("channel_recv_1.tmp_0", "[7]"),
            ("channel_recv_2.tmp_0", "[2.5]"),
            ("channel_recv_3.tmp_0", "[1.0]"),
        ],
    ),
    (
        // 99 comes back with status true; 1 through 10 goroutines that
        // each add 1 is 11; a sent True is true (derived in the script).
        "testdata/front/ok/csp_2018_recv_forms.py",
        &[],
        &[
            ("channel_recv_0.tmp_0", "[99.0]"),
            ("status_0", "[true]"),
            ("channel_recv_11.tmp_0", "[11]"),
            ("channel_recv_12.tmp_0", "[true]"),
        ],
    ),
    (
        "testdata/front/ok/csp_fibonacci.py",
        &[],
        &[("_generated_var_1", "[34]")],
    ),
    (
        "testdata/front/ok/csp_ping_pong.py",
        &[],
        &[("fill_constant_2.tmp_0", "[9.0]")],
    ),
    (
        "testdata/front/ok/seed000_select_fixed.py",
        &[],
        &[("fill_constant_0.tmp_0", "[34]")],
    ),
    (
        "testdata/front/ok/seed003_cond.py",
        &["x=[1]", "y=[2]"],
        &[("_generated_var_4", "[1]")],
    ),
    (
        "testdata/front/ok/seed003_cond.py",
        &["x=[3]", "y=[2]"],
        &[("_generated_var_4", "[0]")],
    ),
];

fn run_json(args: &[&str]) -> Vec<(String, serde_json::Value)> {
    let out = fluidc(args, b"");
    assert!(out.status.success(), "fluidc {args:?}: {}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("run --format json prints JSON");
    v["fetch"]
        .as_array()
        .expect("fetch")
        .iter()
        .map(|f| {
            (
                f["name"].as_str().expect("name").to_string(),
                f["data"].clone(),
            )
        })
        .collect()
}

#[test]
fn scripts_give_paddles_answers_at_every_level_seed_and_worker_count() {
    for (script, feeds, expected) in CASES {
        let expected: Vec<(String, serde_json::Value)> = expected
            .iter()
            .map(|(n, d)| {
                (
                    n.to_string(),
                    serde_json::from_str(d).expect("expected JSON"),
                )
            })
            .collect();
        for level in ["-O0", "-O1", "-O2"] {
            for (seed, workers) in [("1", "1"), ("2", "2"), ("3", "1"), ("4", "2")] {
                let mut args = vec![
                    "run",
                    script,
                    level,
                    "--format",
                    "json",
                    "--seed",
                    seed,
                    "--workers",
                    workers,
                ];
                for f in *feeds {
                    args.extend(["--feed", f]);
                }
                assert_eq!(
                    run_json(&args),
                    expected,
                    "{script} {level} seed {seed} workers {workers}"
                );
            }
        }
    }
}

#[test]
fn compile_time_print_writes_to_stderr_with_keywords() {
    let out = fluidc(&["check", "testdata/programs/operators.py"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "compiled: operators\n");
}

/// A script that prints nothing shows its last run's fetches, each named
/// after the script's variable bound to it (README, "Run mode"), `--fetch` ones too.
#[test]
fn text_output_and_extra_fetch() {
    let out = fluidc(
        &[
            "run",
            "testdata/front/ok/csp_ping_pong.py",
            "--fetch",
            "fill_constant_0.tmp_0",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "result (fill_constant_2.tmp_0) = [9.0] (float64, shape [1])\n\
         msg (fill_constant_0.tmp_0) = [9.0] (float64, shape [1])\n"
    );
}

/// A script that only logs (to stderr, as 2019's models logged their
/// losses) printed something: its stdout is CPython's, empty, with no
/// fetches after it.
#[test]
fn a_script_that_logs_shows_no_fetches() {
    let dir = temp_dir("run_logs");
    let script = dir.join("logs.py");
    std::fs::write(
        &script,
        "import logging\n\
         import paddle.fluid as fluid\n\
         logging.basicConfig()\n\
         logger = logging.getLogger('fluid')\n\
         logger.setLevel(logging.INFO)\n\
         x = fluid.layers.fill_constant(shape=[1], dtype='float32', value=2.0)\n\
         exe = fluid.Executor(fluid.CPUPlace())\n\
         out, = exe.run(fetch_list=[x * 2])\n\
         logger.info('loss %s', out[0])\n",
    )
    .expect("write script");
    let out = fluidc(&["run", script.to_str().expect("utf-8 path")], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), "INFO:fluid:loss 4.0\n");
}

#[test]
fn compiled_pb_runs_like_the_script() {
    let dir = temp_dir("run_pb");
    let pb = dir.join("fib.pb");
    let out = fluidc(
        &[
            "compile",
            "testdata/front/ok/csp_fibonacci.py",
            "-o",
            path_str(&pb),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        run_json(&["run", path_str(&pb), "--format", "json"]),
        run_json(&[
            "run",
            "testdata/front/ok/csp_fibonacci.py",
            "--format",
            "json"
        ])
    );
}

/// Runs a failing program; returns its stderr after checking exit code 3.
fn failing_run(script: &str) -> String {
    let out = fluidc(&["run", script, "--workers", "2"], b"");
    assert_eq!(out.status.code(), Some(3), "{script}: {}", stderr(&out));
    stderr(&out)
}

#[test]
fn a_deadlock_is_reported_with_every_blocked_goroutine_not_hung() {
    let err = failing_run("testdata/programs/deadlock.py");
    assert!(err.contains("deadlock: all goroutines are asleep"), "{err}");
    assert!(
        err.contains("goroutine 0 (main) is blocked in channel_recv (block 0, op 1)"),
        "{err}"
    );
    assert!(
        err.contains(r#"testdata/programs/deadlock.py", line 6"#),
        "{err}"
    );

    let err = failing_run("testdata/programs/goroutines_deadlock.py");
    for (who, block, line) in [
        ("goroutine 0 (main)", 0, 18),
        ("goroutine 1", 1, 11),
        ("goroutine 2", 2, 15),
    ] {
        assert!(
            err.contains(&format!("{who} is blocked in channel_recv (block {block}")),
            "{err}"
        );
        assert!(
            err.contains(&format!("goroutines_deadlock.py\", line {line}")),
            "{err}"
        );
    }
}

/// A goroutine preempted while the goroutines it woke still wait on its
/// worker counts them before another worker can take it: before the fix,
/// about one run in 25 of the bench's buffered-channel workload (a sender
/// of 10000 values through a capacity-100 channel, main summing them)
/// ended in a false deadlock report. Forty runs catch that with ~80% odds,
/// in a few seconds.
#[test]
fn a_preempted_sender_never_looks_like_a_deadlock() {
    let dir = temp_dir("buffered_handoff");
    let template = std::fs::read_to_string(repo().join("bench/workloads/buffered.py"))
        .expect("the bench workload");
    let script = dir.join("buffered.py");
    std::fs::write(&script, template.replace("@N@", "10000")).expect("write script");
    let pb = dir.join("buffered.pb");
    let out = fluidc(&["compile", path_str(&script), "-o", path_str(&pb)], b"");
    assert!(out.status.success(), "{}", stderr(&out));
    for run in 0..40 {
        let out = fluidc(&["run", path_str(&pb), "--workers", "2"], b"");
        assert!(out.status.success(), "run {run}: {}", stderr(&out));
        // 0 + 1 + ... + 9999, as Python's sum(range(10000)) gives it.
        assert!(
            stdout(&out).contains("[49995000]"),
            "run {run}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn send_on_closed_and_double_close_are_runtime_errors() {
    let err = failing_run("testdata/programs/send_on_closed.py");
    assert!(
        err.contains("channel_send (block 0, op 3): send on closed channel"),
        "{err}"
    );
    assert!(err.contains("send_on_closed.py\", line 7"), "{err}");
    let err = failing_run("testdata/programs/double_close.py");
    assert!(
        err.contains("channel_close (block 0, op 2): close of closed channel"),
        "{err}"
    );
    assert!(err.contains("double_close.py\", line 6"), "{err}");
}

/// `layers.one_hot`: an id outside `[0, depth)` gives a row of zeros with
/// `allow_out_of_range=True` and is otherwise a runtime error naming the
/// op and the script's line (Paddle 3.3.1's kernel refuses both).
#[test]
fn one_hot_ids_out_of_range_are_zero_rows_or_runtime_errors() {
    let script = "testdata/programs/one_hot_out_of_range.py";
    let out = fluidc(&["run", script], b"");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "[[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]\n"
    );
    let err = stderr(&out);
    assert!(
        err.contains("one_hot_v2 (block 0, op 2): id 5 is out of range for depth 3"),
        "{err}"
    );
    assert!(err.contains("one_hot_out_of_range.py\", line 15"), "{err}");
}

/// A reshape that changes a sequence batch's rows keeps its LoD (Paddle
/// 3.3.1's kernel does; `recursive_sequence_lengths()` shows it), and an
/// op that reads that LoD is a runtime error naming the variable, the op
/// and the line (Paddle 3.3.1 pools the first rows by it instead).
#[test]
fn a_lod_that_no_longer_fits_the_rows_is_a_runtime_error_where_read() {
    let script = "testdata/programs/reshape_lod_rows_changed.py";
    let out = fluidc(&["run", script], b"");
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    assert_eq!(stdout(&out), "(12, 3) [[2, 3, 1]]\n");
    let err = stderr(&out);
    assert!(
        err.contains(
            "sequence_pool (block 0, op 2): the LoD of `reshape2_0.tmp_0` ends at row 6, \
             but it has 12 rows"
        ),
        "{err}"
    );
    assert!(
        err.contains("reshape_lod_rows_changed.py\", line 11"),
        "{err}"
    );
}

/// Fetching a tensor with LoD with `return_numpy=True` is Paddle's
/// `RuntimeError` (its words), reported as any uncaught exception: a
/// traceback ending at the `exe.run`, exit status 1, after what the
/// script printed (testdata/run/lod_fetch_as_numpy.py compares stdout and
/// status with Paddle 3.3.1).
#[test]
fn an_uncaught_lod_fetch_as_numpy_stops_the_script_with_one_error() {
    let script = "testdata/run/lod_fetch_as_numpy.py";
    let out = fluidc(&["run", script], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(stdout(&out), "(3, 4) [[2, 1]]\n");
    assert!(
        err.contains(
            "RuntimeError: Some of your fetched tensors hold LoD information. \
             \x20           They can not be completely cast to Python ndarray."
        ),
        "{err}"
    );
    assert!(
        err.ends_with(
            "lod_fetch_as_numpy.py\", line 17, in <module>\n    \
             e, = exe.run(feed={'words': ids}, fetch_list=[emb])\nRuntimeError: Some of your \
             fetched tensors hold LoD information.             They can not be completely cast \
             to Python ndarray.             Please set the parameter 'return_numpy' as 'False' \
             to             return DenseTensor itself directly.\n"
        ),
        "{err}"
    );
    assert_eq!(err.matches("Traceback").count(), 1, "{err}");
}

/// `fluidc run -` and `compile -` take a Python script on standard input
/// (they used to parse it as a ProgramDesc), and build mode stops at the
/// script's first run of a main program: a host loop after it that needs
/// fetched values does not make `compile` fail.
#[test]
fn scripts_on_stdin_and_host_loops_in_build_mode() {
    let script = std::fs::read("testdata/run/persistable_state.py").expect("read");
    let out = fluidc(&["run", "-"], &script);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("counter went [11, 12, 13, 14, 15]"),
        "{}",
        stdout(&out)
    );
    let out = fluidc(&["compile", "-", "-o", "-"], &script);
    assert!(out.status.success(), "{}", stderr(&out));
    let back = fluidc(&["dump", "-"], &out.stdout);
    assert!(back.status.success(), "{}", stderr(&back));
    assert!(stdout(&back).contains("increment"), "{}", stdout(&back));
    let out = fluidc(&["check", "testdata/run/host_loop.py"], b"");
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `--feed x=file.npy` is checked against `x`'s declaration, as Paddle
/// checks feeds: another dtype or a shape that does not fit is an error
/// naming the variable (it used to fail later, inside an op).
#[test]
fn npy_feeds_are_checked_against_the_declaration() {
    let dir = temp_dir("npy_feeds");
    let pb = dir.join("scale.pb");
    let out = fluidc(
        &["compile", "testdata/run/host_loop.py", "-o", path_str(&pb)],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let cases = [
        (
            "f64.npy",
            npy("<f8", &[2, 3], &[1.0; 6]),
            Some("the value is float64 but `x` is declared float32"),
        ),
        (
            "rank.npy",
            npy("<f4", &[3], &[1.0; 3]),
            Some("the value has shape [3] but `x` is declared [-1, 3]"),
        ),
        ("ok.npy", npy("<f4", &[2, 3], &[1.0; 6]), None),
    ];
    for (file, bytes, error) in cases {
        let path = dir.join(file);
        std::fs::write(&path, bytes).expect("write npy");
        let x = format!("x={}", path_str(&path));
        let y = format!("y={}", path_str(&dir.join("ok.npy")));
        std::fs::write(dir.join("ok.npy"), npy("<f4", &[2, 3], &[1.0; 6])).expect("write npy");
        let out = fluidc(&["run", path_str(&pb), "--feed", &x, "--feed", &y], b"");
        match error {
            Some(e) => {
                assert_eq!(out.status.code(), Some(1), "{file}: {}", stderr(&out));
                assert!(stderr(&out).contains(e), "{file}: {}", stderr(&out));
            }
            None => assert!(out.status.success(), "{file}: {}", stderr(&out)),
        }
    }
}

/// A tensor too large for memory, or whose byte size overflows, is a
/// runtime error naming the op and its line (exit 3), not an abort.
#[test]
fn tensors_over_the_memory_limit_are_runtime_errors() {
    let script = |shape: &str| {
        format!(
            "import paddle.fluid as fluid\n\
             x = fluid.layers.fill_constant(shape={shape}, dtype='float32', value=1.0)\n\
             y = fluid.layers.reduce_sum(x)\n\
             exe = fluid.Executor(fluid.CPUPlace())\n\
             print(exe.run(fetch_list=[y]))\n"
        )
    };
    let run = |shape: &str, extra: &[&str]| {
        let mut args = vec!["run", "-"];
        args.extend_from_slice(extra);
        let out = fluidc(&args, script(shape).as_bytes());
        assert_eq!(out.status.code(), Some(3), "{shape}: {}", stderr(&out));
        stderr(&out)
    };
    let err = run("[100000, 100000]", &[]);
    assert!(
        err.contains(
            "fill_constant (block 0, op 0): the output of shape [100000, 100000] float32 \
             needs 40000000000 bytes, over the"
        ),
        "{err}"
    );
    assert!(err.contains("limit (--max-memory)"), "{err}");
    assert!(err.contains("line 2"), "{err}");

    let err = run("[3037000500, 3037000500]", &[]);
    assert!(
        err.contains("float32 needs 36893488148001000000 bytes"),
        "{err}"
    );

    // The limit is the flag's; under it, the same program runs.
    let err = run("[1000, 1000]", &["--max-memory", "1M"]);
    assert!(
        err.contains("needs 4000000 bytes, over the 1 MiB limit (--max-memory)"),
        "{err}"
    );
    let out = fluidc(
        &["run", "-", "--max-memory", "4M", "--format", "json"],
        script("[1000, 1000]").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("1000000"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The GEMM benchmark program (bench/workloads/gemm.py) computes the right
/// product with `mul` and `matmul`, so the benchmark never times a wrong one.
#[test]
fn the_gemm_benchmark_program_computes_the_product() {
    let template = std::fs::read_to_string("bench/workloads/gemm.py").expect("workload");
    for op in ["mul", "matmul"] {
        let script = template
            .replace("@OP@", op)
            .replace("@N@", "64")
            .replace("@ITERS@", "3");
        let out = fluidc(&["run", "-", "--format", "json"], script.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{op}: {}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        // Every element is 64 * 0.5 * 0.25; there are 64 * 64 of them.
        assert_eq!(v["fetch"][0]["data"], serde_json::json!([32768.0]), "{op}");
        assert_eq!(v["fetch"][1]["data"], serde_json::json!([3]), "{op}");
    }
}

/// A `--feed` or `--fetch` name is never silently ignored: on a script,
/// one no run used is a warning naming the closest variable; on a
/// program, one it does not declare is an error (exit 1, as other bad
/// `--feed` values).
#[test]
fn command_line_names_nothing_uses_are_reported() {
    let out = fluidc(
        &[
            "run",
            "testdata/run/seed003_feeds.py",
            "--feed",
            "xx=[[1.0]]",
            "--fetch",
            "nothing_here",
        ],
        b"",
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("warning: --feed xx: ignored, the script never feeds it; did you mean `x`?"),
        "{err}"
    );
    assert!(
        err.contains(
            "warning: --fetch nothing_here: ignored, no program the script ran declares it"
        ),
        "{err}"
    );

    let dir = temp_dir("cli_names");
    let pb = dir.join("seed003.pb");
    let out = fluidc(
        &[
            "compile",
            "testdata/run/seed003_feeds.py",
            "-o",
            path_str(&pb),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = fluidc(&["run", path_str(&pb), "--feed", "xx=[[1.0]]"], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "--feed xx: the program's global block has no variable `xx`; did you mean `x`?"
        ),
        "{}",
        stderr(&out)
    );
}

/// `--select-dispatch ops` runs a lowered select's cases block op by op
/// (its `equal` and `conditional_block` ops show in `--profile`), where the
/// default jumps to the chosen case's body; both print the same.
#[test]
fn select_dispatch_ops_runs_the_lowered_cases_block_with_the_same_results() {
    let script = "testdata/front/ok/csp_fibonacci.py";
    let direct = fluidc(&["run", "--profile", "--seed", "1", script], b"");
    let ops = fluidc(
        &[
            "run",
            "--profile",
            "--seed",
            "1",
            "--select-dispatch",
            "ops",
            script,
        ],
        b"",
    );
    assert!(
        direct.status.success() && ops.status.success(),
        "{}",
        stderr(&ops)
    );
    assert_eq!(stdout(&direct), stdout(&ops));
    let calls = |out: &std::process::Output, op: &str| -> u64 {
        stderr(out)
            .lines()
            .find_map(|l| {
                let mut words = l.split_whitespace();
                (words.next() == Some(op)).then(|| words.next()?.parse().ok())?
            })
            .unwrap_or(0)
    };
    assert_eq!(calls(&direct, "select"), calls(&ops, "select"));
    assert!(calls(&direct, "select") > 0);
    assert_eq!(
        calls(&direct, "conditional_block"),
        0,
        "{}",
        stderr(&direct)
    );
    assert!(
        calls(&ops, "conditional_block") >= calls(&ops, "select"),
        "{}",
        stderr(&ops)
    );
    assert!(
        calls(&ops, "equal") > calls(&direct, "equal"),
        "{}",
        stderr(&ops)
    );
}
