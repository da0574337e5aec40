//! docs/models.md against Paddle 3.3.1: parameters and inference models in
//! Paddle's files, both directions (issue 16's Done-when).
mod common;
use common::*;

use std::path::Path;
use std::process::{Command, Output};

/// Runs `fluidc run SCRIPT` with `dir` as the working directory.
fn fluidc_in(dir: &Path, script: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fluidc"))
        .args(["run", path_str(&repo().join(script))])
        .current_dir(dir)
        .output()
        .expect("fluidc starts")
}

/// Runs SCRIPT in CPython + Paddle 3.3.1 (the fluid2018 shim) in `dir`.
fn paddle_in(dir: &Path, script: &str) -> Output {
    run_with_paddle(&repo().join(script), dir, &[])
}

fn ok(o: Output, what: &str) -> String {
    assert!(o.status.success(), "{what}:\n{}", stderr(&o));
    stdout(&o)
}

/// The numbers of the `predict ...` line.
fn predictions(out: &str) -> Vec<f64> {
    let line = out
        .lines()
        .find(|l| l.starts_with("predict"))
        .unwrap_or_else(|| panic!("no predict line in:\n{out}"));
    line.trim_start_matches("predict")
        .replace(['[', ']'], " ")
        .split_whitespace()
        .map(|t| t.parse().expect("a number"))
        .collect()
}

fn assert_close(a: &[f64], b: &[f64], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: {a:?} vs {b:?}");
    for (x, y) in a.iter().zip(b) {
        assert!(
            (x - y).abs() <= 1e-6 * x.abs().max(1.0),
            "{what}: {a:?} vs {b:?}"
        );
    }
}

/// Paddle 3.3.1 loads a saved model (`dir` mode: __model__ + params, or a
/// path prefix) and predicts for x = [[5], [6.5]].
fn paddle_predicts(cwd: &Path, model: &str, dir_mode: bool) -> Vec<f64> {
    let script = "import os, sys\nos.environ['FLAGS_enable_pir_api']='0'\nimport numpy, paddle\n\
        paddle.enable_static()\nexe = paddle.static.Executor(paddle.CPUPlace())\n\
        if sys.argv[2] == 'dir':\n    prog, feed, fetch = paddle.static.load_inference_model(sys.argv[1], exe, model_filename='__model__', params_filename='params')\n\
        else:\n    prog, feed, fetch = paddle.static.load_inference_model(sys.argv[1], exe)\n\
        x = numpy.array([[5.0], [6.5]], dtype='float32')\n\
        out, = exe.run(prog, feed={feed[0]: x}, fetch_list=fetch)\nprint('predict', out.flatten())";
    let out = Command::new(paddle_python())
        .args(["-c", script, model, if dir_mode { "dir" } else { "prefix" }])
        .current_dir(cwd)
        .output()
        .expect("python starts");
    predictions(&ok(out, "Paddle loading the model"))
}

fn same_bytes(a: &Path, b: &Path) {
    let (x, y) = (
        std::fs::read(a).expect("read"),
        std::fs::read(b).expect("read"),
    );
    assert!(x == y, "{} and {} differ", a.display(), b.display());
}

/// The Done-when: train, save_inference_model(params_filename='params'),
/// load_inference_model and predict, in fluidc and in Paddle; Paddle loads
/// fluidc's directory and fluidc loads Paddle's, with the same predictions;
/// the params files (combined and one per variable) are byte-identical.
#[test]
fn fluid_io_inference_model_round_trips_with_paddle() {
    let script = "testdata/io/linear_inference_model.py";
    let (ours, theirs) = (temp_dir("io_fluid_ours"), temp_dir("io_fluid_theirs"));
    let a = ok(fluidc_in(&ours, script), "fluidc");
    let b = ok(paddle_in(&theirs, script), "Paddle");
    assert_eq!(a, b, "the script prints differently");
    let expected = predictions(&a);
    for f in [
        "linear_model/params",
        "linear_params/fc_0.w_0",
        "linear_params/fc_0.b_0",
    ] {
        same_bytes(&ours.join(f), &theirs.join(f));
    }
    assert_close(
        &paddle_predicts(&ours, "linear_model", true),
        &expected,
        "Paddle on fluidc's model",
    );
    let reload = ok(fluidc_in(&theirs, "testdata/io/load_linear.py"), "fluidc");
    assert_close(&predictions(&reload), &expected, "fluidc on Paddle's model");
}

/// `save_vars`/`load_vars` with a `predicate` (a function, `fluid.io.
/// is_persistable`, a lambda) choose the files Paddle's choose, with the
/// same bytes, and a scope never initialized predicts again from them.
#[test]
fn save_vars_with_a_predicate_saves_what_paddle_saves() {
    let script = "testdata/io/save_vars_predicate.py";
    let (ours, theirs) = (temp_dir("io_pred_ours"), temp_dir("io_pred_theirs"));
    let a = ok(fluidc_in(&ours, script), "fluidc");
    let b = ok(paddle_in(&theirs, script), "Paddle");
    assert_eq!(a, b, "the script prints differently");
    for f in [
        "weights/fc_0.w_0",
        "everything/all",
        "by_name/out_w",
        "by_name/counter",
    ] {
        same_bytes(&ours.join(f), &theirs.join(f));
    }
}

/// The `.pdmodel` route: paddle.static.save_inference_model(prefix, ...)
/// and load_inference_model(prefix, exe).
#[test]
fn pdmodel_route_round_trips_with_paddle() {
    let script = "testdata/io/linear_pdmodel.py";
    let (ours, theirs) = (temp_dir("io_pd_ours"), temp_dir("io_pd_theirs"));
    let a = ok(fluidc_in(&ours, script), "fluidc");
    let b = ok(paddle_in(&theirs, script), "Paddle");
    assert_eq!(a, b, "the script prints differently");
    same_bytes(
        &ours.join("linear/model.pdiparams"),
        &theirs.join("linear/model.pdiparams"),
    );
    assert_close(
        &paddle_predicts(&ours, "linear/model", false),
        &predictions(&a),
        "Paddle on fluidc's .pdmodel",
    );
    // fluidc runs Paddle's .pdmodel from the command line (.pdiparams beside it).
    let out = fluidc(
        &[
            "run",
            path_str(&theirs.join("linear/model.pdmodel")),
            "--feed",
            "x=[[5.0],[6.5]]",
        ],
        b"",
    );
    let text = ok(out, "fluidc run model.pdmodel");
    let nums: Vec<f64> = text
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .filter_map(|t| t.parse().ok())
        .collect();
    let expected = predictions(&a);
    assert!(
        expected.iter().all(|e| nums
            .iter()
            .any(|n| (n - e).abs() <= 1e-6 * e.abs().max(1.0))),
        "{text} vs {expected:?}"
    );
}

/// A Paddle-saved MLP runs in `fluidc run model.pdmodel` with Paddle's
/// outputs; `--save-params` writes files whose concatenation in name order
/// is Paddle's `.pdiparams`; `dump --params` lists the tensors.
#[test]
fn paddle_saved_mlp_runs_in_fluidc() {
    let dir = temp_dir("io_mlp");
    let prefix = dir.join("mlp");
    let out = Command::new(paddle_python())
        .arg(repo().join("tests/interop/save_mlp.py"))
        .arg(&prefix)
        .output()
        .expect("python starts");
    let printed = ok(out, "save_mlp.py");
    let case: serde_json::Value =
        serde_json::from_str(printed.lines().last().expect("JSON line")).expect("JSON");
    let model = dir.join("mlp.pdmodel");
    let (saved, fetched) = (dir.join("saved"), dir.join("fetched"));
    let out = fluidc(
        &[
            "run",
            path_str(&model),
            "--feed",
            &format!("x={}", case["feed"]),
            "--format",
            "json",
            "--save-params",
            path_str(&saved),
            "--save-fetch",
            path_str(&fetched),
        ],
        b"",
    );
    let json: serde_json::Value = serde_json::from_str(&ok(out, "fluidc run")).expect("JSON");
    let ours: Vec<f64> = json["fetch"][0]["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    let theirs: Vec<f64> = case["out"]
        .as_array()
        .expect("out")
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect();
    assert_eq!(json["fetch"][0]["name"], case["fetch"]);
    assert_close(&ours, &theirs, "MLP");
    let mut names: Vec<_> = std::fs::read_dir(&saved)
        .expect("saved params")
        .map(|e| e.expect("entry").path())
        .collect();
    names.sort();
    let concatenated: Vec<u8> = names
        .iter()
        .flat_map(|p| std::fs::read(p).expect("read"))
        .collect();
    assert!(
        concatenated == std::fs::read(dir.join("mlp.pdiparams")).expect("read"),
        "--save-params files differ from Paddle's .pdiparams"
    );
    assert!(fetched
        .join(format!("{}.npy", case["fetch"].as_str().expect("name")))
        .exists());
    let dump = fluidc(
        &[
            "dump",
            path_str(&model),
            "--params",
            path_str(&dir.join("mlp.pdiparams")),
        ],
        b"",
    );
    let listing = ok(dump, "dump --params");
    assert!(
        listing.contains("fc_0.w_0  float32  [4, 8]  min "),
        "{listing}"
    );
    assert_eq!(listing.lines().count(), 4, "{listing}");
}

/// Errors name the file and say what to do; nothing panics.
#[test]
fn missing_and_corrupt_files_are_user_errors() {
    let dir = temp_dir("io_errors");
    let out = fluidc_in(&dir, "testdata/io/load_linear.py");
    assert_eq!(out.status.code(), Some(1));
    // Paddle 1.x's ValueError, at the user's line.
    assert!(
        stderr(&out).contains("ValueError: There is no directory named 'linear_model'"),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir_all(dir.join("m")).expect("mkdir");
    std::fs::write(dir.join("m/model.pdmodel"), b"\x08").expect("write");
    let out = fluidc(&["run", path_str(&dir.join("m/model.pdmodel"))], b"");
    assert!(!out.status.success());
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    let out = fluidc(
        &[
            "run",
            "testdata/paddle/mlp.pb",
            "--params",
            path_str(&dir.join("nope")),
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("nope"), "{}", stderr(&out));
}

/// `fluidc export`: a script's model, pruned to the output it names, with
/// the parameters its startup program makes, as `.pdmodel`/`.pdiparams`
/// that Paddle 3.3.1 loads and predicts with, as fluidc does.
#[test]
fn export_writes_inference_files_paddle_loads() {
    let dir = temp_dir("export");
    let prefix = dir.join("linear");
    let out = fluidc(
        &[
            "export",
            "testdata/train/linear_sgd_const.py",
            "-o",
            path_str(&prefix),
            "--fetch",
            "fc_0.tmp_1",
        ],
        b"",
    );
    ok(out, "fluidc export");
    let theirs = paddle_predicts(&dir, "linear", false);
    let model = dir.join("linear.pdmodel");
    let ours = fluidc(
        &[
            "run",
            path_str(&model),
            "--feed",
            "x=[[5.0],[6.5]]",
            "--format",
            "json",
        ],
        b"",
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(ours, "fluidc run on the export")).expect("json");
    let ours: Vec<f64> = json["fetch"][0]["data"]
        .as_array()
        .expect("data")
        .iter()
        .flat_map(|row| row.as_array().cloned().unwrap_or_else(|| vec![row.clone()]))
        .map(|v| v.as_f64().expect("a number"))
        .collect();
    assert_close(&ours, &theirs, "fluidc and Paddle on the exported model");
    // The script's initializers: weight 0.5, bias 0.1.
    assert_close(&theirs, &[2.6, 3.35], "Paddle on the exported model");
}
