//! One line per op in the style of Paddle's `Program.__str__`
//! (`{Out=['x']} = fill_constant(inputs={}, dtype = 2, shape = [1], value = 0.0)`),
//! with each sub-block printed, indented, under the op that runs it.
use std::fmt::Write as _;

use crate::model::{dtype_name, AttrValue, Op, Program, Var, VarKind};

/// Prints the whole program, or only block `only` and the blocks nested in it.
pub fn to_pretty(program: &Program, only: Option<usize>) -> String {
    let mut out = String::new();
    let mut printed = vec![false; program.blocks.len()];
    match only {
        Some(b) => print_block(program, b, 0, &mut printed, &mut out),
        None => {
            for b in 0..program.blocks.len() {
                // Blocks no op runs (orphans) still print, at the top level.
                if !printed[b] {
                    print_block(program, b, 0, &mut printed, &mut out);
                }
            }
        }
    }
    out
}

/// The program as Paddle's `Program.__str__` prints it (`print(program)`
/// in a script): every block in index order under a `block_idx` header,
/// its variables, a blank line, its ops, with no nesting.
pub fn paddle_program_text(program: &Program) -> String {
    let mut out = String::new();
    for block in &program.blocks {
        let _ = writeln!(
            out,
            "{{ // block_idx:{}  parent_idx:{}  forward_idx:{}  backward_idx:-1",
            block.idx,
            block.parent_idx,
            block.forward_block_idx.unwrap_or(-1)
        );
        for v in &block.vars {
            // Paddle closes a non-tensor variable's line with a stray ')'.
            let close = if v.tensor_desc().is_none() && v.ty.channel.is_none() {
                ")"
            } else {
                ""
            };
            let _ = writeln!(out, "    {}{close}", var_line(v));
        }
        out.push('\n');
        for op in &block.ops {
            let _ = writeln!(out, "    {}", op_line(op));
        }
        out.push_str("}\n");
    }
    out
}

/// Indentation stops growing at this depth, so that deeply nested programs
/// print in linear size (each block's header still names it and its parent).
const MAX_INDENT: usize = 32;

/// Prints block `idx` and, under each op, the blocks it runs. Iterative, so
/// that nesting depth is bounded by memory, not by the thread's stack.
fn print_block(p: &Program, idx: usize, depth: usize, printed: &mut [bool], out: &mut String) {
    /// A block being printed: the next op to print and that op's next sub-block.
    struct Frame {
        idx: usize,
        depth: usize,
        op: usize,
        sub: usize,
    }
    let pad = |depth: usize| "    ".repeat(depth.min(MAX_INDENT));
    let mut stack: Vec<Frame> = Vec::new();
    let mut enter = |idx: usize, depth: usize, stack: &mut Vec<Frame>, out: &mut String| {
        let Some(block) = p.blocks.get(idx) else {
            return;
        };
        if std::mem::replace(&mut printed[idx], true) {
            return;
        }
        let pad = pad(depth);
        let _ = writeln!(
            out,
            "{pad}{{ // block {}, parent {}",
            block.idx, block.parent_idx
        );
        for v in &block.vars {
            let _ = writeln!(out, "{pad}    {}", var_line(v));
        }
        if !block.vars.is_empty() && !block.ops.is_empty() {
            out.push('\n');
        }
        stack.push(Frame {
            idx,
            depth,
            op: 0,
            sub: 0,
        });
    };
    enter(idx, depth, &mut stack, out);
    while let Some(top) = stack.last_mut() {
        let block = &p.blocks[top.idx];
        let Some(op) = block.ops.get(top.op) else {
            let _ = writeln!(out, "{}}}", pad(top.depth));
            stack.pop();
            continue;
        };
        if top.sub == 0 {
            let _ = writeln!(out, "{}    {}", pad(top.depth), op_line(op));
        }
        match op.sub_blocks().nth(top.sub) {
            Some((_, sub)) => {
                top.sub += 1;
                let depth = top.depth + 1;
                if let Ok(sub) = usize::try_from(sub) {
                    enter(sub, depth, &mut stack, out);
                }
            }
            None => {
                top.op += 1;
                top.sub = 0;
            }
        }
    }
}

fn kind_name(n: i32) -> String {
    VarKind::try_from(n)
        .map(|k| k.as_str_name().to_string())
        .unwrap_or_else(|_| format!("TYPE_{n}"))
}

/// One variable as Paddle 3.3.1 prints it (`print(var)`, a line of
/// `print(program)`): `var x : DENSE_TENSOR.shape(-1, 13).dtype(float32).stop_gradient(True)`.
pub fn var_line(v: &Var) -> String {
    let mut s = String::new();
    if v.is_persistable() {
        s.push_str("persist ");
    }
    s.push_str(if v.is_parameter.unwrap_or(false) {
        "param "
    } else {
        "var "
    });
    let _ = write!(s, "{} : {}", v.name, kind_name(v.ty.r#type));
    if let Some(t) = v.tensor_desc() {
        let dims: Vec<String> = t.dims.iter().map(i64::to_string).collect();
        let tuple = if dims.len() == 1 {
            format!("({},)", dims[0])
        } else {
            format!("({})", dims.join(", "))
        };
        let dtype = VarKind::try_from(t.data_type)
            .map(|k| dtype_name(k).to_string())
            .unwrap_or_else(|_| t.data_type.to_string());
        let _ = write!(
            s,
            ".shape{tuple}.dtype({dtype}).stop_gradient({})",
            py_bool(v.stop_gradient.unwrap_or(false))
        );
    }
    if let Some(c) = &v.ty.channel {
        let _ = write!(
            s,
            ".data_type({}).capacity({})",
            kind_name(c.data_type),
            c.capacity
        );
    }
    s
}

/// Slots sorted by name, as Paddle prints them (its op desc keeps them in
/// a sorted map).
fn slots(slots: &[crate::model::Slot]) -> String {
    let mut sorted: Vec<&crate::model::Slot> = slots.iter().collect();
    sorted.sort_by(|a, b| a.parameter.cmp(&b.parameter));
    let parts: Vec<String> = sorted
        .iter()
        .map(|s| format!("{}={}", s.parameter, py_str_list(&s.arguments)))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

/// One op as Paddle's `Operator._to_readable_code` prints it: attributes
/// sorted by name, block attributes as `block[N]`, and no `op_callstack`
/// (Paddle skips it by default too; `dump --format text` shows it).
pub fn op_line(op: &Op) -> String {
    let mut attrs: Vec<_> = op
        .attrs
        .iter()
        .filter(|a| a.name != "op_callstack")
        .collect();
    attrs.sort_by(|a, b| a.name.cmp(b.name));
    let mut s = format!(
        "{} = {}(inputs={}",
        slots(&op.outputs),
        op.ty,
        slots(&op.inputs)
    );
    for a in attrs {
        let _ = write!(s, ", {} = {}", a.name, attr_text(&a.value));
    }
    s.push(')');
    s
}

pub(crate) fn attr_text(v: &AttrValue) -> String {
    fn list<T>(items: &[T], f: impl Fn(&T) -> String) -> String {
        format!("[{}]", items.iter().map(f).collect::<Vec<_>>().join(", "))
    }
    match v {
        AttrValue::Int(i) => i.to_string(),
        AttrValue::Long(i) => i.to_string(),
        AttrValue::Float(f) => py_float(f64::from(*f), &format!("{f:?}")),
        AttrValue::Float64(f) => py_float(*f, &format!("{f:?}")),
        AttrValue::String(s) | AttrValue::Var(s) => s.clone(),
        AttrValue::Bool(b) => py_bool(*b).into(),
        AttrValue::Ints(v) => list(v, i32::to_string),
        AttrValue::Longs(v) => list(v, i64::to_string),
        AttrValue::Floats(v) => list(v, |f| py_float(f64::from(*f), &format!("{f:?}"))),
        AttrValue::Float64s(v) => list(v, |f| py_float(*f, &format!("{f:?}"))),
        AttrValue::Strings(v) | AttrValue::Vars(v) => py_str_list(v),
        AttrValue::Bools(v) => list(v, |b| py_bool(*b).to_string()),
        AttrValue::Block(b) => format!("block[{b}]"),
        AttrValue::Blocks(v) => format!("blocks{}", list(v, i32::to_string)),
        AttrValue::Scalar(s) => scalar_text(s),
        AttrValue::Scalars(v) => list(v, scalar_text),
        AttrValue::Raw(a) => format!("<attr type {}>", a.r#type),
    }
}

fn scalar_text(s: &crate::proto::Scalar) -> String {
    match (s.b, s.i, s.r, s.c) {
        (Some(b), ..) => py_bool(b).into(),
        (_, Some(i), ..) => i.to_string(),
        (_, _, Some(r), _) => py_float(r, &format!("{r:?}")),
        (_, _, _, Some(c)) => format!("({}+{}j)", c.r, c.i),
        _ => "None".into(),
    }
}

fn py_bool(b: bool) -> &'static str {
    if b {
        "True"
    } else {
        "False"
    }
}

/// Python's float repr from Rust's shortest `{:?}` text: `1e-05`, `1e+16`.
fn py_float(v: f64, debug: &str) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    match debug.split_once('e') {
        Some((m, e)) => {
            let (sign, digits) = e.strip_prefix('-').map(|d| ('-', d)).unwrap_or(('+', e));
            format!("{}e{sign}{digits:0>2}", m.trim_end_matches(".0"))
        }
        None => debug.to_string(),
    }
}

fn py_str_list(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|s| format!("'{}'", s.replace('\\', "\\\\").replace('\'', "\\'")))
        .collect();
    format!("[{}]", quoted.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_line_matches_paddle_style() {
        let op = Op::new("fill_constant")
            .output("Out", &["x"])
            .attr("value", AttrValue::Float(0.0))
            .attr("shape", AttrValue::Longs(vec![1]))
            .attr("dtype", AttrValue::Int(2));
        assert_eq!(
            op_line(&op),
            "{Out=['x']} = fill_constant(inputs={}, dtype = 2, shape = [1], value = 0.0)"
        );
        let op = Op::new("while")
            .input("Condition", &["c"])
            .attr("sub_block", AttrValue::Block(1));
        assert_eq!(
            op_line(&op),
            "{} = while(inputs={Condition=['c']}, sub_block = block[1])"
        );
        assert_eq!(attr_text(&AttrValue::Float(1e-5)), "1e-05");
    }
}
