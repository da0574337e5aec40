//! Every program real Paddle 3.3.1 wrote (`testdata/paddle/*.pb`) runs in
//! the runtime with the feeds its `.json` records (and mlp's parameters,
//! loaded from `.npy` as feeds) and gives exactly Paddle's fetches: same
//! names, dtypes and shapes, equal integers and bools, floats within 1e-5
//! relative.
use std::path::{Path, PathBuf};

use fluidc_runtime::{parse_feed, run, tensor::dtype_name, RunOptions, Tensor};
use fluidc_transpiler::codec::decode_program;
use fluidc_transpiler::Verified;
use serde_json::Value;

fn testdata() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/paddle")
}

fn programs() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(testdata())
        .expect("testdata/paddle exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pb"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "the Paddle programs are there: {files:?}");
    files
}

fn load(pb: &Path) -> Verified {
    let bytes = std::fs::read(pb).expect("read .pb");
    Verified::new(decode_program(&bytes).expect("decodes")).expect("verifies")
}

/// A JSON feed record {"dtype","shape","data"} as the literal `--feed` takes.
fn feed_literal(program: &Verified, name: &str, record: &Value) -> Tensor {
    let t = parse_feed(program, name, &record["data"].to_string()).expect("literal parses");
    let shape: Vec<i64> = serde_json::from_value(record["shape"].clone()).expect("shape");
    assert_eq!(
        dtype_name(t.dtype()),
        record["dtype"],
        "{name}: declared dtype"
    );
    t.reshaped(&shape).expect("reshape")
}

fn assert_matches(pb: &Path, got: &(String, Tensor), want: &Value) {
    let (name, t) = got;
    assert_eq!(
        name,
        want["name"].as_str().expect("name"),
        "{}",
        pb.display()
    );
    let json = t.to_json(name);
    assert_eq!(
        json["dtype"],
        want["dtype"],
        "{}: {name} dtype",
        pb.display()
    );
    assert_eq!(
        json["shape"],
        want["shape"],
        "{}: {name} shape",
        pb.display()
    );
    let (g, w) = (
        json["data"].as_array().expect("data"),
        want["data"].as_array().expect("data"),
    );
    assert_eq!(g.len(), w.len(), "{}: {name} element count", pb.display());
    for (i, (a, b)) in g.iter().zip(w).enumerate() {
        match (a.as_f64(), b.as_f64(), a.is_f64() || b.is_f64()) {
            (Some(x), Some(y), true) => assert!(
                (x - y).abs() <= 1e-5 * y.abs().max(1e-30) || x == y,
                "{}: {name}[{i}] = {x}, Paddle gave {y}",
                pb.display()
            ),
            _ => assert_eq!(a, b, "{}: {name}[{i}]", pb.display()),
        }
    }
}

#[test]
fn every_paddle_program_gives_paddles_fetches() {
    for pb in programs() {
        let program = load(&pb);
        let spec: Value = serde_json::from_str(
            &std::fs::read_to_string(pb.with_extension("json")).expect("the .json beside the .pb"),
        )
        .expect("JSON");
        let mut feeds = Vec::new();
        for (name, record) in spec["feed"].as_object().expect("feed object") {
            feeds.push((name.clone(), feed_literal(&program, name, record)));
        }
        if let Some(params) = spec["params"].as_object() {
            for (name, file) in params {
                let path = testdata().join(file.as_str().expect("path"));
                let t =
                    parse_feed(&program, name, path.to_str().expect("utf-8")).expect(".npy reads");
                feeds.push((name.clone(), t));
            }
        }
        // The program's own fetch ops come first; ask only for the rest.
        let own: Vec<String> = program.blocks[0]
            .ops
            .iter()
            .filter(|op| op.ty == "fetch")
            .map(|op| op.inputs_of("X")[0].clone())
            .collect();
        let fetch: Vec<String> = spec["fetch"]
            .as_array()
            .expect("fetch list")
            .iter()
            .map(|v| v.as_str().expect("name").to_string())
            .filter(|n| !own.contains(n))
            .collect();
        let got = run(
            &program,
            RunOptions {
                feeds,
                fetch,
                seed: Some(1),
                workers: Some(1),
                max_memory: None,
            },
        )
        .unwrap_or_else(|e| panic!("{} fails:\n{e}", pb.display()));
        let want = spec["expected"]["fetch"]
            .as_array()
            .expect("expected fetches");
        assert_eq!(got.len(), want.len(), "{}: fetch count", pb.display());
        for (g, w) in got.iter().zip(want) {
            assert_matches(&pb, g, w);
        }
    }
}

#[test]
fn a_missing_feed_names_the_feed_op_and_the_flag() {
    let program = load(&testdata().join("mlp.pb"));
    let err = run(&program, RunOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("feed (block 0, op 0): nothing was fed for `x` (feed column 0); give it with --feed x=VALUE"),
        "{err}"
    );
}
