//! Paddle's broadcast rule for elementwise and compare ops.
//!
//! Paddle aligns the lower-rank operand inside the higher-rank one at `axis`:
//! with `axis == -1` that is `|rank(X) - rank(Y)|` (numpy's trailing
//! alignment); with `axis = k` the smaller operand's dims line up with the
//! larger one's starting at dim k (`fc` adds its bias `[8]` to `[-1, 8]` with
//! axis 1). The smaller operand is padded with 1s on both sides, then every
//! pair of dims must be equal or contain a 1 (phi's `GetBroadcastDimsArrays`).
//! With equal ranks `axis` does not matter.
use smallvec::SmallVec;

use super::{alloc, same_dims, Buffer, Element, Shape};
use crate::error::KernelError;

/// Working dims (padded shapes, strides, an index), inline up to rank 4.
type Dims = SmallVec<[i64; 4]>;

/// How to walk two operands to produce a broadcast result.
#[derive(Debug, Clone, PartialEq)]
pub struct Broadcast {
    pub out_shape: Shape,
    /// Per output dim, the stride into X (0 where X is broadcast).
    x_strides: Dims,
    y_strides: Dims,
}

/// Computes the broadcast of shapes `x` and `y` under Paddle's `axis` rule.
pub fn broadcast(x: &[i64], y: &[i64], axis: i64) -> Result<Broadcast, KernelError> {
    let rank = x.len().max(y.len());
    let diff = x.len().abs_diff(y.len());
    // Equal ranks need no alignment; Paddle ignores `axis` then.
    let axis = if axis == -1 || diff == 0 {
        diff
    } else {
        usize::try_from(axis)
            .ok()
            .filter(|&a| a <= diff)
            .ok_or_else(|| {
                KernelError::Shape(format!("axis {axis} is out of range for shapes {x:?} and {y:?} (it must be -1 or in 0..={diff})"))
            })?
    };
    let pad = |s: &[i64]| -> Dims {
        if s.len() == rank {
            return Dims::from_slice(s);
        }
        let mut p = Dims::from_elem(1, rank);
        p[axis..axis + s.len()].copy_from_slice(s);
        p
    };
    let (xp, yp) = (pad(x), pad(y));
    let mut out_shape = Shape::new();
    for (&a, &b) in xp.iter().zip(&yp) {
        out_shape.push(match (a, b) {
            _ if a == b => a,
            (1, _) => b,
            (_, 1) => a,
            _ => {
                return Err(KernelError::Shape(format!(
                    "shapes {x:?} and {y:?} do not broadcast (axis {axis}): dim {a} against {b}"
                )))
            }
        });
    }
    Ok(Broadcast {
        x_strides: strides(&xp),
        y_strides: strides(&yp),
        out_shape,
    })
}

/// `f` over the broadcast pairs of two operands, each given as (shape,
/// elements); returns the output shape and elements, written into `old`
/// when it has one owner (see [`Buffer::refill`]). Equal shapes (scalar
/// loop counters above all) skip the broadcast bookkeeping.
#[inline]
pub fn zip_operands<A: Copy, B: Copy, O: Element>(
    x: (&[i64], &[A]),
    y: (&[i64], &[B]),
    axis: i64,
    old: Option<Buffer<O>>,
    mut f: impl FnMut(A, B) -> O,
) -> Result<(Shape, Buffer<O>), KernelError> {
    if same_dims(x.0, y.0) {
        let out = match (x.1, y.1) {
            ([a], [b]) => Buffer::One(f(*a, *b)),
            _ => Buffer::refill(old, x.1.len(), x.1.iter().zip(y.1).map(|(&a, &b)| f(a, b))),
        };
        return Ok((Shape::from_slice(x.0), out));
    }
    let b = broadcast(x.0, y.0, axis)?;
    // Two operands broadcast against each other can make far more
    // elements than either has.
    alloc::check(&b.out_shape, O::KIND)?;
    let out = b.zip(x.1, y.1, old, f);
    Ok((b.out_shape, out))
}

/// Row-major strides, 0 on dims of size 1 so that they repeat.
fn strides(shape: &[i64]) -> Dims {
    let mut s = Dims::from_elem(0, shape.len());
    let mut acc = 1usize;
    for i in (0..shape.len()).rev() {
        let d = usize::try_from(shape[i]).unwrap_or(0);
        s[i] = if d == 1 { 0 } else { acc as i64 };
        acc *= d.max(1);
    }
    s
}

impl Broadcast {
    pub fn numel(&self) -> usize {
        self.out_shape
            .iter()
            .map(|&d| usize::try_from(d).unwrap_or(0))
            .product()
    }

    /// Applies `f` to each broadcast pair of elements, in output order,
    /// writing into `old` when it has one owner (see [`Buffer::refill`]).
    pub fn zip<A: Copy, B: Copy, O: Clone>(
        &self,
        x: &[A],
        y: &[B],
        old: Option<Buffer<O>>,
        mut f: impl FnMut(A, B) -> O,
    ) -> Buffer<O> {
        let n = self.numel();
        // Fast paths: same shape, or one side a single element.
        if x.len() == n && y.len() == n {
            return Buffer::refill(old, n, x.iter().zip(y).map(|(&a, &b)| f(a, b)));
        }
        if y.len() == 1 && x.len() == n {
            let b = y[0];
            return Buffer::refill(old, n, x.iter().map(|&a| f(a, b)));
        }
        if x.len() == 1 && y.len() == n {
            let a = x[0];
            return Buffer::refill(old, n, y.iter().map(|&b| f(a, b)));
        }
        if let Some((_, m, post)) = self.y_block(x.len(), y.len()).filter(|_| n > 0) {
            // A bias (Y a run of X's dims): plain loops over rows of X, no
            // per-element index walk (an fc's bias add is one per layer).
            let mut out = Buffer::reuse_vec(old, n, f(x[0], y[0]));
            let rows = out.chunks_exact_mut(m * post).zip(x.chunks_exact(m * post));
            for (o, a) in rows {
                if post == 1 {
                    for ((o, &a), &b) in o.iter_mut().zip(a).zip(y) {
                        *o = f(a, b);
                    }
                    continue;
                }
                let runs = o.chunks_exact_mut(post).zip(a.chunks_exact(post));
                for ((o, a), &b) in runs.zip(y) {
                    for (o, &a) in o.iter_mut().zip(a) {
                        *o = f(a, b);
                    }
                }
            }
            return Buffer::from(out);
        }
        Buffer::refill(old, n, self.indices().map(|(i, j)| f(x[i], y[j])))
    }

    /// When X has every output element and Y's dims are one run of the
    /// output's (an fc bias, a per-channel scale): (elements before the
    /// run, elements of Y, elements after it).
    fn y_block(&self, x_len: usize, y_len: usize) -> Option<(usize, usize, usize)> {
        let n = self.numel();
        if x_len != n || y_len <= 1 {
            return None;
        }
        let used = |d: usize| self.y_strides[d] != 0;
        let first = (0..self.out_shape.len()).find(|&d| used(d))?;
        let last = (0..self.out_shape.len()).rev().find(|&d| used(d))?;
        if !(first..=last).all(|d| used(d) || self.out_shape[d] == 1) {
            return None;
        }
        let count = |r: std::ops::Range<usize>| -> usize {
            self.out_shape[r]
                .iter()
                .map(|&d| usize::try_from(d).unwrap_or(0))
                .product()
        };
        let (pre, post) = (count(0..first), count(last + 1..self.out_shape.len()));
        (pre * y_len * post == n).then_some((pre, y_len, post))
    }

    /// For each output element in order, the index of its X and its Y element.
    pub fn indices(&self) -> Indices<'_> {
        let rank = self.out_shape.len();
        Indices {
            b: self,
            index: Dims::from_elem(0, rank),
            at: (0, 0),
            left: self.numel(),
        }
    }
}

/// See [`Broadcast::indices`]: an odometer over the output's multi-index
/// that keeps both operands' offsets.
#[derive(Debug)]
pub struct Indices<'a> {
    b: &'a Broadcast,
    index: Dims,
    at: (i64, i64),
    left: usize,
}

impl Iterator for Indices<'_> {
    type Item = (usize, usize);

    #[inline]
    fn next(&mut self) -> Option<(usize, usize)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let here = (self.at.0 as usize, self.at.1 as usize);
        let (b, dims) = (self.b, &self.b.out_shape);
        for d in (0..dims.len()).rev() {
            self.index[d] += 1;
            self.at.0 += b.x_strides[d];
            self.at.1 += b.y_strides[d];
            if self.index[d] < dims[d] {
                break;
            }
            self.at.0 -= b.x_strides[d] * dims[d];
            self.at.1 -= b.y_strides[d] * dims[d];
            self.index[d] = 0;
        }
        Some(here)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Indices<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_alignment_and_explicit_axis() {
        let b = broadcast(&[2, 3], &[3], -1).expect("broadcasts");
        assert_eq!(&*b.out_shape, &[2, 3]);
        let out = b.zip(&[1, 2, 3, 4, 5, 6], &[10, 20, 30], None, |a, b| a + b);
        assert_eq!(out.to_vec(), vec![11, 22, 33, 14, 25, 36]);

        // fc's bias: [N, 8] + [8] with axis 1; and Y aligned at axis 0.
        let b = broadcast(&[2, 3], &[2], 0).expect("broadcasts");
        let out = b.zip(&[1, 2, 3, 4, 5, 6], &[10, 20], None, |a, b| a + b);
        assert_eq!(out.to_vec(), vec![11, 12, 13, 24, 25, 26]);

        // Both sides broadcast, and the smaller rank on the left.
        let b = broadcast(&[3, 1], &[1, 2], -1).expect("broadcasts");
        assert_eq!(
            b.zip(&[1, 2, 3], &[10, 20], None, |a, b| a * b).to_vec(),
            vec![10, 20, 20, 40, 30, 60]
        );
        let b = broadcast(&[2], &[3, 2], -1).expect("broadcasts");
        assert_eq!(&*b.out_shape, &[3, 2]);
        assert_eq!(
            b.zip(&[1, 2], &[0, 0, 1, 1, 2, 2], None, |a, b| a + b)
                .to_vec(),
            vec![1, 2, 2, 3, 3, 4]
        );

        // 0-D with anything.
        let b = broadcast(&[], &[2], -1).expect("broadcasts");
        assert_eq!(
            b.zip(&[5], &[1, 2], None, |a, b| a - b).to_vec(),
            vec![4, 3]
        );
    }

    #[test]
    fn a_bias_block_gives_what_the_index_walk_gives() {
        let x: Vec<i64> = (0..48).collect();
        for (ys, axis) in [
            (vec![3i64], 2i64),
            (vec![3, 4], 2),
            (vec![2], 1),
            (vec![4], -1),
            (vec![2, 3, 1], -1),
            (vec![2, 1, 4], -1),
        ] {
            let y: Vec<i64> = (0..ys.iter().product::<i64>()).map(|v| v * 100).collect();
            let b = broadcast(&[2, 2, 3, 4], &ys, axis).expect("broadcasts");
            let walked: Vec<i64> = b.indices().map(|(i, j)| x[i] + y[j]).collect();
            assert_eq!(b.zip(&x, &y, None, |a, c| a + c).to_vec(), walked, "{ys:?}");
        }
    }

    #[test]
    fn mismatched_dims_and_bad_axis_are_errors() {
        let err = broadcast(&[2, 3], &[2], -1).unwrap_err().to_string();
        assert!(err.contains("do not broadcast"), "{err}");
        let err = broadcast(&[2, 3], &[3], 2).unwrap_err().to_string();
        assert!(err.contains("axis 2 is out of range"), "{err}");
    }
}
