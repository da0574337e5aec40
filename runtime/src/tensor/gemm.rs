//! The float matrix product every product kernel uses (mul, matmul,
//! conv2d/conv3d through im2col, the recurrent ops and their gradients):
//! the `gemm` crate with its AVX-512 (`x86-v4`) and AVX2 kernels, chosen
//! at run time.
//!
//! Why `gemm`: measured against `matrixmultiply` (ndarray's, which fluidc
//! used before) and OpenBLAS on the same machine (BENCHMARKS.md, "GEMM").
//! On an AVX-512 machine its float32 1024² product runs at 89% of the
//! measured FMA peak on two threads, `matrixmultiply` at 53%, which has no
//! AVX-512 kernels; OpenBLAS is a C library every build machine would need.
//!
//! Why `unsafe` here, and only here: `gemm`'s one entry point takes raw
//! pointers and strides. This module is the workspace's one exception to
//! its `unsafe_code` lint; [`product`] is safe: it takes ndarray arrays,
//! whose pointers and strides describe memory they own or borrow, and checks
//! that their shapes agree before the call.
//!
//! Bits. A fused optimizer update computes a weight gradient a block of
//! rows at a time, and a large product is split by rows (or columns) over
//! two threads; both must give the bits of the whole product (so fused and
//! unfused steps, and one- and two-core machines, agree). `gemm` computes
//! an element from its row and column alone, each `kc`-long stretch of
//! the inner dim summed in order, except where it picks another path by
//! the product's size: it sizes `kc` from the caches when the inner dim is
//! past 512, uses a matrix-vector kernel for one row or column, and a
//! dot-product kernel for products of at most 256 elements when both
//! factors run along the inner dim. So [`product`] hands it at most
//! [`KC`] of the inner dim at a time (then `kc` is that length on every
//! path), and a split keeps [`min_rows`] rows (or [`min_cols`] columns)
//! in each part. `row_blocks_of_a_product_have_the_whole_products_bits`
//! (ops/matmul.rs) checks it.
#![allow(unsafe_code)]

use ndarray::{s, ArrayBase, Data, DataMut, Ix2, LinalgScalar};

/// The inner dim `gemm` is given at once (see the module's note on bits).
const KC: usize = 512;

/// `gemm` computes a product of at most this many elements with its
/// dot-product kernel when both factors are contiguous along the inner dim.
const SMALL: usize = 256;

/// The fewest rows a block of a product with `n` columns may have to keep
/// the whole product's bits: two (one row takes the matrix-vector kernel),
/// and more than [`SMALL`] elements.
pub(crate) fn min_rows(n: usize) -> usize {
    (SMALL / n.max(1) + 1).max(2)
}

/// [`min_rows`] for a block of columns of a product with `m` rows.
pub(crate) fn min_cols(m: usize) -> usize {
    min_rows(m)
}

/// The element types with a `gemm` kernel.
pub(crate) trait Gemm: LinalgScalar + PartialEq + Send + Sync {}
impl Gemm for f32 {}
impl Gemm for f64 {}

/// `c = alpha · a b + beta · c`, as ndarray's `general_mat_mul` (a `beta`
/// of zero ignores what `c` held, NaN included).
///
/// # Panics
/// When the shapes do not agree (`[m, k]`, `[k, n]`, `[m, n]`), as
/// `general_mat_mul` does: callers build the views from checked shapes.
pub(crate) fn product<T: Gemm>(
    alpha: T,
    a: &ArrayBase<impl Data<Elem = T>, Ix2>,
    b: &ArrayBase<impl Data<Elem = T>, Ix2>,
    beta: T,
    c: &mut ArrayBase<impl DataMut<Elem = T>, Ix2>,
) {
    let ((m, k), (k2, n)) = (a.dim(), b.dim());
    assert!(
        k == k2 && c.dim() == (m, n),
        "gemm: [{m}, {k}] by [{k2}, {n}] into {:?}",
        c.dim()
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        if beta == T::zero() {
            c.fill(T::zero());
        } else {
            c.mapv_inplace(|v| v * beta);
        }
        return;
    }
    // A view of `c`: a shared or copy-on-write array would make itself
    // unique (new strides) on the first mutable access.
    let mut c = c.view_mut();
    let dst = c.as_mut_ptr();
    let (c_rs, c_cs) = (c.strides()[0], c.strides()[1]);
    for k0 in (0..k).step_by(KC) {
        let k1 = (k0 + KC).min(k);
        let (a, b) = (a.slice(s![.., k0..k1]), b.slice(s![k0..k1, ..]));
        // The first stretch scales what `c` held by beta (or ignores it);
        // the next ones add to it.
        let (read_dst, dst_scale) = if k0 == 0 {
            (beta != T::zero(), beta)
        } else {
            (true, T::one())
        };
        // SAFETY: `a`, `b` and `c` are views of live memory with these
        // strides and the checked extents `[m, k1 - k0]`, `[k1 - k0, n]`
        // and `[m, n]`; `c` is borrowed mutably, so it overlaps neither
        // factor; `T` is f32 or f64, the types `gemm` dispatches on.
        unsafe {
            gemm::gemm(
                m,
                n,
                k1 - k0,
                dst,
                c_cs,
                c_rs,
                read_dst,
                a.as_ptr(),
                a.strides()[1],
                a.strides()[0],
                b.as_ptr(),
                b.strides()[1],
                b.strides()[0],
                dst_scale,
                alpha,
                false,
                false,
                false,
                gemm::Parallelism::None,
            );
        }
    }
}
