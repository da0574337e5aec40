//! `a[index]` and `a[index] = value`: numpy's basic and advanced indexing.
//!
//! Integers (negative from the end), slices with any step, `None`, `...`,
//! and boolean and integer arrays. With any array in the index, integers
//! count as (0-d) arrays too; the arrays broadcast together, and their
//! dimensions replace the indexed ones where they stand when they are
//! adjacent in the index, or come first when something separates them,
//! as numpy places them. The result is always a new array.
use ndarray::{ArrayD, IxDyn};

use super::array::from_shape_vec;
use super::combine::nonzero;
use super::dtype::{DType, Elem};
use super::error::{HostError, Result};
use super::ops::broadcast_shapes;
use super::HostArray;

/// One item of an index tuple.
#[derive(Debug, Clone, PartialEq)]
pub enum Index {
    Int(i64),
    /// `start:stop:step`, each optional as in Python.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    /// `None` / `np.newaxis`.
    NewAxis,
    /// `...`.
    Ellipsis,
    /// A boolean or integer array (a list in the index is an array).
    Array(HostArray),
}

impl Index {
    /// Whether numpy gives a scalar rather than a 0-d array for this index
    /// when the result has no dimensions: it does unless the index holds
    /// `...`.
    pub fn yields_scalar(index: &[Index]) -> bool {
        !index.iter().any(|i| matches!(i, Index::Ellipsis))
    }
}

/// Python's `slice.indices(n)` and the positions it selects.
pub(super) fn slice_positions(
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
    n: usize,
) -> Result<Vec<usize>> {
    let step = step.unwrap_or(1);
    if step == 0 {
        return Err(HostError::value_error("slice step cannot be zero"));
    }
    let n = n as i64;
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let clamp = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(v) if v < 0 => v.saturating_add(n).max(lower),
        Some(v) => v.min(upper),
    };
    let start = clamp(start, if step < 0 { upper } else { lower });
    let stop = clamp(stop, if step < 0 { lower } else { upper });
    let mut out = Vec::new();
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i = match i.checked_add(step) {
            Some(next) => next,
            None => break,
        };
    }
    Ok(out)
}

/// A position `i` on an axis of `n`, or numpy's error.
pub(super) fn position(i: i64, axis: usize, n: usize) -> Result<usize> {
    let len = n as i64;
    let j = if i < 0 { i + len } else { i };
    if (0..len).contains(&j) {
        Ok(j as usize)
    } else {
        Err(HostError::index_error(format!(
            "index {i} is out of bounds for axis {axis} with size {n}"
        )))
    }
}

/// What one output dimension reads.
enum Role {
    /// Positions along an input axis (a slice).
    Basic(usize, Vec<usize>),
    /// A `None`: length 1, reads nothing.
    New,
    /// Dimension `k` of the broadcast advanced indices.
    Advanced(usize),
}

/// An advanced index: an input axis and the positions (broadcast to the
/// common shape, row-major) it reads.
struct Advanced {
    axis: usize,
    positions: Vec<usize>,
}

/// The index items after `...` and booleans are expanded: each consumes
/// the input axis it names.
enum Item {
    Int(i64),
    Slice(Vec<usize>),
    New,
    Array(ArrayD<i64>),
}

fn expand(shape: &[usize], index: &[Index]) -> Result<Vec<(usize, Item)>> {
    let ndim = shape.len();
    let ellipses = index
        .iter()
        .filter(|i| matches!(i, Index::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(HostError::index_error(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    let consumed: usize = index
        .iter()
        .map(|i| match i {
            Index::Int(_) | Index::Slice(..) => 1,
            Index::Array(a) if a.dtype() == DType::Bool => a.ndim(),
            Index::Array(_) => 1,
            Index::NewAxis | Index::Ellipsis => 0,
        })
        .sum();
    if consumed > ndim {
        return Err(HostError::index_error(format!(
            "too many indices for array: array is {ndim}-dimensional, but {consumed} were indexed"
        )));
    }
    let mut items = Vec::new();
    let mut axis = 0;
    let full = |axis: usize| slice_positions(None, None, None, shape[axis]).map(Item::Slice);
    for i in index {
        match i {
            Index::Ellipsis => {
                for _ in 0..ndim - consumed {
                    items.push((axis, full(axis)?));
                    axis += 1;
                }
            }
            Index::NewAxis => items.push((axis, Item::New)),
            Index::Int(k) => {
                items.push((axis, Item::Int(*k)));
                axis += 1;
            }
            Index::Slice(a, b, c) => {
                items.push((axis, Item::Slice(slice_positions(*a, *b, *c, shape[axis])?)));
                axis += 1;
            }
            Index::Array(a) if a.dtype() == DType::Bool => {
                if a.ndim() == 0 {
                    return Err(HostError::unsupported(
                        "a boolean scalar as an index is not supported",
                    ));
                }
                for (k, (&want, &got)) in shape[axis..].iter().zip(a.shape()).enumerate() {
                    if want != got {
                        return Err(HostError::index_error(format!(
                            "boolean index did not match indexed array along axis {}; size of axis is {want} but size of corresponding boolean axis is {got}",
                            axis + k
                        )));
                    }
                }
                for column in nonzero(a) {
                    items.push((axis, Item::Array(column.view::<i64>().into_owned())));
                    axis += 1;
                }
            }
            Index::Array(a) if a.dtype().is_float() && a.size() > 0 => {
                return Err(HostError::index_error(
                    "arrays used as indices must be of integer (or boolean) type",
                ));
            }
            Index::Array(a) => {
                items.push((axis, Item::Array(a.view::<i64>().into_owned())));
                axis += 1;
            }
        }
    }
    while axis < ndim {
        items.push((axis, full(axis)?));
        axis += 1;
    }
    Ok(items)
}

/// The output layout: its shape, what each dimension reads, the fixed
/// positions of integer-indexed axes and the advanced indices.
struct Plan {
    shape: Vec<usize>,
    roles: Vec<Role>,
    fixed: Vec<(usize, usize)>,
    advanced: Vec<Advanced>,
}

fn plan(shape: &[usize], index: &[Index]) -> Result<Plan> {
    let items = expand(shape, index)?;
    let any_array = items.iter().any(|(_, it)| matches!(it, Item::Array(_)));
    let mut p = Plan {
        shape: Vec::new(),
        roles: Vec::new(),
        fixed: Vec::new(),
        advanced: Vec::new(),
    };
    // With arrays present, integers are advanced indices too.
    let is_advanced =
        |it: &Item| matches!(it, Item::Array(_)) || (any_array && matches!(it, Item::Int(_)));
    let advanced_at: Vec<usize> = (0..items.len())
        .filter(|&k| is_advanced(&items[k].1))
        .collect();
    let adjacent = advanced_at.windows(2).all(|w| w[1] == w[0] + 1);
    let mut arrays: Vec<(usize, ArrayD<i64>)> = Vec::new();
    for (axis, it) in &items {
        match it {
            Item::Int(k) if any_array => arrays.push((*axis, ArrayD::from_elem(IxDyn(&[]), *k))),
            Item::Int(k) => p.fixed.push((*axis, position(*k, *axis, shape[*axis])?)),
            Item::Array(a) => arrays.push((*axis, a.clone())),
            _ => {}
        }
    }
    let shapes: Vec<&[usize]> = arrays.iter().map(|(_, a)| a.shape()).collect();
    let block = broadcast_shapes(&shapes).map_err(|e| {
        HostError::index_error(e.message.replacen(
            "operands could not be broadcast together",
            "shape mismatch: indexing arrays could not be broadcast together",
            1,
        ))
    })?;
    // numpy checks every index once the arrays broadcast, before broadcasting them (an empty broadcast
    // still rejects an index out of bounds).
    for (axis, a) in &arrays {
        for &i in a.iter() {
            position(i, *axis, shape[*axis])?;
        }
    }
    for (axis, a) in &arrays {
        let view = a.broadcast(IxDyn(&block)).ok_or_else(|| {
            HostError::index_error(
                "shape mismatch: indexing arrays could not be broadcast together",
            )
        })?;
        let positions = view
            .iter()
            .map(|&i| position(i, *axis, shape[*axis]))
            .collect::<Result<Vec<usize>>>()?;
        p.advanced.push(Advanced {
            axis: *axis,
            positions,
        });
    }
    let push_block = |p: &mut Plan| {
        for (k, &d) in block.iter().enumerate() {
            p.shape.push(d);
            p.roles.push(Role::Advanced(k));
        }
    };
    if any_array && !adjacent {
        push_block(&mut p);
    }
    for (k, (axis, it)) in items.into_iter().enumerate() {
        match it {
            Item::Slice(positions) => {
                p.shape.push(positions.len());
                p.roles.push(Role::Basic(axis, positions));
            }
            Item::New => {
                p.shape.push(1);
                p.roles.push(Role::New);
            }
            _ if adjacent && advanced_at.first() == Some(&k) => push_block(&mut p),
            _ => {}
        }
    }
    Ok(p)
}

/// Calls `f` with the input position each output position reads, in
/// row-major output order.
fn for_each_source(ndim: usize, p: &Plan, mut f: impl FnMut(&[usize]) -> Result<()>) -> Result<()> {
    if p.shape.iter().product::<usize>() == 0 {
        return Ok(());
    }
    let block: Vec<usize> = p
        .roles
        .iter()
        .zip(&p.shape)
        .filter(|(r, _)| matches!(r, Role::Advanced(_)))
        .map(|(_, &d)| d)
        .collect();
    let mut src = vec![0usize; ndim];
    for &(axis, i) in &p.fixed {
        src[axis] = i;
    }
    let mut at = vec![0usize; p.shape.len()];
    loop {
        let mut flat = 0;
        for (role, &i) in p.roles.iter().zip(&at) {
            match role {
                Role::Basic(axis, positions) => src[*axis] = positions[i],
                Role::Advanced(k) => flat = flat * block[*k] + i,
                Role::New => {}
            }
        }
        for adv in &p.advanced {
            src[adv.axis] = adv.positions[flat];
        }
        f(&src)?;
        // The next output position, row-major.
        let mut d = at.len();
        loop {
            if d == 0 {
                return Ok(());
            }
            d -= 1;
            at[d] += 1;
            if at[d] < p.shape[d] {
                break;
            }
            at[d] = 0;
        }
    }
}

fn gather<T: Elem>(a: &ArrayD<T>, p: &Plan) -> Result<ArrayD<T>> {
    let mut out = Vec::with_capacity(p.shape.iter().product());
    for_each_source(a.ndim(), p, |src| {
        let x = a
            .get(IxDyn(src))
            .ok_or_else(|| HostError::index_error("index out of bounds"))?;
        out.push(*x);
        Ok(())
    })?;
    from_shape_vec(&p.shape, out)
}

/// Writes `value` (broadcast to the indexed shape) where `p` reads. As
/// numpy, a value's leading dims of 1 are dropped when they do not fit
/// (`a[0:2] = b[None]`); numpy 1.x (2018-19's) did that for one element
/// too (`a[i] = np.array([5.0])`, which numpy 2 refuses).
fn scatter<T: Elem>(a: &mut ArrayD<T>, p: &Plan, value: &ArrayD<T>) -> Result<()> {
    let unit = value
        .shape()
        .iter()
        .take(value.ndim().saturating_sub(p.shape.len()))
        .take_while(|&&d| d == 1)
        .count();
    let trimmed = value
        .view()
        .into_shape_with_order(IxDyn(&value.shape()[unit..]));
    let v = value
        .broadcast(IxDyn(&p.shape))
        .or_else(|| {
            trimmed
                .as_ref()
                .ok()
                .and_then(|t| t.broadcast(IxDyn(&p.shape)))
        })
        .ok_or_else(|| {
            HostError::value_error(format!(
                "could not broadcast input array from shape {} into shape {}",
                super::array::error_shape(value.shape()),
                super::array::error_shape(&p.shape)
            ))
        })?;
    let mut values = v.iter();
    for_each_source(a.ndim(), p, |src| {
        let (Some(slot), Some(x)) = (a.get_mut(IxDyn(src)), values.next()) else {
            return Err(HostError::index_error("index out of bounds"));
        };
        *slot = *x;
        Ok(())
    })
}

impl HostArray {
    /// `a[index]` (a tuple's items in order). A 0-d result is a numpy
    /// scalar in numpy when [`Index::yields_scalar`].
    pub fn index(&self, index: &[Index]) -> Result<HostArray> {
        let p = plan(self.shape(), index)?;
        Ok(each!(self, a => Elem::wrap(gather(a, &p)?)))
    }

    /// `a[index] = value`: `value` is cast to the array's dtype (as
    /// numpy's assignment casts) and broadcast to the indexed shape.
    pub fn assign_index(&mut self, index: &[Index], value: &HostArray) -> Result<()> {
        let p = plan(self.shape(), index)?;
        each!(self, a => scatter(a, &p, &value.view()))
    }
}
