//! `slice` (and `slice_dims`, the output dims it gives, which the runtime
//! uses too).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("slice", slice).shares_lod("Input", "Out"));
}

/// `Out` is `Input` cut to `[starts, ends)` along `axes` (negative counts
/// from the end, clamped to the dim), without the `decrease_axis` dims.
fn slice(c: &InferCtx) -> Out {
    let Some(x) = c.input("Input") else {
        return Ok(Vec::new());
    };
    let dynamic = [
        "StartsTensor",
        "EndsTensor",
        "StartsTensorList",
        "EndsTensorList",
    ];
    if dynamic.iter().any(|s| c.has_input(s)) {
        return Ok(Vec::new());
    }
    let (axes, starts, ends) = (
        c.ints("axes").unwrap_or_default(),
        c.ints("starts").unwrap_or_default(),
        c.ints("ends").unwrap_or_default(),
    );
    let dims = slice_dims(&x.dims, &axes, &starts, &ends)?;
    let decrease = c.ints("decrease_axis").unwrap_or_default();
    let rank = x.dims.len() as i64;
    let mut out: Vec<i64> = Vec::with_capacity(dims.len());
    for (i, &d) in dims.iter().enumerate() {
        if !decrease
            .iter()
            .any(|&a| (if a < 0 { a + rank } else { a }) == i as i64)
        {
            out.push(d);
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, out))])
}

/// The dims `slice` keeps of `x` (before `decrease_axis`), shared with the
/// runtime's kernel; unknown dims (-1) stay unknown.
pub fn slice_dims(
    x: &[i64],
    axes: &[i64],
    starts: &[i64],
    ends: &[i64],
) -> Result<Vec<i64>, String> {
    if axes.len() != starts.len() || axes.len() != ends.len() {
        return Err(format!(
            "axes {axes:?}, starts {starts:?} and ends {ends:?} must have one entry each"
        ));
    }
    let rank = x.len() as i64;
    let mut dims = x.to_vec();
    for ((&a, &s), &e) in axes.iter().zip(starts).zip(ends) {
        let k = if a < 0 { a + rank } else { a };
        if !(0..rank).contains(&k) {
            return Err(format!("axis {a} is out of range for rank {rank}"));
        }
        let d = x[k as usize];
        if d < 0 {
            continue;
        }
        let clamp = |v: i64| (if v < 0 { v + d } else { v }).clamp(0, d);
        dims[k as usize] = (clamp(e) - clamp(s)).max(0);
    }
    Ok(dims)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Negative starts and ends count from the end and are clamped, as
    /// numpy's and Paddle's slices are; an unknown dim stays unknown.
    #[test]
    fn slice_clamps_and_counts_from_the_end() {
        assert_eq!(slice_dims(&[5, 6], &[1], &[1], &[-1]), Ok(vec![5, 4]));
        assert_eq!(slice_dims(&[5, 6], &[0], &[-3], &[100]), Ok(vec![3, 6]));
        assert_eq!(slice_dims(&[-1, 6], &[0], &[0], &[2]), Ok(vec![-1, 6]));
        assert!(slice_dims(&[5, 6], &[0, 1], &[0], &[1]).is_err());
    }
}
