//! Two threads for large kernels (docs/training.md, "Kernels": large
//! element-wise kernels may use more than one thread).
//!
//! Only work that is large enough to pay for starting a thread (tens of
//! microseconds here) is split: a matmul of 128³ multiply-adds or more, an
//! element-wise kernel over [`ELEMENTS`] elements or more. The split is
//! into two halves, each written by one thread, so results are the same
//! as on one thread, bit for bit. Paddle's CPU kernels run on one thread.
use std::sync::OnceLock;

/// Element-wise kernels over at least this many elements split their work.
pub(crate) const ELEMENTS: usize = 1 << 17;

/// Threads a large kernel uses: 2 where the machine has two cores or more.
pub(crate) fn threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(2)))
}

/// Runs `a` on a new thread and `b` on this one, and waits for both (both
/// here, one after the other, on a one-core machine).
pub(crate) fn join(a: impl FnOnce() + Send, b: impl FnOnce()) {
    if threads() < 2 {
        a();
        b();
        return;
    }
    std::thread::scope(|s| {
        s.spawn(a);
        b();
    });
}

/// `f(start, chunk)` over `out`: whole, or in two halves on two threads
/// when it has [`ELEMENTS`] elements or more (`start` is the chunk's
/// offset in `out`).
pub(crate) fn for_halves<O: Send>(out: &mut [O], f: impl Fn(usize, &mut [O]) + Sync) {
    if out.len() < ELEMENTS || threads() < 2 {
        return f(0, out);
    }
    let mid = out.len() / 2;
    let (a, b) = out.split_at_mut(mid);
    join(|| f(0, a), || f(mid, b));
}
