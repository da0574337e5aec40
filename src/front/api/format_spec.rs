//! Python's format-spec mini-language (`format(x, spec)`, `str.format`,
//! f-strings) and `%` conversions, for ints, floats and strings, with
//! CPython's output: `[[fill]align][sign][#][0][width][,|_][.precision][type]`,
//! types `d b o x X c n` for ints, `e E f F g G n %` and none for floats,
//! `s` and none for strings.

/// A value the mini-language formats.
#[derive(Debug, Clone)]
pub enum Formattable {
    Int(i64),
    Float(f64),
    /// Already converted with `str` (or `repr`).
    Str(String),
}

#[derive(Debug, Default)]
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alternate: bool,
    zero: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    ty: Option<char>,
}

/// Widths and precisions above this are refused, so a spec cannot ask for
/// unbounded memory.
pub const MAX_SPEC: usize = 10_000;

fn parse(spec: &str) -> Result<Spec, String> {
    let bad = || format!("Invalid format specifier '{spec}'");
    let chars: Vec<char> = spec.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '=' | '^');
    if chars.len() >= 2 && is_align(chars[1]) {
        s.fill = Some(chars[0]);
        s.align = Some(chars[1]);
        i = 2;
    } else if chars.first().copied().is_some_and(is_align) {
        s.align = Some(chars[0]);
        i = 1;
    }
    if let Some(&c @ ('+' | '-' | ' ')) = chars.get(i) {
        s.sign = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'#') {
        s.alternate = true;
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        s.zero = true;
        i += 1;
    }
    let digits = |i: &mut usize| -> Result<Option<usize>, String> {
        let start = *i;
        while chars.get(*i).is_some_and(char::is_ascii_digit) {
            *i += 1;
        }
        if start == *i {
            return Ok(None);
        }
        let n: String = chars[start..*i].iter().collect();
        let n: usize = n.parse().map_err(|_| bad())?;
        if n > MAX_SPEC {
            return Err(format!(
                "format width and precision are limited to {MAX_SPEC} here"
            ));
        }
        Ok(Some(n))
    };
    s.width = digits(&mut i)?.unwrap_or(0);
    if let Some(&c @ (',' | '_')) = chars.get(i) {
        s.grouping = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'.') {
        i += 1;
        s.precision =
            Some(digits(&mut i)?.ok_or_else(|| "Format specifier missing precision".to_string())?);
    }
    if let Some(&c) = chars.get(i) {
        s.ty = Some(c);
        i += 1;
    }
    if i != chars.len() {
        return Err(bad());
    }
    Ok(s)
}

/// `format(value, spec)` as CPython gives it; the error is Python's
/// `ValueError` text.
pub fn format(value: &Formattable, spec: &str) -> Result<String, String> {
    let s = parse(spec)?;
    let type_name = match value {
        Formattable::Int(_) => "int",
        Formattable::Float(_) => "float",
        Formattable::Str(_) => "str",
    };
    let unknown = |c: char| format!("Unknown format code '{c}' for object of type '{type_name}'");
    let (negative, body) = match (value, s.ty) {
        (Formattable::Str(text), None | Some('s')) => {
            if s.sign.is_some() {
                return Err("Sign not allowed in string format specifier".into());
            }
            let text: String = match s.precision {
                Some(p) => text.chars().take(p).collect(),
                None => text.clone(),
            };
            return Ok(pad(&s, "", &text, '<'));
        }
        (Formattable::Str(_), Some(c)) => return Err(unknown(c)),
        (Formattable::Int(n), None | Some('d' | 'n' | 'b' | 'o' | 'x' | 'X' | 'c')) => {
            if s.precision.is_some() {
                return Err("Precision not allowed in integer format specifier".into());
            }
            let m = n.unsigned_abs();
            let digits = match s.ty {
                Some('b') => format!("{m:b}"),
                Some('o') => format!("{m:o}"),
                Some('x') => format!("{m:x}"),
                Some('X') => format!("{m:X}"),
                Some('c') => {
                    return char::from_u32(*n as u32)
                        .map(|c| pad(&s, "", &c.to_string(), '>'))
                        .ok_or_else(|| "%c arg not in range(0x110000)".into())
                }
                _ => group(&m.to_string(), s.grouping),
            };
            let prefix = match (s.alternate, s.ty) {
                (true, Some('b')) => "0b",
                (true, Some('o')) => "0o",
                (true, Some('x')) => "0x",
                (true, Some('X')) => "0X",
                _ => "",
            };
            (*n < 0, format!("{prefix}{digits}"))
        }
        (Formattable::Int(n), Some(c @ ('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%'))) => {
            return format(&Formattable::Float(*n as f64), &respec(&s, c));
        }
        (Formattable::Int(_), Some(c)) => return Err(unknown(c)),
        (
            Formattable::Float(x),
            ty @ (None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'n' | '%')),
        ) => (
            x.is_sign_negative() && !x.is_nan(),
            float_body(x.abs(), &s, ty),
        ),
        (Formattable::Float(_), Some(c)) => return Err(unknown(c)),
    };
    let sign = match (negative, s.sign) {
        (true, _) => "-",
        (false, Some('+')) => "+",
        (false, Some(' ')) => " ",
        _ => "",
    };
    Ok(pad(&s, sign, &body, '>'))
}

/// The spec `s` with its type replaced (an int formatted as a float).
fn respec(s: &Spec, ty: char) -> String {
    let mut out = String::new();
    if let Some(a) = s.align {
        out.extend(s.fill);
        out.push(a);
    }
    out.extend(s.sign);
    if s.alternate {
        out.push('#');
    }
    if s.zero {
        out.push('0');
    }
    if s.width > 0 {
        out.push_str(&s.width.to_string());
    }
    out.extend(s.grouping);
    if let Some(p) = s.precision {
        out.push_str(&format!(".{p}"));
    }
    out.push(ty);
    out
}

/// The digits of a non-negative float (sign apart).
fn float_body(x: f64, s: &Spec, ty: Option<char>) -> String {
    let upper = matches!(ty, Some('E' | 'F' | 'G'));
    if x.is_nan() || x.is_infinite() {
        let t = if x.is_nan() { "nan" } else { "inf" };
        return if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
    }
    let body = match ty {
        Some('f' | 'F') => fixed(x, s.precision.unwrap_or(6), s),
        Some('%') => format!("{}%", fixed(x * 100.0, s.precision.unwrap_or(6), s)),
        Some('e' | 'E') => sci(x, s.precision.unwrap_or(6), s.alternate),
        Some('g' | 'G' | 'n') => general(x, s.precision.unwrap_or(6), s, false),
        // No type: repr without a precision; with one, like `g` but a fixed
        // result keeps a digit after the point.
        _ => match s.precision {
            None => group_float(&crate::host::float_repr(x), s.grouping),
            Some(p) => general(x, p, s, true),
        },
    };
    if upper {
        body.to_uppercase()
    } else {
        body
    }
}

fn fixed(x: f64, precision: usize, s: &Spec) -> String {
    let mut t = format!("{x:.precision$}");
    if s.alternate && precision == 0 {
        t.push('.');
    }
    group_float(&t, s.grouping)
}

/// `d.ddde+XX`, Python's exponent of at least two digits.
fn sci(x: f64, precision: usize, alternate: bool) -> String {
    let t = format!("{x:.precision$e}");
    let (mantissa, exp) = t.split_once('e').unwrap_or((&t, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut m = mantissa.to_string();
    if alternate && precision == 0 {
        m.push('.');
    }
    format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// `g`: `precision` significant digits, fixed or scientific by the
/// exponent, trailing zeros dropped (kept with `#`). `repr_like`: the
/// no-type form, which switches to scientific one exponent earlier and
/// keeps one digit after the point.
fn general(x: f64, precision: usize, s: &Spec, repr_like: bool) -> String {
    let p = precision.max(1);
    let exp = if x == 0.0 {
        0
    } else {
        let t = format!("{x:.*e}", p - 1);
        t.split_once('e')
            .and_then(|(_, e)| e.parse::<i64>().ok())
            .unwrap_or(0)
    };
    let limit = if repr_like { p as i64 - 1 } else { p as i64 };
    let strip = |t: String| -> String {
        if s.alternate || !t.contains('.') {
            return t;
        }
        let t = t.trim_end_matches('0');
        t.strip_suffix('.').unwrap_or(t).to_string()
    };
    if (-4..limit).contains(&exp) {
        let decimals = (p as i64 - 1 - exp).max(0) as usize;
        let mut t = strip(format!("{x:.decimals$}"));
        if repr_like && !t.contains('.') {
            t.push_str(".0");
        }
        group_float(&t, s.grouping)
    } else {
        let t = sci(x, p - 1, s.alternate);
        let (m, e) = t.split_once('e').unwrap_or((&t, ""));
        format!("{}e{e}", strip(m.to_string()))
    }
}

/// Thousands separators in the integer part of a number's text.
fn group(digits: &str, sep: Option<char>) -> String {
    let Some(sep) = sep else {
        return digits.to_string();
    };
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

fn group_float(t: &str, sep: Option<char>) -> String {
    let end = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    format!("{}{}", group(&t[..end], sep), &t[end..])
}

/// Pads `sign` + `body` to the width: `=` (and `0`) pads between them.
fn pad(s: &Spec, sign: &str, body: &str, default_align: char) -> String {
    let len = sign.chars().count() + body.chars().count();
    let n = s.width.saturating_sub(len);
    let (fill, align) = match (s.align, s.zero) {
        (Some(a), _) => (s.fill.unwrap_or(' '), a),
        (None, true) => (s.fill.unwrap_or('0'), '='),
        (None, false) => (' ', default_align),
    };
    let fills = |k: usize| std::iter::repeat_n(fill, k).collect::<String>();
    match align {
        '<' => format!("{sign}{body}{}", fills(n)),
        '^' => format!("{}{sign}{body}{}", fills(n / 2), fills(n - n / 2)),
        '=' => format!("{sign}{}{body}", fills(n)),
        _ => format!("{}{sign}{body}", fills(n)),
    }
}

/// A `%` conversion (`%-8.3f`, `%05d`, `%x`, `%g`, `%10s`): its flags,
/// width and precision as a format spec for [`format`]. `left`: the `-`
/// flag or a negative `*` width. `%` right-aligns text too, where
/// `format` left-aligns it.
pub fn percent_spec(flags_width_precision: &str, left: bool, conversion: char) -> String {
    let mut flags = String::new();
    let mut rest = flags_width_precision;
    while let Some(c) = rest.chars().next().filter(|c| "-+ #0".contains(*c)) {
        flags.push(c);
        rest = &rest[1..];
    }
    let text = matches!(conversion, 's' | 'r' | 'a' | 'c');
    let mut spec = String::new();
    if left {
        spec.push('<');
    } else if text {
        spec.push('>');
    }
    if flags.contains('+') {
        spec.push('+');
    } else if flags.contains(' ') {
        spec.push(' ');
    }
    if flags.contains('#') {
        spec.push('#');
    }
    if flags.contains('0') && !left && !text {
        spec.push('0');
    }
    spec.push_str(rest);
    match conversion {
        'i' | 'u' => spec.push('d'),
        _ if text => {}
        c => spec.push(c),
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64, spec: &str) -> String {
        format(&Formattable::Float(x), spec).expect("formats")
    }

    fn i(n: i64, spec: &str) -> String {
        format(&Formattable::Int(n), spec).expect("formats")
    }

    /// Expected values are CPython 3.11's (`format(x, spec)`).
    #[test]
    fn floats_format_as_cpython_formats_them() {
        let cases = [
            (411.01, "2.2", "4.1e+02"),
            (3.5432, "2.2", "3.5"),
            (0.0, "2.2", "0.0"),
            (35.4, ".2", "3.5e+01"),
            (5.0, ".2", "5.0"),
            (35.4, ".2g", "35"),
            (0.0001234, ".2g", "0.00012"),
            (0.00001234, "g", "1.234e-05"),
            (123456789.0, "g", "1.23457e+08"),
            (100000.0, "g", "100000"),
            (1e6, "g", "1e+06"),
            (2.5, "#g", "2.50000"),
            (123.456, ".2e", "1.23e+02"),
            (-0.5, "+.3f", "-0.500"),
            (0.5, "+.3f", "+0.500"),
            (1234567.891, ",.2f", "1,234,567.89"),
            (0.25, ".1%", "25.0%"),
            (3.14159, "08.3f", "0003.142"),
            (-3.14159, "08.3f", "-003.142"),
            (3.14159, "*^10.2f", "***3.14***"),
            (f64::NAN, "f", "nan"),
            (f64::INFINITY, "E", "INF"),
            (1e16, "", "1e+16"),
            (0.1, "", "0.1"),
            (1.5, ">6", "   1.5"),
            (5.0, ".1", "5e+00"),
            (0.0, ".1", "0e+00"),
            (0.001234, ".2", "0.0012"),
            (123.0, ".3", "1.23e+02"),
            (123.0, ".4", "123.0"),
            (0.0, "g", "0"),
            (1.0, "#.3g", "1.00"),
            (100.0, ".0", "1e+02"),
            (0.5, ".0", "0.5"),
            (1.0, ".0%", "100%"),
            (0.0, "e", "0.000000e+00"),
            (123456.0, ",g", "123,456"),
            (2.5, ".0f", "2"),
            (3.5, ".0f", "4"),
            (1234.5, "_.1f", "1_234.5"),
        ];
        for (x, spec, want) in cases {
            assert_eq!(f(x, spec), want, "format({x}, {spec:?})");
        }
    }

    #[test]
    fn ints_and_strings_format_as_cpython_formats_them() {
        assert_eq!(i(42, "05d"), "00042");
        assert_eq!(i(-42, "05d"), "-0042");
        assert_eq!(i(255, "#x"), "0xff");
        assert_eq!(i(255, "X"), "FF");
        assert_eq!(i(5, "b"), "101");
        assert_eq!(i(1234567, ","), "1,234,567");
        assert_eq!(i(7, ".2f"), "7.00");
        assert_eq!(i(3, "e"), "3.000000e+00");
        assert_eq!(i(42, "<5"), "42   ");
        assert_eq!(i(42, "+"), "+42");
        let s = |t: &str, spec: &str| format(&Formattable::Str(t.into()), spec).expect("formats");
        assert_eq!(s("ab", "5"), "ab   ");
        assert_eq!(s("ab", ">5"), "   ab");
        assert_eq!(s("abcdef", ".3"), "abc");
        assert_eq!(
            format(&Formattable::Str("x".into()), "d").unwrap_err(),
            "Unknown format code 'd' for object of type 'str'"
        );
        assert_eq!(
            format(&Formattable::Float(1.0), "d").unwrap_err(),
            "Unknown format code 'd' for object of type 'float'"
        );
    }

    #[test]
    fn percent_conversions_become_format_specs() {
        assert_eq!(percent_spec("-8.3", true, 'f'), "<8.3f");
        assert_eq!(percent_spec("05", false, 'd'), "05d");
        assert_eq!(percent_spec("+", false, 'i'), "+d");
        assert_eq!(percent_spec(".2", false, 'e'), ".2e");
        assert_eq!(percent_spec("10", false, 's'), ">10");
        assert_eq!(percent_spec("-3", true, 'c'), "<3");
    }
}
