//! The memory limit on one tensor allocation (`fluidc run --max-memory`).
//!
//! A shape from an attribute or a tensor (`fill_constant`'s, a broadcast of
//! two large operands, a matmul's output) can ask for more memory than the
//! machine has, or for a byte count that overflows: Rust's allocator then
//! aborts the process, or `Vec` panics. Kernels check the size first
//! ([`check`]) and fail with [`KernelError::OutOfMemory`], which names the
//! shape, the dtype, the bytes and the limit; the op and its source line
//! come from the caller like every kernel error.
//!
//! The limit is per allocation, not a running total: it stops the one
//! impossible tensor, which is what a mistyped shape produces. It is set
//! for the thread that loads and runs a program ([`limit_to`]) and handed
//! to the scheduler's workers, so kernels and tensor functions read it
//! without it being threaded through every call.
use std::cell::Cell;

use fluidc_transpiler::VarKind;

use crate::error::{AllocError, KernelError};

thread_local! {
    static LIMIT: Cell<u64> = Cell::new(default_max_memory());
}

/// The default limit: half of the machine's memory (`MemTotal` in
/// `/proc/meminfo`) rounded down to whole GiB, at least 1 GiB; 8 GiB where
/// `/proc/meminfo` cannot be read.
pub fn default_max_memory() -> u64 {
    use std::sync::OnceLock;
    static DEFAULT: OnceLock<u64> = OnceLock::new();
    *DEFAULT.get_or_init(|| {
        const GIB: u64 = 1 << 30;
        let total = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| mem_total(&m));
        match total {
            Some(bytes) => (bytes / 2 / GIB).max(1) * GIB,
            None => 8 * GIB,
        }
    })
}

/// `MemTotal` of a `/proc/meminfo` text, in bytes.
fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The limit on this thread.
pub(crate) fn current() -> u64 {
    LIMIT.with(Cell::get)
}

/// Sets this thread's limit until the guard drops.
pub(crate) fn limit_to(bytes: u64) -> LimitGuard {
    LimitGuard {
        previous: LIMIT.with(|l| l.replace(bytes)),
    }
}

/// Restores the previous limit when dropped (see [`limit_to`]).
#[derive(Debug)]
pub(crate) struct LimitGuard {
    previous: u64,
}

impl Drop for LimitGuard {
    fn drop(&mut self) {
        LIMIT.with(|l| l.set(self.previous));
    }
}

/// The element count of a tensor of `shape` and `dtype` (`what` it is for
/// the op: "the output"), if its bytes fit under the limit.
pub(crate) fn check_as(
    what: &'static str,
    shape: &[i64],
    dtype: VarKind,
) -> Result<usize, KernelError> {
    let mut n: Option<u128> = Some(1);
    for &d in shape {
        let d = u128::try_from(d).map_err(|_| {
            KernelError::Shape(format!("shape {shape:?} is not a valid tensor shape"))
        })?;
        n = n.and_then(|n| n.checked_mul(d));
    }
    let bytes = n.and_then(|n| n.checked_mul(element_size(dtype)));
    let limit = current();
    match bytes {
        Some(b) if b <= u128::from(limit) => {
            Ok(n.and_then(|n| usize::try_from(n).ok()).unwrap_or(0))
        }
        _ => Err(KernelError::OutOfMemory(Box::new(AllocError {
            what,
            shape: shape.to_vec(),
            dtype,
            bytes,
            limit,
        }))),
    }
}

/// [`check_as`] for an op's output.
pub(crate) fn check(shape: &[i64], dtype: VarKind) -> Result<usize, KernelError> {
    check_as("the output", shape, dtype)
}

fn element_size(dtype: VarKind) -> u128 {
    match dtype {
        VarKind::Bool | VarKind::Int8 | VarKind::Uint8 => 1,
        VarKind::Int16 | VarKind::Fp16 | VarKind::Bf16 => 2,
        VarKind::Int32 | VarKind::Fp32 | VarKind::Uint32 => 4,
        _ => 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_over_the_limit_or_overflowing_are_errors_not_aborts() {
        let _g = limit_to(1 << 30);
        assert_eq!(check(&[1000, 1000], VarKind::Fp32), Ok(1_000_000));
        let e = check(&[100_000, 100_000], VarKind::Fp32).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the output of shape [100000, 100000] float32 needs 40000000000 bytes, \
             over the 1 GiB limit (--max-memory)"
        );
        let e = check(&[3_037_000_500, 3_037_000_500], VarKind::Fp32).unwrap_err();
        assert!(
            e.to_string().contains("needs 36893488148001000000 bytes"),
            "{e}"
        );
        let e = check(&[i64::MAX, i64::MAX, i64::MAX], VarKind::Fp64).unwrap_err();
        assert!(e.to_string().contains("more than 2^128 bytes"), "{e}");
        assert!(matches!(
            check(&[-1], VarKind::Fp32),
            Err(KernelError::Shape(_))
        ));
        assert_eq!(
            mem_total("MemTotal:       24684096 kB\n"),
            Some(25276514304)
        );
    }
}
