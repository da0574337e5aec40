//! Every gradient kernel against central finite differences of its
//! forward kernel (docs/training.md, "Kernels"), in float64 on pseudo-random inputs,
//! broadcasting cases included. The grad op is built from Paddle's own
//! grad maker (`transpiler/data/grad_makers.json`): its slots are exactly
//! the ones `append_backward` writes.
//!
//! For a forward op `F` and random weights `W_o` for each output `o` whose
//! gradient the grad op reads, `L = sum_o sum(W_o * o)`; the grad op fed
//! `o@GRAD = W_o` must give `dL/dx` for every float input `x`.
use std::collections::HashMap;

use fluidc_runtime::{run, RunOptions, Tensor};
use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind, Verified};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let v = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (v >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    fn tensor(&mut self, shape: &[i64], lo: f64, hi: f64) -> Tensor {
        let n = shape.iter().product::<i64>() as usize;
        let v = (0..n).map(|_| lo + (hi - lo) * self.next()).collect();
        Tensor::from_vec(shape, v).expect("tensor")
    }
}

/// Runs one program made of `ops` with `feeds`, fetching `fetch`.
fn run_ops(ops: &[Op], feeds: &[(String, Tensor)], fetch: &[String]) -> Vec<Tensor> {
    let mut block = Block::new(0, -1);
    let mut declared = std::collections::HashSet::new();
    for (name, t) in feeds {
        block
            .vars
            .push(Var::dense(name.clone(), t.dtype(), t.shape().to_vec()));
        declared.insert(name.clone());
    }
    for op in ops {
        for n in op.output_names().chain(op.input_names()) {
            if !n.is_empty() && declared.insert(n.to_string()) {
                block.vars.push(Var::plain(n, VarKind::DenseTensor));
            }
        }
        block.ops.push(op.clone());
    }
    let program = Program {
        blocks: vec![block],
        ..Default::default()
    };
    let verified = Verified::new(program).expect("the test program verifies");
    let got = run(
        &verified,
        RunOptions {
            feeds: feeds.to_vec(),
            fetch: fetch.to_vec(),
            seed: Some(1),
            workers: Some(1),
            ..RunOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    got.into_iter().map(|(_, t)| t).collect()
}

fn makers() -> &'static serde_json::Value {
    static M: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    M.get_or_init(|| {
        let mut ops = serde_json::Map::new();
        for text in [
            include_str!("../../transpiler/data/grad_makers.json"),
            include_str!("../../transpiler/data/fluidc_grad_makers.json"),
        ] {
            let json = serde_json::from_str::<serde_json::Value>(text).expect("json");
            ops.extend(json["ops"].as_object().expect("ops").clone());
        }
        serde_json::Value::Object(ops)
    })
}

/// A forward op under test: its type, slots (one variable each, named
/// after the slot) with their values, output slots and attributes.
struct Case {
    ty: &'static str,
    inputs: Vec<(&'static str, Tensor)>,
    outputs: Vec<&'static str>,
    attrs: Vec<(&'static str, AttrValue)>,
    /// Inputs not to differentiate (labels, ids).
    constant: Vec<&'static str>,
}

impl Case {
    fn new(ty: &'static str) -> Case {
        Case {
            ty,
            inputs: Vec::new(),
            outputs: vec!["Out"],
            attrs: Vec::new(),
            constant: Vec::new(),
        }
    }

    fn input(mut self, slot: &'static str, t: Tensor) -> Case {
        self.inputs.push((slot, t));
        self
    }

    fn outputs(mut self, slots: &[&'static str]) -> Case {
        self.outputs = slots.to_vec();
        self
    }

    fn attr(mut self, name: &'static str, v: AttrValue) -> Case {
        self.attrs.push((name, v));
        self
    }

    fn constant(mut self, slot: &'static str) -> Case {
        self.constant.push(slot);
        self
    }

    fn var(slot: &str) -> String {
        format!("v_{slot}")
    }

    fn forward_op(&self) -> Op {
        let mut op = Op::new(self.ty);
        for (slot, _) in &self.inputs {
            op = op.input(slot, &[&Case::var(slot)]);
        }
        for slot in &self.outputs {
            op = op.output(slot, &[&Case::var(slot)]);
        }
        for (n, v) in &self.attrs {
            op = op.attr(n, v.clone());
        }
        op
    }

    fn feeds(&self, inputs: &[(&'static str, Tensor)]) -> Vec<(String, Tensor)> {
        inputs
            .iter()
            .map(|(s, t)| (Case::var(s), t.clone()))
            .collect()
    }

    fn forward(&self, inputs: &[(&'static str, Tensor)]) -> Vec<Tensor> {
        let fetch: Vec<String> = self.outputs.iter().map(|s| Case::var(s)).collect();
        run_ops(&[self.forward_op()], &self.feeds(inputs), &fetch)
    }

    /// The grad op Paddle's maker makes, and which forward outputs it
    /// reads gradients of.
    fn grad_op(&self) -> (Op, Vec<&'static str>) {
        let maker = &makers()[self.ty];
        let spec = maker
            .as_array()
            .and_then(|a| a.first())
            .unwrap_or_else(|| panic!("{} has no grad maker: {maker}", self.ty));
        let mut op = Op::new(spec["type"].as_str().expect("type"));
        let mut seeded = Vec::new();
        let name = |kind: &str, slot: &str| match kind {
            "in" | "out" => Case::var(slot),
            _ => format!("{}@GRAD", Case::var(slot)),
        };
        let present = |kind: &str, slot: &str| match kind {
            "in" | "in@GRAD" => self.inputs.iter().any(|(s, _)| *s == slot),
            _ => self.outputs.contains(&slot),
        };
        for (key, is_input) in [("inputs", true), ("outputs", false)] {
            let Some(slots) = spec[key].as_object() else {
                continue;
            };
            for (gslot, refs) in slots {
                let mut args = Vec::new();
                for r in refs.as_array().expect("refs") {
                    let (kind, slot) = (r[0].as_str().expect("kind"), r[1].as_str().expect("slot"));
                    if !present(kind, slot) {
                        continue;
                    }
                    if kind == "out@GRAD" {
                        if let Some(s) = self.outputs.iter().find(|s| **s == slot) {
                            seeded.push(*s);
                        }
                    }
                    args.push(name(kind, slot));
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                op = if is_input {
                    op.input(gslot, &args)
                } else {
                    op.output(gslot, &args)
                };
            }
        }
        for (n, v) in &self.attrs {
            op = op.attr(n, v.clone());
        }
        (op, seeded)
    }

    /// Checks every float input's gradient against central differences.
    fn check(self, rng: &mut Rng) {
        let (grad, seeded) = self.grad_op();
        let outs = self.forward(&self.inputs);
        // The loss weights of each output whose gradient the grad op reads.
        let weights: Vec<(usize, Tensor)> = seeded
            .iter()
            .map(|s| {
                let i = self.outputs.iter().position(|o| o == s).expect("output");
                // An output's gradient keeps the output's LoD, as 1.x's
                // grad ops shared it (sequence_unpad_grad reads it).
                let w = rng.tensor(outs[i].shape(), -1.0, 1.0);
                (i, w.with_lod(outs[i].lod().to_vec()))
            })
            .collect();
        let loss = |inputs: &[(&'static str, Tensor)]| -> f64 {
            let outs = self.forward(inputs);
            weights
                .iter()
                .map(|(i, w)| {
                    let o = outs[*i].values::<f64>().expect("f64 output");
                    let w = w.values::<f64>().expect("f64");
                    o.iter().zip(w).map(|(a, b)| a * b).sum::<f64>()
                })
                .sum()
        };
        let mut feeds = self.feeds(&self.inputs);
        for (i, o) in self.outputs.iter().enumerate() {
            feeds.push((Case::var(o), outs[i].clone()));
        }
        for (i, w) in &weights {
            feeds.push((format!("{}@GRAD", Case::var(self.outputs[*i])), w.clone()));
        }
        let wrt: Vec<&'static str> = self
            .inputs
            .iter()
            .filter(|(s, t)| !self.constant.contains(s) && t.dtype() == VarKind::Fp64)
            .map(|(s, _)| *s)
            // The grad op writes `s`'s gradient (in `X@GRAD`, or in
            // another slot when its grad is a forward op: sequence_reverse).
            .filter(|s| {
                let g = format!("{}@GRAD", Case::var(s));
                grad.output_names().filter(|n| *n == g).count() == 1
            })
            .collect();
        assert!(!wrt.is_empty(), "{}: nothing to differentiate", self.ty);
        let fetch: Vec<String> = wrt
            .iter()
            .map(|s| format!("{}@GRAD", Case::var(s)))
            .collect();
        let got = run_ops(&[grad], &feeds, &fetch);
        let h = 1e-6;
        for (slot, g) in wrt.iter().zip(&got) {
            let at = self
                .inputs
                .iter()
                .position(|(s, _)| s == slot)
                .expect("input");
            let x = &self.inputs[at].1;
            assert_eq!(g.shape(), x.shape(), "{} {slot}@GRAD shape", self.ty);
            let g = g.values::<f64>().expect("f64 grad");
            let xv = x.values::<f64>().expect("f64").to_vec();
            for k in 0..xv.len() {
                let shifted = |dx: f64| {
                    let mut v = xv.clone();
                    v[k] += dx;
                    let mut inputs = self.inputs.clone();
                    inputs[at].1 = Tensor::from_vec(x.shape(), v)
                        .expect("tensor")
                        .with_lod(x.lod().to_vec());
                    loss(&inputs)
                };
                let fd = (shifted(h) - shifted(-h)) / (2.0 * h);
                let tol = 1e-5 * fd.abs().max(g[k].abs()).max(1.0);
                assert!(
                    (fd - g[k]).abs() <= tol,
                    "{} d/d{slot}[{k}]: kernel {} vs finite difference {fd}",
                    self.ty,
                    g[k]
                );
            }
        }
    }
}

fn labels(shape: &[i64], v: Vec<i64>) -> Tensor {
    Tensor::from_vec(shape, v).expect("labels")
}

/// 1.x's CPU gather_grad (`ScatterAssign`) keeps the last gradient of a
/// repeated index along axis 0 when the op says `overwrite` (1.7's
/// default; 1.0-1.6 had no attribute and always did), where the sum is
/// what finite differences give.
#[test]
fn gather_grad_overwrites_a_repeated_index_as_1x_did() {
    let x = Tensor::from_vec(&[3, 2], vec![0.0f64; 6]).expect("x");
    let d = Tensor::from_vec(&[3, 2], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]).expect("d");
    let op = Op::new("gather_grad")
        .input("X", &["x"])
        .input("Index", &["i"])
        .input("Out@GRAD", &["d"])
        .output("X@GRAD", &["g"])
        .attr("overwrite", AttrValue::Bool(true));
    let feeds = vec![
        ("x".to_string(), x),
        ("i".to_string(), labels(&[3], vec![2, 0, 2])),
        ("d".to_string(), d),
    ];
    let got = run_ops(&[op], &feeds, &["g".to_string()]);
    // Row 2 is gathered first and last: its gradient is the last row's.
    assert_eq!(
        got[0].values::<f64>().expect("f64"),
        &[3.0, 4.0, 0.0, 0.0, 5.0, 6.0]
    );
}

/// 1.x's CPU scatter_grad copied `Out@GRAD` to `X@GRAD` whole (the
/// scattered rows were not zeroed, as Paddle 3.3.1 and the derivative
/// zero them), and gave every id, repeated or not, its row of `Out@GRAD`.
#[test]
fn scatter_grad_passes_the_whole_gradient_to_x_as_1x_did() {
    let d: Vec<f64> = (1..=8).map(f64::from).collect();
    let op = Op::new("scatter_grad")
        .input("Ids", &["i"])
        .input("Updates", &["u"])
        .input("Out@GRAD", &["d"])
        .output("X@GRAD", &["dx"])
        .output("Updates@GRAD", &["du"])
        .attr("overwrite", AttrValue::Bool(true));
    let feeds = vec![
        ("i".to_string(), labels(&[3], vec![1, 3, 1])),
        (
            "u".to_string(),
            Tensor::from_vec(&[3, 2], vec![0.0f64; 6]).expect("u"),
        ),
        (
            "d".to_string(),
            Tensor::from_vec(&[4, 2], d.clone()).expect("d"),
        ),
    ];
    let got = run_ops(&[op], &feeds, &["dx".to_string(), "du".to_string()]);
    assert_eq!(got[0].values::<f64>().expect("f64"), &d[..]);
    assert_eq!(
        got[1].values::<f64>().expect("f64"),
        &[3.0, 4.0, 7.0, 8.0, 3.0, 4.0]
    );
}

/// multiplex picks row i from input `Ids[i]`: that input's gradient holds
/// the row of `Out@GRAD`, the others zeros there (the derivative), and a
/// gradient no one wants is left out.
#[test]
fn multiplex_grad_routes_each_row_to_its_input() {
    let mut rng = Rng(29);
    let xs: Vec<Tensor> = (0..3).map(|_| rng.tensor(&[4, 2], -1.0, 1.0)).collect();
    let ids = Tensor::from_vec(&[4, 1], vec![2i32, 0, 2, 1]).expect("ids");
    let forward = Op::new("multiplex")
        .input("X", &["a", "b", "c"])
        .input("Ids", &["i"])
        .output("Out", &["o"]);
    let mut feeds: Vec<(String, Tensor)> = ["a", "b", "c"]
        .iter()
        .zip(&xs)
        .map(|(n, t)| (n.to_string(), t.clone()))
        .collect();
    feeds.push(("i".to_string(), ids));
    let out = run_ops(&[forward], &feeds, &["o".to_string()]);
    let o = out[0].values::<f64>().expect("f64");
    for (row, k) in [2usize, 0, 2, 1].into_iter().enumerate() {
        let x = xs[k].values::<f64>().expect("f64");
        assert_eq!(&o[row * 2..row * 2 + 2], &x[row * 2..row * 2 + 2]);
    }
    let d = rng.tensor(&[4, 2], -1.0, 1.0);
    let grad = Op::new("multiplex_grad")
        .input("X", &["a", "b", "c"])
        .input("Ids", &["i"])
        .input("Out@GRAD", &["d"])
        .output("X@GRAD", &["a@GRAD", "", "c@GRAD"]);
    feeds.push(("d".to_string(), d.clone()));
    let got = run_ops(
        &[grad],
        &feeds,
        &["a@GRAD".to_string(), "c@GRAD".to_string()],
    );
    let dv = d.values::<f64>().expect("f64");
    let keep = |rows: &[usize]| -> Vec<f64> {
        (0..8)
            .map(|k| if rows.contains(&(k / 2)) { dv[k] } else { 0.0 })
            .collect()
    };
    assert_eq!(got[0].values::<f64>(), Some(&keep(&[1])[..]));
    assert_eq!(got[1].values::<f64>(), Some(&keep(&[0, 2])[..]));
}

/// 1.x's shuffle_channel_grad (and Paddle 3.3.1's) shuffles `Out@GRAD`
/// the way the forward op shuffles `X`, rather than back: channel
/// `j*group + i` of `X@GRAD` is channel `i*(C/group) + j` of `Out@GRAD`.
#[test]
fn shuffle_channel_grad_shuffles_the_gradient_forward_as_1x_did() {
    let d: Vec<f64> = (0..12).map(f64::from).collect();
    let op = Op::new("shuffle_channel_grad")
        .input("Out@GRAD", &["d"])
        .output("X@GRAD", &["g"])
        .attr("group", AttrValue::Int(2));
    let feeds = vec![(
        "d".to_string(),
        Tensor::from_vec(&[1, 6, 2, 1], d).expect("d"),
    )];
    let got = run_ops(&[op], &feeds, &["g".to_string()]);
    // Channels [0 1 2 | 3 4 5] interleaved: 0 3 1 4 2 5.
    assert_eq!(
        got[0].values::<f64>().expect("f64"),
        &[0.0, 1.0, 6.0, 7.0, 2.0, 3.0, 8.0, 9.0, 4.0, 5.0, 10.0, 11.0]
    );
}

#[test]
fn elementwise_grads_with_broadcasting_match_finite_differences() {
    let mut rng = Rng(7);
    for ty in [
        "elementwise_add",
        "elementwise_sub",
        "elementwise_mul",
        "elementwise_div",
        "elementwise_max",
        "elementwise_min",
        "elementwise_pow",
    ] {
        for (xs, ys, axis) in [
            (vec![2i64, 3], vec![2i64, 3], -1i32),
            (vec![2, 3, 4], vec![4], -1),
            (vec![2, 3, 4], vec![3], 1),
            (vec![3, 1], vec![1, 4], -1),
        ] {
            let (lo, hi) = if ty == "elementwise_pow" {
                (0.5, 2.0)
            } else {
                (-2.0, 2.0)
            };
            let mut y = rng.tensor(&ys, lo, hi);
            if ty == "elementwise_div" {
                y = rng.tensor(&ys, 0.5, 2.0);
            }
            Case::new(ty)
                .input("X", rng.tensor(&xs, lo, hi))
                .input("Y", y)
                .attr("axis", AttrValue::Int(axis))
                .check(&mut rng);
        }
    }
}

#[test]
fn activation_grads_match_finite_differences() {
    let mut rng = Rng(11);
    for ty in [
        "relu",
        "sigmoid",
        "tanh",
        "square",
        "sqrt",
        "abs",
        "exp",
        "log",
        "leaky_relu",
        "cos",
        "floor",
        "ceil",
        "relu6",
        "elu",
        "hard_sigmoid",
        "swish",
        "sin",
        "atan",
        "reciprocal",
        "rsqrt",
        "softplus",
        "softsign",
        "logsigmoid",
        "tanh_shrink",
        "softshrink",
        "hard_shrink",
        "thresholded_relu",
        "selu",
        "brelu",
        "stanh",
        "gelu",
    ] {
        let (lo, hi) = match ty {
            "sqrt" | "log" | "reciprocal" | "rsqrt" => (0.5, 3.0),
            // Away from the kinks at 0 (softsign, selu) and at the
            // thresholds (0.5 of the shrinks, 1 of thresholded_relu).
            "softsign" | "selu" | "softshrink" | "hard_shrink" => (0.6, 2.0),
            "thresholded_relu" => (1.1, 3.0),
            // Both sides of relu6's 6 and hard_sigmoid's 0 and 1.
            "relu6" => (-2.0, 8.0),
            "hard_sigmoid" => (-4.0, 4.0),
            _ => (-2.0, 2.0),
        };
        Case::new(ty)
            .input("X", rng.tensor(&[3, 4], lo, hi))
            .check(&mut rng);
    }
    Case::new("gelu")
        .input("X", rng.tensor(&[3, 4], -2.0, 2.0))
        .attr("approximate", AttrValue::Bool(true))
        .check(&mut rng);
    for (ty, attr, v) in [
        ("elu", "alpha", 0.5),
        ("pow", "factor", 2.5),
        ("hard_sigmoid", "slope", 0.3),
    ] {
        Case::new(ty)
            .input("X", rng.tensor(&[3, 4], 0.2, 2.0))
            .attr(attr, AttrValue::Float(v))
            .check(&mut rng);
    }
    Case::new("softmax")
        .input("X", rng.tensor(&[3, 5], -2.0, 2.0))
        .check(&mut rng);
    Case::new("softmax")
        .input("X", rng.tensor(&[2, 3, 4], -2.0, 2.0))
        .attr("axis", AttrValue::Int(1))
        .check(&mut rng);
    Case::new("clip")
        .input("X", rng.tensor(&[4, 5], -2.0, 2.0))
        .attr("min", AttrValue::Float(-0.7))
        .attr("max", AttrValue::Float(0.9))
        .check(&mut rng);
}

#[test]
fn matrix_product_grads_match_finite_differences() {
    let mut rng = Rng(13);
    Case::new("mul")
        .input("X", rng.tensor(&[3, 4], -1.0, 1.0))
        .input("Y", rng.tensor(&[4, 2], -1.0, 1.0))
        .check(&mut rng);
    Case::new("mul")
        .input("X", rng.tensor(&[2, 3, 2, 2], -1.0, 1.0))
        .input("Y", rng.tensor(&[2, 2, 3], -1.0, 1.0))
        .attr("x_num_col_dims", AttrValue::Int(2))
        .attr("y_num_col_dims", AttrValue::Int(2))
        .check(&mut rng);
    for ty in ["matmul", "matmul_v2"] {
        let (a, b) = if ty == "matmul" {
            ("transpose_X", "transpose_Y")
        } else {
            ("trans_x", "trans_y")
        };
        for (xs, ys, tx, ty_) in [
            (vec![3i64, 4], vec![4i64, 2], false, false),
            (vec![4, 3], vec![4, 2], true, false),
            (vec![3, 4], vec![2, 4], false, true),
            (vec![4, 3], vec![2, 4], true, true),
            (vec![2, 3, 4], vec![4, 2], false, false),
            (vec![2, 1, 3, 4], vec![3, 4, 2], false, false),
            (vec![4], vec![2, 4, 3], false, false),
            (vec![2, 3, 4], vec![4], false, false),
        ] {
            let mut c = Case::new(ty)
                .input("X", rng.tensor(&xs, -1.0, 1.0))
                .input("Y", rng.tensor(&ys, -1.0, 1.0))
                .attr(a, AttrValue::Bool(tx))
                .attr(b, AttrValue::Bool(ty_));
            if ty == "matmul" {
                c = c.attr("alpha", AttrValue::Float(0.5));
            }
            c.check(&mut rng);
        }
    }
}

#[test]
fn reduction_and_loss_grads_match_finite_differences() {
    let mut rng = Rng(17);
    Case::new("mean")
        .input("X", rng.tensor(&[3, 4], -1.0, 1.0))
        .check(&mut rng);
    for ty in [
        "reduce_sum",
        "reduce_mean",
        "reduce_max",
        "reduce_min",
        "reduce_prod",
    ] {
        for (dims, keep) in [(vec![1], false), (vec![0, 2], true), (vec![], false)] {
            Case::new(ty)
                .input("X", rng.tensor(&[2, 3, 4], -1.0, 1.0))
                .attr("dim", AttrValue::Ints(dims.clone()))
                .attr("keep_dim", AttrValue::Bool(keep))
                .attr("reduce_all", AttrValue::Bool(dims.is_empty()))
                .check(&mut rng);
        }
    }
    Case::new("squared_l2_norm")
        .input("X", rng.tensor(&[3, 4], -1.0, 1.0))
        .check(&mut rng);
    Case::new("cross_entropy")
        .input("X", rng.tensor(&[4, 5], 0.1, 1.0))
        .input("Label", labels(&[4, 1], vec![0, 3, 4, 1]))
        .outputs(&["Y"])
        .constant("Label")
        .check(&mut rng);
    Case::new("cross_entropy")
        .input("X", rng.tensor(&[3, 4], 0.1, 1.0))
        .input("Label", rng.tensor(&[3, 4], 0.0, 1.0))
        .attr("soft_label", AttrValue::Bool(true))
        .outputs(&["Y"])
        .constant("Label")
        .check(&mut rng);
    Case::new("softmax_with_cross_entropy")
        .input("Logits", rng.tensor(&[4, 5], -2.0, 2.0))
        .input("Label", labels(&[4, 1], vec![2, 0, 4, 1]))
        .outputs(&["Softmax", "Loss"])
        .constant("Label")
        .check(&mut rng);
    Case::new("softmax_with_cross_entropy")
        .input("Logits", rng.tensor(&[3, 4], -2.0, 2.0))
        .input("Label", labels(&[3, 1], vec![1, -100, 3]))
        .outputs(&["Softmax", "Loss"])
        .constant("Label")
        .check(&mut rng);
    // Soft labels that sum to 1 per row (the gradient formula assumes it).
    let soft = {
        let t = rng.tensor(&[3, 4], 0.1, 1.0);
        let v = t.values::<f64>().expect("f64");
        let mut out = Vec::new();
        for r in v.chunks(4) {
            let s: f64 = r.iter().sum();
            out.extend(r.iter().map(|x| x / s));
        }
        Tensor::from_vec(&[3, 4], out).expect("tensor")
    };
    Case::new("softmax_with_cross_entropy")
        .input("Logits", rng.tensor(&[3, 4], -2.0, 2.0))
        .input("Label", soft)
        .attr("soft_label", AttrValue::Bool(true))
        .outputs(&["Softmax", "Loss"])
        .constant("Label")
        .check(&mut rng);
}

#[test]
fn manipulation_grads_match_finite_differences() {
    let mut rng = Rng(19);
    Case::new("reshape2")
        .input("X", rng.tensor(&[2, 3, 4], -1.0, 1.0))
        .attr("shape", AttrValue::Ints(vec![0, -1]))
        .outputs(&["Out", "XShape"])
        .check(&mut rng);
    Case::new("transpose2")
        .input("X", rng.tensor(&[2, 3, 4], -1.0, 1.0))
        .attr("axis", AttrValue::Ints(vec![2, 0, 1]))
        .outputs(&["Out", "XShape"])
        .check(&mut rng);
    Case::new("flatten2")
        .input("X", rng.tensor(&[2, 3, 4], -1.0, 1.0))
        .attr("axis", AttrValue::Int(2))
        .outputs(&["Out", "XShape"])
        .check(&mut rng);
    // Each element's copies all send their gradient back.
    Case::new("expand")
        .input("X", rng.tensor(&[2, 1, 3], -1.0, 1.0))
        .attr("expand_times", AttrValue::Ints(vec![2, 3, 1]))
        .check(&mut rng);
    Case::new("stack")
        .input("X", rng.tensor(&[2, 3], -1.0, 1.0))
        .attr("axis", AttrValue::Int(1))
        .outputs(&["Y"])
        .check(&mut rng);
    // A position gathered twice gets both gradients (without 1.x's
    // `overwrite`, or along axis 1, where it does not apply).
    for (axis, index, overwrite) in [
        (0, vec![2, 0, 2], None),
        (0, vec![2, 0, 2], Some(false)),
        (1, vec![1, 1], Some(true)),
    ] {
        let mut c = Case::new("gather")
            .input("X", rng.tensor(&[3, 2, 4], -1.0, 1.0))
            .input("Index", labels(&[index.len() as i64], index))
            .attr("axis", AttrValue::Int(axis))
            .constant("Index");
        if let Some(o) = overwrite {
            c = c.attr("overwrite", AttrValue::Bool(o));
        }
        c.check(&mut rng);
    }
    // gather_nd: a repeated index row gets both gradients; rows of depth
    // 1 (whole slices) and of full depth (single elements).
    for (shape, index) in [
        (vec![3, 2], vec![0i64, 1, 2, 0, 0, 1]),
        (vec![2, 1], vec![2, 2]),
    ] {
        Case::new("gather_nd")
            .input("X", rng.tensor(&[3, 2, 4], -1.0, 1.0))
            .input("Index", labels(&shape, index))
            .constant("Index")
            .check(&mut rng);
    }
    // scatter: Updates' gradient (X's is 1.x's, not the derivative, see
    // scatter_grad_passes_the_whole_gradient_to_x_as_1x_did); without
    // overwrite a repeated id sums its rows, so each gets the gradient.
    for (ids, overwrite) in [(vec![3, 0], true), (vec![1, 3, 1], false)] {
        Case::new("scatter")
            .input("X", rng.tensor(&[4, 2, 3], -1.0, 1.0))
            .input("Ids", labels(&[ids.len() as i64], ids.clone()))
            .input("Updates", rng.tensor(&[ids.len() as i64, 2, 3], -1.0, 1.0))
            .attr("overwrite", AttrValue::Bool(overwrite))
            .constant("X")
            .constant("Ids")
            .check(&mut rng);
    }
    // crop: a box by the attributes, by Y's dims and an Offsets tensor.
    Case::new("crop")
        .input("X", rng.tensor(&[3, 4, 5], -1.0, 1.0))
        .attr("shape", AttrValue::Ints(vec![-1, 2, 3]))
        .attr("offsets", AttrValue::Ints(vec![0, 1, 2]))
        .check(&mut rng);
    Case::new("crop")
        .input("X", rng.tensor(&[3, 4, 5], -1.0, 1.0))
        .input("Y", rng.tensor(&[2, 2, 2], -1.0, 1.0))
        .input(
            "Offsets",
            Tensor::from_vec(&[3], vec![1i32, 2, 0]).expect("offsets"),
        )
        .constant("Offsets")
        .check(&mut rng);
    // pad2d: a reflected or repeated element gets every copy's gradient.
    for (mode, format, shape) in [
        ("constant", "NCHW", [2, 2, 3, 4]),
        ("reflect", "NCHW", [2, 2, 3, 4]),
        ("edge", "NCHW", [1, 2, 3, 4]),
        ("reflect", "NHWC", [2, 3, 4, 2]),
        ("edge", "NHWC", [1, 3, 4, 2]),
    ] {
        Case::new("pad2d")
            .input("X", rng.tensor(&shape, -1.0, 1.0))
            .attr("paddings", AttrValue::Ints(vec![2, 1, 0, 3]))
            .attr("mode", AttrValue::String(mode.into()))
            .attr("pad_value", AttrValue::Float(0.5))
            .attr("data_format", AttrValue::String(format.into()))
            .check(&mut rng);
    }
    Case::new("pad2d")
        .input("X", rng.tensor(&[1, 2, 3, 3], -1.0, 1.0))
        .input(
            "Paddings",
            Tensor::from_vec(&[4], vec![1i32, 2, 2, 0]).expect("paddings"),
        )
        .attr("paddings", AttrValue::Ints(vec![]))
        .attr("mode", AttrValue::String("reflect".into()))
        .constant("Paddings")
        .check(&mut rng);
    // pad_constant_like: only Y (the padded one) has a gradient.
    Case::new("pad_constant_like")
        .input("X", rng.tensor(&[3, 4, 2], -1.0, 1.0))
        .input("Y", rng.tensor(&[2, 4, 1], -1.0, 1.0))
        .attr("pad_value", AttrValue::Float(-2.0))
        .check(&mut rng);
    // Ops that only move elements: the gradient moves back.
    for format in ["NCHW", "NHWC"] {
        Case::new("pixel_shuffle")
            .input("X", rng.tensor(&[2, 8, 2, 8], -1.0, 1.0))
            .attr("upscale_factor", AttrValue::Int(2))
            .attr("data_format", AttrValue::String(format.into()))
            .check(&mut rng);
    }
    Case::new("space_to_depth")
        .input("X", rng.tensor(&[2, 8, 4, 6], -1.0, 1.0))
        .attr("blocksize", AttrValue::Long(2))
        .check(&mut rng);
    // maxout: the gradient goes to the max of each group (random inputs
    // have no ties), channels first or last.
    for (axis, shape) in [(1, [2, 6, 3, 2]), (3, [2, 3, 2, 6])] {
        Case::new("maxout")
            .input("X", rng.tensor(&shape, -1.0, 1.0))
            .attr("groups", AttrValue::Int(3))
            .attr("axis", AttrValue::Int(axis))
            .check(&mut rng);
    }
    // expand_as tiles X to the target's dims: the copies' gradients add up.
    Case::new("expand_as")
        .input("X", rng.tensor(&[2, 1, 3], -1.0, 1.0))
        .input("target_tensor", rng.tensor(&[4, 3, 6], -1.0, 1.0))
        .constant("target_tensor")
        .check(&mut rng);
    // squeeze2/unsqueeze2 only move dims: the gradient gets X's back.
    Case::new("squeeze2")
        .input("X", rng.tensor(&[3, 1, 2], -1.0, 1.0))
        .attr("axes", AttrValue::Ints(vec![1]))
        .outputs(&["Out", "XShape"])
        .check(&mut rng);
    Case::new("unsqueeze2")
        .input("X", rng.tensor(&[3, 2], -1.0, 1.0))
        .attr("axes", AttrValue::Ints(vec![0, -1]))
        .outputs(&["Out", "XShape"])
        .check(&mut rng);
    // slice: a box (negative starts, an end past the dim), and an int
    // index that drops its axis; the rest of the gradient is zero.
    for (axes, starts, ends, decrease) in [
        (vec![1, 2], vec![0, -3], vec![1, 99], vec![]),
        (vec![0], vec![2], vec![3], vec![0]),
    ] {
        Case::new("slice")
            .input("Input", rng.tensor(&[3, 2, 4], -1.0, 1.0))
            .attr("axes", AttrValue::Ints(axes))
            .attr("starts", AttrValue::Ints(starts))
            .attr("ends", AttrValue::Ints(ends))
            .attr("decrease_axis", AttrValue::Ints(decrease))
            .check(&mut rng);
    }
}

/// hierarchical_sigmoid's gradients of X, W and Bias, over the default
/// tree (codes of 2 and 3 bits for 6 classes) and a custom one (paths
/// ending at a -1).
#[test]
fn hierarchical_sigmoid_grads_match_finite_differences() {
    let mut rng = Rng(37);
    Case::new("hierarchical_sigmoid")
        .input("X", rng.tensor(&[5, 3], -1.0, 1.0))
        .input("W", rng.tensor(&[5, 3], -1.0, 1.0))
        .input("Label", labels(&[5, 1], vec![0, 5, 2, 3, 1]))
        .input("Bias", rng.tensor(&[5, 1], -1.0, 1.0))
        .attr("num_classes", AttrValue::Int(6))
        .outputs(&["Out", "PreOut", "W_Out"])
        .constant("Label")
        .check(&mut rng);
    Case::new("hierarchical_sigmoid")
        .input("X", rng.tensor(&[3, 2], -1.0, 1.0))
        .input("W", rng.tensor(&[4, 2], -1.0, 1.0))
        .input("Label", labels(&[3, 1], vec![0, 1, 2]))
        .input(
            "PathTable",
            labels(&[3, 3], vec![0, 2, -1, 1, 3, 0, 3, -1, -1]),
        )
        .input("PathCode", labels(&[3, 3], vec![1, 0, 0, 0, 1, 1, 1, 0, 0]))
        .attr("num_classes", AttrValue::Int(4))
        .outputs(&["Out", "PreOut", "W_Out"])
        .constant("Label")
        .constant("PathTable")
        .constant("PathCode")
        .check(&mut rng);
}

/// hard_swish (below its threshold, where 1.x's gradient is the
/// derivative; past it 1.x's is 1 whatever threshold / scale is) and
/// soft_relu (inside its clip).
#[test]
fn hard_swish_and_soft_relu_grads_match_finite_differences() {
    let mut rng = Rng(43);
    for (t, sc, o) in [(6.0, 6.0, 3.0), (4.0, 5.0, 2.0)] {
        Case::new("hard_swish")
            .input("X", rng.tensor(&[3, 4], -1.0, 1.0))
            .attr("threshold", AttrValue::Float(t))
            .attr("scale", AttrValue::Float(sc))
            .attr("offset", AttrValue::Float(o))
            .check(&mut rng);
    }
    Case::new("soft_relu")
        .input("X", rng.tensor(&[3, 4], -2.0, 2.0))
        .attr("threshold", AttrValue::Float(40.0))
        .check(&mut rng);
}

/// kldiv_loss's X gradient for each reduction (a zero target entry gets
/// none).
#[test]
fn kldiv_loss_grads_match_finite_differences() {
    let mut rng = Rng(53);
    for reduction in ["none", "batchmean", "mean", "sum"] {
        let mut t = rng
            .tensor(&[3, 4], 0.1, 1.0)
            .values::<f64>()
            .expect("f64")
            .to_vec();
        t[5] = 0.0;
        Case::new("kldiv_loss")
            .input("X", rng.tensor(&[3, 4], -2.0, 0.0))
            .input("Target", Tensor::from_vec(&[3, 4], t).expect("target"))
            .attr("reduction", AttrValue::String(reduction.into()))
            .outputs(&["Loss"])
            .constant("Target")
            .check(&mut rng);
    }
}

/// affine_channel's gradients of X, Scale and Bias, channels first
/// (rank 4 and rank 2) or last.
#[test]
fn affine_channel_grads_match_finite_differences() {
    let mut rng = Rng(61);
    for (shape, layout, c) in [
        (vec![2, 3, 2, 2], "NCHW", 3),
        (vec![4, 3], "NCHW", 3),
        (vec![2, 2, 3, 4], "NHWC", 4),
    ] {
        Case::new("affine_channel")
            .input("X", rng.tensor(&shape, -1.0, 1.0))
            .input("Scale", rng.tensor(&[c], -1.0, 1.0))
            .input("Bias", rng.tensor(&[c], -1.0, 1.0))
            .attr("data_layout", AttrValue::String(layout.into()))
            .check(&mut rng);
    }
}

/// bpr_loss's X gradient (1.x's kernel: the label's entry against each
/// other class).
#[test]
fn bpr_loss_grads_match_finite_differences() {
    let mut rng = Rng(73);
    Case::new("bpr_loss")
        .input("X", rng.tensor(&[3, 4], -2.0, 2.0))
        .input("Label", labels(&[3, 1], vec![0, 3, 1]))
        .outputs(&["Y"])
        .constant("Label")
        .check(&mut rng);
}

#[test]
fn concat_grad_splits_the_gradient() {
    let mut rng = Rng(23);
    let (a, b) = (
        rng.tensor(&[2, 3], -1.0, 1.0),
        rng.tensor(&[2, 2], -1.0, 1.0),
    );
    let d = rng.tensor(&[2, 5], -1.0, 1.0);
    let op = Op::new("concat_grad")
        .input("X", &["a", "b"])
        .input("Out@GRAD", &["d"])
        .output("X@GRAD", &["a@GRAD", "b@GRAD"])
        .attr("axis", AttrValue::Int(1));
    let got = run_ops(
        &[op],
        &[("a".into(), a), ("b".into(), b), ("d".into(), d.clone())],
        &["a@GRAD".into(), "b@GRAD".into()],
    );
    let dv = d.values::<f64>().expect("f64");
    let want_a: Vec<f64> = (0..2).flat_map(|r| dv[r * 5..r * 5 + 3].to_vec()).collect();
    let want_b: Vec<f64> = (0..2)
        .flat_map(|r| dv[r * 5 + 3..r * 5 + 5].to_vec())
        .collect();
    assert_eq!(got[0].values::<f64>(), Some(&want_a[..]));
    assert_eq!(got[1].values::<f64>(), Some(&want_b[..]));
    let _ = HashMap::<(), ()>::new();
}

#[test]
fn layer_grads_match_finite_differences() {
    let mut rng = Rng(29);
    Case::new("top_k")
        .input("X", rng.tensor(&[3, 5], -1.0, 1.0))
        .attr("k", AttrValue::Int(2))
        .outputs(&["Out", "Indices"])
        .check(&mut rng);
    for ty in ["lookup_table", "lookup_table_v2"] {
        let ids = if ty == "lookup_table" {
            labels(&[4, 1], vec![1, 0, 3, 1])
        } else {
            labels(&[2, 2], vec![1, 0, 3, 1])
        };
        Case::new(ty)
            .input("W", rng.tensor(&[5, 3], -1.0, 1.0))
            .input("Ids", ids)
            .attr("padding_idx", AttrValue::Long(3))
            .constant("Ids")
            .check(&mut rng);
    }
    for (strides, pads, dil, groups) in [
        (vec![1, 1], vec![0, 0], vec![1, 1], 1),
        (vec![2, 1], vec![1, 1], vec![1, 1], 1),
        (vec![1, 1], vec![1, 0, 2, 1], vec![2, 1], 2),
    ] {
        Case::new("conv2d")
            .input("Input", rng.tensor(&[2, 2, 5, 5], -1.0, 1.0))
            .input("Filter", rng.tensor(&[4, 2 / groups, 3, 2], -1.0, 1.0))
            .attr("strides", AttrValue::Ints(strides))
            .attr("paddings", AttrValue::Ints(pads))
            .attr("dilations", AttrValue::Ints(dil))
            .attr("groups", AttrValue::Int(groups as i32))
            .outputs(&["Output"])
            .check(&mut rng);
    }
    for (ty, ksize, strides, pads, ceil, exclusive, global, adaptive) in [
        (
            "max",
            vec![2, 2],
            vec![2, 2],
            vec![0, 0],
            false,
            true,
            false,
            false,
        ),
        (
            "avg",
            vec![3, 3],
            vec![2, 2],
            vec![1, 1],
            false,
            true,
            false,
            false,
        ),
        (
            "avg",
            vec![3, 3],
            vec![2, 2],
            vec![1, 1],
            true,
            false,
            false,
            false,
        ),
        (
            "max",
            vec![2, 2],
            vec![2, 2],
            vec![0, 0],
            true,
            true,
            false,
            false,
        ),
        (
            "avg",
            vec![1, 1],
            vec![1, 1],
            vec![0, 0],
            false,
            true,
            true,
            false,
        ),
        (
            "max",
            vec![2, 3],
            vec![1, 1],
            vec![0, 0],
            false,
            true,
            false,
            true,
        ),
    ] {
        Case::new("pool2d")
            .input("X", rng.tensor(&[2, 2, 5, 5], -1.0, 1.0))
            .attr("pooling_type", AttrValue::String(ty.into()))
            .attr("ksize", AttrValue::Ints(ksize))
            .attr("strides", AttrValue::Ints(strides))
            .attr("paddings", AttrValue::Ints(pads))
            .attr("ceil_mode", AttrValue::Bool(ceil))
            .attr("exclusive", AttrValue::Bool(exclusive))
            .attr("global_pooling", AttrValue::Bool(global))
            .attr("adaptive", AttrValue::Bool(adaptive))
            .check(&mut rng);
    }
    for is_test in [false, true] {
        Case::new("batch_norm")
            .input("X", rng.tensor(&[3, 2, 2, 2], -1.0, 1.0))
            .input("Scale", rng.tensor(&[2], 0.5, 1.5))
            .input("Bias", rng.tensor(&[2], -1.0, 1.0))
            .input("Mean", rng.tensor(&[2], -0.5, 0.5))
            .input("Variance", rng.tensor(&[2], 0.5, 1.5))
            .attr("is_test", AttrValue::Bool(is_test))
            .outputs(&["Y", "MeanOut", "VarianceOut", "SavedMean", "SavedVariance"])
            .constant("Mean")
            .constant("Variance")
            .check(&mut rng);
    }
    for implementation in ["downgrade_in_infer", "upscale_in_train"] {
        Case::new("dropout")
            .input("X", rng.tensor(&[4, 5], -1.0, 1.0))
            .attr("dropout_prob", AttrValue::Float(0.3))
            .attr("fix_seed", AttrValue::Bool(true))
            .attr("seed", AttrValue::Int(5))
            .attr(
                "dropout_implementation",
                AttrValue::String(implementation.into()),
            )
            .outputs(&["Out", "Mask"])
            .check(&mut rng);
    }
}

#[test]
fn select_output_routes_the_gradient_to_the_chosen_branch() {
    let x = Tensor::from_vec(&[2], vec![1.5f64, -2.0]).expect("x");
    let mask = Tensor::from_vec(&[1], vec![1i32]).expect("mask");
    let op = Op::new("select_output")
        .input("X", &["x"])
        .input("Mask", &["mask"])
        .output("Out", &["a", "b"]);
    let got = run_ops(
        &[op],
        &[("x".into(), x.clone()), ("mask".into(), mask)],
        &["b".into()],
    );
    assert_eq!(got[0], x);
}

#[test]
fn sequence_grads_match_finite_differences() {
    let mut rng = Rng(41);
    // Three sequences of 2, 0 and 3 rows (an empty one pads).
    let x = || rng_tensor_with_lod(&mut Rng(43), &[5, 2], vec![vec![0, 2, 2, 5]]);
    for pool in ["AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST"] {
        Case::new("sequence_pool")
            .input("X", x())
            .outputs(&["Out", "MaxIndex"])
            .attr("pooltype", AttrValue::String(pool.into()))
            .check(&mut rng);
    }
    // Windows of 3 rows from one before (padding at both ends), and of 4
    // from two before, over sequences of 2, 0 and 3 rows.
    for (start, length) in [(-1, 3), (-2, 4)] {
        Case::new("sequence_conv")
            .input("X", x())
            .input("Filter", rng.tensor(&[length * 2, 3], -1.0, 1.0))
            .attr("contextStart", AttrValue::Int(start))
            .attr("contextLength", AttrValue::Int(length as i32))
            .check(&mut rng);
    }
    Case::new("sequence_softmax")
        .input(
            "X",
            rng_tensor_with_lod(&mut rng, &[5, 1], vec![vec![0, 2, 2, 5]]),
        )
        .check(&mut rng);
    let label = Tensor::from_vec(&[2, 3], vec![0.0, 1.0, 0.3, -100.0, 1.0, 0.0]).expect("label");
    for normalize in [false, true] {
        Case::new("sigmoid_cross_entropy_with_logits")
            .input("X", rng.tensor(&[2, 3], -3.0, 3.0))
            .input("Label", label.clone())
            .attr("normalize", AttrValue::Bool(normalize))
            .constant("Label")
            .check(&mut rng);
    }
}

/// The RNN cells: `gru_unit` in both modes and with each smooth
/// activation (its Weight read as Paddle reads it), `lstm` and `gru` over
/// LoD sequences, and `lstm_unit` with a forget bias.
#[test]
fn rnn_cell_grads_match_finite_differences() {
    let mut rng = Rng(47);
    let (batch, frame) = (3, 4);
    for (origin, act, gate_act) in [(false, 2, 1), (true, 2, 1), (false, 0, 1), (true, 1, 2)] {
        Case::new("gru_unit")
            .input("Input", rng.tensor(&[batch, 3 * frame], -1.0, 1.0))
            .input("HiddenPrev", rng.tensor(&[batch, frame], -1.0, 1.0))
            .input("Weight", rng.tensor(&[frame, 3 * frame], -1.0, 1.0))
            .input("Bias", rng.tensor(&[1, 3 * frame], -0.5, 0.5))
            .outputs(&["Gate", "ResetHiddenPrev", "Hidden"])
            .attr("origin_mode", AttrValue::Bool(origin))
            .attr("activation", AttrValue::Int(act))
            .attr("gate_activation", AttrValue::Int(gate_act))
            .check(&mut rng);
    }
    // dynamic_lstm's op over sequences of 2, 3 and 1 rows, from H0 and C0,
    // with peepholes and without, forwards and reversed.
    let d = 3;
    for (peepholes, reverse, candidate) in [(true, false, "tanh"), (false, true, "identity")] {
        let bias_width = if peepholes { 7 * d } else { 4 * d };
        Case::new("lstm")
            .input(
                "Input",
                rng_tensor_with_lod(&mut rng, &[6, 4 * d], vec![vec![0, 2, 5, 6]]),
            )
            .input("Weight", rng.tensor(&[d, 4 * d], -1.0, 1.0))
            .input("Bias", rng.tensor(&[1, bias_width], -0.5, 0.5))
            .input("H0", rng.tensor(&[3, d], -1.0, 1.0))
            .input("C0", rng.tensor(&[3, d], -1.0, 1.0))
            .outputs(&["Hidden", "Cell", "BatchGate", "BatchCellPreAct"])
            .attr("use_peepholes", AttrValue::Bool(peepholes))
            .attr("is_reverse", AttrValue::Bool(reverse))
            .attr("candidate_activation", AttrValue::String(candidate.into()))
            .check(&mut rng);
    }
    // dynamic_gru's op likewise, in both modes, from H0 and from zeros.
    for (origin, reverse, with_h0) in [(false, false, true), (true, true, false)] {
        let mut case = Case::new("gru")
            .input(
                "Input",
                rng_tensor_with_lod(&mut rng, &[6, 3 * d], vec![vec![0, 2, 5, 6]]),
            )
            .input("Weight", rng.tensor(&[d, 3 * d], -1.0, 1.0))
            .input("Bias", rng.tensor(&[1, 3 * d], -0.5, 0.5));
        if with_h0 {
            case = case.input("H0", rng.tensor(&[3, d], -1.0, 1.0));
        }
        case.outputs(&["Hidden", "BatchGate", "BatchResetHiddenPrev", "BatchHidden"])
            .attr("origin_mode", AttrValue::Bool(origin))
            .attr("is_reverse", AttrValue::Bool(reverse))
            .check(&mut rng);
    }
    Case::new("lstm_unit")
        .input("X", rng.tensor(&[batch, 4 * frame], -2.0, 2.0))
        .input("C_prev", rng.tensor(&[batch, frame], -1.0, 1.0))
        .outputs(&["C", "H"])
        .attr("forget_bias", AttrValue::Float(0.5))
        .check(&mut rng);
}

/// `cos_sim` (Paddle 1.x's, fluidc-only): rows against rows, rows against
/// a one-row `Y` (whose gradient adds up every row's), and rows of rank 3
/// (compared whole).
#[test]
fn cos_sim_grads_match_finite_differences() {
    let mut rng = Rng(53);
    for (x, y) in [
        (vec![4, 5], vec![4, 5]),
        (vec![4, 5], vec![1, 5]),
        (vec![3, 2, 3], vec![3, 2, 3]),
        (vec![1, 3], vec![1, 3]),
    ] {
        Case::new("cos_sim")
            .input("X", rng.tensor(&x, -1.0, 1.0))
            .input("Y", rng.tensor(&y, -1.0, 1.0))
            .outputs(&["Out", "XNorm", "YNorm"])
            .check(&mut rng);
    }
}

/// `bilinear_tensor_product`: with a bias and without, one sample and
/// several, against finite differences in every input.
#[test]
fn bilinear_tensor_product_grads_match_finite_differences() {
    let mut rng = Rng(67);
    for (b, m, n, s, bias) in [(3, 4, 2, 3, true), (1, 2, 3, 2, false), (2, 1, 1, 1, true)] {
        let mut case = Case::new("bilinear_tensor_product")
            .input("X", rng.tensor(&[b, m], -1.0, 1.0))
            .input("Y", rng.tensor(&[b, n], -1.0, 1.0))
            .input("Weight", rng.tensor(&[s, m, n], -1.0, 1.0));
        if bias {
            case = case.input("Bias", rng.tensor(&[1, s], -1.0, 1.0));
        }
        case.outputs(&["Out"]).check(&mut rng);
    }
}

/// `add_position_encoding` on a padded batch and on a LoD batch, and
/// `scatter_nd_add` with a slice addressed twice, against finite
/// differences.
#[test]
fn position_encoding_and_scatter_nd_add_grads_match_finite_differences() {
    let mut rng = Rng(71);
    Case::new("add_position_encoding")
        .input("X", rng.tensor(&[2, 3, 4], -1.0, 1.0))
        .attr("alpha", AttrValue::Float(0.5))
        .attr("beta", AttrValue::Float(2.0))
        .check(&mut rng);
    Case::new("add_position_encoding")
        .input(
            "X",
            rng.tensor(&[5, 2], -1.0, 1.0).with_lod(vec![vec![0, 3, 5]]),
        )
        .attr("alpha", AttrValue::Float(1.5))
        .attr("beta", AttrValue::Float(1.0))
        .check(&mut rng);
    let index = Tensor::from_vec(&[3, 1], vec![2i64, 0, 2]).expect("index");
    Case::new("scatter_nd_add")
        .input("X", rng.tensor(&[4, 2], -1.0, 1.0))
        .input("Index", index)
        .input("Updates", rng.tensor(&[3, 2], -1.0, 1.0))
        .check(&mut rng);
}

/// `linear_chain_crf` (Paddle 1.x's, fluidc-only): the cost of sequences
/// of 2, 0, 3 and 1 rows over 3 tags, and of one long sequence with large
/// emissions (where the forward vectors must be renormalized), against
/// finite differences in both the emissions and the transitions.
#[test]
fn linear_chain_crf_grads_match_finite_differences() {
    let mut rng = Rng(61);
    let d = 3;
    for (lod, scale, tags) in [
        (vec![0, 2, 2, 5, 6], 1.0, vec![0i64, 2, 1, 1, 0, 2]),
        (vec![0, 7], 20.0, vec![2, 2, 0, 1, 0, 0, 1]),
    ] {
        let n = *lod.last().expect("rows") as i64;
        let label = Tensor::from_vec(&[n, 1], tags)
            .expect("label")
            .with_lod(vec![lod.clone()]);
        Case::new("linear_chain_crf")
            .input(
                "Emission",
                rng.tensor(&[n, d], -scale, scale).with_lod(vec![lod]),
            )
            .input("Transition", rng.tensor(&[d + 2, d], -1.0, 1.0))
            .input("Label", label)
            .outputs(&["Alpha", "EmissionExps", "TransitionExps", "LogLikelihood"])
            .constant("Label")
            .check(&mut rng);
    }
}

/// `sequence_expand`: sequences of `X` (2, 0 and 1 rows) repeated by `Y`'s
/// level 0 (3, 1 and 0 times), rows of a plain `X` by `Y`'s last level
/// (the default), and by a level-0 that repeats one row four times; each
/// unit's gradient is the sum over its copies.
#[test]
fn sequence_expand_grads_match_finite_differences() {
    let mut rng = Rng(59);
    let y = |lod: Vec<Vec<usize>>| {
        let rows = *lod.last().and_then(|l| l.last()).unwrap_or(&0);
        Tensor::from_vec(&[rows as i64, 1], vec![0.0f64; rows])
            .expect("y")
            .with_lod(lod)
    };
    let cases = [
        (
            rng_tensor_with_lod(&mut rng, &[3, 2], vec![vec![0, 2, 2, 3]]),
            y(vec![vec![0, 3, 4, 4], vec![0, 1, 2, 3, 4]]),
            0,
        ),
        (
            rng.tensor(&[3, 2, 2], -1.0, 1.0),
            y(vec![vec![0, 1], vec![0, 2, 3, 6]]),
            -1,
        ),
        (rng.tensor(&[2, 3], -1.0, 1.0), y(vec![vec![0, 4, 4]]), 0),
    ];
    for (x, y, ref_level) in cases {
        Case::new("sequence_expand")
            .input("X", x)
            .input("Y", y)
            .attr("ref_level", AttrValue::Int(ref_level))
            .constant("Y")
            .check(&mut rng);
    }
}

/// 1.x's `sequence_pad` (sequences of 2, 0 and 3 rows padded to 4 with
/// one step; two LoD levels padded by level 0, to the longest) and
/// `sequence_unpad` (lengths 1, 3 and 0 of 3 padded steps, and of a
/// rank-2 `X`): padding takes no gradient, unpadding's pads with zeros.
#[test]
fn sequence_pad_grads_match_finite_differences() {
    let mut rng = Rng(61);
    let step = Tensor::from_vec(&[2], vec![0.5f64, -0.5]).expect("pad");
    let scalar = Tensor::from_vec(&[1], vec![2.0f64]).expect("pad");
    let cases = [
        (
            rng_tensor_with_lod(&mut rng, &[5, 2], vec![vec![0, 2, 2, 5]]),
            step,
            4,
        ),
        (
            rng_tensor_with_lod(&mut rng, &[6, 1, 2], vec![vec![0, 2, 3], vec![0, 1, 3, 6]]),
            scalar,
            -1,
        ),
    ];
    for (x, pad, padded_length) in cases {
        Case::new("sequence_pad")
            .input("X", x)
            .input("PadValue", pad)
            .outputs(&["Out", "Length"])
            .attr("padded_length", AttrValue::Int(padded_length))
            .constant("PadValue")
            .check(&mut rng);
    }
    for shape in [vec![3, 3, 2], vec![3, 3]] {
        Case::new("sequence_unpad")
            .input("X", rng.tensor(&shape, -1.0, 1.0))
            .input("Length", labels(&[3], vec![1, 3, 0]))
            .check(&mut rng);
    }
}

/// 1.x's sequence editing ops: `sequence_reverse` (its grad the op
/// itself, on `Y@GRAD` with `Y`'s LoD), `sequence_slice` (int64 offsets
/// and lengths, an empty slice), `sequence_reshape` (widths 2 to 4) and
/// `sequence_expand_as` (a row copied 0 times).
#[test]
fn sequence_edit_grads_match_finite_differences() {
    let mut rng = Rng(67);
    Case::new("sequence_reverse")
        .input(
            "X",
            rng_tensor_with_lod(&mut rng, &[5, 2], vec![vec![0, 2, 2, 5]]),
        )
        .outputs(&["Y"])
        .check(&mut rng);
    Case::new("sequence_slice")
        .input(
            "X",
            rng_tensor_with_lod(&mut rng, &[6, 2], vec![vec![0, 3, 5, 6]]),
        )
        .input("Offset", labels(&[3, 1], vec![1, 0, 1]))
        .input("Length", labels(&[3, 1], vec![2, 1, 0]))
        .check(&mut rng);
    Case::new("sequence_reshape")
        .input(
            "X",
            rng_tensor_with_lod(&mut rng, &[6, 2], vec![vec![0, 2, 6]]),
        )
        .attr("new_dim", AttrValue::Int(4))
        .check(&mut rng);
    let y = Tensor::from_vec(&[5, 1], vec![0.0f64; 5])
        .expect("y")
        .with_lod(vec![vec![0, 2, 2, 5]]);
    Case::new("sequence_expand_as")
        .input("X", rng.tensor(&[3, 2], -1.0, 1.0))
        .input("Y", y)
        .constant("Y")
        .check(&mut rng);
}

/// `sequence_concat` is linear: fed distinct values, each row of `Out`
/// names the element it came from, so `X@GRAD` of `L = sum(W * Out)` is
/// `W` at the place each element went (an input with an empty sequence
/// included, and a gradient not wanted).
#[test]
fn sequence_concat_grad_routes_each_row_back() {
    let a = Tensor::from_vec(&[3, 2], (0..6).map(f64::from).collect::<Vec<_>>())
        .expect("a")
        .with_lod(vec![vec![0, 1, 3]]);
    let b = Tensor::from_vec(&[2, 2], (6..10).map(f64::from).collect::<Vec<_>>())
        .expect("b")
        .with_lod(vec![vec![0, 0, 2]]);
    let c = Tensor::from_vec(&[1, 2], vec![10.0f64, 11.0])
        .expect("c")
        .with_lod(vec![vec![0, 1, 1]]);
    let feeds = vec![
        ("a".to_string(), a),
        ("b".to_string(), b),
        ("c".to_string(), c),
    ];
    let forward = Op::new("sequence_concat")
        .input("X", &["a", "b", "c"])
        .output("Out", &["out"]);
    let out = &run_ops(&[forward], &feeds, &["out".into()])[0];
    assert_eq!(out.lod(), &[vec![0, 2, 6]]);
    let mut rng = Rng(71);
    let w = rng
        .tensor(out.shape(), -1.0, 1.0)
        .with_lod(out.lod().to_vec());
    let mut want = [0.0f64; 12];
    let (ov, wv) = (
        out.values::<f64>().expect("f64"),
        w.values::<f64>().expect("f64"),
    );
    for (o, g) in ov.iter().zip(wv) {
        want[*o as usize] = *g;
    }
    let grad = Op::new("sequence_concat_grad")
        .input("X", &["a", "b", "c"])
        .input("Out@GRAD", &["w"])
        .output("X@GRAD", &["a@GRAD", "@EMPTY@", "c@GRAD"]);
    let mut feeds = feeds;
    feeds.push(("w".into(), w));
    let got = run_ops(&[grad], &feeds, &["a@GRAD".into(), "c@GRAD".into()]);
    assert_eq!(got[0].values::<f64>(), Some(&want[0..6]));
    assert_eq!(got[0].lod(), &[vec![0, 1, 3]]);
    assert_eq!(got[1].values::<f64>(), Some(&want[10..12]));
}

/// `row_conv`: sequences of 1, 3 and 2 rows (shorter and longer than a
/// context of 3), and 1.6's `[B, T, D]` batch without LoD.
#[test]
fn row_conv_grads_match_finite_differences() {
    let mut rng = Rng(73);
    let cases = [
        rng_tensor_with_lod(&mut rng, &[6, 2], vec![vec![0, 1, 4, 6]]),
        rng.tensor(&[2, 3, 2], -1.0, 1.0),
    ];
    for x in cases {
        Case::new("row_conv")
            .input("X", x)
            .input("Filter", rng.tensor(&[3, 2], -1.0, 1.0))
            .check(&mut rng);
    }
}

/// `im2sequence`: overlapping 2x2 patches, and strided 2x3 patches of a
/// padded image (up, left, down, right) that reach past its edge.
#[test]
fn im2sequence_grads_match_finite_differences() {
    let mut rng = Rng(79);
    for (shape, kernels, strides, paddings) in [
        ([2, 2, 3, 3], vec![2, 2], vec![1, 1], vec![0, 0, 0, 0]),
        ([1, 2, 4, 5], vec![2, 3], vec![2, 2], vec![1, 0, 0, 2]),
    ] {
        Case::new("im2sequence")
            .input("X", rng.tensor(&shape, -1.0, 1.0))
            .attr("kernels", AttrValue::Ints(kernels))
            .attr("strides", AttrValue::Ints(strides))
            .attr("paddings", AttrValue::Ints(paddings))
            .check(&mut rng);
    }
}

fn rng_tensor_with_lod(rng: &mut Rng, shape: &[i64], lod: Vec<Vec<usize>>) -> Tensor {
    rng.tensor(shape, -1.0, 1.0).with_lod(lod)
}

/// A DynamicRNN's ops on X of three sequences (lengths 2, 3, 1): the
/// array of steps holds the longest sequences first, turning it back
/// gives X with its LoD, and a shrunk memory's gradient pads with zeros.
#[test]
fn lod_ops_split_and_restore_sequences() {
    let x = Tensor::from_vec(&[6, 1], (0..6).map(f64::from).collect::<Vec<_>>())
        .expect("x")
        .with_lod(vec![vec![0, 2, 5, 6]]);
    let step = |t: i64| Tensor::from_vec(&[1], vec![t]).expect("step");
    let mem = Tensor::from_vec(&[3, 1], vec![7.0, 8.0, 9.0]).expect("mem");
    let dout = Tensor::from_vec(&[2, 1], vec![1.0, 2.0]).expect("dout");
    let ops = [
        Op::new("lod_rank_table")
            .input("X", &["x"])
            .output("Out", &["table"]),
        Op::new("max_sequence_len")
            .input("RankTable", &["table"])
            .output("Out", &["len"]),
        Op::new("lod_tensor_to_array")
            .input("X", &["x"])
            .input("RankTable", &["table"])
            .output("Out", &["steps"]),
        Op::new("read_from_array")
            .input("X", &["steps"])
            .input("I", &["one"])
            .output("Out", &["step1"]),
        Op::new("read_from_array")
            .input("X", &["steps"])
            .input("I", &["two"])
            .output("Out", &["step2"]),
        Op::new("array_to_lod_tensor")
            .input("X", &["steps"])
            .input("RankTable", &["table"])
            .output("Out", &["back"]),
        Op::new("shrink_rnn_memory")
            .input("X", &["mem"])
            .input("I", &["one"])
            .input("RankTable", &["table"])
            .output("Out", &["shrunk"]),
        Op::new("shrink_rnn_memory_grad")
            .input("X", &["mem"])
            .input("Out@GRAD", &["dout"])
            .output("X@GRAD", &["dmem"]),
        Op::new("reorder_lod_tensor_by_rank")
            .input("X", &["mem"])
            .input("RankTable", &["table"])
            .output("Out", &["reordered"]),
    ];
    let feeds = [
        ("x".to_string(), x.clone()),
        ("one".to_string(), step(1)),
        ("two".to_string(), step(2)),
        ("mem".to_string(), mem),
        ("dout".to_string(), dout),
    ];
    let names = [
        "len",
        "step1",
        "step2",
        "back",
        "shrunk",
        "dmem",
        "reordered",
    ];
    let fetch: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let got = run_ops(&ops, &feeds, &fetch);
    let f = |t: &Tensor| t.values::<f64>().expect("f64").to_vec();
    assert_eq!(got[0].values::<i64>(), Some(&[3i64][..]));
    // The table orders (1: length 3), (0: length 2), (2: length 1).
    assert_eq!(f(&got[1]), vec![3.0, 1.0]);
    assert_eq!(f(&got[2]), vec![4.0]);
    assert_eq!(got[3], x);
    assert_eq!(f(&got[4]), vec![7.0, 8.0]);
    assert_eq!(f(&got[5]), vec![1.0, 2.0, 0.0]);
    assert_eq!(f(&got[6]), vec![8.0, 7.0, 9.0]);
}

/// A DynamicRNN's `static_input` of LoD sequences: reordered by the step
/// input's rank table with its LoD (every level), shrunk at each step to
/// the sequences still running with their LoD (1.x's shrink_rnn_memory),
/// the shrunk gradient padded with zeros under the reordered LoD, and the
/// reorder's gradient putting the sequences back by that LoD.
#[test]
fn static_input_sequences_keep_their_lod_through_reorder_and_shrink() {
    let rows = |n: usize| (0..n).map(|v| v as f64).collect::<Vec<_>>();
    // The step input: sequences of 1, 3 and 2 steps, so the table orders
    // them 1, 2, 0.
    let y = Tensor::from_vec(&[6, 1], rows(6))
        .expect("y")
        .with_lod(vec![vec![0, 1, 4, 6]]);
    // The static input: sequences of 2, 1 and 3 rows.
    let x = Tensor::from_vec(&[6, 1], rows(6))
        .expect("x")
        .with_lod(vec![vec![0, 2, 3, 6]]);
    // Two levels: sequence 0 of one sub-sequence (2 rows), 1 of two (1, 2).
    let nested = Tensor::from_vec(&[5, 1], rows(5))
        .expect("nested")
        .with_lod(vec![vec![0, 1, 3], vec![0, 2, 3, 5]]);
    let pair = Tensor::from_vec(&[3, 1], rows(3))
        .expect("pair")
        .with_lod(vec![vec![0, 1, 3]]);
    let step = |t: i64| Tensor::from_vec(&[1], vec![t]).expect("step");
    let dout = Tensor::from_vec(&[4, 1], vec![10.0, 11.0, 12.0, 13.0]).expect("dout");
    let ops = [
        Op::new("lod_rank_table")
            .input("X", &["y"])
            .output("Out", &["table"]),
        Op::new("reorder_lod_tensor_by_rank")
            .input("X", &["x"])
            .input("RankTable", &["table"])
            .output("Out", &["reordered"]),
        Op::new("shrink_rnn_memory")
            .input("X", &["reordered"])
            .input("I", &["one"])
            .input("RankTable", &["table"])
            .output("Out", &["shrunk1"]),
        Op::new("shrink_rnn_memory")
            .input("X", &["reordered"])
            .input("I", &["two"])
            .input("RankTable", &["table"])
            .output("Out", &["shrunk2"]),
        Op::new("shrink_rnn_memory_grad")
            .input("X", &["reordered"])
            .input("Out@GRAD", &["dout"])
            .output("X@GRAD", &["dreordered"]),
        Op::new("reorder_lod_tensor_by_rank_grad")
            .input("X", &["dreordered"])
            .input("RankTable", &["table"])
            .output("Out", &["dx"]),
        Op::new("lod_rank_table")
            .input("X", &["pair"])
            .output("Out", &["pair_table"]),
        Op::new("reorder_lod_tensor_by_rank")
            .input("X", &["nested"])
            .input("RankTable", &["pair_table"])
            .output("Out", &["nested_reordered"]),
    ];
    let feeds = [
        ("y".to_string(), y),
        ("x".to_string(), x),
        ("nested".to_string(), nested),
        ("pair".to_string(), pair),
        ("one".to_string(), step(1)),
        ("two".to_string(), step(2)),
        ("dout".to_string(), dout),
    ];
    let names = [
        "reordered",
        "shrunk1",
        "shrunk2",
        "dreordered",
        "dx",
        "nested_reordered",
    ];
    let fetch: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    let got = run_ops(&ops, &feeds, &fetch);
    let f = |t: &Tensor| t.values::<f64>().expect("f64").to_vec();
    let lod = |t: &Tensor| t.lod().to_vec();
    assert_eq!(f(&got[0]), vec![2.0, 3.0, 4.0, 5.0, 0.0, 1.0]);
    assert_eq!(lod(&got[0]), vec![vec![0, 1, 4, 6]]);
    assert_eq!(f(&got[1]), vec![2.0, 3.0, 4.0, 5.0]);
    assert_eq!(lod(&got[1]), vec![vec![0, 1, 4]]);
    assert_eq!(f(&got[2]), vec![2.0]);
    assert_eq!(lod(&got[2]), vec![vec![0, 1]]);
    assert_eq!(f(&got[3]), vec![10.0, 11.0, 12.0, 13.0, 0.0, 0.0]);
    assert_eq!(lod(&got[3]), vec![vec![0, 1, 4, 6]]);
    assert_eq!(f(&got[4]), vec![0.0, 0.0, 10.0, 11.0, 12.0, 13.0]);
    assert_eq!(f(&got[5]), vec![2.0, 3.0, 4.0, 0.0, 1.0]);
    assert_eq!(lod(&got[5]), vec![vec![0, 2, 3], vec![0, 1, 3, 5]]);
}

#[test]
fn norm_layer_grads_match_finite_differences() {
    let mut rng = Rng(41);
    for (shape, axis, scaled) in [
        (vec![3, 5], 1, true),
        (vec![2, 3, 4], 2, true),
        (vec![2, 3, 2], 1, false),
    ] {
        let cols: i64 = shape[axis as usize..].iter().product();
        let mut case = Case::new("layer_norm").input("X", rng.tensor(&shape, -1.0, 1.0));
        if scaled {
            case = case
                .input("Scale", rng.tensor(&[cols], 0.5, 1.5))
                .input("Bias", rng.tensor(&[cols], -1.0, 1.0));
        }
        case.attr("begin_norm_axis", AttrValue::Int(axis))
            .attr("epsilon", AttrValue::Float(1e-5))
            .outputs(&["Y", "Mean", "Variance"])
            .check(&mut rng);
    }
    for axis in [1, 0, -1] {
        Case::new("norm")
            .input("X", rng.tensor(&[3, 4], -1.0, 1.0))
            .attr("axis", AttrValue::Int(axis))
            .attr("epsilon", AttrValue::Float(1e-10))
            .outputs(&["Out", "Norm"])
            .check(&mut rng);
    }
    for (mode, alpha) in [
        ("all", vec![1]),
        ("channel", vec![1, 3, 1, 1]),
        ("element", vec![1, 3, 2]),
    ] {
        Case::new("prelu")
            .input("X", rng.tensor(&[2, 3, 2], -1.0, 1.0))
            .input("Alpha", rng.tensor(&alpha, 0.1, 0.9))
            .attr("mode", AttrValue::String(mode.into()))
            .check(&mut rng);
    }
    Case::new("label_smooth")
        .input("X", rng.tensor(&[3, 4], 0.0, 1.0))
        .attr("epsilon", AttrValue::Float(0.25))
        .check(&mut rng);
    Case::new("huber_loss")
        .input("X", rng.tensor(&[6, 1], -2.0, 2.0))
        .input("Y", rng.tensor(&[6, 1], -2.0, 2.0))
        .attr("delta", AttrValue::Float(0.75))
        .outputs(&["Out", "Residual"])
        .check(&mut rng);
    Case::new("pad")
        .input("X", rng.tensor(&[2, 3], -1.0, 1.0))
        .attr("paddings", AttrValue::Ints(vec![1, 0, 0, 2]))
        .attr("pad_value", AttrValue::Float(0.5))
        .check(&mut rng);
}

/// `smooth_l1_loss` (Paddle 1.x's, fluidc-only): without weights (sigma
/// 1, rows of rank 3 summed whole) and with inside and outside weights
/// and sigma 3, against finite differences in `X` and `Y` (the weights
/// have no gradient in 1.x). The differences span both the quadratic
/// part (`|d| < 1 / sigma^2`) and the linear one.
#[test]
fn smooth_l1_loss_grads_match_finite_differences() {
    let mut rng = Rng(67);
    Case::new("smooth_l1_loss")
        .input("X", rng.tensor(&[3, 2, 2], -2.0, 2.0))
        .input("Y", rng.tensor(&[3, 2, 2], -2.0, 2.0))
        .outputs(&["Diff", "Out"])
        .check(&mut rng);
    Case::new("smooth_l1_loss")
        .input("X", rng.tensor(&[4, 3], -0.5, 0.5))
        .input("Y", rng.tensor(&[4, 3], -0.5, 0.5))
        .input("InsideWeight", rng.tensor(&[4, 3], 0.0, 2.0))
        .input("OutsideWeight", rng.tensor(&[4, 3], 0.0, 2.0))
        .outputs(&["Diff", "Out"])
        .attr("sigma", AttrValue::Float(3.0))
        .check(&mut rng);
}

/// `margin_rank_loss` and `rank_loss` (Paddle 1.x's, fluidc-only): scores
/// `[N, 1]` with labels +1/-1 (a margin some pairs exceed) and RankNet's
/// labels 0, 0.5 and 1.
#[test]
fn rank_loss_grads_match_finite_differences() {
    let mut rng = Rng(71);
    let column = |v: Vec<f64>| Tensor::from_vec(&[v.len() as i64, 1], v).expect("column");
    Case::new("margin_rank_loss")
        .input("X1", rng.tensor(&[6, 1], -1.0, 1.0))
        .input("X2", rng.tensor(&[6, 1], -1.0, 1.0))
        .input("Label", column(vec![1.0, -1.0, 1.0, 1.0, -1.0, -1.0]))
        .constant("Label")
        .outputs(&["Activated", "Out"])
        .attr("margin", AttrValue::Float(0.3))
        .check(&mut rng);
    Case::new("rank_loss")
        .input("Label", column(vec![0.0, 1.0, 0.5, 1.0, 0.0]))
        .input("Left", rng.tensor(&[5, 1], -2.0, 2.0))
        .input("Right", rng.tensor(&[5, 1], -2.0, 2.0))
        .constant("Label")
        .check(&mut rng);
}

/// `lrn` (AlexNet's local response normalization): windows of 5 channels
/// over 6 (clipped at both ends) and of 3 with other `k`, `alpha`, `beta`.
#[test]
fn lrn_grads_match_finite_differences() {
    let mut rng = Rng(73);
    for (n, k, alpha, beta) in [(5, 2.0, 0.1, 0.75), (3, 0.5, 0.3, 0.5)] {
        Case::new("lrn")
            .input("X", rng.tensor(&[2, 6, 2, 3], -1.5, 1.5))
            .outputs(&["Out", "MidOut"])
            .attr("n", AttrValue::Int(n))
            .attr("k", AttrValue::Float(k))
            .attr("alpha", AttrValue::Float(alpha))
            .attr("beta", AttrValue::Float(beta))
            .check(&mut rng);
    }
}

/// `instance_norm` and `group_norm` (with and without their scale and
/// shift). Paddle 3.3.1's `group_norm_grad` without `Scale` adds a constant
/// to each group's `X@GRAD` (whose true sum over the group is 0, the
/// normalization being shift-invariant); fluidc's equals finite
/// differences, which is what this checks.
#[test]
fn instance_and_group_norm_grads_match_finite_differences() {
    let mut rng = Rng(91);
    Case::new("instance_norm")
        .input("X", rng.tensor(&[2, 3, 2, 2], -1.0, 1.0))
        .input("Scale", rng.tensor(&[3], 0.5, 1.5))
        .input("Bias", rng.tensor(&[3], -0.5, 0.5))
        .outputs(&["Y", "SavedMean", "SavedVariance"])
        .attr("epsilon", AttrValue::Float(1e-5))
        .check(&mut rng);
    Case::new("group_norm")
        .input("X", rng.tensor(&[2, 4, 2, 3], -1.0, 1.0))
        .input("Scale", rng.tensor(&[4], 0.5, 1.5))
        .input("Bias", rng.tensor(&[4], -0.5, 0.5))
        .outputs(&["Y", "Mean", "Variance"])
        .attr("epsilon", AttrValue::Float(1e-5))
        .attr("groups", AttrValue::Int(2))
        .check(&mut rng);
    Case::new("group_norm")
        .input("X", rng.tensor(&[2, 4, 2, 3], -1.0, 1.0))
        .outputs(&["Y", "Mean", "Variance"])
        .attr("epsilon", AttrValue::Float(1e-5))
        .attr("groups", AttrValue::Int(2))
        .check(&mut rng);
}

#[test]
fn conv3d_and_pool3d_grads_match_finite_differences() {
    let mut rng = Rng(37);
    for (ty, strides, pads, dil, groups) in [
        ("conv3d", vec![1, 1, 1], vec![0, 0, 0], vec![1, 1, 1], 1),
        (
            "conv3d",
            vec![2, 1, 1],
            vec![1, 0, 0, 1, 1, 2],
            vec![1, 2, 1],
            2,
        ),
        (
            "conv3d_transpose",
            vec![1, 1, 1],
            vec![0, 0, 0],
            vec![1, 1, 1],
            1,
        ),
        (
            "conv3d_transpose",
            vec![2, 1, 2],
            vec![1, 0, 1],
            vec![1, 1, 2],
            2,
        ),
    ] {
        let filter = if ty == "conv3d" {
            [4, 2 / i64::from(groups), 2, 3, 2]
        } else {
            [2, 4 / i64::from(groups), 2, 3, 2]
        };
        Case::new(ty)
            .input("Input", rng.tensor(&[2, 2, 3, 4, 4], -1.0, 1.0))
            .input("Filter", rng.tensor(&filter, -1.0, 1.0))
            .attr("strides", AttrValue::Ints(strides))
            .attr("paddings", AttrValue::Ints(pads))
            .attr("dilations", AttrValue::Ints(dil))
            .attr("groups", AttrValue::Int(groups))
            .outputs(&["Output"])
            .check(&mut rng);
    }
    for (ty, ksize, strides, pads, ceil, exclusive, global) in [
        (
            "max",
            vec![2, 2, 2],
            vec![2, 2, 2],
            vec![0, 0, 0],
            false,
            true,
            false,
        ),
        (
            "avg",
            vec![2, 3, 3],
            vec![1, 2, 2],
            vec![1, 1, 1],
            false,
            true,
            false,
        ),
        (
            "avg",
            vec![2, 3, 3],
            vec![1, 2, 2],
            vec![0, 1, 1, 0, 0, 1],
            false,
            false,
            false,
        ),
        (
            "max",
            vec![2, 3, 2],
            vec![2, 2, 2],
            vec![0, 0, 0],
            true,
            true,
            false,
        ),
        (
            "avg",
            vec![1, 1, 1],
            vec![1, 1, 1],
            vec![0, 0, 0],
            false,
            true,
            true,
        ),
    ] {
        Case::new("pool3d")
            .input("X", rng.tensor(&[2, 2, 3, 5, 4], -1.0, 1.0))
            .attr("pooling_type", AttrValue::String(ty.into()))
            .attr("ksize", AttrValue::Ints(ksize))
            .attr("strides", AttrValue::Ints(strides))
            .attr("paddings", AttrValue::Ints(pads))
            .attr("ceil_mode", AttrValue::Bool(ceil))
            .attr("exclusive", AttrValue::Bool(exclusive))
            .attr("global_pooling", AttrValue::Bool(global))
            .check(&mut rng);
    }
}

#[test]
fn strided_slice_and_temporal_shift_grads_match_finite_differences() {
    let mut rng = Rng(41);
    for (axes, starts, ends, strides) in [
        (vec![0, 2], vec![0, 1], vec![3, 5], vec![2, 1]),
        (vec![1, 2], vec![3, -1], vec![0, -6], vec![-2, -2]),
        (vec![2], vec![-1], vec![-6], vec![-3]),
    ] {
        Case::new("strided_slice")
            .input("Input", rng.tensor(&[3, 4, 5], -1.0, 1.0))
            .attr("axes", AttrValue::Ints(axes))
            .attr("starts", AttrValue::Ints(starts))
            .attr("ends", AttrValue::Ints(ends))
            .attr("strides", AttrValue::Ints(strides))
            .attr("infer_flags", AttrValue::Ints(vec![1; 3]))
            .check(&mut rng);
    }
    for ratio in [0.25, 0.2] {
        Case::new("temporal_shift")
            .input("X", rng.tensor(&[6, 8, 2, 2], -1.0, 1.0))
            .attr("seg_num", AttrValue::Int(3))
            .attr("shift_ratio", AttrValue::Float(ratio))
            .check(&mut rng);
    }
}

/// `yolov3_loss`'s grad (1.6's kernel) against central differences of
/// its loss: boxes in distinct cells (its grad sets, not sums, a cell's
/// entries), one padding box, label smoothing on and off.
#[test]
fn yolov3_loss_grads_match_finite_differences() {
    let mut rng = Rng(91);
    #[rustfmt::skip]
    let boxes = vec![
        0.2, 0.3, 0.4, 0.5, 0.7, 0.8, 0.2, 0.3,
        0.5, 0.5, 0.6, 0.4, 0.1, 0.9, 0.0, 0.0,
    ];
    for smooth in [true, false] {
        Case::new("yolov3_loss")
            .input("X", rng.tensor(&[2, 14, 3, 3], -2.0, 2.0))
            .input(
                "GTBox",
                Tensor::from_vec(&[2, 2, 4], boxes.clone()).expect("boxes"),
            )
            .input(
                "GTLabel",
                Tensor::from_vec(&[2, 2], vec![1i32, 0, 1, 0]).expect("labels"),
            )
            .input("GTScore", rng.tensor(&[2, 2], 0.5, 1.0))
            .outputs(&["Loss", "ObjectnessMask", "GTMatchMask"])
            .attr("anchors", AttrValue::Ints(vec![10, 14, 23, 27, 37, 58]))
            .attr("anchor_mask", AttrValue::Ints(vec![1, 2]))
            .attr("class_num", AttrValue::Int(2))
            .attr("ignore_thresh", AttrValue::Float(0.5))
            .attr("downsample_ratio", AttrValue::Int(32))
            .attr("use_label_smooth", AttrValue::Bool(smooth))
            .constant("GTBox")
            .constant("GTLabel")
            .constant("GTScore")
            .check(&mut rng);
    }
}

/// `roi_pool` (the max of each bin, through `Argmax`) and `roi_align`
/// (bilinear samples, fixed and adaptive, `aligned` or not) over regions
/// of two images given by the ROIs' LoD, one partly off the map and one
/// under a pixel wide.
#[test]
fn roi_pool_and_roi_align_grads_match_finite_differences() {
    let mut rng = Rng(53);
    let rois = Tensor::from_vec(
        &[4, 4],
        vec![
            0.0, 0.0, 9.0, 7.0, 2.4, 1.2, 7.7, 5.9, 6.0, 4.0, 14.0, 11.0, 3.1, 2.2, 3.5, 2.6,
        ],
    )
    .expect("rois")
    .with_lod(vec![vec![0, 2, 4]]);
    for (ph, pw, scale) in [(2, 3, 0.5), (3, 2, 1.0)] {
        Case::new("roi_pool")
            .input("X", rng.tensor(&[2, 2, 5, 6], -1.0, 1.0))
            .input("ROIs", rois.clone())
            .outputs(&["Out", "Argmax"])
            .attr("pooled_height", AttrValue::Int(ph))
            .attr("pooled_width", AttrValue::Int(pw))
            .attr("spatial_scale", AttrValue::Float(scale))
            .constant("ROIs")
            .check(&mut rng);
    }
    for (ratio, aligned, scale) in [(2, false, 0.5), (-1, false, 0.7), (-1, true, 0.5)] {
        Case::new("roi_align")
            .input("X", rng.tensor(&[2, 2, 5, 6], -1.0, 1.0))
            .input("ROIs", rois.clone())
            .attr("pooled_height", AttrValue::Int(2))
            .attr("pooled_width", AttrValue::Int(3))
            .attr("spatial_scale", AttrValue::Float(scale))
            .attr("sampling_ratio", AttrValue::Int(ratio))
            .attr("aligned", AttrValue::Bool(aligned))
            .constant("ROIs")
            .check(&mut rng);
    }
}

/// `data_norm`'s `X@GRAD` (`Y@GRAD * Scales`: the statistics' own
/// "gradients" are the batch's sums, not derivatives, and are checked
/// against numpy by testdata/run/data_norm.py).
#[test]
fn data_norm_x_grad_matches_finite_differences() {
    let mut rng = Rng(59);
    let stat = |v: [f64; 3]| Tensor::from_vec(&[3], v.to_vec()).expect("stat");
    Case::new("data_norm")
        .input("X", rng.tensor(&[5, 3], -2.0, 2.0))
        .input("BatchSize", stat([10.0, 20.0, 5.0]))
        .input("BatchSum", stat([3.0, -4.0, 1.0]))
        .input("BatchSquareSum", stat([12.0, 9.0, 30.0]))
        .outputs(&["Y", "Means", "Scales"])
        .attr("epsilon", AttrValue::Float(1e-4))
        .constant("BatchSize")
        .constant("BatchSum")
        .constant("BatchSquareSum")
        .check(&mut rng);
}

/// `center_loss`'s `X@GRAD` (`Loss@GRAD * (X - Centers[Label])`, the
/// centers constant as 1.x took them), updating the centers or not.
#[test]
fn center_loss_x_grad_matches_finite_differences() {
    let mut rng = Rng(61);
    for update in [true, false] {
        Case::new("center_loss")
            .input("X", rng.tensor(&[5, 3], -1.0, 1.0))
            .input("Label", labels(&[5, 1], vec![2, 0, 2, 1, 0]))
            .input("Centers", rng.tensor(&[3, 3], -1.0, 1.0))
            .input(
                "CenterUpdateRate",
                Tensor::from_vec(&[1], vec![0.5]).expect("rate"),
            )
            .outputs(&["CentersOut", "SampleCenterDiff", "Loss"])
            .attr("cluster_num", AttrValue::Int(3))
            .attr("need_update", AttrValue::Bool(update))
            .constant("Centers")
            .constant("CenterUpdateRate")
            .check(&mut rng);
    }
}

/// `grid_sampler` (both `X@GRAD` and `Grid@GRAD`, grid points partly off
/// the map, corners aligned as 1.x's or not) and `affine_grid`.
#[test]
fn grid_sampler_and_affine_grid_grads_match_finite_differences() {
    let mut rng = Rng(67);
    for aligned in [true, false] {
        Case::new("grid_sampler")
            .input("X", rng.tensor(&[2, 2, 3, 4], -1.0, 1.0))
            .input("Grid", rng.tensor(&[2, 3, 4, 2], -1.2, 1.2))
            .outputs(&["Output"])
            .attr("align_corners", AttrValue::Bool(aligned))
            .check(&mut rng);
        Case::new("affine_grid")
            .input("Theta", rng.tensor(&[2, 2, 3], -1.0, 1.0))
            .outputs(&["Output"])
            .attr("output_shape", AttrValue::Ints(vec![2, 1, 3, 5]))
            .attr("align_corners", AttrValue::Bool(aligned))
            .check(&mut rng);
    }
}

/// `sequence_scatter`'s `X@GRAD` and `Updates@GRAD` over sequences of 2,
/// 0 and 3 ids (one repeated), each adding to its own row of X.
#[test]
fn sequence_scatter_grads_match_finite_differences() {
    let mut rng = Rng(71);
    let lod = vec![vec![0, 2, 2, 5]];
    Case::new("sequence_scatter")
        .input("X", rng.tensor(&[3, 2, 2], -1.0, 1.0))
        .input(
            "Ids",
            labels(&[5, 1], vec![3, 0, 1, 1, 2]).with_lod(lod.clone()),
        )
        .input("Updates", rng.tensor(&[5, 1], -1.0, 1.0).with_lod(lod))
        .check(&mut rng);
}

/// `lstmp` over sequences of 2, 0 and 3 rows (D 2, P 3): with peepholes,
/// H0 and C0, reversed, and with both clips biting.
#[test]
fn lstmp_grads_match_finite_differences() {
    let mut rng = Rng(73);
    let lod = vec![vec![0, 2, 2, 5]];
    for (peep, reverse, cell_clip, proj_clip, proj_act, with_init) in [
        (true, false, 0.0, 0.0, "tanh", true),
        (false, true, 0.0, 0.0, "identity", false),
        (true, false, 0.3, 0.25, "tanh", false),
    ] {
        let mut c = Case::new("lstmp")
            .input(
                "Input",
                rng.tensor(&[5, 8], -1.0, 1.0).with_lod(lod.clone()),
            )
            .input("Weight", rng.tensor(&[3, 8], -1.0, 1.0))
            .input("ProjWeight", rng.tensor(&[2, 3], -1.0, 1.0))
            .input(
                "Bias",
                rng.tensor(&[1, if peep { 14 } else { 8 }], -1.0, 1.0),
            )
            .outputs(&[
                "Projection",
                "Cell",
                "BatchGate",
                "BatchCellPreAct",
                "BatchHidden",
            ])
            .attr("use_peepholes", AttrValue::Bool(peep))
            .attr("is_reverse", AttrValue::Bool(reverse))
            .attr("cell_clip", AttrValue::Float(cell_clip))
            .attr("proj_clip", AttrValue::Float(proj_clip))
            .attr("proj_activation", AttrValue::String(proj_act.into()));
        if with_init {
            c = c
                .input("H0", rng.tensor(&[3, 3], -1.0, 1.0))
                .input("C0", rng.tensor(&[3, 2], -1.0, 1.0));
        }
        c.check(&mut rng);
    }
}

/// 1.x's `rnn_memory_helper` (its StaticRNN's identity on step outputs and
/// memories): `Out` is `X` with its LoD, its gradient `Out@GRAD`, and
/// zeros shaped like `X` when no gradient reached `Out`
/// (`rnn_memory_helper_op.cc`; u18's `test_rnn_memory_helper_op.py`).
#[test]
fn rnn_memory_helper_is_the_identity_with_its_grad() {
    let mut rng = Rng(71);
    Case::new("rnn_memory_helper")
        .input(
            "X",
            rng_tensor_with_lod(&mut rng, &[4, 3], vec![vec![0, 1, 4]]),
        )
        .check(&mut rng);
    let x = Tensor::from_vec(&[1, 3], vec![1.0f32, 2.0, 3.0])
        .expect("x")
        .with_lod(vec![vec![0, 1]]);
    let dout = Tensor::from_vec(&[1, 3], vec![0.5f32; 3]).expect("dout");
    let ops = [
        Op::new("rnn_memory_helper")
            .input("X", &["x"])
            .output("Out", &["out"]),
        Op::new("rnn_memory_helper_grad")
            .input("X", &["x"])
            .input("Out", &["out"])
            .input("Out@GRAD", &["dout"])
            .output("X@GRAD", &["dx"]),
        Op::new("rnn_memory_helper_grad")
            .input("X", &["x"])
            .input("Out", &["out"])
            .input("Out@GRAD", &[])
            .output("X@GRAD", &["dx0"]),
    ];
    let feeds = [
        ("x".to_string(), x.clone()),
        ("dout".to_string(), dout.clone()),
    ];
    let fetch: Vec<String> = ["out", "dx", "dx0"].iter().map(|s| s.to_string()).collect();
    let got = run_ops(&ops, &feeds, &fetch);
    assert_eq!(got[0], x);
    assert_eq!(got[1], dout);
    assert_eq!(
        got[2],
        Tensor::from_vec(&[1, 3], vec![0.0f32; 3]).expect("zeros")
    );
}

/// 1.6's `roi_perspective_transform`: its grad (to `X`; 1.x's
/// `get_feature_gradient` weights) against finite differences, on two
/// images with an upright, a tilted and a partly off-map quadrilateral.
#[test]
fn roi_perspective_transform_grad_matches_finite_differences() {
    let mut rng = Rng(73);
    let rois = Tensor::from_vec(
        &[3, 8],
        vec![
            1.0, 1.0, 6.0, 1.0, 6.0, 4.0, 1.0, 4.0, // upright, image 0
            1.5, 2.0, 7.5, 0.5, 8.5, 4.5, 2.5, 6.0, // tilted, image 0
            5.0, 3.0, 12.0, 3.0, 12.0, 10.0, 5.0, 10.0, // partly off the map, image 1
        ],
    )
    .expect("rois")
    .with_lod(vec![vec![0, 2, 3]]);
    Case::new("roi_perspective_transform")
        .input("X", rng.tensor(&[2, 2, 6, 8], -1.0, 1.0))
        .input("ROIs", rois)
        .constant("ROIs")
        .outputs(&[
            "Out",
            "Mask",
            "TransformMatrix",
            "Out2InIdx",
            "Out2InWeights",
        ])
        .attr("transformed_height", AttrValue::Int(3))
        .attr("transformed_width", AttrValue::Int(4))
        .attr("spatial_scale", AttrValue::Float(1.0))
        .check(&mut rng);
}
