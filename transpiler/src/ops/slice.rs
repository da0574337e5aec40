//! `slice` (and `slice_dims`, the output dims it gives, which the runtime
//! uses too), 1.6's `strided_slice` (`strided_len`, likewise) and
//! `temporal_shift` (channels taken from the neighbouring time steps).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("slice", slice).shares_lod("Input", "Out"));
    r.push(Behaviour::pure("strided_slice", strided_slice));
    r.push(Behaviour::pure("temporal_shift", temporal_shift));
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

/// One axis of 1.x's `StridedSliceOutDims`: how many elements `start`,
/// `end`, `stride` take of a dim of `size` (negative `start`/`end` count
/// from the end once; a negative stride walks down). A stride of 0, or
/// bounds the stride walks away from, are 1.x's errors.
pub fn strided_len(size: i64, start: i64, end: i64, stride: i64) -> Result<i64, String> {
    if stride == 0 {
        return Err("stride must not to be zero".into());
    }
    let norm = |v: i64| if v < 0 { v + size } else { v };
    let (mut s, mut e) = (norm(start), norm(end));
    if stride < 0 {
        s += 1;
        e += 1;
    }
    if (stride < 0 && s <= e) || (stride > 0 && s >= e) {
        return Err(format!(
            "starts and end must meet requirement in different stride condition: start {start}, end {end}, stride {stride}"
        ));
    }
    let (left, right) = (s.min(e).max(0), s.max(e).min(size));
    let step = stride.abs();
    Ok(((right - left).abs() + step - 1) / step)
}

/// `strided_slice` (1.6's `InferShape`): each of `axes` cut by
/// [`strided_len`] (unknown where `infer_flags` is -1 or the dim is), then
/// the `decrease_axis` dims dropped (`[1]` if none is left); unknown when
/// a tensor gives the starts, ends or strides.
fn strided_slice(c: &InferCtx) -> Out {
    let Some(x) = c.input("Input") else {
        return Ok(Vec::new());
    };
    let dynamic = [
        "StartsTensor",
        "EndsTensor",
        "StridesTensor",
        "StartsTensorList",
        "EndsTensorList",
        "StridesTensorList",
    ];
    if dynamic.iter().any(|s| c.has_input(s)) {
        return Ok(Vec::new());
    }
    let get = |n| c.ints(n).unwrap_or_default();
    let (axes, starts, ends, strides) = (get("axes"), get("starts"), get("ends"), get("strides"));
    let (flags, decrease) = (get("infer_flags"), get("decrease_axis"));
    if [starts.len(), ends.len(), strides.len()] != [axes.len(); 3] {
        return Err(format!(
            "The size of starts, ends and strides must be equal to the size of axes: axes {axes:?}, starts {starts:?}, ends {ends:?}, strides {strides:?}"
        ));
    }
    let rank = x.dims.len();
    let mut dims = x.dims.clone();
    for (i, &a) in axes.iter().enumerate() {
        let k = usize::try_from(a)
            .ok()
            .filter(|&k| k < rank)
            .ok_or_else(|| format!("axis {a} is out of range for rank {rank}"))?;
        let flag = flags.get(i).copied().unwrap_or(1);
        if flag == -1 && starts[i] == -1 && ends[i] == 0 && decrease.contains(&a) {
            dims[k] = 1;
        } else if flag == -1 {
            dims[k] = -1;
        } else if dims[k] >= 0 {
            dims[k] = strided_len(dims[k], starts[i], ends[i], strides[i])?;
        } else if strides[i] == 0 {
            return Err("stride must not to be zero".into());
        }
    }
    let mut out: Vec<i64> = (0..rank)
        .filter(|&i| !decrease.contains(&(i as i64)))
        .map(|i| dims[i])
        .collect();
    if out.is_empty() && !decrease.is_empty() {
        out.push(1);
    }
    Ok(vec![("Out", TensorType::new(x.dtype, out))])
}

/// `temporal_shift` (1.x's `InferShape`): `X` is `[N * seg_num, C, H,
/// W]`, `seg_num` positive, `shift_ratio` in (0, 0.5); `Out` is `X`.
fn temporal_shift(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!(
            "Input(X) rank should be 4 in shape of [N*T, C, H, W], got {:?}",
            x.dims
        ));
    }
    if c.int("seg_num").is_none_or(|t| t <= 0) {
        return Err("Attr(seg_num) should be greater than 0.".into());
    }
    match c.attr("shift_ratio") {
        Some(crate::model::AttrValue::Float(r)) if *r > 0.0 && *r < 0.5 => {}
        _ => return Err("Attr(shift_ratio) should be greater than 0 and less than 0.5.".into()),
    }
    if !matches!(c.string("data_format"), None | Some("NCHW" | "AnyLayout")) {
        return Ok(Vec::new());
    }
    Ok(vec![("Out", x.clone())])
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
