//! The texts of CPython 3.11's `assertEqual` failures: `Lists differ: ...`
//! with the first differing element and an `ndiff` of the two values as
//! `pprint.pformat` lays them out, the diff of two strings, and reprs
//! shortened as `unittest.util._common_shorten_repr` shortens them.
use super::difflib::ndiff;
use crate::front::api;
use crate::front::value::{Show, Value};
use rustpython_parser::ast::CmpOp;

/// unittest's default `maxDiff`: longer diffs are left out.
pub const MAX_DIFF: usize = 80 * 8;

const MAX_LENGTH: usize = 80;
const PLACEHOLDER_LEN: usize = 12;
const MIN_BEGIN_LEN: usize = 5;
const MIN_END_LEN: usize = 5;
const MIN_COMMON_LEN: usize = 5;
const MIN_DIFF_LEN: usize =
    MAX_LENGTH - (MIN_BEGIN_LEN + PLACEHOLDER_LEN + MIN_COMMON_LEN + PLACEHOLDER_LEN + MIN_END_LEN);

fn repr(v: &Value) -> String {
    Show(v, true).to_string()
}

fn shorten(s: &[char], prefix: usize, suffix: usize) -> String {
    let skip = s.len() as i64 - prefix as i64 - suffix as i64;
    if skip > PLACEHOLDER_LEN as i64 {
        let head: String = s[..prefix].iter().collect();
        let tail: String = s[s.len() - suffix..].iter().collect();
        format!("{head}[{skip} chars]{tail}")
    } else {
        s.iter().collect()
    }
}

/// `_common_shorten_repr(a, b)`: both reprs, their common prefix cut when
/// one is longer than 80 characters.
pub fn common_shorten_repr(a: &Value, b: &Value) -> (String, String) {
    let (ra, rb) = (repr(a), repr(b));
    let (ca, cb): (Vec<char>, Vec<char>) = (ra.chars().collect(), rb.chars().collect());
    let maxlen = ca.len().max(cb.len());
    if maxlen <= MAX_LENGTH {
        return (ra, rb);
    }
    let prefixlen = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
    let prefix = &ca[..prefixlen];
    let common_len =
        MAX_LENGTH as i64 - (maxlen - prefixlen + MIN_BEGIN_LEN + PLACEHOLDER_LEN) as i64;
    if common_len > MIN_COMMON_LEN as i64 {
        let p = shorten(prefix, MIN_BEGIN_LEN, common_len as usize);
        let rest = |c: &[char]| c[prefixlen..].iter().collect::<String>();
        return (format!("{p}{}", rest(&ca)), format!("{p}{}", rest(&cb)));
    }
    let p = shorten(prefix, MIN_BEGIN_LEN, MIN_COMMON_LEN);
    let rest = |c: &[char]| shorten(&c[prefixlen..], MIN_DIFF_LEN, MIN_END_LEN);
    (format!("{p}{}", rest(&ca)), format!("{p}{}", rest(&cb)))
}

/// A dict's items with the keys sorted, as pprint sorts them (keys that
/// do not compare keep their order).
fn sorted_items(v: &Value) -> Vec<(Value, Value)> {
    let Value::Dict(d) = v else {
        return Vec::new();
    };
    let mut items: Vec<(Value, Value)> = d
        .borrow()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    items.sort_by(|(x, _), (y, _)| {
        let lt = |p: &Value, q: &Value| {
            matches!(
                api::compare_values(CmpOp::Lt, p, q, 0..0),
                Ok(Value::Bool(true))
            )
        };
        if lt(x, y) {
            std::cmp::Ordering::Less
        } else if lt(y, x) {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    });
    items
}

/// pprint's `_safe_repr`: `repr`, with dict keys sorted at every level.
fn safe_repr(v: &Value) -> String {
    match v {
        Value::Dict(_) => {
            let items: Vec<String> = sorted_items(v)
                .iter()
                .map(|(k, v)| format!("{}: {}", safe_repr(k), safe_repr(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::List(l) => {
            let items: Vec<String> = l.borrow().iter().map(safe_repr).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Tuple(t) if t.len() == 1 => format!("({},)", safe_repr(&t[0])),
        Value::Tuple(t) => {
            let items: Vec<String> = t.iter().map(safe_repr).collect();
            format!("({})", items.join(", "))
        }
        other => repr(other),
    }
}

/// `pprint.pformat(v)` (width 80): a list, tuple or dict too wide for its
/// line puts one item per line.
pub fn pformat(v: &Value) -> String {
    let mut out = String::new();
    format(v, &mut out, 0, 0);
    out
}

fn format(v: &Value, out: &mut String, indent: usize, allowance: usize) {
    let rep = safe_repr(v);
    if rep.chars().count() + indent + allowance > 80 {
        match v {
            Value::List(l) => {
                out.push('[');
                format_items(&l.borrow(), out, indent, allowance + 1);
                out.push(']');
                return;
            }
            Value::Tuple(t) => {
                let end = if t.len() == 1 { ",)" } else { ")" };
                out.push('(');
                format_items(t, out, indent, allowance + end.len());
                out.push_str(end);
                return;
            }
            Value::Dict(_) => {
                out.push('{');
                let items = sorted_items(v);
                let indent = indent + 1;
                for (i, (k, x)) in items.iter().enumerate() {
                    let last = i + 1 == items.len();
                    let key = safe_repr(k);
                    out.push_str(&key);
                    out.push_str(": ");
                    let at = indent + key.chars().count() + 2;
                    format(x, out, at, if last { allowance + 1 } else { 1 });
                    if !last {
                        out.push_str(",\n");
                        out.push_str(&" ".repeat(indent));
                    }
                }
                out.push('}');
                return;
            }
            _ => {}
        }
    }
    out.push_str(&rep);
}

fn format_items(items: &[Value], out: &mut String, indent: usize, allowance: usize) {
    let indent = indent + 1;
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
            out.push_str(&" ".repeat(indent));
        }
        let last = i + 1 == items.len();
        format(x, out, indent, if last { allowance } else { 1 });
    }
}

/// `_truncateMessage`: the message and the diff, or a note that the diff
/// is `maxDiff` long or more.
pub fn with_diff(message: String, diff: String, max_diff: Option<usize>) -> String {
    let len = diff.chars().count();
    match max_diff {
        Some(max) if len > max => {
            format!("{message}\nDiff is {len} characters long. Set self.maxDiff to None to see it.")
        }
        _ => message + &diff,
    }
}

/// `'\n' + '\n'.join(ndiff(pformat(a).splitlines(), pformat(b).splitlines()))`.
pub fn pformat_diff(a: &Value, b: &Value) -> String {
    let lines = |v: &Value| pformat(v).lines().map(str::to_string).collect::<Vec<_>>();
    format!("\n{}", ndiff(&lines(a), &lines(b)).join("\n"))
}

/// `assertMultiLineEqual`'s diff of two strings (lines keep their ends).
pub fn string_diff(a: &str, b: &str) -> String {
    let keep_ends =
        |s: &str| -> Vec<String> { s.split_inclusive('\n').map(str::to_string).collect() };
    let (mut al, mut bl) = (keep_ends(a), keep_ends(b));
    if al.len() == 1 && a.trim_matches(|c| c == '\r' || c == '\n') == a {
        al = vec![format!("{a}\n")];
        bl = vec![format!("{b}\n")];
    }
    format!("\n{}", ndiff(&al, &bl).concat())
}
