//! Shape and dtype inference, as Paddle's InferShape/InferVarType do it for
//! the ops fluidc knows. A dim of `-1` is unknown (the batch dim of a
//! `data` layer, or a shape only known when the program runs).
//!
//! Inference answers from the declared types of an op's inputs. It is
//! lenient where the answer is unknown: an input without a tensor type (a
//! feed holder, a channel, a step-scopes variable) or an unknown dim makes
//! the result unknown, never an error. Errors are what Paddle would refuse
//! whatever the data: operands of different dtypes, dims that cannot
//! broadcast, an inner matrix dim that differs.

use crate::model::{dtype_name, AttrValue, Op, VarKind};

use super::OpDef;

/// A tensor's element type and dims (`-1`: unknown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorType {
    pub dtype: VarKind,
    pub dims: Vec<i64>,
}

impl TensorType {
    pub fn new(dtype: VarKind, dims: Vec<i64>) -> TensorType {
        TensorType { dtype, dims }
    }

    fn with_dtype(&self, dtype: VarKind) -> TensorType {
        TensorType::new(dtype, self.dims.clone())
    }
}

/// Inference for one op: the types of its outputs, by output slot (every
/// argument of the slot gets the type, or, for a slot listed once per
/// argument, as `split`'s pieces, each its own: [`typed_outputs`]), or why
/// the inputs are inconsistent. Slots left out are unknown.
pub type InferFn = fn(&InferCtx) -> Result<Vec<(&'static str, TensorType)>, String>;

/// Pairs what inference gave with the output names it types: a slot
/// listed once types every argument of the slot; a slot listed once per
/// argument types them in order (ops whose outputs differ, as `split`).
pub fn typed_outputs<'o>(
    op: &'o Op,
    inferred: Vec<(&'static str, TensorType)>,
) -> Vec<(&'static str, &'o String, TensorType)> {
    let mut out = Vec::new();
    for (k, (slot, t)) in inferred.iter().enumerate() {
        let names = op.outputs_of(slot);
        let listed = inferred.iter().filter(|(s, _)| s == slot).count();
        if listed > 1 && listed == names.len() {
            let nth = inferred[..k].iter().filter(|(s, _)| s == slot).count();
            out.push((*slot, &names[nth], t.clone()));
        } else {
            out.extend(names.iter().map(|n| (*slot, n, t.clone())));
        }
    }
    out
}

/// What inference sees of an op: its attributes (with the definition's
/// defaults) and the declared types of its inputs.
#[derive(Debug)]
pub struct InferCtx<'a> {
    pub op: &'a Op,
    pub def: &'a OpDef,
    /// By canonical slot, in the op's order (a few: a list is faster to
    /// build and search than a map).
    inputs: Vec<(&'a str, Vec<Option<TensorType>>)>,
}

impl<'a> InferCtx<'a> {
    /// `types` gives the declared type of an input variable (`None`: not a
    /// tensor, or not known).
    pub fn new(op: &'a Op, def: &'a OpDef, types: impl Fn(&str) -> Option<TensorType>) -> Self {
        let inputs = op
            .inputs
            .iter()
            .map(|s| {
                let slot = def.canonical_slot(&s.parameter);
                (slot, s.arguments.iter().map(|n| types(n)).collect())
            })
            .collect();
        InferCtx { op, def, inputs }
    }

    /// The declared types of a slot's inputs (the last listing of a slot
    /// named twice).
    fn slot(&self, slot: &str) -> Option<&Vec<Option<TensorType>>> {
        self.inputs
            .iter()
            .rev()
            .find(|(s, _)| *s == slot)
            .map(|(_, t)| t)
    }

    /// The type of the (first) variable of input slot `slot`.
    pub fn input(&self, slot: &str) -> Option<&TensorType> {
        self.slot(slot)?.first()?.as_ref()
    }

    /// The types of every variable of input slot `slot` (`None` if any is unknown).
    pub fn inputs(&self, slot: &str) -> Option<Vec<&TensorType>> {
        self.slot(slot)?.iter().map(Option::as_ref).collect()
    }

    /// Whether input slot `slot` names a variable.
    pub fn has_input(&self, slot: &str) -> bool {
        self.slot(slot).is_some_and(|v| !v.is_empty())
    }

    /// An attribute as written, or the definition's default.
    pub fn attr(&self, name: &str) -> Option<&AttrValue> {
        self.op.get_attr(name).or_else(|| self.def.default(name))
    }

    pub fn int(&self, name: &str) -> Option<i64> {
        match self.attr(name)? {
            AttrValue::Int(v) => Some(i64::from(*v)),
            AttrValue::Long(v) => Some(*v),
            _ => None,
        }
    }

    pub fn string(&self, name: &str) -> Option<&str> {
        match self.attr(name)? {
            AttrValue::String(v) => Some(v),
            _ => None,
        }
    }

    /// A BOOLEAN, or the INT 1.x's saved models hold for one.
    pub fn bool(&self, name: &str) -> Option<bool> {
        match self.attr(name)? {
            AttrValue::Bool(v) => Some(*v),
            AttrValue::Int(v) => Some(*v != 0),
            _ => None,
        }
    }

    pub fn ints(&self, name: &str) -> Option<Vec<i64>> {
        match self.attr(name)? {
            AttrValue::Ints(v) => Some(v.iter().map(|x| i64::from(*x)).collect()),
            AttrValue::Longs(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// A dtype attribute (`VarType.Type` number).
    pub fn dtype(&self, name: &str) -> Option<VarKind> {
        VarKind::try_from(i32::try_from(self.int(name)?).ok()?).ok()
    }
}

/// What an op's shape inference gives: its outputs' types by slot.
pub type Out = Result<Vec<(&'static str, TensorType)>, String>;

/// Nothing is known (the result for ops whose outputs are not tensors).
pub fn unknown(_: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    Ok(Vec::new())
}

/// `Out` is `X` (activations, scale, assign, ...).
pub fn same_as_x(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    Ok(c.input("X")
        .map(|x| ("Out", x.clone()))
        .into_iter()
        .collect())
}

/// `X` and `Y` must share a dtype.
pub fn same_dtype(x: &TensorType, y: &TensorType) -> Result<(), String> {
    if x.dtype == y.dtype {
        Ok(())
    } else {
        Err(format!(
            "inputs X and Y have different dtypes ({} and {}); cast one of them first",
            dtype_name(x.dtype),
            dtype_name(y.dtype)
        ))
    }
}

/// The dims of an elementwise result: Paddle's broadcast with `axis` (the
/// position of the lower-rank operand's first dim in the other; -1 aligns
/// trailing dims, as numpy does).
pub fn broadcast(x: &[i64], y: &[i64], axis: i64) -> Result<Vec<i64>, String> {
    let (big, small) = if x.len() >= y.len() { (x, y) } else { (y, x) };
    let diff = big.len() - small.len();
    let start = if axis < 0 {
        diff
    } else {
        usize::try_from(axis).unwrap_or(usize::MAX)
    };
    if start > diff {
        return Err(format!(
            "axis {axis} is out of range for operands of rank {} and {}",
            x.len(),
            y.len()
        ));
    }
    let mut out = big.to_vec();
    for (i, &s) in small.iter().enumerate() {
        let b = big[start + i];
        out[start + i] = match (b, s) {
            (b, s) if b == s => b,
            (1, s) => s,
            (b, 1) => b,
            (-1, s) | (s, -1) => {
                if s > 1 {
                    s
                } else {
                    -1
                }
            }
            _ => {
                return Err(format!(
                    "dims {x:?} and {y:?} do not broadcast (axis {axis}): {b} against {s}"
                ))
            }
        };
    }
    Ok(out)
}

/// Binary elementwise ops: broadcast dims (1.x's where X's are unknown; X's
/// own where known dims do not broadcast), `Out` of `out_dtype` (the
/// operands' dtype when `None`); with `one_dtype`, X and Y must share one.
pub fn binary(
    c: &InferCtx,
    out_dtype: Option<VarKind>,
    one_dtype: bool,
) -> Result<Vec<(&'static str, TensorType)>, String> {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    if one_dtype {
        same_dtype(x, y)?;
    }
    let axis = c.int("axis").unwrap_or(-1);
    let in_range =
        axis < 0 || usize::try_from(axis).is_ok_and(|a| a <= x.dims.len().abs_diff(y.dims.len()));
    let mut dims = match broadcast(&x.dims, &y.dims, axis) {
        Ok(dims) => dims,
        // Paddle 1.x's InferShape only required rank(X) >= rank(Y) and gave
        // `Out` X's dims: known dims that do not broadcast were met by the
        // kernel at run time, where the fed values may fit (the 2019
        // transformer declares a bias for 8 heads and adds it to 2 heads).
        Err(_) if in_range && x.dims.len() >= y.dims.len() => x.dims.clone(),
        Err(e) => return Err(e),
    };
    // Paddle 1.x declared `Out` with X's dims (rank(X) >= rank(Y) was
    // required): an unknown dim of X stays unknown where 3.3.1 takes Y's
    // (x[-1, 1] + y[2, 1] is (-1, 1) in 1.x, (2, 1) in 3.3.1).
    if x.dims.len() == dims.len() {
        for (d, &xd) in dims.iter_mut().zip(&x.dims) {
            if xd == -1 {
                *d = -1;
            }
        }
    }
    Ok(vec![(
        "Out",
        TensorType::new(out_dtype.unwrap_or(x.dtype), dims),
    )])
}

/// `Out` has `X`'s dims and dtype `dtype`.
pub fn x_as(c: &InferCtx, dtype: VarKind) -> Vec<(&'static str, TensorType)> {
    c.input("X")
        .map(|x| ("Out", x.with_dtype(dtype)))
        .into_iter()
        .collect()
}

/// `Out` made from the `dtype` and `shape` attributes (fill ops), unless a
/// shape tensor input gives the shape at run time.
pub fn from_attrs(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    if c.has_input("ShapeTensor") || c.has_input("ShapeTensorList") {
        return Ok(Vec::new());
    }
    let (Some(dtype), Some(dims)) = (c.dtype("dtype"), c.ints("shape")) else {
        return Ok(Vec::new());
    };
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_follows_paddle() {
        assert_eq!(broadcast(&[2, 3, 4], &[4], -1), Ok(vec![2, 3, 4]));
        assert_eq!(broadcast(&[2, 3, 4], &[3], 1), Ok(vec![2, 3, 4]));
        assert_eq!(broadcast(&[-1, 3], &[1], -1), Ok(vec![-1, 3]));
        assert_eq!(broadcast(&[-1, 3], &[5, 1], -1), Ok(vec![5, 3]));
        assert_eq!(broadcast(&[1], &[2, 3], -1), Ok(vec![2, 3]));
        assert!(broadcast(&[2, 3], &[4], -1).is_err());
        assert!(broadcast(&[2, 3], &[3], 5).is_err());
    }
}
