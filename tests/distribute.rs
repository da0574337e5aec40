//! `fluidc distribute` and `fluidc run --nranks` (docs/distributed.md):
//! the trainer programs keep what data-parallel training depends on, and
//! N ranks in one process train as one process does on the whole batch.
//! Paddle's own engine training the same files is tests/interop_distribute.rs.
mod common;
use common::*;

use std::path::{Path, PathBuf};

use fluidc_transpiler::{AttrValue, Program};

/// The data-parallel cases (those of tests/interop/distribute/run_case.py)
/// and what they feed: (name, npy descr, shape, ids below this bound; 0 for
/// floats in [-0.5, 0.5)).
type Feed = (&'static str, &'static str, &'static [usize], u64);
const CASES: &[(&str, &[Feed])] = &[
    (
        "distribute/sgd_regression.py",
        &[("x", "<f4", &[8, 4], 0), ("y", "<f4", &[8, 1], 0)],
    ),
    (
        "train/mlp_adam.py",
        &[("img", "<f4", &[8, 784], 0), ("label", "<i8", &[8, 1], 10)],
    ),
    (
        "train/fan_in.py",
        &[
            ("a", "<f4", &[6, 3], 0),
            ("b", "<f4", &[6, 3], 0),
            ("t", "<f4", &[6, 3], 0),
        ],
    ),
    (
        "train/embed_adagrad.py",
        &[
            ("words", "<i8", &[8, 5, 1], 20),
            ("label", "<i8", &[8, 1], 2),
        ],
    ),
    (
        "distribute/while_rnn.py",
        &[
            ("x0", "<f4", &[8, 3], 0),
            ("x1", "<f4", &[8, 3], 0),
            ("x2", "<f4", &[8, 3], 0),
            ("x3", "<f4", &[8, 3], 0),
        ],
    ),
];

/// Writes the case's feeds into `dir` (values from a fixed LCG) and
/// returns the `--feed` arguments.
fn write_feeds(dir: &Path, feeds: &[Feed]) -> Vec<String> {
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    feeds
        .iter()
        .map(|(name, descr, shape, bound)| {
            let n: usize = shape.iter().product();
            let values: Vec<f64> = (0..n)
                .map(|_| match bound {
                    0 => (next() % 1000) as f64 / 1000.0 - 0.5,
                    b => (next() % b) as f64,
                })
                .collect();
            let file = dir.join(format!("{name}.npy"));
            std::fs::write(&file, npy(descr, shape, &values)).expect("write npy");
            format!("{name}={}", path_str(&file))
        })
        .collect()
}

fn decode(path: &Path) -> Program {
    fluidc_transpiler::codec::decode_program(&std::fs::read(path).expect("read")).expect("decode")
}

/// Compiles `script` and distributes it to `nranks` ranks in `dir/out`.
fn distribute(dir: &Path, script: &Path, nranks: &str) -> (PathBuf, PathBuf, PathBuf) {
    let (main, startup) = compile_split(dir, path_str(script));
    let out = dir.join("out");
    let o = fluidc(
        &[
            "distribute",
            path_str(&main),
            "--startup",
            path_str(&startup),
            "--nranks",
            nranks,
            "-o",
            path_str(&out),
        ],
        b"",
    );
    assert!(o.status.success(), "{}: {}", script.display(), stderr(&o));
    (main, startup, out)
}

/// The loss of each step of a `run --steps --format json`.
fn losses(args: &[&str]) -> Vec<f64> {
    let out = fluidc(args, b"");
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["fetch"][0]["data"][0]
                .as_f64()
                .unwrap_or_else(|| panic!("no loss in {l}"))
        })
        .collect()
}

/// Every training script of the repository distributes: its programs have
/// the loss-gradient role, an `op_role_var` pair for each optimized
/// gradient and `is_parameter` parameters in both programs (`distribute`
/// refuses a program that lacks one, since training it would be silently
/// wrong). And the trainer programs hold one scale after the loss
/// gradient, an all_reduce of every optimized gradient, and a broadcast of
/// every parameter.
#[test]
fn training_scripts_keep_the_roles_data_parallel_training_reads() {
    let mut scripts = Vec::new();
    for dir in ["testdata/train", "testdata/distribute"] {
        for e in std::fs::read_dir(repo().join(dir)).expect("dir") {
            let p = e.expect("entry").path();
            if p.extension().is_some_and(|e| e == "py") {
                scripts.push(p);
            }
        }
    }
    scripts.sort();
    let mut distributed = 0;
    for script in scripts {
        let name = script.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = temp_dir(&format!("distribute_roles_{name}"));
        let (main, _) = compile_split(&dir, path_str(&script));
        let program = decode(&main);
        let optimizes = program.blocks[0]
            .ops
            .iter()
            .any(|op| !op.inputs_of("LearningRate").is_empty());
        let sparse = program.blocks[0]
            .vars
            .iter()
            .any(|v| v.kind() == Some(fluidc_transpiler::VarKind::SelectedRows));
        if !optimizes || sparse {
            continue; // gradient checks; sparse gradients are refused (below)
        }
        let (_, _, out) = distribute(&dir, &script, "2");
        let (main, startup) = (
            decode(&out.join("main.pb")),
            decode(&out.join("startup.pb")),
        );
        let ops = &main.blocks[0].ops;
        let count = |ty: &str, var: &str, ops: &[fluidc_transpiler::Op]| {
            ops.iter()
                .filter(|op| op.ty == ty && op.inputs_of("x").iter().any(|n| n == var))
                .count()
        };
        // Each optimized parameter's gradient (the one its op_role_var
        // pair names: clipping or regularization may come between it and
        // the update) is all-reduced once, before the update.
        for (u, op) in ops.iter().enumerate() {
            let Some(param) = op.inputs_of("Param").first() else {
                continue;
            };
            let grad = format!("{param}@GRAD");
            assert_eq!(count("all_reduce", &grad, ops), 1, "{name}: {grad}");
            let reduce = ops
                .iter()
                .position(|o| o.ty == "all_reduce" && o.inputs_of("x")[0] == grad);
            assert!(
                reduce < Some(u),
                "{name}: {grad} is all-reduced after its update"
            );
        }
        let loss_grads: Vec<usize> = ops
            .iter()
            .enumerate()
            .filter(|(_, op)| op.get_attr("op_role") == Some(&AttrValue::Int(257)))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(loss_grads.len(), 1, "{name}: one loss-gradient op");
        let (fill, scale) = (&ops[loss_grads[0]], &ops[loss_grads[0] + 1]);
        assert_eq!(scale.ty, "scale", "{name}: the loss gradient is scaled");
        assert_eq!(
            scale.get_attr("scale"),
            Some(&AttrValue::Float(0.5)),
            "{name}"
        );
        assert_eq!(scale.inputs_of("X"), fill.outputs_of("Out"), "{name}");
        let params = startup.blocks[0]
            .vars
            .iter()
            .filter(|v| v.is_parameter == Some(true));
        for p in params {
            assert_eq!(
                count("broadcast", &p.name, &startup.blocks[0].ops),
                1,
                "{name}: {}",
                p.name
            );
        }
        distributed += 1;
    }
    assert!(
        distributed >= 12,
        "only {distributed} training scripts distributed"
    );
}

/// Two ranks in one process, each fed half of every batch, give the losses
/// one process gives on the whole batch; the same two ranks on the
/// untransformed programs do not (each trains alone), so the comparison
/// catches a wrong transform.
#[test]
fn two_ranks_train_as_one_process_on_the_whole_batch() {
    for (script, feeds) in CASES {
        let name = script.trim_end_matches(".py").replace('/', "_");
        let dir = temp_dir(&format!("distribute_ranks_{name}"));
        let script = repo().join("testdata").join(script);
        let (main, startup, out) = distribute(&dir, &script, "2");
        let feeds = write_feeds(&dir, feeds);
        let run = |main: &Path, startup: &Path, nranks: &str| {
            let mut args = vec![
                "run",
                path_str(main),
                "--startup",
                path_str(startup),
                "--steps",
                "6",
                "--format",
                "json",
                "--nranks",
                nranks,
            ];
            for f in &feeds {
                args.extend(["--feed", f.as_str()]);
            }
            losses(&args)
        };
        let whole = run(&main, &startup, "1");
        let ranks = run(&out.join("main.pb"), &out.join("startup.pb"), "2");
        assert_eq!(whole.len(), 6);
        for (step, (a, b)) in whole.iter().zip(&ranks).enumerate() {
            assert!(
                (a - b).abs() <= 1e-5 * a.abs().max(1e-3),
                "{name}: step {step}: one process {a}, two ranks {b}"
            );
        }
        let alone = run(&main, &startup, "2");
        let apart = whole
            .iter()
            .zip(&alone)
            .any(|(a, b)| (a - b).abs() > 1e-4 * a.abs().max(1e-3));
        assert!(
            apart,
            "{name}: ranks training alone gave the same losses {alone:?}"
        );
    }
}

/// What the collective engine cannot do, and flags that do not fit, are
/// refused with a reason.
#[test]
fn distribute_refuses_what_would_train_wrong() {
    let dir = temp_dir("distribute_refusals");
    let sparse = dir.join("sparse.py");
    std::fs::write(
        &sparse,
        "import paddle.fluid as fluid\n\
         ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')\n\
         emb = fluid.layers.embedding(input=ids, size=[10, 4], is_sparse=True)\n\
         loss = fluid.layers.mean(fluid.layers.fc(input=emb, size=1))\n\
         fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)\n",
    )
    .expect("write");
    let (main, startup) = compile_split(&dir, path_str(&sparse));
    let distribute = |main: &Path, startup: &Path, nranks: &str| {
        fluidc(
            &[
                "distribute",
                path_str(main),
                "--startup",
                path_str(startup),
                "--nranks",
                nranks,
                "-o",
                path_str(&dir.join("out")),
            ],
            b"",
        )
    };
    let o = distribute(&main, &startup, "2");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is sparse"), "{}", stderr(&o));
    // The startup program has no backward: no loss gradient to scale.
    let o = distribute(&startup, &startup, "2");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no loss-gradient op"), "{}", stderr(&o));
    let o = distribute(&main, &startup, "1");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // --nranks needs --steps, and a compiled program.
    let o = fluidc(&["run", path_str(&main), "--nranks", "2"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--steps"), "{}", stderr(&o));
    let o = fluidc(&["run", path_str(&sparse), "--nranks", "2"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--nranks is for a compiled program"),
        "{}",
        stderr(&o)
    );
}

/// A batch the ranks cannot share equally is refused, naming the feed.
#[test]
fn a_batch_the_ranks_cannot_share_equally_is_refused() {
    let dir = temp_dir("distribute_uneven");
    let script = repo().join("testdata/distribute/sgd_regression.py");
    let (_, _, out) = distribute(&dir, &script, "3");
    let feeds = write_feeds(&dir, CASES[0].1);
    let mut args = vec![
        "run".to_string(),
        path_str(&out.join("main.pb")).to_string(),
        "--startup".into(),
        path_str(&out.join("startup.pb")).to_string(),
        "--steps".into(),
        "2".into(),
        "--nranks".into(),
        "3".into(),
    ];
    for f in feeds {
        args.extend(["--feed".into(), f]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = fluidc(&args, b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot be shared equally among 3 ranks"),
        "{}",
        stderr(&o)
    );
}
