//! libstdc++'s `std::mt19937_64`, `std::uniform_real_distribution` and
//! `std::normal_distribution` (bits/random.h, bits/random.tcc), as
//! Paddle 3.3.1's CPU kernels use them:
//!
//! ```text
//! // phi/kernels/funcs/uniform_real_distribution.h, norm_distribution.h
//! std::uniform_real_distribution<T> dist(T(min), T(max));   // T = float or double
//! std::normal_distribution<T> dist(T(mean), T(std));
//! for (i = 0; i < size; ++i) data[i] = dist(*engine);
//! ```
//!
//! with `engine = std::mt19937_64(seed)` for a non-zero `seed` attribute
//! (an `int`, so a negative one converts to `seed as u64`), else the
//! device's global engine. Each kernel call makes a new distribution, so a
//! [`Normal`]'s saved value never outlives one op.
use rand_mt::Mt64;

/// `std::mt19937_64`.
#[derive(Debug, Clone)]
pub struct StdMt19937_64 {
    mt: Mt64,
}

impl StdMt19937_64 {
    /// `std::mt19937_64 e(seed)` (or `e.seed(seed)`).
    pub fn new(seed: u64) -> StdMt19937_64 {
        StdMt19937_64 {
            mt: Mt64::new(seed),
        }
    }

    /// `e()`.
    pub fn next_u64(&mut self) -> u64 {
        self.mt.next_u64()
    }

    /// `std::generate_canonical<T, numeric_limits<T>::digits>(e)`.
    pub fn canonical<T: StdReal>(&mut self) -> T {
        T::canonical(self.next_u64())
    }
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The two `result_type`s Paddle instantiates the distributions with,
/// `float` and `double`, and the arithmetic libstdc++ does in each.
pub trait StdReal: Copy + PartialOrd + sealed::Sealed {
    /// `generate_canonical<T, digits>` of one 64-bit draw: one draw is
    /// enough for both types (`m = max(1, ceil(digits / 64)) = 1`), so it
    /// is `T(x) / 2**64` (the conversion rounding to nearest), and a
    /// result that rounds up to 1 becomes `nextafter(1, 0)`.
    fn canonical(x: u64) -> Self;
    /// `u * (b - a) + a` in `T`, not fused.
    fn scale(u: Self, a: Self, b: Self) -> Self;
    /// One polar coordinate: `result_type(2.0) * u - 1.0` (for `float`,
    /// the subtraction is in double, then rounded to float).
    fn coordinate(u: Self) -> Self;
    /// `x * x + y * y` and whether libstdc++ rejects it (`r2 > 1.0 ||
    /// r2 == 0.0`).
    fn radius(x: Self, y: Self) -> (Self, bool);
    /// `std::sqrt(-2 * std::log(r2) / r2)` in `T` (`logf`/`sqrtf` for
    /// float).
    fn multiplier(r2: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    /// `v * s + m` in `T`, not fused.
    fn affine(v: Self, s: Self, m: Self) -> Self;
}

/// The `StdReal` of a float type: `nextafter(1, 0)` and the polar
/// coordinate differ, the rest is the same arithmetic in the type.
macro_rules! std_real {
    ($t:ty, $below_one:expr, $coordinate:expr) => {
        impl StdReal for $t {
            fn canonical(x: u64) -> $t {
                let r = x as $t / 18_446_744_073_709_551_616.0;
                if r >= 1.0 {
                    $below_one
                } else {
                    r
                }
            }
            fn scale(u: $t, a: $t, b: $t) -> $t {
                u * (b - a) + a
            }
            fn coordinate(u: $t) -> $t {
                let coordinate: fn($t) -> $t = $coordinate;
                coordinate(u)
            }
            fn radius(x: $t, y: $t) -> ($t, bool) {
                let r2 = x * x + y * y;
                (r2, r2 > 1.0 || r2 == 0.0)
            }
            fn multiplier(r2: $t) -> $t {
                (-2.0 * r2.ln() / r2).sqrt()
            }
            fn mul(a: $t, b: $t) -> $t {
                a * b
            }
            fn affine(v: $t, s: $t, m: $t) -> $t {
                v * s + m
            }
        }
    };
}

// `float(2.0) * u - 1.0`: the product in float, the difference in double.
std_real!(
    f32,
    f32::from_bits(0x3f7f_ffff),
    |u| (f64::from(2.0 * u) - 1.0) as f32
);
std_real!(f64, f64::from_bits(0x3fef_ffff_ffff_ffff), |u| 2.0 * u
    - 1.0);

/// `std::uniform_real_distribution<T>(a, b)`: `canonical * (b - a) + a`.
#[derive(Debug, Clone, Copy)]
pub struct UniformReal<T> {
    a: T,
    b: T,
}

impl<T: StdReal> UniformReal<T> {
    pub fn new(a: T, b: T) -> UniformReal<T> {
        UniformReal { a, b }
    }

    pub fn sample(&self, engine: &mut StdMt19937_64) -> T {
        T::scale(engine.canonical(), self.a, self.b)
    }
}

/// `std::normal_distribution<T>(mean, stddev)`: Marsaglia's polar method,
/// whose second value the distribution object keeps for its next call.
#[derive(Debug, Clone, Copy)]
pub struct Normal<T> {
    mean: T,
    stddev: T,
    saved: Option<T>,
}

impl<T: StdReal> Normal<T> {
    pub fn new(mean: T, stddev: T) -> Normal<T> {
        Normal {
            mean,
            stddev,
            saved: None,
        }
    }

    pub fn sample(&mut self, engine: &mut StdMt19937_64) -> T {
        let value = match self.saved.take() {
            Some(v) => v,
            None => loop {
                let x = T::coordinate(engine.canonical());
                let y = T::coordinate(engine.canonical());
                let (r2, reject) = T::radius(x, y);
                if !reject {
                    let mult = T::multiplier(r2);
                    self.saved = Some(T::mul(x, mult));
                    break T::mul(y, mult);
                }
            },
        };
        T::affine(value, self.stddev, self.mean)
    }
}

/// Paddle 3.3.1's CPU `uniform_random` of `count` values with a non-zero
/// `seed`: `uniform_real_distribution<T>(T(min), T(max))` over
/// `mt19937_64(seed)` (`min`/`max` are the op's float attributes).
pub fn paddle_uniform<T: StdReal + From<f32>>(
    seed: u64,
    count: usize,
    min: f32,
    max: f32,
) -> Vec<T> {
    let dist = UniformReal::new(T::from(min), T::from(max));
    draws(seed, count, |engine| dist.sample(engine))
}

/// Paddle 3.3.1's CPU `gaussian_random` of `count` values with a
/// non-zero `seed`: `normal_distribution<T>(T(mean), T(std))` over
/// `mt19937_64(seed)`.
pub fn paddle_gaussian<T: StdReal + From<f32>>(
    seed: u64,
    count: usize,
    mean: f32,
    std: f32,
) -> Vec<T> {
    let mut dist = Normal::new(T::from(mean), T::from(std));
    draws(seed, count, |engine| dist.sample(engine))
}

/// `count` values of `sample` over a fresh `mt19937_64(seed)`.
fn draws<T>(seed: u64, count: usize, mut sample: impl FnMut(&mut StdMt19937_64) -> T) -> Vec<T> {
    let mut engine = StdMt19937_64::new(seed);
    (0..count).map(|_| sample(&mut engine)).collect()
}
