//! fluidc's training kernels against Paddle 3.3.1's on the same inputs
//! (docs/training.md, "Kernels"): optimizers, forward layers and grad ops, float32 and
//! float64, and the seeded random fills bit for bit (docs/training.md).
//!
//! Each case is one op. One Paddle process builds every case's program
//! with Paddle's own `append_op` (so slots, attribute types and inferred
//! variables are Paddle's), runs it on the given inputs and writes the
//! ProgramDesc and the results; fluidc then decodes each program and runs
//! it in its runtime on the same inputs. Results agree within 1e-5
//! relative (random fills: exactly).
mod common;
use common::*;

use std::process::Command;

use fluidc_runtime::{Session, SessionOptions, Tensor};
use fluidc_transpiler::codec::decode_program;
use fluidc_transpiler::Verified;
use serde_json::{json, Value};

/// Builds and runs each case in Paddle (see the module docs). Reads
/// `cases.json` from the directory given, writes `NAME.pb` and
/// `results.json` there.
const PADDLE_SIDE: &str = r#"
import json, os, sys, warnings
os.environ["FLAGS_enable_pir_api"] = "0"
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")
import numpy as np
import paddle
paddle.enable_static()

out_dir = sys.argv[1]
cases = json.load(open(os.path.join(out_dir, "cases.json")))
results = {}
for case in cases:
    main = paddle.static.Program()
    block = main.global_block()
    feed = {}
    for name, v in case["feeds"].items():
        arr = np.array(v["data"], dtype=v["dtype"]).reshape(v["shape"])
        block.create_var(name=name, shape=arr.shape, dtype=v["dtype"])
        feed[name] = arr
    def var(n):
        return block.var(n) if block.has_var(n) else block.create_var(name=n)
    inputs = {s: [var(n) for n in ns] for s, ns in case["inputs"].items()}
    outputs = {s: [var(n) for n in ns] for s, ns in case["outputs"].items()}
    if case["type"].endswith("_grad"):
        # Grad ops have no Python proto: append the OpDesc directly.
        desc = block.desc.append_op()
        desc.set_type(case["type"])
        for s, ns in case["inputs"].items():
            desc.set_input(s, ns)
        for s, ns in case["outputs"].items():
            desc.set_output(s, ns)
        # A grad op copies its forward op's attributes (with their defaults).
        from paddle.base import core
        attrs = dict(core.get_op_attrs_default_value(case["type"][:-5].encode()))
        attrs.update(case["attrs"])
        from paddle.base.proto import framework_pb2 as pb
        proto = paddle.base.framework.OpProtoHolder.instance().get_op_proto(case["type"][:-5])
        setters = {pb.BOOLEAN: desc._set_bool_attr, pb.INT: desc._set_int32_attr,
                   pb.LONG: desc._set_int64_attr, pb.FLOAT: desc._set_float32_attr,
                   pb.FLOAT64: desc._set_float64_attr, pb.STRING: desc._set_str_attr,
                   pb.INTS: desc._set_int32s_attr, pb.LONGS: desc._set_int64s_attr,
                   pb.FLOATS: desc._set_float32s_attr, pb.STRINGS: desc._set_strs_attr,
                   pb.BOOLEANS: desc._set_bools_attr}
        types = {a.name: a.type for a in proto.attrs}
        for k, v in attrs.items():
            plain = desc._set_bool_attr if isinstance(v, bool) else desc._set_attr
            setters.get(types.get(k), plain)(k, v)
        desc.infer_var_type(block.desc)
        desc.infer_shape(block.desc)
        main._sync_with_cpp()
    else:
        block.append_op(type=case["type"], inputs=inputs, outputs=outputs, attrs=case["attrs"])
    with open(os.path.join(out_dir, case["name"] + ".pb"), "wb") as f:
        f.write(main.desc.serialize_to_string())
    if case.get("session_seed") is not None:
        paddle.seed(case["session_seed"])
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    got = exe.run(main, feed=feed, fetch_list=case["fetch"], scope=scope)
    def entry(g):
        a = np.asarray(g)
        bits = {"float32": "uint32", "float64": "uint64"}.get(str(a.dtype))
        return {"dtype": str(a.dtype), "shape": list(a.shape),
                "data": a.astype("float64").reshape(-1).tolist(),
                "bits": a.view(bits).reshape(-1).tolist() if bits else None}
    results[case["name"]] = [entry(g) for g in got]
json.dump(results, open(os.path.join(out_dir, "results.json"), "w"))
"#;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let v = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        lo + (hi - lo) * ((v >> 11) as f64 / (1u64 << 53) as f64)
    }

    fn values(&mut self, n: usize, lo: f64, hi: f64) -> Vec<f64> {
        (0..n).map(|_| self.uniform(lo, hi)).collect()
    }
}

/// One op run in both: its slots name variables, `feeds` give some of
/// them values, `fetch` lists what to compare.
struct Case {
    name: String,
    ty: &'static str,
    inputs: Vec<(&'static str, Vec<String>)>,
    outputs: Vec<(&'static str, Vec<String>)>,
    attrs: Value,
    feeds: Vec<(String, &'static str, Vec<usize>, Vec<f64>)>,
    fetch: Vec<String>,
    exact: bool,
    session_seed: Option<u64>,
}

impl Case {
    fn new(name: impl Into<String>, ty: &'static str) -> Case {
        Case {
            name: name.into(),
            ty,
            inputs: Vec::new(),
            outputs: Vec::new(),
            attrs: json!({}),
            feeds: Vec::new(),
            fetch: Vec::new(),
            exact: false,
            session_seed: None,
        }
    }

    /// An input slot fed with `data` (variable `<case>_<slot>`).
    fn feed(
        mut self,
        slot: &'static str,
        dtype: &'static str,
        shape: &[usize],
        data: Vec<f64>,
    ) -> Case {
        let var = format!("{}_{slot}", self.name);
        self.inputs.push((slot, vec![var.clone()]));
        self.feeds.push((var, dtype, shape.to_vec(), data));
        self
    }

    /// An input slot that names another slot's variable (an optimizer's
    /// `Param` is its `ParamOut`).
    #[allow(dead_code)]
    fn input_var(mut self, slot: &'static str, var: &str) -> Case {
        self.inputs.push((slot, vec![var.to_string()]));
        self
    }

    /// An output slot writing `var` (a new variable unless an input's),
    /// fetched.
    fn out(mut self, slot: &'static str, var: Option<&str>) -> Case {
        let var = var.map_or_else(|| format!("{}_{slot}", self.name), str::to_string);
        self.outputs.push((slot, vec![var.clone()]));
        self.fetch.push(var);
        self
    }

    /// An output slot that is written but not compared.
    fn out_unchecked(mut self, slot: &'static str) -> Case {
        self.outputs
            .push((slot, vec![format!("{}_{slot}", self.name)]));
        self
    }

    fn attrs(mut self, attrs: Value) -> Case {
        self.attrs = attrs;
        self
    }

    fn exact(mut self) -> Case {
        self.exact = true;
        self
    }

    fn var(&self, slot: &str) -> String {
        format!("{}_{slot}", self.name)
    }

    fn to_json(&self) -> Value {
        let slots = |s: &[(&str, Vec<String>)]| -> Value {
            s.iter()
                .map(|(k, v)| (k.to_string(), json!(v)))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        json!({
            "name": self.name,
            "type": self.ty,
            "inputs": slots(&self.inputs),
            "outputs": slots(&self.outputs),
            "attrs": self.attrs,
            "feeds": self.feeds.iter().map(|(n, d, s, v)| (n.clone(), json!({"dtype": d, "shape": s, "data": v}))).collect::<serde_json::Map<_, _>>(),
            "fetch": self.fetch,
            "session_seed": self.session_seed,
        })
    }

    /// Runs the program Paddle wrote in fluidc's runtime.
    fn run_in_fluidc(&self, dir: &std::path::Path) -> Vec<Tensor> {
        let bytes =
            std::fs::read(dir.join(format!("{}.pb", self.name))).expect("Paddle wrote the program");
        let program = decode_program(&bytes).expect("fluidc decodes Paddle's program");
        let verified = Verified::new(program).unwrap_or_else(|e| panic!("{}: {e:?}", self.name));
        let feeds = self
            .feeds
            .iter()
            .map(|(n, d, s, v)| {
                let shape: Vec<i64> = s.iter().map(|&x| x as i64).collect();
                let t = match *d {
                    "float32" => Tensor::from_vec(&shape, v.iter().map(|&x| x as f32).collect()),
                    "float64" => Tensor::from_vec(&shape, v.clone()),
                    // fluidc holds uint8 (dropout's Mask) as int32.
                    "int32" | "uint8" => {
                        Tensor::from_vec(&shape, v.iter().map(|&x| x as i32).collect())
                    }
                    _ => Tensor::from_vec(&shape, v.iter().map(|&x| x as i64).collect()),
                };
                (n.clone(), t.expect("feed tensor"))
            })
            .collect();
        let mut session = Session::new(SessionOptions {
            seed: self.session_seed,
            workers: Some(1),
            ..SessionOptions::default()
        });
        let got = session
            .run(&verified, feeds, self.fetch.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", self.name));
        got.into_iter().map(|(_, t)| t).collect()
    }
}

/// A tensor's values as f64, whatever its dtype.
fn as_f64(t: &Tensor) -> Vec<f64> {
    t.cast(fluidc_transpiler::VarKind::Fp64)
        .expect("cast")
        .values::<f64>()
        .expect("f64")
        .to_vec()
}

fn float_dtypes() -> [&'static str; 2] {
    ["float32", "float64"]
}

/// Adam's and Lamb's state: (input, output, range of its random values).
const ADAM_STATE: &[(&str, &str, f64, f64)] = &[
    ("Param", "ParamOut", -1.0, 1.0),
    ("Moment1", "Moment1Out", -0.1, 0.1),
    ("Moment2", "Moment2Out", 0.0, 0.01),
];

/// The beta powers of Adam and Lamb, updated in place.
fn beta_pows(c: Case, dt: &'static str, b1: f64, b2: f64) -> Case {
    let c = c
        .feed("Beta1Pow", dt, &[1], vec![b1])
        .feed("Beta2Pow", dt, &[1], vec![b2]);
    let (v1, v2) = (c.var("Beta1Pow"), c.var("Beta2Pow"));
    c.out("Beta1PowOut", Some(&v1))
        .out("Beta2PowOut", Some(&v2))
}

/// The optimizer cases: each state input is also its output (in place).
fn optimizer_cases(rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    let n = [3usize, 4];
    let len = 12;
    for dt in float_dtypes() {
        let state = |c: Case, rng: &mut Rng, slots: &[(&'static str, &'static str, f64, f64)]| {
            let mut c = c;
            for &(input, output, lo, hi) in slots {
                c = c.feed(input, dt, &n, rng.values(len, lo, hi));
                let var = c.var(input);
                c = c.out(output, Some(&var));
            }
            c
        };
        let common = |name: &str, ty: &'static str, rng: &mut Rng| {
            Case::new(format!("{name}_{dt}"), ty)
                .feed("Grad", dt, &n, rng.values(len, -1.0, 1.0))
                .feed("LearningRate", dt, &[1], vec![0.05])
        };
        let c = common("sgd", "sgd", rng);
        cases.push(state(c, rng, &[("Param", "ParamOut", -1.0, 1.0)]));
        for (tag, attrs) in [
            ("momentum", json!({"mu": 0.9})),
            (
                "momentum_nesterov_l2",
                json!({"mu": 0.8, "use_nesterov": true, "regularization_method": "l2_decay", "regularization_coeff": 0.01}),
            ),
        ] {
            let c = common(tag, "momentum", rng).attrs(attrs);
            cases.push(state(
                c,
                rng,
                &[
                    ("Param", "ParamOut", -1.0, 1.0),
                    ("Velocity", "VelocityOut", -0.1, 0.1),
                ],
            ));
        }
        for (tag, attrs) in [
            ("adam", json!({})),
            (
                "adam_eps",
                json!({"beta1": 0.8, "beta2": 0.99, "epsilon": 1e-4}),
            ),
        ] {
            let c = common(tag, "adam", rng).attrs(attrs);
            let c = beta_pows(c, dt, 0.9 * 0.9, 0.999 * 0.999);
            cases.push(state(c, rng, ADAM_STATE));
        }
        let c = common("adamax", "adamax", rng).feed("Beta1Pow", dt, &[1], vec![0.81]);
        cases.push(state(
            c,
            rng,
            &[
                ("Param", "ParamOut", -1.0, 1.0),
                ("Moment", "MomentOut", -0.1, 0.1),
                ("InfNorm", "InfNormOut", 0.0, 0.5),
            ],
        ));
        for (tag, ty, attrs) in [
            ("adagrad", "adagrad", json!({})),
            ("decayed_adagrad", "decayed_adagrad", json!({})),
            (
                "decayed_adagrad_attrs",
                "decayed_adagrad",
                json!({"decay": 0.8, "epsilon": 1e-4}),
            ),
        ] {
            // Paddle has decayed_adagrad's float32 kernel only.
            if ty == "decayed_adagrad" && dt != "float32" {
                continue;
            }
            let c = common(tag, ty, rng).attrs(attrs);
            cases.push(state(
                c,
                rng,
                &[
                    ("Param", "ParamOut", -1.0, 1.0),
                    ("Moment", "MomentOut", 0.0, 0.5),
                ],
            ));
        }
        for (tag, attrs) in [
            ("ftrl", json!({})),
            ("ftrl_l1_l2", json!({"l1": 0.05, "l2": 0.1})),
            (
                "ftrl_lr_power",
                json!({"l1": 0.01, "l2": 0.5, "lr_power": -0.6}),
            ),
        ] {
            // Paddle has ftrl's float32 kernel only.
            if dt != "float32" {
                continue;
            }
            let c = common(tag, "ftrl", rng).attrs(attrs);
            cases.push(state(
                c,
                rng,
                &[
                    ("Param", "ParamOut", -1.0, 1.0),
                    ("SquaredAccumulator", "SquaredAccumOut", 0.1, 1.0),
                    ("LinearAccumulator", "LinearAccumOut", -0.5, 0.5),
                ],
            ));
        }
        for centered in [false, true] {
            let c = common(&format!("rmsprop_{centered}"), "rmsprop", rng)
                .attrs(json!({"centered": centered, "momentum": 0.5}));
            let mut slots = vec![
                ("Param", "ParamOut", -1.0, 1.0),
                ("MeanSquare", "MeanSquareOut", 0.5, 1.0),
                ("Moment", "MomentOut", -0.1, 0.1),
            ];
            // Paddle's optimizer always passes MeanGrad (a no-op uncentered).
            slots.push(("MeanGrad", "MeanGradOut", -0.1, 0.1));
            cases.push(state(c, rng, &slots));
        }
        let c = common("adadelta", "adadelta", rng);
        cases.push(state(
            c,
            rng,
            &[
                ("Param", "ParamOut", -1.0, 1.0),
                ("AvgSquaredGrad", "AvgSquaredGradOut", 0.0, 0.5),
                ("AvgSquaredUpdate", "AvgSquaredUpdateOut", 0.0, 0.5),
            ],
        ));
        for (tag, attrs) in [
            ("lamb", json!({"weight_decay": 0.01})),
            ("lamb_no_decay", json!({"weight_decay": 0.0})),
            (
                "lamb_adapt",
                json!({"weight_decay": 0.0, "always_adapt": true}),
            ),
        ] {
            let c = common(tag, "lamb", rng).attrs(attrs);
            cases.push(state(beta_pows(c, dt, 0.81, 0.998), rng, ADAM_STATE));
        }
    }
    cases
}

/// Forward layers and grad ops.
fn layer_cases(rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    // gather_tree (1.6's BeamSearchDecoder): 3 steps, 2 sources, 3 beams.
    let ids: Vec<f64> = (0..18).map(|i| f64::from(i * 7 % 11)).collect();
    let parents = vec![
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 1.0, 0.0, 2.0, 2.0, 1.0, 0.0, 2.0, 2.0, 2.0, 0.0,
    ];
    for dt in ["int64", "int32"] {
        cases.push(
            Case::new(format!("gather_tree_{dt}"), "gather_tree")
                .feed("Ids", dt, &[3, 2, 3], ids.clone())
                .feed("Parents", dt, &[3, 2, 3], parents.clone())
                .out("Out", None),
        );
    }
    for dt in float_dtypes() {
        let name = |n: &str| format!("{n}_{dt}");
        cases.push(
            Case::new(name("swce"), "softmax_with_cross_entropy")
                .feed("Logits", dt, &[4, 5], rng.values(20, -2.0, 2.0))
                .feed("Label", "int64", &[4, 1], vec![1.0, 0.0, 4.0, 2.0])
                .out("Softmax", None)
                .out("Loss", None),
        );
        cases.push(
            Case::new(name("swce_grad"), "softmax_with_cross_entropy_grad")
                .feed("Softmax", dt, &[2, 3], vec![0.2, 0.3, 0.5, 0.1, 0.1, 0.8])
                .feed("Label", "int64", &[2, 1], vec![2.0, 0.0])
                .feed("Loss@GRAD", dt, &[2, 1], vec![0.5, -1.5])
                .out("Logits@GRAD", None),
        );
        cases.push(
            Case::new(name("top_k"), "top_k")
                .feed("X", dt, &[3, 5], rng.values(15, -1.0, 1.0))
                .attrs(json!({"k": 2}))
                .out("Out", None)
                .out("Indices", None),
        );
        cases.push(
            Case::new(name("accuracy"), "accuracy")
                .feed("Out", dt, &[4, 2], rng.values(8, 0.0, 1.0))
                .feed(
                    "Indices",
                    "int64",
                    &[4, 2],
                    vec![1.0, 0.0, 2.0, 3.0, 4.0, 1.0, 0.0, 2.0],
                )
                .feed("Label", "int64", &[4, 1], vec![0.0, 1.0, 4.0, 1.0])
                .out("Accuracy", None)
                .out("Correct", None)
                .out("Total", None),
        );
        cases.push(
            Case::new(name("lookup"), "lookup_table_v2")
                .feed("W", dt, &[5, 3], rng.values(15, -1.0, 1.0))
                .feed("Ids", "int64", &[2, 2], vec![1.0, 4.0, 0.0, 2.0])
                .attrs(json!({"padding_idx": 2}))
                .out("Out", None),
        );
        // 1.x's layers.one_hot (ids squeezed to [N]), in the dtype asked.
        cases.push(
            Case::new(name("one_hot"), "one_hot_v2")
                .feed("X", "int64", &[2, 3], vec![1.0, 4.0, 0.0, 2.0, 2.0, 3.0])
                .attrs(json!({"depth": 5, "dtype": if dt == "float32" { 5 } else { 6 }}))
                .out("Out", None)
                .exact(),
        );
        cases.push(
            Case::new(name("conv2d"), "conv2d")
                .feed("Input", dt, &[2, 2, 5, 5], rng.values(100, -1.0, 1.0))
                .feed("Filter", dt, &[4, 1, 3, 3], rng.values(36, -1.0, 1.0))
                .attrs(json!({"strides": [2, 1], "paddings": [1, 1], "groups": 2, "dilations": [1, 1]}))
                .out("Output", None),
        );
        cases.push(
            Case::new(name("conv2d_grad"), "conv2d_grad")
                .feed("Input", dt, &[1, 2, 4, 4], rng.values(32, -1.0, 1.0))
                .feed("Filter", dt, &[3, 2, 2, 2], rng.values(24, -1.0, 1.0))
                .feed("Output@GRAD", dt, &[1, 3, 3, 3], rng.values(27, -1.0, 1.0))
                .attrs(json!({"strides": [1, 1], "paddings": [0, 0], "dilations": [1, 1], "groups": 1}))
                .out("Input@GRAD", None)
                .out("Filter@GRAD", None),
        );
        // conv2d_transpose: groups, dilation, stride, 4 paddings, output_size.
        cases.push(
            Case::new(name("conv2d_transpose"), "conv2d_transpose")
                .feed("Input", dt, &[2, 4, 3, 4], rng.values(96, -1.0, 1.0))
                .feed("Filter", dt, &[4, 3, 3, 2], rng.values(72, -1.0, 1.0))
                .attrs(json!({"strides": [2, 3], "paddings": [1, 0, 0, 1], "groups": 2, "dilations": [2, 1], "output_size": [8, 11]}))
                .out("Output", None),
        );
        cases.push(
            Case::new(name("conv2d_transpose_grad"), "conv2d_transpose_grad")
                .feed("Input", dt, &[2, 4, 3, 3], rng.values(72, -1.0, 1.0))
                .feed("Filter", dt, &[4, 1, 3, 3], rng.values(36, -1.0, 1.0))
                .feed("Output@GRAD", dt, &[2, 2, 5, 7], rng.values(140, -1.0, 1.0))
                .attrs(json!({"strides": [2, 2], "paddings": [1, 1], "groups": 2, "dilations": [1, 2]}))
                .out("Input@GRAD", None)
                .out("Filter@GRAD", None),
        );
        cases.push(
            Case::new(
                name("depthwise_conv2d_transpose_grad"),
                "depthwise_conv2d_transpose_grad",
            )
            .feed("Input", dt, &[1, 3, 4, 4], rng.values(48, -1.0, 1.0))
            .feed("Filter", dt, &[3, 1, 3, 3], rng.values(27, -1.0, 1.0))
            .feed("Output@GRAD", dt, &[1, 3, 4, 4], rng.values(48, -1.0, 1.0))
            .attrs(json!({"strides": [1, 1], "paddings": [1, 1], "groups": 3, "dilations": [1, 1]}))
            .out("Input@GRAD", None)
            .out("Filter@GRAD", None),
        );
        for (tag, attrs) in [
            (
                "max",
                json!({"pooling_type": "max", "ksize": [2, 2], "strides": [2, 2], "paddings": [0, 0]}),
            ),
            (
                "avg_pad",
                json!({"pooling_type": "avg", "ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1]}),
            ),
            // Without `exclusive` the padding counts in the divisor. (A
            // ceil_mode window over the edge divides by the whole window
            // as in 1.x, not as in 3.3.1: testdata/fluidc_only/
            // pool2d_ceil_avg_inclusive.py checks that against 1.x's formula.)
            (
                "avg_incl_pad",
                json!({"pooling_type": "avg", "ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1], "exclusive": false}),
            ),
            (
                "adaptive",
                json!({"pooling_type": "max", "ksize": [2, 3], "adaptive": true}),
            ),
        ] {
            cases.push(
                Case::new(name(&format!("pool_{tag}")), "pool2d")
                    .feed("X", dt, &[2, 2, 5, 5], rng.values(100, -1.0, 1.0))
                    .attrs(attrs)
                    .out("Out", None),
            );
        }
        // The running statistics are updated in place (Paddle requires it).
        let bn = Case::new(name("batch_norm"), "batch_norm")
            .feed("X", dt, &[3, 2, 2, 2], rng.values(24, -1.0, 1.0))
            .feed("Scale", dt, &[2], vec![1.2, 0.7])
            .feed("Bias", dt, &[2], vec![0.1, -0.3])
            .feed("Mean", dt, &[2], vec![0.05, -0.1])
            .feed("Variance", dt, &[2], vec![0.9, 1.1])
            .out("Y", None);
        let (mean, var) = (bn.var("Mean"), bn.var("Variance"));
        cases.push(
            bn.out("MeanOut", Some(&mean))
                .out("VarianceOut", Some(&var))
                .out("SavedMean", None)
                .out("SavedVariance", None)
                .out_unchecked("ReserveSpace"),
        );
        cases.push(
            Case::new(name("dropout_seeded"), "dropout")
                .feed("X", dt, &[4, 6], rng.values(24, -1.0, 1.0))
                .attrs(json!({"dropout_prob": 0.35, "fix_seed": true, "seed": 7, "dropout_implementation": "upscale_in_train"}))
                .out("Out", None)
                .out("Mask", None),
        );
        cases.push(
            Case::new(name("dropout_test"), "dropout")
                .feed("X", dt, &[4, 6], rng.values(24, -1.0, 1.0))
                .attrs(json!({"dropout_prob": 0.35, "is_test": true}))
                .out("Out", None)
                .out_unchecked("Mask"),
        );
        cases.push(
            Case::new(name("reshape2"), "reshape2")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"shape": [0, -1]}))
                .out("Out", None)
                .out_unchecked("XShape"),
        );
        cases.push(
            Case::new(name("transpose2"), "transpose2")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"axis": [1, 2, 0]}))
                .out("Out", None)
                .out_unchecked("XShape"),
        );
        let mut concat = Case::new(name("concat"), "concat")
            .feed("X", dt, &[2, 3], rng.values(6, -1.0, 1.0))
            .attrs(json!({"axis": 1}))
            .out("Out", None);
        let second = format!("{}_X2", concat.name);
        concat.inputs[0].1.push(second.clone());
        concat
            .feeds
            .push((second, dt, vec![2, 2], rng.values(4, -1.0, 1.0)));
        cases.push(concat);
        for (ty, attrs) in [
            ("clip", json!({"min": -0.5, "max": 0.4})),
            ("clip_by_norm", json!({"max_norm": 1.0})),
            ("squared_l2_norm", json!({})),
            ("leaky_relu", json!({"alpha": 0.1})),
            ("sign", json!({})),
            ("fill_any_like", json!({"value": 2.5})),
        ] {
            if ty == "clip_by_norm" && dt == "float64" {
                continue; // Paddle's CPU kernel is float32 only
            }
            cases.push(
                Case::new(name(ty), ty)
                    .feed("X", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                    .attrs(attrs)
                    .out("Out", None),
            );
        }
        cases.push(
            Case::new(name("add_grad_axis"), "elementwise_add_grad")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .feed("Y", dt, &[3], rng.values(3, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"axis": 1}))
                .out("X@GRAD", None)
                .out("Y@GRAD", None),
        );
        cases.push(
            Case::new(name("mul_grad"), "mul_grad")
                .feed("X", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                .feed("Y", dt, &[4, 2], rng.values(8, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[3, 2], rng.values(6, -1.0, 1.0))
                .out("X@GRAD", None)
                .out("Y@GRAD", None),
        );
        let bn_x = rng.values(24, -1.0, 1.0);
        cases.push(
            Case::new(name("batch_norm_grad"), "batch_norm_grad")
                .feed("X", dt, &[3, 2, 2, 2], bn_x)
                .feed("Scale", dt, &[2], vec![1.2, 0.7])
                .feed("Bias", dt, &[2], vec![0.1, -0.3])
                .feed("SavedMean", dt, &[2], vec![0.05, -0.1])
                .feed("SavedVariance", dt, &[2], vec![1.3, 0.8])
                .feed("Y@GRAD", dt, &[3, 2, 2, 2], rng.values(24, -1.0, 1.0))
                .out("X@GRAD", None)
                .out("Scale@GRAD", None)
                .out("Bias@GRAD", None),
        );
    }
    cases
}

/// More grad ops, fed Paddle's own slots.
fn grad_cases(rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    for dt in float_dtypes() {
        let name = |n: &str| format!("{n}_{dt}");
        let x = rng.values(100, -1.0, 1.0);
        for (tag, attrs) in [
            (
                "max",
                json!({"pooling_type": "max", "ksize": [2, 2], "strides": [2, 2], "paddings": [0, 0]}),
            ),
            (
                "avg",
                json!({"pooling_type": "avg", "ksize": [3, 3], "strides": [2, 2], "paddings": [1, 1], "exclusive": false}),
            ),
        ] {
            // Out from fluidc's own forward is what Paddle's grad reads too.
            let out = pool_forward(&x, tag);
            cases.push(
                Case::new(name(&format!("pool_grad_{tag}")), "pool2d_grad")
                    .feed("X", dt, &[1, 4, 5, 5], x.clone())
                    .feed("Out", dt, &[1, 4, out.1, out.1], out.0)
                    .feed(
                        "Out@GRAD",
                        dt,
                        &[1, 4, out.1, out.1],
                        rng.values(4 * out.1 * out.1, -1.0, 1.0),
                    )
                    .attrs(attrs)
                    .out("X@GRAD", None),
            );
        }
        for (ty, slot) in [
            ("relu_grad", "Out"),
            ("sigmoid_grad", "Out"),
            ("tanh_grad", "Out"),
            ("leaky_relu_grad", "X"),
            ("square_grad", "X"),
            ("clip_grad", "X"),
        ] {
            let attrs = match ty {
                "leaky_relu_grad" => json!({"alpha": 0.1}),
                "clip_grad" => json!({"min": -0.3, "max": 0.5}),
                _ => json!({}),
            };
            cases.push(
                Case::new(name(ty), ty)
                    .feed(slot, dt, &[3, 4], rng.values(12, -0.9, 0.9))
                    .feed("Out@GRAD", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                    .attrs(attrs)
                    .out("X@GRAD", None),
            );
        }
        let sm = {
            let v = rng.values(12, 0.1, 1.0);
            let mut out = Vec::new();
            for r in v.chunks(4) {
                let t: f64 = r.iter().sum();
                out.extend(r.iter().map(|x| x / t));
            }
            out
        };
        cases.push(
            Case::new(name("softmax_grad"), "softmax_grad")
                .feed("Out", dt, &[3, 4], sm.clone())
                .feed("Out@GRAD", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("cross_entropy_grad"), "cross_entropy_grad")
                .feed("X", dt, &[3, 4], sm)
                .feed("Label", "int64", &[3, 1], vec![2.0, 0.0, 3.0])
                .feed("Y@GRAD", dt, &[3, 1], rng.values(3, -1.0, 1.0))
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("matmul_v2_grad"), "matmul_v2_grad")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .feed("Y", dt, &[4, 5], rng.values(20, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[2, 3, 5], rng.values(30, -1.0, 1.0))
                .out("X@GRAD", None)
                .out("Y@GRAD", None),
        );
        cases.push(
            Case::new(name("mul_grad_broadcast"), "elementwise_mul_grad")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .feed("Y", dt, &[3, 1], rng.values(3, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"axis": 1}))
                .out("X@GRAD", None)
                .out("Y@GRAD", None),
        );
        let (a, b) = (rng.values(12, -1.0, 1.0), rng.values(12, 0.5, 2.0));
        let q: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x / y).collect();
        cases.push(
            Case::new(name("div_grad"), "elementwise_div_grad")
                .feed("X", dt, &[3, 4], a)
                .feed("Y", dt, &[3, 4], b)
                .feed("Out", dt, &[3, 4], q)
                .feed("Out@GRAD", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                .out("X@GRAD", None)
                .out("Y@GRAD", None),
        );
        cases.push(
            Case::new(name("reduce_mean_grad"), "reduce_mean_grad")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[2, 4], rng.values(8, -1.0, 1.0))
                .attrs(json!({"dim": [1]}))
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("mean_grad"), "mean_grad")
                .feed("X", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                .feed("Out@GRAD", dt, &[1], vec![0.7])
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("lookup_grad"), "lookup_table_v2_grad")
                .feed("W", dt, &[5, 3], rng.values(15, -1.0, 1.0))
                .feed("Ids", "int64", &[4], vec![1.0, 4.0, 1.0, 2.0])
                .feed("Out@GRAD", dt, &[4, 3], rng.values(12, -1.0, 1.0))
                .attrs(json!({"padding_idx": 2, "is_sparse": false}))
                .out("W@GRAD", None),
        );
        cases.push(
            Case::new(name("dropout_grad"), "dropout_grad")
                .feed(
                    "Mask",
                    "uint8",
                    &[3, 4],
                    (0..12).map(|i| f64::from(i % 3 != 0)).collect(),
                )
                .feed("Out@GRAD", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                .attrs(json!({"dropout_prob": 0.25, "dropout_implementation": "upscale_in_train"}))
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("top_k_grad"), "top_k_grad")
                .feed("X", dt, &[2, 4], rng.values(8, -1.0, 1.0))
                .feed("Indices", "int64", &[2, 2], vec![3.0, 0.0, 1.0, 2.0])
                .feed("Out@GRAD", dt, &[2, 2], rng.values(4, -1.0, 1.0))
                .attrs(json!({"k": 2}))
                .out("X@GRAD", None),
        );
        for (tag, axis) in [("axis1", 1), ("axis0", 0)] {
            cases.push(
                Case::new(name(&format!("argsort_{tag}")), "argsort")
                    .feed("X", dt, &[3, 4], rng.values(12, -1.0, 1.0))
                    .attrs(json!({ "axis": axis }))
                    .out("Out", None)
                    .out("Indices", None),
            );
        }
        // Each row of Indices a permutation of the row's positions.
        cases.push(
            Case::new(name("argsort_grad"), "argsort_grad")
                .feed("X", dt, &[2, 4], rng.values(8, -1.0, 1.0))
                .feed(
                    "Indices",
                    "int64",
                    &[2, 4],
                    vec![2.0, 0.0, 3.0, 1.0, 1.0, 3.0, 0.0, 2.0],
                )
                .feed("Out@GRAD", dt, &[2, 4], rng.values(8, -1.0, 1.0))
                .attrs(json!({"axis": -1}))
                .out("X@GRAD", None),
        );
        cases.push(
            Case::new(name("reverse"), "reverse")
                .feed("X", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"axis": [0, 2]}))
                .out("Out", None),
        );
        // row_conv (1.6's [B, T, D] batch: fed tensors carry no LoD) and
        // its grad; Paddle 3.3.1's CPU kernels are float32 only.
        if dt == "float32" {
            let (x, f) = (rng.values(24, -1.0, 1.0), rng.values(9, -1.0, 1.0));
            cases.push(
                Case::new(name("row_conv"), "row_conv")
                    .feed("X", dt, &[2, 4, 3], x.clone())
                    .feed("Filter", dt, &[3, 3], f.clone())
                    .out("Out", None),
            );
            cases.push(
                Case::new(name("row_conv_grad"), "row_conv_grad")
                    .feed("X", dt, &[2, 4, 3], x)
                    .feed("Filter", dt, &[3, 3], f)
                    .feed("Out@GRAD", dt, &[2, 4, 3], rng.values(24, -1.0, 1.0))
                    .out("X@GRAD", None)
                    .out("Filter@GRAD", None),
            );
        }
        // im2sequence's grad (padded, strided, overlapping patches: 4 x 2
        // of 2 * 2 * 3 per image); its forward, whose Out has LoD, is
        // compared by testdata/run/im2sequence.py. Paddle 3.3.1's CPU
        // kernels are float32 only.
        if dt == "float32" {
            cases.push(
                Case::new(name("im2sequence_grad"), "im2sequence_grad")
                    .feed("X", dt, &[2, 2, 4, 5], rng.values(80, -1.0, 1.0))
                    .feed("Out@GRAD", dt, &[16, 12], rng.values(16 * 12, -1.0, 1.0))
                    .attrs(json!({"kernels": [2, 3], "strides": [1, 2], "paddings": [1, 0, 0, 1]}))
                    .out("X@GRAD", None),
            );
        }
        // Paddle 3.3.1's CPU lrn kernel is float32 only.
        cases.extend((dt == "float32").then(|| {
            Case::new(name("lrn"), "lrn")
                .feed("X", dt, &[2, 6, 2, 3], rng.values(72, -1.5, 1.5))
                .attrs(json!({"n": 5, "k": 1.0, "alpha": 0.2, "beta": 0.75}))
                .out("Out", None)
                .out("MidOut", None)
        }));
        // 1.x's image_resize: out_shape or scale, corners, align modes.
        let bilinear = ("bilinear_interp", "bilinear_interp_grad");
        let nearest = ("nearest_interp", "nearest_interp_grad");
        for (tag, (ty, grad), attrs, (oh, ow)) in [
            (
                "bilinear",
                bilinear,
                json!({"out_h": 5, "out_w": 7}),
                (5, 7),
            ),
            (
                "bilinear_mode0",
                bilinear,
                json!({"out_h": 7, "out_w": 3, "align_corners": false, "align_mode": 0}),
                (7, 3),
            ),
            (
                "bilinear_mode1",
                bilinear,
                json!({"out_h": 2, "out_w": 9, "align_corners": false, "align_mode": 1}),
                (2, 9),
            ),
            ("bilinear_scale", bilinear, json!({"scale": 1.7}), (5, 6)),
            (
                "nearest",
                nearest,
                json!({"out_h": 6, "out_w": 7, "interp_method": "nearest"}),
                (6, 7),
            ),
            (
                "nearest_no_corners",
                nearest,
                json!({"out_h": 2, "out_w": 8, "interp_method": "nearest", "align_corners": false}),
                (2, 8),
            ),
        ] {
            let x = rng.values(24, -1.0, 1.0);
            cases.push(
                Case::new(name(&format!("interp_{tag}")), ty)
                    .feed("X", dt, &[1, 2, 3, 4], x.clone())
                    .attrs(attrs.clone())
                    .out("Out", None),
            );
            cases.push(
                Case::new(name(&format!("interp_grad_{tag}")), grad)
                    .feed("X", dt, &[1, 2, 3, 4], x)
                    .feed(
                        "Out@GRAD",
                        dt,
                        &[1, 2, oh, ow],
                        rng.values(2 * oh * ow, -1.0, 1.0),
                    )
                    .attrs(attrs)
                    .out("X@GRAD", None),
            );
        }
        for (tag, attrs) in [
            ("last", json!({})),
            ("axis0_exclusive", json!({"axis": 0, "exclusive": true})),
            (
                "axis1_reverse",
                json!({"axis": 1, "reverse": true, "exclusive": true}),
            ),
        ] {
            cases.push(
                Case::new(name(&format!("cumsum_{tag}")), "cumsum")
                    .feed("X", dt, &[3, 4, 2], rng.values(24, -1.0, 1.0))
                    .attrs(attrs.clone())
                    .out("Out", None),
            );
            cases.push(
                Case::new(name(&format!("cumsum_grad_{tag}")), "cumsum_grad")
                    .feed("X", dt, &[3, 4, 2], rng.values(24, -1.0, 1.0))
                    .feed("Out@GRAD", dt, &[3, 4, 2], rng.values(24, -1.0, 1.0))
                    .attrs(attrs)
                    .out("X@GRAD", None),
            );
        }
        // spectral_norm and its grad: 1.x's formula, which is not the
        // exact derivative (finite differences cannot check it).
        for (tag, shape, dim, iters) in [("d0", [3usize, 4, 2], 0, 2), ("d1", [3, 4, 2], 1, 1)] {
            let (h, w) = if dim == 0 { (3, 8) } else { (4, 6) };
            let attrs = json!({"dim": dim, "power_iters": iters, "eps": 1e-12});
            for ty in ["spectral_norm", "spectral_norm_grad"] {
                let mut c = Case::new(name(&format!("{ty}_{tag}")), ty)
                    .feed("Weight", dt, &shape, rng.values(24, -1.0, 1.0))
                    .feed("U", dt, &[h], rng.values(h, -1.0, 1.0))
                    .feed("V", dt, &[w], rng.values(w, -1.0, 1.0))
                    .attrs(attrs.clone());
                c = if ty == "spectral_norm" {
                    c.out("Out", None)
                } else {
                    c.feed("Out@GRAD", dt, &shape, rng.values(24, -1.0, 1.0))
                        .out("Weight@GRAD", None)
                };
                cases.push(c);
            }
        }
        // grid_sampler and affine_grid, corners aligned (1.x's) or not
        // (3.3.1's option), and their grads.
        for aligned in [true, false] {
            let tag = if aligned { "aligned" } else { "centres" };
            let x = rng.values(24, -1.0, 1.0);
            let grid = rng.values(48, -1.2, 1.2);
            let sampler = |ty: &'static str| {
                Case::new(name(&format!("{ty}_{tag}")), ty)
                    .feed("X", dt, &[2, 1, 3, 4], x.clone())
                    .feed("Grid", dt, &[2, 3, 4, 2], grid.clone())
                    .attrs(json!({"mode": "bilinear", "padding_mode": "zeros", "align_corners": aligned}))
            };
            cases.push(sampler("grid_sampler").out("Output", None));
            cases.push(
                sampler("grid_sampler_grad")
                    .feed("Output@GRAD", dt, &[2, 1, 3, 4], rng.values(24, -1.0, 1.0))
                    .out("X@GRAD", None)
                    .out("Grid@GRAD", None),
            );
            let theta = rng.values(12, -1.0, 1.0);
            let attrs = json!({"output_shape": [2, 1, 3, 5], "align_corners": aligned});
            cases.push(
                Case::new(name(&format!("affine_grid_{tag}")), "affine_grid")
                    .feed("Theta", dt, &[2, 2, 3], theta.clone())
                    .attrs(attrs.clone())
                    .out("Output", None),
            );
            cases.push(
                Case::new(name(&format!("affine_grid_grad_{tag}")), "affine_grid_grad")
                    .feed("Theta", dt, &[2, 2, 3], theta)
                    .feed("Output@GRAD", dt, &[2, 3, 5, 2], rng.values(60, -1.0, 1.0))
                    .attrs(attrs)
                    .out("Theta@GRAD", None),
            );
        }
    }
    cases
}

/// fluidc's pool2d of a `[1, 4, 5, 5]` input for the two grad cases (max
/// 2x2 stride 2; avg 3x3 stride 2 pad 1 without exclusive): the values and
/// the output size.
fn pool_forward(x: &[f64], tag: &str) -> (Vec<f64>, usize) {
    let (k, stride, pad, o) = if tag == "max" {
        (2, 2, 0, 2)
    } else {
        (3, 2, 1, 3)
    };
    let mut out = Vec::new();
    for c in 0..4 {
        for oy in 0..o {
            for ox in 0..o {
                let (hs, ws) = ((oy * stride) as isize - pad, (ox * stride) as isize - pad);
                let mut acc: f64 = if tag == "max" { f64::MIN } else { 0.0 };
                for y in hs.max(0)..(hs + k).min(5) {
                    for xx in ws.max(0)..(ws + k).min(5) {
                        let v = x[c * 25 + y as usize * 5 + xx as usize];
                        acc = if tag == "max" { acc.max(v) } else { acc + v };
                    }
                }
                if tag != "max" {
                    let span = |s: isize| ((s + k).min(5 + pad) - s) as f64;
                    acc /= span(hs) * span(ws);
                }
                out.push(acc);
            }
        }
    }
    (out, o)
}

/// Seeded random fills: bit for bit.
fn random_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for dt in float_dtypes() {
        let dtype = if dt == "float32" { 5 } else { 6 };
        cases.push(
            Case::new(format!("uniform_{dt}"), "uniform_random")
                .attrs(json!({"shape": [4, 5], "min": -1.0, "max": 1.0, "seed": 7, "dtype": dtype}))
                .out("Out", None)
                .exact(),
        );
        cases.push(
            Case::new(format!("uniform_diag_{dt}"), "uniform_random")
                .attrs(json!({"shape": [4, 4], "min": -2.0, "max": 3.0, "seed": 11, "dtype": dtype, "diag_num": 3, "diag_step": 4, "diag_val": 5.0}))
                .out("Out", None)
                .exact(),
        );
        cases.push(
            Case::new(format!("gaussian_{dt}"), "gaussian_random")
                .attrs(json!({"shape": [3, 7], "mean": 0.5, "std": 2.0, "seed": 7, "dtype": dtype}))
                .out("Out", None)
                .exact(),
        );
        cases.push(
            Case::new(format!("truncated_{dt}"), "truncated_gaussian_random")
                .attrs(json!({"shape": [5, 6], "mean": 0.0, "std": 1.0, "seed": 7, "dtype": dtype}))
                .out("Out", None)
                .exact(),
        );
    }
    // Seed 0: the session's engine, seeded as `paddle.seed(n)` seeds Paddle's.
    let mut c = Case::new("uniform_session_seed", "uniform_random")
        .attrs(json!({"shape": [3, 4], "min": -1.0, "max": 1.0, "seed": 0, "dtype": 5}))
        .out("Out", None)
        .exact();
    c.session_seed = Some(3);
    cases.push(c);
    cases
}

/// The SSD box ops Paddle 3.3.1 keeps (`runtime/src/ops/boxes.rs`), in
/// both float dtypes: prior boxes and box coding (anchor_generator, whose
/// outputs Paddle leaves untyped here, and multiclass_nms, whose output has
/// a LoD, are compared by `testdata/run/` scripts in float32).
fn box_cases(rng: &mut Rng) -> Vec<Case> {
    let mut cases = Vec::new();
    let boxes = |rng: &mut Rng, n: usize, scale: f64| -> Vec<f64> {
        (0..n)
            .flat_map(|_| {
                let (x, y) = (rng.uniform(0.0, 0.5) * scale, rng.uniform(0.0, 0.5) * scale);
                let (w, h) = (rng.uniform(0.1, 0.5) * scale, rng.uniform(0.1, 0.5) * scale);
                [x, y, x + w, y + h]
            })
            .collect()
    };
    for dt in float_dtypes() {
        let name = |n: &str| format!("{n}_{dt}");
        cases.push(
            Case::new(name("prior_box"), "prior_box")
                .feed("Input", dt, &[1, 2, 3, 4], rng.values(24, -1.0, 1.0))
                .feed("Image", dt, &[1, 1, 12, 18], rng.values(216, 0.0, 1.0))
                .attrs(json!({"min_sizes": [3.0, 5.0], "max_sizes": [6.0, 9.0],
                    "aspect_ratios": [2.0, 3.0], "variances": [0.1, 0.1, 0.2, 0.2],
                    "flip": true, "clip": false, "step_w": 0.0, "step_h": 0.0, "offset": 0.5}))
                .out("Boxes", None)
                .out("Variances", None)
                .exact(),
        );
        cases.push(
            Case::new(name("box_encode"), "box_coder")
                .feed("PriorBox", dt, &[3, 4], boxes(rng, 3, 1.0))
                .feed("PriorBoxVar", dt, &[3, 4], rng.values(12, 0.1, 0.3))
                .feed("TargetBox", dt, &[2, 4], boxes(rng, 2, 1.0))
                .attrs(json!({"code_type": "encode_center_size"}))
                .out("OutputBox", None)
                .exact(),
        );
        // A float64 decode with the `variance` list reads the float
        // attribute through a double pointer in Paddle (1.x's kernel, kept
        // in 3.3.1): past the list's end, undefined; fluidc reads the
        // numbers, so that case is float32 only.
        if dt == "float32" {
            cases.push(
                Case::new(name("box_decode"), "box_coder")
                    .feed("PriorBox", dt, &[3, 4], boxes(rng, 3, 10.0))
                    .feed("TargetBox", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                    .attrs(
                        json!({"code_type": "decode_center_size", "box_normalized": false,
                        "variance": [0.1, 0.1, 0.2, 0.2]}),
                    )
                    .out("OutputBox", None)
                    .exact(),
            );
        }
        cases.push(
            Case::new(name("box_decode_axis1"), "box_coder")
                .feed("PriorBox", dt, &[2, 4], boxes(rng, 2, 1.0))
                .feed("PriorBoxVar", dt, &[2, 4], rng.values(8, 0.1, 0.3))
                .feed("TargetBox", dt, &[2, 3, 4], rng.values(24, -1.0, 1.0))
                .attrs(json!({"code_type": "decode_center_size", "axis": 1}))
                .out("OutputBox", None)
                .exact(),
        );
    }
    cases
}

#[test]
fn kernels_match_paddle() {
    let mut rng = Rng(2024);
    let mut cases = optimizer_cases(&mut rng);
    cases.extend(layer_cases(&mut rng));
    cases.extend(grad_cases(&mut rng));
    cases.extend(random_cases());
    cases.extend(box_cases(&mut rng));
    let dir = temp_dir("kernels_vs_paddle");
    let specs: Vec<Value> = cases.iter().map(Case::to_json).collect();
    std::fs::write(
        dir.join("cases.json"),
        serde_json::to_vec(&specs).expect("json"),
    )
    .expect("write");
    let script = dir.join("paddle_side.py");
    std::fs::write(&script, PADDLE_SIDE).expect("write");
    let out = Command::new(paddle_python())
        .arg(&script)
        .arg(&dir)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "Paddle side failed:\n{}",
        stderr(&out)
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(dir.join("results.json")).expect("results"))
            .expect("json");
    let mut failures = Vec::new();
    for case in &cases {
        let ours = case.run_in_fluidc(&dir);
        let theirs = results[&case.name].as_array().expect("results of the case");
        for ((var, t), p) in case.fetch.iter().zip(&ours).zip(theirs) {
            let shape: Vec<i64> = p["shape"]
                .as_array()
                .expect("shape")
                .iter()
                .map(|d| d.as_i64().expect("dim"))
                .collect();
            if shape != t.shape()
                && !(shape.iter().product::<i64>() == t.numel() as i64 && shape.len() <= 1)
            {
                failures.push(format!(
                    "{}: {var}: shape {:?}, Paddle's {shape:?}",
                    case.name,
                    t.shape()
                ));
                continue;
            }
            if case.exact {
                let theirs: Vec<u64> = p["bits"]
                    .as_array()
                    .expect("bits")
                    .iter()
                    .map(|b| b.as_u64().expect("bits"))
                    .collect();
                let ours: Vec<u64> = match (t.values::<f32>(), t.values::<f64>()) {
                    (Some(v), _) => v.iter().map(|x| u64::from(x.to_bits())).collect(),
                    (_, Some(v)) => v.iter().map(|x| x.to_bits()).collect(),
                    _ => Vec::new(),
                };
                if ours != theirs {
                    failures.push(format!(
                        "{}: {var}: {:?} are not Paddle's values bit for bit",
                        case.name,
                        as_f64(t)
                    ));
                }
                continue;
            }
            let want: Vec<f64> = p["data"]
                .as_array()
                .expect("data")
                .iter()
                .map(|v| v.as_f64().unwrap_or(f64::NAN))
                .collect();
            let got = as_f64(t);
            for (k, (g, w)) in got.iter().zip(&want).enumerate() {
                if (g - w).abs() > 1e-5 * w.abs().max(1e-2) {
                    failures.push(format!("{}: {var}[{k}] = {g}, Paddle's {w}", case.name));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
