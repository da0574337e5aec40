//! `repr(float)` (and `str`) with CPython's digits.
//!
//! CPython writes the shortest decimal that reads back as the same float
//! and, when two such decimals are equally near its exact value, the one
//! whose last digit is even (David Gay's dtoa, mode 0). RustPython 0.4
//! takes Rust's `Display`, which rounds such ties up: 15.5316925048828125
//! (a float32 value, as `float(loss)` gives) printed as 15.531692504882813
//! where CPython prints 15.531692504882812, about one float32 value in
//! 500. The host puts this function in the float type's repr slot; the
//! digits come from the `ryu` crate, which breaks ties as dtoa does, and
//! the layout is CPython's `float_repr_style 'short'`.
use rustpython_vm::builtins::{PyFloat, PyStrRef};
use rustpython_vm::{PyObject, PyResult, VirtualMachine};

/// Puts [`repr`] in the float type's repr slot (the types are the
/// process's; storing it again is harmless).
pub(crate) fn install(vm: &VirtualMachine) {
    vm.ctx.types.float_type.slots.repr.store(Some(repr_slot));
}

fn repr_slot(obj: &PyObject, vm: &VirtualMachine) -> PyResult<PyStrRef> {
    match obj.downcast_ref::<PyFloat>() {
        Some(f) => Ok(vm.ctx.new_str(repr(f.to_f64()))),
        None => Err(vm.new_type_error(format!(
            "descriptor '__repr__' requires a 'float' object but received a '{}'",
            obj.class().name()
        ))),
    }
}

/// CPython's `repr(x)`.
pub(crate) fn repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    let sign = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, decpt) = shortest(x.abs());
    // decpt: the decimal point's place after the first `decpt` digits.
    if decpt <= -4 || decpt > 16 {
        let exp = decpt - 1;
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{esign}{:02}", exp.unsigned_abs())
    } else if decpt <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-decpt) as usize))
    } else {
        let d = decpt as usize;
        if digits.len() <= d {
            format!("{sign}{digits}{}.0", "0".repeat(d - digits.len()))
        } else {
            format!("{sign}{}.{}", &digits[..d], &digits[d..])
        }
    }
}

/// The shortest digits of a positive finite `x` (no leading or trailing
/// zeros) and the place of the decimal point: `x = 0.DIGITS × 10^decpt`.
fn shortest(x: f64) -> (String, i32) {
    let mut buf = ryu::Buffer::new();
    let text = buf.format_finite(x);
    let (mantissa, exp) = match text.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = format!("{int}{frac}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all
        .trim_start_matches('0')
        .trim_end_matches('0')
        .to_string();
    let decpt = int.len() as i32 - lead as i32 + exp;
    (digits, decpt)
}

#[cfg(test)]
mod tests {
    use super::repr;

    #[test]
    fn layout_is_cpythons() {
        // Each against what CPython 3.11 prints.
        for (x, want) in [
            (0.3, "0.3"),
            (1.0, "1.0"),
            (-0.0, "-0.0"),
            (100.0, "100.0"),
            (1e16, "1e+16"),
            (1234567890123456.0, "1234567890123456.0"),
            (1.5e-7, "1.5e-07"),
            (0.0001, "0.0001"),
            (0.00012, "0.00012"),
            (1.2345678901234568e17, "1.2345678901234568e+17"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (f64::NAN, "nan"),
            (f64::NEG_INFINITY, "-inf"),
            // Ties go to the even digit, as dtoa's (float32 values).
            (f64::from(f32::from_bits(0x4178_81D0)), "15.531692504882812"),
            (f64::from(f32::from_bits(0xC464_7159)), "-913.7710571289062"),
        ] {
            assert_eq!(repr(x), want, "{x:e}");
        }
    }

    #[test]
    fn every_repr_reads_back() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if x.is_finite() {
                assert_eq!(repr(x).parse::<f64>().ok(), Some(x), "{x:e}");
            }
            let y = f32::from_bits(state as u32) as f64;
            if y.is_finite() {
                assert_eq!(repr(y).parse::<f64>().ok(), Some(y), "{y:e}");
            }
        }
    }
}
