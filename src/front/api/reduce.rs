//! Reductions over a tensor's elements: `mean` and `reduce_sum`/`_mean`/`_max`/`_min`/`_prod`/`_all`/`_any`.
use fluidc_transpiler::{AttrValue, Op};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::conv::append_inferred;
use super::layer::{dims, dtype_of};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::Value;

use D::*;

/// Declares `fluid.layers.<name>(input, dim=None, keep_dim=False,
/// name=None)`, appending the op of that name.
macro_rules! reduce_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [
                ("input", Req),
                ("dim", Nil),
                ("keep_dim", Bool(false)),
                ("name", Nil)
            ],
            Rest::No,
            |i, a| reduce(i, a, $name)
        )
    };
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.mean", "paddle.mean"],
        [("x", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let helper = i.b.helper_name("mean");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("mean")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
    ),
    reduce_layer!("reduce_sum"),
    reduce_layer!("reduce_mean"),
    reduce_layer!("reduce_max"),
    reduce_layer!("reduce_min"),
    reduce_layer!("reduce_prod"),
    reduce_layer!("reduce_all"),
    reduce_layer!("reduce_any"),
];

/// `reduce_sum`/`_mean`/`_max`/`_min`/`_prod`/`_all`/`_any` (op `ty`):
/// the output declared as the definition infers it.
fn reduce(i: &mut Host, a: &mut Args, ty: &str) -> Result<Value> {
    let x = a.var("input")?;
    let rank = dims(i, &x).len();
    let dim = if a.is_none("dim") {
        Vec::new()
    } else {
        a.ints("dim")?
    };
    let reduce_all = dim.is_empty() || dim.len() == rank;
    let keep = a.bool("keep_dim")?;
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
    append_inferred(
        i,
        Op::new(ty)
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr(
                "dim",
                AttrValue::Ints(if dim.is_empty() {
                    vec![0]
                } else {
                    dim.iter().map(|d| *d as i32).collect()
                }),
            )
            .attr("keep_dim", AttrValue::Bool(keep))
            .attr("reduce_all", AttrValue::Bool(reduce_all)),
        a,
    )?;
    Ok(Value::Var(out))
}
