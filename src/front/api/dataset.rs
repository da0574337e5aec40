//! `paddle.dataset.uci_housing` and `paddle.dataset.mnist` (SPEC §8.4):
//! the files Paddle 1.x downloaded, read from the same cache
//! (`$HOME/.cache/paddle/dataset/<name>/`, the same file names) in the same
//! formats, with the samples 1.x's `uci_housing.py` and `mnist.py` gave.
//! fluidc never downloads: a missing file is an error that names it, the
//! address Paddle got it from and where to put it. A file whose md5 is not
//! the one Paddle checked gets a warning (Paddle would download it again)
//! and is read all the same, so small test files work.
use std::io::Read;
use std::ops::Range;
use std::path::PathBuf;
use std::rc::Rc;

use super::builtin::{builtin, Args, Builtin, Rest};
use super::reader::decorated;
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::Value;
use crate::host::HostArray;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["paddle.dataset.uci_housing.train"],
        [],
        Rest::No,
        |h, a| { uci_housing(h, a, true) }
    ),
    builtin!(["paddle.dataset.uci_housing.test"], [], Rest::No, |h, a| {
        uci_housing(h, a, false)
    }),
    builtin!(["paddle.dataset.mnist.train"], [], Rest::No, |h, a| {
        mnist(h, a, "train")
    }),
    builtin!(["paddle.dataset.mnist.test"], [], Rest::No, |h, a| {
        mnist(h, a, "t10k")
    }),
];

/// One file of a dataset as Paddle 1.x's `paddle.dataset.common.download`
/// kept it.
struct Source {
    module: &'static str,
    url: &'static str,
    md5: &'static str,
}

const HOUSING: Source = Source {
    module: "uci_housing",
    url: "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data",
    md5: "d4accdce7a25600298819f8e28e8d593",
};

const MNIST_URL: &str = "https://dataset.bj.bcebos.com/mnist/";

/// MNIST's four files: (set, kind) -> (file name, md5).
fn mnist_source(set: &str, kind: &str) -> Source {
    let (url, md5) = match (set, kind) {
        ("train", "images") => (
            "https://dataset.bj.bcebos.com/mnist/train-images-idx3-ubyte.gz",
            "f68b3c2dcbeaaa9fbdd348bbdeb94873",
        ),
        ("train", _) => (
            "https://dataset.bj.bcebos.com/mnist/train-labels-idx1-ubyte.gz",
            "d53e105ee54ea40749a09fcbcd1e9432",
        ),
        (_, "images") => (
            "https://dataset.bj.bcebos.com/mnist/t10k-images-idx3-ubyte.gz",
            "9fb629c4189551a2d022fa330f9573f3",
        ),
        _ => (
            "https://dataset.bj.bcebos.com/mnist/t10k-labels-idx1-ubyte.gz",
            "ec29112dd5afa0611ce80d1b7f02629c",
        ),
    };
    debug_assert!(url.starts_with(MNIST_URL));
    Source {
        module: "mnist",
        url,
        md5,
    }
}

/// Where Paddle 1.x kept a download: `~/.cache/paddle/dataset/<module>/<file>`,
/// `~` as Python's `os.path.expanduser` finds it (`$HOME`).
fn cached(src: &Source, a: &Args) -> Result<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .ok_or_else(|| {
            Diagnostic::new(
            a.call.clone(),
            "HOME is not set, so Paddle's dataset cache (~/.cache/paddle/dataset) cannot be found",
        )
        .help("set HOME to the directory whose .cache/paddle/dataset holds the files")
        })?;
    let file = src.url.rsplit('/').next().unwrap_or(src.url);
    Ok(PathBuf::from(home)
        .join(".cache/paddle/dataset")
        .join(src.module)
        .join(file))
}

thread_local! {
    /// The files whose md5 got a warning (once per file and run).
    static WARNED: std::cell::RefCell<std::collections::HashSet<PathBuf>> = Default::default();
}

/// The bytes of a dataset file, or the error that says where it belongs.
fn load(h: &mut Host, a: &Args, src: &Source) -> Result<Vec<u8>> {
    let path = cached(src, a)?;
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            let what = if e.kind() == std::io::ErrorKind::NotFound {
                "is not there".to_string()
            } else {
                format!("cannot be read ({e})")
            };
            return Err(Diagnostic::new(
                a.call.clone(),
                format!(
                    "paddle.dataset.{} needs the file `{}`, which {what}",
                    src.module,
                    path.display()
                ),
            )
            .help(format!(
                "fluidc never downloads: Paddle 1.x downloaded it from {}; put that file at {} (HOME decides where ~/.cache is)",
                src.url,
                path.display()
            )));
        }
    };
    let sum = format!("{:x}", md5::compute(&bytes));
    let first = WARNED.with(|w| w.borrow_mut().insert(path.clone()));
    if sum != src.md5 && first {
        h.warn(
            Diagnostic::warning(
                a.call.clone(),
                format!(
                    "`{}` is not the file Paddle 1.x downloaded (its md5 is {sum}, Paddle's is {}); fluidc reads it anyway",
                    path.display(),
                    src.md5
                ),
            )
            .help(format!(
                "Paddle would download it again from {}",
                src.url
            )),
        );
    }
    Ok(bytes)
}

/// `uci_housing.train()` / `test()`: 1.x's `load_data` (14 numbers a row,
/// features scaled by `(x - mean) / (max - min)` over the whole file, the
/// first 80% of the rows for training), then a reader of
/// `(features[13], price[1])` float64 arrays.
fn uci_housing(h: &mut Host, a: &mut Args, train: bool) -> Result<Value> {
    const FEATURES: usize = 14;
    let bytes = load(h, a, &HOUSING)?;
    let path = cached(&HOUSING, a)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut data: Vec<f64> = Vec::new();
    for token in text.split_whitespace() {
        match token.parse::<f64>() {
            Ok(x) => data.push(x),
            Err(_) => {
                return Err(Diagnostic::new(
                    a.call.clone(),
                    format!(
                        "`{}` is not housing.data: `{token}` is not a number",
                        path.display()
                    ),
                )
                .help("housing.data holds 14 numbers per row, separated by spaces"))
            }
        }
    }
    if data.len() % FEATURES != 0 {
        return Err(Diagnostic::new(
            a.call.clone(),
            format!(
                "ValueError: `{}` holds {} numbers, not rows of {FEATURES}",
                path.display(),
                data.len()
            ),
        )
        .help("housing.data holds 14 numbers per row (13 features and the price)"));
    }
    let rows = data.len() / FEATURES;
    if rows > 0 {
        let mut max = data[..FEATURES].to_vec();
        let mut min = data[..FEATURES].to_vec();
        let mut sum = vec![0.0f64; FEATURES];
        for row in data.chunks(FEATURES) {
            for j in 0..FEATURES {
                // numpy's max/min propagate NaN.
                if row[j] > max[j] || row[j].is_nan() {
                    max[j] = row[j];
                }
                if row[j] < min[j] || row[j].is_nan() {
                    min[j] = row[j];
                }
                sum[j] += row[j];
            }
        }
        for j in 0..FEATURES - 1 {
            let avg = sum[j] / rows as f64;
            let range = max[j] - min[j];
            for row in data.chunks_mut(FEATURES) {
                row[j] = (row[j] - avg) / range;
            }
        }
    }
    let offset = (rows as f64 * 0.8) as usize;
    let picked = if train {
        &data[..offset * FEATURES]
    } else {
        &data[offset * FEATURES..]
    };
    let array = |shape: usize, v: &[f64]| -> Result<Value> {
        HostArray::from_vec(&[shape], v.to_vec())
            .map(|x| Value::Array(Rc::new(x)))
            .map_err(|e| Diagnostic::new(a.call.clone(), e.message))
    };
    let mut samples = Vec::with_capacity(picked.len() / FEATURES);
    for row in picked.chunks(FEATURES) {
        samples.push(Value::tuple(vec![
            array(FEATURES - 1, &row[..FEATURES - 1])?,
            array(1, &row[FEATURES - 1..])?,
        ]));
    }
    Ok(decorated("samples", vec![Value::list(samples)]))
}

/// `mnist.train()` / `test()`: checks the files are there (Paddle's
/// download step), then a reader that reads them when called.
fn mnist(h: &mut Host, a: &mut Args, set: &'static str) -> Result<Value> {
    let images = load(h, a, &mnist_source(set, "images"))?;
    let labels = load(h, a, &mnist_source(set, "labels"))?;
    let paths = [
        cached(&mnist_source(set, "images"), a)?,
        cached(&mnist_source(set, "labels"), a)?,
    ];
    let samples = mnist_samples(&images, &labels, &paths).map_err(|m| {
        Diagnostic::new(a.call.clone(), m)
            .help("MNIST's files are gzipped idx files: images `>IIII` (magic, count, rows, cols) then bytes, labels `>II` then bytes")
    })?;
    Ok(decorated("samples", vec![Value::list(samples)]))
}

/// 1.x's `reader_creator(image_file, label_file, 100)`: 100 labels and
/// images at a time, each image `(pixels / 255 * 2 - 1)` in float32, each
/// sample `(image[rows*cols], int(label))`.
fn mnist_samples(
    images_gz: &[u8],
    labels_gz: &[u8],
    paths: &[PathBuf; 2],
) -> std::result::Result<Vec<Value>, String> {
    const BUFFER: usize = 100;
    let gunzip = |bytes: &[u8], path: &PathBuf| -> std::result::Result<Vec<u8>, String> {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut out)
            .map_err(|e| format!("`{}` is not a gzip file: {e}", path.display()))?;
        Ok(out)
    };
    let img = gunzip(images_gz, &paths[0])?;
    let lab = gunzip(labels_gz, &paths[1])?;
    let be32 = |b: &[u8], at: usize| -> Option<usize> {
        let w: [u8; 4] = b.get(at..at + 4)?.try_into().ok()?;
        Some(u32::from_be_bytes(w) as usize)
    };
    let short = |path: &PathBuf, need: usize, have: usize| {
        format!(
            "struct.error: `{}` ends after {have} bytes, but Paddle's reader reads {need} (it reads {BUFFER} samples at a time)",
            path.display()
        )
    };
    let (Some(rows), Some(cols)) = (be32(&img, 8), be32(&img, 12)) else {
        return Err(short(&paths[0], 16, img.len()));
    };
    let Some(label_num) = be32(&lab, 4) else {
        return Err(short(&paths[1], 8, lab.len()));
    };
    let pixels = rows
        .checked_mul(cols)
        .filter(|p| *p <= crate::front::value::MAX_ITEMS)
        .ok_or_else(|| {
            format!(
                "`{}` has images of {rows}x{cols} pixels",
                paths[0].display()
            )
        })?;
    let (mut off_img, mut off_lab, mut step) = (16usize, 8usize, 0usize);
    let mut out = Vec::new();
    while step < label_num {
        let labels = lab
            .get(off_lab..off_lab + BUFFER)
            .ok_or_else(|| short(&paths[1], off_lab + BUFFER, lab.len()))?;
        off_lab += BUFFER;
        step += BUFFER;
        let n = BUFFER * pixels;
        let block = img
            .get(off_img..off_img + n)
            .ok_or_else(|| short(&paths[0], off_img + n, img.len()))?;
        off_img += n;
        for (i, label) in labels.iter().enumerate() {
            let image: Vec<f32> = block[i * pixels..(i + 1) * pixels]
                .iter()
                .map(|&p| f32::from(p) / 255.0f32 * 2.0f32 - 1.0f32)
                .collect();
            let image = HostArray::from_vec(&[pixels], image).map_err(|e| e.message)?;
            out.push(Value::tuple(vec![
                Value::Array(Rc::new(image)),
                Value::Int(i64::from(*label)),
            ]));
        }
        if out.len() > crate::front::value::MAX_ITEMS {
            return Err("the dataset has more samples than fluidc keeps in memory".into());
        }
    }
    Ok(out)
}

/// The items of a dataset's reader (`reader.__call__` of kind `samples`).
pub fn call_reader(kind: &str, parts: &[Value], sp: Range<usize>) -> Result<Value> {
    match (kind, parts.get(1)) {
        // A fresh list each call, as each call of a generator starts over.
        ("samples", Some(Value::List(l))) => Ok(Value::list(l.borrow().clone())),
        _ => Err(Diagnostic::new(sp, format!("unknown reader kind `{kind}`"))),
    }
}
