//! `_fluidc_float`: `float.__format__` for a format spec with a precision
//! and no type (`'{:.2}'.format(loss)`, `format(x, '10.3')`), in place of
//! RustPython 0.4's (docs/python-package.md, "The VM's bugs fluidc works
//! around").
//!
//! CPython formats such a spec as `g` with "at least one digit past the
//! decimal point" (`Py_DTSF_ADD_DOT_0`): `format(1.0, '.2')` is `'1.0'`,
//! `format(12.0, '.3')` is `'12.0'`. RustPython's `format_general` drops
//! the `.0` and moves to exponent notation one digit early, so the book's
//! `'Test Loss {1:0.2}'` printed `1` for 1.0. Here the number is formatted
//! by RustPython's own `g` (whose digits are CPython's), the `.0` added
//! where CPython adds it, and the fill, alignment and width applied after;
//! every other spec goes to RustPython's `__format__` unchanged.
use std::sync::OnceLock;

use rustpython_vm::builtins::{PyModule, PyStr, PyStrRef};
use rustpython_vm::{AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

pub const MODULE: &str = "_fluidc_float";

/// RustPython's `float.__format__`, which the replacement calls.
static ORIGINAL: OnceLock<PyObjectRef> = OnceLock::new();

/// The parts of a spec `[[fill]align][sign][#][0][width][grouping][.precision][type]`
/// handled here: a precision and no type, or a grouping and type `g`/`G`.
#[derive(Debug, PartialEq)]
struct Spec {
    fill: char,
    align: Option<char>,
    sign: &'static str,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: &'static str,
    precision: Option<usize>,
    ty: Option<char>,
}

fn parse(spec: &str) -> Option<Spec> {
    let chars: Vec<char> = spec.chars().collect();
    let mut i = 0;
    let (mut fill, mut align) = (' ', None);
    let is_align = |c: char| "<>=^".contains(c);
    if chars.len() >= 2 && is_align(chars[1]) {
        (fill, align) = (chars[0], Some(chars[1]));
        i = 2;
    } else if chars.first().is_some_and(|&c| is_align(c)) {
        align = Some(chars[0]);
        i = 1;
    }
    let mut sign = "";
    match chars.get(i) {
        Some('+') => sign = "+",
        Some('-') => sign = "-",
        Some(' ') => sign = " ",
        _ => {}
    }
    if !sign.is_empty() {
        i += 1;
    }
    let alternate = chars.get(i) == Some(&'#');
    i += usize::from(alternate);
    let zero = chars.get(i) == Some(&'0');
    i += usize::from(zero);
    let digits = |i: &mut usize| {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        chars[start..*i].iter().collect::<String>()
    };
    let width = digits(&mut i);
    let grouping = match chars.get(i) {
        Some(',') => ",",
        Some('_') => "_",
        _ => "",
    };
    i += usize::from(!grouping.is_empty());
    let mut precision = None;
    if chars.get(i) == Some(&'.') {
        i += 1;
        precision = Some(digits(&mut i).parse().ok()?);
    }
    let ty = chars.get(i).copied().filter(|c| "gG".contains(*c));
    i += usize::from(ty.is_some());
    let handled = match ty {
        None => precision.is_some(),
        Some(_) => !grouping.is_empty(),
    };
    if i != chars.len() || !handled {
        return None;
    }
    Some(Spec {
        fill,
        align,
        sign,
        alternate,
        zero,
        width: width.parse().unwrap_or(0),
        grouping,
        precision,
        ty,
    })
}

/// `text` (a signed number) padded to the spec's width as CPython pads a
/// number: right-aligned by default, `0` meaning fill `0` after the sign.
fn pad(text: &str, spec: &Spec) -> String {
    let len = text.chars().count();
    if len >= spec.width {
        return text.to_string();
    }
    let (fill, align) = match (spec.align, spec.zero) {
        (Some(a), _) => (spec.fill, a),
        (None, true) => ('0', '='),
        (None, false) => (' ', '>'),
    };
    let n = spec.width - len;
    let run = |k: usize| std::iter::repeat_n(fill, k).collect::<String>();
    match align {
        '<' => format!("{text}{}", run(n)),
        '^' => format!("{}{text}{}", run(n / 2), run(n - n / 2)),
        '=' => {
            let signed = text.starts_with(['+', '-', ' ']);
            let (sign, digits) = text.split_at(usize::from(signed));
            format!("{sign}{}{digits}", run(n))
        }
        _ => format!("{}{text}", run(n)),
    }
}

/// `text` grouped and padded as the spec asks. Zeros padding a grouped
/// number are grouped too (`0,001,234.5`), as CPython pads them.
fn finish(text: String, spec: &Spec) -> String {
    if spec.grouping.is_empty() {
        return pad(&text, spec);
    }
    let zeros = matches!((spec.align, spec.zero), (None, true) | (Some('='), _))
        && (spec.align.is_none() || spec.fill == '0');
    let mut grouped = group(&text, spec.grouping);
    let signed = usize::from(text.starts_with(['+', '-', ' ']));
    // inf and nan have no digits to group the zeros with.
    let finite = text[signed..].starts_with(|c: char| c.is_ascii_digit());
    if zeros && finite {
        let mut padded = text.clone();
        while grouped.chars().count() < spec.width {
            padded.insert(signed, '0');
            grouped = group(&padded, spec.grouping);
        }
    }
    pad(&grouped, spec)
}

/// `text` with `sep` between each three digits of its integer part.
fn group(text: &str, sep: &str) -> String {
    let start = usize::from(text.starts_with(['+', '-', ' ']));
    let end = text[start..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(text.len(), |k| start + k);
    let digits = &text[start..end];
    let mut grouped = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            grouped.push_str(sep);
        }
        grouped.push(c);
    }
    format!("{}{grouped}{}", &text[..start], &text[end..])
}

/// The replacement `float.__format__(self, spec)`.
fn format(zelf: PyObjectRef, spec: PyStrRef, vm: &VirtualMachine) -> PyResult {
    let original = ORIGINAL
        .get()
        .ok_or_else(|| vm.new_runtime_error("float.__format__ was not installed".to_owned()))?;
    if spec.as_str().is_empty() {
        // `str(x)`, as CPython: `'{}'.format(x)` and `f'{x}'` print repr's
        // digits (src/vm/float_repr.rs), RustPython's would not.
        return Ok(zelf.str(vm)?.into());
    }
    let Some(parsed) = parse(spec.as_str()) else {
        return original.call((zelf, spec), vm);
    };
    let call = |spec: String| -> PyResult<String> {
        let text = original.call((zelf.clone(), spec), vm)?;
        let text = text
            .downcast::<PyStr>()
            .map_err(|_| vm.new_type_error("__format__ must return a str".to_owned()))?;
        Ok(text.as_str().to_string())
    };
    let alternate = if parsed.alternate { "#" } else { "" };
    if let Some(ty) = parsed.ty {
        let precision = parsed
            .precision
            .map(|p| format!(".{p}"))
            .unwrap_or_default();
        let text = call(format!("{}{alternate}{precision}{ty}", parsed.sign))?;
        return Ok(vm.ctx.new_str(finish(text, &parsed)).into());
    }
    // CPython's `g` with Py_DTSF_ADD_DOT_0: exponent notation from one
    // digit earlier than `g` (exponent >= precision - 1), else `g`'s
    // fixed notation with `.0` where no point is left. The grouping is
    // added below: RustPython's `g` panics on one.
    let precision = parsed.precision.unwrap_or(0).max(1);
    let exponent_form = call(format!("{}{alternate}.{}e", parsed.sign, precision - 1))?;
    let exponent = exponent_form
        .rsplit_once('e')
        .and_then(|(_, e)| e.parse::<i64>().ok());
    let text = match exponent {
        // inf and nan.
        None => exponent_form,
        Some(e) if e < -4 || e >= precision as i64 - 1 => {
            if parsed.alternate {
                exponent_form
            } else {
                let (mantissa, e) = exponent_form
                    .split_once('e')
                    .unwrap_or((&exponent_form, ""));
                let mantissa = if mantissa.contains('.') {
                    mantissa.trim_end_matches('0').trim_end_matches('.')
                } else {
                    mantissa
                };
                format!("{mantissa}e{e}")
            }
        }
        Some(_) => {
            let mut fixed = call(format!("{}{alternate}.{precision}g", parsed.sign))?;
            if !fixed.contains('.') {
                fixed.push_str(".0");
            }
            fixed
        }
    };
    Ok(vm.ctx.new_str(finish(text, &parsed)).into())
}

/// `install()`: makes the replacement `float.__format__` (once per
/// process: the builtin types are shared by every interpreter).
fn install(vm: &VirtualMachine) -> PyResult<()> {
    if ORIGINAL.get().is_some() {
        return Ok(());
    }
    let float = vm.ctx.types.float_type;
    let name = vm.ctx.intern_str("__format__");
    let original = float
        .get_attr(name)
        .ok_or_else(|| vm.new_runtime_error("float has no __format__".to_owned()))?;
    if ORIGINAL.set(original).is_ok() {
        let replacement = vm.new_method("__format__", float, format);
        float.set_attr(name, replacement.into());
    }
    Ok(())
}

/// Creates the `_fluidc_float` module.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let _ = module.as_object().set_attr(
        vm.ctx.intern_str("install"),
        vm.new_function("install", install),
        vm,
    );
    module
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_with_a_precision_and_no_type_are_parsed() {
        let s = parse("*^+#012,.3").expect("a spec of every part");
        assert_eq!(
            (
                s.fill,
                s.align,
                s.sign,
                s.alternate,
                s.zero,
                s.width,
                s.grouping,
                s.precision
            ),
            ('*', Some('^'), "+", true, true, 12, ",", Some(3))
        );
        assert_eq!(parse(",g").map(|s| s.ty), Some(Some('g')));
        for typed in [".2f", ".2g", "10", "", ".", "z.2", ".2%", "g", ",e"] {
            assert_eq!(parse(typed), None, "{typed}");
        }
    }

    #[test]
    fn padding_follows_cpython() {
        let spec = |s: &str| parse(s).expect("spec");
        assert_eq!(pad("-1.0", &spec("07.2")), "-0001.0");
        assert_eq!(pad("1.0", &spec("6.2")), "   1.0");
        assert_eq!(pad("1.0", &spec("*^6.2")), "*1.0**");
        assert_eq!(pad("1.0", &spec("<5.1")), "1.0  ");
        assert_eq!(group("-1234567.0", ","), "-1,234,567.0");
        assert_eq!(group("123.5", "_"), "123.5");
        assert_eq!(group("1.2e+06", ","), "1.2e+06");
    }
}
