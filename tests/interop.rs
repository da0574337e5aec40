//! Interop with the real tools: Paddle 3.3.1 (through the venv that
//! `scripts/setup-interop.sh` makes) and protoc. These tests fail, not skip,
//! when the tools are missing: the README's test command installs them.
mod common;
use common::*;

use fluidc_transpiler::codec::encode_program;
use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind, Verified};

fn fill(out: &str, dtype: VarKind, value: f32) -> Op {
    Op::new("fill_constant")
        .output("Out", &[out])
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr("shape", AttrValue::Longs(vec![1]))
        .attr("value", AttrValue::Float(value))
        .attr("str_value", AttrValue::String(String::new()))
        .attr("force_cpu", AttrValue::Bool(false))
}

fn compare(ty: &str, x: &str, y: &str, out: &str) -> Op {
    Op::new(ty)
        .input("X", &[x])
        .input("Y", &[y])
        .output("Out", &[out])
        .attr("axis", AttrValue::Int(-1))
}

/// s = 1 + 2 + ... + 10 in a `while`, then `flag = 1` in a
/// `conditional_block` when s > 50: the two control-flow ops, built through
/// the model API as the front end will build them.
fn while_and_cond_program() -> Program {
    let mut b0 = Block::new(0, -1);
    for name in ["i", "n", "s", "limit", "flag"] {
        b0.vars.push(Var::dense(name, VarKind::Int64, vec![1]));
    }
    for name in ["c", "big"] {
        b0.vars.push(Var::dense(name, VarKind::Bool, vec![1]));
    }
    b0.vars
        .push(Var::plain("while_scopes", VarKind::StepScopes));
    b0.vars.push(Var::plain("cond_scope", VarKind::StepScopes));
    b0.ops.push(fill("i", VarKind::Int64, 0.0));
    b0.ops.push(fill("n", VarKind::Int64, 10.0));
    b0.ops.push(fill("s", VarKind::Int64, 0.0));
    b0.ops.push(compare("less_than", "i", "n", "c"));
    b0.ops.push(
        Op::new("while")
            .input("X", &["i", "n", "s"])
            .input("Condition", &["c"])
            .output("Out", &["i", "s", "c"])
            .output("StepScopes", &["while_scopes"])
            .attr("sub_block", AttrValue::Block(1))
            .attr("is_test", AttrValue::Bool(false)),
    );
    b0.ops.push(fill("limit", VarKind::Int64, 50.0));
    b0.ops.push(compare("greater_than", "s", "limit", "big"));
    b0.ops.push(fill("flag", VarKind::Int64, 0.0));
    b0.ops.push(
        Op::new("conditional_block")
            .input("Cond", &["big"])
            .input("Input", &[])
            .output("Out", &["flag"])
            .output("Scope", &["cond_scope"])
            .attr("sub_block", AttrValue::Block(2))
            .attr("is_scalar_condition", AttrValue::Bool(true)),
    );

    let mut b1 = Block::new(1, 0);
    b1.ops.push(
        Op::new("increment")
            .input("X", &["i"])
            .output("Out", &["i"])
            .attr("step", AttrValue::Float(1.0)),
    );
    b1.ops.push(
        Op::new("elementwise_add")
            .input("X", &["s"])
            .input("Y", &["i"])
            .output("Out", &["s"])
            .attr("axis", AttrValue::Int(-1)),
    );
    b1.ops.push(compare("less_than", "i", "n", "c"));

    let mut b2 = Block::new(2, 0);
    b2.ops.push(fill("flag", VarKind::Int64, 1.0));

    Program {
        blocks: vec![b0, b1, b2],
        ..Default::default()
    }
}

/// Equal names and data; floats may differ in the last place (Paddle prints
/// float32 values widened to double, fluidc their shortest form).
fn assert_same_fetches(
    ours: &[(String, serde_json::Value)],
    theirs: &[(String, serde_json::Value)],
    what: &str,
) {
    assert_eq!(ours.len(), theirs.len(), "{what}: {ours:?} vs {theirs:?}");
    for ((n1, d1), (n2, d2)) in ours.iter().zip(theirs) {
        assert_eq!(n1, n2, "{what}");
        let (a, b) = (d1.as_array().expect("data"), d2.as_array().expect("data"));
        assert_eq!(a.len(), b.len(), "{what}: {n1}");
        for (x, y) in a.iter().zip(b) {
            match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) => assert!(
                    (x - y).abs() <= 1e-6 * x.abs().max(y.abs()).max(1.0),
                    "{what}: {n1}: {x} vs {y}"
                ),
                _ => assert_eq!(x, y, "{what}: {n1}"),
            }
        }
    }
}

fn fetches(json: &[u8]) -> Vec<(String, serde_json::Value)> {
    let v: serde_json::Value = serde_json::from_slice(json).expect("paddle_helper prints JSON");
    v["fetch"]
        .as_array()
        .expect("fetch list")
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
fn program_built_by_fluidc_runs_in_paddle() {
    let program = Verified::new(while_and_cond_program()).expect("the model-API program verifies");
    let dir = temp_dir("interop_model_api");
    let pb = dir.join("while_cond.pb");
    std::fs::write(&pb, encode_program(&program)).expect("write .pb");
    let out = paddle_helper(&[
        "run",
        path_str(&pb),
        "--fetch",
        "s",
        "--fetch",
        "i",
        "--fetch",
        "flag",
    ]);
    assert_eq!(
        fetches(&out),
        vec![
            ("s".to_string(), serde_json::json!([55])),
            ("i".to_string(), serde_json::json!([10])),
            ("flag".to_string(), serde_json::json!([1])),
        ]
    );
}

#[test]
fn paddle_accepts_what_fluidc_reencodes() {
    for pb in paddle_programs() {
        let ours = fluidc(
            &["compile", path_str(&pb), "--passes", "none", "-o", "-"],
            b"",
        );
        assert!(ours.status.success(), "{}", stderr(&ours));
        let dir = temp_dir("interop_reencode");
        let file = dir.join("p.pb");
        std::fs::write(&file, &ours.stdout).expect("write");
        // Paddle fills default attributes in when it parses a saved model, so
        // compare its reading of our bytes with its reading of the original.
        let from_ours = paddle_helper(&["roundtrip", path_str(&file)]);
        let from_original = paddle_helper(&["roundtrip", path_str(&pb)]);
        assert!(
            from_ours == from_original,
            "{}: Paddle reads our bytes differently from the original",
            pb.display()
        );
    }
}

/// `fluidc dump --format text` must equal protoc's decode byte for byte.
fn assert_text_matches_protoc(pb: &std::path::Path) {
    let input = std::fs::File::open(pb).expect("open .pb");
    let protoc = std::process::Command::new("protoc")
        .args([
            "--decode=paddle.framework.proto.ProgramDesc",
            "-I",
            "transpiler/proto",
            "framework.proto",
        ])
        .current_dir(repo())
        .stdin(input)
        .output()
        .expect("protoc is installed (scripts/setup-interop.sh installs it)");
    assert!(
        protoc.status.success(),
        "protoc failed on {}: {}",
        pb.display(),
        stderr(&protoc)
    );
    let ours = fluidc(&["dump", path_str(pb), "--format", "text"], b"");
    assert!(ours.status.success(), "{}", stderr(&ours));
    assert_eq!(
        stdout(&ours),
        stdout(&protoc),
        "{}: text differs from protoc",
        pb.display()
    );
}

#[test]
fn text_dump_equals_protoc_decode() {
    for pb in paddle_programs() {
        assert_text_matches_protoc(&pb);
    }
    let program = Verified::new(while_and_cond_program()).expect("verifies");
    let dir = temp_dir("interop_protoc");
    let pb = dir.join("while_cond.pb");
    std::fs::write(&pb, encode_program(&program)).expect("write");
    assert_text_matches_protoc(&pb);
}

/// Channel-free scripts and the feeds they need.
const PADDLE_RUNNABLE_SCRIPTS: &[(&str, &[&str])] = &[
    ("testdata/front/ok/seed003_cond.py", &["x=[1]", "y=[2]"]),
    ("testdata/passes/prune/dead_code.py", &[]),
    ("testdata/passes/fold_constants/arithmetic.py", &[]),
    ("testdata/passes/fold_constants/kernels_semantics.py", &[]),
    ("testdata/passes/dedup_constants/shared.py", &[]),
    ("testdata/programs/operators.py", &[]),
];

#[test]
fn compiled_scripts_run_in_paddle_alike_at_every_level() {
    let dir = temp_dir("interop_levels");
    for (script, feeds) in PADDLE_RUNNABLE_SCRIPTS {
        let mut results = Vec::new();
        for level in ["-O0", "-O1", "-O2"] {
            let pb = dir.join("p.pb");
            let out = fluidc(&["compile", script, level, "-o", path_str(&pb)], b"");
            assert!(out.status.success(), "{script} {level}: {}", stderr(&out));
            let mut args = vec!["run", path_str(&pb)];
            for f in *feeds {
                args.extend(["--feed", f]);
            }
            let in_paddle = fetches(&paddle_helper(&args));
            let mut ours = vec!["run", path_str(&pb), "--format", "json"];
            for f in *feeds {
                ours.extend(["--feed", f]);
            }
            let out = fluidc(&ours, b"");
            assert!(out.status.success(), "{script} {level}: {}", stderr(&out));
            assert_same_fetches(
                &fetches(&out.stdout),
                &in_paddle,
                &format!("{script} {level}: fluidc vs Paddle"),
            );
            results.push((level, in_paddle));
        }
        assert!(!results[0].1.is_empty(), "{script}: no fetches");
        for (level, r) in &results[1..] {
            assert_eq!(
                r, &results[0].1,
                "{script}: {level} differs from -O0 in Paddle"
            );
        }
    }
}

#[test]
fn pruning_paddle_programs_keeps_their_fetches_in_paddle() {
    let dir = temp_dir("interop_prune");
    for pb in paddle_programs() {
        let case: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(pb.with_extension("json")).expect("json"),
        )
        .expect("valid json");
        let fetch: Vec<String> = case["fetch"]
            .as_array()
            .expect("fetch")
            .iter()
            .map(|f| f.as_str().expect("name").to_string())
            .collect();
        let expected = fetches(
            serde_json::to_string(&case["expected"])
                .expect("json")
                .as_bytes(),
        );
        for level in ["-O1", "-O2"] {
            let out_pb = dir.join("pruned.pb");
            let mut args = vec!["compile", path_str(&pb), level, "-o", path_str(&out_pb)];
            for f in &fetch {
                args.extend(["--keep", f.as_str()]);
            }
            let out = fluidc(&args, b"");
            assert!(out.status.success(), "{}: {}", pb.display(), stderr(&out));
            let mut run = vec!["run".to_string(), path_str(&out_pb).to_string()];
            for (name, feed) in case["feed"].as_object().expect("feed") {
                run.extend(["--feed".to_string(), format!("{name}={}", feed["data"])]);
            }
            if let Some(params) = case["params"].as_object() {
                let dir = pb.parent().expect("dir").join(format!(
                    "{}.params",
                    pb.file_stem().and_then(|s| s.to_str()).expect("stem")
                ));
                let _ = params;
                run.extend(["--params".to_string(), path_str(&dir).to_string()]);
            }
            for f in &fetch {
                run.extend(["--fetch".to_string(), f.clone()]);
            }
            let run: Vec<&str> = run.iter().map(String::as_str).collect();
            // Paddle's own float kernels round differently on different
            // CPUs, so the stored expectation holds to the last place.
            assert_same_fetches(
                &fetches(&paddle_helper(&run)),
                &expected,
                &format!("{} {level}", pb.display()),
            );
        }
    }
}

/// The front end builds what Paddle's Python builds: each script is built by
/// fluidc and, through the test-only 2018-names shim, by Paddle 3.3.1's
/// LayerHelper/append_op; compare.py checks blocks, op sequence, slots,
/// arguments, every attribute (fluidc fills Paddle's defaults) and the
/// declared variables.
/// `str_value` is left out: fluidc writes it on every fill_constant (Paddle 3
/// form, exact for large integers) where Paddle's Python sometimes does not.
#[test]
fn front_end_matches_paddle_python_op_for_op() {
    let shim_dir = repo().join("tests/interop/fluid2018");
    let mut scripts: Vec<std::path::PathBuf> = std::fs::read_dir(shim_dir.join("scripts"))
        .expect("shim scripts")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    scripts.sort();
    scripts.push(repo().join("testdata/front/ok/seed003_cond.py"));
    assert!(scripts.len() >= 7);
    let dir = temp_dir("interop_front");
    for script in scripts {
        assert_builds_like_paddle(&script, &dir);
    }
}

/// Builds `script` with fluidc (`dump --stage parsed`) and with Paddle
/// 3.3.1 through the shim, and compares the programs op for op.
fn assert_builds_like_paddle(script: &std::path::Path, dir: &std::path::Path) {
    let shim_dir = repo().join("tests/interop/fluid2018");
    let name = script
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("stem")
        .to_string();
    let ours = fluidc(
        &[
            "dump",
            path_str(script),
            "--stage",
            "parsed",
            "--format",
            "json",
        ],
        b"",
    );
    assert!(ours.status.success(), "{name}: {}", stderr(&ours));
    let ours_json = dir.join(format!("{name}.fluidc.json"));
    std::fs::write(&ours_json, &ours.stdout).expect("write");
    let theirs_json = dir.join(format!("{name}.paddle.json"));
    let build = std::process::Command::new(paddle_python())
        .arg(shim_dir.join("build_with_paddle.py"))
        .args([
            path_str(script),
            path_str(&theirs_json),
            "--fluidc",
            env!("CARGO_BIN_EXE_fluidc"),
        ])
        .output()
        .expect("python runs");
    assert!(
        build.status.success(),
        "{name}: Paddle failed to build it:\n{}",
        stderr(&build)
    );
    let cmp = std::process::Command::new(paddle_python())
        .arg(shim_dir.join("compare.py"))
        .args([
            "--ignore-attr",
            "fill_constant.str_value",
            path_str(&ours_json),
            path_str(&theirs_json),
        ])
        .output()
        .expect("python runs");
    assert!(
        cmp.status.success(),
        "{name}: fluidc and Paddle differ:\n{}{}",
        stdout(&cmp),
        stderr(&cmp)
    );
}

/// Training (docs/training.md): each `testdata/train/*.py` builds the program Paddle
/// 3.3.1 builds (backward, optimizer, initializers; op for op through the
/// shim, which maps `fluid.optimizer` and `append_backward` to Paddle's
/// own), and trains to the losses Paddle prints when it runs the script
/// (numbers within a relative tolerance: 1e-5, or the script's
/// `# rtol: R` line; other output exactly).
#[test]
fn training_scripts_build_and_train_as_paddle_does() {
    let mut scripts: Vec<_> = std::fs::read_dir(repo().join("testdata/train"))
        .expect("testdata/train")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "testdata/train has no scripts");
    let dir = temp_dir("interop_train");
    for script in scripts {
        assert_builds_like_paddle(&script, &dir);
        let rel = script.strip_prefix(repo()).expect("in repo");
        let name = rel.display().to_string();
        let ours = fluidc(&["run", path_str(rel)], b"");
        assert!(ours.status.success(), "{name}: {}", stderr(&ours));
        let text = std::fs::read_to_string(&script).expect("script");
        // A `# peer-runs: N` script: Paddle 3.3.1 itself varies from run to
        // run on it (see the script), so it runs up to N times and the
        // first output two runs print is Paddle's answer.
        let runs: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("# peer-runs:"))
            .map_or(1, |n| n.trim().parse().expect("peer-runs is a number"));
        let theirs = paddle_majority(rel, runs);
        let rtol = text
            .lines()
            .find_map(|l| l.strip_prefix("# rtol:"))
            .map_or("1e-5".to_string(), |r| r.trim().to_string());
        assert_numbers_agree(&dir, &name, &ours.stdout, &theirs, &rtol);
    }
}

/// Training from the command line (docs/training.md): a training script
/// compiled to two files (`--startup-out`) trains in Paddle 3.3.1 as the
/// script trains in Paddle: startup once, then main 100 times on the
/// script's data, with the losses the script prints when Paddle runs it
/// (seed 003's regression, issue 15's numbers).
#[test]
fn compiled_training_program_trains_in_paddle_as_the_script_does() {
    let script = "testdata/train/linear_sgd_const.py";
    let dir = temp_dir("compiled_training");
    let (main, startup) = compile_split(&dir, script);
    let runner = "import os, sys\nos.environ['FLAGS_enable_pir_api']='0'\nimport numpy, paddle\n\
        paddle.enable_static()\n\
        load = lambda f: paddle.static.Program.parse_from_string(open(f, 'rb').read())\n\
        startup, main = load(sys.argv[1]), load(sys.argv[2])\n\
        exe = paddle.static.Executor(paddle.CPUPlace())\n\
        exe.run(startup)\n\
        x = numpy.array([[1.0], [2.0], [3.0], [4.0]], dtype='float32')\n\
        for i in range(100):\n    p, l = exe.run(main, feed={'x': x, 'y': 2 * x}, fetch_list=['fc_0.tmp_1', 'mean_0.tmp_0'])\n    \
        if i in (0, 1, 9, 99): print(i, l.reshape(-1))\n\
        print(p.flatten())";
    let ours = venv_python(&["-c", runner, path_str(&startup), path_str(&main)]);
    let theirs = run_with_paddle(std::path::Path::new(script), &repo(), &[]);
    assert!(theirs.status.success(), "{}", stderr(&theirs));
    assert_numbers_agree(&dir, script, &ours, &theirs.stdout, "1e-5");
}

/// The grad makers fluidc builds backward from (transpiler/data) are Paddle
/// 3.3.1's: the dump script, re-run against the venv, writes the committed
/// file byte for byte.
#[test]
fn grad_makers_match_paddle() {
    let fresh = venv_python(&[path_str(&repo().join("scripts/dump-grad-makers.py"))]);
    let committed =
        std::fs::read(repo().join("transpiler/data/grad_makers.json")).expect("committed data");
    assert!(
        fresh == committed,
        "transpiler/data/grad_makers.json is stale: run scripts/dump-grad-makers.py > transpiler/data/grad_makers.json"
    );
}

/// Runs the venv's python with `args`; its stdout, or a panic with its stderr.
fn venv_python(args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(paddle_python())
        .args(args)
        .output()
        .expect("python starts");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The op protos fluidc's definitions are made from (transpiler/data) are
/// Paddle 3.3.1's: the dump script, re-run against the venv, writes the
/// committed file byte for byte. On drift, re-run
/// `scripts/dump-op-protos.py > transpiler/data/op_protos.json` and review.
#[test]
fn op_protos_match_paddle() {
    let dumped = venv_python(&[path_str(&repo().join("scripts/dump-op-protos.py"))]);
    let committed = std::fs::read(repo().join("transpiler/data/op_protos.json"))
        .expect("transpiler/data/op_protos.json exists");
    assert!(
        dumped == committed,
        "transpiler/data/op_protos.json differs from what Paddle reports: re-run scripts/dump-op-protos.py"
    );
}

/// Every op type that Paddle 3.3.1 has and fluidc defines is described by
/// Paddle's protos, not by fluidc's hand-written file (which is only for
/// ops Paddle 3 lacks).
#[test]
fn hand_written_op_protos_are_only_for_ops_paddle_lacks() {
    let text =
        std::fs::read_to_string(repo().join("transpiler/data/fluidc_ops.json")).expect("read");
    let ours: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let names: Vec<&str> = ours["ops"]
        .as_object()
        .expect("ops")
        .keys()
        .map(String::as_str)
        .collect();
    let script = "import os, sys, json\nos.environ['FLAGS_enable_pir_api']='0'\n\
        from paddle.base import core\nfrom paddle.base.proto import framework_pb2 as f\n\
        have={f.OpProto.FromString(b).type for b in core.get_all_op_protos()}\n\
        print(json.dumps(sorted(n for n in sys.argv[1:] if n in have)))";
    let out = venv_python(&[&["-c", script][..], &names].concat());
    let both: Vec<String> = serde_json::from_slice(
        out.rsplit(|b| *b == b'\n')
            .find(|l| !l.is_empty())
            .unwrap_or_default(),
    )
    .expect("a JSON list");
    assert!(
        both.is_empty(),
        "Paddle 3.3.1 has {both:?}: add them to the dump script's data instead"
    );
}

/// Run mode (README, "Run mode"): each `testdata/run/*.py` host program prints,
/// under `fluidc run`, exactly what CPython + Paddle 3.3.1 print running it
/// (through the fluid2018 shim in run mode), with the same exit status.
#[test]
fn scripts_print_what_python_and_paddle_print() {
    let mut scripts: Vec<_> = std::fs::read_dir(repo().join("testdata/run"))
        .expect("testdata/run")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        // `_name.py` is a module the scripts beside it import.
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('_'))
        })
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 2, "testdata/run has too few scripts");
    for script in scripts {
        let rel = script.strip_prefix(repo()).expect("in repo");
        // fit_a_line*.py read paddle.dataset.uci_housing from the dataset
        // cache under HOME: a temporary one with a small housing.data.
        let home = (rel
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("fit_a_line")))
        .then(|| housing_home("run_fit_a_line_home", 60));
        let envs: Vec<(&str, &std::path::Path)> =
            home.iter().map(|h| ("HOME", h.as_path())).collect();
        let ours = fluidc_env(&["run", path_str(rel)], &envs);
        let theirs = run_with_paddle(rel, &repo(), &envs);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{}: fluidc stderr:\n{}\npython stderr:\n{}",
            rel.display(),
            stderr(&ours),
            String::from_utf8_lossy(&theirs.stderr)
        );
        assert_eq!(
            stdout(&ours),
            String::from_utf8_lossy(&theirs.stdout),
            "{}: stdout differs",
            rel.display()
        );
    }
}

/// `compile --startup-out`: the startup program is written apart, and the
/// two files run in Paddle 3.3.1 as the script runs them (startup once,
/// then main: the persistable counter starts at 10 and main adds 1).
#[test]
fn startup_out_writes_two_programs_paddle_runs_in_order() {
    let dir = temp_dir("startup_out");
    let (main, startup) = compile_split(&dir, "testdata/run/persistable_state.py");
    let script = "import os, sys\nos.environ['FLAGS_enable_pir_api']='0'\nimport paddle\n\
        paddle.enable_static()\n\
        load = lambda f: paddle.static.Program.parse_from_string(open(f, 'rb').read())\n\
        startup, main = load(sys.argv[1]), load(sys.argv[2])\n\
        exe = paddle.static.Executor(paddle.CPUPlace())\n\
        exe.run(startup)\n\
        for _ in range(2):\n    c, d = exe.run(main, fetch_list=['counter', 'tmp_0'])\n\
        print(int(c[0]), int(d[0]))";
    let printed = venv_python(&["-c", script, path_str(&startup), path_str(&main)]);
    let printed = String::from_utf8_lossy(&printed);
    assert_eq!(printed.lines().last(), Some("12 24"), "{printed}");
}
