//! The five dtypes, Python scalars, element casts and numpy's type
//! promotion.
//!
//! Promotion follows numpy 2 (NEP 50), which the interop venv runs:
//! - array ⊕ array (0-d arrays and numpy scalars included): `np.result_type`
//!   of the two dtypes: the larger of bool < int32 < int64 < float32 <
//!   float64, except that an integer with float32 gives float64;
//! - array ⊕ Python scalar: the scalar is *weak*: a Python `bool` takes the
//!   array's dtype; a Python `int` takes the array's dtype unless the array
//!   is bool (then int64), and must fit it (`OverflowError: Python integer
//!   3000000000 out of bounds for int32`), except in comparisons, which
//!   compare exactly; a Python `float` takes a float array's dtype (float32
//!   stays float32) and makes bool and integer arrays float64;
//! - two Python scalars: bool, int64 or float64, the larger kind.
//!
//! True division of bools and integers gives float64.
use std::fmt;

use ndarray::ArrayD;

use super::error::{ErrorKind, HostError, Result};
use super::HostArray;

/// An array's element type, with numpy's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    /// Quantized tensors' dtype (1.x's int8 `LoDTensor`s).
    Int8,
    /// Images' dtype (`np.array(img)`, numpy-1 pickles of pictures).
    UInt8,
    Int32,
    Int64,
    Float32,
    Float64,
}

impl DType {
    pub const ALL: [DType; 7] = [
        DType::Bool,
        DType::Int8,
        DType::UInt8,
        DType::Int32,
        DType::Int64,
        DType::Float32,
        DType::Float64,
    ];

    /// numpy's name: `bool`, `int32`, `int64`, `float32`, `float64`.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int8 => "int8",
            DType::UInt8 => "uint8",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
        }
    }

    /// A dtype as a script names it: numpy names and aliases (`"float32"`,
    /// `"f4"`, `"float"`, `"int"`, `"bool_"`, ...) and Paddle's
    /// (`"fp32"`).
    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "bool" | "bool_" | "?" | "b1" => DType::Bool,
            "int8" | "i1" | "|i1" | "<i1" | "byte" | "b" => DType::Int8,
            "uint8" | "u1" | "|u1" | "<u1" | "ubyte" | "B" => DType::UInt8,
            "int32" | "i4" | "<i4" | "intc" => DType::Int32,
            "int64" | "i8" | "<i8" | "int" | "int_" | "long" | "intp" => DType::Int64,
            "float32" | "f4" | "<f4" | "single" | "fp32" => DType::Float32,
            "float64" | "f8" | "<f8" | "float" | "double" | "float_" | "fp64" => DType::Float64,
            _ => return None,
        })
    }

    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }

    pub fn is_int(self) -> bool {
        matches!(
            self,
            DType::Int8 | DType::UInt8 | DType::Int32 | DType::Int64
        )
    }

    pub fn is_float(self) -> bool {
        matches!(self, DType::Float32 | DType::Float64)
    }

    /// `np.result_type(a, b)` of two dtypes.
    pub fn promote(a: DType, b: DType) -> DType {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let small = |d: DType| matches!(d, DType::Int8 | DType::UInt8);
        if lo == DType::Int8 && hi == DType::UInt8 {
            // numpy's int16, a dtype fluidc lacks (docs/numpy.md).
            DType::Int32
        } else if hi == DType::Float32 && lo.is_int() && !small(lo) {
            // int8 and uint8 fit float32 exactly; int32 and int64 do not.
            DType::Float64
        } else {
            hi
        }
    }

    /// The dtype an array of this dtype and a weak Python scalar of `kind`
    /// compute in (see the module docs).
    pub fn promote_weak(self, kind: ScalarKind) -> DType {
        match kind {
            ScalarKind::Bool => self,
            ScalarKind::Int if self.is_bool() => DType::Int64,
            ScalarKind::Int => self,
            ScalarKind::Float if self.is_float() => self,
            ScalarKind::Float => DType::Float64,
        }
    }

    /// The dtype numpy gives a Python scalar of `kind` on its own.
    pub fn default_for(kind: ScalarKind) -> DType {
        match kind {
            ScalarKind::Bool => DType::Bool,
            ScalarKind::Int => DType::Int64,
            ScalarKind::Float => DType::Float64,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The kind of a Python scalar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ScalarKind {
    Bool,
    Int,
    Float,
}

/// A Python scalar: what `item()` returns, and a weakly typed operand.
/// Every element of every dtype is exactly one of these (int32 values
/// widen to `Int`, float32 values to `Float`, both exactly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Float(f64),
}

impl Scalar {
    pub fn kind(self) -> ScalarKind {
        match self {
            Scalar::Bool(_) => ScalarKind::Bool,
            Scalar::Int(_) => ScalarKind::Int,
            Scalar::Float(_) => ScalarKind::Float,
        }
    }

    /// The value as a Python float (`float(x)`).
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => f64::from(u8::from(b)),
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }

    /// The value as a Python int (`int(x)`): floats truncate; NaN and
    /// infinities are Python's errors.
    pub fn as_i64(self) -> Result<i64> {
        match self {
            Scalar::Bool(b) => Ok(i64::from(b)),
            Scalar::Int(i) => Ok(i),
            Scalar::Float(f) if f.is_nan() => Err(HostError::value_error(
                "cannot convert float NaN to integer",
            )),
            Scalar::Float(f) if f.is_infinite() => Err(HostError::new(
                ErrorKind::OverflowError,
                "cannot convert float infinity to integer",
            )),
            Scalar::Float(f) => {
                let t = f.trunc();
                if (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&t) {
                    Ok(t as i64)
                } else {
                    Err(HostError::unsupported(format!(
                        "int() of {t} does not fit in 64 bits"
                    )))
                }
            }
        }
    }

    /// Python's truth value (`bool(x)`).
    pub fn truthy(self) -> bool {
        match self {
            Scalar::Bool(b) => b,
            Scalar::Int(i) => i != 0,
            Scalar::Float(f) => f != 0.0,
        }
    }
}

/// The element types of [`super::HostArray`], with numpy's casts between
/// them.
pub trait Elem: Copy + PartialOrd + fmt::Debug + Send + Sync + 'static {
    const DTYPE: DType;
    const ZERO: Self;
    const ONE: Self;
    /// The element exactly, as a Python scalar.
    fn scalar(self) -> Scalar;
    /// numpy's cast (`astype`) from any element: ints wrap, floats
    /// truncate toward zero (NaN and out-of-range values give the most
    /// negative integer, as numpy does on x86-64), anything nonzero is
    /// `True`.
    fn cast_from(v: Scalar) -> Self;
    /// The array of this element type as a [`HostArray`].
    fn wrap(a: ArrayD<Self>) -> HostArray;
    /// The array if it holds this element type.
    fn get(h: &HostArray) -> Option<&ArrayD<Self>>;
}

/// The [`Elem::wrap`] and [`Elem::get`] of one variant.
macro_rules! variant {
    ($variant:ident) => {
        fn wrap(a: ArrayD<Self>) -> HostArray {
            HostArray::$variant(a)
        }
        fn get(h: &HostArray) -> Option<&ArrayD<Self>> {
            match h {
                HostArray::$variant(a) => Some(a),
                _ => None,
            }
        }
    };
}

impl Elem for bool {
    variant!(Bool);
    const DTYPE: DType = DType::Bool;
    const ZERO: Self = false;
    const ONE: Self = true;
    fn scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    fn cast_from(v: Scalar) -> Self {
        v.truthy()
    }
}

impl Elem for i8 {
    variant!(Int8);
    const DTYPE: DType = DType::Int8;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn scalar(self) -> Scalar {
        Scalar::Int(i64::from(self))
    }
    /// Integers wrap; floats go through a 32-bit integer first, as numpy's
    /// cast does on x86-64 (NaN and values out of range give 0).
    fn cast_from(v: Scalar) -> Self {
        match v {
            Scalar::Bool(b) => i8::from(b),
            Scalar::Int(i) => i as i8,
            Scalar::Float(f) => {
                truncate(f, -2_147_483_648.0, 2_147_483_648.0).map_or(0, |t| t as i32 as i8)
            }
        }
    }
}

impl Elem for u8 {
    variant!(UInt8);
    const DTYPE: DType = DType::UInt8;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn scalar(self) -> Scalar {
        Scalar::Int(i64::from(self))
    }
    /// Integers wrap; floats go through a 32-bit integer first, as numpy's
    /// cast does on x86-64 (NaN and values out of range give 0).
    fn cast_from(v: Scalar) -> Self {
        match v {
            Scalar::Bool(b) => u8::from(b),
            Scalar::Int(i) => i as u8,
            Scalar::Float(f) => {
                truncate(f, -2_147_483_648.0, 2_147_483_648.0).map_or(0, |t| t as i32 as u8)
            }
        }
    }
}

/// numpy's float to integer cast on x86-64: truncation, and the "integer
/// indefinite" value (the minimum) for NaN and values out of range.
fn truncate(f: f64, min: f64, max_exclusive: f64) -> Option<f64> {
    let t = f.trunc();
    (t >= min && t < max_exclusive).then_some(t)
}

impl Elem for i32 {
    variant!(Int32);
    const DTYPE: DType = DType::Int32;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn scalar(self) -> Scalar {
        Scalar::Int(i64::from(self))
    }
    fn cast_from(v: Scalar) -> Self {
        match v {
            Scalar::Bool(b) => i32::from(b),
            Scalar::Int(i) => i as i32,
            Scalar::Float(f) => {
                truncate(f, -2_147_483_648.0, 2_147_483_648.0).map_or(i32::MIN, |t| t as i32)
            }
        }
    }
}

impl Elem for i64 {
    variant!(Int64);
    const DTYPE: DType = DType::Int64;
    const ZERO: Self = 0;
    const ONE: Self = 1;
    fn scalar(self) -> Scalar {
        Scalar::Int(self)
    }
    fn cast_from(v: Scalar) -> Self {
        match v {
            Scalar::Bool(b) => i64::from(b),
            Scalar::Int(i) => i,
            Scalar::Float(f) => truncate(f, -9.223_372_036_854_776e18, 9.223_372_036_854_776e18)
                .map_or(i64::MIN, |t| t as i64),
        }
    }
}

impl Elem for f32 {
    variant!(Float32);
    const DTYPE: DType = DType::Float32;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn scalar(self) -> Scalar {
        Scalar::Float(f64::from(self))
    }
    fn cast_from(v: Scalar) -> Self {
        match v {
            Scalar::Bool(b) => f32::from(u8::from(b)),
            // One rounding, straight from the integer, as C's cast.
            Scalar::Int(i) => i as f32,
            Scalar::Float(f) => f as f32,
        }
    }
}

impl Elem for f64 {
    variant!(Float64);
    const DTYPE: DType = DType::Float64;
    const ZERO: Self = 0.0;
    const ONE: Self = 1.0;
    fn scalar(self) -> Scalar {
        Scalar::Float(self)
    }
    fn cast_from(v: Scalar) -> Self {
        v.as_f64()
    }
}

/// Casts one element to another element type (numpy's `astype`).
pub fn cast<A: Elem, B: Elem>(a: A) -> B {
    B::cast_from(a.scalar())
}
