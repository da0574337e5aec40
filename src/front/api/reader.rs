//! Readers (SPEC §8.4): `paddle.batch`, the `paddle.reader` decorators and
//! `fluid.DataFeeder`, as Paddle 1.x's `batch.py`, `reader/decorator.py`
//! and `data_feeder.py` defined them.
//!
//! A reader is a callable that gives an iterable of samples. The script's
//! readers are generator functions, which fluidc runs eagerly (a call gives
//! the list of what it yielded), so a reader here is called once and its
//! items are a list. A decorated reader is the builtin `reader.__call__`
//! bound to what it decorates: a tuple whose first item names the kind
//! (`batch`, `shuffle`, ...), the rest its arguments. Calling it calls the
//! readers it wraps through the [`Host`] and builds its own items.
use std::rc::Rc;

use fluidc_transpiler::VarKind;

use super::builtin::{builtin, Args, Builtin, Rest, D::*};
use super::numpy::{dtype_of_kind, nested};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Object, Show, Value, VarRef};
use crate::host::{DType, HostArray};

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["paddle.batch"],
        [
            ("reader", Req),
            ("batch_size", Req),
            ("drop_last", Bool(false))
        ],
        Rest::No,
        |_, a| {
            let reader = reader_arg(a, "reader")?;
            let size = int_of(a, "batch_size")?;
            if size <= 0 {
                return Err(a.err(
                    "batch_size",
                    format!("ValueError: batch_size should be a positive integer value, but got batch_size={size}"),
                ));
            }
            let drop_last = a.get("drop_last").truthy().unwrap_or(false);
            Ok(decorated(
                "batch",
                vec![reader, Value::Int(size), Value::Bool(drop_last)],
            ))
        }
    ),
    builtin!(
        ["paddle.reader.shuffle"],
        [("reader", Req), ("buf_size", Req)],
        Rest::No,
        |_, a| {
            let reader = reader_arg(a, "reader")?;
            let size = int_of(a, "buf_size")?;
            Ok(decorated("shuffle", vec![reader, Value::Int(size)]))
        }
    ),
    builtin!(
        ["paddle.reader.buffered"],
        [("reader", Req), ("size", Req)],
        Rest::No,
        |_, a| {
            // The buffer fills on a thread in Paddle; the items are the same.
            let reader = reader_arg(a, "reader")?;
            int_of(a, "size")?;
            Ok(decorated("buffered", vec![reader]))
        }
    ),
    builtin!(
        ["paddle.reader.firstn"],
        [("reader", Req), ("n", Req)],
        Rest::No,
        |_, a| {
            let reader = reader_arg(a, "reader")?;
            let n = int_of(a, "n")?;
            Ok(decorated("firstn", vec![reader, Value::Int(n)]))
        }
    ),
    builtin!(["paddle.reader.chain"], [], Rest::Varargs, |_, a| {
        let readers = readers_of(a, &a.extra)?;
        Ok(decorated("chain", vec![Value::list(readers)]))
    }),
    builtin!(
        ["paddle.reader.compose"],
        [("check_alignment", Bool(true))],
        Rest::Varargs,
        |_, a| {
            let readers = readers_of(a, &a.extra)?;
            let check = a.get("check_alignment").truthy().unwrap_or(true);
            Ok(decorated(
                "compose",
                vec![Value::list(readers), Value::Bool(check)],
            ))
        }
    ),
    builtin!(["paddle.reader.map_readers"], [], Rest::Varargs, |_, a| {
        let Some((func, readers)) = a.extra.split_first() else {
            return Err(Diagnostic::new(
                a.call.clone(),
                "TypeError: map_readers() is missing the argument `func`",
            )
            .help("the signature is paddle.reader.map_readers(func, *readers)"));
        };
        let readers = readers_of(a, readers)?;
        Ok(decorated("map", vec![func.clone(), Value::list(readers)]))
    }),
    builtin!(
        ["paddle.reader.xmap_readers"],
        [
            ("mapper", Req),
            ("reader", Req),
            ("process_num", Req),
            ("buffer_size", Req),
            ("order", Bool(false))
        ],
        Rest::No,
        |_, a| {
            // Paddle maps on `process_num` threads (in any order unless
            // `order`); fluidc maps one sample after the other, in order.
            let reader = reader_arg(a, "reader")?;
            int_of(a, "process_num")?;
            int_of(a, "buffer_size")?;
            Ok(decorated("xmap", vec![a.get("mapper").clone(), reader]))
        }
    ),
    // A decorated reader, called: see the module's documentation.
    builtin!(["reader.__call__"], [], Rest::No, call_reader),
    builtin!(
        ["fluid.DataFeeder", "fluid.data_feeder.DataFeeder"],
        [("feed_list", Req), ("place", Req), ("program", Nil)],
        Rest::No,
        data_feeder
    ),
    builtin!(["DataFeeder.feed"], [("iterable", Req)], Rest::No, feed),
];

/// A reader decorated as `kind` over `parts`.
pub fn decorated(kind: &str, parts: Vec<Value>) -> Value {
    let mut all = Vec::with_capacity(parts.len() + 1);
    all.push(Value::str(kind));
    all.extend(parts);
    match super::lookup("reader.__call__") {
        Some(b) => Value::Builtin(b, Some(Rc::new(Value::tuple(all)))),
        // The table is bad: reported by `check_registry` before any script runs.
        None => Value::Poison,
    }
}

/// A reader argument: anything callable (Paddle checks nothing until it calls).
fn reader_arg(a: &Args, name: &str) -> Result<Value> {
    let v = a.get(name).clone();
    if callable(&v) {
        Ok(v)
    } else {
        Err(a.err(
            name,
            format!(
                "a reader is a function that returns the samples (a generator function), not {}",
                v.type_name()
            ),
        )
        .help("pass the reader itself, without calling it: paddle.batch(train_reader, 20), not paddle.batch(train_reader(), 20)"))
    }
}

fn callable(v: &Value) -> bool {
    matches!(
        v,
        Value::Function(_)
            | Value::Builtin(..)
            | Value::Method(..)
            | Value::Native(..)
            | Value::Class(_)
    )
}

fn readers_of(a: &Args, vals: &[Value]) -> Result<Vec<Value>> {
    for v in vals {
        if !callable(v) {
            return Err(Diagnostic::new(
                a.call.clone(),
                format!(
                    "a reader is a function that returns the samples, not {}",
                    v.type_name()
                ),
            ));
        }
    }
    Ok(vals.to_vec())
}

/// `int(x)` of an argument Python would convert (an int, a float, a bool).
fn int_of(a: &Args, name: &str) -> Result<i64> {
    match a.get(name) {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Float(f) if f.is_finite() => Ok(f.trunc() as i64),
        other => Err(a.err(
            name,
            format!("`{name}` must be an integer, not {}", other.type_name()),
        )),
    }
}

/// The samples a reader gives: calls it and lists what it returns; `None`
/// when the call failed (its error is reported, or an exception unwinds).
fn read(h: &mut Host, reader: &Value, sp: &std::ops::Range<usize>) -> Result<Option<Vec<Value>>> {
    let out = h.call(reader.clone(), sp.clone())?;
    if matches!(out, Value::Poison) {
        return Ok(None);
    }
    match out.items() {
        Some(items) => Ok(Some(items)),
        None => Err(Diagnostic::new(
            sp.clone(),
            format!(
                "TypeError: a reader must return an iterable of samples, not {} ({})",
                out.type_name(),
                Show(&out, true)
            ),
        )
        .help("a reader is a function that yields samples (or returns a list of them)")),
    }
}

/// The items of a decorated reader.
fn call_reader(h: &mut Host, a: &mut Args) -> Result<Value> {
    let Some(Value::Tuple(parts)) = a.recv.clone() else {
        return Err(Diagnostic::new(a.call.clone(), "this reader has no state"));
    };
    let sp = a.call.clone();
    let kind = match parts.first() {
        Some(Value::Str(k)) => k.to_string(),
        _ => return Err(Diagnostic::new(sp, "this reader has no state")),
    };
    let part = |i: usize| parts.get(i).cloned().unwrap_or(Value::None);
    let int = |i: usize| match part(i) {
        Value::Int(n) => n,
        _ => 0,
    };
    macro_rules! read {
        ($r:expr) => {
            match read(h, &$r, &sp)? {
                Some(items) => items,
                None => return Ok(Value::Poison),
            }
        };
    }
    let out: Vec<Value> = match kind.as_str() {
        "batch" => {
            let size = usize::try_from(int(2)).unwrap_or(1).max(1);
            let drop_last = matches!(part(3), Value::Bool(true));
            let items = read!(part(1));
            let mut out: Vec<Value> = items
                .chunks(size)
                .map(|c| Value::list(c.to_vec()))
                .collect();
            if drop_last && items.len() % size != 0 {
                out.pop();
            }
            out
        }
        "shuffle" => {
            // 1.x: fill a buffer of `buf_size`, `random.shuffle` it, give
            // it out; the rest shuffled at the end.
            let size = usize::try_from(int(2)).unwrap_or(0);
            let items = read!(part(1));
            let mut out = Vec::with_capacity(items.len());
            let mut buf: Vec<Value> = Vec::new();
            for e in items {
                buf.push(e);
                if buf.len() >= size {
                    super::random::python_shuffle(&mut buf);
                    out.append(&mut buf);
                }
            }
            if !buf.is_empty() {
                super::random::python_shuffle(&mut buf);
                out.append(&mut buf);
            }
            out
        }
        "buffered" => read!(part(1)),
        "firstn" => {
            let n = usize::try_from(int(2)).unwrap_or(0);
            let mut items = read!(part(1));
            items.truncate(n);
            items
        }
        "chain" => {
            let mut out = Vec::new();
            for r in part(1).items().unwrap_or_default() {
                out.extend(read!(r));
                super::check_size(out.len(), &sp)?;
            }
            out
        }
        "compose" => {
            let check = matches!(part(2), Value::Bool(true));
            let mut outs = Vec::new();
            for r in part(1).items().unwrap_or_default() {
                outs.push(read!(r));
            }
            let shortest = outs.iter().map(Vec::len).min().unwrap_or(0);
            let longest = outs.iter().map(Vec::len).max().unwrap_or(0);
            if check && shortest != longest {
                // Paddle raises ComposeNotAligned, a ValueError.
                let counts: Vec<String> = outs.iter().map(|o| o.len().to_string()).collect();
                return Err(Diagnostic::new(
                    sp,
                    "ValueError: outputs of readers are not aligned.",
                )
                .help(format!(
                    "(Paddle's ComposeNotAligned) the readers give {} samples; pass check_alignment=False to stop at the shortest",
                    counts.join(", ")
                )));
            }
            (0..shortest)
                .map(|i| {
                    let mut fields = Vec::new();
                    for o in &outs {
                        match &o[i] {
                            Value::Tuple(t) => fields.extend(t.iter().cloned()),
                            other => fields.push(other.clone()),
                        }
                    }
                    Value::tuple(fields)
                })
                .collect()
        }
        "map" => {
            let func = part(1);
            let mut outs = Vec::new();
            for r in part(2).items().unwrap_or_default() {
                outs.push(read!(r));
            }
            let n = outs.iter().map(Vec::len).min().unwrap_or(0);
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let args: Vec<Value> = outs.iter().map(|o| o[i].clone()).collect();
                let v = h.call_with(func.clone(), args, sp.clone())?;
                if matches!(v, Value::Poison) {
                    return Ok(Value::Poison);
                }
                out.push(v);
            }
            out
        }
        "xmap" => {
            let mapper = part(1);
            let items = read!(part(2));
            let mut out = Vec::with_capacity(items.len());
            for x in items {
                let v = h.call_with(mapper.clone(), vec![x], sp.clone())?;
                if matches!(v, Value::Poison) {
                    return Ok(Value::Poison);
                }
                out.push(v);
            }
            out
        }
        other => return super::dataset::call_reader(other, &parts, sp),
    };
    super::check_size(out.len(), &sp)?;
    Ok(Value::list(out))
}

/// One slot of a `DataFeeder`: the variable's name, dtype and shape (none
/// when it has more than one unknown dimension, as Paddle's converter).
#[derive(Debug, Clone)]
pub struct FeedSlot {
    pub name: String,
    pub dtype: DType,
    pub shape: Option<Vec<i64>>,
    /// The variable's LoD levels: each sample's field is a sequence (of
    /// sequences, for 2), fed as one LoD tensor of the rows.
    pub lod_level: usize,
}

/// `fluid.DataFeeder(feed_list, place, program=None)`.
fn data_feeder(h: &mut Host, a: &mut Args) -> Result<Value> {
    let program = match a.get("program") {
        Value::None => h.b.main,
        Value::Object(o) => match o.as_ref() {
            Object::Program(p) => *p,
            _ => return Err(a.err("program", "`program` must be a fluid.Program")),
        },
        other => {
            return Err(a.err(
                "program",
                format!(
                    "`program` must be a fluid.Program, not {}",
                    other.type_name()
                ),
            ))
        }
    };
    let list = a
        .get("feed_list")
        .items()
        .ok_or_else(|| a.err("feed_list", "feed_list must be a list of variables"))?;
    let mut slots = Vec::with_capacity(list.len());
    for v in list {
        let var = match &v {
            Value::Var(r) => r.clone(),
            Value::Str(name) if h.b.declares(program, 0, name) => VarRef {
                program,
                block: 0,
                name: name.as_ref().into(),
            },
            Value::Str(name) => {
                return Err(a.err(
                    "feed_list",
                    format!("the program has no variable `{name}` to feed"),
                )
                .help("name a variable of the program's global block (a layers.data), or pass the variable"))
            }
            other => {
                return Err(a.err(
                    "feed_list",
                    format!("TypeError: Feed list should contain a list of variable, not {}", other.type_name()),
                ))
            }
        };
        let desc = h.b.var(&var);
        let kind = desc.dtype().unwrap_or(VarKind::Fp32);
        let dtype = dtype_of_kind(kind).ok_or_else(|| {
            a.err(
                "feed_list",
                format!(
                    "fluidc's numpy has no {} for the variable `{}`",
                    kind.as_str_name(),
                    var.name
                ),
            )
        })?;
        let dims: Vec<i64> = desc
            .tensor_desc()
            .map(|t| t.dims.clone())
            .unwrap_or_default();
        let shape = (dims.iter().filter(|d| **d < 0).count() <= 1).then_some(dims);
        let lod_level = desc.lod_level().max(0) as usize;
        slots.push(FeedSlot {
            name: var.name.to_string(),
            dtype,
            shape,
            lod_level,
        });
    }
    Ok(Value::object(Object::DataFeeder(slots)))
}

/// `feeder.feed(minibatch)`: one numpy array per slot, keyed by name.
fn feed(_: &mut Host, a: &mut Args) -> Result<Value> {
    let Some(Value::Object(o)) = &a.recv else {
        return Err(Diagnostic::new(a.call.clone(), "feed() needs a DataFeeder"));
    };
    let Object::DataFeeder(slots) = o.as_ref() else {
        return Err(Diagnostic::new(a.call.clone(), "feed() needs a DataFeeder"));
    };
    let samples = a
        .get("iterable")
        .items()
        .ok_or_else(|| a.err("iterable", "feed() takes a list of samples (a minibatch)"))?;
    let mut columns: Vec<Vec<Value>> = vec![Vec::new(); slots.len()];
    for (i, sample) in samples.iter().enumerate() {
        let fields = sample.items().ok_or_else(|| {
            a.err(
                "iterable",
                format!(
                    "sample {i} of the minibatch is a {}, not a tuple of {} fields",
                    sample.type_name(),
                    slots.len()
                ),
            )
        })?;
        if fields.len() != slots.len() {
            return Err(a.err(
                "iterable",
                format!(
                    "AssertionError: The number of fields in data ({}) does not match len(feed_list) ({})",
                    fields.len(),
                    slots.len()
                ),
            ));
        }
        for (c, f) in columns.iter_mut().zip(fields) {
            c.push(f);
        }
    }
    let mut dict = crate::front::value::Dict::default();
    for (slot, column) in slots.iter().zip(columns) {
        // A LoD slot: its samples' sequences become rows, their lengths the LoD.
        let mut lod = vec![vec![0usize]; slot.lod_level];
        let column = if slot.lod_level > 0 {
            let mut rows = Vec::new();
            for v in column {
                flatten_sequence(&v, 0, &mut lod, &mut rows).ok_or_else(|| {
                    a.err(
                        "iterable",
                        format!(
                            "the values for `{}` must be sequences: it has lod_level {}",
                            slot.name, slot.lod_level
                        ),
                    )
                })?;
            }
            rows
        } else {
            column
        };
        let list = Value::list(column);
        let data = nested(&list).ok_or_else(|| {
            a.err(
                "iterable",
                format!("the values for `{}` are not numbers or arrays", slot.name),
            )
        })?;
        let mut arr = HostArray::from_nested(&data, Some(slot.dtype)).map_err(|e| {
            a.err(
                "iterable",
                format!("{}: {} (feeding `{}`)", e.kind.name(), e.message, slot.name),
            )
        })?;
        if let Some(shape) = &slot.shape {
            if arr.ndim() != shape.len() {
                arr = arr.reshape(shape).map_err(|_| {
                    let want: Vec<String> = shape.iter().map(i64::to_string).collect();
                    let got = Value::tuple(
                        arr.shape()
                            .iter()
                            .map(|d| Value::Int(*d as i64))
                            .collect(),
                    );
                    a.err(
                        "iterable",
                        format!(
                            "ValueError: Reshape error. What is defined in data layer is [{}], but receive {}",
                            want.join(", "),
                            Show(&got, true)
                        ),
                    )
                    .help(format!("the samples' `{}` field does not fit the variable's shape", slot.name))
                })?;
            }
        }
        let value = if slot.lod_level > 0 {
            super::program::host_tensor(Rc::new(arr), lod)
        } else {
            Value::Array(Rc::new(arr))
        };
        // Names are strings: always hashable.
        let _ = dict.insert(Value::str(&slot.name), value);
    }
    Ok(Value::Dict(Rc::new(std::cell::RefCell::new(dict))))
}

/// Appends the rows of sequence `v` at LoD level `level` to `rows`, and
/// its length (in units of the next level, or rows) to `lod[level]` as an
/// offset; `None` when `v` is not a sequence.
fn flatten_sequence(
    v: &Value,
    level: usize,
    lod: &mut [Vec<usize>],
    rows: &mut Vec<Value>,
) -> Option<()> {
    let items = v.items()?;
    let last = lod[level].last().copied().unwrap_or(0);
    lod[level].push(last + items.len());
    for it in items {
        if level + 1 < lod.len() {
            flatten_sequence(&it, level + 1, lod, rows)?;
        } else {
            rows.push(it);
        }
    }
    Some(())
}
