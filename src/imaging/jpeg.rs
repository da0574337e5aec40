//! JPEG files as Pillow reads and writes them.
//!
//! Pillow decodes and encodes JPEG with libjpeg-turbo, and a model's inputs
//! are that decoder's pixels: its integer IDCT and its "fancy" (triangular)
//! chroma upsampling decide every value of a 4:2:0 photo, where another
//! decoder (the `image` crate's) differed by up to 9 units. The `mozjpeg`
//! crate builds libjpeg-turbo's fork with `cc` (no cmake, no nasm): its
//! decoder is libjpeg-turbo's, and with libjpeg's classic defaults
//! (`set_fastest_defaults`) its encoder writes the same bytes Pillow's
//! `save` writes (baseline, 4:2:0, standard tables scaled by the quality).
//!
//! libjpeg reports errors by unwinding out of the C code; the crate turns
//! them into a Rust unwind without the panic hook, and `guarded` catches it,
//! so a corrupt file is a Python `OSError`, never a crash. Its message is
//! the one Pillow gives for any libjpeg error (the codec's "broken" status),
//! whatever libjpeg said.
use std::panic::{self, AssertUnwindSafe};

/// Pixels as `_imaging` holds them: mode, width, height, row-major bytes.
pub type Decoded = (&'static str, usize, usize, Vec<u8>);

/// Runs libjpeg code; any failure is Pillow's message `broken`.
fn guarded<T>(broken: &str, f: impl FnOnce() -> std::io::Result<T>) -> Result<T, String> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(_)) | Err(_) => Err(broken.to_owned()),
    }
}

/// Whether the file stops inside its image data: libjpeg then pads the
/// rest with grey and only warns, where Pillow raises "image file is
/// truncated". The last scan starts at the last SOS marker (`FF DA`), and
/// entropy-coded data never holds an `FF D9` (every `FF` is stuffed), so
/// a whole file has its EOI after it.
fn truncated(data: &[u8]) -> bool {
    let last_scan = data.windows(2).rposition(|w| w == [0xFF, 0xDA]);
    match last_scan {
        Some(at) => !data[at..].windows(2).any(|w| w == [0xFF, 0xD9]),
        None => false,
    }
}

/// Pillow's `cmyk2rgb` (Convert.c): each ink scaled by the inverted black,
/// with its rounded division by 255.
fn cmyk_to_rgb(cmyk: &[u8]) -> Vec<u8> {
    let muldiv255 = |a: i32, b: i32| {
        let t = a * b + 128;
        ((t >> 8) + t) >> 8
    };
    let mut out = Vec::with_capacity(cmyk.len() / 4 * 3);
    for p in cmyk.chunks_exact(4) {
        let nk = 255 - i32::from(p[3]);
        for &ink in &p[..3] {
            out.push((nk - muldiv255(i32::from(ink), nk)).clamp(0, 255) as u8);
        }
    }
    out
}

/// Decodes a JPEG file: `L` for a greyscale file, `RGB` otherwise. A CMYK
/// file (Pillow's mode `CMYK`, which fluidc's images do not hold) comes out
/// as Pillow's `convert('RGB')` of it, its inks inverted first: Pillow
/// always reads a CMYK JPEG with Adobe's polarity (`CMYK;I`).
pub fn decode(data: &[u8]) -> Result<Decoded, String> {
    if truncated(data) {
        return Err("image file is truncated".to_owned());
    }
    guarded("broken data stream when reading image file", || {
        let d = mozjpeg::Decompress::new_mem(data)?;
        let (w, h) = d.size();
        match d.color_space() {
            mozjpeg::ColorSpace::JCS_GRAYSCALE => {
                let mut img = d.grayscale()?;
                let px = img.read_scanlines::<u8>()?;
                img.finish()?;
                Ok(("L", w, h, px))
            }
            mozjpeg::ColorSpace::JCS_CMYK | mozjpeg::ColorSpace::JCS_YCCK => {
                let mut img = d.to_colorspace(mozjpeg::ColorSpace::JCS_CMYK)?;
                let mut px = img.read_scanlines::<u8>()?;
                img.finish()?;
                px.iter_mut().for_each(|v| *v = 255 - *v);
                Ok(("RGB", w, h, cmyk_to_rgb(&px)))
            }
            _ => {
                let mut img = d.rgb()?;
                let px = img.read_scanlines::<u8>()?;
                img.finish()?;
                Ok(("RGB", w, h, px))
            }
        }
    })
}

/// Encodes `L` or `RGB` pixels as Pillow's `save(..., 'JPEG', quality=q)`
/// does: libjpeg's defaults, the standard tables scaled by `quality`.
pub fn encode(mode: &str, w: usize, h: usize, px: &[u8], quality: u8) -> Result<Vec<u8>, String> {
    let space = match mode {
        "L" => mozjpeg::ColorSpace::JCS_GRAYSCALE,
        "RGB" => mozjpeg::ColorSpace::JCS_RGB,
        _ => return Err(format!("cannot write mode {mode} as JPEG")),
    };
    guarded("encoder error -2 when writing image file", || {
        let mut c = mozjpeg::Compress::new(space);
        c.set_fastest_defaults();
        c.set_size(w, h);
        c.set_quality(f32::from(quality));
        let mut started = c.start_compress(Vec::new())?;
        started.write_scanlines(px)?;
        started.finish()
    })
}
