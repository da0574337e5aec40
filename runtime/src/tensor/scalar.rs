//! One-element tensors as plain values: the fast path of scalar ops.
//!
//! Loop counters, conditions, select indices and channel values are
//! one-element tensors, and a Fluid loop is mostly ops on them. Such a
//! tensor is fully described by its element and its rank (numel 1 means every
//! dim is 1), so a variable stores it as a [`Scalar`] and a rank
//! (`Value::Scalar`), and kernels read it, compute on plain numbers and
//! write the result back: no shape is built, compared or dropped. Anything
//! else (more elements, mixed ranks, errors) takes the kernels' general
//! path, which gives the same results.
use fluidc_transpiler::VarKind;

use super::{Buffer, Data, Shape, Tensor};

/// The element of a one-element tensor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scalar {
    Bool(bool),
    Int32(i32),
    Int64(i64),
    Float32(f32),
    Float64(f64),
}

impl Scalar {
    pub(crate) fn dtype(self) -> VarKind {
        match self {
            Scalar::Bool(_) => VarKind::Bool,
            Scalar::Int32(_) => VarKind::Int32,
            Scalar::Int64(_) => VarKind::Int64,
            Scalar::Float32(_) => VarKind::Fp32,
            Scalar::Float64(_) => VarKind::Fp64,
        }
    }
}

/// Ranks up to this have an inline shape of ones.
const MAX_RANK: usize = super::shape::INLINE;

impl Tensor {
    /// The element and rank of a one-element tensor with an inline element.
    #[inline]
    pub(crate) fn as_scalar(&self) -> Option<(Scalar, usize)> {
        let v = match &self.data {
            Data::Bool(Buffer::One(v)) => Scalar::Bool(*v),
            Data::Int32(Buffer::One(v)) => Scalar::Int32(*v),
            Data::Int64(Buffer::One(v)) => Scalar::Int64(*v),
            Data::Float32(Buffer::One(v)) => Scalar::Float32(*v),
            Data::Float64(Buffer::One(v)) => Scalar::Float64(*v),
            _ => return None,
        };
        let rank = self.shape.len();
        // A one-row LoD tensor keeps its LoD: it stays a tensor.
        (rank <= MAX_RANK && self.lod.is_none()).then_some((v, rank))
    }

    /// A one-element tensor of `rank` (at most 4, as [`Tensor::as_scalar`] gives).
    #[inline]
    pub(crate) fn from_scalar(v: Scalar, rank: usize) -> Tensor {
        let shape = Shape::Inline {
            rank: rank.min(MAX_RANK) as u8,
            dims: [1; MAX_RANK],
        };
        let data = match v {
            Scalar::Bool(v) => Data::Bool(Buffer::One(v)),
            Scalar::Int32(v) => Data::Int32(Buffer::One(v)),
            Scalar::Int64(v) => Data::Int64(Buffer::One(v)),
            Scalar::Float32(v) => Data::Float32(Buffer::One(v)),
            Scalar::Float64(v) => Data::Float64(Buffer::One(v)),
        };
        Tensor {
            shape,
            data,
            lod: None,
            rows: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_one_element_tensor_is_its_element_and_rank() {
        let t = Tensor::from_vec(&[1, 1], vec![7i64]).expect("tensor");
        assert_eq!(t.as_scalar(), Some((Scalar::Int64(7), 2)));
        assert_eq!(Tensor::from_scalar(Scalar::Int64(7), 2), t);

        let many = Tensor::from_vec(&[2], vec![1.0f32, 2.0]).expect("tensor");
        assert_eq!(many.as_scalar(), None);
        assert_eq!(
            Tensor::from_vec(&[], vec![true]).expect("0-D").as_scalar(),
            Some((Scalar::Bool(true), 0))
        );
    }
}
