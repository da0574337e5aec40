//! `add_position_encoding` (and its grad) and `shard_index`, as Paddle's
//! CPU kernels.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::needs_float;
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("add_position_encoding", add_position_encoding);
    r.add("add_position_encoding_grad", add_position_encoding_grad);
    r.add("shard_index", shard_index);
}

/// Where each sequence of `x` starts and how long it is: its LoD's first
/// level for `[N, enc]`, else `[batch, steps, enc]`'s rows of `steps`.
fn sequences(x: &Tensor) -> Result<(Vec<(usize, usize)>, usize), KernelError> {
    let dims = x.shape();
    let enc = dims.last().map_or(0, |&d| d.max(0) as usize);
    match dims.len() {
        // 1.6 refused a LoD on a padded batch, and more than one level.
        3 if x.lod().is_empty() => {
            let (batch, steps) = (dims[0].max(0) as usize, dims[1].max(0) as usize);
            Ok(((0..batch).map(|b| (b * steps, steps)).collect(), enc))
        }
        2 if x.lod().len() == 1 => {
            let lod = x.lod();
            Tensor::check_lod(lod, dims[0].max(0) as usize)?;
            Ok((lod[0].windows(2).map(|w| (w[0], w[1] - w[0])).collect(), enc))
        }
        2 | 3 => Err(KernelError::Invalid(format!(
            "add_position_encoding takes X [N, enc] with a 1-level LoD or [batch, steps, enc] without one; got {dims:?} with LoD levels {}",
            x.lod().len()
        ))),
        _ => Err(KernelError::Shape(format!(
            "add_position_encoding takes X [N, enc] with LoD or [batch, steps, enc], got {dims:?}"
        ))),
    }
}

/// `Out = X * alpha + [sin(pos / 10000^(k / (half - 1))), cos(...)] * beta`
/// per step `pos` of each sequence, the sinusoids in double precision as
/// Paddle's kernel computes them.
fn add_position_encoding(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let (alpha, beta) = (l.float("alpha")?, l.float("beta")?);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (seqs, enc) = sequences(&xt)?;
        if enc % 2 != 0 {
            return Err(KernelError::Shape(format!(
                "add_position_encoding: the last dim {enc} must be even"
            )));
        }
        let half = enc / 2;
        let wave = |pos: usize, k: usize| {
            let pos = pos as f64;
            let v = if half > 1 {
                pos / 10000f64.powf(k as f64 / (half - 1) as f64)
            } else {
                pos / 10000.0
            };
            (v.sin(), v.cos())
        };
        let r = match xt.dtype() {
            VarKind::Fp32 => {
                let v = xt.values::<f32>().unwrap_or_default();
                let (a, b) = (alpha as f32, f64::from(beta as f32));
                let mut o = v.to_vec();
                for &(start, len) in &seqs {
                    for pos in 0..len {
                        let row = (start + pos) * enc;
                        for k in 0..half {
                            let (sin, cos) = wave(pos, k);
                            o[row + k] = (f64::from(v[row + k] * a) + sin * b) as f32;
                            o[row + half + k] = (f64::from(v[row + half + k] * a) + cos * b) as f32;
                        }
                    }
                }
                Tensor::from_vec(xt.shape(), o)?
            }
            VarKind::Fp64 => {
                let v = xt.values::<f64>().unwrap_or_default();
                let (a, b) = (f64::from(alpha as f32), f64::from(beta as f32));
                let mut o = v.to_vec();
                for &(start, len) in &seqs {
                    for pos in 0..len {
                        let row = (start + pos) * enc;
                        for k in 0..half {
                            let (sin, cos) = wave(pos, k);
                            o[row + k] = v[row + k] * a + sin * b;
                            o[row + half + k] = v[row + half + k] * a + cos * b;
                        }
                    }
                }
                Tensor::from_vec(xt.shape(), o)?
            }
            _ => return Err(needs_float("add_position_encoding", &xt)),
        };
        drop(xt);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// Its grad: `X@GRAD = Out@GRAD * alpha`.
fn add_position_encoding_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let alpha = l.float("alpha")? as f32;
    compute(move |s| {
        let d = s.tensor(&dout)?;
        let r = match (d.values::<f32>(), d.values::<f64>()) {
            (Some(v), _) => Tensor::from_vec(d.shape(), v.iter().map(|&g| g * alpha).collect())?,
            (_, Some(v)) => {
                let a = f64::from(alpha);
                Tensor::from_vec(d.shape(), v.iter().map(|&g| g * a).collect())?
            }
            _ => return Err(needs_float("add_position_encoding_grad", &d)),
        };
        drop(d);
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `shard_index`: an id in `[0, index_num)` whose shard (of
/// `ceil(index_num / nshards)` ids) is `shard_id` becomes its place in
/// that shard, any other `ignore_value`; an id out of range is Paddle's
/// error.
fn shard_index(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let (num, shards, id) = (l.int("index_num")?, l.int("nshards")?, l.int("shard_id")?);
    let ignore = l.int_or("ignore_value", -1)?;
    if num <= 0 || shards <= 0 || id < 0 || id >= shards {
        return Err(KernelError::Attribute(format!(
            "shard_index needs index_num > 0, nshards > 0 and 0 <= shard_id < nshards, got {num}, {shards}, {id}"
        )));
    }
    let size = (num + shards - 1) / shards;
    let map = move |v: i64| -> Result<i64, KernelError> {
        if !(0..num).contains(&v) {
            return Err(KernelError::Invalid(format!(
                "The input_index({v}) should be in the range of [0, {num}), but it is not."
            )));
        }
        Ok(if v / size == id { v % size } else { ignore })
    };
    compute(move |s| {
        let t = s.tensor(&x)?;
        let r = match (t.values::<i64>(), t.values::<i32>()) {
            (Some(v), _) => Tensor::from_vec(
                t.shape(),
                v.iter().map(|&v| map(v)).collect::<Result<Vec<_>, _>>()?,
            )?,
            (_, Some(v)) => Tensor::from_vec(
                t.shape(),
                v.iter()
                    .map(|&v| map(i64::from(v)).map(|o| o as i32))
                    .collect::<Result<Vec<_>, _>>()?,
            )?,
            _ => {
                return Err(KernelError::Dtype(format!(
                    "shard_index takes int32 or int64 ids, got {}",
                    dtype_name(t.dtype())
                )))
            }
        };
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}
