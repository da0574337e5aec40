//! Element-wise functions: operators and two-argument ufuncs (Python
//! numbers weak, numpy 2's promotion, broadcasting), in-place operators
//! (numpy's `same_kind` output casting), one-argument ufuncs, rounding,
//! clipping and closeness.
use std::ops::{BitAnd, BitOr, BitXor};

use ndarray::{ArrayD, Zip};
use rustpython_vm::builtins::{PyStr, PyStrRef};
use rustpython_vm::{PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

use super::convert::{float_arg, index_int, to_array, with2, Held};
use super::{registered_error, wrap_any, wrap_any_as, wrap_array_as, HostResult, PyHostArray};
use crate::host::numpy_math;
use crate::host::ops::{broadcast_to, compact_shape, operand_array};
use crate::host::{
    self, broadcast_shapes, result_type, BinaryOp, DType, Elem, HostArray, HostError, Operand,
    Tolerance, UnaryOp,
};

/// A two-argument ufunc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op2 {
    Host(BinaryOp),
    Bit(Bit),
    Logical(Bit),
    Shift(Shift),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shift {
    Left,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bit {
    And,
    Or,
    Xor,
}

/// The ufunc numpy names `name`.
fn op2(name: &str, vm: &VirtualMachine) -> PyResult<Op2> {
    use BinaryOp as B;
    Ok(match name {
        "add" => Op2::Host(B::Add),
        "subtract" => Op2::Host(B::Sub),
        "multiply" => Op2::Host(B::Mul),
        "divide" | "true_divide" => Op2::Host(B::TrueDiv),
        "floor_divide" => Op2::Host(B::FloorDiv),
        "remainder" | "mod" => Op2::Host(B::Mod),
        "power" => Op2::Host(B::Pow),
        "maximum" => Op2::Host(B::Maximum),
        "minimum" => Op2::Host(B::Minimum),
        "equal" => Op2::Host(B::Eq),
        "not_equal" => Op2::Host(B::Ne),
        "less" => Op2::Host(B::Lt),
        "less_equal" => Op2::Host(B::Le),
        "greater" => Op2::Host(B::Gt),
        "greater_equal" => Op2::Host(B::Ge),
        "bitwise_and" => Op2::Bit(Bit::And),
        "bitwise_or" => Op2::Bit(Bit::Or),
        "bitwise_xor" => Op2::Bit(Bit::Xor),
        "logical_and" => Op2::Logical(Bit::And),
        "logical_or" => Op2::Logical(Bit::Or),
        "logical_xor" => Op2::Logical(Bit::Xor),
        "left_shift" | "bitwise_left_shift" => Op2::Shift(Shift::Left),
        "right_shift" | "bitwise_right_shift" => Op2::Shift(Shift::Right),
        other => return Err(vm.new_value_error(format!("no ufunc `{other}`"))),
    })
}

/// Whether numpy's loop for `op` keeps the `longlong` flavour of int64.
fn keeps_longlong(op: Op2) -> bool {
    use BinaryOp as B;
    matches!(
        op,
        Op2::Host(B::Add | B::Sub | B::Mul | B::Pow | B::Maximum | B::Minimum)
    )
}

/// numpy's name of a ufunc, for messages.
fn ufunc_name(op: Op2) -> &'static str {
    use BinaryOp as B;
    match op {
        Op2::Host(B::Add) => "add",
        Op2::Host(B::Sub) => "subtract",
        Op2::Host(B::Mul) => "multiply",
        Op2::Host(B::TrueDiv) => "divide",
        Op2::Host(B::FloorDiv) => "floor_divide",
        Op2::Host(B::Mod) => "remainder",
        Op2::Host(B::Pow) => "power",
        Op2::Host(B::Maximum) => "maximum",
        Op2::Host(B::Minimum) => "minimum",
        Op2::Host(B::Eq) => "equal",
        Op2::Host(B::Ne) => "not_equal",
        Op2::Host(B::Lt) => "less",
        Op2::Host(B::Le) => "less_equal",
        Op2::Host(B::Gt) => "greater",
        Op2::Host(B::Ge) => "greater_equal",
        Op2::Bit(Bit::And) => "bitwise_and",
        Op2::Bit(Bit::Or) => "bitwise_or",
        Op2::Bit(Bit::Xor) => "bitwise_xor",
        Op2::Logical(Bit::And) => "logical_and",
        Op2::Logical(Bit::Or) => "logical_or",
        Op2::Logical(Bit::Xor) => "logical_xor",
        Op2::Shift(Shift::Left) => "left_shift",
        Op2::Shift(Shift::Right) => "right_shift",
    }
}

fn not_supported(name: &str) -> HostError {
    HostError::type_error(format!(
        "ufunc '{name}' not supported for the input types, and the inputs could not be safely coerced to any supported types according to the casting rule ''safe''"
    ))
}

fn bit_kernel<T: Elem + BitAnd<Output = T> + BitOr<Output = T> + BitXor<Output = T>>(
    bit: Bit,
    a: Operand<'_>,
    b: Operand<'_>,
    shape: &[usize],
) -> Result<ArrayD<T>, HostError> {
    let (x, y) = (operand_array::<T>(a, true)?, operand_array::<T>(b, true)?);
    let (xv, yv) = (broadcast_to(&x, shape)?, broadcast_to(&y, shape)?);
    let f: fn(T, T) -> T = match bit {
        Bit::And => |p, q| p & q,
        Bit::Or => |p, q| p | q,
        Bit::Xor => |p, q| p ^ q,
    };
    Ok(Zip::from(&xv).and(&yv).map_collect(|&p, &q| f(p, q)))
}

/// An integer element numpy shifts: `npy_lshift`/`npy_rshift`, which
/// give 0 for a shift by the type's width or more (or a negative one)
/// and, shifting right, -1 for a negative value.
trait Shiftable: Elem {
    fn shift(self, by: Self, dir: Shift) -> Self;
}

macro_rules! shiftable {
    ($($t:ty),*) => {$(
        impl Shiftable for $t {
            fn shift(self, by: Self, dir: Shift) -> Self {
                let width = <$t>::BITS;
                // numpy casts the count to an unsigned type: a negative one is huge.
                #[allow(unused_comparisons)]
                let count = if by < 0 { None } else { u32::try_from(by).ok().filter(|&c| c < width) };
                #[allow(unused_comparisons)]
                match (dir, count) {
                    (Shift::Left, Some(c)) => self.wrapping_shl(c),
                    (Shift::Left, None) => 0,
                    (Shift::Right, Some(c)) => self >> c,
                    (Shift::Right, None) if self < 0 => (0 as $t).wrapping_sub(1),
                    (Shift::Right, None) => 0,
                }
            }
        }
    )*};
}
shiftable!(i8, u8, i32, i64);

fn shift_kernel<T: Shiftable>(
    dir: Shift,
    a: Operand<'_>,
    b: Operand<'_>,
    shape: &[usize],
) -> Result<ArrayD<T>, HostError> {
    let (x, y) = (operand_array::<T>(a, true)?, operand_array::<T>(b, true)?);
    let (xv, yv) = (broadcast_to(&x, shape)?, broadcast_to(&y, shape)?);
    Ok(Zip::from(&xv)
        .and(&yv)
        .map_collect(|&p, &q| p.shift(q, dir)))
}

/// `a OP b` for any two-argument ufunc.
fn compute(op: Op2, a: Operand<'_>, b: Operand<'_>) -> Result<HostArray, HostError> {
    match op {
        Op2::Host(op) => host::binary(op, a, b),
        Op2::Bit(bit) => {
            let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
            match result_type(a, b) {
                DType::Bool => bit_kernel::<bool>(bit, a, b, &shape).map(HostArray::Bool),
                DType::Int8 => bit_kernel::<i8>(bit, a, b, &shape).map(HostArray::Int8),
                DType::UInt8 => bit_kernel::<u8>(bit, a, b, &shape).map(HostArray::UInt8),
                DType::Int32 => bit_kernel::<i32>(bit, a, b, &shape).map(HostArray::Int32),
                DType::Int64 => bit_kernel::<i64>(bit, a, b, &shape).map(HostArray::Int64),
                _ => Err(not_supported(ufunc_name(op))),
            }
        }
        Op2::Shift(dir) => {
            let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
            match result_type(a, b) {
                DType::Int8 => shift_kernel::<i8>(dir, a, b, &shape).map(HostArray::Int8),
                DType::UInt8 => shift_kernel::<u8>(dir, a, b, &shape).map(HostArray::UInt8),
                DType::Int32 => shift_kernel::<i32>(dir, a, b, &shape).map(HostArray::Int32),
                DType::Int64 => shift_kernel::<i64>(dir, a, b, &shape).map(HostArray::Int64),
                // numpy shifts two bools as int8, a dtype fluidc's numpy lacks.
                DType::Bool => Err(HostError::unsupported(format!(
                    "{} of two bool arrays gives int8 in numpy, a dtype fluidc's numpy has no arrays of; convert with astype('int64') first",
                    ufunc_name(op)
                ))),
                _ => Err(not_supported(ufunc_name(op))),
            }
        }
        Op2::Logical(bit) => {
            let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
            let (x, y) = (
                operand_array::<bool>(a, false)?,
                operand_array::<bool>(b, false)?,
            );
            let (xv, yv) = (broadcast_to(&x, &shape)?, broadcast_to(&y, &shape)?);
            let out = Zip::from(&xv).and(&yv).map_collect(|&p, &q| match bit {
                Bit::And => p && q,
                Bit::Or => p || q,
                Bit::Xor => p != q,
            });
            Ok(HostArray::Bool(out))
        }
    }
}

/// numpy's name of an operand's dtype as its "no loop" message shows it:
/// `dtype('float64')`, `dtype('<U2')`, or the DType class
/// (`comparison`).
fn loop_operand(obj: &PyObject, held: Option<&Held>, comparison: bool) -> String {
    if let Some(s) = obj.downcast_ref::<PyStr>() {
        return if comparison {
            "<class 'numpy.dtypes.StrDType'>".to_owned()
        } else {
            format!("dtype('<U{}')", s.char_len())
        };
    }
    let d = held.map_or(DType::Float64, |h| {
        h.with(|o| match o {
            Operand::Array(a) => a.dtype(),
            Operand::Scalar(s) => DType::default_for(s.kind()),
        })
    });
    if comparison {
        let class = match d {
            DType::Bool => "BoolDType",
            DType::Int8 => "Int8DType",
            DType::UInt8 => "UInt8DType",
            DType::Int32 => "Int32DType",
            DType::Int64 => "Int64DType",
            DType::Float32 => "Float32DType",
            DType::Float64 => "Float64DType",
        };
        format!("<class 'numpy.dtypes.{class}'>")
    } else {
        format!("dtype('{}')", d.name())
    }
}

/// An operator between an array and a `str` or `None`, which numpy makes
/// a string or object array of: `==` and `!=` compare unequal everywhere;
/// the rest have no loop (numpy's `UFuncTypeError`; `None` leaves it to
/// Python).
fn non_numeric(
    op: Op2,
    a: &PyObject,
    b: &PyObject,
    x: Option<&Held>,
    y: Option<&Held>,
    vm: &VirtualMachine,
) -> PyResult {
    let held = x.or(y);
    if let (Op2::Host(cmp @ (BinaryOp::Eq | BinaryOp::Ne)), Some(h)) = (op, held) {
        let shape = h.with(|o| o.shape().to_vec());
        let all = HostArray::full(
            DType::Bool,
            &shape,
            crate::host::Scalar::Bool(cmp == BinaryOp::Ne),
        )
        .py(vm)?;
        return wrap_any(all, vm);
    }
    let is_str = a.downcast_ref::<PyStr>().is_some() || b.downcast_ref::<PyStr>().is_some();
    if !is_str || held.is_none() {
        return Ok(vm.ctx.not_implemented());
    }
    let comparison = matches!(op, Op2::Host(o) if o.is_comparison());
    Err(registered_error(
        vm,
        "NoLoopError",
        vm.ctx.exceptions.type_error.to_owned(),
        format!(
            "ufunc '{}' did not contain a loop with signature matching types ({}, {}) -> None",
            ufunc_name(op),
            loop_operand(a, x, comparison),
            loop_operand(b, y, comparison)
        ),
    ))
}

/// `_numpy.binop(name, a, b)`: an operator (`a + b` is `binop('add', a,
/// b)`); `NotImplemented` when an operand is not a number or array.
fn binop(name: PyStrRef, a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let op = op2(name.as_str(), vm)?;
    let (x, y) = (Held::of(&a, vm)?, Held::of(&b, vm)?);
    let (Some(x), Some(y)) = (x.as_ref(), y.as_ref()) else {
        let other = if x.is_none() { &a } else { &b };
        if other.downcast_ref::<PyStr>().is_some() || vm.is_none(other) {
            return non_numeric(op, &a, &b, x.as_ref(), y.as_ref(), vm);
        }
        return Ok(vm.ctx.not_implemented());
    };
    let r = with2(x, y, |p, q| compute(op, p, q)).py(vm)?;
    let q = keeps_longlong(op) && (x.longlong() || y.longlong());
    wrap_any_as(r, q, vm)
}

/// `_numpy.ufunc2(name, a, b)`: `np.add(a, b)` and friends.
fn ufunc2(name: PyStrRef, a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let op = op2(name.as_str(), vm)?;
    let (x, y) = (Held::require(&a, vm)?, Held::require(&b, vm)?);
    let r = with2(&x, &y, |p, q| compute(op, p, q)).py(vm)?;
    let q = keeps_longlong(op) && (x.longlong() || y.longlong());
    wrap_any_as(r, q, vm)
}

/// The kind order of numpy's `same_kind` casting: bool < int < float.
fn kind(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::Int8 | DType::UInt8 | DType::Int32 | DType::Int64 => 1,
        DType::Float32 | DType::Float64 => 2,
    }
}

/// `_numpy.inplace(name, target, b)`: `a += b` and friends write the
/// result into `a` (every name bound to it sees it), cast to its dtype
/// by numpy's `same_kind` rule and never growing its shape.
fn inplace(
    name: PyStrRef,
    target: PyRef<PyHostArray>,
    b: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    let op = op2(name.as_str(), vm)?;
    let Some(y) = Held::of(&b, vm)? else {
        return Ok(vm.ctx.not_implemented());
    };
    let (result, dtype, shape) = {
        let a = target.read();
        let r = y.with(|q| compute(op, Operand::Array(&a), q)).py(vm)?;
        (r, a.dtype(), a.shape().to_vec())
    };
    if kind(result.dtype()) > kind(dtype) {
        return Err(registered_error(
            vm,
            "CastingError",
            vm.ctx.exceptions.type_error.to_owned(),
            format!(
                "Cannot cast ufunc '{}' output from dtype('{}') to dtype('{}') with casting rule 'same_kind'",
                ufunc_name(op),
                result.dtype(),
                dtype
            ),
        ));
    }
    if result.shape() != shape.as_slice() {
        return Err(vm.new_value_error(format!(
            "non-broadcastable output operand with shape {} doesn't match the broadcast shape {}",
            compact_shape(&shape),
            compact_shape(result.shape())
        )));
    }
    *target.write() = result.astype(dtype);
    Ok(vm.ctx.none())
}

/// A one-argument ufunc beyond [`UnaryOp`].
#[derive(Debug, Clone, Copy)]
enum Op1 {
    Host(UnaryOp),
    Positive,
    Sign,
    Invert,
    LogicalNot,
    Signbit,
    Trunc,
    Float(fn(f32) -> f32, fn(f64) -> f64),
}

fn op1(name: &str, vm: &VirtualMachine) -> PyResult<Op1> {
    use UnaryOp as U;
    Ok(match name {
        "negative" => Op1::Host(U::Neg),
        "absolute" | "abs" | "fabs" => Op1::Host(U::Abs),
        "exp" => Op1::Host(U::Exp),
        "log" => Op1::Host(U::Log),
        "sqrt" => Op1::Host(U::Sqrt),
        "tanh" => Op1::Host(U::Tanh),
        "square" => Op1::Host(U::Square),
        "reciprocal" => Op1::Host(U::Reciprocal),
        "isnan" => Op1::Host(U::IsNan),
        "isinf" => Op1::Host(U::IsInf),
        "isfinite" => Op1::Host(U::IsFinite),
        "floor" => Op1::Host(U::Floor),
        "ceil" => Op1::Host(U::Ceil),
        "positive" => Op1::Positive,
        "sign" => Op1::Sign,
        "invert" | "bitwise_not" => Op1::Invert,
        "logical_not" => Op1::LogicalNot,
        "signbit" => Op1::Signbit,
        "trunc" | "fix" => Op1::Trunc,
        "rint" => Op1::Float(f32::round_ties_even, f64::round_ties_even),
        "sin" => Op1::Float(numpy_math::sin_f32, f64::sin),
        "cos" => Op1::Float(numpy_math::cos_f32, f64::cos),
        "tan" => Op1::Float(f32::tan, f64::tan),
        "arcsin" => Op1::Float(f32::asin, f64::asin),
        "arccos" => Op1::Float(f32::acos, f64::acos),
        "arctan" => Op1::Float(f32::atan, f64::atan),
        "sinh" => Op1::Float(f32::sinh, f64::sinh),
        "cosh" => Op1::Float(f32::cosh, f64::cosh),
        "arcsinh" => Op1::Float(libm::asinhf, libm::asinh),
        "arccosh" => Op1::Float(libm::acoshf, libm::acosh),
        "arctanh" => Op1::Float(libm::atanhf, libm::atanh),
        "log2" => Op1::Float(f32::log2, f64::log2),
        "log10" => Op1::Float(f32::log10, f64::log10),
        "log1p" => Op1::Float(f32::ln_1p, f64::ln_1p),
        "expm1" => Op1::Float(f32::exp_m1, f64::exp_m1),
        "exp2" => Op1::Float(f32::exp2, f64::exp2),
        "cbrt" => Op1::Float(numpy_math::cbrt_f32, numpy_math::cbrt_f64),
        "deg2rad" | "radians" => Op1::Float(f32::to_radians, f64::to_radians),
        "rad2deg" | "degrees" => Op1::Float(f32::to_degrees, f64::to_degrees),
        other => return Err(vm.new_value_error(format!("no ufunc `{other}`"))),
    })
}

/// glibc's inverse hyperbolic functions (fdlibm's algorithms over the C
/// library's `log` and `log1p`), which numpy calls; Rust's own `asinh` and
/// friends compute differently.
mod libm {
    macro_rules! inverse_hyperbolic {
        ($t:ty, $asinh:ident, $acosh:ident, $atanh:ident, $big:expr, $tiny:expr, $abig:expr, $atiny:expr) => {
            pub fn $asinh(x: $t) -> $t {
                let xa = x.abs();
                if xa.is_nan() || xa.is_infinite() {
                    return x + x;
                }
                if xa < $atiny {
                    return x;
                }
                let w = if xa > $abig {
                    xa.ln() + std::f64::consts::LN_2 as $t
                } else if xa > 2.0 {
                    (2.0 * xa + 1.0 / ((xa * xa + 1.0).sqrt() + xa)).ln()
                } else {
                    let t = xa * xa;
                    (xa + t / (1.0 + (1.0 + t).sqrt())).ln_1p()
                };
                w.copysign(x)
            }

            pub fn $acosh(x: $t) -> $t {
                if x > 2.0 {
                    if x > $big {
                        if x.is_infinite() {
                            return x + x;
                        }
                        return x.ln() + std::f64::consts::LN_2 as $t;
                    }
                    let t = x * x;
                    (2.0 * x - 1.0 / (x + (t - 1.0).sqrt())).ln()
                } else if x > 1.0 {
                    let t = x - 1.0;
                    (t + (2.0 * t + t * t).sqrt()).ln_1p()
                } else if x == 1.0 {
                    0.0
                } else {
                    (x - x) / (x - x)
                }
            }

            pub fn $atanh(x: $t) -> $t {
                let xa = x.abs();
                let t = if xa < 0.5 {
                    if xa < $tiny {
                        return x;
                    }
                    let t = xa + xa;
                    0.5 * (t + t * xa / (1.0 - xa)).ln_1p()
                } else if xa < 1.0 {
                    0.5 * ((xa + xa) / (1.0 - xa)).ln_1p()
                } else if xa > 1.0 {
                    return (x - x) / (x - x);
                } else if xa == 1.0 {
                    return x / 0.0;
                } else {
                    return x + x;
                };
                t.copysign(x)
            }
        };
    }

    inverse_hyperbolic!(
        f64,
        asinh,
        acosh,
        atanh,
        268_435_456.0,
        3.725_290_298_461_914e-9,
        268_435_456.0,
        3.725_290_298_461_914e-9
    );
    // glibc's `asinhf` switches formulas at 2**15 and 2**-15.
    inverse_hyperbolic!(
        f32,
        asinhf,
        acoshf,
        atanhf,
        268_435_456.0,
        3.725_290_3e-9,
        32_768.0,
        3.051_757_8e-5
    );
}

fn float16_error(name: &str) -> HostError {
    HostError::unsupported(format!(
        "numpy gives a float16 array for {name} of a bool array; fluidc has no float16"
    ))
}

fn signum<T: Elem>(x: T) -> T {
    let zero = T::ZERO;
    if x > zero {
        T::ONE
    } else if x < zero {
        T::cast_from(crate::host::Scalar::Int(-1))
    } else if x == zero {
        zero
    } else {
        x
    }
}

/// One-argument ufunc `op` of `a`.
fn compute1(op: Op1, name: &str, a: &HostArray) -> Result<HostArray, HostError> {
    match op {
        Op1::Host(u) => a.unary(u),
        Op1::Positive => match a {
            HostArray::Bool(_) => Err(HostError::type_error(
                "The numpy boolean positive, the `+` operator, is not supported.",
            )),
            other => Ok(other.clone()),
        },
        Op1::Sign => match a {
            HostArray::Bool(_) => Err(HostError::type_error(
                "ufunc 'sign' did not contain a loop with signature matching types <class 'numpy.dtypes.BoolDType'> -> None",
            )),
            HostArray::Int8(x) => Ok(HostArray::Int8(x.mapv(signum))),
            HostArray::UInt8(x) => Ok(HostArray::UInt8(x.mapv(|v| u8::from(v > 0)))),
            HostArray::Int32(x) => Ok(HostArray::Int32(x.mapv(signum))),
            HostArray::Int64(x) => Ok(HostArray::Int64(x.mapv(signum))),
            HostArray::Float32(x) => Ok(HostArray::Float32(x.mapv(signum))),
            HostArray::Float64(x) => Ok(HostArray::Float64(x.mapv(signum))),
        },
        Op1::Invert => match a {
            HostArray::Bool(x) => Ok(HostArray::Bool(x.mapv(|v| !v))),
            HostArray::Int8(x) => Ok(HostArray::Int8(x.mapv(|v| !v))),
            HostArray::UInt8(x) => Ok(HostArray::UInt8(x.mapv(|v| !v))),
            HostArray::Int32(x) => Ok(HostArray::Int32(x.mapv(|v| !v))),
            HostArray::Int64(x) => Ok(HostArray::Int64(x.mapv(|v| !v))),
            _ => Err(not_supported("invert")),
        },
        Op1::LogicalNot => Ok(HostArray::Bool(a.view::<bool>().mapv(|v| !v))),
        Op1::Signbit => match a {
            HostArray::Float32(x) => Ok(HostArray::Bool(x.mapv(f32::is_sign_negative))),
            HostArray::Float64(x) => Ok(HostArray::Bool(x.mapv(f64::is_sign_negative))),
            HostArray::Bool(_) => Err(float16_error(name)),
            other => Ok(HostArray::Bool(other.view::<i64>().mapv(|v| v < 0))),
        },
        Op1::Trunc => match a {
            HostArray::Float32(x) => Ok(HostArray::Float32(x.mapv(f32::trunc))),
            HostArray::Float64(x) => Ok(HostArray::Float64(x.mapv(f64::trunc))),
            other => Ok(other.clone()),
        },
        Op1::Float(f, g) => match a {
            HostArray::Float32(x) => Ok(HostArray::Float32(x.mapv(f))),
            HostArray::Float64(x) => Ok(HostArray::Float64(x.mapv(g))),
            HostArray::Bool(_) => Err(float16_error(name)),
            other => Ok(HostArray::Float64(other.view::<f64>().mapv(g))),
        },
    }
}

/// `_numpy.ufunc1(name, x)`: `np.exp(x)`, `-x` (`negative`), ...
fn ufunc1(name: PyStrRef, x: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let op = op1(name.as_str(), vm)?;
    let a = Held::require(&x, vm)?;
    let r = match &a {
        Held::Handle(h) => compute1(op, name.as_str(), &h.read()),
        other => compute1(op, name.as_str(), &other.array()),
    }
    .py(vm)?;
    let keeps = matches!(
        op,
        Op1::Host(UnaryOp::Neg | UnaryOp::Abs | UnaryOp::Square | UnaryOp::Floor | UnaryOp::Ceil)
            | Op1::Positive
            | Op1::Sign
            | Op1::Trunc
    );
    wrap_any_as(r, keeps && a.longlong(), vm)
}

/// `_numpy.round(x, decimals)`: `np.round`; a Python float gives a
/// float64 scalar.
fn round(x: PyObjectRef, decimals: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let d = index_int(&decimals, vm)?;
    let held = Held::require(&x, vm)?;
    let r = held.array().round(d).py(vm)?;
    wrap_any_as(r, held.longlong(), vm)
}

/// `_numpy.clip(a, a_min, a_max)`: `maximum(a, a_min)` then
/// `minimum(.., a_max)`; `None` leaves that side open.
fn clip(x: PyObjectRef, lo: PyObjectRef, hi: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let mut a = Held::require(&x, vm)?;
    let longlong = a.longlong();
    for (bound, op) in [(lo, BinaryOp::Maximum), (hi, BinaryOp::Minimum)] {
        if vm.is_none(&bound) {
            continue;
        }
        let b = Held::require(&bound, vm)?;
        let r = with2(&a, &b, |p, q| host::binary(op, p, q)).py(vm)?;
        a = Held::Owned(r);
    }
    wrap_any_as(a.array(), longlong, vm)
}

fn tolerance(
    rtol: &PyObject,
    atol: &PyObject,
    equal_nan: &PyObject,
    vm: &VirtualMachine,
) -> PyResult<Tolerance> {
    Ok(Tolerance {
        rtol: float_arg(rtol, vm)?,
        atol: float_arg(atol, vm)?,
        equal_nan: equal_nan.to_owned().try_to_bool(vm)?,
    })
}

/// `_numpy.isclose(a, b, rtol, atol, equal_nan)`.
fn isclose(
    a: PyObjectRef,
    b: PyObjectRef,
    rtol: PyObjectRef,
    atol: PyObjectRef,
    equal_nan: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    let tol = tolerance(&rtol, &atol, &equal_nan, vm)?;
    let (x, y) = (Held::require(&a, vm)?, Held::require(&b, vm)?);
    let r = with2(&x, &y, |p, q| host::isclose(p, q, tol)).py(vm)?;
    wrap_any(r, vm)
}

/// `_numpy.allclose(a, b, rtol, atol, equal_nan)`: a Python bool.
fn allclose(
    a: PyObjectRef,
    b: PyObjectRef,
    rtol: PyObjectRef,
    atol: PyObjectRef,
    equal_nan: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<bool> {
    let tol = tolerance(&rtol, &atol, &equal_nan, vm)?;
    let (x, y) = (Held::require(&a, vm)?, Held::require(&b, vm)?);
    with2(&x, &y, |p, q| host::allclose(p, q, tol)).py(vm)
}

/// `_numpy.array_equal(a, b)`: a Python bool.
fn array_equal(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult<bool> {
    let (x, y) = (to_array(&a, None, vm)?, to_array(&b, None, vm)?);
    Ok(host::array_equal(&x, &y))
}

/// `_numpy.where(cond, x, y)`: always an array.
fn where_(cond: PyObjectRef, x: PyObjectRef, y: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let c = to_array(&cond, None, vm)?;
    let (p, q) = (Held::require(&x, vm)?, Held::require(&y, vm)?);
    let r = with2(&p, &q, |a, b| host::where_(&c, a, b)).py(vm)?;
    wrap_array_as(r, p.longlong() || q.longlong(), vm)
}

/// `_numpy.result_type(a, b)`: the dtype name of `a OP b`.
fn result_type_of(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult<&'static str> {
    let (x, y) = (Held::require(&a, vm)?, Held::require(&b, vm)?);
    Ok(with2(&x, &y, result_type).name())
}

pub(super) fn add_functions(m: &PyObject, vm: &VirtualMachine) {
    let _ = m.set_attr("binop", vm.new_function("binop", binop), vm);
    let _ = m.set_attr("ufunc2", vm.new_function("ufunc2", ufunc2), vm);
    let _ = m.set_attr("inplace", vm.new_function("inplace", inplace), vm);
    let _ = m.set_attr("ufunc1", vm.new_function("ufunc1", ufunc1), vm);
    let _ = m.set_attr("round", vm.new_function("round", round), vm);
    let _ = m.set_attr("clip", vm.new_function("clip", clip), vm);
    let _ = m.set_attr("isclose", vm.new_function("isclose", isclose), vm);
    let _ = m.set_attr("allclose", vm.new_function("allclose", allclose), vm);
    let _ = m.set_attr(
        "array_equal",
        vm.new_function("array_equal", array_equal),
        vm,
    );
    let _ = m.set_attr("where", vm.new_function("where", where_), vm);
    let _ = m.set_attr(
        "result_type",
        vm.new_function("result_type", result_type_of),
        vm,
    );
}
