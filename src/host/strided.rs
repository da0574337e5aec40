//! Where a numpy view's elements sit in its base: an offset and per-axis
//! strides over the base's elements in row-major order ([`Strided`]).
//!
//! numpy's basic indexing, `reshape` and `ravel` give views that alias
//! their base (`crate::numpy::PyHostArray` holds one). A view of a view is
//! described over the first base, as numpy's is, so that reading a row of
//! a reshaped array costs the row, not the array. The base's row-major
//! order does not change when its shape does (`a.shape = ...`), so a view
//! stays right then too, as numpy's does.
use std::borrow::Cow;

use ndarray::{ArrayD, IxDyn};

use super::dtype::Elem;
use super::index::{position, slice_positions, Index};
use super::HostArray;

/// A view's layout: element `(i0, i1, ...)` is the base's row-major
/// element `offset + i0*strides[0] + i1*strides[1] + ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Strided {
    pub offset: usize,
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
}

/// Row-major strides of `shape`, in elements.
fn row_major(shape: &[usize]) -> Vec<isize> {
    let mut strides = vec![1isize; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1] as isize;
    }
    strides
}

impl Strided {
    /// All of an array of `shape`.
    pub fn whole(shape: &[usize]) -> Strided {
        Strided {
            offset: 0,
            shape: shape.to_vec(),
            strides: row_major(shape),
        }
    }

    pub fn size(&self) -> usize {
        self.shape.iter().product()
    }

    /// Whether the elements are consecutive in row-major order (axes of
    /// length 1 may have any stride).
    pub fn is_contiguous(&self) -> bool {
        let want = row_major(&self.shape);
        self.shape
            .iter()
            .zip(self.strides.iter().zip(&want))
            .all(|(&n, (s, w))| n <= 1 || s == w)
    }

    /// The layout of `view[index]` for basic items (integers, slices,
    /// `None`, `...`); None for an array in the index or an index the
    /// view does not take (the copying path reports numpy's error).
    pub fn index(&self, index: &[Index]) -> Option<Strided> {
        let ndim = self.shape.len();
        let consumed = index
            .iter()
            .filter(|i| matches!(i, Index::Int(_) | Index::Slice(..)))
            .count();
        if consumed > ndim || index.iter().any(|i| matches!(i, Index::Array(_))) {
            return None;
        }
        let mut out = Strided {
            offset: self.offset,
            shape: Vec::new(),
            strides: Vec::new(),
        };
        let mut offset = self.offset as isize;
        let mut axis = 0;
        let full = |out: &mut Strided, axis: usize| {
            out.shape.push(self.shape[axis]);
            out.strides.push(self.strides[axis]);
        };
        for item in index {
            match item {
                Index::Int(i) => {
                    let p = position(*i, axis, self.shape[axis]).ok()?;
                    offset += p as isize * self.strides[axis];
                    axis += 1;
                }
                Index::Slice(start, stop, step) => {
                    let positions = slice_positions(*start, *stop, *step, self.shape[axis]).ok()?;
                    if let Some(&first) = positions.first() {
                        offset += first as isize * self.strides[axis];
                    }
                    out.shape.push(positions.len());
                    out.strides
                        .push(self.strides[axis] * step.unwrap_or(1) as isize);
                    axis += 1;
                }
                Index::NewAxis => {
                    out.shape.push(1);
                    out.strides.push(0);
                }
                Index::Ellipsis => {
                    for _ in 0..ndim - consumed {
                        full(&mut out, axis);
                        axis += 1;
                    }
                }
                Index::Array(_) => return None,
            }
        }
        while axis < ndim {
            full(&mut out, axis);
            axis += 1;
        }
        out.offset = usize::try_from(offset).ok()?;
        Some(out)
    }

    /// The layout at `shape` (same size) without moving elements, when
    /// one exists: numpy's `_attempt_nocopy_reshape` (C order). numpy's
    /// `reshape` copies when there is none, and `a.shape = ...` raises.
    pub fn reshape(&self, shape: &[usize]) -> Option<Strided> {
        if shape.iter().product::<usize>() != self.size() {
            return None;
        }
        if self.size() == 0 {
            return Some(Strided {
                offset: self.offset,
                ..Strided::whole(shape)
            });
        }
        // Axes of length 1 have no say in the layout.
        let (old, old_strides): (Vec<usize>, Vec<isize>) = self
            .shape
            .iter()
            .zip(&self.strides)
            .filter(|(&n, _)| n != 1)
            .unzip();
        let mut strides = vec![0isize; shape.len()];
        let (mut oi, mut oj, mut ni, mut nj) = (0, 1, 0, 1);
        while ni < shape.len() && oi < old.len() {
            let (mut np, mut op) = (shape[ni], old[oi]);
            while np != op {
                if np < op {
                    np *= *shape.get(nj)?;
                    nj += 1;
                } else {
                    op *= *old.get(oj)?;
                    oj += 1;
                }
            }
            // The old axes merged here must be one run in memory.
            for ok in oi..oj - 1 {
                if old_strides[ok] != old[ok + 1] as isize * old_strides[ok + 1] {
                    return None;
                }
            }
            strides[nj - 1] = old_strides[oj - 1];
            for nk in (ni + 1..nj).rev() {
                strides[nk - 1] = strides[nk] * shape[nk] as isize;
            }
            ni = nj;
            nj += 1;
            oi = oj;
            oj += 1;
        }
        let last = if ni >= 1 { strides[ni - 1] } else { 1 };
        for stride in strides.iter_mut().skip(ni) {
            *stride = last;
        }
        Some(Strided {
            offset: self.offset,
            shape: shape.to_vec(),
            strides,
        })
    }

    /// Whether every element lies within a base of `len` elements.
    fn fits(&self, len: usize) -> bool {
        if self.size() == 0 {
            return true;
        }
        let (mut lo, mut hi) = (self.offset as isize, self.offset as isize);
        for (&n, &s) in self.shape.iter().zip(&self.strides) {
            let span = (n as isize - 1) * s;
            if span < 0 {
                lo += span;
            } else {
                hi += span;
            }
        }
        lo >= 0 && (hi as usize) < len
    }

    /// Calls `f` with each element's base position, in row-major order.
    fn for_each_position(&self, mut f: impl FnMut(usize)) {
        if self.size() == 0 {
            return;
        }
        let mut at = vec![0usize; self.shape.len()];
        let mut pos = self.offset as isize;
        loop {
            f(pos as usize);
            let mut d = at.len();
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                at[d] += 1;
                pos += self.strides[d];
                if at[d] < self.shape[d] {
                    break;
                }
                pos -= self.strides[d] * self.shape[d] as isize;
                at[d] = 0;
            }
        }
    }
}

/// The elements of `a` in row-major order, borrowed when they already are.
fn row_major_elements<T: Elem>(a: &ArrayD<T>) -> Cow<'_, [T]> {
    match a.as_slice() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(a.iter().copied().collect()),
    }
}

fn gather<T: Elem>(a: &ArrayD<T>, s: &Strided) -> Option<ArrayD<T>> {
    let flat = row_major_elements(a);
    if !s.fits(flat.len()) {
        return None;
    }
    // An empty selection may start past the end (`np.zeros((0, 3))[:, 1]`
    // has offset 1 into no elements): it reads nothing.
    let values = if s.size() == 0 {
        Vec::new()
    } else if s.is_contiguous() {
        flat[s.offset..s.offset + s.size()].to_vec()
    } else {
        let mut v = Vec::with_capacity(s.size());
        s.for_each_position(|p| v.push(flat[p]));
        v
    };
    ArrayD::from_shape_vec(IxDyn(&s.shape), values).ok()
}

fn scatter<T: Elem>(a: &mut ArrayD<T>, s: &Strided, values: &ArrayD<T>) -> bool {
    if !a.is_standard_layout() {
        *a = a.as_standard_layout().into_owned();
    }
    let Some(flat) = a.as_slice_mut() else {
        return false;
    };
    if !s.fits(flat.len()) || values.len() != s.size() {
        return false;
    }
    let mut it = values.iter();
    s.for_each_position(|p| {
        if let Some(v) = it.next() {
            flat[p] = *v;
        }
    });
    true
}

impl HostArray {
    /// The elements `s` selects, at its shape; None if `s` reaches past
    /// the array (its base was resized).
    pub fn gather_strided(&self, s: &Strided) -> Option<HostArray> {
        each!(self, a => gather(a, s).map(Elem::wrap))
    }

    /// Writes `values` (cast to this array's dtype, as many elements as
    /// `s` selects, row-major) where `s` selects; false if they do not fit.
    pub fn scatter_strided(&mut self, s: &Strided, values: &HostArray) -> bool {
        each!(self, a => scatter(a, s, &values.view()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_a_reshape_are_contiguous_runs_of_the_base() {
        let whole = Strided::whole(&[6]);
        let m = whole.reshape(&[2, 3]).unwrap();
        let row = m.index(&[Index::Int(1)]).unwrap();
        assert_eq!((row.offset, row.shape.clone()), (3, vec![3]));
        assert!(row.is_contiguous());
        let col = m
            .index(&[Index::Slice(None, None, None), Index::Int(2)])
            .unwrap();
        assert_eq!((col.offset, col.strides.clone()), (2, vec![3]));
        // numpy: a column takes a length-1 axis in place, not a merge.
        assert_eq!(col.reshape(&[2, 1]).unwrap().strides, [3, 3]);
        let cols = m.index(&[
            Index::Slice(None, None, None),
            Index::Slice(Some(1), None, None),
        ]);
        assert!(cols.unwrap().reshape(&[4]).is_none());
        let rev = m.index(&[Index::Slice(None, None, Some(-1))]).unwrap();
        let mut seen = Vec::new();
        rev.for_each_position(|p| seen.push(p));
        assert_eq!(seen, [3, 4, 5, 0, 1, 2]);
    }
}
