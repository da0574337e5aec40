//! Arrays on the host (SPEC §8.2): the values run mode fetches and the
//! numpy subset scripts call, with numpy's dtypes, promotion, broadcasting,
//! indexing and, above all, numpy's printing byte for byte.
//!
//! - [`HostArray`] holds an `ndarray::ArrayD` of one of five dtypes
//!   ([`DType`]: bool, int32, int64, float32, float64), built from runtime
//!   tensors, nested Python values ([`Nested`]) or shapes, and converted
//!   back ([`array`]).
//! - Element-wise arithmetic and comparisons with numpy 2's promotion
//!   ([`dtype`] documents the rule), math functions ([`ops`]), reductions
//!   ([`reduce`]), indexing ([`index`]).
//! - `str`/`repr` of arrays and numpy scalars as numpy 2.4 prints them
//!   ([`format`], on Dragon4 digits from [`dragon4`]).
//!
//! Every fallible call returns a [`HostError`] (numpy's exception type and
//! message); nothing panics on bad input.

/// Runs `$body` with `$a` bound to the array inside any [`HostArray`].
macro_rules! each {
    ($h:expr, $a:ident => $body:expr) => {
        match $h {
            $crate::host::HostArray::Bool($a) => $body,
            $crate::host::HostArray::Int32($a) => $body,
            $crate::host::HostArray::Int64($a) => $body,
            $crate::host::HostArray::Float32($a) => $body,
            $crate::host::HostArray::Float64($a) => $body,
        }
    };
}

/// Runs `$body` with the type alias `$t` naming the element type of the
/// [`DType`] `$d`.
macro_rules! with_dtype {
    ($d:expr, $t:ident => $body:expr) => {
        match $d {
            $crate::host::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::host::DType::Int32 => {
                type $t = i32;
                $body
            }
            $crate::host::DType::Int64 => {
                type $t = i64;
                $body
            }
            $crate::host::DType::Float32 => {
                type $t = f32;
                $body
            }
            $crate::host::DType::Float64 => {
                type $t = f64;
                $body
            }
        }
    };
}

pub mod array;
pub mod combine;
pub mod dragon4;
pub mod dtype;
pub mod error;
pub mod format;
pub mod index;
pub mod ops;
pub mod reduce;

pub use array::{HostArray, Nested};
pub use combine::{concatenate, nonzero, stack, where_};
pub use dtype::{DType, Elem, Scalar, ScalarKind};
pub use error::{ErrorKind, HostError};
pub use format::{array_repr, array_str, float_repr, scalar_repr, scalar_str};
pub use index::Index;
pub use ops::{
    allclose, array_equal, binary, broadcast_shapes, isclose, result_type, BinaryOp, Operand,
    Tolerance, UnaryOp,
};
pub use reduce::{reduction_dtype, Reduction};
