//! `numpy.random` and Python's `random` module in scripts, with numpy's and
//! CPython's exact numbers (the generators are [`crate::host::random`]'s).
//! Each script has one global state per module, as each process has; an
//! unseeded state starts from entropy, as in numpy and CPython.
use std::cell::RefCell;
use std::rc::Rc;

use super::builtin::{builtin, Args, Builtin, Rest, D::*};
use super::numpy;
use crate::front::diag::{Diagnostic, Result};
use crate::front::value::{Object, Show, Value};
use crate::host::random::{IntDtype, Population, Probabilities, PyRandom, RandomState};
use crate::host::{DType, HostArray, HostError, Index};

thread_local! {
    static NUMPY: RefCell<RandomState> = RefCell::new(RandomState::new(entropy() as u32));
    static PYTHON: RefCell<PyRandom> = RefCell::new(PyRandom::new(entropy() as i64 & i64::MAX));
}

/// A seed for an unseeded generator: the clock's nanoseconds.
fn entropy() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Elements a `size=` may ask for (a script's arrays are bounded like its lists).
const MAX_ELEMENTS: usize = crate::front::value::MAX_ITEMS;

/// Runs `f` on the generator a call uses: the receiver's for a method of
/// a `numpy.random.RandomState`, else the module's global one.
fn with_numpy<T>(a: &Args, f: impl FnOnce(&mut RandomState) -> T) -> T {
    if let Some(Value::Object(o)) = &a.recv {
        if let Object::RandomState(r) = o.as_ref() {
            return f(&mut r.borrow_mut());
        }
    }
    NUMPY.with(|r| f(&mut r.borrow_mut()))
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["numpy.random.RandomState"],
        [("seed", Nil)],
        Rest::No,
        |_, a| {
            let mut state = RandomState::new(entropy() as u32);
            if !a.is_none("seed") {
                state.seed(a.int("seed")?).map_err(|e| err(a, "seed", e))?;
            }
            Ok(Value::object(Object::RandomState(RefCell::new(state))))
        }
    ),
    builtin!(
        ["numpy.random.seed", "RandomState.seed"],
        [("seed", Nil)],
        Rest::No,
        |_, a| {
            let seed = a.int("seed")?;
            with_numpy(a, |r| r.seed(seed)).map_err(|e| err(a, "seed", e))?;
            Ok(Value::None)
        }
    ),
    builtin!(
        ["numpy.random.rand", "RandomState.rand"],
        [],
        Rest::Varargs,
        |_, a| {
            let shape = Some(dims_of(a, &a.extra)?).filter(|s| !s.is_empty());
            floats(shape, |n| Ok(with_numpy(a, |r| r.random_sample(n))), a)
        }
    ),
    builtin!(
        ["numpy.random.randn", "RandomState.randn"],
        [],
        Rest::Varargs,
        |_, a| {
            let shape = Some(dims_of(a, &a.extra)?).filter(|s| !s.is_empty());
            floats(shape, |n| Ok(with_numpy(a, |r| r.standard_normal(n))), a)
        }
    ),
    builtin!(
        [
            "numpy.random.random",
            "numpy.random.random_sample",
            "numpy.random.sample",
            "RandomState.random",
            "RandomState.random_sample",
            "RandomState.sample"
        ],
        [("size", Nil)],
        Rest::No,
        |_, a| floats(size(a)?, |n| Ok(with_numpy(a, |r| r.random_sample(n))), a)
    ),
    builtin!(
        ["numpy.random.uniform", "RandomState.uniform"],
        [("low", Float(0.0)), ("high", Float(1.0)), ("size", Nil)],
        Rest::No,
        |_, a| {
            let (low, high) = (a.float("low")?, a.float("high")?);
            floats(size(a)?, |n| with_numpy(a, |r| r.uniform(low, high, n)), a)
        }
    ),
    builtin!(
        ["numpy.random.normal", "RandomState.normal"],
        [("loc", Float(0.0)), ("scale", Float(1.0)), ("size", Nil)],
        Rest::No,
        |_, a| {
            let (loc, scale) = (a.float("loc")?, a.float("scale")?);
            floats(size(a)?, |n| with_numpy(a, |r| r.normal(loc, scale, n)), a)
        }
    ),
    builtin!(
        ["numpy.random.randint", "RandomState.randint"],
        [
            ("low", Req),
            ("high", Nil),
            ("size", Nil),
            ("dtype", Str("int64"))
        ],
        Rest::No,
        |_, a| {
            let low = i128::from(a.int("low")?);
            let high = if a.is_none("high") {
                None
            } else {
                Some(i128::from(a.int("high")?))
            };
            let dtype = match a.string("dtype")?.as_str() {
                "int32" => IntDtype::Int32,
                "int64" | "int" => IntDtype::Int64,
                other => {
                    return Err(a.err("dtype", format!("fluidc's randint has no dtype {other}")))
                }
            };
            let shape = size(a)?;
            let n = count(a, shape.as_deref())?;
            let v =
                with_numpy(a, |r| r.randint(low, high, n, dtype)).map_err(|e| err(a, "low", e))?;
            match shape {
                None => Ok(Value::Int(v.first().copied().unwrap_or(0))),
                Some(s) => {
                    let arr = HostArray::from_vec(&s, v).map_err(|e| err(a, "size", e))?;
                    let arr = if dtype == IntDtype::Int32 {
                        arr.astype(crate::host::DType::Int32)
                    } else {
                        arr
                    };
                    Ok(Value::Array(Rc::new(arr)))
                }
            }
        }
    ),
    builtin!(
        ["numpy.random.permutation", "RandomState.permutation"],
        [("x", Req)],
        Rest::No,
        |_, a| {
            let n = a.int("x")?;
            if !(0..=MAX_ELEMENTS as i64).contains(&n) {
                return Err(a.err("x", "permutation takes a size from 0 to the array limit"));
            }
            let v = with_numpy(a, |r| r.permutation(n));
            let arr = HostArray::from_vec(&[v.len()], v).map_err(|e| err(a, "x", e))?;
            Ok(Value::Array(Rc::new(arr)))
        }
    ),
    builtin!(
        ["numpy.random.choice", "RandomState.choice"],
        [
            ("a", Req),
            ("size", Nil),
            ("replace", Bool(true)),
            ("p", Nil)
        ],
        Rest::No,
        |_, a| choice(a)
    ),
    builtin!(
        ["numpy.random.shuffle", "RandomState.shuffle"],
        [("x", Req)],
        Rest::No,
        |_, a| {
            match a.get("x") {
                Value::List(l) => {
                    with_numpy(a, |r| r.shuffle(&mut l.borrow_mut()));
                    Ok(Value::None)
                }
                other => Err(a.err(
                    "x",
                    format!(
                        "fluidc shuffles lists in place, not a {}",
                        other.type_name()
                    ),
                )),
            }
        }
    ),
    builtin!(["random.seed"], [("a", Nil)], Rest::No, |_, a| {
        match a.get("a") {
            Value::Float(f) => PYTHON.with(|r| r.borrow_mut().seed_f64(*f)),
            _ => {
                let seed = a.int("a")?;
                PYTHON.with(|r| r.borrow_mut().seed(seed));
            }
        }
        Ok(Value::None)
    }),
    builtin!(["random.random"], [], Rest::No, |_, _| Ok(Value::Float(
        PYTHON.with(|r| r.borrow_mut().random())
    ))),
    builtin!(
        ["random.uniform"],
        [("a", Req), ("b", Req)],
        Rest::No,
        |_, a| {
            let (x, y) = (a.float("a")?, a.float("b")?);
            Ok(Value::Float(PYTHON.with(|r| r.borrow_mut().uniform(x, y))))
        }
    ),
    builtin!(
        ["random.randint"],
        [("a", Req), ("b", Req)],
        Rest::No,
        |_, a| {
            let (x, y) = (a.int("a")?, a.int("b")?);
            PYTHON
                .with(|r| r.borrow_mut().randint(x, y))
                .map(Value::Int)
                .map_err(|e| err(a, "a", e))
        }
    ),
    builtin!(
        ["random.gauss"],
        [("mu", Float(0.0)), ("sigma", Float(1.0))],
        Rest::No,
        |_, a| {
            let (mu, sigma) = (a.float("mu")?, a.float("sigma")?);
            Ok(Value::Float(
                PYTHON.with(|r| r.borrow_mut().gauss(mu, sigma)),
            ))
        }
    ),
    builtin!(["random.choice"], [("seq", Req)], Rest::No, |_, a| {
        let items = a.get("seq").items().ok_or_else(|| {
            a.err(
                "seq",
                format!("cannot choose from {}", Show(a.get("seq"), true)),
            )
        })?;
        let i = PYTHON
            .with(|r| r.borrow_mut().choice(items.len()))
            .map_err(|e| err(a, "seq", e))?;
        Ok(items[i].clone())
    }),
    builtin!(["random.shuffle"], [("x", Req)], Rest::No, |_, a| {
        match a.get("x") {
            Value::List(l) => {
                PYTHON.with(|r| r.borrow_mut().shuffle(&mut l.borrow_mut()));
                Ok(Value::None)
            }
            other => Err(a.err("x", format!("cannot shuffle a {}", other.type_name()))),
        }
    }),
];

/// `numpy.random.choice(a, size=None, replace=True, p=None)`: numpy's
/// legacy draws ([`RandomState::choice`]); `a` is an int (`arange(a)`) or
/// a 1-D sequence whose items are picked.
fn choice(a: &Args) -> Result<Value> {
    let picked_from = match a.get("a") {
        Value::Int(_) | Value::Bool(_) => None,
        other => {
            let x = numpy::as_array(other)
                .ok_or_else(|| a.err("a", "ValueError: a must be 1-dimensional or an integer"))?;
            if x.ndim() != 1 {
                return Err(a.err("a", "ValueError: a must be 1-dimensional"));
            }
            Some(x)
        }
    };
    let population = match &picked_from {
        None => Population::Int(a.int("a")?),
        Some(x) => Population::Len(x.shape()[0]),
    };
    let p = if a.is_none("p") {
        None
    } else {
        let x = numpy::as_array(a.get("p"))
            .ok_or_else(|| a.err("p", "p must be a sequence of probabilities"))?;
        if x.ndim() != 1 {
            return Err(a.err("p", "ValueError: p must be 1-dimensional"));
        }
        let float32 = x.dtype() == DType::Float32;
        Some((x.astype(DType::Float64).to_vec::<f64>(), float32))
    };
    let replace = a.bool("replace")?;
    let shape = size(a)?;
    let n = count(a, shape.as_deref())?;
    let probabilities = p.as_ref().map(|(p, float32)| Probabilities {
        p,
        float32: *float32,
    });
    let idx = with_numpy(a, |r| r.choice(population, n, replace, probabilities))
        .map_err(|e| err(a, "a", e))?;
    let idx = HostArray::from_vec(&[idx.len()], idx).map_err(|e| err(a, "size", e))?;
    let picked = match &picked_from {
        None => idx,
        Some(x) => x.index(&[Index::Array(idx)]).map_err(|e| err(a, "a", e))?,
    };
    match shape {
        // One draw: numpy's scalar.
        None => {
            let one = picked.index(&[Index::Int(0)]).map_err(|e| err(a, "a", e))?;
            Ok(Value::NpScalar(Rc::new(one)))
        }
        Some(s) => {
            let dims: Vec<i64> = s.iter().map(|&d| d as i64).collect();
            let shaped = picked.reshape(&dims).map_err(|e| err(a, "size", e))?;
            Ok(Value::Array(Rc::new(shaped)))
        }
    }
}

fn err(a: &Args, name: &str, e: HostError) -> Diagnostic {
    a.err(name, format!("{}: {}", e.kind.name(), e.message))
}

/// A `size=` argument: `None` (one value), an int, or a tuple of ints.
fn size(a: &Args) -> Result<Option<Vec<usize>>> {
    match a.get("size") {
        Value::None => Ok(None),
        one @ Value::Int(_) => dims_of(a, std::slice::from_ref(one)).map(Some),
        other => dims_of(a, &other.items().unwrap_or_default()).map(Some),
    }
}

/// Dimensions given as ints (`rand(2, 3)`).
fn dims_of(a: &Args, values: &[Value]) -> Result<Vec<usize>> {
    values
        .iter()
        .map(|v| match v {
            Value::Int(n) => usize::try_from(*n).ok(),
            _ => None,
        })
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| Diagnostic::new(a.call.clone(), "dimensions must be non-negative integers"))
}

/// How many values a shape asks for, within the limit.
fn count(a: &Args, shape: Option<&[usize]>) -> Result<usize> {
    let n = shape.map_or(Some(1), |s| {
        s.iter().try_fold(1usize, |acc, d| acc.checked_mul(*d))
    });
    n.filter(|n| *n <= MAX_ELEMENTS).ok_or_else(|| {
        Diagnostic::new(
            a.call.clone(),
            format!("the array would have more than {MAX_ELEMENTS} elements"),
        )
    })
}

/// Float draws: a Python float for no shape (numpy's scalar return), else a
/// float64 array of the shape.
fn floats(
    shape: Option<Vec<usize>>,
    draw: impl FnOnce(usize) -> std::result::Result<Vec<f64>, HostError>,
    a: &Args,
) -> Result<Value> {
    let n = count(a, shape.as_deref())?;
    let v = draw(n).map_err(|e| {
        Diagnostic::new(a.call.clone(), format!("{}: {}", e.kind.name(), e.message))
    })?;
    match shape {
        None => Ok(Value::Float(v.first().copied().unwrap_or(0.0))),
        Some(s) => HostArray::from_vec(&s, v)
            .map(|x| Value::Array(Rc::new(x)))
            .map_err(|e| Diagnostic::new(a.call.clone(), e.message)),
    }
}

/// `random.shuffle(x)` on the script's Python `random` state (what
/// `paddle.reader.shuffle` calls on each buffer).
pub fn python_shuffle(items: &mut [Value]) {
    PYTHON.with(|r| r.borrow_mut().shuffle(items));
}
