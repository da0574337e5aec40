//! `str` and `repr` of arrays and numpy scalars, byte for byte as numpy
//! 2.4 prints them with its default print options: precision 8,
//! floatmode `'maxprec'`, suppress off, threshold 1000 with `...` and 3
//! edge items, line width 75, sign `'-'`, legacy off.
//!
//! The structure follows numpy's `arrayprint.py`: one element formatter is
//! chosen for the whole (summarized) array (`FloatingFormat`,
//! `IntegerFormat`, `BoolFormat`), then `_formatArray` lays the elements
//! out with hanging indents and wraps lines. Floats get their digits from
//! Dragon4 ([`super::dragon4`]), at the float's own precision.
//!
//! numpy scalars print as numpy 2 prints them: `str(np.float32(1.5))` is
//! `1.5`, `repr` is `np.float32(1.5)` (`np.True_` for booleans); a list
//! of arrays prints each element's `repr` (`[array([1.5], dtype=float32),
//! np.float32(2.5)]`), which is Python's list repr over [`array_repr`] and
//! [`scalar_repr`].
use ndarray::{ArrayD, IxDyn};

use super::array::tuple_repr;
use super::dragon4::{positional, scientific, Float, FloatFormat, Trim};
use super::dtype::{DType, Elem};
use super::{HostArray, Nested};

/// How floats get their digits (numpy's `floatmode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FloatMode {
    /// `'fixed'`: always `precision` fraction digits.
    Fixed,
    /// `'unique'`: the shortest unique digits, `precision` ignored.
    Unique,
    /// `'maxprec'` (the default): each element's unique digits, at most
    /// `precision`.
    MaxPrec,
    /// `'maxprec_equal'`: at most `precision`, the same number for all.
    MaxPrecEqual,
}

/// numpy's print options (`np.set_printoptions`) that fluidc supports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PrintOptions {
    pub precision: i32,
    pub threshold: usize,
    pub edgeitems: usize,
    pub linewidth: usize,
    pub suppress: bool,
    pub floatmode: FloatMode,
}

impl Default for PrintOptions {
    /// numpy's defaults.
    fn default() -> PrintOptions {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 75,
            suppress: false,
            floatmode: FloatMode::MaxPrec,
        }
    }
}

/// `str(a)` (and `print(a)`).
pub fn array_str(a: &HostArray) -> String {
    array_str_with(a, &PrintOptions::default())
}

/// `str(a)` under print options `o`.
pub fn array_str_with(a: &HostArray, o: &PrintOptions) -> String {
    if a.ndim() == 0 {
        return scalar_str(a);
    }
    if a.size() == 0 {
        return "[]".to_string();
    }
    array2string(a, o, o.linewidth, " ", "")
}

/// `np.array2string(a)` of any array, a 0-d one printed as an element of
/// an array (`0.33333333`, not the scalar's `0.3333333333333333`).
pub fn array2string_with(a: &HostArray, o: &PrintOptions) -> String {
    if a.size() == 0 {
        return "[]".to_string();
    }
    array2string(a, o, o.linewidth, " ", "")
}

/// `repr(a)`: `array([...])` with `, dtype=...` and `shape=...` where
/// numpy adds them.
pub fn array_repr(a: &HostArray) -> String {
    array_repr_with(a, &PrintOptions::default())
}

/// `repr(a)` under print options `o`.
pub fn array_repr_with(a: &HostArray, o: &PrintOptions) -> String {
    repr_impl(a, o, false)
}

/// `repr(a)` of an int64 array of numpy's `longlong` flavour (dtype char
/// `q`, what Paddle's int64 tensors convert to), which names its dtype as
/// numpy does for every dtype but the default integer.
pub fn array_repr_longlong(a: &HostArray, o: &PrintOptions) -> String {
    repr_impl(a, o, a.dtype() == DType::Int64)
}

fn repr_impl(a: &HostArray, o: &PrintOptions, show_dtype: bool) -> String {
    let prefix = "array(";
    let line_width = o.linewidth;
    let body = if a.size() == 0 {
        "[]".to_string()
    } else {
        array2string(a, o, line_width.saturating_sub(1), ", ", prefix)
    };
    let mut extras = Vec::new();
    if (a.size() == 0 && a.shape() != [0]) || a.size() > o.threshold {
        extras.push(format!("shape={}", tuple_repr(a.shape())));
    }
    let implied = !show_dtype && matches!(a.dtype(), DType::Bool | DType::Int64 | DType::Float64);
    if !implied || a.size() == 0 {
        extras.push(format!("dtype={}", a.dtype().name()));
    }
    if extras.is_empty() {
        return format!("{prefix}{body})");
    }
    let head = format!("{prefix}{body},");
    let extra = format!("{})", extras.join(", "));
    let last_line = head.len() - head.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_line + extra.len() + 1 > line_width {
        format!("\n{}", " ".repeat(prefix.len()))
    } else {
        " ".to_string()
    };
    format!("{head}{spacer}{extra}")
}

/// `str` of the numpy scalar held in a 0-d array (its first element if it
/// has more): `1.5`, `1e-05`, `True`, `3`.
pub fn scalar_str(a: &HostArray) -> String {
    each!(a, arr => arr.iter().next().map_or_else(String::new, |x| x.scalar_str()))
}

/// `repr` of the numpy scalar held in a 0-d array: `np.float32(1.5)`,
/// `np.int64(3)`, `np.True_`.
pub fn scalar_repr(a: &HostArray) -> String {
    match a {
        HostArray::Bool(b) => match b.iter().next() {
            Some(true) => "np.True_".to_string(),
            _ => "np.False_".to_string(),
        },
        _ => format!("np.{}({})", a.dtype().name(), scalar_str(a)),
    }
}

/// Python's `repr` (and `str`) of a float: the shortest digits,
/// positional from 1e-4 up to 1e16, scientific otherwise (`1e-05`,
/// `1e+16`, `0.1`, `2.0`).
pub fn float_repr(x: f64) -> String {
    float_scalar_str(x, 1e16)
}

/// Python's `repr` of a nested value: `[1.5, [2, True]]`, each float as
/// Python prints it, each array as its [`array_repr`] (so a list of
/// arrays prints as numpy's arrays do inside Python lists).
pub fn nested_repr(value: &Nested) -> String {
    match value {
        Nested::Bool(b) => if *b { "True" } else { "False" }.to_string(),
        Nested::Int(i) => i.to_string(),
        Nested::Float(f) => float_repr(*f),
        Nested::List(items) => {
            let parts: Vec<String> = items.iter().map(nested_repr).collect();
            format!("[{}]", parts.join(", "))
        }
        Nested::Array(a) => array_repr(a),
    }
}

/// numpy's scalar `str` for a float: positional between 1e-4 and `upper`
/// (1e16 for float64 as for Python floats, 1e6 for float32).
fn float_scalar_str<F: Float + Into<f64>>(x: F, upper: f64) -> String {
    let v: f64 = x.into();
    let abs = v.abs();
    if v.is_nan() || v == 0.0 || (1e-4..upper).contains(&abs) {
        positional(x, &FloatFormat::unique(Trim::Zero))
    } else {
        scientific(x, &FloatFormat::unique(Trim::Dash))
    }
}

/// Element formatting for printing, per element type.
trait Printable: Elem {
    /// numpy's scalar `str`.
    fn scalar_str(self) -> String;
    /// The formatter for an array whose shown elements are `data`
    /// (`zero_d`: the array is 0-d).
    fn formatter(data: &[Self], zero_d: bool, o: &PrintOptions) -> Box<dyn Fn(Self) -> String>;
}

impl Printable for bool {
    fn scalar_str(self) -> String {
        if self { "True" } else { "False" }.to_string()
    }
    fn formatter(_: &[bool], zero_d: bool, _: &PrintOptions) -> Box<dyn Fn(bool) -> String> {
        // " True" lines up with "False", except in a 0-d array.
        let t = if zero_d { "True" } else { " True" };
        Box::new(move |x| if x { t } else { "False" }.to_string())
    }
}

fn int_formatter<T: Elem + std::fmt::Display + Ord>(data: &[T]) -> Box<dyn Fn(T) -> String> {
    let width = match (data.iter().max(), data.iter().min()) {
        (Some(max), Some(min)) => max.to_string().len().max(min.to_string().len()),
        _ => 0,
    };
    Box::new(move |x| format!("{x:>width$}"))
}

impl Printable for i8 {
    fn scalar_str(self) -> String {
        self.to_string()
    }
    fn formatter(data: &[i8], _: bool, _: &PrintOptions) -> Box<dyn Fn(i8) -> String> {
        int_formatter(data)
    }
}

impl Printable for u8 {
    fn scalar_str(self) -> String {
        self.to_string()
    }
    fn formatter(data: &[u8], _: bool, _: &PrintOptions) -> Box<dyn Fn(u8) -> String> {
        int_formatter(data)
    }
}

impl Printable for i32 {
    fn scalar_str(self) -> String {
        self.to_string()
    }
    fn formatter(data: &[i32], _: bool, _: &PrintOptions) -> Box<dyn Fn(i32) -> String> {
        int_formatter(data)
    }
}

impl Printable for i64 {
    fn scalar_str(self) -> String {
        self.to_string()
    }
    fn formatter(data: &[i64], _: bool, _: &PrintOptions) -> Box<dyn Fn(i64) -> String> {
        int_formatter(data)
    }
}

impl Printable for f32 {
    fn scalar_str(self) -> String {
        float_scalar_str(self, 1e6)
    }
    fn formatter(data: &[f32], _: bool, o: &PrintOptions) -> Box<dyn Fn(f32) -> String> {
        // numpy compares in the array's own dtype: `min < 0.0001` is
        // float32's 0.0001, the ratio is a float32 division.
        let small = !o.suppress;
        let decide =
            move |max: f32, min: f32| max >= 1e6 || (small && (min < 1e-4 || max / min > 1000.0));
        floating_formatter(data, decide, o)
    }
}

impl Printable for f64 {
    fn scalar_str(self) -> String {
        float_scalar_str(self, 1e16)
    }
    fn formatter(data: &[f64], _: bool, o: &PrintOptions) -> Box<dyn Fn(f64) -> String> {
        let small = !o.suppress;
        let decide =
            move |max: f64, min: f64| max >= 1e8 || (small && (min < 1e-4 || max / min > 1000.0));
        floating_formatter(data, decide, o)
    }
}

/// numpy's `FloatingFormat` for floatmode `'maxprec'`: scientific notation
/// when `exp_format(max, min)` of the nonzero finite magnitudes says so
/// (max at least 1e8, 1e6 for float32; min below 1e-4; or a ratio above
/// 1000), with every element given as many fraction digits as the longest
/// needs; otherwise positional with each element's own digits (at most
/// 8), padded to line up on the point.
fn floating_formatter<F>(
    data: &[F],
    exp_format: impl Fn(F, F) -> bool,
    o: &PrintOptions,
) -> Box<dyn Fn(F) -> String>
where
    F: Float + Into<f64> + PartialOrd + 'static,
{
    let finite: Vec<F> = data
        .iter()
        .copied()
        .filter(|x| !x.is_nan() && !x.is_infinite())
        .collect();
    let mut magnitudes = finite.iter().map(|&x| x.abs()).filter(|&x| x.into() != 0.0);
    let exp = match magnitudes.next() {
        None => false,
        Some(first) => {
            let (max, min) = magnitudes.fold((first, first), |(hi, lo), x| {
                (if x > hi { x } else { hi }, if x < lo { x } else { lo })
            });
            exp_format(max, min)
        }
    };
    let mut opt = FloatFormat::unique(Trim::Point);
    opt.precision = if o.floatmode == FloatMode::Unique {
        -1
    } else {
        o.precision
    };
    if o.floatmode == FloatMode::Fixed {
        opt.trim = Trim::Keep;
        opt.unique = false;
    }
    let (mut pad_left, mut pad_right) = (0i32, 0i32);
    if finite.is_empty() {
        opt.min_digits = -1;
        opt.trim = Trim::Point;
        opt.unique = true;
    } else if exp {
        let strs: Vec<String> = finite.iter().map(|&x| scientific(x, &opt)).collect();
        let mut exp_size = 0;
        let mut precision = 0;
        for s in &strs {
            let (mantissa, exponent) = s.split_once('e').unwrap_or((s, ""));
            exp_size = exp_size.max(exponent.len() as i32 - 1);
            let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
            precision = precision.max(frac.len() as i32);
            pad_left = pad_left.max(int.len() as i32);
        }
        opt.trim = Trim::Keep;
        opt.precision = precision;
        opt.min_digits = precision;
        opt.exp_digits = exp_size;
        pad_right = exp_size + 2 + precision;
    } else {
        for &x in &finite {
            let s = positional(x, &opt);
            let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
            pad_left = pad_left.max(int.len() as i32);
            pad_right = pad_right.max(frac.len() as i32);
        }
        if matches!(o.floatmode, FloatMode::Fixed | FloatMode::MaxPrecEqual) {
            opt.precision = pad_right;
            opt.min_digits = pad_right;
            opt.trim = Trim::Keep;
        } else {
            opt.trim = Trim::Point;
            opt.min_digits = 0;
        }
    }
    if finite.len() != data.len() {
        let neginf = data.iter().any(|x| x.is_infinite() && x.is_sign_negative());
        let offset = pad_right + 1;
        pad_left = pad_left.max(3 - offset).max(3 + i32::from(neginf) - offset);
    }
    opt.pad_left = pad_left;
    if !exp {
        opt.pad_right = pad_right;
    }
    Box::new(move |x: F| {
        if x.is_nan() || x.is_infinite() {
            let word = if x.is_nan() {
                "nan"
            } else if x.is_sign_negative() {
                "-inf"
            } else {
                "inf"
            };
            let width = (pad_left + pad_right + 1).max(0) as usize;
            format!("{word:>width$}")
        } else if exp {
            scientific(x, &opt)
        } else {
            positional(x, &opt)
        }
    })
}

/// The array's elements as `array2string` prints them.
fn array2string(
    a: &HostArray,
    o: &PrintOptions,
    line_width: usize,
    separator: &str,
    prefix: &str,
) -> String {
    each!(a, arr => layout(arr, o, line_width, separator, prefix))
}

fn layout<T: Printable>(
    a: &ArrayD<T>,
    o: &PrintOptions,
    line_width: usize,
    separator: &str,
    prefix: &str,
) -> String {
    let summarize = a.len() > o.threshold;
    let edge = o.edgeitems;
    let shown = shown_elements(a, summarize, edge);
    let format = T::formatter(&shown, a.ndim() == 0, o);
    let words = |index: &[usize]| a.get(IxDyn(index)).map_or_else(String::new, |&x| format(x));
    let next_line_prefix = format!(" {}", " ".repeat(prefix.len()));
    let printer = Layout {
        shape: a.shape(),
        words: &words,
        separator,
        summarize,
        edge,
    };
    let mut index = Vec::with_capacity(a.ndim());
    printer.recurse(&mut index, &next_line_prefix, line_width)
}

/// The elements numpy looks at to choose the format: all of them, or the
/// corners of a summarized array (`_leading_trailing`), in order.
fn shown_elements<T: Elem>(a: &ArrayD<T>, summarize: bool, edge: usize) -> Vec<T> {
    if !summarize {
        return a.iter().copied().collect();
    }
    let kept: Vec<Vec<usize>> = a.shape().iter().map(|&n| edge_indices(n, edge)).collect();
    let mut out = Vec::new();
    let mut index = vec![0usize; a.ndim()];
    collect_corners(a, &kept, 0, &mut index, &mut out);
    out
}

fn edge_indices(n: usize, edge: usize) -> Vec<usize> {
    if n > 2 * edge {
        (0..edge).chain(n - edge..n).collect()
    } else {
        (0..n).collect()
    }
}

fn collect_corners<T: Elem>(
    a: &ArrayD<T>,
    kept: &[Vec<usize>],
    axis: usize,
    index: &mut Vec<usize>,
    out: &mut Vec<T>,
) {
    if axis == kept.len() {
        if let Some(&x) = a.get(IxDyn(index)) {
            out.push(x);
        }
        return;
    }
    for &i in &kept[axis] {
        index[axis] = i;
        collect_corners(a, kept, axis + 1, index, out);
    }
}

/// numpy's `_formatArray`.
struct Layout<'a> {
    shape: &'a [usize],
    words: &'a dyn Fn(&[usize]) -> String,
    separator: &'a str,
    summarize: bool,
    edge: usize,
}

impl Layout<'_> {
    fn recurse(&self, index: &mut Vec<usize>, hanging_indent: &str, curr_width: usize) -> String {
        let axis = index.len();
        let axes_left = self.shape.len() - axis;
        if axes_left == 0 {
            return (self.words)(index);
        }
        let next_hanging_indent = format!("{hanging_indent} ");
        let next_width = curr_width.saturating_sub(1);
        let len = self.shape[axis];
        let show_summary = self.summarize && 2 * self.edge < len;
        let (leading, trailing) = if show_summary {
            (self.edge, self.edge)
        } else {
            (0, len)
        };
        // The positions shown, `None` for the `...`.
        let mut items: Vec<Option<usize>> = (0..leading).map(Some).collect();
        if show_summary {
            items.push(None);
        }
        items.extend((len - trailing..len).map(Some));
        let mut s = String::new();
        let sub = |i: usize, index: &mut Vec<usize>| {
            index.push(i);
            let word = self.recurse(index, &next_hanging_indent, next_width);
            index.pop();
            word
        };
        if axes_left == 1 {
            let elem_width = curr_width.saturating_sub(self.separator.trim_end().len().max(1));
            let mut line = hanging_indent.to_string();
            let last = items.len().saturating_sub(1);
            for (k, item) in items.iter().enumerate() {
                let word = match item {
                    Some(i) => sub(*i, index),
                    None => "...".to_string(),
                };
                extend_line(&mut s, &mut line, &word, elem_width, hanging_indent);
                if k != last {
                    line.push_str(self.separator);
                }
            }
            s.push_str(&line);
        } else {
            let line_sep = format!(
                "{}{}",
                self.separator.trim_end(),
                "\n".repeat(axes_left - 1)
            );
            let last = items.len().saturating_sub(1);
            for (k, item) in items.iter().enumerate() {
                s.push_str(hanging_indent);
                match item {
                    Some(i) => s.push_str(&sub(*i, index)),
                    None => s.push_str("..."),
                }
                if k != last {
                    s.push_str(&line_sep);
                }
            }
        }
        format!("[{}]", &s[hanging_indent.len().min(s.len())..])
    }
}

/// numpy's `_extendLine`: wraps before `word` if it would pass
/// `line_width`, unless the line holds only the indent.
fn extend_line(s: &mut String, line: &mut String, word: &str, line_width: usize, prefix: &str) {
    let needs_wrap = line.len() + word.len() > line_width && line.len() > prefix.len();
    if needs_wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        *line = prefix.to_string();
    }
    line.push_str(word);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CPython's float repr: shortest round-trip digits, positional from
    /// 1e-4 to below 1e16.
    #[test]
    fn floats_print_as_python_prints_them() {
        for (x, want) in [
            (0.1, "0.1"),
            (2.0, "2.0"),
            (1e-5, "1e-05"),
            (1e16, "1e+16"),
            (123456789.125, "123456789.125"),
            (-0.0, "-0.0"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "nan"),
        ] {
            assert_eq!(float_repr(x), want, "{x}");
        }
    }
}
