//! Arithmetic on the numeric element types, with Paddle's kernel semantics:
//! integers wrap instead of panicking on overflow, integer division
//! truncates toward zero (C++ `/`), `mod` and `floordiv` follow Python's sign
//! rules as Paddle's `RemainderFunctor` and `FloorDivideFunctor` do, integer
//! `pow` rounds the double result (`std::llrint(std::pow(a, b))`).
use super::Element;

pub trait Num: Element {
    const IS_INT: bool;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// Callers reject integer division by zero first.
    fn div(self, o: Self) -> Self;
    fn rem_floor(self, o: Self) -> Self;
    fn floor_div(self, o: Self) -> Self;
    fn pow(self, o: Self) -> Self;
    fn max_of(self, o: Self) -> Self;
    fn min_of(self, o: Self) -> Self;
    fn abs_of(self) -> Self;
}

macro_rules! int_num {
    ($t:ty) => {
        impl Num for $t {
            const IS_INT: bool = true;
            fn add(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn sub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            fn mul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            fn div(self, o: Self) -> Self {
                self.wrapping_div(o)
            }
            fn rem_floor(self, o: Self) -> Self {
                let r = self.wrapping_rem(o);
                if r != 0 && ((r < 0) != (o < 0)) {
                    r.wrapping_add(o)
                } else {
                    r
                }
            }
            fn floor_div(self, o: Self) -> Self {
                let q = self.wrapping_div(o);
                if (self < 0) != (o < 0) && self.wrapping_rem(o) != 0 {
                    q.wrapping_sub(1)
                } else {
                    q
                }
            }
            fn pow(self, o: Self) -> Self {
                (self as f64).powf(o as f64).round_ties_even() as $t
            }
            fn max_of(self, o: Self) -> Self {
                self.max(o)
            }
            fn min_of(self, o: Self) -> Self {
                self.min(o)
            }
            fn abs_of(self) -> Self {
                self.wrapping_abs()
            }
        }
    };
}

macro_rules! float_num {
    ($t:ty) => {
        impl Num for $t {
            const IS_INT: bool = false;
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn sub(self, o: Self) -> Self {
                self - o
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn div(self, o: Self) -> Self {
                self / o
            }
            fn rem_floor(self, o: Self) -> Self {
                let r = self % o;
                if r != 0.0 && ((r < 0.0) != (o < 0.0)) {
                    r + o
                } else {
                    r
                }
            }
            /// Python's float floor division, as Paddle's functor computes it.
            fn floor_div(self, o: Self) -> Self {
                if o == 0.0 {
                    return self / o;
                }
                let m = self % o;
                let mut div = (self - m) / o;
                if m != 0.0 && ((o < 0.0) != (m < 0.0)) {
                    div -= 1.0;
                }
                if div == 0.0 {
                    return (0.0 as $t).copysign(self / o);
                }
                let mut f = div.floor();
                if div - f > 0.5 {
                    f += 1.0;
                }
                f
            }
            fn pow(self, o: Self) -> Self {
                self.powf(o)
            }
            fn max_of(self, o: Self) -> Self {
                // Paddle's kernels use `a > b ? a : b`; NaN in either yields b.
                if self > o {
                    self
                } else {
                    o
                }
            }
            fn min_of(self, o: Self) -> Self {
                if self < o {
                    self
                } else {
                    o
                }
            }
            fn abs_of(self) -> Self {
                self.abs()
            }
        }
    };
}

int_num!(i32);
int_num!(i64);
float_num!(f32);
float_num!(f64);

/// Calls `$body` with `$a`, `$b` bound to the typed slices of two `Data` of
/// the same numeric dtype and `$T` to the element type; `$mismatch` otherwise
/// (different dtypes, or bools).
macro_rules! with_numeric_pair {
    ($x:expr, $y:expr, |$a:ident, $b:ident : $T:ident| $body:expr, $mismatch:expr) => {
        match ($x, $y) {
            ($crate::tensor::Data::Int32($a), $crate::tensor::Data::Int32($b)) => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            ($crate::tensor::Data::Int64($a), $crate::tensor::Data::Int64($b)) => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            ($crate::tensor::Data::Float32($a), $crate::tensor::Data::Float32($b)) => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            ($crate::tensor::Data::Float64($a), $crate::tensor::Data::Float64($b)) => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
            _ => $mismatch,
        }
    };
}
pub(crate) use with_numeric_pair;

/// Calls `$body` with `$v` bound to the typed slice of a numeric `Data` and
/// `$T` to its element type; `$other` for bools (and int8, which no
/// kernel computes in).
macro_rules! with_numeric {
    ($x:expr, |$v:ident : $T:ident| $body:expr, $other:expr) => {
        match $x {
            $crate::tensor::Data::Int32($v) => {
                #[allow(dead_code)]
                type $T = i32;
                $body
            }
            $crate::tensor::Data::Int64($v) => {
                #[allow(dead_code)]
                type $T = i64;
                $body
            }
            $crate::tensor::Data::Float32($v) => {
                #[allow(dead_code)]
                type $T = f32;
                $body
            }
            $crate::tensor::Data::Float64($v) => {
                #[allow(dead_code)]
                type $T = f64;
                $body
            }
            $crate::tensor::Data::Bool(_) | $crate::tensor::Data::Int8(_) => $other,
        }
    };
}
pub(crate) use with_numeric;

/// Calls `$body` with `$T` bound to the element type of a numeric dtype
/// `$kind`; evaluates `$other` for any other dtype.
macro_rules! with_numeric_dtype {
    ($kind:expr, |$T:ident| $body:expr, $other:expr) => {
        match $kind {
            fluidc_transpiler::VarKind::Int32 => {
                type $T = i32;
                $body
            }
            fluidc_transpiler::VarKind::Int64 => {
                type $T = i64;
                $body
            }
            fluidc_transpiler::VarKind::Fp32 => {
                type $T = f32;
                $body
            }
            fluidc_transpiler::VarKind::Fp64 => {
                type $T = f64;
                $body
            }
            _ => $other,
        }
    };
}
pub(crate) use with_numeric_dtype;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_style_mod_and_floordiv() {
        assert_eq!((-7i64).rem_floor(2), 1);
        assert_eq!(7i64.rem_floor(-2), -1);
        assert_eq!((-7i64).floor_div(2), -4);
        assert_eq!(7i64.floor_div(2), 3);
        assert_eq!((-7i64).div(2), -3, "div truncates");
        assert_eq!((-7.5f64).rem_floor(2.0), 0.5);
        assert_eq!((-7.0f64).floor_div(2.0), -4.0);
        assert_eq!(2i64.pow(10), 1024);
        assert_eq!(i64::MAX.add(1), i64::MIN, "wraps, never panics");
    }
}
