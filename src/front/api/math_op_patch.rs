//! Operators on Variables (`x + 1`, `x * y`, `x < 3`, `-x`), built as
//! Paddle 1.8's `math_op_patch` builds them: `tmp_N` outputs, a `scale` for
//! a number where it can, a `fill_constant` tensor for other numbers.
use std::ops::Range;

use fluidc_transpiler::{Var, VarKind};
use rustpython_parser::ast::{CmpOp, Operator};

use super::layer::{broadcast_dims, dims, dtype_of, is_int};
use super::logic::compare_op;
use super::math::{elementwise, scale_op};
use super::pyfns::num;
use super::tensor::{cast_to, fill_constant_op};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

/// A `tmp_N` variable, as `math_op_patch` names its outputs.
fn patch_tmp(i: &mut Host, dtype: VarKind, d: Vec<i64>) -> VarRef {
    let name = i.b.unique("tmp");
    let mut var = Var::dense(name, dtype, d);
    var.stop_gradient = Some(false);
    i.b.declare(var)
}

/// A Python number as a constant tensor of `dtype` and `shape`
/// (`create_scalar` / `create_tensor`): a `tmp_N` filled by `fill_constant`.
fn scalar_tensor(i: &mut Host, v: f64, dtype: VarKind, shape: Vec<i64>) -> VarRef {
    let out = patch_tmp(i, dtype, shape.clone());
    fill_constant_op(i, &out, shape, dtype, v, false);
    out
}

fn elementwise_name(op: Operator) -> Option<&'static str> {
    Some(match op {
        Operator::Add => "elementwise_add",
        Operator::Sub => "elementwise_sub",
        Operator::Mult => "elementwise_mul",
        Operator::Div => "elementwise_div",
        Operator::FloorDiv => "elementwise_floordiv",
        Operator::Mod => "elementwise_mod",
        Operator::Pow => "elementwise_pow",
        _ => return None,
    })
}

/// Paddle 1.x's axis for a Variable-Variable op: 0 when `y` has a batch
/// dim first (`y.shape[0] == -1`), else -1.
fn patch_axis(i: &Host, y: &VarRef) -> i32 {
    if dims(i, y).first() == Some(&-1) {
        0
    } else {
        -1
    }
}

/// `x + y` and friends where a side is a Variable, as Paddle 1.8's
/// `math_op_patch` builds them: `+ - *` with a Python number become one
/// `scale` (and `/` too on floats; integer division stays a division); a
/// float number first casts an integer Variable to float32; other numbers
/// become a constant tensor; `x op y` is `elementwise_<op>` into `tmp_N`.
pub fn var_binary(
    i: &mut Host,
    op: Operator,
    l: Value,
    r: Value,
    sp: Range<usize>,
) -> Result<Value> {
    let Some(ty) = elementwise_name(op) else {
        return Err(
            Diagnostic::new(sp, "this operator is not defined on program variables")
                .help("use the layers.* function for it (e.g. layers.logical_and)"),
        );
    };
    let unsupported = |v: &Value| {
        Diagnostic::new(
            sp.clone(),
            format!("cannot combine a Variable with a {} here", v.type_name()),
        )
    };
    let (mut x, other, reverse) = match (&l, &r) {
        (Value::Var(x), Value::Var(_)) => (x.clone(), r.clone(), false),
        (Value::Var(x), other) => (x.clone(), other.clone(), false),
        (other, Value::Var(y)) => (y.clone(), other.clone(), true),
        _ => unreachable!("var_binary is called when one side is a Variable"),
    };
    // Paddle 1.8 defines `__rpow__` but no reflected `//` or `%`.
    if reverse && matches!(op, Operator::FloorDiv | Operator::Mod) {
        return Err(Diagnostic::new(
            sp,
            format!(
                "a number {} a Variable is not defined in Paddle",
                if op == Operator::FloorDiv { "//" } else { "%" }
            ),
        )
        .help("make the number a Variable with layers.fill_constant first"));
    }
    let out = match other {
        Value::Var(y) => {
            let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
            let out = patch_tmp(i, dtype_of(i, &x), d);
            let axis = patch_axis(i, &y);
            elementwise(i, ty, &x, &y, axis, Some(out))
        }
        ref s => {
            let n = num(s).ok_or_else(|| unsupported(s))?;
            if matches!(s, Value::Float(_)) && is_int(dtype_of(i, &x)) {
                x = cast_to(i, &x, VarKind::Fp32);
            }
            let dtype = dtype_of(i, &x);
            let scaled = match (op, reverse) {
                (Operator::Add, _) => Some((1.0, n)),
                (Operator::Sub, false) => Some((1.0, -n)),
                (Operator::Sub, true) => Some((-1.0, n)),
                (Operator::Mult, _) => Some((n, 0.0)),
                (Operator::Div, false) if !is_int(dtype) && n != 0.0 => Some((1.0 / n, 0.0)),
                _ => None,
            };
            match scaled {
                Some((scale, bias)) => {
                    let out = patch_tmp(i, dtype, dims(i, &x));
                    scale_op(i, &x, &out, scale, bias, true);
                    out
                }
                None => {
                    let xd = dims(i, &x);
                    // A reflected constant takes the Variable's shape (when it
                    // has no batch dim), a direct one shape [1].
                    let shape = if reverse && xd.iter().all(|d| *d >= 0) {
                        xd.clone()
                    } else {
                        vec![1]
                    };
                    let c = scalar_tensor(i, n, dtype, shape);
                    let out = patch_tmp(i, dtype, xd);
                    let (a, b) = if reverse { (c, x) } else { (x, c) };
                    let axis = patch_axis(i, &b);
                    elementwise(i, ty, &a, &b, axis, Some(out))
                }
            }
        }
    };
    Ok(Value::Var(out))
}

/// `-x` on a Variable: `scale` by -1.
pub fn negate(i: &mut Host, x: VarRef) -> Result<Value> {
    let out = patch_tmp(i, dtype_of(i, &x), dims(i, &x));
    scale_op(i, &x, &out, -1.0, 0.0, true);
    Ok(Value::Var(out))
}

/// `x < y` and friends where a side is a Variable. A number becomes a
/// constant tensor; with the number on the left Python calls the mirrored
/// method on the Variable (`3 > x` is `x.__lt__(3)`), and so does Paddle.
pub fn var_compare(i: &mut Host, op: CmpOp, l: Value, r: Value, sp: Range<usize>) -> Result<Value> {
    let (op, l, r) = match (&l, &r) {
        (Value::Var(_), _) => (op, l, r),
        _ => {
            let mirrored = match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::LtE => CmpOp::GtE,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::GtE => CmpOp::LtE,
                other => other,
            };
            (mirrored, r, l)
        }
    };
    let ty = match op {
        CmpOp::Lt => "less_than",
        CmpOp::LtE => "less_equal",
        CmpOp::Gt => "greater_than",
        CmpOp::GtE => "greater_equal",
        CmpOp::Eq => "equal",
        CmpOp::NotEq => "not_equal",
        CmpOp::Is | CmpOp::IsNot => {
            let same = matches!((&l, &r), (Value::Var(a), Value::Var(b)) if a == b);
            return Ok(Value::Bool(same == (op == CmpOp::Is)));
        }
        CmpOp::In | CmpOp::NotIn => {
            return Err(Diagnostic::new(
                sp,
                "`in` is not defined on program variables",
            ))
        }
    };
    let Value::Var(x) = l else {
        unreachable!("var_compare is called when one side is a Variable")
    };
    let y = match r {
        Value::Var(y) => y,
        other => {
            let n = num(&other).ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    format!("cannot compare a Variable with a {}", other.type_name()),
                )
            })?;
            scalar_tensor(i, n, dtype_of(i, &x), vec![1])
        }
    };
    let out = patch_tmp(i, VarKind::Bool, broadcast_dims(&dims(i, &x), &dims(i, &y)));
    Ok(Value::Var(compare_op(i, ty, &x, &y, out)))
}
