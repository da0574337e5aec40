//! Element-wise arithmetic, comparisons and math functions with numpy's
//! promotion (see [`super::dtype`]) and broadcasting, and the closeness
//! tests built on them.
//!
//! The kernels are numpy's: integer arithmetic wraps; `//` and `%` of
//! integers floor (Python's signs) and give 0 for a zero divisor; float
//! `//` and `%` follow `npy_divmod` (`fmod`, then adjusted toward Python's
//! convention); `**` of integers is exponentiation by squaring that wraps,
//! and a negative integer exponent is numpy's `ValueError`; `x ** 2`,
//! `x ** -1` and `x ** 0.5` of a float array with a Python scalar exponent
//! are `square`, `reciprocal` and `sqrt`, as numpy's fast path makes them.
//! `exp`, `log` and `tanh` are numpy's own SIMD kernels where numpy uses
//! them (float32 `exp` and `log`, `tanh`; [`super::numpy_math`]) and the C
//! library elsewhere, as numpy calls it.
use std::borrow::Cow;

use ndarray::{ArrayD, IxDyn, Zip};

use super::array::python_to;
use super::dtype::{DType, Elem, Scalar, ScalarKind};
use super::error::{HostError, Result};
use super::HostArray;

/// One operand of an element-wise operation: an array (numpy arrays and
/// numpy scalars, which are strongly typed) or a Python scalar (weakly
/// typed).
#[derive(Debug, Clone, Copy)]
pub enum Operand<'a> {
    Array(&'a HostArray),
    Scalar(Scalar),
}

impl<'a> Operand<'a> {
    /// The operand's shape (`()` for a Python scalar).
    pub fn shape(&self) -> &'a [usize] {
        match self {
            Operand::Array(a) => a.shape(),
            Operand::Scalar(_) => &[],
        }
    }
}

impl<'a> From<&'a HostArray> for Operand<'a> {
    fn from(a: &'a HostArray) -> Operand<'a> {
        Operand::Array(a)
    }
}

impl From<Scalar> for Operand<'_> {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}

/// A binary operator or two-argument ufunc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    TrueDiv,
    FloorDiv,
    Mod,
    Pow,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }
}

/// A one-argument ufunc (`-a` is `Neg`). `IsNan`, `IsInf` and `IsFinite`
/// give bool arrays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Abs,
    Exp,
    Log,
    Sqrt,
    Tanh,
    Square,
    Reciprocal,
    IsNan,
    IsInf,
    IsFinite,
    Floor,
    Ceil,
}

/// `np.result_type` of two operands (numpy 2's rules, see
/// [`super::dtype`]).
pub fn result_type(a: Operand<'_>, b: Operand<'_>) -> DType {
    match (a, b) {
        (Operand::Array(x), Operand::Array(y)) => DType::promote(x.dtype(), y.dtype()),
        (Operand::Array(x), Operand::Scalar(s)) | (Operand::Scalar(s), Operand::Array(x)) => {
            x.dtype().promote_weak(s.kind())
        }
        (Operand::Scalar(s), Operand::Scalar(t)) => DType::default_for(s.kind().max(t.kind())),
    }
}

/// A shape as numpy's broadcasting error prints it: `(2,3)`, `(4,)`.
pub(crate) fn compact_shape(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    match shape {
        [_] => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(",")),
    }
}

/// The broadcast shape of several shapes, or numpy's error.
pub fn broadcast_shapes(shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    for shape in shapes {
        for (k, &d) in shape.iter().enumerate() {
            let o = &mut out[ndim - shape.len() + k];
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                let listed: Vec<String> = shapes.iter().map(|s| compact_shape(s)).collect();
                return Err(HostError::value_error(format!(
                    "operands could not be broadcast together with shapes {} ",
                    listed.join(" ")
                )));
            }
        }
    }
    Ok(out)
}

/// `x` viewed with `shape` (which it broadcasts to).
pub(crate) fn broadcast_to<'a, T>(
    x: &'a ArrayD<T>,
    shape: &[usize],
) -> Result<ndarray::ArrayViewD<'a, T>> {
    x.broadcast(IxDyn(shape)).ok_or_else(|| {
        HostError::value_error(format!(
            "operands could not be broadcast together with shapes {} {} ",
            compact_shape(x.shape()),
            compact_shape(shape)
        ))
    })
}

/// `f` of the elements of `x` and `y` broadcast to `shape`.
fn zip2<A: Copy, B: Copy, O>(
    x: &ArrayD<A>,
    y: &ArrayD<B>,
    shape: &[usize],
    f: impl Fn(A, B) -> O,
) -> Result<ArrayD<O>> {
    let (xv, yv) = (broadcast_to(x, shape)?, broadcast_to(y, shape)?);
    Ok(Zip::from(&xv).and(&yv).map_collect(|&a, &b| f(a, b)))
}

/// The operand as an array of `T` (a Python scalar as a 0-d array);
/// `check` rejects Python ints out of `T`'s range, as numpy does.
pub(crate) fn operand_array<T: Elem>(o: Operand<'_>, check: bool) -> Result<Cow<'_, ArrayD<T>>> {
    match o {
        Operand::Array(a) => Ok(a.view::<T>()),
        Operand::Scalar(s) => {
            let s = if check { python_to(s, T::DTYPE)? } else { s };
            Ok(Cow::Owned(ArrayD::from_elem(IxDyn(&[]), T::cast_from(s))))
        }
    }
}

/// The arithmetic of one element type, numpy's kernels.
trait Arith: Elem {
    fn add(a: Self, b: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn div(a: Self, b: Self) -> Self;
    fn floor_div(a: Self, b: Self) -> Self;
    fn rem(a: Self, b: Self) -> Self;
    fn pow(a: Self, b: Self) -> Self;
    fn maximum(a: Self, b: Self) -> Self;
    fn minimum(a: Self, b: Self) -> Self;
    fn is_negative(self) -> bool;
}

impl Arith for bool {
    fn add(a: bool, b: bool) -> bool {
        a | b
    }
    fn sub(a: bool, b: bool) -> bool {
        a ^ b
    }
    fn mul(a: bool, b: bool) -> bool {
        a & b
    }
    fn div(a: bool, b: bool) -> bool {
        a & b
    }
    fn floor_div(a: bool, b: bool) -> bool {
        a & b
    }
    fn rem(a: bool, b: bool) -> bool {
        a & !b
    }
    fn pow(a: bool, b: bool) -> bool {
        a | !b
    }
    fn maximum(a: bool, b: bool) -> bool {
        a | b
    }
    fn minimum(a: bool, b: bool) -> bool {
        a & b
    }
    fn is_negative(self) -> bool {
        false
    }
}

macro_rules! int_arith {
    ($t:ty) => {
        // `< 0` is always false for u8.
        #[allow(unused_comparisons)]
        impl Arith for $t {
            fn add(a: $t, b: $t) -> $t {
                a.wrapping_add(b)
            }
            fn sub(a: $t, b: $t) -> $t {
                a.wrapping_sub(b)
            }
            fn mul(a: $t, b: $t) -> $t {
                a.wrapping_mul(b)
            }
            fn div(a: $t, b: $t) -> $t {
                Self::floor_div(a, b)
            }
            fn floor_div(a: $t, b: $t) -> $t {
                if b == 0 {
                    return 0;
                }
                let q = a.wrapping_div(b);
                if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            }
            fn rem(a: $t, b: $t) -> $t {
                if b == 0 {
                    return 0;
                }
                let r = a.wrapping_rem(b);
                if r != 0 && ((r < 0) != (b < 0)) {
                    r + b
                } else {
                    r
                }
            }
            fn pow(a: $t, b: $t) -> $t {
                let (mut base, mut exp, mut out): ($t, $t, $t) = (a, b, 1);
                while exp > 0 {
                    if exp & 1 == 1 {
                        out = out.wrapping_mul(base);
                    }
                    base = base.wrapping_mul(base);
                    exp >>= 1;
                }
                out
            }
            fn maximum(a: $t, b: $t) -> $t {
                a.max(b)
            }
            fn minimum(a: $t, b: $t) -> $t {
                a.min(b)
            }
            fn is_negative(self) -> bool {
                self < 0
            }
        }
    };
}

int_arith!(i8);
int_arith!(u8);
int_arith!(i32);
int_arith!(i64);

macro_rules! float_arith {
    ($t:ty) => {
        impl Arith for $t {
            fn add(a: $t, b: $t) -> $t {
                a + b
            }
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            fn div(a: $t, b: $t) -> $t {
                a / b
            }
            fn floor_div(a: $t, b: $t) -> $t {
                if b == 0.0 {
                    return a / b;
                }
                divmod(a, b).0
            }
            fn rem(a: $t, b: $t) -> $t {
                if b == 0.0 {
                    return a % b;
                }
                divmod(a, b).1
            }
            fn pow(a: $t, b: $t) -> $t {
                a.powf(b)
            }
            // numpy's SIMD kernels: the second operand on ties (so
            // `maximum(-0.0, 0.0)` is `0.0`), NaN from either side.
            fn maximum(a: $t, b: $t) -> $t {
                if a > b || a.is_nan() {
                    a
                } else {
                    b
                }
            }
            fn minimum(a: $t, b: $t) -> $t {
                if a < b || a.is_nan() {
                    a
                } else {
                    b
                }
            }
            fn is_negative(self) -> bool {
                false
            }
        }
    };
}

float_arith!(f32);
float_arith!(f64);

/// numpy's `npy_divmod` for a nonzero divisor: the floored quotient and
/// Python's remainder.
fn divmod<T: num_like::FloatLike>(a: T, b: T) -> (T, T) {
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != T::ZERO {
        if (b < T::ZERO) != (m < T::ZERO) {
            m = m + b;
            div = div - T::ONE;
        }
    } else {
        m = T::ZERO.copysign(b);
    }
    let floordiv = if div != T::ZERO {
        let f = div.floor();
        if div - f > T::HALF {
            f + T::ONE
        } else {
            f
        }
    } else {
        T::ZERO.copysign(a / b)
    };
    (floordiv, m)
}

/// The float operations [`divmod`] needs, for f32 and f64.
mod num_like {
    use std::ops::{Add, Div, Rem, Sub};

    pub trait FloatLike:
        Copy
        + PartialOrd
        + Add<Output = Self>
        + Sub<Output = Self>
        + Div<Output = Self>
        + Rem<Output = Self>
    {
        const ZERO: Self;
        const ONE: Self;
        const HALF: Self;
        fn floor(self) -> Self;
        fn copysign(self, sign: Self) -> Self;
    }

    macro_rules! float_like {
        ($t:ty) => {
            impl FloatLike for $t {
                const ZERO: Self = 0.0;
                const ONE: Self = 1.0;
                const HALF: Self = 0.5;
                fn floor(self) -> Self {
                    <$t>::floor(self)
                }
                fn copysign(self, sign: Self) -> Self {
                    <$t>::copysign(self, sign)
                }
            }
        };
    }

    float_like!(f32);
    float_like!(f64);
}

fn arith_kernel<T: Arith>(op: BinaryOp) -> fn(T, T) -> T {
    match op {
        BinaryOp::Add => T::add,
        BinaryOp::Sub => T::sub,
        BinaryOp::Mul => T::mul,
        BinaryOp::TrueDiv => T::div,
        BinaryOp::FloorDiv => T::floor_div,
        BinaryOp::Mod => T::rem,
        BinaryOp::Pow => T::pow,
        BinaryOp::Maximum => T::maximum,
        _ => T::minimum,
    }
}

fn compare_kernel<T: Elem>(op: BinaryOp) -> fn(T, T) -> bool {
    match op {
        BinaryOp::Eq => |a, b| a == b,
        BinaryOp::Ne => |a, b| a != b,
        BinaryOp::Lt => |a, b| a < b,
        BinaryOp::Le => |a, b| a <= b,
        BinaryOp::Gt => |a, b| a > b,
        _ => |a, b| a >= b,
    }
}

fn compute<T: Arith>(
    op: BinaryOp,
    a: Operand<'_>,
    b: Operand<'_>,
    check: bool,
) -> Result<HostArray> {
    let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
    let (x, y) = (operand_array::<T>(a, check)?, operand_array::<T>(b, check)?);
    if op.is_comparison() {
        return zip2(&x, &y, &shape, compare_kernel::<T>(op)).map(HostArray::Bool);
    }
    if op == BinaryOp::Pow && T::DTYPE.is_int() && y.iter().any(|v| v.is_negative()) {
        return Err(HostError::value_error(
            "Integers to negative integer powers are not allowed.",
        ));
    }
    zip2(&x, &y, &shape, arith_kernel::<T>(op)).map(T::wrap)
}

/// `a OP b` with numpy's promotion and broadcasting.
pub fn binary(op: BinaryOp, a: Operand<'_>, b: Operand<'_>) -> Result<HostArray> {
    let mut dtype = result_type(a, b);
    let mut check = true;
    if op.is_comparison() {
        // Comparisons with Python ints are exact whatever their size.
        let weak_int =
            |o: Operand<'_>| matches!(o, Operand::Scalar(s) if s.kind() == ScalarKind::Int);
        if dtype.is_int() && (weak_int(a) || weak_int(b)) {
            dtype = DType::Int64;
        }
        check = false;
    }
    if dtype == DType::Bool {
        match op {
            BinaryOp::Sub => {
                return Err(HostError::type_error(
                    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead.",
                ))
            }
            BinaryOp::FloorDiv | BinaryOp::Mod | BinaryOp::Pow => {
                return Err(HostError::unsupported(
                    "numpy gives an int8 array for `//`, `%` and `**` of booleans; fluidc has no int8",
                ))
            }
            _ => {}
        }
    }
    if op == BinaryOp::TrueDiv && !dtype.is_float() {
        dtype = DType::Float64;
    }
    if let (BinaryOp::Pow, Operand::Array(x), Operand::Scalar(s)) = (op, a, b) {
        let fast = match s {
            Scalar::Int(2) => Some(UnaryOp::Square),
            Scalar::Int(-1) => Some(UnaryOp::Reciprocal),
            Scalar::Float(0.5) => Some(UnaryOp::Sqrt),
            _ => None,
        };
        if let (Some(f), true) = (fast, x.dtype().is_float()) {
            return x.unary(f);
        }
    }
    with_dtype!(dtype, T => compute::<T>(op, a, b, check))
}

/// The math of one float type, for the unary functions.
trait Math: Elem + Arith {
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn tanh(self) -> Self;
    fn is_nan(self) -> bool;
    fn is_infinite(self) -> bool;
    fn neg(self) -> Self;
    fn abs(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn rint(self) -> Self;
    fn from_f64(x: f64) -> Self;
}

macro_rules! math {
    ($t:ty, $exp:path, $ln:path, $tanh:path) => {
        impl Math for $t {
            fn exp(self) -> $t {
                $exp(self)
            }
            fn ln(self) -> $t {
                $ln(self)
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn tanh(self) -> $t {
                $tanh(self)
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            fn neg(self) -> $t {
                -self
            }
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
            fn floor(self) -> $t {
                <$t>::floor(self)
            }
            fn ceil(self) -> $t {
                <$t>::ceil(self)
            }
            fn rint(self) -> $t {
                <$t>::round_ties_even(self)
            }
            fn from_f64(x: f64) -> $t {
                x as $t
            }
        }
    };
}

// numpy computes float32 `exp`, `log` and `tanh` and float64 `tanh` with
// its own SIMD kernels, float64 `exp` and `log` with the C library.
math!(
    f32,
    super::numpy_math::exp_f32,
    super::numpy_math::log_f32,
    super::numpy_math::tanh_f32
);
math!(f64, f64::exp, f64::ln, super::numpy_math::tanh_f64);

fn float_unary<T: Math>(op: UnaryOp, a: &ArrayD<T>) -> HostArray {
    match op {
        UnaryOp::IsNan => HostArray::Bool(a.mapv(|x| x.is_nan())),
        UnaryOp::IsInf => HostArray::Bool(a.mapv(|x| x.is_infinite())),
        UnaryOp::IsFinite => HostArray::Bool(a.mapv(|x| !x.is_nan() && !x.is_infinite())),
        _ => {
            let f: fn(T) -> T = match op {
                UnaryOp::Neg => T::neg,
                UnaryOp::Abs => T::abs,
                UnaryOp::Exp => T::exp,
                UnaryOp::Log => T::ln,
                UnaryOp::Sqrt => T::sqrt,
                UnaryOp::Tanh => T::tanh,
                UnaryOp::Square => |x| T::mul(x, x),
                UnaryOp::Floor => T::floor,
                UnaryOp::Ceil => T::ceil,
                _ => |x| T::div(T::ONE, x),
            };
            T::wrap(a.mapv(f))
        }
    }
}

impl HostArray {
    /// `-a`, `np.abs(a)`, `np.exp(a)`, ...: float arrays keep their
    /// dtype, integer arrays compute in float64 (`Neg` and `Abs` keep
    /// integers, wrapping).
    pub fn unary(&self, op: UnaryOp) -> Result<HostArray> {
        let predicate = matches!(op, UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite);
        match self {
            HostArray::Float32(a) => Ok(float_unary(op, a)),
            HostArray::Float64(a) => Ok(float_unary(op, a)),
            _ if predicate => {
                let finite = op == UnaryOp::IsFinite;
                Ok(HostArray::Bool(ArrayD::from_elem(IxDyn(self.shape()), finite)))
            }
            HostArray::UInt8(a) if op == UnaryOp::Neg => Ok(HostArray::UInt8(a.mapv(u8::wrapping_neg))),
            HostArray::UInt8(a) if op == UnaryOp::Abs => Ok(HostArray::UInt8(a.clone())),
            HostArray::UInt8(a) if op == UnaryOp::Square => Ok(HostArray::UInt8(a.mapv(|x| x.wrapping_mul(x)))),
            HostArray::Int8(a) if op == UnaryOp::Neg => Ok(HostArray::Int8(a.mapv(i8::wrapping_neg))),
            HostArray::Int8(a) if op == UnaryOp::Abs => Ok(HostArray::Int8(a.mapv(i8::wrapping_abs))),
            HostArray::Int8(a) if op == UnaryOp::Square => Ok(HostArray::Int8(a.mapv(|x| x.wrapping_mul(x)))),
            HostArray::Int32(a) if op == UnaryOp::Neg => Ok(HostArray::Int32(a.mapv(i32::wrapping_neg))),
            HostArray::Int64(a) if op == UnaryOp::Neg => Ok(HostArray::Int64(a.mapv(i64::wrapping_neg))),
            HostArray::Int32(a) if op == UnaryOp::Abs => Ok(HostArray::Int32(a.mapv(i32::wrapping_abs))),
            HostArray::Int64(a) if op == UnaryOp::Abs => Ok(HostArray::Int64(a.mapv(i64::wrapping_abs))),
            HostArray::Int32(a) if op == UnaryOp::Square => Ok(HostArray::Int32(a.mapv(|x| x.wrapping_mul(x)))),
            HostArray::Int64(a) if op == UnaryOp::Square => Ok(HostArray::Int64(a.mapv(|x| x.wrapping_mul(x)))),
            // numpy 2.4 keeps integer (and bool) dtypes for floor and ceil.
            _ if matches!(op, UnaryOp::Floor | UnaryOp::Ceil) => Ok(self.clone()),
            HostArray::Int8(_) | HostArray::UInt8(_) | HostArray::Int32(_) | HostArray::Int64(_) => {
                Ok(float_unary(op, &self.view::<f64>()))
            }
            HostArray::Bool(a) => match op {
                UnaryOp::Abs => Ok(HostArray::Bool(a.clone())),
                UnaryOp::Neg => Err(HostError::type_error(
                    "The numpy boolean negative, the `-` operator, is not supported, use the `~` operator or the logical_not function instead.",
                )),
                _ => Err(HostError::unsupported(
                    "numpy gives a float16 array for this function of a bool array; fluidc has no float16",
                )),
            },
        }
    }
}

/// `x * 10**d` rounded half to even and scaled back, in `T` as numpy's
/// `round` computes it (a negative `d` divides first).
fn round_float<T: Math>(a: &ArrayD<T>, decimals: i64) -> ArrayD<T> {
    let scale = T::from_f64(10f64.powi(decimals.unsigned_abs().min(400) as i32));
    if decimals >= 0 {
        a.mapv(|x| T::div(T::rint(T::mul(x, scale)), scale))
    } else {
        a.mapv(|x| T::mul(T::rint(T::div(x, scale)), scale))
    }
}

impl HostArray {
    /// `np.round(a, decimals)`: floats round half to even at `decimals`
    /// places; integers keep their dtype and round to a power of ten when
    /// `decimals` is negative.
    pub fn round(&self, decimals: i64) -> Result<HostArray> {
        fn int_round<T: Elem + Into<i128> + TryFrom<i128>>(
            a: &ArrayD<T>,
            decimals: i64,
        ) -> ArrayD<T> {
            let Ok(k) = u32::try_from(-decimals) else {
                return a.clone();
            };
            let Some(scale) = 10i128.checked_pow(k) else {
                return a.mapv(|_| T::ZERO);
            };
            a.mapv(|x| {
                let v: i128 = x.into();
                let (q, r) = (v.div_euclid(scale), v.rem_euclid(scale));
                let up = 2 * r > scale || (2 * r == scale && q % 2 != 0);
                T::try_from((q + i128::from(up)) * scale).unwrap_or(T::ZERO)
            })
        }
        Ok(match self {
            HostArray::Float32(a) => HostArray::Float32(round_float(a, decimals)),
            HostArray::Float64(a) => HostArray::Float64(round_float(a, decimals)),
            HostArray::Int8(a) => HostArray::Int8(int_round(a, decimals)),
            HostArray::UInt8(a) => HostArray::UInt8(int_round(a, decimals)),
            HostArray::Int32(a) => HostArray::Int32(int_round(a, decimals)),
            HostArray::Int64(a) => HostArray::Int64(int_round(a, decimals)),
            HostArray::Bool(_) => return Err(HostError::unsupported(
                "numpy gives a float16 array when it rounds a bool array; fluidc has no float16",
            )),
        })
    }
}

/// The tolerances of `np.isclose` and `np.allclose`; the default is
/// numpy's (`rtol=1e-05, atol=1e-08, equal_nan=False`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    pub rtol: f64,
    pub atol: f64,
    pub equal_nan: bool,
}

impl Default for Tolerance {
    fn default() -> Tolerance {
        Tolerance {
            rtol: 1e-5,
            atol: 1e-8,
            equal_nan: false,
        }
    }
}

/// `np.isclose(a, b, rtol, atol, equal_nan)`, as numpy computes it:
/// `abs(a - b) <= atol + rtol * abs(b)` where `b` is finite, or `a == b`,
/// in `b`'s float dtype.
pub fn isclose(a: Operand<'_>, b: Operand<'_>, tol: Tolerance) -> Result<HostArray> {
    let Tolerance {
        rtol,
        atol,
        equal_nan,
    } = tol;
    let y_array;
    let y = match b {
        Operand::Array(h) => {
            y_array = h.astype(h.dtype().promote_weak(ScalarKind::Float));
            Operand::Array(&y_array)
        }
        Operand::Scalar(Scalar::Int(i)) => Operand::Scalar(Scalar::Float(i as f64)),
        s => s,
    };
    let abs_y = operand_unary(y, UnaryOp::Abs)?;
    let diff = binary(BinaryOp::Sub, a, y)?.unary(UnaryOp::Abs)?;
    let scaled = binary(
        BinaryOp::Mul,
        Operand::Scalar(Scalar::Float(rtol)),
        (&abs_y).into(),
    )?;
    let tol = binary(
        BinaryOp::Add,
        Operand::Scalar(Scalar::Float(atol)),
        (&scaled).into(),
    )?;
    let within = binary(BinaryOp::Le, (&diff).into(), (&tol).into())?;
    let y_finite = operand_unary(y, UnaryOp::IsFinite)?;
    let close = binary(BinaryOp::Mul, (&within).into(), (&y_finite).into())?;
    let equal = binary(BinaryOp::Eq, a, y)?;
    let mut result = binary(BinaryOp::Add, (&close).into(), (&equal).into())?;
    if equal_nan {
        let (nan_a, nan_b) = (
            operand_unary(a, UnaryOp::IsNan)?,
            operand_unary(y, UnaryOp::IsNan)?,
        );
        let both = binary(BinaryOp::Mul, (&nan_a).into(), (&nan_b).into())?;
        result = binary(BinaryOp::Add, (&result).into(), (&both).into())?;
    }
    Ok(result)
}

/// The operand as an array (a Python scalar as a 0-d array of its default
/// dtype).
fn operand_host(o: Operand<'_>) -> HostArray {
    match o {
        Operand::Array(a) => a.clone(),
        Operand::Scalar(s) => HostArray::scalar(DType::default_for(s.kind()), s),
    }
}

fn operand_unary(o: Operand<'_>, op: UnaryOp) -> Result<HostArray> {
    operand_host(o).unary(op)
}

/// `np.allclose(a, b, rtol, atol, equal_nan)`.
pub fn allclose(a: Operand<'_>, b: Operand<'_>, tol: Tolerance) -> Result<bool> {
    let close = isclose(a, b, tol)?;
    Ok(close.to_vec::<bool>().iter().all(|&c| c))
}

/// `np.array_equal(a, b)`: same shape and equal elements (NaN is not
/// equal to itself).
pub fn array_equal(a: &HostArray, b: &HostArray) -> bool {
    a.shape() == b.shape()
        && binary(BinaryOp::Eq, a.into(), b.into())
            .map(|eq| eq.to_vec::<bool>().iter().all(|&e| e))
            .unwrap_or(false)
}
