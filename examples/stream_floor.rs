//! The memory floor under a batch-1 training step: the bytes a fused Adam
//! step must move, moved by the plainest loops, with no product beside them.
//! bench/run.py runs it beside `fluidc run` of the MLP training step (issue
//! 40's target: a batch-1 step within 1.5× of this floor).
//!
//!     cargo run --release --example stream_floor -- PARAMS STEPS [adam]
//!
//! A batch-1 step of a network with PARAMS float32 parameters reads each
//! weight once forward (`mul`), and once backward, where the gradient's
//! producer computes `X@GRAD` from the weight and, fused, updates the weight
//! and Adam's two moments in the same pass: 4 reads and 3 writes of PARAMS
//! floats. The floor does those 7 passes per step (one read pass, then one
//! pass reading and writing three arrays, with a multiply-add per value)
//! and prints seconds per step, the best of 5 rounds of STEPS steps.
//!
//! With `adam`, the backward pass does Adam's own arithmetic instead of
//! one multiply-add a value (both moments, then a square root and a
//! division per parameter, as fluidc's `adam` computes them), on the
//! widest vectors the CPU runs (`pulp`'s dispatch, as fluidc's optimizer
//! loops): the floor of the bytes and of Adam's arithmetic together.
use std::hint::black_box;
use std::time::Instant;

use pulp::{Arch, Simd, WithSimd};

/// One fused backward pass over the weights and both moments.
struct Backward<'a> {
    w: &'a mut [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
    g: f32,
    adam: bool,
}

impl WithSimd for Backward<'_> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: Simd>(self, _: S) {
        let g = self.g;
        let rows = self
            .w
            .iter_mut()
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut());
        if self.adam {
            // fluidc's `Rule::Adam`: moments, then -lr_t * m / (sqrt(v) + eps).
            let (b1, b2, lr_t, eps) = (0.9f32, 0.999f32, 1e-3f32, 1e-8f32);
            for ((w, m), v) in rows {
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *w += (-lr_t) * (*m / (v.sqrt() + eps));
            }
        } else {
            // A multiply-add each: the floor is the bytes alone.
            for ((w, m), v) in rows {
                *m = 0.9 * *m + g;
                *v = 0.999 * *v + g;
                *w -= 1e-3 * *m;
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parse = |i: usize| {
        args.get(i)
            .and_then(|a| a.parse::<usize>().ok())
            .filter(|&n| n > 0)
    };
    let (Some(params), Some(steps)) = (parse(0), parse(1)) else {
        eprintln!("usage: stream_floor PARAMS STEPS [adam] (positive integers)");
        std::process::exit(2);
    };
    let adam = match args.get(2).map(String::as_str) {
        None => false,
        Some("adam") => true,
        Some(other) => {
            eprintln!("stream_floor: the third argument is `adam` or nothing, not {other:?}");
            std::process::exit(2);
        }
    };
    let arch = Arch::new();
    // The three arrays start at different offsets within a page: large
    // allocations are page-aligned, and loads and stores whose addresses
    // differ by a multiple of 4 KiB stall on each other (4K aliasing),
    // which would make this floor slower than the bytes need.
    let mut w_buf: Vec<f32> = (0..params).map(|i| (i % 97) as f32 * 1e-3).collect();
    let mut m_buf = vec![0f32; params + 256];
    let mut v_buf = vec![0f32; params + 512];
    let w = &mut w_buf[..];
    let m = &mut m_buf[256..];
    let v = &mut v_buf[512..];
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..steps {
            // Forward: read every weight (summed in 8 lanes, as a GEMV would).
            let mut acc = [0f32; 8];
            for chunk in w.chunks_exact(8) {
                for (a, x) in acc.iter_mut().zip(chunk) {
                    *a += x;
                }
            }
            let g = black_box(acc.iter().sum::<f32>()) * 1e-9;
            // Backward, fused: read weight and moments, write all three.
            arch.dispatch(Backward {
                w: &mut *w,
                m: &mut *m,
                v: &mut *v,
                g,
                adam,
            });
            black_box(&*w);
        }
        best = best.min(start.elapsed().as_secs_f64() / steps as f64);
    }
    println!("{best:.9}");
}
