//! `fluidc run` end to end on scripts: the answers Paddle's own CSP tests
//! expect, at every -O level (passes preserve behaviour), under several
//! seeds and worker counts (select's choice and scheduling vary).
mod common;
use common::*;

/// Script, feeds, and the expected fetches as (name, JSON data).
const CASES: &[(&str, &[&str], &[(&str, &str)])] = &[
    (
        "testdata/front/ok/csp_simple_routine.py",
        &[],
        &[("fill_constant_1.tmp_0", "[1234.0]")],
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
        "testdata/front/ok/csp_fibonacci.py",
        &[],
        &[("global_var_1.tmp_0", "[34]")],
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
        &[("select_input_0.tmp_0", "[1]")],
    ),
    (
        "testdata/front/ok/seed003_cond.py",
        &["x=[3]", "y=[2]"],
        &[("select_input_0.tmp_0", "[0]")],
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
        "fill_constant_2.tmp_0 = [9.0] (float64, shape [1])\nfill_constant_0.tmp_0 = [9.0] (float64, shape [1])\n"
    );
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
