//! Random numbers bit for bit as Paddle 3.3.1's CPU kernels draw them
//! (docs/training.md): libstdc++'s `std::mt19937_64`, `std::seed_seq`,
//! `std::uniform_real_distribution` and `std::normal_distribution`
//! (bits/random.h, bits/random.tcc), and Paddle's truncated normal.
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
//! device's global engine: Paddle's `Generator`, whose `paddle.seed(n)`
//! seeds it with `std::seed_seq{n}`. The runtime's counterpart is the
//! session's engine ([`session_engine`]): seeded from `SessionOptions.seed`
//! (`fluidc run --seed N`) as `paddle.seed(N)` seeds Paddle's, else from a
//! fresh random seed; its draws continue from run to run, as Paddle's
//! global engine does. Each kernel call makes a new distribution, so a
//! [`Normal`]'s saved value never outlives one op.
//!
//! The front end's host numpy (`fluidc run` on scripts) uses these engines
//! too, so there is one implementation.
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

/// `std::mt19937_64`'s state length.
const NN: usize = 312;
const MM: usize = 156;
const MATRIX_A: u64 = 0xB502_6F5A_A966_19E9;
const UPPER: u64 = 0xFFFF_FFFF_8000_0000;
const LOWER: u64 = 0x7FFF_FFFF;

/// `std::mt19937_64`.
#[derive(Clone)]
pub struct StdMt19937_64 {
    state: Box<[u64; NN]>,
    index: usize,
}

impl std::fmt::Debug for StdMt19937_64 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdMt19937_64")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl StdMt19937_64 {
    /// `std::mt19937_64 e(seed)` (or `e.seed(seed)`).
    pub fn new(seed: u64) -> StdMt19937_64 {
        let mut state = Box::new([0u64; NN]);
        state[0] = seed;
        for i in 1..NN {
            let prev = state[i - 1];
            state[i] = 6_364_136_223_846_793_005u64
                .wrapping_mul(prev ^ (prev >> 62))
                .wrapping_add(i as u64);
        }
        StdMt19937_64 { state, index: NN }
    }

    /// `std::seed_seq seq(seeds); std::mt19937_64 e(seq)`: how Paddle's
    /// `Generator` seeds its engine (`paddle.seed(n)` is `seeds = [n]`;
    /// libstdc++ keeps each seed's low 32 bits).
    pub fn from_seed_seq(seeds: &[u64]) -> StdMt19937_64 {
        let words = seed_seq_generate(seeds, NN * 2);
        let mut state = Box::new([0u64; NN]);
        for (i, s) in state.iter_mut().enumerate() {
            *s = u64::from(words[2 * i]) | (u64::from(words[2 * i + 1]) << 32);
        }
        // All-zero state (but for the top bit of the first word) is
        // replaced, as the standard requires.
        if state[0] & UPPER == 0 && state[1..].iter().all(|&w| w == 0) {
            state[0] = 1 << 63;
        }
        StdMt19937_64 { state, index: NN }
    }

    fn twist(&mut self) {
        let s = &mut self.state;
        for i in 0..NN {
            let y = (s[i] & UPPER) | (s[(i + 1) % NN] & LOWER);
            let mut v = s[(i + MM) % NN] ^ (y >> 1);
            if y & 1 != 0 {
                v ^= MATRIX_A;
            }
            s[i] = v;
        }
        self.index = 0;
    }

    /// `e()`.
    pub fn next_u64(&mut self) -> u64 {
        if self.index >= NN {
            self.twist();
        }
        let mut z = self.state[self.index];
        self.index += 1;
        z ^= (z >> 29) & 0x5555_5555_5555_5555;
        z ^= (z << 17) & 0x71D6_7FFF_EDA6_0000;
        z ^= (z << 37) & 0xFFF7_EEE0_0000_0000;
        z ^ (z >> 43)
    }

    /// `std::generate_canonical<T, numeric_limits<T>::digits>(e)`.
    pub fn canonical<T: StdReal>(&mut self) -> T {
        T::canonical(self.next_u64())
    }
}

/// `std::seed_seq(seeds).generate(out, out + n)` (C++11 [rand.util.seedseq]).
fn seed_seq_generate(seeds: &[u64], n: usize) -> Vec<u32> {
    let v: Vec<u32> = seeds.iter().map(|&s| s as u32).collect();
    let mut b = vec![0x8b8b_8b8bu32; n];
    if n == 0 {
        return b;
    }
    let s = v.len();
    let t = if n >= 623 {
        11
    } else if n >= 68 {
        7
    } else if n >= 39 {
        5
    } else if n >= 7 {
        3
    } else {
        (n - 1) / 2
    };
    let p = (n - t) / 2;
    let q = p + t;
    let m = (s + 1).max(n);
    let tf = |x: u32| x ^ (x >> 27);
    for k in 0..m {
        let r1 = 1_664_525u32.wrapping_mul(tf(b[k % n] ^ b[(k + p) % n] ^ b[(k + n - 1) % n]));
        let r2 = r1.wrapping_add(if k == 0 {
            s as u32
        } else if k <= s {
            ((k % n) as u32).wrapping_add(v[k - 1])
        } else {
            (k % n) as u32
        });
        b[(k + p) % n] = b[(k + p) % n].wrapping_add(r1);
        b[(k + q) % n] = b[(k + q) % n].wrapping_add(r2);
        b[k % n] = r2;
    }
    for k in m..m + n {
        let r3 = 1_566_083_941u32.wrapping_mul(tf(b[k % n]
            .wrapping_add(b[(k + p) % n])
            .wrapping_add(b[(k + n - 1) % n])));
        let r4 = r3.wrapping_sub((k % n) as u32);
        b[(k + p) % n] ^= r3;
        b[(k + q) % n] ^= r4;
        b[k % n] = r4;
    }
    b
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
    /// To double, exactly.
    fn widen(self) -> f64;
    /// From double, rounding to nearest.
    fn narrow(v: f64) -> Self;
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
            fn widen(self) -> f64 {
                f64::from(self)
            }
            fn narrow(v: f64) -> $t {
                v as $t
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

/// `std::uniform_int_distribution<int>(a, b)(e)` with a 64-bit engine, as
/// libstdc++ draws it: Lemire's nearly divisionless method in 128 bits
/// (the engine's range is the full 64 bits).
pub fn uniform_int(engine: &mut StdMt19937_64, a: i64, b: i64) -> i64 {
    let range = (b - a) as u64;
    if range == u64::MAX {
        return engine.next_u64() as i64;
    }
    let range = range + 1;
    let mut product = u128::from(engine.next_u64()) * u128::from(range);
    let mut low = product as u64;
    if low < range {
        let threshold = range.wrapping_neg() % range;
        while low < threshold {
            product = u128::from(engine.next_u64()) * u128::from(range);
            low = product as u64;
        }
    }
    a + (product >> 64) as i64
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

/// Paddle's `TruncatedNormal<T>` (phi/kernels/funcs/truncated_normal.h)
/// over `uniform_real_distribution<T>(FLT_MIN, 1.0)`: the inverse normal
/// CDF of a uniform draw between the CDFs of `a` and `b`, clamped to
/// `[a, b]`. The mixed float/double arithmetic of the C++ is kept: its
/// double literals promote, and results round to `T` where it assigns.
#[derive(Debug, Clone, Copy)]
pub struct TruncatedNormal<T> {
    mean: T,
    std: T,
    a: T,
    b: T,
    a_cdf: T,
    b_cdf: T,
    dist: UniformReal<T>,
}

impl<T: StdReal + Erfinv> TruncatedNormal<T> {
    pub fn new(mean: T, std: T, a: T, b: T) -> TruncatedNormal<T> {
        // The C++ lambda returns double; the member is T.
        let cdf = |x: T| {
            let r = (1.0 + libm::erf(x.widen() / std::f64::consts::SQRT_2)) / 2.0;
            T::narrow(r)
        };
        TruncatedNormal {
            mean,
            std,
            a,
            b,
            a_cdf: cdf(T::div_t(T::sub(a, mean), std)),
            b_cdf: cdf(T::div_t(T::sub(b, mean), std)),
            dist: UniformReal::new(T::narrow(f64::from(f32::MIN_POSITIVE)), T::narrow(1.0)),
        }
    }

    pub fn sample(&self, engine: &mut StdMt19937_64) -> T {
        let u = self.dist.sample(engine);
        // p = a_cdf + (b_cdf - a_cdf) * u, in T.
        let p = T::add_t(self.a_cdf, T::mul(T::sub(self.b_cdf, self.a_cdf), u));
        let x = T::sub(T::mul(T::narrow(2.0), p), T::narrow(1.0));
        let e = T::erfinv(x);
        let ret =
            T::narrow(std::f64::consts::SQRT_2 * e.widen() * self.std.widen() + self.mean.widen());
        if ret < self.a {
            self.a
        } else if self.b < ret {
            self.b
        } else {
            ret
        }
    }
}

/// Paddle's `Erfinv<T>` (phi/kernels/funcs/truncated_normal.h), with the
/// C++'s promotions: its constants are `T`, its double literals promote
/// the expression to double, which rounds to `T` where it is assigned.
pub trait Erfinv: StdReal {
    fn erfinv(x: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn add_t(a: Self, b: Self) -> Self;
    fn div_t(a: Self, b: Self) -> Self;
}

macro_rules! erfinv {
    ($t:ty) => {
        impl Erfinv for $t {
            fn sub(a: $t, b: $t) -> $t {
                a - b
            }
            fn add_t(a: $t, b: $t) -> $t {
                a + b
            }
            fn div_t(a: $t, b: $t) -> $t {
                a / b
            }
            // The C++ constants as written (clippy would round them or name them).
            #[allow(
                clippy::excessive_precision,
                clippy::unreadable_literal,
                clippy::approx_constant
            )]
            fn erfinv(x: $t) -> $t {
                if !(-1.0..=1.0).contains(&x) {
                    return <$t>::NAN;
                } else if x == 1.0 {
                    return <$t>::INFINITY;
                } else if x == -1.0 {
                    return <$t>::NEG_INFINITY;
                }
                const LN2: $t = 6.931471805599453094172321214581e-1;
                const A: [$t; 8] = [
                    1.1975323115670912564578e0,
                    4.7072688112383978012285e1,
                    6.9706266534389598238465e2,
                    4.8548868893843886794648e3,
                    1.6235862515167575384252e4,
                    2.3782041382114385731252e4,
                    1.1819493347062294404278e4,
                    8.8709406962545514830200e2,
                ];
                const B: [$t; 8] = [
                    1.0000000000000000000e0,
                    4.2313330701600911252e1,
                    6.8718700749205790830e2,
                    5.3941960214247511077e3,
                    2.1213794301586595867e4,
                    3.9307895800092710610e4,
                    2.8729085735721942674e4,
                    5.2264952788528545610e3,
                ];
                const C: [$t; 8] = [
                    1.42343711074968357734e0,
                    4.63033784615654529590e0,
                    5.76949722146069140550e0,
                    3.64784832476320460504e0,
                    1.27045825245236838258e0,
                    2.41780725177450611770e-1,
                    2.27238449892691845833e-2,
                    7.74545014278341407640e-4,
                ];
                const D: [$t; 8] = [
                    1.4142135623730950488016887e0,
                    2.9036514445419946173133295e0,
                    2.3707661626024532365971225e0,
                    9.7547832001787427186894837e-1,
                    2.0945065210512749128288442e-1,
                    2.1494160384252876777097297e-2,
                    7.7441459065157709165577218e-4,
                    1.4859850019840355905497876e-9,
                ];
                const E: [$t; 8] = [
                    6.65790464350110377720e0,
                    5.46378491116411436990e0,
                    1.78482653991729133580e0,
                    2.96560571828504891230e-1,
                    2.65321895265761230930e-2,
                    1.24266094738807843860e-3,
                    2.71155556874348757815e-5,
                    2.01033439929228813265e-7,
                ];
                const F: [$t; 8] = [
                    1.414213562373095048801689e0,
                    8.482908416595164588112026e-1,
                    1.936480946950659106176712e-1,
                    2.103693768272068968719679e-2,
                    1.112800997078859844711555e-3,
                    2.611088405080593625138020e-5,
                    2.010321207683943062279931e-7,
                    2.891024605872965461538222e-15,
                ];
                let poly = |c: &[$t; 8], r: $t| {
                    (((((((c[7] * r + c[6]) * r + c[5]) * r + c[4]) * r + c[3]) * r + c[2]) * r
                        + c[1])
                        * r
                        + c[0])
                };
                let abs_x = x.abs();
                let xd = x as f64;
                if abs_x <= 0.85 {
                    let r = (0.180625 - 0.25 * xd * xd) as $t;
                    return x * poly(&A, r) / poly(&B, r);
                }
                let r = ((LN2 as f64) - (1.0 - abs_x as f64).ln()).sqrt() as $t;
                let (num, den) = if r <= 5.0 {
                    let r = ((r as f64) - 1.6) as $t;
                    (poly(&C, r), poly(&D, r))
                } else {
                    let r = ((r as f64) - 5.0) as $t;
                    (poly(&E, r), poly(&F, r))
                };
                if x < 0.0 {
                    -num / den
                } else {
                    num / den
                }
            }
        }
    };
}
erfinv!(f32);
erfinv!(f64);

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

/// A session's engine (Paddle's global `Generator`'s CPU engine), shared
/// by the threads that run its programs.
pub type SharedEngine = Arc<Mutex<LazyEngine>>;

/// An engine seeded at its first draw: seeding through `seed_seq` costs
/// more than running a small program, and most sessions never draw
/// (`fold_constants` runs a session for every op it folds).
#[derive(Debug)]
pub struct LazyEngine {
    seed: u64,
    engine: Option<StdMt19937_64>,
}

impl LazyEngine {
    fn get(&mut self) -> &mut StdMt19937_64 {
        let seed = self.seed;
        self.engine
            .get_or_insert_with(|| StdMt19937_64::from_seed_seq(&[seed]))
    }
}

/// A session's engine seeded as `paddle.seed(seed)` seeds Paddle's.
pub fn seeded_engine(seed: u64) -> SharedEngine {
    Arc::new(Mutex::new(LazyEngine { seed, engine: None }))
}

thread_local! {
    static ENGINE: RefCell<Option<SharedEngine>> = const { RefCell::new(None) };
}

/// The engine of the session running on this thread, if one is set
/// ([`use_engine`]).
pub(crate) fn session_engine() -> Option<SharedEngine> {
    ENGINE.with(|e| e.borrow().clone())
}

/// Makes `engine` this thread's session engine until the guard drops (the
/// session sets it for the run; the scheduler hands it to its workers).
pub(crate) fn use_engine(engine: Option<SharedEngine>) -> EngineGuard {
    EngineGuard {
        previous: ENGINE.with(|e| e.replace(engine)),
    }
}

/// Restores the previous engine when dropped (see [`use_engine`]).
#[derive(Debug)]
pub(crate) struct EngineGuard {
    previous: Option<SharedEngine>,
}

impl Drop for EngineGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        ENGINE.with(|e| *e.borrow_mut() = previous);
    }
}

/// Runs `f` with the engine a random kernel draws from: a fresh
/// `mt19937_64(seed)` for a non-zero `seed` attribute, else the session's
/// engine (its draws continue), else one freshly seeded.
pub(crate) fn with_engine<R>(seed: i64, f: impl FnOnce(&mut StdMt19937_64) -> R) -> R {
    if seed != 0 {
        return f(&mut StdMt19937_64::new(seed as u64));
    }
    match session_engine() {
        Some(shared) => {
            let mut engine = shared.lock().unwrap_or_else(PoisonError::into_inner);
            f(engine.get())
        }
        None => f(&mut StdMt19937_64::new(rand::random())),
    }
}

#[cfg(test)]
#[allow(clippy::excessive_precision)]
mod tests {
    use super::*;

    #[test]
    fn mt19937_64_gives_the_standard_10000th_value() {
        let mut e = StdMt19937_64::new(5489);
        let v = (0..10_000).map(|_| e.next_u64()).last();
        assert_eq!(v, Some(9_981_545_732_273_789_042));
    }

    #[test]
    fn seed_7_gives_paddles_measured_values() {
        let u = paddle_uniform::<f32>(7, 6, -1.0, 1.0);
        assert_eq!(
            u,
            [
                0.50877059,
                0.89860237,
                -0.76517141,
                0.78382635,
                -0.71745688,
                -0.88981366
            ]
        );
        let n = paddle_gaussian::<f32>(7, 4, 0.0, 1.0);
        assert_eq!(n, [0.87269521, -0.97256285, 0.54730994, 1.45517814]);
    }

    #[test]
    fn seed_seq_follows_the_standard() {
        // The standard's example values are not given; what is checked
        // here is the structure (`tests/kernels_vs_paddle.rs` compares
        // `paddle.seed(n)` draws with Paddle's).
        assert_eq!(seed_seq_generate(&[1], 4).len(), 4);
        let first = StdMt19937_64::from_seed_seq(&[1]).next_u64();
        assert_eq!(first, StdMt19937_64::from_seed_seq(&[1]).next_u64());
        assert_ne!(first, StdMt19937_64::new(1).next_u64());
    }

    #[test]
    fn truncated_normal_stays_in_bounds() {
        let t = TruncatedNormal::<f32>::new(0.0, 1.0, -2.0, 2.0);
        let mut e = StdMt19937_64::new(3);
        for _ in 0..1000 {
            let v = t.sample(&mut e);
            assert!((-2.0..=2.0).contains(&v));
        }
    }
}
