//! numpy's legacy `RandomState` (numpy/random/mtrand.pyx,
//! `_bounded_integers.pyx.in`, `distributions.c`, `legacy-distributions.c`).
use rand_mt::Mt;

use super::{mt_from_key, res53};
use crate::host::error::{ErrorKind, HostError, Result};

/// The integer dtypes `randint` draws (numpy's bounded-integer fills; the
/// 8- and 16-bit ones and bool take their bits from a buffered 32-bit
/// draw, as numpy does). `uint64` is left out: its values do not all fit
/// the `i64` results.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntDtype {
    Bool,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
}

impl IntDtype {
    /// numpy's name, as its messages spell it.
    pub fn name(self) -> &'static str {
        match self {
            IntDtype::Bool => "bool",
            IntDtype::Int8 => "int8",
            IntDtype::Int16 => "int16",
            IntDtype::Int32 => "int32",
            IntDtype::Int64 => "int64",
            IntDtype::UInt8 => "uint8",
            IntDtype::UInt16 => "uint16",
            IntDtype::UInt32 => "uint32",
        }
    }

    /// The closed range of the dtype.
    fn bounds(self) -> (i128, i128) {
        match self {
            IntDtype::Bool => (0, 1),
            IntDtype::Int8 => (i8::MIN.into(), i8::MAX.into()),
            IntDtype::Int16 => (i16::MIN.into(), i16::MAX.into()),
            IntDtype::Int32 => (i32::MIN.into(), i32::MAX.into()),
            IntDtype::Int64 => (i64::MIN.into(), i64::MAX.into()),
            IntDtype::UInt8 => (0, u8::MAX.into()),
            IntDtype::UInt16 => (0, u16::MAX.into()),
            IntDtype::UInt32 => (0, u32::MAX.into()),
        }
    }
}

/// What `choice(a, ...)` draws from: `a` an integer (`arange(a)`) or a
/// 1-d array of this length (the caller indexes it with the result).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Population {
    Int(i64),
    Len(usize),
}

/// `choice`'s `p`, as float64 values. `float32` says `p` was a float32
/// ndarray: numpy then allows `sqrt(float32 eps)` in its sum check instead
/// of `sqrt(float64 eps)`.
#[derive(Debug, Clone, Copy)]
pub struct Probabilities<'a> {
    pub p: &'a [f64],
    pub float32: bool,
}

/// numpy's legacy `RandomState`: MT19937 plus the cached Gaussian.
#[derive(Debug, Clone)]
pub struct RandomState {
    mt: Mt,
    gauss: Option<f64>,
}

/// The 32-bit buffer numpy's bounded fills take 8- and 16-bit values and
/// bools from (fresh for each fill call).
#[derive(Default)]
struct Buffer {
    buf: u32,
    left: u32,
}

impl Buffer {
    /// The next `bits` bits (8, 16 or 1): a new draw when none are left,
    /// else the buffer shifted.
    fn next(&mut self, mt: &mut Mt, bits: u32) -> u32 {
        if self.left == 0 {
            self.buf = mt.next_u32();
            self.left = 32 / bits - 1;
        } else {
            self.buf >>= bits;
            self.left -= 1;
        }
        self.buf & (u32::MAX >> (32 - bits))
    }
}

/// The smallest all-ones mask covering `rng` (> 0).
fn gen_mask(rng: u64) -> u64 {
    u64::MAX >> rng.leading_zeros()
}

fn value_error(message: impl Into<String>) -> HostError {
    HostError::value_error(message)
}

impl RandomState {
    /// `RandomState(seed)` for a seed in [0, 2**32): MT19937's
    /// `init_genrand(seed)` (numpy's `mt19937_seed`; an int seed does not
    /// go through `init_by_array`).
    pub fn new(seed: u32) -> RandomState {
        RandomState {
            mt: Mt::new(seed),
            gauss: None,
        }
    }

    /// `RandomState(seed)` for a Python int: numpy's range check.
    pub fn from_seed(seed: i64) -> Result<RandomState> {
        let mut rs = RandomState::new(0);
        rs.seed(seed)?;
        Ok(rs)
    }

    /// `RandomState(key)` for a sequence of ints.
    pub fn from_key(key: &[i64]) -> Result<RandomState> {
        let mut rs = RandomState::new(0);
        rs.seed_key(key)?;
        Ok(rs)
    }

    /// `seed(n)` (and `numpy.random.seed(n)`) for an int: `init_genrand`,
    /// and the cached Gaussian is dropped.
    pub fn seed(&mut self, seed: i64) -> Result<()> {
        let seed =
            u32::try_from(seed).map_err(|_| value_error("Seed must be between 0 and 2**32 - 1"))?;
        *self = RandomState::new(seed);
        Ok(())
    }

    /// `seed(key)` for a 1-d sequence of ints: `init_by_array(key)`.
    pub fn seed_key(&mut self, key: &[i64]) -> Result<()> {
        if key.is_empty() {
            return Err(value_error("Seed must be non-empty"));
        }
        let words = key
            .iter()
            .map(|&k| u32::try_from(k))
            .collect::<std::result::Result<Vec<u32>, _>>()
            .map_err(|_| value_error("Seed must be between 0 and 2**32 - 1"))?;
        self.mt = mt_from_key(&words);
        self.gauss = None;
        Ok(())
    }

    /// MT19937's next 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    /// numpy's `next_uint64`: two 32-bit outputs, the first high.
    pub fn next_u64(&mut self) -> u64 {
        self.mt.next_u64()
    }

    /// One `random_sample()`: 53 random bits in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        res53(&mut self.mt)
    }

    /// `random_sample`/`random`/`rand`: `count` doubles in [0, 1).
    pub fn random_sample(&mut self, count: usize) -> Vec<f64> {
        (0..count).map(|_| self.next_double()).collect()
    }

    /// numpy's `legacy_gauss`: the polar method, whose second value is
    /// kept for the next call.
    pub fn gauss(&mut self) -> f64 {
        if let Some(g) = self.gauss.take() {
            return g;
        }
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// One `poisson(lam)` draw as RandomState makes it (numpy's
    /// `random_poisson`): 0 for `lam == 0`, multiplying uniforms below 10,
    /// else Hörmann's transformed rejection (PTRS). The caller checks
    /// `lam` (not negative, not NaN, not too large).
    pub fn poisson(&mut self, lam: f64) -> i64 {
        if lam >= 10.0 {
            return self.poisson_ptrs(lam);
        }
        if lam == 0.0 {
            return 0;
        }
        let enlam = (-lam).exp();
        let (mut x, mut prod) = (0, 1.0);
        loop {
            prod *= self.next_double();
            if prod > enlam {
                x += 1;
            } else {
                return x;
            }
        }
    }

    fn poisson_ptrs(&mut self, lam: f64) -> i64 {
        let slam = lam.sqrt();
        let loglam = lam.ln();
        let b = 0.931 + 2.53 * slam;
        let a = -0.059 + 0.02483 * b;
        let invalpha = 1.1239 + 1.1328 / (b - 3.4);
        let vr = 0.9277 - 3.6224 / (b - 2.0);
        loop {
            let u = self.next_double() - 0.5;
            let v = self.next_double();
            let us = 0.5 - u.abs();
            let k = ((2.0 * a / us + b) * u + lam + 0.43).floor() as i64;
            if us >= 0.07 && v <= vr {
                return k;
            }
            if k < 0 || (us < 0.013 && v > us) {
                continue;
            }
            if v.ln() + invalpha.ln() - (a / (us * us) + b).ln()
                <= -lam + k as f64 * loglam - loggam(k as f64 + 1.0)
            {
                return k;
            }
        }
    }

    /// One `binomial(n, p)` draw as RandomState makes it (numpy's
    /// `legacy_random_binomial`): inversion when the mean of the rarer
    /// outcome is at most 30, else Kachitvichyanukul and Schmeiser's BTPE;
    /// for `p` over 0.5 the draw counts the other outcome. A draw with
    /// `n == 0` or `p == 0` still takes a double, as numpy's legacy one does.
    pub fn binomial(&mut self, n: i64, p: f64) -> i64 {
        let (rare, flip) = if p <= 0.5 {
            (p, false)
        } else {
            (1.0 - p, true)
        };
        let x = if rare * n as f64 <= 30.0 {
            self.binomial_inversion(n, rare)
        } else {
            self.binomial_btpe(n, rare)
        };
        if flip {
            n - x
        } else {
            x
        }
    }

    /// numpy's `random_binomial_inversion`: walk the probabilities from 0
    /// until the uniform draw is spent, restarting past a bound of ten
    /// standard deviations.
    fn binomial_inversion(&mut self, n: i64, p: f64) -> i64 {
        let q = 1.0 - p;
        let qn = (n as f64 * q.ln()).exp();
        let np = n as f64 * p;
        let bound = (n as f64).min(np + 10.0 * (np * q + 1.0).sqrt()) as i64;
        let mut x = 0;
        let mut px = qn;
        let mut u = self.next_double();
        while u > px {
            x += 1;
            if x > bound {
                x = 0;
                px = qn;
                u = self.next_double();
            } else {
                u -= px;
                px = ((n - x + 1) as f64 * p * px) / (x as f64 * q);
            }
        }
        x
    }

    /// numpy's `random_binomial_btpe` (p at most 0.5): a triangle, two
    /// parallelograms and two exponential tails over the mode, with the
    /// squeeze of Stirling's series for far draws. Its steps are numpy's
    /// labels.
    fn binomial_btpe(&mut self, n: i64, p: f64) -> i64 {
        let nf = n as f64;
        let r = p.min(1.0 - p);
        let q = 1.0 - r;
        let fm = nf * r + r;
        let m = fm.floor() as i64;
        let mf = m as f64;
        let p1 = (2.195 * (nf * r * q).sqrt() - 4.6 * q).floor() + 0.5;
        let xm = mf + 0.5;
        let xl = xm - p1;
        let xr = xm + p1;
        let c = 0.134 + 20.5 / (15.3 + mf);
        let a = (fm - xl) / (fm - xl * r);
        let laml = a * (1.0 + a / 2.0);
        let a = (xr - fm) / (xr * q);
        let lamr = a * (1.0 + a / 2.0);
        let p2 = p1 * (1.0 + 2.0 * c);
        let p3 = p2 + c / laml;
        let p4 = p3 + c / lamr;
        let nrq = nf * r * q;
        let y = 'step10: loop {
            let u = self.next_double() * p4;
            let mut v = self.next_double();
            let y;
            if u <= p1 {
                break 'step10 (xm - p1 * v + u).floor() as i64;
            } else if u <= p2 {
                let x = xl + (u - p1) / c;
                v = v * c + 1.0 - (mf - x + 0.5).abs() / p1;
                if v > 1.0 {
                    continue;
                }
                y = x.floor() as i64;
            } else if u <= p3 {
                y = (xl + v.ln() / laml).floor() as i64;
                if y < 0 || v == 0.0 {
                    continue;
                }
                v *= (u - p2) * laml;
            } else {
                y = (xr - v.ln() / lamr).floor() as i64;
                if y > n || v == 0.0 {
                    continue;
                }
                v *= (u - p3) * lamr;
            }
            // Step 50: accept or reject y against f(y)/f(m).
            let k = (y - m).abs();
            let kf = k as f64;
            if !(k > 20 && kf < nrq / 2.0 - 1.0) {
                let s = r / q;
                let a = s * (nf + 1.0);
                let mut f = 1.0;
                if m < y {
                    for i in m + 1..=y {
                        f *= a / i as f64 - s;
                    }
                } else if m > y {
                    for i in y + 1..=m {
                        f /= a / i as f64 - s;
                    }
                }
                if v > f {
                    continue;
                }
                break y;
            }
            // Step 52: the squeeze, then Stirling's bound on log f(y)/f(m).
            let rho =
                (kf / nrq) * ((kf * (kf / 3.0 + 0.625) + 0.166_666_666_666_666_66) / nrq + 0.5);
            let t = -kf * kf / (2.0 * nrq);
            let big_a = v.ln();
            if big_a < t - rho {
                break y;
            }
            if big_a > t + rho {
                continue;
            }
            let yf = y as f64;
            let x1 = yf + 1.0;
            let f1 = mf + 1.0;
            let z = nf + 1.0 - mf;
            let w = nf - yf + 1.0;
            let (x2, f2, z2, w2) = (x1 * x1, f1 * f1, z * z, w * w);
            let series = |v: f64, v2: f64| {
                (13680. - (462. - (132. - (99. - 140. / v2) / v2) / v2) / v2) / v / 166320.
            };
            let bound = xm * (f1 / x1).ln()
                + (nf - mf + 0.5) * (z / w).ln()
                + (yf - mf) * (w * r / (x1 * q)).ln()
                + series(f1, f2)
                + series(z, z2)
                + series(x1, x2)
                + series(w, w2);
            if big_a > bound {
                continue;
            }
            break y;
        };
        if p > 0.5 {
            n - y
        } else {
            y
        }
    }

    /// One `multinomial(n, pvals)` sample (numpy's `random_multinomial`):
    /// each class but the last takes a binomial draw of what is left, at
    /// its share of the probability left; the last takes the rest.
    pub fn multinomial(&mut self, n: i64, pvals: &[f64]) -> Vec<i64> {
        let d = pvals.len();
        let mut out = vec![0; d];
        let mut remaining_p = 1.0;
        let mut dn = n;
        for j in 0..d.saturating_sub(1) {
            // numpy's random_binomial (not the legacy one) skips the draw.
            out[j] = if dn == 0 || pvals[j] == 0.0 {
                0
            } else {
                self.binomial(dn, pvals[j] / remaining_p)
            };
            dn -= out[j];
            if dn <= 0 {
                break;
            }
            remaining_p -= pvals[j];
        }
        if dn > 0 && d > 0 {
            out[d - 1] = dn;
        }
        out
    }

    /// `standard_normal`/`randn`: `count` values of [`gauss`](Self::gauss).
    pub fn standard_normal(&mut self, count: usize) -> Vec<f64> {
        (0..count).map(|_| self.gauss()).collect()
    }

    /// `normal(loc, scale, size)` for scalar `loc` and `scale`:
    /// `loc + scale * gauss()`. A negative `scale` (-0.0 too, as numpy's
    /// `signbit` test) is numpy's `ValueError: scale < 0`.
    pub fn normal(&mut self, loc: f64, scale: f64, count: usize) -> Result<Vec<f64>> {
        if !scale.is_nan() && scale.is_sign_negative() {
            return Err(value_error("scale < 0"));
        }
        Ok((0..count).map(|_| loc + scale * self.gauss()).collect())
    }

    /// `uniform(low, high, size)` for scalar bounds: `low + (high - low) *
    /// random_sample()`; an infinite or NaN `high - low` is numpy's
    /// `OverflowError`.
    pub fn uniform(&mut self, low: f64, high: f64, count: usize) -> Result<Vec<f64>> {
        let range = high - low;
        if !range.is_finite() {
            return Err(HostError::new(
                ErrorKind::OverflowError,
                "Range exceeds valid bounds",
            ));
        }
        Ok((0..count)
            .map(|_| low + range * self.next_double())
            .collect())
    }

    /// `randint(low, high=None, size, dtype)` for scalar bounds (`high`
    /// exclusive; `randint(n)` is `low = n, high = None`): numpy's bounds
    /// checks and messages, then its masked rejection sampling. A `size`
    /// of no elements (`count == 0`) returns before any check, as numpy
    /// does; `size=None` is `count == 1`.
    ///
    /// Array bounds broadcast element by element in numpy with the same
    /// draws as `count == 1` calls for the 32- and 64-bit dtypes.
    pub fn randint(
        &mut self,
        low: i128,
        high: Option<i128>,
        count: usize,
        dtype: IntDtype,
    ) -> Result<Vec<i64>> {
        let (low, high) = match high {
            Some(high) => (low, high),
            None => (0, low),
        };
        if count == 0 {
            return Ok(Vec::new());
        }
        let high = high.saturating_sub(1);
        let (lb, ub) = dtype.bounds();
        if low < lb {
            return Err(value_error(format!(
                "low is out of bounds for {}",
                dtype.name()
            )));
        }
        if high > ub {
            return Err(value_error(format!(
                "high is out of bounds for {}",
                dtype.name()
            )));
        }
        if low > high {
            return Err(value_error(if low == 0 {
                "high <= 0"
            } else {
                "low >= high"
            }));
        }
        // Both in range, so the difference fits 64 bits and `low + v`
        // stays within [low, high].
        let rng = (high - low) as u64;
        let values = self.bounded(rng, dtype, count);
        Ok(values
            .into_iter()
            .map(|v| (low + i128::from(v)) as i64)
            .collect())
    }

    /// `count` values in [0, rng], drawn as numpy's
    /// `random_bounded_<utype>_fill` with `use_masked` draws them.
    fn bounded(&mut self, rng: u64, dtype: IntDtype, count: usize) -> Vec<u64> {
        if rng == 0 {
            return vec![0; count];
        }
        let mask = gen_mask(rng);
        let mt = &mut self.mt;
        let mut buffer = Buffer::default();
        let mut draw: Box<dyn FnMut() -> u64 + '_> = match dtype {
            IntDtype::Int64 | IntDtype::Int32 | IntDtype::UInt32 if rng == 0xffff_ffff => {
                Box::new(|| u64::from(mt.next_u32()))
            }
            IntDtype::Int64 | IntDtype::Int32 | IntDtype::UInt32 if rng < 0xffff_ffff => {
                Box::new(move || loop {
                    let v = u64::from(mt.next_u32()) & mask;
                    if v <= rng {
                        return v;
                    }
                })
            }
            IntDtype::Int64 if rng == u64::MAX => Box::new(|| mt.next_u64()),
            IntDtype::Int64 | IntDtype::Int32 | IntDtype::UInt32 => Box::new(move || loop {
                let v = mt.next_u64() & mask;
                if v <= rng {
                    return v;
                }
            }),
            IntDtype::Bool => Box::new(move || u64::from(buffer.next(mt, 1))),
            IntDtype::Int16 | IntDtype::UInt16 | IntDtype::Int8 | IntDtype::UInt8 => {
                let bits = if matches!(dtype, IntDtype::Int16 | IntDtype::UInt16) {
                    16
                } else {
                    8
                };
                // The full range takes the bits as they come; a smaller
                // one masks and rejects.
                Box::new(move || loop {
                    let v = u64::from(buffer.next(mt, bits)) & mask;
                    if v <= rng {
                        return v;
                    }
                })
            }
        };
        (0..count).map(|_| draw()).collect()
    }

    /// numpy's `random_interval(max)`: a value in [0, max] by masked
    /// rejection, from 32-bit draws while `max` fits 32 bits.
    pub fn interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = gen_mask(max);
        loop {
            let v = if max <= 0xffff_ffff {
                u64::from(self.mt.next_u32()) & mask
            } else {
                self.mt.next_u64() & mask
            };
            if v <= max {
                return v;
            }
        }
    }

    /// `shuffle(x)` along the first axis: Fisher–Yates from the end, `j =
    /// random_interval(i)`. An n-d array shuffles a list of its row
    /// indices and gathers the rows (numpy swaps rows with the same
    /// draws).
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.interval(i as u64) as usize;
            x.swap(i, j);
        }
    }

    /// `permutation(n)`: `arange(n)` shuffled (empty for `n <= 0`). For an
    /// array, permute `0..len` and gather.
    pub fn permutation(&mut self, n: i64) -> Vec<i64> {
        let mut v: Vec<i64> = (0..n.max(0)).collect();
        self.shuffle(&mut v);
        v
    }

    /// `choice(a, size, replace, p)`: `count` indices into `a` (for an int
    /// `a`, the values themselves), drawn as numpy's legacy `choice`
    /// draws them: `randint(0, n)` with replacement, a full
    /// `permutation(n)` cut to `count` without, and with `p` the
    /// inverse CDF of `random_sample` values (without replacement, in
    /// rounds that zero the found entries, as numpy loops). `size=None`
    /// is `count == 1`.
    pub fn choice(
        &mut self,
        a: Population,
        count: usize,
        replace: bool,
        p: Option<Probabilities<'_>>,
    ) -> Result<Vec<i64>> {
        let pop_size: i64 = match a {
            Population::Int(n) => {
                if n <= 0 && count != 0 {
                    return Err(value_error(
                        "a must be greater than 0 unless no samples are taken",
                    ));
                }
                n
            }
            Population::Len(n) => {
                if n == 0 && count != 0 {
                    return Err(value_error(
                        "'a' cannot be empty unless no samples are taken",
                    ));
                }
                i64::try_from(n).unwrap_or(i64::MAX)
            }
        };
        if let Some(p) = p {
            check_probabilities(p, pop_size)?;
        }
        let p = p.map(|p| p.p);
        if replace {
            return match p {
                Some(p) => {
                    let cdf = normalized_cdf(p);
                    Ok((0..count)
                        .map(|_| {
                            let x = self.next_double();
                            search_right(&cdf, x) as i64
                        })
                        .collect())
                }
                None => self.randint(0, Some(pop_size.into()), count, IntDtype::Int64),
            };
        }
        if count as i128 > i128::from(pop_size) {
            return Err(value_error(
                "Cannot take a larger sample than population when 'replace=False'",
            ));
        }
        let Some(p) = p else {
            let mut perm = self.permutation(pop_size);
            perm.truncate(count);
            return Ok(perm);
        };
        if p.iter().filter(|&&v| v > 0.0).count() < count {
            return Err(value_error("Fewer non-zero entries in p than size"));
        }
        let mut p = p.to_vec();
        let mut found: Vec<i64> = Vec::with_capacity(count);
        while found.len() < count {
            let x = self.random_sample(count - found.len());
            for &i in &found {
                if let Some(v) = p.get_mut(i as usize) {
                    *v = 0.0;
                }
            }
            let cdf = normalized_cdf(&p);
            // numpy keeps the first occurrence of each new index, in draw
            // order (`unique(return_index=True)`, indices sorted).
            let mut seen = std::collections::HashSet::new();
            for v in x {
                let idx = search_right(&cdf, v) as i64;
                if seen.insert(idx) {
                    found.push(idx);
                }
            }
        }
        Ok(found)
    }
}

/// numpy's checks of `choice`'s `p`, in its order and with its messages.
fn check_probabilities(p: Probabilities<'_>, pop_size: i64) -> Result<()> {
    let atol = if p.float32 {
        f64::from(f32::EPSILON.sqrt()).max(f64::EPSILON.sqrt())
    } else {
        f64::EPSILON.sqrt()
    };
    if i64::try_from(p.p.len()).ok() != Some(pop_size) {
        return Err(value_error("'a' and 'p' must have same size"));
    }
    let sum = kahan_sum(p.p);
    if sum.is_nan() {
        return Err(value_error("probabilities contain NaN"));
    }
    if p.p.iter().any(|&v| v < 0.0) {
        return Err(value_error("probabilities are not non-negative"));
    }
    if (sum - 1.0).abs() > atol {
        return Err(value_error("probabilities do not sum to 1"));
    }
    Ok(())
}

/// numpy's `kahan_sum` (mtrand's compensated sum).
fn kahan_sum(v: &[f64]) -> f64 {
    let Some((&first, rest)) = v.split_first() else {
        return 0.0;
    };
    let mut sum = first;
    let mut c = 0.0;
    for &x in rest {
        let y = x - c;
        let t = sum + y;
        c = (t - sum) - y;
        sum = t;
    }
    sum
}

/// `cdf = p.cumsum(); cdf /= cdf[-1]`.
fn normalized_cdf(p: &[f64]) -> Vec<f64> {
    let mut acc = 0.0;
    let mut cdf: Vec<f64> = p
        .iter()
        .map(|&v| {
            acc += v;
            acc
        })
        .collect();
    if let Some(&last) = cdf.last() {
        for c in &mut cdf {
            *c /= last;
        }
    }
    cdf
}

/// `cdf.searchsorted(x, side='right')` on a non-decreasing `cdf`: how
/// many entries are `<= x`.
fn search_right(cdf: &[f64], x: f64) -> usize {
    cdf.partition_point(|&c| c <= x)
}

/// numpy's `random_loggam`: log Γ(x) by Stirling's series, shifted up to
/// 7 for small `x` (PTRS's acceptance test needs numpy's exact bits).
fn loggam(x: f64) -> f64 {
    const A: [f64; 10] = [
        8.333333333333333e-02,
        -2.777777777777778e-03,
        7.936507936507937e-04,
        -5.952380952380952e-04,
        8.417508417508418e-04,
        -1.917526917526918e-03,
        6.41025641025641e-03,
        -2.955065359477124e-02,
        1.796443723688307e-01,
        -1.39243221690590e+00,
    ];
    if x == 1.0 || x == 2.0 {
        return 0.0;
    }
    let n = if x < 7.0 { (7.0 - x) as i64 } else { 0 };
    let mut x0 = x + n as f64;
    let x2 = (1.0 / x0) * (1.0 / x0);
    let mut gl0 = A[9];
    for a in A[..9].iter().rev() {
        gl0 *= x2;
        gl0 += a;
    }
    let lg2pi = 1.8378770664093453e+00;
    let mut gl = gl0 / x0 + 0.5 * lg2pi + (x0 - 0.5) * x0.ln() - x0;
    if x < 7.0 {
        for _ in 1..=n {
            gl -= (x0 - 1.0).ln();
            x0 -= 1.0;
        }
    }
    gl
}
