//! `_imaging`: the native half of fluidc's `PIL.Image` (docs/python-package.md).
//!
//! 2018–19 inference scripts load an image with Pillow, convert, resize and
//! crop it, and hand `np.array(img)` to the program; the numbers the model
//! prints depend on every pixel, so the pixel arithmetic here is Pillow's:
//! the `L` conversion's fixed-point weights, and `resize`'s separable
//! convolution (`ImagingResample`: per output pixel a window of the filter
//! scaled by the reduction, the coefficients normalized, then rounded to
//! 22-bit fixed point, horizontal pass first, each pass clipped to 8 bits).
//! PNG and BMP files are decoded and encoded by the `image` crate (both are
//! lossless, so they give Pillow's pixels); JPEG by libjpeg-turbo's code,
//! as Pillow's are (`jpeg`).
//!
//! Images cross into Python as `(mode, width, height, pixels)`: `pixels`
//! is `bytes`, row-major, one byte per band (`L` 1, `LA` 2, `RGB` 3,
//! `RGBA` 4).
use rustpython_vm::builtins::{PyBytesRef, PyModule, PyStrRef, PyTupleRef};
use rustpython_vm::{AsObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

mod jpeg;

pub const MODULE: &str = "_imaging";

/// An image as Python holds it: `(mode, width, height, pixels)`.
type Image = (PyStrRef, usize, usize, PyBytesRef);

/// The items of a tuple argument (a native function's tuple parameter
/// would take several arguments instead).
fn items(t: &PyTupleRef, n: usize, what: &str, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
    if t.len() != n {
        return Err(vm.new_type_error(format!("{what} must be a tuple of {n} items")));
    }
    Ok(t.as_slice().to_vec())
}

fn image_arg(t: PyTupleRef, vm: &VirtualMachine) -> PyResult<Image> {
    let v = items(&t, 4, "an image", vm)?;
    Ok((
        v[0].clone().try_into_value(vm)?,
        v[1].clone().try_into_value(vm)?,
        v[2].clone().try_into_value(vm)?,
        v[3].clone().try_into_value(vm)?,
    ))
}

/// A `(width, height)` argument.
fn size_arg(size: &PyTupleRef, vm: &VirtualMachine) -> PyResult<(usize, usize)> {
    let size = items(size, 2, "size", vm)?;
    Ok((
        size[0].clone().try_into_value(vm)?,
        size[1].clone().try_into_value(vm)?,
    ))
}

/// A tuple argument of `n` floats.
fn floats(t: &PyTupleRef, n: usize, what: &str, vm: &VirtualMachine) -> PyResult<Vec<f64>> {
    items(t, n, what, vm)?
        .into_iter()
        .map(|v| v.try_into_value::<f64>(vm))
        .collect()
}

/// The bands of a mode, or None for a mode fluidc's Pillow does not hold.
fn bands(mode: &str) -> Option<usize> {
    match mode {
        "L" => Some(1),
        "LA" => Some(2),
        "RGB" => Some(3),
        "RGBA" => Some(4),
        _ => None,
    }
}

fn check_size(
    pixels: &[u8],
    mode: &str,
    w: usize,
    h: usize,
    vm: &VirtualMachine,
) -> PyResult<usize> {
    let b = bands(mode)
        .ok_or_else(|| vm.new_value_error(format!("unsupported image mode '{mode}'")))?;
    if w.checked_mul(h).and_then(|n| n.checked_mul(b)) != Some(pixels.len()) {
        return Err(vm.new_value_error(format!(
            "{} bytes are not a {w}x{h} image of mode {mode}",
            pixels.len()
        )));
    }
    Ok(b)
}

fn image_tuple(
    mode: &str,
    w: usize,
    h: usize,
    pixels: Vec<u8>,
    vm: &VirtualMachine,
) -> PyObjectRef {
    vm.ctx
        .new_tuple(vec![
            vm.ctx.new_str(mode).into(),
            vm.ctx.new_int(w).into(),
            vm.ctx.new_int(h).into(),
            vm.ctx.new_bytes(pixels).into(),
        ])
        .into()
}

/// `decode(data)`: `(format, image)` of an encoded
/// PNG, JPEG or BMP. Palette and 16-bit images come out as the `RGB(A)` or
/// `L(A)` they expand to.
fn decode(data: PyBytesRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    let bytes = data.as_bytes();
    let format = image::guess_format(bytes)
        .map_err(|_| vm.new_os_error("cannot identify image file".to_owned()))?;
    let (mode, w, h, pixels) = if format == image::ImageFormat::Jpeg {
        jpeg::decode(bytes).map_err(|e| vm.new_os_error(e))?
    } else {
        let img = image::load_from_memory_with_format(bytes, format)
            .map_err(|e| vm.new_os_error(format!("cannot decode image file: {e}")))?;
        match img.color() {
            image::ColorType::L8 | image::ColorType::L16 => {
                let i = img.to_luma8();
                ("L", i.width() as usize, i.height() as usize, i.into_raw())
            }
            image::ColorType::La8 | image::ColorType::La16 => {
                let i = img.to_luma_alpha8();
                ("LA", i.width() as usize, i.height() as usize, i.into_raw())
            }
            c if c.has_alpha() => {
                let i = img.to_rgba8();
                (
                    "RGBA",
                    i.width() as usize,
                    i.height() as usize,
                    i.into_raw(),
                )
            }
            _ => {
                let i = img.to_rgb8();
                ("RGB", i.width() as usize, i.height() as usize, i.into_raw())
            }
        }
    };
    let name = match format {
        image::ImageFormat::Png => "PNG",
        image::ImageFormat::Jpeg => "JPEG",
        image::ImageFormat::Bmp => "BMP",
        _ => "UNKNOWN",
    };
    Ok(vm
        .ctx
        .new_tuple(vec![
            vm.ctx.new_str(name).into(),
            image_tuple(mode, w, h, pixels, vm),
        ])
        .into())
}

/// `encode(image, format, quality)`: the file's bytes, PNG or BMP
/// (lossless) or JPEG (at `quality`; the Python side passes Pillow's 75
/// unless told).
fn encode(
    image: PyTupleRef,
    format: PyStrRef,
    quality: u8,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let (mode, w, h, pixels) = image_arg(image, vm)?;
    let px = pixels.as_bytes();
    check_size(px, mode.as_str(), w, h, vm)?;
    let format = format.as_str().to_ascii_uppercase();
    if format == "JPEG" || format == "JPG" {
        let data =
            jpeg::encode(mode.as_str(), w, h, px, quality).map_err(|e| vm.new_os_error(e))?;
        return Ok(vm.ctx.new_bytes(data).into());
    }
    let color = match mode.as_str() {
        "L" => image::ExtendedColorType::L8,
        "LA" => image::ExtendedColorType::La8,
        "RGB" => image::ExtendedColorType::Rgb8,
        _ => image::ExtendedColorType::Rgba8,
    };
    let (w32, h32) = (
        u32::try_from(w).map_err(|_| vm.new_value_error("image too wide".to_owned()))?,
        u32::try_from(h).map_err(|_| vm.new_value_error("image too tall".to_owned()))?,
    );
    let mut out = std::io::Cursor::new(Vec::new());
    let done = match format.as_str() {
        "PNG" => image::ImageEncoder::write_image(
            image::codecs::png::PngEncoder::new(&mut out),
            px,
            w32,
            h32,
            color,
        ),
        "BMP" => image::ImageEncoder::write_image(
            image::codecs::bmp::BmpEncoder::new(&mut out),
            px,
            w32,
            h32,
            color,
        ),
        other => {
            return Err(vm.new_key_error(vm.ctx.new_str(other.to_owned()).into()));
        }
    };
    done.map_err(|e| {
        vm.new_os_error(format!(
            "cannot write mode {} as {}: {e}",
            mode.as_str(),
            format.as_str()
        ))
    })?;
    Ok(vm.ctx.new_bytes(out.into_inner()).into())
}

/// Pillow's `L24`: ITU-R 601-2 luma in 16-bit fixed point.
fn luma(r: u8, g: u8, b: u8) -> u8 {
    ((u32::from(r) * 19595 + u32::from(g) * 38470 + u32::from(b) * 7471 + 0x8000) >> 16) as u8
}

/// `convert(image, to)`: the image in mode `to`
/// (among L, LA, RGB, RGBA), as Pillow converts them: luma for L, the
/// grey repeated for RGB, an opaque alpha where there was none.
fn convert(image: PyTupleRef, to: PyStrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    let (mode, w, h, pixels) = image_arg(image, vm)?;
    let px = pixels.as_bytes();
    let from = check_size(px, mode.as_str(), w, h, vm)?;
    let into = bands(to.as_str()).ok_or_else(|| {
        vm.new_value_error(format!(
            "conversion to mode '{}' is not supported",
            to.as_str()
        ))
    })?;
    let mut out = Vec::with_capacity(w * h * into);
    for p in px.chunks_exact(from) {
        let (r, g, b, a) = match from {
            1 => (p[0], p[0], p[0], 255),
            2 => (p[0], p[0], p[0], p[1]),
            3 => (p[0], p[1], p[2], 255),
            _ => (p[0], p[1], p[2], p[3]),
        };
        let grey = if from <= 2 { r } else { luma(r, g, b) };
        match into {
            1 => out.push(grey),
            2 => out.extend([grey, a]),
            3 => out.extend([r, g, b]),
            _ => out.extend([r, g, b, a]),
        }
    }
    Ok(image_tuple(to.as_str(), w, h, out, vm))
}

/// A resampling kernel: its weight at a distance.
type Kernel = fn(f64) -> f64;

/// Pillow's resampling filters, by their constants: (support, kernel).
fn filter(resample: i32) -> Option<(f64, Kernel)> {
    fn sinc(x: f64) -> f64 {
        if x == 0.0 {
            1.0
        } else {
            (std::f64::consts::PI * x).sin() / (std::f64::consts::PI * x)
        }
    }
    fn lanczos(x: f64) -> f64 {
        if (-3.0..3.0).contains(&x) {
            sinc(x) * sinc(x / 3.0)
        } else {
            0.0
        }
    }
    fn bilinear(x: f64) -> f64 {
        let x = x.abs();
        if x < 1.0 {
            1.0 - x
        } else {
            0.0
        }
    }
    fn bicubic(x: f64) -> f64 {
        const A: f64 = -0.5;
        let x = x.abs();
        if x < 1.0 {
            ((A + 2.0) * x - (A + 3.0)) * x * x + 1.0
        } else if x < 2.0 {
            (((x - 5.0) * x + 8.0) * x - 4.0) * A
        } else {
            0.0
        }
    }
    fn boxed(x: f64) -> f64 {
        if x > -0.5 && x <= 0.5 {
            1.0
        } else {
            0.0
        }
    }
    fn hamming(x: f64) -> f64 {
        let x = x.abs();
        if x == 0.0 {
            1.0
        } else if x >= 1.0 {
            0.0
        } else {
            let x = x * std::f64::consts::PI;
            x.sin() / x * (0.54 + 0.46 * x.cos())
        }
    }
    match resample {
        1 => Some((3.0, lanczos)),
        2 => Some((1.0, bilinear)),
        3 => Some((2.0, bicubic)),
        4 => Some((0.5, boxed)),
        5 => Some((1.0, hamming)),
        _ => None,
    }
}

const PRECISION_BITS: u32 = 32 - 8 - 2;

/// Pillow's `precompute_coeffs` then `normalize_coeffs_8bpc`: for each
/// output index, the first input index and the fixed-point weights.
fn coefficients(
    in_size: usize,
    in0: f64,
    in1: f64,
    out_size: usize,
    (support, kernel): (f64, fn(f64) -> f64),
) -> Vec<(usize, Vec<i64>)> {
    let scale = (in1 - in0) / out_size as f64;
    let filterscale = scale.max(1.0);
    let support = support * filterscale;
    let ss = 1.0 / filterscale;
    (0..out_size)
        .map(|xx| {
            let center = in0 + (xx as f64 + 0.5) * scale;
            // C's (int) truncates toward zero.
            let xmin = ((center - support + 0.5) as i64).max(0) as usize;
            let xmax = ((center + support + 0.5) as i64)
                .min(in_size as i64)
                .max(xmin as i64) as usize;
            let mut w: Vec<f64> = (xmin..xmax)
                .map(|x| kernel((x as f64 - center + 0.5) * ss))
                .collect();
            let total: f64 = w.iter().sum();
            if total != 0.0 {
                for v in &mut w {
                    *v /= total;
                }
            }
            let fixed = w
                .iter()
                .map(|&v| {
                    let s = v * f64::from(1u32 << PRECISION_BITS);
                    if v < 0.0 {
                        (-0.5 + s) as i64
                    } else {
                        (0.5 + s) as i64
                    }
                })
                .collect();
            (xmin, fixed)
        })
        .collect()
}

fn clip8(v: i64) -> u8 {
    if v >= (1i64 << PRECISION_BITS << 8) {
        255
    } else if v <= 0 {
        0
    } else {
        (v >> PRECISION_BITS) as u8
    }
}

/// One pass of the separable convolution along rows (`horizontal`) or
/// columns, of an image `w`x`h` with `b` bands.
fn pass(
    px: &[u8],
    (w, h, b): (usize, usize, usize),
    coeffs: &[(usize, Vec<i64>)],
    horizontal: bool,
) -> Vec<u8> {
    let (ow, oh) = if horizontal {
        (coeffs.len(), h)
    } else {
        (w, coeffs.len())
    };
    let mut out = vec![0u8; ow * oh * b];
    for y in 0..oh {
        for x in 0..ow {
            let (start, k) = if horizontal { &coeffs[x] } else { &coeffs[y] };
            for c in 0..b {
                let mut ss: i64 = 1 << (PRECISION_BITS - 1);
                for (i, &kv) in k.iter().enumerate() {
                    let at = if horizontal {
                        (y * w + start + i) * b + c
                    } else {
                        ((start + i) * w + x) * b + c
                    };
                    ss += i64::from(px[at]) * kv;
                }
                out[(y * ow + x) * b + c] = clip8(ss);
            }
        }
    }
    out
}

/// `resize(image, (new_width, new_height), resample, box)`: Pillow's
/// `Image.resize` of the `box` region (x0, y0, x1, y1).
/// `resample` is Pillow's constant (0 nearest, 1 lanczos/antialias, 2
/// bilinear, 3 bicubic, 4 box, 5 hamming).
fn resize(
    image: PyTupleRef,
    size: PyTupleRef,
    resample: i32,
    region: PyTupleRef,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let (mode, w, h, pixels) = image_arg(image, vm)?;
    let (nw, nh) = size_arg(&size, vm)?;
    let r = floats(&region, 4, "box", vm)?;
    let region = (r[0], r[1], r[2], r[3]);
    let px = pixels.as_bytes();
    let b = check_size(px, mode.as_str(), w, h, vm)?;
    if nw == 0 || nh == 0 {
        return Ok(image_tuple(mode.as_str(), nw, nh, Vec::new(), vm));
    }
    let (x0, y0, x1, y1) = region;
    if resample == 0 {
        // Pillow's affine transform, nearest: the source pixel under each
        // output pixel's centre.
        let (sx, sy) = ((x1 - x0) / nw as f64, (y1 - y0) / nh as f64);
        let mut out = Vec::with_capacity(nw * nh * b);
        for y in 0..nh {
            let yin = ((y as f64 + 0.5) * sy + y0)
                .floor()
                .clamp(0.0, (h - 1) as f64) as usize;
            for x in 0..nw {
                let xin = ((x as f64 + 0.5) * sx + x0)
                    .floor()
                    .clamp(0.0, (w - 1) as f64) as usize;
                let at = (yin * w + xin) * b;
                out.extend_from_slice(&px[at..at + b]);
            }
        }
        return Ok(image_tuple(mode.as_str(), nw, nh, out, vm));
    }
    let f = filter(resample)
        .ok_or_else(|| vm.new_value_error(format!("unknown resampling filter ({resample})")))?;
    // Horizontal first, over the rows the vertical pass will read.
    let mut cur = px.to_vec();
    let (mut cw, mut ch) = (w, h);
    let vertical = (nh != h || y0 != 0.0 || y1 != h as f64).then(|| coefficients(h, y0, y1, nh, f));
    let (row0, row1) = match &vertical {
        Some(c) => (
            c.first().map_or(0, |(s, _)| *s),
            c.last().map_or(h, |(s, k)| s + k.len()),
        ),
        None => (0, h),
    };
    if nw != w || x0 != 0.0 || x1 != w as f64 {
        let rows = &px[row0 * w * b..row1 * w * b];
        cur = pass(
            rows,
            (w, row1 - row0, b),
            &coefficients(w, x0, x1, nw, f),
            true,
        );
        cw = nw;
        ch = row1 - row0;
    }
    if let Some(c) = vertical {
        let shifted: Vec<(usize, Vec<i64>)> = if ch == h {
            c
        } else {
            c.into_iter().map(|(s, k)| (s - row0, k)).collect()
        };
        cur = pass(&cur, (cw, ch, b), &shifted, false);
    }
    Ok(image_tuple(mode.as_str(), nw, nh, cur, vm))
}

/// `affine(image, (width, height), (a, b, c, d, e, f), fill)`: Pillow's
/// affine transform with nearest resampling (`ImagingTransformAffine`,
/// what `rotate` draws with): output pixel (x, y) takes the source pixel
/// under `(a x + b y + c, d x + e y + f)` at its centre, `fill` (one byte
/// per band) where that falls outside. Pillow steps through the rows in
/// 16.16 fixed point when the coordinates fit, in floats otherwise (and
/// for a pure scaling); each gives its own roundings, kept here.
fn affine(
    image: PyTupleRef,
    size: PyTupleRef,
    matrix: PyTupleRef,
    fill: PyBytesRef,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let (mode, w, h, pixels) = image_arg(image, vm)?;
    let (nw, nh) = size_arg(&size, vm)?;
    let a = floats(&matrix, 6, "matrix", vm)?;
    let px = pixels.as_bytes();
    let b = check_size(px, mode.as_str(), w, h, vm)?;
    let fill = fill.as_bytes();
    if fill.len() != b {
        return Err(vm.new_value_error(format!("fill must have {b} bytes for mode {}", mode)));
    }
    let mut out = Vec::with_capacity(nw * nh * b);
    let mut put = |xin: i64, yin: i64| {
        if (0..w as i64).contains(&xin) && (0..h as i64).contains(&yin) {
            let at = (yin as usize * w + xin as usize) * b;
            out.extend_from_slice(&px[at..at + b]);
        } else {
            out.extend_from_slice(fill);
        }
    };
    let fits = |x: f64, y: f64| {
        (x * a[0] + y * a[1] + a[2]).abs() < 32768.0 && (x * a[3] + y * a[4] + a[5]).abs() < 32768.0
    };
    let scaling = a[1] == 0.0 && a[3] == 0.0;
    if !scaling && fits(0.0, 0.0) && fits(nw as f64, nh as f64) {
        let fix = |v: f64| (v * 65536.0 + 0.5).floor() as i64;
        let (a0, a1, a3, a4) = (fix(a[0]), fix(a[1]), fix(a[3]), fix(a[4]));
        let mut a2 = fix(a[2] + a[0] * 0.5 + a[1] * 0.5);
        let mut a5 = fix(a[5] + a[3] * 0.5 + a[4] * 0.5);
        for _ in 0..nh {
            let (mut xx, mut yy) = (a2, a5);
            for _ in 0..nw {
                put(xx >> 16, yy >> 16);
                xx += a0;
                yy += a3;
            }
            a2 += a1;
            a5 += a4;
        }
    } else {
        // Pillow's COORD: -1 below 0, else truncated.
        let coord = |v: f64| if v < 0.0 { -1 } else { v as i64 };
        let mut xo = a[2] + a[1] * 0.5 + a[0] * 0.5;
        let mut yo = a[5] + a[4] * 0.5 + a[3] * 0.5;
        for _ in 0..nh {
            let (mut xx, mut yy) = (xo, yo);
            for _ in 0..nw {
                put(coord(xx), coord(yy));
                xx += a[0];
                yy += a[3];
            }
            xo += a[1];
            yo += a[4];
        }
    }
    Ok(image_tuple(mode.as_str(), nw, nh, out, vm))
}

pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let m = module.as_object();
    let _ = m.set_attr("decode", vm.new_function("decode", decode), vm);
    let _ = m.set_attr("encode", vm.new_function("encode", encode), vm);
    let _ = m.set_attr("convert", vm.new_function("convert", convert), vm);
    let _ = m.set_attr("resize", vm.new_function("resize", resize), vm);
    let _ = m.set_attr("affine", vm.new_function("affine", affine), vm);
    module
}
