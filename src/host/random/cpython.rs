//! CPython 3.11's `random.Random` (Lib/random.py over Modules/_randommodule.c).
use std::collections::HashSet;

use rand_mt::Mt;

use super::{mt_from_key, res53, words_of};
use crate::host::error::{ErrorKind, HostError, Result};

/// CPython's `random.Random`: MT19937 plus `gauss_next`.
#[derive(Debug, Clone)]
pub struct PyRandom {
    mt: Mt,
    gauss_next: Option<f64>,
}

/// Python's `hash(float)` (`_Py_HashDouble`): the value modulo the
/// Mersenne prime 2**61 - 1, so an integral float hashes as its int.
/// `inf` is 314159; NaN, whose hash CPython 3.10+ takes from the object's
/// address, is 0 here.
pub fn py_hash_f64(v: f64) -> i64 {
    const BITS: i32 = 61;
    const MODULUS: u64 = (1 << BITS) - 1;
    if v.is_nan() {
        return 0;
    }
    if v.is_infinite() {
        return if v > 0.0 { 314_159 } else { -314_159 };
    }
    let (mut m, mut e) = frexp(v);
    let mut sign = 1i64;
    if m < 0.0 {
        sign = -1;
        m = -m;
    }
    let mut x: u64 = 0;
    while m != 0.0 {
        x = ((x << 28) & MODULUS) | x >> (BITS - 28);
        m *= 268_435_456.0;
        e -= 28;
        let y = m as u64;
        m -= y as f64;
        x += y;
        if x >= MODULUS {
            x -= MODULUS;
        }
    }
    let e = if e >= 0 {
        e % BITS
    } else {
        BITS - 1 - ((-1 - e) % BITS)
    };
    x = ((x << e) & MODULUS) | x >> (BITS - e);
    let h = (x as i64).wrapping_mul(sign);
    if h == -1 {
        -2
    } else {
        h
    }
}

/// C's `frexp` for finite `v`: `v = m * 2**e` with `0.5 <= |m| < 1`.
fn frexp(v: f64) -> (f64, i32) {
    if v == 0.0 {
        return (v, 0);
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(v * 18_014_398_509_481_984.0); // 2**54
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, exp - 1022)
}

/// Python's `a // b` for `b != 0`.
fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `bisect.bisect_right(a, x, lo, hi)` exactly as CPython's loop runs
/// (so unsorted lists give CPython's answer too).
fn bisect_right<T: PartialOrd>(a: &[T], x: &T, mut lo: usize, mut hi: usize) -> usize {
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if x < &a[mid] {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

fn zero_division() -> HostError {
    HostError::new(ErrorKind::ZeroDivisionError, "float division by zero")
}

impl PyRandom {
    /// `random.Random(n)` / `random.seed(n)` for an int.
    pub fn new(seed: i64) -> PyRandom {
        PyRandom::from_words(&words_of(u128::from(seed.unsigned_abs())))
    }

    /// Seeded by `|n|` given as 32-bit words, least significant first
    /// (for ints wider than 64 bits).
    pub fn from_words(words: &[u32]) -> PyRandom {
        // CPython uses the words up to the highest non-zero one, at least
        // one.
        let used = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        PyRandom {
            mt: mt_from_key(&words[..used.min(words.len())]),
            gauss_next: None,
        }
    }

    /// `seed(n)` for an int: `init_by_array` of `|n|`'s 32-bit words;
    /// forgets `gauss_next`.
    pub fn seed(&mut self, seed: i64) {
        *self = PyRandom::new(seed);
    }

    /// `seed(x)` for a float: seeded by `hash(x)` (see [`py_hash_f64`])
    /// taken as an unsigned C `size_t`, not by its absolute value.
    pub fn seed_f64(&mut self, seed: f64) {
        *self = PyRandom::from_words(&words_of(u128::from(py_hash_f64(seed) as u64)));
    }

    /// `random()`: 53 random bits in [0, 1).
    pub fn random(&mut self) -> f64 {
        res53(&mut self.mt)
    }

    /// `getrandbits(k)` as 32-bit words, least significant first: one
    /// draw per word, the last shifted down to the bits left. `k` is a C
    /// `int` in CPython, so its range errors are CPython's.
    pub fn getrandbits_words(&mut self, k: i64) -> Result<Vec<u32>> {
        if k < 0 {
            if k < i64::from(i32::MIN) {
                return Err(HostError::new(
                    ErrorKind::OverflowError,
                    "signed integer is less than minimum",
                ));
            }
            return Err(HostError::value_error(
                "number of bits must be non-negative",
            ));
        }
        if k > i64::from(i32::MAX) {
            return Err(HostError::new(
                ErrorKind::OverflowError,
                "signed integer is greater than maximum",
            ));
        }
        Ok(self.bits(k as u64))
    }

    fn bits(&mut self, k: u64) -> Vec<u32> {
        let words = k.div_ceil(32);
        let mut left = k;
        (0..words)
            .map(|_| {
                let mut r = self.mt.next_u32();
                if left < 32 {
                    r >>= 32 - left;
                }
                left = left.saturating_sub(32);
                r
            })
            .collect()
    }

    /// `getrandbits(k)` for `k <= 128` (wider results do not fit: an
    /// `OverflowError` before any draw).
    pub fn getrandbits(&mut self, k: i64) -> Result<u128> {
        if k > 128 {
            return Err(HostError::new(
                ErrorKind::OverflowError,
                format!("getrandbits({k}) does not fit 128 bits"),
            ));
        }
        let words = self.getrandbits_words(k)?;
        Ok(words
            .iter()
            .rev()
            .fold(0u128, |acc, &w| (acc << 32) | u128::from(w)))
    }

    /// `_randbelow_with_getrandbits(n)`: `getrandbits(n.bit_length())`
    /// until it is below `n` (0 for `n == 0`, which CPython never asks).
    pub fn randbelow(&mut self, n: u128) -> u128 {
        if n == 0 {
            return 0;
        }
        let k = u64::from(128 - n.leading_zeros());
        loop {
            let r = self
                .bits(k)
                .iter()
                .rev()
                .fold(0u128, |acc, &w| (acc << 32) | u128::from(w));
            if r < n {
                return r;
            }
        }
    }

    /// `randrange(start, stop=None, step=1)` with CPython's checks and
    /// messages (`stop: None` with a `step` other than 1 is its
    /// `TypeError`).
    pub fn randrange(&mut self, start: i64, stop: Option<i64>, step: i64) -> Result<i64> {
        let r = self.randrange_wide(start.into(), stop.map(i128::from), step.into())?;
        // The result lies in the range, so it fits.
        Ok(r as i64)
    }

    fn randrange_wide(&mut self, start: i128, stop: Option<i128>, step: i128) -> Result<i128> {
        let Some(stop) = stop else {
            if step != 1 {
                return Err(HostError::type_error("Missing a non-None stop argument"));
            }
            if start > 0 {
                return Ok(self.randbelow(start as u128) as i128);
            }
            return Err(HostError::value_error("empty range for randrange()"));
        };
        let width = stop - start;
        if step == 1 {
            if width > 0 {
                return Ok(start + self.randbelow(width as u128) as i128);
            }
            return Err(HostError::value_error(format!(
                "empty range for randrange() ({start}, {stop}, {width})"
            )));
        }
        let n = match step {
            s if s > 0 => floor_div(width + s - 1, s),
            s if s < 0 => floor_div(width + s + 1, s),
            _ => return Err(HostError::value_error("zero step for randrange()")),
        };
        if n <= 0 {
            return Err(HostError::value_error("empty range for randrange()"));
        }
        Ok(start + step * self.randbelow(n as u128) as i128)
    }

    /// `randint(a, b)`: `randrange(a, b + 1)`, both ends included.
    pub fn randint(&mut self, a: i64, b: i64) -> Result<i64> {
        let r = self.randrange_wide(a.into(), Some(i128::from(b) + 1), 1)?;
        Ok(r as i64)
    }

    /// `choice(seq)` for a sequence of `len` items: the index chosen.
    pub fn choice(&mut self, len: usize) -> Result<usize> {
        if len == 0 {
            return Err(HostError::index_error(
                "Cannot choose from an empty sequence",
            ));
        }
        Ok(self.randbelow(len as u128) as usize)
    }

    /// `shuffle(x)` in place: from the end, `j = _randbelow(i + 1)`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u128 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// `sample(population, k)` for a population of `n` items: the indices
    /// chosen, in selection order (CPython's pool or set method, as its
    /// size rule picks).
    pub fn sample(&mut self, n: usize, k: i64) -> Result<Vec<usize>> {
        Ok(self
            .sample_wide(n as u128, k)?
            .into_iter()
            .map(|i| i as usize)
            .collect())
    }

    fn sample_wide(&mut self, n: u128, k: i64) -> Result<Vec<u128>> {
        if k < 0 || k as u128 > n {
            return Err(HostError::value_error(
                "Sample larger than population or is negative",
            ));
        }
        let k = k as u128;
        let mut setsize: u128 = 21;
        if k > 5 {
            let exp = ((k * 3) as f64).ln() / 4f64.ln();
            setsize = setsize.saturating_add(4u128.saturating_pow(exp.ceil() as u32));
        }
        let mut result = Vec::new();
        if n <= setsize {
            let mut pool: Vec<u128> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow(n - i) as usize;
                let last = pool[(n - i - 1) as usize];
                result.push(std::mem::replace(&mut pool[j], last));
            }
        } else {
            let mut selected = HashSet::new();
            for _ in 0..k {
                let mut j = self.randbelow(n);
                while selected.contains(&j) {
                    j = self.randbelow(n);
                }
                selected.insert(j);
                result.push(j);
            }
        }
        Ok(result)
    }

    /// `sample(population, k, counts=counts)`: indices into the
    /// population (`sample(range(total), k)` mapped back by bisection).
    pub fn sample_counts(&mut self, n: usize, counts: &[i64], k: i64) -> Result<Vec<usize>> {
        let mut acc = 0i128;
        let mut cum: Vec<i128> = counts
            .iter()
            .map(|&c| {
                acc += i128::from(c);
                acc
            })
            .collect();
        if cum.len() != n {
            return Err(HostError::value_error(
                "The number of counts does not match the population",
            ));
        }
        let Some(total) = cum.pop() else {
            return Err(HostError::index_error("pop from empty list"));
        };
        if total <= 0 {
            return Err(HostError::value_error(
                "Total of counts must be greater than zero",
            ));
        }
        let selections = self.sample_wide(total as u128, k)?;
        Ok(selections
            .into_iter()
            .map(|s| bisect_right(&cum, &(s as i128), 0, cum.len()))
            .collect())
    }

    /// `choices(population, k=k)` without weights, for `n` items: indices
    /// `floor(random() * n)`.
    pub fn choices(&mut self, n: usize, k: usize) -> Result<Vec<usize>> {
        let nf = n as f64;
        (0..k)
            .map(|_| {
                let i = (self.random() * nf).floor() as usize;
                if i < n {
                    Ok(i)
                } else {
                    Err(HostError::index_error("list index out of range"))
                }
            })
            .collect()
    }

    /// `choices(population, cum_weights=cum, k=k)` (for `weights`, pass
    /// their running sums as Python's `accumulate` makes them): indices
    /// by bisection of `random() * total`.
    pub fn choices_cum(&mut self, cum_weights: &[f64], k: usize) -> Result<Vec<usize>> {
        let Some(&last) = cum_weights.last() else {
            return Err(HostError::index_error("list index out of range"));
        };
        let total = last + 0.0;
        if total <= 0.0 {
            return Err(HostError::value_error(
                "Total of weights must be greater than zero",
            ));
        }
        if !total.is_finite() {
            return Err(HostError::value_error("Total of weights must be finite"));
        }
        let hi = cum_weights.len() - 1;
        Ok((0..k)
            .map(|_| {
                let x = self.random() * total;
                bisect_right(cum_weights, &x, 0, hi)
            })
            .collect())
    }

    /// `uniform(a, b)`: `a + (b - a) * random()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }

    /// `triangular(low, high, mode)`.
    pub fn triangular(&mut self, low: f64, high: f64, mode: Option<f64>) -> f64 {
        let mut u = self.random();
        let mut c = match mode {
            None => 0.5,
            Some(_) if high - low == 0.0 => return low,
            Some(mode) => (mode - low) / (high - low),
        };
        let (mut low, mut high) = (low, high);
        if u > c {
            u = 1.0 - u;
            c = 1.0 - c;
            std::mem::swap(&mut low, &mut high);
        }
        low + (high - low) * (u * c).sqrt()
    }

    /// `expovariate(lambd)`: `-log(1 - random()) / lambd`.
    pub fn expovariate(&mut self, lambd: f64) -> Result<f64> {
        let u = self.random();
        if lambd == 0.0 {
            return Err(zero_division());
        }
        Ok(-(1.0 - u).ln() / lambd)
    }

    /// `gauss(mu, sigma)`: Box–Muller with the second value kept in
    /// `gauss_next`.
    pub fn gauss(&mut self, mu: f64, sigma: f64) -> f64 {
        let z = match self.gauss_next.take() {
            Some(z) => z,
            None => {
                let x2pi = self.random() * std::f64::consts::TAU;
                let g2rad = (-2.0 * (1.0 - self.random()).ln()).sqrt();
                self.gauss_next = Some(x2pi.sin() * g2rad);
                x2pi.cos() * g2rad
            }
        };
        mu + z * sigma
    }

    /// `normalvariate(mu, sigma)`: Kinderman and Monahan's ratio of
    /// uniforms.
    pub fn normalvariate(&mut self, mu: f64, sigma: f64) -> f64 {
        let magic = 4.0 * (-0.5f64).exp() / 2f64.sqrt();
        loop {
            let u1 = self.random();
            let u2 = 1.0 - self.random();
            let z = magic * (u1 - 0.5) / u2;
            let zz = z * z / 4.0;
            if zz <= -u2.ln() {
                return mu + z * sigma;
            }
        }
    }
}
