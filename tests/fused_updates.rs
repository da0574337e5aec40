//! Optimizer updates fused into the `mul_grad` that computes their
//! gradient (issue 40, runtime/src/fuse.rs): training with the fusion
//! gives the bits training without it (`FLUIDC_NO_FUSE=1`) gives, every
//! step's loss and every parameter and optimizer state after the last
//! step, for SGD, Momentum and Adam, float32 and float64, at batch 1 (the
//! gradient's rows computed in blocks), 8, and 400 (the product computed
//! whole, on two threads). A gradient that something else reads (clipping,
//! regularization) is not fused and trains as before.
mod common;
use common::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The MLP's first layer: an `fc` (a `mul`).
const FC: &str = "h = fluid.layers.fc(input=x, size=64, act='relu')";

/// A 100-64-32-1 MLP with square error in `dtype`, its first layer
/// `first` (which makes `h`), minimized by `optimizer` after `before`
/// (lines run before `minimize`); the script runs one step so that
/// compiling it keeps the loss as a fetch target.
fn mlp_script(dtype: &str, first: &str, optimizer: &str, before: &str) -> String {
    format!(
        "import numpy as np\n\
         import paddle.fluid as fluid\n\
         fluid.default_startup_program().random_seed = 7\n\
         x = fluid.layers.data(name='x', shape=[100], dtype='{dtype}')\n\
         y = fluid.layers.data(name='y', shape=[1], dtype='{dtype}')\n\
         {first}\n\
         h = fluid.layers.fc(input=h, size=32, act='tanh')\n\
         pred = fluid.layers.fc(input=h, size=1)\n\
         avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))\n\
         {before}\n\
         {optimizer}.minimize(avg_cost)\n\
         exe = fluid.Executor(fluid.CPUPlace())\n\
         exe.run(fluid.default_startup_program())\n\
         exe.run(feed={{'x': np.zeros((1, 100), dtype='{dtype}'),\n\
         \x20             'y': np.zeros((1, 1), dtype='{dtype}')}}, fetch_list=[avg_cost])\n"
    )
}

/// 400 rows of pseudo-random features and targets as `x.npy` and
/// `y.npy` in `dir`, in `dtype`; the `--feed` arguments.
fn feeds(dir: &Path, dtype: &str) -> Vec<String> {
    let descr = if dtype == "float64" { "<f8" } else { "<f4" };
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let v = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (v >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let rows = 400;
    let x: Vec<f64> = (0..rows * 100).map(|_| next()).collect();
    let y: Vec<f64> = (0..rows).map(|_| next()).collect();
    let mut args = Vec::new();
    for (name, shape, values) in [("x", [rows, 100], x), ("y", [rows, 1], y)] {
        let path = dir.join(format!("{name}.npy"));
        std::fs::write(&path, npy(descr, &shape, &values)).expect("write npy");
        args.push(format!("{name}={}", path_str(&path)));
    }
    args
}

/// One training run: its standard output (each step's loss as JSON) and
/// every saved parameter and optimizer state, by name.
struct Trained {
    stdout: String,
    saved: Vec<(String, Vec<u8>)>,
}

fn train(dir: &Path, feeds: &[String], batch: usize, fuse: bool, extra: &[&str]) -> Trained {
    let saved = dir.join(if fuse { "fused" } else { "plain" });
    let _ = std::fs::remove_dir_all(&saved);
    let (main, startup) = (dir.join("main.pb"), dir.join("startup.pb"));
    let batch = batch.to_string();
    let mut args = vec![
        "run",
        path_str(&main),
        "--startup",
        path_str(&startup),
        "--steps",
        "6",
        "--batch-size",
        &batch,
        "--format",
        "json",
        "--seed",
        "1",
        "--save-params",
        path_str(&saved),
    ];
    for f in feeds {
        args.extend(["--feed", f]);
    }
    args.extend(extra);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_fluidc"));
    cmd.args(&args).current_dir(repo()).stdin(Stdio::null());
    if fuse {
        cmd.env_remove("FLUIDC_NO_FUSE");
    } else {
        cmd.env("FLUIDC_NO_FUSE", "1");
    }
    let out: Output = cmd.output().expect("fluidc runs");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&saved)
        .expect("saved parameters")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    Trained {
        stdout: stdout(&out),
        saved: files
            .iter()
            .map(|f| {
                let name = f.file_name().expect("name").to_string_lossy().into_owned();
                (name, std::fs::read(f).expect("read"))
            })
            .collect(),
    }
}

/// The losses of a JSON training run.
fn losses(out: &str) -> Vec<f64> {
    out.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON line");
            v["fetch"][0]["data"][0].as_f64().expect("a loss")
        })
        .collect()
}

/// Compiles the MLP with `optimizer`, checks which gradients the runtime
/// fuses, and trains it with and without fusion at each batch size:
/// the same bits.
fn same_bits(
    name: &str,
    dtype: &str,
    first: &str,
    optimizer: &str,
    before: &str,
    want_fused: &[&str],
) -> PathBuf {
    let dir = temp_dir(&format!("fused_{name}"));
    let script = dir.join("mlp.py");
    std::fs::write(&script, mlp_script(dtype, first, optimizer, before)).expect("write script");
    let (main, _) = compile_split(&dir, path_str(&script));
    let program = fluidc_transpiler::codec::decode_program(&std::fs::read(&main).expect("read"))
        .expect("decode");
    let program = fluidc_transpiler::Verified::new(program).expect("verifies");
    let mut fused = fluidc_runtime::fused_gradients(&program);
    fused.sort();
    assert_eq!(fused, want_fused, "{name}: the gradients fused");
    let feeds = feeds(&dir, dtype);
    for batch in [1, 8, 400] {
        let on = train(&dir, &feeds, batch, true, &[]);
        let off = train(&dir, &feeds, batch, false, &[]);
        assert_eq!(on.stdout, off.stdout, "{name}, batch {batch}: the losses");
        assert_eq!(losses(&on.stdout).len(), 6, "{name}: {}", on.stdout);
        assert!(on.saved.len() >= 6, "{name}: saved {:?}", on.saved.len());
        for ((n1, b1), (n2, b2)) in on.saved.iter().zip(&off.saved) {
            assert_eq!(n1, n2, "{name}, batch {batch}");
            assert!(b1 == b2, "{name}, batch {batch}: `{n1}` differs");
        }
        assert_eq!(on.saved.len(), off.saved.len(), "{name}, batch {batch}");
    }
    dir
}

const WEIGHT_GRADS: [&str; 3] = ["fc_0.w_0@GRAD", "fc_1.w_0@GRAD", "fc_2.w_0@GRAD"];

#[test]
fn fused_sgd_gives_the_unfused_bits() {
    let sgd = "fluid.optimizer.SGD(learning_rate=0.05)";
    same_bits("sgd", "float32", FC, sgd, "", &WEIGHT_GRADS);
    same_bits("sgd64", "float64", FC, sgd, "", &WEIGHT_GRADS);
}

/// Plain, Nesterov, and with L2 decay, which 3.3.1's `momentum` op
/// applies itself (`regularization_method`): no other op reads the
/// gradient, so it is fused too.
#[test]
fn fused_momentum_gives_the_unfused_bits() {
    for (name, optimizer) in [
        (
            "momentum",
            "fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9)",
        ),
        (
            "nesterov",
            "fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9, use_nesterov=True)",
        ),
        (
            "momentum_l2",
            "fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9, \
             regularization=fluid.regularizer.L2Decay(1e-2))",
        ),
    ] {
        same_bits(name, "float32", FC, optimizer, "", &WEIGHT_GRADS);
    }
}

#[test]
fn fused_adam_gives_the_unfused_bits() {
    let adam = "fluid.optimizer.Adam(learning_rate=0.01)";
    same_bits("adam", "float32", FC, adam, "", &WEIGHT_GRADS);
}

/// A first layer that is a `matmul` of the input and a parameter (as
/// `[64, 100]`, transposed, scaled by `alpha`): its `matmul_grad` is fused.
#[test]
fn fused_matmul_grad_gives_the_unfused_bits() {
    let first = "w = fluid.layers.create_parameter(shape=[64, 100], dtype='float32', name='w_t')\n\
                 h = fluid.layers.relu(fluid.layers.matmul(x, w, transpose_y=True, alpha=0.5))";
    let momentum = "fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9)";
    same_bits(
        "matmul",
        "float32",
        first,
        momentum,
        "",
        &["fc_0.w_0@GRAD", "fc_1.w_0@GRAD", "w_t@GRAD"],
    );
}

/// A first layer on one feature (the row sums of `x`): its weight has one
/// row, so its gradient is a product with one row, which the plain
/// kernel computes as a vector-matrix product; the fused update must
/// compute it so too.
#[test]
fn fused_update_of_a_one_row_weight_gives_the_unfused_bits() {
    let first = "s = fluid.layers.reduce_sum(x, dim=1, keep_dim=True)\n\
                 h = fluid.layers.fc(input=s, size=64, act='relu')";
    let adam = "fluid.optimizer.Adam(learning_rate=0.01)";
    same_bits("one_row", "float32", first, adam, "", &WEIGHT_GRADS);
}

/// Clipping reads every gradient, and L2 decay adds to it: neither is
/// fused, and training still lowers the loss (the plain kernels run).
#[test]
fn gradients_with_other_readers_are_not_fused() {
    for (name, optimizer, before) in [
        (
            "clip",
            "fluid.optimizer.Adam(learning_rate=0.01)",
            "fluid.clip.set_gradient_clip(fluid.clip.GradientClipByGlobalNorm(clip_norm=1.0))",
        ),
        (
            "decay",
            "fluid.optimizer.SGD(learning_rate=0.05, \
             regularization=fluid.regularizer.L2Decay(1e-3))",
            "",
        ),
    ] {
        let dir = same_bits(name, "float32", FC, optimizer, before, &[]);
        let loss = losses(&train(&dir, &feeds(&dir, "float32"), 400, true, &[]).stdout);
        assert!(loss[5] < loss[0], "{name}: the loss went {loss:?}");
    }
}

/// A run that fetches a fused gradient runs the program unfused: it gets
/// the gradient, and the same bits.
#[test]
fn fetching_a_fused_gradient_gets_it() {
    let dir = temp_dir("fused_fetch");
    let script = dir.join("mlp.py");
    let optimizer = "fluid.optimizer.Adam(learning_rate=0.01)";
    std::fs::write(&script, mlp_script("float32", FC, optimizer, "")).expect("write script");
    compile_split(&dir, path_str(&script));
    let feeds = feeds(&dir, "float32");
    let fetch = ["--fetch", "fc_1.w_0@GRAD"];
    let on = train(&dir, &feeds, 1, true, &fetch);
    let off = train(&dir, &feeds, 1, false, &fetch);
    assert_eq!(on.stdout, off.stdout);
    assert!(
        on.stdout
            .contains("\"name\":\"fc_1.w_0@GRAD\",\"shape\":[64,32]"),
        "{}",
        on.stdout
    );
    assert!(on.saved == off.saved);
}
