//! Arrays on the host (docs/numpy.md): the values run mode fetches and the
//! numpy subset scripts call, with numpy's dtypes, promotion, broadcasting,
//! indexing and, above all, numpy's printing byte for byte.
//!
//! The reference is the numpy of the interop venv, 2.4 (numpy 2 printing
//! and promotion): `tests/host_numpy.rs` checks this module against it.
//!
//! - [`HostArray`] holds an `ndarray::ArrayD` of one of six dtypes
//!   ([`DType`]: bool, uint8, int32, int64, float32, float64). It is built from
//!   runtime tensors ([`HostArray::from_tensor`], lossless both ways),
//!   nested Python values ([`HostArray::from_nested`], `np.array`),
//!   shapes ([`HostArray::full`]) and ranges ([`arange`], [`linspace`],
//!   [`eye`]); a numpy scalar (`np.float32(1.5)`, an element read by
//!   integer indexing, a full reduction) is a 0-d array.
//! - Element-wise arithmetic and comparisons ([`binary`] over
//!   [`Operand`]s: arrays, strongly typed, or Python scalars, weakly
//!   typed; numpy 2's promotion is documented in [`dtype`]), math
//!   functions ([`HostArray::unary`]), reductions ([`HostArray::reduce`]),
//!   indexing ([`HostArray::index`]), joins ([`concatenate`], [`stack`],
//!   [`where_`]), products ([`dot`]) and closeness ([`isclose`], [`allclose`],
//!   [`array_equal`]).
//! - Math functions as numpy computes them: numpy's own SIMD kernels where
//!   it uses them (float32 `exp`, `log`, `sin`, `cos`; `tanh`) and glibc's
//!   algorithms where Rust's differ ([`numpy_math`]).
//! - Printing ([`format`](mod@format)): [`array_str`] and [`array_repr`] for arrays
//!   (and [`array_str_with`], [`array_repr_with`] under numpy's print options),
//!   [`scalar_str`] and [`scalar_repr`] for numpy scalars (`1.5` and
//!   `np.float32(1.5)`, numpy 2's repr), [`nested_repr`] for `tolist()`
//!   results and Python lists holding arrays, [`float_repr`] for Python
//!   floats; digits from Dragon4 ([`dragon4`]) at each float's own
//!   precision.
//!
//! Every fallible call returns a [`HostError`] (numpy's exception type and
//! message); nothing panics on bad input.

/// Runs `$body` with `$a` bound to the array inside any [`HostArray`].
macro_rules! each {
    ($h:expr, $a:ident => $body:expr) => {
        match $h {
            $crate::host::HostArray::Bool($a) => $body,
            $crate::host::HostArray::Int8($a) => $body,
            $crate::host::HostArray::UInt8($a) => $body,
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
            $crate::host::DType::Int8 => {
                type $t = i8;
                $body
            }
            $crate::host::DType::UInt8 => {
                type $t = u8;
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
pub mod create;
pub mod dragon4;
pub mod dtype;
pub mod error;
pub mod format;
pub mod index;
pub mod linalg;
pub mod numpy_math;
pub mod ops;
pub mod random;
pub mod reduce;
pub mod strided;

pub use array::{HostArray, Nested};
pub use combine::{concatenate, nonzero, stack, where_};
pub use create::{arange, eye, linspace};
pub use dtype::{DType, Elem, Scalar, ScalarKind};
pub use error::{ErrorKind, HostError};
pub use format::{
    array2string_with, array_repr, array_repr_longlong, array_repr_with, array_str, array_str_with,
    float_repr, nested_repr, scalar_repr, scalar_str, FloatMode, PrintOptions,
};
pub use index::Index;
pub use linalg::dot;
pub use ops::{
    allclose, array_equal, binary, broadcast_shapes, isclose, result_type, BinaryOp, Operand,
    Tolerance, UnaryOp,
};
pub use reduce::{reduction_dtype, Reduction};
