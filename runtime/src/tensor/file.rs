//! Paddle's tensor files (docs/models.md): the DenseTensor stream the `save` op
//! writes, one per file, and the combined form `save_combine` writes (the
//! streams one after another, in the op's input order).
//!
//! One stream, as Paddle 3.3.1 writes it (`SerializeToStream` in
//! `lod_tensor.cc`, `TensorToStream` in `tensor_util.cc`), little-endian:
//! - `u32` version, 0;
//! - the LoD: `u64` level count, then per level `u64` byte size and that
//!   many bytes of `u64` offsets;
//! - the tensor: `u32` version 0, `i32` size of the `TensorDesc` proto, the
//!   proto (`data_type` = 1 as a varint, each dim as field 2, unpacked, as
//!   proto2 writes a `repeated int64`), then the elements' raw bytes.
//!
//! fluidc's tensors hold bool, int32, int64, float32 and float64; a float16
//! file (`save_as_fp16`) reads as float32, as the `load` op with
//! `load_as_fp16` gives it to float32 programs, and writes from float32.
use fluidc_transpiler::VarKind;

use super::{Data, Tensor};
use crate::error::KernelError;

/// A tensor read from a stream, with its LoD (empty for a plain tensor).
#[derive(Debug, Clone, PartialEq)]
pub struct TensorRecord {
    pub tensor: Tensor,
    pub lod: Vec<Vec<u64>>,
    /// The dtype the file holds (float16 for a `save_as_fp16` file, which
    /// [`TensorRecord::tensor`] holds as float32).
    pub file_dtype: VarKind,
}

/// Appends `t`'s stream to `out` (as float16 when `as_fp16` and `t` is a
/// float tensor, as Paddle's `save_as_fp16` does).
pub fn write_stream(out: &mut Vec<u8>, t: &Tensor, lod: &[Vec<u64>], as_fp16: bool) {
    out.extend(0u32.to_le_bytes());
    out.extend((lod.len() as u64).to_le_bytes());
    for level in lod {
        out.extend(((level.len() * 8) as u64).to_le_bytes());
        for v in level {
            out.extend(v.to_le_bytes());
        }
    }
    out.extend(0u32.to_le_bytes());
    let fp16 = as_fp16 && matches!(t.data(), Data::Float32(_) | Data::Float64(_));
    let dtype = if fp16 { VarKind::Fp16 } else { t.dtype() };
    let mut desc = vec![0x08];
    varint(&mut desc, dtype as i32 as i64 as u64);
    for &d in t.shape() {
        desc.push(0x10);
        varint(&mut desc, d as u64);
    }
    out.extend((desc.len() as i32).to_le_bytes());
    out.extend(&desc);
    match t.data() {
        Data::Bool(v) => out.extend(v.iter().map(|b| u8::from(*b))),
        Data::Int8(v) => out.extend(v.iter().map(|x| x.to_le_bytes()[0])),
        Data::Int32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        Data::Int64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        Data::Float32(v) if fp16 => v
            .iter()
            .for_each(|x| out.extend(f32_to_f16(*x).to_le_bytes())),
        Data::Float64(v) if fp16 => v
            .iter()
            .for_each(|x| out.extend(f32_to_f16(*x as f32).to_le_bytes())),
        Data::Float32(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
        Data::Float64(v) => v.iter().for_each(|x| out.extend(x.to_le_bytes())),
    }
}

/// `t` as a `save` file's bytes.
pub fn to_bytes(t: &Tensor) -> Vec<u8> {
    let mut out = Vec::new();
    write_stream(&mut out, t, &[], false);
    out
}

/// The tensors a combined file holds, in order.
pub fn combined_to_bytes<'a>(tensors: impl IntoIterator<Item = &'a Tensor>) -> Vec<u8> {
    let mut out = Vec::new();
    for t in tensors {
        write_stream(&mut out, t, &[], false);
    }
    out
}

/// Reads one stream from `bytes` at `*pos`, advancing it. The error says
/// what is wrong and at which byte offset.
pub fn read_stream(bytes: &[u8], pos: &mut usize) -> Result<TensorRecord, KernelError> {
    let start = *pos;
    let mut r = Reader { bytes, pos };
    let version = r.u32("the DenseTensor version")?;
    if version != 0 {
        return Err(KernelError::Format(format!(
            "byte {start}: DenseTensor version {version} is not Paddle's 0 (not a tensor file?)"
        )));
    }
    let levels = r.u64("the LoD level count")?;
    if levels > 64 {
        return Err(KernelError::Format(format!(
            "byte {start}: {levels} LoD levels (not a tensor file?)"
        )));
    }
    let mut lod = Vec::new();
    for _ in 0..levels {
        let size = r.u64("a LoD level's size")?;
        let raw = r.take(size as usize, "a LoD level")?;
        lod.push(
            raw.chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect(),
        );
    }
    let version = r.u32("the tensor version")?;
    if version != 0 {
        return Err(KernelError::Format(format!(
            "byte {}: tensor version {version} is not Paddle's 0 (not a tensor file?)",
            *r.pos - 4
        )));
    }
    let size = r.u32("the TensorDesc size")? as i32;
    if size < 0 {
        return Err(KernelError::Format(format!(
            "byte {}: negative TensorDesc size",
            *r.pos - 4
        )));
    }
    let desc_at = *r.pos;
    let desc = r.take(size as usize, "the TensorDesc")?;
    let (code, dims) = parse_desc(desc)
        .map_err(|e| KernelError::Format(format!("byte {desc_at}: TensorDesc: {e}")))?;
    let file_dtype = VarKind::try_from(code).map_err(|_| {
        KernelError::Format(format!(
            "byte {desc_at}: unknown data type {code} in the TensorDesc"
        ))
    })?;
    let mut numel: u64 = 1;
    for &d in &dims {
        if d < 0 {
            return Err(KernelError::Format(format!(
                "byte {desc_at}: negative dim {d} in the TensorDesc"
            )));
        }
        numel = numel.checked_mul(d as u64).ok_or_else(|| {
            KernelError::Format(format!("byte {desc_at}: dims {dims:?} overflow"))
        })?;
    }
    let width: u64 = match file_dtype {
        VarKind::Bool | VarKind::Int8 => 1,
        VarKind::Fp16 => 2,
        VarKind::Int32 | VarKind::Fp32 => 4,
        VarKind::Int64 | VarKind::Fp64 => 8,
        other => {
            return Err(KernelError::Unsupported(format!(
                "the tensor holds {}, which fluidc's runtime does not (bool, int8, int32, int64, float16, float32, float64)",
                fluidc_transpiler::model::dtype_name(other)
            )))
        }
    };
    let len = numel
        .checked_mul(width)
        .filter(|n| *n <= (bytes.len() - *r.pos) as u64)
        .ok_or_else(|| {
            KernelError::Format(format!(
                "byte {}: the file ends inside the data of a {} tensor of shape {dims:?}",
                *r.pos,
                fluidc_transpiler::model::dtype_name(file_dtype)
            ))
        })?;
    let raw = r.take(len as usize, "the data")?;
    let data = match file_dtype {
        VarKind::Bool => Data::Bool(raw.iter().map(|b| *b != 0).collect::<Vec<_>>().into()),
        VarKind::Int8 => Data::Int8(le(raw, i8::from_le_bytes).into()),
        VarKind::Int32 => Data::Int32(le(raw, i32::from_le_bytes).into()),
        VarKind::Int64 => Data::Int64(le(raw, i64::from_le_bytes).into()),
        VarKind::Fp32 => Data::Float32(le(raw, f32::from_le_bytes).into()),
        VarKind::Fp64 => Data::Float64(le(raw, f64::from_le_bytes).into()),
        _ => Data::Float32(
            le(raw, u16::from_le_bytes)
                .into_iter()
                .map(f16_to_f32)
                .collect::<Vec<_>>()
                .into(),
        ),
    };
    let tensor =
        Tensor::new(&dims, data).map_err(|e| e.map_message(|e| format!("byte {start}: {e}")))?;
    Ok(TensorRecord {
        tensor,
        lod,
        file_dtype,
    })
}

/// The one tensor of a `save` file; bytes after it are an error.
pub fn from_bytes(bytes: &[u8]) -> Result<TensorRecord, KernelError> {
    let mut pos = 0;
    let t = read_stream(bytes, &mut pos)?;
    if pos != bytes.len() {
        return Err(KernelError::Format(format!(
            "{} bytes follow the tensor: a combined file? load it with load_combine / params_filename",
            bytes.len() - pos
        )));
    }
    Ok(t)
}

/// Every tensor of a combined file, in order.
pub fn combined_from_bytes(bytes: &[u8]) -> Result<Vec<TensorRecord>, KernelError> {
    let mut pos = 0;
    let mut out = Vec::new();
    while pos < bytes.len() {
        out.push(
            read_stream(bytes, &mut pos)
                .map_err(|e| e.map_message(|e| format!("tensor {}: {e}", out.len())))?,
        );
    }
    Ok(out)
}

fn le<const N: usize, T>(raw: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    raw.chunks_exact(N)
        .map(|c| f(c.try_into().unwrap_or([0; N])))
        .collect()
}

struct Reader<'a, 'p> {
    bytes: &'a [u8],
    pos: &'p mut usize,
}

impl<'a> Reader<'a, '_> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], KernelError> {
        let end = self.pos.checked_add(n).filter(|e| *e <= self.bytes.len());
        let Some(end) = end else {
            return Err(KernelError::Format(format!(
                "byte {}: the file ends inside {what} (truncated?)",
                self.pos
            )));
        };
        let s = &self.bytes[*self.pos..end];
        *self.pos = end;
        Ok(s)
    }

    fn u32(&mut self, what: &str) -> Result<u32, KernelError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self, what: &str) -> Result<u64, KernelError> {
        let b = self.take(8, what)?;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    }
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(b: &[u8], pos: &mut usize) -> Result<u64, KernelError> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let byte = *b
            .get(*pos)
            .ok_or_else(|| KernelError::Format("truncated varint".into()))?;
        *pos += 1;
        v |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Ok(v);
        }
    }
    Err(KernelError::Format("varint too long".into()))
}

/// `TensorDesc`: field 1 `data_type` (varint), field 2 `dims` (repeated
/// int64, packed or not); unknown fields are skipped.
fn parse_desc(b: &[u8]) -> Result<(i32, Vec<i64>), KernelError> {
    let (mut pos, mut dtype, mut dims) = (0, None, Vec::new());
    while pos < b.len() {
        let key = read_varint(b, &mut pos)?;
        match (key >> 3, key & 7) {
            (1, 0) => dtype = Some(read_varint(b, &mut pos)? as i32),
            (2, 0) => dims.push(read_varint(b, &mut pos)? as i64),
            (2, 2) => {
                let n = read_varint(b, &mut pos)? as usize;
                let end = pos
                    .checked_add(n)
                    .filter(|e| *e <= b.len())
                    .ok_or_else(|| KernelError::Format("truncated dims".into()))?;
                while pos < end {
                    dims.push(read_varint(b, &mut pos)? as i64);
                }
            }
            (_, 0) => {
                read_varint(b, &mut pos)?;
            }
            (_, 1) => pos += 8,
            (_, 5) => pos += 4,
            (_, 2) => {
                let n = read_varint(b, &mut pos)? as usize;
                pos = pos.saturating_add(n);
            }
            (_, w) => {
                return Err(KernelError::Format(format!(
                    "wire type {w} is not protobuf's"
                )))
            }
        }
    }
    if pos > b.len() {
        return Err(KernelError::Format("truncated".into()));
    }
    Ok((
        dtype.ok_or_else(|| KernelError::Format("no data_type".into()))?,
        dims,
    ))
}

/// IEEE half from single, rounding to nearest even (as Paddle's float16).
pub fn f32_to_f16(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x007f_ffff;
    if exp == 0xff {
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x0080_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut h = (m >> shift) as u16;
        if rest > half || (rest == half && h & 1 == 1) {
            h += 1;
        }
        return sign | h;
    }
    let mut h = ((e as u32) << 10 | (man >> 13)) as u16;
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
        h += 1; // may carry into the exponent, which is right
    }
    sign | h
}

pub fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h & 0x8000) << 16;
    let exp = u32::from((h >> 10) & 0x1f);
    let man = u32::from(h & 0x3ff);
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, _) => {
            // subnormal: normalize
            let mut e = 127 - 15 + 1;
            let mut m = man;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            sign | (e << 23) | ((m & 0x3ff) << 13)
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, _) => sign | 0x7fc0_0000 | (man << 13),
        _ => sign | ((exp + 127 - 15) << 23) | (man << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paddle_fc_bias_bytes() {
        // fc_0.b_0 as Paddle 3.3.1's `save` wrote it: float32 [3] of zeros.
        let t = Tensor::from_vec(&[3], vec![0.0f32; 3]).unwrap();
        let b = to_bytes(&t);
        let hex: String = b[..28].iter().map(|x| format!("{x:02x}")).collect();
        assert_eq!(
            hex,
            "00000000000000000000000000000000040000000805100300000000"
        );
        assert_eq!(b.len(), 36);
        assert_eq!(from_bytes(&b).unwrap().tensor, t);
    }

    #[test]
    fn combined_round_trip_and_errors() {
        let a = Tensor::from_vec(&[2, 2], vec![1i64, -2, 3, 4]).unwrap();
        let b = Tensor::from_vec(&[], vec![true]).unwrap();
        let bytes = combined_to_bytes([&a, &b]);
        let back = combined_from_bytes(&bytes).unwrap();
        assert_eq!(back[0].tensor, a);
        assert_eq!(back[1].tensor, b);
        let two = from_bytes(&bytes);
        assert!(
            matches!(&two, Err(KernelError::Format(m)) if m.contains("combined")),
            "{two:?}"
        );
        // The tensor's number is added in front; the kind stays.
        let cut = combined_from_bytes(&bytes[..bytes.len() - 1]);
        assert!(
            matches!(&cut, Err(KernelError::Format(m)) if m.starts_with("tensor 1: ") && m.contains("ends inside")),
            "{cut:?}"
        );
    }

    #[test]
    fn half_conversions() {
        for x in [0.0f32, 1.0, -2.5, 65504.0, 0.1, 1e-6, 3.0e-5] {
            let h = f32_to_f16(x);
            let back = f16_to_f32(h);
            assert!((back - x).abs() <= x.abs() * 1e-3 + 6e-8, "{x} {back}");
        }
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(f32::INFINITY), 0x7c00);
    }
}
