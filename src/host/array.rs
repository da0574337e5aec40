//! [`HostArray`]: an n-d array of one of five dtypes, and what builds,
//! converts and reshapes it.
use std::borrow::Cow;

use fluidc_runtime::{Data, Tensor};
use ndarray::{ArrayD, Axis, IxDyn};

use super::dtype::{cast, DType, Elem, Scalar, ScalarKind};
use super::error::{ErrorKind, HostError, Result};

/// A numpy array on the host: its dtype is the variant. Arrays are values
/// (numpy's views that alias their base are the `_numpy` handle's,
/// `crate::numpy::PyHostArray`: every operation here
/// returns a new array).
#[derive(Debug, Clone, PartialEq)]
pub enum HostArray {
    Bool(ArrayD<bool>),
    Int8(ArrayD<i8>),
    UInt8(ArrayD<u8>),
    Int32(ArrayD<i32>),
    Int64(ArrayD<i64>),
    Float32(ArrayD<f32>),
    Float64(ArrayD<f64>),
}

/// A Python value that `numpy.array` reads: scalars, (nested) lists and
/// tuples, and arrays inside them (`np.array([a, b])`).
#[derive(Debug, Clone, PartialEq)]
pub enum Nested {
    Bool(bool),
    Int(i64),
    Float(f64),
    List(Vec<Nested>),
    Array(HostArray),
}

impl From<Scalar> for Nested {
    fn from(s: Scalar) -> Nested {
        match s {
            Scalar::Bool(b) => Nested::Bool(b),
            Scalar::Int(i) => Nested::Int(i),
            Scalar::Float(f) => Nested::Float(f),
        }
    }
}

/// A shape as Python prints a tuple: `(2,)`, `(2, 3)`, `()`.
pub(crate) fn tuple_repr(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// A shape as numpy's error messages print it: `(3,2)`, without spaces.
pub(crate) fn error_shape(shape: &[usize]) -> String {
    tuple_repr(shape).replace(", ", ",")
}

/// The element count of `shape`, or numpy's error when it overflows.
pub(crate) fn checked_size(shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        // Eight bytes an element at most, as numpy counts bytes.
        .filter(|&n| n <= isize::MAX as usize / 8)
        .ok_or_else(|| HostError::value_error("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."))
}

/// An array of `shape` over `values` in row-major order.
pub(crate) fn from_shape_vec<T: Elem>(shape: &[usize], values: Vec<T>) -> Result<ArrayD<T>> {
    ArrayD::from_shape_vec(IxDyn(shape), values)
        .map_err(|e| HostError::value_error(format!("internal shape error: {e}")))
}

/// Resolves a possibly negative `axis` against `ndim` dimensions.
pub(crate) fn normalize_axis(axis: i64, ndim: usize) -> Result<usize> {
    let n = i64::try_from(ndim).unwrap_or(i64::MAX);
    let a = if axis < 0 { axis + n } else { axis };
    if (0..n).contains(&a) {
        Ok(a as usize)
    } else {
        Err(HostError::axis(axis, ndim))
    }
}

impl HostArray {
    pub fn dtype(&self) -> DType {
        match self {
            HostArray::Bool(_) => DType::Bool,
            HostArray::Int8(_) => DType::Int8,
            HostArray::UInt8(_) => DType::UInt8,
            HostArray::Int32(_) => DType::Int32,
            HostArray::Int64(_) => DType::Int64,
            HostArray::Float32(_) => DType::Float32,
            HostArray::Float64(_) => DType::Float64,
        }
    }

    pub fn shape(&self) -> &[usize] {
        each!(self, a => a.shape())
    }

    pub fn ndim(&self) -> usize {
        self.shape().len()
    }

    pub fn size(&self) -> usize {
        each!(self, a => a.len())
    }

    /// An array of `shape` filled with `value` cast to `dtype`
    /// (`np.full`; `np.zeros` and `np.ones` with 0 and 1).
    pub fn full(dtype: DType, shape: &[usize], value: Scalar) -> Result<HostArray> {
        checked_size(shape)?;
        fn fill<T: Elem>(shape: &[usize], v: Scalar) -> HostArray {
            T::wrap(ArrayD::from_elem(IxDyn(shape), T::cast_from(v)))
        }
        Ok(with_dtype!(dtype, T => fill::<T>(shape, value)))
    }

    pub fn zeros(dtype: DType, shape: &[usize]) -> Result<HostArray> {
        HostArray::full(dtype, shape, Scalar::Int(0))
    }

    /// A 0-d array holding one scalar (a numpy scalar such as
    /// `np.float32(1.5)` is held this way).
    pub fn scalar(dtype: DType, value: Scalar) -> HostArray {
        fn one<T: Elem>(v: Scalar) -> HostArray {
            T::wrap(ArrayD::from_elem(IxDyn(&[]), T::cast_from(v)))
        }
        with_dtype!(dtype, T => one::<T>(value))
    }

    /// An array of `shape` over `values` (row-major).
    pub fn from_vec<T: Elem>(shape: &[usize], values: Vec<T>) -> Result<HostArray> {
        let n = checked_size(shape)?;
        if n != values.len() {
            return Err(HostError::value_error(format!(
                "cannot reshape array of size {} into shape {}",
                values.len(),
                error_shape(shape)
            )));
        }
        from_shape_vec(shape, values).map(T::wrap)
    }

    /// A fetched runtime tensor, losslessly.
    pub fn from_tensor(t: &Tensor) -> Result<HostArray> {
        let shape = t
            .shape()
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<std::result::Result<Vec<usize>, _>>()
            .map_err(|_| {
                HostError::value_error(format!(
                    "a tensor of shape {:?} has a negative dimension",
                    t.shape()
                ))
            })?;
        match t.data() {
            Data::Bool(v) => HostArray::from_vec(&shape, v.to_vec()),
            Data::Int8(v) => HostArray::from_vec(&shape, v.to_vec()),
            Data::Int32(v) => HostArray::from_vec(&shape, v.to_vec()),
            Data::Int64(v) => HostArray::from_vec(&shape, v.to_vec()),
            Data::Float32(v) => HostArray::from_vec(&shape, v.to_vec()),
            Data::Float64(v) => HostArray::from_vec(&shape, v.to_vec()),
        }
    }

    /// The array as a runtime tensor (to feed it), losslessly.
    pub fn to_tensor(&self) -> Result<Tensor> {
        let shape: Vec<i64> = self
            .shape()
            .iter()
            .map(|&d| i64::try_from(d).unwrap_or(i64::MAX))
            .collect();
        if self.dtype() == DType::UInt8 {
            return Err(HostError::unsupported(
                "fluidc's runtime has no uint8 tensors; convert with astype('float32') or \
                 astype('int64') first",
            ));
        }
        // A standard-layout array copies as one slice (a feed, every step).
        fn flat<T: Clone>(a: &ArrayD<T>) -> Vec<T> {
            match a.as_slice() {
                Some(v) => v.to_vec(),
                None => a.iter().cloned().collect(),
            }
        }
        let made = match self {
            HostArray::Bool(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::Int8(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::Int32(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::Int64(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::Float32(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::Float64(a) => Tensor::from_vec(&shape, flat(a)),
            HostArray::UInt8(_) => unreachable!("refused above"),
        };
        made.map_err(|e| HostError::value_error(e.to_string()))
    }

    /// The elements in row-major order, cast to `T`.
    pub fn to_vec<T: Elem>(&self) -> Vec<T> {
        each!(self, a => a.iter().map(|&x| cast(x)).collect())
    }

    /// The array with elements of type `T` (borrowed when it already is).
    pub(crate) fn view<T: Elem>(&self) -> Cow<'_, ArrayD<T>> {
        match T::get(self) {
            Some(a) => Cow::Borrowed(a),
            None => Cow::Owned(each!(self, a => a.mapv(cast))),
        }
    }

    /// `a.astype(dtype)` with numpy's casts (see [`Elem::cast_from`]).
    pub fn astype(&self, dtype: DType) -> HostArray {
        with_dtype!(dtype, T => T::wrap(self.view::<T>().into_owned()))
    }

    /// Each element as a 0-d array, in row-major order: what iterating
    /// over a 1-D array gives (one pass, where indexing each element would
    /// plan an index per element).
    pub fn elements(&self) -> Vec<HostArray> {
        each!(self, a => a
            .iter()
            .map(|x| Elem::wrap(ArrayD::from_elem(IxDyn(&[]), *x)))
            .collect())
    }

    /// The element at row-major position `flat` as a Python scalar.
    pub(crate) fn flat_scalar(&self, flat: usize) -> Option<Scalar> {
        each!(self, a => a.iter().nth(flat).map(|x| x.scalar()))
    }

    /// `a.item()`: the one element of a one-element array.
    pub fn item(&self) -> Result<Scalar> {
        if self.size() != 1 {
            return Err(HostError::value_error(
                "can only convert an array of size 1 to a Python scalar",
            ));
        }
        self.flat_scalar(0).ok_or_else(|| {
            HostError::value_error("can only convert an array of size 1 to a Python scalar")
        })
    }

    /// `a.item(i)`: the element at flat index `i` (negative counts from the
    /// end).
    pub fn item_at(&self, index: i64) -> Result<Scalar> {
        let n = self.size();
        let i = if index < 0 {
            index + i64::try_from(n).unwrap_or(i64::MAX)
        } else {
            index
        };
        usize::try_from(i)
            .ok()
            .and_then(|i| self.flat_scalar(i))
            .ok_or_else(|| HostError::index_error("index out of bounds"))
    }

    /// The one element, for `float()`, `int()` and `bool()` of an array.
    /// Arrays of one element convert whatever their dimension (numpy 1.x
    /// and numpy 2 up to 2.3; 2.4 accepts only 0-d arrays).
    fn only_element(&self) -> Result<Scalar> {
        if self.size() != 1 {
            return Err(HostError::type_error(
                "only 0-dimensional arrays can be converted to Python scalars",
            ));
        }
        self.item()
    }

    /// `float(a)`.
    pub fn to_float(&self) -> Result<f64> {
        Ok(self.only_element()?.as_f64())
    }

    /// `int(a)`.
    pub fn to_int(&self) -> Result<i64> {
        self.only_element()?.as_i64()
    }

    /// `bool(a)` (also `if a:`).
    pub fn truthy(&self) -> Result<bool> {
        match self.size() {
            1 => Ok(self.item()?.truthy()),
            0 => Err(HostError::value_error(
                "The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an array is not empty.",
            )),
            _ => Err(HostError::value_error(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()",
            )),
        }
    }

    /// `a.tolist()`: nested lists of Python scalars (a scalar for 0-d).
    pub fn tolist(&self) -> Nested {
        fn build<T: Elem>(a: ndarray::ArrayViewD<'_, T>) -> Nested {
            if a.ndim() == 0 {
                return a
                    .iter()
                    .next()
                    .map_or(Nested::List(Vec::new()), |x| x.scalar().into());
            }
            Nested::List(a.outer_iter().map(build).collect())
        }
        each!(self, a => build(a.view()))
    }

    /// `np.array(value, dtype=dtype)`: numpy's dtype discovery (bools
    /// bool, ints int64, any float float64, arrays their own dtype, the
    /// largest by [`DType::promote`]; an empty list float64), or the given
    /// dtype. Ragged lists are numpy's `ValueError`.
    pub fn from_nested(value: &Nested, dtype: Option<DType>) -> Result<HostArray> {
        let mut d = Discovery {
            dims: Vec::new(),
            max_dims: usize::MAX,
            ragged: false,
            dtype: None,
        };
        d.visit(value, 0);
        if d.ragged {
            return Err(HostError::value_error(format!(
                "setting an array element with a sequence. The requested array has an inhomogeneous shape after {} dimensions. The detected shape was {} + inhomogeneous part.",
                d.dims.len(),
                tuple_repr(&d.dims)
            )));
        }
        checked_size(&d.dims)?;
        let dtype = dtype.or(d.dtype).unwrap_or(DType::Float64);
        let mut leaves = Vec::new();
        collect_leaves(value, &mut leaves);
        fn fill<T: Elem>(shape: &[usize], leaves: &[Leaf<'_>]) -> Result<HostArray> {
            let mut out: Vec<T> = Vec::new();
            for leaf in leaves {
                match leaf {
                    Leaf::Scalar(s) => out.push(T::cast_from(python_to(*s, T::DTYPE)?)),
                    Leaf::Array(h) => out.extend(h.view::<T>().iter().copied()),
                }
            }
            HostArray::from_vec(shape, out)
        }
        with_dtype!(dtype, T => fill::<T>(&d.dims, &leaves))
    }

    /// `a.reshape(shape)`, with one unknown (negative, usually `-1`)
    /// dimension inferred.
    pub fn reshape(&self, shape: &[i64]) -> Result<HostArray> {
        let size = self.size();
        let unknown: Vec<usize> = (0..shape.len()).filter(|&i| shape[i] < 0).collect();
        if unknown.len() > 1 {
            return Err(HostError::value_error(
                "can only specify one unknown dimension",
            ));
        }
        let known: Vec<usize> = shape
            .iter()
            .filter(|&&d| d >= 0)
            .map(|&d| usize::try_from(d).unwrap_or(usize::MAX))
            .collect();
        let known_size = known.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        let mismatch = || {
            // numpy prints the known dimensions only, without spaces, when
            // one is unknown.
            let shown = if unknown.is_empty() {
                error_shape(&known)
            } else {
                let dims: Vec<String> = known.iter().map(|d| d.to_string()).collect();
                format!("({})", dims.join(","))
            };
            HostError::value_error(format!(
                "cannot reshape array of size {size} into shape {shown}"
            ))
        };
        let mut dims = Vec::with_capacity(shape.len());
        match (unknown.first(), known_size) {
            (None, Some(n)) if n == size => dims.extend(known.iter().copied()),
            (Some(&at), Some(n)) if n != 0 && size.is_multiple_of(n) => {
                dims.extend(known.iter().copied());
                dims.insert(at, size / n);
            }
            _ => return Err(mismatch()),
        }
        Ok(each!(self, a => {
            let values: Vec<_> = a.iter().copied().collect();
            HostArray::from_vec(&dims, values)?
        }))
    }

    /// `a.flatten()` / `a.ravel()`: the elements as a 1-d array.
    pub fn flatten(&self) -> HostArray {
        each!(self, a => {
            let values: Vec<_> = a.iter().copied().collect();
            let n = values.len();
            from_shape_vec(&[n], values).map(Elem::wrap).unwrap_or_else(|_| self.clone())
        })
    }

    /// `a.transpose(axes)`; `None` reverses the axes (`a.T`).
    pub fn transpose(&self, axes: Option<&[i64]>) -> Result<HostArray> {
        let ndim = self.ndim();
        let perm: Vec<usize> = match axes {
            None => (0..ndim).rev().collect(),
            Some(axes) => {
                if axes.len() != ndim {
                    return Err(HostError::value_error("axes don't match array"));
                }
                let perm = axes
                    .iter()
                    .map(|&a| normalize_axis(a, ndim))
                    .collect::<Result<Vec<usize>>>()?;
                let mut seen = vec![false; ndim];
                for &p in &perm {
                    if std::mem::replace(&mut seen[p], true) {
                        return Err(HostError::value_error("repeated axis in transpose"));
                    }
                }
                perm
            }
        };
        Ok(each!(self, a => Elem::wrap(
            a.view().permuted_axes(IxDyn(&perm)).as_standard_layout().into_owned()
        )))
    }

    /// `np.expand_dims(a, axis)`.
    pub fn expand_dims(&self, axis: i64) -> Result<HostArray> {
        let at = normalize_axis(axis, self.ndim() + 1)?;
        Ok(each!(self, a => Elem::wrap(a.clone().insert_axis(Axis(at)))))
    }
}

/// What [`HostArray::from_nested`] learns walking the value.
struct Discovery {
    dims: Vec<usize>,
    /// The depth at which a scalar was seen (no dimension below it).
    max_dims: usize,
    ragged: bool,
    dtype: Option<DType>,
}

impl Discovery {
    fn dtype_seen(&mut self, dtype: DType) {
        self.dtype = Some(match self.dtype {
            Some(d) => DType::promote(d, dtype),
            None => dtype,
        });
    }

    /// A sequence of `len` items at `depth`: false (and ragged) when it
    /// disagrees with what was seen at that depth before.
    fn sequence(&mut self, depth: usize, len: usize) -> bool {
        if depth >= self.max_dims {
            self.ragged = true;
            return false;
        }
        if depth == self.dims.len() {
            self.dims.push(len);
            return true;
        }
        if self.dims.get(depth) != Some(&len) {
            self.cut(depth);
            return false;
        }
        true
    }

    fn cut(&mut self, depth: usize) {
        self.ragged = true;
        self.max_dims = self.max_dims.min(depth);
        self.dims.truncate(depth);
    }

    fn visit(&mut self, v: &Nested, depth: usize) {
        match v {
            Nested::List(items) => {
                if self.sequence(depth, items.len()) {
                    for it in items {
                        self.visit(it, depth + 1);
                    }
                }
            }
            Nested::Array(h) => {
                self.dtype_seen(h.dtype());
                for (k, &len) in h.shape().iter().enumerate() {
                    if !self.sequence(depth + k, len) {
                        return;
                    }
                }
                self.leaf(depth + h.ndim());
            }
            Nested::Bool(_) => self.scalar(ScalarKind::Bool, depth),
            Nested::Int(_) => self.scalar(ScalarKind::Int, depth),
            Nested::Float(_) => self.scalar(ScalarKind::Float, depth),
        }
    }

    fn scalar(&mut self, kind: ScalarKind, depth: usize) {
        self.dtype_seen(DType::default_for(kind));
        self.leaf(depth);
    }

    /// Something with no dimensions below `depth`.
    fn leaf(&mut self, depth: usize) {
        if depth < self.dims.len() {
            self.cut(depth);
        } else {
            self.max_dims = self.max_dims.min(depth);
        }
    }
}

enum Leaf<'a> {
    Scalar(Scalar),
    Array(&'a HostArray),
}

fn collect_leaves<'a>(v: &'a Nested, out: &mut Vec<Leaf<'a>>) {
    match v {
        Nested::List(items) => items.iter().for_each(|it| collect_leaves(it, out)),
        Nested::Array(h) => out.push(Leaf::Array(h)),
        Nested::Bool(b) => out.push(Leaf::Scalar(Scalar::Bool(*b))),
        Nested::Int(i) => out.push(Leaf::Scalar(Scalar::Int(*i))),
        Nested::Float(f) => out.push(Leaf::Scalar(Scalar::Float(*f))),
    }
}

/// A Python scalar stored into an array of `dtype`, with numpy's checks
/// (`np.array([3000000000], dtype=np.int32)` is an `OverflowError`).
pub(crate) fn python_to(s: Scalar, dtype: DType) -> Result<Scalar> {
    let overflow = |v: &dyn std::fmt::Display| {
        HostError::new(
            ErrorKind::OverflowError,
            format!("Python integer {v} out of bounds for {dtype}"),
        )
    };
    match (s, dtype) {
        (Scalar::Int(i), DType::Int32) if i32::try_from(i).is_err() => Err(overflow(&i)),
        (Scalar::Int(i), DType::UInt8) if u8::try_from(i).is_err() => Err(overflow(&i)),
        (Scalar::Int(i), DType::Int8) if i8::try_from(i).is_err() => Err(overflow(&i)),
        (Scalar::Float(f), d) if d.is_int() => {
            let i = Scalar::Float(f).as_i64().map_err(|e| match e.kind {
                ErrorKind::Unsupported => HostError::new(
                    ErrorKind::OverflowError,
                    "Python int too large to convert to C long",
                ),
                _ => e,
            })?;
            python_to(Scalar::Int(i), d)
        }
        _ => Ok(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::Index;

    /// `elements` (iteration's one pass) gives what indexing each element
    /// gives, dtype and bits, for every dtype.
    #[test]
    fn elements_are_the_indexed_elements() {
        let values = [0.0, -1.5, 2.75, 1e30, -0.0, 7.0];
        for dtype in [
            DType::Bool,
            DType::Int8,
            DType::UInt8,
            DType::Int32,
            DType::Int64,
            DType::Float32,
            DType::Float64,
        ] {
            let a = HostArray::from_vec(&[values.len()], values.to_vec())
                .expect("an array")
                .astype(dtype);
            let got = a.elements();
            assert_eq!(got.len(), values.len());
            for (i, e) in got.iter().enumerate() {
                let want = a.index(&[Index::Int(i as i64)]).expect("in range");
                assert_eq!(e.dtype(), want.dtype());
                assert_eq!(e.shape(), want.shape());
                assert_eq!(format!("{:?}", e.item()), format!("{:?}", want.item()));
            }
        }
    }
}
