//! `_fluidc_math`: the `math` functions RustPython 0.4 computes otherwise
//! than CPython, as CPython computes them (docs/python-package.md, "The
//! VM's bugs fluidc works around").
//!
//! `log1p`, `expm1`, `asinh`, `acosh`, `atanh`, `erf` and `erfc` are the C
//! library's in CPython (its `math_1`: a NaN from a number is "math domain
//! error", an infinity "math range error" where the function can
//! overflow); RustPython computed `log1p(x)` as `ln(x + 1)` (`log1p(1e-7)`
//! wrong from its 9th digit), its own `asinh` and `erf`, and `acosh(0.5)`
//! as NaN. Here they are the C library's functions or musl's ports of the
//! same code, called as CPython calls them. `gamma` and `lgamma` were off
//! from the 11th digit and `lgamma(-0.3)` was NaN; musl's are within an
//! ulp or two of CPython's own Lanczos sums.
//!
//! RustPython takes every logarithm as `log2(x) / log2(base)`, with
//! `log2(e)` for the natural one, so `math.log(10)` is 2.3025850929940455
//! where CPython's (the C library's `log`) is 2.302585092994046, and
//! `math.log10(3.7)` is off in its last digit too: a few values in ten.
//! CPython's `loghelper` calls the C library's `log`, `log2` or `log10` on
//! the float (Rust's `ln`, `log2` and `log10` are those same calls), an
//! int too large for a float as `f(m) + f(2) * e` for `x = m * 2**e`, and
//! divides by the base's logarithm.
use rustpython_vm::builtins::{PyInt, PyModule};
use rustpython_vm::function::OptionalArg;
use rustpython_vm::types::PyComparisonOp;
use rustpython_vm::{AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

pub const MODULE: &str = "_fluidc_math";

/// Bits kept of an int too large for a float (a float holds 53).
const KEPT_BITS: u64 = 64;

fn domain_error(vm: &VirtualMachine) -> rustpython_vm::builtins::PyBaseExceptionRef {
    vm.new_value_error("math domain error".to_owned())
}

/// CPython's `loghelper(x, f)`.
fn loghelper(x: &PyObjectRef, f: fn(f64) -> f64, vm: &VirtualMachine) -> PyResult<f64> {
    if x.payload_if_subclass::<PyInt>(vm).is_some() {
        let zero: PyObjectRef = vm.ctx.new_int(0).into();
        if x.rich_compare_bool(&zero, PyComparisonOp::Le, vm)? {
            return Err(domain_error(vm));
        }
        if let Ok(v) = x.try_float(vm) {
            return Ok(f(v.to_f64()));
        }
        // Too large for a float: keep the leading bits, count the rest.
        let bits: u64 = vm.call_method(x, "bit_length", ())?.try_into_value(vm)?;
        let shift = bits - KEPT_BITS;
        let shift_obj: PyObjectRef = vm.ctx.new_int(shift).into();
        let top = vm._rshift(x, &shift_obj)?;
        let m = top.try_float(vm)?.to_f64();
        return Ok(f(m) + f(2.0) * shift as f64);
    }
    let v = x.try_float(vm)?.to_f64();
    if v.is_nan() {
        return Ok(v);
    }
    if v <= 0.0 {
        return Err(domain_error(vm));
    }
    Ok(f(v))
}

/// `math.log(x[, base])`.
fn log(x: PyObjectRef, base: OptionalArg<PyObjectRef>, vm: &VirtualMachine) -> PyResult<f64> {
    let num = loghelper(&x, f64::ln, vm)?;
    match base {
        OptionalArg::Missing => Ok(num),
        OptionalArg::Present(base) => {
            let den = loghelper(&base, f64::ln, vm)?;
            if den == 0.0 {
                return Err(vm.new_zero_division_error("float division by zero".to_owned()));
            }
            Ok(num / den)
        }
    }
}

fn log2(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    loghelper(&x, f64::log2, vm)
}

fn log10(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
    loghelper(&x, f64::log10, vm)
}

/// CPython's `math_1(x, f, can_overflow)`.
fn math_1(x: f64, f: fn(f64) -> f64, can_overflow: bool, vm: &VirtualMachine) -> PyResult<f64> {
    let r = f(x);
    if r.is_nan() && !x.is_nan() {
        return Err(domain_error(vm));
    }
    if r.is_infinite() && x.is_finite() {
        return Err(if can_overflow {
            vm.new_overflow_error("math range error".to_owned())
        } else {
            domain_error(vm)
        });
    }
    Ok(r)
}

/// `math_1` of each function; `pole`: zero and the negative integers are
/// "math domain error", as CPython's `m_tgamma`/`m_lgamma` say.
macro_rules! math_1_functions {
    ($($name:ident = $f:expr, overflow: $overflow:expr, pole: $pole:expr;)*) => {
        $(
            fn $name(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<f64> {
                let x = x.try_float(vm)?.to_f64();
                if $pole && x <= 0.0 && x == x.floor() {
                    return Err(domain_error(vm));
                }
                math_1(x, $f, $overflow, vm)
            }
        )*
    };
}

// Rust's `ln_1p` and `exp_m1` are the C library's; its `asinh`, `acosh`
// and `atanh` are its own formulas, so those, `erf`, `erfc`, `gamma` and
// `lgamma` come from the `libm` crate (musl's, the C library's Sun code).
math_1_functions! {
    log1p = f64::ln_1p, overflow: false, pole: false;
    expm1 = f64::exp_m1, overflow: true, pole: false;
    asinh = libm::asinh, overflow: false, pole: false;
    acosh = libm::acosh, overflow: false, pole: false;
    atanh = libm::atanh, overflow: false, pole: false;
    erf = libm::erf, overflow: false, pole: false;
    erfc = libm::erfc, overflow: false, pole: false;
    gamma = libm::tgamma, overflow: true, pole: true;
    lgamma = libm::lgamma, overflow: true, pole: true;
}

/// The functions this module gives `math`, by name.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    for (name, function) in [
        ("log", vm.new_function("log", log)),
        ("log2", vm.new_function("log2", log2)),
        ("log10", vm.new_function("log10", log10)),
        ("log1p", vm.new_function("log1p", log1p)),
        ("expm1", vm.new_function("expm1", expm1)),
        ("asinh", vm.new_function("asinh", asinh)),
        ("acosh", vm.new_function("acosh", acosh)),
        ("atanh", vm.new_function("atanh", atanh)),
        ("erf", vm.new_function("erf", erf)),
        ("erfc", vm.new_function("erfc", erfc)),
        ("gamma", vm.new_function("gamma", gamma)),
        ("lgamma", vm.new_function("lgamma", lgamma)),
    ] {
        let _ = module
            .as_object()
            .set_attr(vm.ctx.intern_str(name), function, vm);
    }
    module
}
