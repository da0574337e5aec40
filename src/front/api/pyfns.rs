//! Python's builtin functions, methods of lists, dicts and strings, and the
//! operators on plain values, all computed at compile time.
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;

use rustpython_parser::ast::{CmpOp, Operator};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::format_spec::{self, Formattable};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{range_len, Dict, Key, Show, Unhashable, Value, MAX_ITEMS};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(["builtins.len"], [("obj", Req)], Rest::No, len),
    builtin!(
        ["builtins.range"],
        [("start", Req), ("stop", Nil), ("step", Int(1))],
        Rest::No,
        range
    ),
    builtin!(
        ["builtins.enumerate"],
        [("iterable", Req), ("start", Int(0))],
        Rest::No,
        enumerate
    ),
    builtin!(["builtins.zip"], [], Rest::Varargs, zip),
    builtin!(["builtins.min"], [], Rest::Varargs, min),
    builtin!(["builtins.max"], [], Rest::Varargs, max),
    builtin!(
        ["builtins.sum"],
        [("iterable", Req), ("start", Int(0))],
        Rest::No,
        sum
    ),
    builtin!(["builtins.abs"], [("x", Req)], Rest::No, abs),
    builtin!(
        ["builtins.round"],
        [("x", Req), ("ndigits", Nil)],
        Rest::No,
        round
    ),
    builtin!(["builtins.int"], [("x", Int(0))], Rest::No, to_int),
    builtin!(["builtins.float"], [("x", Float(0.0))], Rest::No, to_float),
    builtin!(["builtins.bool"], [("x", Bool(false))], Rest::No, to_bool),
    builtin!(["builtins.str"], [("x", Str(""))], Rest::No, to_str),
    builtin!(["builtins.repr"], [("x", Req)], Rest::No, to_repr),
    builtin!(["builtins.list"], [("iterable", Nil)], Rest::No, to_list),
    builtin!(["builtins.tuple"], [("iterable", Nil)], Rest::No, to_tuple),
    builtin!(["builtins.dict"], [("iterable", Nil)], Rest::No, to_dict),
    builtin!(
        ["builtins.sorted"],
        [("iterable", Req), ("reverse", Bool(false))],
        Rest::No,
        sorted
    ),
    builtin!(["builtins.reversed"], [("seq", Req)], Rest::No, reversed),
    builtin!(
        ["builtins.format"],
        [("value", Req), ("format_spec", Str(""))],
        Rest::No,
        |_, a| {
            let spec = a.string("format_spec")?;
            format_value(a.get("value"), &spec, false, a.call.clone()).map(|s| Value::str(&s))
        }
    ),
    builtin!(
        ["builtins.isinstance"],
        [("obj", Req), ("classinfo", Req)],
        Rest::No,
        isinstance
    ),
    builtin!(
        ["builtins.print"],
        [
            ("sep", Str(" ")),
            ("end", Str("\n")),
            ("file", Nil),
            ("flush", Bool(false))
        ],
        Rest::Varargs,
        print
    ),
    builtin!(["list.append"], [("x", Req)], Rest::No, list_append),
    builtin!(["list.extend"], [("iterable", Req)], Rest::No, list_extend),
    builtin!(["list.pop"], [("index", Int(-1))], Rest::No, list_pop),
    builtin!(
        ["list.insert"],
        [("index", Req), ("x", Req)],
        Rest::No,
        list_insert
    ),
    builtin!(["list.index"], [("x", Req)], Rest::No, list_index),
    builtin!(["dict.items"], [], Rest::No, dict_items),
    builtin!(["dict.keys"], [], Rest::No, dict_keys),
    builtin!(["dict.values"], [], Rest::No, dict_values),
    builtin!(
        ["dict.get"],
        [("key", Req), ("default", Nil)],
        Rest::No,
        dict_get
    ),
    builtin!(["str.format"], [], Rest::VarargsKwargs, str_format),
    builtin!(["str.join"], [("iterable", Req)], Rest::No, str_join),
    builtin!(["str.upper"], [], Rest::No, |_, a| Ok(Value::str(
        &recv_str(a).to_uppercase()
    ))),
    builtin!(["str.lower"], [], Rest::No, |_, a| Ok(Value::str(
        &recv_str(a).to_lowercase()
    ))),
    builtin!(["str.startswith"], [("prefix", Req)], Rest::No, |_, a| Ok(
        Value::Bool(recv_str(a).starts_with(&a.string("prefix")?))
    )),
    builtin!(["str.endswith"], [("suffix", Req)], Rest::No, |_, a| Ok(
        Value::Bool(recv_str(a).ends_with(&a.string("suffix")?))
    )),
    builtin!(
        ["str.replace"],
        [("old", Req), ("new", Req)],
        Rest::No,
        str_replace
    ),
    builtin!(["str.split"], [("sep", Nil)], Rest::No, str_split),
    builtin!(["str.strip"], [("chars", Nil)], Rest::No, |_, a| {
        str_strip(a, true, true)
    }),
    builtin!(["str.lstrip"], [("chars", Nil)], Rest::No, |_, a| {
        str_strip(a, true, false)
    }),
    builtin!(["str.rstrip"], [("chars", Nil)], Rest::No, |_, a| {
        str_strip(a, false, true)
    }),
    builtin!(["str.splitlines"], [], Rest::No, |_, a| Ok(Value::list(
        split_lines(&recv_str(a))
            .into_iter()
            .map(Value::str)
            .collect()
    ))),
    builtin!(["str.find"], [("sub", Req)], Rest::No, |_, a| {
        let s = recv_str(a);
        // Python counts characters, not bytes.
        Ok(Value::Int(
            s.find(&*a.string("sub")?)
                .map_or(-1, |at| s[..at].chars().count() as i64),
        ))
    }),
    builtin!(["str.count"], [("sub", Req)], Rest::No, |_, a| Ok(
        Value::Int(recv_str(a).matches(&*a.string("sub")?).count() as i64)
    )),
    builtin!(["str.isdigit"], [], Rest::No, |_, a| {
        let s = recv_str(a);
        Ok(Value::Bool(
            !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()),
        ))
    }),
    builtin!(
        ["os.getenv", "os.environ.get"],
        [("key", Req), ("default", Nil)],
        Rest::No,
        |_, a| Ok(a.get("default").clone())
    ),
    builtin!(["unittest.main"], [], Rest::IgnoreKwargs, |_, _| Ok(
        Value::None
    )),
];

/// `str.strip`/`lstrip`/`rstrip(chars=None)`: Python's whitespace
/// (Rust's, and the separators `\x1c`..`\x1f`), or any of `chars`.
fn str_strip(a: &Args, left: bool, right: bool) -> Result<Value> {
    let s = recv_str(a);
    let chars = match a.get("chars") {
        Value::None => None,
        _ => Some(a.string("chars")?),
    };
    let strip = |c: char| match &chars {
        Some(set) => set.contains(c),
        None => c.is_whitespace() || ('\x1c'..='\x1f').contains(&c),
    };
    let mut t: &str = &s;
    if left {
        t = t.trim_start_matches(strip);
    }
    if right {
        t = t.trim_end_matches(strip);
    }
    Ok(Value::str(t))
}

/// `str.splitlines()`: split at Python's line boundaries (`\r\n` as one).
fn split_lines(s: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = s.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        ) {
            lines.push(&s[start..at]);
            start = at + c.len_utf8();
            if c == '\r' && chars.peek().is_some_and(|&(_, n)| n == '\n') {
                chars.next();
                start += 1;
            }
        }
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

fn recv_str(a: &Args) -> Rc<str> {
    match &a.recv {
        Some(Value::Str(s)) => s.clone(),
        _ => unreachable!("str methods are bound to strings"),
    }
}

fn recv_list(a: &Args) -> Rc<RefCell<Vec<Value>>> {
    match &a.recv {
        Some(Value::List(l)) => l.clone(),
        _ => unreachable!("list methods are bound to lists"),
    }
}

fn recv_dict(a: &Args) -> Rc<RefCell<Dict>> {
    match &a.recv {
        Some(Value::Dict(d)) => d.clone(),
        _ => unreachable!("dict methods are bound to dicts"),
    }
}

fn items_of(a: &Args, name: &str) -> Result<Vec<Value>> {
    a.get(name).items().ok_or_else(|| {
        a.err(
            name,
            format!("a {} is not iterable", a.get(name).type_name()),
        )
    })
}

fn len(_: &mut Host, a: &mut Args) -> Result<Value> {
    match a.get("obj") {
        Value::Var(v) => Err(a.err(
            "obj",
            format!(
                "len() of the program variable `{}` is not known at compile time",
                v.name
            ),
        )),
        Value::Range { start, stop, step } => Ok(Value::Int(range_len(*start, *stop, *step))),
        Value::Array(x) => x
            .shape()
            .first()
            .map(|n| Value::Int(*n as i64))
            .ok_or_else(|| a.err("obj", "TypeError: len() of unsized object")),
        other => match other.item_count() {
            Some(n) => Ok(Value::Int(n as i64)),
            None => Ok(Value::Int(items_of(a, "obj")?.len() as i64)),
        },
    }
}

fn range(_: &mut Host, a: &mut Args) -> Result<Value> {
    let (start, stop) = if a.is_none("stop") {
        (0, a.int("start")?)
    } else {
        (a.int("start")?, a.int("stop")?)
    };
    let step = a.int("step")?;
    if step == 0 {
        return Err(a.err("step", "range() step must not be zero"));
    }
    Ok(Value::Range { start, stop, step })
}

fn enumerate(_: &mut Host, a: &mut Args) -> Result<Value> {
    let start = a.int("start")?;
    let items = items_of(a, "iterable")?;
    Ok(Value::list(
        items
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::tuple(vec![Value::Int(start.saturating_add(i as i64)), v]))
            .collect(),
    ))
}

fn zip(_: &mut Host, a: &mut Args) -> Result<Value> {
    let lists: Option<Vec<Vec<Value>>> = a.extra.iter().map(Value::items).collect();
    let lists =
        lists.ok_or_else(|| Diagnostic::new(a.call.clone(), "zip() arguments must be iterable"))?;
    let n = lists.iter().map(Vec::len).min().unwrap_or(0);
    Ok(Value::list(
        (0..n)
            .map(|i| Value::tuple(lists.iter().map(|l| l[i].clone()).collect()))
            .collect(),
    ))
}

fn extremum(a: &Args, want: std::cmp::Ordering) -> Result<Value> {
    let items = match a.extra.as_slice() {
        [one] => one
            .items()
            .ok_or_else(|| Diagnostic::new(a.call.clone(), "expected an iterable"))?,
        many => many.to_vec(),
    };
    let mut best: Option<Value> = None;
    for it in items {
        best = Some(match best {
            None => it,
            Some(b) => {
                if order(&it, &b, a.call.clone())? == want {
                    it
                } else {
                    b
                }
            }
        });
    }
    best.ok_or_else(|| {
        Diagnostic::new(
            a.call.clone(),
            "an empty sequence has no minimum or maximum",
        )
    })
}

fn min(_: &mut Host, a: &mut Args) -> Result<Value> {
    extremum(a, std::cmp::Ordering::Less)
}

fn max(_: &mut Host, a: &mut Args) -> Result<Value> {
    extremum(a, std::cmp::Ordering::Greater)
}

/// Python's `sum`: `+` as the script would write it, so numpy scalars
/// (`sum(list_of_np_int64)`) and Variables add as they do there.
fn sum(i: &mut Host, a: &mut Args) -> Result<Value> {
    let mut acc = a.get("start").clone();
    for it in items_of(a, "iterable")? {
        acc = super::binary(i, Operator::Add, acc, it, a.call.clone())?;
    }
    Ok(acc)
}

fn abs(_: &mut Host, a: &mut Args) -> Result<Value> {
    match a.get("x") {
        Value::Int(i) => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| a.err("x", "integer overflow at compile time")),
        Value::Float(f) => Ok(Value::Float(f.abs())),
        Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
        // numpy's abs of an array or scalar keeps its dtype.
        Value::Array(x) => x
            .unary(crate::host::UnaryOp::Abs)
            .map(|y| Value::Array(Rc::new(y)))
            .map_err(|e| a.err("x", e.message)),
        Value::NpScalar(x) => x
            .unary(crate::host::UnaryOp::Abs)
            .map(|y| Value::NpScalar(Rc::new(y)))
            .map_err(|e| a.err("x", e.message)),
        _ => Err(a.err("x", "abs() needs a number")),
    }
}

fn round(_: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.float("x")?;
    if a.is_none("ndigits") {
        // Python rounds half to even.
        let r = x.round();
        let r = if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
            r - x.signum()
        } else {
            r
        };
        return Ok(Value::Int(r as i64));
    }
    let p = 10f64.powi(a.int("ndigits")? as i32);
    Ok(Value::Float((x * p).round() / p))
}

fn to_int(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::Int(match a.get("x") {
        Value::Array(x) | Value::NpScalar(x) => x
            .to_int()
            .map_err(|e| a.err("x", format!("{}: {}", e.kind.name(), e.message)))?,
        Value::Int(i) => *i,
        Value::Bool(b) => i64::from(*b),
        Value::Float(f) if f.is_finite() => f.trunc() as i64,
        Value::Str(s) => s
            .trim()
            .parse()
            .map_err(|_| a.err("x", format!("invalid literal for int(): '{s}'")))?,
        other => return Err(a.err("x", format!("int() cannot convert {}", other.type_name()))),
    }))
}

fn to_float(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::Float(match a.get("x") {
        Value::Str(s) => s
            .trim()
            .parse()
            .map_err(|_| a.err("x", format!("could not convert string to float: '{s}'")))?,
        Value::Array(x) | Value::NpScalar(x) => x
            .to_float()
            .map_err(|e| a.err("x", format!("{}: {}", e.kind.name(), e.message)))?,
        _ => a.float("x")?,
    }))
}

fn to_bool(_: &mut Host, a: &mut Args) -> Result<Value> {
    a.get("x")
        .truthy()
        .map(Value::Bool)
        .ok_or_else(|| a.err("x", "its truth is only known when the program runs"))
}

fn to_str(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::str(&Show(a.get("x"), false).to_string()))
}

fn to_repr(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::str(&Show(a.get("x"), true).to_string()))
}

fn to_list(_: &mut Host, a: &mut Args) -> Result<Value> {
    if a.is_none("iterable") {
        return Ok(Value::list(Vec::new()));
    }
    Ok(Value::list(items_of(a, "iterable")?))
}

fn to_tuple(_: &mut Host, a: &mut Args) -> Result<Value> {
    if a.is_none("iterable") {
        return Ok(Value::tuple(Vec::new()));
    }
    Ok(Value::tuple(items_of(a, "iterable")?))
}

/// `dict()`, `dict(mapping)` (a copy, in its order) or `dict(pairs)`.
fn to_dict(_: &mut Host, a: &mut Args) -> Result<Value> {
    let mut out = Dict::default();
    let pairs: Vec<(Value, Value)> = match a.get("iterable") {
        Value::None => Vec::new(),
        Value::Dict(d) => d
            .borrow()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        _ => items_of(a, "iterable")?
            .into_iter()
            .enumerate()
            .map(|(n, item)| match item.items().as_deref() {
                Some([k, v]) => Ok((k.clone(), v.clone())),
                // CPython's messages (a ValueError, a TypeError).
                Some(other) => Err(a.err(
                    "iterable",
                    format!(
                        "dictionary update sequence element #{n} has length {}; 2 is required",
                        other.len()
                    ),
                )),
                None => Err(a.err(
                    "iterable",
                    format!("cannot unpack dictionary update sequence element #{n}: not iterable"),
                )),
            })
            .collect::<Result<_>>()?,
    };
    for (k, v) in pairs {
        out.insert(k, v)
            .map_err(|t| a.err("iterable", format!("unhashable type: '{t}'")))?;
    }
    Ok(Value::Dict(Rc::new(RefCell::new(out))))
}

fn sorted(_: &mut Host, a: &mut Args) -> Result<Value> {
    let mut items = items_of(a, "iterable")?;
    let mut err = None;
    items.sort_by(|x, y| {
        order(x, y, a.call.clone()).unwrap_or_else(|e| {
            err = Some(e);
            std::cmp::Ordering::Equal
        })
    });
    if let Some(e) = err {
        return Err(e);
    }
    if a.bool("reverse")? {
        items.reverse();
    }
    Ok(Value::list(items))
}

fn reversed(_: &mut Host, a: &mut Args) -> Result<Value> {
    let mut items = items_of(a, "seq")?;
    items.reverse();
    Ok(Value::list(items))
}

fn isinstance(_: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = a.get("obj");
    let kinds = match a.get("classinfo") {
        Value::Tuple(t) => t.to_vec(),
        other => vec![other.clone()],
    };
    let is = kinds.iter().any(|k| match k {
        Value::Builtin(b, None) => {
            let t = b.name.trim_start_matches("builtins.");
            let actual = obj.type_name();
            t == actual
                || (t == "int" && actual == "bool")
                || (b.name == "fluid.framework.Variable" && actual == "Variable")
        }
        _ => false,
    });
    Ok(Value::Bool(is))
}

/// `print`: to the script's standard output in run mode; while compiling,
/// to standard error (the compiler's output is the program).
fn print(i: &mut Host, a: &mut Args) -> Result<Value> {
    let sep = a.string("sep")?;
    let end = a.string("end")?;
    let parts: Vec<String> = a
        .extra
        .iter()
        .map(|v| match v {
            // A program prints as Paddle prints it.
            Value::Object(o) => match o.as_ref() {
                crate::front::value::Object::Program(p) => {
                    fluidc_transpiler::pretty::paddle_program_text(&i.b.programs[*p].program)
                }
                _ => Show(v, false).to_string(),
            },
            _ => Show(v, false).to_string(),
        })
        .collect();
    let text = format!("{}{}", parts.join(&sep), end);
    match i.b.run.as_mut() {
        Some(run) => run.stdout.push_str(&text),
        None => eprint!("{text}"),
    }
    Ok(Value::None)
}

fn list_append(_: &mut Host, a: &mut Args) -> Result<Value> {
    recv_list(a).borrow_mut().push(a.get("x").clone());
    Ok(Value::None)
}

fn list_extend(_: &mut Host, a: &mut Args) -> Result<Value> {
    let list = recv_list(a);
    let more = a.get("iterable").item_count().unwrap_or(0);
    check_size(list.borrow().len().saturating_add(more), &a.call)?;
    let items = items_of(a, "iterable")?;
    list.borrow_mut().extend(items);
    Ok(Value::None)
}

fn list_pop(_: &mut Host, a: &mut Args) -> Result<Value> {
    let list = recv_list(a);
    let mut l = list.borrow_mut();
    let i = norm_index(a.int("index")?, l.len())
        .ok_or_else(|| a.err("index", "pop index out of range"))?;
    Ok(l.remove(i))
}

fn list_insert(_: &mut Host, a: &mut Args) -> Result<Value> {
    let list = recv_list(a);
    let mut l = list.borrow_mut();
    let i = a.int("index")?.clamp(-(l.len() as i64), l.len() as i64);
    let i = if i < 0 {
        (l.len() as i64 + i) as usize
    } else {
        i as usize
    };
    l.insert(i, a.get("x").clone());
    Ok(Value::None)
}

fn list_index(_: &mut Host, a: &mut Args) -> Result<Value> {
    let l = recv_list(a);
    let pos = l.borrow().iter().position(|v| equal(v, a.get("x")));
    pos.map(|p| Value::Int(p as i64))
        .ok_or_else(|| a.err("x", "the value is not in the list"))
}

fn dict_items(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::list(
        recv_dict(a)
            .borrow()
            .iter()
            .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
            .collect(),
    ))
}

fn dict_keys(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::list(recv_dict(a).borrow().keys().cloned().collect()))
}

fn dict_values(_: &mut Host, a: &mut Args) -> Result<Value> {
    Ok(Value::list(
        recv_dict(a)
            .borrow()
            .iter()
            .map(|(_, v)| v.clone())
            .collect(),
    ))
}

fn dict_get(_: &mut Host, a: &mut Args) -> Result<Value> {
    let d = recv_dict(a);
    let d = d.borrow();
    let found = d
        .get(a.get("key"))
        .map_err(|t| unhashable(t, a.span("key")))?;
    Ok(found.unwrap_or_else(|| a.get("default")).clone())
}

fn str_format(_: &mut Host, a: &mut Args) -> Result<Value> {
    let s = recv_str(a);
    let mut out = String::new();
    let mut next = 0;
    let mut rest: &str = &s;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if tail.starts_with('}') {
            return Err(Diagnostic::new(
                a.call.clone(),
                "single '}' encountered in format string",
            ));
        }
        let close = tail
            .find('}')
            .ok_or_else(|| Diagnostic::new(a.call.clone(), "unmatched `{` in format string"))?;
        let field = &tail[1..close];
        let (name, spec) = field.split_once(':').unwrap_or((field, ""));
        // `{0!r}`, `{!s}`: the conversion before the spec.
        let (name, repr) = match name.split_once('!') {
            Some((n, "r")) => (n, true),
            Some((n, "s")) => (n, false),
            Some((_, c)) => {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    format!("ValueError: Unknown conversion specifier {c}"),
                ))
            }
            None => (name, false),
        };
        // `{}`, `{0}`, `{name}`, and one attribute or item after it
        // (`{0.shape}` is not supported; `{cfg[lr]}`, `{0[1]}` are).
        let (base, item) = match name.split_once('[') {
            Some((b, rest)) => (b, rest.strip_suffix(']')),
            None => (name, None),
        };
        let v = if base.is_empty() {
            next += 1;
            a.extra.get(next - 1)
        } else if let Ok(idx) = base.parse::<usize>() {
            a.extra.get(idx)
        } else if base.chars().all(|c| c.is_alphanumeric() || c == '_') {
            match a.kwargs.iter().find(|(k, _)| k == base) {
                Some((_, v)) => Some(v),
                None => {
                    return Err(Diagnostic::new(
                        a.call.clone(),
                        format!("KeyError: '{base}'"),
                    ))
                }
            }
        } else {
            return Err(Diagnostic::new(
                a.call.clone(),
                format!("format field `{name}` is not supported"),
            ));
        };
        let v = v.ok_or_else(|| {
            Diagnostic::new(
                a.call.clone(),
                "IndexError: Replacement index out of range for positional args tuple",
            )
        })?;
        let item_value;
        let v = match item {
            Some(key) => {
                // Python's format looks up digits as an int, anything else as a str.
                let key = match key.parse::<i64>() {
                    Ok(i) => Value::Int(i),
                    Err(_) => Value::str(key),
                };
                item_value = get_item(v, &key, a.call.clone())?;
                &item_value
            }
            None => v,
        };
        out.push_str(&format_value(v, spec, repr, a.call.clone())?);
        rest = &tail[close + 1..];
    }
    out.push_str(rest);
    check_size(out.len(), &a.call)?;
    Ok(Value::str(&out))
}

fn str_join(_: &mut Host, a: &mut Args) -> Result<Value> {
    let sep = recv_str(a);
    let items = items_of(a, "iterable")?;
    let mut parts = Vec::with_capacity(items.len());
    let mut len = sep.len().saturating_mul(items.len().saturating_sub(1));
    for v in &items {
        match v {
            Value::Str(s) => {
                len = len.saturating_add(s.len());
                parts.push(&**s);
            }
            other => {
                return Err(a.err(
                    "iterable",
                    format!("join() needs strings, found {}", other.type_name()),
                ))
            }
        }
    }
    check_size(len, &a.call)?;
    Ok(Value::str(&parts.join(&sep)))
}

fn str_replace(_: &mut Host, a: &mut Args) -> Result<Value> {
    let (s, old, new) = (recv_str(a), a.string("old")?, a.string("new")?);
    // An empty `old` matches before every character and at the end.
    let n = if old.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(old.as_str()).count()
    };
    let len = n
        .saturating_mul(new.len())
        .saturating_add(s.len() - n.saturating_mul(old.len()).min(s.len()));
    check_size(len, &a.call)?;
    Ok(Value::str(&s.replace(&old, &new)))
}

fn str_split(_: &mut Host, a: &mut Args) -> Result<Value> {
    let s = recv_str(a);
    let parts: Vec<Value> = match a.opt_string("sep")? {
        Some(sep) => s.split(sep.as_str()).map(Value::str).collect(),
        None => s.split_whitespace().map(Value::str).collect(),
    };
    Ok(Value::list(parts))
}

/// Formats one value with a format spec (`.2f`, `d`, `>5`, `05d`, `,`,
/// `.3g`, ...) as Python's `format(v, spec)` does ([`format_spec`]);
/// `repr`: the value goes through `repr` first (`!r`).
pub fn format_value(v: &Value, spec: &str, repr: bool, sp: Range<usize>) -> Result<String> {
    if spec.is_empty() {
        return Ok(Show(v, repr).to_string());
    }
    let value = match v {
        _ if repr => Formattable::Str(Show(v, true).to_string()),
        Value::Int(n) => Formattable::Int(*n),
        Value::Bool(b) => Formattable::Int(i64::from(*b)),
        Value::Float(x) => Formattable::Float(*x),
        // A numpy scalar (or a one-element array) formats as the Python
        // number it converts to, as numpy's `__format__` does.
        Value::Array(x) | Value::NpScalar(x) if x.size() == 1 => match x.item() {
            Ok(crate::host::Scalar::Bool(b)) => Formattable::Int(i64::from(b)),
            Ok(crate::host::Scalar::Int(n)) => Formattable::Int(n),
            Ok(crate::host::Scalar::Float(f)) => Formattable::Float(f),
            Err(_) => Formattable::Str(Show(v, false).to_string()),
        },
        other => Formattable::Str(Show(other, false).to_string()),
    };
    format_spec::format(&value, spec).map_err(|e| Diagnostic::new(sp, format!("ValueError: {e}")))
}

/// `%` formatting of a string, as CPython's `str % args` does:
/// `%(key)` names a dict argument's item, `*` takes a width or precision
/// from the arguments, a length modifier (`%ld`) is skipped, and every
/// argument must be used.
fn percent_format(fmt: &str, args: &Value, sp: Range<usize>) -> Result<Value> {
    let err = |msg: String| Diagnostic::new(sp.clone(), msg);
    let (values, mapping) = match args {
        Value::Tuple(t) => (t.to_vec(), None),
        Value::Dict(d) => (vec![args.clone()], Some(d)),
        other => (vec![other.clone()], None),
    };
    let mut next = 0;
    let mut take = || -> Result<Value> {
        let v = values
            .get(next)
            .cloned()
            .ok_or_else(|| err("TypeError: not enough arguments for format string".into()))?;
        next += 1;
        Ok(v)
    };
    let chars: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let mut out = String::new();
    while i < chars.len() {
        if chars[i] != '%' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        i += 1;
        let incomplete = || err("ValueError: incomplete format".into());
        let mut keyed = None;
        if chars.get(i) == Some(&'(') {
            let close = chars[i..]
                .iter()
                .position(|&c| c == ')')
                .ok_or_else(|| err("ValueError: incomplete format key".into()))?;
            let key: String = chars[i + 1..i + close].iter().collect();
            let Some(d) = mapping else {
                return Err(err("TypeError: format requires a mapping".into()));
            };
            let item = d.borrow().get(&Value::str(&key)).ok().flatten().cloned();
            keyed = Some(item.ok_or_else(|| err(format!("KeyError: '{key}'")))?);
            i += close + 1;
        }
        // Flags, width and precision, with `*` replaced by an argument.
        let mut spec = String::new();
        while let Some(&c) = chars.get(i).filter(|c| "-+ #0".contains(**c)) {
            spec.push(c);
            i += 1;
        }
        let mut left = spec.contains('-');
        for part in 0..2 {
            if part == 1 {
                if chars.get(i) != Some(&'.') {
                    break;
                }
                spec.push('.');
                i += 1;
            }
            if chars.get(i) == Some(&'*') {
                let Value::Int(n) = take()? else {
                    return Err(err("TypeError: * wants int".into()));
                };
                // A negative `*` width left-aligns; a negative precision is 0.
                left |= part == 0 && n < 0;
                spec.push_str(
                    &if part == 0 {
                        n.unsigned_abs()
                    } else {
                        n.max(0) as u64
                    }
                    .to_string(),
                );
                i += 1;
            } else {
                while let Some(&c) = chars.get(i).filter(|c| c.is_ascii_digit()) {
                    spec.push(c);
                    i += 1;
                }
            }
        }
        while matches!(chars.get(i), Some('h' | 'l' | 'L')) {
            i += 1;
        }
        let conv = *chars.get(i).ok_or_else(incomplete)?;
        i += 1;
        if conv == '%' {
            out.push('%');
            continue;
        }
        if !"diouxXeEfFgGcrsa".contains(conv) {
            return Err(err(format!(
                "ValueError: unsupported format character '{conv}' ({:#x}) at index {}",
                conv as u32,
                i - 1
            )));
        }
        let v = match keyed {
            Some(v) => v,
            None => take()?,
        };
        let fspec = format_spec::percent_spec(&spec, left, conv);
        let text = match conv {
            's' | 'r' | 'a' => {
                let text = Show(&v, conv != 's').to_string();
                format_value(&Value::str(&text), &fspec, false, sp.clone())?
            }
            'c' => {
                let c =
                    match &v {
                        Value::Int(n) => u32::try_from(*n)
                            .ok()
                            .and_then(char::from_u32)
                            .ok_or_else(|| {
                                err("OverflowError: %c arg not in range(0x110000)".into())
                            })?,
                        Value::Str(s) if s.chars().count() == 1 => s.chars().next().unwrap_or(' '),
                        _ => return Err(err("TypeError: %c requires int or char".into())),
                    };
                format_value(&Value::str(&c.to_string()), &fspec, false, sp.clone())?
            }
            // `%d` truncates a float, as `int()` does.
            'd' | 'i' | 'u' => {
                let n = match &v {
                    Value::Float(f) => Value::Int(*f as i64),
                    Value::Array(x) | Value::NpScalar(x) if x.size() == 1 => match x.item() {
                        Ok(crate::host::Scalar::Float(f)) => Value::Int(f as i64),
                        _ => v.clone(),
                    },
                    _ => v.clone(),
                };
                format_value(&n, &fspec, false, sp.clone())?
            }
            _ => format_value(&v, &fspec, false, sp.clone())?,
        };
        out.push_str(&text);
        check_size(out.len(), &sp)?;
    }
    // A dict argument may go unused (`'abc' % {}`); any other may not.
    if next < values.len() && mapping.is_none() {
        return Err(err(
            "TypeError: not all arguments converted during string formatting".into(),
        ));
    }
    Ok(Value::str(&out))
}

fn norm_index(i: i64, len: usize) -> Option<usize> {
    let i = if i < 0 { i + len as i64 } else { i };
    (0..len as i64).contains(&i).then_some(i as usize)
}

/// Python's `TypeError: unhashable type`, for a dict key.
pub fn unhashable(type_name: Unhashable, sp: Range<usize>) -> Diagnostic {
    Diagnostic::new(sp, format!("unhashable type: '{type_name}'"))
        .help("a dict key must be a number, str, None, a tuple of those, or a fluid object (a list key can be a tuple)")
}

fn not_in_dict(key: &Value, sp: Range<usize>) -> Diagnostic {
    Diagnostic::new(sp, format!("key {} is not in the dict", Show(key, true)))
}

pub fn get_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<Value> {
    let index = |len: usize| -> Result<usize> {
        match key {
            Value::Int(i) => norm_index(*i, len).ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    format!("index {i} is out of range (length {len})"),
                )
            }),
            other => Err(Diagnostic::new(
                sp.clone(),
                format!("indices must be integers, not {}", other.type_name()),
            )),
        }
    };
    match obj {
        Value::List(l) => {
            let l = l.borrow();
            Ok(l[index(l.len())?].clone())
        }
        Value::Tuple(t) => Ok(t[index(t.len())?].clone()),
        Value::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            Ok(Value::str(&chars[index(chars.len())?].to_string()))
        }
        Value::Range { start, stop, step } => {
            let i = index(range_len(*start, *stop, *step) as usize)?;
            Ok(Value::Int(start + i as i64 * step))
        }
        Value::Dict(d) => d
            .borrow()
            .get(key)
            .map_err(|t| unhashable(t, sp.clone()))?
            .cloned()
            .ok_or_else(|| not_in_dict(key, sp)),
        Value::RunTime => Ok(Value::RunTime),
        Value::Var(v) => Err(Diagnostic::new(
            sp,
            format!(
                "indexing the program variable `{}` is not supported",
                v.name
            ),
        )
        .help("index it directly in the script (`var[0]`, `var[1:3]`), or use layers.slice or layers.gather")),
        other => Err(Diagnostic::new(
            sp,
            format!("a {} cannot be indexed", other.type_name()),
        )),
    }
}

pub fn set_item(obj: &Value, key: Value, v: Value, sp: Range<usize>) -> Result<()> {
    match obj {
        Value::List(l) => {
            let mut l = l.borrow_mut();
            let len = l.len();
            let i = match key {
                Value::Int(i) => norm_index(i, len),
                _ => None,
            }
            .ok_or_else(|| Diagnostic::new(sp, "list index out of range"))?;
            l[i] = v;
            Ok(())
        }
        Value::Dict(d) => d.borrow_mut().insert(key, v).map_err(|t| unhashable(t, sp)),
        Value::Poison => Ok(()),
        other => Err(Diagnostic::new(
            sp,
            format!("a {} does not support item assignment", other.type_name()),
        )),
    }
}

pub fn del_item(obj: &Value, key: &Value, sp: Range<usize>) -> Result<()> {
    match obj {
        Value::List(l) => {
            let mut l = l.borrow_mut();
            let len = l.len();
            let i = match key {
                Value::Int(i) => norm_index(*i, len),
                _ => None,
            }
            .ok_or_else(|| Diagnostic::new(sp, "list index out of range"))?;
            l.remove(i);
            Ok(())
        }
        Value::Dict(d) => match d.borrow_mut().remove(key) {
            Ok(Some(_)) => Ok(()),
            Ok(None) => Err(not_in_dict(key, sp)),
            Err(t) => Err(unhashable(t, sp)),
        },
        Value::Poison => Ok(()),
        other => Err(Diagnostic::new(
            sp,
            format!("a {} does not support item deletion", other.type_name()),
        )),
    }
}

pub fn slice(
    obj: &Value,
    lo: Option<Value>,
    hi: Option<Value>,
    step: Option<Value>,
    sp: Range<usize>,
) -> Result<Value> {
    let items = match obj {
        Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
        Value::RunTime => return Ok(Value::RunTime),
        other => other.items().ok_or_else(|| {
            Diagnostic::new(
                sp.clone(),
                format!("a {} cannot be sliced", other.type_name()),
            )
        })?,
    };
    let len = items.len() as i64;
    let get = |v: Option<Value>| -> Result<Option<i64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(i)),
            Some(other) => Err(Diagnostic::new(
                sp.clone(),
                format!("slice indices must be integers, not {}", other.type_name()),
            )),
        }
    };
    let step = get(step)?.unwrap_or(1);
    if step == 0 {
        return Err(Diagnostic::new(sp, "slice step cannot be zero"));
    }
    let clampi = |i: i64, lo: i64, hi: i64| if i < 0 { (i + len).max(lo) } else { i.min(hi) };
    let picked: Vec<Value> = if step > 0 {
        let a = get(lo)?.map_or(0, |i| clampi(i, 0, len));
        let b = get(hi)?.map_or(len, |i| clampi(i, 0, len));
        (a..b)
            .step_by(step as usize)
            .map(|i| items[i as usize].clone())
            .collect()
    } else {
        let a = get(lo)?.map_or(len - 1, |i| clampi(i, -1, len - 1));
        let b = get(hi)?.map_or(-1, |i| clampi(i, -1, len - 1));
        let mut out = Vec::new();
        let mut i = a;
        while i > b {
            out.push(items[i as usize].clone());
            i += step;
        }
        out
    };
    Ok(match obj {
        Value::Str(_) => Value::str(
            &picked
                .iter()
                .map(|v| Show(v, false).to_string())
                .collect::<String>(),
        ),
        Value::Tuple(_) => Value::tuple(picked),
        _ => Value::list(picked),
    })
}

/// A Python number as a float (`True` is 1.0).
pub fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    }
}

/// Refuses to build a list, tuple or string of more than [`MAX_ITEMS`]
/// items (characters) at compile time: a script doubling a list in a loop
/// would otherwise exhaust memory and abort the compiler.
pub fn check_size(n: usize, sp: &Range<usize>) -> Result<()> {
    if n > MAX_ITEMS {
        return Err(Diagnostic::new(
            sp.clone(),
            format!(
                "this would build a value of {n} items at compile time (the limit is {MAX_ITEMS})"
            ),
        )
        .help("fluidc keeps every Python value in memory while it compiles: build a smaller value, or make the data a program variable (layers.fill_constant, layers.assign, or a feed)"));
    }
    Ok(())
}

/// Python's arithmetic on plain values.
pub fn binary(op: Operator, l: Value, r: Value, sp: Range<usize>) -> Result<Value> {
    let bad = |l: &Value, r: &Value| {
        Diagnostic::new(
            sp.clone(),
            format!(
                "unsupported operand types for {}: {} and {}",
                op_symbol(op),
                l.type_name(),
                r.type_name()
            ),
        )
    };
    if let (Some(a), Some(b)) = (int_of(&l), int_of(&r)) {
        let checked = match op {
            Operator::Add => a.checked_add(b),
            Operator::Sub => a.checked_sub(b),
            Operator::Mult => a.checked_mul(b),
            Operator::Div => {
                if b == 0 {
                    return Err(Diagnostic::new(sp, "division by zero"));
                }
                return Ok(Value::Float(a as f64 / b as f64));
            }
            Operator::FloorDiv | Operator::Mod => {
                if b == 0 {
                    return Err(Diagnostic::new(sp, "integer division or modulo by zero"));
                }
                // Python rounds the quotient toward negative infinity.
                let (Some(q), Some(r)) = (a.checked_div(b), a.checked_rem(b)) else {
                    return Err(Diagnostic::new(sp, "integer overflow at compile time"));
                };
                let q = if r != 0 && ((r < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                };
                if op == Operator::FloorDiv {
                    Some(q)
                } else {
                    Some(a - q * b)
                }
            }
            Operator::Pow if b >= 0 => a.checked_pow(u32::try_from(b).unwrap_or(u32::MAX)),
            Operator::Pow => return Ok(Value::Float((a as f64).powf(b as f64))),
            Operator::LShift => u32::try_from(b)
                .ok()
                .filter(|b| *b < 64)
                .and_then(|b| a.checked_shl(b))
                .filter(|r| r >> u32::try_from(b).unwrap_or(0) == a),
            Operator::RShift => a.checked_shr(u32::try_from(b).unwrap_or(u32::MAX)),
            Operator::BitAnd => Some(a & b),
            Operator::BitOr => Some(a | b),
            Operator::BitXor => Some(a ^ b),
            Operator::MatMult => None,
        };
        return checked
            .map(Value::Int)
            .ok_or_else(|| Diagnostic::new(sp, "integer overflow at compile time"));
    }
    if let (Some(a), Some(b)) = (num(&l), num(&r)) {
        let x = match op {
            Operator::Add => a + b,
            Operator::Sub => a - b,
            Operator::Mult => a * b,
            Operator::Div | Operator::FloorDiv | Operator::Mod if b == 0.0 => {
                return Err(Diagnostic::new(sp, "float division by zero"))
            }
            Operator::Div => a / b,
            Operator::FloorDiv => (a / b).floor(),
            Operator::Mod => a - (a / b).floor() * b,
            Operator::Pow => a.powf(b),
            _ => return Err(bad(&l, &r)),
        };
        return Ok(Value::Float(x));
    }
    match (op, &l, &r) {
        (Operator::Add, Value::Str(a), Value::Str(b)) => {
            check_size(a.len() + b.len(), &sp)?;
            Ok(Value::str(&format!("{a}{b}")))
        }
        (Operator::Add, Value::List(a), Value::List(b)) => {
            let (a, b) = (a.borrow(), b.borrow());
            check_size(a.len().saturating_add(b.len()), &sp)?;
            Ok(Value::list(a.iter().chain(b.iter()).cloned().collect()))
        }
        (Operator::Add, Value::Tuple(a), Value::Tuple(b)) => {
            check_size(a.len().saturating_add(b.len()), &sp)?;
            Ok(Value::tuple(a.iter().chain(b.iter()).cloned().collect()))
        }
        (Operator::Mult, Value::List(a), Value::Int(n))
        | (Operator::Mult, Value::Int(n), Value::List(a)) => {
            let a = a.borrow();
            check_size(a.len().saturating_mul((*n).max(0) as usize), &sp)?;
            Ok(Value::list(
                (0..(*n).max(0)).flat_map(|_| a.iter().cloned()).collect(),
            ))
        }
        (Operator::Mult, Value::Str(s), Value::Int(n)) => {
            check_size(s.len().saturating_mul((*n).max(0) as usize), &sp)?;
            Ok(Value::str(&s.repeat((*n).max(0) as usize)))
        }
        (Operator::Mod, Value::Str(f), args) => percent_format(f, args, sp),
        _ => Err(bad(&l, &r)),
    }
}

fn op_symbol(op: Operator) -> &'static str {
    match op {
        Operator::Add => "+",
        Operator::Sub => "-",
        Operator::Mult => "*",
        Operator::MatMult => "@",
        Operator::Div => "/",
        Operator::Mod => "%",
        Operator::Pow => "**",
        Operator::LShift => "<<",
        Operator::RShift => ">>",
        Operator::BitOr => "|",
        Operator::BitXor => "^",
        Operator::BitAnd => "&",
        Operator::FloorDiv => "//",
    }
}

/// Python equality of plain values (objects compare by identity).
pub fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::None, Value::None) => true,
        // The same list or dict is equal to itself without comparing its
        // items (as Python's item comparison starts with identity), which
        // also ends the comparison of one that contains itself.
        (Value::List(x), Value::List(y)) if Rc::ptr_eq(x, y) => true,
        (Value::Dict(x), Value::Dict(y)) if Rc::ptr_eq(x, y) => true,
        (Value::List(x), Value::List(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| equal(p, q))
        }
        // A namedtuple is equal to the tuple of its fields.
        (Value::Instance(i), other) | (other, Value::Instance(i)) if i.is_namedtuple() => {
            match (i.tuple_items(), other) {
                (Some(a), Value::Tuple(_) | Value::Instance(_)) => {
                    equal(
                        &Value::tuple(a),
                        &Value::tuple(other.items().unwrap_or_default()),
                    ) && other.items().is_some()
                }
                _ => false,
            }
        }
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::Var(x), Value::Var(y)) => x == y,
        (Value::Object(x), Value::Object(y)) => Rc::ptr_eq(x, y),
        (Value::Module(x), Value::Module(y)) => x == y,
        (Value::Function(x), Value::Function(y)) => Rc::ptr_eq(x, y),
        // `type == bool`: the same builtin, unbound.
        (Value::Builtin(x, None), Value::Builtin(y, None)) => std::ptr::eq(*x, *y),
        (Value::Dict(x), Value::Dict(y)) => {
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| matches!(y.get(k), Ok(Some(w)) if equal(v, w)))
        }
        // Numbers compare exactly, as they hash (`2**63 - 1 != 2.0**63`).
        _ => match (Key::of_number(a), Key::of_number(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

fn order(a: &Value, b: &Value, sp: Range<usize>) -> Result<std::cmp::Ordering> {
    // A namedtuple orders as the tuple of its fields.
    let as_tuple = |v: &Value| match v {
        Value::Instance(i) => i.tuple_items().map(Value::tuple),
        _ => None,
    };
    // A numpy scalar orders as the Python number it holds.
    let as_number = |v: &Value| match v {
        Value::NpScalar(x) => x.item().ok().map(|s| match s {
            crate::host::Scalar::Bool(b) => Value::Bool(b),
            crate::host::Scalar::Int(i) => Value::Int(i),
            crate::host::Scalar::Float(f) => Value::Float(f),
        }),
        _ => None,
    };
    let (x, y) = (as_number(a), as_number(b));
    if x.is_some() || y.is_some() {
        let (x, y) = (
            x.unwrap_or_else(|| a.clone()),
            y.unwrap_or_else(|| b.clone()),
        );
        return order(&x, &y, sp);
    }
    let (x, y) = (as_tuple(a), as_tuple(b));
    if x.is_some() || y.is_some() {
        let (x, y) = (
            x.unwrap_or_else(|| a.clone()),
            y.unwrap_or_else(|| b.clone()),
        );
        return order(&x, &y, sp);
    }
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
        (Value::List(x), Value::List(y)) if Rc::ptr_eq(x, y) => Ok(std::cmp::Ordering::Equal),
        (Value::List(_) | Value::Tuple(_), Value::List(_) | Value::Tuple(_)) => {
            let (x, y) = (a.items().unwrap_or_default(), b.items().unwrap_or_default());
            for (p, q) in x.iter().zip(&y) {
                let o = order(p, q, sp.clone())?;
                if o != std::cmp::Ordering::Equal {
                    return Ok(o);
                }
            }
            Ok(x.len().cmp(&y.len()))
        }
        _ => match (num(a), num(b)) {
            (Some(x), Some(y)) => x
                .partial_cmp(&y)
                .ok_or_else(|| Diagnostic::new(sp, "cannot order NaN")),
            _ => Err(Diagnostic::new(
                sp,
                format!("cannot order {} and {}", a.type_name(), b.type_name()),
            )),
        },
    }
}

pub fn compare(op: CmpOp, l: &Value, r: &Value, sp: Range<usize>) -> Result<Value> {
    use std::cmp::Ordering::*;
    Ok(Value::Bool(match op {
        CmpOp::Eq => equal(l, r),
        CmpOp::NotEq => !equal(l, r),
        CmpOp::Lt => order(l, r, sp)? == Less,
        CmpOp::LtE => order(l, r, sp)? != Greater,
        CmpOp::Gt => order(l, r, sp)? == Greater,
        CmpOp::GtE => order(l, r, sp)? != Less,
        CmpOp::Is => match (l, r) {
            (Value::None, Value::None) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            // Containers are the same object only when they share their storage.
            (Value::List(a), Value::List(b)) => Rc::ptr_eq(a, b),
            (Value::Dict(a), Value::Dict(b)) => Rc::ptr_eq(a, b),
            (Value::Tuple(a), Value::Tuple(b)) => {
                Rc::ptr_eq(a, b) || (a.is_empty() && b.is_empty())
            }
            (Value::Array(a), Value::Array(b)) => Rc::ptr_eq(a, b),
            _ => equal(l, r) && !matches!(l, Value::Int(_) | Value::Float(_) | Value::Str(_)),
        },
        CmpOp::IsNot => !matches!(compare(CmpOp::Is, l, r, sp)?, Value::Bool(true)),
        CmpOp::In | CmpOp::NotIn => {
            let found = match r {
                Value::Range { start, stop, step } => match l {
                    Value::Int(x) => {
                        let (x, start, step) =
                            (i128::from(*x), i128::from(*start), i128::from(*step));
                        let k = (x - start) / step;
                        (x - start) % step == 0
                            && k >= 0
                            && k < i128::from(range_len(
                                i64::try_from(start).unwrap_or(0),
                                *stop,
                                i64::try_from(step).unwrap_or(1),
                            ))
                    }
                    _ => false,
                },
                Value::Dict(d) => d
                    .borrow()
                    .get(l)
                    .map_err(|t| unhashable(t, sp.clone()))?
                    .is_some(),
                Value::Str(s) => match l {
                    Value::Str(sub) => s.contains(sub.as_ref()),
                    _ => return Err(Diagnostic::new(sp, "`in <str>` needs a string on the left")),
                },
                other => other
                    .items()
                    .ok_or_else(|| {
                        Diagnostic::new(
                            sp.clone(),
                            format!("a {} is not a container", other.type_name()),
                        )
                    })?
                    .iter()
                    .any(|x| equal(x, l)),
            };
            found == (op == CmpOp::In)
        }
    }))
}
