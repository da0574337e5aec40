//! `_numpy.RandomState`: numpy's legacy `numpy.random.RandomState` with
//! its exact numbers ([`crate::host::random::RandomState`]); the global
//! functions of `numpy.random` are one instance's methods.
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyStrRef, PyTypeRef};
use rustpython_vm::function::OptionalArg;
use rustpython_vm::types::Constructor;
use rustpython_vm::{pyclass, PyObject, PyObjectRef, PyPayload, PyResult, VirtualMachine};

use super::convert::{float_arg, index_int, to_array, Held};
use super::{handle_of, host_error, wrap_any, wrap_array, HostResult};
use crate::host::random::{IntDtype, Population, Probabilities, RandomState};
use crate::host::{binary, BinaryOp, DType, HostArray, Index, Operand};
use crate::native::convert::sequence;

/// A seed for an unseeded generator: the clock's nanoseconds.
fn entropy() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u32)
}

#[pyclass(module = "numpy.random", name = "RandomState")]
#[derive(Debug, PyPayload)]
pub struct PyRandomState {
    state: Mutex<RandomState>,
}

/// Seeds `state` from `seed` (None: entropy; an int; a sequence of ints).
fn seed_state(state: &mut RandomState, seed: &PyObject, vm: &VirtualMachine) -> PyResult<()> {
    if vm.is_none(seed) {
        *state = RandomState::new(entropy());
        return Ok(());
    }
    let key = match sequence(seed) {
        Some(items) => Some(
            items
                .iter()
                .map(|i| index_int(i, vm))
                .collect::<PyResult<Vec<i64>>>()?,
        ),
        None => match handle_of(seed, vm) {
            Some(h) if h.read().ndim() > 0 => Some(h.read().to_vec::<i64>()),
            _ => None,
        },
    };
    match key {
        Some(key) => state.seed_key(&key),
        None => {
            let n = index_int(seed, vm).map_err(|_| {
                vm.new_type_error(
                    "Cannot cast scalar from dtype('float64') to dtype('int64') according to the rule 'safe'"
                        .to_owned(),
                )
            })?;
            state.seed(n)
        }
    }
    .py(vm)
}

impl Constructor for PyRandomState {
    type Args = OptionalArg<PyObjectRef>;

    fn py_new(cls: PyTypeRef, seed: Self::Args, vm: &VirtualMachine) -> PyResult {
        let mut state = RandomState::new(entropy());
        if let OptionalArg::Present(seed) = seed {
            seed_state(&mut state, &seed, vm)?;
        }
        PyRandomState {
            state: Mutex::new(state),
        }
        .into_ref_with_type(vm, cls)
        .map(Into::into)
    }
}

/// A `size` argument: `None` (one value), an int, or a tuple of ints.
fn size_arg(size: &PyObject, vm: &VirtualMachine) -> PyResult<Option<Vec<usize>>> {
    if vm.is_none(size) {
        return Ok(None);
    }
    super::convert::shape_arg(size, vm).map(Some)
}

fn count(shape: &Option<Vec<usize>>, vm: &VirtualMachine) -> PyResult<usize> {
    match shape {
        None => Ok(1),
        Some(s) => crate::host::array::checked_size(s).py(vm),
    }
}

/// Float draws: a Python float without a size, else a float64 array.
fn floats(shape: Option<Vec<usize>>, values: Vec<f64>, vm: &VirtualMachine) -> PyResult {
    match shape {
        None => Ok(vm
            .ctx
            .new_float(values.first().copied().unwrap_or(0.0))
            .into()),
        Some(s) => wrap_array(HostArray::from_vec(&s, values).py(vm)?, vm),
    }
}

/// A distribution parameter: a float, or a float64 array (numpy converts
/// array parameters to float64).
enum Param {
    Scalar(f64),
    Array(HostArray),
}

fn param(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Param> {
    let held = Held::require(obj, vm)?;
    let a = held.array();
    if a.ndim() == 0 {
        return Ok(Param::Scalar(float_arg(obj, vm)?));
    }
    Ok(Param::Array(a.astype(DType::Float64)))
}

impl Param {
    fn shape(&self) -> &[usize] {
        match self {
            Param::Scalar(_) => &[],
            Param::Array(a) => a.shape(),
        }
    }

    fn operand(&self) -> Operand<'_> {
        match self {
            Param::Scalar(f) => Operand::Scalar(crate::host::Scalar::Float(*f)),
            Param::Array(a) => Operand::Array(a),
        }
    }
}

/// The shape of draws with array parameters: `size`, or the parameters'
/// broadcast shape.
fn param_shape(
    size: &Option<Vec<usize>>,
    params: &[&Param],
    vm: &VirtualMachine,
) -> PyResult<Vec<usize>> {
    let shapes: Vec<&[usize]> = params.iter().map(|p| p.shape()).collect();
    let b = crate::host::broadcast_shapes(&shapes).py(vm)?;
    match size {
        None => Ok(b),
        Some(s) => {
            crate::host::broadcast_shapes(&[s, &b]).py(vm)?;
            Ok(s.clone())
        }
    }
}

fn int_dtype(name: &str, vm: &VirtualMachine) -> PyResult<(IntDtype, DType)> {
    Ok(match name {
        "int64" => (IntDtype::Int64, DType::Int64),
        "int32" => (IntDtype::Int32, DType::Int32),
        "bool" => (IntDtype::Bool, DType::Bool),
        "int8" => (IntDtype::Int8, DType::Int8),
        "uint8" => (IntDtype::UInt8, DType::UInt8),
        other => {
            return Err(vm.new_type_error(format!(
            "fluidc's numpy has no arrays of dtype '{other}' (randint draws int64, int32, int8, uint8 and bool)"
        )))
        }
    })
}

#[pyclass(with(Constructor))]
impl PyRandomState {
    fn with<T>(&self, f: impl FnOnce(&mut RandomState) -> T) -> T {
        f(&mut self.state.lock())
    }

    /// `_copy()`: a generator in this one's state (`get_state`).
    #[pymethod]
    fn _copy(&self) -> PyRandomState {
        PyRandomState {
            state: Mutex::new(self.state.lock().clone()),
        }
    }

    /// `_restore(other)`: this generator in `other`'s state (`set_state`).
    #[pymethod]
    fn _restore(&self, other: rustpython_vm::PyRef<PyRandomState>) {
        let state = other.state.lock().clone();
        *self.state.lock() = state;
    }

    #[pymethod]
    fn seed(&self, seed: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<()> {
        let seed = seed.unwrap_or_none(vm);
        seed_state(&mut self.state.lock(), &seed, vm)
    }

    /// `random_sample(size)` (`random`, `sample`, `rand`).
    #[pymethod]
    fn random_sample(&self, size: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult {
        let shape = size_arg(&size.unwrap_or_none(vm), vm)?;
        let n = count(&shape, vm)?;
        let v = self.with(|r| r.random_sample(n));
        floats(shape, v, vm)
    }

    /// `standard_normal(size)` (`randn`).
    #[pymethod]
    fn standard_normal(&self, size: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult {
        let shape = size_arg(&size.unwrap_or_none(vm), vm)?;
        let n = count(&shape, vm)?;
        let v = self.with(|r| r.standard_normal(n));
        floats(shape, v, vm)
    }

    /// `normal(loc, scale, size)`: `loc + scale * gauss()` element by
    /// element.
    #[pymethod]
    fn normal(
        &self,
        loc: PyObjectRef,
        scale: PyObjectRef,
        size: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult {
        let shape = size_arg(&size, vm)?;
        let (loc, scale) = (param(&loc, vm)?, param(&scale, vm)?);
        if let (Param::Scalar(l), Param::Scalar(s)) = (&loc, &scale) {
            let n = count(&shape, vm)?;
            let v = self.with(|r| r.normal(*l, *s, n)).py(vm)?;
            return floats(shape, v, vm);
        }
        if let Param::Array(s) = &scale {
            if s.to_vec::<f64>()
                .iter()
                .any(|x| x.is_sign_negative() && !x.is_nan())
            {
                return Err(vm.new_value_error("scale < 0".to_owned()));
            }
        }
        if let Param::Scalar(s) = scale {
            if s.is_sign_negative() && !s.is_nan() {
                return Err(vm.new_value_error("scale < 0".to_owned()));
            }
        }
        let out = param_shape(&shape, &[&loc, &scale], vm)?;
        let n = count(&Some(out.clone()), vm)?;
        let g = HostArray::from_vec(&out, self.with(|r| r.standard_normal(n))).py(vm)?;
        let scaled = binary(BinaryOp::Mul, scale.operand(), (&g).into()).py(vm)?;
        let r = binary(BinaryOp::Add, loc.operand(), (&scaled).into()).py(vm)?;
        wrap_array(r.astype(DType::Float64), vm)
    }

    /// `uniform(low, high, size)`: `low + (high - low) * random_sample()`.
    #[pymethod]
    fn uniform(
        &self,
        low: PyObjectRef,
        high: PyObjectRef,
        size: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult {
        let shape = size_arg(&size, vm)?;
        let (low, high) = (param(&low, vm)?, param(&high, vm)?);
        if let (Param::Scalar(l), Param::Scalar(h)) = (&low, &high) {
            let n = count(&shape, vm)?;
            let v = self.with(|r| r.uniform(*l, *h, n)).py(vm)?;
            return floats(shape, v, vm);
        }
        let range = binary(BinaryOp::Sub, high.operand(), low.operand()).py(vm)?;
        if range.to_vec::<f64>().iter().any(|x| !x.is_finite()) {
            return Err(vm.new_overflow_error("Range exceeds valid bounds".to_owned()));
        }
        let out = param_shape(&shape, &[&low, &high], vm)?;
        let n = count(&Some(out.clone()), vm)?;
        let u = HostArray::from_vec(&out, self.with(|r| r.random_sample(n))).py(vm)?;
        let scaled = binary(BinaryOp::Mul, (&range).into(), (&u).into()).py(vm)?;
        let r = binary(BinaryOp::Add, low.operand(), (&scaled).into()).py(vm)?;
        wrap_array(r.astype(DType::Float64), vm)
    }

    /// `randint(low, high, size, dtype)`: without a size, a Python int for
    /// the default dtype (`dtype` None) and a numpy scalar otherwise.
    #[pymethod]
    fn randint(
        &self,
        low: PyObjectRef,
        high: PyObjectRef,
        size: PyObjectRef,
        dtype: Option<PyStrRef>,
        vm: &VirtualMachine,
    ) -> PyResult {
        let shape = size_arg(&size, vm)?;
        let (idt, dt) = int_dtype(dtype.as_ref().map_or("int64", |d| d.as_str()), vm)?;
        let low = i128::from(index_int(&low, vm)?);
        let high = if vm.is_none(&high) {
            None
        } else {
            Some(i128::from(index_int(&high, vm)?))
        };
        let n = count(&shape, vm)?;
        let v = self.with(|r| r.randint(low, high, n, idt)).py(vm)?;
        match shape {
            None => {
                let x = v.first().copied().unwrap_or(0);
                if dtype.is_none() {
                    return Ok(vm.ctx.new_int(x).into());
                }
                let a = HostArray::scalar(dt, crate::host::Scalar::Int(x));
                wrap_any(a, vm)
            }
            Some(s) => wrap_array(HostArray::from_vec(&s, v).py(vm)?.astype(dt), vm),
        }
    }

    /// `_binomial(n, p)`: one draw (numpy.random's Python side checks the
    /// parameters and shapes the draws).
    #[pymethod]
    fn _binomial(&self, n: i64, p: f64) -> i64 {
        self.with(|r| r.binomial(n, p))
    }

    /// `_poisson(lam)`: one draw (numpy.random's Python side checks `lam`
    /// and shapes the draws).
    #[pymethod]
    fn _poisson(&self, lam: f64) -> i64 {
        self.with(|r| r.poisson(lam))
    }

    /// `_multinomial(n, pvals)`: one sample of the counts of each class.
    #[pymethod]
    fn _multinomial(
        &self,
        n: i64,
        pvals: rustpython_vm::builtins::PyListRef,
        vm: &VirtualMachine,
    ) -> PyResult {
        let pvals = pvals
            .borrow_vec()
            .iter()
            .map(|p| p.try_float(vm).map(|f| f.to_f64()))
            .collect::<PyResult<Vec<f64>>>()?;
        let counts = self.with(|r| r.multinomial(n, &pvals));
        Ok(vm
            .ctx
            .new_list(
                counts
                    .into_iter()
                    .map(|c| vm.ctx.new_int(c).into())
                    .collect(),
            )
            .into())
    }

    /// `_permutation(n)`: `arange(n)` shuffled, the indices `shuffle` and
    /// `permutation` apply (numpy's Fisher–Yates makes the same moves on
    /// any sequence).
    #[pymethod]
    fn _permutation(&self, n: PyObjectRef, vm: &VirtualMachine) -> PyResult {
        let n = index_int(&n, vm)?;
        crate::host::array::checked_size(&[n.max(0) as usize]).py(vm)?;
        let v = self.with(|r| r.permutation(n));
        wrap_array(HostArray::from_vec(&[v.len()], v).py(vm)?, vm)
    }

    /// `choice(a, size, replace, p)`.
    #[pymethod]
    fn choice(
        &self,
        a: PyObjectRef,
        size: PyObjectRef,
        replace: bool,
        p: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult {
        let shape = size_arg(&size, vm)?;
        let n = count(&shape, vm)?;
        let from = match Held::require(&a, vm)? {
            Held::Scalar(crate::host::Scalar::Float(_)) => {
                return Err(vm.new_type_error(
                    "'float' object cannot be interpreted as an integer".to_owned(),
                ))
            }
            Held::Scalar(s) => {
                let _ = s;
                None
            }
            other => {
                let arr = other.array();
                match arr.ndim() {
                    0 if arr.dtype().is_int() => None,
                    1 => Some(arr),
                    _ => return Err(vm.new_value_error("a must be 1-dimensional".to_owned())),
                }
            }
        };
        let population = match &from {
            None => Population::Int(index_int(&a, vm)?),
            Some(x) => Population::Len(x.shape()[0]),
        };
        let probs = if vm.is_none(&p) {
            None
        } else {
            let x = to_array(&p, None, vm)?;
            if x.ndim() != 1 {
                return Err(vm.new_value_error("p must be 1-dimensional".to_owned()));
            }
            Some((x.to_vec::<f64>(), x.dtype() == DType::Float32))
        };
        let probabilities = probs.as_ref().map(|(p, float32)| Probabilities {
            p,
            float32: *float32,
        });
        let idx = self
            .with(|r| r.choice(population, n, replace, probabilities))
            .map_err(|e| host_error(vm, e))?;
        let idx = HostArray::from_vec(&[idx.len()], idx).py(vm)?;
        let picked = match &from {
            None => idx,
            Some(x) => x.index(&[Index::Array(idx)]).py(vm)?,
        };
        match shape {
            None => {
                let one = picked.index(&[Index::Int(0)]).py(vm)?;
                if from.is_none() {
                    let v = one.item().py(vm)?.as_i64().py(vm)?;
                    return Ok(vm.ctx.new_int(v).into());
                }
                wrap_any(one, vm)
            }
            Some(s) => {
                let dims: Vec<i64> = s.iter().map(|&d| d as i64).collect();
                wrap_array(picked.reshape(&dims).py(vm)?, vm)
            }
        }
    }
}
