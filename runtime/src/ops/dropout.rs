//! dropout and its gradient, as Paddle 3.3.1's CPU kernels (the mask from
//! the session's random engine; downgrade_in_infer or upscale_in_train).

use fluidc_transpiler::VarKind;

use super::float::{self, f64s, i64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("dropout", dropout);
    r.add("dropout_grad", dropout_grad);
}

/// The attributes dropout and its grad share.
#[derive(Debug, Clone, Copy)]
struct DropoutAttrs {
    p: f64,
    is_test: bool,
    upscale: bool,
}

/// `dropout`, as Paddle's CPU kernel: training draws `uniform_real<float>(0,
/// 1)` per element from `mt19937_64(seed)` (`Seed` input, or `seed` when
/// `fix_seed`) or the session's engine, and drops the element when the
/// draw is below `dropout_prob` (`Mask` 0; kept ones are scaled by `1 / (1
/// - p)` with `upscale_in_train`). At test time `downgrade_in_infer`
/// scales by `1 - p`. `Mask` is held as bool (Paddle's is uint8).
fn dropout(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let seed_t = l.opt_input("Seed").ok().flatten();
    let mask = l.opt_output("Mask")?;
    let a = DropoutAttrs::load(l)?;
    let fixed = if l.bool_or("fix_seed", false)? {
        l.int_or("seed", 0)?
    } else {
        0
    };
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let v = f64s(&xt, "dropout")?;
        let dtype = xt.dtype();
        if a.is_test {
            let k = if a.upscale { 1.0 } else { 1.0 - a.p };
            let t = float::tensor(dtype, xt.shape(), v.iter().map(|x| x * k).collect())?;
            s.set_tensor(&out, t);
            return Ok(());
        }
        let seed = match &seed_t {
            Some(r) => s.tensor(r)?.scalar_i64()?,
            None => fixed,
        };
        let (keep, y): (Vec<bool>, Vec<f64>) = if a.p >= 1.0 {
            (vec![false; v.len()], vec![0.0; v.len()])
        } else {
            let p = a.p as f32;
            let dist = crate::random::UniformReal::new(0.0f32, 1.0);
            let keep: Vec<bool> = crate::random::with_engine(seed, |e| {
                (0..v.len()).map(|_| dist.sample(e) >= p).collect()
            });
            let y = v
                .iter()
                .zip(&keep)
                .map(|(&x, &k)| match (k, a.upscale) {
                    (false, _) => 0.0,
                    (true, true) => scale_kept(dtype, x, a.p),
                    (true, false) => x,
                })
                .collect();
            (keep, y)
        };
        s.set_tensor(&out, float::tensor(dtype, xt.shape(), y)?);
        if let Some(m) = &mask {
            s.set_tensor(m, Tensor::from_vec(xt.shape(), keep)?);
        }
        Ok(())
    })
}

/// `x / T(1 - p)` in the tensor's dtype, as Paddle scales kept elements.
fn scale_kept(dtype: VarKind, x: f64, p: f64) -> f64 {
    match dtype {
        VarKind::Fp32 => f64::from(x as f32 / (1.0f32 - p as f32)),
        _ => x / (1.0 - p),
    }
}

/// `dropout_grad`: `Out@GRAD` through the mask (scaled as the forward).
fn dropout_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (mask, dout) = (l.input("Mask")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let a = DropoutAttrs::load(l)?;
    compute(move |s| {
        let dt = s.tensor(&dout)?.into_owned();
        let d = f64s(&dt, "dropout_grad")?;
        let g: Vec<f64> = if a.is_test {
            let k = if a.upscale { 1.0 } else { 1.0 - a.p };
            d.iter().map(|x| x * k).collect()
        } else {
            let mt = s.tensor(&mask)?;
            let m = i64s(&mt)?;
            if m.len() != d.len() {
                return Err(KernelError::Shape(
                    "dropout_grad: Mask does not fit Out@GRAD".into(),
                ));
            }
            d.iter()
                .zip(m.iter())
                .map(|(&x, &k)| match (k != 0, a.upscale) {
                    (false, _) => 0.0,
                    (true, true) if a.p < 1.0 => scale_kept(dt.dtype(), x, a.p),
                    (true, true) => 0.0,
                    (true, false) => x,
                })
                .collect()
        };
        s.set_tensor(&dx, float::tensor(dt.dtype(), dt.shape(), g)?);
        Ok(())
    })
}

impl DropoutAttrs {
    fn load(l: &OpReader) -> Result<DropoutAttrs, KernelError> {
        let upscale = match l
            .string("dropout_implementation")?
            .unwrap_or("downgrade_in_infer")
        {
            "upscale_in_train" => true,
            "downgrade_in_infer" => false,
            other => {
                return Err(KernelError::Attribute(format!(
                    "unknown dropout_implementation {other:?}"
                )))
            }
        };
        Ok(DropoutAttrs {
            p: l.float_or("dropout_prob", 0.5)?,
            is_test: l.bool_or("is_test", false)?,
            upscale,
        })
    }
}
