//! The machine's float32 multiply-add peak, measured: the ceiling issue 40's
//! GEMM target ("at least 75% of the machine's FMA peak") is a share of.
//! bench/run.py runs it beside the GEMM rows, so both come from one run.
//!
//!     cargo run --release --example fma_peak -- THREADS ITERS
//!
//! Each of THREADS threads runs ITERS rounds of 12 independent fused
//! multiply-adds on the widest float32 vectors the CPU runs (`pulp` picks
//! AVX-512, AVX2 + FMA or SSE at run time): 12 chains keep both FMA units
//! busy through the instruction's latency, and nothing is read from memory.
//! Prints the best GFLOP/s of 5 rounds (2 FLOP per lane per multiply-add),
//! then the vector width in lanes. A figure from the flags and the clock
//! in /proc/cpuinfo can be wrong both ways (boost clocks, AVX-512 split in
//! two halves); this one is what the cores did.
use pulp::{Arch, Simd, WithSimd};
use std::hint::black_box;
use std::time::Instant;

/// Independent accumulators per thread.
const CHAINS: usize = 12;

struct Chains {
    iters: usize,
}

impl WithSimd for Chains {
    /// (a value the result depends on, lanes per vector)
    type Output = (f32, usize);

    #[inline(always)]
    fn with_simd<S: Simd>(self, simd: S) -> Self::Output {
        let a = simd.splat_f32s(black_box(0.999_999));
        let b = simd.splat_f32s(black_box(1e-7));
        let mut acc = [simd.splat_f32s(1.0); CHAINS];
        for _ in 0..self.iters {
            for x in acc.iter_mut() {
                *x = simd.mul_add_f32s(*x, a, b);
            }
        }
        let sum = acc
            .into_iter()
            .fold(simd.splat_f32s(0.0), |s, x| simd.add_f32s(s, x));
        (
            simd.reduce_sum_f32s(sum),
            std::mem::size_of::<S::f32s>() / 4,
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |i: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .filter(|&n| n > 0)
    };
    let (Some(threads), Some(iters)) = (parse(0), parse(1)) else {
        eprintln!("usage: fma_peak THREADS ITERS (positive integers)");
        std::process::exit(2);
    };
    let arch = Arch::new();
    let mut best = 0f64;
    let mut lanes = 0;
    for _ in 0..5 {
        let start = Instant::now();
        let results: Vec<(f32, usize)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| s.spawn(move || arch.dispatch(Chains { iters })))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an FMA thread panicked"))
                .collect()
        });
        let secs = start.elapsed().as_secs_f64();
        black_box(results.iter().map(|r| r.0).sum::<f32>());
        lanes = results[0].1;
        let flop = (threads * iters * CHAINS * lanes * 2) as f64;
        best = best.max(flop / secs / 1e9);
    }
    println!("{best:.1} {lanes}");
}
