//! Tensor manipulation: `reshape2`, `squeeze2`, `unsqueeze2`, `transpose2`,
//! `concat`, `split`, `gather`, `argsort`, `reverse` (`slice` is its own
//! family).
use super::infer::{unknown, Out, TensorType};
use super::{Behaviour, InferCtx, Lod};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("reshape2", reshape2).lod(Lod::KeepsWhateverRows("X", "Out")));
    r.push(Behaviour::pure("transpose2", transpose2));
    r.push(Behaviour::pure("concat", concat).shares_lod("X", "Out"));
    r.push(Behaviour::pure("stack", stack));
    r.push(Behaviour::pure("unstack", unstack));
    // 1.x's InferShape shares X's LoD when dim 0 is not expanded.
    r.push(Behaviour::pure("expand", expand).shares_lod("X", "Out"));
    r.push(Behaviour::pure("expand_as", expand_as));
    r.push(Behaviour::pure("flatten2", flatten2).shares_lod("X", "Out"));
    r.push(Behaviour::pure("gather", gather));
    r.push(Behaviour::pure("scatter", scatter));
    r.push(Behaviour::pure("gather_nd", gather_nd));
    r.push(Behaviour::pure("scatter_nd_add", scatter_nd_add));
    r.push(Behaviour::pure("multiplex", multiplex));
    r.push(Behaviour::pure("crop", crop));
    r.push(Behaviour::pure("pixel_shuffle", pixel_shuffle));
    r.push(Behaviour::pure("shuffle_channel", shuffle_channel));
    r.push(Behaviour::pure("space_to_depth", space_to_depth).shares_lod("X", "Out"));
    r.push(Behaviour::pure("pad2d", pad2d).shares_lod("X", "Out"));
    r.push(Behaviour::pure("pad_constant_like", pad_constant_like).shares_lod("X", "Out"));
    r.push(Behaviour::pure("argsort", argsort).shares_lod("X", "Out"));
    r.push(Behaviour::pure("reverse", reverse));
    // An array's tensors joined: their number and sizes are known only
    // when it runs.
    r.push(
        Behaviour::pure("tensor_array_to_tensor", unknown)
            .not_foldable()
            .no_infer(),
    );
    r.push(Behaviour::pure("size", |c| {
        Ok(match c.input("Input") {
            Some(_) => vec![("Out", TensorType::new(VarKind::Int64, vec![1]))],
            None => Vec::new(),
        })
    }));
    r.push(Behaviour::pure("where_index", where_index).not_foldable());
    r.push(Behaviour::pure("unique", unique));
    r.push(Behaviour::pure("unique_with_counts", unique));
    // 1.x shares X's LoD when the first dim is kept (no padding before it).
    r.push(Behaviour::pure("pad", pad).shares_lod("X", "Out"));
    r.push(Behaviour::pure("split", split).lod(Lod::SharesEach("X", "Out")));
    r.push(Behaviour::pure("squeeze2", |c| squeezed(c, squeeze_dims)).shares_lod("X", "Out"));
    r.push(Behaviour::pure("unsqueeze2", |c| squeezed(c, unsqueeze_dims)).shares_lod("X", "Out"));
}

/// `squeeze2`/`unsqueeze2`: `Out` is `X` with dims of size 1 removed or
/// inserted at `axes` (`XShape` is left to its declaration, as for
/// `reshape2`).
/// The dims of `X` squeezed or unsqueezed at `axes`.
pub type SqueezeFn = fn(&[i64], &[i64]) -> Result<Vec<i64>, String>;

fn squeezed(c: &InferCtx, f: SqueezeFn) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if c.has_input("AxesTensor") || c.has_input("AxesTensorList") {
        return Ok(Vec::new());
    }
    let dims = f(&x.dims, &c.ints("axes").unwrap_or_default())?;
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// An error unless `index` (named `slot`) holds int32 or int64 values.
fn int_index(index: &TensorType, slot: &str) -> Result<(), String> {
    if matches!(index.dtype, VarKind::Int32 | VarKind::Int64) {
        Ok(())
    } else {
        Err(format!(
            "{slot} must be int32 or int64, not {:?}",
            index.dtype
        ))
    }
}

/// `scatter`: `Out` is `X` with the rows at `Ids` (1-D, as 1.x's
/// `InferShape` required) replaced by (or, without `overwrite`, set to the
/// sum of) the rows of `Updates`.
fn scatter(c: &InferCtx) -> Out {
    let (Some(x), Some(ids), Some(updates)) = (c.input("X"), c.input("Ids"), c.input("Updates"))
    else {
        return Ok(Vec::new());
    };
    int_index(ids, "Ids")?;
    if ids.dims.len() != 1 {
        return Err(format!("Ids must be 1-D, not of dims {:?}", ids.dims));
    }
    if updates.dims.len() != x.dims.len() {
        return Err(format!(
            "Updates {:?} must have the rank of X {:?}",
            updates.dims, x.dims
        ));
    }
    if let (Some(&u), &n) = (updates.dims.first(), &ids.dims[0]) {
        if u >= 0 && n >= 0 && u != n {
            return Err(format!("Updates has {u} rows for {n} Ids"));
        }
    }
    for (k, (&u, &d)) in updates.dims.iter().zip(&x.dims).enumerate().skip(1) {
        if u >= 0 && d >= 0 && u != d {
            return Err(format!(
                "dim {k} of Updates {:?} does not match X {:?}",
                updates.dims, x.dims
            ));
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, x.dims.clone()))])
}

/// `gather_nd`: `Index`'s dims but its last, then `X`'s dims after the
/// first `Index.dims[-1]` (each index row addresses that many dims of `X`).
fn gather_nd(c: &InferCtx) -> Out {
    let (Some(x), Some(index)) = (c.input("X"), c.input("Index")) else {
        return Ok(Vec::new());
    };
    int_index(index, "Index")?;
    let Some((&depth, lead)) = index.dims.split_last() else {
        return Err("Index of gather_nd must have a rank of at least 1".into());
    };
    if depth < 0 {
        return Ok(Vec::new());
    }
    if depth as usize > x.dims.len() {
        return Err(format!(
            "Index rows of {depth} exceed the rank of X {:?}",
            x.dims
        ));
    }
    let mut dims = lead.to_vec();
    dims.extend_from_slice(&x.dims[depth as usize..]);
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `scatter_nd_add` (`ScatterNdAddInferMeta`): `Out` is `X`; `Index`
/// is int32/int64 with rows of at most `X`'s rank, and `Updates` is
/// `Index`'s dims but the last, then `X`'s dims after the indexed ones.
fn scatter_nd_add(c: &InferCtx) -> Out {
    let (Some(x), Some(index), Some(updates)) =
        (c.input("X"), c.input("Index"), c.input("Updates"))
    else {
        return Ok(Vec::new());
    };
    int_index(index, "Index")?;
    if updates.dtype != x.dtype {
        return Err("Updates must have X's dtype".into());
    }
    let Some((&depth, lead)) = index.dims.split_last() else {
        return Err("Index of scatter_nd_add must have a rank of at least 1".into());
    };
    if depth > x.dims.len() as i64 {
        return Err(format!(
            "The last dimension of Input(Index)'s shape should be no greater than the rank of Input(X), got Index {:?} and X {:?}",
            index.dims, x.dims
        ));
    }
    if depth >= 0 {
        let mut want = lead.to_vec();
        want.extend_from_slice(&x.dims[depth as usize..]);
        // Compared as Paddle compares them: an unknown dim matches only
        // an unknown one.
        let fits = want == updates.dims;
        if !fits {
            return Err(format!(
                "Updates {:?} must be Index's dims but the last and X's after the indexed ones: {want:?}",
                updates.dims
            ));
        }
    }
    Ok(vec![("Out", x.clone())])
}

/// `multiplex`: `Out` is shaped as each `X` (at least two, of rank 2 or
/// more); `Ids` is `[rows, 1]`.
fn multiplex(c: &InferCtx) -> Out {
    let (Some(xs), Some(ids)) = (c.inputs("X"), c.input("Ids")) else {
        return Ok(Vec::new());
    };
    int_index(ids, "Ids")?;
    if ids.dims.len() != 2 || (ids.dims[1] >= 0 && ids.dims[1] != 1) {
        return Err(format!("Ids must be of dims [rows, 1], not {:?}", ids.dims));
    }
    if xs.len() < 2 {
        return Err("multiplex needs at least 2 inputs".into());
    }
    let first = xs[0];
    if first.dims.len() < 2 {
        return Err(format!(
            "the inputs of multiplex must have a rank of at least 2, not {:?}",
            first.dims
        ));
    }
    Ok(vec![(
        "Out",
        TensorType::new(first.dtype, first.dims.clone()),
    )])
}

/// `crop`: `Out` has the dims of `Y` when given (of `X`'s rank), else the
/// `shape` attribute's (one per dim of `X`; a -1 first dim is `X`'s when
/// the op runs).
fn crop(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let dims = if c.has_input("Y") {
        let Some(y) = c.input("Y") else {
            return Ok(Vec::new());
        };
        if y.dims.len() != x.dims.len() {
            return Err(format!(
                "Y {:?} of crop must have the rank of X {:?}",
                y.dims, x.dims
            ));
        }
        y.dims.clone()
    } else {
        let shape = c.ints("shape").unwrap_or_default();
        if shape.len() != x.dims.len() {
            return Err(format!(
                "crop's shape {shape:?} must give one size per dim of X {:?}",
                x.dims
            ));
        }
        shape
    };
    if !c.has_input("Offsets") {
        let offsets = c.ints("offsets").unwrap_or_default();
        if offsets.len() != x.dims.len() {
            return Err(format!(
                "crop's offsets {offsets:?} must give one offset per dim of X {:?}",
                x.dims
            ));
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `pad2d`: a 4-D `X` (`data_format` NCHW or NHWC) widened by `paddings`
/// (top, bottom, left, right); with a `Paddings` tensor the height and
/// width are known only when it runs.
fn pad2d(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!("X of pad2d must be 4-D, not of dims {:?}", x.dims));
    }
    let (h, w) = match c.string("data_format").unwrap_or("NCHW") {
        "NCHW" => (2, 3),
        "NHWC" => (1, 2),
        other => {
            return Err(format!(
                "data_format of pad2d must be NCHW or NHWC, not {other:?}"
            ))
        }
    };
    let mode = c.string("mode").unwrap_or("constant");
    if !matches!(mode, "constant" | "reflect" | "edge") {
        return Err(format!(
            "mode of pad2d must be constant, reflect or edge, not {mode:?}"
        ));
    }
    let mut dims = x.dims.clone();
    if c.has_input("Paddings") {
        dims[h] = -1;
        dims[w] = -1;
    } else {
        let p = c.ints("paddings").unwrap_or_default();
        if p.len() != 4 {
            return Err(format!("paddings {p:?} of pad2d must hold 4 counts"));
        }
        for (d, (a, b)) in [(h, (p[0], p[1])), (w, (p[2], p[3]))] {
            if dims[d] >= 0 {
                dims[d] += a + b;
            }
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `pad_constant_like`: `Y` padded at the end of each dim to the dims of
/// `X` (of its rank, no dim smaller).
fn pad_constant_like(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != y.dims.len()
        || x.dims
            .iter()
            .zip(&y.dims)
            .any(|(&a, &b)| a >= 0 && b >= 0 && a < b)
    {
        return Err(format!(
            "X {:?} of pad_constant_like must have the rank of Y {:?} and no smaller dim",
            x.dims, y.dims
        ));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, x.dims.clone()))])
}

/// The 4-D dims of `X` of `op`.
fn image<'a>(c: &'a InferCtx, op: &str) -> Result<Option<&'a TensorType>, String> {
    match c.input("X") {
        Some(x) if x.dims.len() != 4 => {
            Err(format!("X of {op} must be 4-D, not of dims {:?}", x.dims))
        }
        x => Ok(x),
    }
}

/// `pixel_shuffle`: `[N, C*r*r, H, W]` to `[N, C, H*r, W*r]` (NCHW; NHWC
/// likewise with the channels last), `r` the `upscale_factor`.
fn pixel_shuffle(c: &InferCtx) -> Out {
    let Some(x) = image(c, "pixel_shuffle")? else {
        return Ok(Vec::new());
    };
    let r = c.int("upscale_factor").unwrap_or(1);
    if r <= 0 {
        return Err(format!(
            "upscale_factor of pixel_shuffle must be positive, not {r}"
        ));
    }
    let (ch, h, w) = match c.string("data_format").unwrap_or("NCHW") {
        "NCHW" => (1, 2, 3),
        "NHWC" => (3, 1, 2),
        other => {
            return Err(format!(
                "data_format of pixel_shuffle must be NCHW or NHWC, not {other:?}"
            ))
        }
    };
    let mut dims = x.dims.clone();
    if dims[ch] >= 0 {
        if dims[ch] % (r * r) != 0 {
            return Err(format!(
                "the channels of X {:?} are not a multiple of upscale_factor {r} squared",
                x.dims
            ));
        }
        dims[ch] /= r * r;
    }
    for d in [h, w] {
        if dims[d] >= 0 {
            dims[d] *= r;
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `shuffle_channel`: `X`'s dims (its channels regrouped).
fn shuffle_channel(c: &InferCtx) -> Out {
    let Some(x) = image(c, "shuffle_channel")? else {
        return Ok(Vec::new());
    };
    let g = c.int("group").unwrap_or(1);
    if g <= 0 || (x.dims[1] >= 0 && x.dims[1] % g != 0) {
        return Err(format!(
            "the channels of X {:?} do not divide into {g} groups",
            x.dims
        ));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, x.dims.clone()))])
}

/// `space_to_depth` (1.x): `[N, C, H, W]` to `[N, C*b*b, H/b, W/b]`, `b`
/// the `blocksize` (more than 1, dividing H and W; `C` a multiple of
/// `b*b`, as 1.x required).
fn space_to_depth(c: &InferCtx) -> Out {
    let Some(x) = image(c, "space_to_depth")? else {
        return Ok(Vec::new());
    };
    let b = c.int("blocksize").unwrap_or(2);
    if b <= 1 {
        return Err(format!(
            "blocksize of space_to_depth must be greater than 1, not {b}"
        ));
    }
    let mut dims = x.dims.clone();
    for (d, m) in [(1, b * b), (2, b), (3, b)] {
        if dims[d] >= 0 && (dims[d] == 0 || dims[d] % m != 0) {
            return Err(format!(
                "dim {d} of X {:?} is not a positive multiple of {m} (blocksize {b})",
                x.dims
            ));
        }
    }
    let grow = |d: i64, f: &dyn Fn(i64) -> i64| if d < 0 { -1 } else { f(d) };
    dims[1] = grow(dims[1], &|d| d * b * b);
    dims[2] = grow(dims[2], &|d| d / b);
    dims[3] = grow(dims[3], &|d| d / b);
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `expand_as` (1.x): `X` tiled to the dims of `target_tensor` (of its
/// rank, at most 6; each dim a multiple of `X`'s). 1.x declared the output
/// with dims of 0; fluidc gives the target's.
fn expand_as(c: &InferCtx) -> Out {
    let (Some(x), Some(t)) = (c.input("X"), c.input("target_tensor")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != t.dims.len() || x.dims.len() > 6 {
        return Err(format!(
            "target_tensor {:?} of expand_as must have the rank of X {:?} (at most 6)",
            t.dims, x.dims
        ));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, t.dims.clone()))])
}

/// `split`: a type per piece of `X` along `axis` ([`split_sizes`]), as
/// 1.x's InferShape gave them at `append_op` (its op tests declare the
/// pieces with no shape). Pieces sized by tensors are unknown.
fn split(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if c.has_input("AxisTensor") || c.has_input("SectionsTensorList") {
        return Ok(Vec::new());
    }
    let rank = x.dims.len() as i64;
    let axis = c.int("axis").unwrap_or(0);
    let axis = if axis < 0 { axis + rank } else { axis };
    if !(0..rank).contains(&axis) {
        return Err(format!("axis {axis} is out of range for X {:?}", x.dims));
    }
    let sizes = split_sizes(
        x.dims[axis as usize],
        c.int("num").unwrap_or(0),
        &c.ints("sections").unwrap_or_default(),
    )?;
    let pieces = c.op.outputs_of("Out").len();
    if sizes.len() != pieces {
        return Err(format!(
            "X splits into {} pieces but Out names {pieces}",
            sizes.len()
        ));
    }
    Ok(sizes
        .into_iter()
        .map(|n| {
            let mut dims = x.dims.clone();
            dims[axis as usize] = n;
            ("Out", TensorType::new(x.dtype, dims))
        })
        .collect())
}

/// `split`'s pieces along a dim of size `dim`: `num` equal ones, or
/// `sections` (one -1 takes the rest). Shared with the runtime's kernel;
/// an unknown dim (-1) gives unknown pieces.
pub fn split_sizes(dim: i64, num: i64, sections: &[i64]) -> Result<Vec<i64>, String> {
    if num > 0 {
        if dim >= 0 && dim % num != 0 {
            return Err(format!(
                "a dim of {dim} does not split into {num} equal parts"
            ));
        }
        return Ok(vec![if dim < 0 { -1 } else { dim / num }; num as usize]);
    }
    let unknown = sections.iter().filter(|&&s| s < 0).count();
    if unknown > 1 {
        return Err(format!("sections {sections:?} have more than one -1"));
    }
    let known: i64 = sections.iter().filter(|&&s| s >= 0).sum();
    if dim < 0 {
        return Ok(sections.to_vec());
    }
    if known > dim || (unknown == 0 && known != dim) {
        return Err(format!(
            "sections {sections:?} do not add up to the dim {dim}"
        ));
    }
    Ok(sections
        .iter()
        .map(|&s| if s < 0 { dim - known } else { s })
        .collect())
}

/// Paddle's `squeeze`: the dims of size 1 at `axes` removed (other sizes
/// at `axes` stay); without `axes`, every dim of size 1. Shared with the
/// runtime's kernel.
pub fn squeeze_dims(x: &[i64], axes: &[i64]) -> Result<Vec<i64>, String> {
    let rank = x.len() as i64;
    let mut drop = vec![axes.is_empty(); x.len()];
    for &a in axes {
        let k = if a < 0 { a + rank } else { a };
        if !(0..rank).contains(&k) {
            return Err(format!("squeeze axis {a} is out of range for rank {rank}"));
        }
        drop[k as usize] = true;
    }
    Ok(x.iter()
        .zip(&drop)
        .filter(|(&d, &dropped)| !(dropped && d == 1))
        .map(|(&d, _)| d)
        .collect())
}

/// Paddle's `unsqueeze`: a dim of size 1 inserted at each of `axes` in
/// turn (a negative axis counts from the end of the rank so far, plus one).
pub fn unsqueeze_dims(x: &[i64], axes: &[i64]) -> Result<Vec<i64>, String> {
    let mut dims = x.to_vec();
    for &a in axes {
        let rank = dims.len() as i64;
        let k = if a < 0 { a + rank + 1 } else { a };
        if !(0..=rank).contains(&k) {
            return Err(format!(
                "unsqueeze axis {a} is out of range for rank {rank}"
            ));
        }
        dims.insert(k as usize, 1);
    }
    Ok(dims)
}

/// `Out` is `X` with dim `axis` replaced by the number of indices (a 1-D
/// `Index`; a 0-D one removes the dim).
fn gather(c: &InferCtx) -> Out {
    let (Some(x), Some(index)) = (c.input("X"), c.input("Index")) else {
        return Ok(Vec::new());
    };
    if c.has_input("Axis") {
        return Ok(Vec::new());
    }
    if !matches!(index.dtype, VarKind::Int32 | VarKind::Int64) {
        return Err(format!(
            "Index must be int32 or int64, not {:?}",
            index.dtype
        ));
    }
    let rank = x.dims.len();
    let axis = c.int("axis").unwrap_or(0);
    let a = usize::try_from(if axis < 0 { axis + rank as i64 } else { axis })
        .ok()
        .filter(|&a| a < rank)
        .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))?;
    let mut dims = x.dims.clone();
    match index.dims.as_slice() {
        [] => {
            dims.remove(a);
        }
        // 1.x's InferShape also takes a column of indices, [N, 1].
        [n] | [n, 1] => dims[a] = *n,
        more => return Err(format!("Index must be 1-D or [N, 1], not of dims {more:?}")),
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// Paddle's `shape` attribute of `reshape`: 0 copies `X`'s dim at that
/// position, one -1 is inferred from the element count. Shared with the
/// runtime's kernel.
pub fn reshape_dims(x: &[i64], shape: &[i64]) -> Result<Vec<i64>, String> {
    let mut out = Vec::with_capacity(shape.len());
    let mut infer = None;
    for (i, &d) in shape.iter().enumerate() {
        match d {
            0 => out.push(*x.get(i).ok_or_else(|| {
                format!(
                    "shape {shape:?} copies dim {i} (0) but X has rank {}",
                    x.len()
                )
            })?),
            -1 if infer.is_none() => {
                infer = Some(i);
                out.push(-1);
            }
            -1 => return Err(format!("shape {shape:?} has more than one -1")),
            d if d > 0 => out.push(d),
            d => return Err(format!("shape {shape:?} has the invalid dim {d}")),
        }
    }
    let known = |d: &[i64]| {
        d.iter()
            .try_fold(1i64, |a, &b| if b < 0 { None } else { a.checked_mul(b) })
    };
    let total = known(x);
    match infer {
        Some(i) => {
            let rest: i64 = out
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, &d)| d)
                .product();
            if let Some(t) = total {
                if rest > 0 {
                    if t % rest != 0 {
                        return Err(format!(
                            "X of dims {x:?} ({t} elements) cannot take shape {shape:?}"
                        ));
                    }
                    out[i] = t / rest;
                }
            }
        }
        None => {
            if let (Some(t), Some(n)) = (total, known(&out)) {
                if t != n {
                    return Err(format!(
                        "X of dims {x:?} ({t} elements) cannot take shape {shape:?} ({n} elements)"
                    ));
                }
            }
        }
    }
    Ok(out)
}

fn reshape2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    // `XShape` (`[0]` then X's dims) is left to its declaration: Paddle
    // declares its dtype as the layer chose it.
    let mut out = Vec::new();
    if !c.has_input("Shape") && !c.has_input("ShapeTensor") {
        if let Some(shape) = c.ints("shape") {
            let dims = if x.dims.contains(&-1) {
                // The batch dim is unknown: only copy and fixed dims are known.
                shape
                    .iter()
                    .enumerate()
                    .map(|(i, &d)| match d {
                        0 => x.dims.get(i).copied().unwrap_or(-1),
                        d => d,
                    })
                    .collect()
            } else {
                reshape_dims(&x.dims, &shape)?
            };
            out.push(("Out", TensorType::new(x.dtype, dims)));
        }
    } else if let Some(shape) = c.input("Shape").filter(|_| !c.has_input("ShapeTensor")) {
        // 1.x's InferShape: the shape comes at run time, one unknown dim
        // per element of `Shape` (`reshape(x, (-1, 0), actual_shape=s)`).
        if let [n] = shape.dims[..] {
            if n >= 0 {
                out.push(("Out", TensorType::new(x.dtype, vec![-1; n as usize])));
            }
        }
    }
    Ok(out)
}

/// The permutation `axis` checked against rank `rank`.
pub fn permutation(axis: &[i64], rank: usize) -> Result<Vec<usize>, String> {
    let mut seen = vec![false; rank];
    if axis.len() != rank {
        return Err(format!(
            "axis {axis:?} must list each of the {rank} dims once"
        ));
    }
    axis.iter()
        .map(|&a| {
            let i = usize::try_from(if a < 0 { a + rank as i64 } else { a })
                .ok()
                .filter(|&i| i < rank && !seen[i])
                .ok_or_else(|| format!("axis {axis:?} must list each of the {rank} dims once"))?;
            seen[i] = true;
            Ok(i)
        })
        .collect()
}

fn transpose2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let Some(axis) = c.ints("axis") else {
        return Ok(Vec::new());
    };
    let perm = permutation(&axis, x.dims.len())?;
    let dims = perm.iter().map(|&p| x.dims[p]).collect();
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

fn concat(c: &InferCtx) -> Out {
    let Some(xs) = c.inputs("X") else {
        return Ok(Vec::new());
    };
    let Some((first, rest)) = xs.split_first() else {
        return Ok(Vec::new());
    };
    if c.has_input("AxisTensor") {
        return Ok(Vec::new());
    }
    let rank = first.dims.len();
    let axis = c.int("axis").unwrap_or(0);
    let a = usize::try_from(if axis < 0 { axis + rank as i64 } else { axis })
        .ok()
        .filter(|&a| a < rank)
        .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))?;
    // Paddle 1.5 gave `Out` the first input's rank and its kernel
    // flattened each input to [prod(dims before axis), prod(dims from
    // axis)]: an input of another rank joins when it has the axis and the
    // dims after it hold as many elements as the first's (CGAN's
    // concat([noise[-1, 100], y[-1, 1, 1, 1]], 1) is [-1, 101]).
    let after = |d: &[i64]| {
        d[a + 1..]
            .iter()
            .try_fold(1i64, |p, &n| if n >= 0 { p.checked_mul(n) } else { None })
    };
    let mut dims = first.dims.clone();
    for x in rest {
        super::infer::same_dtype(first, x)?;
        let fits = x.dims.len() == rank
            || (a < x.dims.len()
                && match (after(&first.dims), after(&x.dims)) {
                    (Some(p), Some(q)) => p == q,
                    _ => true,
                });
        if !fits {
            return Err(format!(
                "inputs of dims {:?} and {:?} (ranks {rank} and {}) cannot be concatenated along axis {axis}",
                first.dims,
                x.dims,
                x.dims.len()
            ));
        }
        for (i, (&d, &e)) in dims.clone().iter().zip(&x.dims).enumerate() {
            if i == a {
                dims[i] = if d < 0 || e < 0 { -1 } else { d + e };
            } else if d >= 0 && e >= 0 && d != e {
                return Err(format!(
                    "inputs of dims {:?} and {:?} differ outside axis {axis}",
                    first.dims, x.dims
                ));
            } else if d < 0 {
                dims[i] = e;
            }
        }
    }
    Ok(vec![("Out", TensorType::new(first.dtype, dims))])
}

/// `stack`: `X`'s dims with a new dim of `len(X)` at `axis`.
fn stack(c: &InferCtx) -> Out {
    let Some(xs) = c.inputs("X") else {
        return Ok(Vec::new());
    };
    let Some(first) = xs.first() else {
        return Ok(Vec::new());
    };
    let rank = first.dims.len() as i64 + 1;
    let axis = c.int("axis").unwrap_or(0);
    let a = usize::try_from(if axis < 0 { axis + rank } else { axis })
        .ok()
        .filter(|&a| (a as i64) < rank)
        .ok_or_else(|| format!("axis {axis} is out of range for stacking rank {}", rank - 1))?;
    let mut dims = first.dims.clone();
    dims.insert(a, xs.len() as i64);
    Ok(vec![("Y", TensorType::new(first.dtype, dims))])
}

/// `unstack`: each output (`num` of them) `X`'s dims without `axis`.
fn unstack(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let rank = x.dims.len() as i64;
    let axis = c.int("axis").unwrap_or(0);
    let a = usize::try_from(if axis < 0 { axis + rank } else { axis })
        .ok()
        .filter(|&a| (a as i64) < rank)
        .ok_or_else(|| format!("axis {axis} is out of range for unstacking rank {rank}"))?;
    let mut dims = x.dims.clone();
    dims.remove(a);
    Ok(vec![("Y", TensorType::new(x.dtype, dims))])
}

/// `expand`: each of `X`'s dims times its `expand_times` (unknown stays
/// unknown), as 1.6's InferShape: a count given by a tensor is -1 in the
/// attribute (all of them, with `ExpandTimes`), and its dim unknown.
fn expand(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut times = c.ints("expand_times").unwrap_or_default();
    if c.has_input("ExpandTimes") || times.is_empty() && c.has_input("expand_times_tensor") {
        times = vec![-1; x.dims.len()];
    }
    if times.len() != x.dims.len() {
        return Err(format!(
            "expand_times {times:?} must give one count per dim of X {:?}",
            x.dims
        ));
    }
    let dims = x
        .dims
        .iter()
        .zip(&times)
        .map(|(&d, &t)| if d < 0 || t < 0 { -1 } else { d * t })
        .collect();
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `flatten2`: `[prod(dims[..axis]), prod(dims[axis..])]` (unknown if
/// either side has an unknown dim); `XShape` is left to its declaration.
fn flatten2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let axis = c.int("axis").unwrap_or(1);
    let a = usize::try_from(axis)
        .ok()
        .filter(|&a| a <= x.dims.len())
        .ok_or_else(|| format!("axis {axis} is out of range for rank {}", x.dims.len()))?;
    let side = |d: &[i64]| {
        if d.iter().any(|&v| v < 0) {
            -1
        } else {
            d.iter().product()
        }
    };
    let dims = vec![side(&x.dims[..a]), side(&x.dims[a..])];
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `pad`: each dim of `X` widened by its two `paddings` (before, after).
fn pad(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let p = c.ints("paddings").unwrap_or_default();
    if p.len() != 2 * x.dims.len() || p.iter().any(|&v| v < 0) {
        return Err(format!(
            "paddings {p:?} must give two counts, none negative, per dim of X {:?} ({} in all)",
            x.dims,
            2 * x.dims.len()
        ));
    }
    let dims = x
        .dims
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            if d < 0 {
                -1
            } else {
                d + p[2 * i] + p[2 * i + 1]
            }
        })
        .collect();
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `argsort`: `Out` is `X`, `Indices` its int64 positions; `axis` must name
/// a dim of `X`.
fn argsort(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let axis = c.int("axis").unwrap_or(-1);
    let rank = x.dims.len() as i64;
    if axis < -rank || axis >= rank {
        return Err(format!("axis {axis} is out of range for X {:?}", x.dims));
    }
    Ok(vec![
        ("Out", x.clone()),
        ("Indices", TensorType::new(VarKind::Int64, x.dims.clone())),
    ])
}

/// `reverse`: `Out` is `X`; `axis` lists dims of `X`, at least one (1.x's
/// check).
fn reverse(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let axis = c.ints("axis").unwrap_or_default();
    if axis.is_empty() {
        return Err("axis must name at least one dim".into());
    }
    let rank = x.dims.len() as i64;
    if let Some(a) = axis.iter().find(|&&a| a < -rank || a >= rank) {
        return Err(format!("axis {a} is out of range for X {:?}", x.dims));
    }
    Ok(vec![("Out", x.clone())])
}

/// `where_index` (1.6's `layers.where`): the int64 coordinates of the
/// true elements of `Condition`, one row each (how many: known when it
/// runs).
fn where_index(c: &InferCtx) -> Out {
    let Some(cond) = c.input("Condition") else {
        return Ok(Vec::new());
    };
    let rank = cond.dims.len() as i64;
    Ok(vec![(
        "Out",
        TensorType::new(VarKind::Int64, vec![-1, rank]),
    )])
}

/// `unique` (1.6's, `is_sorted` false): `Out` the distinct values of the
/// vector `X` (how many: known when it runs), `Index` for each value of
/// `X` its place in `Out`, in `dtype` (int32 or int64); for
/// `unique_with_counts` (1.6's) also `Count`, each value's count in `dtype`.
fn unique(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if c.bool("is_sorted").unwrap_or(false) {
        return Err("fluidc's unique is 1.x's: is_sorted must be false".into());
    }
    if x.dims.len() != 1 {
        return Err(format!(
            "X of unique must be a vector (1.x's op), not of dims {:?}",
            x.dims
        ));
    }
    let index = match c.dtype("dtype").unwrap_or(VarKind::Int32) {
        d @ (VarKind::Int32 | VarKind::Int64) => d,
        _ => return Err("dtype of unique's Index must be int32 or int64".into()),
    };
    let mut out = vec![
        ("Out", TensorType::new(x.dtype, vec![-1])),
        ("Index", TensorType::new(index, x.dims.clone())),
    ];
    if c.op.ty == "unique_with_counts" {
        out.push(("Count", TensorType::new(index, vec![-1])));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paddle's reshape rules: 0 copies the input's dim, one -1 takes the
    /// rest; an unknown input dim leaves -1 unknown.
    #[test]
    fn reshape_copies_zeros_and_solves_one_minus_one() {
        assert_eq!(reshape_dims(&[2, 3, 4], &[0, -1]), Ok(vec![2, 12]));
        assert_eq!(reshape_dims(&[2, 3, 4], &[-1, 4]), Ok(vec![6, 4]));
        assert_eq!(reshape_dims(&[-1, 3, 4], &[0, 12]), Ok(vec![-1, 12]));
        assert!(reshape_dims(&[2, 3, 4], &[5, -1]).is_err());
        assert!(reshape_dims(&[2, 3], &[-1, -1]).is_err());
    }

    #[test]
    fn split_by_num_or_sections() {
        assert_eq!(split_sizes(6, 3, &[]), Ok(vec![2, 2, 2]));
        assert_eq!(split_sizes(6, 0, &[1, -1, 2]), Ok(vec![1, 3, 2]));
        assert!(split_sizes(7, 3, &[]).is_err());
    }

    #[test]
    fn squeeze_and_unsqueeze_count_axes_from_the_end() {
        assert_eq!(squeeze_dims(&[1, 3, 1, 2], &[]), Ok(vec![3, 2]));
        assert_eq!(squeeze_dims(&[1, 3, 1, 2], &[-2]), Ok(vec![1, 3, 2]));
        assert_eq!(unsqueeze_dims(&[3, 2], &[0, 3]), Ok(vec![1, 3, 2, 1]));
    }

    #[test]
    fn transpose_takes_a_permutation() {
        assert_eq!(permutation(&[1, 0, 2], 3), Ok(vec![1, 0, 2]));
        assert!(permutation(&[0, 0, 1], 3).is_err());
        assert!(permutation(&[0, 1], 3).is_err());
    }
}
