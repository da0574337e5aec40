//! A quick correctness run of the benchmark programs (bench/workloads and
//! their Go twins' answers), so a benchmark never measures a wrong program.
//! The benchmarks themselves (bench/run.sh) are not part of the tests.
mod common;
use common::*;

fn instantiate(template: &str, key: &str, value: u64) -> std::path::PathBuf {
    let text = std::fs::read_to_string(
        repo()
            .join("bench/workloads")
            .join(format!("{template}.py")),
    )
    .expect("workload");
    let dir = temp_dir(&format!("bench_smoke_{template}"));
    let path = dir.join(format!("{template}.py"));
    std::fs::write(&path, text.replace(&format!("@{key}@"), &value.to_string())).expect("write");
    path
}

fn run_values(script: &std::path::Path, workers: &str) -> Vec<serde_json::Value> {
    let out = fluidc(
        &[
            "run",
            path_str(script),
            "--format",
            "json",
            "--workers",
            workers,
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}: {}",
        script.display(),
        stderr(&out)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    v["fetch"]
        .as_array()
        .expect("fetch")
        .iter()
        .map(|f| f["data"][0].clone())
        .collect()
}

#[test]
fn benchmark_programs_compute_what_their_go_twins_print() {
    let n: u64 = 300;
    // (template, parameter, value, expected first fetch) — the Go programs print the same.
    let cases = [
        ("pingpong", "N", n, serde_json::json!(n - 1)),
        ("buffered", "N", n, serde_json::json!(n * (n - 1) / 2)),
        ("fanin", "HALF", n / 2, serde_json::json!(n)),
        ("fibonacci", "N", n, serde_json::json!(n)),
        ("daisy", "N", n, serde_json::json!(n + 1)),
        // Each of the two goroutines sends its loop count (no Go twin).
        ("steal", "ITERS", 3, serde_json::json!(6)),
    ];
    for (template, key, value, expected) in cases {
        let script = instantiate(template, key, value);
        for workers in ["1", "2"] {
            assert_eq!(
                run_values(&script, workers)[0],
                expected,
                "{template} with {workers} workers"
            );
        }
    }
}

#[test]
fn executor_workloads_compute_fibonacci() {
    // fib(30) = 832040; the conditional variant also counts 15 even iterations.
    let fib = run_values(&instantiate("while_fib", "N", 30), "1");
    assert_eq!(fib, [serde_json::json!(832040), serde_json::json!(30)]);
    let cond = run_values(&instantiate("while_fib_cond", "N", 30), "1");
    assert_eq!(cond, [serde_json::json!(832040), serde_json::json!(15)]);
}
