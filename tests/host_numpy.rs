//! Differential tests of the host arrays (`fluidc::host`, SPEC §8.2)
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

/// The JSON form of an array (float data as bit patterns).
fn encode(a: &HostArray) -> Value {
    let data: Vec<Value> = match a {
        HostArray::Bool(x) => x.iter().map(|&v| json!(v)).collect(),
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
    for dtype in DType::ALL {
        let rounds = if dtype.is_float() { 12 } else { 4 };
        for _ in 0..rounds {
            for shape in SHAPES {
                arrays.push(random_array(&mut rng, dtype, shape));
            }
        }
    }
    let cases: Vec<Value> = arrays
        .iter()
        .map(|a| json!({"kind": "print", "a": encode(a)}))
        .collect();
    let answers = numpy(&cases);
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
    for dtype in DType::ALL {
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
    // scalars give theirs (SPEC §8.2's example).
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
