//! A tensor's dimensions: inline up to rank 4, shared beyond.
//!
//! Why not `SmallVec`: a scalar op copies, compares and drops shapes on every
//! run, and `SmallVec` does each through a length check and a call
//! (`memcpy`, `memcmp`, element-wise `clone`). Here an inline shape is a
//! plain array copied in a few moves and compared dim by dim; ranks above 4
//! (rare) share one `Arc`.
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Ranks up to this are inline.
pub(super) const INLINE: usize = 4;

/// See the module docs.
#[derive(Clone)]
pub enum Shape {
    Inline { rank: u8, dims: [i64; INLINE] },
    Heap(Arc<[i64]>),
}

impl Shape {
    /// Rank 0.
    pub fn new() -> Shape {
        Shape::Inline {
            rank: 0,
            dims: [0; INLINE],
        }
    }

    pub fn from_slice(dims: &[i64]) -> Shape {
        if dims.len() <= INLINE {
            let mut inline = [0; INLINE];
            inline[..dims.len()].copy_from_slice(dims);
            Shape::Inline {
                rank: dims.len() as u8,
                dims: inline,
            }
        } else {
            Shape::Heap(dims.into())
        }
    }

    /// Appends a dimension.
    pub fn push(&mut self, d: i64) {
        match self {
            Shape::Inline { rank, dims } if usize::from(*rank) < INLINE => {
                dims[usize::from(*rank)] = d;
                *rank += 1;
            }
            _ => {
                let mut v = self.to_vec();
                v.push(d);
                *self = Shape::Heap(v.into());
            }
        }
    }
}

impl Default for Shape {
    fn default() -> Self {
        Shape::new()
    }
}

impl Deref for Shape {
    type Target = [i64];

    fn deref(&self) -> &[i64] {
        match self {
            Shape::Inline { rank, dims } => &dims[..usize::from(*rank)],
            Shape::Heap(dims) => dims,
        }
    }
}

impl PartialEq for Shape {
    fn eq(&self, other: &Self) -> bool {
        same_dims(self, other)
    }
}

/// `a == b` for shapes, without `memcmp`'s call for a few dims.
pub fn same_dims(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl From<&[i64]> for Shape {
    fn from(dims: &[i64]) -> Self {
        Shape::from_slice(dims)
    }
}

impl FromIterator<i64> for Shape {
    fn from_iter<I: IntoIterator<Item = i64>>(iter: I) -> Self {
        let mut s = Shape::new();
        for d in iter {
            s.push(d);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_past_the_inline_rank_and_compares_by_dims() {
        let mut s = Shape::from_slice(&[2, 3]);
        for d in [4, 5, 6] {
            s.push(d);
        }
        assert!(matches!(s, Shape::Heap(_)));
        assert_eq!(&*s, &[2, 3, 4, 5, 6]);
        assert_eq!(s, Shape::from_slice(&[2, 3, 4, 5, 6]));
        assert_ne!(Shape::from_slice(&[1]), Shape::new());
        assert_eq!(Shape::from_slice(&[]), Shape::new());
    }
}
