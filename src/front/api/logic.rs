//! Comparison and logical layers (`less_than`, ..., `logical_and`, ...),
//! which write bool Variables. The comparisons take Paddle's `**ignored`
//! keywords. `Switch` and `cond` build their conditions with
//! [`logical_not`] and [`logical_and`].
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{broadcast_dims, dims};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

/// Declares a comparison layer `fluid.layers.<name>(x, y, force_cpu=None,
/// cond=None, name=None, **ignored)`, writing into `cond` when given.
macro_rules! compare_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [
                ("x", Req),
                ("y", Req),
                ("force_cpu", Nil),
                ("cond", Nil),
                ("name", Nil)
            ],
            Rest::IgnoreKwargs,
            |i, a| {
                let (x, y) = (a.var("x")?, a.var("y")?);
                let helper = i.b.helper_name($name);
                let out = match a.opt_var("cond")? {
                    Some(c) => c,
                    None => {
                        let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
                        let v = i.b.tmp_var(&helper, VarKind::Bool, d);
                        i.b.var_mut(&v).stop_gradient = Some(true);
                        v
                    }
                };
                Ok(Value::Var(compare_op(i, $name, &x, &y, out)))
            }
        )
    };
}

pub const BUILTINS: &[Builtin] = &[
    compare_layer!("less_than"),
    compare_layer!("less_equal"),
    compare_layer!("greater_than"),
    compare_layer!("greater_equal"),
    compare_layer!("equal"),
    compare_layer!("not_equal"),
    builtin!(
        ["fluid.layers.logical_and"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_and")
    ),
    builtin!(
        ["fluid.layers.logical_or"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_or")
    ),
    builtin!(
        ["fluid.layers.logical_xor"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_xor")
    ),
    builtin!(
        ["fluid.layers.logical_not"],
        [("x", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            Ok(Value::Var(logical_not(i, &x, a.opt_var("out")?)))
        }
    ),
];

/// Appends a compare op (Paddle 3 attrs `axis`, `force_cpu`) into `out`.
pub fn compare_op(i: &mut Host, ty: &str, x: &VarRef, y: &VarRef, out: VarRef) -> VarRef {
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name])
            .attr("axis", AttrValue::Int(-1))
            .attr("force_cpu", AttrValue::Bool(false)),
    );
    out
}

fn logical(i: &mut Host, a: &Args, ty: &str) -> Result<Value> {
    let (x, y) = (a.var("x")?, a.var("y")?);
    let helper = i.b.helper_name(ty);
    let out = match a.opt_var("out")? {
        Some(o) => o,
        None => i.b.tmp_var(&helper, VarKind::Bool, dims(i, &x)),
    };
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name]),
    );
    Ok(Value::Var(out))
}

pub fn logical_not(i: &mut Host, x: &VarRef, out: Option<VarRef>) -> VarRef {
    let helper = i.b.helper_name("logical_not");
    let out = out.unwrap_or_else(|| i.b.tmp_var(&helper, VarKind::Bool, dims(i, x)));
    i.b.append(
        Op::new("logical_not")
            .input("X", &[&x.name])
            .output("Out", &[&out.name]),
    );
    out
}

pub fn logical_and(i: &mut Host, x: &VarRef, y: &VarRef) -> VarRef {
    let helper = i.b.helper_name("logical_and");
    let out = i.b.tmp_var(&helper, VarKind::Bool, dims(i, x));
    i.b.append(
        Op::new("logical_and")
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name]),
    );
    out
}
