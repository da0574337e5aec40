//! `hash`: each row of `X` (int32 or int64 ids, `[rows, width]`) hashed
//! `num_hash` times, XXH64 of the row's bytes seeded by the hash's index,
//! modulo `mod_by`: `Out` is `[rows, num_hash, 1]` in `X`'s dtype, with
//! `X`'s LoD. Paddle's CPU kernel (`hash_op.h`), whose results a trained
//! embedding indexed by them depends on, so the hash must be the same.
use fluidc_transpiler::VarKind;
use xxhash_rust::xxh64::xxh64;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("hash", hash);
}

fn hash(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let num_hash = l.int("num_hash")?;
    let mod_by = l.int("mod_by")?;
    if num_hash < 0 || mod_by <= 0 {
        return Err(KernelError::Attribute(format!(
            "hash: num_hash ({num_hash}) must be 0 or more and mod_by ({mod_by}) positive"
        )));
    }
    let (num_hash, modulus) = (num_hash as usize, mod_by as u64);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let &[rows, width] = t.shape() else {
            return Err(KernelError::Shape(format!(
                "hash: X must have 2 dims, not {:?}",
                t.shape()
            )));
        };
        let (rows, width) = (rows.max(0) as usize, width.max(0) as usize);
        // Each row's bytes as Paddle's kernel reads them (little-endian
        // ids), hashed with each seed in turn.
        let hashes = |bytes: &[u8], out: &mut Vec<u64>| {
            for seed in 0..num_hash as u64 {
                out.push(xxh64(bytes, seed) % modulus);
            }
        };
        let mut values = Vec::with_capacity(rows * num_hash);
        let result = match t.dtype() {
            VarKind::Int32 => {
                let ids = t.values::<i32>().unwrap_or_default();
                for row in ids.chunks_exact(width.max(1)).take(rows) {
                    let bytes: Vec<u8> = row.iter().flat_map(|v| v.to_le_bytes()).collect();
                    hashes(&bytes, &mut values);
                }
                // Paddle stores each hash in X's dtype (mod_by keeps it in range).
                let out: Vec<i32> = values.iter().map(|&h| h as i32).collect();
                Tensor::from_vec(&[rows as i64, num_hash as i64, 1], out)
            }
            VarKind::Int64 => {
                let ids = t.values::<i64>().unwrap_or_default();
                for row in ids.chunks_exact(width.max(1)).take(rows) {
                    let bytes: Vec<u8> = row.iter().flat_map(|v| v.to_le_bytes()).collect();
                    hashes(&bytes, &mut values);
                }
                let out: Vec<i64> = values.iter().map(|&h| h as i64).collect();
                Tensor::from_vec(&[rows as i64, num_hash as i64, 1], out)
            }
            other => {
                return Err(KernelError::Dtype(format!(
                    "hash: X is {}; it takes int32 or int64 ids",
                    dtype_name(other)
                )))
            }
        }?;
        let lod = t.lod().to_vec();
        drop(t);
        s.set_tensor(&out, result.with_lod(lod));
        Ok(())
    })
}
