//! `paddle.dataset.uci_housing` and `paddle.dataset.mnist` (SPEC §8.4):
//! small files in Paddle's formats under a temporary HOME, read by fluidc
//! and by Paddle 3.3.1's own `paddle.dataset` code (1.x's, unchanged; only
//! its download is replaced by the cached file, see the shim), with the
//! same printed samples. A missing file is an error that says where to put
//! it.
mod common;

use std::io::Write;
use std::path::{Path, PathBuf};

use common::*;

/// A gzipped idx file: big-endian `magic, dims...` then the bytes.
fn idx_gz(magic: u32, dims: &[u32], data: &[u8]) -> Vec<u8> {
    let mut raw = magic.to_be_bytes().to_vec();
    for d in dims {
        raw.extend(d.to_be_bytes());
    }
    raw.extend_from_slice(data);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&raw).expect("gzip");
    gz.finish().expect("gzip")
}

/// HOME with MNIST's four files: `n_train` and `n_test` images of 3x4
/// pixels (multiples of 100, as Paddle's reader reads 100 at a time).
fn mnist_home(home: &Path, n_train: u32, n_test: u32) {
    let dir = home.join(".cache/paddle/dataset/mnist");
    std::fs::create_dir_all(&dir).expect("mnist dir");
    let mut state: u32 = 12345;
    let mut byte = |m: u32| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
        ((state >> 16) % m) as u8
    };
    for (set, n) in [("train", n_train), ("t10k", n_test)] {
        let pixels: Vec<u8> = (0..n * 12).map(|_| byte(256)).collect();
        let labels: Vec<u8> = (0..n).map(|_| byte(10)).collect();
        std::fs::write(
            dir.join(format!("{set}-images-idx3-ubyte.gz")),
            idx_gz(2051, &[n, 3, 4], &pixels),
        )
        .expect("write images");
        std::fs::write(
            dir.join(format!("{set}-labels-idx1-ubyte.gz")),
            idx_gz(2049, &[n], &labels),
        )
        .expect("write labels");
    }
}

fn write_script(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write script");
    path
}

/// Runs `script` with HOME=`home` in fluidc and in Python + Paddle.
fn both(script: &Path, home: &Path) -> (std::process::Output, std::process::Output) {
    let ours = fluidc_env(&["run", path_str(script)], &[("HOME", home)]);
    let theirs = run_with_paddle(script, &repo(), &[("HOME", home)]);
    (ours, theirs)
}

const SAMPLES: &str = r#"
import paddle
train = paddle.dataset.uci_housing.train()
test = paddle.dataset.uci_housing.test()
rows = list(train())
print(len(rows), len(list(test())))
for x, y in rows[:2]:
    print(x, y, x.dtype, x.shape, y.dtype, y.shape)
for x, y in test():
    print(x.tolist(), y.tolist())
m = list(paddle.dataset.mnist.train()())
print(len(m), m[0][0].dtype, m[0][0].shape, isinstance(m[0][1], int))
for image, label in m[:2] + m[-2:]:
    print(image, label)
t = list(paddle.dataset.mnist.test()())
print(len(t), t[7][0].tolist(), t[7][1])
"#;

#[test]
fn uci_housing_and_mnist_give_paddles_samples() {
    let home = housing_home("datasets_home", 37);
    mnist_home(&home, 200, 100);
    let script = write_script(&home, "samples.py", SAMPLES);
    let (ours, theirs) = both(&script, &home);
    assert!(
        theirs.status.success(),
        "python: {}",
        String::from_utf8_lossy(&theirs.stderr)
    );
    assert!(ours.status.success(), "{}", stderr(&ours));
    assert_eq!(stdout(&ours), String::from_utf8_lossy(&theirs.stdout));
    // 37 rows: 29 to train (int(37 * 0.8)), 8 to test.
    assert!(stdout(&ours).starts_with("29 8\n"), "{}", stdout(&ours));
    // Small test files are not Paddle's downloads: one warning per file.
    let err = stderr(&ours);
    assert_eq!(
        err.matches("is not the file Paddle 1.x downloaded").count(),
        5,
        "{err}"
    );
}

#[test]
fn a_missing_dataset_file_says_where_to_put_it() {
    let home = temp_dir("datasets_empty_home");
    let script = write_script(
        &home,
        "missing.py",
        "import paddle\n\nreader = paddle.batch(paddle.dataset.uci_housing.train(), 4)\n",
    );
    let out = fluidc_env(&["run", path_str(&script)], &[("HOME", &home)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    let file = home.join(".cache/paddle/dataset/uci_housing/housing.data");
    assert!(
        err.contains(&format!(
            "paddle.dataset.uci_housing needs the file `{}`, which is not there",
            file.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("File \"") && err.contains("missing.py\", line 3, in <module>"),
        "{err}"
    );
    assert!(
        err.contains("http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"),
        "{err}"
    );
    assert!(err.contains("fluidc never downloads"), "{err}");
    // MNIST names its first file too; inside a `try` it is an exception.
    let script = write_script(
        &home,
        "missing_mnist.py",
        "import paddle\ntry:\n    paddle.dataset.mnist.test()\nexcept Exception as e:\n    print('caught', 'mnist/t10k-images-idx3-ubyte.gz' in str(e))\n",
    );
    let out = fluidc_env(&["run", path_str(&script)], &[("HOME", &home)]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "caught True\n");
}

#[test]
fn a_truncated_mnist_file_is_an_error_not_a_panic() {
    let home = temp_dir("datasets_bad_mnist");
    mnist_home(&home, 100, 100);
    // 150 labels: Paddle's reader reads a second hundred past the end.
    let dir = home.join(".cache/paddle/dataset/mnist");
    std::fs::write(
        dir.join("train-labels-idx1-ubyte.gz"),
        idx_gz(2049, &[150], &[1; 150]),
    )
    .expect("write");
    std::fs::write(dir.join("train-images-idx3-ubyte.gz"), b"not gzip").expect("write");
    let script = write_script(
        &home,
        "bad.py",
        "import paddle\nfor s in paddle.dataset.mnist.train()():\n    pass\n",
    );
    let out = fluidc_env(&["run", path_str(&script)], &[("HOME", &home)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    // gzip's own error, at the user's line, as CPython reports it.
    assert!(
        err.contains("gzip.BadGzipFile: Not a gzipped file"),
        "{err}"
    );
    assert!(err.contains("bad.py\", line 2, in <module>"), "{err}");
}
