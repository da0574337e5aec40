//! Reductions (`sum`, `mean`, `max`, `argmax`, `std`, ...) over one axis
//! or all, with `keepdims`, computed as numpy computes them so float
//! results agree to the last bit:
//! - float `sum` adds numpy's way: pairwise summation (blocks of 8, split
//!   in halves above 128 elements) when the reduced axis is the innermost
//!   one in memory (every axis after it has length 1, or all axes are
//!   reduced), plain left-to-right addition otherwise (numpy's iterator
//!   then adds whole rows); sums that cast (integers to float64 for
//!   `mean`) go through numpy's 8192-element buffers;
//! - integer and bool `sum`/`prod` give int64 (wrapping), `mean`, `var`
//!   and `std` of them float64; float32 stays float32 throughout;
//! - `var` is `mean(abs(x - x.mean())**2)`, `std` its square root;
//! - `max`/`min` propagate NaN, `argmax`/`argmin` return the first NaN.
use std::cmp::Ordering;
use std::ops::{Add, Mul};

use ndarray::{ArrayD, Axis};

use super::array::{from_shape_vec, normalize_axis};
use super::dtype::{DType, Elem};
use super::error::{HostError, Result};
use super::HostArray;

/// A reduction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Prod,
    Mean,
    Max,
    Min,
    Std,
    Var,
    Argmax,
    Argmin,
    Any,
    All,
}

impl Reduction {
    /// numpy's name of the ufunc or function, for messages.
    fn name(self) -> &'static str {
        match self {
            Reduction::Max => "maximum",
            Reduction::Min => "minimum",
            Reduction::Argmax => "argmax",
            Reduction::Argmin => "argmin",
            _ => "reduction",
        }
    }
}

/// The lanes a reduction runs over and the shape of its result.
struct Plan {
    /// The reduced axis, `None` for all.
    axis: Option<usize>,
    out_shape: Vec<usize>,
    /// numpy sums these lanes pairwise (the reduced axis is innermost).
    pairwise: bool,
}

impl Plan {
    fn new(shape: &[usize], axis: Option<i64>, keepdims: bool) -> Result<Plan> {
        let Some(axis) = axis else {
            let out_shape = if keepdims {
                vec![1; shape.len()]
            } else {
                Vec::new()
            };
            return Ok(Plan {
                axis: None,
                out_shape,
                pairwise: true,
            });
        };
        let k = normalize_axis(axis, shape.len())?;
        let mut out_shape = shape.to_vec();
        if keepdims {
            out_shape[k] = 1;
        } else {
            out_shape.remove(k);
        }
        Ok(Plan {
            axis: Some(k),
            out_shape,
            pairwise: shape[k + 1..].iter().all(|&d| d == 1),
        })
    }

    /// `f` of every lane, as an array of the result's shape.
    fn map<T: Elem, O: Elem>(&self, a: &ArrayD<T>, f: impl Fn(&[T]) -> O) -> Result<ArrayD<O>> {
        let out: Vec<O> = match self.axis {
            None => {
                let all: Vec<T> = a.iter().copied().collect();
                vec![f(&all)]
            }
            Some(k) => {
                let mut lane = Vec::with_capacity(a.shape()[k]);
                a.lanes(Axis(k))
                    .into_iter()
                    .map(|l| {
                        lane.clear();
                        lane.extend(l.iter().copied());
                        f(&lane)
                    })
                    .collect()
            }
        };
        from_shape_vec(&self.out_shape, out)
    }

    /// The number of elements each lane has.
    fn count(&self, shape: &[usize]) -> usize {
        match self.axis {
            None => shape.iter().product(),
            Some(k) => shape[k],
        }
    }
}

/// numpy's `pairwise_sum`: blocks of eight accumulators below 128
/// elements, halves (cut at a multiple of 8) above.
fn pairwise<F: Copy + Add<Output = F> + Elem>(a: &[F]) -> F {
    let n = a.len();
    if n < 8 {
        return a.iter().fold(F::ZERO, |s, &x| s + x);
    }
    if n <= 128 {
        let mut r = [F::ZERO; 8];
        r.copy_from_slice(&a[..8]);
        let full = n - n % 8;
        for block in a[8..full].chunks_exact(8) {
            for (acc, &x) in r.iter_mut().zip(block) {
                *acc = *acc + x;
            }
        }
        let head = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        return a[full..].iter().fold(head, |s, &x| s + x);
    }
    let half = n / 2;
    let half = half - half % 8;
    pairwise(&a[..half]) + pairwise(&a[half..])
}

/// numpy's buffer size: a reduction that casts sums buffers of this many
/// elements, each pairwise.
const BUFFER: usize = 8192;

fn float_sum<F: Copy + Add<Output = F> + Elem>(
    lane: &[F],
    pairwise_lane: bool,
    buffered: bool,
) -> F {
    if !pairwise_lane {
        return lane.iter().fold(F::ZERO, |s, &x| s + x);
    }
    if buffered {
        return lane.chunks(BUFFER).fold(F::ZERO, |s, c| s + pairwise(c));
    }
    F::ZERO + pairwise(lane)
}

fn int_sum(lane: &[i64]) -> i64 {
    lane.iter().fold(0i64, |s, &x| s.wrapping_add(x))
}

fn product<T: Copy + Mul<Output = T> + Elem>(lane: &[T]) -> T {
    lane.iter().fold(T::ONE, |p, &x| p * x)
}

/// The sum in the dtype numpy sums in (`None`: int64 for integers and
/// bools, the float's own dtype for floats; `Some(Float64)` for `mean`).
fn sum(a: &HostArray, plan: &Plan, as_float64: bool) -> Result<HostArray> {
    let pw = plan.pairwise;
    match a {
        HostArray::Float32(x) if !as_float64 => plan
            .map(x, |l| float_sum(l, pw, false))
            .map(HostArray::Float32),
        HostArray::Float64(x) => plan
            .map(x, |l| float_sum(l, pw, false))
            .map(HostArray::Float64),
        _ if as_float64 => {
            let x = a.view::<f64>();
            plan.map(&x, |l| float_sum(l, pw, true))
                .map(HostArray::Float64)
        }
        _ => plan.map(&a.view::<i64>(), int_sum).map(HostArray::Int64),
    }
}

/// `true_divide(x, n)` in `x`'s float dtype.
fn divide(x: HostArray, n: usize) -> HostArray {
    match x {
        HostArray::Float32(v) => HostArray::Float32(v.mapv(|s| s / n as f32)),
        other => HostArray::Float64(other.view::<f64>().mapv(|s| s / n as f64)),
    }
}

fn mean(a: &HostArray, plan: &Plan) -> Result<HostArray> {
    let float64 = !matches!(a, HostArray::Float32(_) | HostArray::Float64(_));
    Ok(divide(sum(a, plan, float64)?, plan.count(a.shape())))
}

fn var(a: &HostArray, axis: Option<i64>, keepdims: bool) -> Result<HostArray> {
    use super::ops::{binary, BinaryOp, Operand};
    let kept = Plan::new(a.shape(), axis, true)?;
    let arrmean = mean(a, &kept)?;
    let x = binary(BinaryOp::Sub, Operand::Array(a), Operand::Array(&arrmean))?;
    let squares = binary(BinaryOp::Mul, Operand::Array(&x), Operand::Array(&x))?;
    let plan = Plan::new(a.shape(), axis, keepdims)?;
    let n = plan.count(a.shape());
    Ok(divide(sum(&squares, &plan, false)?, n))
}

/// numpy's `maximum` (`minimum`) of the running value and the next: NaN
/// wins, ties give the next (numpy's SIMD kernels; it shows for `-0.0`
/// against `0.0`).
fn pick<T: Elem>(acc: T, x: T, max: bool) -> T {
    let acc_nan = acc.partial_cmp(&acc).is_none();
    let keep = if max { acc > x } else { acc < x };
    if keep || acc_nan {
        acc
    } else {
        x
    }
}

fn extreme<T: Elem>(a: &ArrayD<T>, plan: &Plan, max: bool) -> Result<ArrayD<T>> {
    plan.map(a, |lane| {
        let mut it = lane.iter().copied();
        let first = it.next().unwrap_or(T::ZERO);
        it.fold(first, |acc, x| pick(acc, x, max))
    })
}

/// numpy's `argmax`: the first index whose value is not `<=` the best so
/// far (so the first NaN); `argmin` with `>=`.
fn arg_extreme<T: Elem>(a: &ArrayD<T>, plan: &Plan, max: bool) -> Result<ArrayD<i64>> {
    plan.map(a, |lane| {
        let Some(&first) = lane.first() else { return 0 };
        let (mut best, mut at) = (first, 0usize);
        if first.partial_cmp(&first).is_none() {
            return 0;
        }
        for (i, &x) in lane.iter().enumerate().skip(1) {
            // `!(x <= best)`: larger, or NaN.
            let order = x.partial_cmp(&best);
            let better = if max {
                !matches!(order, Some(Ordering::Less | Ordering::Equal))
            } else {
                !matches!(order, Some(Ordering::Greater | Ordering::Equal))
            };
            if better {
                best = x;
                at = i;
                if x.partial_cmp(&x).is_none() {
                    break;
                }
            }
        }
        at as i64
    })
}

impl HostArray {
    /// `np.sum(a, axis, keepdims=...)` and friends; `axis=None` reduces
    /// every axis. See the module docs for the dtypes and the order of
    /// float additions.
    pub fn reduce(&self, op: Reduction, axis: Option<i64>, keepdims: bool) -> Result<HostArray> {
        // A ufunc's reduce takes axis 0 or -1 of a 0-d array as all of it
        // (`mean`, `std` and `var` check the axis first).
        let ufunc = !matches!(op, Reduction::Mean | Reduction::Std | Reduction::Var);
        let axis = axis.filter(|&a| !(ufunc && self.ndim() == 0 && (a == 0 || a == -1)));
        let plan = Plan::new(self.shape(), axis, keepdims)?;
        let empty_lanes = plan.count(self.shape()) == 0;
        match op {
            Reduction::Sum => sum(self, &plan, false),
            Reduction::Mean => mean(self, &plan),
            Reduction::Var => var(self, axis, keepdims),
            Reduction::Std => Ok(match var(self, axis, keepdims)? {
                HostArray::Float32(v) => HostArray::Float32(v.mapv(f32::sqrt)),
                other => HostArray::Float64(other.view::<f64>().mapv(f64::sqrt)),
            }),
            Reduction::Prod => match self {
                HostArray::Float32(x) => plan.map(x, product).map(HostArray::Float32),
                HostArray::Float64(x) => plan.map(x, product).map(HostArray::Float64),
                _ => plan
                    .map(&self.view::<i64>(), |l| {
                        l.iter().fold(1i64, |p, &x| p.wrapping_mul(x))
                    })
                    .map(HostArray::Int64),
            },
            Reduction::Any | Reduction::All => {
                let all = op == Reduction::All;
                let truth = self.view::<bool>();
                plan.map(&truth, |l| {
                    if all {
                        l.iter().all(|&b| b)
                    } else {
                        l.iter().any(|&b| b)
                    }
                })
                .map(HostArray::Bool)
            }
            Reduction::Max | Reduction::Min if empty_lanes => Err(HostError::value_error(format!(
                "zero-size array to reduction operation {} which has no identity",
                op.name()
            ))),
            Reduction::Max | Reduction::Min => {
                let max = op == Reduction::Max;
                Ok(each!(self, a => Elem::wrap(extreme(a, &plan, max)?)))
            }
            Reduction::Argmax | Reduction::Argmin if empty_lanes => Err(HostError::value_error(
                format!("attempt to get {} of an empty sequence", op.name()),
            )),
            Reduction::Argmax | Reduction::Argmin => {
                let max = op == Reduction::Argmax;
                Ok(HostArray::Int64(
                    each!(self, a => arg_extreme(a, &plan, max)?),
                ))
            }
        }
    }

    /// `a.any()` over everything.
    pub fn any(&self) -> bool {
        self.to_vec::<bool>().iter().any(|&b| b)
    }

    /// `a.all()` over everything.
    pub fn all(&self) -> bool {
        self.to_vec::<bool>().iter().all(|&b| b)
    }
}

/// The element type a [`Reduction`] keeps, for callers that need it
/// before computing (`np.sum(a).dtype`).
pub fn reduction_dtype(op: Reduction, input: DType) -> DType {
    match op {
        Reduction::Sum | Reduction::Prod if !input.is_float() => DType::Int64,
        Reduction::Mean | Reduction::Std | Reduction::Var if !input.is_float() => DType::Float64,
        Reduction::Argmax | Reduction::Argmin => DType::Int64,
        Reduction::Any | Reduction::All => DType::Bool,
        _ => input,
    }
}
