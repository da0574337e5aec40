//! Dense tensors: a shape and one typed, shared buffer.
//!
//! Why not ndarray: the runtime needs exactly five element types chosen at
//! run time, Paddle's own broadcast rule (the `axis` attribute, see
//! [`broadcast`]) and cheap sharing. A plain enum of [`Buffer`]s gives all
//! three in a few lines: cloning a tensor is one reference-count increment
//! (or a copy of its one element), so `assign`, a constant op and a channel
//! send share the data copy-on-write (Go's value semantics at no copy cost),
//! and kernels are plain loops over slices. The shape is a small inline
//! vector and a one-element buffer is inline too, so a scalar tensor costs
//! no allocation at all.
pub mod alloc;
pub(crate) mod broadcast;
mod buffer;
pub mod file;
mod format;
pub(crate) mod gemm;
pub(crate) mod num;
pub(crate) mod par;
mod scalar;
mod shape;

pub use buffer::Buffer;
pub(crate) use scalar::Scalar;
pub use shape::{same_dims, Shape};

use std::sync::Arc;

use fluidc_transpiler::VarKind;

use crate::error::KernelError;

/// The element buffer of a tensor, one variant per supported dtype.
#[derive(Debug, Clone, PartialEq)]
pub enum Data {
    Bool(Buffer<bool>),
    /// Data only: a scope holds int8 tensors a script sets (1.x's
    /// quantized tensors); no kernel computes in int8.
    Int8(Buffer<i8>),
    Int32(Buffer<i32>),
    Int64(Buffer<i64>),
    Float32(Buffer<f32>),
    Float64(Buffer<f64>),
}

/// A dense tensor: dtype (the [`Data`] variant), shape and data in row-major order.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    shape: Shape,
    data: Data,
    /// Paddle's LoD (level of detail): for each level, the offsets of its
    /// sequences into the next level (the last level into the rows), as
    /// `LoDTensor::lod()` gives them. `None` for a plain dense tensor,
    /// which is almost every tensor: one word, no allocation.
    lod: Option<Arc<Lod>>,
    /// A sparse gradient's rows: fluidc keeps Paddle's `SelectedRows`
    /// dense, with the sorted, distinct rows it has here. A sparse
    /// `lookup_table_grad` and a `sum` of such set them; a tensor built
    /// anew has none, one copied or updated in place keeps its own. Only
    /// Adam reads them, for a gradient the program declares `SELECTED_ROWS`
    /// (it updates the rows a gradient lacks unlike zero rows).
    rows: Option<Arc<Vec<usize>>>,
}

/// LoD offsets, level by level (`[[0, 3, 5]]`: two sequences of rows 0..3 and 3..5).
pub type Lod = Vec<Vec<usize>>;

impl Data {
    pub fn len(&self) -> usize {
        match self {
            Data::Bool(v) => v.len(),
            Data::Int8(v) => v.len(),
            Data::Int32(v) => v.len(),
            Data::Int64(v) => v.len(),
            Data::Float32(v) => v.len(),
            Data::Float64(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn dtype(&self) -> VarKind {
        match self {
            Data::Bool(_) => VarKind::Bool,
            Data::Int8(_) => VarKind::Int8,
            Data::Int32(_) => VarKind::Int32,
            Data::Int64(_) => VarKind::Int64,
            Data::Float32(_) => VarKind::Fp32,
            Data::Float64(_) => VarKind::Fp64,
        }
    }
}

/// The element types a [`Tensor`] can hold, with the conversions kernels need.
pub trait Element: Copy + PartialEq + PartialOrd + Send + Sync + std::fmt::Debug + 'static {
    const KIND: VarKind;
    const ZERO: Self;
    fn slice(data: &Data) -> Option<&[Self]>;
    fn wrap(values: Buffer<Self>) -> Data;
    /// The buffer of `data` if it holds this type.
    fn buffer(data: Data) -> Option<Buffer<Self>>;
    fn buffer_mut(data: &mut Data) -> Option<&mut Buffer<Self>>;
    fn to_f64(self) -> f64;
    /// `static_cast` semantics: floats truncate toward zero (saturating), bools are `!= 0`.
    fn from_f64(v: f64) -> Self;
    fn to_i64(self) -> i64;
    fn from_i64(v: i64) -> Self;
    fn is_nonzero(self) -> bool;
    fn from_bool(b: bool) -> Self;
}

macro_rules! element {
    ($t:ty, $variant:ident, $kind:ident, $zero:expr) => {
        impl Element for $t {
            const KIND: VarKind = VarKind::$kind;
            const ZERO: Self = $zero;
            fn slice(data: &Data) -> Option<&[Self]> {
                match data {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(values: Buffer<Self>) -> Data {
                Data::$variant(values)
            }
            fn buffer(data: Data) -> Option<Buffer<Self>> {
                match data {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn buffer_mut(data: &mut Data) -> Option<&mut Buffer<Self>> {
                match data {
                    Data::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn to_i64(self) -> i64 {
                self as i64
            }
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn is_nonzero(self) -> bool {
                self != $zero
            }
            fn from_bool(b: bool) -> Self {
                if b {
                    1 as $t
                } else {
                    $zero
                }
            }
        }
    };
}

element!(i8, Int8, Int8, 0);
element!(i32, Int32, Int32, 0);
element!(i64, Int64, Int64, 0);
element!(f32, Float32, Fp32, 0.0);
element!(f64, Float64, Fp64, 0.0);

impl Element for bool {
    const KIND: VarKind = VarKind::Bool;
    const ZERO: Self = false;
    fn slice(data: &Data) -> Option<&[Self]> {
        match data {
            Data::Bool(v) => Some(v),
            _ => None,
        }
    }
    fn wrap(values: Buffer<Self>) -> Data {
        Data::Bool(values)
    }
    fn buffer(data: Data) -> Option<Buffer<Self>> {
        match data {
            Data::Bool(v) => Some(v),
            _ => None,
        }
    }
    fn buffer_mut(data: &mut Data) -> Option<&mut Buffer<Self>> {
        match data {
            Data::Bool(v) => Some(v),
            _ => None,
        }
    }
    fn to_f64(self) -> f64 {
        f64::from(u8::from(self))
    }
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    fn is_nonzero(self) -> bool {
        self
    }
    fn from_bool(b: bool) -> Self {
        b
    }
}

/// Calls `$body` with `$v` bound to the typed slice of `$data` and `$T` to its
/// element type, for every dtype.
macro_rules! with_data {
    ($data:expr, |$v:ident : $T:ident| $body:expr) => {
        match $data {
            $crate::tensor::Data::Bool($v) => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            $crate::tensor::Data::Int8($v) => {
                #[allow(dead_code)]
                type $T = i8;
                $body
            }
            numeric => $crate::tensor::num::with_numeric!(
                numeric,
                |$v: $T| $body,
                unreachable!("bool and int8 handled above")
            ),
        }
    };
}
pub(crate) use with_data;

/// Calls `$body` with `$T` bound to the element type of dtype `$kind`;
/// evaluates `$other` for a dtype tensors cannot hold.
macro_rules! with_dtype {
    ($kind:expr, |$T:ident| $body:expr, $other:expr) => {
        match $kind {
            fluidc_transpiler::VarKind::Bool => {
                #[allow(dead_code)]
                type $T = bool;
                $body
            }
            fluidc_transpiler::VarKind::Int32 => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            fluidc_transpiler::VarKind::Int64 => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            fluidc_transpiler::VarKind::Fp32 => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            fluidc_transpiler::VarKind::Fp64 => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
            _ => $other,
        }
    };
}
pub(crate) use with_dtype;

/// numpy's name of a dtype (`int64`, `float32`, ...), as `--format json` prints it:
/// the transpiler's names, other kinds lowercased (`lod_tensor`).
pub fn dtype_name(kind: VarKind) -> String {
    fluidc_transpiler::model::dtype_name(kind).to_lowercase()
}

/// Why no tensor holds `dtype` (the fallback of `with_dtype!`):
/// [`tensor_dtype`]'s message, as a [`KernelError::Dtype`] since the caller
/// asked for a tensor of that dtype.
fn not_a_tensor_dtype(dtype: VarKind) -> KernelError {
    KernelError::Dtype(
        tensor_dtype(dtype as i64)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
    )
}

/// The dtype for a `VarType.Type` number if tensors can hold it, else an
/// error naming it and the supported ones.
pub(crate) fn tensor_dtype(number: i64) -> Result<VarKind, KernelError> {
    let kind = i32::try_from(number)
        .ok()
        .and_then(|n| VarKind::try_from(n).ok());
    match kind {
        Some(k @ (VarKind::Bool | VarKind::Int32 | VarKind::Int64 | VarKind::Fp32 | VarKind::Fp64)) => {
            Ok(k)
        }
        Some(k) => Err(KernelError::Unsupported(format!(
            "dtype {} ({number}) is not supported; the runtime supports bool, int32, int64, float32 and float64",
            dtype_name(k)
        ))),
        None => Err(KernelError::Dtype(format!("{number} is not a known dtype number"))),
    }
}

/// The number of elements of `shape`, or an error for a negative dimension.
pub(crate) fn numel(shape: &[i64]) -> Result<usize, KernelError> {
    shape.iter().try_fold(1usize, |n, &d| {
        usize::try_from(d)
            .ok()
            .and_then(|d| n.checked_mul(d))
            .ok_or_else(|| {
                KernelError::Shape(format!("shape {shape:?} is not a valid tensor shape"))
            })
    })
}

impl Tensor {
    /// A tensor of `shape` over `data`; the element count must match.
    pub fn new(shape: &[i64], data: Data) -> Result<Tensor, KernelError> {
        let n = numel(shape)?;
        if n != data.len() {
            return Err(KernelError::Shape(format!(
                "shape {shape:?} holds {n} elements but {} values were given",
                data.len()
            )));
        }
        Ok(Tensor {
            shape: Shape::from_slice(shape),
            data,
            lod: None,
            rows: None,
        })
    }

    pub fn from_vec<T: Element>(shape: &[i64], values: Vec<T>) -> Result<Tensor, KernelError> {
        Tensor::new(shape, T::wrap(values.into()))
    }

    /// A one-element tensor of shape `[1]` (Paddle's usual scalar).
    pub fn scalar<T: Element>(value: T) -> Tensor {
        Tensor {
            shape: Shape::from_slice(&[1]),
            data: T::wrap(Buffer::One(value)),
            lod: None,
            rows: None,
        }
    }

    /// Builds a tensor from a computed buffer whose length is known to match `shape`.
    pub(crate) fn from_parts(shape: Shape, data: Data) -> Tensor {
        debug_assert_eq!(numel(&shape).ok(), Some(data.len()));
        Tensor {
            shape,
            data,
            lod: None,
            rows: None,
        }
    }

    /// A tensor of `shape` with every element `value` (converted as
    /// `static_cast` does), if it fits under the memory limit (see [`alloc`]).
    pub fn full(dtype: VarKind, shape: &[i64], value: f64) -> Result<Tensor, KernelError> {
        with_dtype!(
            dtype,
            |T| Tensor::filled(shape, T::from_f64(value)),
            Err(not_a_tensor_dtype(dtype))
        )
    }

    /// A tensor of `shape` with every element `value`, if it fits under
    /// the memory limit (see [`alloc`]).
    pub fn filled<T: Element>(shape: &[i64], value: T) -> Result<Tensor, KernelError> {
        let n = alloc::check(shape, T::KIND)?;
        let data = T::wrap(std::iter::repeat_n(value, n).collect());
        Ok(Tensor {
            shape: Shape::from_slice(shape),
            data,
            lod: None,
            rows: None,
        })
    }

    pub fn zeros(dtype: VarKind, shape: &[i64]) -> Result<Tensor, KernelError> {
        Tensor::full(dtype, shape, 0.0)
    }

    pub fn dtype(&self) -> VarKind {
        self.data.dtype()
    }

    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    pub fn data(&self) -> &Data {
        &self.data
    }

    /// The LoD, empty for a plain tensor.
    pub fn lod(&self) -> &[Vec<usize>] {
        self.lod.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The same tensor with LoD `lod` (none when `lod` is empty). The
    /// caller has checked it against the rows ([`check_lod`]).
    pub fn with_lod(mut self, lod: Lod) -> Tensor {
        self.lod = (!lod.is_empty()).then(|| Arc::new(lod));
        self
    }

    /// The same tensor with `from`'s LoD when it fits this tensor's rows:
    /// how Paddle's ops share their input's LoD with their output.
    pub(crate) fn share_lod(&mut self, from: &Tensor) {
        if self.lod.is_none() && from.lod.is_some() && self.shape.first() == from.shape.first() {
            self.lod = from.lod.clone();
        }
    }

    /// The same tensor with `from`'s LoD whatever its rows: Paddle 3.3.1's
    /// `reshape2` keeps its input's LoD so (`ops::lod`'s
    /// `Lod::KeepsWhateverRows`), which then need not describe the rows;
    /// ops that read LoD check it before they use it.
    pub(crate) fn keep_lod(&mut self, from: &Tensor) {
        if self.lod.is_none() && from.lod.is_some() {
            self.lod = from.lod.clone();
        }
    }

    /// A sparse gradient's rows (see the field); `None` for a dense tensor.
    pub fn sparse_rows(&self) -> Option<&Arc<Vec<usize>>> {
        self.rows.as_ref()
    }

    /// The same tensor as a sparse gradient with `rows` (sorted, distinct),
    /// or as a dense one for `None`.
    pub(crate) fn set_sparse_rows(&mut self, rows: Option<Arc<Vec<usize>>>) {
        debug_assert!(rows
            .as_ref()
            .is_none_or(|r| r.windows(2).all(|w| w[0] < w[1])));
        self.rows = rows;
    }

    pub fn numel(&self) -> usize {
        self.data.len()
    }

    /// The elements as `T`, if the tensor holds that dtype.
    pub fn values<T: Element>(&self) -> Option<&[T]> {
        T::slice(&self.data)
    }

    /// The elements as `T`, mutable, if the tensor holds that dtype and
    /// nothing else shares its buffer.
    pub(crate) fn unique_values_mut<T: Element>(&mut self) -> Option<&mut [T]> {
        T::buffer_mut(&mut self.data)?.unique_mut()
    }

    /// The elements as `T`, mutable, if the tensor holds that dtype: copied
    /// first when something else shares the buffer (copy-on-write).
    pub(crate) fn make_values_mut<T: Element>(&mut self) -> Option<&mut [T]> {
        Some(T::buffer_mut(&mut self.data)?.make_mut())
    }

    /// The buffer, to reuse for a result of dtype `T` (see
    /// [`Buffer::refill`]); `None` for another dtype.
    pub(crate) fn into_buffer<T: Element>(self) -> Option<Buffer<T>> {
        T::buffer(self.data)
    }

    /// Checks LoD `lod` for a tensor of `rows` rows as Paddle's
    /// `CheckLoD` does: each level starts at 0 and never decreases, each
    /// level ends where the next has offsets, and the last ends at `rows`.
    pub fn check_lod(lod: &[Vec<usize>], rows: usize) -> Result<(), KernelError> {
        for (k, level) in lod.iter().enumerate() {
            if level.len() < 2 || level[0] != 0 || level.windows(2).any(|w| w[0] > w[1]) {
                return Err(KernelError::Invalid(format!(
                    "LoD level {k} {level:?} must start at 0, hold at least two offsets and never decrease"
                )));
            }
            let end = *level.last().unwrap_or(&0);
            let want = lod.get(k + 1).map_or(rows, |next| next.len() - 1);
            if end != want {
                return Err(KernelError::Shape(format!(
                    "LoD level {k} {level:?} ends at {end}, but the {} has {want} {}",
                    if k + 1 < lod.len() {
                        "next level"
                    } else {
                        "tensor"
                    },
                    if k + 1 < lod.len() {
                        "sequences"
                    } else {
                        "rows"
                    }
                )));
            }
        }
        Ok(())
    }

    /// The same data under another shape with the same element count.
    pub fn reshaped(&self, shape: &[i64]) -> Result<Tensor, KernelError> {
        Tensor::new(shape, self.data.clone())
    }

    /// Converts to `dtype` as Paddle's `cast` does (`static_cast` per element).
    pub fn cast(&self, dtype: VarKind) -> Result<Tensor, KernelError> {
        if dtype == self.dtype() {
            return Ok(self.clone());
        }
        alloc::check(self.shape(), dtype)?;
        let data = with_data!(&self.data, |v: S| {
            with_dtype!(
                dtype,
                |T| T::wrap(v.iter().map(|&x| convert::<S, T>(x)).collect()),
                return Err(not_a_tensor_dtype(dtype))
            )
        });
        Ok(Tensor {
            shape: self.shape.clone(),
            data,
            lod: self.lod.clone(),
            rows: None,
        })
    }

    /// The one element as `f64`, for tensors with exactly one element.
    pub fn scalar_f64(&self) -> Result<f64, KernelError> {
        self.one_element()?;
        Ok(with_data!(&self.data, |v: T| v[0].to_f64()))
    }

    /// The one element as `i64`, for tensors with exactly one element.
    pub fn scalar_i64(&self) -> Result<i64, KernelError> {
        self.one_element()?;
        Ok(with_data!(&self.data, |v: T| v[0].to_i64()))
    }

    fn one_element(&self) -> Result<(), KernelError> {
        if self.numel() != 1 {
            return Err(KernelError::Shape(format!(
                "expected a tensor with one element, got shape {:?}",
                self.shape()
            )));
        }
        Ok(())
    }

    /// `{"name", "dtype", "shape", "data"}` as `fluidc run --format json` prints a fetch.
    pub fn to_json(&self, name: &str) -> serde_json::Value {
        format::to_json(self, name)
    }

    /// `name = [34] (int64, shape [1])`, as `fluidc run` prints a fetch.
    pub fn to_text(&self, name: &str) -> String {
        format::to_text(self, name)
    }
}

/// Converts one element between dtypes: integers and floats as `static_cast`,
/// exactly for integer to integer (wrapping), bools as `!= 0`.
pub(crate) fn convert<S: Element, T: Element>(x: S) -> T {
    if S::KIND == VarKind::Bool || T::KIND == VarKind::Bool {
        return T::from_bool(x.is_nonzero());
    }
    let integral = |k: VarKind| matches!(k, VarKind::Int32 | VarKind::Int64);
    if integral(S::KIND) && integral(T::KIND) {
        T::from_i64(x.to_i64())
    } else {
        T::from_f64(x.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cast_truncates_like_static_cast_and_bools_are_nonzero() {
        let t = Tensor::from_vec(&[4], vec![-1.7f32, 0.0, 2.9, 1e20]).expect("tensor");
        let i = t.cast(VarKind::Int32).expect("cast");
        assert_eq!(i.values::<i32>(), Some(&[-1, 0, 2, i32::MAX][..]));
        let b = t.cast(VarKind::Bool).expect("cast");
        assert_eq!(b.values::<bool>(), Some(&[true, false, true, true][..]));
        let big = Tensor::from_vec(&[1], vec![i64::MAX]).expect("tensor");
        assert_eq!(
            big.cast(VarKind::Int64).expect("same").values::<i64>(),
            Some(&[i64::MAX][..])
        );
    }

    #[test]
    fn new_checks_the_element_count() {
        let err = Tensor::from_vec(&[2, 2], vec![1i64, 2, 3])
            .unwrap_err()
            .to_string();
        assert!(err.contains("holds 4 elements but 3"), "{err}");
        assert!(Tensor::full(VarKind::Fp16, &[1], 0.0)
            .unwrap_err()
            .to_string()
            .contains("float16"));
    }
}
