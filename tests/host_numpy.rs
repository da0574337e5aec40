//! Differential tests of the host arrays (`fluidc::host`, docs/numpy.md)
//! against the real numpy in the interop venv: printing byte for byte,
//! promotion and arithmetic, reductions, indexing and conversions.
//!
//! The cases are generated here (seeded, so every run is the same), sent to
//! `tests/interop/numpy_oracle.py` as JSON lines, one Python process per
//! test, and numpy's answers are compared with fluidc's. Expected values
//! come only from numpy.
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use fluidc::host::{
    array_repr, array_str, scalar_repr, scalar_str, DType, HostArray, HostError, Scalar,
};
use serde_json::{json, Value};

/// Runs every case through numpy in one process; one answer per case.
fn numpy(cases: &[Value]) -> Vec<Value> {
    let mut child = Command::new(common::paddle_python())
        .arg(common::repo().join("tests/interop/numpy_oracle.py"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("python runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input: String = cases.iter().map(|c| format!("{c}\n")).collect();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = BufReader::new(child.stdout.take().expect("piped stdout"));
    let answers: Vec<Value> = out
        .lines()
        .map(|l| {
            serde_json::from_str(&l.expect("readable line")).expect("numpy_oracle writes JSON")
        })
        .collect();
    writer
        .join()
        .expect("writer thread")
        .expect("stdin written");
    assert!(
        child.wait().expect("python exits").success(),
        "numpy_oracle.py failed"
    );
    assert_eq!(answers.len(), cases.len(), "one answer per case");
    answers
}

/// numpy's answers to one case of `kind` per array.
fn numpy_each(kind: &str, arrays: &[HostArray]) -> Vec<Value> {
    let cases: Vec<Value> = arrays
        .iter()
        .map(|a| json!({"kind": kind, "a": encode(a)}))
        .collect();
    numpy(&cases)
}

/// splitmix64: a small seeded generator, so the cases are the same on
/// every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.unit().max(1e-300), self.unit());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The dtypes the random cases cover. Not uint8: its corners differ
/// from numpy where fluidc has no dtype for numpy's result (math
/// functions of uint8 give float16, sums uint64; docs/numpy.md), and
/// `testdata/numpy/uint8_arrays.py` checks what images use of it; int8
/// likewise (numpy's int16 of int8 with uint8), checked by
/// `testdata/numpy/int8_arrays.py`.
const CHECKED: [DType; 5] = [
    DType::Bool,
    DType::Int32,
    DType::Int64,
    DType::Float32,
    DType::Float64,
];

/// The JSON form of an array (float data as bit patterns).
fn encode(a: &HostArray) -> Value {
    let data: Vec<Value> = match a {
        HostArray::Bool(x) => x.iter().map(|&v| json!(v)).collect(),
        HostArray::Int8(x) => x.iter().map(|&v| json!(v)).collect(),
        HostArray::UInt8(x) => x.iter().map(|&v| json!(v)).collect(),
        HostArray::Int32(x) => x.iter().map(|&v| json!(v)).collect(),
        HostArray::Int64(x) => x.iter().map(|&v| json!(v)).collect(),
        HostArray::Float32(x) => x.iter().map(|&v| json!(v.to_bits())).collect(),
        HostArray::Float64(x) => x.iter().map(|&v| json!(v.to_bits())).collect(),
    };
    json!({"dtype": a.dtype().name(), "shape": a.shape(), "data": data})
}

/// An array from its JSON form.
fn decode(v: &Value) -> HostArray {
    let dtype = DType::from_name(v["dtype"].as_str().expect("dtype"))
        .unwrap_or_else(|| panic!("fluidc has no dtype {}", v["dtype"]));
    let shape: Vec<usize> = v["shape"]
        .as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().expect("dim") as usize)
        .collect();
    let data = v["data"].as_array().expect("data");
    let made = match dtype {
        DType::Bool => HostArray::from_vec(
            &shape,
            data.iter().map(|x| x.as_bool().expect("bool")).collect(),
        ),
        DType::Int8 => HostArray::from_vec(
            &shape,
            data.iter()
                .map(|x| x.as_i64().expect("int") as i8)
                .collect(),
        ),
        DType::UInt8 => HostArray::from_vec(
            &shape,
            data.iter()
                .map(|x| x.as_i64().expect("int") as u8)
                .collect(),
        ),
        DType::Int32 => HostArray::from_vec(
            &shape,
            data.iter()
                .map(|x| x.as_i64().expect("int") as i32)
                .collect(),
        ),
        DType::Int64 => HostArray::from_vec(
            &shape,
            data.iter().map(|x| x.as_i64().expect("int")).collect(),
        ),
        DType::Float32 => HostArray::from_vec(
            &shape,
            data.iter()
                .map(|x| f32::from_bits(x.as_u64().expect("bits") as u32))
                .collect(),
        ),
        DType::Float64 => HostArray::from_vec(
            &shape,
            data.iter()
                .map(|x| f64::from_bits(x.as_u64().expect("bits")))
                .collect(),
        ),
    };
    made.expect("numpy's array is valid")
}

/// A float with a magnitude and form chosen by `style`.
fn float_value(rng: &mut Rng, style: usize, scale: i32) -> f64 {
    match style {
        0 => rng.range(-10, 10) as f64,
        1 => rng.range(-40, 40) as f64 / 8.0,
        2 => rng.normal() * 10f64.powi(scale),
        3 => rng.normal() * 10f64.powf(rng.unit() * 40.0 - 20.0),
        4 => (rng.normal() * 1000.0).round() / 10f64.powi(rng.range(0, 4) as i32),
        5 => loop {
            let f = f64::from_bits(rng.next());
            if f.is_finite() {
                break f;
            }
        },
        6 => {
            let n = rng.normal();
            rng.pick(&[
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                -0.0,
                0.0,
                1.5,
                -2.25,
                n,
            ])
        }
        7 => rng.pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
        8 => rng.pick(&[
            1e-4,
            0.99999e-4,
            1.00001e-4,
            1e8,
            99_999_999.0,
            1e6,
            999_999.0,
            1000.0,
            1.0,
            0.001,
            1e-3 * 1.0001,
            1e16,
            -1e-4,
        ]),
        9 => rng.range(-1_000_000_000, 1_000_000_000) as f64,
        10 => 1.0 / rng.range(1, 30) as f64 * rng.pick(&[1.0, -1.0, 1e3, 1e-3]),
        11 => rng.normal() * 1e-310,
        _ => rng.pick(&[
            f32::MAX as f64,
            f32::MIN_POSITIVE as f64,
            f64::MAX,
            5e-324,
            1e300,
            -1e-300,
        ]),
    }
}

fn random_array(rng: &mut Rng, dtype: DType, shape: &[usize]) -> HostArray {
    let n: usize = shape.iter().product();
    let style = rng.below(13);
    let scale = rng.range(-12, 12) as i32;
    let int_style = rng.below(4);
    let int_value = |rng: &mut Rng| -> i64 {
        match int_style {
            0 => rng.range(-10, 10),
            1 => rng.range(-1_000_000, 1_000_000),
            2 => rng.pick(&[i64::from(i32::MIN), i64::from(i32::MAX), 0, -1, 7]),
            _ => rng.next() as i64,
        }
    };
    let made = match dtype {
        DType::Bool => HostArray::from_vec(shape, (0..n).map(|_| rng.below(2) == 1).collect()),
        DType::Int8 => HostArray::from_vec(shape, (0..n).map(|_| int_value(rng) as i8).collect()),
        DType::UInt8 => HostArray::from_vec(shape, (0..n).map(|_| int_value(rng) as u8).collect()),
        DType::Int32 => HostArray::from_vec(shape, (0..n).map(|_| int_value(rng) as i32).collect()),
        DType::Int64 => {
            let extreme = rng.below(5) == 0;
            HostArray::from_vec(
                shape,
                (0..n)
                    .map(|_| {
                        if extreme {
                            rng.pick(&[i64::MIN, i64::MAX, 3])
                        } else {
                            int_value(rng)
                        }
                    })
                    .collect(),
            )
        }
        DType::Float32 => HostArray::from_vec(
            shape,
            (0..n)
                .map(|_| float_value(rng, style, scale) as f32)
                .collect(),
        ),
        DType::Float64 => HostArray::from_vec(
            shape,
            (0..n).map(|_| float_value(rng, style, scale)).collect(),
        ),
    };
    made.expect("valid shape")
}

const SHAPES: &[&[usize]] = &[
    &[],
    &[0],
    &[1],
    &[2],
    &[3],
    &[5],
    &[7],
    &[12],
    &[30],
    &[1, 1],
    &[2, 3],
    &[3, 2],
    &[4, 4],
    &[1, 7],
    &[6, 1],
    &[2, 25],
    &[0, 3],
    &[3, 0],
    &[2, 2, 2],
    &[2, 3, 4],
    &[3, 1, 2],
    &[1, 1, 9],
    &[2, 2, 2, 2],
    &[1001],
    &[1500],
    &[3, 400],
    &[400, 3],
    &[11, 11, 11],
    &[40, 30],
    &[2, 3, 200],
];

#[test]
fn printing_matches_numpy() {
    let mut rng = Rng(0x5EED_0001);
    let mut arrays = Vec::new();
    for dtype in CHECKED {
        let rounds = if dtype.is_float() { 12 } else { 4 };
        for _ in 0..rounds {
            for shape in SHAPES {
                arrays.push(random_array(&mut rng, dtype, shape));
            }
        }
        // numpy scalars (0-d arrays) of every magnitude.
        for _ in 0..rounds * 25 {
            arrays.push(random_array(&mut rng, dtype, &[]));
        }
    }
    let answers = numpy_each("print", &arrays);
    let mut failures = Vec::new();
    for (a, want) in arrays.iter().zip(&answers) {
        let mut check = |what: &str, got: String| {
            let expected = want[what].as_str().expect("numpy printed");
            if got != expected {
                failures.push(format!(
                    "{what} of {}:\n  numpy:  {expected:?}\n  fluidc: {got:?}",
                    encode(a)
                ));
            }
        };
        check("str", array_str(a));
        check("repr", array_repr(a));
        if a.ndim() == 0 {
            check("scalar_str", scalar_str(a));
            check("scalar_repr", scalar_repr(a));
        }
    }
    let shown: Vec<&String> = failures.iter().take(8).collect();
    assert!(
        failures.is_empty(),
        "{} of {} printing checks differ from numpy:\n{}",
        failures.len(),
        arrays.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn tensors_and_json_round_trip_losslessly() {
    let mut rng = Rng(0x5EED_0002);
    for dtype in CHECKED {
        for shape in SHAPES {
            let a = random_array(&mut rng, dtype, shape);
            let t = a.to_tensor().expect("to tensor");
            let back = HostArray::from_tensor(&t).expect("from tensor");
            assert_eq!(encode(&back), encode(&a));
            assert_eq!(encode(&decode(&encode(&a))), encode(&a));
        }
    }
}

#[test]
fn a_list_of_arrays_prints_each_repr() {
    // Python's list repr joins its elements' reprs; numpy's arrays and
    // scalars give theirs (docs/numpy.md's example).
    let a = HostArray::from_vec(&[2, 1], vec![1.524_803_8f32, 3.049_607_5]).expect("array");
    let b = HostArray::from_vec(&[1], vec![1.693_585_9f32]).expect("array");
    let s = HostArray::scalar(DType::Float32, Scalar::Float(2.5));
    let list = format!(
        "[{}, {}, {}]",
        array_repr(&a),
        array_repr(&b),
        scalar_repr(&s)
    );
    assert_eq!(
        list,
        "[array([[1.5248038],\n       [3.0496075]], dtype=float32), array([1.6935859], dtype=float32), np.float32(2.5)]"
    );
    let _: Option<HostError> = None;
}

// ---------------------------------------------------------------------
// Operations: fluidc's result against numpy's, exactly (dtype, shape,
// every bit; NaNs compare as NaN) or, for transcendental functions, within
// a few units in the last place.

/// How results must agree.
#[derive(Clone, Copy, PartialEq)]
enum Agree {
    /// Same bits (and the same repr).
    Exactly,
    /// Floats within this many units in the last place.
    Ulps(u64),
}

fn ulps_apart(a: f64, b: f64, single: bool) -> u64 {
    if a.is_nan() && b.is_nan() || a == b {
        return 0;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return u64::MAX;
    }
    let key = |x: f64| -> i64 {
        if single {
            let b = (x as f32).to_bits() as i32;
            i64::from(if b < 0 { i32::MIN - b } else { b })
        } else {
            let b = x.to_bits() as i64;
            if b < 0 {
                i64::MIN - b
            } else {
                b
            }
        }
    };
    key(a).abs_diff(key(b))
}

/// Compares fluidc's outcome with numpy's answer; a description of the
/// difference, or `None`.
fn differs(ours: &Result<HostArray, HostError>, numpy: &Value, agree: Agree) -> Option<String> {
    match (ours, numpy.get("error")) {
        (Err(e), Some(err)) => {
            let (kind, message) = (err[0].as_str().unwrap_or(""), err[1].as_str().unwrap_or(""));
            let same_kind =
                kind == e.kind.name() || (e.kind.name() == "AxisError" && kind == "AxisError");
            (!same_kind || message != e.message)
                .then(|| format!("numpy raised {kind}: {message}\n  fluidc raised {e}"))
        }
        (Err(e), None) if e.kind == fluidc::host::ErrorKind::Unsupported => None,
        (_, None) if DType::from_name(numpy["dtype"].as_str().unwrap_or("")).is_none() => {
            Some(format!(
                "numpy gave {}, a dtype fluidc lacks, and fluidc did not say so",
                numpy["repr"]
            ))
        }
        (Err(e), None) => Some(format!("numpy gave {}\n  fluidc raised {e}", numpy["repr"])),
        (Ok(a), Some(err)) => Some(format!(
            "numpy raised {err}\n  fluidc gave {}",
            array_repr(a)
        )),
        (Ok(a), None) => {
            let want = decode(numpy);
            let shown = || {
                format!(
                    "numpy gave {}\n  fluidc gave {}",
                    numpy["repr"],
                    array_repr(a)
                )
            };
            if want.dtype() != a.dtype() || want.shape() != a.shape() {
                return Some(shown());
            }
            let single = a.dtype() == DType::Float32;
            let same = match agree {
                _ if !a.dtype().is_float() => encode(a) == encode(&want),
                Agree::Exactly => a
                    .to_vec::<f64>()
                    .iter()
                    .zip(want.to_vec::<f64>())
                    .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())),
                Agree::Ulps(n) => a
                    .to_vec::<f64>()
                    .iter()
                    .zip(want.to_vec::<f64>())
                    .all(|(x, y)| ulps_apart(*x, y, single) <= n),
            };
            if !same {
                return Some(shown());
            }
            if agree == Agree::Exactly && numpy["repr"].as_str() != Some(array_repr(a).as_str()) {
                return Some(format!("repr differs: {}", shown()));
            }
            None
        }
    }
}

/// The start of a long text.
fn clip(s: &str) -> String {
    match s.char_indices().nth(400) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// Runs `cases` through numpy and `ours` through fluidc; fails listing the
/// first differences. Returns how many cases numpy answered with an error.
fn compare_all(
    what: &str,
    cases: &[Value],
    ours: &[Result<HostArray, HostError>],
    agree: impl Fn(&Value) -> Agree,
) -> usize {
    let answers = numpy(cases);
    let failures: Vec<String> = cases
        .iter()
        .zip(ours)
        .zip(&answers)
        .filter_map(|((case, ours), want)| {
            differs(ours, want, agree(case))
                .map(|d| format!("{}\n  {}", clip(&case.to_string()), clip(&d)))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} {what} cases differ from numpy:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    answers.iter().filter(|a| a.get("error").is_some()).count()
}

/// An operand array with values that exercise arithmetic: zeros, signs,
/// NaN and infinities, small exponents.
fn operand_array(rng: &mut Rng, dtype: DType, shape: &[usize]) -> HostArray {
    let n: usize = shape.iter().product();
    let float = |rng: &mut Rng| -> f64 {
        match rng.below(10) {
            0 => rng.pick(&[0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY]),
            1..=3 => rng.range(-6, 6) as f64,
            4 => rng.range(-20, 20) as f64 / 4.0,
            5 => rng.normal() * 1e10,
            6 => rng.normal() * 1e-10,
            _ => rng.normal() * 10.0,
        }
    };
    let int = |rng: &mut Rng| -> i64 {
        match rng.below(10) {
            0 => rng.pick(&[i64::from(i32::MIN), i64::from(i32::MAX), i64::MIN, i64::MAX]),
            1..=6 => rng.range(-6, 6),
            _ => rng.range(-100_000, 100_000),
        }
    };
    let made = match dtype {
        DType::Bool => HostArray::from_vec(shape, (0..n).map(|_| rng.below(2) == 1).collect()),
        DType::Int8 => HostArray::from_vec(shape, (0..n).map(|_| int(rng) as i8).collect()),
        DType::UInt8 => HostArray::from_vec(shape, (0..n).map(|_| int(rng) as u8).collect()),
        DType::Int32 => HostArray::from_vec(shape, (0..n).map(|_| int(rng) as i32).collect()),
        DType::Int64 => HostArray::from_vec(shape, (0..n).map(|_| int(rng)).collect()),
        DType::Float32 => HostArray::from_vec(shape, (0..n).map(|_| float(rng) as f32).collect()),
        DType::Float64 => HostArray::from_vec(shape, (0..n).map(|_| float(rng)).collect()),
    };
    made.expect("valid shape")
}

/// A shape that broadcasts with `shape` (rarely one that does not).
fn partner_shape(rng: &mut Rng, shape: &[usize]) -> Vec<usize> {
    match rng.below(8) {
        0 => Vec::new(),
        1 => shape
            .iter()
            .skip(rng.below(shape.len() + 1))
            .copied()
            .collect(),
        2 => shape
            .iter()
            .map(|&d| if rng.below(2) == 0 { 1 } else { d })
            .collect(),
        3 if rng.below(4) == 0 => vec![shape.first().copied().unwrap_or(1) + 1, 2],
        _ => shape.to_vec(),
    }
}

const OP_SHAPES: &[&[usize]] = &[&[], &[1], &[4], &[2, 3], &[3, 1], &[2, 2, 3], &[0], &[2, 0]];

/// A Python scalar operand.
fn python_scalar(rng: &mut Rng) -> (Value, Scalar) {
    match rng.below(7) {
        0 => {
            let b = rng.below(2) == 1;
            (json!({"py": "bool", "value": b}), Scalar::Bool(b))
        }
        1..=3 => {
            let i = if rng.below(8) == 0 {
                rng.pick(&[3_000_000_000i64, -2_147_483_649, 2_147_483_647, 1 << 40])
            } else {
                rng.range(-5, 5)
            };
            (json!({"py": "int", "value": i}), Scalar::Int(i))
        }
        _ => {
            let f = rng.pick(&[0.5, 2.0, -1.5, 0.0, 1e-3, 3.25, f64::NAN, 1e300]);
            (
                json!({"py": "float", "value": f.to_bits()}),
                Scalar::Float(f),
            )
        }
    }
}

const BINARY: &[(&str, fluidc::host::BinaryOp)] = {
    use fluidc::host::BinaryOp::*;
    &[
        ("add", Add),
        ("sub", Sub),
        ("mul", Mul),
        ("truediv", TrueDiv),
        ("floordiv", FloorDiv),
        ("mod", Mod),
        ("pow", Pow),
        ("maximum", Maximum),
        ("minimum", Minimum),
        ("eq", Eq),
        ("ne", Ne),
        ("lt", Lt),
        ("le", Le),
        ("gt", Gt),
        ("ge", Ge),
    ]
};

#[test]
fn arithmetic_and_comparisons_match_numpy() {
    use fluidc::host::{binary, Operand};
    let mut rng = Rng(0x5EED_0003);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for &(name, op) in BINARY {
        for _ in 0..40 {
            let shape = rng.pick(OP_SHAPES);
            let (da, db) = (rng.pick(&CHECKED), rng.pick(&CHECKED));
            let a = operand_array(&mut rng, da, shape);
            let b_shape = partner_shape(&mut rng, shape);
            let b = operand_array(&mut rng, db, &b_shape);
            let (case, result) = match rng.below(6) {
                0 => {
                    let (v, s) = python_scalar(&mut rng);
                    (
                        json!({"a": encode(&a), "b": v}),
                        binary(op, Operand::Array(&a), Operand::Scalar(s)),
                    )
                }
                1 => {
                    let (v, s) = python_scalar(&mut rng);
                    (
                        json!({"a": v, "b": encode(&b)}),
                        binary(op, Operand::Scalar(s), Operand::Array(&b)),
                    )
                }
                _ => (
                    json!({"a": encode(&a), "b": encode(&b)}),
                    binary(op, Operand::Array(&a), Operand::Array(&b)),
                ),
            };
            let mut case = case;
            case["kind"] = json!("binary");
            case["op"] = json!(name);
            cases.push(case);
            ours.push(result);
        }
    }
    let errors = compare_all("binary", &cases, &ours, |c| {
        if c["op"] == "pow" {
            Agree::Ulps(1)
        } else {
            Agree::Exactly
        }
    });
    assert!(
        (5..100).contains(&errors),
        "{errors} of the binary cases fail: too few or too many"
    );
}

#[test]
fn math_functions_match_numpy() {
    use fluidc::host::UnaryOp;
    let ops = [
        ("neg", UnaryOp::Neg),
        ("abs", UnaryOp::Abs),
        ("exp", UnaryOp::Exp),
        ("log", UnaryOp::Log),
        ("sqrt", UnaryOp::Sqrt),
        ("tanh", UnaryOp::Tanh),
    ];
    let mut rng = Rng(0x5EED_0004);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for (name, op) in ops {
        for dtype in CHECKED {
            for shape in [&[][..], &[7], &[3, 4], &[40]] {
                let a = operand_array(&mut rng, dtype, shape);
                cases.push(json!({"kind": "unary", "op": name, "a": encode(&a)}));
                ours.push(a.unary(op));
            }
        }
    }
    compare_all("unary", &cases, &ours, |c| match c["op"].as_str() {
        Some("neg" | "abs" | "sqrt") => Agree::Exactly,
        _ => Agree::Ulps(2),
    });
}

const REDUCTIONS: &[(&str, fluidc::host::Reduction)] = {
    use fluidc::host::Reduction::*;
    &[
        ("sum", Sum),
        ("prod", Prod),
        ("mean", Mean),
        ("max", Max),
        ("min", Min),
        ("std", Std),
        ("var", Var),
        ("argmax", Argmax),
        ("argmin", Argmin),
        ("any", Any),
        ("all", All),
    ]
};

#[test]
fn reductions_match_numpy() {
    let mut rng = Rng(0x5EED_0005);
    let shapes: &[&[usize]] = &[
        &[],
        &[0],
        &[1],
        &[5],
        &[9],
        &[130],
        &[2000],
        &[20000],
        &[3, 4],
        &[300, 5],
        &[5, 300],
        &[3, 200, 2],
        &[2, 3, 4],
        &[0, 3],
        &[3, 0],
        &[257, 1],
    ];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for &(name, op) in REDUCTIONS {
        for shape in shapes {
            for dtype in CHECKED {
                let a = if dtype.is_float() && rng.below(3) > 0 {
                    // Sums of values of mixed magnitude show the order of
                    // the additions.
                    random_array(&mut rng, dtype, shape)
                } else {
                    operand_array(&mut rng, dtype, shape)
                };
                let mut axes: Vec<Option<i64>> = vec![None];
                axes.extend((0..shape.len() as i64).map(Some));
                axes.push(Some(-1));
                if rng.below(4) == 0 {
                    axes.push(Some(shape.len() as i64));
                }
                for axis in axes {
                    let keepdims = rng.below(3) == 0;
                    cases.push(json!({"kind": "reduce", "op": name, "a": encode(&a), "axis": axis, "keepdims": keepdims}));
                    ours.push(a.reduce(op, axis, keepdims));
                }
            }
        }
    }
    // The sign of a zero that max/min pick among +0 and -0 is numpy's
    // SIMD lane order, which depends on the CPU (AVX2's 4 lanes give -0
    // for a row that AVX-512's scalar tail gives +0): equal as floats there.
    compare_all("reduction", &cases, &ours, |case| {
        match case["op"].as_str() {
            Some("max" | "min") => Agree::Ulps(0),
            _ => Agree::Exactly,
        }
    });
}

/// A random index item for an array of `shape` (sometimes out of range or
/// mismatched, for numpy's errors), with its JSON form.
fn index_item(rng: &mut Rng, shape: &[usize], axis: usize) -> (Value, fluidc::host::Index) {
    use fluidc::host::Index;
    let n = shape.get(axis).copied().unwrap_or(3) as i64;
    let opt = |rng: &mut Rng| (rng.below(3) > 0).then(|| rng.range(-n - 2, n + 2));
    match rng.below(12) {
        0..=2 => {
            let i = if rng.below(12) == 0 {
                n + rng.range(0, 2)
            } else {
                rng.range(-n, (n - 1).max(-n))
            };
            (json!({"int": i}), Index::Int(i))
        }
        3..=6 => {
            let (a, b) = (opt(rng), opt(rng));
            let c = (rng.below(2) == 0).then(|| rng.pick(&[1, 2, 3, -1, -2, -3]));
            (json!({"slice": [a, b, c]}), Index::Slice(a, b, c))
        }
        7 => (json!({"none": true}), Index::NewAxis),
        8 => (json!({"ellipsis": true}), Index::Ellipsis),
        9 => {
            // A boolean mask over the next dimension or two.
            let dims = if rng.below(3) == 0 { 2 } else { 1 };
            let mut mshape: Vec<usize> = shape.iter().skip(axis).take(dims).copied().collect();
            if mshape.is_empty() || rng.below(10) == 0 {
                mshape = vec![rng.range(1, 4) as usize];
            }
            let m = operand_array(rng, DType::Bool, &mshape);
            (json!({"array": encode(&m)}), Index::Array(m))
        }
        _ => {
            let ishape: Vec<usize> = match rng.below(4) {
                0 => vec![],
                1 => vec![2, 2],
                _ => vec![rng.range(0, 4) as usize],
            };
            let count: usize = ishape.iter().product();
            let hi = if rng.below(10) == 0 { n } else { n - 1 };
            let values: Vec<i64> = (0..count).map(|_| rng.range(-n, hi.max(-n))).collect();
            let a = if rng.below(2) == 0 {
                HostArray::from_vec(&ishape, values).expect("index array")
            } else {
                HostArray::from_vec(&ishape, values.iter().map(|&v| v as i32).collect())
                    .expect("index array")
            };
            (json!({"array": encode(&a)}), Index::Array(a))
        }
    }
}

#[test]
fn indexing_matches_numpy() {
    let mut rng = Rng(0x5EED_0006);
    let shapes: &[&[usize]] = &[&[], &[5], &[0], &[4, 3], &[3, 4, 5], &[2, 3, 2, 2], &[1, 6]];
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    for _ in 0..700 {
        let shape = rng.pick(shapes);
        let dtype = rng.pick(&CHECKED);
        let a = operand_array(&mut rng, dtype, shape);
        let len = rng.below(shape.len() + 2);
        let (mut json_items, mut items) = (Vec::new(), Vec::new());
        for axis in 0..len {
            let (j, i) = index_item(&mut rng, shape, axis);
            json_items.push(j);
            items.push(i);
        }
        cases.push(json!({"kind": "index", "a": encode(&a), "index": json_items}));
        ours.push(a.index(&items));
    }
    let errors = compare_all("indexing", &cases, &ours, |_| Agree::Exactly);
    assert!(
        (20..250).contains(&errors),
        "{errors} of the index cases fail: too few or too many"
    );
}

#[test]
fn casts_shapes_and_joins_match_numpy() {
    use fluidc::host::{concatenate, stack, where_, Operand};
    let mut rng = Rng(0x5EED_0007);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    // astype between every pair, with NaN, infinities and out-of-range
    // values among the floats.
    for from in CHECKED {
        for to in CHECKED {
            for _ in 0..3 {
                let mut a = operand_array(&mut rng, from, &[12]);
                if from.is_float() && rng.below(2) == 0 {
                    let wide = [
                        3e9,
                        -3e9,
                        1e19,
                        -1e19,
                        2147483647.5,
                        -2147483648.9,
                        1e300,
                        -0.9,
                        0.9,
                    ];
                    a = HostArray::from_vec(&[wide.len()], wide.to_vec())
                        .expect("array")
                        .astype(from);
                }
                cases.push(json!({"kind": "astype", "a": encode(&a), "dtype": to.name()}));
                ours.push(Ok(a.astype(to)));
            }
        }
    }
    // reshape, with -1 and impossible shapes.
    let reshapes: &[(&[usize], &[i64])] = &[
        (&[6], &[2, 3]),
        (&[6], &[-1, 2]),
        (&[6], &[3, -1]),
        (&[2, 3], &[-1]),
        (&[2, 3], &[4]),
        (&[3], &[-1, 2]),
        (&[4], &[-1, 2, 3]),
        (&[6], &[-1, -1]),
        (&[6], &[2, -2]),
        (&[0], &[0, 5]),
        (&[0], &[-1, 5]),
        (&[], &[1, 1]),
        (&[1], &[]),
        (&[2, 2, 3], &[3, -1, 2]),
    ];
    for (from, to) in reshapes {
        let a = operand_array(&mut rng, DType::Int64, from);
        cases.push(json!({"kind": "reshape", "a": encode(&a), "shape": to}));
        ours.push(a.reshape(to));
    }
    // transpose.
    let transposes: &[(&[usize], Option<&[i64]>)] = &[
        (&[2, 3], None),
        (&[2, 3, 4], None),
        (&[2, 3, 4], Some(&[1, 0, 2])),
        (&[2, 3, 4], Some(&[-1, 0, 1])),
        (&[2, 3], Some(&[0])),
        (&[2, 3], Some(&[0, 0])),
        (&[2, 3], Some(&[0, 2])),
        (&[], None),
    ];
    for (shape, axes) in transposes {
        let a = operand_array(&mut rng, DType::Float32, shape);
        cases.push(json!({"kind": "transpose", "a": encode(&a), "axes": axes}));
        ours.push(a.transpose(*axes));
    }
    // concatenate and stack, with mixed dtypes and mismatched shapes.
    let joins: &[(&[&[usize]], Option<i64>)] = &[
        (&[&[2, 3], &[4, 3]], Some(0)),
        (&[&[2, 3], &[2, 1]], Some(1)),
        (&[&[2, 3], &[2, 3]], Some(-1)),
        (&[&[2, 3], &[3, 3]], Some(1)),
        (&[&[2, 3], &[3]], Some(0)),
        (&[&[2, 3], &[2]], None),
        (&[&[], &[]], Some(0)),
        (&[&[3], &[3], &[3]], Some(2)),
    ];
    for (shapes, axis) in joins {
        for kind in ["concatenate", "stack"] {
            let arrays: Vec<HostArray> = shapes
                .iter()
                .map(|s| {
                    let d = rng.pick(&CHECKED);
                    operand_array(&mut rng, d, s)
                })
                .collect();
            let refs: Vec<&HostArray> = arrays.iter().collect();
            let encoded: Vec<Value> = arrays.iter().map(encode).collect();
            cases.push(json!({"kind": kind, "arrays": encoded, "axis": axis}));
            ours.push(if kind == "stack" {
                stack(&refs, axis.unwrap_or(0))
            } else {
                concatenate(&refs, *axis)
            });
        }
    }
    // where, with array and Python scalar branches.
    for _ in 0..40 {
        let shape = rng.pick(OP_SHAPES);
        let dc = if rng.below(4) == 0 {
            DType::Int32
        } else {
            DType::Bool
        };
        let cond = operand_array(&mut rng, dc, shape);
        let (dx, dy) = (rng.pick(&CHECKED), rng.pick(&CHECKED));
        let (sx, sy) = (
            partner_shape(&mut rng, shape),
            partner_shape(&mut rng, shape),
        );
        let x = operand_array(&mut rng, dx, &sx);
        let y = operand_array(&mut rng, dy, &sy);
        let (yv, ys) = python_scalar(&mut rng);
        let scalar_y = rng.below(2) == 0;
        cases.push(json!({"kind": "where", "cond": encode(&cond), "x": encode(&x), "y": if scalar_y { yv } else { encode(&y) }}));
        let y_operand = if scalar_y {
            Operand::Scalar(ys)
        } else {
            Operand::Array(&y)
        };
        ours.push(where_(&cond, Operand::Array(&x), y_operand));
    }
    compare_all("cast, shape and join", &cases, &ours, |_| Agree::Exactly);
}

#[test]
fn closeness_and_equality_match_numpy() {
    use fluidc::host::{allclose, array_equal, isclose, Operand, Tolerance};
    let mut rng = Rng(0x5EED_0008);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    let mut bool_cases = Vec::new();
    let mut bool_ours = Vec::new();
    for _ in 0..150 {
        let shape = rng.pick(&[&[][..], &[4], &[2, 3]]);
        let (da, db) = (rng.pick(&CHECKED), rng.pick(&CHECKED));
        let a = operand_array(&mut rng, da, shape);
        // Nearby values: a copy nudged by relative amounts around the
        // tolerances.
        let nudge = rng.pick(&[0.0, 1e-9, 1e-7, 5e-6, 2e-5, 1e-3]);
        let b = HostArray::from_vec(
            shape,
            a.to_vec::<f64>()
                .iter()
                .map(|x| x * (1.0 + nudge) + nudge * 1e-3)
                .collect(),
        )
        .expect("array")
        .astype(db);
        let other = partner_shape(&mut rng, shape);
        let b = if rng.below(6) == 0 {
            operand_array(&mut rng, db, &other)
        } else {
            b
        };
        cases.push(json!({"kind": "isclose", "a": encode(&a), "b": encode(&b)}));
        ours.push(isclose(
            Operand::Array(&a),
            Operand::Array(&b),
            Tolerance::default(),
        ));
        for kind in ["allclose", "array_equal"] {
            bool_cases.push(json!({"kind": kind, "a": encode(&a), "b": encode(&b)}));
            bool_ours.push(if kind == "allclose" {
                allclose(Operand::Array(&a), Operand::Array(&b), Tolerance::default())
            } else {
                Ok(array_equal(&a, &b))
            });
        }
    }
    compare_all("isclose", &cases, &ours, |_| Agree::Exactly);
    let answers = numpy(&bool_cases);
    for ((case, ours), want) in bool_cases.iter().zip(&bool_ours).zip(&answers) {
        match (ours, want.get("bool").and_then(Value::as_bool)) {
            (Ok(got), Some(expected)) => assert_eq!(*got, expected, "{}", clip(&case.to_string())),
            (Err(e), None) => assert_eq!(
                want["error"][1].as_str(),
                Some(e.message.as_str()),
                "{}",
                clip(&case.to_string())
            ),
            (got, _) => panic!("{}: numpy {want}, fluidc {got:?}", clip(&case.to_string())),
        }
    }
}

/// A random nested Python value for `np.array(...)`, with its JSON form.
fn nested_value(rng: &mut Rng, shape: &[usize], leaf: usize) -> (Value, fluidc::host::Nested) {
    use fluidc::host::Nested;
    if let Some((&n, rest)) = shape.split_first() {
        // Now and then a ragged list.
        let len = if rng.below(40) == 0 { n + 1 } else { n };
        let (json_items, items): (Vec<Value>, Vec<Nested>) =
            (0..len).map(|_| nested_value(rng, rest, leaf)).unzip();
        return (Value::Array(json_items), Nested::List(items));
    }
    let kind = if rng.below(10) == 0 {
        rng.below(4)
    } else {
        leaf
    };
    match kind {
        0 => {
            let b = rng.below(2) == 1;
            (json!(b), Nested::Bool(b))
        }
        1 => {
            let i = if rng.below(10) == 0 {
                rng.pick(&[3_000_000_000, -3, i64::MAX])
            } else {
                rng.range(-9, 9)
            };
            (json!(i), Nested::Int(i))
        }
        2 => {
            let f = rng.pick(&[0.5, -2.25, 1e20, f64::NAN, 3.0, -0.0, 7.75]);
            (json!({"float": f.to_bits()}), Nested::Float(f))
        }
        _ => {
            let d = rng.pick(&[DType::Float32, DType::Int32, DType::Bool]);
            let a = operand_array(rng, d, &[]);
            (encode(&a), Nested::Array(a))
        }
    }
}

#[test]
fn array_construction_and_conversions_match_numpy() {
    let mut rng = Rng(0x5EED_0009);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    let shapes: &[&[usize]] = &[&[], &[3], &[2, 2], &[0], &[2, 0], &[1, 2, 3]];
    for _ in 0..250 {
        let shape = rng.pick(shapes);
        let leaf = rng.below(4);
        let (json_value, value) = nested_value(&mut rng, shape, leaf);
        let dtype = if rng.below(2) == 0 {
            None
        } else {
            Some(rng.pick(&CHECKED))
        };
        cases.push(json!({"kind": "nested", "value": json_value, "dtype": dtype.map(DType::name)}));
        ours.push(HostArray::from_nested(&value, dtype));
    }
    let errors = compare_all("np.array", &cases, &ours, |_| Agree::Exactly);
    assert!(
        (5..100).contains(&errors),
        "{errors} of the np.array cases fail: too few or too many"
    );

    // float(), int(), bool() of arrays.
    let mut arrays = Vec::new();
    for shape in [&[][..], &[1], &[1, 1], &[2], &[0]] {
        for dtype in CHECKED {
            for _ in 0..4 {
                arrays.push(operand_array(&mut rng, dtype, shape));
            }
        }
    }
    let answers = numpy_each("convert", &arrays);
    for (a, want) in arrays.iter().zip(&answers) {
        let context = clip(&encode(a).to_string());
        let error_kind = |w: &Value| w["error"][0].as_str().map(str::to_string);
        match a.to_float() {
            Ok(f) => assert_eq!(
                want["float"].as_u64(),
                Some(f.to_bits()),
                "float() of {context}"
            ),
            Err(e) => assert_eq!(
                error_kind(&want["float"]).as_deref(),
                Some(e.kind.name()),
                "float() of {context}"
            ),
        }
        match a.to_int() {
            Ok(i) => assert_eq!(want["int"].as_i64(), Some(i), "int() of {context}"),
            Err(e) => assert_eq!(
                error_kind(&want["int"]).as_deref(),
                Some(e.kind.name()),
                "int() of {context}"
            ),
        }
        match a.truthy() {
            Ok(b) => assert_eq!(want["bool"].as_bool(), Some(b), "bool() of {context}"),
            Err(e) => assert_eq!(
                want["bool"]["error"][1].as_str(),
                Some(e.message.as_str()),
                "bool() of {context}"
            ),
        }
    }
}

#[test]
fn ranges_and_eye_match_numpy() {
    use fluidc::host::{arange, eye, linspace};
    let mut rng = Rng(0x5EED_000A);
    let mut cases = Vec::new();
    let mut ours = Vec::new();
    let number = |rng: &mut Rng| -> (Value, Scalar) {
        if rng.below(3) == 0 {
            let f: f64 = rng.pick(&[0.0, 0.1, -2.5, 1.0, 0.3, 7.25, -0.7, 10.0, 1e-3]);
            (
                json!({"py": "float", "value": f.to_bits()}),
                Scalar::Float(f),
            )
        } else {
            let i = rng.range(-12, 12);
            (json!({"py": "int", "value": i}), Scalar::Int(i))
        }
    };
    for _ in 0..150 {
        let (start, a) = number(&mut rng);
        let (stop, b) = number(&mut rng);
        let (step, c) = number(&mut rng);
        let dtype = if rng.below(2) == 0 {
            None
        } else {
            Some(rng.pick(&CHECKED))
        };
        cases.push(json!({"kind": "arange", "start": start, "stop": stop, "step": step, "dtype": dtype.map(DType::name)}));
        ours.push(arange(a, b, c, dtype));
    }
    for _ in 0..100 {
        let (start, stop): (f64, f64) = (
            rng.pick(&[0.0, 1.0, -3.5, 0.1, 2.0]),
            rng.pick(&[1.0, 10.0, -1.0, 0.7, 2.0, 1e6]),
        );
        let num = rng.pick(&[0, 1, 2, 3, 5, 7, 50, 101]);
        let endpoint = rng.below(3) > 0;
        let dtype = if rng.below(2) == 0 {
            None
        } else {
            Some(rng.pick(&CHECKED))
        };
        cases.push(json!({"kind": "linspace", "start": start.to_bits(), "stop": stop.to_bits(), "num": num, "endpoint": endpoint, "dtype": dtype.map(DType::name)}));
        ours.push(linspace(start, stop, num, endpoint, dtype));
    }
    for (n, m, k) in [
        (3, None, 0),
        (2, Some(4), 1),
        (4, Some(2), -1),
        (3, Some(3), 5),
        (0, None, 0),
    ] {
        let dtype = rng.pick(&CHECKED);
        cases.push(json!({"kind": "eye", "n": n, "m": m, "k": k, "dtype": dtype.name()}));
        ours.push(eye(n, m, k, dtype));
    }
    compare_all("arange, linspace and eye", &cases, &ours, |_| {
        Agree::Exactly
    });
}

#[test]
fn lists_print_as_python_prints_them() {
    use fluidc::host::{nested_repr, Nested};
    let mut rng = Rng(0x5EED_000B);
    // a.tolist() printed: Python's int, float and bool reprs.
    let mut arrays = Vec::new();
    for dtype in CHECKED {
        for shape in [&[][..], &[4], &[2, 3], &[0], &[2, 1, 2]] {
            arrays.push(random_array(&mut rng, dtype, shape));
        }
    }
    let answers = numpy_each("tolist", &arrays);
    for (a, want) in arrays.iter().zip(&answers) {
        assert_eq!(
            want["repr"].as_str(),
            Some(nested_repr(&a.tolist()).as_str()),
            "tolist of {}",
            clip(&encode(a).to_string())
        );
    }
    // Lists of arrays and numpy scalars: each element's repr.
    let mut cases = Vec::new();
    let mut lists = Vec::new();
    for _ in 0..60 {
        let mut json_items = Vec::new();
        let mut items = Vec::new();
        for _ in 0..rng.range(1, 3) {
            let dtype = rng.pick(&CHECKED);
            if rng.below(3) == 0 {
                let s = random_array(&mut rng, dtype, &[]);
                json_items.push(json!({"scalar": encode(&s)}));
                items.push(scalar_repr(&s));
            } else {
                let shape = rng.pick(&[&[1][..], &[2, 1], &[3], &[2, 2], &[0]]);
                let a = random_array(&mut rng, dtype, shape);
                json_items.push(json!({"array": encode(&a)}));
                items.push(nested_repr(&Nested::Array(a)));
            }
        }
        cases.push(json!({"kind": "list_repr", "items": json_items}));
        lists.push(format!("[{}]", items.join(", ")));
    }
    for ((case, got), want) in cases.iter().zip(&lists).zip(numpy(&cases)) {
        assert_eq!(
            want["repr"].as_str(),
            Some(got.as_str()),
            "{}",
            clip(&case.to_string())
        );
    }
}
