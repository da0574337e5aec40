//! Random numbers bit for bit as the generators scripts meet through
//! numpy and Paddle (docs/numpy.md and docs/training.md) produce them (Python's `random`
//! is the VM's own):
//!
//! - [`RandomState`]: numpy's legacy `numpy.random.RandomState` (and the
//!   global state behind `numpy.random.seed/rand/randn/...`): MT19937
//!   seeded as numpy seeds it, 53-bit doubles, the polar Box–Muller
//!   `legacy_gauss` with its cached second value, masked rejection for
//!   bounded integers, `choice`, `shuffle` and `permutation`.
//! - [`StdMt19937_64`] with [`UniformReal`] and [`Normal`]: libstdc++'s
//!   `std::mt19937_64`, `std::uniform_real_distribution` and
//!   `std::normal_distribution`, which Paddle 3.3.1's CPU `uniform_random`
//!   and `gaussian_random` kernels draw from ([`paddle_uniform`],
//!   [`paddle_gaussian`]). They live in the runtime (`fluidc_runtime::random`),
//!   which draws its random kernels from them.
//!
//! The reference is the interop venv (numpy 2.4, Paddle 3.3.1): `tests/host_random.rs` compares every value exactly. Floating
//! functions (`log`, `sqrt`, `cos`, `sin`, `logf`, `sqrtf`) are the
//! platform's libm, as numpy, CPython and Paddle call them; arithmetic is
//! never fused (numpy's, CPython's and Paddle's builds do not contract to
//! FMA either: measured).
//!
//! Sizes are element counts: the callers shape the flat results, and
//! bound them first as they bound any array they make (`count`s, and
//! `permutation`'s `n`, are allocated). Nothing here panics on bad input;
//! each fallible call returns numpy's or CPython's exception and message
//! as a [`HostError`](super::error::HostError).

mod numpy;

// The libstdc++ engines are the runtime's: its random kernels and the host
// share one implementation.
pub use fluidc_runtime::random::{
    paddle_gaussian, paddle_uniform, Normal, StdMt19937_64, StdReal, UniformReal,
};
pub use numpy::{IntDtype, Population, Probabilities, RandomState};

use rand_mt::Mt;

/// MT19937's state length.
pub(crate) const N: usize = 624;

/// MT19937 seeded by the reference `init_by_array(key)` (numpy's
/// `mt19937_init_by_array`, CPython's `init_by_array`), for keys of any
/// length; an empty key seeds as the key `[0]` (neither caller passes one).
fn mt_from_key(key: &[u32]) -> Mt {
    // `Mt::from` takes the last 624 outputs and untempers them into the
    // state, next to regenerate: exactly a freshly seeded generator.
    Mt::from(init_by_array(key).map(temper))
}

/// The 624 state words `init_by_array(key)` leaves (before the first
/// twist); an empty key seeds as the key `[0]`. Python's `_random` keeps
/// them itself (`crate::py_random`: its `getstate` returns them).
pub(crate) fn init_by_array(key: &[u32]) -> [u32; N] {
    let zero = [0u32];
    let key = if key.is_empty() { &zero[..] } else { key };
    let mut mt = [0u32; N];
    mt[0] = 19_650_218;
    for i in 1..N {
        mt[i] = 1_812_433_253u32
            .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
            .wrapping_add(i as u32);
    }
    let (mut i, mut j) = (1usize, 0usize);
    for _ in 0..N.max(key.len()) {
        mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
            .wrapping_add(key[j])
            .wrapping_add(j as u32);
        i += 1;
        j += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
        if j >= key.len() {
            j = 0;
        }
    }
    for _ in 0..N - 1 {
        mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
            .wrapping_sub(i as u32);
        i += 1;
        if i >= N {
            mt[0] = mt[N - 1];
            i = 1;
        }
    }
    mt[0] = 0x8000_0000;
    mt
}

/// MT19937's output tempering.
pub(crate) fn temper(mut y: u32) -> u32 {
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c_5680;
    y ^= (y << 15) & 0xefc6_0000;
    y ^ (y >> 18)
}

/// A double in [0, 1) from two 32-bit draws, 53 random bits (numpy's
/// `mt19937_next_double`, CPython's `genrand_res53`).
fn res53(mt: &mut Mt) -> f64 {
    res53_of(|| mt.next_u32())
}

/// [`res53`] over any source of 32-bit draws.
pub(crate) fn res53_of(mut next_u32: impl FnMut() -> u32) -> f64 {
    let a = next_u32() >> 5;
    let b = next_u32() >> 6;
    (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn init_by_array_matches_rand_mt_for_short_keys() {
        for key in [&[0u32][..], &[1, 2, 3], &[0xffff_ffff; 700][..624]] {
            let mut ours = mt_from_key(key);
            let mut theirs = Mt::new_with_key(key.iter().copied());
            for _ in 0..2000 {
                assert_eq!(ours.next_u32(), theirs.next_u32());
            }
        }
    }
}
