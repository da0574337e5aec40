//! Where a kernel writes its output: into the buffer the output variable
//! already holds when nothing else shares it (docs/training.md, "Kernels").
//!
//! A kernel takes the output's old tensor out of its variable
//! ([`Vars::take_output`]) before it computes. If the output is not one of
//! its inputs, the result is written into that tensor's buffer when it has
//! one owner and the right dtype and room (`Buffer::refill`), so a loop
//! that rewrites a variable allocates once. If the output *is* one of its
//! inputs (`x = relu(x)`, an optimizer's `ParamOut = Param`), the input is
//! updated in place when nothing else shares its buffer. Either way a
//! shared buffer is never written: copy-on-write keeps `assign`'s and
//! channel sends' copies intact.
use crate::error::KernelError;
use crate::scope::VarRef;
use crate::scope::Vars;
use crate::tensor::{par, Buffer, Element, Shape, Tensor};

/// The input of a one-input kernel whose output has the input's shape.
#[derive(Debug)]
pub(crate) enum Source<'a> {
    /// The input, read, and what the output variable held (to reuse).
    Read(&'a Tensor, Option<Box<Tensor>>),
    /// The input is the output variable: taken out of it, to update in place.
    Own(Box<Tensor>),
}

impl Source<'_> {
    pub(crate) fn tensor(&self) -> &Tensor {
        match self {
            Source::Read(t, _) => t,
            Source::Own(t) => t,
        }
    }
}

/// `f` of every element of a `T` tensor: in place for [`Source::Own`] when
/// its buffer has one owner, else into the old output buffer or a new one.
pub(crate) fn map<T: Element>(src: Source, f: impl Fn(T) -> T + Sync) -> Box<Tensor> {
    let (x, old) = match src {
        Source::Own(mut t) => {
            if let Some(v) = t.unique_values_mut::<T>() {
                par::for_halves(v, |_, chunk| chunk.iter_mut().for_each(|e| *e = f(*e)));
                return t;
            }
            return Box::new(map_into(&t, None, f));
        }
        Source::Read(x, old) => (x, old),
    };
    Box::new(map_into(x, old, f))
}

/// `f` of every element of `x` (of dtype `S`) as a new tensor of dtype `T`,
/// written into `old`'s buffer when it has one owner and room; on two
/// threads for a large tensor (see `crate::tensor::par`).
pub(crate) fn map_into<S: Element, T: Element>(
    x: &Tensor,
    old: Option<Box<Tensor>>,
    f: impl Fn(S) -> T + Sync,
) -> Tensor {
    let v = x.values::<S>().unwrap_or_default();
    let old = old.and_then(|t| t.into_buffer::<T>());
    let data = match v.first() {
        Some(&first) if v.len() >= par::ELEMENTS && par::threads() > 1 => {
            let mut out = Buffer::reuse_vec(old, v.len(), f(first));
            par::for_halves(&mut out, |start, chunk| {
                for (o, &e) in chunk.iter_mut().zip(&v[start..]) {
                    *o = f(e);
                }
            });
            Buffer::from(out)
        }
        _ => Buffer::refill(old, v.len(), v.iter().map(|&e| f(e))),
    };
    Tensor::from_parts(Shape::from_slice(x.shape()), T::wrap(data))
}

/// Runs a one-input kernel `f` from `x` to `out` (see the module docs).
pub(crate) fn map_vars(
    s: &mut Vars,
    x: &VarRef,
    out: &VarRef,
    f: impl FnOnce(Source) -> Result<Box<Tensor>, KernelError>,
) -> Result<(), KernelError> {
    let old = s.take_output(out);
    let t = match old {
        Some(own) if x.place == out.place => f(Source::Own(own))?,
        old => f(Source::Read(&*s.tensor(x)?, old))?,
    };
    s.set_boxed(out, t);
    Ok(())
}

/// What the output variable held, to write a result into, unless the
/// output is one of `inputs` (which must then be read as they are).
pub(crate) fn take_unless_input(
    s: &mut Vars,
    out: &VarRef,
    inputs: &[&VarRef],
) -> Option<Box<Tensor>> {
    if inputs.iter().any(|x| x.place == out.place) {
        return None;
    }
    s.take_output(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_maps_split_over_threads_give_the_one_thread_result() {
        let n = par::ELEMENTS * 2 + 3;
        let v: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.01).collect();
        let x = Tensor::from_vec(&[n as i64], v.clone()).expect("tensor");
        let got = map_into::<f32, f64>(&x, None, |e| f64::from(e).exp());
        let want: Vec<f64> = v.iter().map(|&e| f64::from(e).exp()).collect();
        assert_eq!(got.values::<f64>(), Some(&want[..]));

        let at = x.values::<f32>().expect("f32").as_ptr();
        let own = map(Source::Own(Box::new(x)), |e: f32| e * 2.0 + 1.0);
        let want: Vec<f32> = v.iter().map(|&e| e * 2.0 + 1.0).collect();
        let got = own.values::<f32>().expect("f32");
        assert_eq!((got, got.as_ptr()), (&want[..], at), "in place");
    }
}
