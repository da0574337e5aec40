//! Op forms the Paddle-written programs do not cover: the 2018 spellings
//! fluidc's `--target fluid2018` writes (`conditional_block` X/Params,
//! `fill_constant` INTS shapes, `assign_value` typed value lists), non-scalar
//! conditions, `str_value` precedence, reductions, `print` and `parse_feed`.
mod common;
use common::*;

use fluidc_runtime::{parse_feed, run, KernelError, RunOptions};
use fluidc_transpiler::{AttrValue, Op, Var};

fn fetch_text(p: Builder, names: &[&str]) -> Vec<String> {
    let got = run_with(&p.verified(), names, 1, 1).expect("runs");
    got.iter().map(|(n, t)| t.to_text(n)).collect()
}

#[test]
fn conditional_block_in_the_2018_spelling_and_non_scalar_conditions() {
    let mut p = Builder::new();
    p.fill(0, "flag", I64, 0.0);
    p.fill(0, "yes", BOOL, 1.0);
    p.fill(0, "no", BOOL, 0.0);
    p.fill(0, "hits", I64, 0.0);
    for (i, (cond, scalar)) in [("yes", true), ("no", true), ("no", false)]
        .into_iter()
        .enumerate()
    {
        let body = p.block(0);
        p.push(
            0,
            Op::new("conditional_block")
                .input("Params", &[])
                .input("X", &[cond])
                .output("Out", &[])
                .output("Scope", &[&format!("scope{i}")])
                .attr("sub_block", AttrValue::Block(body as i32))
                .attr("is_scalar_condition", AttrValue::Bool(scalar)),
        );
        p.fill(body, &format!("step{i}"), I64, 10f64.powi(i as i32));
        p.add(body, "hits", &format!("step{i}"), "hits", I64);
    }
    // yes (scalar) runs; no (scalar) does not; no (non-scalar) runs: its
    // tensor is non-empty, whatever its value.
    assert_eq!(
        fetch_text(p, &["hits"]),
        vec!["hits = [101] (int64, shape [1])"]
    );
}

#[test]
fn fill_constant_with_ints_shape_and_str_value() {
    let mut p = Builder::new();
    p.program.blocks[0]
        .vars
        .push(Var::dense("a", I64, vec![2, 2]));
    p.push(
        0,
        Op::new("fill_constant")
            .output("Out", &["a"])
            .attr("dtype", AttrValue::Int(I64 as i32))
            .attr("shape", AttrValue::Ints(vec![2, 2]))
            .attr("value", AttrValue::Float(1.0))
            .attr("str_value", AttrValue::String("9007199254740993".into())),
    );
    p.program.blocks[0].vars.push(Var::dense("b", F32, vec![3]));
    p.push(
        0,
        Op::new("assign_value")
            .output("Out", &["b"])
            .attr("dtype", AttrValue::Int(F32 as i32))
            .attr("shape", AttrValue::Ints(vec![3]))
            .attr("fp32_values", AttrValue::Floats(vec![0.5, -1.0, 2.0]))
            .attr("int32_values", AttrValue::Ints(vec![])),
    );
    assert_eq!(
        fetch_text(p, &["a", "b"]),
        vec![
            "a = [[9007199254740993, 9007199254740993], [9007199254740993, 9007199254740993]] (int64, shape [2, 2])",
            "b = [0.5, -1.0, 2.0] (float32, shape [3])",
        ]
    );
}

#[test]
fn reduce_sum_mean_and_matmul_through_programs() {
    let mut p = Builder::new();
    p.program.blocks[0]
        .vars
        .push(Var::dense("m", F32, vec![2, 3]));
    p.push(
        0,
        Op::new("assign_value")
            .output("Out", &["m"])
            .attr("dtype", AttrValue::Int(F32 as i32))
            .attr("shape", AttrValue::Ints(vec![2, 3]))
            .attr(
                "fp32_values",
                AttrValue::Floats(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
            ),
    );
    p.program.blocks[0]
        .vars
        .push(Var::dense("rows", F32, vec![2]));
    p.push(
        0,
        Op::new("reduce_sum")
            .input("X", &["m"])
            .output("Out", &["rows"])
            .attr("dim", AttrValue::Ints(vec![-1]))
            .attr("keep_dim", AttrValue::Bool(false))
            .attr("reduce_all", AttrValue::Bool(false)),
    );
    // A mean declared `[]` (as Paddle 3.3.1 declares it) fetches 0-D; one
    // declared `[1]` (as 1.x and fluidc declare it) fetches (1,) (README, "Run mode").
    p.program.blocks[0]
        .vars
        .push(Var::dense("avg", F32, vec![]));
    p.push(
        0,
        Op::new("mean").input("X", &["m"]).output("Out", &["avg"]),
    );
    p.var(0, "avg1", F32);
    p.push(
        0,
        Op::new("mean").input("X", &["m"]).output("Out", &["avg1"]),
    );
    p.var(0, "gram", F32);
    p.push(
        0,
        Op::new("matmul_v2")
            .input("X", &["m"])
            .input("Y", &["m"])
            .output("Out", &["gram"])
            .attr("trans_x", AttrValue::Bool(false))
            .attr("trans_y", AttrValue::Bool(true)),
    );
    assert_eq!(
        fetch_text(p, &["rows", "avg", "avg1", "gram"]),
        vec![
            "rows = [6.0, 15.0] (float32, shape [2])",
            "avg = 3.5 (float32, shape [])",
            "avg1 = [3.5] (float32, shape [1])",
            "gram = [[14.0, 32.0], [32.0, 77.0]] (float32, shape [2, 2])",
        ]
    );
}

#[test]
fn print_passes_its_input_on() {
    let mut p = Builder::new();
    p.fill(0, "x", I64, 4.0);
    p.var(0, "y", I64);
    p.push(
        0,
        Op::new("print")
            .input("In", &["x"])
            .output("Out", &["y"])
            .attr("message", AttrValue::String("x is".into()))
            .attr("first_n", AttrValue::Int(-1))
            .attr("summarize", AttrValue::Int(20)),
    );
    assert_eq!(fetch_text(p, &["y"]), vec!["y = [4] (int64, shape [1])"]);
}

#[test]
fn parse_feed_reads_literals_with_the_declared_dtype() {
    let mut p = Builder::new();
    p.program.blocks[0]
        .vars
        .push(Var::dense("x", F32, vec![-1, 2]));
    p.var(0, "n", I32);
    p.var(0, "double", F32);
    p.push(0, binary("elementwise_add", "x", "x", "double"));
    let p = p.verified();
    let x = parse_feed(&p, "x", "[[1, 2], [3, 4.5]]").expect("parses");
    assert_eq!(
        x.to_text("x"),
        "x = [[1.0, 2.0], [3.0, 4.5]] (float32, shape [2, 2])"
    );
    let n = parse_feed(&p, "n", "7").expect("parses");
    assert_eq!(n.to_text("n"), "n = [7] (int32, shape [1])");
    // Each refusal has its kind, and the text the user reads.
    let refused = |name: &str, value: &str| parse_feed(&p, name, value).unwrap_err();
    let e = refused("n", "7.5");
    assert!(matches!(e, KernelError::Dtype(_)), "{e:?}");
    assert!(e.to_string().contains("7.5 is not a valid int32 value"));
    let e = refused("nope", "1");
    assert!(matches!(e, KernelError::Program(_)), "{e:?}");
    assert!(e.to_string().contains("block 0 declares no such variable"));
    let e = refused("x", "missing.npy");
    assert!(matches!(e, KernelError::Io(_)), "{e:?}");
    assert!(e.to_string().contains("cannot read missing.npy"));
    let e = refused("x", "[[1, 2], [3]]");
    assert!(matches!(e, KernelError::Shape(_)), "{e:?}");
    assert!(e
        .to_string()
        .contains("the nested lists are not rectangular"));
    let got = run(
        &p,
        RunOptions {
            feeds: vec![("x".into(), x)],
            fetch: vec!["double".into()],
            ..Default::default()
        },
    )
    .expect("runs");
    assert_eq!(
        got[0].1.to_text("double"),
        "double = [[2.0, 4.0], [6.0, 9.0]] (float32, shape [2, 2])"
    );
}

/// Kernels write into their output's buffer when nobody shares it and
/// update an input in place when it is the output; a buffer `assign`
/// shared is never written (copy-on-write).
#[test]
fn outputs_written_in_place_keep_shared_copies_intact() {
    let mut p = Builder::new();
    let vector = |p: &mut Builder, name: &str, values: Vec<f32>| {
        p.program.blocks[0]
            .vars
            .push(Var::dense(name, F32, vec![values.len() as i64]));
        p.push(
            0,
            Op::new("assign_value")
                .output("Out", &[name])
                .attr("dtype", AttrValue::Int(F32 as i32))
                .attr("shape", AttrValue::Ints(vec![values.len() as i32]))
                .attr("fp32_values", AttrValue::Floats(values)),
        );
    };
    vector(&mut p, "c", vec![1.0, 2.0, 3.0]);
    vector(&mut p, "y", vec![10.0, 20.0, 30.0]);
    for name in ["x", "z", "saved"] {
        p.program.blocks[0]
            .vars
            .push(Var::dense(name, F32, vec![3]));
    }
    // x is a copy of the constant c: writing x must not change c.
    p.push(
        0,
        Op::new("assign").input("X", &["c"]).output("Out", &["x"]),
    );
    p.push(0, binary("elementwise_add", "x", "y", "x"));
    // saved shares x's buffer, so the next write to x copies.
    p.push(
        0,
        Op::new("assign")
            .input("X", &["x"])
            .output("Out", &["saved"]),
    );
    p.push(0, binary("elementwise_mul", "x", "x", "x"));
    p.push(0, binary("elementwise_sub", "y", "x", "x"));
    p.push(0, Op::new("relu").input("X", &["x"]).output("Out", &["x"]));
    p.push(
        0,
        Op::new("scale")
            .input("X", &["y"])
            .output("Out", &["y"])
            .attr("scale", AttrValue::Float(2.0))
            .attr("bias", AttrValue::Float(1.0))
            .attr("bias_after_scale", AttrValue::Bool(true)),
    );
    p.push(0, binary("elementwise_add", "y", "c", "z"));
    p.push(0, binary("elementwise_add", "c", "y", "z"));
    p.push(
        0,
        Op::new("sum")
            .input("X", &["z", "c", "y"])
            .output("Out", &["z"]),
    );
    p.push(
        0,
        Op::new("fill_zeros_like")
            .input("X", &["saved"])
            .output("Out", &["saved"]),
    );
    assert_eq!(
        fetch_text(p, &["c", "x", "y", "z", "saved"]),
        vec![
            "c = [1.0, 2.0, 3.0] (float32, shape [3])",
            // (c + y)^2 = 121, 484, 1089; y - that is negative: relu gives 0.
            "x = [0.0, 0.0, 0.0] (float32, shape [3])",
            "y = [21.0, 41.0, 61.0] (float32, shape [3])",
            // (c + y) + c + y
            "z = [44.0, 86.0, 128.0] (float32, shape [3])",
            "saved = [0.0, 0.0, 0.0] (float32, shape [3])",
        ]
    );
}
